"""The gallery's examples run (offscreen, in a scratch folder) and make what they say; the sample models load."""

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
    assert len(frames) > 5 and any(not np.array_equal(frames[0], frame) for frame in frames[1:])  # it moves


def test_examples_take_a_model_on_the_command_line(tmp_path):
    model = tmp_path / 'creature.mdl'
    examples.synthetic_model('mdl').save(model)
    result = run(EXAMPLES / 'plot_export.py', tmp_path, str(model))
    assert result.returncode == 0, result.stderr[-2000:]
    assert (tmp_path / 'breathe.pvd').is_file() and (tmp_path / 'frame.stl').is_file()


def test_sample_models_are_real_where_the_corpus_is_and_synthetic_elsewhere(tmp_path, monkeypatch):
    for fmt in ('md2', 'mdl'):
        model = pq.load(examples.sample_model(fmt))
        assert model.format == fmt and len(model) > 1 and len(model.animations) >= 1
        assert model.skin_image(0) is not None
    assert pq.check(examples.sample_model('mdl')) == []
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(examples.CORPUS_VARIABLE, str(tmp_path / 'absent'))
    monkeypatch.setattr(examples, 'corpus', lambda: None)
    synthetic = pq.load(examples.sample_model('md2'))
    assert list(synthetic.animations) == ['breathe'] and synthetic.skin_image(0).shape == (64, 64, 3)


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
    for name in ('copy.mdl', 'edited.mdl', 'ball.md2', 'model.glb', 'model.png'):
        assert (tmp_path / name).stat().st_size > 0
    assert (tmp_path / 'copy.mdl').read_bytes() == examples.sample_model('mdl').read_bytes()
