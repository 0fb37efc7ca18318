"""Sprites (Quake, Half-Life, DarkPlaces, Quake II): files written from the spec, and the corpus's."""

from __future__ import annotations

import warnings

from conftest import CORPUS
from conftest import requires_corpus
import numpy as np
import pytest
import pyvista as pv
from sprite_builders import build_ids2
from sprite_builders import build_idsp

import pyvista_quake as pq
from pyvista_quake.game.skins import read_palette

QUAKE_PALETTE = read_palette(None)


def pixels(height: int, width: int, start: int = 0, channels: int = 1) -> np.ndarray:
    shape = (height, width) if channels == 1 else (height, width, channels)
    return ((np.arange(int(np.prod(shape))) + start) % 256).astype(np.uint8).reshape(shape)


@pytest.fixture
def quake_sprite(tmp_path):
    """Two single pictures around a group of two (intervals 0.2 and 0.5), under a game folder."""
    folder = tmp_path / 'progs'
    folder.mkdir()
    frames = [
        ((-2, 3), pixels(3, 4)),
        ((0.2, 0.5), [((-1, 1), pixels(2, 2, 250)), ((5, 0), pixels(1, 3, 7))]),
        ((1, 1), pixels(2, 1, 255)),
    ]
    path = folder / 's_test.spr'
    path.write_bytes(build_idsp(frames, kind=3, synctype=1))
    return path


def corners(model: pq.QuakeModel, frame: int) -> np.ndarray:
    return model.positions([frame])[0]


def test_a_quake_sprite_is_a_quad_a_picture(quake_sprite):
    model = pq.load(quake_sprite)
    assert model.format == 'sprite' and len(model) == 4
    assert model.frame_names == ['frame0', 'frame1_0', 'frame1_1', 'frame2']
    # (left, up), (right, up), (right, down), (left, down); right along -y, up along +z, in x = 0
    np.testing.assert_array_equal(corners(model, 0), [[0, 2, 3], [0, -2, 3], [0, -2, 0], [0, 2, 0]])
    np.testing.assert_array_equal(corners(model, 2), [[0, -5, 0], [0, -8, 0], [0, -8, -1], [0, -5, -1]])
    mesh = model.mesh(0)
    assert mesh.n_cells == 2 and mesh.n_points == 4
    uv = np.asarray(mesh.active_texture_coordinates)
    np.testing.assert_array_equal(uv[0], [0, 1])  # (left, up)
    np.testing.assert_array_equal(uv[2], [1, 0])  # (right, down)
    np.testing.assert_allclose(mesh.point_normals, np.tile([-1, 0, 0], (4, 1)), atol=1e-6)  # facing a viewer looking along +x
    np.testing.assert_allclose(mesh.cell_normals, np.tile([-1, 0, 0], (2, 1)), atol=1e-6)  # wound to face it too


def test_a_quake_sprite_s_pictures_go_through_the_palette_with_index_255_a_hole(quake_sprite):
    model = pq.load(quake_sprite)
    surface = model.surfaces[0]
    for frame, stored in ((0, pixels(3, 4)), (1, pixels(2, 2, 250)), (3, pixels(2, 1, 255))):
        image = surface.image(frame=frame)
        np.testing.assert_array_equal(image[..., :3], QUAKE_PALETTE[stored])
        np.testing.assert_array_equal(image[..., 3], np.where(stored == 255, 0, 255))
    assert surface.alpha == 'cutout'
    assert model.blocks(0).field_data['sprite_type'].tolist() == ['oriented']
    assert model.blocks(3)[0].field_data['sprite_synctype'].tolist() == ['rand']


def test_a_group_plays_by_its_intervals(quake_sprite):
    model = pq.load(quake_sprite)
    group = model.animations['frame1_']
    np.testing.assert_array_equal(group.frames, [1, 2])
    np.testing.assert_allclose(group.times, [0.0, 0.2])  # 0 and its intervals before the last
    assert group.duration == pytest.approx(0.5)
    np.testing.assert_allclose(model.times, [0.0, 0.1, 0.3, 0.6], rtol=1e-6)
    assert [list(r) for r in model.entries] == [[0], [1, 2], [3]]


def test_a_group_whose_intervals_do_not_increase_plays_as_darkplaces_plays_it(tmp_path):
    path = tmp_path / 'g.spr'
    path.write_bytes(build_idsp([((0.5, 0.5, 0.5), [((0, 0), pixels(1, 1))] * 3)]))
    group = next(iter(pq.load(path).animations.values()))
    np.testing.assert_allclose(group.times, [0.0, 0.5, 1.0])
    assert group.duration == pytest.approx(1.5)


def test_pyvista_reads_a_sprite_and_plays_its_frames(quake_sprite):
    blocks = pv.read(quake_sprite)
    assert isinstance(blocks, pv.MultiBlock) and blocks[0].n_points == 4
    reader = pv.get_reader(quake_sprite)
    assert reader.number_time_points == 4
    reader.set_active_time_point(2)
    last = reader.read()[0]
    np.testing.assert_array_equal(last.points, corners(pq.load(quake_sprite), 2))
    np.testing.assert_array_equal(last.quake.image(), pq.load(quake_sprite).surfaces[0].image(frame=2))


@pytest.mark.parametrize(
    ('tex_format', 'alpha'),
    [(0, 'opaque'), (1, 'add'), (2, 'blend'), (3, 'cutout')],
)
def test_a_half_life_sprite_draws_through_its_own_palette_as_its_texformat_says(tmp_path, tex_format, alpha):
    palette = np.random.default_rng(tex_format).integers(0, 256, (256, 3), dtype=np.uint8)
    stored = np.array([[0, 1, 255], [128, 7, 255]], np.uint8)
    path = tmp_path / 'hl.spr'
    path.write_bytes(build_idsp([((-1, 1), stored)], version=2, tex_format=tex_format, palette=palette))
    model = pq.load(path)
    image = model.surfaces[0].image()
    assert model.surfaces[0].alpha == alpha
    if tex_format == 2:  # index-alpha: the last colour, the index as alpha
        np.testing.assert_array_equal(image[..., :3], np.broadcast_to(palette[255], (2, 3, 3)))
        np.testing.assert_array_equal(image[..., 3], stored)
    elif tex_format == 3:  # alpha-test: index 255 a hole
        np.testing.assert_array_equal(image[stored != 255][:, :3], palette[stored[stored != 255]])
        np.testing.assert_array_equal(image[..., 3], np.where(stored == 255, 0, 255))
        assert (image[stored == 255] == 0).all()
    else:
        np.testing.assert_array_equal(image[..., :3], palette[stored])
        assert (image[..., 3] == 255).all()


def test_a_half_life_sprite_s_bad_palette_or_texformat_is_refused(tmp_path):
    path = tmp_path / 'hl.spr'
    path.write_bytes(build_idsp([((0, 0), pixels(1, 1))], version=2, tex_format=4))
    with pytest.raises(pq.QuakeFormatError, match=r'texFormat = 4: expected 0 to 3'):
        pq.load(path)
    path.write_bytes(build_idsp([((0, 0), pixels(1, 1))], version=2, colours=255))
    with pytest.raises(pq.QuakeFormatError, match=r'palette = 255: colours: expected 256'):
        pq.load(path)


def test_a_darkplaces_sprite_is_rgba_and_an_image_named_after_it_replaces_a_frame(tmp_path):
    from PIL import Image

    rgba = pixels(2, 3, 5, channels=4)
    path = tmp_path / 'dp.sp2'  # told by ident and version, not by its name
    frames = [((0, 2), rgba), ((0.1, 0.2), [((0, 0), pixels(1, 1, 1, 4)), ((0, 0), pixels(1, 1, 2, 4))]), ((0, 0), pixels(0, 0, 0, 4))]
    path.write_bytes(build_idsp(frames, version=32))
    model = pq.load(path)
    assert len(model) == 4
    np.testing.assert_array_equal(model.surfaces[0].image(frame=0), rgba)
    assert model.surfaces[0].alpha == 'blend'
    Image.new('RGBA', (1, 1), (1, 2, 3, 4)).save(tmp_path / 'dp.sp2_0.tga')
    Image.new('RGBA', (1, 1), (5, 6, 7, 8)).save(tmp_path / 'dp.sp2_1_1.png')
    model = pq.load(path)
    np.testing.assert_array_equal(model.surfaces[0].image(frame=0), [[[1, 2, 3, 4]]])
    np.testing.assert_array_equal(model.surfaces[0].image(frame=1), pixels(1, 1, 1, 4))  # no dp.sp2_1_0
    np.testing.assert_array_equal(model.surfaces[0].image(frame=2), [[[5, 6, 7, 8]]])
    assert model.surfaces[0].image(frame=3) is None  # no pixels, and none looked for


def test_a_quake2_sprite_s_frames_name_images_the_game_finds(tmp_path):
    from PIL import Image

    folder = tmp_path / 'baseq2' / 'sprites'
    folder.mkdir(parents=True)
    Image.new('RGB', (4, 2), (10, 20, 30)).save(folder / 's_a.pcx')
    path = folder / 's.sp2'
    path.write_bytes(build_ids2([(4, 2, 1, 3, 'sprites/s_a.pcx'), (6, 8, 0, 0, 'sprites/missing.pcx')]))
    model = pq.load(path)
    # left = -origin_x, right = width - origin_x, down = -origin_y, up = height - origin_y
    np.testing.assert_array_equal(corners(model, 0), [[0, 1, -1], [0, -3, -1], [0, -3, -3], [0, 1, -3]])
    np.testing.assert_array_equal(corners(model, 1), [[0, 0, 8], [0, -6, 8], [0, -6, 0], [0, 0, 0]])
    image = model.surfaces[0].image(frame=0)
    assert image.shape[:2] == (2, 4) and (image[..., :3] == [10, 20, 30]).all()
    with pytest.warns(pq.QuakeWarning, match='sprites/missing.pcx of frame 1 not found'):
        assert model.surfaces[0].image(frame=1) is None
    assert model.blocks(0).field_data['sprite_type'].tolist() == ['vp_parallel']


@pytest.mark.parametrize(
    ('data', 'match'),
    [
        (build_idsp([((0, 0), pixels(2, 2))])[:-1], r'frames\[0\]\.pixels'),
        (build_idsp([((0, 0), pixels(1, 1))], version=3), r'version = 3'),
        (build_idsp([]), r'numframes = 0: must be at least 1'),
        (build_idsp([((0.1,), [((0, 0), pixels(1, 1))])])[:-6], r'frames\[0\]\.frames\[0\]'),
        (build_ids2([(1, 1, 0, 0, 'a')])[:-1], r'frames = 12'),
        (build_ids2([(-1, 1, 0, 0, 'a')]), r'frames\[0\]\.width = -1'),
    ],
)
def test_a_broken_sprite_is_a_format_error_naming_its_field(tmp_path, data, match):
    path = tmp_path / 'bad.spr'
    path.write_bytes(data)
    with pytest.raises(pq.QuakeFormatError, match=match):
        pq.load(path)


def test_a_sprite_exports_pictures_and_a_glb(quake_sprite, tmp_path):
    pq.thumbnail(quake_sprite, tmp_path / 'thumb.png')
    pq.export(quake_sprite, tmp_path / 'sprite.glb')
    assert (tmp_path / 'thumb.png').stat().st_size > 0 and (tmp_path / 'sprite.glb').stat().st_size > 0


@requires_corpus
@pytest.mark.corpus
def test_the_corpus_sprites_load_by_their_bytes():
    found = {p.relative_to(CORPUS / 'sprites').as_posix(): p for p in (CORPUS / 'sprites').rglob('*') if p.suffix in ('.spr', '.spr32', '.sp2')}
    expected = {
        'librequake/progs/s_explod.spr': (6, 'cutout', (64, 64, 4)),
        'librequake/progs/s_bubble.spr': (2, 'cutout', (16, 16, 4)),
        'nexuiz/models/misc/chatbubble.spr': (1, 'opaque', (16, 16, 4)),
        'nexuiz/models/sprites/3.spr32': (1, 'blend', (16, 16, 4)),
        'nexuiz/models/sprites/ons-cp-atck-blue.sp2': (2, 'blend', (64, 256, 4)),
        'nexuiz/models/sprites/push.sp2': (1, 'cutout', (128, 512, 4)),
    }
    assert set(found) == set(expected)
    for name, (frames, alpha, shape) in expected.items():
        with warnings.catch_warnings():
            warnings.simplefilter('error', pq.QuakeWarning)
            model = pq.load(found[name])
            assert (len(model), model.surfaces[0].alpha, model.surfaces[0].image().shape) == (frames, alpha, shape), name
            assert pv.read(found[name])[0].n_cells == 2
