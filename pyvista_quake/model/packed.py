"""An MD2's or MDL's own part of a model (Quake II, Quake): its skins, GL commands, frame groups, and packed frames.

:class:`AliasPart` holds nothing of its own but the skins it found: it reads
the model's record (:class:`~pyvista_quake.formats.records.AliasData`) and
hands each question to the module that knows the answer: :mod:`.topology`
(points and cells), :mod:`.decode` (positions and normals), :mod:`.skins`,
:mod:`.animation`, :mod:`.fields` (field data) and :mod:`.edit` (changes).
It knows nothing of byte layouts.
"""

from __future__ import annotations

import dataclasses
from functools import cached_property
from pathlib import Path
from pathlib import PurePosixPath
from typing import Any
from typing import Sequence

import numpy as np
import pyvista as pv
from vtkmodules.vtkCommonDataModel import vtkFieldData

from pyvista_quake._base import fields as keys
from pyvista_quake._base.warnings import warn_external
from pyvista_quake.data import animation as anim
from pyvista_quake.data.animation import Animation
from pyvista_quake.data.decode import FrameDecoder
from pyvista_quake.data.decode import FrameSelection
from pyvista_quake.data.topology import Topology
from pyvista_quake.data.topology import gl_topology
from pyvista_quake.data.topology import triangle_topology
from pyvista_quake.formats import tag as tag_file
from pyvista_quake.formats.records import AliasData
from pyvista_quake.formats.records import GLCommand
from pyvista_quake.formats.records import ModelData
from pyvista_quake.formats.records import Tag
from pyvista_quake.formats.registry import FormatSpec
from pyvista_quake.game.filesystem import FoundSkin
from pyvista_quake.game.skins import ModelSkins
from pyvista_quake.model import edit
from pyvista_quake.model.mesh import FrameTemplate
from pyvista_quake.model.mesh import build_polydata
from pyvista_quake.model.mesh import frame_template
from pyvista_quake.model.mesh import vtk_array
from pyvista_quake.model.stored import StoredSurfaces

#: What the part computes from the record, dropped when the record changes.
_DERIVED = ('gl_commands', 'topology', '_decoder', 'metadata', '_shared_field_arrays', '_topology_template', '_frame_templates')


class AliasPart(StoredSurfaces):
    """An MD2's or MDL's own part: its skins, palette, OpenGL commands and frame groups, and the codec of its one surface.

    Get it as ``model.alias`` (``None`` for the other formats).  The model asks it
    for what packed bytes give differently: its one surface's points (from the
    triangles, or the OpenGL commands), positions and normals, the skin it shows,
    its animations and frame groups, a ``.tag`` file's tags, and the frame's mesh
    (one ``PolyData``).

    Parameters
    ----------
    model : QuakeModel
        The model it belongs to: its record (one surface of packed bytes and its
        ``alias`` part), options and game files.

    Examples
    --------
    >>> import pyvista_quake
    >>> model = pyvista_quake.load('tris.md2')  # doctest: +SKIP
    >>> model.alias.skin_names, model.alias.gl_commands[:1]  # doctest: +SKIP

    """

    #: The model's skins: an MD2's found by name in the game's files, an MDL's embedded pictures.
    skins: ModelSkins

    def __init__(self, model: Any) -> None:
        self._model = model
        self.renew()
        if model.options.glcmds and self.record.gl_commands is None:
            raise ValueError(f'{model.source}: only MD2 models have OpenGL commands')

    def renew(self) -> None:
        """Take the model's record anew (after an edit): the skins found stay, the rest is rebuilt on demand."""
        images = self.skins.images if 'skins' in self.__dict__ else {}
        record = self.record
        options = self._model.options
        self.skins = ModelSkins(record, self._model.search, palette=options.palette, external_skins=options.external_skins, holey=options.holey)
        self.skins.images.update({k: v for k, v in images.items() if k in record.skin_names})
        for name in _DERIVED:
            self.__dict__.pop(name, None)

    def forget_skin(self) -> None:
        """Drop what carries the chosen skin (the frames' field data): it changed."""
        for name in ('_shared_field_arrays', '_frame_templates'):
            self.__dict__.pop(name, None)

    @property
    def record(self) -> AliasData:
        """The model's own part of its record (``data.alias``): skins, frame groups, GL commands, the file's triangles."""
        alias = self._model.data.alias
        assert isinstance(alias, AliasData)  # a model of packed bytes is made of an MD2's or MDL's record
        return alias

    def __repr__(self) -> str:
        """Return a one-line summary."""
        return (
            f'QuakeModel({self._model.format.upper()} {self.record.source!r}, {len(self._model)} frames, '
            f'{self.record.num_vertices} vertices, {len(self.record.triangle_vertices)} triangles)'
        )

    # -- what users ask about -------------------------------------------------
    @property
    def strict(self) -> bool | str:
        """Whether the engines' limits are errors: ``True``, or the name of the one engine whose limits apply."""
        return self._model.options.strict

    @property
    def glcmds(self) -> bool:
        """Whether frames are built from an MD2's OpenGL commands."""
        return self._model.options.glcmds

    @property
    def skin_names(self) -> list[str]:
        """Image paths the model names (MD2); empty for MDL."""
        return self.record.skin_names

    @property
    def skin_size(self) -> tuple[int, int]:
        """Skin ``(width, height)`` in pixels."""
        return self.record.skin_width, self.record.skin_height

    @property
    def trailing(self) -> bytes:
        """Bytes after the last section, such as Quake ME's ``QMEX`` block."""
        return self.record.trailing

    @cached_property
    def gl_commands(self) -> list[GLCommand]:
        """The parsed OpenGL command list of an MD2 (empty for MDL or none).

        Raises
        ------
        QuakeFormatError
            If the command list is malformed.

        """
        return self.record.gl_commands() if self.record.gl_commands is not None else []

    # -- skins (see ModelSkins) -------------------------------------------------------
    @property
    def num_skins(self) -> int:
        """Number of skins: names an MD2 gives, pictures an MDL embeds."""
        return len(self.skins)

    @property
    def palette(self) -> np.ndarray:
        """The palette for MDL skins, ``uint8`` ``(256, 3)``."""
        return self.skins.palette

    def skin_file(self, index: int = 0) -> FoundSkin | None:
        """Find an MD2 skin's image file (see :meth:`ModelSkins.file`)."""
        return self.skins.file(index)

    def skin_field_data(self, index: int = 0) -> dict:
        """The skin as it travels in field data (see :meth:`ModelSkins.field_data`)."""
        return self.skins.field_data(index)

    def skin_image(self, index: int = 0, picture: int = 0) -> np.ndarray | None:
        """A skin as an RGB(A) ``uint8`` image, rows from the top (see :meth:`ModelSkins.image`)."""
        return self.skins.image(index, picture)

    def fullbright(self, index: int = 0, picture: int = 0) -> np.ndarray | None:
        """Mask of an MDL skin's pixels that Quake draws fullbright (indices 224-255)."""
        return self.skins.fullbright(index, picture)

    def image_names(self, skin: int | None) -> list[str | None]:
        """The one surface's image name: the chosen skin's (an MD2's; ``None`` for an MDL's embedded pictures, or with ``skin=None``)."""
        return [self.record.skin_names[skin] if skin is not None and skin < len(self.record.skin_names) else None]

    def alpha(self, index: int = 0) -> str:
        """``'cutout'`` for an MDL whose flags make index 255 see-through (``MF_HOLEY``), else ``'opaque'``."""
        return 'cutout' if self.skins.is_holey else 'opaque'

    # -- what the model asks of its codec (see StoredSurfaces) ---------------------------------
    def surface_names(self) -> list[str]:
        """The one surface's name: the model's file name (``tris``)."""
        return [self._model.search.model_stem() or 'model']

    def surface_images(self, skin: Any) -> tuple[list[str | None], Path | str | None]:
        """The chosen skin's name, and no ``.skin`` file."""
        return self.image_names(skin), None

    def skin_choices(self) -> list[str]:
        """Each skin's name (an MDL's numbered), where there are two or more."""
        if self.num_skins < 2:
            return []
        return [self.skin_names[k] if self.skin_names else f'skin {k}' for k in range(self.num_skins)]

    def valid_skin(self, skin: Any) -> Any:
        """A skin number in range (or ``None``)."""
        return self.skins.valid_index(skin)

    def image_file(self, index: int, frame: int | None) -> tuple[bool, FoundSkin | None]:
        """The chosen skin's file: an MD2's found by name, an MDL's embedded picture."""
        skin = self._model.skin
        return True, (self.skin_file(skin) if skin is not None else None)

    def image(self, index: int, frame: int | None) -> np.ndarray | None:
        """The chosen skin's picture (an MDL's through its palette)."""
        skin = self._model.skin
        return self.skin_image(skin) if skin is not None else None

    def point_counts(self) -> list[int]:
        """The points of its topology (its triangles', or its GL commands')."""
        return [len(self.topology.point_vertex)]

    def positions_each(self, frames: FrameSelection = None) -> list[np.ndarray]:
        """The one surface's positions."""
        return [self.positions(frames)]

    def normals_each(self, frames: FrameSelection = None) -> list[np.ndarray]:
        """The one surface's normals."""
        return [self.normals(frames)]

    def surface_positions(self, index: int, frames: FrameSelection = None) -> np.ndarray:
        """The one surface's positions."""
        return self.positions(frames)

    def surface_normals(self, index: int, frames: FrameSelection = None) -> np.ndarray:
        """The one surface's normals."""
        return self.normals(frames)

    def pose(self, frame: int, points: list[np.ndarray], normals: list[np.ndarray]) -> pv.MultiBlock | pv.PolyData:
        """The frame's one mesh."""
        return self.polydata(frame, points[0], normals[0])

    def written_record(self, target: FormatSpec) -> Any:
        """Its own part: the one surface is its bytes."""
        return self.record

    def skin_images(self) -> dict[str, np.ndarray]:
        """Skin images :meth:`set_skin` gave, by the name the model gives them."""
        return self.skins.images

    def clips(self) -> dict[str, Animation]:
        """Animations by name (see :meth:`animations`)."""
        return self.animations()

    # -- geometry -------------------------------------------------------------------
    @cached_property
    def topology(self) -> Topology:
        """The points, texture coordinates and cells every frame shares."""
        # With no usable triangle left (all index past the vertices), the GL commands
        # are what Quake II draws: draw them too.
        if self.glcmds or not len(self.record.triangle_vertices):
            return gl_topology(self.gl_commands, self._model.source)
        return triangle_topology(self.record, self._model.data.surfaces[0], texel_centers=self._model.options.texel_centers)

    @cached_property
    def _decoder(self) -> FrameDecoder:
        return FrameDecoder(self.record, self.topology.point_vertex, computed_normals=self._model.options.normals == 'computed')

    def vertex_positions(self, frames: FrameSelection = None) -> np.ndarray:
        """Positions of the file's vertices (not the mesh's points), ``(frames, vertices, 3)``: ``v * scale + translate`` in float32."""
        return self._decoder.vertex_positions(frames)

    def positions(self, frames: FrameSelection = None) -> np.ndarray:
        """Point positions of the given frames (all by default), ``float32`` ``(frames, points, 3)``, in the order of the frames' mesh."""
        return self._decoder.positions(frames)

    def normals(self, frames: FrameSelection = None) -> np.ndarray:
        """Unit point normals of the given frames, ``float32`` ``(frames, points, 3)``.

        Looked up in the 162-entry normal table (or computed from the geometry
        with ``normals='computed'``); a vertex whose index lies past the table
        gets the mean normal of its faces, with a warning.
        """
        return self._decoder.normals(frames)

    def frame_points(self, frame: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """The one surface's positions and normals at one frame."""
        points, normals = self._decoder.frame(frame)
        return [points], [normals]

    # -- animations -------------------------------------------------------------------
    def animations(self) -> dict[str, Animation]:
        """Animations by name: from frame names, MDL frame groups, a ``.anm`` file and the caller."""
        model = self._model
        user = model.options.animations if isinstance(model.options.animations, dict) else {}
        return anim.model_animations(
            model.frame_names, self.record.frame_groups, model.fps, self._anm_text(), user, model.source, model.options.group_timing
        )

    def timeline(self) -> tuple[np.ndarray, float]:
        """Each frame's start and the whole file's duration: an MDL frame group's pictures timed as its intervals say."""
        return anim.timeline(len(self._model), self.record.frame_groups, self._model.fps, self._model.options.group_timing)

    @property
    def anm(self) -> Path | None:
        """The ``.anm`` file on disk the animations come from, if any."""
        given = self._model.options.anm
        search = self._model.search
        if given is True:
            return anim.sidecar_anm(search.model_path) if search.model_path is not None else None
        return Path(given) if given else None

    @cached_property
    def tags(self) -> dict[str, Tag]:
        """Tags of UFO: Alien Invasion's ``.tag`` file beside the model (same stem; in its PAK/PK3 too).

        Empty without a ``.tag``; one whose frames are not the model's is left out, with a warning.
        """
        search = self._model.search
        name = search.model_file_name()
        found = search.beside_model(str(PurePosixPath(name).with_suffix('.tag'))) if name else None
        if found is None:
            return {}
        tags = tag_file.parse(found[1], found[0])
        if any(len(t.origins) != len(self._model) for t in tags.values()):
            warn_external(f'{found[0]}: its tags have {len(next(iter(tags.values())).origins)} frames, the model {len(self._model)}; left out')
            return {}
        return tags

    def _anm_text(self) -> tuple[str, str] | None:
        """``(name, text)`` of the ``.anm``: on disk, or beside the model in its PAK/PK3."""
        if self.anm is not None:
            return str(self.anm), self.anm.read_text(encoding='latin-1')
        search = self._model.search
        if self._model.options.anm is True and search.archive is not None and search.member:
            found = search.archive_sidecar('.anm')
            if found is not None:
                return found
        return None

    def entries(self) -> list[range]:
        """The frames as QuakeC numbers them: an MDL frame group is one entry, its poses a range."""
        return anim.entries(len(self._model), self.record.frame_groups)

    # -- PolyData -----------------------------------------------------------------
    def polydata(self, frame: int, points: np.ndarray, normals: np.ndarray) -> pv.PolyData:
        """One frame's mesh: points float32 in Quake's axes (x forward, y left, z up), with point normals, texture
        coordinates, ``point_data['vertex_index']`` and the model's metadata in ``field_data``."""
        return build_polydata(points, normals, self._frame_template(frame))

    @cached_property
    def _topology_template(self) -> FrameTemplate:
        topo = self.topology
        return frame_template(
            topo.texcoords,
            topo.triangles,
            strips=topo.strips,
            point_arrays={keys.VERTEX_INDEX: topo.point_vertex},
            cell_arrays={} if topo.cell_command is None else {keys.GLCMD: topo.cell_command},
        )

    def _frame_template(self, frame: int) -> FrameTemplate:
        """The shared part of one frame's meshes, made once: the topology's, and field data of
        the model's arrays and the frame's own (name, number, MD2 scale), which every mesh of
        the frame references."""
        cache = self.__dict__.setdefault('_frame_templates', {})
        template = cache.get(frame)
        if template is None:
            field_data = vtkFieldData()
            for array in self._shared_field_arrays:
                field_data.AddArray(array)
            for key, value in keys.frame_fields(self.record, frame, self._model.frame_name(frame)).items():
                field_data.AddArray(vtk_array(key, value))
            template = cache[frame] = dataclasses.replace(self._topology_template, field_data=field_data)
        return template

    @cached_property
    def metadata(self) -> dict:
        """Field data every frame shares: format, skin names and size, header fields."""
        return keys.model_metadata(self.record, len(self.skins))

    @cached_property
    def _shared_field_arrays(self) -> list:
        values = dict(self.metadata)
        skin = self._model.skin
        if skin is not None:
            values.update(self.skins.field_data(skin))
        # One set of VTK arrays, shared by every frame the model builds.
        return [vtk_array(key, value) for key, value in values.items()]

    # -- editing (see pyvista_quake.model.edit) ---------------------------------------------
    def _take(self, data: ModelData) -> None:
        """Hold an edit's result: the model's record anew (an edit of the part gives the whole record, read back)."""
        self._model._set_data(data)

    def set_frame(self, index: int, points: Any, normals: Any = None) -> None:
        """Move one frame's vertices: ``(vertices, 3)`` for the file's vertices or ``(points, 3)`` for the frame's
        points (or a PolyData of this model's frame); normals computed from the geometry by default."""
        self._take(self.edited_frame(index, points, normals))

    def edited_frame(self, index: int, points: Any, normals: Any = None) -> ModelData:
        """The record with one frame moved (see :meth:`set_frame`)."""
        return edit.set_frames(self.record, self.topology, [index], [self._one_surface(points)], None if normals is None else [normals])

    def add_frames(self, points: Sequence, names: Sequence[str] | None = None, at: int | None = None) -> None:
        """Insert frames (``(frames, vertices or points, 3)`` or PolyData) before frame ``at`` (default: at the end)."""
        self._take(self.added_frames(list(points), names, at))

    def added_frames(self, frames: list, names: Any = None, at: int | None = None) -> ModelData:
        """The record with frames inserted (see :meth:`add_frames`)."""
        return edit.add_frames(self.record, self.topology, [self._one_surface(p) for p in frames], names, at)

    def _one_surface(self, frame: Any) -> Any:
        """A frame as an edit takes it: an array or a PolyData (a MultiBlock of one block, or a list of one array, is its one surface)."""
        if isinstance(frame, pv.MultiBlock):
            if frame.n_blocks != 1:
                raise ValueError(f'{self._model.source}: an {self._model.format.upper()} has one surface; the MultiBlock has {frame.n_blocks} blocks')
            return frame[0]
        if isinstance(frame, (list, tuple)) and len(frame) == 1 and np.ndim(frame[0]) == 2:
            return frame[0]
        return frame

    def remove_frames(self, frames: FrameSelection) -> None:
        """Remove frames; frame groups lose those members (and go when empty)."""
        self._take(self.removed_frames(frames))

    def removed_frames(self, frames: FrameSelection) -> ModelData:
        """The record without ``frames`` (see :meth:`remove_frames`)."""
        return edit.remove_frames(self.record, frames)

    def rename_frame(self, index: int, name: str) -> None:
        """Rename one frame (at most 15 bytes of Latin-1)."""
        self._take(self.renamed_frame(index, name))

    def renamed_frame(self, index: int, name: str) -> ModelData:
        """The record with frame ``index`` renamed."""
        return edit.rename_frames(self.record, {index: name})

    def set_frame_groups(self, groups: Sequence) -> None:
        """Replace an MDL's frame groups: ``(start, count, intervals)`` each, intervals the end times in seconds."""
        self._take(edit.set_frame_groups(self.record, groups))

    def set_skin(self, index: int, image: Any, name: str | None = None) -> None:
        """Replace skin ``index`` (or add one, with ``index == num_skins``).

        Parameters
        ----------
        index : int
            The skin.
        image : path, PIL image or array
            The picture: an MDL stores it in the model's palette (RGB is
            matched to the nearest entry; a 2-D array is taken as palette
            indices); an MD2 names it and :meth:`~pyvista_quake.QuakeModel.save` writes it as PNG beside the model.
        name : str, optional
            MD2 only: the name the model gives the skin (default: the
            current name, else ``skin<index>.png``).

        """
        record, images = edit.set_skin(self.record, self.skins, index, image, name)
        self._take(record)
        self.skins.images.update(images)
        if self._model.skin is None:
            self._model.skin = 0

    def set_texcoords(self, texcoords: np.ndarray) -> None:
        """Set texture coordinates ``(points, 2)`` in VTK's ``(u, v)`` (``v`` from the bottom) for the frames' points."""
        self._take(edit.set_texcoords(self.record, self.topology, texcoords))
