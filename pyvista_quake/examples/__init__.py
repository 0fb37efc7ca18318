"""Models to try things on, as :mod:`pyvista.examples` gives meshes.

Two small, freely licensed models ship with the package (their licences
beside them in ``examples/data``), and :func:`synthetic_model` makes one
anywhere:

- :func:`load_wizard`: LibreQuake's Scrag (``progs/wizard.mdl``), a Quake
  MDL with its embedded skin, 54 frames; BSD-3-Clause (``data/librequake/COPYING.txt``).
- :func:`load_dolphin`: a Quake II MD2 with its skin beside it, animations
  ``glide`` and ``jump``; by Elias Tsiantas, "free for any use"
  (``data/telias/LICENSE.txt``).

Examples
--------
>>> from pyvista_quake import examples
>>> model = examples.load_dolphin()
>>> sorted(model.animations)
['glide', 'jump']

"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyvista_quake.examples._synthetic import synthetic_model

DATA = Path(__file__).parent / 'data'

#: The shipped model files.
WIZARD = DATA / 'librequake' / 'progs' / 'wizard.mdl'
DOLPHIN = DATA / 'telias' / 'dolphin.md2'

__all__ = ['DOLPHIN', 'WIZARD', 'load_dolphin', 'load_wizard', 'synthetic_model']


def load_wizard(**options: Any):
    """LibreQuake's Scrag, a Quake MDL (54 frames, embedded skin); options of :func:`pyvista_quake.load`."""
    from pyvista_quake.loading import load  # noqa: PLC0415

    return load(WIZARD, **options)


def load_dolphin(**options: Any):
    """A Quake II MD2 dolphin with its skin beside it (``glide``, ``jump``); options of :func:`pyvista_quake.load`.

    Its skin is named by its author's own disk path; the image lies beside
    the model, where the skin search finds it by its last component.
    """
    from pyvista_quake.loading import load  # noqa: PLC0415

    return load(DOLPHIN, **options)
