"""Deprecated: ``ModelFrames`` is :class:`~pyvista_quake.QuakeModel`'s own since 0.3, its tag maths
:mod:`pyvista_quake.data.animation`'s (this module goes in 0.4)."""

from __future__ import annotations

from typing import Any

from pyvista_quake._base.warnings import warn_external
from pyvista_quake.data import animation
from pyvista_quake.model.quake_model import QuakeModel

_MOVED = {
    'ModelFrames': (QuakeModel, 'pyvista_quake.QuakeModel'),
    **{n: (getattr(animation, n), f'pyvista_quake.data.animation.{n}') for n in ('tag_matrix', 'lerp_tag')},
}


def __getattr__(name: str) -> Any:
    """A name of this module before 0.3, from where it lives now, with a warning."""
    if name not in _MOVED:
        raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
    value, where = _MOVED[name]
    warn_external(f'pyvista_quake.model.base.{name} is deprecated and changes in pyvista-quake 0.4 (it goes); use {where}', DeprecationWarning)
    return value
