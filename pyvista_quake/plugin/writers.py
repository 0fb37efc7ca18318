"""PyVista's ``pyvista.writers`` entry points: any mesh saved as a Quake model.

``mesh.save("out.md2")`` writes any PolyData (or a frame of a Quake model)
through :meth:`QuakeModel.from_frames <pyvista_quake.QuakeModel.from_frames>`.
"""

from __future__ import annotations

from typing import Any

import pyvista as pv

from pyvista_quake.formats import format_for_path
from pyvista_quake.model.quake_model import QuakeModel


def write_mesh(dataset: Any, path: str, **kwargs: Any) -> None:
    """PyVista writer (``pyvista.writers`` entry point): any mesh saved as a Quake model.

    ``mesh.save("out.md2")`` and ``mesh.save("out.mdl")``; keywords pass to
    :meth:`QuakeModel.from_frames <pyvista_quake.QuakeModel.from_frames>` (``skin``, ``names``, ``fps``).  A
    MultiBlock of frames with one connectivity gives an animated model.
    """
    spec = format_for_path(str(path))
    if spec.output == 'MultiBlock':  # a format of surfaces: made as an MD3's, then saved as the format
        QuakeModel.from_frames(dataset, 'md3', **kwargs).save(path)
        return
    # A frame read by this package keeps its name (the mesh.quake accessor reads it).
    name = dataset.quake.frame_name if isinstance(dataset, pv.DataSet) else None
    if 'names' not in kwargs and name is not None:
        kwargs['names'] = [name]
    QuakeModel.from_frames(dataset, spec.name, **kwargs).save(path)
