"""One helper for every warning of the package: it points at the user's line.

As PyVista's own ``warn_external``: the warning is attributed to the first
stack frame outside this package (and outside PyVista and VTK, which call
our readers), so ``warnings`` filters and messages name the user's code.
"""

from __future__ import annotations

import os
import sys
import warnings

import pyvista

from pyvista_quake.errors import QuakeWarning

_INTERNAL = tuple(
    os.path.dirname(module.__file__) + os.sep
    for module in (sys.modules[__name__.rsplit('.', 1)[0]], pyvista)
    if getattr(module, '__file__', None)
)


def warn_external(message: str, category: type[Warning] = QuakeWarning) -> None:
    """Issue a warning attributed to the first caller outside pyvista-quake and PyVista."""
    frame = sys._getframe(1)
    level = 2  # 1 is this function, 2 its caller
    while frame is not None and frame.f_code.co_filename.startswith(_INTERNAL):
        frame = frame.f_back
        level += 1
    warnings.warn(message, category, stacklevel=level)
