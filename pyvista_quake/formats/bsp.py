"""Levels (``.bsp``): Quake III ``IBSP`` 46, Quake 1 BSP29 / ``BSP2`` / ``2PSB``, Quake II ``IBSP`` 38, UFO: AI ``IBSP`` 78.

One description of each layout (the dtypes below, named as each game's
``qfiles.h`` or ``bspfile.h`` names the fields) serves :func:`parse`;
:func:`write` gives the file back byte for byte (a level is not edited here);
:func:`decode` gives the format-neutral
:class:`~pyvista_quake.formats.records.ModelData` of one frame, whose
surfaces carry plain float positions and normals (the float codec), one
surface per (brush model, shader or texture), plus the level's own part,
:class:`~pyvista_quake.formats.records.LevelData` (entities, lightmaps).

Triangles stay as the files store them, clockwise seen from the front, as an
MD3's: the model layer turns them round for VTK.  Nothing here knows PyVista.
The rules come from ``../shared/specs/bsp-formats.txt`` (ioquake3's
``tr_bsp.c`` and ``tr_curve.c``, Quake's ``gl_model.c``, Quake II's and
UFO: AI's ``qfiles.h``).
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
import functools
import re
from typing import Any

import numpy as np

from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake._base.warnings import warn_external
from pyvista_quake.formats._common import Bounds
from pyvista_quake.formats._rules import QUAKE2_ENGINES
from pyvista_quake.formats._rules import QUAKE3_ENGINES
from pyvista_quake.formats._rules import REFUSES
from pyvista_quake.formats._rules import Rule
from pyvista_quake.formats.records import LevelData
from pyvista_quake.formats.records import ModelData
from pyvista_quake.formats.records import SurfaceData
from pyvista_quake.formats.records import cstrings
from pyvista_quake.formats.registry import register_format

IDENT = b'IBSP'
#: Versions of ``IBSP`` files and the game each is.
GAMES = {46: 'quake3', 38: 'quake2', 78: 'ufoai'}
#: Quake 1's first four bytes: the version 29 as an int, or BSP2's and 2PSB's idents.
QUAKE1_MAGIC = (b'\x1d\x00\x00\x00', b'BSP2', b'2PSB')
#: The patch tessellation ``load()`` uses unless told (``patch_level``).
DEFAULT_PATCH_LEVEL = 8
#: Quake III's lightmap pages: 128 x 128 RGB (``LIGHTMAP_SIZE``).
LIGHTMAP_SIZE = 128
#: Sizes of a patch's control grid the collision code takes (``cm_patch.h`` ``MAX_GRID_SIZE``, ``cm_load.c`` ``MAX_PATCH_VERTS``).
MAX_PATCH_SIDE = 129
MAX_PATCH_VERTS = 1024
#: Patch levels accepted (each block becomes level x level cells).
MAX_PATCH_LEVEL = 64
#: UFO: AI: the world is models 0-258 (``LEVEL_MAX``); an entity's ``*N`` is model 258 + N.
UFO_LEVEL_MAX = 259


# -- Quake III (qfiles.h) --------------------------------------------------------------
Q3_LUMPS = (
    'entities',
    'shaders',
    'planes',
    'nodes',
    'leafs',
    'leafsurfaces',
    'leafbrushes',
    'models',
    'brushes',
    'brushsides',
    'drawverts',
    'drawindexes',
    'fogs',
    'surfaces',
    'lightmaps',
    'lightgrid',
    'visibility',
)
Q3_SHADER = np.dtype([('shader', 'S64'), ('surfaceFlags', '<i4'), ('contentFlags', '<i4')])
Q3_MODEL = np.dtype(
    [('mins', '<f4', (3,)), ('maxs', '<f4', (3,)), ('firstSurface', '<i4'), ('numSurfaces', '<i4'), ('firstBrush', '<i4'), ('numBrushes', '<i4')]
)
Q3_DRAWVERT = np.dtype([('xyz', '<f4', (3,)), ('st', '<f4', (2,)), ('lightmap', '<f4', (2,)), ('normal', '<f4', (3,)), ('color', 'u1', (4,))])
Q3_SURFACE = np.dtype(
    [
        ('shaderNum', '<i4'),
        ('fogNum', '<i4'),
        ('surfaceType', '<i4'),
        ('firstVert', '<i4'),
        ('numVerts', '<i4'),
        ('firstIndex', '<i4'),
        ('numIndexes', '<i4'),
        ('lightmapNum', '<i4'),
        ('lightmapX', '<i4'),
        ('lightmapY', '<i4'),
        ('lightmapWidth', '<i4'),
        ('lightmapHeight', '<i4'),
        ('lightmapOrigin', '<f4', (3,)),
        ('lightmapVecs', '<f4', (3, 3)),
        ('patchWidth', '<i4'),
        ('patchHeight', '<i4'),
    ]
)
Q3_RECORDS = {
    'shaders': Q3_SHADER,
    'models': Q3_MODEL,
    'drawverts': Q3_DRAWVERT,
    'drawindexes': np.dtype('<i4'),
    'surfaces': Q3_SURFACE,
    'lightmaps': np.dtype(('u1', (LIGHTMAP_SIZE, LIGHTMAP_SIZE, 3))),
    'planes': np.dtype([('normal', '<f4', (3,)), ('dist', '<f4')]),
}
MST_PLANAR, MST_PATCH, MST_TRIANGLE_SOUP, MST_FLARE = 1, 2, 3, 4
SURF_SKY, SURF_NODRAW = 0x4, 0x80
CONTENTS_CLIP = 0x10000 | 0x20000 | 0x400000  # PLAYERCLIP | MONSTERCLIP | BOTCLIP
CONTENTS_TRIGGER = 0x40000000
#: Quake II and UFO: AI's face flag for smooth vertex normals (UFO: AI's ``SURF_PHONG``).
SURF_PHONG = 0x400
#: Quake II's and UFO: AI's ``SURF_WARP``: no lightmap.
SURF_WARP = 0x8
#: Quake II's see-through faces (``SURF_TRANS33``, ``SURF_TRANS66``): no lightmap either (``GL_CreateSurfaceLightmap``).
SURF_TRANS = 0x10 | 0x20
#: How each game's renderer scales a stored luxel for a still picture: Quake III's ``R_ColorShiftLightingBytes``
#: (shifted left ``r_mapOverBrightBits`` 2), Quake 1's ``R_BuildLightMap`` (style 0 at ``'m'``, 264 in 8.8 fixed
#: point, shifted right 7), Quake II's and UFO: AI's as stored.
LIGHT_SCALE = {'quake3': 4.0, 'bsp29': 264 / 128, 'bsp2': 264 / 128, 'quake2': 1.0, 'ufoai': 1.0}
#: How far above its origin a player's eye is: Quake III's DEFAULT_VIEWHEIGHT (bg_public.h), Quake's
#: view_ofs (client.qc PutClientInServer) and Quake II's pmove viewheight; UFO: AI is seen from above.
VIEW_HEIGHT = {'quake3': 26.0, 'bsp29': 22.0, 'bsp2': 22.0, 'quake2': 22.0, 'ufoai': None}
#: Where players start: a single-player start first where the game has one, then the deathmatch spots.
SPAWN_CLASSES = {
    'quake3': ('info_player_deathmatch', 'info_player_start'),
    'bsp29': ('info_player_start', 'info_player_deathmatch'),
    'bsp2': ('info_player_start', 'info_player_deathmatch'),
    'quake2': ('info_player_start', 'info_player_deathmatch'),
    'ufoai': (),
}
#: The widest page of Quake 1's, II's and UFO: AI's gathered lightmap blocks; more blocks fill more pages.
MAX_PAGE_SIDE = 4096
#: The widest lightmap block a face may have, in luxels a side; wider (or not finite) is drawn unlit.
MAX_BLOCK_LUXELS = 256
#: Bytes a luxel: Quake 1's grey, Quake II's RGB, UFO: AI's RGB and a light direction.
LUXEL_BYTES = {'bsp29': 1, 'bsp2': 1, 'quake2': 3, 'ufoai': 6}

# -- Quake 1, Quake II, UFO: AI: faces over edges ---------------------------------------------
PLANE = np.dtype([('normal', '<f4', (3,)), ('dist', '<f4'), ('type', '<i4')])
VERTEX = np.dtype(('<f4', (3,)))
Q1_LUMPS = (
    'entities',
    'planes',
    'textures',
    'vertexes',
    'visibility',
    'nodes',
    'texinfo',
    'faces',
    'lighting',
    'clipnodes',
    'leafs',
    'marksurfaces',
    'edges',
    'surfedges',
    'models',
)
Q1_TEXINFO = np.dtype([('vecs', '<f4', (2, 4)), ('miptex', '<i4'), ('flags', '<i4')])
Q1_FACE = {
    'bsp29': np.dtype(
        [
            ('planenum', '<i2'),
            ('side', '<i2'),
            ('firstedge', '<i4'),
            ('numedges', '<i2'),
            ('texinfo', '<i2'),
            ('styles', 'u1', (4,)),
            ('lightofs', '<i4'),
        ]
    ),
    'bsp2': np.dtype(
        [
            ('planenum', '<i4'),
            ('side', '<i4'),
            ('firstedge', '<i4'),
            ('numedges', '<i4'),
            ('texinfo', '<i4'),
            ('styles', 'u1', (4,)),
            ('lightofs', '<i4'),
        ]
    ),
}
Q1_EDGE = {'bsp29': np.dtype([('v', '<u2', (2,))]), 'bsp2': np.dtype([('v', '<u4', (2,))])}
Q1_MODEL = np.dtype(
    [
        ('mins', '<f4', (3,)),
        ('maxs', '<f4', (3,)),
        ('origin', '<f4', (3,)),
        ('headnode', '<i4', (4,)),
        ('visleafs', '<i4'),
        ('firstface', '<i4'),
        ('numfaces', '<i4'),
    ]
)
MIPTEX = np.dtype([('name', 'S16'), ('width', '<u4'), ('height', '<u4'), ('offsets', '<u4', (4,))])
Q1_TEX_SPECIAL = 1

Q2_LUMPS = (
    'entities',
    'planes',
    'vertexes',
    'visibility',
    'nodes',
    'texinfo',
    'faces',
    'lighting',
    'leafs',
    'leaffaces',
    'leafbrushes',
    'edges',
    'surfedges',
    'models',
    'brushes',
    'brushsides',
    'pop',
    'areas',
    'areaportals',
)
Q2_TEXINFO = np.dtype([('vecs', '<f4', (2, 4)), ('flags', '<i4'), ('value', '<i4'), ('texture', 'S32'), ('nexttexinfo', '<i4')])
Q2_FACE = np.dtype(
    [('planenum', '<u2'), ('side', '<i2'), ('firstedge', '<i4'), ('numedges', '<i2'), ('texinfo', '<i2'), ('styles', 'u1', (4,)), ('lightofs', '<i4')]
)
Q2_MODEL = np.dtype(
    [('mins', '<f4', (3,)), ('maxs', '<f4', (3,)), ('origin', '<f4', (3,)), ('headnode', '<i4'), ('firstface', '<i4'), ('numfaces', '<i4')]
)

UFO_LUMPS = (
    'entities',
    'planes',
    'vertexes',
    'routing',
    'nodes',
    'texinfo',
    'faces',
    'lighting_night',
    'lighting_day',
    'leafs',
    'leafbrushes',
    'edges',
    'surfedges',
    'models',
    'brushes',
    'brushsides',
    'normals',
)
UFO_TEXINFO = np.dtype([('vecs', '<f4', (2, 4)), ('surfaceFlags', '<i4'), ('value', '<i4'), ('texture', 'S32')])
UFO_FACE = np.dtype([('planenum', '<u2'), ('side', '<i2'), ('firstedge', '<i4'), ('numedges', '<i2'), ('texinfo', '<i2'), ('lightofs', '<i4', (2,))])

#: Each game's lumps and the record of each lump that is read (the others are kept as bytes).
LAYOUTS: dict[str, tuple[tuple[str, ...], dict[str, np.dtype]]] = {
    'quake3': (Q3_LUMPS, Q3_RECORDS),
    'bsp29': (
        Q1_LUMPS,
        {
            'planes': PLANE,
            'vertexes': VERTEX,
            'texinfo': Q1_TEXINFO,
            'faces': Q1_FACE['bsp29'],
            'edges': Q1_EDGE['bsp29'],
            'surfedges': np.dtype('<i4'),
            'models': Q1_MODEL,
        },
    ),
    'bsp2': (
        Q1_LUMPS,
        {
            'planes': PLANE,
            'vertexes': VERTEX,
            'texinfo': Q1_TEXINFO,
            'faces': Q1_FACE['bsp2'],
            'edges': Q1_EDGE['bsp2'],
            'surfedges': np.dtype('<i4'),
            'models': Q1_MODEL,
        },
    ),
    'quake2': (
        Q2_LUMPS,
        {
            'planes': PLANE,
            'vertexes': VERTEX,
            'texinfo': Q2_TEXINFO,
            'faces': Q2_FACE,
            'edges': Q1_EDGE['bsp29'],
            'surfedges': np.dtype('<i4'),
            'models': Q2_MODEL,
        },
    ),
    'ufoai': (
        UFO_LUMPS,
        {
            'planes': PLANE,
            'vertexes': VERTEX,
            'texinfo': UFO_TEXINFO,
            'faces': UFO_FACE,
            'edges': Q1_EDGE['bsp29'],
            'surfedges': np.dtype('<i4'),
            'models': Q2_MODEL,
            'normals': VERTEX,
        },
    ),
}


@dataclass
class BSPFile:
    """A level's records: the header and each lump, as views of the file's bytes.

    Attributes
    ----------
    source : str
        Where the bytes came from, for messages.
    game : str
        ``'quake3'``, ``'bsp29'`` (Quake 1 and 2PSB's short-free cousins share it), ``'bsp2'``, ``'quake2'`` or ``'ufoai'``.
    ident : bytes
        The first four bytes.
    version : int
        The header's version (29 for BSP2 and 2PSB, whose ident takes its place).
    lumps : dict
        ``name -> (offset, length)`` as the header gives them.
    records : dict
        ``name -> structured array`` of each lump that has a record; the text and raw lumps are in ``raw``.
    raw : bytes
        Every byte of the file.

    """

    source: str
    game: str
    ident: bytes
    version: int
    lumps: dict[str, tuple[int, int]]
    records: dict[str, np.ndarray]
    raw: bytes = field(repr=False, default=b'')

    def lump_bytes(self, name: str) -> bytes:
        """A lump's bytes, as stored."""
        offset, length = self.lumps[name]
        return self.raw[offset : offset + length]

    def header_fields(self) -> dict[str, Any]:
        """The header's fields: ``ident``, ``version`` and each lump's ``ofs_NAME`` and ``len_NAME``."""
        out: dict[str, Any] = {'ident': self.ident, 'version': self.version, 'game': self.game}
        for name, (offset, length) in self.lumps.items():
            out[f'ofs_{name}'] = offset
            out[f'len_{name}'] = length
        return out


def sniff(head: bytes) -> bool:
    """Whether a file's first bytes are a Quake 1 level's (its version or ident; Quake III's and II's have the ``IBSP`` magic)."""
    return head[:4] in QUAKE1_MAGIC


def parse(buffer: bytes | memoryview, source: str) -> BSPFile:
    """Read a level's header and lumps, each checked against the file before it is viewed.

    Raises
    ------
    QuakeFormatError
        For another version, a lump outside the file or not a whole number of records.

    """
    raw = bytes(buffer)
    bounds = Bounds(source, len(raw))
    head = raw[:4]
    if head == IDENT:
        if len(raw) < 8:
            raise bounds.error('version', None, f'the file ends at {len(raw)} bytes, inside the header')
        version = int(np.frombuffer(raw, '<i4', 1, 4)[0])
        if version not in GAMES:
            raise bounds.error('version', version, 'not a known IBSP version (46 Quake III, 38 Quake II, 78 UFO: AI)')
        game, first = GAMES[version], 8
    elif head in QUAKE1_MAGIC:
        game, version, first = ('bsp29' if head == QUAKE1_MAGIC[0] else 'bsp2'), 29, 4
    else:
        raise bounds.error('ident', head, 'not a Quake level (IBSP, BSP29, BSP2 or 2PSB)')
    names, record_types = LAYOUTS[game]
    end = first + 8 * len(names)
    if len(raw) < end:
        raise bounds.error('lumps', len(raw), f'the file ends inside the header ({end} bytes with its {len(names)} lumps)')
    table = np.frombuffer(raw, '<i4', 2 * len(names), first).reshape(-1, 2)
    lumps: dict[str, tuple[int, int]] = {}
    records: dict[str, np.ndarray] = {}
    for name, (offset, length) in zip(names, table.tolist()):
        bounds.count(f'{name} lump length', length)
        if length:
            bounds.section(f'{name} lump', offset, 1, length)
        lumps[name] = (offset, length)
        dtype = record_types.get(name)
        if dtype is None:
            continue
        if length % dtype.itemsize:
            raise bounds.error(f'{name} lump length', length, f'not a whole number of {dtype.itemsize}-byte records ("funny lump size")')
        count = length // dtype.itemsize
        records[name] = np.frombuffer(raw, dtype, count, offset) if count else np.zeros(0, dtype)
    return BSPFile(source, game, head, version, lumps, records, raw)


def write(record: BSPFile) -> bytes:
    """The level's bytes, as they were read."""
    return record.raw


def not_encoded(*args: Any, **kwargs: Any) -> object:
    """Levels are written back as they were read; they are not edited."""
    raise ValueError('BSP levels are written as they were read; a level is not edited or converted to one')


# -- entities (section 5) -----------------------------------------------------------------

_TOKEN = re.compile(rb'"([^"]*)"?|//[^\n]*|/\*.*?(?:\*/|\Z)|([{}])|([^\s{}"]+)', re.S)


def parse_entities(text: bytes, source: str, *, first_wins: bool) -> list[dict[str, str]]:
    """The entities of a level's text, in file order: a dict of key and value each.

    ``first_wins`` keeps the first of a repeated key (Quake III's ``G_SpawnString``),
    else the last (Quake 1 and II's ``ED_ParseEdict``).  Text past the first NUL is
    ignored, as the engines copy it.

    Raises
    ------
    QuakeFormatError
        For a key with no value, a block not closed, or text outside a block.

    """
    text = text.split(b'\0', 1)[0]
    out: list[dict[str, str]] = []
    current: dict[str, str] | None = None
    key: str | None = None
    for match in _TOKEN.finditer(text):
        quoted, brace, word = match.groups()
        if quoted is None and brace is None and word is None:
            continue  # a comment
        if brace == b'{':
            if current is not None:
                raise QuakeFormatError(source, 'entities', '{', f'entity {len(out)}: "{{" inside an open block')
            current = {}
            continue
        if brace == b'}':
            if current is None or key is not None:
                reason = 'a key with no value' if key is not None else '"}" with no open block'
                raise QuakeFormatError(source, 'entities', key or '}', f'entity {len(out)}: {reason}')
            out.append(current)
            current = None
            continue
        token = (quoted if quoted is not None else word).decode('latin-1')
        if current is None:
            raise QuakeFormatError(source, 'entities', token, f'entity {len(out)}: text outside a {{ }} block')
        if key is None:
            key = token
        else:
            if not (first_wins and key in current):
                current[key] = token
            key = None
    if current is not None:
        raise QuakeFormatError(source, 'entities', len(out), 'the last entity is not closed with "}"')
    return out


def brush_model_of(entity: dict[str, str]) -> int | None:
    """The brush model an entity's ``"model" "*N"`` names (its ``N``), or ``None``."""
    model = entity.get('model', '')
    if model.startswith('*') and model[1:].isdigit():
        return int(model[1:])
    return None


def _origins(entities: list[dict[str, str]], offset: int) -> dict[int, np.ndarray]:
    """Each brush model placed by an entity with an ``"origin"``: stored around (0, 0, 0), moved there."""
    out: dict[int, np.ndarray] = {}
    for entity in entities:
        number = brush_model_of(entity)
        if number is None or 'origin' not in entity:
            continue
        parts = entity['origin'].split()
        try:
            origin = np.array([float(p) for p in parts[:3]], np.float64)
        except ValueError:
            continue  # the game's sscanf reads no number either: the model stays where it is stored
        if len(origin) == 3 and np.isfinite(origin).all():
            out[number + offset] = origin
    return out


# -- decoding ---------------------------------------------------------------------------------


def decode(record: BSPFile, patch_level: int | str = DEFAULT_PATCH_LEVEL) -> ModelData:
    """The level as one frame of surfaces, one per (brush model, shader or texture), in brush-model then first-face order.

    Parameters
    ----------
    record : BSPFile
        The parsed file.
    patch_level : int or 'engine'
        Quake III Bezier patches: each 3 x 3 block of a control grid becomes
        ``patch_level`` x ``patch_level`` cells; ``'engine'`` subdivides them as
        the game's renderer does (:func:`_engine_grid`, ``r_subdivisions 4``).

    Raises
    ------
    QuakeFormatError
        For an index past its lump (named, with the record).

    """
    if patch_level != 'engine' and (
        isinstance(patch_level, bool) or not isinstance(patch_level, (int, np.integer)) or not 1 <= patch_level <= MAX_PATCH_LEVEL
    ):
        raise ValueError(f"patch_level must be a whole number from 1 to {MAX_PATCH_LEVEL} or 'engine', not {patch_level!r}")
    first_wins = record.game == 'quake3'
    entities = parse_entities(record.lump_bytes('entities'), record.source, first_wins=first_wins)
    if record.game == 'quake3':
        surfaces, level = _quake3(record, entities, patch_level if patch_level == 'engine' else int(patch_level))
    else:
        surfaces, level = _edge_faces(record, entities)
    return ModelData(surfaces, ['level'], format='bsp', source=record.source, header=record.header_fields(), file=record, level=level)


@dataclass
class _Group:
    """One output surface before it is packed: points, triangles (clockwise, as stored) and its arrays."""

    name: str
    brush_model: int
    kinds: frozenset[str]
    positions: np.ndarray
    normals: np.ndarray
    texcoords: np.ndarray
    triangles: np.ndarray
    point_arrays: dict[str, np.ndarray]
    flags: int = 0
    texture_size: tuple[int, int] | None = None
    picture: np.ndarray | None = None
    texels: bool = False
    image: str | None = None  # the image the game looks for, where it is not the name (Quake II's textures/NAME.wal)


def _surface(group: _Group) -> SurfaceData:
    normals = _filled_normals(group.positions, group.normals, group.triangles)
    return SurfaceData(
        group.name,
        group.triangles.astype(np.int32),
        _finite(group.texcoords.astype(np.float32)),
        group.positions.astype(np.float32)[None],
        normals[None],
        [group.image or group.name],
        flags=group.flags,
        brush_model=group.brush_model,
        kinds=group.kinds,
        point_arrays=group.point_arrays,
        texture_size=group.texture_size,
        texels=group.texels,
        picture=group.picture,
    )


def _finite(values: np.ndarray) -> np.ndarray:
    """``values`` with every NaN and infinity made 0 (``nan_to_num`` in one pass)."""
    return np.where(np.isfinite(values), values, values.dtype.type(0))


def _filled_normals(positions: np.ndarray, normals: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    """Unit normals; a zero (or non-finite) one takes its triangles' own, as stored clockwise from the front."""
    out = _finite(np.asarray(normals, np.float64))
    length = np.linalg.norm(out, axis=1)
    bad = length < 1e-6
    if bad.any() and len(triangles):
        a, b, c = (positions[triangles[:, k]].astype(np.float64) for k in range(3))
        face = np.cross(c - a, b - a)  # clockwise from the front: this order faces out
        summed = np.zeros_like(out)
        for k in range(3):
            np.add.at(summed, triangles[:, k], face)
        out[bad] = summed[bad]
        length = np.linalg.norm(out, axis=1)
    length[length < 1e-12] = 1.0
    return (out / length[:, None]).astype(np.float32)


def _ranges(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``concatenate([arange(s, s + c) for s, c in zip(starts, counts)])`` without a Python loop."""
    counts = np.asarray(counts, np.int64)
    total = int(counts.sum())
    if not total:
        return np.zeros(0, np.int64)
    ends = np.cumsum(counts)
    out = np.ones(total, np.int64)
    nonzero = counts > 0
    first = (ends - counts)[nonzero]
    out[first] = np.asarray(starts, np.int64)[nonzero]
    out[first[1:]] -= np.asarray(starts, np.int64)[nonzero][:-1] + counts[nonzero][:-1] - 1
    return np.cumsum(out)


# -- Quake III -----------------------------------------------------------------------------------


def _q3_kinds(surface_flags: int, content_flags: int) -> frozenset[str]:
    """What ``hide=`` calls a Quake III shader, from the flags the compiler wrote."""
    kinds = set()
    if surface_flags & SURF_SKY:
        kinds.add('sky')
    if surface_flags & SURF_NODRAW:
        kinds.add('nodraw')
    if content_flags & CONTENTS_TRIGGER:
        kinds.add('trigger')
    if content_flags & CONTENTS_CLIP:
        kinds.add('clip')
    return frozenset(kinds)


def _quake3(record: BSPFile, entities: list[dict[str, str]], patch_level: int | str) -> tuple[list[SurfaceData], LevelData]:
    bounds = Bounds(record.source, len(record.raw))
    r = record.records
    shaders, models, verts, indexes, faces = r['shaders'], r['models'], r['drawverts'], r['drawindexes'], r['surfaces']
    _check_ranges(bounds, 'models', models['firstSurface'], models['numSurfaces'], len(faces), 'surfaces')
    types = faces['surfaceType']
    bad_type = (types < MST_PLANAR) | (types > MST_FLARE)
    if bad_type.any():
        k = int(np.flatnonzero(bad_type)[0])
        raise bounds.error(f'surfaces[{k}].surfaceType', int(types[k]), 'not 1 (planar), 2 (patch), 3 (triangle soup) or 4 (flare)')
    bounds.indices('surfaces.shaderNum', faces['shaderNum'].astype(np.int64), len(shaders))
    drawn = types != MST_FLARE
    _check_ranges(bounds, 'surfaces', faces['firstVert'][drawn], faces['numVerts'][drawn], len(verts), 'drawverts', np.flatnonzero(drawn))
    meshes = (types == MST_PLANAR) | (types == MST_TRIANGLE_SOUP)
    _check_ranges(bounds, 'surfaces', faces['firstIndex'][meshes], faces['numIndexes'][meshes], len(indexes), 'drawindexes', np.flatnonzero(meshes))
    # Which brush model each face belongs to (the world is 0); faces of no model are not drawn.
    owner = np.full(len(faces), -1, np.int64)
    for number, (first, count) in enumerate(zip(models['firstSurface'].tolist(), models['numSurfaces'].tolist())):
        owner[first : first + count] = number
    origins = _origins(entities, 0)
    names = cstrings(shaders['shader'])
    per_vertex_lit = faces['lightmapNum'] >= 0
    # The face each drawvert belongs to (faces share none; a flare names none).
    vertex_face = np.full(len(verts), -1, np.int64)
    vertex_face[_ranges(faces['firstVert'][drawn], faces['numVerts'][drawn])] = np.repeat(np.flatnonzero(drawn), faces['numVerts'][drawn])

    # Polygons and soups: every index at once.
    mesh_faces = np.flatnonzero(meshes & (owner >= 0))
    counts = faces['numIndexes'][mesh_faces].astype(np.int64)
    if (counts % 3).any():
        k = int(mesh_faces[np.flatnonzero(counts % 3)[0]])
        raise bounds.error(f'surfaces[{k}].numIndexes', int(faces['numIndexes'][k]), 'not a whole number of triangles')
    local = indexes[_ranges(faces['firstIndex'][mesh_faces], counts)].astype(np.int64)
    face_of_corner = np.repeat(mesh_faces, counts)
    limit = faces['numVerts'][face_of_corner]
    past = (local < 0) | (local >= limit)
    if past.any():
        k = int(np.flatnonzero(past)[0])
        raise bounds.error(
            f'surfaces[{int(face_of_corner[k])}] drawindexes',
            int(local[k]),
            f'index out of range 0..{int(limit[k]) - 1} (the surface\'s numVerts; ParseTriSurf: "Bad index")',
        )
    corner_vertex = local + faces['firstVert'][face_of_corner]
    triangle_face = face_of_corner[::3]
    triangle_vertex = corner_vertex.reshape(-1, 3)

    # Patches, one by one (a few hundred a map), each a grid of new points.
    patch_faces = np.flatnonzero((types == MST_PATCH) & (owner >= 0))
    for k in patch_faces.tolist():  # every patch's sizes checked before any is made
        _patch_size(record, bounds, k)

    # Each surface is made whole before the next one's float64 working arrays exist: the peak stays one surface's.
    groups: list[SurfaceData] = []
    stride = len(shaders) + 1
    triangle_groups = _by_key(owner[triangle_face] * stride + faces['shaderNum'][triangle_face])
    patch_groups = _by_key(owner[patch_faces] * stride + faces['shaderNum'][patch_faces])
    none = np.zeros(0, np.int64)
    # Groups in brush-model order, then by the first face that uses each shader (both face lists ascend).
    first_face = {key: int(triangle_face[rows[0]]) for key, rows in triangle_groups.items()}
    for key, rows in patch_groups.items():
        first_face[key] = min(first_face.get(key, len(faces)), int(patch_faces[rows[0]]))
    for key in sorted(first_face, key=lambda k: (k // stride, first_face[k])):
        model, shader = divmod(key, stride)
        tris = triangle_vertex[triangle_groups.get(key, none)]
        used, renumbered = np.unique(tris.reshape(-1), return_inverse=True)
        v = verts[used]
        lit = per_vertex_lit[vertex_face[used]]
        lightmap = np.where(lit[:, None], v['lightmap'], 0).astype(np.float64)
        page = np.where(lit, faces['lightmapNum'][vertex_face[used]], -1)
        parts = [
            (
                v['xyz'].astype(np.float64),
                v['normal'].astype(np.float64),
                v['st'].astype(np.float64),
                lightmap,
                v['color'].astype(np.float64),
                page,
                renumbered.reshape(-1, 3),
            )
        ]
        parts += [_patch(record, bounds, int(patch_faces[row]), patch_level) for row in patch_groups.get(key, none)]
        positions, normals, st, lm, color, pages, triangles = _joined(parts)
        if model in origins:
            positions = positions + origins[model]
        shader_row = shaders[shader]
        groups.append(
            _surface(
                _Group(
                    names[shader],
                    model,
                    _q3_kinds(int(shader_row['surfaceFlags']), int(shader_row['contentFlags'])),
                    positions,
                    normals,
                    st,
                    triangles,
                    {
                        'lightmap': _finite(lm).astype(np.float32),
                        'lightmap_page': pages.astype(np.int32),
                        'color': np.clip(np.rint(color), 0, 255).astype(np.uint8),
                    },
                    flags=int(shader_row['surfaceFlags']),
                )
            )
        )
    lightmaps = r['lightmaps']
    level = LevelData(
        record.game,
        entities,
        lightmaps=np.ascontiguousarray(lightmaps) if len(lightmaps) else None,
        light_scale=LIGHT_SCALE['quake3'],
        brush_models=len(models),
        external_lightmaps=not len(lightmaps) and bool(per_vertex_lit.any()),
        view_height=VIEW_HEIGHT['quake3'],
        spawn_classes=SPAWN_CLASSES['quake3'],
    )
    return groups, level


def _by_key(keys: np.ndarray) -> dict[int, np.ndarray]:
    """Item numbers by key, each run in item order: one stable sort, not a mask over every item per key."""
    order = np.argsort(keys, kind='stable')
    unique, starts = np.unique(keys[order], return_index=True)
    return {int(k): rows for k, rows in zip(unique.tolist(), np.split(order, starts[1:]))}


def _joined(parts: list[tuple]) -> tuple:
    """Point arrays of several parts one after another, their triangles renumbered."""
    offset = 0
    columns: list[list[np.ndarray]] = [[] for _ in range(6)]
    triangles = []
    for part in parts:
        for k in range(6):
            columns[k].append(np.asarray(part[k]))
        triangles.append(np.asarray(part[6], np.int64) + offset)
        offset += len(part[0])
    return (*(np.concatenate(c) for c in columns), np.concatenate(triangles) if triangles else np.zeros((0, 3), np.int64))


def _patch_size(record: BSPFile, bounds: Bounds, k: int) -> tuple[int, int]:
    """A patch's control grid ``(width, height)``, checked: odd sides of 3 to ``MAX_PATCH_SIDE``, ``numVerts`` their product."""
    face = record.records['surfaces'][k]
    w, h = int(face['patchWidth']), int(face['patchHeight'])
    for name, value in (('patchWidth', w), ('patchHeight', h)):
        if value < 3 or value % 2 == 0 or value > MAX_PATCH_SIDE:
            raise bounds.error(f'surfaces[{k}].{name}', value, f'a patch side is odd, 3 to {MAX_PATCH_SIDE} (cm_patch.c)')
    if w * h != int(face['numVerts']) or w * h > MAX_PATCH_VERTS:
        raise bounds.error(
            f'surfaces[{k}].numVerts', int(face['numVerts']), f'a {w} x {h} patch has {w * h} control points (at most {MAX_PATCH_VERTS})'
        )
    return w, h


def _patch(record: BSPFile, bounds: Bounds, k: int, level: int | str) -> tuple:
    """A Bezier patch tessellated at ``level``: each 3 x 3 block as level x level cells, neighbours sharing edges;
    or, at ``'engine'``, as the renderer subdivides it."""
    face = record.records['surfaces'][k]
    w, h = _patch_size(record, bounds, k)
    grid = record.records['drawverts'][int(face['firstVert']) : int(face['firstVert']) + w * h].reshape(h, w)
    lit = int(face['lightmapNum']) >= 0
    clean = _finite(grid['lightmap'])
    if level == 'engine':
        fields = {
            'xyz': grid['xyz'].astype(np.float32),
            'st': grid['st'].astype(np.float32),
            'lightmap': clean.astype(np.float32),
            'normal': grid['normal'].astype(np.float32),
            'color': grid['color'].astype(np.int32),
        }
        out = {name: values.astype(np.float64) for name, values in _engine_grid(fields).items()}
        H, W = out['xyz'].shape[:2]
        positions, st, color = (out[name].reshape(H * W, -1) for name in ('xyz', 'st', 'color'))
        normals = _mesh_normals(out['xyz'].astype(np.float32)).reshape(H * W, 3).astype(np.float64)
        lightmap = out['lightmap'].reshape(H * W, 2) if lit else np.zeros((H * W, 2))
    else:
        assert isinstance(level, int)
        cols, rows = _bezier_weights(w, level), _bezier_weights(h, level)
        W, H = len(cols), len(rows)
        # Every field as one (h, w, 14) grid, evaluated by two matrix products: rows, then columns.
        values = np.concatenate([grid['xyz'], grid['st'], grid['normal'], clean, grid['color']], axis=2, dtype=np.float64)
        across = (rows @ values.reshape(h, -1)).reshape(H, w, -1)
        out = (across.transpose(0, 2, 1) @ cols.T).transpose(0, 2, 1).reshape(H * W, -1)
        positions, st, normals, lightmap, color = out[:, 0:3], out[:, 3:5], out[:, 5:8], out[:, 8:10], out[:, 10:14]
        if not lit:
            lightmap = np.zeros((len(positions), 2))
    v2 = (np.arange(H - 1)[:, None] * W + np.arange(W - 1)[None, :]).reshape(-1)
    v1, v3 = v2 + 1, v2 + W
    v4 = v3 + 1
    triangles = np.stack([np.stack([v2, v3, v1], 1), np.stack([v1, v3, v4], 1)], 1).reshape(-1, 3)
    page = np.full(len(positions), int(face['lightmapNum']) if lit else -1, np.int32)
    return positions, normals, st, lightmap, color, page, triangles


#: Quake III's ``r_subdivisions`` (its default) and ``MAX_GRID_SIZE`` (``tr_local.h``): ``patch_level="engine"``.
R_SUBDIVISIONS = 4.0
MAX_GRID_SIZE = 65
#: The error ``R_SubdividePatchToGrid`` marks a straight column with: culled after the curve is placed.
_STRAIGHT = np.float32(999.0)


def _lerp(name: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``LerpDrawVert`` of one field: the float fields halved in float32, the colour's bytes summed and shifted."""
    if name == 'color':
        return (a + b) >> 1
    return np.float32(0.5) * (a + b)


def _engine_grid(fields: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """A patch's control grid subdivided as ``R_SubdividePatchToGrid`` does (``tr_curve.c``): in each direction,
    a 3-point span whose middle lies more than ``r_subdivisions`` units off the line of its ends gets two more
    columns, until none does or the grid reaches ``MAX_GRID_SIZE``; the approximating points are then put on the
    curve, the spans that were straight removed (skipping the one after each, as the engine's loop does), and
    the grid turned so that it is at least as wide as it is high.  ``fields`` are ``(height, width, n)``."""
    f = dict(fields)
    errors = []
    for _ in range(2):
        error = np.zeros(MAX_GRID_SIZE, np.float32)
        j = 0
        while j + 2 < f['xyz'].shape[1]:
            xyz = f['xyz']
            a, b, c = xyz[:, j], xyz[:, j + 1], xyz[:, j + 2]
            mid = (a + b * np.float32(2) + c) * np.float32(0.25) - a
            line = c - a
            length = np.sqrt((line * line).sum(axis=1, dtype=np.float32))
            # VectorNormalize: times the reciprocal, a zero vector left as it is
            line = line * np.where(length > 0, np.float32(1) / np.where(length > 0, length, np.float32(1)), np.float32(1))[:, None]
            off = mid - line * (mid * line).sum(axis=1, dtype=np.float32)[:, None]
            worst = np.float32(np.sqrt((off * off).sum(axis=1, dtype=np.float32).max()))
            if worst < np.float32(0.1):
                error[j + 1] = _STRAIGHT  # the whole span is straight: its middle column goes
            elif xyz.shape[1] + 2 > MAX_GRID_SIZE or worst <= R_SUBDIVISIONS:
                error[j + 1] = np.float32(1) / worst
            else:
                error[j + 2] = np.float32(1) / worst
                for name, values in f.items():
                    before = _lerp(name, values[:, j], values[:, j + 1])
                    after = _lerp(name, values[:, j + 1], values[:, j + 2])
                    middle = _lerp(name, before, after)
                    f[name] = np.concatenate([values[:, : j + 1], before[:, None], middle[:, None], after[:, None], values[:, j + 2 :]], axis=1)
                continue  # the same span again: it may need more
            j += 2
        errors.append(error)
        f = {name: values.swapaxes(0, 1) for name, values in f.items()}
    for axis in (0, 1):  # PutPointsOnCurve: the odd rows, then the odd columns
        for name, values in f.items():
            values = values.copy()
            inner = values.take(np.arange(1, values.shape[axis], 2), axis)
            up, down = values.take(np.arange(2, values.shape[axis], 2), axis), values.take(np.arange(0, values.shape[axis] - 1, 2), axis)
            placed = _lerp(name, _lerp(name, inner, up), _lerp(name, inner, down))
            index = [slice(None)] * values.ndim
            index[axis] = slice(1, None, 2)
            values[tuple(index)] = placed
            f[name] = values
    for axis, error in ((1, errors[0]), (0, errors[1])):  # columns (width), then rows (height)
        keep = list(range(f['xyz'].shape[axis]))
        table = list(error[: len(keep)])
        i = 1
        while i < len(keep) - 1:
            if table[i] == _STRAIGHT:
                del keep[i], table[i]  # and i moves on past the one that took its place, as the engine's loop does
            i += 1
        f = {name: values.take(keep, axis) for name, values in f.items()}
    if f['xyz'].shape[0] > f['xyz'].shape[1]:  # "flip for longest tristrips": transposed, then each row reversed
        f = {name: values.swapaxes(0, 1)[:, ::-1] for name, values in f.items()}
    return f


#: ``MakeMeshNormals``' eight neighbours of a grid point, ``(column, row)`` steps, in the order it walks them.
_NEIGHBOURS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))


def _unit32(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``VectorNormalize2`` in float32: ``(v / |v|, |v|)``, a zero vector left zero."""
    x, y, z = v[..., 0], v[..., 1], v[..., 2]
    length = np.sqrt(x * x + y * y + z * z)
    scale = np.where(length > 0, np.float32(1) / np.where(length > 0, length, np.float32(1)), np.float32(0))
    return v * scale[..., None], length


def _mesh_normals(xyz: np.ndarray) -> np.ndarray:
    """A subdivided patch's normals as ``MakeMeshNormals`` makes them (``tr_curve.c``), ``(height, width, 3)`` float32.

    At each point, towards each of eight neighbours the first point up to 3 steps away that is not on top
    of it (across the seam of a grid whose first and last columns, or rows, meet within 1 unit); the normal
    is the sum of the unit cross products of each two neighbours found in turn, made unit.
    """
    height, width = xyz.shape[:2]
    wrap_width = bool((((xyz[:, 0] - xyz[:, -1]) ** 2).sum(axis=1) <= 1.0).all())
    wrap_height = bool((((xyz[0] - xyz[-1]) ** 2).sum(axis=1) <= 1.0).all())
    rows, columns = np.meshgrid(np.arange(height), np.arange(width), indexing='ij')
    around = np.zeros((8, height, width, 3), np.float32)
    good = np.zeros((8, height, width), bool)
    for k, (dx, dy) in enumerate(_NEIGHBOURS):
        pending = np.ones((height, width), bool)
        for dist in (1, 2, 3):
            x, y = columns + dx * dist, rows + dy * dist
            if wrap_width:
                x = np.where(x < 0, width - 1 + x, np.where(x >= width, 1 + x - width, x))
            if wrap_height:
                y = np.where(y < 0, height - 1 + y, np.where(y >= height, 1 + y - height, y))
            inside = (x >= 0) & (x < width) & (y >= 0) & (y < height)
            pending &= inside  # the edge of the patch: no neighbour this way
            towards, length = _unit32(xyz[np.clip(y, 0, height - 1), np.clip(x, 0, width - 1)] - xyz)
            found = pending & (length > 0)  # a point on top of this one: look further
            around[k][found] = towards[found]
            good[k] |= found
            pending &= ~found
    total = np.zeros((height, width, 3), np.float32)
    for k in range(8):
        a, b = around[(k + 1) & 7], around[k]
        cross = np.stack(
            [
                a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1],
                a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2],
                a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0],
            ],
            axis=-1,
        )
        unit, length = _unit32(cross)
        use = good[k] & good[(k + 1) & 7] & (length > 0)
        total[use] += unit[use]
    return _unit32(total)[0]


@functools.lru_cache(maxsize=256)
def _bezier_weights(size: int, level: int) -> np.ndarray:
    """``(points, size)``: the weight of each control column at each tessellated column (u = i / level in each block).

    Made once for each (size, level): a map's patches share a few sizes.  Read-only, as it is shared.
    """
    blocks = (size - 1) // 2
    count = blocks * level + 1
    column = np.arange(count)
    block = np.minimum(column // level, blocks - 1)
    t = (column - block * level) / level
    out = np.zeros((count, size))
    for a, weight in enumerate(((1 - t) ** 2, 2 * t * (1 - t), t * t)):
        out[column, 2 * block + a] = weight
    out.flags.writeable = False
    return out


def _check_ranges(bounds: Bounds, lump: str, first: np.ndarray, count: np.ndarray, limit: int, target: str, rows: np.ndarray | None = None) -> None:
    """Check that each record's run ``first .. first + count`` lies in ``target``'s ``limit`` records."""
    first = np.asarray(first, np.int64)
    count = np.asarray(count, np.int64)
    bad = (first < 0) | (count < 0) | (first + count > limit)
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        row = int(rows[k]) if rows is not None else k
        raise bounds.error(f'{lump}[{row}]', (int(first[k]), int(count[k])), f'runs past the {limit} records of the {target} lump')


# -- Quake 1, Quake II, UFO: AI --------------------------------------------------------------------


def _texture_kinds(name: str, flags: int, game: str) -> frozenset[str]:
    """What ``hide=`` calls a texture: its flags, and the tool textures' names."""
    lower = name.lower()
    base = lower.rsplit('/', 1)[-1]
    kinds = set()
    if (game in ('quake2',) and flags & SURF_SKY) or (game in ('bsp29', 'bsp2') and base.startswith('sky')):
        kinds.add('sky')
    if game in ('quake2', 'ufoai') and flags & SURF_NODRAW or base == 'nodraw':
        kinds.add('nodraw')
    if base.startswith('trigger'):
        kinds.add('trigger')
    if base.endswith('clip') or base == 'stepon':
        kinds.add('clip')
    return frozenset(kinds)


def _edge_faces(record: BSPFile, entities: list[dict[str, str]], coloured: bytes | None = None) -> tuple[list[SurfaceData], LevelData]:
    bounds = Bounds(record.source, len(record.raw))
    game = record.game
    r = record.records
    planes, vertexes, texinfo, faces, edges, surfedges, models = (
        r[n] for n in ('planes', 'vertexes', 'texinfo', 'faces', 'edges', 'surfedges', 'models')
    )
    _check_ranges(bounds, 'models', models['firstface'], models['numfaces'], len(faces), 'faces')
    _check_ranges(bounds, 'faces', faces['firstedge'], faces['numedges'], len(surfedges), 'surfedges')
    bounds.indices('faces.texinfo', faces['texinfo'].astype(np.int64), len(texinfo))
    bounds.indices('faces.planenum', faces['planenum'].astype(np.int64), len(planes))
    edge_numbers = surfedges.astype(np.int64)
    bounds.indices('surfedges', np.abs(edge_numbers), len(edges))
    bounds.indices('edges.v', edges['v'].astype(np.int64).reshape(-1), len(vertexes))
    few = faces['numedges'] < 3
    if few.any():
        k = int(np.flatnonzero(few)[0])
        raise bounds.error(f'faces[{k}].numedges', int(faces['numedges'][k]), 'a face has at least 3 edges')

    # Texture names, flags and sizes by texinfo.
    textures = _textures(record, bounds)
    if game in ('bsp29', 'bsp2'):
        bounds.indices('texinfo.miptex', texinfo['miptex'].astype(np.int64), len(textures))
        tex_of_info = texinfo['miptex'].astype(np.int64)
        texture_names = [t[0] for t in textures]
        flags = texinfo['flags']
    else:
        texture_names = []
        index: dict[str, int] = {}
        tex_of_info = np.zeros(len(texinfo), np.int64)
        for k, name in enumerate(cstrings(texinfo['texture'])):
            tex_of_info[k] = index.setdefault(name, len(index))
        texture_names = list(index)
        flags = texinfo['flags' if game == 'quake2' else 'surfaceFlags']

    # Which brush model each face belongs to; UFO: AI's 259 level models are the world.
    owner = np.full(len(faces), -1, np.int64)
    for number, (first, count) in enumerate(zip(models['firstface'].tolist(), models['numfaces'].tolist())):
        brush = max(0, number - (UFO_LEVEL_MAX - 1)) if game == 'ufoai' else number
        owner[first : first + count] = brush
    origins = _origins(entities, 0)

    # One vertex per loop entry (BuildSurfaceDisplayList), a fan (0, i, i + 1) a face.
    counts = faces['numedges'].astype(np.int64)
    loop = edge_numbers[_ranges(faces['firstedge'], counts)]
    vertex = np.where(loop >= 0, edges['v'][np.abs(loop), 0], edges['v'][np.abs(loop), 1]).astype(np.int64)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    fan_counts = counts - 2
    fan_face = np.repeat(np.arange(len(faces)), fan_counts)
    step = _ranges(np.ones(len(faces), np.int64), fan_counts)
    base = starts[fan_face]
    fans = np.stack([base, base + step, base + step + 1], 1)  # the stored loop is clockwise from the front
    corner_face = np.repeat(np.arange(len(faces)), counts)
    xyz = vertexes[vertex].astype(np.float64)
    face_info = faces['texinfo'].astype(np.int64)
    info = texinfo[face_info][corner_face]
    vecs = info['vecs'].astype(np.float64)
    s = (xyz * vecs[:, 0, :3]).sum(1) + vecs[:, 0, 3]
    t = (xyz * vecs[:, 1, :3]).sum(1) + vecs[:, 1, 3]
    plane = planes['normal'][faces['planenum'].astype(np.int64)].astype(np.float64)
    plane[faces['side'] != 0] *= -1
    normals = plane[corner_face]
    if game == 'ufoai':
        stored = r['normals']
        if len(stored) != len(vertexes):
            raise bounds.error('normals lump length', len(stored) * 12, f'one normal a vertex: {len(vertexes)} vertexes (R_ModLoadNormals)')
        own = stored[vertex].astype(np.float64)
        phong = (flags[face_info][corner_face] & SURF_PHONG) != 0
        use = phong & (np.abs(own).sum(1) > 0)
        normals = np.where(use[:, None], own, normals)
    light = _light_coords(record, len(faces), s, t, corner_face)
    face_lit = (flags[face_info] & (Q1_TEX_SPECIAL if game in ('bsp29', 'bsp2') else SURF_WARP | SURF_SKY | SURF_TRANS)) == 0
    atlas, light_uv, light_page = _lightmap_atlas(record, faces, light, corner_face, face_lit & (face_info >= 0), entities, coloured)

    groups: list[SurfaceData] = []
    stride = len(texture_names) + 1
    fan_groups = _by_key(owner[fan_face] * stride + tex_of_info[face_info][fan_face])
    drawn_groups = {key: rows for key, rows in fan_groups.items() if key >= 0}  # a face of no model has a negative key
    for key in sorted(drawn_groups, key=lambda k: (k // stride, int(fan_face[drawn_groups[k][0]]))):
        model, texture = divmod(key, stride)
        rows = drawn_groups[key]
        used, renumbered = np.unique(fans[rows].reshape(-1), return_inverse=True)
        positions = xyz[used] + origins.get(model, 0.0)
        size = None
        picture = None
        st = np.column_stack([s[used], t[used]])
        name = texture_names[texture]
        if game in ('bsp29', 'bsp2'):
            size = textures[texture][1]  # the miptex's own: the model layer divides by it
            picture = textures[texture][2]
        face_flags = int(flags[face_info[fan_face[rows[0]]]])
        image_name = name if game in ('bsp29', 'bsp2') else (f'textures/{name}.wal' if game == 'quake2' else f'textures/{name}')
        groups.append(
            _surface(
                _Group(  # named by the texture name as stored; the game finds its image under textures/
                    name,
                    model,
                    _texture_kinds(name, face_flags, game),
                    positions,
                    normals[used],
                    st,
                    renumbered.reshape(-1, 3),
                    {'lightmap_texel': light[used].astype(np.float32), 'lightmap': light_uv[used], 'lightmap_page': light_page[used]},
                    flags=face_flags,
                    texture_size=size,
                    picture=picture,
                    image=image_name,
                    texels=size is None,  # divided by the size of the image the game finds (Mod_LoadTexinfo, R_LoadBspVertexArrays)
                )
            )
        )
    level = LevelData(
        game,
        entities,
        lightmaps=atlas,
        brush_models=len(models) - (UFO_LEVEL_MAX - 1 if game == 'ufoai' else 0),
        light_scale=LIGHT_SCALE[game],
        view_height=VIEW_HEIGHT[game],
        spawn_classes=SPAWN_CLASSES[game],
        side_light='.lit' if game in ('bsp29', 'bsp2') else None,
    )
    return groups, level


def _lightmap_atlas(
    record: BSPFile,
    faces: np.ndarray,
    light: np.ndarray,
    corner_face: np.ndarray,
    lit: np.ndarray,
    entities: list[dict[str, str]],
    coloured: bytes | None = None,
) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
    """Quake 1's, II's and UFO: AI's per-face lightmap blocks gathered into RGB pages.

    Each lit face's block (``smax x tmax`` luxels from ``lightofs``; of Quake 1 and II, the blocks of its
    light styles summed at each style's first letter, :func:`style_values`: a still picture) goes into its own cell of a grid of cells of the largest block, at most :data:`MAX_PAGE_SIDE` a side, as many pages as the cells need; returns the pages ``(pages, height, width, 3)``
    (``None`` when no face is lit) and each corner's lightmap coordinates in it (``t = 0`` the first row, at the
    luxel's centre as ``BuildSurfaceDisplayList`` puts it) and page (-1 for a face drawn unlit).
    """
    game = record.game
    lighting = record.lump_bytes('lighting_day' if game == 'ufoai' else 'lighting')
    per_luxel = LUXEL_BYTES[game]
    offsets = (faces['lightofs'][:, 1] if game == 'ufoai' else faces['lightofs']).astype(np.int64)
    if coloured is not None:  # a .lit's RGB luxels: three bytes for each of the lump's, at three times the offsets
        lighting, per_luxel, offsets = coloured, 3, offsets * 3
    n = len(faces)
    # Each face's block size from its corners' places in luxels (CalcSurfaceExtents: the extents / spacing + 1).
    size = np.zeros((n, 2), np.int64)
    if len(corner_face):
        top = np.zeros((n, 2), np.float64)
        np.maximum.at(top, corner_face, light.astype(np.float64))
        # A block past any engine's (Quake's extents of 512 texels, Quake II's 128-luxel pages) or not finite
        # (a NaN or huge vertex or texture axis) is no block: that face is drawn unlit, and a warning says so.
        wild = lit & ~(np.ceil(top) < MAX_BLOCK_LUXELS).all(axis=1)
        if wild.any():
            w = int(np.flatnonzero(wild)[0])
            warn_external(
                f'{record.source}: faces[{w}] has a lightmap block of {top[w, 0] + 1:g} x {top[w, 1] + 1:g} luxels '
                f'(at most {MAX_BLOCK_LUXELS} a side); {int(wild.sum())} such faces are drawn unlit'
            )
            lit = lit & ~wild
        size = np.where(lit[:, None], np.ceil(np.where(lit[:, None], top, 0)), 0).astype(np.int64) + 1
    luxels = size[:, 0] * size[:, 1]
    lit = lit & (offsets >= 0) & (luxels > 0) & (offsets + luxels * per_luxel <= len(lighting))
    uv = np.zeros((len(corner_face), 2), np.float32)
    page = np.full(len(corner_face), -1, np.int32)
    if not lit.any():
        return None, uv, page
    cell = size[lit].max(axis=0)  # (s, t) of the largest block
    count = int(lit.sum())
    # A page of at most MAX_PAGE_SIDE a side (what every GPU and glTF viewer takes), as many pages as needed.
    most_columns, most_rows = MAX_PAGE_SIDE // int(cell[0]), MAX_PAGE_SIDE // int(cell[1])
    columns = min(count, max(1, int(np.ceil(np.sqrt(count * cell[1] / cell[0])))), most_columns)
    rows = min(-(-count // columns), most_rows)
    per_page = columns * rows
    width, height = columns * int(cell[0]), rows * int(cell[1])
    slot = np.cumsum(lit) - 1  # each lit face's cell
    on_page, within = np.divmod(slot, per_page)
    origin = np.column_stack([within % columns * cell[0], within // columns * cell[1]])
    # Every luxel of every lit face at once: its face, its place in the block, its bytes.
    chosen = np.flatnonzero(lit)
    face_of = np.repeat(chosen, luxels[chosen])
    k = _ranges(np.zeros(len(chosen), np.int64), luxels[chosen])
    i, j = k % size[face_of, 0], k // size[face_of, 0]
    data = np.frombuffer(lighting, np.uint8)
    atlas = np.full((-(-count // per_page), height, width, 3), 255, np.uint8)
    where = (on_page[face_of], origin[face_of, 1] + j, origin[face_of, 0] + i)
    if 'styles' not in (faces.dtype.names or ()):  # UFO: AI: one block a face, no styles
        start = offsets[face_of] + k * per_luxel
        atlas[where] = np.stack([data[start + c] for c in range(3)], axis=1)
    else:
        # Each style slot's block follows the last (until 255), summed at each style's still value
        # (R_BuildLightMap); a face of style 0 alone keeps its bytes.
        values = style_values(record.game, entities)
        styles = faces['styles'].astype(np.int64)
        ended = np.cumsum(styles == 255, axis=1) > 0
        total = np.zeros((len(face_of), 3), np.float64)
        for number in range(4):
            block_end = offsets + (number + 1) * luxels * per_luxel
            there = ~ended[:, number] & (block_end <= len(lighting))
            use = there[face_of]
            if not use.any():
                continue
            start = offsets[face_of][use] + (number * luxels[face_of][use] + k[use]) * per_luxel
            luxel = np.stack([data[start]] * 3 if per_luxel == 1 else [data[start + c] for c in range(3)], axis=1)
            total[use] += luxel * values[styles[face_of[use], number]][:, None]
        # Past 255 the colour is scaled down as a whole, keeping its hue (Quake II's R_BuildLightMap; Quake's
        # grey clamp is the same).
        top = total.max(axis=1, keepdims=True)
        total = np.where(top > 255, total * (255 / np.maximum(top, 1)), total)
        atlas[where] = np.clip(np.rint(total), 0, 255).astype(np.uint8)
    corner_lit = lit[corner_face]
    place = origin[corner_face] + light.astype(np.float64) + 0.5
    uv[corner_lit] = (place / [width, height])[corner_lit].astype(np.float32)
    page[corner_lit] = on_page[corner_face][corner_lit]
    return atlas, uv, page


#: The first letter of each light style the games set at start (Quake's world.qc, Quake II's g_spawn.c
#: SP_worldspawn: the same patterns), the letter a still picture shows.
STYLE_LETTERS = {0: 'm', 1: 'm', 2: 'a', 3: 'm', 4: 'm', 5: 'j', 6: 'n', 7: 'm', 8: 'm', 9: 'a', 10: 'm', 11: 'a', 63: 'a'}
#: What a style no lightstyle string sets is worth, relative to 'm': Quake's R_AnimateLight 256 of 264,
#: Quake II's CL_RunLightStyles 1.0.
UNSET_STYLE = {'bsp29': 256 / 264, 'bsp2': 256 / 264, 'quake2': 1.0}


#: A Quake 1 map's coloured light beside it (FitzQuake's and QuakeSpasm's ``maps/NAME.lit``): ident, version 1.
LIT_IDENT = b'QLIT'


def lit_lightmaps(record: BSPFile, entities: list[dict[str, str]], data: bytes, source: str) -> np.ndarray | None:
    """The lightmap page of a Quake 1 level from its ``.lit`` file: RGB luxels, three bytes for each of the
    lighting lump's, placed as the grey ones (the same cells and coordinates).

    ``None`` (and a warning) for a file the engines ignore: another ident or version, or a size that is not
    8 bytes and three times the lighting lump (QuakeSpasm: "Corrupt .lit file (old version?), ignoring").
    """
    expected = 8 + 3 * record.lumps['lighting'][1]
    version = int(np.frombuffer(data, '<i4', 1, 4)[0]) if len(data) >= 8 else None
    if data[:4] != LIT_IDENT or version != 1 or len(data) != expected:
        warn_external(
            f'{source}: not a coloured light file of this map (ident {data[:4]!r}, version {version}, {len(data)} bytes, '
            f"{expected} expected); the map's own grey light is used"
        )
        return None
    return _edge_faces(record, entities, coloured=data[8:])[1].lightmaps


def style_values(game: str, entities: list[dict[str, str]]) -> np.ndarray:
    """Each light style's worth (0..255) at a still picture, relative to style 0's ``'m'``.

    The patterns' first letters (:data:`STYLE_LETTERS`, a letter worth ``(letter - 'a') / 12`` of ``'m'``);
    a switchable light (style 32 and up, a ``light*`` entity's ``"style"``) is on, ``'m'``, unless its
    ``spawnflags`` has START_OFF (1), ``'a'``, as the games' light spawn functions set them.
    """
    values = np.full(256, UNSET_STYLE[game], np.float64)
    for style, letter in STYLE_LETTERS.items():
        values[style] = (ord(letter) - ord('a')) / 12
    for entity in entities:
        if not entity.get('classname', '').startswith('light'):
            continue
        try:
            style, flags = int(entity.get('style', '0')), int(entity.get('spawnflags', '0'))
        except ValueError:
            continue
        if 32 <= style < 255:
            values[style] = 0.0 if flags & 1 else 1.0
    return values


def _light_coords(record: BSPFile, n: int, s: np.ndarray, t: np.ndarray, corner_face: np.ndarray) -> np.ndarray:
    """Each corner's place in its face's own lightmap block, in luxels (CalcSurfaceExtents), float32 as the engines compute it."""
    spacing = 16.0
    if record.game == 'ufoai':
        lighting = record.lump_bytes('lighting_day')
        if lighting:
            spacing = float(1 << lighting[0])
    s32, t32 = s.astype(np.float32), t.astype(np.float32)
    mins = np.full((n, 2), np.inf, np.float32)
    np.minimum.at(mins[:, 0], corner_face, s32)
    np.minimum.at(mins[:, 1], corner_face, t32)
    texturemins = spacing * np.floor(mins / spacing)
    return np.column_stack([(s32 - texturemins[corner_face, 0]) / spacing, (t32 - texturemins[corner_face, 1]) / spacing])


def _textures(record: BSPFile, bounds: Bounds) -> list[tuple[str, tuple[int, int], np.ndarray | None]]:
    """Quake 1's miptex: ``(name, (width, height), pixels or None)`` each, in the lump's order."""
    if record.game not in ('bsp29', 'bsp2'):
        return []
    lump = record.lump_bytes('textures')
    if not lump:
        return []
    inner = Bounds(f'{record.source} textures lump', len(lump))
    inner.section('count', 0, 1, 4)
    count = inner.count('count', int(np.frombuffer(lump, '<i4', 1)[0]))
    inner.section('offset', 4, count, 4)
    offsets = np.frombuffer(lump, '<i4', count, 4)
    out: list[tuple[str, tuple[int, int], np.ndarray | None]] = []
    for k, offset in enumerate(offsets.tolist()):
        if offset < 0:
            out.append((f'missing{k}', (0, 0), None))
            continue
        inner.section(f'offset[{k}]', offset, 1, MIPTEX.itemsize)
        mip = np.frombuffer(lump, MIPTEX, 1, offset)[0]
        width, height = int(mip['width']), int(mip['height'])
        name = cstrings(np.array([mip['name']]))[0]
        pixels = None
        first = int(mip['offsets'][0])
        if first and width and height:
            inner.section(f'miptex[{k}].offsets[0]', offset + first, width * height, 1)
            pixels = np.frombuffer(lump, np.uint8, width * height, offset + first).reshape(height, width)
        out.append((name, (width, height), pixels))
    return out


def lightmap_pages_are_deluxe(level: LevelData, pages: int, face_pages: np.ndarray) -> bool:
    """Whether a Quake III map's lightmap pages alternate light and light direction (q3map2 ``-deluxe``).

    The rule: worldspawn's compile line (``_q3map2_cmdline``) names ``-deluxe``; or, without it, the
    map has an even number of pages, at least two, and its lit faces name even pages only (a face's
    light page ``2k`` is followed by its direction page ``2k + 1``, which no face names).

    Parameters
    ----------
    level : LevelData
        The level (its worldspawn).
    pages : int
        The lightmap pages the map has, in the file or beside it (``maps/NAME/lm_NNNN.tga``).
    face_pages : numpy.ndarray
        The page numbers the faces name (below 0: lit by their vertices, not counted).
    """
    if level.entities and '-deluxe' in level.entities[0].get('_q3map2_cmdline', '').split():
        return True
    named = np.asarray(face_pages)
    named = named[named >= 0]
    return pages >= 2 and pages % 2 == 0 and bool((named % 2 == 0).all())


# -- Quake III's collision model, visibility and light grid (qfiles.h; cm_load.c, tr_bsp.c) ---------------

Q3_NODE = np.dtype([('planeNum', '<i4'), ('children', '<i4', (2,)), ('mins', '<i4', (3,)), ('maxs', '<i4', (3,))])
Q3_LEAF = np.dtype(
    [
        ('cluster', '<i4'),
        ('area', '<i4'),
        ('mins', '<i4', (3,)),
        ('maxs', '<i4', (3,)),
        ('firstLeafSurface', '<i4'),
        ('numLeafSurfaces', '<i4'),
        ('firstLeafBrush', '<i4'),
        ('numLeafBrushes', '<i4'),
    ]
)
Q3_BRUSH = np.dtype([('firstSide', '<i4'), ('numSides', '<i4'), ('shaderNum', '<i4')])
Q3_BRUSHSIDE = np.dtype([('planeNum', '<i4'), ('shaderNum', '<i4')])
Q2_NODE = np.dtype(
    [('planeNum', '<i4'), ('children', '<i4', (2,)), ('mins', '<i2', (3,)), ('maxs', '<i2', (3,)), ('firstFace', '<u2'), ('numFaces', '<u2')]
)
Q2_LEAF = np.dtype(
    [
        ('contents', '<i4'),
        ('cluster', '<i2'),
        ('area', '<i2'),
        ('mins', '<i2', (3,)),
        ('maxs', '<i2', (3,)),
        ('firstLeafFace', '<u2'),
        ('numLeafFaces', '<u2'),
        ('firstLeafBrush', '<u2'),
        ('numLeafBrushes', '<u2'),
    ]
)
Q2_BRUSH = np.dtype([('firstSide', '<i4'), ('numSides', '<i4'), ('contents', '<i4')])
Q2_BRUSHSIDE = np.dtype([('planeNum', '<u2'), ('texinfo', '<i2')])
#: Quake III's ``CONTENTS_*`` bits by name (``surfaceflags.h``), as :meth:`QuakeModel.contents` returns them.
CONTENTS = {
    'solid': 0x1,
    'lava': 0x8,
    'slime': 0x10,
    'water': 0x20,
    'fog': 0x40,
    'notteam1': 0x80,
    'notteam2': 0x100,
    'nobotclip': 0x200,
    'areaportal': 0x8000,
    'playerclip': 0x10000,
    'monsterclip': 0x20000,
    'teleporter': 0x40000,
    'jumppad': 0x80000,
    'clusterportal': 0x100000,
    'donotenter': 0x200000,
    'botclip': 0x400000,
    'mover': 0x800000,
    'origin': 0x1000000,
    'body': 0x2000000,
    'corpse': 0x4000000,
    'detail': 0x8000000,
    'structural': 0x10000000,
    'translucent': 0x20000000,
    'trigger': 0x40000000,
    'nodrop': 0x80000000,
}
#: The masks the game traces and tests with (``bg_public.h`` ``MASK_*``), by name.
MASKS = {
    'all': -1,
    'solid': CONTENTS['solid'],
    'player': CONTENTS['solid'] | CONTENTS['playerclip'] | CONTENTS['body'],
    'deadsolid': CONTENTS['solid'] | CONTENTS['playerclip'],
    'water': CONTENTS['water'] | CONTENTS['lava'] | CONTENTS['slime'],
    'opaque': CONTENTS['solid'] | CONTENTS['slime'] | CONTENTS['lava'],
    'shot': CONTENTS['solid'] | CONTENTS['body'] | CONTENTS['corpse'],
}
#: The light grid's spacing unless worldspawn's ``"gridsize"`` says otherwise (``R_LoadEntities``).
LIGHT_GRID_SIZE = (64.0, 64.0, 128.0)


@dataclass
class Q3Collision:
    """What Quake III's collision, visibility and light-grid code loads from a map, indices checked.

    Attributes
    ----------
    normals, dists : numpy.ndarray
        The planes: ``float32`` ``(planes, 3)`` and ``(planes,)``.
    plane_types : numpy.ndarray
        ``0``, ``1``, ``2`` for a plane whose normal is exactly +x, +y or +z, else ``3`` (``PlaneTypeForNormal``).
    node_planes, children : numpy.ndarray
        Each node's plane and its ``(front, back)`` children (a child below 0 is leaf ``-1 - child``).
    leaf_cluster, leaf_area, leaf_first_brush, leaf_brushes : numpy.ndarray
        Each leaf's cluster and area (-1 in solid) and its run of ``leafbrushes``.
    leafbrushes : numpy.ndarray
        Brush numbers.
    brush_first_side, brush_sides, brush_contents, brush_shader : numpy.ndarray
        Each brush's run of sides, its contents (its shader's ``contentFlags``) and shader.
    side_planes, side_shader : numpy.ndarray
        Each brush side's plane and shader.
    shader_names, shader_flags : list of str, numpy.ndarray
        Each shader's name and ``surfaceFlags``.
    model_brushes : numpy.ndarray
        ``(models, 2)``: each brush model's first brush and count.
    model_bounds : numpy.ndarray
        ``float32`` ``(models, 2, 3)``: each model's mins and maxs.
    clusters, cluster_bytes : int
        The visibility's clusters and the bytes of a row; ``visibility`` the rows, ``uint8``
        ``(clusters, cluster_bytes)`` (all ``0xff``, every cluster seeing every other, for a map without it).
    areas : int
        Areas (one more than the largest leaf area).
    light_grid : numpy.ndarray or None
        ``uint8`` ``(z, y, x, 8)``: ambient RGB, directed RGB, longitude, latitude of each sample as stored;
        ``None`` where the lump does not match the grid (the renderer's "light grid mismatch").
    grid_size, grid_origin : numpy.ndarray
        The grid's spacing and first sample's place (``float32`` ``(3,)``).
    patch_sizes : numpy.ndarray
        ``(patches, 2)``: each patch's control grid, width and height (``CMod_LoadPatches``).
    patch_points : list of numpy.ndarray
        Each patch's control points, ``float32`` ``(width * height, 3)``, rows of ``width``.
    patch_contents, patch_flags, patch_model : numpy.ndarray
        Each patch's shader's ``contentFlags`` and ``surfaceFlags``, and the brush model it belongs to.
    source : str
        The map's file, as errors name it.
    game : str
        ``'quake3'`` or ``'quake2'``: which engine's rules answer (Quake II's contents are its leaves', its traces
        stop ``DIST_EPSILON`` 1/32 short with the box as given, not centred).
    leaf_contents : numpy.ndarray or None
        Quake II: each leaf's contents, what ``CM_PointContents`` returns.
    model_headnodes : numpy.ndarray or None
        Quake II: each brush model's head node (its brushes are those of the leaves below it).
    model_brush_lists : list of numpy.ndarray or None
        Quake II: each brush model's brushes, in order.
    """

    normals: np.ndarray
    dists: np.ndarray
    plane_types: np.ndarray
    node_planes: np.ndarray
    children: np.ndarray
    leaf_cluster: np.ndarray
    leaf_area: np.ndarray
    leaf_first_brush: np.ndarray
    leaf_brushes: np.ndarray
    leafbrushes: np.ndarray
    brush_first_side: np.ndarray
    brush_sides: np.ndarray
    brush_contents: np.ndarray
    brush_shader: np.ndarray
    side_planes: np.ndarray
    side_shader: np.ndarray
    shader_names: list[str]
    shader_flags: np.ndarray
    model_brushes: np.ndarray
    model_bounds: np.ndarray
    clusters: int
    cluster_bytes: int
    visibility: np.ndarray
    areas: int
    light_grid: np.ndarray | None
    grid_size: np.ndarray
    grid_origin: np.ndarray
    patch_sizes: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), np.int64))
    patch_points: list[np.ndarray] = field(default_factory=list)
    patch_contents: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    patch_flags: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    patch_model: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    game: str = 'quake3'
    source: str = ''
    leaf_contents: np.ndarray | None = None
    model_headnodes: np.ndarray | None = None
    model_brush_lists: list[np.ndarray] | None = None

    def model_brush_list(self, model: int) -> np.ndarray:
        """Brush model ``model``'s brushes, in order (the world's is model 0)."""
        if self.model_brush_lists is not None:
            return self.model_brush_lists[model]
        first, count = self.model_brushes[model]
        return np.arange(first, first + count)


def _records(record: BSPFile, name: str, dtype: np.dtype) -> np.ndarray:
    offset, length = record.lumps[name]
    if length % dtype.itemsize:
        raise QuakeFormatError(
            record.source, f'{name} lump length', length, f'not a whole number of {dtype.itemsize}-byte records ("funny lump size")'
        )
    return np.frombuffer(record.raw, dtype, length // dtype.itemsize, offset) if length else np.zeros(0, dtype)


def read_collision(record: BSPFile, entities: list[dict[str, str]]) -> Q3Collision:
    """A Quake III map's collision model, visibility and light grid, as ``CM_LoadMap`` and ``R_LoadLightGrid`` load them;
    a Quake II map's collision model and visibility, as its ``CM_LoadMap`` loads them.

    Raises
    ------
    QuakeFormatError
        For another game, a lump not a whole number of records, or an index out of range (naming the lump and value).
    """
    if record.game == 'quake2':
        return _read_q2_collision(record)
    if record.game != 'quake3':
        raise QuakeFormatError(
            record.source, 'version', record.version, 'collision and visibility are read of Quake III (IBSP 46) and Quake II (IBSP 38) maps'
        )
    shaders = record.records['shaders']
    planes, models, nodes, leafs, leafbrushes, brushes, sides, check = _tree_lumps(record, Q3_NODE, Q3_LEAF, '<i4', Q3_BRUSH, Q3_BRUSHSIDE)
    check.record_indices('brushes', 'shaderNum', brushes['shaderNum'], len(shaders))
    check.runs('models', 'firstBrush', models['firstBrush'], models['numBrushes'], len(brushes))
    normals = np.ascontiguousarray(planes['normal'], np.float32)
    types = np.full(len(planes), 3, np.int8)
    for axis in range(3):
        types[normals[:, axis] == 1.0] = axis  # PlaneTypeForNormal: exactly +1 on an axis
    clusters, cluster_bytes, visibility = _visibility(record, leafs)
    areas = int(leafs['area'].max()) + 1 if len(leafs) else 0
    size = _grid_size(entities)
    bounds = np.asarray(models['mins'][0], np.float32), np.asarray(models['maxs'][0], np.float32)
    with np.errstate(invalid='ignore', over='ignore'):  # a box past float32's range: no grid, below
        origin = (size * np.ceil(bounds[0] / size)).astype(np.float32)
        top = (size * np.floor(bounds[1] / size)).astype(np.float32)
        steps = (top - origin) / size + 1
    # A model box past float32's range, or too wide for a grid a lump could hold (a broken map): no grid.
    counts = steps.astype(np.int64) if (np.isfinite(steps) & (np.abs(steps) < 2**31)).all() else np.zeros(3, np.int64)
    grid = None
    light = record.lump_bytes('lightgrid')
    if (counts > 0).all() and len(light) == int(np.prod(counts)) * 8:
        grid = np.frombuffer(light, np.uint8).reshape(int(counts[2]), int(counts[1]), int(counts[0]), 8)
    return Q3Collision(
        normals,
        np.asarray(planes['dist'], np.float32),
        types,
        nodes['planeNum'].astype(np.int64),
        nodes['children'].astype(np.int64),
        leafs['cluster'].astype(np.int64),
        leafs['area'].astype(np.int64),
        leafs['firstLeafBrush'].astype(np.int64),
        leafs['numLeafBrushes'].astype(np.int64),
        leafbrushes.astype(np.int64),
        brushes['firstSide'].astype(np.int64),
        brushes['numSides'].astype(np.int64),
        shaders['contentFlags'][brushes['shaderNum']].astype(np.int64),
        brushes['shaderNum'].astype(np.int64),
        sides['planeNum'].astype(np.int64),
        sides['shaderNum'].astype(np.int64),
        cstrings(shaders['shader']),
        shaders['surfaceFlags'].astype(np.int64),
        np.column_stack([models['firstBrush'], models['numBrushes']]).astype(np.int64),
        np.stack([models['mins'], models['maxs']], axis=1).astype(np.float32),
        clusters,
        cluster_bytes,
        visibility,
        areas,
        grid,
        size,
        origin,
        *_patches(record, models, check),
        source=record.source,
    )


def _tree_lumps(record: BSPFile, node: np.dtype, leaf: np.dtype, leafbrush: str, brush: np.dtype, side: np.dtype) -> tuple:
    """The planes, models, nodes, leaves, leaf brushes, brushes and sides of a map of either game, as ``CM_LoadMap``
    takes them: at least a leaf, a node and a model, every index in range and the BSP a tree below node 0 (each
    child further down than its node, so no descent loops); the checker, for the game's own checks."""
    planes, models = record.records['planes'], record.records['models']
    nodes, leafs = _records(record, 'nodes', node), _records(record, 'leafs', leaf)
    leafbrushes = _records(record, 'leafbrushes', np.dtype(leafbrush))
    brushes, sides = _records(record, 'brushes', brush), _records(record, 'brushsides', side)
    if not len(leafs):
        raise QuakeFormatError(record.source, 'leafs lump length', 0, 'a map has at least one leaf ("Map with no leafs")')
    if not len(nodes):
        raise QuakeFormatError(record.source, 'nodes lump length', 0, 'a map has at least one node ("Map has no nodes")')
    if not len(models):
        raise QuakeFormatError(record.source, 'models lump length', 0, 'a map has at least the world\'s model ("Map with no models")')
    check = Bounds(record.source, len(record.raw))
    check.record_indices('nodes', 'planeNum', nodes['planeNum'], len(planes))
    check.record_indices('nodes', 'children', nodes['children'], len(nodes), low=-len(leafs))
    check.runs('leafs', 'firstLeafBrush', leafs['firstLeafBrush'], leafs['numLeafBrushes'], len(leafbrushes))
    check.record_indices('leafbrushes', 'brush', leafbrushes, len(brushes))
    check.runs('brushes', 'firstSide', brushes['firstSide'], brushes['numSides'], len(sides))
    check.record_indices('brushsides', 'planeNum', sides['planeNum'], len(planes))
    check.descending('nodes', nodes['children'], nodes['children'] >= 0)
    return planes, models, nodes, leafs, leafbrushes, brushes, sides, check


def _read_q2_collision(record: BSPFile) -> Q3Collision:
    """A Quake II map's collision model and visibility as ``CM_LoadMap`` loads them (``cmodel.c``)."""
    texinfo = record.records['texinfo']
    planes, models, nodes, leafs, leafbrushes, brushes, sides, check = _tree_lumps(record, Q2_NODE, Q2_LEAF, '<u2', Q2_BRUSH, Q2_BRUSHSIDE)
    if leafs['contents'][0] != CONTENTS['solid']:
        raise QuakeFormatError(
            record.source, 'leafs[0].contents', int(leafs['contents'][0]), 'leaf 0 is the solid leaf ("Map leaf 0 is not CONTENTS_SOLID")'
        )
    check.record_indices('brushsides', 'texinfo', sides['texinfo'], len(texinfo), low=-1)
    check.record_indices('models', 'headnode', models['headnode'], len(nodes), low=-len(leafs))
    children = nodes['children'].astype(np.int64)
    heads = models['headnode'].astype(np.int64)
    # Each model's brushes: those of the leaves below its head node, in order.
    lists = []
    for head in heads.tolist():
        below = _leaves_below(children, head)
        starts, counts = leafs['firstLeafBrush'][below].astype(np.int64), leafs['numLeafBrushes'][below].astype(np.int64)
        index = np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))
        lists.append(np.unique(leafbrushes[index].astype(np.int64)))
    side_info = sides['texinfo'].astype(np.int64)
    # A brush's shader: the texture of its first side that has one (Quake II names textures by side, not by brush).
    first_named = np.full(len(brushes), -1, np.int64)
    for k in range(int(brushes['numSides'].max()) if len(brushes) else 0):
        here = brushes['firstSide'].astype(np.int64) + k
        valid = (k < brushes['numSides']) & (first_named < 0)
        first_named[valid] = side_info[here[valid]]  # within the sides: the runs are checked
    names = cstrings(texinfo['texture']) + ['']
    clusters, cluster_bytes, visibility = _q2_visibility(record, leafs)
    normals = np.ascontiguousarray(planes['normal'], np.float32)
    return Q3Collision(
        normals,
        np.asarray(planes['dist'], np.float32),
        # Quake II takes each plane's type as stored; one past 0..2 reads as a plane of any slant (the engine
        # would read a coordinate past the point's three).
        np.where((planes['type'] >= 0) & (planes['type'] < 3), planes['type'], 3).astype(np.int8),
        nodes['planeNum'].astype(np.int64),
        children,
        leafs['cluster'].astype(np.int64),
        leafs['area'].astype(np.int64),
        leafs['firstLeafBrush'].astype(np.int64),
        leafs['numLeafBrushes'].astype(np.int64),
        leafbrushes.astype(np.int64),
        brushes['firstSide'].astype(np.int64),
        brushes['numSides'].astype(np.int64),
        brushes['contents'].astype(np.int64),
        np.where(first_named >= 0, first_named, len(names) - 1),
        sides['planeNum'].astype(np.int64),
        np.where(side_info >= 0, side_info, len(names) - 1),
        names,
        np.append(texinfo['flags'].astype(np.int64), 0),
        np.column_stack([np.zeros(len(lists), np.int64), [len(b) for b in lists]]),
        np.stack([models['mins'], models['maxs']], axis=1).astype(np.float32),
        clusters,
        cluster_bytes,
        visibility,
        int(leafs['area'].max()) + 1,
        None,
        np.array(LIGHT_GRID_SIZE, np.float32),
        np.zeros(3, np.float32),
        game='quake2',
        source=record.source,
        leaf_contents=leafs['contents'].astype(np.int64),
        model_headnodes=heads,
        model_brush_lists=lists,
    )


def _leaves_below(children: np.ndarray, head: int) -> np.ndarray:
    """The leaves below node ``head`` (a head below 0 is that leaf alone), found a level of the tree at a time."""
    nodes = np.array([head], np.int64)
    leaves = []
    while len(nodes):
        leaves.append(-1 - nodes[nodes < 0])
        nodes = children[nodes[nodes >= 0]].ravel()
    return np.unique(np.concatenate(leaves))


def _q2_visibility(record: BSPFile, leafs: np.ndarray) -> tuple[int, int, np.ndarray]:
    """Quake II's PVS rows decompressed as ``CM_DecompressVis`` does (a zero byte then how many zero bytes follow);
    every cluster sees every other where the map has no visibility."""
    data = record.lump_bytes('visibility')
    if not data:
        clusters = int(leafs['cluster'].max()) + 1
        row = (clusters + 7) >> 3
        return clusters, max(row, 1), np.full((max(clusters, 1), max(row, 1)), 0xFF, np.uint8)
    if len(data) < 4:
        raise QuakeFormatError(record.source, 'visibility lump length', len(data), 'shorter than its cluster count')
    clusters = int(np.frombuffer(data, '<i4', 1)[0])
    if clusters < 0 or 4 + 8 * clusters > len(data):
        raise QuakeFormatError(record.source, 'visibility numclusters', clusters, f'with two offsets each, not held by the {len(data)}-byte lump')
    offsets = np.frombuffer(data, '<i4', 2 * clusters, 4).reshape(-1, 2)[:, 0]
    row = (clusters + 7) >> 3
    bad = (offsets < 0) | (offsets >= len(data))
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        raise QuakeFormatError(record.source, f'visibility bitofs[{k}]', int(offsets[k]), f'past the {len(data)}-byte lump')
    raw = np.frombuffer(data, np.uint8)
    out = np.zeros((max(clusters, 1), max(row, 1)), np.uint8)
    for k, start in enumerate(offsets.tolist()):
        out[k] = _decompress_row(raw, start, row)
    return clusters, max(row, 1), out


def _decompress_row(raw: np.ndarray, start: int, row: int) -> np.ndarray:
    """One row of ``CM_DecompressVis``: bytes as stored, a zero byte followed by how many zeros it stands for (a
    run past the row's end cut to it, as the engine warns and cuts it); a row the lump ends inside ends there (the
    engine would read on past it)."""
    out = np.zeros(row, np.uint8)
    at, filled = start, 0
    while filled < row and at < len(raw):
        value = int(raw[at])
        if value:
            out[filled] = value
            filled += 1
            at += 1
            continue
        if at + 1 >= len(raw):
            break  # a zero byte with no count after it: the lump ends
        filled += min(int(raw[at + 1]), row - filled)
        at += 2
    return out


def _patches(record: BSPFile, models: np.ndarray, check: Bounds) -> tuple[np.ndarray, list[np.ndarray], np.ndarray, np.ndarray, np.ndarray]:
    """Every patch surface's control grid, points, contents, flags and brush model, as ``CMod_LoadPatches`` takes
    them, checked as it and ``CM_GeneratePatchCollide`` check them."""
    faces, verts, shaders = record.records['surfaces'], record.records['drawverts'], record.records['shaders']
    chosen = np.flatnonzero(faces['surfaceType'] == MST_PATCH)
    for k in chosen.tolist():
        _patch_size(record, check, k)
    check.record_indices('surfaces', 'shaderNum', faces['shaderNum'][chosen], len(shaders))
    check.runs('surfaces', 'firstVert', faces['firstVert'][chosen], faces['numVerts'][chosen], len(verts))
    sizes = np.column_stack([faces['patchWidth'][chosen], faces['patchHeight'][chosen]]).astype(np.int64)
    points = [np.asarray(verts['xyz'][int(first) : int(first) + int(w * h)], np.float32) for first, (w, h) in zip(faces['firstVert'][chosen], sizes)]
    shader = faces['shaderNum'][chosen]
    starts = models['firstSurface'].astype(np.int64)
    # The model whose run of surfaces holds each patch (-1 for none: a surface no model draws collides nowhere).
    owner = np.searchsorted(starts, chosen, side='right') - 1
    inside = (owner >= 0) & (chosen < starts[np.maximum(owner, 0)] + models['numSurfaces'][np.maximum(owner, 0)])
    return (
        sizes,
        points,
        shaders['contentFlags'][shader].astype(np.int64),
        shaders['surfaceFlags'][shader].astype(np.int64),
        np.where(inside, owner, -1).astype(np.int64),
    )


def _visibility(record: BSPFile, leafs: np.ndarray) -> tuple[int, int, np.ndarray]:
    """The clusters, bytes a row and rows of a map's PVS (``CM_LoadVisibility``): all set where the map has none."""
    data = record.lump_bytes('visibility')
    if not data:
        clusters = int(leafs['cluster'].max()) + 1 if len(leafs) else 0
        row = (clusters + 31) & ~31
        return clusters, row, np.full((max(clusters, 1), max(row // 8, 1)), 0xFF, np.uint8)
    if len(data) < 8:
        raise QuakeFormatError(record.source, 'visibility lump length', len(data), 'shorter than its header (clusters, bytes a row)')
    clusters, row = (int(v) for v in np.frombuffer(data, '<i4', 2))
    if clusters < 0 or row < 0 or 8 + clusters * row > len(data) or row * 8 < clusters:
        raise QuakeFormatError(record.source, 'visibility numClusters', clusters, f'with {row} bytes a row, not held by the {len(data)}-byte lump')
    return clusters, row, np.frombuffer(data, np.uint8, clusters * row, 8).reshape(clusters, row)


def _grid_size(entities: list[dict[str, str]]) -> np.ndarray:
    """The light grid's spacing: worldspawn's ``"gridsize"`` (as ``sscanf("%f %f %f")`` reads it), else 64 64 128."""
    size = np.array(LIGHT_GRID_SIZE, np.float32)
    text = entities[0].get('gridsize') if entities else None
    if text:
        words = text.split()
        for k, word in enumerate(words[:3]):
            try:
                size[k] = float(word)
            except ValueError:
                break
    return size


# -- what the engines refuse ------------------------------------------------------------------

#: Quake III's collision model limit (``cm_local.h`` ``MAX_SUBMODELS``) and the renderer's patch side (``MAX_PATCH_SIZE``).
MAX_SUBMODELS = 256
MAX_PATCH_SIZE = 32
#: The Quake 1 engines that read only version 29 (BSP2 and 2PSB are QuakeSpasm's), and QuakeSpasm.
QUAKE1_ORIGINAL = ('quake', 'glquake')
_Q3_WORLD = {'quake3': 'code/renderer/tr_bsp.c RE_LoadWorldMap', 'ioquake3': 'code/renderergl1/tr_bsp.c RE_LoadWorldMap'}
_Q3_MESH = {'quake3': 'code/renderer/tr_bsp.c ParseMesh', 'ioquake3': 'code/renderergl1/tr_bsp.c ParseMesh'}
_Q3_SURFACES = {'quake3': 'code/renderer/tr_bsp.c R_LoadSurfaces', 'ioquake3': 'code/renderergl1/tr_bsp.c R_LoadSurfaces'}
_Q3_MODELS = {'quake3': 'code/qcommon/cm_load.c CMod_LoadSubmodels', 'ioquake3': 'code/qcommon/cm_load.c CMod_LoadSubmodels'}
_Q3_COLLIDE = {'quake3': 'code/qcommon/cm_patch.c CM_GeneratePatchCollide', 'ioquake3': 'code/qcommon/cm_patch.c CM_GeneratePatchCollide'}
_Q2_LOAD = {'quake2': 'qcommon/cmodel.c CM_LoadMap', 'yquake2': 'src/common/collision.c CM_LoadMap'}
_Q1_LOAD = {
    'quake': 'WinQuake/model.c Mod_LoadBrushModel',
    'glquake': 'WinQuake/gl_model.c Mod_LoadBrushModel',
    'quakespasm': 'Quake/gl_model.c Mod_LoadBrushModel',
}


#: The engines that judge a level: its own game's (a Quake III map is not Quake 1's to refuse).
GAME_ENGINES = {
    'quake3': QUAKE3_ENGINES,
    'quake2': QUAKE2_ENGINES,
    'bsp29': (*QUAKE1_ORIGINAL, 'quakespasm'),
    'bsp2': (*QUAKE1_ORIGINAL, 'quakespasm'),
    'ufoai': (),
}

BSP_RULES = (
    Rule(
        QUAKE1_ORIGINAL,
        'version',
        lambda f: f['ident'].decode('latin-1') if f['ident'] != QUAKE1_MAGIC[0] else None,
        REFUSES,
        'a Quake map is version 29 (BSPVERSION): "wrong version number"',
        {k: _Q1_LOAD[k] for k in QUAKE1_ORIGINAL},
    ),
    Rule(
        QUAKE3_ENGINES,
        'models',
        lambda f: f['num_models'] if f['num_models'] > MAX_SUBMODELS else None,
        REFUSES,
        f'more than MAX_SUBMODELS ({MAX_SUBMODELS}) brush models: "MAX_SUBMODELS exceeded"',
        _Q3_MODELS,
    ),
    Rule(
        QUAKE3_ENGINES,
        'patchWidth',
        lambda f: f['top_patch_side'] if f['top_patch_side'] > MAX_PATCH_SIZE else None,
        REFUSES,
        f'a patch side over MAX_PATCH_SIZE ({MAX_PATCH_SIZE}): ParseMesh "bad size"',
        _Q3_MESH,
    ),
    Rule(
        QUAKE3_ENGINES,
        'patchWidth',
        lambda f: f['bad_patch_side'],
        REFUSES,
        'a patch side even or under 3: "even sizes are invalid for quadratic meshes"',
        _Q3_COLLIDE,
    ),
    Rule(
        QUAKE3_ENGINES,
        'surfaceType',
        lambda f: f['bad_surface_type'],
        REFUSES,
        'a surface type outside 1-4 (MST_BAD included): "Bad surfaceType"',
        _Q3_SURFACES,
    ),
)


def bsp_facts(record: BSPFile, size: int) -> dict:
    """The header's fields, the brush models' count, and of Quake III the widest patch side, the first patch side
    the collision code refuses and the first bad surface type."""
    facts = {
        **record.header_fields(),
        'size': size,
        'num_models': len(record.records.get('models', ())),
        'engines': GAME_ENGINES.get(record.game, ()),
        'top_patch_side': 0,
        'bad_patch_side': None,
        'bad_surface_type': None,
    }
    surfaces = record.records.get('surfaces') if record.game == 'quake3' else None
    if surfaces is not None and len(surfaces):
        types = surfaces['surfaceType']
        patches = surfaces[types == MST_PATCH]
        if len(patches):
            sides = np.concatenate([patches['patchWidth'], patches['patchHeight']])
            facts['top_patch_side'] = int(sides.max())
            odd = sides[(sides < 3) | (sides % 2 == 0)]
            facts['bad_patch_side'] = int(odd[0]) if len(odd) else None
        bad = types[(types < MST_PLANAR) | (types > MST_FLARE)]
        facts['bad_surface_type'] = int(bad[0]) if len(bad) else None
    return facts


register_format(
    'bsp',
    ('.bsp',),
    parse,
    magic=IDENT,
    game='Quake engine level',
    write=write,
    encode=not_encoded,
    quantize=not_encoded,
    decode=decode,
    sniff=sniff,
    options=('patch_level',),
    title='Quake levels (BSP)',
    writable=False,
    engines=(*QUAKE1_ORIGINAL, 'quakespasm', *QUAKE2_ENGINES, *QUAKE3_ENGINES),
    rules=BSP_RULES,
    facts=bsp_facts,
)
