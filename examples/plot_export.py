"""
Export: STL for a 3D printer, ParaView and glTF for the animation
=================================================================

:func:`pyvista_quake.export` writes whatever the extension names: one frame
to STL, OBJ (with its ``.mtl`` and skin), PLY or VTK; a whole animation to a
ParaView ``.pvd`` series, XDMF, or glTF with its animations as morph targets.
"""

import sys

import pyvista as pv

import pyvista_quake as pq
from pyvista_quake import examples

path = sys.argv[1] if len(sys.argv) > 1 else examples.sample_model('md2')
model = pq.load(path)
name = next(iter(model.animations))

pq.export(model, 'frame.stl', frame=0)  # binary STL: triangles and facet normals
pq.export(model, 'frame.obj', frame=0)  # with frame.mtl and the skin as frame.png
pq.export(model, f'{name}.pvd', animation=name)  # ParaView: one .vtp per frame, timed
pq.export(model, 'model.glb')  # glTF: every animation, the skin embedded

stl = pv.read('frame.stl')
print('STL:', stl.n_cells, 'triangles')

# %%
# The ParaView series reads back as a time series with the animation's times.
series = pv.get_reader(f'{name}.pvd')
print(series.time_values[:4])
series.set_active_time_value(series.time_values[-1])
pl = pv.Plotter(window_size=(500, 350))
pl.add_mesh(series.read()[0], color='lightsteelblue', smooth_shading=True)
pl.view_yz()
pl.show()
