"""A format of the test's own, registered through the public contract, run through every path.

The module is the complete example of docs/formats.md, taken from the page, so the page's
example is what is tested.  In process it is registered by a call; in a fresh process it is
found through an installed package's ``pyvista_quake.formats`` entry point, the CLI's included.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
from pathlib import Path
import re
import subprocess
import sys
import textwrap

from builders import tetra_md2
from builders import tetra_md3
from builders import torch_mdl
import numpy as np
from PIL import Image
import pygltflib
import pytest
import pyvista as pv

import pyvista_quake as pq
from pyvista_quake.formats import FORMATS
from pyvista_quake.formats import spec_for
from pyvista_quake.game.skins import read_palette
from pyvista_quake.plugin import readers

DOCS = Path(__file__).resolve().parents[2] / 'docs' / 'formats.md'


def example_module() -> str:
    """The Python block of the page's "Adding a format of your own" section."""
    section = DOCS.read_text().split('## Adding a format of your own', 1)[1]
    return re.search(r'```python\n(.*?)```', section, re.S).group(1)


def toy_text(frames: int = 3, lift: float = 1.0) -> bytes:
    """A toy model: a quad of two triangles rising ``lift`` a frame, frames named ``run1`` ... and ``idle1``."""
    names = [f'run{k + 1}' for k in range(frames - 1)] + ['idle1']
    lines = ['TOY1', 'frames ' + ' '.join(names)]
    for k in range(frames):
        for (x, y), (s, t) in zip([(0, 0), (8, 0), (0, 8), (8, 8)], [(0, 1), (1, 1), (0, 0), (1, 0)]):
            lines.append(f'v {x} {y} {k * lift} {s} {t}')
    lines += ['tri 0 2 1', 'tri 1 2 3']  # clockwise seen from +z
    return '\n'.join(lines).encode('ascii')


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """The example module, importable and registered; unregistered afterwards."""
    package = tmp_path / 'site'
    package.mkdir()
    (package / 'toy_format.py').write_text(example_module())
    monkeypatch.syspath_prepend(str(package))
    import toy_format

    saved = pv.core.utilities.reader_registry._save_registry_state()
    toy_format.register()
    yield toy_format
    dict.pop(FORMATS, 'toy', None)
    sys.modules.pop('toy_format', None)
    pv.core.utilities.reader_registry._restore_registry_state(saved)
    readers._REGISTERED.discard('.toy')


@pytest.fixture
def model_file(tmp_path):
    folder = tmp_path / 'game' / 'models' / 'toy'
    folder.mkdir(parents=True)
    path = folder / 'thing.toy'
    path.write_bytes(toy_text())
    # A red skin where the surface's shader name says, as the game finds images.
    pv.wrap(np.zeros((4, 4, 3))).save  # noqa: B018 - PyVista imported; the image is written with Pillow

    Image.new('RGB', (4, 4), (255, 0, 0)).save(folder / 'skin.png')
    return path


def test_a_registered_format_loads_with_its_frames_animations_and_skin(toy, model_file):
    model = pq.load(model_file)
    assert model.format == 'toy' and model.spec.title == 'toy models'
    assert len(model) == 3 and model.frame_names == ['run1', 'run2', 'idle1']
    assert model.fps == 10.0
    assert set(model.animations) == {'run', 'idle'}
    assert model.surface_names == ['body']
    blocks = model.blocks(1)
    assert isinstance(blocks, pv.MultiBlock) and blocks.n_blocks == 1
    np.testing.assert_allclose(blocks[0].points[:, 2], 1.0)
    np.testing.assert_allclose(model.mesh(2).points[:, 2], 2.0)
    # Halfway between run1 (z 0) and run2 (z 1) at 10 frames a second.
    np.testing.assert_allclose(model.at(0.05, 'run')[0].points[:, 2], 0.5, atol=1e-6)
    # Triangles come out anticlockwise from the front: normals up (+z), made from the faces.
    np.testing.assert_allclose(model.normals(0)[0], [[0, 0, 1]] * 4, atol=1e-6)
    image = model.surfaces[0].image()
    assert image is not None and tuple(image[0, 0, :3]) == (255, 0, 0)


def test_pyvista_reads_a_registered_format(toy, model_file):
    mesh = pv.read(model_file)
    assert isinstance(mesh, pv.MultiBlock)
    np.testing.assert_allclose(mesh[0].points[:, 2], 0.0)
    reader = pv.get_reader(str(model_file))
    assert reader.number_time_points == 3
    reader.set_active_time_point(2)
    np.testing.assert_allclose(reader.read()[0].points[:, 2], 2.0)


def test_a_registered_format_exports_a_glb_with_its_animation(toy, model_file, tmp_path):
    out = tmp_path / 'thing.glb'
    pq.export(model_file, out)
    gltf = pygltflib.GLTF2().load(str(out))
    assert len(gltf.meshes) == 1 and gltf.animations
    assert len(gltf.meshes[0].primitives[0].targets) == 3  # a morph target a frame


def test_a_registered_format_renders_a_thumbnail(toy, model_file, tmp_path):

    out = tmp_path / 'thing.png'
    pq.thumbnail(model_file, out)
    pixels = np.asarray(Image.open(out).convert('RGB')).reshape(-1, 3)
    red = (pixels[:, 0] > 120) & (pixels[:, 1] < 60) & (pixels[:, 2] < 60)
    assert red.sum() > 100  # the skin the game files gave it


def test_an_unchanged_model_saves_as_its_bytes_and_an_edited_one_through_write(toy, model_file, tmp_path):
    model = pq.load(model_file)
    model.save(tmp_path / 'same.toy')
    assert (tmp_path / 'same.toy').read_bytes() == model_file.read_bytes()
    model.set_frame(0, model.mesh(2).points)
    model.save(tmp_path / 'edited.toy')
    again = pq.load(tmp_path / 'edited.toy')
    np.testing.assert_allclose(again.mesh(0).points[:, 2], 2.0)
    assert again.frame_names == model.frame_names


def test_models_convert_to_and_from_a_registered_format(toy, model_file, tmp_path):
    model = pq.load(model_file)
    model.save(tmp_path / 'thing.md3')
    md3 = pq.load(tmp_path / 'thing.md3')
    np.testing.assert_allclose(md3.positions(), model.positions(), atol=1 / 64)
    md3.save(tmp_path / 'back.toy')
    np.testing.assert_allclose(pq.load(tmp_path / 'back.toy').positions(), model.positions(), atol=1 / 64)
    model.save(tmp_path / 'thing.md2')
    pq.load(tmp_path / 'thing.md2').save(tmp_path / 'from_md2.toy')
    np.testing.assert_allclose(pq.load(tmp_path / 'from_md2.toy').positions(), model.positions(), atol=0.05)


def test_a_format_without_a_writer_cannot_be_saved(toy, model_file, tmp_path):
    pq.register_format('toy', ['.toy'], toy.read, magic=b'TOY1')
    model = pq.load(model_file)
    assert not model.spec.writable
    with pytest.raises(ValueError, match="'toy'"):
        model.save(tmp_path / 'copy.toy')
    assert not (tmp_path / 'copy.toy').exists()


def test_a_bad_file_of_a_registered_format_is_a_format_error(toy, tmp_path):
    bad = tmp_path / 'bad.toy'
    bad.write_bytes(b'TOY1\nframes a b\nv 0 0 0 0 0\n')
    with pytest.raises(pq.QuakeFormatError, match='bad.toy'):
        pq.load(bad)
    # A read that fails on the file (here: no frames line at all) is one, too, not a traceback.
    bad.write_bytes(b'TOY1')
    with pytest.raises(pq.QuakeFormatError, match='bad.toy'):
        pq.load(bad)


@contextlib.contextmanager
def registered(name: str, read, magic: bytes, **hooks):
    """A format ``name`` (files ``.name``) registered for the block, then forgotten wherever it was registered."""
    saved = pv.core.utilities.reader_registry._save_registry_state()
    pq.register_format(name, [f'.{name}'], read, magic=magic, **hooks)
    try:
        yield
    finally:
        dict.pop(FORMATS, name, None)
        pv.core.utilities.reader_registry._restore_registry_state(saved)
        readers._REGISTERED.discard(f'.{name}')


def test_a_read_that_returns_something_else_is_named(tmp_path):
    with registered('wrong', lambda data, source: {'not': 'model data'}, b'WRNG'):
        (tmp_path / 'x.wrong').write_bytes(b'WRNG')
        with pytest.raises(pq.QuakeFormatError, match='must return pyvista_quake.ModelData'):
            pq.load(tmp_path / 'x.wrong')


def test_a_registration_needs_an_extension_and_a_way_to_tell_its_files():
    with pytest.raises(ValueError, match='extension'):
        pq.register_format('none', [], lambda d, s: None, magic=b'NONE')
    with pytest.raises(ValueError, match='magic bytes or a sniff'):
        pq.register_format('none', ['.none'], lambda d, s: None)
    assert 'none' not in FORMATS


def test_a_sniffed_format_is_told_by_its_grammar(toy, tmp_path):
    pq.register_format('toytext', ['.toyt'], toy.read, sniff=lambda head: head.startswith(b'TOY2'))
    try:
        assert spec_for(b'TOY2 anything', 'x').name == 'toytext'
        assert spec_for(toy_text(), 'x').name == 'toy'
    finally:
        dict.pop(FORMATS, 'toytext', None)


def test_surface_data_checks_its_shapes():
    with pytest.raises(ValueError, match=r'\(frames, vertices, 3\)'):
        pq.SurfaceData(name='s', triangles=[[0, 1, 2]], texcoords=np.zeros((3, 2)), positions=np.zeros((1, 3, 2)))
    with pytest.raises(ValueError, match='2 texture coordinates for 3 points'):
        pq.SurfaceData(name='s', triangles=[[0, 1, 2]], texcoords=np.zeros((2, 2)), positions=np.zeros((3, 3)))
    with pytest.raises(ValueError, match='normals'):
        pq.SurfaceData(name='s', triangles=[[0, 1, 2]], texcoords=np.zeros((3, 2)), positions=np.zeros((3, 3)), normals=np.zeros((2, 3)))
    one = pq.SurfaceData(name='s', triangles=[[0, 1, 2]], texcoords=np.zeros((3, 2)), positions=np.zeros((3, 3), np.float64))
    assert one.positions.shape == (1, 3, 3) and one.positions.dtype == np.float32
    with pytest.raises(ValueError, match='has 1 frames; the model names 2'):
        pq.ModelData(surfaces=[one], frame_names=['a', 'b'])
    with pytest.raises(ValueError, match='fps'):
        pq.ModelData(surfaces=[one], frame_names=['a'], fps=0)
    data = pq.ModelData(surfaces=[one])
    assert data.decoded_frame_names() == ['frame000']
    np.testing.assert_array_equal(data.frame_bounds, np.zeros((1, 2, 3)))
    assert one.texcoords.dtype == np.float32 and one.triangles.dtype == np.int32
    assert pq.ModelData(surfaces=[]).num_frames == 0  # no surfaces: no frames named


def test_frame_boxes_cover_the_float_surfaces_with_vertices():
    empty = pq.SurfaceData(name='none', triangles=np.zeros((0, 3)), texcoords=np.zeros((0, 2)), positions=np.zeros((2, 0, 3)))
    moving = pq.SurfaceData(
        name='m',
        triangles=[[0, 1, 2]],
        texcoords=np.zeros((3, 2)),
        positions=[[[0, 0, 0], [1, 2, 3], [-1, 0, 0]], [[0, 0, 5], [1, 2, 8], [-1, 0, 5]]],
    )
    shorts = pq.SurfaceData(
        name='md3',
        triangles=[[0, 1, 2]],
        texcoords=np.zeros((3, 2)),
        positions=np.full((2, 3, 3), 6400, np.int16),
        normals=np.zeros((2, 3), np.uint16),
    )
    data = pq.ModelData(surfaces=[empty, moving, shorts], frame_names=['a', 'b'])
    np.testing.assert_array_equal(data.frame_bounds, [[[-1, 0, 0], [1, 2, 3]], [[-1, 0, 5], [1, 2, 8]]])  # the shorts' codec is not plain


# -- an installed package, in fresh processes ------------------------------------------------


@pytest.fixture
def installed(tmp_path, model_file):
    """A folder on the path holding the example as an installed package with the entry point."""
    site = tmp_path / 'installed'
    site.mkdir()
    (site / 'toy_format.py').write_text(example_module())
    info = site / 'toy_format-1.0.dist-info'
    info.mkdir()
    (info / 'METADATA').write_text('Metadata-Version: 2.1\nName: toy-format\nVersion: 1.0\n')
    (info / 'entry_points.txt').write_text('[pyvista_quake.formats]\ntoy = toy_format:register\n')
    env = {**os.environ, 'PYTHONPATH': os.pathsep.join([str(site), os.environ.get('PYTHONPATH', '')])}
    return env, model_file


def run(env, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(args, env=env, capture_output=True, text=True, timeout=300)


def test_an_entry_point_format_loads_in_a_fresh_process(installed):
    env, path = installed
    code = textwrap.dedent(f"""
        import pyvista as pv, pyvista_quake as pq
        model = pq.load({str(path)!r})
        print(model.format, len(model), pv.read({str(path)!r})[0].n_points)
    """)
    done = run(env, sys.executable, '-c', code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ['toy', '3', '4']


def test_the_cli_finds_an_entry_point_format(installed, tmp_path):
    env, path = installed
    cli = [sys.executable, '-m', 'pyvista_quake']
    done = run(env, *cli, 'info', str(path), '--json')
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)[0]
    assert record['format'] == 'toy' and record['frames'] == 3 and record['vertices'] == 4 and record['triangles'] == 2
    assert record['game'] == 'Toy'
    pictures = tmp_path / 'pictures'
    done = run(env, *cli, 'thumbnail', str(path.parent), '--output', str(pictures))
    assert done.returncode == 0, done.stderr + done.stdout
    assert [p.name for p in pictures.rglob('*.png')] == ['thing.png']
    site = tmp_path / 'site-out'
    done = run(env, *cli, 'catalogue', str(path.parent), '--output', str(site))
    assert done.returncode == 0, done.stderr + done.stdout
    assert 'thing' in (site / 'index.html').read_text()


def test_extensions_are_kept_lower_case_with_their_dot(toy):
    spec = pq.register_format('toy', ['TOY', '.Toy2'], toy.read, magic=b'TOY1')
    assert spec.extensions == ('.toy', '.toy2')
    assert pq.register_format('toy', '.toy', toy.read, magic=b'TOY1', write=toy.write).extensions == ('.toy',)


def test_the_source_a_read_names_is_kept_else_the_files(toy, model_file):
    assert pq.load(model_file).source == str(model_file)

    def named(data, source):
        return dataclasses.replace(toy.read(data, source), source='toy:thing')

    pq.register_format('toy', ['.toy'], named, magic=b'TOY1')
    assert pq.load(model_file).source == 'toy:thing'


def test_records_tell_their_format(toy, model_file):

    from pyvista_quake.formats import md2
    from pyvista_quake.formats import md3
    from pyvista_quake.formats import spec_of_record

    record = FORMATS['toy'].parse(model_file.read_bytes(), str(model_file))
    assert spec_of_record(record).name == 'toy'
    assert spec_of_record(md2.parse(tetra_md2(), 'a.md2')).name == 'md2'
    assert spec_of_record(md3.parse(tetra_md3(), 'a.md3')).name == 'md3'
    # An MD2's rules, found from its records alone: 100 bytes is short of its ofs_end.
    assert [f.rule for f in pq.game.engines.findings(md2.parse(tetra_md2(), 'a.md2'), 100) if f.engine == 'yquake2'][0] == 'ofs_end outside the file'
    assert pq.game.engines.findings(md2.parse(tetra_md2(), 'a.md2'), len(tetra_md2())) == pq.check(tetra_md2())
    plain = pq.ModelData(surfaces=[])  # made, not read: no format has it
    with pytest.raises(ValueError, match='no registered format reads records of type ModelData'):
        spec_of_record(plain)
    with pytest.raises(ValueError, match='type dict'):
        spec_of_record({})


def test_installed_formats_register_once_and_a_broken_one_is_named(monkeypatch):
    from pyvista_quake.formats import registry

    calls = []

    class Point:
        def __init__(self, name, function):
            self.name, self.value, self.function = name, f'{name}:register', function

        def load(self):
            return self.function

    def good():
        calls.append('good')
        assert 'md2' in FORMATS  # a plugin may look formats up while registering: no recursion

    def bad():
        raise ImportError('no module named toyish')

    looked = []
    monkeypatch.setattr(registry, 'entry_points', lambda group: looked.append(group) or [Point('good', good), Point('bad', bad)])
    monkeypatch.setattr(registry, '_POINTS', [])
    monkeypatch.setattr(registry, '_CALLED', set())
    with pytest.warns(RuntimeWarning, match=r'format plugin bad \(bad:register\) failed to register: ImportError: no module named toyish'):
        registry.load_plugins()
    assert calls == ['good'] and looked == ['pyvista_quake.formats']
    registry.load_plugins()
    list(FORMATS.values())
    assert calls == ['good'] and len(looked) == 1  # once a process


def test_a_frame_carries_its_skin_into_a_model_made_from_it(tmp_path):
    from PIL import Image

    folder = tmp_path / 'models' / 'test'
    folder.mkdir(parents=True)
    (folder / 'tris.md2').write_bytes(tetra_md2(skins=['models/test/skin.png']))
    Image.new('RGB', (4, 4), (10, 200, 30)).save(folder / 'skin.png')
    mesh = pq.load(folder / 'tris.md2').mesh(0)
    made = pq.QuakeModel.from_frames(mesh, 'md2')
    assert tuple(made.alias.skin_image(0)[0, 0, :3]) == (10, 200, 30)
    made.save(tmp_path / 'made.md3')  # an MD2's one surface is named after its file in an MD3
    assert pq.load(tmp_path / 'made.md3').surface_names == ['model']
    pq.load(folder / 'tris.md2').save(tmp_path / 'tris.md3')
    assert pq.load(tmp_path / 'tris.md3').surface_names == ['tris']


# -- a format with bones: surfaces of skinned joints and a skeleton -------------------------


def bones_read(data: bytes, source: str) -> pq.ModelData:
    """``BONE`` then a byte: frames of a bar on two joints, the child (2 units along x) turning 30 degrees a frame about z."""
    frames = data[4]
    if not frames:
        raise pq.QuakeFormatError(source, 'frames', 0, 'at least one frame')
    positions = np.array([[0, -1, 0], [0, 1, 0], [4, -1, 0], [4, 1, 0]], np.float32)
    weights = pq.JointWeights(np.array([[0], [0], [1], [1]], np.int32), np.ones((4, 1), np.float32))
    surface = pq.SurfaceData('bar', np.array([[0, 2, 1], [1, 2, 3]]), positions[:, :2] / 4 + 0.5, positions, shaders=['bar'], joint_weights=weights)
    bind = np.stack([np.eye(4), np.eye(4)])
    bind[1, 0, 3] = 2
    angles = np.radians(30) * np.arange(frames)
    poses = np.zeros((frames, 2, 10))
    poses[..., 6] = 1  # the quaternions' w
    poses[..., 7:] = 1
    poses[:, 1, 0] = 2  # the child, from its parent
    poses[:, 1, 5], poses[:, 1, 6] = np.sin(angles / 2), np.cos(angles / 2)
    joints = [pq.Joint('root', -1), pq.Joint('child', 0)]
    animation = pq.SkeletalAnimationData(source, joints, poses, [pq.Clip('bend', 0, frames, 10.0, True)], 'matrix')
    return pq.ModelData([surface], format='bones', skeleton=pq.Skeleton(joints, bind, 'matrix', animation))


@pytest.fixture
def bones(tmp_path):
    saved = pv.core.utilities.reader_registry._save_registry_state()
    pq.register_format('bones', ['.bones'], bones_read, magic=b'BONE', write=lambda data: b'')
    path = tmp_path / 'bar.bones'
    path.write_bytes(b'BONE\x03')
    yield path
    dict.pop(FORMATS, 'bones', None)
    pv.core.utilities.reader_registry._restore_registry_state(saved)
    readers._REGISTERED.discard('.bones')


@pytest.mark.filterwarnings('ignore::pyvista_quake.QuakeWarning')  # its image is nowhere
def test_a_registered_format_with_bones_is_skinned_everywhere(bones, tmp_path):
    model = pq.load(bones)
    assert len(model) == 3 and list(model.animations) == ['bend'] and [j.name for j in model.skeletal.joints] == ['root', 'child']
    turn = np.radians(60)
    expected = np.array([2 + 2 * np.cos(turn) + np.sin(turn), 2 * np.sin(turn) - np.cos(turn), 0])  # (4, -1) about (2, 0)
    np.testing.assert_allclose(model.positions([2])[0, 2], expected, atol=1e-5)
    np.testing.assert_allclose(pv.read(bones)[0].points[2], [4, -1, 0], atol=1e-6)  # frame 0: the bind pose
    np.testing.assert_allclose(model.skeletal.joint_matrices(2)[1][:3, 3], [2, 0, 0], atol=1e-6)
    pq.export(model, tmp_path / 'bar.glb')
    gltf = pygltflib.GLTF2().load(str(tmp_path / 'bar.glb'))
    assert len(gltf.skins) == 1 and len(gltf.skins[0].joints) == 2 and gltf.animations  # joints, not morph targets
    model.save(tmp_path / 'same.bones')
    assert (tmp_path / 'same.bones').read_bytes() == bones.read_bytes()  # unchanged: its bytes as read
    model.save(tmp_path / 'baked.md3')  # a format of surfaces: its skinned frames
    baked = pq.load(tmp_path / 'baked.md3')
    assert len(baked) == 3
    np.testing.assert_allclose(baked.positions([2])[0], model.positions([2])[0], atol=1 / 64)
    pq.thumbnail(model, tmp_path / 'bar.png')
    assert (tmp_path / 'bar.png').stat().st_size > 0


def test_a_format_s_bones_that_cannot_skin_its_surfaces_are_a_format_error(tmp_path, monkeypatch):
    good = bones_read(b'BONE\x02', 'x')
    surface, skeleton = good.surfaces[0], good.skeleton
    plain = dataclasses.replace(surface, joint_weights=None)
    far = dataclasses.replace(surface, joint_weights=pq.JointWeights(np.array([[0], [0], [1], [2]], np.int32), np.ones((4, 1), np.float32)))
    below = dataclasses.replace(surface, joint_weights=pq.JointWeights(np.array([[0], [-1], [1], [1]], np.int32), np.ones((4, 1), np.float32)))
    framed = dataclasses.replace(surface, positions=np.stack([surface.positions[0]] * 2))
    for bad, said in (
        (plain, r'hold their bind pose \(one frame\) and joint_weights'),
        (far, 'joints 0 to 2 of a skeleton of 2'),
        (below, 'joints -1 to 1'),
        (framed, 'one frame'),
    ):
        with pytest.raises(ValueError, match=said):
            pq.ModelData([bad], skeleton=skeleton)
    assert pq.ModelData([surface], skeleton=skeleton).skeleton is skeleton
    one = dataclasses.replace(surface, joint_weights=pq.JointWeights(np.ones((4, 1), np.int32), np.ones((4, 1), np.float32)))
    assert pq.ModelData([one], skeleton=skeleton).surfaces[0] is one  # every vertex on the last joint
    with pytest.raises(ValueError, match=r'joint_weights of joints \(4, 1\), weights \(3, 1\)'):
        pq.SurfaceData('s', np.zeros((0, 3)), np.zeros((4, 2)), np.zeros((4, 3)), joint_weights=pq.JointWeights(np.zeros((4, 1)), np.zeros((3, 1))))
    with pytest.raises(ValueError, match='for 5 vertices'):
        pq.SurfaceData('s', np.zeros((0, 3)), np.zeros((5, 2)), np.zeros((5, 3)), joint_weights=pq.JointWeights(np.zeros((4, 1)), np.zeros((4, 1))))
    with pytest.raises(ValueError, match='offsets'):
        pq.SurfaceData(
            's',
            np.zeros((0, 3)),
            np.zeros((4, 2)),
            np.zeros((4, 3)),
            joint_weights=pq.JointWeights(np.zeros((4, 2)), np.zeros((4, 2)), np.zeros((4, 1, 3))),
        )
    pq.SurfaceData(
        's',
        np.zeros((0, 3)),
        np.zeros((4, 2)),
        np.zeros((4, 3)),
        joint_weights=pq.JointWeights(np.zeros((4, 2)), np.zeros((4, 2)), np.zeros((4, 2, 3))),
    )
    with pytest.raises(ValueError, match=r'joints \(4,\)'):
        pq.SurfaceData('s', np.zeros((0, 3)), np.zeros((4, 2)), np.zeros((4, 3)), joint_weights=pq.JointWeights(np.zeros(4), np.zeros(4)))
    with registered('nobones', lambda data, source: pq.ModelData([plain], skeleton=skeleton), b'NOBO'):
        (tmp_path / 'x.nobones').write_bytes(b'NOBO')
        with pytest.raises(pq.QuakeFormatError, match='x.nobones.*joint_weights'):
            pq.load(tmp_path / 'x.nobones')


def packed_surface(frames: int = 2, seam: bool = True) -> pq.SurfaceData:
    """A quad of packed bytes: four vertices rising a unit a frame, a fifth point on a seam (vertex 1 again)."""
    verts = np.zeros((frames, 4, 4), np.uint8)
    verts[:, :, :2] = [[0, 0], [8, 0], [0, 8], [8, 8]]
    verts[:, :, 2] = np.arange(frames)[:, None]
    verts[:, :, 3] = [5, 5, 5, 161]  # two entries of Quake's table
    packing = pq.Packing(verts, np.full((frames, 3), 0.5, np.float32), np.tile(np.float32([1, 2, 3]), (frames, 1)))
    points = [0, 1, 2, 3, 1] if seam else [0, 1, 2, 3]
    texcoords = np.zeros((len(points), 2))
    return pq.SurfaceData(
        name='quad', triangles=[[0, 2, 4], [1, 2, 3]], texcoords=texcoords, positions=verts[..., :3], packing=packing, point_vertex=points
    )


@contextlib.contextmanager
def packed_model(tmp_path, surface: pq.SurfaceData | None = None):
    """A model of a format registered for the block whose one surface is packed bytes (``packed_surface(3)``
    by default), its frames named a, b, c..., read from ``x.pak8``."""
    given = surface if surface is not None else packed_surface(3)

    def read(data: bytes, source: str) -> pq.ModelData:
        return pq.ModelData(surfaces=[given], frame_names=list('abcdefgh'[: given.positions.shape[0]]))

    with registered('pak8', read, b'PAK8'):
        (tmp_path / 'x.pak8').write_bytes(b'PAK8')
        yield pq.load(tmp_path / 'x.pak8')


def test_a_packed_surface_decodes_as_scale_and_translate_of_its_points_vertices():
    from pyvista_quake.data.decode import surface_normals
    from pyvista_quake.data.decode import surface_positions
    from pyvista_quake.formats.tables import VERTEX_NORMALS

    surface = packed_surface()
    assert surface.num_vertices == 4 and surface.num_points == 5
    assert surface.positions.dtype == np.uint8 and surface.normals.shape == (2, 4)
    positions = surface_positions(surface, np.arange(2))
    np.testing.assert_array_equal(positions[1, 4], [8 * 0.5 + 1, 2, 0.5 + 3])  # the seam's point is vertex 1's
    np.testing.assert_array_equal(positions[:, :4], surface.positions.astype(np.float32) * 0.5 + [1, 2, 3])
    normals = surface_normals(surface, slice(1, 2))
    np.testing.assert_array_equal(normals[0], VERTEX_NORMALS[[5, 5, 5, 161, 5]])


def test_a_registered_format_of_packed_bytes_loads_and_draws(tmp_path):
    with packed_model(tmp_path) as model:
        assert len(model) == 3 and model.surfaces[0].num_points == 5
        mesh = model.mesh(2)
        assert mesh.n_points == 5 and mesh.n_cells == 2
        np.testing.assert_array_equal(mesh.points[4], mesh.points[1])  # one vertex, two points
        np.testing.assert_array_equal(mesh.point_data['vertex_index'], [0, 1, 2, 3, 1])
        np.testing.assert_allclose(model.bounds([0, 2])[:, 4:], [[3, 3], [4, 4]])
        assert pq.ModelData(surfaces=[packed_surface(3)], frame_names=['a', 'b', 'c']).frame_bounds.shape == (3, 2, 3)


def test_a_packed_surface_checks_its_codec():
    surface = packed_surface()
    packing = surface.packing
    with pytest.raises(ValueError, match=r'uint8 positions are packed bytes: give their packing \(scale and translate\)'):
        pq.SurfaceData(name='s', triangles=[[0, 1, 2]], texcoords=np.zeros((4, 2)), positions=np.zeros((1, 4, 3), np.uint8))
    with pytest.raises(ValueError, match=r'packing.verts must be uint8 \(frames, vertices, 4\), not float32'):
        pq.SurfaceData(
            name='s',
            triangles=[[0, 1, 2]],
            texcoords=np.zeros((4, 2)),
            positions=None,
            packing=pq.Packing(packing.verts.astype(np.float32), packing.scale, packing.translate),
        )
    with pytest.raises(ValueError, match=r'not uint8 \(2, 4, 3\)'):
        pq.SurfaceData(
            name='s',
            triangles=[[0, 1, 2]],
            texcoords=np.zeros((4, 2)),
            positions=None,
            packing=pq.Packing(packing.verts[..., :3], packing.scale, packing.translate),
        )
    for what in ('scale', 'translate'):
        wrong = dataclasses.replace(packing, **{what: np.zeros((3, 3), np.float32)})
        with pytest.raises(ValueError, match=rf'packing.{what} of shape \(3, 3\) for 2 frames \(frames, 3\)'):
            pq.SurfaceData(name='s', triangles=[[0, 1, 2]], texcoords=np.zeros((4, 2)), positions=None, packing=wrong)
    for points, shown in (([0, 1, 2, 4], '0 to 4 of 4'), ([-1, 0, 1, 2], '-1 to 2 of 4')):
        with pytest.raises(ValueError, match=f'point_vertex names vertices {shown}'):
            pq.SurfaceData(name='s', triangles=[[0, 1, 2]], texcoords=np.zeros((4, 2)), positions=None, packing=packing, point_vertex=points)
    with pytest.raises(ValueError, match='4 texture coordinates for 5 points'):
        pq.SurfaceData(name='s', triangles=[[0, 1, 2]], texcoords=np.zeros((4, 2)), positions=None, packing=packing, point_vertex=[0, 1, 2, 3, 3])
    given = np.array([3, 2, 1, 0], np.int32)
    last = pq.SurfaceData(name='s', triangles=[[0, 1, 2]], texcoords=np.zeros((4, 2)), positions=None, packing=packing, point_vertex=given)
    assert np.shares_memory(last.point_vertex, given) and last.num_points == 4  # an int32 array is not copied
    one = pq.SurfaceData(name='s', triangles=[[0, 1, 2]], texcoords=np.zeros((3, 2)), positions=None, packing=packing, point_vertex=[2, 2, 2])
    assert one.point_vertex.dtype == np.int32 and one.num_points == 3  # every point of one vertex


def test_a_packed_surface_decodes_every_frame_and_gives_a_normal_past_the_table_its_faces():
    from pyvista_quake.data.decode import surface_normals
    from pyvista_quake.data.decode import surface_positions
    from pyvista_quake.data.decode import vertex_face_normals
    from pyvista_quake.formats.tables import VERTEX_NORMALS

    verts = np.zeros((3, 5, 4), np.uint8)
    verts[:, :, :2] = [[0, 0], [9, 0], [9, 9], [0, 9], [4, 12]]
    verts[:, :, 3] = [5, 5, 5, 5, 200]  # the last past Quake's 162 normals
    verts[2, :, 2] = 3  # the last frame lifted
    packing = pq.Packing(verts, np.ones((3, 3), np.float32), np.zeros((3, 3), np.float32))
    triangles = [[0, 2, 1], [0, 3, 2], [3, 4, 2]]
    surface = pq.SurfaceData(name='fan', triangles=triangles, texcoords=np.zeros((5, 2)), positions=None, packing=packing)
    positions = surface_positions(surface, slice(None))
    assert positions.shape == (3, 5, 3) and positions[2, 0, 2] == 3
    with pytest.warns(pq.QuakeWarning, match=r"^surface 'fan': 3 vertex normals index past the 162-entry normal table \(up to 200\)"):
        normals = surface_normals(surface, slice(None))
    np.testing.assert_array_equal(normals[:, :4], np.broadcast_to(VERTEX_NORMALS[5], (3, 4, 3)))
    np.testing.assert_allclose(normals[:, 4], vertex_face_normals(positions, triangles)[:, 4])


def test_a_registered_format_s_packed_surface_warns_naming_its_file_and_surface(tmp_path):
    from pyvista_quake.model.edit import plain_data

    surface = packed_surface(2)
    surface.packing.verts[1, 3, 3] = 170  # past Quake's 162 normals, in the second frame
    with packed_model(tmp_path, surface) as model:
        with pytest.warns(pq.QuakeWarning, match=r"x\.pak8: surface 'quad': 1 vertex normals index past the 162-entry normal table \(up to 170\)"):
            model.normals([1])
        with pytest.warns(pq.QuakeWarning, match=r"x\.pak8: surface 'quad': 1 vertex normals"):
            model.surfaces[0].normals([1])
        with pytest.warns(pq.QuakeWarning, match=r"x\.pak8: surface 'quad': 1 vertex normals"):
            plain = plain_data(model.data)  # what a third party's writer takes: plain floats, decoded on the way
        surface = plain.surfaces[0]
        assert surface.packing is None and surface.point_vertex is None and surface.num_points == 5
        np.testing.assert_array_equal(surface.positions, model.positions())  # every point as drawn, seam and all
        np.testing.assert_array_equal(surface.normals[0], model.normals([0])[0])
        np.testing.assert_allclose(plain.frame_bounds, model.bounds().reshape(-1, 3, 2).transpose(0, 2, 1))


def test_plain_data_keeps_a_file_s_own_frame_boxes(tmp_path):
    from pyvista_quake.model.edit import plain_data

    frames = [pv.Sphere(radius=1.0 + k, theta_resolution=6, phi_resolution=6) for k in range(2)]
    pq.QuakeModel.from_frames(frames, 'md3').save(tmp_path / 'ball.md3')
    data = pq.load(tmp_path / 'ball.md3').data
    stored = np.full((2, 2, 3), 7.5, np.float32)  # what the file says, however little it fits the geometry
    plain = plain_data(dataclasses.replace(data, frame_bounds=stored))
    np.testing.assert_array_equal(plain.frame_bounds, stored)
    assert plain.surfaces[0].positions.dtype == np.float32 and plain.file is None


def test_a_registered_format_s_packed_surface_takes_edits_as_plain_floats(tmp_path):
    with packed_model(tmp_path) as model:
        before = model.positions()
        moved = before[1] + np.float32(0.3)  # off the packed grid: the bytes could not hold it
        model.set_frame(1, moved)
        after = model.positions()
        np.testing.assert_array_equal(after[1], moved)
        np.testing.assert_array_equal(after[[0, 2]], before[[0, 2]])
        assert model.surfaces[0].num_points == 5 and model.mesh(1).n_cells == 2
        model.remove_frames([0])
        assert model.frame_names == ['b', 'c'] and len(model) == 2
        np.testing.assert_array_equal(model.positions()[0], moved)


# -- extension-named plugins: imported only when their files are, options, magic before extension --------

PLUGIN = '''
"""A {name} format for the tests: the toy format's text under its own magic, scaled by its own option."""

import sys

import numpy as np

import pyvista_quake
import toy_format


def read(data: bytes, source: str, *, scale: float = 1.0) -> pyvista_quake.ModelData:
    if not data.startswith({magic!r}):
        raise pyvista_quake.QuakeFormatError(source, 'ident', data[:4], 'not {name}')
    model = toy_format.read(b'TOY1' + data[4:], source)
    surface = model.surfaces[0]
    surface.positions[...] *= np.float32(scale)
    return model


def register() -> None:
    print('{name} imported', file=sys.stderr)
    pyvista_quake.register_format('{name}', [{extension!r}], read, magic={magic!r}, title='{name} models', game='Tests')
'''


@pytest.fixture
def two_plugins(tmp_path):
    """Two installed packages, their formats named by extension: ``.qtoy`` (with a ``scale`` option) and a second ``.mdl``."""
    site = tmp_path / 'installed'
    site.mkdir()
    (site / 'toy_format.py').write_text(example_module())
    points = []
    for name, extension, magic in (('qtoy', '.qtoy', b'QTOY'), ('xmdl', '.mdl', b'XMDL')):
        (site / f'{name}_format.py').write_text(PLUGIN.format(name=name, extension=extension, magic=magic))
        info = site / f'{name}_format-1.0.dist-info'
        info.mkdir()
        (info / 'METADATA').write_text(f'Metadata-Version: 2.1\nName: {name}-format\nVersion: 1.0\n')
        (info / 'entry_points.txt').write_text(f'[pyvista_quake.formats]\n{extension} = {name}_format:register\n')
        points.append(name)
    files = tmp_path / 'files'
    files.mkdir()
    (files / 'a.qtoy').write_bytes(b'QTOY' + toy_text()[4:])
    (files / 'b.mdl').write_bytes(b'XMDL' + toy_text()[4:])
    (files / 'c.mdl').write_bytes(b'NONE' + toy_text()[4:])

    (files / 'quake.mdl').write_bytes(torch_mdl())
    from builders import tetra_md2

    (files / 'x.dat').write_bytes(tetra_md2())
    env = {**os.environ, 'PYTHONPATH': os.pathsep.join([str(site), str(Path(__file__).resolve().parents[1]), os.environ.get('PYTHONPATH', '')])}
    return env, files


def test_extension_named_plugins_are_imported_with_their_files_only(two_plugins):
    env, files = two_plugins
    code = textwrap.dedent(f"""
        import sys
        import pyvista as pv, pyvista_quake as pq
        print(sorted(m for m in sys.modules if m.endswith('_format')))
        quake = pq.load({str(files / 'quake.mdl')!r})
        print(quake.format, sorted(m for m in sys.modules if m.endswith('_format')))
        print(pq.load({str(files / 'b.mdl')!r}).format, pv.read({str(files / 'quake.mdl')!r}).n_points > 0)
        print(pq.load({str(files / 'x.dat')!r}).format, sorted(m for m in sys.modules if m.endswith('_format')))
        print(pq.load({str(files / 'a.qtoy')!r}).format, sorted(m for m in sys.modules if m.endswith('_format')))
        try:
            pq.load({str(files / 'c.mdl')!r})
        except pq.QuakeFormatError as error:
            print('refused:', error)
    """)
    done = run(env, sys.executable, '-c', code)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == '[]'  # import pyvista_quake imports no plugin
    assert lines[1] == "mdl ['toy_format', 'xmdl_format']"  # a .mdl opened: the .mdl plugin, not the .qtoy one
    assert lines[2] == 'xmdl True'  # each .mdl by its own format, told by its bytes
    assert lines[3] == "md2 ['toy_format', 'xmdl_format']"  # a built-in's bytes under another name: no plugin imported
    assert lines[4] == "qtoy ['qtoy_format', 'toy_format', 'xmdl_format']"
    assert lines[5].startswith('refused: ') and "b'NONE'" in lines[5]
    assert 'IDPO (mdl)' in lines[5] and 'XMDL (xmdl)' in lines[5] and 'formats of its extension' in lines[5]
    assert done.stderr.count('xmdl imported') == 1 and done.stderr.count('qtoy imported') == 1


def test_a_format_s_own_option_reaches_its_read_through_load_and_pv_read(two_plugins):
    env, files = two_plugins
    qtoy, quake = str(files / 'a.qtoy'), str(files / 'quake.mdl')
    code = textwrap.dedent(f"""
        import pyvista as pv, pyvista_quake as pq
        print(pq.load({qtoy!r}).positions()[0].max(), pq.load({qtoy!r}, scale=2).positions()[0].max())
        print(pv.read({qtoy!r})[0].points.max(), pv.read({qtoy!r}, scale=3)[0].points.max())
        reader = pv.get_reader({qtoy!r})
        print(reader.scale, hasattr(reader, 'colour'))
        reader.scale = 0.5
        print(reader.scale, reader.read()[0].points.max())
        for call in (lambda: pq.load({qtoy!r}, colour=1), lambda: pv.read({qtoy!r}, colour=1), lambda: pq.load({quake!r}, scale=2)):
            try:
                call()
            except TypeError as error:
                print('TypeError:', error)
    """)
    done = run(env, sys.executable, '-c', code)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == '8.0 16.0' and lines[1] == '8.0 24.0'
    assert lines[2] == '1.0 False' and lines[3] == '0.5 4.0'
    assert "unknown options ['colour']" in lines[4] and "'qtoy' format" in lines[4] and 'its own options: scale' in lines[4]
    assert "no option 'colour'" in lines[5] and 'its own: scale' in lines[5]
    assert "unknown options ['scale']" in lines[6] and "'mdl' format" in lines[6] and 'its own options: none' in lines[6]


# -- a picture a frame, frame groups, and the registration's field data and view --------------------


def flip_surface() -> pq.SurfaceData:
    """A quad of three frames: a palette picture (index 255 a hole), an RGBA one, and one named only."""
    indices = np.array([[0, 255], [15, 1]], np.uint8)
    rgba = np.arange(3 * 1 * 4, dtype=np.uint8).reshape(3, 1, 4)
    positions = np.zeros((3, 4, 3), np.float32)
    positions[:, :, 1:] = [[0, 0], [1, 0], [1, 1], [0, 1]]
    positions[:, :, 2] *= np.array([1, 2, 3], np.float32)[:, None]
    return pq.SurfaceData(
        name='flip',
        triangles=[[0, 1, 2], [0, 2, 3]],
        texcoords=[[0, 0], [1, 0], [1, 1], [0, 1]],
        positions=positions,
        frame_pictures=[indices, rgba, None],
        frame_images=['{model}_0', None, 'pics/named'],
        holey=True,
        alpha='cutout',
    )


@contextlib.contextmanager
def flip_model(tmp_path, **load):
    def read(data: bytes, source: str) -> pq.ModelData:
        groups = [pq.formats.records.FrameGroup(1, 2, np.array([0.25, 0.75]))]
        return pq.ModelData(surfaces=[flip_surface()], frame_names=['one', 'two', 'three'], frame_groups=groups, header={'kind': 7})

    def facts(data: pq.ModelData) -> dict:
        return {'flip_kind': np.array([data.header['kind']], np.int32)}

    with registered('flip', read, b'FLIP', field_data=facts, view_from=(-1.0, 0.0, 0.0)):
        (tmp_path / 'x.flip').write_bytes(b'FLIP')
        yield pq.load(tmp_path / 'x.flip', **load)


def test_a_surface_shows_each_frame_s_own_picture(tmp_path):

    (tmp_path / 'pics').mkdir()
    Image.new('RGB', (3, 2), (0, 200, 0)).save(tmp_path / 'pics' / 'named.png')
    with flip_model(tmp_path) as model:
        surface = model.surfaces[0]
        palette = read_palette(None)  # Quake's: no game palette beside the file
        first = surface.image(frame=0)
        np.testing.assert_array_equal(first[..., :3], palette[[[0, 255], [15, 1]]])
        np.testing.assert_array_equal(first[..., 3], [[255, 0], [255, 255]])  # index 255 a hole
        np.testing.assert_array_equal(surface.image(), first)  # the first frame's by default
        np.testing.assert_array_equal(surface.image(frame=1), np.arange(12, dtype=np.uint8).reshape(3, 1, 4))
        third = surface.image(frame=-1)  # named only: the game's image
        assert third.shape == (2, 3, 3) and (third == [0, 200, 0]).all()
        for k in range(3):  # each frame's picture travels in its field data
            np.testing.assert_array_equal(model.blocks(k)[0].quake.image(), surface.image(frame=k))
        assert surface.alpha == 'cutout'
        assert model.blocks(2)[0].field_data['flip_kind'].tolist() == [7]  # the registration's field data
        assert model.blocks(0).field_data['flip_kind'].tolist() == [7]


def test_a_frame_s_named_image_replaces_its_own_pixels_and_names_the_model(tmp_path):

    Image.new('RGBA', (1, 1), (9, 8, 7, 6)).save(tmp_path / 'x.flip_0.tga')
    with flip_model(tmp_path) as model:
        np.testing.assert_array_equal(model.surfaces[0].image(frame=0), [[[9, 8, 7, 6]]])
    with flip_model(tmp_path, skin=None) as model:
        assert model.surfaces[0].image(frame=0) is None and model.surfaces[0].image_file(frame=1) is None


def test_a_named_image_missing_with_no_pixels_warns(tmp_path):
    with flip_model(tmp_path) as model:
        with pytest.warns(pq.QuakeWarning, match=r'image pics/named of frame 2 not found'):
            assert model.surfaces[0].image(frame=2) is None
        assert model.surfaces[0].image(frame=1) is not None


def test_frame_groups_time_the_file_and_are_animations(tmp_path):
    with flip_model(tmp_path) as model:
        np.testing.assert_allclose(model.times, [0.0, 0.1, 0.35])  # a single frame at 10 fps, then the group's intervals
        assert model.duration == pytest.approx(0.85)
        group = model.animations['two']
        np.testing.assert_array_equal(group.frames, [1, 2])
        np.testing.assert_allclose(group.times, [0.0, 0.25])
        assert [list(r) for r in model.entries] == [[0], [1, 2]]
        model.remove_frames([0])  # the group times the frames it was read with: moved, it goes
        assert len(model) == 2 and model.entries == [range(0, 1), range(1, 2)]
        np.testing.assert_array_equal(model.surfaces[0].image(frame=0), np.arange(12, dtype=np.uint8).reshape(3, 1, 4))


def test_the_registration_says_where_pictures_look_from(tmp_path):
    from pyvista_quake.render.plotting import prepare
    from pyvista_quake.render.plotting import view_of

    with flip_model(tmp_path) as model:
        np.testing.assert_array_equal(view_of(model), [-1.0, 0.0, 0.0])
        np.testing.assert_array_equal(prepare(model).view, [-1.0, 0.0, 0.0])
        plotter = pv.Plotter(off_screen=True, window_size=(64, 64))
        try:
            from pyvista_quake.render.plotting import scene

            scene(plotter, model)
            eye, centre = np.array(plotter.camera_position[0]), np.array(plotter.camera_position[1])
            direction = (eye - centre) / np.linalg.norm(eye - centre)
            np.testing.assert_allclose(direction, [-1, 0, 0], atol=1e-9)
        finally:
            plotter.close()
    assert view_of(None) is None


def test_per_frame_lists_are_one_a_frame():
    surface = flip_surface()
    for what in ('frame_pictures', 'frame_images'):
        with pytest.raises(ValueError, match=f'2 {what} for 3 frames'):
            dataclasses.replace(surface, **{what: getattr(surface, what)[:2]})
    with pytest.raises(ValueError, match="alpha is 'opaque', 'cutout', 'blend', 'add' or None, not 'glow'"):
        dataclasses.replace(surface, alpha='glow')


def test_the_md5_registration_names_its_game():
    from pyvista_quake.formats import FORMATS

    assert FORMATS['md5'].title.startswith('Doom 3')


def test_magic_bytes_come_before_any_grammar_and_the_registry_says_what_it_refuses(tmp_path):
    from builders import tetra_md2

    from pyvista_quake.formats import parse_buffer

    with registered('greedy', lambda data, source: pq.ModelData(surfaces=[]), b'', sniff=lambda head: True):
        # A grammar that takes anything, registered after MD2: an MD2's magic bytes still choose MD2, whatever its name.
        assert spec_for(tetra_md2(), 'x.dat').name == 'md2'
        assert spec_for(b'anything at all', 'x.dat').name == 'greedy'
    record = parse_buffer(tetra_md2(), 'x.md2')  # no format given: the bytes name it
    assert type(record).__module__ == 'pyvista_quake.formats.md2'

    def needs(data: bytes, source: str, *, scale: float) -> pq.ModelData:
        raise AssertionError('not read')

    with pytest.raises(TypeError, match=r"format 'needy': every keyword-only parameter of read is an option and needs a default"):
        pq.register_format('needy', ['.needy'], needs, magic=b'NEED')
    with pytest.raises(ValueError, match=r"noextension: cannot tell the Quake model format from the extension '\(none\)'"):
        from pyvista_quake.formats import format_for_path

        format_for_path('noextension')


def test_reader_classes_come_from_the_registration(toy, model_file):
    reader = pv.get_reader(model_file)
    assert type(reader).__name__ == 'TOYReader' and 'toy models' in type(reader).__doc__ and '``.toy``' in type(reader).__doc__
    assert type(reader).__orig_bases__[0].__args__ == (pv.MultiBlock,)
    assert readers.MD2Reader.__orig_bases__[0].__args__ == (pv.PolyData,) and readers.BSPReader.__name__ == 'BSPReader'
    assert 'hide=()' in readers.BSPReader.__doc__ and readers.MD3Reader.__doc__.startswith('Reader for Quake III (MD3) models')
