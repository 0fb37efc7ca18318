"""
Geometry over an animation
==========================

Whole-animation arrays are numpy: bounds and centroids of every frame in one
call, and the displacement of every point between two frames, ready to
colour a mesh by.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

import pyvista_quake as pq
from pyvista_quake import examples

path = sys.argv[1] if len(sys.argv) > 1 else examples.sample_model('md2')
model = pq.load(path)
name = sorted(model.animations, key=lambda n: len(model.animations[n]))[-1]
clip = model.animations[name]
bounds = model.bounds(clip.frames)  # (frames, 6): xmin, xmax, ymin, ymax, zmin, zmax
centroids = model.centroids(clip.frames)

fig, ax = plt.subplots(figsize=(7, 4))
for axis, label in enumerate('xyz'):
    ax.plot(clip.times, bounds[:, 2 * axis + 1] - bounds[:, 2 * axis], label=f'{label} extent')
ax.plot(clip.times, centroids[:, 2], '--', label='centroid z')
ax.set_xlabel('time (s)')
ax.set_ylabel('Quake units')
ax.set_title(f'{name}: {len(clip)} frames')
ax.legend()
plt.show()

# %%
# The frame that moves most from the first, coloured by how far each point went.
positions = model.positions(clip.frames)
moved = np.linalg.norm(positions - positions[0], axis=2).max(axis=1)
last = int(clip.frames[int(moved.argmax())])
mesh = model.displacement(int(clip.frames[0]), last)
pq.plot(mesh, scalars='displacement_magnitude', cmap='viridis', window_size=(600, 400), skin=None)
