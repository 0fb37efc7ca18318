"""The typed parts of a model that only some formats have.

Every model answers :class:`~pyvista_quake.QuakeModel`'s own names (surfaces, frames,
animations, tags).  What belongs to one kind of format is a part, ``None`` on the others:

- :attr:`QuakeModel.alias <pyvista_quake.QuakeModel.alias>`: a model of one surface of packed
  vertices (Quake's MDL, Quake II's MD2): its skins, palette, OpenGL commands and frame groups;
- :attr:`QuakeModel.skeletal <pyvista_quake.QuakeModel.skeletal>`: a model skinned by joints
  (IQM, MD5): its joints, bind pose and the Cube 2 config it was assembled from;
- :attr:`QuakeModel.level <pyvista_quake.QuakeModel.level>`: a level's entities and lightmaps.
"""

from __future__ import annotations

from pyvista_quake.model.packed import AliasPart
from pyvista_quake.model.skinned import SkeletalPart

__all__ = ['AliasPart', 'SkeletalPart']
