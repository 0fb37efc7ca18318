"""MD3 speed: ``pv.read`` against the assimp-py → PyVista path, and whole-animation decoding against MD2's.

    python benchmarks/md3.py [--rounds 15]

1. ``pv.read(x.md3)`` (a MultiBlock of the surfaces of frame 0, with normals,
   texture coordinates and images found) against what a user writes with
   assimp-py (``import_file``, one PolyData per mesh with the same arrays, in
   a MultiBlock), per corpus MD3, median of ``rounds``; the geometric mean
   of the ratios.  Target: at most 1.0.
2. Whole animations: ``load`` + ``positions()`` + ``normals()`` of every
   frame of every surface, in time per vertex-frame, against the same for
   the corpus MD2s.  Target: MD3 no slower per vertex-frame.
"""

from __future__ import annotations

import argparse
from pathlib import Path
import sys
import time
import warnings

import numpy as np
import pyvista as pv

import pyvista_quake as pq

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / 'shared' / 'corpus'


def median_time(fn, rounds: int) -> float:
    fn()  # warm
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def assimp_multiblock(path: Path) -> pv.MultiBlock:
    import assimp_py  # noqa: PLC0415 - benchmark-only dependency

    blocks = pv.MultiBlock()
    for mesh in assimp_py.import_file(str(path), 0).meshes:
        points = np.asarray(mesh.vertices, np.float32).reshape(-1, 3)
        out = pv.PolyData.from_regular_faces(points, np.asarray(mesh.indices, np.int64).reshape(-1, 3))
        out.point_data['Normals'] = np.asarray(mesh.normals, np.float32).reshape(-1, 3)
        out.active_texture_coordinates = np.asarray(mesh.texcoords[0], np.float32).reshape(len(points), -1)[:, :2]
        blocks.append(out)
    return blocks


def read_ratios(rounds: int) -> list[tuple[Path, float, float]]:
    rows = []
    for path in sorted((CORPUS / 'md3').rglob('*.md3')):
        ours = pv.read(path)
        try:
            reference = assimp_multiblock(path)
        except Exception:  # noqa: BLE001 - a file assimp cannot read is left out
            continue
        if sum(b.n_cells for b in reference) != sum(b.n_cells for b in ours):
            continue  # assimp drops surfaces it cannot read: not the same work
        rows.append((path, median_time(lambda p=path: pv.read(p), rounds), median_time(lambda p=path: assimp_multiblock(p), rounds)))
    return rows


def per_vertex_frame(paths: list[Path], rounds: int) -> float:
    """Seconds per vertex-frame of load + positions + normals of every frame, over the files."""
    total_time, total_work = 0.0, 0
    for path in paths:
        model = pq.load(path)
        if isinstance(model, pq.SurfaceModel):
            work = len(model) * sum(s.num_vertices for s in model.data.surfaces)
        else:
            work = len(model) * len(model.topology.point_vertex)
        if not work:
            continue
        total_time += median_time(lambda p=path: (lambda m: (m.positions(), m.normals()))(pq.load(p)), rounds)
        total_work += work
    return total_time / total_work


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rounds', type=int, default=15)
    args = parser.parse_args()
    if not CORPUS.is_dir():
        print(f'the corpus is not at {CORPUS}; nothing to measure')
        return 1
    warnings.simplefilter('ignore')
    rows = read_ratios(args.rounds)
    ratios = [ours / theirs for _, ours, theirs in rows]
    print(f'pv.read(md3) against assimp-py -> PyVista, {len(rows)} files (median of {args.rounds} reads each):')
    for path, ours, theirs in rows:
        print(f'  {path.relative_to(CORPUS)}  {1e3 * ours:7.3f} ms  {1e3 * theirs:7.3f} ms  {ours / theirs:5.2f}')
    print(f'  geometric mean ratio {np.exp(np.mean(np.log(ratios))):.2f} (target <= 1.0)')
    md3 = per_vertex_frame(sorted((CORPUS / 'md3').rglob('*.md3')), args.rounds)
    md2 = per_vertex_frame([p for p in sorted((CORPUS / 'md2').rglob('*.md2')) if 'malformed' not in p.name], args.rounds)
    print(
        f'\nWhole animations, load + positions + normals: MD3 {1e9 * md3:.2f} ns, MD2 {1e9 * md2:.2f} ns a vertex-frame; '
        f'MD3 / MD2 {md3 / md2:.2f} (target <= 1.0)'
    )
    return 0


if __name__ == '__main__':
    sys.exit(main())
