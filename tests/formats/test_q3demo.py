"""Quake III demos (.dm_68, .dm_70, .dm_71) on demos written from the protocol, and OpenArena's."""

from __future__ import annotations

import importlib.util
from pathlib import Path
import struct
import zipfile

from conftest import CORPUS
from conftest import requires_corpus
import numpy as np
import pytest
import q3demo_builders
from q3demo_builders import Writer
from q3demo_builders import command
from q3demo_builders import demo
from q3demo_builders import gamestate
from q3demo_builders import message
from q3demo_builders import snapshot

import pyvista_quake as pq
from pyvista_quake import QuakeFormatError
from pyvista_quake.formats import q3demo
from pyvista_quake.formats._q3huffman import CODES

SERVERINFO = '\\mapname\\q3dm17\\protocol\\68\\sv_maxclients\\8'
F = np.float32


def _two_player_demo(*, gone_delta: bool = False, end: bool = True) -> bytes:
    """Client 0 records (player state); client 3 runs a TR_LINEAR trajectory, then is renamed and stops."""
    first = {
        'eType': 1, 'clientNum': 3, 'pos.trType': 2, 'pos.trTime': 1000, 'pos.trBase[0]': 100, 'pos.trBase[1]': -20.5,
        'pos.trBase[2]': 24, 'pos.trDelta[0]': 320, 'pos.trDelta[1]': 0.25, 'apos.trBase[1]': 90, 'weapon': 5,
        'apos.trType': 2, 'apos.trTime': 1010, 'apos.trDuration': 5000, 'apos.trDelta[1]': 100,
    }  # fmt: skip
    messages = [
        message(10, lambda w: gamestate(w, {0: SERVERINFO, 544: 'n\\Grunt\\t\\0\\model\\grunt', 547: 'n\\Sarge\\t\\1\\model\\sarge/red'})),
        message(
            11,
            lambda w: snapshot(
                w,
                1050,
                0,
                {
                    'origin[0]': 8,
                    'origin[1]': 16.75,
                    'origin[2]': -4,
                    'viewangles[1]': 45,
                    'weapon': 7,
                    'velocity[0]': 10,
                    'velocity[1]': -20,
                    'velocity[2]': 30.5,
                },
                [(3, first)],
                {0: 125},
            ),
        ),
        message(
            12,
            lambda w: (
                command(w, 1, 'cs 547 "n\\Major\\t\\1\\model\\major"'),
                command(w, 2, 'cs 544 "n\\Doom"'),
                snapshot(w, 1100, 1, {'origin[0]': 12}, [(3, {'pos.trType': 3, 'pos.trDuration': 30})], {0: 90}),
            ),
        ),
    ]
    if gone_delta:
        messages.append(message(13, lambda w: snapshot(w, 1150, 5, {'origin[0]': 99}, [(3, 'remove')])))  # a delta from message 8
    messages.append(message(14, lambda w: (command(w, 3, 'print "Major was railed\n"'), snapshot(w, 1200, 2, {'origin[0]': 14}, [(3, 'remove')]))))
    return demo(*messages, end=end)


def test_the_huffman_code_is_the_one_the_engine_builds_from_its_counts():
    spec = importlib.util.spec_from_file_location('q3_huffman', Path(__file__).parents[2] / 'dev' / 'q3_huffman.py')
    assert spec is not None and spec.loader is not None
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    counts = [int(c) for c in (Path(__file__).parents[2] / 'dev' / 'q3_huffman_counts.txt').read_text().split()]
    tree = builder.Tree()
    for symbol, count in enumerate(counts):
        for _ in range(count):
            tree.add(symbol)
    codes = tree.codes()
    assert tuple(codes[s] for s in range(257)) == CODES
    assert sum(2.0 ** -len(c) for c in CODES) == 1.0  # a whole prefix code
    assert len(set(CODES)) == 257


def test_a_demo_written_from_the_protocol_reads_as_the_client_reads_it(tmp_path):
    path = tmp_path / 'duel.dm_68'
    path.write_bytes(_two_player_demo())
    d = pq.load_demo(path)
    assert (d.map, d.protocol, d.recording_client) == ('q3dm17', 68, 0)
    assert np.array_equal(d.times, [1.05, 1.1, 1.2])
    assert d.players == {0: 'Doom', 3: 'Major'}
    assert d.player_info[3] == {'names': ['Sarge', 'Major'], 'model': 'major', 'team': 1}
    me = d.trajectory(0)
    assert np.array_equal(me.positions, np.array([[8, 16.75, -4], [12, 16.75, -4], [14, 16.75, -4]], F))
    assert np.array_equal(me.health, F([125, 90, 90])) and np.array_equal(me.weapon, F([7, 7, 7]))
    assert me.angles[0, 1] == 45 and np.array_equal(me.velocity[0], F([10, -20, 30.5]))
    other = d.trajectory(3)
    # TR_LINEAR at 1050 ms: base + delta * float(50 * 0.001); then TR_LINEAR_STOP stopped at 1000 + 30 ms.
    at = F(50 * 0.001)
    assert np.array_equal(other.positions[0], np.array([F(100) + F(320) * at, F(-20.5) + F(0.25) * at, F(24)], F))
    stop = F(30 * 0.001)
    assert np.array_equal(other.positions[1], np.array([F(100) + F(320) * stop, F(-20.5) + F(0.25) * stop, F(24)], F))
    assert np.isnan(other.positions[2]).all() and np.isnan(other.health).all()
    assert np.array_equal(other.velocity[0], F([320, 0.25, 0])) and other.weapon[0] == 5
    assert other.angles[0, 1] == F(90) + F(100) * F(40 * 0.001)  # its angles' own trajectory, from 1010 ms
    events = d.events
    prints = [t for t, k in zip(events['text'], events['kind']) if k == 'print']
    assert prints == ['Major was railed\n']


def test_a_delta_from_a_snapshot_that_is_gone_is_dropped_and_the_stream_read_on():
    data = q3demo.parse(_two_player_demo(gone_delta=True), 'x.dm_68')
    assert [s.server_time for s in data.snapshots] == [1050, 1100, 1200]
    assert data.snapshots[-1].player[0][q3demo.PLAYER_FIELDS.index(('origin[0]', 0))] == 14


def test_a_demo_cut_short_loads_up_to_its_last_whole_message():
    whole = _two_player_demo(end=False)
    with pytest.warns(UserWarning, match=r'message 3 .*cut short.* read up to message 2'):
        data = q3demo.parse(whole[:-3], 'x.dm_68')
    assert [s.server_time for s in data.snapshots] == [1050, 1100]
    assert len(q3demo.parse(whole, 'x.dm_68').snapshots) == 3  # a file may just end


def _messages(*builds) -> bytes:
    return demo(message(1, lambda w: gamestate(w, {0: SERVERINFO})), *[message(2 + k, b) for k, b in enumerate(builds)])


@pytest.mark.parametrize(
    ('data', 'said'),
    [
        (struct.pack('<ii', 1, 16385) + bytes(16385), 'message 0 length'),
        (demo(message(1, lambda w: w.byte(11))), 'command = 11'),
        (_messages(lambda w: w.byte(7).long(5).byte(0).byte(0).byte(33)), 'area mask size = 33'),
        (_messages(lambda w: w.byte(7).long(5).byte(0).byte(0).byte(0).byte(49)), 'player state field count = 49'),
        (
            _messages(lambda w: w.byte(7).long(5).byte(0).byte(0).byte(0).byte(0).write(0, 1).write(7, 10).write(0, 1).write(1, 1).byte(52)),
            'entity 7 field count = 52',
        ),
        (demo(message(1, lambda w: w.byte(2).long(0).byte(3).short(1024))), 'configstring = 1024'),
        (demo(message(1, lambda w: w.byte(2).long(0).byte(9))), 'game state command = 9'),
        (demo(struct.pack('<ii', 1, 0)), 'message 0 reliable acknowledge'),
        (demo(message(1, lambda w: None)), 'no message holds a game state'),
        (b'', 'no message holds a game state'),
    ],
)
def test_a_broken_demo_is_a_format_error_naming_the_message_and_field(data, said):
    with pytest.raises(QuakeFormatError, match=said):
        q3demo.parse(data, 'x.dm_68')


def test_a_huffman_stream_that_runs_out_names_the_message_and_what_was_read():
    cut = Writer().long(0).byte(7).long(5)
    data = cut.data()
    with pytest.raises(QuakeFormatError, match=r'message 1 snapshot .*read past the end'):
        q3demo.parse(demo(message(1, lambda w: gamestate(w, {0: SERVERINFO})), struct.pack('<ii', 2, len(data)) + data), 'x.dm_68')


def test_bits_below_a_byte_are_sent_as_they_are_and_signed_fields_extend_from_their_bytes():
    w = Writer().write(5, 3).write(0x5BCDE, 19).write(0xFFF0, 16)
    bits = q3demo._Bits(w.data())
    assert bits.bits(3) == 5 and bits.bits(19) == 0x5BCDE and bits.signed(16) == -16
    assert q3demo._Bits(Writer().write(0xF, 4).data()).signed(4) == 15  # no sign below a whole byte, as the engine reads
    assert q3demo._Bits(Writer().write(0x80, 8).data()).signed(8) == -128
    assert q3demo._Bits(Writer().write(0x7F, 8).data()).signed(8) == 127
    whole = q3demo._Bits(b'\xff')
    assert whole.bits(7) == 127 and whole.bits(1) == 1  # raw bits up to the very end
    with pytest.raises(q3demo._OverflowError):
        whole.bits(1)
    # 12 bits: 4 as they are, one Huffman byte; the engine takes the byte's top bit as the sign.
    assert q3demo._Bits(Writer().write(0x880, 12).data()).signed(12) == -128
    assert q3demo._Bits(Writer().short(-40).short(32767).data()).short() == -40


def test_the_string_reader_keeps_what_the_engine_keeps():
    w = Writer().string('a%b').byte(200).byte(0)
    bits = q3demo._Bits(Writer().string('a%b').data() + Writer().byte(200).byte(0).data())
    assert bits.string(1024) == 'a.b'
    edge = q3demo._Bits(Writer().byte(127).byte(128).byte(0).data())
    assert edge.string(1024) == '\x7f.'  # past 127 is a dot, 127 itself kept
    long_text = Writer().string('x' * 20)
    assert q3demo._Bits(long_text.data()).string(8) == 'x' * 7  # the rest read and dropped
    assert w.bits  # written


@pytest.mark.parametrize('kind', [0, 1, 2, 3, 4, 5, 9])
def test_trajectories_are_evaluated_in_float32_as_the_game_does(kind):
    base, delta = F([[10.5, -3, 7]]), F([[100, 50.25, -40]])
    start, duration, at = np.array([1000]), np.array([300]), np.array([1250])
    got = q3demo.evaluate_trajectory(np.array([kind]), start, duration, base, delta, at)[0]
    seconds = F(250 * 0.001)
    if kind in (0, 1):
        want = base[0]
    elif kind == 2:
        want = base[0] + delta[0] * seconds
    elif kind == 3:
        want = base[0] + delta[0] * seconds  # 250 ms, inside its 300
    elif kind == 4:
        want = base[0] + delta[0] * F(np.sin(np.float64(F(250) / F(300)) * np.pi * 2))
    elif kind == 5:
        want = base[0] + delta[0] * seconds
        want[2] = F(np.float64(want[2]) - 0.5 * 800 * np.float64(seconds) ** 2)
    else:
        assert np.isnan(got).all()
        return
    assert np.array_equal(got, want)
    stopped = q3demo.evaluate_trajectory(np.array([3]), start, np.array([100]), base, delta, at)[0]
    assert np.array_equal(stopped, base[0] + delta[0] * F(100 * 0.001))
    before = q3demo.evaluate_trajectory(np.array([3]), start, duration, base, delta, np.array([900]))[0]
    assert np.array_equal(before, base[0])  # no time before its start


def test_the_field_tables_name_each_field_once_in_the_engines_order():
    for table, count in ((q3demo.ENTITY_FIELDS, 51), (q3demo.PLAYER_FIELDS, 48)):
        names = [name for name, _ in table]
        assert len(names) == count and len(set(names)) == count
    assert q3demo.ENTITY_FIELDS == q3demo_builders.ENTITY_FIELDS and q3demo.PLAYER_FIELDS == q3demo_builders.PLAYER_FIELDS


def test_an_info_string_value():
    assert q3demo.info_value('\\n\\Grunt\\t\\2', 't') == '2' and q3demo.info_value('n\\Grunt', 'n') == 'Grunt'
    assert q3demo.info_value('\\n\\Grunt', 'model') == ''


@requires_corpus
@pytest.mark.corpus
def test_openarenas_demos_read_with_their_players_maps_and_frags(tmp_path):
    pk3 = CORPUS / 'demos' / 'openarena' / 'openarena-demos.pk3'
    stress = pq.load_demo(f'{pk3}:demos/stress_q3dm6ishv2.dm_70')
    assert (stress.map, stress.protocol, len(stress.players)) == ('q3dm6ish_v2', 70, 24)
    assert np.all(np.diff(stress.times) > 0) and 40 < stress.duration < 42
    assert stress.clients == list(range(24))
    frags = stress.events['kind'] == 'frag'
    assert frags.sum() > 100 and np.isin(stress.events['client'][frags], range(24)).all()
    lines = stress.trajectories()
    assert set(np.unique(lines.cell_data['client'])) == set(range(24)) and lines.n_lines > 24  # lives
    with zipfile.ZipFile(pk3) as archive:
        (tmp_path / 'flyby.dm_70').write_bytes(archive.read('demos/flyby_oa_dm3.dm_70'))
    flyby = pq.load_demo(tmp_path / 'flyby.dm_70')
    assert flyby.map == 'OA_DM3' and flyby.clients == [0] and 56 < flyby.duration < 58
    path = flyby.trajectory(0)
    assert np.isfinite(path.positions).all() and np.linalg.norm(np.diff(path.positions, axis=0), axis=1).max() < 64


def test_pickups_ride_on_a_players_entity_and_the_recorders_player_state_and_obituaries_are_frags(tmp_path):
    runner = {'eType': 1, 'clientNum': 2, 'pos.trBase[0]': 64, 'event': 19 | 0x100, 'eventParm': 3}
    obituary = {'eType': 13 + 60, 'otherEntityNum': 2, 'otherEntityNum2': 1, 'eventParm': 10, 'pos.trBase[2]': -8}
    path = tmp_path / 'p.dm_71'
    path.write_bytes(
        demo(
            message(1, lambda w: gamestate(w, {0: '\\mapname\\x\\protocol\\71', 545: 'n\\A', 546: 'n\\B'}, client=1)),
            message(2, lambda w: snapshot(w, 100, 0, {'clientNum': 1, 'origin[0]': 4}, [(2, runner)])),
            message(
                3, lambda w: snapshot(w, 150, 1, {'eventSequence': 1, 'events[0]': 19 | 0x200, 'eventParms[0]': 7}, [(2, None), (300, obituary)])
            ),
            message(4, lambda w: snapshot(w, 200, 1, {'eventSequence': 1}, [(2, None), (300, None)])),  # both still there: no new events
        )
    )
    d = pq.load_demo(path)
    events = d.events
    rows = [
        (k, c, t, m, i)
        for k, c, t, m, i in zip(events['kind'], events['client'], events['target'], events['means'], events['item'])
        if k != 'respawn'
    ]
    assert rows == [('pickup', 2, -1, -1, 3), ('frag', 1, 2, 10, -1), ('pickup', 1, -1, -1, 7)]
    assert events['z'][events['kind'] == 'frag'][0] == -8 and events['x'][events['kind'] == 'pickup'][0] == 64
    assert d.protocol == 71 and d.recording_client == 1


def test_a_delta_frame_of_zero_is_a_whole_snapshot_and_of_one_a_delta():
    data = q3demo.parse(
        demo(
            message(0, lambda w: gamestate(w, {0: SERVERINFO})),
            message(1, lambda w: snapshot(w, 100, 0, {'origin[0]': 40, 'origin[1]': 8}, [])),
            message(2, lambda w: snapshot(w, 150, 1, {'origin[0]': 41}, [])),  # from message 1: keeps its y
            message(3, lambda w: snapshot(w, 200, 3, {'origin[0]': 42}, [])),  # frame 3 - 3 = 0: whole, y from nothing
        ),
        'x.dm_68',
    )
    x, y = q3demo.PLAYER_FIELDS.index(('origin[0]', 0)), q3demo.PLAYER_FIELDS.index(('origin[1]', 0))
    assert [(s.player[0][x], s.player[0][y]) for s in data.snapshots] == [(40, 8), (41, 8), (42, 0)]


def test_a_death_by_the_world_is_a_frag_with_the_worlds_number_as_attacker(tmp_path):
    fall = {'eType': 13 + 60, 'otherEntityNum': 2, 'otherEntityNum2': 1022, 'eventParm': 19, 'pos.trBase[0]': 5}
    path = tmp_path / 'w.dm_68'
    path.write_bytes(
        demo(
            message(1, lambda w: gamestate(w, {0: SERVERINFO, 546: 'n\\B'})),
            message(2, lambda w: snapshot(w, 100, 0, {'origin[0]': 4}, [(2, {'eType': 1, 'clientNum': 2}), (300, fall)])),
        )
    )
    events = pq.load_demo(path).events
    frag = events['kind'] == 'frag'
    assert events['client'][frag].tolist() == [1022] and events['target'][frag].tolist() == [2] and events['x'][frag][0] == 5
