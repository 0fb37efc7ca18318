"""Quake ``.mdl`` models: the bytes, as numpy structured dtypes.

Follows ``modelgen.h`` and ``model.c`` of the Quake source (see
``mdl-format.txt``).  An MDL has no offsets: skins and frames are walked in
order.  This module knows the byte layout and nothing of PyVista; it
produces a format-neutral :class:`~pyvista_quake.formats.records.AliasData`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pyvista_quake.formats import _pack
from pyvista_quake.formats._alias import alias_model
from pyvista_quake.formats._common import Bounds
from pyvista_quake.formats._common import alias_reader
from pyvista_quake.formats._common import field_names
from pyvista_quake.formats._common import record_view
from pyvista_quake.formats._rules import MISDRAWS
from pyvista_quake.formats._rules import QUAKE_ENGINES
from pyvista_quake.formats._rules import REFUSES
from pyvista_quake.formats._rules import WARNS
from pyvista_quake.formats._rules import Rule
from pyvista_quake.formats._rules import over
from pyvista_quake.formats._rules import under
from pyvista_quake.formats.records import AliasData
from pyvista_quake.formats.records import FrameGroup
from pyvista_quake.formats.records import ModelData
from pyvista_quake.formats.records import SkinPicture
from pyvista_quake.formats.registry import register_format
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

# The engines' limits (MAXALIASVERTS...) and who applies them: pyvista_quake.game.engines.

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
    return np.dtype([('bboxmin', 'u1', (4,)), ('bboxmax', 'u1', (4,)), ('name', 'S16'), ('verts', 'u1', (numverts, 4))])


def flag_names(flags: int) -> list[str]:
    """Return the ``EF_`` names of the bits set in ``flags``."""
    return [name for bit, name in EFFECT_FLAGS.items() if flags & bit]


@dataclass
class GroupRecord:
    """One frame group as stored: its ``daliasgroup_t`` header and ``daliasinterval_t`` list."""

    header: np.ndarray  # GROUP_HEADER, shape (1,)
    intervals: np.ndarray  # '<f4', (numframes,)


def header_fields(header: np.ndarray) -> dict:
    """A :data:`HEADER` record's fields by name, as Python values (vectors as lists)."""
    return {name: header[0][name].tolist() for name in field_names(HEADER)}


@dataclass
class MDLFile:
    """Every byte of an MDL, as records of the layout's dtypes.

    Attributes
    ----------
    header : numpy.ndarray
        One :data:`HEADER` record, shape ``(1,)``.
    skin_types : list of int
        Each skin's ``aliasskintype_t`` as stored (0 single, else a group).
    skins : list of SkinPicture
        Each skin's pictures and, for a group, its ``float32`` intervals.
    stverts : numpy.ndarray
        :data:`STVERT` records.
    triangles : numpy.ndarray
        :data:`TRIANGLE` records.
    frame_types : numpy.ndarray
        ``int32`` ``aliasframetype_t`` of each frame entry as stored.
    groups : list of GroupRecord
        The group entries, in order.
    poses : numpy.ndarray
        :func:`simple_frame_dtype` records of every simple frame, group members
        included, in file order (``bboxmin``, ``bboxmax``, ``name`` whole, ``verts``).
    trailing : bytes
        What follows the last frame.
    source : str
        Where the bytes came from, for messages.

    """

    header: np.ndarray
    skin_types: list[int]
    skins: list[SkinPicture]
    stverts: np.ndarray
    triangles: np.ndarray
    frame_types: np.ndarray
    groups: list[GroupRecord]
    poses: np.ndarray
    trailing: bytes = b''
    source: str = '<bytes>'

    def header_fields(self) -> dict:
        """The header's fields by name, as Python values (vectors as lists)."""
        return header_fields(self.header)


def parse(buffer: bytes | memoryview, source: str = '<bytes>') -> MDLFile:
    """Parse an MDL into its records, keeping every byte (see :func:`read`).

    Refuses only what no Quake engine can draw: sections past the end of the
    file, vertex indices out of range, non-finite scales.  A skin or frame
    type other than 0 is a group, as every engine reads it.
    """
    check = Bounds(source, len(buffer))
    header, h = check.header(buffer, HEADER, IDENT, VERSION, header_fields)
    for name in ('numskins', 'skinwidth', 'skinheight'):
        check.count(name, h[name])
    numverts = check.count('numverts', h['numverts'], 1)
    numtris = check.count('numtris', h['numtris'], 1)
    numframes = check.count('numframes', h['numframes'], 1)
    check.finite('scale', np.asarray(h['scale']))
    check.finite('scale_origin', np.asarray(h['scale_origin']))
    position = HEADER.itemsize
    skin_types, skins, position = _read_skins(buffer, check, h, position)

    check.section('stverts', position, numverts, STVERT.itemsize)
    stverts = np.frombuffer(buffer, STVERT, numverts, position)
    position += numverts * STVERT.itemsize
    check.section('triangles', position, numtris, TRIANGLE.itemsize)
    tris = np.frombuffer(buffer, TRIANGLE, numtris, position)
    position += numtris * TRIANGLE.itemsize
    check.indices('vertindex', tris['vertindex'], numverts)

    frame_offsets, frame_types, groups, position = _walk_frames(buffer, check, numframes, numverts, position)
    poses = record_view(buffer, simple_frame_dtype(numverts), frame_offsets)
    return MDLFile(header, skin_types, skins, stverts, tris, frame_types, groups, poses, bytes(buffer[position:]), source)


def to_data(record: MDLFile) -> AliasData:
    """The format-neutral view of an MDL's records (no copy of the frames)."""
    h = record.header_fields()
    stverts, tris = record.stverts, record.triangles
    vertindex = tris['vertindex']
    # The seam rule: a back-facing triangle (facesfront = 0) takes the back half
    # of the skin for its onseam vertices.
    back_seam = (tris['facesfront'] == 0)[:, None] & (stverts['onseam'][vertindex] != 0)
    s = stverts['s'][vertindex] + back_seam * (h['skinwidth'] // 2)
    t = stverts['t'][vertindex]
    n = len(record.poses)
    header = dict(h)
    header['ident'] = h['ident'].decode('latin-1')
    header['flag_names'] = flag_names(h['flags'])
    header['synctype_name'] = SYNCTYPES.get(h['synctype'], str(h['synctype']))
    groups = []
    start = 0
    group_iter = iter(record.groups)
    for frametype in record.frame_types.tolist():
        if frametype == ALIAS_SINGLE:
            start += 1
            continue
        group = next(group_iter)
        groups.append(FrameGroup(start, len(group.intervals), np.array(group.intervals, np.float32)))
        start += len(group.intervals)
    return AliasData(
        format='mdl',
        source=record.source,
        header=header,
        skin_width=h['skinwidth'],
        skin_height=h['skinheight'],
        skins=record.skins,
        frame_verts=record.poses['verts'],
        frame_scale=np.broadcast_to(np.asarray(h['scale'], np.float32), (n, 3)),
        frame_translate=np.broadcast_to(np.asarray(h['scale_origin'], np.float32), (n, 3)),
        frame_names=record.poses['name'],
        triangle_vertices=vertindex.astype(np.int32),
        triangle_st=np.stack([s, t], axis=-1).astype(np.int32),
        triangle_st_key=vertindex.astype(np.int64) * 2 + back_seam,
        frame_groups=groups,
        trailing=record.trailing,
        file=record,
    )


def write(record: MDLFile) -> bytes:
    """The bytes of an MDL: header, skins, ``stverts``, triangles, frames, trailing bytes.

    A record read by :func:`parse` and not changed gives back the file it was
    read from, byte for byte.
    """
    h = record.header[0]
    if int(h['numskins']) != len(record.skins) or int(h['numframes']) != len(record.frame_types):
        raise ValueError(f'{record.source}: header counts do not match the skin and frame records')
    parts = [record.header.tobytes()]
    for skintype, skin in zip(record.skin_types, record.skins):
        parts.append(np.int32(skintype).tobytes())
        if skintype == ALIAS_SKIN_SINGLE:
            parts.append(np.ascontiguousarray(skin.pictures[:1], np.uint8).tobytes())
        else:
            parts.append(np.int32(len(skin.pictures)).tobytes())
            parts.append(np.asarray(skin.times, '<f4').tobytes())
            parts.append(np.ascontiguousarray(skin.pictures, np.uint8).tobytes())
    parts += [record.stverts.tobytes(), record.triangles.tobytes()]
    poses = record.poses
    if not record.groups:
        # Single frames only: one record array of (type, frame) entries.
        entries = np.empty(len(poses), [('type', '<i4'), ('frame', poses.dtype)])
        entries['type'] = record.frame_types
        entries['frame'] = poses
        parts.append(entries.tobytes())
    else:
        group_iter = iter(record.groups)
        pose = 0
        for frametype in record.frame_types.tolist():
            parts.append(np.int32(frametype).tobytes())
            if frametype == ALIAS_SINGLE:
                parts.append(poses[pose : pose + 1].tobytes())
                pose += 1
                continue
            group = next(group_iter)
            count = len(group.intervals)
            parts += [group.header.tobytes(), np.asarray(group.intervals, '<f4').tobytes()]
            parts.append(poses[pose : pose + count].tobytes())
            pose += count
    parts.append(record.trailing)
    return b''.join(parts)


def _int32(buffer, check: Bounds, position: int, field_name: str) -> int:
    check.section(field_name, position, 1, 4)
    return int(np.frombuffer(buffer, '<i4', 1, position)[0])


def _read_skins(buffer, check: Bounds, h: dict, position: int) -> tuple[list[int], list[SkinPicture], int]:
    """Walk the skins: each a single picture or a group with its end times."""
    width, height = h['skinwidth'], h['skinheight']
    pixels = width * height
    skins = []
    types = []
    for index in range(h['numskins']):
        field_name = f'skin {index} type'
        skintype = _int32(buffer, check, position, field_name)
        position += 4
        if skintype == ALIAS_SKIN_SINGLE:
            check.section(f'skin {index} picture', position, 1, pixels)
            picture = np.frombuffer(buffer, np.uint8, pixels, position).reshape(1, height, width)
            skins.append(SkinPicture(picture))
            position += pixels
        else:  # any other type is a group to every engine (model.c Mod_LoadAliasModel)
            count = _int32(buffer, check, position, f'skin {index} group count')
            check.count(f'skin {index} group count', count, 1)
            position += 4
            check.section(f'skin {index} group', position, count, 4 + pixels)
            times = np.frombuffer(buffer, '<f4', count, position)
            position += 4 * count
            pictures = np.frombuffer(buffer, np.uint8, count * pixels, position).reshape(count, height, width)
            position += count * pixels
            skins.append(SkinPicture(pictures, times))
        types.append(skintype)
    return types, skins, position


def _walk_frames(buffer, check: Bounds, numframes: int, numverts: int, position: int) -> tuple[np.ndarray, np.ndarray, list[GroupRecord], int]:
    """Find every simple frame's offset, walking singles and groups in order.

    Returns the offsets of the simple frames (group members included), the
    type of each entry, the groups, and the position after the last frame.
    """
    frame_size = simple_frame_dtype(numverts).itemsize
    # Most models hold single frames only, back to back: check that in one
    # vectorised pass before walking entry by entry.
    entry = 4 + frame_size
    if position + numframes * entry <= check.size:
        starts = position + entry * np.arange(numframes, dtype=np.int64)
        types = np.frombuffer(buffer, np.uint8)[starts[:, None] + np.arange(4)].view('<i4').ravel()
        if not types.any():
            return starts + 4, types.astype(np.int32), [], position + numframes * entry

    offsets: list[np.ndarray] = []
    groups: list[GroupRecord] = []
    kinds: list[int] = []  # not preallocated: numframes is not checked yet
    for index in range(numframes):
        field_name = f'frame {index} type'
        frametype = _int32(buffer, check, position, field_name)
        kinds.append(frametype)
        position += 4
        if frametype == ALIAS_SINGLE:
            check.section(f'frame {index}', position, 1, frame_size)
            offsets.append(np.array([position], np.int64))
            position += frame_size
        else:  # any other type is a group, as for skins
            check.section(f'frame {index} group header', position, 1, GROUP_HEADER.itemsize)
            group_header = np.frombuffer(buffer, GROUP_HEADER, 1, position).copy()
            count = int(group_header['numframes'][0])
            check.count(f'frame {index} group numframes', count, 1)
            position += GROUP_HEADER.itemsize
            check.section(f'frame {index} group', position, count, 4 + frame_size)
            intervals = np.frombuffer(buffer, '<f4', count, position).copy()
            position += 4 * count
            offsets.append(position + frame_size * np.arange(count, dtype=np.int64))
            position += count * frame_size
            groups.append(GroupRecord(group_header, intervals))
    return np.concatenate(offsets), np.asarray(kinds, np.int32), groups, position


# -- writing a changed model ------------------------------------------------------------
def quantize(data: AliasData, frames: np.ndarray, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pack new positions of some frames on the model's one ``scale``/``scale_origin``.

    Positions inside the current grid (to half a step) are packed on it and no
    other frame changes; otherwise the grid grows to the bounds of every
    frame and all frames are packed on it again.  Returns the whole model's
    ``uint8`` ``(frames, vertices, 3)`` coordinates, ``scale`` and ``translate``.
    """
    xyz = np.array(data.frame_verts[..., :3])
    scale = np.array(data.frame_scale, np.float32)
    translate = np.array(data.frame_translate, np.float32)
    if not len(frames):
        return xyz, scale, translate
    step, origin = scale[0], translate[0]
    low, high = origin - step / 2, origin + 255 * step + step / 2
    inside = (step > 0).all() and (positions.min(axis=(0, 1)) >= low).all() and (positions.max(axis=(0, 1)) <= high).all()
    if inside:
        xyz[frames] = _pack.pack_on(positions, scale[frames], translate[frames])
        return xyz, scale, translate
    others = np.setdiff1d(np.arange(len(xyz)), frames)
    every = np.empty(xyz.shape, np.float32)
    every[others] = xyz[others] * step + origin
    every[frames] = positions
    lo = np.broadcast_to(every.min(axis=(0, 1)), (len(xyz), 3))
    hi = np.broadcast_to(every.max(axis=(0, 1)), (len(xyz), 3))
    return _pack.quantize(every, lo, hi)


def encode(data: AliasData, base: MDLFile | None = None) -> MDLFile:
    """The records of a model, keeping from ``base`` what ``data`` leaves unchanged.

    Texture coordinates are encoded with the seam rule: a vertex whose two
    texture coordinates lie half a skin apart becomes one ``onseam`` vertex,
    and each triangle's ``facesfront`` says which half it takes; a vertex with
    other texture coordinates is split.  Frame and group bounding boxes are
    recomputed for changed frames.

    Raises
    ------
    ValueError
        If the model does not fit the format (no frames, vertices or
        triangles; skin pictures of the wrong size).

    """
    source = data.source
    width, height = int(data.skin_width), int(data.skin_height)
    verts = np.asarray(data.frame_verts)
    if verts.shape[0] < 1 or verts.shape[1] < 1 or len(data.triangle_vertices) < 1:
        raise ValueError(f'{source}: an MDL needs at least one frame, vertex and triangle')
    tv = np.asarray(data.triangle_vertices, np.int64)
    st = np.asarray(data.triangle_st, np.int64)
    if base is not None and _same_triangles(base, tv, st, width):
        stverts, triangles = base.stverts, base.triangles
    else:
        facesfront = base.triangles['facesfront'] if base is not None and len(base.triangles) == len(tv) else None
        stverts, triangles, vertex_map = encode_seams(tv, st, width, facesfront)
        verts = verts[:, vertex_map]

    skins: list[SkinPicture] = []
    skin_types: list[int] = []
    for index, skin in enumerate(data.skins):
        pictures = np.asarray(skin.pictures, np.uint8)
        if pictures.ndim != 3 or pictures.shape[1:] != (height, width):
            raise ValueError(f'{source}: skin {index} is {pictures.shape[-2:]}, the skin size is ({height}, {width})')
        group = skin.times is not None
        old = base.skin_types[index] if base is not None and index < len(base.skin_types) else None
        # A group stays a group and a single a single; a type the file gave another value keeps it.
        skin_types.append(old if old is not None and (old != ALIAS_SKIN_SINGLE) == group else int(group))
        skins.append(SkinPicture(pictures, None if not group else np.asarray(skin.times, '<f4')))

    poses = np.zeros(len(verts), simple_frame_dtype(verts.shape[1]))
    poses['name'] = data.frame_names
    poses['verts'] = verts
    poses['bboxmin'][:, :3] = verts[..., :3].min(axis=1)
    poses['bboxmax'][:, :3] = verts[..., :3].max(axis=1)
    unchanged = np.zeros(len(poses), bool)
    if base is not None and base.poses.dtype == poses.dtype:
        n = min(len(poses), len(base.poses))
        unchanged[:n] = (base.poses['verts'][:n] == poses['verts'][:n]).all(axis=(1, 2))
        poses['bboxmin'][:n][unchanged[:n]] = base.poses['bboxmin'][:n][unchanged[:n]]
        poses['bboxmax'][:n][unchanged[:n]] = base.poses['bboxmax'][:n][unchanged[:n]]

    frame_types, groups = _entries(data, poses, unchanged, base)

    header = base.header.copy() if base is not None else np.zeros(1, HEADER)
    header['ident'], header['version'] = IDENT, VERSION
    header['scale'] = np.asarray(data.frame_scale, np.float32)[0]
    header['scale_origin'] = np.asarray(data.frame_translate, np.float32)[0]
    for name in ('eyeposition', 'synctype', 'flags', 'size', 'boundingradius'):
        if name in data.header:
            header[name] = data.header[name]
    if base is None or not unchanged.all() or len(poses) != len(base.poses):
        positions = verts[..., :3] * header['scale'][0] + header['scale_origin'][0]
        header['boundingradius'] = float(np.sqrt((positions.astype(np.float64) ** 2).sum(-1).max()))
    header['numskins'], header['skinwidth'], header['skinheight'] = len(skins), width, height
    header['numverts'], header['numtris'], header['numframes'] = len(stverts), len(triangles), len(frame_types)
    return MDLFile(header, skin_types, skins, stverts, triangles, frame_types, groups, poses, data.trailing, source)


def _entries(data: AliasData, poses: np.ndarray, unchanged: np.ndarray, base: MDLFile | None) -> tuple[np.ndarray, list[GroupRecord]]:
    """Frame entry types and group records for the model's frame groups."""
    n = len(poses)
    owner = np.full(n, -1)
    for number, group in enumerate(data.frame_groups):
        if group.count < 1 or group.start < 0 or group.start + group.count > n or (owner[group.start : group.start + group.count] >= 0).any():
            raise ValueError(f'{data.source}: frame group {number} ({group.start}, {group.count}) does not fit the frames')
        owner[group.start : group.start + group.count] = number
    base_groups = {}
    if base is not None:
        start = 0
        group_iter = iter(base.groups)
        for frametype in base.frame_types.tolist():
            if frametype == ALIAS_SINGLE:
                start += 1
            else:
                record = next(group_iter)
                base_groups[(start, len(record.intervals))] = record
                start += len(record.intervals)
    types, groups = [], []
    frame = 0
    while frame < n:
        if owner[frame] < 0:
            types.append(ALIAS_SINGLE)
            frame += 1
            continue
        group = data.frame_groups[owner[frame]]
        members = slice(group.start, group.start + group.count)
        intervals = np.asarray(group.intervals, '<f4').reshape(-1)
        if len(intervals) != group.count:
            raise ValueError(f'{data.source}: frame group at {group.start} has {group.count} frames, {len(intervals)} intervals')
        old = base_groups.get((group.start, group.count))
        if old is not None and unchanged[members].all():
            header = old.header.copy()
        else:
            header = np.zeros(1, GROUP_HEADER)
            header['numframes'] = group.count
            header['bboxmin'][0] = poses['bboxmin'][members].min(axis=0)
            header['bboxmax'][0] = poses['bboxmax'][members].max(axis=0)
        types.append(ALIAS_GROUP)
        groups.append(GroupRecord(header, intervals))
        frame += group.count
    return np.asarray(types, np.int32), groups


def encode_seams(
    vertices: np.ndarray, st: np.ndarray, skinwidth: int, facesfront: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Encode per-corner texture coordinates as ``stverts`` and ``facesfront``.

    Parameters
    ----------
    vertices : numpy.ndarray
        ``(triangles, 3)`` vertex numbers.
    st : numpy.ndarray
        ``(triangles, 3, 2)`` skin pixels of each corner, seam already applied.
    skinwidth : int
        Skin width: a back-facing triangle shifts ``onseam`` vertices by half of it.
    facesfront : numpy.ndarray, optional
        Preferred ``facesfront`` of each triangle, kept where no seam decides it.

    Returns
    -------
    stverts, triangles : numpy.ndarray
        The records.
    vertex_map : numpy.ndarray
        The old vertex of each new one (a split vertex appears more than once).

    """
    num_tris = len(vertices)
    num_verts = int(vertices.max()) + 1
    half = skinwidth // 2
    corner_v = vertices.ravel()
    corner_s, corner_t = st[..., 0].ravel(), st[..., 1].ravel()
    # Distinct (vertex, s, t) corners.
    keys = np.stack([corner_v, corner_t, corner_s], axis=1)
    triples, corner_id = np.unique(keys, axis=0, return_inverse=True)
    corner_id = corner_id.ravel()
    first_of_vertex = np.r_[True, triples[1:, 0] != triples[:-1, 0]]
    per_vertex = np.bincount(triples[:, 0], minlength=num_verts)
    # A seam vertex: exactly two corners' coordinates, same t, s half a skin apart.
    pair_start = np.flatnonzero(first_of_vertex & (per_vertex[triples[:, 0]] == 2))
    seam_candidate = np.zeros(num_verts, bool)
    if half > 0 and len(pair_start):
        a, b = triples[pair_start], triples[pair_start + 1]
        ok = (a[:, 1] == b[:, 1]) & (b[:, 2] - a[:, 2] == half)
        seam_candidate[a[ok, 0]] = True
    base_s = np.zeros(len(triples), bool)  # triple is the front (base) side of a seam vertex
    base_s[first_of_vertex] = True
    prefer = np.ones(num_tris, np.int32) if facesfront is None else (np.asarray(facesfront) != 0).astype(np.int32)
    while True:
        seam_corner = seam_candidate[corner_v].reshape(-1, 3)
        back_corner = seam_corner & ~base_s[corner_id].reshape(-1, 3)
        front_corner = seam_corner & base_s[corner_id].reshape(-1, 3)
        conflict = back_corner.any(axis=1) & front_corner.any(axis=1)
        if not conflict.any():
            break
        # A triangle that needs both halves: its seam vertices are split instead.
        seam_candidate[vertices[conflict][seam_corner[conflict]]] = False
    tri_facesfront = np.where(back_corner.any(axis=1), 0, np.where(front_corner.any(axis=1), 1, prefer))
    # New vertices: each old vertex's first triple keeps its number; other
    # triples of non-seam vertices become new vertices at the end.
    extra = ~first_of_vertex & ~seam_candidate[triples[:, 0]]
    new_id = np.empty(len(triples), np.int64)
    new_id[first_of_vertex] = triples[first_of_vertex, 0]
    new_id[extra] = num_verts + np.arange(int(extra.sum()))
    second_of_seam = ~first_of_vertex & seam_candidate[triples[:, 0]]
    new_id[second_of_seam] = triples[second_of_seam, 0]
    vertex_map = np.concatenate([np.arange(num_verts), triples[extra, 0]])
    stverts = np.zeros(len(vertex_map), STVERT)
    stverts['s'][new_id[first_of_vertex | extra]] = triples[first_of_vertex | extra, 2]
    stverts['t'][new_id[first_of_vertex | extra]] = triples[first_of_vertex | extra, 1]
    stverts['onseam'][:num_verts][seam_candidate] = ALIAS_ONSEAM
    triangles = np.zeros(num_tris, TRIANGLE)
    triangles['facesfront'] = tri_facesfront
    triangles['vertindex'] = new_id[corner_id].reshape(-1, 3)
    return stverts, triangles, vertex_map


def _same_triangles(base: MDLFile, tv: np.ndarray, st: np.ndarray, width: int) -> bool:
    if len(base.triangles) != len(tv) or not np.array_equal(base.triangles['vertindex'], tv):
        return False
    stverts, tris = base.stverts, base.triangles
    back = (tris['facesfront'] == 0)[:, None] & (stverts['onseam'][tv] != 0)
    base_st = np.stack([stverts['s'][tv] + back * (width // 2), stverts['t'][tv]], axis=-1)
    return bool(np.array_equal(base_st, st))


# -- what the engines check ---------------------------------------------------------------

MDL_RULES = (
    Rule(
        QUAKE_ENGINES,
        'numskins',
        under('numskins', 1),
        REFUSES,
        'a model needs a skin',
        {
            'quake': 'model.c Mod_LoadAliasModel',
            'glquake': 'gl_model.c Mod_LoadAllSkins',
            'quakespasm': 'gl_model.c Mod_LoadAllSkins',
            'ezquake': 'r_aliasmodel_skins.c Mod_LoadAllSkins',
        },
    ),
    Rule(
        ('glquake', 'quakespasm', 'ezquake'),
        'numskins',
        over('numskins', 32),
        REFUSES,
        'more than MAX_SKINS (32) skins',
        {'glquake': 'gl_model.c Mod_LoadAllSkins', 'quakespasm': 'gl_model.c Mod_LoadAllSkins', 'ezquake': 'r_aliasmodel_skins.c Mod_LoadAllSkins'},
    ),
    Rule(
        ('quake',),
        'skinwidth',
        lambda f: f['skinwidth'] if f['skinwidth'] % 4 else None,
        REFUSES,
        'skin width not a multiple of 4',
        {'quake': 'model.c Mod_LoadAliasModel'},
    ),
    Rule(
        ('quake', 'glquake', 'ezquake'),
        'skinheight',
        over('skinheight', 480),
        REFUSES,
        'skin taller than MAX_LBM_HEIGHT (480)',
        {'quake': 'model.c Mod_LoadAliasModel', 'glquake': 'gl_model.c Mod_LoadAliasModel', 'ezquake': 'r_aliasmodel.c Mod_LoadAliasModel'},
    ),
    Rule(
        ('quakespasm',),
        'skinheight',
        over('skinheight', 480),
        WARNS,
        'skin taller than MAX_LBM_HEIGHT (480)',
        {'quakespasm': 'gl_model.c Mod_LoadAliasModel (Con_DWarning)'},
    ),
    Rule(
        ('quake', 'quakespasm'),
        'numverts',
        over('numverts', 2000),
        REFUSES,
        'more than MAXALIASVERTS (2000) vertices',
        {'quake': 'model.c Mod_LoadAliasModel (r_local.h)', 'quakespasm': 'gl_model.c Mod_LoadAliasModel'},
    ),
    Rule(
        ('glquake',),
        'numverts',
        over('numverts', 1024),
        REFUSES,
        'more than MAXALIASVERTS (1024) vertices',
        {'glquake': 'gl_model.c Mod_LoadAliasModel'},
    ),
    Rule(
        ('ezquake',),
        'numverts',
        over('numverts', 2048),
        REFUSES,
        'more than MAXALIASVERTS (2048) vertices',
        {'ezquake': 'r_aliasmodel.c Mod_LoadAliasModel'},
    ),
    Rule(
        ('quakespasm',),
        'numtris',
        over('numtris', 4096),
        REFUSES,
        'more than MAXALIASTRIS (4096) triangles',
        {'quakespasm': 'gl_model.c Mod_LoadAliasModel'},
    ),
    Rule(
        ('glquake', 'ezquake'),
        'numtris',
        over('numtris', 2048),
        MISDRAWS,
        'more triangles than triangles[MAXALIASTRIS] (2048) holds; not checked',
        {'glquake': 'gl_model.c Mod_LoadAliasModel', 'ezquake': 'r_aliasmodel.c Mod_LoadAliasModel'},
    ),
    Rule(
        ('glquake', 'ezquake'),
        'poses',
        over('poses', 256),
        MISDRAWS,
        'more poses than poseverts[MAXALIASFRAMES] (256) holds; not checked',
        {'glquake': 'gl_model.c Mod_LoadAliasFrame', 'ezquake': 'r_aliasmodel.c Mod_LoadAliasFrame'},
    ),
    Rule(
        ('quakespasm',),
        'poses',
        over('poses', 1024),
        MISDRAWS,
        'more poses than poseverts[MAXALIASFRAMES] (1024) holds',
        {'quakespasm': 'gl_model.c Mod_LoadAliasFrame'},
    ),
    Rule(
        ('quake',),
        'frame group interval',
        lambda f: f['min_interval'] if f['min_interval'] <= 0 else None,
        REFUSES,
        'a frame group interval <= 0',
        {'quake': 'model.c Mod_LoadAliasGroup'},
    ),
    Rule(
        ('quake',),
        'skin group interval',
        lambda f: f['min_skin_interval'] if f['min_skin_interval'] <= 0 else None,
        REFUSES,
        'a skin group interval <= 0',
        {'quake': 'model.c Mod_LoadAliasSkinGroup'},
    ),
    Rule(
        ('glquake', 'quakespasm', 'ezquake'),
        'frame group interval',
        lambda f: f['first_interval'] if f['first_interval'] <= 0 else None,
        MISDRAWS,
        'a group whose first interval is <= 0 (time / interval picks the pose)',
        {'glquake': 'gl_rmain.c R_SetupAliasFrame', 'quakespasm': 'r_alias.c R_SetupAliasFrame', 'ezquake': 'r_aliasmodel.c R_AliasSetupFrame'},
    ),
    Rule(
        QUAKE_ENGINES,
        'lightnormalindex',
        lambda f: f['top_normal'] if f['top_normal'] >= NUM_VERTEX_NORMALS else None,
        MISDRAWS,
        'a normal index past the 162-entry table (read past r_avertexnormals)',
        {
            'quake': 'r_alias.c R_AliasTransformFinalVert',
            'glquake': 'gl_rmain.c GL_DrawAliasFrame',
            'quakespasm': 'r_alias.c GL_DrawAliasFrame',
            'ezquake': 'r_aliasmodel.c',
        },
    ),
)


def mdl_facts(record, size: int) -> dict:
    h = record.header_fields()
    intervals = [g.intervals for g in record.groups]
    skin_times = [s.times for s in record.skins if s.times is not None]
    return {
        **h,
        'poses': len(record.poses),
        'min_interval': float(min((i.min() for i in intervals if len(i)), default=1.0)),
        'first_interval': float(min((i[0] for i in intervals if len(i)), default=1.0)),
        'min_skin_interval': float(min((t.min() for t in skin_times if len(t)), default=1.0)),
        'top_normal': int(record.poses['verts'][..., 3].max(initial=0)),
        'size': size,
    }


def decode(record: MDLFile) -> ModelData:
    """The format-neutral record of an MDL's records: its one surface of packed bytes, and :func:`to_data`'s part."""
    return alias_model(to_data(record))


#: Parse an MDL into its format-neutral record (a :class:`ModelData`, frames still packed).
read = alias_reader(parse, decode, 'an MDL', 'Quake')


register_format(
    'mdl',
    ('.mdl',),
    parse,
    magic=IDENT,
    kind='alias',
    palette=True,
    title='Quake (MDL) models',
    game='Quake',
    write=write,
    encode=encode,
    quantize=quantize,
    decode=decode,
    engines=QUAKE_ENGINES,
    rules=MDL_RULES,
    facts=mdl_facts,
)
