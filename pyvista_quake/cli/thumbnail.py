"""The ``thumbnail`` command: thumbnails of models, folders, archives and games."""

from __future__ import annotations

from pathlib import Path
import sys

import pyvista_quake as pq
from pyvista_quake.cli._app import CLI_APP
from pyvista_quake.cli._app import CONSOLE
from pyvista_quake.cli._app import ERRORS
from pyvista_quake.cli._app import Jobs
from pyvista_quake.cli._app import ModelFlags
from pyvista_quake.cli._app import OutputFolder
from pyvista_quake.cli._app import PictureSize
from pyvista_quake.cli._app import load_options


@CLI_APP.command
def thumbnail(
    models: list[str],
    /,
    *,
    output: OutputFolder = Path('thumbnails'),
    size: PictureSize = 256,
    jobs: Jobs = 1,
    transparent: bool = False,
    frame: int | None = None,
    animation: str | None = None,
    game: ModelFlags | None = None,
    verbose: bool = False,
) -> int:
    """Thumbnails of models, folders or glob patterns, with a progress bar.

    Parameters
    ----------
    models
        Model files, folders (searched recursively) or glob patterns.
    output
        Folder for the PNGs (the models' folders are mirrored).
    transparent
        Transparent background.
    frame
        This frame (of ``--animation`` when given) instead of the rest pose.
    animation
        This animation's first frame (or ``--frame``) instead of the rest pose.
    verbose
        Name the models whose skin is missing.
    """
    pose = {k: v for k, v in (('frame', frame), ('animation', animation)) if v is not None}
    report = pq.thumbnails(
        models, output, jobs=jobs, size=(size, size), progress=sys.stderr.isatty(), transparent=transparent, **pose, **load_options(game)
    )
    missing = [r.source for r in report.written if r.skin_missing]
    line = f'{len(report.written)} thumbnails in {output}, {len(report.failed)} failed, {len(missing)} with a skin missing'
    line += ': ' + ', '.join(missing) if verbose and missing else ''
    if report.skipped:
        line += f'; {len(report.skipped)} with nothing to draw (tags or animations only)'
    CONSOLE.print(line, markup=False, highlight=False)
    for failure in report.failed:
        ERRORS.print(f'failed: {failure.source}: {failure.error}', markup=False, highlight=False, soft_wrap=True)
    if not report.written and not report.failed and not report.skipped:
        raise ValueError(f'no models found in {", ".join(models)}')
    return 1 if report.failed else 0
