"""The viewer's speed and size, as ratios against the batch thumbnails of the same models, in one run.

    python benchmarks/viewer.py [--models 12]

1. Time to the first drawn frame of a model's page in headless Chromium
   (Debian's, SwiftShader; from ``goto`` to the first frame label), against
   rendering the same model's batch thumbnail.
2. The page's size against the model's ``.glb`` (the viewer's script is
   the rest: about 0.65 MB once, shared by a catalogue's pages).
3. A catalogue of the models against their thumbnails alone (``jobs=1``).

Needs ``../shared/corpus`` and Chromium with playwright (the test extra).
"""

from __future__ import annotations

import argparse
from pathlib import Path
import shutil
import tempfile
import time
import warnings

import numpy as np

import pyvista_quake as pq
from pyvista_quake.render.batch import render_thumbnail

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / 'shared' / 'corpus'


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument('--models', type=int, default=12)
    args = parser.parse_args()
    warnings.simplefilter('ignore')
    models = sorted(p for p in CORPUS.rglob('*') if p.suffix.lower() in ('.md2', '.mdl', '.md3') and 'malformed' not in p.name)
    models = [m for m in models if sum(s.num_triangles for s in pq.load(m).surfaces)]  # not the tag-only hands
    models = models[:: max(1, len(models) // args.models)][: args.models]
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp())
    first_frame, thumb, sizes = [], [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=shutil.which('chromium'), args=['--use-gl=swiftshader', '--enable-unsafe-swiftshader', '--no-sandbox']
        )
        for k, model in enumerate(models):
            page_path = work / f'{k}.html'
            pq.export(model, page_path)
            pq.export(model, work / f'{k}.glb')
            sizes.append(page_path.stat().st_size / (work / f'{k}.glb').stat().st_size)
            page = browser.new_page()
            start = time.perf_counter()
            page.goto(page_path.as_uri())
            page.wait_for_function("document.querySelector('.pq-frame').textContent.includes('frame')", timeout=120_000)
            first_frame.append(time.perf_counter() - start)
            page.close()
            render_thumbnail(model, work / f'{k}.png')  # warm this process's plotter once
            start = time.perf_counter()
            render_thumbnail(model, work / f'{k}.png')
            thumb.append(time.perf_counter() - start)
        browser.close()
    ratios = np.array(first_frame) / np.array(thumb)
    print(f'{len(models)} corpus models')
    print(
        f'first drawn frame in Chromium / batch thumbnail: geometric mean {np.exp(np.log(ratios).mean()):.2f}x '
        f'(median {np.median(first_frame) * 1000:.0f} ms against {np.median(thumb) * 1000:.0f} ms)'
    )
    print(f'page size / .glb: geometric mean {np.exp(np.log(sizes).mean()):.2f}x')
    start = time.perf_counter()
    pq.thumbnails(models, work / 'thumbs', jobs=1)
    thumbs = time.perf_counter() - start
    start = time.perf_counter()
    pq.catalogue(models, work / 'site', jobs=1)
    site = time.perf_counter() - start
    print(f'catalogue / thumbnails alone: {site / thumbs:.2f}x ({site:.1f} s against {thumbs:.1f} s)')
    start = time.perf_counter()
    pq.catalogue(models, work / 'site', jobs=1)
    print(f'second catalogue run (nothing changed) / thumbnails alone: {(time.perf_counter() - start) / thumbs:.2f}x')
    shutil.rmtree(work)


if __name__ == '__main__':
    main()
