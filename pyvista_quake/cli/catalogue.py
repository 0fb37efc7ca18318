"""The ``catalogue`` command: a static site of every model of a game."""

from __future__ import annotations

from pathlib import Path

import pyvista_quake as pq
from pyvista_quake.cli._app import CLI_APP
from pyvista_quake.cli._app import CONSOLE
from pyvista_quake.cli._app import ERRORS
from pyvista_quake.cli._app import GameFlags
from pyvista_quake.cli._app import Jobs
from pyvista_quake.cli._app import OutputFolder
from pyvista_quake.cli._app import load_options


@CLI_APP.command
def catalogue(
    models: list[str],
    /,
    *,
    output: OutputFolder = Path('catalogue'),
    jobs: Jobs = 1,
    size: int = 192,
    title: str | None = None,
    game: GameFlags | None = None,
) -> int:
    """A static site of every model: an index to search and filter, a page per model with the viewer.

    A second run redoes only the models whose files changed.

    Parameters
    ----------
    models
        Game folders, PAK/PK3 files, model folders, files or glob patterns.
    output
        The site's folder (open its index.html, or host it).
    size
        Pixels of each picture.
    title
        The index's title.
    """
    report = pq.catalogue(models, output, jobs=jobs, size=(size, size), title=title, **load_options(game))
    CONSOLE.print(
        f'{len(report.made) + len(report.kept)} models in {output / "index.html"}: {len(report.made)} made, '
        f'{len(report.kept)} unchanged, {len(report.failed)} failed',
        markup=False,
        highlight=False,
    )
    for source, error in report.failed.items():
        ERRORS.print(f'failed: {source}: {error}', markup=False, highlight=False, soft_wrap=True)
    if not report.made and not report.kept and not report.failed:
        raise ValueError(f'no models found in {", ".join(models)}')
    return 1 if report.failed else 0
