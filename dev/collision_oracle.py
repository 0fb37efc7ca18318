"""Compare a level's contents, leaves, visibility and traces with ioquake3's own, built as a test oracle.

    python dev/collision_oracle.py IOQ3_SOURCE MAP [MAP ...] [--points 2000] [--seed 0]

``IOQ3_SOURCE`` is an ioquake3 checkout: ``dev/oracles/collision.c`` is compiled with its ``cm_load.c``,
``cm_test.c``, ``cm_trace.c``, ``cm_patch.c``, ``cm_polylib.c``, ``q_math.c`` and ``q_shared.c`` (nothing of it
is copied here).  Each MAP (``pak.pk3:maps/x.bsp`` or a file) is loaded by both; random points in the world's
box and around its spawn points are asked for their contents and leaf (cluster, area), pairs for ``visible``,
and segments for traces (points and player boxes, some standing still, masks solid and player).  Prints how
many answers of each kind differ, and the first few.
"""

from __future__ import annotations

import argparse
from pathlib import Path
import subprocess
import tempfile
import warnings

import numpy as np

import pyvista_quake as pq

HERE = Path(__file__).resolve().parent
FILES = ('cm_load.c', 'cm_test.c', 'cm_trace.c', 'cm_patch.c', 'cm_polylib.c', 'q_math.c', 'q_shared.c')


def build(source: Path, folder: Path) -> Path:
    q = source / 'code' / 'qcommon'
    out = folder / 'collision_oracle'
    subprocess.run(['gcc', '-O1', f'-I{q}', '-o', str(out), str(HERE / 'oracles' / 'collision.c'), *(str(q / f) for f in FILES), '-lm'], check=True)
    return out


def ask(program: Path, bsp: Path, lines: list[str]) -> list[list[float]]:
    done = subprocess.run([str(program), str(bsp)], input='\n'.join(lines) + '\n', capture_output=True, text=True, check=True)
    return [[float(v) for v in line.split()] for line in done.stdout.splitlines()]


def f32(values) -> np.ndarray:
    return np.asarray(values, np.float32)


def compare(program: Path, name: str, points: int, rng: np.random.Generator, folder: Path) -> None:
    level = pq.load(name)
    bsp = folder / 'map.bsp'
    bsp.write_bytes(bytes(level.data.file.raw))
    low, high = level.collision.model_bounds[0]
    spawns = f32(
        [[float(v) for v in e['origin'].split()] for e in level.entities if e.get('classname', '').startswith('info_player') and 'origin' in e]
    )
    p = f32(rng.uniform(low, high, (points, 3)))
    if len(spawns):
        near = spawns[rng.integers(0, len(spawns), points // 2)] + f32(rng.normal(0, 64, (points // 2, 3)))
        p = np.concatenate([p, near])
    q = f32(p + rng.uniform(-400, 400, p.shape))
    q[::7] = p[::7]
    text = lambda a: ' '.join(repr(float(v)) for v in a)  # noqa: E731
    answers = ask(program, bsp, [f'C {text(x)}' for x in p])
    theirs = np.array([a[0] for a in answers], np.int64)
    ours = level.contents(p)
    report('contents', ours != theirs, p)
    answers = np.array(ask(program, bsp, [f'L {text(x)}' for x in p]), np.int64)
    report('leaf', level.leaf(p) != answers[:, 0], p)
    report('cluster', level.cluster(p) != answers[:, 1], p)
    report('area', level.area(p) != answers[:, 2], p)
    answers = np.array(ask(program, bsp, [f'V {text(a)} {text(b)}' for a, b in zip(p[:-1], p[1:])]), np.int64)[:, 0]
    report('visible', level.visible(p[:-1], p[1:]) != answers.astype(bool), p[:-1])
    for box, (mins, maxs) in {'point': ((0, 0, 0), (0, 0, 0)), 'player': ((-15, -15, -24), (15, 15, 32))}.items():
        for mask_name in ('solid', 'player'):
            mask = pq.MASKS[mask_name]
            answers = np.array(ask(program, bsp, [f'T {text(a)} {text(b)} {text(mins)} {text(maxs)} {mask}' for a, b in zip(p, q)]))
            t = level.trace(p, q, mins=mins, maxs=maxs, mask=mask_name)
            fraction = f32(answers[:, 0])
            bad = (
                (np.abs(t.fraction - fraction) > 1e-3) | (t.start_solid != answers[:, 9].astype(bool)) | (t.all_solid != answers[:, 10].astype(bool))
            )
            hit = fraction < 1
            bad |= hit & (np.abs(t.normal - f32(answers[:, 4:7])) > 1e-4).any(axis=1)
            said = [f'ours {t.fraction[k]} {t.normal[k]} theirs {answers[k, [0, 4, 5, 6, 9, 10]]} to {q[k]}' for k in range(len(p))]
            report(f'trace {box} {mask_name}', bad, p, said)


def report(what: str, bad: np.ndarray, where: np.ndarray, said: list[str] | None = None) -> None:
    count = int(np.count_nonzero(bad))
    print(f'  {what}: {count} of {len(bad)} differ')
    for k in np.flatnonzero(bad)[:3]:
        print(f'    at {where[k].tolist()}' + (f': {said[k]}' if said else ''))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('source', type=Path)
    parser.add_argument('maps', nargs='+')
    parser.add_argument('--points', type=int, default=2000)
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_intermixed_args()
    warnings.simplefilter('ignore')
    rng = np.random.default_rng(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        program = build(args.source, Path(folder))
        for name in args.maps:
            print(name)
            compare(program, name, args.points, rng, Path(folder))


if __name__ == '__main__':
    main()
