"""The game's files: one object that answers every lookup, in the game's order.

:class:`GameFiles` looks a name up where the engine would: under the game
root found walking up from the model, in the model's folder, in its archive
and the archives beside it (PAK/PK3 files, the one loaded last first), then
in the search roots and theirs.  It finds skins and images, ``.skin`` files,
shader scripts, ``.tag`` and ``.anm`` files, palettes and players' parts;
what is found is decoded elsewhere (:mod:`pyvista_quake.game.skins`,
:mod:`pyvista_quake.formats`).  Archives reopen their files in each process,
so the object is safe to use on either side of a fork.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
import functools
import os
from pathlib import Path
from pathlib import PurePosixPath

import numpy as np

from pyvista_quake._base import fields as keys
from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake._base.warnings import warn_external
from pyvista_quake.game.archives import Archive
from pyvista_quake.game.archives import is_archive
from pyvista_quake.game.archives import load_order
from pyvista_quake.game.archives import normalise_member
from pyvista_quake.game.archives import open_archive
from pyvista_quake.game.inputs import note
from pyvista_quake.game.sources import Place

#: Places a missing skin's warning names before it counts the rest.
SHOWN_PLACES = 4

#: Image extensions tried for a skin, in order (engine ports load these for a ``.pcx`` name).
IMAGE_EXTENSIONS = ('.pcx', '.png', '.tga', '.jpg', '.jpeg', '.bmp')

#: Environment variable of extra search roots, ``os.pathsep``-separated.
SEARCH_PATH_VARIABLE = 'PYVISTA_QUAKE_PATH'


@dataclass(frozen=True)
class FoundSkin:
    """A skin image found somewhere: its bytes and where they came from.

    Attributes
    ----------
    name : str
        The skin name the model gives (or the file name for a model that names none).
    location : str
        A path, or ``archive.pak:member/name.pcx`` for an archive member.
    data : bytes
        The image file's bytes, still encoded.

    """

    name: str
    location: str
    data: bytes

    def __repr__(self) -> str:
        """Return the name, where it was found and its size (not its bytes)."""
        return f'FoundSkin(name={self.name!r}, location={self.location!r}, {len(self.data):,} bytes)'

    def field_data(self) -> dict:
        """The image as it travels in a frame's field data: its name, location and still encoded bytes."""
        return {keys.SKIN_NAME: [self.name], keys.SKIN_LOCATION: [self.location], keys.SKIN_FILE: np.frombuffer(self.data, np.uint8)}


#: A place an image was looked for: ``(its name for messages, the folder or archive it is in)``.
Tried = tuple[str, str]


def warn_missing(source: str, what: str, tried: list[Tried]) -> None:
    """Warn that an image was not found, naming each place tried once (the first :data:`SHOWN_PLACES`).

    The warning stays short: a place in the same folder or archive as the place before it is named
    from there (``…/models/x/skin.pcx, skin.png``), a folder or archive beside the one before it by its
    own name, and the places past the first few are counted with the folders and archives they were in.
    """
    tried = list(dict.fromkeys(tried))  # each place once: searches by name and beside the model overlap
    shown = ', '.join(_from_previous([label for label, _ in tried[:SHOWN_PLACES]], [root for _, root in tried[:SHOWN_PLACES]]))
    if len(tried) > SHOWN_PLACES:
        # The rest counted, with the folders and archives they were in: short, and still says where was looked.
        rest = list(dict.fromkeys(root for _, root in tried[SHOWN_PLACES:]))
        named = _from_previous(rest[:SHOWN_PLACES], [os.path.dirname(root) for root in rest[:SHOWN_PLACES]], beside=True)
        where = ', '.join(named) + (f' and {len(rest) - SHOWN_PLACES} others' if len(rest) > SHOWN_PLACES else '')
        shown += f' and {len(tried) - SHOWN_PLACES} more in {where}'

    warn_external(f'{source}: {what} not found; tried {shown or "nowhere"}')


def _from_previous(names: list[str], roots: list[str], beside: bool = False) -> list[str]:
    """Each name, after the first, without the root of the name before it where it lies in that root (``beside``:
    where both lie in the same folder, the name's last part)."""
    out = names[:1]
    for k in range(1, len(names)):
        previous = roots[k - 1]
        name = names[k]
        if beside and roots[k] == previous and previous:
            out.append(os.path.basename(name))
        elif not beside and previous and len(name) > len(previous) and name.startswith(previous) and name[len(previous)] in '/:':
            out.append(name[len(previous) + 1 :])
        else:
            out.append(name)
    return out


@dataclass
class GameFiles:
    """The game's files as a model's engine finds them: one object for every lookup.

    Skins and images, ``.skin`` files, shader scripts, ``.tag`` and ``.anm``
    files, palettes and a player's parts are all looked up here, in the
    game's order: the model's own folder and game root, its archive and the
    archives beside it (the one the game loads last first, file by file), then
    ``search_paths`` and their archives.  Nothing is held open across a fork:
    each process opens its own archive handles.

    Parameters
    ----------
    model_path : str, pathlib.Path or None
        The model file (``None`` for a model from bytes: only search roots apply).
    search_paths : list of path
        Extra roots: folders, or PAK/PK3 files.  ``PYVISTA_QUAKE_PATH`` is added.
    archive : Archive, optional
        The archive the model itself came from.
    member : str, optional
        The model's member name inside ``archive``.
    archive_folder : pathlib.Path, optional
        The folder ``archive`` stands in as it was named (a symbolic link's, not its target's): the
        archives beside it are the game's.  ``None``: the archive file's own folder.

    """

    model_path: str | Path | None = None
    search_paths: list[Path] = field(default_factory=list)
    archive: Archive | None = None
    member: str | None = None
    archive_folder: Path | None = None

    def __post_init__(self) -> None:
        env = os.environ.get(SEARCH_PATH_VARIABLE, '')
        self.search_paths = [Path(p) for p in self.search_paths] + [Path(p) for p in env.split(os.pathsep) if p]

    # -- the places ---------------------------------------------------------------------
    @functools.cached_property
    def _model_file(self) -> Path:
        # A Path only when a skin is looked for: loading a model does not pay for one.
        return Path(self.model_path or '')

    def _model_folder(self) -> Path | None:
        return self._model_file.parent if self.model_path is not None and self.archive is None else None

    def _game_root(self, first: str) -> Path | None:
        """Walk up from the model's folder to a folder holding ``first`` (a name's first component)."""
        folder = self._model_folder()
        if folder is None:
            return None
        lower = first.lower()
        for root in folders_up(folder):
            note(os.path.join(root, first))  # asked whether it is there: its coming or going counts
            hit = _listdir(root).get(lower)  # any letter case
            if hit is not None and os.path.isdir(os.path.join(root, hit)):
                return Path(root)
        return None

    def _later_roots(self, game_root: Path | None) -> list[Path | Archive]:
        """Search roots (folders first), then archives: the game root's, the roots' own."""
        folders = [r for r in self.search_paths if r.is_dir()]
        archives: list[Archive | None] = []
        if game_root is not None:
            archives += _archives_in(game_root)
        for root in self.search_paths:
            if is_archive(root):
                archives.append(_safe_open(root))
            elif root.is_dir():
                archives += _archives_in(root)
        return [*folders, *(a for a in archives if a is not None)]

    def _own_archives(self) -> list[Archive]:
        """The model's archive and its siblings, as the game searches them: the one loaded last first."""
        return archive_stack(self.archive, self.archive_folder) if self.archive is not None else []

    def candidates(self, name: str) -> list[tuple[Path | Archive, str]]:
        """Every ``(place, relative name)`` to try for ``name``, in order; the first hit wins.

        1. under the game root (the folder above the name's first component,
           found walking up from the model) -- or in the model's own archive;
        2. in the model's own folder, by the name's last component;
        3. both again with the stem and each other image extension;
        4. under each search root, then in the archives of the game root and
           the search roots, with the same extensions.

        UFO: Alien Invasion's ``.name`` is a file of the model's own folder with
        any image extension; then of each search root (and archive), for a
        model kept away from its folder.
        """
        clean = name.replace('\\', '/').strip()
        folder = self._model_folder()
        member_folder = str(PurePosixPath(self.member).parent) if self.member else None
        exact: list[tuple[Path | Archive, str]] = []
        alternates: list[tuple[Path | Archive, str]] = []

        def add(place: Path | Archive | None, relative: str, keep: bool = True) -> None:
            if place is None or not relative:
                return
            if keep:
                exact.append((place, relative))
            alternates.extend((place, n) for n in _with_extensions(relative, keep=False))

        if clean.startswith('.') and '/' not in clean:
            add(folder, clean[1:], keep=False)
            if member_folder is not None:
                add(self.archive, f'{member_folder}/{clean[1:]}', keep=False)
            for root in self._later_roots(None):
                add(root, clean[1:], keep=False)
            return _unique(alternates)
        last = PurePosixPath(clean).name
        game_root = self._game_root(clean.split('/', 1)[0]) if '/' in clean else None
        for archive in self._own_archives():
            add(archive, clean)
        if member_folder is not None:
            add(self.archive, f'{member_folder}/{last}')
        add(game_root, clean)
        add(folder, last)
        first = exact + alternates
        exact, alternates = [], []
        for root in self._later_roots(game_root):
            add(root, clean)
        return _unique(first + exact + alternates)

    def find(self, name: str) -> tuple[FoundSkin | None, list[Tried]]:
        """Find a skin by the name a model gives; return it and every place tried."""
        tried: list[Tried] = []
        clean = name.replace('\\', '/')
        if '..' in PurePosixPath(clean).parts:
            warn_external(f'skin name {name!r} leaves the game folder; refused')
            return None, tried
        if _is_absolute(clean):
            # Someone's own disk path (C:\\models\\skin.bmp): only its last component
            # is looked for, inside the roots.
            name = PurePosixPath(clean).name
        for place, relative in self.candidates(name):
            where, data = _read_place(place, relative)
            tried.append(where)
            if data is not None:
                return FoundSkin(name, where[0], data), tried
        return None, tried

    def place_of(self, name: str) -> tuple[Place | None, list[Tried]]:
        """Where the file ``name`` (a level a demo names) is in the game's files, looked for in :meth:`find`'s order:
        a file on disk or an archive's member, and every place tried (``None`` where it is not)."""
        tried: list[Tried] = []
        suffix = PurePosixPath(name).suffix.lower()
        for place, relative in self.candidates(name):
            if PurePosixPath(relative).suffix.lower() != suffix:
                continue  # the candidates of an image's other extensions
            where, data = _read_place(place, relative)
            tried.append(where)
            if data is not None:
                return (Place(Path(where[0])) if isinstance(place, Path) else Place(place.path, relative)), tried
        return None, tried

    def shader_scripts(self) -> list[tuple[str, str]]:
        """``(name, text)`` of every ``scripts/*.shader`` of the game: its folder's and its archives' (Quake III)."""
        texts: list[tuple[str, str]] = []
        root = self._game_root('scripts')
        places: list[Path | Archive] = ([root] if root is not None else []) + self._own_archives() + self._later_roots(root)
        seen: set[str] = set()
        for place in places:
            if isinstance(place, Archive):
                note(place.path)
                names = [n for n in place.names() if n.startswith('scripts/') and n.endswith('.shader')]
                items: list[tuple[str, Callable[[], bytes]]] = [(f'{place.path}:{n}', functools.partial(place.read, n)) for n in names]
            else:
                folder = Path(place) / 'scripts'
                note(folder)
                items = [(str(p), p.read_bytes) for p in sorted(folder.glob('*.shader'))] if folder.is_dir() else []
                for label, _ in items:
                    note(label)
            for label, read in items:
                if label not in seen:
                    seen.add(label)
                    try:
                        texts.append((label, read().decode('latin-1')))
                    except (OSError, QuakeFormatError):
                        continue
        return texts

    def beside_model(self, name: str) -> tuple[str, bytes] | None:
        """``(location, bytes)`` of the file ``name`` beside the model: in its folder, or in its archive's folder
        of the game's merged archives (the archive loaded last that holds it, as the game reads it)."""
        if self.archive is not None and self.member:
            return read_member(self._own_archives(), str(PurePosixPath(self.member).parent / name))
        if self.model_path is None:
            return None
        path = self._model_file.parent / name
        return (str(path), path.read_bytes()) if path.is_file() else None

    @classmethod
    def of_folder(cls, folder: Place, file: str, search_paths: list[Path] | None = None) -> GameFiles:
        """The game's files seen from ``file`` in ``folder`` (a folder on disk, or ``Place(archive, member)``
        of a folder in the game's archives): a player's, whose parts are looked up beside its ``animation.cfg``."""
        if folder.member is None:
            return cls(model_path=folder.path / file, search_paths=list(search_paths or []))
        return cls(
            model_path=folder.path,
            search_paths=list(search_paths or []),
            archive=open_archive(folder.path),
            member=f'{folder.member.rstrip("/")}/{file}',
        )

    def place_beside(self, name: str) -> Place | None:
        """Where the file ``name`` beside the model is, as :meth:`beside_model` finds it: a file in its folder,
        or the member of the game's merged archives the game reads (the archive loaded last that holds it)."""
        if self.archive is not None and self.member:
            member = str(PurePosixPath(self.member).parent / name)
            holder = locate_member(self._own_archives(), member)
            return Place(holder.path, member) if holder is not None else None
        if self.model_path is None:
            return None
        path = self._model_file.parent / name
        return Place(path) if path.is_file() else None

    def names_beside(self) -> list[str]:
        """The lower-case names of the files beside the model: its folder's, or its archive folder's in every
        one of the game's merged archives (a name once)."""
        if self.archive is not None and self.member:
            prefix = f'{str(PurePosixPath(self.member).parent).lower()}/'
            found = (n[len(prefix) :] for a in self._own_archives() for n in a.names() if n.startswith(prefix))
            return _unique([n for n in found if '/' not in n])
        if self.model_path is None or not self._model_file.parent.is_dir():
            return []
        return [p.name.lower() for p in self._model_file.parent.iterdir() if p.is_file()]

    def archive_sidecar(self, suffix: str) -> tuple[str, str] | None:
        """``(name, text)`` of the file beside the model in its archive with another suffix (``.anm``)."""
        if self.archive is None or not self.member:
            return None
        found = self.beside_model(PurePosixPath(self.member).with_suffix(suffix).name)
        return (found[0], found[1].decode('latin-1')) if found is not None else None

    def model_file_name(self) -> str | None:
        """The model's own file name (``player.mdl``), on disk or in its archive."""
        if self.member:
            return PurePosixPath(self.member).name
        return self._model_file.name if self.model_path is not None else None

    def model_stem(self) -> str:
        """The model's file name without its extension (``player`` for ``player.mdl``); ``''`` for a model of bytes."""
        name = self.model_file_name()
        return PurePosixPath(name).stem if name else ''

    def find_beside_model(self) -> tuple[FoundSkin | None, list[Tried]]:
        """For a model that names no skin: an image with the model's own stem beside it."""
        tried: list[Tried] = []
        folder = self._model_folder()
        if folder is None or self.model_path is None:
            return None, tried
        stem = self._model_file.stem
        for relative in _with_extensions(stem, keep=False):
            where, data = _read_place(folder, relative)
            tried.append(where)
            if data is not None:
                return FoundSkin(Path(relative).name, where[0], data), tried
        # Else the one image whose name starts with the model's (faerie.md2 and faerie2.bmp),
        # unless another model of the folder has that name (barrel2.png is barrel2.md2's);
        # with several such images, none is a better guess than another: no skin.
        extensions = tuple(IMAGE_EXTENSIONS)
        note(folder)  # the guess reads the whole listing
        entries = _listdir(folder).values()
        models = {name.rsplit('.', 1)[0].lower() for name in entries if name.lower().endswith(('.md2', '.mdl'))}
        similar = sorted(
            name
            for name in entries
            if name.lower().startswith(stem.lower()) and name.lower().endswith(extensions) and name.rsplit('.', 1)[0].lower() not in models
        )
        if len(similar) == 1:
            where, data = _read_place(folder, similar[0])
            tried.append(where)
            if data is not None:
                return FoundSkin(similar[0], where[0], data), tried
        return None, tried


def archive_stack(archive: Archive, folder: Path | None = None) -> list[Archive]:
    """An archive and the archives beside it as the game searches them, the one loaded last first.

    A game merges the PAK/PK3 files of its folder file by file: a member of a
    later archive overrides the same member of an earlier one.  ``folder`` is the
    folder the archive stands in as named (a link's own folder); ``None``: the file's.
    """
    folder = folder if folder is not None else archive.path.parent
    siblings = _archives_in(folder) if folder.is_dir() else []
    return siblings if any(a.path == archive.path for a in siblings) else [archive]


def locate_member(archives: list[Archive], name: str) -> Archive | None:
    """The first of ``archives`` (searched in order) holding the member ``name``, or ``None``."""
    return next((a for a in archives if name in a), None)


def read_member(archives: list[Archive], name: str) -> tuple[str, bytes] | None:
    """``(location, bytes)`` of member ``name`` from the first of ``archives`` holding it; ``None`` if none
    does, or if that one cannot be read (a broken member is not the game's file)."""
    archive = locate_member(archives, name)
    key = normalise_member(name)
    if archive is None or key is None:
        return None
    try:
        return f'{archive.path}:{key}', archive.read(key)
    except QuakeFormatError:
        return None


#: The name this class had before it found more than skins.
SkinSearch = GameFiles


@functools.lru_cache(maxsize=256)
def _listing(folder: str, mtime_ns: int) -> dict[str, str]:
    """A folder's entries by lower-case name (cached while the folder is unchanged)."""
    try:
        return {name.lower(): name for name in os.listdir(folder)}
    except OSError:
        return {}


def folders_up(folder: str | Path) -> Iterator[str]:
    """``folder`` and each folder above it to the file system's root, as strings (a walk asks a dozen: path objects cost more)."""
    root, below = os.fspath(folder), None
    while root != below:
        yield root
        root, below = os.path.dirname(root) or '.', root


def _listdir(folder: str | Path) -> dict[str, str]:
    """Entries of a folder by lower-case name: one listing per folder, not one per name tried."""
    folder = os.fspath(folder)
    try:
        mtime = os.stat(folder).st_mtime_ns
    except OSError:
        return {}
    return _listing(folder, mtime)


@functools.lru_cache(maxsize=1024)
def _real_folder(folder: str, mtime_ns: int) -> str:
    """A folder's real path (links resolved), cached while the folder is unchanged."""
    return os.path.realpath(folder)


def _real(folder: str) -> str:
    try:
        return _real_folder(folder, os.stat(folder).st_mtime_ns)
    except OSError:
        return os.path.realpath(folder)


def real_path(path: str | Path) -> str:
    """``os.path.realpath(path)`` through the cached real path of its folder (one ``lstat``, not one a component)."""
    path = os.path.abspath(path)
    if os.path.islink(path):
        return os.path.realpath(path)
    parent, name = os.path.split(path)
    return os.path.join(_real(parent), name) if name else _real(parent)


def _archives_in(folder: Path) -> list[Archive]:
    """The PAK/PK3 files directly in a folder, the one that overrides the others first
    (the games load them in :func:`load_order` and the last loaded wins)."""
    note(folder)  # its archives: one added or removed changes the game's files
    names = load_order([real for low, real in _listdir(folder).items() if low.endswith(('.pak', '.pk3', '.dpk'))])[::-1]
    return [a for a in (_safe_open(folder / n) for n in names) if a is not None]


def _safe_open(path: Path) -> Archive | None:
    try:
        return open_archive(path)
    except (QuakeFormatError, OSError) as error:
        warn_external(f'archive {path} skipped: {error}')
        return None


def _is_absolute(name: str) -> bool:
    """A POSIX absolute path or a Windows drive path (``C:/...``)."""
    return name.startswith('/') or (len(name) > 1 and name[1] == ':')


def _with_extensions(name: str, keep: bool = True) -> list[str]:
    """``name`` itself (if ``keep``), then the same stem with each image extension."""
    path = PurePosixPath(name)
    stem = str(path.with_suffix('')) if path.suffix.lower() in IMAGE_EXTENSIONS else str(path)
    out = [name] if keep else []
    for ext in IMAGE_EXTENSIONS:
        out.append(stem + ext)  # letter case is matched when reading
    return _unique(out)


def _unique(items: list) -> list:
    seen, out = set(), []
    for item in items:
        key = (id(item[0]), item[1]) if isinstance(item, tuple) else item
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


def _read_place(place: Path | Archive, relative: str) -> tuple[Tried, bytes | None]:
    """Read ``relative`` under a folder or archive; never outside the folder.

    Returns where it was looked for (its name, and the folder or archive it is in) and its bytes, or ``None``.
    """
    if isinstance(place, Archive):
        note(place.path)
        where = (f'{place.path}:{relative}', str(place.path))
        key = normalise_member(relative)
        if key is None or key not in place:
            return where, None
        try:
            return where, place.read(key)
        except QuakeFormatError as error:
            warn_external(str(error))
            return where, None
    # Strings, not Path objects: this runs for every candidate of every skin.
    root = os.fspath(place)
    label = os.path.join(root, relative)
    parent, name = os.path.split(label)
    note(label)  # found or not: a file appearing there later changes what the lookup finds
    # Letter case matched loosely, as on the game's own file systems.
    hit = _listdir(parent).get(name.lower())
    if hit is None:
        return (label, parent), None
    found = os.path.join(parent, hit)
    try:
        real = os.path.realpath(found) if os.path.islink(found) else os.path.join(_real(parent), hit)
        real_root = _real(root)
        if not (real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)):
            return (label, parent), None  # a link or name pointing out of the root
        note(found)
        with open(found, 'rb') as handle:
            return (found, parent), handle.read()
    except (OSError, IsADirectoryError):
        pass
    return (label, parent), None
