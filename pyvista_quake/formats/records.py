"""The format-neutral content of a model, as plain numpy arrays.

A model is a list of surfaces (:class:`SurfaceData` in a :class:`ModelData`)
whose positions come from a codec: packed bytes with a scale and translate
(MD2, MDL: :class:`Packing`), int16 shorts (MD3), plain floats (levels, third
parties' formats) or skinned joints (IQM, MD5: :class:`JointWeights` and the
model's :class:`Skeleton`).  What belongs to one format is a typed part of the
model's record: an MD2's or MDL's skins, frame groups and OpenGL commands
(:class:`AliasData`, ``ModelData.alias``), a level's entities and lightmaps
(:class:`LevelData`), a skeleton.  Everything downstream
(:class:`pyvista_quake.QuakeModel`, readers, textures, export) works on these
records and never on bytes.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import Callable
import warnings

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
class AliasData:
    """What an MD2 or MDL holds beyond its one surface: the part ``ModelData.alias`` of its record.

    The frames' packed bytes are here as the file stores them (``frame_verts``); the
    model's :class:`SurfaceData` holds the same bytes as its :class:`Packing` codec,
    with the mesh's points, texture coordinates and triangles.

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
        skins = len(self.skins) if self.palette_skins else len(self.skin_names)
        return (
            f'AliasData({self.format.upper()} {self.source!r}, {self.num_frames} frames, {self.num_vertices} vertices, '
            f'{len(self.triangle_vertices)} triangles, {skins} skin{"" if skins == 1 else "s"} of {self.skin_width} x {self.skin_height})'
        )

    @property
    def timed_groups(self) -> bool:
        """Whether the layout holds frame groups with their own timing (MDL)."""
        return self.format == 'mdl'

    @property
    def own_frame_scales(self) -> bool:
        """Whether each frame has its own scale and translate (MD2), not the header's (MDL)."""
        return self.format == 'md2'

    @property
    def palette_skins(self) -> bool:
        """Whether the skins are pictures the file embeds (MDL), not image names (MD2)."""
        return self.format == 'mdl'

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
class Packing:
    """The packed-bytes codec (MD2, MDL): a byte per coordinate, scaled and moved per frame.

    A position is ``v * scale + translate`` (float32); a normal is the entry of Quake's
    162-normal table the fourth byte names (``lightnormalindex``).

    Attributes
    ----------
    verts : numpy.ndarray
        ``uint8`` ``(frames, vertices, 4)``: x, y, z and the normal's index, as stored (usually
        a view of the file's bytes).
    scale, translate : numpy.ndarray
        ``float32`` ``(frames, 3)``.

    """

    verts: np.ndarray
    scale: np.ndarray
    translate: np.ndarray


@dataclass
class SurfaceData:
    """One surface of a model: its own vertices, texture coordinates, triangles and image.

    This is the record a format's reader fills in, the built-in ones and those
    :func:`pyvista_quake.register_format` adds alike.

    Parameters
    ----------
    name : str
        The surface's name (``.skin`` files map it to an image; names may repeat).
    triangles : numpy.ndarray
        ``int`` ``(triangles, 3)``: vertex numbers, each triangle wound clockwise seen from
        its front, as the Quake formats store them.
    texcoords : numpy.ndarray
        ``float32`` ``(vertices, 2)``: ``(s, t)`` of each vertex, ``t`` from the top of the image.
    positions : numpy.ndarray
        Each frame's vertex positions, in the surface's codec, told by the dtype: plain
        ``float32`` ``(frames, vertices, 3)`` (levels, and formats registered by third parties;
        other float types are converted, and one ``(vertices, 3)`` frame is a model of one
        frame); or ``int16`` ``(frames, vertices, 3)`` in 1/64 units (an MD3's, usually a view
        of the file); or ``uint8`` ``(frames, vertices, 3)``, the bytes of a :class:`Packing`
        (MD2, MDL: ``packing.verts[..., :3]``).
    normals : numpy.ndarray or None
        ``float32`` ``(frames, vertices, 3)`` unit normals; or ``uint16`` ``(frames, vertices)``,
        each normal's latitude and longitude bytes (``lat << 8 | lng``, MD3); or ``uint8``
        ``(frames, vertices)``, indices into Quake's 162-normal table (a :class:`Packing`'s
        ``verts[..., 3]``); ``None``: made from the triangles, each vertex the area-weighted
        mean of its faces'.
    shaders : list of str
        Image (or shader) names the file gives the surface, looked up in the game's files as
        the model's are (``models/x/skin.tga``; a missing extension tries ``.tga``, ``.png``, ``.jpg``).
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
    joint_weights : JointWeights or None
        The skinned-joints codec (IQM, MD5): the joints that move each vertex.  ``positions``
        and ``normals`` are then the bind pose, one frame, and the model's
        :attr:`ModelData.skeleton` gives its frames.
    packing : Packing or None
        The packed-bytes codec (MD2, MDL): ``positions`` and ``normals`` are then views of its
        ``verts``, given or not.
    point_vertex : numpy.ndarray or None
        ``int`` ``(points,)``: the stored vertex each of the surface's points takes its position and
        normal from, where a vertex is several points (an MD2's or MDL's on a skin seam); ``texcoords``
        and ``triangles`` are then the points'.  ``None``: each vertex is a point.
    frame_pictures : list of numpy.ndarray or None
        A picture of each frame, the surface showing frame k's at frame k (a sprite's): ``uint8``
        ``(height, width)`` palette indices drawn through the game's palette, or ``(height, width, 4)``
        RGBA, rows from the top; an entry may be ``None`` (a frame with no pixels of its own).
        ``None``: the surface has one image for every frame.
    frame_images : list of str or None
        An image name for each frame, found in the game's files before ``frame_pictures``' own
        pixels (DarkPlaces' replacement images, a Quake II sprite's named images); ``{model}`` in
        a name is the model's own path in the game (``progs/s_explod.spr``).
    holey : bool
        Whether palette index 255 of ``picture`` and ``frame_pictures`` is transparent (Quake's sprites).
    alpha : str or None
        How the file says the surface's image alpha draws (``'opaque'``, ``'cutout'``, ``'blend'``,
        ``'add'``); ``None``: as the game's shaders say.

    """

    name: str
    triangles: np.ndarray
    texcoords: np.ndarray
    positions: np.ndarray
    normals: np.ndarray | None = None
    shaders: list[str] = field(default_factory=list)
    flags: int = 0
    brush_model: int = 0
    kinds: frozenset[str] = frozenset()
    point_arrays: dict[str, np.ndarray] = field(default_factory=dict)
    texture_size: tuple[int, int] | None = None
    texels: bool = False
    picture: np.ndarray | None = None
    joint_weights: JointWeights | None = None
    packing: Packing | None = None
    point_vertex: np.ndarray | None = None
    frame_pictures: list[np.ndarray | None] | None = None
    frame_images: list[str | None] | None = None
    holey: bool = False
    alpha: str | None = None

    def __post_init__(self) -> None:
        """Put plain arrays in the shapes and types the codecs read (no copy when they already are)."""
        if self.packing is not None:
            self._take_packing(self.packing)
        positions = np.asarray(self.positions)
        if positions.dtype == np.uint8 and self.packing is None:
            raise ValueError(f'surface {self.name!r}: uint8 positions are packed bytes: give their packing (scale and translate)')
        if positions.dtype.kind in 'fiu' and positions.dtype not in (np.int16, np.float32, np.uint8):
            positions = positions.astype(np.float32)
        if positions.ndim == 2:
            positions = positions[None]
        if positions.ndim != 3 or positions.shape[-1] != 3:
            raise ValueError(f'surface {self.name!r}: positions must be (frames, vertices, 3), not {positions.shape}')
        self.positions = positions
        if self.normals is not None and self.packing is None:
            normals = np.asarray(self.normals)
            if normals.dtype.kind == 'f' and normals.dtype != np.float32:
                normals = normals.astype(np.float32)
            if normals.dtype == np.float32 and normals.ndim == 2:
                normals = normals[None]
            if normals.shape[:2] != positions.shape[:2]:
                raise ValueError(f'surface {self.name!r}: normals of shape {normals.shape} for positions of {positions.shape}')
            self.normals = normals
        triangles = np.asarray(self.triangles)
        if triangles.dtype != np.int32:
            triangles = triangles.astype(np.int32)
        self.triangles = triangles.reshape(-1, 3)
        texcoords = np.asarray(self.texcoords)
        if texcoords.dtype != np.float32:
            texcoords = texcoords.astype(np.float32)
        self.texcoords = texcoords.reshape(-1, 2)
        if self.point_vertex is not None:
            point_vertex = np.asarray(self.point_vertex).reshape(-1)
            if point_vertex.size and not 0 <= int(point_vertex.min()) <= int(point_vertex.max()) < positions.shape[1]:
                raise ValueError(
                    f'surface {self.name!r}: point_vertex names vertices {int(point_vertex.min())} to '
                    f'{int(point_vertex.max())} of {positions.shape[1]}'
                )
            self.point_vertex = point_vertex.astype(np.int32, copy=False)
        if len(self.texcoords) != self.num_points:
            raise ValueError(f'surface {self.name!r}: {len(self.texcoords)} texture coordinates for {self.num_points} points')
        self.shaders = list(self.shaders)
        for what in ('frame_pictures', 'frame_images'):
            given = getattr(self, what)
            if given is not None and len(given) != positions.shape[0]:
                raise ValueError(f'surface {self.name!r}: {len(given)} {what} for {positions.shape[0]} frames')
        if self.alpha not in (None, 'opaque', 'cutout', 'blend', 'add'):
            raise ValueError(f"surface {self.name!r}: alpha is 'opaque', 'cutout', 'blend', 'add' or None, not {self.alpha!r}")
        skin = self.joint_weights
        if skin is not None:
            offsets = (positions.shape[1], skin.joints.shape[-1], 3) if skin.offsets is not None else None
            if (
                skin.joints.ndim != 2
                or skin.weights.shape != skin.joints.shape
                or len(skin.joints) != positions.shape[1]
                or (offsets is not None and getattr(skin.offsets, 'shape', None) != offsets)
            ):
                raise ValueError(
                    f'surface {self.name!r}: joint_weights of joints {skin.joints.shape}, weights {skin.weights.shape}'
                    f' for {positions.shape[1]} vertices (each (vertices, k); offsets (vertices, k, 3))'
                )

    def _take_packing(self, packing: Packing) -> None:
        """Positions and normals as views of the packed bytes, their scales checked against them."""
        verts = np.asarray(packing.verts)
        if verts.dtype != np.uint8 or verts.ndim != 3 or verts.shape[2] != 4:
            raise ValueError(f'surface {self.name!r}: packing.verts must be uint8 (frames, vertices, 4), not {verts.dtype} {verts.shape}')
        frames = verts.shape[0]
        for what in ('scale', 'translate'):
            if np.shape(getattr(packing, what)) != (frames, 3):
                raise ValueError(f'surface {self.name!r}: packing.{what} of shape {np.shape(getattr(packing, what))} for {frames} frames (frames, 3)')
        self.positions = verts[..., :3]
        self.normals = verts[..., 3]

    @property
    def num_vertices(self) -> int:
        """Vertices of the surface (as stored: several points may share one, see ``point_vertex``)."""
        return self.positions.shape[1]

    @property
    def num_points(self) -> int:
        """Points of the surface's meshes: its vertices, or the points ``point_vertex`` names."""
        return len(self.point_vertex) if self.point_vertex is not None else self.positions.shape[1]


@dataclass
class ModelData:
    """Everything a model holds, format-neutral: its surfaces, frames and tags.

    The record every format's reader returns, the built-in ones (an MD2 or MDL: one
    surface of packed bytes and its :attr:`alias` part; an MD3; a level; an IQM or MD5:
    surfaces of skinned joints and a :attr:`skeleton`) and any format
    :func:`pyvista_quake.register_format` adds.

    Parameters
    ----------
    surfaces : list of SurfaceData
        The surfaces, in file order; every one has the same number of frames.
    frame_names : list of str or numpy.ndarray
        Each frame's name (or the raw 16-byte names, ``S16``, as an MD3 stores them).
    fps : float, optional
        Frames per second the file gives; ``None``: :class:`~pyvista_quake.LoadOptions`'s ``fps``.
    tags : dict of str to Tag
        Attachment points by name.
    format : str
        The registered format's name (its reader may leave it empty: loading fills it in).
    source : str
        Where the bytes came from, for messages (filled in likewise).
    header : dict
        Every header field, named as in the format's spec.
    frame_bounds : numpy.ndarray, optional
        ``float32`` ``(frames, 2, 3)``: each frame's stored bounding box (mins, maxs);
        ``None``: the boxes of plain float positions (a skeletal model keeps ``None``: its
        frames are its joints'; so does an MD2 or MDL, whose frames' boxes are their scales').
    file : object
        The format's records this data was read from: written back as they were.
    level : LevelData or None
        A level's own part: its entities and lightmaps (``None`` for a model).
    skeleton : Skeleton or None
        A skeletal model's own part: its joints, bind pose and the file's own animation
        (``None`` for a model of stored frames).  Its surfaces hold their bind pose, one
        frame, and :class:`JointWeights`.
    alias : AliasData or None
        An MD2's or MDL's own part: its skins, frame groups, OpenGL commands and the file's
        triangles and texture coordinates as stored (``None`` for other formats).  Its one
        surface holds the frames as a :class:`Packing`.
    frame_groups : list of FrameGroup
        Runs of frames the game plays by themselves, each timed by its intervals (a sprite's
        frame groups); each is an animation, and the whole file's timeline takes their times.

    """

    surfaces: list[SurfaceData]
    frame_names: Any = None
    fps: float | None = None
    tags: dict[str, Tag] = field(default_factory=dict)
    format: str = ''
    source: str = ''
    header: dict[str, Any] = field(default_factory=dict)
    frame_bounds: Any = None
    file: Any = None
    level: LevelData | None = None
    skeleton: Skeleton | None = None
    alias: AliasData | None = None
    frame_groups: list[FrameGroup] = field(default_factory=list)

    def __post_init__(self) -> None:
        """Store frame names as bytes and fill in the boxes of float positions."""
        self.surfaces = list(self.surfaces)
        frames = self.surfaces[0].positions.shape[0] if self.surfaces else 0
        if self.frame_names is None:
            self.frame_names = [f'frame{k:03d}' for k in range(frames)]
        if not isinstance(self.frame_names, np.ndarray):
            names = [str(n).encode('latin-1', 'replace') for n in self.frame_names]
            width = max([16, *map(len, names)])  # room for the names edits give (MD3's 16 bytes at least)
            self.frame_names = np.array(names, dtype=f'S{width}')
        count = len(self.frame_names)
        if self.skeleton is not None:
            _check_skinned(self.surfaces, self.skeleton)
        for surface in self.surfaces:
            if surface.positions.shape[0] != count:
                raise ValueError(f'surface {surface.name!r} has {surface.positions.shape[0]} frames; the model names {count}')
        if self.fps is not None and not (np.isfinite(self.fps) and self.fps > 0):
            raise ValueError(f'fps must be a positive number, not {self.fps!r}')
        if self.frame_bounds is None and self.skeleton is None and self.alias is None:  # no stored boxes of joints or packed bytes
            self.frame_bounds = _float_bounds(self.surfaces, count)

    def __getattr__(self, name: str) -> Any:
        """An MD2's or MDL's own field the old way (``data.frame_verts``), with a warning naming ``data.alias``."""
        alias = self.__dict__.get('alias')
        if name.startswith('_') or not hasattr(alias, name):  # None has none of an MD2's fields
            raise AttributeError(f'{type(self).__name__!r} object has no attribute {name!r}')
        warnings.warn(
            f'data.{name} of an MD2 or MDL is deprecated and changes in pyvista-quake 0.4 (it goes); use data.alias.{name}',
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(alias, name)

    def __repr__(self) -> str:
        """Return a one-line summary."""
        if self.alias is not None:
            return repr(self.alias).replace('AliasData(', 'ModelData(', 1)
        if self.skeleton is not None:
            animation = self.skeleton.animation
            frames = animation.num_frames if animation is not None else 0
            return (
                f'ModelData({self.format.upper()} {self.source!r}, {len(self.skeleton.joints)} joints, {len(self.surfaces)} meshes, {frames} frames)'
            )
        return f'ModelData({self.format.upper()} {self.source!r}, {self.num_frames} frames, {len(self.surfaces)} surfaces, {len(self.tags)} tags)'

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


def _check_skinned(surfaces: list[SurfaceData], skeleton: Skeleton) -> None:
    """Refuse surfaces a skeleton cannot skin: no joint weights, other than one frame (the bind pose), a joint past its list."""
    for surface in surfaces:
        skin = surface.joint_weights
        if skin is None or surface.positions.shape[0] != 1:
            raise ValueError(f"surface {surface.name!r}: a skeletal model's surfaces hold their bind pose (one frame) and joint_weights")
        if skin.joints.size and not 0 <= int(skin.joints.min()) <= int(skin.joints.max()) < len(skeleton.joints):
            raise ValueError(
                f'surface {surface.name!r}: joints {int(skin.joints.min())} to {int(skin.joints.max())} of a skeleton of {len(skeleton.joints)}'
            )


def _float_bounds(surfaces: list[SurfaceData], frames: int) -> np.ndarray:
    """Each frame's box over the surfaces' plain float positions, ``(frames, 2, 3)`` (zeros where there are none)."""
    out = np.zeros((frames, 2, 3), np.float32)
    every = [s.positions for s in surfaces if s.num_vertices and s.positions.dtype == np.float32]
    if every:
        out[:, 0] = np.min([p.min(axis=1) for p in every], axis=0)
        out[:, 1] = np.max([p.max(axis=1) for p in every], axis=0)
    return out


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
        The lightmap pages, ``uint8`` ``(pages, height, width, 3)``, first row ``t = 0``: Quake III's
        embedded 128 x 128 pages; of Quake 1, II and UFO: AI one page gathering every face's block.
    brush_models : int
        Brush models the file holds, the world counted as one.
    external_lightmaps : bool
        Whether lit faces name pages the file does not hold (q3map2's ``maps/NAME/lm_NNNN.tga``).
    light_scale : float
        What the game's renderer multiplies a stored luxel by in a still picture (Quake III 4,
        Quake 1 264 / 128, Quake II and UFO: AI 1), a channel past 255 scaling the texel down as a whole.

    view_height : float or None
        How far above a player's origin the game puts the eye (``None``: a game not seen through a
        player's eyes, UFO: AI).
    spawn_classes : tuple of str
        The entity classes a player starts at, in the order a picture chooses among them.
    side_light : str or None
        The suffix of a file beside the map whose coloured light replaces the stored grey one
        (``'.lit'``: Quake 1's ``maps/NAME.lit``, as FitzQuake and QuakeSpasm find it).
    """

    game: str
    entities: list[dict[str, str]]
    lightmaps: np.ndarray | None = None
    brush_models: int = 1
    external_lightmaps: bool = False
    light_scale: float = 4.0
    view_height: float | None = None
    spawn_classes: tuple[str, ...] = ()
    side_light: str | None = None


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
class JointWeights:
    """A surface's skinned-joints codec (IQM, MD5): the joints each vertex follows, and how much.

    Attributes
    ----------
    joints : numpy.ndarray
        ``int32`` ``(vertices, k)``: each vertex's joints (padding weights are 0).
    weights : numpy.ndarray
        ``float32`` ``(vertices, k)``: each joint's share of the vertex.
    offsets : numpy.ndarray or None
        ``float32`` ``(vertices, k, 3)``: MD5's weight positions in their joints' own space;
        ``None`` for IQM, whose vertices move by the joints' change from the bind pose.

    """

    joints: np.ndarray
    weights: np.ndarray
    offsets: np.ndarray | None = None


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
class Skeleton:
    """A skeletal model's own part of its :class:`ModelData` (IQM, MD5): joints, bind pose and animation.

    Attributes
    ----------
    joints : list of Joint
        The skeleton, in file order (parents first).
    bind : numpy.ndarray
        ``float64`` ``(joints, 4, 4)``: each joint's bind pose in object space.  A
        decoder may give a function making it instead: it is called when first read
        (a mesh shown in its bind pose never composes its joints).
    blend : str
        How its animations blend (:attr:`SkeletalAnimationData.blend`): ``'matrix'`` for an IQM
        (whose vertices move by their joints' change from the bind pose), ``'slerp'`` for an MD5.
    animation : SkeletalAnimationData or None
        The file's own frames (an IQM's).

    """

    joints: list[Joint]
    _bind: np.ndarray | Callable[[], np.ndarray]
    blend: str
    animation: SkeletalAnimationData | None = None

    @property
    def bind(self) -> np.ndarray:
        """``float64`` ``(joints, 4, 4)``: each joint's bind pose in object space (see the attribute above)."""
        if callable(self._bind):
            self._bind = self._bind()
        return self._bind


@dataclass
class DemoRecord:
    """A demo's players through time, the same for every demo format: a row a client and snapshot (or timed message).

    Attributes
    ----------
    source : str
        Where the bytes came from.
    protocol : int
        The network protocol the demo was recorded with.
    map : str
        The map's name (``q3dm6``, ``e1m1``).
    max_clients : int
        Player slots: clients are numbered from 0 below it.
    times : numpy.ndarray
        ``float64`` ``(t,)``: each snapshot's (or timed message's) server time, in seconds.
    message, client : numpy.ndarray
        ``int64`` ``(n,)``: each row's snapshot (an index into ``times``) and client.
    origin, angles, velocity : numpy.ndarray
        ``float32`` ``(n, 3)``: the client's position, view angles (pitch yaw roll, degrees) and velocity; NaN where
        the demo does not say.
    health, weapon : numpy.ndarray
        ``float32`` ``(n,)``, NaN where the demo does not say.
    recorder : int
        The recording client (-1 where the demo names none).
    level_file : str
        The level's path in the game's files (``maps/q3dm6.bsp``); ``''`` where the demo names none.
    names : dict of int to list of str
        Each client's names in the order it had them.
    info : dict of int to dict
        Each client's other facts (``model``, ``team``, ``frags``) as the demo ends.
    events : list of tuple
        ``(time, message, kind, client, change, target, means, item, text, x, y, z)``: ``'frag'`` (``client`` the
        attacker, ``target`` the victim, ``means`` of death, ``x y z`` where the victim died), ``'frags'`` (a client's
        frag count changed by ``change``), ``'pickup'`` (``item``); -1, ``''`` and NaN where a kind has none.
    prints : list of tuple
        ``(time, text)`` of each print, centre print and chat.
    """

    source: str
    protocol: int
    map: str
    max_clients: int
    times: np.ndarray
    message: np.ndarray
    client: np.ndarray
    origin: np.ndarray
    angles: np.ndarray
    velocity: np.ndarray
    health: np.ndarray
    weapon: np.ndarray
    recorder: int = -1
    level_file: str = ''
    names: dict[int, list[str]] = field(default_factory=dict)
    info: dict[int, dict[str, Any]] = field(default_factory=dict)
    events: list[tuple] = field(default_factory=list)
    prints: list[tuple[float, str]] = field(default_factory=list)

    def select(self, rows: np.ndarray) -> DemoRecord:
        """The same demo with only the rows chosen (a mask or indices)."""
        per_row = ('message', 'client', 'origin', 'angles', 'velocity', 'health', 'weapon')
        return dataclasses.replace(self, **{name: getattr(self, name)[rows] for name in per_row})
