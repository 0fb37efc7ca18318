"""Play a model's animation into a GIF, offscreen.

Usage::

    python examples/animation_gif.py [MODEL] [ANIMATION] [OUT.gif]

With no model it animates a synthetic one it makes.  The GIF is timed by the
animation's own frame times; no display is needed.
"""

from __future__ import annotations

import sys

import pyvista_quake as pq
from pyvista_quake.examples import synthetic_model


def main(argv: list[str]) -> int:
    model = pq.load(argv[0]) if argv else synthetic_model()
    animation = argv[1] if len(argv) > 1 else None  # None: the model's first animation
    out = argv[2] if len(argv) > 2 else 'animation.gif'
    count = pq.animate(model, out, animation=animation)
    print(f'wrote {count} pictures of {animation or next(iter(model.animations), "every frame")!r} to {out}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
