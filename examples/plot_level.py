"""
Walk into a Quake III level
===========================

A level (``.bsp``) loads as any model does, from a file or from inside a PK3:
one surface per (brush model, shader), textured as the game finds its images
and lit by its lightmaps.  Its entities come with it, and the ones that stand
at a place (spawn points, items, lights) as points to plot or measure.
The corpus's OpenArena map is used where the corpus is beside the checkout;
elsewhere a small synthetic room made on the spot.
"""

import sys

import numpy as np
import pyvista as pv

import pyvista_quake as pq
from pyvista_quake import examples
from pyvista_quake.render.plotting import scene

source = sys.argv[1] if len(sys.argv) > 1 else examples.sample_level()
level = pq.load(source)
print(level)
print(len(level.surfaces), 'surfaces,', sum(s.num_triangles for s in level.surfaces), 'triangles,', len(level.entities), 'entities')

# %%
# The entities that stand at an ``"origin"``: a PolyData of points, each key a point array.
points = level.point_entities()
spawns = points.extract_points(np.asarray(points['classname']) == 'info_player_deathmatch')
print(spawns.n_points, 'spawn points;', len(set(points['classname'].tolist())), 'kinds of point entity')

# %%
# A thumbnail draws the level as the engine does: textures times lightmaps.
pq.thumbnail(level, 'level.png', size=(480, 360))

# %%
# Or stand at the first spawn point, at eye height, looking the way it faces,
# with every spawn point marked.
plotter = pv.Plotter(window_size=(800, 500))
scene(plotter, level)
plotter.add_points(spawns, color='red', point_size=14, render_points_as_spheres=True)
eye = np.asarray(spawns.points[0], float) + [0, 0, 40]
facing = np.radians(float(np.asarray(spawns['angle'])[0] or 0)) if 'angle' in spawns.point_data else 0.0
plotter.camera_position = [tuple(eye), tuple(eye + [np.cos(facing), np.sin(facing), -0.15]), (0, 0, 1)]
plotter.camera.view_angle = 75
plotter.reset_camera_clipping_range()
plotter.show()
