"""The viewer in a real browser: headless Chromium through playwright, every request outside the page refused."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
import shutil
import time
import zipfile

from builders import tetra_md2
from builders import tetra_md3
from builders import two_joint_iqm
from game_folders import page_info
import numpy as np
from PIL import Image
import pytest

import pyvista_quake as pq
from pyvista_quake import examples
from pyvista_quake.exporting.html import page as html_page

CHROMIUM = shutil.which('chromium') or shutil.which('chromium-browser')


@pytest.fixture(scope='module')
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if os.environ.get('CI') == 'true':
            pytest.fail('playwright is not installed: python -m pip install -e ".[test]"')
        pytest.skip('playwright is not installed')
    if CHROMIUM is None:
        if os.environ.get('CI') == 'true':
            pytest.fail("Debian's chromium is not installed (.ci/run installs it: apt-get install chromium)")
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                '--use-gl=swiftshader',
                '--enable-unsafe-swiftshader',
                '--no-sandbox',
                '--disable-background-networking',
                '--disable-component-update',
                '--no-first-run',
                '--disable-sync',
            ],
        )
        yield launched
        launched.close()


class Page:
    """A page of the browser that refuses every request leaving it and records console errors."""

    def __init__(self, browser, path: Path) -> None:
        self.errors: list[str] = []
        self.refused: list[str] = []
        self.page = browser.new_page(viewport={'width': 700, 'height': 640})
        self.page.route('**/*', self._route)
        self.page.on('console', lambda message: self.errors.append(message.text) if message.type == 'error' else None)
        self.page.on('pageerror', lambda error: self.errors.append(str(error)))
        self.page.goto(path.resolve().as_uri())
        self.page.wait_for_function("document.querySelector('.pq-frame').textContent.includes('frame')", timeout=60_000)

    def _route(self, route) -> None:
        if route.request.url.startswith(('file:', 'data:', 'blob:', 'about:')):
            route.continue_()
        else:
            self.refused.append(route.request.url)
            route.abort()

    def shot(self, tmp_path: Path, name: str) -> np.ndarray:
        path = tmp_path / f'{name}.png'
        self.page.locator('.pq-view canvas').screenshot(path=str(path))
        return np.asarray(Image.open(path).convert('RGB')).astype(int)

    def label(self) -> str:
        return self.page.locator('.pq-frame').text_content() or ''

    def close(self) -> None:
        assert self.errors == [] and self.refused == []
        self.page.close()


def drawn(image: np.ndarray) -> np.ndarray:
    return np.abs(image - 255).sum(axis=2) > 40  # not the white background


def sources(tmp_path) -> dict[str, object]:
    folder = tmp_path / 'md3' / 'models' / 'test'
    folder.mkdir(parents=True)
    (folder / 'model.md3').write_bytes(tetra_md3(frames=3))
    Image.fromarray(np.random.default_rng(3).integers(0, 255, (16, 16, 3), np.uint8)).save(folder / 'body.png')
    return {
        'md2': examples.sample_model('md2'),
        'mdl': examples.sample_model('mdl'),
        'md3': folder / 'model.md3',
        'player': examples.synthetic_player(tmp_path / 'player'),
    }


@pytest.mark.parametrize('kind', ['md2', 'mdl', 'md3', 'player'])
def test_an_exported_page_plays_offline_textured_and_moving(browser, tmp_path, kind):
    source = sources(tmp_path)[kind]
    page_path = tmp_path / f'{kind}.html'
    pq.export(source, page_path)
    text = page_path.read_text()
    assert 'http://' not in text.replace('http://www.w3.org', '') and 'src="http' not in text and '<link' not in text
    page = Page(browser, page_path)
    first = page.shot(tmp_path, 'first')
    assert drawn(first).sum() > 500  # the model is drawn
    colours = first[drawn(first)]
    if kind in ('md2', 'mdl', 'md3'):
        assert colours.std(axis=0).mean() > 8  # textured, not one flat colour
    time.sleep(0.6)
    second = page.shot(tmp_path, 'second')
    assert np.abs(first - second).sum() > 0  # it moves
    page.close()


def test_the_controls_change_what_is_shown(browser, tmp_path):
    page_path = pq.exporting.html.write_page(examples.sample_model('md2'), tmp_path / 'd.html')
    page = Page(browser, page_path)
    page.page.click('.pq-play')  # pause
    assert page.page.locator('.pq-play').text_content() == 'Play'
    still = [page.shot(tmp_path, 'a'), page.shot(tmp_path, 'b')]
    assert np.array_equal(*still)  # paused: nothing moves
    page.page.eval_on_selector('.pq-time', "e => { e.value = 0; e.dispatchEvent(new Event('input')); }")
    start = page.label()
    assert ': frame 0 ' in start
    page.page.eval_on_selector('.pq-time', "e => { e.value = e.max * 0.9; e.dispatchEvent(new Event('input')); }")
    assert page.label() != start and not np.array_equal(page.shot(tmp_path, 'c'), still[0])  # the slider moves the model
    names = [o.get_attribute('value') for o in page.page.locator('.pq-animation option').all()]
    assert names == list(pq.load(examples.sample_model('md2')).animations)
    page.page.select_option('.pq-animation', names[-1])
    assert page.label().startswith(f'{names[-1]}: frame ')
    page.close()


def test_a_model_with_several_skins_has_a_skin_picker(browser, tmp_path):
    folder = tmp_path / 'models' / 'test'
    folder.mkdir(parents=True)
    model = pq.QuakeModel.from_frames(pq.load(examples.sample_model('md2')).mesh(0), 'md2', skin=np.full((8, 8, 3), (200, 30, 30), np.uint8))
    model.alias.set_skin(1, np.full((8, 8, 3), (30, 30, 200), np.uint8))
    model.save(folder / 'two.md2')
    page = Page(browser, pq.exporting.html.write_page(folder / 'two.md2', tmp_path / 'two.html'))
    assert page.page.locator('.pq-skin option').count() == 2
    red = page.shot(tmp_path, 'red')[..., :3]
    page.page.select_option('.pq-skin', '1')
    page.page.wait_for_timeout(500)
    blue = page.shot(tmp_path, 'blue')
    mask_r, mask_b = drawn(red), drawn(blue)
    assert red[mask_r][:, 0].mean() > red[mask_r][:, 2].mean() and blue[mask_b][:, 2].mean() > blue[mask_b][:, 0].mean()
    page.close()


def test_the_notebook_viewer_is_the_page_in_an_iframe_of_its_own(tmp_path):
    shown = pq.viewer(examples.sample_model('mdl'))
    markup = shown._repr_html_()
    assert markup.startswith('<iframe srcdoc="') and 'PyvistaQuakeViewer.start' in markup and 'sandbox="allow-scripts"' in markup
    assert shown.save(tmp_path / 'v.html').read_text() == shown.html


def test_a_one_file_page_carries_the_viewer_script_packed_and_whole():
    import base64
    import gzip
    import re

    from pyvista_quake.exporting import html as pages

    bundle = (pages.STATIC / 'viewer.bundle.js').read_bytes()
    page = pages.page(examples.sample_model('mdl'))
    packed = re.findall(r"atob\('([A-Za-z0-9+/=]+)'\)", page)
    assert len(packed) == 1 and gzip.decompress(base64.b64decode(packed[0])) == bundle  # the script, every byte
    assert bundle not in page.encode('utf-8')
    assert len(page.encode('utf-8')) < len(bundle)  # a small model's whole page weighs less than the plain script alone
    site_page = pages.page(examples.sample_model('mdl'), library='../viewer.bundle.js')
    # A site's pages share the plain file, loaded before the page's start call.
    assert 'atob(' not in site_page and '</div>\n<script src="../viewer.bundle.js"></script>\n<script>\nPyvistaQuakeViewer.start(' in site_page


def test_a_catalogue_filters_in_the_browser_and_links_a_working_page_for_every_model(browser, tmp_path):
    from game_folders import game

    site = tmp_path / 'site'
    pq.catalogue([game(tmp_path)], site, size=(64, 64))
    index = browser.new_page()
    refused: list[str] = []
    index.route(
        '**/*',
        lambda route: route.continue_() if route.request.url.startswith(('file:', 'data:')) else (refused.append(route.request.url), route.abort()),
    )
    index.goto((site / 'index.html').as_uri())
    assert index.locator('#count').text_content() == '6 of 6 models'
    index.fill('#q', 'torch')
    assert index.locator('#count').text_content() == '1 of 6 models'
    index.fill('#q', '')
    index.select_option('#format', 'md3')
    assert index.locator('#count').text_content() == '2 of 6 models'
    hrefs = [a.get_attribute('href') for a in index.locator('.card a').all()]
    assert len(hrefs) == 6 and refused == []
    for href in hrefs:
        target = (site / href).resolve()
        if 'v_hand' in href:
            continue  # nothing to play: its facts only
        page = Page(browser, target)
        assert drawn(page.shot(tmp_path, 'card')).sum() > 100
        page.close()
    index.close()


def test_a_notebook_calling_viewer_plays_offline_once_exported_to_html(browser, tmp_path):
    nbformat = pytest.importorskip('nbformat')
    nbclient = pytest.importorskip('nbclient')
    nbconvert = pytest.importorskip('nbconvert')
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell("import pyvista_quake as pq\nfrom pyvista_quake import examples\npq.viewer(examples.sample_model('md2'))")
    ]
    nbclient.NotebookClient(notebook, timeout=300, kernel_name='python3', resources={'metadata': {'path': str(tmp_path)}}).execute()
    body, _ = nbconvert.HTMLExporter().from_notebook_node(notebook)
    exported = tmp_path / 'shared.html'
    exported.write_text(body)
    page = browser.new_page(viewport={'width': 900, 'height': 900})
    refused: list[str] = []
    page.route(
        '**/*',
        lambda route: (
            route.continue_() if route.request.url.startswith(('file:', 'data:', 'about:')) else (refused.append(route.request.url), route.abort())
        ),
    )
    page.goto(exported.as_uri())
    frame = next(f for f in page.frames if f != page.main_frame)  # the viewer's iframe
    frame.wait_for_function("document.querySelector('.pq-frame').textContent.includes('frame')", timeout=60_000)
    canvas = frame.locator('.pq-view canvas')
    first = np.asarray(Image.open(io.BytesIO(canvas.screenshot())).convert('RGB')).astype(int)
    time.sleep(0.6)
    second = np.asarray(Image.open(io.BytesIO(canvas.screenshot())).convert('RGB')).astype(int)
    assert drawn(first).sum() > 500 and np.abs(first - second).sum() > 0  # drawn, and playing with no kernel
    page.close()
    # The notebook's own requests (its styles, MathJax) are refused: the viewer needs none of them.
    assert all('pyvista' not in url for url in refused)


def test_a_model_of_tags_only_has_no_page(tmp_path):
    from builders import build_md3

    (tmp_path / 'v_hand.md3').write_bytes(build_md3([], frames=1, tags=[('tag_weapon', np.zeros((1, 3)), np.eye(3)[None])]))
    with pytest.raises(pq.NothingToDrawError, match='nothing to play'):
        pq.export(tmp_path / 'v_hand.md3', tmp_path / 'hand.html')
    assert not (tmp_path / 'hand.html').exists()


def test_a_player_has_a_legs_and_a_torso_picker_played_together(browser, tmp_path):
    page = Page(browser, pq.exporting.html.write_page(examples.synthetic_player(tmp_path / 'p'), tmp_path / 'p.html'))
    assert page.page.locator('.pq-legs').input_value() == 'LEGS_RUN' and page.page.locator('.pq-torso').input_value() == 'TORSO_STAND'
    assert 'LEGS_RUN: frame' in page.label() and 'TORSO_STAND: frame' in page.label()
    page.page.select_option('.pq-torso', 'TORSO_GESTURE')
    assert 'LEGS_RUN: frame' in page.label() and 'TORSO_GESTURE: frame' in page.label()  # both play
    page.page.select_option('.pq-legs', 'BOTH_DEATH1')
    assert page.page.locator('.pq-torso').input_value() == 'BOTH_DEATH1' and page.label().count('BOTH_DEATH1') == 1
    page.page.select_option('.pq-torso', 'TORSO_ATTACK')
    assert page.page.locator('.pq-legs').input_value() == 'LEGS_IDLE'
    page.close()


def test_a_skeletal_model_plays_its_joints_in_the_browser(browser, tmp_path):

    (tmp_path / 'bar.iqm').write_bytes(two_joint_iqm(frames=12))
    Image.fromarray(np.random.default_rng(4).integers(0, 255, (16, 16, 3), np.uint8)).save(tmp_path / 'bar.png')
    page_path = pq.exporting.html.write_page(tmp_path / 'bar.iqm', tmp_path / 'bar.html')
    page = Page(browser, page_path)
    first = page.shot(tmp_path, 'first')
    assert drawn(first).sum() > 500
    assert first[drawn(first)].std(axis=0).mean() > 8  # textured
    time.sleep(0.6)
    assert np.abs(first - page.shot(tmp_path, 'second')).sum() > 0  # the joints move it
    assert 'bend' in page.label()
    page.close()


def box_md2(path: Path) -> Path:
    """A box that lies down in its first animation (``death``) and stands up, twice as tall as wide, in ``stand``."""
    from builders import build_md2

    corners = np.array([[x, y, z] for z in (0, 1) for y in (0, 1) for x in (0, 1)], np.uint8)
    faces = np.array(
        [[0, 2, 1], [1, 2, 3], [4, 5, 6], [5, 7, 6], [0, 1, 4], [1, 5, 4], [2, 6, 3], [3, 6, 7], [0, 4, 2], [2, 4, 6], [1, 3, 5], [3, 7, 5]]
    )
    verts = np.zeros((4, 8, 4), np.uint8)
    verts[..., :3] = corners * 255
    scale = np.array([[4 / 255, 1 / 255, 0.5 / 255]] * 2 + [[1 / 255, 1 / 255, 2 / 255]] * 2)
    st = np.array([[k % 2 * 60, k // 2 % 2 * 60] for k in range(8)])
    path.write_bytes(build_md2(verts, faces, faces, st, scale=scale, names=['death1', 'death2', 'stand1', 'stand2']))
    return path


def test_the_viewer_starts_on_the_rest_animation_and_fills_the_view_with_it(browser, tmp_path):
    page_path = pq.exporting.html.write_page(box_md2(tmp_path / 'box.md2'), tmp_path / 'box.html', size=(640, 480))
    page = Page(browser, page_path)
    assert page.page.locator('.pq-animation').input_value() == 'stand'  # the thumbnails' rest pose, not the first (death)
    page.page.click('.pq-play')  # pause, then show the stand pose's first frame
    image = page.shot(tmp_path, 'box')
    rows, cols = np.nonzero(drawn(image))
    height, width = (rows.max() - rows.min() + 1) / image.shape[0], (cols.max() - cols.min() + 1) / image.shape[1]
    assert height > width  # the standing box, framed as it stands
    assert 0.8 <= max(height, width) <= 0.95  # it fills the view, and all of it is in view
    page.close()


def test_a_level_page_draws_its_textures_times_its_lightmaps(browser, tmp_path):
    from game_folders import lit_square_level  # noqa: PLC0415

    # Grey 128 textures times pages of (40, 20, 10) and (10, 40, 20), brightened 4 x (R_ColorShiftLightingBytes).
    path = lit_square_level(tmp_path / 'game', [(40, 20, 10), (10, 40, 20)])
    pq.export(pq.load(path), tmp_path / 'lit.html')
    page = Page(browser, tmp_path / 'lit.html')
    shot = page.shot(tmp_path, 'lit')
    for product in ((80, 40, 20), (20, 80, 40)):  # 128 x (160, 80, 40) / 255, and its turn
        assert (np.abs(shot - product).max(axis=2) <= 10).sum() > 300, product
    page.close()


@pytest.mark.parametrize('kind', ['md2', 'player'])
def test_a_quantized_page_plays_as_the_float_one_and_is_lighter(browser, tmp_path, kind):
    source = sources(tmp_path)[kind]
    shots, sizes = [], []
    for quantize in (False, True):
        path = tmp_path / f'{kind}-{quantize}.html'
        pq.export(source, path, quantize=quantize)
        sizes.append(path.stat().st_size)
        page = Page(browser, path)
        page.page.locator('.pq-play').click()  # held still on its first frame, as the page starts
        page.page.evaluate("() => { const s = document.querySelector('.pq-time'); s.value = 0; s.dispatchEvent(new Event('input')); }")
        page.page.wait_for_timeout(300)
        shots.append(page.shot(tmp_path, f'{kind}-{quantize}'))
        page.close()
    assert sizes[1] < sizes[0]
    floats, small = shots
    assert drawn(floats).sum() > 500
    differ = np.abs(floats - small).max(axis=2) > 24
    assert differ.sum() <= 0.01 * drawn(floats).sum(), differ.sum()  # the same picture, but for a few edge pixels


def test_a_players_skin_sets_are_one_model_and_their_images_swapped_in_the_browser(browser, tmp_path):
    import json  # noqa: PLC0415
    import re  # noqa: PLC0415

    folder = examples.synthetic_player(tmp_path / 'game' / 'models' / 'players' / 'test')
    for name, colour in (('default', (200, 30, 30)), ('blue', (30, 30, 200))):
        Image.new('RGB', (8, 8), colour).save(folder / f'{name}.png')
        for part, surface in (('lower', 'l_legs'), ('upper', 'u_torso'), ('head', 'h_head')):
            (folder / f'{part}_{name}.skin').write_text(f'{surface},models/players/test/{name}.png\n')
    path = tmp_path / 'player.html'
    pq.export(folder, path)
    text = path.read_text()
    models = json.loads(re.search(r'start\(document.getElementById\(\'pq-viewer\'\), (\[.*?\]), \{', text, re.S).group(1))
    assert len(models) == 1  # the geometry once, whatever the skins
    page = Page(browser, path)
    assert page.page.locator('.pq-skin option').count() == 2
    page.page.locator('.pq-play').click()
    page.page.wait_for_timeout(300)
    red = page.shot(tmp_path, 'red')
    page.page.select_option('.pq-skin', '1')
    page.page.wait_for_timeout(500)
    blue = page.shot(tmp_path, 'blue')
    r, b = red[drawn(red)], blue[drawn(blue)]
    assert r[:, 0].mean() > 2 * r[:, 2].mean() and b[:, 2].mean() > 2 * b[:, 0].mean(), (r.mean(axis=0), b.mean(axis=0))
    page.close()


def _page_info(text: str) -> dict:
    import json
    import re

    return json.loads(re.search(r'PyvistaQuakeViewer\.start\([^,]+, \[[^\]]*\], (\{.*\})\);', text).group(1))


def test_a_level_page_fills_the_window_without_animation_controls_from_the_first_player_start(browser, tmp_path):
    level = pq.load(examples.synthetic_level(tmp_path / 'game'))
    pq.export(level, tmp_path / 'level.html')
    info = _page_info((tmp_path / 'level.html').read_text())
    # The first start, (64, 64, 24) facing 45 degrees, its eye 26 units up; in glTF's axes (y, z, x).
    np.testing.assert_allclose(info['eye'], [64, 50, 64, 64 + 16 * np.sqrt(0.5), 50, 64 + 16 * np.sqrt(0.5)], atol=1e-9)
    assert info['still'] is True and info['level'] is True
    page = Page(browser, tmp_path / 'level.html')
    assert not page.page.locator('.pq-play').is_visible() and not page.page.locator('.pq-time').is_visible()
    assert not page.page.locator('.pq-frame').is_visible()
    box = page.page.locator('.pq-view canvas').bounding_box()
    assert box['width'] == 700 and box['height'] > 0.8 * 640  # the page's window, less the title's line
    shot = page.shot(tmp_path, 'level')
    assert drawn(shot).mean() > 0.6  # inside the room: walls and floor, not a box seen from outside
    assert drawn(shot[-40:]).all()  # the floor at the bottom of the view
    page.close()
    sized = _page_info(html_page(level, size=(320, 200)))
    assert sized['eye'] == info['eye']
    assert 'width: 320px; height: 200px;' in html_page(level, size=(320, 200))


def test_a_model_of_one_frame_is_still_and_an_animated_one_plays(tmp_path):
    animated = html_page(examples.sample_model('md2'))
    assert 'still' not in _page_info(animated)
    assert 'width: 640px; height: 480px;' in animated  # a model's view keeps its size
    (tmp_path / 'one.md3').write_bytes(tetra_md3(frames=1))
    info = _page_info(html_page(tmp_path / 'one.md3'))
    assert info['still'] is True and 'eye' not in info and 'level' not in info


def test_a_catalogue_keeps_each_image_once_and_its_pages_link_to_the_index(browser, tmp_path):
    import shutil

    game = tmp_path / 'game'
    first = examples.synthetic_level(game)
    shutil.copyfile(first, first.with_name('again.bsp'))
    site = tmp_path / 'site'
    report = pq.catalogue([game], site, size=(48, 48))
    assert len(report.made) == 2 and not report.failed
    level = pq.load(first)
    images = {found.location for s in level.surfaces if (found := s.image_file()) is not None}
    assets = sorted((site / 'assets').glob('*.js'))
    assert 0 < len(assets) <= len(images) + 1  # each image once (and the lightmap atlas), not once a map
    pages = sorted((site / 'pages').rglob('*.html'))
    assert len(pages) == 2
    for page_path in pages:
        text = page_path.read_text()
        assert text.count('assets/') == len(assets)  # each page loads the images it shows
        assert '<a href="' in text and 'index.html">all models</a></p>' in text
    # The site, its shared script aside, within twice the maps and the images they show.
    site_bytes = sum(p.stat().st_size for p in site.rglob('*') if p.is_file() and p.name != 'viewer.bundle.js')
    source_bytes = 2 * first.stat().st_size + sum(Path(location).stat().st_size for location in images)
    assert site_bytes <= 2 * source_bytes, (site_bytes, source_bytes)
    shown = Page(browser, pages[0])
    assert drawn(shown.shot(tmp_path, 'shared')).mean() > 0.5  # its textures came from the shared scripts
    shown.close()


def test_a_viewers_repr_is_one_line_naming_the_model(tmp_path):
    path = tmp_path / 'tetra.md2'
    path.write_bytes(tetra_md2())
    shown = pq.viewer(path)
    text = repr(shown)
    assert '\n' not in text and len(text) < 200 and 'tetra.md2' in text and 'MB' in text
    assert len(shown._repr_html_()) > 10_000  # the page stays the HTML output


def test_the_page_of_a_model_with_nothing_to_draw_is_plain_html(tmp_path):
    from html.parser import HTMLParser

    root = tmp_path / 'baseq3'
    root.mkdir()
    from builders import build_md3

    with zipfile.ZipFile(root / 'pak0.pk3', 'w') as archive:
        archive.writestr('models/weapons2/v_hand.md3', build_md3([], frames=1, tags=[('tag_weapon', np.zeros((1, 3)), np.eye(3)[None])]))
    pq.catalogue([root], tmp_path / 'site')
    entry = next(iter(json.loads((tmp_path / 'site' / 'catalogue.json').read_text()).values()))
    text = (tmp_path / 'site' / entry['page']).read_text()
    assert text.startswith('<!DOCTYPE html><html><head><meta charset="utf-8"><title>models/weapons2/v_hand.md3</title></head><body>')
    assert text.endswith('</body></html>')

    class Outside(HTMLParser):
        stray: list[str] = []
        depth = 0

        def handle_starttag(self, tag, attrs):
            self.depth += tag == 'body'

        def handle_data(self, data):
            if not self.depth and data.strip():
                self.stray.append(data)

    parser = Outside()
    parser.feed(text.split('<title>', 1)[1].split('</title>', 1)[1])
    assert parser.stray == []


def test_animations_of_one_name_are_named_as_they_are_keyed(tmp_path):

    (tmp_path / 'bar.iqm').write_bytes(two_joint_iqm(frames=4, anims=[('idle', 0, 2, 10.0, 1), ('idle', 2, 2, 10.0, 1)]))
    model = pq.load(tmp_path / 'bar.iqm')
    assert list(model.animations) == ['idle', 'idle_2']
    assert [clip.name for clip in model.animations.values()] == ['idle', 'idle_2']
    assert list(model.animations['idle_2'].frames) == [2, 3]


def test_a_page_starts_on_the_rest_animation_with_the_box_of_its_frames(tmp_path):
    from builders import tetra_md2

    path = tmp_path / 't.md2'
    path.write_bytes(tetra_md2())  # frames stand01, stand02, run1
    model = pq.load(path)
    info = page_info(pq.exporting.html.page(model))
    assert info['start'] == 'stand'
    points = model.positions([0, 1])[..., [1, 2, 0]].reshape(-1, 3)  # glTF's axes: Quake's y, z, x
    np.testing.assert_allclose(info['bounds'], [*points.min(axis=0), *points.max(axis=0)], rtol=1e-6)
    run = page_info(pq.exporting.html.page(model, animation='run'))
    assert run['start'] == 'run'
    points = model.positions([2])[..., [1, 2, 0]].reshape(-1, 3)
    np.testing.assert_allclose(run['bounds'], [*points.min(axis=0), *points.max(axis=0)], rtol=1e-6)


def test_a_page_with_no_rest_animation_starts_on_the_first_that_moves(tmp_path):
    path = tmp_path / 't.md2'
    path.write_bytes(tetra_md2(names=['pose1', 'run1', 'run2']))
    assert page_info(pq.exporting.html.page(pq.load(path)))['start'] == 'run'


def test_an_animation_of_two_frames_animates(tmp_path):
    path = tmp_path / 't.md2'
    path.write_bytes(tetra_md2())  # stand01, stand02: an animation of two frames
    assert pq.animate(pq.load(path), tmp_path / 'stand.gif', animation='stand', size=(32, 32)) >= 2
    assert Image.open(tmp_path / 'stand.gif').n_frames >= 2


def test_a_demo_plays_over_its_level_as_markers_moving_with_a_time_slider(browser, tmp_path):
    from demo_builders import build_demo

    demo = pq.load_demo(build_demo(steps=8))
    page_path = tmp_path / 'demo.html'
    pq.export(demo, page_path)
    page = Page(browser, page_path)
    assert page.label().startswith('demo: frame')
    assert float(page.page.eval_on_selector('.pq-time', 'e => e.max')) == pytest.approx(demo.duration, abs=1e-3)
    first = page.shot(tmp_path, 'first')
    assert drawn(first).sum() > 50  # the markers
    colours = {tuple(c // 32) for c in first[drawn(first)]}
    assert len(colours) > 1  # a colour a client
    time.sleep(0.5)
    assert np.abs(first - page.shot(tmp_path, 'second')).sum() > 0  # they move
    page.close()
