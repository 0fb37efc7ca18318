"""IQM and MD5 speed: the bind-pose ``pv.read`` against assimp-py → PyVista, and skinning whole animations.

    python benchmarks/skeletal.py [--rounds 15] [--meshes FOLDER]

1. ``pv.read(x)`` of each corpus IQM and ``.md5mesh`` (a MultiBlock of its
   meshes in the bind pose, with normals, texture coordinates and images
   found) against what a user writes with assimp-py (``import_file`` with
   smooth normals for MD5, which stores none; one PolyData per mesh in a
   MultiBlock), median of ``rounds``; the geometric mean of the ratios.
   Twice: a first read (the reader's model cache emptied each time), and a
   read again (as a time series or a loop reads).  Target: at most 1.0.
2. Whole animations: ``positions()`` + ``normals()`` of every frame of a
   model made anew from its parsed file (its skinning matrices built again,
   its file not read again), per vertex-frame, against the same for the
   corpus MD3s (their decode), and against numpy's floor for linear
   blend skinning: one batched matrix product over the frames of already
   blended per-vertex matrices (``(frames, vertices, 3, 4) @ (vertices, 4)``).
   Targets: no slower than MD3; close to the floor.
3. A first read in a new process, as a notebook's first ``pv.read`` meets it: the
   package's imports included, against assimp-py's import and read (each the
   median of ``rounds`` new interpreters; bytecode written once beforehand, as an
   installed wheel has it).  PyVista's own import is outside both.
4. With ``--meshes FOLDER``: the first ``pv.read`` of every IQM and ``.md5mesh``
   under a folder (a game's, with its configs and images: Red Eclipse's
   ``data/actors``) against the assimp path, for the files assimp reads; the
   median and the worst ratio of each format.  Targets: median at most 1.0,
   worst at most 3.
5. With ``--stages``: where those first reads' time goes, each stage timed on
   its own and given as a share of assimp's whole read of the same file
   (medians over the files): the file's bytes parsed and checked, decoded to
   the format-neutral model, its Cube 2 config resolved, the rest of ``load``,
   frame 0 built, what ``pv.read`` adds (our reader, the cache's key), and
   PyVista's own share (``pv.read`` through our reader building nothing).  A
   stage above 1.0 alone misses the target.  And the bound: a deliberately
   minimal IQM read (float arrays and triangles to ``PolyData``, nothing
   checked, no image or config) plus PyVista's share, the least any Python
   reader through ``pv.read`` takes.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
import subprocess
import sys
import time
import warnings

import numpy as np
import pyvista as pv

import pyvista_quake as pq
from pyvista_quake.plugin import readers

sys.path.insert(0, str(Path(__file__).resolve().parent))
from md3 import median_time  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / 'shared' / 'corpus'


def meshes() -> list[Path]:
    """The corpus's skeletal meshes (an IQM of poses only has nothing to read)."""
    found = sorted((CORPUS / 'iqm').rglob('*.iqm')) + sorted((CORPUS / 'md5').rglob('*.md5mesh'))
    return [p for p in found if pq.load(p).surfaces]


def animated() -> list[tuple[Path, list[Path]]]:
    """Each corpus mesh with the animation files that play it."""
    out = []
    for path in meshes():
        if path.suffix == '.md5mesh':
            out.append((path, sorted(path.parent.glob('*.md5anim'))))
        elif path.name == 'RE_Player_male.iqm':
            out.append((path, [path.parent.parent / 'idle.iqm']))
        else:
            out.append((path, []))
    return out


def assimp_multiblock(path: Path) -> pv.MultiBlock:
    import assimp_py  # noqa: PLC0415 - benchmark-only dependency

    flags = assimp_py.Process_GenSmoothNormals if path.suffix == '.md5mesh' else 0
    blocks = pv.MultiBlock()
    for mesh in assimp_py.import_file(str(path), flags).meshes:
        points = np.asarray(mesh.vertices, np.float32).reshape(-1, 3)
        out = pv.PolyData.from_regular_faces(points, np.asarray(mesh.indices, np.int64).reshape(-1, 3))
        out.point_data['Normals'] = np.asarray(mesh.normals, np.float32).reshape(-1, 3)
        out.active_texture_coordinates = np.asarray(mesh.texcoords[0], np.float32).reshape(len(points), -1)[:, :2]
        blocks.append(out)
    return blocks


def first_read_time(path: Path, rounds: int) -> float:
    """Median seconds of a ``pv.read`` that finds nothing in the reader's model cache (emptied before each, untimed)."""
    times = []
    for _ in range(rounds + 1):
        readers._MODELS.clear()
        start = time.perf_counter()
        pv.read(path)
        times.append(time.perf_counter() - start)
    return float(np.median(times[1:]))


_NEW_PROCESS = {
    'ours': 'import pyvista as pv\n__t = time.perf_counter()\npv.read(path)\n',
    'assimp': (
        'import numpy as np, pyvista as pv\n__t = time.perf_counter()\nimport assimp_py\n'
        'for m in assimp_py.import_file(path, assimp_py.Process_GenSmoothNormals if path.endswith(".md5mesh") else 0).meshes:\n'
        '    pv.PolyData.from_regular_faces(np.asarray(m.vertices, np.float32).reshape(-1, 3), np.asarray(m.indices, np.int64).reshape(-1, 3))\n'
    ),
}


def new_process_time(path: Path, who: str, rounds: int) -> float:
    """Median seconds of a first read in a new interpreter (its imports after PyVista's counted), ``rounds`` interpreters."""
    code = f'import sys, time, warnings\nwarnings.simplefilter("ignore")\npath = {str(path)!r}\n{_NEW_PROCESS[who]}print(time.perf_counter() - __t)\n'
    env = {k: v for k, v in os.environ.items() if k != 'PYTHONDONTWRITEBYTECODE'}  # as an installed package: bytecode cached
    run = lambda: float(subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True, env=env).stdout)  # noqa: E731
    run()  # writes the bytecode, warms the disk cache
    return float(np.median([run() for _ in range(rounds)]))


def read_ratios(rounds: int) -> list[tuple[Path, float, float, float]]:
    rows = []
    for path in meshes():
        if len(pq.load(path)) > 1:
            continue  # its frame 0 is an animation's, not the bind pose: measured apart (animated_reads)
        ours, reference = pv.read(path), assimp_multiblock(path)
        if sum(b.n_cells for b in reference) != sum(b.n_cells for b in ours if b is not None):
            continue  # assimp drops meshes it cannot read (empty ones): not the same work
        rows.append(
            (
                path,
                first_read_time(path, rounds),
                median_time(lambda p=path: pv.read(p), rounds),
                median_time(lambda p=path: assimp_multiblock(p), rounds),
            )
        )
    return rows


def folder_ratios(folder: Path, rounds: int) -> dict[str, list[tuple[float, Path]]]:
    """Each format's first-read ratios against assimp over a folder's meshes that assimp reads, sorted."""
    out: dict[str, list[tuple[float, Path]]] = {'.iqm': [], '.md5mesh': []}
    for path in sorted(p for p in folder.rglob('*') if p.suffix.lower() in out):
        try:
            reference = assimp_multiblock(path)
        except Exception:  # noqa: BLE001 - assimp refuses some files (poses only, broken ones): not compared
            continue
        if not sum(b.n_cells for b in reference):
            continue
        theirs = median_time(lambda p=path: assimp_multiblock(p), rounds)
        out[path.suffix.lower()].append((first_read_time(path, rounds) / theirs, path))
    return {suffix: sorted(rows) for suffix, rows in out.items()}


def pyvista_floor(path: Path, rounds: int) -> float:
    """Median seconds of ``pv.read(path)`` through our reader class with nothing loaded or built: PyVista's own share.

    Its path handling, reader registry, reader object and output wrapping, which any
    reader registered with PyVista pays, here with an empty MultiBlock as the output.
    """
    build = readers._QuakeSource.Update
    readers._QuakeSource.Update = lambda self: setattr(self, '_data_object', pv.MultiBlock())
    try:
        return first_read_time(path, rounds)
    finally:
        readers._QuakeSource.Update = build


def minimal_iqm(path: Path) -> pv.MultiBlock:
    """A deliberately minimal IQM read: the float arrays and triangles of each mesh as a PolyData, nothing else.

    No checks (a broken file may crash it), no image, config, animation, field data or
    vertex numbers: the least any Python reader of the file does, for the bound it sets.
    """
    from vtkmodules.vtkCommonCore import vtkPoints  # noqa: PLC0415 - only this measurement builds VTK objects by hand
    from vtkmodules.vtkCommonDataModel import vtkCellArray  # noqa: PLC0415
    from vtkmodules.vtkCommonDataModel import vtkPolyData  # noqa: PLC0415

    from pyvista_quake.formats import iqm  # noqa: PLC0415 - the layout's dtypes, not its parser
    from pyvista_quake.model.mesh import vtk_array  # noqa: PLC0415 - a lean numpy_to_vtk

    buffer = path.read_bytes()
    h = np.frombuffer(buffer, iqm.HEADER, 1)[0]
    count = int(h['num_vertexes'])
    arrays = {}
    for array in np.frombuffer(buffer, iqm.VERTEXARRAY, int(h['num_vertexarrays']), int(h['ofs_vertexarrays'])):
        if int(array['format']) == 7 and int(array['type']) in (0, 1, 2):  # float positions, texture coordinates, normals
            arrays[int(array['type'])] = np.frombuffer(buffer, '<f4', count * int(array['size']), int(array['offset'])).reshape(count, -1)
    triangles = np.frombuffer(buffer, '<u4', 3 * int(h['num_triangles']), int(h['ofs_triangles'])).reshape(-1, 3)
    meshes = np.frombuffer(buffer, iqm.MESH, int(h['num_meshes']), int(h['ofs_meshes']))
    blocks = pv.MultiBlock()
    blocks.SetNumberOfBlocks(len(meshes))
    for k, mesh in enumerate(meshes):  # VTK's objects made directly, the leanest way there is
        part = slice(int(mesh['first_vertex']), int(mesh['first_vertex']) + int(mesh['num_vertexes']))
        faces = triangles[int(mesh['first_triangle']) : int(mesh['first_triangle']) + int(mesh['num_triangles'])] - part.start
        out = vtkPolyData()
        points = vtkPoints()
        points.SetData(vtk_array('Points', arrays[0][part].copy()))
        out.SetPoints(points)
        polys = vtkCellArray()
        polys.SetData(3, vtk_array('', np.ascontiguousarray(faces[:, ::-1], np.int32).ravel()))
        out.SetPolys(polys)
        if 2 in arrays:
            out.GetPointData().SetNormals(vtk_array('Normals', arrays[2][part].copy()))
        if 1 in arrays:
            out.GetPointData().SetTCoords(vtk_array('TCoords', arrays[1][part].copy()))
        blocks.SetBlock(k, out)
    return blocks


def stage_times(path: Path, rounds: int) -> dict[str, float]:
    """Seconds of each stage of a first read of ``path``, each the median of ``rounds`` timed on its own."""
    from pyvista_quake.formats import parse_buffer  # noqa: PLC0415 - the stages only this measurement takes apart
    from pyvista_quake.formats import spec_for  # noqa: PLC0415
    from pyvista_quake.game import model_configs  # noqa: PLC0415
    from pyvista_quake.game.engines import enforce  # noqa: PLC0415

    def parsed():
        buffer = path.read_bytes()
        spec = spec_for(buffer, str(path))
        record = parse_buffer(buffer, str(path), spec)
        enforce(record, len(buffer), None, str(path), spec)
        return spec, record

    spec, record = parsed()
    config = model_configs.find_config(path, spec.name) if spec.config else None

    def first_frame():
        model = pq.load(path)
        model.blocks(0)

    times = {
        'parse': median_time(parsed, rounds),
        'decode': median_time(lambda: spec.decode(record), rounds),
        'config': median_time(lambda: model_configs.resolve(config), rounds) if config is not None else 0.0,
        'load': median_time(lambda: pq.load(path), rounds),
        'frame 0': median_time(first_frame, rounds),
        'pv.read': first_read_time(path, rounds),
        'pyvista': pyvista_floor(path, rounds),
    }
    # Each stage less the ones inside it: load holds parse, decode and config; frame 0 holds load; pv.read holds
    # frame 0 and PyVista's own share.
    times['pv.read'] -= times['frame 0'] + times['pyvista']
    times['frame 0'] -= times['load']
    times['load'] -= times['parse'] + times['decode'] + times['config']
    times['load'] = max(times['load'], 0.0)
    return times


def folder_stages(folder: Path, rounds: int) -> dict[str, dict[str, float]]:
    """Each format's median share of assimp's whole read that each stage of a first read takes, over a folder's
    meshes assimp reads (``'files'``: how many)."""
    shares: dict[str, dict[str, list[float]]] = {}
    for path in sorted(p for p in folder.rglob('*') if p.suffix.lower() in ('.iqm', '.md5mesh')):
        try:
            reference = assimp_multiblock(path)
        except Exception:  # noqa: BLE001 - assimp refuses some files: not compared
            continue
        if not sum(b.n_cells for b in reference):
            continue
        theirs = median_time(lambda p=path: assimp_multiblock(p), rounds)
        stages = stage_times(path, rounds)
        own = shares.setdefault(path.suffix.lower(), {})
        for stage, seconds in stages.items():
            own.setdefault(stage, []).append(seconds / theirs)
        own.setdefault('whole', []).append(sum(stages.values()) / theirs)
        if path.suffix.lower() == '.iqm':
            # The bound: the least a Python reader does, and what PyVista's reader machinery adds to any.
            least = median_time(lambda p=path: minimal_iqm(p), rounds) + stages['pyvista']
            own.setdefault('least read', []).append(least / theirs)
    return {suffix: {'files': len(own['parse']), **{stage: float(np.median(v)) for stage, v in own.items()}} for suffix, own in shares.items()}


def _fresh(model) -> pq.QuakeModel:
    """The model anew from its parsed data: nothing derived kept (skinning matrices, templates), nothing parsed again."""
    part = model.skeletal
    if part is not None:
        return pq.QuakeModel(model.data, model.options, search=model.search, animations=part._attached, config=part.config)
    return pq.QuakeModel(model.data, model.options, search=model.search)


def decode_time(models: list, rounds: int) -> float:
    """Seconds per vertex-frame of positions + normals of every frame, each model made anew from its parsed data."""
    total, work = 0.0, 0
    for model in models:
        vertices = sum(s.num_vertices for s in model.data.surfaces)
        if not vertices:
            continue
        total += median_time(lambda m=model: (lambda fresh: (fresh.positions(), fresh.normals()))(_fresh(m)), rounds)
        work += len(model) * vertices
    return total / work


def animated_reads(rounds: int) -> list[tuple[Path, float, float, float]]:
    """The same for the meshes with animations of their own: ``pv.read`` gives their frame 0, skinned."""
    rows = []
    for path in meshes():
        if len(pq.load(path)) > 1:
            rows.append(
                (
                    path,
                    first_read_time(path, rounds),
                    median_time(lambda p=path: pv.read(p), rounds),
                    median_time(lambda p=path: assimp_multiblock(p), rounds),
                )
            )
    return rows


def again_time(models: list, rounds: int) -> float:
    """Seconds per vertex-frame of positions + normals of every frame of a model that has skinned before."""
    total, work = 0.0, 0
    for model in models:
        fresh = _fresh(model)
        fresh.positions(), fresh.normals()  # its sparse matrices made
        total += median_time(lambda f=fresh: (f.skeletal.__dict__.pop('_last_skinned', None), f.positions(), f.normals()), rounds)
        work += len(model) * sum(s.num_vertices for s in model.data.surfaces)
    return total / work


def skinning(rounds: int) -> tuple[float, float, float, float]:
    """Seconds per vertex-frame: skinning (positions + normals) first and again, MD3's decode, and numpy's floor."""
    models = [pq.load(path, animations=files or None) for path, files in animated()]
    models = [m for m in models if len(m) > 1]
    floor_time, work = 0.0, 0
    for model in models:
        vertices = sum(s.num_vertices for s in model.data.surfaces)
        blended = np.random.default_rng(0).random((len(model), vertices, 3, 4), dtype=np.float32)
        points = np.random.default_rng(1).random((vertices, 4, 1), dtype=np.float32)
        floor_time += median_time(lambda b=blended, p=points: np.matmul(b, p), rounds)
        work += len(model) * vertices
    md3 = [pq.load(p) for p in sorted((CORPUS / 'md3').rglob('*.md3'))]
    return decode_time(models, rounds), again_time(models, rounds), decode_time(md3, rounds), floor_time / work


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rounds', type=int, default=15)
    parser.add_argument('--meshes', type=Path, help='also the first reads of every IQM and .md5mesh under this folder')
    parser.add_argument('--stages', action='store_true', help="with --meshes: only where the first reads' time goes")
    args = parser.parse_args()
    if not CORPUS.is_dir():
        print(f'the corpus is not at {CORPUS}; nothing to measure')
        return 1
    warnings.simplefilter('ignore')
    if args.stages and args.meshes is not None:
        shares = folder_stages(args.meshes, args.rounds)
        print(
            f'A first pv.read of the meshes under {args.meshes} that assimp reads, stage by stage, as a share of '
            f"assimp's whole read (each the median over a format's files; the sum of medians is not the median ratio):"
        )
        suffixes = list(shares)
        print('  ' + ' ' * 12 + ''.join(f'{s:>10s}' for s in suffixes))
        for stage in dict.fromkeys(k for own in shares.values() for k in own):
            cells = [shares[s].get(stage) for s in suffixes]
            print(f'  {stage:12s}' + ''.join('         -' if c is None else (f'{c:10.0f}' if stage == 'files' else f'{c:10.2f}') for c in cells))
        print(
            '("pyvista": pv.read through our reader building nothing; "whole": the stages summed; "least read": a\n'
            ' minimal IQM read, float arrays and triangles to PolyData with nothing checked, plus "pyvista": the least\n'
            ' any Python reader through pv.read takes)'
        )
        return 0
    rows = read_ratios(args.rounds)
    print(f'bind-pose pv.read against assimp-py -> PyVista, {len(rows)} files (median of {args.rounds} reads each):')
    print('  file  first read  read again  assimp  ratios')
    for path, first, again, theirs in rows:
        print(
            f'  {path.relative_to(CORPUS)}  {1e3 * first:7.3f} ms  {1e3 * again:7.3f} ms  {1e3 * theirs:7.3f} ms  '
            f'{first / theirs:5.2f} {again / theirs:5.2f}'
        )
    for label, column in (('first read', 1), ('read again', 2)):
        mean = np.exp(np.mean([np.log(row[column] / row[3]) for row in rows]))
        print(f'  geometric mean ratio, {label}: {mean:.2f} (target <= 1.0)')
    print("\nA first pv.read in a new process (the imports after PyVista's included), against assimp-py's import and read:")
    ratios = []
    for path in meshes():
        ours, theirs = new_process_time(path, 'ours', args.rounds), new_process_time(path, 'assimp', args.rounds)
        ratios.append(ours / theirs)
        print(f'  {path.relative_to(CORPUS)}  {1e3 * ours:7.1f} ms  {1e3 * theirs:7.1f} ms  {ours / theirs:6.1f}')
    print(f'  geometric mean ratio: {np.exp(np.mean(np.log(ratios))):.1f}')
    print('\nMeshes with animations of their own (pv.read skins frame 0; assimp reads them unposed):')
    for path, first, again, theirs in animated_reads(args.rounds):
        print(
            f'  {path.relative_to(CORPUS)}  {1e3 * first:7.3f} ms  {1e3 * again:7.3f} ms  {1e3 * theirs:7.3f} ms  '
            f'{first / theirs:5.2f} {again / theirs:5.2f}'
        )
    if args.meshes is not None:
        for suffix, found in folder_ratios(args.meshes, args.rounds).items():
            if found:
                ratios = [r for r, _ in found]
                print(
                    f'\nFirst pv.read against assimp, the {len(found)} {suffix} files under {args.meshes} that assimp reads: '
                    f'median {np.median(ratios):.2f}, worst {ratios[-1]:.2f} ({found[-1][1].relative_to(args.meshes)})'
                )
    first, again, md3, floor = skinning(args.rounds)
    print(
        f'\nWhole animations, positions + normals of every frame, per vertex-frame: skinning {1e9 * first:.2f} ns '
        f'(a model made anew from its parsed file: its sparse matrices made too), {1e9 * again:.2f} ns (made before); '
        f'MD3 decode {1e9 * md3:.2f} ns; numpy floor {1e9 * floor:.2f} ns'
    )
    print(
        f'  skinning / MD3 decode {first / md3:.2f} first, {again / md3:.2f} again (target <= 1.0); '
        f'skinning / numpy floor {first / floor:.2f} first, {again / floor:.2f} again'
    )
    return 0


if __name__ == '__main__':
    sys.exit(main())
