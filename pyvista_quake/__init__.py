"""Quake (``.mdl``), Quake II (``.md2``) and Quake III (``.md3``) models in PyVista.

After installation, ``pyvista.read("tris.md2")`` and ``pyvista.get_reader``
work without importing this package.  :func:`load` gives the one model
class of every format, :class:`QuakeModel`: its surfaces, frames and animations.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING
from typing import Any

# What reading needs, and no more: a first pv.read of a model imports this package, and the
# pictures, export, catalogue and batches (VTK's rendering, meshio, pygltflib, h5py,
# multiprocessing) would cost it most of a second.  They are imported when first named.
from pyvista_quake.plugin import readers as _readers  # noqa: F401 - PyVista reads the formats registered below

if TYPE_CHECKING:
    from pyvista_quake._base.errors import NothingToDrawError
    from pyvista_quake._base.errors import QuakeFormatError
    from pyvista_quake._base.errors import QuakeWarning
    from pyvista_quake._base.options import DEFAULT_FPS
    from pyvista_quake._base.options import LoadOptions
    from pyvista_quake.data.animation import Animation
    from pyvista_quake.exporting.api import export
    from pyvista_quake.exporting.api import viewer
    from pyvista_quake.exporting.export import to_meshio
    from pyvista_quake.formats import register_format
    from pyvista_quake.formats.bsp import CONTENTS
    from pyvista_quake.formats.bsp import MASKS
    from pyvista_quake.formats.records import Clip
    from pyvista_quake.formats.records import Joint
    from pyvista_quake.formats.records import JointWeights
    from pyvista_quake.formats.records import ModelData
    from pyvista_quake.formats.records import Packing
    from pyvista_quake.formats.records import SkeletalAnimationData
    from pyvista_quake.formats.records import Skeleton
    from pyvista_quake.formats.records import SurfaceData
    from pyvista_quake.formats.records import Tag
    from pyvista_quake.game.engines import Finding
    from pyvista_quake.game.engines import check
    from pyvista_quake.model.demos import Demo
    from pyvista_quake.model.demos import load_demo
    from pyvista_quake.model.loading import load
    from pyvista_quake.model.navigation import Navigation
    from pyvista_quake.model.navigation import load_navigation
    from pyvista_quake.model.players import QuakePlayer
    from pyvista_quake.model.players import load_player
    from pyvista_quake.model.quake_model import QuakeModel
    from pyvista_quake.model.quake_model import Surface
    from pyvista_quake.model.quake_model import SurfaceModel
    from pyvista_quake.model.saving import save
    from pyvista_quake.publish.catalogue import catalogue
    from pyvista_quake.render.batch import render_thumbnail
    from pyvista_quake.render.batch import thumbnails
    from pyvista_quake.render.plotting import animate
    from pyvista_quake.render.plotting import contact_sheet
    from pyvista_quake.render.plotting import plot
    from pyvista_quake.render.plotting import thumbnail

__version__ = '0.2.0'

#: Each public name and the module it comes from, imported when first asked for (PEP 562).
_PUBLIC = {
    'NothingToDrawError': 'pyvista_quake._base.errors',
    'QuakeFormatError': 'pyvista_quake._base.errors',
    'QuakeWarning': 'pyvista_quake._base.errors',
    'DEFAULT_FPS': 'pyvista_quake._base.options',
    'LoadOptions': 'pyvista_quake._base.options',
    'Animation': 'pyvista_quake.data.animation',
    'export': 'pyvista_quake.exporting.api',
    'to_meshio': 'pyvista_quake.exporting.export',
    'viewer': 'pyvista_quake.exporting.api',
    'register_format': 'pyvista_quake.formats',
    'CONTENTS': 'pyvista_quake.formats.bsp',
    'MASKS': 'pyvista_quake.formats.bsp',
    'Clip': 'pyvista_quake.formats.records',
    'Joint': 'pyvista_quake.formats.records',
    'JointWeights': 'pyvista_quake.formats.records',
    'ModelData': 'pyvista_quake.formats.records',
    'Packing': 'pyvista_quake.formats.records',
    'SkeletalAnimationData': 'pyvista_quake.formats.records',
    'Skeleton': 'pyvista_quake.formats.records',
    'SurfaceData': 'pyvista_quake.formats.records',
    'Tag': 'pyvista_quake.formats.records',
    'Finding': 'pyvista_quake.game.engines',
    'check': 'pyvista_quake.game.engines',
    'load': 'pyvista_quake.model.loading',
    'QuakePlayer': 'pyvista_quake.model.players',
    'load_player': 'pyvista_quake.model.players',
    'Navigation': 'pyvista_quake.model.navigation',
    'Demo': 'pyvista_quake.model.demos',
    'load_demo': 'pyvista_quake.model.demos',
    'load_navigation': 'pyvista_quake.model.navigation',
    'QuakeModel': 'pyvista_quake.model.quake_model',
    'Surface': 'pyvista_quake.model.quake_model',
    'SurfaceModel': 'pyvista_quake.model.quake_model',
    'save': 'pyvista_quake.model.saving',
    'catalogue': 'pyvista_quake.publish.catalogue',
    'render_thumbnail': 'pyvista_quake.render.batch',
    'thumbnails': 'pyvista_quake.render.batch',
    'animate': 'pyvista_quake.render.plotting',
    'contact_sheet': 'pyvista_quake.render.plotting',
    'plot': 'pyvista_quake.render.plotting',
    'thumbnail': 'pyvista_quake.render.plotting',
}


#: Modules offered by a short name: ``pq.demos.table(paths)``.
_MODULES = {'demos': 'pyvista_quake.model.demos'}


def __getattr__(name: str) -> Any:
    """Import a public name's module when the name is first asked for."""
    if name in _MODULES:
        globals()[name] = import_module(_MODULES[name])
        return globals()[name]
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
    value = getattr(import_module(module), name)
    globals()[name] = value  # found here from then on
    return value


def __dir__() -> list[str]:
    """The module's names and the public ones not imported yet."""
    return sorted({*globals(), *_PUBLIC, *_MODULES})


__all__ = [
    'CONTENTS',
    'DEFAULT_FPS',
    'Demo',
    'MASKS',
    'Animation',
    'Clip',
    'Finding',
    'Joint',
    'JointWeights',
    'LoadOptions',
    'ModelData',
    'Navigation',
    'NothingToDrawError',
    'Packing',
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
    'load_demo',
    'load_navigation',
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
