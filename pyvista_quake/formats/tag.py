"""UFO: Alien Invasion's ``.tag`` files: per-frame attachment points for an MD2 (``JDP2`` version 1).

A ``.tag`` sits beside ``body.md2`` as ``body.tag``: a header (``ident``,
``version``, ``num_tags``, ``num_frames``, ``ofs_names``, ``ofs_tags``,
``ofs_end``, ``ofs_extractend``), 64-byte tag names, then for each tag
every frame's 4 x 3 floats: the tag's x, y and z axes as rows, then its
origin.  They are read into the same :class:`~pyvista_quake.formats.records.Tag`
records as an MD3's tags.  Nothing here knows PyVista.
"""

from __future__ import annotations

import numpy as np

from pyvista_quake.formats._common import Bounds
from pyvista_quake.formats._common import field_names
from pyvista_quake.formats.records import Tag
from pyvista_quake.formats.records import cstrings

IDENT = b'JDP2'
VERSION = 1
HEADER = np.dtype(
    [
        ('ident', 'S4'),
        ('version', '<i4'),
        ('num_tags', '<i4'),
        ('num_frames', '<i4'),
        ('ofs_names', '<i4'),
        ('ofs_tags', '<i4'),
        ('ofs_end', '<i4'),
        ('ofs_extractend', '<i4'),
    ]
)
NAME = np.dtype('S64')
#: One tag in one frame: axes as rows, then the origin.
MATRIX = np.dtype([('axes', '<f4', (3, 3)), ('origin', '<f4', (3,))])


def parse(buffer: bytes | memoryview, source: str = '<bytes>') -> dict[str, Tag]:
    """The tags of a ``.tag`` file by name, each with ``origins`` ``(frames, 3)`` and ``axes`` ``(frames, 3, 3)``.

    Raises
    ------
    QuakeFormatError
        For another ident or version, or sections past the end of the file.

    """
    check = Bounds(source, len(buffer))
    _, h = check.header(buffer, HEADER, IDENT, VERSION, lambda header: dict(zip(field_names(HEADER), header[0].item())))
    num_tags = check.count('num_tags', h['num_tags'])
    num_frames = check.count('num_frames', h['num_frames'])
    check.section('ofs_names', h['ofs_names'], num_tags, NAME.itemsize)
    check.section('ofs_tags', h['ofs_tags'], num_tags * num_frames, MATRIX.itemsize)
    names = cstrings(np.frombuffer(buffer, NAME, num_tags, h['ofs_names'] if num_tags else 0))
    matrices = np.frombuffer(buffer, MATRIX, num_tags * num_frames, h['ofs_tags'] if num_tags * num_frames else 0)
    matrices = matrices.reshape(num_tags, num_frames)  # tag-major: every frame of the first tag, then the next
    out: dict[str, Tag] = {}
    for k, name in enumerate(names):
        out.setdefault(name, Tag(name, matrices['origin'][k], matrices['axes'][k]))
    return out


def write(tags: dict[str, Tag]) -> bytes:
    """The bytes of a ``.tag`` file of tags that share their frames (the inverse of :func:`parse`)."""
    names = list(tags)
    num_frames = len(next(iter(tags.values())).origins) if tags else 0
    header = np.zeros(1, HEADER)
    header['ident'], header['version'], header['num_tags'], header['num_frames'] = IDENT, VERSION, len(names), num_frames
    header['ofs_names'] = HEADER.itemsize
    header['ofs_tags'] = HEADER.itemsize + NAME.itemsize * len(names)
    matrices = np.zeros((len(names), num_frames), MATRIX)
    for k, name in enumerate(names):
        matrices['axes'][k], matrices['origin'][k] = tags[name].axes, tags[name].origins
    header['ofs_end'] = int(header['ofs_tags'][0]) + matrices.nbytes
    header['ofs_extractend'] = int(header['ofs_end'][0]) + 16 * num_frames * len(names)  # what UFO: AI's tools write
    return header.tobytes() + np.array([n.encode('latin-1') for n in names], NAME).tobytes() + matrices.tobytes()
