"""
Edit a model and save it
========================

Frames, names, frame groups, skins and texture coordinates can be changed;
:meth:`~pyvista_quake.QuakeModel.save` writes a file the game loads.  An
unchanged model is written back byte for byte.
"""

from pathlib import Path
import sys

import numpy as np

import pyvista_quake as pq
from pyvista_quake import examples

path = Path(sys.argv[1]) if len(sys.argv) > 1 else examples.sample_model('mdl')
model = pq.load(path)
model.save('copy' + path.suffix)
print('written back byte for byte:', Path('copy' + path.suffix).read_bytes() == path.read_bytes())

# %%
# Squash frame 0 to half its height and give it a new name; skins as images.
points = model.vertex_positions(0)[0]
points[:, 2] *= 0.5
model.set_frame(0, points)
model.rename_frame(0, 'squashed')
skin = model.alias.skin_image(0)
model.alias.set_skin(0, np.ascontiguousarray(skin[..., ::-1]))  # colour channels swapped
model.save('edited' + path.suffix)

edited = pq.load('edited' + path.suffix)
print(edited.frame_names[:3])
pq.plot(edited, frame=0, window_size=(500, 350))
