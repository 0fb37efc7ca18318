"""
Pose a Quake III player
=======================

A Quake III player is three models joined by tags: the legs (``lower.md3``),
the torso on the legs' ``tag_torso`` and the head on the torso's
``tag_head``, each part running its own animation of ``animation.cfg``.
:func:`pyvista_quake.load_player` reads the folder, and
:meth:`~pyvista_quake.QuakePlayer.pose` places the parts as the game does.
The corpus's OpenArena player is used where the corpus is beside the
checkout; elsewhere a small synthetic player made on the spot.
"""

import sys

import pyvista as pv

import pyvista_quake as pq
from pyvista_quake import examples

folder = sys.argv[1] if len(sys.argv) > 1 else examples.sample_player()
player = pq.load_player(folder)
print(player, player.animations['LEGS_RUN'])

# %%
# Standing (``LEGS_IDLE``, ``TORSO_STAND``), and running while gesturing,
# 0.2 s into both animations: a MultiBlock of the parts, each a MultiBlock
# of its surfaces with their images.
standing = player.pose()
running = player.pose('LEGS_RUN', 'TORSO_GESTURE', time=0.2)
print(standing.keys(), [block.n_blocks for block in standing])

# %%
# Any model's tag is a 4 x 4 matrix, blended between frames as the renderer does.
print(player.parts['upper'].tag('tag_head', frame=0).round(3))

# %%
# Pictures take players as they take models: a thumbnail, a GIF.
pq.thumbnail(player, 'player.png', animation=('LEGS_RUN', 'TORSO_GESTURE'), time=0.2)
pq.animate(player, 'player.gif', animation=('LEGS_RUN', 'TORSO_STAND'), size=(240, 240))

plotter = pv.Plotter(shape=(1, 2), window_size=(800, 400))
for column, posed in enumerate((standing, running)):
    plotter.subplot(0, column)
    for part in posed:
        for block in part:
            plotter.add_mesh(block, texture=block.quake.texture, smooth_shading=True, color=None if block.quake.texture else 'tan')
    plotter.view_vector((1, -0.8, 0.45), viewup=(0, 0, 1))
plotter.show()
