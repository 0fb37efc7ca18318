"""
Find the bots' way through a level
==================================

A Quake III map's bots find their way with a navigation file beside it (``maps/NAME.aas``):
convex areas and the reachabilities between them.  ``level.navigation`` finds it through the
game's files; its travel times are botlib's own, and a route hops along reachabilities as a
bot does.  DeepMind Lab's T-maze ships with the package (CC BY 4.0).
"""

import numpy as np
import pyvista as pv

import pyvista_quake as pq
from pyvista_quake import examples
from pyvista_quake.render.plotting import paths_scene

level = pq.load(examples.sample_navigation_level(), skin=None)  # its textures are DeepMind Lab's, not shipped
nav = level.navigation
print(nav)

# %%
# The areas a bot can stand in, each with its cluster, and the reachabilities between them.
areas = nav.areas
print(areas.n_cells, 'faces of', nav.num_areas, 'areas;', nav.reachabilities.n_cells, 'reachabilities')
print(dict(zip(*np.unique(nav.reachabilities['travel_type'], return_counts=True))))

# %%
# Travel times from every area to every other, in hundredths of a second (0: no way), as botlib gives them.
every = np.arange(1, nav.num_areas + 1)
print(nav.travel_time(every[:, None], every[None, :]))

# %%
# A route from the maze's arm to its stem: the areas, the reachabilities taken, the time from the start point.
route = nav.route([-32, 90, 30], [-32, 19, 30])
print(route.areas, route.travel_types, route.time / 100, 's', 'reached' if route.reached else 'not reached')

# %%
# Drawn over the level from above, framed on where the bots go.
plotter = pv.Plotter(window_size=(600, 600))
paths_scene(plotter, level, route.line, ['red'], bounds=areas.bounds)
plotter.add_mesh(areas, style='wireframe', color='blue', line_width=2)
plotter.show()
