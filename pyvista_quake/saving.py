"""Writing models to files: atomically, in the format the extension names.

Also PyVista's ``pyvista.writers`` entry points, so ``mesh.save("out.md2")``
writes any PolyData (or a frame of a Quake model) as a Quake model.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
import shutil
import tempfile
from typing import Any
from typing import Iterator

from pyvista_quake._warnings import warn_external
from pyvista_quake.engines import ENGINES
from pyvista_quake.engines import REFUSES
from pyvista_quake.engines import findings
from pyvista_quake.formats import FORMATS
from pyvista_quake.formats._common import format_for_path
from pyvista_quake.skins import png_bytes


def save(model, path: str | Path, *, sync: bool = True) -> None:
    """Write a model to ``path``; the format follows the extension (``.md2``, ``.mdl``, any case).

    An unchanged model is written back byte for byte.  A model saved in the
    other format is converted (see :func:`pyvista_quake.edit.convert`).  Skin
    images given to an MD2 are written as PNG files beside it.  What the game
    engines would refuse but the format can hold is written, with a
    :class:`~pyvista_quake.QuakeWarning` naming the engine and its limit.

    Parameters
    ----------
    model : QuakeModel
        The model.
    path : str or pathlib.Path
        The file to write.  It is written to a temporary file in the same
        folder and renamed over the target, so a failure leaves no partial
        file and the old file untouched.
    sync : bool, default: True
        Flush the file to disk before the rename, so that it survives a power
        cut.  ``False`` for batch conversions: the write stays atomic and costs
        a third to a half less (see the performance page).

    Raises
    ------
    ValueError
        For an extension that names no Quake model format, or a model the
        format cannot hold.
    OSError
        If the folder cannot be written.

    """
    from pyvista_quake.edit import convert  # noqa: PLC0415 - edit imports the model, which imports this

    path = Path(path)
    spec = format_for_path(str(path))
    target = model if model.format == spec.name else convert(model, spec.name)
    # Everything is encoded before anything is written.
    payload = spec.write(target.data.file)
    companions = {path.parent / Path(name).name: png_bytes(image) for name, image in target.skins.images.items()}
    for finding in findings(target.data.file, len(payload)):
        if finding.effect == REFUSES:
            warn_external(f'{path}: {ENGINES[finding.engine]} will not load it: {finding.field} = {finding.value}: '
                          f'{finding.rule} ({finding.where})')  # fmt: skip
    for companion, data in companions.items():
        atomic_write(companion, data, sync=sync)
    atomic_write(path, payload, sync=sync)


def atomic_write(path: str | Path, data: bytes, sync: bool = True) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it over ``path``.

    On any failure the temporary file is removed and ``path`` is left as it was.
    ``sync`` flushes the file to disk before the rename (models); pictures
    skip it: a thumbnail lost to a power cut is made again.
    """
    path = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f'.{path.name}.', suffix='.part', dir=path.parent)
    try:
        try:
            view = memoryview(data)
            while view:  # os.write may write less than it is given
                view = view[os.write(handle, view) :]
            if sync:
                os.fsync(handle)
            if hasattr(os, 'fchmod'):
                os.fchmod(handle, _mode_for(path))
            else:  # Windows
                os.chmod(temporary, _mode_for(path))
        finally:
            os.close(handle)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


@contextlib.contextmanager
def staged(folder: str | Path) -> Iterator[Path]:
    """A temporary folder inside ``folder`` to write files under their final names.

    On success every entry is renamed into ``folder`` (replacing what is
    there) with the permissions a new file gets; on failure the temporary
    folder goes, and ``folder`` is as it was.  Each file lands whole.
    """
    folder = Path(folder)
    stage = Path(tempfile.mkdtemp(prefix='.pyvista-quake-', dir=folder))
    try:
        yield stage
        for entry in sorted(stage.iterdir()):
            target = folder / entry.name
            if entry.is_dir():
                if target.is_dir():
                    shutil.rmtree(target)
            else:
                os.chmod(entry, _mode_for(target))
            os.replace(entry, target)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def _mode_for(path: Path) -> int:
    """The old file's permissions, or what a new file gets under the umask."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_mesh(dataset: Any, path: str, **kwargs: Any) -> None:
    """PyVista writer (``pyvista.writers`` entry point): any mesh saved as a Quake model.

    ``mesh.save("out.md2")`` and ``mesh.save("out.mdl")``; keywords pass to
    :func:`pyvista_quake.edit.from_frames` (``skin``, ``names``, ``fps``).  A
    MultiBlock of frames with one connectivity gives an animated model.
    """
    import pyvista as pv  # noqa: PLC0415

    from pyvista_quake.edit import from_frames  # noqa: PLC0415

    spec = format_for_path(str(path))
    # A frame read by this package keeps its name (the mesh.quake accessor reads it).
    name = dataset.quake.frame_name if isinstance(dataset, pv.DataSet) else None
    if 'names' not in kwargs and name is not None:
        kwargs['names'] = [name]
    from_frames(dataset, spec.name, **kwargs).save(path)


__all__ = ['FORMATS', 'atomic_write', 'save', 'staged', 'write_mesh']
