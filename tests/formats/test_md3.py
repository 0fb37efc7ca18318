"""Quake III models (MD3): reading against files built from the spec, tags, skins, levels of detail, saving."""

from __future__ import annotations

from pathlib import Path
import struct
import warnings

from builders import build_md3
from builders import latlong
from builders import tetra_md3
from conftest import CORPUS
from conftest import requires_corpus
import numpy as np
from PIL import Image
import pytest
import pyvista as pv

import pyvista_quake as pq
from pyvista_quake import SurfaceModel
from pyvista_quake.formats import md3

OPENARENA = CORPUS / 'md3' / 'openarena'


def positions_of(model, frames=None):
    """Each surface's positions (QuakeModel.positions() joins them)."""
    return [s.positions(frames) for s in model.surfaces]


def normals_of(model, frames=None):
    """Each surface's normals (QuakeModel.normals() joins them)."""
    return [s.normals(frames) for s in model.surfaces]


def test_frames_are_multiblocks_of_surfaces_decoded_as_the_spec_says():
    model = pq.load(tetra_md3(frames=3))
    assert isinstance(model, SurfaceModel) and len(model) == 3 and model.format == 'md3'
    assert model.surface_names == ['body', 'flag'] and model.frame_names == ['frame0', 'frame1', 'frame2']
    blocks = model.frame(2)
    assert isinstance(blocks, pv.MultiBlock) and blocks.keys() == ['body', 'flag']
    body = blocks['body']
    expected = (np.array([[0, 0, 0], [640, 0, 0], [0, 640, 0], [0, 0, 640]]) + [0, 0, 128]) / 64
    np.testing.assert_array_equal(body.points, expected.astype(np.float32))
    assert body.points.dtype == np.float32
    np.testing.assert_array_equal(body.point_data['vertex_index'], np.arange(4))
    np.testing.assert_allclose(body.active_texture_coordinates, [[0, 1], [1, 1], [0, 0], [0.5, 0.5]])  # v = 1 - t
    # Normals from latitude and longitude: x = cos(lat) sin(lng), y = sin(lat) sin(lng), z = cos(lng).
    packed = latlong(np.array([[1.0, 0, 0], [0, 1, 0], [0, 0, 1]]))
    lat, lng = (packed >> 8) * 2 * np.pi / 256, (packed & 255) * 2 * np.pi / 256
    reference = np.column_stack([np.cos(lat) * np.sin(lng), np.sin(lat) * np.sin(lng), np.cos(lng)])
    np.testing.assert_allclose(body.point_data['Normals'][1:], reference, atol=1e-6)
    # Corners wound for VTK: its normals agree with the stored ones.
    computed = body.compute_normals(auto_orient_normals=False, consistent_normals=False)
    assert (computed.point_data['Normals'][1:] * body.point_data['Normals'][1:]).sum(axis=1).min() > 0
    assert blocks['flag'].n_cells == 1 and blocks.field_data['frame_name'][0] == 'frame2'
    assert body.field_data['surface_name'][0] == 'body' and body.field_data['surface_index'][0] == 0


def test_one_surface_still_gives_a_multiblock(tmp_path):
    path = tmp_path / 'one.md3'
    path.write_bytes(
        tetra_md3(
            surfaces=[dict(name='only', shaders=[], triangles=[[0, 1, 2]], st=np.zeros((3, 2)), xyz=np.zeros((2, 3, 3)), normal=np.zeros((2, 3)))]
        )
    )
    mesh = pv.read(path)
    assert isinstance(mesh, pv.MultiBlock) and mesh.n_blocks == 1 and mesh.keys() == ['only']


def test_repeated_surface_names_are_all_kept():
    surface = dict(name='same', shaders=[], triangles=[[0, 1, 2]], st=np.zeros((3, 2)), xyz=np.zeros((1, 3, 3)), normal=np.zeros((1, 3)))
    blocks = pq.load(build_md3([surface, surface, surface])).frame(0)
    assert blocks.n_blocks == 3 and blocks.keys() == ['same'] * 3


def test_whole_animation_arrays_per_surface_and_interpolation():
    model = pq.load(tetra_md3(frames=3), fps=10)
    positions, normals = positions_of(model), normals_of(model)
    assert [p.shape for p in positions] == [(3, 4, 3), (3, 3, 3)] and positions[0].dtype == np.float32
    np.testing.assert_allclose(positions[0][:, 3, 2], [10, 11, 12])
    np.testing.assert_allclose(np.linalg.norm(normals[0], axis=-1), 1, atol=1e-6)
    halfway = model.at(0.05)  # between frames 0 and 1, blended linearly
    np.testing.assert_allclose(halfway['body'].points[3], [0, 0, 10.5], atol=1e-6)
    np.testing.assert_allclose(model.bounds([0])[0], [0, 10, 0, 10, 0, 25])


def test_tags_hold_the_files_values_and_blend_as_r_lerptag():
    origins = np.array([[1.0, 2, 3], [3, 2, 1]])
    turn = np.array([[0.0, 1, 0], [-1, 0, 0], [0, 0, 1]])  # a quarter turn about z, as rows
    axes = np.stack([np.eye(3), turn])
    model = pq.load(tetra_md3(frames=2, tags=[('tag_weapon', origins, axes), ('tag_head', origins + 1, axes)]), fps=10)
    assert list(model.tags) == ['tag_weapon', 'tag_head']
    np.testing.assert_array_equal(model.tags['tag_weapon'].origins, origins)
    np.testing.assert_array_equal(model.tags['tag_weapon'].axes, axes)
    matrix = model.tag('tag_weapon', frame=1)
    point = np.array([1.0, 0, 0])
    np.testing.assert_allclose((matrix @ [*point, 1])[:3], point @ turn + origins[1])
    # Halfway: origin and axes linear, each axis normalised (R_LerpTag).
    blended = model.tag('tag_weapon', time=0.05)
    axes_half = (np.eye(3) + turn) / 2
    axes_half /= np.linalg.norm(axes_half, axis=1, keepdims=True)
    np.testing.assert_allclose(blended[:3, :3], axes_half.T, atol=1e-6)
    np.testing.assert_allclose(blended[:3, 3], [2, 2, 2])
    with pytest.raises(KeyError, match='tag_torso'):
        model.tag('tag_torso')


def test_unchanged_models_are_saved_byte_for_byte(tmp_path):
    data = tetra_md3(gap=b'\x01gap bytes', trailing=b'after the end')
    model = pq.load(data)
    model.save(tmp_path / 'copy.md3')
    assert (tmp_path / 'copy.md3').read_bytes() == data
    assert md3.write(md3.parse(data)) == data


def test_encoded_records_read_back_the_same():
    data = tetra_md3(frames=3)
    read = md3.decode(md3.parse(data))
    again = md3.decode(md3.parse(md3.write(md3.encode(read))))
    for a, b in zip(read.surfaces, again.surfaces):
        np.testing.assert_array_equal(a.positions, b.positions)
        np.testing.assert_array_equal(a.normals, b.normals)
        np.testing.assert_array_equal(a.triangles, b.triangles)
        np.testing.assert_array_equal(a.texcoords, b.texcoords)
        assert (a.name, a.shaders) == (b.name, b.shaders)
    np.testing.assert_array_equal(read.tags['tag_head'].origins, again.tags['tag_head'].origins)
    assert again.frame_bounds[2].tolist() == [[0, 0, 2], [10, 10, 25]]


def test_quantize_and_normal_encoding():
    np.testing.assert_array_equal(md3.quantize([[1.0, -2.5, 511.984375]]), [[64, -160, 32767]])
    with pytest.raises(ValueError, match='outside what an MD3 holds'):
        md3.quantize([[512.01, 0, 0]])
    units = np.array([[1.0, 0, 0], [0, -1, 0], [0, 0, 1], [0.6, 0.8, 0]])
    np.testing.assert_array_equal(md3.encode_normals(units), latlong(units))


@pytest.mark.parametrize(
    ('mangle', 'field'),
    [
        (lambda d: d[:50], 'header'),
        (lambda d: d[:4] + struct.pack('<i', 16) + d[8:], 'version'),
        (lambda d: d[:76] + struct.pack('<i', 0) + d[80:], 'numFrames'),
        (lambda d: d[:76] + struct.pack('<i', 1000) + d[80:], 'ofsFrames'),
        (lambda d: d[:84] + struct.pack('<i', -1) + d[88:], 'numSurfaces'),
        (lambda d: d[:-20], 'ofsEnd'),
    ],
)
def test_bad_files_raise_naming_the_field(mangle, field):
    with pytest.raises(pq.QuakeFormatError, match=field) as caught:
        pq.load(mangle(tetra_md3()))
    assert caught.value.source == '<bytes>'


def test_a_triangle_past_the_surface_and_a_surface_short_of_frames_are_refused():
    surface = dict(name='s', shaders=[], triangles=[[0, 1, 3]], st=np.zeros((3, 2)), xyz=np.zeros((1, 3, 3)), normal=np.zeros((1, 3)))
    with pytest.raises(pq.QuakeFormatError, match='triangle indexes'):
        pq.load(build_md3([surface]))
    data = bytearray(tetra_md3(frames=2))
    first_surface = struct.unpack_from('<i', data, 100)[0]
    struct.pack_into('<i', data, first_surface + 72, 1)  # the surface's numFrames
    with pytest.raises(pq.QuakeFormatError, match='numFrames.*fewer'):
        pq.load(bytes(data))


def test_every_truncation_loads_or_raises_a_clear_error():
    data = tetra_md3()
    for size in range(len(data)):
        try:
            pq.load(data[:size]).frame(0)
        except pq.QuakeFormatError as error:
            assert str(error)


def write_skin_folder(root: Path) -> Path:
    folder = root / 'models' / 'test'
    folder.mkdir(parents=True)
    model = folder / 'model.md3'
    model.write_bytes(tetra_md3())
    Image.fromarray(np.full((4, 4, 3), (255, 0, 0), np.uint8)).save(folder / 'body.jpg')  # shader names .tga: .jpg shipped
    Image.fromarray(np.full((4, 4, 3), (0, 0, 255), np.uint8)).save(folder / 'blue.png')
    (folder / 'model_default.skin').write_text('body,models/test/blue.png\ntag_head,\n')
    (folder / 'model_red.skin').write_text('BODY,models/test/body.tga\nflag,models/test/blue.png\n')
    return model


def test_skins_as_the_game_finds_them(tmp_path):
    model_path = write_skin_folder(tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        model = pq.load(model_path)
        blocks = model.frame(0)
        model.frame(1)
    assert [s.image_name for s in model.surfaces] == ['models/test/blue.png', 'models/test/flag']  # .skin line; a surface without one: its shader
    assert model.skin_definition.endswith('model_default.skin')
    assert tuple(blocks['body'].quake.image()[0, 0, :3]) == (0, 0, 255)
    missing = [w for w in caught if 'models/test/flag' in str(w.message)]
    assert len(missing) == 1  # once per image, not per frame
    red = pq.load(model_path, skin='red')
    assert [s.image_name for s in red.surfaces] == ['models/test/body.tga', 'models/test/blue.png']
    red_pixel = red.frame(0)['body'].quake.image()[0, 0, :3].astype(int)
    assert red_pixel[0] > 240 and red_pixel[1:].max() < 15  # the .jpg stands in for the named .tga
    assert pq.load(model_path, skin=str(model_path.parent / 'model_red.skin')).surfaces[0].image_name == 'models/test/body.tga'
    assert pq.load(model_path, skin=None).frame(0)['body'].quake.texture is None
    shader = pq.load(tetra_md3())  # no file: no .skin, the shaders
    assert [s.image_name for s in shader.surfaces] == ['models/test/body.tga', 'models/test/flag']


@requires_corpus
def test_corpus_models_read_equal_to_an_independent_decoder_and_save_byte_for_byte(tmp_path):
    paths = sorted(OPENARENA.rglob('*.md3'))
    assert len(paths) >= 30
    for path in paths:
        data = path.read_bytes()
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            model = pq.load(path)
        model.save(tmp_path / 'copy.md3')
        assert (tmp_path / 'copy.md3').read_bytes() == data, path
        # The independent decoder: walk the file with struct, as the spec lays it out.
        (num_frames, num_tags, num_surfaces) = struct.unpack_from('<3i', data, 76)
        offset = struct.unpack_from('<i', data, 100)[0]
        positions = positions_of(model)
        for k in range(num_surfaces):
            num_verts, ofs_xyz = struct.unpack_from('<i', data, offset + 80)[0], struct.unpack_from('<i', data, offset + 100)[0]
            raw = np.frombuffer(data, '<i2', num_frames * num_verts * 4, offset + ofs_xyz).reshape(num_frames, num_verts, 4)
            np.testing.assert_array_equal(positions[k], raw[..., :3] / np.float32(64))
            offset += struct.unpack_from('<i', data, offset + 104)[0]
        assert len(model.tags) == num_tags or len(set(model.tags)) < num_tags


@requires_corpus
def test_sarge_skins_and_levels_of_detail():
    folder = OPENARENA / 'models' / 'players' / 'sarge'
    upper = pq.load(folder / 'upper.md3')
    assert [s.image_name for s in upper.surfaces] == ['models/players/grism/enkiskin.tga']  # upper_default.skin names another player's image
    assert upper.surfaces[0].image().shape[2] in (3, 4)
    assert pq.load(folder / 'upper.md3', skin='red').skin_definition.endswith('upper_red.skin')
    coarse = pq.load(folder / 'upper.md3', lod=2)
    assert coarse.source.endswith('upper_2.md3') and [s.image_name for s in coarse.surfaces] == [
        s.image_name for s in upper.surfaces
    ]  # upper_2 uses upper's skins
    assert coarse.frame(0)[0].n_points < upper.frame(0)[0].n_points
    with pytest.raises(ValueError, match='level of detail'):
        pq.load(CORPUS / 'md2' / 'assimp' / 'dolphin.md2', lod=1)
    with pytest.raises(ValueError, match='level of detail'):
        pq.load(tetra_md3(), lod=1)  # bytes: no file name to derive name_1.md3 from


def test_any_multiblock_saved_as_an_md3(tmp_path):
    blocks = pv.MultiBlock({'ball': pv.Sphere(radius=10), 'box': pv.Cube(x_length=4, y_length=4, z_length=4).triangulate()})
    blocks.save(tmp_path / 'two.md3')  # PyVista's writer registry
    model = pq.load(tmp_path / 'two.md3')
    assert model.surface_names == ['ball', 'box']
    frame = model.frame(0)
    np.testing.assert_allclose(frame['ball'].points, blocks['ball'].points, atol=1 / 128 + 1e-6)  # 1/64 steps
    assert np.array_equal(frame['ball'].regular_faces, blocks['ball'].regular_faces)
    agreement = (frame['ball'].point_data['Normals'] * blocks['ball'].point_data['Normals']).sum(axis=1)
    assert agreement.min() > 0.99  # latitude and longitude bytes
    frames = [pv.MultiBlock({'s': pv.Sphere(radius=r)}) for r in (5, 6, 7)]
    origins, axes = np.zeros((3, 3)), np.stack([np.eye(3)] * 3)
    animated = pq.QuakeModel.from_frames(frames, 'md3', names=['grow1', 'grow2', 'grow3'], tags={'tag_top': (origins, axes)})
    animated.save(tmp_path / 'grow.md3')
    again = pq.load(tmp_path / 'grow.md3')
    assert again.frame_names == ['grow1', 'grow2', 'grow3'] and list(again.tags) == ['tag_top'] and 'grow' in again.animations
    np.testing.assert_allclose(again.bounds()[:, 1], [5, 6, 7], atol=0.05)
    pv.read(tmp_path / 'grow.md3')[0].save(tmp_path / 'one.md3')  # a frame read back saves again
    assert pq.load(tmp_path / 'one.md3').surface_names == ['s']


def test_what_an_md3_cannot_hold_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match='outside what an MD3 holds'):
        pv.Sphere(radius=600).save(tmp_path / 'big.md3')
    many = pv.MultiBlock([pv.Plane(i_resolution=1, j_resolution=1).triangulate() for _ in range(33)])
    with pytest.raises(ValueError, match='MD3_MAX_SURFACES'):
        many.save(tmp_path / 'many.md3')
    assert not (tmp_path / 'big.md3').exists() and not (tmp_path / 'many.md3').exists()


def test_what_the_engines_refuse_is_written_with_a_warning(tmp_path):
    dense = pv.Plane(i_resolution=40, j_resolution=40).triangulate()  # 1681 vertices: over SHADER_MAX_VERTEXES
    with pytest.warns(pq.QuakeWarning, match='ioquake3 will not load it: numVerts = 1681'):
        dense.save(tmp_path / 'dense.md3')
    assert pq.load(tmp_path / 'dense.md3').frame(0)[0].n_points == 1681
    found = {(f.engine, f.field) for f in pq.check(tmp_path / 'dense.md3')}
    assert {('quake3', 'numVerts'), ('ioquake3', 'numVerts'), ('quake3', 'numTriangles'), ('ioquake3', 'numTriangles')} <= found
    with pytest.raises(pq.QuakeFormatError, match='ioquake3.*strict'):
        pq.load(tmp_path / 'dense.md3', strict='ioquake3')
    with pytest.raises(pq.QuakeFormatError, match='cannot load Quake III'):
        pq.load(tmp_path / 'dense.md3', strict='quake2')


@pytest.mark.parametrize(('verts', 'tris', 'refused'), [(999, 1999, set()), (1000, 2000, {'ioquake3'}), (1001, 2001, {'quake3', 'ioquake3'})])
def test_engine_limits_at_the_boundary(verts, tris, refused):
    surface = dict(
        name='s', shaders=[], triangles=np.zeros((tris, 3), int), st=np.zeros((verts, 2)), xyz=np.zeros((1, verts, 3)), normal=np.zeros((1, verts))
    )
    found = pq.check(build_md3([surface]))
    assert {f.engine for f in found if f.field == 'numVerts'} == refused
    assert {f.engine for f in found if f.field == 'numTriangles'} == refused


def test_changing_the_skin_changes_the_frames_built_from_then_on(tmp_path):
    model = pq.load(write_skin_folder(tmp_path))
    assert tuple(model.frame(0)['body'].quake.image()[0, 0, :3]) == (0, 0, 255)
    model.skin = 'red'
    assert model.skin_definition.endswith('model_red.skin') and model.frame(0)['body'].quake.image()[0, 0, 0] > 240
    model.skin = None
    assert model.frame(0)['body'].quake.texture is None


def test_positions_of_any_frame_selection():
    model = pq.load(tetra_md3(frames=4))
    every = positions_of(model)[0]
    for selection in ([2, 0], slice(1, 3), [3], -1):
        np.testing.assert_array_equal(positions_of(model, selection)[0], every[np.arange(4)[selection]].reshape(-1, 4, 3))
        np.testing.assert_array_equal(normals_of(model, selection)[0], normals_of(model)[0][np.arange(4)[selection]].reshape(-1, 4, 3))
    np.testing.assert_array_equal(every[:, 3, 2], [10, 11, 12, 13])
    new = pq.QuakeModel.from_frames([model.frame(k) for k in range(4)], 'md3')  # contiguous shorts: the other path
    np.testing.assert_array_equal(positions_of(new)[0], every)


def test_tags_drawn_as_small_axes_where_they_are(tmp_path):
    from pyvista_quake.render.plotting import add_tags

    origins = np.array([[1.0, 2, 3], [3, 2, 1]])
    model = pq.load(tetra_md3(frames=2, tags=[('tag_weapon', origins, np.stack([np.eye(3)] * 2))]))
    plotter = pv.Plotter(off_screen=True)
    actors = add_tags(plotter, model, model.frame(1), frame=1)
    assert len(actors) == 4  # three axes and a label
    first_line = actors[0].mapper.dataset
    np.testing.assert_allclose(first_line.points[0], origins[1])
    np.testing.assert_allclose(first_line.points[-1] - first_line.points[0], [2.4, 0, 0], atol=1e-6)  # x, a tenth of the height (z 1..25)
    plotter.close()
    path = tmp_path / 'tags.png'
    pq.plot(model, show_tags=True, off_screen=True, screenshot=path, window_size=(120, 120))
    plain = tmp_path / 'plain.png'
    pq.plot(model, off_screen=True, screenshot=plain, window_size=(120, 120))
    assert not np.array_equal(np.asarray(Image.open(path)), np.asarray(Image.open(plain)))


def test_new_surfaces_carry_no_flags(tmp_path):
    pv.Sphere().save(tmp_path / 'ball.md3')
    record = md3.parse((tmp_path / 'ball.md3').read_bytes())
    assert int(record.surfaces[0].header[0]['flags']) == 0 and int(record.header[0]['flags']) == 0


def test_a_shader_of_the_scripts_shows_its_first_image_stage(tmp_path):
    from pyvista_quake.formats.shader import first_images as parse_shaders

    text = """// comment
    models/test/flag
    {
        cull disable
        {
            map $lightmap
        }
        {
            map models/test/cloth.tga   // the first image stage
            blendFunc GL_DST_COLOR GL_ZERO
        }
        {
            map models/test/other.tga
        }
    }
    /* a block comment { map x.tga } */
    models/test/anim { { animMap 10 models/test/a1.tga models/test/a2.tga } }
    """
    assert parse_shaders(text) == {'models/test/flag': 'models/test/cloth.tga', 'models/test/anim': 'models/test/a1.tga'}
    root = tmp_path / 'game'
    model_path = root / 'models' / 'test' / 'model.md3'
    model_path.parent.mkdir(parents=True)
    model_path.write_bytes(tetra_md3())
    (root / 'scripts').mkdir()
    (root / 'scripts' / 'test.shader').write_text(text)
    Image.fromarray(np.full((4, 4, 3), (0, 250, 0), np.uint8)).save(model_path.parent / 'cloth.png')  # .tga named, .png shipped
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        flag = pq.load(model_path).frame(0)['flag']
    assert tuple(flag.quake.image()[0, 0, :3]) == (0, 250, 0)
    assert not [w for w in caught if 'flag' in str(w.message)]


def test_only_unclaimed_bytes_are_gaps_and_lod_stops_at_md3_max_lods(tmp_path):
    assert md3.parse(tetra_md3()).gaps == []
    data = tetra_md3(gap=b'hole', trailing=b'end')
    gaps = md3.parse(data).gaps
    assert [bytes(g) for _, g in gaps] == [b'hole', b'end'] and gaps[1][0] == len(data) - 3
    for lod in (3, -1):
        with pytest.raises(ValueError, match='MD3_MAX_LODS'):
            pq.load(tmp_path / 'x.md3', lod=lod)


def test_more_than_md3_max_surfaces_is_misdrawn_by_id_quake3():
    surface = dict(name='s', shaders=[], triangles=[[0, 1, 2]], st=np.zeros((3, 2)), xyz=np.zeros((1, 3, 3)), normal=np.zeros((1, 3)))
    for count, expected in ((32, set()), (33, {('quake3', 'misdraws')})):
        found = {(f.engine, f.effect) for f in pq.check(build_md3([surface] * count)) if f.field == 'numSurfaces'}
        assert found == expected


def test_quantize_holds_every_short_and_refuses_non_finite():
    np.testing.assert_array_equal(md3.quantize([[-512.0, 511.984375, 0]]), [[-32768, 32767, 0]])
    for bad in (np.nan, np.inf, -512.02):
        with pytest.raises(ValueError, match='outside what an MD3 holds'):
            md3.quantize([[bad, 0, 0]])


def test_a_surface_of_nothing_but_its_header_loads():
    empty = dict(name='empty', shaders=[], triangles=np.zeros((0, 3)), st=np.zeros((0, 2)), xyz=np.zeros((1, 0, 3)), normal=np.zeros((1, 0)))
    data = build_md3([empty])
    record = md3.parse(data)
    assert int(record.surfaces[0].header[0]['ofsEnd']) == md3.SURFACE.itemsize
    blocks = pq.load(data).frame(0)
    assert blocks.keys() == ['empty'] and blocks[0].n_points == 0
    assert md3.write(record) == data


def test_ufo_ai_tag_files_give_an_md2_its_tags(tmp_path):
    from builders import tetra_md2

    from pyvista_quake.formats import tag as tag_file
    from pyvista_quake.formats.records import Tag

    origins = np.array([[1.0, 2, 3], [4, 5, 6], [7, 8, 9]])
    axes = np.stack([np.eye(3), np.eye(3)[[1, 0, 2]], np.eye(3)])
    data = tag_file.write({'tag_rweapon': Tag('tag_rweapon', origins, axes), 'tag_floor': Tag('tag_floor', origins * 0, axes)})
    # The layout, from the bytes: JDP2, version 1, 2 tags, 3 frames; names; then tag-major 4 x 3 floats.
    assert data[:4] == b'JDP2' and struct.unpack_from('<3i', data, 4) == (1, 2, 3)
    ofs_tags = struct.unpack_from('<i', data, 20)[0]
    assert struct.unpack_from('<12f', data, ofs_tags + 48) == (0, 1, 0, 1, 0, 0, 0, 0, 1, 4, 5, 6)  # tag 0, frame 1
    (tmp_path / 'body.md2').write_bytes(tetra_md2(names=['a1', 'a2', 'a3']))
    (tmp_path / 'body.tag').write_bytes(data)
    model = pq.load(tmp_path / 'body.md2')
    assert list(model.tags) == ['tag_rweapon', 'tag_floor']
    np.testing.assert_allclose(model.tag('tag_rweapon', frame=1)[:3, 3], [4, 5, 6])
    np.testing.assert_allclose(model.tag('tag_rweapon', frame=1)[:3, :3], axes[1].T)
    assert pq.load(tmp_path / 'body.md2', skin=None).tags['tag_floor'].origins.shape == (3, 3)
    (tmp_path / 'short.md2').write_bytes(tetra_md2(names=['a1', 'a2', 'a3']))
    (tmp_path / 'short.tag').write_bytes(tag_file.write({'tag_floor': Tag('tag_floor', origins[:2], axes[:2])}))
    with pytest.warns(pq.QuakeWarning, match=r'short\.tag: its tags have 2 frames, the model 3; left out'):
        assert pq.load(tmp_path / 'short.md2').tags == {}
    with pytest.raises(pq.QuakeFormatError, match='ofs_tags'):
        tag_file.parse(data[:-4], 'cut.tag')
    with pytest.raises(pq.QuakeFormatError, match='ident'):
        tag_file.parse(b'JDP3' + data[4:], 'other.tag')
    assert pq.load(tetra_md3()).tags and pq.load(tmp_path / 'body.md2').tags is not None


@requires_corpus
def test_ufo_ai_soldier_tags_from_the_corpus():
    body = OPENARENA.parent.parent / 'md2' / 'ufoai' / 'models' / 'soldiers' / 'male' / 'body.md2'
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        model = pq.load(body)
    assert list(model.tags) == ['tag_head', 'tag_lweapon', 'tag_rweapon', 'tag_floor']
    assert model.tags['tag_head'].origins.shape == (1007, 3)
    from pyvista_quake.formats import tag as tag_file

    data = body.with_suffix('.tag').read_bytes()
    assert tag_file.write(tag_file.parse(data)) == data  # written back byte for byte
    rows = np.linalg.norm(model.tags['tag_head'].axes, axis=2)
    np.testing.assert_allclose(rows, 1, atol=1e-3)  # unit axes: the layout read right


def test_edits_are_encoded_as_saved(tmp_path):
    model = pq.load(tetra_md3(frames=3))
    moved = model.frame(1)
    for block in moved:
        block.points = block.points + np.float32([0, 0, 0.5])
    model.set_frame(1, moved)
    assert model.edited
    np.testing.assert_allclose(positions_of(model, 1)[0][0, 3], [0, 0, 11.5])
    model.rename_frame(0, 'start')
    model.remove_frames([2])
    assert model.frame_names == ['start', 'frame1'] and len(model) == 2
    np.testing.assert_allclose(model.tags['tag_head'].origins[:, 2], [10, 11])  # tags follow their frames
    model.save(tmp_path / 'edited.md3')
    again = pq.load(tmp_path / 'edited.md3')
    assert again.frame_names == ['start', 'frame1'] and again.surface_names == ['body', 'flag']
    for a, b in zip(positions_of(again), positions_of(model)):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_allclose(normals_of(again)[0][1], normals_of(model)[0][1])
    with pytest.raises(ValueError, match='2 surfaces, not 1'):
        model.set_frame(0, [np.zeros((4, 3))])
    with pytest.raises(ValueError, match='4 vertices'):
        model.set_frame(0, [np.zeros((5, 3)), np.zeros((3, 3))])
    with pytest.raises(ValueError, match='at least one frame'):
        model.remove_frames([0, 1])
    with pytest.raises(ValueError, match='longer than 15'):
        model.rename_frame(0, 'x' * 16)


def test_frames_added_in_place():
    model = pq.load(tetra_md3(frames=2))
    up = model.frame(1)
    for block in up:
        block.points = block.points + np.float32([0, 0, 5])
    model.add_frames([up], names=['jump'])
    assert model.frame_names == ['frame0', 'frame1', 'jump'] and len(model) == 3
    np.testing.assert_allclose(positions_of(model, 2)[0][0, 3], [0, 0, 16])
    np.testing.assert_allclose(model.tags['tag_head'].origins[:, 2], [10, 11, 11])  # the new frame's tag: the one before
    model.add_frames([[p[0] for p in positions_of(model, 0)]], names=['first'], at=0)
    assert model.frame_names == ['first', 'frame0', 'frame1', 'jump']
    np.testing.assert_allclose(model.tags['tag_head'].origins[:, 2], [10, 10, 11, 11])
    with pytest.raises(ValueError, match='at must be'):
        model.add_frames([up], at=9)
    with pytest.raises(ValueError, match='2 frames but 1 names'):
        model.add_frames([up, up], names=['x'])


def test_bounds_entries_and_explicit_normals():
    model = pq.load(tetra_md3(frames=3))
    np.testing.assert_allclose(model.bounds([1])[0], [0, 10, 0, 10, 1, 25])  # the body moved up a unit, the flag not
    assert model.entries == [range(0, 1), range(1, 2), range(2, 3)]
    empty = dict(name='empty', shaders=[], triangles=np.zeros((0, 3)), st=np.zeros((0, 2)), xyz=np.zeros((1, 0, 3)), normal=np.zeros((1, 0)))
    np.testing.assert_array_equal(pq.load(build_md3([empty])).bounds(), np.zeros((1, 6)))
    blocks = model.frame(0)
    down = [np.tile([0.0, 0, -1], (block.n_points, 1)) for block in blocks]
    model.set_frame(0, blocks, normals=down)  # given normals win over the blocks' own
    np.testing.assert_allclose(normals_of(model, 0)[0][0], np.tile([0, 0, -1.0], (4, 1)), atol=1e-6)


def test_a_shader_named_with_an_extension_matches_its_script(tmp_path):
    root = tmp_path / 'game'
    folder = root / 'models' / 'test'
    folder.mkdir(parents=True)
    surface = dict(
        name='s', shaders=['models/test/glow.tga'], triangles=[[0, 1, 2]], st=np.zeros((3, 2)), xyz=np.zeros((1, 3, 3)), normal=np.zeros((1, 3))
    )
    (folder / 'm.md3').write_bytes(build_md3([surface]))
    (root / 'scripts').mkdir()
    (root / 'scripts' / 'glow.shader').write_text('models/test/glow\n{\n{\nmap models/test/lamp.tga\n}\n}\n')
    Image.fromarray(np.full((2, 2, 3), 90, np.uint8)).save(folder / 'lamp.tga')
    assert pq.load(folder / 'm.md3').surfaces[0].image()[0, 0, 0] == 90
    bare = tmp_path / 'bare' / 'models' / 'test' / 'm.md3'
    bare.parent.mkdir(parents=True)
    bare.write_bytes(build_md3([surface]))
    with pytest.warns(pq.QuakeWarning, match=r'tried .*glow\.png'):  # the places tried, named
        pq.load(bare).surfaces[0].image()


def test_a_tag_file_of_its_header_alone_holds_no_tags_and_one_byte_less_is_refused():
    from pyvista_quake.formats import tag as tag_file

    header = tag_file.write({})
    assert len(header) == tag_file.HEADER.itemsize  # no names, no matrices: the header is the whole file
    assert tag_file.parse(header, 'empty.tag') == {}
    with pytest.raises(pq.QuakeFormatError, match=r'short\.tag.*header.*31.*shorter than the 32-byte header'):
        tag_file.parse(header[:-1], 'short.tag')


def test_an_md3_s_texture_coordinates_are_its_own_whatever_its_image_s_size(tmp_path):
    folder = tmp_path / 'models' / 'test'
    folder.mkdir(parents=True)
    (folder / 'm.md3').write_bytes(tetra_md3())
    Image.new('RGB', (8, 4), (0, 0, 255)).save(folder / 'body.tga')  # found, and not 1 x 1: nothing divides by it
    block = pq.load(folder / 'm.md3').blocks(0)[0]
    assert block.field_data['skin_location'][0].endswith('body.tga')
    np.testing.assert_allclose(block.active_texture_coordinates, [[0, 1], [1, 1], [0, 0], [0.5, 0.5]])
