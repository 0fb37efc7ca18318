"""Botlib's travel times over a navigation file, in its own order: in-cluster caches and the portal cache.

Travel times are those ``AAS_AreaTravelTimeToGoalArea`` gives (``be_aas_route.c``), hundredths of a
second, 0 where unreachable.  They are not an exact shortest path: botlib fills a cache per
(cluster, goal area, travel flags) by a first-in first-out label-correcting update from the goal
outwards over the reversed reachabilities, each area keeping one time and the in-area times of the
reachability that set it, with ``unsigned short`` sums; routes between clusters go through the
portal cache and each portal's largest crossing time.  The same order here gives the same numbers.
An answer does not depend on what was asked before (a cache is the same whenever it is made).
"""

from __future__ import annotations

from collections import deque
from typing import NamedTuple

import numpy as np

from pyvista_quake.formats import aas

#: ``AAS_AreaTravelTime``'s factors: a crouch-only area, a liquid one, any other (``be_aas_route.c``).
CROUCH, SWIM, WALK = np.float32(1.3), np.float32(1.0), np.float32(0.33)
#: Reachabilities of an area botlib reverses (its ``startareatraveltimes[128]``): the first 128.
MAX_REVERSED = 128
#: ``unsigned short`` sums: botlib's times wrap above 65535.
SHORT = 0xFFFF


class Cache(NamedTuple):
    """One routing cache: a time (0 unreachable) and the reachability taken, by cluster area number or portal."""

    times: np.ndarray
    reachabilities: np.ndarray


def area_travel_time(crouch: np.ndarray | bool, swim: np.ndarray | bool, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """``AAS_AreaTravelTime``: ``|start - end|`` in ``float32`` times the area's factor, truncated, at least 1."""
    d = np.asarray(start, np.float32) - np.asarray(end, np.float32)
    squares = (d[..., 0] * d[..., 0] + d[..., 1] * d[..., 1]) + d[..., 2] * d[..., 2]
    dist = np.sqrt(squares.astype(np.float64)).astype(np.float32)
    factor = np.where(crouch, CROUCH, np.where(swim, SWIM, WALK)).astype(np.float32)
    return np.maximum((dist * factor).astype(np.int64), 1)


class Routing:
    """What botlib builds once a map is loaded (``AAS_InitRouting``), and its caches, made when first asked for.

    Parameters
    ----------
    record : AASFile
        The parsed navigation file.
    usable : callable
        ``usable(mask) -> bool array``: whether each reachability may be used with travel flags ``mask``
        (its type's flag and the contents flags of the area it enters, not disabled).
    """

    def __init__(self, record: aas.AASFile, usable) -> None:
        lumps = record.lumps
        settings = lumps['areasettings']
        reach = lumps['reachability']
        self.num_areas = len(settings)
        self.cluster = settings['cluster'].astype(np.int64)
        self.cluster_area = settings['clusterareanum'].astype(np.int64)
        self.first = settings['firstreachablearea'].astype(np.int64)
        self.count = settings['numreachableareas'].astype(np.int64)
        self.contents = settings['contents'].astype(np.int64)
        self.crouch = (settings['presencetype'] & aas.PRESENCE['normal']) == 0
        self.swim = (settings['areaflags'] & aas.AREA_FLAGS['liquid']) != 0
        self.into = reach['areanum'].astype(np.int64)
        self.time = reach['traveltime'].astype(np.int64)
        self.start = np.asarray(reach['start'], np.float32)
        self.end = np.asarray(reach['end'], np.float32)
        self.portals = lumps['portals']
        self.portal_index = lumps['portalindex'].astype(np.int64)
        self.clusters = lumps['clusters']
        self._usable_of = usable
        self._usable: dict[int, np.ndarray] = {}
        self._area_caches: dict[tuple[int, int, int], Cache] = {}
        self._portal_caches: dict[tuple[int, int], Cache] = {}
        # AAS_CreateReversedReachability: walking areas 1..n and each one's first 128 reachabilities, each link
        # is put first in the list of the area it enters, so that later areas come first.
        self.reversed: list[list[tuple[int, int]]] = [[] for _ in range(self.num_areas)]
        for area in range(1, self.num_areas):
            for link in range(self.first[area], self.first[area] + min(self.count[area], MAX_REVERSED)):
                target = self.into[link]
                if 0 <= target < self.num_areas:
                    self.reversed[target].append((area, link))
        for links in self.reversed:
            links.reverse()
        self._inside: dict[int, np.ndarray] = {}
        self.portal_max = np.array([self._portal_max(p) for p in range(len(self.portals))], np.int64)

    def inside(self, area: int) -> np.ndarray:
        """``areatraveltimes[area]``: ``(reachabilities, reversed links)``, the time inside ``area`` from the end of each
        reachability entering it to the start of each of its own (``AAS_CalculateAreaTravelTimes``)."""
        if area not in self._inside:
            entering = np.array([link for _, link in self.reversed[area]], np.int64)
            own = np.arange(self.first[area], self.first[area] + self.count[area])
            if not len(entering) or not len(own):
                self._inside[area] = np.zeros((len(own), len(entering)), np.int64)
            else:
                self._inside[area] = area_travel_time(self.crouch[area], self.swim[area], self.end[entering][None, :, :], self.start[own][:, None, :])
        return self._inside[area]

    def _portal_max(self, portal: int) -> int:
        """``AAS_PortalMaxTravelTime``: the longest time inside a portal's area, from any entry to any exit."""
        area = int(self.portals['areanum'][portal])
        if not 0 <= area < self.num_areas:
            return 0
        times = self.inside(area)
        return int(times.max()) if times.size else 0

    def usable(self, mask: int) -> np.ndarray:
        if mask not in self._usable:
            self._usable[mask] = self._usable_of(mask)
        return self._usable[mask]

    def cluster_area_num(self, cluster: int, area: int) -> int:
        """``AAS_ClusterAreaNum``: an area's number in a cluster (a portal's, on that cluster's side)."""
        own = int(self.cluster[area])
        if own > 0:
            return int(self.cluster_area[area])
        portal = self.portals[-own]
        return int(portal['clusterareanum'][int(portal['frontcluster'] != cluster)])

    def area_cache(self, cluster: int, goal: int, mask: int) -> Cache:
        """``AAS_GetAreaRoutingCache``/``AAS_UpdateAreaRoutingCache``: the times to ``goal`` from the areas of ``cluster``."""
        key = (cluster, goal, mask)
        if key in self._area_caches:
            return self._area_caches[key]
        size = int(self.clusters['numreachabilityareas'][cluster])
        times = np.zeros(size, np.int64)
        taken = np.zeros(size, np.int64)
        self._area_caches[key] = cache = Cache(times, taken)
        number = self.cluster_area_num(cluster, goal)
        if number >= size:
            return cache
        usable = self.usable(mask)
        times[number] = 1
        # Each update is kept by cluster area number: an area queued again has its entry overwritten, as botlib's.
        update: dict[int, tuple[int, int, np.ndarray | None]] = {number: (goal, 1, None)}
        queued = {number}
        queue = deque([number])
        while queue:
            at = queue.popleft()
            queued.discard(at)
            area, elapsed, inside = update[at]
            for k, (nxt, link) in enumerate(self.reversed[area]):
                if not usable[link]:
                    continue
                other = int(self.cluster[nxt])
                if other > 0 and other != cluster:
                    continue  # no leaving the cluster
                there = self.cluster_area_num(cluster, nxt)
                if there >= size:
                    continue
                through = int(inside[k]) if inside is not None and k < len(inside) else 0  # the goal: no time inside it
                t = (elapsed + through + int(self.time[link])) & SHORT
                if not times[there] or times[there] > t:
                    times[there] = t
                    exit_index = link - int(self.first[nxt])
                    taken[there] = exit_index
                    update[there] = (nxt, t, self.inside(nxt)[exit_index])
                    if there not in queued:
                        queue.append(there)
                        queued.add(there)
        return cache

    def portal_cache(self, cluster: int, goal: int, mask: int) -> Cache:
        """``AAS_GetPortalRoutingCache``/``AAS_UpdatePortalRoutingCache``: the times to ``goal`` from each portal
        (its reachabilities never filled in, as botlib leaves them)."""
        key = (goal, mask)
        if key in self._portal_caches:
            return self._portal_caches[key]
        count = len(self.portals)
        times = np.zeros(count, np.int64)
        self._portal_caches[key] = cache = Cache(times, np.zeros(count, np.int64))
        if self.cluster[goal] < 0:
            times[-self.cluster[goal]] = 1
        update: dict[int, tuple[int, int, int]] = {count: (cluster, goal, 1)}
        queued = {count}
        queue = deque([count])
        while queue:
            at = queue.popleft()
            queued.discard(at)
            here, area, elapsed = update[at]
            routes = self.area_cache(here, area, mask)
            first, n = int(self.clusters['firstportal'][here]), int(self.clusters['numportals'][here])
            size = int(self.clusters['numreachabilityareas'][here])
            for portal in self.portal_index[first : first + n].tolist():
                portal_area = int(self.portals['areanum'][portal])
                if portal_area == area:
                    continue
                number = self.cluster_area_num(here, portal_area)
                if number >= size or not routes.times[number]:
                    continue
                t = (int(routes.times[number]) + elapsed) & SHORT
                if not times[portal] or times[portal] > t:
                    times[portal] = t
                    front, back = int(self.portals['frontcluster'][portal]), int(self.portals['backcluster'][portal])
                    update[portal] = (back if front == here else front, portal_area, (t + int(self.portal_max[portal])) & SHORT)
                    if portal not in queued:
                        queue.append(portal)
                        queued.add(portal)
        return cache

    def cluster_area_nums(self, cluster: int, areas: np.ndarray) -> np.ndarray:
        """:meth:`cluster_area_num` of many areas at once."""
        own = self.cluster[areas]
        out = self.cluster_area[areas].copy()
        portal = own <= 0
        if portal.any():
            records = self.portals[-own[portal]]
            side = (records['frontcluster'] != cluster).astype(np.int64)
            out[portal] = records['clusterareanum'][np.arange(len(side)), side]
        return out

    def times_to(self, starts: np.ndarray, origins: np.ndarray | None, goal: int, mask: int) -> np.ndarray:
        """``AAS_AreaRouteToGoalArea``'s travel times from many ``starts`` (valid areas with reachabilities, none the
        goal, all taking ``mask``: their do-not-enter flag already added) to one ``goal``."""
        out = np.zeros(len(starts), np.int64)
        here = self.cluster[starts].copy()
        goal_cluster = int(self.cluster[goal])
        there = np.full(len(starts), goal_cluster, np.int64)
        if goal_cluster > 0:  # a start that is a portal of the goal's cluster counts as in it
            records = self.portals[np.maximum(-here, 0)]
            beside = (here < 0) & ((records['frontcluster'] == goal_cluster) | (records['backcluster'] == goal_cluster))
            here = np.where(beside, goal_cluster, here)
        elif goal_cluster < 0:  # a portal goal beside the start's cluster counts as in it
            portal = self.portals[-goal_cluster]
            beside = (here > 0) & ((here == int(portal['frontcluster'])) | (here == int(portal['backcluster'])))
            there = np.where(beside, here, there)
        pending = np.ones(len(starts), bool)
        for cluster in np.unique(here[(here > 0) & (here == there)]).tolist():
            rows = np.flatnonzero((here == cluster) & (there == cluster))
            routes = self.area_cache(cluster, goal, mask)
            number = self.cluster_area_nums(cluster, starts[rows])
            inside = number < len(routes.times)
            pending[rows[~inside]] = False  # no reachability area of its cluster: 0
            rows, number = rows[inside], number[inside]
            found = routes.times[number] > 0
            rows, number = rows[found], number[found]
            out[rows] = routes.times[number]
            if origins is not None and len(rows):
                reach = self.first[starts[rows]] + routes.reachabilities[number]
                area = starts[rows]
                out[rows] += area_travel_time(self.crouch[area], self.swim[area], origins[rows], self.start[reach])
            pending[rows] = False
        rows = np.flatnonzero(pending)
        if not len(rows):
            return out
        own = self.cluster[starts[rows]]
        target = goal_cluster if goal_cluster > 0 else int(self.portals['frontcluster'][-goal_cluster])
        portals = self.portal_cache(target, goal, mask)
        at_portal = own < 0
        out[rows[at_portal]] = portals.times[-own[at_portal]]
        rows, own = rows[~at_portal], own[~at_portal]
        for cluster in np.unique(own).tolist():
            mine = rows[own == cluster]
            area = starts[mine]
            size = int(self.clusters['numreachabilityareas'][cluster])
            number = self.cluster_area_nums(cluster, area)
            best = np.zeros(len(mine), np.int64)
            found = np.zeros(len(mine), bool)
            first, n = int(self.clusters['firstportal'][cluster]), int(self.clusters['numportals'][cluster])
            for portal in self.portal_index[first : first + n].tolist():
                if not portals.times[portal]:
                    continue
                routes = self.area_cache(cluster, int(self.portals['areanum'][portal]), mask)
                usable = number < size
                times = np.where(usable, routes.times[np.minimum(number, len(routes.times) - 1)] if len(routes.times) else 0, 0)
                usable &= times > 0
                t = (int(portals.times[portal]) + times) & SHORT
                t = (t + int(self.portal_max[portal])) & SHORT
                if origins is not None:
                    reach = (
                        self.first[area] + routes.reachabilities[np.minimum(number, len(routes.times) - 1)] if len(routes.times) else self.first[area]
                    )
                    t = (t + area_travel_time(self.crouch[area], self.swim[area], origins[mine], self.start[reach])) & SHORT
                better = usable & ((best == 0) | (t < best))
                best = np.where(better, t, best)
                found |= usable
            out[mine] = np.where(found, best, 0)
        return out
