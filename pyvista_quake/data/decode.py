"""Decoding packed frames into float positions and normals, in numpy only.

``v * scale + translate`` for positions and the 162-entry table for normals,
over whole animations in bounded chunks.  No PyVista here: the model, the
readers and export all build on these arrays.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
import os
from typing import Callable
from typing import Iterator
from typing import Sequence

import numpy as np

from pyvista_quake._base.warnings import warn_external
from pyvista_quake.formats import md3
from pyvista_quake.formats.records import AliasData
from pyvista_quake.formats.records import SurfaceData
from pyvista_quake.formats.tables import NUM_VERTEX_NORMALS
from pyvista_quake.formats.tables import VERTEX_NORMALS
from pyvista_quake.formats.tables import latlong_normals

FrameSelection = int | slice | Sequence[int] | np.ndarray | None

#: Point-frames decoded per step of :meth:`FrameDecoder.positions` and ``normals``:
#: bounds their temporaries to a few MB whatever the animation's length.
CHUNK = 1 << 18
#: Up to this many numbers, a block is decoded in one broadcast operation, not one per coordinate.
SMALL = 1 << 12
#: From this many point-frames a thread, whole animations are decoded on several threads
#: (numpy releases the GIL in its loops); below it, starting them costs more than it saves
#: (waking a worker takes tens of microseconds: a share is a few hundred of work).
PARALLEL_FROM = 1 << 17
#: The environment variable that sets how many threads decode (``1``: the calling thread only).
THREADS_VARIABLE = 'PYVISTA_QUAKE_THREADS'

_threads: int | None = None
_pool: tuple[int, int, ThreadPoolExecutor] | None = None  # (process id, threads, pool)


def set_threads(count: int | None = None) -> None:
    """Set how many threads decode whole animations (``None``: the default).

    By default, the ``PYVISTA_QUAKE_THREADS`` environment variable, or the
    processors this process may use, at most 4.  ``1`` decodes in the calling
    thread only.  Values do not depend on it.
    """
    global _threads  # noqa: PLW0603 - one setting per process
    if count is not None and (not isinstance(count, int) or count < 1):
        raise ValueError(f'threads must be a positive integer, not {count!r}')
    _threads = count


def threads() -> int:
    """How many threads decode whole animations (see :func:`set_threads`)."""
    if _threads is not None:
        return _threads
    setting = os.environ.get(THREADS_VARIABLE, '').strip()
    if setting.isdigit() and int(setting) > 0:
        return int(setting)
    available = len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count() or 1
    return max(1, min(available, 4))


def _executor(count: int) -> ThreadPoolExecutor:
    """This process's decoding threads (a forked child makes its own: threads do not survive a fork)."""
    global _pool  # noqa: PLW0603 - one pool per process
    if _pool is not None and _pool[0] == os.getpid():
        if _pool[1] >= count:
            return _pool[2]
        _pool[2].shutdown(wait=False)  # a larger one replaces it
    _pool = (os.getpid(), count, ThreadPoolExecutor(max_workers=count, thread_name_prefix='pyvista-quake-decode'))
    return _pool[2]


#: MD3 positions are shorts of this many units (the format's own scale, as float32).
MD3_XYZ_SCALE = np.float32(md3.XYZ_SCALE)


def surface_positions(surface: SurfaceData, frames: np.ndarray | slice, source: str | None = None) -> np.ndarray:
    """Positions of a surface's points in the given frames, ``float32`` ``(frames, points, 3)``.

    The codec is the stored dtype: packed bytes (MD2, MDL) are ``v * scale + translate`` of
    each point's vertex; an MD3's ``int16`` shorts are ``xyz / 64``; plain ``float32``
    positions (levels, third-party formats) are taken as they are.  ``source``, the file,
    is named with the surface in what a decode warns of.
    """
    if surface.packing is not None:
        return packed_decoder(surface, source).positions(frames)
    xyz = surface.positions[frames]
    if xyz.dtype == np.float32:
        return np.array(xyz, np.float32)
    if xyz.ndim == 3 and xyz.strides[1:] == (8, 2) and xyz.size:
        # As stored, each vertex's three shorts are followed by its normal's: converting all four
        # at once is one contiguous pass (a sixth the time of three strided ones); the result is
        # a view of the first three.
        four = np.lib.stride_tricks.as_strided(xyz, xyz.shape[:2] + (4,), xyz.strides, writeable=False)
        out = four.astype(np.float32)
        out *= MD3_XYZ_SCALE
        return out[..., :3]
    out = np.empty(xyz.shape, np.float32)
    np.multiply(xyz, MD3_XYZ_SCALE, out=out)
    return out


def surface_normals(surface: SurfaceData, frames: np.ndarray | slice, source: str | None = None) -> np.ndarray:
    """Unit normals of a surface's points, ``float32`` ``(frames, points, 3)``: from packed bytes' table indices
    (MD2, MDL), an MD3's latitude and longitude bytes, plain ``float32`` normals as they are, or, where a
    surface gives none, each vertex's area-weighted mean of its faces' normals.  ``source`` as in
    :func:`surface_positions`."""
    if surface.packing is not None:
        return packed_decoder(surface, source).normals(frames)
    if surface.normals is None:
        return vertex_face_normals(surface_positions(surface, frames), surface.triangles)
    packed = surface.normals[frames]
    if packed.dtype == np.float32:
        return np.array(packed, np.float32)
    return np.take(latlong_normals(), packed, axis=0)


@dataclass
class PackedBytes:
    """A packed surface's bytes under the names :class:`FrameDecoder` reads (an :class:`AliasData`'s)."""

    frame_verts: np.ndarray
    frame_scale: np.ndarray
    frame_translate: np.ndarray
    triangle_vertices: np.ndarray
    source: str

    @property
    def num_frames(self) -> int:
        """Frames of the bytes."""
        return self.frame_verts.shape[0]

    @property
    def num_vertices(self) -> int:
        """Vertices of each frame."""
        return self.frame_verts.shape[1]


def packed_decoder(surface: SurfaceData, source: str | None = None) -> FrameDecoder:
    """The decoder of a surface whose frames are packed bytes (a :class:`~pyvista_quake.formats.records.Packing`);
    its warnings name the surface, after ``source`` (the file) when given."""
    packing = surface.packing
    assert packing is not None  # asked of packed surfaces only
    points = surface.point_vertex if surface.point_vertex is not None else np.arange(surface.num_vertices, dtype=np.int32)
    triangles = np.take(points, surface.triangles)  # the vertices of each triangle's corners
    return FrameDecoder(
        PackedBytes(packing.verts, packing.scale, packing.translate, triangles, f'{source + ": " if source else ""}surface {surface.name!r}'), points
    )


def frame_indices(frames: FrameSelection, n: int) -> np.ndarray:
    """Frame numbers of a selection (``None`` for all), negative ones counted from the end.

    Raises
    ------
    IndexError
        If a frame is out of range.

    """
    if frames is None:
        return np.arange(n)
    if isinstance(frames, slice):
        return np.arange(n)[frames]
    index = np.asarray(frames, dtype=np.int64).reshape(-1)
    if index.size and (index.min() < -n or index.max() >= n):
        bad = index[(index < -n) | (index >= n)][0]
        raise IndexError(f'frame {bad} out of range for a model of {n} frames')
    return index % n if n else index


class FrameDecoder:
    """Positions and normals of a model's frames, gathered to its mesh points.

    Parameters
    ----------
    data : AliasData or PackedBytes
        The packed frames: an MD2's or MDL's part, or a packed surface's (:func:`packed_decoder`).
    point_vertex : numpy.ndarray
        The file's vertex of each mesh point (from the topology).
    computed_normals : bool, default: False
        Normals from each frame's geometry (smooth per file vertex, so across
        texture seams) instead of the stored table normals.

    """

    def __init__(self, data: AliasData | PackedBytes, point_vertex: np.ndarray, computed_normals: bool = False) -> None:
        self.data = data
        self.point_vertex = point_vertex
        self.computed_normals = computed_normals
        # Texture seams make more points than vertices: where they make many, the
        # arithmetic and the table lookup are done once per vertex and whole rows
        # gathered to the points; else each point's packed bytes are gathered first.
        self.per_vertex = len(point_vertex) > 3 * data.num_vertices

    def selection(self, frames: FrameSelection) -> tuple[np.ndarray, bool]:
        """Frame indices, and whether they are one run of consecutive frames."""
        if frames is None:
            return np.arange(self.data.num_frames), True
        index = frame_indices(frames, self.data.num_frames)
        return index, len(index) < 2 or bool(np.all(np.diff(index) == 1))

    def scale_into(self, verts: np.ndarray, frame: np.ndarray | slice | int, out: np.ndarray) -> None:
        """``v * scale + translate`` of packed vertices into ``out``, in float32; ``frame`` picks the scales.

        One coordinate at a time, so numpy's inner loop runs over vertices rather
        than over 3; small blocks at once, where numpy's call overhead is the cost.
        """
        scale, translate = self.data.frame_scale, self.data.frame_translate
        if out.size <= SMALL:
            np.multiply(verts[..., :3], scale[frame, None, :], out=out)
            out += translate[frame, None, :]
            return
        # The arithmetic on a contiguous plane (numpy vectorises it there), with
        # one strided read in and one strided write out: an eighth less time than
        # the same operations on the interleaved coordinates, same values.
        plane = np.empty(out.shape[:-1], np.float32)
        for axis in range(3):
            np.copyto(plane, verts[..., axis])
            plane *= scale[frame, axis, None]
            plane += translate[frame, axis, None]
            out[..., axis] = plane

    def chunks(self, index: np.ndarray, run: bool) -> Iterator[tuple[slice, np.ndarray, np.ndarray]]:
        """Yield ``(chunk, frame_indices, verts)`` over the frames, a bounded step at a time.

        ``verts`` is the packed ``(n, vertices, 4)`` bytes of those frames (a view
        for a run of consecutive frames).  Callers decode into scratch buffers
        sized for one step and reused.
        """
        step = max(1, min(len(index), CHUNK // max(1, len(self.point_vertex))))
        verts = self.data.frame_verts
        for start in range(0, len(index), step):
            chunk = slice(start, start + step)
            frame = index[chunk]
            yield chunk, frame, (verts[frame[0] : frame[0] + len(frame)] if run else verts[frame])

    def vertex_positions(self, frames: FrameSelection = None) -> np.ndarray:
        """Positions of the file's vertices (not the mesh's points), ``(frames, vertices, 3)``."""
        index, run = self.selection(frames)
        out = np.empty((len(index), self.data.num_vertices, 3), np.float32)
        for chunk, frame, verts in self.chunks(index, run):
            self.scale_into(verts, frame, out[chunk])
        return out

    def split(self, work: Callable, index: np.ndarray, run: bool, out: np.ndarray) -> list:
        """Run ``work(frame_indices, run, out_rows)`` over the frames, on several threads for long animations.

        Each thread takes a run of output rows of its own; the results of
        ``work`` come back in frame order.
        """
        work_size = len(index) * len(self.point_vertex)
        count = min(threads(), work_size // PARALLEL_FROM) if work_size >= 2 * PARALLEL_FROM else 1
        if count <= 1:
            return [work(index, run, out)]
        edges = np.linspace(0, len(index), count + 1).astype(int).tolist()
        shares = [(index[a:b], run, out[a:b]) for a, b in zip(edges[:-1], edges[1:])]
        futures = []
        try:
            pool = _executor(count - 1)
            for share in shares[1:]:
                futures.append(pool.submit(work, *share))
        except RuntimeError:
            # No thread to be had (interpreter shutting down, a platform without
            # threads): the shares not handed out are decoded here.
            pass
        # The calling thread takes the first share itself rather than wait idle.
        results = [work(*share) for share in [shares[0], *shares[1 + len(futures) :]]]
        return [results[0], *(future.result() for future in futures), *results[1:]]

    def positions(self, frames: FrameSelection = None) -> np.ndarray:
        """Point positions of the given frames, ``float32`` ``(frames, points, 3)``."""
        index, run = self.selection(frames)
        out = np.empty((len(index), len(self.point_vertex), 3), np.float32)
        if run and 0 < out.size <= SMALL:
            # A few frames (a small model's whole animation): one gather, two broadcast operations.
            rows = slice(index[0], index[0] + len(index))
            self.scale_into(np.take(self.data.frame_verts[rows], self.point_vertex, axis=1), rows, out)
            return out
        self.split(self._positions_into, index, run, out)
        return out

    def _positions_into(self, index: np.ndarray, run: bool, out: np.ndarray) -> None:
        point_vertex = self.point_vertex
        scratch = None
        for chunk, frame, verts in self.chunks(index, run):
            if self.per_vertex:
                if scratch is None:
                    scratch = np.empty((len(frame), verts.shape[1], 3), np.float32)
                vertex_positions = scratch[: len(frame)]
                self.scale_into(verts, frame, vertex_positions)
                np.take(vertex_positions, point_vertex, axis=1, out=out[chunk], mode='clip')  # 'raise' would buffer
            else:
                if scratch is None:
                    scratch = np.empty((len(frame), len(point_vertex)), np.uint32)
                # Each point's 4 packed bytes gathered as one word, then scaled straight into the output.
                packed = scratch[: len(frame)]
                np.take(_words(verts), point_vertex, axis=1, out=packed, mode='clip')
                self.scale_into(packed.view(np.uint8).reshape(*packed.shape, 4), frame, out[chunk])

    def normals(self, frames: FrameSelection = None) -> np.ndarray:
        """Unit point normals of the given frames, ``float32`` ``(frames, points, 3)``.

        Looked up in the 162-entry normal table by ``lightnormalindex``.  A vertex
        whose index lies past the table (the engines read past their table)
        gets the mean normal of its faces, with a :class:`~pyvista_quake.QuakeWarning`.
        """
        if self.computed_normals:
            return self._computed(frames)
        index, run = self.selection(frames)
        out = np.empty((len(index), len(self.point_vertex), 3), np.float32)
        if run and 0 < out.size <= SMALL:  # as in positions(): one gather, one lookup
            light = np.take(self.data.frame_verts[index[0] : index[0] + len(index), :, 3], self.point_vertex, axis=1)
            worst = int(light.max())
            np.take(_NORMALS_256, light, axis=0, out=out)
        else:
            worst = max(self.split(self._normals_into, index, run, out))
        if worst < NUM_VERTEX_NORMALS:
            return out
        # Rare: indices past the table. Those vertices take the mean normal of their faces.
        light_vertices = self.data.frame_verts[index][..., 3]
        bad = light_vertices >= NUM_VERTEX_NORMALS
        vertex_normals = VERTEX_NORMALS[np.minimum(light_vertices, NUM_VERTEX_NORMALS - 1)]
        self._repair_normals(index, bad, vertex_normals, worst)
        return vertex_normals[:, self.point_vertex]

    def _normals_into(self, index: np.ndarray, run: bool, out: np.ndarray) -> int:
        """Table normals into ``out``; returns the largest ``lightnormalindex`` met."""
        point_vertex = self.point_vertex
        scratch = None
        worst = 0
        for chunk, frame, verts in self.chunks(index, run):
            # Any byte indexes the padded table; indices past the 162 normals are repaired by the caller.
            if self.per_vertex:
                light = verts[..., 3]
                worst = max(worst, int(light.max(initial=0)))
                if scratch is None:
                    scratch = np.empty((len(frame), verts.shape[1], 3), np.float32)
                vertex_normals = scratch[: len(frame)]
                np.take(_NORMALS_256, light, axis=0, out=vertex_normals, mode='clip')
                np.take(vertex_normals, point_vertex, axis=1, out=out[chunk], mode='clip')
            else:
                if scratch is None:
                    scratch = np.empty((len(frame), len(point_vertex)), np.uint8)
                light = scratch[: len(frame)]
                np.take(verts[..., 3], point_vertex, axis=1, out=light, mode='clip')
                worst = max(worst, int(light.max(initial=0)))
                np.take(_NORMALS_256, light.astype(np.intp, copy=False), axis=0, out=out[chunk], mode='clip')
        return worst

    def _computed(self, frames: FrameSelection) -> np.ndarray:
        """Normals from the geometry; a vertex no triangle uses keeps its table normal."""
        index, _ = self.selection(frames)
        out = np.empty((len(index), len(self.point_vertex), 3), np.float32)
        step = max(1, CHUNK // max(1, self.data.num_vertices))
        for start in range(0, len(index), step):
            chunk = index[start : start + step]
            normals = vertex_face_normals(self.vertex_positions(chunk), self.data.triangle_vertices)
            unused = ~normals.any(axis=-1)
            if unused.any():
                light = np.minimum(self.data.frame_verts[chunk][..., 3], NUM_VERTEX_NORMALS - 1)
                normals[unused] = VERTEX_NORMALS[light][unused]
            out[start : start + len(chunk)] = normals[:, self.point_vertex]
        return out

    def _repair_normals(self, index: np.ndarray, bad: np.ndarray, normals: np.ndarray, worst: int) -> None:
        source = self.data.source
        warn_external(
            f'{source}: {int(bad.sum())} vertex normals index past the {NUM_VERTEX_NORMALS}-entry '
            f'normal table (up to {worst}); those vertices take the mean normal of their faces'
        )
        rows = np.flatnonzero(bad.any(axis=1))
        face_normals = vertex_face_normals(self.vertex_positions(index[rows]), self.data.triangle_vertices)
        target = normals[rows]
        target[bad[rows]] = face_normals[bad[rows]]
        normals[rows] = target

    def frame(self, frame: int) -> tuple[np.ndarray, np.ndarray]:
        """Points and normals of one frame: a single gather of its points' packed bytes."""
        packed = np.take(self.data.frame_verts[frame], self.point_vertex, axis=0)
        points = np.empty((len(packed), 3), np.float32)
        self.scale_into(packed, frame, points)
        light = packed[:, 3]
        if self.computed_normals:
            normals = self._computed([frame])[0]
        elif int(light.max(initial=0)) < NUM_VERTEX_NORMALS:
            normals = VERTEX_NORMALS.take(light, axis=0)
        else:
            normals = self.normals([frame])[0]
        return points, normals


#: The normal table padded to every byte value, so a byte indexes it without a clamp.
_NORMALS_256 = np.zeros((256, 3), np.float32)
_NORMALS_256[:NUM_VERTEX_NORMALS] = VERTEX_NORMALS


def _words(verts: np.ndarray) -> np.ndarray:
    """Packed vertices ``(..., 4)`` bytes as one ``uint32`` word each (a view when the bytes are contiguous)."""
    if verts.strides[-1] != 1:
        verts = np.ascontiguousarray(verts)
    return verts.view(np.uint32)[..., 0]


def vertex_face_normals(positions: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    """Area-weighted mean normal of each vertex's faces, for every frame at once.

    Parameters
    ----------
    positions : numpy.ndarray
        ``(frames, vertices, 3)`` vertex positions.
    triangles : numpy.ndarray
        ``(n, 3)`` vertex numbers in the files' corner order (clockwise seen
        from outside).

    Returns
    -------
    numpy.ndarray
        ``float32`` ``(frames, vertices, 3)`` unit normals (zero for a vertex
        with no faces of non-zero area).

    """
    positions = np.asarray(positions, np.float32)
    frames, vertices = positions.shape[:2]
    triangles = np.asarray(triangles, np.int64)
    a = positions[:, triangles[:, 0]]
    ab = positions[:, triangles[:, 1]] - a
    ac = positions[:, triangles[:, 2]] - a
    # ac x ab: the corner order is clockwise from outside.  Its length is twice the area.
    face = np.empty_like(ab)
    face[..., 0] = ac[..., 1] * ab[..., 2] - ac[..., 2] * ab[..., 1]
    face[..., 1] = ac[..., 2] * ab[..., 0] - ac[..., 0] * ab[..., 2]
    face[..., 2] = ac[..., 0] * ab[..., 1] - ac[..., 1] * ab[..., 0]
    # Sum each vertex's faces: corners sorted by vertex, then one reduceat per run.
    corner_vertex = triangles.ravel()
    order = np.argsort(corner_vertex, kind='stable')
    used, starts = np.unique(corner_vertex[order], return_index=True)
    sums = np.zeros((frames, vertices, 3), np.float32)
    sums[:, used] = np.add.reduceat(face[:, order // 3], starts, axis=1)
    length = np.linalg.norm(sums, axis=-1, keepdims=True)
    return np.divide(sums, length, out=np.zeros_like(sums), where=length > 0)
