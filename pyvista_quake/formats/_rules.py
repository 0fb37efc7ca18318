"""What game engines check in a model's file: the rules a format registers with, for :mod:`pyvista_quake.game.engines`.

A rule is a test of the file's *facts* (its header fields, plus what its format's
``facts`` function measures), the engines that apply it, and what they do.  The
rules sit in each format's module beside the layout they check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from typing import Callable

REFUSES, MISDRAWS, WARNS = 'refuses', 'misdraws', 'warns'

QUAKE_ENGINES = ('quake', 'glquake', 'quakespasm', 'ezquake')
QUAKE2_ENGINES = ('quake2', 'yquake2')
QUAKE3_ENGINES = ('quake3', 'ioquake3')


@dataclass(frozen=True)
class Rule:
    """One check some engines make of a file.

    Attributes
    ----------
    engines : tuple of str
        The engines that make it.
    field : str
        The field of the format, named as in the spec.
    test : callable
        ``test(facts) -> value``: the offending value, or ``None`` (or ``False``) when the file passes.
    effect : str
        ``'refuses'``, ``'misdraws'`` or ``'warns'``.
    rule : str
        What the engines check or do, in a few words.
    where : dict of str to str
        Each engine's file and function that do it.

    """

    engines: tuple[str, ...]
    field: str
    test: Callable[[dict], Any]
    effect: str
    rule: str
    where: dict[str, str]


def over(field: str, limit: int) -> Callable[[dict], Any]:
    """A test failing a fact above ``limit``."""
    return lambda f: f[field] if f[field] > limit else None


def under(field: str, limit: int) -> Callable[[dict], Any]:
    """A test failing a fact below ``limit``."""
    return lambda f: f[field] if f[field] < limit else None
