"""Every real model of ../shared/corpus reads (skipped where the corpus is absent)."""

from __future__ import annotations

from pathlib import Path
import warnings

from conftest import CORPUS
from conftest import corpus_models
from conftest import requires_corpus
import numpy as np
import pytest
import pyvista as pv

import pyvista_quake as pq

MALFORMED = {'malformed_zero_numvertices.md2'}
MODELS = [p for p in corpus_models() if p.name not in MALFORMED]

pytestmark = [requires_corpus, pytest.mark.corpus]


def _id(path):
    return str(path.relative_to(CORPUS))


@pytest.mark.parametrize('path', MODELS, ids=_id)
def test_reads_through_pyvista(path):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', pq.QuakeWarning)
        mesh = pv.read(path)
        reader = pv.get_reader(path)
        model = pq.load(path)
    assert mesh.n_points > 0 and mesh.n_cells == len(model.data.alias.triangle_vertices)
    assert mesh.points.dtype == np.float32
    assert np.isfinite(mesh.points).all()
    np.testing.assert_allclose(np.linalg.norm(mesh.point_normals, axis=1), 1, atol=1e-5)
    # Time points: every frame; the last time point reads the last frame.
    assert reader.number_time_points == len(model)
    assert np.all(np.diff(reader.time_values) > 0)
    reader.set_active_time_point(reader.number_time_points - 1)
    last = reader.read()
    np.testing.assert_array_equal(last.points, model.positions([-1])[0])


def test_malformed_zero_numvertices():
    path = CORPUS / 'md2' / 'assimp' / 'malformed_zero_numvertices.md2'
    with pytest.raises(pq.QuakeFormatError, match='malformed_zero_numvertices.md2.*num_xyz = 0'):
        pv.read(path)
    with pytest.raises(pq.QuakeFormatError, match='num_xyz'):
        pv.get_reader(path).read()


def test_files_with_no_gl_commands():
    path = CORPUS / 'md2/ufoai/models/objects/japan/katana.md2'
    model = pq.load(path)
    assert model.header['num_glcmds'] == 0 and model.header['ofs_glcmds'] == 0
    assert model.header['ofs_frames'] + model.header['num_frames'] * model.header['framesize'] == path.stat().st_size


def test_large_animation_and_tall_skins():
    body = pq.load(CORPUS / 'md2/ufoai/models/soldiers/male/body.md2')
    assert len(body) == 1007
    spider = pq.load(CORPUS / 'md2/ufoai/models/aliens/bloodspider/bloodspider.md2')
    assert spider.alias.skin_size[1] > 480
    with pytest.raises(pq.QuakeFormatError, match='strict'):
        pq.load(CORPUS / 'md2/ufoai/models/aliens/bloodspider/bloodspider.md2', strict=True)


def test_empty_sections_anywhere():
    # GL commands "before the skins": an empty list whose offset points into another section.
    for name in ('objects/cars/golf/car1t.md2', 'aliens/bloodspider/bloodspider.md2'):
        model = pq.load(CORPUS / 'md2/ufoai/models' / name)
        assert model.header['num_glcmds'] == 0
        assert model.header['ofs_glcmds'] < model.header['ofs_st']
        assert model.alias.gl_commands == []
        assert model.mesh(0).n_cells == model.header['num_tris']


def test_gl_command_mesh_on_a_real_model():
    model = pq.load(CORPUS / 'md2/assimp/sydney.md2', glcmds=True)
    assert len(model.alias.gl_commands) > 0
    mesh = model.mesh(0)
    assert len(mesh.cell_data['glcmd']) == mesh.n_cells
    mesh.cell_data.clear()  # VTK's triangle filter does not carry cell data of strips over
    triangles = mesh.triangulate()
    area = np.count_nonzero(triangles.compute_cell_sizes(length=False, volume=False)['Area'] > 0)
    assert area >= 0.95 * model.header['num_tris']  # the commands redraw (nearly) every triangle
    assert mesh.active_texture_coordinates.min() >= 0 and mesh.active_texture_coordinates.max() <= 1


@pytest.mark.parametrize(
    'name',
    [
        'librequake/progs/flame.mdl',
        'librequake/progs/flame2.mdl',
        'librequake/progs/eyes.mdl',
        'librequake/progs/spike.mdl',
        'librequake/progs/teleport.mdl',
        'librequake/progs/laser.mdl',
        'assimp/steg.mdl',
        'assimp/tekmechbot.MDL',
    ],
)
def test_qmex_trailers_are_kept(name):
    assert pq.load(CORPUS / 'mdl' / name).alias.trailing[:4] == b'QMEX'


def test_mdl_groups_and_flags():
    flame = pq.load(CORPUS / 'mdl/librequake/progs/flame.mdl')
    assert len(flame.data.alias.frame_groups) == 1 and flame.data.alias.frame_groups[0].count == 6
    assert len(pq.load(CORPUS / 'mdl/librequake/progs/flame2.mdl').data.alias.frame_groups) == 2
    assert 'EF_ROTATE' in pv.read(CORPUS / 'mdl/librequake/progs/armor.mdl').field_data['flag_names']
    assert 'EF_ROCKET' in pv.read(CORPUS / 'mdl/librequake/progs/missile.mdl').field_data['flag_names']
    assert 'EF_GRENADE' in pv.read(CORPUS / 'mdl/librequake/progs/grenade.mdl').field_data['flag_names']
    assert 'EF_GIB' in pv.read(CORPUS / 'mdl/librequake/progs/gib1.mdl').field_data['flag_names']
    assert len(pq.load(CORPUS / 'mdl/librequake/progs/armor.mdl').data.alias.skins) == 3
    assert pq.load(CORPUS / 'mdl/assimp/gijoe.mdl').header['synctype'] == 1


def test_positions_and_normals_agree_with_frames_on_real_models():
    for name in ('md2/assimp/flag.md2', 'mdl/librequake/progs/flame2.mdl'):
        model = pq.load(CORPUS / name)
        positions, normals = model.positions(), model.normals()
        for index in (0, len(model) // 2, len(model) - 1):
            mesh = model.mesh(index)
            np.testing.assert_array_equal(positions[index], mesh.points)
            np.testing.assert_array_equal(normals[index], mesh.point_normals)


def _anm_names(path):
    names = set()
    for line in path.read_text(encoding='latin-1').splitlines():
        fields = line.split('//', 1)[0].split()
        if fields:
            names.add(fields[0])
    return names


@pytest.mark.parametrize('anm', sorted(CORPUS.rglob('*.anm')) if CORPUS.is_dir() else [], ids=_id)
def test_every_anm_animation_is_in_the_model(anm):
    model = pq.load(anm.with_suffix('.md2'))
    assert _anm_names(anm) <= set(model.animations)
    for name in _anm_names(anm):
        clip = model.animations[name]
        assert clip.source == 'anm'
        assert np.all(np.diff(clip.times) > 0) and clip.times[0] == 0
        assert clip.frames.max() < len(model)


def test_body_animations_from_anm():
    model = pq.load(CORPUS / 'md2/ufoai/models/soldiers/male/body.md2')
    walk = model.animations['walk1']
    assert walk.frames.tolist() == list(range(0, 31)) and walk.fps == 30
    reader = pv.get_reader(CORPUS / 'md2/ufoai/models/soldiers/male/body.md2')
    reader.set_active_animation('death1')
    assert reader.number_time_points == 31
    reader.set_active_time_point(30)
    np.testing.assert_array_equal(reader.read().points, model.positions([856])[0])


def test_mdl_groups_keep_their_intervals():
    for name in ('flame.mdl', 'flame2.mdl', 'laser.mdl'):
        model = pq.load(CORPUS / 'mdl/librequake/progs' / name)
        for group in model.data.alias.frame_groups:
            clip = next(a for a in model.animations.values() if a.source == 'group' and a.frames[0] == group.start)
            np.testing.assert_allclose(clip.times[1:], group.intervals[:-1], rtol=1e-6)
            assert clip.duration == pytest.approx(float(group.intervals[-1]))
            np.testing.assert_allclose(np.diff(model.times[group.start : group.start + group.count]), np.diff(group.intervals), rtol=1e-5)


# -- skins ------------------------------------------------------------------------------

UFO_MODELS = [p for p in MODELS if 'ufoai' in p.parts]


@pytest.mark.parametrize('path', UFO_MODELS, ids=_id)
def test_every_existing_ufo_skin_is_found_and_attached(path):
    model = pq.load(path)
    for index, name in enumerate(model.alias.skin_names):
        assert name.startswith('.')
        on_disk = [p for p in path.parent.iterdir() if p.stem == name[1:] and p.suffix.lower() in ('.png', '.jpg', '.tga', '.pcx')]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            found = model.alias.skin_file(index)
        beside = [p for p in path.parent.iterdir() if p.stem == path.stem and p.suffix.lower() in ('.png', '.jpg', '.tga', '.pcx')]
        if on_disk:
            assert found is not None and Path(found.location).stem == name[1:], (name, found)
            assert not caught
        elif beside:  # a missing named skin falls back to the image with the model's name
            assert found is not None and Path(found.location).stem == path.stem
            assert any('not found; using' in str(w.message) for w in caught)
        else:
            assert found is None
            assert any('not found' in str(w.message) for w in caught)
    if model.alias.skin_names and model.alias.skin_file(0) is not None:
        mesh = pv.read(path)
        texture = mesh.quake.texture
        assert isinstance(texture, pv.Texture)
        image = mesh.quake.image()
        assert image.ndim == 3 and image.shape[2] in (3, 4) and image.size > 0


def test_bloodspider_missing_skins_fall_back_to_its_own_image_with_a_warning():
    model = pq.load(CORPUS / 'md2/ufoai/models/aliens/bloodspider/bloodspider.md2')
    fallbacks = []
    for index in range(len(model.alias.skin_names)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            found = model.alias.skin_file(index)
        assert found is not None
        if any('not found; using' in str(w.message) for w in caught):
            fallbacks.append(Path(found.location).name)
    assert fallbacks == ['bloodspider.jpg', 'bloodspider.jpg']  # the two skins it names that do not exist


def test_md2_skins_of_the_assimp_models():
    # faerie.md2 names no skin; the one image beside it whose name starts with the model's is faerie2.bmp.
    for name, skin in (('sydney', 'sydney.bmp'), ('faerie', 'faerie2.bmp'), ('dolphin', 'dolphin_f.bmp'), ('horse', None)):
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', pq.QuakeWarning)
            mesh = pv.read(CORPUS / f'md2/assimp/{name}.md2')
        if skin is None:
            assert mesh.quake.skin_location is None and mesh.quake.image() is None
        else:
            assert mesh.quake.skin_location.endswith(skin)
            image = mesh.quake.image()
            assert image.ndim == 3 and image.shape[2] in (3, 4) and image.size > 0


@pytest.mark.parametrize('path', [p for p in MODELS if p.suffix.lower() == '.mdl'], ids=_id)
def test_mdl_skins_equal_their_palette_decode(path):
    palette = np.frombuffer((CORPUS / 'mdl/librequake/gfx/palette.lmp').read_bytes(), np.uint8).reshape(256, 3)
    model = pq.load(path)
    for index, entry in enumerate(model.data.alias.skins):
        for picture in range(len(entry.pictures)):
            np.testing.assert_array_equal(model.alias.skin_image(index, picture), palette[entry.pictures[picture]])
    mesh = pv.read(path)
    np.testing.assert_array_equal(mesh.quake.image(), palette[model.data.alias.skins[0].pictures[0]])
