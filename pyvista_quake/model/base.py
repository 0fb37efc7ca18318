"""What every pose needs: the file's data and options, its frame names, timeline and animations, and its poses.

The frames behind :class:`~pyvista_quake.QuakeModel`,
:class:`~pyvista_quake.model.frames.SurfaceFrames`, build on
:class:`ModelFrames`, and a format's part (:class:`~pyvista_quake.model.packed.AliasPart`,
:class:`~pyvista_quake.model.skinned.SkeletalPart`) knows its model by this type.
A pose is made here once for every format: the surfaces' points and normals at a
frame, or between two (:meth:`ModelFrames._frame_points`,
:meth:`ModelFrames._between_points`), built into meshes (:meth:`ModelFrames._pose`).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np
import pyvista as pv

from pyvista_quake._base import fields as keys
from pyvista_quake._base.options import LoadOptions
from pyvista_quake.data import animation as anim
from pyvista_quake.data.animation import Animation
from pyvista_quake.data.decode import FrameSelection
from pyvista_quake.data.decode import frame_indices
from pyvista_quake.formats.records import LevelData
from pyvista_quake.formats.records import Tag
from pyvista_quake.game.filesystem import FoundSkin
from pyvista_quake.game.filesystem import GameFiles
from pyvista_quake.model.mesh import ascii_text


class ModelFrames:
    """The part of a model's frames that reads the file's data and the load options.

    A subclass sets ``data`` (with ``format``, ``source``, ``header`` and
    ``decoded_frame_names()``) and ``options``, and provides ``_timeline``
    (``(times, duration)``, see :func:`pyvista_quake.data.animation.timeline`),
    ``animations`` and ``len()``.
    """

    data: Any
    options: LoadOptions
    search: GameFiles
    #: The skin the frames show (a skin number of an MD2 or MDL, a ``.skin`` name...).
    skin: Any

    def __len__(self) -> int:
        """Return the number of frames."""
        raise NotImplementedError

    def _set_data(self, data: Any) -> None:
        """Hold new data (after an edit): every derived attribute is rebuilt on demand."""
        raise NotImplementedError

    # -- what each kind of frames gives ----------------------------------------------------
    @property
    def surface_names(self) -> list[str]:
        """Name of each surface, in file order."""
        raise NotImplementedError

    def point_counts(self) -> list[int]:
        """Points of each surface's meshes."""
        raise NotImplementedError

    def per_surface_positions(self, frames: FrameSelection = None) -> list[np.ndarray]:
        """Each surface's point positions, ``float32`` ``(frames, points, 3)``."""
        raise NotImplementedError

    def per_surface_normals(self, frames: FrameSelection = None) -> list[np.ndarray]:
        """Each surface's unit point normals, ``float32`` ``(frames, points, 3)``."""
        raise NotImplementedError

    def surface_positions(self, index: int, frames: FrameSelection = None) -> np.ndarray:
        """Surface ``index``'s point positions, ``float32`` ``(frames, points, 3)``."""
        return self.per_surface_positions(frames)[index]

    def surface_normals(self, index: int, frames: FrameSelection = None) -> np.ndarray:
        """Surface ``index``'s unit point normals, ``float32`` ``(frames, points, 3)``."""
        return self.per_surface_normals(frames)[index]

    def vertex_positions(self, frames: FrameSelection = None) -> np.ndarray:
        """Positions of the file's vertices, every surface's in turn (of a format that stores points, its points)."""
        every = self.per_surface_positions(frames)
        return np.concatenate(every, axis=1) if every else np.zeros((len(frame_indices(frames, len(self))), 0, 3), np.float32)

    def surface_skin(self, index: int) -> FoundSkin | None:
        """The image file surface ``index`` shows, or ``None``."""
        raise NotImplementedError

    def surface_image(self, index: int) -> np.ndarray | None:
        """Surface ``index``'s image as an RGB(A) ``uint8`` array, rows from the top (``None`` if none)."""
        raise NotImplementedError

    def image_name(self, index: int) -> str | None:
        """The image (or shader) name surface ``index`` shows, or ``None``."""
        raise NotImplementedError

    def surface_alpha(self, index: int) -> str:
        """How surface ``index``'s image alpha is drawn (``'opaque'``, ``'cutout'``, ``'blend'``, ``'add'``)."""
        return 'opaque'

    @property
    def skin_definition(self) -> Any:
        """The file the surfaces' images are assigned in (a ``.skin``, a config), or ``None``."""
        return None

    def brush_model(self, index: int) -> int:
        """The level's brush model surface ``index`` belongs to (0, the world, for a model)."""
        return 0

    @property
    def level(self) -> LevelData | None:
        """A level's own part, or ``None`` for a model."""
        return getattr(self.data, 'level', None)

    @property
    def level_lightmaps(self) -> np.ndarray | None:
        """A level's lightmap pages (``None`` for a model)."""
        return None

    def _pose(self, frame: int, points: list[np.ndarray], normals: list[np.ndarray]) -> pv.MultiBlock | pv.PolyData:
        """The meshes of a pose: each surface's ``(points, 3)`` positions and normals, with frame ``frame``'s field data."""
        raise NotImplementedError

    def _frame_points(self, frame: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """Each surface's positions and normals at one frame (a number in range)."""
        rows = [frame]
        return [p[0] for p in self.per_surface_positions(rows)], [n[0] for n in self.per_surface_normals(rows)]

    def _between_points(self, first: int, second: int, alpha: float) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """Each surface's positions and normals ``alpha`` of the way between two frames, as the renderers blend
        stored vertices: positions linearly, normals renormalised."""
        pair = [first, second]
        blended = [anim.blend(p, n, alpha) for p, n in zip(self.per_surface_positions(pair), self.per_surface_normals(pair))]
        return [b[0] for b in blended], [b[1] for b in blended]

    def _frame_number(self, index: int) -> int:
        """A frame number in range (negative numbers count from the end)."""
        n = len(self)
        # A plain int in range (the common case) needs no array round trip.
        return index % n if type(index) is int and -n <= index < n else int(frame_indices([index], n)[0])

    # -- poses, the same for every kind ----------------------------------------------
    def frame(self, index: int = 0) -> pv.MultiBlock | pv.PolyData:
        """Return one frame, as its kind builds its meshes (a MultiBlock of surfaces; MD2 and MDL one PolyData)."""
        frame = self._frame_number(index)
        return self._pose(frame, *self._frame_points(frame))

    def between(self, first: int, second: int, alpha: float) -> pv.MultiBlock | pv.PolyData:
        """Frames ``first`` and ``second`` blended (``alpha`` of the way) as the engine blends them."""
        a, b = self._frame_number(first), self._frame_number(second)
        return self._pose(a if alpha < 0.5 else b, *self._between_points(a, b, alpha))

    def at(self, t: float, animation: str | Animation | None = None, *, loop: bool = True) -> pv.MultiBlock | pv.PolyData:
        """The pose at ``t`` seconds of ``animation`` (the whole file by default), blended between two frames.

        Looping, time wraps and the last frame blends into the first; else it is clamped.
        """
        clip = self.animation(animation)
        k, k_next, alpha = anim.sample(clip.times, clip.duration, t, loop=loop)
        pose = self.between(int(clip.frames[k]), int(clip.frames[k_next]), alpha)
        pose.field_data[keys.TIME] = np.array([t], np.float64)
        return pose

    def to_multiblock(self, animation: str | Animation | None = None) -> pv.MultiBlock:
        """Every frame (of one animation, or the file) as a MultiBlock of frames, timed in field data."""
        clip = self.animation(animation)
        out = pv.MultiBlock()
        for k, frame in enumerate(clip.frames):
            pose = self.frame(int(frame))
            pose.field_data[keys.TIME] = np.array([clip.times[k]], np.float64)
            out.append(pose, ascii_text(self.frame_names[frame] or f'frame{frame}'))
        return out

    @property
    def tags(self) -> dict[str, Tag]:
        """Tags by name."""
        raise NotImplementedError

    @property
    def _timeline(self) -> tuple[np.ndarray, float]:
        raise NotImplementedError

    @property
    def animations(self) -> dict[str, Animation]:
        """Animations by name."""
        raise NotImplementedError

    @property
    def format(self) -> str:
        """``'md2'``, ``'mdl'`` or ``'md3'``."""
        return self.data.format

    @property
    def source(self) -> str:
        """The file the model came from."""
        return self.data.source

    @property
    def header(self) -> dict:
        """Every header field of the file, named as in its spec."""
        return self.data.header

    @property
    def fps(self) -> float:
        """Frame rate of frames with no timing of their own."""
        return self.options.fps

    @cached_property
    def frame_names(self) -> list[str]:
        """Name of each frame, such as ``'stand01'``."""
        return self.data.decoded_frame_names()

    def frame_name(self, index: int) -> str:
        """Name of one frame."""
        return self.frame_names[index]

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


def tag_matrix(origin: np.ndarray, axes: np.ndarray) -> np.ndarray:
    """A 4 x 4 matrix of a tag: rows of ``axes`` are its x, y, z axes; ``matrix @ [p, 1] = p @ axes + origin``."""
    out = np.eye(4)
    out[:3, :3] = np.asarray(axes, np.float64).T
    out[:3, 3] = origin
    return out


def lerp_tag(origin_a, axes_a, origin_b, axes_b, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Blend two frames of a tag as ``R_LerpTag``: origin and axes linearly, then each axis normalised."""
    origin = (1 - alpha) * np.asarray(origin_a, np.float64) + alpha * np.asarray(origin_b, np.float64)
    axes = (1 - alpha) * np.asarray(axes_a, np.float64) + alpha * np.asarray(axes_b, np.float64)
    length = np.linalg.norm(axes, axis=1, keepdims=True)
    return origin, np.divide(axes, length, out=axes.copy(), where=length > 0)
