"""What every command shares: the app, its consoles, the load-option flags and the loop over models."""

from __future__ import annotations

from dataclasses import dataclass
import json as json_module
from pathlib import Path
import sys
from typing import Annotated
from typing import Callable

from cyclopts import App
from cyclopts import Parameter
from rich.console import Console
from rich.table import Table

import pyvista_quake as pq
from pyvista_quake.game.engines import ENGINES
from pyvista_quake.game.skins import read_palette
from pyvista_quake.game.sources import Place
from pyvista_quake.render.batch import find_models


class NoDisplayError(RuntimeError):
    """A window was asked for on a machine with no display."""


# Not a terminal (a pipe, a file): no wrapping, so a script never gets a name cut in two.
CONSOLE = Console() if sys.stdout.isatty() else Console(width=100_000, soft_wrap=True)
ERRORS = Console(stderr=True)


class _State:
    debug = False  # --debug: errors raise with their traceback


STATE = _State()

CLI_APP = App(
    name='pyvista-quake',
    help='Quake (.mdl), Quake II (.md2), Quake III (.md3), Inter-Quake (.iqm) and Doom 3 (.md5mesh) models, '
    "and the games' levels (.bsp: Quake, Quake II, Quake III, UFO: AI): look, render, check, convert.",
    help_format='md',
    version=f'pyvista-quake {pq.__version__}',
    console=Console(),  # help is read by people: wrapped at the terminal's width (or $COLUMNS, else 80)
    error_console=ERRORS,
    result_action='return_value',
)


#: The one model file a command reads (its first argument).
ModelFile = Annotated[Path, Parameter(help='The model file.')]

#: ``--size``: a picture's width and height.
PictureSize = Annotated[int, Parameter(help='Width and height in pixels.')]

#: ``--output``/``-o``: the folder a batch command writes into.
OutputFolder = Annotated[Path, Parameter(name=['--output', '-o'])]

#: ``--jobs``: worker processes for a batch's pictures.
Jobs = Annotated[int, Parameter(help='Worker processes for the pictures.')]


#: ``--search-path`` (repeatable): a game folder or archive to find files in.
SearchPaths = Annotated[list[Path] | None, Parameter(name='--search-path', negative='')]


#: ``--animations FILE...``: animation files (``.md5anim``, IQM poses) to attach to a skeletal model.
AnimationFiles = Annotated[list[Path] | None, Parameter(name='--animations', negative='', consume_multiple=True)]


@Parameter(name='*')
@dataclass
class GameFlags:
    """Where the game's files are: the flags of every command that reads models.

    Parameters
    ----------
    search_path
        A game folder or PAK/PK3 file to find skins in (repeatable).
    palette
        A palette.lmp for MDL skins.
    """

    search_path: SearchPaths = None
    palette: Path | None = None


@Parameter(name='*')
@dataclass
class ModelFlags(GameFlags):
    """The game's files, and animation files for a skeletal model: the flags of the commands on one model.

    Parameters
    ----------
    animations
        Animation files (.md5anim, IQM poses) to attach to a skeletal model, after its own.
    """

    animations: AnimationFiles = None


def load_options(game: GameFlags | None) -> dict:
    """The load options the command-line flags give (the environment's PYVISTA_QUAKE_PATH still counts)."""
    options: dict = {}
    animations = getattr(game, 'animations', None)
    if animations:
        options['animations'] = list(animations)
    if game is not None and game.search_path:
        options['search_paths'] = list(game.search_path)
    if game is not None and game.palette is not None:
        options['palette'] = read_palette(game.palette)  # read (and refused) once for the run, not once per model
    return options


def each(sources: list[str], work: Callable[[Place], dict], table: Callable[[dict], Table], as_json: bool, kind: str, verbose: bool = False) -> int:
    """``work`` on each model of files, folders, archives and patterns; 1 when any failed.

    A model that cannot be read is one ``error:`` line (an entry with its
    ``error`` in JSON), and the others go on.  Plain output ends with a summary line.
    """
    found = [path for path, _ in find_models(sources)]
    if not found:
        raise ValueError(f'no models found in {", ".join(sources)}')
    records = []
    for path in found:
        try:
            record = work(path)
        except Exception as error:  # noqa: BLE001 - one line for this model, then the next
            if STATE.debug:
                raise
            record = {'model': str(path), 'ok': False, 'error': f'{type(error).__name__}: {one_line(str(error))}'}
            if not as_json:
                ERRORS.print(f'error: {record["error"]}', markup=False, highlight=False, soft_wrap=True)
        else:
            if not as_json:
                _print_table(table(record))
        records.append(record)
    if as_json:
        print(json_module.dumps(records, indent=1))
    else:
        CONSOLE.print(summary(records, kind, verbose), soft_wrap=True, markup=False, highlight=False)
    return 0 if all(r['ok'] for r in records) else 1


def _print_table(table: Table) -> None:
    """A model's table: its name whole on a line of its own (never cut, even into a pipe), then the table wrapped at
    the terminal's width, or $COLUMNS, else 80 columns into a pipe, as --help is (a script reads --json); a long
    value (a path) is folded, not cut short."""
    if table.title is not None:
        CONSOLE.print(str(table.title), soft_wrap=True, markup=False, highlight=False)
        table.title = None
    for column in table.columns:
        column.overflow = 'fold'
    Console().print(table)


def summary(records: list[dict], kind: str, verbose: bool = False) -> str:
    """One line: models read and failed; skins missing (info) or how many each engine refuses (check)."""
    failed = sum('error' in r for r in records)
    line = f'{len(records) - failed} models read, {failed} failed'
    if kind == 'info':
        missing = [r['model'] for r in records if 'error' not in r and any(s['location'] is None for s in r['skins'])]
        line += f', {len(missing)} with a skin missing'
        if verbose and missing:
            line += ': ' + ', '.join(missing)
    else:
        # The engines of the formats read (every engine when none was).
        seen = [engine for engine in ENGINES if any(engine in r.get('verdicts', {}) for r in records)] or list(ENGINES)
        refusals = {engine: sum(r.get('verdicts', {}).get(engine) == 'refuses' for r in records) for engine in seen}
        line += '; refused by ' + ', '.join(f'{engine} {count}' for engine, count in refusals.items())
    return line


def plain(value):
    """A header value as JSON takes it."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, bytes):
        return value.decode('latin-1')
    return value.item() if hasattr(value, 'item') else value


def one_line(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return ' '.join(lines) if lines else 'failed'
