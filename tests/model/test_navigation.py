"""Quake III bots' navigation files (.aas): read as botlib loads them, on files written from the spec and the corpus."""

from __future__ import annotations

import struct
import warnings
import zipfile

from conftest import CORPUS
from conftest import requires_corpus
from level_builders import build_aas
from level_builders import build_routing_aas
import numpy as np
import pytest
import pyvista as pv

import pyvista_quake as pq
from pyvista_quake import QuakeFormatError
from pyvista_quake import examples
from pyvista_quake.formats import aas
from pyvista_quake.model.routing import SHORT
from pyvista_quake.model.routing import area_travel_time


def test_a_file_reads_with_its_header_unscrambled_and_its_reachabilities_as_lines():
    nav = pq.load_navigation(build_aas())
    assert (nav.num_areas, nav.num_reachabilities, nav.record.version, nav.record.bspchecksum) == (2, 3, 5, 0x12345678)
    lines = nav.reachabilities
    assert lines.n_cells == 3
    assert lines['start_area'].tolist() == [1, 1, 2] and lines['end_area'].tolist() == [2, 2, 1]
    assert lines['travel_type'].tolist() == ['walk', 'jump', 'rocketjump'] and lines['travel_time'].tolist() == [100, 50, 300]
    assert lines['travel_flags'].tolist() == [0, 0, 1 << 24]
    np.testing.assert_array_equal(lines.points[:2], [[10, 0, 0], [-10, 0, 0]])
    assert pq.load_navigation(build_aas(version=4)).record.bspchecksum == 0x12345678  # version 4: not scrambled


def test_areas_are_their_faces_or_without_faces_their_boxes():
    boxes = pq.load_navigation(build_aas()).areas
    assert boxes.n_cells == 12 and sorted(set(boxes['area'].tolist())) == [1, 2]
    assert boxes['presence_type'].tolist()[::6] == [2, 6] and boxes['contents'].tolist()[::6] == [0, 1]
    assert boxes['flags'].tolist()[::6] == [1, 4] and boxes['cluster'].tolist()[::6] == [1, 1]
    first = boxes.extract_cells(boxes['area'] == 1)
    np.testing.assert_array_equal(first.bounds, (0, 128, -64, 64, -16, 96))
    faced = pq.load_navigation(build_aas(faces=True)).areas
    assert faced.n_cells == 3 and faced['area'].tolist() == [1, 2, 2] and faced['contents'].tolist() == [0, 1, 1]
    # Each edge's first corner as the face goes round (a reversed edge's second): the square, the triangle, face 3.
    assert [f.tolist() for f in faced.irregular_faces] == [[0, 1, 2, 3], [4, 5, 6], [4, 5, 6]]
    assert faced['face_flags'].tolist() == [4, 2, 8]
    assert faced.active_scalars_name is None
    for area in (1, 2):
        part = boxes.extract_cells(boxes['area'] == area)
        solid = pv.PolyData(part.points, faces=part.cells).clean().triangulate()
        assert solid.n_open_edges == 0 and solid.volume == pytest.approx(128 * 128 * 112)
    normals = boxes.compute_normals(cell_normals=True, point_normals=False, auto_orient_normals=False)
    centres = normals.cell_centers().points
    own = np.where((boxes['area'] == 1)[:, None], [64, 0, 40], [-64, 0, 40])
    assert ((centres - own) * normals.cell_data['Normals']).sum(axis=1).min() > 0  # each box's faces point out
    assert boxes.n_cells == 12


def test_the_area_of_a_point_as_aas_point_area_num():
    nav = pq.load_navigation(build_aas())
    # x > 0: area 1; on x = 0 (not above 0): behind; z above 100 behind it: solid (0); float32 as botlib.
    got = nav.area([[5, 0, 0], [0, 0, 0], [-5, 0, 50], [-5, 0, 100], [-5, 0, 100.01], [1e-46, 0, 0]])  # 1e-46: 0 in float32
    assert got.tolist() == [1, 2, 2, 2, 0, 2]
    assert nav.area([5, 0, 0]).tolist() == [1]
    with pytest.raises(ValueError, match=r'\(n, 3\)'):
        nav.area([[1, 2]])


def test_the_travel_graph_takes_the_least_time_of_the_reachabilities_the_flags_allow():
    nav = pq.load_navigation(build_aas())
    graph = nav.graph()
    assert graph.shape == (3, 3) and graph[1, 2] == 50 and graph[2, 1] == 0  # rocket jumps are not the bots' default
    assert nav.graph(['default', 'rocketjump'])[2, 1] == 0  # entering area 1 is no team-1 travel: not in the flags
    assert nav.graph(['default', 'rocketjump', 'notteam1'])[2, 1] == 300
    assert nav.graph('walk')[1, 2] == 0  # area 2 is water: walking into it needs the water flag too
    assert nav.graph(['walk', 'water'])[1, 2] == 100
    assert nav.graph(aas.TFL_DEFAULT)[1, 2] == 50
    assert nav.usable('default').tolist() == [False, True, True, False]
    with pytest.raises(ValueError, match='travel flags'):
        nav.graph('teleportation')


@pytest.mark.parametrize(
    ('data', 'said'),
    [
        (b'EAAS', 'inside the'),
        (b'IBSP' + bytes(200), 'not a bot navigation file'),
        (build_aas()[:4] + struct.pack('<i', 6) + build_aas()[8:], 'versions 4 and 5'),
        (
            build_aas(
                reach=[
                    (0, (0, 0, 0), (0, 0, 0), 0, 0),
                    (7, (0, 0, 0), (0, 0, 0), 2, 1),
                    (2, (0, 0, 0), (0, 0, 0), 2, 1),
                    (1, (0, 0, 0), (0, 0, 0), 2, 1),
                ]
            ),
            r'reachability\[1\]\.areanum = 7',
        ),
        (build_aas(areas_count=2), r'nodes\[2\]\.children = \[0, -2\]'),  # area 2 gone: the tree names it
        (build_aas()[:-40], 'outside the'),
    ],
)
def test_a_broken_file_is_a_format_error_naming_it(data, said):
    with pytest.raises(QuakeFormatError, match=said):
        pq.load_navigation(data)


def test_a_level_finds_its_navigation_beside_it_and_warns_when_it_is_another_maps(tmp_path):
    from level_builders import q3_level

    (tmp_path / 'maps').mkdir()
    level_bytes = q3_level()
    (tmp_path / 'maps' / 'x.bsp').write_bytes(level_bytes)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        level = pq.load(tmp_path / 'maps' / 'x.bsp')
    assert level.navigation is None
    (tmp_path / 'maps' / 'x.aas').write_bytes(build_aas(checksum=aas.block_checksum(level_bytes)))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        found = pq.load(tmp_path / 'maps' / 'x.bsp').navigation
    assert found is not None and found.num_areas == 2 and not [w for w in caught if 'another map' in str(w.message)]
    (tmp_path / 'maps' / 'x.aas').write_bytes(build_aas(checksum=1))
    with pytest.warns(pq.QuakeWarning, match='made for another map'):
        other = pq.load(tmp_path / 'maps' / 'x.bsp').navigation
    assert other is not None
    with pytest.warns(pq.QuakeWarning, match='made for another map'):
        assert other.check_map(b'another map') is False
    assert found.check_map(level_bytes) is True
    assert pq.load(examples.sample_model('md2')).navigation is None
    mesh = pv.read(tmp_path / 'maps' / 'x.aas')
    assert isinstance(mesh, pv.PolyData) and sorted(set(mesh['area'].tolist())) == [1, 2]


def test_block_checksum_is_md4_words_xored():
    # MD4("abc") = a448017aaf21d8525fc10ae87aa6729d (RFC 1320): its words little-endian, XOR'd.
    words = struct.unpack('<4I', bytes.fromhex('a448017aaf21d8525fc10ae87aa6729d'))
    assert aas.block_checksum(b'abc') == words[0] ^ words[1] ^ words[2] ^ words[3]


@requires_corpus
@pytest.mark.corpus
@pytest.mark.parametrize('name', ['am_lavactf', 'q3dm6ish'])
def test_openarenas_navigation_matches_its_maps(name):
    navigation = pq.load_navigation(f'{CORPUS / "navigation" / "openarena" / "openarena-navigation.pk3"}:maps/{name}.aas')
    pack = 'openarena-am_lavactf.pk3' if name == 'am_lavactf' else 'openarena-q3dm6ish.pk3'
    level_bytes = zipfile.ZipFile(CORPUS / 'bsp' / pack).read(f'maps/{name}.bsp')
    assert navigation.check_map(level_bytes)
    areas = navigation.record.lumps['areas'][1:]
    assert (navigation.area(areas['center']) == np.arange(1, len(areas) + 1)).all()  # each area's centre is in it
    lines = navigation.reachabilities
    assert lines.n_cells == navigation.num_reachabilities and 'walk' in set(lines['travel_type'].tolist())
    assert (lines['start_area'] > 0).all() and (lines['end_area'] > 0).all()
    assert navigation.graph().nnz > 0


@requires_corpus
@pytest.mark.corpus
@pytest.mark.parametrize('name', ['em_tmaze_a1', 'lt_chasm', 'lookat_test'])
def test_deepmind_labs_levels_find_their_navigation_beside_them(name):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # its textures are not here
        level = pq.load(CORPUS / 'navigation' / 'dmlab' / f'{name}.bsp')
    navigation = level.navigation
    assert navigation is not None and navigation.num_areas > 0
    assert navigation.check_map((CORPUS / 'navigation' / 'dmlab' / f'{name}.bsp').read_bytes())
    spawns = np.array([[float(v) for v in e['origin'].split()] for e in level.entities if e.get('classname', '').startswith('info_player')])
    if len(spawns):
        assert (navigation.area(spawns + [0, 0, 1]) > 0).any()  # a start stands on its area's floor plane: just above it
        assert (level.cluster(spawns + [0, 0, 26]) >= 0).all()


@requires_corpus
def test_the_names_of_travel_types_flags_and_area_contents_are_the_specs():
    import re

    spec = (CORPUS.parent / 'specs' / 'levels-collision-navigation.txt').read_text()
    types = dict((int(n), name) for n, name in re.findall(r'\| (\d+) \| (\w+) \|', spec))
    assert types == aas.TRAVEL_TYPES
    flags = {name.lower(): int(value, 16) for name, value in re.findall(r'TFL_(\w+) \| (0x[0-9A-F]{8})', spec)}
    assert {k: v for k, v in flags.items() if k in aas.TRAVEL_FLAGS} == {k: v for k, v in aas.TRAVEL_FLAGS.items() if k in flags}
    assert len(flags) >= 26
    assert f'0x{aas.TFL_DEFAULT:08X}' in spec
    line = spec[spec.index('Area contents:') :].split('\n')[0] + spec[spec.index('Area contents:') :].split('\n')[1]
    for value, name in (('1', 'water'), ('2', 'lava'), ('4', 'slime'), ('8', 'cluster portal'), ('64', 'teleporter'), ('128', 'jump pad')):
        assert f'{value} {name}' in line and aas.AREA_CONTENTS[name.replace(' ', '')] == int(value)


def test_more_broken_files_name_the_lump_and_the_range():
    with pytest.raises(QuakeFormatError, match=r'reachability\[1\]\.areanum = 7: out of range \(0 to 2\)'):
        pq.load_navigation(
            build_aas(
                reach=[
                    (0, (0, 0, 0), (0, 0, 0), 0, 0),
                    (7, (0, 0, 0), (0, 0, 0), 2, 1),
                    (2, (0, 0, 0), (0, 0, 0), 2, 1),
                    (1, (0, 0, 0), (0, 0, 0), 2, 1),
                ]
            )
        )
    short = build_aas(reach=[(0, (0, 0, 0), (0, 0, 0), 0, 0), (2, (0, 0, 0), (0, 0, 0), 2, 1), (2, (0, 0, 0), (0, 0, 0), 2, 1)])
    with pytest.raises(QuakeFormatError, match=r'areasettings\[2\]\.firstreachablearea = 3: with 1 after it: past the 3 records'):
        pq.load_navigation(short)  # area 2's run starts at reachability 3: one past the last


def test_a_navigation_tree_that_loops_is_refused():
    data = bytearray(build_aas(version=4))
    nodes_offset = struct.unpack_from('<i', data, 12 + 10 * 8)[0]
    struct.pack_into('<3i', data, nodes_offset + 12 * 2, 1, 0, 1)  # node 2's back child: node 1, above it
    with pytest.raises(QuakeFormatError, match=r'nodes\[2\]\.children = \[0, 1\]: a child at or above its node'):
        pq.load_navigation(bytes(data))


def test_lava_slime_and_water_areas_need_their_travel_flags():
    for contents, flag in ((2, 'lava'), (4, 'slime'), (1, 'water'), (0, 'air')):
        data = bytearray(build_aas(version=4))
        settings_offset = struct.unpack_from('<i', data, 12 + 8 * 8)[0]
        struct.pack_into('<i', data, settings_offset + 28 * 2, contents)  # area 2's contents
        nav = pq.load_navigation(bytes(data))
        assert nav.graph(['walk'])[1, 2] == 0  # the area entered needs its medium's flag, air too
        assert nav.graph(['walk', flag])[1, 2] == 100


def test_an_unknown_travel_type_is_invalid_and_a_file_of_no_reachabilities_has_none():
    nav = pq.load_navigation(
        build_aas(
            reach=[
                (0, (0, 0, 0), (0, 0, 0), 0, 0),
                (2, (0, 0, 0), (0, 0, 0), 20, 5),
                (2, (0, 0, 0), (0, 0, 0), 19, 6),
                (1, (0, 0, 0), (0, 0, 0), 2, 7),
            ]
        )
    )
    assert nav.reachabilities['travel_type'].tolist() == ['invalid', 'funcbob', 'walk']
    assert nav.usable(-1).tolist() == [False, True, True, True] and nav.usable(['funcbob', 'water']).tolist() == [False, False, True, False]
    assert nav.usable(['invalid', 'water']).tolist() == [False, True, False, False]
    assert nav.num_reachabilities == 3 and nav.num_areas == 2


# -- travel times and routes, in botlib's order ------------------------------------------------------------

WALK, ROCKETJUMP = 2, 12
GROUNDED, LIQUID = 1, 4
NORMAL, CROUCH_ONLY = 2, 4


def _chain(middle=(0, GROUNDED, NORMAL), first_time=10, second_time=20, first_kind=WALK) -> pq.Navigation:
    """One cluster, areas 1 -> 2 -> 3 (and 3 -> 2 back): the time inside area 2 is from (100, 0, 0) to (200, 0, 0)."""
    areas = [(0, GROUNDED, NORMAL, 1, 0), (*middle, 1, 1), (0, GROUNDED, NORMAL, 1, 2)]
    links = [
        (1, 2, (0, 0, 0), (100, 0, 0), first_kind, first_time),
        (2, 3, (200, 0, 0), (300, 0, 0), WALK, second_time),
        (3, 2, (300, 10, 0), (200, 10, 0), WALK, 20),
    ]
    return pq.load_navigation(build_routing_aas(areas, links, clusters=[(0, 0, 0, 0), (3, 3, 0, 0)]))


def test_travel_time_in_one_cluster_as_botlib_counts_it():
    nav = _chain()
    # 3 -> goal 3 is 1; 2 reaches it by its link (+20); 1 by its link (+10) and 100 units inside area 2 (x 0.33: 33).
    np.testing.assert_array_equal(nav.travel_time([1, 2, 3, 2], [3, 3, 3, 1]), [64, 21, 1, 0])
    np.testing.assert_array_equal(nav.travel_time([1, 3], 2), [11, 21])  # one goal against many starts
    # From a point 30 units from the first link's start: + int(30 x 0.33).
    assert nav.travel_time(1, 3, origin=[0, 0, 30]) == 64 + 9
    assert nav.travel_time(0, 3) == 0 and nav.travel_time(1, 4) == 0 and nav.travel_time(4, 4) == 1  # out of range; itself first


def test_travel_time_inside_a_crouch_or_liquid_area_and_unsigned_short_sums():
    assert _chain(middle=(0, GROUNDED, CROUCH_ONLY)).travel_time(1, 3) == 1 + 20 + 130 + 10  # x 1.3
    assert _chain(middle=(0, GROUNDED | LIQUID, NORMAL)).travel_time(1, 3) == 1 + 20 + 100 + 10  # x 1
    assert _chain(second_time=65530).travel_time(1, 3) == (1 + 65530 + 33 + 10) % 65536  # botlib's times wrap


def test_travel_time_takes_only_the_flags_asked_for():
    nav = _chain(first_kind=ROCKETJUMP)
    assert nav.travel_time(1, 3) == 0  # the bots' default flags leave rocket jumps out
    assert nav.travel_time(1, 3, flags=['default', 'rocketjump']) == 64


def _two_clusters(first_cluster=(3, 3, 1, 0)) -> pq.Navigation:
    """Areas 1, 2 (cluster 1), the portal area 3, areas 4, 5 (cluster 2) along x: a walk of 10 from each to the next,
    and 5 -> 4 back; the planes x = 150, 350, 550, 650 part them."""
    areas = [
        (0, GROUNDED, NORMAL, 1, 0),
        (0, GROUNDED, NORMAL, 1, 1),
        (8, GROUNDED, NORMAL, -1, 0),
        (0, GROUNDED, NORMAL, 2, 0),
        (0, GROUNDED, NORMAL, 2, 1),
    ]
    links = [(k, k + 1, (200 * (k - 1), 0, 0), (200 * (k - 1) + 100, 0, 0), WALK, 10) for k in range(1, 5)]
    links.append((5, 4, (700, 10, 0), (600, 10, 0), WALK, 10))
    return pq.load_navigation(
        build_routing_aas(
            areas,
            links,
            portals=[(3, 1, 2, (2, 2))],
            portal_index=[1, 1],
            clusters=[(0, 0, 0, 0), first_cluster, (3, 3, 1, 1)],
            splits=(150, 350, 550, 650),
        )
    )


def test_travel_time_through_a_portal_as_botlib_adds_it():
    nav = _two_clusters()
    # 1 -> 5: the portal cache's 55 (54 from the portal area to 5, +1), 54 to the portal in cluster 1, + the
    # portal's largest crossing time (33).
    np.testing.assert_array_equal(nav.travel_time([1, 3, 1, 5, 2], [5, 5, 4, 1, 5]), [142, 54, 99, 0, 142 - 54 + 11 + 33 - 33])
    assert nav.travel_time(1, 5, origin=[0, 0, 30]) == 142 + 9


def test_a_route_hops_along_reachabilities_into_the_goal_s_area():
    nav = _two_clusters()
    route = nav.route([50, 0, 0], [680, 0, 0])
    assert route.areas.tolist() == [1, 2, 3, 4, 5] and route.reachabilities.tolist() == [1, 2, 3, 4]
    assert route.travel_types == ['walk'] * 4 and route.reached
    assert route.time == 142 + 16  # from the start point: 50 units to the first reachability's start, x 0.33
    assert route.line.n_points == 10 and route.line.n_cells == 1
    np.testing.assert_array_equal(route.line.points[[0, -1]], [[50, 0, 0], [680, 0, 0]])
    back = nav.route([680, 0, 0], 1)  # to an area; nothing leads back into area 1
    assert not back.reached and back.areas.tolist() == [5] and back.time == 0
    short = nav.route([50, 0, 0], 5, limit=2)
    assert short.areas.tolist() == [1, 2, 3] and not short.reached


@pytest.mark.parametrize(
    ('change', 'field'),
    [
        (lambda areas, portals, clusters: (areas[:2] + [(0, GROUNDED, NORMAL, 3, 0)] + areas[3:], portals, clusters), r'areasettings\[3\]\.cluster'),
        (lambda areas, portals, clusters: (areas[:2] + [(8, GROUNDED, NORMAL, -2, 0)] + areas[3:], portals, clusters), r'areasettings\[3\]\.cluster'),
        (
            lambda areas, portals, clusters: (areas[:1] + [(0, GROUNDED, NORMAL, 1, -1)] + areas[2:], portals, clusters),
            r'areasettings\[2\]\.clusterareanum',
        ),
        (lambda areas, portals, clusters: (areas, [(3, 3, 2, (2, 2))], clusters), r'portals\[1\]\.frontcluster'),
        (lambda areas, portals, clusters: (areas, [(3, 1, 3, (2, 2))], clusters), r'portals\[1\]\.backcluster'),
        (lambda areas, portals, clusters: (areas, [(3, 1, 2, (2, -1))], clusters), r'portals\[1\]\.clusterareanum'),
        (lambda areas, portals, clusters: (areas, portals, clusters[:2] + [(3, 3, 2, 1)]), r'clusters\[2\]\.firstportal'),
        (lambda areas, portals, clusters: (areas, portals, clusters[:2] + [(3, -1, 1, 1)]), r'clusters\[2\]\.numreachabilityareas'),
    ],
)
def test_routing_fields_out_of_range_are_refused_naming_them(change, field):
    areas = [
        (0, GROUNDED, NORMAL, 1, 0),
        (0, GROUNDED, NORMAL, 1, 1),
        (8, GROUNDED, NORMAL, -1, 0),
        (0, GROUNDED, NORMAL, 2, 0),
        (0, GROUNDED, NORMAL, 2, 1),
    ]
    portals, clusters = [(3, 1, 2, (2, 2))], [(0, 0, 0, 0), (3, 3, 1, 0), (3, 3, 1, 1)]
    links = [(k, k + 1, (0, 0, 0), (0, 0, 0), WALK, 10) for k in range(1, 5)]
    areas, portals, clusters = change(areas, portals, clusters)
    data = build_routing_aas(areas, links, portals=portals, portal_index=[1, 1], clusters=clusters)
    with pytest.raises(pq.QuakeFormatError, match=field):
        pq.load_navigation(data)
    edge = build_routing_aas(
        [(0, GROUNDED, NORMAL, 2, 0), (8, GROUNDED, NORMAL, -1, 0)],
        [(1, 2, (0, 0, 0), (0, 0, 0), WALK, 1), (2, 1, (0, 0, 0), (0, 0, 0), WALK, 1)],
        portals=[(2, 2, 2, (1, 1))],
        portal_index=[1],
        clusters=[(0, 0, 0, 0), (0, 0, 0, 0), (2, 2, 1, 0)],
    )
    assert pq.load_navigation(edge).travel_time(1, 2) == 2  # the last cluster, the last portal and index: in range


def test_travel_time_measures_inside_an_area_in_three_dimensions():
    for second_start, inside in (((130, 40, 0), 16), ((130, 0, 40), 16), ((100, 30, 40), 16)):  # 50 units: x 0.33 = 16.5
        areas = [(0, GROUNDED, NORMAL, 1, 0), (0, GROUNDED, NORMAL, 1, 1), (0, GROUNDED, NORMAL, 1, 2)]
        links = [(1, 2, (0, 0, 0), (100, 0, 0), WALK, 10), (2, 3, second_start, (300, 0, 0), WALK, 20), (3, 2, (300, 9, 0), (300, 9, 0), WALK, 1)]
        nav = pq.load_navigation(build_routing_aas(areas, links, clusters=[(0, 0, 0, 0), (3, 3, 0, 0)]))
        assert nav.travel_time(1, 3) == 1 + 20 + inside + 10, second_start


def test_only_an_area_s_first_128_reachabilities_lead_back_to_it():
    # Area 1: 128 links into the dead end 3, then the 129th into the goal 2: botlib never reverses the 129th.
    areas = [(0, GROUNDED, NORMAL, 1, 0), (0, GROUNDED, NORMAL, 1, 1), (0, GROUNDED, NORMAL, 1, 2)]
    links = [(1, 3, (0, 0, 0), (0, 0, 0), WALK, 5)] * 128 + [(1, 2, (0, 0, 0), (0, 0, 0), WALK, 5), (2, 1, (0, 0, 0), (0, 0, 0), WALK, 5)]
    nav = pq.load_navigation(build_routing_aas(areas, links, clusters=[(0, 0, 0, 0), (3, 3, 0, 0)]))
    assert nav.travel_time(1, 2) == 0 and nav.travel_time(2, 1) == 6


def test_a_do_not_enter_start_or_goal_lets_the_route_enter_such_areas():
    assert _chain(middle=(0, GROUNDED, NORMAL)).travel_time(1, 3) == 64
    areas = [(0, GROUNDED, NORMAL, 1, 0), (0, GROUNDED, NORMAL, 1, 1), (256, GROUNDED, NORMAL, 1, 2)]  # the goal: do not enter
    links = [(1, 2, (0, 0, 0), (100, 0, 0), WALK, 10), (2, 3, (200, 0, 0), (300, 0, 0), WALK, 20), (3, 2, (300, 10, 0), (200, 10, 0), WALK, 20)]
    nav = pq.load_navigation(build_routing_aas(areas, links, clusters=[(0, 0, 0, 0), (3, 3, 0, 0)]))
    assert nav.travel_time(1, 3) == 64 and nav.travel_time(1, 2) == 11


def test_areas_that_are_no_reachability_areas_of_their_cluster_have_no_time():
    # Cluster 1 counts two reachability areas: area 3 (number 2) is none, as a start or a goal.
    areas = [(0, GROUNDED, NORMAL, 1, 0), (0, GROUNDED, NORMAL, 1, 1), (0, GROUNDED, NORMAL, 1, 2)]
    links = [(1, 2, (0, 0, 0), (0, 0, 0), WALK, 10), (2, 3, (0, 0, 0), (0, 0, 0), WALK, 20), (3, 1, (0, 0, 0), (0, 0, 0), WALK, 20)]
    nav = pq.load_navigation(build_routing_aas(areas, links, clusters=[(0, 0, 0, 0), (3, 2, 0, 0)]))
    np.testing.assert_array_equal(nav.travel_time([1, 3, 3], [3, 1, 2]), [0, 0, 0])
    assert nav.travel_time(1, 2) == 11


def test_the_reachability_taken_first_sets_the_origin_term():
    # Area 1 leaves by a dead end first, then by its way to 2: the origin term is measured to the second's start.
    areas = [(0, GROUNDED, NORMAL, 1, 0), (0, GROUNDED, NORMAL, 1, 1), (0, GROUNDED, NORMAL, 1, 2)]
    links = [(1, 3, (-300, 0, 0), (0, 0, 0), WALK, 1), (1, 2, (50, 0, 0), (100, 0, 0), WALK, 10), (2, 1, (100, 0, 0), (0, 0, 0), WALK, 10)]
    nav = pq.load_navigation(build_routing_aas(areas, links, clusters=[(0, 0, 0, 0), (3, 3, 0, 0)]))
    assert nav.travel_time(1, 2) == 11
    # 100 units to (50, 0, 0): not 316 to the dead end's start, nor 112 to the dummy reachability 0's (0, 0, 0).
    assert nav.travel_time(1, 2, origin=[50, 0, 100]) == 11 + 33


def _three_clusters(goal_back: bool = False, front_size: int = 3, portals_first: bool = False) -> pq.Navigation:
    """Clusters 1, 2, 3 in a row along x, the portals 3 and 6 between them: areas 1, 2 | 3 | 4, 5 | 6 | 7, 8, each
    walking (10) into the next; ``goal_back``: each also walks back (10) into the one before."""
    areas = [
        (0, GROUNDED, NORMAL, 1, 0),
        (0, GROUNDED, NORMAL, 1, 1),
        (8, GROUNDED, NORMAL, -1, 0),
        (0, GROUNDED, NORMAL, 2, 2 if portals_first else 0),
        (0, GROUNDED, NORMAL, 2, 3 if portals_first else 1),
        (8, GROUNDED, NORMAL, -2, 0),
        (0, GROUNDED, NORMAL, 3, 0),
        (0, GROUNDED, NORMAL, 3, 1),
    ]
    links = []
    for k in range(1, 9):
        x = 200 * (k - 1)
        if k < 8:
            links.append((k, k + 1, (x, 0, 0), (x + 100, 0, 0), WALK, 10))
        if goal_back and k > 1:
            links.append((k, k - 1, (x, 10, 0), (x - 100, 10, 0), WALK, 10))
    if not goal_back:
        links.append((8, 7, (1400, 10, 0), (1300, 10, 0), WALK, 10))
    return pq.load_navigation(
        build_routing_aas(
            areas,
            links,
            portals=[(3, 1, 2, (2, 0 if portals_first else 2)), (6, 2, 3, (1 if portals_first else front_size, 2))],
            portal_index=[1, 1, 2, 2],
            clusters=[(0, 0, 0, 0), (3, 3, 1, 0), (4, 4, 2, 1), (3, 3, 1, 3)],
        )
    )


def test_the_portal_cache_crosses_a_cluster_between_two():
    nav = _three_clusters()
    # Goal 8: area 7 is 11 from it, portal 6 (cluster 3's number 2) 11 + 33 + 10 = 54: the portal's time 55.
    # Then cluster 2 from portal 6 (55 + its longest crossing, 33 = 88): portal 3 is 1 + 10 + 33 + 10 + 33 + 10 = 97
    # from portal 6, so 97 + 88 = 185; area 4 goes by portal 6 (55 + 54 + 33), area 1 by portal 3 (185 + 54 + 33).
    np.testing.assert_array_equal(nav.travel_time([7, 4, 1], 8), [11, 142, 185 + 54 + 33])


def test_a_goal_in_the_first_cluster_is_reached_back_through_the_portals():
    nav = _three_clusters(goal_back=True)
    forward, back = nav.travel_time(1, 8), nav.travel_time(8, 1)
    assert forward == back > 0  # the map is the same both ways
    assert nav.travel_time(2, 1) == 11 and nav.travel_time(8, 7) == 11


def test_a_portal_that_is_no_reachability_area_of_a_cluster_is_passed_by():
    nav = _three_clusters(front_size=4)  # portal 6 numbered 4 in cluster 2, which counts 4 reachability areas
    assert nav.travel_time(1, 8) == 0 and nav.travel_time(7, 8) == 11
    assert _three_clusters(goal_back=True, front_size=4).travel_time(8, 1) == 0
    lone = _two_clusters(first_cluster=(3, 1, 1, 0))  # cluster 1 counts area 1 alone: area 2 starts nowhere
    assert lone.travel_time(2, 5) == 0 and lone.travel_time(1, 5) == 0


@requires_corpus
@pytest.mark.corpus
def test_many_travel_times_at_once_are_botlib_s_lookups_one_at_a_time():
    from pyvista_quake.model.navigation import travel_flags

    nav = pq.load_navigation(f'{CORPUS / "navigation" / "openarena" / "openarena-navigation.pk3"}:maps/q3dm6ish.aas')
    rng = np.random.default_rng(0)
    pairs = rng.integers(0, nav.num_areas + 2, (1500, 2))  # one past each end too
    origins = rng.uniform(-500, 500, (1500, 3)).astype(np.float32)
    routing, mask = nav._routing, travel_flags('default')
    for given in (None, origins):
        at_once = nav.travel_time(pairs[:, 0], pairs[:, 1], origin=given)
        alone = [lookup_alone(routing, int(a), None if given is None else given[k], int(b), mask)[0] for k, (a, b) in enumerate(pairs)]
        np.testing.assert_array_equal(at_once, alone)
        assert (at_once > 1).sum() > 100  # routes through the map's clusters and portals among them


@pytest.mark.parametrize(
    'make',
    [
        _chain,
        _two_clusters,
        _three_clusters,
        lambda: _three_clusters(goal_back=True),
        lambda: _three_clusters(front_size=4),
        lambda: _two_clusters(first_cluster=(3, 1, 1, 0)),
        lambda: _three_clusters(portals_first=True),  # cluster 2's areas numbered after its portals: 5 is its last
    ],
)
def test_every_pair_at_once_is_each_pair_alone(make):
    from pyvista_quake.model.navigation import travel_flags

    nav = make()
    areas = np.arange(-1, nav.num_areas + 3)  # and past each end
    a, b = np.meshgrid(areas, areas, indexing='ij')
    rng = np.random.default_rng(1)
    origins = rng.uniform(-300, 1500, (*a.shape, 3)).astype(np.float32)
    routing, mask = nav._routing, travel_flags('default')
    for given in (None, origins):
        at_once = nav.travel_time(a, b, origin=given)
        alone = [
            [lookup_alone(routing, int(a[i, j]), None if given is None else given[i, j], int(b[i, j]), mask)[0] for j in range(a.shape[1])]
            for i in range(a.shape[0])
        ]
        np.testing.assert_array_equal(at_once, alone)


def test_a_time_that_wraps_to_one_is_a_route():
    # 2 -> 3 takes 65534: area 2's time is 65535; 1 unit inside it and a reachability of 1 more wrap area 1's to 1.
    areas = [(0, GROUNDED, NORMAL, 1, 0), (0, GROUNDED, NORMAL, 1, 1), (0, GROUNDED, NORMAL, 1, 2)]
    links = [(1, 2, (0, 0, 0), (100, 0, 0), WALK, 1), (2, 3, (101, 0, 0), (300, 0, 0), WALK, 65534), (3, 2, (300, 9, 0), (300, 9, 0), WALK, 1)]
    nav = pq.load_navigation(build_routing_aas(areas, links, clusters=[(0, 0, 0, 0), (3, 3, 0, 0)]))
    np.testing.assert_array_equal(nav.travel_time([1, 2], 3), [1, 65535])


def lookup_alone(self, area: int, origin, goal: int, mask: int) -> tuple[int, int]:
    """``AAS_AreaRouteToGoalArea`` a lookup at a time, as the C reads: ``(travel time, reachability)`` from ``area``
    (at ``origin``, if given) to ``goal`` over a :class:`Routing`'s caches; the reference of the lookups at once."""
    if area == goal:
        return 1, 0
    if not (0 < area < self.num_areas and 0 < goal < self.num_areas) or not self.count[area] or not self.count[goal]:
        return 0, 0
    if (self.contents[area] | self.contents[goal]) & aas.AREA_CONTENTS['donotenter']:
        mask |= aas.TRAVEL_FLAGS['donotenter']
    here, there = int(self.cluster[area]), int(self.cluster[goal])
    if here < 0 and there > 0:  # a portal of the goal's cluster counts as in it
        portal = self.portals[-here]
        if there in (int(portal['frontcluster']), int(portal['backcluster'])):
            here = there
    elif here > 0 and there < 0:
        portal = self.portals[-there]
        if here in (int(portal['frontcluster']), int(portal['backcluster'])):
            there = here
    if here > 0 and here == there:  # the same cluster: its cache, even if another cluster's way is shorter
        routes = self.area_cache(here, goal, mask)
        number = self.cluster_area_num(here, area)
        if number >= int(self.clusters['numreachabilityareas'][here]):
            return 0, 0
        if routes.times[number]:
            reach = int(self.first[area] + routes.reachabilities[number])
            extra = int(area_travel_time(self.crouch[area], self.swim[area], origin, self.start[reach])) if origin is not None else 0
            return int(routes.times[number]) + extra, reach
    here, there = int(self.cluster[area]), int(self.cluster[goal])
    if there < 0:  # a portal goal is taken as in its front cluster
        there = int(self.portals['frontcluster'][-there])
    portals = self.portal_cache(there, goal, mask)
    if here < 0:  # a portal area reads the portal cache, and its first reachability
        return int(portals.times[-here]), int(self.first[area] + portals.reachabilities[-here])
    best, best_reach = 0, -1
    reach = 0
    first, n = int(self.clusters['firstportal'][here]), int(self.clusters['numportals'][here])
    size = int(self.clusters['numreachabilityareas'][here])
    number = self.cluster_area_num(here, area)
    for portal in self.portal_index[first : first + n].tolist():
        if not portals.times[portal]:
            continue
        routes = self.area_cache(here, int(self.portals['areanum'][portal]), mask)
        if number >= size or not routes.times[number]:
            continue
        t = (int(portals.times[portal]) + int(routes.times[number])) & SHORT
        t = (t + int(self.portal_max[portal])) & SHORT
        if origin is not None:
            reach = int(self.first[area] + routes.reachabilities[number])
            t = (t + int(area_travel_time(self.crouch[area], self.swim[area], origin, self.start[reach]))) & SHORT
        if not best or t < best:
            best, best_reach = t, reach
    return (best, best_reach) if best_reach >= 0 else (0, 0)
