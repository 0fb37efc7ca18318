"""What the two model facades share: the file's data and options, its frame names, timeline and animations.

:class:`~pyvista_quake.QuakeModel` (one surface: MD2, MDL) and
:class:`~pyvista_quake.SurfaceModel` (several: MD3) both build on
:class:`ModelFacade`; each adds its frames, geometry and skins.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np

from pyvista_quake.animation import Animation
from pyvista_quake.options import LoadOptions


class ModelFacade:
    """The part of a model facade that reads the file's data and the load options.

    A subclass sets ``data`` (with ``format``, ``source``, ``header`` and
    ``decoded_frame_names()``) and ``options``, and provides ``_timeline``
    (``(times, duration)``, see :func:`pyvista_quake.animation.timeline`),
    ``animations`` and ``len()``.
    """

    data: Any
    options: LoadOptions
    _timeline: tuple[np.ndarray, float]
    animations: dict[str, Animation]

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
            return Animation('all', np.arange(len(self)), self.times, self.duration, None, 'file')  # type: ignore[arg-type]
        try:
            return self.animations[name]
        except KeyError:
            raise KeyError(f'{self.source}: no animation {name!r}; it has {sorted(self.animations)}') from None
