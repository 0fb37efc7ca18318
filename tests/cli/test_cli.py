"""The command line: every command exits 0 on success, 1 on a failure, 2 on a bad flag; what info prints."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from builders import build_md3
from builders import tetra_md2
from builders import tetra_md3
from builders import torch_mdl
from builders import two_joint_iqm
from builders import two_joint_md5
from game_folders import md5_pair
import numpy as np
from PIL import Image
import pytest

import pyvista_quake as pq
from pyvista_quake.cli import _app
from pyvista_quake.cli.main import main
from pyvista_quake.game.filesystem import SHOWN_PLACES
from pyvista_quake.game.filesystem import warn_missing


@pytest.fixture
def models(tmp_path):
    folder = tmp_path / 'models' / 'test'
    folder.mkdir(parents=True)
    (folder / 'tris.md2').write_bytes(tetra_md2(skins=['models/test/skin.png']))
    Image.fromarray(np.full((8, 8, 3), 90, np.uint8)).save(folder / 'skin.png')
    (folder / 'model.md3').write_bytes(tetra_md3())
    Image.fromarray(np.full((4, 4, 3), 150, np.uint8)).save(folder / 'body.png')
    return folder


def test_every_command_exits_0_on_success(models, tmp_path, monkeypatch):
    md2 = str(models / 'tris.md2')
    monkeypatch.setattr(_app, 'CONSOLE', _app.Console(width=200))
    assert main(['info', md2]) == 0
    assert main(['check', md2]) == 0
    assert main(['thumbnail', md2, '-o', str(tmp_path / 'thumbs'), '--size', '32']) == 0
    assert main(['sheet', md2, str(tmp_path / 'sheet.png'), '--size', '32']) == 0
    assert main(['animate', md2, str(tmp_path / 'run.gif'), '--size', '32']) == 0
    assert main(['convert', md2, str(tmp_path / 'out.obj')]) == 0
    assert main(['view', md2, '--screenshot', str(tmp_path / 'view.png')]) == 0  # no display: the screenshot is offscreen
    assert (tmp_path / 'view.png').is_file() and (tmp_path / 'run.gif').is_file() and (tmp_path / 'sheet.png').is_file()
    assert main(['--version']) == 0 and main(['--help']) == 0


def test_failures_exit_1_and_bad_flags_2(tmp_path, capsys):
    assert main(['info', str(tmp_path / 'missing.md2')]) == 1
    assert main(['info', '--no-such-flag', 'x']) == 2
    assert capsys.readouterr().err.count('error:') == 2


def test_view_with_no_display_and_no_screenshot_says_so(models, monkeypatch, capsys):
    monkeypatch.setattr('pyvista_quake.cli.view.has_display', lambda: False)
    assert main(['view', str(models / 'tris.md2')]) == 1
    assert 'no display' in capsys.readouterr().err


def test_info_names_each_skin_where_found_and_missing(models, capsys, monkeypatch):
    monkeypatch.setenv('COLUMNS', '1000')  # a table wide enough for whole paths
    (models / 'lost.md2').write_bytes(tetra_md2(skins=['models/test/nowhere.png']))
    assert main(['info', str(models / 'tris.md2'), str(models / 'lost.md2'), str(models / 'model.md3')]) == 0
    out = capsys.readouterr().out
    assert f'models/test/skin.png: {models / "skin.png"}' in out.replace('\n', '')
    assert 'models/test/nowhere.png: MISSING' in out
    assert 'body: models/test/body.tga' in out and 'flag: models/test/flag' in out  # an MD3's images, a surface each


def test_a_missing_image_names_every_place_up_to_the_limit(recwarn):
    warn_missing('m.md2', 'skin 0', [(f'p{k}', '.') for k in range(SHOWN_PLACES)])
    warn_missing('m.md2', 'skin 0', [(f'p{k}', '.') for k in range(SHOWN_PLACES + 3)] + [('p0', '.')])
    folders = [(f'd{k}/x.png', f'd{k}') for k in range(SHOWN_PLACES * 3)]
    warn_missing('m.md2', 'skin 0', folders[:SHOWN_PLACES] + folders[: SHOWN_PLACES * 2 + 1])
    first, second, third = (str(w.message) for w in recwarn)
    assert first.endswith(f'p{SHOWN_PLACES - 1}') and 'more' not in first
    assert second.endswith(f'p{SHOWN_PLACES - 1} and 3 more in .')
    # Past the limit the folders are named up to the limit too, the others counted.
    assert third.endswith('d3/x.png and 5 more in d4, d5, d6, d7 and 1 others')
    assert SHOWN_PLACES == 4
    # Members are counted by their archive, as the lookup recorded it (not split from the name again).
    warn_missing('m.md2', 'skin 0', [(f'a.pk3:t/{k}.tga', 'a.pk3') for k in range(SHOWN_PLACES + 2)])
    assert str(recwarn[-1].message).endswith('t/3.tga and 2 more in a.pk3')
    # A place in the folder or archive of the one before it is named from there; a folder beside the one before by its name.
    warn_missing(
        'm.md2',
        'skin 0',
        [
            ('/g/a.pk3:t/0.tga', '/g/a.pk3'),
            ('/g/a.pk3:t/1.tga', '/g/a.pk3'),
            ('/h/t/2.tga', '/h'),
            ('/h/t/3.tga', '/h'),
            ('/g/b.pk3:t/4.tga', '/g/b.pk3'),
            ('/g/c.pk3:t/5.tga', '/g/c.pk3'),
            ('/k/c.pk3:t/6.tga', '/k/c.pk3'),
            ('/h2:x', '/h2'),
        ],
    )
    assert str(recwarn[-1].message).endswith('tried /g/a.pk3:t/0.tga, t/1.tga, /h/t/2.tga, t/3.tga and 4 more in /g/b.pk3, c.pk3, /k/c.pk3, /h2')


def test_a_lookup_records_the_archive_or_folder_of_each_place_it_tried(tmp_path):
    from game_folders import write_pk3

    from pyvista_quake.game.archives import open_archive
    from pyvista_quake.game.filesystem import _read_place

    archive = open_archive(write_pk3(tmp_path / 'x.pk3', {'t/a.tga': b'a'}))
    assert _read_place(archive, 't/a.tga') == ((f'{archive.path}:t/a.tga', str(archive.path)), b'a')
    assert _read_place(archive, 't/b.tga') == ((f'{archive.path}:t/b.tga', str(archive.path)), None)
    (tmp_path / 'skins').mkdir()
    (tmp_path / 'skins' / 'A.tga').write_bytes(b'b')
    found = str(tmp_path / 'skins' / 'A.tga')
    assert _read_place(tmp_path, 'skins/a.tga') == ((found, str(tmp_path / 'skins')), b'b')  # its own letter case
    assert _read_place(tmp_path, 'skins/c.tga') == ((str(tmp_path / 'skins' / 'c.tga'), str(tmp_path / 'skins')), None)


def test_an_md3_surface_whose_image_is_missing_draws_opaque(tmp_path):
    model = pq.load(tetra_md3())  # its images are nowhere
    assert model.surfaces[0].alpha == 'opaque' and model.surfaces[1].alpha == 'opaque'
    model.skin = None
    assert model.surfaces[0].alpha == 'opaque'


def test_thumbnail_names_the_models_whose_skin_is_missing_only_when_verbose(tmp_path, capsys):
    (tmp_path / 'lost.md2').write_bytes(tetra_md2(skins=['models/test/nowhere.png']))
    assert main(['thumbnail', str(tmp_path / 'lost.md2'), '-o', str(tmp_path / 'a'), '--size', '32']) == 0
    assert capsys.readouterr().out.strip().endswith('1 with a skin missing')
    assert main(['thumbnail', str(tmp_path / 'lost.md2'), '-o', str(tmp_path / 'b'), '--size', '32', '--verbose']) == 0
    assert capsys.readouterr().out.strip().endswith(f'1 with a skin missing: {tmp_path / "lost.md2"}')


def test_help_into_a_pipe_wraps_at_the_columns_it_is_given():
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, '-m', 'pyvista_quake', '--help'], capture_output=True, text=True, timeout=120, env={**os.environ, 'COLUMNS': '120'}
    )
    assert result.returncode == 0 and 'catalogue' in result.stdout and 'Quake III (.md3)' in result.stdout
    assert 'Inter-Quake (.iqm)' in result.stdout and 'Doom 3 (.md5mesh)' in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) <= 120


def test_convert_quantize_writes_khr_mesh_quantization(tmp_path):
    import pygltflib  # noqa: PLC0415

    from pyvista_quake import examples  # noqa: PLC0415

    source = str(examples.sample_model('md2'))
    assert main(['convert', source, str(tmp_path / 'small.glb'), '--quantize']) == 0
    assert main(['convert', source, str(tmp_path / 'floats.glb')]) == 0
    small, floats = (pygltflib.GLTF2().load(str(tmp_path / name)) for name in ('small.glb', 'floats.glb'))
    assert small.extensionsRequired == ['KHR_mesh_quantization'] and not floats.extensionsRequired
    assert (tmp_path / 'small.glb').stat().st_size < (tmp_path / 'floats.glb').stat().st_size


def test_the_commands_share_their_flags_help_and_the_api_s_picture_sizes(capsys):
    import inspect

    from pyvista_quake.cli.animate import animate
    from pyvista_quake.cli.catalogue import catalogue
    from pyvista_quake.cli.sheet import sheet
    from pyvista_quake.cli.thumbnail import thumbnail

    def default(command, name):
        return inspect.signature(command).parameters[name].default

    def api(function, name):
        return inspect.signature(function).parameters[name].default[0]

    assert default(thumbnail, 'size') == api(pq.thumbnails, 'size') and default(animate, 'size') == api(pq.animate, 'size')
    assert default(catalogue, 'size') == api(pq.catalogue, 'size') and default(sheet, 'size') == api(pq.contact_sheet, 'cell_size')
    assert default(thumbnail, 'jobs') == default(catalogue, 'jobs') == 1  # one worker unless asked
    for command in ('thumbnail', 'animate', 'catalogue'):
        main([command, '--help'])
        shown = ' '.join(capsys.readouterr().out.split())
        if command != 'catalogue':
            assert 'Width and height in pixels.' in shown, command
        if command != 'animate':
            assert 'Worker processes for the pictures.' in shown and '--output -o' in shown, command
        else:
            assert 'The model file.' in shown


def test_check_reads_the_mesh_a_folders_config_loads(tmp_path, capsys):
    """Red Eclipse keeps a weapon's mesh in its folder and the configs that load it in ``hwep/`` and ``vwep/``:
    ``check`` (and ``pq.check``) of those folders checks that mesh, where it failed with ``IsADirectoryError``."""
    weapon = tmp_path / 'weapons' / 'claw'
    for folder in ('hwep', 'vwep'):
        (weapon / folder).mkdir(parents=True)
        (weapon / folder / 'iqm.cfg').write_text('iqmload ../claw.iqm\n')
    (weapon / 'claw.iqm').write_bytes(two_joint_iqm())
    assert main(['check', str(weapon), '--json']) == 0
    records = json.loads(capsys.readouterr().out)
    assert sorted(r['model'] for r in records) == [str(weapon / 'hwep'), str(weapon / 'vwep')]
    assert {r['format'] for r in records} == {'iqm'} and all(r['ok'] for r in records)
    assert pq.check(weapon / 'hwep') == pq.check(weapon / 'vwep' / 'iqm.cfg') == pq.check(weapon / 'claw.iqm')
    (weapon / 'vwep' / 'iqm.cfg').write_text('iqmload ../missing.iqm\n')
    assert main(['check', str(weapon)]) == 1
    assert "No such file or directory: '" + str(weapon / 'vwep' / '..' / 'missing.iqm') in capsys.readouterr().err
    (weapon / 'hwep' / 'iqm.cfg').write_text('mdlscale 2\n')
    with pytest.raises(pq.QuakeFormatError, match=r'hwep/iqm.cfg: iqmload = None: the config loads no mesh \(no iqmload or md5load\)'):
        pq.check(weapon / 'hwep')


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


def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path):
    for k in range(3):
        (tmp_path / f'm{k}.md2').write_bytes(tetra_md2())
    run = subprocess.Popen([sys.executable, '-m', 'pyvista_quake', 'info', str(tmp_path), '--json'], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    run.stdout.close()  # as `| head -c 0` does: nothing reads what it prints
    error = run.stderr.read().decode()
    assert run.wait(timeout=120) == 141
    assert error == ''


def test_info_counts_a_one_frame_models_vertices(tmp_path, capsys):
    (tmp_path / 'one.md3').write_bytes(tetra_md3(frames=1))
    assert main(['info', str(tmp_path / 'one.md3'), '--json']) == 0
    record = json.loads(capsys.readouterr().out)[0]
    assert record['frames'] == 1 and record['vertices'] == 7 and record['triangles'] == 5
    assert record['game'] == 'Quake III' and record['surfaces'] == ['body', 'flag']


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

    path = tmp_path / 'v_hand.md3'
    path.write_bytes(build_md3([], frames=1, tags=[('tag_weapon', np.zeros((1, 3)), np.eye(3)[None])]))
    with pytest.raises(pq.NothingToDrawError, match=r'nothing to draw: tags only \(tag_weapon\)'):
        pq.thumbnail(path, tmp_path / 'x.png')


def test_the_command_line_attaches_animation_files(tmp_path, capsys):
    mesh = md5_pair(tmp_path, 'rifle', anim_name='')
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
    mesh = md5_pair(tmp_path, 'rifle', anim_name='')
    assert main(['animate', str(mesh), str(tmp_path / 'x.gif'), '--size', '48']) == 1
    err = capsys.readouterr().err
    assert 'nothing to animate' in err and '--animations' in err
    assert not (tmp_path / 'x.gif').exists()
    with pytest.raises(ValueError, match='nothing to animate'):
        pq.animate(pq.load(tetra_md2()), tmp_path / 'y.gif', animation='run')  # an animation of one frame


def test_the_thumbnail_summary_prints_paths_as_they_are(tmp_path, capsys):
    (tmp_path / 'm.md2').write_bytes(tetra_md2())
    out = tmp_path / '[bold]thumbs'
    assert main(['thumbnail', str(tmp_path / 'm.md2'), '-o', str(out), '--size', '32']) == 0
    assert f'1 thumbnails in {out}' in capsys.readouterr().out


def _level_with_navigation(tmp_path):
    """A Quake III level and, beside it, a navigation file of two areas (x < 0, x > 0), each walking into the other."""
    from level_builders import build_q3
    from level_builders import build_routing_aas
    from level_builders import collision_args

    maps = tmp_path / 'baseq3' / 'maps'
    maps.mkdir(parents=True)
    (maps / 'walk.bsp').write_bytes(build_q3(**collision_args()))
    areas = [(0, 1, 2, 1, 0), (0, 1, 2, 1, 1)]
    links = [(1, 2, (-10, 0, 0), (10, 0, 0), 2, 40), (2, 1, (10, 0, 0), (-10, 0, 0), 2, 40)]
    (maps / 'walk.aas').write_bytes(build_routing_aas(areas, links, clusters=[(0, 0, 0, 0), (2, 2, 0, 0)], splits=(0,)))
    return maps / 'walk.bsp'


def test_route_says_and_draws_the_way_a_bot_goes(tmp_path, capsys):
    level = _level_with_navigation(tmp_path)
    picture = tmp_path / 'route.png'
    code = main(['route', str(level), '--from', '-30', '0', '8', '--to', '30', '0', '8', '--json', '-o', str(picture), '--size', '96', '96'])
    assert code == 0
    said = capsys.readouterr()
    assert 'made for another map' in said.err  # the file's checksum is not this map's: said, and used
    record = json.loads(said.out)
    assert record['reached'] and record['areas'] == [1, 2] and record['reachabilities'] == [1] and record['travel_types'] == ['walk']
    assert record['time'] == 1 + 40 + 7 and record['picture'] == str(picture)  # 21.5 units to the reachability's start, x 0.33
    image = np.asarray(Image.open(picture))
    assert image.shape[:2] == (96, 96) and ((image[..., 0] > 180) & (image[..., 1] < 80)).any()  # the route drawn
    assert main(['route', str(level), '--from', '-30', '0', '8', '--to', '30', '0', '8']) == 0
    assert 'reached' in capsys.readouterr().out
    (level.parent / 'walk.aas').unlink()
    assert main(['route', str(level), '--from', '0', '0', '0', '--to', '1', '1', '1']) == 1
    assert 'no bot navigation file' in capsys.readouterr().err


def test_info_reports_a_level_s_navigation_by_travel_type(tmp_path, capsys):
    level = _level_with_navigation(tmp_path)
    assert main(['info', str(level), '--json']) == 0
    record = json.loads(capsys.readouterr().out)[0]
    assert record['level']['navigation'] == {'areas': 2, 'reachabilities': 2, 'travel_types': {'walk': 2}}
    assert main(['info', str(level)]) == 0
    assert '2 areas, 2 reachabilities (2 walk)' in ' '.join(capsys.readouterr().out.split())
    (level.parent / 'walk.aas').unlink()
    assert main(['info', str(level), '--json']) == 0
    assert 'navigation' not in json.loads(capsys.readouterr().out)[0]['level']
