"""Quake demos (``.dem``): NetQuake's protocol 15, FitzQuake's 666 and RMQ's 999, as ``CL_GetMessage`` and ``CL_ParseServerMessage`` read them.

A demo is a text line with the CD track (``-1`` or a number, then ``\\n``), then message after
message: an ``int32`` length, the client's three ``float32`` view angles, and the message's
bytes.  A message is ``svc_*`` commands until its end; a command byte with its high bit set
(``U_SIGNAL``) is an entity update whose low bits start its ``U_*`` flags.  Coordinates are
``int16`` eighths, angles a byte of 256ths of a turn (protocols 15 and 666 alike; 999's server info
says how wide they are: floats, 24 or 32 bits, short angles); an
entity's field an update does not carry is its baseline's (``svc_spawnbaseline``).

:func:`parse` reads every message and keeps what a trajectory needs: each message's server
time (``svc_time``), the entities it updates with their origins and angles, the client's
own data (``svc_clientdata``: health, weapon, velocity), names (``svc_updatename``), frags,
prints, the view entity (``svc_setview``), and the server info (protocol, clients, the map).
A demo cut short ends at its last whole message, with a warning.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
import struct
from typing import Any

import numpy as np

from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake._base.warnings import warn_external
from pyvista_quake.formats.records import DemoRecord

PROTOCOLS = (15, 666, 999)
#: RMQ's (999) protocol flags: how coordinates and angles are sent.
PRFL_SHORTANGLE, PRFL_FLOATANGLE, PRFL_24BITCOORD, PRFL_FLOATCOORD, PRFL_INT32COORD = 1 << 1, 1 << 2, 1 << 3, 1 << 4, 1 << 7
#: Entity update flags (``protocol.h``), FitzQuake's past bit 15.
U_MOREBITS, U_ORIGIN1, U_ORIGIN2, U_ORIGIN3, U_ANGLE2, U_STEP, U_FRAME, U_SIGNAL = (1 << k for k in range(8))
U_ANGLE1, U_ANGLE3, U_MODEL, U_COLORMAP, U_SKIN, U_EFFECTS, U_LONGENTITY, U_EXTEND1 = (1 << k for k in range(8, 16))
U_ALPHA, U_FRAME2, U_MODEL2, U_LERPFINISH, U_SCALE, U_EXTEND2 = 1 << 16, 1 << 17, 1 << 18, 1 << 19, 1 << 20, 1 << 23
#: Client data flags.
SU_VIEWHEIGHT, SU_IDEALPITCH, SU_PUNCH1, SU_VELOCITY1 = 1 << 0, 1 << 1, 1 << 2, 1 << 5
SU_WEAPONFRAME, SU_ARMOR, SU_WEAPON, SU_EXTEND1, SU_EXTEND2 = 1 << 12, 1 << 13, 1 << 14, 1 << 15, 1 << 23
#: FitzQuake's second bytes of client data, in the order they follow (SU_WEAPON2 .. SU_CELLS2, SU_WEAPONFRAME2, SU_WEAPONALPHA).
SU_SECOND_BYTES = (16, 17, 18, 19, 20, 21, 22, 24, 25)
SND_VOLUME, SND_ATTENUATION, SND_LARGEENTITY, SND_LARGESOUND = 1, 2, 8, 16
B_LARGEMODEL, B_LARGEFRAME, B_ALPHA = 1, 2, 4

#: The most a message may hold (NetQuake's MAX_MSGLEN is 8000; FitzQuake's 64000, QuakeSpasm's more).
MAX_MESSAGE = 1 << 20


@dataclass
class Update:
    """One entity as a message gives it: its number, origin and angles (each its baseline's where not sent)."""

    entity: int
    origin: tuple[float, float, float]
    angles: tuple[float, float, float]


@dataclass
class QuakeDemoData:
    """What a Quake demo holds, message by message (see :func:`parse`).

    Attributes
    ----------
    source : str
        Where the bytes came from.
    protocol : int
        15 (NetQuake), 666 (FitzQuake) or 999 (RMQ, QuakeSpasm's).
    protocol_flags : int
        RMQ's flags: how wide its coordinates and angles are.
    max_clients : int
        Player slots: entities 1 to ``max_clients`` are the players (client ``k`` is entity ``k + 1``).
    models : list of str
        The model precache, the map first (``maps/e1m1.bsp``).
    times : list of float
        Each timed message's server time (``svc_time``), in order.
    updates : list of list of Update
        Each timed message's entity updates.
    view_angles : list of tuple
        The client's view angles as the demo stores them before each timed message.
    view_entity : int
        The recording client's entity (``svc_setview``).
    client_data : list of dict
        Each timed message's client data (``health``, ``weapon``, ``armor``, ``velocity``, ``items``), or ``{}``.
    names : dict of int to list of str
        Each client's names in the order it had them.
    frags : dict of int to int
        Each client's frags as the demo ends.
    prints : list of tuple
        ``(time, text)`` of each ``svc_print`` and ``svc_centerprint``.
    frag_updates : list of tuple
        ``(time, message, client, frags)`` of each ``svc_updatefrags``: ``message`` the timed message it came in
        (-1 before the first), ``frags`` the client's count from then on.
    """

    source: str
    protocol: int = 15
    protocol_flags: int = 0
    max_clients: int = 0
    models: list[str] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    updates: list[list[Update]] = field(default_factory=list)
    view_angles: list[tuple[float, float, float]] = field(default_factory=list)
    view_entity: int = 0
    client_data: list[dict[str, Any]] = field(default_factory=list)
    names: dict[int, list[str]] = field(default_factory=dict)
    frags: dict[int, int] = field(default_factory=dict)
    prints: list[tuple[float, str]] = field(default_factory=list)
    frag_updates: list[tuple[float, int, int, int]] = field(default_factory=list)


class _Message:
    """A cursor over one message's bytes; reading past its end raises :class:`_Short`."""

    def __init__(self, data: bytes, flags: int = 0) -> None:
        self.data = data
        self.at = 0
        self.flags = flags  # RMQ's protocol flags (0: NetQuake's and FitzQuake's coordinates and angles)

    def take(self, count: int) -> bytes:
        end = self.at + count
        if end > len(self.data):
            raise _ShortError
        out = self.data[self.at : end]
        self.at = end
        return out

    def byte(self) -> int:
        return self.take(1)[0]

    def char(self) -> int:
        return struct.unpack('<b', self.take(1))[0]

    def short(self) -> int:
        return struct.unpack('<h', self.take(2))[0]

    def long(self) -> int:
        return struct.unpack('<i', self.take(4))[0]

    def real(self) -> float:
        return struct.unpack('<f', self.take(4))[0]

    def coord(self) -> float:
        if self.flags & PRFL_FLOATCOORD:
            return self.real()
        if self.flags & PRFL_INT32COORD:
            return self.long() * (1.0 / 16)
        if self.flags & PRFL_24BITCOORD:
            return self.short() + self.byte() * (1.0 / 255)
        return self.short() * 0.125

    def coords(self, count: int = 3) -> list[float]:
        return [self.coord() for _ in range(count)]

    def angle(self) -> float:
        if self.flags & PRFL_FLOATANGLE:
            return self.real()
        if self.flags & PRFL_SHORTANGLE:
            return self.short() * (360.0 / 65536)
        return self.char() * (360.0 / 256)

    def string(self) -> str:
        end = self.data.find(b'\0', self.at)
        if end < 0:
            raise _ShortError
        out = self.data[self.at : end]
        self.at = end + 1
        return out.decode('latin-1')


class _ShortError(Exception):
    """A message ended inside a command."""


def is_quake_demo(raw: bytes) -> bool:
    """Whether the bytes start as a Quake demo does: a line of the CD track's number (``-1`` or a number)."""
    line_end = raw.find(b'\n', 0, 16)
    return line_end >= 0 and raw[:line_end].strip().lstrip(b'-').isdigit()


def parse(buffer: bytes | memoryview, source: str) -> QuakeDemoData:
    """Read a Quake demo's messages.

    Raises
    ------
    QuakeFormatError
        For a file with no CD-track line, a message length past any message's size, a command no protocol has,
        or a command that runs past its message (naming the message and command).
    """
    raw = bytes(buffer)
    line_end = raw.find(b'\n', 0, 16)
    if not is_quake_demo(raw):
        raise QuakeFormatError(source, 'cd track', raw[:16], 'not a Quake demo (a line with the CD track first)')
    out = QuakeDemoData(source)
    baselines: dict[int, Update] = {}
    at = line_end + 1
    number = 0
    while at < len(raw):
        if at + 16 > len(raw):
            warn_external(f"{source}: the demo ends inside message {number}'s header; read up to message {number - 1}")
            break
        size = struct.unpack_from('<i', raw, at)[0]
        angles = struct.unpack_from('<3f', raw, at + 4)
        if size < 0 or size > MAX_MESSAGE:
            raise QuakeFormatError(source, f'message {number} length', size, f'not a message length (0 to {MAX_MESSAGE})')
        if at + 16 + size > len(raw):
            warn_external(f"{source}: message {number} ({size} bytes) runs past the file's end (cut short); read up to message {number - 1}")
            break
        _read_message(out, _Message(raw[at + 16 : at + 16 + size], out.protocol_flags), angles, baselines, number)
        at += 16 + size
        number += 1
    return out


def _read_message(out: QuakeDemoData, m: _Message, angles: tuple, baselines: dict[int, Update], number: int) -> None:
    """Every command of one message, into ``out``."""
    updates: list[Update] = []
    data: dict[str, Any] = {}
    time: float | None = None
    try:
        while m.at < len(m.data):
            command = m.byte()
            if command & U_SIGNAL:
                updates.append(_update(out, m, command & 0x7F, baselines))
            elif command == 7:  # svc_time
                time = m.real()
            else:
                # The timed message this command belongs to: this one where it has a time, else the last.
                timed = (time, len(out.times)) if time is not None else (out.times[-1] if out.times else 0.0, len(out.times) - 1)
                _command(out, m, command, baselines, data, *timed)
    except _ShortError:
        raise QuakeFormatError(out.source, f'message {number}', m.at, "a command runs past the message's end") from None
    if time is not None:
        out.times.append(time)
        out.updates.append(updates)
        out.view_angles.append(tuple(float(a) for a in angles))  # type: ignore[arg-type]
        out.client_data.append(data)


def _update(out: QuakeDemoData, m: _Message, bits: int, baselines: dict[int, Update]) -> Update:
    """``CL_ParseUpdate``: an entity's fields, its baseline's where the update leaves them out."""
    if bits & U_MOREBITS:
        bits |= m.byte() << 8
    if out.protocol in (666, 999):
        if bits & U_EXTEND1:
            bits |= m.byte() << 16
        if bits & U_EXTEND2:
            bits |= m.byte() << 24
    entity = (m.short() & 0xFFFF) if bits & U_LONGENTITY else m.byte()
    base = baselines.get(entity) or Update(entity, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    for flag in (U_MODEL, U_FRAME, U_COLORMAP, U_SKIN, U_EFFECTS):
        if bits & flag:
            m.byte()
    origin, angle = list(base.origin), list(base.angles)
    for axis, (o_flag, a_flag) in enumerate(((U_ORIGIN1, U_ANGLE1), (U_ORIGIN2, U_ANGLE2), (U_ORIGIN3, U_ANGLE3))):
        if bits & o_flag:
            origin[axis] = m.coord()
        if bits & a_flag:
            angle[axis] = m.angle()
    if out.protocol in (666, 999):
        for flag in (U_ALPHA, U_SCALE, U_FRAME2, U_MODEL2, U_LERPFINISH):
            if bits & flag:
                m.byte()
    return Update(entity, (origin[0], origin[1], origin[2]), (angle[0], angle[1], angle[2]))


def _baseline(m: _Message, version: int, entity: int) -> Update:
    """``CL_ParseBaseline``: version 2 (FitzQuake's) starts with flags for a large model, a large frame and alpha."""
    bits = m.byte() if version == 2 else 0
    m.take(2 if bits & B_LARGEMODEL else 1)
    m.take(2 if bits & B_LARGEFRAME else 1)
    m.take(2)  # colormap, skin
    origin, angles = [], []
    for _ in range(3):
        origin.append(m.coord())
        angles.append(m.angle())
    if bits & B_ALPHA:
        m.byte()
    return Update(entity, (origin[0], origin[1], origin[2]), (angles[0], angles[1], angles[2]))


def _command(out: QuakeDemoData, m: _Message, command: int, baselines: dict[int, Update], data: dict[str, Any], time: float, message: int) -> None:
    """Every ``svc_*`` command but ``svc_time`` and entity updates: read whole, kept where a trajectory needs it."""
    if command in (1, 2, 27, 28, 30, 33, 40):  # nop, disconnect, killedmonster, foundsecret, intermission, sellscreen, bf
        return
    if command == 3:  # updatestat
        m.take(5)
    elif command == 4:  # version
        out.protocol = m.long()
    elif command == 5:  # setview
        out.view_entity = m.short() & 0xFFFF
    elif command == 6:  # sound
        mask = m.byte()
        m.take((1 if mask & SND_VOLUME else 0) + (1 if mask & SND_ATTENUATION else 0))
        m.take(3 if mask & SND_LARGEENTITY else 2)
        m.take(2 if mask & SND_LARGESOUND else 1)
        m.coords()
    elif command in (8, 26):  # print, centerprint
        out.prints.append((time, m.string()))
    elif command in (9, 31, 34, 37):  # stufftext, finale, cutscene, skybox
        m.string()
    elif command == 10:  # setangle
        for _ in range(3):
            m.angle()
    elif command == 11:  # serverinfo
        protocol = m.long()
        if protocol not in PROTOCOLS:
            raise QuakeFormatError(out.source, 'serverinfo protocol', protocol, "not NetQuake's (15), FitzQuake's (666) or RMQ's (999)")
        out.protocol = protocol
        if protocol == 999:
            out.protocol_flags = m.flags = m.long() & 0xFFFFFFFF
        out.max_clients = m.byte()
        m.byte()  # game type
        m.string()  # the level's title
        out.models = []
        while name := m.string():
            out.models.append(name)
        while m.string():  # the sound precache
            pass
    elif command == 12:  # lightstyle
        m.byte()
        m.string()
    elif command == 13:  # updatename
        client = m.byte()
        name = m.string()
        names = out.names.setdefault(client, [])
        if name and (not names or names[-1] != name):
            names.append(name)
    elif command == 14:  # updatefrags
        client = m.byte()
        out.frags[client] = m.short()
        out.frag_updates.append((time, message, client, out.frags[client]))
    elif command == 15:  # clientdata
        data.update(_client_data(out, m))
    elif command == 16:  # stopsound
        m.take(2)
    elif command == 17:  # updatecolors
        m.take(2)
    elif command == 18:  # particle: a point, a direction of three chars, a count and a colour
        m.coords()
        m.take(3 + 2)
    elif command == 19:  # damage
        m.take(2)
        m.coords()
    elif command in (20, 43):  # spawnstatic, spawnstatic2
        _baseline(m, 2 if command == 43 else 1, 0)
    elif command in (22, 42):  # spawnbaseline, spawnbaseline2
        entity = m.short() & 0xFFFF
        baselines[entity] = _baseline(m, 2 if command == 42 else 1, entity)
    elif command == 23:  # temp_entity
        _temp_entity(out, m)
    elif command in (24, 25):  # setpause, signonnum
        m.byte()
    elif command == 29:  # spawnstaticsound
        m.coords()
        m.take(3)
    elif command == 32:  # cdtrack
        m.take(2)
    elif command == 41:  # fog: density, colour, a short time in hundredths
        m.take(4 + 2)
    elif command == 44:  # spawnstaticsound2
        m.coords()
        m.take(2 + 2)
    else:
        raise QuakeFormatError(out.source, 'svc', command, f'no protocol {out.protocol} server message has this number')


def _client_data(out: QuakeDemoData, m: _Message) -> dict[str, Any]:
    """``CL_ParseClientdata``: the recording client's own state."""
    bits = m.short() & 0xFFFF
    if out.protocol in (666, 999):
        if bits & SU_EXTEND1:
            bits |= m.byte() << 16
        if bits & SU_EXTEND2:
            bits |= m.byte() << 24
    if bits & SU_VIEWHEIGHT:
        m.char()
    if bits & SU_IDEALPITCH:
        m.char()
    velocity = [0.0, 0.0, 0.0]
    for axis in range(3):
        if bits & (SU_PUNCH1 << axis):
            m.char()
        if bits & (SU_VELOCITY1 << axis):
            velocity[axis] = m.char() * 16.0
    items = m.long()
    if bits & SU_WEAPONFRAME:
        m.byte()
    armor = m.byte() if bits & SU_ARMOR else 0
    weapon_model = m.byte() if bits & SU_WEAPON else 0
    health = m.short()
    m.take(1 + 4)  # current ammo, shells, nails, rockets, cells
    weapon = m.byte()
    if out.protocol in (666, 999):
        for bit in SU_SECOND_BYTES:
            if bits & (1 << bit):
                value = m.byte()
                if bit == 17:
                    armor |= value << 8
    return {'health': health, 'armor': armor, 'weapon': weapon, 'weapon_model': weapon_model, 'items': items, 'velocity': tuple(velocity)}


def _temp_entity(out: QuakeDemoData, m: _Message) -> None:
    kind = m.byte()
    if kind in (0, 1, 2, 3, 4, 7, 8, 10, 11):
        m.coords()
    elif kind in (5, 6, 9, 13):  # beams: an entity and two points
        m.take(2)
        m.coords(6)
    elif kind == 12:  # explosion2: a point and two colour bytes
        m.coords()
        m.take(2)
    else:
        raise QuakeFormatError(out.source, 'temp_entity', kind, 'no Quake temporary entity has this number')


def map_name(models: list[str]) -> str:
    """The map's name from the model precache (``maps/e1m1.bsp`` -> ``e1m1``), ``''`` without one."""
    first = models[0] if models else ''
    stem = first.rsplit('/', 1)[-1]
    return stem[:-4] if stem.lower().endswith('.bsp') else stem


def record(data: QuakeDemoData) -> DemoRecord:
    """The players through the demo as format-neutral rows, a row a client and timed message it is updated in (client
    ``k`` is entity ``k + 1``); the recorder's velocity, health and weapon from its client data (a row of its own, with
    no position, where the message updates no entity of it)."""
    recorder = data.view_entity - 1 if data.view_entity > 0 else -1
    rows: dict[tuple[int, int], list[float]] = {}
    nan = float('nan')
    for k, updates in enumerate(data.updates):
        for u in updates:
            if 1 <= u.entity <= data.max_clients:
                rows[(k, u.entity - 1)] = [*u.origin, *u.angles, nan, nan, nan, nan, nan]
    for k, said in enumerate(data.client_data):
        if said and recorder >= 0:
            row = rows.setdefault((k, recorder), [nan] * 11)
            row[6:11] = [*said['velocity'], said['health'], said['weapon']]
    keys = sorted(rows)
    table = np.array([rows[key] for key in keys], np.float64).reshape(-1, 11)
    who = np.array(keys, np.int64).reshape(-1, 2)
    out = DemoRecord(
        source=data.source,
        protocol=data.protocol,
        map=map_name(data.models),
        max_clients=data.max_clients,
        times=np.asarray(data.times, np.float64),
        message=who[:, 0],
        client=who[:, 1],
        origin=table[:, 0:3].astype(np.float32),
        angles=table[:, 3:6].astype(np.float32),
        velocity=table[:, 6:9].astype(np.float32),
        health=table[:, 9].astype(np.float32),
        weapon=table[:, 10].astype(np.float32),
        recorder=recorder,
        level_file=data.models[0] if data.models and data.models[0].lower().endswith('.bsp') else '',
    )
    out.names = {client: list(names) for client, names in sorted(data.names.items()) if names}
    out.info = {client: {'frags': data.frags.get(client, 0)} for client in out.names}
    last: dict[int, int] = {}
    for time, message, client, frags in data.frag_updates:
        if message >= 0 and frags != last.get(client, 0):  # before the first timed message: the counts as it starts
            out.events.append((time, message, 'frags', client, frags - last.get(client, 0), -1, -1, -1, '', nan, nan, nan))
        last[client] = frags
    out.prints = list(data.prints)
    return out
