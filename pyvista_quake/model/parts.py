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

from pathlib import Path
from typing import Any
from typing import Protocol
from typing import Sequence

import numpy as np

from pyvista_quake.data.topology import Topology
from pyvista_quake.formats.records import GLCommand
from pyvista_quake.game.filesystem import FoundSkin
from pyvista_quake.game.skins import ModelSkins
from pyvista_quake.model.skinned import SkeletalPart

__all__ = ['AliasPart', 'SkeletalPart']


class AliasPart(Protocol):
    """What a model of one surface of packed vertices has (MD2, MDL): its skins, OpenGL commands, frame groups.

    Get it as ``model.alias`` (``None`` for the other formats).
    """

    skins: ModelSkins

    @property
    def num_skins(self) -> int:
        """Number of skins: names an MD2 gives, pictures an MDL embeds."""

    @property
    def skin_names(self) -> list[str]:
        """Image paths the model names (MD2); empty for MDL."""

    @property
    def skin_size(self) -> tuple[int, int]:
        """Skin ``(width, height)`` in pixels."""

    @property
    def palette(self) -> np.ndarray:
        """The palette of MDL skins, ``uint8`` ``(256, 3)``."""

    @property
    def gl_commands(self) -> list[GLCommand]:
        """An MD2's OpenGL command list (empty for MDL)."""

    @property
    def glcmds(self) -> bool:
        """Whether frames are built from the OpenGL commands."""

    @property
    def topology(self) -> Topology:
        """The points, texture coordinates and cells every frame shares."""

    @property
    def trailing(self) -> bytes:
        """Bytes after the last section (Quake ME's ``QMEX`` block)."""

    @property
    def anm(self) -> Path | None:
        """The ``.anm`` file the animations come from, if any."""

    def skin_file(self, index: int = 0) -> FoundSkin | None:
        """Skin ``index``'s image file (MD2)."""

    def skin_image(self, index: int = 0, picture: int = 0) -> np.ndarray | None:
        """Skin ``index`` as an RGB(A) ``uint8`` image, rows from the top."""

    def skin_field_data(self, index: int = 0) -> dict:
        """Skin ``index`` as it travels in field data."""

    def fullbright(self, index: int = 0, picture: int = 0) -> np.ndarray | None:
        """Mask of an MDL skin's pixels Quake draws fullbright."""

    def set_skin(self, index: int, image: Any, name: str | None = None) -> None:
        """Replace skin ``index`` (or add one)."""

    def set_frame_groups(self, groups: Sequence) -> None:
        """Replace an MDL's frame groups."""

    def set_texcoords(self, texcoords: np.ndarray) -> None:
        """Set texture coordinates of the frames' points."""

