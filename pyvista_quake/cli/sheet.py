"""The ``sheet`` command: a contact sheet."""

from __future__ import annotations

from pathlib import Path

import pyvista_quake as pq
from pyvista_quake.cli._app import CLI_APP
from pyvista_quake.cli._app import CONSOLE
from pyvista_quake.cli._app import AnimationFiles
from pyvista_quake.cli._app import SearchPaths
from pyvista_quake.cli._app import load_options


@CLI_APP.command
def sheet(
    model: Path, output: Path, /, *, animation: str | None = None, size: int = 192, search_path: SearchPaths = None, palette: Path | None = None, animations: AnimationFiles = None
) -> int:
    """A contact sheet: a cell per animation, or per frame of ``--animation``.

    Parameters
    ----------
    model
        The model file.
    output
        The PNG to write.
    animation
        One animation: a cell per frame.
    size
        Pixels of each cell.
    search_path
        A game folder or PAK/PK3 file to find skins in (repeatable).
    palette
        A palette.lmp for MDL skins.
    animations
        Animation files (.md5anim, IQM poses) to attach to a skeletal model, after its own.
    """
    pq.contact_sheet(model, output, animation=animation, cell_size=(size, size), **load_options(search_path, palette, animations))
    CONSOLE.print(f'wrote {output}')
    return 0
