"""Whole games in batches: the models found in folders, archives and configs, and their pictures."""

from __future__ import annotations

from pathlib import Path
import subprocess
import sys
import zipfile

from builders import tetra_md2
from builders import two_joint_iqm
from game_folders import red_eclipse_players
from game_folders import red_eclipse_weapon
from PIL import Image

from pyvista_quake.cli.main import main
from pyvista_quake.examples import synthetic_player
from pyvista_quake.game.sources import Place
from pyvista_quake.render.batch import find_models


def _found(sources, root: Path) -> list[str]:
    from pyvista_quake.render.batch import find_models

    return [p.path.resolve().relative_to(root.resolve()).as_posix() for p, _ in find_models(sources)]


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


def test_a_script_piped_to_python_batches_on_workers_after_rendering(tmp_path):
    for k in range(4):
        (tmp_path / f'm{k}.md2').write_bytes(tetra_md2())
    script = (
        'import pyvista_quake as pq\n'
        "one = pq.thumbnails(['.'], 'out1', jobs=1)\n"
        "two = pq.thumbnails(['.'], 'out2', jobs=2)\n"
        'print(len(one.written), len(two.written), len(two.failed))\n'
    )
    result = subprocess.run([sys.executable, '-'], input=script, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ['4', '4', '0']


def test_patterns_and_archive_folders_find_the_models_below(tmp_path):
    synthetic_player(tmp_path / 'models' / 'players' / 'liz')
    (tmp_path / 'models' / 'other.md2').write_bytes(tetra_md2())
    pk3 = tmp_path / 'pak0.pk3'
    with zipfile.ZipFile(pk3, 'w') as archive:
        for path in (tmp_path / 'models').rglob('*'):
            if path.is_file():
                archive.write(path, str(path.relative_to(tmp_path)))
    assert len(find_models([str(tmp_path / 'models' / 'players' / 'l*')])) == 3  # a folder the pattern names
    inside = [str(p).split(':')[-1] for p, _ in find_models([f'{pk3}:models/players/liz'])]
    assert inside == [f'models/players/liz/{n}.md3' for n in ('head', 'lower', 'upper')]
    assert len(find_models([f'{pk3}:models/*'])) == 4 and len(find_models([f'{pk3}:models/players/liz/'])) == 3
    assert find_models([f'{pk3}:models/other.md2'])[0][0] == Place(pk3, 'models/other.md2')  # split once, carried on
    assert find_models([f'{pk3}:models/none'])[0][0] == Place(pk3, 'models/none')  # load() names what is missing
    assert main(['info', f'{pk3}:models/players/liz']) == 0
    assert main(['info', f'{pk3}:models/none']) == 1
