"""Deprecated: the frames are :class:`~pyvista_quake.QuakeModel`'s own since 0.3 (``SurfaceFrames`` goes in 0.4)."""

from __future__ import annotations

from pyvista_quake._base.warnings import moved_names
from pyvista_quake.model.quake_model import QuakeModel

__getattr__ = moved_names(__name__, {'SurfaceFrames': (QuakeModel, "pyvista_quake.QuakeModel (the frames are QuakeModel's own)")})
