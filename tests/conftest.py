"""Shared fixtures: the real-model corpus (skipped where ``../shared`` is absent)."""

from __future__ import annotations

import os
from pathlib import Path
import sys

# Render through Mesa's EGL: no display, no X warnings.
os.environ.setdefault('VTK_DEFAULT_OPENGL_WINDOW', 'vtkEGLRenderWindow')

import pytest
import pyvista as pv

sys.path.insert(0, str(Path(__file__).parent))

pv.OFF_SCREEN = True

CORPUS = Path(__file__).resolve().parents[1].parent / 'shared' / 'corpus'


def corpus_models() -> list[Path]:
    """Every model file of the corpus, or an empty list where it is absent."""
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob('*') if p.suffix.lower() in ('.md2', '.mdl'))


requires_corpus = pytest.mark.skipif(
    not CORPUS.is_dir(), reason=f'the real-model corpus is not at {CORPUS} (a plain clone has no ../shared)'
)


def pytest_sessionstart(session) -> None:
    """Under CI a missing corpus is an error, not 179 silent skips."""
    if os.environ.get('CI', '').strip().lower() in ('true', '1', 'yes') and not CORPUS.is_dir():
        pytest.exit(f'CI is set but the real-model corpus is not at {CORPUS}; the corpus tests would all skip', returncode=3)
