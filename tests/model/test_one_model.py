"""One model class for every format: QuakeModel, its surfaces, one return type per call, save and conversions."""

from __future__ import annotations

import pickle
import warnings

from builders import build_md3
from builders import tetra_md2
from builders import tetra_md3
from builders import torch_mdl
from builders import two_joint_iqm
import numpy as np
from PIL import Image
import pytest
import pyvista as pv

import pyvista_quake as pq
from pyvista_quake import SurfaceModel
from pyvista_quake.plugin.readers import MD2Reader
from pyvista_quake.plugin.readers import MD3Reader


def skinned_md2(tmp_path, colour=(200, 30, 30)):
    folder = tmp_path / 'models' / 'test'
    folder.mkdir(parents=True, exist_ok=True)
    Image.fromarray(np.full((64, 64, 3), colour, np.uint8)).save(folder / 'skin.png')
    path = folder / 'tris.md2'
    path.write_bytes(tetra_md2(skins=['models/test/skin.png']))
    return path


def one_surface_md3(frames=2) -> bytes:
    base = np.array([[0, 0, 0], [640, 0, 0], [0, 640, 0], [0, 0, 640]])
    xyz = np.stack([base + [0, 0, 64 * f] for f in range(frames)])
    body = dict(
        name='body',
        shaders=['models/test/body.tga'],
        triangles=[[0, 1, 2], [0, 3, 1], [1, 3, 2], [2, 3, 0]],
        st=[[0, 0], [1, 0], [0, 1], [0.5, 0.5]],
        xyz=xyz,
        normal=np.zeros((frames, 4)),
    )
    return build_md3([body], frames=frames)


@pytest.fixture(params=['md2', 'mdl', 'md3'])
def any_model(request):
    return pq.load({'md2': tetra_md2, 'mdl': torch_mdl, 'md3': tetra_md3}[request.param]())


def test_load_gives_one_class_for_every_format(any_model):
    assert type(any_model) is pq.QuakeModel
    assert repr(any_model).startswith('QuakeModel(')


def test_a_model_is_a_list_of_surfaces():
    assert [s.name for s in pq.load(tetra_md3()).surfaces] == ['body', 'flag']
    md2 = pq.load(tetra_md2())
    assert len(md2.surfaces) == 1 and md2.surface_names == ['model']  # bytes have no file name
    assert len(pq.load(torch_mdl()).surfaces) == 1


def test_blocks_and_mesh_are_one_type_for_every_format(any_model):
    with warnings.catch_warnings():
        warnings.simplefilter('error', DeprecationWarning)  # neither call is deprecated
        blocks, mesh = any_model.blocks(0), any_model.mesh(0)
        between = any_model.between(0, len(any_model) - 1, 0.5)
    assert isinstance(blocks, pv.MultiBlock) and blocks.n_blocks == len(any_model.surfaces)
    assert list(blocks.keys()) == any_model.surface_names
    assert isinstance(mesh, pv.PolyData) and isinstance(between, pv.MultiBlock)
    assert mesh.n_points == sum(b.n_points for b in blocks)
    np.testing.assert_array_equal(mesh.points, any_model.positions(0)[0])
    assert any_model.positions().shape == (len(any_model), mesh.n_points, 3)
    assert any_model.normals().shape == any_model.positions().shape


def test_each_surface_slices_the_joined_arrays(any_model):
    joined = any_model.positions()
    parts = [s.positions() for s in any_model.surfaces]
    np.testing.assert_array_equal(np.concatenate(parts, axis=1), joined)
    np.testing.assert_array_equal(np.concatenate([s.normals([1]) for s in any_model.surfaces], axis=1), any_model.normals([1]))
    assert [s.num_points for s in any_model.surfaces] == [p.shape[1] for p in parts]
    assert sum(s.num_triangles for s in any_model.surfaces) == any_model.mesh(0).n_cells
    assert all(s.texcoords.shape == (s.num_points, 2) for s in any_model.surfaces)


def test_an_md3_mesh_joins_its_surfaces_in_order():
    model = pq.load(tetra_md3())
    mesh = model.mesh(1)
    np.testing.assert_array_equal(mesh.cell_data['surface_index'], [0, 0, 0, 0, 1])
    assert mesh.n_cells == 5 and mesh.point_data.active_normals is not None
    np.testing.assert_array_equal(mesh.active_texture_coordinates[:4], model.blocks(1)['body'].active_texture_coordinates)


def test_frame_at_and_pose_of_an_md2_are_its_multiblock_as_for_every_format():
    model = pq.load(tetra_md2())
    with warnings.catch_warnings():
        warnings.simplefilter('error', DeprecationWarning)  # the 0.2 deprecation is done: no warning
        frame, timed, pose = model.frame(1), model.at(0.05), model.pose(0)
    for blocks, mesh in ((frame, model.mesh(1)), (timed, model.mesh(time=0.05)), (pose, model.mesh(0))):
        assert isinstance(blocks, pv.MultiBlock) and blocks.keys() == model.surface_names and len(blocks) == 1
        np.testing.assert_array_equal(blocks[0].points, mesh.points)
    assert timed.field_data['time'].tolist() == [0.05] == timed[0].field_data['time'].tolist()
    assert 'time' not in frame.field_data


def test_frame_of_an_md3_is_its_multiblock_without_warning():
    model = pq.load(tetra_md3())
    with warnings.catch_warnings():
        warnings.simplefilter('error', DeprecationWarning)
        assert isinstance(model.frame(0), pv.MultiBlock) and isinstance(model.at(0.05), pv.MultiBlock)


def test_between_blends_every_format_as_the_engines_do(any_model):
    last = len(any_model) - 1
    ends = [any_model.mesh(0).points, any_model.mesh(last).points]
    half = pq.model.mesh.joined(any_model.between(0, last, 0.5)).points
    np.testing.assert_allclose(half, (ends[0] + ends[1]) / 2, atol=1e-5)
    np.testing.assert_array_equal(pq.model.mesh.joined(any_model.between(0, last, 0.0)).points, ends[0])


def test_mesh_and_blocks_choose_the_pose_like_export():
    model = pq.load(tetra_md2())
    np.testing.assert_array_equal(model.mesh(1, 'stand').points, model.mesh(1).points)
    np.testing.assert_array_equal(model.mesh(0, 'run').points, model.mesh(2).points)
    with pytest.raises(IndexError):
        model.mesh(2, 'stand')
    with pytest.raises(ValueError, match='not both'):
        model.blocks(0, time=0.1)
    assert model.mesh(time=0.05).field_data['time'][0] == 0.05


def test_vertex_positions_bounds_centroids_displacement(any_model):
    vertices = any_model.vertex_positions()
    assert vertices.shape[0] == len(any_model)
    np.testing.assert_allclose(any_model.centroids(), vertices.mean(axis=1), rtol=1e-6)
    moved = any_model.displacement(0, len(any_model) - 1)
    assert isinstance(moved, pv.PolyData)
    np.testing.assert_allclose(moved.point_data['displacement'], any_model.positions(-1)[0] - any_model.positions(0)[0])
    bounds = any_model.bounds()
    assert bounds.shape == (len(any_model), 6)


def test_surface_images(tmp_path):
    model = pq.load(skinned_md2(tmp_path))
    (surface,) = model.surfaces
    assert surface.name == 'tris' and surface.image()[0, 0].tolist() == [200, 30, 30]
    assert surface.image_file().location.endswith('skin.png')
    model.skin = None
    assert surface.image() is None and surface.image_file() is None
    mdl = pq.load(torch_mdl())
    np.testing.assert_array_equal(mdl.surfaces[0].image(), mdl.alias.skin_image(0))


def test_format_extras_hang_off_the_model_and_others_are_clear_errors():
    assert [c.kind for c in pq.load(tetra_md2(glcmds=[('fan', [(0, 0, 0), (0.5, 0, 1), (0, 0.5, 2)])])).alias.gl_commands] == ['fan']
    assert pq.load(torch_mdl()).alias.palette.shape == (256, 3)
    with pytest.raises(AttributeError, match="QuakeModel of an MD3 has no attribute 'palette'"):
        pq.load(tetra_md3()).palette  # noqa: B018


def test_settings_pass_to_the_engine():
    model = pq.load(tetra_md3())
    model.skin = None
    assert model.skin is None and 'skin_location' not in model.blocks(0)['body'].field_data


def test_set_frame_takes_every_form_for_every_format():
    md3 = pq.load(tetra_md3())
    moved = md3.positions(0)[0] + 1.0
    md3.set_frame(1, moved)  # joined points
    np.testing.assert_allclose(md3.positions(1)[0], moved, atol=1 / 64)
    md3.set_frame(0, md3.mesh(1))  # a joined PolyData
    np.testing.assert_array_equal(md3.positions(0), md3.positions(1))
    with pytest.raises(ValueError, match='7 points'):
        md3.set_frame(0, np.zeros((3, 3)))
    md2 = pq.load(tetra_md2())
    md2.set_frame(0, md2.blocks(2))  # a MultiBlock of its one surface
    np.testing.assert_array_equal(md2.positions(0), md2.positions(2))
    md2.add_frames([md2.blocks(1)], names=['extra'])
    assert len(md2) == 4 and md2.frame_names[-1] == 'extra'
    with pytest.raises(ValueError, match='one surface'):
        md2.set_frame(0, md3.blocks(0))


def test_save_of_an_md3_is_byte_for_byte(tmp_path):
    data = tetra_md3()
    pq.save(pq.load(data), tmp_path / 'x.md3')
    assert (tmp_path / 'x.md3').read_bytes() == data
    pq.load(data).save(tmp_path / 'y.md3')
    assert (tmp_path / 'y.md3').read_bytes() == data


@pytest.mark.parametrize('source', ['md2', 'mdl'])
def test_md2_and_mdl_convert_to_md3_every_frame_to_a_64th(tmp_path, source):
    model = pq.load(skinned_md2(tmp_path)) if source == 'md2' else pq.load(torch_mdl())
    target = tmp_path / 'out' / 'conv.md3'
    model.save(target)
    again = pq.load(target)
    assert again.format == 'md3' and len(again) == len(model) and again.frame_names == model.frame_names
    np.testing.assert_allclose(again.positions(), model.positions(), atol=1 / 128 + 1e-6)
    assert again.blocks(0)[0].n_cells == model.mesh(0).n_cells
    assert again.data.surfaces[0].shaders == ['conv.png']
    np.testing.assert_array_equal(again.surfaces[0].image()[..., :3], model.surfaces[0].image()[..., :3])
    np.testing.assert_allclose(again.surfaces[0].texcoords, model.surfaces[0].texcoords, atol=1e-6)


def test_md2_converts_to_md3_through_the_cli(tmp_path):
    from pyvista_quake.cli.main import main

    source = skinned_md2(tmp_path)
    assert main(['convert', str(source), str(tmp_path / 'x.md3')]) == 0
    assert len(pq.load(tmp_path / 'x.md3')) == 3


def test_a_coordinate_an_md3_cannot_hold_is_a_clear_error(tmp_path):
    model = pq.QuakeModel.from_frames(pv.Sphere(radius=600), 'md2')
    with pytest.raises(ValueError, match='outside what an MD3 holds'):
        model.save(tmp_path / 'big.md3')
    assert not (tmp_path / 'big.md3').exists()


def test_an_md3_of_one_surface_converts_to_md2_and_of_two_is_refused(tmp_path):
    one = pq.load(one_surface_md3())
    one.save(tmp_path / 'one.md2')
    back = pq.load(tmp_path / 'one.md2')
    assert len(back) == 2
    np.testing.assert_allclose(back.mesh(1).points, one.mesh(1).points, atol=0.05)
    with pytest.raises(ValueError, match='holds one surface and this MD3 has 2 \\(body, flag\\)'):
        pq.load(tetra_md3()).save(tmp_path / 'two.mdl')
    assert not (tmp_path / 'two.mdl').exists()


def test_from_frames_makes_every_format():
    md3 = pq.QuakeModel.from_frames([pq.load(tetra_md3()).blocks(k) for k in range(2)], 'md3', names=['a1', 'a2'])
    assert md3.format == 'md3' and md3.frame_names == ['a1', 'a2'] and md3.surface_names == ['body', 'flag']
    md2 = pq.QuakeModel.from_frames([md3.blocks(0), md3.blocks(1)], 'md2')  # joined surfaces
    assert md2.format == 'md2' and md2.mesh(0).n_cells == 5


def test_surface_model_is_a_deprecated_alias():
    md3, md2 = pq.load(tetra_md3()), pq.load(tetra_md2())
    assert isinstance(md3, SurfaceModel) and not isinstance(md2, SurfaceModel)
    with pytest.warns(DeprecationWarning, match='QuakeModel'):
        made = SurfaceModel(md3.data)
    assert type(made) is pq.QuakeModel
    with pytest.warns(DeprecationWarning, match="from_frames\\(frames, 'md3'\\)"):
        SurfaceModel.from_frames(md3.blocks(0))
    with pytest.warns(DeprecationWarning, match=r'model.skin_file is deprecated .* use model.skin_definition'):
        assert md3.skin_file is None


def test_models_pickle_for_the_workers(any_model):
    again = pickle.loads(pickle.dumps(any_model))
    assert type(again) is pq.QuakeModel
    np.testing.assert_array_equal(again.positions(), any_model.positions())


def test_readers_give_the_type_their_class_names(tmp_path):
    (tmp_path / 'a.md3').write_bytes(tetra_md3())
    (tmp_path / 'a.md2').write_bytes(tetra_md2())
    assert isinstance(pv.read(tmp_path / 'a.md3'), pv.MultiBlock) and isinstance(pv.read(tmp_path / 'a.md2'), pv.PolyData)
    assert MD3Reader.__orig_bases__[0].__args__ == (pv.MultiBlock,)
    assert MD2Reader.__orig_bases__[0].__args__ == (pv.PolyData,)


def test_what_one_kind_of_format_has_is_a_typed_part_none_on_the_others():
    md2, md3, iqm = pq.load(tetra_md2(skins=['a.png'])), pq.load(tetra_md3()), pq.load(two_joint_iqm())
    assert md2.alias is not None and md2.skeletal is None and md2.alias.skin_names == ['a.png']
    assert md3.alias is None and md3.skeletal is None
    assert iqm.alias is None and iqm.skeletal is not None and [j.name for j in iqm.skeletal.joints] == ['root', 'child']
    assert iqm.skeletal.bind_pose().n_blocks == len(iqm.surfaces)
    with pytest.warns(DeprecationWarning, match=r'model.gl_commands is deprecated .* use model.alias.gl_commands'):
        assert md2.gl_commands == md2.alias.gl_commands
    with pytest.warns(DeprecationWarning, match=r'model.joints is deprecated .* use model.skeletal.joints'):
        assert iqm.joints == iqm.skeletal.joints
    with pytest.warns(DeprecationWarning, match=r'model.image_names is deprecated .* \[s.image_name for s in model.surfaces\]'):
        assert md3.image_names == [s.image_name for s in md3.surfaces]
    with pytest.raises(AttributeError, match='has no attribute'):
        md3.gl_commands  # noqa: B018


def test_a_skeletal_model_is_a_model_of_surfaces_whose_codec_is_its_skeletal_part():
    from pyvista_quake.model.skinned import SkeletalPart

    iqm, md3 = pq.load(two_joint_iqm()), pq.load(tetra_md3())
    assert type(iqm) is type(md3) is pq.QuakeModel  # one class for every codec of surfaces
    assert [c for c in type(iqm).__mro__ if c.__module__.startswith('pyvista_quake')] == [pq.QuakeModel]
    assert isinstance(iqm.skeletal, SkeletalPart)
    # The part's frames are the model's, to the bit.
    for mine, its in zip(iqm._codec.positions_each(None), iqm.skeletal.positions(None)):
        np.testing.assert_array_equal(mine, its)
    assert iqm.frame_names == iqm.skeletal.frame_names and len(iqm) == len(iqm.skeletal)
    # Every edit of vertices is refused first, whatever it is given.
    for edit in (lambda: iqm.set_frame(0, None), lambda: iqm.add_frames([None]), lambda: iqm.remove_frames([0]), lambda: iqm.rename_frame(0, 'x')):
        with pytest.raises(TypeError, match='frames come from its joints'):
            edit()
    with pytest.raises(TypeError, match='belong to skeletal models'):
        pq.QuakeModel(md3.data, config=iqm.skeletal.config or object())
    with pytest.raises(TypeError, match='belong to skeletal models'):
        pq.QuakeModel(md3.data, animations=[object()])
    assert pq.QuakeModel(md3.data, animations=[]).skeletal is None


def test_each_surface_s_frames_are_the_model_s_for_every_codec_and_topology():
    base = np.array([[0, 0, 0, 0], [255, 0, 0, 1], [0, 255, 0, 2], [0, 0, 200, 5], [9, 9, 250, 7]], np.uint8)
    loose = pq.load(tetra_md2(verts=np.stack([base, base // 2, base])))  # vertex 4: no triangle uses it
    commands = [('strip', [(0, 0, 0), (1, 0, 1), (0, 1, 2), (1, 1, 3)]), ('fan', [(0, 0, 0), (1, 0, 3), (1, 1, 1)])]
    gl = pq.load(tetra_md2(glcmds=commands), glcmds=True)  # points of the commands: 7, not the triangles' 5
    assert gl.surfaces[0].num_points == 7
    models = [loose, gl, pq.load(two_joint_iqm()), pq.load(tetra_md3())]
    for model in models:
        offsets = np.concatenate([[0], np.cumsum([s.num_points for s in model.surfaces])])
        for k, surface in enumerate(model.surfaces):
            for frames in (None, [1, 0]):
                np.testing.assert_array_equal(surface.positions(frames), model.positions(frames)[:, offsets[k] : offsets[k + 1]])
                np.testing.assert_array_equal(surface.normals(frames), model.normals(frames)[:, offsets[k] : offsets[k + 1]])
    # An MD2's or MDL's box is its file's vertices', a vertex no triangle uses too (as the file's own bounds are).
    vertices = loose.vertex_positions()
    assert vertices.shape[1] == 5 and loose.positions().shape[1] < 6
    np.testing.assert_array_equal(loose.bounds()[:, 5], vertices[:, 4, 2])


def test_a_skin_set_on_a_model_showing_none_is_shown():
    model = pq.load(torch_mdl(), skin=None)
    assert model.skin is None and model.surfaces[0].image() is None
    model.alias.set_skin(0, np.zeros((8, 8), np.uint8))
    assert model.skin == 0 and model.surfaces[0].image().shape[:2] == (8, 8)
    shown = pq.load(torch_mdl())
    shown.alias.set_skin(1, np.zeros((8, 8), np.uint8))  # a second skin: the first stays shown
    assert shown.skin == 0 and shown.alias.num_skins == 2


def test_each_surface_names_its_image_and_how_its_alpha_is_drawn(tmp_path):
    md2 = pq.load(tetra_md2(skins=['models/x/skin.png']))
    assert md2.surfaces[0].image_name == 'models/x/skin.png' and md2.surfaces[0].alpha == 'opaque'
    md2.skin = None
    assert md2.surfaces[0].image_name is None
    holey = pq.load(torch_mdl(flags=0x4000))  # MF_HOLEY: index 255 is see-through
    assert holey.surfaces[0].alpha == 'cutout' and holey.surfaces[0].image_name is None
    assert pq.load(torch_mdl()).surfaces[0].alpha == 'opaque'


def test_the_old_name_of_the_skinned_frames_warns_and_names_the_new():
    import pyvista_quake.model.skeletal as old
    from pyvista_quake.model.skinned import SkeletalPart

    with pytest.warns(DeprecationWarning, match=r'SkeletalModel is deprecated .*model\.skinned\.SkeletalPart'):
        assert old.SkeletalModel is SkeletalPart
    with pytest.raises(AttributeError, match='no attribute'):
        old.OtherModel  # noqa: B018


def test_a_model_not_yet_holding_its_frames_says_so_without_recursing():
    bare = object.__new__(pq.QuakeModel)  # as unpickling makes it, before its state is set
    with pytest.raises(AttributeError, match='data'):
        bare.data  # noqa: B018
    assert not hasattr(bare, '__array_interface__')


# -- an MD2's and an MDL's record: one surface of packed bytes, and their own part -------------------


@pytest.mark.parametrize('make', [tetra_md2, torch_mdl])
def test_an_md2_s_or_mdl_s_record_is_one_packed_surface_and_its_own_part(make):
    from pyvista_quake.data.decode import surface_normals
    from pyvista_quake.data.decode import surface_positions

    model = pq.load(make())
    data = model.data
    assert isinstance(data, pq.ModelData) and isinstance(data.alias, pq.formats.records.AliasData)
    assert data.frame_bounds is None and data.format == model.format and data.num_frames == len(model)
    (surface,) = data.surfaces
    assert surface.packing.verts is data.alias.frame_verts  # the file's bytes, not a copy
    every = np.arange(len(model))
    np.testing.assert_array_equal(surface_positions(surface, every), model.positions())
    np.testing.assert_array_equal(surface_normals(surface, every), model.normals())
    topology = model.alias.topology  # the model's points are the record's
    np.testing.assert_array_equal(surface.point_vertex, topology.point_vertex)
    np.testing.assert_array_equal(surface.triangles[:, ::-1], topology.triangles)
    uv = topology.texcoords
    np.testing.assert_allclose(surface.texcoords, np.column_stack([uv[:, 0], 1 - uv[:, 1]]), atol=1e-6)
    assert model.alias.topology.texcoords is uv


def test_texel_centres_move_the_texture_coordinates_of_the_record_s_points():
    plain, centred = pq.load(tetra_md2()), pq.load(tetra_md2(), texel_centers=True)
    np.testing.assert_array_equal(plain.alias.topology.point_vertex, centred.alias.topology.point_vertex)
    width, height = plain.alias.skin_size
    np.testing.assert_allclose(
        centred.alias.topology.texcoords - plain.alias.topology.texcoords,
        np.tile([0.5 / width, -0.5 / height], (len(plain.alias.topology.point_vertex), 1)),
        atol=1e-6,
    )


def test_an_md2_s_own_fields_on_its_record_are_deprecated_for_its_part():
    data = pq.load(tetra_md2()).data
    with pytest.deprecated_call(
        match=r'data.frame_verts of an MD2 or MDL is deprecated and changes in pyvista-quake 0.4 \(it goes\); '
        r'use data.alias.frame_verts'
    ) as caught:
        assert data.frame_verts is data.alias.frame_verts
    assert caught[0].filename == __file__  # the user's line
    for name in ('nothing_here', '_frame_verts'):
        with pytest.raises(AttributeError, match=f"'ModelData' object has no attribute '{name}'"):
            getattr(data, name)
    md3 = pq.load(tetra_md3()).data
    with pytest.raises(AttributeError, match='frame_verts'):
        md3.frame_verts  # noqa: B018 - the lookup is the test
    assert pickle.loads(pickle.dumps(data)).alias.num_frames == data.num_frames


def test_an_md2_s_part_alone_still_makes_its_model():
    from pyvista_quake.formats import md2

    part = md2.to_data(md2.parse(tetra_md2()))
    model = pq.QuakeModel(part)
    assert model.data.alias is part and model.format == 'md2'
    np.testing.assert_array_equal(model.positions(), pq.load(tetra_md2()).positions())


def test_a_model_of_no_triangles_has_no_corners_to_order():
    from pyvista_quake.formats._alias import corner_order

    order, starts = corner_order(np.zeros((0, 3), np.int32), np.zeros((0, 3), np.int64), 4)
    assert order.shape == starts.shape == (0,) and starts.dtype == bool


def test_corners_pair_up_as_numpy_s_unique_also_past_the_fast_sort_s_range():
    from pyvista_quake.formats._alias import corner_order
    from pyvista_quake.formats._alias import corner_points

    rng = np.random.default_rng(5)
    for vertices, keys in ((7, 5), (2**31, 2**31)):  # the second's pairs do not fit the bit-packed sort: argsort
        triangle_vertices = rng.integers(0, vertices, (40, 3)) if vertices < 100 else np.array([[0, 2**31 - 1, 5], [5, 0, 2**31 - 1]])
        st_key = rng.integers(0, keys, triangle_vertices.shape) if keys < 100 else np.array([[0, 2**31 - 1, 1], [1, 0, 2**31 - 1]])
        pairs = np.stack([triangle_vertices.ravel(), st_key.ravel()], axis=1)
        expected, inverse = np.unique(pairs, axis=0, return_inverse=True)
        order, starts = corner_order(triangle_vertices, st_key, vertices)
        np.testing.assert_array_equal(pairs[order[starts]], expected)  # one point a pair, in (vertex, key) order
        np.testing.assert_array_equal(corner_points(order, starts).ravel(), inverse.ravel())


@pytest.mark.parametrize(('width', 'expected'), [(0, 0.0), (1, None)])
def test_a_record_s_texture_coordinates_are_skin_pixels_over_its_size(width, expected):
    import dataclasses

    from pyvista_quake.formats import md2
    from pyvista_quake.formats._alias import alias_model

    part = md2.to_data(md2.parse(tetra_md2()))
    with warnings.catch_warnings():
        warnings.simplefilter('error')  # no division by an empty size
        surface = alias_model(dataclasses.replace(part, skin_width=width, skin_height=width)).surfaces[0]
    first = np.empty(surface.num_points, np.int64)
    first[surface.triangles.ravel()] = np.arange(surface.triangles.size)
    st = part.triangle_st.reshape(-1, 2)[first]
    np.testing.assert_array_equal(surface.texcoords, np.full(st.shape, expected, np.float32) if expected is not None else st)


def test_an_md2_keeps_the_images_of_the_skins_it_still_names_across_edits():
    model = pq.load(tetra_md2())
    alias = model.alias
    red, blue = np.full((64, 64, 3), (255, 0, 0), np.uint8), np.full((64, 64, 3), (0, 0, 255), np.uint8)
    alias.set_skin(0, red, name='a.png')
    alias.set_skin(1, blue, name='b.png')
    model.rename_frame(0, 'kept')  # an edit: the data made again, the images of the names it keeps kept
    assert sorted(alias.skins.images) == ['a.png', 'b.png']
    alias.set_skin(0, blue, name='c.png')  # a.png is no longer a skin of the model
    assert sorted(alias.skins.images) == ['b.png', 'c.png']


def test_the_modules_of_the_frames_beneath_the_model_warn_and_name_the_model():
    from pyvista_quake.data.animation import tag_matrix
    import pyvista_quake.model.base as base
    import pyvista_quake.model.frames as frames

    with pytest.warns(DeprecationWarning, match=r'SurfaceFrames is deprecated .* use pyvista_quake.QuakeModel'):
        assert frames.SurfaceFrames is pq.QuakeModel
    with pytest.warns(DeprecationWarning, match=r'ModelFrames is deprecated .* use pyvista_quake.QuakeModel'):
        assert base.ModelFrames is pq.QuakeModel
    with pytest.warns(DeprecationWarning, match=r'base.tag_matrix is deprecated .* pyvista_quake.data.animation.tag_matrix'):
        assert base.tag_matrix is tag_matrix
    for module in (base, frames):
        with pytest.raises(AttributeError, match='no attribute'):
            module.Other  # noqa: B018


def test_a_part_s_extra_the_old_way_warns_on_every_format_that_has_it():
    md2, mdl = pq.load(tetra_md2(skins=['a.png'])), pq.load(torch_mdl())
    with pytest.warns(DeprecationWarning, match=r'model.skin_names is deprecated .* use model.alias.skin_names'):
        assert md2.skin_names == ['a.png']
    with pytest.warns(DeprecationWarning, match=r'model.skin_file is deprecated .* use model.alias.skin_file'):
        assert md2.skin_file == md2.alias.skin_file
    with pytest.raises(AttributeError, match='skin_file'):
        pq.load(two_joint_iqm()).skin_file  # noqa: B018
    with pytest.warns(DeprecationWarning, match=r'model.surface_alpha is deprecated .* model.surfaces\[k\].alpha'):
        assert mdl.surface_alpha(0) == mdl.surfaces[0].alpha
    assert 'palette' in vars(pq.QuakeModel) and '__getattr__' not in vars(pq.QuakeModel)  # named on the class, none looked up
