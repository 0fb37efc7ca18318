"""Quake III demos (``.dm_68``, OpenArena's ``.dm_70`` and ``.dm_71``), as ioquake3's client reads them.

A demo is the messages the client received: ``int32`` sequence number, ``int32`` length (-1 ends the
recording), then the message.  A message is a bit stream: bits 1 to 7 of a value are read as they
are, each whole byte through Quake III's fixed Huffman code (:mod:`._q3huffman`); then the reliable
acknowledge and ``svc_*`` commands up to ``svc_EOF``: the game state (configstrings and entity
baselines, then the client number), server commands (``cs``, ``print``, ``chat``...), and snapshots
(the server time, a delta frame, the player state as a delta of fields, and the packet entities as
deltas of the frame's, or of the baselines).  Field tables, float encodings and the rules of delta
frames follow ``msg.c`` and ``cl_parse.c``.

:func:`parse` keeps each valid snapshot (its server time, the player state's fields, and every
entity's), the server commands with the snapshot that made the client game run them, and the
configstrings as they stand.  :func:`record` turns that into the format-neutral
:class:`~pyvista_quake.formats.records.DemoRecord`: the players' positions (the recorder's from its
player state, the others' from their entities' trajectories at the snapshot's time, evaluated in
``float32`` as ``BG_EvaluateTrajectory`` does), names, obituaries, pickups and prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
import struct
from typing import Any

import numpy as np

from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake._base.warnings import warn_external
from pyvista_quake.formats._q3huffman import CODES
from pyvista_quake.formats.records import DemoRecord

SVC_NOP, SVC_GAMESTATE, SVC_CONFIGSTRING, SVC_BASELINE, SVC_SERVERCOMMAND = 1, 2, 3, 4, 5
SVC_DOWNLOAD, SVC_SNAPSHOT, SVC_EOF, SVC_VOIP_SPEEX, SVC_VOIP_OPUS = 6, 7, 8, 9, 10
MAX_MSGLEN = 16384
GENTITYNUM_BITS = 10
MAX_GENTITIES = 1 << GENTITYNUM_BITS
MAX_CONFIGSTRINGS = 1024
MAX_CLIENTS = 64
PACKET_BACKUP = 32
MAX_PARSE_ENTITIES = PACKET_BACKUP * 256
MAX_SNAPSHOT_ENTITIES = 256
FLOAT_INT_BITS = 13
FLOAT_INT_BIAS = 1 << (FLOAT_INT_BITS - 1)
CS_SERVERINFO, CS_SYSTEMINFO, CS_PLAYERS = 0, 1, 544
ET_PLAYER, ET_EVENTS = 1, 13
EV_EVENT_BITS = 0x300
EV_ITEM_PICKUP, EV_OBITUARY = 19, 60
TR_STATIONARY, TR_INTERPOLATE, TR_LINEAR, TR_LINEAR_STOP, TR_SINE, TR_GRAVITY = range(6)
DEFAULT_GRAVITY = 800
STAT_HEALTH = 0

#: ``entityState_t``'s fields in the order a delta sends them, with their widths (0: a float).
ENTITY_FIELDS = (
    ('pos.trTime', 32), ('pos.trBase[0]', 0), ('pos.trBase[1]', 0), ('pos.trDelta[0]', 0), ('pos.trDelta[1]', 0),
    ('pos.trBase[2]', 0), ('apos.trBase[1]', 0), ('pos.trDelta[2]', 0), ('apos.trBase[0]', 0), ('event', 10),
    ('angles2[1]', 0), ('eType', 8), ('torsoAnim', 8), ('eventParm', 8), ('legsAnim', 8),
    ('groundEntityNum', GENTITYNUM_BITS), ('pos.trType', 8), ('eFlags', 19), ('otherEntityNum', GENTITYNUM_BITS),
    ('weapon', 8), ('clientNum', 8), ('angles[1]', 0), ('pos.trDuration', 32), ('apos.trType', 8),
    ('origin[0]', 0), ('origin[1]', 0), ('origin[2]', 0), ('solid', 24), ('powerups', 16), ('modelindex', 8),
    ('otherEntityNum2', GENTITYNUM_BITS), ('loopSound', 8), ('generic1', 8), ('origin2[2]', 0), ('origin2[0]', 0),
    ('origin2[1]', 0), ('modelindex2', 8), ('angles[0]', 0), ('time', 32), ('apos.trTime', 32),
    ('apos.trDuration', 32), ('apos.trBase[2]', 0), ('apos.trDelta[0]', 0), ('apos.trDelta[1]', 0),
    ('apos.trDelta[2]', 0), ('time2', 32), ('angles[2]', 0), ('angles2[0]', 0), ('angles2[2]', 0),
    ('constantLight', 32), ('frame', 16),
)  # fmt: skip
#: ``playerState_t``'s fields in the order a delta sends them (a negative width: signed).
PLAYER_FIELDS = (
    ('commandTime', 32), ('origin[0]', 0), ('origin[1]', 0), ('bobCycle', 8), ('velocity[0]', 0),
    ('velocity[1]', 0), ('viewangles[1]', 0), ('viewangles[0]', 0), ('weaponTime', -16), ('origin[2]', 0),
    ('velocity[2]', 0), ('legsTimer', 8), ('pm_time', -16), ('eventSequence', 16), ('torsoAnim', 8),
    ('movementDir', 4), ('events[0]', 8), ('legsAnim', 8), ('events[1]', 8), ('pm_flags', 16),
    ('groundEntityNum', GENTITYNUM_BITS), ('weaponstate', 4), ('eFlags', 16), ('externalEvent', 10),
    ('gravity', 16), ('speed', 16), ('delta_angles[1]', 16), ('externalEventParm', 8), ('viewheight', -8),
    ('damageEvent', 8), ('damageYaw', 8), ('damagePitch', 8), ('damageCount', 8), ('generic1', 8),
    ('pm_type', 8), ('delta_angles[0]', 16), ('delta_angles[2]', 16), ('torsoTimer', 12),
    ('eventParms[0]', 8), ('eventParms[1]', 8), ('clientNum', 8), ('weapon', 5), ('viewangles[2]', 0),
    ('grapplePoint[0]', 0), ('grapplePoint[1]', 0), ('grapplePoint[2]', 0), ('jumppad_ent', GENTITYNUM_BITS),
    ('loopSound', 16),
)  # fmt: skip
#: The player state's arrays after its fields, each 16 entries: stats, persistant, ammo (shorts), powerups (longs).
PLAYER_ARRAYS = ('stats', 'persistant', 'ammo', 'powerups')

_E = {name: k for k, (name, _) in enumerate(ENTITY_FIELDS)}
_P = {name: k for k, (name, _) in enumerate(PLAYER_FIELDS)}
_ENTITY_ZERO = tuple(0.0 if bits == 0 else 0 for _, bits in ENTITY_FIELDS)
_PLAYER_ZERO = (tuple(0.0 if bits == 0 else 0 for _, bits in PLAYER_FIELDS), (0,) * 16, (0,) * 16, (0,) * 16, (0,) * 16)


def _decode_table() -> tuple[list[int], list[int], int]:
    """Symbol and code length for every window of the next ``width`` bits (the first bit read the lowest)."""
    width = max(len(code) for code in CODES)
    symbols, lengths = [0] * (1 << width), [0] * (1 << width)
    for symbol, code in enumerate(CODES):
        value = sum(int(bit) << k for k, bit in enumerate(code))
        for high in range(1 << (width - len(code))):
            window = value | (high << len(code))
            symbols[window], lengths[window] = symbol, len(code)
    return symbols, lengths, width


_SYMBOLS, _LENGTHS, _WIDTH = _decode_table()
_WINDOW = (1 << _WIDTH) - 1
_SYMBOL_ARRAY = np.array(_SYMBOLS, np.int64)
_LENGTH_ARRAY = np.array(_LENGTHS, np.int64)


class _OverflowError(Exception):
    """A read past the message's end (``msg->readcount > msg->cursize``)."""


class _Bits:
    """A message's bit stream, read as ``MSG_ReadBits`` reads it after ``MSG_Bitstream``."""

    def __init__(self, data: bytes) -> None:
        self.size = len(data) * 8
        self.bit = 0
        self.field = 'reliable acknowledge'  # what is being read, for errors
        # At every bit a value could start: the next 11 bits, and the symbol and code length they begin with, so
        # that a byte costs two lookups (numpy makes the tables a message at a time).
        padded = np.frombuffer(data + bytes(4), np.uint8).astype(np.uint32)
        words = padded[:-2] | (padded[1:-1] << 8) | (padded[2:] << 16)
        at = np.arange(self.size + 8)
        windows = (words[at >> 3] >> (at & 7).astype(np.uint32)) & _WINDOW
        self.windows = windows.tolist()
        self.symbols = _SYMBOL_ARRAY[windows].tolist()
        self.lengths = _LENGTH_ARRAY[windows].tolist()

    def bits(self, count: int) -> int:
        """An unsigned value of ``count`` bits (1 to 32)."""
        bit = self.bit
        value = 0
        raw = count & 7
        if raw:
            if bit + raw > self.size:
                raise _OverflowError
            value = self.windows[bit] & ((1 << raw) - 1)
            bit += raw
        if count > raw:
            symbols, lengths, size = self.symbols, self.lengths, self.size
            for shift in range(raw, count, 8):
                value |= symbols[bit] << shift
                bit += lengths[bit]
                if bit > size:
                    raise _OverflowError
        self.bit = bit
        return value & 0xFFFFFFFF

    def signed(self, count: int) -> int:
        """A value of ``count`` bits, its top bit the sign (of the whole bytes' part, as ``MSG_ReadBits`` extends it)."""
        value = self.bits(count)
        width = count - (count & 7)  # the engine extends from the top of the Huffman-coded bytes: none below 8 bits
        if 0 < width < 32 and value & (1 << (width - 1)):
            value |= -1 ^ ((1 << width) - 1)
        return _int32(value)

    def byte(self) -> int:
        return self.bits(8)

    def short(self) -> int:
        return _int16(self.bits(16))

    def long(self) -> int:
        return _int32(self.bits(32))

    def string(self, limit: int) -> str:
        """A zero-ended string as ``MSG_ReadString`` keeps it: ``%`` and bytes past 127 as ``.``, at most ``limit - 1`` kept."""
        out: list[str] = []
        while True:
            c = self.bits(8)
            if c == 0:
                break
            if len(out) < limit - 1:
                out.append('.' if c == 37 or c > 127 else chr(c))
        return ''.join(out)

    def skip(self, count: int) -> None:
        for _ in range(count):
            self.bits(8)


def _int32(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


def _int16(value: int) -> int:
    value &= 0xFFFF
    return value - (1 << 16) if value & 0x8000 else value


def _float(pattern: int) -> float:
    return struct.unpack('<f', struct.pack('<I', pattern & 0xFFFFFFFF))[0]


@dataclass
class Snapshot:
    """One valid snapshot: the server time (ms), the player state and the entities in it."""

    server_time: int
    message: int
    command_sequence: int
    player: tuple  # (fields, stats, persistant, ammo, powerups)
    entities: dict[int, tuple]  # entity number -> its fields, in ENTITY_FIELDS' order


@dataclass
class Q3DemoData:
    """What a Quake III demo holds (see :func:`parse`).

    Attributes
    ----------
    source : str
        Where the bytes came from.
    protocol : int
        The server info's ``protocol`` (else the file name's number, else 68).
    client : int
        The recording client's number (the game state's).
    configstrings : dict of int to str
        The configstrings as the demo ends (as the client game last ran ``cs`` commands).
    snapshots : list of Snapshot
        Every valid snapshot, in order.
    commands : list of tuple
        ``(snapshot, text)`` of every server command the client game ran: ``snapshot`` the index of the snapshot
        that ran it.
    player_names : dict of int to list of str
        Each client's names, in the order it had them.
    """

    source: str
    protocol: int = 68
    client: int = -1
    configstrings: dict[int, str] = field(default_factory=dict)
    snapshots: list[Snapshot] = field(default_factory=list)
    commands: list[tuple[int, str]] = field(default_factory=list)
    player_names: dict[int, list[str]] = field(default_factory=dict)


class _Parser:
    """The client's state while it reads a demo: game state, snapshots kept for deltas, commands waiting."""

    def __init__(self, out: Q3DemoData) -> None:
        self.out = out
        self.baselines: dict[int, tuple] = {}
        self.frames: dict[int, tuple[int, int, tuple, dict[int, tuple], bool]] = {}  # slot -> (message, parse number, ps, entities, valid)
        self.parse_entities = 0
        self.last_message = -1  # cl.snap.messageNum
        self.command_sequence = 0
        self.waiting: dict[int, str] = {}  # commands received, by sequence, not yet run
        self.big = ''  # a big configstring being assembled (bcs0/bcs1/bcs2)
        self.configstrings: dict[int, str] = {}

    def message(self, m: _Bits, sequence: int) -> None:
        m.long()  # the reliable acknowledge
        while True:
            m.field = 'command'
            command = m.byte()
            if command == SVC_EOF:
                return
            if command == SVC_NOP:
                continue
            if command == SVC_SERVERCOMMAND:
                m.field = 'server command'
                number = m.long()
                text = m.string(1024)
                if number > self.command_sequence:
                    self.command_sequence = number
                    self.waiting[number] = text
            elif command == SVC_GAMESTATE:
                self.gamestate(m)
            elif command == SVC_SNAPSHOT:
                self.snapshot(m, sequence)
            elif command == SVC_DOWNLOAD:
                self.download(m)
            elif command in (SVC_VOIP_SPEEX, SVC_VOIP_OPUS):
                return  # voice only from here to the message's end: nothing a trajectory needs
            else:
                raise QuakeFormatError(self.out.source, 'command', command, 'not a server message command (svc_nop to svc_voipOpus)')

    def download(self, m: _Bits) -> None:
        m.field = 'download'
        block = m.bits(16)
        if block == 0:
            m.long()  # the file's size
        size = m.bits(16)
        if size > 2048:
            raise QuakeFormatError(self.out.source, 'download size', size, 'over the 2048 bytes a block holds')
        m.skip(size)

    def gamestate(self, m: _Bits) -> None:
        m.field = 'game state'
        self.command_sequence = m.long()
        self.waiting.clear()
        self.configstrings = {}
        self.baselines = {}
        self.frames = {}
        self.parse_entities = 0
        self.last_message = -1
        while True:
            command = m.byte()
            if command == SVC_EOF:
                break
            if command == SVC_CONFIGSTRING:
                m.field = 'configstring'
                index = m.short()
                if not 0 <= index < MAX_CONFIGSTRINGS:
                    raise QuakeFormatError(self.out.source, 'configstring', index, f'not a configstring (0 to {MAX_CONFIGSTRINGS - 1})')
                self._set_configstring(index, m.string(8192))
            elif command == SVC_BASELINE:
                m.field = 'baseline'
                number = m.bits(GENTITYNUM_BITS)
                self.baselines[number] = _read_entity(m, _ENTITY_ZERO, number, self.out.source) or _ENTITY_ZERO
            else:
                raise QuakeFormatError(self.out.source, 'game state command', command, 'not a configstring (3) or baseline (4)')
        m.field = 'client number'
        self.out.client = m.long()
        m.long()  # the checksum feed
        self.out.configstrings = self.configstrings

    def snapshot(self, m: _Bits, sequence: int) -> None:
        m.field = 'snapshot'
        server_time = m.long()
        delta = m.byte()
        delta_number = sequence - delta if delta else -1
        m.byte()  # the snapshot's flags
        old = None
        valid = delta_number <= 0
        if not valid:
            old = self.frames.get(delta_number & (PACKET_BACKUP - 1))
            valid = (
                old is not None and old[4] and old[0] == delta_number and self.parse_entities - old[1] <= MAX_PARSE_ENTITIES - MAX_SNAPSHOT_ENTITIES
            )
        m.field = 'area mask'
        size = m.byte()
        if size > 32:
            raise QuakeFormatError(self.out.source, 'area mask size', size, 'over the 32 bytes an area mask holds')
        m.skip(size)
        m.field = 'player state'
        player = _read_player(m, old[2] if old is not None else _PLAYER_ZERO, self.out.source)
        entities = self.packet_entities(m, old[3] if old is not None else None)
        if not valid:
            return  # a delta from a snapshot that is gone: dropped, as the client drops it
        first = self.last_message + 1
        if sequence - first >= PACKET_BACKUP:
            first = sequence - (PACKET_BACKUP - 1)
        for number in range(first, sequence):
            slot = self.frames.get(number & (PACKET_BACKUP - 1))
            if slot is not None:
                self.frames[number & (PACKET_BACKUP - 1)] = (*slot[:4], False)
        self.last_message = sequence
        self.frames[sequence & (PACKET_BACKUP - 1)] = (sequence, self._parse_start, player, entities, True)
        self.run_commands(len(self.out.snapshots))
        self.out.snapshots.append(Snapshot(server_time, sequence, self.command_sequence, player, entities))

    def packet_entities(self, m: _Bits, old: dict[int, tuple] | None) -> dict[int, tuple]:
        self._parse_start = self.parse_entities
        new: dict[int, tuple] = {}
        olds = sorted(old.items()) if old is not None else []
        k = 0
        while True:
            m.field = 'entity number'
            number = m.bits(GENTITYNUM_BITS)
            if number == MAX_GENTITIES - 1:
                break
            while k < len(olds) and olds[k][0] < number:  # unchanged
                new[olds[k][0]] = olds[k][1]
                k += 1
            m.field = f'entity {number}'
            if k < len(olds) and olds[k][0] == number:
                state = _read_entity(m, olds[k][1], number, self.out.source)
                k += 1
            else:
                state = _read_entity(m, self.baselines.get(number, _ENTITY_ZERO), number, self.out.source)
            if state is not None:
                new[number] = state
        for number, state in olds[k:]:
            new[number] = state
        self.parse_entities += len(new)
        return new

    def run_commands(self, snapshot: int) -> None:
        """Run the commands a snapshot covers, as the client game does before it shows the snapshot: every one
        received so far (each was kept only if newer than any before it, so they wait in order)."""
        for text in self.waiting.values():
            self.command(snapshot, text)
        self.waiting.clear()

    def command(self, snapshot: int, text: str) -> None:
        name, _, rest = text.partition(' ')
        if name == 'bcs0':
            self.big = 'cs ' + _unquoted_join(rest)
            return
        if name == 'bcs1':
            self.big += _unquoted_join(rest, opening=False)
            return
        if name == 'bcs2':
            text = self.big + _unquoted_join(rest, opening=False) + '"'
            name, _, rest = text.partition(' ')
        if name == 'cs':
            index_text, _, value = rest.partition(' ')
            if index_text.lstrip('-').isdigit():
                index = int(index_text)
                value = value.strip()
                if len(value) >= 2 and value[0] == '"' and value[-1] == '"':
                    value = value[1:-1]
                if 0 <= index < MAX_CONFIGSTRINGS:
                    self._set_configstring(index, value)
        self.out.commands.append((snapshot, text))

    def _set_configstring(self, index: int, value: str) -> None:
        """Set a configstring; a player's (``CS_PLAYERS + n``, not emptied) adds its name to the client's names."""
        self.configstrings[index] = value
        if CS_PLAYERS <= index < CS_PLAYERS + MAX_CLIENTS and value:
            name = info_value(value, 'n')
            names = self.out.player_names.setdefault(index - CS_PLAYERS, [])
            if not names or names[-1] != name:
                names.append(name)


def _unquoted_join(text: str, opening: bool = True) -> str:
    """A big configstring's piece as the command gives it (``bcs0 N "piece"``, ``bcs1 N "piece"``)."""
    index, _, piece = text.partition(' ')
    piece = piece.strip()
    if piece.startswith('"'):
        piece = piece[1:]
    if piece.endswith('"'):
        piece = piece[:-1]
    return f'{index} "{piece}' if opening else piece


def info_value(info: str, key: str) -> str:
    """The value of ``key`` in an info string (``\\key\\value\\key\\value``), ``''`` without it."""
    parts = info.split('\\')
    if parts and parts[0] == '':
        parts = parts[1:]
    for k in range(0, len(parts) - 1, 2):
        if parts[k] == key:
            return parts[k + 1]
    return ''


def _read_entity(m: _Bits, old: tuple, number: int, source: str) -> tuple | None:
    """An entity delta (``MSG_ReadDeltaEntity``): ``None`` for a removal."""
    if m.bits(1):
        return None
    if not m.bits(1):
        return old
    count = m.byte()
    if count > len(ENTITY_FIELDS):
        raise QuakeFormatError(source, f'entity {number} field count', count, f'over the {len(ENTITY_FIELDS)} fields an entity has')
    state = list(old)
    for k in range(count):
        if not m.bits(1):
            continue
        bits = ENTITY_FIELDS[k][1]
        if bits == 0:
            if not m.bits(1):
                state[k] = 0.0
            elif not m.bits(1):
                state[k] = float(m.bits(FLOAT_INT_BITS) - FLOAT_INT_BIAS)
            else:
                state[k] = _float(m.bits(32))
        elif not m.bits(1):
            state[k] = 0
        else:
            state[k] = m.signed(bits) if bits == 32 else m.bits(bits)
    return tuple(state)


def _read_player(m: _Bits, old: tuple, source: str) -> tuple:
    """A player state delta (``MSG_ReadDeltaPlayerstate``): fields, then stats, persistant, ammo and powerups."""
    count = m.byte()
    if count > len(PLAYER_FIELDS):
        raise QuakeFormatError(source, 'player state field count', count, f'over the {len(PLAYER_FIELDS)} fields a player state has')
    fields = list(old[0])
    for k in range(count):
        if not m.bits(1):
            continue
        bits = PLAYER_FIELDS[k][1]
        if bits == 0:
            fields[k] = float(m.bits(FLOAT_INT_BITS) - FLOAT_INT_BIAS) if not m.bits(1) else _float(m.bits(32))
        elif bits < 0 or bits == 32:
            fields[k] = m.signed(abs(bits))
        else:
            fields[k] = m.bits(bits)
    arrays = [list(a) for a in old[1:]]
    m.field = 'player state arrays'
    if m.bits(1):
        for which in range(4):
            if m.bits(1):
                present = m.bits(16)
                for k in range(16):
                    if present & (1 << k):
                        arrays[which][k] = m.long() if which == 3 else m.short()
    return (tuple(fields), *(tuple(a) for a in arrays))


def parse(buffer: bytes | memoryview, source: str, protocol: int | None = None) -> Q3DemoData:
    """Read a Quake III demo's messages.

    Parameters
    ----------
    buffer : bytes
        The file.
    source : str
        Its name, for errors.
    protocol : int, optional
        The protocol the file name says (``.dm_68``); the server info's wins.

    Raises
    ------
    QuakeFormatError
        For a message length past ``MAX_MSGLEN``, a command or field no protocol has, or a message read past its end
        (naming the message and what was being read).
    """
    raw = bytes(buffer)
    out = Q3DemoData(source)
    parser = _Parser(out)
    at = 0
    number = 0
    while at + 8 <= len(raw):
        sequence, size = struct.unpack_from('<ii', raw, at)
        if size == -1:
            break
        if not 0 <= size <= MAX_MSGLEN:
            raise QuakeFormatError(source, f'message {number} length', size, f'not a message length (0 to {MAX_MSGLEN})')
        if at + 8 + size > len(raw):
            warn_external(f"{source}: message {number} ({size} bytes) runs past the file's end (cut short); read up to message {number - 1}")
            break
        bits = _Bits(raw[at + 8 : at + 8 + size])
        try:
            parser.message(bits, sequence)
        except _OverflowError:
            raise QuakeFormatError(
                source, f'message {number} {bits.field}', f'bit {bits.bit} of {bits.size}', 'read past the end of the message'
            ) from None
        at += 8 + size
        number += 1
    else:
        if at < len(raw):
            warn_external(f"{source}: the demo ends inside message {number}'s header; read up to message {number - 1}")
    if number == 0 or out.client < 0:
        raise QuakeFormatError(source, 'game state', 'missing', 'no message holds a game state: not a Quake III demo')
    out.configstrings = parser.configstrings
    served = info_value(out.configstrings.get(CS_SERVERINFO, ''), 'protocol')
    out.protocol = int(served) if served.isdigit() else (protocol if protocol is not None else 68)
    return out


def evaluate_trajectory(kind: np.ndarray, start: np.ndarray, duration: np.ndarray, base: np.ndarray, delta: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Positions of trajectories at times ``at`` (ms), ``float32`` as ``BG_EvaluateTrajectory`` computes them; NaN for a
    trajectory type the game does not have."""
    base = base.astype(np.float32)
    delta = delta.astype(np.float32)
    out = np.full(base.shape, np.nan, np.float32)
    at = at.astype(np.int64)
    start = start.astype(np.int64)
    duration = duration.astype(np.int64)
    still = (kind == TR_STATIONARY) | (kind == TR_INTERPOLATE)
    out[still] = base[still]
    linear = (kind == TR_LINEAR) | (kind == TR_GRAVITY)
    seconds = ((at - start) * 0.001).astype(np.float32)  # an int times a double, kept as a float
    out[linear] = base[linear] + delta[linear] * seconds[linear, None]
    gravity = kind == TR_GRAVITY
    out[gravity, 2] = (out[gravity, 2].astype(np.float64) - 0.5 * DEFAULT_GRAVITY * seconds[gravity].astype(np.float64) ** 2).astype(np.float32)
    stop = kind == TR_LINEAR_STOP
    clamped = np.minimum(at, start + duration)
    stopped = np.maximum(((clamped - start) * 0.001).astype(np.float32), np.float32(0))
    out[stop] = base[stop] + delta[stop] * stopped[stop, None]
    sine = kind == TR_SINE
    with np.errstate(divide='ignore', invalid='ignore'):
        fraction = (at - start).astype(np.float32) / duration.astype(np.float32)
        phase = np.sin(fraction.astype(np.float64) * np.pi * 2).astype(np.float32)
    out[sine] = base[sine] + delta[sine] * phase[sine, None]
    return out


def record(data: Q3DemoData) -> DemoRecord:
    """The players through the demo, as format-neutral rows (see :class:`~pyvista_quake.formats.records.DemoRecord`)."""
    snaps = data.snapshots
    times = np.array([s.server_time for s in snaps], np.float64) / 1000.0
    p = _P
    from_player = ('clientNum', 'origin[0]', 'origin[1]', 'origin[2]', 'viewangles[0]', 'viewangles[1]', 'viewangles[2]', 'velocity[0]',
                   'velocity[1]', 'velocity[2]', 'weapon')  # fmt: skip
    player = np.array([[s.player[0][p[name]] for name in from_player] for s in snaps], np.float64).reshape(-1, len(from_player))
    health = np.array([s.player[1][STAT_HEALTH] for s in snaps], np.float32)
    e = _E
    wanted = ('pos.trType', 'pos.trTime', 'pos.trDuration', 'pos.trBase[0]', 'pos.trBase[1]', 'pos.trBase[2]', 'pos.trDelta[0]', 'pos.trDelta[1]',
              'pos.trDelta[2]', 'apos.trType', 'apos.trTime', 'apos.trDuration', 'apos.trBase[0]', 'apos.trBase[1]', 'apos.trBase[2]',
              'apos.trDelta[0]', 'apos.trDelta[1]', 'apos.trDelta[2]', 'weapon')  # fmt: skip
    columns = [e[name] for name in wanted]
    rows, owners = [], []
    for k, s in enumerate(snaps):
        own = s.player[0][p['clientNum']]
        for number, state in s.entities.items():
            if number < MAX_CLIENTS and number != own and state[e['eType']] == ET_PLAYER and state[e['clientNum']] == number:
                rows.append([state[c] for c in columns])
                owners.append((k, number))
    table = np.array(rows, np.float64).reshape(-1, len(wanted))
    who = np.array(owners, np.int64).reshape(-1, 2)
    at = np.array([s.server_time for s in snaps], np.int64)[who[:, 0]]
    as32 = table.astype(np.float32)
    origin = evaluate_trajectory(table[:, 0].astype(np.int64), table[:, 1], table[:, 2], as32[:, 3:6], as32[:, 6:9], at)
    angles = evaluate_trajectory(table[:, 9].astype(np.int64), table[:, 10], table[:, 11], as32[:, 12:15], as32[:, 15:18], at)
    n_ps = len(player)
    message = np.concatenate([np.arange(n_ps), who[:, 0]]).astype(np.int64)
    client = np.concatenate([player[:, 0], who[:, 1]]).astype(np.int64)
    keep = client >= 0
    out = DemoRecord(
        source=data.source,
        protocol=data.protocol,
        map=info_value(data.configstrings.get(CS_SERVERINFO, ''), 'mapname'),
        max_clients=MAX_CLIENTS,
        times=times,
        message=message,
        client=client,
        origin=np.concatenate([player[:, 1:4].astype(np.float32), origin]),
        angles=np.concatenate([player[:, 4:7].astype(np.float32), angles]),
        velocity=np.concatenate([player[:, 7:10].astype(np.float32), as32[:, 6:9]]),
        health=np.concatenate([health, np.full(len(who), np.nan, np.float32)]),
        weapon=np.concatenate([player[:, 10].astype(np.float32), table[:, 18].astype(np.float32)]),
        recorder=data.client,
    ).select(keep)
    out.level_file = f'maps/{out.map}.bsp' if out.map else ''
    out.names = {c: list(n) for c, n in data.player_names.items() if data.configstrings.get(CS_PLAYERS + c, '')}  # still in a slot
    out.info = {c: _player_info(data.configstrings.get(CS_PLAYERS + c, '')) for c in out.names}
    out.events = _events(data, times, out)
    out.prints = [(float(times[k]), _said(text)) for k, text in data.commands if text.split(' ', 1)[0] in ('print', 'cp', 'chat', 'tchat')]
    return out


def _player_info(info: str) -> dict[str, Any]:
    team = info_value(info, 't')
    return {'model': info_value(info, 'model'), 'team': int(team) if team.lstrip('-').isdigit() else 0}


def _said(command: str) -> str:
    """A print or chat command's text: its quoted argument."""
    text = command.split(' ', 1)[1] if ' ' in command else ''
    text = text.strip()
    if len(text) >= 2 and text[0] == '"' and text[-1] == '"':
        text = text[1:-1]
    return text


def _events(data: Q3DemoData, times: np.ndarray, rows: DemoRecord) -> list[tuple]:
    """Obituaries (temporary ``EV_OBITUARY`` entities) and item pickups (``EV_ITEM_PICKUP`` riding on a player's entity
    or player state), each the first snapshot it shows in (see :attr:`~pyvista_quake.formats.records.DemoRecord.events`)."""
    e, p = _E, _P
    out: list[tuple] = []
    previous: dict[int, tuple] = {}
    last_player: tuple | None = None
    for k, s in enumerate(data.snapshots):
        time = float(times[k])
        for number, state in s.entities.items():
            kind = state[e['eType']]
            before = previous.get(number)
            if kind > ET_EVENTS:
                if before is not None and before[e['eType']] == kind:
                    continue
                if kind - ET_EVENTS == EV_OBITUARY:
                    where = (state[e['pos.trBase[0]']], state[e['pos.trBase[1]']], state[e['pos.trBase[2]']])
                    out.append((time, k, 'frag', state[e['otherEntityNum2']], 1, state[e['otherEntityNum']], state[e['eventParm']], -1, '', *where))
            elif kind == ET_PLAYER and number < MAX_CLIENTS:
                event = state[e['event']]
                if event != (before[e['event']] if before is not None else 0) and event & ~EV_EVENT_BITS == EV_ITEM_PICKUP:
                    out.append((time, k, 'pickup', number, 0, -1, -1, state[e['eventParm']], '', *(np.nan,) * 3))
        fields = s.player[0]
        if last_player is not None:
            first = max(last_player[p['eventSequence']], fields[p['eventSequence']] - 2)
            for sequence in range(first, fields[p['eventSequence']]):
                slot = sequence & 1
                if fields[p[f'events[{slot}]']] & ~EV_EVENT_BITS == EV_ITEM_PICKUP:
                    parm = fields[p[f'eventParms[{slot}]']]
                    out.append((time, k, 'pickup', fields[p['clientNum']], 0, -1, -1, parm, '', *(np.nan,) * 3))
        last_player = fields
        previous = s.entities
    return out
