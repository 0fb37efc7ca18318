"""How every model answers :class:`~pyvista_quake.QuakeModel`: its surfaces, and the frames that move them.

:class:`SurfaceFrames` are the frames behind every model: each surface's
positions and normals come from its codec (:mod:`.decode`: an MD3's shorts, a
level's or a registered format's floats), or from its format's part where the
format says more: an MD2's or MDL's :class:`~pyvista_quake.model.packed.AliasPart`
(packed bytes over the points of its triangles or GL commands) and a skeletal
model's :class:`~pyvista_quake.model.skinned.SkeletalPart` (its joints).  Its
images come from the game's files (:mod:`.skins`: ``.skin`` files, shaders, a
Cube 2 config, an MD2's skins).  A frame is a :class:`pyvista.MultiBlock` with
one ``PolyData`` per surface, in file order, named after the surfaces -- also
when there is one surface; an MD2's or MDL's is its one ``PolyData``, as stored.
"""

from __future__ import annotations

import dataclasses
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pyvista as pv
from vtkmodules.vtkCommonDataModel import vtkCompositeDataSet
from vtkmodules.vtkCommonDataModel import vtkFieldData

from pyvista_quake._base import fields as keys
from pyvista_quake._base.options import LoadOptions
from pyvista_quake._base.warnings import warn_external
from pyvista_quake.data import animation as anim
from pyvista_quake.data.animation import Animation
from pyvista_quake.data.decode import FrameSelection
from pyvista_quake.data.decode import frame_indices
from pyvista_quake.data.decode import surface_normals
from pyvista_quake.data.decode import surface_positions
from pyvista_quake.data.poses import PoseRun
from pyvista_quake.formats import FORMATS
from pyvista_quake.formats import shader as shader_script
from pyvista_quake.formats import wal
from pyvista_quake.formats.bsp import LIGHTMAP_SIZE
from pyvista_quake.formats.bsp import lightmap_pages_are_deluxe
from pyvista_quake.formats.bsp import lit_lightmaps
from pyvista_quake.formats.records import LevelData
from pyvista_quake.formats.records import ModelData
from pyvista_quake.formats.records import Tag
from pyvista_quake.formats.shader import Shader
from pyvista_quake.game.filesystem import SHOWN_PLACES
from pyvista_quake.game.filesystem import FoundSkin
from pyvista_quake.game.filesystem import GameFiles
from pyvista_quake.game.filesystem import warn_missing
from pyvista_quake.game.model_configs import ResolvedConfig
from pyvista_quake.game.skins import decode_image
from pyvista_quake.game.skins import find_palette
from pyvista_quake.game.skins import image_has_alpha
from pyvista_quake.game.skins import palette_image
from pyvista_quake.game.skins import pcx_palette
from pyvista_quake.game.skins import png_bytes
from pyvista_quake.game.skins import read_palette
from pyvista_quake.game.skins import surface_images
from pyvista_quake.model import edit
from pyvista_quake.model.base import ModelFrames
from pyvista_quake.model.edit import surfaces_from_frames
from pyvista_quake.model.mesh import ascii_text
from pyvista_quake.model.mesh import build_polydata
from pyvista_quake.model.mesh import frame_template
from pyvista_quake.model.mesh import vtk_array
from pyvista_quake.model.packed import AliasPart
from pyvista_quake.model.skinned import BIND_POSE
from pyvista_quake.model.skinned import SkeletalPart


class SurfaceFrames(ModelFrames):
    """The frames of every model: surfaces, each with its own image (an MD2, MDL, MD3, level, IQM, MD5, a registered format's).

    The surfaces' codecs give their points (:meth:`positions`, :meth:`normals`); an
    MD2's or MDL's are its :attr:`alias` part's packed bytes, a skeletal model's its
    :attr:`skeletal` part's joints.  The images come from a ``.skin`` file, shaders,
    a config or an MD2's skins through the game's files, and a pose is a MultiBlock
    of a ``PolyData`` per surface (an MD2's or MDL's its one ``PolyData``).

    Parameters
    ----------
    data : ModelData
        The parsed content of the file.
    options : LoadOptions, optional
        How the model is read.
    search : GameFiles, optional
        Where to look for its ``.skin`` file and images.
    animations : list of PoseRun, optional
        A skeletal model's attached animations (see :class:`~pyvista_quake.model.skinned.SkeletalPart`).
    config : ResolvedConfig, optional
        The Cube 2 config a skeletal model was assembled from.
    """

    skeletal: SkeletalPart | None
    alias: AliasPart | None

    def __init__(
        self,
        data: ModelData,
        options: LoadOptions | None = None,
        *,
        search: GameFiles | None = None,
        animations: list[PoseRun] | None = None,
        config: ResolvedConfig | None = None,
    ) -> None:
        self.options = options if options is not None else LoadOptions()
        self.search = search if search is not None else GameFiles()
        self.data = data
        if data.skeleton is None and (animations or config is not None):
            raise TypeError(f'{data.source}: animation files and Cube 2 configs belong to skeletal models (IQM, MD5)')
        # The skinned-joints codec of a skeletal model's surfaces, and its joints: its frames come from them.
        self.skeletal = SkeletalPart(self, animations, config) if data.skeleton is not None else None
        # An MD2's or MDL's part: its skins, GL commands and frame groups, and the codec of its one surface of packed bytes.
        self.alias = AliasPart(self) if data.alias is not None else None
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
        self._skin = self.alias.skins.valid_index(value) if self.alias is not None else value  # an MD2's or MDL's: a skin number
        for name in ('_surface_images', 'skin_definition', '_templates_by_frame'):
            self.__dict__.pop(name, None)
        if self.alias is not None:
            self.alias.forget_skin()

    def __len__(self) -> int:
        """Return the number of frames (a skeletal model's: 1, the bind pose, with no animation)."""
        return len(self.skeletal) if self.skeletal is not None else self.data.num_frames

    def __repr__(self) -> str:
        """Return a one-line summary."""
        if self.skeletal is not None:
            return repr(self.skeletal)
        if self.alias is not None:
            return repr(self.alias)
        level = self.level
        if level is not None:
            return (
                f'QuakeModel({self.format.upper()} level {self.source!r}, {len(self.data.surfaces)} surfaces, '
                f'{sum(len(s.triangles) for s in self.data.surfaces)} triangles, {len(level.entities)} entities)'
            )
        return f'QuakeModel({self.format.upper()} {self.source!r}, {len(self)} frames, {len(self.data.surfaces)} surfaces, {len(self.tags)} tags)'

    @cached_property
    def frame_names(self) -> list[str]:
        """Name of each frame: as stored, or a skeletal model's (its animation's and its number in it: ``idle 3``)."""
        return list(self.skeletal.frame_names) if self.skeletal is not None else self.data.decoded_frame_names()

    def frame_name(self, index: int) -> str:
        """Name of one frame, decoding that name only (a skeletal model's reading no animation file past it)."""
        if 'frame_names' in self.__dict__:
            return self.frame_names[index]
        if self.skeletal is not None:
            return self.skeletal.frame_name(index)
        return self.data.frame_name(index)

    # -- what users ask about -------------------------------------------------
    @property
    def surface_names(self) -> list[str]:
        """Name of each surface, in file order (names may repeat); an MD2's or MDL's one, the model's file name (``tris``)."""
        if self.alias is not None:
            return [self.search.model_stem() or 'model']
        return [s.name for s in self.data.surfaces]

    # -- skins ----------------------------------------------------------------------
    @cached_property
    def skin_definition(self) -> Path | str | None:
        """The ``.skin`` file the surfaces' images come from, if any (see :func:`~pyvista_quake.game.skins.surface_images`)."""
        return self._surface_images[1]

    @cached_property
    def _surface_images(self) -> tuple[list[str | None], Path | str | None]:
        if self.skeletal is not None:  # its config's skins first
            return self.skeletal.image_names(self.skin)
        if self.alias is not None:  # the chosen skin's name
            return self.alias.image_names(self.skin), None
        return surface_images(self.data, self.search, self.skin)

    @property
    def image_names(self) -> list[str | None]:
        """The image (or shader) name each surface shows: its ``.skin`` line, else its first shader."""
        return self._surface_images[0]

    def image_name(self, index: int) -> str | None:
        """The image (or shader) name surface ``index`` shows (see :attr:`image_names`)."""
        return self.image_names[index]

    def surface_skin(self, index: int, frame: int | None = None) -> FoundSkin | None:
        """Find surface ``index``'s image file (other image extensions tried, as ``R_FindImageFile`` does).

        A missing image warns once, naming the places tried.  An MD2's or MDL's: its chosen skin's.
        A surface with a picture a frame (a sprite's): frame ``frame``'s (the first by default).
        """
        surface = self.data.surfaces[index] if self.alias is None else None
        if surface is not None and (surface.frame_pictures is not None or surface.frame_images is not None):
            return self._frame_skin(index, 0 if frame is None else self._frame_number(frame)) if self.skin is not None else None
        if self.alias is not None:
            return self.alias.skin_file(self.skin) if self.skin is not None else None
        name = self.image_names[index]
        if name is None:
            return None
        if self.data.level is not None and self._missing is None:
            self._find_level_images()
        if self.skeletal is not None and name not in self._images:
            named, found = self.skeletal.config_image(index, name)
            if named:
                self._images[name] = found
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
                if self._missing is not None and self.data.level is not None:
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
            self.surface_skin(k)
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

    def surface_alpha(self, index: int) -> str:
        """How surface ``index``'s image alpha is drawn, as its shader says (``R_ParseShader``).

        ``'cutout'`` (``alphaFunc``), ``'blend'``, ``'add'`` (``blendFunc``), or
        ``'opaque'``: an image with no shader, or a shader with neither, is drawn
        opaque whatever its alpha.  An additive or blended stage whose image is missing
        keeps its blend all the same: it never paints opaque.
        """
        if self.alias is not None:
            return self.alias.alpha()
        if self.data.surfaces[index].alpha is not None:  # the file says (a sprite's)
            return self.data.surfaces[index].alpha
        name = self.image_names[index]
        if self.skeletal is not None:
            return 'opaque'  # the Cube 2 configs' masks are glow and spec maps, not alpha
        if name is None:
            return 'opaque'
        found = self.surface_skin(index)
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

    def surface_vertex_colours(self, index: int) -> bool:
        """Whether surface ``index``'s image is multiplied by its vertex colours (see :attr:`Surface.vertex_colours`)."""
        name = self.image_names[index]
        shader = self._shaders.get(_shader_key(name)) if name is not None else None
        return shader.vertex_colours if shader is not None else True

    def surface_image(self, index: int, frame: int | None = None) -> np.ndarray | None:
        """Surface ``index``'s image as an RGB(A) ``uint8`` array, rows from the top (``None`` if none); of a
        surface with a picture a frame, frame ``frame``'s."""
        if self.alias is not None:  # an MDL's pictures are the file's, through its palette
            return self.alias.skin_image(self.skin) if self.skin is not None else None
        found = self.surface_skin(index, frame)
        return decode_image(found.data, found.location) if found is not None else None

    def per_surface_positions(self, frames: FrameSelection = None) -> list[np.ndarray]:
        """Each surface's point positions (see :meth:`positions`)."""
        return self.positions(frames)

    def per_surface_normals(self, frames: FrameSelection = None) -> list[np.ndarray]:
        """Each surface's unit point normals (see :meth:`normals`)."""
        return self.normals(frames)

    def point_counts(self) -> list[int]:
        """Points of each surface (a point per stored vertex, or per ``point_vertex`` entry; an MD2's or MDL's, its topology's)."""
        if self.alias is not None:
            return [len(self.alias.topology.point_vertex)]
        return [s.num_points for s in self.data.surfaces]

    def vertex_positions(self, frames: FrameSelection = None) -> np.ndarray:
        """Positions of the file's vertices, every surface's in turn (an MD2's or MDL's, not its mesh's points)."""
        if self.alias is not None:
            return self.alias.vertex_positions(frames)
        return super().vertex_positions(frames)

    def bounds(self, frames: FrameSelection = None) -> np.ndarray:
        """Bounding box of each frame over every surface, ``(frames, 6)`` as ``xmin, xmax, ymin, ymax, zmin, zmax``."""
        pos = self.vertex_positions(frames)  # an MD2's or MDL's file vertices: a vertex no triangle uses counts too
        out = np.zeros((len(pos), 6), np.float32)
        if pos.shape[1]:
            out[:, 0::2] = pos.min(axis=1)
            out[:, 1::2] = pos.max(axis=1)
        return out

    @property
    def entries(self) -> list[range]:
        """The frames as the game numbers them: one entry a frame (an MDL frame group one entry, its pictures a range)."""
        if self.alias is not None:
            return self.alias.entries()
        return anim.entries(len(self), self.data.frame_groups)

    # -- MultiBlocks --------------------------------------------------------------------
    def _pose(self, frame: int, points: list[np.ndarray], normals: list[np.ndarray]) -> pv.MultiBlock | pv.PolyData:
        """A MultiBlock with a ``PolyData`` per surface, in file order, named after it (an MD2's or MDL's: its one
        ``PolyData``, as the file stores one surface).

        Each block has float32 points, ``Normals``, texture coordinates (``u = s``,
        ``v = 1 - t``), ``point_data['vertex_index']`` and, in field data, the model's
        metadata, the surface's name and its image (``block.quake.texture``).
        """
        if self.alias is not None:
            return self.alias.polydata(frame, points[0], normals[0])
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
            if self.level_deluxemaps is not None and 'lightmap_page' in arrays:  # page 2k is light page k
                page = np.asarray(arrays['lightmap_page'])
                arrays['lightmap_page'] = np.where(page >= 0, page // 2, page).astype(page.dtype)
            out.append(frame_template(uv, triangles, point_arrays={keys.VERTEX_INDEX: vertex, **arrays}))
        return out

    def _image_size(self, index: int) -> tuple[int, int] | None:
        """``(width, height)`` of surface ``index``'s image, or ``None`` without one."""
        image = self.surface_image(index)
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
        if self.data.level is not None:
            out[keys.BRUSH_MODEL] = np.array([self.data.surfaces[index].brush_model], np.int32)
        if self.skin is not None:
            found = self.surface_skin(index, max(frame, 0))
            alpha = self.surface_alpha(index)
            if found is not None:
                out.update(found.field_data())
            if found is not None or alpha != 'opaque':  # with no image, a blending shader still says so
                out[keys.SKIN_ALPHA] = [alpha]
        return out

    @property
    def tags(self) -> dict[str, Tag]:
        """Tags by name: ``origins`` ``(frames, 3)`` and ``axes`` ``(frames, 3, 3)`` (rows), as stored (a skeletal
        model's: its joints' that its config names; an MD2's: a ``.tag`` file's beside it)."""
        if self.alias is not None:
            return self.alias.tags
        return self.skeletal.tags if self.skeletal is not None else self.data.tags

    @property
    def skin_file(self) -> Any:
        """Deprecated: an MD3's :attr:`skin_definition` (``skin_file`` names an image file's :class:`FoundSkin` for every format
        from 0.3); an MD2's or MDL's ``alias.skin_file``."""
        if self.alias is not None:
            return self.alias.skin_file
        if self.skeletal is not None:
            raise AttributeError('skin_file')
        warn_external(
            'skin_file of an MD3 is deprecated and changes in pyvista-quake 0.3; use skin_definition for its .skin file, '
            "or surfaces[k].image_file() for each surface's image",
            DeprecationWarning,
        )
        return self.skin_definition

    # -- a level's lightmaps ------------------------------------------------------------
    @cached_property
    def _level_pages(self) -> tuple[np.ndarray | None, np.ndarray | None]:
        """A level's light pages and, of a deluxe-compiled Quake III map, its light-direction pages, found once."""
        level = getattr(self.data, 'level', None)
        if level is None:
            return None, None
        pages = level.lightmaps
        if pages is None and level.external_lightmaps:
            pages = self._external_lightmaps(level)
        elif pages is not None and level.side_light is not None:
            found, _ = self.search.find(f'{self._map_stem()}{level.side_light}')
            if found is not None:
                coloured = lit_lightmaps(self.data.file, level.entities, found.data, found.location)
                if coloured is not None:
                    return coloured, None
        if pages is None:  # none: an empty array of pages, one type for every level
            side = LIGHTMAP_SIZE if level.game == 'quake3' else 0
            return np.zeros((0, side, side, 3), np.uint8), None
        if level.game == 'quake3' and lightmap_pages_are_deluxe(level, len(pages), self._face_pages()):
            return np.ascontiguousarray(pages[0::2]), np.ascontiguousarray(pages[1::2])
        return pages, None

    def _face_pages(self) -> np.ndarray:
        """The lightmap page numbers a level's surfaces name, as stored (below 0: lit by vertex colours)."""
        named = [np.asarray(s.point_arrays['lightmap_page']) for s in self.data.surfaces if 'lightmap_page' in s.point_arrays]
        return np.concatenate(named) if named else np.zeros(0, np.int32)

    @property
    def level_lightmaps(self) -> np.ndarray | None:
        """A level's light pages (see :attr:`QuakeModel.lightmaps <pyvista_quake.QuakeModel.lightmaps>`)."""
        return self._level_pages[0]

    @property
    def level_deluxemaps(self) -> np.ndarray | None:
        """A deluxe-compiled level's light-direction pages (see :attr:`QuakeModel.deluxemaps <pyvista_quake.QuakeModel.deluxemaps>`)."""
        return self._level_pages[1]

    def _map_stem(self) -> str:
        """The map's name in the game's files without its ``.bsp``: ``maps/NAME``, from the archive member or its path."""
        where = self.search.member if self.search.archive is not None and self.search.member else Path(self.source).as_posix()
        stem = where[: -len('.bsp')] if where.lower().endswith('.bsp') else where
        if '/maps/' in stem:
            return 'maps/' + stem.rsplit('/maps/', 1)[1]
        return stem if stem.startswith('maps/') else 'maps/' + stem.rsplit('/', 1)[-1]

    def _external_lightmaps(self, level: LevelData) -> np.ndarray | None:
        """q3map2's ``maps/NAME/lm_NNNN.tga`` pages, found as the game finds files (``None`` if page 0 is missing)."""
        stem = self._map_stem()
        pages: list[np.ndarray] = []
        for number in range(10000):
            found, _ = self.search.find(f'{stem}/lm_{number:04d}.tga')
            image = decode_image(found.data, found.location) if found is not None else None
            if image is None or (pages and image.shape[:2] != pages[0].shape[:2]):
                break
            pages.append(np.ascontiguousarray(image[..., :3]))
        if not pages:
            warn_external(f'{self.source}: the lightmaps are outside the map and {stem}/lm_0000.tga was not found')
            return None
        return np.stack(pages)

    # -- geometry -------------------------------------------------------------------
    def positions(self, frames: FrameSelection = None) -> list[np.ndarray]:
        """Point positions of each surface, ``float32`` ``(frames, vertices, 3)``, from its codec (an MD3's ``xyz / 64``,
        a level's floats, a skeletal model's skinned joints)."""
        if self.skeletal is not None:
            return self.skeletal.positions(frames)
        if self.alias is not None:  # the points of its topology (its triangles', or its GL commands')
            return [self.alias.positions(frames)]
        rows = self._rows(frames)
        return [surface_positions(s, rows, self.data.source) for s in self.data.surfaces]

    def normals(self, frames: FrameSelection = None) -> list[np.ndarray]:
        """Unit point normals of each surface, ``float32`` ``(frames, vertices, 3)``, from its codec."""
        if self.skeletal is not None:
            return self.skeletal.normals(frames)
        if self.alias is not None:
            return [self.alias.normals(frames)]
        rows = self._rows(frames)
        return [surface_normals(s, rows, self.data.source) for s in self.data.surfaces]

    def surface_positions(self, index: int, frames: FrameSelection = None) -> np.ndarray:
        """Surface ``index``'s point positions, decoding that surface only (a skeletal model skins them all)."""
        if self.skeletal is not None or self.alias is not None:
            return self.positions(frames)[index]
        return surface_positions(self.data.surfaces[index], self._rows(frames), self.data.source)

    def surface_normals(self, index: int, frames: FrameSelection = None) -> np.ndarray:
        """Surface ``index``'s unit point normals, decoding that surface only."""
        if self.skeletal is not None or self.alias is not None:
            return self.normals(frames)[index]
        return surface_normals(self.data.surfaces[index], self._rows(frames), self.data.source)

    def _frame_number(self, index: int) -> int:
        if self.skeletal is not None:  # reading no animation file past it
            return int(self.skeletal.frame_rows([index])[0])
        return super()._frame_number(index)

    def _frame_points(self, frame: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
        if self.skeletal is not None:
            return self.skeletal.frame_points(frame)
        if self.alias is not None:
            return self.alias.frame_points(frame)
        return super()._frame_points(frame)

    def _between_points(self, first: int, second: int, alpha: float) -> tuple[list[np.ndarray], list[np.ndarray]]:
        if self.skeletal is not None:  # the joints blended as the engine blends them
            return self.skeletal.between_points(first, second, alpha)
        return super()._between_points(first, second, alpha)

    def brush_model(self, index: int) -> int:
        """The level's brush model surface ``index`` belongs to: 0 the world, N the entity model ``*N`` (0 for a model)."""
        return self.data.surfaces[index].brush_model if self.level is not None else 0

    def _rows(self, frames: FrameSelection) -> np.ndarray | slice:
        """Frame numbers, or a slice for a run of consecutive frames (a view of the file, no gather)."""
        index = frame_indices(frames, len(self))
        if len(index) and np.array_equal(index, np.arange(index[0], index[0] + len(index))):
            return slice(int(index[0]), int(index[0]) + len(index))
        return index

    # -- animations -------------------------------------------------------------------
    @cached_property
    def animations(self) -> dict[str, Animation]:
        """Animations by name: from frame names (a skeletal model's: its files' and config's) and the caller's ``animations``."""
        if self.skeletal is not None:
            return self.skeletal.animations
        if self.alias is not None:  # and MDL frame groups, a .anm file
            return self.alias.animations()
        return anim.model_animations(self.frame_names, self.data.frame_groups, self.fps, None, _user_animations(self.options), self.source)

    @cached_property
    def _timeline(self) -> tuple[np.ndarray, float]:
        if self.alias is not None:  # MDL frame groups timed by their intervals
            return self.alias.timeline()
        return anim.timeline(len(self), self.data.frame_groups, self.fps)

    # -- editing (see pyvista_quake.model.edit) ---------------------------------------------
    def _set_data(self, data: ModelData) -> None:
        """Hold new data (after an edit): every derived attribute is rebuilt on demand."""
        self.data = data
        self.edited = True
        for name in ('frame_names', 'animations', '_timeline', '_templates', '_templates_by_frame', '_surface_images', 'skin_definition'):
            self.__dict__.pop(name, None)
        if self.alias is not None:
            self.alias.renew()

    def _editable(self) -> None:
        if self.skeletal is not None:
            self.skeletal.refuse_edit()

    def set_frame(self, index: int, points, normals=None) -> None:
        """Replace one frame: ``points`` a MultiBlock of the surfaces (or a list of ``(vertices, 3)`` arrays).

        Positions are quantised to 1/64 and normals to latitude/longitude bytes
        (computed from the geometry unless given), so what the model shows is
        what :meth:`save` writes.  An MD2's or MDL's: see :meth:`AliasPart.set_frame <pyvista_quake.model.packed.AliasPart.set_frame>`.
        """
        if self.alias is not None:
            return self.alias.set_frame(index, points, normals)
        self._editable()
        points, carried = edit.surface_arrays(self._per_surface(points), len(self.data.surfaces))
        frame = int(frame_indices([index], len(self))[0])
        given = self._per_surface(normals) if normals is not None else carried
        self._set_data(edit.edit_surfaces(self.data, frames=[frame], positions=[points], normals=[given]))

    def add_frames(self, frames, names=None, at: int | None = None) -> None:
        """Insert frames (each a MultiBlock of the surfaces, or a list of ``(vertices, 3)`` arrays) at ``at``, the end by default.

        Tags keep the values of the frame before the insertion.
        """
        if self.alias is not None:
            return self.alias.add_frames(frames, names, at)
        self._editable()
        self._set_data(edit.add_surface_frames(self.data, [self._per_surface(f) for f in frames], names, at))

    def _per_surface(self, frame: Any) -> Any:
        """A frame as an edit takes it: a MultiBlock or a list of arrays, one per surface (a PolyData or an array of
        every surface's points in turn is cut at the surfaces)."""
        if isinstance(frame, pv.PolyData):
            frame = frame.points
        if isinstance(frame, (pv.MultiBlock, list, tuple)):
            return frame
        array = np.asarray(frame)
        offsets = np.concatenate([[0], np.cumsum(self.point_counts(), dtype=np.int64)])
        if array.ndim != 2 or len(array) != offsets[-1]:
            raise ValueError(f'{self.source}: a frame of {offsets[-1]} points, (points, 3), not {array.shape}')
        return [array[a:b] for a, b in zip(offsets[:-1], offsets[1:])]

    def remove_frames(self, frames: FrameSelection) -> None:
        """Drop frames (their tags with them; MDL frame groups lose them)."""
        if self.alias is not None:
            return self.alias.remove_frames(frames)
        self._editable()
        dropped = set(frame_indices(frames, len(self)).tolist())
        self._set_data(edit.edit_surfaces(self.data, keep=np.array([k for k in range(len(self)) if k not in dropped])))

    def rename_frame(self, index: int, name: str) -> None:
        """Rename one frame (at most 15 bytes)."""
        if self.alias is not None:
            return self.alias.rename_frame(index, name)
        self._editable()
        self._set_data(edit.edit_surfaces(self.data, names={int(frame_indices([index], len(self))[0]): name}))

    @classmethod
    def from_frames(cls, frames, *, names=None, tags=None, fps: float | None = None) -> SurfaceFrames:
        """Build an MD3 from frames, each a MultiBlock of surfaces (see :func:`pyvista_quake.model.edit.surfaces_from_frames`)."""
        data = surfaces_from_frames(frames, names, tags)
        return cls(data, LoadOptions(fps=fps) if fps is not None else LoadOptions())


def _shader_key(name: str) -> str:
    """A shader's name as scripts name it: ``/`` separators, lower case, no image extension."""
    key = name.replace('\\', '/').lower()
    stem, dot, suffix = key.rpartition('.')
    return stem if dot and suffix in ('tga', 'jpg', 'jpeg', 'png', 'bmp', 'pcx') else key


def _user_animations(options: LoadOptions) -> dict:
    """The caller's animations by name (a list of files is a skeletal model's to attach, not names)."""
    return options.animations if isinstance(options.animations, dict) else {}
