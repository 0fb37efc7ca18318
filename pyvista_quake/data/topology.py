"""What every frame of a model shares: points, texture coordinates and cells.

Built once per model from its record (an MD2's or MDL's surface and
:class:`~pyvista_quake.formats.records.AliasData`, or its OpenGL commands), so a
frame costs its positions and normals only.  Nothing
here knows PyVista or byte layouts.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake._base.warnings import warn_external
from pyvista_quake.formats.records import AliasData
from pyvista_quake.formats.records import GLCommand
from pyvista_quake.formats.records import SurfaceData


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
    corner_points : numpy.ndarray or None
        For triangle meshes, ``(triangles, 3)``: the point of each of the
        file's triangle corners, in the file's corner order.

    """

    strips: np.ndarray | None = None
    cell_command: np.ndarray | None = None
    corner_points: np.ndarray | None = None

    def __init__(
        self,
        point_vertex: np.ndarray,
        texcoords: np.ndarray,
        triangles: np.ndarray,
        strips: np.ndarray | None = None,
        cell_command: np.ndarray | None = None,
        corner_points: np.ndarray | None = None,
    ) -> None:
        self.point_vertex = point_vertex
        self.texcoords = texcoords
        self.triangles = triangles
        self.strips = strips
        self.cell_command = cell_command
        self.corner_points = corner_points


class TriangleTopology(Topology):
    """One point per distinct (vertex, texture coordinate) pair of the file's triangles: the record's surface's points.

    The points and the triangles' corners are the surface's (found when the file was read,
    :func:`pyvista_quake.formats._alias.alias_model`); the cells and texture coordinates are made
    when first asked for (a mesh needs them).  ``texel_centers`` puts texture coordinates at texel
    centres, ``(s + 0.5) / skinwidth``, as the OpenGL engines sample them (GLQuake's ``gl_mesh.c
    BuildTris``; an MD2's GL commands store them so).
    """

    def __init__(self, data: AliasData, surface: SurfaceData, texel_centers: bool = False) -> None:  # noqa: D107 - the class says it
        assert surface.point_vertex is not None  # an MD2's or MDL's surface names its points' vertices
        self._data = data
        self._texel_centers = texel_centers
        self.point_vertex = surface.point_vertex
        self.corner_points = self._corners = surface.triangles

    @cached_property
    def triangles(self) -> np.ndarray:  # type: ignore[override]  # noqa: D102 - computed once, when asked (mypy takes a cached_property as read-only)
        # The files list corners clockwise seen from outside; VTK wants them anticlockwise.
        return self._corners[:, ::-1].astype(np.int32, order='C')

    @cached_property
    def texcoords(self) -> np.ndarray:  # type: ignore[override]  # noqa: D102 - computed once, when asked (mypy takes a cached_property as read-only)
        data = self._data
        first = np.empty(len(self.point_vertex), np.int64)  # a corner of each point: its pair's st, whichever it is
        first[self._corners.ravel()] = np.arange(self._corners.size)
        st = np.take(data.triangle_st.reshape(-1, 2), first, axis=0)
        return texcoords(st + 0.5 if self._texel_centers else st, data.skin_width, data.skin_height, data.source)


def triangle_topology(data: AliasData, surface: SurfaceData, texel_centers: bool = False) -> Topology:
    """One point per distinct (vertex, texture coordinate) pair of the file's triangles, the record's ``surface``'s
    (see :class:`TriangleTopology`)."""
    return TriangleTopology(data, surface, texel_centers)


def texcoords(st: np.ndarray, width: int, height: int, source: str = '<model>') -> np.ndarray:
    """Skin pixels ``(s, t)`` (``t`` from the top) to VTK texture coordinates ``(u, v)``."""
    if width <= 0 or height <= 0:
        warn_external(f'{source}: skin size {width} x {height} is empty; texture coordinates are 0')
        return np.zeros((len(st), 2), np.float32)
    # (s / width, 1 - t / height): the file's t runs from the top.  Divided in
    # float64, then rounded once to float32.
    uv = np.divide(st, np.array([width, -height], np.float64), dtype=np.float64)
    uv += _V_FROM_BOTTOM
    return uv.astype(np.float32)


_V_FROM_BOTTOM = np.array([0.0, 1.0])


def skin_pixels(uv: np.ndarray, width: int, height: int) -> np.ndarray:
    """VTK texture coordinates back to whole skin pixels ``(s, t)``, ``t`` from the top."""
    uv = np.asarray(uv, np.float64)
    st = np.empty(uv.shape, np.int64)
    st[..., 0] = np.rint(uv[..., 0] * width)
    st[..., 1] = np.rint((1 - uv[..., 1]) * height)
    return st


def gl_topology(commands: list[GLCommand], source: str = '<model>') -> Topology:
    """Points and cells of an MD2's OpenGL commands: strips stay strips, fans become triangles."""
    if not commands:
        raise QuakeFormatError(source, 'num_glcmds', 0, 'the model has no OpenGL commands')
    point_vertex = np.concatenate([c.vertices for c in commands])
    st = np.concatenate([c.texcoords for c in commands])
    uv = np.column_stack([st[:, 0], 1 - st[:, 1]]).astype(np.float32)
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
        texcoords=uv,
        triangles=np.concatenate(triangles).astype(np.int32) if triangles else np.empty((0, 3), np.int32),
        strips=np.asarray(strips, np.int64),
        cell_command=np.asarray(fan_ids + strip_ids, np.int32),
    )
