"""Loading a model: from a path, bytes, a binary file or an archive member.

The options of :func:`load` live in one :class:`LoadOptions` object, shared by
:func:`load`, the model and the readers.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from dataclasses import fields
import math
import mmap
import os
from pathlib import Path
from typing import Any
from typing import BinaryIO

import numpy as np

from pyvista_quake.animation import DEFAULT_FPS
from pyvista_quake.archives import open_archive
from pyvista_quake.formats import read_buffer
from pyvista_quake.skins import SkinSearch

Source = str | Path | bytes | bytearray | memoryview | BinaryIO

#: Files from this size up are mapped, not read, and frames are paged in only when
#: decoded.  Below it a file is read at once: for the few MB real models reach,
#: one read costs less than mapping, paging in and unmapping (0.18 against 0.40 ms
#: to open and close a 3.6 MB, 1007-frame model).
MAP_FROM_BYTES = 1 << 25


@dataclass
class LoadOptions:
    """How a model is read; each is a keyword of :func:`load` and of ``pv.read``.

    Attributes
    ----------
    strict : bool or str, default: False
        An engine name (``'quake'``, ``'glquake'``, ``'quakespasm'``,
        ``'ezquake'``, ``'quake2'``, ``'yquake2'``): raise for what that engine
        refuses; ``True``: for what any of them refuses (see
        :func:`pyvista_quake.check`).  By default only what no engine can draw
        is an error: real models exceed the limits on purpose.
    glcmds : bool, default: False
        Build MD2 frames from the OpenGL command list (strips and fans with
        their float texture coordinates) instead of the triangles.
    fps : float, default: 10.0
        Frame rate of frames with no timing of their own.
    animations : dict, optional
        Extra animations, ``{"run": range(40, 46)}`` or ``{"run": (frames, times)}``.
    anm : bool, str or pathlib.Path, default: True
        A UFO: Alien Invasion ``.anm`` file naming animations; ``True`` uses the
        one beside the model (same stem) if there is one, ``False`` none.
    skin : int or None, default: 0
        Which skin travels with the frames (in their field data); ``None`` for none.
    search_paths : list of paths
        Extra places for skins: game folders, or PAK/PK3 files.  The
        ``PYVISTA_QUAKE_PATH`` environment variable adds more.
    palette : path or array, optional
        Palette for MDL skins (a ``palette.lmp`` or a 256 x 3 array); by default
        the game's own ``gfx/palette.lmp`` when found, else Quake's.
    texel_centers : bool, default: False
        Texture coordinates at texel centres, ``(s + 0.5) / skinwidth``, as the
        OpenGL engines sample them (GLQuake's ``gl_mesh.c``; an MD2's GL
        commands store them so); by default ``s / skinwidth``, as WinQuake.
    group_timing : {'winquake', 'glquake'}, default: 'winquake'
        MDL frame groups: WinQuake's intervals as each pose's end time
        (``r_alias.c R_AliasSetupFrame``), or GLQuake's, QuakeSpasm's and
        ezQuake's every pose for ``intervals[0]`` (``gl_rmain.c R_SetupAliasFrame``).
    normals : {'stored', 'computed'}, default: 'stored'
        The file's table normals, or normals computed from each frame's
        geometry, smooth per file vertex across texture seams (UFO: AI's renderer).
    external_skins : bool, default: True
        For an MDL, prefer a replacement skin beside it, named as DarkPlaces,
        FTE and QuakeSpasm-Spiked name them (``progs/player.mdl_0.png``), over
        the embedded one.
    holey : bool, default: True
        For an MDL with ``MF_HOLEY`` (flag ``1 << 14``), palette index 255
        transparent, as QuakeSpasm draws it.

    """

    strict: bool | str = False
    glcmds: bool = False
    fps: float = DEFAULT_FPS
    animations: dict | None = None
    anm: str | Path | bool | None = True
    skin: int | None = 0
    search_paths: list[Path] = field(default_factory=list)
    palette: str | Path | np.ndarray | None = None
    texel_centers: bool = False
    group_timing: str = 'winquake'
    normals: str = 'stored'
    external_skins: bool = True
    holey: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.search_paths, (str, Path)):
            self.search_paths = [self.search_paths]
        self.search_paths = [Path(p) for p in self.search_paths or []]
        if not (math.isfinite(self.fps) and self.fps > 0):
            raise ValueError(f'fps must be a positive number, not {self.fps!r}')
        self.fps = float(self.fps)
        choices = {'group_timing': ('winquake', 'glquake'), 'normals': ('stored', 'computed')}
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f'{name} must be one of {allowed}, not {getattr(self, name)!r}')

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The option names."""
        return _OPTION_NAMES

    def as_dict(self) -> dict[str, Any]:
        """The options by name, as keywords of :func:`load`."""
        return {name: getattr(self, name) for name in self.names()}

    def replace(self, **changes: Any) -> LoadOptions:
        """A copy with some options changed."""
        return LoadOptions(**{**self.as_dict(), **changes})


_OPTION_NAMES = tuple(f.name for f in fields(LoadOptions))


def load(source: Source, *, member: str | None = None, **options: Any):
    """Load a Quake model (``.md2`` or ``.mdl``; the format comes from its magic bytes).

    Parameters
    ----------
    source : str, pathlib.Path, bytes or binary file object
        The model.
    member : str, optional
        With ``source`` a PAK or PK3 archive: the model inside it, such as
        ``'progs/player.mdl'``; its skins are then looked for in the same archive.
    **options
        Any of :class:`LoadOptions`: ``strict``, ``glcmds``, ``fps``,
        ``animations``, ``anm``, ``skin``, ``search_paths``, ``palette``.

    Returns
    -------
    QuakeModel
        The model; frames are decoded only when asked for.

    Raises
    ------
    QuakeFormatError
        If the file is malformed; the message names the file, field and value.

    Examples
    --------
    >>> import pyvista_quake
    >>> model = pyvista_quake.load('models/monsters/tank/tris.md2')  # doctest: +SKIP
    >>> len(model), model.frame_names[:2]  # doctest: +SKIP
    (293, ['stand01', 'stand02'])
    >>> mesh = model.frame(0)  # doctest: +SKIP

    """
    from pyvista_quake.model import QuakeModel  # noqa: PLC0415 - the model imports this module's options

    unknown = options.keys() - _OPTION_NAMES if options else ()
    if unknown:
        raise TypeError(f'load() got unknown options {sorted(unknown)}; it takes {list(LoadOptions.names())}')
    opts = LoadOptions(**options)
    buffer, name, (path, archive) = read_source(source, member)
    data = read_buffer(buffer, name, strict=opts.strict)
    search = SkinSearch(model_path=path, search_paths=list(opts.search_paths), archive=archive, member=member)
    return QuakeModel(data, opts, search=search)


def model_or_mesh(source: Any, **options: Any):
    """``(model, None)`` for a model or a file (loaded with ``options``), ``(None, mesh)`` for a mesh.

    What export and the pictures take: a :class:`~pyvista_quake.QuakeModel`,
    anything :func:`load` reads, or a frame as a PyVista dataset.
    """
    import pyvista as pv  # noqa: PLC0415

    from pyvista_quake.model import QuakeModel  # noqa: PLC0415 - the model imports this module

    if isinstance(source, QuakeModel):
        return source, None
    if isinstance(source, pv.DataSet):
        return None, source if isinstance(source, pv.PolyData) else source.extract_surface()
    return load(source, **options), None


def skin_of(model, mesh=None):
    """The skin image of what :func:`model_or_mesh` gave: the model's chosen skin, or the one a frame carries.

    ``None`` when there is no skin (or ``skin=None`` was asked for).
    """
    if model is not None:
        return model.skin_image(model.skin) if model.skin is not None else None
    return mesh.quake.image()


def read_source(source: Source, member: str | None = None) -> tuple[Any, str, tuple[str | Path | None, Any]]:
    """The bytes of a model, its name for messages, and where it lies (path, archive).

    A binary file object with a ``.name`` on disk counts as that path, so its
    skins are looked for beside it.
    """
    path = None
    archive = None
    if member is not None:
        archive = open_archive(source)  # type: ignore[arg-type]
        return archive.read(member), f'{source}:{member}', (None, archive)
    if isinstance(source, (str, Path)):
        return _read_file(source), str(source), (source, None)
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), '<bytes>', (None, None)
    if hasattr(source, 'read'):
        name = getattr(source, 'name', None)
        if isinstance(name, (str, Path)) and Path(name).is_file():
            path = Path(name)
        return source.read(), str(name or '<file>'), (path, None)
    raise TypeError(f'cannot load a model from {type(source).__name__}; give a path, bytes or a binary file')


def _read_file(path: str | Path) -> bytes | mmap.mmap:
    # os.open and os.read: half the cost of a buffered file object, which small models feel.
    handle = os.open(path, os.O_RDONLY | getattr(os, 'O_BINARY', 0))
    try:
        size = os.fstat(handle).st_size
        if size >= MAP_FROM_BYTES:
            return mmap.mmap(handle, 0, access=mmap.ACCESS_READ)
        data = os.read(handle, size)
        if len(data) == size and size:
            return data
        # A short read, or a file whose size the system does not know (size 0): read to the end.
        parts = [data]
        while chunk := os.read(handle, 1 << 20):
            parts.append(chunk)
        return b''.join(parts)
    except OSError as error:
        # os.read's errors (a folder, for one) do not name the file; open()'s do.
        raise type(error)(error.errno, error.strerror, os.fspath(path)) from None
    finally:
        os.close(handle)
