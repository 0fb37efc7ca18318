"""Writing MD2 and MDL: byte-for-byte saves, edits, models from meshes, safe writes."""

from __future__ import annotations

import os
from pathlib import Path
import warnings

from builders import build_md2
from builders import build_mdl
from builders import tetra_md2
from builders import torch_mdl
from conftest import corpus_models
from conftest import requires_corpus
import numpy as np
from PIL import Image
import pytest
import pyvista as pv

import pyvista_quake as pq
from pyvista_quake.cli.main import main as cli_main
from pyvista_quake.formats import md2
from pyvista_quake.formats import mdl
from pyvista_quake.formats.tables import VERTEX_NORMALS


def saved(model: pq.QuakeModel, tmp_path: Path, name: str) -> bytes:
    path = tmp_path / name
    model.save(path)
    return path.read_bytes()


def quiet_load(source, **options) -> pq.QuakeModel:
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', pq.QuakeWarning)
        return pq.load(source, **options)


# -- every byte kept ------------------------------------------------------------------------


@pytest.mark.parametrize(
    'data',
    [
        tetra_md2(),
        tetra_md2(order=('glcmds', 'frames', 'tris', 'st', 'skins'), glcmds=[('strip', [(0.1, 0.2, 0), (0.3, 0.4, 1), (0.5, 0.6, 2)])]),
        tetra_md2(frame_padding=12, trailing=b'QMEX and more'),
        tetra_md2(skins=['a/b.pcx', 'c.pcx']),
        tetra_md2(names=['stand01\0junk!!', 'x', 'y']),
    ],
    ids=['plain', 'reordered', 'padded-trailing', 'two-skins', 'junk-after-name'],
)
def test_md2_written_back_byte_for_byte(data, tmp_path):
    assert md2.write(md2.parse(data)) == data
    assert saved(pq.load(data), tmp_path, 'm.md2') == data


def test_md2_gaps_between_sections_are_kept(tmp_path):
    data = bytearray(tetra_md2())
    h = md2.parse(bytes(data)).header[0]
    # Move the frames 7 bytes further out, with junk in the hole.
    start = int(h['ofs_frames'])
    size = int(h['num_frames']) * int(h['framesize'])
    frames = bytes(data[start : start + size])
    data[start : start + size] = b'GAPGAPG' + frames[:-7]
    data += frames[-7:]
    data[56:60] = np.int32(start + 7).tobytes()  # ofs_frames
    data = bytes(data)
    model = pq.load(data)
    assert model.frame_names == ['stand01', 'stand02', 'run1']
    assert saved(model, tmp_path, 'm.md2') == data


@pytest.mark.parametrize(
    'data',
    [
        torch_mdl(),
        torch_mdl(trailing=b'QMEX' + bytes(range(20))),
        torch_mdl(skins=[np.arange(64, dtype=np.uint8).reshape(8, 8), ([0.1, 0.3], np.ones((2, 8, 8), np.uint8))]),
        torch_mdl(
            frames=[
                ('single', 'a\0zz', np.zeros((4, 4), np.uint8)),
                ('group', [0.1, 0.2], [('b', np.ones((4, 4), np.uint8)), ('c', np.ones((4, 4), np.uint8))]),
            ]
        ),
    ],
    ids=['torch', 'qmex', 'skin-group', 'single-and-group'],
)
def test_mdl_written_back_byte_for_byte(data, tmp_path):
    assert mdl.write(mdl.parse(data)) == data
    assert saved(pq.load(data), tmp_path, 'm.mdl') == data


@requires_corpus
@pytest.mark.corpus
@pytest.mark.parametrize('path', [p for p in corpus_models() if 'malformed' not in p.name], ids=lambda p: p.name)
def test_corpus_models_written_back_byte_for_byte(path, tmp_path):
    model = quiet_load(path)
    assert saved(model, tmp_path, 'copy' + path.suffix) == path.read_bytes()


def test_save_through_the_package_function_and_upper_case_extension(tmp_path):
    data = torch_mdl()
    pq.save(pq.load(data), tmp_path / 'TORCH.MDL')
    assert (tmp_path / 'TORCH.MDL').read_bytes() == data


# -- editing --------------------------------------------------------------------------------


def test_md2_frame_moved_within_half_a_step_of_its_own_bounds(tmp_path):
    model = pq.load(tetra_md2())
    rng = np.random.default_rng(1)
    target = rng.uniform(-40, 70, (4, 3)).astype(np.float32)
    model.set_frame(1, target)
    step = model.data.alias.frame_scale[1]
    np.testing.assert_allclose(model.data.alias.frame_translate[1], target.min(axis=0), rtol=0, atol=1e-5)
    np.testing.assert_allclose(step * 255 + model.data.alias.frame_translate[1], target.max(axis=0), rtol=1e-5)
    error = np.abs(model.vertex_positions(1)[0] - target)
    assert (error <= step / 2 + 1e-4).all()
    # The other frames keep their bytes.
    original = pq.load(tetra_md2())
    np.testing.assert_array_equal(model.data.alias.frame_verts[[0, 2]], original.data.alias.frame_verts[[0, 2]])
    reread = pq.load(saved(model, tmp_path, 'm.md2'))
    np.testing.assert_array_equal(reread.vertex_positions(), model.vertex_positions())


def test_mdl_frame_inside_the_grid_keeps_the_others(tmp_path):
    model = pq.load(torch_mdl())
    before = np.array(model.data.alias.frame_verts)
    target = model.vertex_positions(0)[0] + 0.3
    model.set_frame(0, target)
    assert np.abs(model.vertex_positions(0)[0] - target).max() <= 0.5 + 1e-5  # scale 1
    np.testing.assert_array_equal(model.data.alias.frame_verts[1], before[1])


def test_mdl_frame_outside_the_grid_grows_the_shared_scale(tmp_path):
    model = pq.load(torch_mdl())
    others = model.vertex_positions(1)[0]
    target = model.vertex_positions(0)[0] * 40 - 100
    model.set_frame(0, target)
    scale = model.data.alias.frame_scale[0]
    np.testing.assert_array_equal(model.data.alias.frame_scale[1], scale)  # one scale for the model
    assert (np.abs(model.vertex_positions(0)[0] - target) <= scale / 2 + 1e-4).all()
    assert (np.abs(model.vertex_positions(1)[0] - others) <= scale / 2 + 1e-4).all()
    reread = pq.load(saved(model, tmp_path, 'm.mdl'))
    assert reread.header['boundingradius'] == pytest.approx(np.linalg.norm(model.vertex_positions(), axis=-1).max(), rel=1e-5)


def test_positions_from_polydata_and_points():
    model = pq.load(tetra_md2())
    mesh = model.mesh(2)
    mesh.points *= 2
    model.set_frame(2, mesh)
    step = model.data.alias.frame_scale[2]
    assert (np.abs(model.mesh(2).points - mesh.points) <= step / 2 + 1e-4).all()


def test_given_normals_go_to_the_nearest_table_entry():
    model = pq.load(tetra_md2())
    normals = VERTEX_NORMALS[[10, 20, 30, 40]] + 0.01
    model.set_frame(0, model.vertex_positions(0)[0], normals)
    np.testing.assert_array_equal(model.data.alias.frame_verts[0, :, 3], [10, 20, 30, 40])


def test_computed_normals_point_out_of_a_closed_mesh():
    model = pq.QuakeModel.from_frames(pv.Sphere(radius=10), 'md2')
    normals = model.normals(0)[0]
    points = model.positions(0)[0]
    outward = np.einsum('ij,ij->i', normals, points / np.linalg.norm(points, axis=1, keepdims=True))
    assert (outward > 0.9).all()


def test_rename_add_and_remove_frames(tmp_path):
    model = pq.load(tetra_md2())
    model.rename_frame(0, 'idle01')
    model.add_frames([model.vertex_positions(0)[0] + 1, model.vertex_positions(0)[0] + 2], names=['pain1', 'pain2'], at=1)
    assert model.frame_names == ['idle01', 'pain1', 'pain2', 'stand02', 'run1']
    model.remove_frames([3])
    assert model.frame_names == ['idle01', 'pain1', 'pain2', 'run1']
    reread = pq.load(saved(model, tmp_path, 'm.md2'))
    assert reread.frame_names == ['idle01', 'pain1', 'pain2', 'run1']
    assert 'pain' in reread.animations and len(reread.animations['pain']) == 2
    with pytest.raises(ValueError, match='longer than 15'):
        model.rename_frame(0, 'a_name_far_too_long')
    with pytest.raises(ValueError, match='at least one frame'):
        model.remove_frames(slice(None))


def test_mdl_groups_survive_edits_with_their_intervals(tmp_path):
    model = pq.load(torch_mdl())
    model.add_frames([model.vertex_positions(0)[0]], names=['after'])
    model.alias.set_frame_groups([(0, 2, [0.25, 0.5])])
    reread = pq.load(saved(model, tmp_path, 'm.mdl'))
    group = reread.data.alias.frame_groups[0]
    assert (group.start, group.count) == (0, 2)
    np.testing.assert_allclose(group.intervals, [0.25, 0.5])
    assert reread.frame_names == ['torch1', 'torch2', 'after']
    model.remove_frames([0])
    assert model.data.alias.frame_groups[0].count == 1
    with pytest.raises(ValueError, match='only MDL'):
        pq.load(tetra_md2()).alias.set_frame_groups([(0, 2, [0.1, 0.2])])


def test_saving_a_saved_edit_is_byte_identical(tmp_path):
    for data, suffix in ((tetra_md2(), '.md2'), (torch_mdl(), '.mdl')):
        model = pq.load(data)
        model.set_frame(0, model.vertex_positions(0)[0] * 3 + 1)
        first = saved(model, tmp_path, 'a' + suffix)
        assert saved(pq.load(first), tmp_path, 'b' + suffix) == first


def test_mdl_skin_from_rgb_is_matched_to_the_palette(tmp_path):
    model = pq.load(torch_mdl())
    palette = model.alias.palette
    indices = np.arange(64, dtype=np.uint8).reshape(8, 8) + 100
    model.alias.set_skin(0, palette[indices])
    reread = pq.load(saved(model, tmp_path, 'm.mdl'))
    # Quake's palette repeats a few colours: the colour is what must survive.
    np.testing.assert_array_equal(palette[reread.data.alias.skins[0].pictures[0]], palette[indices])
    assert (reread.data.alias.skins[0].pictures[0] == indices).mean() > 0.9
    model.alias.set_skin(1, indices)  # palette indices given directly: a second skin
    assert model.alias.num_skins == 2


def test_md2_skin_image_is_written_beside_the_model(tmp_path):
    model = pq.load(tetra_md2())
    image = np.zeros((64, 64, 3), np.uint8)
    image[:32, :32] = (255, 0, 0)
    model.alias.set_skin(0, image)
    assert model.alias.skin_names == ['models/test/skin.png']
    model.save(tmp_path / 'tris.md2')
    assert (tmp_path / 'skin.png').is_file()
    np.testing.assert_array_equal(pq.load(tmp_path / 'tris.md2').alias.skin_image(), image)


def test_a_skin_of_another_size_scales_the_texture_coordinates(tmp_path):
    model = pq.load(tetra_md2())  # a 64 x 64 skin
    before = model.mesh(0).active_texture_coordinates.copy()
    st = np.array(model.data.alias.triangle_st)
    model.alias.set_skin(0, np.zeros((32, 128, 3), np.uint8))  # twice as wide, half as tall
    assert model.alias.skin_size == (128, 32)
    np.testing.assert_array_equal(model.data.alias.triangle_st, np.rint(st * [2, 0.5]).astype(np.int32))
    np.testing.assert_allclose(model.mesh(0).active_texture_coordinates, before, atol=0.5 / 32)
    reread = pq.load(saved(model, tmp_path, 'm.md2'))
    np.testing.assert_allclose(reread.mesh(0).active_texture_coordinates, before, atol=0.5 / 32)


def test_an_md2_skin_found_beside_it_goes_into_the_converted_mdl(tmp_path):

    (tmp_path / 'tris.md2').write_bytes(tetra_md2(skins=[]))  # names no skin
    image = np.zeros((64, 64, 3), np.uint8)
    image[:, 32:] = (255, 255, 255)
    Image.fromarray(image).save(tmp_path / 'tris.png')  # the image named after the model
    model = quiet_load(tmp_path / 'tris.md2')
    model.save(tmp_path / 'tris.mdl')
    skin = pq.load(tmp_path / 'tris.mdl').alias.skin_image()
    assert skin.shape == (64, 64, 3) and skin[:, :32].max() < 40 and skin[:, 32:].min() > 200  # through the palette


def test_an_md2_skin_image_of_another_size_than_the_header_converts_to_mdl(tmp_path):
    """Quake II stretches any image over the header's skin size (real models ship 640 x 200 images
    for a 320 x 100 header): the MDL embeds it at the header's size, texture coordinates unchanged."""

    (tmp_path / 'tris.md2').write_bytes(tetra_md2(skins=[]))  # a 64 x 64 header, names no skin
    image = np.zeros((128, 256, 3), np.uint8)  # twice as tall, four times as wide
    image[:, 128:] = (255, 255, 255)
    Image.fromarray(image).save(tmp_path / 'tris.png')
    model = quiet_load(tmp_path / 'tris.md2')
    model.save(tmp_path / 'tris.mdl')
    mdl = pq.load(tmp_path / 'tris.mdl')
    assert mdl.alias.skin_size == (64, 64)
    skin = mdl.alias.skin_image()
    assert skin.shape == (64, 64, 3) and skin[:, :30].max() < 40 and skin[:, 34:].min() > 200  # the halves kept
    np.testing.assert_array_equal(mdl.data.alias.triangle_st, model.data.alias.triangle_st)  # each corner's skin pixel


def test_texture_coordinates_edit_md2(tmp_path):
    model = pq.load(tetra_md2())
    mesh = model.mesh(0)
    uv = mesh.active_texture_coordinates.copy()
    uv[:, 0] = 1 - uv[:, 0]
    model.alias.set_texcoords(uv)

    def pairs(frame, texcoords):  # (vertex, u, v) of every point, in a stable order
        rows = np.column_stack([frame.point_data['vertex_index'], texcoords])
        return rows[np.lexsort(rows.T[::-1])]

    wanted = pairs(mesh, uv)
    np.testing.assert_allclose(pairs(model.mesh(0), model.mesh(0).active_texture_coordinates), wanted, atol=0.5 / 64)
    reread = pq.load(saved(model, tmp_path, 'm.md2')).mesh(0)
    np.testing.assert_allclose(pairs(reread, reread.active_texture_coordinates), wanted, atol=0.5 / 64)


def test_mdl_seams_survive_a_texture_coordinate_round_trip():
    model = pq.load(torch_mdl())
    st_before = model.data.alias.triangle_st.copy()
    tris = model.data.file.triangles.copy()
    stverts = model.data.file.stverts.copy()
    # Setting the same coordinates from scratch: seams found again, same records.
    encoded = mdl.encode_seams(model.data.alias.triangle_vertices, st_before, model.alias.skin_size[0])
    np.testing.assert_array_equal(encoded[0], stverts)
    np.testing.assert_array_equal(encoded[1]['vertindex'], tris['vertindex'])
    # facesfront only matters where a seam vertex is used.
    seam_tris = (stverts['onseam'][tris['vertindex']] != 0).any(axis=1)
    np.testing.assert_array_equal(encoded[1]['facesfront'][seam_tris], tris['facesfront'][seam_tris])


def test_mdl_seam_rule_applies_to_back_facing_triangles_only():
    # Vertex 0 is used at s=2 by triangle 0 and at s=2+4 (half of 8) by triangle 1.
    vertices = np.array([[0, 1, 2], [0, 2, 3]])
    st = np.array([[[2, 0], [4, 4], [6, 6]], [[6, 0], [6, 6], [7, 7]]])
    stverts, triangles, vertex_map = mdl.encode_seams(vertices, st, 8)
    assert stverts['onseam'][0] == mdl.ALIAS_ONSEAM and stverts['s'][0] == 2
    assert triangles['facesfront'].tolist() == [1, 0]
    assert len(vertex_map) == 4  # no vertex split
    # Decoding with the reader's rule gives back every corner.
    data = build_mdl(
        np.column_stack([stverts['onseam'], stverts['s'], stverts['t']]),
        np.column_stack([triangles['facesfront'], triangles['vertindex']]),
        [('single', 'a', np.zeros((4, 4), np.uint8))],
    )
    np.testing.assert_array_equal(pq.load(data).data.alias.triangle_st, st)


def test_mdl_vertex_with_unrelated_coordinates_is_split():
    vertices = np.array([[0, 1, 2], [0, 2, 3]])
    st = np.array([[[1, 0], [4, 4], [6, 6]], [[3, 5], [6, 6], [7, 7]]])
    stverts, triangles, vertex_map = mdl.encode_seams(vertices, st, 8)
    assert (stverts['onseam'] == 0).all()
    assert vertex_map.tolist() == [0, 1, 2, 3, 0]
    decoded = np.stack([stverts['s'][triangles['vertindex']], stverts['t'][triangles['vertindex']]], axis=-1)
    np.testing.assert_array_equal(decoded, st)


def test_mdl_vertex_with_three_unrelated_coordinates_gets_two_new_vertices():
    vertices = np.array([[0, 1, 2], [0, 2, 3], [0, 3, 1]])
    st = np.array([[[1, 0], [4, 4], [6, 6]], [[3, 5], [6, 6], [7, 7]], [[2, 2], [7, 7], [4, 4]]])
    stverts, triangles, vertex_map = mdl.encode_seams(vertices, st, 8)
    assert vertex_map.tolist() == [0, 1, 2, 3, 0, 0]  # vertex 0's second and third coordinates
    decoded = np.stack([stverts['s'][triangles['vertindex']], stverts['t'][triangles['vertindex']]], axis=-1)
    np.testing.assert_array_equal(decoded, st)
    np.testing.assert_array_equal(vertex_map[triangles['vertindex']], vertices)


def test_mdl_frame_edit_keeps_the_texture_records_byte_for_byte(tmp_path):
    # Vertex 1 is marked on the seam, but no back-facing triangle uses it: records
    # encoded afresh would clear the mark, so only keeping them keeps the bytes.
    data = torch_mdl(triangles=[[1, 0, 1, 2], [1, 0, 3, 1], [1, 0, 2, 3], [1, 1, 3, 2]])
    model = pq.load(data)
    model.set_frame(1, model.vertex_positions(1)[0] + 0.25)
    original, edited = mdl.parse(data), mdl.parse(saved(model, tmp_path, 'm.mdl'))
    assert edited.stverts.tobytes() == original.stverts.tobytes()
    assert edited.triangles.tobytes() == original.triangles.tobytes()


@pytest.mark.parametrize(('steps', 'regrid'), [(255.4, False), (255.9, True), (-0.4, False), (-0.9, True)])
def test_mdl_grid_edge_is_half_a_step_past_the_last_value(steps, regrid):
    """Positions within half a step of the shared grid keep it; further out, the model is quantised afresh."""
    model = pq.load(torch_mdl(scale=(0.5, 0.5, 0.5), scale_origin=(-10.0, -10.0, -10.0)))
    scale = np.array(model.data.alias.frame_scale[0])
    target = model.vertex_positions(0)[0]
    target[1] = -10.0 + steps * scale
    model.set_frame(0, target)
    assert (not np.array_equal(model.data.alias.frame_scale[0], scale)) == regrid
    step = np.asarray(model.data.alias.frame_scale[0])
    assert (np.abs(model.vertex_positions(0)[0] - target) <= step / 2 + 1e-5).all()


def test_an_edit_outside_a_group_keeps_the_group_record_as_read(tmp_path):
    """The group's own bounding box (zeros here, as some tools write it) is kept when its frames are untouched."""
    data = torch_mdl(
        frames=[
            ('single', 'a', np.zeros((4, 4), np.uint8)),
            ('group', [0.1, 0.2], [('b', np.ones((4, 4), np.uint8)), ('c', np.ones((4, 4), np.uint8))]),
        ]
    )
    model = pq.load(data)
    model.set_frame(0, model.vertex_positions(0)[0] + 3)
    edited = mdl.parse(saved(model, tmp_path, 'm.mdl'))
    assert not np.array_equal(edited.poses['verts'][0], mdl.parse(data).poses['verts'][0])  # the edit is real
    original = mdl.parse(data)
    assert edited.groups[0].header.tobytes() == original.groups[0].header.tobytes()
    np.testing.assert_array_equal(edited.groups[0].intervals, original.groups[0].intervals)
    model.set_frame(1, model.vertex_positions(1)[0] + 3)  # inside the group: its box is made afresh
    assert mdl.parse(saved(model, tmp_path, 'n.mdl')).groups[0].header['bboxmax'].any()


def test_frames_added_before_a_group_move_the_group():
    model = pq.load(
        torch_mdl(
            frames=[
                ('single', 'a', np.zeros((4, 4), np.uint8)),
                ('group', [0.1, 0.2], [('b', np.ones((4, 4), np.uint8)), ('c', np.ones((4, 4), np.uint8))]),
            ]
        )
    )
    assert [(g.start, g.count) for g in model.data.alias.frame_groups] == [(1, 2)]
    model.add_frames(model.vertex_positions([0, 0]), names=['x', 'y'], at=0)
    assert [(g.start, g.count) for g in model.data.alias.frame_groups] == [(3, 2)]
    assert model.frame_names == ['x', 'y', 'a', 'b', 'c']
    model.remove_frames([0])
    assert [(g.start, g.count) for g in model.data.alias.frame_groups] == [(2, 2)]


def test_md2_trailing_bytes_are_only_those_after_the_last_section():
    data = bytearray(tetra_md2(trailing=b'TAIL'))
    h = md2.parse(bytes(data)).header[0]
    start = int(h['ofs_frames'])
    size = int(h['num_frames']) * int(h['framesize'])
    frames = bytes(data[start : start + size])
    data[start : start + size] = b'HOLE' + frames[:-4]  # a hole before the frames, the tail kept after them
    data[-4:-4] = frames[-4:]
    data[56:60] = np.int32(start + 4).tobytes()  # ofs_frames
    model = pq.load(bytes(data))
    assert model.frame_names == ['stand01', 'stand02', 'run1']
    assert model.alias.trailing == b'TAIL'


# -- GL commands ----------------------------------------------------------------------------


def covered_triangles(model: pq.QuakeModel) -> list[tuple]:
    """Every triangle the GL commands draw, as (vertex, s, t) corners in file winding, rotated to a canonical start."""
    width, height = model.alias.skin_size
    found = []
    for command in model.alias.gl_commands:
        corners = [(int(v), round(s * width - 0.5), round(t * height - 0.5)) for v, (s, t) in zip(command.vertices, command.texcoords)]
        for k in range(len(corners) - 2):
            if command.kind == 'fan':
                tri = (corners[0], corners[k + 1], corners[k + 2])
            elif k % 2 == 0:
                tri = (corners[k], corners[k + 1], corners[k + 2])
            else:
                tri = (corners[k + 1], corners[k], corners[k + 2])
            found.append(min(tri[i:] + tri[:i] for i in range(3)))
    return found


def file_triangles(model: pq.QuakeModel) -> list[tuple]:
    out = []
    for verts, st in zip(model.data.alias.triangle_vertices.tolist(), model.data.alias.triangle_st.tolist()):
        tri = tuple((v, s, t) for v, (s, t) in zip(verts, st))
        out.append(min(tri[i:] + tri[:i] for i in range(3)))
    return out


@pytest.mark.parametrize('mesh', [pv.Sphere(), pv.Plane(i_resolution=7, j_resolution=5), pv.Cube().triangulate()], ids=['sphere', 'plane', 'cube'])
def test_fresh_gl_commands_cover_each_triangle_once(mesh):
    model = pq.QuakeModel.from_frames(mesh, 'md2')
    assert model.header['num_glcmds'] > 0
    assert sorted(covered_triangles(model)) == sorted(file_triangles(model))
    assert model.header['ofs_end'] == len(md2.write(model.data.file))


def test_gl_commands_stripped_long():
    model = pq.QuakeModel.from_frames(pv.Plane(i_resolution=20, j_resolution=20), 'md2')
    assert len(model.alias.gl_commands) < model.header['num_tris'] / 4  # strips and fans, not one command per triangle


# -- any mesh in ----------------------------------------------------------------------------


@pytest.mark.parametrize('fmt', ['md2', 'mdl'])
def test_from_frames_round_trip(fmt, tmp_path):
    base = pv.Sphere(radius=5, theta_resolution=12, phi_resolution=10)
    base.active_texture_coordinates = np.column_stack([base.points[:, 0] / 10 + 0.5, base.points[:, 2] / 10 + 0.5])
    frames = [base, base.translate((0, 0, 3)), base.scale(2)]
    model = pq.QuakeModel.from_frames(frames, fmt, names=['a1', 'a2', 'a3'])
    reread = pq.load(saved(model, tmp_path, 'm.' + fmt))
    assert reread.frame_names == ['a1', 'a2', 'a3']
    assert len(reread.data.alias.triangle_vertices) == base.n_cells
    steps = reread.data.alias.frame_scale
    for k, frame in enumerate(frames):
        assert (np.abs(reread.vertex_positions(k)[0] - frame.points) <= steps[k] / 2 + 1e-4).all()
    mesh = reread.mesh(0)
    width, height = reread.alias.skin_size
    # Each mesh point's texture coordinate is the point's own, to a pixel.
    expected = base.active_texture_coordinates[mesh.point_data['vertex_index']]
    np.testing.assert_allclose(mesh.active_texture_coordinates, expected, atol=0.51 / min(width, height))


def test_quads_are_triangulated_and_wound_outward():
    model = pq.QuakeModel.from_frames(pv.Cube(), 'mdl')
    mesh = model.mesh(0)
    assert mesh.n_cells == 12
    centre = mesh.points.mean(axis=0)
    normals = mesh.compute_normals(cell_normals=True, point_normals=False, auto_orient_normals=False)
    outward = np.einsum('ij,ij->i', normals.cell_data['Normals'], normals.cell_centers().points - centre)
    assert (outward > 0).all()


def test_from_frames_errors():
    sphere = pv.Sphere()
    with pytest.raises(ValueError, match='does not share'):
        pq.QuakeModel.from_frames([sphere, pv.Sphere(theta_resolution=5)])
    with pytest.raises(ValueError, match='no points'):
        pq.QuakeModel.from_frames(pv.PolyData())
    with pytest.raises(ValueError, match='no polygons'):
        pq.QuakeModel.from_frames(pv.PolyData(np.zeros((3, 3))))
    with pytest.raises(ValueError, match='longer than 15'):
        pq.QuakeModel.from_frames(sphere, names=['x' * 16])


def test_too_many_vertices_for_the_format():
    plane = pv.Plane(i_resolution=200, j_resolution=200)  # 40,401 points
    with pytest.raises(ValueError, match='does not fit the MD2 format'):
        pq.QuakeModel.from_frames(plane, 'md2')


def test_engine_limits_warn_naming_the_engine(tmp_path):
    plane = pv.Plane(i_resolution=50, j_resolution=50)  # 2,601 vertices
    model = pq.QuakeModel.from_frames(plane, 'md2')
    with pytest.warns(pq.QuakeWarning, match=r'Quake II \(id, OpenGL renderer\) will not load it: num_xyz = 2601: .*MAX_VERTS') as caught:
        model.save(tmp_path / 'big.md2')
    assert caught[0].filename == __file__  # pointed at the user's line
    assert pq.load(tmp_path / 'big.md2').header['num_xyz'] == 2601


def test_mesh_save_through_pyvista_writers(tmp_path):
    sphere = pv.Sphere()
    sphere.save(tmp_path / 'ball.md2')
    sphere.save(tmp_path / 'ball.mdl')
    for name in ('ball.md2', 'ball.mdl'):
        model = pq.load(tmp_path / name)
        assert model.data.alias.num_vertices == sphere.n_points
        assert len(model.data.alias.triangle_vertices) == sphere.n_cells


def test_a_quake_frame_saved_keeps_its_skin_and_name(tmp_path):
    picture = (np.arange(64) % 256).astype(np.uint8).reshape(8, 8) + 10
    mesh = pq.load(torch_mdl(skins=[picture])).mesh(1)
    mesh.save(tmp_path / 'again.mdl')
    again = pq.load(tmp_path / 'again.mdl')
    np.testing.assert_array_equal(again.data.alias.skins[0].pictures[0], picture)
    assert again.frame_names == ['torch2']
    mesh.save(tmp_path / 'renamed.mdl', names=['lit'])  # a name given wins over the frame's own
    assert pq.load(tmp_path / 'renamed.mdl').frame_names == ['lit']


def test_save_in_the_other_format(tmp_path):
    model = pq.load(torch_mdl())
    model.save(tmp_path / 'torch.md2')
    other = pq.load(tmp_path / 'torch.md2')
    assert other.format == 'md2' and other.frame_names == model.frame_names
    np.testing.assert_allclose(other.vertex_positions(), model.vertex_positions(), atol=np.max(other.data.alias.frame_scale) / 2 + 1e-4)
    np.testing.assert_array_equal(other.alias.skin_image(), model.alias.skin_image())


# -- safe writing ---------------------------------------------------------------------------


def test_unknown_extension_writes_nothing(tmp_path):
    with pytest.raises(ValueError, match='extension'):
        pq.load(tetra_md2()).save(tmp_path / 'model.obj')
    assert list(tmp_path.iterdir()) == []


def test_failure_mid_write_leaves_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / 'm.md2'
    target.write_bytes(b'old contents')

    def broken(fd):
        raise OSError('disk full')

    monkeypatch.setattr(os, 'fsync', broken)
    with pytest.raises(OSError, match='disk full'):
        pq.load(tetra_md2()).save(target)
    assert target.read_bytes() == b'old contents'
    assert sorted(p.name for p in tmp_path.iterdir()) == ['m.md2']


def test_sync_flushes_to_disk_by_default_and_not_when_asked(tmp_path, monkeypatch):
    flushed = []
    real = os.fsync
    monkeypatch.setattr(os, 'fsync', lambda fd: (flushed.append(fd), real(fd)))
    model = pq.load(tetra_md2())
    model.save(tmp_path / 'a.md2')
    assert len(flushed) == 1
    model.save(tmp_path / 'b.md2', sync=False)
    pq.save(model, tmp_path / 'c.md2', sync=False)
    assert len(flushed) == 1  # no flush, still written whole and renamed into place
    assert (tmp_path / 'b.md2').read_bytes() == (tmp_path / 'c.md2').read_bytes() == tetra_md2()
    assert sorted(p.name for p in tmp_path.iterdir()) == ['a.md2', 'b.md2', 'c.md2']


def test_failure_at_the_rename_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / 'm.mdl'
    target.write_bytes(b'old')

    def broken(src, dst):
        raise OSError('rename refused')

    monkeypatch.setattr(os, 'replace', broken)
    with pytest.raises(OSError, match='rename refused'):
        pq.load(torch_mdl()).save(target)
    assert target.read_bytes() == b'old'
    assert [p.name for p in tmp_path.iterdir()] == ['m.mdl']


def test_missing_folder_is_made_and_holds_only_the_model(tmp_path):
    pq.load(tetra_md2()).save(tmp_path / 'absent' / 'm.md2')
    assert [p.name for p in (tmp_path / 'absent').iterdir()] == ['m.md2']
    (tmp_path / 'file').write_bytes(b'')
    with pytest.raises(OSError, match='file'):  # a folder that cannot be made: the error names it
        pq.load(tetra_md2()).save(tmp_path / 'file' / 'm.md2')


def test_a_model_the_format_cannot_hold_writes_nothing(tmp_path):
    target = tmp_path / 'm.md2'
    target.write_bytes(b'old')
    model = pq.load(tetra_md2())
    with pytest.raises(ValueError, match='longer than 63'):
        model.alias.set_skin(0, np.zeros((64, 64, 3), np.uint8), name='x' * 80)
    model.save(target)  # the failed edit left the model as it was
    assert target.read_bytes() == tetra_md2()


@pytest.mark.skipif(os.name != 'posix' or os.geteuid() == 0, reason='needs a non-root POSIX user for an unwritable folder')
def test_unwritable_folder(tmp_path):
    folder = tmp_path / 'locked'
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(PermissionError):
            pq.load(tetra_md2()).save(folder / 'm.md2')
    finally:
        folder.chmod(0o700)


def test_permissions_of_a_replaced_file_are_kept(tmp_path):
    target = tmp_path / 'm.md2'
    target.write_bytes(b'x')
    target.chmod(0o640)
    pq.load(tetra_md2()).save(target)
    assert target.stat().st_mode & 0o777 == 0o640


# -- independent readers --------------------------------------------------------------------


def written_models(tmp_path: Path) -> list[tuple[Path, pq.QuakeModel]]:
    sphere = pv.Sphere(radius=8)
    out = []
    for fmt in ('md2', 'mdl'):
        model = pq.QuakeModel.from_frames([sphere, sphere.scale(1.5)], fmt)
        edited = pq.load(torch_mdl() if fmt == 'mdl' else tetra_md2())
        edited.set_frame(0, edited.vertex_positions(0)[0] * 2 - 3)
        for name, m in ((f'new.{fmt}', model), (f'edited.{fmt}', edited)):
            m.save(tmp_path / name)
            out.append((tmp_path / name, pq.load(tmp_path / name)))
    return out


def test_vgio_reads_what_we_write(tmp_path):
    pytest.importorskip('vgio', reason='vgio does not install here')
    from vgio.quake.mdl import Mdl
    from vgio.quake2.md2 import Md2

    for path, ours in written_models(tmp_path):
        if path.suffix == '.md2':
            with Md2.open(str(path)) as theirs:
                assert len(theirs.frames) == len(ours)
                for k, frame in enumerate(theirs.frames):
                    packed = np.array([(v.x, v.y, v.z) for v in frame.vertexes], np.float32)
                    positions = packed * np.array(frame.scale, np.float32) + np.array(frame.translate, np.float32)
                    np.testing.assert_allclose(positions, ours.vertex_positions(k)[0], atol=1e-5)
                assert len(theirs.triangles) == len(ours.data.alias.triangle_vertices)
        else:
            with Mdl.open(str(path)) as theirs:
                assert theirs.number_of_frames == len(ours.data.file.frame_types)
                scale, origin = np.array(theirs.scale, np.float32), np.array(theirs.origin, np.float32)
                frame = theirs.frames[0]
                first = frame.frames[0] if hasattr(frame, 'frames') and frame.frames else frame
                packed = np.array([(v.x, v.y, v.z) for v in first.vertexes], np.float32)
                np.testing.assert_allclose(packed * scale + origin, ours.vertex_positions(0)[0], atol=1e-5)


def test_assimp_reads_what_we_write(tmp_path):
    assimp_py = pytest.importorskip('assimp_py', reason='assimp-py does not install here')
    for path, ours in written_models(tmp_path):
        scene = assimp_py.import_file(str(path), 0)
        vertices = np.asarray(scene.meshes[0].vertices, np.float32).reshape(-1, 3)
        expected = ours.vertex_positions(0)[0]
        # assimp unrolls triangles to corners: every corner is one of our vertices.
        assert len(vertices) == 3 * len(ours.data.alias.triangle_vertices)
        corners = expected[ours.data.alias.triangle_vertices].reshape(-1, 3)
        assert np.allclose(np.sort(vertices, axis=0), np.sort(corners, axis=0), atol=1e-4)


def test_converting_two_models_into_one_folder_keeps_each_skin(tmp_path):
    """Each MD2 names a skin after itself; no conversion writes over another's (issue: ogre and zombie)."""
    ogre, zombie = tmp_path / 'ogre.mdl', tmp_path / 'zombie.mdl'
    pq.QuakeModel.from_frames(pv.Sphere(radius=10), 'mdl', skin=np.full((8, 8), 10, np.uint8)).save(ogre)
    pq.QuakeModel.from_frames(pv.Cube(), 'mdl', skin=np.full((16, 4), 200, np.uint8)).save(zombie)
    out = tmp_path / 'out' / 'deeper'  # folders that do not exist yet
    assert cli_main(['convert', str(ogre), str(out / 'ogre.md2')]) == 0
    assert cli_main(['convert', str(zombie), str(out / 'zombie.md2')]) == 0
    first, second = pq.load(out / 'ogre.md2'), pq.load(out / 'zombie.md2')
    assert first.alias.skin_names == ['ogre.png'] and second.alias.skin_names == ['zombie.png']
    np.testing.assert_array_equal(first.alias.skin_image(0), pq.load(ogre).alias.skin_image(0))
    np.testing.assert_array_equal(second.alias.skin_image(0), pq.load(zombie).alias.skin_image(0))
    assert sorted(p.name for p in out.iterdir()) == ['ogre.md2', 'ogre.png', 'zombie.md2', 'zombie.png']


def test_a_skin_never_replaces_another_file_unless_asked(tmp_path):
    model = pq.QuakeModel.from_frames(pv.Sphere(radius=10), 'md2', skin=np.full((8, 8, 3), 40, np.uint8))
    other = tmp_path / 'skin.png'
    other.write_bytes(b'someone else')
    with pytest.raises(FileExistsError, match='skin.png.*overwrite_skins'):
        model.save(tmp_path / 'ball.md2')
    assert other.read_bytes() == b'someone else' and not (tmp_path / 'ball.md2').exists()  # nothing written
    pq.save(model, tmp_path / 'ball.md2', overwrite_skins=True)
    assert other.read_bytes() != b'someone else'
    before = other.stat().st_mtime_ns
    model.save(tmp_path / 'ball.md2')  # the same skin again: no error, the file left alone
    assert other.stat().st_mtime_ns == before


def test_export_to_a_folder_that_does_not_exist(tmp_path):
    model = pq.QuakeModel.from_frames(pv.Sphere(radius=10), 'md2')
    for name in ('a/b/ball.obj', 'c/ball.pvd', 'd/e/ball.mdl', 'f/ball.png'):
        target = tmp_path / name
        if target.suffix == '.png':
            pq.thumbnail(model, target, size=(32, 32))
        else:
            pq.export(model, target)
        assert target.is_file()


def test_frames_read_without_their_skin_keep_its_size_and_the_header(tmp_path):
    """from_frames of frames read with skin=None: the skin size they name, and an MDL's flags, synctype, eye position."""
    skins = [np.zeros((40, 120), np.uint8)]
    source = pq.load(torch_mdl(skinwidth=120, skinheight=40, skins=skins, flags=8, synctype=1, eyeposition=(1.0, 2.0, 24.0)))
    frames = [source.mesh(k) for k in range(len(source))]
    for frame in frames:
        frame.field_data.pop('skin_pixels', None)  # as read with skin=None
    rebuilt = pq.QuakeModel.from_frames(frames, 'mdl')
    assert rebuilt.alias.skin_size == (120, 40)
    np.testing.assert_allclose(rebuilt.mesh(0).active_texture_coordinates, source.mesh(0).active_texture_coordinates, atol=1 / 120)
    assert rebuilt.header['flags'] == 8 and rebuilt.header['synctype'] == 1
    np.testing.assert_allclose(rebuilt.header['eyeposition'], (1.0, 2.0, 24.0))
    read = pq.load(torch_mdl(skinwidth=120, skinheight=40, skins=skins), skin=None)
    assert pq.QuakeModel.from_frames(read.mesh(0), 'md2').alias.skin_size == (120, 40)


def test_from_frames_of_any_dataset_warns_nothing():
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        model = pq.QuakeModel.from_frames(pv.ImageData(dimensions=(3, 3, 3)), 'md2')
    assert model.data.alias.num_vertices == 54


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


def test_converting_a_ufo_model_to_md3_writes_no_anm(tmp_path):
    (tmp_path / 'm.md2').write_bytes(tetra_md2(names=['f0', 'f1', 'f2']))
    (tmp_path / 'm.anm').write_text('stand 0 1 10\n')
    pq.load(tmp_path / 'm.md2').save(tmp_path / 'out' / 'm.md3')
    assert sorted(p.name for p in (tmp_path / 'out').iterdir()) == ['m.md3']


def test_converting_clamps_light_indexes_past_the_table_to_its_last_entry(tmp_path):
    verts = np.array([[[0, 0, 0, 161], [255, 0, 0, 162], [0, 255, 0, 255]]], np.uint8)
    data = build_md2(verts, [[0, 1, 2]], [[0, 1, 2]], [[0, 0], [32, 0], [0, 32]])
    pq.load(data).save(tmp_path / 'x.mdl')
    converted = pq.load(tmp_path / 'x.mdl')
    assert converted.data.alias.frame_verts[0, :, 3].tolist() == [161, 161, 161]
    np.testing.assert_allclose(converted.mesh(0).point_data['Normals'][0], VERTEX_NORMALS[161], atol=1e-6)
