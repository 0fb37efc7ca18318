"""Quake III demos written from the spec (``msg.c``'s writing side): a bit stream whose whole bytes go through the fixed
Huffman code, game states, snapshots with player-state and entity deltas, server commands.

Independent of the parser: values are written field by field as ``MSG_WriteDeltaEntity`` and
``MSG_WriteDeltaPlayerstate`` write them, each byte encoded with the code table alone.
"""

from __future__ import annotations

import struct

from pyvista_quake.formats._q3huffman import CODES

# The delta fields as msg.c's tables list them, with their bit widths (0 a float, negative signed), written out
# here again so that a demo written by these builders does not lean on the reader's tables.
_ENTITY = """pos.trTime 32, pos.trBase[0] 0, pos.trBase[1] 0, pos.trDelta[0] 0, pos.trDelta[1] 0, pos.trBase[2] 0,
apos.trBase[1] 0, pos.trDelta[2] 0, apos.trBase[0] 0, event 10, angles2[1] 0, eType 8, torsoAnim 8, eventParm 8,
legsAnim 8, groundEntityNum 10, pos.trType 8, eFlags 19, otherEntityNum 10, weapon 8, clientNum 8, angles[1] 0,
pos.trDuration 32, apos.trType 8, origin[0] 0, origin[1] 0, origin[2] 0, solid 24, powerups 16, modelindex 8,
otherEntityNum2 10, loopSound 8, generic1 8, origin2[2] 0, origin2[0] 0, origin2[1] 0, modelindex2 8, angles[0] 0,
time 32, apos.trTime 32, apos.trDuration 32, apos.trBase[2] 0, apos.trDelta[0] 0, apos.trDelta[1] 0,
apos.trDelta[2] 0, time2 32, angles[2] 0, angles2[0] 0, angles2[2] 0, constantLight 32, frame 16"""
_PLAYER = """commandTime 32, origin[0] 0, origin[1] 0, bobCycle 8, velocity[0] 0, velocity[1] 0, viewangles[1] 0,
viewangles[0] 0, weaponTime -16, origin[2] 0, velocity[2] 0, legsTimer 8, pm_time -16, eventSequence 16, torsoAnim 8,
movementDir 4, events[0] 8, legsAnim 8, events[1] 8, pm_flags 16, groundEntityNum 10, weaponstate 4, eFlags 16,
externalEvent 10, gravity 16, speed 16, delta_angles[1] 16, externalEventParm 8, viewheight -8, damageEvent 8,
damageYaw 8, damagePitch 8, damageCount 8, generic1 8, pm_type 8, delta_angles[0] 16, delta_angles[2] 16,
torsoTimer 12, eventParms[0] 8, eventParms[1] 8, clientNum 8, weapon 5, viewangles[2] 0, grapplePoint[0] 0,
grapplePoint[1] 0, grapplePoint[2] 0, jumppad_ent 10, loopSound 16"""


def _table(text: str) -> tuple[tuple[str, int], ...]:
    return tuple((name, int(bits)) for name, bits in (item.split() for item in text.replace('\n', ' ').split(',')))


ENTITY_FIELDS = _table(_ENTITY)
PLAYER_FIELDS = _table(_PLAYER)


class Writer:
    """``MSG_WriteBits`` after ``MSG_Bitstream``: bits 1-7 of a value as they are, each whole byte Huffman-coded."""

    def __init__(self) -> None:
        self.bits: list[int] = []

    def write(self, value: int, count: int) -> Writer:
        value &= (1 << count) - 1 if count < 32 else 0xFFFFFFFF
        raw = count & 7
        self.bits += [(value >> k) & 1 for k in range(raw)]
        for shift in range(raw, count, 8):
            self.bits += [int(b) for b in CODES[(value >> shift) & 0xFF]]
        return self

    def byte(self, value: int) -> Writer:
        return self.write(value, 8)

    def short(self, value: int) -> Writer:
        return self.write(value, 16)

    def long(self, value: int) -> Writer:
        return self.write(value, 32)

    def string(self, text: str) -> Writer:
        for c in text.encode('latin-1'):
            self.byte(c)
        return self.byte(0)

    def data(self) -> bytes:
        out = bytearray((len(self.bits) + 7) // 8)
        for k, bit in enumerate(self.bits):
            out[k >> 3] |= bit << (k & 7)
        return bytes(out)


def _float_bits(value: float) -> int:
    return struct.unpack('<I', struct.pack('<f', value))[0]


def _changed(w: Writer, table: tuple[tuple[str, int], ...], changes: dict[str, float | int]):
    """Write a delta's field count (up to the last field changed) and each field's changed bit; yield each changed
    field's value and width, for the caller to write after its bit."""
    names = [name for name, _ in table]
    last = max(names.index(name) for name in changes) + 1 if changes else 0
    w.byte(last)
    for name, bits in table[:last]:
        w.write(int(name in changes), 1)
        if name in changes:
            yield changes[name], bits


def entity(w: Writer, number: int, changes: dict[str, float | int] | None, *, remove: bool = False) -> None:
    """One entity of a snapshot or baseline: its number, then a removal, no change (``changes`` None) or a delta."""
    w.write(number, 10)
    if remove:
        w.write(1, 1)
        return
    w.write(0, 1)
    if changes is None:
        w.write(0, 1)
        return
    w.write(1, 1)
    for value, bits in _changed(w, ENTITY_FIELDS, changes):
        if bits == 0:
            if value == 0:
                w.write(0, 1)
            elif float(value).is_integer() and -4096 <= value < 4096:
                w.write(1, 1).write(0, 1).write(int(value) + 4096, 13)
            else:
                w.write(1, 1).write(1, 1).write(_float_bits(float(value)), 32)
        elif value == 0:
            w.write(0, 1)
        else:
            w.write(1, 1).write(int(value), bits)


def player(w: Writer, changes: dict[str, float | int], stats: dict[int, int] | None = None) -> None:
    """A player-state delta: its fields, then the stats array only (persistant, ammo and powerups unchanged)."""
    for value, bits in _changed(w, PLAYER_FIELDS, changes):
        if bits == 0:
            if float(value).is_integer() and -4096 <= value < 4096:
                w.write(0, 1).write(int(value) + 4096, 13)
            else:
                w.write(1, 1).write(_float_bits(float(value)), 32)
        else:
            w.write(int(value), abs(bits))
    if not stats:
        w.write(0, 1)
        return
    w.write(1, 1).write(1, 1)
    w.write(sum(1 << k for k in stats), 16)
    for k in sorted(stats):
        w.short(stats[k])
    w.write(0, 1).write(0, 1).write(0, 1)


def gamestate(w: Writer, configstrings: dict[int, str], baselines: dict[int, dict] | None = None, client: int = 0, sequence: int = 0) -> None:
    w.byte(2).long(sequence)
    for index, text in configstrings.items():
        w.byte(3).short(index).string(text)
    for number, changes in (baselines or {}).items():
        w.byte(4)
        entity(w, number, changes)
    w.byte(8).long(client).long(0)


def snapshot(w: Writer, time: int, delta: int, ps: dict, entities: list[tuple], stats: dict[int, int] | None = None) -> None:
    """``entities``: ``(number, changes)`` or ``(number, None)`` (unchanged) or ``(number, 'remove')``, in number order."""
    w.byte(7).long(time).byte(delta).byte(0).byte(0)
    player(w, ps, stats)
    for number, changes in entities:
        if changes == 'remove':
            entity(w, number, None, remove=True)
        else:
            entity(w, number, changes)
    w.write(1023, 10)


def command(w: Writer, sequence: int, text: str) -> None:
    w.byte(5).long(sequence).string(text)


def message(sequence: int, build, ack: int = 0) -> bytes:
    """One demo record: sequence, length, and the message ``build(writer)`` writes, ended by ``svc_EOF``."""
    w = Writer().long(ack)
    build(w)
    w.byte(8)
    data = w.data()
    return struct.pack('<ii', sequence, len(data)) + data


def demo(*messages: bytes, end: bool = True) -> bytes:
    return b''.join(messages) + (struct.pack('<ii', 0, -1) if end else b'')
