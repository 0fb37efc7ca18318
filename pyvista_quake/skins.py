"""Skins: find them where the game would, decode them, and pack them for field data.

MD2 models name image files relative to the game folder; this module looks
for them in the places listed in :func:`SkinSearch.find` (game root, the
model's folder, other extensions, UFO: Alien Invasion's ``.name`` form,
search roots, PAK/PK3 archives) and decodes them with Pillow.  MDL models
embed palette-indexed pictures; they become RGB through Quake's palette.

Nothing here knows byte layouts of models; it works on names, paths and
image bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
import functools
import io
import os
from pathlib import Path
from pathlib import PurePosixPath
import warnings

import numpy as np

from pyvista_quake.archives import Archive
from pyvista_quake.archives import is_archive
from pyvista_quake.archives import normalise_member
from pyvista_quake.archives import open_archive
from pyvista_quake.errors import QuakeFormatError
from pyvista_quake.errors import QuakeWarning
from pyvista_quake.formats.tables import FULLBRIGHT_START
from pyvista_quake.formats.tables import QUAKE_PALETTE

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


@dataclass
class SkinSearch:
    """Where to look for a model's skins.

    Parameters
    ----------
    model_path : pathlib.Path or None
        The model file (``None`` for a model from bytes: only search roots apply).
    search_paths : list of path
        Extra roots: folders, or PAK/PK3 files.  ``PYVISTA_QUAKE_PATH`` is added.
    archive : Archive, optional
        The archive the model itself came from.
    member : str, optional
        The model's member name inside ``archive``.

    """

    model_path: Path | None = None
    search_paths: list[Path] = field(default_factory=list)
    archive: Archive | None = None
    member: str | None = None

    def __post_init__(self) -> None:
        env = os.environ.get(SEARCH_PATH_VARIABLE, '')
        self.search_paths = [Path(p) for p in self.search_paths] + [Path(p) for p in env.split(os.pathsep) if p]

    # -- the places ---------------------------------------------------------------------
    def _model_folder(self) -> Path | None:
        return self.model_path.parent if self.model_path is not None and self.archive is None else None

    def _game_root(self, first: str) -> Path | None:
        """Walk up from the model's folder to a folder holding ``first`` (a name's first component)."""
        folder = self._model_folder()
        if folder is None:
            return None
        for candidate in (folder, *folder.parents):
            hit = _listdir(candidate).get(first.lower())  # any letter case
            if hit is not None and (candidate / hit).is_dir():
                return candidate
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

    def candidates(self, name: str) -> list[tuple[Path | Archive, str]]:
        """Every ``(place, relative name)`` to try for ``name``, in order; the first hit wins.

        1. under the game root (the folder above the name's first component,
           found walking up from the model) -- or in the model's own archive;
        2. in the model's own folder, by the name's last component;
        3. both again with the stem and each other image extension;
        4. under each search root, then in the archives of the game root and
           the search roots, with the same extensions.

        UFO: Alien Invasion's ``.name`` is a file of the model's own folder with
        any image extension.
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
            return _unique(alternates)
        last = PurePosixPath(clean).name
        game_root = self._game_root(clean.split('/', 1)[0]) if '/' in clean else None
        add(self.archive, clean)
        if member_folder is not None:
            add(self.archive, f'{member_folder}/{last}')
        add(game_root, clean)
        add(folder, last)
        first = exact + alternates
        exact, alternates = [], []
        for root in self._later_roots(game_root):
            add(root, clean)
        return _unique(first + exact + alternates)

    def find(self, name: str) -> tuple[FoundSkin | None, list[str]]:
        """Find a skin by the name a model gives; return it and every place tried."""
        tried: list[str] = []
        clean = name.replace('\\', '/')
        if '..' in PurePosixPath(clean).parts:
            warnings.warn(f'skin name {name!r} leaves the game folder; refused', QuakeWarning, stacklevel=2)
            return None, tried
        if _is_absolute(clean):
            # Someone's own disk path (C:\\models\\skin.bmp): only its last component
            # is looked for, inside the roots.
            name = PurePosixPath(clean).name
        for place, relative in self.candidates(name):
            label, data = _read_place(place, relative)
            tried.append(label)
            if data is not None:
                return FoundSkin(name, label, data), tried
        return None, tried

    def find_beside_model(self) -> tuple[FoundSkin | None, list[str]]:
        """For a model that names no skin: an image with the model's own stem beside it."""
        tried: list[str] = []
        folder = self._model_folder()
        if folder is None or self.model_path is None:
            return None, tried
        for relative in _with_extensions(self.model_path.stem, keep=False):
            label, data = _read_place(folder, relative)
            tried.append(label)
            if data is not None:
                return FoundSkin(Path(relative).name, label, data), tried
        return None, tried


@functools.lru_cache(maxsize=256)
def _listing(folder: Path, mtime_ns: int) -> dict[str, str]:
    """A folder's entries by lower-case name (cached while the folder is unchanged)."""
    try:
        return {name.lower(): name for name in os.listdir(folder)}
    except OSError:
        return {}


def _listdir(folder: Path) -> dict[str, str]:
    """Entries of a folder by lower-case name: one listing per folder, not one per name tried."""
    try:
        mtime = os.stat(folder).st_mtime_ns
    except OSError:
        return {}
    return _listing(folder, mtime)


def _archives_in(folder: Path) -> list[Archive]:
    """The PAK/PK3 files directly in a folder, in name order (pak0 before pak1)."""
    names = sorted(real for low, real in _listdir(folder).items() if low.endswith(('.pak', '.pk3')))
    return [a for a in (_safe_open(folder / n) for n in names) if a is not None]


def _safe_open(path: Path) -> Archive | None:
    try:
        return open_archive(path)
    except (QuakeFormatError, OSError) as error:
        warnings.warn(f'archive {path} skipped: {error}', QuakeWarning, stacklevel=4)
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


def _read_place(place: Path | Archive, relative: str) -> tuple[str, bytes | None]:
    """Read ``relative`` under a folder or archive; never outside the folder."""
    if isinstance(place, Archive):
        label = f'{place.path}:{relative}'
        key = normalise_member(relative)
        if key is None or key not in place:
            return label, None
        try:
            return label, place.read(key)
        except QuakeFormatError as error:
            warnings.warn(str(error), QuakeWarning, stacklevel=4)
            return label, None
    target = place / relative
    label = str(target)
    # Letter case matched loosely, as on the game's own file systems.
    hit = _listdir(target.parent).get(target.name.lower())
    if hit is None:
        return label, None
    found = target.parent / hit
    try:
        if not found.resolve().is_relative_to(place.resolve()):
            return label, None  # a link or name pointing out of the root
        if found.is_file():
            return str(found), found.read_bytes()
    except OSError:
        pass
    return label, None


# -- decoding ---------------------------------------------------------------------------


def decode_image(data: bytes, label: str = '<image>') -> np.ndarray | None:
    """Decode an image file's bytes to ``uint8`` ``(height, width, 3 or 4)``, rows from the top.

    PCX and other paletted images go through their own palette.  A file that
    Pillow cannot read (or that is over its decompression-bomb limit) gives a
    warning and ``None``.
    """
    from PIL import Image  # noqa: PLC0415 - Pillow is only needed once a skin is decoded

    try:
        with warnings.catch_warnings():
            warnings.simplefilter('error', Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                mode = 'RGBA' if 'A' in image.getbands() or 'transparency' in image.info else 'RGB'
                return np.asarray(image.convert(mode))
    except Exception as error:  # noqa: BLE001 - Pillow raises many kinds for a broken file
        warnings.warn(f'{label}: skin not decoded ({type(error).__name__}: {error})', QuakeWarning, stacklevel=2)
        return None


def read_palette(palette: str | Path | np.ndarray | None) -> np.ndarray:
    """Return a palette as ``uint8`` ``(256, 3)``: a ``palette.lmp`` path, an array, or Quake's own."""
    if palette is None:
        return QUAKE_PALETTE
    if isinstance(palette, (str, Path)):
        found = _palette_from_bytes(Path(palette).read_bytes())
        if found is None:
            raise QuakeFormatError(str(palette), 'palette', Path(palette).stat().st_size, 'a palette.lmp holds 768 bytes')
        return found
    array = np.asarray(palette)
    if array.shape != (256, 3):
        raise ValueError(f'a palette is 256 x 3 values, not {array.shape}')
    if array.dtype.kind == 'f' and array.max() <= 1.0:
        array = array * 255
    return np.clip(array, 0, 255).astype(np.uint8)


def find_palette(search: SkinSearch) -> np.ndarray | None:
    """The game's own ``gfx/palette.lmp`` in the search roots, if there is one."""
    found, _ = _find_exact(search, 'gfx/palette.lmp')
    return None if found is None else _palette_from_bytes(found.data)


def _palette_from_bytes(data: bytes) -> np.ndarray | None:
    """The 256 RGB entries of a ``palette.lmp``, or ``None`` for a file too short to be one."""
    if len(data) < 768:
        return None
    return np.frombuffer(data, np.uint8)[:768].reshape(256, 3)


def _find_exact(search: SkinSearch, name: str) -> tuple[FoundSkin | None, list[str]]:
    """Find a file by its path from the game folder: the model's archive, the
    folders just above the model (Quake's ``id1/progs/x.mdl`` sits one level
    below ``id1/gfx/``) and their archives, then the search roots."""
    places: list[Path | Archive | None] = [search.archive]
    folder = search._model_folder()
    if folder is not None:
        near = [folder, *folder.parents][:3]
        places += near
        for candidate in near:
            places += _archives_in(candidate)
    places += search._later_roots(None)
    tried = []
    for place in (p for p in places if p is not None):
        label, data = _read_place(place, name)
        tried.append(label)
        if data is not None:
            return FoundSkin(name, label, data), tried
    return None, tried


def fullbright_mask(indices: np.ndarray) -> np.ndarray:
    """Which pixels Quake draws fullbright (palette indices 224-255)."""
    return indices >= FULLBRIGHT_START
