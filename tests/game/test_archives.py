"""Archives read safely from several processes, and a corrupt member is a QuakeFormatError."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
import io
import multiprocessing
import os
from pathlib import Path
import warnings
import zipfile

from builders import tetra_md2
import numpy as np
from PIL import Image
import pytest

import pyvista_quake as pq
from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake.game.archives import open_archive

needs_fork = pytest.mark.skipif('fork' not in multiprocessing.get_all_start_methods(), reason='needs the fork start method')


def many_members(path: Path, count: int = 40) -> dict[str, bytes]:
    rng = np.random.default_rng(7)
    members = {f'models/m{i}/tris.md2': rng.integers(0, 4, 20_000 + 97 * i, dtype=np.uint8).tobytes() for i in range(count)}
    with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return members


def _read_one(args: tuple[str, str]) -> bytes:
    return open_archive(args[0]).read(args[1])


@needs_fork
def test_a_forked_worker_does_not_move_the_parents_file_position(tmp_path):
    path = tmp_path / 'pak0.pk3'
    members = many_members(path, 3)
    archive = open_archive(path)
    assert archive.read('models/m0/tris.md2') == members['models/m0/tris.md2']
    handle = archive._zipfile().fp
    before = os.lseek(handle.fileno(), 0, os.SEEK_CUR)
    context = multiprocessing.get_context('fork')
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        assert pool.submit(_read_one, (str(path), 'models/m2/tris.md2')).result() == members['models/m2/tris.md2']
    assert os.lseek(handle.fileno(), 0, os.SEEK_CUR) == before


@needs_fork
def test_forked_workers_read_every_member_as_one_process_does(tmp_path):
    path = tmp_path / 'pak0.pk3'
    members = many_members(path)
    open_archive(path).read('models/m0/tris.md2')  # opened in the parent before the workers fork
    context = multiprocessing.get_context('fork')
    tasks = [(str(path), name) for name in members] * 4
    with ProcessPoolExecutor(2, mp_context=context) as pool:
        results = list(pool.map(_read_one, tasks, chunksize=1))
    assert results == [members[name] for _, name in tasks]


def test_a_corrupt_deflate_stream_names_the_archive_and_member(tmp_path):
    path = tmp_path / 'bad.pk3'
    many_members(path, 1)
    data = bytearray(path.read_bytes())
    info = zipfile.ZipFile(path).infolist()[0]
    start = info.header_offset + 30 + len(info.filename) + len(info.extra)
    data[start + 10 : start + 400] = bytes(390)  # zeros inside the deflate stream
    path.write_bytes(bytes(data))
    with pytest.raises(QuakeFormatError) as caught:
        open_archive(path).read('models/m0/tris.md2')
    assert 'bad.pk3' in str(caught.value) and 'models/m0/tris.md2' in str(caught.value)


def test_a_file_that_is_no_zip_is_a_format_error(tmp_path):
    path = tmp_path / 'x.pk3'
    path.write_bytes(b'PK\x03\x04 not really')
    with pytest.raises(QuakeFormatError, match='x.pk3'):
        open_archive(path)


def test_an_archive_asked_for_again_is_the_open_one_until_its_file_or_the_cache_changes(tmp_path, monkeypatch):
    from pyvista_quake.game import archives

    path = tmp_path / 'pak0.pk3'
    many_members(path, 2)
    first = open_archive(path)
    assert open_archive(str(path)) is first and open_archive(tmp_path / '.' / 'pak0.pk3') is first  # by any spelling of its name
    link = tmp_path / 'link.pk3'
    link.symlink_to(path)
    assert open_archive(link) is first  # a link to it: the same archive, remembered under the link's name too
    assert open_archive(link) is first
    with zipfile.ZipFile(path, 'w') as rewritten:  # another file under the same name
        rewritten.writestr('models/new.md2', b'x' * 5)
    again = open_archive(path)
    assert again is not first and again.names() == ['models/new.md2']
    assert open_archive(link) is again  # the link's name sees the new file as well
    monkeypatch.setattr(archives, 'MAX_OPEN', 1)
    other = tmp_path / 'pak1.pk3'
    many_members(other, 1)
    open_archive(other)  # pak0 is no longer kept open
    reopened = open_archive(path)
    assert reopened is not again and reopened.names() == ['models/new.md2']
    monkeypatch.setattr(archives, '_BY_NAME', {})
    for k in range(4 * archives.MAX_OPEN):  # up to the limit, every name is kept
        archives._remember(f'/nowhere/{k}.pk3', reopened)
    assert len(archives._BY_NAME) == 4 * archives.MAX_OPEN
    archives._remember('/nowhere/last.pk3', reopened)  # one more: the old names go, so names remembered stay few
    assert list(archives._BY_NAME) == ['/nowhere/last.pk3']


@pytest.mark.parametrize('linked', [False, True])
def test_a_game_folder_of_linked_pk3s_finds_a_maps_textures_beside_it(tmp_path, linked):

    from level_builders import q3_level

    import pyvista_quake

    store = tmp_path / 'store'  # each PK3 in a folder of its own, as a package manager keeps them
    game = tmp_path / 'baseoa'
    game.mkdir()
    picture = io.BytesIO()
    Image.fromarray(np.full((4, 4, 3), 90, np.uint8)).save(picture, format='PNG')
    for name, member, data in (('pak0-textures.pk3', 'textures/base/floor.png', picture.getvalue()), ('pak1-maps.pk3', 'maps/x.bsp', q3_level())):
        (store / name).mkdir(parents=True)
        with zipfile.ZipFile(store / name / name, 'w') as pk3:
            pk3.writestr(member, data)
        if linked:
            (game / name).symlink_to(store / name / name)
        else:
            (game / name).write_bytes((store / name / name).read_bytes())
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # the other shaders' images are missing
        level = pyvista_quake.load(f'{game / "pak1-maps.pk3"}:maps/x.bsp')
        floor = next(s for s in level.surfaces if s.image_name == 'textures/base/floor')
        assert floor.image() is not None
    assert 'pak0-textures.pk3:textures/base/floor.png' in str(floor.image_file().location)


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
