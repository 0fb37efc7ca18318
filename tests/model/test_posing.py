"""A model and a player drawn by the same code: what :func:`posable` answers for each."""

from __future__ import annotations

from builders import build_iqm
from builders import tetra_md2
from builders import two_joint_md5
from game_folders import part
from game_folders import static_bar
from game_folders import write_player
import numpy as np
import pytest

import pyvista_quake as pq
from pyvista_quake.model.posing import posable
from pyvista_quake.model.posing import posable_or_mesh


@pytest.fixture
def bar_md5_files(tmp_path):
    mesh, anim = two_joint_md5()
    (tmp_path / 'bar.md5mesh').write_text(mesh)
    (tmp_path / 'bend.md5anim').write_text(anim)
    return tmp_path / 'bar.md5mesh', tmp_path / 'bend.md5anim'


@pytest.fixture
def player(tmp_path):
    return pq.load_player(write_player(tmp_path / 'models' / 'players' / 'test'))


def test_a_model_poses_by_its_frames_and_draws_its_own_skin(tmp_path):
    model = pq.load(tetra_md2())
    poser = posable(model)
    assert poser.subject is model and poser.drawn is model and poser.models == [model] and poser.source == model.source
    assert poser.rest() == {'frame': 0}  # its stand animation's first frame
    assert poser.animation_names == list(model.animations) == ['stand', 'run']
    np.testing.assert_array_equal(poser.posed(1).points, model.mesh(1).points)
    with pytest.raises(ValueError, match='tag_weapon'):
        poser.posed(weapon=tmp_path / 'gun.md3')
    assert poser.cells() == [('stand', 0, {'frame': 0}), ('run', 2, {'frame': 2})]
    assert poser.cells('stand') == [('stand01', 0, {'frame': 0}), ('stand02', 1, {'frame': 1})]
    assert poser.skin_sets == [] and list(poser.each_skin()) == []  # one skin: nothing to pick


def test_a_model_of_alike_frame_names_is_labelled_by_frame_number():
    poser = posable(pq.load(tetra_md2(names=['frame', 'frame', 'other'])))
    assert [label for label, _, _ in poser.cells('frame')] == ['frame 0', 'frame 1']


def test_a_models_start_is_its_rest_animation_framed_on_its_frames():
    model = pq.load(tetra_md2())
    start = posable(model).start()
    points = model.positions([0, 1]).reshape(-1, 3)
    assert start['start'] == 'stand'
    np.testing.assert_allclose(start['bounds'], [*points.min(axis=0), *points.max(axis=0)])
    assert posable(model).start('run')['start'] == 'run'  # one asked for: that one, though it holds one frame
    assert posable(pq.load(tetra_md2(names=['a1', 'b1', 'c1']))).start()['start'] == 'a'  # none moves: the first
    assert posable(pq.load(tetra_md2(names=['a1', 'b1', 'b2']))).start()['start'] == 'b'  # no rest: the first that moves


def test_a_models_playback_and_its_refusal_of_one_frame():
    model = pq.load(tetra_md2())
    playback = posable(model).playback()
    clip = model.animations['stand']
    assert playback.duration == clip.duration and playback.rate == pytest.approx(1 / np.diff(clip.times).min())
    assert playback.start == {'frame': 0, 'animation': clip}
    np.testing.assert_array_equal(playback.pose_at(float(clip.times[1])).points, model.mesh(1).points)
    np.testing.assert_array_equal(playback.bounds(np.zeros(1)), model.bounds(clip.frames))
    assert posable(model).playback(fps=3).rate == 3.0
    blended = posable(model).playback(interpolate=True).pose_at(float(clip.times[1]) / 2)
    np.testing.assert_allclose(blended.points, model.mesh(time=float(clip.times[1]) / 2, animation=clip).points)
    with pytest.raises(ValueError, match='nothing to animate.*run'):
        posable(model).playback('run')
    one = pq.load(tetra_md2(verts=np.zeros((1, 4, 4), np.uint8), names=['still']))
    with pytest.raises(ValueError, match="nothing to animate: animation 'still' has one frame$"):
        posable(one).playback()


def test_a_models_skins_are_picked_in_turn_and_its_own_comes_back():
    model = pq.load(tetra_md2(skins=['a.png', 'b.png']), skin=None)
    model.skin = 1
    poser = posable(model)
    assert poser.skin_sets == ['a.png', 'b.png']
    seen = [(name, each.skin) for name, each in poser.each_skin()]
    assert seen == [('a.png', 0), ('b.png', 1)] and model.skin == 1


def test_a_player_poses_by_a_pair_of_animations(player, tmp_path):
    poser = posable(player)
    assert poser.subject is player and poser.drawn is None and poser.models == list(player.parts.values())
    assert poser.rest() == {} and poser.skin_sets == [] and poser.animation_names == list(player.config.animations)
    posed = poser.posed(animation='LEGS_RUN', time=0.2)
    expected = pq.model.mesh.flattened(player.pose('LEGS_RUN', 'TORSO_STAND', 0.2))
    assert posed.keys() == expected.keys() == ['lower/l_legs', 'upper/u_torso', 'head/h_head']
    np.testing.assert_array_equal(posed[0].points, expected[0].points)
    weapon = tmp_path / 'gun.md3'
    weapon.write_bytes(part('gun', 1))
    assert poser.posed(weapon=weapon).keys()[-1] == 'weapon/gun'
    run = player.animation('LEGS_RUN')
    cells = poser.cells('LEGS_RUN')
    assert len(cells) == run.count and cells[1] == ('LEGS_RUN 1', 1, {'animation': 'LEGS_RUN', 'time': 1 / run.fps})
    assert poser.cells()[0] == (next(iter(player.config.animations)), 0, {'animation': next(iter(player.config.animations))})
    assert poser.start('LEGS_RUN') == {}
    pickers = poser.start()['player']
    assert 'LEGS_RUN' in pickers['legs'] and 'TORSO_STAND' in pickers['torso'] and 'BOTH_DEATH1' in pickers['legs'] + pickers['torso']
    assert not any(n.startswith('TORSO_') for n in pickers['legs']) and not any(n.startswith('LEGS_') for n in pickers['torso'])


def test_a_players_playback_runs_the_longer_animation_at_the_faster_rate(player):
    playback = posable(player).playback('LEGS_RUN')
    legs, torso = player.animation('LEGS_RUN'), player.animation('TORSO_STAND')
    assert playback.duration == max(legs.count / legs.fps, torso.count / torso.fps)
    assert playback.rate == max(legs.fps, torso.fps) and posable(player).playback('LEGS_RUN', fps=5).rate == 5.0
    assert playback.start == {'animation': ('LEGS_RUN', 'TORSO_STAND'), 'time': 0.0}
    times = np.arange(3) / playback.rate
    boxes = playback.bounds(times)
    assert boxes.shape == (3, 6) and playback.pose_at(float(times[2])) is playback.pose_at(float(times[2]))  # posed once
    np.testing.assert_allclose(boxes[2], playback.pose_at(float(times[2])).bounds)
    np.testing.assert_array_equal(playback.pose_at(0.1)[0].points, pq.model.mesh.flattened(player.pose('LEGS_RUN', 'TORSO_STAND', 0.1))[0].points)


def test_a_players_clips_name_the_frames_of_the_part_they_move(player):
    clips = posable(player).clips()
    assert set(clips) == set(player.config.animations)
    run, stand = player.animation('LEGS_RUN'), player.animation('TORSO_STAND')
    assert clips['LEGS_RUN']['frames'][0] == run.first and clips['TORSO_STAND']['frames'][0] == stand.first
    assert clips['LEGS_RUN']['names'][0] == player.parts['lower'].frame_names[run.first]
    pair = posable(player).clips(('LEGS_RUN', 'TORSO_STAND'))
    assert list(pair) == ['LEGS_RUN+TORSO_STAND'] and pair['LEGS_RUN+TORSO_STAND']['frames'][0] == run.first


def test_a_mesh_is_no_posable(player):
    mesh = pq.load(tetra_md2()).mesh(0)
    assert posable_or_mesh(mesh) == (None, mesh)
    assert posable_or_mesh(player)[0].subject is player


def test_a_models_clips_are_the_one_asked_for_or_all_and_a_model_of_none_plays_its_whole_file():
    model = pq.load(tetra_md2())
    assert list(posable(model).clips('run')) == ['run'] and list(posable(model).clips()) == ['stand', 'run']
    still = pq.load(build_iqm(**static_bar()))  # no animation: the whole file, one frame
    assert still.animations == {}
    assert list(posable(still).clips()) == ['all'] and posable(still).clips()['all']['frames'] == [0]
    start = posable(still).start()
    assert start['start'] is None
    points = still.positions(0).reshape(-1, 3)
    np.testing.assert_allclose(start['bounds'], [*points.min(axis=0), *points.max(axis=0)])


def test_a_models_start_is_framed_on_the_frames_of_its_animation():
    verts = np.zeros((3, 4, 4), np.uint8)
    verts[:, :, :3] = [[0, 0, 0], [10, 0, 0], [0, 10, 0], [0, 0, 10]]
    verts[2, :, :3] *= 20  # frame 2, the one 'run' holds, is twenty times larger
    model = pq.load(tetra_md2(verts=verts))
    points = model.positions([2]).reshape(-1, 3)
    np.testing.assert_allclose(posable(model).start('run')['bounds'], [*points.min(axis=0), *points.max(axis=0)])


def test_a_doom3_animation_plays_at_its_own_rate_though_its_last_frame_ends_it(bar_md5_files):
    mesh, anim = bar_md5_files
    model = pq.load(mesh, animations=[anim])
    clip = next(iter(model.animations.values()))
    assert clip.duration == clip.times[-1]  # Doom 3 loops from the last frame straight to the first: no last interval
    assert posable(model).playback().rate == pytest.approx(clip.fps)


def test_a_player_of_two_skins_offers_both(tmp_path):
    folder = write_player(tmp_path / 'models' / 'players' / 'test')
    for skin in ('default', 'red'):
        for part_name, surface in (('lower', 'l_legs'), ('upper', 'u_torso'), ('head', 'h_head')):
            (folder / f'{part_name}_{skin}.skin').write_text(f'{surface},models/players/test/{skin}.tga\n')
    poser = posable(pq.load_player(folder))
    assert poser.skin_sets == ['default', 'red']
    assert [name for name, _ in poser.each_skin()] == ['default', 'red']


def test_a_players_sheet_of_a_one_frame_animation_is_one_cell(player):
    assert player.animation('TORSO_STAND').count == 1
    assert posable(player).cells('TORSO_STAND') == [('TORSO_STAND 0', 0, {'animation': 'TORSO_STAND', 'time': 0.0})]
