"""Game archives read in place: Quake PAK files and PK3 (ZIP) files.

A PAK is ``PACK``, a directory offset and a directory length, then 64-byte
entries (56-byte name, offset, length).  PK3 files are ZIP archives, read
with :mod:`zipfile`.  Member names are matched without regard to letter case
or ``\\`` versus ``/``, as the engines on case-insensitive file systems did.
"""

from __future__ import annotations

import os
from pathlib import Path
import re
from typing import Any
import zipfile
import zlib

import numpy as np

from pyvista_quake._base.errors import MissingMemberError
from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake.formats.records import cstrings

PAK_IDENT = b'PACK'
PAK_HEADER = np.dtype([('ident', 'S4'), ('dirofs', '<i4'), ('dirlen', '<i4')])
PAK_ENTRY = np.dtype([('name', 'S56'), ('filepos', '<i4'), ('filelen', '<i4')])
ARCHIVE_SUFFIXES = ('.pak', '.pk3', '.dpk', '.zip')  # .dpk: the Daemon engine's (Unvanquished's) zip packages
#: Largest member read from a ZIP, against decompression bombs.
MAX_MEMBER_SIZE = 256 * 2**20


def normalise_member(name: str) -> str | None:
    """Return a member name in one form (lower case, ``/``), or ``None`` if it escapes the archive."""
    if name.startswith(('/', '\\')):
        return None
    # Split by hand (as PurePosixPath splits a relative name, a tenth of its time): this runs for every candidate of every image.
    parts = [p for p in name.replace('\\', '/').lower().split('/') if p not in ('', '.')]
    if not parts or '..' in parts or ':' in parts[0]:
        return None
    return '/'.join(parts)


class Archive:
    """A game archive: a mapping of member names to their bytes.

    Parameters
    ----------
    path : str or pathlib.Path
        The archive file.

    """

    #: The file's size and modification time when opened (a changed file is opened again).
    _stat: tuple[int, int] | None = None

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._members: dict[str, Any] = {}  # a PAK's (start, end), a ZIP's ZipInfo

    def __contains__(self, name: str) -> bool:
        """Return whether the archive holds ``name`` (any letter case)."""
        key = normalise_member(name)
        return key is not None and key in self._members

    def names(self) -> list[str]:
        """Every member's name, normalised."""
        return list(self._members)

    def read(self, name: str) -> bytes:
        """Return a member's bytes.

        Raises
        ------
        MissingMemberError
            If there is no such member (a ``KeyError`` and a :class:`QuakeFormatError`).

        """
        key = normalise_member(name)
        if key is None or key not in self._members:
            raise MissingMemberError(str(self.path), 'member', name, 'no such member in the archive')
        return self._read(self._members[key])

    def _read(self, handle: Any) -> bytes:
        raise NotImplementedError

    def __repr__(self) -> str:
        """Return a one-line summary."""
        return f'{type(self).__name__}({str(self.path)!r}, {len(self._members)} members)'


class PakArchive(Archive):
    """A Quake ``.pak`` file."""

    def __init__(self, path: str | Path) -> None:
        super().__init__(path)
        self._data = self.path.read_bytes()
        size, source = len(self._data), str(self.path)
        if size < PAK_HEADER.itemsize or self._data[:4] != PAK_IDENT:
            raise QuakeFormatError(source, 'ident', self._data[:4], f'expected {PAK_IDENT!r}')
        header = np.frombuffer(self._data, PAK_HEADER, 1)[0]
        dirofs, dirlen = int(header['dirofs']), int(header['dirlen'])
        if dirlen < 0 or dirlen % PAK_ENTRY.itemsize:
            raise QuakeFormatError(source, 'dirlen', dirlen, f'not a multiple of {PAK_ENTRY.itemsize}')
        if dirofs < 0 or dirofs + dirlen > size:
            raise QuakeFormatError(source, 'dirofs', dirofs, f'directory outside the file ({size} bytes)')
        entries = np.frombuffer(self._data, PAK_ENTRY, dirlen // PAK_ENTRY.itemsize, dirofs)
        start = entries['filepos'].astype(np.int64)
        end = start + entries['filelen']
        inside = (start >= 0) & (entries['filelen'] >= 0) & (end <= size)
        for name, ok, first, last in zip(cstrings(entries['name']), inside, start, end):
            key = normalise_member(name)
            if ok and key is not None:  # an entry outside the file or the archive is skipped
                self._members[key] = (int(first), int(last))

    def _read(self, handle: tuple[int, int]) -> bytes:
        first, last = handle
        return self._data[first:last]


class ZipArchive(Archive):
    """A PK3 (ZIP) file."""

    def __init__(self, path: str | Path) -> None:
        super().__init__(path)
        self._pid = -1
        self._handle: zipfile.ZipFile | None = None
        for info in self._zipfile().infolist():
            key = normalise_member(info.filename)
            if key is not None and not info.is_dir():  # '..' names never resolve
                self._members[key] = info

    def _zipfile(self) -> zipfile.ZipFile:
        # A ZipFile opened before a fork shares one file position with the parent and every
        # sibling worker, whose reads then interleave (bad CRCs, wrong members): each process
        # opens its own.
        if self._handle is None or self._pid != os.getpid():
            try:
                self._handle = zipfile.ZipFile(self.path)
            except (zipfile.BadZipFile, OSError) as error:
                raise QuakeFormatError(str(self.path), 'zip', self.path.name, f'not a readable ZIP: {error}') from None
            self._pid = os.getpid()
        return self._handle

    def _read(self, handle: zipfile.ZipInfo) -> bytes:
        if handle.file_size > MAX_MEMBER_SIZE:
            raise QuakeFormatError(str(self.path), 'zip member size', handle.file_size, 'too large')
        try:
            return self._zipfile().read(handle)
        except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError, zlib.error) as error:
            raise QuakeFormatError(str(self.path), 'zip member', handle.filename, str(error)) from None


_OPEN: dict[Path, Archive] = {}
#: Archives kept open for reuse, most recent last.
MAX_OPEN = 16
#: The open archives by the absolute name they were asked for (before links are resolved).
_BY_NAME: dict[str, Archive] = {}


def open_archive(path: str | Path) -> Archive:
    """Open a PAK or PK3/ZIP archive by its first bytes (archives stay open and are reused).

    Raises
    ------
    QuakeFormatError
        If the file is neither, or is malformed.

    """
    given = os.path.abspath(path)
    # An archive asked for again by the name it was opened by: one stat, no resolving of every folder on the way (a
    # level's images look in every archive of the game, once per image).
    known = _BY_NAME.get(given)
    if known is not None and _OPEN.get(known.path) is known:
        stat = os.stat(given)
        if known._stat == (stat.st_size, stat.st_mtime_ns):
            return known
    path = Path(path).resolve()
    stat = path.stat()
    key = path
    cached = _OPEN.get(key)
    if cached is not None and getattr(cached, '_stat', None) == (stat.st_size, stat.st_mtime_ns):
        _remember(given, cached)
        return cached
    with path.open('rb') as handle:
        head = handle.read(4)
    archive: Archive = PakArchive(path) if head == PAK_IDENT else ZipArchive(path)
    archive._stat = (stat.st_size, stat.st_mtime_ns)
    _OPEN.pop(key, None)
    _OPEN[key] = archive
    while len(_OPEN) > MAX_OPEN:  # a PAK is held in memory: keep only the latest few
        del _OPEN[next(iter(_OPEN))]
    _remember(given, archive)
    return archive


def _remember(given: str, archive: Archive) -> None:
    if len(_BY_NAME) >= 4 * MAX_OPEN:  # names of archives no longer open go too
        _BY_NAME.clear()
    _BY_NAME[given] = archive


def load_order(names: list[str]) -> list[str]:
    """Archive file names in the order the games load them: numbers by value (``pak2`` before
    ``pak10``), else by name, which is Quake III's and UFO: AI's alphabetical PK3 order.

    A later archive overrides an earlier one.
    """
    return sorted(names, key=lambda name: [int(p) if p.isdigit() else p.lower() for p in re.split(r'(\d+)', name)])


def split_member(text: str) -> tuple[Path, str] | None:
    """``(archive, member)`` of ``'pak0.pak:progs/player.mdl'``, when the part before a colon is an archive file."""
    position = text.find(':')
    while position != -1:
        head, member = text[:position], text[position + 1 :]
        if member and is_archive(Path(head)):
            return Path(head), member
        position = text.find(':', position + 1)
    return None


def is_archive(path: Path) -> bool:
    """Whether a path names an archive file by its suffix."""
    return path.suffix.lower() in ARCHIVE_SUFFIXES and path.is_file()
