"""The ``pyvista-quake`` command line, in the style of PyVista's own (cyclopts and rich).

Every command is a thin layer over the package's functions.  An error is one
line on stderr and exit code 1 (``--debug`` shows the traceback); a batch
reports its failures at the end and exits 1 when any file failed.
"""

from __future__ import annotations

import json as json_module
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
from pyvista_quake.engines import findings
from pyvista_quake.engines import verdicts
from pyvista_quake.formats import parse_buffer
from pyvista_quake.formats import spec_for
from pyvista_quake.plotting import has_display
from pyvista_quake.sources import read_source


class NoDisplayError(RuntimeError):
    """A window was asked for on a machine with no display."""


# Not a terminal (a pipe, a file): no wrapping, so a script never gets a name cut in two.
CONSOLE = Console() if sys.stdout.isatty() else Console(width=100_000, soft_wrap=True)
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


#: ``--search-path`` (repeatable) and ``--palette``: the load options every command that reads models takes.
SearchPaths = Annotated[list[Path] | None, Parameter(name='--search-path', negative='')]


def _load_options(search_path: list[Path] | None, palette: Path | None) -> dict:
    """The load options the command-line flags give (the environment's PYVISTA_QUAKE_PATH still counts)."""
    options: dict = {}
    if search_path:
        options['search_paths'] = list(search_path)
    if palette is not None:
        options['palette'] = palette
    return options


@CLI_APP.command
def info(
    models: list[str], /, *, json: bool = False, search_path: SearchPaths = None, palette: Path | None = None, verbose: bool = False
) -> int:
    """Format, header fields, frames, animations and skins of each model.

    Exit code 1 when a model cannot be read (the others are still shown).

    Parameters
    ----------
    models
        Model files, folders (their PAK/PK3 files too), PAK/PK3 files, ARCHIVE:MEMBER paths or glob patterns.
    json
        Print one JSON document: a list with an entry per model.
    search_path
        A game folder or PAK/PK3 file to find skins in (repeatable).
    palette
        A palette.lmp for MDL skins.
    verbose
        Name the models whose skin is missing in the summary.
    """
    options = _load_options(search_path, palette)
    return _each(models, lambda path: _info(path, options), json, 'info', verbose)


def _info(path: Path, options: dict) -> dict:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always', pq.QuakeWarning)
        model = pq.load(path, **options)
        skins = _skins(model)
    if isinstance(model, pq.SurfaceModel):
        counts = {'surfaces': model.surface_names, 'tags': list(model.tags),
                  'vertices': sum(s.num_vertices for s in model.data.surfaces),
                  'triangles': sum(len(s.triangles) for s in model.data.surfaces), 'skin_size': None}  # fmt: skip
    else:
        counts = {'vertices': model.data.num_vertices, 'triangles': len(model.data.triangle_vertices), 'skin_size': list(model.skin_size)}
    return {
        'model': str(path),
        'format': model.format,
        'frames': len(model),
        **counts,
        'header': {k: _plain(v) for k, v in model.header.items() if k != 'ident'},
        'animations': {name: {'first': int(clip.frames[0]), 'last': int(clip.frames[-1]), 'frames': len(clip),
                              'duration': float(clip.duration)} for name, clip in model.animations.items()},  # fmt: skip
        'skins': skins,
        'warnings': [str(w.message) for w in caught if 'not found; tried' not in str(w.message)],  # the skin rows say it
        'ok': True,
    }


def _info_table(record: dict) -> Table:
    table = Table(title=record['model'], show_header=False, title_justify='left')
    game = {'md2': 'Quake II', 'mdl': 'Quake', 'md3': 'Quake III'}[record['format']]
    table.add_row('format', f'{record["format"].upper()} ({game})')
    table.add_row('frames', str(record['frames']))
    table.add_row('vertices, triangles', f'{record["vertices"]}, {record["triangles"]}')
    if record['skin_size'] is not None:
        table.add_row('skin size', '{} x {}'.format(*record['skin_size']))
    if 'surfaces' in record:
        table.add_row('surfaces', ', '.join(record['surfaces']))
        table.add_row('tags', ', '.join(record['tags']) or 'none')
    for key, value in record['header'].items():
        table.add_row(key, str(value))
    for name, clip in record['animations'].items():
        table.add_row(f'animation {name}', f'frames {clip["first"]}-{clip["last"]} ({clip["frames"]}), {clip["duration"]:.2f} s')
    for skin in record['skins']:
        table.add_row('skin', f'{skin["name"]}: {skin["location"] or "MISSING"}' if skin['location'] != 'embedded' else skin['name'])
    for warning in record['warnings']:
        table.add_row('warning', warning)
    return table


def _plain(value):
    """A header value as JSON takes it."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, bytes):
        return value.decode('latin-1')
    return value.item() if hasattr(value, 'item') else value


def _skins(model) -> list[dict]:
    if isinstance(model, pq.SurfaceModel):
        return [{'name': f'{surface}: {name}', 'location': found.location if (found := model.surface_skin(k)) else None}
                for k, (surface, name) in enumerate(zip(model.surface_names, model.image_names)) if name is not None]  # fmt: skip
    if model.format == 'mdl':
        embedded = [{'name': f'{k}: embedded, {len(s.pictures)} picture(s)', 'location': 'embedded'} for k, s in enumerate(model.data.skins)]
        return embedded or [{'name': 'none (Quake refuses this)', 'location': None}]
    names = model.skin_names or ["(none named: an image with the model's name)"]
    return [{'name': name, 'location': found.location if (found := model.skin_file(k)) else None} for k, name in enumerate(names)]


@CLI_APP.command
def check(models: list[str], /, *, json: bool = False) -> int:
    """Which engines would refuse, misdraw or warn about each model, and why.

    Exit code 1 when an engine of the model's game refuses one of them, or a
    model cannot be read at all.

    Parameters
    ----------
    models
        Model files, folders (their PAK/PK3 files too), PAK/PK3 files, ARCHIVE:MEMBER paths or glob patterns.
    json
        Print one JSON document: a list with an entry per model, its findings
        with ``engine``, ``rule``, ``field``, ``value``, ``effect``.
    """
    return _each(models, _check, json, 'check')


def _check(path: Path) -> dict:
    buffer, name, _ = read_source(path)  # read once: the magic bytes name the format, the records the findings
    spec = spec_for(buffer, name)
    fmt = spec.name
    found = findings(parse_buffer(buffer, name, spec), len(buffer))
    verdict = verdicts(found, fmt)
    return {
        'model': str(path),
        'format': fmt,
        'verdicts': verdict,
        'findings': [{'engine': f.engine, 'rule': f.rule, 'field': f.field, 'value': _plain(f.value), 'effect': f.effect,
                      'where': f.where} for f in found],  # fmt: skip
        'ok': 'refuses' not in verdict.values(),
    }


def _check_table(record: dict) -> Table:
    table = Table(title=record['model'], title_justify='left')
    for column in ('engine', 'verdict', 'why'):
        table.add_column(column)
    for engine, verdict in record['verdicts'].items():
        why = '; '.join(f'{f["field"]} = {f["value"]!r}: {f["rule"]} ({f["where"]})' for f in record['findings'] if f['engine'] == engine)
        table.add_row(ENGINES[engine], verdict, why)
    return table


def _each(sources: list[str], work: Callable[[Path], dict], as_json: bool, kind: str, verbose: bool = False) -> int:
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
            if _debug:
                raise
            record = {'model': str(path), 'ok': False, 'error': f'{type(error).__name__}: {_one_line(str(error))}'}
            if not as_json:
                ERRORS.print(f'error: {record["error"]}', markup=False, highlight=False, soft_wrap=True)
        else:
            if not as_json:
                CONSOLE.print(_info_table(record) if kind == 'info' else _check_table(record))
        records.append(record)
    if as_json:
        print(json_module.dumps(records, indent=1))
    else:
        CONSOLE.print(_summary(records, kind, verbose), soft_wrap=True, markup=False, highlight=False)
    return 0 if all(r['ok'] for r in records) else 1


def _summary(records: list[dict], kind: str, verbose: bool = False) -> str:
    """One line: models read and failed; skins missing (info) or how many each engine refuses (check)."""
    failed = sum('error' in r for r in records)
    line = f'{len(records) - failed} models read, {failed} failed'
    if kind == 'info':
        missing = [r['model'] for r in records if 'error' not in r and any(s['location'] is None for s in r['skins'])]
        line += f', {len(missing)} with a skin missing'
        if verbose and missing:
            line += ': ' + ', '.join(missing)
    else:
        refusals = {engine: sum(r.get('verdicts', {}).get(engine) == 'refuses' for r in records) for engine in ENGINES}
        line += '; refused by ' + ', '.join(f'{engine} {count}' for engine, count in refusals.items())
    return line


@CLI_APP.command
def view(
    model: Path,
    /,
    *,
    frame: int | None = None,
    animation: str | None = None,
    screenshot: Path | None = None,
    lighting: Annotated[str, Parameter(name=['--lighting', '--normals'])] = 'auto',
    search_path: SearchPaths = None,
    palette: Path | None = None,
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
    search_path
        A game folder or PAK/PK3 file to find skins in (repeatable).
    palette
        A palette.lmp for MDL skins.
    """
    options = _load_options(search_path, palette)
    if screenshot is None and not has_display():
        raise NoDisplayError('no display: use --screenshot FILE or pyvista-quake thumbnail')
    if screenshot is not None:
        pose = {'frame': frame, 'animation': animation} if frame is not None or animation is not None else {}
        pq.thumbnail(model, screenshot, size=(800, 800), lighting=lighting, **pose, **options)
        CONSOLE.print(f'wrote {screenshot}')
        return 0
    pq.plot(pq.load(model, **options), frame=frame, animation=animation, lighting=lighting)
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
    frame: int | None = None,
    animation: str | None = None,
    search_path: SearchPaths = None,
    palette: Path | None = None,
    verbose: bool = False,
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
    frame
        This frame (of ``--animation`` when given) instead of the rest pose.
    animation
        This animation's first frame (or ``--frame``) instead of the rest pose.
    search_path
        A game folder or PAK/PK3 file to find skins in (repeatable).
    palette
        A palette.lmp for MDL skins.
    verbose
        Name the models whose skin is missing.
    """
    pose = {k: v for k, v in (('frame', frame), ('animation', animation)) if v is not None}
    report = pq.thumbnails(models, output, jobs=jobs, size=(size, size), progress=sys.stderr.isatty(), transparent=transparent,
                           **pose, **_load_options(search_path, palette))  # fmt: skip
    missing = [r.source for r in report.written if r.skin_missing]
    line = f'{len(report.written)} thumbnails in {output}, {len(report.failed)} failed, {len(missing)} with a skin missing'
    CONSOLE.print(line + (': ' + ', '.join(missing) if verbose and missing else ''), markup=False, highlight=False)
    for failure in report.failed:
        ERRORS.print(f'failed: {failure.source}: {failure.error}', markup=False, highlight=False, soft_wrap=True)
    if not report.written and not report.failed:
        raise ValueError(f'no models found in {", ".join(models)}')
    return 1 if report.failed else 0


@CLI_APP.command
def sheet(
    model: Path, output: Path, /, *, animation: str | None = None, size: int = 192, search_path: SearchPaths = None, palette: Path | None = None
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
    """
    pq.contact_sheet(model, output, animation=animation, cell_size=(size, size), **_load_options(search_path, palette))
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
    search_path: SearchPaths = None,
    palette: Path | None = None,
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
    search_path
        A game folder or PAK/PK3 file to find skins in (repeatable).
    palette
        A palette.lmp for MDL skins.
    """
    count = pq.animate(model, output, animation=animation, fps=fps, interpolate=interpolate, size=(size, size),
                       **_load_options(search_path, palette))  # fmt: skip
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
    search_path: SearchPaths = None,
    palette: Path | None = None,
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
    search_path
        A game folder or PAK/PK3 file to find skins in (repeatable).
    palette
        A palette.lmp for MDL skins.
    """
    pq.export(model, output, frame=frame, animation=animation, time=time, overwrite_skins=overwrite_skins,
              progress=sys.stderr.isatty(), **_load_options(search_path, palette))  # fmt: skip
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
