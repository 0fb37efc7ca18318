"""Export: each format reread by PyVista, meshio or the Khronos validator, compared with the model."""

from __future__ import annotations

import io
from pathlib import Path
import warnings

from builders import tetra_md2
from builders import tetra_md3
from builders import torch_mdl
from builders import two_joint_iqm
from conftest import CORPUS
from conftest import requires_corpus
from conftest import validate
from game_folders import accessor_data
import meshio
import numpy as np
from PIL import Image
import pygltflib
import pytest
import pyvista as pv

import pyvista_quake as pq
from pyvista_quake.examples import synthetic_player
from pyvista_quake.exporting.gltf import QUAKE_TO_GLTF

PICTURE = (np.arange(64, dtype=np.uint8).reshape(8, 8) * 3) % 224  # no fullbright colours


@pytest.fixture
def torch() -> pq.QuakeModel:
    return pq.load(torch_mdl(skins=[PICTURE]))


def corner_positions(points, triangles) -> np.ndarray:
    """Triangles as sorted rows of their corners' coordinates: comparable whatever the point order."""
    corners = np.asarray(points)[np.asarray(triangles)].reshape(len(triangles), 9)
    return corners[np.lexsort(corners.T[::-1])]


def test_vtp_keeps_everything_and_the_skin(torch, tmp_path):
    pq.export(torch, tmp_path / 'torch.vtp', frame=1)
    mesh = pv.read(tmp_path / 'torch.vtp')
    expected = torch.mesh(1)
    np.testing.assert_array_equal(mesh.points, expected.points)
    np.testing.assert_array_equal(mesh.point_data['Normals'], expected.point_data['Normals'])
    np.testing.assert_array_equal(mesh.active_texture_coordinates, expected.active_texture_coordinates)
    assert mesh.quake.frame_name == 'torch2'
    np.testing.assert_array_equal(mesh.quake.image(), torch.alias.skin_image())


@pytest.mark.parametrize('suffix', ['.vtk', '.vtu'])
def test_legacy_and_unstructured_keep_field_data(torch, tmp_path, suffix):
    pq.export(torch, tmp_path / f'torch{suffix}')
    mesh = pv.read(tmp_path / f'torch{suffix}')
    np.testing.assert_allclose(mesh.points, torch.mesh(0).points)
    assert str(mesh.field_data['frame_name'][0]) == 'torch1'
    np.testing.assert_array_equal(mesh.quake.image(), torch.alias.skin_image())


def test_ply_keeps_normals_texcoords_and_names_its_skin(torch, tmp_path):
    pq.export(torch, tmp_path / 'torch.ply')
    header = (tmp_path / 'torch.ply').read_bytes().split(b'end_header')[0]
    assert b'comment TextureFile torch.png' in header
    assert b'property float nx' in header and b'property float u' in header
    mesh = pv.read(tmp_path / 'torch.ply')
    expected = torch.mesh(0)
    np.testing.assert_allclose(mesh.points, expected.points)
    np.testing.assert_allclose(mesh.point_data['Normals'], expected.point_data['Normals'], atol=1e-6)
    np.testing.assert_allclose(mesh.active_texture_coordinates, expected.active_texture_coordinates)
    np.testing.assert_array_equal(np.asarray(Image.open(tmp_path / 'torch.png')), torch.alias.skin_image())


def test_obj_with_mtl_and_png(torch, tmp_path):
    pq.export(torch, tmp_path / 'torch.obj', frame=1)
    text = (tmp_path / 'torch.obj').read_text()
    assert 'mtllib torch.mtl' in text
    assert 'map_Kd torch.png' in (tmp_path / 'torch.mtl').read_text()
    np.testing.assert_array_equal(np.asarray(Image.open(tmp_path / 'torch.png')), torch.alias.skin_image())
    mesh = pv.read(tmp_path / 'torch.obj')
    expected = torch.mesh(1)
    assert mesh.n_cells == expected.n_cells
    np.testing.assert_allclose(
        corner_positions(mesh.points, mesh.regular_faces), corner_positions(expected.points, expected.regular_faces), atol=1e-5
    )
    uv = {tuple(np.round(p, 4)) for p in mesh.active_texture_coordinates}
    assert uv == {tuple(np.round(p, 4)) for p in expected.active_texture_coordinates}


@pytest.mark.parametrize('binary', [True, False])
def test_stl_triangles(torch, tmp_path, binary):
    pq.export(torch, tmp_path / 'torch.stl', binary=binary)
    data = (tmp_path / 'torch.stl').read_bytes()
    assert data.startswith(b'solid') != binary
    mesh = pv.read(tmp_path / 'torch.stl')
    expected = torch.mesh(0)
    np.testing.assert_allclose(
        corner_positions(mesh.points, mesh.regular_faces), corner_positions(expected.points, expected.regular_faces), atol=1e-5
    )


@pytest.mark.parametrize('suffix', ['.off', '.msh', '.mesh'])
def test_meshio_formats_reread_by_meshio(torch, tmp_path, suffix):
    pq.export(torch, tmp_path / f'torch{suffix}')
    read = meshio.read(tmp_path / f'torch{suffix}')
    expected = torch.mesh(0)
    triangles = read.cells_dict['triangle']
    np.testing.assert_allclose(corner_positions(read.points, triangles), corner_positions(expected.points, expected.regular_faces), atol=1e-5)


def test_quake_formats_through_the_writers(torch, tmp_path):
    pq.export(torch, tmp_path / 'same.mdl')
    assert (tmp_path / 'same.mdl').read_bytes() == torch_mdl(skins=[PICTURE])
    pq.export(torch, tmp_path / 'one.md2', frame=1)
    one = pq.load(tmp_path / 'one.md2')
    assert len(one) == 1 and one.frame_names == ['torch2']


def test_pvd_series_with_the_animation_times(tmp_path):
    model = pq.load(tetra_md2())
    pq.export(model, tmp_path / 'stand.pvd', animation='stand')
    reader = pv.get_reader(tmp_path / 'stand.pvd')
    clip = model.animations['stand']
    np.testing.assert_allclose(reader.time_values, clip.times)
    for k, t in enumerate(reader.time_values):
        reader.set_active_time_value(t)
        np.testing.assert_array_equal(reader.read()[0].points, model.mesh(int(clip.frames[k])).points)
    assert sorted(p.name for p in (tmp_path / 'stand').iterdir()) == ['stand_0000.vtp', 'stand_0001.vtp']


def test_pvd_of_every_frame_and_mdl_group_times(torch, tmp_path):
    pq.export(torch, tmp_path / 'all.pvd')
    reader = pv.get_reader(tmp_path / 'all.pvd')
    np.testing.assert_allclose(reader.time_values, torch.times)


def test_xdmf_time_series(tmp_path):
    model = pq.load(tetra_md2())
    pq.export(model, tmp_path / 'all.xdmf')
    with meshio.xdmf.TimeSeriesReader(tmp_path / 'all.xdmf') as reader:
        points, cells = reader.read_points_cells()
        np.testing.assert_allclose(points, model.positions(0)[0])
        assert reader.num_steps == len(model)
        for k in range(reader.num_steps):
            t, point_data, _ = reader.read_data(k)
            assert t == pytest.approx(model.times[k])
            np.testing.assert_allclose(point_data['positions'], model.positions(k)[0])
            np.testing.assert_allclose(point_data['displacement'], model.positions(k)[0] - points, atol=1e-6)


def test_meshio_reads_and_writes_quake_models(torch, tmp_path):
    path = tmp_path / 'torch.mdl'
    torch.save(path)
    mesh = meshio.read(path)
    expected = torch.mesh(0)
    np.testing.assert_array_equal(mesh.points, expected.points)
    np.testing.assert_array_equal(mesh.point_data['Normals'], expected.point_data['Normals'])
    np.testing.assert_array_equal(mesh.point_data['TextureCoordinates'], expected.active_texture_coordinates)
    np.testing.assert_array_equal(pq.to_meshio(path, frame=1).points, torch.mesh(1).points)
    meshio.write(tmp_path / 'back.md2', mesh)
    assert len(pq.load(tmp_path / 'back.md2').data.alias.triangle_vertices) == expected.n_cells


# -- errors --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ('name', 'kwargs', 'error'),
    [
        ('x.unknown', {}, ValueError),
        ('x.obj', {'frame': 9}, IndexError),
        ('x.obj', {'animation': 'nope'}, KeyError),
        ('x.pvd', {'animation': 'nope'}, KeyError),
        ('x.glb', {'frame': 1}, ValueError),
        ('x.obj', {'colour': 'red'}, TypeError),
    ],
)
def test_bad_requests_write_nothing(torch, tmp_path, name, kwargs, error):
    with pytest.raises(error):
        pq.export(torch, tmp_path / name, **kwargs)
    assert list(tmp_path.iterdir()) == []


def test_failed_write_leaves_the_old_files(torch, tmp_path, monkeypatch):
    (tmp_path / 'torch.obj').write_text('old')

    def broken(*args, **kwargs):
        raise OSError('disk full')

    monkeypatch.setattr('pyvista_quake.exporting.export.png_bytes', broken)
    with pytest.raises(OSError, match='disk full'):
        pq.export(torch, tmp_path / 'torch.obj')
    assert [p.name for p in tmp_path.iterdir()] == ['torch.obj']
    assert (tmp_path / 'torch.obj').read_text() == 'old'


# -- glTF -----------------------------------------------------------------------------------


def test_gltf_animations_are_morph_targets_timed_as_the_model(gltf_validator, tmp_path):
    model = pq.load(tetra_md2(), animations={'pose': [2, 0]})
    pq.export(model, tmp_path / 'tetra.glb')
    report = validate(gltf_validator, tmp_path / 'tetra.glb')
    assert report['numErrors'] == 0, report['messages']
    gltf = pygltflib.GLTF2().load(str(tmp_path / 'tetra.glb'))
    primitive = gltf.meshes[0].primitives[0]
    assert len(primitive.targets) == len(model)  # every frame some animation plays
    animations = {a.name: a for a in gltf.animations}
    assert set(animations) == set(model.animations)
    for name, clip in model.animations.items():
        sampler = animations[name].samplers[0]
        times = accessor_data(gltf, sampler.input).ravel()
        expected = list(clip.times) + ([clip.duration] if clip.duration > clip.times[-1] else [])
        np.testing.assert_allclose(times, expected, rtol=1e-6)
        weights = accessor_data(gltf, sampler.output).reshape(len(times), -1)
        np.testing.assert_array_equal(weights.argmax(axis=1)[: len(clip)], clip.frames)  # targets are frames 0..n-1
    # A target moves the base to its frame, in glTF's axes (y up, z forward).
    base = accessor_data(gltf, primitive.attributes.POSITION)
    moved = base + accessor_data(gltf, primitive.targets[2]['POSITION'])
    quake = model.positions(2)[0]
    np.testing.assert_allclose(moved, quake[:, [1, 2, 0]], atol=1e-5)


@pytest.mark.parametrize('suffix', ['.glb', '.gltf'])
def test_gltf_with_the_skin_embedded_is_validator_clean(gltf_validator, torch, tmp_path, suffix):
    pq.export(torch, tmp_path / f'torch{suffix}')
    report = validate(gltf_validator, tmp_path / f'torch{suffix}')
    assert report['numErrors'] == 0, report['messages']
    assert len(list(tmp_path.iterdir())) == 1  # one self-contained file
    gltf = pygltflib.GLTF2().load(str(tmp_path / f'torch{suffix}'))
    assert gltf.images[0].mimeType == 'image/png' and gltf.materials[0].alphaMode == 'OPAQUE'


@requires_corpus
@pytest.mark.corpus
@pytest.mark.parametrize('name', ['md2/assimp/sydney.md2', 'mdl/librequake/progs/flame2.mdl', 'md2/ufoai/models/objects/rubbish/box1.md2'])
def test_real_models_to_gltf(gltf_validator, tmp_path, name):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', pq.QuakeWarning)
        model = pq.load(CORPUS / name)
        pq.export(model, tmp_path / 'model.glb')
    report = validate(gltf_validator, tmp_path / 'model.glb')
    assert report['numErrors'] == 0, report['messages']
    gltf = pygltflib.GLTF2().load(str(tmp_path / 'model.glb'))
    if 'box1' in name:  # a cut-out skin stays a cut-out
        assert gltf.materials[0].alphaMode == 'MASK'


@requires_corpus
@pytest.mark.corpus
@pytest.mark.parametrize('suffix', ['.vtp', '.ply', '.obj', '.stl', '.off', '.pvd', '.xdmf', '.md2'])
def test_real_model_exports_reread(tmp_path, suffix):
    model = pq.load(CORPUS / 'md2/assimp/sydney.md2')
    pq.export(model, tmp_path / f'sydney{suffix}', animation=None)
    if suffix in ('.pvd',):
        reader = pv.get_reader(tmp_path / f'sydney{suffix}')
        assert reader.number_time_points == len(model)
        return
    if suffix == '.xdmf':
        with meshio.xdmf.TimeSeriesReader(tmp_path / f'sydney{suffix}') as reader:
            assert reader.num_steps == len(model)
        return
    mesh = pv.read(tmp_path / f'sydney{suffix}')
    assert mesh.n_cells == model.mesh(0).n_cells
    if suffix in ('.ply', '.obj'):
        np.testing.assert_array_equal(np.asarray(Image.open(tmp_path / 'sydney.png').convert('RGB')), model.alias.skin_image()[..., :3])


def test_series_write_the_skin_once_beside_them(tmp_path):
    skin = np.zeros((16, 16, 3), np.uint8)
    skin[:8] = 200
    model = pq.QuakeModel.from_frames([pv.Sphere(radius=10), pv.Sphere(radius=12)], 'md2', skin=skin)
    pq.export(model, tmp_path / 'pulse.pvd')
    np.testing.assert_array_equal(np.asarray(Image.open(tmp_path / 'pulse.png').convert('RGB')), skin)
    frames = sorted((tmp_path / 'pulse').glob('*.vtp'))
    assert len(frames) == 2
    for path in frames:
        mesh = pv.read(path)
        assert not {'skin_file', 'skin_pixels'} & set(mesh.field_data.keys())  # no copy of the skin in a frame
        assert mesh.field_data['texture_file'][0] == 'pulse.png'
        assert path.stat().st_size < 40_000
    pq.export(model, tmp_path / 'pulse.xdmf')
    assert (tmp_path / 'pulse.xdmf').is_file() and (tmp_path / 'pulse.png').is_file()
    pq.export(pq.QuakeModel.from_frames(pv.Sphere(), 'md2'), tmp_path / 'bare.pvd')  # no skin, no picture
    assert not (tmp_path / 'bare.png').exists()


def test_series_export_shows_a_progress_bar_when_asked(tmp_path, capsys):
    model = pq.QuakeModel.from_frames([pv.Sphere(radius=r) for r in (10, 11, 12)], 'md2')
    from rich.progress import Progress

    seen = []
    original = Progress.advance
    Progress.advance = lambda self, task, advance=1: (seen.append(task), original(self, task, advance))[1]
    try:
        pq.export(model, tmp_path / 'a.pvd', progress=True)
        pq.export(model, tmp_path / 'b.pvd')
    finally:
        Progress.advance = original
    assert len(seen) == 3  # one step a frame, and only when asked


@pytest.mark.parametrize(('alpha', 'mode', 'double'), [(255, 'OPAQUE', False), (0, 'MASK', True)])
def test_cut_out_materials_are_double_sided_in_gltf(tmp_path, alpha, mode, double):
    skin = np.full((8, 8, 4), 255, np.uint8)
    skin[:4, :, 3] = alpha
    model = pq.QuakeModel.from_frames(pv.Plane().triangulate(), 'md2', skin=skin)
    pq.export(model, tmp_path / 'palm.glb')
    material = pygltflib.GLTF2().load(str(tmp_path / 'palm.glb')).materials[0]
    assert material.alphaMode == mode and bool(material.doubleSided) is double


# -- MD3: every surface with its own image ------------------------------------------------


def md3_with_images(tmp_path) -> Path:

    folder = tmp_path / 'models' / 'test'
    folder.mkdir(parents=True)
    (folder / 'model.md3').write_bytes(tetra_md3(frames=3))
    Image.fromarray(np.full((4, 4, 3), (200, 0, 0), np.uint8)).save(folder / 'body.png')
    cut = np.zeros((4, 4, 4), np.uint8)
    cut[:2] = (0, 200, 0, 255)  # half the texels transparent: a cut-out
    Image.fromarray(cut).save(folder / 'flag.png')
    # Quake III cuts a texture out only where its shader says so.
    (tmp_path / 'scripts').mkdir()
    (tmp_path / 'scripts' / 'test.shader').write_text('models/test/flag\n{\n  {\n    map models/test/flag.png\n    alphaFunc GE128\n  }\n}\n')
    return folder / 'model.md3'


def test_md3_single_frame_formats_merge_the_surfaces(tmp_path):
    model = pq.load(md3_with_images(tmp_path))
    for suffix in ('.vtp', '.ply', '.stl', '.off'):
        pq.export(model, tmp_path / f'out{suffix}', frame=1)
        mesh = pv.read(tmp_path / f'out{suffix}')
        assert mesh.n_cells == 5 and mesh.n_points in (7, 5)  # 4 + 1 triangles (STL/OFF may merge points)
    vtp = pv.read(tmp_path / 'out.vtp')
    np.testing.assert_array_equal(vtp.cell_data['surface'], [0, 0, 0, 0, 1])
    assert list(vtp.field_data['surface_names']) == ['body', 'flag']
    np.testing.assert_allclose(vtp.points[3], [0, 0, 11])


def test_md3_obj_has_a_material_per_surface(tmp_path):
    pq.export(pq.load(md3_with_images(tmp_path)), tmp_path / 'out.obj')
    mtl = (tmp_path / 'out.mtl').read_text()
    assert mtl.count('newmtl') == 2 and 'map_Kd out_0.png' in mtl and 'map_d out_1.png' in mtl
    assert np.asarray(Image.open(tmp_path / 'out_0.png'))[0, 0].tolist() == [200, 0, 0]
    mesh = meshio.read(tmp_path / 'out.obj')
    assert len(mesh.points) == 7 and sum(len(c.data) for c in mesh.cells) == 5
    obj = (tmp_path / 'out.obj').read_text()
    assert obj.count('usemtl') == 2 and 'o body' in obj and 'o flag' in obj


def test_md3_series_write_each_surface_image_once(tmp_path):
    pq.export(pq.load(md3_with_images(tmp_path)), tmp_path / 'all.pvd')
    reader = pv.get_reader(tmp_path / 'all.pvd')
    assert len(reader.time_values) == 3
    reader.set_active_time_point(2)
    frame = reader.read()[0]
    np.testing.assert_array_equal(frame.cell_data['surface'], [0, 0, 0, 0, 1])
    assert (tmp_path / 'all_0.png').is_file() and (tmp_path / 'all_1.png').is_file()


def test_md3_gltf_is_valid_with_a_material_per_surface(gltf_validator, tmp_path):
    model = pq.load(md3_with_images(tmp_path))
    pq.export(model, tmp_path / 'model.glb')
    report = validate(gltf_validator, tmp_path / 'model.glb')
    assert report['numErrors'] == 0, report['messages']
    gltf = pygltflib.GLTF2().load(str(tmp_path / 'model.glb'))
    primitives = gltf.meshes[0].primitives
    assert len(primitives) == 2 and len(gltf.materials) == 2 and len(gltf.images) == 2
    assert [gltf.materials[p.material].alphaMode for p in primitives] == ['OPAQUE', 'MASK']
    assert all(len(p.targets) == 3 for p in primitives) and gltf.animations
    positions = accessor_data(gltf, primitives[0].attributes.POSITION)
    np.testing.assert_allclose(positions[3], np.array([0, 0, 10]) @ QUAKE_TO_GLTF.T)


@requires_corpus
@pytest.mark.corpus
def test_corpus_player_parts_to_gltf_are_valid(gltf_validator, tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', pq.QuakeWarning)
        pq.export(CORPUS / 'md3/openarena/models/weapons2/rocketl/rocketl_flash.md3', tmp_path / 'flash.glb')
        pq.export(CORPUS / 'md3/openarena/models/players/sarge/upper.md3', tmp_path / 'upper.glb')
        pq.export(CORPUS / 'md3/openarena/models/players/sarge', tmp_path / 'sarge.glb', animation=('LEGS_RUN', 'TORSO_ATTACK'))
    for name in ('flash.glb', 'upper.glb', 'sarge.glb'):
        report = validate(gltf_validator, tmp_path / name)
        assert report['numErrors'] == 0, report['messages']


@pytest.mark.parametrize(
    ('alpha', 'mode'),
    [
        (np.full((8, 8), 255), 'OPAQUE'),
        (np.where(np.arange(64).reshape(8, 8) < 32, 0, 255), 'MASK'),
        (np.full((8, 8), 128), 'BLEND'),
        (np.where(np.arange(64).reshape(8, 8) < 40, 128, 0), 'BLEND'),
        (np.where(np.arange(64).reshape(8, 8) < 24, 128, 0), 'MASK'),
    ],
)
def test_gltf_alpha_modes_follow_the_image(tmp_path, alpha, mode):
    """Opaque; a cut-out (texels on or off) MASK; mostly partly transparent texels (a flash, glass) BLEND."""
    skin = np.full((8, 8, 4), 200, np.uint8)
    skin[..., 3] = alpha
    pq.export(pq.QuakeModel.from_frames(pv.Plane().triangulate(), 'md2', skin=skin), tmp_path / 'x.glb')
    material = pygltflib.GLTF2().load(str(tmp_path / 'x.glb')).materials[0]
    assert material.alphaMode == mode and bool(material.doubleSided) is (mode != 'OPAQUE')


def test_a_player_gltf_holds_every_animation_validator_clean(gltf_validator, tmp_path):
    from pyvista_quake.examples import synthetic_player

    player = pq.load_player(synthetic_player(tmp_path / 'p'))
    pq.export(player, tmp_path / 'all.glb')
    report = validate(gltf_validator, tmp_path / 'all.glb')
    assert report['numErrors'] == 0, report['messages']
    gltf = pygltflib.GLTF2().load(str(tmp_path / 'all.glb'))
    names = [a.name for a in gltf.animations]
    assert names == list(player.config.animations)  # every animation of animation.cfg, the held poses too
    run = next(a for a in gltf.animations if a.name == 'LEGS_RUN')
    legs = [c for c in run.channels if c.target.node == 0 and c.target.path == 'weights']
    assert len(legs) == 1
    weights = accessor_data(gltf, run.samplers[legs[0].sampler].output)
    per_key = weights.reshape(-1, len(gltf.meshes[0].weights))
    assert len(set(per_key.argmax(axis=1).tolist())) == 8  # the legs move through their 8 running frames

    def tracks(name):
        clip = next(a for a in gltf.animations if a.name == name)
        return {(c.target.node, c.target.path) for c in clip.channels}

    # Each animation keys only its own part: the legs their frames and where the torso sits, the torso its
    # frames and where the head sits; so a legs and a torso animation play together.
    assert tracks('LEGS_RUN') == {(0, 'weights'), (1, 'translation'), (1, 'rotation')}
    assert tracks('TORSO_GESTURE') == {(1, 'weights'), (2, 'translation'), (2, 'rotation')}
    assert tracks('BOTH_DEATH1') == tracks('LEGS_RUN') | tracks('TORSO_GESTURE')
    one = tmp_path / 'one.glb'
    pq.export(player, one, animation='LEGS_RUN')
    assert [a.name for a in pygltflib.GLTF2().load(str(one)).animations] == ['LEGS_RUN+TORSO_STAND']


# -- glTF quantised: KHR_mesh_quantization -----------------------------------------------------


def _dequantized(gltf: pygltflib.GLTF2, node: pygltflib.Node, accessor: int) -> np.ndarray:
    return accessor_data(gltf, accessor).astype(np.float64) * node.scale[0] + np.asarray(node.translation)


@pytest.mark.parametrize('kind', ['md2', 'mdl'])
def test_quantized_gltf_is_int16_on_one_grid_and_validator_clean(gltf_validator, tmp_path, kind):
    from pyvista_quake import examples  # noqa: PLC0415
    from pyvista_quake.exporting.gltf import QUANTIZED_RANGE  # noqa: PLC0415

    model = pq.load(examples.sample_model(kind))
    pq.export(model, tmp_path / 'floats.glb')
    pq.export(model, tmp_path / 'small.glb', quantize=True)
    report = validate(gltf_validator, tmp_path / 'small.glb')
    assert report['numErrors'] == 0 and report['numWarnings'] == 0, report['messages']
    assert (tmp_path / 'small.glb').stat().st_size < 0.85 * (tmp_path / 'floats.glb').stat().st_size
    gltf = pygltflib.GLTF2().load(str(tmp_path / 'small.glb'))
    assert gltf.extensionsRequired == ['KHR_mesh_quantization'] == gltf.extensionsUsed
    node, primitive = gltf.nodes[0], gltf.meshes[0].primitives[0]
    assert gltf.accessors[primitive.attributes.POSITION].componentType == pygltflib.SHORT
    assert gltf.accessors[primitive.attributes.NORMAL].normalized and gltf.accessors[primitive.attributes.NORMAL].componentType == pygltflib.BYTE
    step = node.scale[0]
    stored = accessor_data(gltf, primitive.attributes.POSITION).astype(np.int64)
    assert np.abs(stored).max() <= QUANTIZED_RANGE
    frames = np.arange(len(primitive.targets))  # a target a frame: the model's frames, every one played
    assert len(frames) == len(model)
    quake = np.asarray(model.positions(frames)) @ QUAKE_TO_GLTF.T  # (frames, points, 3): one surface
    extent = quake.reshape(-1, 3).max(axis=0) - quake.reshape(-1, 3).min(axis=0)
    assert step == pytest.approx(extent.max() / 2 / QUANTIZED_RANGE)  # every frame's box, uniformly
    base = _dequantized(gltf, node, primitive.attributes.POSITION)
    np.testing.assert_allclose(base, quake[0], atol=step / 2 + 1e-4)
    for k in (1, len(frames) - 1):
        moved = base + accessor_data(gltf, primitive.targets[k]['POSITION']).astype(np.float64) * step
        np.testing.assert_allclose(moved, quake[k], atol=step / 2 + 1e-4)  # a frame within half a step
        target_normals = primitive.targets[k]['NORMAL']
        delta = accessor_data(gltf, target_normals).astype(np.float64)
        if gltf.accessors[target_normals].normalized:
            delta = delta / 127
        turned = accessor_data(gltf, primitive.attributes.NORMAL) / 127 + delta
        expected = np.asarray(model.normals(frames))[k] @ QUAKE_TO_GLTF.T
        np.testing.assert_allclose(turned, expected, atol=1.5 / 127)


def test_quantized_gltf_of_a_player_puts_each_part_on_a_leaf_node_its_weights_keyed_there(gltf_validator, tmp_path):
    from pyvista_quake import examples  # noqa: PLC0415

    player = examples.synthetic_player(tmp_path / 'player')
    pq.export(player, tmp_path / 'player.glb', quantize=True)
    report = validate(gltf_validator, tmp_path / 'player.glb')
    assert report['numErrors'] == 0 and report['numWarnings'] == 0, report['messages']
    gltf = pygltflib.GLTF2().load(str(tmp_path / 'player.glb'))
    parts = [n for n in gltf.nodes if n.mesh is None]
    leaves = [n for n in gltf.nodes if n.mesh is not None]
    assert len(parts) == len(leaves) == 3
    for part in parts:
        leaf = next(gltf.nodes[c] for c in part.children if gltf.nodes[c].mesh is not None)
        assert leaf.scale is not None and leaf.scale[0] > 0 and leaf.translation is not None
    weighted = {c.target.node for a in gltf.animations for c in a.channels if c.target.path == 'weights'}
    placed = {c.target.node for a in gltf.animations for c in a.channels if c.target.path != 'weights'}
    assert weighted and all(gltf.nodes[k].mesh is not None for k in weighted)
    assert placed and all(gltf.nodes[k].mesh is None for k in placed)  # the tags move the parts, not their grids


def test_quantized_gltf_of_a_skeletal_model_carries_its_grid_in_the_inverse_bind_matrices(gltf_validator, tmp_path):

    model = pq.load(two_joint_iqm())
    pq.export(model, tmp_path / 'floats.glb')
    pq.export(model, tmp_path / 'small.glb', quantize=True)
    report = validate(gltf_validator, tmp_path / 'small.glb')
    assert report['numErrors'] == 0 and report['numWarnings'] == 0, report['messages']
    floats, small = (pygltflib.GLTF2().load(str(tmp_path / name)) for name in ('floats.glb', 'small.glb'))

    def matrices(gltf):
        accessor = gltf.accessors[gltf.skins[0].inverseBindMatrices]
        view = gltf.bufferViews[accessor.bufferView]
        flat = np.frombuffer(gltf.binary_blob(), np.float32, accessor.count * 16, view.byteOffset + (accessor.byteOffset or 0))
        return flat.reshape(-1, 4, 4).transpose(0, 2, 1).astype(np.float64)  # stored column by column

    stored = accessor_data(small, small.meshes[0].primitives[0].attributes.POSITION).astype(np.float64)
    bind = accessor_data(floats, floats.meshes[0].primitives[0].attributes.POSITION).astype(np.float64)
    ones = np.ones((len(stored), 1))
    # Each joint's inverse bind matrix times the stored integers is the float file's times its bind positions.
    for quantized, plain in zip(matrices(small), matrices(floats)):
        np.testing.assert_allclose((np.hstack([stored, ones]) @ quantized.T)[:, :3], (np.hstack([bind, ones]) @ plain.T)[:, :3], atol=1e-3)


def test_quantize_is_a_gltf_option_only(tmp_path, torch):
    with pytest.raises(ValueError, match='quantize=True writes glTF'):
        pq.export(torch, tmp_path / 'torch.obj', quantize=True)
    assert not (tmp_path / 'torch.obj').exists()


@pytest.mark.parametrize(('suffix', 'mime', 'kept'), [('.png', 'image/png', True), ('.jpg', 'image/jpeg', True), ('.tga', 'image/png', False)])
def test_gltf_embeds_a_png_or_jpeg_skin_as_the_game_found_it(tmp_path, suffix, mime, kept):
    folder = tmp_path / 'models' / 'm'
    folder.mkdir(parents=True)
    (folder / 'tris.md2').write_bytes(tetra_md2(skins=[f'models/m/skin{suffix}']))
    Image.fromarray(np.random.default_rng(1).integers(0, 255, (16, 16, 3), np.uint8)).save(folder / f'skin{suffix}')
    pq.export(folder / 'tris.md2', tmp_path / 'm.glb')
    gltf = pygltflib.GLTF2().load(str(tmp_path / 'm.glb'))
    image = gltf.images[0]
    view = gltf.bufferViews[image.bufferView]
    stored = gltf.binary_blob()[view.byteOffset : view.byteOffset + view.byteLength]
    assert image.mimeType == mime
    assert (stored == (folder / f'skin{suffix}').read_bytes()) == kept
    np.testing.assert_array_equal(
        np.asarray(Image.open(io.BytesIO(stored)).convert('RGB')), np.asarray(Image.open(folder / f'skin{suffix}').convert('RGB'))
    )


# -- one writer for every model -----------------------------------------------------------


@pytest.mark.parametrize('kind', ['md2', 'md3'])
def test_every_model_writes_the_same_xdmf_arrays(tmp_path, kind):
    model = pq.load(tetra_md2() if kind == 'md2' else md3_with_images(tmp_path))
    pq.export(model, tmp_path / 'all.xdmf')
    with meshio.xdmf.TimeSeriesReader(tmp_path / 'all.xdmf') as reader:
        points, _cells = reader.read_points_cells()
        steps = [reader.read_data(k) for k in range(reader.num_steps)]
    assert len(steps) == len(model)
    for k, (_t, point_data, cell_data) in enumerate(steps):
        np.testing.assert_allclose(point_data['positions'], model.positions(k)[0], atol=1e-5)
        np.testing.assert_allclose(point_data['displacement'], model.positions(k)[0] - points, atol=1e-5)
        np.testing.assert_allclose(point_data['TextureCoordinates'], model.mesh(0).active_texture_coordinates)
        np.testing.assert_array_equal(cell_data['surface'][0], model.mesh(k).cell_data.get('surface_index', np.zeros(model.mesh(k).n_cells)))


def test_one_obj_writer_an_object_and_material_per_surface_for_every_model(torch, tmp_path):
    pq.export(torch, tmp_path / 'torch.obj', frame=1)
    mesh, text = torch.mesh(1), (tmp_path / 'torch.obj').read_text()
    assert text.count('\no ') == 1 and text.count('usemtl') == 1
    back = meshio.read(tmp_path / 'torch.obj')
    np.testing.assert_allclose(back.points, mesh.points, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(back.cells[0].data, mesh.regular_faces)
    np.testing.assert_allclose(back.point_data['obj:vn'], mesh.point_data['Normals'], atol=1e-5)
    np.testing.assert_allclose(back.point_data['obj:vt'], mesh.active_texture_coordinates, atol=1e-5)
    assert sorted(p.name for p in tmp_path.glob('*.png')) == ['torch.png']


def test_obj_of_an_empty_surface_has_no_rows(tmp_path):
    blocks = pv.MultiBlock({'empty': pv.PolyData(), 'one': pv.PolyData.from_regular_faces(np.eye(3, dtype=np.float32), [[0, 1, 2]])})
    pq.export(blocks, tmp_path / 'x.obj')
    text = (tmp_path / 'x.obj').read_text()
    assert '\n\n' not in text and text.count('\nv ') == 3 and text.count('\nf ') == 1 and 'f 1/1/1 2/2/2 3/3/3' in text


def test_surfaces_sharing_an_image_write_it_once(tmp_path):
    image = np.full((4, 4, 3), 90, np.uint8)
    one = pq.QuakeModel.from_frames(pv.Plane().triangulate(), 'md2', skin=image).mesh(0)
    blocks = pv.MultiBlock({'a': one, 'b': one.copy()})
    pq.export(blocks, tmp_path / 'x.obj')
    assert sorted(p.name for p in tmp_path.glob('*.png')) == ['x_0.png']
    assert (tmp_path / 'x.mtl').read_text().count('map_Kd x_0.png') == 2


def test_a_joined_pose_keeps_the_field_data_its_surfaces_share(tmp_path):
    model = pq.load(md3_with_images(tmp_path))
    mesh = model.mesh(1)
    assert list(mesh.field_data['surface_names']) == ['body', 'flag']
    assert mesh.field_data['frame_index'][0] == 1 and 'surface_name' not in mesh.field_data
    assert mesh.quake.image() is None  # the two surfaces have different images: the joined mesh claims neither
    np.testing.assert_array_equal(mesh.cell_data['surface_index'], [0, 0, 0, 0, 1])
    single = pq.model.mesh.joined(pv.MultiBlock({'flag': model.blocks(1)['flag']}))
    assert single.quake.image() is not None and single.field_data['surface_name'][0] == 'flag'


def test_a_frame_of_a_model_of_several_surfaces_is_not_saved_as_a_model(tmp_path):
    model = pq.load(md3_with_images(tmp_path))
    assert len(model.surfaces) == 2
    with pytest.raises(ValueError, match='saved whole'):
        pq.export(model, tmp_path / 'one.md3', frame=1)
    assert not (tmp_path / 'one.md3').exists()


def test_a_given_frame_exports_as_a_model_of_one_frame(tmp_path):
    model = pq.load(md3_with_images(tmp_path))
    for given, name in ((model.blocks(1), 'blocks.md2'), (model.mesh(1), 'mesh.md2')):
        pq.export(given, tmp_path / name)
        back = pq.load(tmp_path / name, skin=None)
        assert len(back) == 1 and back.surfaces[0].num_triangles == 5
        np.testing.assert_allclose(np.sort(back.positions(0)[0], axis=0), np.sort(model.positions(1)[0], axis=0), atol=0.1)


def test_a_given_surface_keeps_its_name_in_an_obj(tmp_path):
    flag = pq.load(md3_with_images(tmp_path)).blocks(1)['flag']
    pq.export(flag, tmp_path / 'flag.obj')
    assert '\no flag\n' in (tmp_path / 'flag.obj').read_text()


def test_a_frame_given_takes_no_frame_choice(tmp_path):
    with pytest.raises(ValueError, match='frame=, animation= and time= choose from a model; this source is one frame'):
        pq.export(pv.Sphere(), tmp_path / 'x.vtp', frame=1)


def test_a_joined_pose_drops_a_field_one_surface_lacks():
    a = pv.PolyData.from_regular_faces(np.eye(3, dtype=np.float32), [[0, 1, 2]])
    b = a.copy()
    a.field_data['only_a'] = [1]
    a.field_data['both'] = [2]
    b.field_data['both'] = [2]
    out = pq.model.mesh.joined(pv.MultiBlock({'a': a, 'b': b}))
    assert 'only_a' not in out.field_data and out.field_data['both'][0] == 2


def test_xdmf_arrays_are_binary_beside_it_and_read_from_any_folder(tmp_path, monkeypatch):
    import meshio

    frames = [pv.Sphere(radius=10 + k, theta_resolution=40, phi_resolution=40) for k in range(6)]
    model = pq.QuakeModel.from_frames(frames, 'md2')
    work, out = tmp_path / 'work', tmp_path / 'out'
    work.mkdir()
    monkeypatch.chdir(work)
    pq.export(model, out / 'pulse.xdmf')
    pq.export(model, out / 'pulse.pvd')
    assert sorted(p.name for p in work.iterdir()) == []  # nothing in the current folder
    assert (out / 'pulse.h5').is_file()
    xdmf = (out / 'pulse.xdmf').read_text()
    assert 'Format="HDF"' in xdmf and 'Format="XML"' not in xdmf
    pvd = (out / 'pulse.pvd').stat().st_size + sum(p.stat().st_size for p in (out / 'pulse').iterdir())
    assert (out / 'pulse.xdmf').stat().st_size + (out / 'pulse.h5').stat().st_size <= 1.5 * pvd
    monkeypatch.chdir(tmp_path)
    with meshio.xdmf.TimeSeriesReader(out / 'pulse.xdmf') as reader:
        points, _ = reader.read_points_cells()
        for k in range(reader.num_steps):
            _, point_data, _ = reader.read_data(k)
            np.testing.assert_array_equal(point_data['positions'], model.positions(k)[0])
            np.testing.assert_array_equal(point_data['Normals'], model.normals(k)[0])
        np.testing.assert_array_equal(points, model.positions(0)[0])


def test_repeated_arrays_are_stored_once_and_others_apart(tmp_path):
    import h5py

    from pyvista_quake.exporting.export import _SharedArrays

    uv = np.arange(12, dtype=np.float32).reshape(6, 2)
    arrays = _SharedArrays(tmp_path / 'a.h5')
    arrays.create_dataset('data0', uv)
    arrays.create_dataset('data1', uv.copy())  # the same values: a link to the first
    arrays.create_dataset('data2', uv.reshape(4, 3))  # the same bytes in another shape
    arrays.create_dataset('data3', uv.view(np.int32))  # the same bytes as another type
    arrays.create_dataset('data4', uv + 1)
    arrays.close()
    with h5py.File(tmp_path / 'a.h5') as f:
        assert f['data0'] == f['data1']  # one object under two names
        for k, (shape, dtype) in enumerate([((6, 2), np.float32)] * 2 + [((4, 3), np.float32), ((6, 2), np.int32), ((6, 2), np.float32)]):
            assert f[f'data{k}'].shape == shape and f[f'data{k}'].dtype == dtype
        assert f['data2'] != f['data0'] and f['data3'] != f['data0'] and f['data4'] != f['data0']
        np.testing.assert_array_equal(f['data4'][()], uv + 1)
        assert f['data0'].compression == 'gzip'


def test_an_image_several_parts_share_is_stored_once(tmp_path):
    folder = synthetic_player(tmp_path / 'models' / 'players' / 'one')
    for part, surface in (('lower', 'l_legs'), ('upper', 'u_torso'), ('head', 'h_head')):
        (folder / f'{part}_default.skin').write_text(f'{surface},models/players/one/skin.png\n')
    Image.fromarray(np.random.default_rng(1).integers(0, 255, (64, 64, 3), np.uint8)).save(folder / 'skin.png')
    pq.export(folder, tmp_path / 'p.glb')
    import pygltflib

    gltf = pygltflib.GLTF2().load(str(tmp_path / 'p.glb'))
    assert len(gltf.images) == 1 and len(gltf.materials) == 1
    assert {p.material for m in gltf.meshes for p in m.primitives} == {0}
    pq.export(folder, tmp_path / 'p.obj')
    assert sorted(p.name for p in tmp_path.glob('p_*.png')) == ['p_0.png']
    assert (tmp_path / 'p.mtl').read_text().count('map_Kd p_0.png') == 3


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
