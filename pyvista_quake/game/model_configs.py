"""Where a Cube 2 model config's files are, as the engine finds them.

A config's file names are relative to the model's directory (the config's
folder until an ``iqmdir``/``md5dir`` changes it); ``exec`` and ``*dir`` name
paths from the game's root, found walking up from the config (Red Eclipse's
``data/``, or Sauerbraten's ``packages/models/``).
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
import functools
import os
from pathlib import Path
from pathlib import PurePosixPath
from typing import TypeGuard

from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake.formats import FORMATS
from pyvista_quake.formats import model_cfg
from pyvista_quake.formats import model_extensions
from pyvista_quake.game.filesystem import folders_up
from pyvista_quake.game.filesystem import real_path
from pyvista_quake.game.inputs import note

#: The image extensions Cube 2 engines try for a texture (``textureload``), in order.
IMAGE_EXTENSIONS = ('.png', '.jpg', '.jpeg', '.tga', '.dds', '.bmp')


@dataclass
class ResolvedConfig:
    """A model config with its files found on disk.

    Attributes
    ----------
    path : pathlib.Path
        The config.
    mesh : pathlib.Path or None
        The first mesh it loads.
    skins : dict of str to pathlib.Path or None
        Each mesh's image (``*`` for every mesh); ``None`` where it names one not found.
    skin_names : dict of str to str
        The image names as the config writes them, for messages.
    animation_files : list of (list of Played, str)
        ``(played, file)`` of each animation: the names, rates and frames it plays under, and its
        file's path as a string (:attr:`animations` gives them as paths).
    tags : list of (str, str, tuple of float)
        ``(joint, tag, offset)``: the offset is ``tx ty tz rx ry rz`` (degrees) from the joint.

    """

    path: Path
    mesh: Path | None = None
    skins: dict[str, Path | None] = field(default_factory=dict)
    skin_names: dict[str, str] = field(default_factory=dict)
    # Strings: a player's config names a hundred files, and a path object costs more to make than the lookup.
    animation_files: list[tuple[list[model_cfg.Played], str]] = field(default_factory=list)
    tags: list[tuple[str, str, tuple[float, ...]]] = field(default_factory=list)

    @property
    def animations(self) -> list[tuple[list[model_cfg.Played], Path]]:
        """``(played, file)`` of each animation: the names, rates and frames it plays under, and its file."""
        return [(played, Path(file)) for played, file in self.animation_files]


#: Where the Cube 2 engines keep models under the game's root (Red Eclipse: the root itself; Sauerbraten:
#: ``packages/models``; Tesseract and its forks: ``media/model``; others ``models``), as their ``*dir`` commands name them.
MODEL_FOLDERS = ('', 'packages/models', 'media/model', 'models')


def from_root(folder: Path | str, name: str, want_dir: bool = False, bases: dict[str, list[str]] | None = None) -> Path | None:
    """``name`` under the first of ``folder`` and its parents that holds it (also under the engines' model folders).

    ``bases`` keeps, for each folder walked, those of it and its model folders that exist: the walks of one
    config's names then ask only where a name can be.
    """
    exists = os.path.isdir if want_dir else os.path.isfile
    bases = {} if bases is None else bases
    for root in folders_up(folder):  # a walk to the root asks up to 40 places
        here = bases.get(root)
        if here is None:
            here = bases[root] = [root] + [base for base in (os.path.join(root, p) for p in MODEL_FOLDERS if p) if os.path.isdir(base)]
        for base in here:
            candidate = os.path.join(base, name)
            if exists(candidate):
                return Path(candidate)
    return None


class _Folder:
    """A folder a config names files in: its path, its real path and its listing, each found once."""

    def __init__(self, path: str) -> None:
        self.path = path

    @functools.cached_property
    def real(self) -> str:
        return real_path(self.path)

    @functools.cached_property
    def real_prefix(self) -> str:
        """The real path with its separator: a name listed here is this plus the name (a hundred joins saved)."""
        return os.path.join(self.real, '')

    @functools.cached_property
    def _listing(self) -> dict[str, bool] | None:
        try:
            with os.scandir(self.path) as entries:
                return {e.name: e.is_file(follow_symlinks=False) for e in entries}
        except OSError:
            return None

    def plain_file(self, name: str) -> bool | None:
        """Whether ``name`` is a file here that is no link (``None``: ask the file system itself)."""
        if '/' in name or '\\' in name or name in ('.', '..'):
            return None
        listing = self._listing
        if listing is None:
            return None
        plain = listing.get(name)
        return False if plain is None else (True if plain else None)


class _Finder:
    """The lookups of one config's files, each answered once.

    A player's config names a hundred animation files in one folder: the folder is found
    from the game's root once, and listed once, rather than walked up to for every file.
    """

    def __init__(self, config_folder: Path) -> None:
        self.config_folder = config_folder
        self._from_root: dict[tuple[str, bool], Path | None] = {}
        self._folders: dict[str, _Folder] = {}
        self._files: dict[tuple[str, str], str] = {}
        self._bases: dict[str, list[str]] = {}  # the folders from_root's walks look in, found once

    def from_root(self, name: str, want_dir: bool = False) -> Path | None:
        key = (name, want_dir)
        if key not in self._from_root:
            self._from_root[key] = from_root(self.config_folder, name, want_dir, self._bases)
        return self._from_root[key]

    def _folder(self, written: str) -> _Folder:
        """The folder a config's file names are relative to, as its commands wrote it (``\\0`` first: from the game's root)."""
        found = self._folders.get(written)
        if found is None:
            if written.startswith('\0'):  # an *dir command's folder, from the game's root
                path = os.fspath(self.from_root(written[1:], want_dir=True) or self.config_folder / written[1:])
            else:
                path = written  # the config's own folder, as interpret starts
            found = self._folders[written] = _Folder(path)
        return found

    def file(self, written: str, name: str) -> str:
        """A file the config names in folder ``written``: in the model's directory, else from the game's root (each asked once)."""
        key = (written, name)
        found = self._files.get(key)
        if found is None:
            found = self._files[key] = self._find_file(self._folder(written), name)
        return found

    def _find_file(self, folder: _Folder, name: str) -> str:
        plain = folder.plain_file(name)
        if plain:
            return folder.real_prefix + name
        near = os.path.join(folder.path, name)
        if plain is None and os.path.isfile(near):
            return real_path(near)
        found = self.from_root(name)
        return real_path(found) if found is not None else os.fspath(Path(near))  # as written, found nowhere

    def image(self, written: str, name: str) -> Path | None:
        """An image the config names, other extensions tried as the engine tries them (``.png``, ``.jpg``, ``.dds``...)."""
        base = Path(self.file(written, name))
        if base.is_file():
            return base
        stem = base.with_suffix('') if base.suffix.lower() in IMAGE_EXTENSIONS else base
        if not stem.name:
            return None  # a name of the root (``/``): no file to try extensions on (a ValueError before)
        for extension in IMAGE_EXTENSIONS:
            for candidate in (stem.with_suffix(extension), stem.with_suffix(extension.upper())):
                if candidate.is_file():
                    return candidate
        return None


def find_config(mesh: Path, format: str) -> Path | None:
    """The config beside a mesh (``iqm.cfg`` beside an ``.iqm``), if there is one."""
    candidate = mesh.parent / FORMATS[format].config
    return candidate if candidate.is_file() else None


def config_in(folder: Path) -> Path | None:
    """The model config in a folder (``iqm.cfg`` or ``md5.cfg``), if there is one."""
    for name in [spec.config for spec in FORMATS.values() if spec.config]:
        if (folder / name).is_file():
            return folder / name
    return None


def is_config_source(source: object, member: str | None = None) -> TypeGuard[str | Path]:
    """Whether a model is given as its Cube 2 config or the folder holding one, not as a model file."""
    return member is None and isinstance(source, (str, Path)) and (os.path.isdir(source) or str(source).lower().endswith('.cfg'))


def model_config(path: Path) -> tuple[ResolvedConfig, Path]:
    """The config of a model given as its folder or as the config itself (its files found), and the mesh it loads.

    Raises
    ------
    FileNotFoundError
        For a folder with neither an ``iqm.cfg`` nor an ``md5.cfg``.
    QuakeFormatError
        For a malformed config, or one that loads no mesh.

    """
    config_path = config_in(path) if path.is_dir() else path
    if config_path is None:
        raise FileNotFoundError(f'{path}: a folder holds a model when it has an iqm.cfg or md5.cfg; this one has neither')
    config = resolve(config_path)
    if config.mesh is None:
        raise QuakeFormatError(str(config_path), 'iqmload', None, 'the config loads no mesh (no iqmload or md5load)')
    return config, config.mesh


def resolve(path: Path) -> ResolvedConfig:
    """Read a model config and find its files.

    Raises
    ------
    QuakeFormatError
        For a malformed config.

    """
    path = Path(path)
    config_folder = Path(real_path(path.parent))

    finder = _Finder(config_folder)
    roots: list[Path] = []  # the folders an exec's names are relative to: the game's (models') root

    def run(name: str) -> tuple[str, str] | None:
        found = finder.from_root(name)
        if found is None:
            return None
        note(found)
        roots.append(found.parents[len(PurePosixPath(name).parts) - 1])
        return str(found), found.read_text('latin-1')

    def model_name() -> str | None:
        """``mdlname``: the model's folder from the game's root (``actors/player/male``), as the engine loads it."""
        for root in roots:
            real = Path(real_path(root))
            if config_folder.is_relative_to(real):
                return config_folder.relative_to(real).as_posix()
        return None

    note(path)
    config = model_cfg.interpret(
        model_cfg.parse(path.read_text('latin-1'), str(path)), str(path), str(config_folder), run, variables={'mdlname': model_name}
    )
    out = ResolvedConfig(path)
    if config.meshes:
        folder, name = config.meshes[0]
        out.mesh = Path(finder.file(folder, name))
    for mesh, (folder, name) in config.skins.items():
        out.skins[mesh] = finder.image(folder, name)
        out.skin_names[mesh] = name
    for played, folder, name in config.animations:
        out.animation_files.append((played, finder.file(folder, name)))
    out.tags = list(config.tags)
    return out


def config_models(configs: list[Path]) -> tuple[list[Path], set[Path]]:
    """What a game's model configs build, as the game sees its models.

    Parameters
    ----------
    configs : list of pathlib.Path
        The ``iqm.cfg`` and ``md5.cfg`` files of a game folder.

    Returns
    -------
    folders : list of pathlib.Path
        The folders whose config builds a model of a mesh in another folder (Red Eclipse's
        ``weapons/rifle/vwep/md5.cfg`` loads ``../rifle.md5mesh``), and those whose config cannot be
        read and holds no mesh (a model that fails, said where it is loaded).
    used : set of pathlib.Path
        The files (resolved) that are parts of these models and no models by themselves: meshes loaded
        only from other folders, and the animation files configs play.

    """
    folders: list[Path] = []
    used: set[Path] = set()
    beside: set[Path] = set()  # meshes a config of their own folder builds: they stay models
    for path in configs:
        folder = path.parent
        try:
            config = resolve(path)
        except (QuakeFormatError, OSError, UnicodeError):
            if not any(p.is_file() and p.suffix.lower() in model_extensions() for p in folder.iterdir()):
                folders.append(folder)  # else its mesh fails with it, once
            continue
        if config.mesh is None:
            continue
        if config.mesh.parent == folder.resolve():
            beside.add(config.mesh)
        else:
            folders.append(folder)
            used.add(config.mesh)
        used.update(file for _, file in config.animations)
    return folders, used - beside
