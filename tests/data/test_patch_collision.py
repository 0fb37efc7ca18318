"""Traces through a Quake III map's patches, as ``CM_GeneratePatchCollide`` and ``CM_TraceThroughPatchCollide`` answer.

The world is the collision tests' (a floor at z = 0) with a 3 x 3 patch over x -64..0, y 32..96 at z = 40, its
middle control point raised 64: the curve's top is at z = 56 (a quadratic Bezier's middle is a quarter of its
middle control point's height in each direction: 40 + 64 / 4).
"""

from __future__ import annotations

import json
from pathlib import Path
import struct

from level_builders import Q3_MODELS
from level_builders import SOLID
from level_builders import build_q3
from level_builders import collision_args
from level_builders import q3_drawvert
from level_builders import q3_surface
import numpy as np
import pytest

import pyvista_quake as pq
from pyvista_quake.data import collision
from pyvista_quake.data.patch_collide import collision_grid
from pyvista_quake.data.patch_collide import patch_collide

PLAYER = dict(mins=(-15, -15, -24), maxs=(15, 15, 32))
CURVE_FLAGS = 0x80  # a surface flag the trace reports (SURF_NOMARKS)


def patch_points(height: float = 64.0, width: int = 3) -> list[tuple[float, float, float]]:
    """A ``width`` x 3 control grid over x -64..0, y 32..96 at z = 40, its middle row's middle points raised."""
    xs = np.linspace(-64, 0, width)
    return [(float(x), 32.0 + 32 * j, 40.0 + (height if j == 1 and 0 < i < width - 1 else 0.0)) for j in range(3) for i, x in enumerate(xs)]


def level_with_patch(points=None, size=(3, 3), contents=SOLID, in_model: bool = True) -> pq.QuakeModel:
    args = collision_args()
    args['shaders'] = [*args['shaders'], ('textures/curve', CURVE_FLAGS, contents)]
    grid = points if points is not None else patch_points()
    args['drawverts'] = [q3_drawvert(p) for p in grid]
    args['surfaces'] = [q3_surface(3, 2, 0, len(grid), patch=size)]
    # The world model's run of surfaces holds the patch (or not: a surface no model owns collides nowhere).
    args['lumps_given'][Q3_MODELS] = struct.pack('<6f4i', -128, -128, -16, 128, 128, 64, 0, 1 if in_model else 0, 0, 3)
    return pq.load(build_q3(**args))


def test_a_point_falls_onto_the_curve_not_through_it():
    level = level_with_patch()
    t = level.trace([[-32, 64, 100], [-50, 50, 100], [40, -40, 100]], [[-32, 64, -100], [-50, 50, -100], [40, -40, -100]])
    # The top of the curve (a point of the collision grid), a point on its slope, and beside it onto the floor.
    assert 56 < t.end[0, 2] < 56.25 and 40 < t.end[1, 2] < 56
    assert t.end[2, 2] == pytest.approx(0.125, abs=1e-4)
    assert t.contents.tolist() == [SOLID, SOLID, SOLID] and t.surface_flags.tolist() == [CURVE_FLAGS, CURVE_FLAGS, 0]
    np.testing.assert_allclose(np.linalg.norm(t.normal[:2], axis=1), 1, rtol=1e-6)
    assert (t.normal[:2, 2] > 0.85).all()  # a facet's plane, facing up
    # Near the patch's corner the engine's point test lets a point through between its facets' borders (as
    # ioquake3's CM_TracePointThroughPatchCollide does there): onto the floor.
    corner = level.trace([[-60, 36, 100]], [[-60, 36, -100]])
    assert corner.end[0, 2] == pytest.approx(0.125, abs=1e-4) and corner.contents.tolist() == [SOLID]


def test_a_point_from_below_passes_up_through_the_patch_as_the_engine_lets_it():
    level = level_with_patch()
    up = level.trace([[-32, 64, 20]], [[-32, 64, 63]])
    assert up.fraction.tolist() == [1.0]  # a point meets a facet from its front only
    box = level.trace([[-32, 64, 100]], [[-32, 64, 90]], **PLAYER)
    assert box.fraction.tolist() == [1.0]  # still in the open above it


def test_a_players_box_stands_on_the_curve():
    level = level_with_patch()
    t = level.trace([[-32, 64, 200]], [[-32, 64, -100]], **PLAYER)
    feet = t.end[0, 2] - 24
    assert 56 < feet < 57 and t.contents.tolist() == [SOLID] and t.normal[0, 2] > 0.85
    # Beside the patch's edge the bevels stop the box at the patch's side, not its curve.
    side = level.trace([[-120, 64, 45]], [[0, 64, 45]], **PLAYER)
    assert side.fraction[0] < 1 and side.end[0, 0] + 15 <= -64 + 0.01


def test_a_box_standing_inside_the_curve_is_all_solid_a_point_is_not():
    level = level_with_patch()
    inside = level.trace([[-32, 64, 70], [-32, 64, 90]], [[-32, 64, 70], [-32, 64, 90]], **PLAYER)
    assert inside.all_solid.tolist() == [True, False] and inside.start_solid.tolist() == [True, False]
    assert inside.fraction.tolist() == [0.0, 1.0] and inside.contents.tolist() == [SOLID, 0]
    point = level.trace([[-32, 64, 50]], [[-32, 64, 50]])
    assert not point.all_solid.any()


def test_a_patch_whose_contents_the_mask_lacks_or_no_model_owns_is_no_wall():
    water = level_with_patch(contents=pq.CONTENTS['water'])
    t = water.trace([[-32, 64, 100]], [[-32, 64, -100]], mask='solid')
    assert t.end[0, 2] == pytest.approx(0.125, abs=1e-4)  # through it, onto the floor
    assert water.trace([[-32, 64, 100]], [[-32, 64, -100]], mask='water').end[0, 2] > 56
    loose = level_with_patch(in_model=False)
    assert loose.trace([[-32, 64, 100]], [[-32, 64, -100]]).end[0, 2] == pytest.approx(0.125, abs=1e-4)
    assert loose.collision.patch_model.tolist() == [-1]


def test_a_flat_patch_is_one_facet_and_a_curved_one_is_subdivided_to_sixteen_units():
    flat = patch_collide(3, 3, np.array(patch_points(height=0.0), np.float32))
    assert len(flat.surface) == 1  # every column and row within 16 units of the line: one square
    assert (flat.borders[0, :4] >= 0).all() and flat.inward.dtype == bool
    grid, wrap_width, wrap_height = collision_grid(3, 3, np.array(patch_points(), np.float32))
    assert grid.shape[:2] == (3, 3) and not wrap_width and not wrap_height
    np.testing.assert_allclose(grid[1, 1], [-32, 64, 56])  # the grid's points lie on the curve: its top
    bounds = patch_collide(3, 3, np.array(patch_points(), np.float32)).bounds
    np.testing.assert_allclose(bounds, [[-65, 31, 39], [1, 97, 57]])  # the grid's, one unit more
    # Across x the curve's middle is h / 2 off the line, across y then h / 4: 16 or more is subdivided.
    shapes = {h: collision_grid(3, 3, np.array(patch_points(height=h), np.float32))[0].shape[:2] for h in (31.9, 32.0, 63.9, 64.0)}
    assert shapes == {31.9: (2, 2), 32.0: (2, 3), 63.9: (2, 3), 64.0: (3, 3)}  # the grid ends transposed, as the engine's


def test_a_closed_patch_wraps_and_identical_columns_go():
    from pyvista_quake.data.patch_collide import _remove_degenerate_columns

    # A ring's first and last columns are one: the grid wraps across its width (its height, once transposed).
    angles = np.linspace(0, 2 * np.pi, 9)
    ring = np.array([(64 * np.cos(a), 64 * np.sin(a), 40.0 * j) for j in range(3) for a in angles], np.float32)
    ring[8::9] = ring[0::9]
    assert collision_grid(9, 3, ring)[1:] == (False, True)
    ring[8::9, 2] += 0.11  # past WRAP_POINT_EPSILON: open
    assert collision_grid(9, 3, ring)[1:] == (False, False)
    # Columns within POINT_EPSILON (0.1) of the one before go; 0.11 apart they stay.
    a = np.zeros((2, 3), np.float32)
    columns = np.stack([a, a + np.float32(0.0625), a + 8, a + np.float32(8.11)])
    assert _remove_degenerate_columns(columns).shape[0] == 3
    assert _remove_degenerate_columns(columns[:2]).shape[0] == 1


def test_many_traces_across_patches_at_once_agree_with_one_at_a_time():
    level = level_with_patch()
    rng = np.random.default_rng(4)
    start = rng.uniform([-100, 0, 0], [30, 130, 120], (60, 3)).astype(np.float32)
    end = rng.uniform([-100, 0, 0], [30, 130, 120], (60, 3)).astype(np.float32)
    end[::7] = start[::7]
    together = level.trace(start, end, **PLAYER)
    for k in range(0, 60, 6):
        alone = level.trace(start[k : k + 1], end[k : k + 1], **PLAYER)
        assert alone.fraction[0] == together.fraction[k] and (alone.normal[0] == together.normal[k]).all()
        assert alone.all_solid[0] == together.all_solid[k]


ORACLE = json.loads((Path(__file__).parent / 'patch_oracle.json').read_text())


@pytest.mark.parametrize('case', ORACLE['patches'], ids=lambda case: f'{case["width"]}x{case["height"]}')
def test_facets_and_traces_equal_the_engines_own(case):
    """What ioquake3's cm_patch.c answered (recorded by dev/patch_oracle.py): every plane, facet and trace to the bit."""
    points = np.array(case['points'], np.float32)
    made = patch_collide(case['width'], case['height'], points)
    np.testing.assert_array_equal(made.planes, np.array(case['planes'], np.float32).reshape(-1, 4))
    assert made.surface.tolist() == [surface for surface, _, _ in case['facets']]
    for k, (_, borders, inward) in enumerate(case['facets']):
        assert made.borders[k].tolist() == borders + [-1] * (len(made.borders[k]) - len(borders))
        assert made.inward[k, : len(inward)].tolist() == inward and not made.inward[k, len(inward) :].any()
    rows = np.array(case['traces'], np.float32)
    for box in np.unique(rows[:, 6:], axis=0):  # the segments of each box traced together
        chosen = np.flatnonzero((rows[:, 6:] == box).all(axis=1))
        t = collision.trace_patch(case['width'], case['height'], points, rows[chosen, 0:3], rows[chosen, 3:6], box[:3], box[3:])
        for k, row in enumerate(chosen):
            kind, *answer = case['answers'][row]
            if kind == 'P':
                assert t.all_solid[k] == bool(answer[0]) == t.start_solid[k], case['traces'][row]
            else:
                assert t.fraction[k] == np.float32(answer[0]) and (t.normal[k] == np.array(answer[1:], np.float32)).all(), case['traces'][row]


def test_the_recorded_answers_hit_and_miss_points_boxes_and_positions():
    """The recording exercises every path: points and boxes that stop and that go through, boxes inside and out."""
    answers = [(kind, *a) for case in ORACLE['patches'] for kind, *a in case['answers']]
    rows = [row for case in ORACLE['patches'] for row in case['traces']]
    point = [row[6:] == [0] * 6 for row in rows]
    stopped = [kind == 'T' and a[0] < 1 for kind, *a in answers]
    assert any(s and p for s, p in zip(stopped, point)) and any(s and not p for s, p in zip(stopped, point))
    assert any(kind == 'T' and a[0] == 1 for kind, *a in answers)
    assert {a[0] for kind, *a in answers if kind == 'P'} == {0, 1}


def test_a_patch_past_the_maps_bounds_has_no_facets_as_the_engine_has_none():
    """CM_ValidateFacet: a facet wholly past MAX_MAP_BOUNDS (65535) either way is dropped; one reaching inside stays."""

    def flat_at(x0: float) -> np.ndarray:
        return np.array([(x0 + 32.0 * i, 32.0 * j, 0.0) for j in range(3) for i in range(3)], np.float32)

    assert len(patch_collide(3, 3, flat_at(70000)).surface) == 0
    assert len(patch_collide(3, 3, flat_at(-70064)).surface) == 0
    assert len(patch_collide(3, 3, flat_at(65000)).surface) == 1
    assert len(patch_collide(3, 3, flat_at(-65064)).surface) == 1
    # A facet's slots are the engine's facet_t: 4 edges, 6 axial bevels, 16 edge bevels.
    assert patch_collide(3, 3, flat_at(0)).borders.shape == (1, 4 + 6 + 16)


def test_a_box_or_point_starting_exactly_on_a_facet_falls_through_it_as_in_the_engine():
    """CM_CheckFacetPlane takes a plane the start is on (d1 = 0) and the end behind as not crossed: the box goes
    through the (flat) patch onto the floor; half a unit above, it stops on the patch."""
    level = level_with_patch(points=patch_points(height=0.0))
    box = level.trace([[-32, 64, 64], [-32, 64, 64.5]], [[-32, 64, 0], [-32, 64, 0]], **PLAYER)
    np.testing.assert_allclose(box.end[:, 2], [24.125, 64.125], atol=1e-4)  # the floor's top at 0, the patch's at 40
    assert box.contents.tolist() == [SOLID, SOLID] and box.surface_flags.tolist() == [0, CURVE_FLAGS]
    point = level.trace([[-32, 64, 40], [-32, 64, 41]], [[-32, 64, 0], [-32, 64, 0]])
    np.testing.assert_allclose(point.end[:, 2], [0.125, 40.125], atol=1e-4)


def test_a_patch_whose_grid_passes_the_engines_is_a_format_error_naming_it():
    """Control points millions of units apart bend too much to subdivide within MAX_GRID_SIZE (129) columns: the
    engine's array would overflow; here it is refused, naming the patch, and in no time."""
    level = level_with_patch(points=patch_points(height=1e7))
    with pytest.raises(pq.QuakeFormatError, match=r"<bytes>: patch 0 = '3 x 3': .*MAX_GRID_SIZE"):
        level.trace([[-32, 64, 100]], [[-32, 64, -100]])
    with pytest.raises(ValueError, match='MAX_GRID_SIZE'):
        collision_grid(3, 3, np.array(patch_points(height=1e7), np.float32))
    assert collision_grid(3, 3, np.array(patch_points(height=1e4), np.float32))[0].shape[0] <= 129
