"""What each game engine does with a model: which would refuse it, misdraw it, or warn.

The rules come from the engines' own loaders and renderers, each citing the
function that applies it:

- ``quake``: WinQuake, id's software renderer (``WinQuake/model.c``, ``r_alias.c``);
- ``glquake``: id's GLQuake (``WinQuake/gl_model.c``, ``gl_rmain.c``, ``gl_mesh.c``);
- ``quakespasm``: QuakeSpasm (``Quake/gl_model.c``, ``r_alias.c``);
- ``ezquake``: ezQuake (``r_aliasmodel.c``, ``r_aliasmodel_skins.c``);
- ``quake2``: id's Quake II OpenGL renderer (``ref_gl/gl_model.c``, ``gl_mesh.c``);
- ``yquake2``: Yamagi Quake II (``src/client/refresh/files/models.c``);
- ``iqmdemo``: the IQM developer kit's demo (``demo/iqm.cpp``), the reference IQM loader;
- ``cube2``: Cube 2 engines, Sauerbraten and Red Eclipse (``src/engine/iqm.h``, ``md5.h``);
- ``doom3``: Doom 3 as dhewm3 carries it (``neo/renderer/Model_md5.cpp``, ``neo/game/anim/Anim.cpp``).

:func:`check` lists the findings for a file; ``strict=`` of :func:`~pyvista_quake.load`
raises for what one engine (or any, with ``True``) refuses.  The reader itself
refuses only what no engine can draw.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake.formats import FORMATS
from pyvista_quake.formats import parse_buffer
from pyvista_quake.formats import spec_for
from pyvista_quake.formats import spec_of_record
from pyvista_quake.formats._rules import MISDRAWS
from pyvista_quake.formats._rules import QUAKE2_ENGINES  # noqa: F401 - the engine groups, for users of this module
from pyvista_quake.formats._rules import QUAKE3_ENGINES  # noqa: F401
from pyvista_quake.formats._rules import QUAKE_ENGINES  # noqa: F401
from pyvista_quake.formats._rules import REFUSES
from pyvista_quake.formats._rules import WARNS
from pyvista_quake.formats.registry import FormatSpec
from pyvista_quake.game import model_configs
from pyvista_quake.game.sources import read_source

#: Engine names and what they stand for.
ENGINES = {
    'quake': 'WinQuake (id, software renderer)',
    'glquake': 'GLQuake (id)',
    'quakespasm': 'QuakeSpasm',
    'ezquake': 'ezQuake',
    'quake2': 'Quake II (id, OpenGL renderer)',
    'yquake2': 'Yamagi Quake II',
    'quake3': 'Quake III Arena 1.32 (id)',
    'ioquake3': 'ioquake3',
    'iqmdemo': "the IQM developer kit's demo",
    'cube2': 'Cube 2 engines (Sauerbraten, Red Eclipse)',
    'doom3': 'Doom 3 (id, as dhewm3 carries it)',
}
#: ``MF_HOLEY``: QuakeSpasm (and MarkV, QSS) draw palette index 255 transparent on such models.
MF_HOLEY = 1 << 14


@dataclass(frozen=True)
class Finding:
    """One engine's verdict on one thing in a file.

    Attributes
    ----------
    engine : str
        A key of :data:`ENGINES`.
    rule : str
        What the engine checks or does, in a few words.
    field : str
        The field of the format, named as in the spec.
    value : Any
        The file's value.
    effect : str
        ``'refuses'`` (the engine will not load it), ``'misdraws'`` (it loads
        and draws it wrongly, or overruns an array) or ``'warns'``.
    where : str
        The engine's file and function that do it.

    """

    engine: str
    rule: str
    field: str
    value: Any
    effect: str
    where: str

    def __str__(self) -> str:
        """One line: engine, effect, field, value, rule and where."""
        return f'{self.engine} {self.effect}: {self.field} = {self.value!r}: {self.rule} ({self.where})'


def findings(record, size: int, spec: FormatSpec | None = None) -> list[Finding]:
    """Every engine's findings on a parsed file of ``size`` bytes, by the rules its format registered.

    ``spec`` is the file's format (found from the records when not given).  Only the engines that judge
    the file (:func:`judges`) have findings: a Quake III level is not Quake 1's to refuse.
    """
    return _judged(record, size, spec)[1]


def judges(record, size: int, spec: FormatSpec | None = None) -> tuple[str, ...]:
    """The engines that judge a parsed file: its format's, or where the file names its game (a level), that game's."""
    return _judged(record, size, spec)[0]


def _judged(record, size: int, spec: FormatSpec | None) -> tuple[tuple[str, ...], list[Finding]]:
    spec = spec if spec is not None else spec_of_record(record)
    if not spec.engines or spec.facts is None:
        return tuple(spec.engines), []
    facts = spec.facts(record, size)
    engines = tuple(facts.get('engines', spec.engines))
    out = []
    for rule in spec.rules:
        value = rule.test(facts)
        if value is None or value is False:
            continue
        for engine in rule.engines:
            if engine in engines:
                out.append(Finding(engine, rule.rule, rule.field, value, rule.effect, rule.where[engine]))
    return engines, out


def check(source: Any, **options: Any) -> list[Finding]:
    """What each engine would do with a model: the findings, empty for a model every engine draws.

    Parameters
    ----------
    source : str, pathlib.Path, bytes or binary file
        The model (for a Cube 2 model, also its config or the folder holding it: the mesh it loads is checked).
    **options
        ``member=`` for a model inside a PAK or PK3.

    Returns
    -------
    list of Finding
        One per engine and rule the file breaks.

    Raises
    ------
    QuakeFormatError
        For a file no engine can draw (structurally broken).

    Examples
    --------
    >>> import pyvista_quake as pq
    >>> for finding in pq.check('models/soldiers/male/body.md2'):  # doctest: +SKIP
    ...     print(finding)

    """
    return examined(source, options.pop('member', None))[1]


def examined(source: Any, member: str | None = None) -> tuple[FormatSpec, list[Finding], tuple[str, ...]]:
    """A model's format, :func:`check`'s findings and the engines that judge it (:func:`judges`), its file
    read once (a Cube 2 folder or config: the mesh it loads)."""
    if model_configs.is_config_source(source, member):
        source = model_configs.model_config(Path(source))[1]
    buffer, location = read_source(source, member)
    spec = spec_for(buffer, location.name)
    engines, found = _judged(parse_buffer(buffer, location.name, spec), len(buffer), spec)
    return spec, found, engines


def enforce(record, size: int, strict: bool | str, source: str, spec: FormatSpec | None = None) -> None:
    """Raise :class:`QuakeFormatError` for what ``strict`` engines refuse (``True``: any engine)."""
    if not strict:
        return
    if strict is not True and strict not in ENGINES:
        raise ValueError(f'strict must be True, False or an engine name ({", ".join(ENGINES)}), not {strict!r}')
    spec = spec if spec is not None else spec_of_record(record)
    if strict is not True and strict not in spec.engines:
        raise QuakeFormatError(source, 'ident', spec.name.upper(), f'{ENGINES[strict]} cannot load {spec.title or spec.name} at all (strict)')
    for finding in findings(record, size, spec):
        if finding.effect == REFUSES and (strict is True or finding.engine == strict):
            raise QuakeFormatError(
                source, finding.field, finding.value, f'{ENGINES[finding.engine]} refuses: {finding.rule} ({finding.where}) (strict)'
            )


def verdicts(found: list[Finding], format: str, engines: tuple[str, ...] | None = None) -> dict[str, str]:
    """The worst effect per engine that judges the file (``engines``, from :func:`judges`; else every engine
    that loads the format, its registered name): ``'refuses'``, ``'misdraws'``, ``'warns'`` or ``'loads'``."""
    order = (REFUSES, MISDRAWS, WARNS)
    out = {}
    for engine in engines if engines is not None else FORMATS[format].engines:
        effects = [f.effect for f in found if f.engine == engine]
        out[engine] = next((e for e in order if e in effects), 'loads')
    return out


def holey_mask(indices: np.ndarray) -> np.ndarray:
    """Texels QuakeSpasm draws transparent on an ``MF_HOLEY`` model: palette index 255."""
    return indices == 255
