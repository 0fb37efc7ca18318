"""Where a model's bytes come from: a path, bytes, a binary file or an archive member.

Below the model and the format modules' users: :func:`read_source` gives the
bytes, a name for messages, and where the file lies (for its skins).
"""

from __future__ import annotations

from dataclasses import dataclass
import mmap
import os
from pathlib import Path
from pathlib import PurePosixPath
from typing import Any
from typing import BinaryIO

from pyvista_quake.game.archives import open_archive
from pyvista_quake.game.archives import split_member
from pyvista_quake.game.inputs import note


@dataclass(frozen=True)
class Place:
    """A file or folder named on disk or inside an archive, its name split once where it enters.

    ``pak0.pak:progs/player.mdl`` is the member ``progs/player.mdl`` of the archive
    ``pak0.pak``; any other name is a path on disk.  Model finders, players and
    catalogues hand these on, and :func:`pyvista_quake.load` takes them as they are.

    Parameters
    ----------
    path : pathlib.Path
        The file or folder on disk; for a member, the archive holding it.
    member : str, optional
        The file or folder inside the archive ``path`` (``None``: ``path`` itself).

    """

    path: Path
    member: str | None = None

    @classmethod
    def of(cls, name: str | Path) -> Place:
        """Where ``name`` lies: ``ARCHIVE:MEMBER`` (when the part before a colon is an archive file and
        the whole is no file on disk), else a path."""
        text = str(name)
        if ':' in text and not os.path.exists(text):
            split = split_member(text)
            if split is not None:
                return cls(*split)
        return cls(Path(text))

    def __str__(self) -> str:
        """The name users write: the path, or ``ARCHIVE:MEMBER``."""
        return str(self.path) if self.member is None else f'{self.path}:{self.member}'

    @property
    def archive(self) -> Path | None:
        """The archive file the member lies in; ``None`` on disk."""
        return self.path if self.member is not None else None

    @property
    def name(self) -> str:
        """The last component of the name (``player.mdl``; a folder's own name)."""
        if self.member is None:
            return self.path.name
        return PurePosixPath(self.member.replace('\\', '/').rstrip('/')).name

    @property
    def parent(self) -> Place:
        """The folder holding it, in the same archive (or on disk)."""
        if self.member is None:
            return Place(self.path.parent)
        return Place(self.path, str(PurePosixPath(self.member.replace('\\', '/').rstrip('/')).parent))

    def exists(self) -> bool:
        """Whether the path is on disk (for a member: whether its archive is)."""
        return self.path.exists()


#: What :func:`read_source` reads.
Source = str | Path | bytes | bytearray | memoryview | BinaryIO

#: Files from this size up are mapped, not read, and frames are paged in only when
#: decoded.  Below it a file is read at once: for the few MB real models reach,
#: one read costs less than mapping, paging in and unmapping (0.18 against 0.40 ms
#: to open and close a 3.6 MB, 1007-frame model).
MAP_FROM_BYTES = 1 << 25


@dataclass(frozen=True)
class Location:
    """Where a file's bytes came from, parsed once where input enters and carried from there.

    Parameters
    ----------
    name : str
        How messages name it: the path, ``ARCHIVE:MEMBER``, or ``<bytes>``.
    path : str or pathlib.Path, optional
        The file on disk.
    archive : optional
        The open archive it is a member of.
    member : str, optional
        Its name inside ``archive``.
    archive_path : pathlib.Path, optional
        The archive as it was named, absolute, links not followed: its folder is the game folder
        (a folder of links to PK3s kept elsewhere is where the game's other archives are).
    """

    name: str
    path: str | Path | None = None
    archive: Any = None
    member: str | None = None
    archive_path: Path | None = None

    @property
    def file_name(self) -> str | None:
        """The file's own name (``player.mdl``), on disk or in its archive; ``None`` for bytes."""
        if self.member is not None:
            return PurePosixPath(self.member.replace('\\', '/')).name
        return Path(self.path).name if self.path is not None else None

    @property
    def stem(self) -> str:
        """The file's name without its extension (``player``); ``''`` for bytes."""
        name = self.file_name
        return PurePosixPath(name).stem if name else ''

    def __str__(self) -> str:
        return self.name


def read_source(source: Source, member: str | None = None) -> tuple[Any, Location]:
    """The bytes of a model and where they lie (a :class:`Location`: the name for messages, path, archive, member).

    A binary file object with a ``.name`` on disk counts as that path, so its
    skins are looked for beside it.  A path ``ARCHIVE:MEMBER`` that is no file
    (``pak0.pak:progs/player.mdl``) names a member, as the model's repr does.
    """
    path = None
    archive = None
    if member is None and isinstance(source, (str, Path)) and ':' in str(source):
        place = Place.of(source)
        source, member = place.path, place.member
    if member is not None:
        if not isinstance(source, (str, Path)):
            raise TypeError(f"member= names a model inside an archive file; give the archive's path, not {type(source).__name__}")
        archive = open_archive(source)
        note(source)
        return archive.read(member), Location(f'{source}:{member}', None, archive, member, Path(os.path.abspath(source)))
    if isinstance(source, (str, Path)):
        note(source)
        return _read_file(source), Location(str(source), source)
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), Location('<bytes>')
    if hasattr(source, 'read'):
        name = getattr(source, 'name', None)
        if isinstance(name, (str, Path)) and Path(name).is_file():
            path = Path(name)
        return source.read(), Location(str(name or '<file>'), path)
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
