"""The format-neutral model and the PolyData of a frame."""

from __future__ import annotations

import io
import os

from builders import build_md2
from builders import tetra_md2
from builders import torch_mdl
import numpy as np
import pytest
import pyvista as pv

import pyvista_quake as pq
from pyvista_quake.formats.tables import VERTEX_NORMALS


@pytest.fixture
def tetra():
    return pq.load(tetra_md2())


def test_both_formats_give_the_same_model_type():
    md2, mdl = pq.load(tetra_md2()), pq.load(torch_mdl())
    assert type(md2) is type(mdl) is pq.QuakeModel
    assert type(md2.data) is type(mdl.data)
    assert (md2.format, mdl.format) == ('md2', 'mdl')


def test_load_from_path_bytes_and_file_object(tmp_path):
    data = tetra_md2()
    path = tmp_path / 'tetra.md2'
    path.write_bytes(data)
    from_path = pq.load(path)
    from_str = pq.load(str(path))
    from_bytes = pq.load(data)
    from_file = pq.load(io.BytesIO(data))
    with path.open('rb') as handle:
        from_handle = pq.load(handle)
    for model in (from_str, from_bytes, from_file, from_handle):
        np.testing.assert_array_equal(model.positions(), from_path.positions())
    assert from_path.source == str(path)
    assert from_handle.source == str(path)
    assert from_bytes.source == '<bytes>' and from_file.source == '<file>'
    with pytest.raises(TypeError):
        pq.load(12)
    with pytest.raises(TypeError, match=r"unknown options \['frmae'\]"):
        pq.load(data, frmae=3)
    with pytest.raises(TypeError, match=r"unknown options \['frmae'\]"):
        pq.load(data, skin=None, frmae=3)


def test_a_large_file_is_mapped_and_saved_over_in_place(tmp_path, monkeypatch):
    """Files from MAP_FROM_BYTES up are memory-mapped: they load alike, and saving over the mapped file works."""
    import mmap  # noqa: PLC0415

    from pyvista_quake.game import sources as loading  # noqa: PLC0415

    data = tetra_md2()
    path = tmp_path / 'tetra.md2'
    path.write_bytes(data)
    monkeypatch.setattr(loading, 'MAP_FROM_BYTES', len(data))
    assert isinstance(loading._read_file(path), mmap.mmap)
    model = pq.load(path)
    np.testing.assert_array_equal(model.positions(), pq.load(data).positions())
    model.rename_frame(0, 'mapped')
    model.save(path)
    assert pq.load(path).frame_names[0] == 'mapped'
    np.testing.assert_array_equal(pq.load(path).positions(), pq.load(data).positions())
    monkeypatch.setattr(loading, 'MAP_FROM_BYTES', path.stat().st_size + 1)
    assert loading._read_file(path) == path.read_bytes()


def test_a_folder_given_as_a_model_names_itself_in_the_error(tmp_path):
    with pytest.raises(OSError) as error:
        pq.load(tmp_path)
    assert str(tmp_path) in str(error.value)


@pytest.mark.skipif(not hasattr(os, 'mkfifo'), reason='named pipes are POSIX')
def test_a_file_of_unknown_size_is_read_to_its_end(tmp_path):
    """A named pipe reports size 0: the model is still read whole."""
    import threading  # noqa: PLC0415

    data = tetra_md2()
    pipe = tmp_path / 'pipe.md2'
    os.mkfifo(pipe)
    writer = threading.Thread(target=pipe.write_bytes, args=(data,))
    writer.start()
    try:
        model = pq.load(pipe)
    finally:
        writer.join()
    np.testing.assert_array_equal(model.positions(), pq.load(data).positions())


def test_format_comes_from_magic_not_extension(tmp_path):
    path = tmp_path / 'really_an_mdl.md2'
    path.write_bytes(torch_mdl())
    assert pq.load(path).format == 'mdl'
    with pytest.raises(pq.QuakeFormatError, match='ident'):
        pq.load(b'PK\x03\x04' + bytes(100))


def test_points_are_exactly_v_times_scale_plus_translate(tetra):
    for index in range(len(tetra)):
        mesh = tetra.mesh(index)
        verts = tetra.data.alias.frame_verts[index][mesh.point_data['vertex_index']]
        expected = verts[:, :3].astype(np.float32) * np.float32([0.5, 0.25, 1.0]) + np.float32([-8, 4, 2])
        assert mesh.points.dtype == np.float32
        np.testing.assert_array_equal(mesh.points, expected)


def test_one_point_per_vertex_and_texture_coordinate_pair(tetra):
    mesh = tetra.mesh(0)
    # Vertex 0 is used with st 0 and st 4: two points; the others one each.
    assert mesh.n_points == 5
    assert mesh.point_data['vertex_index'].dtype == np.int32
    assert sorted(mesh.point_data['vertex_index']) == [0, 0, 1, 2, 3]
    assert mesh.n_cells == 4 and mesh.is_all_triangles


def test_texture_coordinates_flip_t(tetra):
    mesh = tetra.mesh(0)
    uv = mesh.active_texture_coordinates
    vertex = mesh.point_data['vertex_index']
    # vertex 2 uses st (0, 32): u = 0, v = 1 - 32/64
    np.testing.assert_allclose(uv[vertex == 2][0], [0.0, 0.5])
    # vertex 0 with st (63, 63)
    np.testing.assert_allclose(uv[vertex == 0].max(axis=0), [63 / 64, 1.0])
    np.testing.assert_allclose(uv[vertex == 0].min(axis=0), [0.0, 1 - 63 / 64])


def test_normals_come_from_the_table(tetra):
    mesh = tetra.mesh(0)
    assert mesh.point_data.active_normals_name == 'Normals'
    light = tetra.data.alias.frame_verts[0, mesh.point_data['vertex_index'], 3]
    np.testing.assert_array_equal(mesh.point_normals, VERTEX_NORMALS[light])
    np.testing.assert_allclose(np.linalg.norm(VERTEX_NORMALS, axis=1), 1, atol=1e-6)
    assert VERTEX_NORMALS.shape == (162, 3)


def test_cells_wound_outward_on_a_closed_tetrahedron(tetra):
    # tetra_md2 lists its corners clockwise seen from outside, as the game's files do.
    mesh = tetra.mesh(0)
    centre = mesh.points.mean(axis=0)
    faces = mesh.regular_faces
    a, b, c = (mesh.points[faces[:, k]] for k in range(3))
    outward = np.einsum('ij,ij->i', np.cross(b - a, c - a), (a + b + c) / 3 - centre)
    assert np.all(outward > 0)


def test_field_data(tetra):
    mesh = tetra.mesh(2)
    fd = mesh.field_data
    assert fd['format'][0] == 'md2'
    assert fd['frame_name'][0] == 'run1'
    assert fd['frame_index'][0] == 2
    assert list(fd['skin_names']) == ['models/test/skin.pcx']
    assert (fd['skin_width'][0], fd['skin_height'][0]) == (64, 64)
    assert fd['num_xyz'][0] == 4
    np.testing.assert_allclose(fd['translate'], [-8, 4, 2])


def test_field_data_survives_copy_and_vtp(tetra, tmp_path):
    mesh = tetra.mesh(1)
    path = tmp_path / 'frame.vtp'
    mesh.save(path)
    again = pv.read(path)
    assert again.field_data['frame_name'][0] == 'stand02'
    assert mesh.copy().field_data['format'][0] == 'md2'
    np.testing.assert_array_equal(again.points, mesh.points)


def test_frames_are_independent(tetra):
    first = tetra.mesh(0)
    second = tetra.mesh(0)
    first.points[:] = 0
    first.point_data['vertex_index'][:] = -1
    assert second.points.any()
    assert (second.point_data['vertex_index'] >= 0).all()
    assert (tetra.mesh(0).point_data['vertex_index'] >= 0).all()
    first.active_texture_coordinates[:] = 7
    first.regular_faces[:] = 0  # in place, through VTK's connectivity array
    np.testing.assert_array_equal(second.active_texture_coordinates, tetra.alias.topology.texcoords)
    np.testing.assert_array_equal(tetra.mesh(0).regular_faces, tetra.alias.topology.triangles)
    assert first.n_cells == second.n_cells and not (first.regular_faces == second.regular_faces).all()


def test_gl_command_frames_are_independent():
    verts = np.zeros((1, 5, 4), np.uint8)
    verts[0, :, 0] = [0, 10, 0, 10, 20]
    commands = [('strip', [(0, 0, 0), (1, 0, 1), (0, 1, 2), (1, 1, 3)]), ('fan', [(0, 0, 1), (1, 0, 4), (1, 1, 3)])]
    model = pq.load(build_md2(verts, [[0, 1, 2]], [[0, 0, 0]], [[0, 0]], glcmds=commands), glcmds=True)
    first, second = model.mesh(0), model.mesh(0)
    assert first.n_strips == second.n_strips == 1 and first.GetNumberOfPolys() == 1
    np.testing.assert_array_equal(first.strips, second.strips)
    first.cell_data['glcmd'][:] = -1
    assert (second.cell_data['glcmd'] >= 0).all() and (model.mesh(0).cell_data['glcmd'] >= 0).all()


def test_negative_and_out_of_range_frames(tetra):
    assert tetra.mesh(-1).field_data['frame_name'][0] == 'run1'
    with pytest.raises(IndexError):
        tetra.mesh(3)


def test_positions_and_normals_match_polydata(tetra):
    positions, normals = tetra.positions(), tetra.normals()
    assert positions.shape == normals.shape == (3, 5, 3)
    assert positions.dtype == normals.dtype == np.float32
    for index in range(len(tetra)):
        mesh = tetra.mesh(index)
        np.testing.assert_array_equal(positions[index], mesh.points)
        np.testing.assert_array_equal(normals[index], mesh.point_normals)
    np.testing.assert_array_equal(tetra.positions([2, 0]), positions[[2, 0]])
    np.testing.assert_array_equal(tetra.positions(slice(1, None)), positions[1:])


def test_mdl_frames(tmp_path):
    model = pq.load(torch_mdl())
    mesh = model.mesh(1)
    assert mesh.field_data['format'][0] == 'mdl'
    assert mesh.points[mesh.point_data['vertex_index'] == 3][0, 2] == 20


def test_topology_is_shared_and_built_once(tetra):
    assert tetra.alias.topology is tetra.alias.topology
    tetra.mesh(0)
    topology = tetra.alias.topology
    tetra.mesh(1)
    assert tetra.alias.topology is topology


def test_repr(tetra):
    assert 'MD2' in repr(tetra) and '3 frames' in repr(tetra)
    # The data's repr summarises: its arrays and records hold the whole file.
    text = repr(tetra.data)
    assert text.startswith('ModelData(MD2 ') and '3 frames, 4 vertices, 4 triangles, 1 skin of 64 x 64)' in text
    assert repr(tetra.data.alias).startswith('AliasData(MD2 ')
    mdl = pq.load(torch_mdl(skins=[np.zeros((8, 8), np.uint8)] * 2))
    assert repr(mdl.data).endswith(
        f'{len(mdl)} frames, {mdl.data.alias.num_vertices} vertices, {len(mdl.data.alias.triangle_vertices)} triangles, 2 skins of 8 x 8)'
    )
    assert len(repr(mdl.data)) < 200


def test_choosing_another_skin_reaches_the_frames():
    pictures = [np.full((8, 8), 10 * k, np.uint8) for k in range(3)]
    model = pq.load(torch_mdl(skins=pictures))
    before = model.mesh(0)
    model.skin = 2
    after = model.mesh(0)
    assert before.field_data['skin_index'][0] == 0 and after.field_data['skin_index'][0] == 2
    np.testing.assert_array_equal(after.quake.image(), model.alias.skin_image(2))
    assert not np.array_equal(before.quake.image(), after.quake.image())
    model.skin = None
    assert 'skin_index' not in model.mesh(0).field_data
    with pytest.raises(IndexError):
        model.skin = 5


@pytest.mark.parametrize('small', [True, False], ids=['one-broadcast', 'in-steps'])
@pytest.mark.parametrize('corner_st', [False, True], ids=['shared-st', 'an-st-per-corner'])
def test_positions_and_normals_of_every_frame_from_the_spec(corner_st, small, monkeypatch):
    """Every decoding path (few or many points per vertex; a small animation at once or in steps) gives
    ``v * scale + translate`` and the table normal of each point's vertex."""
    from pyvista_quake.data import decode  # noqa: PLC0415

    if not small:
        monkeypatch.setattr(decode, 'SMALL', 0)
    rng = np.random.default_rng(7)
    frames, vertices = 5, 4
    verts = rng.integers(0, 256, (frames, vertices, 4)).astype(np.uint8)
    verts[..., 3] = rng.integers(0, 162, (frames, vertices))
    tris = np.array([[0, 1, 2], [0, 2, 3], [0, 3, 1], [1, 3, 2], [2, 1, 0]])
    if corner_st:  # every corner its own texture coordinate: 15 points for 4 vertices
        tris_st, st = np.arange(15).reshape(5, 3), rng.integers(0, 64, (15, 2))
    else:
        tris_st, st = tris, rng.integers(0, 64, (vertices, 2))
    scale = rng.uniform(0.01, 2, (frames, 3)).astype(np.float32)
    translate = rng.uniform(-50, 50, (frames, 3)).astype(np.float32)
    model = pq.load(build_md2(verts, tris, tris_st, st, scale=scale, translate=translate))
    vertex = model.alias.topology.point_vertex
    assert (len(vertex) > 3 * vertices) == corner_st
    assert model.alias._decoder.per_vertex == corner_st  # each path of the decoder
    expected = verts[:, vertex, :3] * scale[:, None, :] + translate[:, None, :]
    np.testing.assert_allclose(model.positions(), expected, rtol=1e-6)
    np.testing.assert_array_equal(model.normals(), VERTEX_NORMALS[verts[:, vertex, 3]])
    np.testing.assert_array_equal(model.positions([3, 1]), model.positions()[[3, 1]])
    np.testing.assert_array_equal(model.positions(slice(1, 3)), model.positions()[1:3])
    np.testing.assert_array_equal(model.normals(slice(2, 5)), model.normals()[2:5])


def test_computed_vertex_normals_are_the_area_weighted_face_normals():
    """Two tilted triangles sharing an edge, in the files' clockwise order: cross products worked by hand."""
    from pyvista_quake.data.decode import vertex_face_normals  # noqa: PLC0415

    points = np.array([[[0, 0, 0], [1, 2, 3], [2, -1, 1], [3, 3, -2]]], np.float32)
    triangles = np.array([[0, 1, 2], [2, 1, 3]])
    # ac x ab for each face (clockwise from outside): its length is twice the area.
    face0 = np.cross(points[0, 2] - points[0, 0], points[0, 1] - points[0, 0])  # (2,-1,1) x (1,2,3) = (-5,-5,5)
    face1 = np.cross(points[0, 3] - points[0, 2], points[0, 1] - points[0, 2])  # (1,4,-3) x (-1,3,2) = (17,1,7)
    np.testing.assert_array_equal(face0, [-5, -5, 5])
    np.testing.assert_array_equal(face1, [17, 1, 7])
    unit = lambda v: v / np.linalg.norm(v)  # noqa: E731
    expected = np.array([unit(face0), unit(face0 + face1), unit(face0 + face1), unit(face1)])
    np.testing.assert_allclose(vertex_face_normals(points, triangles)[0], expected, atol=1e-6)


@pytest.mark.parametrize('corner_st', [False, True], ids=['shared-st', 'an-st-per-corner'])
def test_threaded_decoding_gives_the_single_threaded_values(corner_st, monkeypatch):
    """A long animation split over threads: every row from the spec, whichever thread decoded it."""
    from pyvista_quake.data import decode  # noqa: PLC0415

    rng = np.random.default_rng(11)
    frames, vertices = 97, 40
    verts = rng.integers(0, 256, (frames, vertices, 4)).astype(np.uint8)
    verts[..., 3] = rng.integers(0, 162, (frames, vertices))
    tris = np.array([[0, i, i + 1] for i in range(1, vertices - 1)] + [[0, i + 1, i] for i in range(1, vertices - 1)])
    tris_st, st = (
        (np.arange(tris.size).reshape(tris.shape), rng.integers(0, 64, (tris.size, 2))) if corner_st else (tris, rng.integers(0, 64, (vertices, 2)))
    )
    scale = rng.uniform(0.01, 2, (frames, 3)).astype(np.float32)
    translate = rng.uniform(-50, 50, (frames, 3)).astype(np.float32)
    model = pq.load(build_md2(verts, tris, tris_st, st, scale=scale, translate=translate))
    vertex = model.alias.topology.point_vertex
    assert model.alias._decoder.per_vertex == corner_st  # each path of the decoder
    # Small thresholds, so this small model takes the threaded path, with shares of unequal size.
    monkeypatch.setattr(decode, 'PARALLEL_FROM', 64)
    monkeypatch.setattr(decode, 'CHUNK', 500)
    calls = []
    original = decode.FrameDecoder._positions_into
    monkeypatch.setattr(
        decode.FrameDecoder, '_positions_into', lambda self, index, run, out: calls.append(len(index)) or original(self, index, run, out)
    )
    decode.set_threads(3)
    try:
        positions, normals = model.positions(), model.normals()
        picked = model.positions([90, 3, 50, 4, 4, 7])
    finally:
        decode.set_threads(None)
    # Three shares of every frame for positions(), three of the six picked ones.
    assert len(calls) == 6 and sum(calls[:3]) == frames and sum(calls[3:]) == 6 and min(calls) > 0
    expected = verts[:, vertex, :3] * scale[:, None, :] + translate[:, None, :]
    np.testing.assert_array_equal(positions, expected.astype(np.float32))
    np.testing.assert_array_equal(normals, VERTEX_NORMALS[verts[:, vertex, 3]])
    np.testing.assert_array_equal(picked, positions[[90, 3, 50, 4, 4, 7]])


def test_decoding_threads_setting(monkeypatch):
    from pyvista_quake.data import decode  # noqa: PLC0415

    monkeypatch.setenv(decode.THREADS_VARIABLE, '3')
    assert decode.threads() == 3
    decode.set_threads(1)
    try:
        assert decode.threads() == 1
    finally:
        decode.set_threads(None)
    monkeypatch.setenv(decode.THREADS_VARIABLE, 'many')  # not a number: the default
    assert 1 <= decode.threads() <= 4
    # The default: the processors this process may use, at most 4.
    for processors, expected in ((1, 1), (3, 3), (16, 4)):
        monkeypatch.setattr(decode.os, 'sched_getaffinity', lambda pid, n=processors: set(range(n)), raising=False)
        assert decode.threads() == expected
    for bad in (0, -2, 1.5):
        with pytest.raises(ValueError, match='threads must be a positive integer'):
            decode.set_threads(bad)


def test_a_forked_child_makes_its_own_decoding_threads(monkeypatch):
    """Threads do not survive a fork: a child process must not submit to its parent's pool."""
    from pyvista_quake.data import decode  # noqa: PLC0415

    parent = decode._executor(2)
    assert decode._executor(2) is parent and decode._executor(1) is parent
    larger = decode._executor(3)  # more threads asked for: a larger pool replaces it
    assert larger is not parent and decode._executor(2) is larger
    assert larger.submit(sum, [1, 2]).result() == 3
    monkeypatch.setattr(decode.os, 'getpid', lambda: -1)
    assert decode._executor(2) is not larger


def test_decoding_falls_back_to_the_calling_thread_when_no_thread_starts(monkeypatch):
    """At interpreter shutdown (or where threads do not exist) submitting work raises: the frames are still decoded."""
    from pyvista_quake.data import decode  # noqa: PLC0415

    refused = []

    class Refusing:
        def __init__(self, after: int) -> None:
            self.after = after

        def submit(self, *args):
            if self.after == 0:
                refused.append(args)
                raise RuntimeError('cannot schedule new futures after interpreter shutdown')
            self.after -= 1
            return decode.ThreadPoolExecutor(1).submit(*args)

    verts = np.random.default_rng(3).integers(0, 162, (40, 4, 4)).astype(np.uint8)
    model = pq.load(tetra_md2(verts=verts, names=[f'frame{i}' for i in range(40)]))
    expected_positions, expected_normals = model.positions(), model.normals()
    monkeypatch.setattr(decode, 'PARALLEL_FROM', 8)
    monkeypatch.setattr(decode, 'SMALL', 0)  # this small model would be decoded at once, without threads
    decode.set_threads(4)
    try:
        for after in (0, 1, 2):
            monkeypatch.setattr(decode, '_executor', lambda count, after=after: Refusing(after))
            np.testing.assert_array_equal(model.positions(), expected_positions)
            np.testing.assert_array_equal(model.normals(), expected_normals)
    finally:
        decode.set_threads(None)
    assert len(refused) == 6  # each call met a refusal: after 0, 1 and 2 shares handed out


def test_computed_normals_of_a_degenerate_triangle_fall_back_to_the_table():
    """Vertices only a zero-area triangle uses have no face normal: they keep their table normal, never NaN."""
    verts = np.array([[[0, 0, 0, 3], [200, 0, 0, 7], [0, 200, 0, 11], [9, 9, 9, 40], [9, 9, 9, 41], [9, 9, 9, 42]]], np.uint8)
    tris = [[0, 1, 2], [3, 4, 5]]  # the second: three vertices at one place
    model = pq.load(build_md2(verts, tris, tris, np.zeros((6, 2), int)), normals='computed')
    normals = model.normals()[0]
    vertex = model.alias.topology.point_vertex
    assert np.isfinite(normals).all()
    degenerate = vertex >= 3
    np.testing.assert_array_equal(normals[degenerate], VERTEX_NORMALS[verts[0, vertex[degenerate], 3]])
    np.testing.assert_allclose(np.abs(normals[~degenerate][:, 2]), 1, atol=1e-6)  # the flat triangle's normal is +-z
