"""Property-based fuzzing of bot navigation files, demos and level queries: broken bytes read or raise QuakeFormatError, nothing else."""

from __future__ import annotations

import os
import warnings

from demo_builders import build_demo
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from level_builders import build_aas
from level_builders import build_q3
from level_builders import collision_args
import numpy as np

import pyvista_quake as pq

FUZZ = settings(max_examples=int(os.environ.get('FUZZ_EXAMPLES', '200')), deadline=None, suppress_health_check=[HealthCheck.too_slow])
AAS_SEEDS = [build_aas(), build_aas(faces=True), build_aas(version=4)]
DEMO_SEEDS = [build_demo(), build_demo(666), build_demo(999, 1 << 7)]
LEVEL = build_q3(**collision_args())


def _mutated(seed: bytes, edits: list[tuple[int, int]], cut: int) -> bytes:
    data = bytearray(seed)
    for position, value in edits:
        data[position % len(data)] = value
    return bytes(data[: max(1, len(data) - cut)])


@FUZZ
@given(st.sampled_from(AAS_SEEDS), st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=8), st.integers(0, 64))
def test_a_broken_navigation_file_reads_or_is_a_format_error(seed, edits, cut):
    try:
        nav = pq.load_navigation(_mutated(seed, edits, cut))
    except pq.QuakeFormatError:
        return
    nav.areas, nav.reachabilities, nav.graph(), nav.graph(-1)
    assert nav.area(np.array([[0, 0, 0], [1e30, -1e30, 0], [np.nan, 0, 0]])).shape == (3,)


@FUZZ
@given(st.sampled_from(DEMO_SEEDS), st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=8), st.integers(0, 64))
def test_a_broken_demo_reads_or_is_a_format_error(seed, edits, cut):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # a demo cut short warns
        try:
            demo = pq.load_demo(_mutated(seed, edits, cut))
        except pq.QuakeFormatError:
            return
    demo.trajectories(), demo.columns()
    for client in range(demo.data.max_clients):
        assert demo.trajectory(client).positions.shape == (len(demo.times), 3)


@FUZZ
@given(st.lists(st.tuples(st.integers(0, 400), st.integers(0, 255)), max_size=8), st.integers(0, 64))
def test_a_broken_quake3_demo_reads_or_is_a_format_error(edits, cut):
    from fuzzing import Q3_DEMO_TAG
    from fuzzing import exercise
    from fuzzing import q3_demo_seed

    assert exercise(Q3_DEMO_TAG + _mutated(q3_demo_seed(), edits, cut)) in ('loaded', 'rejected')


@FUZZ
@given(
    st.lists(st.tuples(st.integers(0, 20_000), st.integers(0, 255)), max_size=6),
    st.lists(st.floats(allow_nan=True, allow_infinity=True, width=32), min_size=6, max_size=6),
)
def test_a_broken_level_answers_queries_or_is_a_format_error(edits, coordinates):
    data = _mutated(LEVEL, edits, 0)
    try:
        level = pq.load(data)
        level.collision
    except pq.QuakeFormatError:
        return
    a, b = np.array(coordinates[:3])[None], np.array(coordinates[3:])[None]
    level.contents(a), level.cluster(a), level.visible(a, b), level.light(a), level.brushes()
    assert level.trace(a, b, mins=(-15, -15, -24), maxs=(15, 15, 32), mask='player').fraction.shape == (1,)


def test_the_long_fuzz_runs_seeds_tell_navigation_files_and_demos_from_models():
    from fuzzing import exercise
    from fuzzing import navigation_and_demo_seeds

    seeds = navigation_and_demo_seeds()
    assert [exercise(seed) for seed in seeds] == ['loaded'] * len(seeds)
    assert {exercise(seed[: len(seed) // 2]) for seed in seeds} <= {'loaded', 'rejected'}


def test_an_area_box_reaching_infinity_is_drawn_without_arithmetic_on_it():
    data = _mutated(AAS_SEEDS[0], [(387, 127)], 0)  # an area's maxs made infinite: found by the fuzz test above
    nav = pq.load_navigation(data)  # read: the engine reads it
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        areas = nav.areas
    assert np.isinf(areas.points).any() and not np.isnan(areas.points).any()
