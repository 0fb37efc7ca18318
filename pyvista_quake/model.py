"""The format-neutral Quake model: frames as PolyData and as numpy arrays.

:class:`QuakeModel` wraps the :class:`~pyvista_quake.data.ModelData` that a
format parser produced.  It knows nothing of byte layouts.  The topology
(one point per distinct vertex and texture coordinate, the triangles, the
texture coordinates) is built once per model and shared by every frame, so
a frame costs its positions and normals only.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Sequence
import warnings

import numpy as np
import pyvista as pv

from pyvista_quake import animation as anim
from pyvista_quake.animation import Animation
from pyvista_quake.data import GLCommand
from pyvista_quake.data import ModelData
from pyvista_quake.errors import QuakeFormatError
from pyvista_quake.errors import QuakeWarning
from pyvista_quake.mesh import build_polydata
from pyvista_quake.mesh import image_texture
from pyvista_quake.mesh import vtk_array
from pyvista_quake.formats.tables import NUM_VERTEX_NORMALS
from pyvista_quake.formats.tables import VERTEX_NORMALS
from pyvista_quake.skins import FoundSkin
from pyvista_quake.skins import SkinSearch
from pyvista_quake.skins import decode_image
from pyvista_quake.skins import find_palette
from pyvista_quake.skins import fullbright_mask
from pyvista_quake.skins import read_palette

FrameSelection = int | slice | Sequence[int] | np.ndarray | None


@dataclass(frozen=True)
class Topology:
    """What every frame of a model shares.

    Attributes
    ----------
    point_vertex : numpy.ndarray
        ``int32`` ``(points,)``: the file's vertex number of each mesh point.
    texcoords : numpy.ndarray
        ``float32`` ``(points, 2)``: ``u`` from the left, ``v`` from the bottom.
    triangles : numpy.ndarray
        ``int32`` ``(n, 3)`` point indices, wound so that VTK's right-hand
        rule points outward.
    strips : numpy.ndarray or None
        Triangle strips in VTK's flat ``[n, i0, i1, ...]`` form (GL-command meshes).
    cell_command : numpy.ndarray or None
        For GL-command meshes, the command each cell came from (strips first).

    """

    point_vertex: np.ndarray
    texcoords: np.ndarray
    triangles: np.ndarray
    strips: np.ndarray | None = None
    cell_command: np.ndarray | None = None


class QuakeModel:
    """A Quake (``.mdl``) or Quake II (``.md2``) model, whichever format it came from.

    Use :func:`pyvista_quake.load` to make one.

    Parameters
    ----------
    data : ModelData
        The parsed content of the file.
    glcmds : bool, default: False
        Build frames from the MD2's OpenGL command list (strips and fans with
        their own float texture coordinates, as Quake II's OpenGL renderer
        draws) instead of from its triangles.
    strict : bool, default: False
        Raise instead of warn for normals past the normal table.
    fps : float, default: 10.0
        Frame rate of frames that have no timing of their own.
    animations : mapping, optional
        Extra animations, ``{name: frames}`` or ``{name: (frames, times)}``;
        they override those found in the file.
    anm : str, pathlib.Path or bool, optional
        A UFO: Alien Invasion ``.anm`` file naming animations; ``True`` looks for
        one beside the model file (same stem) when animations are first asked for.
    skin : int or None, default: 0
        The skin that travels with every frame in its field data; ``None`` for none.
    search : SkinSearch, optional
        Where to look for an MD2's skin files.
    palette : str, pathlib.Path or array, optional
        Palette for MDL skins; the game's ``gfx/palette.lmp`` in the search roots,
        else Quake's own.

    Examples
    --------
    >>> import pyvista_quake
    >>> model = pyvista_quake.load('tris.md2')  # doctest: +SKIP
    >>> mesh = model.frame(0)  # doctest: +SKIP

    """

    def __init__(
        self,
        data: ModelData,
        *,
        glcmds: bool = False,
        strict: bool = False,
        fps: float = anim.DEFAULT_FPS,
        animations: dict | None = None,
        anm: str | Path | bool | None = None,
        skin: int | None = 0,
        search: SkinSearch | None = None,
        palette: str | Path | np.ndarray | None = None,
    ) -> None:
        self.data = data
        self.search = search if search is not None else SkinSearch()
        self._skin_files: dict[int, FoundSkin | None] = {}
        self._palette = palette
        self.skin = self._check_skin(skin)
        self.strict = strict
        if not (np.isfinite(fps) and fps > 0):
            raise ValueError(f'fps must be a positive number, not {fps!r}')
        self.fps = float(fps)
        self._user_animations = dict(animations or {})
        self._anm = anm
        if glcmds and data.gl_commands is None:
            raise ValueError(f'{data.source}: only MD2 models have OpenGL commands')
        self.glcmds = glcmds

    def __len__(self) -> int:
        """Return the number of frames (each picture of a frame group counts)."""
        return self.data.num_frames

    def __repr__(self) -> str:
        """Return a one-line summary."""
        return (
            f'QuakeModel({self.format.upper()} {self.data.source!r}, {len(self)} frames, '
            f'{self.data.num_vertices} vertices, {len(self.data.triangle_vertices)} triangles)'
        )

    # -- what users ask about -------------------------------------------------
    @property
    def format(self) -> str:
        """``'md2'`` or ``'mdl'``."""
        return self.data.format

    @property
    def source(self) -> str:
        """The file the model came from."""
        return self.data.source

    @property
    def header(self) -> dict:
        """Every header field of the file, named as in its spec."""
        return self.data.header

    @cached_property
    def frame_names(self) -> list[str]:
        """Name of each frame, such as ``'stand01'``."""
        return self.data.decoded_frame_names()

    def frame_name(self, index: int) -> str:
        """Name of one frame (decodes that name only)."""
        if 'frame_names' in self.__dict__:
            return self.frame_names[index]
        return self.data.frame_name(index)

    @property
    def skin_names(self) -> list[str]:
        """Image paths the model names (MD2); empty for MDL."""
        return self.data.skin_names

    @property
    def skin_size(self) -> tuple[int, int]:
        """Skin ``(width, height)`` in pixels."""
        return self.data.skin_width, self.data.skin_height

    @property
    def trailing(self) -> bytes:
        """Bytes after the last section, such as Quake ME's ``QMEX`` block."""
        return self.data.trailing

    @cached_property
    def gl_commands(self) -> list[GLCommand]:
        """The parsed OpenGL command list of an MD2 (empty for MDL or none).

        Raises
        ------
        QuakeFormatError
            If the command list is malformed.

        """
        return self.data.gl_commands() if self.data.gl_commands is not None else []

    # -- skins --------------------------------------------------------------------------
    @property
    def num_skins(self) -> int:
        """Number of skins: names an MD2 gives, pictures an MDL embeds."""
        return len(self.data.skins) if self.format == 'mdl' else max(len(self.skin_names), 1)

    def _check_skin(self, skin: int | None) -> int | None:
        if skin is None:
            return None
        count = self.num_skins
        if count == 0:
            return None  # an MDL with no skins
        if not -count <= skin < count:
            raise IndexError(f'{self.source}: skin {skin} out of range; the model has {count}')
        return int(skin) % count

    @cached_property
    def palette(self) -> np.ndarray:
        """The palette for MDL skins, ``uint8`` ``(256, 3)``: given, the game's own, or Quake's."""
        if self._palette is not None:
            return read_palette(self._palette)
        found = find_palette(self.search)
        return found if found is not None else read_palette(None)

    def skin_file(self, index: int = 0) -> FoundSkin | None:
        """Find an MD2 skin's image file; a missing one warns, naming the places tried."""
        cache = self._skin_files
        if index in cache:
            return cache[index]
        if self.skin_names:
            found, tried = self.search.find(self.skin_names[index])
            wanted = self.skin_names[index]
        else:
            found, tried = self.search.find_beside_model()
            wanted = '(no skin named; an image with the model\'s name)'
        if found is None:
            shown = ', '.join(tried[:12]) + (f' and {len(tried) - 12} more' if len(tried) > 12 else '')
            warnings.warn(
                f'{self.source}: skin {index} {wanted} not found; tried {shown or "nowhere"}',
                QuakeWarning,
                stacklevel=3,
            )
        cache[index] = found
        return found

    def skin_fields(self, index: int = 0) -> dict:
        """The skin in the form it travels in field data (still encoded, decoded on demand).

        MD2: ``skin_file`` (the image file's bytes) and ``skin_location``; MDL:
        ``skin_pixels`` (palette indices), ``skin_picture_shape``, ``skin_palette``
        and ``skin_times`` (end times of an animated group).
        """
        fields: dict = {'skin_index': np.array([index], np.int32)}
        if self.format == 'mdl':
            if not self.data.skins:
                return {}
            entry = self.data.skins[index]
            fields['skin_pixels'] = np.ascontiguousarray(entry.pictures).ravel()
            fields['skin_picture_shape'] = np.array(entry.pictures.shape, np.int32)
            fields['skin_palette'] = np.ascontiguousarray(self.palette, np.uint8).ravel()
            if entry.times is not None:
                fields['skin_times'] = np.asarray(entry.times, np.float32)
            return fields
        found = self.skin_file(index)
        if found is None:
            return {}
        fields['skin_name'] = [found.name]
        fields['skin_location'] = [found.location]
        fields['skin_file'] = np.frombuffer(found.data, np.uint8)
        return fields

    def skin_image(self, index: int = 0, picture: int = 0) -> np.ndarray | None:
        """A skin as an RGB(A) ``uint8`` image ``(height, width, channels)``, rows from the top.

        MDL pictures go through the palette; ``picture`` picks one of an animated
        group.  ``None`` (with a warning) when an MD2 skin is missing or undecodable.
        """
        if self.format == 'mdl':
            return self.palette[self.data.skins[index].pictures[picture]] if self.data.skins else None
        found = self.skin_file(index)
        return decode_image(found.data, found.location) if found is not None else None

    def fullbright(self, index: int = 0, picture: int = 0) -> np.ndarray | None:
        """Mask of the pixels of an MDL skin that Quake draws fullbright (indices 224-255)."""
        if self.format != 'mdl' or not self.data.skins:
            return None
        return fullbright_mask(self.data.skins[index].pictures[picture])

    def skin_texture(self, index: int = 0, picture: int = 0) -> pv.Texture | None:
        """A skin as a :class:`pyvista.Texture`, oriented for the frames' texture coordinates."""
        image = self.skin_image(index, picture)
        return image_texture(image) if image is not None else None

    # -- topology ---------------------------------------------------------------
    @cached_property
    def topology(self) -> Topology:
        """The points, texture coordinates and cells every frame shares."""
        return self._gl_topology() if self.glcmds else self._triangle_topology()

    def _triangle_topology(self) -> Topology:
        data = self.data
        corner_vertex = data.triangle_vertices.astype(np.int64).ravel()
        corner_key = data.triangle_st_key.ravel()
        # One point per distinct (vertex, texture coordinate) pair.
        pair = corner_vertex * (int(corner_key.max()) + 1) + corner_key
        # np.unique without its stable sort: corners with one key share their st,
        # so any corner of a key may stand for it.
        order = np.argsort(pair)
        ordered = pair[order]
        starts = np.empty(len(ordered), bool)
        starts[0] = True
        np.not_equal(ordered[1:], ordered[:-1], out=starts[1:])
        inverse = np.empty(len(pair), np.int64)
        inverse[order] = np.cumsum(starts) - 1
        first = order[starts]
        st = data.triangle_st.reshape(-1, 2)[first]
        # The files list corners clockwise seen from outside; VTK wants them anticlockwise.
        triangles = inverse.reshape(-1, 3)[:, ::-1].astype(np.int32)
        return Topology(
            point_vertex=corner_vertex[first].astype(np.int32),
            texcoords=self._texcoords(st),
            triangles=np.ascontiguousarray(triangles),
        )

    def _texcoords(self, st: np.ndarray) -> np.ndarray:
        width, height = self.skin_size
        if width <= 0 or height <= 0:
            warnings.warn(
                f'{self.source}: skin size {width} x {height} is empty; texture coordinates are 0',
                QuakeWarning,
                stacklevel=4,
            )
            return np.zeros((len(st), 2), np.float32)
        uv = np.empty((len(st), 2), np.float32)
        uv[:, 0] = st[:, 0] / np.float32(width)
        uv[:, 1] = 1 - st[:, 1] / np.float32(height)  # the file's t runs from the top
        return uv

    def _gl_topology(self) -> Topology:
        commands = self.gl_commands
        if not commands:
            raise QuakeFormatError(self.source, 'num_glcmds', 0, 'the model has no OpenGL commands')
        point_vertex = np.concatenate([c.vertices for c in commands])
        st = np.concatenate([c.texcoords for c in commands])
        texcoords = np.column_stack([st[:, 0], 1 - st[:, 1]]).astype(np.float32)
        starts = np.cumsum([0] + [len(c.vertices) for c in commands])
        strips: list[int] = []
        strip_ids: list[int] = []
        triangles = []
        fan_ids = []
        for number, (command, start) in enumerate(zip(commands, starts)):
            ids = np.arange(start, start + len(command.vertices))
            if len(ids) < 3:
                continue
            if command.kind == 'strip':
                # Flip the strip's winding (the files wind clockwise): reversing
                # does it for an odd length; an even one takes a leading repeat.
                flipped = ids[::-1] if len(ids) % 2 else np.concatenate([ids[:1], ids])
                strips += [len(flipped), *flipped.tolist()]
                strip_ids.append(number)
            else:
                fan = np.column_stack([np.full(len(ids) - 2, ids[0]), ids[2:], ids[1:-1]])
                triangles.append(fan)
                fan_ids += [number] * len(fan)
        return Topology(
            point_vertex=point_vertex.astype(np.int32),
            texcoords=texcoords,
            triangles=np.concatenate(triangles).astype(np.int32) if triangles else np.empty((0, 3), np.int32),
            strips=np.asarray(strips, np.int64),
            cell_command=np.asarray(fan_ids + strip_ids, np.int32),
        )

    # -- whole-animation arrays -------------------------------------------------
    def _frame_indices(self, frames: FrameSelection) -> np.ndarray:
        n = len(self)
        if frames is None:
            return np.arange(n)
        if isinstance(frames, slice):
            return np.arange(n)[frames]
        index = np.asarray(frames, dtype=np.int64).reshape(-1)
        if index.size and (index.min() < -n or index.max() >= n):
            bad = index[(index < -n) | (index >= n)][0]
            raise IndexError(f'frame {bad} out of range for a model of {n} frames')
        return index % n if n else index

    def vertex_positions(self, frames: FrameSelection = None) -> np.ndarray:
        """Positions of the file's vertices (not the mesh's points), ``(frames, vertices, 3)``.

        Each coordinate is ``v * scale + translate`` in float32, in Quake's axes.
        """
        index, run = self._selection(frames)
        out = np.empty((len(index), self.data.num_vertices, 3), np.float32)
        for chunk, frame, verts in self._chunks(index, run):
            self._scale_into(verts, frame, out[chunk])
        return out

    def _scale_into(self, verts: np.ndarray, frame: np.ndarray, out: np.ndarray) -> None:
        """``v * scale + translate`` of packed vertices into ``out``, in float32.

        One coordinate at a time, so numpy's inner loop runs over vertices rather than over 3.
        """
        scale, translate = self.data.frame_scale, self.data.frame_translate
        for axis in range(3):
            target = out[..., axis]
            np.multiply(verts[..., axis], scale[frame, axis, None], out=target)
            target += translate[frame, axis, None]

    #: Point-frames decoded per step of :meth:`positions` and :meth:`normals`: bounds
    #: their temporaries to a few MB whatever the animation's length.
    CHUNK = 1 << 18

    def _selection(self, frames: FrameSelection) -> tuple[np.ndarray, bool]:
        """Frame indices, and whether they are one run of consecutive frames."""
        if frames is None:
            return np.arange(len(self)), True
        index = self._frame_indices(frames)
        return index, len(index) < 2 or bool(np.all(np.diff(index) == 1))

    def _chunks(self, index: np.ndarray, run: bool):
        """Yield ``(chunk, frame_indices, verts)`` over the frames, a bounded step at a time.

        ``verts`` is the packed ``(n, vertices, 4)`` bytes of those frames (a view
        for a run of consecutive frames).  Callers decode into scratch buffers
        sized for one step and reused, so temporaries cost neither memory nor
        fresh pages whatever the animation's length.
        """
        step = max(1, min(len(index), self.CHUNK // max(1, len(self.topology.point_vertex))))
        verts = self.data.frame_verts
        for start in range(0, len(index), step):
            chunk = slice(start, start + step)
            frame = index[chunk]
            yield chunk, frame, (verts[frame[0] : frame[0] + len(frame)] if run else verts[frame])

    def _output(self, index: np.ndarray) -> np.ndarray:
        return np.empty((len(index), len(self.topology.point_vertex), 3), np.float32)

    def positions(self, frames: FrameSelection = None) -> np.ndarray:
        """Point positions of the given frames, ``float32`` ``(frames, points, 3)``.

        Points are in the order of the PolyData of :meth:`frame`.

        Parameters
        ----------
        frames : int, slice, sequence of int, optional
            Which frames; all of them by default.

        """
        index, run = self._selection(frames)
        out = self._output(index)
        point_vertex = self.topology.point_vertex
        scratch = None
        for chunk, frame, verts in self._chunks(index, run):
            if scratch is None:
                scratch = np.empty(verts.shape[:2] + (3,), np.float32)
            # The arithmetic once per file vertex, then whole rows gathered to the
            # mesh points ('raise' would buffer 'out').
            vertex_positions = scratch[: len(frame)]
            self._scale_into(verts, frame, vertex_positions)
            np.take(vertex_positions, point_vertex, axis=1, out=out[chunk], mode='clip')
        return out

    def normals(self, frames: FrameSelection = None) -> np.ndarray:
        """Unit point normals of the given frames, ``float32`` ``(frames, points, 3)``.

        Looked up in the 162-entry normal table by ``lightnormalindex``.  A vertex
        whose index lies past the table gets the mean normal of its faces, with a
        :class:`~pyvista_quake.QuakeWarning` (an error under ``strict``).
        """
        index, run = self._selection(frames)
        out = self._output(index)
        point_vertex = self.topology.point_vertex
        light_buffer = table_buffer = None
        worst = 0
        for chunk, frame, verts in self._chunks(index, run):
            if light_buffer is None:
                light_buffer = np.empty((len(frame), len(point_vertex)), np.uint8)
                table_buffer = np.empty((len(frame), len(point_vertex)), np.intp)  # np.take's index type
            light = light_buffer[: len(frame)]
            np.take(verts[..., 3], point_vertex, axis=1, out=light, mode='clip')
            worst = max(worst, int(light.max(initial=0)))
            table_index = table_buffer[: len(frame)]
            np.minimum(light, NUM_VERTEX_NORMALS - 1, out=table_index, casting='unsafe')
            np.take(VERTEX_NORMALS, table_index, axis=0, out=out[chunk], mode='clip')
        if worst < NUM_VERTEX_NORMALS:
            return out
        # Rare: indices past the table. Those vertices take the mean normal of their faces.
        light_vertices = self.data.frame_verts[index][..., 3]
        bad = light_vertices >= NUM_VERTEX_NORMALS
        vertex_normals = VERTEX_NORMALS[np.minimum(light_vertices, NUM_VERTEX_NORMALS - 1)]
        self._repair_normals(index, bad, vertex_normals, worst)
        return vertex_normals[:, self.topology.point_vertex]

    def _repair_normals(self, index: np.ndarray, bad: np.ndarray, normals: np.ndarray, worst: int) -> None:
        if self.strict:
            raise QuakeFormatError(
                self.source, 'lightnormalindex', worst, f'past the {NUM_VERTEX_NORMALS}-entry normal table'
            )
        warnings.warn(
            f'{self.source}: {int(bad.sum())} vertex normals index past the {NUM_VERTEX_NORMALS}-entry '
            f'normal table (up to {worst}); those vertices take the mean normal of their faces',
            QuakeWarning,
            stacklevel=3,
        )
        rows = np.flatnonzero(bad.any(axis=1))
        face_normals = vertex_face_normals(self.vertex_positions(index[rows]), self.data.triangle_vertices)
        target = normals[rows]
        target[bad[rows]] = face_normals[bad[rows]]
        normals[rows] = target

    # -- animations ---------------------------------------------------------------
    @cached_property
    def animations(self) -> dict[str, Animation]:
        """Animations by name: from frame names, MDL frame groups, a ``.anm`` file and the caller.

        Each source overrides the one before: a frame group replaces the
        name-based animation of its frames, a ``.anm`` or caller entry replaces
        one of the same name.
        """
        names = self.frame_names
        found = anim.group_by_name(names, self.fps)
        groups = self.data.frame_groups
        if groups:
            in_group = np.zeros(len(self), bool)
            for group in groups:
                in_group[group.start : group.start + group.count] = True
            found = {k: a for k, a in found.items() if not in_group[a.frames].any()}
            for key, value in anim.group_animations(groups, names, self.source).items():
                found[anim.unique_key(key, found)] = value
        if self.anm is not None:
            text = self.anm.read_text(encoding='latin-1')
            found.update(anim.parse_anm(text, len(self), str(self.anm)))
        found.update(anim.user_animations(self._user_animations, len(self), self.fps))
        return found

    @cached_property
    def anm(self) -> Path | None:
        """The ``.anm`` file the animations come from, if any."""
        if self._anm is True:
            return anim.sidecar_anm(self.search.model_path) if self.search.model_path is not None else None
        return Path(self._anm) if self._anm else None

    @cached_property
    def _timeline(self) -> tuple[np.ndarray, float]:
        return anim.timeline(len(self), self.data.frame_groups, self.fps)

    @property
    def times(self) -> np.ndarray:
        """Start time in seconds of every frame over the whole file (strictly increasing)."""
        return self._timeline[0]

    @property
    def duration(self) -> float:
        """Seconds the whole file takes to play once."""
        return self._timeline[1]

    def animation(self, name: str | Animation | None) -> Animation:
        """Return an animation by name; ``None`` gives the whole file as one animation."""
        if isinstance(name, Animation):
            return name
        if name is None:
            frames = np.arange(len(self))
            return Animation('all', frames, self.times, self.duration, None, 'file')
        try:
            return self.animations[name]
        except KeyError:
            raise KeyError(f'{self.source}: no animation {name!r}; it has {sorted(self.animations)}') from None

    def at(self, t: float, animation: str | Animation | None = None, *, loop: bool = True) -> pv.PolyData:
        """Return the pose at time ``t`` seconds, as the engines draw it between two frames.

        Positions are interpolated linearly, normals interpolated and
        renormalised.  Looping, time wraps and the last frame blends into the
        first.

        Parameters
        ----------
        t : float
            Seconds from the animation's start.
        animation : str, optional
            Name of an animation in :attr:`animations`; the whole file by default.
        loop : bool, default: True
            Wrap time around the animation's duration (otherwise clamp).

        """
        clip = self.animation(animation)
        k, k_next, alpha = anim.sample(clip.times, clip.duration, t, loop=loop)
        pair = [int(clip.frames[k]), int(clip.frames[k_next])]
        pos = self.positions(pair)
        nrm = self.normals(pair)
        points = (pos[0] + np.float32(alpha) * (pos[1] - pos[0])).astype(np.float32)
        normals = (1 - alpha) * nrm[0] + alpha * nrm[1]
        length = np.linalg.norm(normals, axis=1, keepdims=True)
        normals = np.divide(normals, length, out=nrm[0].copy(), where=length > 1e-6).astype(np.float32)
        mesh = self._polydata(pair[0] if alpha < 0.5 else pair[1], points, normals)
        mesh.field_data['time'] = np.array([t], np.float64)
        return mesh

    def to_multiblock(self, animation: str | Animation | None = None) -> pv.MultiBlock:
        """Return every frame (of one animation, or the file) as a :class:`pyvista.MultiBlock`.

        Blocks are named by frame name and carry their time in ``field_data['time']``.
        """
        clip = self.animation(animation)
        positions = self.positions(clip.frames)
        normals = self.normals(clip.frames)
        blocks = pv.MultiBlock()
        for k, frame in enumerate(clip.frames):
            mesh = self._polydata(int(frame), positions[k], normals[k])
            mesh.field_data['time'] = np.array([clip.times[k]], np.float64)
            blocks.append(mesh, self.frame_names[frame])
        return blocks

    # -- geometry analysis ------------------------------------------------------------
    def bounds(self, frames: FrameSelection = None) -> np.ndarray:
        """Bounding box of each frame, ``(frames, 6)`` as ``xmin, xmax, ymin, ymax, zmin, zmax``."""
        pos = self.vertex_positions(frames)
        out = np.empty((len(pos), 6), np.float32)
        out[:, 0::2] = pos.min(axis=1)
        out[:, 1::2] = pos.max(axis=1)
        return out

    def centroids(self, frames: FrameSelection = None) -> np.ndarray:
        """Mean of the vertex positions of each frame, ``(frames, 3)``."""
        return self.vertex_positions(frames).mean(axis=1)

    def displacement(self, start: int, end: int) -> pv.PolyData:
        """Frame ``end`` with the displacement of every point since frame ``start``.

        The mesh carries ``point_data['displacement']`` (vectors) and
        ``point_data['displacement_magnitude']``, ready to colour by.
        """
        pos = self.positions([start, end])
        mesh = self.frame(end)
        vectors = pos[1] - pos[0]
        mesh.point_data['displacement'] = vectors
        mesh.point_data['displacement_magnitude'] = np.linalg.norm(vectors, axis=1)
        return mesh

    # -- PolyData -----------------------------------------------------------------
    def frame(self, index: int = 0) -> pv.PolyData:
        """Return one frame as a :class:`pyvista.PolyData`.

        Points are float32 in Quake's axes (x forward, y left, z up); the mesh has
        point normals, texture coordinates, ``point_data['vertex_index']`` and the
        model's metadata in ``field_data``.

        Parameters
        ----------
        index : int, default: 0
            Frame number; negative numbers count from the end.

        """
        frame = int(self._frame_indices([index])[0])
        # One frame: a single gather of its points' packed bytes, no chunking machinery.
        packed = np.take(self.data.frame_verts[frame : frame + 1], self.topology.point_vertex, axis=1)
        points = np.empty(packed.shape[:2] + (3,), np.float32)
        self._scale_into(packed, np.array([frame]), points)
        light = packed[0, :, 3]
        if int(light.max(initial=0)) < NUM_VERTEX_NORMALS:
            normals = VERTEX_NORMALS.take(light, axis=0)
        else:
            normals = self.normals([frame])[0]
        return self._polydata(frame, points[0], normals)

    def _polydata(self, frame: int, points: np.ndarray, normals: np.ndarray) -> pv.PolyData:
        topo = self.topology
        return build_polydata(
            points,
            normals,
            topo.texcoords,
            topo.triangles,
            strips=topo.strips,
            point_arrays={'vertex_index': topo.point_vertex},
            cell_arrays={} if topo.cell_command is None else {'glcmd': topo.cell_command},
            shared_fields=self._shared_field_arrays,
            fields=self._frame_fields(frame),
        )

    def _frame_fields(self, frame: int) -> dict:
        fields = {'frame_name': [self.frame_name(frame)], 'frame_index': np.array([frame], np.int32)}
        if self.format == 'md2':
            fields['scale'] = np.array(self.data.frame_scale[frame], np.float32)
            fields['translate'] = np.array(self.data.frame_translate[frame], np.float32)
        return fields

    def frame_metadata(self, frame: int) -> dict:
        """Field data of one frame: format, frame name, skins and header fields."""
        return {**self.metadata, **self._frame_fields(frame)}

    @cached_property
    def metadata(self) -> dict:
        """Field data every frame shares: format, skin names and size, header fields."""
        meta = {
            'format': [self.format],
            'skin_width': np.array([self.data.skin_width], np.int32),
            'skin_height': np.array([self.data.skin_height], np.int32),
            'num_skins': np.array([len(self.skin_names) or len(self.data.skins)], np.int32),
        }
        if self.source and not self.source.startswith('<'):
            meta['source'] = [self.source]
        if self.skin_names:
            meta['skin_names'] = list(self.skin_names)
        h = self.header
        if self.format == 'mdl':
            meta['flags'] = np.array([h['flags']], np.int32)
            meta['flag_names'] = h['flag_names'] or ['']
            meta['synctype'] = np.array([h['synctype']], np.int32)
            meta['synctype_name'] = [h['synctype_name']]
            meta['eyeposition'] = np.array(h['eyeposition'], np.float32)
            meta['boundingradius'] = np.array([h['boundingradius']], np.float32)
            meta['size'] = np.array([h['size']], np.float32)
            meta['scale'] = np.array(h['scale'], np.float32)
            meta['scale_origin'] = np.array(h['scale_origin'], np.float32)
        for key in ('num_xyz', 'num_st', 'num_tris', 'num_glcmds', 'num_frames', 'numverts', 'numtris', 'numframes'):
            if key in h:
                meta[key] = np.array([h[key]], np.int32)
        return meta

    @cached_property
    def _shared_field_arrays(self) -> list:
        fields = dict(self.metadata)
        if self.skin is not None:
            fields.update(self.skin_fields(self.skin))
        # One set of VTK arrays, shared by every frame the model builds.
        return [vtk_array(key, value) for key, value in fields.items()]


def vertex_face_normals(positions: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    """Mean normal of each vertex's faces, for every frame at once.

    Parameters
    ----------
    positions : numpy.ndarray
        ``(frames, vertices, 3)`` vertex positions.
    triangles : numpy.ndarray
        ``(n, 3)`` vertex numbers in the file's corner order.

    Returns
    -------
    numpy.ndarray
        ``float32`` ``(frames, vertices, 3)`` unit normals (zero for a vertex
        with no faces of non-zero area).

    """
    corners = positions[:, triangles]  # (F, T, 3, 3)
    # File order is clockwise from outside, hence the (2, 1) order here.
    face = np.cross(corners[:, :, 2] - corners[:, :, 0], corners[:, :, 1] - corners[:, :, 0])
    sums = np.zeros_like(positions)
    frames = np.arange(len(positions))[:, None]
    for corner in range(3):
        np.add.at(sums, (frames, triangles[:, corner][None, :]), face)
    length = np.linalg.norm(sums, axis=-1, keepdims=True)
    return np.divide(sums, length, out=np.zeros_like(sums), where=length > 0).astype(np.float32)
