"""The ``pyvista-quake`` command line, in the style of PyVista's own (cyclopts and rich).

Every command is a thin layer over the package's functions.  An error is one
line on stderr and exit code 1 (``--debug`` shows the traceback); a batch
reports its failures at the end and exits 1 when any file failed.
"""

from __future__ import annotations

from pathlib import Path
import sys
from typing import Annotated
from typing import Callable
import warnings

from cyclopts import App
from cyclopts import CycloptsError
from cyclopts import Parameter
from rich.console import Console
from rich.table import Table

import pyvista_quake as pq
from pyvista_quake.batch import find_models
from pyvista_quake.engines import ENGINES
from pyvista_quake.engines import verdicts
from pyvista_quake.formats import spec_for
from pyvista_quake.plotting import has_display


class NoDisplayError(RuntimeError):
    """A window was asked for on a machine with no display."""


CONSOLE = Console()
ERRORS = Console(stderr=True)
_debug = False  # --debug: errors raise with their traceback

CLI_APP = App(
    name='pyvista-quake',
    help='Quake (.mdl) and Quake II (.md2) models: look, render, convert.',
    help_format='md',
    version=f'pyvista-quake {pq.__version__}',
    console=CONSOLE,
    error_console=ERRORS,
    result_action='return_value',
)


@CLI_APP.command
def info(models: list[str], /) -> int:
    """Format, header fields, frames, animations and skins of each model.

    Exit code 1 when a model cannot be read (the others are still shown).

    Parameters
    ----------
    models
        Model files, folders (searched recursively) or glob patterns.
    """
    return _each(models, _info)


def _info(path: Path) -> bool:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always', pq.QuakeWarning)
        model = pq.load(path)
        skins = _skins(model)
    table = Table(title=f'{path}', show_header=False, title_justify='left')
    table.add_row('format', f'{model.format.upper()} ({"Quake II" if model.format == "md2" else "Quake"})')
    table.add_row('frames', str(len(model)))
    table.add_row('vertices, triangles', f'{model.data.num_vertices}, {len(model.data.triangle_vertices)}')
    table.add_row('skin size', '{} x {}'.format(*model.skin_size))
    for key, value in model.header.items():
        if key not in ('ident',):
            table.add_row(key, str(value))
    for name, clip in model.animations.items():
        table.add_row(f'animation {name}', f'frames {clip.frames[0]}-{clip.frames[-1]} ({len(clip)}), {clip.duration:.2f} s')
    for line in skins:
        table.add_row('skin', line)
    for warning in caught:
        if 'not found; tried' not in str(warning.message):  # the skin rows say it
            table.add_row('warning', str(warning.message))
    CONSOLE.print(table)
    return True


def _skins(model: pq.QuakeModel) -> list[str]:
    if model.format == 'mdl':
        return [f'{k}: embedded, {len(s.pictures)} picture(s)' for k, s in enumerate(model.data.skins)] or ['none (Quake refuses this)']
    names = model.skin_names or ['(none named: an image with the model\'s name)']
    lines = []
    for k, name in enumerate(names):
        found = model.skin_file(k)
        lines.append(f'{name}: {found.location if found else "MISSING"}')
    return lines


@CLI_APP.command
def check(models: list[str], /) -> int:
    """Which engines would refuse, misdraw or warn about each model, and why.

    Exit code 1 when an engine of the model's game refuses one of them, or a
    model cannot be read at all.

    Parameters
    ----------
    models
        Model files, folders (searched recursively) or glob patterns.
    """
    return _each(models, _check)


def _check(path: Path) -> bool:
    found = pq.check(path)
    with open(path, 'rb') as handle:  # the magic bytes name the format (check() read the file whole)
        fmt = spec_for(handle.read(4), str(path)).name
    table = Table(title=str(path), title_justify='left')
    for column in ('engine', 'verdict', 'why'):
        table.add_column(column)
    refused = False
    for engine, verdict in verdicts(found, fmt).items():
        why = '; '.join(f'{f.field} = {f.value!r}: {f.rule} ({f.where})' for f in found if f.engine == engine)
        table.add_row(ENGINES[engine], verdict, why)
        refused |= verdict == 'refuses'
    CONSOLE.print(table)
    return not refused


def _each(sources: list[str], work: Callable[[Path], bool]) -> int:
    """``work`` on each model of files, folders and patterns; 1 when any failed.

    A model that cannot be read is one ``error:`` line, and the others go on.
    """
    found = [path for path, _ in find_models(sources)]
    if not found:
        raise ValueError(f'no models found in {", ".join(sources)}')
    failed = False
    for path in found:
        try:
            failed |= not work(path)
        except Exception as error:  # noqa: BLE001 - one line for this model, then the next
            if _debug:
                raise
            ERRORS.print(f'error: {type(error).__name__}: {_one_line(str(error))}', markup=False, highlight=False, soft_wrap=True)
            failed = True
    return 1 if failed else 0


@CLI_APP.command
def view(
    model: Path,
    /,
    *,
    frame: int | None = None,
    animation: str | None = None,
    screenshot: Path | None = None,
    lighting: Annotated[str, Parameter(name=['--lighting', '--normals'])] = 'auto',
) -> int:
    """Show a model textured in a window (or write ``--screenshot`` offscreen).

    Parameters
    ----------
    model
        The model file.
    frame
        Frame (of ``--animation`` when given).
    animation
        Animation name.
    screenshot
        Write this PNG offscreen instead of opening a window.
    lighting
        auto, stored or computed normals to light by (``--normals``, its old name, works too).
    """
    if screenshot is None and not has_display():
        raise NoDisplayError('no display: use --screenshot FILE or pyvista-quake thumbnail')
    if screenshot is not None:
        pq.thumbnail(model, screenshot, size=(800, 800), frame=frame, animation=animation, lighting=lighting)
        CONSOLE.print(f'wrote {screenshot}')
        return 0
    pq.plot(model, frame=frame, animation=animation, lighting=lighting)
    return 0


@CLI_APP.command
def thumbnail(
    models: list[str],
    /,
    *,
    output: Annotated[Path, Parameter(name=['--output', '-o'])] = Path('thumbnails'),
    size: int = 256,
    jobs: int = 1,
    transparent: bool = False,
) -> int:
    """Thumbnails of models, folders or glob patterns, with a progress bar.

    Parameters
    ----------
    models
        Model files, folders (searched recursively) or glob patterns.
    output
        Folder for the PNGs (the models' folders are mirrored).
    size
        Width and height in pixels.
    jobs
        Worker processes.
    transparent
        Transparent background.
    """
    report = pq.thumbnails(models, output, jobs=jobs, size=(size, size), progress=True, transparent=transparent)
    CONSOLE.print(f'{len(report.written)} thumbnails in {output}')
    for failure in report.failed:
        ERRORS.print(f'failed: {failure.source}: {failure.error}', markup=False, highlight=False, soft_wrap=True)
    if not report.written and not report.failed:
        raise ValueError(f'no models found in {", ".join(models)}')
    return 1 if report.failed else 0


@CLI_APP.command
def sheet(model: Path, output: Path, /, *, animation: str | None = None, size: int = 192) -> int:
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
    """
    pq.contact_sheet(model, output, animation=animation, cell_size=(size, size))
    CONSOLE.print(f'wrote {output}')
    return 0


@CLI_APP.command
def animate(
    model: Path,
    output: Path,
    /,
    *,
    animation: str | None = None,
    fps: float | None = None,
    interpolate: bool = False,
    size: int = 320,
) -> int:
    """A GIF or MP4 of an animation, timed by its own frame times.

    Parameters
    ----------
    model
        The model file.
    output
        A .gif or .mp4 file.
    animation
        Animation name; the model's first by default.
    fps
        Pictures per second.
    interpolate
        Blend between frames as the engines do.
    size
        Width and height in pixels.
    """
    count = pq.animate(model, output, animation=animation, fps=fps, interpolate=interpolate, size=(size, size))
    CONSOLE.print(f'wrote {output} ({count} pictures)')
    return 0


@CLI_APP.command
def convert(
    model: Path,
    output: Path,
    /,
    *,
    frame: int | None = None,
    animation: str | None = None,
    time: float | None = None,
    overwrite_skins: bool = False,
) -> int:
    """Export to another format: .obj, .ply, .stl, .vtp, .glb, .pvd, .xdmf, .md2, .mdl, meshio's.

    Parameters
    ----------
    model
        The model file.
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
    """
    pq.export(model, output, frame=frame, animation=animation, time=time, overwrite_skins=overwrite_skins,
              progress=sys.stderr.isatty())  # fmt: skip
    CONSOLE.print(f'wrote {output}')
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code.

    Parameters
    ----------
    argv : list of str, optional
        Arguments; ``sys.argv[1:]`` by default.

    """
    global _debug  # noqa: PLW0603 - the one setting the commands read
    tokens = list(sys.argv[1:] if argv is None else argv)
    debug = _debug = '--debug' in tokens
    tokens = [t for t in tokens if t != '--debug']
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning  # one line each, not the source line of the call that warned
            result = CLI_APP(tokens, exit_on_error=False, print_error=False)
    except NoDisplayError as error:
        ERRORS.print(str(error), markup=False, highlight=False, soft_wrap=True)
        return 1
    except CycloptsError as error:
        ERRORS.print(f'error: {_one_line(str(error))}', markup=False, highlight=False, soft_wrap=True)
        return 2
    except SystemExit as exit_:  # --help and --version
        return int(exit_.code or 0)
    except Exception as error:  # noqa: BLE001 - one clear line for the user; --debug for the rest
        if debug:
            raise
        ERRORS.print(f'error: {type(error).__name__}: {_one_line(str(error))}', markup=False, highlight=False, soft_wrap=True)
        return 1
    return int(result) if isinstance(result, int) else 0


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:  # noqa: ARG001 - warnings' signature
    ERRORS.print(f'warning: {_one_line(str(message))}', markup=False, highlight=False, soft_wrap=True)


def _one_line(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return ' '.join(lines) if lines else 'failed'


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
