"""The examples run offscreen, with a model given or with none, and produce what they say."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
import subprocess
import sys

from builders import tetra_md2
import numpy as np
from PIL import Image
from PIL import ImageSequence
import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / 'examples'


def _example(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f'{name}.py')
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_animation_gif_of_a_given_model(tmp_path):
    model = tmp_path / 'tetra.md2'
    model.write_bytes(tetra_md2(names=['wave1', 'wave2', 'wave3']))
    out = tmp_path / 'wave.gif'
    assert _example('animation_gif').main([str(model), 'wave', str(out)]) == 0
    with Image.open(out) as gif:
        frames = [np.asarray(frame.convert('RGB')) for frame in ImageSequence.Iterator(gif)]
    assert len(frames) == 3
    assert not np.array_equal(frames[0], frames[1])  # the pose changes
    assert (frames[0] != frames[0][0, 0]).any()  # something is drawn


@pytest.mark.parametrize('name', ['animation_gif', 'skinned_thumbnail'])
def test_examples_run_with_no_arguments_outside_the_repository(name, tmp_path):
    env = {**os.environ, 'PYTHONPATH': ''}
    result = subprocess.run([sys.executable, str(EXAMPLES / f'{name}.py')], cwd=tmp_path, capture_output=True, text=True,
                            env=env, timeout=300)  # fmt: skip
    assert result.returncode == 0, result.stderr
    written = [p for p in tmp_path.iterdir() if p.suffix in ('.gif', '.png')]
    assert len(written) == 1 and written[0].stat().st_size > 1000


def test_skinned_thumbnail_of_a_given_model(tmp_path):
    from builders import torch_mdl  # noqa: PLC0415

    red = np.full((8, 8), 251, np.uint8)  # a red of Quake's palette, everywhere on the skin
    model = tmp_path / 'torch.mdl'
    model.write_bytes(torch_mdl(skins=[red]))
    out = tmp_path / 'thumb.png'
    assert _example('skinned_thumbnail').main([str(model), str(out)]) == 0
    image = np.asarray(Image.open(out).convert('RGB')).reshape(-1, 3).astype(int)
    drawn = image[np.abs(image - 255).sum(axis=1) > 30]
    assert len(drawn) > 50
    # Lit or not, what is drawn is red from the skin: red dominates green and blue.
    assert np.median(drawn[:, 0]) > 2 * np.median(drawn[:, 1:])


def test_dask_example_on_its_synthetic_folder(tmp_path):
    pytest.importorskip('distributed', reason='dask.distributed does not install here')
    result = subprocess.run([sys.executable, str(EXAMPLES / 'thumbnails_dask.py')], cwd=tmp_path, capture_output=True,
                            text=True, timeout=600)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert '3 thumbnails' in result.stdout
    assert len(list((tmp_path / 'thumbnails').glob('*.png'))) == 3
