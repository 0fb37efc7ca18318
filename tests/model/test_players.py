"""Quake III players: animation.cfg as cgame parses it, parts joined on their tags, pictures of a posed player."""

from __future__ import annotations

import dataclasses
from pathlib import Path
import zipfile

from conftest import CORPUS
from conftest import requires_corpus
from game_folders import LINES
from game_folders import axes_about_z
from game_folders import cfg
from game_folders import part
from game_folders import write_player
import numpy as np
from PIL import Image
import pytest
import pyvista as pv

import pyvista_quake as pq
from pyvista_quake.cli.main import main
from pyvista_quake.examples import synthetic_player
from pyvista_quake.formats import md3
from pyvista_quake.formats.animation_cfg import PlayerAnimation
from pyvista_quake.formats.animation_cfg import parse as parse_animation_cfg
from pyvista_quake.formats.records import SurfaceData
from pyvista_quake.model.players import load_player
from pyvista_quake.render.plotting import sheet_cells


def test_animation_cfg_as_cg_parseanimationfile_reads_it():
    parsed = parse_animation_cfg(cfg())
    assert (parsed.sex, parsed.footsteps, parsed.head_offset, parsed.fixed_torso, parsed.fixed_legs) == ('f', 'boot', (1.0, 2.0, 3.0), True, False)
    animations = parsed.animations
    assert animations['BOTH_DEATH1'] == PlayerAnimation(0, 30, 0, 25.0)
    assert animations['TORSO_STAND'] == PlayerAnimation(151, 1, 0, 15.0)
    skip = 153 - 90  # LEGS_WALKCR.first - TORSO_GESTURE.first
    assert animations['LEGS_WALKCR'].first == 153 - skip and animations['LEGS_IDLE'].first == 234 - skip
    assert animations['LEGS_LANDB'] == PlayerAnimation(228 - skip, 6, 0, 20.0, reversed=True)  # a negative count
    assert animations['LEGS_TURN'].fps == 1.0  # 0 in the file
    assert animations['TORSO_GETFLAG'] == animations['TORSO_GESTURE']  # missionpack lines default to the gesture
    assert animations['LEGS_BACKWALK'] == PlayerAnimation(**{**animations['LEGS_WALK'].__dict__, 'reversed': True})
    with pytest.raises(pq.QuakeFormatError, match='LEGS_TURN'):
        parse_animation_cfg(cfg(LINES[:-1]))
    with pytest.raises(pq.QuakeFormatError, match='not a number'):
        parse_animation_cfg(cfg([*LINES[:-1], (254, 7, 'x', 18)]))


def test_frames_in_time_loop_as_cg_runlerpframe():
    run = PlayerAnimation(first=100, count=5, looping=3, fps=10)
    assert [run.frame_at(k / 10)[0] for k in range(9)] == [100, 101, 102, 103, 104, 102, 103, 104, 102]
    assert run.frame_at(0.25) == (102, 103, pytest.approx(0.5))
    once = PlayerAnimation(first=10, count=3, looping=0, fps=10)
    assert [once.frame_at(k / 10)[0] for k in range(6)] == [10, 11, 12, 12, 12, 12]  # holds its last frame
    back = PlayerAnimation(first=10, count=3, looping=3, fps=10, reversed=True)
    assert [back.frame_at(k / 10)[0] for k in range(4)] == [12, 11, 10, 12]


def test_pose_places_the_parts_on_their_tags_as_cgame(tmp_path):
    player = load_player(write_player(tmp_path / 'models' / 'players' / 'test'))
    assert set(player.parts) == {'lower', 'upper', 'head'} and player.animations['LEGS_IDLE'] == (171, 10, 10, 10.0)
    weapon = tmp_path / 'gun.md3'
    weapon.write_bytes(part('gun', 1))
    posed = player.pose(legs=30, torso=100, weapon=weapon)
    assert posed.keys() == ['lower', 'upper', 'head', 'weapon']
    point = np.array([1.0, 0, 0])  # vertex 1 of every part's frame 0 is (1, 0, 0) + frame units up
    np.testing.assert_allclose(posed['lower'][0].points[1], point + [0, 0, 30], atol=1e-5)
    # upper: on lower's tag_torso at frame 30: origin (0, 0, 40), axes turned 30 degrees.
    upper_axes, upper_origin = axes_about_z(30), np.array([0, 0, 40.0])
    np.testing.assert_allclose(posed['upper'][0].points[1], (point + [0, 0, 100]) @ upper_axes + upper_origin, atol=1e-4)
    head_axes = axes_about_z(90) @ upper_axes
    head_origin = upper_origin + np.array([1, 0, 5.0]) @ upper_axes
    np.testing.assert_allclose(posed['head'][0].points[1], point @ head_axes + head_origin, atol=1e-4)
    np.testing.assert_allclose(posed['weapon'][0].points[1], point @ upper_axes + upper_origin + np.array([0, -3, 2.0]) @ upper_axes, atol=1e-4)
    np.testing.assert_allclose(posed['head'][0].point_data['Normals'][0], np.array([1.0, 0, 0]) @ head_axes, atol=1e-2)
    # By name and time: LEGS_IDLE (171..180 in lower.md3) at 0.25 s of 10 fps: halfway between 173 and 174.
    idle = player.pose('LEGS_IDLE', 'TORSO_STAND', time=0.25)
    np.testing.assert_allclose(idle['lower'][0].points[1], point + [0, 0, 173.5], atol=1e-4)
    with pytest.raises(KeyError, match='LEGS_FLY'):
        player.pose('LEGS_FLY')


def test_a_player_inside_a_pk3_and_its_pictures(tmp_path):
    folder = write_player(tmp_path / 'src' / 'models' / 'players' / 'test', rise=0)
    pk3 = tmp_path / 'pak0.pk3'
    with zipfile.ZipFile(pk3, 'w') as archive:
        for path in folder.iterdir():
            archive.write(path, f'models/players/test/{path.name}')
    player = load_player(f'{pk3}:models/players/test')
    np.testing.assert_allclose(player.pose(legs=5)['upper'][0].points[0], [0, 0, 10])
    picture = np.asarray(Image.open(pq.thumbnail(folder, tmp_path / 'p.png', size=(64, 64))))
    assert (picture[..., :3] != 255).any(axis=-1).sum() > 200  # a folder holding a player renders as the posed player
    lower_only = np.asarray(Image.open(pq.thumbnail(player.parts['lower'], tmp_path / 'l.png', size=(64, 64))))
    assert not np.array_equal(picture, lower_only)
    assert pq.animate(player, tmp_path / 'run.gif', animation=('LEGS_RUN', 'TORSO_STAND'), size=(48, 48)) == 9


@requires_corpus
def test_sarge_stands_on_his_legs():
    player = load_player(CORPUS / 'md3' / 'openarena' / 'models' / 'players' / 'sarge')
    posed = player.pose()
    lower, upper, head = (posed[name].bounds for name in ('lower', 'upper', 'head'))
    assert lower.z_min < upper.z_min < head.z_min and head.z_max > upper.z_max  # feet, torso, head, bottom up
    assert isinstance(posed, pv.MultiBlock) and posed['upper'][0].quake.image() is not None


def test_a_contact_sheet_of_a_player_has_a_cell_per_animation(tmp_path):

    player = load_player(write_player(tmp_path / 'p', rise=0))
    cells = sheet_cells(player)
    assert [name for name, _ in cells][:3] == ['BOTH_DEATH1', 'BOTH_DEAD1', 'BOTH_DEATH2'] and len(cells) == 33
    # One animation: a cell per frame, as the docs promise (it was one cell).
    assert sheet_cells(player, 'LEGS_RUN') == [(f'LEGS_RUN {k}', k) for k in range(9)]
    path = pq.contact_sheet(player, tmp_path / 'sheet.png', animation='LEGS_RUN', cell_size=(40, 40))
    assert Image.open(path).size == (120, 168)


def test_a_player_pair_as_a_time_series(tmp_path):
    player = load_player(write_player(tmp_path / 'p'))
    series = player.series('LEGS_RUN', 'TORSO_ATTACK')  # 9 frames at 15 fps and 6 at 15: 0.6 s at 15 points a second
    assert isinstance(series, pv.TimeReader) and series.number_time_points == 9
    np.testing.assert_allclose(series.time_values, np.arange(9) / 15)
    series.set_active_time_value(0.2)
    assert series.active_time_value == pytest.approx(0.2)
    np.testing.assert_allclose(series.read()['lower'][0].points[1], player.pose('LEGS_RUN', 'TORSO_ATTACK', 0.2)['lower'][0].points[1])
    with pytest.raises(ValueError, match='outside'):
        series.set_active_time_point(9)


def test_export_of_a_player_is_its_pose_merged(tmp_path):
    folder = write_player(tmp_path / 'p', rise=0)
    pq.export(folder, tmp_path / 'player.vtp')
    mesh = pv.read(tmp_path / 'player.vtp')
    assert mesh.n_cells == 3 and list(mesh.field_data['surface_names']) == ['lower/l_legs', 'upper/u_torso', 'head/h_head']
    pq.export(load_player(folder), tmp_path / 'player.glb', animation='LEGS_RUN', time=0.1)
    assert (tmp_path / 'player.glb').stat().st_size > 0


def quaternion_matrix(q) -> np.ndarray:
    x, y, z, w = q
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def test_a_player_to_gltf_is_nodes_on_their_tags_animated(tmp_path):
    import pygltflib

    from pyvista_quake.exporting.gltf import QUAKE_TO_GLTF

    player = load_player(write_player(tmp_path / 'p'))
    pq.export(player, tmp_path / 'player.glb', animation=('LEGS_WALK', 'TORSO_GESTURE'))
    gltf = pygltflib.GLTF2().load(str(tmp_path / 'player.glb'))
    assert [n.name for n in gltf.nodes] == ['lower', 'upper', 'head'] and gltf.nodes[0].children == [1] and gltf.nodes[1].children == [2]
    assert gltf.scenes[0].nodes == [0]
    animation = gltf.animations[0]
    assert {(c.target.node, c.target.path) for c in animation.channels} == {
        (0, 'weights'),
        (1, 'weights'),
        (1, 'translation'),
        (1, 'rotation'),
        (2, 'translation'),
        (2, 'rotation'),
    }
    # At the first key, the upper body's vertex placed by its node is where pose() puts it.
    upper = gltf.nodes[1]
    blob = gltf.binary_blob()
    accessor = gltf.accessors[gltf.meshes[1].primitives[0].attributes.POSITION]
    view = gltf.bufferViews[accessor.bufferView]
    base = np.frombuffer(blob, np.float32, accessor.count * 3, view.byteOffset).reshape(-1, 3)
    placed = quaternion_matrix(upper.rotation) @ base[1] + np.array(upper.translation)
    expected = QUAKE_TO_GLTF @ player.pose('LEGS_WALK', 'TORSO_GESTURE', 0.0)['upper'][0].points[1]
    np.testing.assert_allclose(placed, expected, atol=1e-3)


def test_animation_cfg_keywords_and_edges():
    from pyvista_quake.model.players import player_animations

    assert parse_animation_cfg(cfg(head='sex female\n')).sex == 'f'
    assert parse_animation_cfg(cfg(head='sex n\n')).sex == 'n'
    assert parse_animation_cfg(cfg(head='sex x\n')).sex == 'm'
    still = parse_animation_cfg(cfg([(0, 0, 0, 25), *LINES[1:]])).animations['BOTH_DEATH1']
    assert still.count == 0 and not still.reversed  # a count of 0 is not reversed
    with pytest.raises(pq.QuakeFormatError, match='BOTH_DEATH1'):
        parse_animation_cfg('sex')  # a keyword with nothing after it, and no animations
    assert player_animations(None) == ('LEGS_IDLE', 'TORSO_STAND')
    assert player_animations('LEGS_RUN') == ('LEGS_RUN', 'TORSO_STAND')
    assert player_animations('TORSO_ATTACK') == ('LEGS_IDLE', 'TORSO_ATTACK')
    assert player_animations('BOTH_DEATH1') == ('BOTH_DEATH1', 'BOTH_DEATH1')
    assert player_animations(('LEGS_WALK', 7)) == ('LEGS_WALK', 7)


def test_player_skins_search_paths_and_archives(tmp_path):
    from pyvista_quake.model.players import is_player_folder

    folder = write_player(tmp_path / 'src' / 'models' / 'players' / 'test', rise=0)
    (folder / 'lower_red.skin').write_text('l_legs,models/players/test/red_legs.tga\n')
    images = tmp_path / 'images' / 'models' / 'players' / 'test'
    images.mkdir(parents=True)
    Image.fromarray(np.full((2, 2, 3), (250, 0, 0), np.uint8)).save(images / 'red_legs.png')
    Image.fromarray(np.full((2, 2, 3), (0, 0, 250), np.uint8)).save(images / 'l_legs.png')
    pk3 = tmp_path / 'pak0.pk3'
    with zipfile.ZipFile(pk3, 'w') as archive:
        for path in folder.iterdir():
            archive.write(path, f'models/players/test/{path.name}')
    assert is_player_folder(folder) and is_player_folder(f'{pk3}:models/players/test')
    assert not is_player_folder(f'{pk3}:models/players/other') and not is_player_folder(tmp_path)
    red = load_player(f'{pk3}:models/players/test', skin='red', search_paths=[tmp_path / 'images'])
    assert red.parts['lower'].skin_definition.endswith('lower_red.skin')
    assert tuple(red.parts['lower'].surfaces[0].image()[0, 0, :3]) == (250, 0, 0)
    plain = load_player(folder, search_paths=[tmp_path / 'images'])
    assert tuple(plain.parts['lower'].surfaces[0].image()[0, 0, :3]) == (0, 0, 250)
    series = plain.series('LEGS_RUN', 'TORSO_STAND')
    series.set_active_time_point(0)
    assert series.active_time_value == 0.0


@pytest.mark.parametrize('archived', [False, True])
def test_a_player_missing_a_part_names_where_the_part_should_be(tmp_path, archived):
    from game_folders import write_pk3

    from pyvista_quake.examples import synthetic_player

    folder = synthetic_player(tmp_path / 'src' / 'models' / 'players' / 'bot')
    (folder / 'head.md3').unlink()
    if archived:
        root = tmp_path / 'src'
        members = {p.relative_to(root).as_posix(): p.read_bytes() for p in folder.iterdir()}
        pk3 = write_pk3(tmp_path / 'pak0.pk3', members)
        source, said = f'{pk3}:models/players/bot', f"{pk3}: member = 'models/players/bot/head.md3'"
    else:
        source, said = str(folder), str(folder / 'head.md3')
    with pytest.raises((FileNotFoundError, pq.QuakeFormatError)) as caught:
        pq.load_player(source)
    assert said in str(caught.value)


def test_a_players_part_named_alone_draws_alone_and_plays_its_animation_cfg(tmp_path):
    from pyvista_quake.cli.main import main
    from pyvista_quake.examples import synthetic_player

    folder = synthetic_player(tmp_path / 'models' / 'players' / 'bot')
    player = pq.load_player(folder)
    lower = pq.load(folder / 'lower.md3')
    legs = {name for name in player.animations if name.startswith(('LEGS_', 'BOTH_'))}
    assert legs <= set(lower.animations) and not any(name.startswith('TORSO_') for name in lower.animations)
    run = player.animation('LEGS_RUN')
    assert lower.animations['LEGS_RUN'].frames.tolist() == list(range(run.first, run.first + run.count))
    assert lower.animations['LEGS_RUN'].fps == run.fps
    assert lower.animations['LEGS_BACKWALK'].frames.tolist() == lower.animations['LEGS_WALK'].frames.tolist()[::-1]
    upper = pq.load(folder / 'upper.md3')
    assert 'TORSO_GESTURE' in upper.animations and not any(name.startswith('LEGS_') for name in upper.animations)
    assert not any(name.isupper() for name in pq.load(folder / 'head.md3').animations)
    assert 'LEGS_RUN' not in pq.load(folder / 'lower.md3', animations={}).animations  # the caller's say
    assert main(['animate', str(folder / 'lower.md3'), str(tmp_path / 'run.gif'), '--animation', 'LEGS_RUN', '--size', '64']) == 0
    assert main(['thumbnail', str(folder / 'lower.md3'), '-o', str(tmp_path / 'pics'), '--size', '64']) == 0
    assert [p.name for p in (tmp_path / 'pics').rglob('*.png')] == ['lower.png']  # the part, not the player
    assert main(['thumbnail', str(folder), '-o', str(tmp_path / 'whole'), '--size', '64']) == 0
    assert len(list((tmp_path / 'whole').rglob('*.png'))) == 1  # the folder: one player


def test_a_player_part_of_another_name_or_past_its_frames_takes_no_animation(tmp_path):
    from pyvista_quake.examples import synthetic_player

    folder = synthetic_player(tmp_path / 'bot')
    (folder / 'legs.md3').write_bytes((folder / 'lower.md3').read_bytes())
    (folder / 'lower_1.md3').write_bytes((folder / 'lower.md3').read_bytes())
    (folder / 'lower_x_1.md3').write_bytes((folder / 'lower.md3').read_bytes())
    assert not any(name.isupper() for name in pq.load(folder / 'legs.md3').animations)
    assert not any(name.isupper() for name in pq.load(folder / 'lower_x_1.md3').animations)  # no part's level of detail
    assert 'LEGS_RUN' in pq.load(folder / 'lower_1.md3').animations  # a level of detail plays as its part
    frames = len(pq.load(folder / 'lower.md3'))
    from pyvista_quake.formats.animation_cfg import ANIMATION_NAMES

    lines = (folder / 'animation.cfg').read_text().splitlines()
    turn_line = 2 + ANIMATION_NAMES.index('LEGS_TURN')  # after the comment and the sex line
    assert lines[turn_line].split()[:2] == ['13', '1']  # LEGS_TURN: lower.md3's frame 8 (the legs' frames start at 5)
    for count, kept in ((frames - 8, True), (frames - 8 + 1, False)):  # to the last frame; one past it
        lines[turn_line] = f'13 {count} 0 10'
        (folder / 'animation.cfg').write_text('\n'.join(lines) + '\n')
        turn = pq.load(folder / 'lower.md3').animations.get('LEGS_TURN')
        assert (turn is not None) == kept
        if kept:
            assert turn.frames.tolist() == list(range(8, frames))


def with_empty_surfaces(folder: Path) -> Path:
    """OpenArena's tony: lower.md3 and upper.md3 each with a surface of no vertices."""
    for which in ('lower', 'upper'):
        data = pq.load(folder / f'{which}.md3').data
        n = data.num_frames
        empty = SurfaceData(
            name=f'{which[0]}_belt',
            shaders=[f'models/players/tony/{which}_belt.tga'],
            triangles=np.zeros((0, 3), np.int32),
            texcoords=np.zeros((0, 2), np.float32),
            positions=np.zeros((n, 0, 3), np.int16),
            normals=np.zeros((n, 0), np.uint16),
        )
        record = md3.encode(dataclasses.replace(data, surfaces=[*data.surfaces, empty], file=None))
        (folder / f'{which}.md3').write_bytes(md3.write(record))
    return folder


@pytest.fixture
def tony(tmp_path) -> Path:
    return with_empty_surfaces(synthetic_player(tmp_path / 'models' / 'players' / 'tony'))


def test_a_surface_with_no_vertices_poses_renders_and_exports(tony, tmp_path):
    assert pq.load(tony / 'lower.md3').surface_names[-1] == 'l_belt'
    player = pq.load_player(tony)
    posed = player.pose('LEGS_RUN', 'TORSO_STAND', time=0.1)
    assert posed['lower']['l_belt'].n_points == 0 and posed['lower'][0].n_points > 0
    assert pq.animate(tony, tmp_path / 'run.gif', animation=('LEGS_RUN', 'TORSO_STAND')) > 1
    assert pq.animate(tony / 'lower.md3', tmp_path / 'lower.gif') > 1
    pq.thumbnail(tony, tmp_path / 'tony.png')
    for suffix in ('.obj', '.glb', '.ply', '.pvd'):
        pq.export(tony / 'lower.md3', tmp_path / f'lower{suffix}')
        assert (tmp_path / f'lower{suffix}').stat().st_size > 0
    assert main(['convert', str(tony / 'lower.md3'), str(tmp_path / 'c.obj')]) == 0


def test_an_unknown_player_animation_names_the_animations_it_has(tmp_path):
    player = pq.load_player(synthetic_player(tmp_path / 'p'))
    for call in (
        lambda: pq.contact_sheet(player, tmp_path / 's.png', animation='FOO'),
        lambda: pq.animate(player, tmp_path / 'a.gif', animation='FOO'),
        lambda: pq.export(player, tmp_path / 'a.glb', animation='FOO'),
        lambda: player.series('FOO', 'TORSO_STAND'),
        lambda: player.pose('FOO'),
    ):
        with pytest.raises(KeyError, match="no animation 'FOO'; it has .*LEGS_RUN"):
            call()


def test_a_player_frame_out_of_range_is_an_index_error_as_for_a_model(tmp_path):
    player = pq.load_player(synthetic_player(tmp_path / 'p'))
    with pytest.raises(IndexError, match='frame 9999 out of range; lower.md3 has 14 frames'):
        player.pose(9999)
    with pytest.raises(IndexError, match='upper.md3 has 14'):
        player.pose(0, -15)
    np.testing.assert_array_equal(player.pose(-1)['lower'][0].points, player.pose(13)['lower'][0].points)


def test_a_player_without_a_default_skin_takes_the_first_it_has(tmp_path):
    folder = synthetic_player(tmp_path / 'models' / 'players' / 'sorceress')
    for colour, value in (('red', (250, 0, 0)), ('blue', (0, 0, 250))):
        for which, surface in (('lower', 'l_legs'), ('upper', 'u_torso'), ('head', 'h_head')):
            (folder / f'{which}_{colour}.skin').write_text(f'{surface},models/players/sorceress/{colour}.png\n')
        Image.fromarray(np.full((2, 2, 3), value, np.uint8)).save(folder / f'{colour}.png')
    with pytest.warns(pq.QuakeWarning, match="no lower_default.skin; using its skin 'blue' \\(it has blue, red\\)"):
        player = pq.load_player(folder)
    assert tuple(player.parts['upper'].surfaces[0].image()[0, 0]) == (0, 0, 250)
    assert tuple(pq.load_player(folder, skin='red').parts['head'].surfaces[0].image()[0, 0]) == (250, 0, 0)


def test_a_player_in_an_archive_without_a_default_skin_takes_the_first_it_has(tmp_path):
    folder = synthetic_player(tmp_path / 'src')
    pk3 = tmp_path / 'pak0.pk3'
    with zipfile.ZipFile(pk3, 'w') as archive:
        for path in folder.iterdir():
            archive.write(path, f'models/players/sorceress/{path.name}')
        archive.write(folder / 'lower.md3', 'models/players/other/lower_default.skin')  # another player's: not hers
        for colour in ('red', 'blue'):
            for part, surface in (('lower', 'l_legs'), ('upper', 'u_torso'), ('head', 'h_head')):
                archive.writestr(f'models/players/sorceress/{part}_{colour}.skin', f'{surface},models/players/sorceress/{colour}.png\n')
    with pytest.warns(pq.QuakeWarning, match="using its skin 'blue'"):
        pq.load_player(f'{pk3}:models/players/sorceress')
