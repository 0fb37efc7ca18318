"""A seeded sample of small mutants of the package, and whether the test suite kills each.

Usage (from the repository's root; needs ``../shared/corpus`` for the full suite)::

    python dev/mutants.py --seed 1 --count 40 [--tests "tests -x -q"] [--files "decode.py"] [--since REV]

Each mutant changes one token of one line of ``pyvista_quake/`` (a comparison
flipped, ``+``/``-`` or ``*``/``/`` swapped, an integer constant moved by one,
``True``/``False``, ``and``/``or``, a condition negated), runs the tests on
it, and restores the file.  Prints every mutant with its fate and the kill
rate.  Nothing here is part of the test suite.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
import random
import re
import subprocess
import sys

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / 'pyvista_quake'

SWAPS = [
    (r'(?<![<>=!])<(?![<=])', '<='),
    (r'<=', '<'),
    (r'(?<![<>=!-])>(?![>=])', '>='),
    (r'>=', '>'),
    (r'==', '!='),
    (r'!=', '=='),
    (r'(?<=\s)\+(?=\s)', '-'),
    (r'(?<=\s)-(?=\s)', '+'),
    (r'(?<=\s)\*(?=\s)', '/'),
    (r'\bTrue\b', 'False'),
    (r'\bFalse\b', 'True'),
    (r'\band\b', 'or'),
    (r'\bor\b', 'and'),
    (r'\bif (?!not )', 'if not '),
]
NUMBER = re.compile(r'(?<![\w.])(\d+)(?![\w.])')


def changed_lines(since: str) -> dict[Path, set[int]]:
    """The package's lines (0-based) added or changed since the git revision ``since``."""
    diff = subprocess.run(['git', 'diff', '-U0', since, '--', str(PACKAGE)], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    out: dict[Path, set[int]] = {}
    path = None
    for line in diff.splitlines():
        if line.startswith('+++ '):
            path = ROOT / line[6:] if line[4:] != '/dev/null' else None
        elif line.startswith('@@') and path is not None:
            start, _, count = line.split('+', 1)[1].split(' ', 1)[0].partition(',')
            first = int(start) - 1
            out.setdefault(path.resolve(), set()).update(range(first, first + int(count or 1)))
    return out


def candidates(pattern: str = '*.py', only: dict[Path, set[int]] | None = None) -> list[tuple[Path, int, str]]:
    """Every (file, line, mutated line) of code lines (not docstrings, comments or imports).

    ``only``: lines to keep per file (see :func:`changed_lines`).
    """
    out = []
    for path in sorted(PACKAGE.rglob(pattern)):
        keep = None if only is None else only.get(path.resolve(), set())
        in_doc = False
        for number, line in enumerate(path.read_text().splitlines()):
            stripped = line.strip()
            if stripped.count('"""') % 2:
                in_doc = not in_doc
                continue
            if stripped.startswith(('"""', 'r"""')):  # a one-line docstring
                continue
            if in_doc or not stripped or stripped.startswith(('#', 'import ', 'from ', '@', 'def ', 'class ', 'return f')):
                continue
            if keep is not None and number not in keep:
                continue
            code = line.split('  #')[0]
            for pattern, replacement in SWAPS:
                for match in re.finditer(pattern, code):
                    out.append((path, number, code[: match.start()] + replacement + code[match.end() :]))
            for match in NUMBER.finditer(code):
                value = int(match.group(1))
                out.append((path, number, code[: match.start()] + str(value + 1) + code[match.end() :]))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--count', type=int, default=40)
    parser.add_argument('--tests', default='tests -x -q -p no:warnings')
    parser.add_argument('--files', default='*.py', help='which modules to mutate, a glob under pyvista_quake/')
    parser.add_argument('--since', help='mutate only the lines changed since this git revision')
    args = parser.parse_args()
    pool = candidates(args.files, changed_lines(args.since) if args.since else None)
    print(f'{len(pool)} candidate mutants', flush=True)
    sample = random.Random(args.seed).sample(pool, min(args.count, len(pool)))
    killed = 0
    for path, number, mutated in sample:
        original = path.read_text()
        lines = original.splitlines(keepends=True)
        lines[number] = mutated + '\n'
        path.write_text(''.join(lines))
        try:
            # PYTHONPATH: tests that run the package in a subprocess (the command line) import this copy too.
            env = {**os.environ, 'PYTHONPATH': str(ROOT)}
            result = subprocess.run(
                [sys.executable, '-m', 'pytest', *args.tests.split()], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900
            )
            dead = result.returncode != 0
        except subprocess.TimeoutExpired:
            dead = True  # a hang is caught too
        finally:
            path.write_text(original)
        killed += dead
        print(f'{"killed  " if dead else "SURVIVED"} {path.relative_to(ROOT)}:{number + 1}: {mutated.strip()}', flush=True)
    if not sample:
        print('\nno line changed here has an operator, constant or condition to mutate')
        return 0
    print(f'\n{killed} of {len(sample)} mutants killed: {100 * killed / len(sample):.0f}%')
    return 0


if __name__ == '__main__':
    sys.exit(main())
