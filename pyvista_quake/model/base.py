"""Deprecated: ``ModelFrames`` is :class:`~pyvista_quake.QuakeModel`'s own since 0.3, its tag maths
:mod:`pyvista_quake.data.animation`'s (this module goes in 0.4)."""

from __future__ import annotations

from pyvista_quake._base.warnings import moved_names
from pyvista_quake.data import animation  # its names not this module's own: each asked for here warns
from pyvista_quake.model.quake_model import QuakeModel

__getattr__ = moved_names(
    __name__,
    {
        'ModelFrames': (QuakeModel, 'pyvista_quake.QuakeModel'),
        'tag_matrix': (animation.tag_matrix, 'pyvista_quake.data.animation.tag_matrix'),
        'lerp_tag': (animation.lerp_tag, 'pyvista_quake.data.animation.lerp_tag'),
    },
)
