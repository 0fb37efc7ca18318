"""The documentation builds without a warning (the gallery's examples run in test_examples.py)."""

from __future__ import annotations

from pathlib import Path
import re
import subprocess
import sys

import pytest

DOCS = Path(__file__).resolve().parents[1] / 'docs'


def test_sphinx_builds_without_warnings(tmp_path):
    pytest.importorskip('sphinx', reason='the docs extra is not installed')
    pytest.importorskip('sphinx_gallery', reason='the docs extra is not installed')
    result = subprocess.run(
        [sys.executable, '-m', 'sphinx', '-W', '--keep-going', '-b', 'html', '-D', 'plot_gallery=0', '-q', str(DOCS), str(tmp_path / 'html')],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert (tmp_path / 'html' / 'api.html').is_file() and (tmp_path / 'html' / 'engines.html').is_file()


ROOT = DOCS.parent


def test_every_example_the_docs_name_exists():
    texts = [p.read_text() for p in [*DOCS.glob('*.md'), ROOT / 'README.md']]
    named = {m for text in texts for m in re.findall(r'examples/[\w./-]+\.py', text)}
    assert named, 'the docs name examples'
    assert sorted(n for n in named if not (ROOT / n).is_file()) == []


def test_the_readme_names_every_dependency():
    tomllib = pytest.importorskip('tomllib', reason='Python 3.11 reads TOML')
    project = tomllib.loads((ROOT / 'pyproject.toml').read_text())['project']
    names = [re.split(r'[<>=\[ ]', d)[0] for d in project['dependencies']]
    install = (ROOT / 'README.md').read_text().split('## Install and test', 1)[1].split('## ', 1)[0]
    missing = [n for n in names if n.lower() not in install.lower()]
    assert missing == []
    for word in ('.iqm', '.md5mesh', '.bsp'):
        assert word in project['description']
