"""The one model class, for every format: :class:`QuakeModel`, a list of surfaces and the frames that move them.

:class:`QuakeModel` is what :func:`pyvista_quake.load` returns for every format, one class with no
class of the package beneath it.  Each surface's positions and normals come from its codec: plain
floats (levels, registered formats), an MD3's shorts of 1/64, an MD2's or MDL's packed bytes (its
:class:`~pyvista_quake.model.packed.AliasPart`) or a skeletal model's joints (its
:class:`~pyvista_quake.model.skinned.SkeletalPart`); the images come from the game's files.  Every
name means one thing and returns one type for every format.  What belongs to some formats only is a
read-only part of the model: ``model.alias`` (MD2, MDL) and ``model.skeletal`` (IQM, MD5), ``None``
elsewhere; a level's own is ``model.level``.
"""

from __future__ import annotations

import dataclasses
import functools
from functools import cached_property
from pathlib import Path
from typing import Any
from typing import Sequence
from typing import TypeGuard

import numpy as np
import numpy.typing as npt
import pyvista as pv
from vtkmodules.vtkCommonDataModel import vtkCompositeDataSet
from vtkmodules.vtkCommonDataModel import vtkFieldData

from pyvista_quake._base import fields as keys
from pyvista_quake._base.options import LoadOptions
from pyvista_quake._base.warnings import warn_external
from pyvista_quake.data import animation as anim
from pyvista_quake.data import collision as queries
from pyvista_quake.data.animation import Animation
from pyvista_quake.data.animation import lerp_tag
from pyvista_quake.data.animation import tag_matrix
from pyvista_quake.data.decode import FrameSelection
from pyvista_quake.data.decode import frame_indices
from pyvista_quake.data.poses import PoseRun
from pyvista_quake.formats import FORMATS
from pyvista_quake.formats import format_for_path
from pyvista_quake.formats import shader as shader_script
from pyvista_quake.formats import wal
from pyvista_quake.formats._alias import alias_model
from pyvista_quake.formats.bsp import CONTENTS
from pyvista_quake.formats.bsp import MASKS
from pyvista_quake.formats.bsp import Q3Collision
from pyvista_quake.formats.records import AliasData
from pyvista_quake.formats.records import LevelData
from pyvista_quake.formats.records import ModelData
from pyvista_quake.formats.records import Tag
from pyvista_quake.formats.registry import FormatSpec
from pyvista_quake.formats.shader import Shader
from pyvista_quake.game.filesystem import SHOWN_PLACES
from pyvista_quake.game.filesystem import FoundSkin
from pyvista_quake.game.filesystem import GameFiles
from pyvista_quake.game.filesystem import warn_missing
from pyvista_quake.game.model_configs import ResolvedConfig
from pyvista_quake.game.skins import find_palette
from pyvista_quake.game.skins import image_has_alpha
from pyvista_quake.game.skins import palette_image
from pyvista_quake.game.skins import pcx_palette
from pyvista_quake.game.skins import png_bytes
from pyvista_quake.game.skins import read_palette
from pyvista_quake.model import edit
from pyvista_quake.model.edit import surfaces_from_frames
from pyvista_quake.model.mesh import ascii_text
from pyvista_quake.model.mesh import build_polydata
from pyvista_quake.model.mesh import entity_points
from pyvista_quake.model.mesh import frame_template
from pyvista_quake.model.mesh import joined
from pyvista_quake.model.mesh import vtk_array
from pyvista_quake.model.navigation import Navigation
from pyvista_quake.model.packed import AliasPart
from pyvista_quake.model.saving import save
from pyvista_quake.model.skinned import BIND_POSE
from pyvista_quake.model.skinned import SkeletalPart
from pyvista_quake.model.stored import LevelSurfaces
from pyvista_quake.model.stored import StoredSurfaces


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
        self._codec = model._codec  # where its positions and normals come from

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
        return self.model.data.surfaces[self.index].brush_model  # 0 for a model's

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
        return self._codec.surface_positions(self.index, frames)

    def normals(self, frames: FrameSelection = None) -> npt.NDArray[np.float32]:
        """Unit point normals over the given frames, ``float32`` ``(frames, points, 3)``."""
        return self._codec.surface_normals(self.index, frames)

    @property
    def image_name(self) -> str | None:
        """The image (or shader) name the surface shows: its ``.skin`` line, config skin, material or shader, or an
        MD2's chosen skin name; ``None`` without one (``skin=None``, an MDL's embedded pictures)."""
        return self.model._image_name(self.index)

    @property
    def alpha(self) -> str:
        """How the image's alpha is drawn: ``'opaque'``, ``'cutout'``, ``'blend'`` or ``'add'``, as the game's shader (or an MDL's ``MF_HOLEY``) says."""
        return self.model._surface_alpha(self.index)

    @property
    def vertex_colours(self) -> bool:
        """Whether the game multiplies the surface's image by its vertices' colours where no lightmap lights it:
        its shader's colour stage says ``rgbGen vertex`` (or ``exactVertex``), or it has no shader script
        (the engine's own default for a vertex-lit face)."""
        return self.model._surface_vertex_colours(self.index)

    def image_file(self, frame: int | None = None) -> FoundSkin | None:
        """The image file the surface shows (the model's chosen skin), or ``None``; of a surface with a picture a
        frame (a sprite's), frame ``frame``'s (the first by default)."""
        return self.model._surface_skin(self.index, frame)  # none with skin=None

    def image(self, frame: int | None = None) -> np.ndarray | None:
        """The image the surface shows as RGB(A) ``uint8``, rows from the top; ``None`` without one.

        Of a surface with a picture a frame (a sprite's), frame ``frame``'s (the first by default);
        the pictures travel with the frames too (``model.blocks(k)``' field data).
        """
        return self.model._surface_image(self.index, frame)


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
    animations : list of PoseRun, optional
        A skeletal model's attached animations (see :class:`~pyvista_quake.model.skinned.SkeletalPart`).
    config : ResolvedConfig, optional
        The Cube 2 config a skeletal model was assembled from.

    Examples
    --------
    >>> import pyvista_quake
    >>> model = pyvista_quake.load('tris.md2')  # doctest: +SKIP
    >>> mesh = model.mesh(0)  # one PolyData, for every format  # doctest: +SKIP
    >>> blocks = model.blocks(0)  # a MultiBlock, a PolyData per surface  # doctest: +SKIP
    >>> model.surfaces[0].image()  # its skin  # doctest: +SKIP

    """

    def __init__(
        self,
        data: AliasData | ModelData,
        options: LoadOptions | None = None,
        *,
        search: GameFiles | None = None,
        animations: list[PoseRun] | None = None,
        config: ResolvedConfig | None = None,
    ) -> None:
        if not isinstance(data, ModelData):  # an MD2's or MDL's part alone, as 0.2 took it
            data = alias_model(data)
        self.options = options if options is not None else LoadOptions()
        self.search = search if search is not None else GameFiles()
        self.data = data
        #: The format's name (``'md2'``, ``'md3'``, ``'sprite'``...): its registration is :attr:`spec`.
        self.format: str = data.format
        #: The file the model came from.
        self.source: str = data.source
        # The codec the surfaces' frames come from, chosen from the record: stored vertices (and a level's),
        # an MD2's or MDL's packed bytes, or a skeletal model's joints.
        self._codec = _codec_for(self, data, animations, config)
        self.edited = False
        self._images: dict[str, FoundSkin | None] = {}
        self._missing: list[tuple[str, list]] | None = None  # a level's images not found, once all are looked up
        self._alpha: dict[str, bool] = {}  # whether each image found has alpha, by name: surfaces share images
        self.skin = self.options.skin

    @property
    def skin(self):
        """The skin the surfaces show (see :class:`~pyvista_quake.LoadOptions`); setting it changes the frames built from then on."""
        return self._skin

    @skin.setter
    def skin(self, value) -> None:
        self._skin = self._codec.valid_skin(value)  # an MD2's or MDL's: a skin number
        for name in ('_surface_images', 'skin_definition', '_templates_by_frame'):
            self.__dict__.pop(name, None)
        self._codec.forget_skin()

    def __len__(self) -> int:
        """Return the number of frames (a skeletal model's: 1, the bind pose, with no animation)."""
        return len(self._codec)

    def __repr__(self) -> str:
        """Return a one-line summary."""
        return repr(self._codec)

    @cached_property
    def frame_names(self) -> list[str]:
        """Name of each frame: as stored, or a skeletal model's (its animation's and its number in it: ``idle 3``)."""
        return list(self._codec.frame_names)

    def frame_name(self, index: int) -> str:
        """Name of one frame, decoding that name only (a skeletal model's reading no animation file past it)."""
        if 'frame_names' in self.__dict__:
            return self.frame_names[index]
        return self._codec.frame_name(index)

    # -- what users ask about -------------------------------------------------
    @property
    def surface_names(self) -> list[str]:
        """Name of each surface, in file order (names may repeat); an MD2's or MDL's one, the model's file name (``tris``)."""
        return self._codec.surface_names()

    # -- skins ----------------------------------------------------------------------
    @cached_property
    def skin_definition(self) -> Path | str | None:
        """The ``.skin`` file the surfaces' images come from, if any (see :func:`~pyvista_quake.game.skins.surface_images`)."""
        return self._surface_images[1]

    @cached_property
    def _surface_images(self) -> tuple[list[str | None], Path | str | None]:
        return self._codec.surface_images(self.skin)  # a skeletal model's config skins first; an MD2's chosen skin

    @property
    def _image_names(self) -> list[str | None]:
        """The image (or shader) name each surface shows: its ``.skin`` line, else its first shader."""
        return self._surface_images[0]

    def _image_name(self, index: int) -> str | None:
        """The image (or shader) name surface ``index`` shows (see :attr:`image_names`)."""
        return self._image_names[index]

    def _surface_skin(self, index: int, frame: int | None = None) -> FoundSkin | None:
        """Find surface ``index``'s image file (other image extensions tried, as ``R_FindImageFile`` does).

        A missing image warns once, naming the places tried.  An MD2's or MDL's: its chosen skin's.
        A surface with a picture a frame (a sprite's): frame ``frame``'s (the first by default).
        """
        known, found = self._codec.image_file(index, frame)  # an MD2's skin, a sprite's frame, a config's skin
        if known:
            return found
        name = self._image_names[index]
        if name is None:
            return None
        if self._codec.gathers_missing and self._missing is None:
            self._find_level_images()
        picture = self.data.surfaces[index].picture
        if picture is not None:  # embedded in the file (a Quake 1 level's miptex), through the game's palette
            if name not in self._images:
                image = palette_image(picture, self._palette)
                self._images[name] = FoundSkin(name, f'{self.source}:{name}', png_bytes(image))
            return self._images[name]
        if name not in self._images:
            found, tried = self.search.find(name)
            if found is None and name.lower().endswith('.wal'):  # a port's replacement image (yquake2's r_retexturing)
                found, more = self.search.find(name[:-4])
                tried += more
            if found is not None and found.location.lower().endswith('.wal'):
                found = self._wal_image(found)
            shader = self._shaders.get(_shader_key(name)) if found is None else None
            if shader is not None:  # a shader of scripts/*.shader: its first image stage
                found, more = self.search.find(shader.image)
                tried += more
            if found is None:
                what = f'image {shader.image} of shader {name}' if shader is not None else f'image {name}'
                if self._missing is not None:
                    self._missing.append((name, tried))  # a level's are said in one warning
                else:
                    warn_missing(self.source, f'{what} of surface {self.surface_names[index]}', tried)
            self._images[name] = found
        return self._images[name]

    def _frame_skin(self, index: int, frame: int) -> FoundSkin | None:
        """Frame ``frame``'s picture of surface ``index``: the image its name finds in the game's files, else the
        frame's own pixels (through the game's palette where they are indices); found once."""
        key = f'\0frame {index} {frame}'  # no image name holds a NUL
        if key in self._images:
            return self._images[key]
        surface = self.data.surfaces[index]
        named = surface.frame_images[frame] if surface.frame_images is not None else None
        pixels = surface.frame_pictures[frame] if surface.frame_pictures is not None else None
        found: FoundSkin | None = None
        tried: list = []
        if named:
            found, tried = self.search.find(named.replace('{model}', self._model_name()))
        if found is None and pixels is not None and pixels.size:
            image = palette_image(pixels, self._palette, holey=surface.holey) if pixels.ndim == 2 else pixels
            found = FoundSkin(f'{self.surface_names[index]} frame {frame}', f'{self.source}:frame {frame}', png_bytes(image))
        if found is None and named:  # a frame with no pixels of its own names an image the game lacks
            warn_missing(self.source, f'image {named} of frame {frame}', tried)
        self._images[key] = found
        return found

    def _model_name(self) -> str:
        """The model's own path in the game, as a name its files are found by: its archive member, else its file beside it."""
        if self.search.member:
            return self.search.member
        name = self.search.model_file_name()
        return f'./{name}' if name else ''

    def _find_level_images(self) -> None:
        """Look up every surface's image of a level at once, and warn once, naming the textures missing."""
        self._missing = []
        for k in range(len(self.data.surfaces)):
            self._surface_skin(k)
        if self._missing:
            names = [name for name, _ in self._missing]
            shown = ', '.join(names[:SHOWN_PLACES]) + (f' and {len(names) - SHOWN_PLACES} more' if len(names) > SHOWN_PLACES else '')
            warn_missing(self.source, f"{len(names)} of its {len(self.data.surfaces)} surfaces' images ({shown})", self._missing[0][1])

    def _wal_image(self, found: FoundSkin) -> FoundSkin:
        """A Quake II ``.wal`` as a PNG, through the game's ``pics/colormap.pcx`` palette (Quake's without one)."""
        _, pixels = wal.read(found.data, found.location)
        colormap, _ = self.search.find('pics/colormap.pcx')
        palette = pcx_palette(colormap.data) if colormap is not None else None
        image = palette_image(pixels, palette if palette is not None else self._palette)
        return FoundSkin(found.name, found.location, png_bytes(image))

    @cached_property
    def _palette(self) -> np.ndarray:
        """The palette of embedded pictures: the caller's, the game's ``gfx/palette.lmp``, else Quake's."""
        if self.options.palette is not None:
            return read_palette(self.options.palette)
        found = find_palette(self.search)
        return found if found is not None else read_palette(None)

    @cached_property
    def _shaders(self) -> dict[str, Shader]:
        """The game's shaders, read once when an image is not found by name or has alpha to draw."""
        out: dict[str, Shader] = {}
        for _, text in self.search.shader_scripts():
            for name, shader in shader_script.parse(text).items():
                out.setdefault(name, shader)
        return out

    def _surface_alpha(self, index: int) -> str:
        """How surface ``index``'s image alpha is drawn, as its shader says (``R_ParseShader``).

        ``'cutout'`` (``alphaFunc``), ``'blend'``, ``'add'`` (``blendFunc``), or
        ``'opaque'``: an image with no shader, or a shader with neither, is drawn
        opaque whatever its alpha.  An additive or blended stage whose image is missing
        keeps its blend all the same: it never paints opaque.
        """
        said = self._codec.alpha(index)
        if said is not None:  # the file says (a sprite's, an MDL's flags; a skeletal model's opaque)
            return said
        name = self._image_names[index]
        if name is None:
            return 'opaque'
        found = self._surface_skin(index)
        if found is not None:
            if name not in self._alpha:
                self._alpha[name] = image_has_alpha(found.data)
            if not self._alpha[name]:
                return 'opaque'  # the shaders are read only for an image with alpha, or a missing one
        shader = self._shaders.get(_shader_key(name))
        if shader is None:
            return 'opaque'
        if found is None:
            return shader.alpha if shader.alpha in ('add', 'blend') else 'opaque'
        return shader.alpha

    def _surface_vertex_colours(self, index: int) -> bool:
        """Whether surface ``index``'s image is multiplied by its vertex colours (see :attr:`Surface.vertex_colours`)."""
        name = self._image_names[index]
        shader = self._shaders.get(_shader_key(name)) if name is not None else None
        return shader.vertex_colours if shader is not None else True

    def _surface_image(self, index: int, frame: int | None = None) -> np.ndarray | None:
        """Surface ``index``'s image as an RGB(A) ``uint8`` array, rows from the top (``None`` if none); of a
        surface with a picture a frame, frame ``frame``'s."""
        return self._codec.image(index, frame)  # an MDL's pictures are the file's, through its palette

    def vertex_positions(self, frames: FrameSelection = None) -> np.ndarray:
        """Positions of the file's vertices, every surface's in turn (an MD2's or MDL's, not its mesh's points)."""
        return self._codec.vertex_positions(frames)

    def bounds(self, frames: FrameSelection = None) -> np.ndarray:
        """Bounding box of each frame over every surface, ``(frames, 6)`` as ``xmin, xmax, ymin, ymax, zmin, zmax``."""
        pos = self._codec.vertex_positions(frames)  # an MD2's or MDL's file vertices: a vertex no triangle uses counts too
        out = np.zeros((len(pos), 6), np.float32)
        if pos.shape[1]:
            out[:, 0::2] = pos.min(axis=1)
            out[:, 1::2] = pos.max(axis=1)
        return out

    @property
    def entries(self) -> list[range]:
        """The frames as the game numbers them: one entry a frame (an MDL frame group one entry, its pictures a range)."""
        return self._codec.entries()

    # -- MultiBlocks --------------------------------------------------------------------
    def _surface_blocks(self, frame: int, points: list[np.ndarray], normals: list[np.ndarray]) -> pv.MultiBlock:
        """A MultiBlock with a ``PolyData`` per surface, in file order, named after it (what every codec but an MD2's
        or MDL's makes of a pose: that one gives its one ``PolyData``, as the file stores one surface).

        Each block has float32 points, ``Normals``, texture coordinates (``u = s``,
        ``v = 1 - t``), ``point_data['vertex_index']`` and, in field data, the model's
        metadata, the surface's name and its image (``block.quake.texture``).
        """
        templates, frame_fields = self._frame_templates(frame)
        blocks = pv.MultiBlock()
        blocks.SetNumberOfBlocks(len(templates))
        for k, name in enumerate(self._block_names):
            blocks.SetBlock(k, build_polydata(points[k], normals[k], templates[k]))
            blocks.GetMetaData(k).Set(vtkCompositeDataSet.NAME(), name)
        blocks.GetFieldData().ShallowCopy(frame_fields)
        return blocks

    @cached_property
    def _block_names(self) -> list[str]:
        # Names of any bytes: VTK's strings hold ASCII only.
        return [ascii_text(s.name) for s in self.data.surfaces]

    def _frame_templates(self, frame: int) -> tuple[list, vtkFieldData]:
        """Each surface's template with its field data for one frame, and the frame's own, made once."""
        cache = self.__dict__.setdefault('_templates_by_frame', {})
        if frame not in cache:
            own = vtkFieldData()
            # The frame's arrays made once, the same objects in the frame's field data and every surface's.
            for key, value in self._frame_fields(frame).items():
                own.AddArray(vtk_array(key, value))
            templates = []
            for k, template in enumerate(self._templates):
                fields = vtkFieldData()
                fields.ShallowCopy(own)
                for key, value in self._field_data(k, frame).items():
                    fields.AddArray(vtk_array(key, value))
                templates.append(dataclasses.replace(template, field_data=fields))
            cache[frame] = (templates, own)
        return cache[frame]

    @cached_property
    def _templates(self) -> list:
        out = []
        for k, surface in enumerate(self.data.surfaces):
            st = surface.texcoords
            size = surface.texture_size
            if size is None and surface.texels:
                size = self._image_size(k)
            if size is not None and size[0] and size[1]:
                st = st / np.array(size, np.float32)  # texels of the image the game finds (Quake II, UFO: AI levels)
            uv = np.column_stack([st[:, 0], 1.0 - st[:, 1]]).astype(np.float32)
            # VTK winds anticlockwise seen from outside; the file clockwise.
            triangles = np.asarray(surface.triangles, np.int64)[:, ::-1]
            vertex = surface.point_vertex if surface.point_vertex is not None else np.arange(surface.num_vertices, dtype=np.int32)
            arrays = dict(surface.point_arrays)
            if self._level_pages[1] is not None and 'lightmap_page' in arrays:  # page 2k is light page k
                page = np.asarray(arrays['lightmap_page'])
                arrays['lightmap_page'] = np.where(page >= 0, page // 2, page).astype(page.dtype)
            out.append(frame_template(uv, triangles, point_arrays={keys.VERTEX_INDEX: vertex, **arrays}))
        return out

    def _image_size(self, index: int) -> tuple[int, int] | None:
        """``(width, height)`` of surface ``index``'s image, or ``None`` without one."""
        image = self._surface_image(index)
        return (image.shape[1], image.shape[0]) if image is not None else None

    def _frame_fields(self, frame: int) -> dict[str, Any]:
        """The frame's own field data; frame -1 is a skeletal model's bind pose."""
        spec = FORMATS.get(self.format)
        return {
            **(spec.field_data(self.data) if spec is not None and spec.field_data is not None else {}),  # the format's own
            keys.FORMAT: [self.format],
            keys.FRAME_NAME: [self.frame_name(frame) if frame >= 0 else BIND_POSE],
            keys.FRAME_INDEX: np.array([frame], np.int32),
            **({keys.SOURCE: [self.source]} if not self.source.startswith('<') else {}),
        }

    def _field_data(self, index: int, frame: int = 0) -> dict[str, Any]:
        """Surface ``index``'s own field data at frame ``frame``, beside the frame's: its name, number, image and how
        its alpha draws."""
        out: dict[str, Any] = {keys.SURFACE_NAME: [self.surface_names[index]], keys.SURFACE_INDEX: np.array([index], np.int32)}
        out.update(self._codec.field_data(index))  # a level's brush model
        if self.skin is not None:
            found = self._surface_skin(index, max(frame, 0))
            alpha = self._surface_alpha(index)
            if found is not None:
                out.update(found.field_data())
            if found is not None or alpha != 'opaque':  # with no image, a blending shader still says so
                out[keys.SKIN_ALPHA] = [alpha]
        return out

    @property
    def tags(self) -> dict[str, Tag]:
        """Tags by name: ``origins`` ``(frames, 3)`` and ``axes`` ``(frames, 3, 3)`` (rows), as stored (a skeletal
        model's: its joints' that its config names; an MD2's: a ``.tag`` file's beside it)."""
        return self._codec.tags  # a skeletal model's config tags, an MD2's .tag file

    @property
    def skin_file(self) -> Any:
        """Deprecated: an MD3's :attr:`skin_definition`; an MD2's or MDL's ``alias.skin_file``."""
        alias = self.alias
        if self.skeletal is not None:
            raise AttributeError('skin_file')
        where = 'model.alias.skin_file' if alias is not None else 'model.skin_definition for its .skin file'
        warn_external(
            f'model.skin_file is deprecated and changes in pyvista-quake 0.4 (it goes); use {where}, or model.surfaces[k].image_file() '
            "for each surface's image",
            DeprecationWarning,
        )
        return alias.skin_file if alias is not None else self.skin_definition

    # -- a level's lightmaps ------------------------------------------------------------
    @cached_property
    def _level_pages(self) -> tuple[np.ndarray | None, np.ndarray | None]:
        """A level's light pages and, of a deluxe-compiled Quake III map, its light-direction pages, found once."""
        return self._codec.lightmap_pages()

    # -- animations -------------------------------------------------------------------
    @cached_property
    def animations(self) -> dict[str, Animation]:
        """Animations by name: from frame names (a skeletal model's: its files' and config's; an MDL's frame groups,
        a ``.anm`` file) and the caller's ``animations``."""
        return self._codec.clips()

    @cached_property
    def _timeline(self) -> tuple[np.ndarray, float]:
        return self._codec.timeline()  # MDL frame groups timed by their intervals

    # -- editing (see pyvista_quake.model.edit) ---------------------------------------------
    def _set_data(self, data: ModelData) -> None:
        """Hold new data (after an edit): every derived attribute is rebuilt on demand."""
        self.data = data
        self.edited = True
        for name in ('frame_names', 'animations', '_timeline', '_templates', '_templates_by_frame', '_surface_images', 'skin_definition'):
            self.__dict__.pop(name, None)
        self._codec.renew()

    @classmethod
    def _surface_model(cls, frames, *, names=None, tags=None, fps: float | None = None) -> QuakeModel:
        """Build an MD3 from frames, each a MultiBlock of surfaces (see :func:`pyvista_quake.model.edit.surfaces_from_frames`)."""
        data = surfaces_from_frames(frames, names, tags)
        return cls(data, LoadOptions(fps=fps) if fps is not None else LoadOptions())

    @property
    def level(self) -> LevelData | None:
        """A level's own part, or ``None`` for a model."""
        return getattr(self.data, 'level', None)

    # -- poses, the same for every kind ----------------------------------------------
    def _native_frame(self, index: int = 0) -> pv.MultiBlock | pv.PolyData:
        """Return one frame, as its kind builds its meshes (a MultiBlock of surfaces; MD2 and MDL one PolyData)."""
        frame = self._codec.frame_number(index)
        return self._codec.pose(frame, *self._codec.frame_points(frame))

    def _native_between(self, first: int, second: int, alpha: float) -> pv.MultiBlock | pv.PolyData:
        """Frames ``first`` and ``second`` blended (``alpha`` of the way) as the engine blends them."""
        codec = self._codec
        a, b = codec.frame_number(first), codec.frame_number(second)
        return codec.pose(a if alpha < 0.5 else b, *codec.between_points(a, b, alpha))

    def _native_at(self, t: float, animation: str | Animation | None = None, *, loop: bool = True) -> pv.MultiBlock | pv.PolyData:
        """The pose at ``t`` seconds of ``animation`` (the whole file by default), blended between two frames.

        Looping, time wraps and the last frame blends into the first; else it is clamped.
        """
        clip = self.animation(animation)
        k, k_next, alpha = anim.sample(clip.times, clip.duration, t, loop=loop)
        pose = self._native_between(int(clip.frames[k]), int(clip.frames[k_next]), alpha)
        pose.field_data[keys.TIME] = np.array([t], np.float64)
        return pose

    def to_multiblock(self, animation: str | Animation | None = None) -> pv.MultiBlock:
        """Every frame (of one animation, or the file) as a MultiBlock of frames, timed in field data."""
        clip = self.animation(animation)
        out = pv.MultiBlock()
        for k, frame in enumerate(clip.frames):
            pose = self._native_frame(int(frame))
            pose.field_data[keys.TIME] = np.array([clip.times[k]], np.float64)
            out.append(pose, ascii_text(self.frame_names[frame] or f'frame{frame}'))
        return out

    @property
    def header(self) -> dict:
        """Every header field of the file, named as in its spec."""
        return self.data.header

    @property
    def fps(self) -> float:
        """Frame rate of frames with no timing of their own."""
        return self.options.fps

    @property
    def times(self) -> np.ndarray:
        """Start time in seconds of every frame over the whole file (strictly increasing)."""
        return self._timeline[0]

    @property
    def duration(self) -> float:
        """Seconds the whole file takes to play once."""
        return self._timeline[1]

    def animation(self, name: str | Animation | None) -> Animation:
        """Return an animation by name; ``None`` gives the whole file as one animation."""
        if isinstance(name, Animation):
            return name
        if name is None:
            return Animation('all', np.arange(len(self)), self.times, self.duration, None, 'file')
        try:
            return self.animations[name]
        except KeyError:
            raise KeyError(f'{self.source}: no animation {name!r}; it has {sorted(self.animations)}') from None

    # -- tags -------------------------------------------------------------------------
    def tag(self, name: str, frame: int | None = None, time: float | None = None, animation: str | Animation | None = None) -> np.ndarray:
        """A tag as a 4 x 4 matrix: ``matrix @ [p, 1]`` places a point ``p`` of the model attached to it.

        At ``frame`` (0 by default), or at ``time`` seconds of ``animation``
        blended between frames as ``R_LerpTag`` blends it: the origin and each
        axis linearly, then each axis normalised.

        Raises
        ------
        KeyError
            If the model has no such tag.

        """
        if name not in self.tags:
            raise KeyError(f'{self.source}: no tag {name!r}; it has {sorted(self.tags)}')
        tag = self.tags[name]
        if time is None:
            first = int(frame_indices([0 if frame is None else frame], len(self))[0])
            return tag_matrix(tag.origins[first], tag.axes[first])
        clip = self.animation(animation)
        k, k_next, alpha = anim.sample(clip.times, clip.duration, float(time))
        a, b = int(clip.frames[k]), int(clip.frames[k_next])
        return tag_matrix(*lerp_tag(tag.origins[a], tag.axes[a], tag.origins[b], tag.axes[b], alpha))

    @property
    def spec(self) -> FormatSpec:
        """The format's registration: what it is called, which engines load it, whether it can be written."""
        return FORMATS[self.format]

    # -- the parts only some formats have (see pyvista_quake.model.parts) -------------------
    @property
    def alias(self) -> AliasPart | None:
        """An MD2's or MDL's own part: its skins, palette, OpenGL commands, topology and frame-group edits (``None`` for other formats)."""
        codec = self._codec
        return codec if isinstance(codec, AliasPart) else None

    @property
    def skeletal(self) -> SkeletalPart | None:
        """An IQM's or MD5's own part: its joints, bind pose, skeleton and config (``None`` for other formats)."""
        codec = self._codec
        return codec if isinstance(codec, SkeletalPart) else None

    @property
    def entities(self) -> list[dict[str, str]]:
        """A level's entities in file order, each a dict of its keys (empty for a model)."""
        return self._codec.entities

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
        return self._level_pages[0]

    @property
    def deluxemaps(self) -> np.ndarray | None:
        """A deluxe-compiled Quake III level's light-direction pages (q3map2 ``-deluxe``), ``uint8``
        ``(pages, height, width, 3)``, page ``k`` the directions of :attr:`lightmaps` page ``k``; ``None``
        for any other level or model."""
        return self._level_pages[1]

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
        return self._codec.collision()  # a TypeError for a model

    @functools.cached_property
    def navigation(self) -> Navigation | None:
        """A level's bot navigation (``maps/NAME.aas`` beside it in the game's files), checked against the map
        (a warning where its ``bspchecksum`` is another map's); ``None`` where there is none, or for a model."""
        return self._codec.navigation()

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
            the box, ``SURFACE_CLIP_EPSILON`` 0.125 off every entry), and the patches as the engine's collision grid
            of each (``CM_GeneratePatchCollide``: facets within 16 units of the curve, bevelled; a point meets
            a facet from its front only).
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
        chosen = c.model_brush_list(model)
        chosen = chosen[(c.brush_contents[chosen] & mask) == 0]
        points, sizes, brush, _ = queries.brush_faces(c, chosen)
        starts = np.cumsum(sizes) - sizes
        faces = np.insert(np.arange(len(points)), starts, sizes) if len(sizes) else np.zeros(0, np.int64)
        with np.errstate(over='ignore'):  # a corner past float32's range (a broken map's plane) is infinite, as in the engine
            corners = points.astype(np.float32)
        mesh = pv.PolyData(corners, faces=faces)
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

    # -- surfaces ---------------------------------------------------------------------
    @property
    def surfaces(self) -> list[Surface]:
        """The model's surfaces: one for an MD2 or MDL, one per surface of an MD3's file."""
        return [Surface(self, k) for k in range(len(self.surface_names))]

    @property
    def _offsets(self) -> np.ndarray:
        """Where each surface's points start in :meth:`positions` (and the total at the end)."""
        return np.concatenate([[0], np.cumsum(self._codec.point_counts(), dtype=np.int64)])

    # -- geometry ---------------------------------------------------------------------
    def positions(self, frames: FrameSelection = None) -> npt.NDArray[np.float32]:
        """Point positions of the given frames (all by default), ``float32`` ``(frames, points, 3)``.

        The points of every surface in turn, in the order of :meth:`mesh`'s points.
        """
        return _joined(self._codec.positions_each(frames), self, frames)

    def normals(self, frames: FrameSelection = None) -> npt.NDArray[np.float32]:
        """Unit point normals of the given frames, ``float32`` ``(frames, points, 3)``, in the order of :meth:`positions`."""
        return _joined(self._codec.normals_each(frames), self, frames)

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
        return self._as_blocks(self._native_frame(index))

    def at(self, t: float, animation: str | Animation | None = None, *, loop: bool = True) -> pv.MultiBlock:
        """The pose at ``t`` seconds of ``animation``, blended between two frames as the engines blend them, as a MultiBlock.

        Positions linearly, normals renormalised; ``loop`` wraps time (the last
        frame blends into the first), else it is clamped.  ``field_data['time']``
        holds ``t``; :meth:`mesh` with ``time=`` gives one PolyData.
        """
        pose = self._native_at(t, animation, loop=loop)
        blocks = self._as_blocks(pose)
        if blocks is not pose:  # a one-surface pose timed on its mesh: the MultiBlock says it too
            blocks.field_data[keys.TIME] = pose.field_data[keys.TIME]
        return blocks

    def pose(self, frame: int | None = None, animation: str | Animation | None = None, time: float | None = None) -> pv.MultiBlock:
        """One pose, as :meth:`blocks` gives it."""
        return self.blocks(frame, animation, time)

    def between(self, first: int, second: int, alpha: float) -> pv.MultiBlock:
        """Frames ``first`` and ``second`` blended (``alpha`` of the way) as the engines blend them, as a MultiBlock."""
        return self._as_blocks(self._native_between(first, second, alpha))

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
            return self._native_at(float(time), animation)
        if animation is None:  # a frame of the whole file: no timeline needed
            return self._native_frame(0 if frame is None else frame)
        clip = self.animation(animation)
        index = 0 if frame is None else int(frame)
        if not -len(clip) <= index < len(clip):
            raise IndexError(f'{self.source}: frame {index} out of range; {clip.name!r} has {len(clip)} frames')
        return self._native_frame(int(clip.frames[index]))

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

        Positions are quantised as the format stores them (an MD3's to 1/64, its normals to
        latitude/longitude bytes), so what the model shows is what :meth:`save` writes.
        """
        data = self._codec.edited_frame(index, points, normals)
        self._set_data(data)

    def add_frames(self, frames: Sequence, names: Sequence[str] | None = None, at: int | None = None) -> None:
        """Insert frames (each as :meth:`set_frame` takes it) before frame ``at``, by default at the end.

        New frames of an MD3 keep the tags of the frame before them.
        """
        data = self._codec.added_frames(list(frames), names, at)
        self._set_data(data)

    def remove_frames(self, frames: FrameSelection) -> None:
        """Remove frames (MDL frame groups lose them, MD3 tags go with them)."""
        data = self._codec.removed_frames(frames)
        self._set_data(data)

    def rename_frame(self, index: int, name: str) -> None:
        """Rename one frame (at most 15 bytes of Latin-1)."""
        data = self._codec.renamed_frame(index, name)
        self._set_data(data)

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
        if self._codec.must_bake(target):
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
            return cls._surface_model(blocks, fps=fps, **kwargs)
        if isinstance(frames, (list, tuple)):
            frames = [joined(f) if isinstance(f, pv.MultiBlock) else f for f in frames]
        data, images = edit.from_frames(frames, format, **kwargs)
        made = cls(data, LoadOptions(fps=fps) if fps is not None else LoadOptions())
        codec = made._codec
        assert isinstance(codec, AliasPart)  # the record of an MD2 or MDL
        codec.skins.images.update(images)
        return made


def _shader_key(name: str) -> str:
    """A shader's name as scripts name it: ``/`` separators, lower case, no image extension."""
    key = name.replace('\\', '/').lower()
    stem, dot, suffix = key.rpartition('.')
    return stem if dot and suffix in ('tga', 'jpg', 'jpeg', 'png', 'bmp', 'pcx') else key


def _codec_for(model: QuakeModel, data: ModelData, animations: list[PoseRun] | None, config: ResolvedConfig | None) -> StoredSurfaces:
    """The codec of a model's surfaces, as its record says: joints, packed bytes, a level's faces or stored vertices."""
    if data.skeleton is not None:
        return SkeletalPart(model, animations, config)
    if animations or config is not None:
        raise TypeError(f'{data.source}: animation files and Cube 2 configs belong to skeletal models (IQM, MD5)')
    if data.alias is not None:
        return AliasPart(model)
    return LevelSurfaces(model) if data.level is not None else StoredSurfaces(model)


def _joined(per_surface: list[np.ndarray], model: QuakeModel, frames: FrameSelection) -> np.ndarray:
    if len(per_surface) == 1:
        return np.ascontiguousarray(per_surface[0])  # an MD3's decode is a view of four-wide rows
    if not per_surface:
        return np.zeros((len(frame_indices(frames, len(model))), 0, 3), np.float32)
    return np.concatenate(per_surface, axis=1)


#: The model's own extras of 0.2 that now live on its surfaces: what each gives, and how to ask for it.
_SURFACE_EXTRAS = {
    'image_names': ('_image_names', '[s.image_name for s in model.surfaces]'),
    'surface_alpha': ('_surface_alpha', 'model.surfaces[k].alpha'),
    'surface_skin': ('_surface_skin', 'model.surfaces[k].image_file()'),
    'surface_image': ('_surface_image', 'model.surfaces[k].image()'),
}


class _FormerName:
    """A format's extra reached the old way, as the model's own attribute (``model.gl_commands``): it still
    answers, with a ``DeprecationWarning`` naming where it lives now (0.4 removes it)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, model: QuakeModel | None, owner: type | None = None) -> Any:
        if model is None:
            return self
        name = self.name
        if name in _SURFACE_EXTRAS:
            value, where = getattr(model, _SURFACE_EXTRAS[name][0]), _SURFACE_EXTRAS[name][1]
        else:
            part = next((p for p in (model.skeletal, model.alias) if hasattr(p, name)), None)  # None has none of them
            if part is None:
                raise AttributeError(f'{type(model).__name__} of an {model.format.upper()} has no attribute {name!r}')
            value, where = getattr(part, name), f'model.{"skeletal" if part is model.skeletal else "alias"}.{name}'
        warn_external(f'model.{name} is deprecated and changes in pyvista-quake 0.4 (it goes); use {where}', DeprecationWarning)
        return value


def _former_names() -> None:
    """Give :class:`QuakeModel` the names its parts' extras had on it in 0.2, each a :class:`_FormerName`."""
    own = set(dir(QuakeModel)) | {'data', 'options', 'search', 'edited', 'format', 'source'}  # and what each model holds itself
    names = set(_SURFACE_EXTRAS) | {n for part in (AliasPart, SkeletalPart) for n in dir(part) if not n.startswith('_')}
    for name in sorted(names - own):
        former = _FormerName()
        setattr(QuakeModel, name, former)
        former.__set_name__(QuakeModel, name)


_former_names()


class _SurfaceModelMeta(type):
    def __instancecheck__(cls, instance: object) -> bool:
        return isinstance(instance, QuakeModel) and not isinstance(instance._codec, (AliasPart, SkeletalPart))


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
    said = model._codec.nothing_drawn() if is_model(model) else None
    if said:
        return said
    if tags and not any(s.num_triangles for s in surfaces or []):
        return f'tags only ({", ".join(tags[:4])}{", ..." if len(tags) > 4 else ""}): a model other models attach to'
    return 'no surface has a triangle'
