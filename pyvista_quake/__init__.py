"""Quake (``.mdl``), Quake II (``.md2``) and Quake III (``.md3``) models in PyVista.

After installation, ``pyvista.read("tris.md2")`` and ``pyvista.get_reader``
work without importing this package.  :func:`load` gives the one model
class of every format, :class:`QuakeModel`: its surfaces, frames and animations.
"""

from __future__ import annotations

from pyvista_quake._base.errors import NothingToDrawError
from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake._base.errors import QuakeWarning
from pyvista_quake._base.options import DEFAULT_FPS
from pyvista_quake._base.options import LoadOptions
from pyvista_quake.data.animation import Animation
from pyvista_quake.exporting.api import export
from pyvista_quake.exporting.export import to_meshio
from pyvista_quake.exporting.html import viewer
from pyvista_quake.formats import load_plugins
from pyvista_quake.formats import register_format
from pyvista_quake.formats.records import Clip
from pyvista_quake.formats.records import Joint
from pyvista_quake.formats.records import JointWeights
from pyvista_quake.formats.records import ModelData
from pyvista_quake.formats.records import SkeletalAnimationData
from pyvista_quake.formats.records import Skeleton
from pyvista_quake.formats.records import SurfaceData
from pyvista_quake.formats.records import Tag
from pyvista_quake.game.engines import Finding
from pyvista_quake.game.engines import check
from pyvista_quake.model.loading import load
from pyvista_quake.model.players import QuakePlayer
from pyvista_quake.model.players import load_player
from pyvista_quake.model.quake_model import QuakeModel
from pyvista_quake.model.quake_model import Surface
from pyvista_quake.model.quake_model import SurfaceModel
from pyvista_quake.model.saving import save
from pyvista_quake.plugin import readers as _readers  # noqa: F401 - PyVista reads the formats registered below
from pyvista_quake.publish.catalogue import catalogue
from pyvista_quake.render.batch import render_thumbnail
from pyvista_quake.render.batch import thumbnails
from pyvista_quake.render.plotting import animate
from pyvista_quake.render.plotting import contact_sheet
from pyvista_quake.render.plotting import plot
from pyvista_quake.render.plotting import thumbnail

__version__ = '0.2.0'

load_plugins()  # the formats installed packages declare (entry points of 'pyvista_quake.formats')

__all__ = [
    'DEFAULT_FPS',
    'Animation',
    'Clip',
    'Finding',
    'Joint',
    'JointWeights',
    'LoadOptions',
    'ModelData',
    'NothingToDrawError',
    'QuakeFormatError',
    'QuakeModel',
    'QuakePlayer',
    'QuakeWarning',
    'SkeletalAnimationData',
    'Skeleton',
    'Surface',
    'SurfaceData',
    'SurfaceModel',
    'Tag',
    '__version__',
    'animate',
    'catalogue',
    'check',
    'contact_sheet',
    'export',
    'load',
    'load_player',
    'plot',
    'register_format',
    'render_thumbnail',
    'save',
    'thumbnail',
    'thumbnails',
    'to_meshio',
    'viewer',
]
