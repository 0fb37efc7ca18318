"""Quake demos (.dem) read as who went where and when, on demos written from the protocol and the corpus's."""

from __future__ import annotations

import struct

from conftest import CORPUS
from conftest import requires_corpus
from demo_builders import build_demo
from demo_builders import message
from demo_builders import sent_angle
import numpy as np
import pytest
import pyvista as pv

import pyvista_quake as pq
from pyvista_quake import QuakeFormatError


@pytest.mark.parametrize(('protocol', 'flags'), [(15, 0), (666, 0), (999, 1 << 7), (999, (1 << 4) | (1 << 1)), (999, (1 << 3) | (1 << 2))])
def test_a_demo_gives_its_map_players_times_and_trajectories(protocol, flags):
    demo = pq.load_demo(build_demo(protocol, flags))
    assert (demo.map, demo.protocol, demo.players, demo.recording_client) == ('e1m1', protocol, {0: 'ranger', 1: 'grunt'}, 0)
    assert demo.player_info[1] == {'names': ['bot', 'grunt'], 'frags': 3} and demo.player_info[0]['frags'] == 0
    np.testing.assert_allclose(demo.times, [1.5, 1.6, 1.7, 1.8], rtol=1e-6)
    assert demo.duration == pytest.approx(0.3, rel=1e-5)
    walker = demo.trajectory(0)
    np.testing.assert_array_equal(walker.positions, [[100 + 16 * k, 200, 24] for k in range(4)])  # y and z: the baseline's
    np.testing.assert_allclose(walker.angles[:, 1], sent_angle(50.0, flags), rtol=1e-7)
    np.testing.assert_array_equal(walker.health, [100, 99, 98, 97]) and np.testing.assert_array_equal(walker.weapon, [2] * 4)
    np.testing.assert_array_equal(walker.velocity[:, 0], [160] * 4)
    other = demo.trajectory(1)
    np.testing.assert_array_equal(other.positions[[0, 2]], [[-64, -64, 40], [500, 0, 0]])
    assert np.isnan(other.health).all()
    assert demo.trajectory(2).positions.shape == (4, 3) and np.isnan(demo.trajectory(2).positions).all()  # never there
    with pytest.raises(ValueError, match='client must be 0 to 3'):
        demo.trajectory(4)


def test_trajectories_are_polylines_broken_at_jumps_and_the_table_is_every_row():
    demo = pq.load_demo(build_demo())
    lines = demo.trajectories()
    # Client 0 walks one line; client 1 stands, jumps to (500, 0, 0) and back: a line of its first two steps, and
    # no line of one point (the jump, the step after it).
    assert lines.n_cells == 2 and lines.cell_data['client'].tolist() == [0, 1]
    walker = lines.point_data['client'] == 0
    np.testing.assert_allclose(lines.point_data['speed'][walker][1:], 160, rtol=1e-5)
    assert lines.point_data['speed'][walker][0] == 0
    assert lines.point_data['time'][walker].tolist() == pytest.approx([1.5, 1.6, 1.7, 1.8])
    longer = pq.load_demo(build_demo(steps=7)).trajectories()
    assert sorted(longer.cell_data['client'].tolist()) == [0, 1, 1]  # client 1's stand before its jump and after it
    table = demo.table()
    columns = table if isinstance(table, dict) else {k: table[k].to_numpy() for k in table.columns}
    assert len(columns['time']) == 8 and set(columns['client'].tolist()) == {0, 1}
    assert list(columns['name'][:2]) == ['ranger', 'grunt']


def test_a_demo_cut_short_loads_up_to_its_last_whole_message():
    whole = build_demo()
    with pytest.warns(pq.QuakeWarning, match='cut short'):
        cut = pq.load_demo(whole[:-5])
    assert len(cut.times) == 3
    with pytest.warns(pq.QuakeWarning, match="inside message 5's header"):
        assert len(pq.load_demo(whole + b'\x01\x02').times) == 4


@pytest.mark.parametrize(
    ('data', 'said'),
    [
        (b'IDPO' + bytes(40), 'not a Quake demo'),
        (b'-1\n' + struct.pack('<i', -5) + bytes(12), 'message 0 length = -5'),
        (b'-1\n' + message(bytes([99])), 'svc = 99'),
        (b'-1\n' + message(bytes([8]) + b'no end'), 'runs past the message'),
        (b'-1\n' + message(bytes([11]) + struct.pack('<i', 68)), 'serverinfo protocol = 68'),
        (b'-1\n' + message(bytes([23, 40])), 'temp_entity = 40'),
        (b'hello\n' + bytes(40), 'not a Quake demo'),
        (b'-1\n' + struct.pack('<i', (1 << 20) + 1) + bytes(12), 'message 0 length'),
    ],
)
def test_a_broken_demo_is_a_format_error_naming_the_message_and_field(data, said):
    with pytest.raises(QuakeFormatError, match=said):
        pq.load_demo(data)


@requires_corpus
@pytest.mark.corpus
@pytest.mark.parametrize(('name', 'map_name', 'protocol'), [('demo2', 'lq_e2m5', 15), ('demo3', 'lqdm3', 999)])
def test_librequakes_demos(name, map_name, protocol):
    demo = pq.load_demo(CORPUS / 'demos' / 'librequake' / f'{name}.dem')
    assert demo.map == map_name and demo.protocol == protocol and demo.players == {0: 'player'}
    assert 25 < demo.duration < 35 and (np.diff(demo.times) >= 0).all()
    path = demo.trajectory(demo.recording_client)
    assert np.isfinite(path.positions).all() and (path.health > 0).all()
    assert demo.trajectories().n_cells >= 1


def test_a_demo_reader_steps_through_its_messages_as_time_points(tmp_path):
    from pyvista_quake.plugin.readers import DemoReader

    (tmp_path / 'x.dem').write_bytes(build_demo())
    reader = DemoReader(tmp_path / 'x.dem')
    assert reader.number_time_points == 4 and reader.time_values == pytest.approx([1.5, 1.6, 1.7, 1.8])
    reader.set_active_time_point(2)
    players = reader.read()
    assert players.points.tolist() == [[132, 200, 24], [500, 0, 0]] and players['client'].tolist() == [0, 1]
    assert players['name'].tolist() == ['ranger', 'grunt'] and players.field_data['time'][0] == pytest.approx(1.7)
    reader.set_active_time_value(1.65)
    assert reader.active_time_value == pytest.approx(1.6) and reader.time_point_value(3) == pytest.approx(1.8)
    reader.set_active_time_value(0.0)  # before the first: the first
    assert reader.active_time_value == pytest.approx(1.5)
    with pytest.raises(IndexError, match='time point 4'):
        reader.set_active_time_point(4)


def _demo_folder(tmp_path):
    import zipfile

    folder = tmp_path / 'demos'
    folder.mkdir()
    (folder / 'a.dem').write_bytes(build_demo(steps=3))
    (folder / 'b.dem').write_bytes(build_demo(666, steps=5))
    (folder / 'notes.txt').write_text('not a demo')
    with zipfile.ZipFile(folder / 'pak0.pk3', 'w') as pk3:
        pk3.writestr('demos/c.dem', build_demo(steps=2))
        pk3.writestr('maps/x.bsp', b'')
    return folder


def test_many_demos_are_one_table_found_in_folders_archives_and_patterns(tmp_path):
    from pyvista_quake.model.demos import demo_table
    from pyvista_quake.model.demos import find_demos

    folder = _demo_folder(tmp_path)
    assert [str(p).replace(f'{folder}/', '') for p in find_demos([folder])] == ['a.dem', 'b.dem', 'pak0.pk3:demos/c.dem']
    assert len(find_demos([str(folder / '*.dem'), folder / 'a.dem'])) == 2  # once each
    assert len(find_demos([f'{folder / "pak0.pk3"}:demos/c.dem'])) == 1
    table = demo_table([folder])
    assert pq.demos.table([folder]).keys() == table.keys() if isinstance(table, dict) else pq.demos.table([folder]).equals(table)
    assert 'demos' in dir(pq)
    columns = table if isinstance(table, dict) else {k: table[k].to_numpy() for k in table.columns}
    assert len(columns['time']) == 2 * (3 + 5 + 2)  # two players a message
    assert [str(d).replace(f'{folder}/', '') for d in dict.fromkeys(columns['demo'])] == ['a.dem', 'b.dem', 'pak0.pk3:demos/c.dem']
    assert set(columns['map'].tolist()) == {'e1m1'}


def test_a_dask_cluster_makes_the_same_table_as_one_process(tmp_path):
    distributed = pytest.importorskip('distributed', reason='dask.distributed does not install here')
    from pyvista_quake.model.demos import demo_table

    folder = _demo_folder(tmp_path)
    serial = demo_table([folder])
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            parallel = demo_table([folder], client=client)
    if isinstance(serial, dict):
        assert serial.keys() == parallel.keys() and all(np.array_equal(serial[k], parallel[k], equal_nan=serial[k].dtype.kind == 'f') for k in serial)
    else:
        assert serial.equals(parallel)


def test_the_demo_command(tmp_path, capsys):
    import csv
    import json

    from pyvista_quake.cli.main import main

    folder = _demo_folder(tmp_path)
    assert main(['demo', 'info', str(folder / 'a.dem'), '--json']) == 0
    record = json.loads(capsys.readouterr().out)[0]
    assert record['map'] == 'e1m1' and record['players'] == {'0': 'ranger', '1': 'grunt'} and record['messages'] == 3
    assert main(['demo', 'info', str(folder)]) == 0
    assert 'ranger' in capsys.readouterr().out
    assert main(['demo', 'table', str(folder), '-o', str(tmp_path / 'rows.csv')]) == 0
    rows = list(csv.DictReader((tmp_path / 'rows.csv').open()))
    assert len(rows) == 20 and rows[0]['name'] == 'ranger' and float(rows[0]['x']) == 100.0
    assert main(['demo', 'table', str(folder), '-o', str(tmp_path / 'rows.xlsx')]) == 1
    assert main(['demo', 'info', str(tmp_path / 'nothing')]) == 1


def test_a_demo_without_server_info_has_no_clients_and_the_largest_message_is_read():
    from pyvista_quake.formats import dem

    timed = b'-1\n' + message(bytes([7]) + struct.pack('<f', 2.0))
    demo = pq.load_demo(timed)
    assert demo.times.tolist() == [2.0] and demo.map == '' and demo.players == {}
    with pytest.raises(ValueError, match='client must be 0 to -1'):
        demo.trajectory(0)
    padding = bytes([1]) * (dem.MAX_MESSAGE - 5)  # svc_nop up to the largest message
    assert len(pq.load_demo(b'-1\n' + message(bytes([7]) + struct.pack('<f', 3.0) + padding)).times) == 1


def test_the_recorders_armour_past_255_and_client_data_of_each_protocol():
    from pyvista_quake.formats import dem

    for protocol in (15, 666):
        data = dem.parse(build_demo(protocol), 'x.dem')
        assert data.client_data[0]['armor'] == (300 if protocol == 666 else 300 & 0xFF)
        assert data.client_data[0]['velocity'] == (160.0, 0.0, 0.0) and data.client_data[0]['health'] == 100


def test_parquet_without_pandas_says_what_to_install(tmp_path, monkeypatch, capsys):
    from pyvista_quake.cli import demo as command
    from pyvista_quake.cli.main import main

    monkeypatch.setattr(command, 'demo_table', lambda sources: {'time': np.zeros(1)})
    assert main(['demo', 'table', str(tmp_path), '-o', str(tmp_path / 'x.parquet')]) == 1
    assert 'Parquet needs pandas and pyarrow' in capsys.readouterr().err


def test_a_table_written_with_pandas_goes_to_csv_or_parquet_by_its_suffix(tmp_path, monkeypatch, capsys):
    from pyvista_quake.cli import demo as command
    from pyvista_quake.cli.main import main

    written = []

    class Frame:
        def __len__(self):
            return 3

        def to_csv(self, path, index):
            written.append(('csv', path, index))

        def to_parquet(self, path):
            written.append(('parquet', path))

    monkeypatch.setattr(command, 'demo_table', lambda sources: Frame())
    assert main(['demo', 'table', str(tmp_path), '-o', str(tmp_path / 'x.parquet')]) == 0
    assert main(['demo', 'table', str(tmp_path), '-o', str(tmp_path / 'x.csv')]) == 0
    assert written == [('parquet', tmp_path / 'x.parquet'), ('csv', tmp_path / 'x.csv', False)]
    assert capsys.readouterr().out.count('(3 rows)') == 2


def _game_with_demo(tmp_path, *, level: bool = True):
    """A game folder holding e1m1 (a level written from its header) and a demo recorded on it, in a PAK."""
    import zipfile

    from level_builders import build_q1
    from level_builders import q1_args

    game = tmp_path / 'id1'
    game.mkdir(parents=True)
    with zipfile.ZipFile(game / 'pak0.pk3', 'w') as archive:
        archive.writestr('demo1.dem', build_demo(steps=6))
        if level:
            archive.writestr('maps/e1m1.bsp', build_q1(**q1_args()))
    return game


def test_a_demo_finds_its_level_in_the_game_s_files(tmp_path):
    game = _game_with_demo(tmp_path)
    demo = pq.load_demo(f'{game / "pak0.pk3"}:demo1.dem')
    assert demo.level is not None and demo.level.level is not None and len(demo.level.surfaces) >= 1
    assert demo.level.source.endswith('maps/e1m1.bsp')
    bare = pq.load_demo(f'{_game_with_demo(tmp_path / "other", level=False) / "pak0.pk3"}:demo1.dem')
    with pytest.warns(pq.QuakeWarning, match=r'level maps/e1m1.bsp not found'):
        assert bare.level is None


def test_a_heatmap_counts_the_seconds_in_each_cell(tmp_path):
    demo = pq.load_demo(build_demo(steps=6))
    heat = demo.heatmap(cell=32)
    steps = np.diff(demo.times)
    total = sum(np.isfinite(demo.trajectory(c).positions).all(axis=1) @ np.append(steps, np.median(steps)) for c in demo.clients)
    assert heat.seconds.sum() == pytest.approx(total)
    # The recorder walks along x from 100, 16 a step: cells of 32 from x = 96, its y 200 in the row from 192.
    walker = demo.heatmap(cell=32, clients=[demo.recording_client])
    np.testing.assert_array_equal(walker.origin, [96, 192])
    assert walker.seconds.shape == (1, 3)
    np.testing.assert_allclose(walker.seconds[0], [2 * 0.1, 2 * 0.1, 2 * 0.1], rtol=1e-5)  # times as the demo stores them, float32
    assert walker.mesh.n_cells == 3 and walker.mesh.cell_data['seconds'].tolist() == pytest.approx([0.2, 0.2, 0.2])
    np.testing.assert_allclose(walker.mesh.bounds[:4], [96, 192, 192, 224])
    picture = walker.image()
    assert picture.shape == (1, 3, 4) and (picture[..., 3] == 255).all()
    with pytest.raises(ValueError, match='cell must be a positive length'):
        demo.heatmap(cell=0)
    empty = demo.heatmap(clients=[])
    assert empty.seconds.shape == (0, 0) and empty.mesh.n_points == 0


def test_a_demo_s_picture_draws_its_trajectories_over_its_level_from_above(tmp_path):
    from PIL import Image

    game = _game_with_demo(tmp_path)
    demo = pq.load_demo(f'{game / "pak0.pk3"}:demo1.dem')
    picture = np.asarray(Image.open(pq.thumbnail(demo, tmp_path / 'demo.png', size=(160, 160))))
    assert picture.shape == (160, 160, 3)
    red = (picture[..., 0] > 180) & (picture[..., 1] < 80) & (picture[..., 2] < 100)  # the first client's colour
    assert red.any()
    with pytest.warns(pq.QuakeWarning, match='level maps/e1m1.bsp not found'):
        alone = pq.load_demo(build_demo(steps=6))
        pq.thumbnail(alone, tmp_path / 'alone.png', size=(64, 64))


def test_events_say_frags_respawns_and_prints_in_time_order():
    from demo_builders import update

    frags = [
        message(bytes([7]) + struct.pack('<f', t) + bytes([14, 0]) + struct.pack('<h', n) + update(1, (180.0 + 8 * n, None, None)))
        for t, n in ((9.0, 1), (9.5, 0))
    ]
    demo = pq.load_demo(build_demo(steps=6) + b''.join(frags))
    events = demo.events
    assert events['kind'].tolist() == ['print', 'respawn', 'respawn', 'frags', 'frags']
    np.testing.assert_allclose(events['time'], [1.6, 1.7, 1.8, 9.0, 9.5], rtol=1e-6)
    assert events['client'].tolist() == [-1, 1, 1, 0, 0] and events['change'].tolist() == [0, 0, 0, 1, -1]
    assert events['text'][0] == 'ranger was gibbed by bot\n'
    np.testing.assert_array_equal(np.column_stack([events['x'], events['y'], events['z']])[3:], [[188, 200, 24], [180, 200, 24]])
    assert np.isnan(events['x'][0])  # a print is nobody's
    np.testing.assert_array_equal(events['x'][1:3], [500, -64])  # the standing client thrown to (500, 0, 0) and back


def test_a_demo_s_picture_marks_where_frags_were_scored(tmp_path):
    from demo_builders import update
    from PIL import Image

    def yellow(demo) -> int:
        picture = np.asarray(Image.open(pq.thumbnail(demo, tmp_path / 'frags.png', size=(128, 128))))
        return int(((picture[..., 0] > 220) & (picture[..., 1] > 190) & (picture[..., 2] < 90)).sum())

    frag = message(bytes([7]) + struct.pack('<f', 9.0) + bytes([14, 0]) + struct.pack('<h', 1) + update(1, (188.0, None, None)))
    with pytest.warns(pq.QuakeWarning, match='level maps/e1m1.bsp not found'):
        assert yellow(pq.load_demo(build_demo(steps=6) + frag)) > 0
    with pytest.warns(pq.QuakeWarning, match='level maps/e1m1.bsp not found'):
        assert yellow(pq.load_demo(build_demo(steps=6))) == 0


def test_a_heatmap_picture_is_seen_from_above_its_empty_cells_clear():
    from matplotlib import colormaps

    from pyvista_quake.model.demos import Heatmap

    seconds = np.array([[0.5, 0.0, 0.25], [0.0, 0.0, 0.1]])  # row 0 the lowest y
    picture = Heatmap(seconds, np.zeros(2), 64.0, pv.PolyData()).image()
    assert picture.shape == (2, 3, 4)
    np.testing.assert_array_equal(picture[1, 0], (np.asarray(colormaps['inferno'](1.0)) * 255).round().astype(np.uint8))
    np.testing.assert_array_equal(picture[1, 2], (np.asarray(colormaps['inferno'](0.5)) * 255).round().astype(np.uint8))
    np.testing.assert_array_equal(picture[0, 2], (np.asarray(colormaps['inferno'](0.2)) * 255).round().astype(np.uint8))
    assert (picture[[1, 0, 0], [1, 0, 1]] == 0).all()  # no one there: transparent


def test_a_frag_in_the_first_timed_message_and_a_step_of_exactly_the_jump():
    from demo_builders import update

    first = message(bytes([7]) + struct.pack('<f', 1.0) + bytes([14, 0]) + struct.pack('<h', 1) + update(1, (0.0, 0.0, 0.0)))
    second = message(bytes([7]) + struct.pack('<f', 1.1) + update(1, (256.0, 0.0, 0.0)))  # a step of 256: the same life
    third = message(bytes([7]) + struct.pack('<f', 1.2) + update(1, (512.5, 0.0, 0.0)))  # past 256: a new one
    demo = pq.load_demo(build_demo(steps=0) + first + second + third)
    events = demo.events
    assert events['kind'].tolist() == ['frags', 'respawn'] and events['time'].tolist() == pytest.approx([1.0, 1.2])
    lines = demo.trajectories()  # the first life a line of two points; the second, of one, none
    assert lines.n_cells == 1 and lines.points[:, 0].tolist() == [0, 256]


def test_the_demo_plot_command_draws_a_demo_over_its_level(tmp_path, capsys):
    from PIL import Image

    from pyvista_quake.cli.main import main

    game = _game_with_demo(tmp_path)
    picture = tmp_path / 'demo.png'
    assert main(['demo', 'plot', f'{game / "pak0.pk3"}:demo1.dem', '-o', str(picture), '--size', '120', '90']) == 0
    assert 'players over e1m1' in capsys.readouterr().out
    image = np.asarray(Image.open(picture))
    assert image.shape[:2] == (90, 120) and ((image[..., 0] > 180) & (image[..., 1] < 80)).any()
    alone = tmp_path / 'alone.dem'
    alone.write_bytes(build_demo(steps=6))
    assert main(['demo', 'plot', str(alone), '-o', str(tmp_path / 'alone.png')]) == 0
    assert 'without its level' in capsys.readouterr().out
