"""The ``view`` command: a model in a window, or a screenshot offscreen."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated
from typing import Any

from cyclopts import Parameter

import pyvista_quake as pq
from pyvista_quake.cli._app import CLI_APP
from pyvista_quake.cli._app import CONSOLE
from pyvista_quake.cli._app import ModelFile
from pyvista_quake.cli._app import ModelFlags
from pyvista_quake.cli._app import NoDisplayError
from pyvista_quake.cli._app import load_options
from pyvista_quake.render.plotting import has_display


@CLI_APP.command
def view(
    model: ModelFile,
    /,
    *,
    frame: int | None = None,
    animation: str | None = None,
    screenshot: Path | None = None,
    lighting: Annotated[str, Parameter(name=['--lighting', '--normals'])] = 'auto',
    game: ModelFlags | None = None,
) -> int:
    """Show a model textured in a window (or write ``--screenshot`` offscreen).

    Parameters
    ----------
    frame
        Frame (of ``--animation`` when given).
    animation
        Animation name.
    screenshot
        Write this PNG offscreen instead of opening a window.
    lighting
        auto, stored or computed normals to light by (``--normals``, its old name, works too).
    """
    options = load_options(game)
    if screenshot is None and not has_display():
        raise NoDisplayError('no display: use --screenshot FILE or pyvista-quake thumbnail')
    if screenshot is not None:
        pose: dict[str, Any] = {'frame': frame, 'animation': animation} if frame is not None or animation is not None else {}
        pq.thumbnail(model, screenshot, size=(800, 800), lighting=lighting, **pose, **options)
        CONSOLE.print(f'wrote {screenshot}')
        return 0
    pq.plot(pq.load(model, **options), frame=frame, animation=animation, lighting=lighting)
    return 0
