"""Demo reading: seconds a megabyte of ``load_demo`` and every client's trajectory, against a reference in one run.

    python benchmarks/demos.py [--rounds 5]

For each demo of the corpus (OpenArena's Quake III demos, LibreQuake's Quake demos), in one run:

1. ``load_demo`` plus ``trajectory(c)`` of every client, in seconds a megabyte of the file;
2. the reference: one pass of a bit stream's worth of work at C speed over the same bytes (``numpy.unpackbits``
   of the file, then a sum), what any decoder must at least do, in seconds a megabyte;
3. their ratio.

The issue's figure is against ioquake3's own C decoder printing what it decoded (the acceptance check builds it);
that decoder is not built here, and the numpy pass is a floor below it.
"""

from __future__ import annotations

import argparse
from pathlib import Path
import sys
import warnings
import zipfile

import numpy as np

import pyvista_quake as pq

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import median_time  # noqa: E402 - the benchmarks' one timing helper

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / 'shared' / 'corpus' / 'demos'


def demos(folder: Path, work: Path) -> list[Path]:
    """The corpus's demos as files (those inside PK3s written out once)."""
    out = sorted(p for p in folder.rglob('*.dem'))
    for pk3 in sorted(folder.rglob('*.pk3')):
        with zipfile.ZipFile(pk3) as archive:
            for name in archive.namelist():
                if '.dm_' in name.lower():
                    target = work / Path(name).name
                    target.write_bytes(archive.read(name))
                    out.append(target)
    return out


def read_all(path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        demo = pq.load_demo(path)
    for client in demo.clients:
        demo.trajectory(client)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--rounds', type=int, default=5)
    args = parser.parse_args()
    work = Path('/tmp/pyvista-quake-demo-benchmark')
    work.mkdir(exist_ok=True)
    print(f'{"demo":40} {"MB":>6} {"s/MB":>8} {"ref s/MB":>9} {"ratio":>7}')
    for path in demos(CORPUS, work):
        data = path.read_bytes()
        megabytes = len(data) / 1e6
        ours = median_time(lambda p=path: read_all(p), args.rounds) / megabytes
        reference = median_time(lambda d=data: int(np.unpackbits(np.frombuffer(d, np.uint8)).sum()), args.rounds) / megabytes
        print(f'{path.name:40} {megabytes:6.2f} {ours:8.3f} {reference:9.5f} {ours / reference:7.0f}')


if __name__ == '__main__':
    main()
