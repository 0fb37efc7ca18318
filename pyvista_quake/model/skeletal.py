"""Deprecated: the skinned frames of IQM and MD5 models are :mod:`pyvista_quake.model.skinned`."""

from __future__ import annotations

from typing import Any

from pyvista_quake._base.warnings import warn_external
from pyvista_quake.model.skinned import SkinnedFrames


def __getattr__(name: str) -> Any:
    """``SkeletalModel``, the old name of :class:`~pyvista_quake.model.skinned.SkinnedFrames`, with a warning."""
    if name != 'SkeletalModel':
        raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
    warn_external('pyvista_quake.model.skeletal.SkeletalModel is deprecated and changes in pyvista-quake 0.4 (it goes); '
                  'use pyvista_quake.model.skinned.SkinnedFrames, or model.skeletal, typed as pyvista_quake.model.parts.SkeletalPart',
                  DeprecationWarning)  # fmt: skip
    return SkinnedFrames
