"""A Quake II level's collision and visibility, answered as Quake II's ``cmodel.c`` answers, on a world written from its headers.

The world is the Quake III tests' (a floor, a pool with a slanted side, a player clip) in Quake II's lumps: planes
with their stored types, nodes and leaves of 28 bytes, brushes with their own contents, sides naming texinfo, and
run-length compressed PVS rows.  Leaf 0 (below z = 0) is the solid leaf; above, the slanted plane 0.6 x + 0.8 y = 0
splits leaf 1 (empty, cluster 0, area 1) from the rest, which y = -64 splits into leaf 2 (water, cluster 1, area 1)
and leaf 3 (player clip, cluster 1, area 2).
"""

from __future__ import annotations

import struct

from level_builders import build_q2
from level_builders import q1_args
import numpy as np
import pytest

import pyvista_quake as pq
from pyvista_quake import QuakeFormatError

SOLID, WATER, PLAYERCLIP = 1, 32, 0x10000
FLOOR_FLAGS, WATER_FLAGS = 0x200, 0x20
PLAYER = dict(mins=(-16, -16, -24), maxs=(16, 16, 32))


def plane_type(normal) -> int:
    """Quake II's stored type: the axis of an axial normal, else 3."""
    axial = [k for k in range(3) if abs(normal[k]) == 1]
    return axial[0] if axial else 3


def q2_world(
    leaf_contents=(SOLID, 0, WATER, PLAYERCLIP),
    visibility: bytes | None = None,
    models: bytes | None = None,
    clusters=(-1, 0, 1, 1),
    side_texinfo: dict[int, int] | None = None,
    types: dict[int, int] | None = None,
) -> pq.QuakeModel:
    axial = [((1, 0, 0), 128), ((-1, 0, 0), 128), ((0, 1, 0), 128), ((0, -1, 0), 128), ((0, 0, 1), 0), ((0, 0, -1), 16)]
    pool = [((1, 0, 0), 64), ((-1, 0, 0), 0), ((0, 1, 0), 64), ((0, -1, 0), 0), ((0, 0, 1), 32), ((0, 0, -1), 0), ((0.6, 0, 0.8), 40)]
    clip = [((1, 0, 0), -64), ((-1, 0, 0), 96), ((0, 1, 0), 0), ((0, -1, 0), 32), ((0, 0, 1), 56), ((0, 0, -1), 0)]
    brush_planes = [axial, pool, clip]
    planes = [((0, 0, 1), 0), ((0.6, 0.8, 0), 0), ((0, 1, 0), -64)] + [p for b in brush_planes for p in b]
    plane_bytes = b''.join(struct.pack('<4fi', *n, d, (types or {}).get(k, plane_type(n))) for k, (n, d) in enumerate(planes))
    sides, number = [], 3
    for k, b in enumerate(brush_planes):
        for _ in b:
            # each brush's sides name its own texinfo (unless told otherwise, by side number)
            sides.append(struct.pack('<Hh', number, (side_texinfo or {}).get(len(sides), k)))
            number += 1
    counts = [len(b) for b in brush_planes]
    brushes = b''.join(struct.pack('<3i', sum(counts[:k]), counts[k], c) for k, c in enumerate((SOLID, WATER, PLAYERCLIP)))
    nodes = b''.join(
        struct.pack('<3i6h2H', plane, *children, 0, 0, 0, 0, 0, 0, 0, 0) for plane, children in [(0, (1, -1)), (1, (-2, 2)), (2, (-3, -4))]
    )
    runs = [[0], [0, 1], [0, 2], [0, 2]]
    leaf_rows, at = b'', 0
    for contents, cluster, area, run in zip(leaf_contents, clusters, (0, 1, 1, 2), runs):
        leaf_rows += struct.pack('<i2h6h4H', contents, cluster, area, 0, 0, 0, 0, 0, 0, 0, 0, at, len(run))
        at += len(run)
    flat = [b for run in runs for b in run]
    vis = visibility if visibility is not None else struct.pack('<5i', 2, 20, 20, 21, 21) + bytes([0b01, 0b11])
    args = q1_args()
    s_axis = ((1, 0, 0, 0), (0, 1, 0, 0))
    texinfo = [(s_axis, FLOOR_FLAGS, 'e1u1/floor'), (s_axis, WATER_FLAGS, 'e1u1/water'), (s_axis, 0, 'e1u1/clip')]
    lumps = {1: plane_bytes, 3: vis, 4: nodes, 8: leaf_rows, 10: struct.pack(f'<{len(flat)}H', *flat), 14: brushes, 15: b''.join(sides)}
    if models is not None:
        lumps[13] = models
    level = build_q2(args['entities'], args['vertexes'], [(n, d) for n, d in planes], texinfo, args['faces'], [(0, 1, (0, 0, 0))], lumps_given=lumps)
    return pq.load(level)


def test_contents_are_the_leafs_as_quake_ii_answers():
    level = q2_world()
    points = [[10, 10, 40], [10, 10, -5], [-50, 10, 5], [-50, -100, 5], [300, 300, -300]]
    # Above the floor in front of the slant: leaf 1 (empty); below z = 0: leaf 0; behind it: leaf 2 or, past y = -64, 3.
    assert level.leaf(points).tolist() == [1, 0, 2, 3, 0]
    assert level.contents(points).tolist() == [0, SOLID, WATER, PLAYERCLIP, SOLID]
    assert level.cluster(points).tolist() == [0, -1, 1, 1, -1] and level.area(points).tolist() == [1, 0, 1, 2, 0]
    assert level.collision.game == 'quake2' and level.collision.light_grid is None


def test_visibility_is_the_decompressed_pvs_bit_then_one_area():
    level = q2_world()
    a = [[10, 10, 40], [10, 10, 40], [-50, 10, 5], [-50, 10, 5], [-50, 10, 5], [10, 10, -5]]
    b = [[20, 20, 20], [-50, 10, 5], [10, 10, 40], [-50, 11, 6], [-50, -100, 5], [10, 10, 40]]
    # Cluster 0 sees itself only; cluster 1 both, but leaf 3 is another area; the solid leaf sees nothing.
    assert level.visible(a, b).tolist() == [True, False, True, True, False, False]
    assert level.pvs(0).tolist() == [0] and level.pvs(1).tolist() == [0, 1]


def test_a_run_of_zeros_in_a_pvs_row_stands_for_that_many_zero_bytes():
    from pyvista_quake.formats.bsp import _decompress_row

    raw = np.array([0x05, 0x00, 0x02, 0x80, 0x00, 0x09], np.uint8)
    assert _decompress_row(raw, 0, 6).tolist() == [0x05, 0, 0, 0x80, 0, 0]  # a run past the row is cut to it
    assert _decompress_row(raw, 3, 2).tolist() == [0x80, 0]
    assert _decompress_row(np.array([0x00, 0x00, 0x07], np.uint8), 0, 1).tolist() == [0x07]  # a run of none moves on
    assert _decompress_row(np.array([0x03], np.uint8), 0, 3).tolist() == [0x03, 0, 0]  # the lump ends: so does the row


def test_a_trace_stops_a_sixteenth_short_of_a_brush_with_the_box_as_given():
    level = q2_world()
    t = level.trace([[10, 10, 40], [-80, -16, 100]], [[10, 10, -40], [-80, -16, -100]], mask=SOLID | PLAYERCLIP)
    np.testing.assert_allclose(t.end, [[10, 10, 0.03125], [-80, -16, 56.03125]], atol=1e-5)
    np.testing.assert_array_equal(t.normal, [[0, 0, 1], [0, 0, 1]])
    assert t.contents.tolist() == [SOLID, PLAYERCLIP] and t.surface_flags.tolist() == [FLOOR_FLAGS, 0]
    player = level.trace([[10, 10, 100]], [[10, 10, -100]], **PLAYER, mask=SOLID)
    np.testing.assert_allclose(player.end, [[10, 10, 24.03125]], atol=1e-5)  # the feet 24 below the origin
    standing = level.trace([[10, 10, 100]], [[10, 10, -100]], mins=(-16, -16, 0), maxs=(16, 16, 56), mask=SOLID)
    np.testing.assert_allclose(standing.end, [[10, 10, 0.03125]], atol=1e-5)  # not centred: the box's bottom at its origin
    slant = level.trace([[100, 32, 16]], [[0, 32, 16]], mask=WATER)
    x = (40 - 0.8 * 16) / 0.6 + 0.03125 / 0.6
    assert slant.end[0, 0] == pytest.approx(x, abs=1e-4) and slant.surface_flags.tolist() == [WATER_FLAGS]
    np.testing.assert_allclose(slant.normal, [[0.6, 0, 0.8]], atol=1e-6)


def test_starting_inside_a_brush_keeps_the_fraction_as_quake_ii_does():
    level = q2_world()
    t = level.trace([[10, 10, -5], [10, 10, -5], [10, 10, -5]], [[10, 10, -10], [10, 10, 20], [10, 10, -5]], mask=SOLID)
    assert t.start_solid.tolist() == [True, True, True] and t.all_solid.tolist() == [True, False, True]
    # A sweep that stays inside leaves its fraction at 1 (Quake III's is 0); a position test is 0 with the contents.
    assert t.fraction.tolist() == [1, 1, 0] and t.contents.tolist() == [0, 0, SOLID]
    box = level.trace([[10, 10, 23.9], [10, 10, 24.1]], [[10, 10, 23.9], [10, 10, 24.1]], **PLAYER, mask=SOLID)
    assert box.all_solid.tolist() == [True, False]


def test_a_brush_model_is_the_brushes_of_the_leaves_below_its_head_node():
    world = struct.pack('<9f3i', -128, -128, -16, 128, 128, 64, 0, 0, 0, 0, 0, 1)
    door = struct.pack('<9f3i', -96, -32, 0, 64, 64, 56, 0, 0, 0, 2, 0, 0)  # node 2: leaves 2 and 3
    level = q2_world(models=world + door)
    assert level.collision.model_brush_list(1).tolist() == [0, 2] and level.collision.model_brush_list(0).tolist() == [0, 1, 2]
    assert level.contents([[-50, 10, 5], [-50, -100, 5]], model=1).tolist() == [WATER, PLAYERCLIP]
    solids = level.brushes(model=1)
    assert sorted(set(solids.cell_data['brush'].tolist())) == [0, 2]
    assert set(solids.cell_data['shader'].tolist()) == {'e1u1/floor', 'e1u1/clip'}
    t = level.trace([[-80, -16, 100]], [[-80, -16, -100]], mask=PLAYERCLIP, model=1)
    np.testing.assert_allclose(t.end, [[-80, -16, 56.03125]], atol=1e-5)


@pytest.mark.parametrize(
    ('changes', 'said'),
    [
        ({'leaf_contents': (0, 0, WATER, PLAYERCLIP)}, r'leafs\[0\]\.contents = 0: leaf 0 is the solid leaf'),
        ({'visibility': struct.pack('<5i', 2, 20, 20, 20, 20)}, r'visibility bitofs\[0\] = 20'),  # the offsets alone: past the lump
        ({'visibility': struct.pack('<5i', 2, 20, 20, 99, 21) + b'\x01\x03'}, r'visibility bitofs\[1\]'),
        ({'visibility': struct.pack('<i', 9)}, 'visibility numclusters'),
    ],
)
def test_a_broken_quake_ii_collision_lump_is_a_format_error_naming_it(changes, said):
    with pytest.raises(QuakeFormatError, match=said):
        q2_world(**changes).contents([0, 0, 0])


def test_a_segment_in_front_of_a_side_the_whole_way_misses_the_brush():
    """Half a unit in front of the floor's +y side (inside the box the brush is looked for by), along x through the
    floor's -x plane: wholly in front of one side, it never meets the brush."""
    level = q2_world()
    t = level.trace([[-300, 128.5, -8], [-300, 127.5, -8]], [[0, 128.5, -8], [0, 127.5, -8]], mask=SOLID)
    assert t.fraction[0] == 1 and not t.start_solid[0]
    assert t.fraction[1] == pytest.approx((172 - 0.03125) / 300, abs=1e-6)  # half a unit inside: stopped at x = -128


def test_a_map_without_visibility_sees_every_cluster_of_every_row():
    level = q2_world(visibility=b'', clusters=(-1, 0, 9, 9))
    c = level.collision
    assert c.clusters == 10 and c.visibility.shape == (10, 2) and (c.visibility == 0xFF).all()
    assert level.pvs(0).tolist() == list(range(10))
    assert level.visible([[10, 10, 40]], [[-50, 10, 5]]).tolist() == [True]  # cluster 9, one area
    eight = q2_world(visibility=b'', clusters=(-1, 0, 7, 7)).collision
    assert eight.clusters == 8 and eight.visibility.shape == (8, 1)  # eight clusters: one byte a row


def test_a_brush_is_named_by_its_first_side_with_a_texture():
    # The floor's first side names no texinfo (-1), its second the water's, the rest the clip's: the water's it is.
    # The pool's first side names texinfo 0 (the floor's), the rest the clip's: the floor's.
    named = {0: -1, 1: 1, 2: 2, 3: 2, 4: 2, 5: 0, 6: 0, **dict.fromkeys(range(7, 13), 2)}
    solids = q2_world(side_texinfo=named).brushes()
    assert set(solids.cell_data['shader'][solids.cell_data['brush'] == 0].tolist()) == {'e1u1/water'}
    assert set(solids.cell_data['shader'][solids.cell_data['brush'] == 1].tolist()) == {'e1u1/floor'}
    bare = q2_world(side_texinfo=dict.fromkeys(range(6), -1))
    shaders = bare.brushes().cell_data['shader']
    assert set(shaders[bare.brushes().cell_data['brush'] == 0].tolist()) == {''}
    down = bare.trace([[10, 10, 40]], [[10, 10, -40]], mask=SOLID)
    assert down.surface_flags.tolist() == [0] and down.contents.tolist() == [SOLID]  # a side with no texinfo: no flags


def test_a_quake_1_level_is_not_read_for_collision_and_says_which_are():
    from level_builders import build_q1

    level = pq.load(build_q1(**q1_args()))
    with pytest.raises(QuakeFormatError, match=r'Quake III \(IBSP 46\) and Quake II \(IBSP 38\)'):
        level.contents([0, 0, 0])


def test_a_plane_type_past_the_axes_is_read_as_a_slanted_plane():
    """A stored type below 0 or past 2 (the engine would read a coordinate past the point's three) is a plane of
    any slant: the same answers as the right type gives."""
    points = [[10, 10, 40], [10, 10, -5], [-50, 10, 5], [-50, -100, 5]]
    expected = q2_world().contents(points).tolist()
    for wrong in (-7, 3, 200):
        assert q2_world(types={0: wrong, 2: wrong}).contents(points).tolist() == expected
