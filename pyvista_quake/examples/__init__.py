"""Models to try things on, as :mod:`pyvista.examples` gives meshes.

No model files ship with the package: :func:`synthetic_model` makes a small
animated, textured model anywhere, and :func:`sample_model` gives a model
file -- a real one from ``shared/corpus`` where that folder is beside the
checkout (or named by ``PYVISTA_QUAKE_CORPUS``), else the synthetic model
saved to a cache folder.

Examples
--------
>>> from pyvista_quake import examples
>>> path = examples.sample_model('md2')
>>> model = examples.synthetic_model('mdl')

"""

from __future__ import annotations

import os
from pathlib import Path
import tempfile

from pyvista_quake.examples._synthetic import synthetic_model

#: The real models :func:`sample_model` prefers, by format (paths inside the corpus).
CORPUS_MODELS = {'md2': 'md2/assimp/dolphin.md2', 'mdl': 'mdl/librequake/progs/wizard.mdl'}
#: Environment variable naming the corpus folder.
CORPUS_VARIABLE = 'PYVISTA_QUAKE_CORPUS'

__all__ = ['CORPUS_MODELS', 'corpus', 'sample_model', 'synthetic_model']


def corpus() -> Path | None:
    """The real-model corpus: ``PYVISTA_QUAKE_CORPUS``, or ``shared/corpus`` beside the working folder
    or the package's checkout; ``None`` when there is none."""
    candidates = [os.environ.get(CORPUS_VARIABLE, '')]
    for start in (Path.cwd(), Path(__file__).resolve().parent):
        candidates += [str(folder / 'shared' / 'corpus') for folder in (start, *start.parents)]
    return next((Path(c) for c in candidates if c and Path(c).is_dir()), None)


def sample_model(format: str = 'md2') -> Path:
    """A model file of that format to try things on.

    A real one from the corpus when there is one (see :func:`corpus`), else
    :func:`synthetic_model` saved (with its skin) to a cache folder.

    Parameters
    ----------
    format : str, default: 'md2'
        ``'md2'`` or ``'mdl'``.

    """
    if format not in CORPUS_MODELS:
        raise ValueError(f"format must be 'md2' or 'mdl', not {format!r}")
    found = corpus()
    if found is not None and (found / CORPUS_MODELS[format]).is_file():
        return found / CORPUS_MODELS[format]
    folder = Path(tempfile.gettempdir()) / 'pyvista-quake-examples'
    path = folder / f'creature.{format}'
    if not path.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        synthetic_model(format).save(path)
    return path
