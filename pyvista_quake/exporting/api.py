"""The public :func:`export`: every file format of :mod:`.export`, and HTML pages that play the model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyvista_quake.exporting import export as files
from pyvista_quake.exporting.html import write_page

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
    source : str, pathlib.Path, bytes, QuakeModel, QuakePlayer or pyvista.PolyData
        A model file, a loaded model, a player, or a frame read by this package.
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
    if Path(path).suffix.lower() in HTML_FORMATS:
        if frame is not None or time is not None:
            raise ValueError(f'{path}: a page plays whole animations; give animation=, not frame= or time=')
        options.pop('progress', None)
        options.pop('overwrite_skins', None)
        write_page(source, path, animation=animation, **options)
        return
    files.export(source, path, frame=frame, animation=animation, time=time, **options)
