"""The gallery's examples run (offscreen, in a scratch folder) and make what they say; the shipped models load."""

from __future__ import annotations

import os
from pathlib import Path
import subprocess
import sys

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
    assert len(frames) > 5 and not np.array_equal(frames[0], frames[len(frames) // 2])


def test_examples_take_a_model_on_the_command_line(tmp_path):
    model = tmp_path / 'creature.mdl'
    examples.synthetic_model('mdl').save(model)
    result = run(EXAMPLES / 'plot_export.py', tmp_path, str(model))
    assert result.returncode == 0, result.stderr[-2000:]
    assert (tmp_path / 'breathe.pvd').is_file() and (tmp_path / 'frame.stl').is_file()


def test_shipped_models_load_with_their_skins_and_licences():
    wizard = examples.load_wizard()
    dolphin = examples.load_dolphin()
    assert wizard.format == 'mdl' and len(wizard) == 54 and wizard.skin_image().shape == (256, 256, 3)
    assert dolphin.format == 'md2' and sorted(dolphin.animations) == ['glide', 'jump']
    assert dolphin.skin_file(0).location.endswith('dolphin_f.bmp')
    assert (examples.DATA / 'librequake' / 'COPYING.txt').is_file() and (examples.DATA / 'telias' / 'LICENSE.txt').is_file()
    assert pq.check(examples.WIZARD) == []


def test_synthetic_model_is_animated_and_textured():
    model = examples.synthetic_model('md2', frames=4)
    assert len(model) == 4 and list(model.animations) == ['breathe']
    assert not np.allclose(model.positions(0), model.positions(1))
    assert model.skin_image(0).shape == (64, 64, 3)


def test_readme_quick_start_runs_as_written(tmp_path, monkeypatch):
    import re  # noqa: PLC0415

    import pyvista as pv  # noqa: PLC0415

    text = (Path(__file__).resolve().parents[1] / 'README.md').read_text()
    code = re.search(r'```python\n(import pyvista as pv.*?)```', text, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(pv, 'OFF_SCREEN', True)
    exec(compile(code, 'README.md', 'exec'), {})
    for name in ('copy.mdl', 'edited.mdl', 'ball.md2', 'dolphin.glb', 'scrag.png'):
        assert (tmp_path / name).stat().st_size > 0
    assert (tmp_path / 'copy.mdl').read_bytes() == examples.WIZARD.read_bytes()
