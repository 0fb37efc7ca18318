"""pyvista-quake benchmarks: ratios against references measured in the same run.

Run from the repository's root (needs the benchmark extras and ../shared/corpus)::

    python -m pip install -e ".[bench]"
    python benchmarks/run.py [--rounds 15]
    python benchmarks/run.py --models FOLDER   # the same ratios on any folder of models

``--models`` measures the ratios that take a set of models (``pv.read``
against PLY and assimp, whole animations, saving) on the ``.md2`` and ``.mdl``
files under a folder, for models outside the corpus.

Machines are noisy; ratios measured side by side in one run hold, absolute
times do not.  Every time is the median of ``--rounds`` rounds.
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata as metadata
from pathlib import Path
import platform
import statistics
import sys
import time
import tracemalloc
import warnings

import numpy as np
import pyvista as pv

import pyvista_quake as pq

CORPUS = Path(__file__).resolve().parents[2] / 'shared' / 'corpus'
LARGEST = CORPUS / 'md2/ufoai/models/soldiers/male/body.md2'


#: The folder whose models the set measurements use (``--models``; the corpus by default).
MODELS = CORPUS


def models() -> list[Path]:
    found = sorted(p for p in MODELS.rglob('*') if p.suffix.lower() in ('.md2', '.mdl'))
    return [p for p in found if 'malformed' not in p.name]


def median_time(fn, rounds: int) -> float:
    """Median seconds of ``fn()`` over ``rounds`` rounds (after one warm-up)."""
    fn()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def geometric_mean(values) -> float:
    return float(np.exp(np.mean(np.log(values))))


# -- references ----------------------------------------------------------------------------


def assimp_frame0(path: Path):
    import assimp_py  # noqa: PLC0415 - benchmark-only dependency

    return assimp_py.import_file(str(path), 0).meshes[0]


def vgio_read(path: Path):
    if path.suffix.lower() == '.md2':
        from vgio.quake2.md2 import Md2  # noqa: PLC0415

        with Md2.open(str(path)) as model:
            return model
    from vgio.quake.mdl import Mdl  # noqa: PLC0415

    with Mdl.open(str(path)) as model:
        return model


def numpy_positions(path: Path) -> np.ndarray:
    """The plain reference decode: frombuffer of the frames, ``v * scale + translate`` in float32."""
    data = path.read_bytes()
    header = np.frombuffer(data, '<i4', 17)
    framesize, num_xyz, num_frames, ofs_frames = int(header[4]), int(header[6]), int(header[10]), int(header[14])
    frame = np.dtype(
        {
            'names': ['scale', 'translate', 'verts'],
            'formats': [('<f4', 3), ('<f4', 3), ('u1', (num_xyz, 4))],
            'offsets': [0, 12, 40],
            'itemsize': framesize,
        }
    )
    frames = np.frombuffer(data, frame, num_frames, ofs_frames)
    return frames['verts'][..., :3] * frames['scale'][:, None, :] + frames['translate'][:, None, :]


class _NullReader(pv.BaseReader):
    """A registered reader that returns an empty mesh: PyVista's own per-call cost."""

    class _Source(pv.BaseVTKReader):
        def UpdateInformation(self):  # noqa: N802
            pass

        def Update(self):  # noqa: N802
            self._data_object = pv.PolyData()

    _class_reader = _Source


# -- the measurements --------------------------------------------------------------------


def assimp_polydata(path: Path) -> pv.PolyData:
    """The assimp-py path a user would write: import the file, build the PolyData with the same arrays."""
    mesh = assimp_frame0(path)
    points = np.asarray(mesh.vertices, np.float32).reshape(-1, 3)
    faces = np.asarray(mesh.indices, np.int64).reshape(-1, 3)
    out = pv.PolyData.from_regular_faces(points, faces)
    out.point_data['Normals'] = np.asarray(mesh.normals, np.float32).reshape(-1, 3)
    uv = np.asarray(mesh.texcoords[0], np.float32).reshape(len(points), -1)[:, :2]
    out.active_texture_coordinates = uv
    return out


def first_frame(rounds: int, tmp: Path) -> dict:
    """``pv.read(f)`` against ``pv.read`` of the same frame saved as binary PLY, and against assimp-py.

    Per file: the median of ``rounds`` reads (the first, cold read of a
    model file in a process is timed apart: later reads reuse the loaded
    model, as a time series does).  Outputs are checked: the PLY and assimp
    meshes hold the same triangles as ours.
    """
    rows = []
    for path in models():
        ply = tmp / f'{path.stem}-{len(rows)}.ply'
        mesh = pv.read(path)
        mesh.save(ply)
        assert pv.read(ply).n_cells == mesh.n_cells
        cold = median_time(lambda p=path: pq.load(p).frame(0), rounds)  # load() does not reuse models
        read = median_time(lambda p=path: pv.read(p), rounds)
        ply_time = median_time(lambda p=ply: pv.read(p), rounds)
        try:
            reference = assimp_polydata(path)
        except Exception:  # noqa: BLE001 - files assimp cannot read are left out of that comparison
            assimp = None
        else:
            assert reference.n_cells == mesh.n_cells, path
            assimp = median_time(lambda p=path: assimp_polydata(p), rounds)
        rows.append((path, read, ply_time, assimp, cold))
    return {'rows': rows}


def pyvista_machinery(rounds: int, tmp: Path) -> float:
    path = tmp / 'empty.pqnull'
    path.write_bytes(b'')
    pv.register_reader('.pqnull', _NullReader, override=True)
    return median_time(lambda: pv.read(path), rounds)


def throughput(rounds: int) -> dict:
    """Whole animations: ``load`` + ``positions()`` + ``normals()`` of every frame, against the plain
    numpy decode of positions alone, over the same MD2 files, in time.

    Ours makes more: positions and normals, for the mesh points (a texture
    seam splits a vertex into several); the reference makes positions for
    the file's vertices.  The output is checked: our vertex positions equal
    the reference's.
    """
    paths = [p for p in models() if p.suffix.lower() == '.md2']
    for path in paths:
        np.testing.assert_allclose(pq.load(path, skin=None).vertex_positions(), numpy_positions(path), rtol=1e-6, atol=1e-4)

    def ours():
        for path in paths:
            model = pq.load(path, skin=None)
            model.positions()
            model.normals()

    def reference():
        for path in paths:
            numpy_positions(path)

    from pyvista_quake.data import decode  # noqa: PLC0415

    t_ours, t_ref = median_time(ours, rounds), median_time(reference, rounds)
    # The same on the calling thread only, as on a machine with one core.
    decode.set_threads(1)
    try:
        t_single = median_time(ours, rounds)
    finally:
        decode.set_threads(None)
    return {'ours': t_ours, 'reference': t_ref, 'single': t_single, 'threads': decode.threads(), 'files': len(paths)}


def save_throughput(rounds: int, tmp: Path) -> dict:
    """Saving every frame of every corpus model, against reading them.

    Reading: ``load`` + ``positions()`` + ``normals()`` of every frame.  Three
    kinds of saving, over the same frames:

    - ``as_is``: ``save()`` of the loaded model (the file written back,
      flushed to disk before the rename), and ``unsynced`` the same with
      ``sync=False`` (still atomic, no flush: the code's own cost without the
      disk's);
    - ``given``: every frame set from float positions and normals (quantised,
      normals matched to the table, encoded) and the file's bytes made;
    - ``computed``: the same with normals computed from the geometry.
    """
    from pyvista_quake.formats import FORMATS  # noqa: PLC0415
    from pyvista_quake.model import edit  # noqa: PLC0415

    paths = models()
    loaded = [pq.load(p, skin=None) for p in paths]
    inputs = [(m, m.vertex_positions(), m.data.alias.frame_verts[..., 3]) for m in loaded]
    from pyvista_quake.formats.tables import VERTEX_NORMALS  # noqa: PLC0415

    inputs = [(m, p, VERTEX_NORMALS[np.minimum(light, 161)]) for m, p, light in inputs]
    vertex_frames = sum(len(m) * m.data.alias.num_vertices for m in loaded)

    def read():
        for path in paths:
            model = pq.load(path, skin=None)
            model.positions()
            model.normals()

    def as_is(sync: bool = True):
        for path, model in zip(paths, loaded):
            model.save(tmp / ('copy' + path.suffix), sync=sync)

    def encode(normals: bool):
        for model, positions, vectors in inputs:
            data = edit.set_frames(model.data.alias, None, range(len(model)), positions, vectors if normals else None)
            FORMATS[data.format].write(data.file)

    # The outputs are checked once: every frame within half a step of its input,
    # and an unchanged model written back byte for byte.
    for path, (model, positions, vectors) in zip(paths, inputs):
        data = edit.set_frames(model.data.alias, None, range(len(model)), positions, vectors)
        decoded = pq.QuakeModel(data).vertex_positions()
        steps = np.asarray(data.alias.frame_scale)[:, None, :]
        assert (np.abs(decoded - positions) <= steps / 2 + 1e-4).all(), model.source
        model.save(tmp / ('copy' + path.suffix))
        assert (tmp / ('copy' + path.suffix)).read_bytes() == path.read_bytes(), path
    return {
        'read': median_time(read, rounds),
        'as_is': median_time(as_is, rounds),
        'unsynced': median_time(lambda: as_is(False), rounds),
        'given': median_time(lambda: encode(True), rounds),
        'computed': median_time(lambda: encode(False), rounds),
        'files': len(loaded),
        'vertex_frames': vertex_frames,
    }


def thumbnail_batch(copies: int = 12) -> dict:
    """Thumbnails: the batch against the plain loop a new user writes, jobs=2 against jobs=1, memory.

    The plain loop: ``pv.read``, a new offscreen ``Plotter``, ``add_mesh``
    with the skin, ``screenshot``, ``close``, on the corpus models.  The
    batches run on ``copies`` copies of the corpus (skins beside their
    models), about a thousand models, so worker start-up is amortised as in
    a real library.  Memory: this process's resident size after each model
    of a ``jobs=1`` batch (it renders in-process), growth from the 100th model on.
    """
    import shutil  # noqa: PLC0415
    import tempfile  # noqa: PLC0415

    from pyvista_quake.render import batch  # noqa: PLC0415

    paths = models()

    def plain(out: Path) -> None:
        for k, path in enumerate(paths):
            mesh = pv.read(path)
            plotter = pv.Plotter(off_screen=True, window_size=(256, 256))
            plotter.add_mesh(mesh, texture=mesh.quake.texture)
            plotter.screenshot(str(out / f'{k}.png'))
            plotter.close()

    def resident() -> int:
        return int(Path('/proc/self/statm').read_text().split()[1]) * 4096

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for k in range(copies):
            shutil.copytree(CORPUS, tmp / f'copy{k}', ignore=shutil.ignore_patterns('malformed*', '*.txt', '*.md'))
        start = time.perf_counter()
        two = pq.thumbnails([tmp / f'copy{k}' for k in range(copies)], tmp / 'two', jobs=2)
        t_two = time.perf_counter() - start
        found = batch.as_players(batch.find_models([tmp / f'copy{k}' for k in range(copies)]))  # a player is one picture
        targets = batch.targets_for(found, tmp / 'one')
        sizes = []
        alias_time, alias_count = 0.0, 0  # the MD2s and MDLs, the plain loop's models (the batch has levels and players too)
        start = time.perf_counter()
        for (path, _), target in zip(found, targets):
            before = time.perf_counter()
            batch.render_thumbnail(path, target)
            if Path(path.member or path.path).suffix.lower() in ('.md2', '.mdl'):
                alias_time += time.perf_counter() - before
                alias_count += 1
            sizes.append(resident())
        t_one = time.perf_counter() - start
        (tmp / 'plain').mkdir()
        start = time.perf_counter()
        plain(tmp / 'plain')
        t_plain = time.perf_counter() - start
    assert len(two.written) + len(two.skipped) == len(found) and not two.failed  # an MD3 of tags only has no picture
    per_model_one = t_one / len(found)
    growth = (sizes[-1] - sizes[99]) / max(1, len(sizes) - 100)
    return {
        'models': len(found),
        'plain_per_model': t_plain / len(paths),
        'one_per_model': per_model_one,
        'one_per_alias_model': alias_time / max(1, alias_count),
        'two_per_model': t_two / len(found),
        'rss_100': sizes[99],
        'rss_end': sizes[-1],
        'growth': growth,
    }


def memory() -> dict:
    model = pq.load(LARGEST, skin=None)
    model.topology  # noqa: B018 - built once per model, not per frame
    gc.collect()
    tracemalloc.start()
    positions = model.positions()
    normals = model.normals()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    output = positions.nbytes + normals.nbytes
    return {'peak': peak, 'output': output, 'frames': len(model)}


def open_cost(rounds: int) -> dict:
    large = median_time(lambda: pq.load(LARGEST), rounds)
    small = median_time(lambda: pq.load(CORPUS / 'md2/ufoai/models/soldiers/male/head05.md2'), rounds)
    return {'large': large, 'small': small}


def vgio_scale(rounds: int) -> list:
    rows = []
    for path in models():
        try:
            vgio_read(path)
        except Exception:  # noqa: BLE001 - files vgio cannot read are left out
            continue
        rows.append(
            (path, median_time(lambda p=path: vgio_read(p), max(3, rounds // 3)), median_time(lambda p=path: pq.load(p, skin=None).frame(0), rounds))
        )
    return rows


def versions() -> str:
    names = ['pyvista', 'vtk', 'numpy', 'assimp-py', 'vgio']
    found = []
    for name in names:
        try:
            found.append(f'{name} {metadata.version(name)}')
        except metadata.PackageNotFoundError:
            found.append(f'{name} (absent)')
    return f'Python {platform.python_version()}, {", ".join(found)}; {platform.machine()}, {platform.processor() or "cpu"}'


def print_rate(rate: dict, rounds: int, label: str) -> None:
    """The whole-animations lines."""
    print(f'\nWhole animations, the {rate["files"]} {label} MD2s, time for the same files (median of {rounds} rounds):')
    print(f'  load + positions() + normals() (mesh points)   {1e3 * rate["ours"]:8.1f} ms  ({rate["threads"]} decoding threads)')
    print(f'  numpy positions only (file vertices)           {1e3 * rate["reference"]:8.1f} ms')
    print(f'  reference time / our time                      {rate["reference"] / rate["ours"]:8.2f} x (target >= 1.0)')
    print(f'  the same decoding on one thread                {1e3 * rate["single"]:8.1f} ms  {rate["reference"] / rate["single"]:.2f} x')


def report_set(rounds: int, label: str) -> None:
    """The measurements that take a set of models: ``pv.read`` against PLY and assimp, whole animations, saving."""
    import tempfile  # noqa: PLC0415

    with tempfile.TemporaryDirectory() as tmp:
        machinery = pyvista_machinery(rounds, Path(tmp))
    with tempfile.TemporaryDirectory() as tmp:
        first = first_frame(rounds, Path(tmp))['rows']
    to_ply = np.array([r[1] / r[2] for r in first])
    with_assimp = [(r[1], r[3]) for r in first if r[3] is not None]
    to_assimp = np.array([a / b for a, b in with_assimp])
    print(f'\npv.read(f), frame 0 with its skin, {len(first)} {label} models (median of {rounds} reads per file):')
    print(
        f'  against pv.read of the same frame saved as binary PLY: median {np.median(to_ply):.2f} x the time '
        f'(per-file ratios {to_ply.min():.2f} to {to_ply.max():.2f}; target <= 1.0)'
    )
    if len(to_assimp):
        own = np.array([(a - machinery) / b for a, b in with_assimp])
        print(
            f'  against assimp-py -> PolyData, {len(to_assimp)} files assimp reads: median {np.median(to_assimp):.2f} x the time '
            f'({to_assimp.min():.2f} to {to_assimp.max():.2f}; target <= 1.0)'
        )
        print(f'  our part of that pv.read (less PyVista reader machinery, below) against assimp-py: median {np.median(own):.2f} x')
    print(
        f'  a model loaded afresh each time (load(f).frame(0), no reuse): {1e3 * np.median([r[4] for r in first]):.3f} ms median, '
        f'{np.median([r[4] / r[2] for r in first]):.2f} x the PLY read'
    )
    print(f'  PyVista reader machinery       {1e3 * machinery:7.3f} ms a call (pv.read of an empty registered reader)')

    rate = throughput(rounds) if any(p.suffix.lower() == '.md2' for p in models()) else None
    if rate is None:
        print(f'\nWhole animations: no MD2 among the {label} models (the reference decodes MD2 only)')
    else:
        print_rate(rate, rounds, label)

    with tempfile.TemporaryDirectory() as tmp:
        saving = save_throughput(rounds, Path(tmp))
    print(
        f'\nSaving every frame of the {saving["files"]} {label} models ({saving["vertex_frames"]:,} vertex-frames), '
        'throughput against reading them (target >= 0.5):'
    )
    print(f'  read: load + positions() + normals()          {1e3 * saving["read"]:8.1f} ms')
    labels = (
        ('as_is', 'save() of the loaded model'),
        ('unsynced', 'the same, save(sync=False)'),
        ('given', 'every frame re-encoded, normals given'),
        ('computed', 'every frame re-encoded, normals computed'),
    )
    for key, text in labels:
        print(f'  {text:44s}  {1e3 * saving[key]:8.1f} ms   {saving["read"] / saving[key]:6.2f} x')


def other_models(folder: Path, rounds: int) -> int:
    """``--models``: the set measurements on the models under ``folder``."""
    global MODELS  # noqa: PLW0603 - the one setting the measurements read
    MODELS = folder.resolve()
    if not models():
        print(f'no .md2 or .mdl models under {folder}')
        return 1
    warnings.simplefilter('ignore')
    print(versions())
    report_set(rounds, f'{MODELS.name!r}')
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rounds', type=int, default=15)
    parser.add_argument('--models', type=Path, help='a folder of models for the set measurements, instead of the corpus')
    args = parser.parse_args()
    if args.models is not None:
        return other_models(args.models, args.rounds)
    if not CORPUS.is_dir():
        print(f'the corpus is not at {CORPUS}; nothing to measure')
        return 1
    warnings.simplefilter('ignore')
    print(versions())
    report_set(args.rounds, 'corpus')

    thumbs = thumbnail_batch()
    print(f'\nThumbnails, 256 x 256, a batch of {thumbs["models"]} models (the corpus {thumbs["models"] // len(models())} times):')
    print(f'  plain loop (pv.read, new Plotter, add_mesh, screenshot, close)  {1e3 * thumbs["plain_per_model"]:6.1f} ms a model')
    print(
        f'  thumbnails(jobs=1)   {1e3 * thumbs["one_per_model"]:6.1f} ms a model; its MD2s and MDLs {1e3 * thumbs["one_per_alias_model"]:6.1f} ms a model, '
        f'{thumbs["plain_per_model"] / thumbs["one_per_alias_model"]:5.2f} x the plain loop of the same models (target >= 3)'
    )
    print(
        f'  thumbnails(jobs=2)   {1e3 * thumbs["two_per_model"]:6.1f} ms a model   {thumbs["one_per_model"] / thumbs["two_per_model"]:5.2f} x jobs=1 (target >= 1.7)'
    )
    print(
        f'  resident memory after model 100: {thumbs["rss_100"] / 2**20:.0f} MiB, after the last: {thumbs["rss_end"] / 2**20:.0f} MiB '
        f'({thumbs["growth"] / 1024:.1f} KiB a model)'
    )

    mem = memory()
    print(f'\nPeak memory, every frame of {LARGEST.name} ({mem["frames"]} frames):')
    print(
        f'  output arrays {mem["output"] / 2**20:.1f} MiB, peak traced {mem["peak"] / 2**20:.1f} MiB, '
        f'ratio {mem["peak"] / mem["output"]:.2f} (target <= 1.5)'
    )

    cost = open_cost(args.rounds)
    print(
        f'\nOpening cost: 1007-frame model {1e3 * cost["large"]:.3f} ms, 1-frame model {1e3 * cost["small"]:.3f} ms, '
        f'ratio {cost["large"] / cost["small"]:.2f}'
    )

    scale = vgio_scale(args.rounds)
    if scale:
        ratio = geometric_mean([r[1] / r[2] for r in scale])
        print(f'\nvgio (pure Python) on the {len(scale)} files it reads: {ratio:.0f} x slower than load().frame(0)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
