"""Pictures: thumbnails, plots, alpha skins, lighting, sheets, GIF/MP4, batches, Dask and the command line."""

from __future__ import annotations

import os
from pathlib import Path
import subprocess
import sys
import warnings

from builders import build_md3
from builders import tetra_md2
from builders import tetra_md3
from builders import torch_mdl
from conftest import CORPUS
from conftest import requires_corpus
import numpy as np
from PIL import Image
from PIL import ImageSequence
import pytest
import pyvista as pv

import pyvista_quake as pq
from pyvista_quake.examples import synthetic_player
from pyvista_quake.formats.tables import VERTEX_NORMALS
from pyvista_quake.render import plotting
from pyvista_quake.render.plotting import add_model
from pyvista_quake.render.plotting import sheet_cells


def quadrant_skin(alpha: np.ndarray | None = None) -> np.ndarray:
    """64 x 64: red, green, blue and yellow quadrants (RGBA when ``alpha`` is given)."""
    image = np.zeros((64, 64, 3), np.uint8)
    image[:32, :32] = (255, 0, 0)
    image[:32, 32:] = (0, 255, 0)
    image[32:, :32] = (0, 0, 255)
    image[32:, 32:] = (255, 255, 0)
    if alpha is not None:
        image = np.dstack([image, alpha])
    return image


def textured_cube() -> pq.QuakeModel:
    """A 20-unit cube, each face showing the whole quadrant skin."""
    cube = pv.Cube(clean=False).triangulate().scale(20)
    cube.active_texture_coordinates = np.abs(cube.active_texture_coordinates)  # VTK mirrors some faces to -1..0
    return pq.QuakeModel.from_frames(cube, 'md2', skin=quadrant_skin())


def drawn_pixels(image: np.ndarray, background=(255, 255, 255)) -> np.ndarray:
    rgb = image[..., :3].astype(int)
    return np.abs(rgb - np.asarray(background)).sum(axis=-1) > 30


def interior(mask: np.ndarray, margin: int = 3) -> np.ndarray:
    """``mask`` without its outer ``margin`` pixels (antialiased edges blend into the background)."""
    inside = mask.copy()
    for _ in range(margin):
        shrunk = inside.copy()
        shrunk[1:] &= inside[:-1]
        shrunk[:-1] &= inside[1:]
        shrunk[:, 1:] &= inside[:, :-1]
        shrunk[:, :-1] &= inside[:, 1:]
        inside = shrunk
    return inside


def render(source, tmp_path: Path, **options) -> np.ndarray:
    path = pq.thumbnail(source, tmp_path / 'thumb.png', size=(200, 200), **options)
    return np.asarray(Image.open(path))


def test_thumbnail_is_textured_and_framed(tmp_path):
    image = render(textured_cube(), tmp_path)
    drawn = drawn_pixels(image)
    rows, cols = np.nonzero(drawn)
    # The model fills a sensible part of the picture, away from the edges.
    assert 0.35 < (rows.max() - rows.min()) / 200 < 0.98 and 0.35 < (cols.max() - cols.min()) / 200 < 0.98
    assert rows.min() > 0 and cols.min() > 0 and rows.max() < 199 and cols.max() < 199
    rgb = image[drawn][:, :3].astype(int)
    # The skin's colours: reddish, greenish and bluish texels are all on screen.
    red = (rgb[:, 0] > rgb[:, 1] + 60) & (rgb[:, 0] > rgb[:, 2] + 60)
    green = (rgb[:, 1] > rgb[:, 0] + 60) & (rgb[:, 1] > rgb[:, 2] + 60)
    blue = (rgb[:, 2] > rgb[:, 0] + 60) & (rgb[:, 2] > rgb[:, 1] + 60)
    assert red.sum() > 100 and green.sum() > 100 and blue.sum() > 100


def test_three_quarter_front_view_faces_plus_x(tmp_path):
    # Red on the +x face only: seen from the front-right, the red face is in view.
    cube = pv.Cube(x_length=20, y_length=20, z_length=20).triangulate()
    model = pq.QuakeModel.from_frames(cube, 'mdl')
    plotter = pv.Plotter(off_screen=True, window_size=(100, 100))
    plotting.scene(plotter, model)
    direction = np.asarray(plotter.camera.position) - np.asarray(plotter.camera.focal_point)
    assert direction[0] > 0 and direction[1] < 0 and direction[2] > 0  # front, the model's right, above
    assert tuple(plotter.camera.up) == (0.0, 0.0, 1.0)
    plotter.close()


def test_transparent_background(tmp_path):
    image = render(textured_cube(), tmp_path, transparent=True)
    assert image.shape[2] == 4
    assert image[0, 0, 3] == 0 and image[100, 100, 3] == 255


def test_cut_out_skin_cuts_out_and_opaque_parts_stay_opaque(tmp_path):
    alpha = np.zeros((64, 64), np.uint8)
    alpha[:, 32:] = 200  # the right half drawn (over the games' alpha cut-off), the left half cut
    plane = pv.Plane(i_size=20, j_size=20, direction=(1, 0, 0), i_resolution=1, j_resolution=1).triangulate()
    model = pq.QuakeModel.from_frames(plane, 'md2', skin=quadrant_skin(alpha))
    image = render(model, tmp_path, lighting='computed')
    drawn = drawn_pixels(image)
    rgb = image[..., :3].astype(int)
    green_or_yellow = drawn & (rgb[..., 1] > rgb[..., 2] + 60)
    red_or_blue = drawn & ((rgb[..., 0] > rgb[..., 1] + 60) | (rgb[..., 2] > rgb[..., 1] + 60))
    assert green_or_yellow.sum() > 500  # the kept half
    assert red_or_blue.sum() < 20  # the cut half shows the background
    # What is drawn is opaque: pure green, not green blended into the white background.
    pure_green = image[green_or_yellow & (rgb[..., 0] < 60)]
    assert len(pure_green) > 200 and np.median(pure_green[:, 2]) < 40


def test_constant_stored_normals_are_replaced_under_auto(tmp_path):
    sphere = pv.Sphere(radius=10, theta_resolution=24, phi_resolution=24)
    model = pq.QuakeModel.from_frames(sphere, 'mdl')
    model.set_frame(0, model.vertex_positions(0)[0], np.tile(VERTEX_NORMALS[5], (model.data.alias.num_vertices, 1)))
    assert len(np.unique(model.data.alias.frame_verts[0, :, 3])) == 1
    flat = render(model, tmp_path, lighting='stored')
    shaded = render(model, tmp_path, lighting='auto')
    spread = lambda image: np.std(image[interior(drawn_pixels(image))][:, :3].astype(float).mean(axis=1))  # noqa: E731
    assert spread(flat) < 3  # one flat colour
    assert spread(shaded) > 10  # lit by its shape


def test_good_stored_normals_are_kept_under_auto():
    model = pq.QuakeModel.from_frames(pv.Sphere(radius=10), 'md2')
    mesh, *_ = plotting.prepare(model)
    np.testing.assert_array_equal(mesh.point_data['Normals'], model.mesh(0).point_data['Normals'])


def test_plot_offscreen_screenshot(tmp_path):
    pq.plot(tetra_md2(), off_screen=True, screenshot=str(tmp_path / 'plot.png'), window_size=(120, 120))
    image = np.asarray(Image.open(tmp_path / 'plot.png'))
    assert drawn_pixels(image, image[0, 0, :3]).sum() > 100


def test_contact_sheet_cells(tmp_path):
    model = pq.load(tetra_md2())  # animations 'stand' and 'run'
    path = pq.contact_sheet(model, tmp_path / 'sheet.png', cell_size=(100, 100))
    image = np.asarray(Image.open(path).convert('RGB'))
    assert image.shape == (116, 200, 3)  # two cells, 16 pixels of label each
    for cell in range(2):
        part = image[16:, cell * 100 : (cell + 1) * 100]
        assert drawn_pixels(part).sum() > 50
    frames = pq.contact_sheet(model, tmp_path / 'stand.png', animation='stand', cell_size=(80, 80), columns=1)
    assert np.asarray(Image.open(frames)).shape[:2] == (2 * 96, 80)


def test_gif_is_timed_by_the_animation(tmp_path):
    verts = np.array([[0, 0, 0, 5], [100, 0, 0, 5], [0, 100, 0, 5], [0, 0, 100, 5]], np.uint8)
    frames = [('group', [0.1, 0.2], [('torch1', verts), ('torch2', verts // 2)])]
    model = pq.load(torch_mdl(frames=frames))  # one group: frames end at 0.1 and 0.2 s
    count = pq.animate(model, tmp_path / 'torch.gif')
    assert count == 2
    with Image.open(tmp_path / 'torch.gif') as gif:
        durations = [frame.info['duration'] for frame in ImageSequence.Iterator(gif)]
        frames = [np.asarray(frame.convert('RGB')) for frame in ImageSequence.Iterator(gif)]
    assert sum(durations) == pytest.approx(200, abs=10)
    assert not np.array_equal(frames[0], frames[-1])


def test_gif_interpolated_at_a_given_rate(tmp_path):
    model = pq.load(tetra_md2(names=['wave1', 'wave2', 'wave3']))
    count = pq.animate(model, tmp_path / 'wave.gif', animation='wave', fps=20, interpolate=True)
    assert count == 6  # 0.3 s at 20 pictures a second


def test_mp4(tmp_path):
    pytest.importorskip('imageio_ffmpeg', reason='MP4 needs the movie extra (imageio-ffmpeg)')
    import imageio  # noqa: PLC0415

    count = pq.animate(pq.load(tetra_md2()), tmp_path / 'all.mp4', animation='stand')
    reader = imageio.get_reader(tmp_path / 'all.mp4')
    assert count == 2 and reader.count_frames() == 2


def test_animate_refuses_other_extensions(tmp_path):
    with pytest.raises(ValueError, match='gif or .mp4'):
        pq.animate(pq.load(tetra_md2()), tmp_path / 'x.avi')
    assert list(tmp_path.iterdir()) == []


# -- batches --------------------------------------------------------------------------------


@pytest.fixture
def small_folder(tmp_path) -> Path:
    folder = tmp_path / 'game'
    (folder / 'models' / 'a').mkdir(parents=True)
    (folder / 'models' / 'b').mkdir(parents=True)
    (folder / 'models' / 'a' / 'tris.md2').write_bytes(tetra_md2())
    (folder / 'models' / 'b' / 'tris.md2').write_bytes(tetra_md2(names=['x', 'y', 'z']))
    (folder / 'torch.mdl').write_bytes(torch_mdl())
    (folder / 'broken.md2').write_bytes(tetra_md2()[:80])
    return folder


@pytest.mark.parametrize('jobs', [1, 2])
def test_thumbnails_batch_reports_failures(small_folder, tmp_path, jobs):
    out = tmp_path / 'thumbs'
    report = pq.thumbnails([small_folder], out, jobs=jobs, size=(64, 64))
    assert len(report.written) == 3 and len(report.failed) == 1 and not report.ok
    assert report.failed[0].source.endswith('broken.md2') and 'QuakeFormatError' in report.failed[0].error
    written = sorted(str(p.relative_to(out)) for p in out.rglob('*.png'))
    assert written == ['models/a/tris.png', 'models/b/tris.png', 'torch.png']  # no collisions between tris.md2
    for path in out.rglob('*.png'):
        assert drawn_pixels(np.asarray(Image.open(path))).sum() > 20


def test_thumbnails_from_a_recursive_glob(small_folder, tmp_path):
    report = pq.thumbnails([str(small_folder / '**' / 'tris.md2')], tmp_path / 'out', size=(48, 48))
    assert sorted(Path(r.target).relative_to(tmp_path / 'out').as_posix() for r in report.written) == ['models/a/tris.png', 'models/b/tris.png']


def test_thumbnails_from_a_glob(small_folder, tmp_path):
    report = pq.thumbnails([str(small_folder / 'models' / '*' / 'tris.md2')], tmp_path / 'out', size=(48, 48))
    assert sorted(Path(r.target).relative_to(tmp_path / 'out').as_posix() for r in report.written) == ['a/tris.png', 'b/tris.png']


def test_the_batch_runs_on_dask(small_folder, tmp_path):
    distributed = pytest.importorskip('distributed', reason='dask.distributed does not install here')
    models = sorted(small_folder.rglob('*.md2'))
    targets = [tmp_path / f'{k}.png' for k in range(len(models))]
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            results = client.gather(client.map(pq.render_thumbnail, models, targets, size=(48, 48)))
    assert sorted(r.error is None for r in results) == [False, True, True]
    assert sum(Path(r.target).is_file() for r in results) == 2


# -- reference images (pytest-pyvista) -----------------------------------------------------


def test_reference_textured_cube(verify_image_cache):
    pq.plot(textured_cube(), off_screen=True, window_size=(200, 200))


def test_reference_cut_out_plane(verify_image_cache):
    alpha = np.zeros((64, 64), np.uint8)
    alpha[16:48, 16:48] = 255
    plane = pv.Plane(i_size=20, j_size=20, direction=(1, 0, 0), i_resolution=1, j_resolution=1).triangulate()
    pq.plot(pq.QuakeModel.from_frames(plane, 'md2', skin=quadrant_skin(alpha)), off_screen=True, window_size=(200, 200))


@requires_corpus
@pytest.mark.corpus
@pytest.mark.parametrize(
    'name', ['md2/ufoai/models/soldiers/male/body.md2', 'md2/ufoai/models/aliens/bloodspider/bloodspider.md2', 'md2/assimp/sydney.md2']
)
def test_real_models_render(tmp_path, name):
    image = render(CORPUS / name, tmp_path)
    drawn = drawn_pixels(image)
    assert drawn.sum() > 1500
    assert np.std(image[interior(drawn)][:, :3].astype(float).mean(axis=1)) > 10  # shaded, not flat


# -- the command line -----------------------------------------------------------------------


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, '-m', 'pyvista_quake', *args], capture_output=True, text=True, cwd=cwd, timeout=300)


def test_pictures_without_a_display_print_nothing_from_vtk(small_folder, tmp_path):
    """VTK looks for a display before it falls back to offscreen rendering, and says so on stderr:
    the package's own plotters keep it quiet."""
    env = {k: v for k, v in os.environ.items() if k not in ('DISPLAY', 'WAYLAND_DISPLAY', 'VTK_DEFAULT_OPENGL_WINDOW')}
    script = (
        f'import pyvista_quake as pq; pq.thumbnail("torch.mdl", {str(tmp_path / "t.png")!r}); '
        f'pq.contact_sheet("torch.mdl", {str(tmp_path / "s.png")!r})'
    )
    result = subprocess.run([sys.executable, '-c', script], cwd=small_folder, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / 't.png').is_file() and (tmp_path / 's.png').is_file()
    assert 'WARN' not in result.stderr and 'X server' not in result.stderr, result.stderr


def test_cli_info(small_folder):
    result = cli('info', 'torch.mdl', 'models/a/tris.md2', cwd=small_folder)
    assert result.returncode == 0, result.stderr
    assert 'MDL' in result.stdout and 'MD2' in result.stdout and 'animation stand' in result.stdout
    assert 'embedded, 1 picture' in result.stdout  # the MDL's skin
    assert 'models/test/skin.pcx: MISSING' in result.stdout  # the MD2's named skin, not found


def test_cli_errors_are_one_line(small_folder):
    for args, named in (
        (('info', 'broken.md2'), 'broken.md2'),
        (('info', 'missing.md2'), 'missing.md2'),
        (('convert', 'torch.mdl', 'x.unknown'), '.unknown'),
    ):
        result = cli(*args, cwd=small_folder)
        assert result.returncode == 1
        assert 'Traceback' not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith('error:')
        assert named in result.stderr  # the message itself, not a stand-in
    assert cli('--help', cwd=small_folder).returncode == 0 and cli('--version', cwd=small_folder).returncode == 0
    debug = cli('info', 'broken.md2', '--debug', cwd=small_folder)
    assert debug.returncode != 0 and 'Traceback' in debug.stderr
    usage = cli('no-such-command', cwd=small_folder)
    assert usage.returncode == 2 and 'Traceback' not in usage.stderr
    assert len(usage.stderr.strip().splitlines()) == 1 and usage.stderr.startswith('error:')  # cyclopts' own panel not printed too
    assert 'no-such-command' in usage.stderr


@pytest.mark.parametrize('command', ['info', 'check'])
def test_cli_info_and_check_take_folders_and_go_on_past_a_broken_file(small_folder, command):
    result = cli(command, '.', cwd=small_folder)
    assert result.returncode == 1  # the broken file
    for name in ('torch.mdl', 'models/a/tris.md2', 'models/b/tris.md2'):
        assert name in result.stdout  # every readable model's table, also those after the broken one
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 1 and errors[0].startswith('error: QuakeFormatError') and 'broken.md2' in errors[0]
    pattern = cli(command, 'models/*/tris.md2', cwd=small_folder)
    assert pattern.returncode == 0 and pattern.stdout.count('tris.md2') == 2
    debug = cli(command, '.', '--debug', cwd=small_folder)
    assert debug.returncode != 0 and 'Traceback' in debug.stderr
    empty = small_folder / 'empty'
    empty.mkdir()
    nothing = cli(command, 'empty', cwd=small_folder)
    assert nothing.returncode == 1 and 'no models found in empty' in nothing.stderr


def test_cli_thumbnail_batch_with_a_broken_file(small_folder, tmp_path):
    result = cli('thumbnail', '.', '-o', str(tmp_path / 'out'), '--size', '48', '--jobs', '2', cwd=small_folder)
    assert result.returncode == 1
    assert '3 thumbnails' in result.stdout
    assert 'broken.md2' in result.stderr and 'Traceback' not in result.stderr
    assert len(list((tmp_path / 'out').rglob('*.png'))) == 3


def test_cli_sheet_animate_convert_view(small_folder, tmp_path):
    for args, output in (
        (('sheet', 'torch.mdl', str(tmp_path / 's.png')), tmp_path / 's.png'),
        (('animate', 'torch.mdl', str(tmp_path / 'a.gif')), tmp_path / 'a.gif'),
        (('convert', 'torch.mdl', str(tmp_path / 'c.obj'), '--frame', '1'), tmp_path / 'c.obj'),
        (('view', 'torch.mdl', '--screenshot', str(tmp_path / 'v.png')), tmp_path / 'v.png'),
    ):
        result = cli(*args, cwd=small_folder)
        assert result.returncode == 0, result.stderr
        assert output.is_file() and output.stat().st_size > 0


def test_pyvista_cli_converts_through_the_registered_reader(small_folder, tmp_path):
    result = subprocess.run(
        [sys.executable, '-m', 'pyvista', 'convert', 'torch.mdl', str(tmp_path / 't.ply')],
        capture_output=True,
        text=True,
        cwd=small_folder,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert pv.read(tmp_path / 't.ply').n_cells == 4


def test_lighting_replaces_the_pictures_normals_keyword(tmp_path):
    sphere = pv.Sphere(radius=10, theta_resolution=24, phi_resolution=24)
    model = pq.QuakeModel.from_frames(sphere, 'mdl')
    model.set_frame(0, model.vertex_positions(0)[0], np.tile(VERTEX_NORMALS[5], (model.data.alias.num_vertices, 1)))
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        flat = render(model, tmp_path, lighting='stored')
    with pytest.warns(DeprecationWarning, match='lighting=') as caught:
        old = render(model, tmp_path, normals='stored')
    assert caught[0].filename == __file__  # points at the caller's line
    np.testing.assert_array_equal(old, flat)
    assert not np.array_equal(render(model, tmp_path, lighting='auto'), flat)
    with pytest.raises(ValueError, match='lighting must be'):
        render(model, tmp_path, lighting='shiny')


@pytest.mark.parametrize(('frames', 'fps'), [(31, 30.0), (7, 15.0), (10, 10.0), (3, 60.0)])
def test_gif_lasts_as_long_as_the_animation(tmp_path, frames, fps):
    """GIF counts hundredths of a second: the rounding is spread, so the whole lasts as long as the animation."""
    model = pq.load(tetra_md2(names=[f'walk{k}' for k in range(frames)]), fps=fps)
    clip = model.animation('walk')
    count = pq.animate(model, tmp_path / 'walk.gif', animation='walk')
    with Image.open(tmp_path / 'walk.gif') as gif:
        durations = [frame.info['duration'] for frame in ImageSequence.Iterator(gif)]
    per_picture = clip.duration / count
    assert abs(sum(durations) / 1000 - clip.duration) <= per_picture
    assert all(d % 10 == 0 and d >= 20 for d in durations)
    assert max(durations) - min(durations) <= 10  # spread, not piled on one picture


def test_gif_delays_add_up():
    from pyvista_quake.render.plotting import gif_delays

    assert gif_delays(31 / 30, 31)[:4] == [30, 40, 30, 30] and sum(gif_delays(31 / 30, 31)) == 1030
    assert gif_delays(1.0, 10) == [100] * 10
    assert gif_delays(0.01, 1) == [20]  # never under GIF's shortest honoured delay


def test_cli_view_without_a_display_says_so_in_one_line(small_folder):
    env = {k: v for k, v in os.environ.items() if k not in ('DISPLAY', 'WAYLAND_DISPLAY')}
    result = subprocess.run(
        [sys.executable, '-m', 'pyvista_quake', 'view', 'torch.mdl'], capture_output=True, text=True, cwd=small_folder, env=env, timeout=300
    )
    assert result.returncode == 1
    assert result.stderr.strip() == 'no display: use --screenshot FILE or pyvista-quake thumbnail'
    assert 'X server' not in result.stderr + result.stdout


def test_plot_without_a_display_renders_offscreen_quietly(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ('DISPLAY', 'WAYLAND_DISPLAY', 'PYVISTA_OFF_SCREEN')}
    script = (
        'import pyvista_quake as pq\nfrom pyvista_quake import examples\n'
        f'pq.plot(examples.sample_model("mdl"), screenshot={str(tmp_path / "p.png")!r})\n'
    )
    result = subprocess.run([sys.executable, '-c', script], capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stderr
    assert 'X server' not in result.stderr and 'bad X' not in result.stderr and result.stderr.strip() == ''
    assert drawn_pixels(np.asarray(Image.open(tmp_path / 'p.png'))).sum() > 100


def test_cli_warnings_are_one_line_each(tmp_path):
    model = tmp_path / 'lonely.md2'
    model.write_bytes(tetra_md2())  # names a skin that is nowhere
    result = cli('view', str(model), '--screenshot', str(tmp_path / 'v.png'), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines and all(line.startswith('warning: ') for line in lines), result.stderr
    assert 'skin.pcx not found' in result.stderr and '.py:' not in result.stderr


def test_sheet_labels_frames_by_number_where_their_names_are_alike():
    from pyvista_quake.render.plotting import sheet_cells

    alike = pq.load(tetra_md2(names=['FRAME 000'] * 3), animations={'walk': range(3)})
    assert sheet_cells(alike, 'walk') == [('frame 0', 0), ('frame 1', 1), ('frame 2', 2)]
    named = pq.load(tetra_md2(names=['run1', 'run2', 'run3']))
    assert sheet_cells(named, 'run') == [('run1', 0), ('run2', 1), ('run3', 2)]
    assert [label for label, _ in sheet_cells(named)] == ['run']


def test_in_a_notebook_a_plot_is_one_png_picture_and_no_warning(tmp_path, monkeypatch):
    import warnings

    import IPython.display
    from PIL import Image

    from pyvista_quake import examples
    from pyvista_quake.render import plotting

    shown = []
    monkeypatch.setattr(plotting, 'in_notebook', lambda: True)
    monkeypatch.setattr(IPython.display, 'display', lambda *objects: shown.extend(objects))
    with warnings.catch_warnings():
        warnings.simplefilter('error')  # no trame warning, nothing else
        assert plotting.plot(examples.sample_model('md2'), window_size=(64, 48), screenshot=tmp_path / 'x.png') is None
    assert len(shown) == 1 and isinstance(shown[0], IPython.display.Image) and shown[0].format == 'png'
    formats, _ = IPython.core.formatters.DisplayFormatter().format(shown[0])
    assert set(formats) == {'image/png', 'text/plain'}  # stored once, as a PNG
    assert Image.open(tmp_path / 'x.png').size == (64, 48) and shown[0].data == (tmp_path / 'x.png').read_bytes()
    monkeypatch.setattr(plotting, 'in_notebook', lambda: False)
    assert not plotting.in_notebook()


def test_in_notebook_is_false_outside_a_kernel():
    from pyvista_quake.render import plotting

    assert plotting.in_notebook() is False


def test_in_notebook_is_true_in_a_kernel_only(monkeypatch):
    import IPython

    from pyvista_quake.render import plotting

    class Shell:
        def __init__(self, config):
            self.config = config

    monkeypatch.setattr(IPython, 'get_ipython', lambda: Shell({}))  # a terminal IPython: no kernel
    assert plotting.in_notebook() is False
    monkeypatch.setattr(IPython, 'get_ipython', lambda: Shell({'IPKernelApp': {}}))
    assert plotting.in_notebook() is True


def test_a_thumbnail_of_a_player_folder_given_by_itself(tmp_path):
    synthetic_player(tmp_path / 'models' / 'players' / 'x')
    result = subprocess.run(
        [sys.executable, '-m', 'pyvista_quake', 'thumbnail', 'models/players/x', '-o', str(tmp_path / 'out')],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert [p.name for p in (tmp_path / 'out').rglob('*.png')] == ['x.png']


def test_thumbnail_takes_what_pv_read_gives_a_pose_and_a_weapon(tmp_path):
    (tmp_path / 'w.md3').write_bytes(tetra_md3())
    player = pq.load_player(synthetic_player(tmp_path / 'p'))
    pq.thumbnail(pv.read(tmp_path / 'w.md3'), tmp_path / 'read.png', size=(64, 64))
    pq.thumbnail(player.pose('LEGS_RUN', 'TORSO_STAND'), tmp_path / 'pose.png', size=(64, 64))
    plain = np.asarray(Image.open(pq.thumbnail(player, tmp_path / 'plain.png', size=(96, 96))))
    armed = np.asarray(Image.open(pq.thumbnail(player, tmp_path / 'armed.png', size=(96, 96), weapon=tmp_path / 'w.md3')))
    assert not np.array_equal(plain, armed)  # the weapon is in the picture
    with pytest.raises(ValueError, match='no player'):
        pq.thumbnail(tmp_path / 'w.md3', tmp_path / 'x.png', weapon=tmp_path / 'w.md3')


def test_a_contact_sheet_of_one_player_animation_has_a_cell_per_frame(tmp_path):
    player = pq.load_player(synthetic_player(tmp_path / 'p'))
    cells = sheet_cells(player, 'LEGS_RUN')
    assert len(cells) == 8 and cells[3] == ('LEGS_RUN 3', 3)
    sheet = np.asarray(Image.open(pq.contact_sheet(player, tmp_path / 's.png', animation='LEGS_RUN', cell_size=(48, 48), columns=8)))
    cell = [sheet[16:, k * 48 : (k + 1) * 48] for k in range(8)]
    assert not np.array_equal(cell[0], cell[2])  # the legs move from cell to cell


def test_a_model_of_tags_only_is_reported_as_nothing_to_draw(tmp_path):
    tags = [('tag_weapon', np.zeros((1, 3)), np.eye(3)[None])]
    (tmp_path / 'v_hand.md3').write_bytes(build_md3([], frames=1, tags=tags))
    (tmp_path / 'ok.md2').write_bytes(tetra_md2())
    with pytest.raises(pq.NothingToDrawError, match='nothing to draw'):
        pq.thumbnail(tmp_path / 'v_hand.md3', tmp_path / 'hand.png')
    report = pq.thumbnails([tmp_path], tmp_path / 'out')
    assert [Path(r.source).name for r in report.skipped] == ['v_hand.md3'] and len(report.written) == 1 and report.ok
    assert not (tmp_path / 'out' / 'v_hand.png').exists()
    result = subprocess.run(
        [sys.executable, '-m', 'pyvista_quake', 'thumbnail', str(tmp_path / 'v_hand.md3'), '-o', str(tmp_path / 'o2')],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0 and '1 with nothing to draw' in result.stdout


def test_a_one_frame_player_animation_is_one_cell(tmp_path):
    player = pq.load_player(synthetic_player(tmp_path / 'p'))
    assert player.animation('BOTH_DEATH1').count == 1 and sheet_cells(player, 'BOTH_DEATH1') == [('BOTH_DEATH1 0', 0)]


def test_a_contact_sheet_of_a_model_animation_shows_each_frame(tmp_path):
    model = pq.load(tetra_md2(), animations={'pair': [0, 2]})  # frame 2 has a vertex moved: another shape
    sheet = np.asarray(Image.open(pq.contact_sheet(model, tmp_path / 's.png', animation='pair', cell_size=(64, 64), columns=2)))
    first, second = sheet[16:, :64], sheet[16:, 64:128]
    assert not np.array_equal(first, second)


def textured_triangle() -> pv.PolyData:
    mesh = pv.Triangle()
    mesh.active_texture_coordinates = np.array([[0, 0], [1, 0], [0, 1]], np.float32)
    return mesh


@pytest.mark.parametrize(('alpha', 'channels', 'forced'), [(255, 3, False), (0, 4, True)])
def test_an_rgba_skin_with_cut_out_texels_is_drawn_as_a_mask_and_an_opaque_one_as_rgb(alpha, channels, forced):
    skin = np.full((4, 4, 4), 200, np.uint8)
    skin[:2, :, 3] = alpha  # alpha 0: half the texels cut out
    skin[2:, :, 3] = 255
    plotter = pv.Plotter(off_screen=True)
    actor = add_model(plotter, textured_triangle(), skin)
    texture = actor.texture.to_image()
    assert texture.point_data.active_scalars.shape[1] == channels
    assert bool(actor.GetForceOpaque()) is forced
    plotter.close()


def test_a_frame_drawn_by_scalars_without_its_skin_is_not_painted_tan(tmp_path):
    mesh = pq.load(tetra_md2()).mesh(0)
    pq.plot(mesh, skin=None, scalars='vertex_index', cmap='viridis', off_screen=True, screenshot=str(tmp_path / 'd.png'), window_size=(96, 96))
    pq.plot(mesh, skin=None, off_screen=True, screenshot=str(tmp_path / 't.png'), window_size=(96, 96))
    data, tan = (np.asarray(Image.open(tmp_path / n).convert('RGB')).reshape(-1, 3) for n in ('d.png', 't.png'))
    colours = lambda image: {tuple(c) for c in image[(image != image[0]).any(axis=1)] // 32}  # noqa: E731
    assert len(colours(data)) > len(colours(tan))  # the scalars' colour map, not one colour
