"""Animations: grouping rules, MDL group timing, .anm files, interpolation, collections, analysis."""

from __future__ import annotations

from builders import build_mdl
from builders import tetra_md2
from builders import torch_mdl
import numpy as np
import pytest
import pyvista as pv

import pyvista_quake as pq
from pyvista_quake.data.animation import group_by_name
from pyvista_quake.data.animation import name_prefix
from pyvista_quake.data.animation import parse_anm

VERTS = np.array([[0, 0, 0, 5], [10, 0, 0, 5], [0, 10, 0, 5], [0, 0, 10, 5]], np.uint8)


def _frames(animations):
    return {name: a.frames.tolist() for name, a in animations.items()}


def test_prefix_before_trailing_digits():
    assert name_prefix('stand01') == 'stand'
    assert name_prefix('run1') == 'run'
    assert name_prefix('pain101') == 'pain'
    assert name_prefix('base') == 'base'
    assert name_prefix('007') == ''
    assert name_prefix('a1b2') == 'a1b'


def test_grouping_rules():
    names = [f'stand{i:02d}' for i in range(1, 41)] + ['run1', 'run2', 'run3']
    animations = group_by_name(names)
    assert _frames(animations) == {'stand': list(range(40)), 'run': [40, 41, 42]}
    assert animations['stand'].fps == 10.0
    np.testing.assert_allclose(animations['run'].times, [0, 0.1, 0.2])
    assert animations['run'].duration == pytest.approx(0.3)


def test_grouping_pain_numbers_names_without_digits_and_repeats():
    names = ['pain101', 'pain102', 'pain201', 'base', 'base', 'stand1', 'walk1', 'stand2', '001', '002']
    animations = group_by_name(names)
    assert _frames(animations) == {
        'pain': [0, 1, 2],
        'base': [3, 4],
        'stand': [5],
        'walk': [6],
        'stand_2': [7],  # a name that comes back after another run gets its own key
        'frame': [8, 9],
    }


def test_custom_fps():
    animations = group_by_name(['a1', 'a2'], fps=4)
    np.testing.assert_allclose(animations['a'].times, [0, 0.25])
    assert animations['a'].duration == 0.5


def test_mdl_group_is_its_own_animation_with_interval_times():
    frames = [
        ('single', 'stand1', VERTS),
        ('single', 'stand2', VERTS),
        ('group', [0.1, 0.25, 0.45], [('flame1', VERTS), ('flame2', VERTS), ('flame3', VERTS)]),
        ('single', 'stand3', VERTS),
    ]
    model = pq.load(build_mdl([[0, 0, 0]] * 4, [[1, 0, 1, 2]], frames))
    flame = model.animations['flame']
    assert flame.frames.tolist() == [2, 3, 4]
    np.testing.assert_allclose(flame.times, [0, 0.1, 0.25], rtol=1e-6)
    assert flame.duration == pytest.approx(0.45)
    assert flame.source == 'group'
    assert model.animations['stand'].frames.tolist() == [0, 1]
    assert model.animations['stand_2'].frames.tolist() == [5]
    # The whole file's timeline: singles at 0.1 s, the group by its intervals.
    np.testing.assert_allclose(model.times, [0, 0.1, 0.2, 0.3, 0.45, 0.65], rtol=1e-6)
    assert model.duration == pytest.approx(0.75)


def test_torch_group_times():
    model = pq.load(torch_mdl())
    torch = model.animations['torch']
    np.testing.assert_allclose(torch.times, [0, 0.1], rtol=1e-6)
    assert torch.duration == pytest.approx(0.2)


def test_group_with_bad_intervals_falls_back_with_a_warning():
    frames = [('group', [0.2, 0.1], [('f1', VERTS), ('f2', VERTS)])]
    model = pq.load(build_mdl([[0, 0, 0]] * 4, [[1, 0, 1, 2]], frames))
    with pytest.warns(pq.QuakeWarning, match='intervals'):
        animations = model.animations
    np.testing.assert_allclose(animations['f'].times, [0, 0.1])
    assert np.all(np.diff(model.times) > 0)


ANM = """// character animations
// name   start end fps

stand0    0     1   5   // the still pose
run       2     2   30
dead1     1     1   0
"""


def test_parse_anm():
    animations = parse_anm(ANM, 3)
    assert _frames(animations) == {'stand0': [0, 1], 'run': [2], 'dead1': [1]}
    assert animations['stand0'].fps == 5
    np.testing.assert_allclose(animations['stand0'].times, [0, 0.2])
    assert animations['dead1'].fps is None  # fps 0: a held pose


@pytest.mark.parametrize(
    ('text', 'line'),
    [
        ('walk 0 5 10\n', 'line 1'),
        ('// c\nwalk 2 1 10\n', 'line 2'),
        ('walk 0 1\n', 'line 1'),
        ('walk a b 10\n', 'line 1'),
        ('x 0 1 10\nwalk -1 1 10\n', 'line 2'),
    ],
)
def test_anm_errors_name_the_line(text, line):
    with pytest.raises(pq.QuakeFormatError, match=f'walk.anm: {line}'):
        parse_anm(text, 3, 'walk.anm')


def test_sidecar_anm_beside_the_model(tmp_path):
    (tmp_path / 'tetra.md2').write_bytes(tetra_md2())
    (tmp_path / 'tetra.anm').write_text(ANM)
    model = pq.load(tmp_path / 'tetra.md2')
    assert model.animations['run'].fps == 30 and model.animations['run'].source == 'anm'
    assert 'stand' in model.animations  # name-based animations stay
    assert pq.load(tmp_path / 'tetra.md2', anm=False).animations['run'].source == 'names'
    reader = pv.get_reader(tmp_path / 'tetra.md2')
    reader.set_active_animation('stand0')
    assert reader.time_values == pytest.approx([0, 0.2])


def test_caller_animations_override():
    model = pq.load(tetra_md2(), animations={'run': range(0, 3), 'hold': ([2, 1], [0.0, 0.5])})
    assert model.animations['run'].frames.tolist() == [0, 1, 2]
    assert model.animations['run'].source == 'user'
    hold = model.animations['hold']
    np.testing.assert_allclose(hold.times, [0, 0.5])
    assert hold.duration == pytest.approx(1.0)
    with pytest.raises(ValueError, match=r"frames outside the model's 0\.\.2"):  # tetra has 3 frames
        pq.load(tetra_md2(), animations={'bad': [0, 7]}).animations
    with pytest.raises(ValueError, match='frames outside'):
        pq.load(tetra_md2(), animations={'bad': [-1, 0]}).animations
    with pytest.raises(ValueError, match='times'):
        pq.load(tetra_md2(), animations={'bad': ([0, 1], [0.5, 0.2])}).animations


def test_at_own_time_returns_the_frame_and_halfway_is_the_mean():
    model = pq.load(tetra_md2())
    stand = model.animations['stand']
    for k, frame in enumerate(stand.frames):
        pose = model.mesh(time=stand.times[k], animation='stand')
        np.testing.assert_array_equal(pose.points, model.mesh(int(frame)).points)
        np.testing.assert_allclose(pose.point_normals, model.mesh(int(frame)).point_normals, atol=1e-6)
    half = model.mesh(time=0.05, animation='stand')
    expected = model.positions([0, 1]).mean(axis=0)
    np.testing.assert_allclose(half.points, expected, rtol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(half.point_normals, axis=1), 1, atol=1e-5)


def test_at_loops_and_clamps():
    model = pq.load(tetra_md2())
    positions = model.positions()
    # Whole file: 3 frames, 0.3 s; 0.25 s is halfway from the last frame back to the first.
    np.testing.assert_allclose(model.mesh(time=0.25).points, (positions[2] + positions[0]) / 2, rtol=1e-6)
    np.testing.assert_allclose(model.mesh(time=0.35).points, model.mesh(time=0.05).points, rtol=1e-6)
    clamped = model.at(5.0, loop=False)  # loop= is at()'s alone
    np.testing.assert_array_equal(clamped[0].points, positions[2])


def test_normals_interpolation_renormalises():
    frames = np.array([[[0, 0, 0, 5], [255, 0, 0, 5], [0, 255, 0, 5], [0, 0, 255, 5]]] * 2, np.uint8)
    frames[1, :, 3] = 52  # (1, 0, 0): halfway between +z and +x
    model = pq.load(tetra_md2(verts=frames, names=['a1', 'a2']))
    pose = model.mesh(time=0.05, animation='a')
    np.testing.assert_allclose(pose.point_normals[0], [np.sqrt(0.5), 0, np.sqrt(0.5)], atol=1e-6)


def test_whole_animation_arrays_equal_frames_on_mdl_groups():
    model = pq.load(torch_mdl())
    for index in range(len(model)):
        np.testing.assert_array_equal(model.positions()[index], model.mesh(index).points)
        np.testing.assert_array_equal(model.normals()[index], model.mesh(index).point_normals)


def test_to_multiblock():
    model = pq.load(tetra_md2())
    blocks = model.to_multiblock()
    assert blocks.keys() == ['stand01', 'stand02', 'run1']
    assert blocks['run1'].field_data['time'][0] == pytest.approx(0.2)
    stand = model.to_multiblock('stand')
    assert len(stand) == 2
    np.testing.assert_array_equal(stand[1].points, model.mesh(1).points)


def test_bounds_centroids_and_displacement():
    model = pq.load(tetra_md2())
    bounds = model.bounds()
    assert bounds.shape == (3, 6)
    for index in range(3):
        np.testing.assert_allclose(bounds[index], model.mesh(index).bounds, rtol=1e-6)
    centroids = model.centroids()
    np.testing.assert_allclose(centroids[1], model.vertex_positions([1])[0].mean(axis=0))
    moved = model.displacement(0, 2)
    vectors = moved.point_data['displacement']
    np.testing.assert_allclose(vectors, model.positions([2])[0] - model.positions([0])[0])
    vertex = moved.point_data['vertex_index']
    # Only vertex 3 moves (its z from 255 to 128).
    assert np.all(moved.point_data['displacement_magnitude'][vertex != 3] == 0)
    assert np.all(moved.point_data['displacement_magnitude'][vertex == 3] == 127)


def test_a_saved_copy_takes_its_anm_along_while_its_frames_are_the_same(tmp_path):
    (tmp_path / 'tetra.md2').write_bytes(tetra_md2())
    (tmp_path / 'tetra.anm').write_text(ANM)
    model = pq.load(tmp_path / 'tetra.md2')
    model.save(tmp_path / 'copy.md2')
    assert parse_anm((tmp_path / 'copy.anm').read_text(), 3)['run'].fps == 30
    model.save(tmp_path / 'other.md3')  # a format that reads no .anm
    assert not (tmp_path / 'other.anm').exists()
