"""A Quake III level's collision, visibility and light grid, answered as the engine answers, on a world written from the spec."""

from __future__ import annotations

import struct

from conftest import CORPUS
from conftest import requires_corpus
from level_builders import PLAYERCLIP
from level_builders import Q3_LIGHTGRID
from level_builders import Q3_NODES
from level_builders import SOLID
from level_builders import WATER
from level_builders import build_q3
from level_builders import collision_args
from level_builders import q3_level
import numpy as np
import pytest
import pyvista as pv

import pyvista_quake as pq
from pyvista_quake import QuakeFormatError
from pyvista_quake import examples


def world(**changes) -> pq.QuakeModel:
    args = collision_args(
        **{k: v for k, v in changes.items() if k in ('gridsize', 'grid', 'visibility', 'nodes', 'leafbrushes', 'sides', 'brush_model')}
    )
    args['lumps_given'].update(changes.get('lumps', {}))
    return pq.load(build_q3(**args))


def brute_contents(points: np.ndarray) -> np.ndarray:
    """The test's own answer: every brush of the world, each a box (the pool less its slanted corner)."""
    p = np.asarray(points, np.float64)
    x, y, z = p.T
    floor = (abs(x) <= 128) & (abs(y) <= 128) & (z >= -16) & (z <= 0)
    pool = (x >= 0) & (x <= 64) & (y >= 0) & (y <= 64) & (z >= 0) & (z <= 32) & (0.6 * x + 0.8 * z <= 40)
    clip = (x >= -96) & (x <= -64) & (y >= -32) & (y <= 0) & (z >= 0) & (z <= 56)
    return np.where(floor, SOLID, 0) | np.where(pool, WATER, 0) | np.where(clip, PLAYERCLIP, 0)


def test_contents_at_points_as_the_engine_finds_them():
    level = world()
    points = np.array(
        [
            [10, 10, 10],  # in the pool
            [10, 10, 32],  # on the pool's top: on a side's plane is inside
            [10, 10, 32.01],  # just above
            [50, 10, 16],  # past the pool's slanted side (0.6 x + 0.8 z = 37.6 + ... > 40)
            [0, 0, 0],  # on the floor's top and the pool's bottom: both
            [0, 0, -0.01],  # in the floor only (leaf 0)
            [-80, -16, 20],  # in the clip
            [-80, -16, 60],  # above it
            [500, 0, 10],  # outside the world: its leaf has the floor only
        ],
        np.float32,
    )
    got = level.contents(points)
    np.testing.assert_array_equal(got, [WATER, WATER, 0, 0, SOLID | WATER, SOLID, PLAYERCLIP, 0, 0])
    rng = np.random.default_rng(5)
    random = rng.uniform([-128, -128, -16], [128, 128, 64], (4000, 3)).astype(np.float32)
    np.testing.assert_array_equal(level.contents(random), brute_contents(random))
    assert level.contents([10, 10, 10]).shape == (1,) and level.contents(np.zeros((0, 3))).shape == (0,)
    assert pq.CONTENTS['water'] == WATER and pq.CONTENTS['playerclip'] == PLAYERCLIP and pq.CONTENTS['nodrop'] == 0x80000000


def test_the_point_is_read_as_float32_and_on_a_node_plane_goes_to_the_front():
    level = world()
    # z = 0 is node 0's plane: the front (above), whose leaves hold the floor too.
    assert level.leaf([[5, 5, 0]]).tolist() == [1] and level.leaf([[5, 5, -1e-3]]).tolist() == [0]
    # The slanted plane 0.6 x + 0.8 y = 0: on it is the front (leaf 1); behind it, y = -64 parts leaves 2 and 3.
    assert level.leaf([[-4, 3, 1], [-4, 2.999, 1], [-100, -64, 1], [-100, -64.01, 1]]).tolist() == [1, 2, 2, 3]
    assert level.cluster([[-4, 3, 1], [-4, 2.9, 1], [0, 0, -5]]).tolist() == [0, 1, -1]
    assert level.area([[-100, -60, 1], [-100, -70, 1], [0, 0, -5]]).tolist() == [0, 1, -1]
    assert level.leaf([10, 10, 1.0000001]).tolist() == level.leaf([10, 10, np.float32(1.0000001)]).tolist()


def test_visible_is_the_pvs_bit_then_one_area():
    level = world()
    front, back_a, back_b, solid = [10, 10, 8], [-100, -60, 8], [-100, -70, 8], [0, 0, -8]
    a = np.array([front, back_a, back_a, back_b, front, solid, front])
    b = np.array([front, front, back_b, back_a, back_a, front, solid])
    # Cluster 1 sees cluster 0; cluster 0 does not see cluster 1; areas 0 and 1 are apart; solid sees nothing.
    assert level.visible(a, b).tolist() == [True, True, False, False, False, False, False]
    assert level.pvs(0).tolist() == [0] and level.pvs(1).tolist() == [0, 1] and level.pvs(-1).tolist() == [0]
    with pytest.raises(ValueError, match='cluster must be -1 to 1'):
        level.pvs(2)
    with pytest.raises(ValueError, match='as many points'):
        level.visible(a, b[:2])
    blind = world(visibility=b'')  # no visibility: every cluster sees every other
    assert blind.visible([back_a, front], [front, back_a]).tolist() == [True, True]


def test_light_from_the_grid_as_r_light_for_point():
    level = world()
    # At a sample: its colours shifted once, the ambient times 0.6, the directed (100, 0, 200) << 1 scaled as a whole.
    at = level.light([[-128 + 32 * 4, -128 + 32 * 3, 32]])  # sample (4, 3, 1)
    np.testing.assert_allclose(at.ambient, [[2 * 41 * 0.6, 2 * 17 * 0.6, 2 * 43 * 0.6]], rtol=1e-6)
    np.testing.assert_allclose(at.directed, [[127, 0, 255]], rtol=1e-6)
    np.testing.assert_allclose(at.direction, [[0, 0, 1]], atol=1e-6)
    # Halfway between samples (4, 3, 1) and (5, 3, 1): their mean.
    half = level.light([[-128 + 32 * 4.5, -128 + 32 * 3, 32]])
    np.testing.assert_allclose(half.ambient, [[2 * 46 * 0.6, 2 * 17 * 0.6, 2 * 43 * 0.6]], rtol=1e-6)
    # Between (1, 0, 0), in a wall, and (2, 0, 0): the wall's sample left out, the other weighted up to 1.
    wall = level.light([[-128 + 32 * 1.25, -128, 0]])
    np.testing.assert_allclose(wall.ambient, [[2 * 21 * 0.6, 2 * 2 * 0.6, 2 * 3 * 0.6]], rtol=1e-6)
    # The last sample in x: the corners past it are left out, the rest weighted up; outside the grid, clamped.
    edge = level.light([[128, -128, 64], [400, -128, 64]])
    np.testing.assert_allclose(edge.ambient, [[2 * 81 * 0.6, 2 * 2 * 0.6, 2 * 83 * 0.6]] * 2, rtol=1e-6)
    scaled = level.light([[-128 + 32 * 4, -128 + 32 * 3, 32]], shift=0, ambient_scale=1.0, directed_scale=0.5)
    np.testing.assert_allclose(scaled.ambient, [[41, 17, 43]]) and np.testing.assert_allclose(scaled.directed, [[50, 0, 100]])
    dark = world(grid=b'\0' * 8)  # a lump not the grid's size: no light grid ("light grid mismatch")
    assert not dark.light([[0, 0, 8]]).ambient.any()
    coarse = world(gridsize=None, grid=b'\x05' * (5 * 5 * 1 * 8))  # the default 64 64 128: 5 x 5 x 1 samples
    np.testing.assert_allclose(coarse.light([[0, 0, 8]]).ambient, [[6, 6, 6]], rtol=1e-6)


def test_a_level_without_collision_lumps_or_a_model_has_no_queries(tmp_path):
    with pytest.raises(QuakeFormatError, match='at least one leaf'):
        pq.load(q3_level()).contents([0, 0, 0])
    with pytest.raises(TypeError, match='a level'):
        pq.load(examples.sample_model('md2')).contents([0, 0, 0])


@pytest.mark.parametrize(
    ('changes', 'said'),
    [
        ({'nodes': [(99, (1, -1)), (1, (-2, 2)), (2, (-3, -4))]}, r'nodes\[0\]\.planeNum'),
        ({'nodes': [(0, (1, -1)), (1, (-2, 0)), (2, (-3, -4))]}, r'nodes\[1\]\.children.*loop'),
        ({'nodes': [(0, (1, -1)), (1, (-2, 2)), (2, (-3, -9))]}, r'nodes\[2\]\.children'),
        ({'leafbrushes': [0, 0, 1, 0, 7, 0, 2]}, r'leafbrushes\[4\]'),
        ({'sides': [(3, 0)] * 18 + [(500, 0)]}, r'brushsides\[18\]\.planeNum'),
        ({'visibility': struct.pack('<2i', 2, 4) + b'\0'}, 'visibility numClusters'),
        ({'lumps': {Q3_NODES: b'\0' * 35}}, 'nodes lump length'),
        ({'lumps': {7: b''}}, 'Map with no models'),
    ],
)
def test_a_broken_collision_lump_is_a_format_error_naming_it(changes, said):
    with pytest.raises(QuakeFormatError, match=said):
        world(**changes).contents([0, 0, 0])


def test_queries_take_many_points_at_once():
    level = world()
    points = np.random.default_rng(1).uniform([-128, -128, -16], [128, 128, 64], (50_000, 3))
    assert level.contents(points).shape == (50_000,) and level.visible(points, points[::-1]).shape == (50_000,)
    assert Q3_LIGHTGRID == 15


def test_brushes_are_closed_convex_solids_with_their_contents_and_shaders():
    level = world()
    solids = level.brushes()
    assert sorted(np.bincount(solids['brush']).tolist()) == [6, 6, 7]  # a face a side: the pool's slanted one too
    volumes = {}
    for k in range(3):
        part = solids.extract_cells(solids['brush'] == k)
        one = pv.PolyData(part.points, faces=part.cells).triangulate()
        assert one.n_open_edges == 0
        volumes[k] = one.volume
        centre = np.asarray(one.points).mean(axis=0)
        normals = one.compute_normals(cell_normals=True, point_normals=False, auto_orient_normals=False)
        outward = ((np.asarray(normals.cell_centers().points) - centre) * np.asarray(normals.cell_data['Normals'])).sum(axis=1)
        assert (outward > 0).all()  # wound so that each face's normal points out
    assert volumes[0] == pytest.approx(256 * 256 * 16)
    assert volumes[1] == pytest.approx(64 * 64 * 32 - 600 * 64, rel=1e-6)  # less the corner past 0.6 x + 0.8 z = 40
    assert volumes[2] == pytest.approx(32 * 32 * 56)
    contents = dict(zip(solids['brush'].tolist(), solids['contents'].tolist()))
    shaders = dict(zip(solids['brush'].tolist(), solids['shader'].tolist()))
    assert contents == {0: SOLID, 1: WATER, 2: PLAYERCLIP} and shaders[1] == 'textures/water'
    assert solids.active_scalars_name is None
    assert set(level.brushes(hide=('water',))['brush'].tolist()) == {0, 2}
    assert set(level.brushes(hide=('clip', 'solid'))['brush'].tolist()) == {1}
    with pytest.raises(ValueError, match='hide names contents'):
        level.brushes(hide=('glass',))
    with pytest.raises(ValueError, match='model must be 0 to 0'):
        level.brushes(model=1)
    assert level.brushes(hide=('solid', 'water', 'clip')).n_cells == 0


@requires_corpus
@pytest.mark.corpus
@pytest.mark.parametrize(
    'name', ['oacmp1-oacmpdm3.pk3:maps/oacmpdm3.bsp', 'openarena-am_lavactf.pk3:maps/am_lavactf.bsp', 'nexuiz-aggressor.pk3:maps/aggressor.bsp']
)
def test_real_maps_players_start_in_the_open_and_see_themselves(name):
    import warnings

    archive, member = name.split(':')
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # the maps' textures are not all here
        level = pq.load(CORPUS / 'bsp' / archive, member=member)
    spawns = np.array([[float(v) for v in e['origin'].split()] for e in level.entities if e.get('classname', '').startswith('info_player')])
    eyes = spawns + [0, 0, 26]
    assert not (level.contents(eyes) & pq.MASKS['solid']).any()
    assert (level.cluster(eyes) >= 0).all() and (level.area(eyes) >= 0).all()
    assert level.visible(eyes, eyes).all()
    assert (level.light(eyes).ambient.sum(axis=1) > 0).all()
    steps = spawns[:, None] - np.arange(0, 512, 2)[None, :, None] * [0, 0, 1]  # straight down, 2 units a step
    under = (level.contents(steps.reshape(-1, 3)) & pq.MASKS['solid']).reshape(len(spawns), -1)
    assert under.any(axis=1).all()  # a floor under every start
    solids = level.brushes()
    first, count = level.collision.model_brushes[0]
    assert len(np.unique(solids['brush'])) == count


PLAYER = dict(mins=(-15, -15, -24), maxs=(15, 15, 32))


def test_a_trace_stops_an_epsilon_before_the_first_brush_it_meets():
    level = world()
    t = level.trace(
        [[10, 10, 40], [-80, -16, 100], [-200, 0, 10], [10, 10, 40]], [[10, 10, -40], [-80, -16, -100], [200, 0, 10], [10, 10, 20]], mask='player'
    )
    # Down onto the floor (the water is no player's wall), down onto the clip's top, along x into the clip's side.
    np.testing.assert_allclose(t.end, [[10, 10, 0.125], [-80, -16, 56.125], [-96.125, 0, 10], [10, 10, 20]], atol=1e-4)
    np.testing.assert_allclose(t.fraction, [39.875 / 80, 43.875 / 200, 103.875 / 400, 1], rtol=1e-6)
    np.testing.assert_array_equal(t.normal, [[0, 0, 1], [0, 0, 1], [-1, 0, 0], [0, 0, 0]])  # none where it goes all the way
    np.testing.assert_array_equal(t.contents, [SOLID, PLAYERCLIP, PLAYERCLIP, 0])
    assert not t.start_solid.any() and not t.all_solid.any() and t.fraction.dtype == np.float32
    water = level.trace([[10, 10, 40]], [[10, 10, -40]], mask='water')  # the pool's top, at 32
    np.testing.assert_allclose(water.end, [[10, 10, 32.125]], atol=1e-4)
    assert water.contents.tolist() == [WATER]
    solid = level.trace([[-80, -16, 100]], [[-80, -16, -100]], mask='solid')  # the clip is not solid: the floor
    np.testing.assert_allclose(solid.end, [[-80, -16, 0.125]], atol=1e-4)
    assert level.trace([[-80, -16, 100]], [[-80, -16, -100]], mask=pq.CONTENTS['playerclip']).contents.tolist() == [PLAYERCLIP]


def test_a_players_box_stops_with_its_feet_on_a_brush_and_a_slanted_side_gives_its_normal():
    level = world()
    t = level.trace([[-80, -16, 100]], [[-80, -16, -100]], **PLAYER, mask='player')
    np.testing.assert_allclose(t.end, [[-80, -16, 56 + 24 + 0.125]], atol=1e-4)  # the box's bottom is 24 below
    slant = level.trace([[100, 32, 16]], [[0, 32, 16]], mask='water')  # along -x into the pool's slanted side
    np.testing.assert_allclose(slant.normal, [[0.6, 0, 0.8]], atol=1e-6)
    x = (40 - 0.8 * 16) / 0.6 + 0.125 / 0.6  # where 0.6 x + 0.8 z = 40, the epsilon off along the normal (0.6 an x unit)
    assert slant.end[0, 0] == pytest.approx(x, abs=1e-4)


def test_a_trace_starting_inside_a_brush_is_start_solid_and_all_solid_if_it_stays():
    level = world()
    t = level.trace([[10, 10, -5], [10, 10, -5], [10, 10, -5]], [[10, 10, -10], [10, 10, 20], [10, 10, -5]], mask='solid')
    assert t.start_solid.tolist() == [True, True, True] and t.all_solid.tolist() == [True, False, True]
    assert t.fraction.tolist() == [0, 1, 0] and t.contents.tolist() == [SOLID, 0, SOLID]
    box = level.trace([[10, 10, 23.9], [10, 10, 24.1]], [[10, 10, 23.9], [10, 10, 24.1]], **PLAYER, mask='solid')  # position tests
    assert box.all_solid.tolist() == [True, False]  # the box's bottom 24 below its origin: in the floor, then just above it
    np.testing.assert_array_equal(box.end, np.float32([[10, 10, 23.9], [10, 10, 24.1]]))  # the end as given, in float32


def test_trace_arguments_are_checked():
    level = world()
    with pytest.raises(ValueError, match='mask must be a name of pq.MASKS or pq.CONTENTS'):
        level.trace([0, 0, 0], [0, 0, 1], mask='glass')
    with pytest.raises(ValueError, match='as many points'):
        level.trace([[0, 0, 0], [1, 1, 1]], [0, 0, 1])
    with pytest.raises(ValueError, match='model must be 0 to 0'):
        level.trace([0, 0, 0], [0, 0, 1], model=1)
    assert level.trace(np.zeros((0, 3)), np.zeros((0, 3))).fraction.shape == (0,)


def test_info_reports_a_levels_brushes_clusters_areas_and_light_grid(tmp_path, capsys, monkeypatch):
    import json

    from level_builders import build_q1
    from level_builders import q1_args

    from pyvista_quake.cli.main import main

    (tmp_path / 'world.bsp').write_bytes(build_q3(**collision_args()))
    (tmp_path / 'q1.bsp').write_bytes(build_q1(**q1_args()))
    assert main(['info', str(tmp_path / 'world.bsp'), str(tmp_path / 'q1.bsp'), '--json']) == 0
    world_info, q1_info = (record['level'] for record in json.loads(capsys.readouterr().out))
    assert {k: world_info[k] for k in ('brushes', 'clusters', 'areas', 'light_grid')} == {
        'brushes': 3,
        'clusters': 2,
        'areas': 2,
        'light_grid': [9, 9, 3],
    }
    assert 'clusters' not in q1_info
    monkeypatch.setenv('COLUMNS', '200')  # the row on one line
    assert main(['info', str(tmp_path / 'world.bsp')]) == 0
    assert '3 brushes, 2 clusters, 2 areas, a light grid of 9 x 9 x 3' in capsys.readouterr().out


def test_trace_edges_and_epsilons_and_the_box_above_and_below():
    level = world()
    # Along a clip's edge (the corner x = -64, y = 0): it leaves the x slab as it enters the y one: no hit.
    graze = level.trace([[-74, 10, 20]], [[-54, -10, 20]], mask='playerclip')
    assert graze.fraction.tolist() == [1] and not graze.start_solid.any()
    # Starting half a unit above the floor: outside it (not start_solid), and down into it: stopped at 0.125 above.
    near = level.trace([[5, 5, 0.5], [5, 5, 0.5]], [[5, 5, -10], [5, 5, 40]], mask='solid')
    assert near.start_solid.tolist() == [False, False]
    np.testing.assert_allclose(near.end[0], [5, 5, 0.125], atol=1e-5)
    assert near.fraction[1] == 1
    # A player's box going up into the pool's bottom (only water stops it): its top, 32 above its origin, stops 0.125 short.
    up = level.trace([[32, 32, -200]], [[32, 32, 100]], **PLAYER, mask='water')
    np.testing.assert_allclose(up.end, [[32, 32, -32.125]], atol=1e-4)
    np.testing.assert_array_equal(up.normal, [[0, 0, -1]])
    # Position tests: a box whose top is in the clip; a point in the pool's bounds but past its slanted side.
    inside = level.trace(
        [[-80, -16, -20], [-80, -16, -40], [60, 10, 30], [10, 10, 10]],
        [[-80, -16, -20], [-80, -16, -40], [60, 10, 30], [10, 10, 10]],
        mins=(0, 0, 0),
        maxs=(0, 0, 0),
        mask='water',
    )
    assert inside.all_solid.tolist() == [False, False, False, True]
    boxed = level.trace([[-80, -16, -20], [-80, -16, -40]], [[-80, -16, -20], [-80, -16, -40]], **PLAYER, mask='playerclip')
    assert boxed.all_solid.tolist() == [True, False]  # the box's top is 32 above its origin


def test_a_point_query_takes_three_coordinates():
    level = world()
    for query in (level.contents, level.leaf, level.light):
        with pytest.raises(ValueError, match=r'must be \(n, 3\) coordinates'):
            query([[1, 2]])


def _grid(samples: dict) -> bytes:
    from level_builders import light_sample

    return b''.join(struct.pack('<8B', *samples.get((x, y, z), light_sample(x, y, z))) for z in range(3) for y in range(9) for x in range(9))


def test_a_light_samples_direction_is_its_latitude_and_longitude_through_the_engines_sine_table():
    import math

    def sine(index):  # tr.sinTable: 1024 entries over a turn, the last the first again (360 / 1023 degrees a step)
        return math.sin(math.radians(index * 360 / 1023))

    for lat, lng in ((64, 32), (200, 100), (10, 250)):
        level = world(grid=_grid({(4, 3, 1): (10, 20, 30, 40, 50, 60, lng, lat)}))
        got = level.light([[-128 + 32 * 4, -128 + 32 * 3, 32]]).direction[0]
        a, b = lat * 4, lng * 4
        want = np.array([sine((a + 256) & 1023) * sine(b), sine(a) * sine(b), sine((b + 256) & 1023)])
        np.testing.assert_allclose(got, want / np.linalg.norm(want), atol=2e-6)


def test_a_sample_is_in_a_wall_only_where_all_its_ambient_is_zero():
    only_green = world(grid=_grid({(1, 0, 0): (0, 7, 0, 10, 0, 0, 0, 0)}))
    # Between (1, 0, 0) (green only: not in a wall) and (2, 0, 0): both weighed, by 3/4 and 1/4.
    light = only_green.light([[-128 + 32 * 1.25, -128, 0]])
    np.testing.assert_allclose(light.ambient, [[(0.75 * 0 + 0.25 * 42) * 0.6, (0.75 * 14 + 0.25 * 4) * 0.6, (0.75 * 0 + 0.25 * 6) * 0.6]], rtol=1e-5)
    # With the wall's sample left out and the other weighted up, the directed light is weighted up too.
    walled = world().light([[-128 + 32 * 1.25, -128, 0]])
    np.testing.assert_allclose(walled.directed, [[127, 0, 255]], rtol=1e-5)


def test_a_brush_of_four_planes_is_a_tetrahedron():
    import dataclasses

    from pyvista_quake.data import collision as queries

    c = world().collision
    third = 1 / np.sqrt(3)
    normals = np.array([[-1, 0, 0], [0, -1, 0], [0, 0, -1], [third, third, third]], np.float32)
    tetra = dataclasses.replace(
        c,
        normals=normals,
        dists=np.array([0, 0, 0, 10 * third], np.float32),
        side_planes=np.arange(4),
        brush_first_side=np.array([0]),
        brush_sides=np.array([4]),
    )
    points, sizes, brush, side = queries.brush_faces(tetra, np.array([0]))
    assert sizes.tolist() == [3, 3, 3, 3] and brush.tolist() == [0] * 4 and sorted(side.tolist()) == [0, 1, 2, 3]
    faces = np.insert(np.arange(len(points)), np.cumsum(sizes) - sizes, sizes)
    solid = pv.PolyData(points, faces=faces).clean(tolerance=1e-3, absolute=True).triangulate()
    assert solid.n_open_edges == 0 and solid.volume == pytest.approx(1000 / 6, rel=1e-4)


def test_a_cluster_past_its_row_reads_on_into_the_next_row_as_the_engine_does():
    from pyvista_quake.data import collision as queries

    level = world(visibility=struct.pack('<2i', 2, 1) + bytes([0b01, 0b11]))
    c = level.collision
    c.leaf_cluster = np.array([-1, 0, 9, 9])  # leaves 2 and 3 in cluster 9: bit 1 of the byte after row 0's, row 1's
    c.leaf_area = np.array([-1, 0, 0, 0])
    assert queries.visible(c, np.array([1, 1]), np.array([2, 1])).tolist() == [True, True]
    c.visibility = np.array([[0b01], [0b01]], np.uint8)
    assert queries.visible(c, np.array([1]), np.array([2])).tolist() == [False]
    c.leaf_cluster = np.array([-1, 0, 17, 17])  # past the lump's end: nothing
    assert queries.visible(c, np.array([1]), np.array([2])).tolist() == [False]


def test_a_brush_model_at_rest_has_its_own_brushes():
    level = world(brush_model=True)
    points = [[-80, -16, 20], [10, 10, 10], [5, 5, -5]]  # in the clip, in the pool, in the floor (not *1's)
    assert level.contents(points, model=1).tolist() == [PLAYERCLIP, WATER, 0]
    assert level.contents(points).tolist() == [PLAYERCLIP, WATER, SOLID]
    assert sorted(set(level.brushes(model=1)['brush'].tolist())) == [1, 2]
    assert level.trace([[-200, -16, 20]], [[0, -16, 20]], mask='playerclip', model=1).end[0, 0] == pytest.approx(-96.125)


def test_an_axial_plane_reads_its_one_coordinate_whatever_the_others_are():
    level = world()
    # Below z = 0 (node 0, axial): leaf 0, though x is infinite (the dot product would be NaN there, and NaN goes front).
    assert level.leaf([[np.inf, 0, -5]]).tolist() == [0]


def test_a_box_narrower_in_x_than_in_y_stops_by_its_x_extent():
    level = world()
    t = level.trace([[-200, -16, 20]], [[0, -16, 20]], mins=(-4, -20, 0), maxs=(4, 20, 0), mask='playerclip')
    np.testing.assert_allclose(t.end, [[-96 - 4 - 0.125, -16, 20]], atol=1e-4)


def test_light_everywhere_in_walls_is_none_and_the_last_samples_are_weighed():
    dark = world(grid=bytes(9 * 9 * 3 * 8))  # every sample in a wall
    light = dark.light([[0, 0, 32]])
    assert (light.ambient == 0).all() and (light.directed == 0).all() and not np.isnan(light.direction).any()
    between = world().light([[-128 + 32 * 7.5, -128, 0]])  # halfway between samples 7 and 8, the last in x
    np.testing.assert_allclose(between.ambient, [[2 * 76 * 0.6, 2 * 2 * 0.6, 2 * 3 * 0.6]], rtol=1e-5)


def test_a_world_box_past_float32_s_range_has_no_light_grid_and_no_warning():
    data = bytearray(build_q3(**collision_args()))
    offset, _ = pq.load(bytes(data)).data.file.lumps['models']
    for mins in ((-np.inf, 0, np.nan), (-3e38, 0, 0)):  # past float32's range; finite but past any grid's
        data[offset : offset + 12] = struct.pack('<3f', *mins)  # the world's mins
        level = pq.load(bytes(data))
        with np.errstate(all='raise'):
            light = level.light([[0, 0, 0]])
        np.testing.assert_array_equal(light.ambient, np.zeros((1, 3), np.float32))
        assert level.collision.light_grid is None


def test_brushes_whose_corners_pass_float32_s_range_are_drawn_without_a_warning():
    data = bytearray(build_q3(**collision_args()))
    data[531] = 124  # a plane's distance past float32's range of corners (found by the level fuzz test)
    level = pq.load(bytes(data))
    solids = level.brushes()
    assert solids.n_cells > 0 and not np.isfinite(solids.points).all()


def test_traces_find_the_same_brushes_through_the_grid_as_by_testing_every_one():
    """The grid of cells a trace looks in gives exactly the (trace, item) pairs whose boxes meet, in order, for small
    and huge items (a sky box) and boxes (a long trace), on and off the grid's cell edges and past its limit."""
    from pyvista_quake.data import collision

    rng = np.random.default_rng(3)
    corner = rng.integers(-8, 8, (300, 3)).astype(np.float32) * np.float32(64)
    size = rng.choice([0, 16, 128, 127.875, 128.125, 3000, 1e6], (300, 3)).astype(np.float32)
    low, high = corner, corner + size
    start = rng.uniform(-700, 700, (500, 3)).astype(np.float32)
    reach = rng.choice([0, 64, 127.75, 2000, 3e5], (500, 1)).astype(np.float32)
    box_low, box_high = start - reach, start + reach
    box_low[7] = box_high[7] = low[5] - collision.SURFACE_CLIP_EPSILON  # touching an item's corner, epsilon apart
    found = [(t, i) for traces, items in collision._meeting(box_low, box_high, low, high) for t, i in zip(traces.tolist(), items.tolist())]
    eps = collision.SURFACE_CLIP_EPSILON
    apart = (box_high[:, None] < low[None] - eps) | (box_low[:, None] > high[None] + eps)
    expected = [tuple(p) for p in np.argwhere(~apart.any(axis=2)).tolist()]
    assert found == expected and (7, 5) in found
    assert any((size[i] >= 3000).any() for _, i in expected) and any(reach[t, 0] >= 2000 for t, _ in expected)
