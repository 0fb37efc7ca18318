"""The one model class, for every format: a list of surfaces and the frames that move them.

:class:`QuakeModel` is what :func:`pyvista_quake.load` returns for every
format.  Every name it defines means one thing and returns one type for
every format.  What belongs to some formats only is a typed part of the
model: ``model.alias`` (MD2, MDL: GL commands, frame groups, palette skins)
and ``model.skeletal`` (IQM, MD5: joints, bind pose), ``None`` elsewhere.
Underneath, the frames come from one
:class:`~pyvista_quake.model.frames.SurfaceFrames`: each surface's positions and
normals from its codec (MD3 shorts, a level's floats; an MD2's or MDL's packed
bytes and a skeletal model's joints through their parts).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any
from typing import Sequence
from typing import TypeGuard

import numpy as np
import numpy.typing as npt
import pyvista as pv
from vtkmodules.vtkCommonDataModel import vtkCompositeDataSet

from pyvista_quake._base import fields as keys
from pyvista_quake._base.options import LoadOptions
from pyvista_quake._base.warnings import warn_external
from pyvista_quake.data import collision as queries
from pyvista_quake.data.animation import Animation
from pyvista_quake.data.decode import FrameSelection
from pyvista_quake.data.decode import frame_indices
from pyvista_quake.formats import FORMATS
from pyvista_quake.formats import format_for_path
from pyvista_quake.formats._alias import alias_model
from pyvista_quake.formats.bsp import CONTENTS
from pyvista_quake.formats.bsp import MASKS
from pyvista_quake.formats.bsp import Q3Collision
from pyvista_quake.formats.bsp import read_collision
from pyvista_quake.formats.records import AliasData
from pyvista_quake.formats.records import LevelData
from pyvista_quake.formats.records import ModelData
from pyvista_quake.formats.records import Tag
from pyvista_quake.formats.registry import FormatSpec
from pyvista_quake.game.filesystem import FoundSkin
from pyvista_quake.game.filesystem import GameFiles
from pyvista_quake.model import edit
from pyvista_quake.model.frames import SurfaceFrames
from pyvista_quake.model.mesh import ascii_text
from pyvista_quake.model.mesh import entity_points
from pyvista_quake.model.mesh import joined
from pyvista_quake.model.navigation import Navigation
from pyvista_quake.model.navigation import navigation_beside
from pyvista_quake.model.packed import AliasPart
from pyvista_quake.model.saving import save
from pyvista_quake.model.skinned import SkeletalPart


def _deprecated(old: str, new: str) -> None:
    warn_external(f'{old} is deprecated and changes in pyvista-quake 0.3; {new}', DeprecationWarning)


class Surface:
    """One surface of a model: its name, geometry over the frames, and its image.

    MD2 and MDL models have one surface; an MD3 has one per surface of the
    file, in file order.  Get them from :attr:`QuakeModel.surfaces`.
    """

    def __init__(self, model: QuakeModel, index: int) -> None:
        self.model = model
        self.index = index

    def __repr__(self) -> str:
        """Return a one-line summary."""
        return f'Surface({self.name!r}, {self.num_points} points, {self.num_triangles} triangles)'

    @property
    def name(self) -> str:
        """The surface's name: an MD3's own; the model's file name for MD2 and MDL."""
        return self.model.surface_names[self.index]

    def _block(self) -> pv.PolyData:
        block = self.model.blocks(0)[self.index]
        assert isinstance(block, pv.PolyData)  # every block of a frame is one surface's mesh
        return block

    @property
    def brush_model(self) -> int:
        """A level's brush model the surface belongs to: 0 for the world, N for the entity model ``*N`` (0 for a model)."""
        return self.model._frames.brush_model(self.index)

    @property
    def num_points(self) -> int:
        """Points of its meshes (a point per distinct vertex and texture coordinate)."""
        return int(self.model._offsets[self.index + 1] - self.model._offsets[self.index])

    @property
    def num_triangles(self) -> int:
        """Triangles of its meshes."""
        return int(self._block().n_cells)

    @property
    def texcoords(self) -> np.ndarray:
        """Texture coordinates of its points, ``(points, 2)`` as VTK takes them (``v`` from the bottom)."""
        return np.asarray(self._block().active_texture_coordinates)

    def positions(self, frames: FrameSelection = None) -> npt.NDArray[np.float32]:
        """Point positions over the given frames (all by default), ``float32`` ``(frames, points, 3)``."""
        return self.model._frames.surface_positions(self.index, frames)

    def normals(self, frames: FrameSelection = None) -> npt.NDArray[np.float32]:
        """Unit point normals over the given frames, ``float32`` ``(frames, points, 3)``."""
        return self.model._frames.surface_normals(self.index, frames)

    @property
    def image_name(self) -> str | None:
        """The image (or shader) name the surface shows: its ``.skin`` line, config skin, material or shader, or an
        MD2's chosen skin name; ``None`` without one (``skin=None``, an MDL's embedded pictures)."""
        return self.model._frames.image_name(self.index)

    @property
    def alpha(self) -> str:
        """How the image's alpha is drawn: ``'opaque'``, ``'cutout'``, ``'blend'`` or ``'add'``, as the game's shader (or an MDL's ``MF_HOLEY``) says."""
        return self.model._frames.surface_alpha(self.index)

    @property
    def vertex_colours(self) -> bool:
        """Whether the game multiplies the surface's image by its vertices' colours where no lightmap lights it:
        its shader's colour stage says ``rgbGen vertex`` (or ``exactVertex``), or it has no shader script
        (the engine's own default for a vertex-lit face)."""
        return self.model._frames.surface_vertex_colours(self.index)

    def image_file(self, frame: int | None = None) -> FoundSkin | None:
        """The image file the surface shows (the model's chosen skin), or ``None``; of a surface with a picture a
        frame (a sprite's), frame ``frame``'s (the first by default)."""
        return self.model._frames.surface_skin(self.index, frame)  # none with skin=None

    def image(self, frame: int | None = None) -> np.ndarray | None:
        """The image the surface shows as RGB(A) ``uint8``, rows from the top; ``None`` without one.

        Of a surface with a picture a frame (a sprite's), frame ``frame``'s (the first by default);
        the pictures travel with the frames too (``model.blocks(k)``' field data).
        """
        return self.model._frames.surface_image(self.index, frame)


class QuakeModel:
    """A Quake (``.mdl``), Quake II (``.md2``), Quake III (``.md3``), Inter-Quake (``.iqm``) or Doom 3 (``.md5mesh``) model.

    A model is a list of :attr:`surfaces` and the frames that move them.
    Use :func:`pyvista_quake.load` to read one, :meth:`from_frames` to make one
    from PyVista meshes, and :meth:`save` to write it in any of the formats.

    A frame comes in two forms, the same for every format:
    :meth:`blocks` gives a :class:`pyvista.MultiBlock` with a ``PolyData`` per
    surface, each with its own image, and :meth:`mesh` gives one
    :class:`pyvista.PolyData` of every surface.  :meth:`frame`, :meth:`at`,
    :meth:`pose` and :meth:`between` give MultiBlocks too.

    Parameters
    ----------
    data : ModelData
        The record of a file (see :mod:`pyvista_quake.formats`): an MD2's or MDL's has an ``alias``
        part, a skeletal model's a ``skeleton`` (an :class:`AliasData` alone is taken as an MD2's or MDL's part).
    options : LoadOptions, optional
        How the model is read.
    search : GameFiles, optional
        The game's files, where skins and the files beside the model are found.

    Examples
    --------
    >>> import pyvista_quake
    >>> model = pyvista_quake.load('tris.md2')  # doctest: +SKIP
    >>> mesh = model.mesh(0)  # one PolyData, for every format  # doctest: +SKIP
    >>> blocks = model.blocks(0)  # a MultiBlock, a PolyData per surface  # doctest: +SKIP
    >>> model.surfaces[0].image()  # its skin  # doctest: +SKIP

    """

    _frames: SurfaceFrames

    def __init__(self, data: AliasData | ModelData, options: LoadOptions | None = None, *, search: GameFiles | None = None, **skeletal: Any) -> None:
        if not isinstance(data, ModelData):  # an MD2's or MDL's part alone, as 0.2 took it
            data = alias_model(data)
        object.__setattr__(self, '_frames', SurfaceFrames(data, options, search=search, **skeletal))

    @classmethod
    def _of(cls, frames: SurfaceFrames) -> QuakeModel:
        model = object.__new__(cls)
        object.__setattr__(model, '_frames', frames)
        return model

    # A format's extras reached as the model's own attributes: deprecated for the typed parts.
    def __getattr__(self, name: str) -> Any:
        """Return a format's extra the old way (``model.gl_commands``), with a warning naming its typed part."""
        if name.startswith('__') or name == '_frames':
            raise AttributeError(name)
        try:
            value = getattr(self._frames, name)
        except AttributeError:
            part = self._frames.skeletal if self._frames.skeletal is not None else self._frames.alias  # not `or`: a part's truth counts its frames
            try:
                value = getattr(part, name)
            except AttributeError:
                raise AttributeError(f'{type(self).__name__} of an {self.format.upper()} has no attribute {name!r}') from None
        warn_external(f'model.{name} is deprecated and changes in pyvista-quake 0.4 (it goes); use {_replacement(self, name)}', DeprecationWarning)
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        """Set a setting of the model, such as :attr:`skin` (its frames' own settings pass through)."""
        if isinstance(getattr(type(self), name, None), property):
            object.__setattr__(self, name, value)
        else:
            setattr(self._frames, name, value)

    def __getstate__(self) -> dict:
        """Pickle its frames (models go to batch workers)."""
        return {'_frames': self._frames}

    def __setstate__(self, state: dict) -> None:
        """Restore from :meth:`__getstate__`."""
        object.__setattr__(self, '_frames', state['_frames'])

    def __len__(self) -> int:
        """Return the number of frames (each picture of an MDL frame group counts)."""
        return len(self._frames)

    def __repr__(self) -> str:
        """Return a one-line summary."""
        return repr(self._frames)

    # -- what every format has --------------------------------------------------------
    @property
    def format(self) -> str:
        """``'md2'``, ``'mdl'``, ``'md3'``, ``'iqm'`` or ``'md5'``."""
        return self._frames.format

    @property
    def spec(self) -> FormatSpec:
        """The format's registration: what it is called, which engines load it, whether it can be written."""
        return FORMATS[self.format]

    @property
    def source(self) -> str:
        """The file the model came from."""
        return self._frames.source

    @property
    def header(self) -> dict:
        """Every header field of the file, named as in its spec."""
        return self._frames.header

    @property
    def data(self) -> ModelData:
        """The format-neutral record the model holds: its surfaces and their codecs, and the typed part of its format."""
        return self._frames.data

    @property
    def options(self) -> LoadOptions:
        """How the model was read."""
        return self._frames.options

    @property
    def search(self) -> GameFiles:
        """The game's files, where its skins and the files beside it are found."""
        return self._frames.search

    @property
    def edited(self) -> bool:
        """Whether the model has changed since it was read."""
        return self._frames.edited

    @property
    def fps(self) -> float:
        """Frame rate of frames with no timing of their own."""
        return self._frames.fps

    @property
    def frame_names(self) -> list[str]:
        """Name of each frame, such as ``'stand01'``."""
        return self._frames.frame_names

    def frame_name(self, index: int) -> str:
        """Name of one frame."""
        return self._frames.frame_name(index)  # the name only: an MD2's decoded alone, a skeletal model's files read up to it

    @property
    def times(self) -> np.ndarray:
        """Start time in seconds of every frame over the whole file (strictly increasing)."""
        return self._frames.times

    @property
    def duration(self) -> float:
        """Seconds the whole file takes to play once."""
        return self._frames.duration

    @property
    def animations(self) -> dict[str, Animation]:
        """Animations by name (frame names, MDL frame groups, ``.anm`` files, the caller's)."""
        return self._frames.animations

    def animation(self, name: str | Animation | None) -> Animation:
        """Return an animation by name; ``None`` gives the whole file as one animation."""
        return self._frames.animation(name)

    @property
    def entries(self) -> list[range]:
        """The frames as the game numbers them: an MDL frame group is one entry, its pictures a range."""
        return self._frames.entries

    @property
    def tags(self) -> dict[str, Tag]:
        """Tags by name (an MD3's, or a ``.tag`` file's beside an MD2): ``origins`` and ``axes`` per frame."""
        return self._frames.tags

    def tag(self, name: str, frame: int | None = None, time: float | None = None, animation: str | Animation | None = None) -> np.ndarray:
        """A tag as a 4 x 4 matrix at a frame, or at a time of an animation (see :meth:`ModelFrames.tag <pyvista_quake.model.base.ModelFrames.tag>`)."""
        return self._frames.tag(name, frame, time, animation)

    # -- the parts only some formats have (see pyvista_quake.model.parts) -------------------
    @property
    def alias(self) -> AliasPart | None:
        """An MD2's or MDL's own part: its skins, palette, OpenGL commands, topology and frame-group edits (``None`` for other formats)."""
        return self._frames.alias

    @property
    def skeletal(self) -> SkeletalPart | None:
        """An IQM's or MD5's own part: its joints, bind pose, skeleton and config (``None`` for other formats)."""
        return self._frames.skeletal

    @property
    def skin_definition(self) -> Path | str | None:
        """The ``.skin`` file (or Cube 2 config) the surfaces' images come from, if any."""
        return self._frames.skin_definition

    # -- levels -------------------------------------------------------------------------
    @property
    def level(self) -> LevelData | None:
        """A level's own part (entities, lightmaps), or ``None`` for a model."""
        return self._frames.level

    @property
    def entities(self) -> list[dict[str, str]]:
        """A level's entities in file order, each a dict of its keys (empty for a model)."""
        level = self.level
        return level.entities if level is not None else []

    @property
    def lightmaps(self) -> np.ndarray | None:
        """A level's lightmap pages, ``uint8`` ``(pages, height, width, 3)``, first row ``t = 0``: no pages for a
        level without them (Quake III's ``(0, 128, 128, 3)``, the others' ``(0, 0, 0, 3)``), ``None`` for a model.

        Of Quake 1, II and UFO: AI, one page gathering every lit face's block
        (``point_data["lightmap"]`` places each point in it).  Of Quake III:

        the pages the file holds (128 x 128, as stored), or q3map2's external
        ``maps/NAME/lm_NNNN.tga`` beside the map in the game's files (``-external``,
        Nexuiz's 512 x 512).  Of a map compiled with ``-deluxe`` only the light pages, the
        even ones (the odd ones are light directions, :attr:`deluxemaps`), and the faces'
        ``point_data["lightmap_page"]`` halved to match: a map is taken as deluxe where its
        compile line (worldspawn's ``_q3map2_cmdline``) names ``-deluxe``, or where it has an
        even number of pages and its faces name even pages only.  They
        are the stored bytes: the engine brightens each texel by ``R_ColorShiftLightingBytes``
        (shifted left 2 bits with the default ``r_mapOverBrightBits 2``, scaled back as a
        whole where a channel passes 255) before it multiplies the texture.
        """
        return self._frames.level_lightmaps

    @property
    def deluxemaps(self) -> np.ndarray | None:
        """A deluxe-compiled Quake III level's light-direction pages (q3map2 ``-deluxe``), ``uint8``
        ``(pages, height, width, 3)``, page ``k`` the directions of :attr:`lightmaps` page ``k``; ``None``
        for any other level or model."""
        return self._frames.level_deluxemaps

    # -- a Quake III level's collision, visibility and light, answered as the engine answers ------------
    @functools.cached_property
    def collision(self) -> Q3Collision:
        """A Quake III level's collision model, visibility and light grid as the engine loads them (planes, nodes,
        leaves, brushes and their sides, clusters and PVS rows, the grid's samples), read once.

        Raises
        ------
        TypeError
            For a model.
        QuakeFormatError
            For a level of another game, or a lump out of range (naming it).
        """
        level = self.level
        if level is None:
            raise TypeError(f"{self.source}: collision, visibility and light are a level's; this is a {self.format.upper()} model")
        return read_collision(self.data.file, level.entities)

    @functools.cached_property
    def navigation(self) -> Navigation | None:
        """A level's bot navigation (``maps/NAME.aas`` beside it in the game's files), checked against the map
        (a warning where its ``bspchecksum`` is another map's); ``None`` where there is none, or for a model."""
        if self.level is None:
            return None
        frames = self._frames
        return navigation_beside(self.source, frames.search.find, frames._map_stem(), bytes(self.data.file.raw))

    def contents(self, points: npt.ArrayLike, model: int = 0) -> np.ndarray:
        """The ``CONTENTS_*`` bits at each point, as ``CM_PointContents`` gives them (see :data:`pyvista_quake.CONTENTS`).

        Parameters
        ----------
        points : array_like
            ``(n, 3)`` points (or one), in the level's units; read as ``float32``, as the engine's vectors are.
        model : int, default: 0
            The world (0), or brush model ``N`` (``*N``) at rest.

        Returns
        -------
        numpy.ndarray
            ``int64`` ``(n,)``: the OR of the contents of every brush holding the point (0 in the open).

        Examples
        --------
        >>> import pyvista_quake as pq
        >>> level = pq.load('pak0.pk3:maps/q3dm6.bsp')  # doctest: +SKIP
        >>> level.contents([[0, 0, 0]]) & pq.CONTENTS['solid']  # doctest: +SKIP

        """
        c = self.collision
        if not 0 <= model < len(c.model_brushes):
            raise ValueError(f'model must be 0 to {len(c.model_brushes) - 1}, not {model!r}')
        return queries.contents(c, queries.as_points(points), model)

    def leaf(self, points: npt.ArrayLike) -> np.ndarray:
        """The BSP leaf holding each point (``CM_PointLeafnum``), ``int64`` ``(n,)``."""
        return queries.leaves(self.collision, queries.as_points(points))

    def cluster(self, points: npt.ArrayLike) -> np.ndarray:
        """The visibility cluster of each point's leaf, ``int64`` ``(n,)``: -1 in solid or outside the map, as the engine says."""
        c = self.collision
        return c.leaf_cluster[queries.leaves(c, queries.as_points(points))]

    def area(self, points: npt.ArrayLike) -> np.ndarray:
        """The area of each point's leaf, ``int64`` ``(n,)``: -1 in solid or outside the map."""
        c = self.collision
        return c.leaf_area[queries.leaves(c, queries.as_points(points))]

    def visible(self, a: npt.ArrayLike, b: npt.ArrayLike) -> np.ndarray:
        """Whether ``b`` is potentially visible from ``a``, each pair of ``(n, 3)`` points, exactly as ``SV_inPVS``
        answers: ``b``'s cluster in the PVS of ``a``'s, and the two in areas connected as the map starts (every
        area portal closed: one area).  A point in solid is seen by nothing and sees nothing."""
        c = self.collision
        first, second = queries.as_points(a, 'a'), queries.as_points(b, 'b')
        if len(first) != len(second):
            raise ValueError(f'a and b must be as many points, not {len(first)} and {len(second)}')
        return queries.visible(c, queries.leaves(c, first), queries.leaves(c, second))

    def pvs(self, cluster: int) -> np.ndarray:
        """The clusters potentially visible from ``cluster`` (its PVS row), ``int64``; a map without visibility sees all."""
        c = self.collision
        if not -1 <= cluster < c.clusters:
            raise ValueError(f'cluster must be -1 to {c.clusters - 1}, not {cluster!r}')
        return queries.pvs(c, cluster)

    def trace(
        self,
        start: npt.ArrayLike,
        end: npt.ArrayLike,
        mins: npt.ArrayLike = (0, 0, 0),
        maxs: npt.ArrayLike = (0, 0, 0),
        mask: str | int = 'solid',
        model: int = 0,
    ) -> queries.Trace:
        """Sweep a box from each start to its end and stop where it meets a brush, as ``CM_BoxTrace`` does.

        Parameters
        ----------
        start, end : array_like
            ``(n, 3)`` segments (or one); where a start is its end, whether the box there is inside a brush.
        mins, maxs : array_like, default: a point
            The box around each point of the segment: a player's is ``(-15, -15, -24)``, ``(15, 15, 32)``.
        mask : str or int, default: 'solid'
            The contents that stop the box: a name of :data:`pyvista_quake.MASKS` (``'solid'``, ``'player'``,
            ``'shot'``, ``'water'``...) or of :data:`pyvista_quake.CONTENTS` (``'playerclip'``...), or the engine's
            bit mask.
        model : int, default: 0
            The world, or brush model ``N`` at rest.

        Returns
        -------
        Trace
            ``fraction``, ``end``, ``normal``, ``surface_flags``, ``contents``, ``start_solid`` and ``all_solid``,
            an entry each segment.  The brushes are traced as the engine traces them (each side's plane moved out by
            the box, ``SURFACE_CLIP_EPSILON`` 0.125 off every entry); patches are not traced yet.
        """
        c = self.collision
        if not 0 <= model < len(c.model_brushes):
            raise ValueError(f'model must be 0 to {len(c.model_brushes) - 1}, not {model!r}')
        if isinstance(mask, str):
            names = {**CONTENTS, **MASKS}  # a mask's name, or one content's ('water' is the mask of all liquids)
            if mask not in names:
                raise ValueError(f'mask must be a name of pq.MASKS or pq.CONTENTS ({", ".join(sorted(names))}) or an int, not {mask!r}')
            mask = names[mask]
        first, second = queries.as_points(start, 'start'), queries.as_points(end, 'end')
        if len(first) != len(second):
            raise ValueError(f'start and end must be as many points, not {len(first)} and {len(second)}')
        low, high = queries.as_points(mins, 'mins')[0], queries.as_points(maxs, 'maxs')[0]
        return queries.trace(c, first, second, low, high, int(mask), model)

    def brushes(self, model: int = 0, hide: Sequence[str] = ()) -> pv.PolyData:
        """Every brush of the world (or of brush model ``model``) as a closed convex polyhedron, from its planes.

        Parameters
        ----------
        model : int, default: 0
            The world, or brush model ``N`` (``*N``) at rest.
        hide : sequence of str, optional
            Brushes to leave out by their contents: names of :data:`pyvista_quake.CONTENTS` (``'water'``,
            ``'trigger'``, ``'playerclip'``...), or ``'clip'`` for every clip (player, monster, bot).

        Returns
        -------
        pyvista.PolyData
            A face a brush side (q3map2's bevel sides, which touch their brush at an edge, have none), wound so that
            its normal points out; ``cell_data`` ``brush`` (its number), ``contents`` (its ``CONTENTS_*`` bits) and
            ``shader`` (its shader's name).  Split it by ``brush`` for each solid's volume::

                solids = level.brushes()
                water = solids.extract_cells(solids['contents'] & pq.CONTENTS['water'] != 0)

        """
        c = self.collision
        if not 0 <= model < len(c.model_brushes):
            raise ValueError(f'model must be 0 to {len(c.model_brushes) - 1}, not {model!r}')
        names = {**CONTENTS, 'clip': CONTENTS['playerclip'] | CONTENTS['monsterclip'] | CONTENTS['botclip']}
        unknown = sorted(set(hide) - set(names))
        if unknown:
            raise ValueError(f'hide names contents ({", ".join(sorted(names))}), not {unknown}')
        mask = 0
        for name in hide:
            mask |= names[name]
        first, count = c.model_brushes[model]
        chosen = np.arange(first, first + count)
        chosen = chosen[(c.brush_contents[chosen] & mask) == 0]
        points, sizes, brush, _ = queries.brush_faces(c, chosen)
        starts = np.cumsum(sizes) - sizes
        faces = np.insert(np.arange(len(points)), starts, sizes) if len(sizes) else np.zeros(0, np.int64)
        mesh = pv.PolyData(points.astype(np.float32), faces=faces)
        mesh.cell_data['brush'] = brush.astype(np.int32)
        mesh.cell_data['contents'] = c.brush_contents[brush].astype(np.int64)
        mesh.cell_data['shader'] = (
            np.array([ascii_text(c.shader_names[k]) for k in c.brush_shader[brush]], dtype=str) if len(brush) else np.zeros(0, str)
        )
        mesh = mesh.clean(tolerance=1e-3, absolute=True)  # the faces of a brush share its corners: closed
        mesh.cell_data.active_scalars_name = None
        return mesh

    def light(self, points: npt.ArrayLike, shift: int = 1, ambient_scale: float = 0.6, directed_scale: float = 1.0) -> queries.Light:
        """The light a model takes at each point from the level's light grid, as ``R_LightForPoint`` gives it.

        Parameters
        ----------
        points : array_like
            ``(n, 3)`` points.
        shift : int, default: 1
            The bits the grid's colours are shifted left (``R_ColorShiftLightingBytes``): ``r_mapOverBrightBits``
            (2) less the screen's overbright bits (1 fullscreen with ioquake3's defaults), past 255 scaled down as
            a whole, as the lightmaps are.
        ambient_scale, directed_scale : float, default: 0.6, 1.0
            ``r_ambientScale`` and ``r_directedScale``.

        Returns
        -------
        Light
            ``.ambient``, ``.directed`` (0-255 ``float32`` colours) and ``.direction`` (unit vectors towards the
            light), ``(n, 3)`` each: the eight grid samples around each point weighted trilinearly, those in walls
            or outside the grid left out (the others weighted up where they sum to less than 0.99); zeros where
            the map has no light grid that fits it.
        """
        return queries.grid_light(self.collision, queries.as_points(points), shift, ambient_scale, directed_scale)

    def point_entities(self) -> pv.PolyData:
        """The entities that stand at an ``"origin"`` as points, their keys as string point arrays.

        ``classname`` and every other key becomes ``point_data[key]`` (empty where an
        entity lacks it), so spawn points or items can be picked out and plotted::

            points = level.point_entities()
            spawns = points.extract_points(points['classname'] == 'info_player_deathmatch')

        """
        return entity_points(self.entities)

    @property
    def skin(self) -> Any:
        """The skin the frames show: a skin number (MD2, MDL), a ``.skin`` name (MD3), or ``None`` for none."""
        return self._frames.skin

    @skin.setter
    def skin(self, value: Any) -> None:
        self._frames.skin = value

    # -- surfaces ---------------------------------------------------------------------
    @property
    def surfaces(self) -> list[Surface]:
        """The model's surfaces: one for an MD2 or MDL, one per surface of an MD3's file."""
        return [Surface(self, k) for k in range(len(self.surface_names))]

    @property
    def surface_names(self) -> list[str]:
        """Each surface's name: an MD3's own (names may repeat); the model's file name for MD2 and MDL."""
        return self._frames.surface_names

    @property
    def _offsets(self) -> np.ndarray:
        """Where each surface's points start in :meth:`positions` (and the total at the end)."""
        return np.concatenate([[0], np.cumsum(self._frames.point_counts(), dtype=np.int64)])

    # -- geometry ---------------------------------------------------------------------
    def positions(self, frames: FrameSelection = None) -> npt.NDArray[np.float32]:
        """Point positions of the given frames (all by default), ``float32`` ``(frames, points, 3)``.

        The points of every surface in turn, in the order of :meth:`mesh`'s points.
        """
        return _joined(self._frames.per_surface_positions(frames), self, frames)

    def normals(self, frames: FrameSelection = None) -> npt.NDArray[np.float32]:
        """Unit point normals of the given frames, ``float32`` ``(frames, points, 3)``, in the order of :meth:`positions`."""
        return _joined(self._frames.per_surface_normals(frames), self, frames)

    def vertex_positions(self, frames: FrameSelection = None) -> npt.NDArray[np.float32]:
        """Positions of the file's vertices (not the meshes' points), ``float32`` ``(frames, vertices, 3)``.

        Every surface's vertices in turn; for an MD3 they are its points.
        """
        return self._frames.vertex_positions(frames)

    def bounds(self, frames: FrameSelection = None) -> np.ndarray:
        """Bounding box of each frame over every surface, ``(frames, 6)`` as ``xmin, xmax, ymin, ymax, zmin, zmax``."""
        return self._frames.bounds(frames)

    def centroids(self, frames: FrameSelection = None) -> np.ndarray:
        """Mean of the vertex positions of each frame, ``(frames, 3)`` (zeros for a model with no vertex)."""
        pos = self.vertex_positions(frames)
        if not pos.shape[1]:
            return np.zeros((len(pos), 3), np.float32)
        return pos.mean(axis=1)

    def displacement(self, start: int, end: int) -> pv.PolyData:
        """:meth:`mesh` of frame ``end`` with ``point_data['displacement']`` (and its magnitude) since frame ``start``."""
        pos = self.positions([start, end])
        mesh = self.mesh(end)
        vectors = pos[1] - pos[0]
        mesh.point_data['displacement'] = vectors
        mesh.point_data['displacement_magnitude'] = np.linalg.norm(vectors, axis=1)
        return mesh

    # -- frames -----------------------------------------------------------------------
    def blocks(self, frame: int | None = None, animation: str | Animation | None = None, time: float | None = None) -> pv.MultiBlock:
        """One pose as a :class:`pyvista.MultiBlock`: a ``PolyData`` per surface, named after it, with its image.

        Parameters
        ----------
        frame : int, optional
            A frame of ``animation`` (of the whole file by default); frame 0 by default.
        animation : str, optional
            An animation's name.
        time : float, optional
            Instead of ``frame``: the pose at this time of ``animation``, blended as the engines blend.

        Raises
        ------
        IndexError, KeyError, ValueError
            For a frame out of range, an unknown animation, or both ``frame`` and ``time``.

        """
        return self._as_blocks(self.native_pose(frame, animation, time))

    def mesh(self, frame: int | None = None, animation: str | Animation | None = None, time: float | None = None) -> pv.PolyData:
        """One pose as one :class:`pyvista.PolyData` of every surface (choose it as in :meth:`blocks`).

        For an MD2 or MDL it is the frame's mesh, as ``pv.read`` gives it.  For
        an MD3 the surfaces' meshes are joined in file order, their points in
        the order of :meth:`positions`, with ``cell_data['surface_index']``.
        """
        return self._as_mesh(self.native_pose(frame, animation, time))

    def frame(self, index: int = 0) -> pv.MultiBlock:
        """Frame ``index`` as :meth:`blocks` gives it: a MultiBlock of a ``PolyData`` per surface, for every format.

        Points are float32 in Quake's axes (x forward, y left, z up), with
        normals, texture coordinates, ``point_data['vertex_index']`` and the
        model's metadata in ``field_data``.  :meth:`mesh` gives one PolyData.
        """
        return self._as_blocks(self._frames.frame(index))

    def at(self, t: float, animation: str | Animation | None = None, *, loop: bool = True) -> pv.MultiBlock:
        """The pose at ``t`` seconds of ``animation``, blended between two frames as the engines blend them, as a MultiBlock.

        Positions linearly, normals renormalised; ``loop`` wraps time (the last
        frame blends into the first), else it is clamped.  ``field_data['time']``
        holds ``t``; :meth:`mesh` with ``time=`` gives one PolyData.
        """
        pose = self._frames.at(t, animation, loop=loop)
        blocks = self._as_blocks(pose)
        if blocks is not pose:  # a one-surface pose timed on its mesh: the MultiBlock says it too
            blocks.field_data[keys.TIME] = pose.field_data[keys.TIME]
        return blocks

    def pose(self, frame: int | None = None, animation: str | Animation | None = None, time: float | None = None) -> pv.MultiBlock:
        """One pose, as :meth:`blocks` gives it."""
        return self.blocks(frame, animation, time)

    def between(self, first: int, second: int, alpha: float) -> pv.MultiBlock:
        """Frames ``first`` and ``second`` blended (``alpha`` of the way) as the engines blend them, as a MultiBlock."""
        return self._as_blocks(self._frames.between(first, second, alpha))

    def to_multiblock(self, animation: str | Animation | None = None) -> pv.MultiBlock:
        """Every frame (of one animation, or the file) as a MultiBlock of frames, timed in field data.

        Each frame as :meth:`native_pose` gives it: a model of one surface stored as packed bytes (MD2, MDL) its
        PolyData, as :meth:`mesh` gives it; every other model a MultiBlock of its surfaces, as :meth:`frame` gives it.
        """
        return self._frames.to_multiblock(animation)

    def native_pose(
        self, frame: int | None = None, animation: str | Animation | None = None, time: float | None = None
    ) -> pv.MultiBlock | pv.PolyData:
        """A pose (chosen as in :meth:`blocks`) in the form the file stores its frames: a PolyData for an MD2
        or MDL, a MultiBlock of surfaces for an MD3.

        For code that draws or writes either, as the pictures and export do; :meth:`blocks` and :meth:`mesh`
        give one type for every format.
        """
        if time is not None:
            if frame is not None:
                raise ValueError('give frame= or time=, not both')
            return self._frames.at(float(time), animation)
        if animation is None:  # a frame of the whole file: no timeline needed
            return self._frames.frame(0 if frame is None else frame)
        clip = self.animation(animation)
        index = 0 if frame is None else int(frame)
        if not -len(clip) <= index < len(clip):
            raise IndexError(f'{self.source}: frame {index} out of range; {clip.name!r} has {len(clip)} frames')
        return self._frames.frame(int(clip.frames[index]))

    def _as_blocks(self, pose: pv.MultiBlock | pv.PolyData) -> pv.MultiBlock:
        if isinstance(pose, pv.MultiBlock):
            return pose
        blocks = pv.MultiBlock()
        blocks.SetNumberOfBlocks(1)
        blocks.SetBlock(0, pose)
        blocks.GetMetaData(0).Set(vtkCompositeDataSet.NAME(), ascii_text(self.surface_names[0]))
        return blocks

    def _as_mesh(self, pose: pv.MultiBlock | pv.PolyData) -> pv.PolyData:
        if isinstance(pose, pv.PolyData):
            return pose
        return joined(pose)

    # -- editing ----------------------------------------------------------------------
    def set_frame(self, index: int, points: Any, normals: Any = None) -> None:
        """Move one frame's points.

        Parameters
        ----------
        index : int
            The frame.
        points : array, pyvista.PolyData or pyvista.MultiBlock
            New positions: ``(points, 3)`` in the order of :meth:`positions`
            (an MD2's or MDL's ``(vertices, 3)`` too), :meth:`mesh` or
            :meth:`blocks` of this model, or a list of an array per surface.
        normals : array, optional
            Normals of the same shape; computed from the geometry by default.

        """
        self._frames.set_frame(index, points, normals)

    def add_frames(self, frames: Sequence, names: Sequence[str] | None = None, at: int | None = None) -> None:
        """Insert frames (each as :meth:`set_frame` takes it) before frame ``at``, by default at the end.

        New frames of an MD3 keep the tags of the frame before them.
        """
        self._frames.add_frames(list(frames), names, at)

    def remove_frames(self, frames: FrameSelection) -> None:
        """Remove frames (MDL frame groups lose them, MD3 tags go with them)."""
        self._frames.remove_frames(frames)

    def rename_frame(self, index: int, name: str) -> None:
        """Rename one frame (at most 15 bytes of Latin-1)."""
        self._frames.rename_frame(index, name)

    # -- files ------------------------------------------------------------------------
    def save(self, path: str | Path, *, sync: bool = True, overwrite_skins: bool = False) -> None:
        """Write the model to ``path`` in the format its extension names (``.md2``, ``.mdl``, ``.md3``).

        An unchanged model is written back byte for byte; one saved in another
        format is converted (see :func:`pyvista_quake.save`).  A skeletal model
        saves as its own format, or as an ``.md3`` of its skinned frames.  The file is
        written to a temporary file beside the target and renamed, so a
        failure leaves the old file untouched; ``sync=False`` skips flushing
        it to disk first.
        """
        target = format_for_path(str(path))
        if self.skeletal is not None and target.name != self.format and target.kind != 'skeletal':
            # Its skinned frames, as an MD3 or any format of surfaces.
            baked = QuakeModel.from_frames([self.blocks(k) for k in range(len(self))], 'md3', names=self.frame_names, fps=self.fps)
            baked.save(path, sync=sync, overwrite_skins=overwrite_skins)
            return
        save(self, path, sync=sync, overwrite_skins=overwrite_skins)

    @classmethod
    def from_frames(cls, frames: Any, format: str = 'md2', *, fps: float | None = None, **kwargs: Any) -> QuakeModel:
        """Build a model from PyVista meshes: one frame, or a sequence of frames with the same connectivity.

        For an MD2 or MDL a frame is a PolyData (any mesh is triangulated;
        a MultiBlock is a sequence of frames, and a list may hold frames as
        :meth:`blocks` gives them) and ``kwargs`` are
        :func:`~pyvista_quake.model.edit.from_frames`'s (``skin``, ``names``);
        for an MD3 a frame is a MultiBlock of surfaces (or one PolyData, one
        surface) and ``kwargs`` are ``names`` and ``tags``.
        """
        spec = FORMATS.get(format)
        if spec is not None and spec.kind == 'surfaces':  # made as an MD3's surfaces
            many = frames if isinstance(frames, (list, tuple)) else [frames]
            blocks = [f if isinstance(f, pv.MultiBlock) else pv.MultiBlock([f]) for f in many]
            return cls._of(SurfaceFrames.from_frames(blocks, fps=fps, **kwargs))
        if isinstance(frames, (list, tuple)):
            frames = [joined(f) if isinstance(f, pv.MultiBlock) else f for f in frames]
        data, images = edit.from_frames(frames, format, **kwargs)
        made = SurfaceFrames(data, LoadOptions(fps=fps) if fps is not None else LoadOptions())
        assert made.alias is not None  # the record of an MD2 or MDL
        made.alias.skins.images.update(images)
        return cls._of(made)


def _joined(per_surface: list[np.ndarray], model: QuakeModel, frames: FrameSelection) -> np.ndarray:
    if len(per_surface) == 1:
        return np.ascontiguousarray(per_surface[0])  # an MD3's decode is a view of four-wide rows
    if not per_surface:
        return np.zeros((len(frame_indices(frames, len(model))), 0, 3), np.float32)
    return np.concatenate(per_surface, axis=1)


#: The part each format's extra now lives on, for the warning of the old way.
_SURFACE_EXTRAS = {
    'image_names': '[s.image_name for s in model.surfaces]',
    'surface_alpha': 'model.surfaces[k].alpha',
    'surface_skin': 'model.surfaces[k].image_file()',
    'surface_image': 'model.surfaces[k].image()',
}


def _replacement(model: QuakeModel, name: str) -> str:
    if name in _SURFACE_EXTRAS:
        return _SURFACE_EXTRAS[name]
    if model.skeletal is not None and hasattr(model.skeletal, name):
        return f'model.skeletal.{name}'
    if model.alias is not None and hasattr(model.alias, name):
        return f'model.alias.{name}'
    if name == 'skin_file':  # an MD3's: its .skin file
        return "model.skin_definition, or model.surfaces[k].image_file() for each surface's image"
    return f"the model's own attributes or its parts (model.alias, model.skeletal, model.level); {name} is internal"


class _SurfaceModelMeta(type):
    def __instancecheck__(cls, instance: object) -> bool:
        return isinstance(instance, QuakeModel) and instance.skeletal is None and instance.alias is None


class SurfaceModel(metaclass=_SurfaceModelMeta):
    """Deprecated: every model is a :class:`QuakeModel`; ``isinstance(m, SurfaceModel)`` still tells an MD3's."""

    def __new__(cls, data: ModelData, options: LoadOptions | None = None, *, search: GameFiles | None = None) -> QuakeModel:  # type: ignore[misc]
        """Make a :class:`QuakeModel` (with a ``DeprecationWarning``)."""
        _deprecated('SurfaceModel', 'use QuakeModel, the one model class of every format')
        return QuakeModel(data, options, search=search)

    @classmethod
    def from_frames(cls, frames: Any, **kwargs: Any) -> QuakeModel:
        """Deprecated: :meth:`QuakeModel.from_frames` with ``format='md3'``."""
        _deprecated('SurfaceModel.from_frames', "use QuakeModel.from_frames(frames, 'md3')")
        return QuakeModel.from_frames(frames, 'md3', **kwargs)


def is_model(source: object) -> TypeGuard[QuakeModel]:
    """Whether ``source`` is a loaded model (not a file to load, nor a PyVista mesh)."""
    return isinstance(source, QuakeModel)


def why_nothing_to_draw(model: object) -> str:
    """Why a model (or player) has no triangle to draw, in a few words for messages."""
    tags = list(getattr(model, 'tags', {}) or {})
    surfaces = getattr(model, 'surfaces', None)
    if is_model(model) and model.skeletal is not None and not surfaces:
        return (
            'an animation file, no mesh: its poses animate a mesh of the same skeleton '
            '(load the mesh with animations= naming this file, or its Cube 2 config)'
        )
    if tags and not any(s.num_triangles for s in surfaces or []):
        return f'tags only ({", ".join(tags[:4])}{", ..." if len(tags) > 4 else ""}): a model other models attach to'
    return 'no surface has a triangle'
