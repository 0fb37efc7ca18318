"""Byte-level readers of the Quake model formats, one module per format.

Importing this package registers :mod:`.md2`, :mod:`.mdl`, :mod:`.md3`,
:mod:`.iqm`, :mod:`.md5` and :mod:`.bsp` (levels); :func:`read_buffer` picks the format by the
file's magic bytes (MD5, a text format, by its grammar).
"""

from __future__ import annotations

from pyvista_quake.formats import bsp
from pyvista_quake.formats import iqm
from pyvista_quake.formats import md2
from pyvista_quake.formats import md3
from pyvista_quake.formats import md5
from pyvista_quake.formats import mdl
from pyvista_quake.formats import sprite
from pyvista_quake.formats.registry import FORMATS
from pyvista_quake.formats.registry import format_for_path
from pyvista_quake.formats.registry import level_of_detail_base
from pyvista_quake.formats.registry import load_plugins
from pyvista_quake.formats.registry import model_extensions
from pyvista_quake.formats.registry import parse_buffer
from pyvista_quake.formats.registry import read_buffer
from pyvista_quake.formats.registry import register_format
from pyvista_quake.formats.registry import spec_for
from pyvista_quake.formats.registry import spec_of_record

__all__ = [
    'FORMATS',
    'bsp',
    'format_for_path',
    'level_of_detail_base',
    'load_plugins',
    'model_extensions',
    'iqm',
    'md2',
    'md3',
    'md5',
    'mdl',
    'parse_buffer',
    'read_buffer',
    'register_format',
    'spec_for',
    'spec_of_record',
    'sprite',
]
