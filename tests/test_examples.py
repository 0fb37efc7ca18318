"""The gallery's examples run (offscreen, in a scratch folder) and make what they say; the sample models load."""

from __future__ import annotations

import os
from pathlib import Path
import subprocess
import sys

from conftest import CORPUS
from conftest import requires_corpus
import numpy as np
from PIL import Image
from PIL import ImageSequence
import pytest

import pyvista_quake as pq
from pyvista_quake import examples

EXAMPLES = Path(__file__).resolve().parents[1] / 'examples'
SCRIPTS = sorted(EXAMPLES.glob('plot_*.py'))


def run(script: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, 'MPLBACKEND': 'Agg', 'PYVISTA_OFF_SCREEN': 'true'}
    return subprocess.run([sys.executable, str(script), *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=600)


@pytest.mark.parametrize('script', SCRIPTS, ids=lambda p: p.stem)
def test_example_runs(script, tmp_path):
    result = run(script, tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]


def test_gif_example_writes_a_moving_gif(tmp_path):
    assert run(EXAMPLES / 'plot_animation_gif.py', tmp_path).returncode == 0
    with Image.open(tmp_path / 'animation.gif') as gif:
        frames = [np.asarray(frame.convert('RGB')) for frame in ImageSequence.Iterator(gif)]
    assert len(frames) > 5 and any(not np.array_equal(frames[0], frame) for frame in frames[1:])  # it moves


def test_examples_take_a_model_on_the_command_line(tmp_path):
    model = tmp_path / 'creature.mdl'
    examples.synthetic_model('mdl').save(model)
    result = run(EXAMPLES / 'plot_export.py', tmp_path, str(model))
    assert result.returncode == 0, result.stderr[-2000:]
    assert (tmp_path / 'breathe.pvd').is_file() and (tmp_path / 'frame.stl').is_file()


def test_sample_models_are_the_shipped_real_ones_and_synthetic_without_any(tmp_path, monkeypatch):
    for fmt in ('md2', 'mdl'):
        assert examples.sample_model(fmt) == examples.SHIPPED_MODELS[fmt]
        model = pq.load(examples.sample_model(fmt))
        assert model.format == fmt and len(model) > 1 and len(model.animations) >= 1
        assert model.alias.skin_image(0) is not None
    assert pq.check(examples.sample_model('mdl')) == []
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(examples.CORPUS_VARIABLE, str(tmp_path / 'absent'))
    monkeypatch.setattr(examples, 'corpus', lambda: None)
    monkeypatch.setattr(examples, 'SHIPPED_MODELS', {f: tmp_path / 'absent' / f'x.{f}' for f in ('md2', 'mdl')})
    synthetic = pq.load(examples.sample_model('md2'))
    assert list(synthetic.animations) == ['breathe'] and synthetic.alias.skin_image(0).shape == (64, 64, 3)


def test_synthetic_model_is_animated_and_textured():
    model = examples.synthetic_model('md2', frames=4)
    assert len(model) == 4 and list(model.animations) == ['breathe']
    assert not np.allclose(model.positions(0), model.positions(1))
    assert model.alias.skin_image(0).shape == (64, 64, 3)


def test_readme_quick_start_runs_as_written(tmp_path, monkeypatch):
    import re  # noqa: PLC0415

    import pyvista as pv  # noqa: PLC0415

    text = (Path(__file__).resolve().parents[1] / 'README.md').read_text()
    code = re.search(r'```python\n(import pyvista as pv.*?)```', text, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(pv, 'OFF_SCREEN', True)
    exec(compile(code, 'README.md', 'exec'), {})
    for name in ('copy.mdl', 'edited.mdl', 'ball.md2', 'model.glb', 'model.png'):
        assert (tmp_path / name).stat().st_size > 0
    assert (tmp_path / 'copy.mdl').read_bytes() == examples.sample_model('mdl').read_bytes()


def test_shipped_models_load_with_their_skins_and_licences():
    dolphin, wizard = examples.load_dolphin(), examples.load_wizard()
    assert dolphin.format == 'md2' and len(dolphin) == 59 and dolphin.alias.skin_file(0).location.endswith('dolphin_f.bmp')
    assert dolphin.alias.skin_image(0).ndim == 3 and dolphin.mesh(0).quake.texture is not None
    assert wizard.format == 'mdl' and len(wizard) == 54 and wizard.alias.skin_image(0) is not None
    assert examples.load_wizard(skin=None).skin is None  # options pass through
    eye = examples.load_eye()
    assert eye.format == 'iqm' and len(eye) == 5 and {'idle', 'crouch'} <= set(eye.animations)
    assert eye.surfaces[0].image_file().location.endswith('skin.png')
    for path in [*examples.SHIPPED_MODELS.values(), examples.SHIPPED_SKELETAL]:
        assert any(p.name.startswith(('LICENSE', 'COPYING')) for p in path.parent.iterdir())
    assert sum(p.stat().st_size for p in examples.DATA.rglob('*')) < 1_000_000


@requires_corpus
def test_shipped_models_are_the_corpus_files():
    for fmt, inside in examples.CORPUS_MODELS.items():
        assert examples.SHIPPED_MODELS[fmt].read_bytes() == (CORPUS / inside).read_bytes()
    assert examples.SHIPPED_SKELETAL.read_bytes() == (CORPUS / examples.CORPUS_SKELETAL).read_bytes()


def test_a_wheel_installed_in_a_fresh_environment_runs_the_quick_start(tmp_path):
    """The wheel carries the sample models and the licence; the Quick start runs from it, with no ../shared."""
    import re
    import site
    import sysconfig
    import venv
    import zipfile

    root = Path(__file__).resolve().parents[1]
    built = subprocess.run(
        [sys.executable, '-m', 'pip', 'wheel', '--no-deps', '-w', str(tmp_path / 'dist'), str(root)], capture_output=True, text=True
    )
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = (tmp_path / 'dist').glob('pyvista_quake-*.whl')
    names = zipfile.ZipFile(wheel).namelist()
    for wanted in (
        'pyvista_quake/examples/data/dolphin/dolphin.md2',
        'pyvista_quake/examples/data/dolphin/dolphin_f.bmp',
        'pyvista_quake/examples/data/wizard/wizard.mdl',
        'pyvista_quake/examples/data/wizard/COPYING.txt',
    ):
        assert wanted in names
    assert any(n.endswith('licenses/LICENSE') or n.endswith('/LICENSE') for n in names)
    # A fresh environment whose own site-packages (the wheel) come before the dependencies it shares with
    # this one, found through a .pth file: system_site_packages would share the base interpreter's instead,
    # which lack them when this runs inside a virtual environment.
    venv.create(tmp_path / 'env', with_pip=True)
    python = str(tmp_path / 'env' / 'bin' / 'python')
    inner = subprocess.run([python, '-c', "import sysconfig; print(sysconfig.get_paths()['purelib'])"], capture_output=True, text=True)
    shared = dict.fromkeys(
        p for p in (sysconfig.get_paths()['purelib'], sysconfig.get_paths()['platlib'], *site.getsitepackages()) if os.path.isdir(p)
    )
    (Path(inner.stdout.strip()) / 'shared-dependencies.pth').write_text(''.join(f'{p}\n' for p in shared))
    installed = subprocess.run([python, '-m', 'pip', 'install', '--no-deps', '-q', str(wheel)], capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr[-2000:]
    code = re.search(r'```python\n(import pyvista as pv.*?)```', (root / 'README.md').read_text(), re.S).group(1)
    script = 'import pyvista as pv\npv.OFF_SCREEN = True\n' + code + '\nprint(pyvista_quake.__file__, md2, mdl)\n'
    work = tmp_path / 'work'
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ('PYTHONPATH', examples.CORPUS_VARIABLE)}
    result = subprocess.run([python, '-c', script], cwd=work, capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    assert str(tmp_path / 'env') in result.stdout and 'dolphin.md2' in result.stdout and 'wizard.mdl' in result.stdout
    for name in ('copy.mdl', 'edited.mdl', 'ball.md2', 'model.glb', 'model.png'):
        assert (work / name).stat().st_size > 0


def test_synthetic_player_poses_and_sample_player_falls_back_to_it(tmp_path, monkeypatch):
    player = pq.load_player(examples.synthetic_player(tmp_path / 'player'))
    standing, running = player.pose(), player.pose('LEGS_RUN', 'TORSO_GESTURE', time=0.2)
    assert standing.keys() == ['lower', 'upper', 'head']
    assert standing['head'].bounds.z_min > standing['upper'].bounds.z_min > standing['lower'].bounds.z_min
    assert not np.allclose(standing['lower'][0].points, running['lower'][0].points)  # the legs run
    monkeypatch.setattr(examples, 'corpus', lambda: None)
    monkeypatch.setattr(examples.tempfile, 'gettempdir', lambda: str(tmp_path / 'cache'))
    folder = examples.sample_player()
    assert folder.is_relative_to(tmp_path / 'cache') and pq.load_player(folder).animations['LEGS_RUN'][1] == 8


def test_synthetic_level_is_a_lit_textured_room_and_sample_level_falls_back_to_it(tmp_path, monkeypatch):
    level = pq.load(examples.synthetic_level(tmp_path / 'room'))
    assert [s.name for s in level.surfaces] == ['textures/synthetic/floor', 'textures/synthetic/wall']
    assert [s.num_triangles for s in level.surfaces] == [2, 8]
    assert level.lightmaps.shape == (5, 128, 128, 3)
    floor = level.lightmaps[0, ..., 0].astype(int)
    assert floor[64, 64] > floor[0, 0] + 20  # brightest under the light, in the room's middle
    assert all(s.image() is not None for s in level.surfaces)
    normals = level.blocks(0)[0].compute_normals(cell_normals=True, point_normals=False)['Normals']
    np.testing.assert_allclose(normals, np.tile([0, 0, 1], (2, 1)), atol=1e-6)  # the floor faces up, into the room
    points = level.point_entities()
    assert sorted(set(points['classname'].tolist())) == ['info_player_deathmatch', 'light']
    monkeypatch.setattr(examples, 'corpus', lambda: None)
    monkeypatch.setattr(examples.tempfile, 'gettempdir', lambda: str(tmp_path / 'cache'))
    source = examples.sample_level()
    assert Path(source).is_relative_to(tmp_path / 'cache') and len(pq.load(source).surfaces) == 2


@requires_corpus
def test_sample_level_is_the_corpus_map():
    assert examples.sample_level().endswith('oacmp1-oacmpdm3.pk3:maps/oacmpdm3.bsp')


def test_the_navigation_example_finds_a_route_through_the_shipped_maze(tmp_path):
    result = run(EXAMPLES / 'plot_navigation.py', tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "[2 4] ['walk'] 0.06 s reached" in result.stdout
    nav = pq.load(examples.sample_navigation_level()).navigation
    assert nav is not None and nav.num_areas == 4 and nav.travel_time(2, 4) == 2
