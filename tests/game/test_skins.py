"""Skins: resolution rules, archives, decoding, MDL palettes, the accessor and orientation."""

from __future__ import annotations

import io
from pathlib import Path
import struct
import subprocess
import sys
import warnings
import zipfile

from builders import build_md2
from builders import tetra_md2
from builders import torch_mdl
import numpy as np
from PIL import Image
import pytest
import pyvista as pv

import pyvista_quake as pq
from pyvista_quake.formats.tables import QUAKE_PALETTE
from pyvista_quake.game.archives import PakArchive
from pyvista_quake.game.skins import read_palette

RED, GREEN, BLUE, YELLOW = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)


def quadrant_image(size=64) -> np.ndarray:
    image = np.zeros((size, size, 3), np.uint8)
    half = size // 2
    image[:half, :half], image[:half, half:] = RED, GREEN
    image[half:, :half], image[half:, half:] = BLUE, YELLOW
    return image


def encode(image: np.ndarray, fmt: str = 'PNG') -> bytes:
    out = io.BytesIO()
    Image.fromarray(image).save(out, format=fmt)
    return out.getvalue()


def write_model(path: Path, skins=('models/test/skin.pcx',), **kwargs) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(tetra_md2(skins=list(skins), **kwargs))
    return path


def write_pak(path: Path, members: dict[str, bytes]) -> Path:
    body, directory = b'', b''
    position = 12
    for name, data in members.items():
        directory += name.encode().ljust(56, b'\0') + struct.pack('<ii', position + len(body), len(data))
        body += data
    path.write_bytes(b'PACK' + struct.pack('<ii', 12 + len(body), len(directory)) + body + directory)
    return path


def found(model) -> str | None:
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', pq.QuakeWarning)
        skin = model.alias.skin_file(0)
    return None if skin is None else skin.location


# -- resolution rules, one by one --------------------------------------------------------


def test_game_root(tmp_path):
    model = write_model(tmp_path / 'game/models/monsters/tank/tris.md2', skins=['models/skins/tank.pcx'])
    (tmp_path / 'game/models/skins').mkdir(parents=True)
    (tmp_path / 'game/models/skins/tank.pcx').write_bytes(encode(quadrant_image(), 'PCX'))
    assert found(pq.load(model)) == str(tmp_path / 'game/models/skins/tank.pcx')


def test_a_found_skin_shows_its_name_place_and_size_not_its_bytes(tmp_path):
    model = write_model(tmp_path / 'game/models/monsters/tank/tris.md2', skins=['models/skins/tank.pcx'])
    (tmp_path / 'game/models/skins').mkdir(parents=True)
    data = encode(quadrant_image(), 'PCX')
    (tmp_path / 'game/models/skins/tank.pcx').write_bytes(data)
    skin = pq.load(model).alias.skin_file(0)
    assert skin.data == data
    text = repr(skin)
    assert text == f"FoundSkin(name='models/skins/tank.pcx', location={str(tmp_path / 'game/models/skins/tank.pcx')!r}, {len(data):,} bytes)"


def test_model_folder_by_last_component(tmp_path):
    model = write_model(tmp_path / 'm/tris.md2', skins=['settings/elias1/desktop/frames/skin.png'])
    (tmp_path / 'm/skin.png').write_bytes(encode(quadrant_image()))
    assert found(pq.load(model)) == str(tmp_path / 'm/skin.png')


def test_other_extension(tmp_path):
    model = write_model(tmp_path / 'game/models/m/tris.md2', skins=['models/m/skin.pcx'])
    (tmp_path / 'game/models/m/skin.tga').write_bytes(encode(quadrant_image(), 'TGA'))
    assert found(pq.load(model)).endswith('skin.tga')
    np.testing.assert_array_equal(pq.load(model).alias.skin_image(), quadrant_image())


def test_exact_name_wins_over_other_extension(tmp_path):
    model = write_model(tmp_path / 'game/models/m/tris.md2', skins=['models/m/skin.pcx'])
    (tmp_path / 'game/models/m/skin.png').write_bytes(encode(quadrant_image()))
    (tmp_path / 'game/models/m/skin.pcx').write_bytes(encode(quadrant_image(), 'PCX'))
    assert found(pq.load(model)).endswith('skin.pcx')


def test_ufo_dot_names(tmp_path):
    model = write_model(tmp_path / 'models/objects/crate.md2', skins=['.plating'])
    (tmp_path / 'models/objects/plating.jpg').write_bytes(encode(quadrant_image(), 'JPEG'))
    assert found(pq.load(model)).endswith('plating.jpg')


def test_no_skin_named_takes_the_model_stem(tmp_path):
    model = write_model(tmp_path / 'sydney.md2', skins=[])
    (tmp_path / 'sydney.bmp').write_bytes(encode(quadrant_image(), 'BMP'))
    loaded = pq.load(model)
    assert found(loaded).endswith('sydney.bmp')
    np.testing.assert_array_equal(loaded.alias.skin_image(), quadrant_image())


def test_letter_case_is_ignored(tmp_path):
    model = write_model(tmp_path / 'm/tris.md2', skins=['models/m/Skin.PCX'])
    (tmp_path / 'm/skin.pcx').write_bytes(encode(quadrant_image(), 'PCX'))
    assert found(pq.load(model)).endswith('skin.pcx')


def test_search_paths_and_environment(tmp_path, monkeypatch):
    model = write_model(tmp_path / 'm/tris.md2', skins=['textures/x.png'])
    (tmp_path / 'root/textures').mkdir(parents=True)
    (tmp_path / 'root/textures/x.png').write_bytes(encode(quadrant_image()))
    assert found(pq.load(model)) is None
    assert found(pq.load(model, search_paths=[tmp_path / 'root'])) == str(tmp_path / 'root/textures/x.png')
    np.testing.assert_array_equal(pv.read(model, search_paths=[tmp_path / 'root']).quake.image(), quadrant_image())
    monkeypatch.setenv('PYVISTA_QUAKE_PATH', f'{tmp_path / "nowhere"}{__import__("os").pathsep}{tmp_path / "root"}')
    assert found(pq.load(model)) == str(tmp_path / 'root/textures/x.png')


def test_pak_in_a_search_root_and_in_the_game_root(tmp_path):
    png = encode(quadrant_image())
    model = write_model(tmp_path / 'game/models/m/tris.md2', skins=['models/m/skin.pcx'])
    write_pak(tmp_path / 'game/pak0.pak', {'models/m/skin.png': png, 'other': b'x'})
    assert found(pq.load(model)) == f'{(tmp_path / "game/pak0.pak").resolve()}:models/m/skin.png'
    elsewhere = write_model(tmp_path / 'loose/tris.md2', skins=['models/m/skin.pcx'])
    assert found(pq.load(elsewhere, search_paths=[tmp_path / 'game/pak0.pak'])).endswith('pak0.pak:models/m/skin.png')
    np.testing.assert_array_equal(pq.load(elsewhere, search_paths=[tmp_path / 'game']).alias.skin_image(), quadrant_image())


def test_pk3(tmp_path):
    with zipfile.ZipFile(tmp_path / 'textures.pk3', 'w') as archive:
        archive.writestr('models/m/skin.tga', encode(quadrant_image(), 'TGA'))
    model = write_model(tmp_path / 'm/tris.md2', skins=['models/m/skin.pcx'])
    loaded = pq.load(model, search_paths=[tmp_path / 'textures.pk3'])
    assert found(loaded).endswith('textures.pk3:models/m/skin.tga')
    np.testing.assert_array_equal(loaded.alias.skin_image(), quadrant_image())


def test_models_inside_archives_take_skins_from_the_same_archive(tmp_path):
    md2 = tetra_md2(skins=['models/m/skin.pcx'])
    pak = write_pak(
        tmp_path / 'pak0.pak', {'models/m/tris.md2': md2, 'models/m/skin.pcx': encode(quadrant_image(), 'PCX'), 'progs/torch.mdl': torch_mdl()}
    )
    model = pq.load(pak, member='models/m/tris.md2')
    assert model.source == f'{pak}:models/m/tris.md2'
    np.testing.assert_array_equal(model.alias.skin_image(), quadrant_image())
    assert pq.load(pak, member='PROGS/Torch.MDL').format == 'mdl'
    with zipfile.ZipFile(tmp_path / 'pak1.pk3', 'w') as archive:
        archive.writestr('models/m/tris.md2', tetra_md2(skins=['.skin']))
        archive.writestr('models/m/skin.png', encode(quadrant_image()))
    model = pq.load(tmp_path / 'pak1.pk3', member='models/m/tris.md2')
    np.testing.assert_array_equal(model.alias.skin_image(), quadrant_image())
    with pytest.raises(KeyError):
        pq.load(pak, member='progs/missing.mdl')


def test_traversal_is_refused(tmp_path):
    (tmp_path / 'secret.png').write_bytes(encode(quadrant_image()))
    model = write_model(tmp_path / 'game/models/m/tris.md2', skins=['../../../secret.png'])
    with pytest.warns(pq.QuakeWarning, match='leaves the game folder'):
        assert pq.load(model).alias.skin_file(0) is None
    absolute = write_model(tmp_path / 'game/models/m/abs.md2', skins=[str(tmp_path / 'secret.png')])
    with pytest.warns(pq.QuakeWarning, match='not found'):
        assert pq.load(absolute).alias.skin_file(0) is None  # only its last component, inside the roots


def test_someone_elses_absolute_disk_path_falls_back_to_its_last_component(tmp_path):
    for name in ('C:\\quake2\\models\\dolphin\\dolphin_f.bmp', '/home/elias/frames/dolphin_f.bmp'):
        model = write_model(tmp_path / 'm/dolphin.md2', skins=[name])
        (tmp_path / 'm/dolphin_f.bmp').write_bytes(encode(quadrant_image(), 'BMP'))
        assert found(pq.load(model)) == str(tmp_path / 'm/dolphin_f.bmp')


def test_zip_and_pak_names_that_escape_are_ignored(tmp_path):
    with zipfile.ZipFile(tmp_path / 'evil.pk3', 'w') as archive:
        archive.writestr('../models/m/skin.png', encode(quadrant_image()))
    model = write_model(tmp_path / 'm/tris.md2', skins=['models/m/skin.png'])
    with pytest.warns(pq.QuakeWarning, match='not found'):
        assert pq.load(model, search_paths=[tmp_path / 'evil.pk3']).alias.skin_file(0) is None
    pak = PakArchive(write_pak(tmp_path / 'evil.pak', {'../up.png': b'x', 'ok.png': b'y'}))
    assert pak.names() == ['ok.png']


def test_broken_pak_directory(tmp_path):
    (tmp_path / 'bad.pak').write_bytes(b'PACK' + struct.pack('<ii', 10**6, 64))
    with pytest.raises(pq.QuakeFormatError, match='dirofs'):
        PakArchive(tmp_path / 'bad.pak')
    model = write_model(tmp_path / 'm/tris.md2', skins=['models/m/skin.png'])
    with pytest.warns(pq.QuakeWarning, match='skipped'):
        pq.load(model, search_paths=[tmp_path / 'bad.pak']).alias.skin_file(0)


def test_missing_skin_warns_with_places_tried_and_mesh_loads(tmp_path):
    model = write_model(tmp_path / 'm/tris.md2', skins=['models/m/nothing.pcx'])
    with pytest.warns(pq.QuakeWarning, match=r'nothing\.pcx not found; tried .*nothing\.png') as caught:
        mesh = pv.read(model)
    assert mesh.n_points == 5
    assert mesh.quake.texture is None
    # Found while PyVista builds the mesh, inside a cached property: still the user's line.
    assert caught[0].filename == __file__
    other = write_model(tmp_path / 'o/tris.md2', skins=['models/o/nothing.pcx'])  # the same model is warned of once a run
    with pytest.warns(pq.QuakeWarning, match='not found') as caught:
        pq.load(other).mesh(0)
    assert caught[0].filename == __file__


def test_broken_image_warns(tmp_path):
    model = write_model(tmp_path / 'm/tris.md2', skins=['skin.png'])
    (tmp_path / 'm/skin.png').write_bytes(b'\x89PNG\r\n\x1a\n' + b'\0' * 40)
    with pytest.warns(pq.QuakeWarning, match='not decoded'):
        assert pq.load(model).alias.skin_image() is None


def test_decompression_bomb_is_refused(tmp_path):
    model = write_model(tmp_path / 'm/tris.md2', skins=['skin.png'])
    header = bytearray(encode(np.zeros((1, 1, 3), np.uint8)))
    struct.pack_into('>II', header, 16, 100_000, 100_000)  # IHDR claims 10^10 pixels
    (tmp_path / 'm/skin.png').write_bytes(bytes(header))
    with pytest.warns(pq.QuakeWarning, match='not decoded'):
        assert pq.load(model).alias.skin_image() is None


# -- decoding ------------------------------------------------------------------------------


def test_pcx_with_its_own_palette(tmp_path):
    indices = np.array([[0, 1], [2, 3]], np.uint8)
    palette = [10, 20, 30, 200, 100, 50, 1, 2, 3, 255, 254, 253] + [0] * (768 - 12)
    image = Image.fromarray(indices, mode='P')
    image.putpalette(palette)
    out = io.BytesIO()
    image.save(out, format='PCX')
    model = write_model(tmp_path / 'm/tris.md2', skins=['skin.pcx'])
    (tmp_path / 'm/skin.pcx').write_bytes(out.getvalue())
    expected = np.array(palette[:12], np.uint8).reshape(4, 3)[indices]
    np.testing.assert_array_equal(pq.load(model).alias.skin_image(), expected)


def test_mdl_skin_through_the_palette():
    picture = np.arange(64, dtype=np.uint8).reshape(8, 8) * 4
    model = pq.load(torch_mdl(skins=[picture]))
    np.testing.assert_array_equal(model.alias.skin_image(), QUAKE_PALETTE[picture])
    np.testing.assert_array_equal(model.alias.fullbright(), picture >= 224)
    mesh = model.mesh(0)
    np.testing.assert_array_equal(mesh.quake.image(), QUAKE_PALETTE[picture])
    np.testing.assert_array_equal(mesh.quake.fullbright, picture >= 224)


def test_mdl_palette_argument_and_game_palette(tmp_path):
    picture = np.full((8, 8), 7, np.uint8)
    custom = np.zeros((256, 3), np.uint8)
    custom[7] = (1, 2, 3)
    assert tuple(pq.load(torch_mdl(skins=[picture]), palette=custom).alias.skin_image()[0, 0]) == (1, 2, 3)
    # A float palette in 0..1 (matplotlib's convention) means value / 255.
    as_floats = np.arange(768, dtype=np.float64).reshape(256, 3) % 256 / 255
    expected = (np.arange(768).reshape(256, 3) % 256).astype(np.uint8)
    picture_all = np.arange(256, dtype=np.uint8).reshape(16, 16)
    np.testing.assert_array_equal(
        pq.load(torch_mdl(skins=[picture_all], skinwidth=16, skinheight=16), palette=as_floats).alias.skin_image(), expected[picture_all]
    )
    halves = np.full((256, 3), 0.5)
    assert tuple(pq.load(torch_mdl(skins=[picture]), palette=halves).alias.skin_image()[0, 0]) == (128, 128, 128)
    (tmp_path / 'gfx').mkdir()
    (tmp_path / 'gfx/palette.lmp').write_bytes(custom.tobytes())
    (tmp_path / 'progs').mkdir()
    (tmp_path / 'progs/torch.mdl').write_bytes(torch_mdl(skins=[picture]))
    assert tuple(pq.load(tmp_path / 'progs/torch.mdl').alias.skin_image()[0, 0]) == (1, 2, 3)
    assert tuple(pq.load(torch_mdl(skins=[picture]), search_paths=[tmp_path]).alias.skin_image()[0, 0]) == (1, 2, 3)
    assert tuple(pq.load(torch_mdl(skins=[picture])).alias.skin_image()[0, 0]) == tuple(QUAKE_PALETTE[7])


def test_mdl_skin_group_keeps_every_picture_with_its_time():
    pictures = np.stack([np.full((8, 8), 1, np.uint8), np.full((8, 8), 2, np.uint8)])
    model = pq.load(torch_mdl(skins=[(np.array([0.1, 0.3], np.float32), pictures)]))
    np.testing.assert_array_equal(model.alias.skin_image(0, picture=1), QUAKE_PALETTE[pictures[1]])
    mesh = model.mesh(0)
    np.testing.assert_allclose(mesh.quake.skin_times, [0.1, 0.3])
    np.testing.assert_array_equal(mesh.quake.image(1), QUAKE_PALETTE[pictures[1]])


def test_skin_option_and_switch(tmp_path):
    model = write_model(tmp_path / 'm/tris.md2', skins=['a.png', 'b.png'])
    (tmp_path / 'm/a.png').write_bytes(encode(quadrant_image()))
    (tmp_path / 'm/b.png').write_bytes(encode(quadrant_image()[::-1].copy()))
    mesh = pv.read(model)
    assert mesh.quake.skins == ['a.png', 'b.png'] and mesh.quake.skin == 0
    np.testing.assert_array_equal(mesh.quake.image(), quadrant_image())
    mesh.quake.set_skin(1)
    assert mesh.quake.skin == 1
    np.testing.assert_array_equal(mesh.quake.image(), quadrant_image()[::-1])
    np.testing.assert_array_equal(pq.load(model, skin=1).mesh(0).quake.image(), quadrant_image()[::-1])
    assert 'skin_file' not in pq.load(model, skin=None).mesh(0).field_data
    np.testing.assert_array_equal(pv.read(model, skin=1).quake.image(), quadrant_image()[::-1])
    assert pv.read(model, skin=None).quake.texture is None


def test_skin_survives_copy_slicing_and_vtp(tmp_path):
    model = write_model(tmp_path / 'm/tris.md2', skins=['a.png'])
    (tmp_path / 'm/a.png').write_bytes(encode(quadrant_image()))
    mesh = pv.read(model)
    for other in (mesh.copy(), mesh.extract_cells([0, 1]).extract_surface(algorithm='dataset_surface'), mesh.clip('x', invert=False)):
        np.testing.assert_array_equal(other.quake.image(), quadrant_image())
    mesh.save(tmp_path / 'frame.vtp')
    again = pv.read(tmp_path / 'frame.vtp')
    assert isinstance(again.quake.texture, pv.Texture)
    np.testing.assert_array_equal(again.quake.image(), quadrant_image())


def test_accessor_on_other_datasets():
    assert pv.Sphere().quake.texture is None
    assert pv.Sphere().quake.format is None and pv.Sphere().quake.skins == []


# -- orientation: a rendered quad shows each quadrant where its UVs put it -------------------


def test_rendered_quadrants(tmp_path):
    # A square facing the camera on +x: y is screen right, z up. The corner at
    # screen top-left takes skin pixel (0, 0), the skin's top-left.
    size = 64
    verts = np.array([[[0, 0, 255, 0], [0, 255, 255, 0], [0, 0, 0, 0], [0, 255, 0, 0]]], np.uint8)
    st = [[0, 0], [size, 0], [0, size], [size, size]]
    data = build_md2(
        verts,
        [[0, 2, 1], [1, 2, 3]],
        [[0, 2, 1], [1, 2, 3]],
        st,
        skins=['quad.png'],
        skinwidth=size,
        skinheight=size,
        scale=[1, 2 / 255, 2 / 255],
        translate=[0, -1, -1],
    )
    (tmp_path / 'quad.md2').write_bytes(data)
    (tmp_path / 'quad.png').write_bytes(encode(quadrant_image(size)))
    mesh = pv.read(tmp_path / 'quad.md2')
    plotter = pv.Plotter(off_screen=True, window_size=(200, 200))
    plotter.add_mesh(mesh, texture=mesh.quake.texture, lighting=False)
    plotter.camera_position = [(5, 0, 0), (0, 0, 0), (0, 0, 1)]
    plotter.enable_parallel_projection()
    plotter.camera.parallel_scale = 1.0
    image = plotter.screenshot(return_img=True)
    plotter.close()
    for (row, col), colour in {(50, 50): RED, (50, 150): GREEN, (150, 50): BLUE, (150, 150): YELLOW}.items():
        np.testing.assert_allclose(image[row, col, :3], colour, atol=30, err_msg=f'pixel {row, col}')


def test_accessor_without_importing_the_package(tmp_path):
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    (tmp_path / 'torch.mdl').write_bytes(torch_mdl(skins=[np.full((8, 8), 9, np.uint8)]))
    pq.load(tmp_path / 'torch.mdl').mesh(0).save(tmp_path / 'torch.vtp')
    code = (
        'import sys, pyvista as pv\n'
        f'mesh = pv.read({str(tmp_path / "torch.vtp")!r})\n'
        'assert "pyvista_quake" not in sys.modules\n'
        'print(tuple(mesh.quake.image()[0, 0].tolist()), type(mesh.quake.texture).__name__)\n'
    )
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True)
    assert out.stdout.split('\n')[0] == f'{tuple(int(v) for v in QUAKE_PALETTE[9])} Texture'


def test_the_named_file_wins_over_another_extension_of_the_same_stem(tmp_path):
    folder = tmp_path / 'game' / 'models' / 'm'
    folder.mkdir(parents=True)
    (folder / 'tris.md2').write_bytes(tetra_md2(skins=['models/m/skin.tga']))
    named = np.zeros((4, 4, 3), np.uint8)
    named[..., 0] = 200
    Image.fromarray(named).save(folder / 'skin.tga')
    Image.fromarray(np.zeros((4, 4, 3), np.uint8)).save(folder / 'skin.pcx')  # .pcx is tried first among alternates
    found = pq.load(folder / 'tris.md2').alias.skin_file(0)
    assert found.location.endswith('skin.tga')


@pytest.mark.parametrize('shape', [(5, 7, 3), (6, 4, 4), (3, 9), (2, 3, 1)])
def test_image_texture_is_pyvistas_texture_and_outlives_its_image(shape):
    """The skin texture equals ``pv.Texture(image)`` (first row at the top) and owns its pixels."""
    import gc  # noqa: PLC0415

    import pyvista as pv  # noqa: PLC0415

    from pyvista_quake.model.mesh import image_texture  # noqa: PLC0415

    image = np.random.default_rng(3).integers(0, 256, shape, dtype=np.uint8)
    expected = pv.Texture(image.copy()).to_array()
    texture = image_texture(image)
    image[:] = 0  # the texture keeps its own copy
    del image
    gc.collect()
    _ = [np.full(1000, 255, np.uint8) for _ in range(100)]  # reuse freed memory
    np.testing.assert_array_equal(texture.to_array(), expected)


def test_search_paths_find_a_dot_named_skin_away_from_its_folder(tmp_path, monkeypatch):
    """UFO: AI's '.body' with the model copied away: the search paths (and PYVISTA_QUAKE_PATH) are tried too."""
    skins = tmp_path / 'skins'
    skins.mkdir()
    Image.fromarray(quadrant_image()).save(skins / 'body.png')
    away = tmp_path / 'away'
    away.mkdir()
    model = away / 'body.md2'
    model.write_bytes(tetra_md2(skins=['.body']))
    with pytest.warns(pq.QuakeWarning, match='not found') as caught:
        assert pq.load(model).alias.skin_image(0) is None
    message = str(caught[0].message)
    places = message.split('tried ', 1)[1].split(', ')
    assert len(places) == len(set(places))  # each place once
    np.testing.assert_array_equal(pq.load(model, search_paths=[skins]).alias.skin_image(0), quadrant_image())
    monkeypatch.setenv('PYVISTA_QUAKE_PATH', str(skins))
    np.testing.assert_array_equal(pq.load(model).alias.skin_image(0), quadrant_image())


def test_a_missing_dot_named_skin_names_the_search_paths_tried(tmp_path):
    elsewhere = tmp_path / 'elsewhere'
    elsewhere.mkdir()
    model = tmp_path / 'body.md2'
    model.write_bytes(tetra_md2(skins=['.body']))
    with pytest.warns(pq.QuakeWarning) as caught:
        pq.load(model, search_paths=[elsewhere]).alias.skin_image(0)
    message = str(caught[0].message)
    # The first places by name, the rest counted with the folders they were in (the search path among them).
    assert f'more in {tmp_path}, {elsewhere}' in message
    places = message.split('tried ', 1)[1].split(' and ', 1)[0].split(', ')
    assert len(places) == len(set(places)) == 4
    # The first place whole, the next in its folder by name alone: short, and still every place.
    assert places == [str(tmp_path / 'body.pcx'), 'body.png', 'body.tga', 'body.jpg']


def test_tga_alpha_kept_whatever_its_2_0_footer_says():
    # Quake III's R_LoadTGA never reads a TGA 2.0 footer: an extension area whose attributes type says
    # "no alpha" (0) must not make a 32-bit image opaque, as Pillow alone would.
    import io

    from PIL import Image

    from pyvista_quake.game.skins import decode_image
    from pyvista_quake.game.skins import image_has_alpha

    pixels = np.zeros((2, 3, 4), np.uint8)
    pixels[..., 3] = [[0, 64, 128], [192, 255, 10]]
    buffer = io.BytesIO()
    Image.fromarray(pixels, 'RGBA').save(buffer, 'TGA')
    plain = buffer.getvalue()
    body = plain[:-26]
    extension = bytearray(495)
    extension[0:2] = (495).to_bytes(2, 'little')  # its size; byte 494, the attributes type, stays 0: "no alpha"
    footed = body + bytes(extension) + len(body).to_bytes(4, 'little') + bytes(4) + b'TRUEVISION-XFILE.\0'
    assert np.asarray(Image.open(io.BytesIO(footed)))[..., 3].min() == 255  # what Pillow does with it
    np.testing.assert_array_equal(decode_image(footed)[..., 3], pixels[..., 3])
    assert image_has_alpha(footed)
    np.testing.assert_array_equal(decode_image(plain)[..., 3], pixels[..., 3])


def tiny_png(value: int, size: int = 4) -> bytes:
    out = io.BytesIO()
    Image.fromarray(np.full((size, size, 3), value, np.uint8)).save(out, 'PNG')
    return out.getvalue()


def test_an_image_is_decoded_once_and_each_caller_gets_its_own_copy(monkeypatch):
    from pyvista_quake.game import skins

    monkeypatch.setattr(skins, '_DECODED', type(skins._DECODED)())
    calls = []
    real = skins._decoded
    monkeypatch.setattr(skins, '_decoded', lambda data, label: (calls.append(label), real(data, label))[1])
    first = skins.decode_image(tiny_png(7), 'a.png')
    first[0, 0] = 99  # the caller's own array: the next one is as the file says
    again = skins.decode_image(tiny_png(7), 'b.png')
    assert calls == ['a.png'] and again[0, 0].tolist() == [7, 7, 7] and again is not first
    assert skins.decode_image(b'not an image', 'c.png') is None and skins.decode_image(b'not an image', 'c.png') is None
    assert calls == ['a.png', 'c.png', 'c.png']  # a failure is not remembered: it warns again


def test_the_decoded_images_kept_are_bounded_in_number_and_bytes(monkeypatch):
    from pyvista_quake.game import skins

    monkeypatch.setattr(skins, '_DECODED', type(skins._DECODED)())
    monkeypatch.setattr(skins, 'DECODED_IMAGES', 3)
    for value in range(3):
        skins.decode_image(tiny_png(value))
    assert len(skins._DECODED) == 3
    skins.decode_image(tiny_png(0))  # used again: the last to go
    skins.decode_image(tiny_png(3))
    assert len(skins._DECODED) == 3 and [int(a[0, 0, 0]) for a in skins._DECODED.values()] == [2, 0, 3]
    monkeypatch.setattr(skins, 'DECODED_BYTES', 2 * 4 * 4 * 3)
    skins.decode_image(tiny_png(4))
    assert [int(a[0, 0, 0]) for a in skins._DECODED.values()] == [3, 4]  # at the byte limit exactly: both kept
    monkeypatch.setattr(skins, 'DECODED_BYTES', 10)
    skins.decode_image(tiny_png(5, size=8))  # one image over the limit alone is still kept
    assert [int(a[0, 0, 0]) for a in skins._DECODED.values()] == [5]


def pcx_with_palette(palette: np.ndarray) -> bytes:
    """A 1 x 1 PCX (version 5, 8 bits, RLE) ending with its 256 colours after the 0x0c marker."""
    header = bytearray(128)
    header[0:4] = bytes([0x0A, 5, 1, 8])  # manufacturer, version, RLE, bits per pixel
    header[65] = 1  # planes
    header[66:68] = (1).to_bytes(2, 'little')  # bytes per line
    return bytes(header) + bytes([0xC1, 7]) + b'\x0c' + palette.astype(np.uint8).tobytes()


def test_a_palette_is_exactly_768_bytes(tmp_path):
    colours = np.arange(768, dtype=np.uint32).astype(np.uint8)
    (tmp_path / 'palette.lmp').write_bytes(colours.tobytes())
    np.testing.assert_array_equal(read_palette(tmp_path / 'palette.lmp'), colours.reshape(256, 3))
    for size in (767, 769, 4096):
        (tmp_path / 'bad.lmp').write_bytes(bytes(size))
        with pytest.raises(pq.QuakeFormatError, match=f'bad.lmp: size = {size}: .*exactly 768'):
            read_palette(tmp_path / 'bad.lmp')


def test_a_model_file_is_no_palette(tmp_path):
    model = tmp_path / 'torch.mdl'
    model.write_bytes(torch_mdl())
    with pytest.raises(pq.QuakeFormatError, match='exactly 768 bytes'):
        pq.load(model, palette=model)


def test_a_pcx_gives_its_trailing_palette(tmp_path):
    colours = (np.arange(768) * 7 % 256).reshape(256, 3)
    (tmp_path / 'colormap.pcx').write_bytes(pcx_with_palette(colours))
    np.testing.assert_array_equal(read_palette(tmp_path / 'colormap.pcx'), colours)
    # A PCX whose end is not a palette (no 0x0c marker before the last 768 bytes) is refused.
    broken = bytearray(pcx_with_palette(colours))
    broken[-769] = 0
    (tmp_path / 'broken.pcx').write_bytes(bytes(broken))
    with pytest.raises(pq.QuakeFormatError, match='broken.pcx'):
        read_palette(tmp_path / 'broken.pcx')


def test_a_palette_starting_with_a_pcx_byte_is_still_a_palette(tmp_path):
    from pyvista_quake.game.skins import pcx_palette

    colours = np.full(768, 0x0A, np.uint8)  # its first entry is PCX's manufacturer byte
    (tmp_path / 'palette.lmp').write_bytes(colours.tobytes())
    np.testing.assert_array_equal(read_palette(tmp_path / 'palette.lmp'), colours.reshape(256, 3))
    np.testing.assert_array_equal(pcx_palette(b'\x0c' + bytes(range(256)) * 3), np.frombuffer(bytes(range(256)) * 3, np.uint8).reshape(256, 3))
    assert pcx_palette(bytes(768)) is None and pcx_palette(b'\x0b' + bytes(768)) is None


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


def test_a_skin_index_counts_from_either_end_and_no_further():
    model = pq.load(tetra_md2(skins=['a.png', 'b.png', 'c.png']))
    count = model.alias.num_skins
    model.skin = -count  # the first, from the end
    assert model.skin == 0
    model.skin = count - 1
    assert model.skin == count - 1
    for outside in (count, -count - 1):
        with pytest.raises(IndexError, match=f'skin {outside} out of range'):
            model.skin = outside
