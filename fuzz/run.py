"""Long fuzz run of the readers: coverage-guided with atheris, or hypothesis without it.

Usage (from the repository's root)::

    python fuzz/run.py --minutes 10 --seed 1 --out fuzz-failures

Every input must load (and build its frames, arrays and GL-command mesh) or
raise ``QuakeFormatError`` with a message; anything else is a finding, saved
under ``--out``.  At the end it prints inputs tried, loaded and rejected.
Seeds are the synthetic models, levels, navigation files and demos of ``tests/fuzzing.py`` and,
where ``../shared/corpus`` exists, the real models, the maps up to 1 MB, and the navigation files
and demos up to 200 kB; a level is also asked its collision, visibility and light queries.
"""

from __future__ import annotations

import argparse
from collections import Counter
import hashlib
import os
from pathlib import Path
import sys
import tempfile
import time

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'tests'))


def seeds() -> list[bytes]:
    from fuzzing import navigation_and_demo_seeds  # noqa: PLC0415
    from fuzzing import synthetic_seeds  # noqa: PLC0415

    found = synthetic_seeds() + navigation_and_demo_seeds()
    corpus = ROOT.parent / 'shared' / 'corpus'
    if corpus.is_dir():
        found += [
            p.read_bytes()
            for p in sorted(corpus.rglob('*'))
            if p.suffix.lower() in ('.md2', '.mdl', '.md3', '.iqm', '.md5mesh') and p.stat().st_size < 200_000
        ]
        found += real_levels(corpus)
        found += [p.read_bytes() for p in sorted(corpus.rglob('*')) if p.suffix.lower() in ('.aas', '.dem') and p.stat().st_size < 200_000]
    return found


def real_levels(corpus: Path, limit: int = 1_000_000) -> list[bytes]:
    """The corpus's maps (inside their PK3s) up to ``limit`` bytes."""
    import zipfile  # noqa: PLC0415

    out = []
    for archive in sorted((corpus / 'bsp').glob('*.pk3')):
        with zipfile.ZipFile(archive) as pk3:
            out += [pk3.read(i) for i in pk3.infolist() if i.filename.lower().endswith('.bsp') and i.file_size <= limit]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--minutes', type=float, default=5.0)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--out', type=Path, default=ROOT / 'fuzz-failures')
    parser.add_argument('--engine', choices=['auto', 'atheris', 'hypothesis'], default='auto')
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    engine = args.engine
    if engine == 'auto':
        try:
            import atheris  # noqa: F401, PLC0415

            engine = 'atheris'
        except ImportError:
            engine = 'hypothesis'
    print(f'fuzzing with {engine} for {args.minutes:g} min, seed {args.seed}; findings go to {args.out}/', flush=True)
    return run_atheris(args) if engine == 'atheris' else run_hypothesis(args)


def run_atheris(args) -> int:
    import atheris  # noqa: PLC0415

    with atheris.instrument_imports(include=['pyvista_quake']):
        import pyvista_quake  # noqa: F401, PLC0415
    import warnings  # noqa: PLC0415

    from fuzzing import exercise  # noqa: PLC0415

    warnings.simplefilter('ignore')
    counts: Counter[str] = Counter()
    start = time.monotonic()

    def report() -> None:
        total = sum(counts.values())
        print(
            f'\ninputs tried {total}, loaded {counts["loaded"]}, rejected (QuakeFormatError) {counts["rejected"]}, '
            f'in {time.monotonic() - start:.0f} s',
            flush=True,
        )

    deadline = start + 60 * args.minutes

    def one_input(data: bytes) -> None:
        counts[exercise(data)] += 1  # anything but loaded/rejected propagates: a finding
        if time.monotonic() > deadline:  # libFuzzer's own exit skips Python's atexit
            report()
            os._exit(0)

    corpus_dir = Path(tempfile.mkdtemp(prefix='pyvista-quake-fuzz-'))
    for number, seed in enumerate(seeds()):
        (corpus_dir / f'seed{number:03d}').write_bytes(seed)
    argv = [
        sys.argv[0],
        str(corpus_dir),
        f'-seed={args.seed}',
        f'-max_total_time={int(args.minutes * 60) + 30}',
        f'-artifact_prefix={args.out}{os.sep}',
        '-max_len=1048576',
        '-rss_limit_mb=8192',
        '-print_final_stats=1',
    ]
    atheris.Setup(argv, one_input)
    atheris.Fuzz()
    return 0


def run_hypothesis(args) -> int:
    import random  # noqa: PLC0415
    import warnings  # noqa: PLC0415

    from fuzzing import INT_EXTREMES  # noqa: PLC0415
    from fuzzing import exercise  # noqa: PLC0415
    from fuzzing import set_int  # noqa: PLC0415

    warnings.simplefilter('ignore')
    rng = random.Random(args.seed)
    pool = seeds()
    counts: Counter[str] = Counter()
    deadline = time.monotonic() + 60 * args.minutes
    failures = 0
    while time.monotonic() < deadline:
        data = bytearray(rng.choice(pool))
        for _ in range(rng.randint(1, 4)):
            kind = rng.random()
            if kind < 0.3:
                data = data[: rng.randint(0, len(data))]
            elif kind < 0.7 and len(data) >= 4:
                value = rng.choice(INT_EXTREMES) if rng.random() < 0.5 else rng.randint(-(2**31), 2**31 - 1)
                data = bytearray(set_int(bytes(data), rng.randrange(0, len(data) - 3), value))
            elif data:
                data[rng.randrange(len(data))] = rng.randrange(256)
        try:
            counts[exercise(bytes(data))] += 1
        except Exception as error:  # noqa: BLE001 - a finding: save it and go on
            failures += 1
            name = args.out / f'crash-{hashlib.sha1(data).hexdigest()[:16]}'
            name.write_bytes(bytes(data))
            print(f'finding: {type(error).__name__}: {error} -> {name}', flush=True)
    total = sum(counts.values()) + failures
    print(f'inputs tried {total}, loaded {counts["loaded"]}, rejected (QuakeFormatError) {counts["rejected"]}, findings {failures}')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
