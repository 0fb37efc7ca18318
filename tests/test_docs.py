"""The documentation builds without a warning (the gallery's examples run in test_examples.py)."""

from __future__ import annotations

from pathlib import Path
import subprocess
import sys

import pytest

DOCS = Path(__file__).resolve().parents[1] / 'docs'


def test_sphinx_builds_without_warnings(tmp_path):
    pytest.importorskip('sphinx', reason='the docs extra is not installed')
    pytest.importorskip('sphinx_gallery', reason='the docs extra is not installed')
    result = subprocess.run(
        [sys.executable, '-m', 'sphinx', '-W', '--keep-going', '-b', 'html', '-D', 'plot_gallery=0', '-q',
         str(DOCS), str(tmp_path / 'html')],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    assert (tmp_path / 'html' / 'api.html').is_file() and (tmp_path / 'html' / 'engines.html').is_file()
