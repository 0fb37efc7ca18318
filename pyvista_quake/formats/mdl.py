"""Quake ``.mdl`` models: the bytes, as numpy structured dtypes.

Follows ``modelgen.h`` and ``model.c`` of the Quake source (see
``mdl-format.txt``).  An MDL has no offsets: skins and frames are walked in
order.  This module knows the byte layout and nothing of PyVista; it
produces a format-neutral :class:`~pyvista_quake.data.ModelData`.
"""

from __future__ import annotations

import numpy as np

from pyvista_quake.data import FrameGroup
from pyvista_quake.data import ModelData
from pyvista_quake.data import SkinPicture
from pyvista_quake.formats._common import Bounds
from pyvista_quake.formats._common import cstrings
from pyvista_quake.formats._common import record_view
from pyvista_quake.formats._common import register_format
from pyvista_quake.formats.tables import NUM_VERTEX_NORMALS

IDENT = b'IDPO'
VERSION = 6  # ALIAS_VERSION

ALIAS_SKIN_SINGLE, ALIAS_SKIN_GROUP = 0, 1
ALIAS_SINGLE, ALIAS_GROUP = 0, 1
ALIAS_ONSEAM = 0x20
ST_SYNC, ST_RAND = 0, 1
SYNCTYPES = {ST_SYNC: 'ST_SYNC', ST_RAND: 'ST_RAND'}

#: Effect flags (``EF_`` values of ``model.h``), by bit value.
EFFECT_FLAGS = {
    1: 'EF_ROCKET',
    2: 'EF_GRENADE',
    4: 'EF_GIB',
    8: 'EF_ROTATE',
    16: 'EF_TRACER',
    32: 'EF_ZOMGIB',
    64: 'EF_TRACER2',
    128: 'EF_TRACER3',
}

# GLQuake's limits (gl_model.h, modelgen.h); applied only with ``strict=True``.
MAXALIASVERTS = 1024
MAXALIASTRIS = 2048
MAXALIASFRAMES = 256
MAX_SKINS = 32
MAX_LBM_HEIGHT = 480

HEADER = np.dtype(
    [
        ('ident', 'S4'),
        ('version', '<i4'),
        ('scale', '<f4', (3,)),
        ('scale_origin', '<f4', (3,)),
        ('boundingradius', '<f4'),
        ('eyeposition', '<f4', (3,)),
        ('numskins', '<i4'),
        ('skinwidth', '<i4'),
        ('skinheight', '<i4'),
        ('numverts', '<i4'),
        ('numtris', '<i4'),
        ('numframes', '<i4'),
        ('synctype', '<i4'),
        ('flags', '<i4'),
        ('size', '<f4'),
    ]
)
STVERT = np.dtype([('onseam', '<i4'), ('s', '<i4'), ('t', '<i4')])  # stvert_t
TRIANGLE = np.dtype([('facesfront', '<i4'), ('vertindex', '<i4', (3,))])  # dtriangle_t
GROUP_HEADER = np.dtype([('numframes', '<i4'), ('bboxmin', 'u1', (4,)), ('bboxmax', 'u1', (4,))])


def simple_frame_dtype(numverts: int) -> np.dtype:
    """Return the layout of a simple frame (``daliasframe_t`` and its vertices)."""
    return np.dtype(
        [('bboxmin', 'u1', (4,)), ('bboxmax', 'u1', (4,)), ('name', 'S16'), ('verts', 'u1', (numverts, 4))]
    )


def flag_names(flags: int) -> list[str]:
    """Return the ``EF_`` names of the bits set in ``flags``."""
    return [name for bit, name in EFFECT_FLAGS.items() if flags & bit]


def read(buffer: bytes | memoryview, source: str = '<bytes>', *, strict: bool = False) -> ModelData:
    """Parse an MDL model.

    Parameters
    ----------
    buffer : bytes or memoryview
        The whole file.
    source : str, default: '<bytes>'
        Name of the file, for error messages.
    strict : bool, default: False
        Also apply GLQuake's own limits and checks, as its loader does.

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
    record = np.frombuffer(buffer, HEADER, 1)[0]
    h = {name: record[name].tolist() for name in HEADER.names}
    if h['ident'] != IDENT:
        raise check.error('ident', h['ident'], f'expected {IDENT!r}')
    if h['version'] != VERSION:
        raise check.error('version', h['version'], f'expected {VERSION}')
    for name in ('numskins', 'skinwidth', 'skinheight'):
        check.count(name, h[name])
    numverts = check.count('numverts', h['numverts'], 1)
    numtris = check.count('numtris', h['numtris'], 1)
    numframes = check.count('numframes', h['numframes'], 1)
    check.finite('scale', np.asarray(h['scale']))
    check.finite('scale_origin', np.asarray(h['scale_origin']))
    if strict:
        _check_limits(check, h)

    position = HEADER.itemsize
    skins, position = _read_skins(buffer, check, h, position, strict)

    check.section('stverts', position, numverts, STVERT.itemsize)
    stverts = np.frombuffer(buffer, STVERT, numverts, position)
    position += numverts * STVERT.itemsize
    check.section('triangles', position, numtris, TRIANGLE.itemsize)
    tris = np.frombuffer(buffer, TRIANGLE, numtris, position)
    position += numtris * TRIANGLE.itemsize
    vertindex = tris['vertindex']
    check.indices('vertindex', vertindex, numverts)

    frame_offsets, groups, position = _walk_frames(buffer, check, numframes, numverts, position, strict)
    frames = record_view(buffer, simple_frame_dtype(numverts), frame_offsets)
    verts = frames['verts']
    if strict:
        top = int(verts[..., 3].max())
        if top >= NUM_VERTEX_NORMALS:
            raise check.error('lightnormalindex', top, f'past the {NUM_VERTEX_NORMALS}-entry normal table (strict)')

    # The seam rule: a back-facing triangle (facesfront = 0) takes the back half
    # of the skin for its onseam vertices.
    back_seam = (tris['facesfront'] == 0)[:, None] & (stverts['onseam'][vertindex] != 0)
    s = stverts['s'][vertindex] + back_seam * (h['skinwidth'] // 2)
    t = stverts['t'][vertindex]
    n = len(frames)
    header = dict(h)
    header['ident'] = h['ident'].decode('latin-1')
    header['flag_names'] = flag_names(h['flags'])
    header['synctype_name'] = SYNCTYPES.get(h['synctype'], str(h['synctype']))
    return ModelData(
        format='mdl',
        source=source,
        header=header,
        skin_width=h['skinwidth'],
        skin_height=h['skinheight'],
        skins=skins,
        frame_verts=verts,
        frame_scale=np.broadcast_to(np.asarray(h['scale'], np.float32), (n, 3)),
        frame_translate=np.broadcast_to(np.asarray(h['scale_origin'], np.float32), (n, 3)),
        frame_names=frames['name'],
        triangle_vertices=vertindex.astype(np.int32),
        triangle_st=np.stack([s, t], axis=-1).astype(np.int32),
        triangle_st_key=vertindex.astype(np.int64) * 2 + back_seam,
        frame_groups=groups,
        trailing=bytes(buffer[position:]),
    )


def _int32(buffer, check: Bounds, position: int, field: str) -> int:
    check.section(field, position, 1, 4)
    return int(np.frombuffer(buffer, '<i4', 1, position)[0])


def _read_skins(buffer, check: Bounds, h: dict, position: int, strict: bool) -> tuple[list[SkinPicture], int]:
    """Walk the skins: each a single picture or a group with its end times."""
    width, height = h['skinwidth'], h['skinheight']
    pixels = width * height
    skins = []
    for index in range(h['numskins']):
        field = f'skin {index} type'
        skintype = _int32(buffer, check, position, field)
        position += 4
        if skintype == ALIAS_SKIN_SINGLE:
            check.section(f'skin {index} picture', position, 1, pixels)
            picture = np.frombuffer(buffer, np.uint8, pixels, position).reshape(1, height, width)
            skins.append(SkinPicture(picture))
            position += pixels
        elif skintype == ALIAS_SKIN_GROUP:
            count = _int32(buffer, check, position, f'skin {index} group count')
            check.count(f'skin {index} group count', count, 1)
            position += 4
            check.section(f'skin {index} group', position, count, 4 + pixels)
            times = np.frombuffer(buffer, '<f4', count, position)
            position += 4 * count
            pictures = np.frombuffer(buffer, np.uint8, count * pixels, position).reshape(count, height, width)
            position += count * pixels
            if strict:
                _check_intervals(check, f'skin {index} interval', times)
            skins.append(SkinPicture(pictures, times))
        else:
            raise check.error(field, skintype, 'expected 0 (single) or 1 (group)')
    return skins, position


def _walk_frames(
    buffer, check: Bounds, numframes: int, numverts: int, position: int, strict: bool
) -> tuple[np.ndarray, list[FrameGroup], int]:
    """Find every simple frame's offset, walking singles and groups in order.

    Returns the offsets of the simple frames (group members included), the
    groups, and the position after the last frame.
    """
    frame_size = simple_frame_dtype(numverts).itemsize
    # Most models hold single frames only, back to back: check that in one
    # vectorised pass before walking entry by entry.
    entry = 4 + frame_size
    if position + numframes * entry <= check.size:
        starts = position + entry * np.arange(numframes, dtype=np.int64)
        types = np.frombuffer(buffer, np.uint8)[starts[:, None] + np.arange(4)].view('<i4').ravel()
        if not types.any():
            return starts + 4, [], position + numframes * entry

    offsets: list[np.ndarray] = []
    groups: list[FrameGroup] = []
    count_so_far = 0
    for index in range(numframes):
        field = f'frame {index} type'
        frametype = _int32(buffer, check, position, field)
        position += 4
        if frametype == ALIAS_SINGLE:
            check.section(f'frame {index}', position, 1, frame_size)
            offsets.append(np.array([position], np.int64))
            position += frame_size
            count_so_far += 1
        elif frametype == ALIAS_GROUP:
            check.section(f'frame {index} group header', position, 1, GROUP_HEADER.itemsize)
            count = int(np.frombuffer(buffer, GROUP_HEADER, 1, position)['numframes'][0])
            check.count(f'frame {index} group numframes', count, 1)
            position += GROUP_HEADER.itemsize
            check.section(f'frame {index} group', position, count, 4 + frame_size)
            intervals = np.frombuffer(buffer, '<f4', count, position).copy()
            if strict:
                _check_intervals(check, f'frame {index} interval', intervals)
            position += 4 * count
            offsets.append(position + frame_size * np.arange(count, dtype=np.int64))
            position += count * frame_size
            groups.append(FrameGroup(count_so_far, count, intervals))
            count_so_far += count
        else:
            raise check.error(field, frametype, 'expected 0 (single) or 1 (group)')
    return np.concatenate(offsets), groups, position


def _check_intervals(check: Bounds, field: str, times: np.ndarray) -> None:
    bad = ~(times > 0)
    if bad.any():
        raise check.error(field, float(times[bad][0]), 'must be greater than 0 (strict)')


def _check_limits(check: Bounds, h: dict) -> None:
    """Apply GLQuake's loader checks (``Mod_LoadAliasModel``)."""
    if not 1 <= h['numskins'] <= MAX_SKINS:
        raise check.error('numskins', h['numskins'], f'must be 1..{MAX_SKINS} (strict)')
    if h['skinwidth'] % 4:
        raise check.error('skinwidth', h['skinwidth'], 'must be a multiple of 4 (strict)')
    limits = (
        ('skinheight', MAX_LBM_HEIGHT),
        ('numverts', MAXALIASVERTS),
        ('numtris', MAXALIASTRIS),
        ('numframes', MAXALIASFRAMES),
    )
    for field, limit in limits:
        if h[field] > limit:
            raise check.error(field, h[field], f'exceeds the game limit of {limit} (strict)')


register_format('mdl', IDENT, ('.mdl',), read)
