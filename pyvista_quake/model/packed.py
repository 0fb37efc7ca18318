"""How a model stored as one surface (Quake's MDL, Quake II's MD2) answers :class:`~pyvista_quake.QuakeModel`.

:class:`PackedFrames` holds a :class:`~pyvista_quake.formats.records.AliasData` and hands
each question to the module that knows the answer: :mod:`.topology` (points
and cells), :mod:`.decode` (positions and normals), :mod:`.skins`,
:mod:`.animation`, :mod:`.fields` (field data), :mod:`.edit` (changes) and
:mod:`.saving` (files).  It knows nothing of byte layouts.
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
from pyvista_quake._base.options import LoadOptions
from pyvista_quake._base.warnings import warn_external
from pyvista_quake.data import animation as anim
from pyvista_quake.data.animation import Animation
from pyvista_quake.data.decode import FrameDecoder
from pyvista_quake.data.decode import FrameSelection
from pyvista_quake.data.topology import Topology
from pyvista_quake.data.topology import gl_topology
from pyvista_quake.data.topology import triangle_topology
from pyvista_quake.formats import tag as tag_file
from pyvista_quake.formats._alias import alias_model
from pyvista_quake.formats.records import AliasData
from pyvista_quake.formats.records import GLCommand
from pyvista_quake.formats.records import ModelData
from pyvista_quake.formats.records import Tag
from pyvista_quake.game.filesystem import FoundSkin
from pyvista_quake.game.filesystem import GameFiles
from pyvista_quake.game.skins import ModelSkins
from pyvista_quake.model import edit
from pyvista_quake.model.base import ModelFrames
from pyvista_quake.model.mesh import FrameTemplate
from pyvista_quake.model.mesh import build_polydata
from pyvista_quake.model.mesh import frame_template
from pyvista_quake.model.mesh import vtk_array

#: Attributes computed from the data, dropped when the data changes.
_DERIVED = ('frame_names', 'gl_commands', 'topology', '_decoder', 'animations', '_timeline', 'metadata', '_shared_field_arrays',
            '_topology_template', '_frame_templates')  # fmt: skip


class PackedFrames(ModelFrames):
    """The frames behind a :class:`~pyvista_quake.QuakeModel` read from an MD2 or MDL: packed bytes.

    Its frames are single PolyData; :class:`~pyvista_quake.QuakeModel` gives them as
    every format gives them.

    Parameters
    ----------
    data : ModelData or AliasData
        The model's record (an MD2's or MDL's: its one surface of packed bytes and its ``alias``
        part), or that part alone.
    options : LoadOptions, optional
        How the model is read (see :class:`~pyvista_quake.model.loading.LoadOptions`).
    search : GameFiles, optional
        Where to look for an MD2's skin files.

    Examples
    --------
    >>> import pyvista_quake
    >>> model = pyvista_quake.load('tris.md2')  # doctest: +SKIP
    >>> mesh = model.frame(0)  # doctest: +SKIP
    >>> model.rename_frame(0, 'idle01'); model.save('out.md2')  # doctest: +SKIP

    """

    skins: ModelSkins
    _skin: int | None

    def __init__(self, data: ModelData | AliasData, options: LoadOptions | None = None, *, search: GameFiles | None = None) -> None:
        self.options = options if options is not None else LoadOptions()
        self.search = search if search is not None else GameFiles()
        self._set_data(data)
        self.skin = self.options.skin
        if self.options.glcmds and self.record.gl_commands is None:
            raise ValueError(f'{self.source}: only MD2 models have OpenGL commands')

    def _set_data(self, data: ModelData | AliasData) -> None:
        """Hold new data (after an edit, the part an edit gives): every derived attribute is rebuilt on demand."""
        images = self.skins.images if 'skins' in self.__dict__ else {}
        # An edited model is no longer the file's (readers that reuse loaded models ask).
        self.edited = 'data' in self.__dict__
        self.data = data if isinstance(data, ModelData) else alias_model(data)
        record = self.record
        options = self.options
        self.skins = ModelSkins(record, self.search, palette=options.palette, external_skins=options.external_skins, holey=options.holey)
        self.skins.images.update({k: v for k, v in images.items() if k in record.skin_names})
        for name in _DERIVED:
            self.__dict__.pop(name, None)

    @property
    def record(self) -> AliasData:
        """The model's own part of its record (``data.alias``): skins, frame groups, GL commands, the file's triangles."""
        alias = self.data.alias
        assert alias is not None  # a model of packed bytes is made of an MD2's or MDL's record
        return alias

    @property
    def skin(self) -> int | None:
        """The skin that travels with the frames (in their field data); ``None`` for none.

        Setting it changes the skin of the frames built from then on.
        """
        return self._skin

    @skin.setter
    def skin(self, index: int | str | Path | None) -> None:
        self._skin = self.skins.valid_index(index)
        for name in ('_shared_field_arrays', '_frame_templates'):
            self.__dict__.pop(name, None)

    def __len__(self) -> int:
        """Return the number of frames (each picture of a frame group counts)."""
        return self.record.num_frames

    def __repr__(self) -> str:
        """Return a one-line summary."""
        return (
            f'QuakeModel({self.format.upper()} {self.record.source!r}, {len(self)} frames, '
            f'{self.record.num_vertices} vertices, {len(self.record.triangle_vertices)} triangles)'
        )

    # -- what users ask about -------------------------------------------------
    @property
    def strict(self) -> bool | str:
        """Whether the engines' limits are errors: ``True``, or the name of the one engine whose limits apply."""
        return self.options.strict

    @property
    def glcmds(self) -> bool:
        """Whether frames are built from an MD2's OpenGL commands."""
        return self.options.glcmds

    def frame_name(self, index: int) -> str:
        """Name of one frame (decodes that name only)."""
        if 'frame_names' in self.__dict__:
            return self.frame_names[index]
        return self.record.frame_name(index)

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

    # -- geometry -------------------------------------------------------------------
    @cached_property
    def topology(self) -> Topology:
        """The points, texture coordinates and cells every frame shares."""
        # With no usable triangle left (all index past the vertices), the GL commands
        # are what Quake II draws: draw them too.
        if self.glcmds or not len(self.record.triangle_vertices):
            return gl_topology(self.gl_commands, self.source)
        return triangle_topology(self.record, self.data.surfaces[0], texel_centers=self.options.texel_centers)

    @cached_property
    def _decoder(self) -> FrameDecoder:
        return FrameDecoder(self.record, self.topology.point_vertex, computed_normals=self.options.normals == 'computed')

    def vertex_positions(self, frames: FrameSelection = None) -> np.ndarray:
        """Positions of the file's vertices (not the mesh's points), ``(frames, vertices, 3)``.

        Each coordinate is ``v * scale + translate`` in float32, in Quake's axes.
        """
        return self._decoder.vertex_positions(frames)

    def positions(self, frames: FrameSelection = None) -> np.ndarray:
        """Point positions of the given frames (all by default), ``float32`` ``(frames, points, 3)``.

        Points are in the order of the PolyData of :meth:`frame`.
        """
        return self._decoder.positions(frames)

    def normals(self, frames: FrameSelection = None) -> np.ndarray:
        """Unit point normals of the given frames, ``float32`` ``(frames, points, 3)``.

        Looked up in the 162-entry normal table (or computed from the geometry
        with ``normals='computed'``); a vertex whose index lies past the table
        gets the mean normal of its faces, with a warning.
        """
        return self._decoder.normals(frames)

    @property
    def surface_names(self) -> list[str]:
        """The one surface's name: the model's file name (``tris`` for ``tris.md2``)."""
        return [self.search.model_stem() or 'model']

    def point_counts(self) -> list[int]:
        """Points of the one surface's meshes."""
        return [len(self.topology.point_vertex)]

    def per_surface_positions(self, frames: FrameSelection = None) -> list[np.ndarray]:
        """The one surface's point positions (see :meth:`positions`)."""
        return [self.positions(frames)]

    def per_surface_normals(self, frames: FrameSelection = None) -> list[np.ndarray]:
        """The one surface's point normals (see :meth:`normals`)."""
        return [self.normals(frames)]

    def surface_skin(self, index: int) -> FoundSkin | None:
        """The chosen skin's image file (``None`` with ``skin=None``)."""
        return self.skin_file(self.skin) if self.skin is not None else None

    def image_name(self, index: int) -> str | None:
        """The chosen skin's name (an MD2's; ``None`` for an MDL's embedded pictures, or with ``skin=None``)."""
        return self.record.skin_names[self.skin] if self.skin is not None and self.skin < len(self.record.skin_names) else None

    def surface_alpha(self, index: int) -> str:
        """``'cutout'`` for an MDL whose flags make index 255 see-through (``MF_HOLEY``), else ``'opaque'``."""
        return 'cutout' if self.skins.is_holey else 'opaque'

    def surface_image(self, index: int) -> np.ndarray | None:
        """The chosen skin as an RGB(A) ``uint8`` image (``None`` with ``skin=None``)."""
        return self.skin_image(self.skin) if self.skin is not None else None

    def bounds(self, frames: FrameSelection = None) -> np.ndarray:
        """Bounding box of each frame, ``(frames, 6)`` as ``xmin, xmax, ymin, ymax, zmin, zmax``."""
        pos = self.vertex_positions(frames)
        out = np.empty((len(pos), 6), np.float32)
        out[:, 0::2] = pos.min(axis=1)
        out[:, 1::2] = pos.max(axis=1)
        return out

    # -- animations -------------------------------------------------------------------
    @cached_property
    def animations(self) -> dict[str, Animation]:
        """Animations by name: from frame names, MDL frame groups, a ``.anm`` file and the caller."""
        user = self.options.animations if isinstance(self.options.animations, dict) else {}
        return anim.model_animations(
            self.frame_names, self.record.frame_groups, self.fps, self._anm_text(), user, self.source, self.options.group_timing
        )

    @property
    def anm(self) -> Path | None:
        """The ``.anm`` file on disk the animations come from, if any."""
        given = self.options.anm
        if given is True:
            return anim.sidecar_anm(self.search.model_path) if self.search.model_path is not None else None
        return Path(given) if given else None

    @cached_property
    def tags(self) -> dict[str, Tag]:
        """Tags of UFO: Alien Invasion's ``.tag`` file beside the model (same stem; in its PAK/PK3 too).

        Each has ``origins`` ``(frames, 3)`` and ``axes`` ``(frames, 3, 3)``, as
        an MD3's tags; :meth:`tag` gives a 4 x 4 matrix.  Empty without a
        ``.tag``; one whose frames are not the model's is left out, with a warning.
        """
        name = self.search.model_file_name()
        found = self.search.beside_model(str(PurePosixPath(name).with_suffix('.tag'))) if name else None
        if found is None:
            return {}
        tags = tag_file.parse(found[1], found[0])
        if any(len(t.origins) != len(self) for t in tags.values()):
            warn_external(f'{found[0]}: its tags have {len(next(iter(tags.values())).origins)} frames, the model {len(self)}; left out')
            return {}
        return tags

    def _anm_text(self) -> tuple[str, str] | None:
        """``(name, text)`` of the ``.anm``: on disk, or beside the model in its PAK/PK3."""
        if self.anm is not None:
            return str(self.anm), self.anm.read_text(encoding='latin-1')
        if self.options.anm is True and self.search.archive is not None and self.search.member:
            found = self.search.archive_sidecar('.anm')
            if found is not None:
                return found
        return None

    @property
    def entries(self) -> list[range]:
        """The frames as QuakeC numbers them: an MDL frame group is one entry, its poses a range.

        ``self.frame(self.entries[k][0])`` is the first pose of QuakeC's frame ``k``.
        """
        groups = {g.start: g.count for g in self.record.frame_groups}
        out, frame = [], 0
        while frame < len(self):
            count = groups.get(frame, 1)
            out.append(range(frame, frame + count))
            frame += count
        return out

    @cached_property
    def _timeline(self) -> tuple[np.ndarray, float]:
        return anim.timeline(len(self), self.record.frame_groups, self.fps, self.options.group_timing)

    # -- PolyData -----------------------------------------------------------------
    def _frame_points(self, frame: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
        points, normals = self._decoder.frame(frame)
        return [points], [normals]

    def _pose(self, frame: int, points: list[np.ndarray], normals: list[np.ndarray]) -> pv.PolyData:
        """One PolyData: points are float32 in Quake's axes (x forward, y left, z up), with point normals,
        texture coordinates, ``point_data['vertex_index']`` and the model's metadata in ``field_data``."""
        return self._polydata(frame, points[0], normals[0])

    def _polydata(self, frame: int, points: np.ndarray, normals: np.ndarray) -> pv.PolyData:
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
            for key, value in keys.frame_fields(self.record, frame, self.frame_name(frame)).items():
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
        if self.skin is not None:
            values.update(self.skins.field_data(self.skin))
        # One set of VTK arrays, shared by every frame the model builds.
        return [vtk_array(key, value) for key, value in values.items()]

    # -- editing (see pyvista_quake.model.edit) ---------------------------------------------
    def set_frame(self, index: int, points: np.ndarray | pv.PolyData, normals: np.ndarray | None = None) -> None:
        """Move one frame's vertices.

        Parameters
        ----------
        index : int
            The frame.
        points : array or pyvista.PolyData
            New positions, ``(vertices, 3)`` for the file's vertices or
            ``(points, 3)`` for the points of :meth:`frame` (or a PolyData
            of this model's frame).
        normals : array, optional
            Normals of the same shape; computed from the geometry by default.

        """
        self._set_data(edit.set_frames(self.record, self.topology, [index], [self._one_surface(points)], None if normals is None else [normals]))

    def add_frames(self, points: Sequence, names: Sequence[str] | None = None, at: int | None = None) -> None:
        """Insert frames (``(frames, vertices or points, 3)`` or PolyData) before frame ``at`` (default: at the end)."""
        self._set_data(edit.add_frames(self.record, self.topology, [self._one_surface(p) for p in points], names, at))

    def _one_surface(self, frame: Any) -> Any:
        """A frame as an edit takes it: an array or a PolyData (a MultiBlock of one block, or a list of one array, is its one surface)."""
        if isinstance(frame, pv.MultiBlock):
            if frame.n_blocks != 1:
                raise ValueError(f'{self.source}: an {self.format.upper()} has one surface; the MultiBlock has {frame.n_blocks} blocks')
            return frame[0]
        if isinstance(frame, (list, tuple)) and len(frame) == 1 and np.ndim(frame[0]) == 2:
            return frame[0]
        return frame

    def remove_frames(self, frames: FrameSelection) -> None:
        """Remove frames; frame groups lose those members (and go when empty)."""
        self._set_data(edit.remove_frames(self.record, frames))

    def rename_frame(self, index: int, name: str) -> None:
        """Rename one frame (at most 15 bytes of Latin-1)."""
        self._set_data(edit.rename_frames(self.record, {index: name}))

    def set_frame_groups(self, groups: Sequence) -> None:
        """Replace an MDL's frame groups: ``(start, count, intervals)`` each, intervals the end times in seconds."""
        self._set_data(edit.set_frame_groups(self.record, groups))

    def set_skin(self, index: int, image: Any, name: str | None = None) -> None:
        """Replace skin ``index`` (or add one, with ``index == num_skins``).

        Parameters
        ----------
        index : int
            The skin.
        image : path, PIL image or array
            The picture: an MDL stores it in the model's palette (RGB is
            matched to the nearest entry; a 2-D array is taken as palette
            indices); an MD2 names it and :meth:`save` writes it as PNG beside the model.
        name : str, optional
            MD2 only: the name the model gives the skin (default: the
            current name, else ``skin<index>.png``).

        """
        data, images = edit.set_skin(self.record, self.skins, index, image, name)
        self._set_data(data)
        self.skins.images.update(images)
        if self.skin is None:
            self.skin = 0

    def set_texcoords(self, texcoords: np.ndarray) -> None:
        """Set texture coordinates ``(points, 2)`` in VTK's ``(u, v)`` (``v`` from the bottom) for :meth:`frame`'s points."""
        self._set_data(edit.set_texcoords(self.record, self.topology, texcoords))

    @classmethod
    def from_frames(
        cls, frames: pv.DataSet | Sequence[pv.DataSet], format: str = 'md2', *, fps: float | None = None, **kwargs: Any
    ) -> PackedFrames:
        """Build a model from one PolyData or a sequence of them with the same connectivity.

        ``fps`` is the model's playback rate for animations named by frame
        names; see :func:`pyvista_quake.model.edit.from_frames` for the other keywords
        (``skin``, ``names``).
        """
        data, images = edit.from_frames(frames, format, **kwargs)
        model = cls(data, LoadOptions(fps=fps) if fps is not None else LoadOptions())
        model.skins.images.update(images)
        return model
