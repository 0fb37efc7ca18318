"""Changing models and making new ones: every edit gives new, encoded data.

Each function takes a :class:`~pyvista_quake.formats.records.AliasData` and returns a
new one that went through the format's encoder and back, so what a model
shows after an edit is exactly what :meth:`QuakeModel.save` writes:
positions quantised to 8 bits (MD2 per frame, MDL over the model), normals
the nearest of the 162 table entries, texture coordinates whole skin pixels.
What an edit leaves alone keeps its bytes.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any
from typing import Sequence

import numpy as np
import pyvista as pv

from pyvista_quake._base import fields as keys
from pyvista_quake.data.decode import FrameDecoder
from pyvista_quake.data.decode import frame_indices
from pyvista_quake.data.decode import surface_normals
from pyvista_quake.data.decode import surface_positions
from pyvista_quake.data.decode import vertex_face_normals
from pyvista_quake.data.topology import Topology
from pyvista_quake.data.topology import skin_pixels
from pyvista_quake.formats import FORMATS
from pyvista_quake.formats import md3
from pyvista_quake.formats._pack import nearest_normals
from pyvista_quake.formats.records import AliasData
from pyvista_quake.formats.records import FrameGroup
from pyvista_quake.formats.records import ModelData
from pyvista_quake.formats.records import SkinPicture
from pyvista_quake.formats.records import SurfaceData
from pyvista_quake.formats.records import Tag
from pyvista_quake.formats.tables import QUAKE_PALETTE
from pyvista_quake.formats.tables import VERTEX_NORMALS
from pyvista_quake.game.skins import ModelSkins
from pyvista_quake.game.skins import image_array
from pyvista_quake.game.skins import palette_indices
from pyvista_quake.game.skins import resized
from pyvista_quake.model.mesh import carried_palette_indices
from pyvista_quake.model.mesh import carried_pictures

#: Bytes of a frame name, its terminating zero included.
FRAME_NAME_BYTES = 16
#: Skin size of a model made from meshes with texture coordinates but no skin.
DEFAULT_SKIN_SIZE = (256, 256)


def rebuild(data: AliasData, **changes: Any) -> ModelData:
    """``data`` with some fields changed, encoded by its format and read back.

    Parameters
    ----------
    data : AliasData
        The model's content; its ``file`` records are kept where unchanged.
    **changes
        Fields of :class:`AliasData` to replace.

    """
    spec = FORMATS[data.format]
    changed = dataclasses.replace(data, **changes)
    record = spec.encode(changed, base=data.file)
    return spec.decode(record)


def set_frames(
    data: AliasData,
    topology: Topology | None,
    frames: Sequence[int],
    points: Sequence,
    normals: Sequence | None = None,
) -> ModelData:
    """New positions (and normals) for some frames.

    Parameters
    ----------
    data : AliasData
        The model.
    topology : Topology or None
        The model's points, to map ``(points, 3)`` arrays and PolyData to its vertices.
    frames : sequence of int
        The frames.
    points : sequence
        For each frame, ``(vertices, 3)``, ``(points, 3)`` or a PolyData.
    normals : sequence, optional
        For each frame, normals shaped as its points; computed from the geometry by default.

    """
    index = frame_indices(list(frames), data.num_frames)
    if len(points) != len(index):
        raise ValueError(f'{len(index)} frames but {len(points)} sets of points')
    positions = np.empty((len(index), data.num_vertices, 3), np.float32)
    decoder = FrameDecoder(data, np.empty(0, np.int32))  # the file's vertices only
    for k, (frame, given) in enumerate(zip(index, points)):
        positions[k] = _to_vertices(data, topology, given, lambda f=frame: decoder.vertex_positions([f])[0], 'points')
    if not np.isfinite(positions).all():
        raise ValueError(f'{data.source}: positions must be finite numbers')
    if normals is None:
        vectors = vertex_face_normals(positions, data.triangle_vertices)
    else:
        zeros = lambda: np.zeros((data.num_vertices, 3), np.float32)  # noqa: E731 - unknown normals
        vectors = np.stack([_to_vertices(data, topology, n, zeros, 'normals') for n in normals])
    light = nearest_normals(vectors)
    # A vertex with no faces has no normal of its own: it keeps the one it had.
    unknown = ~np.any(vectors != 0, axis=-1)
    light[unknown] = data.frame_verts[index][..., 3][unknown]
    xyz, scale, translate = FORMATS[data.format].quantize(data, index, positions)
    verts = np.empty(data.frame_verts.shape, np.uint8)
    verts[..., :3] = xyz
    verts[..., 3] = data.frame_verts[..., 3]
    verts[index, :, 3] = light
    return rebuild(data, frame_verts=verts, frame_scale=scale, frame_translate=translate)


def add_frames(data: AliasData, topology: Topology | None, points: Sequence, names: Sequence[str] | None = None, at: int | None = None) -> ModelData:
    """Insert frames before frame ``at`` (at the end by default); see :func:`set_frames` for ``points``."""
    n, k = data.num_frames, len(points)
    at = n if at is None else int(at)
    if not 0 <= at <= n:
        raise IndexError(f'{data.source}: cannot insert frames at {at} in a model of {n} frames')
    for group in data.frame_groups:
        if group.start < at < group.start + group.count:
            raise ValueError(f'{data.source}: frame {at} is inside the frame group at {group.start}; insert before or after it')
    names = list(names) if names is not None else [f'frame{n + i:03d}' for i in range(k)]
    if len(names) != k:
        raise ValueError(f'{k} frames but {len(names)} names')
    repeat = np.zeros(k, np.int64)  # placeholders (copies of frame 0) until set_frames fills them
    groups = [dataclasses.replace(g, start=g.start + k) if g.start >= at else g for g in data.frame_groups]
    grown = dataclasses.replace(
        data,
        frame_verts=np.insert(np.asarray(data.frame_verts), at, np.asarray(data.frame_verts)[repeat], axis=0),
        frame_scale=np.insert(np.asarray(data.frame_scale), at, np.asarray(data.frame_scale)[repeat], axis=0),
        frame_translate=np.insert(np.asarray(data.frame_translate), at, np.asarray(data.frame_translate)[repeat], axis=0),
        frame_names=np.insert(np.asarray(data.frame_names), at, encode_names(names)),
        frame_groups=groups,
    )
    return set_frames(grown, topology, range(at, at + k), points)


def remove_frames(data: AliasData, frames) -> ModelData:
    """Remove frames; frame groups lose those members, and go when they have none left."""
    index = np.unique(frame_indices(frames, data.num_frames))
    keep = np.ones(data.num_frames, bool)
    keep[index] = False
    if not keep.any():
        raise ValueError(f'{data.source}: a model keeps at least one frame')
    before = np.concatenate([[0], np.cumsum(keep)])  # kept frames before each frame
    groups = []
    for group in data.frame_groups:
        members = keep[group.start : group.start + group.count]
        if members.any():
            intervals = np.asarray(group.intervals)[members]
            groups.append(FrameGroup(int(before[group.start]), int(members.sum()), intervals))
    return rebuild(
        data,
        frame_verts=np.asarray(data.frame_verts)[keep],
        frame_scale=np.asarray(data.frame_scale)[keep],
        frame_translate=np.asarray(data.frame_translate)[keep],
        frame_names=np.asarray(data.frame_names)[keep],
        frame_groups=groups,
    )


def rename_frames(data: AliasData, names: dict[int, str]) -> ModelData:
    """Give frames new names (each at most 15 bytes of Latin-1)."""
    raw = np.array(data.frame_names)
    for frame, name in names.items():
        raw[int(frame_indices([frame], data.num_frames)[0])] = encode_names([name])[0]
    return rebuild(data, frame_names=raw)


def set_frame_groups(data: AliasData, groups: Sequence) -> ModelData:
    """Replace an MDL's frame groups by ``FrameGroup`` or ``(start, count, intervals)`` entries."""
    if not data.timed_groups:
        raise ValueError(f'{data.source}: only MDL models have frame groups; an MD2 groups frames by name')
    made = []
    for group in groups:
        if not isinstance(group, FrameGroup):
            start, count, intervals = group
            group = FrameGroup(int(start), int(count), np.asarray(intervals, np.float32).reshape(-1))
        made.append(group)
    return rebuild(data, frame_groups=sorted(made, key=lambda g: g.start))


def set_texcoords(data: AliasData, topology: Topology, texcoords: np.ndarray) -> ModelData:
    """New texture coordinates ``(points, 2)``, ``(u, v)`` with ``v`` from the bottom, for the model's points."""
    uv = np.asarray(texcoords, np.float64)
    if topology.corner_points is None:
        raise ValueError(f'{data.source}: texture coordinates are set on a model read from its triangles (glcmds=False)')
    if uv.shape != (len(topology.point_vertex), 2):
        raise ValueError(f'texture coordinates are ({len(topology.point_vertex)}, 2) for this model, not {uv.shape}')
    if not np.isfinite(uv).all():
        raise ValueError('texture coordinates must be finite numbers')
    return rebuild(data, triangle_st=skin_pixels(uv[topology.corner_points], data.skin_width, data.skin_height))


def set_skin(data: AliasData, skins: ModelSkins, index: int, image: Any, name: str | None = None) -> tuple[ModelData, dict]:
    """Replace or add (``index == len(skins)``) a skin; returns the new data and the MD2 images to write."""
    count = len(skins)
    if not 0 <= index <= count:
        raise IndexError(f'{data.source}: skin {index} out of range; the model has {count} (use {count} to add one)')
    picture = image_array(image)
    height, width = picture.shape[:2]
    changes: dict[str, Any] = {}
    if (width, height) != (data.skin_width, data.skin_height):
        if count > 1 or (count == 1 and index != 0):
            raise ValueError(
                f"{data.source}: skin is {width} x {height}, the model's skins are "
                f'{data.skin_width} x {data.skin_height}; every skin of a model has one size'
            )
        # The only skin changes size: texture coordinates follow it.
        factor = np.array([width / max(data.skin_width, 1), height / max(data.skin_height, 1)])
        changes.update(skin_width=width, skin_height=height, triangle_st=np.rint(data.triangle_st * factor).astype(np.int32))
    images = {}
    if data.palette_skins:
        pictures = list(data.skins)
        entry = SkinPicture(palette_indices(picture, skins.palette)[None])
        pictures[index : index + 1] = [entry]
        changes['skins'] = pictures
    else:
        if picture.ndim == 2:
            picture = QUAKE_PALETTE[picture]
        names = list(data.skin_names)
        default = names[index] if index < count else f'skin{index}'
        chosen = name if name is not None else str(Path(default).with_suffix('.png')).replace('\\', '/')
        names[index : index + 1] = [chosen]
        changes['skin_names'] = names
        images[chosen] = picture
    return rebuild(data, **changes), images


# -- new models ---------------------------------------------------------------------------


def from_frames(
    frames: pv.DataSet | Sequence[pv.DataSet],
    format: str = 'md2',
    *,
    skin: Any = None,
    names: Sequence[str] | None = None,
    skin_name: str = 'skin.png',
) -> tuple[ModelData, dict]:
    """The data of a new model from one mesh or a sequence of meshes with the same connectivity.

    :meth:`QuakeModel.from_frames <pyvista_quake.QuakeModel.from_frames>` makes
    the model of it.

    Parameters
    ----------
    frames : pyvista.DataSet or sequence of them
        The frames.  Polygons are triangulated; other data sets give their
        surface.  Texture coordinates are used when present, and point normals
        (``Normals``) when present; otherwise normals come from the geometry.
    format : str, default: 'md2'
        ``'md2'`` or ``'mdl'``.
    skin : path, PIL image or array, optional
        The skin.  By default, the Quake skin a mesh read by this package
        carries (``mesh.quake``), else none (an MDL then gets a grey skin).
    names : sequence of str, optional
        Frame names (at most 15 bytes each); ``frame000``... by default.
    skin_name : str, default: 'skin.png'
        The name an MD2 gives its skin image (saving writes it beside the model).

    Returns
    -------
    tuple
        ``(data, images)``: the new model's data, already encoded (what it
        shows is what saving writes), and the skin images an MD2 names.

    Raises
    ------
    ValueError
        For no frames, frames of different connectivity, no triangles or
        points, or a model the format cannot hold.

    """
    if format not in FORMATS:
        raise ValueError(f'unknown format {format!r}; use one of {sorted(FORMATS)}')
    meshes = _triangle_meshes(frames)
    first = meshes[0]
    triangles = first.regular_faces.astype(np.int64)
    positions = np.stack([np.asarray(m.points, np.float32) for m in meshes])
    normals = None
    if all(m.point_data.get('Normals') is not None for m in meshes):
        normals = np.stack([np.asarray(m.point_data['Normals'], np.float32) for m in meshes])
    picture = image_array(skin) if skin is not None else _carried_skin(first)
    uv = first.active_texture_coordinates
    if picture is not None:
        size = picture.shape[1], picture.shape[0]
    else:
        # Frames read with skin=None still name their skin's size: the texture coordinates count in it.
        size = _carried_skin_size(first) or DEFAULT_SKIN_SIZE
    st = np.zeros((len(triangles), 3, 2), np.int64) if uv is None else skin_pixels(np.asarray(uv)[triangles], *size)
    names = list(names) if names is not None else [f'frame{i:03d}' for i in range(len(meshes))]
    if len(names) != len(meshes):
        raise ValueError(f'{len(meshes)} frames but {len(names)} names')
    # VTK winds anticlockwise seen from outside; the files clockwise.
    return new_data(format, positions, normals, triangles[:, ::-1], st[:, ::-1], size, picture, names, skin_name, carried=_carried_header(first))


def convert(data: AliasData, skins: ModelSkins, format: str, skin_name: str = 'skin.png') -> tuple[ModelData, dict]:
    """The data of the same model in another format, and the skin images it names.

    Its first skin is converted too (an MD2 names it ``skin_name``); MDL frame
    groups become plain frames.
    """
    light = np.minimum(data.frame_verts[..., 3], len(VERTEX_NORMALS) - 1)
    picture = skins.image(0) if len(skins) or not data.palette_skins else None
    size = (data.skin_width, data.skin_height)
    if FORMATS[format].palette and picture is not None:
        if min(size) > 0:
            # Quake II stretches a skin image of any size over the header's skin size,
            # in whose pixels the texture coordinates count; an MDL embeds its skin at
            # exactly that size.
            picture = resized(picture, *size)
        else:
            size = (picture.shape[1], picture.shape[0])
    with np.errstate(all='ignore'):
        return new_data(
            format,
            FrameDecoder(data, np.arange(data.num_vertices)).vertex_positions(),
            VERTEX_NORMALS[light],
            data.triangle_vertices,
            data.triangle_st,
            size,
            picture,
            data.decoded_frame_names(),
            skin_name,
        )


def new_data(
    format: str,
    positions: np.ndarray,
    normals: np.ndarray | None,
    triangles: np.ndarray,
    st: np.ndarray,
    skin_size: tuple[int, int],
    picture: np.ndarray | None,
    names: Sequence[str],
    skin_name: str = 'skin.png',
    carried: dict | None = None,
) -> tuple[ModelData, dict]:
    """Encoded data of a new model from float frames (file corner order, pixel ``st``).

    ``carried`` gives an MDL's ``flags``, ``synctype`` and ``eyeposition``
    (zero by default).
    """
    frames, vertices = positions.shape[:2]
    if vertices < 1 or len(triangles) < 1:
        raise ValueError('a Quake model needs at least one point and one triangle')
    width, height = skin_size
    header: dict[str, Any] = {}
    images = {}
    skins: list[SkinPicture] = []
    skin_names: list[str] = []
    if FORMATS[format].palette:
        if picture is None:
            grey = palette_indices(np.full((1, 1, 3), 128, np.uint8), QUAKE_PALETTE)[0, 0]
            picture = np.full((height, width), grey, np.uint8)
        skins = [SkinPicture(palette_indices(picture, QUAKE_PALETTE)[None])]
        corners = positions[0][triangles]
        area = np.linalg.norm(np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0]), axis=1) / 2
        header = {'eyeposition': (0.0, 0.0, 0.0), 'synctype': 0, 'flags': 0, **(carried or {}), 'size': float(area.mean())}
    elif picture is not None:
        skin_names = [skin_name]
        images = {skin_name: QUAKE_PALETTE[picture] if picture.ndim == 2 else picture}
    placeholder = AliasData(
        format=format,
        source='<new model>',
        header=header,
        skin_width=int(width),
        skin_height=int(height),
        frame_verts=np.zeros((frames, vertices, 4), np.uint8),
        frame_scale=np.zeros((frames, 3), np.float32),
        frame_translate=np.zeros((frames, 3), np.float32),
        frame_names=encode_names(names),
        triangle_vertices=np.asarray(triangles, np.int64),
        triangle_st=np.asarray(st, np.int64),
        triangle_st_key=np.zeros(np.shape(triangles), np.int64),
        skin_names=skin_names,
        skins=skins,
    )
    return set_frames(placeholder, None, range(frames), list(positions), None if normals is None else list(normals)), images


def encode_names(names: Sequence[str]) -> np.ndarray:
    """Frame names as the files' 16-byte fields.

    Raises
    ------
    ValueError
        For a name longer than 15 bytes of Latin-1.

    """
    raw = []
    for name in names:
        encoded = str(name).encode('latin-1')
        if len(encoded) >= FRAME_NAME_BYTES:
            raise ValueError(f'frame name {name!r} is longer than {FRAME_NAME_BYTES - 1} bytes')
        raw.append(encoded)
    return np.array(raw, f'S{FRAME_NAME_BYTES}').reshape(len(raw))


def _to_vertices(data: AliasData, topology: Topology | None, given, current, what: str) -> np.ndarray:
    """``(vertices, 3)`` from vertex-shaped or point-shaped values (or a PolyData's points).

    ``current()`` gives the values of vertices no point names (made only when needed).
    """
    if isinstance(given, pv.DataSet):
        given = given.points
    values = np.asarray(given, np.float32)
    vertices = data.num_vertices
    if values.ndim == 2 and values.shape == (vertices, 3):
        return values
    if topology is not None and values.shape == (len(topology.point_vertex), 3):
        out = np.array(current(), np.float32)
        out[topology.point_vertex] = values
        return out
    points = '' if topology is None else f' or ({len(topology.point_vertex)}, 3) for its points'
    raise ValueError(f"{what} of a frame are ({vertices}, 3) for the model's vertices{points}, not {values.shape}")


def _triangle_meshes(frames) -> list[pv.PolyData]:
    if isinstance(frames, pv.MultiBlock):
        frames = [block for block in frames if block is not None]
    elif isinstance(frames, pv.DataSet):
        frames = [frames]
    meshes = []
    for number, mesh in enumerate(frames):
        mesh = pv.wrap(mesh)
        if not isinstance(mesh, pv.PolyData):
            mesh = mesh.extract_surface(algorithm='dataset_surface')
        if mesh.n_points == 0:
            raise ValueError(f'frame {number} has no points')
        if mesh.n_faces == 0:
            raise ValueError(f'frame {number} has no polygons to make triangles of')
        if not mesh.is_all_triangles:
            mesh = mesh.triangulate()
        meshes.append(mesh)
    if not meshes:
        raise ValueError('no frames given')
    first = meshes[0].regular_faces
    for number, mesh in enumerate(meshes[1:], 1):
        if mesh.n_points != meshes[0].n_points or not np.array_equal(mesh.regular_faces, first):
            raise ValueError(f"frame {number} does not share the first frame's points and triangles")
    return meshes


def _carried_skin_size(mesh: pv.PolyData) -> tuple[int, int] | None:
    """The skin size a frame read by this package names in its field data, if any."""
    if keys.SKIN_WIDTH not in mesh.field_data or keys.SKIN_HEIGHT not in mesh.field_data:
        return None
    width, height = int(mesh.field_data[keys.SKIN_WIDTH][0]), int(mesh.field_data[keys.SKIN_HEIGHT][0])
    return (width, height) if width > 0 and height > 0 else None


#: MDL header fields a frame carries in field data that a model made from it keeps.
CARRIED_HEADER = {'flags': int, 'synctype': int, 'eyeposition': tuple}


def _carried_header(mesh: pv.PolyData) -> dict:
    """The MDL header fields a frame read by this package carries (flags, synctype, eye position)."""
    out = {}
    for name, kind in CARRIED_HEADER.items():
        if name in mesh.field_data:
            values = np.asarray(mesh.field_data[name]).ravel()
            out[name] = tuple(float(v) for v in values) if kind is tuple else int(values[0])
    return out


def _carried_skin(mesh: pv.PolyData) -> np.ndarray | None:
    """The skin a frame read by this package carries in its field data, if any."""
    if keys.SKIN_PIXELS in mesh.field_data:
        indices = carried_palette_indices(mesh)
        return None if indices is None else indices[0]
    if keys.SKIN_FILE in mesh.field_data:
        pictures = carried_pictures(mesh)
        return None if pictures is None else pictures[0]
    return None


# -- models of several surfaces (MD3) -----------------------------------------------------


def surfaces_from_frames(frames, names: Sequence[str] | None = None, tags: dict | None = None, shader: str | None = None) -> ModelData:
    """The data of a new MD3 from frames, each a :class:`pyvista.MultiBlock` of surfaces (or one PolyData).

    Every frame has the same surfaces with the same points and triangles.
    Positions are quantised to 1/64 unit, normals (the meshes' ``Normals``, or
    computed) to latitude and longitude bytes; texture coordinates are kept as
    floats; a block's ``surface_name`` field data (else its block name) names it,
    and its ``skin_name`` (else nothing) its shader.

    Parameters
    ----------
    frames : MultiBlock, PolyData or a sequence of them
        The frames.
    names : sequence of str, optional
        Frame names (at most 15 bytes each).
    tags : dict, optional
        ``{name: (origins (frames, 3), axes (frames, 3, 3))}``.
    shader : str, optional
        The image every surface names, instead of the one each block carries.

    Raises
    ------
    ValueError
        For frames that disagree, a coordinate outside ±512, more than
        ``MD3_MAX_SURFACES`` (32) surfaces, or no frames.

    """
    if isinstance(frames, (pv.MultiBlock, pv.DataSet)):
        frames = [frames]
    frames = [f if isinstance(f, pv.MultiBlock) else pv.MultiBlock([f]) for f in frames]
    if not frames:
        raise ValueError('no frames given')
    count = frames[0].n_blocks
    if count > md3.MD3_MAX_SURFACES:  # no tool or engine expects more
        raise ValueError(f'{count} surfaces: an MD3 holds at most {md3.MD3_MAX_SURFACES} (MD3_MAX_SURFACES)')
    if any(f.n_blocks != count for f in frames):
        raise ValueError('every frame needs the same surfaces')
    surfaces = []
    for k in range(count):
        meshes = _triangle_meshes([f[k] for f in frames])
        first = meshes[0]
        positions = np.stack([np.asarray(m.points, np.float32) for m in meshes])
        if all(m.point_data.get('Normals') is not None for m in meshes):
            normals = np.stack([np.asarray(m.point_data['Normals'], np.float32) for m in meshes])
        else:
            normals = vertex_face_normals(positions, first.regular_faces.astype(np.int64))
        uv = first.active_texture_coordinates
        st = np.zeros((first.n_points, 2), np.float32) if uv is None else np.column_stack([uv[:, 0], 1 - uv[:, 1]]).astype(np.float32)
        name = _text_field(first, keys.SURFACE_NAME) or frames[0].keys()[k] or f'surface{k}'
        image = shader if shader is not None else _text_field(first, keys.SKIN_NAME)
        surfaces.append(
            SurfaceData(
                name=name,
                shaders=[image] if image else [],
                triangles=first.regular_faces.astype(np.int32)[:, ::-1],  # VTK's anticlockwise to the file's clockwise
                texcoords=st,
                positions=md3.quantize(positions),
                normals=md3.encode_normals(normals),
            )
        )
    names = list(names) if names is not None else [f'frame{i:03d}' for i in range(len(frames))]
    if len(names) != len(frames):
        raise ValueError(f'{len(frames)} frames but {len(names)} names')
    tag_data = {
        n: Tag(n, np.asarray(o, np.float32).reshape(len(frames), 3), np.asarray(a, np.float32).reshape(len(frames), 3, 3))
        for n, (o, a) in (tags or {}).items()
    }
    data = ModelData(
        surfaces, encode_names(names), tags=tag_data, format='md3', source='<new model>', frame_bounds=np.zeros((len(frames), 2, 3), np.float32)
    )
    record = md3.encode(data)
    return md3.decode(record)


def _text_field(mesh: pv.DataSet, key: str) -> str | None:
    if key not in mesh.field_data:
        return None
    value = mesh.field_data[key]
    return str(value[0]) if len(value) else None


def edit_surfaces(
    data: ModelData,
    *,
    frames: Sequence[int] = (),
    positions: Sequence[Sequence[np.ndarray]] = (),
    normals: Sequence[Sequence[np.ndarray | None]] | None = None,
    keep: np.ndarray | None = None,
    names: dict[int, str] | None = None,
) -> ModelData:
    """New MD3 data with some frames changed, dropped or renamed, encoded and read back.

    Parameters
    ----------
    data : ModelData
        The model.
    frames, positions, normals : sequences
        Frame numbers and, for each, every surface's ``(vertices, 3)`` positions
        (and normals; by default computed from the geometry).
    keep : numpy.ndarray, optional
        The frames to keep, in order (after the changes).
    names : dict, optional
        New names by frame number (before ``keep``).

    Raises
    ------
    ValueError
        For positions of the wrong shape, or outside what an MD3 holds.

    """
    if any(s.packing is not None for s in data.surfaces):
        data = plain_data(data)  # a third party's packed bytes hold no edit exactly: its points become plain floats
    # The codec stays the surface's: an MD3's shorts and normal bytes, or plain floats (whose normals may stay computed).
    plain = bool(data.surfaces) and all(s.positions.dtype == np.float32 for s in data.surfaces)
    xyz = [np.array(s.positions) for s in data.surfaces]
    packed = [np.array(s.normals) if s.normals is not None else None for s in data.surfaces]
    for k, frame in enumerate(frames):
        if len(positions[k]) != len(data.surfaces):
            raise ValueError(f'a frame of this model has {len(data.surfaces)} surfaces, not {len(positions[k])}')
        for n, surface in enumerate(data.surfaces):
            points = np.asarray(positions[k][n], np.float32)
            if points.shape != (surface.num_vertices, 3):
                raise ValueError(f'surface {surface.name!r} has {surface.num_vertices} vertices, not {points.shape}')
            xyz[n][frame] = points if plain else md3.quantize(points)
            given = normals[k][n] if normals is not None else None
            stored = packed[n]
            if given is not None and stored is None:
                stored = packed[n] = surface_normals(surface, slice(None))
            if stored is None:
                continue  # plain floats with no normals of their own: computed when drawn
            if given is None:  # computed from the geometry
                given = vertex_face_normals(points[None], np.asarray(surface.triangles, np.int64)[:, ::-1])[0]
            stored[frame] = np.asarray(given, np.float32) if plain else md3.encode_normals(given)
    frame_names = np.array(data.frame_names)
    for frame, name in (names or {}).items():
        frame_names[frame] = encode_names([name])[0]
    order = np.arange(data.num_frames) if keep is None else np.asarray(keep, np.int64)
    if not len(order):
        raise ValueError('a model keeps at least one frame')
    surfaces = [
        dataclasses.replace(
            s,
            positions=xyz[n][order],
            normals=None if p is None else p[order],
            frame_pictures=_each_kept(s.frame_pictures, order),
            frame_images=_each_kept(s.frame_images, order),
        )
        for n, (s, p) in enumerate(zip(data.surfaces, packed))
    ]
    tags = {name: Tag(name, t.origins[order], t.axes[order]) for name, t in data.tags.items()}
    # A frame group times the frames it was read with: frames moved or dropped leave none.
    groups = data.frame_groups if np.array_equal(order, np.arange(data.num_frames)) else []
    if plain:  # no bytes to round-trip through: the data is the model
        return dataclasses.replace(
            data, surfaces=surfaces, tags=tags, frame_names=frame_names[order], frame_bounds=None, file=None, frame_groups=groups
        )
    new = dataclasses.replace(data, surfaces=surfaces, tags=tags, frame_names=frame_names[order], frame_bounds=data.frame_bounds[order])
    return md3.decode(md3.parse(md3.write(md3.encode(new, data.file)), data.source))


def _each_kept(per_frame: list | None, order: np.ndarray) -> list | None:
    """A surface's list of one entry a frame (its pictures, its image names), for the frames kept in ``order``."""
    return None if per_frame is None else [per_frame[k] for k in order.tolist()]


def surface_arrays(frame, count: int) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    """Every surface's positions and normals (``None``: computed) of a frame: a MultiBlock, or a list of arrays."""
    if isinstance(frame, pv.MultiBlock):
        return [np.asarray(b.points) for b in frame], [b.point_data.get('Normals') for b in frame]
    return list(frame), [None] * count


def add_surface_frames(data: ModelData, frames: Sequence, names: Sequence[str] | None = None, at: int | None = None) -> ModelData:
    """New MD3 data with frames inserted at ``at`` (the end by default), encoded and read back.

    Each of ``frames`` is every surface's ``(vertices, 3)`` positions (or a
    MultiBlock of the surfaces); normals come from its ``Normals`` or the
    geometry.  Tags keep the values of the frame before the insertion (of
    the first frame, inserted at 0).
    """
    at = data.num_frames if at is None else int(at)
    if not 0 <= at <= data.num_frames:
        raise ValueError(f'at must be 0 to {data.num_frames}, not {at}')
    names = list(names) if names is not None else [f'frame{data.num_frames + k:03d}' for k in range(len(frames))]
    if len(names) != len(frames):
        raise ValueError(f'{len(frames)} frames but {len(names)} names')
    count = len(frames)
    order = np.concatenate([np.arange(at), np.full(count, max(at - 1, 0)), np.arange(at, data.num_frames)])
    grown = edit_surfaces(data, keep=order) if count else data  # the new frames start as copies, then are set
    arrays = [surface_arrays(frame, len(data.surfaces)) for frame in frames]
    positions, normals = [a[0] for a in arrays], [a[1] for a in arrays]
    return edit_surfaces(
        grown, frames=list(range(at, at + count)), positions=positions, normals=normals, names={at + k: name for k, name in enumerate(names)}
    )


def one_surface_to_md3(model, skin_name: str) -> tuple[ModelData, dict]:
    """An MD2's or MDL's model (its frames) as an MD3's data: every frame, positions to 1/64.

    The surface is named after the model's file and names its skin
    ``skin_name``, which saving writes beside the MD3 as PNG; its tags (a
    ``.tag`` file's) come along.

    Raises
    ------
    ValueError
        For a coordinate outside what an MD3 holds (about ±512).

    """
    picture = model.surfaces[0].image()
    name = model.search.model_stem() or 'model'
    frames = [pv.MultiBlock({name or 'model': model.mesh(k)}) for k in range(len(model))]
    tags = {t.name: (t.origins, t.axes) for t in model.tags.values()}
    data = surfaces_from_frames(frames, model.frame_names, tags, shader=skin_name if picture is not None else '')
    return data, ({skin_name: picture} if picture is not None else {})


def surfaces_to_md3(model) -> tuple[ModelData, dict]:
    """A model of plain float surfaces (a level's, a third party's format's) as an MD3's data: every frame, positions to 1/64."""
    frames = [model.blocks(k) for k in range(len(model))]
    tags = {t.name: (t.origins, t.axes) for t in model.tags.values()}
    return surfaces_from_frames(frames, model.frame_names, tags), {}


def plain_data(data: ModelData) -> ModelData:
    """The data with every surface's positions and normals as plain ``float32``: what a third party's writer takes."""
    every = slice(None)
    # A packed surface's decode gives its points' positions (a vertex on a seam is several points): its
    # texture coordinates and triangles are the points' already, so the point map goes with the packing.
    surfaces = [
        dataclasses.replace(
            s, positions=surface_positions(s, every, data.source), normals=surface_normals(s, every, data.source), packing=None, point_vertex=None
        )
        for s in data.surfaces
    ]
    packed = any(s.packing is not None for s in data.surfaces)  # boxes of plain floats only: made now, as the floats are
    return dataclasses.replace(data, surfaces=surfaces, file=None, frame_bounds=None if packed else data.frame_bounds)


def md3_to_one_surface(model, format: str, skin_name: str) -> tuple[ModelData, dict]:
    """An MD3's model (its frames) of one surface as an MD2's or MDL's data (see :func:`from_frames`).

    Raises
    ------
    ValueError
        For an MD3 of several surfaces (an MD2 or MDL holds one) or none.

    """
    count = len(model.data.surfaces)
    if count != 1:
        raise ValueError(
            f'{model.source}: an {format.upper()} holds one surface and this MD3 has {count} '
            f'({", ".join(model.surface_names) or "none"}); save it as .md3'
        )
    frames = [model.frame(k)[0] for k in range(len(model))]
    return from_frames(frames, format, skin=model.surfaces[0].image(), names=model.frame_names, skin_name=skin_name)
