"""Files that land whole: written beside their target and renamed over it.

The bottom layer's file helpers: saving a model, exporting and the pictures
all write through them, so a failure never leaves a partial file.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
import shutil
import tempfile
from typing import Iterator


def atomic_write(path: str | Path, data: bytes, sync: bool = True) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it over ``path``.

    On any failure the temporary file is removed and ``path`` is left as it was.
    ``sync`` flushes the file to disk before the rename (models); pictures
    skip it: a thumbnail lost to a power cut is made again.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
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
    folder.mkdir(parents=True, exist_ok=True)
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
