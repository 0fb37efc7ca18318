"""The ``convert`` command: export to another format."""

from __future__ import annotations

from pathlib import Path
import sys

import pyvista_quake as pq
from pyvista_quake.cli._app import CLI_APP
from pyvista_quake.cli._app import CONSOLE
from pyvista_quake.cli._app import ModelFile
from pyvista_quake.cli._app import ModelFlags
from pyvista_quake.cli._app import load_options


@CLI_APP.command
def convert(
    model: ModelFile,
    output: Path,
    /,
    *,
    frame: int | None = None,
    animation: str | None = None,
    time: float | None = None,
    overwrite_skins: bool = False,
    game: ModelFlags | None = None,
    quantize: bool = False,
) -> int:
    """Export to another format: .obj, .ply, .stl, .vtp, .glb, .pvd, .xdmf, .md2, .mdl, .md3, .html (a page that plays it), meshio's.

    Parameters
    ----------
    output
        The file to write; the format follows its extension.
    frame
        One frame (of ``--animation`` when given).
    animation
        An animation: its frames for series formats.
    time
        The pose at this time of ``--animation``.
    overwrite_skins
        Let an .md2's skin image (named after it) replace a file that holds another image.
    quantize
        glTF (.glb, .gltf): positions and their morph displacements as int16, normals as bytes
        (KHR_mesh_quantization), about half the size. Pages (.html) are quantised always.
    """
    extra = {'quantize': True} if quantize else {}
    pq.export(
        model,
        output,
        frame=frame,
        animation=animation,
        time=time,
        overwrite_skins=overwrite_skins,
        progress=sys.stderr.isatty(),
        **extra,
        **load_options(game),
    )
    CONSOLE.print(f'wrote {output}')
    return 0
