"""MD2 parsing: header, sections, frames, GL commands and every structural check."""

from __future__ import annotations

import struct

from builders import build_md2
from builders import tetra_md2
from builders import torch_mdl
import numpy as np
import pytest

import pyvista_quake as pq
from pyvista_quake.formats import md2
from pyvista_quake.formats import parse_buffer


def test_header_fields_are_kept():
    model = pq.load(tetra_md2(skinwidth=128, skinheight=96))
    h = model.header
    assert h['ident'] == 'IDP2'
    assert h['version'] == 8
    assert (h['skinwidth'], h['skinheight']) == (128, 96)
    assert (h['num_xyz'], h['num_st'], h['num_tris'], h['num_frames'], h['num_skins']) == (4, 5, 4, 3, 1)
    assert h['framesize'] == 40 + 4 * 4
    assert h['ofs_skins'] == 68
    assert model.alias.skin_names == ['models/test/skin.pcx']
    assert model.alias.skin_size == (128, 96)
    assert model.frame_names == ['stand01', 'stand02', 'run1']
    assert len(model) == 3


def test_worked_example_vertex():
    # md2-format.txt: 40 C0 20 05 with scale 0.5 and translate -32, -32, -16 is (0, 64, 0), normal 5 = +z.
    verts = np.array([[[0x40, 0xC0, 0x20, 0x05], [0, 0, 0, 5], [1, 1, 1, 5]]], np.uint8)
    data = build_md2(verts, [[0, 1, 2]], [[0, 0, 0]], [[0, 0]], scale=[0.5] * 3, translate=[-32, -32, -16])
    model = pq.load(data)
    mesh = model.mesh(0)
    point = np.flatnonzero(mesh.point_data['vertex_index'] == 0)[0]
    assert mesh.points.dtype == np.float32
    np.testing.assert_array_equal(mesh.points[point], [0, 64, 0])
    np.testing.assert_allclose(mesh.point_data['Normals'][point], [0, 0, 1])


def test_worked_example_fan_of_three():
    verts = np.zeros((1, 3, 4), np.uint8)
    fan = [('fan', [(0.5, 0.25, 0), (1.0, 0.25, 1), (0.5, 1.0, 2)])]
    data = build_md2(verts, [[0, 1, 2]], [[0, 0, 0]], [[0, 0]], glcmds=fan)
    words = np.frombuffer(data, '<i4')
    header = np.frombuffer(data, md2.HEADER, 1)[0]
    first = header['ofs_glcmds'] // 4
    assert words[first] == -3  # FD FF FF FF
    assert data[4 * first + 4 : 4 * first + 16] == bytes.fromhex('0000003F0000803E00000000')
    commands = pq.load(data).alias.gl_commands
    assert len(commands) == 1
    assert commands[0].kind == 'fan'
    np.testing.assert_array_equal(commands[0].vertices, [0, 1, 2])
    np.testing.assert_allclose(commands[0].texcoords[0], [0.5, 0.25])


def test_glcmds_strips_and_fans_mesh():
    verts = np.zeros((1, 5, 4), np.uint8)
    verts[0, :, 0] = [0, 10, 0, 10, 20]
    verts[0, :, 1] = [0, 0, 10, 10, 0]
    commands = [
        ('strip', [(0, 0, 0), (1, 0, 1), (0, 1, 2), (1, 1, 3)]),
        ('fan', [(0, 0, 1), (1, 0, 4), (1, 1, 3)]),
    ]
    data = build_md2(verts, [[0, 1, 2]], [[0, 0, 0]], [[0, 0]], glcmds=commands)
    mesh = pq.load(data, glcmds=True).mesh(0)
    assert mesh.n_points == 7  # one point per command vertex
    assert mesh.n_strips == 1 and mesh.n_faces == 1
    np.testing.assert_array_equal(mesh.point_data['vertex_index'], [0, 1, 2, 3, 1, 4, 3])
    # Commands' own float coordinates, t flipped to VTK's bottom-up v.
    np.testing.assert_allclose(mesh.active_texture_coordinates[1], [1, 1])
    np.testing.assert_allclose(mesh.active_texture_coordinates[3], [1, 0])
    # Wound like the triangles: flipped from the file's clockwise order, so every
    # cell's normal points the same way (-z here, since the file lists them anticlockwise).
    corners = mesh.triangulate().regular_faces
    a, b, c = (mesh.points[corners[:, k]] for k in range(3))
    z = np.cross(b - a, c - a)[:, 2]
    assert np.count_nonzero(z) == 3  # the fan and the strip's two triangles (a repeat adds a degenerate one)
    assert np.all(z[z != 0] < 0)


def test_glcmds_without_their_zero_word_and_past_the_end():
    """A list whose last command ends exactly at num_glcmds (no zero word) keeps that command; a list whose
    offset lies past the end of the file holds nothing, and the model loads."""
    verts = np.zeros((1, 3, 4), np.uint8)
    data = build_md2(verts, [[0, 1, 2]], [[0, 0, 0]], [[0, 0]], glcmds=[('strip', [(0, 0, 0), (0, 0, 1), (0, 0, 2)])])
    header = np.frombuffer(data, md2.HEADER, 1)[0]
    assert header['num_glcmds'] == 1 + 3 * 3 + 1
    unended = bytearray(data)
    struct.pack_into('<i', unended, 36, 1 + 3 * 3)  # the zero word left outside the list
    assert [len(c.vertices) for c in pq.load(bytes(unended)).alias.gl_commands] == [3]
    away = bytearray(data)
    struct.pack_into('<i', away, 60, len(data) + 400)  # ofs_glcmds
    model = pq.load(bytes(away))
    assert model.alias.gl_commands == [] and len(model.alias.topology.point_vertex) == 3


def test_write_refuses_records_that_disagree_with_their_header():
    record = md2.parse(tetra_md2())
    assert md2.write(record) == tetra_md2()
    for field in ('num_tris', 'num_st', 'num_frames', 'num_skins'):
        for change in (1, -1):
            changed = md2.parse(tetra_md2())
            changed.header[field] += change
            with pytest.raises(ValueError, match=f'header {field} = '):
                md2.write(changed)
    commands = md2.parse(
        build_md2(np.zeros((1, 3, 4), np.uint8), [[0, 1, 2]], [[0, 0, 0]], [[0, 0]], glcmds=[('fan', [(0, 0, 0), (0, 0, 1), (0, 0, 2)])])
    )
    commands.header['num_glcmds'] -= 1  # fewer in the header than the records hold
    with pytest.raises(ValueError, match='header num_glcmds = '):
        md2.write(commands)


def test_glcmds_stop_at_zero_word_and_accept_empty_list():
    verts = np.zeros((1, 3, 4), np.uint8)
    data = build_md2(verts, [[0, 1, 2]], [[0, 0, 0]], [[0, 0]], glcmds=[('strip', [(0, 0, 0), (0, 0, 1), (0, 0, 2)])])
    data += b'\xff' * 8  # junk after the zero word, inside num_glcmds
    header = np.frombuffer(data, md2.HEADER, 1)[0]
    patched = bytearray(data)
    struct.pack_into('<i', patched, 36, int(header['num_glcmds']) + 2)
    assert len(pq.load(bytes(patched)).alias.gl_commands) == 1
    empty = pq.load(build_md2(verts, [[0, 1, 2]], [[0, 0, 0]], [[0, 0]]))
    assert empty.header['num_glcmds'] == 0 and empty.alias.gl_commands == []
    with pytest.raises(pq.QuakeFormatError, match='num_glcmds = 0: the model has no OpenGL commands'):
        pq.load(build_md2(verts, [[0, 1, 2]], [[0, 0, 0]], [[0, 0]]), glcmds=True).mesh(0)


@pytest.mark.parametrize(
    'order',
    [
        ('skins', 'st', 'tris', 'frames', 'glcmds'),
        ('glcmds', 'skins', 'frames', 'tris', 'st'),
        ('frames', 'glcmds', 'st', 'skins', 'tris'),
    ],
)
def test_section_orders(order):
    reference = pq.load(tetra_md2())
    model = pq.load(tetra_md2(order=order, glcmds=[('fan', [(0, 0, 0), (0, 0, 1), (0, 0, 2)])]))
    np.testing.assert_array_equal(model.positions(), reference.positions())
    assert model.alias.skin_names == reference.alias.skin_names
    assert len(model.alias.gl_commands) == 1


def test_frame_padding_beyond_framesize_minimum():
    reference = pq.load(tetra_md2())
    padded = pq.load(tetra_md2(frame_padding=12))
    assert padded.header['framesize'] == reference.header['framesize'] + 12
    np.testing.assert_array_equal(padded.positions(), reference.positions())


def test_frames_stay_packed_views():
    model = pq.load(tetra_md2())
    assert model.data.alias.frame_verts.dtype == np.uint8
    assert model.data.alias.frame_verts.shape == (3, 4, 4)
    assert model.data.alias.frame_verts.base is not None  # a view over the file's bytes, not a decoded copy


def test_trailing_data_is_kept():
    model = pq.load(tetra_md2(trailing=b'JUNK1234'))
    assert model.alias.trailing == b'JUNK1234'


def test_skin_name_junk_after_zero_is_dropped():
    data = bytearray(tetra_md2())
    data[68 + 25 : 68 + 30] = b'XXXXX'  # after the name's zero byte
    assert pq.load(bytes(data)).alias.skin_names == ['models/test/skin.pcx']


# -- structural checks: one test each ---------------------------------------------


def _with_header(**fields):
    return tetra_md2(header=fields)


@pytest.mark.parametrize(
    ('data', 'field'),
    [
        (b'IDP2\x08\x00', 'header'),
        (_with_header(ident=b'IDST'), 'ident'),  # another format's magic (an MD3's IDP3 is read as MD3 now)
        (_with_header(version=7), 'version'),
        (_with_header(num_skins=-1), 'num_skins'),
        (_with_header(num_xyz=0), 'num_xyz'),
        (_with_header(num_xyz=-5), 'num_xyz'),
        (_with_header(num_st=0), 'num_st'),
        (_with_header(num_tris=0), 'num_tris'),
        (_with_header(num_frames=0), 'num_frames'),
        (_with_header(num_glcmds=-1), 'num_glcmds'),
        (_with_header(framesize=40), 'framesize'),
        (_with_header(num_frames=2**30), 'ofs_frames'),
        (_with_header(num_tris=2**31 - 1), 'ofs_tris'),
        (_with_header(ofs_st=2**31 - 1), 'ofs_st'),
        (_with_header(ofs_tris=-4), 'ofs_tris'),
        (_with_header(ofs_skins=10), 'ofs_skins'),
        (_with_header(ofs_frames=10**6), 'ofs_frames'),
    ],
    ids=lambda v: v if isinstance(v, str) else '',
)
def test_structural_faults(data, field):
    with pytest.raises(pq.QuakeFormatError) as info:
        pq.load(data)
    assert info.value.field == field
    assert '<bytes>' in str(info.value) and field in str(info.value)
    assert isinstance(info.value, ValueError)


def test_index_out_of_range():
    with pytest.raises(pq.QuakeFormatError, match=r'index_xyz = 4: index out of range 0\.\.3'):  # 4 vertices
        pq.load(tetra_md2(tris_xyz=[[0, 1, 2], [0, 3, 1], [0, 2, 4], [1, 3, 2]]))
    with pytest.raises(pq.QuakeFormatError, match='index_st = -1'):
        pq.load(tetra_md2(tris_st=[[0, 1, 2], [0, 3, 1], [4, 2, -1], [1, 3, 2]]))


def test_indices_at_the_edges_of_their_range():
    """The last index of each column loads; one past it, or a negative one, is refused -- also where the
    count is beyond what a short holds (an index from 32768 up reads as negative)."""
    model = pq.load(tetra_md2(tris_st=[[0, 1, 2], [0, 3, 1], [4, 2, 3], [1, 3, 2]]))  # st 4 is the last of 5
    assert len(model.alias.topology.point_vertex) == 5
    with pytest.raises(pq.QuakeFormatError, match='index_st = 5'):
        pq.load(tetra_md2(tris_st=[[0, 1, 2], [0, 3, 1], [5, 2, 3], [1, 3, 2]]))
    many_st = np.zeros((40000, 2), int)
    assert len(pq.load(tetra_md2(st=many_st, tris_st=[[0, 1, 2], [0, 3, 1], [32767, 2, 3], [1, 3, 2]])).alias.topology.point_vertex) == 5
    for negative in (-1, -32768):
        with pytest.raises(pq.QuakeFormatError, match=f'index_st = {negative}'):
            pq.load(tetra_md2(st=many_st, tris_st=[[0, 1, 2], [0, 3, 1], [negative, 2, 3], [1, 3, 2]]))
    with pytest.raises(pq.QuakeFormatError, match='index_xyz = 3'):
        pq.load(tetra_md2(verts=np.zeros((1, 3, 4), np.uint8), tris_xyz=[[0, 1, 2], [0, 3, 1], [0, 2, 1], [1, 0, 2]]))


def test_truncated_frames():
    data = tetra_md2()
    with pytest.raises(pq.QuakeFormatError, match='ofs_frames'):
        pq.load(data[:-10])


def test_non_finite_scale():
    with pytest.raises(pq.QuakeFormatError, match='frame scale'):
        pq.load(tetra_md2(scale=[np.nan, 1, 1]))
    with pytest.raises(pq.QuakeFormatError, match='frame translate'):
        pq.load(tetra_md2(translate=[np.inf, 1, 1]))


def test_glcmd_faults():
    verts = np.zeros((1, 3, 4), np.uint8)
    overrun = build_md2(verts, [[0, 1, 2]], [[0, 0, 0]], [[0, 0]], glcmds=[('strip', [(0, 0, 0)] * 3)])
    header = np.frombuffer(overrun, md2.HEADER, 1)[0]
    patched = bytearray(overrun)
    struct.pack_into('<i', patched, int(header['ofs_glcmds']), 50)
    with pytest.raises(pq.QuakeFormatError, match='glcmds = 50'):
        pq.load(bytes(patched)).gl_commands
    bad_index = build_md2(verts, [[0, 1, 2]], [[0, 0, 0]], [[0, 0]], glcmds=[('fan', [(0, 0, 0), (0, 0, 1), (0, 0, 9)])])
    with pytest.raises(pq.QuakeFormatError, match='glcmds vertex index = 9'):
        pq.load(bad_index).gl_commands


def test_counts_are_checked_before_allocation():
    # A header that claims 2**31 - 1 frames of 2**31 - 1 bytes fails on its bounds, fast, with no allocation.
    data = _with_header(num_frames=2**31 - 1, framesize=2**31 - 1)
    with pytest.raises(pq.QuakeFormatError, match='ofs_frames'):
        pq.load(data)


# -- strict: an engine's limits (see test_engines.py for every rule) ----------------------


@pytest.mark.parametrize(
    ('fields', 'field', 'engine'),
    [
        ({'skinheight': 481}, 'skinheight', 'quake2'),
        ({'num_xyz': 2049}, 'num_xyz', 'yquake2'),
    ],
)
def test_strict_refuses_what_the_engine_refuses(fields, field, engine):
    n = fields.get('num_xyz', 4)
    verts = np.zeros((1, n, 4), np.uint8)
    data = build_md2(verts, [[0, 1, 2]], [[0, 0, 0]], [[0, 0]], skinheight=fields.get('skinheight', 64))
    pq.load(data)  # not an error by default: real models exceed the limits
    with pytest.raises(pq.QuakeFormatError, match=f'{field}.*refuses.*strict'):
        pq.load(data, strict=True)
    with pytest.raises(pq.QuakeFormatError, match=field):
        pq.load(data, strict=engine)
    with pytest.raises(pq.QuakeFormatError, match='cannot load Quake II'):
        pq.load(data, strict='quake')  # a Quake 1 engine cannot load an MD2 at all


def test_limits_no_quake2_loader_checks_are_not_refused():
    # MAX_TRIANGLES, MAX_FRAMES: never checked by Quake II's loader (ref_gl/gl_model.c Mod_LoadAliasModel).
    verts = np.zeros((513, 3, 4), np.uint8)
    data = build_md2(verts, [[0, 1, 2]] * 4097, [[0, 0, 0]] * 4097, [[0, 0]])
    assert len(pq.load(data, strict=True)) == 513


def test_unterminated_skin_name_loads():
    data = tetra_md2(skins=['x' * 64])
    assert pq.load(data, strict=True).alias.skin_names == ['x' * 64]


@pytest.mark.parametrize('index', [162, 200], ids=['first-past', 'far-past'])
def test_normal_index_past_table_warns(index):
    frames = np.array([[[0, 0, 0, 0], [255, 0, 0, index], [0, 255, 0, 2], [0, 0, 255, 5]]] * 3, np.uint8)
    data = tetra_md2(verts=frames)
    model = pq.load(data, strict=True)  # misdrawn, never refused: no engine checks it
    with pytest.warns(pq.QuakeWarning, match=f'1 vertex normals index past the 162-entry normal table \\(up to {index}\\)'):
        mesh = model.mesh(0)
    normals = mesh.point_data['Normals']
    np.testing.assert_allclose(np.linalg.norm(normals, axis=1), 1, atol=1e-5)
    # Vertex 1 of the tetrahedron (at +x) takes the mean of its faces' normals: pointing away from the centre.
    point = np.flatnonzero(mesh.point_data['vertex_index'] == 1)[0]
    centre = mesh.points.mean(axis=0)
    assert np.dot(normals[point], mesh.points[point] - centre) > 0
    assert any(f.field == 'lightnormalindex' and f.effect == 'misdraws' for f in pq.check(data))


@pytest.mark.parametrize('build', [tetra_md2, torch_mdl], ids=['md2', 'mdl'])
def test_a_binary_file_saved_as_text_says_so(build):
    """Files committed or downloaded as UTF-8 text (bytes that are not text turn into EF BF BD) are refused with the cause named."""
    mangled = build().decode('utf-8', errors='replace').encode('utf-8')
    with pytest.raises(pq.QuakeFormatError, match='saved or downloaded as text') as error:
        pq.load(mangled)
    assert error.value.field and error.value.source == '<bytes>'
    with pytest.raises(pq.QuakeFormatError, match='saved or downloaded as text'):
        parse_buffer(mangled, '<bytes>')  # the writers' and the engine checks' way in
    with pytest.raises(pq.QuakeFormatError) as plain:
        pq.load(build()[:60])  # an ordinary fault gets no such hint
    assert 'text' not in str(plain.value)


def test_a_built_command_list_is_its_commands_and_one_zero_word(tmp_path):
    """An MD2 written from a model without GL commands (here an MDL) gets a fresh list: a count word and three
    words a vertex for each command, one zero word, nothing more."""
    pq.load(torch_mdl()).save(tmp_path / 'torch.md2')
    model = pq.load(tmp_path / 'torch.md2')
    commands = model.alias.gl_commands
    assert commands and sum(len(c.vertices) - 2 for c in commands) == len(model.data.alias.triangle_vertices)
    assert model.header['num_glcmds'] == sum(1 + 3 * len(c.vertices) for c in commands) + 1
    words = model.data.file.glcmds
    assert words[-1] == 0


def test_each_alias_format_s_read_is_its_parse_then_its_record():
    from pyvista_quake.formats import mdl

    for module, data, game in ((md2, tetra_md2(), 'Quake II'), (mdl, torch_mdl(), 'Quake')):
        got, expected = module.read(data, 'x'), module.to_data(module.parse(data, 'x'))
        assert isinstance(got, pq.ModelData) and got.alias is not None
        assert got.source == 'x' and got.format == expected.format == module.__name__.rsplit('.', 1)[1]
        np.testing.assert_array_equal(got.alias.frame_verts, expected.frame_verts)
        np.testing.assert_array_equal(got.surfaces[0].packing.verts, expected.frame_verts)
        assert module.read(data).source == '<bytes>'
        assert f'If no {game} engine could draw the file' in module.read.__doc__
    with pytest.raises(pq.QuakeFormatError, match='ident'):
        md2.read(torch_mdl(), 'y.md2')
