"""A Quake III patch's collision facets, made as ``CM_GeneratePatchCollide`` makes them, in ``float32``.

A patch collides not as its drawn triangles but as a grid of its own: its control grid's columns
subdivided until every point is within ``SUBDIVIDE_DISTANCE`` (16 units) of the curve, identical
columns removed, then the same along the rows.  Each grid square is one facet (or two
triangles where they are not coplanar), bounded by the planes of its neighbours or of its edges
(``CM_EdgePlaneNum``), then axial and edge bevels and the surface's opposite plane
(``CM_AddFacetBevels``), windings chopped as ``cm_polylib.c`` chops them.  The planes of one patch
are shared by its facets, deduplicated with the engine's tolerances.

The work is per patch and per facet, as the engine's, at a map's first trace; the traces then test
every facet of every patch they meet at once (see :mod:`pyvista_quake.data.collision`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

F32 = np.float32
SUBDIVIDE_DISTANCE = 16.0
PLANE_TRI_EPSILON = 0.1
WRAP_POINT_EPSILON = 0.1
POINT_EPSILON = 0.1
NORMAL_EPSILON = 0.0001
DIST_EPSILON = 0.02
CHOP_EPSILON = F32(0.1)  # ChopWindingInPlace's epsilon is a float (0.1f), the others doubles
MAX_MAP_BOUNDS = 65535.0
#: The columns (and rows) a collision grid holds at most (``MAX_GRID_SIZE``).
MAX_GRID_SIZE = 129
#: A facet's border planes at most: 4 edges, 6 axial bevels, 16 edge bevels (``borderPlanes[4+6+16]``).
MAX_BORDERS = 4 + 6 + 16


@dataclass
class PatchCollide:
    """One patch's collision: its planes (``float32`` ``(planes, 4)``, normal and distance), its facets' surface
    plane, border planes and whether each border faces inward (``(facets, MAX_BORDERS)``, -1 past the last), and
    its bounds (``(2, 3)``, one unit past the grid)."""

    planes: np.ndarray
    surface: np.ndarray
    borders: np.ndarray
    inward: np.ndarray
    bounds: np.ndarray


# -- float32 vector maths as q_shared.h writes it ----------------------------------------------
def _dot(a: np.ndarray, b: np.ndarray) -> np.float32:
    return F32(F32(F32(a[0] * b[0]) + F32(a[1] * b[1])) + F32(a[2] * b[2]))


def _cross(v1: np.ndarray, v2: np.ndarray) -> np.ndarray:
    return np.array(
        [v1[1] * v2[2] - v1[2] * v2[1], v1[2] * v2[0] - v1[0] * v2[2], v1[0] * v2[1] - v1[1] * v2[0]],
        F32,
    )


def _normalize(v: np.ndarray) -> tuple[np.ndarray, np.float32]:
    """``VectorNormalize``: the vector scaled by ``1 / (float)sqrt(length²)``, and the length it returns."""
    length = _dot(v, v)
    if not length:
        return v, F32(0)
    inverse = F32(F32(1) / F32(np.sqrt(length)))
    return (v * inverse).astype(F32), F32(length * inverse)


# -- the grid ------------------------------------------------------------------------------------
def _wraps(grid: np.ndarray) -> bool:
    """``CM_SetGridWrapWidth``: the first and last columns equal within ``WRAP_POINT_EPSILON``."""
    d = (grid[0] - grid[-1]).astype(np.float64)
    return bool((np.abs(d) <= WRAP_POINT_EPSILON).all())


def _needs_subdivision(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``CM_NeedsSubdivision`` of each row of three points: the curve's midpoint 16 units or more off the line's."""
    half = F32(0.5)
    line = ((a + c) * half).astype(F32)
    curve = ((((a + b) * half).astype(F32) + ((b + c) * half).astype(F32)) * half).astype(F32)
    delta = (curve - line).astype(F32)
    square = ((delta[:, 0] * delta[:, 0] + delta[:, 1] * delta[:, 1]) + delta[:, 2] * delta[:, 2]).astype(F32)
    return np.sqrt(square) >= SUBDIVIDE_DISTANCE


def _subdivide_columns(grid: np.ndarray) -> np.ndarray:
    """``CM_SubdivideGridColumns``: a column between two that bend too much becomes three; a flat one goes.

    Raises
    ------
    ValueError
        Where the grid would pass ``MAX_GRID_SIZE`` columns (a broken map's: the engine's array would overflow).
    """
    half = F32(0.5)
    i = 0
    while i < len(grid) - 2:
        a, b, c = grid[i], grid[i + 1], grid[i + 2]
        if not _needs_subdivision(a, b, c).any():
            grid = np.delete(grid, i + 1, axis=0)  # the points are close enough to the curve: the middle goes
            i += 1
            continue
        if len(grid) + 2 > MAX_GRID_SIZE:
            raise ValueError(f'its collision grid passes {MAX_GRID_SIZE} columns (MAX_GRID_SIZE), which the engine cannot hold')
        first = ((a + b) * half).astype(F32)
        third = ((b + c) * half).astype(F32)
        second = ((first + third) * half).astype(F32)
        grid = np.concatenate([grid[: i + 1], first[None], second[None], third[None], grid[i + 2 :]])
    return grid


def _remove_degenerate_columns(grid: np.ndarray) -> np.ndarray:
    """``CM_RemoveDegenerateColumns``: a column equal to the one before it within ``POINT_EPSILON`` goes."""
    i = 0
    while i < len(grid) - 1:
        if (np.abs((grid[i] - grid[i + 1]).astype(np.float64)) <= POINT_EPSILON).all():
            grid = np.delete(grid, i + 1, axis=0)
        else:
            i += 1
    return grid


def collision_grid(width: int, height: int, points: np.ndarray) -> tuple[np.ndarray, bool, bool]:
    """The grid a patch collides as: ``(columns, rows, 3)`` ``float32`` points on the curve, and whether it wraps
    across its width and its height (its first and last columns, or rows, one)."""
    grid = np.ascontiguousarray(np.asarray(points, F32).reshape(height, width, 3).transpose(1, 0, 2))
    wrap_width = _wraps(grid)
    grid = _remove_degenerate_columns(_subdivide_columns(grid))
    grid = np.ascontiguousarray(grid.transpose(1, 0, 2))  # CM_TransposeGrid: the rows' turn
    wrap_height, wrap_width = wrap_width, _wraps(grid)
    grid = _remove_degenerate_columns(_subdivide_columns(grid))
    return grid, wrap_width, wrap_height


# -- windings (cm_polylib.c) -------------------------------------------------------------------------
def _base_winding(normal: np.ndarray, dist: np.float32) -> np.ndarray:
    """``BaseWindingForPlane``: a square of ``MAX_MAP_BOUNDS`` on the plane."""
    axis = int(np.argmax(np.abs(normal)))  # the first largest, as the strict > of the engine finds it
    up = np.zeros(3, F32)
    up[2 if axis < 2 else 0] = 1
    v = _dot(up, normal)
    up = (up + normal * -v).astype(F32)
    up, _ = _normalize(up)
    origin = (normal * dist).astype(F32)
    right = _cross(up, normal)
    up = (up * F32(MAX_MAP_BOUNDS)).astype(F32)
    right = (right * F32(MAX_MAP_BOUNDS)).astype(F32)
    return np.array(
        [(origin - right) + up, (origin + right) + up, (origin + right) - up, (origin - right) - up],
        F32,
    )


def _chop(winding: np.ndarray | None, normal: np.ndarray, dist: np.float32) -> np.ndarray | None:
    """``ChopWindingInPlace``: the part of ``winding`` in front of the plane (``None`` where none is)."""
    if winding is None:
        return None
    dists = ((winding[:, 0] * normal[0] + winding[:, 1] * normal[1]) + winding[:, 2] * normal[2]).astype(F32) - dist
    dists = dists.astype(F32)
    front, back = dists > CHOP_EPSILON, dists < -CHOP_EPSILON
    if not front.any():
        return None
    if not back.any():
        return winding
    sides = np.where(front, 0, np.where(back, 1, 2))
    out = []
    n = len(winding)
    for i in range(n):
        p1 = winding[i]
        if sides[i] == 2:
            out.append(p1)
            continue
        if sides[i] == 0:
            out.append(p1)
        following = sides[(i + 1) % n]
        if following == 2 or following == sides[i]:
            continue
        p2 = winding[(i + 1) % n]
        t = F32(dists[i] / F32(dists[i] - dists[(i + 1) % n]))
        mid = (p1 + t * (p2 - p1).astype(F32)).astype(F32)
        for j in range(3):  # avoid round off error when possible, as the engine does
            if normal[j] == 1:
                mid[j] = dist
            elif normal[j] == -1:
                mid[j] = -dist
        out.append(mid)
    return np.array(out, F32)


def _winding_bounds(winding: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    low = np.minimum(winding.min(axis=0), F32(MAX_MAP_BOUNDS))
    high = np.maximum(winding.max(axis=0), F32(-MAX_MAP_BOUNDS))
    return low.astype(F32), high.astype(F32)


# -- planes ---------------------------------------------------------------------------------------
class _Planes:
    """A patch's planes, deduplicated as ``CM_FindPlane`` and ``CM_FindPlane2`` deduplicate them."""

    def __init__(self) -> None:
        self._array = np.zeros((64, 4), F32)
        self.count = 0

    @property
    def rows(self) -> np.ndarray:
        """The planes so far, ``(planes, 4)``."""
        return self._array[: self.count]

    def _add(self, plane: np.ndarray) -> int:
        if self.count == len(self._array):
            self._array = np.concatenate([self._array, np.zeros_like(self._array)])
        self._array[self.count] = plane
        self.count += 1
        return self.count - 1

    def from_points(self, p1: np.ndarray, p2: np.ndarray, p3: np.ndarray) -> int:
        """``CM_FindPlane``: the plane through three points (-1 for a degenerate triangle), an equal one reused."""
        normal, length = _normalize(_cross((p3 - p1).astype(F32), (p2 - p1).astype(F32)))
        if length == 0:
            return -1
        plane = np.append(normal, _dot(p1, normal)).astype(F32)
        found = self.rows
        if len(found):
            same = (found[:, 0] * plane[0] + found[:, 1] * plane[1]) + found[:, 2] * plane[2] >= 0
            for p in (p1, p2, p3):
                d = ((p[0] * found[:, 0] + p[1] * found[:, 1]) + p[2] * found[:, 2]).astype(F32) - found[:, 3]
                same &= np.abs(d.astype(F32).astype(np.float64)) <= PLANE_TRI_EPSILON
            if same.any():
                return int(np.argmax(same))
        return self._add(plane)

    def equal_any(self, indices: list[int], plane: np.ndarray) -> bool:
        """Whether any of planes ``indices`` is ``plane`` (``CM_PlaneEqual``, either way round)."""
        equal, _ = _plane_equal(self._array[indices], plane)
        return bool(equal.any())

    def find(self, plane: np.ndarray) -> tuple[int, bool]:
        """``CM_FindPlane2``: the first equal plane's index and whether it is flipped, else the plane added."""
        equal, flipped = _plane_equal(self.rows, plane)
        if equal.any():
            k = int(np.argmax(equal))
            return k, bool(flipped[k])
        return self._add(plane), False

    def side(self, point: np.ndarray, index: int) -> int:
        """``CM_PointOnPlaneSide``: 0 front, 1 back, 2 on (plane -1: on)."""
        if index == -1:
            return 2
        plane = self._array[index]
        d = float(F32(_dot(point, plane) - plane[3]))
        return 0 if d > PLANE_TRI_EPSILON else 1 if d < -PLANE_TRI_EPSILON else 2


def _plane_equal(rows: np.ndarray, plane: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``CM_PlaneEqual`` of each row with ``plane``: whether equal, and whether flipped (equal only turned round)."""
    limits = np.array([NORMAL_EPSILON, NORMAL_EPSILON, NORMAL_EPSILON, DIST_EPSILON])
    same = (np.abs((rows - plane).astype(F32).astype(np.float64)) < limits).all(axis=1)
    turned = (np.abs((rows + plane).astype(F32).astype(np.float64)) < limits).all(axis=1)  # against the inverted plane
    return same | turned, ~same & turned


def _facing(planes: _Planes, index: int, inward: bool) -> tuple[np.ndarray, np.float32]:
    """A border plane as the facet keeps its front: as stored where inward, else turned around."""
    row = planes.rows[index]
    return (row[:3], row[3]) if inward else ((-row[:3]).astype(F32), F32(-row[3]))


# -- facets ---------------------------------------------------------------------------------------
class _Facet:
    def __init__(self, surface: int, borders: list[int]) -> None:
        self.surface = surface
        self.borders = list(borders)
        self.inward = [False] * len(borders)


def _edge_plane(planes: _Planes, grid: np.ndarray, grid_planes: np.ndarray, i: int, j: int, k: int) -> int:
    """``CM_EdgePlaneNum``: the plane standing on edge ``k`` of square ``(i, j)``, at right angles to the square."""
    ends = {
        0: (grid[i, j], grid[i + 1, j], 0, False),
        2: (grid[i, j + 1], grid[i + 1, j + 1], 1, True),
        3: (grid[i, j], grid[i, j + 1], 1, True),
        1: (grid[i + 1, j], grid[i + 1, j + 1], 0, False),
        4: (grid[i + 1, j + 1], grid[i, j], 0, False),
        5: (grid[i, j], grid[i + 1, j + 1], 1, False),
    }
    p1, p2, triangle, swapped = ends[k]
    p = _grid_plane(grid_planes, i, j, triangle)
    if p == -1:
        return -1
    up = (p1 + planes.rows[p][:3] * F32(4)).astype(F32)
    return planes.from_points(p2, p1, up) if swapped else planes.from_points(p1, p2, up)


def _grid_plane(grid_planes: np.ndarray, i: int, j: int, triangle: int) -> int:
    p = int(grid_planes[i, j, triangle])
    return p if p != -1 else int(grid_planes[i, j, 1 - triangle])


def _set_border_inward(facet: _Facet, planes: _Planes, grid: np.ndarray, i: int, j: int, which: int) -> None:
    """``CM_SetBorderInward``: each border faces the facet's points (a border they all lie on goes)."""
    corners = {
        -1: (grid[i, j], grid[i + 1, j], grid[i + 1, j + 1], grid[i, j + 1]),
        0: (grid[i, j], grid[i + 1, j], grid[i + 1, j + 1]),
        1: (grid[i + 1, j + 1], grid[i, j + 1], grid[i, j]),
    }[which]
    for k, border in enumerate(facet.borders):
        sides = [planes.side(p, border) for p in corners]
        front, back = sides.count(0), sides.count(1)
        if front and not back:
            facet.inward[k] = True
        elif back and not front:
            facet.inward[k] = False
        elif not front and not back:
            facet.borders[k] = -1  # a flat side border
        else:
            facet.inward[k] = False  # bisecting side border


def _validate(facet: _Facet, planes: _Planes) -> bool:
    """``CM_ValidateFacet``: the facet's surface chopped by its borders leaves a winding of a sane size."""
    if facet.surface == -1:
        return False
    row = planes.rows[facet.surface]
    winding: np.ndarray | None = _base_winding(row[:3], row[3])
    for border, inward in zip(facet.borders, facet.inward):
        if winding is None:
            break
        if border == -1:
            return False
        winding = _chop(winding, *_facing(planes, border, inward))
    if winding is None:
        return False
    low, high = _winding_bounds(winding)
    return not (((high - low) > MAX_MAP_BOUNDS).any() or (low >= MAX_MAP_BOUNDS).any() or (high <= -MAX_MAP_BOUNDS).any())


def _add_bevels(facet: _Facet, planes: _Planes) -> None:
    """``CM_AddFacetBevels``: the axial planes and the slanted planes of its non-axial edges, then its back."""
    row = planes.rows[facet.surface]
    winding: np.ndarray | None = _base_winding(row[:3], row[3])
    for border, inward in zip(facet.borders, facet.inward):
        if winding is None:
            break
        if border == facet.surface:
            continue
        winding = _chop(winding, *_facing(planes, border, inward))
    if winding is None:
        return
    low, high = _winding_bounds(winding)

    def known(plane: np.ndarray) -> bool:
        return planes.equal_any([facet.surface, *facet.borders], plane)

    for axis in range(3):
        for direction in (-1, 1):
            plane = np.zeros(4, F32)
            plane[axis] = direction
            plane[3] = high[axis] if direction == 1 else -low[axis]
            if known(plane):
                continue
            if len(facet.borders) >= MAX_BORDERS:
                continue  # "too many bevels"
            index, flipped = planes.find(plane)
            facet.borders.append(index)
            facet.inward.append(flipped)
    count = len(winding)
    for j in range(count):
        edge, length = _normalize((winding[j] - winding[(j + 1) % count]).astype(F32))
        if length < 0.5:
            continue  # a degenerate edge
        edge = _snap(edge)
        if ((edge == 1) | (edge == -1)).any():
            continue  # only non-axial edges
        for axis in range(3):
            for direction in (-1, 1):
                toward = np.zeros(3, F32)
                toward[axis] = direction
                normal, size = _normalize(_cross(edge, toward))
                if size < 0.5:
                    continue
                plane = np.append(normal, _dot(winding[j], normal)).astype(F32)
                d = ((winding[:, 0] * normal[0] + winding[:, 1] * normal[1]) + winding[:, 2] * normal[2]).astype(F32) - plane[3]
                if (d.astype(F32).astype(np.float64) > 0.1).any():
                    continue  # a point in front: no edge bevel
                if known(plane):
                    continue
                if len(facet.borders) >= MAX_BORDERS:
                    continue
                index, flipped = planes.find(plane)
                if _chop(winding.copy(), *_facing(planes, index, flipped)) is None:
                    continue  # an invalid bevel (its plane stays among the patch's)
                facet.borders.append(index)
                facet.inward.append(flipped)
    if len(facet.borders) >= MAX_BORDERS:
        return
    facet.borders.append(facet.surface)  # the opposite plane: the surface seen from behind
    facet.inward.append(True)


def _snap(v: np.ndarray) -> np.ndarray:
    """``CM_SnapVector``: a component within ``NORMAL_EPSILON`` of ±1 makes the vector that axis."""
    for i in range(3):
        for unit in (1, -1):
            if abs(float(F32(v[i] - unit))) < NORMAL_EPSILON:
                out = np.zeros(3, F32)
                out[i] = unit
                return out
    return v


def patch_collide(width: int, height: int, points: np.ndarray) -> PatchCollide:
    """``CM_GeneratePatchCollide`` of a ``width`` x ``height`` control grid (rows of ``width`` points)."""
    grid, wrap_width, wrap_height = collision_grid(width, height, points)
    columns, rows = grid.shape[:2]
    planes = _Planes()
    grid_planes = np.full((max(columns - 1, 0), max(rows - 1, 0), 2), -1, np.int64)
    for i in range(columns - 1):
        for j in range(rows - 1):
            grid_planes[i, j, 0] = planes.from_points(grid[i, j], grid[i + 1, j], grid[i + 1, j + 1])
            grid_planes[i, j, 1] = planes.from_points(grid[i + 1, j + 1], grid[i, j + 1], grid[i, j])
    facets: list[_Facet] = []

    def keep(facet: _Facet, i: int, j: int, which: int) -> None:
        """Face the facet's borders, and keep it with its bevels where its borders bound it (``CM_ValidateFacet``)."""
        _set_border_inward(facet, planes, grid, i, j, which)
        if _validate(facet, planes):
            _add_bevels(facet, planes)
            facets.append(facet)

    for i in range(columns - 1):
        for j in range(rows - 1):
            here = grid_planes[i, j]
            top = int(grid_planes[i, j - 1, 1]) if j > 0 else int(grid_planes[i, rows - 2, 1]) if wrap_height else -1
            if top == -1 or top == here[0]:
                top = _edge_plane(planes, grid, grid_planes, i, j, 0)
            bottom = int(grid_planes[i, j + 1, 0]) if j < rows - 2 else int(grid_planes[i, 0, 0]) if wrap_height else -1
            if bottom == -1 or bottom == here[1]:
                bottom = _edge_plane(planes, grid, grid_planes, i, j, 2)
            left = int(grid_planes[i - 1, j, 0]) if i > 0 else int(grid_planes[columns - 2, j, 0]) if wrap_width else -1
            if left == -1 or left == here[1]:
                left = _edge_plane(planes, grid, grid_planes, i, j, 3)
            right = int(grid_planes[i + 1, j, 1]) if i < columns - 2 else int(grid_planes[0, j, 1]) if wrap_width else -1
            if right == -1 or right == here[0]:
                right = _edge_plane(planes, grid, grid_planes, i, j, 1)
            if here[0] == here[1]:
                if here[0] == -1:
                    continue  # degenerate
                keep(_Facet(int(here[0]), [top, right, bottom, left]), i, j, -1)
                continue
            # Two triangles, each bounded by two edges and the other's plane.
            third = int(here[1]) if here[1] != -1 else bottom if bottom != -1 else _edge_plane(planes, grid, grid_planes, i, j, 4)
            keep(_Facet(int(here[0]), [top, right, third]), i, j, 0)
            third = int(here[0]) if here[0] != -1 else top if top != -1 else _edge_plane(planes, grid, grid_planes, i, j, 5)
            keep(_Facet(int(here[1]), [bottom, left, third]), i, j, 1)
    borders = np.full((len(facets), MAX_BORDERS), -1, np.int64)
    inward = np.zeros((len(facets), MAX_BORDERS), bool)
    for k, facet in enumerate(facets):
        borders[k, : len(facet.borders)] = facet.borders
        inward[k, : len(facet.inward)] = facet.inward
    flat = grid.reshape(-1, 3)
    bounds = np.stack([flat.min(axis=0) - F32(1), flat.max(axis=0) + F32(1)]).astype(F32)
    return PatchCollide(
        np.array(planes.rows, F32).reshape(-1, 4),
        np.array([f.surface for f in facets], np.int64),
        borders,
        inward,
        bounds,
    )
