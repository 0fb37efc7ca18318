"""What a new user met on whole games (issue 28): each item a test that failed before its fix."""

from __future__ import annotations

import dataclasses
from pathlib import Path
import subprocess
import sys
import zipfile

from builders import build_md3
from builders import tetra_md2
from builders import tetra_md3
import numpy as np
from PIL import Image
import pytest
import pyvista as pv

import pyvista_quake as pq
from pyvista_quake.cli.main import main
from pyvista_quake.examples import synthetic_player
from pyvista_quake.formats import md3
from pyvista_quake.formats.records import SurfaceData
from pyvista_quake.game.sources import Place
from pyvista_quake.render.batch import find_models
from pyvista_quake.render.plotting import sheet_cells


def with_empty_surfaces(folder: Path) -> Path:
    """OpenArena's tony: lower.md3 and upper.md3 each with a surface of no vertices."""
    for part in ('lower', 'upper'):
        data = pq.load(folder / f'{part}.md3').data
        n = data.num_frames
        empty = SurfaceData(
            name=f'{part[0]}_belt',
            shaders=[f'models/players/tony/{part}_belt.tga'],
            triangles=np.zeros((0, 3), np.int32),
            texcoords=np.zeros((0, 2), np.float32),
            positions=np.zeros((n, 0, 3), np.int16),
            normals=np.zeros((n, 0), np.uint16),
        )
        record = md3.encode(dataclasses.replace(data, surfaces=[*data.surfaces, empty], file=None))
        (folder / f'{part}.md3').write_bytes(md3.write(record))
    return folder


@pytest.fixture
def tony(tmp_path) -> Path:
    return with_empty_surfaces(synthetic_player(tmp_path / 'models' / 'players' / 'tony'))


def test_a_surface_with_no_vertices_poses_renders_and_exports(tony, tmp_path):
    assert pq.load(tony / 'lower.md3').surface_names[-1] == 'l_belt'
    player = pq.load_player(tony)
    posed = player.pose('LEGS_RUN', 'TORSO_STAND', time=0.1)
    assert posed['lower']['l_belt'].n_points == 0 and posed['lower'][0].n_points > 0
    assert pq.animate(tony, tmp_path / 'run.gif', animation=('LEGS_RUN', 'TORSO_STAND')) > 1
    assert pq.animate(tony / 'lower.md3', tmp_path / 'lower.gif') > 1
    pq.thumbnail(tony, tmp_path / 'tony.png')
    for suffix in ('.obj', '.glb', '.ply', '.pvd'):
        pq.export(tony / 'lower.md3', tmp_path / f'lower{suffix}')
        assert (tmp_path / f'lower{suffix}').stat().st_size > 0
    assert main(['convert', str(tony / 'lower.md3'), str(tmp_path / 'c.obj')]) == 0


def test_a_thumbnail_of_a_player_folder_given_by_itself(tmp_path):
    synthetic_player(tmp_path / 'models' / 'players' / 'x')
    result = subprocess.run(
        [sys.executable, '-m', 'pyvista_quake', 'thumbnail', 'models/players/x', '-o', str(tmp_path / 'out')],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert [p.name for p in (tmp_path / 'out').rglob('*.png')] == ['x.png']


def test_an_unknown_player_animation_names_the_animations_it_has(tmp_path):
    player = pq.load_player(synthetic_player(tmp_path / 'p'))
    for call in (
        lambda: pq.contact_sheet(player, tmp_path / 's.png', animation='FOO'),
        lambda: pq.animate(player, tmp_path / 'a.gif', animation='FOO'),
        lambda: pq.export(player, tmp_path / 'a.glb', animation='FOO'),
        lambda: player.series('FOO', 'TORSO_STAND'),
        lambda: player.pose('FOO'),
    ):
        with pytest.raises(KeyError, match="no animation 'FOO'; it has .*LEGS_RUN"):
            call()


def test_a_player_frame_out_of_range_is_an_index_error_as_for_a_model(tmp_path):
    player = pq.load_player(synthetic_player(tmp_path / 'p'))
    with pytest.raises(IndexError, match='frame 9999 out of range; lower.md3 has 14 frames'):
        player.pose(9999)
    with pytest.raises(IndexError, match='upper.md3 has 14'):
        player.pose(0, -15)
    np.testing.assert_array_equal(player.pose(-1)['lower'][0].points, player.pose(13)['lower'][0].points)


def test_thumbnail_takes_what_pv_read_gives_a_pose_and_a_weapon(tmp_path):
    (tmp_path / 'w.md3').write_bytes(tetra_md3())
    player = pq.load_player(synthetic_player(tmp_path / 'p'))
    pq.thumbnail(pv.read(tmp_path / 'w.md3'), tmp_path / 'read.png', size=(64, 64))
    pq.thumbnail(player.pose('LEGS_RUN', 'TORSO_STAND'), tmp_path / 'pose.png', size=(64, 64))
    plain = np.asarray(Image.open(pq.thumbnail(player, tmp_path / 'plain.png', size=(96, 96))))
    armed = np.asarray(Image.open(pq.thumbnail(player, tmp_path / 'armed.png', size=(96, 96), weapon=tmp_path / 'w.md3')))
    assert not np.array_equal(plain, armed)  # the weapon is in the picture
    with pytest.raises(ValueError, match='no player'):
        pq.thumbnail(tmp_path / 'w.md3', tmp_path / 'x.png', weapon=tmp_path / 'w.md3')


def test_a_contact_sheet_of_one_player_animation_has_a_cell_per_frame(tmp_path):
    player = pq.load_player(synthetic_player(tmp_path / 'p'))
    cells = sheet_cells(player, 'LEGS_RUN')
    assert len(cells) == 8 and cells[3] == ('LEGS_RUN 3', 3)
    sheet = np.asarray(Image.open(pq.contact_sheet(player, tmp_path / 's.png', animation='LEGS_RUN', cell_size=(48, 48), columns=8)))
    cell = [sheet[16:, k * 48 : (k + 1) * 48] for k in range(8)]
    assert not np.array_equal(cell[0], cell[2])  # the legs move from cell to cell


def test_a_model_of_tags_only_is_reported_as_nothing_to_draw(tmp_path):
    tags = [('tag_weapon', np.zeros((1, 3)), np.eye(3)[None])]
    (tmp_path / 'v_hand.md3').write_bytes(build_md3([], frames=1, tags=tags))
    (tmp_path / 'ok.md2').write_bytes(tetra_md2())
    with pytest.raises(pq.NothingToDrawError, match='nothing to draw'):
        pq.thumbnail(tmp_path / 'v_hand.md3', tmp_path / 'hand.png')
    report = pq.thumbnails([tmp_path], tmp_path / 'out')
    assert [Path(r.source).name for r in report.skipped] == ['v_hand.md3'] and len(report.written) == 1 and report.ok
    assert not (tmp_path / 'out' / 'v_hand.png').exists()
    result = subprocess.run(
        [sys.executable, '-m', 'pyvista_quake', 'thumbnail', str(tmp_path / 'v_hand.md3'), '-o', str(tmp_path / 'o2')],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0 and '1 with nothing to draw' in result.stdout


def test_a_player_without_a_default_skin_takes_the_first_it_has(tmp_path):
    folder = synthetic_player(tmp_path / 'models' / 'players' / 'sorceress')
    for colour, value in (('red', (250, 0, 0)), ('blue', (0, 0, 250))):
        for part, surface in (('lower', 'l_legs'), ('upper', 'u_torso'), ('head', 'h_head')):
            (folder / f'{part}_{colour}.skin').write_text(f'{surface},models/players/sorceress/{colour}.png\n')
        Image.fromarray(np.full((2, 2, 3), value, np.uint8)).save(folder / f'{colour}.png')
    with pytest.warns(pq.QuakeWarning, match="no lower_default.skin; using its skin 'blue' \\(it has blue, red\\)"):
        player = pq.load_player(folder)
    assert tuple(player.parts['upper'].surfaces[0].image()[0, 0]) == (0, 0, 250)
    assert tuple(pq.load_player(folder, skin='red').parts['head'].surfaces[0].image()[0, 0]) == (250, 0, 0)


def test_a_palette_that_is_no_palette_is_refused_at_once(tmp_path):
    (tmp_path / 'bad.lmp').write_text('not a palette')
    (tmp_path / 'm.md2').write_bytes(tetra_md2())
    with pytest.raises(pq.QuakeFormatError, match='bad.lmp.*768 bytes'):
        pq.load(tmp_path / 'm.md2', palette=tmp_path / 'bad.lmp')
    result = subprocess.run(
        [sys.executable, '-m', 'pyvista_quake', 'info', str(tmp_path / 'm.md2'), '--palette', str(tmp_path / 'bad.lmp')],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 1 and 'bad.lmp' in result.stderr


def test_a_ufo_model_saved_elsewhere_keeps_its_anm(tmp_path):
    (tmp_path / 'a').mkdir()
    (tmp_path / 'a' / 'm.md2').write_bytes(tetra_md2(names=['f0', 'f1', 'f2']))
    (tmp_path / 'a' / 'm.anm').write_text('// UFO: AI\nstand 0 1 10\ndie 2 2 0\n')
    model = pq.load(tmp_path / 'a' / 'm.md2')
    model.save(tmp_path / 'b' / 'copy.md2')
    again = pq.load(tmp_path / 'b' / 'copy.md2')
    assert sorted(again.animations) == sorted(model.animations) == ['die', 'f', 'stand']  # 57 stay 57, not 0
    assert again.animations['stand'].fps == 10 and again.animations['die'].fps is None and again.animations['die'].source == 'anm'
    (tmp_path / 'c').mkdir()
    (tmp_path / 'c' / 'copy.anm').write_text('other 0 0 5\n')  # the .anm of the copy.md2 written over: its own
    model.save(tmp_path / 'c' / 'copy.md2')
    assert sorted(pq.load(tmp_path / 'c' / 'copy.md2').animations) == ['die', 'f', 'stand']
    plain = pq.load(tetra_md2())
    plain.save(tmp_path / 'd' / 'x.md2')
    assert not (tmp_path / 'd' / 'x.anm').exists()


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


def test_pv_read_takes_an_archive_member_and_get_reader_a_member_attribute(tmp_path):
    pk3 = tmp_path / 'pak0.pk3'
    with zipfile.ZipFile(pk3, 'w') as archive:
        archive.writestr('models/a/tris.md2', tetra_md2())
        archive.writestr('models/b/model.md3', tetra_md3())
    mesh = pv.read(pk3, member='models/a/tris.md2')
    assert isinstance(mesh, pv.PolyData) and mesh.n_points == pq.load(tetra_md2()).mesh(0).n_points
    blocks = pv.read(pk3, member='models/b/model.md3')
    assert isinstance(blocks, pv.MultiBlock) and blocks.keys() == ['body', 'flag']
    reader = pv.get_reader(pk3)
    reader.member = 'models/a/tris.md2'
    assert reader.number_time_points == 3
    reader.set_active_time_point(2)
    assert reader.read().field_data['frame_index'][0] == 2
    reader.member = 'models/b/model.md3'
    assert reader.number_time_points == 2 and isinstance(reader.read(), pv.MultiBlock)
    with pytest.raises(pq.QuakeFormatError, match='member = None: name the model'):
        pv.read(pk3)
    with pytest.raises(pq.QuakeFormatError, match="'nothing.md2': no such member"):
        pv.read(pk3, member='nothing.md2')


def test_an_image_several_parts_share_is_stored_once(tmp_path):
    folder = synthetic_player(tmp_path / 'models' / 'players' / 'one')
    for part, surface in (('lower', 'l_legs'), ('upper', 'u_torso'), ('head', 'h_head')):
        (folder / f'{part}_default.skin').write_text(f'{surface},models/players/one/skin.png\n')
    Image.fromarray(np.random.default_rng(1).integers(0, 255, (64, 64, 3), np.uint8)).save(folder / 'skin.png')
    pq.export(folder, tmp_path / 'p.glb')
    import pygltflib

    gltf = pygltflib.GLTF2().load(str(tmp_path / 'p.glb'))
    assert len(gltf.images) == 1 and len(gltf.materials) == 1
    assert {p.material for m in gltf.meshes for p in m.primitives} == {0}
    pq.export(folder, tmp_path / 'p.obj')
    assert sorted(p.name for p in tmp_path.glob('p_*.png')) == ['p_0.png']
    assert (tmp_path / 'p.mtl').read_text().count('map_Kd p_0.png') == 3


def test_a_player_in_an_archive_without_a_default_skin_takes_the_first_it_has(tmp_path):
    folder = synthetic_player(tmp_path / 'src')
    pk3 = tmp_path / 'pak0.pk3'
    with zipfile.ZipFile(pk3, 'w') as archive:
        for path in folder.iterdir():
            archive.write(path, f'models/players/sorceress/{path.name}')
        archive.write(folder / 'lower.md3', 'models/players/other/lower_default.skin')  # another player's: not hers
        for colour in ('red', 'blue'):
            for part, surface in (('lower', 'l_legs'), ('upper', 'u_torso'), ('head', 'h_head')):
                archive.writestr(f'models/players/sorceress/{part}_{colour}.skin', f'{surface},models/players/sorceress/{colour}.png\n')
    with pytest.warns(pq.QuakeWarning, match="using its skin 'blue'"):
        pq.load_player(f'{pk3}:models/players/sorceress')


def test_a_one_frame_player_animation_is_one_cell(tmp_path):
    player = pq.load_player(synthetic_player(tmp_path / 'p'))
    assert player.animation('BOTH_DEATH1').count == 1 and sheet_cells(player, 'BOTH_DEATH1') == [('BOTH_DEATH1 0', 0)]


def test_a_contact_sheet_of_a_model_animation_shows_each_frame(tmp_path):
    model = pq.load(tetra_md2(), animations={'pair': [0, 2]})  # frame 2 has a vertex moved: another shape
    sheet = np.asarray(Image.open(pq.contact_sheet(model, tmp_path / 's.png', animation='pair', cell_size=(64, 64), columns=2)))
    first, second = sheet[16:, :64], sheet[16:, 64:128]
    assert not np.array_equal(first, second)


def test_converting_a_ufo_model_to_md3_writes_no_anm(tmp_path):
    (tmp_path / 'm.md2').write_bytes(tetra_md2(names=['f0', 'f1', 'f2']))
    (tmp_path / 'm.anm').write_text('stand 0 1 10\n')
    pq.load(tmp_path / 'm.md2').save(tmp_path / 'out' / 'm.md3')
    assert sorted(p.name for p in (tmp_path / 'out').iterdir()) == ['m.md3']


def test_the_thumbnail_summary_prints_paths_as_they_are(tmp_path, capsys):
    (tmp_path / 'm.md2').write_bytes(tetra_md2())
    out = tmp_path / '[bold]thumbs'
    assert main(['thumbnail', str(tmp_path / 'm.md2'), '-o', str(out), '--size', '32']) == 0
    assert f'1 thumbnails in {out}' in capsys.readouterr().out
