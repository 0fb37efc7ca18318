"""Collision, visibility and light queries of the corpus's Quake III maps: numpy over every point against plain loops.

    python benchmarks/collision.py [--rounds 5] [--points 100000]

For each map (the corpus's Quake III PK3s and DeepMind Lab's levels), in one run:

1. ``contents`` of 100,000 random points in the world's bounds, against :func:`loop_contents`, a plain Python
   loop over the points written here from ``../shared/specs/levels-collision-navigation.txt`` (descend the
   tree, test the leaf's brushes), on a sample of the points scaled up to all of them; the answers are compared
   on the sample.
2. 10,000 player-box traces (``mask='player'``) of random segments of up to 256 units, against the same loop
   reference's cost of one ``contents`` a trace (a floor under any per-trace loop).
3. 10,000 ``visible`` pairs, and ``light`` at 10,000 points.
4. Peak memory (``tracemalloc``) of ``contents`` of all the points, against the bytes of the points and answers.
5. The navigation files' all-pairs travel times (botlib's, :meth:`Navigation.travel_time`): a first time (every
   cache made) and again, and the share of pairs with a route.

The engine's own C (the acceptance check's oracle, through a pipe) is not built here: the figures are ratios to
the plain loop, which says how far from a per-point Python loop the batched queries are.
"""

from __future__ import annotations

import argparse
from functools import partial
from pathlib import Path
import sys
import time
import tracemalloc
import warnings

import numpy as np

import pyvista_quake as pq

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import median_time  # noqa: E402 - the benchmarks' one timing helper

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / 'shared' / 'corpus'
MAPS = [
    f'{CORPUS / "bsp" / p}:maps/{m}.bsp'
    for p, m in (
        ('oacmp1-oacmpdm3.pk3', 'oacmpdm3'),
        ('openarena-am_lavactf.pk3', 'am_lavactf'),
        ('openarena-q3dm6ish.pk3', 'q3dm6ish'),
        ('nexuiz-aggressor.pk3', 'aggressor'),
    )
]
MAPS += [str(p) for p in sorted((CORPUS / 'navigation' / 'dmlab').glob('*.bsp'))]


NAVIGATION = [f'{CORPUS / "navigation" / "openarena" / "openarena-navigation.pk3"}:maps/{m}.aas' for m in ('q3dm6ish', 'am_lavactf')]
NAVIGATION += [str(p) for p in sorted((CORPUS / 'navigation' / 'dmlab').glob('*.aas'))]


def loop_contents(c, points: np.ndarray) -> np.ndarray:
    """The reference: one point at a time, as the spec describes ``CM_PointContents``."""
    out = np.zeros(len(points), np.int64)
    for k, p in enumerate(points.astype(np.float32).tolist()):
        node = 0
        while node >= 0:
            plane = int(c.node_planes[node])
            n = c.normals[plane]
            d = (
                p[int(c.plane_types[plane])] - c.dists[plane]
                if c.plane_types[plane] < 3
                else (p[0] * n[0] + p[1] * n[1] + p[2] * n[2]) - c.dists[plane]
            )
            node = int(c.children[node, 1] if d < 0 else c.children[node, 0])
        leaf = -1 - node
        first = int(c.leaf_first_brush[leaf])
        for b in c.leafbrushes[first : first + int(c.leaf_brushes[leaf])].tolist():
            s0 = int(c.brush_first_side[b])
            inside = all(
                (p[0] * c.normals[pl][0] + p[1] * c.normals[pl][1] + p[2] * c.normals[pl][2]) <= c.dists[pl]
                for pl in c.side_planes[s0 : s0 + int(c.brush_sides[b])].tolist()
            )
            if inside:
                out[k] |= int(c.brush_contents[b])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rounds', type=int, default=5)
    parser.add_argument('--points', type=int, default=100_000)
    args = parser.parse_args(argv)
    if not CORPUS.is_dir():
        print(f'no corpus at {CORPUS}')
        return 1
    rng = np.random.default_rng(0)
    print(f'{"map":<16} {"contents":>9} {"loop":>9} {"ratio":>7} {"traces":>8} {"visible":>8} {"light":>7} {"memory":>7}')
    for name in MAPS:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            level = pq.load(name)
        c = level.collision
        low, high = c.model_bounds[0]
        points = rng.uniform(low, high, (args.points, 3)).astype(np.float32)
        fast = median_time(partial(level.contents, points), args.rounds)
        sample = points[:2000]
        start = time.perf_counter()
        slow_answer = loop_contents(c, sample)
        slow = (time.perf_counter() - start) * len(points) / len(sample)
        assert (slow_answer == level.contents(sample)).all(), name
        ends = points[:10_000] + rng.uniform(-256, 256, (10_000, 3)).astype(np.float32)
        traces = median_time(partial(level.trace, points[:10_000], ends, mins=(-15, -15, -24), maxs=(15, 15, 32), mask='player'), args.rounds)
        visible = median_time(partial(level.visible, points[:10_000], ends), args.rounds)
        light = median_time(partial(level.light, points[:10_000]), args.rounds)
        tracemalloc.start()
        answer = level.contents(points)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        memory = peak / (points.nbytes + answer.nbytes)
        short = Path(name.split(':')[-1]).stem
        print(
            f'{short:<16} {fast * 1e3:8.1f}ms {slow * 1e3:8.0f}ms {slow / fast:6.0f}x {traces * 1e3:7.1f}ms {visible * 1e3:7.1f}ms '
            f'{light * 1e3:6.1f}ms {memory:6.2f}x'
        )
    print(f'\n{"navigation":<16} {"areas":>6} {"pairs":>8} {"first":>8} {"again":>8} {"routes":>7}')
    for name in NAVIGATION:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            nav = pq.load_navigation(name)
        areas = np.arange(1, nav.num_areas + 1)
        start = time.perf_counter()
        times = nav.travel_time(areas[:, None], areas[None, :])
        first = time.perf_counter() - start
        again = median_time(partial(nav.travel_time, areas[:, None], areas[None, :]), args.rounds)
        short = Path(name.split(':')[-1]).stem
        print(f'{short:<16} {len(areas):6d} {times.size:8d} {first:7.2f}s {again:7.2f}s {np.mean(times > 0):6.0%}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
