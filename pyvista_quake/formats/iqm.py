"""Inter-Quake Models (``.iqm``, version 2): bytes ⇄ records ⇄ format-neutral skeletons.

One description of the layout (the dtypes below, named as ``iqm.h`` names the
fields) serves :func:`parse` and :func:`write`; :func:`decode` gives the
format-neutral :class:`~pyvista_quake.formats.records.ModelData` (surfaces of skinned joints and a skeleton; or, for a
file of poses only, :func:`animation_of` its
:class:`~pyvista_quake.formats.records.SkeletalAnimationData`).  The file's
bytes are kept, so an unchanged model is written back byte for byte.  Nothing
here knows PyVista.

Every section is checked against the file before it is read, with unaligned
reads: real files break ``iqm.txt``'s 4-byte alignment (Red Eclipse's pose
files put their poses at offset 130).  The limits the IQM demo and Cube 2
enforce (16 MiB, version 2) are :mod:`pyvista_quake.game.engines`'s; the parser
refuses only what no loader can read.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pyvista_quake.formats._common import Bounds
from pyvista_quake.formats._common import field_names
from pyvista_quake.formats._common import not_encoded
from pyvista_quake.formats._joints import compose
from pyvista_quake.formats._joints import trs_matrices
from pyvista_quake.formats._rules import REFUSES
from pyvista_quake.formats._rules import Rule
from pyvista_quake.formats._rules import over
from pyvista_quake.formats.records import Clip
from pyvista_quake.formats.records import Joint
from pyvista_quake.formats.records import JointWeights
from pyvista_quake.formats.records import ModelData
from pyvista_quake.formats.records import SkeletalAnimationData
from pyvista_quake.formats.records import Skeleton
from pyvista_quake.formats.records import SurfaceData
from pyvista_quake.formats.registry import register_format

MAGIC = b'INTERQUAKEMODEL\0'
VERSION = 2
#: What the IQM demo's ``loadiqm`` and Cube 2's ``iqm::loadiqm`` refuse past: 16 MiB.
MAX_FILESIZE = 16 << 20
#: ``IQM_LOOP``: the animation loops.
IQM_LOOP = 1

HEADER = np.dtype(
    [
        ('magic', 'S16'),
        ('version', '<u4'),
        ('filesize', '<u4'),
        ('flags', '<u4'),
        ('num_text', '<u4'),
        ('ofs_text', '<u4'),
        ('num_meshes', '<u4'),
        ('ofs_meshes', '<u4'),
        ('num_vertexarrays', '<u4'),
        ('num_vertexes', '<u4'),
        ('ofs_vertexarrays', '<u4'),
        ('num_triangles', '<u4'),
        ('ofs_triangles', '<u4'),
        ('ofs_adjacency', '<u4'),
        ('num_joints', '<u4'),
        ('ofs_joints', '<u4'),
        ('num_poses', '<u4'),
        ('ofs_poses', '<u4'),
        ('num_anims', '<u4'),
        ('ofs_anims', '<u4'),
        ('num_frames', '<u4'),
        ('num_framechannels', '<u4'),
        ('ofs_frames', '<u4'),
        ('ofs_bounds', '<u4'),
        ('num_comment', '<u4'),
        ('ofs_comment', '<u4'),
        ('num_extensions', '<u4'),
        ('ofs_extensions', '<u4'),
    ]
)
MESH = np.dtype(
    [('name', '<u4'), ('material', '<u4'), ('first_vertex', '<u4'), ('num_vertexes', '<u4'), ('first_triangle', '<u4'), ('num_triangles', '<u4')]
)
VERTEXARRAY = np.dtype([('type', '<u4'), ('flags', '<u4'), ('format', '<u4'), ('size', '<u4'), ('offset', '<u4')])
TRIANGLE = np.dtype([('vertex', '<u4', (3,))])
ADJACENCY = np.dtype([('triangle', '<u4', (3,))])
JOINT = np.dtype([('name', '<u4'), ('parent', '<i4'), ('translate', '<f4', (3,)), ('rotate', '<f4', (4,)), ('scale', '<f4', (3,))])
POSE = np.dtype([('parent', '<i4'), ('channelmask', '<u4'), ('channeloffset', '<f4', (10,)), ('channelscale', '<f4', (10,))])
ANIM = np.dtype([('name', '<u4'), ('first_frame', '<u4'), ('num_frames', '<u4'), ('framerate', '<f4'), ('flags', '<u4')])
BOUNDS = np.dtype([('bbmin', '<f4', (3,)), ('bbmax', '<f4', (3,)), ('xyradius', '<f4'), ('radius', '<f4')])
EXTENSION = np.dtype([('name', '<u4'), ('num_data', '<u4'), ('ofs_data', '<u4'), ('ofs_extensions', '<u4')])

#: Vertex array types (``IQM_POSITION``...).
IQM_POSITION, IQM_TEXCOORD, IQM_NORMAL, IQM_TANGENT, IQM_BLENDINDEXES, IQM_BLENDWEIGHTS, IQM_COLOR = range(7)
IQM_CUSTOM = 0x10
#: Component formats (``IQM_BYTE``...) as numpy types.
COMPONENT_TYPES = ('i1', 'u1', '<i2', '<u2', '<i4', '<u4', '<f2', '<f4', '<f8')

#: The sections of the header: offset field, count field, record dtype.
SECTIONS = (
    ('ofs_meshes', 'num_meshes', MESH),
    ('ofs_vertexarrays', 'num_vertexarrays', VERTEXARRAY),
    ('ofs_triangles', 'num_triangles', TRIANGLE),
    ('ofs_adjacency', 'num_triangles', ADJACENCY),
    ('ofs_joints', 'num_joints', JOINT),
    ('ofs_poses', 'num_poses', POSE),
    ('ofs_anims', 'num_anims', ANIM),
    ('ofs_bounds', 'num_frames', BOUNDS),
)


@dataclass
class IQMFile:
    """An IQM file's records, as stored (views of its bytes).

    Attributes
    ----------
    source : str
        The file, for messages.
    header : numpy.ndarray
        The :data:`HEADER` record, shape ``(1,)``.
    text : bytes
        The string table.
    meshes, vertexarrays, triangles, adjacency, joints, poses, anims, bounds : numpy.ndarray
        Each section's records (empty where the file has none).
    arrays : dict of int to numpy.ndarray
        Each vertex array's components, ``(num_vertexes, size)``, by type.
    frames : numpy.ndarray
        ``uint16`` ``(num_frames, num_framechannels)``.
    comment : bytes
        The comment block.
    extensions : list of str
        The extensions' names, in list order.
    buffer : bytes
        The file's bytes, written back by :func:`write`.

    """

    source: str
    header: np.ndarray
    text: bytes
    meshes: np.ndarray
    vertexarrays: np.ndarray
    triangles: np.ndarray
    adjacency: np.ndarray
    joints: np.ndarray
    poses: np.ndarray
    anims: np.ndarray
    bounds: np.ndarray
    arrays: dict[int, np.ndarray]
    frames: np.ndarray
    comment: bytes
    extensions: list[str]
    buffer: bytes

    def header_fields(self) -> dict:
        """The header's fields by name, as Python values."""
        return header_fields(self.header)

    def name(self, offset: int, field: str = 'name') -> str:
        """A string of the text block at ``offset`` (checked by :func:`parse`)."""
        return _text_at(self.text, int(offset), self.source, field)

    def names(self, offsets: np.ndarray | list) -> list[str]:
        """The strings of the text block at many ``offsets`` at once (each checked by :func:`parse`)."""
        offsets = np.asarray(offsets, np.int64)
        if not len(offsets):
            return []
        ends = np.flatnonzero(np.frombuffer(self.text, np.uint8) == 0)
        at = np.searchsorted(ends, offsets)
        stops = np.append(ends, len(self.text))[at]  # a last name with no terminator runs to the block's end
        return [_decoded(self.text[a:b]) for a, b in zip(offsets.tolist(), stops.tolist())]


def header_fields(header: np.ndarray) -> dict:
    """A :data:`HEADER` record's fields by name, as Python values."""
    out = dict(zip(field_names(HEADER), header[0].item()))
    out['magic'] = bytes(header['magic'][0]).decode('latin-1')
    return out


def _records(buffer: bytes | memoryview, dtype: np.dtype, offset: int, count: int) -> np.ndarray:
    """``count`` records at ``offset`` (checked), read unaligned."""
    if count == 0:
        return np.empty(0, dtype)
    return np.frombuffer(buffer, dtype, count, offset)


def _text_at(text: bytes, offset: int, source: str, field: str) -> str:
    if not 0 <= offset < len(text) and not (offset == 0 and not text):
        raise Bounds(source, len(text)).error(field, offset, f'name offset outside the text block ({len(text)} bytes)')
    end = text.find(b'\0', offset)  # not a copy of the rest of the block for each name
    return _decoded(text[offset : end if end >= 0 else len(text)])


def _decoded(raw: bytes) -> str:
    try:
        return raw.decode('utf-8')
    except UnicodeDecodeError:
        return raw.decode('latin-1')


def parse(buffer: bytes | memoryview, source: str = '<bytes>') -> IQMFile:
    """Parse an IQM file's bytes into its records, every range checked before it is read.

    Raises
    ------
    QuakeFormatError
        For another magic or version, or a section, index or name outside the file.

    """
    buffer = bytes(buffer)
    header, h, check = _header(buffer, source)
    check.section('ofs_comment', h['ofs_comment'], h['num_comment'], 1)
    check.section('ofs_frames', h['ofs_frames'], h['num_frames'] * h['num_framechannels'], 2)
    sections = {ofs: _section(buffer, check, h, ofs, num, dtype) for ofs, num, dtype in SECTIONS}
    text = _text_block(buffer, h)
    frames = _records(buffer, np.dtype('<u2'), h['ofs_frames'], h['num_frames'] * h['num_framechannels']).reshape(
        h['num_frames'], h['num_framechannels']
    )
    record = IQMFile(
        source,
        header,
        text,
        sections['ofs_meshes'],
        sections['ofs_vertexarrays'],
        sections['ofs_triangles'],
        sections['ofs_adjacency'],
        sections['ofs_joints'],
        sections['ofs_poses'],
        sections['ofs_anims'],
        sections['ofs_bounds'],
        {},
        frames,
        buffer[h['ofs_comment'] : h['ofs_comment'] + h['num_comment']],
        [],
        buffer,
    )
    record.arrays = _vertex_arrays(record, buffer, check, h)
    _check_indices(record, check, h)
    record.extensions = _extensions(record, buffer, check, h)
    return record


def is_iqm(head: bytes | memoryview) -> bool:
    """Whether bytes start as an IQM does (its magic)."""
    return bytes(head[: len(MAGIC)]) == MAGIC


def _header(buffer: bytes, source: str) -> tuple[np.ndarray, dict, Bounds]:
    """The header record and its fields, checked (magic, version, size, the text block), and the file's bounds."""
    check = Bounds(source, len(buffer))
    if len(buffer) < HEADER.itemsize:
        raise check.error('header', len(buffer), f'file shorter than the {HEADER.itemsize}-byte IQM header')
    header = np.frombuffer(buffer, HEADER, 1)
    h = header_fields(header)
    if not is_iqm(buffer):
        raise check.error('magic', bytes(buffer[:16]), 'not an Inter-Quake Model (INTERQUAKEMODEL)')
    if h['version'] != VERSION:
        reason = (
            'IQM version 1 (2010) stores rotations without w; convert it with a current iqm tool'
            if h['version'] == 1
            else f'only version {VERSION} exists'
        )
        raise check.error('version', h['version'], reason)
    if h['filesize'] > len(buffer):
        raise check.error('filesize', h['filesize'], f'larger than the data ({len(buffer)} bytes): the file is cut short')
    check = Bounds(source, h['filesize'])
    check.section('ofs_text', h['ofs_text'], h['num_text'], 1)
    return header, h, check


def _section(buffer: bytes, check: Bounds, h: dict, ofs: str, num: str, dtype: np.dtype) -> np.ndarray:
    """One section of :data:`SECTIONS`, its range checked, then read."""
    # Adjacency and bounds are optional: offset 0 means the file has none.
    count = 0 if ofs in ('ofs_adjacency', 'ofs_bounds') and not h[ofs] else h[num]
    check.section(ofs, h[ofs], count, dtype.itemsize)
    return _records(buffer, dtype, h[ofs], count)


def _text_block(buffer: bytes, h: dict) -> bytes:
    """The text block (checked by :func:`_header`)."""
    return buffer[h['ofs_text'] : h['ofs_text'] + h['num_text']]


def outline(buffer: bytes | memoryview, source: str = '<bytes>') -> tuple[dict, list[Clip]]:
    """An animation file's header fields and clips, from its header, anims and names only.

    What a timeline needs without the poses (``num_frames``, ``num_poses``); :func:`parse`
    checks the rest.

    Raises
    ------
    QuakeFormatError
        For what :func:`parse` refuses in the header, the anims or their names.

    """
    buffer = bytes(buffer)
    _, h, check = _header(buffer, source)
    anims = _section(buffer, check, h, 'ofs_anims', 'num_anims', ANIM)
    text = _text_block(buffer, h)
    _check_anims(anims, text, source, check, h)
    return h, _clips(anims, text, source)


def _vertex_arrays(record: IQMFile, buffer: bytes, check: Bounds, h: dict) -> dict[int, np.ndarray]:
    out: dict[int, np.ndarray] = {}
    for k, array in enumerate(record.vertexarrays):
        kind, fmt, size = int(array['type']), int(array['format']), int(array['size'])
        if fmt >= len(COMPONENT_TYPES):
            raise check.error(f'vertexarrays[{k}].format', fmt, f'no such component format (0..{len(COMPONENT_TYPES) - 1})')
        if not 0 < size <= 16:
            raise check.error(f'vertexarrays[{k}].size', size, 'components per vertex must be 1 to 16')
        dtype = np.dtype(COMPONENT_TYPES[fmt])
        check.section(f'vertexarrays[{k}].offset', int(array['offset']), h['num_vertexes'] * size, dtype.itemsize)
        if kind >= IQM_CUSTOM:
            record.name(kind - IQM_CUSTOM, f'vertexarrays[{k}].type')
        values = _records(buffer, dtype, int(array['offset']), h['num_vertexes'] * size).reshape(h['num_vertexes'], size)
        out.setdefault(kind, values)  # the first array of a type, as the demo takes it
    return out


def _check_indices(record: IQMFile, check: Bounds, h: dict) -> None:
    for k, mesh in enumerate(record.meshes):
        record.name(mesh['name'], f'meshes[{k}].name')
        record.name(mesh['material'], f'meshes[{k}].material')
        for first, num, total, what in (
            ('first_vertex', 'num_vertexes', 'num_vertexes', 'vertices'),
            ('first_triangle', 'num_triangles', 'num_triangles', 'triangles'),
        ):
            if int(mesh[first]) + int(mesh[num]) > h[total]:
                raise check.error(f'meshes[{k}].{first}', int(mesh[first]), f"{int(mesh[num])} {what} from here run past the file's {h[total]}")
    if len(record.triangles):
        check.indices('triangles.vertex', record.triangles['vertex'].astype(np.int64), h['num_vertexes'])
    used = _vertices_used(record)
    if used and not record.arrays:  # vertices the file holds nothing of: no count of them may size an allocation
        raise check.error('num_vertexarrays', 0, f'the meshes use {used} vertices and no vertex array gives them')
    _names_inside(record, check, 'joints', record.joints['name'] if len(record.joints) else np.zeros(0, np.uint32))
    for field in ('translate', 'rotate', 'scale'):
        check.finite(f'joints.{field}', record.joints[field])
    for field in ('channeloffset', 'channelscale'):
        check.finite(f'poses.{field}', record.poses[field])
    for kind, values in record.arrays.items():
        if values.dtype.kind == 'f':
            check.finite(f'vertexarrays type {kind}', values)
    _parents_inside(check, 'joints', record.joints['parent'] if len(record.joints) else np.zeros(0, np.int32), h['num_joints'], 'joint')
    if h['num_poses'] and (h['num_meshes'] or h['num_joints']) and h['num_poses'] != h['num_joints']:
        # The demo's loadiqmanims and Cube 2 refuse the file; a file of poses only animates another's joints.
        raise check.error('num_poses', h['num_poses'], f"a model's poses must be one per joint (num_joints {h['num_joints']})")
    _parents_inside(check, 'poses', record.poses['parent'] if len(record.poses) else np.zeros(0, np.int32), h['num_poses'], 'pose')
    channels = int(np.unpackbits((record.poses['channelmask'] & 0x3FF).astype('<u4').view(np.uint8)).sum())  # the bits set
    if h['num_frames'] and channels != h['num_framechannels']:
        raise check.error('num_framechannels', h['num_framechannels'], f"the poses' channel masks set {channels} channels")
    _check_anims(record.anims, record.text, record.source, check, h)
    blend = record.arrays.get(IQM_BLENDINDEXES)
    if blend is not None and h['num_joints']:
        check.indices('vertexarrays.blendindexes', blend.astype(np.int64), h['num_joints'])


def _check_anims(anims: np.ndarray, text: bytes, source: str, check: Bounds, h: dict) -> None:
    """Check the anims against the frames and the text block (their names, runs and rates)."""
    for k, anim in enumerate(anims):
        _text_at(text, int(anim['name']), source, f'anims[{k}].name')
        if int(anim['first_frame']) + int(anim['num_frames']) > h['num_frames']:
            raise check.error(
                f'anims[{k}].first_frame',
                int(anim['first_frame']),
                f"{int(anim['num_frames'])} frames from here run past the file's {h['num_frames']}",
            )
        if not np.isfinite(anim['framerate']) or anim['framerate'] < 0:
            raise check.error(f'anims[{k}].framerate', float(anim['framerate']), 'must be a finite number, 0 or more')


def _parents_inside(check: Bounds, section: str, parents: np.ndarray, count: int, what: str) -> None:
    """Check a section's parents at once: below ``count`` (a negative one is a root)."""
    bad = np.flatnonzero(parents.astype(np.int64) >= count)
    if len(bad):
        k = int(bad[0])
        raise check.error(f'{section}[{k}].parent', int(parents[k]), f'no such {what} (0..{count - 1})')


def _names_inside(record: IQMFile, check: Bounds, section: str, offsets: np.ndarray) -> None:
    """Check a section's name offsets against the text block at once (a name past it names the record)."""
    size = len(record.text)
    bad = np.flatnonzero(offsets.astype(np.int64) >= size) if size else np.flatnonzero(offsets != 0)
    if len(bad):
        k = int(bad[0])
        raise check.error(f'{section}[{k}].name', int(offsets[k]), f'name offset outside the text block ({size} bytes)')


def _extensions(record: IQMFile, buffer: bytes, check: Bounds, h: dict) -> list[str]:
    """The extensions' names, following the list (a loop in it ends the walk: it cannot hang)."""
    names: list[str] = []
    offset, seen = h['ofs_extensions'], set()
    while offset and len(names) < h['num_extensions'] and offset not in seen:
        seen.add(offset)
        check.section('ofs_extensions', offset, 1, EXTENSION.itemsize)
        extension = np.frombuffer(buffer, EXTENSION, 1, offset)[0]
        names.append(record.name(extension['name'], 'extensions.name'))
        offset = int(extension['ofs_extensions'])
    return names


def write(record: IQMFile) -> bytes:
    """The file of an IQM's records: an unchanged file byte for byte."""
    return bytes(record.buffer)


# -- the format-neutral view --------------------------------------------------------


def _normalised(values: np.ndarray) -> np.ndarray:
    """Integer weights and colours as fractions (``ubyte / 255``, as the demo scales them); floats as stored."""
    if values.dtype.kind in 'ui':
        return values.astype(np.float32) / np.float32(np.iinfo(values.dtype).max)
    return values.astype(np.float32)


def _vertices_used(record: IQMFile) -> int:
    """One past the last vertex a mesh's range or a triangle names (the parse checked both against ``num_vertexes``)."""
    ends = [int(m['first_vertex']) + int(m['num_vertexes']) for m in record.meshes]
    if len(record.triangles):
        ends.append(int(record.triangles['vertex'].max()) + 1)
    return max(ends, default=0)


def _column(values: np.ndarray | None, width: int, num: int, fill: float = 0.0) -> np.ndarray:
    """``(num, width)`` float32 of an array's first ``width`` components (``fill`` past them, or for none)."""
    out = np.full((num, width), fill, np.float32)
    if values is not None:
        take = min(width, values.shape[1])
        out[:, :take] = values[:, :take]
    return out


def clips_of(record: IQMFile) -> list[Clip]:
    """The file's anims as runs of its frames (names, counts, rates, looping), read without its poses."""
    return _clips(record.anims, record.text, record.source)


def _clips(anims: np.ndarray, text: bytes, source: str) -> list[Clip]:
    return [
        Clip(
            _text_at(text, int(a['name']), source, 'name'),
            int(a['first_frame']),
            int(a['num_frames']),
            float(a['framerate']),
            bool(a['flags'] & IQM_LOOP),
        )
        for a in anims
    ]


def animation_of(record: IQMFile) -> SkeletalAnimationData | None:
    """The file's frames as each pose's local transform per frame, with its anims; ``None`` without poses."""
    h = record.header_fields()
    if not len(record.poses):
        return None
    poses = record.poses
    values = np.broadcast_to(poses['channeloffset'].astype(np.float64), (h['num_frames'], len(poses), 10)).copy()
    mask = ((poses['channelmask'][:, None] >> np.arange(10, dtype=np.uint32)) & 1).astype(bool)
    pose_of, channel_of = np.nonzero(mask)  # row-major: pose by pose, channel by channel, as the frames store them
    if len(pose_of):
        scale = poses['channelscale'][pose_of, channel_of].astype(np.float64)
        values[:, pose_of, channel_of] += record.frames.astype(np.float64) * scale
    clips = clips_of(record)
    joints = [Joint('', parent) for parent in poses['parent'].tolist()]
    bounds = None
    if len(record.bounds):
        bounds = np.stack([record.bounds['bbmin'], record.bounds['bbmax']], axis=1).astype(np.float32)
    return SkeletalAnimationData(record.source, joints, values, clips, 'matrix', bounds, poses['parent'].astype(np.int64))


def decode(record: IQMFile) -> ModelData:
    """The format-neutral view of an IQM's records: joints, bind pose, meshes and its own frames."""
    h = record.header_fields()
    parents = record.joints['parent'].tolist() if len(record.joints) else []
    joints = [Joint(name, parent) for name, parent in zip(record.names(record.joints['name'] if parents else []), parents)]
    local = np.concatenate([record.joints['translate'], record.joints['rotate'], record.joints['scale']], axis=1) if joints else np.zeros((0, 10))
    triangles = record.triangles['vertex'].astype(np.int64) if len(record.triangles) else np.zeros((0, 3), np.int64)
    # The vertices the meshes and triangles use: a num_vertexes that no array stores (a file with none) sizes nothing.
    n = min(h['num_vertexes'], _vertices_used(record))
    arrays = {kind: values[:n] for kind, values in record.arrays.items()}
    positions = _column(arrays.get(IQM_POSITION), 3, n)
    texcoords = _column(arrays.get(IQM_TEXCOORD), 2, n)
    normals = _column(arrays.get(IQM_NORMAL), 3, n) if IQM_NORMAL in arrays else None
    indexes = arrays.get(IQM_BLENDINDEXES)
    weights = arrays.get(IQM_BLENDWEIGHTS)
    if indexes is not None and weights is not None and joints:
        k = min(indexes.shape[1], weights.shape[1])
        blend_joints = indexes[:, :k].astype(np.int32)
        blend_weights = _normalised(weights[:, :k])
        none = ~(blend_weights > 0).any(axis=1)
        if none.any():  # Cube 2 binds a vertex with no weight rigidly to joint 0; the demo would collapse it
            blend_joints[none] = 0
            blend_weights[none] = 0
            blend_weights[none, 0] = 1
    else:
        blend_joints = np.zeros((n, 0), np.int32)
        blend_weights = np.zeros((n, 0), np.float32)
    meshes = []
    for mesh in record.meshes:
        tris = triangles[int(mesh['first_triangle']) : int(mesh['first_triangle']) + int(mesh['num_triangles'])]
        first, last = int(mesh['first_vertex']), int(mesh['first_vertex']) + int(mesh['num_vertexes'])
        if len(tris):  # meshes share one vertex list: a triangle may reach past its mesh's range
            first, last = min(first, int(tris.min())), max(last, int(tris.max()) + 1)
        part = slice(first, last)
        meshes.append(
            SurfaceData(
                record.name(mesh['name']),
                (tris - first).astype(np.int32),
                texcoords[part],
                positions[part],
                None if normals is None else normals[part],
                shaders=[record.name(mesh['material'], 'material')],
                joint_weights=JointWeights(blend_joints[part], blend_weights[part]),
            )
        )
    # A file of poses only animates another file's joints: alone it has nothing to pose (animation_of reads it).
    animation = animation_of(record) if joints else None
    if animation is not None:
        animation.joints = [Joint(j.name, j.parent) for j in joints]
    skeleton = Skeleton(joints, lambda: compose(trs_matrices(local), parents), 'matrix', animation)
    return ModelData(meshes, format='iqm', source=record.source, header=h, file=record, skeleton=skeleton)


# -- what the engines check ---------------------------------------------------------------

_IQM = {'iqmdemo': 'demo/iqm.cpp loadiqm', 'cube2': 'src/engine/iqm.h iqm::loadiqm'}
_IQM_ARRAYS = {'iqmdemo': 'demo/iqm.cpp loadiqmmeshes', 'cube2': 'src/engine/iqm.h iqm::loadiqmmeshes'}
#: The component format and size the IQM demo and Cube 2 take for each standard vertex array (``loadiqmmeshes``).
IQM_PORTABLE_ARRAYS = {0: (7, 3), 1: (7, 2), 2: (7, 3), 3: (7, 4), 4: (1, 4), 5: (1, 4)}
IQM_RULES = (
    Rule(('iqmdemo', 'cube2'), 'filesize', over('filesize', MAX_FILESIZE), REFUSES, f'a file over 16 MiB ({MAX_FILESIZE} bytes)', _IQM),
    Rule(
        ('iqmdemo', 'cube2'),
        'vertexarrays.format',
        lambda f: f['odd_array'],
        REFUSES,
        'a position, texcoord, normal, tangent, blendindexes or blendweights array not in the portable format (float x3, x2, x3, x4; ubyte x4, x4)',
        _IQM_ARRAYS,
    ),
)


def iqm_facts(record, size: int) -> dict:
    h = record.header_fields()
    odd = [
        f'{int(a["type"])}: format {int(a["format"])} x {int(a["size"])}'
        for a in record.vertexarrays
        if int(a['type']) in IQM_PORTABLE_ARRAYS and (int(a['format']), int(a['size'])) != IQM_PORTABLE_ARRAYS[int(a['type'])]
    ]
    return {**h, 'odd_array': ', '.join(odd) or None}


register_format(
    'iqm',
    ('.iqm',),
    parse,
    magic=MAGIC,
    kind='skeletal',
    title='Inter-Quake Models (IQM)',
    game='Inter-Quake Model',
    config='iqm.cfg',
    write=write,
    encode=not_encoded('iqm'),
    quantize=not_encoded('iqm'),
    decode=decode,
    engines=('iqmdemo', 'cube2'),
    rules=IQM_RULES,
    facts=iqm_facts,
)
