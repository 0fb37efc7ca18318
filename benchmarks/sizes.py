"""What the package writes, against what it shows: pages, sites and glTF, as ratios in one run.

    python benchmarks/sizes.py

1. A one-file page (``export(..., "x.html")``) of each of the corpus's largest
   MD2, MDL and MD3 models, beyond the viewer's script, against the model's file
   (UFO: AI's ``body.md2`` among them).  Target: at most 2.0.
2. A player's page (OpenArena's Sarge, seven skin sets) against its folder's files.
3. A catalogue of a PK3 of UFO: AI's soldiers (the corpus's, zipped here) beyond the
   site's one shared script, against the PK3.  Target: at most 1.5.
4. ``export(..., quantize=True)`` glb against the float glb of the same models.

Needs ``../shared/corpus``.
"""

from __future__ import annotations

from pathlib import Path
import shutil
import sys
import tempfile
import warnings
import zipfile

import numpy as np

import pyvista_quake as pq
from pyvista_quake.exporting.html import embedded_library

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / 'shared' / 'corpus'


def largest(count: int = 6) -> list[Path]:
    found = [p for p in CORPUS.rglob('*') if p.suffix.lower() in ('.md2', '.mdl', '.md3') and 'malformed' not in p.name]
    return sorted(found, key=lambda p: p.stat().st_size)[-count:]


def main() -> int:
    if not CORPUS.is_dir():
        print(f'no corpus at {CORPUS}', file=sys.stderr)
        return 1
    warnings.simplefilter('ignore')
    script = len(embedded_library().encode('utf-8'))  # a one-file page's copy; a catalogue's is the plain file
    work = Path(tempfile.mkdtemp())
    try:
        ratios = []
        for model in largest():
            page = work / 'page.html'
            pq.export(model, page)
            ratio = (page.stat().st_size - script) / model.stat().st_size
            ratios.append(ratio)
            print(f'page beyond the script / model: {model.relative_to(CORPUS)}: {ratio:.2f} x')
        print(f'pages: median {np.median(ratios):.2f} x, worst {max(ratios):.2f} x (target <= 2.0)')
        sarge = CORPUS / 'md3' / 'openarena' / 'models' / 'players' / 'sarge'
        if sarge.is_dir():
            pq.export(sarge, work / 'sarge.html')
            files = sum(p.stat().st_size for p in sarge.iterdir() if p.is_file())
            size = (work / 'sarge.html').stat().st_size
            print(f'Sarge page (7 skin sets) beyond the script / its files: {(size - script) / files:.2f} x ({size / 1e6:.1f} MB)')
        soldiers = CORPUS / 'md2' / 'ufoai' / 'models' / 'soldiers'
        if soldiers.is_dir():
            archive = work / 'soldiers.pk3'
            with zipfile.ZipFile(archive, 'w', zipfile.ZIP_DEFLATED) as pk3:
                for p in sorted(soldiers.rglob('*')):
                    if p.is_file():
                        pk3.write(p, f'models/soldiers/{p.relative_to(soldiers).as_posix()}')
            pq.catalogue([archive], work / 'site', jobs=1)
            site = sum(p.stat().st_size for p in (work / 'site').rglob('*') if p.is_file())
            shared = (work / 'site' / 'viewer.bundle.js').stat().st_size  # the plain script, which the site's pages load
            print(
                f'catalogue of the soldiers PK3 beyond its shared script / the PK3: {(site - shared) / archive.stat().st_size:.2f} x (target <= 1.5)'
            )
        glb = []
        for model in largest():
            pq.export(model, work / 'floats.glb')
            pq.export(model, work / 'small.glb', quantize=True)
            glb.append((work / 'small.glb').stat().st_size / (work / 'floats.glb').stat().st_size)
        print(f'quantised glb / float glb: median {np.median(glb):.2f} x (from {min(glb):.2f} to {max(glb):.2f})')
    finally:
        shutil.rmtree(work)
    return 0


if __name__ == '__main__':
    sys.exit(main())
