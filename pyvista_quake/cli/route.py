"""The ``route`` command: the way a bot goes between two points of a level, from its navigation file."""

from __future__ import annotations

import json as json_module
from pathlib import Path
from typing import Annotated

from cyclopts import Parameter
import numpy as np
from rich.table import Table

from pyvista_quake.cli._app import CLI_APP
from pyvista_quake.cli._app import CONSOLE
from pyvista_quake.model.loading import load
from pyvista_quake.render.plotting import paths_picture


@CLI_APP.command
def route(
    level: str,
    /,
    *,
    start: Annotated[tuple[float, float, float], Parameter(name=['--from'])],
    goal: Annotated[tuple[float, float, float], Parameter(name=['--to'])],
    flags: Annotated[list[str] | None, Parameter(name=['--flags'])] = None,
    output: Annotated[Path | None, Parameter(name=['--output', '-o'])] = None,
    size: tuple[int, int] = (512, 512),
    json: bool = False,
) -> int:
    """The way a bot goes from one point of a level to another (its maps/NAME.aas beside it in the game's files).

    Parameters
    ----------
    level
        The level: a .bsp file or ARCHIVE:MEMBER (pak0.pk3:maps/q3dm6.bsp).
    start
        Where the bot starts: X Y Z.
    goal
        Where it goes: X Y Z.
    flags
        Travel flags by name (default: the bots' own, "default"; add "rocketjump" ...).
    output
        A PNG of the route over the level, from above.
    size
        The picture's width and height.
    json
        Print the route as one JSON document.
    """
    model = load(level)
    navigation = model.navigation
    if navigation is None:
        raise ValueError(f"{level}: no bot navigation file (maps/NAME.aas) beside it in the game's files")
    found = navigation.route(start, goal, flags or 'default')
    record = {
        'level': level,
        'from': list(start),
        'to': list(goal),
        'reached': found.reached,
        'time': found.time,
        'areas': found.areas.tolist(),
        'reachabilities': found.reachabilities.tolist(),
        'travel_types': found.travel_types,
    }
    if output is not None:
        # Framed on where the bots can go (where the file says), not on the sky box around the level.
        areas = np.asarray(navigation.areas.bounds, np.float64) if navigation.areas.n_points else np.zeros(6)
        wide = bool((areas[1:4:2] > areas[0:4:2]).all())
        paths_picture(model, found.line, output, size, bounds=areas if wide else None)
        record['picture'] = str(output)
    if json:
        print(json_module.dumps(record, indent=1))
        return 0
    table = Table(title=level, show_header=False, title_justify='left')
    table.add_row('reached', 'yes' if found.reached else 'no')
    table.add_row('travel time', f'{found.time / 100:.2f} s ({found.time})')
    table.add_row('areas', ' '.join(map(str, record['areas'])))
    table.add_row('hops', ', '.join(found.travel_types) or 'none')
    if output is not None:
        table.add_row('picture', str(output))
    CONSOLE.print(table)
    return 0
