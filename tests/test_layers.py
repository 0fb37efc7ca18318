"""The package's layers: imports go one way, as pyproject.toml's import-linter contracts say.

CI runs these through the test command, so a change that breaks the layering
(or the code style ruff is configured to) turns the run red.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
import re
import shutil
import subprocess
import sys

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.fail(f'{name} is not installed: python -m pip install -e ".[test]"')
    return found


def test_import_contracts_are_kept():
    result = subprocess.run([_tool('lint-imports'), '--no-cache'], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert 'BROKEN' not in result.stdout and ' kept, 0 broken' in result.stdout


def test_ruff_finds_nothing():
    result = subprocess.run([_tool('ruff'), 'check', '--no-cache', '.'], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_code_is_formatted_as_configured():
    """``ruff format``, configured in pyproject.toml, would change no file; a kept layout is rare and said so."""
    result = subprocess.run([_tool('ruff'), 'format', '--check', '--no-cache', '.'], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    kept = [p for p in ROOT.glob('**/*.py') if 'build' not in p.parts and 'fmt: skip' in p.read_text(encoding='utf-8')]
    assert len(kept) <= 10, kept


def test_the_type_checker_finds_nothing():
    """mypy, configured in pyproject.toml, over the whole package (which ships py.typed)."""
    assert (ROOT / 'pyvista_quake' / 'py.typed').is_file()
    result = subprocess.run([sys.executable, '-m', 'mypy', '--no-incremental'], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert 'Success: no issues found' in result.stdout
    config = (ROOT / 'pyproject.toml').read_text(encoding='utf-8')
    assert 'check_untyped_defs = true' in config  # the bodies of functions without annotations are checked too


def test_no_import_cycle_among_the_modules():
    """Counting imports inside functions too: no module reaches back to one that imports it."""
    graph = grimp.build_graph('pyvista_quake')
    cycles = []
    for module in sorted(graph.modules):
        for imported in graph.find_modules_directly_imported_by(module):
            back = graph.find_shortest_chain(importer=imported, imported=module)
            if back is not None:
                cycles.append((module, *back))
    assert cycles == []


def test_no_deferred_import_of_the_package_itself():
    """A deferred import is for a heavy or optional third-party package, never to dodge a cycle."""
    graph = grimp.build_graph('pyvista_quake')
    deferred = []
    for module in sorted(graph.modules):
        lines = Path(importlib.util.find_spec(module).origin).read_text(encoding='utf-8').splitlines()
        for imported in graph.find_modules_directly_imported_by(module):
            for detail in graph.get_import_details(importer=module, imported=imported):
                number = detail['line_number']
                if lines[number - 1][:1].isspace() and not _for_the_type_checker(lines, number):  # inside a function or class
                    deferred.append((module, imported, number))
    assert deferred == []


def _for_the_type_checker(lines: list[str], number: int) -> bool:
    """Whether line ``number`` sits in an ``if TYPE_CHECKING:`` block: names for mypy, no import at run time."""
    indent = len(lines[number - 1]) - len(lines[number - 1].lstrip())
    for line in reversed(lines[: number - 1]):
        if line.strip() and len(line) - len(line.lstrip()) < indent:
            return line.strip() == 'if TYPE_CHECKING:'
    return False


def test_the_deferred_import_check_sees_an_indented_import(tmp_path, monkeypatch):
    package = tmp_path / 'layered_probe'
    package.mkdir()
    (package / '__init__.py').write_text('')
    (package / 'low.py').write_text('X = 1\n')
    (package / 'high.py').write_text('def f():\n    from layered_probe import low\n    return low.X\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph('layered_probe', cache_dir=None)
    (detail,) = graph.get_import_details(importer='layered_probe.high', imported='layered_probe.low')
    line = (package / 'high.py').read_text().splitlines()[detail['line_number'] - 1]
    assert line[:1].isspace()


def test_only_an_import_for_the_type_checker_is_not_deferred():
    lines = [
        'if TYPE_CHECKING:',
        '    from x import y',
        'def f():',
        '    from x import y',
        'if TYPE_CHECKING:',
        '    if True:',
        '        from x import y',
        'class A:',
        '    if TYPE_CHECKING:',
        '        from x import y',
    ]
    assert [_for_the_type_checker(lines, n) for n in (2, 4, 7, 10)] == [True, False, False, True]


def test_the_formats_import_neither_pyvista_nor_vtk():
    graph = grimp.build_graph('pyvista_quake', include_external_packages=True)
    formats = {m for m in graph.modules if m.startswith('pyvista_quake.formats')}
    reached = set().union(*(graph.find_upstream_modules(m) for m in formats))
    assert not {m for m in reached if m.split('.')[0] in ('pyvista', 'vtk', 'vtkmodules')}
    assert {m for m in reached if m.startswith('pyvista_quake')} <= {
        'pyvista_quake._base',
        'pyvista_quake._base.errors',
        'pyvista_quake._base.warnings',
    } | formats


def test_the_readmes_quick_start_type_checks_and_load_gives_a_quake_model(tmp_path):
    readme = (ROOT / 'README.md').read_text()
    code = readme.split('## Quick start', 1)[1].split('```python\n', 1)[1].split('```', 1)[0]
    script = tmp_path / 'quick_start.py'
    script.write_text(code + '\nreveal_type(model)\nreveal_type(model.positions())\n')
    result = subprocess.run(
        [sys.executable, '-m', 'mypy', '--no-incremental', '--follow-imports=silent', str(script)], cwd=ROOT, capture_output=True, text=True
    )
    assert 'error' not in result.stdout, result.stdout
    assert 'Revealed type is "pyvista_quake.model.quake_model.QuakeModel"' in result.stdout
    assert 'numpy.dtype[numpy.floating[numpy._typing._nbit_base._32Bit]]' in result.stdout or 'float32' in result.stdout


FORMAT_NAMES = ('md2', 'mdl', 'md3', 'iqm', 'md5', 'bsp')


def _source_files(outside: tuple[str, ...]):
    for path in sorted((ROOT / 'pyvista_quake').rglob('*.py')):
        relative = path.relative_to(ROOT / 'pyvista_quake').as_posix()
        if not relative.startswith(outside):
            yield relative, path.read_text()


def test_nothing_outside_the_formats_compares_with_a_formats_name():
    """Format facts live on the registration: no ``== 'md2'``, ``in ('md2', ...)`` or ``!= "iqm"`` anywhere else."""
    names = '|'.join(FORMAT_NAMES)
    comparison = re.compile(rf"""(==|!=|\bin|\bnot in)\s*\(?\s*['"]({names})['"]|['"]({names})['"]\s*(==|!=)""")
    assert comparison.search("if fmt == 'md2':") and comparison.search("x not in ('md2', 'mdl')") and comparison.search('"iqm" != f')
    found = [f'{name}: {line.strip()}' for name, text in _source_files(('formats/',)) for line in text.splitlines() if comparison.search(line)]
    assert found == []


def test_drawing_and_export_ask_the_models_face_not_its_class():
    """At most 4 isinstance checks on the package's own classes outside model/ and formats/."""
    own = {m.group(1) for _, text in _source_files(()) for m in re.finditer(r'^class (\w+)', text, re.M)}
    checks = re.compile(r'isinstance\([^,]+,\s*\(?([\w., ]+)\)?\)')
    assert checks.search('isinstance(model, QuakePlayer)').group(1) == 'QuakePlayer'
    found = [
        f'{name}: {m.group(0)}'
        for name, text in _source_files(('model/', 'formats/'))
        for m in checks.finditer(text)
        if {c.strip().split('.')[-1] for c in m.group(1).split(',')} & own
    ]
    assert len(found) <= 4, found


def test_the_tests_are_laid_out_as_the_package():
    """A folder of tests a folder of the package, its subject; only what is about the whole project at the top."""
    package = {p.name for p in (ROOT / 'pyvista_quake').iterdir() if p.is_dir() and (p / '__init__.py').is_file()}
    folders = {p.name for p in (ROOT / 'tests').iterdir() if p.is_dir() and any(p.glob('test_*.py'))}
    assert folders <= package, folders - package
    assert len(folders) >= 5
    top = sorted(p.name for p in (ROOT / 'tests').glob('test_*.py'))
    assert top == ['test_corpus.py', 'test_docs.py', 'test_examples.py', 'test_layers.py', 'test_resources.py']
    names = [p.stem for p in (ROOT / 'tests').rglob('test_*.py')]
    history = [n for n in names if any(word in n for word in ('fix', 'new_user', 'gaps', 'trial', 'issue', 'round'))]
    assert history == []
