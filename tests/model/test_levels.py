"""Levels (BSP): Quake III, Quake 1 (BSP29, BSP2, 2PSB), Quake II and UFO: AI, on levels built from the spec and real maps."""

from __future__ import annotations

import io
import json
import math
import os
from pathlib import Path
import subprocess
import sys
import warnings
import zipfile

from conftest import CORPUS
from conftest import requires_corpus
from game_folders import lit_square_level
from level_builders import SKY
from level_builders import build_q1
from level_builders import build_q2
from level_builders import build_q3
from level_builders import build_ufo
from level_builders import q1_args
from level_builders import q2_level
from level_builders import q3_drawvert
from level_builders import q3_level
from level_builders import q3_surface
from level_builders import square
from level_builders import ufo_level
import numpy as np
from PIL import Image
import pytest
import pyvista as pv

import pyvista_quake
from pyvista_quake import QuakeFormatError

PLAYERCLIP = 0x10000
#: Built levels have no textures beside them: the warnings that say so are not what these tests look at.
pytestmark = pytest.mark.filterwarnings('ignore::pyvista_quake.QuakeWarning')


def load(data: bytes, tmp_path: Path, name: str = 'level.bsp', **options):
    path = tmp_path / name
    path.write_bytes(data)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # no textures beside the built levels
        return pyvista_quake.load(path, **options)


# -- Quake III --------------------------------------------------------------------------------


def test_q3_surfaces_per_brush_model_and_shader(tmp_path):
    level = load(q3_level(), tmp_path)
    assert level.format == 'bsp'
    names = [(s.name, s.brush_model) for s in level.surfaces]
    assert names == [('textures/base/floor', 0), ('textures/base/curve', 0), ('textures/base/door', 1)]
    assert [len(s.triangles) for s in level.data.surfaces] == [4, 2 * 8 * 8, 2]
    blocks = level.blocks(0)
    assert blocks.n_blocks == 3
    assert blocks[2].field_data['brush_model'][0] == 1
    assert len(level) == 1
    from builders import tetra_md3

    (tmp_path / 'm.md3').write_bytes(tetra_md3())
    assert 'brush_model' not in pyvista_quake.load(tmp_path / 'm.md3').blocks(0)[0].field_data  # a model has no brush models


def test_q3_hide_by_shader_flags(tmp_path):
    everything = load(q3_level(), tmp_path, hide=())
    assert 'textures/skies/night' in [s.name for s in everything.surfaces]
    kept = load(q3_level(), tmp_path, hide=('nodraw',))
    assert 'textures/skies/night' in [s.name for s in kept.surfaces]
    hidden = load(q3_level(), tmp_path, hide=('sky',))
    assert 'textures/skies/night' not in [s.name for s in hidden.surfaces]
    with pytest.raises(ValueError, match='hide'):
        load(q3_level(), tmp_path, hide=('doors',))


def test_q3_brush_model_placed_at_its_origin(tmp_path):
    level = load(q3_level(), tmp_path)
    door = level.surfaces[2].positions(0)[0]
    np.testing.assert_allclose(door.min(axis=0), [100, 200, 300])
    np.testing.assert_allclose(door.max(axis=0), [164, 264, 300])


def test_q3_lightmap_coordinates_zero_without_a_lightmap_and_never_nan(tmp_path):
    level = load(q3_level(), tmp_path)
    floor = level.blocks(0)[0]
    lightmap = np.asarray(floor.point_data['lightmap'])
    z = np.asarray(floor.points)[:, 2]
    np.testing.assert_array_equal(lightmap[z == 0], np.tile([0.25, 0.5], (4, 1)).astype(np.float32))
    np.testing.assert_array_equal(lightmap[z == 10], 0)
    assert np.asarray(floor.point_data['lightmap_page'])[z == 10].tolist() == [-1] * 4
    for block in level.blocks(0):
        for name in block.point_data.keys():
            values = np.asarray(block.point_data[name])
            if values.dtype.kind == 'f':
                assert np.isfinite(values).all(), name
    assert level.lightmaps.shape == (2, 128, 128, 3)


def test_q3_triangles_counter_clockwise_from_the_front(tmp_path):
    mesh = load(q3_level(), tmp_path).mesh(0)
    faces = mesh.regular_faces
    p = np.asarray(mesh.points, np.float64)
    normal = np.cross(p[faces[:, 1]] - p[faces[:, 0]], p[faces[:, 2]] - p[faces[:, 0]])
    stored = np.asarray(mesh.point_data['Normals'])[faces[:, 0]]
    assert ((normal * stored).sum(1) > 0).all()


@pytest.mark.parametrize('level_n', [1, 2, 5, 8])
def test_q3_patch_fixed_tessellation(tmp_path, level_n):
    level = load(q3_level(), tmp_path, patch_level=level_n)
    curve = level.data.surfaces[1]
    assert len(curve.triangles) == 2 * level_n * level_n
    points = level.surfaces[1].positions(0)[0]
    assert len(points) == (level_n + 1) ** 2
    # Corners lie on the surface; the middle is the Bezier of the raised centre control point: 64 * (2 t (1 - t))^2.
    for corner in ([0, 0, 0], [64, 0, 0], [0, 64, 0], [64, 64, 0]):
        assert np.isclose(points, corner).all(axis=1).any()
    if level_n % 2 == 0:
        middle = points[np.isclose(points[:, :2], [32, 32]).all(axis=1)]
        np.testing.assert_allclose(middle[:, 2], [64 * 0.5**2])


def test_q3_patch_level_checked(tmp_path):
    with pytest.raises(ValueError, match="^patch_level must be a whole number from 1 to 64 or 'engine', not 0$"):
        load(q3_level(), tmp_path, patch_level=0)
    with pytest.raises(ValueError, match='patch_level'):
        load(q3_level(), tmp_path, patch_level=65)
    assert len(load(q3_level(), tmp_path, patch_level=64).data.surfaces[1].triangles) == 2 * 64 * 64


def test_q3_entities_first_of_a_repeated_key(tmp_path):
    level = load(q3_level(), tmp_path)
    assert [e['classname'] for e in level.entities] == ['worldspawn', 'func_door', 'info_player_deathmatch', 'item_armor_body']
    assert level.entities[2]['angle'] == '90'
    points = level.point_entities()
    assert points.n_points == 2  # the door is a brush model, worldspawn has no origin
    assert list(points.point_data['classname']) == ['info_player_deathmatch', 'item_armor_body']
    np.testing.assert_allclose(points.points, [[1, 2, 3], [-5, 6, 7]])
    assert list(points.point_data['entity_index']) == [2, 3]


def test_q3_zero_vertex_normals_take_the_triangles_own(tmp_path):
    verts, indexes = square(0.0, normal=(0, 0, 0))
    data = build_q3([[('classname', 'worldspawn')]], [('textures/a', 0, 1)], [(0, 1)], verts, indexes, [q3_surface(0, 1, 0, 4, 0, 6, lightmap=-3)])
    normals = load(data, tmp_path).surfaces[0].normals(0)[0]
    np.testing.assert_allclose(normals, np.tile([0, 0, 1], (4, 1)), atol=1e-6)


@pytest.mark.parametrize(
    'change, field',
    [
        (dict(surfaces=[q3_surface(0, 2, 0, 8, patch=(4, 2))]), 'patchWidth'),
        (dict(surfaces=[q3_surface(0, 2, 0, 1, patch=(1, 1))]), 'patchWidth'),
        (dict(surfaces=[q3_surface(0, 1, 0, 4, 0, 6)], indexes=[0, 1, 2, 0, 2, 4]), 'drawindexes'),
        (dict(surfaces=[q3_surface(0, 1, 40, 4, 0, 6)]), 'surfaces[0]'),
        (dict(surfaces=[q3_surface(9, 1, 0, 4, 0, 6)]), 'shaderNum'),
        (dict(surfaces=[q3_surface(0, 0, 0, 4, 0, 6)]), 'surfaceType'),
        (dict(models=[(0, 7)]), 'models[0]'),
    ],
)
def test_q3_bad_records_named(tmp_path, change, field):
    args = dict(
        entities=[[('classname', 'worldspawn')]],
        shaders=[('textures/a', 0, 1)],
        models=[(0, 1)],
        drawverts=square()[0] * 2,
        indexes=[0, 1, 2, 0, 2, 3],
        surfaces=[q3_surface(0, 1, 0, 4, 0, 6)],
    )
    args.update(change)
    with pytest.raises(QuakeFormatError, match=field.replace('[', r'\[').replace(']', r'\]')):
        load(build_q3(**args), tmp_path)


def test_bad_headers_named(tmp_path):
    good = q3_level()
    with pytest.raises(QuakeFormatError, match='version'):
        load(good[:4] + (47).to_bytes(4, 'little') + good[8:], tmp_path)
    with pytest.raises(QuakeFormatError, match='past the end'):
        load(good[:-100], tmp_path)  # the last lump runs past the file
    with pytest.raises(QuakeFormatError, match='inside the header'):
        load(good[:100], tmp_path)
    # The shaders lump one byte short of its records: "funny lump size".
    offset, length = np.frombuffer(good, '<i4', 2, 16)
    funny = good[:16] + np.array([offset, length - 1], '<i4').tobytes() + good[24:]
    with pytest.raises(QuakeFormatError, match='whole number'):
        load(funny, tmp_path)
    broken = good.replace(b'"-5 6 7"\n}\n', b'"-5 6 7"\n \n')  # the same length: the lumps stay where they are
    with pytest.raises(QuakeFormatError, match='not closed'):
        load(broken, tmp_path)


def test_a_lump_ending_exactly_at_the_end_of_the_file(tmp_path):
    data = q3_level(lightmaps=1)  # the lightmap lump is the last one laid out
    offset, length = np.frombuffer(data, '<i4', 2, 8 + 14 * 8)
    assert offset + length == len(data)
    assert load(data, tmp_path).lightmaps.shape == (1, 128, 128, 3)


def test_level_written_back_byte_for_byte_and_not_converted(tmp_path):
    data = q3_level()
    level = load(data, tmp_path)
    level.save(tmp_path / 'copy.bsp')
    assert (tmp_path / 'copy.bsp').read_bytes() == data
    with pytest.raises(ValueError, match='written only as they were read'):
        level.save(tmp_path / 'copy.md3')


def test_pv_read_of_a_level(tmp_path):
    (tmp_path / 'level.bsp').write_bytes(q3_level())
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        blocks = pv.read(tmp_path / 'level.bsp')
        assert isinstance(blocks, pv.MultiBlock) and blocks.n_blocks == 3
        assert isinstance(pv.get_reader(tmp_path / 'level.bsp'), pyvista_quake.plugin.readers.BSPReader)
        with zipfile.ZipFile(tmp_path / 'maps.pk3', 'w') as archive:
            archive.writestr('maps/level.bsp', q3_level())
        model = pyvista_quake.load(f'{tmp_path / "maps.pk3"}:maps/level.bsp')
    assert len(model.surfaces) == 3


# -- Quake 1 ------------------------------------------------------------------------------------


@pytest.mark.parametrize('ident', [None, b'BSP2', b'2PSB'])
def test_q1_faces_fans_texture_coordinates_and_embedded_pictures(tmp_path, ident):
    level = load(build_q1(**q1_args(), ident=ident), tmp_path, hide=())
    assert [(s.name, s.brush_model) for s in level.surfaces] == [('stone1', 0), ('sky4', 1)]
    floor = level.blocks(0)[0]
    assert floor.n_cells == 2
    uv = np.asarray(floor.active_texture_coordinates)
    xy = np.asarray(floor.points)[:, :2]
    np.testing.assert_allclose(uv[:, 0], xy[:, 0] / 32)
    np.testing.assert_allclose(uv[:, 1], 1 - xy[:, 1] / 64)
    np.testing.assert_allclose(np.asarray(floor.point_data['Normals']), np.tile([0, 0, 1], (4, 1)))
    image = level.surfaces[0].image()
    assert image.shape == (64, 32, 3)
    np.testing.assert_array_equal(image[0, 0], pyvista_quake.game.skins.QUAKE_PALETTE[7])
    # The door's model stands at its entity's origin.
    np.testing.assert_allclose(level.surfaces[1].positions(0)[0][:, 0].min(), 10)
    assert level.entities[0]['wad'] == 'b.wad'  # Quake 1 keeps the last of a repeated key


def test_q1_sky_hidden_by_default(tmp_path):
    level = load(build_q1(**q1_args()), tmp_path)
    assert [s.name for s in level.surfaces] == ['stone1']


def test_q1_bad_indices_named(tmp_path):
    args = dict(q1_args(), models=[(0, 1, (0, 0, 0))])
    args['faces'] = [(0, 0, [0, 1, 2, 3], 5, -1)]
    with pytest.raises(QuakeFormatError, match='faces.texinfo'):
        load(build_q1(**args), tmp_path)
    args = dict(q1_args(), models=[(0, 1, (0, 0, 0))])
    args['faces'] = [(0, 0, [0, 1, 2, 30], 0, -1)]
    with pytest.raises(QuakeFormatError, match='edges.v'):
        load(build_q1(**args), tmp_path)
    args = dict(q1_args(), models=[(0, 1, (0, 0, 0))])
    args['faces'] = [(0, 0, [0, 1], 0, -1)]
    with pytest.raises(QuakeFormatError, match='numedges'):
        load(build_q1(**args), tmp_path)
    args = q1_args()
    args['models'] = [(0, 3, (0, 0, 0))]
    with pytest.raises(QuakeFormatError, match=r'models\[0\]'):
        load(build_q1(**args), tmp_path)


# -- Quake II -----------------------------------------------------------------------------------


def test_q2_texels_divided_by_the_image_the_game_finds(tmp_path):
    raw = load(q2_level(), tmp_path)
    assert [s.name for s in raw.surfaces] == ['e1u1/floor']  # the texture name as stored
    assert raw.surfaces[0].image_name == 'textures/e1u1/floor.wal'  # where the game looks for its image
    uv = np.asarray(raw.blocks(0)[0].active_texture_coordinates)
    assert uv[:, 0].max() == 32  # no image: coordinates stay in texels
    (tmp_path / 'textures' / 'e1u1').mkdir(parents=True)
    Image.new('RGB', (16, 8), (200, 10, 10)).save(tmp_path / 'textures' / 'e1u1' / 'floor.png')
    level = load(q2_level(), tmp_path)
    floor = level.blocks(0)[0]
    uv = np.asarray(floor.active_texture_coordinates)
    xy = np.asarray(floor.points)[:, :2]
    np.testing.assert_allclose(uv[:, 0], xy[:, 0] / 16)
    np.testing.assert_allclose(uv[:, 1], 1 - xy[:, 1] / 8)
    assert level.surfaces[0].image().shape == (8, 16, 3)


def test_q2_wal_textures_through_the_colormap_palette(tmp_path):
    (tmp_path / 'textures' / 'e1u1').mkdir(parents=True)
    width, height = 8, 4
    header = b'e1u1/floor'.ljust(32, b'\0') + np.array([width, height, 100, 132, 140, 142], '<u4').tobytes() + bytes(32 + 12)
    pixels = np.arange(width * height, dtype=np.uint8)
    (tmp_path / 'textures' / 'e1u1' / 'floor.wal').write_bytes(header + pixels.tobytes() + bytes(16))
    palette = np.zeros((256, 3), np.uint8)
    palette[:, 0] = np.arange(256)
    (tmp_path / 'pics').mkdir()
    (tmp_path / 'pics' / 'colormap.pcx').write_bytes(bytes(128) + b'\x0c' + palette.tobytes())
    level = load(q2_level(), tmp_path)
    image = level.surfaces[0].image()
    assert image.shape == (4, 8, 3)
    np.testing.assert_array_equal(image[..., 0].reshape(-1), pixels)
    uv = np.asarray(level.blocks(0)[0].active_texture_coordinates)
    assert uv[:, 0].max() == 32 / 8


def test_q2_nodraw_and_sky_hidden_by_flags(tmp_path):
    assert len(load(q2_level(), tmp_path, hide=()).surfaces) == 2
    assert load(q2_level(flags=SKY), tmp_path).surfaces == []
    assert len(load(q2_level(flags=SKY), tmp_path, hide=('nodraw',)).surfaces) == 1


# -- UFO: AI -------------------------------------------------------------------------------------


def test_ufo_level_models_are_the_world_and_star_n_is_258_plus_n(tmp_path):
    args = q1_args()
    phong = 0x400
    texinfo = [(((1, 0, 0, 0), (0, 1, 0, 0)), phong, 'tex_farm/wall'), (((1, 0, 0, 0), (0, 1, 0, 0)), 0, 'tex_common/actorclip')]
    faces = args['faces'] + [(0, 0, [0, 1, 2, 3], 0, -1)]
    models = [(0, 0, (0, 0, 0))] * 259 + [(1, 1, (0, 0, 0))]
    models[3] = (0, 1, (0, 0, 0))  # the world's faces sit in a level model, not model 0
    models[258] = (2, 1, (0, 0, 0))
    normals = [(0, 0, 1), (0, 0, 0), (0, 0.6, 0.8), (0, 0, 1)] + [(0, 0, 0)] * 4
    entities = [[('classname', 'worldspawn')], [('classname', 'func_rotating'), ('model', '*1'), ('origin', '0 0 100')]]
    data = build_ufo(entities, args['vertexes'], args['planes'], texinfo, faces, models, normals)
    level = load(data, tmp_path, hide=())
    assert [(s.name, s.brush_model) for s in level.surfaces] == [('tex_farm/wall', 0), ('tex_common/actorclip', 1)]
    assert [s.image_name for s in level.surfaces] == ['textures/tex_farm/wall', 'textures/tex_common/actorclip']
    assert len(level.data.surfaces[0].triangles) == 4  # models 3 and 258, both the world
    assert level.surfaces[1].positions(0)[0][:, 2].min() == 108
    wall = level.surfaces[0]
    normals_out = wall.normals(0)[0]
    points = wall.positions(0)[0]
    # A PHONG face's vertex with a stored normal uses it; a zero stored normal takes the plane's.
    at = {tuple(p): n for p, n in zip(points.tolist(), normals_out.tolist())}
    np.testing.assert_allclose(at[(32.0, 64.0, 0.0)], [0, 0.6, 0.8], atol=1e-6)
    np.testing.assert_allclose(at[(0.0, 64.0, 0.0)], [0, 0, 1], atol=1e-6)
    assert load(data, tmp_path).surfaces[0].name == 'tex_farm/wall'
    assert level.level.brush_models == 2  # the world (the 259 level models) and *1
    assert len(load(data, tmp_path).surfaces) == 1  # the actor clip is hidden by default
    bad = build_ufo(entities, args['vertexes'], args['planes'], texinfo, faces, models, normals[:-1])
    with pytest.raises(QuakeFormatError, match='normals'):
        load(bad, tmp_path)


# -- real maps ---------------------------------------------------------------------------------------

#: From the corpus README: (file, member, entities, world triangles, brush-model triangles), patches at level 8, nothing hidden.
MAPS = [
    ('openarena-am_lavactf.pk3', 'maps/am_lavactf.bsp', 146, 3488, 0),
    ('openarena-q3dm6ish.pk3', 'maps/q3dm6ish.bsp', 89, 2549, 72),
    ('oacmp1-oacmpdm3.pk3', 'maps/oacmpdm3.bsp', 191, 33792, 812),
    ('nexuiz-aggressor.pk3', 'maps/aggressor.bsp', 206, 17659, 32),
    ('ufoai-st_i08.pk3', 'maps/frozen/st_i08.bsp', 15, 1079, 284),
    ('ufoai-ja_f4.pk3', 'maps/japan/ja_f4.bsp', 13, 42, 24),
    ('ufoai-f_road_v.pk3', 'maps/farm/f_road_v.bsp', 1, 6, 0),
]


@requires_corpus
@pytest.mark.corpus
@pytest.mark.parametrize('file, member, entities, world, brush', MAPS)
def test_real_maps_counts(file, member, entities, world, brush):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        level = pyvista_quake.load(CORPUS / 'bsp' / file, member=member, hide=())
    assert len(level.entities) == entities
    triangles = [(s.brush_model, len(d.triangles)) for s, d in zip(level.surfaces, level.data.surfaces)]
    assert sum(n for b, n in triangles if b == 0) == world
    assert sum(n for b, n in triangles if b > 0) == brush
    for block in level.blocks(0):
        for name in block.point_data.keys():
            values = np.asarray(block.point_data[name])
            if values.dtype.kind == 'f':
                assert np.isfinite(values).all(), (file, name)
    mesh = level.mesh(0)
    faces = mesh.regular_faces
    p = np.asarray(mesh.points, np.float64)
    cross = np.cross(p[faces[:, 1]] - p[faces[:, 0]], p[faces[:, 2]] - p[faces[:, 0]])
    facing = (cross * np.asarray(mesh.point_data['Normals'])[faces].mean(1)).sum(1)
    # By area: q3map2's T-junction slivers, drawn as stored, may face either way.
    area = np.linalg.norm(cross, axis=1)
    assert area[facing >= 0].sum() > 0.99 * area.sum(), file
    assert (facing >= 0).mean() > 0.95, file


@requires_corpus
@pytest.mark.corpus
def test_real_map_lightmaps_and_hidden_faces():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        level = pyvista_quake.load(CORPUS / 'bsp' / 'openarena-am_lavactf.pk3', member='maps/am_lavactf.bsp')
        shown = sum(len(s.triangles) for s in level.data.surfaces)
    assert level.lightmaps.shape == (6, 128, 128, 3)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        outside = pyvista_quake.load(CORPUS / 'bsp' / 'nexuiz-aggressor.pk3', member='maps/aggressor.bsp').lightmaps
    assert outside.shape == (1, 512, 512, 3)  # lm_0000.tga only: the map is -deluxe, lm_0001.tga holds directions
    assert shown < 3488  # the sky and the tool faces are left out by default
    assert 'textures/skies/nitesky' not in [s.name for s in level.surfaces]
    spawns = level.point_entities()
    assert (np.asarray(spawns.point_data['classname']) == 'info_player_start').sum() == 8


@requires_corpus
@pytest.mark.corpus
def test_real_map_textured_thumbnail(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        level = pyvista_quake.load(CORPUS / 'bsp' / 'oacmp1-oacmpdm3.pk3', member='maps/oacmpdm3.bsp')
        images = [s.image() for s in level.surfaces[:5]]
        pyvista_quake.render_thumbnail(level, tmp_path / 'dm3.png')
    assert any(i is not None for i in images)
    picture = np.asarray(Image.open(io.BytesIO((tmp_path / 'dm3.png').read_bytes())).convert('RGB'))
    drawn = picture[(picture != picture[0, 0]).any(axis=2)]
    assert len(drawn) > picture.shape[0] * picture.shape[1] // 10
    assert drawn.std(axis=0).max() > 5  # textured, not one flat colour


def test_q3_patch_lightmap_page_and_a_lit_face_with_nan_coordinates(tmp_path):
    level = load(q3_level(), tmp_path)
    curve = level.blocks(0)[1]
    assert set(np.asarray(curve.point_data['lightmap_page']).tolist()) == {0}  # the patch names page 0
    np.testing.assert_allclose(np.asarray(curve.point_data['lightmap']).mean(axis=0), [0.5, 0.5])
    verts, indexes = square(0.0, lightmap=(math.nan, math.inf))
    data = build_q3(
        [[('classname', 'worldspawn')]], [('textures/a', 0, 1)], [(0, 1)], verts, indexes, [q3_surface(0, 1, 0, 4, 0, 6, lightmap=0)], lightmaps=1
    )
    lit = load(data, tmp_path).blocks(0)[0]
    np.testing.assert_array_equal(np.asarray(lit.point_data['lightmap']), 0)  # lit, but NaN stored: 0, never NaN
    assert set(np.asarray(lit.point_data['lightmap_page']).tolist()) == {0}


# -- pictures: the texture multiplied by the lightmap, as the engine draws a level ------------


def test_the_engine_brightens_lightmaps_and_keeps_their_hue():
    from pyvista_quake.game.skins import shifted_lighting

    texels = np.array([[[20, 40, 60], [100, 50, 10], [64, 64, 64], [0, 0, 0]]], np.uint8)
    np.testing.assert_array_equal(shifted_lighting(texels), [[[80, 160, 240], [255, 127, 25], [255, 255, 255], [0, 0, 0]]])
    np.testing.assert_array_equal(shifted_lighting(texels, scale=2)[0, 1], [200, 100, 20])  # 200 stays under 255
    np.testing.assert_array_equal(shifted_lighting(texels, scale=264 / 128)[0, 0], [41, 82, 123])  # Quake 1's style 0


def test_a_level_picture_multiplies_its_textures_by_its_lightmaps(tmp_path):
    from pyvista_quake.model.lightmaps import lightmap_atlas

    path = lit_square_level(tmp_path / 'game', [(32, 63, 16), (8, 8, 8)])
    level = pyvista_quake.load(path)
    assert level.lightmaps.shape == (2, 128, 128, 3)
    atlas = lightmap_atlas(level.lightmaps, level.level.light_scale)
    assert atlas.shape == (256, 256, 3)  # 2 pages and the white one, 2 x 2
    np.testing.assert_array_equal(atlas[0, 0], [128, 252, 64])
    np.testing.assert_array_equal(atlas[0, 128], [32, 32, 32])
    np.testing.assert_array_equal(atlas[128, 0], [255, 255, 255])
    picture = np.asarray(Image.open(pyvista_quake.thumbnail(level, tmp_path / 'lit.png', size=(200, 200)))).astype(int)[..., :3]
    bright = np.all(np.abs(picture - [64, 126, 32]) <= 3, axis=2).sum()  # grey 128 x the brightened (128, 252, 64)
    dark = np.all(np.abs(picture - [16, 16, 16]) <= 3, axis=2).sum()  # grey 128 x (32, 32, 32)
    assert bright > 800 and dark > 800, (bright, dark)  # each square is its texture times its page, to the byte


def test_a_face_lit_by_its_vertices_takes_the_atlas_white_page(tmp_path):
    from pyvista_quake.render.plotting import prepare

    lit, _ = square(0.0, lightmap=(0.5, 0.25))
    unlit, _ = square(0.0, x0=80.0, lightmap=(0.5, 0.25))
    surfaces = [q3_surface(0, 1, 0, 4, 0, 6, lightmap=0), q3_surface(1, 1, 4, 4, 6, 6, lightmap=-1)]
    path = tmp_path / 'v.bsp'
    path.write_bytes(
        build_q3([[('classname', 'worldspawn')]], [('a', 0, 1), ('b', 0, 1)], [(0, 2)], lit + unlit, [0, 1, 2, 0, 2, 3] * 2, surfaces, lightmaps=1)
    )
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        mesh, _, atlas, _ = prepare(pyvista_quake.load(path))
    assert atlas.shape == (128, 256, 3)  # page 0, then the white page: a grid of 2 x 1
    np.testing.assert_allclose(mesh[0].point_data['lightmap_atlas'], np.tile([0.25, 0.75], (4, 1)))  # (0.5, 0.25) of page 0
    np.testing.assert_allclose(mesh[1].point_data['lightmap_atlas'], np.tile([0.75, 0.5], (4, 1)))  # the white page's centre
    assert np.all(atlas[:, 128:] == 255)


# -- patch_level="engine": R_SubdividePatchToGrid ---------------------------------------------


def _patch_level(tmp_path, control, width, height, **options):
    """A map of one patch of ``height`` rows of ``width`` control points (row by row), loaded with ``options``."""
    verts = [q3_drawvert(p, st=(p[0] / 64, p[1] / 64)) for p in control]
    path = tmp_path / 'p.bsp'
    path.write_bytes(
        build_q3(
            [[('classname', 'worldspawn')]],
            [('textures/curve', 0, 1)],
            [(0, 1)],
            verts,
            [],
            [q3_surface(0, 2, 0, width * height, patch=(width, height))],
        )
    )
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return pyvista_quake.load(path, **options)


def _bulge(bulge: float, width: int = 3, height: int = 3):
    """Straight rows along y, each a Bezier along x whose odd control points stand ``bulge`` up."""
    return [(32.0 * i, 32.0 * j, bulge if i % 2 else 0.0) for j in range(height) for i in range(width)]


def test_the_engine_subdivides_a_curve_until_it_is_within_r_subdivisions_and_culls_straight_spans(tmp_path):
    curved = _patch_level(tmp_path, _bulge(16.0), 3, 3, patch_level='engine').blocks(0)[0]
    # The middle lies 8 units off its ends' line: two more columns (2 units off each), the straight rows culled to 2.
    assert curved.n_points == 5 * 2 and curved.n_cells == 2 * 4
    fixed = _patch_level(tmp_path, _bulge(16.0), 3, 3, patch_level=4).blocks(0)[0]
    # On the curve at 0, 1/4, 1/2, 3/4 and 1, as the level-4 tessellation puts its columns.
    np.testing.assert_allclose(sorted(set(np.round(curved.points[:, 2], 4))), sorted(set(np.round(fixed.points[:, 2], 4))))
    np.testing.assert_allclose(sorted(set(np.round(curved.points[:, 2], 4))), [0, 6, 8])
    flat = _patch_level(tmp_path, _bulge(0.0), 3, 3, patch_level='engine').blocks(0)[0]
    assert flat.n_points == 4 and flat.n_cells == 2  # straight both ways: its corners
    assert np.all(np.asarray(curved.face_normals)[:, 2] > 0) or np.all(np.asarray(curved.face_normals)[:, 2] < 0)


@pytest.mark.parametrize(('bulge', 'columns'), [(8.0, 3), (8.02, 5), (0.19, 2), (0.21, 3)])
def test_the_engines_thresholds(tmp_path, bulge, columns):
    # 8 units up is 4 off the line: r_subdivisions 4 is not passed; under 0.1 off, the span is straight.
    curved = _patch_level(tmp_path, _bulge(bulge), 3, 3, patch_level='engine').blocks(0)[0]
    assert curved.n_points == columns * 2


def test_the_engine_grid_stops_at_max_grid_size_and_is_turned_to_be_wide(tmp_path):
    big = [(1e4 * i, 32.0 * j, 1e4 if i % 2 else 0.0) for j in range(3) for i in range(3)]  # far more curve than 4 units allow
    assert _patch_level(tmp_path, big, 3, 3, patch_level='engine').blocks(0)[0].n_points == 65 * 2  # MAX_GRID_SIZE columns
    steep = _patch_level(tmp_path, _bulge(1e6), 3, 3, patch_level='engine').blocks(0)[0]
    assert steep.n_points == 9 * 2  # a spike: each half is nearly its own straight line
    tall = [(32.0 * j, 32.0 * i, 16.0 if i % 2 else 0.0) for i in range(3) for j in range(3)]  # the curve runs down the rows
    level = _patch_level(tmp_path, tall, 3, 3, patch_level='engine')
    grid = level.blocks(0)[0]
    assert grid.n_points == 2 * 5
    # 5 high and 2 wide, turned: transposed and each row reversed, so the first point is the last row's first.
    np.testing.assert_allclose(grid.points[0], [0, 64, 0])
    np.testing.assert_allclose(grid.points[1], [0, 48, 6])


def test_patch_level_names_its_choices(tmp_path):
    with pytest.raises(ValueError, match="'engine'"):
        _patch_level(tmp_path, _bulge(1.0), 3, 3, patch_level='adaptive')


# -- Quake 1, II and UFO: AI lightmaps: each face's block in one page ---------------------------


def test_q1_face_blocks_gathered_in_one_page_with_the_luxels_centres(tmp_path):
    args = q1_args()
    args['faces'] = [(0, 0, [0, 1, 2, 3], 0, 0), (1, 0, [4, 5, 6, 7], 1, 0)]  # the sky names light too: TEX_SPECIAL is unlit
    args['texinfo'] = [(((1, 0, 0, 0), (0, 1, 0, 0)), 0, 0), (((1, 0, 0, 0), (0, 1, 0, 0)), 1, 1)]
    ramp = bytes(range(10, 25))  # the floor: s 0..32, t 0..64 -> 3 x 5 luxels, rows of 3
    level = load(build_q1(**args, lighting=ramp), tmp_path, hide=())
    assert level.lightmaps.shape == (1, 5, 3, 3)
    np.testing.assert_array_equal(level.lightmaps[0, ..., 0], np.arange(10, 25).reshape(5, 3))
    np.testing.assert_array_equal(level.lightmaps[0, ..., 1], level.lightmaps[0, ..., 2])  # grey
    floor, sky = level.blocks(0)
    xy = np.asarray(floor.points)[:, :2]
    np.testing.assert_allclose(floor.point_data['lightmap'], (xy / 16 + 0.5) / [3, 5], rtol=1e-6)
    assert set(np.asarray(floor.point_data['lightmap_page']).tolist()) == {0}
    assert set(np.asarray(sky.point_data['lightmap_page']).tolist()) == {-1}
    assert level.level.light_scale == 264 / 128


def test_a_face_whose_block_runs_past_the_lighting_lump_is_unlit(tmp_path):
    args = q1_args()
    args['faces'] = [(0, 0, [0, 1, 2, 3], 0, 1)]
    args['models'] = [(0, 1, (0, 0, 0))]
    exact = load(build_q1(**args, lighting=bytes(16)), tmp_path)  # 1 + 15 bytes: the block ends at the lump's end
    assert len(exact.lightmaps) == 1
    short = load(build_q1(**args, lighting=bytes(15)), tmp_path)
    assert short.lightmaps.shape == (0, 0, 0, 3) and set(np.asarray(short.blocks(0)[0].point_data['lightmap_page']).tolist()) == {-1}


def test_q2_rgb_luxels_and_a_picture_lit_by_them(tmp_path):
    args = q1_args()
    texinfo = [(((1, 0, 0, 0), (0, 1, 0, 0)), 0, 'e1u1/floor'), (((1, 0, 0, 0), (0, 1, 0, 0)), 0x8, 'e1u1/water')]
    faces = [(0, 0, [0, 1, 2, 3], 0, 0), (1, 0, [4, 5, 6, 7], 1, 0)]  # water (SURF_WARP) takes no lightmap
    lighting = bytes([100, 50, 25]) * 15
    data = build_q2(args['entities'], args['vertexes'], args['planes'], texinfo, faces, [(0, 2, (0, 0, 0))], lighting=lighting)
    (tmp_path / 'textures' / 'e1u1').mkdir(parents=True)
    for name in ('floor', 'water'):
        Image.new('RGB', (16, 16), (200, 200, 200)).save(tmp_path / 'textures' / 'e1u1' / f'{name}.png')
    level = load(data, tmp_path)
    assert level.lightmaps.shape == (1, 5, 3, 3) and level.level.light_scale == 1.0
    np.testing.assert_array_equal(level.lightmaps[0, 2, 1], [100, 50, 25])
    floor, water = level.blocks(0)
    assert set(np.asarray(water.point_data['lightmap_page']).tolist()) == {-1}
    picture = np.asarray(Image.open(pyvista_quake.thumbnail(level, tmp_path / 'q2.png', size=(160, 160)))).astype(int)[..., :3]
    lit = np.all(np.abs(picture - [78, 39, 20]) <= 3, axis=2).sum()  # 200 x (100, 50, 25) / 255
    unlit = np.all(np.abs(picture - [200, 200, 200]) <= 3, axis=2).sum()  # the water as its texture
    assert lit > 300 and unlit > 50, (lit, unlit)


# -- check(): what each engine does with a level --------------------------------------------


def _verdicts(data: bytes) -> dict[str, str]:
    from pyvista_quake.game.engines import examined
    from pyvista_quake.game.engines import verdicts

    _, found, engines = examined(data)
    return verdicts(found, 'bsp', engines)


def test_each_level_is_judged_by_the_engines_of_its_own_game():
    assert _verdicts(q3_level()) == {'quake3': 'loads', 'ioquake3': 'loads'}
    assert pyvista_quake.check(q3_level()) == []  # not refused by Quake 1 or II, whose maps these are not
    assert _verdicts(build_q1(**q1_args())) == {'quake': 'loads', 'glquake': 'loads', 'quakespasm': 'loads'}
    assert _verdicts(build_q1(**q1_args(), ident=b'BSP2')) == {'quake': 'refuses', 'glquake': 'refuses', 'quakespasm': 'loads'}
    refused = [f for f in pyvista_quake.check(build_q1(**q1_args(), ident=b'2PSB')) if f.engine == 'quake']
    assert [f.value for f in refused] == ['2PSB'] and 'version 29' in refused[0].rule
    assert _verdicts(q2_level()) == {'quake2': 'loads', 'yquake2': 'loads'}
    assert _verdicts(ufo_level()) == {} and pyvista_quake.check(ufo_level()) == []


def test_check_of_a_quake3_map_exits_0_and_a_catalogue_card_shows_its_own_engines(tmp_path, capsys):
    from pyvista_quake.cli.main import main

    (tmp_path / 'q3.bsp').write_bytes(q3_level())
    assert main(['check', str(tmp_path / 'q3.bsp'), '--json']) == 0
    record = json.loads(capsys.readouterr().out)[0]
    assert record['verdicts'] == {'quake3': 'loads', 'ioquake3': 'loads'} and record['findings'] == [] and record['ok']


@pytest.mark.parametrize(('side', 'rules'), [(31, []), (32, ['even sizes']), (33, ['MAX_PATCH_SIZE']), (1, ['under 3'])])
def test_quake3_refuses_a_patch_wider_than_max_patch_size_or_of_an_even_side(side, rules):
    verts = [q3_drawvert((x * 8.0, y * 8.0, 0.0)) for y in range(3) for x in range(side)]
    data = build_q3([[('classname', 'worldspawn')]], [('textures/a', 0, 1)], [(0, 1)], verts, [], [q3_surface(0, 2, 0, 3 * side, patch=(side, 3))])
    found = [f for f in pyvista_quake.check(data) if f.engine == 'ioquake3']
    assert len(found) == len(rules) and all(text in f.rule for f, text in zip(found, rules))
    assert _verdicts(data)['ioquake3'] == ('refuses' if rules else 'loads')


def test_quake3_refuses_a_bad_surface_type_and_more_than_max_submodels():
    def level(models, surface_type=1):
        v, i = square()
        return build_q3(
            [[('classname', 'worldspawn')]],
            [('textures/a', 0, 1)],
            [(0, 1)] + [(1, 0)] * (models - 1),
            v,
            i,
            [q3_surface(0, surface_type, 0, 4, 0, 6)],
        )

    assert _verdicts(level(256))['quake3'] == 'loads'
    found = [f for f in pyvista_quake.check(level(257)) if f.engine == 'quake3']
    assert [(f.field, f.value) for f in found] == [('models', 257)]
    found = [f for f in pyvista_quake.check(level(1, surface_type=0)) if f.engine == 'ioquake3']
    assert [(f.field, f.value) for f in found] == [('surfaceType', 0)]


def test_info_describes_a_level_by_its_entities_brush_models_and_lightmaps(tmp_path, capsys):
    from pyvista_quake.cli.main import main

    (tmp_path / 'level.bsp').write_bytes(q3_level())
    assert main(['info', str(tmp_path / 'level.bsp'), '--json']) == 0
    record = json.loads(capsys.readouterr().out)[0]
    assert record['level'] == {
        'game': 'quake3',
        'entities': 4,
        'brush_models': 2,
        'lightmap_pages': 2,
        'classnames': {'worldspawn': 1, 'func_door': 1, 'info_player_deathmatch': 1, 'item_armor_body': 1},
    }
    assert record['animations'] == {}  # a level of one frame has no animation
    assert main(['info', str(tmp_path / 'level.bsp')]) == 0
    out = capsys.readouterr().out
    assert 'quake3: 2 brush models, 2 lightmap pages' in out and '4: 1 worldspawn, 1 func_door' in out and 'animation' not in out


@pytest.mark.parametrize(('kinds', 'said'), [(6, ''), (7, ' and 1 more kinds')])
def test_info_names_six_kinds_of_entity_and_counts_the_rest(tmp_path, capsys, monkeypatch, kinds, said):
    from pyvista_quake.cli.main import main

    monkeypatch.setenv('COLUMNS', '300')  # the entities' row on one line

    entities = [[('classname', 'worldspawn')]] + [[('classname', f'kind{k}'), ('origin', '0 0 0')] for k in range(1, kinds)]
    (tmp_path / 'level.bsp').write_bytes(q3_level(entities=entities))
    assert main(['info', str(tmp_path / 'level.bsp')]) == 0
    line = next(row for row in capsys.readouterr().out.splitlines() if 'kind1' in row)
    assert (' more kinds' in line) == bool(said) and (not said or said in line)


def test_lightmap_blocks_of_several_faces_each_in_their_cell(tmp_path):
    args = q1_args()
    args['faces'] = [(0, 0, [0, 1, 2, 3], 0, 0), (1, 0, [4, 5, 6, 7], 0, 15)]  # both lit: 3 x 5 luxels, then 2 x 2
    level = load(build_q1(**args, lighting=bytes(range(10, 25)) + bytes([200, 201, 202, 203])), tmp_path, hide=())
    page = level.lightmaps[0, ..., 0]
    assert page.shape == (5, 6)  # two cells of the largest block (3 x 5) side by side
    np.testing.assert_array_equal(page[:, :3], np.arange(10, 25).reshape(5, 3))
    np.testing.assert_array_equal(page[:2, 3:5], [[200, 201], [202, 203]])  # the second face's block, in the second cell
    assert np.all(page[2:, 3:] == 255) and np.all(page[:, 5] == 255)  # the rest of its cell unused
    small = level.blocks(0)[1]  # the door's square, brush model *1
    uv = np.asarray(small.point_data['lightmap'])
    np.testing.assert_allclose(uv.min(axis=0), [3.5 / 6, 0.5 / 5])  # its first luxel's centre, in its cell


def test_an_engine_grid_curved_both_ways_keeps_its_rows_first(tmp_path):
    dome = [(32.0 * i, 32.0 * j, 16.0 * ((i % 2) + (j % 2))) for j in range(3) for i in range(3)]
    grid = _patch_level(tmp_path, dome, 3, 3, patch_level='engine').blocks(0)[0]
    assert grid.n_points == 5 * 5
    np.testing.assert_allclose(grid.points[0], [0, 0, 0])
    np.testing.assert_allclose(grid.points[1], [16, 0, grid.points[1][2]])  # along the first row: not turned


def test_infinite_lightmap_coordinates_of_a_patch_are_zero(tmp_path):
    verts = [q3_drawvert((32.0 * i, 32.0 * j, 0.0), lightmap=(-math.inf, math.inf)) for j in range(3) for i in range(3)]
    path = tmp_path / 'p.bsp'
    path.write_bytes(
        build_q3(
            [[('classname', 'worldspawn')]],
            [('textures/curve', 0, 1)],
            [(0, 1)],
            verts,
            [],
            [q3_surface(0, 2, 0, 9, lightmap=0, patch=(3, 3))],
            lightmaps=1,
        )
    )
    for level_n in (2, 'engine'):
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            lightmap = np.asarray(pyvista_quake.load(path, patch_level=level_n).blocks(0)[0].point_data['lightmap'])
        assert np.all(lightmap == 0), level_n


def test_a_block_without_lightmap_pages_takes_no_atlas_place():
    from pyvista_quake.model.lightmaps import place_in_atlas

    block = pv.Plane().triangulate()
    block.point_data['lightmap'] = np.zeros((block.n_points, 2), np.float32)
    place_in_atlas(block, 2)
    assert 'lightmap_atlas' not in block.point_data


def test_the_lightmap_is_filtered_linearly_as_the_engines_do(tmp_path):
    from pyvista_quake.render.plotting import internal_plotter
    from pyvista_quake.render.plotting import scene

    level = pyvista_quake.load(lit_square_level(tmp_path / 'game', [(8, 8, 8)]))
    plotter = internal_plotter((64, 64))
    try:
        scene(plotter, level)
        textures = [actor.GetProperty().GetTexture('lightmap') for actor in plotter.actors.values()]
        assert textures and all(t is not None and t.GetInterpolate() for t in textures)
    finally:
        plotter.close()


def test_info_of_a_level_without_lightmaps_counts_no_page(tmp_path, capsys):
    from pyvista_quake.cli.main import main

    (tmp_path / 'q1.bsp').write_bytes(build_q1(**q1_args()))  # no lighting lump
    assert main(['info', str(tmp_path / 'q1.bsp'), '--json']) == 0
    assert json.loads(capsys.readouterr().out)[0]['level']['lightmap_pages'] == 0


@pytest.mark.parametrize(('scale', 'lit'), [(127.5, True), (128.0, False), (math.nan, False)])
def test_a_lightmap_block_wider_than_256_luxels_or_not_finite_is_drawn_unlit(tmp_path, scale, lit):
    args = q1_args()
    args['faces'] = [(0, 0, [0, 1, 2, 3], 0, 0)]
    args['models'] = [(0, 1, (0, 0, 0))]
    args['texinfo'] = [(((scale, 0, 0, 0), (0, 1, 0, 0)), 0, 0)]  # the floor's 32 units: 2 x scale luxels past the first
    data = build_q1(**args, lighting=bytes(range(256)) * 6)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        level = pyvista_quake.load(data)
    said = [str(w.message) for w in caught if 'drawn unlit' in str(w.message)]
    assert (len(level.lightmaps) > 0) == lit and bool(said) != lit
    if lit:
        assert level.lightmaps.shape == (1, 5, 256, 3)
    else:
        assert 'faces[0]' in said[0] and 'at most 256 a side' in said[0]


def test_entity_text_past_ascii_is_kept_in_the_point_arrays(tmp_path):
    entities = [
        [('classname', 'worldspawn')],
        [('classname', 'info_player_start'), ('origin', '0 0 0'), ('message', 'café\x01')],
        [('classname', 'light'), ('origin', '1 0 0')],
    ]
    level = load(q3_level(entities=entities), tmp_path)
    points = level.point_entities()
    assert list(points.point_data['message']) == ['café\x01', '']
    assert list(points.point_data['classname']) == ['info_player_start', 'light']
    points.save(tmp_path / 'spawns.vtp')
    assert list(pv.read(tmp_path / 'spawns.vtp').point_data['message']) == ['café\x01', '']


def test_gltf_of_a_level_carries_its_lightmaps_on_texcoord_1_and_is_validator_clean(gltf_validator, tmp_path):
    from conftest import validate  # noqa: PLC0415
    from game_folders import accessor_data  # noqa: PLC0415
    import pygltflib  # noqa: PLC0415

    from pyvista_quake.examples import synthetic_level  # noqa: PLC0415
    from pyvista_quake.model.lightmaps import lit_blocks  # noqa: PLC0415

    level = pyvista_quake.load(synthetic_level(tmp_path / 'game'))
    pyvista_quake.export(level, tmp_path / 'room.glb')
    report = validate(gltf_validator, tmp_path / 'room.glb')
    assert report['numErrors'] == 0, report['messages']
    gltf = pygltflib.GLTF2().load(str(tmp_path / 'room.glb'))
    blocks = [b for b in level.blocks(0) if b.n_cells]
    atlas = lit_blocks(level, blocks)
    primitives = gltf.meshes[0].primitives
    assert len(primitives) == len(blocks)
    for primitive, block in zip(primitives, blocks):
        light_uv = accessor_data(gltf, primitive.attributes.TEXCOORD_1)
        expected = np.asarray(block.point_data['lightmap_atlas'])
        np.testing.assert_allclose(light_uv, np.column_stack([expected[:, 0], 1 - expected[:, 1]]), atol=1e-7)
        material = gltf.materials[primitive.material]
        assert material.occlusionTexture.texCoord == 1 and material.extras['lightmap']['texCoord'] == 1
        assert material.pbrMetallicRoughness.baseColorTexture.index != material.occlusionTexture.index
    texture = gltf.textures[gltf.materials[primitives[0].material].occlusionTexture.index]
    view = gltf.bufferViews[gltf.images[texture.source].bufferView]
    png = gltf.binary_blob()[view.byteOffset : view.byteOffset + view.byteLength]
    np.testing.assert_array_equal(np.asarray(Image.open(io.BytesIO(png)).convert('RGB')), atlas)
    assert gltf.samplers[texture.sampler].magFilter == pygltflib.LINEAR
    skin = gltf.textures[gltf.materials[primitives[0].material].pbrMetallicRoughness.baseColorTexture.index]
    assert gltf.samplers[skin.sampler].magFilter == pygltflib.NEAREST  # the textures keep their own sampler


def test_gltf_of_a_model_has_no_second_coordinate_set(tmp_path):
    import pygltflib  # noqa: PLC0415

    level = load(q3_level(lightmaps=0), tmp_path)
    pyvista_quake.export(level, tmp_path / 'dark.glb')
    gltf = pygltflib.GLTF2().load(str(tmp_path / 'dark.glb'))
    assert all(p.attributes.TEXCOORD_1 is None for p in gltf.meshes[0].primitives)
    assert all(m.occlusionTexture is None for m in gltf.materials)


# -- pictures of levels: from a player's eyes, or from above ------------------------------------


@pytest.mark.parametrize(
    ('entities', 'game', 'expected'),
    [
        # Quake III: the first deathmatch spot, 26 units up, facing its angle.
        (
            [{'classname': 'info_player_start', 'origin': '9 9 9'}, {'classname': 'info_player_deathmatch', 'origin': '1 2 3', 'angle': '90'}],
            'quake3',
            ([1, 2, 29], 90.0),
        ),
        # Quake: a single-player start before any deathmatch spot, 22 units up; no angle faces +x.
        (
            [{'classname': 'info_player_deathmatch', 'origin': '9 9 9'}, {'classname': 'info_player_start', 'origin': '4 5 6'}],
            'bsp29',
            ([4, 5, 28], 0.0),
        ),
        # A start without a whole origin, or not finite, is passed over.
        (
            [
                {'classname': 'info_player_deathmatch', 'origin': '1 2'},
                {'classname': 'info_player_deathmatch', 'origin': 'nan 0 0'},
                {'classname': 'info_player_deathmatch', 'origin': '7 8 9', 'angle': 'x'},
                {'classname': 'info_player_deathmatch', 'origin': '0 0 0', 'angle': '-45'},
            ],
            'quake3',
            ([0, 0, 26], -45.0),
        ),
        ([{'classname': 'light', 'origin': '0 0 0'}], 'quake3', None),
        ([{'classname': 'info_player_start', 'origin': '0 0 0'}], 'ufoai', None),  # seen from above, never through eyes
    ],
)
def test_a_level_picture_stands_at_the_first_player_start(entities, game, expected):
    from pyvista_quake.formats.bsp import SPAWN_CLASSES  # noqa: PLC0415
    from pyvista_quake.formats.bsp import VIEW_HEIGHT  # noqa: PLC0415
    from pyvista_quake.formats.records import LevelData  # noqa: PLC0415
    from pyvista_quake.model.mesh import spawn_view  # noqa: PLC0415

    view = spawn_view(LevelData(game, entities, view_height=VIEW_HEIGHT[game], spawn_classes=SPAWN_CLASSES[game]))
    if expected is None:
        assert view is None
    else:
        np.testing.assert_allclose(view[0], expected[0])
        assert view[1] == expected[1]


def test_a_level_thumbnail_is_framed_from_its_spawn_point_or_from_above(tmp_path):
    from pyvista_quake.render.plotting import scene  # noqa: PLC0415

    level = load(q3_level(), tmp_path)
    plotter = pv.Plotter(off_screen=True, window_size=(400, 200))
    scene(plotter, level)
    position, focus, up = (np.asarray(v) for v in plotter.camera_position)
    np.testing.assert_allclose(position, [1, 2, 29])  # info_player_deathmatch at 1 2 3, 26 up
    np.testing.assert_allclose((focus - position) / np.linalg.norm(focus - position), [0, 1, 0], atol=1e-9)  # its angle, 90
    np.testing.assert_allclose(up, [0, 0, 1])
    # 90 degrees across, as the games' fov: a 2:1 picture is 2 atan(1/2) high.
    assert plotter.camera.view_angle == pytest.approx(np.degrees(2 * np.arctan(0.5)))
    plotter.close()
    entities = [[('classname', 'worldspawn')], [('classname', 'func_door'), ('model', '*1'), ('origin', '100 200 300')]]
    dark = load(q3_level(entities=entities), tmp_path)
    plotter = pv.Plotter(off_screen=True, window_size=(400, 200))
    mesh = scene(plotter, dark)
    position, focus, up = (np.asarray(v) for v in plotter.camera_position)
    box = np.asarray(mesh.bounds).reshape(3, 2)
    np.testing.assert_allclose(focus, box.mean(axis=1))
    np.testing.assert_allclose(position[:2], focus[:2])
    assert position[2] > box[2, 1]
    np.testing.assert_allclose(up, [1, 0, 0])  # +x up the picture
    # The plan fills the picture: x (up it) or y (across, twice as wide) reaches FILL of its side.
    half = (box[:, 1] - box[:, 0]) / 2
    across = np.tan(np.radians(plotter.camera.view_angle) / 2)
    height = position[2] - box[2, 1]
    assert max(half[0] / (height * across), half[1] / (height * across * 2)) == pytest.approx(0.92)
    plotter.close()


# -- light styles: a still picture sums each face's style blocks at each style's first letter -------------


def _styled_floor(styles, lighting: bytes, entities=(), build=build_q1):
    args = q1_args()
    args['faces'] = [(0, 0, [0, 1, 2, 3], 0, 0, styles)]
    args['models'] = [(0, 1, (0, 0, 0))]
    args['entities'] = [[('classname', 'worldspawn')], *entities]
    if build is build_q1:
        return pyvista_quake.load(build_q1(**args, lighting=lighting))
    texinfo = [(((1, 0, 0, 0), (0, 1, 0, 0)), 0, 'e1u1/floor')]
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # no .wal beside it
        return pyvista_quake.load(
            build_q2(args['entities'], args['vertexes'], args['planes'], texinfo, args['faces'], args['models'], lighting=lighting)
        )


RAMP = bytes(range(10, 25))  # the floor's 3 x 5 luxels


@pytest.mark.parametrize(
    ('styles', 'entities', 'added'),
    [
        ((0, 255, 255, 255), (), 0),
        ((0, 5, 255, 255), (), 45),  # style 5 starts at 'j': 9 / 12 of 60
        ((0, 2, 255, 255), (), 0),  # style 2 starts at 'a'
        ((0, 20, 255, 255), (), 60 * 256 / 264),  # a style nothing sets: Quake's 256 of 264
        ((0, 40, 255, 255), ([('classname', 'light'), ('style', '40'), ('spawnflags', '1')],), 0),  # a switchable light, off
        ((0, 40, 255, 255), ([('classname', 'light_fluoro'), ('style', '40'), ('spawnflags', '2')],), 60),  # on
        ((0, 40, 255, 255), ([('classname', 'func_door'), ('style', '40'), ('spawnflags', '1')],), 60 * 256 / 264),  # no light: unset
        ((0, 255, 5, 255), (), 0),  # 255 ends the list
    ],
)
def test_quake1_light_styles_summed_at_their_first_letter(styles, entities, added):
    level = _styled_floor(styles, RAMP + bytes([60]) * 15 + bytes([200]) * 15, entities)
    expected = np.clip(np.rint(np.arange(10, 25).reshape(5, 3) + added), 0, 255)
    np.testing.assert_array_equal(level.lightmaps[0, ..., 0], expected)


def test_a_light_style_block_past_the_lighting_lump_is_left_out():
    whole = _styled_floor((0, 0, 255, 255), RAMP * 2)  # two style-0 blocks, exactly to the lump's end
    np.testing.assert_array_equal(whole.lightmaps[0, ..., 0], 2 * np.arange(10, 25).reshape(5, 3))
    cut = _styled_floor((0, 0, 255, 255), RAMP + RAMP[:-1])  # the second block one byte short
    np.testing.assert_array_equal(cut.lightmaps[0, ..., 0], np.arange(10, 25).reshape(5, 3))


def test_quake2_light_styles_and_a_style_nothing_sets_worth_m():
    lighting = bytes([100, 50, 25]) * 15 + bytes([40, 40, 40]) * 15
    level = _styled_floor((0, 20, 255, 255), lighting, build=build_q2)
    np.testing.assert_array_equal(level.lightmaps[0, 2, 1], [140, 90, 65])
    bright = _styled_floor((0, 0, 255, 255), bytes([200, 50, 25]) * 15 + bytes([100, 40, 40]) * 15, build=build_q2)
    np.testing.assert_array_equal(bright.lightmaps[0, 2, 1], [255, 76, 55])  # (300, 90, 65) scaled down as a whole


def test_the_synthetic_room_faces_in_its_spawns_stand_inside_looking_at_the_middle(tmp_path):
    from pyvista_quake.examples import synthetic_level  # noqa: PLC0415

    path = synthetic_level(tmp_path / 'room')
    level = pyvista_quake.load(path)
    room = level.mesh(0)
    centre = np.array([256.0, 256.0, 96.0])
    np.testing.assert_allclose(np.asarray(room.bounds), [0, 512, 0, 512, 0, 192])
    for block in level.blocks(0):
        cells = block.compute_normals(cell_normals=True, point_normals=False, auto_orient_normals=False, consistent_normals=False)
        geometric = np.asarray(cells.cell_data['Normals'])
        stored = np.asarray(block.point_data['Normals'])
        inward = centre - np.asarray(block.cell_centers().points)
        assert (np.einsum('ij,ij->i', geometric, inward) > 0).all()  # every face towards the room's middle
        corners = np.asarray(block.regular_faces)
        np.testing.assert_allclose(stored[corners], np.repeat(geometric[:, None], 3, axis=1), atol=1e-6)  # stored = the face's
    assert [b.n_cells for b in level.blocks(0)] == [2, 8]  # the floor, and four walls
    spawns = level.point_entities()
    spawns = spawns.extract_points(np.asarray(spawns['classname']) == 'info_player_deathmatch')
    assert spawns.n_points == 4
    xy = np.asarray(spawns.points)[:, :2]
    assert ((xy > 0) & (xy < 512)).all() and set(np.asarray(spawns['angle']).tolist()) == {'45'}
    np.testing.assert_allclose(sorted(map(tuple, xy)), [(64, 64), (64, 448), (448, 64), (448, 448)])
    floor = np.asarray(Image.open(tmp_path / 'room' / 'textures' / 'synthetic' / 'floor.png'))
    assert (floor[0, 0] == floor[0, 7]).all() and (floor[0, 0] != floor[0, 8]).any() and (floor[0, 0] == floor[8, 8]).all()


@pytest.mark.parametrize('ident', [None, b'BSP2'])
def test_wide_blocks_stack_in_one_column_and_bsp2_scales_as_quake(ident):
    args = q1_args()
    # Two faces whose blocks are 5 luxels wide and 2 high (s 0..64, t 0..16): sqrt(2 x 2 / 5) < 1, one column.
    args['vertexes'] = [(0, 0, 0), (0, 16, 0), (64, 16, 0), (64, 0, 0), (0, 0, 8), (0, 16, 8), (64, 16, 8), (64, 0, 8)]
    args['faces'] = [(0, 0, [0, 1, 2, 3], 0, 0), (1, 0, [4, 5, 6, 7], 0, 10)]
    args['models'] = [(0, 2, (0, 0, 0))]
    level = pyvista_quake.load(build_q1(**args, ident=ident, lighting=bytes(range(20))))
    assert level.lightmaps.shape == (1, 4, 5, 3)
    np.testing.assert_array_equal(level.lightmaps[0, 2:, :, 0], np.arange(10, 20).reshape(2, 5))
    assert level.level.light_scale == 264 / 128


def test_a_vertex_lit_face_is_drawn_by_its_brightened_vertex_colours(tmp_path):
    game = tmp_path / 'game'
    (game / 'textures' / 'test').mkdir(parents=True)
    (game / 'maps').mkdir()
    Image.new('RGB', (8, 8), (128, 128, 128)).save(game / 'textures' / 'test' / 'grey.tga')
    corners = [(0, 0, 0), (0, 64, 0), (64, 64, 0), (64, 0, 0)]
    lit = [q3_drawvert(c, st=(c[0] / 64, c[1] / 64), lightmap=(0.5, 0.5), color=(9, 9, 9, 255)) for c in corners]
    by_vertex = [q3_drawvert((c[0] + 80, c[1], 0), st=(c[0] / 64, c[1] / 64), color=(10, 40, 20, 255)) for c in corners]
    surfaces = [q3_surface(0, 1, 0, 4, 0, 6, lightmap=0), q3_surface(0, 1, 4, 4, 6, 6, lightmap=-3)]
    page = np.full((128, 128, 3), (40, 20, 10), np.uint8).tobytes()
    path = game / 'maps' / 'v.bsp'
    path.write_bytes(
        build_q3(
            [[('classname', 'worldspawn')]],
            [('textures/test/grey', 0, 1)],
            [(0, 2)],
            lit + by_vertex,
            [0, 1, 2, 0, 2, 3] * 2,
            surfaces,
            lightmap_pages=page,
        )
    )
    level = pyvista_quake.load(path)
    from pyvista_quake.render.plotting import prepare  # noqa: PLC0415

    mesh, _, _, _ = prepare(level)
    light = np.asarray(mesh[0].point_data['vertex_light'])
    colour = np.asarray(mesh[0].point_data['color'])[:, :3]
    np.testing.assert_array_equal(light[colour[:, 0] == 9], 255)  # a lightmapped face's colours are not used
    np.testing.assert_array_equal(light[colour[:, 0] == 10], np.tile([40, 160, 80], (4, 1)))  # shifted 2 bits
    picture = np.asarray(Image.open(pyvista_quake.thumbnail(level, tmp_path / 'v.png', size=(200, 120)))).astype(int)[..., :3]
    for product in ((80, 40, 20), (20, 80, 40)):  # 128 x (160, 80, 40) / 255 by the lightmap; 128 x (40, 160, 80) / 255 by vertex
        assert (np.abs(picture - product).max(axis=2) <= 3).sum() > 200, product


def _lit_floor_game(tmp_path, lit: bytes | None):
    """A Quake 1 floor (3 x 5 luxels, grey 10..24) in maps/floor.bsp, with ``lit`` as maps/floor.lit beside it."""
    args = q1_args()
    args['faces'] = [(0, 0, [0, 1, 2, 3], 0, 0)]
    args['models'] = [(0, 1, (0, 0, 0))]
    (tmp_path / 'maps').mkdir(parents=True, exist_ok=True)
    path = tmp_path / 'maps' / 'floor.bsp'
    path.write_bytes(build_q1(**args, lighting=bytes(range(10, 25))))
    if lit is not None:
        (tmp_path / 'maps' / 'floor.lit').write_bytes(lit)
    return path


def test_quake1_coloured_light_from_the_lit_file_beside_the_map(tmp_path):
    rgb = np.stack([np.arange(10, 25), np.arange(40, 55), np.arange(70, 85)], axis=1).astype(np.uint8)
    lit = b'QLIT' + np.array([1], '<i4').tobytes() + rgb.tobytes()
    level = pyvista_quake.load(_lit_floor_game(tmp_path, lit))
    np.testing.assert_array_equal(level.lightmaps[0], rgb.reshape(5, 3, 3))
    grey = pyvista_quake.load(_lit_floor_game(tmp_path / 'plain', None))
    np.testing.assert_array_equal(grey.lightmaps[0, ..., 1], np.arange(10, 25).reshape(5, 3))
    np.testing.assert_array_equal(level.blocks(0)[0].point_data['lightmap'], grey.blocks(0)[0].point_data['lightmap'])  # the same cells


@pytest.mark.parametrize(
    'lit',
    [
        b'QLIT' + bytes([2, 0, 0, 0]) + bytes(45),
        b'QLIX' + bytes([1, 0, 0, 0]) + bytes(45),
        b'QLIT' + bytes([1, 0, 0, 0]) + bytes(44),
        b'QLIT' + bytes([1, 0, 0, 0]) + bytes(46),
        b'QLI',
    ],
)
def test_a_lit_file_the_engines_ignore_leaves_the_grey_light_with_a_warning(tmp_path, lit):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        level = pyvista_quake.load(_lit_floor_game(tmp_path, lit))
        pages = level.lightmaps
    assert any('not a coloured light file' in str(w.message) for w in caught)
    np.testing.assert_array_equal(pages[0, ..., 0], np.arange(10, 25).reshape(5, 3))


def test_engine_patch_normals_are_made_from_the_grid_as_make_mesh_normals_does():
    from pyvista_quake.formats.bsp import _mesh_normals  # noqa: PLC0415

    # A tilted plane: every normal is the plane's, whatever the control normals.
    u, v = np.meshgrid(np.arange(5.0), np.arange(3.0))
    plane = np.stack([u * 10, v * 10, u * 5], axis=-1).astype(np.float32)
    expected = np.cross([10, 0, 5], [0, 10, 0]) / np.linalg.norm(np.cross([10, 0, 5], [0, 10, 0]))
    np.testing.assert_allclose(_mesh_normals(plane).reshape(-1, 3), np.tile(expected, (15, 1)), atol=1e-6)
    # A square prism closed on itself (its first and last columns meet): the seam's corner sees both of its
    # faces, as the grid's middle corners do, and its normal points straight out between them.
    ring = np.array([(1, 0), (0, 1), (-1, 0), (0, -1), (1, 0)], np.float32) * 10
    prism = np.stack(
        [np.broadcast_to(ring[None, :, 0], (3, 5)), np.broadcast_to(ring[None, :, 1], (3, 5)), np.broadcast_to(np.arange(3.0)[:, None] * 10, (3, 5))],
        axis=-1,
    ).astype(np.float32)
    normals = _mesh_normals(prism)
    for column, outward in ((0, (1, 0, 0)), (1, (0, 1, 0)), (4, (1, 0, 0))):
        np.testing.assert_allclose(np.abs(normals[1, column] @ np.array(outward, np.float32)), 1, atol=1e-6)
    turned = _mesh_normals(np.ascontiguousarray(prism.swapaxes(0, 1)))  # the seam between the first and last rows
    np.testing.assert_allclose(np.abs(turned[0, 1] @ np.array([1, 0, 0], np.float32)), 1, atol=1e-6)
    opened = prism.copy()
    opened[:, 4, 0] += 2  # the ends 2 units apart: no seam, the end columns see one face each
    np.testing.assert_allclose(np.abs(_mesh_normals(opened)[1, 0] @ np.array([1, 1, 0]) / np.sqrt(2)), 1, atol=1e-6)
    # A point on top of its neighbour looks one step further.
    doubled = plane.copy()
    doubled[1, 2] = doubled[1, 3]
    np.testing.assert_allclose(_mesh_normals(doubled)[1, 3], expected, atol=1e-6)
    # Nothing around (a single column of one point): a zero normal, as the engine leaves it.
    np.testing.assert_array_equal(_mesh_normals(np.zeros((1, 1, 3), np.float32)), np.zeros((1, 1, 3)))


# -- deluxe-compiled maps: light and direction pages alternate ----------------------------------


def _external_map(tmp_path: Path, pages: int, face_pages: list[int], cmdline: str | None = None) -> pyvista_quake.QuakeModel:
    """A map of one lit square per entry of ``face_pages`` whose pages are q3map2's external ``lm_NNNN.tga``, page k all k."""
    verts, indexes, surfaces = [], [], []
    for k, page in enumerate(face_pages):
        v, i = square(z=8.0 * k)
        surfaces.append(q3_surface(0, 1, len(verts), 4, len(indexes), 6, lightmap=page))
        verts.extend(v)
        indexes.extend(i)
    worldspawn = [('classname', 'worldspawn')] + ([('_q3map2_cmdline', cmdline)] if cmdline is not None else [])
    data = build_q3([worldspawn], [('textures/base/floor', 0, 1)], [(0, len(surfaces))], verts, indexes, surfaces, lightmaps=0)
    (tmp_path / 'maps' / 'x').mkdir(parents=True)
    (tmp_path / 'maps' / 'x.bsp').write_bytes(data)
    for k in range(pages):
        Image.fromarray(np.full((4, 4, 3), 10 + k, np.uint8)).save(tmp_path / 'maps' / 'x' / f'lm_{k:04d}.tga')
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return pyvista_quake.load(tmp_path / 'maps' / 'x.bsp')


@pytest.mark.parametrize('cmdline', [None, '-light -deluxe -external'])
def test_a_deluxe_maps_faces_name_its_light_pages_halved(tmp_path, cmdline):
    level = _external_map(tmp_path, 6, [0, 2, 4], cmdline)
    assert level.lightmaps.shape == (3, 4, 4, 3)
    assert level.lightmaps[:, 0, 0, 0].tolist() == [10, 12, 14]  # lm_0000, lm_0002, lm_0004
    assert level.deluxemaps[:, 0, 0, 0].tolist() == [11, 13, 15]
    pages = [set(np.asarray(b.point_data['lightmap_page']).tolist()) for b in level.blocks(0)]
    assert sorted(set().union(*pages)) == [0, 1, 2]


@pytest.mark.parametrize(
    ('pages', 'face_pages', 'cmdline'),
    [
        (6, [0, 1, 4], None),  # a face names an odd page
        (5, [0, 2, 4], None),  # an odd number of pages
        (1, [0], None),  # one page
        (6, [0, 2, 4], '-light -external -deluxemode 1x'),  # a compile line without -deluxe, faces deciding
    ],
)
def test_a_map_not_deluxe_keeps_every_page(tmp_path, pages, face_pages, cmdline):
    level = _external_map(tmp_path, pages, face_pages, cmdline)
    deluxe = cmdline is not None and pages == 6 and face_pages == [0, 2, 4]
    assert len(level.lightmaps) == (3 if deluxe else pages)
    assert (level.deluxemaps is None) != deluxe
    named = sorted(set().union(*[set(np.asarray(b.point_data['lightmap_page']).tolist()) for b in level.blocks(0)]))
    assert named == ([0, 1, 2] if deluxe else sorted(set(face_pages)))


def test_a_deluxe_map_with_embedded_pages_and_a_vertex_lit_face(tmp_path):
    verts, indexes, surfaces = [], [], []
    for k, page in enumerate([0, 2, -3]):
        v, i = square(z=8.0 * k)
        surfaces.append(q3_surface(0, 1, len(verts), 4, len(indexes), 6, lightmap=page))
        verts.extend(v)
        indexes.extend(i)
    data = build_q3([[('classname', 'worldspawn')]], [('textures/base/floor', 0, 1)], [(0, 3)], verts, indexes, surfaces, lightmaps=4)
    level = load(data, tmp_path)
    assert level.lightmaps.shape == (2, 128, 128, 3) and level.deluxemaps.shape == (2, 128, 128, 3)
    named = [sorted(set(np.asarray(b.point_data['lightmap_page']).tolist())) for b in level.blocks(0)]
    assert named == [[-1, 0, 1]]  # a vertex-lit face stays -1
    assert load(q3_level(), tmp_path, 'plain.bsp').deluxemaps is None


@pytest.mark.parametrize(
    ('script', 'coloured'),
    [
        (None, True),  # no shader script: the engine's default for a vertex-lit face takes its colours
        ('textures/base/floor { { map textures/base/floor.tga rgbGen vertex } }', True),
        ('textures/base/floor { { map textures/base/floor.tga } }', False),  # rgbGen identity by default
        ('textures/base/floor { { map textures/base/floor.tga rgbGen identity } }', False),
    ],
)
def test_a_vertex_lit_face_takes_its_colours_only_where_its_shader_asks(tmp_path, script, coloured):
    from pyvista_quake.model.lightmaps import lit_blocks  # noqa: PLC0415

    verts, indexes = square()
    verts = [q3_drawvert(c, st=(0, 0), color=(10, 20, 30, 255)) for c in [(0, 0, 0), (0, 64, 0), (64, 64, 0), (64, 0, 0)]]
    data = build_q3(
        [[('classname', 'worldspawn')]],
        [('textures/base/floor', 0, 1)],
        [(0, 2)],
        verts + verts,
        indexes + indexes,
        [q3_surface(0, 1, 0, 4, 0, 6, lightmap=-3), q3_surface(0, 1, 4, 4, 6, 6, lightmap=0)],
        lightmaps=1,
    )
    if script is not None:
        (tmp_path / 'scripts').mkdir()
        (tmp_path / 'scripts' / 'floor.shader').write_text(script)
    level = load(data, tmp_path)
    assert level.surfaces[0].vertex_colours is coloured
    blocks = list(level.blocks(0))
    lit_blocks(level, blocks)
    light = np.asarray(blocks[0].point_data['vertex_light'])
    assert light.shape == (blocks[0].n_points, 3) and light.dtype == np.uint8
    lit = np.asarray(blocks[0].point_data['lightmap_page']) >= 0
    assert (light[lit] == 255).all()
    assert (light[~lit] == (np.array([40, 80, 120]) if coloured else 255)).all()


@pytest.mark.parametrize('data', [q3_level(), build_q1(**q1_args(), lighting=bytes(range(256)) * 6), q2_level()], ids=['q3', 'q1', 'q2'])
def test_a_levels_mesh_has_no_array_to_colour_by(tmp_path, data):
    mesh = load(data, tmp_path).mesh(0)
    assert mesh.active_scalars_name is None  # add_mesh(level.mesh(0)) draws the level, not its lightmap pages
    assert mesh.point_data.active_texture_coordinates_name == 'TCoords' and mesh.point_data.active_normals_name == 'Normals'
    assert 'lightmap_page' in mesh.point_data and 'surface_index' in mesh.cell_data


def test_a_level_without_lightmaps_has_no_pages_of_the_same_type():
    assert pyvista_quake.load(q3_level(lightmaps=0)).lightmaps.shape == (0, 128, 128, 3)
    assert pyvista_quake.load(build_q1(**q1_args())).lightmaps.shape == (0, 0, 0, 3)
    assert pyvista_quake.load(q3_level(lightmaps=0)).lightmaps.dtype == np.uint8


def test_a_level_without_its_textures_warns_once_naming_them(tmp_path):
    (tmp_path / 'level.bsp').write_bytes(q3_level())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        level = pyvista_quake.load(tmp_path / 'level.bsp', hide=())
        assert [s.image() for s in level.surfaces] == [None] * 4
        level.surfaces[0].image_file()
    said = [str(w.message) for w in caught if 'not found' in str(w.message)]
    assert len(said) == 1 and said[0].startswith(f'{tmp_path / "level.bsp"}: 4 of its 4 surfaces')
    assert 'textures/base/floor, textures/skies/night, textures/base/curve, textures/base/door)' in said[0]
    assert all(w.filename == __file__ for w in caught)  # at the user's line


def test_a_levels_missing_textures_past_the_first_few_are_counted(tmp_path):
    verts, indexes, surfaces = [], [], []
    for k in range(6):
        v, i = square(z=8.0 * k)
        surfaces.append(q3_surface(k, 1, len(verts), 4, len(indexes), 6))
        verts.extend(v)
        indexes.extend(i)
    data = build_q3([[('classname', 'worldspawn')]], [(f'textures/t/{k}', 0, 1) for k in range(6)], [(0, 6)], verts, indexes, surfaces)
    (tmp_path / 'textures' / 't').mkdir(parents=True)
    Image.new('RGB', (4, 4)).save(tmp_path / 'textures' / 't' / '5.png')
    (tmp_path / 'level.bsp').write_bytes(data)
    with pytest.warns(pyvista_quake.QuakeWarning) as caught:
        pyvista_quake.load(tmp_path / 'level.bsp').surfaces[5].image()
    assert len(caught) == 1
    assert ": 5 of its 6 surfaces' images (textures/t/0, textures/t/1, textures/t/2, textures/t/3 and 1 more) not found" in str(caught[0].message)


def test_info_into_a_pipe_wraps_at_80_columns_and_names_a_levels_surface_once(tmp_path, capsys, monkeypatch):
    from pyvista_quake.cli.main import main

    monkeypatch.delenv('COLUMNS', raising=False)
    entities = [[('classname', 'worldspawn')]] + [[('classname', f'a_rather_long_entity_class_{k}'), ('origin', '0 0 0')] for k in range(9)]
    (tmp_path / 'level.bsp').write_bytes(q3_level(entities=entities))
    assert main(['info', str(tmp_path / 'level.bsp'), '--verbose']) == 0
    out = capsys.readouterr().out
    name, *table, _ = out.splitlines()  # the model's name and the summary are whole lines, never cut
    assert name == str(tmp_path / 'level.bsp')
    from rich.console import Console

    from pyvista_quake.cli import _app

    narrow = Console(width=20, file=io.StringIO())  # a narrow terminal: the name still whole on its line
    monkeypatch.setattr(_app, 'CONSOLE', narrow)
    assert main(['info', str(tmp_path / 'level.bsp')]) == 0
    assert narrow.file.getvalue().splitlines()[0] == str(tmp_path / 'level.bsp')
    assert max(len(line) for line in table) <= 80 and 'a_rather_long_entity_class_0' in out
    assert 'textures/base/floor: textures/base/floor' not in out.replace('\n', '') and 'textures/base/floor' in out


def test_the_help_names_levels():
    result = subprocess.run([sys.executable, '-m', 'pyvista_quake', '--help'], capture_output=True, text=True, env={**os.environ, 'COLUMNS': '200'})
    assert result.returncode == 0 and '.bsp' in result.stdout and 'levels' in result.stdout


@pytest.mark.parametrize(('side', 'pages'), [(6, 1), (5, 2)])  # two cells of 3 x 5 side by side fit 6 columns, not 5
def test_q1_face_blocks_fill_as_many_pages_as_the_page_side_needs(tmp_path, monkeypatch, side, pages):
    from pyvista_quake.formats import bsp

    monkeypatch.setattr(bsp, 'MAX_PAGE_SIDE', side)
    args = q1_args()
    args['faces'] = [(0, 0, [0, 1, 2, 3], 0, 0), (1, 0, [4, 5, 6, 7], 0, 15)]  # 3 x 5 luxels, then 2 x 2
    args['texinfo'] = [(((1, 0, 0, 0), (0, 1, 0, 0)), 0, 0)]
    level = load(build_q1(**args, lighting=bytes(range(10, 25)) + bytes([200, 201, 202, 203])), tmp_path)
    assert level.lightmaps.shape == (pages, 5, 6 // pages, 3)
    block = level.mesh(0)
    page = np.asarray(block.point_data['lightmap_page'])
    z = np.asarray(block.points)[:, 2]
    assert set(page[z == 0].tolist()) == {0} and set(page[z == 8].tolist()) == {pages - 1}
    uv = np.asarray(block.point_data['lightmap'], np.float64)
    x = np.floor(uv[:, 0] * level.lightmaps.shape[2]).astype(int)
    y = np.floor(uv[:, 1] * level.lightmaps.shape[1]).astype(int)
    for height, first in ((0, 10), (8, 200)):  # each face's lowest corner lands on its block's first luxel, on its page
        on = z == height
        assert level.lightmaps[page[on][0], y[on].min(), x[on].min(), 0] == first


def test_an_atlas_past_4096_a_side_is_shrunk_with_white_rows_below(monkeypatch):
    from pyvista_quake.model import lightmaps

    monkeypatch.setattr(lightmaps, 'MAX_ATLAS_SIDE', 16)
    small = lightmaps.AtlasLayout.of(3, 8, 8)  # 2 x 2 slots with the white page: 16 x 16 fits
    assert (small.shape, small.shrink) == ((16, 16), 1)
    np.testing.assert_allclose(small.uv(np.array([3]), np.array([[0.5, 0.5]])), [[0.75, 0.25]])  # the white page's centre
    big = lightmaps.AtlasLayout.of(4, 8, 8)  # 3 x 2 slots would be 24 wide: 2 x 2 pages, white rows, shrunk twice
    assert big.shrink == 2 and big.shape == (20, 16) and (big.columns, big.rows) == (2, 2)
    pages = np.stack([np.full((8, 8, 3), 10 * (k + 1), np.uint8) for k in range(4)])
    atlas = lightmaps.lightmap_atlas(pages, 1.0)
    assert atlas.shape == (10, 8, 3)
    np.testing.assert_array_equal(atlas[:4, :4, 0], 10)  # page 0's 8 x 8 texels, 4 x 4 after shrinking
    np.testing.assert_array_equal(atlas[4:8, 4:, 0], 40)
    np.testing.assert_array_equal(atlas[8:, :, 0], 255)  # the white rows
    u, v = big.uv(np.array([4, 3]), np.array([[0.5, 0.5], [0.0, 0.0]])).T
    assert u[0] == 0.5 and 1 - v[0] == pytest.approx(18 / 20)  # the white rows' middle
    assert (u[1], 1 - v[1]) == (0.5, 0.4)  # page 3's first texel: column 1, row 1 of 8-texel pages in 16 x 20


def test_an_atlas_shrunk_not_at_all_still_puts_the_white_below_its_pages(monkeypatch):
    from pyvista_quake.model import lightmaps

    monkeypatch.setattr(lightmaps, 'MAX_ATLAS_SIDE', 16)
    layout = lightmaps.AtlasLayout.of(1, 10, 12)  # a page and the white page side by side would be 24 wide
    assert (layout.shrink, layout.shape, layout.columns, layout.rows) == (1, (12, 12), 1, 1)
    np.testing.assert_allclose(layout.uv(np.array([1]), np.array([[0.5, 0.5]])), [[0.5, 1 - 11 / 12]])
    atlas = lightmaps.lightmap_atlas(np.full((1, 10, 12, 3), 20, np.uint8), 1.0)
    assert atlas.shape == (12, 12, 3) and (atlas[:10] == 20).all() and (atlas[10:] == 255).all()


def test_a_level_lit_by_its_vertices_only_has_no_pages_and_looks_for_none(tmp_path):
    verts, indexes = square()
    data = build_q3([[('classname', 'worldspawn')]], [('textures/a', 0, 1)], [(0, 1)], verts, indexes, [q3_surface(0, 1, 0, 4, 0, 6, lightmap=-3)])
    (tmp_path / 'v.bsp').write_bytes(data)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        pages = pyvista_quake.load(tmp_path / 'v.bsp').lightmaps
    assert pages.shape == (0, 128, 128, 3)
    assert not [w for w in caught if 'lm_0000' in str(w.message)]  # no outside pages looked for
