"""Test-side builders of Quake demos (.dem), written from ../shared/specs/demos.txt and protocol.h's numbers with struct.

Independent of pyvista_quake.formats.dem: each message is packed command by command.
"""

from __future__ import annotations

import struct


def coord(value: float, flags: int = 0) -> bytes:
    if flags & (1 << 4):
        return struct.pack('<f', value)
    if flags & (1 << 7):
        return struct.pack('<i', round(value * 16))
    if flags & (1 << 3):  # 24 bits: the whole units, then 255ths
        whole = int(value // 1)
        return struct.pack('<hB', whole, round((value - whole) * 255))
    return struct.pack('<h', round(value * 8))


def sent_angle(value: float, flags: int = 0) -> float:
    """The angle as the protocol carries it (what a reader gets back)."""
    if flags & (1 << 2):
        return struct.unpack('<f', struct.pack('<f', value))[0]
    if flags & (1 << 1):
        return round(value * 65536 / 360) * 360 / 65536
    return round(value * 256 / 360) * 360 / 256


def sound(protocol: int, entity: int, flags: int = 0) -> bytes:
    """svc_sound with volume and attenuation; 666's and 999's with a large entity and a large sound number."""
    if protocol == 15:
        return bytes([6, 1 | 2, 200, 64]) + struct.pack('<hB', (entity << 3) | 1, 3) + b''.join(coord(v, flags) for v in (1, 2, 3))
    return bytes([6, 1 | 2 | 8 | 16, 200, 64]) + struct.pack('<hBh', entity, 1, 300) + b''.join(coord(v, flags) for v in (1, 2, 3))


def angle(value: float, flags: int = 0) -> bytes:
    if flags & (1 << 2):
        return struct.pack('<f', value)
    if flags & (1 << 1):
        return struct.pack('<h', round(value * 65536 / 360))
    return struct.pack('<b', round(value * 256 / 360))


def text(value: str) -> bytes:
    return value.encode('latin-1') + b'\0'


def serverinfo(protocol: int = 15, max_clients: int = 4, flags: int = 0, models=('maps/e1m1.bsp', 'progs/player.mdl')) -> bytes:
    out = bytes([11]) + struct.pack('<i', protocol) + (struct.pack('<I', flags) if protocol == 999 else b'')
    out += bytes([max_clients, 1]) + text('The Slipgate Complex')
    out += b''.join(text(m) for m in models) + b'\0' + text('weapons/r_exp3.wav') + b'\0'
    return out


def baseline(entity: int, origin, angles=(0, 0, 0), model: int = 2, flags: int = 0) -> bytes:
    return (
        bytes([22])
        + struct.pack('<h', entity)
        + bytes([model, 0, 0, 0])
        + b''.join(coord(o, flags) + angle(a, flags) for o, a in zip(origin, angles))
    )


#: FitzQuake's extension bits of an entity update, in the order their bytes follow: alpha, scale, frame2, model2, lerpfinish.
EXTENSIONS = (16, 20, 17, 18, 19)


def update(
    entity: int,
    origin=None,
    angles=None,
    protocol: int = 15,
    flags: int = 0,
    long_entity: bool = False,
    alpha: int | None = None,
    extras: bool = False,
    extensions: tuple[int, ...] = EXTENSIONS,
) -> bytes:
    """An entity update: each of the origin's and angles' fields given (not None) is sent, the rest are the baseline's;
    ``extras``: a model, frame, colormap, skin and effects byte too, and of 666 and 999 a byte of each of ``extensions``
    (bits of :data:`EXTENSIONS`)."""
    origin, angles = origin or (None, None, None), angles or (None, None, None)
    bits = 0
    if extras:
        bits |= (1 << 10) | (1 << 6) | (1 << 11) | (1 << 12) | (1 << 13)
        if protocol != 15:
            bits |= 1 << 15
            for bit in extensions:
                bits |= 1 << bit
    for k, bit in enumerate((1 << 1, 1 << 2, 1 << 3)):
        bits |= bit if origin[k] is not None else 0
    for k, bit in enumerate((1 << 8, 1 << 4, 1 << 9)):
        bits |= bit if angles[k] is not None else 0
    if long_entity:
        bits |= 1 << 14
    if alpha is not None:
        bits |= (1 << 16) | (1 << 15)
    if bits & 0xFF00:
        bits |= 1
    out = bytes([0x80 | (bits & 0x7F)])
    if bits & 1:
        out += bytes([(bits >> 8) & 0xFF])
    if bits & (1 << 15):
        out += bytes([(bits >> 16) & 0xFF])
    out += struct.pack('<h', entity) if long_entity else bytes([entity])
    if extras:
        out += bytes([9, 1, 2, 3, 4])  # model, frame, colormap, skin, effects
    for k in range(3):
        if origin[k] is not None:
            out += coord(origin[k], flags)
        if angles[k] is not None:
            out += angle(angles[k], flags)
    if alpha is not None:
        out += bytes([alpha])
    if extras and protocol != 15:
        out += bytes([10 + k for k, bit in enumerate(EXTENSIONS) if bit in extensions])
    return out


def clientdata(health: int, weapon: int, velocity=(0, 0, 0), protocol: int = 15, armor: int = 0) -> bytes:
    """Client data with a view height, an ideal pitch, a punch and each velocity given; of 666 and 999 an armour
    past 255 in its second byte (SU_ARMOR2, through SU_EXTEND1) and a weapon frame's second byte (SU_EXTEND2)."""
    bits = (1 << 14) | (1 << 0) | (1 << 1) | (1 << 2) | (1 << 13) | sum((1 << (5 + k)) for k, v in enumerate(velocity) if v)
    if protocol != 15:
        bits |= (1 << 15) | (1 << 17) | (1 << 18) | (1 << 23) | (1 << 24)
    out = bytes([15]) + struct.pack('<H', bits & 0xFFFF)
    if protocol != 15:
        out += bytes([(bits >> 16) & 0xFF, (bits >> 24) & 0xFF])
    out += struct.pack('<bb', 22, 5)  # view height, ideal pitch
    for k in range(3):
        if k == 0:
            out += struct.pack('<b', -3)  # punch
        if velocity[k]:
            out += struct.pack('<b', velocity[k] // 16)
    out += struct.pack('<i', 0)  # items, always sent
    out += bytes([armor & 0xFF])  # SU_ARMOR
    out += bytes([7])  # the weapon's model (SU_WEAPON)
    out += struct.pack('<h', health) + bytes([25, 10, 20, 0, 0, weapon])
    if protocol != 15:
        out += bytes([armor >> 8, 0, 99])  # SU_ARMOR2, SU_AMMO2, SU_WEAPONFRAME2 (99: no command, should a reader lose its place)
    return out


def message(commands: bytes, view=(0.0, 0.0, 0.0)) -> bytes:
    return struct.pack('<i3f', len(commands), *view) + commands


def build_demo(protocol: int = 15, flags: int = 0, steps: int = 4) -> bytes:
    """A demo of two players on e1m1: signon (server info, baselines, names, view entity), then ``steps`` timed
    messages: player 1 (the recorder, entity 1) walks along x 16 units a step from (100, 200, 24), its y and z
    from its baseline; player 2 (entity 2) stands at its baseline but in step 2, where it is at (500, 0, 0)."""
    signon = serverinfo(protocol, flags=flags) + bytes([5]) + struct.pack('<h', 1)
    signon += baseline(1, (0, 200, 24), flags=flags) + baseline(2, (-64, -64, 40), (0, 90, 0), flags=flags)
    signon += bytes([13, 0]) + text('ranger') + bytes([13, 1]) + text('bot') + bytes([13, 1]) + text('grunt') + bytes([14, 1]) + struct.pack('<h', 3)
    signon += bytes([25, 2, 24, 0])  # signonnum, setpause
    out = b'-1\n' + message(signon)
    for k in range(steps):
        commands = bytes([7]) + struct.pack('<f', 1.5 + 0.1 * k) + clientdata(100 - k, 2, velocity=(160, 0, 0), protocol=protocol, armor=300)
        commands += sound(protocol, 1, flags)
        commands += update(
            1,
            (100.0 + 16 * k, None, None),
            (None, 50.0, None),
            protocol=protocol,
            flags=flags,
            extras=k in (1, 3),
            extensions=EXTENSIONS if k == 1 else (18,),
        )  # every extension byte; the second byte of a model alone
        if protocol != 15 and k == 0:
            commands += bytes([41, 128, 10, 20, 30]) + struct.pack('<h', 50)  # fog: density, colour, time
        if k == 2:
            commands += temp_entities(flags)
        commands += update(2, (500.0, 0.0, 0.0) if k == 2 else None, protocol=protocol, flags=flags, long_entity=True)
        if k == 1:
            commands += bytes([8]) + text('ranger was gibbed by bot\n')
        out += message(commands, view=(0.0, 45.0, 0.0))
    return out


def temp_entities(flags: int = 0) -> bytes:
    """svc_temp_entity of every kind: a point (spikes, gunshots, explosions, splashes, teleports), an entity and two
    points (the beams), a point and two colour bytes (explosion2)."""
    out = b''
    for kind in range(14):
        out += bytes([23, kind])
        if kind in (5, 6, 9, 13):
            out += struct.pack('<h', 1) + b''.join(coord(v, flags) for v in (1, 2, 3, 4, 5, 6))
        elif kind == 12:
            out += b''.join(coord(v, flags) for v in (1, 2, 3)) + bytes([99, 99])  # 99: no command, should a reader lose its place
        else:
            out += b''.join(coord(v, flags) for v in (1, 2, 3))
    return out
