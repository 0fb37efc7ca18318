"""Thumbnails of a folder of models on Dask: the same per-file function as the local batch.

Usage::

    python examples/thumbnails_dask.py [FOLDER] [OUT_DIR] [SCHEDULER_ADDRESS]

With no folder it writes a few synthetic models into a temporary folder.  With
no scheduler address it starts a ``LocalCluster`` on this machine; given the
address of a running cluster (``tcp://host:8786``), the same script renders a
whole asset library there (the workers need pyvista-quake and the files).
Needs ``pip install "pyvista-quake[dask]"``.
"""

from __future__ import annotations

from pathlib import Path
import sys
import tempfile

from distributed import Client
from distributed import LocalCluster

import pyvista_quake as pq
from pyvista_quake.batch import find_models
from pyvista_quake.batch import targets_for
from pyvista_quake.examples import synthetic_model


def render_folder(folder: Path, out_dir: Path, client: Client) -> tuple[int, list]:
    """Render every model under ``folder`` on the cluster; return the count written and the failures."""
    found = find_models([folder])
    targets = targets_for(found, out_dir)
    futures = client.map(pq.render_thumbnail, [path for path, _ in found], targets, size=(256, 256))
    results = client.gather(futures)
    failed = [r for r in results if r.error]
    return len(results) - len(failed), failed


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(argv[0]) if argv else Path(scratch)
        if not argv:
            for k, fmt in enumerate(('md2', 'mdl', 'md2')):
                synthetic_model(fmt, frames=2 + k).save(folder / f'creature{k}.{fmt}')
        out_dir = Path(argv[1]) if len(argv) > 1 else Path('thumbnails')
        if len(argv) > 2:
            client = Client(argv[2])
        else:
            client = Client(LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None))
        with client:
            written, failed = render_folder(folder, out_dir, client)
    print(f'{written} thumbnails in {out_dir}')
    for result in failed:
        print(f'failed: {result.source}: {result.error}', file=sys.stderr)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
