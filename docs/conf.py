"""Sphinx configuration: PyData theme, sphinx-gallery, numpydoc, MyST -- as PyVista's own documentation."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault('VTK_DEFAULT_OPENGL_WINDOW', 'vtkEGLRenderWindow')  # render offscreen, no display
os.environ.setdefault('MPLBACKEND', 'Agg')

import pyvista  # noqa: E402

pyvista.OFF_SCREEN = True
pyvista.BUILDING_GALLERY = True
pyvista.set_plot_theme('document')

import pyvista_quake  # noqa: E402

ROOT = Path(__file__).resolve().parent

project = 'pyvista-quake'
author = 'the pyvista-quake developers'
copyright = '2026, the pyvista-quake developers'  # noqa: A001
release = version = pyvista_quake.__version__

extensions = [
    'sphinx.ext.autodoc',
    'sphinx.ext.viewcode',
    'numpydoc',
    'myst_parser',
    'sphinx_gallery.gen_gallery',
]
source_suffix = {'.rst': 'restructuredtext', '.md': 'markdown'}
exclude_patterns = ['_build', 'auto_examples/*.ipynb', 'auto_examples/*.py', 'auto_examples/*.zip']
myst_heading_anchors = 3
suppress_warnings = ['myst.xref_missing']  # links to files outside the docs (LICENSE texts, scripts)

autodoc_typehints = 'none'  # numpydoc docstrings carry the types
autodoc_default_options = {'member-order': 'bysource'}
numpydoc_show_class_members = False
numpydoc_validation_checks: set[str] = set()
numpydoc_xref_param_type = False

sphinx_gallery_conf = {
    'examples_dirs': ['../examples'],
    'gallery_dirs': ['auto_examples'],
    'filename_pattern': r'/plot_',
    'image_scrapers': ('pyvista', 'matplotlib'),
    'download_all_examples': False,
    'remove_config_comments': True,
    'within_subsection_order': 'FileNameSortKey',
}

html_theme = 'pydata_sphinx_theme'
html_title = 'pyvista-quake'
html_theme_options = {'navigation_with_keys': False, 'show_toc_level': 2}
html_static_path: list[str] = []
