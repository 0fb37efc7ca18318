"""Quake II textures (``.wal``): a 100-byte header and four mip levels of palette indices (``qfiles.h`` ``miptex_t``).

The palette is not in the file: Quake II takes it from ``pics/colormap.pcx`` (its last 768 bytes).
"""

from __future__ import annotations

import numpy as np

from pyvista_quake.formats._common import Bounds
from pyvista_quake.formats.records import cstrings

HEADER = np.dtype(
    [
        ('name', 'S32'),
        ('width', '<u4'),
        ('height', '<u4'),
        ('offsets', '<u4', (4,)),
        ('animname', 'S32'),
        ('flags', '<i4'),
        ('contents', '<i4'),
        ('value', '<i4'),
    ]
)
#: Largest side a ``.wal`` is taken with (GL_LoadWal reads any; this bounds the allocation).
MAX_SIDE = 4096


def read(data: bytes, source: str) -> tuple[str, np.ndarray]:
    """The texture's name and its first mip level, ``uint8`` ``(height, width)`` palette indices, rows from the top.

    Raises
    ------
    QuakeFormatError
        For a header or pixels past the end of the file, or a side of 0 or over :data:`MAX_SIDE`.

    """
    bounds = Bounds(source, len(data))
    bounds.section('header', 0, 1, HEADER.itemsize)
    header = np.frombuffer(data, HEADER, 1)[0]
    width, height = int(header['width']), int(header['height'])
    for field, value in (('width', width), ('height', height)):
        if not 0 < value <= MAX_SIDE:
            raise bounds.error(field, value, f'a texture side is 1 to {MAX_SIDE}')
    offset = int(header['offsets'][0])
    bounds.section('offsets[0]', offset, width * height, 1)
    pixels = np.frombuffer(data, np.uint8, width * height, offset).reshape(height, width)
    return cstrings(np.array([header['name']]))[0], pixels
