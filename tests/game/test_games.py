"""Whole games: ARCHIVE:MEMBER paths, PAK/PK3 files and game folders wherever a model is taken; rest poses."""

from __future__ import annotations

import json
from pathlib import Path
import struct
import subprocess
import sys

from builders import tetra_md2
from builders import torch_mdl
from game_folders import write_pk3
import numpy as np
from PIL import Image
import pytest

import pyvista_quake as pq
from pyvista_quake._base.errors import MissingMemberError
from pyvista_quake.data.animation import rest_frame
from pyvista_quake.game.archives import load_order
from pyvista_quake.game.archives import split_member
from pyvista_quake.game.sources import Place
from pyvista_quake.render.batch import find_models
from pyvista_quake.render.batch import targets_for


def write_pak(path: Path, members: dict[str, bytes]) -> Path:
    """A Quake PAK: 'PACK', directory offset and length, then 64-byte entries (56-byte name, offset, length)."""
    blob, entries = b'', b''
    for name, data in members.items():
        entries += struct.pack('<56sii', name.encode(), 12 + len(blob), len(data))
        blob += data
    path.write_bytes(b'PACK' + struct.pack('<ii', 12 + len(blob), len(entries)) + blob + entries)
    return path


def skin_png(colour) -> bytes:
    from io import BytesIO

    out = BytesIO()
    Image.fromarray(np.full((8, 8, 3), colour, np.uint8)).save(out, format='PNG')
    return out.getvalue()


@pytest.fixture
def game(tmp_path) -> Path:
    """A game folder: two PAKs (the later overriding a model and a skin), a PK3 and a loose model."""
    root = tmp_path / 'quake' / 'id1'
    root.mkdir(parents=True)
    write_pak(
        root / 'pak0.pak',
        {'progs/torch.mdl': torch_mdl(), 'models/a/tris.md2': tetra_md2(skins=['models/a/skin.png']), 'models/a/skin.png': skin_png((200, 0, 0))},
    )
    write_pak(root / 'pak1.pak', {'models/a/skin.png': skin_png((0, 200, 0))})
    write_pk3(root / 'extra.pk3', {'models/b/tris.md2': tetra_md2(names=['idle1', 'stand1', 'stand2'])})
    (root / 'loose.mdl').write_bytes(torch_mdl())
    return root


def test_a_member_path_loads_like_member_and_as_its_repr_names_it(game):
    by_path = pq.load(f'{game}/pak0.pak:progs/torch.mdl')
    by_member = pq.load(game / 'pak0.pak', member='progs/torch.mdl')
    np.testing.assert_array_equal(by_path.positions(), by_member.positions())
    assert by_path.source == f'{game}/pak0.pak:progs/torch.mdl' and pq.load(by_path.source).source == by_path.source
    with pytest.raises(MissingMemberError, match='nothing.mdl'):
        pq.load(f'{game}/pak0.pak:progs/nothing.mdl')
    with pytest.raises(FileNotFoundError):
        pq.load(f'{game}/absent.pak:progs/torch.mdl')  # no archive there: a missing file, as before


def test_split_member_needs_an_archive_before_the_colon(game):
    assert split_member(f'{game}/pak0.pak:progs/torch.mdl') == (game / 'pak0.pak', 'progs/torch.mdl')
    assert split_member(f'{game}/loose.mdl:x') is None  # not an archive
    assert split_member(f'{game}/pak0.pak:') is None  # no member
    assert split_member('nothing.pak:progs/x.mdl') is None


def test_a_place_is_split_once_and_loads_as_its_text_does(game):
    member = Place.of(f'{game}/pak0.pak:progs/torch.mdl')
    assert member == Place(game / 'pak0.pak', 'progs/torch.mdl') and member.archive == game / 'pak0.pak'
    assert str(member) == f'{game}/pak0.pak:progs/torch.mdl' and member.name == 'torch.mdl'
    assert member.parent == Place(game / 'pak0.pak', 'progs')
    assert Place.of(f'{game}/loose.mdl') == Place(game / 'loose.mdl') and Place(game / 'loose.mdl').archive is None
    assert Place.of(f'{game}/loose.mdl:x') == Place(Path(f'{game}/loose.mdl:x'))  # no archive before the colon
    assert Place(game / 'x.pk3', 'models/players/sarge/').name == 'sarge'  # a folder's own name
    assert Place(game / 'loose.mdl').parent == Place(game) and Place(game / 'loose.mdl').name == 'loose.mdl'
    by_place = pq.load(member)
    assert by_place.source == str(member)
    np.testing.assert_array_equal(by_place.positions(), pq.load(str(member)).positions())
    np.testing.assert_array_equal(pq.load(Place(game / 'pak0.pak'), member='progs/torch.mdl').positions(), by_place.positions())
    with pytest.raises(MissingMemberError, match='nothing.mdl'):
        pq.load(Place(game / 'pak0.pak', 'progs/nothing.mdl'))
    assert find_models([str(member)]) == [(member, game / 'pak0.pak')]


def test_later_archives_override_earlier_ones(game):
    """The skin of pak0's model is found in pak1, which the game loads later and which wins."""
    model = pq.load(f'{game}/pak0.pak:models/a/tris.md2')
    assert tuple(model.alias.skin_image(0)[0, 0, :3]) == (0, 200, 0)
    assert 'pak1.pak' in model.alias.skin_file(0).location
    assert load_order(['pak10.pak', 'pak2.pak', 'pak1.pak', 'Zz.pk3', 'a.pk3']) == ['a.pk3', 'pak1.pak', 'pak2.pak', 'pak10.pak', 'Zz.pk3']


def test_find_models_takes_archives_members_and_game_folders(game, tmp_path):
    found = find_models([game.parent])
    names = sorted(str(p).replace(str(game), '') for p, _ in found)
    assert names == ['/extra.pk3:models/b/tris.md2', '/loose.mdl', '/pak0.pak:models/a/tris.md2', '/pak0.pak:progs/torch.mdl']
    targets = targets_for(found, tmp_path / 'out')
    assert sorted(str(t.relative_to(tmp_path / 'out')) for t in targets) == [
        'id1/loose.png',
        'id1/models/a/tris.png',
        'id1/models/b/tris.png',
        'id1/progs/torch.png',
    ]
    pak = find_models([game / 'pak0.pak'])
    assert sorted(str(t.relative_to(tmp_path)) for t in targets_for(pak, tmp_path)) == ['models/a/tris.png', 'progs/torch.png']
    one = find_models([f'{game}/pak0.pak:progs/torch.mdl'])
    assert [str(t.relative_to(tmp_path)) for t in targets_for(one, tmp_path)] == ['progs/torch.png']


def test_thumbnails_of_a_game_folder(game, tmp_path):
    report = pq.thumbnails([game], tmp_path / 'thumbs', size=(48, 48))
    assert report.ok and len(report.written) == 4
    assert (tmp_path / 'thumbs' / 'progs' / 'torch.png').is_file()


def test_cli_reaches_into_archives(game):
    for command in ('info', 'check'):
        result = subprocess.run(
            [sys.executable, '-m', 'pyvista_quake', command, f'{game}/pak0.pak:progs/torch.mdl'], capture_output=True, text=True, timeout=300
        )
        assert result.returncode == 0, result.stderr
        assert 'pak0.pak:progs/torch.mdl' in result.stdout
    whole = subprocess.run([sys.executable, '-m', 'pyvista_quake', 'info', str(game / 'pak0.pak')], capture_output=True, text=True, timeout=300)
    assert whole.returncode == 0 and 'progs/torch.mdl' in whole.stdout and 'models/a/tris.md2' in whole.stdout


def test_rest_pose_is_the_first_stand_or_idle_animation():
    model = pq.load(tetra_md2(names=['death1', 'Stand1', 'stand2']))
    assert rest_frame(model.animations) == 1
    assert rest_frame(pq.load(tetra_md2(names=['run1', 'IDLE1', 'walk1'])).animations) == 1
    assert rest_frame(pq.load(tetra_md2(names=['run1', 'run2', 'walk1'])).animations) == 0


def test_thumbnail_shows_the_rest_pose_by_default(tmp_path):
    verts = np.array([[0, 0, 0, 5], [100, 0, 0, 5], [0, 100, 0, 5], [0, 0, 100, 5]], np.uint8)
    fallen = verts.copy()
    fallen[:, 2] = 0
    fallen[3, 0] = 120
    from builders import build_md2

    data = build_md2(np.stack([fallen, verts]), [[0, 1, 2], [0, 3, 1], [1, 3, 2], [2, 3, 0]], [[0, 0, 0]] * 4, [[0, 0]], names=['death1', 'stand1'])
    default = np.asarray(Image.open(pq.thumbnail(data, tmp_path / 'd.png', size=(64, 64))))
    stand = np.asarray(Image.open(pq.thumbnail(data, tmp_path / 's.png', size=(64, 64), frame=1)))
    death = np.asarray(Image.open(pq.thumbnail(data, tmp_path / 'f.png', size=(64, 64), frame=0)))
    np.testing.assert_array_equal(default, stand)
    assert not np.array_equal(default, death)


def test_frames_all_named_alike_are_no_animation():
    model = pq.load(tetra_md2(names=['FRAME 000......'] * 3))
    assert model.animations == {}
    assert len(model.animation(None).frames) == 3  # the whole file still plays
    assert list(pq.load(tetra_md2(names=['solo', 'solo', 'other'])).animations) == ['solo', 'other']


def cli(*args, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, '-m', 'pyvista_quake', *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=300)


def test_info_and_check_json_are_one_document_for_scripts(game, tmp_path):
    broken = tmp_path / 'broken.md2'
    broken.write_bytes(b'IDP2' + bytes(20))
    info = cli('info', game.parent, broken, '--json')
    assert info.returncode == 1  # the broken file
    records = json.loads(info.stdout)
    assert len(records) == 5 and sum('error' in r for r in records) == 1
    torch = next(r for r in records if r['model'].endswith('pak0.pak:progs/torch.mdl'))
    assert torch['format'] == 'mdl' and torch['frames'] == 2 and torch['header']['flags'] == 0
    check = json.loads(cli('check', game.parent, '--json').stdout)
    assert {r['format'] for r in check} == {'md2', 'mdl'}
    for record in check:
        for finding in record['findings']:
            assert set(finding) >= {'engine', 'rule', 'field', 'value', 'effect'}


def test_plain_output_ends_with_a_summary_and_never_wraps_a_name(game):
    info = cli('info', game.parent, '--verbose')
    lines = info.stdout.strip().splitlines()
    assert lines[-1].startswith('4 models read, 0 failed, ') and 'with a skin missing' in lines[-1]
    assert f'{game}/pak0.pak:models/a/tris.md2' in info.stdout  # whole, on one line, though stdout is a pipe
    check = cli('check', game.parent)
    assert check.stdout.strip().splitlines()[-1].startswith('4 models read, 0 failed; refused by quake 0')


def test_search_path_and_palette_flags(tmp_path):
    from builders import build_mdl

    skins = tmp_path / 'skins'
    skins.mkdir()
    (skins / 'body.png').write_bytes(skin_png((10, 20, 30)))
    model = tmp_path / 'away' / 'body.md2'
    model.parent.mkdir()
    model.write_bytes(tetra_md2(skins=['.body']))
    plain = json.loads(cli('info', model, '--json').stdout)[0]
    assert plain['skins'][0]['location'] is None
    found = json.loads(cli('info', model, '--json', '--search-path', tmp_path / 'nothing', '--search-path', skins).stdout)[0]
    assert found['skins'][0]['location'].endswith('body.png')
    palette = tmp_path / 'palette.lmp'
    palette.write_bytes(bytes(np.tile(np.array([0, 255, 0], np.uint8), 256)))
    mdl = tmp_path / 'x.mdl'
    mdl.write_bytes(torch_mdl())
    out = tmp_path / 'x.png'
    assert cli('thumbnail', mdl, '-o', tmp_path / 'thumbs', '--palette', palette, '--size', '48').returncode == 0
    image = np.asarray(Image.open(tmp_path / 'thumbs' / 'x.png').convert('RGB')).reshape(-1, 3)
    drawn = image[(image != 255).any(axis=1)]
    assert len(drawn) and (drawn[:, 1] >= drawn[:, 0]).all()  # green palette: no red or blue texel
    del out, build_mdl


def test_thumbnail_flags_choose_the_pose(tmp_path):
    model = tmp_path / 'm.md2'
    verts = np.array([[0, 0, 0, 5], [100, 0, 0, 5], [0, 100, 0, 5], [0, 0, 100, 5]], np.uint8)
    flat = verts.copy()
    flat[:, 2] = 0
    flat[3, 0] = 120
    from builders import build_md2

    model.write_bytes(
        build_md2(np.stack([flat, verts]), [[0, 1, 2], [0, 3, 1], [1, 3, 2], [2, 3, 0]], [[0, 0, 0]] * 4, [[0, 0]], names=['death1', 'stand1'])
    )
    pictures = {}
    for name, extra in (('rest', ()), ('zero', ('--frame', '0')), ('death', ('--animation', 'death'))):
        assert cli('thumbnail', model, '-o', tmp_path / name, '--size', '48', *extra).returncode == 0
        pictures[name] = np.asarray(Image.open(tmp_path / name / 'm.png'))
    np.testing.assert_array_equal(pictures['zero'], pictures['death'])
    assert not np.array_equal(pictures['rest'], pictures['zero'])


def test_a_dask_cluster_renders_a_whole_pk3(game, tmp_path):
    """client.map(render_thumbnail, ...) takes archive members as well as paths: a cluster renders a PK3."""
    distributed = pytest.importorskip('distributed', reason='dask.distributed does not install here')
    found = find_models([game / 'pak0.pak', game / 'extra.pk3'])
    targets = targets_for(found, tmp_path / 'thumbs')
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            results = client.gather(client.map(pq.render_thumbnail, [str(p) for p, _ in found], targets, size=(48, 48)))
    assert [r.error for r in results] == [None, None, None]
    assert sorted(str(Path(r.target).relative_to(tmp_path / 'thumbs')) for r in results) == [
        'models/a/tris.png',
        'models/b/tris.png',
        'progs/torch.png',
    ]
    assert all(drawn.size for drawn in (np.asarray(Image.open(r.target)) for r in results))


def test_a_script_without_the_main_guard_gets_one_line_not_the_bootstrapping_error(game, tmp_path):
    """After the process rendered, workers would be spawned and re-run the script: it renders on one process and says why."""
    script = tmp_path / 'batch.py'
    script.write_text(
        'import pyvista_quake as pq\n'
        f'pq.thumbnail({str(game / "loose.mdl")!r}, {str(tmp_path / "first.png")!r}, size=(32, 32))\n'
        f'pq.thumbnails([{str(game / "loose.mdl")!r}], {str(tmp_path / "one")!r}, size=(32, 32))\n'  # keeps its plotter
        f'report = pq.thumbnails([{str(game)!r}], {str(tmp_path / "out")!r}, jobs=2, size=(32, 32))\n'
        'print(len(report.written), len(report.failed))\n'
    )
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ['4', '0']
    assert 'bootstrapping' not in result.stderr and "if __name__ == '__main__':" in result.stderr
    assert result.stderr.count('QuakeWarning') == 1


def test_a_guarded_script_batches_on_workers_from_the_fork_server_after_rendering(game, tmp_path):
    script = tmp_path / 'guarded.py'
    script.write_text(
        'import multiprocessing.forkserver, os\n'
        'import pyvista_quake as pq\n'
        'from pyvista_quake.render import batch\n'
        "if __name__ == '__main__':\n"
        f'    pq.thumbnails([{str(game / "loose.mdl")!r}], {str(tmp_path / "one")!r}, size=(32, 32))  # renders here\n'
        '    assert batch._context().get_start_method() == "forkserver"\n'
        f'    report = pq.thumbnails([{str(game)!r}], {str(tmp_path / "out")!r}, jobs=2, size=(32, 32))\n'
        '    pids = {os.getpid()}\n'
        '    print(len(report.written), len(report.failed), multiprocessing.forkserver._forkserver._forkserver_pid is not None)\n'
    )
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ['4', '0', 'True'] and 'Warning' not in result.stderr
    assert len(list((tmp_path / 'out').rglob('*.png'))) == 4


def test_the_main_guard_is_recognised():
    from pyvista_quake.render.batch import _MAIN_GUARD

    assert _MAIN_GUARD.search("x = 1\nif __name__ == '__main__':\n    main()\n")
    assert _MAIN_GUARD.search('if "__main__" == __name__:\n    main()\n')
    assert not _MAIN_GUARD.search("print('__main__')\nname = __name__\n")


def test_a_player_folder_in_a_batch_is_one_posed_player(tmp_path):
    from game_folders import write_player

    folder = write_player(tmp_path / 'src' / 'models' / 'players' / 'test', rise=0)
    (folder / 'lower_1.md3').write_bytes((folder / 'lower.md3').read_bytes())  # a level of detail: part of the player too
    game = tmp_path / 'game'
    game.mkdir()
    write_pk3(game / 'pak0.pk3', {f'models/players/test/{p.name}': p.read_bytes() for p in folder.iterdir()})
    (game / 'loose.mdl').write_bytes(torch_mdl())
    for sources in ([tmp_path / 'src'], [game]):
        report = pq.thumbnails(sources, tmp_path / 'out', size=(48, 48))
        assert report.ok, report.failed
        names = sorted(Path(r.target).relative_to(tmp_path / 'out').as_posix() for r in report.written)
        assert 'models/players/test.png' in names and not any('lower' in n or 'upper' in n for n in names)
    cli = subprocess.run([sys.executable, '-m', 'pyvista_quake', 'info', str(game)], capture_output=True, text=True, timeout=300)
    assert cli.returncode == 0 and 'models/players/test/upper.md3' in cli.stdout  # info lists the parts themselves


def test_a_part_named_with_no_folder_is_drawn_alone(tmp_path, monkeypatch):
    """``lower.md3`` by itself (in the player's folder, or at the top of an archive) is that part, not the player."""
    from game_folders import write_player

    from pyvista_quake.render.batch import as_players

    folder = write_player(tmp_path / 'models' / 'players' / 'test', rise=0)
    pk3 = write_pk3(tmp_path / 'top.pk3', {p.name: p.read_bytes() for p in folder.iterdir()})
    monkeypatch.chdir(folder)
    alone = [(Place(Path('lower.md3')), Path()), (Place(pk3, 'lower.md3'), pk3)]
    assert as_players(alone) == alone
    player = Place(pk3.parent / 'p.pk3', 'models/players/test')
    write_pk3(player.path, {f'models/players/test/{p.name}': p.read_bytes() for p in folder.iterdir()})
    parts = [(Place(player.path, f'models/players/test/{n}.md3'), player.path) for n in ('head', 'lower', 'upper')]
    assert as_players(parts + [(Place(folder / 'upper.md3'), tmp_path)]) == [(player, player.path), (Place(folder), tmp_path)]
    assert pq.load_player(player).place == player and pq.load_player(player).source == str(player)
