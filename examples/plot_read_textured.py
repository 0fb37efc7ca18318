"""
Read and plot a textured model
==============================

``pyvista.read`` opens a Quake II ``.md2`` (or a Quake ``.mdl``) without
importing this package: frame 0, with normals, texture coordinates and the
skin the game would find.  :func:`pyvista_quake.plot` draws it textured, lit
and framed from a three-quarter front view.
"""

import sys

import pyvista as pv

import pyvista_quake as pq
from pyvista_quake import examples

path = sys.argv[1] if len(sys.argv) > 1 else examples.sample_model('md2')
mesh = pv.read(path)
print(mesh.quake.format, mesh.quake.frame_name, mesh.quake.skin_location)
print(mesh)

# %%
# The skin travels with the mesh (``mesh.quake``); ``pyvista_quake.plot``
# applies it, chooses the lighting and frames the model.
pq.plot(path, window_size=(600, 400))

# %%
# The same with PyVista's own ``plot``: the texture comes from ``mesh.quake``.
mesh.plot(texture=mesh.quake.texture, window_size=(600, 400), cpos='yz')
