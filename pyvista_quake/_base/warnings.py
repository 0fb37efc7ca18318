"""One helper for every warning of the package: it points at the user's line.

As PyVista's own ``warn_external``: the warning is attributed to the first
stack frame outside this package (and outside PyVista and VTK, which call
our readers, and ``functools``, whose cached properties call our code), so
``warnings`` filters and messages name the user's code.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import sys
from types import FrameType
from typing import Any
from typing import Callable
from typing import Mapping
import warnings

from pyvista_quake._base.errors import QuakeWarning

# This package's folder and PyVista's, found without importing PyVista.
_INTERNAL = tuple(
    os.path.dirname(spec.origin) + os.sep
    for spec in (importlib.util.find_spec(__name__.split('.')[0]), importlib.util.find_spec('pyvista'))
    if spec is not None and spec.origin
)
# Frames of the standard library's functools stand between ours (cached_property).
_PASSED_THROUGH = (functools.__file__,)


def warn_external(message: str, category: type[Warning] = QuakeWarning) -> None:
    """Issue a warning attributed to the first caller outside pyvista-quake and PyVista."""
    frame: FrameType | None = sys._getframe(1)
    level = 2  # 1 is this function, 2 its caller
    while frame is not None and (frame.f_code.co_filename.startswith(_INTERNAL) or frame.f_code.co_filename in _PASSED_THROUGH):
        frame = frame.f_back
        level += 1
    warnings.warn(message, category, stacklevel=level)


def moved_names(module: str, moved: Mapping[str, tuple[Any, str]], release: str = '0.4') -> Callable[[str], Any]:
    """A module's ``__getattr__`` for names it had: each answers its new home's value, with a ``DeprecationWarning``
    saying where it lives now (``moved``: name -> ``(value, where)``); any other name is an ``AttributeError``."""

    def old_name(name: str) -> Any:
        if name not in moved:
            raise AttributeError(f'module {module!r} has no attribute {name!r}')
        value, where = moved[name]
        warn_external(f'{module}.{name} is deprecated and changes in pyvista-quake {release} (it goes); use {where}', DeprecationWarning)
        return value

    return old_name
