"""The ``check`` command: what each engine would refuse, misdraw or warn about."""

from __future__ import annotations

from rich.table import Table

from pyvista_quake.cli._app import CLI_APP
from pyvista_quake.cli._app import each
from pyvista_quake.cli._app import plain
from pyvista_quake.game.engines import ENGINES
from pyvista_quake.game.engines import examined
from pyvista_quake.game.engines import verdicts
from pyvista_quake.game.sources import Place


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
    return each(models, _check, _check_table, json, 'check')


def _check(path: Place) -> dict:
    spec, found, engines = examined(path.path, path.member)  # a Cube 2 model's folder: the mesh its config loads
    fmt = spec.name
    verdict = verdicts(found, fmt, engines)
    return {
        'model': str(path),
        'format': fmt,
        'verdicts': verdict,
        'findings': [
            {'engine': f.engine, 'rule': f.rule, 'field': f.field, 'value': plain(f.value), 'effect': f.effect, 'where': f.where} for f in found
        ],
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
