"""The examples run offscreen and produce what they say."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from builders import tetra_md2
import numpy as np
from PIL import Image
from PIL import ImageSequence

EXAMPLES = Path(__file__).resolve().parents[1] / 'examples'


def _example(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f'{name}.py')
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_animation_gif(tmp_path):
    model = tmp_path / 'tetra.md2'
    model.write_bytes(tetra_md2(names=['wave1', 'wave2', 'wave3']))
    out = tmp_path / 'wave.gif'
    assert _example('animation_gif').animation_gif(model, 'wave', out) == 3
    with Image.open(out) as gif:
        frames = [np.asarray(frame.convert('RGB')) for frame in ImageSequence.Iterator(gif)]
    assert len(frames) == 3
    assert not np.array_equal(frames[0], frames[1])  # the pose changes
    assert (frames[0] != frames[0][0, 0]).any()  # something is drawn


def test_skinned_thumbnail(tmp_path):
    from builders import torch_mdl  # noqa: PLC0415

    red = np.full((8, 8), 251, np.uint8)  # a red of Quake's palette, everywhere on the skin
    model = tmp_path / 'torch.mdl'
    model.write_bytes(torch_mdl(skins=[red]))
    out = tmp_path / 'thumb.png'
    assert _example('skinned_thumbnail').thumbnail(model, out, size=128) is True
    image = np.asarray(Image.open(out).convert('RGB')).reshape(-1, 3).astype(int)
    background = image[0]
    drawn = image[np.abs(image - background).sum(axis=1) > 30]
    assert len(drawn) > 50
    # Lit or not, what is drawn is red from the skin: red dominates green and blue.
    assert np.median(drawn[:, 0]) > 2 * np.median(drawn[:, 1:])
