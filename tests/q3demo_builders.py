"""Quake III demos written from the spec (``msg.c``'s writing side): a bit stream whose whole bytes go through the fixed
Huffman code, game states, snapshots with player-state and entity deltas, server commands.

Independent of the parser: values are written field by field as ``MSG_WriteDeltaEntity`` and
``MSG_WriteDeltaPlayerstate`` write them, each byte encoded with the code table alone.
"""

from __future__ import annotations

import struct

from pyvista_quake.formats._q3huffman import CODES
from pyvista_quake.formats.q3demo import ENTITY_FIELDS
from pyvista_quake.formats.q3demo import PLAYER_FIELDS


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
    names = [name for name, _ in ENTITY_FIELDS]
    last = max(names.index(name) for name in changes) + 1 if changes else 0
    w.byte(last)
    for name, bits in ENTITY_FIELDS[:last]:
        if name not in changes:
            w.write(0, 1)
            continue
        w.write(1, 1)
        value = changes[name]
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
    names = [name for name, _ in PLAYER_FIELDS]
    last = max(names.index(name) for name in changes) + 1 if changes else 0
    w.byte(last)
    for name, bits in PLAYER_FIELDS[:last]:
        if name not in changes:
            w.write(0, 1)
            continue
        w.write(1, 1)
        value = changes[name]
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
