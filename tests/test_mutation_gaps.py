"""Tests for the gaps a mutation sample of the package found (issue 28, item 24): each at a boundary."""

from __future__ import annotations

from builders import build_md2
from builders import tetra_md2
from builders import torch_mdl
import numpy as np
from PIL import Image
import pygltflib
import pytest
import pyvista as pv

import pyvista_quake as pq
from pyvista_quake.formats.tables import VERTEX_NORMALS
from pyvista_quake.render.plotting import add_model


def test_a_skin_index_counts_from_either_end_and_no_further():
    model = pq.load(tetra_md2(skins=['a.png', 'b.png', 'c.png']))
    count = model.alias.num_skins
    model.skin = -count  # the first, from the end
    assert model.skin == 0
    model.skin = count - 1
    assert model.skin == count - 1
    for outside in (count, -count - 1):
        with pytest.raises(IndexError, match=f'skin {outside} out of range'):
            model.skin = outside


def test_a_frame_group_may_end_at_the_last_frame_and_not_past_it(tmp_path):
    model = pq.load(torch_mdl())  # two frames, one group of both
    model.alias.set_frame_groups([(1, 1, [0.1])])  # ends exactly at the last frame
    model.save(tmp_path / 'ok.mdl')
    assert [(g.start, g.count) for g in pq.load(tmp_path / 'ok.mdl').data.alias.frame_groups] == [(1, 1)]
    with pytest.raises(ValueError, match=r'frame group 0 \(1, 2\) does not fit'):
        model.alias.set_frame_groups([(1, 2, [0.1, 0.2])])  # one past it
        model.save(tmp_path / 'bad.mdl')


def test_converting_clamps_light_indexes_past_the_table_to_its_last_entry(tmp_path):
    verts = np.array([[[0, 0, 0, 161], [255, 0, 0, 162], [0, 255, 0, 255]]], np.uint8)
    data = build_md2(verts, [[0, 1, 2]], [[0, 1, 2]], [[0, 0], [32, 0], [0, 32]])
    pq.load(data).save(tmp_path / 'x.mdl')
    converted = pq.load(tmp_path / 'x.mdl')
    assert converted.data.alias.frame_verts[0, :, 3].tolist() == [161, 161, 161]
    np.testing.assert_allclose(converted.mesh(0).point_data['Normals'][0], VERTEX_NORMALS[161], atol=1e-6)


def accessor(gltf: pygltflib.GLTF2, index: int) -> np.ndarray:
    view = gltf.bufferViews[gltf.accessors[index].bufferView]
    blob = gltf.binary_blob()
    return np.frombuffer(blob[view.byteOffset or 0 : (view.byteOffset or 0) + view.byteLength], np.float32)


def test_each_morph_target_weighs_exactly_one_at_its_own_key_frame(tmp_path):
    model = pq.load(tetra_md2())
    pq.export(model, tmp_path / 'm.glb')
    gltf = pygltflib.GLTF2().load(str(tmp_path / 'm.glb'))
    for animation in gltf.animations:
        sampler = animation.samplers[0]
        times = accessor(gltf, sampler.input)
        weights = accessor(gltf, sampler.output).reshape(len(times), -1)
        clip = model.animations[animation.name]
        for k, frame in enumerate(clip.frames):
            assert weights[k, frame] == 1.0 and weights[k].sum() == 1.0


def textured_triangle() -> pv.PolyData:
    mesh = pv.Triangle()
    mesh.active_texture_coordinates = np.array([[0, 0], [1, 0], [0, 1]], np.float32)
    return mesh


@pytest.mark.parametrize(('alpha', 'channels', 'forced'), [(255, 3, False), (0, 4, True)])
def test_an_rgba_skin_with_cut_out_texels_is_drawn_as_a_mask_and_an_opaque_one_as_rgb(alpha, channels, forced):
    skin = np.full((4, 4, 4), 200, np.uint8)
    skin[:2, :, 3] = alpha  # alpha 0: half the texels cut out
    skin[2:, :, 3] = 255
    plotter = pv.Plotter(off_screen=True)
    actor = add_model(plotter, textured_triangle(), skin)
    texture = actor.texture.to_image()
    assert texture.point_data.active_scalars.shape[1] == channels
    assert bool(actor.GetForceOpaque()) is forced
    plotter.close()


def test_a_frame_drawn_by_scalars_without_its_skin_is_not_painted_tan(tmp_path):
    mesh = pq.load(tetra_md2()).mesh(0)
    pq.plot(mesh, skin=None, scalars='vertex_index', cmap='viridis', off_screen=True, screenshot=str(tmp_path / 'd.png'), window_size=(96, 96))
    pq.plot(mesh, skin=None, off_screen=True, screenshot=str(tmp_path / 't.png'), window_size=(96, 96))
    data, tan = (np.asarray(Image.open(tmp_path / n).convert('RGB')).reshape(-1, 3) for n in ('d.png', 't.png'))
    colours = lambda image: {tuple(c) for c in image[(image != image[0]).any(axis=1)] // 32}  # noqa: E731
    assert len(colours(data)) > len(colours(tan))  # the scalars' colour map, not one colour
