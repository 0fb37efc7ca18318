"""The format-neutral content of a Quake model, as plain numpy arrays.

Both format parsers (:mod:`pyvista_quake.formats.md2` and
:mod:`pyvista_quake.formats.mdl`) produce a :class:`ModelData`; everything
downstream (:class:`pyvista_quake.QuakeModel`, readers, textures, export)
works on this one type and never on bytes.  Frames stay packed: four bytes a
vertex, usually a view into the file's own buffer.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import Callable

import numpy as np


def cstrings(names: np.ndarray) -> list[str]:
    """Decode fixed-size, zero-terminated byte strings; what follows the first zero byte is junk."""
    # numpy's S dtype already drops trailing zero bytes; cut at the first one left.
    return [raw.split(b'\0', 1)[0].decode('latin-1') for raw in names.tolist()]


@dataclass(frozen=True)
class SkinPicture:
    """One embedded skin: a group of one or more palette-indexed pictures.

    Attributes
    ----------
    pictures : numpy.ndarray
        ``uint8`` palette indices of shape ``(n, skinheight, skinwidth)``,
        rows from the top, as stored.
    times : numpy.ndarray or None
        For an animated group, the moment (seconds) each picture ends,
        shape ``(n,)``; ``None`` for a single picture.

    """

    pictures: np.ndarray
    times: np.ndarray | None = None


@dataclass(frozen=True)
class FrameGroup:
    """A run of frames that the game plays by itself (an MDL frame group).

    Attributes
    ----------
    start : int
        Index of the group's first frame in the model.
    count : int
        Number of frames in the group.
    intervals : numpy.ndarray
        When each frame ends, in seconds from the group's start, shape ``(count,)``.

    """

    start: int
    count: int
    intervals: np.ndarray


@dataclass(frozen=True)
class GLCommand:
    """One OpenGL command of an MD2: a triangle strip or fan.

    Attributes
    ----------
    kind : str
        ``'strip'`` or ``'fan'``.
    vertices : numpy.ndarray
        ``int32`` vertex numbers, in drawing order.
    texcoords : numpy.ndarray
        ``float32`` ``(s, t)`` pairs in 0..1 with ``t`` from the top of the skin.

    """

    kind: str
    vertices: np.ndarray
    texcoords: np.ndarray


@dataclass
class ModelData:
    """Everything a Quake model file holds, format-neutral.

    Attributes
    ----------
    format : str
        ``'md2'`` or ``'mdl'``.
    source : str
        Where the bytes came from, for messages.
    header : dict
        Every header field, named as in the format's spec, plus readable
        names where the spec gives them (MDL ``flag_names``, ``synctype_name``).
    skin_width, skin_height : int
        Skin size in pixels.
    skin_names : list of str
        Image paths an MD2 names (empty for MDL).
    skins : list of SkinPicture
        Pictures an MDL embeds (empty for MD2).
    frame_verts : numpy.ndarray
        Packed vertices, ``uint8`` of shape ``(frames, vertices, 4)``: x, y, z
        and ``lightnormalindex``.  Usually a view into the file's buffer.
    frame_scale, frame_translate : numpy.ndarray
        ``float32`` of shape ``(frames, 3)``: position is ``v * scale + translate``.
    frame_names : numpy.ndarray
        Raw 16-byte frame names, ``S16`` of shape ``(frames,)``.
    triangle_vertices : numpy.ndarray
        ``int32`` ``(triangles, 3)``: the file's vertex number of each corner,
        in the file's corner order.
    triangle_st : numpy.ndarray
        ``int32`` ``(triangles, 3, 2)``: each corner's ``(s, t)`` in skin pixels,
        ``t`` from the top, seam rule already applied.
    triangle_st_key : numpy.ndarray
        ``int64`` ``(triangles, 3)``: which texture coordinate each corner uses
        (an MD2 ``index_st``; for an MDL the vertex and its seam side).  Two
        corners with the same vertex and key share one mesh point.
    frame_groups : list of FrameGroup
        Frame groups with their own timing (MDL only).
    gl_commands : callable or None
        Returns the parsed OpenGL command list (MD2); parsing is deferred until
        someone asks, and it raises :class:`~pyvista_quake.QuakeFormatError`
        for a malformed list.
    trailing : bytes
        Data after the last section (Quake ME's ``QMEX`` block, for one).
    file : object
        The format's records this data was read from (``MD2File`` or
        ``MDLFile``): every byte of the file, written back as it was.

    """

    format: str
    source: str
    header: dict[str, Any]
    skin_width: int
    skin_height: int
    frame_verts: np.ndarray
    frame_scale: np.ndarray
    frame_translate: np.ndarray
    frame_names: np.ndarray
    triangle_vertices: np.ndarray
    triangle_st: np.ndarray
    triangle_st_key: np.ndarray
    skin_names: list[str] = field(default_factory=list)
    skins: list[SkinPicture] = field(default_factory=list)
    frame_groups: list[FrameGroup] = field(default_factory=list)
    gl_commands: Callable[[], list[GLCommand]] | None = None
    trailing: bytes = b''
    file: Any = None

    def __repr__(self) -> str:
        """Return a summary: the arrays and records hold the whole file (an MDL's reads as tens of kB)."""
        skins = len(self.skins) if self.format == 'mdl' else len(self.skin_names)
        return (
            f'ModelData({self.format.upper()} {self.source!r}, {self.num_frames} frames, {self.num_vertices} vertices, '
            f'{len(self.triangle_vertices)} triangles, {skins} skin{"" if skins == 1 else "s"} of {self.skin_width} x {self.skin_height})'
        )

    @property
    def num_frames(self) -> int:
        """Number of frames, each picture of a frame group counted."""
        return self.frame_verts.shape[0]

    def frame_name(self, index: int) -> str:
        """Decode one frame's name."""
        return cstrings(self.frame_names[index : index + 1 or None])[0]

    def decoded_frame_names(self) -> list[str]:
        """Decode every frame's name."""
        return cstrings(self.frame_names)

    @property
    def num_vertices(self) -> int:
        """Number of vertices in each frame."""
        return self.frame_verts.shape[1]


# -- models of several surfaces (Quake III's MD3) -----------------------------------------


@dataclass(frozen=True)
class Tag:
    """An attachment point of every frame: where another model is placed (``tag_torso``, ``tag_weapon``).

    Attributes
    ----------
    name : str
        The tag's name.
    origins : numpy.ndarray
        ``float32`` ``(frames, 3)``: the point, in the model's axes.
    axes : numpy.ndarray
        ``float32`` ``(frames, 3, 3)``: the tag's x, y and z axes as rows, as stored.

    """

    name: str
    origins: np.ndarray
    axes: np.ndarray


@dataclass
class SurfaceData:
    """One surface of a model: its own vertices, texture coordinates, triangles and image.

    Attributes
    ----------
    name : str
        The surface's name (``.skin`` files map it to an image; names may repeat).
    shaders : list of str
        Shader (or image) names the file gives the surface.
    triangles : numpy.ndarray
        ``int32`` ``(triangles, 3)``: vertex numbers, in the file's corner order.
    texcoords : numpy.ndarray
        ``float32`` ``(vertices, 2)``: ``(s, t)`` of each vertex, ``t`` from the top of the image.
    frame_xyz : numpy.ndarray
        The positions' codec, told by the dtype: ``int16`` ``(frames, vertices, 3)``, positions in
        1/64 units (an MD3's, usually a view of the file); or ``float32`` ``(frames, vertices, 3)``,
        plain positions (levels, and formats registered by third parties).
    frame_normals : numpy.ndarray
        ``uint16`` ``(frames, vertices)``: each normal's latitude and longitude bytes (``lat << 8 | lng``,
        MD3); or ``float32`` ``(frames, vertices, 3)`` unit normals.
    flags : int
        The surface's flags, as stored.
    brush_model : int
        A level's brush model the surface belongs to: 0 the world, N the entity model ``*N``.
    kinds : frozenset of str
        What ``hide=`` calls the surface (``'sky'``, ``'nodraw'``, ``'trigger'``, ``'clip'``), as its game tells it.
    point_arrays : dict of str to numpy.ndarray
        Arrays of one value a vertex that every frame shares (a level's ``lightmap`` coordinates).
    texture_size : tuple of int or None
        Where ``texcoords`` are in texels: ``None`` when they are already 0..1, or when the image's
        own size divides them (``texels=True``).
    texels : bool
        Whether ``texcoords`` are in texels of the image the game finds (Quake II, UFO: AI levels):
        the model divides them by its size.
    picture : numpy.ndarray or None
        An embedded palette-indexed image (a Quake 1 level's miptex), rows from the top.

    """

    name: str
    shaders: list[str]
    triangles: np.ndarray
    texcoords: np.ndarray
    frame_xyz: np.ndarray
    frame_normals: np.ndarray
    flags: int = 0
    brush_model: int = 0
    kinds: frozenset[str] = frozenset()
    point_arrays: dict[str, np.ndarray] = field(default_factory=dict)
    texture_size: tuple[int, int] | None = None
    texels: bool = False
    picture: np.ndarray | None = None

    @property
    def num_vertices(self) -> int:
        """Vertices of the surface."""
        return self.frame_xyz.shape[1]


@dataclass
class SurfacesData:
    """Everything a model of several surfaces holds (an MD3), format-neutral.

    A model with one surface (MD2, MDL) is :class:`ModelData`; this is its
    counterpart for several, each a :class:`SurfaceData`, with per-frame tags.

    Attributes
    ----------
    format : str
        ``'md3'``.
    source : str
        Where the bytes came from, for messages.
    header : dict
        Every header field, named as in the format's spec.
    frame_names : numpy.ndarray
        Raw 16-byte frame names, ``S16`` of shape ``(frames,)``.
    frame_bounds : numpy.ndarray
        ``float32`` ``(frames, 2, 3)``: each frame's stored bounding box (mins, maxs).
    surfaces : list of SurfaceData
        The surfaces, in file order.
    tags : dict of str to Tag
        Tags by name.
    file : object
        The format's records this data was read from: written back as they were.
    level : LevelData or None
        A level's own part: its entities and lightmaps (``None`` for a model).

    """

    format: str
    source: str
    header: dict[str, Any]
    frame_names: np.ndarray
    frame_bounds: np.ndarray
    surfaces: list[SurfaceData]
    tags: dict[str, Tag] = field(default_factory=dict)
    file: Any = None
    level: LevelData | None = None

    def __repr__(self) -> str:
        """Return a one-line summary."""
        return (f'SurfacesData({self.format.upper()} {self.source!r}, {self.num_frames} frames, '
                f'{len(self.surfaces)} surfaces, {len(self.tags)} tags)')  # fmt: skip

    @property
    def num_frames(self) -> int:
        """Number of frames."""
        return len(self.frame_names)

    def frame_name(self, index: int) -> str:
        """Decode one frame's name."""
        return cstrings(self.frame_names[index : index + 1 or None])[0]

    def decoded_frame_names(self) -> list[str]:
        """Decode every frame's name."""
        return cstrings(self.frame_names)


@dataclass
class LevelData:
    """What a level (BSP) holds beyond its surfaces.

    Attributes
    ----------
    game : str
        ``'quake3'``, ``'bsp29'`` or ``'bsp2'`` (Quake 1), ``'quake2'`` or ``'ufoai'``.
    entities : list of dict
        The entities in file order, each its keys and values (Quake III keeps the first of a
        repeated key, as ``G_SpawnString`` finds it; the others the last).
    lightmaps : numpy.ndarray or None
        Quake III's embedded lightmap pages, ``uint8`` ``(pages, 128, 128, 3)``, first row ``t = 0``.
    brush_models : int
        Brush models the file holds, the world counted as one.
    external_lightmaps : bool
        Whether lit faces name pages the file does not hold (q3map2's ``maps/NAME/lm_NNNN.tga``).

    """

    game: str
    entities: list[dict[str, str]]
    lightmaps: np.ndarray | None = None
    brush_models: int = 1
    external_lightmaps: bool = False


# -- skeletal models (IQM, Doom 3's MD5) -------------------------------------------------


@dataclass(frozen=True)
class Joint:
    """One joint of a skeleton.

    Attributes
    ----------
    name : str
        The joint's name.
    parent : int
        The parent joint's number, ``-1`` for a root.

    """

    name: str
    parent: int


@dataclass
class SkinnedMesh:
    """One mesh of a skeletal model: vertices in the bind pose, the joints that move them, triangles.

    Attributes
    ----------
    name : str
        The mesh's name.
    shaders : list of str
        Its material (IQM) or shader (MD5) name, as stored.
    triangles : numpy.ndarray
        ``int32`` ``(triangles, 3)``: the mesh's own vertex numbers, in the file's corner order.
    texcoords : numpy.ndarray
        ``float32`` ``(vertices, 2)``: ``(s, t)``, ``t`` from the top of the image.
    positions : numpy.ndarray
        ``float32`` ``(vertices, 3)``: the bind pose.
    normals : numpy.ndarray or None
        ``float32`` ``(vertices, 3)`` as stored (IQM); ``None`` where the file has none (MD5).
    joints : numpy.ndarray
        ``int32`` ``(vertices, k)``: each vertex's joints (padding weights are 0).
    weights : numpy.ndarray
        ``float32`` ``(vertices, k)``: each joint's share of the vertex.
    offsets : numpy.ndarray or None
        ``float32`` ``(vertices, k, 3)``: MD5's weight positions in their joints' own space;
        ``None`` for IQM, whose vertices move by the joints' change from the bind pose.

    """

    name: str
    shaders: list[str]
    triangles: np.ndarray
    texcoords: np.ndarray
    positions: np.ndarray
    normals: np.ndarray | None
    joints: np.ndarray
    weights: np.ndarray
    offsets: np.ndarray | None = None

    @property
    def num_vertices(self) -> int:
        """Vertices of the mesh."""
        return len(self.positions)


@dataclass(frozen=True)
class Clip:
    """One animation stored in a skeletal file: a run of its frames.

    Attributes
    ----------
    name : str
        The animation's name.
    first : int
        Its first frame in the file's frames.
    count : int
        Its number of frames.
    fps : float
        Frames per second as stored (``0`` where the file gives none).
    loop : bool
        Whether it loops (IQM's ``IQM_LOOP``).

    """

    name: str
    first: int
    count: int
    fps: float
    loop: bool = False


@dataclass
class SkeletalAnimationData:
    """The animation a file holds for a skeleton: each joint's local transform at each frame.

    Attributes
    ----------
    source : str
        The file, for messages.
    joints : list of Joint
        The hierarchy the file gives (names may be empty: IQM pose files name none).
    poses : numpy.ndarray
        ``float64`` ``(frames, joints, 10)``: translation ``xyz``, rotation quaternion
        ``xyzw``, scale ``xyz``, each relative to the parent joint.
    clips : list of Clip
        The animations, as runs of ``poses``.
    blend : str
        How the game blends two frames: ``'matrix'`` (the IQM demo: joint matrices
        element-wise) or ``'slerp'`` (Doom 3: translations linearly, rotations by slerp).
    bounds : numpy.ndarray or None
        The stored boxes, ``float32`` ``(boxes, 2, 3)`` (never used to draw: exporters box other things).
    pose_parents : numpy.ndarray or None
        ``int`` ``(joints,)``: the parent each pose names (IQM), which its frames are composed with
        (``base[pose.parent] · local · inverse_base[j]``, as the IQM demo and Cube 2 do), even where
        they differ from the mesh's; ``None``: the joints' own parents.

    """

    source: str
    joints: list[Joint]
    poses: np.ndarray
    clips: list[Clip]
    blend: str
    bounds: np.ndarray | None = None
    pose_parents: np.ndarray | None = None

    @property
    def num_frames(self) -> int:
        """Frames of every clip."""
        return len(self.poses)


@dataclass
class SkeletonData:
    """Everything a skeletal model holds (IQM, MD5), format-neutral.

    Attributes
    ----------
    format : str
        ``'iqm'`` or ``'md5'``.
    source : str
        Where the bytes came from, for messages.
    header : dict
        The file's header fields, named as in its spec.
    joints : list of Joint
        The skeleton, in file order (parents first).
    bind : numpy.ndarray
        ``float64`` ``(joints, 4, 4)``: each joint's bind pose in object space.
    surfaces : list of SkinnedMesh
        The meshes, in file order.
    animation : SkeletalAnimationData or None
        The file's own frames (an IQM's), then any attached ones.
    file : object
        The format's records (written back as they were).

    """

    format: str
    source: str
    header: dict[str, Any]
    joints: list[Joint]
    bind: np.ndarray
    surfaces: list[SkinnedMesh]
    animation: SkeletalAnimationData | None = None
    file: Any = None

    def __repr__(self) -> str:
        """Return a one-line summary."""
        frames = self.animation.num_frames if self.animation is not None else 0
        return f'SkeletonData({self.format.upper()} {self.source!r}, {len(self.joints)} joints, {len(self.surfaces)} meshes, {frames} frames)'
