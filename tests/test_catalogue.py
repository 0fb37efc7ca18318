"""A catalogue of a whole game: a card and a page per model, players as one, a second run redoing only what changed."""

from __future__ import annotations

import json
import os
from pathlib import Path
import time
import zipfile

from builders import build_md3
from builders import tetra_md2
from builders import tetra_md3
from builders import torch_mdl
import numpy as np

import pyvista_quake as pq
from pyvista_quake.cli.main import main
from pyvista_quake.examples import synthetic_player


def game(tmp_path) -> Path:
    root = tmp_path / 'baseq3'
    root.mkdir()
    player = synthetic_player(tmp_path / 'src')
    with zipfile.ZipFile(root / 'pak0.pk3', 'w') as archive:
        archive.writestr('models/a/tris.md2', tetra_md2())
        archive.writestr('progs/torch.mdl', torch_mdl())
        archive.writestr('models/b/model.md3', tetra_md3())
        archive.writestr('models/weapons2/v_hand.md3', build_md3([], frames=1, tags=[('tag_weapon', np.zeros((1, 3)), np.eye(3)[None])]))
        for path in player.iterdir():
            archive.write(path, f'models/players/x/{path.name}')
    (root / 'loose.md2').write_bytes(tetra_md2())
    return root


def test_a_catalogue_has_a_card_and_a_page_per_model(tmp_path):
    root = game(tmp_path)
    report = pq.catalogue([root], tmp_path / 'site')
    site = tmp_path / 'site'
    entries = json.loads((site / 'catalogue.json').read_text())
    names = sorted(e['name'] for e in entries.values())
    assert names == ['loose.md2', 'models/a/tris.md2', 'models/b/model.md3', 'models/players/x', 'models/weapons2/v_hand.md3', 'progs/torch.mdl']
    assert len(report.made) == 6 and not report.kept and not report.failed
    index = (site / 'index.html').read_text()
    assert index.count('class="card"') == 6 and 'data-format="player"' in index and 'data-format="mdl"' in index
    for entry in entries.values():
        page = (site / entry['page']).read_text()
        assert 'src="http' not in page and 'href="http' not in page
        if entry['triangles']:
            assert 'viewer.bundle.js' in page and 'PyvistaQuakeViewer.start' in page
            assert (site / entry['picture']).is_file()
        else:
            assert entry['picture'] is None and 'nothing to draw' in index  # the tag-only hand
    torch = next(e for e in entries.values() if e['name'] == 'progs/torch.mdl')
    assert torch['format'] == 'mdl' and torch['frames'] == 2 and set(torch['verdicts']) >= {'quake', 'glquake'}
    assert (site / 'viewer.bundle.js').read_bytes() == (Path(pq.exporting.html.STATIC) / 'viewer.bundle.js').read_bytes()


def test_a_second_run_redoes_only_what_changed(tmp_path):
    root = game(tmp_path)
    pq.catalogue([root], tmp_path / 'site')
    again = pq.catalogue([root], tmp_path / 'site')
    assert not again.made and len(again.kept) == 6
    time.sleep(0.01)
    (root / 'loose.md2').write_bytes(tetra_md2(names=['a1', 'a2', 'b1']))
    os.utime(root / 'loose.md2', ns=(time.time_ns(), time.time_ns() + 10**9))
    third = pq.catalogue([root], tmp_path / 'site')
    assert [Path(p).name for p in third.made] == ['loose.md2'] and len(third.kept) == 5
    entries = json.loads((tmp_path / 'site' / 'catalogue.json').read_text())
    assert next(e for e in entries.values() if e['name'] == 'loose.md2')['animations'] == ['a', 'b']


def test_the_catalogue_command(tmp_path, capsys):
    root = game(tmp_path)
    site = tmp_path / '[b]site'
    assert main(['catalogue', str(root), '-o', str(site), '--jobs', '2', '--size', '64']) == 0
    assert f'6 models in {site / "index.html"}: 6 made, 0 unchanged, 0 failed' in capsys.readouterr().out
    (tmp_path / 'bad.md2').write_bytes(b'IDP2 broken')
    assert main(['catalogue', str(tmp_path / 'bad.md2'), '-o', str(tmp_path / 'site2')]) == 1


def test_levels_of_detail_are_one_card_of_their_model(tmp_path):
    root = tmp_path / 'baseq3'
    (root / 'models' / 'b').mkdir(parents=True)
    for name in ('head.md3', 'head_1.md3', 'head_2.md3', 'other_1.md3', 'head_3.md3'):
        (root / 'models' / 'b' / name).write_bytes(tetra_md3())
    pq.catalogue([root], tmp_path / 'site')
    entries = json.loads((tmp_path / 'site' / 'catalogue.json').read_text())
    names = sorted(e['name'] for e in entries.values())
    # other_1 has no other.md3 and head_3 is past MD3_MAX_LODS: models of their own
    assert names == ['models/b/head.md3', 'models/b/head_3.md3', 'models/b/other_1.md3']
    head = next(e for e in entries.values() if e['name'] == 'models/b/head.md3')
    assert head['levels'] == ['models/b/head_1.md3', 'models/b/head_2.md3']
    assert '3 levels of detail' in (tmp_path / 'site' / 'index.html').read_text()


def test_a_player_s_card_has_a_model_s_fields_counted_over_its_parts(tmp_path):
    from pyvista_quake.publish.catalogue import _summary

    player = pq.load_player(synthetic_player(tmp_path / 'p'))
    model = player.parts['upper']
    card, own = _summary(player, tmp_path), _summary(model, tmp_path)
    assert set(card) == set(own)  # one card, whatever it shows
    assert card['format'] == 'player' and own['format'] == 'md3'
    parts = list(player.parts.values())
    assert card['frames'] == max(len(p) for p in parts) > min(len(p) for p in parts)
    assert card['surfaces'] == sum(len(p.surfaces) for p in parts) and card['triangles'] == sum(s.num_triangles for p in parts for s in p.surfaces)
    assert card['animations'] == list(player.config.animations) and own['animations'] == list(model.animations)
    assert card['tags'] == [] and card['header'] == {} and own['tags'] == list(model.tags) and own['header']
    assert own['joints'] == [] and own['frames'] == len(model)
    assert 'ident' not in own['header'] and own['header']['version'] == str(model.header['version'])
    (tmp_path / 'two.md2').write_bytes(tetra_md2(skins=['models/a/one.pcx', 'models/a/two.pcx']))
    assert _summary(pq.load(tmp_path / 'two.md2'), tmp_path)['skin_sets'] == ['models/a/one.pcx', 'models/a/two.pcx']
    assert own['skin_sets'] == []  # one skin: nothing to pick


def test_a_card_names_a_player_s_findings_by_part_and_a_model_s_as_they_are(tmp_path, monkeypatch):
    from pyvista_quake.game.engines import Finding
    from pyvista_quake.publish import catalogue

    finding = Finding('quake3', 'a rule', 'numFrames', 1, 'refuses', 'tr_model.c')
    judges = ('quake3', 'ioquake3')
    monkeypatch.setattr(catalogue, '_findings', lambda model: ([finding] if model.source.endswith('head.md3') else [], judges))
    player = pq.load_player(synthetic_player(tmp_path / 'p'))
    said = catalogue._finding(finding)
    assert catalogue._summary(player, tmp_path)['findings'] == [f'head: {said}']
    assert catalogue._summary(player.parts['head'], tmp_path)['findings'] == [said]
    assert catalogue._summary(player.parts['upper'], tmp_path)['findings'] == []


def test_a_cube2_models_page_is_redone_when_the_skin_its_config_names_changes(tmp_path):
    from builders import build_iqm
    from PIL import Image
    from test_skeletal import _png
    from test_skeletal import _static_bar

    from pyvista_quake.game.inputs import recording

    folder = tmp_path / 'data' / 'actors' / 'drone'
    folder.mkdir(parents=True)
    (folder / 'drone.iqm').write_bytes(build_iqm(**_static_bar()))
    (folder / 'skin.png').write_bytes(_png())
    (folder / 'iqm.cfg').write_text('iqmload drone.iqm\niqmskin * skin.png\n')
    with recording() as read:
        pq.load(folder).surfaces[0].image()
    assert str(folder / 'skin.png') in read
    site = tmp_path / 'site'
    assert len(pq.catalogue([folder], site).made) == 1
    assert len(pq.catalogue([folder], site).kept) == 1
    time.sleep(0.01)
    Image.new('RGB', (4, 4), (250, 0, 0)).save(folder / 'skin.png')
    os.utime(folder / 'skin.png', ns=(time.time_ns(), time.time_ns() + 10**9))
    assert len(pq.catalogue([folder], site).made) == 1  # the page shows the skin: it is redone
