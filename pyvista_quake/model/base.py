"""What the two model facades share: the file's data and options, its frame names, timeline and animations.

:class:`~pyvista_quake.QuakeModel` (one surface: MD2, MDL) and
:class:`~pyvista_quake.SurfaceModel` (several: MD3) both build on
:class:`ModelFacade`; each adds its frames, geometry and skins.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np

from pyvista_quake._base.options import LoadOptions
from pyvista_quake.data import animation as anim
from pyvista_quake.data.animation import Animation
from pyvista_quake.data.decode import frame_indices
from pyvista_quake.formats.records import Tag


class ModelFacade:
    """The part of a model facade that reads the file's data and the load options.

    A subclass sets ``data`` (with ``format``, ``source``, ``header`` and
    ``decoded_frame_names()``) and ``options``, and provides ``_timeline``
    (``(times, duration)``, see :func:`pyvista_quake.data.animation.timeline`),
    ``animations`` and ``len()``.
    """

    data: Any
    options: LoadOptions

    def __len__(self) -> int:
        """Return the number of frames."""
        raise NotImplementedError

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
