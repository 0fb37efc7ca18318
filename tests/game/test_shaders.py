"""Quake III shaders decide how a texture's alpha is drawn: opaque unless alphaFunc or blendFunc says otherwise."""

from __future__ import annotations

from pathlib import Path

from builders import tetra_md3
import numpy as np
from PIL import Image
import pytest

import pyvista_quake as pq
from pyvista_quake.formats import shader
from pyvista_quake.formats import skin as skin_file
from pyvista_quake.game.skins import drawn_alpha

SCRIPT = """
// comments { are } skipped
models/test/cut { cull none { map models/test/cut.tga alphaFunc GE128 depthWrite } }
models/test/low { { map models/test/low.tga alphaFunc LT128 } }
models/test/any { { clampmap models/test/any.tga alphaFunc GT0 } }
models/test/flash { { map $lightmap } { map models/test/flash.tga blendFunc add } }
models/test/glow { { animMap 10 models/test/g1.tga models/test/g2.tga blendfunc GL_ONE GL_ONE } }
models/test/glass { { map models/test/glass.tga blendFunc GL_SRC_ALPHA GL_ONE_MINUS_SRC_ALPHA } }
models/test/dark { { map models/test/dark.tga blendFunc filter } }
models/test/plain { { map models/test/plain.tga rgbGen identity } }
models/test/plain { { map models/test/second.tga alphaFunc GE128 } }
"""


def test_each_shader_keeps_its_first_image_stage_and_how_it_blends():
    shaders = shader.parse(SCRIPT)
    assert {name: s.alpha for name, s in shaders.items()} == {
        'models/test/cut': 'ge128',
        'models/test/low': 'lt128',
        'models/test/any': 'gt0',
        'models/test/flash': 'add',
        'models/test/glow': 'add',
        'models/test/glass': 'blend',
        'models/test/dark': 'opaque',
        'models/test/plain': 'opaque',
    }
    assert shaders['models/test/flash'].image == 'models/test/flash.tga'  # $lightmap is no image
    assert shaders['models/test/glow'].image == 'models/test/g1.tga' and shaders['models/test/glow'].blend == ('gl_one', 'gl_one')
    assert shaders['models/test/plain'].image == 'models/test/plain.tga'  # the first of a name counts
    assert shader.parse('x { { map $whiteimage } }') == {} and shader.parse('') == {}
    assert shader.Shader('x', 'x.tga', blend=('gl_one', 'gl_zero')).alpha == 'opaque'
    assert shader.Shader('x', 'x.tga', blend=('gl_zero', 'gl_src_color')).alpha == 'opaque'
    assert shader.Shader('x', 'x.tga', blend=('gl_src_alpha', 'gl_one')).alpha == 'add'
    assert shader.Shader('x', 'x.tga', alpha_func='ge129').alpha == 'opaque'  # no test the engine knows


def test_drawn_alpha_follows_the_stage():
    image = np.zeros((1, 4, 4), np.uint8)
    image[0, :, :3] = [[0, 0, 0], [255, 255, 255], [100, 0, 0], [10, 20, 30]]
    image[0, :, 3] = [0, 127, 128, 255]
    assert drawn_alpha(image, 'opaque').shape == (1, 4, 3)
    assert drawn_alpha(image, 'ge128')[0, :, 3].tolist() == [0, 0, 255, 255]
    assert drawn_alpha(image, 'lt128')[0, :, 3].tolist() == [255, 255, 0, 0]
    assert drawn_alpha(image, 'gt0')[0, :, 3].tolist() == [0, 255, 255, 255]
    assert drawn_alpha(image, 'add')[0, :, 3].tolist() == [0, 127, 50, 30]  # brightness x alpha: black adds nothing
    assert drawn_alpha(image, 'blend') is image
    rgb = image[..., :3].copy()
    assert drawn_alpha(rgb, 'opaque') is rgb


def test_skin_files_read_back_what_they_write():
    text = skin_file.write({'body': 'models/x/body.tga', 'flag': 'models/x/flag.tga'})
    assert skin_file.parse(text + 'tag_head,\nBad\n,x.tga\nBODY,other.tga\r\n') == {'body': 'models/x/body.tga', 'flag': 'models/x/flag.tga'}


def mostly_clear(tmp_path, script: str | None):
    """An MD3 whose body skin is 82% below alpha 128 (OpenArena's merman), with or without a shader for it."""
    folder = tmp_path / 'models' / 'test'
    folder.mkdir(parents=True)
    (folder / 'model.md3').write_bytes(tetra_md3(frames=1))
    body = np.zeros((10, 10, 4), np.uint8)
    body[..., :3] = (200, 40, 40)
    body[..., 3] = 20
    body[:1, :, 3] = 255
    body[2, :8, 3] = 255  # 18 of 100 texels opaque
    Image.fromarray(body).save(folder / 'body.tga')
    if script is not None:
        (tmp_path / 'scripts').mkdir()
        (tmp_path / 'scripts' / 'test.shader').write_text(script)
    return folder / 'model.md3'


@pytest.mark.parametrize(
    ('script', 'mode', 'channels'),
    [
        (None, 'opaque', 3),  # no shader: drawn opaque, as Quake III draws it
        ('models/test/body { { map models/test/body.tga rgbGen lightingDiffuse } }', 'opaque', 3),  # a shader with no alphaFunc
        ('models/test/body { { map models/test/body.tga alphaFunc GE128 } }', 'ge128', 4),
        ('models/test/body { { map models/test/body.tga blendFunc add } }', 'add', 4),
    ],
)
def test_an_md3_surface_draws_its_alpha_only_where_its_shader_says(tmp_path, script, mode, channels):
    model = pq.load(mostly_clear(tmp_path, script))
    assert model.surfaces[0].alpha == mode
    block = model.blocks(0)['body']
    assert block.field_data['skin_alpha'][0] == mode
    assert block.quake.image().shape[2] == channels
    if mode == 'ge128':
        assert (block.quake.image()[..., 3] == 255).mean() == pytest.approx(0.18)


def test_a_surface_with_no_alpha_channel_reads_no_shader_script(tmp_path):
    path = mostly_clear(tmp_path, 'models/test/flag { { map models/test/flag.tga alphaFunc GE128 } }')
    Image.fromarray(np.full((4, 4, 3), 90, np.uint8)).save(path.parent / 'body.tga')  # RGB now
    model = pq.load(path)
    assert model.surfaces[0].alpha == 'opaque' and '_shaders' not in model.__dict__


def test_a_thumbnail_of_a_mostly_clear_skin_without_alphafunc_shows_the_whole_body(tmp_path):
    drawn = {}
    for script in (None, 'models/test/body { { map models/test/body.tga alphaFunc GE128 } }'):
        path = mostly_clear(tmp_path / str(script is None), script)
        image = np.asarray(Image.open(pq.thumbnail(path, tmp_path / f'{script is None}.png', size=(96, 96))).convert('RGB'))
        drawn[script is None] = int((np.abs(image.astype(int) - 255).sum(axis=2) > 30).sum())
    assert drawn[True] > 1.5 * drawn[False]  # opaque: every texel drawn; the cut-out loses 82% of the body


def test_a_shader_draws_the_first_stage_on_the_textures_own_coordinates():
    script = """
    textures/e8/red_shiney { { map textures/effects/tinfx.tga tcGen environment } { map textures/e8/red.tga blendFunc filter }
                             { map $lightmap blendFunc filter } }
    textures/e8/only_env { { map textures/effects/env.tga tcGen environment } { map textures/effects/env2.tga tcGen vector ( 1 0 0 ) ( 0 1 0 ) } }
    textures/e8/projected { { map textures/a.tga tcGen lightmap } { map textures/b.tga tcGen base } }
    textures/e8/texture { { map textures/c.tga tcGen texture } }
    """
    shaders = shader.parse(script)
    assert shaders['textures/e8/red_shiney'].image == 'textures/e8/red.tga' and shaders['textures/e8/red_shiney'].alpha == 'opaque'
    assert shaders['textures/e8/only_env'].image == 'textures/effects/env.tga'  # nothing else: its first image stage
    assert shaders['textures/e8/projected'].image == 'textures/b.tga'
    assert shaders['textures/e8/texture'].image == 'textures/c.tga'


@pytest.mark.parametrize(
    ('rgb_gen', 'coloured'),
    [
        ('', False),
        ('rgbGen identity', False),
        ('rgbGen vertex', True),
        ('rgbGen exactVertex', True),
        ('rgbGen oneMinusVertex', True),
        ('rgbGen wave sin 0 1 0 1', False),
    ],
)
def test_a_stage_is_coloured_by_the_vertices_where_its_rgbgen_says(rgb_gen, coloured):
    shaders = shader.parse(f'x {{ {{ map $lightmap rgbGen vertex }} {{ map x.tga {rgb_gen} }} }}')
    assert shaders['x'].image == 'x.tga' and shaders['x'].vertex_colours is coloured


def flame_md3(folder: Path, flame: bool) -> Path:
    """A red tetrahedron and, with ``flame``, a card in front of it whose additive shader's image is missing."""
    from builders import build_md3
    from builders import latlong

    models = folder / 'models' / 'test'
    models.mkdir(parents=True, exist_ok=True)
    body = dict(
        name='body',
        shaders=['models/test/body.tga'],
        triangles=[[0, 1, 2], [0, 3, 1], [1, 3, 2], [2, 3, 0]],
        st=[[0, 0], [1, 0], [0, 1], [0.5, 0.5]],
        xyz=np.array([[[0, 0, 0], [640, 0, 0], [0, 640, 0], [0, 0, 640]]]),
        normal=latlong(np.array([[-1, -1, -1], [1, 0, 0], [0, 1, 0], [0, 0, 1]]) / np.array([[3**0.5], [1], [1], [1]]))[None],
    )
    card = dict(
        name='thrust',
        shaders=['models/test/thrust'],
        triangles=[[0, 1, 2], [0, 2, 3]],
        st=[[0, 0], [1, 0], [1, 1], [0, 1]],
        xyz=np.array([[[700, -200, -200], [700, 900, -200], [700, 900, 900], [700, -200, 900]]]),
        normal=latlong(np.tile([[1.0, 0, 0]], (4, 1)))[None],
    )
    Image.fromarray(np.full((4, 4, 3), (200, 0, 0), np.uint8)).save(models / 'body.tga')
    (folder / 'scripts').mkdir(exist_ok=True)
    (folder / 'scripts' / 'test.shader').write_text('models/test/thrust\n{\n  {\n    map textures/flares/flarey.tga\n    blendFunc add\n  }\n}\n')
    path = models / ('flame.md3' if flame else 'plain.md3')
    path.write_bytes(build_md3([body, card] if flame else [body]))
    return path


def test_an_additive_surface_whose_image_is_missing_paints_nothing_and_the_warning_names_its_image(tmp_path):
    with pytest.warns(pq.QuakeWarning) as caught:
        model = pq.load(flame_md3(tmp_path, True))
        assert model.surfaces[1].image() is None
        pq.thumbnail(model, tmp_path / 'flame.png', size=(96, 96))
    said = ' '.join(str(w.message) for w in caught)
    assert 'image textures/flares/flarey.tga of shader models/test/thrust of surface thrust not found' in said
    pq.thumbnail(pq.load(flame_md3(tmp_path, False)), tmp_path / 'plain.png', size=(96, 96))
    flame, plain = (np.asarray(Image.open(tmp_path / f'{n}.png').convert('RGB')).astype(int) for n in ('flame', 'plain'))
    red = (plain[..., 0] > 120) & (plain[..., 1] < 80)
    assert red.sum() > 200  # the body shows
    assert np.abs(flame - plain).max() <= 2  # the flame adds nothing: the same picture as without it
