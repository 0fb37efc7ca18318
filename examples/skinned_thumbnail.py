"""Render a model with its skin to a PNG thumbnail, offscreen.

Usage::

    python examples/skinned_thumbnail.py [MODEL] [OUT.png]

With no model it renders a synthetic one it makes.  The skin is found where
the game would find it (see ``docs/skins.md``); lighting, the cut-out of
alpha skins and the three-quarter front view come from ``pyvista_quake.thumbnail``.
"""

from __future__ import annotations

import sys

import pyvista_quake as pq
from pyvista_quake.examples import synthetic_model


def main(argv: list[str]) -> int:
    model = pq.load(argv[0]) if argv else synthetic_model()
    out = argv[1] if len(argv) > 1 else 'thumbnail.png'
    pq.thumbnail(model, out, size=(256, 256))
    print(f'wrote {out} ({"with" if model.skin is not None and model.skin_image(model.skin) is not None else "without"} a skin)')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
