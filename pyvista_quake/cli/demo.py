"""The ``demo`` command: a Quake demo's map and players (``demo info``), many demos as one table (``demo table``)."""

from __future__ import annotations

import json as json_module
from pathlib import Path
from typing import Annotated
from typing import Any

from cyclopts import App
from cyclopts import Parameter
from rich.table import Table

from pyvista_quake.cli._app import CLI_APP
from pyvista_quake.cli._app import CONSOLE
from pyvista_quake.model.demos import demo_table
from pyvista_quake.model.demos import find_demos
from pyvista_quake.model.demos import load_demo
from pyvista_quake.render.plotting import thumbnail

DEMO_APP = App(name='demo', help='Quake demos (.dem): who went where and when (info, plot, table).')
CLI_APP.command(DEMO_APP)


@DEMO_APP.command
def info(demos: list[str], /, *, json: bool = False) -> int:
    """Map, protocol, length and players of each demo.

    Parameters
    ----------
    demos
        Demo files, folders, PAK/PK3 files, ARCHIVE:MEMBER paths or glob patterns.
    json
        Print one JSON document: a list with an entry per demo.
    """
    places = find_demos(list(demos))
    if not places:
        raise ValueError(f'no demos found in {", ".join(demos)}')
    records: list[dict[str, Any]] = []
    for place in places:
        demo = load_demo(place.path, place.member)
        records.append(
            {
                'demo': str(place),
                'map': demo.map,
                'protocol': demo.protocol,
                'duration': round(demo.duration, 3),
                'messages': len(demo.times),  # snapshots, of a Quake III demo
                'players': {str(k): v for k, v in demo.players.items()},
                'recording_client': demo.recording_client,
            }
        )
    if json:
        print(json_module.dumps(records, indent=1))
        return 0
    for record in records:
        table = Table(title=record['demo'], show_header=False, title_justify='left')
        table.add_row('map', record['map'])
        table.add_row('protocol', str(record['protocol']))
        table.add_row('length', f'{record["duration"]:.1f} s, {record["messages"]} snapshots')
        table.add_row('players', ', '.join(f'{k}: {v}' for k, v in record['players'].items()) or 'none')
        CONSOLE.print(table)
    return 0


@DEMO_APP.command
def plot(
    demo: str,
    /,
    *,
    output: Annotated[Path, Parameter(name=['--output', '-o'])],
    size: tuple[int, int] = (512, 512),
) -> int:
    """A picture of a demo: its players' trajectories, a colour each, over its level from above, frags marked.

    Parameters
    ----------
    demo
        A demo file or ARCHIVE:MEMBER (pak0.pak:demo1.dem); its level is looked for among the game's files beside it.
    output
        The PNG to write.
    size
        The picture's width and height.
    """
    loaded = load_demo(demo)
    thumbnail(loaded, output, size=size)
    level = 'over ' + loaded.map if loaded.level is not None else 'without its level (not found)'
    CONSOLE.print(f'wrote {output}: {len(loaded.clients)} players {level}')
    return 0


@DEMO_APP.command
def table(demos: list[str], /, *, output: Annotated[Path, Parameter(name=['--output', '-o'])]) -> int:
    """Every player at every message of the demos, as one table: CSV, or Parquet (``.parquet``, with pandas and pyarrow).

    Parameters
    ----------
    demos
        Demo files, folders, PAK/PK3 files, ARCHIVE:MEMBER paths or glob patterns.
    output
        The table: ``.csv`` or ``.parquet``.
    """
    rows = demo_table(list(demos))
    suffix = output.suffix.lower()
    if suffix not in ('.csv', '.parquet'):
        raise ValueError(f'{output}: a table is written as .csv or .parquet')
    if isinstance(rows, dict):
        if suffix == '.parquet':
            raise ValueError('Parquet needs pandas and pyarrow: pip install pandas pyarrow, or write .csv')
        _write_csv(rows, output)
        count = len(rows['time'])
    else:
        rows.to_parquet(output) if suffix == '.parquet' else rows.to_csv(output, index=False)
        count = len(rows)
    CONSOLE.print(f'wrote {output} ({count} rows)')
    return 0


def _write_csv(columns: dict, path: Path) -> None:
    """The columns as CSV, without pandas."""
    import csv  # noqa: PLC0415 - only without pandas

    names = list(columns)
    with path.open('w', newline='', encoding='utf-8') as handle:
        writer = csv.writer(handle)
        writer.writerow(names)
        writer.writerows(zip(*(columns[name].tolist() for name in names)))
