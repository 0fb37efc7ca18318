"""The game's files: a game folder's PK3s merged file by file, as the game merges them (the last loaded wins)."""

from __future__ import annotations

import io
from pathlib import Path
import zipfile

import numpy as np
from PIL import Image
import pytest

import pyvista_quake as pq
from pyvista_quake.examples import synthetic_player
from pyvista_quake.game.archives import open_archive
from pyvista_quake.game.filesystem import archive_stack
from pyvista_quake.game.filesystem import read_member
from pyvista_quake.model.players import is_player_folder
from pyvista_quake.render.batch import as_players
from pyvista_quake.render.batch import find_models

PLAYER = 'models/players/liz'


def png(colour) -> bytes:
    out = io.BytesIO()
    Image.fromarray(np.full((4, 4, 3), colour, np.uint8)).save(out, format='PNG')
    return out.getvalue()


def pk3(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, 'w') as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


@pytest.fixture
def game(tmp_path) -> Path:
    """pak2-players.pk3 holds a whole player and its skins; pak6-patch.pk3 overrides its legs and
    animation.cfg, and holds a new head whose .skin stays in pak2 (OpenArena's liz and gargoyle)."""
    source = synthetic_player(tmp_path / 'src')
    parts = {name: (source / name).read_bytes() for name in ('lower.md3', 'upper.md3', 'head.md3', 'animation.cfg')}
    root = tmp_path / 'baseoa'
    root.mkdir()
    old = {f'{PLAYER}/{name}': data for name, data in parts.items()}
    old[f'{PLAYER}/head_default.skin'] = f'h_head,{PLAYER}/face.png\n'.encode()
    old[f'{PLAYER}/face.png'] = png((10, 200, 10))
    pk3(root / 'pak2-players.pk3', old)
    legs = pq.load(source / 'lower.md3')
    legs.remove_frames([0])  # the patch's legs: one frame fewer
    patched_legs = tmp_path / 'lower.md3'
    legs.save(patched_legs)
    cfg = parts['animation.cfg'].decode().replace('sex m', 'sex f').encode()
    pk3(
        root / 'pak6-patch.pk3',
        {f'{PLAYER}/lower.md3': patched_legs.read_bytes(), f'{PLAYER}/animation.cfg': cfg, f'{PLAYER}/head.md3': parts['head.md3']},
    )
    return root


def test_archives_stack_the_last_loaded_first(game):
    stack = archive_stack(open_archive(game / 'pak2-players.pk3'))
    assert [a.path.name for a in stack] == ['pak6-patch.pk3', 'pak2-players.pk3']
    location, data = read_member(stack, f'{PLAYER}/animation.cfg')
    assert location.startswith(str(game / 'pak6-patch.pk3')) and b'sex f' in data
    assert read_member(stack, f'{PLAYER}/head_default.skin')[0].startswith(str(game / 'pak2-players.pk3'))
    assert read_member(stack, f'{PLAYER}/nothing.skin') is None


def test_a_model_in_a_later_archive_finds_its_skin_file_in_an_earlier_one(game):
    head = pq.load(game / 'pak6-patch.pk3', member=f'{PLAYER}/head.md3')
    assert head.skin_definition.startswith(str(game / 'pak2-players.pk3'))
    assert tuple(head.surfaces[0].image()[0, 0, :3]) == (10, 200, 10)


def test_a_player_takes_each_part_from_the_archive_the_game_reads_it_from(game):
    for archive in ('pak2-players.pk3', 'pak6-patch.pk3'):
        assert is_player_folder(f'{game / archive}:{PLAYER}')
        player = pq.load_player(f'{game / archive}:{PLAYER}')
        assert len(player.parts['lower']) == 13  # the patch's legs, not pak2's 14 frames
        assert player.parts['lower'].source.startswith(str(game / 'pak6-patch.pk3'))
        assert player.parts['upper'].source.startswith(str(game / 'pak2-players.pk3'))
        assert player.config.sex == 'f'


def test_a_player_s_folder_is_looked_up_through_the_game_s_files(game, tmp_path):
    from pyvista_quake.game.filesystem import GameFiles
    from pyvista_quake.game.sources import Place

    files = GameFiles.of_folder(Place(game / 'pak2-players.pk3', f'{PLAYER}/'), 'animation.cfg')
    assert files.member == f'{PLAYER}/animation.cfg' and files.model_file_name() == 'animation.cfg'
    assert files.place_beside('lower.md3') == Place(game / 'pak6-patch.pk3', f'{PLAYER}/lower.md3')  # the later archive's
    assert files.place_beside('upper.md3') == Place(game / 'pak2-players.pk3', f'{PLAYER}/upper.md3')
    assert files.place_beside('nothing.md3') is None
    names = files.names_beside()
    assert sorted(names) == sorted({'lower.md3', 'upper.md3', 'head.md3', 'animation.cfg', 'head_default.skin', 'face.png'})
    on_disk = synthetic_player(tmp_path / 'disk')
    (on_disk / 'sub').mkdir()
    here = GameFiles.of_folder(Place(on_disk), 'animation.cfg')
    assert here.place_beside('head.md3') == Place(on_disk / 'head.md3') and here.place_beside('sub') is None
    assert 'head.md3' in here.names_beside() and 'sub' not in here.names_beside()
    assert GameFiles.of_folder(Place(tmp_path / 'none'), 'animation.cfg').names_beside() == []
    assert GameFiles().place_beside('head.md3') is None and GameFiles().names_beside() == []
    # A member named with no archive (a model of bytes named after one) is looked up on disk, beside model_path.
    named = GameFiles(model_path=on_disk / 'animation.cfg', member='models/players/x/animation.cfg')
    assert named.place_beside('head.md3') == Place(on_disk / 'head.md3') and 'head.md3' in named.names_beside()
    # An archive with no member names nothing in it to be beside.
    whole = GameFiles(model_path=on_disk / 'animation.cfg', archive=open_archive(game / 'pak2-players.pk3'))
    assert whole.place_beside('head.md3') == Place(on_disk / 'head.md3') and 'head.md3' in whole.names_beside()


def test_a_player_folder_without_its_animation_cfg_is_named(tmp_path):
    folder = synthetic_player(tmp_path / 'p')
    (folder / 'animation.cfg').unlink()
    assert not is_player_folder(folder) and not is_player_folder(tmp_path / 'missing')
    with pytest.raises(FileNotFoundError, match='animation.cfg'):
        pq.load_player(folder)


def test_a_batch_of_the_game_renders_the_player_once_and_no_stray_part(game, tmp_path):
    found = as_players(find_models([game]))
    assert len(found) == 1 and str(found[0][0]).endswith(PLAYER)
    report = pq.thumbnails([game], tmp_path / 'thumbs')
    assert len(report.written) == 1 and not report.failed
    assert [p.name for p in (tmp_path / 'thumbs').rglob('*.png')] == ['liz.png']


@pytest.mark.parametrize(
    ('member', 'path', 'file_name', 'stem'),
    [
        ('models/a/tris.md2', None, 'tris.md2', 'tris'),
        ('models\\a\\b.x.md3', None, 'b.x.md3', 'b.x'),
        (None, Path('/q/progs/player.mdl'), 'player.mdl', 'player'),
        (None, Path('/q/.hidden'), '.hidden', '.hidden'),
        (None, Path('/q/noext'), 'noext', 'noext'),
        (None, None, None, ''),
    ],
)
def test_a_location_names_its_file_once_parsed(member, path, file_name, stem):
    from pyvista_quake.game.sources import Location

    where = Location('shown', path, None, member)
    assert where.file_name == file_name and where.stem == stem and str(where) == 'shown'


def test_a_model_in_an_archive_is_named_after_its_member(tmp_path):
    from builders import tetra_md2

    with zipfile.ZipFile(tmp_path / 'pak0.pk3', 'w') as pk3:
        pk3.writestr('models/tank/tris.md2', tetra_md2())
    model = pq.load(f'{tmp_path / "pak0.pk3"}:models/tank/tris.md2', skin=None)
    assert model.surface_names == ['tris'] and model.source.endswith('pak0.pk3:models/tank/tris.md2')
    assert pq.load(tetra_md2(), skin=None).surface_names == ['model']


def test_real_path_is_realpath_through_cached_folders(tmp_path, monkeypatch):
    import os

    from pyvista_quake.game.filesystem import real_path

    (tmp_path / 'game' / 'models').mkdir(parents=True)
    (tmp_path / 'game' / 'models' / 'a.iqm').write_bytes(b'x')
    (tmp_path / 'link').symlink_to(tmp_path / 'game')  # a linked folder
    (tmp_path / 'game' / 'b.iqm').symlink_to(tmp_path / 'game' / 'models' / 'a.iqm')  # a linked file
    monkeypatch.chdir(tmp_path)
    for path in ('link/models/a.iqm', tmp_path / 'game' / 'b.iqm', 'link/models/missing.iqm', 'link/models', 'link/', tmp_path / 'link'):
        assert real_path(path) == os.path.realpath(path), path


def test_a_location_of_bytes_or_a_file_object_names_it(tmp_path):
    from builders import tetra_md2

    from pyvista_quake.game.sources import Location
    from pyvista_quake.game.sources import read_source

    assert read_source(tetra_md2())[1] == Location('<bytes>')
    (tmp_path / 'x.md2').write_bytes(tetra_md2())
    with open(tmp_path / 'x.md2', 'rb') as handle:
        _, where = read_source(handle)
    assert where.name == str(tmp_path / 'x.md2') and where.stem == 'x'
    assert Location('n', None, None, 'models/a/x.md2').stem == 'x'


def test_a_player_s_broken_animation_cfg_is_named_by_its_archive_and_member(tmp_path):
    source = synthetic_player(tmp_path / 'src')
    members = {f'{PLAYER}/{p.name}': p.read_bytes() for p in source.iterdir()}
    members[f'{PLAYER}/animation.cfg'] = b'sex m\n0 x 0 20 // BOTH_DEATH1\n'
    archive = pk3(tmp_path / 'pak0.pk3', members)
    with pytest.raises(pq.QuakeFormatError) as caught:
        pq.load_player(f'{archive}:{PLAYER}')
    assert str(caught.value).startswith(f'{archive}:{PLAYER}/animation.cfg')
