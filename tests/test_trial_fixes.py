"""What a new user met trying whole games (Red Eclipse, OpenArena, UFO: AI): each a test that failed before its fix."""

from __future__ import annotations

import html
import io
import json
import os
from pathlib import Path
import subprocess
import sys
import time
import warnings
import zipfile

from builders import tetra_md2
from builders import tetra_md3
from builders import torch_mdl
from builders import two_joint_iqm
from builders import two_joint_md5
import numpy as np
from PIL import Image
import pytest
import pyvista as pv

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
    code = main(
        [
            'thumbnail',
            str(tmp_path / 'a.mdl'),
            str(tmp_path / 'b.mdl'),
            str(tmp_path / 'c.mdl'),
            '--palette',
            str(tmp_path / 'a.mdl'),
            '-o',
            str(tmp_path / 'out'),
            '--size',
            '32',
        ]
    )
    err = capsys.readouterr().err
    assert code == 1
    assert err.count('exactly 768 bytes') == 1
    assert not (tmp_path / 'out').exists() or not list((tmp_path / 'out').rglob('*.png'))


# -- 1. a second catalogue run redoes a model when any file its page was made from changed ------


def _bump(path: Path) -> None:
    """Move a file's time a second on, as an edit a moment later does (file systems may keep coarse times)."""
    now = time.time_ns() + 10**9
    os.utime(path, ns=(now, now))


def _red_share(picture: Path) -> float:
    pixels = np.asarray(Image.open(picture).convert('RGB')).reshape(-1, 3).astype(int)
    return float(((pixels[:, 0] > 150) & (pixels[:, 1] < 80)).mean())


def test_a_changed_skin_redoes_the_models_page_and_picture(tmp_path):
    folder = tmp_path / 'models' / 'test'
    folder.mkdir(parents=True)
    (folder / 'tris.md2').write_bytes(tetra_md2(skins=['models/test/skin.png']))
    Image.new('RGB', (64, 64), (0, 0, 255)).save(folder / 'skin.png')
    site = tmp_path / 'site'
    pq.catalogue([folder], site)
    entry = next(iter(json.loads((site / 'catalogue.json').read_text()).values()))
    assert [row[0] for row in entry['inputs']].count('../models/test/skin.png') == 1  # relative to the site
    assert _red_share(site / entry['picture']) == 0
    assert not pq.catalogue([folder], site).made  # nothing changed: kept
    Image.new('RGB', (64, 64), (255, 0, 0)).save(folder / 'skin.png')
    _bump(folder / 'skin.png')
    again = pq.catalogue([folder], site)
    assert len(again.made) == 1 and not again.kept
    assert _red_share(site / entry['picture']) > 0.05


def test_a_skin_from_another_archive_is_recorded_and_its_change_redoes_the_model(tmp_path):
    root = tmp_path / 'baseq3'
    root.mkdir()
    with zipfile.ZipFile(root / 'pak0.pk3', 'w') as archive:
        archive.writestr('models/b/model.md3', tetra_md3())
    buffer = io.BytesIO()
    Image.new('RGB', (8, 8), (0, 0, 255)).save(buffer, 'TGA')
    with zipfile.ZipFile(root / 'pak1.pk3', 'w') as archive:
        archive.writestr('models/test/body.tga', buffer.getvalue())
    site = tmp_path / 'site'
    pq.catalogue([root / 'pak0.pk3'], site)
    entry = next(iter(json.loads((site / 'catalogue.json').read_text()).values()))
    assert '../baseq3/pak1.pk3' in [row[0] for row in entry['inputs']]
    assert not pq.catalogue([root / 'pak0.pk3'], site).made
    with zipfile.ZipFile(root / 'pak1.pk3', 'a') as archive:
        archive.writestr('models/test/flag.tga', buffer.getvalue())
    _bump(root / 'pak1.pk3')
    assert len(pq.catalogue([root / 'pak0.pk3'], site).made) == 1


def test_an_edited_config_redoes_the_model_it_assembles(tmp_path):
    folder = tmp_path / 'actors' / 'drone'
    folder.mkdir(parents=True)
    (folder / 'mesh.iqm').write_bytes(two_joint_iqm())
    (folder / 'iqm.cfg').write_text('iqmload mesh.iqm\n')
    site = tmp_path / 'site'
    pq.catalogue([folder], site)
    assert not pq.catalogue([folder], site).made
    (folder / 'iqm.cfg').write_text('iqmload mesh.iqm\niqmanim walk mesh.iqm 20\n')
    _bump(folder / 'iqm.cfg')
    again = pq.catalogue([folder], site)
    assert len(again.made) == 1
    entry = next(iter(json.loads((site / 'catalogue.json').read_text()).values()))
    assert 'walk' in entry['animations']


# -- 3. Cube 2 configs' conditions on the model's own name ------------------------------------

PLAYER_CFG = """iqmdir "actors/player"
iqmanim "idle" "idle.iqm" 10
if (|| [strcmp (mdlname) "actors/player/female/headless"] [strcmp (mdlname) "actors/player/male/headless"]) [
    iqmskin * "<dds>headless.png" "<dds>mask.png" 0.25 0.0 1 0
] [
    iqmskin * "<dds>diffuse.png" "<dds>mask.png" 0.25 0.0 1 0
]
"""


def red_eclipse_players(tmp_path) -> Path:
    """Red Eclipse's layout: a shared player.cfg, exec'd by each player's iqm.cfg, picks the skin by mdlname."""
    data = tmp_path / 'data'
    shared = data / 'actors' / 'player'
    for folder in (shared / 'male', shared / 'male' / 'headless'):
        folder.mkdir(parents=True)
        (folder / 'mesh.iqm').write_bytes(two_joint_iqm())
        (folder / 'iqm.cfg').write_text('iqmload "mesh.iqm" player\nexec "actors/player/player.cfg"\n')
    (shared / 'idle.iqm').write_bytes(two_joint_iqm())
    (shared / 'player.cfg').write_text(PLAYER_CFG)
    Image.new('RGB', (4, 4), (200, 30, 30)).save(shared / 'diffuse.png')
    Image.new('RGB', (4, 4), (30, 200, 30)).save(shared / 'headless.png')
    return shared


def test_a_config_condition_on_the_models_name_picks_its_skin(tmp_path):
    shared = red_eclipse_players(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter('error', pq.QuakeWarning)  # found, so nothing to warn of
        male = pq.load(shared / 'male')
        headless = pq.load(shared / 'male' / 'headless')
    assert Path(male.surfaces[0].image_file().location).name == 'diffuse.png'
    assert Path(headless.surfaces[0].image_file().location).name == 'headless.png'
    assert 'idle' in male.animations


def test_a_condition_it_cannot_tell_is_skipped_with_the_line_and_why(tmp_path):
    shared = red_eclipse_players(tmp_path)
    (shared / 'player.cfg').write_text(PLAYER_CFG + 'if (> (getvar maxfps) 60) [ iqmskin * "fast.png" ]\n')
    with pytest.warns(pq.QuakeWarning, match=r'player.cfg: line 8: skipped "if \(> \(getvar maxfps\) 60\)": .*\'getvar\''):
        model = pq.load(shared / 'male')
    assert Path(model.surfaces[0].image_file().location).name == 'diffuse.png'


def test_a_name_condition_without_a_game_root_is_skipped_and_said(tmp_path):
    folder = tmp_path / 'loose'
    folder.mkdir()
    (folder / 'mesh.iqm').write_bytes(two_joint_iqm())
    (folder / 'iqm.cfg').write_text('iqmload mesh.iqm\nif (strcmp (mdlname) "x") [ iqmskin * a.png ] [ iqmskin * b.png ]\n')
    with pytest.warns(pq.QuakeWarning, match='line 2: skipped .*mdlname is not known'):
        pq.load(folder)


# -- 7. a viewer's text repr is one line, not the page ---------------------------------------


def test_a_viewers_repr_is_one_line_naming_the_model(tmp_path):
    path = tmp_path / 'tetra.md2'
    path.write_bytes(tetra_md2())
    shown = pq.viewer(path)
    text = repr(shown)
    assert '\n' not in text and len(text) < 200 and 'tetra.md2' in text and 'MB' in text
    assert len(shown._repr_html_()) > 10_000  # the page stays the HTML output


# -- 24. an archive rewritten between two loads in one process --------------------------------


@pytest.mark.parametrize('same_size', [False, True])
def test_an_archive_rewritten_between_two_loads_is_read_again(tmp_path, same_size):
    pk3 = tmp_path / 'pak0.pk3'
    with zipfile.ZipFile(pk3, 'w') as archive:
        archive.writestr('models/a/tris.md2', tetra_md2(names=['a1', 'a2', 'a3']))
    first = pq.load(f'{pk3}:models/a/tris.md2')
    assert first.frame_names == ['a1', 'a2', 'a3']
    stamp = pk3.stat()
    with zipfile.ZipFile(pk3, 'w') as archive:
        archive.writestr('models/a/tris.md2', tetra_md2(names=['b1', 'b2', 'b3']))
    if same_size:  # the same size: only the time tells
        assert pk3.stat().st_size == stamp.st_size
    later = stamp.st_mtime_ns + 10**9
    os.utime(pk3, ns=(later, later))
    assert pq.load(f'{pk3}:models/a/tris.md2').frame_names == ['b1', 'b2', 'b3']


# -- 17. a pipe closed early ends the command quietly -------------------------------------------


def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path):
    for k in range(3):
        (tmp_path / f'm{k}.md2').write_bytes(tetra_md2())
    run = subprocess.Popen([sys.executable, '-m', 'pyvista_quake', 'info', str(tmp_path), '--json'], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    run.stdout.close()  # as `| head -c 0` does: nothing reads what it prints
    error = run.stderr.read().decode()
    assert run.wait(timeout=120) == 141
    assert error == ''


@pytest.mark.parametrize(
    ('condition', 'truth'),
    [
        ('strcmp (mdlname) "actors/player/male"', True),
        ('strcmp (mdlname) "actors/player"', False),
        ('stringcmp (mdlname) "actors/player/male"', True),
        ('stringcmp (mdlname)', False),  # a missing argument compares nothing
        ('=s (mdlname) "actors/player/male"', True),
        ('=s (mdlname) "x"', False),
        ('!=s (mdlname) "x"', True),
        ('!=s "x" (mdlname)', True),
        ('!=s (mdlname) "actors/player/male"', False),
        ('! (strcmp (mdlname) "x")', True),
        ('! [strcmp (mdlname) "x"]', False),  # a block given to ! is a string, as in CubeScript: not empty
        ('! 0 1', True),
        ('! 1 0', False),
        ('!', True),
        ('|| 0 [strcmp (mdlname) "actors/player/male"]', True),
        ('&& 1 [strcmp (mdlname) "x"]', False),
        ('&& 1 2.5', True),
        ('(strcmp (mdlname) "actors/player/male")', True),
        ('0', False),
        ('7', True),
    ],
)
def test_conditions_evaluate_as_cubescript_does(condition, truth):
    from pyvista_quake.formats import model_cfg

    verdict = model_cfg._true(model_cfg.evaluate(model_cfg._split(condition), {'mdlname': lambda: 'actors/player/male'}))
    assert verdict is truth


@pytest.mark.parametrize('condition', ['maxfps', '7 8', '(strcmp a', 'getvar x', '(strcmp a a) 1'])
def test_conditions_it_does_not_run_are_unknown(condition):
    from pyvista_quake.formats import model_cfg

    with pytest.raises(model_cfg.UnknownConditionError):
        model_cfg.evaluate(model_cfg._split(condition), {})


@pytest.mark.parametrize(
    ('expression', 'value'),
    [
        ('= 2 2', True),
        ('= 2 3', False),
        ('= 2.9 2', True),  # integers, as parseint reads them
        ('!= 2 3', True),
        ('!= 2 2', False),
        ('< 1 2', True),
        ('< 2 2', False),
        ('< 3 2', False),
        ('> 3 2', True),
        ('> 2 2', False),
        ('> 1 2', False),
        ('<= 2 2', True),
        ('<= 1 2', True),
        ('<= 3 2', False),
        ('>= 2 2', True),
        ('>= 3 2', True),
        ('>= 1 2', False),
        ('= 0x1f 31', True),
        ('= 0X1F 31', True),
        ('= 010 8', True),
        ('= 31 31', True),
        ('= 0 0', True),
        ('= 08 0', True),
        ('= -2 -2', True),
        ('= +7 7', True),
        ('= x 0', True),
        ('= 5', False),
        ('=', True),  # a missing word is 0
        # parseint's ends: strtoul's ULONG_MAX past it (either sign), then a 32-bit int
        ('= 4294967296 0', True),
        ('= 4294967295 -1', True),
        ('= 2147483648 -2147483648', True),
        ('= -2147483649 2147483647', True),
        ('= 18446744073709551615 -1', True),
        ('= 18446744073709551616 -1', True),
        ('= -18446744073709551615 1', True),
        ('= -18446744073709551616 -1', True),
        ('< 4294967296 1', True),
        ('> 10 9', True),
        ('> 29 3', True),
        ('= 20 2', False),
        ('<f 2.05 2.06', True),
        ('format "a%0b"', 'a0b'),
        ('=f 1e2 100', True),
        ('=f .05 0.05', True),
        ('=f 2.5 2.5', True),
        ('=f 2.5 2', False),
        ('<f 2.25 2.5', True),
        ('>f 2.5 2.25', True),
        ('!=f 1 1.0', False),
        ('<=f 2.5 2.5', True),
        ('>=f 2.4 2.5', False),
        ('=f 1.5e1x 15', True),
        ('=f .5 0.5', True),
        ('=f x 0', True),
        ('=f -2.5 -2.5', True),
        ('=f 2.5', False),
        # parsefloat is glibc's strtod: hexadecimal floats, inf and nan too
        ('=f 0x1f 31', True),
        ('=f 0X1.8p3 12', True),
        ('=f -0x.8 -0.5', True),
        ('=f 0x1p99999 1e999', True),
        ('=f 0x 0', True),
        ('=f 0xg 0', True),
        ('=f inf 1e999', True),
        ('=f -Infinity -1e999', True),
        ('=f infinit 1e999', True),
        ('<f -inf -1e308', True),
        ('=f 0x0f 15', True),
        ('=f 0x1.08p4 16.5', True),
        ('=f 0x.08 0.03125', True),
        ('=f 0x1p10 1024', True),
        ('=f 1e10 10000000000', True),
        ('=f nan nan', False),
        ('!=f NaN(1) 0', True),
        ('=f nanx 0', False),
        ('=f 1.e2 100', True),
        ('=f 1e 1', True),
        ('= $t 2', True),
        ('< $t 2', False),
        ('|| (= $t 1) (= $t 2)', True),
        ('&& (>= $t 1) (<= $t 1)', False),
        ('format "icons/%1/diff" $p', 'icons/founder/diff'),
        ('format "%2-%1-%3" a b', 'b-a-'),
        ('format "100%% %x"', '100% x'),
        ('format "end%"', 'end'),
        ('format', ''),
        ('format "%1" (= 1 1)', '1'),
        ('concat a (= 1 2) $p', 'a 0 founder'),
        ('concatword a b $t', 'ab2'),
    ],
)
def test_expressions_evaluate_as_cubescript_does(expression, value):
    from pyvista_quake.formats import model_cfg

    got = model_cfg.evaluate(model_cfg._split(expression), {'t': lambda: '2', 'p': lambda: 'founder'})
    assert model_cfg._text(got) == model_cfg._text(value)


BANDIT_CFG = """if (<= $bandit_type 2) [
    iqmload ../mesh.iqm
    iqmskin two (format "../icons/%1/diff" $bandit_priv) (format "../icons/%1/mask" $bandit_priv)
]
if  (>= $bandit_type 3) [ iqmload ../../mesh.iqm ; iqmskin two (concatword "../../icons/" $bandit_priv "/diff") ]
iqmskin one $bandit_skin
bandit_type = [] ; bandit_priv = []
"""


def test_a_commands_words_group_by_their_parentheses():
    from pyvista_quake.formats import model_cfg

    # A word with spaces (a string or a block) that opens a group is the group by itself.
    assert model_cfg._words(('(concatword a b)', 'tail', '$v'), {'v': lambda: 'V'}) == ('ab', 'tail', 'V')


def test_a_config_sets_aliases_that_the_configs_it_runs_read():
    """Red Eclipse's vanities/bandit/priv: each badge's iqm.cfg sets two aliases and runs one shared config, whose
    ``if``s and ``format``s pick the mesh and the images (its 72 configs under head/ loaded no mesh before)."""
    from pyvista_quake.formats import model_cfg

    def run(text):
        return model_cfg.interpret(model_cfg.parse(text, 'a.cfg'), 'a.cfg', '.', lambda n: ('shared.cfg', BANDIT_CFG))

    config = run('bandit_type = 2 ; bandit_priv = "founder"\nalias bandit_skin diff.png\nexec shared.cfg\n')
    assert config.meshes == [('.', '../mesh.iqm')]
    assert config.skins == {'two': ('.', '../icons/founder/diff'), 'one': ('.', 'diff.png')}
    config = run('bandit_type = 3 ; bandit_priv = (concatword "loc" "al")\nbandit_skin = $bandit_priv\nexec shared.cfg\n')
    assert config.meshes == [('.', '../../mesh.iqm')] and config.skins == {'two': ('.', '../../icons/local/diff'), 'one': ('.', 'local')}
    # An alias set to nothing is empty; one never set cannot be told: the command that asks is skipped, with its line.
    config = run('bandit_type = 1\nbandit_priv =\nbandit_skin = []\nexec shared.cfg\n')
    assert config.skins == {'two': ('.', '../icons//diff'), 'one': ('.', '')}
    with pytest.warns(pq.QuakeWarning, match=r'shared.cfg: line 6: skipped "iqmskin one \$bandit_skin": \$bandit_skin is not known'):
        config = run('bandit_type = 1 ; bandit_priv = x\nexec shared.cfg\n')
    assert config.skins == {'two': ('.', '../icons/x/diff')}
    # What it does not run is not asked: an unknown alias in a command that only changes the drawing warns of nothing.
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        config = model_cfg.interpret(model_cfg.parse('mdlscale $size\niqmload m.iqm\n'), 'b.cfg', '.', lambda n: None)
    assert config.meshes == [('.', 'm.iqm')]
    with pytest.warns(pq.QuakeWarning, match=r'b.cfg: line 1: skipped "iqmload \(format": a \[ or \( is never closed'):
        model_cfg.interpret(model_cfg.parse('iqmload (format\n', 'b.cfg'), 'b.cfg', '.', lambda n: None)


def test_a_badge_config_of_red_eclipse_loads_its_mesh_and_image_through_the_aliases(tmp_path):
    priv = tmp_path / 'data' / 'vanities' / 'bandit' / 'priv'
    badge = priv / 'head' / 'founder'
    badge.mkdir(parents=True)
    (priv / 'mesh.iqm').write_bytes(two_joint_iqm())
    (priv / 'icons' / 'founder').mkdir(parents=True)
    Image.new('RGB', (4, 4), (200, 30, 30)).save(priv / 'icons' / 'founder' / 'diff.png')
    (priv / 'head' / 'bandit.cfg').write_text('if (<= $t 2) [ iqmload ../../mesh.iqm ; iqmskin * (format "../../icons/%1/diff" $p) ]\n')
    (badge / 'iqm.cfg').write_text('t = 2 ; p = "founder"\nexec vanities/bandit/priv/head/bandit.cfg\n')
    with warnings.catch_warnings():
        warnings.simplefilter('error', pq.QuakeWarning)
        model = pq.load(badge)
    assert Path(model.surfaces[0].image_file().location).resolve() == (priv / 'icons' / 'founder' / 'diff.png').resolve()


def test_a_command_it_does_not_run_over_a_block_of_model_commands_warns_that_they_were_not_run():
    """Red Eclipse's janitor runs ``loop i $W_ALL [ iqmanim ... ]`` over the game's weapons, which only the game knows."""
    from pyvista_quake.formats import model_cfg

    text = (
        'iqmload m.iqm\nloop i $W_ALL [\n    iqmanim (at $W_NAMES $i) "arm-idle.iqm" 15\n]\n'
        'mkvanity x [ mdlscale 2 ]\nwhile 1 [ exec other.cfg ]\nmdlscale 3\n'
    )
    with pytest.warns(pq.QuakeWarning) as caught:
        config = model_cfg.interpret(model_cfg.parse(text, 'a.cfg'), 'a.cfg', '.', lambda n: None)
    assert [str(w.message) for w in caught] == [
        'a.cfg: line 2: skipped "loop i $W_ALL […]": \'loop\' is a command pyvista-quake does not run; the model commands in its block were not run',
        'a.cfg: line 6: skipped "while 1 […]": \'while\' is a command pyvista-quake does not run; the model commands in its block were not run',
    ]
    assert config.meshes == [('.', 'm.iqm')] and config.animations == []
    # A command's words that only mention one (not at a line's start) hide nothing; an if at the exec limit is not "unknown".
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        model_cfg.interpret(
            model_cfg.parse('echo [say iqmanim x]\nif (= 1 1) [ if (= 1 1) [ iqmload m.iqm ] ]\n', 'b.cfg'),
            'b.cfg',
            '.',
            lambda n: None,
            depth=model_cfg.MAX_EXEC_DEPTH - 1,
        )


def test_an_if_without_its_blocks_runs_nothing():
    """Found by fuzzing the run of configs: a true condition with no block was an IndexError."""
    from pyvista_quake.formats import model_cfg

    for condition in ('(= 1 1)', '(= 1 2)', '(strcmp (mdlname) "m")'):
        config = model_cfg.interpret(
            model_cfg.parse(f'if {condition}\niqmload a.iqm\n'), 'a.cfg', '.', lambda n: None, variables={'mdlname': lambda: 'm'}
        )
        assert config.meshes == [('.', 'a.iqm')]
    config = model_cfg.interpret(model_cfg.parse('if (= 1 1) [ iqmload t.iqm ]\nif (= 1 2) [ iqmload t.iqm ]\n'), 'a.cfg', '.', lambda n: None)
    assert config.meshes == [('.', 't.iqm')]  # the then block runs once, for the true one; no else block


def test_expressions_nested_past_the_limit_are_skipped_not_a_crash():
    from pyvista_quake.formats import model_cfg

    def meshes(text):
        return model_cfg.interpret(model_cfg.parse(text, 'a.cfg'), 'a.cfg', '.', lambda n: None).meshes

    limit = model_cfg.MAX_NESTING
    assert limit == 64
    assert meshes('iqmload ' + '(' * limit + 'concat a' + ')' * limit) == [('.', 'a')]
    with pytest.warns(pq.QuakeWarning, match='skipped "iqmload .*": its commands nest deeper than 64'):
        assert meshes('iqmload ' + '(' * (limit + 1) + 'concat a' + ')' * (limit + 1)) == []
    # Each ( … ) of a command's words is a level, and each of ||'s operands with its ( … ).
    assert meshes('iqmload ' + '(concat ' * limit + 'a' + ')' * limit) == [('.', 'a')]
    assert meshes('if ' + '(|| ' * (limit // 2) + '1' + ')' * (limit // 2) + ' [ iqmload a ]') == [('.', 'a')]
    with pytest.warns(pq.QuakeWarning, match='nest deeper than 64'):
        assert meshes('iqmload ' + '(concat ' * (limit + 1) + 'a' + ')' * (limit + 1)) == []
    with pytest.warns(pq.QuakeWarning, match='nest deeper than 64'):
        assert meshes('if ' + '(|| ' * (limit // 2 + 1) + '1' + ')' * (limit // 2 + 1) + ' [ iqmload a ]') == []
    for text, found in (
        ('if ' + '(' * 3000 + '1' + ')' * 3000 + ' [ iqmload a ]', []),
        ('if (|| ' + '[|| ' * 3000 + '1' + ']' * 3000 + ') [ iqmload a ]', []),
        ('x = ' + '(concat ' * 3000 + 'a' + ')' * 3000 + '\niqmload b', [('.', 'b')]),
    ):
        with pytest.warns(pq.QuakeWarning, match='nest deeper than 64'):
            assert meshes(text) == found


def test_a_config_naming_the_root_or_holding_a_nul_resolves(tmp_path):
    """Found fuzzing resolve: an image named ``/`` raised pathlib's ValueError; a NUL byte in a name, os's."""
    from pyvista_quake.formats import model_cfg
    from pyvista_quake.game import model_configs

    (tmp_path / 'iqm.cfg').write_text('iqmload m.iqm\niqmskin * /\n')
    assert model_configs.resolve(tmp_path / 'iqm.cfg').skins == {'*': None}
    # The engine runs a file as a C string: what follows a NUL is not run.
    (tmp_path / 'iqm.cfg').write_text('iqmload m.iqm\niqmdir "acto\0s/player"\niqmskin * s.png\n', 'latin-1')
    assert [(c.name, c.args) for c in model_cfg.parse('iqmload m.iqm\niqmdir "acto\0s/player"\niqmskin * s.png\n')] == [
        ('iqmload', ('m.iqm',)),
        ('iqmdir', ('acto',)),
    ]
    config = model_configs.resolve(tmp_path / 'iqm.cfg')
    assert config.mesh == tmp_path.resolve() / 'm.iqm' and config.skins == {}


def test_a_false_condition_without_an_else_runs_nothing_and_errors_name_their_line_and_file(tmp_path):
    from pyvista_quake.formats import model_cfg

    text = 'iqmload x.iqm\nif (strcmp (mdlname) "no") [\n  iqmskin * a.png\n]\nif (strcmp (mdlname) "m") [\n\n  iqmdir\n]\n'
    with pytest.raises(pq.QuakeFormatError, match=r'a.cfg: line 7 = .iqmdir.'):
        model_cfg.interpret(model_cfg.parse(text, 'a.cfg'), 'a.cfg', '.', lambda n: None, variables={'mdlname': lambda: 'm'})
    config = model_cfg.interpret(
        model_cfg.parse(text.split('if (strcmp (mdlname) "m")')[0], 'a.cfg'), 'a.cfg', '.', lambda n: None, variables={'mdlname': lambda: 'm'}
    )
    assert config.skins == {}
    shared = 'iqmload\n'
    with pytest.raises(pq.QuakeFormatError, match=r'shared.cfg: line 1'):
        model_cfg.interpret(model_cfg.parse('exec shared.cfg\n', 'a.cfg'), 'a.cfg', '.', lambda n: ('shared.cfg', shared))
    with pytest.raises(pq.QuakeFormatError, match=r'^shared.cfg: .*never closed'):
        model_cfg.interpret(model_cfg.parse('exec shared.cfg\n', 'a.cfg'), 'a.cfg', '.', lambda n: ('shared.cfg', 'if 1 [\n'))


def test_a_config_that_runs_itself_stops_at_the_exec_depth_its_ifs_included():
    from pyvista_quake.formats import model_cfg

    # Each run of self.cfg is two levels deep: its "if" body one, the exec in it another.
    text = 'iqmanim a a.iqm\nif (strcmp (mdlname) "m") [\n  iqmanim b b.iqm\n  exec self.cfg\n]\n'
    config = model_cfg.interpret(model_cfg.parse(text, 'self.cfg'), 'self.cfg', '.', lambda n: ('self.cfg', text), variables={'mdlname': lambda: 'm'})
    names = [played[0].name for played, _, _ in config.animations]
    # Depths 0, 2, 4, 6 and 8 run the file; 1, 3, 5 and 7 an if's body; at depth 8 (MAX_EXEC_DEPTH) no if or exec runs.
    assert model_cfg.MAX_EXEC_DEPTH == 8
    assert names == ['a', 'b'] * 4 + ['a']
    flat = 'iqmanim a a.iqm\nexec self.cfg\n'
    config = model_cfg.interpret(model_cfg.parse(flat, 'self.cfg'), 'self.cfg', '.', lambda n: ('self.cfg', flat))
    assert len(config.animations) == model_cfg.MAX_EXEC_DEPTH + 1


def test_a_config_command_short_of_arguments_says_how_many_it_takes():
    from pyvista_quake.formats import model_cfg

    text = 'iqmanim slow s.iqm 0.5\niqmanim own o.iqm 0\niqmanim fast f.iqm 1 0 2 -3\n'
    config = model_cfg.interpret(model_cfg.parse(text, 'a.cfg'), 'a.cfg', '.', lambda n: None)
    # A rate above 0 is the config's own, however slow; 0 leaves the file's. (The fourth word is a priority.)
    assert [played[0] for played, _, _ in config.animations] == [
        model_cfg.Played('slow', 0.5),
        model_cfg.Played('own', None),
        model_cfg.Played('fast', 1.0, 2, -3),
    ]

    # The engine cannot load a model without its mesh: a bare load (or dir) is an error.
    for text in ('iqmload\n', 'iqmdir\n'):
        with pytest.raises(pq.QuakeFormatError, match='a.cfg: line 1 .* takes at least 1 arguments, has 0'):
            model_cfg.interpret(model_cfg.parse(text, 'a.cfg'), 'a.cfg', '.', lambda n: None)


def test_a_config_command_short_of_words_is_run_as_the_engine_runs_it():
    """Cube 2 gives a command's missing words as empty: Red Eclipse's weapons/sword/item/iqm.cfg has
    ``iqmtag tag_eject`` (a joint, no tag name), and the game loads the model."""
    from pyvista_quake.formats import model_cfg

    def run(text):
        return model_cfg.interpret(model_cfg.parse(text, 'a.cfg'), 'a.cfg', '.', lambda n: ('b.cfg', 'iqmanim b b.iqm\n'))

    config = run('iqmload m.iqm\niqmtag tag_muzzle tag_muzzle\niqmtag tag_eject\niqmtag\nexec\niqmanim idle i.iqm\n')
    assert config.tags == [('tag_muzzle', 'tag_muzzle', (0.0,) * 6)]  # the nameless tags add nothing
    assert config.meshes == [('.', 'm.iqm')] and [p[0].name for p, _, _ in config.animations] == ['idle']  # and stop nothing
    assert run('exec b.cfg\n').animations  # (an exec with its word runs)
    for text, takes, has, outcome in (
        ('iqmanim idle\n', 'an animation name and its file', '1 word', 'left out'),
        ('iqmanim\n', 'an animation name and its file', '0 words', 'left out'),
        ('iqmskin *\n', 'a mesh and its image', '1 word', 'skipped'),
    ):
        with pytest.warns(pq.QuakeWarning, match=f'a.cfg: line 2: {text.split()[0]} takes {takes}, has {has}; {outcome}'):
            config = run('iqmload m.iqm\n' + text + 'iqmskin m s.png\niqmanim run r.iqm\n')
        assert config.skins == {'m': ('.', 's.png')} and [p[0].name for p, _, _ in config.animations] == ['run']


def test_a_name_from_the_games_root_is_the_nearest_folders_in_the_engines_order(tmp_path):
    from pyvista_quake.game.model_configs import from_root

    def put(relative):
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text('')

    for relative in (
        'game/z.cfg',
        'game/packages/models/a/x.cfg',
        'game/media/model/y.cfg',
        'game/models/y.cfg',
        'game/sub/models/z.cfg',
        'game/sub/media/model/w.cfg',
        'game/sub/packages/models/w.cfg',
        'game/v.cfg',
    ):
        put(relative)
    (tmp_path / 'game/models/v.cfg').mkdir()  # a folder of a file's name: not the file
    deep = tmp_path / 'game/sub/deep/er'
    deep.mkdir(parents=True)
    bases: dict = {}
    for _ in range(2):  # the second walk from what the first found of each folder
        found = {name: from_root(deep, name, bases=bases) for name in ('z.cfg', 'a/x.cfg', 'y.cfg', 'w.cfg', 'v.cfg', 'none.cfg')}
        assert found == {
            'z.cfg': tmp_path / 'game/sub/models/z.cfg',  # the nearer folder first, though game/ holds one too
            'a/x.cfg': tmp_path / 'game/packages/models/a/x.cfg',
            'y.cfg': tmp_path / 'game/media/model/y.cfg',  # media/model before models
            'w.cfg': tmp_path / 'game/sub/packages/models/w.cfg',  # packages/models before media/model
            'v.cfg': tmp_path / 'game/v.cfg',
            'none.cfg': None,
        }
        assert from_root(deep, 'a', want_dir=True, bases=bases) == tmp_path / 'game/packages/models/a'
        assert from_root(deep, 'v.cfg', want_dir=True, bases=bases) == tmp_path / 'game/models/v.cfg'
    assert from_root(deep, 'y.cfg') == tmp_path / 'game/media/model/y.cfg'  # without a shared walk, the same


def test_a_palette_starting_with_a_pcx_byte_is_still_a_palette(tmp_path):
    from pyvista_quake.game.skins import pcx_palette

    colours = np.full(768, 0x0A, np.uint8)  # its first entry is PCX's manufacturer byte
    (tmp_path / 'palette.lmp').write_bytes(colours.tobytes())
    np.testing.assert_array_equal(read_palette(tmp_path / 'palette.lmp'), colours.reshape(256, 3))
    np.testing.assert_array_equal(pcx_palette(b'\x0c' + bytes(range(256)) * 3), np.frombuffer(bytes(range(256)) * 3, np.uint8).reshape(256, 3))
    assert pcx_palette(bytes(768)) is None and pcx_palette(b'\x0b' + bytes(768)) is None


def test_info_counts_a_one_frame_models_vertices(tmp_path, capsys):
    (tmp_path / 'one.md3').write_bytes(tetra_md3(frames=1))
    assert main(['info', str(tmp_path / 'one.md3'), '--json']) == 0
    record = json.loads(capsys.readouterr().out)[0]
    assert record['frames'] == 1 and record['vertices'] == 7 and record['triangles'] == 5
    assert record['game'] == 'Quake III' and record['surfaces'] == ['body', 'flag']


def test_the_page_of_a_model_with_nothing_to_draw_is_plain_html(tmp_path):
    from html.parser import HTMLParser

    root = tmp_path / 'baseq3'
    root.mkdir()
    from builders import build_md3

    with zipfile.ZipFile(root / 'pak0.pk3', 'w') as archive:
        archive.writestr('models/weapons2/v_hand.md3', build_md3([], frames=1, tags=[('tag_weapon', np.zeros((1, 3)), np.eye(3)[None])]))
    pq.catalogue([root], tmp_path / 'site')
    entry = next(iter(json.loads((tmp_path / 'site' / 'catalogue.json').read_text()).values()))
    text = (tmp_path / 'site' / entry['page']).read_text()
    assert text.startswith('<!DOCTYPE html><html><head><meta charset="utf-8"><title>models/weapons2/v_hand.md3</title></head><body>')
    assert text.endswith('</body></html>')

    class Outside(HTMLParser):
        stray: list[str] = []
        depth = 0

        def handle_starttag(self, tag, attrs):
            self.depth += tag == 'body'

        def handle_data(self, data):
            if not self.depth and data.strip():
                self.stray.append(data)

    parser = Outside()
    parser.feed(text.split('<title>', 1)[1].split('</title>', 1)[1])
    assert parser.stray == []


# -- 16. a missing file is warned of once a run; 21. the index's words ------------------------


def test_a_command_says_each_missing_file_once(tmp_path, capsys):
    folder = tmp_path / 'models' / 'test'
    folder.mkdir(parents=True)
    for name in ('a', 'b', 'c'):  # three models missing the same skin
        (folder / f'{name}.md2').write_bytes(tetra_md2(skins=['models/test/gone.png']))
    (folder / 'd.md2').write_bytes(tetra_md2(skins=['models/test/lost.png']))
    assert main(['catalogue', str(folder), '-o', str(tmp_path / 'site'), '--size', '32']) == 0
    err = capsys.readouterr().err
    assert err.count('models/test/gone.png not found') == 1 and err.count('models/test/lost.png not found') == 1
    assert main(['convert', str(folder / 'a.md2'), str(tmp_path / 'a.obj')]) == 0  # a new run says it again
    assert capsys.readouterr().err.count('gone.png not found') == 1


def test_the_index_counts_in_words_and_names_the_folder_with_its_parent(tmp_path):
    root = tmp_path / 'base' / 'pk3'
    root.mkdir(parents=True)
    (root / 'one.md3').write_bytes(tetra_md3(frames=1))
    (root / 'three.md2').write_bytes(tetra_md2())
    pq.catalogue([root], tmp_path / 'site')
    index = (tmp_path / 'site' / 'index.html').read_text()
    assert '1 frame,' in index and '3 frames,' in index and '1 frames' not in index
    assert '<title>base/pk3</title>' in index or 'base/pk3' in index.split('</title>')[0]


# -- 19. thumbnails of loose files from different folders are named after their folders --------


def test_loose_files_from_different_folders_are_named_after_their_folders(tmp_path):
    from pyvista_quake.game.sources import Place
    from pyvista_quake.render.batch import targets_for

    drone, bot, other = (tmp_path / 'actors' / n for n in ('drone', 'bot', 'other'))
    given = [
        (Place(drone / 'iqm.cfg'), drone),
        (Place(bot / 'iqm.cfg'), bot),
        (Place(drone / 'tris.md2'), drone),
        (Place(other / 'tris.md2'), other),
        (Place(tmp_path / 'tris.md2'), tmp_path),
    ]
    names = [p.relative_to(tmp_path / 'out').as_posix() for p in targets_for(given, tmp_path / 'out')]
    assert names == ['drone.png', 'bot.png', 'tris.png', 'other/tris.png', f'{tmp_path.name}/tris.png']


# -- 20. a model that fails is a failed card in the index -------------------------------------


def test_a_model_that_fails_is_a_card_saying_why(tmp_path):
    root = tmp_path / 'baseq2'
    root.mkdir()
    (root / 'good.md2').write_bytes(tetra_md2())
    (root / 'broken.md2').write_bytes(b'IDP2' + bytes(20))  # a header cut short
    site = tmp_path / 'site'
    report = pq.catalogue([root], site)
    assert list(map(Path, report.failed)) == [root / 'broken.md2'] and len(report.made) == 1
    index = (site / 'index.html').read_text()
    assert index.count('class="card"') == 1 and index.count('class="card failed"') == 1
    failed = index.split('class="card failed"', 1)[1].split('</div></div>', 1)[0]
    assert 'broken.md2' in failed and 'data-verdicts="fails"' in failed
    assert html.escape(next(iter(report.failed.values()))) in failed  # the error, as the report has it
    assert '<option value="fails">' in index and '<option value="failed">' in index
    again = pq.catalogue([root], site)
    assert list(map(Path, again.failed)) == [root / 'broken.md2'] and len(again.kept) == 1  # tried again, the good one kept


# -- 10. an animation-only IQM is described as what it holds ------------------------------------


def animation_only_iqm() -> bytes:
    import struct

    from builders import build_iqm

    from pyvista_quake.formats import iqm

    data = two_joint_iqm()
    h = iqm.parse(data).header_fields()
    poses = [tuple(p) for p in struct.iter_unpack('<iI10f10f', data[h['ofs_poses'] : h['ofs_poses'] + 88 * 2])]
    return build_iqm(
        poses=[(p[0], p[1], p[2:12], p[12:22]) for p in poses],
        frames=np.asarray(iqm.parse(data).frames),
        anims=[('crouch', 0, 3, 20.0, 0)],
        align=False,
    )


def test_info_describes_an_animation_file_and_why_it_draws_nothing(tmp_path, capsys):
    path = tmp_path / 'crouch.iqm'
    path.write_bytes(animation_only_iqm())
    assert main(['info', str(path), '--json']) == 0
    record = json.loads(capsys.readouterr().out)[0]
    assert record['poses'] == 2 and record['stored_animations'] == {'crouch': {'frames': 3, 'fps': 20.0}}
    assert record['frames'] == 3  # the file's frames (Red Eclipse's crouch.iqm: 20), not 1
    assert record['nothing_to_draw'].startswith('an animation file, no mesh')
    with pytest.raises(pq.NothingToDrawError, match='nothing to draw: an animation file, no mesh'):
        pq.thumbnail(path, tmp_path / 'x.png')
    assert main(['thumbnail', str(path), '-o', str(tmp_path / 'pics')]) == 0  # skipped, not failed
    assert 'with nothing to draw (tags or animations only)' in capsys.readouterr().out


def test_a_model_of_tags_only_says_so(tmp_path):
    from builders import build_md3

    path = tmp_path / 'v_hand.md3'
    path.write_bytes(build_md3([], frames=1, tags=[('tag_weapon', np.zeros((1, 3)), np.eye(3)[None])]))
    with pytest.raises(pq.NothingToDrawError, match=r'nothing to draw: tags only \(tag_weapon\)'):
        pq.thumbnail(path, tmp_path / 'x.png')


# -- 18. the site names no folder of the machine that built it ---------------------------------


def test_the_site_names_no_folder_of_the_machine_that_built_it(tmp_path):
    root = tmp_path / 'baseq3'
    root.mkdir()
    buffer = io.BytesIO()
    Image.new('RGB', (8, 8), (0, 0, 255)).save(buffer, 'TGA')
    with zipfile.ZipFile(root / 'pak0.pk3', 'w') as archive:
        archive.writestr('models/b/model.md3', tetra_md3())
        archive.writestr('models/test/body.tga', buffer.getvalue())
    (root / 'loose.md2').write_bytes(tetra_md2(skins=['loose.png']))
    Image.new('RGB', (8, 8), (0, 200, 0)).save(root / 'loose.png')
    site = tmp_path / 'site'
    pq.catalogue([root], site)
    for file in [site / 'catalogue.json', site / 'index.html', *site.rglob('*.html')]:
        assert str(tmp_path) not in file.read_text(), file
    entries = json.loads((site / 'catalogue.json').read_text())
    assert sorted(entries) == ['../baseq3/loose.md2', '../baseq3/pak0.pk3:models/b/model.md3']
    skins = {e['name']: e['skins'] for e in entries.values()}
    assert skins['loose.md2'] == ['loose.png'] and 'pak0.pk3:models/test/body.tga' in skins['models/b/model.md3']
    assert not pq.catalogue([root], site).made  # read back: the same models, kept


def test_a_page_recorded_without_its_inputs_is_made_again(tmp_path):
    folder = tmp_path / 'models' / 'test'
    folder.mkdir(parents=True)
    (folder / 'tris.md2').write_bytes(tetra_md2())
    site = tmp_path / 'site'
    pq.catalogue([folder], site)
    manifest = json.loads((site / 'catalogue.json').read_text())
    for entry in manifest.values():
        del entry['inputs']  # as an earlier version's catalogue.json has it
    (site / 'catalogue.json').write_text(json.dumps(manifest))
    assert len(pq.catalogue([folder], site).made) == 1
    assert not pq.catalogue([folder], site).made


# -- 22. XDMF keeps its arrays in binary beside it ----------------------------------------------


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


# -- 11. .md5anim files: the one of the mesh's name, --animations, and nothing to animate -------


def _md5_pair(folder: Path, mesh_name: str = 'Bob', anim_name: str = 'Bob') -> Path:
    mesh, anim = two_joint_md5()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f'{mesh_name}.md5mesh').write_text(mesh)
    if anim_name:
        (folder / f'{anim_name}.md5anim').write_text(anim)
    return folder / f'{mesh_name}.md5mesh'


def test_an_md5anim_of_the_meshs_own_name_is_attached(tmp_path):
    model = pq.load(_md5_pair(tmp_path / 'a'))
    assert list(model.animations) == ['Bob'] and len(model) == 3
    assert not np.allclose(model.positions(2), model.positions(0))
    assert len(pq.load(_md5_pair(tmp_path / 'a'), animations=[])) == 1  # asked for none: none
    assert len(pq.load(_md5_pair(tmp_path / 'b', anim_name='Other'))) == 1  # another name is not its animation


def test_an_md5anim_of_the_meshs_name_in_an_archive_is_attached(tmp_path):
    mesh, anim = two_joint_md5()
    with zipfile.ZipFile(tmp_path / 'pak0.pk3', 'w') as pk3:
        pk3.writestr('models/bob/bob.md5mesh', mesh)
        pk3.writestr('models/bob/bob.md5anim', anim)
        pk3.writestr('models/bob/other.md5mesh', mesh)
    assert list(pq.load(f'{tmp_path / "pak0.pk3"}:models/bob/bob.md5mesh').animations) == ['bob']
    assert len(pq.load(tmp_path / 'pak0.pk3', member='models/bob/other.md5mesh')) == 1


def test_the_command_line_attaches_animation_files(tmp_path, capsys):
    mesh = _md5_pair(tmp_path, 'rifle', anim_name='')
    _, anim = two_joint_md5()
    (tmp_path / 'fire.md5anim').write_text(anim)
    (tmp_path / 'reload.md5anim').write_text(anim)
    assert main(['info', str(mesh), '--json', '--animations', str(tmp_path / 'fire.md5anim'), str(tmp_path / 'reload.md5anim')]) == 0
    record = json.loads(capsys.readouterr().out)
    record = record[0] if isinstance(record, list) else record
    assert record['frames'] == 3 + 3
    assert main(['animate', str(mesh), str(tmp_path / 'fire.gif'), '--animations', str(tmp_path / 'fire.md5anim'), '--size', '48']) == 0
    with Image.open(tmp_path / 'fire.gif') as gif:
        assert gif.n_frames > 1


def test_an_animation_command_with_nothing_to_animate_says_so(tmp_path, capsys):
    mesh = _md5_pair(tmp_path, 'rifle', anim_name='')
    assert main(['animate', str(mesh), str(tmp_path / 'x.gif'), '--size', '48']) == 1
    err = capsys.readouterr().err
    assert 'nothing to animate' in err and '--animations' in err
    assert not (tmp_path / 'x.gif').exists()
    with pytest.raises(ValueError, match='nothing to animate'):
        pq.animate(pq.load(tetra_md2()), tmp_path / 'y.gif', animation='run')  # an animation of one frame


# -- item 12: the viewer starts on the rest animation, framed on it, and names every animation apart -----------


def test_animations_of_one_name_are_named_as_they_are_keyed(tmp_path):
    from builders import two_joint_iqm

    (tmp_path / 'bar.iqm').write_bytes(two_joint_iqm(frames=4, anims=[('idle', 0, 2, 10.0, 1), ('idle', 2, 2, 10.0, 1)]))
    model = pq.load(tmp_path / 'bar.iqm')
    assert list(model.animations) == ['idle', 'idle_2']
    assert [clip.name for clip in model.animations.values()] == ['idle', 'idle_2']
    assert list(model.animations['idle_2'].frames) == [2, 3]


def page_info(page: str) -> dict:
    import json

    call = page[page.index('PyvistaQuakeViewer.start(') :]
    return json.loads(call[call.index('], ') + 3 : call.rindex(');')])


def test_a_page_starts_on_the_rest_animation_with_the_box_of_its_frames(tmp_path):
    from builders import tetra_md2

    path = tmp_path / 't.md2'
    path.write_bytes(tetra_md2())  # frames stand01, stand02, run1
    model = pq.load(path)
    info = page_info(pq.exporting.html.page(model))
    assert info['start'] == 'stand'
    points = model.positions([0, 1])[..., [1, 2, 0]].reshape(-1, 3)  # glTF's axes: Quake's y, z, x
    np.testing.assert_allclose(info['bounds'], [*points.min(axis=0), *points.max(axis=0)], rtol=1e-6)
    run = page_info(pq.exporting.html.page(model, animation='run'))
    assert run['start'] == 'run'
    points = model.positions([2])[..., [1, 2, 0]].reshape(-1, 3)
    np.testing.assert_allclose(run['bounds'], [*points.min(axis=0), *points.max(axis=0)], rtol=1e-6)


# -- item 9: a shader stage that blends never paints opaque, its image missing or not ---------------------------


def flame_md3(folder: Path, flame: bool) -> Path:
    """A red tetrahedron and, with ``flame``, a card in front of it whose additive shader's image is missing."""
    from builders import build_md3
    from builders import latlong

    models = folder / 'models' / 'test'
    models.mkdir(parents=True, exist_ok=True)
    body = dict(
        name='body',
        shaders=['models/test/body.tga'],
        triangles=[[0, 1, 2], [0, 3, 1], [1, 3, 2], [2, 3, 0]],
        st=[[0, 0], [1, 0], [0, 1], [0.5, 0.5]],
        xyz=np.array([[[0, 0, 0], [640, 0, 0], [0, 640, 0], [0, 0, 640]]]),
        normal=latlong(np.array([[-1, -1, -1], [1, 0, 0], [0, 1, 0], [0, 0, 1]]) / np.array([[3**0.5], [1], [1], [1]]))[None],
    )
    card = dict(
        name='thrust',
        shaders=['models/test/thrust'],
        triangles=[[0, 1, 2], [0, 2, 3]],
        st=[[0, 0], [1, 0], [1, 1], [0, 1]],
        xyz=np.array([[[700, -200, -200], [700, 900, -200], [700, 900, 900], [700, -200, 900]]]),
        normal=latlong(np.tile([[1.0, 0, 0]], (4, 1)))[None],
    )
    Image.fromarray(np.full((4, 4, 3), (200, 0, 0), np.uint8)).save(models / 'body.tga')
    (folder / 'scripts').mkdir(exist_ok=True)
    (folder / 'scripts' / 'test.shader').write_text('models/test/thrust\n{\n  {\n    map textures/flares/flarey.tga\n    blendFunc add\n  }\n}\n')
    path = models / ('flame.md3' if flame else 'plain.md3')
    path.write_bytes(build_md3([body, card] if flame else [body]))
    return path


def test_an_additive_surface_whose_image_is_missing_paints_nothing_and_the_warning_names_its_image(tmp_path):
    with pytest.warns(pq.QuakeWarning) as caught:
        model = pq.load(flame_md3(tmp_path, True))
        assert model.surfaces[1].image() is None
        pq.thumbnail(model, tmp_path / 'flame.png', size=(96, 96))
    said = ' '.join(str(w.message) for w in caught)
    assert 'image textures/flares/flarey.tga of shader models/test/thrust of surface thrust not found' in said
    pq.thumbnail(pq.load(flame_md3(tmp_path, False)), tmp_path / 'plain.png', size=(96, 96))
    flame, plain = (np.asarray(Image.open(tmp_path / f'{n}.png').convert('RGB')).astype(int) for n in ('flame', 'plain'))
    red = (plain[..., 0] > 120) & (plain[..., 1] < 80)
    assert red.sum() > 200  # the body shows
    assert np.abs(flame - plain).max() <= 2  # the flame adds nothing: the same picture as without it


# -- 4. A game's models are what its configs build ---------------------------------------------


def red_eclipse_weapon(tmp_path) -> Path:
    """Red Eclipse's weapon layout: one mesh, and configs in vwep/, hwep/ and item/ that load ../grenade.md5mesh."""
    data = tmp_path / 'data'
    weapon = data / 'weapons' / 'grenade'
    weapon.mkdir(parents=True)
    mesh, anim = two_joint_md5()
    (weapon / 'grenade.md5mesh').write_text(mesh)
    (weapon / 'grenade-idle.md5anim').write_text(anim)
    Image.new('RGB', (4, 4), (200, 30, 30)).save(weapon / 'diffuse.png')
    for kind in ('vwep', 'hwep', 'item'):
        (weapon / kind).mkdir()
        (weapon / kind / 'md5.cfg').write_text(
            'md5load ../grenade.md5mesh\nmd5skin * "<dds>../diffuse.png"\nmd5anim "grenade" ../grenade-idle.md5anim 1\n'
        )
    return data


def _found(sources, root: Path) -> list[str]:
    from pyvista_quake.render.batch import find_models

    return [p.path.resolve().relative_to(root.resolve()).as_posix() for p, _ in find_models(sources)]


def test_a_mesh_that_only_configs_load_is_found_as_the_models_they_build(tmp_path):
    data = red_eclipse_weapon(tmp_path)
    (data / 'textures').mkdir()
    Image.new('RGB', (4, 4)).save(data / 'textures' / 'wall.png')  # a folder of images: no model
    (data / 'textures' / 'readme.txt').write_text('wall.png: CC-BY-SA ]\n')  # and no config, though a config would not read
    assert _found([data], data) == ['weapons/grenade/hwep', 'weapons/grenade/item', 'weapons/grenade/vwep']
    assert _found([data / 'weapons' / 'grenade' / 'vwep'], data) == ['weapons/grenade/vwep']  # the folder given is the model
    # The mesh given by itself is still the mesh.
    assert _found([data / 'weapons' / 'grenade' / 'grenade.md5mesh'], data) == ['weapons/grenade/grenade.md5mesh']


def test_files_a_config_animates_with_are_no_models_of_their_own_and_other_files_stay(tmp_path):
    shared = red_eclipse_players(tmp_path)
    data = shared.parent.parent
    (shared / 'unused.iqm').write_bytes(two_joint_iqm())  # no config names it: still a model
    (data / 'plain').mkdir()
    (data / 'plain' / 'mesh.iqm').write_bytes(two_joint_iqm())
    (data / 'plain' / 'iqm.cfg').write_text('iqmload mesh.iqm\n')  # a config beside its mesh: the mesh is the model
    assert _found([data], data) == [
        'actors/player/male/headless/mesh.iqm',
        'actors/player/male/mesh.iqm',
        'actors/player/unused.iqm',
        'plain/mesh.iqm',
    ]


def test_a_config_that_does_not_read_is_a_model_that_fails(tmp_path):
    folder = tmp_path / 'broken'
    folder.mkdir()
    (folder / 'iqm.cfg').write_text('iqmload mesh.iqm\n]\n')  # a ] with no [
    assert _found([tmp_path], tmp_path) == ['broken']
    (folder / 'mesh.iqm').write_bytes(two_joint_iqm())
    assert _found([tmp_path], tmp_path) == ['broken/mesh.iqm']  # its mesh fails with it, once


def test_info_and_the_catalogue_show_the_models_configs_build(tmp_path, capsys):
    data = red_eclipse_weapon(tmp_path)
    assert main(['info', str(data / 'weapons' / 'grenade' / 'vwep'), '--json']) == 0
    record = json.loads(capsys.readouterr().out)[0]
    assert 'grenade' in record['animations']
    assert [Path(s['location']).name for s in record['skins']] == ['diffuse.png']
    site = tmp_path / 'site'
    report = pq.catalogue([data], site)
    assert len(report.made) == 3 and not report.failed
    entries = json.loads((site / 'catalogue.json').read_text())
    assert sorted(e['name'] for e in entries.values()) == [f'weapons/grenade/{k}' for k in ('hwep', 'item', 'vwep')]
    assert all(e['skins'] and 'grenade' in e['animations'] for e in entries.values())


# -- 8. Player pages: the .skin sets, a skin picker, engine verdicts ----------------------------


def skinned_player(folder: Path) -> Path:
    """The synthetic player with two complete skin sets (``default``, ``red``) and one part's ``blue`` only."""
    from pyvista_quake.examples import synthetic_player

    synthetic_player(folder)
    images = folder.parent / 'game' / 'skins'  # found only through the game folder given as a search path
    images.mkdir(parents=True)
    for skin, colour in (('default', (200, 200, 200)), ('red', (220, 20, 20))):
        Image.new('RGB', (8, 8), colour).save(images / f'{skin}.tga')
        for part, surface in (('lower', 'l_legs'), ('upper', 'u_torso'), ('head', 'h_head')):
            (folder / f'{part}_{skin}.skin').write_text(f'tag_torso,\n{surface},skins/{skin}.tga\n')
    (folder / 'head_blue.skin').write_text('h_head,x.tga\n')  # not a set: the other parts have no blue
    return folder


def test_a_player_knows_its_skin_sets_and_a_page_picks_among_them(tmp_path):
    folder = skinned_player(tmp_path / 'models' / 'players' / 'p')
    player = pq.load_player(folder, search_paths=[folder.parent / 'game'])
    assert player.skins == ['default', 'red'] and player.skin == 'default'
    red = player.with_skin('red')  # loaded as the player was: its images through the same game folder
    assert red.skin == 'red' and red.parts['lower'].surfaces[0].image()[0, 0, 0] == 220
    assert player.parts['lower'].surfaces[0].image()[0, 0, 0] == 200  # the player itself keeps its skin
    with pytest.raises(ValueError, match="no skin 'blue'.*default, red"):
        player.with_skin('blue')
    from pyvista_quake.exporting.html import page

    text = page(player)
    assert page_info(text)['skins'] == ['default', 'red']
    call = text[text.index('PyvistaQuakeViewer.start(') :]
    assert len(json.loads(call[call.index('[') : call.index('], ') + 1])) == 1  # the player once, whatever its skins
    info = page_info(text)
    assert len(info['skinTable']) == 2 and len(info['skinImages']) == 2  # each skin set's one image, stored once
    assert set(info['skinTable'][0].values()) != set(info['skinTable'][1].values())


def test_a_player_card_and_page_carry_its_skins_and_engine_verdicts(tmp_path):
    folder = skinned_player(tmp_path / 'models' / 'players' / 'p')
    site = tmp_path / 'site'
    (tmp_path / 'models' / 'players' / 'game' / 'skins' / 'notes.txt').write_text('x')  # no model
    pq.catalogue([tmp_path / 'models'], site, search_paths=[folder.parent / 'game'])
    (entry,) = json.loads((site / 'catalogue.json').read_text()).values()
    assert entry['format'] == 'player' and entry['skin_sets'] == ['default', 'red']
    assert {Path(s).name for s in entry['skins']} == {'default.tga'}
    assert entry['verdicts'] and set(entry['verdicts'].values()) <= {'loads', 'warns', 'refuses'}
    index = (site / 'index.html').read_text()
    assert 'data-verdicts="loads' in index or 'data-verdicts="warns' in index
    page = next(site.rglob('p.html')).read_text()
    assert 'engine: ' in page and 'default, red' in page


def test_a_page_with_no_rest_animation_starts_on_the_first_that_moves(tmp_path):
    path = tmp_path / 't.md2'
    path.write_bytes(tetra_md2(names=['pose1', 'run1', 'run2']))
    assert page_info(pq.exporting.html.page(pq.load(path)))['start'] == 'run'


def test_an_animation_of_two_frames_animates(tmp_path):
    path = tmp_path / 't.md2'
    path.write_bytes(tetra_md2())  # stand01, stand02: an animation of two frames
    assert pq.animate(pq.load(path), tmp_path / 'stand.gif', animation='stand', size=(32, 32)) >= 2
    assert Image.open(tmp_path / 'stand.gif').n_frames >= 2


def test_the_md5_registration_names_its_game():
    from pyvista_quake.formats import FORMATS

    assert FORMATS['md5'].title.startswith('Doom 3')
