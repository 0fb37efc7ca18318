"""Deprecated: the frames are :class:`~pyvista_quake.QuakeModel`'s own since 0.3 (``SurfaceFrames`` goes in 0.4)."""

from __future__ import annotations

from typing import Any

from pyvista_quake._base.warnings import warn_external
from pyvista_quake.model.quake_model import QuakeModel


def __getattr__(name: str) -> Any:
    """``SurfaceFrames``, the class beneath every model before 0.3, is now the model itself, with a warning."""
    if name != 'SurfaceFrames':
        raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
    warn_external(
        'pyvista_quake.model.frames.SurfaceFrames is deprecated and changes in pyvista-quake 0.4 (it goes); '
        "the frames are QuakeModel's own: use pyvista_quake.QuakeModel",
        DeprecationWarning,
    )
    return QuakeModel
