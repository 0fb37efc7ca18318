"""Thumbnails of many models: one render window per worker, worker processes, a report.

:func:`render_thumbnail` is the per-file work: a plain, picklable function
that never raises for a bad model (it returns what went wrong), so the same
function runs in :func:`thumbnails`' process pool, on Dask
(``client.map(render_thumbnail, sources, targets)``) or anywhere else.
Each worker process keeps one offscreen plotter for all its models: a fresh
``Plotter`` per model costs several times the render.
"""

from __future__ import annotations

import collections
from concurrent.futures import FIRST_COMPLETED
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import wait
import contextlib
from dataclasses import dataclass
from dataclasses import field
import fnmatch
import glob
import itertools
import multiprocessing
import multiprocessing.forkserver
import os
from pathlib import Path
from pathlib import PurePosixPath
import re
import sys
from typing import Any
from typing import Iterable
from typing import Iterator
from typing import Sequence
import warnings

import pyvista as pv

from pyvista_quake._base.errors import NothingToDrawError
from pyvista_quake._base.errors import QuakeWarning
from pyvista_quake._base.warnings import warn_external
from pyvista_quake.data.decode import THREADS_VARIABLE
from pyvista_quake.formats import FORMATS
from pyvista_quake.formats import model_extensions
from pyvista_quake.game.archives import is_archive
from pyvista_quake.game.archives import load_order
from pyvista_quake.game.archives import open_archive
from pyvista_quake.game.model_configs import config_in
from pyvista_quake.game.model_configs import config_models
from pyvista_quake.game.sources import Place
from pyvista_quake.model.players import is_player_folder
from pyvista_quake.render.plotting import internal_plotter
from pyvista_quake.render.plotting import thumbnail

_PLOTTERS: dict[tuple[int, int], pv.Plotter] = {}


@dataclass(frozen=True)
class ThumbnailResult:
    """What happened to one model of a batch.

    Attributes
    ----------
    source : str
        The model.
    target : str
        The PNG (written when ``error`` is ``None``).
    error : str or None
        One line saying why the model was not rendered.
    skin_missing : bool
        Whether a skin was not found (the model was rendered untextured).
    skipped : str or None
        Why a model with nothing to draw (an MD3 of tags only) has no picture.

    """

    source: str
    target: str
    error: str | None = None
    skin_missing: bool = False
    skipped: str | None = None


@dataclass
class BatchReport:
    """The outcome of a batch: the thumbnails written and the models that failed."""

    written: list[ThumbnailResult] = field(default_factory=list)
    failed: list[ThumbnailResult] = field(default_factory=list)
    skipped: list[ThumbnailResult] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every model was rendered."""
        return not self.failed


def _file(report: BatchReport, result: ThumbnailResult) -> None:
    (report.failed if result.error else report.skipped if result.skipped else report.written).append(result)


def render_thumbnail(source: str | Path | Place, target: str | Path, size: tuple[int, int] = (256, 256), **options: Any) -> ThumbnailResult:
    """Render one model's thumbnail with this process's plotter; report errors instead of raising.

    Parameters
    ----------
    source : str, pathlib.Path or Place
        The model.
    target : str or pathlib.Path
        The PNG to write (its folder is made).
    size : tuple of int, default: (256, 256)
        Width and height.
    **options
        Keywords of :func:`pyvista_quake.thumbnail`.

    """
    key = (int(size[0]), int(size[1]))
    plotter = _PLOTTERS.get(key)
    if plotter is None:
        if not _PLOTTERS and multiprocessing.parent_process() is None:
            # This process is about to hold an OpenGL context, after which its workers cannot be
            # forked: start the fork server now, so it has imported by the time a batch needs it.
            _start_forkserver()
        plotter = _PLOTTERS[key] = internal_plotter(key)
    try:
        Path(target).parent.mkdir(parents=True, exist_ok=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')  # a missing skin is not a failure; the model renders untextured
            thumbnail(source, target, size=key, plotter=plotter, **options)
    except NothingToDrawError as error:
        return ThumbnailResult(str(source), str(target), skipped=str(error))
    except Exception as error:  # noqa: BLE001 - one bad file never stops a batch
        message = str(error).splitlines()[0] if str(error) else type(error).__name__
        return ThumbnailResult(str(source), str(target), f'{type(error).__name__}: {message}')
    missing = any(issubclass(w.category, QuakeWarning) and ' not found' in str(w.message) for w in caught)
    return ThumbnailResult(str(source), str(target), skin_missing=missing)


def archive_models(archive: Path) -> list[Place]:
    """The models inside a PAK or PK3, each a :class:`~pyvista_quake.game.sources.Place` that :func:`pyvista_quake.load` takes."""
    return [Place(archive, name) for name in sorted(open_archive(archive).names()) if PurePosixPath(name).suffix in model_extensions()]


def game_models(folder: Path) -> list[tuple[Place, Path]]:
    """A game folder's models: the files in its tree, and the members of its PAK/PK3 files.

    Of a member in several archives of one folder, the one the game loads
    (the last in :func:`~pyvista_quake.game.archives.load_order`) counts.
    """
    files: list[Path] = []
    configs: list[Path] = [c for c in [config_in(folder)] if c is not None]
    archives_by_folder: dict[Path, list[Path]] = {}
    config_names = {spec.config for spec in FORMATS.values() if spec.config}
    for p in sorted(folder.rglob('*')):
        if not p.is_file():
            continue
        if p.suffix.lower() in model_extensions():
            files.append(p)
        elif p.name in config_names and p.parent != folder:
            configs.append(p)
        elif is_archive(p):
            archives_by_folder.setdefault(p.parent, []).append(p)
    # A game's models are what its configs build: a mesh only configs load is shown through them.
    built, used = config_models(sorted(set(configs)))
    found = [(Place(p), folder) for p in sorted([*built, *(f for f in files if f.resolve() not in used)])]
    for parent, archives in archives_by_folder.items():
        chosen: dict[str, Place] = {}
        for archive in (parent / name for name in load_order([a.name for a in archives])):
            for member in archive_models(archive):
                chosen[str(member.member)] = member
        found += [(member, folder) for _, member in sorted(chosen.items())]
    return found


def member_models(place: Place) -> list[tuple[Place, Path]]:
    """``ARCHIVE:MEMBER`` as models: the member itself; or, for a folder of the archive
    (``pak0.pk3:models/weapons2``) or a pattern (``…/weapons2/*``), every model below it."""
    archive, member = place.path, str(place.member)
    names = open_archive(archive).names() if archive.is_file() else []
    clean = member.replace('\\', '/').strip('/').lower()
    if clean in names or not names:
        return [(place, archive)]  # a member (or a missing one, which load() names)
    if glob.has_magic(clean):
        below = [n for n in names if fnmatch.fnmatchcase(n, clean) or fnmatch.fnmatchcase(n, f'{clean}/*')]
    else:
        below = [n for n in names if n.startswith(f'{clean}/')]
    models = [n for n in sorted(below) if PurePosixPath(n).suffix in model_extensions()]
    return [(Place(archive, n), archive) for n in models] or [(place, archive)]


def find_models(sources: Iterable[str | Path]) -> list[tuple[Place, Path]]:
    """Models from paths, folders, archives, ``ARCHIVE:MEMBER`` paths and glob patterns, once each.

    A folder is searched recursively, into its PAK/PK3 files too (a game
    folder); an archive gives every model inside it.  Returns ``(model, base)``
    pairs: ``base`` is what the model's thumbnail path is taken relative to
    (the folder given, the fixed part of a pattern, a file's own folder, or
    the archive of a member, whose path inside it is mirrored).
    """
    found: list[tuple[Place, Path]] = []
    for source in sources:
        place = Place.of(source)
        path = place.path
        if place.member is not None:
            found += member_models(place)
        elif path.is_dir():
            found += game_models(path)
        elif is_archive(path):
            found += [(member, path) for member in archive_models(path)]
        elif glob.has_magic(str(path)) and not path.exists():
            fixed = Path(*[part for part in itertools.takewhile(lambda part: not glob.has_magic(part), path.parts)])
            for hit in map(Path, sorted(glob.glob(str(path), recursive=True))):
                if hit.is_dir():  # a folder the pattern names: every model in it (players/l*)
                    found += [(model, fixed) for model, _ in game_models(hit)]
                elif hit.is_file():
                    found.append((Place(hit), fixed))
        else:
            found.append((place, path.parent))
    unique: dict[tuple[Path, str | None], tuple[Place, Path]] = {}
    for p, base in found:
        unique.setdefault((p.path.resolve(), p.member), (p, base))  # the first of each file
    return list(unique.values())


#: A Quake III player's parts: a folder holding them (and ``animation.cfg``) is one player.
PLAYER_PARTS = re.compile(r'^(lower|upper|head)(_\d)?\.md3$', re.IGNORECASE)


def as_players(found: list[tuple[Place, Path]], named: Sequence[str] = ()) -> list[tuple[Place, Path]]:
    """The same models, a player's parts replaced by its folder (``models/players/sarge``), once.

    A part the user names itself (one of ``named``: ``…/sarge/lower.md3``) is drawn alone, as asked.
    """
    out: list[tuple[Place, Path]] = []
    players: set[object] = set()
    asked = {str(Place.of(name)) for name in named}
    for place, base in found:
        if str(place) in asked:
            out.append((place, base))
            continue
        folder = place.parent
        # A part with no folder in its name (lower.md3 by itself, at an archive's top) is drawn alone.
        named = folder.member if folder.member is not None else str(place.path.parent)
        if PLAYER_PARTS.match(place.name) and named not in ('.', '/'):
            # One player per folder of the game: its parts may lie in several of its archives.
            key = (folder.path.parent, folder.member.lower()) if folder.member is not None else folder.path
            if key in players:
                continue
            if is_player_folder(folder):
                players.add(key)
                out.append((folder, base))
                continue
        out.append((place, base))
    return out


def targets_for(models: Sequence[tuple[Place, Path]], out_dir: str | Path) -> list[Path]:
    """A PNG per model under ``out_dir``, mirroring its folders below its base.

    (Quake II names every model ``tris.md2``: flat names would collide.)  A file given by
    itself is named after its folder when its name says nothing (a Cube 2 ``iqm.cfg``), and put
    under its folder's name when another file of its name came first; names that still collide
    get ``_1``, ``_2``...
    """
    out_dir = Path(out_dir)
    targets: list[Path] = []
    taken: set[Path] = set()
    for place, base in models:
        path, inside = place.path, place.member
        if inside is None:
            relative = path.relative_to(base)
            if not relative.name:  # the folder given is the model itself (a player's folder)
                relative = Path(path.resolve().name or 'model')
        else:  # a member: its path inside the archive (below the archive's folder when base is a game folder)
            above = path.parent.relative_to(base) if path.parent.is_relative_to(base) else Path()
            relative = above / Path(*PurePosixPath(inside).parts)
        if inside is None and len(relative.parts) == 1 and relative.suffix.lower() == '.cfg':
            relative = Path(path.resolve().parent.name or 'model')  # actors/drone/iqm.cfg is the drone
        target = out_dir / relative.with_suffix('.png')
        if target in taken and inside is None and len(relative.parts) == 1 and path.resolve().parent.name:
            target = out_dir / path.resolve().parent.name / relative.with_suffix('.png').name  # what tells them apart: their folder
        number = 0
        candidate = target
        while candidate in taken:
            number += 1
            candidate = target.with_name(f'{target.stem}_{number}.png')
        taken.add(candidate)
        targets.append(candidate)
    return targets


def thumbnails(
    sources: Iterable[str | Path],
    out_dir: str | Path,
    jobs: int | None = None,
    size: tuple[int, int] = (256, 256),
    progress: bool = False,
    **options: Any,
) -> BatchReport:
    """Render a thumbnail of every model; failures are reported, never raised.

    Parameters
    ----------
    sources : iterable of path
        Model files, folders (searched recursively) or glob patterns.
    out_dir : str or pathlib.Path
        Where the PNGs go, mirroring the models' folders.
    jobs : int, optional
        Worker processes; in this process by default.
    size : tuple of int, default: (256, 256)
        Width and height.
    progress : bool, default: False
        Show a progress bar (rich).
    **options
        Keywords of :func:`pyvista_quake.thumbnail` (``transparent``, ``lighting``, ``skin``...).

    Returns
    -------
    BatchReport
        The thumbnails written and the models that failed, with why.

    """
    sources = list(sources)
    found = as_players(find_models(sources), [str(s) for s in sources])  # a player's folder renders as one posed player
    return render_all([path for path, _ in found], targets_for(found, out_dir), jobs, size, progress, **options)


def render_all(
    models: Sequence[Place | Path],
    targets: list[Path],
    jobs: int | None = None,
    size: tuple[int, int] = (256, 256),
    progress: bool = False,
    **options: Any,
) -> BatchReport:
    """Render each of ``models`` to its target PNG, as :func:`thumbnails` does (the same workers and report)."""
    report = BatchReport()
    results = _run(models, targets, jobs, size, options)
    if progress:
        from rich.progress import Progress  # noqa: PLC0415 - rich comes with PyVista

        with Progress(transient=True) as bar:
            task = bar.add_task('thumbnails', total=len(models))
            for result in results:
                _file(report, result)
                bar.advance(task)
    else:
        for result in results:
            _file(report, result)
    return report


def _run(models: Sequence[Place | Path], targets: list[Path], jobs: int | None, size, options: dict):
    if not jobs or jobs <= 1 or len(models) <= 1:
        for source, target in zip(models, targets):
            yield render_thumbnail(source, target, size, **options)
        return
    context = _context()
    if context.get_start_method() != 'fork' and _unguarded_script():
        # Spawned workers import the script again, which would start this batch again:
        # Python's bootstrapping error.  Render here instead, and say what to add.
        warn_external(
            'thumbnails(jobs>1) after this process has rendered starts fresh worker processes, which re-run a '
            "script: put the script's code under `if __name__ == '__main__':` to use them; rendering on one "
            'process instead'
        )
        yield from _run(models, targets, 1, size, options)
        return
    if context.get_start_method() != 'fork':
        with _main_from_a_file():
            yield from _run_shared(models, targets, jobs, size, options, context)
        return
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_worker_setup) as pool:
        chunk = max(1, min(4, len(models) // (8 * jobs)))  # small chunks: models differ in cost
        yield from pool.map(_render_task, [(s, t, size, options) for s, t in zip(models, targets)], chunksize=chunk)


#: Models queued a worker ahead of the ones it renders, so none waits while this process renders its own.
QUEUED_A_WORKER = 4


def _run_shared(models: Sequence[Place | Path], targets: list[Path], jobs: int, size, options: dict, context):
    """This process renders too, beside ``jobs - 1`` fresh workers: it has rendered already (which is why
    its workers cannot be forked), so its plotter is warm while theirs start.  Results come as they finish."""
    tasks = collections.deque(zip(models, targets))
    pending: set = set()
    with ProcessPoolExecutor(max_workers=jobs - 1, mp_context=context, initializer=_worker_setup) as pool:

        def feed() -> None:
            while tasks and len(pending) < QUEUED_A_WORKER * (jobs - 1):
                source, target = tasks.popleft()
                pending.add(pool.submit(_render_task, (source, target, size, options)))

        feed()
        while tasks or pending:
            for future in [f for f in pending if f.done()]:
                pending.discard(future)
                yield future.result()
            feed()
            if tasks:
                source, target = tasks.pop()  # from the other end than the workers' queue
                yield render_thumbnail(source, target, size, **options)
            elif pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    pending.discard(future)
                    yield future.result()


#: What a fork server imports once, before it forks the workers of every later batch: the
#: package and the rendering modules a first plotter imports (0.6 s here), none of which
#: makes an OpenGL context, so forking after them is safe.
FORKSERVER_PRELOAD = [
    'pyvista_quake.render.batch',
    'pyvista.plotting.plotter',
    'vtkmodules.vtkRenderingOpenGL2',
    'vtkmodules.vtkRenderingFreeType',
    'vtkmodules.vtkInteractionStyle',
    'vtkmodules.vtkRenderingContextOpenGL2',
]


def _context() -> multiprocessing.context.BaseContext:
    """Fork where it is safe (POSIX, no render window open here), so a script needs no ``__main__`` guard.

    A forked copy of a process holding an OpenGL context is not safe.  Then
    the workers come from a fork server: a clean process, started once, that
    has imported PyVista, VTK and this package and forks each worker from
    there (spawned workers would import them afresh, each).  Where there is
    no fork server (Windows), they are spawned.  Either way a script needs
    the usual guard (see :func:`_unguarded_script`).
    """
    from pyvista.plotting.plotter import _ALL_PLOTTERS  # noqa: PLC0415 - a private name, looked up when used

    methods = multiprocessing.get_all_start_methods()
    if 'fork' in methods and not _ALL_PLOTTERS and not _PLOTTERS:
        return multiprocessing.get_context('fork')
    if 'forkserver' in methods:
        context = multiprocessing.get_context('forkserver')
        context.set_forkserver_preload(FORKSERVER_PRELOAD)
        return context
    return multiprocessing.get_context('spawn')


def _start_forkserver() -> None:
    """Start the fork server (a clean process that imports the package and the rendering modules, then
    forks each worker of a later ``jobs > 1`` batch): it imports while this process goes on.  It is one
    idle process until a batch needs it, and ends with this process."""
    if 'forkserver' not in multiprocessing.get_all_start_methods():
        return
    context = multiprocessing.get_context('forkserver')
    context.set_forkserver_preload(FORKSERVER_PRELOAD)
    try:
        multiprocessing.forkserver.ensure_running()
    except (OSError, RuntimeError, ValueError):  # noqa: PERF203 - never let a warm-up fail a batch
        pass


@contextlib.contextmanager
def _main_from_a_file() -> Iterator[None]:
    """While fresh workers start: a ``__main__`` whose ``__file__`` is no file (``python - < script.py``
    gives ``<stdin>``) does not name it, or multiprocessing makes each worker run that missing file."""
    main = sys.modules.get('__main__')
    path = getattr(main, '__file__', None)
    if main is None or not path or Path(path).is_file():
        yield
        return
    del main.__file__
    try:
        yield
    finally:
        main.__file__ = path


def _unguarded_script() -> bool:
    """Whether the running script would start this batch again in a fresh worker process, which imports it:
    a ``__main__`` with a file, whose text has no ``if __name__ == '__main__':`` guard."""
    main = sys.modules.get('__main__')
    path = getattr(main, '__file__', None)
    if not path:
        return False  # an interactive session, a notebook or python -c: workers do not re-run it
    try:
        text = Path(path).read_text(encoding='utf-8', errors='replace')
    except OSError:
        return False
    return _MAIN_GUARD.search(text) is None


_MAIN_GUARD = re.compile(r"""^\s*if\s+(__name__\s*==\s*['"]__main__['"]|['"]__main__['"]\s*==\s*__name__)""", re.MULTILINE)


def _worker_setup() -> None:
    """One rendering and one decoding thread per worker: Mesa's software renderer (and a
    long animation's decoding) otherwise spreads each worker over every core, and the
    workers fight for them."""
    os.environ.setdefault('LP_NUM_THREADS', '1')
    os.environ.setdefault(THREADS_VARIABLE, '1')


def _render_task(task: tuple) -> ThumbnailResult:
    source, target, size, options = task
    return render_thumbnail(source, target, size, **options)
