"""A catalogue of a whole game: a card and a page per model, players as one, a second run redoing only what changed."""

from __future__ import annotations

import html
import io
import json
import os
from pathlib import Path
import time
import zipfile

from builders import tetra_md2
from builders import tetra_md3
from builders import two_joint_iqm
from game_folders import game
from game_folders import page_info
from game_folders import red_eclipse_weapon
import numpy as np
from PIL import Image
import pytest

import pyvista_quake as pq
from pyvista_quake.cli.main import main
from pyvista_quake.examples import synthetic_player


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
    from game_folders import static_bar
    from game_folders import tiny_png
    from PIL import Image

    from pyvista_quake.game.inputs import recording

    folder = tmp_path / 'data' / 'actors' / 'drone'
    folder.mkdir(parents=True)
    (folder / 'drone.iqm').write_bytes(build_iqm(**static_bar()))
    (folder / 'skin.png').write_bytes(tiny_png())
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


def _bump(path: Path) -> None:
    """Move a file's time a second on, as an edit a moment later does (file systems may keep coarse times)."""
    now = time.time_ns() + 10**9
    os.utime(path, ns=(now, now))


def _red_share(picture: Path) -> float:
    pixels = np.asarray(Image.open(picture).convert('RGB')).reshape(-1, 3).astype(int)
    return float(((pixels[:, 0] > 150) & (pixels[:, 1] < 80)).mean())


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


def test_the_index_counts_in_words_and_names_the_folder_with_its_parent(tmp_path):
    root = tmp_path / 'base' / 'pk3'
    root.mkdir(parents=True)
    (root / 'one.md3').write_bytes(tetra_md3(frames=1))
    (root / 'three.md2').write_bytes(tetra_md2())
    pq.catalogue([root], tmp_path / 'site')
    index = (tmp_path / 'site' / 'index.html').read_text()
    assert '1 frame,' in index and '3 frames,' in index and '1 frames' not in index
    assert '<title>base/pk3</title>' in index or 'base/pk3' in index.split('</title>')[0]


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
