"""Cube 2 model configs as the game runs them: the models they assemble, their conditions and names."""

from __future__ import annotations

from pathlib import Path
import warnings

from builders import two_joint_iqm
from game_folders import PLAYER_CFG
from game_folders import red_eclipse_players
from PIL import Image
import pytest

import pyvista_quake as pq


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
