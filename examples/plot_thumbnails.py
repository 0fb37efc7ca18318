"""
Thumbnails of a folder, in parallel and on Dask
===============================================

:func:`pyvista_quake.thumbnails` renders every model of a folder with one
render window per worker process and reports failures; the per-file work,
:func:`pyvista_quake.render_thumbnail`, runs unchanged on a Dask cluster
(here a ``LocalCluster``; give ``Client`` a scheduler's address for a whole
asset library).
"""

from pathlib import Path
import shutil
import sys

import matplotlib.pyplot as plt
from PIL import Image

import pyvista_quake as pq
from pyvista_quake import examples
from pyvista_quake.render.batch import find_models
from pyvista_quake.render.batch import targets_for

if len(sys.argv) > 1:
    folder = Path(sys.argv[1])
else:  # a folder of models: a sample one and a few made here
    folder = Path('models')
    folder.mkdir(exist_ok=True)
    for k, fmt in enumerate(('md2', 'mdl', 'md2')):
        examples.synthetic_model(fmt, frames=2 + k).save(folder / f'creature{k}.{fmt}')
    shutil.copy(examples.sample_model('mdl'), folder / 'sample.mdl')

report = pq.thumbnails([folder], 'thumbnails', jobs=2, size=(192, 192))
print(len(report.written), 'thumbnails;', len(report.failed), 'failed')

# %%
# The same files on Dask: ``client.map`` over the plain per-file function.
from distributed import Client  # noqa: E402
from distributed import LocalCluster  # noqa: E402

found = find_models([folder])
# One in-process worker thread here, so the example runs anywhere; a real cluster has many processes.
with Client(LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None)) as client:
    results = client.gather(client.map(pq.render_thumbnail, [p for p, _ in found], targets_for(found, 'dask-thumbnails')))
print(sum(r.error is None for r in results), 'rendered on Dask')

# %%
fig, axes = plt.subplots(1, len(report.written), figsize=(3 * len(report.written), 3))
for ax, result in zip(axes, report.written):
    ax.imshow(Image.open(result.target))
    ax.set_title(Path(result.source).name)
    ax.axis('off')
plt.show()
