"""Render a model with its skin to a PNG thumbnail, offscreen.

Usage::

    python examples/skinned_thumbnail.py path/to/tris.md2 [out.png]

With no arguments it renders ``progs/player.mdl`` from the shared corpus
when it is there.  The skin is found where the game would find it (see
``docs/skins.md``) and travels with the mesh: ``mesh.quake.texture``.
"""

from __future__ import annotations

from pathlib import Path
import sys

import pyvista as pv


def thumbnail(model_path: str | Path, out: str | Path, size: int = 256) -> bool:
    """Write a PNG of frame 0 with its skin; return whether a skin was found."""
    mesh = pv.read(model_path)
    texture = mesh.quake.texture
    plotter = pv.Plotter(off_screen=True, window_size=(size, size))
    if texture is not None:
        plotter.add_mesh(mesh, texture=texture, smooth_shading=True)
    else:
        plotter.add_mesh(mesh, color='tan', smooth_shading=True)
    plotter.view_xz()  # Quake's models face +x; look at them from the side
    plotter.camera.azimuth = 45
    plotter.screenshot(str(out))
    plotter.close()
    return texture is not None


if __name__ == '__main__':
    default = Path(__file__).resolve().parents[2] / 'shared/corpus/mdl/librequake/progs/player.mdl'
    path = sys.argv[1] if len(sys.argv) > 1 else default
    target = sys.argv[2] if len(sys.argv) > 2 else 'thumbnail.png'
    skinned = thumbnail(path, target)
    print(f'wrote {target} ({"with" if skinned else "without"} its skin)')
