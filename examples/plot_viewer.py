"""
Play a model in a browser: one self-contained page, and a whole game's catalogue
================================================================================

``pyvista_quake.export(model, "x.html")`` writes one HTML file that plays the
model with three.js (shipped in the package): orbit and zoom, play and pause,
a time slider, an animation picker and the frame's number and name.  It makes
no request, so it opens from disk.  In a notebook, ``pyvista_quake.viewer(model)``
shows the same player in the cell's output, and it still plays once the
notebook is saved or exported to HTML.  ``pyvista_quake.catalogue`` writes a
static site of every model of a game.
"""

from pathlib import Path
import sys

import pyvista as pv

import pyvista_quake as pq
from pyvista_quake import examples

path = sys.argv[1] if len(sys.argv) > 1 else examples.sample_model('md2')
page = Path('dolphin.html')
pq.export(path, page)  # one file: the model's glTF and the viewer's script inside
print(page, f'{page.stat().st_size / 1e6:.1f} MB, every animation:', ', '.join(pq.load(path).animations))

# %%
# A notebook shows the same page in an iframe of its own: make the viewer the
# last line of a cell.
viewer = pq.viewer(path)
print(viewer._repr_html_()[:60], '...')

# %%
# A catalogue of several models: an index of their pictures, to search and
# filter, and a page a model with the viewer.  A second run redoes only what changed.
report = pq.catalogue([examples.sample_model('md2'), examples.sample_model('mdl')], 'catalogue', size=(128, 128))
print(len(report.made), 'pages in catalogue/index.html')

# %%
# The picture of the index's first card, as the catalogue drew it.
card = pv.read(next(Path('catalogue/thumbs').rglob('*.png')))
card.plot(rgb=True, cpos='xy', show_axes=False, off_screen=True)
