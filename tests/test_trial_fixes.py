"""What a new user met trying whole games (Red Eclipse, OpenArena, UFO: AI): each a test that failed before its fix."""

from __future__ import annotations

from builders import torch_mdl
import numpy as np
import pytest

import pyvista_quake as pq
from pyvista_quake.cli.main import main
from pyvista_quake.game.skins import read_palette


def pcx_with_palette(palette: np.ndarray) -> bytes:
    """A 1 x 1 PCX (version 5, 8 bits, RLE) ending with its 256 colours after the 0x0c marker."""
    header = bytearray(128)
    header[0:4] = bytes([0x0A, 5, 1, 8])  # manufacturer, version, RLE, bits per pixel
    header[65] = 1  # planes
    header[66:68] = (1).to_bytes(2, 'little')  # bytes per line
    return bytes(header) + bytes([0xC1, 7]) + b'\x0c' + palette.astype(np.uint8).tobytes()


# -- 5. --palette takes a palette, nothing else, and says so once ---------------------------


def test_a_palette_is_exactly_768_bytes(tmp_path):
    colours = np.arange(768, dtype=np.uint32).astype(np.uint8)
    (tmp_path / 'palette.lmp').write_bytes(colours.tobytes())
    np.testing.assert_array_equal(read_palette(tmp_path / 'palette.lmp'), colours.reshape(256, 3))
    for size in (767, 769, 4096):
        (tmp_path / 'bad.lmp').write_bytes(bytes(size))
        with pytest.raises(pq.QuakeFormatError, match=f'bad.lmp: size = {size}: .*exactly 768'):
            read_palette(tmp_path / 'bad.lmp')


def test_a_model_file_is_no_palette(tmp_path):
    model = tmp_path / 'torch.mdl'
    model.write_bytes(torch_mdl())
    with pytest.raises(pq.QuakeFormatError, match='exactly 768 bytes'):
        pq.load(model, palette=model)


def test_a_pcx_gives_its_trailing_palette(tmp_path):
    colours = (np.arange(768) * 7 % 256).reshape(256, 3)
    (tmp_path / 'colormap.pcx').write_bytes(pcx_with_palette(colours))
    np.testing.assert_array_equal(read_palette(tmp_path / 'colormap.pcx'), colours)
    # A PCX whose end is not a palette (no 0x0c marker before the last 768 bytes) is refused.
    broken = bytearray(pcx_with_palette(colours))
    broken[-769] = 0
    (tmp_path / 'broken.pcx').write_bytes(bytes(broken))
    with pytest.raises(pq.QuakeFormatError, match='broken.pcx'):
        read_palette(tmp_path / 'broken.pcx')


def test_the_cli_says_a_bad_palette_once_for_the_whole_run(tmp_path, capsys):
    for name in ('a', 'b', 'c'):
        (tmp_path / f'{name}.mdl').write_bytes(torch_mdl())
    code = main(['thumbnail', str(tmp_path / 'a.mdl'), str(tmp_path / 'b.mdl'), str(tmp_path / 'c.mdl'),
                 '--palette', str(tmp_path / 'a.mdl'), '-o', str(tmp_path / 'out'), '--size', '32'])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 1
    assert err.count('exactly 768 bytes') == 1
    assert not (tmp_path / 'out').exists() or not list((tmp_path / 'out').rglob('*.png'))
