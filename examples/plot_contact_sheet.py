"""
A contact sheet
===============

:func:`pyvista_quake.contact_sheet` renders a labelled grid: one cell per
animation (its first frame), or one per frame of one animation.
"""

import sys

import matplotlib.pyplot as plt
from PIL import Image

import pyvista_quake as pq
from pyvista_quake import examples

path = sys.argv[1] if len(sys.argv) > 1 else examples.sample_model('md2')
model = pq.load(path)
animation = sorted(model.animations, key=lambda name: len(model.animations[name]))[-1]
pq.contact_sheet(model, 'sheet.png', animation=animation, cell_size=(128, 128), columns=8)

image = Image.open('sheet.png')
plt.figure(figsize=(10, 10 * image.height / image.width))
plt.imshow(image)
plt.axis('off')
plt.title(f'{animation}: {len(model.animations[animation])} frames')
plt.show()
