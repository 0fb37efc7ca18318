"""Thumbnail batches in two states of a process: fresh, and after it has rendered.

Issue 23: once a process has rendered (a notebook that looked at a model and
ran a small batch), ``thumbnails(jobs=2)`` cannot fork its workers from it.
This measures jobs=2 against jobs=1 in both states, each run in a new Python
process, on copies of the corpus:

    python benchmarks/batch_states.py [--models 160] [--repeats 2]

"after rendering" is: one ``thumbnail`` and a 20-model ``jobs=1`` batch in
the same process first.  Printed: seconds per batch and the ratio
jobs=1 / jobs=2 (the speed-up of the second worker) in each state.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
import shutil
import subprocess
import sys
import tempfile

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / 'shared' / 'corpus'

CHILD = r"""
import json, sys, time, warnings
from pathlib import Path
warnings.simplefilter('ignore')
import pyvista_quake as pq
from pyvista_quake.render.batch import find_models

def main():
    folder, out, state, jobs, count = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    every = [str(p) for p, _ in find_models([folder])]
    models, others = every[:count], every[count:]
    if state == 'rendered':  # on other models (copies in another folder): nothing of the batch is cached by it
        pq.thumbnail(others[0], out / 'first.png')
        pq.thumbnails(others[1:21], out / 'warm', jobs=1)
    start = time.perf_counter()
    report = pq.thumbnails(models, out / 'batch', jobs=jobs)
    seconds = time.perf_counter() - start
    assert not report.failed and len(report.written) == len(models), report.failed[:3]
    print(json.dumps({'seconds': seconds, 'models': len(models)}))

if __name__ == '__main__':
    main()
"""


def run(folder: Path, state: str, jobs: int, count: int) -> float:
    with tempfile.TemporaryDirectory() as out:
        result = subprocess.run(
            [sys.executable, '-c', CHILD, str(folder), out, state, str(jobs), str(count)], capture_output=True, text=True, check=True
        )
    return json.loads(result.stdout.strip().splitlines()[-1])['seconds']


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--models', type=int, default=160)
    parser.add_argument('--repeats', type=int, default=2)
    args = parser.parse_args()
    if not CORPUS.is_dir():
        print(f'the corpus is not at {CORPUS}; nothing to measure')
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        per_copy = sum(1 for p in CORPUS.rglob('*') if p.suffix.lower() in ('.md2', '.mdl') and 'malformed' not in p.name)
        for k in range(-(-args.models // per_copy) + 1):  # one more copy for the warm-up
            shutil.copytree(CORPUS, tmp / f'copy{k}', ignore=shutil.ignore_patterns('malformed*', '*.txt', '*.md', 'md3'))
        print(f'{args.models} models, best of {args.repeats} runs, each in a new process')
        ratios = {}
        for state in ('fresh', 'rendered'):
            times = {jobs: min(run(tmp, state, jobs, args.models) for _ in range(args.repeats)) for jobs in (1, 2)}
            ratios[state] = times[1] / times[2]
            print(f'  {state:9s} jobs=1 {times[1]:6.2f} s   jobs=2 {times[2]:6.2f} s   jobs=2 is {ratios[state]:.2f} x jobs=1')
        print(f'  after rendering / fresh: {ratios["rendered"] / ratios["fresh"]:.2f} (target: within 10%, >= 0.90)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
