"""The public :func:`export`: every file format of :mod:`.export`, and HTML pages that play the model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyvista_quake.exporting import export as files
from pyvista_quake.exporting.demo_page import demo_page
from pyvista_quake.exporting.demo_page import write_demo_glb
from pyvista_quake.exporting.demo_page import write_demo_page
from pyvista_quake.exporting.html import PAGE_SIZE
from pyvista_quake.exporting.html import Viewer
from pyvista_quake.exporting.html import viewer as model_viewer
from pyvista_quake.exporting.html import write_page
from pyvista_quake.model.demos import is_demo

#: Extensions of the one-file pages (:func:`pyvista_quake.exporting.html.page`).
HTML_FORMATS = ('.html', '.htm')


def export(source: Any, path: str | Path, frame: int | None = None, animation: str | None = None, time: float | None = None, **options: Any) -> None:
    """Export a frame, a whole animation or a page that plays it; the format follows the extension.

    ``.html`` (or ``.htm``) writes one self-contained page that plays the
    model in any modern browser, offline (see :func:`pyvista_quake.viewer`;
    ``animation=`` keeps one animation).  Every other extension is
    :func:`pyvista_quake.exporting.export.export`'s, whose page lists them,
    with the same parameters.

    Parameters
    ----------
    source : str, pathlib.Path, bytes, QuakeModel, QuakePlayer, Demo or pyvista.PolyData
        A model file, a loaded model, a player, a frame read by this package, or a demo (written as a page,
        ``.html``, or a glTF, ``.glb``/``.gltf``, that plays it over its level: a marker a player).
    path : str or pathlib.Path
        The file to write.
    frame, animation, time
        Which frame, animation or time (see :func:`pyvista_quake.exporting.export.export`).
    **options
        Options of :func:`pyvista_quake.load`, and the writers' own.

    Examples
    --------
    >>> import pyvista_quake as pq
    >>> pq.export('tris.md2', 'tank.html')  # a page that plays every animation, offline  # doctest: +SKIP

    """
    suffix = Path(path).suffix.lower()
    if is_demo(source):
        if frame is not None or animation is not None or time is not None:
            raise ValueError(f'{path}: a demo plays whole; frame=, animation= and time= choose from a model')
        if suffix in HTML_FORMATS:
            write_demo_page(source, path, **options)
        elif suffix in ('.glb', '.gltf'):
            write_demo_glb(source, path, **options)
        else:
            raise ValueError(f'{path}: a demo exports as a page (.html) or glTF (.glb, .gltf), not {suffix or "no extension"!r}')
        return
    if suffix in HTML_FORMATS:
        if frame is not None or time is not None:
            raise ValueError(f'{path}: a page plays whole animations; give animation=, not frame= or time=')
        options.pop('progress', None)
        options.pop('overwrite_skins', None)
        write_page(source, path, animation=animation, **options)
        return
    files.export(source, path, frame=frame, animation=animation, time=time, **options)


def viewer(source: Any, *, animation: Any = None, size: tuple[int, int] = PAGE_SIZE, **options: Any) -> Viewer:
    """A model, file, archive member, player or demo playing in a notebook (see
    :func:`pyvista_quake.exporting.html.viewer`); a demo plays over its level, a marker a player.

    Examples
    --------
    >>> import pyvista_quake as pq
    >>> pq.viewer(pq.load_demo('pak0.pak:demo1.dem'))  # doctest: +SKIP

    """
    if is_demo(source):
        return Viewer(demo_page(source, size=size, **options), height=int(size[1]) + 80, name=source.source)
    return model_viewer(source, animation=animation, size=size, **options)
