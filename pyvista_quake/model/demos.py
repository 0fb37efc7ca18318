"""Demos as data: who went where and when, as trajectories, tables and PolyData.

:func:`load_demo` reads a Quake demo (``.dem``, protocols 15 and 666; Quake III's
``.dm_68``/``.dm_70``/``.dm_71`` are not read yet) into a :class:`Demo`: the map, the
players and their names, the time of every timed message, each client's trajectory
(its entity's origin and angles at each message, NaN where the message leaves it out;
the recording client's health, weapon and velocity from its client data), and the
trajectories as polylines, one a client and life.
"""

from __future__ import annotations

import functools
import glob
import importlib
from pathlib import Path
from typing import Any
from typing import Callable
from typing import NamedTuple
from typing import TypeGuard

import numpy as np
import pyvista as pv

from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake.formats import dem
from pyvista_quake.formats import q3demo
from pyvista_quake.formats.records import DemoRecord
from pyvista_quake.game.archives import is_archive
from pyvista_quake.game.archives import open_archive
from pyvista_quake.game.filesystem import GameFiles
from pyvista_quake.game.filesystem import warn_missing
from pyvista_quake.game.sources import Place
from pyvista_quake.game.sources import read_source
from pyvista_quake.model.loading import load
from pyvista_quake.model.mesh import ascii_text

#: How far a client moves between two messages before its line is broken (a respawn or a teleport).
JUMP = 256.0
#: Past this far from the origin no level reaches (Quake III's maps stay within 65536): a heatmap leaves such places out.
WORLD = 262144.0
#: The most cells a heatmap makes.
MAX_CELLS = 50_000_000


#: Each demo format's record, made format-neutral.
_FORMATS: dict[type, Callable[[Any], DemoRecord]] = {dem.QuakeDemoData: dem.record, q3demo.Q3DemoData: q3demo.record}


class Trajectory(NamedTuple):
    """One client through a demo, a row a timed message (``float32``; NaN where the message leaves it out).

    Attributes
    ----------
    times : numpy.ndarray
        ``(t,)`` server times in seconds.
    positions, angles : numpy.ndarray
        ``(t, 3)`` origins and angles (degrees, pitch yaw roll).
    velocity : numpy.ndarray
        ``(t, 3)``: the recording client's, from its client data (NaN for the others).
    health, weapon : numpy.ndarray
        ``(t,)``: the recording client's (NaN for the others).
    """

    times: np.ndarray
    positions: np.ndarray
    angles: np.ndarray
    velocity: np.ndarray
    health: np.ndarray
    weapon: np.ndarray


class Heatmap(NamedTuple):
    """Where the players were, seen from above: the seconds spent in each square cell of the plan.

    Attributes
    ----------
    seconds : numpy.ndarray
        ``float64`` ``(rows, columns)``: seconds spent in each cell by every client asked for, row 0 the
        cells of the lowest y, column 0 of the lowest x (as :attr:`mesh` lays them out).
    origin : numpy.ndarray
        ``(x, y)`` of the corner of cell ``[0, 0]``.
    cell : float
        The cells' side, in the level's units.
    mesh : pyvista.PolyData
        A quad a cell at the height of the lowest point seen, ``cell_data['seconds']``: the plan to draw over
        (or under) a level.
    """

    seconds: np.ndarray
    origin: np.ndarray
    cell: float
    mesh: pv.PolyData

    def image(self, colormap: str = 'inferno') -> np.ndarray:
        """The heatmap as an RGBA ``uint8`` picture seen from above, +y up the picture, rows from the top; cells
        no one was in transparent, the others coloured by their seconds over the most of any cell."""
        from matplotlib import colormaps  # noqa: PLC0415 - matplotlib is only needed for this picture

        most = float(self.seconds.max()) if self.seconds.size else 0.0
        share = self.seconds / most if most > 0 else np.zeros_like(self.seconds)
        picture = (np.asarray(colormaps[colormap](share)) * 255).round().astype(np.uint8)
        picture[self.seconds <= 0] = 0
        return np.ascontiguousarray(picture[::-1])


class Demo:
    """A demo's players, map and times, and each client's trajectory (see :func:`load_demo`).

    Parameters
    ----------
    data : QuakeDemoData or Q3DemoData
        The demo's format record (:attr:`data`).
    search : GameFiles, optional
        The game's files the demo was found among: where its level is looked for.
    """

    def __init__(self, data: Any, search: GameFiles | None = None) -> None:
        #: The demo's own record, as its format reads it.
        self.data = data
        self.record: DemoRecord = _FORMATS[type(data)](data)
        #: The game's files the demo was found among: where its level is looked for.
        self.search = search if search is not None else GameFiles()
        self.source = self.record.source
        self.protocol = self.record.protocol
        self.map = self.record.map
        self.times = self.record.times

    def __repr__(self) -> str:
        """One line: the file, its map, players and length."""
        return f'Demo({self.source!r}, map {self.map!r}, {len(self.players)} players, {self.duration:.1f} s)'

    @property
    def duration(self) -> float:
        """Seconds from the first snapshot (or timed message) to the last."""
        return float(self.times[-1] - self.times[0]) if len(self.times) else 0.0

    @property
    def players(self) -> dict[int, str]:
        """Client number (from 0) -> its name as the demo ends."""
        return {client: names[-1] for client, names in sorted(self.record.names.items()) if names}

    @property
    def player_info(self) -> dict[int, dict[str, Any]]:
        """Client number -> ``{'names': every name it had, ...}``: a Quake demo's ``frags`` as it ends, a Quake III
        demo's ``model`` and ``team``."""
        return {client: {'names': list(names), **self.record.info.get(client, {})} for client, names in sorted(self.record.names.items()) if names}

    @property
    def recording_client(self) -> int:
        """The client whose demo it is (-1 where the demo names none)."""
        return self.record.recorder

    def trajectory(self, client: int) -> Trajectory:
        """Client ``client``'s trajectory, a row a snapshot (or timed message): NaN where it is not in it.

        A Quake III demo's recorder (or the player it follows) is its player state; the other players their
        entities' trajectories at each snapshot's time; a Quake demo's client ``k`` is entity ``k + 1``.
        """
        if not 0 <= client < self.record.max_clients:
            raise ValueError(f'client must be 0 to {self.record.max_clients - 1}, not {client!r}')
        n = len(self.times)
        mine = self.record.client == client
        at = self.record.message[mine]

        def spread(values: np.ndarray) -> np.ndarray:
            out = np.full((n, *values.shape[1:]), np.nan, np.float32)
            out[at] = values[mine]
            return out

        r = self.record
        return Trajectory(self.times.copy(), spread(r.origin), spread(r.angles), spread(r.velocity), spread(r.health), spread(r.weapon))

    @functools.cached_property
    def clients(self) -> list[int]:
        """The clients that appear in the demo (in a snapshot, or a Quake demo's entity updated, at least once)."""
        there = np.isfinite(self.record.origin).all(axis=1)
        return [int(c) for c in np.unique(self.record.client[there])]

    def trajectories(self) -> pv.PolyData:
        """Every client's trajectory as polylines, one a client and life: a line breaks where the client is missing
        from a snapshot or moves more than :data:`JUMP` units between two (a respawn, a teleport).

        ``cell_data`` ``client``; ``point_data`` ``time``, ``client``, ``weapon`` (NaN where the demo does not say)
        and ``speed`` (units a second from the point before, 0 at a line's start).
        """
        points, lines, times, owners, speeds, weapons, line_clients = [], [], [], [], [], [], []
        offset = 0
        for client in self.clients:
            path = self.trajectory(client)
            there = np.isfinite(path.positions).all(axis=1)
            start = _life_starts(path.positions, there)
            life = np.cumsum(start) - 1
            for number in np.unique(life[there]):
                rows = np.flatnonzero(there & (life == number))
                if len(rows) < 2:
                    continue
                points.append(path.positions[rows])
                times.append(path.times[rows])
                owners.append(np.full(len(rows), client, np.int32))
                weapons.append(path.weapon[rows])
                elapsed = np.diff(path.times[rows], prepend=path.times[rows][0])
                distance = np.concatenate([[0.0], np.linalg.norm(np.diff(path.positions[rows].astype(np.float64), axis=0), axis=1)])
                speeds.append(np.where(elapsed > 0, distance / np.where(elapsed > 0, elapsed, 1), 0.0).astype(np.float32))
                lines.append(np.concatenate([[len(rows)], offset + np.arange(len(rows))]))
                line_clients.append(client)
                offset += len(rows)
        if not points:
            return pv.PolyData()
        mesh = pv.PolyData(np.concatenate(points), lines=np.concatenate(lines))
        mesh.point_data['time'] = np.concatenate(times)
        mesh.point_data['client'] = np.concatenate(owners)
        mesh.point_data['speed'] = np.concatenate(speeds)
        mesh.point_data['weapon'] = np.concatenate(weapons)
        mesh.cell_data['client'] = np.array(line_clients, np.int32)
        mesh.point_data.active_scalars_name = None
        mesh.cell_data.active_scalars_name = None
        return mesh

    @functools.cached_property
    def level(self) -> Any:
        """The level the demo was recorded on (``maps/NAME.bsp``), loaded through the game's files the demo was found
        among; ``None`` where they do not hold it (with a warning naming where it was looked for)."""
        name = self.record.level_file
        if not name:
            return None
        place, tried = self.search.place_of(name)
        if place is None:
            warn_missing(self.source, f'level {name}', tried)
            return None
        return load(place, search_paths=self.search.search_paths)

    @functools.cached_property
    def events(self) -> dict[str, np.ndarray]:
        """What happened and when, one row an event, in time order (a dict of arrays, a table's columns).

        ``kind``: ``'frag'`` (a Quake III obituary: ``client`` the attacker, ``target`` the victim, ``means`` of
        death, where the victim died), ``'frags'`` (a Quake client's frag count changed: ``change`` +1 a frag, -1 a
        suicide or a death by the world, from ``svc_updatefrags``), ``'pickup'`` (``item``, the game's item
        number), ``'respawn'`` (a client's trajectory starts a new life, see :meth:`trajectories`), ``'print'`` (a
        server print, centre print or chat: ``text``).  ``time`` in seconds, ``client`` (-1 for a print), ``change``,
        ``target``, ``means``, ``item`` (-1 where a kind has none), ``text`` and the position ``x``, ``y``, ``z``
        (the client's at that snapshot where the event has none of its own; NaN where the demo has none).
        """
        rows = [tuple(row) for row in self.record.events]
        paths = {client: self.trajectory(client).positions for client in self.clients}
        for client, positions in paths.items():
            there = np.isfinite(positions).all(axis=1)
            starts = np.flatnonzero(_life_starts(positions, there))
            rows += [(float(self.times[k]), int(k), 'respawn', client, 0, -1, -1, -1, '', *positions[k]) for k in starts[1:]]
        rows += [(time, -1, 'print', -1, 0, -1, -1, -1, text, np.nan, np.nan, np.nan) for time, text in self.record.prints]
        rows.sort(key=lambda row: row[0])
        position = np.array([row[9:12] for row in rows], np.float32).reshape(-1, 3)
        for k, row in enumerate(rows):
            client, message = row[3], row[1]
            # A client never placed (or the world, 1022, as a Quake III attacker) has no position to give.
            if client in paths and 0 <= message < len(self.times) and not np.isfinite(position[k]).all():
                position[k] = paths[client][message]
        return {
            'time': np.array([row[0] for row in rows], np.float64),
            'kind': np.array([row[2] for row in rows], dtype=object),
            'client': np.array([row[3] for row in rows], np.int32),
            'change': np.array([row[4] for row in rows], np.int32),
            'target': np.array([row[5] for row in rows], np.int32),
            'means': np.array([row[6] for row in rows], np.int32),
            'item': np.array([row[7] for row in rows], np.int32),
            'text': np.array([row[8] for row in rows], dtype=object),
            'x': position[:, 0],
            'y': position[:, 1],
            'z': position[:, 2],
        }

    def heatmap(self, cell: float = 64.0, clients: list[int] | None = None) -> Heatmap:
        """Where the players were: the seconds spent in each ``cell`` x ``cell`` square of the plan (see :class:`Heatmap`).

        Each snapshot (or timed message) counts the time until the next one for every client there (the last the
        median step); ``clients`` picks some (every client by default).
        """
        if not cell > 0:
            raise ValueError(f'cell must be a positive length, not {cell!r}')
        chosen = self.clients if clients is None else list(clients)
        steps = np.diff(self.times)
        last = float(np.median(steps)) if len(steps) else 0.0
        weights = np.append(steps, last) if len(self.times) else np.zeros(0)
        paths = [self.trajectory(client).positions for client in chosen]
        every = np.concatenate(paths) if paths else np.zeros((0, 3), np.float32)
        weight = np.tile(weights, len(paths)) if paths else np.zeros(0)
        there = np.isfinite(every).all(axis=1) & (np.abs(every) <= WORLD).all(axis=1)
        every, weight = every[there].astype(np.float64), weight[there]
        if not len(every):
            return Heatmap(np.zeros((0, 0)), np.zeros(2), float(cell), pv.PolyData())
        origin = np.floor(every[:, :2].min(axis=0) / cell) * cell
        columns, rows = (np.floor((every[:, :2].max(axis=0) - origin) / cell).astype(np.int64) + 1).tolist()
        if rows * columns > MAX_CELLS:
            raise ValueError(
                f"cell {cell!r} makes {rows} x {columns} cells of the players' {np.ptp(every[:, :2], axis=0)} units: at most {MAX_CELLS}"
            )
        index = np.floor((every[:, :2] - origin) / cell).astype(np.int64)
        seconds = np.zeros((rows, columns))
        np.add.at(seconds, (index[:, 1], index[:, 0]), weight)
        plan = pv.ImageData(dimensions=(columns + 1, rows + 1, 1), spacing=(cell, cell, 1.0), origin=(*origin, every[:, 2].min()))
        mesh = plan.extract_surface(algorithm='dataset_surface')
        mesh.cell_data['seconds'] = seconds.reshape(-1)  # VTK's cells run along x first, as the rows do
        return Heatmap(seconds, origin, float(cell), mesh)

    def _placed(self) -> np.ndarray:
        """The rows with a position (a Quake recorder's client data alone has none)."""
        return np.isfinite(self.record.origin).all(axis=1)

    def players_at(self, index: int) -> pv.PolyData:
        """The players at snapshot (or timed message) ``index`` as points: ``point_data`` ``client``, ``name`` and ``angles``."""
        chosen = (self.record.message == index) & self._placed()
        points = pv.PolyData(self.record.origin[chosen].reshape(-1, 3)) if chosen.any() else pv.PolyData()
        if chosen.any():
            client = self.record.client[chosen].astype(np.int32)
            names = self.players
            points.point_data['client'] = client
            points.point_data['name'] = np.array([ascii_text(names.get(int(c), '')) for c in client], dtype=str)
            points.point_data['angles'] = self.record.angles[chosen]
            points.point_data.active_scalars_name = None
        points.field_data['time'] = np.array([self.times[index]])
        return points

    def table(self) -> Any:
        """Every client at every snapshot it appears in (see :meth:`columns`): a pandas DataFrame where pandas is
        installed, else the dict of numpy arrays."""
        return _frame(self.columns())

    def columns(self) -> dict[str, np.ndarray]:
        """Every client at every snapshot (or timed message) it appears in, as numpy columns: ``time``, ``client``,
        ``name``, ``x``, ``y``, ``z``, ``pitch``, ``yaw``, ``roll``, and ``vx``, ``vy``, ``vz``, ``health``,
        ``weapon`` (NaN where the demo does not say)."""
        r = self.record
        keep = self._placed()
        client = r.client[keep]
        names = self.players
        return {
            'time': self.times[r.message[keep]],
            'client': client,
            'name': np.array([names.get(int(c), '') for c in client], dtype=object),
            'x': r.origin[keep, 0],
            'y': r.origin[keep, 1],
            'z': r.origin[keep, 2],
            'pitch': r.angles[keep, 0],
            'yaw': r.angles[keep, 1],
            'roll': r.angles[keep, 2],
            'vx': r.velocity[keep, 0],
            'vy': r.velocity[keep, 1],
            'vz': r.velocity[keep, 2],
            'health': r.health[keep],
            'weapon': r.weapon[keep],
        }


def _life_starts(positions: np.ndarray, there: np.ndarray) -> np.ndarray:
    """Where each life of a trajectory starts: a message where the client is there and was not, or moved more than
    :data:`JUMP` from the message before (a respawn, a teleport)."""
    step = np.zeros(len(there), np.float64)
    step[1:] = np.linalg.norm(np.diff(positions.astype(np.float64), axis=0), axis=1)
    return there & (~np.roll(there, 1) | (step > JUMP) | (np.arange(len(there)) == 0))


def _frame(columns: dict[str, np.ndarray]) -> Any:
    """A pandas DataFrame of the columns where pandas is installed, else the columns."""
    try:
        pandas = importlib.import_module('pandas')  # optional
    except ImportError:
        return columns
    return pandas.DataFrame(columns)


def find_demos(sources: list[str | Path]) -> list[Place]:
    """Demos (Quake's ``.dem``, Quake III's ``.dm_68``, ``.dm_70``...) from files, folders (and the PAK/PK3 files in them), archives, ``ARCHIVE:MEMBER`` paths and
    glob patterns, once each, in the order found (a folder's and an archive's sorted)."""
    found: list[Place] = []
    for source in sources:
        place = Place.of(source)
        if place.member is not None:
            found.append(place)
        elif place.path.is_dir():
            for path in sorted(place.path.rglob('*')):
                found += _demos_in(path)
        elif glob.has_magic(str(place.path)) and not place.path.exists():
            for hit in sorted(glob.glob(str(place.path), recursive=True)):
                found += _demos_in(Path(hit))
        else:
            found += _demos_in(place.path) if is_archive(place.path) else [place]
    return list({str(p): p for p in found}.values())


def _is_demo_name(name: str) -> bool:
    """Whether a file's name is a demo's: Quake's ``.dem``, Quake III's ``.dm_NN``."""
    suffix = name.rsplit('.', 1)[-1].lower() if '.' in name else ''
    return suffix == 'dem' or (suffix.startswith('dm_') and suffix[3:].isdigit())


def _demos_in(path: Path) -> list[Place]:
    if path.is_file() and _is_demo_name(path.name):
        return [Place(path)]
    if is_archive(path):
        return [Place(path, name) for name in sorted(open_archive(path).names()) if _is_demo_name(name)]
    return []


def _rows(place: Place) -> dict[str, np.ndarray]:
    """One demo's table with its name in a ``demo`` column (what each worker makes)."""
    demo = load_demo(place.path, place.member)
    columns = demo.columns()
    return {'demo': np.full(len(columns['time']), str(place), dtype=object), 'map': np.full(len(columns['time']), demo.map, dtype=object), **columns}


def demo_table(sources: list[str | Path], client: Any = None) -> Any:
    """Many demos as one table: every client at every timed message of each, with ``demo`` and ``map`` columns.

    Parameters
    ----------
    sources : list
        Demo files, folders, PAK/PK3 files, ``ARCHIVE:MEMBER`` paths or glob patterns (see :func:`find_demos`).
    client : dask.distributed.Client, optional
        Read the demos on a Dask cluster, a task a demo; the rows are the same, in the same order, as serially.

    Returns
    -------
    pandas.DataFrame or dict of numpy.ndarray
        A DataFrame where pandas is installed.
    """
    places = find_demos(sources)
    if client is not None:
        parts = client.gather(client.map(_rows, places, pure=False))
    else:
        parts = [_rows(place) for place in places]
    if not parts:
        return _frame({name: np.zeros(0) for name in ('demo', 'map', 'time', 'client', 'name', 'x', 'y', 'z', 'pitch', 'yaw', 'roll')})
    return _frame({name: np.concatenate([part[name] for part in parts]) for name in parts[0]})


def is_demo(source: object) -> TypeGuard[Demo]:
    """Whether ``source`` is a loaded demo (what exports and pictures play whole, over its level)."""
    return isinstance(source, Demo)


def load_demo(source: Any, member: str | None = None) -> Demo:
    """Read a demo: a path, ``pak0.pak:demo1.dem``, bytes or a binary file.

    Quake's ``.dem`` (NetQuake protocol 15, FitzQuake 666, RMQ 999) and Quake III's ``.dm_68``, ``.dm_70`` and
    ``.dm_71`` (ioquake3 and OpenArena) are read, each told by its first bytes (a Quake demo starts with its CD
    track's line).

    Examples
    --------
    >>> import pyvista_quake as pq
    >>> demo = pq.load_demo('id1/pak0.pak:demo1.dem')  # doctest: +SKIP
    >>> demo.map, demo.players, demo.trajectory(0).positions.shape  # doctest: +SKIP

    """
    data, location = read_source(source, member)
    raw = bytes(data)
    folder = location.archive_path.parent if location.archive_path is not None else None
    search = GameFiles(model_path=location.path, archive=location.archive, member=location.member, archive_folder=folder)
    suffix = location.name.rsplit('.', 1)[-1].lower()
    number = suffix[3:] if suffix.startswith('dm_') else ''
    # A Quake III demo has no magic: its first int32 could read as a digit and a newline; its name decides then.
    if suffix == 'dem' or (dem.is_quake_demo(raw) and not number):
        return Demo(dem.parse(raw, location.name), search)
    if number:
        return Demo(q3demo.parse(raw, location.name, int(number) if number.isdigit() else None), search)
    try:  # no name to go by
        return Demo(q3demo.parse(raw, location.name), search)
    except QuakeFormatError as error:
        raise QuakeFormatError(
            location.name, 'cd track', raw[:16], f'not a Quake demo (a line with the CD track first), nor a Quake III demo ({error})'
        ) from None


def table(sources: list[str | Path], client: Any = None) -> Any:
    """Many demos as one table (``pyvista_quake.demos.table``): see :func:`demo_table`."""
    return demo_table(sources, client)
