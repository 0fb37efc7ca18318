"""What a Quake III map's collision model, visibility and light grid answer, as the engine answers, for many points at once.

Each query takes ``(n, 3)`` points and descends the BSP for all of them together (a
step a level of the tree, never a loop over points), in ``float32`` as the engine
computes: ``CM_PointLeafnum_r`` (an axial plane reads one coordinate, any other the dot
product ``(x nx + y ny) + z nz``, then minus the plane's distance; below 0 is the back),
``CM_PointContents`` (a brush holds a point on the inner side of every side's plane, or
on it; the contents are the OR of every brush of the leaf holding it), ``SV_inPVS`` (the
cluster's PVS bit, then the areas connected: every area portal is closed as a map
starts, so only points of one area), and ``R_SetupEntityLightingGrid`` (the eight
samples around a point, trilinear, those in walls or outside the grid left out).

The map's data come from :func:`pyvista_quake.formats.bsp.read_collision`.
"""

from __future__ import annotations

import functools
from typing import Any
from typing import Callable
from typing import NamedTuple

import numpy as np

from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake.data.patch_collide import patch_collide
from pyvista_quake.formats.bsp import Q3Collision

#: ``SURFACE_CLIP_EPSILON``: how far outside its bounds a point may be and still be tested against a brush.
SURFACE_CLIP_EPSILON = np.float32(0.125)
#: Quake II's ``DIST_EPSILON``: how far short of a brush its traces stop.
DIST_EPSILON = np.float32(0.03125)
#: Points a pass of the brush tests takes at once: bounds the memory of the (point, brush, side) rows.
CHUNK = 2048
#: (trace, brush) bounds tests a pass of the traces makes at once.
TRACE_PAIRS = 1 << 19
#: The grid a trace finds the brushes and patches it may meet by: its cell, the cells an item or a box may cover
#: before it is tested against everything instead, and how far out the grid goes (past it, one cell each side).
MEET_CELL = np.float32(128)
MEET_CELLS = 64
MEET_LIMIT = 131072.0
#: The renderer's ``FUNCTABLE_SIZE``: the sine table a light-grid sample's direction is read from.
FUNCTABLE_SIZE = 1024


def _float32(function: Callable[..., Any]) -> Callable[..., Any]:
    """Run a query as the engine's float32 arithmetic runs: past float32's range is infinite, and a NaN compares
    false, without numpy's warnings (a user's point may be anything)."""

    @functools.wraps(function)
    def quiet(*args: Any, **kwargs: Any) -> Any:
        with np.errstate(over='ignore', invalid='ignore', divide='ignore'):
            return function(*args, **kwargs)

    return quiet


@_float32
def as_points(points: object, name: str = 'points') -> np.ndarray:
    """``points`` as ``float32`` ``(n, 3)`` (one point ``(3,)`` is ``(1, 3)``), as the engine's ``vec3_t`` holds them."""
    array = np.asarray(points, np.float64)
    if array.ndim == 1:
        array = array[None]
    if array.ndim != 2 or array.shape[1] != 3:
        raise ValueError(f'{name} must be (n, 3) coordinates, not an array of shape {array.shape}')
    return array.astype(np.float32)


def plane_distances(c: Q3Collision, points: np.ndarray, planes: np.ndarray) -> np.ndarray:
    """Each point's signed distance to its plane, in ``float32`` as ``CM_PointLeafnum_r`` computes it: an axial plane
    reads one coordinate; any other ``((x nx + y ny) + z nz) - dist``."""
    n = c.normals[planes]
    dot = (points[:, 0] * n[:, 0] + points[:, 1] * n[:, 1]) + points[:, 2] * n[:, 2]
    kind = c.plane_types[planes]
    one = points[np.arange(len(points)), np.minimum(kind, 2)]
    return np.where(kind < 3, one, dot) - c.dists[planes]


@_float32
def leaves(c: Q3Collision, points: np.ndarray, head: int = 0) -> np.ndarray:
    """The leaf holding each point (``CM_PointLeafnum``), from node ``head`` (a Quake II brush model's head node)."""
    node = np.full(len(points), head, np.int64)
    going = np.flatnonzero(node >= 0)
    while len(going):  # a level of the tree at a time: children lie below their node, so this ends
        at = node[going]
        d = plane_distances(c, points[going], c.node_planes[at])
        node[going] = np.where(d < 0, c.children[at, 1], c.children[at, 0])
        going = going[node[going] >= 0]
    return -1 - node


@_float32
def contents(c: Q3Collision, points: np.ndarray, model: int = 0) -> np.ndarray:
    """The ``CONTENTS_*`` bits at each point (``CM_PointContents``): of the world's leaf holding it, or of brush model
    ``model``'s brushes (at rest, where the model's own leaf holds them all); Quake II's: the contents of the leaf
    holding it, below the model's head node."""
    if c.leaf_contents is not None and c.model_headnodes is not None:
        return c.leaf_contents[leaves(c, points, int(c.model_headnodes[model]))]
    out = np.zeros(len(points), np.int64)
    for start in range(0, len(points), CHUNK):
        part = points[start : start + CHUNK]
        if model:  # the model's brushes, in order
            first, count = c.model_brushes[model]
            counts = np.full(len(part), count, np.int64)
        else:
            leaf = leaves(c, part)
            counts = c.leaf_brushes[leaf]
        point = np.repeat(np.arange(len(part)), counts)
        within = np.arange(len(point)) - np.repeat(np.cumsum(counts) - counts, counts)
        brush = first + within if model else c.leafbrushes[c.leaf_first_brush[leaf][point] + within]
        keep = _in_bounds(c, brush, part[point])
        point, brush = point[keep], brush[keep]
        inside = _inside(c, part[point], brush)
        np.bitwise_or.at(out[start : start + CHUNK], point[inside], c.brush_contents[brush[inside]])
    return out


def _in_bounds(c: Q3Collision, brush: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Whether each point lies within its brush's bounds widened by ``SURFACE_CLIP_EPSILON`` (``CM_BoundsIntersectPoint``):
    the bounds are those of the brush's first six sides, the axial ones (``CM_BoundBrush``)."""
    known = c.brush_first_side[brush] + 6 <= len(c.side_planes)
    mins, maxs = _brush_bounds(c, brush)
    out = ~((maxs < p - SURFACE_CLIP_EPSILON) | (mins > p + SURFACE_CLIP_EPSILON)).any(axis=1)
    return out | ~known  # a brush of fewer sides than the array holds past it: not bounded, tested whole


def _inside(c: Q3Collision, p: np.ndarray, brush: np.ndarray) -> np.ndarray:
    """Whether each point is inside its brush: on the inner side of every side's plane, or on it."""
    counts = c.brush_sides[brush]
    row = np.repeat(np.arange(len(brush)), counts)
    side = c.brush_first_side[brush][row] + (np.arange(len(row)) - np.repeat(np.cumsum(counts) - counts, counts))
    planes = c.side_planes[side]
    n = c.normals[planes]
    q = p[row]
    dot = (q[:, 0] * n[:, 0] + q[:, 1] * n[:, 1]) + q[:, 2] * n[:, 2]
    outside = np.zeros(len(brush), bool)
    np.logical_or.at(outside, row, dot > c.dists[planes])
    return ~outside


@_float32
def visible(c: Q3Collision, leaf_a: np.ndarray, leaf_b: np.ndarray) -> np.ndarray:
    """``SV_inPVS`` for pairs of leaves: ``b``'s cluster bit in the PVS row of ``a``'s cluster (row 0 for a cluster
    outside the table, as ``CM_ClusterPVS`` gives it), and both in one area (the area portals closed)."""
    cluster_a, cluster_b = c.leaf_cluster[leaf_a], c.leaf_cluster[leaf_b]
    area_a, area_b = c.leaf_area[leaf_a], c.leaf_area[leaf_b]
    row = np.where((cluster_a < 0) | (cluster_a >= c.clusters), 0, cluster_a)
    # The byte of the row as the engine reads it, ``mask[cluster >> 3]``: a cluster past the row reads on into the
    # rows after it (0 past the lump's end).
    flat = c.visibility.reshape(-1)
    index = row * c.visibility.shape[1] + (np.maximum(cluster_b, 0) >> 3)
    byte = np.where(index < len(flat), flat[np.minimum(index, len(flat) - 1)], 0)
    bit = (byte >> (np.maximum(cluster_b, 0) & 7)) & 1
    return (bit == 1) & (cluster_b >= 0) & (area_a >= 0) & (area_b >= 0) & (area_a == area_b)


def pvs(c: Q3Collision, cluster: int) -> np.ndarray:
    """The clusters seen from ``cluster`` (its PVS row's set bits below the map's cluster count)."""
    row = c.visibility[cluster if 0 <= cluster < c.clusters else 0]
    bits = np.unpackbits(row, bitorder='little')[: c.clusters]
    return np.flatnonzero(bits).astype(np.int64)


def _sine_table() -> np.ndarray:
    """``tr.sinTable``: ``sin(DEG2RAD(i * 360 / (FUNCTABLE_SIZE - 1)))`` in ``float32``."""
    i = np.arange(FUNCTABLE_SIZE, dtype=np.float32)
    degrees = i * np.float32(360.0) / np.float32(FUNCTABLE_SIZE - 1)
    return np.sin(degrees.astype(np.float64) * np.pi / np.float32(180.0)).astype(np.float32)  # DEG2RAD in double


def shifted(samples: np.ndarray, shift: int) -> np.ndarray:
    """``R_ColorShiftLightingBytes``: each colour shifted left ``shift`` bits, scaled down as a whole past 255."""
    rgb = samples.astype(np.int64) << shift
    top = rgb.max(axis=-1, keepdims=True)
    scaled = np.where(top > 255, rgb * 255 // np.maximum(top, 1), rgb)
    return scaled.astype(np.uint8)


class Light(NamedTuple):
    """The light at points: ``ambient`` and ``directed`` colours (0-255 floats) and the unit ``direction`` the
    directed light comes from, ``float32`` ``(n, 3)`` each."""

    ambient: np.ndarray
    directed: np.ndarray
    direction: np.ndarray


@_float32
def grid_light(c: Q3Collision, points: np.ndarray, shift: int = 1, ambient_scale: float = 0.6, directed_scale: float = 1.0) -> Light:
    """The light a model at each point takes from the light grid, as ``R_LightForPoint`` gives it
    (``R_SetupEntityLightingGrid``); no light (zeros) where the map has no grid that fits it.

    ``shift`` is ``r_mapOverBrightBits`` less the screen's overbright bits (1 by ioquake3's defaults, fullscreen);
    ``ambient_scale`` and ``directed_scale`` are ``r_ambientScale`` and ``r_directedScale``.
    """
    n = len(points)
    ambient = np.zeros((n, 3), np.float32)
    directed = np.zeros((n, 3), np.float32)
    direction = np.zeros((n, 3), np.float32)
    if c.light_grid is None or not n:
        return Light(ambient, directed, direction)
    grid = c.light_grid
    counts = np.array([grid.shape[2], grid.shape[1], grid.shape[0]])
    flat = grid.reshape(-1, 8)
    colours = np.concatenate([shifted(flat[:, 0:3], shift), shifted(flat[:, 3:6], shift), flat[:, 6:8]], axis=1)
    inverse = (np.float32(1.0) / c.grid_size).astype(np.float32)
    v = (points - c.grid_origin) * inverse
    pos = np.floor(v).astype(np.float32)
    frac = (v - pos).astype(np.float32)
    cell = np.clip(pos.astype(np.int64), 0, counts - 1)
    steps = np.array([1, counts[0], counts[0] * counts[1]])
    sines = _sine_table()
    total = np.zeros(n, np.float32)
    for corner in range(8):  # the eight samples around each point (not a loop over points)
        factor = np.ones(n, np.float32)
        index = cell @ steps
        ignore = np.zeros(n, bool)
        for axis in range(3):
            if corner & (1 << axis):
                ignore |= cell[:, axis] + 1 > counts[axis] - 1
                factor = factor * frac[:, axis]
                index = index + steps[axis]
            else:
                factor = factor * (np.float32(1.0) - frac[:, axis])
        data = colours[np.where(ignore, 0, index)].astype(np.int64)
        use = ~ignore & (data[:, 0] + data[:, 1] + data[:, 2] != 0)  # a sample in a wall is left out
        factor = np.where(use, factor, np.float32(0)).astype(np.float32)
        total = total + factor
        ambient = ambient + factor[:, None] * data[:, 0:3].astype(np.float32)
        directed = directed + factor[:, None] * data[:, 3:6].astype(np.float32)
        lat = (data[:, 7] * (FUNCTABLE_SIZE // 256)) & (FUNCTABLE_SIZE - 1)
        lng = (data[:, 6] * (FUNCTABLE_SIZE // 256)) & (FUNCTABLE_SIZE - 1)
        quarter = FUNCTABLE_SIZE // 4
        normal = np.column_stack(
            [
                sines[(lat + quarter) & (FUNCTABLE_SIZE - 1)] * sines[lng],
                sines[lat] * sines[lng],
                sines[(lng + quarter) & (FUNCTABLE_SIZE - 1)],
            ]
        )
        direction = direction + factor[:, None] * normal
    thin = (total > 0) & (total < np.float32(0.99))
    scale = np.where(thin, np.float32(1.0) / np.where(thin, total, np.float32(1)), np.float32(1)).astype(np.float32)
    ambient = ambient * scale[:, None] * np.float32(ambient_scale)
    directed = directed * scale[:, None] * np.float32(directed_scale)
    length = np.sqrt((direction.astype(np.float64) ** 2).sum(axis=1)).astype(np.float32)
    direction = np.where(length[:, None] > 0, direction / np.where(length > 0, length, 1)[:, None], direction)
    return Light(ambient.astype(np.float32), directed.astype(np.float32), direction.astype(np.float32))


#: How far outside a plane a corner may be and still be a corner of its brush (the planes are float32).
CORNER_EPSILON = 0.01


@_float32
def brush_faces(c: Q3Collision, brushes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each brush as a closed convex polyhedron from its planes: its corners are where three of its planes meet
    inside all the others; a side's face is the corners on its plane, wound anticlockwise seen from outside.

    Returns ``(points, sizes, face_brush, face_side)``: ``float64`` ``(m, 3)`` corners face after face, each face's
    corner count, and each face's brush and side (its place in ``brush_sides``).  A side that touches its brush at
    an edge or a corner only (q3map2's bevels) has no face.  Brushes of the same number of sides are done together.
    """
    points, sizes, face_brush, face_side = [np.zeros((0, 3))], [np.zeros(0, np.int64)], [np.zeros(0, np.int64)], [np.zeros(0, np.int64)]
    counts = c.brush_sides[brushes]
    for k in np.unique(counts):
        if k < 4:
            continue  # no closed solid of fewer than four planes
        group = brushes[counts == k]
        sides = c.brush_first_side[group][:, None] + np.arange(k)
        planes = c.side_planes[sides]
        normals = c.normals[planes].astype(np.float64)  # (b, k, 3)
        dists = c.dists[planes].astype(np.float64)
        triples = np.array([(i, j, m) for i in range(k) for j in range(i + 1, k) for m in range(j + 1, k)], np.int64)
        a = normals[:, triples]  # (b, t, 3, 3)
        rhs = dists[:, triples]
        det = np.linalg.det(a)
        solvable = np.abs(det) > 1e-9
        safe = np.where(solvable[..., None, None], a, np.eye(3))
        corner = np.linalg.solve(safe, rhs[..., None])[..., 0]  # (b, t, 3)
        inside = (np.einsum('btx,bkx->btk', corner, normals) <= dists[:, None, :] + CORNER_EPSILON).all(axis=2)
        valid = solvable & inside
        # Each (brush, side, corner) where the corner's triple holds the side.
        b_index, t_index, slot = np.nonzero(valid[:, :, None] & np.ones(3, bool))
        side = triples[t_index, slot]
        where = corner[b_index, t_index]
        # One corner a place on each face (four planes meeting at a point give it several times).
        key = np.column_stack([b_index, side, np.round(where / CORNER_EPSILON).astype(np.int64)])
        _, first = np.unique(key, axis=0, return_index=True)
        b_index, side, where = b_index[first], side[first], where[first]
        face = b_index * k + side
        order = np.argsort(face, kind='stable')
        b_index, side, where, face = b_index[order], side[order], where[order], face[order]
        unique_faces, start, per_face = np.unique(face, return_index=True, return_counts=True)
        keep = per_face >= 3
        centre = np.add.reduceat(where, start, axis=0) / per_face[:, None]
        normal = normals[b_index[start], side[start]]
        u = np.cross(normal, np.where(np.abs(normal[:, :1]) < 0.9, [[1.0, 0, 0]], [[0, 1.0, 0]]))
        u /= np.linalg.norm(u, axis=1, keepdims=True)
        v = np.cross(normal, u)
        rank = np.repeat(np.arange(len(unique_faces)), per_face)
        offset = where - centre[rank]
        angle = np.arctan2((offset * v[rank]).sum(axis=1), (offset * u[rank]).sum(axis=1))
        order = np.lexsort((angle, rank))
        where, rank = where[order], rank[order]
        kept = keep[rank]
        points.append(where[kept])
        sizes.append(per_face[keep])
        face_brush.append(group[b_index[start]][keep])
        face_side.append(side[start][keep])
    order_faces = np.concatenate(face_brush)
    return np.concatenate(points), np.concatenate(sizes), order_faces, np.concatenate(face_side)


class Trace(NamedTuple):
    """Where boxes swept along segments stop, as ``CM_BoxTrace`` answers (``(n,)`` or ``(n, 3)`` arrays).

    Attributes
    ----------
    fraction : numpy.ndarray
        ``float32``: how far along each segment the box goes (1 all the way).
    end : numpy.ndarray
        ``float32`` ``(n, 3)``: where it stops (the segment's end when it goes all the way).
    normal : numpy.ndarray
        ``float32`` ``(n, 3)``: the normal of the plane it stops at (zeros when it goes all the way).
    surface_flags, contents : numpy.ndarray
        The ``SURF_*`` flags of the side it stops at and the ``CONTENTS_*`` of its brush.
    start_solid, all_solid : numpy.ndarray
        Whether the box starts inside a brush, and whether it stays inside one all the way.
    """

    fraction: np.ndarray
    end: np.ndarray
    normal: np.ndarray
    surface_flags: np.ndarray
    contents: np.ndarray
    start_solid: np.ndarray
    all_solid: np.ndarray


def _corner_bounds(c: Q3Collision, brush: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each brush's bounds from its corners (Quake II's brushes have none stored), found once for the map: what
    the traces look for brushes by (a brush of no volume has none, and meets nothing)."""
    made = c.__dict__.get('_corner_bounds')
    if made is None:
        everything = np.arange(len(c.brush_sides))
        points, sizes, face_brush, _ = brush_faces(c, everything)
        owner = np.repeat(face_brush, sizes)
        low = np.full((len(everything), 3), np.inf)
        high = np.full((len(everything), 3), -np.inf)
        np.minimum.at(low, owner, points)
        np.maximum.at(high, owner, points)
        # A unit wider: the corners are float64, the traces' boxes float32 (the exact tests follow).
        made = c.__dict__['_corner_bounds'] = ((low - 1).astype(np.float32), (high + 1).astype(np.float32))
    return made[0][brush], made[1][brush]


def _brush_bounds(c: Q3Collision, brush: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each brush's bounds from its first six (axial) sides, as ``CM_BoundBrush`` takes them."""
    sides = c.brush_first_side[brush][:, None] + np.arange(6)
    dist = c.dists[c.side_planes[np.minimum(sides, len(c.side_planes) - 1)]]
    return -dist[:, 0::2], dist[:, 1::2]


@_float32
def trace(c: Q3Collision, start: np.ndarray, end: np.ndarray, mins: np.ndarray, maxs: np.ndarray, mask: int, model: int = 0) -> Trace:
    """``CM_BoxTrace`` of a box ``mins``..``maxs`` from each ``start`` to its ``end`` through model ``model``'s brushes
    whose contents meet ``mask``; a position test (``CM_PositionTest``) where a start is its end.

    Every brush the swept box's bounds meet is clipped by its sides (``CM_TraceThroughBrush``: the plane moved
    out by the box's corner on its side, ``SURFACE_CLIP_EPSILON`` off the entry and exit, a start inside a brush
    ``start_solid``, and ``all_solid`` with fraction 0 where the end is inside it too); the nearest entry wins, the
    first brush of the model on a tie.  Then the patches (``cm_noCurves`` 0, ``cm_playerCurveClip`` 1, as the
    game starts): each facet of each patch the swept box meets, the nearest entry winning where it is nearer than
    the brushes'.

    A Quake II map is traced as its ``CM_BoxTrace`` traces: the box as given (not centred), ``DIST_EPSILON`` (1/32)
    off the entry and exit, a brush left as soon as the segment is wholly in front of one side, and a trace that
    starts and stays inside a brush ``all_solid`` with its fraction as it was.
    """
    n = len(start)
    quake2 = c.game == 'quake2'
    offset = np.zeros(3, np.float32) if quake2 else ((mins + maxs) * np.float32(0.5)).astype(np.float32)
    size_low, size_high = (mins - offset).astype(np.float32), (maxs - offset).astype(np.float32)
    s = (start + offset).astype(np.float32)
    e = (end + offset).astype(np.float32)
    fraction = np.ones(n, np.float32)
    normal = np.zeros((n, 3), np.float32)
    surface = np.zeros(n, np.int64)
    hit_contents = np.zeros(n, np.int64)
    start_solid = np.zeros(n, bool)
    all_solid = np.zeros(n, bool)
    brushes = c.model_brush_list(model)
    brushes = brushes[((c.brush_contents[brushes] & mask) != 0) & (c.brush_sides[brushes] > 0)]
    low_b, high_b = _corner_bounds(c, brushes) if quake2 else _brush_bounds(c, brushes)
    box_low = np.minimum(s, e) + size_low - np.float32(1)  # CM_Trace's bounds: the swept box and a unit more
    box_high = np.maximum(s, e) + size_high + np.float32(1)
    point_test = (s == e).all(axis=1)
    for traces, b_index in _meeting(box_low, box_high, low_b, high_b):
        brush = brushes[b_index]
        moving = ~point_test[traces]
        _clip_through(c, traces[moving], brush[moving], s, e, size_low, size_high, fraction, normal, surface, hit_contents, start_solid, all_solid)
        _position_test(
            c,
            traces[~moving],
            brush[~moving],
            s,
            size_low,
            size_high,
            low_b[b_index][~moving],
            high_b[b_index][~moving],
            fraction,
            hit_contents,
            start_solid,
            all_solid,
        )
    _trace_patches(c, s, e, size_low, size_high, mask, model, fraction, normal, surface, hit_contents, start_solid, all_solid)
    return Trace(fraction, _stopped(start, end, fraction), normal, surface, hit_contents, start_solid, all_solid)


def _stopped(start: np.ndarray, end: np.ndarray, fraction: np.ndarray) -> np.ndarray:
    """Where each trace stops: its end where it goes all the way, else ``start + fraction * (end - start)``."""
    return np.where((fraction == 1)[:, None], end, start + fraction[:, None] * (end - start)).astype(np.float32)


def _meeting(box_low: np.ndarray, box_high: np.ndarray, low: np.ndarray, high: np.ndarray):
    """``(traces, items)``: each pair of a trace's box and an item's bounds that meet, ``SURFACE_CLIP_EPSILON`` apart
    at most (``CM_BoundsIntersect``), in trace order then item order, a chunk of traces at a time.

    The candidates come from a grid of ``MEET_CELL`` units: an item is filed under every cell its bounds cover, a
    trace looks in the cells its box covers; items or boxes covering more than ``MEET_CELLS`` cells (a sky box,
    a long trace) are tested against all of the other side.  Every candidate pair is then tested exactly."""
    eps = SURFACE_CLIP_EPSILON
    item_low, item_high = _cells(low - eps, high + eps)
    small = _cell_count(item_low, item_high) <= MEET_CELLS
    keys, owners = _filed(item_low[small], item_high[small], np.flatnonzero(small))
    order = np.argsort(keys, kind='stable')
    keys, owners = keys[order], owners[order]
    big_items = np.flatnonzero(~small)
    step = max(1, TRACE_PAIRS // max(MEET_CELLS * 4, len(big_items), 1))
    for begin in range(0, len(box_low), step):
        rows = np.arange(begin, min(len(box_low), begin + step))
        t_low, t_high = _cells(box_low[rows], box_high[rows])
        few = _cell_count(t_low, t_high) <= MEET_CELLS
        asked, askers = _filed(t_low[few], t_high[few], np.flatnonzero(few))
        first = np.searchsorted(keys, asked, side='left')
        count = np.searchsorted(keys, asked, side='right') - first
        t_pairs = [np.repeat(askers, count)]
        i_pairs = [owners[np.repeat(first - np.cumsum(count) + count, count) + np.arange(int(count.sum()))]]
        many = np.flatnonzero(~few)  # boxes covering many cells: every item
        t_pairs.append(np.repeat(many, len(low)))
        i_pairs.append(np.tile(np.arange(len(low)), len(many)))
        t_pairs.append(np.repeat(np.flatnonzero(few), len(big_items)))  # items covering many cells: every box
        i_pairs.append(np.tile(big_items, int(few.sum())))
        pair = np.unique(np.concatenate(t_pairs).astype(np.int64) * len(low) + np.concatenate(i_pairs))
        t_index, i_index = pair // max(len(low), 1), pair % max(len(low), 1)
        t = rows[t_index]
        apart = (box_high[t] < low[i_index] - eps) | (box_low[t] > high[i_index] + eps)
        meet = ~apart.any(axis=1)
        if meet.any():
            yield t[meet], i_index[meet]


def _cells(low: np.ndarray, high: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The grid cells a box covers, its first and last on each axis (clamped: a box past the world is one past)."""
    with np.errstate(invalid='ignore', over='ignore'):
        first = np.floor(np.clip(np.nan_to_num(low, nan=-MEET_LIMIT), -MEET_LIMIT, MEET_LIMIT) / MEET_CELL)
        last = np.floor(np.clip(np.nan_to_num(high, nan=MEET_LIMIT), -MEET_LIMIT, MEET_LIMIT) / MEET_CELL)
    return first.astype(np.int64), np.maximum(last.astype(np.int64), first.astype(np.int64))


def _cell_count(first: np.ndarray, last: np.ndarray) -> np.ndarray:
    return np.prod(last - first + 1, axis=1)


def _filed(first: np.ndarray, last: np.ndarray, owner: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each cell every box covers, as a key, and the box's owner beside it."""
    span = last - first + 1
    count = np.prod(span, axis=1)
    which = np.repeat(np.arange(len(first)), count)
    k = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
    ny, nz = span[which, 1], span[which, 2]
    x = first[which, 0] + k // (ny * nz)
    y = first[which, 1] + (k // nz) % ny
    z = first[which, 2] + k % nz
    side = 2 * int(MEET_LIMIT / MEET_CELL) + 3
    key = ((x + side // 2) * side + (y + side // 2)) * side + (z + side // 2)
    return key, owner[which]


def _least_per_trace(traces: np.ndarray, key: np.ndarray) -> np.ndarray:
    """The row of each trace with the least ``key`` (the first such row on a tie)."""
    order = np.lexsort((np.arange(len(traces)), key, traces))
    first = np.ones(len(order), bool)
    first[1:] = traces[order][1:] != traces[order][:-1]
    return order[first]


def _offset_dists(c: Q3Collision, planes: np.ndarray, size_low: np.ndarray, size_high: np.ndarray) -> np.ndarray:
    """Each plane's distance moved out by the box's corner on its side (``plane->dist - DotProduct(offsets[signbits], normal)``)."""
    normal = c.normals[planes]
    corner = np.where(normal < 0, size_high, size_low).astype(np.float32)
    dot = (corner[:, 0] * normal[:, 0] + corner[:, 1] * normal[:, 1]) + corner[:, 2] * normal[:, 2]
    return (c.dists[planes] - dot).astype(np.float32)


def _dot(p: np.ndarray, normal: np.ndarray) -> np.ndarray:
    return (p[:, 0] * normal[:, 0] + p[:, 1] * normal[:, 1]) + p[:, 2] * normal[:, 2]


def _sides_of(c: Q3Collision, brush: np.ndarray, skip: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``(pair, side)`` rows: each pair's brush's sides from ``skip`` on, in order."""
    counts = np.maximum(c.brush_sides[brush] - skip, 0)
    pair = np.repeat(np.arange(len(brush)), counts)
    side = c.brush_first_side[brush][pair] + skip + (np.arange(len(pair)) - np.repeat(np.cumsum(counts) - counts, counts))
    return pair, side


def _clip_through(c, traces, brush, s, e, size_low, size_high, fraction, normal, surface, hit_contents, start_solid, all_solid) -> None:
    """``CM_TraceThroughBrush`` for each (trace, brush) pair, the results folded into the traces' arrays (Quake II's
    ``CM_ClipBoxToBrush`` for a Quake II map)."""
    if not len(traces):
        return
    quake2 = c.game == 'quake2'
    eps = DIST_EPSILON if quake2 else SURFACE_CLIP_EPSILON
    pair, side = _sides_of(c, brush)
    planes = c.side_planes[side]
    dist = _offset_dists(c, planes, size_low, size_high)
    n = c.normals[planes]
    d1 = _dot(s[traces[pair]], n) - dist
    d2 = _dot(e[traces[pair]], n) - dist
    count = len(brush)
    getout = np.zeros(count, bool)
    np.logical_or.at(getout, pair, d2 > 0)
    startout = np.zeros(count, bool)
    np.logical_or.at(startout, pair, d1 > 0)
    away = np.zeros(count, bool)  # wholly in front of a side: no meeting with the brush
    np.logical_or.at(away, pair, (d1 > 0) & ((d2 >= d1) if quake2 else ((d2 >= eps) | (d2 >= d1))))
    crossing = ~((d1 <= 0) & (d2 <= 0))
    entering = crossing & (d1 > d2)
    leaving = crossing & ~entering
    with np.errstate(divide='ignore', invalid='ignore'):
        f_in = np.maximum((d1 - eps) / (d1 - d2), np.float32(0)).astype(np.float32)
        f_out = np.minimum((d1 + eps) / (d1 - d2), np.float32(1)).astype(np.float32)
    enter = np.full(count, -1, np.float32)
    np.maximum.at(enter, pair[entering], f_in[entering])
    leave = np.ones(count, np.float32)
    np.minimum.at(leave, pair[leaving], f_out[leaving])
    # The side that set the entry: the first of the brush's sides at the largest entry (a later one must be greater).
    rows_at = np.flatnonzero(entering & (f_in == enter[pair]))
    lead = np.full(count, len(pair), np.int64)
    np.minimum.at(lead, pair[rows_at], rows_at)
    live = ~away
    inside = live & ~startout
    start_solid[traces[inside]] = True
    stuck = inside & ~getout
    all_solid[traces[stuck]] = True
    if not quake2:  # Quake II leaves the fraction (and contents) as they were
        fraction[traces[stuck]] = 0
        hit_contents[traces[stuck]] = c.brush_contents[brush[stuck]]
    hits = live & startout & (enter < leave) & (enter > -1)
    order = np.flatnonzero(hits)
    if not len(order):
        return
    # The nearest entry of each trace wins; on a tie the first brush (the pairs are in brush order within a trace).
    chosen = order[_least_per_trace(traces[order], enter[order])]
    t = traces[chosen]
    better = enter[chosen] < fraction[t]
    chosen, t = chosen[better], t[better]
    fraction[t] = np.maximum(enter[chosen], np.float32(0))
    row = lead[chosen]
    normal[t] = n[row]
    surface[t] = c.shader_flags[c.side_shader[side[row]]]
    hit_contents[t] = c.brush_contents[brush[chosen]]


def _position_test(c, traces, brush, s, size_low, size_high, low_b, high_b, fraction, hit_contents, start_solid, all_solid) -> None:
    """``CM_TestBoxInBrush`` for each (trace, brush) pair: the box inside the brush's bounds and behind its other sides
    (Quake II's: behind every side, no bounds)."""
    if not len(traces):
        return
    quake2 = c.game == 'quake2'
    lo, hi = s[traces] + size_low, s[traces] + size_high
    within = np.ones(len(traces), bool) if quake2 else ~((lo > high_b) | (hi < low_b)).any(axis=1)
    pair, side = _sides_of(c, brush, skip=0 if quake2 else 6)  # Quake III's first six are axial: the bounds tested them
    planes = c.side_planes[side]
    d1 = _dot(s[traces[pair]], c.normals[planes]) - _offset_dists(c, planes, size_low, size_high)
    front = np.zeros(len(brush), bool)
    np.logical_or.at(front, pair, d1 > 0)
    inside = within & ~front
    t = traces[inside]
    start_solid[t] = all_solid[t] = True
    fraction[t] = 0
    hit_contents[t] = c.brush_contents[brush[inside]]


# -- patches ---------------------------------------------------------------------------------------------
class PatchFacets(NamedTuple):
    """Every patch's facets of a map at once: the planes (``float32`` ``(planes, 4)``), each facet's patch, its
    planes by slot (slot 0 its surface, then its borders; -1 past the last) and whether each faces inward, how many
    borders it has, and each patch's bounds and first facet."""

    planes: np.ndarray
    patch: np.ndarray
    slots: np.ndarray
    inward: np.ndarray
    borders: np.ndarray
    bounds: np.ndarray
    first: np.ndarray


def patch_facets(c: Q3Collision) -> PatchFacets:
    """The facets of every patch of the map, made once (``CM_GeneratePatchCollide`` for each, as the map loads)."""
    made = c.__dict__.get('_patch_facets')
    if made is not None:
        return made
    planes, patch, slots, inward, borders, bounds, first = [], [], [], [], [], [], [0]
    offset = 0
    for k, ((width, height), points) in enumerate(zip(c.patch_sizes.tolist(), c.patch_points)):
        try:
            made_one = patch_collide(int(width), int(height), points)
        except ValueError as error:
            raise QuakeFormatError(c.source, f'patch {k}', f'{width} x {height}', str(error)) from None
        count = len(made_one.surface)
        planes.append(made_one.planes)
        patch.append(np.full(count, k, np.int64))
        own = np.column_stack([made_one.surface, made_one.borders])
        slots.append(np.where(own >= 0, own + offset, -1))
        inward.append(np.column_stack([np.zeros(count, bool), made_one.inward]))
        borders.append((made_one.borders >= 0).sum(axis=1))
        bounds.append(made_one.bounds)
        first.append(first[-1] + count)
        offset += len(made_one.planes)
    # Asked for only where the map has a patch: every list holds one at least.
    made = PatchFacets(
        np.concatenate(planes).astype(np.float32),
        np.concatenate(patch),
        np.concatenate(slots),
        np.concatenate(inward),
        np.concatenate(borders),
        np.stack(bounds).astype(np.float32),
        np.array(first, np.int64),
    )
    c.__dict__['_patch_facets'] = made
    return made


def _trace_patches(c, s, e, size_low, size_high, mask, model, fraction, normal, surface, hit_contents, start_solid, all_solid) -> None:
    """The patches' part of ``CM_BoxTrace``: each facet of each patch the swept box's bounds meet
    (``CM_TraceThroughPatchCollide``; a point as ``CM_TracePointThroughPatchCollide``), or a box standing still
    inside one (``CM_PositionTestInPatchCollide``); a patch's hit wins only nearer than the brushes'."""
    chosen = np.flatnonzero((c.patch_model == model) & ((c.patch_contents & mask) != 0))
    if not len(chosen) or not len(s):
        return
    facets = patch_facets(c)
    chosen = chosen[facets.first[chosen + 1] > facets.first[chosen]]
    if not len(chosen):
        return
    low_p, high_p = facets.bounds[chosen, 0], facets.bounds[chosen, 1]
    box_low = np.minimum(s, e) + size_low  # tw->bounds: the swept box
    box_high = np.maximum(s, e) + size_high
    still = (s == e).all(axis=1)
    point = (size_low == 0).all() and (size_high == 0).all()
    # A position test tries every patch of the leaves the box is in; a sweep those whose bounds it meets.
    for met, p_index in _meeting(box_low, box_high, low_p, high_p):
        patches = chosen[p_index]
        counts = facets.first[patches + 1] - facets.first[patches]
        traces = np.repeat(met, counts)
        facet = np.repeat(facets.first[patches] - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))
        moving = ~still[traces]
        _position_in_facets(c, facets, traces[~moving], facet[~moving], s, size_low, size_high, fraction, hit_contents, start_solid, all_solid)
        if point:
            _point_through_facets(c, facets, traces[moving], facet[moving], s, e, fraction, normal, surface, hit_contents)
        else:
            _box_through_facets(c, facets, traces[moving], facet[moving], s, e, size_low, size_high, fraction, normal, surface, hit_contents)


def _facet_planes(facets: PatchFacets, facet: np.ndarray, size_low: np.ndarray, size_high: np.ndarray):
    """Each (pair, slot)'s plane as the box meets it: the surface's moved out by the box's corner on its side
    (``plane[3] -= offset``), each border turned to face out where it faces inward and moved out by
    ``fabs(offset)``; ``valid`` where the slot holds a plane."""
    slots = facets.slots[facet]
    valid = slots >= 0
    rows = facets.planes[np.maximum(slots, 0)]
    n = rows[..., :3]
    corner = np.where(n < 0, size_high, size_low).astype(np.float32)
    inward = facets.inward[facet]
    sign = np.where(inward, np.float32(-1), np.float32(1))[..., None]
    turned = (n * sign).astype(np.float32)
    offset = ((corner[..., 0] * turned[..., 0] + corner[..., 1] * turned[..., 1]) + corner[..., 2] * turned[..., 2]).astype(np.float32)
    dist = (rows[..., 3] * sign[..., 0]).astype(np.float32)
    dist = np.where(np.arange(slots.shape[1]) == 0, dist - offset, dist + np.abs(offset)).astype(np.float32)
    return turned, dist, valid


def _dots(p: np.ndarray, n: np.ndarray) -> np.ndarray:
    return ((p[:, None, 0] * n[..., 0] + p[:, None, 1] * n[..., 1]) + p[:, None, 2] * n[..., 2]).astype(np.float32)


def _box_through_facets(c, facets, traces, facet, s, e, size_low, size_high, fraction, normal, surface, hit_contents) -> None:
    """``CM_TraceThroughPatchCollide`` for each (trace, facet) pair; the nearest entry of each trace wins."""
    if not len(traces):
        return
    eps = SURFACE_CLIP_EPSILON
    n, dist, valid = _facet_planes(facets, facet, size_low, size_high)
    d1 = (_dots(s[traces], n) - dist).astype(np.float32)
    d2 = (_dots(e[traces], n) - dist).astype(np.float32)
    away = valid & (d1 > 0) & ((d2 >= eps) | (d2 >= d1))  # CM_CheckFacetPlane's "completely in front"
    crossing = valid & ~((d1 <= 0) & (d2 <= 0))
    entering = crossing & (d1 > d2)
    leaving = crossing & ~entering
    with np.errstate(divide='ignore', invalid='ignore'):
        f_in = np.where(entering, np.maximum((d1 - eps) / (d1 - d2), np.float32(0)), np.float32(-1)).astype(np.float32)
        f_out = np.where(leaving, np.minimum((d1 + eps) / (d1 - d2), np.float32(1)), np.float32(1)).astype(np.float32)
    enter = np.maximum(f_in.max(axis=1), np.float32(-1))
    leave = np.minimum(f_out.min(axis=1), np.float32(1))
    # The plane that set the entry: the first slot at the largest (a later one must be greater to take it).
    best = np.argmax(entering & (f_in == enter[:, None]), axis=1)
    back = best == facets.borders[facet]  # the last border, the surface from behind: never clipped against
    hit = ~away.any(axis=1) & ~back & (enter < leave) & (enter >= 0)
    _nearest(c, facets, traces[hit], facet[hit], enter[hit], n[hit, best[hit]], fraction, normal, surface, hit_contents)


def _point_through_facets(c, facets, traces, facet, s, e, fraction, normal, surface, hit_contents) -> None:
    """``CM_TracePointThroughPatchCollide`` for each (trace, facet) pair: the surface plane crossed front to back
    where every border lets the crossing through; the trace stops ``SURFACE_CLIP_EPSILON`` before it."""
    if not len(traces):
        return
    slots = facets.slots[facet]
    valid = slots >= 0
    rows = facets.planes[np.maximum(slots, 0)]
    n, dist = rows[..., :3], rows[..., 3]
    d1 = (_dots(s[traces], n) - dist).astype(np.float32)
    d2 = (_dots(e[traces], n) - dist).astype(np.float32)
    front = d1 > 0
    with np.errstate(divide='ignore', invalid='ignore'):
        cross = (d1 / (d1 - d2)).astype(np.float32)
    cross = np.where((d1 == d2) | (cross <= 0), np.float32(99999), cross).astype(np.float32)
    intersect = cross[:, 0]
    flip = front ^ facets.inward[facet]
    # Slot 0, the surface itself, never blocks: its crossing is the intersection.
    blocked = valid & np.where(flip, cross > intersect[:, None], cross < intersect[:, None])
    hit = front[:, 0] & ~blocked.any(axis=1) & (intersect <= fraction[traces])
    if not hit.any():
        return
    traces, facet, d1s, d2s, intersect = traces[hit], facet[hit], d1[hit, 0], d2[hit, 0], intersect[hit]
    # The nearest crossing of each trace stops it, pushed off the surface.
    chosen = _least_per_trace(traces, intersect)
    t = traces[chosen]
    stop = np.maximum(((d1s[chosen] - SURFACE_CLIP_EPSILON) / (d1s[chosen] - d2s[chosen])).astype(np.float32), np.float32(0))
    plane = facets.planes[facets.slots[facet[chosen], 0]]
    patch = facets.patch[facet[chosen]]
    fraction[t] = stop
    normal[t] = plane[:, :3]
    surface[t] = c.patch_flags[patch]
    hit_contents[t] = c.patch_contents[patch]


def _nearest(c, facets, traces, facet, enter, plane_normal, fraction, normal, surface, hit_contents) -> None:
    """Fold each trace's nearest facet entry into its results where it is nearer than what it met before."""
    if not len(traces):
        return
    chosen = _least_per_trace(traces, enter)
    t = traces[chosen]
    better = enter[chosen] < fraction[t]
    chosen, t = chosen[better], t[better]
    patch = facets.patch[facet[chosen]]
    fraction[t] = np.maximum(enter[chosen], np.float32(0))
    normal[t] = plane_normal[chosen]
    surface[t] = c.patch_flags[patch]
    hit_contents[t] = c.patch_contents[patch]


def _position_in_facets(c, facets, traces, facet, s, size_low, size_high, fraction, hit_contents, start_solid, all_solid) -> None:
    """``CM_PositionTestInPatchCollide`` for each (trace, facet) pair: the box's start behind the surface and every
    border, each moved out by the box; a trace already inside a brush keeps the brush's answer."""
    if not len(traces):
        return
    n, dist, valid = _facet_planes(facets, facet, size_low, size_high)
    d = (_dots(s[traces], n) - dist).astype(np.float32)
    inside = ~(valid & (d > 0)).any(axis=1) & ~all_solid[traces]
    t = traces[inside]
    first = np.unique(t, return_index=True)[1]
    t = t[first]
    start_solid[t] = all_solid[t] = True
    fraction[t] = 0
    hit_contents[t] = c.patch_contents[facets.patch[facet[inside][first]]]


class _OnePatch:
    """One patch alone, shaped as a map's patches (what the traces read): solid, of the world."""

    def __init__(self, width: int, height: int, points: np.ndarray) -> None:
        self.source = '<patch>'
        self.patch_sizes = np.array([[width, height]])
        self.patch_points = [np.asarray(points, np.float32)]
        self.patch_contents = np.array([1])
        self.patch_flags = np.array([0])
        self.patch_model = np.array([0])


def trace_patch(width: int, height: int, points: np.ndarray, start: np.ndarray, end: np.ndarray, mins: np.ndarray, maxs: np.ndarray) -> Trace:
    """``CM_BoxTrace`` of one box ``mins``..``maxs`` from each ``start`` to its ``end`` through one patch alone (a
    ``width`` x ``height`` control grid), centred as the engine centres it: what a test oracle of ``cm_patch.c``
    answers one patch at a time."""
    c = _OnePatch(width, height, points)
    n = len(start)
    offset = ((mins + maxs) * np.float32(0.5)).astype(np.float32)
    low, high = (mins - offset).astype(np.float32), (maxs - offset).astype(np.float32)
    s, e = (start + offset).astype(np.float32), (end + offset).astype(np.float32)
    fraction, normal = np.ones(n, np.float32), np.zeros((n, 3), np.float32)
    flags, contents, start_solid, all_solid = np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, bool), np.zeros(n, bool)
    _trace_patches(c, s, e, low, high, 1, 0, fraction, normal, flags, contents, start_solid, all_solid)
    return Trace(fraction, _stopped(start, end, fraction), normal, flags, contents, start_solid, all_solid)
