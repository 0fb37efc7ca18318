"""A first ``pv.read`` truly cold, against assimp-py's read of the same file, as ratios measured in one run.

    python benchmarks/cold_read.py [--rounds 15]

Each round copies the model's folder (its configs and images with it) to a new place, so that no cache
of any kind answers for it (the readers' model cache, decoded images, configs, archives and folder
listings are all keyed by place), then times ``pv.read`` of the copy and assimp-py's
``import_file`` into PyVista meshes of the same copy.  The ratio of the medians, each Red Eclipse IQM
and ``.md5mesh`` of the corpus, and their median per format.  Targets: IQM at most 2.5, MD5 at most 2.
"""

from __future__ import annotations

import argparse
from pathlib import Path
import shutil
import statistics
import sys
import tempfile
import time
import warnings

import pyvista as pv

import pyvista_quake as pq  # noqa: F401 - its readers registered, as a user's first read finds them

sys.path.insert(0, str(Path(__file__).resolve().parent))
from skeletal import assimp_multiblock  # noqa: E402

CORPUS = Path(__file__).resolve().parents[2] / 'shared' / 'corpus'


def cold(path: Path, read, rounds: int) -> float:
    """Median seconds of ``read`` on a fresh copy of ``path``'s folder each round."""
    times = []
    with tempfile.TemporaryDirectory() as scratch:
        for k in range(rounds):
            copy = Path(scratch) / f'r{k}'
            shutil.copytree(path.parent, copy)
            start = time.perf_counter()
            read(copy / path.name)
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rounds', type=int, default=15)
    args = parser.parse_args()
    files = sorted(p for p in CORPUS.glob('*/redeclipse/**/*') if p.suffix in ('.iqm', '.md5mesh'))
    ratios: dict[str, list[float]] = {'.iqm': [], '.md5mesh': []}
    warnings.simplefilter('ignore')
    for path in files:
        try:
            assimp_multiblock(path)
        except Exception:  # noqa: BLE001 - assimp refuses some files (poses only): not compared
            continue
        ours = cold(path, pv.read, args.rounds)
        theirs = cold(path, assimp_multiblock, args.rounds)
        ratios[path.suffix].append(ours / theirs)
        print(f'{path.relative_to(CORPUS)}: pv.read {ours * 1e3:.1f} ms, assimp {theirs * 1e3:.1f} ms, ratio {ours / theirs:.2f}')
    for suffix, found in ratios.items():
        if found:
            print(f'{suffix}: median ratio {statistics.median(found):.2f} over {len(found)} files')


if __name__ == '__main__':
    main()
