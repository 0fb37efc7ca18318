"""
Skeletal models: an IQM's joints, its bind pose and its animation
=================================================================

Inter-Quake Models (``.iqm``) and Doom 3's ``.md5mesh`` read as the same
model as an MD2 or an MD3, whose frames come from skinning joints.  The eye
shipped with the package is Red Eclipse's: its ``iqm.cfg`` gives its skin and
its animations, as the game assembles it.
"""

import sys

import numpy as np
import pyvista as pv

import pyvista_quake as pq
from pyvista_quake import examples

model = pq.load(sys.argv[1]) if len(sys.argv) > 1 else examples.load_eye()
print(model)
print('joints:', [(joint.name, joint.parent) for joint in model.skeletal.joints])
print('animations:', ', '.join(model.animations))

# %%
# The bind pose with the skeleton over it: a point per joint and a line to its
# parent, the joints' names as point data.
rest = model.skeletal.bind_pose()
skeleton = model.skeletal.skeleton()
plotter = pv.Plotter(off_screen=True)
for block in rest:
    plotter.add_mesh(block, texture=block.quake.texture, opacity=0.6)
plotter.add_mesh(skeleton, color='red', line_width=4, point_size=12, render_points_as_spheres=True)
plotter.add_point_labels(skeleton, 'joint_name', font_size=14)
plotter.show()

# %%
# Every frame skinned at once, numpy over the frames: how far each point moves.
positions = model.positions()
travel = np.linalg.norm(positions - positions[:1], axis=2).max(axis=0)
print(f'{len(model)} frames; the farthest point moves {travel.max():.3f} units')
mesh = model.mesh(len(model) - 1)
mesh.point_data['travel'] = travel
mesh.plot(scalars='travel', off_screen=True)

# %%
# glTF keeps the skeleton: a skin, a node per joint, each animation as the
# joints' channels.  The browser viewer plays it.
pq.export(model, 'eye.glb')
pq.export(model, 'eye.html')
