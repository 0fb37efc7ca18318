"""Quake II ``.md2`` models: the bytes, as numpy structured dtypes.

Follows ``qfiles.h`` of the Quake II source (see ``md2-format.txt``).  This
module knows the byte layout and nothing of PyVista; it produces a
format-neutral :class:`~pyvista_quake.formats.records.AliasData`.
"""

from __future__ import annotations

from collections.abc import Sized
from dataclasses import dataclass
from dataclasses import field
import functools

import numpy as np

from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake._base.warnings import warn_external
from pyvista_quake.formats import _pack
from pyvista_quake.formats._alias import alias_model
from pyvista_quake.formats._common import Bounds
from pyvista_quake.formats._common import alias_reader
from pyvista_quake.formats._common import cstrings
from pyvista_quake.formats._common import field_names
from pyvista_quake.formats._common import place
from pyvista_quake.formats._common import unclaimed
from pyvista_quake.formats._rules import MISDRAWS
from pyvista_quake.formats._rules import QUAKE2_ENGINES
from pyvista_quake.formats._rules import REFUSES
from pyvista_quake.formats._rules import WARNS
from pyvista_quake.formats._rules import Rule
from pyvista_quake.formats._rules import over
from pyvista_quake.formats._strips import strips_and_fans
from pyvista_quake.formats.records import AliasData
from pyvista_quake.formats.records import GLCommand
from pyvista_quake.formats.records import ModelData
from pyvista_quake.formats.registry import register_format
from pyvista_quake.formats.tables import NUM_VERTEX_NORMALS

IDENT = b'IDP2'
VERSION = 8

# The engines' limits (MAX_VERTS...) and who applies them: pyvista_quake.game.engines.
MAX_SKINNAME = 64  # bytes of a skin name field (qfiles.h)

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
GLCMD_WORD = np.dtype('<i4')  # the command list, word by word


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


def header_fields(header: np.ndarray) -> dict:
    """A :data:`HEADER` record's fields by name, as Python values."""
    return dict(zip(field_names(HEADER), header[0].item()))


@dataclass
class MD2File:
    """Every byte of an MD2, as records of the layout's dtypes.

    Attributes
    ----------
    header : numpy.ndarray
        One :data:`HEADER` record, shape ``(1,)``.
    skins : numpy.ndarray
        :data:`SKIN` records: 64-byte names, kept whole (bytes after the zero too).
    st : numpy.ndarray
        :data:`ST` records (``dstvert_t``), used by a triangle or not.
    triangles : numpy.ndarray
        :data:`TRIANGLE` records (``dtriangle_t``).
    frames : numpy.ndarray
        :func:`frame_dtype` records, ``framesize`` bytes each (padding kept).
    glcmds : numpy.ndarray
        The OpenGL command list as ``int32`` words, as stored.
    gaps : list of (int, bytes)
        Bytes no section claims, by offset: holes between sections and
        whatever follows the last one.
    broken_triangles : bool
        Whether some triangles index past the vertices or texture coordinates
        (loaded because the GL commands are intact).
    source : str
        Where the bytes came from, for messages.

    """

    header: np.ndarray
    skins: np.ndarray
    st: np.ndarray
    triangles: np.ndarray
    frames: np.ndarray
    glcmds: np.ndarray
    gaps: list[tuple[int, bytes]] = field(default_factory=list)
    source: str = '<bytes>'
    broken_triangles: bool = False

    def header_fields(self) -> dict:
        """The header's fields by name, as Python values."""
        return header_fields(self.header)

    def sections(self) -> list[tuple[str, np.ndarray]]:
        """``(offset field, records)`` of each section, in the header's field order."""
        return list(zip(OFFSET_FIELDS, (self.skins, self.st, self.triangles, self.frames, self.glcmds)))


#: Offset fields of the header, in id's section order (``qdata`` writes them so).
OFFSET_FIELDS = ('ofs_skins', 'ofs_st', 'ofs_tris', 'ofs_frames', 'ofs_glcmds')


def parse(buffer: bytes | memoryview, source: str = '<bytes>') -> MD2File:
    """Parse an MD2 into its records, keeping every byte (see :func:`read`).

    Refuses only what no Quake II renderer can draw: sections past the end of
    the file (the GL command list excepted: what lies in the file is kept),
    vertex or texture-coordinate indices out of range when the GL commands
    cannot stand in for the triangles, non-finite frame scales.
    """
    check = Bounds(source, len(buffer))
    header, h = check.header(buffer, HEADER, IDENT, VERSION, header_fields)

    # skinwidth and skinheight may be anything: Quake II's GL renderer never uses them.
    for name in ('num_skins', 'num_glcmds'):
        check.count(name, h[name])
    num_xyz = check.count('num_xyz', h['num_xyz'], 1)
    num_tris = check.count('num_tris', h['num_tris'], 1)
    num_frames = check.count('num_frames', h['num_frames'], 1)
    num_st = check.count('num_st', h['num_st'], 1)
    framesize = h['framesize']
    if framesize < FRAME_HEADER_SIZE + 4 * num_xyz:
        raise check.error('framesize', framesize, f'too small for {num_xyz} vertices ({FRAME_HEADER_SIZE + 4 * num_xyz} bytes)')

    # A GL command list running past the end of the file: the engines copy past
    # their buffer; what lies in the file is kept.
    in_file = max(0, (len(buffer) - h['ofs_glcmds']) // 4) if HEADER.itemsize <= h['ofs_glcmds'] <= len(buffer) else 0
    num_glcmds = min(h['num_glcmds'], in_file)
    dtypes = (SKIN, ST, TRIANGLE, frame_dtype(num_xyz, framesize), GLCMD_WORD)
    counts = (h['num_skins'], num_st, num_tris, num_frames, num_glcmds)
    claimed = [(0, HEADER.itemsize)]
    sections = []
    for field_name, count, dtype in zip(OFFSET_FIELDS, counts, dtypes):
        offset = h[field_name]
        check.section(field_name, offset, count, dtype.itemsize)
        if count:
            if offset < HEADER.itemsize:
                raise check.error(field_name, offset, f'section overlaps the {HEADER.itemsize}-byte header')
            claimed.append((offset, offset + count * dtype.itemsize))
        sections.append(np.frombuffer(buffer, dtype, count, offset if count else 0))
    skins, st, triangles, frames, glcmds = sections
    record = MD2File(header, skins, st, triangles, frames, glcmds, unclaimed(buffer, claimed), source)

    # Scale and translate are the frame's first six floats: one check of both.
    first_floats = np.ndarray((num_frames, 6), '<f4', buffer, h['ofs_frames'], (framesize, 4))
    if not np.isfinite(first_floats).all():
        check.finite('frame scale', frames['scale'])
        check.finite('frame translate', frames['translate'])
    # As unsigned, a negative index is huge: one comparison checks both ends of both columns.
    # Indices are shorts: from 32768 on, an index is a negative one.
    last = np.array((min(num_xyz, 1 << 15) - 1,) * 3 + (min(num_st, 1 << 15) - 1,) * 3, np.uint16)
    if not (triangles.view(np.uint16).reshape(num_tris, 6) > last).any():
        return record
    try:
        check.indices('index_xyz', triangles['index_xyz'], num_xyz)
        check.indices('index_st', triangles['index_st'], num_st)
    except QuakeFormatError as error:
        # Quake II's GL renderer draws the GL commands only: with those intact the
        # file draws there, and the broken triangles are left out (see to_data).
        try:
            commands = parse_glcmds(glcmds, num_xyz, check, cut=num_glcmds < h['num_glcmds'])
        except QuakeFormatError:
            commands = []
        if not commands:
            raise error from None
        record.broken_triangles = True
    return record


def valid_triangles(record: MD2File) -> np.ndarray:
    """Which triangles index only vertices and texture coordinates that exist."""
    h = record.header[0]
    tris = record.triangles
    ok_xyz = ((tris['index_xyz'] >= 0) & (tris['index_xyz'] < int(h['num_xyz']))).all(axis=1)
    ok_st = ((tris['index_st'] >= 0) & (tris['index_st'] < len(record.st))).all(axis=1)
    return np.asarray(ok_xyz & ok_st)


def to_data(record: MD2File) -> AliasData:
    """The format-neutral view of an MD2's records (no copy of the frames)."""
    h = record.header_fields()
    triangles = record.triangles
    valid = valid_triangles(record) if record.broken_triangles else None
    if valid is not None and not valid.all():
        warn_external(
            f'{record.source}: {int((~valid).sum())} of {len(valid)} triangles index past the vertices or texture '
            'coordinates; they are left out (Quake II draws the GL commands, which are intact: glcmds=True)'
        )
        triangles = triangles[valid]
    index_xyz = triangles['index_xyz'].astype(np.int32)
    index_st = triangles['index_st'].astype(np.int32)
    st_pixels = record.st.view(np.int16).reshape(-1, 2)  # (s, t) pairs
    glcmds = record.glcmds
    num_xyz = h['num_xyz']
    source = record.source
    return AliasData(
        format='md2',
        source=record.source,
        header={**h, 'ident': h['ident'].decode('latin-1')},
        skin_width=h['skinwidth'],
        skin_height=h['skinheight'],
        skin_names=cstrings(record.skins['name']),
        frame_verts=record.frames['verts'],
        frame_scale=record.frames['scale'],
        frame_translate=record.frames['translate'],
        frame_names=record.frames['name'],
        triangle_vertices=index_xyz,
        triangle_st=np.take(st_pixels, index_st, axis=0).astype(np.int32),
        triangle_st_key=index_st.astype(np.int64),
        gl_commands=functools.partial(parse_glcmds, glcmds, num_xyz, Bounds(source, 0), cut=len(glcmds) < h['num_glcmds']),  # picklable, for workers
        trailing=_trailing(record, h),
        file=record,
    )


def _trailing(record: MD2File, h: dict) -> bytes:
    """The bytes after the last section (none to look for when every byte belongs to a section)."""
    if not record.gaps:
        return b''
    end = max([HEADER.itemsize] + [int(h[f]) + len(a) * a.dtype.itemsize for f, a in record.sections() if len(a)])
    return b''.join(data for offset, data in record.gaps if offset >= end)


def write(record: MD2File) -> bytes:
    """The bytes of an MD2: the header, each section at its offset, the gaps between.

    A record read by :func:`parse` and not changed gives back the file it was
    read from, byte for byte.
    """
    h = record.header[0]
    expected = {
        'num_skins': record.skins,
        'num_st': record.st,
        'num_tris': record.triangles,
        'num_frames': record.frames,
        'num_glcmds': record.glcmds,
    }
    for count_field, records in expected.items():
        # A GL command list cut by the end of the file holds fewer words than the header says.
        short = count_field == 'num_glcmds' and len(records) < int(h[count_field])
        if int(h[count_field]) != len(records) and not short:
            raise ValueError(f'{record.source}: header {count_field} = {int(h[count_field])}, records hold {len(records)}')
    if int(h['framesize']) != record.frames.dtype.itemsize:
        raise ValueError(f'{record.source}: header framesize does not match the frame records')
    return place([(0, record.header)] + [(int(h[f]), a) for f, a in record.sections() if len(a)], record.gaps)


def parse_glcmds(words: np.ndarray, num_xyz: int, check: Bounds, cut: bool = False) -> list[GLCommand]:
    """Parse an OpenGL command list: strips and fans until the zero word.

    A list that ends at ``num_glcmds`` without its zero word is accepted; a
    command whose vertices run past the list, or that names a vertex out of
    range, is an error -- unless the list was ``cut`` by the end of the file,
    where the commands whole before the cut are kept.
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
            if cut:
                break
            raise check.error('glcmds', count, f'command at word {position} needs {3 * n} words, only {len(words) - first} left')
        verts = np.frombuffer(vertex_words, GLVERTEX, n, 4 * first)
        index = verts['index']
        check.indices('glcmds vertex index', index, num_xyz)
        texcoords = np.stack([verts['s'], verts['t']], axis=-1)
        commands.append(GLCommand('strip' if count > 0 else 'fan', index.astype(np.int32), texcoords))
        position = last
    return commands


# -- writing a changed model ------------------------------------------------------------
def quantize(data: AliasData, frames: np.ndarray, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pack new positions of some frames, each over its own bounds (``scale``/``translate`` per frame).

    Returns the whole model's ``uint8`` ``(frames, vertices, 3)`` coordinates,
    ``scale`` and ``translate``, the other frames unchanged.
    """
    xyz = np.array(data.frame_verts[..., :3])
    scale = np.array(data.frame_scale, np.float32)
    translate = np.array(data.frame_translate, np.float32)
    if len(frames):
        packed, scale[frames], translate[frames] = _pack.quantize(positions, positions.min(axis=1), positions.max(axis=1))
        xyz[frames] = packed
    return xyz, scale, translate


def encode(data: AliasData, base: MD2File | None = None) -> MD2File:
    """The records of a model, laid out afresh in id's section order.

    What ``data`` shares with the ``base`` records (skin names, texture
    coordinates and triangles, GL commands for unchanged triangles) is kept
    from them; a new triangle or texture coordinate gets a new ``st`` table and
    a new OpenGL command list of strips and fans.

    Raises
    ------
    ValueError
        If the model does not fit the format (indices past ``int16``, a skin
        name longer than 63 bytes).

    """
    source = data.source
    num_frames, num_xyz = data.frame_verts.shape[:2]
    if num_frames < 1 or num_xyz < 1 or len(data.triangle_vertices) < 1:
        raise ValueError(f'{source}: an MD2 needs at least one frame, vertex and triangle')
    _fits('num_xyz', num_xyz - 1, np.int16, source)
    _fits('num_tris', len(data.triangle_vertices), np.int32, source)
    tv = np.asarray(data.triangle_vertices, np.int64)
    st_pixels = np.asarray(data.triangle_st, np.int64)
    same = base is not None and _same_triangles(base, tv, st_pixels)
    if same and base is not None:
        st, triangles = base.st, base.triangles
    else:
        _fits('texture coordinate', int(np.abs(st_pixels).max(initial=0)), np.int16, source)
        pairs, index_st = np.unique(st_pixels.reshape(-1, 2), axis=0, return_inverse=True)
        _fits('num_st', len(pairs) - 1, np.int16, source)
        st = np.zeros(len(pairs), ST)
        st['s'], st['t'] = pairs[:, 0], pairs[:, 1]
        triangles = np.zeros(len(tv), TRIANGLE)
        triangles['index_xyz'] = tv
        triangles['index_st'] = index_st.reshape(-1, 3)

    if base is not None and cstrings(base.skins['name']) == list(data.skin_names):
        skins = base.skins
    else:
        skins = np.zeros(len(data.skin_names), SKIN)
        for i, name in enumerate(data.skin_names):
            raw = name.encode('latin-1')
            if len(raw) >= MAX_SKINNAME:
                raise ValueError(f'{source}: skin name {name!r} is longer than {MAX_SKINNAME - 1} bytes')
            skins['name'][i] = raw

    framesize = FRAME_HEADER_SIZE + 4 * num_xyz
    frames = np.zeros(num_frames, frame_dtype(num_xyz, framesize))
    frames['scale'] = data.frame_scale
    frames['translate'] = data.frame_translate
    frames['name'] = data.frame_names
    frames['verts'] = data.frame_verts

    if same and base is not None and len(base.glcmds):
        glcmds = base.glcmds
    else:
        glcmds = build_glcmds(triangles, st, data.skin_width, data.skin_height)

    header = np.zeros(1, HEADER)
    header['ident'], header['version'] = IDENT, VERSION
    header['skinwidth'], header['skinheight'] = data.skin_width, data.skin_height
    header['framesize'] = framesize
    counts: dict[str, Sized] = {
        'num_skins': skins,
        'num_xyz': range(num_xyz),
        'num_st': st,
        'num_tris': triangles,
        'num_glcmds': glcmds,
        'num_frames': frames,
    }
    for name, items in counts.items():
        header[name] = len(items)
    record = MD2File(header, skins, st, triangles, frames, glcmds, [], source)
    position = HEADER.itemsize
    for offset_field, records in record.sections():
        header[offset_field] = position
        position += len(records) * records.dtype.itemsize
    header['ofs_end'] = position
    return record


def build_glcmds(triangles: np.ndarray, st: np.ndarray, skinwidth: int, skinheight: int) -> np.ndarray:
    """A fresh OpenGL command list: strips and fans covering each triangle once, ended by a zero word.

    Texture coordinates are texel centres, ``(s + 0.5) / skinwidth``, as
    Quake II's tools store them.
    """
    index_xyz = triangles['index_xyz'].astype(np.int64)
    index_st = triangles['index_st'].astype(np.int64)
    commands = strips_and_fans(index_xyz * max(len(st), 1) + index_st)
    lengths = np.array([len(corners) for _, corners in commands], np.int64)
    corners = np.concatenate([np.asarray(c, np.int64) for _, c in commands])
    words = np.zeros(int(lengths.sum()) * 3 + len(commands) + 1, '<i4')
    # Each command: its count word, then three words per vertex.
    starts = np.concatenate([[0], np.cumsum(1 + 3 * lengths)[:-1]])
    kinds = np.array([1 if kind == 'strip' else -1 for kind, _ in commands], np.int64)
    words[starts] = kinds * lengths
    vertex_words = np.repeat(starts + 1, lengths) + 3 * (np.arange(len(corners)) - np.repeat(np.cumsum(lengths) - lengths, lengths))
    st_index = index_st.ravel()[corners]
    texel = np.empty((len(corners), 2), '<f4')
    texel[:, 0] = (st['s'][st_index] + np.float32(0.5)) / np.float32(max(skinwidth, 1))
    texel[:, 1] = (st['t'][st_index] + np.float32(0.5)) / np.float32(max(skinheight, 1))
    words[vertex_words] = texel[:, 0].view('<i4')
    words[vertex_words + 1] = texel[:, 1].view('<i4')
    words[vertex_words + 2] = index_xyz.ravel()[corners]
    return words


def _same_triangles(base: MD2File, tv: np.ndarray, st_pixels: np.ndarray) -> bool:
    if len(base.triangles) != len(tv):
        return False
    base_st = base.st.view(np.int16).reshape(-1, 2)[base.triangles['index_st']]
    return bool(np.array_equal(base.triangles['index_xyz'], tv) and np.array_equal(base_st, st_pixels))


def _fits(name: str, value: int, dtype, source: str) -> None:
    if value > np.iinfo(dtype).max:
        raise ValueError(f'{source}: {name} {value} does not fit the MD2 format ({np.dtype(dtype).name} on disk)')


# -- what the engines check ---------------------------------------------------------------

#: Quake II's OpenGL renderer loads an MD2 into a 2 MB hunk (``Mod_LoadModel``: ``Hunk_Begin (0x200000)``).
QUAKE2_MODEL_HUNK = 0x200000

MD2_RULES = (
    Rule(
        QUAKE2_ENGINES,
        'skinheight',
        over('skinheight', 480),
        REFUSES,
        'skin taller than MAX_LBM_HEIGHT (480)',
        {'quake2': 'ref_gl/gl_model.c Mod_LoadAliasModel', 'yquake2': 'models.c Mod_LoadMD2'},
    ),
    Rule(
        QUAKE2_ENGINES,
        'num_xyz',
        over('num_xyz', 2048),
        REFUSES,
        'more than MAX_VERTS (2048) vertices',
        {'quake2': 'ref_gl/gl_model.c Mod_LoadAliasModel', 'yquake2': 'models.c Mod_LoadMD2'},
    ),
    Rule(
        ('quake2',),
        'ofs_end',
        lambda f: f['ofs_end'] if f['ofs_end'] > QUAKE2_MODEL_HUNK else None,
        REFUSES,
        'larger than the 2 MB model hunk (Hunk_Begin (0x200000))',
        {'quake2': 'ref_gl/gl_model.c Mod_LoadModel'},
    ),
    Rule(
        ('yquake2',),
        'ofs_end',
        lambda f: f['ofs_end'] if f['ofs_end'] < 0 or f['ofs_end'] > f['size'] else None,
        REFUSES,
        'ofs_end outside the file',
        {'yquake2': 'models.c Mod_LoadMD2'},
    ),
    Rule(
        ('quake2',),
        'num_skins',
        over('num_skins', 32),
        MISDRAWS,
        'more than MAX_MD2SKINS (32) skins overrun mod->skins',
        {'quake2': 'ref_gl/gl_model.c Mod_LoadAliasModel'},
    ),
    Rule(
        ('yquake2',),
        'num_skins',
        over('num_skins', 32),
        WARNS,
        'more than MAX_MD2SKINS (32) skins: the rest ignored',
        {'yquake2': 'models.c Mod_LoadMD2'},
    ),
    Rule(
        QUAKE2_ENGINES,
        'num_glcmds',
        lambda f: f['num_glcmds'] if f['num_glcmds'] == 0 else None,
        MISDRAWS,
        'no OpenGL commands: the renderer draws the commands only, so nothing is drawn',
        {'quake2': 'ref_gl/gl_mesh.c GL_DrawAliasFrameLerp', 'yquake2': 'gl1_mesh.c R_DrawAliasFrameLerp'},
    ),
    Rule(
        ('yquake2',),
        'glcmds',
        lambda f: f['last_glcmd'] if f['last_glcmd'] not in (0, None) else None,
        WARNS,
        'command list not ended by a zero word',
        {'yquake2': 'models.c Mod_LoadMD2'},
    ),
    Rule(
        QUAKE2_ENGINES,
        'glcmds',
        lambda f: f['glcmds_past_end'] or None,
        MISDRAWS,
        'command list runs past the end of the file (read from beyond the loaded data)',
        {'quake2': 'ref_gl/gl_model.c Mod_LoadAliasModel', 'yquake2': 'models.c Mod_LoadMD2'},
    ),
    Rule(
        QUAKE2_ENGINES,
        'lightnormalindex',
        lambda f: f['top_normal'] if f['top_normal'] >= NUM_VERTEX_NORMALS else None,
        MISDRAWS,
        'a normal index past the 162-entry table (read past r_avertexnormals)',
        {'quake2': 'ref_gl/gl_mesh.c GL_LerpVerts', 'yquake2': 'gl1_mesh.c'},
    ),
)


def md2_facts(record, size: int) -> dict:
    h = record.header_fields()
    words = record.glcmds
    return {
        **h,
        'top_normal': int(record.frames['verts'][..., 3].max(initial=0)),
        'last_glcmd': int(words[-1]) if len(words) else None,
        'glcmds_past_end': len(words) < h['num_glcmds'],
        'size': size,
    }


def decode(record: MD2File) -> ModelData:
    """The format-neutral record of an MD2's records: its one surface of packed bytes, and :func:`to_data`'s part."""
    return alias_model(to_data(record))


#: Parse an MD2 into its format-neutral record (a :class:`ModelData`, frames still packed).
read = alias_reader(parse, decode, 'an MD2', 'Quake II')


register_format(
    'md2',
    ('.md2',),
    parse,
    magic=IDENT,
    kind='alias',
    title='Quake II (MD2) models',
    game='Quake II',
    write=write,
    encode=encode,
    quantize=quantize,
    decode=decode,
    engines=QUAKE2_ENGINES,
    rules=MD2_RULES,
    facts=md2_facts,
)
