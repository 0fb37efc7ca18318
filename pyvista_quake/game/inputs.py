"""Which files a piece of work read: what the catalogue compares to tell that a model's page is stale.

Every read of the game layer (a model, an archive, a folder's listing, a config, a
file looked up in a folder or an archive) notes its path while :func:`recording` is on,
so a page is redone when any of them changes, appears or goes, not only its model file.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
import os
from typing import Iterator

_RECORDING: ContextVar[set[str] | None] = ContextVar('pyvista_quake_inputs', default=None)


@contextmanager
def recording() -> Iterator[set[str]]:
    """Collect the paths every game-layer read notes inside the block (nested blocks each get theirs)."""
    paths: set[str] = set()
    outer = _RECORDING.get()
    token = _RECORDING.set(paths)
    try:
        yield paths
    finally:
        _RECORDING.reset(token)
        if outer is not None:
            outer |= paths


def note(path: str | os.PathLike) -> None:
    """Note that ``path`` (a file, an archive, or a folder whose listing was read) was consulted."""
    paths = _RECORDING.get()
    if paths is not None:
        paths.add(os.path.abspath(os.fspath(path)))


def stamps(paths: Iterator[str] | set[str] | list[str]) -> list[list]:
    """``[path, size, mtime_ns]`` of each path, sorted (``None``s for one that is not there: its creation counts too)."""
    out: list[list] = []
    for path in sorted(paths):
        try:
            info = os.stat(path)
        except OSError:
            out.append([path, None, None])
            continue
        out.append([path, info.st_size, info.st_mtime_ns])
    return out
