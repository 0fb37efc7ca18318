"""Deprecated: a skeletal model's part (IQM, MD5) is :class:`pyvista_quake.model.skinned.SkeletalPart`."""

from __future__ import annotations

from pyvista_quake._base.warnings import moved_names
from pyvista_quake.model.skinned import SkeletalPart

__getattr__ = moved_names(__name__, {'SkeletalModel': (SkeletalPart, 'model.skeletal, a pyvista_quake.model.skinned.SkeletalPart')})
