"""The ``animate`` command: a GIF or MP4."""

from __future__ import annotations

from pathlib import Path

import pyvista_quake as pq
from pyvista_quake.cli._app import CLI_APP
from pyvista_quake.cli._app import CONSOLE
from pyvista_quake.cli._app import ModelFile
from pyvista_quake.cli._app import ModelFlags
from pyvista_quake.cli._app import PictureSize
from pyvista_quake.cli._app import load_options


@CLI_APP.command
def animate(
    model: ModelFile,
    output: Path,
    /,
    *,
    animation: str | None = None,
    fps: float | None = None,
    interpolate: bool = False,
    size: PictureSize = 320,
    game: ModelFlags | None = None,
) -> int:
    """A GIF or MP4 of an animation, timed by its own frame times.

    Parameters
    ----------
    output
        A .gif or .mp4 file.
    animation
        Animation name; the model's first by default.
    fps
        Pictures per second.
    interpolate
        Blend between frames as the engines do.
    """
    count = pq.animate(model, output, animation=animation, fps=fps, interpolate=interpolate, size=(size, size), **load_options(game))
    CONSOLE.print(f'wrote {output} ({count} pictures)')
    return 0
