"""Quake (``.mdl``) and Quake II (``.md2``) models in PyVista.

After installation, ``pyvista.read("tris.md2")`` and ``pyvista.get_reader``
work without importing this package.  :func:`load` gives the
format-neutral :class:`QuakeModel`, with every frame and animation.
"""

from __future__ import annotations

from pyvista_quake.animation import Animation
from pyvista_quake.batch import render_thumbnail
from pyvista_quake.batch import thumbnails
from pyvista_quake.engines import Finding
from pyvista_quake.engines import check
from pyvista_quake.errors import QuakeFormatError
from pyvista_quake.errors import QuakeWarning
from pyvista_quake.exporting import export
from pyvista_quake.exporting import to_meshio
from pyvista_quake.loading import load
from pyvista_quake.model import QuakeModel
from pyvista_quake.options import DEFAULT_FPS
from pyvista_quake.options import LoadOptions
from pyvista_quake.players import QuakePlayer
from pyvista_quake.players import load_player
from pyvista_quake.plotting import animate
from pyvista_quake.plotting import contact_sheet
from pyvista_quake.plotting import plot
from pyvista_quake.plotting import thumbnail
from pyvista_quake.saving import save
from pyvista_quake.surface_model import SurfaceModel

__version__ = '0.1.0'

__all__ = [
    'DEFAULT_FPS',
    'Animation',
    'Finding',
    'LoadOptions',
    'QuakeFormatError',
    'QuakeModel',
    'QuakePlayer',
    'QuakeWarning',
    'SurfaceModel',
    '__version__',
    'animate',
    'check',
    'contact_sheet',
    'export',
    'load',
    'load_player',
    'plot',
    'render_thumbnail',
    'save',
    'thumbnail',
    'thumbnails',
    'to_meshio',
]
