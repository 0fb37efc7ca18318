"""Play a model's animation offscreen into a GIF, from the reader's time points.

Usage::

    python examples/animation_gif.py path/to/tris.md2 [animation] [out.gif]

With no arguments it animates ``sydney.md2`` from the shared corpus when it
is there.  Works on a machine with no display.
"""

from __future__ import annotations

from pathlib import Path
import sys

import pyvista as pv


def animation_gif(model_path: str | Path, animation: str | None, out: str | Path) -> int:
    """Write one GIF frame per time point of ``animation``; return the number of frames."""
    reader = pv.get_reader(model_path)
    if animation is not None:
        reader.set_active_animation(animation)
    plotter = pv.Plotter(off_screen=True, window_size=(320, 320))
    plotter.open_gif(str(out), fps=int(round(1 / max(reader.time_values[1] - reader.time_values[0], 1e-3)))
                     if reader.number_time_points > 1 else 10)  # fmt: skip
    reader.set_active_time_point(0)
    mesh = reader.read()
    plotter.add_mesh(mesh, color='tan', smooth_shading=True)
    plotter.view_xz()  # Quake's models face +x; look at them from the side
    plotter.camera.azimuth = 45
    for point in range(reader.number_time_points):
        reader.set_active_time_point(point)
        pose = reader.read()  # every frame shares the topology: only points and normals change
        mesh.points = pose.points
        mesh.point_data['Normals'] = pose.point_normals
        plotter.write_frame()
    plotter.close()
    return reader.number_time_points


if __name__ == '__main__':
    default = Path(__file__).resolve().parents[2] / 'shared/corpus/md2/assimp/sydney.md2'
    path = sys.argv[1] if len(sys.argv) > 1 else default
    name = sys.argv[2] if len(sys.argv) > 2 else 'run'
    target = sys.argv[3] if len(sys.argv) > 3 else 'animation.gif'
    frames = animation_gif(path, name, target)
    print(f'wrote {frames} frames of {name!r} to {target}')
