"""Quake II ``.md2`` models: the bytes, as numpy structured dtypes.

Follows ``qfiles.h`` of the Quake II source (see ``md2-format.txt``).  This
module knows the byte layout and nothing of PyVista; it produces a
format-neutral :class:`~pyvista_quake.data.ModelData`.
"""

from __future__ import annotations

import functools

import numpy as np

from pyvista_quake.data import GLCommand
from pyvista_quake.data import ModelData
from pyvista_quake.formats._common import Bounds
from pyvista_quake.formats._common import cstrings
from pyvista_quake.formats._common import record_view
from pyvista_quake.formats._common import register_format
from pyvista_quake.formats.tables import NUM_VERTEX_NORMALS

IDENT = b'IDP2'
VERSION = 8

# The game's limits (qfiles.h, r_model.c); applied only with ``strict=True``.
MAX_TRIANGLES = 4096
MAX_VERTS = 2048
MAX_FRAMES = 512
MAX_MD2SKINS = 32
MAX_SKINNAME = 64
MAX_SKINHEIGHT = 480  # MAX_LBM_HEIGHT

HEADER = np.dtype(
    [
        ('ident', 'S4'),
        ('version', '<i4'),
        ('skinwidth', '<i4'),
        ('skinheight', '<i4'),
        ('framesize', '<i4'),
        ('num_skins', '<i4'),
        ('num_xyz', '<i4'),
        ('num_st', '<i4'),
        ('num_tris', '<i4'),
        ('num_glcmds', '<i4'),
        ('num_frames', '<i4'),
        ('ofs_skins', '<i4'),
        ('ofs_st', '<i4'),
        ('ofs_tris', '<i4'),
        ('ofs_frames', '<i4'),
        ('ofs_glcmds', '<i4'),
        ('ofs_end', '<i4'),
    ]
)
SKIN = np.dtype([('name', f'S{MAX_SKINNAME}')])
ST = np.dtype([('s', '<i2'), ('t', '<i2')])  # dstvert_t
TRIANGLE = np.dtype([('index_xyz', '<i2', (3,)), ('index_st', '<i2', (3,))])  # dtriangle_t
FRAME_HEADER_SIZE = 40
GLVERTEX = np.dtype([('s', '<f4'), ('t', '<f4'), ('index', '<i4')])


@functools.lru_cache(maxsize=64)
def frame_dtype(num_xyz: int, framesize: int) -> np.dtype:
    """Return the ``daliasframe_t`` layout for ``num_xyz`` vertices, ``framesize`` bytes apart."""
    return np.dtype(
        {
            'names': ['scale', 'translate', 'name', 'verts'],
            'formats': [('<f4', (3,)), ('<f4', (3,)), 'S16', ('u1', (num_xyz, 4))],
            'offsets': [0, 12, 24, FRAME_HEADER_SIZE],
            'itemsize': framesize,
        }
    )


def read(buffer: bytes | memoryview, source: str = '<bytes>', *, strict: bool = False) -> ModelData:
    """Parse an MD2 model.

    Parameters
    ----------
    buffer : bytes or memoryview
        The whole file.
    source : str, default: '<bytes>'
        Name of the file, for error messages.
    strict : bool, default: False
        Also apply Quake II's own limits (``MAX_VERTS``, skin height 480, ...)
        as the game's loader does.

    Returns
    -------
    ModelData
        The model's content, frames still packed.

    Raises
    ------
    QuakeFormatError
        If the file is structurally malformed (or breaks a game limit under
        ``strict``).

    """
    check = Bounds(source, len(buffer))
    if len(buffer) < HEADER.itemsize:
        raise check.error('header', len(buffer), f'file shorter than the {HEADER.itemsize}-byte header')
    h = dict(zip(HEADER.names, np.frombuffer(buffer, HEADER, 1)[0].item()))
    if h['ident'] != IDENT:
        raise check.error('ident', h['ident'], f'expected {IDENT!r}')
    if h['version'] != VERSION:
        raise check.error('version', h['version'], f'expected {VERSION}')

    for name in ('skinwidth', 'skinheight', 'num_skins', 'num_st', 'num_glcmds'):
        check.count(name, h[name])
    num_xyz = check.count('num_xyz', h['num_xyz'], 1)
    num_tris = check.count('num_tris', h['num_tris'], 1)
    num_frames = check.count('num_frames', h['num_frames'], 1)
    num_st = check.count('num_st', h['num_st'], 1)
    framesize = h['framesize']
    if framesize < FRAME_HEADER_SIZE + 4 * num_xyz:
        raise check.error(
            'framesize', framesize, f'too small for {num_xyz} vertices ({FRAME_HEADER_SIZE + 4 * num_xyz} bytes)'
        )
    if strict:
        _check_limits(check, h)

    sections = (
        ('ofs_skins', h['num_skins'], SKIN.itemsize),
        ('ofs_st', num_st, ST.itemsize),
        ('ofs_tris', num_tris, TRIANGLE.itemsize),
        ('ofs_frames', num_frames, framesize),
        ('ofs_glcmds', h['num_glcmds'], 4),
    )
    for field, count, itemsize in sections:
        check.section(field, h[field], count, itemsize)
        if count and h[field] < HEADER.itemsize:
            raise check.error(field, h[field], f'section overlaps the {HEADER.itemsize}-byte header')

    skins = np.frombuffer(buffer, SKIN, h['num_skins'], h['ofs_skins'] if h['num_skins'] else 0)
    if strict and (skins['name'].view(np.uint8).reshape(-1, MAX_SKINNAME)[:, -1] != 0).any():
        raise check.error('skin name', '', f'not ended by a zero byte within {MAX_SKINNAME} bytes')
    st = np.frombuffer(buffer, ST, num_st, h['ofs_st'])
    tris = np.frombuffer(buffer, TRIANGLE, num_tris, h['ofs_tris'])
    index_xyz = tris['index_xyz'].astype(np.int32)
    index_st = tris['index_st'].astype(np.int32)
    check.indices('index_xyz', index_xyz, num_xyz)
    check.indices('index_st', index_st, num_st)

    frames = np.ndarray(
        (num_frames,),
        dtype=frame_dtype(num_xyz, framesize),
        buffer=buffer,
        offset=h['ofs_frames'],
    )
    scale = frames['scale']
    translate = frames['translate']
    check.finite('frame scale', scale)
    check.finite('frame translate', translate)
    verts = frames['verts']
    if strict:
        _check_normals(check, verts)

    glcmds = np.frombuffer(buffer, '<i4', h['num_glcmds'], h['ofs_glcmds'] if h['num_glcmds'] else 0)
    end = max([HEADER.itemsize] + [h[f] + c * s for f, c, s in sections if c])

    st_pixels = st.view(np.int16).reshape(-1, 2)  # (s, t) pairs
    return ModelData(
        format='md2',
        source=source,
        header={k: (v.decode('latin-1') if isinstance(v, bytes) else v) for k, v in h.items()},
        skin_width=h['skinwidth'],
        skin_height=h['skinheight'],
        skin_names=cstrings(skins['name']),
        frame_verts=verts,
        frame_scale=scale,
        frame_translate=translate,
        frame_names=frames['name'],
        triangle_vertices=index_xyz,
        triangle_st=st_pixels[index_st].astype(np.int32),
        triangle_st_key=index_st.astype(np.int64),
        gl_commands=lambda: parse_glcmds(glcmds, num_xyz, check),
        trailing=bytes(buffer[end:]),
    )


def parse_glcmds(words: np.ndarray, num_xyz: int, check: Bounds) -> list[GLCommand]:
    """Parse an OpenGL command list: strips and fans until the zero word.

    A list that ends at ``num_glcmds`` without its zero word is accepted; a
    command whose vertices run past the list, or that names a vertex out of
    range, is an error.
    """
    commands: list[GLCommand] = []
    if len(words) == 0:
        return commands
    vertex_words = words.view(np.uint8)  # reinterpreted per command below
    position = 0
    while position < len(words):
        count = int(words[position])
        if count == 0:
            break
        n = abs(count)
        first = position + 1
        last = first + 3 * n
        if last > len(words):
            raise check.error(
                'glcmds', count, f'command at word {position} needs {3 * n} words, only {len(words) - first} left'
            )
        verts = np.frombuffer(vertex_words, GLVERTEX, n, 4 * first)
        index = verts['index']
        check.indices('glcmds vertex index', index, num_xyz)
        texcoords = np.stack([verts['s'], verts['t']], axis=-1)
        commands.append(GLCommand('strip' if count > 0 else 'fan', index.astype(np.int32), texcoords))
        position = last
    return commands


def _check_limits(check: Bounds, h: dict) -> None:
    """Apply Quake II's loader checks (``Mod_LoadAliasModel``) and ``qfiles.h`` limits."""
    limits = (
        ('skinheight', MAX_SKINHEIGHT),
        ('num_xyz', MAX_VERTS),
        ('num_tris', MAX_TRIANGLES),
        ('num_frames', MAX_FRAMES),
        ('num_skins', MAX_MD2SKINS),
    )
    for field, limit in limits:
        if h[field] > limit:
            raise check.error(field, h[field], f'exceeds the game limit of {limit} (strict)')


def _check_normals(check: Bounds, verts: np.ndarray) -> None:
    top = int(verts[..., 3].max())
    if top >= NUM_VERTEX_NORMALS:
        raise check.error('lightnormalindex', top, f'past the {NUM_VERTEX_NORMALS}-entry normal table (strict)')


register_format('md2', IDENT, ('.md2',), read)
