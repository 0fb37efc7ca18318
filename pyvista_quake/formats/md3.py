"""Quake III models (``.md3``, ``IDP3`` version 15): bytes ⇄ records ⇄ format-neutral surfaces.

One description of the layout (the dtypes below, named as ``qfiles.h`` names
the fields) serves :func:`parse` and :func:`write`; :func:`decode` gives the
format-neutral :class:`~pyvista_quake.formats.records.ModelData`, :func:`encode` the
records of new data.  Every byte of a file is kept (the holes between
sections and what follows them too), so an unchanged model is written back
byte for byte.  Nothing here knows PyVista.

The renderer's own limits (``R_LoadMD3``) are :mod:`pyvista_quake.game.engines`';
the parser refuses only what no engine can draw: another version, no
frames, sections past the end of the file, triangle corners past the
surface's vertices, a surface with fewer frames than the model.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field

import numpy as np

from pyvista_quake.formats._common import Bounds
from pyvista_quake.formats._common import field_names
from pyvista_quake.formats._common import place
from pyvista_quake.formats._common import unclaimed
from pyvista_quake.formats._rules import MISDRAWS
from pyvista_quake.formats._rules import QUAKE3_ENGINES
from pyvista_quake.formats._rules import REFUSES
from pyvista_quake.formats._rules import Rule
from pyvista_quake.formats._rules import over
from pyvista_quake.formats.records import ModelData
from pyvista_quake.formats.records import SurfaceData
from pyvista_quake.formats.records import Tag
from pyvista_quake.formats.records import cstrings
from pyvista_quake.formats.registry import register_format

IDENT = b'IDP3'
VERSION = 15
#: Positions are stored as shorts of 1/64 unit (``MD3_XYZ_SCALE``).
XYZ_SCALE = 1.0 / 64
#: Levels of detail ``R_RegisterMD3`` loads (``name.md3``, ``name_1.md3``, ``name_2.md3``).
MD3_MAX_LODS = 3
#: Surfaces a model may have (``qfiles.h``); id's ``R_RegisterSkin`` overruns past it.  The other
#: ``MD3_MAX_*`` limits of ``qfiles.h`` no loader checks (see :mod:`pyvista_quake.game.engines`).
MD3_MAX_SURFACES = 32

HEADER = np.dtype(
    [
        ('ident', 'S4'),
        ('version', '<i4'),
        ('name', 'S64'),
        ('flags', '<i4'),
        ('numFrames', '<i4'),
        ('numTags', '<i4'),
        ('numSurfaces', '<i4'),
        ('numSkins', '<i4'),
        ('ofsFrames', '<i4'),
        ('ofsTags', '<i4'),
        ('ofsSurfaces', '<i4'),
        ('ofsEnd', '<i4'),
    ]
)
FRAME = np.dtype([('bounds', '<f4', (2, 3)), ('localOrigin', '<f4', (3,)), ('radius', '<f4'), ('name', 'S16')])
TAG = np.dtype([('name', 'S64'), ('origin', '<f4', (3,)), ('axis', '<f4', (3, 3))])
SURFACE = np.dtype(
    [
        ('ident', 'S4'),
        ('name', 'S64'),
        ('flags', '<i4'),
        ('numFrames', '<i4'),
        ('numShaders', '<i4'),
        ('numVerts', '<i4'),
        ('numTriangles', '<i4'),
        ('ofsTriangles', '<i4'),
        ('ofsShaders', '<i4'),
        ('ofsSt', '<i4'),
        ('ofsXyzNormals', '<i4'),
        ('ofsEnd', '<i4'),
    ]
)
SHADER = np.dtype([('name', 'S64'), ('shaderIndex', '<i4')])
TRIANGLE = np.dtype([('indexes', '<i4', (3,))])
ST = np.dtype([('st', '<f4', (2,))])
XYZ_NORMAL = np.dtype([('xyz', '<i2', (3,)), ('normal', '<u2')])

#: A surface's sections: offset field, count field, dtype (in the order ``q3data`` writes them).
SURFACE_SECTIONS = (
    ('ofsShaders', 'numShaders', SHADER),
    ('ofsTriangles', 'numTriangles', TRIANGLE),
    ('ofsSt', 'numVerts', ST),
    ('ofsXyzNormals', None, XYZ_NORMAL),  # numFrames * numVerts
)


def header_fields(header: np.ndarray) -> dict:
    """A :data:`HEADER` record's fields by name, as Python values (the name decoded)."""
    out = dict(zip(field_names(HEADER), header[0].item()))
    out['name'] = cstrings(header['name'])[0]
    return out


@dataclass
class MD3Surface:
    """One surface's records, as stored.

    Attributes
    ----------
    offset : int
        Where the surface starts in the file (its own offsets count from there).
    header : numpy.ndarray
        One :data:`SURFACE` record, shape ``(1,)``.
    shaders, triangles, st, xyz_normals : numpy.ndarray
        :data:`SHADER`, :data:`TRIANGLE`, :data:`ST` records and the
        :data:`XYZ_NORMAL` records of shape ``(numFrames, numVerts)``.

    """

    offset: int
    header: np.ndarray
    shaders: np.ndarray
    triangles: np.ndarray
    st: np.ndarray
    xyz_normals: np.ndarray

    def parts(self) -> list[tuple[int, np.ndarray]]:
        """``(absolute offset, records)`` of the surface's header and sections."""
        h = self.header[0]
        return [(self.offset, self.header)] + [
            (self.offset + int(h[ofs]), records)
            for (ofs, _, _), records in zip(SURFACE_SECTIONS, (self.shaders, self.triangles, self.st, self.xyz_normals))
            if records.size
        ]


@dataclass
class MD3File:
    """Every byte of an MD3, as records of the layout's dtypes.

    Attributes
    ----------
    header : numpy.ndarray
        One :data:`HEADER` record, shape ``(1,)``.
    frames : numpy.ndarray
        :data:`FRAME` records.
    tags : numpy.ndarray
        :data:`TAG` records, shape ``(numFrames, numTags)`` (frame-major, as stored).
    surfaces : list of MD3Surface
        The surfaces, in file order.
    gaps : list of (int, bytes)
        Bytes no section claims, by offset.
    source : str
        Name of the file, for messages.

    """

    header: np.ndarray
    frames: np.ndarray
    tags: np.ndarray
    surfaces: list[MD3Surface]
    gaps: list[tuple[int, bytes]] = field(default_factory=list)
    source: str = '<bytes>'

    def header_fields(self) -> dict:
        """The header's fields by name, as Python values."""
        return header_fields(self.header)


def parse(buffer: bytes | memoryview, source: str = '<bytes>') -> MD3File:
    """Parse an MD3 into its records, keeping every byte.

    Every count and offset is checked against the file's size before anything is viewed.
    """
    check = Bounds(source, len(buffer))
    header, h = check.header(buffer, HEADER, IDENT, VERSION, header_fields, ' (R_LoadMD3 refuses any other)')
    num_frames = check.count('numFrames', h['numFrames'], 1)  # R_LoadMD3: "has no frames"
    num_tags = check.count('numTags', h['numTags'])
    num_surfaces = check.count('numSurfaces', h['numSurfaces'])
    check.count('numSkins', h['numSkins'])
    claimed = [(0, HEADER.itemsize)]
    check.section('ofsFrames', h['ofsFrames'], num_frames, FRAME.itemsize)
    frames = np.frombuffer(buffer, FRAME, num_frames, h['ofsFrames'])
    claimed.append((h['ofsFrames'], h['ofsFrames'] + num_frames * FRAME.itemsize))
    check.section('ofsTags', h['ofsTags'], num_frames * num_tags, TAG.itemsize)
    tags = np.frombuffer(buffer, TAG, num_frames * num_tags, h['ofsTags'] if num_tags else 0).reshape(num_frames, num_tags)
    if num_tags:
        claimed.append((h['ofsTags'], h['ofsTags'] + num_frames * num_tags * TAG.itemsize))
    surfaces = []
    offset = h['ofsSurfaces']
    for number in range(num_surfaces):
        surface = _parse_surface(buffer, offset, number, num_frames, check)
        surfaces.append(surface)
        claimed += [(start, start + records.nbytes) for start, records in surface.parts()]
        offset += int(surface.header[0]['ofsEnd'])
    return MD3File(header, frames, tags, surfaces, unclaimed(buffer, claimed), source)


def _parse_surface(buffer, offset: int, number: int, num_frames: int, check: Bounds) -> MD3Surface:
    where = f'surface {number}'
    check.section(f'{where} offset', offset, 1, SURFACE.itemsize)
    header = np.frombuffer(bytearray(buffer[offset : offset + SURFACE.itemsize]), SURFACE)
    s = header[0]
    if s['numFrames'] < num_frames:
        raise check.error(f'{where} numFrames', int(s['numFrames']), f"fewer than the model's {num_frames} frames")
    if s['ofsEnd'] < SURFACE.itemsize:
        raise check.error(f'{where} ofsEnd', int(s['ofsEnd']), f'smaller than the {SURFACE.itemsize}-byte surface header')
    check.section(f'{where} ofsEnd', offset, 1, int(s['ofsEnd']))
    counts = {
        'numShaders': check.count(f'{where} numShaders', int(s['numShaders'])),
        'numTriangles': check.count(f'{where} numTriangles', int(s['numTriangles'])),
        'numVerts': check.count(f'{where} numVerts', int(s['numVerts'])),
    }
    check.count(f'{where} numFrames', int(s['numFrames']))
    sections = []
    for ofs, count_field, dtype in SURFACE_SECTIONS:
        count = counts[count_field] if count_field else int(s['numFrames']) * counts['numVerts']
        start = offset + int(s[ofs])
        check.section(f'{where} {ofs}', start, count, dtype.itemsize)
        sections.append(np.frombuffer(buffer, dtype, count, start if count else 0))
    shaders, triangles, st, xyz = sections
    check.indices(f'{where} triangle indexes', triangles['indexes'], counts['numVerts'])
    xyz = xyz.reshape(int(s['numFrames']), counts['numVerts'])
    return MD3Surface(offset, header, shaders, triangles, st, xyz)


def write(record: MD3File) -> bytes:
    """The bytes of an MD3: the header, each section at its offset, the gaps between.

    A record read by :func:`parse` and not changed gives back its file, byte for byte.
    """
    parts: list[tuple[int, np.ndarray]] = [(0, record.header), (int(record.header[0]['ofsFrames']), record.frames)]
    if record.tags.size:
        parts.append((int(record.header[0]['ofsTags']), record.tags))
    for surface in record.surfaces:
        parts += surface.parts()
    return place(parts, record.gaps)


def decode(record: MD3File) -> ModelData:
    """The format-neutral view of an MD3's records (frames stay views of the file)."""
    h = record.header_fields()
    num_frames = h['numFrames']
    surfaces = []
    for surface in record.surfaces:
        s = surface.header[0]
        xyzn = surface.xyz_normals[:num_frames]
        surfaces.append(
            SurfaceData(
                name=cstrings(surface.header['name'])[0],
                shaders=cstrings(surface.shaders['name']),
                triangles=surface.triangles['indexes'],
                texcoords=surface.st['st'],
                positions=xyzn['xyz'],
                normals=xyzn['normal'],
                flags=int(s['flags']),
            )
        )
    tags: dict[str, Tag] = {}
    for k, name in enumerate(cstrings(record.tags['name'][0]) if record.tags.size else []):
        tags.setdefault(name, Tag(name, record.tags['origin'][:, k], record.tags['axis'][:, k]))
    return ModelData(
        format='md3',
        source=record.source,
        header=h,
        frame_names=record.frames['name'],
        frame_bounds=record.frames['bounds'],
        surfaces=surfaces,
        tags=tags,
        file=record,
    )


def quantize(positions: np.ndarray) -> np.ndarray:
    """Float positions as the format stores them: shorts of 1/64 unit.

    Raises
    ------
    ValueError
        For a coordinate outside what a short of 1/64 holds (about ±512).

    """
    scaled = np.rint(np.asarray(positions, np.float64) / XYZ_SCALE)
    if scaled.size and (not np.isfinite(scaled).all() or scaled.min() < -32768 or scaled.max() > 32767):
        worst = float(np.abs(np.asarray(positions, np.float64)).max())
        raise ValueError(f'a coordinate of {worst:g} is outside what an MD3 holds (|x| < 512)')
    return scaled.astype(np.int16)


def encode_normals(normals: np.ndarray) -> np.ndarray:
    """Unit normals as the format's latitude/longitude bytes (``lat << 8 | lng``), each angle in 256 steps."""
    n = np.asarray(normals, np.float64)
    lng = np.arccos(np.clip(n[..., 2], -1.0, 1.0))
    lat = np.arctan2(n[..., 1], n[..., 0])
    to_steps = 256 / (2 * np.pi)
    lat_b = np.rint(lat * to_steps).astype(np.int64) & 255
    lng_b = np.rint(lng * to_steps).astype(np.int64) & 255
    return ((lat_b << 8) | lng_b).astype(np.uint16)


def encode(data: ModelData, base: MD3File | None = None) -> MD3File:
    """The records of surfaces data, laid out afresh: header, frames, tags, then each surface.

    ``base`` (the records the data was read from) gives the header's name
    and flags and each frame's origin and radius when the counts agree.
    """
    num_frames = data.num_frames
    tag_names = list(data.tags)
    header = np.zeros(1, HEADER)
    if base is not None:
        header[0] = base.header[0]
    header['ident'], header['version'] = IDENT, VERSION
    header['numFrames'], header['numTags'], header['numSurfaces'] = num_frames, len(tag_names), len(data.surfaces)
    frames = np.zeros(num_frames, FRAME)
    if base is not None and len(base.frames) == num_frames:
        frames[:] = base.frames
    frames['name'] = data.frame_names
    corners = [s.positions.astype(np.float32) * XYZ_SCALE for s in data.surfaces if s.positions.shape[1]]
    if corners:
        every = np.concatenate(corners, axis=1)
        frames['bounds'][:, 0] = every.min(axis=1)
        frames['bounds'][:, 1] = every.max(axis=1)
        frames['radius'] = np.sqrt((every.astype(np.float64) ** 2).sum(-1).max(axis=1))
    tags = np.zeros((num_frames, len(tag_names)), TAG)
    for k, name in enumerate(tag_names):
        tags['name'][:, k] = name.encode('latin-1')
        tags['origin'][:, k] = data.tags[name].origins
        tags['axis'][:, k] = data.tags[name].axes
    position = HEADER.itemsize
    header['ofsFrames'] = position
    position += frames.nbytes
    header['ofsTags'] = position
    position += tags.nbytes
    header['ofsSurfaces'] = position
    surfaces = []
    for surface in data.surfaces:
        record = _encode_surface(surface, num_frames, position)
        surfaces.append(record)
        position += int(record.header[0]['ofsEnd'])
    header['ofsEnd'] = position
    return MD3File(header, frames, tags, surfaces, [], data.source)


def _encode_surface(surface: SurfaceData, num_frames: int, offset: int) -> MD3Surface:
    verts = surface.positions.shape[1]
    header = np.zeros(1, SURFACE)
    header['ident'], header['name'], header['flags'] = IDENT, surface.name.encode('latin-1'), surface.flags
    header['numFrames'], header['numShaders'] = num_frames, len(surface.shaders)
    header['numVerts'], header['numTriangles'] = verts, len(surface.triangles)
    shaders = np.zeros(len(surface.shaders), SHADER)
    shaders['name'] = [name.encode('latin-1') for name in surface.shaders]
    triangles = np.zeros(len(surface.triangles), TRIANGLE)
    triangles['indexes'] = surface.triangles
    st = np.zeros(verts, ST)
    st['st'] = surface.texcoords
    xyz = np.zeros((num_frames, verts), XYZ_NORMAL)
    xyz['xyz'] = surface.positions
    xyz['normal'] = surface.normals
    position = SURFACE.itemsize
    for (ofs, _, _), records in zip(SURFACE_SECTIONS, (shaders, triangles, st, xyz)):
        header[ofs] = position
        position += records.nbytes
    header['ofsEnd'] = position
    return MD3Surface(offset, header, shaders, triangles, st, xyz)


# -- what the engines check ---------------------------------------------------------------

#: ``SHADER_MAX_VERTEXES`` and ``SHADER_MAX_INDEXES`` (``qfiles.h``), the same in id's 1.32 and ioquake3.
SHADER_MAX_VERTEXES = 1000
SHADER_MAX_INDEXES = 6 * SHADER_MAX_VERTEXES

_Q3 = {'quake3': 'code/renderer/tr_model.c R_LoadMD3', 'ioquake3': 'code/renderergl1/tr_model.c R_LoadMD3'}
MD3_RULES = (
    # id's 1.32 drops to the console (ERR_DROP) past the limit; ioquake3 refuses the model from the limit on.
    Rule(
        ('quake3',),
        'numVerts',
        lambda f: f['top_verts'] if f['top_verts'] > SHADER_MAX_VERTEXES else None,
        REFUSES,
        f'a surface of more than SHADER_MAX_VERTEXES ({SHADER_MAX_VERTEXES}) vertices: ERR_DROP',
        _Q3,
    ),
    Rule(
        ('ioquake3',),
        'numVerts',
        lambda f: f['top_verts'] if f['top_verts'] >= SHADER_MAX_VERTEXES else None,
        REFUSES,
        f'a surface of {SHADER_MAX_VERTEXES} vertices or more (SHADER_MAX_VERTEXES)',
        _Q3,
    ),
    Rule(
        ('quake3',),
        'numTriangles',
        lambda f: f['top_tris'] if 3 * f['top_tris'] > SHADER_MAX_INDEXES else None,
        REFUSES,
        f'a surface of more than SHADER_MAX_INDEXES / 3 ({SHADER_MAX_INDEXES // 3}) triangles: ERR_DROP',
        _Q3,
    ),
    Rule(
        ('ioquake3',),
        'numTriangles',
        lambda f: f['top_tris'] if 3 * f['top_tris'] >= SHADER_MAX_INDEXES else None,
        REFUSES,
        f'a surface of {SHADER_MAX_INDEXES // 3} triangles or more (SHADER_MAX_INDEXES / 3)',
        _Q3,
    ),
    Rule(
        ('quake3',),
        'numSurfaces',
        over('numSurfaces', MD3_MAX_SURFACES),
        MISDRAWS,
        'more than MD3_MAX_SURFACES (32) surfaces: a .skin of them overruns skin_t.surfaces',
        {'quake3': 'code/renderer/tr_image.c R_RegisterSkin'},
    ),
)


def md3_facts(record, size: int) -> dict:
    h = record.header_fields()
    surfaces = [s.header[0] for s in record.surfaces]
    return {
        **h,
        'top_verts': max((int(s['numVerts']) for s in surfaces), default=0),
        'top_tris': max((int(s['numTriangles']) for s in surfaces), default=0),
        'size': size,
    }


register_format(
    'md3',
    ('.md3',),
    parse,
    magic=IDENT,
    title='Quake III (MD3) models',
    game='Quake III',
    write=write,
    encode=encode,
    quantize=quantize,
    decode=decode,
    engines=QUAKE3_ENGINES,
    rules=MD3_RULES,
    facts=md3_facts,
    levels_of_detail=MD3_MAX_LODS,
)
