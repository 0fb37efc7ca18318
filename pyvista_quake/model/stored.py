"""The codec of surfaces that store their vertices, and the questions every codec answers.

A model's frames come from its codec, chosen from its record when it is made:

- :class:`StoredSurfaces`: vertices stored per frame, as floats (registered formats, sprites)
  or an MD3's shorts of 1/64 (:mod:`pyvista_quake.data.decode`);
- :class:`LevelSurfaces`: a level's faces, stored floats with the level's own (its entities,
  lightmap pages, collision and navigation);
- :class:`~pyvista_quake.model.packed.AliasPart`: an MD2's or MDL's packed bytes;
- :class:`~pyvista_quake.model.skinned.SkeletalPart`: an IQM's or MD5's joints.

The last two override what their bytes give differently; :class:`~pyvista_quake.QuakeModel`
asks its codec and never which one it has.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pyvista as pv

from pyvista_quake._base import fields as keys
from pyvista_quake._base.options import LoadOptions
from pyvista_quake._base.warnings import warn_external
from pyvista_quake.data import animation as anim
from pyvista_quake.data.animation import Animation
from pyvista_quake.data.decode import FrameSelection
from pyvista_quake.data.decode import frame_indices
from pyvista_quake.data.decode import surface_normals
from pyvista_quake.data.decode import surface_positions
from pyvista_quake.formats.bsp import LIGHTMAP_SIZE
from pyvista_quake.formats.bsp import Q3Collision
from pyvista_quake.formats.bsp import lightmap_pages_are_deluxe
from pyvista_quake.formats.bsp import lit_lightmaps
from pyvista_quake.formats.bsp import read_collision
from pyvista_quake.formats.records import LevelData
from pyvista_quake.formats.records import ModelData
from pyvista_quake.formats.records import Tag
from pyvista_quake.formats.registry import FormatSpec
from pyvista_quake.game.filesystem import FoundSkin
from pyvista_quake.game.skins import decode_image
from pyvista_quake.game.skins import surface_images
from pyvista_quake.model import edit
from pyvista_quake.model.navigation import Navigation
from pyvista_quake.model.navigation import navigation_beside

Points = tuple[list[np.ndarray], list[np.ndarray]]


class StoredSurfaces:
    """The codec of surfaces whose vertices are stored frame by frame (an MD3's, a sprite's, a plugin's).

    It answers what a model asks of its codec: the frames (count, names, numbers, animations,
    timeline), each surface's name, points, positions and normals, its image's name and how its
    alpha draws, the frame's mesh, and edits (each giving the model's new record).  The other
    codecs derive from it and override what their bytes give differently.

    Parameters
    ----------
    model : QuakeModel
        The model it decodes: its record, options and game files.
    """

    #: Whether the images a surface misses are said in one warning for the whole model (a level's many).
    gathers_missing = False

    def __init__(self, model: Any) -> None:
        self._model = model

    @property
    def _data(self) -> ModelData:
        return self._model.data

    def __len__(self) -> int:
        """Return the number of frames."""
        return self._data.num_frames

    def __repr__(self) -> str:
        """Return a one-line summary of the model."""
        model = self._model
        return f'QuakeModel({model.format.upper()} {model.source!r}, {len(self)} frames, {len(self._data.surfaces)} surfaces, {len(self.tags)} tags)'

    # -- frames ---------------------------------------------------------------------------
    @property
    def frame_names(self) -> list[str]:
        """Each frame's name, as stored."""
        return list(self._data.decoded_frame_names())

    def frame_name(self, index: int) -> str:
        """One frame's name, decoding that name only."""
        return self._data.frame_name(index)

    def frame_number(self, index: int) -> int:
        """A frame number in range (negative numbers count from the end)."""
        n = len(self)
        # A plain int in range (the common case) needs no array round trip.
        return index % n if type(index) is int and -n <= index < n else int(frame_indices([index], n)[0])

    def clips(self) -> dict[str, Animation]:
        """Animations by name: from frame names, frame groups and the caller's ``animations``."""
        model = self._model
        return anim.model_animations(model.frame_names, self._data.frame_groups, model.fps, None, user_animations(model.options), model.source)

    def timeline(self) -> tuple[np.ndarray, float]:
        """Each frame's start and the whole file's duration."""
        return anim.timeline(len(self), self._data.frame_groups, self._model.fps)

    def entries(self) -> list[range]:
        """The frames as the game numbers them: a frame group one entry, its pictures a range."""
        return anim.entries(len(self), self._data.frame_groups)

    @property
    def tags(self) -> dict[str, Tag]:
        """Tags by name, as stored."""
        return self._data.tags

    # -- surfaces --------------------------------------------------------------------------
    def surface_names(self) -> list[str]:
        """Each surface's name, in file order."""
        return [s.name for s in self._data.surfaces]

    def point_counts(self) -> list[int]:
        """Points of each surface: a point per stored vertex (or per ``point_vertex`` entry)."""
        return [s.num_points for s in self._data.surfaces]

    def _rows(self, frames: FrameSelection) -> np.ndarray | slice:
        """Frame numbers, or a slice for a run of consecutive frames (a view of the file, no gather)."""
        index = frame_indices(frames, len(self))
        if len(index) and np.array_equal(index, np.arange(index[0], index[0] + len(index))):
            return slice(int(index[0]), int(index[0]) + len(index))
        return index

    def positions_each(self, frames: FrameSelection = None) -> list[np.ndarray]:
        """Each surface's point positions, ``float32`` ``(frames, points, 3)`` (an MD3's ``xyz / 64``, floats as they are)."""
        rows = self._rows(frames)
        return [surface_positions(s, rows, self._data.source) for s in self._data.surfaces]

    def normals_each(self, frames: FrameSelection = None) -> list[np.ndarray]:
        """Each surface's unit point normals, ``float32`` ``(frames, points, 3)``."""
        rows = self._rows(frames)
        return [surface_normals(s, rows, self._data.source) for s in self._data.surfaces]

    def surface_positions(self, index: int, frames: FrameSelection = None) -> np.ndarray:
        """Surface ``index``'s point positions, decoding that surface only."""
        return surface_positions(self._data.surfaces[index], self._rows(frames), self._data.source)

    def surface_normals(self, index: int, frames: FrameSelection = None) -> np.ndarray:
        """Surface ``index``'s unit point normals, decoding that surface only."""
        return surface_normals(self._data.surfaces[index], self._rows(frames), self._data.source)

    def vertex_positions(self, frames: FrameSelection = None) -> np.ndarray:
        """Positions of the file's vertices, every surface's in turn (of stored vertices, the points)."""
        every = self.positions_each(frames)
        return np.concatenate(every, axis=1) if every else np.zeros((len(frame_indices(frames, len(self))), 0, 3), np.float32)

    def frame_points(self, frame: int) -> Points:
        """Each surface's positions and normals at one frame (a number in range)."""
        rows = [frame]
        return [p[0] for p in self.positions_each(rows)], [n[0] for n in self.normals_each(rows)]

    def between_points(self, first: int, second: int, alpha: float) -> Points:
        """Each surface's positions and normals ``alpha`` of the way between two frames, as the renderers blend
        stored vertices: positions linearly, normals renormalised."""
        pair = [first, second]
        blended = [anim.blend(p, n, alpha) for p, n in zip(self.positions_each(pair), self.normals_each(pair))]
        return [b[0] for b in blended], [b[1] for b in blended]

    def pose(self, frame: int, points: list[np.ndarray], normals: list[np.ndarray]) -> pv.MultiBlock | pv.PolyData:
        """One pose's meshes: a MultiBlock with a ``PolyData`` per surface (frame -1: a skeletal model's bind pose)."""
        return self._model._surface_blocks(frame, points, normals)

    def nothing_drawn(self) -> str | None:
        """Why a model with no surface draws nothing, where its kind says more than that."""
        return None

    # -- images ---------------------------------------------------------------------------
    def surface_images(self, skin: Any) -> tuple[list[str | None], Path | str | None]:
        """The image (or shader) name each surface shows, and the ``.skin`` file they come from."""
        return surface_images(self._data, self._model.search, skin)

    def valid_skin(self, skin: Any) -> Any:
        """The skin as the model holds it (see :class:`~pyvista_quake.LoadOptions`)."""
        return skin

    def skin_choices(self) -> list[str]:
        """The skins a viewer offers to switch between (a model whose skin is a number, with several)."""
        return []

    def forget_skin(self) -> None:
        """Drop what carries the chosen skin: it changed."""

    def image_file(self, index: int, frame: int | None) -> tuple[bool, FoundSkin | None]:
        """Surface ``index``'s image where the codec knows it itself: ``(True, the file or None)``; ``(False, None)``
        to find it by name in the game's files.  A surface with a picture a frame (a sprite's): frame ``frame``'s."""
        surface = self._data.surfaces[index]
        if surface.frame_pictures is None and surface.frame_images is None:
            return False, None
        model = self._model
        return True, (model._frame_skin(index, 0 if frame is None else self.frame_number(frame)) if model.skin is not None else None)

    def image(self, index: int, frame: int | None) -> np.ndarray | None:
        """Surface ``index``'s image as an RGB(A) ``uint8`` array, rows from the top (``None`` without one)."""
        found = self._model._surface_skin(index, frame)
        return decode_image(found.data, found.location) if found is not None else None

    def alpha(self, index: int) -> str | None:
        """How surface ``index``'s image alpha draws where the file says it (a sprite's); ``None``: as its shader says."""
        return self._data.surfaces[index].alpha

    def field_data(self, index: int) -> dict[str, Any]:
        """Surface ``index``'s own field data of its kind (a level's brush model)."""
        return {}

    # -- edits: each gives the model's new record ---------------------------------------------
    def must_bake(self, target: FormatSpec) -> bool:
        """Whether saving as ``target`` writes the frames as an MD3's surfaces first (a skeletal model's)."""
        return False

    def written_record(self, target: FormatSpec) -> Any:
        """The record ``target``'s writer encodes; ``None``: the file is written as it was read."""
        return self._data

    def skin_images(self) -> dict[str, np.ndarray]:
        """Skin images an edit gave, by the name the model gives them (written beside it)."""
        return {}

    def renew(self) -> None:
        """Take the model's record anew, after an edit."""

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
            raise ValueError(f'{self._model.source}: a frame of {offsets[-1]} points, (points, 3), not {array.shape}')
        return [array[a:b] for a, b in zip(offsets[:-1], offsets[1:])]

    def edited_frame(self, index: int, points: Any, normals: Any = None) -> ModelData:
        """The record with frame ``index`` moved: positions quantised as the format stores them, normals computed
        from the geometry unless given."""
        data = self._data
        arrays, carried = edit.surface_arrays(self._per_surface(points), len(data.surfaces))
        frame = int(frame_indices([index], len(self))[0])
        given = self._per_surface(normals) if normals is not None else carried
        return edit.edit_surfaces(data, frames=[frame], positions=[arrays], normals=[given])

    def added_frames(self, frames: list, names: Any = None, at: int | None = None) -> ModelData:
        """The record with ``frames`` inserted before frame ``at`` (the end by default); tags keep the frame before."""
        return edit.add_surface_frames(self._data, [self._per_surface(f) for f in frames], names, at)

    def removed_frames(self, frames: FrameSelection) -> ModelData:
        """The record without ``frames`` (their tags go with them)."""
        dropped = set(frame_indices(frames, len(self)).tolist())
        return edit.edit_surfaces(self._data, keep=np.array([k for k in range(len(self)) if k not in dropped]))

    def renamed_frame(self, index: int, name: str) -> ModelData:
        """The record with frame ``index`` named ``name``."""
        return edit.edit_surfaces(self._data, names={int(frame_indices([index], len(self))[0]): name})

    # -- a level's own, none for a model ---------------------------------------------------------
    @property
    def entities(self) -> list[dict[str, str]]:
        """A level's entities (none for a model)."""
        return []

    def lightmap_pages(self) -> tuple[np.ndarray | None, np.ndarray | None]:
        """A level's light pages and light-direction pages (none for a model)."""
        return None, None

    def collision(self) -> Q3Collision:
        """A level's collision model: a model has none."""
        model = self._model
        raise TypeError(f"{model.source}: collision, visibility and light are a level's; this is a {model.format.upper()} model")

    def navigation(self) -> Navigation | None:
        """A level's bot navigation: a model has none."""
        return None


class LevelSurfaces(StoredSurfaces):
    """The codec of a level's faces (stored floats), with the level's own: entities, lightmap pages, collision and
    navigation, and its missing images said in one warning."""

    gathers_missing = True

    @property
    def _level(self) -> LevelData:
        level = self._data.level
        assert isinstance(level, LevelData)  # this codec is chosen for a level's record only
        return level

    def __repr__(self) -> str:
        """Return a one-line summary of the level."""
        model, surfaces = self._model, self._data.surfaces
        return (
            f'QuakeModel({model.format.upper()} level {model.source!r}, {len(surfaces)} surfaces, '
            f'{sum(len(s.triangles) for s in surfaces)} triangles, {len(self._level.entities)} entities)'
        )

    def field_data(self, index: int) -> dict[str, Any]:
        """The brush model surface ``index`` belongs to."""
        return {keys.BRUSH_MODEL: np.array([self._data.surfaces[index].brush_model], np.int32)}

    @property
    def entities(self) -> list[dict[str, str]]:
        """The level's entities in file order."""
        return self._level.entities

    def lightmap_pages(self) -> tuple[np.ndarray | None, np.ndarray | None]:
        """The level's light pages and, of a deluxe-compiled Quake III map, its light-direction pages."""
        level = self._level
        pages = level.lightmaps
        if pages is None and level.external_lightmaps:
            pages = self._external_lightmaps()
        elif pages is not None and level.side_light is not None:
            found, _ = self._model.search.find(f'{self.map_stem()}{level.side_light}')
            if found is not None:
                coloured = lit_lightmaps(self._data.file, level.entities, found.data, found.location)
                if coloured is not None:
                    return coloured, None
        if pages is None:  # none: an empty array of pages, one type for every level
            side = LIGHTMAP_SIZE if level.game == 'quake3' else 0
            return np.zeros((0, side, side, 3), np.uint8), None
        if level.game == 'quake3' and lightmap_pages_are_deluxe(level, len(pages), self._face_pages()):
            return np.ascontiguousarray(pages[0::2]), np.ascontiguousarray(pages[1::2])
        return pages, None

    def _face_pages(self) -> np.ndarray:
        """The lightmap page numbers the level's surfaces name, as stored (below 0: lit by vertex colours)."""
        named = [np.asarray(s.point_arrays['lightmap_page']) for s in self._data.surfaces if 'lightmap_page' in s.point_arrays]
        return np.concatenate(named) if named else np.zeros(0, np.int32)

    def map_stem(self) -> str:
        """The map's name in the game's files without its ``.bsp``: ``maps/NAME``, from the archive member or its path."""
        search = self._model.search
        where = search.member if search.archive is not None and search.member else Path(self._model.source).as_posix()
        stem = where[: -len('.bsp')] if where.lower().endswith('.bsp') else where
        if '/maps/' in stem:
            return 'maps/' + stem.rsplit('/maps/', 1)[1]
        return stem if stem.startswith('maps/') else 'maps/' + stem.rsplit('/', 1)[-1]

    def _external_lightmaps(self) -> np.ndarray | None:
        """q3map2's ``maps/NAME/lm_NNNN.tga`` pages, found as the game finds files (``None`` if page 0 is missing)."""
        stem = self.map_stem()
        pages: list[np.ndarray] = []
        for number in range(10000):
            found, _ = self._model.search.find(f'{stem}/lm_{number:04d}.tga')
            image = decode_image(found.data, found.location) if found is not None else None
            if image is None or (pages and image.shape[:2] != pages[0].shape[:2]):
                break
            pages.append(np.ascontiguousarray(image[..., :3]))
        if not pages:
            warn_external(f'{self._model.source}: the lightmaps are outside the map and {stem}/lm_0000.tga was not found')
            return None
        return np.stack(pages)

    def collision(self) -> Q3Collision:
        """The level's collision model, visibility and light grid, read from its file."""
        return read_collision(self._data.file, self._level.entities)

    def navigation(self) -> Navigation | None:
        """The level's bot navigation, ``maps/NAME.aas`` beside it in the game's files."""
        model = self._model
        return navigation_beside(model.source, model.search.find, self.map_stem(), bytes(self._data.file.raw))


def user_animations(options: LoadOptions) -> dict:
    """The caller's animations by name (a list of files is a skeletal model's to attach, not names)."""
    return options.animations if isinstance(options.animations, dict) else {}
