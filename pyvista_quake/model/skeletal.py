"""Deprecated: a skeletal model's part (IQM, MD5) is :class:`pyvista_quake.model.skinned.SkeletalPart`."""

from __future__ import annotations

from typing import Any

from pyvista_quake._base.warnings import warn_external
from pyvista_quake.model.skinned import SkeletalPart


def __getattr__(name: str) -> Any:
    """``SkeletalModel``, an old name of :class:`~pyvista_quake.model.skinned.SkeletalPart`, with a warning."""
    if name != 'SkeletalModel':
        raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
    warn_external(
        'pyvista_quake.model.skeletal.SkeletalModel is deprecated and changes in pyvista-quake 0.4 (it goes); '
        'use model.skeletal, a pyvista_quake.model.skinned.SkeletalPart',
        DeprecationWarning,
    )
    return SkeletalPart
