"""The ``sheet`` command: a contact sheet."""

from __future__ import annotations

from pathlib import Path

import pyvista_quake as pq
from pyvista_quake.cli._app import CLI_APP
from pyvista_quake.cli._app import CONSOLE
from pyvista_quake.cli._app import ModelFile
from pyvista_quake.cli._app import ModelFlags
from pyvista_quake.cli._app import load_options


@CLI_APP.command
def sheet(model: ModelFile, output: Path, /, *, animation: str | None = None, size: int = 192, game: ModelFlags | None = None) -> int:
    """A contact sheet: a cell per animation, or per frame of ``--animation``.

    Parameters
    ----------
    output
        The PNG to write.
    animation
        One animation: a cell per frame.
    size
        Pixels of each cell.
    """
    pq.contact_sheet(model, output, animation=animation, cell_size=(size, size), **load_options(game))
    CONSOLE.print(f'wrote {output}')
    return 0
