"""Sprite files written from shared/specs/sprites.txt with struct, independently of the package's parser."""

from __future__ import annotations

import struct

import numpy as np


def frame_bytes(origin: tuple[int, int], pixels: np.ndarray) -> bytes:
    """One picture: origin[2], width, height, then its pixels (rows from the top; 1 or 4 bytes each)."""
    height, width = pixels.shape[:2]
    return struct.pack('<4i', origin[0], origin[1], width, height) + np.ascontiguousarray(pixels, np.uint8).tobytes()


def build_idsp(
    frames: list,
    *,
    version: int = 1,
    kind: int = 2,
    synctype: int = 0,
    tex_format: int = 0,
    palette: np.ndarray | None = None,
    colours: int = 256,
) -> bytes:
    """An ``IDSP`` sprite: each of ``frames`` is ``(origin, pixels)`` (a single picture) or
    ``(intervals, [(origin, pixels), ...])`` (a group)."""
    singles = [f[1] for f in frames if not isinstance(f[1], list)] + [p for f in frames if isinstance(f[1], list) for _, p in f[1]]
    width = max((p.shape[1] for p in singles), default=0)
    height = max((p.shape[0] for p in singles), default=0)
    if version == 2:
        head = struct.pack('<4s3if3ifi', b'IDSP', 2, kind, tex_format, 10.0, width, height, len(frames), 0.0, synctype)
        table = palette if palette is not None else np.arange(768, dtype=np.uint8).reshape(256, 3)
        head += struct.pack('<H', colours) + np.asarray(table, np.uint8).tobytes()
    else:
        head = struct.pack('<4s2if3ifi', b'IDSP', version, kind, 10.0, width, height, len(frames), 0.0, synctype)
    body = b''
    for first, second in frames:
        if isinstance(second, list):
            body += struct.pack('<2i', 1, len(second)) + struct.pack(f'<{len(first)}f', *first)
            body += b''.join(frame_bytes(origin, pixels) for origin, pixels in second)
        else:
            body += struct.pack('<i', 0) + frame_bytes(first, second)
    return head + body


def build_ids2(frames: list[tuple[int, int, int, int, str]]) -> bytes:
    """A Quake II sprite: each frame ``(width, height, origin_x, origin_y, image name)``."""
    out = struct.pack('<4s2i', b'IDS2', 2, len(frames))
    for width, height, x, y, name in frames:
        out += struct.pack('<4i64s', width, height, x, y, name.encode('latin-1'))
    return out
