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

from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
import functools
import io
import os
from pathlib import Path
from pathlib import PurePosixPath
import re
import warnings

import numpy as np

from pyvista_quake._base import fields as keys
from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake._base.warnings import warn_external
from pyvista_quake.formats.tables import FULLBRIGHT_START
from pyvista_quake.formats.tables import QUAKE_PALETTE
from pyvista_quake.game.archives import Archive
from pyvista_quake.game.archives import is_archive
from pyvista_quake.game.archives import load_order
from pyvista_quake.game.archives import normalise_member
from pyvista_quake.game.archives import open_archive
from pyvista_quake.game.engines import MF_HOLEY
from pyvista_quake.game.engines import holey_mask

#: Places a missing skin's warning names before it counts the rest.
SHOWN_PLACES = 36

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


def warn_missing(source: str, what: str, tried: list[str]) -> None:
    """Warn that an image was not found, naming each place tried once (the first :data:`SHOWN_PLACES`)."""
    tried = list(dict.fromkeys(tried))  # each place once: searches by name and beside the model overlap
    shown = ', '.join(tried[:SHOWN_PLACES]) + (f' and {len(tried) - SHOWN_PLACES} more' if len(tried) > SHOWN_PLACES else '')
    warn_external(f'{source}: {what} not found; tried {shown or "nowhere"}')


@dataclass
class SkinSearch:
    """Where to look for a model's skins.

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

    """

    model_path: str | Path | None = None
    search_paths: list[Path] = field(default_factory=list)
    archive: Archive | None = None
    member: str | None = None

    def __post_init__(self) -> None:
        env = os.environ.get(SEARCH_PATH_VARIABLE, '')
        self.search_paths = [Path(p) for p in self.search_paths] + [Path(p) for p in env.split(os.pathsep) if p]

    # -- the places ---------------------------------------------------------------------
    @property
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

    def _own_archives(self) -> list[Archive]:
        """The model's archive and its siblings, as the game searches them: the one loaded last first."""
        if self.archive is None:
            return []
        siblings = _archives_in(self.archive.path.parent) if self.archive.path.parent.is_dir() else []
        return siblings if any(a.path == self.archive.path for a in siblings) else [self.archive]

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

    def find(self, name: str) -> tuple[FoundSkin | None, list[str]]:
        """Find a skin by the name a model gives; return it and every place tried."""
        tried: list[str] = []
        clean = name.replace('\\', '/')
        if '..' in PurePosixPath(clean).parts:
            warn_external(f'skin name {name!r} leaves the game folder; refused')
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

    def shader_scripts(self) -> list[tuple[str, str]]:
        """``(name, text)`` of every ``scripts/*.shader`` of the game: its folder's and its archives' (Quake III)."""
        texts: list[tuple[str, str]] = []
        root = self._game_root('scripts')
        places: list[Path | Archive] = ([root] if root is not None else []) + self._own_archives() + self._later_roots(root)
        seen: set[str] = set()
        for place in places:
            if isinstance(place, Archive):
                names = [n for n in place.names() if n.startswith('scripts/') and n.endswith('.shader')]
                items: list[tuple[str, Callable[[], bytes]]] = [(f'{place.path}:{n}', functools.partial(place.read, n)) for n in names]
            else:
                folder = Path(place) / 'scripts'
                items = [(str(p), p.read_bytes) for p in sorted(folder.glob('*.shader'))] if folder.is_dir() else []
            for label, read in items:
                if label not in seen:
                    seen.add(label)
                    try:
                        texts.append((label, read().decode('latin-1')))
                    except (OSError, QuakeFormatError):
                        continue
        return texts

    def beside_model(self, name: str) -> tuple[str, bytes] | None:
        """``(location, bytes)`` of the file ``name`` beside the model: in its folder, or beside it in its archive."""
        if self.archive is not None and self.member:
            key = normalise_member(str(PurePosixPath(self.member).parent / name))
            if key is None or key not in self.archive:
                return None
            try:
                return f'{self.archive.path}:{key}', self.archive.read(key)
            except QuakeFormatError:
                return None
        if self.model_path is None:
            return None
        path = self._model_file.parent / name
        return (str(path), path.read_bytes()) if path.is_file() else None

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

    def find_beside_model(self) -> tuple[FoundSkin | None, list[str]]:
        """For a model that names no skin: an image with the model's own stem beside it."""
        tried: list[str] = []
        folder = self._model_folder()
        if folder is None or self.model_path is None:
            return None, tried
        stem = self._model_file.stem
        for relative in _with_extensions(stem, keep=False):
            label, data = _read_place(folder, relative)
            tried.append(label)
            if data is not None:
                return FoundSkin(Path(relative).name, label, data), tried
        # Else the one image whose name starts with the model's (faerie.md2 and faerie2.bmp),
        # unless another model of the folder has that name (barrel2.png is barrel2.md2's);
        # with several such images, none is a better guess than another: no skin.
        extensions = tuple(IMAGE_EXTENSIONS)
        entries = _listdir(folder).values()
        models = {name.rsplit('.', 1)[0].lower() for name in entries if name.lower().endswith(('.md2', '.mdl'))}
        similar = sorted(
            name for name in entries
            if name.lower().startswith(stem.lower()) and name.lower().endswith(extensions)
            and name.rsplit('.', 1)[0].lower() not in models
        )  # fmt: skip
        if len(similar) == 1:
            label, data = _read_place(folder, similar[0])
            tried.append(label)
            if data is not None:
                return FoundSkin(similar[0], label, data), tried
        return None, tried


@functools.lru_cache(maxsize=256)
def _listing(folder: str, mtime_ns: int) -> dict[str, str]:
    """A folder's entries by lower-case name (cached while the folder is unchanged)."""
    try:
        return {name.lower(): name for name in os.listdir(folder)}
    except OSError:
        return {}


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


def _archives_in(folder: Path) -> list[Archive]:
    """The PAK/PK3 files directly in a folder, the one that overrides the others first
    (the games load them in :func:`load_order` and the last loaded wins)."""
    names = load_order([real for low, real in _listdir(folder).items() if low.endswith(('.pak', '.pk3'))])[::-1]
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
            warn_external(str(error))
            return label, None
    # Strings, not Path objects: this runs for every candidate of every skin.
    root = os.fspath(place)
    label = os.path.join(root, relative)
    parent, name = os.path.split(label)
    # Letter case matched loosely, as on the game's own file systems.
    hit = _listdir(parent).get(name.lower())
    if hit is None:
        return label, None
    found = os.path.join(parent, hit)
    try:
        real = os.path.realpath(found) if os.path.islink(found) else os.path.join(_real(parent), hit)
        real_root = _real(root)
        if not (real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)):
            return label, None  # a link or name pointing out of the root
        with open(found, 'rb') as handle:
            return found, handle.read()
    except (OSError, IsADirectoryError):
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
        warn_external(f'{label}: skin not decoded ({type(error).__name__}: {error})')
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
    # Rounded, not truncated: 0.5 is 128 and a value a hair under k stays k.
    return np.clip(np.rint(array), 0, 255).astype(np.uint8)


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


# -- a model's skins ----------------------------------------------------------------------


class ModelSkins:
    """The skins of one model: found (MD2) or embedded (MDL), decoded on demand.

    Parameters
    ----------
    data : ModelData
        The model's content.
    search : SkinSearch
        Where an MD2's skin files are looked for.
    palette : str, pathlib.Path or array, optional
        Palette for MDL skins; the game's ``gfx/palette.lmp`` in the search roots,
        else Quake's own.
    external_skins : bool, default: True
        Prefer an MDL's replacement skin files (see :meth:`replacement`).
    holey : bool, default: True
        Palette index 255 transparent on an ``MF_HOLEY`` MDL.

    The keywords are the :class:`~pyvista_quake.LoadOptions` of the same names.

    """

    def __init__(
        self,
        data,
        search: SkinSearch,
        *,
        palette: str | Path | np.ndarray | None = None,
        external_skins: bool = True,
        holey: bool = True,
    ) -> None:
        self.data = data
        self.search = search
        self._palette = palette
        self.external_skins = external_skins
        self.holey = holey
        self._files: dict[int, FoundSkin | None] = {}
        self._external: dict[tuple[int, str], FoundSkin | None] = {}
        #: Images given for MD2 skins by name, written beside the model when it is saved.
        self.images: dict[str, np.ndarray] = {}

    def __len__(self) -> int:
        """Skins the model has: names an MD2 gives, pictures an MDL embeds."""
        return len(self.data.skins) if self.data.format == 'mdl' else len(self.data.skin_names)

    def valid_index(self, index: object) -> int | None:
        """Normalise a skin index (``None`` for none); an MD2 naming no skin still has skin 0 beside it.

        Raises
        ------
        IndexError
            If the model has no such skin.

        """
        if index is None:
            return None
        if not isinstance(index, (int, np.integer)):
            raise TypeError(f'{self.data.source}: an {self.data.format.upper()} picks its skin by number, not {index!r}')
        count = len(self) if self.data.format == 'mdl' else max(len(self), 1)
        if count == 0:
            return None  # an MDL with no skins
        if not -count <= index < count:
            raise IndexError(f'{self.data.source}: skin {index} out of range; the model has {count}')
        return int(index) % count

    @functools.cached_property
    def palette(self) -> np.ndarray:
        """The palette for MDL skins, ``uint8`` ``(256, 3)``: given, the game's own, or Quake's."""
        if self._palette is not None:
            return read_palette(self._palette)
        found = find_palette(self.search)
        return found if found is not None else read_palette(None)

    def file(self, index: int = 0) -> FoundSkin | None:
        """Find an MD2 skin's image file; a missing one warns, naming the places tried."""
        if index in self._files:
            return self._files[index]
        names = self.data.skin_names
        found: FoundSkin | None
        tried: list[str]
        if names and names[index] in self.images:
            found, tried = FoundSkin(names[index], '<image given>', png_bytes(self.images[names[index]])), []
        elif names:
            found, tried = self.search.find(names[index])
            if found is None:
                # Named but missing: an image with the model's own name beside it, as for a model naming none.
                found, more = self.search.find_beside_model()
                tried += more
                if found is not None:
                    warn_external(f'{self.data.source}: skin {index} {names[index]} not found; using {found.location}, '
                                  "the image with the model's name beside it")  # fmt: skip
        else:
            found, tried = self.search.find_beside_model()
        if found is None:
            wanted = names[index] if names else "(no skin named; an image with the model's name)"
            warn_missing(self.data.source, f'skin {index} {wanted}', tried)
        self._files[index] = found
        return found

    def field_data(self, index: int = 0) -> dict:
        """The skin in the form it travels in field data (still encoded, decoded on demand).

        MD2: ``skin_file`` (the image file's bytes) and ``skin_location``; MDL:
        ``skin_pixels`` (palette indices), ``skin_picture_shape``, ``skin_palette``
        and ``skin_times`` (end times of an animated group).
        """
        out: dict = {keys.SKIN_INDEX: np.array([index], np.int32)}
        replacement = self.replacement(index)
        if replacement is not None:
            return {**out, **replacement.field_data()}
        if self.data.format == 'mdl':
            if not self.data.skins:
                return {}
            if self.is_holey:
                out[keys.SKIN_HOLEY] = np.array([1], np.int32)
            entry = self.data.skins[index]
            out[keys.SKIN_PIXELS] = np.ascontiguousarray(entry.pictures).ravel()
            out[keys.SKIN_PICTURE_SHAPE] = np.array(entry.pictures.shape, np.int32)
            out[keys.SKIN_PALETTE] = np.ascontiguousarray(self.palette, np.uint8).ravel()
            if entry.times is not None:
                out[keys.SKIN_TIMES] = np.asarray(entry.times, np.float32)
            return out
        found = self.file(index)
        return {**out, **found.field_data()} if found is not None else {}

    def image(self, index: int = 0, picture: int = 0) -> np.ndarray | None:
        """A skin as an RGB(A) ``uint8`` image ``(height, width, channels)``, rows from the top.

        MDL pictures go through the palette; ``picture`` picks one of an animated
        group.  ``None`` (with a warning) when an MD2 skin is missing or undecodable.
        """
        replacement = self.replacement(index, picture)
        if replacement is not None:
            return decode_image(replacement.data, replacement.location)
        if self.data.format == 'mdl':
            if not self.data.skins:
                return None
            return palette_image(self.data.skins[index].pictures[picture], self.palette, self.is_holey)
        names = self.data.skin_names
        if names and names[index] in self.images:
            return self.images[names[index]]
        found = self.file(index)
        return decode_image(found.data, found.location) if found is not None else None

    @property
    def is_holey(self) -> bool:
        """Whether palette index 255 is drawn transparent: an MDL with ``MF_HOLEY``, as QuakeSpasm draws it."""
        return self.holey and self.data.format == 'mdl' and bool(int(self.data.header.get('flags', 0)) & MF_HOLEY)

    def replacement(self, index: int = 0, picture: int = 0) -> FoundSkin | None:
        """An MDL's external replacement skin, if there is one and ``external`` is on.

        Named as DarkPlaces, FTE and QuakeSpasm-Spiked name them, beside the
        model (or in the game folders and archives): ``progs/player.mdl_0.png``
        for skin 0 (``.tga``, ``.jpg``, ``.pcx`` too), ``player.mdl_0_1.png`` for
        picture 1 of a skin group.
        """
        if not self.external_skins or self.data.format != 'mdl':
            return None
        return self.external_map(index, '', picture)

    def external_map(self, index: int = 0, kind: str = 'glow', picture: int = 0) -> FoundSkin | None:
        """An external map of an MDL skin: ``''`` the skin itself, ``'glow'``/``'luma'`` (fullbright),
        ``'pants'``/``'shirt'`` (colour maps), found as :meth:`replacement` finds skins."""
        key = (index, f'{kind}:{picture}')
        if key not in self._external:
            base = self.search.model_file_name()
            found = None
            if base is not None and (self.search.model_path is not None or self.search.archive is not None):
                stem = f'{base}_{index}' + (f'_{picture}' if picture else '')
                name = stem + (f'_{kind}' if kind else '')
                if self.search.member:
                    name = str(PurePosixPath(self.search.member).parent / name)
                found, _ = self.search.find('.' + name if '/' not in name else name)
            self._external[key] = found
        return self._external[key]

    def fullbright(self, index: int = 0, picture: int = 0) -> np.ndarray | None:
        """Mask of the pixels of an MDL skin that Quake draws fullbright (indices 224-255)."""
        if self.data.format != 'mdl' or not self.data.skins:
            return None
        return fullbright_mask(self.data.skins[index].pictures[picture])


def palette_image(indices: np.ndarray, palette: np.ndarray, holey: bool = False) -> np.ndarray:
    """Palette indices to RGB, or RGBA with index 255 transparent for an ``MF_HOLEY`` model."""
    rgb = np.asarray(palette, np.uint8)[indices]
    if not holey:
        return rgb
    alpha = np.where(holey_mask(indices), 0, 255).astype(np.uint8)
    return np.dstack([rgb, alpha])


def has_cut_out(image: np.ndarray) -> bool:
    """Whether an image has an alpha channel with a texel below opaque: a cut-out skin (drawn alpha-tested)."""
    return image.ndim == 3 and image.shape[2] == 4 and bool((image[..., 3] < 255).any())


#: Alpha values counted as partly transparent (neither a cut-out's 0 nor opaque), and the share of
#: the non-opaque texels that must be so for an image to be blended rather than cut out.
PARTIAL_ALPHA = (16, 239)
BLENDED_SHARE = 0.5


def alpha_mode(image: np.ndarray) -> str:
    """How an image's alpha is drawn: ``'opaque'``, ``'mask'`` (a cut-out: texels on or off, edges
    aside) or ``'blend'`` (mostly partly transparent texels: glass, flames, muzzle flashes)."""
    if not has_cut_out(image):
        return 'opaque'
    alpha = image[..., 3]
    clear = alpha[alpha < 255]
    partial = ((clear >= PARTIAL_ALPHA[0]) & (clear <= PARTIAL_ALPHA[1])).mean()
    return 'blend' if partial > BLENDED_SHARE else 'mask'


def image_array(image) -> np.ndarray:
    """An image file's path, a PIL image or an array as ``uint8`` ``(height, width, 3 or 4)``.

    A 2-D array stays 2-D (palette indices, for an MDL skin).
    """
    if isinstance(image, (str, Path)):
        data = Path(image).read_bytes()
        decoded = decode_image(data, str(image))
        if decoded is None:
            raise ValueError(f'{image}: not an image Pillow can read')
        return decoded
    if hasattr(image, 'convert') and hasattr(image, 'getbands'):  # a PIL image
        mode = 'RGBA' if 'A' in image.getbands() else ('P' if image.mode == 'P' else 'RGB')
        return np.asarray(image if mode == 'P' else image.convert(mode))
    array = np.asarray(image)
    if array.ndim not in (2, 3) or (array.ndim == 3 and array.shape[2] not in (3, 4)):
        raise ValueError(f'a skin image is (height, width[, 3 or 4]), not {array.shape}')
    if array.dtype.kind == 'f':
        array = np.clip(np.rint(array * 255 if array.max() <= 1.0 else array), 0, 255)
    return array.astype(np.uint8)


def resized(image: np.ndarray, width: int, height: int) -> np.ndarray:
    """An image at another size: Lanczos for colours, nearest for palette indices (which do not blend)."""
    from PIL import Image  # noqa: PLC0415 - Pillow is only needed once a skin is decoded

    if image.shape[:2] == (height, width):
        return image
    resample = Image.Resampling.NEAREST if image.ndim == 2 else Image.Resampling.LANCZOS
    return np.asarray(Image.fromarray(np.ascontiguousarray(image, np.uint8)).resize((width, height), resample))


def palette_indices(image: np.ndarray, palette: np.ndarray) -> np.ndarray:
    """Nearest palette entry of each RGB(A) pixel, ``uint8`` ``(height, width)``; 2-D input is kept.

    Nearest in RGB, matched once per distinct colour of the image.
    """
    if image.ndim == 2:
        return image.astype(np.uint8)
    rgb = np.ascontiguousarray(image[..., :3], np.uint8)
    packed = (rgb[..., 0].astype(np.int32) << 16) | (rgb[..., 1].astype(np.int32) << 8) | rgb[..., 2]
    colours, inverse = np.unique(packed.ravel(), return_inverse=True)
    channels = np.stack([(colours >> 16) & 255, (colours >> 8) & 255, colours & 255], axis=1).astype(np.int32)
    table = np.asarray(palette, np.int32)
    nearest = np.empty(len(colours), np.uint8)
    for start in range(0, len(colours), 4096):
        block = channels[start : start + 4096]
        distance = ((block[:, None, :] - table[None, :, :]) ** 2).sum(-1)
        nearest[start : start + len(block)] = distance.argmin(axis=1)
    return nearest[inverse.ravel()].reshape(image.shape[:2])


def png_bytes(image: np.ndarray, compress_level: int = 6) -> bytes:
    """An RGB(A) ``uint8`` image (rows from the top) as the bytes of a PNG file.

    ``compress_level`` 1 is the fastest (thumbnails), 6 Pillow's default.
    """
    from PIL import Image  # noqa: PLC0415 - Pillow is only needed once a skin is decoded

    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(image, np.uint8)).save(buffer, format='PNG', compress_level=compress_level)
    return buffer.getvalue()


# -- models of several surfaces (MD3): .skin files ------------------------------------------


_SHADER_TOKENS = re.compile(r'//[^\n]*|/\*.*?\*/|(\{|\}|[^\s{}]+)', re.DOTALL)


def parse_shaders(text: str) -> dict[str, str]:
    """Each shader's first image stage in a ``.shader`` script: ``{name (lower case): image}``.

    The image of the first stage's ``map``, ``clampmap`` or ``animMap`` (its
    first frame), skipping ``$lightmap`` and ``$whiteimage``.  Blending,
    several stages and generated texture coordinates are not read: an
    approximation of what the surface shows.
    """
    tokens = [m.group(1) for m in _SHADER_TOKENS.finditer(text) if m.group(1)]
    out: dict[str, str] = {}
    position, depth, name = 0, 0, None
    while position < len(tokens):
        token = tokens[position]
        if token == '{':
            depth += 1
        elif token == '}':
            depth = max(depth - 1, 0)
        elif depth == 0:
            name = token.lower()
        elif depth == 2 and name is not None and name not in out:
            keyword = token.lower()
            if keyword in ('map', 'clampmap') and position + 1 < len(tokens) and not tokens[position + 1].startswith('$'):
                out[name] = tokens[position + 1]
            elif keyword == 'animmap' and position + 2 < len(tokens):
                out[name] = tokens[position + 2]
        position += 1
    return out


def parse_skin_file(text: str) -> dict[str, str]:
    """A ``.skin`` file's surface → image lines, as ``R_RegisterSkin`` reads them.

    One ``surface,image`` a line; surface names lower case; tag lines
    (``tag_head,``) and lines naming no image are left out.
    """
    out: dict[str, str] = {}
    for line in text.replace('\r', '\n').split('\n'):
        surface, comma, image = line.strip().partition(',')
        surface, image = surface.strip().lower(), image.strip()
        if not comma or not surface or not image or 'tag_' in surface:
            continue
        out.setdefault(surface, image)
    return out


def surface_key(name: str) -> str:
    """A surface's name as the renderer matches it: lower case, a level of detail's ``_1``/``_2`` cut (``R_LoadMD3``)."""
    key = name.lower()
    return key[:-2] if len(key) > 2 and key[-2] == '_' else key


def surface_images(data, search: SkinSearch, skin) -> tuple[list[str | None], str | None]:
    """The image (or shader) name each surface of an MD3 shows, and the ``.skin`` file they came from.

    ``skin``: ``0`` or ``'default'`` uses ``<model>_default.skin`` beside the
    model when there is one; another name ``<model>_<name>.skin``; a path
    (``….skin``) that file; another index the surfaces' shader of that number;
    ``None`` no image.  A surface with no ``.skin`` line shows its first shader.
    """
    surfaces = data.surfaces
    if skin is None:
        return [None] * len(surfaces), None
    if isinstance(skin, (int, np.integer)) and skin != 0:
        return [s.shaders[int(skin)] if -len(s.shaders) <= int(skin) < len(s.shaders) else None for s in surfaces], None
    stem = PurePosixPath(search.model_file_name() or 'model.md3').stem
    stem = stem[:-2] if len(stem) > 2 and stem[-2] == '_' and stem[-1].isdigit() else stem  # lower_1.md3 uses lower's skins
    found = None
    if isinstance(skin, Path) or (isinstance(skin, str) and skin.lower().endswith('.skin')):
        path = Path(skin)
        if not path.is_file():
            raise FileNotFoundError(f'{data.source}: skin file {skin} not found')
        found = (str(path), path.read_bytes())
    else:
        name = 'default' if skin == 0 else str(skin)
        found = search.beside_model(f'{stem}_{name}.skin')
        if found is None and name != 'default':
            warn_external(f'{data.source}: skin {name!r}: no {stem}_{name}.skin beside the model; using the shader names')
    lines = parse_skin_file(found[1].decode('latin-1')) if found is not None else {}
    names = [lines.get(surface_key(s.name), s.shaders[0] if s.shaders else None) for s in surfaces]
    return names, (found[0] if found is not None else None)
