"""Shared fixtures: the real-model corpus (skipped where ``../shared`` is absent)."""

from __future__ import annotations

import json
import os
from pathlib import Path
import shutil
import subprocess
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


requires_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason=f'the real-model corpus is not at {CORPUS} (a plain clone has no ../shared)')


def pytest_sessionstart(session) -> None:
    """Under CI a missing corpus is an error, not 179 silent skips."""
    if os.environ.get('CI', '').strip().lower() in ('true', '1', 'yes') and not CORPUS.is_dir():
        pytest.exit(f'CI is set but the real-model corpus is not at {CORPUS}; the corpus tests would all skip', returncode=3)


# -- the Khronos glTF validator (test_export, test_skeletal) -------------------------------------

VALIDATE_JS = """
const fs = require('fs');
const path = require('path');
const validator = require('gltf-validator');
const file = process.argv[2];
validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {uri: path.basename(file), maxIssues: 100})
  .then((report) => console.log(JSON.stringify(report.issues)))
  .catch((error) => { console.error(error); process.exit(2); });
"""


@pytest.fixture(scope='session')
def gltf_validator() -> Path:
    """The Khronos glTF validator, installed from npm once into a cache folder."""
    if shutil.which('node') is None or shutil.which('npm') is None:
        pytest.skip('node and npm are needed for the Khronos glTF validator')
    folder = Path(os.environ.get('XDG_CACHE_HOME', Path.home() / '.cache')) / 'pyvista-quake-tests' / 'gltf-validator'
    folder.mkdir(parents=True, exist_ok=True)
    if not (folder / 'node_modules' / 'gltf-validator').is_dir():
        result = subprocess.run(
            ['npm', 'install', '--silent', '--prefix', str(folder), 'gltf-validator'], capture_output=True, text=True, timeout=300
        )
        if result.returncode != 0:
            pytest.skip(f'npm install gltf-validator failed: {result.stderr[-300:]}')
    (folder / 'validate.js').write_text(VALIDATE_JS)
    return folder


def validate(folder: Path, path: Path) -> dict:
    result = subprocess.run(['node', str(folder / 'validate.js'), str(path)], capture_output=True, text=True, cwd=folder, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)
