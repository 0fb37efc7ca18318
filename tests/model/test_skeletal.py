"""IQM and MD5: read, skinned as the engines skin, assembled by Cube 2 configs, exported, checked.

Synthetic files come from ``builders`` (written from the specs); the
reference geometry from ``skeletal_reference`` (plain Python, vertex by
vertex); the real models from ``../shared/corpus``.
"""

from __future__ import annotations

import math
from pathlib import Path
import re
import struct
import subprocess
import sys
import warnings
import zipfile

from builders import build_iqm
from builders import md5_anim_text
from builders import md5_mesh_text
from builders import two_joint_iqm
from builders import two_joint_md5
from conftest import CORPUS
from conftest import requires_corpus
from conftest import validate
from game_folders import md5_pair
from game_folders import static_bar
from game_folders import tiny_png
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
import numpy as np
from PIL import Image
import pytest
import pyvista as pv
import skeletal_reference as ref

import pyvista_quake as pq
from pyvista_quake.formats import iqm
from pyvista_quake.formats import md5
from pyvista_quake.formats import model_cfg


@pytest.fixture
def bar_md5(tmp_path) -> tuple[Path, Path]:
    mesh, anim = two_joint_md5()
    (tmp_path / 'bar.md5mesh').write_text(mesh)
    (tmp_path / 'bend.md5anim').write_text(anim)
    return tmp_path / 'bar.md5mesh', tmp_path / 'bend.md5anim'


# -- IQM: reading ---------------------------------------------------------------------------


def test_iqm_reads_joints_meshes_and_frames_as_the_demo_skins_them():
    data = two_joint_iqm()
    model = pq.load(data)
    assert type(model) is pq.QuakeModel and model.format == 'iqm'
    assert [(j.name, j.parent) for j in model.skeletal.joints] == [('root', -1), ('child', 0)]
    assert model.surface_names == ['bar'] and model.surfaces[0].num_points == 8 and model.surfaces[0].num_triangles == 6
    assert len(model) == 3 and list(model.animations) == ['bend'] and model.animations['bend'].fps == 10
    expected = np.array(ref.iqm_positions(data, ref.iqm_frames(data)))
    np.testing.assert_allclose(model.positions(), expected, atol=1e-5)
    # frame 0 is the bind pose; frame 2 has the child turned by 60 degrees and moved 1 along x
    np.testing.assert_allclose(model.positions(0)[0], model.skeletal.bind_pose()[0].points, atol=1e-5)
    assert not np.allclose(model.positions(2), model.positions(0))


def test_iqm_offsets_that_break_alignment_read_the_same():
    aligned, odd = two_joint_iqm(), two_joint_iqm(align=False)
    header = ref.iqm_header(odd)
    assert header['ofs_poses'] % 4 and header['ofs_anims'] % 4  # the builder did break the rule
    np.testing.assert_array_equal(pq.load(odd).positions(), pq.load(aligned).positions())


def test_a_vertex_with_no_weight_follows_joint_0_as_cube2_binds_it():
    model = pq.load(two_joint_iqm(zero_weight_vertex=True))
    moving = model.positions()[:, 7]
    # joint 0 never moves: the vertex stays at its bind position in every frame (the demo would send it to the origin)
    np.testing.assert_allclose(moving, np.broadcast_to(model.skeletal.bind_pose()[0].points[7], moving.shape), atol=1e-6)


def test_iqm_texture_coordinates_and_winding_as_vtk_wants_them():
    block = pq.load(two_joint_iqm()).blocks(0)[0]
    stored = iqm.parse(two_joint_iqm()).arrays[iqm.IQM_TEXCOORD]
    np.testing.assert_allclose(block.active_texture_coordinates[:, 1], 1 - stored[:, 1])
    np.testing.assert_allclose(block.active_texture_coordinates[:, 0], stored[:, 0])
    computed = block.compute_normals(cell_normals=True, point_normals=False, auto_orient_normals=False)
    # The stored normals face +z; the file's triangles are clockwise seen from there: VTK's must face +z too.
    assert (computed.cell_data['Normals'][:, 2] > 0.99).all()


def test_iqm_normals_turn_with_their_joints():
    model = pq.load(two_joint_iqm())
    normals = model.normals(2)[0]
    assert np.allclose(np.linalg.norm(normals, axis=1), 1, atol=1e-6)
    np.testing.assert_allclose(normals, np.tile([0, 0, 1], (8, 1)), atol=1e-6)  # a turn about z keeps +z


def test_between_blends_the_demos_matrices_and_at_times_frames_at_the_rate():
    model = pq.load(two_joint_iqm())
    half = model.between(0, 1, 0.5)[0].points
    # the demo blends the pre-composed joint matrices element-wise: the tip is the mean of the two frames' tips
    tips = model.positions([0, 1])[:, 7]
    np.testing.assert_allclose(half[7], tips.mean(axis=0), atol=1e-5)
    np.testing.assert_allclose(model.blocks(time=0.1, animation='bend')[0].points, model.positions(1)[0], atol=1e-5)


def test_bind_pose_is_a_frame_and_skeleton_is_ready_to_plot():
    model = pq.load(two_joint_iqm())
    assert type(model.skeletal.bind_pose()) is type(model.frame(0)) is pv.MultiBlock
    assert model.skeletal.bind_pose().field_data['frame_name'][0] == 'bind'
    skeleton = model.skeletal.skeleton()
    assert skeleton.n_points == 2 and skeleton.n_lines == 1
    assert list(skeleton.point_data['joint_name']) == ['root', 'child']
    np.testing.assert_allclose(skeleton.points, [[0, 0, 0], [4, 0, 0]], atol=1e-6)
    np.testing.assert_array_equal(skeleton.lines, [2, 0, 1])
    moved = model.skeletal.skeleton(frame=2)
    np.testing.assert_allclose(moved.points[1], [5, 0, 0], atol=1e-4)  # tx 4 + 0.5 * 2


def test_a_file_of_poses_attaches_by_pose_count_and_the_mesh_hierarchy_wins(tmp_path):
    whole = iqm.parse(two_joint_iqm())
    h = whole.header_fields()
    poses = [tuple(p) for p in struct.iter_unpack('<iI10f10f', two_joint_iqm()[h['ofs_poses'] : h['ofs_poses'] + 88 * 2])]
    frames = np.asarray(whole.frames)
    # the pose file gives pose 1 a parent of -1: the mesh says 0, and its hierarchy wins
    poses[1] = (-1, *poses[1][1:])
    anim_only = build_iqm(poses=[(p[0], p[1], p[2:12], p[12:22]) for p in poses], frames=frames, anims=[('walk', 0, 3, 0.0, 0)], align=False)
    (tmp_path / 'walk.iqm').write_bytes(anim_only)
    mesh = tmp_path / 'mesh.iqm'
    mesh.write_bytes(build_iqm(**static_bar()))
    model = pq.load(mesh, animations=[tmp_path / 'walk.iqm'])
    assert list(model.animations) == ['walk'] and len(model) == 3
    assert model.animations['walk'].fps == pq.DEFAULT_FPS  # framerate 0: the default rate
    np.testing.assert_allclose(model.positions(), pq.load(two_joint_iqm()).positions(), atol=1e-5)
    one_pose = build_iqm(poses=[(p[0], p[1], p[2:12], p[12:22]) for p in poses[:1]], frames=frames[:, :0], anims=[('x', 0, 3, 0.0, 0)])
    (tmp_path / 'one.iqm').write_bytes(one_pose)
    with pytest.raises(pq.QuakeFormatError, match=r'num_poses = 1: .* has 2 joints'):
        pq.load(mesh, animations=[tmp_path / 'one.iqm'])


def test_a_mesh_with_no_animation_has_one_frame_its_bind_pose():
    model = pq.load(build_iqm(**static_bar()))
    assert len(model) == 1 and model.frame_names == ['bind'] and model.animations == {}
    np.testing.assert_allclose(model.positions()[0], model.skeletal.bind_pose()[0].points)


# -- IQM: bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ('offset', 'value', 'field'),
    [
        (16, 1, 'version'),  # version 1 stores rotations without w
        (20, 10**7, 'filesize'),  # larger than the data
        (36, 2, 'num_meshes'),  # runs past: the mesh section is checked
        (48, 1000, 'ofs_vertexarrays'),  # the vertex arrays run past the end
        (56, 10**6, 'ofs_triangles'),
    ],
)
def test_iqm_ranges_are_checked_before_reading(offset, value, field):
    data = bytearray(two_joint_iqm())
    struct.pack_into('<I', data, offset, value)
    with pytest.raises(pq.QuakeFormatError) as caught:
        pq.load(bytes(data))
    assert caught.value.source == '<bytes>'
    assert caught.value.field.startswith((field, 'meshes[', 'vertexarrays[0].offset')), caught.value


def test_iqm_indices_and_names_are_checked():
    data = two_joint_iqm()
    h = ref.iqm_header(data)
    bad = bytearray(data)
    struct.pack_into('<I', bad, h['ofs_triangles'], 99)
    with pytest.raises(pq.QuakeFormatError, match=r'triangles.vertex = 99'):
        pq.load(bytes(bad))
    bad = bytearray(data)
    struct.pack_into('<I', bad, h['ofs_meshes'], 10**6)  # the mesh's name, far outside the text
    with pytest.raises(pq.QuakeFormatError, match=r'meshes\[0\]\.name = 1000000'):
        pq.load(bytes(bad))
    bad = bytearray(data)
    struct.pack_into('<I', bad, 92 + 4, 2)  # num_framechannels against the masks' 3 channels
    with pytest.raises(pq.QuakeFormatError, match='num_framechannels'):
        pq.load(bytes(bad))


def test_an_extension_list_that_loops_ends():
    data = bytearray(two_joint_iqm())
    end = len(data)
    data += struct.pack('<4I', 0, 0, 0, end)  # the extension points at itself
    struct.pack_into('<I', data, 20, len(data))
    struct.pack_into('<2I', data, 116, 5, end)
    model = pq.load(bytes(data))
    assert model.data.file.extensions == ['']


def test_iqm_saves_byte_for_byte(tmp_path):
    data = two_joint_iqm(align=False)
    (tmp_path / 'a.iqm').write_bytes(data)
    model = pq.load(tmp_path / 'a.iqm')
    model.save(tmp_path / 'b.iqm')
    assert (tmp_path / 'b.iqm').read_bytes() == data
    with pytest.raises(TypeError, match='frames come from its joints'):
        model.set_frame(0, model.positions(0)[0])


def test_a_skeletal_model_saves_as_an_md3_of_its_frames(tmp_path):
    model = pq.load(two_joint_iqm())
    model.save(tmp_path / 'bar.md3')
    md3 = pq.load(tmp_path / 'bar.md3')
    assert len(md3) == len(model)
    np.testing.assert_allclose(md3.positions(), model.positions(), atol=1 / 64)
    with pytest.raises(ValueError, match=r'saves as \.iqm; for another format export its frames \(pyvista_quake\.export\) or make an MD3'):
        model.save(tmp_path / 'bar.md5mesh')  # another skeletal format: written only as read
    model.save(tmp_path / 'bar.md2')  # any format of surfaces takes its skinned frames (an MD2, one surface)
    np.testing.assert_allclose(pq.load(tmp_path / 'bar.md2').positions(), model.positions(), atol=0.05)


# -- MD5 -------------------------------------------------------------------------------------


def test_md5_mesh_and_anim_skin_as_doom3(bar_md5):
    mesh_path, anim_path = bar_md5
    model = pq.load(mesh_path, animations=[anim_path])
    assert model.format == 'md5' and model.surface_names == ['bar']
    assert [(j.name, j.parent) for j in model.skeletal.joints] == [('root', -1), ('child', 0)]
    assert list(model.animations) == ['bend'] and len(model) == 3
    expected = np.array(ref.md5_positions(mesh_path.read_text(), anim_path.read_text()))
    np.testing.assert_allclose(model.positions(), expected, atol=1e-5)
    bind = np.array(ref.md5_positions(mesh_path.read_text()))[0]
    np.testing.assert_allclose(model.skeletal.bind_pose()[0].points, bind, atol=1e-5)


def test_md5_loops_last_frame_to_first_with_no_blend_and_slerps(bar_md5):
    mesh_path, anim_path = bar_md5
    model = pq.load(mesh_path, animations=[anim_path])
    clip = model.animations['bend']
    assert clip.duration == pytest.approx(2 / 24)  # (frames - 1) / rate
    half = model.between(0, 2, 0.5)[0].points
    # slerp halfway from 0 to 60 degrees is 30 degrees, frame 1's turn; the translation is linear too
    np.testing.assert_allclose(half, model.positions(1)[0], atol=1e-5)


def test_md5_normals_are_computed_outward_and_shared_across_seams(tmp_path):
    mesh_path = tmp_path / 'bar.md5mesh'
    mesh_path.write_text(two_joint_md5()[0])
    model = pq.load(mesh_path)
    normals = model.normals(0)[0]
    # the bar lies in z = 0, its clockwise triangles face +z seen from +z
    np.testing.assert_allclose(normals, np.tile([0, 0, 1], (8, 1)), atol=1e-6)


def test_md5_files_without_version_or_commandline_load_and_check_says_doom3_refuses(tmp_path):
    mesh, _ = two_joint_md5()
    bare = mesh.replace('MD5Version 10\n', '').replace('commandline "built"\n', '')
    path = tmp_path / 'bare.md5mesh'
    path.write_text(bare)
    model = pq.load(path)
    np.testing.assert_allclose(model.positions(), pq.load(tmp_path.parent / tmp_path.name / 'bare.md5mesh').positions())
    found = {(f.engine, f.field, f.effect) for f in pq.check(path)}
    assert ('doom3', 'MD5Version', 'refuses') in found and ('doom3', 'commandline', 'refuses') in found
    assert not any(f.engine == 'cube2' for f in pq.check(path))
    with pytest.raises(pq.QuakeFormatError, match='Doom 3.* refuses'):
        pq.load(path, strict='doom3')
    # Saved back, it is written with the lines Doom 3 wants, and so no warning says Doom 3 refuses it.
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        model.save(tmp_path / 'copy.md5mesh')
    assert not any(f.effect == 'refuses' for f in pq.check(tmp_path / 'copy.md5mesh'))


def test_an_anim_of_another_skeleton_names_the_joint(bar_md5, tmp_path):
    mesh_path, anim_path = bar_md5
    other = tmp_path / 'other.md5anim'
    other.write_text(anim_path.read_text().replace('"child"', '"elbow"'))
    with pytest.raises(pq.QuakeFormatError, match=r'hierarchy joint 1 = .elbow \(parent 0\).: the mesh has child'):
        pq.load(mesh_path, animations=[other])
    fewer = tmp_path / 'fewer.md5anim'
    fewer.write_text(md5_anim_text([('root', -1, 0, 0)], [((0, 0, 0), (0, 0, 0))], [[]]))
    with pytest.raises(pq.QuakeFormatError, match=r'numJoints = 1: the mesh .* has 2 joints'):
        pq.load(mesh_path, animations=[fewer])


@pytest.mark.parametrize(
    ('change', 'message'),
    [
        (('"child" 0 ( 4 0 0 )', '"child" 0 ( 4 zero 0 )'), r"line 7 = 'zero': joints line 1: expected a finite number"),
        (('tri 0 0 1 2', 'tri 0 0 1 99'), r"line \d+.*'99'.*a triangle corner must be 0 to 7"),
        (('weight 0 0 1.0', 'weight 0 5 1.0'), r"weight's joint must be 0 to 1"),
        (('numverts 8', 'numverts 80'), r'80 vert lines expected'),
        (('joints {', 'joints ['), r'line \d+'),
    ],
)
def test_md5_malformed_tokens_name_the_line_and_value(tmp_path, change, message):
    mesh, _ = two_joint_md5()
    assert change[0] in mesh
    path = tmp_path / 'bad.md5mesh'
    path.write_text(mesh.replace(change[0], change[1], 1))
    with pytest.raises(pq.QuakeFormatError, match=message) as caught:
        pq.load(path)
    assert caught.value.source == str(path)


def test_md5_anim_frames_and_starts_are_checked(bar_md5, tmp_path):
    mesh_path, anim_path = bar_md5
    text = anim_path.read_text()
    for old, new, message in [
        ('frame 2 {', 'frame 1 {', 'each once'),
        ('"child" 0 63 0', '"child" 0 63 1', 'run past numAnimatedComponents'),
        ('numFrames 3', 'numFrames 4', 'frame missing'),
    ]:
        bad = tmp_path / 'bad.md5anim'
        bad.write_text(text.replace(old, new))
        with pytest.raises(pq.QuakeFormatError, match=message):
            pq.load(mesh_path, animations=[bad])


def test_md5_writes_back_to_the_same_numbers(bar_md5, tmp_path):
    mesh_path, anim_path = bar_md5
    model = pq.load(mesh_path)
    model.save(tmp_path / 'copy.md5mesh')
    again = md5.parse_mesh((tmp_path / 'copy.md5mesh').read_bytes())
    first = model.data.file
    np.testing.assert_array_equal(again.joint_poses, first.joint_poses)
    for a, b in zip(again.meshes, first.meshes):
        np.testing.assert_array_equal(a.verts, b.verts)
        np.testing.assert_array_equal(a.tris, b.tris)
        np.testing.assert_array_equal(a.weights, b.weights)
    record = md5.parse_anim(anim_path.read_bytes())
    back = md5.parse_anim(md5.write_anim(record))
    np.testing.assert_array_equal(back.frames, record.frames)
    np.testing.assert_array_equal(back.baseframe, record.baseframe)
    odd = np.array([[0.1234567890123, 1e-9, -3.0]])
    assert (md5._num(odd).astype(float) == odd).all()  # more digits than six decimals read back exactly


def test_md5_is_told_by_its_grammar_not_its_extension(bar_md5, tmp_path):
    mesh_path, _ = bar_md5
    renamed = tmp_path / 'bar.model'
    renamed.write_text('// exported\n/* block */\n' + mesh_path.read_text())
    assert pq.load(renamed).format == 'md5'
    (tmp_path / 'notes.md5mesh').write_text('hello world')
    with pytest.raises(pq.QuakeFormatError, match='not a Quake model'):
        pq.load(tmp_path / 'notes.md5mesh')
    with pytest.raises(pq.QuakeFormatError, match=r'animations=\[this file\]'):
        pq.load(bar_md5[1])


# -- Cube 2 configs ----------------------------------------------------------------------------


def test_config_parse_keeps_if_1_blocks_and_drops_if_0():
    commands = model_cfg.parse('iqmload a.iqm\nif 0 [ iqmskin * no.png ] [ iqmskin * yes.png ]\nif 1 [\n  iqmanim "x|y" b.iqm 12\n]; mdlscale 2')
    assert [(c.name, c.args) for c in commands] == [
        ('iqmload', ('a.iqm',)),
        ('iqmskin', ('*', 'yes.png')),
        ('iqmanim', ('x|y', 'b.iqm', '12')),
        ('mdlscale', ('2',)),
    ]
    assert model_cfg.image_name('<dds><ffmask:0.25>../skin.png') == '../skin.png'
    with pytest.raises(pq.QuakeFormatError, match='never closed'):
        model_cfg.parse('if 1 [ iqmload a')
    # The engine reads a rate as parsefloat does: a word that is no number is 0, the file's own rate.
    assert model_cfg.interpret(model_cfg.parse('iqmanim idle a.iqm fast'), 'x.cfg', '.', lambda name: None).animations[0][0][0].fps is None


def test_a_config_assembles_the_model_as_the_game_does(tmp_path):
    game = tmp_path / 'data'
    folder = game / 'actors' / 'bot' / 'blue'
    folder.mkdir(parents=True)
    (folder / 'mesh.iqm').write_bytes(build_iqm(**static_bar()))
    whole = two_joint_iqm()
    (game / 'actors' / 'bot' / 'bend.iqm').write_bytes(whole)
    (game / 'actors' / 'bot' / 'skin.png').write_bytes(tiny_png())
    (game / 'actors' / 'bot' / 'bot.cfg').write_text('iqmanim "walk|run" "../bend.iqm" 20\nif 0 [ iqmanim never never.iqm ]\n')
    (folder / 'iqm.cfg').write_text(
        'iqmload mesh.iqm\niqmskin * "<dds>../skin.png"\nexec "actors/bot/bot.cfg"\niqmtag child tag_hand\nmdlscale 50\nragdollbone 0\n'
    )
    for source in (folder, folder / 'iqm.cfg', folder / 'mesh.iqm'):
        model = pq.load(source)
        assert {'walk', 'run', 'bend'} <= set(model.animations), source
        assert model.animations['run'].fps == 20 and len(model.animations['run']) == 3
        found = model.surfaces[0].image_file()
        assert found is not None and Path(found.location).name == 'skin.png'
        assert model.surfaces[0].image().shape == (4, 4, 3)
        np.testing.assert_allclose(model.tag('tag_hand', frame=2)[:3, 3], [5, 0, 0], atol=1e-4)
    with pytest.raises(FileNotFoundError, match='iqm.cfg or md5.cfg'):
        pq.load(tmp_path)


def test_md5_config_with_a_relative_mesh_and_shared_anim_files(bar_md5, tmp_path):
    mesh_path, anim_path = bar_md5
    vwep = tmp_path / 'vwep'
    vwep.mkdir()
    (vwep / 'md5.cfg').write_text('md5load ../bar.md5mesh\nmd5anim "a" ../bend.md5anim 5\nmd5anim "b" ../bend.md5anim 10\n')
    model = pq.load(vwep)
    assert len(model) == 3  # the file is read once, both names play its frames
    assert model.animations['a'].fps == 5 and model.animations['b'].fps == 10
    np.testing.assert_array_equal(model.animations['a'].frames, model.animations['b'].frames)


def test_a_configs_animation_files_are_read_when_their_frames_are_wanted(bar_md5, tmp_path, monkeypatch):
    from pyvista_quake.model import loading

    mesh_path, anim_path = bar_md5
    for name in ('one', 'two', 'three'):
        (tmp_path / f'{name}.md5anim').write_text(anim_path.read_text())
    (tmp_path / 'md5.cfg').write_text(
        'md5load bar.md5mesh\nmd5anim a one.md5anim\nmd5anim b two.md5anim\nmd5anim c three.md5anim\nmd5anim d two.md5anim\n'
    )
    read: list[str] = []
    real = loading._animation_of  # a file's frames decoded: what reading an animation is
    monkeypatch.setattr(loading, '_animation_of', lambda record, location: read.append(Path(location.name).name) or real(record, location))
    model = pq.load(tmp_path)
    assert read == []  # loading reads the config, not its animations
    bent = model.blocks(2)  # the last frame of the first file
    assert read == ['one.md5anim'] and model.frame_name(2) == 'one 2'
    # Names and counts come from the files' headers: no frames read for them.
    assert model.frame_name(3) == 'two 0' and read == ['one.md5anim']
    assert len(model) == 12 and read == ['one.md5anim'] and len(model.animations) >= 4
    model.blocks(3)
    assert read == ['one.md5anim', 'two.md5anim']
    model.positions()
    assert read == ['one.md5anim', 'two.md5anim', 'three.md5anim']  # two.md5anim once, played twice
    fresh = pq.load(tmp_path)
    np.testing.assert_array_equal(bent[0].points, fresh.blocks(2)[0].points)
    np.testing.assert_array_equal(model.positions(range(12)), np.concatenate([fresh.positions(range(3))] * 4))
    assert model.frame_names == [f'{n} {k}' for n in ('one', 'two', 'three', 'two') for k in range(3)]
    assert model.skeletal.joint_poses([11]).shape == (1, 2, 10) and model.frame_name(-1) == 'two 2'
    with pytest.raises(IndexError):
        model.blocks(12)


def test_a_frame_of_a_configs_iqm_animation_opens_its_file_once_and_parses_it_once(tmp_path, monkeypatch):
    from pyvista_quake.model import loading

    (tmp_path / 'mesh.iqm').write_bytes(build_iqm(**static_bar()))
    for name, frames in (('one', 3), ('two', 4), ('three', 2)):
        (tmp_path / f'{name}.iqm').write_bytes(two_joint_iqm(frames))
    (tmp_path / 'iqm.cfg').write_text('iqmload mesh.iqm\niqmanim a one.iqm\niqmanim b two.iqm\niqmanim c three.iqm\n')
    opened: list[str] = []
    parsed: list[str] = []
    real_read, real_parse = loading.read_source, loading.parse_buffer
    monkeypatch.setattr(loading, 'read_source', lambda source, *a: opened.append(Path(source).name) or real_read(source, *a))
    monkeypatch.setattr(loading, 'parse_buffer', lambda buffer, name, spec: parsed.append(Path(name).name) or real_parse(buffer, name, spec))
    model = pq.load(tmp_path, skin=None)
    first = model.blocks(0)  # its run outlined (a frame count, from the header), then read: one file, opened once
    assert opened == ['mesh.iqm', 'one.iqm'] and parsed == ['mesh.iqm', 'one.iqm']
    assert model.frame_name(4) == 'bend 1' and opened[2:] == ['two.iqm'] and parsed[2:] == []  # two.iqm's second: its header only
    fourth = model.blocks(4)  # read from the bytes its outline kept
    assert opened[2:] == ['two.iqm'] and parsed[2:] == ['two.iqm']
    model.blocks(1)  # read before: nothing opened
    assert len(model) == 9 and opened[2:] == ['two.iqm', 'three.iqm'] and parsed[2:] == ['two.iqm']
    model.blocks(7)  # the last file outlined: its bytes kept
    assert opened[2:] == ['two.iqm', 'three.iqm'] and parsed[2:] == ['two.iqm', 'three.iqm']
    timeline = pq.load(tmp_path, skin=None)
    assert len(timeline) == 9 and opened[4:] == ['mesh.iqm', 'one.iqm', 'two.iqm', 'three.iqm'] and parsed[4:] == ['mesh.iqm']
    timeline.blocks(4)  # outlined before another: kept no longer, opened again
    assert opened[8:] == ['two.iqm'] and parsed[5:] == ['two.iqm']
    monkeypatch.undo()
    alone = pq.load(tmp_path / 'mesh.iqm', animations=[tmp_path / 'one.iqm', tmp_path / 'two.iqm'], skin=None)
    np.testing.assert_array_equal(first[0].points, alone.blocks(0)[0].points)
    np.testing.assert_array_equal(fourth[0].points, alone.blocks(4)[0].points)
    np.testing.assert_array_equal(fourth[0].point_data['Normals'], alone.blocks(4)[0].point_data['Normals'])


def test_a_configs_iqm_whose_header_is_sound_and_body_broken_keeps_its_frames_in_the_bind_pose(tmp_path):
    from pyvista_quake.formats import iqm

    (tmp_path / 'mesh.iqm').write_bytes(build_iqm(**static_bar()))
    good = two_joint_iqm(3)
    h = iqm.parse(good).header_fields()
    broken = bytearray(good)
    broken[h['ofs_poses'] + 8 : h['ofs_poses'] + 12] = np.float32(np.inf).tobytes()
    (tmp_path / 'bad.iqm').write_bytes(bytes(broken))
    (tmp_path / 'good.iqm').write_bytes(good)
    (tmp_path / 'iqm.cfg').write_text('iqmload mesh.iqm\niqmanim a bad.iqm\niqmanim b good.iqm\n')
    model = pq.load(tmp_path, skin=None)
    assert len(model) == 6  # the header's three frames counted, as the timeline counted on them
    with pytest.warns(pq.QuakeWarning) as said:
        rest = model.blocks(1)
    assert any('bad.iqm' in str(w.message) and 'could not be loaded' in str(w.message) for w in said)
    assert any('bind pose' in str(w.message) for w in said)
    bind = model.skeletal.bind_pose()
    np.testing.assert_allclose(rest[0].points, bind[0].points, atol=1e-5)
    np.testing.assert_array_equal(
        model.blocks(3)[0].points, pq.load(tmp_path / 'mesh.iqm', animations=[tmp_path / 'good.iqm'], skin=None).blocks(2)[0].points
    )


def test_an_iqm_without_poses_is_no_animation_to_outline_or_read(tmp_path):
    from pyvista_quake.model import loading

    path = tmp_path / 'static.iqm'
    path.write_bytes(build_iqm(**static_bar()))
    mesh = pq.load(path, skin=None).data
    for read in (lambda: loading.read_outline(mesh, path), lambda: loading.read_animation(path)):
        with pytest.raises(pq.QuakeFormatError) as caught:
            read()
        assert (caught.value.field, caught.value.value) == ('num_poses', 0) and 'animates nothing' in str(caught.value)


def test_an_iqm_outline_gives_what_its_parse_gives_and_refuses_what_it_refuses():
    from pyvista_quake.formats import iqm

    for data in (two_joint_iqm(5), two_joint_iqm(3, align=False), two_joint_iqm(4, anims=[('walk', 0, 2, 10.0, 1), ('run', 2, 2, 24.0, 0)])):
        fields, clips = iqm.outline(data, 'x.iqm')
        record = iqm.parse(data, 'x.iqm')
        assert fields == record.header_fields() and clips == iqm.clips_of(record)
    data = two_joint_iqm(4, anims=[('walk', 0, 2, 10.0, 1)])
    h = iqm.parse(data).header_fields()
    broken = bytearray(data)
    broken[h['ofs_anims'] + 4 : h['ofs_anims'] + 8] = (3).to_bytes(4, 'little')  # first_frame 3 of 4, two frames: past the end
    for bad, field in (
        (bytes(broken), 'anims[0].first_frame'),
        (b'INTERQUAKEMODEL\0' + bytes(8), 'header'),
        (data[:16] + (1).to_bytes(4, 'little') + data[20:], 'version'),
        (data[:-1], 'filesize'),
    ):
        for read in (iqm.outline, iqm.parse):
            with pytest.raises(pq.QuakeFormatError, match=field.replace('[', r'\[').replace(']', r'\]')):
                read(bad, 'x.iqm')
    for version, reason in ((1, r'IQM version 1 \(2010\) stores rotations without w'), (3, 'only version 2 exists')):
        for read in (iqm.outline, iqm.parse):
            with pytest.raises(pq.QuakeFormatError, match=reason):
                read(data[:16] + version.to_bytes(4, 'little') + data[20:], 'x.iqm')
            with pytest.raises(pq.QuakeFormatError) as caught:
                read(b'INTERQUAKEMODEX\0' + data[16:], 'x.iqm')
            assert caught.value.field == 'magic' and caught.value.value == b'INTERQUAKEMODEX\0'
    # The text block is the file's last bytes: to its very end it is read, one byte more is refused.
    last = bytearray(data)
    struct.pack_into('<II', last, 28, len(data) - h['ofs_text'], h['ofs_text'])
    assert iqm.outline(bytes(last))[0]['num_text'] == len(data) - h['ofs_text'] and iqm.parse(bytes(last)).text.endswith(data[-1:])
    struct.pack_into('<I', last, 28, len(data) - h['ofs_text'] + 1)
    for read in (iqm.outline, iqm.parse):
        with pytest.raises(pq.QuakeFormatError, match='ofs_text'):
            read(bytes(last))
    poses = bytearray(data)
    poses[h['ofs_poses'] + 8 : h['ofs_poses'] + 12] = np.float32(np.nan).tobytes()  # the body, not the outline
    assert iqm.outline(bytes(poses))[0]['num_frames'] == 4
    with pytest.raises(pq.QuakeFormatError, match='poses.channeloffset'):
        iqm.parse(bytes(poses))


def test_a_broken_or_missing_animation_file_of_a_config_is_left_out_as_cube_2_leaves_it(bar_md5, tmp_path):
    mesh_path, anim_path = bar_md5
    (tmp_path / 'good.md5anim').write_text(anim_path.read_text())
    (tmp_path / 'bad.md5anim').write_text(anim_path.read_text().replace('numFrames 3', 'numFrames x'))
    (tmp_path / 'md5.cfg').write_text(
        'md5load bar.md5mesh\nmd5anim a good.md5anim\nmd5anim b bad.md5anim\nmd5anim c gone.md5anim\nmd5anim d good.md5anim 5\n'
    )
    model = pq.load(tmp_path)
    assert model.blocks(0).n_blocks == 1
    with pytest.warns(pq.QuakeWarning) as said:
        frames = len(model)
    messages = [str(w.message) for w in said]
    assert any('bad.md5anim could not be loaded' in m and 'numFrames' in m for m in messages)
    assert any('gone.md5anim could not be loaded' in m and str(tmp_path / 'md5.cfg') in m for m in messages)
    assert frames == 2 * 3  # the good file's 3 frames twice (named again, played again), the others nothing
    assert {'a', 'd'} <= set(model.animations) and not {'b', 'c'} & set(model.animations)
    (tmp_path / 'md5.cfg').write_text('md5load bar.md5mesh\nmd5anim a good.md5anim\n')
    alone = pq.load(tmp_path)
    np.testing.assert_array_equal(model.positions(), np.concatenate([alone.positions()] * 2))


def test_a_missing_image_warns_once(tmp_path):
    path = tmp_path / 'bar.iqm'
    path.write_bytes(two_joint_iqm())
    model = pq.load(path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        model.blocks(0), model.blocks(1), model.mesh(2)
    missing = [w for w in caught if 'bar.png' in str(w.message)]
    assert len(missing) == 1 and issubclass(missing[0].category, pq.QuakeWarning)
    (tmp_path / 'bar.png').write_bytes(tiny_png())
    assert pq.load(path).surfaces[0].image() is not None


# -- PyVista, export, the rest of the package ----------------------------------------------------


def test_pv_read_without_importing_the_package(tmp_path, bar_md5):
    (tmp_path / 'bar.iqm').write_bytes(two_joint_iqm())
    script = (
        'import pyvista as pv, sys\n'
        f'a = pv.read({str(tmp_path / "bar.iqm")!r}); b = pv.read({str(bar_md5[0])!r})\n'
        f'r = pv.get_reader({str(tmp_path / "bar.iqm")!r})\n'
        "print(type(a).__name__, a[0].n_points, type(b).__name__, b[0].n_points, r.number_time_points, 'pyvista_quake' in sys.modules)"
    )
    out = subprocess.run([sys.executable, '-c', script], capture_output=True, text=True, check=True).stdout.split()
    assert out == ['MultiBlock', '8', 'MultiBlock', '8', '3', 'True']


def test_reader_plays_attached_animations(bar_md5):
    reader = pv.get_reader(str(bar_md5[0]))
    reader.animations = None
    assert reader.number_time_points == 1
    mesh = pv.read(bar_md5[0], animations=[str(bar_md5[1])])
    np.testing.assert_allclose(mesh[0].points, pq.load(bar_md5[0], animations=[bar_md5[1]]).positions(0)[0])


def test_gltf_keeps_the_skeleton_and_skins_to_the_models_frames(tmp_path, bar_md5):
    import pygltflib

    for name, model in (('iqm', pq.load(two_joint_iqm())), ('md5', pq.load(bar_md5[0], animations=[bar_md5[1]]))):
        target = tmp_path / f'{name}.glb'
        pq.export(model, target)
        gltf = pygltflib.GLTF2().load(target)
        assert len(gltf.skins) == 1 and len(gltf.skins[0].joints) == 2
        primitive = gltf.meshes[0].primitives[0]
        assert primitive.attributes.JOINTS_0 is not None and primitive.attributes.WEIGHTS_0 is not None and not primitive.targets
        paths = {c.target.path for a in gltf.animations for c in a.channels}
        assert paths == {'translation', 'rotation'}
        # Skin the glTF with numpy at each key: it must give the model's frames.
        points = _accessor(gltf, primitive.attributes.POSITION)
        joints = _accessor(gltf, primitive.attributes.JOINTS_0).astype(int)
        weights = _accessor(gltf, primitive.attributes.WEIGHTS_0)
        ibm = np.swapaxes(_accessor(gltf, gltf.skins[0].inverseBindMatrices).reshape(-1, 4, 4), 1, 2)
        animation = gltf.animations[0]
        for key in range(len(model)):
            world = _joint_worlds(gltf, animation, key)
            skinned = np.zeros_like(points)
            for k in range(4):
                m = world[joints[:, k]] @ ibm[joints[:, k]]
                skinned += weights[:, k, None] * (np.einsum('vij,vj->vi', m[:, :3, :3], points) + m[:, :3, 3])
            quake = skinned @ np.array([[0, 1, 0], [0, 0, 1], [1, 0, 0]], np.float32)  # back from glTF's axes
            np.testing.assert_allclose(quake, model.positions(key)[0], atol=1e-3, err_msg=f'{name} key {key}')


def _accessor(gltf, index: int) -> np.ndarray:
    import pygltflib

    accessor = gltf.accessors[index]
    view = gltf.bufferViews[accessor.bufferView]
    dtype = {pygltflib.FLOAT: np.float32, pygltflib.UNSIGNED_SHORT: np.uint16}[accessor.componentType]
    width = {'SCALAR': 1, 'VEC2': 2, 'VEC3': 3, 'VEC4': 4, 'MAT4': 16}[accessor.type]
    return np.frombuffer(gltf.binary_blob(), dtype, accessor.count * width, view.byteOffset).reshape(accessor.count, width)


def _joint_worlds(gltf, animation, key: int) -> np.ndarray:
    """Each joint's world matrix at key ``key`` of ``animation`` (channels over the nodes' rest TRS)."""
    nodes = gltf.nodes
    trs = {
        k: [np.array(n.translation or [0, 0, 0]), np.array(n.rotation or [0, 0, 0, 1]), np.array(n.scale or [1, 1, 1])] for k, n in enumerate(nodes)
    }
    for channel in animation.channels:
        values = _accessor(gltf, animation.samplers[channel.sampler].output)
        trs[channel.target.node][{'translation': 0, 'rotation': 1, 'scale': 2}[channel.target.path]] = values[key]
    local = {}
    for k, (t, q, s) in trs.items():
        m = np.eye(4)
        m[:3, :3] = np.array(ref.quat_matrix(*q)) * s
        m[:3, 3] = t
        local[k] = m
    world = {}

    def place(k, parent):
        world[k] = parent @ local[k]
        for child in nodes[k].children:
            place(child, world[k])

    for root in gltf.scenes[0].nodes:
        place(root, np.eye(4))
    return np.array([world[j] for j in gltf.skins[0].joints])


def test_gltf_of_skeletal_models_passes_the_khronos_validator(gltf_validator, tmp_path, bar_md5):
    mesh, anim = two_joint_md5()
    two_roots = mesh.replace('"child" 0 ( 4 0 0 )', '"child" -1 ( 4 0 0 )')
    (tmp_path / 'roots.md5mesh').write_text(two_roots)
    for source in (pq.load(two_joint_iqm()), pq.load(bar_md5[0], animations=[bar_md5[1]]), pq.load(tmp_path / 'roots.md5mesh')):
        target = tmp_path / 'model.glb'
        pq.export(source, target)
        report = validate(gltf_validator, target)
        assert report['numErrors'] == 0, report['messages']


def test_posed_frames_and_series_export(tmp_path):
    model = pq.load(two_joint_iqm())
    pq.export(model, tmp_path / 'bar.ply', frame=2)
    np.testing.assert_allclose(pv.read(tmp_path / 'bar.ply').points, model.positions(2)[0], atol=1e-6)
    pq.export(model, tmp_path / 'bar.pvd')
    series = pv.get_reader(tmp_path / 'bar.pvd')
    assert series.number_time_points == 3
    series.set_active_time_point(2)
    np.testing.assert_allclose(series.read()[0].points, model.positions(2)[0], atol=1e-6)


def test_cli_takes_skeletal_models(tmp_path, bar_md5):
    (tmp_path / 'bar.iqm').write_bytes(two_joint_iqm())
    run = lambda *args: subprocess.run([sys.executable, '-m', 'pyvista_quake', *map(str, args)], capture_output=True, text=True)  # noqa: E731
    info = run('info', tmp_path / 'bar.iqm', '--json')
    assert info.returncode == 0, info.stderr
    assert '"joints": [' in info.stdout and '"format": "iqm"' in info.stdout
    table = run('info', tmp_path / 'bar.iqm').stdout
    assert 'IQM (Inter-Quake Model)' in table and '2: root, child' in table
    check = run('check', bar_md5[0])
    assert check.returncode == 0 and 'doom3' in check.stdout.splitlines()[-1] and 'quake2' not in check.stdout.splitlines()[-1]
    thumb = run('thumbnail', tmp_path / 'bar.iqm', '-o', tmp_path / 'pics')
    assert thumb.returncode == 0, thumb.stderr
    assert (tmp_path / 'pics' / 'bar.png').is_file()


def test_fuzzed_skeletal_files_load_or_raise_quake_format_error():
    rng = np.random.default_rng(30)
    seeds = [two_joint_iqm(), two_joint_iqm(align=False), two_joint_md5()[0].encode(), two_joint_md5()[1].encode()]
    for seed in seeds:
        for _ in range(150):
            data = bytearray(seed)
            for _ in range(int(rng.integers(1, 6))):
                at = int(rng.integers(0, len(data)))
                if seed[:4] == b'INTE':
                    data[at] = int(rng.integers(0, 256))
                else:
                    data[at] = int(rng.choice(list(b'0123456789 -.e(){}"\nx')))
            _one_rule(bytes(data))


def _one_rule(data: bytes) -> None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            model = pq.load(data)
            model.positions(), model.normals(), model.blocks(len(model) - 1), model.skeletal.skeleton()
    except pq.QuakeFormatError as error:
        assert str(error)


# -- the corpus ----------------------------------------------------------------------------------

IQM = CORPUS / 'iqm' / 'redeclipse'
MD5 = CORPUS / 'md5'


@requires_corpus
@pytest.mark.corpus
@pytest.mark.parametrize(
    ('mesh', 'animation'),
    [
        ('john/target/move.iqm', None),
        ('vanities/eye/mesh.iqm', None),
        ('actors/player/male/RE_Player_male.iqm', 'actors/player/idle.iqm'),
    ],
)
def test_real_iqm_models_equal_the_reference_at_every_frame(mesh, animation):
    path = IQM / mesh
    data = path.read_bytes()
    anim = (IQM / animation).read_bytes() if animation else data
    model = pq.load(path, animations=[IQM / animation] if animation else None)
    expected = np.array(ref.iqm_positions(data, ref.iqm_frames(anim)))
    own = ref.iqm_header(data)['num_frames']
    got = model.positions()
    frames = slice(0, own) if not animation else slice(0, len(expected))
    np.testing.assert_allclose(got[frames] if not animation else got, expected, atol=1e-4 * (1 + np.abs(expected).max()))


@requires_corpus
@pytest.mark.corpus
@pytest.mark.parametrize(
    ('mesh', 'animations'),
    [
        ('redeclipse/weapons/grenade/grenade.md5mesh', ['grenade-idle.md5anim', 'grenade-shoot.md5anim']),
        ('unvanquished/models/weapons/rifle/rifle_view.md5mesh', ['rifle_view_fire.md5anim']),
    ],
)
def test_real_md5_models_equal_the_reference_at_every_frame(mesh, animations):
    path = MD5 / mesh
    files = [path.parent / a for a in animations]
    model = pq.load(path, animations=files)
    text = path.read_text('latin-1')
    expected = np.concatenate([np.array(ref.md5_positions(text, f.read_text('latin-1'))) for f in files])
    size = np.ptp(expected.reshape(-1, 3), axis=0).max()
    # Joints turned by 180 degrees: w is the root of a rounding error, and readers differ by up to 0.2% of the size.
    np.testing.assert_allclose(model.positions(), expected, atol=2e-3 * size)
    np.testing.assert_allclose(
        model.skeletal.bind_pose()[0].points, np.array(ref.md5_positions(text))[0][: model.surfaces[0].num_points], atol=2e-3 * size
    )


@requires_corpus
@pytest.mark.corpus
def test_real_configs_give_skins_and_named_animations():
    eye = pq.load(IQM / 'vanities' / 'eye')
    assert {'idle', 'crouch', 'power slide', 'rotate'} <= set(eye.animations)
    assert eye.animations['idle'].fps == 10
    assert Path(eye.surfaces[0].image_file().location).name == 'skin.png'
    target = pq.load(IQM / 'john' / 'target' / 'move.iqm')
    assert target.animations['mapmodel'].fps == 24 and len(target) == 201
    grenade = pq.load(MD5 / 'redeclipse' / 'weapons' / 'grenade' / 'vwep')
    assert set(grenade.animations) >= {'grenade', 'grenade primary', 'grenade secondary', 'grenade reload'}
    assert grenade.animations['grenade primary'].fps == 10 and len(grenade) == 11
    assert Path(grenade.surfaces[0].image_file().location).name == 'diffuse.png'
    assert pq.check(MD5 / 'redeclipse' / 'weapons' / 'grenade' / 'grenade-idle.md5anim')[0].field == 'hierarchy'


@requires_corpus
@pytest.mark.corpus
def test_real_skeletal_gltf_passes_the_validator(gltf_validator, tmp_path):
    for source in (IQM / 'vanities' / 'eye', MD5 / 'redeclipse' / 'weapons' / 'grenade' / 'vwep'):
        pq.export(pq.load(source), tmp_path / 'm.glb')
        report = validate(gltf_validator, tmp_path / 'm.glb')
        assert report['numErrors'] == 0, report['messages']


# -- whole games: batches, archives, the CLI's other commands, the catalogue ------------------------


def _game(tmp_path) -> Path:
    """A game folder with an IQM (and its image), an MD5 with an anim and a config, and an IQM of poses only."""
    game = tmp_path / 'game'
    (game / 'models' / 'bar').mkdir(parents=True)
    (game / 'models' / 'bar' / 'bar.iqm').write_bytes(two_joint_iqm())
    (game / 'models' / 'bar' / 'bar.png').write_bytes(tiny_png())
    mesh, anim = two_joint_md5()
    weapon = game / 'models' / 'weapon'
    weapon.mkdir()
    (weapon / 'w.md5mesh').write_text(mesh.replace('bar.png', 'models/bar/bar.png'))
    (weapon / 'w.md5anim').write_text(anim)
    (weapon / 'md5.cfg').write_text('md5load w.md5mesh\nmd5anim fire w.md5anim 12\n')
    whole = iqm.parse(two_joint_iqm())
    h = whole.header_fields()
    poses = [tuple(p) for p in struct.iter_unpack('<iI10f10f', two_joint_iqm()[h['ofs_poses'] : h['ofs_poses'] + 88 * 2])]
    (game / 'models' / 'bar' / 'walk.iqm').write_bytes(
        build_iqm(poses=[(p[0], p[1], p[2:12], p[12:22]) for p in poses], frames=np.asarray(whole.frames), anims=[('walk', 0, 3, 0.0, 0)])
    )
    return game


def test_a_batch_renders_skeletal_models_and_skips_files_of_poses(tmp_path):
    game = _game(tmp_path)
    report = pq.thumbnails([game], tmp_path / 'thumbs', size=(96, 96), jobs=1)
    made = sorted(p.name for p in (tmp_path / 'thumbs').rglob('*.png'))
    assert made == ['bar.png', 'w.png'], made
    assert len(report.skipped) == 1 and 'walk.iqm' in str(report.skipped[0]) and not report.failed
    picture = np.asarray(Image.open(next((tmp_path / 'thumbs').rglob('bar.png'))).convert('RGB')).astype(int)
    assert (np.abs(picture - picture[0, 0]).sum(axis=2) > 30).sum() > 200  # the bar is drawn


def test_the_md5_config_animation_plays_at_its_rate_from_a_folder_and_in_a_pk3(tmp_path):
    import zipfile

    game = _game(tmp_path)
    model = pq.load(game / 'models' / 'weapon')
    assert model.animations['fire'].fps == 12 and model.surfaces[0].image() is not None  # bar.png from the game root
    pk3 = tmp_path / 'pak0.pk3'
    with zipfile.ZipFile(pk3, 'w') as archive:
        for path in game.rglob('*'):
            if path.is_file():
                archive.write(path, path.relative_to(game).as_posix())
    inside = pq.load(pk3, member='models/bar/bar.iqm')
    assert inside.surfaces[0].image_file().location.endswith('pak0.pk3:models/bar/bar.png')
    np.testing.assert_array_equal(inside.positions(), pq.load(game / 'models' / 'bar' / 'bar.iqm').positions())
    assert type(pv.read(pk3, member='models/weapon/w.md5mesh')) is pv.MultiBlock


def test_cli_sheet_animate_and_convert_take_skeletal_models(tmp_path):
    path = tmp_path / 'bar.iqm'
    path.write_bytes(two_joint_iqm(frames=6))
    (tmp_path / 'bar.png').write_bytes(tiny_png())
    run = lambda *args: subprocess.run([sys.executable, '-m', 'pyvista_quake', *map(str, args)], capture_output=True, text=True)  # noqa: E731
    for args, out in (
        (('sheet', path, tmp_path / 's.png'), 's.png'),
        (('animate', path, tmp_path / 'a.gif', '--interpolate'), 'a.gif'),
        (('convert', path, tmp_path / 'c.glb'), 'c.glb'),
        (('convert', path, tmp_path / 'c.html'), 'c.html'),
        (('convert', path, tmp_path / 'c.md3'), 'c.md3'),
    ):
        result = run(*args)
        assert result.returncode == 0, (args, result.stderr[-1500:])
        assert (tmp_path / out).stat().st_size > 0, out
    with Image.open(tmp_path / 'a.gif') as gif:
        assert gif.n_frames > 1
    assert len(pq.load(tmp_path / 'c.md3')) == 6


def test_a_catalogue_takes_skeletal_models(tmp_path):
    game = _game(tmp_path)
    report = pq.catalogue([game], tmp_path / 'site', size=(96, 96), jobs=1)
    assert sorted(Path(p).name for p in report.made) == ['bar.iqm', 'w.md5mesh', 'walk.iqm'] and not report.failed
    pages = {p.name: p.read_text() for p in (tmp_path / 'site').rglob('*.html') if p.name != 'index.html'}
    bar = next(text for name, text in pages.items() if name.startswith('bar'))
    assert '<th>joints</th><td>2: root, child</td>' in bar and '<th>format</th><td>iqm</td>' in bar
    assert len(list((tmp_path / 'site').rglob('*.png'))) == 2  # the file of poses has no picture


def test_config_start_and_end_offsets_and_a_named_clip_pick_frames_as_cube2(tmp_path):
    assert model_cfg.frames_played(10, 0, 0) == (0, 10)
    assert model_cfg.frames_played(10, 3, 0) == (3, 7)
    assert model_cfg.frames_played(10, 12, 0) == (9, 1)  # past the end: the last frame
    assert model_cfg.frames_played(10, -4, 0) == (6, 4)
    assert model_cfg.frames_played(10, 2, 5) == (2, 5)
    assert model_cfg.frames_played(10, 0, -3) == (0, 7)
    assert model_cfg.frames_played(10, 0, -30) == (0, 1)
    assert model_cfg.frames_played(10, -30, 0) == (0, 10)
    data = bytearray(two_joint_iqm(frames=6))
    # a second animation in the same file: frames 3..5 named 'wave'
    (tmp_path / 'bar.iqm').write_bytes(_with_second_anim(bytes(data)))
    (tmp_path / 'iqm.cfg').write_text(
        'iqmload bar.iqm\niqmanim part bar.iqm 5 0 1 2\niqmanim tail bar.iqm 0 0 -2\niqmanim head bar.iqm 0 0 0 -2\niqmanim hello bar.iqm:wave 8\n'
    )
    model = pq.load(tmp_path)
    assert model.animations['part'].frames.tolist() == [1, 2] and model.animations['part'].fps == 5
    # priority, then the start and end offsets: the last two frames of 'bend', and all but its last two
    assert model.animations['tail'].frames.tolist() == [1, 2] and model.animations['tail'].fps == 10  # rate 0: the file's
    assert model.animations['head'].frames.tolist() == [0]
    assert model.animations['hello'].frames.tolist() == [3, 4, 5] and model.animations['hello'].fps == 8
    # The offsets as the engine's parseint reads them (strtoul, base 0, then a 32-bit int), the rate as parsefloat.
    for args, played in (
        ('10 0 soon', (10.0, 0, 0)),
        ('10 0 010 0x1f', (10.0, 8, 31)),
        ('10 0 08 -3', (10.0, 0, -3)),
        ('10 0 1e300', (10.0, 1, 0)),
        ('10 0 1.5 -2.9', (10.0, 1, -2)),
        ('12.5x 0 4294967295', (12.5, -1, 0)),
        ('0 0 99999999999999999999999', (None, -1, 0)),
        ('0 0 -99999999999999999999999 4294967298', (None, -1, 2)),
        ('.5 0 2147483648 -2147483649', (0.5, -(2**31), 2**31 - 1)),
        ('-3 0 +7', (None, 7, 0)),
    ):
        got = model_cfg.interpret(model_cfg.parse(f'iqmanim a b.iqm {args}'), 'x.cfg', '.', lambda name: None).animations[0][0][0]
        assert (got.fps, got.start, got.end) == played, args
    assert model_cfg.interpret(model_cfg.parse('iqmanim a b.iqm 0x1e'), 'x.cfg', '.', lambda name: None).animations[0][0][0].fps == 30
    for rate in ('nan', '-inf', 'INFINITY'):
        with pytest.warns(UserWarning, match=rf"x.cfg: line 1: iqmanim's frame rate {rate} is no finite number; the file's own rate is used"):
            assert model_cfg.interpret(model_cfg.parse(f'iqmanim a b.iqm {rate}'), 'x.cfg', '.', lambda name: None).animations[0][0][0].fps is None
    with pytest.warns(UserWarning, match=r"x.cfg: line 1: iqmanim's frame rate 1e999 is no finite number; the file's own rate is used"):
        got = model_cfg.interpret(model_cfg.parse('iqmanim a b.iqm 1e999 0 1e999'), 'x.cfg', '.', lambda name: None).animations[0][0][0]
    assert (got.fps, got.start) == (None, 1)  # an OverflowError before


def _with_second_anim(data: bytes) -> bytes:
    """The bar with its animations cut in two: 'bend' frames 0-2, 'wave' frames 3-5 (the name appended to the text)."""
    h = ref.iqm_header(data)
    out = bytearray(data)
    text_end = h['ofs_text'] + h['num_text']
    # Put the new name over the text block's end padding: append a fresh block at the end instead.
    text = bytes(data[h['ofs_text'] : text_end]) + b'wave\0'
    offset = len(out)
    out += text
    anims = out + struct.pack('<3IfI', text.index(b'bend'), 0, 3, 10.0, 1) + struct.pack('<3IfI', len(text) - 5, 3, 3, 10.0, 1)
    struct.pack_into('<2I', anims, 28, len(text), offset)  # num_text, ofs_text
    struct.pack_into('<2I', anims, 84, 2, len(out))  # num_anims, ofs_anims
    struct.pack_into('<I', anims, 20, len(anims))  # filesize
    return bytes(anims)


def test_parallel_thumbnails_of_skeletal_models_are_the_serial_ones(tmp_path):
    game = _game(tmp_path)
    pq.thumbnails([game], tmp_path / 'one', size=(96, 96), jobs=1)
    pq.thumbnails([game], tmp_path / 'two', size=(96, 96), jobs=2)
    serial = sorted((tmp_path / 'one').rglob('*.png'))
    assert len(serial) == 2
    for path in serial:
        twin = tmp_path / 'two' / path.relative_to(tmp_path / 'one')
        np.testing.assert_array_equal(np.asarray(Image.open(path)), np.asarray(Image.open(twin)))


# -- boundaries the mutation sample found untested ------------------------------------------------


def test_quaternions_come_back_from_their_matrices_whichever_diagonal_is_largest():
    from pyvista_quake.data.skinning import quaternion_of
    from pyvista_quake.formats._joints import rotation_matrices

    rng = np.random.default_rng(5)
    turns = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]  # 180 degrees about x, y, z; none
    quaternions = np.concatenate([np.array(turns, float), rng.normal(size=(40, 4))])
    quaternions /= np.linalg.norm(quaternions, axis=1, keepdims=True)
    back = quaternion_of(rotation_matrices(quaternions) * 2.5)  # a scale is divided out
    same = np.minimum(np.abs(back - quaternions).max(axis=1), np.abs(back + quaternions).max(axis=1))
    assert same.max() < 1e-9


def test_an_anim_without_a_version_line_writes_one(bar_md5):
    text = bar_md5[1].read_text().replace('MD5Version 10\n', '')
    record = md5.parse_anim(text.encode())
    assert record.header['MD5Version'] is None
    written = md5.write_anim(record)
    assert written.startswith(b'MD5Version 10\n')
    np.testing.assert_array_equal(md5.parse_anim(written).frames, record.frames)


def test_iqm_meshes_share_vertices_and_a_mesh_may_have_no_triangles():
    bar = static_bar()
    # mesh 'left' holds vertices 0-3, 'right' 4-7 but its first triangle reaches back to 2 and 3; 'none' has no triangle
    bar['meshes'] = [('left', 'bar.png', 0, 4, 0, 2), ('right', 'bar.png', 4, 4, 2, 4), ('none', 'bar.png', 0, 0, 6, 0)]
    model = pq.load(build_iqm(**bar))
    assert model.surface_names == ['left', 'right', 'none']
    assert [s.num_points for s in model.surfaces] == [4, 6, 0]
    right = model.blocks(0)[1]
    assert right.n_cells == 4
    np.testing.assert_allclose(right.points, pq.load(build_iqm(**static_bar())).positions(0)[0][2:8])


def test_config_errors_name_the_line_inside_blocks_too():
    text = 'iqmload a.iqm\nif 0 [\n  iqmskin * no.png\n] [\n  iqmskin * x.png\n\n  iqmdir\n]\niqmanim b c.iqm slow\n'
    commands = model_cfg.parse(text)
    assert [(c.name, c.line) for c in commands] == [('iqmload', 1), ('iqmskin', 5), ('iqmdir', 7), ('iqmanim', 9)]
    with pytest.raises(pq.QuakeFormatError, match=r'x.cfg: line 7 = .iqmdir.'):
        model_cfg.interpret(commands, 'x.cfg', '.', lambda name: None)


def test_check_knows_the_portable_vertex_arrays():
    def findings(**arrays):
        bar = static_bar()
        bar.update(arrays)
        return [f for f in pq.check(build_iqm(**bar)) if f.field == 'vertexarrays.format']

    assert findings() == []
    half_normals = build_iqm(**{**static_bar(), 'normals': None, 'extra_arrays': [(2, 6, 3, np.zeros((8, 3), '<f2').tobytes())]})
    found = [f for f in pq.check(half_normals) if f.field == 'vertexarrays.format']
    assert {f.engine for f in found} == {'iqmdemo', 'cube2'} and found[0].value == '2: format 6 x 3'
    tangents = build_iqm(**{**static_bar(), 'extra_arrays': [(3, 7, 4, np.zeros((8, 4), '<f4').tobytes())]})
    assert [f for f in pq.check(tangents) if f.field == 'vertexarrays.format'] == []


def test_a_model_with_no_animation_poses_and_lights_its_one_frame():
    model = pq.load(build_iqm(**static_bar()))
    assert model.normals().shape == model.positions().shape == (1, 8, 3)
    assert model.normals([0, 0]).shape == (2, 8, 3)
    np.testing.assert_allclose(model.skeletal.skeleton(frame=0).points, model.skeletal.skeleton().points)


def test_md5_index_errors_name_their_own_line(tmp_path):
    mesh, _ = two_joint_md5()
    for old, new in (('tri 3 3 5 4', 'tri 3 3 5 40'), ('"child" 0 (', '"child" 7 (')):
        lines = mesh.splitlines()
        number = next(k for k, line in enumerate(lines, 1) if old in line)
        path = tmp_path / 'bad.md5mesh'
        path.write_text(mesh.replace(old, new))
        with pytest.raises(pq.QuakeFormatError, match=rf'bad.md5mesh: line {number} = '):
            pq.load(path)


def test_iqm_vertex_array_formats_and_sizes_are_checked():
    data = two_joint_iqm()
    h = ref.iqm_header(data)
    for field, value, message in (
        (8, 9, r'vertexarrays\[0\]\.format = 9: no such component format \(0\.\.8\)'),
        (12, 0, r'vertexarrays\[0\]\.size = 0: components per vertex must be 1 to 16'),
        (12, 17, r'vertexarrays\[0\]\.size = 17'),
    ):
        bad = bytearray(data)
        struct.pack_into('<I', bad, h['ofs_vertexarrays'] + field, value)
        with pytest.raises(pq.QuakeFormatError, match=message):
            pq.load(bytes(bad))
    ok = bytearray(data)
    struct.pack_into('<I', ok, h['ofs_vertexarrays'] + 12, 2)  # two position components: z is 0, and the file still reads
    assert pq.load(bytes(ok)).positions().shape == (3, 8, 3)


def test_frames_carry_their_names_and_the_bind_pose_its_own():
    model = pq.load(two_joint_iqm())
    assert [model.frame(k).field_data['frame_name'][0] for k in range(3)] == ['bend 0', 'bend 1', 'bend 2']
    assert model.frame(0).field_data['frame_index'][0] == 0
    assert model.skeletal.bind_pose().field_data['frame_index'][0] == -1


def test_the_package_save_takes_skeletal_models(tmp_path):
    model = pq.load(two_joint_iqm())
    pq.save(model, tmp_path / 'a.iqm')
    assert (tmp_path / 'a.iqm').read_bytes() == two_joint_iqm()
    pq.save(model, tmp_path / 'a.md3')
    assert len(pq.load(tmp_path / 'a.md3')) == 3
    with pytest.raises(ValueError, match='edited frames are saved as an MD3'):
        pq.QuakeModel.from_frames(model.blocks(0), 'iqm')


def test_md5_normals_of_a_closed_mesh_point_out_in_every_axis(tmp_path):
    # A regular octahedron on one joint turned 90 degrees about z, clockwise seen from outside: by symmetry
    # each vertex normal is its direction from the centre, turned with the joint.
    corners = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
    lopsided = [(1.0, 0.2, 0.1), (-2.0, 0.3, -0.2), (0.1, 1.5, 0.4), (0.3, -0.7, 0.2), (0.2, -0.1, 3.0), (-0.4, 0.2, -1.2)]
    faces = [(0, 2, 4), (2, 1, 4), (1, 3, 4), (3, 0, 4), (2, 0, 5), (1, 2, 5), (3, 1, 5), (0, 3, 5)]  # anticlockwise
    tris = [(a, c, b) for a, b, c in faces]  # as the files store them
    verts = [(0.5, 0.5, k, 1) for k in range(6)]
    weights = [(0, 1.0, p) for p in corners]
    s = float(np.sin(np.pi / 4))
    mesh = md5_mesh_text([('j', -1, (0, 0, 0), (0, 0, -s))], [{'shader': 'x', 'verts': verts, 'tris': tris, 'weights': weights}])
    (tmp_path / 'o.md5mesh').write_text(mesh)
    model = pq.load(tmp_path / 'o.md5mesh')
    points, normals = model.positions(0)[0], model.normals(0)[0]
    np.testing.assert_allclose(points[0], [0, 1, 0], atol=1e-6)  # x turned to y
    np.testing.assert_allclose(normals, points / np.linalg.norm(points, axis=1, keepdims=True), atol=1e-6)
    # Lopsided, no symmetry left: the reference's area-weighted normals, triangle by triangle.
    (tmp_path / 'l.md5mesh').write_text(
        md5_mesh_text([('j', -1, (0, 0, 0), (0, 0, 0))], [{'shader': 'x', 'verts': verts, 'tris': tris, 'weights': [(0, 1.0, p) for p in lopsided]}])
    )
    np.testing.assert_allclose(pq.load(tmp_path / 'l.md5mesh').normals(0)[0], ref.vertex_normals(lopsided, tris), atol=1e-6)


def test_a_mesh_without_joints_has_an_empty_skeleton():
    bar = static_bar()
    del bar['joints']
    model = pq.load(build_iqm(**bar))
    assert model.skeletal.joints == [] and model.skeletal.skeleton().n_points == 0 and model.skeletal.skeleton(frame=0).n_points == 0
    np.testing.assert_allclose(model.positions()[0], iqm.parse(build_iqm(**bar)).arrays[0])


@pytest.mark.parametrize('width', [1, 3, 4, 5])
def test_gltf_takes_each_vertex_s_four_largest_weights_summing_to_one(width):
    from pyvista_quake.exporting.export import four_weights

    rng = np.random.default_rng(width)
    weights = rng.random((6, width)).astype(np.float32)
    weights[0] = 0  # no weight at all: joint 0, fully
    joints = rng.integers(1, 9, (6, width)).astype(np.int32)
    top_joints, top = four_weights(joints, weights)
    assert top_joints.shape == top.shape == (6, 4) and top_joints.dtype == np.uint16
    np.testing.assert_allclose(top.sum(axis=1), 1, atol=1e-6)
    assert top_joints[0].tolist() == [0, 0, 0, 0] and top[0].tolist() == [1, 0, 0, 0]
    for v in range(1, 6):
        kept = sorted(weights[v], reverse=True)[:4]
        np.testing.assert_allclose(top[v][: len(kept)], np.array(kept) / sum(kept), atol=1e-6)
        assert (top_joints[v][top[v] == 0] == 0).all()  # unused slots name joint 0


def test_a_header_only_iqm_is_an_empty_model_and_one_byte_less_is_refused():
    header = struct.pack('<16s27I', b'INTERQUAKEMODEL\0', 2, 124, *([0] * 25))
    assert len(header) == 124
    model = pq.load(header)
    assert model.surfaces == [] and model.skeletal.joints == [] and len(model) == 1
    with pytest.raises(pq.QuakeFormatError, match=r'header = 123: file shorter than the 124-byte IQM header'):
        pq.load(header[:123])


def test_an_md5_mesh_with_no_joints(tmp_path):
    text = md5_mesh_text([], [{'shader': 'x', 'verts': [(0, 0, 0, 0)] * 3, 'tris': [(0, 1, 2)], 'weights': []}])
    (tmp_path / 'n.md5mesh').write_text(text)
    model = pq.load(tmp_path / 'n.md5mesh')
    assert model.skeletal.joints == [] and model.skeletal.joint_matrices().shape == (0, 4, 4) and model.skeletal.inverse_bind().shape == (0, 4, 4)
    np.testing.assert_array_equal(model.positions(0)[0], np.zeros((3, 3)))  # no weight: Doom 3's sum of nothing


def test_an_anim_start_index_error_names_its_value(bar_md5, tmp_path):
    bad = tmp_path / 'bad.md5anim'
    bad.write_text(bar_md5[1].read_text().replace('"child" 0 63 0', '"child" 0 63 -1'))
    with pytest.raises(pq.QuakeFormatError, match=r"line \d+ = '-1': startIndex must be 0 to"):
        pq.load(bar_md5[0], animations=[bad])


def test_a_name_just_past_the_text_block_is_refused():
    data = two_joint_iqm()
    h = ref.iqm_header(data)
    at_end, inside = bytearray(data), bytearray(data)
    struct.pack_into('<I', at_end, h['ofs_meshes'], h['num_text'])  # one past the last byte of the text
    struct.pack_into('<I', inside, h['ofs_meshes'], h['num_text'] - 1)  # its last byte, the final zero: the name ''
    with pytest.raises(pq.QuakeFormatError, match=rf'meshes\[0\]\.name = {h["num_text"]}: name offset outside the text block'):
        pq.load(bytes(at_end))
    assert pq.load(bytes(inside)).surface_names == ['']


def test_a_bad_weight_count_names_its_value(tmp_path):
    mesh, _ = two_joint_md5()
    path = tmp_path / 'bad.md5mesh'
    path.write_text(mesh.replace('vert 0 ( 0.0 0.0 ) 0 1', 'vert 0 ( 0.0 0.0 ) 0 -1'))
    assert 'vert 0 ( 0.0 0.0 ) 0 -1' in path.read_text()
    with pytest.raises(pq.QuakeFormatError, match=r"line \d+ = '-1': firstWeight and weightCount must be"):
        pq.load(path)


def test_daemon_shaders_and_dpk_packages_give_an_md5_its_images(tmp_path):
    """Unvanquished: a shader names its image with diffuseMap, outside any stage; packages are .dpk zips."""
    import zipfile

    from pyvista_quake.formats import shader as shader_script

    text = (
        'models/weapons/bar/bar\n{\n\tdiffuseMap models/weapons/bar/bar_d\n\tnormalMap models/weapons/bar/bar_n\n}\n'
        'staged\n{\n\t{\n\t\tdiffuseMap models/x/staged\n\t}\n}\n'
    )
    shaders = shader_script.parse(text)
    assert shaders['models/weapons/bar/bar'].image == 'models/weapons/bar/bar_d' and shaders['staged'].image == 'models/x/staged'
    mesh, _ = two_joint_md5()
    package = tmp_path / 'pkg' / 'res-weapons_0.1.dpk'
    package.parent.mkdir()
    with zipfile.ZipFile(package, 'w') as archive:
        archive.writestr('models/weapons/bar/bar.md5mesh', mesh.replace('bar.png', 'models/weapons/bar/bar'))
        archive.writestr('models/weapons/bar/bar_d.png', tiny_png())
        archive.writestr('scripts/weapon-bar.shader', text)
    model = pq.load(package, member='models/weapons/bar/bar.md5mesh')
    found = model.surfaces[0].image_file()
    assert found is not None and found.location.endswith('res-weapons_0.1.dpk:models/weapons/bar/bar_d.png')
    report = pq.thumbnails([package.parent], tmp_path / 'thumbs', size=(64, 64), jobs=1)
    assert len(report.written) == 1 and not report.failed


def test_a_config_tag_offset_moves_and_turns_the_tag_from_its_joint(tmp_path):
    (tmp_path / 'bar.iqm').write_bytes(two_joint_iqm())
    (tmp_path / 'iqm.cfg').write_text('iqmload bar.iqm\niqmtag child plain\niqmtag child moved 0 1 0 0 0 90\niqmtag nobody lost\niqmtag child\n')
    model = pq.load(tmp_path)
    assert sorted(model.tags) == ['moved', 'plain']  # a tag on no joint is dropped, as the engine drops it; one of no name too
    plain, moved = model.tag('plain', frame=0), model.tag('moved', frame=0)
    np.testing.assert_allclose(plain, [[1, 0, 0, 4], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], atol=1e-6)
    # 1 along the joint's y, then a quarter turn about its z: x goes to y
    np.testing.assert_allclose(moved[:3, 3], [4, 1, 0], atol=1e-6)
    np.testing.assert_allclose(moved[:3, :3] @ [1, 0, 0], [0, 1, 0], atol=1e-6)
    # Offsets as the engine's parsefloat reads them: a word that is no number is 0.
    assert model_cfg.interpret(model_cfg.parse('iqmtag a b 1 up 2.5e1x'), 'x.cfg', '.', lambda name: None).tags == [
        ('a', 'b', (1.0, 0.0, 25.0, 0, 0, 0))
    ]


@pytest.mark.parametrize('prefix', ['', 'packages/models', 'media/model', 'models'])
def test_a_dir_command_finds_the_model_folder_of_each_cube2_engine(tmp_path, prefix):
    root = tmp_path / 'game'
    shared = root / prefix / 'shared' if prefix else root / 'shared'
    shared.mkdir(parents=True)
    (shared / 'bend.iqm').write_bytes(two_joint_iqm())
    folder = root / 'mine'
    folder.mkdir()
    (folder / 'bar.iqm').write_bytes(build_iqm(**static_bar()))
    (folder / 'iqm.cfg').write_text('iqmload bar.iqm\niqmdir shared\niqmanim walk bend.iqm 7\n')
    model = pq.load(folder)
    assert model.animations['walk'].fps == 7 and len(model) == 3


def test_strict_applies_to_the_attached_animations_too(bar_md5, tmp_path):
    roots = tmp_path / 'roots.md5anim'
    roots.write_text(bar_md5[1].read_text().replace('"child" 0 63 0', '"child" -1 63 0'))
    mesh = tmp_path / 'two.md5mesh'
    mesh.write_text(bar_md5[0].read_text().replace('"child" 0 (', '"child" -1 ('))
    assert len(pq.load(mesh, animations=[roots])) == 3  # Cube 2 plays it
    with pytest.raises(pq.QuakeFormatError, match=r'roots.md5anim: hierarchy = 2: Doom 3 .* refuses: more than one root joint'):
        pq.load(mesh, animations=[roots], strict='doom3')
    assert len(pq.load(mesh, animations=[roots], strict='cube2')) == 3


def test_md5_anim_writes_back_every_number_in_its_place(tmp_path):
    rng = np.random.default_rng(7)
    base = [(tuple(rng.uniform(-5, 5, 3).round(6)), tuple(rng.uniform(-0.5, 0.5, 3).round(6))) for _ in range(2)]
    frames = [list(rng.uniform(-1, 1, 12).round(6)) for _ in range(3)]
    text = md5_anim_text([('root', -1, 63, 0), ('child', 0, 63, 6)], base, frames)
    text = text.replace('( -1 -1 -1 ) ( 1 1 1 )', '( -1.5 -2.25 -3.125 ) ( 4.5 5.75 6.875 )')
    record = md5.parse_anim(text.encode())
    back = md5.parse_anim(md5.write_anim(record))
    for field in ('baseframe', 'bounds', 'frames', 'flags', 'start'):
        np.testing.assert_array_equal(getattr(back, field), getattr(record, field), err_msg=field)
    assert back.bounds.shape == (3, 6) and back.bounds[0].tolist() == [-1.5, -2.25, -3.125, 4.5, 5.75, 6.875]


def test_md5_weights_past_the_list_warn_and_keep_what_the_list_holds(tmp_path):
    mesh, _ = two_joint_md5()
    # the last vertex asks for 3 weights from the last one: 2 of them do not exist
    bad = mesh.replace('vert 7 ( 1.0 1.0 ) 9 1', 'vert 7 ( 1.0 1.0 ) 9 3')
    assert bad != mesh
    (tmp_path / 'past.md5mesh').write_text(bad)
    with pytest.warns(pq.QuakeWarning, match=r'vert 7: weights 9\.\.11 run past numweights 10; 1 vertices keep'):
        model = pq.load(tmp_path / 'past.md5mesh')
    np.testing.assert_allclose(model.positions(0)[0], pq.load(two_joint_md5_path(tmp_path)).positions(0)[0], atol=1e-6)


def two_joint_md5_path(tmp_path) -> Path:
    path = tmp_path / 'good.md5mesh'
    path.write_text(two_joint_md5()[0])
    return path


def test_config_commands_without_arguments_and_pose_parents_at_the_limit():
    assert [(c.name, c.args, c.line) for c in model_cfg.parse('mdlcollide\nmdlscale 2')] == [('mdlcollide', (), 1), ('mdlscale', ('2',), 2)]
    data = bytearray(two_joint_iqm())
    h = ref.iqm_header(data)
    struct.pack_into('<i', data, h['ofs_poses'] + 88, 2)  # pose 1's parent: one past the last pose
    with pytest.raises(pq.QuakeFormatError, match=r'poses\[1\]\.parent = 2: no such pose \(0\.\.1\)'):
        pq.load(bytes(data))
    struct.pack_into('<i', data, h['ofs_poses'] + 88, 1)  # the last pose: the mesh's hierarchy is used anyway
    assert len(pq.load(bytes(data))) == 3


def test_joints_that_overflow_float32_are_a_clear_error_not_infinite_points():
    data = bytearray(two_joint_iqm())
    h = ref.iqm_header(data)
    for k in range(2):  # both poses scaled by 1e30: composed, 1e60
        struct.pack_into('<3f', data, h['ofs_poses'] + 88 * k + 8 + 28, 1e30, 1e30, 1e30)
    model = pq.load(bytes(data))
    with pytest.raises(pq.QuakeFormatError, match=r"poses = 'frame 0': the joints' transforms overflow"):
        model.positions()
    with pytest.raises(pq.QuakeFormatError, match='overflow'):
        model.blocks(1)
    with pytest.raises(pq.QuakeFormatError, match=r"poses = 'blended'"):
        model.between(0, 1, 0.5)


def test_a_first_weight_far_past_the_list_loads_with_a_warning_as_doom3_does(tmp_path):
    mesh, _ = two_joint_md5()
    path = tmp_path / 'far.md5mesh'
    path.write_text(mesh.replace('vert 0 ( 0.0 0.0 ) 0 1', 'vert 0 ( 0.0 0.0 ) 1000000 2'))
    with pytest.warns(pq.QuakeWarning, match=r'vert 0: weights 1000000\.\.1000001 run past numweights 10'):
        model = pq.load(path)
    np.testing.assert_array_equal(model.positions(0)[0][0], [0, 0, 0])  # no weight left: the sum of nothing
    assert [(f.engine, f.field, f.value, f.effect) for f in pq.check(path) if f.field == 'firstWeight'] == [('doom3', 'firstWeight', 1, 'warns')]
    np.testing.assert_allclose(model.positions(0)[0][1:], pq.load(two_joint_md5_path(tmp_path)).positions(0)[0][1:], atol=1e-6)


def test_a_pose_file_naming_other_parents_composes_with_the_poses_parent(tmp_path):
    # A chain root -> a -> b along x.  The pose file turns a by 90 degrees about z and names root, not a, as b's parent:
    # the IQM demo and Cube 2 pre-compose b as base[root] . local . inverse_base[b], then chain it below a, as the mesh says.
    s = math.sqrt(0.5)
    joints = [
        ('root', -1, (0, 0, 0), (0, 0, 0, 1), (1, 1, 1)),
        ('a', 0, (4, 0, 0), (0, 0, 0, 1), (1, 1, 1)),
        ('b', 1, (4, 0, 0), (0, 0, 0, 1), (1, 1, 1)),
    ]
    positions = np.array([[8, 0, 0], [8, 1, 0], [9, 0, 0]], np.float32)
    mesh = dict(
        positions=positions,
        texcoords=np.zeros((3, 2), np.float32),
        normals=np.tile([0, 0, 1], (3, 1)).astype(np.float32),
        blend_indexes=np.tile([2, 0, 0, 0], (3, 1)),
        blend_weights=np.tile([255, 0, 0, 0], (3, 1)),
        triangles=[(0, 1, 2)],
        meshes=[('m', 'm.png', 0, 3, 0, 1)],
        joints=joints,
    )
    (tmp_path / 'mesh.iqm').write_bytes(build_iqm(**mesh))
    poses = [
        (-1, 0, [0, 0, 0, 0, 0, 0, 1, 1, 1, 1], [0.0] * 10),
        (0, 0, [4, 0, 0, 0, 0, s, s, 1, 1, 1], [0.0] * 10),
        (0, 0, [4, 0, 0, 0, 0, 0, 1, 1, 1, 1], [0.0] * 10),
    ]
    (tmp_path / 'turn.iqm').write_bytes(build_iqm(poses=poses, frames=np.zeros((1, 0), np.uint16), anims=[('turn', 0, 1, 10.0, 0)]))
    model = pq.load(tmp_path / 'mesh.iqm', animations=[tmp_path / 'turn.iqm'])
    np.testing.assert_allclose(model.positions(0)[0], [[4, 0, 0], [3, 0, 0], [4, 1, 0]], atol=1e-5)
    # Had b been composed with the mesh's parent (a), the tip would sit at (4, 4, 0).
    assert not np.allclose(model.positions(0)[0][0], [4, 4, 0], atol=1e-3)
    np.testing.assert_allclose(model.between(0, 0, 0.5)[0].points, model.positions(0)[0], atol=1e-5)


@pytest.mark.parametrize('parents', [[-1, 0, 1, 1, 0, 4, -1, 6], [-1, 0, 0, 2, 3, 4, 5, 6], [2, -1, 1, 0], [-1], []])
def test_compose_by_depth_is_the_joint_order_product(parents):
    from pyvista_quake.formats._joints import compose  # noqa: PLC0415

    rng = np.random.default_rng(len(parents))
    local = rng.normal(size=(3, len(parents), 4, 4))
    given = local.copy()
    expected = local.copy()
    for j, parent in enumerate(parents):  # one joint at a time, in file order, as the loaders do
        if parent >= 0:
            for f in range(3):
                expected[f, j] = expected[f, parent] @ expected[f, j]
    np.testing.assert_array_equal(compose(local, parents), expected)
    # Again, the skeleton's levels kept from the first call, its parents given as numpy's integers.
    np.testing.assert_array_equal(compose(local, np.asarray(parents, np.int32)), expected)
    np.testing.assert_array_equal(local, given)  # composed into a copy: the caller's matrices stay as they were


def test_a_skeletons_kept_levels_cannot_be_changed_by_their_users():
    from pyvista_quake.formats._joints import _levels  # noqa: PLC0415

    levels = _levels((-1, 0, 1, 0))
    assert [(j.tolist(), p.tolist()) for j, p in levels] == [([1, 3], [0, 0]), ([2], [1])]
    for joints, parents in levels:  # kept for every later pose of the skeleton: a write would change them all
        for array in (joints, parents):
            with pytest.raises(ValueError, match='read-only'):
                array[0] = 0
    assert _levels((1, -1)) is None  # a parent after its child: composed joint by joint


def test_only_an_iqms_adjacency_and_bounds_are_absent_at_offset_0():
    from pyvista_quake.formats import iqm  # noqa: PLC0415

    poses = [(-1, 1, [0.0] * 6 + [1.0] * 4, [1.0] + [0.0] * 9)]
    frames = np.array([[0], [2]], np.uint16)
    boxes = [(-1, -2, -3, 4, 5, 6, 7, 8), (-2, -3, -4, 5, 6, 7, 9, 10)]
    record = iqm.parse(build_iqm(poses=poses, frames=frames, anims=[('go', 0, 2, 10.0, 0)], bounds=boxes))
    assert record.bounds['bbmin'].tolist() == [[-1, -2, -3], [-2, -3, -4]]  # a frame's box each, where the header puts them
    assert record.bounds['radius'].tolist() == [8, 10]
    bare = iqm.parse(build_iqm(poses=poses, frames=frames, anims=[('go', 0, 2, 10.0, 0)]))
    assert len(bare.bounds) == 0 and len(bare.adjacency) == 0  # offset 0: the file has none, whatever num_frames says
    # Any other section at offset 0 is read there (the header's own bytes), as the demo's loader reads it: its
    # anim's name offset is then the magic's bytes, far outside the text block.
    data = bytearray(build_iqm(poses=poses, frames=frames, anims=[('go', 0, 2, 10.0, 0)]))
    header = np.frombuffer(data, iqm.HEADER, 1)
    header['ofs_anims'] = 0
    with pytest.raises(pq.QuakeFormatError, match=r'anims\[0\]\.name'):
        iqm.parse(bytes(data))


def test_an_iqm_name_at_the_end_of_the_text_without_its_nul():
    from pyvista_quake.formats.iqm import _text_at  # noqa: PLC0415

    assert _text_at(b'root\0tip', 5, 'x.iqm', 'name') == 'tip'
    assert _text_at(b'root\0tip\0', 5, 'x.iqm', 'name') == 'tip'
    assert _text_at(b'root\0tip\0', 0, 'x.iqm', 'name') == 'root'


def test_frame_poses_read_a_run_when_its_frames_are_wanted_and_name_frames_out_of_range():
    from pyvista_quake.data.poses import FramePoses
    from pyvista_quake.data.poses import PoseRun
    from pyvista_quake.formats.records import Clip
    from pyvista_quake.formats.records import Joint
    from pyvista_quake.formats.records import SkeletalAnimationData

    def run(count: int, base: float, clips: list) -> tuple[PoseRun, list]:
        read: list[int] = []
        poses = base + np.arange(count * 2 * 10, dtype=np.float64).reshape(count, 2, 10)
        animation = SkeletalAnimationData('x', [Joint('a', -1), Joint('b', 0)], poses, clips, 'matrix')
        return PoseRun([], read=lambda: read.append(1) or animation), read

    one, read_one = run(1, 0.0, [Clip('first', 0, 1, 0.0)])
    two, read_two = run(3, 1000.0, [Clip('go', 0, 1, 0.0), Clip('stop', 2, 1, 0.0)])
    poses = FramePoses([one, two], [-1, 0])
    assert poses[np.array([], np.int64)].shape == (0, 2, 10) and read_one == [1] and read_two == []
    assert poses.has(0) and not read_two
    assert poses[0][0, 0] == 0 and poses[1][0, 0] == 1000 and read_two == [1]
    assert np.asarray(poses, np.float32).dtype == np.float32 and np.asarray(poses).shape == poses.shape == (4, 2, 10)
    assert poses.clip_of(1)[0].name == 'go' and poses.clip_of(2) is None and poses.clip_of(3) == (two.animation.clips[1], 0)
    with pytest.raises(IndexError, match=r'^frame 12 is out of range 0\.\.3$'):
        poses[np.array([0, 2, 12])]
    with pytest.raises(IndexError, match=r'^frame -1 is out of range 0\.\.3$'):
        poses[np.array([-1, 2])]
    with pytest.raises(IndexError, match=r'^frame 4 is out of range'):
        poses[np.array([1, 4])]


def test_an_md5anim_clip_is_named_after_its_file_wherever_it_lies(bar_md5, tmp_path):
    import zipfile

    mesh, anim = bar_md5
    with zipfile.ZipFile(tmp_path / 'pak.pk3', 'w') as pk3:
        pk3.write(anim, 'models/bar/walk.cycle.md5anim')
    inside = pq.load(mesh, animations=[f'{tmp_path / "pak.pk3"}:models/bar/walk.cycle.md5anim'])
    assert list(inside.animations) == ['walk.cycle']
    assert list(pq.load(mesh, animations=[anim.read_bytes()]).animations) == ['anim']  # bytes name nothing


def test_iqm_names_at_many_offsets_are_each_name():
    record = iqm.parse(two_joint_iqm())
    record.text = b'\0root\0caf\xe9\0tail'  # the last name has no terminator: it runs to the block's end
    offsets = [0, 1, 6, 11, 2, 13]
    assert record.names(offsets) == [record.name(k) for k in offsets] == ['', 'root', 'café', 'tail', 'oot', 'il']
    assert record.names([]) == [] and record.names(np.zeros(0, np.uint32)) == []


def test_a_skeleton_composes_its_bind_pose_when_first_read():
    skeleton = iqm.decode(iqm.parse(two_joint_iqm())).skeleton
    assert callable(skeleton._bind)
    bind = skeleton.bind
    assert bind.shape == (2, 4, 4) and skeleton.bind is bind and not callable(skeleton._bind)


#: Numbers in an .md5anim frame of the tests that read long frames.
LONG_FRAME = 258


def _bits(values) -> list[int]:
    return np.asarray(values, np.float64).view(np.int64).tolist()


def test_md5_numbers_read_bit_for_bit_as_float_reads_them():
    rng = np.random.default_rng(5)
    written = [f'{v:.{int(p)}f}'.encode() for v, p in zip(rng.uniform(-2e4, 2e4, 3000), rng.integers(0, 11, 3000))]
    written += [b'-0', b'-0.0', b'+5', b'.5', b'5.', b'-.25', b'0', b'00012', b'9007199254740991', b'0.1234567890123456', b'123456789.0123456']
    written += [repr(float(v)).encode() for v in rng.standard_normal(500)]  # shortest round-trip forms, some with exponents
    written += [b'1e5', b'12345678901234567', b'9007199254740993', b'1_000', b'2.5e-3', b'-1E-300']
    assert _bits(md5.numbers_of(written)) == _bits([float(w) for w in written])
    assert md5.numbers_of([]).shape == (0,)


def _float_or_none(tokens: list[bytes]) -> list[int] | None:
    """What one ``float`` per token makes of them: the bits, or ``None`` if one is refused or not finite."""
    try:
        values = [float(t) for t in tokens]
    except ValueError:
        return None
    return _bits(values) if all(math.isfinite(v) for v in values) else None


@given(st.lists(st.binary(min_size=1, max_size=9).map(lambda b: bytes(b'0123456789.eE+-_in'[c % 18] for c in b)), min_size=1, max_size=12))
@settings(max_examples=400, deadline=None)
def test_md5_numbers_take_and_refuse_what_float_takes_and_refuses(tokens):
    numbers = md5.numbers_of(tokens)
    assert (None if numbers is None else _bits(numbers)) == _float_or_none(tokens)


@pytest.mark.parametrize('bad', [b'-', b'.', b'1-2', b'1.2.3', b'--1', b'x', b'nan', b'inf', b'-inf', b'1e999', b'', b'1 2'])
def test_md5_numbers_of_anything_else_is_none(bad):
    for count in (1, 2, 300):
        assert md5.numbers_of([b'1.5'] * (count - 1) + [bad]) is None


def test_md5_a_long_anim_frame_is_read_at_once_and_a_bad_number_named(bar_md5, tmp_path):
    mesh_path, _ = bar_md5
    components = LONG_FRAME
    values = np.round(np.random.default_rng(1).uniform(-3, 3, (2, components)), 6)
    hierarchy = [('root', -1, 63, 0), ('child', 0, 63, 6)] + [(f'j{k}', 1, 1, 12 + k) for k in range(components - 12)]
    anim = md5_anim_text(hierarchy, [((0, 0, 0), (0, 0, 0))] * len(hierarchy), values.tolist())
    calls = []
    rows = md5.Tokens.rows
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(md5.Tokens, 'rows', lambda self, layout, count, what: (calls.append(what), rows(self, layout, count, what))[1])
        record = md5.parse_anim(anim.encode())
    assert _bits(record.frames) == _bits(values)
    assert not [what for what in calls if what.startswith('frame')]  # each frame read as one row, not token by token
    broken = anim.replace(f'{values[1, 5]}', 'five', 1)
    assert broken != anim
    with pytest.raises(pq.QuakeFormatError, match=r"= 'five': frame 1 line 0: expected a finite number"):
        md5.parse_anim(broken.encode())


def test_md5_strings_and_comments_are_cut_as_the_pattern_cuts_them():
    import random

    rng = random.Random(3)
    pieces = [b'"', b'/', b'*', b'\n', b'a', b' ', b'1', b'//', b'/*', b'*/', b'"x"', b'"a/b"']

    def cut(match):
        return b'<' + match.group(0)[:3] + b'>'

    for _ in range(2000):
        text = b''.join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        assert md5._lexed(text, cut) == md5._LEXED.sub(cut, text), text


def test_md5_rows_of_several_number_columns_keep_their_order():
    tokens = md5.Tokens(b'vert 0 ( 0.5 0.25 ) 3 1\nvert 1 ( 1.5 -2 ) 4 2', 'x')
    index, s, t, first, count = tokens.rows(md5.VERT_ROW, 2, 'vert')
    assert [index.tolist(), s.tolist(), t.tolist(), first.tolist(), count.tolist()] == [[0, 1], [0.5, 1.5], [0.25, -2], [3, 4], [1, 2]]
    assert tokens.done() and [c.tolist() for c in md5.Tokens(b'', 'x').rows(md5.VERT_ROW, 0, 'vert')] == [[]] * 5


def test_normals_of_a_frame_summed_by_place_are_the_sparse_products():
    from pyvista_quake.data import skinning

    rng = np.random.default_rng(2)
    places = rng.normal(size=(12, 3)).astype(np.float32)
    group = rng.integers(0, 12, 40)  # 40 vertices at 12 places: seams everywhere
    positions = np.stack([places[group], places[group] * 2])
    triangles = rng.integers(0, 40, (60, 3))
    triangles[0] = [3, 3, 5]  # corners at one place: the triangle counts once for it
    triangles[1] = [4, 6, 4]
    triangles[2] = [7, 8, 8]
    group[[9, 10]] = group[11]
    triangles[3] = [9, 10, 11]  # all three corners at one place
    # A posed frame moves the vertices of one place apart (their weights differ): such triangles have an area.
    positions = np.stack([places[group], places[group] * 2 + rng.normal(scale=0.1, size=(40, 3)).astype(np.float32)])
    expected = skinning.triangle_normals(positions, triangles, group, skinning.incidence(triangles, 40, group))
    np.testing.assert_array_equal(skinning.triangle_normals(positions, triangles, group), expected)  # the places' matrix made here
    np.testing.assert_allclose(skinning.grouped_normals(positions, triangles, group), expected, atol=2e-6)
    assert skinning.grouped_normals(positions, triangles[:0], group).tolist() == np.zeros((2, 40, 3)).tolist()
    assert skinning.grouped_normals(positions, triangles, None).shape == (2, 40, 3)
    assert skinning.grouped_normals(positions[:, :0], triangles[:0], group[:0]).shape == (2, 0, 3)


def test_md5_an_anim_cut_short_in_a_long_frame_says_the_file_ends(bar_md5):
    components = LONG_FRAME
    hierarchy = [('root', -1, 63, 0), ('child', 0, 63, 6)] + [(f'j{k}', 1, 1, 12 + k) for k in range(components - 12)]
    anim = md5_anim_text(hierarchy, [((0, 0, 0), (0, 0, 0))] * len(hierarchy), [[0.5] * components] * 2)
    cut = anim[: anim.rindex('frame 1 {')] + 'frame 1 {\n' + ' 0.5' * (components - 3)
    with pytest.raises(pq.QuakeFormatError, match='end of file'):
        md5.parse_anim(cut.encode())


def test_sparse_skinning_matrices_hold_each_weight_at_its_place():
    from pyvista_quake.data import skinning
    from pyvista_quake.formats.records import JointWeights
    from pyvista_quake.formats.records import SurfaceData

    joints = np.array([[1, 0, 2], [2, 2, 0], [0, 1, 1]])
    weights = np.array([[0.5, 0.0, 0.5], [1.0, 0.0, 0.0], [0.25, 0.25, 0.5]], np.float32)
    positions = np.arange(9, dtype=np.float32).reshape(3, 3) + 1
    surface = SurfaceData(
        's', np.zeros((0, 3), np.int32), np.zeros((3, 2), np.float32), positions, positions / 10, joint_weights=JointWeights(joints, weights)
    )
    matrices = np.random.default_rng(4).normal(size=(2, 3, 3, 4))
    for normals in (False, True):
        product = skinning._linear(surface, normals, 3)
        expected = np.zeros((2, 3, 3))
        for v in range(3):
            for j, w in zip(joints[v], weights[v]):
                point = positions[v] / 10 if normals else positions[v]
                expected[:, v] += w * (matrices[:, j, :, :3] @ point + (0 if normals else matrices[:, j, :, 3]))
        np.testing.assert_allclose(skinning._apply(product, matrices, 3), expected, rtol=1e-5)
        assert product.shape == (3, 12) and product.nnz == 6 * (3 if normals else 4)  # no entry for a weight of 0


def test_sparse_skinning_in_chunks_of_frames_gives_the_same_frames(monkeypatch):
    from pyvista_quake.data import skinning
    from pyvista_quake.formats.records import JointWeights
    from pyvista_quake.formats.records import SurfaceData

    joints = np.array([[1, 0], [2, 1], [0, 0]])
    weights = np.array([[0.5, 0.5], [0.75, 0.25], [1.0, 0.0]], np.float32)
    positions = np.random.default_rng(8).normal(size=(1, 3, 3)).astype(np.float32)
    surface = SurfaceData('s', np.zeros((0, 3), np.int32), np.zeros((3, 2), np.float32), positions, joint_weights=JointWeights(joints, weights))
    matrices = np.random.default_rng(9).normal(size=(5, 3, 3, 4)).astype(np.float32)
    product = skinning._linear(surface, False, 3)
    whole = skinning._apply(product, matrices, 3)
    blended = (matrices[:, joints] * weights[None, :, :, None, None]).sum(axis=2)  # (frames, vertices, 3, 4)
    np.testing.assert_allclose(whole, np.einsum('fvij,vj->fvi', blended[..., :3], positions[0]) + blended[..., 3], rtol=1e-5, atol=1e-6)
    for chunk in (1, 2, 4, 5):  # chunks that divide the frames, that leave one over, one chunk exactly
        monkeypatch.setattr(skinning, 'FRAMES_PER_CHUNK', chunk)
        np.testing.assert_array_equal(skinning._apply(product, matrices, 3), whole)


def test_sparse_skinning_of_md5_weights_takes_each_weight_s_own_position():
    from pyvista_quake.data import skinning
    from pyvista_quake.formats.records import JointWeights
    from pyvista_quake.formats.records import SurfaceData

    joints = np.array([[1, 0], [2, 2]])
    weights = np.array([[0.75, 0.25], [0.0, 1.0]], np.float32)
    offsets = np.random.default_rng(6).normal(size=(2, 2, 3)).astype(np.float32)
    surface = SurfaceData(
        's',
        np.zeros((0, 3), np.int32),
        np.zeros((2, 2), np.float32),
        np.zeros((2, 3), np.float32),
        joint_weights=JointWeights(joints, weights, offsets),
    )
    matrices = np.random.default_rng(7).normal(size=(1, 3, 3, 4))
    expected = np.zeros((1, 2, 3))
    for v in range(2):
        for k in range(2):
            j, w = joints[v, k], weights[v, k]
            expected[:, v] += w * (matrices[:, j, :, :3] @ offsets[v, k] + matrices[:, j, :, 3])
    np.testing.assert_allclose(skinning._apply(skinning._linear(surface, False, 3), matrices, 2), expected, rtol=1e-5)


@pytest.mark.parametrize('odd', [b'1:5', b'/3', b'3/', b'1,5'])
def test_md5_numbers_with_a_byte_next_to_the_digits_are_refused(odd):
    assert md5.numbers_of([b'1.5'] * 300 + [odd]) is None  # as float() refuses them


def test_whole_animation_normals_share_a_place_s_triangles(bar_md5):
    from pyvista_quake.data import skinning

    model = pq.load(bar_md5[0], animations=[bar_md5[1]])
    engine = model.skeletal._skinning
    surface = model.skeletal.data.surfaces[0]
    group = engine._groups[0]
    assert group is not None and len(np.unique(group)) == surface.num_vertices  # the bar has no seams
    np.testing.assert_array_equal(engine._seams[0].toarray(), skinning.incidence(surface.triangles, surface.num_vertices, group).toarray())
    np.testing.assert_allclose(model.normals()[0], model.blocks(0)[0].point_data['Normals'], atol=1e-6)  # sparse path = a frame's


def test_a_config_finds_its_mesh_from_the_game_root(tmp_path):
    from pyvista_quake.game import model_configs

    folder = tmp_path / 'game' / 'models' / 'a'
    folder.mkdir(parents=True)
    (tmp_path / 'game' / 'models' / 'b').mkdir()
    (tmp_path / 'game' / 'models' / 'b' / 'mesh.iqm').write_bytes(two_joint_iqm())
    (folder / 'iqm.cfg').write_text('iqmload "models/b/mesh.iqm"\n')
    resolved = model_configs.resolve(folder / 'iqm.cfg')
    assert resolved.mesh == (tmp_path / 'game' / 'models' / 'b' / 'mesh.iqm').resolve()


def test_md5_anim_frames_written_out_of_order_land_at_their_numbers():
    components = LONG_FRAME
    hierarchy = [('root', -1, 63, 0), ('child', 0, 63, 6)] + [(f'j{k}', 1, 1, 12 + k) for k in range(components - 12)]
    values = np.arange(3 * components, dtype=np.float64).reshape(3, components) / 4
    text = md5_anim_text(hierarchy, [((0, 0, 0), (0, 0, 0))] * len(hierarchy), values.tolist())
    head, *blocks = text.split('\nframe ')
    reordered = head + ''.join('\nframe ' + blocks[k] for k in (2, 0, 1))
    assert _bits(md5.parse_anim(reordered.encode()).frames) == _bits(values)
    missing = reordered[: reordered.rindex('}')]  # the last frame loses its }
    with pytest.raises(pq.QuakeFormatError, match=r"'end of file': expected '}'"):
        md5.parse_anim(missing.encode())


def test_a_configs_files_are_found_as_before_the_folder_was_listed_once(tmp_path):
    """Plain files come from one listing of their folder; links, subfolders, ``..`` and missing names as the file system finds them."""
    from pyvista_quake.game import model_configs

    root = tmp_path / 'game'
    anims = root / 'actors' / 'shared'
    anims.mkdir(parents=True)
    (anims / 'sub').mkdir()
    for name in ('plain.iqm', 'target.iqm', 'sub/deep.iqm'):
        (anims / name).write_bytes(b'x')
    (anims / 'linked.iqm').symlink_to(anims / 'target.iqm')
    (anims / 'dir.iqm').mkdir()  # a folder named like a file is no file
    (root / 'top.iqm').write_bytes(b'x')  # found from the game's root
    model = root / 'actors' / 'one'
    (model / 'sub').mkdir(parents=True)
    (model / 'sub' / 'deep.iqm').write_bytes(b'x')  # not this one: the iqmdir's folder holds the name
    (model / 'mesh.iqm').write_bytes(two_joint_iqm())
    names = ['plain.iqm', 'linked.iqm', 'sub/deep.iqm', '../shared/plain.iqm', 'dir.iqm', 'gone.iqm', 'top.iqm', 'plain.iqm']
    (model / 'iqm.cfg').write_text('iqmload mesh.iqm\niqmdir "actors/shared"\n' + ''.join(f'iqmanim a{k} "{n}"\n' for k, n in enumerate(names)))
    (model / 'skin.png').write_bytes(b'x')
    (model / 'iqm.cfg').write_text('iqmskin * "skin.jpg"\n' + (model / 'iqm.cfg').read_text())
    resolved = model_configs.resolve(model / 'iqm.cfg')
    assert resolved.skins['*'] == model / 'skin.png'  # another extension, as the engine tries them
    files = [file for _, file in resolved.animations]
    real = anims.resolve()
    assert files == [
        real / 'plain.iqm',
        real / 'target.iqm',
        real / 'sub' / 'deep.iqm',
        real / 'plain.iqm',
        anims / 'dir.iqm',
        anims / 'gone.iqm',
        (root / 'top.iqm').resolve(),
        real / 'plain.iqm',
    ]
    (model / 'iqm.cfg').write_text('iqmload mesh.iqm\niqmdir "actors/nowhere"\niqmanim a "gone.iqm"\n')
    assert model_configs.resolve(model / 'iqm.cfg').animations[0][1] == model / 'actors' / 'nowhere' / 'gone.iqm'  # as named
    (root / 'actors' / 'linked').symlink_to(anims)  # a folder reached through a link: its files by their real paths
    (model / 'iqm.cfg').write_text('iqmload mesh.iqm\niqmdir "actors/linked"\niqmanim a "plain.iqm"\n')
    assert model_configs.resolve(model / 'iqm.cfg').animations[0][1] == real / 'plain.iqm'


def test_places_number_vertices_at_one_position_alike_and_unit_keeps_zero_vectors():
    from pyvista_quake.data import skinning

    positions = np.array([[1, 2, 3], [0, 0, 0], [1, 2, 3], [-0.0, 0, -0.0], [1, 2, 4], [2, 1, 3], [1, 3, 3]], np.float32)
    group = skinning.places(positions)
    assert group.dtype == np.int64 and group[0] == group[2] and group[1] == group[3]  # -0.0 is 0.0
    assert len(set(group[[0, 1, 4, 5, 6]].tolist())) == 5 and sorted(set(group.tolist())) == list(range(5))
    assert group.tolist() == [1, 0, 1, 0, 2, 4, 3]  # numbered in the order of the bits: x, then y, then z
    assert skinning.places(np.zeros((0, 3), np.float32)).shape == (0,)
    tiny = skinning.places(np.array([[1e-8, 0, 0], [2e-8, 0, 0], [1e-8, 0, 0]], np.float32))
    assert tiny[0] == tiny[2] != tiny[1]  # the bits themselves: nearby floats stay apart
    assert len(set(skinning.places(np.array([[1, 5, 0], [-1, 5, 0], [5, 1, 0], [5, -1, 0]], np.float32)).tolist())) == 4  # signs count
    assert skinning.incidence(np.zeros((0, 3), np.int64), 0).shape == (0, 0)
    vectors = np.array([[[3, 0, 4], [0, 0, 0], [-0.0, 0, 0]]], np.float32)
    out = skinning._unit(vectors.copy())
    np.testing.assert_array_equal(out, np.array([[[0.6, 0, 0.8], [0, 0, 0], [0, 0, 0]]], np.float32))
    np.testing.assert_array_equal(np.signbit(out[0, 2]), [True, False, False])
    strided = np.array([[3, 9, 0, 9, 4]], np.float32)[:, ::2][None]  # not contiguous: a unit copy, the input kept
    np.testing.assert_allclose(skinning._unit(strided), [[[0.6, 0, 0.8]]])
    np.testing.assert_array_equal(strided, [[[3, 0, 4]]])


def test_a_configs_frames_are_counted_from_headers_and_a_body_that_breaks_the_count_is_named(bar_md5, tmp_path):
    from pyvista_quake.formats import md5 as md5_format
    from pyvista_quake.model import loading

    mesh_path, anim_path = bar_md5
    text = anim_path.read_text()
    (tmp_path / 'good.md5anim').write_text(text.replace('commandline ""', 'commandline "-hierarchy x"'))
    last = text.rindex('frame ')
    (tmp_path / 'short.md5anim').write_text(text[:last])  # the header promises a frame the body lacks
    (tmp_path / 'md5.cfg').write_text('md5load bar.md5mesh\nmd5anim a good.md5anim\nmd5anim b short.md5anim\n')
    header = md5_format.anim_header((tmp_path / 'good.md5anim').read_bytes())  # "hierarchy" in a string: the whole file read
    assert header['numFrames'] == 3 and header['commandline'] == '-hierarchy x'
    mesh = pq.load(mesh_path).skeletal.data
    count, clips = loading.read_outline(mesh, tmp_path / 'good.md5anim')
    whole = loading.read_animation(tmp_path / 'good.md5anim')
    assert count == whole.num_frames == 3 and clips == whole.clips
    model = pq.load(tmp_path)
    assert len(model) == 6 and model.frame_name(5) == 'short 2'  # counted, nothing read
    with pytest.warns(pq.QuakeWarning, match='short.md5anim'):  # left out as Cube 2 leaves it; its frames show the bind pose
        posed = model.blocks(4)
    np.testing.assert_allclose(posed[0].points, model.skeletal.bind_pose()[0].points, atol=1e-4)
    with pytest.raises(pq.QuakeFormatError, match='frame missing'):
        loading.read_outline(mesh, tmp_path / 'short.md5anim', strict=True)  # strict reads the whole file


@requires_corpus
def test_an_iqm_outline_gives_the_clips_of_the_whole_read_and_a_misfit_is_left_out(tmp_path):
    from pyvista_quake.model import loading

    (tmp_path / 'bar.iqm').write_bytes(two_joint_iqm())
    mesh = pq.load(tmp_path / 'bar.iqm').skeletal.data
    source = CORPUS / 'iqm' / 'redeclipse' / 'john' / 'target' / 'move.iqm'
    with pytest.raises(pq.QuakeFormatError, match='num_poses'):
        loading.read_outline(mesh, source)  # another skeleton's poses
    own = pq.load(source).skeletal.data
    count, clips = loading.read_outline(own, source)
    whole = loading.read_animation(source)
    assert count == whole.num_frames and clips == whole.clips and count > 1
    (tmp_path / 'other.iqm').write_bytes(source.read_bytes())
    (tmp_path / 'iqm.cfg').write_text('iqmload bar.iqm\niqmanim a other.iqm\n')
    model = pq.load(tmp_path)
    with pytest.warns(pq.QuakeWarning, match='other.iqm could not be loaded'):
        assert len(model) == len(pq.load(tmp_path / 'bar.iqm', animations=[]))  # left out: the mesh's own frames alone


def test_a_frame_of_an_iqm_blends_its_joints_once_for_positions_and_normals(monkeypatch):
    from pyvista_quake.data import skinning

    model = pq.load(two_joint_iqm())
    calls: list[int] = []
    real = skinning._blend
    monkeypatch.setattr(skinning, '_blend', lambda surface, matrices: calls.append(1) or real(surface, matrices))
    block = model.blocks(1)[0]
    assert len(calls) == len(model.surfaces) == 1  # the normals took the positions' blend
    np.testing.assert_allclose(block.points, model.positions([1])[0], atol=1e-5)


def test_md5anim_header_counts_are_bounded_by_the_file_and_the_rate_by_2_to_the_30(bar_md5):
    from pyvista_quake.formats import md5 as md5_format

    text = bar_md5[1].read_text()
    tokens = len(md5_format.Tokens(text.encode(), 'x').values)
    with pytest.raises(pq.QuakeFormatError, match=rf'line 1 = {tokens + 1}: numAnimatedComponents must be 0 to {tokens}\b'):
        md5_format.parse_anim(re.sub(r'numAnimatedComponents \d+', f'numAnimatedComponents {tokens + 1}', text).encode())
    head = md5_format.anim_header(re.sub(r'frameRate \d+', f'frameRate {1 << 30}', text).encode())
    assert head['frameRate'] == 1 << 30  # the rate's bound itself is allowed
    with pytest.raises(pq.QuakeFormatError, match=rf'frameRate must be 0 to {1 << 30}\b'):
        md5_format.anim_header(re.sub(r'frameRate \d+', f'frameRate {(1 << 30) + 1}', text).encode())
    for extra in (0, 1):
        padded = re.sub(r'numFrames \d+', 'numFrames NNNNNNNN', text)
        size = len(padded.encode())
        data = padded.replace('NNNNNNNN', f'{size + extra:08d}').encode()  # the same length: the file's bytes bound the count
        if extra:
            with pytest.raises(pq.QuakeFormatError, match=rf'numFrames must be 0 to {tokens}\b'):
                md5_format.anim_header(data)  # past the head's bound: the whole file read, and its tokens bound it
        else:
            assert md5_format.anim_header(data)['numFrames'] == size


def test_an_md5_with_no_animation_places_its_joints_at_the_bind_pose(bar_md5):
    model = pq.load(bar_md5[0], animations=[])
    assert len(model) == 1
    bind = model.data.skeleton.bind
    np.testing.assert_allclose(model.skeletal.joint_matrices(0), bind, atol=1e-6)
    np.testing.assert_allclose(model.skeletal.joint_matrices(None), bind)


def test_a_surface_no_joint_moves_keeps_its_bind_pose_in_every_frame():
    from pyvista_quake.data import skinning
    from pyvista_quake.formats.records import Joint
    from pyvista_quake.formats.records import JointWeights
    from pyvista_quake.formats.records import ModelData
    from pyvista_quake.formats.records import Skeleton
    from pyvista_quake.formats.records import SurfaceData

    bind = np.arange(12, dtype=np.float32).reshape(4, 3)
    still = SurfaceData(
        'still',
        np.zeros((0, 3), np.int32),
        np.zeros((4, 2), np.float32),
        bind,
        bind / 20,
        joint_weights=JointWeights(np.zeros((4, 0), np.int32), np.zeros((4, 0), np.float32)),
    )
    data = ModelData([still], skeleton=Skeleton([Joint('root', -1)], np.eye(4)[None], 'matrix'))
    matrices = np.random.default_rng(3).normal(size=(5, 1, 3, 4)).astype(np.float32)
    engine = skinning.Skinning(data, np.zeros((5, 1, 10)))
    np.testing.assert_array_equal(engine.positions(0, matrices), np.broadcast_to(bind, (5, 4, 3)))
    np.testing.assert_array_equal(
        engine.normals(0, matrices, engine.positions(0, matrices)), skinning._unit(np.broadcast_to(bind / 20, (5, 4, 3)).copy())
    )
    with pytest.raises(ValueError, match='no skeleton'):
        skinning.Skinning(ModelData([still]), np.zeros((5, 1, 10)))
    with pytest.raises(ValueError, match='no joints'):
        skinning.weights_of(SurfaceData('plain', np.zeros((0, 3)), np.zeros((1, 2)), np.zeros((1, 3))))


def test_an_iqm_s_meshes_number_their_own_vertices_and_keep_their_stored_normals():
    positions = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [5, 5, 5], [6, 5, 5], [5, 6, 5]], np.float32)
    normals = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [0.6, 0.8, 0], [0, 0.6, 0.8], [0.8, 0, 0.6]], np.float32)
    data = iqm.decode(
        iqm.parse(
            build_iqm(
                positions=positions,
                texcoords=np.zeros((6, 2), np.float32),
                normals=normals,
                blend_indexes=np.zeros((6, 4), np.uint8),
                blend_weights=np.tile([255, 0, 0, 0], (6, 1)).astype(np.uint8),
                triangles=[(0, 1, 2), (3, 4, 5)],
                meshes=[('a', 'a.png', 0, 3, 0, 1), ('b', 'b.png', 3, 3, 1, 1)],
                joints=[('root', -1, (0, 0, 0), (0, 0, 0, 1), (1, 1, 1))],
            )
        )
    )
    first, second = data.surfaces
    assert first.triangles.tolist() == second.triangles.tolist() == [[0, 1, 2]]  # each mesh's own vertex numbers
    np.testing.assert_array_equal(second.positions[0], positions[3:])
    np.testing.assert_array_equal(second.normals[0], normals[3:])  # as stored, not made from the triangles
    assert repr(data) == f'ModelData(IQM {data.source!r}, 1 joints, 2 meshes, 0 frames)'
    assert data.frame_bounds is None  # its frames are its joints': no stored boxes to make
    bar = iqm.decode(iqm.parse(two_joint_iqm(frames=3)))
    assert repr(bar) == f'ModelData(IQM {bar.source!r}, 2 joints, 1 meshes, 3 frames)'


def test_an_iqm_clip_plays_its_last_frame_for_a_frame_s_time_before_looping(tmp_path):
    (tmp_path / 'bar.iqm').write_bytes(two_joint_iqm(frames=3))
    clip = pq.load(tmp_path / 'bar.iqm').animations['bend']
    assert clip.duration == pytest.approx(3 / 10)  # frames / rate: the demo blends the last into the first (Doom 3: (frames - 1) / rate)
    assert clip.times.tolist() == pytest.approx([0, 0.1, 0.2])


def test_a_stored_zero_normal_stays_zero_in_the_bind_pose():
    positions = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32)
    normals = np.array([[0, 0, 0], [0, 0, 2], [0, 0, 1]], np.float32)
    path = build_iqm(
        positions=positions,
        texcoords=np.zeros((3, 2), np.float32),
        normals=normals,
        blend_indexes=np.zeros((3, 4), np.uint8),
        blend_weights=np.tile([255, 0, 0, 0], (3, 1)).astype(np.uint8),
        triangles=[(0, 1, 2)],
        meshes=[('a', 'a.png', 0, 3, 0, 1)],
        joints=[('root', -1, (0, 0, 0), (0, 0, 0, 1), (1, 1, 1))],
    )
    model = pq.QuakeModel(iqm.decode(iqm.parse(path)))
    shown = model.skeletal.bind_pose()[0].point_data['Normals']
    assert shown.tolist() == [[0, 0, 0], [0, 0, 1], [0, 0, 1]]  # unit lengths, and a zero left zero (not NaN)


@pytest.mark.parametrize(('count', 'duration'), [(1, 1 / 24), (2, 1 / 24), (3, 2 / 24)])
def test_an_md5_clip_ends_at_its_last_frame_as_doom_3_loops_it(bar_md5, tmp_path, count, duration):
    mesh_path, _ = bar_md5
    hierarchy = [('root', -1, 0, 0), ('child', 0, 63, 0)]
    frames = [[4 + 0.5 * k, 0, 0, 0, 0, -np.sin(np.radians(15) * k)] for k in range(count)]
    (tmp_path / 'short.md5anim').write_text(md5_anim_text(hierarchy, [((0, 0, 0), (0, 0, 0)), ((4, 0, 0), (0, 0, 0))], frames))
    clip = pq.load(mesh_path, animations=[tmp_path / 'short.md5anim']).animations['short']
    assert len(clip) == count and clip.duration == pytest.approx(duration)  # one frame: shown for a frame's time


def test_a_config_s_animation_whose_frames_break_after_its_header_shows_the_bind_pose(bar_md5, tmp_path):
    mesh_path, anim_path = bar_md5
    text = anim_path.read_text()
    (tmp_path / 'body.md5anim').write_text(text[: text.rindex('frame 2 {')] + 'frame 2 {\n x y z\n}\n')
    (tmp_path / 'md5.cfg').write_text('md5load bar.md5mesh\nmd5anim b body.md5anim\n')
    model = pq.load(tmp_path)
    assert len(model) == 3  # counted from its header
    with pytest.warns(pq.QuakeWarning, match='body.md5anim could not be loaded') as caught:
        positions = model.positions()
    assert any('the 3 frames its header gives, which the model counted on, show the bind pose' in str(w.message) for w in caught)
    rest = model.skeletal.bind_pose()[0].points
    np.testing.assert_allclose(positions, np.broadcast_to(rest, positions.shape), atol=1e-4)  # the game shows the model still
    assert len(model.animations['b']) == 3


def test_a_run_that_breaks_its_outline_with_no_bind_pose_to_show_is_a_clear_error(bar_md5):
    from pyvista_quake.data.poses import PoseRun

    animation = pq.load(bar_md5[0], animations=[bar_md5[1]]).skeletal._poses.runs[0].loaded()
    run = PoseRun([], read=lambda: animation, outline=lambda: (animation.num_frames + 1, animation.clips))
    assert run.frame_count() == animation.num_frames + 1
    with pytest.raises(pq.QuakeFormatError, match=f'frames = {animation.num_frames}: its header gives {animation.num_frames + 1} frames'):
        run.loaded()
    fine = PoseRun([], read=lambda: animation, outline=lambda: (animation.num_frames, animation.clips), rest=lambda: 1 / 0)
    fine.frame_count()
    assert fine.loaded() is animation  # the frames promised: the bind pose not asked for


def test_the_bind_pose_as_parent_relative_poses_composes_back_to_it():
    from pyvista_quake.data.skinning import rest_locals
    from pyvista_quake.formats._joints import compose
    from pyvista_quake.formats._joints import trs_matrices
    from pyvista_quake.formats.records import Joint
    from pyvista_quake.formats.records import Skeleton

    parents = [-1, 0, 1]
    half = np.sqrt(0.5)
    local = np.array(
        [
            [1, 2, 3, 0, 0, half, half, 1, 1, 1],  # a root moved and turned: its children's locals are not their binds
            [0, 4, 0, half, 0, 0, half, 2, 1, 0.5],  # turned about x and scaled unevenly: columns' lengths, not rows'
            [1, 0, 0, 0, 0, 0, 1, 1, 1, 1],
        ]
    )
    bind = compose(trs_matrices(local), parents)
    skeleton = Skeleton([Joint('a', -1), Joint('b', 0), Joint('c', 1)], bind, 'slerp')
    poses = rest_locals(skeleton)
    np.testing.assert_allclose(compose(trs_matrices(poses), parents), bind, atol=1e-12)
    np.testing.assert_allclose(poses[:, 7:], local[:, 7:], atol=1e-12)
    np.testing.assert_allclose(poses[1, :3], local[1, :3], atol=1e-12)


@pytest.mark.parametrize('grouped', [False, True])
def test_normals_of_many_frames_made_in_chunks_are_each_frame_s_own(monkeypatch, grouped):
    """Frames made together, a chunk at a time, give every frame the bits it has alone (chunks of 2 over 5 frames: a short last one)."""
    from pyvista_quake.data import skinning

    rng = np.random.default_rng(7)
    positions = rng.normal(size=(5, 30, 3)).astype(np.float32)
    triangles = rng.integers(0, 30, (20, 3))
    group = skinning.places(np.round(positions[0], 0)) if grouped else None
    alone = np.concatenate([skinning.triangle_normals(positions[k : k + 1], triangles, group) for k in range(5)])
    # Each frame as one frame's faces make it (the corners' differences from corner 0, summed by place): the same bits.
    touches = skinning.incidence(triangles, 30, group)
    corners = np.ascontiguousarray(triangles.T)
    for k in range(5):
        c = positions[k][corners]  # (corner, triangle, xyz): u = c2 - c0, v = c1 - c0, u x v summed by place
        u, v = c[2] - c[0], c[1] - c[0]
        faces = np.stack([u[:, 1] * v[:, 2] - u[:, 2] * v[:, 1], u[:, 2] * v[:, 0] - u[:, 0] * v[:, 2], u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]], 1)
        summed = touches @ faces
        np.testing.assert_array_equal(alone[k], skinning._unit(summed[group] if grouped else summed))
    monkeypatch.setattr(skinning, 'TRIANGLE_FRAMES_PER_CHUNK', 2 * len(triangles) + 1)  # two frames a chunk
    chunked = skinning.triangle_normals(positions, triangles, group)
    np.testing.assert_array_equal(chunked, alone)
    monkeypatch.setattr(skinning, 'TRIANGLE_FRAMES_PER_CHUNK', 1)  # fewer than a frame's triangles: a frame a chunk
    np.testing.assert_array_equal(skinning.triangle_normals(positions, triangles, group), alone)
    length = np.linalg.norm(chunked, axis=2)
    assert (np.isclose(length, 1, atol=1e-6) | (length == 0)).all() and np.isclose(length, 1, atol=1e-6).mean() > 0.5  # a vertex on no triangle: 0


def test_a_config_skin_not_found_warns_naming_the_image_the_mesh_and_the_config(tmp_path):
    (tmp_path / 'bar.iqm').write_bytes(two_joint_iqm())
    (tmp_path / 'iqm.cfg').write_text('iqmload bar.iqm\niqmskin bar "gone.png"\n')
    model = pq.load(tmp_path)
    with pytest.warns(pq.QuakeWarning, match=r'image gone\.png of mesh bar \(from .*iqm\.cfg\)'):
        assert model.surfaces[0].image_file() is None
    assert model.surfaces[0].image() is None and model.surfaces[0].image_name == 'gone.png'


def test_a_skeletal_model_draws_its_images_opaque_whatever_a_shader_of_their_name_says(tmp_path):
    # The Cube 2 configs' masks are glow and spec maps: an image with alpha is drawn opaque even where a
    # Quake III shader of the same name would blend it (as an MD3's surface is).
    (tmp_path / 'bar.iqm').write_bytes(two_joint_iqm())
    Image.new('RGBA', (4, 4), (255, 0, 0, 128)).save(tmp_path / 'bar.png')
    (tmp_path / 'scripts').mkdir()
    (tmp_path / 'scripts' / 'bar.shader').write_text('bar\n{\n  {\n    map bar.png\n    blendFunc blend\n  }\n}\n')
    model = pq.load(tmp_path / 'bar.iqm', search_paths=[tmp_path])
    assert model.surfaces[0].image_file() is not None and model.surfaces[0].image().shape[2] == 4
    assert model.surfaces[0].alpha == 'opaque'


def test_a_pose_between_frames_is_one_matrix_of_three_rows_a_joint():
    model = pq.load(two_joint_iqm())
    skinning = model.skeletal._skinning
    assert skinning.between(0, 1, 0.5).shape == (1, 2, 3, 4) and skinning.between(0, 1, 0.5).dtype == np.float32
    assert skinning.matrices(np.array([0, 1])).shape == (2, 2, 3, 4)


def test_an_md5anim_of_the_meshs_own_name_is_attached(tmp_path):
    model = pq.load(md5_pair(tmp_path / 'a'))
    assert list(model.animations) == ['Bob'] and len(model) == 3
    assert not np.allclose(model.positions(2), model.positions(0))
    assert len(pq.load(md5_pair(tmp_path / 'a'), animations=[])) == 1  # asked for none: none
    assert len(pq.load(md5_pair(tmp_path / 'b', anim_name='Other'))) == 1  # another name is not its animation


def test_an_md5anim_of_the_meshs_name_in_an_archive_is_attached(tmp_path):
    mesh, anim = two_joint_md5()
    with zipfile.ZipFile(tmp_path / 'pak0.pk3', 'w') as pk3:
        pk3.writestr('models/bob/bob.md5mesh', mesh)
        pk3.writestr('models/bob/bob.md5anim', anim)
        pk3.writestr('models/bob/other.md5mesh', mesh)
    assert list(pq.load(f'{tmp_path / "pak0.pk3"}:models/bob/bob.md5mesh').animations) == ['bob']
    assert len(pq.load(tmp_path / 'pak0.pk3', member='models/bob/other.md5mesh')) == 1
