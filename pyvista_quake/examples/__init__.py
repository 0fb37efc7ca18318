"""Models to try things on, as :mod:`pyvista.examples` gives meshes.

Three small, freely licensed real models ship with the package (see
``data/README.md``): :func:`load_dolphin` (Quake II, MD2 with its skin),
:func:`load_wizard` (Quake, MDL) and :func:`load_eye` (an IQM skeletal model).  :func:`sample_model` gives a model file of
either format -- these shipped ones -- and :func:`synthetic_model` makes a
small animated, textured model anywhere.

Examples
--------
>>> from pyvista_quake import examples
>>> model = examples.load_dolphin()
>>> path = examples.sample_model('mdl')
>>> creature = examples.synthetic_model('mdl')

"""

from __future__ import annotations

import os
from pathlib import Path
import tempfile

from pyvista_quake.examples._synthetic import synthetic_level
from pyvista_quake.examples._synthetic import synthetic_model
from pyvista_quake.examples._synthetic import synthetic_player
from pyvista_quake.model.loading import load
from pyvista_quake.model.quake_model import QuakeModel

#: The folder of the sample models shipped with the package.
DATA = Path(__file__).resolve().parent / 'data'
#: The shipped real models, by format.
SHIPPED_MODELS = {'md2': DATA / 'dolphin' / 'dolphin.md2', 'mdl': DATA / 'wizard' / 'wizard.mdl'}
#: The same models inside the corpus (tests compare the shipped copies with them).
CORPUS_MODELS = {'md2': 'md2/assimp/dolphin.md2', 'mdl': 'mdl/librequake/progs/wizard.mdl'}
#: The shipped skeletal model: Red Eclipse's eye vanity (IQM, its ``iqm.cfg`` and skin), and its place in the corpus.
SHIPPED_SKELETAL = DATA / 'eye' / 'mesh.iqm'
CORPUS_SKELETAL = 'iqm/redeclipse/vanities/eye/mesh.iqm'
#: Environment variable naming the corpus folder.
CORPUS_VARIABLE = 'PYVISTA_QUAKE_CORPUS'

__all__ = [
    'CORPUS_MODELS',
    'CORPUS_SKELETAL',
    'SHIPPED_MODELS',
    'SHIPPED_SKELETAL',
    'corpus',
    'load_dolphin',
    'load_eye',
    'load_wizard',
    'sample_level',
    'sample_navigation_level',
    'sample_model',
    'sample_player',
    'synthetic_level',
    'synthetic_model',
    'synthetic_player',
]


def load_dolphin(**options) -> QuakeModel:
    """The dolphin: a Quake II model (MD2) with its skin, shipped with the package.

    ``options`` are :func:`pyvista_quake.load`'s.  From the Open Asset Import
    Library's test models, "free for any use" (see ``examples/data/README.md``).

    Examples
    --------
    >>> from pyvista_quake import examples
    >>> model = examples.load_dolphin()
    >>> model.format
    'md2'

    """
    return load(SHIPPED_MODELS['md2'], **options)


def load_wizard(**options) -> QuakeModel:
    """The Scrag (``wizard.mdl``): an animated Quake model (MDL), skin embedded, shipped with the package.

    ``options`` are :func:`pyvista_quake.load`'s.  From LibreQuake,
    BSD-3-Clause (see ``examples/data/README.md``).

    Examples
    --------
    >>> from pyvista_quake import examples
    >>> model = examples.load_wizard()
    >>> model.format
    'mdl'

    """
    return load(SHIPPED_MODELS['mdl'], **options)


def load_eye(**options) -> QuakeModel:
    """Red Eclipse's eye vanity: a skeletal Inter-Quake Model (IQM) of two joints, shipped with the package.

    Loaded from its folder, as the game assembles it: its ``iqm.cfg`` gives the
    skin and the animations (``idle``, ``crouch``... all the file's ``rotate``,
    at 10 fps).  CC-BY-SA 3.0 or later, the Red Eclipse Team (see
    ``examples/data/README.md``).  ``options`` are :func:`pyvista_quake.load`'s.

    Examples
    --------
    >>> from pyvista_quake import examples
    >>> model = examples.load_eye()
    >>> model.format, [joint.name for joint in model.skeletal.joints]
    ('iqm', ['base', 'inner'])

    """
    return load(SHIPPED_SKELETAL.parent, **options)


def corpus() -> Path | None:
    """The real-model corpus: ``PYVISTA_QUAKE_CORPUS``, or ``shared/corpus`` beside the working folder
    or the package's checkout; ``None`` when there is none."""
    candidates = [os.environ.get(CORPUS_VARIABLE, '')]
    for start in (Path.cwd(), Path(__file__).resolve().parent):
        candidates += [str(folder / 'shared' / 'corpus') for folder in (start, *start.parents)]
    return next((Path(c) for c in candidates if c and Path(c).is_dir()), None)


def sample_model(format: str = 'md2') -> Path:
    """A model file of that format to try things on: a real one shipped with the package.

    Where the package's data is missing (a trimmed install), a real one from
    the corpus (see :func:`corpus`), else :func:`synthetic_model` saved (with
    its skin) to a cache folder.

    Parameters
    ----------
    format : str, default: 'md2'
        ``'md2'`` or ``'mdl'``.

    """
    if format not in SHIPPED_MODELS:
        raise ValueError(f"format must be 'md2' or 'mdl', not {format!r}")
    if SHIPPED_MODELS[format].is_file():
        return SHIPPED_MODELS[format]
    found = corpus()
    if found is not None and (found / CORPUS_MODELS[format]).is_file():
        return found / CORPUS_MODELS[format]
    folder = Path(tempfile.gettempdir()) / 'pyvista-quake-examples'
    path = folder / f'creature.{format}'
    if not path.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        synthetic_model(format).save(path)
    return path


#: The corpus's Quake III player (OpenArena's Sarge, GPL-2+: not shipped with the package).
CORPUS_PLAYER = 'md3/openarena/models/players/sarge'


def sample_player() -> Path:
    """A Quake III player folder: the corpus's (OpenArena's Sarge) where the corpus is, else
    :func:`synthetic_player` written to a cache folder (OpenArena's models are GPL: not shipped)."""
    found = corpus()
    if found is not None and (found / CORPUS_PLAYER / 'animation.cfg').is_file():
        return found / CORPUS_PLAYER
    folder = Path(tempfile.gettempdir()) / 'pyvista-quake-examples' / 'players' / 'synthetic'
    if not (folder / 'animation.cfg').is_file():
        synthetic_player(folder)
    return folder


#: The corpus's textured, lightmapped Quake III map (OpenArena's community pack, GPL-2+: not shipped), as ``ARCHIVE:MEMBER``.
CORPUS_LEVEL = ('bsp/oacmp1-oacmpdm3.pk3', 'maps/oacmpdm3.bsp')


def sample_level() -> str:
    """A Quake III level: the corpus's OpenArena map (``ARCHIVE:MEMBER``, textured and lightmapped) where
    the corpus is, else :func:`synthetic_level` written to a cache folder (OpenArena's maps are GPL: not shipped)."""
    found = corpus()
    if found is not None and (found / CORPUS_LEVEL[0]).is_file():
        return f'{found / CORPUS_LEVEL[0]}:{CORPUS_LEVEL[1]}'
    folder = Path(tempfile.gettempdir()) / 'pyvista-quake-examples' / 'levels' / 'synthetic'
    path = folder / 'room.bsp'
    if not path.is_file():
        synthetic_level(folder)
    return str(path)


def sample_navigation_level() -> Path:
    """DeepMind Lab's T-maze (``em_tmaze_a1.bsp``, a Quake III map built by q3map2) and its bots' navigation file
    beside it (``maps/em_tmaze_a1.aas``), shipped with the package (CC BY 4.0, DeepMind Lab's assets)."""
    return DATA / 'tmaze' / 'maps' / 'em_tmaze_a1.bsp'
