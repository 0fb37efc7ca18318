"""
An animation's time points into a GIF
=====================================

``pyvista.get_reader`` gives the whole file as a time series; each
animation is a set of time points.  :func:`pyvista_quake.animate` writes a
GIF timed by the animation's own frame times.
"""

import sys

import pyvista as pv

import pyvista_quake as pq
from pyvista_quake import examples

path = sys.argv[1] if len(sys.argv) > 1 else examples.sample_model('md2')
reader = pv.get_reader(path)
print(list(reader.animations))
reader.set_active_animation(next(iter(reader.animations)))
print(reader.number_time_points, 'time points:', [round(t, 2) for t in reader.time_values[:5]], '...')

# %%
# Every time point is a frame: read one and draw it.
reader.set_active_time_point(reader.number_time_points // 2)
pq.plot(reader.read(), window_size=(500, 350))

# %%
# The GIF, written offscreen.
count = pq.animate(path, 'animation.gif', animation=reader.active_animation, size=(320, 240))
print(f'wrote animation.gif: {count} pictures')
