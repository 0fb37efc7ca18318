"""Quake III bots' navigation (``.aas``) as PyVista data: areas, reachabilities, the area of a point, the travel graph.

:func:`load_navigation` reads ``maps/NAME.aas`` (a file, ``pak.pk3:maps/NAME.aas``, or
bytes); :attr:`pyvista_quake.QuakeModel.navigation` finds the one beside a level
through the game's files.  What botlib answers is answered the same way:
:meth:`Navigation.area` descends the file's tree from node 1 as ``AAS_PointAreaNum``
does (``float32`` ``((x nx + y ny) + z nz) - d``, above 0 the front, else the back; a
leaf of 0 is solid).
"""

from __future__ import annotations

import functools
from typing import Any
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
import pyvista as pv

from pyvista_quake._base.warnings import warn_external
from pyvista_quake.formats import aas
from pyvista_quake.game.sources import read_source
from pyvista_quake.model.routing import Routing

#: What :meth:`Navigation.graph` and the flags arguments take: names of :data:`~pyvista_quake.formats.aas.TRAVEL_FLAGS`,
#: ``'default'`` (the bots' own, ``TFL_DEFAULT``), a list of names, or botlib's bit mask.
TravelFlags = str | int | list[str] | tuple[str, ...]


#: Each travel type's name by its number, ``'invalid'`` for 0 and the numbers botlib gives no type.
_TYPE_NAMES = np.array([aas.TRAVEL_TYPES.get(t, 'invalid') for t in range(max(aas.TRAVEL_TYPES) + 1)])


def travel_flags(flags: TravelFlags) -> int:
    """Botlib's bit mask of travel flags: ``'default'`` (``TFL_DEFAULT``), a name, names, or an int as it is."""
    if isinstance(flags, (int, np.integer)):
        return int(flags)
    names = [flags] if isinstance(flags, str) else list(flags)
    mask = 0
    for name in names:
        if name == 'default':
            mask |= aas.TFL_DEFAULT
        elif name in aas.TRAVEL_FLAGS:
            mask |= aas.TRAVEL_FLAGS[name]
        else:
            raise ValueError(f'travel flags are "default", names of {sorted(aas.TRAVEL_FLAGS)} or an int, not {name!r}')
    return mask


class Route(NamedTuple):
    """A bot's way from a point to a goal (see :meth:`Navigation.route`)."""

    areas: np.ndarray
    reachabilities: np.ndarray
    travel_types: list[str]
    time: int
    reached: bool
    line: pv.PolyData


class Navigation:
    """A map's bot navigation file: convex areas, the reachabilities between them, clusters and portals.

    Parameters
    ----------
    record : AASFile
        The parsed file (:func:`pyvista_quake.formats.aas.parse`).

    """

    def __init__(self, record: aas.AASFile) -> None:
        self.record = record
        self.source = record.source

    def __repr__(self) -> str:
        """One line: the file, its areas and reachabilities."""
        return f'Navigation({self.source!r}, {self.num_areas} areas, {self.num_reachabilities} reachabilities)'

    @property
    def num_areas(self) -> int:
        """Areas, the dummy area 0 left out."""
        return max(len(self.record.lumps['areas']) - 1, 0)

    @property
    def num_reachabilities(self) -> int:
        """Reachabilities, the dummy 0 left out."""
        return max(len(self.record.lumps['reachability']) - 1, 0)

    @functools.cached_property
    def areas(self) -> pv.PolyData:
        """Every area's faces (area 0, the dummy, has none): a polygon each, its corners in the file's order; a file
        that keeps no faces (bspc's ``-optimize`` drops them, as most shipped files are) gives each area's box.

        ``cell_data``: ``area`` (its number), ``presence_type`` (1 none, 2 normal, 4 crouch), ``contents``
        (``AREACONTENTS_*``), ``flags`` (``AREA_*``: 1 grounded, 2 ladder, 4 liquid, 8 disabled, 16 bridge),
        ``cluster`` (below 0 a cluster portal) and ``face_flags``.  A face between two areas is in both.
        """
        lumps = self.record.lumps
        areas, settings = lumps['areas'], lumps['areasettings']
        if not len(lumps['vertexes']):
            return self._boxes()
        counts = areas['numfaces'].astype(np.int64)
        area_of = np.repeat(np.arange(len(areas)), counts)
        within = np.arange(len(area_of)) - np.repeat(np.cumsum(counts) - counts, counts)
        faces = np.abs(lumps['faceindex'][areas['firstface'][area_of] + within].astype(np.int64))
        face = lumps['faces'][faces]
        sizes = face['numedges'].astype(np.int64)
        face_of = np.repeat(np.arange(len(faces)), sizes)
        step = np.arange(len(face_of)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        signed = lumps['edgeindex'][face['firstedge'][face_of] + step].astype(np.int64)
        # Each edge's first corner as the face goes round it (a negative index: the edge reversed).
        corner = np.where(signed >= 0, lumps['edges']['v'][np.abs(signed), 0], lumps['edges']['v'][np.abs(signed), 1])
        keep = sizes >= 3
        kept_rows = keep[face_of]
        points = np.asarray(lumps['vertexes'], np.float32).reshape(-1, 3)
        kept_sizes = sizes[keep]
        cells = np.insert(corner[kept_rows], np.cumsum(kept_sizes) - kept_sizes, kept_sizes)
        mesh = pv.PolyData(points, faces=cells if keep.any() else np.zeros(0, np.int64))
        number = area_of[keep]
        mesh.cell_data['area'] = number.astype(np.int32)
        mesh.cell_data['presence_type'] = settings['presencetype'][number].astype(np.int32)
        mesh.cell_data['contents'] = settings['contents'][number].astype(np.int32)
        mesh.cell_data['flags'] = settings['areaflags'][number].astype(np.int32)
        mesh.cell_data['cluster'] = settings['cluster'][number].astype(np.int32)
        mesh.cell_data['face_flags'] = face['faceflags'][keep].astype(np.int32)
        mesh.cell_data.active_scalars_name = None
        return mesh

    def _boxes(self) -> pv.PolyData:
        """Each area (the dummy 0 left out) as the box of its ``mins`` and ``maxs``, six faces wound outward."""
        lumps = self.record.lumps
        areas, settings = lumps['areas'][1:], lumps['areasettings'][1:]
        n = len(areas)
        corners = np.array([[k & 1, (k >> 1) & 1, (k >> 2) & 1] for k in range(8)], bool)
        low, high = areas['mins'].astype(np.float32), areas['maxs'].astype(np.float32)
        # Each corner takes its coordinates from mins or maxs as they are (no arithmetic: exact, and inf stays inf).
        points = np.where(corners[None], high[:, None], low[:, None]).reshape(-1, 3)
        quads = np.array([[0, 4, 6, 2], [1, 3, 7, 5], [0, 1, 5, 4], [2, 6, 7, 3], [0, 2, 3, 1], [4, 5, 7, 6]])  # -x +x -y +y -z +z, outward
        faces = (quads[None] + 8 * np.arange(n)[:, None, None]).reshape(-1, 4)
        cells = np.column_stack([np.full(len(faces), 4), faces]).ravel()
        mesh = pv.PolyData(points, faces=cells if n else np.zeros(0, np.int64))
        number = np.repeat(np.arange(1, n + 1), 6)
        mesh.cell_data['area'] = number.astype(np.int32)
        mesh.cell_data['presence_type'] = np.repeat(settings['presencetype'], 6).astype(np.int32)
        mesh.cell_data['contents'] = np.repeat(settings['contents'], 6).astype(np.int32)
        mesh.cell_data['flags'] = np.repeat(settings['areaflags'], 6).astype(np.int32)
        mesh.cell_data['cluster'] = np.repeat(settings['cluster'], 6).astype(np.int32)
        mesh.cell_data['face_flags'] = np.zeros(6 * n, np.int32)
        mesh.cell_data.active_scalars_name = None
        return mesh

    @functools.cached_property
    def reachability_areas(self) -> np.ndarray:
        """The area each reachability leaves from (its place in an area's run of them), ``int64``; 0 for the dummy."""
        settings = self.record.lumps['areasettings']
        out = np.zeros(len(self.record.lumps['reachability']), np.int64)
        counts = settings['numreachableareas'].astype(np.int64)
        area = np.repeat(np.arange(len(settings)), counts)
        within = np.arange(len(area)) - np.repeat(np.cumsum(counts) - counts, counts)
        out[settings['firstreachablearea'][area] + within] = area
        return out

    @functools.cached_property
    def reachabilities(self) -> pv.PolyData:
        """A line from each reachability's start to its end (the dummy 0 left out).

        ``cell_data``: ``reachability`` (its number), ``start_area``, ``end_area``, ``travel_type`` (by name,
        :data:`~pyvista_quake.formats.aas.TRAVEL_TYPES`), ``travel_flags`` (``TRAVELFLAG_NOTTEAM1/2``) and
        ``travel_time`` (hundredths of a second).
        """
        reach = self.record.lumps['reachability'][1:]
        n = len(reach)
        points = np.empty((2 * n, 3), np.float32)
        points[0::2], points[1::2] = reach['start'], reach['end']
        lines = np.column_stack([np.full(n, 2), np.arange(0, 2 * n, 2), np.arange(1, 2 * n, 2)]).ravel()
        mesh = pv.PolyData(points, lines=lines if n else np.zeros(0, np.int64))
        kind = reach['traveltype'].astype(np.int64)
        mesh.cell_data['reachability'] = np.arange(1, n + 1, dtype=np.int32)
        mesh.cell_data['start_area'] = self.reachability_areas[1:].astype(np.int32)
        mesh.cell_data['end_area'] = reach['areanum'].astype(np.int32)
        typed = kind & aas.TRAVELTYPE_MASK
        mesh.cell_data['travel_type'] = (
            np.where(typed < len(_TYPE_NAMES), _TYPE_NAMES[np.minimum(typed, len(_TYPE_NAMES) - 1)], 'invalid') if n else np.zeros(0, str)
        )
        mesh.cell_data['travel_flags'] = (kind & ~aas.TRAVELTYPE_MASK).astype(np.int64)
        mesh.cell_data['travel_time'] = reach['traveltime'].astype(np.int32)
        mesh.cell_data.active_scalars_name = None
        return mesh

    def area(self, points: npt.ArrayLike) -> np.ndarray:
        """The area holding each point, as ``AAS_PointAreaNum``: 0 in solid (or outside), ``int64`` ``(n,)``."""
        p = np.asarray(points, np.float64)
        with np.errstate(over='ignore', invalid='ignore'):
            p = (p[None] if p.ndim == 1 else p).astype(np.float32)
        if p.ndim != 2 or p.shape[1] != 3:
            raise ValueError(f'points must be (n, 3) coordinates, not an array of shape {np.shape(points)}')
        if len(self.record.lumps['nodes']) < 2:
            return np.zeros(len(p), np.int64)
        node = np.ones(len(p), np.int64)
        going = np.arange(len(p))
        with np.errstate(over='ignore', invalid='ignore'):  # float32 as botlib: past its range infinite, NaN compares false
            return self._descend(p, node, going)

    def _descend(self, p: np.ndarray, node: np.ndarray, going: np.ndarray) -> np.ndarray:
        nodes, planes = self.record.lumps['nodes'], self.record.lumps['planes']
        while len(going):  # a level of the tree at a time; children lie below their node
            at = node[going]
            plane = planes[nodes['planenum'][at]]
            n = plane['normal']
            q = p[going]
            dist = ((q[:, 0] * n[:, 0] + q[:, 1] * n[:, 1]) + q[:, 2] * n[:, 2]) - plane['dist']
            node[going] = np.where(dist > 0, nodes['children'][at, 0], nodes['children'][at, 1])
            going = going[node[going] > 0]
        return -node

    def graph(self, flags: TravelFlags = 'default') -> Any:
        """The reachabilities a bot with ``flags`` may use as a ``scipy.sparse`` matrix of travel times:
        entry ``[a, b]`` the least ``travel_time`` of a reachability from area ``a`` into area ``b``.

        A reachability is usable where its travel type's flag and the contents flags of the area it enters
        (water, slime, lava, else air; do-not-enter, not-team, bridge) are all in ``flags``.
        """
        from scipy import sparse  # noqa: PLC0415 - scipy is imported when first needed

        usable = self.usable(flags)
        reach = self.record.lumps['reachability']
        rows = self.reachability_areas[usable]
        columns = reach['areanum'][usable].astype(np.int64)
        times = reach['traveltime'][usable].astype(np.int64)
        size = len(self.record.lumps['areas'])
        order = np.lexsort((times, columns, rows))  # the least time of each pair first
        rows, columns, times = rows[order], columns[order], times[order]
        first = np.ones(len(rows), bool)
        first[1:] = (rows[1:] != rows[:-1]) | (columns[1:] != columns[:-1])
        return sparse.csr_matrix((times[first], (rows[first], columns[first])), shape=(size, size))

    def usable(self, flags: TravelFlags = 'default') -> np.ndarray:
        """Whether each reachability may be used with ``flags`` (``AAS_TravelFlagForType`` and the entered area's
        ``contents_travelflags``); the dummy 0 never."""
        mask = travel_flags(flags)
        reach = self.record.lumps['reachability']
        settings = self.record.lumps['areasettings']
        kind = reach['traveltype'].astype(np.int64)
        typed = kind & aas.TRAVELTYPE_MASK
        table = np.array([aas.TRAVEL_FLAGS[str(name)] for name in _TYPE_NAMES], np.int64)  # AAS_TravelFlagForType
        travel = np.where(typed < len(table), table[np.minimum(typed, len(table) - 1)], aas.TRAVEL_FLAGS['invalid'])
        travel = travel | np.where(kind & (1 << 24), aas.TRAVEL_FLAGS['notteam1'], 0) | np.where(kind & (2 << 24), aas.TRAVEL_FLAGS['notteam2'], 0)
        entered = np.minimum(reach['areanum'].astype(np.int64), len(settings) - 1)
        contents = settings['contents'][entered].astype(np.int64)
        area_flags = settings['areaflags'][entered].astype(np.int64)
        liquid = aas.AREA_CONTENTS
        medium = np.select(
            [contents & liquid['water'] != 0, contents & liquid['slime'] != 0, contents & liquid['lava'] != 0],
            [aas.TRAVEL_FLAGS['water'], aas.TRAVEL_FLAGS['slime'], aas.TRAVEL_FLAGS['lava']],
            aas.TRAVEL_FLAGS['air'],
        )
        medium = medium | np.where(contents & aas.AREA_CONTENTS['donotenter'], aas.TRAVEL_FLAGS['donotenter'], 0)
        medium = medium | np.where(contents & aas.AREA_CONTENTS['notteam1'], aas.TRAVEL_FLAGS['notteam1'], 0)
        medium = medium | np.where(contents & aas.AREA_CONTENTS['notteam2'], aas.TRAVEL_FLAGS['notteam2'], 0)
        medium = medium | np.where(area_flags & aas.AREA_FLAGS['bridge'], aas.TRAVEL_FLAGS['bridge'], 0)
        out = ((travel & ~mask) == 0) & ((medium & ~mask) == 0) & ((area_flags & aas.AREA_FLAGS['disabled']) == 0)
        out[:1] = False
        return out

    @functools.cached_property
    def _routing(self) -> Routing:
        return Routing(self.record, self.usable)

    def travel_time(
        self, start: npt.ArrayLike, goal: npt.ArrayLike, flags: TravelFlags = 'default', origin: npt.ArrayLike | None = None
    ) -> np.ndarray:
        """Travel times in hundredths of a second from areas ``start`` to areas ``goal`` (pairs, or one against many),
        as ``AAS_AreaTravelTimeToGoalArea`` gives them: 1 from an area to itself, 0 where there is no route.

        Botlib's own order (see :mod:`pyvista_quake.model.routing`): the times of its caches, not an exact shortest
        path.  ``origin`` (``(n, 3)`` points, each in its start area) adds the time from it to the first
        reachability taken, as botlib adds it for a bot standing there.
        """
        mask = travel_flags(flags)
        a, b = np.broadcast_arrays(np.asarray(start, np.int64), np.asarray(goal, np.int64))
        where = None if origin is None else np.broadcast_to(np.asarray(origin, np.float32), (*a.shape, 3)).reshape(-1, 3)
        starts, goals = a.reshape(-1), b.reshape(-1)
        routing = self._routing
        out = np.where(starts == goals, 1, 0).astype(np.int64)  # an area to itself: 1, before any check
        valid = (starts > 0) & (starts < routing.num_areas) & (goals > 0) & (goals < routing.num_areas) & (starts != goals)
        valid[valid] = (routing.count[starts[valid]] > 0) & (routing.count[goals[valid]] > 0)
        shut = aas.AREA_CONTENTS['donotenter']
        # Botlib lets a route enter do-not-enter areas when its start or goal is one: a mask a (goal, start's flag).
        entering = np.zeros(len(starts), bool)
        entering[valid] = ((routing.contents[starts[valid]] | routing.contents[goals[valid]]) & shut) != 0
        keys = goals.astype(np.int64) * 2 + entering
        for key in np.unique(keys[valid]).tolist():
            rows = np.flatnonzero(valid & (keys == key))
            goal_area, extra = divmod(key, 2)
            flags_of = mask | (aas.TRAVEL_FLAGS['donotenter'] if extra else 0)
            out[rows] = routing.times_to(starts[rows], None if where is None else where[rows], goal_area, flags_of)
        return out.reshape(a.shape)

    def route(self, start: npt.ArrayLike, goal: npt.ArrayLike, flags: TravelFlags = 'default', limit: int | None = None) -> Route:
        """The way a bot goes from point ``start`` to point ``goal`` (or to area ``goal``, an int): in each area the
        usable reachability with the least travel time to the goal from its end plus its own time, never straight
        back to the area before, first on ties (botlib's ``BotGetReachabilityToGoal`` hop by hop), until the goal's
        area, an area with no way on, or ``limit`` hops (the number of areas by default).

        Returns
        -------
        Route
            ``.areas`` from the start's to the last reached, ``.reachabilities`` taken, their ``.travel_types``,
            ``.time`` (the travel time from the start point, as ``AAS_AreaTravelTimeToGoalArea`` gives it with that
            origin), ``.reached`` and ``.line`` (a polyline from the start through each reachability's start and
            end to the goal point).
        """
        mask = travel_flags(flags)
        origin = np.asarray(start, np.float32).reshape(3)
        target = None if np.ndim(goal) == 0 else np.asarray(goal, np.float32).reshape(3)
        goal_area = int(np.asarray(goal).reshape(-1)[0]) if target is None else int(self.area(target[None])[0])
        here = int(self.area(origin[None])[0])
        routing = self._routing
        time = int(self.travel_time(here, goal_area, mask, origin=origin)) if here else 0
        usable = self.usable(mask)
        areas: list[int] = [here]
        taken: list[int] = []
        previous = 0
        steps = self.num_areas if limit is None else int(limit)
        while here and here != goal_area and len(taken) < steps:
            links = np.arange(routing.first[here], routing.first[here] + routing.count[here])
            links = links[usable[links] & (routing.into[links] != previous)]
            times = self.travel_time(routing.into[links], goal_area, mask, origin=routing.end[links])
            ways = links[times > 0]
            if not len(ways):
                break
            best = int(ways[np.argmin(times[times > 0] + routing.time[ways])])  # the first of the least
            previous, here = here, int(routing.into[best])
            taken.append(best)
            areas.append(here)
        points = [origin]
        for link in taken:
            points += [routing.start[link], routing.end[link]]
        if target is not None and areas[-1] == goal_area:
            points.append(target)
        stacked = np.array(points, np.float64)
        line = pv.PolyData(stacked, lines=np.concatenate([[len(stacked)], np.arange(len(stacked))])) if len(points) > 1 else pv.PolyData(stacked)
        kinds = self.record.lumps['reachability']['traveltype'][taken].astype(np.int64) & aas.TRAVELTYPE_MASK if taken else np.zeros(0, np.int64)
        types = [str(_TYPE_NAMES[k]) if k < len(_TYPE_NAMES) else 'invalid' for k in kinds.tolist()]
        return Route(np.array(areas, np.int64), np.array(taken, np.int64), types, int(time), bool(here == goal_area and here != 0), line)

    def check_map(self, data: bytes, name: str = 'the map') -> bool:
        """Whether the file was made for the map of ``data`` (its ``bspchecksum``); warns naming both when not."""
        checksum = aas.block_checksum(bytes(data))
        if checksum != self.record.bspchecksum:
            warn_external(
                f'{self.source}: made for another map than {name} (bspchecksum {self.record.bspchecksum:#010x}, '
                f"the map's {checksum:#010x}); botlib refuses it"
            )
            return False
        return True


def load_navigation(source: Any, member: str | None = None) -> Navigation:
    """Read a bot navigation file (``maps/NAME.aas``): a path, ``pak.pk3:maps/NAME.aas``, bytes or a binary file.

    Examples
    --------
    >>> import pyvista_quake as pq
    >>> nav = pq.load_navigation('baseoa/pak6-patch088.pk3:maps/am_lavactf.aas')  # doctest: +SKIP
    >>> nav.areas.plot(scalars='cluster')  # doctest: +SKIP

    """
    data, location = read_source(source, member)
    return Navigation(aas.parse(bytes(data), location.name))


def navigation_beside(source: str, find: Any, map_stem: str, map_bytes: bytes) -> Navigation | None:
    """The ``maps/NAME.aas`` found beside a level by ``find`` (the game's files), checked against its map; ``None`` without one."""
    found, _ = find(f'{map_stem}.aas')
    if found is None:
        return None
    navigation = Navigation(aas.parse(found.data, found.location))
    navigation.check_map(map_bytes, source)
    return navigation
