"""The registry of formats: one registration path for the built-in formats and installed ones.

A format registers with :func:`register_format` (its file extensions, its magic bytes or
grammar, its ``read`` and ``write``).  A format's own options are the keyword-only
parameters of its ``read``.  Installed packages declare formats as entry points of
:data:`ENTRY_POINT_GROUP`; one named by an extension (``".qtoy" = "pkg:register"``) is
imported only when a file of that extension is opened, and ``import pyvista_quake``
imports none.  A file is told by its magic bytes (or grammar) before its extension, so
two formats can share an extension.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from importlib.metadata import entry_points
import inspect
import struct
from typing import Any
from typing import Callable
from typing import Sequence
import warnings

from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake.formats._common import not_encoded
from pyvista_quake.formats.records import ModelData


@dataclass(frozen=True)
class FormatSpec:
    """One registered model format, and everything the layers above ask of it.

    Attributes
    ----------
    name : str
        Short name, such as ``'md2'``.
    magic : bytes
        The bytes a file of this format starts with (empty for a text format, told by ``sniff``).
    extensions : tuple of str
        File extensions, lower case with the dot.
    parse : callable
        ``parse(buffer, source) -> record``: every byte, as the format's records (for a format
        registered with a ``read`` function, the :class:`ModelData` it returns).
    write : callable
        ``write(record) -> bytes``: the file of a format's records (the
        inverse of ``parse``: an unchanged record gives its file back).
    encode : callable
        ``encode(data, base=None) -> record``: the records of a
        changed model, keeping what is unchanged from the ``base`` records.
    quantize : callable
        ``quantize(data, frames, positions) -> (verts, scale, translate)``:
        packs float positions of some frames as the format does.
    decode : callable
        ``decode(record) -> data``: the format-neutral view of records.
    sniff : callable, optional
        ``sniff(head: bytes) -> bool``: whether a file's first bytes are this
        (text) format's grammar, for a format with no magic bytes.
    options : tuple of str
        The :class:`~pyvista_quake.LoadOptions` that ``decode`` takes as keywords
        (a level's ``patch_level``).
    title : str
        How messages and ``info`` name the format's files (``'Quake II (MD2) models'``).
    game : str
        The game (or family) whose files these are, as ``info`` prints it.
    writable : bool
        Whether ``write`` makes files of changed models (else a model is only written back as read).
    kind : str
        What ``decode``'s :class:`ModelData` holds: ``'alias'`` (one surface of packed bytes and an
        ``alias`` part), ``'surfaces'`` or ``'skeletal'`` (a ``skeleton``).
    engines : tuple of str
        The game engines that load the format (the keys of ``pyvista_quake.game.engines.ENGINES``).
    rules : tuple of Rule
        What those engines check, tested on ``facts(record, size)``.
    facts : callable, optional
        ``facts(record, size) -> dict``: what ``rules`` test.
    palette : bool
        Whether the format embeds its skins as palette-indexed pictures (MDL).
    config : str
        The name of the Cube 2 model config that assembles models of this format (``'iqm.cfg'``), or ``''``.
    animation_files : tuple of str
        The suffixes of animation files a mesh of this format takes from beside it
        under its own name (``('.md5anim',)``: ``bob.md5anim`` animates ``bob.md5mesh``,
        as assimp's MD5 importer attaches it), when nothing else names its animations.
    levels_of_detail : int
        How many levels of detail the engine loads as one model: ``name_1``... beside
        ``name`` (Quake III: ``MD3_MAX_LODS``, 3); 1 for a format without them.
    third_party : bool
        Registered through the public contract (``read`` returning :class:`ModelData`).

    """

    name: str
    magic: bytes
    extensions: tuple[str, ...]
    parse: Callable[..., object]
    write: Callable[..., bytes]
    encode: Callable[..., object]
    quantize: Callable[..., Any]
    decode: Callable[..., Any]
    sniff: Callable[[bytes], bool] | None = None
    options: tuple[str, ...] = ()
    title: str = ''
    game: str = ''
    writable: bool = True
    kind: str = 'surfaces'
    engines: tuple[str, ...] = ()
    rules: tuple = ()
    facts: Callable[..., dict] | None = None
    config: str = ''
    palette: bool = False
    animation_files: tuple[str, ...] = ()
    levels_of_detail: int = 1
    third_party: bool = False
    read_options: dict[str, Any] = dataclasses.field(default_factory=dict)
    field_data: Callable[[Any], dict[str, Any]] | None = None
    view_from: tuple[float, float, float] | None = None

    @property
    def output(self) -> str:
        """The PyVista type of a frame: ``'PolyData'`` for a model of one surface, else ``'MultiBlock'``."""
        return 'PolyData' if self.kind == 'alias' else 'MultiBlock'

    @property
    def label(self) -> str:
        """How messages name the format: its magic bytes and name."""
        magic = self.magic.rstrip(b'\0').decode('latin-1')
        return f'{magic} ({self.name})' if magic else f'{self.name} text'


class _Registry(dict):
    """The registered formats by name.

    Looking a name up that is not registered, or going through every format, first
    registers the formats installed packages declare; a lookup that finds its name does not.
    """

    def _miss(self, key: object) -> bool:
        if not dict.__contains__(self, key):
            load_plugins()
        return dict.__contains__(self, key)

    def __getitem__(self, key: str) -> FormatSpec:
        self._miss(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        return self._miss(key)

    def get(self, key, default=None):
        self._miss(key)
        return super().get(key, default)

    def __iter__(self):
        load_plugins()
        return super().__iter__()

    def __len__(self) -> int:
        load_plugins()
        return super().__len__()

    def values(self):
        load_plugins()
        return super().values()

    def items(self):
        load_plugins()
        return super().items()

    def keys(self):
        load_plugins()
        return super().keys()


FORMATS: dict[str, FormatSpec] = _Registry()

#: The entry-point group an installed package declares a function in that registers its format.
ENTRY_POINT_GROUP = 'pyvista_quake.formats'
#: Called with each format's spec as it is registered (PyVista's reader registry listens here).
LISTENERS: list[Callable[[FormatSpec], None]] = []
#: The entry points already called (or being called), by name and value: each is imported once a process.
_CALLED: set[tuple[str, str]] = set()
_POINTS: list[Any] = []


def plugin_points() -> list[Any]:
    """The entry points of :data:`ENTRY_POINT_GROUP` installed packages declare (read from their metadata once, nothing imported)."""
    if not _POINTS:
        _POINTS.extend(entry_points(group=ENTRY_POINT_GROUP))
        _POINTS.append(None)  # read: an empty group is not read again
    return [p for p in _POINTS if p is not None]


def plugin_extensions() -> tuple[str, ...]:
    """The file extensions installed formats are named by (entry points named ``.ext``), lower case with the dot."""
    return tuple(dict.fromkeys(p.name.lower() for p in plugin_points() if p.name.startswith('.')))


def load_plugins(extension: str | None = None) -> None:
    """Register the formats of installed packages: every one, or only those named by ``extension`` (``'.qtoy'``).

    Each entry point is imported and called once a process.  A package whose function fails is
    skipped with a warning naming it: one broken plugin does not stop the others.
    """
    wanted = extension.lower() if extension is not None else None
    for point in plugin_points():
        key = (point.name, point.value)
        if key in _CALLED or (wanted is not None and point.name.lower() != wanted):
            continue
        _CALLED.add(key)
        try:
            point.load()()
        except Exception as error:  # noqa: BLE001 - a third party's failure is reported, never fatal
            warnings.warn(
                f'pyvista_quake: the format plugin {point.name} ({point.value}) failed to register: {type(error).__name__}: {error}',
                RuntimeWarning,
                stacklevel=2,
            )


def _suffix(path: str) -> str:
    """A file name's extension, lower case with the dot (``''`` without one)."""
    name = str(path).replace('\\', '/').rsplit('/', 1)[-1]
    return '.' + name.rsplit('.', 1)[-1].lower() if '.' in name else ''


def _of_extension(suffix: str) -> list[FormatSpec]:
    """The registered formats of an extension, in the order they registered (the extension's installed formats looked up first)."""
    if suffix:
        load_plugins(suffix)
    return [spec for spec in dict.values(FORMATS) if suffix in spec.extensions]


def register_format(
    name: str,
    extensions: str | Sequence[str],
    read: Callable[[bytes, str], object],
    *,
    magic: bytes = b'',
    sniff: Callable[[bytes], bool] | None = None,
    write: Callable[..., bytes] | None = None,
    title: str = '',
    game: str = '',
    field_data: Callable[[ModelData], dict[str, Any]] | None = None,
    view_from: tuple[float, float, float] | None = None,
    **internals: Any,
) -> FormatSpec:
    """Register a model format: its files then load everywhere (``load``, ``pv.read``, export, pictures, the CLI).

    Parameters
    ----------
    name : str
        The format's short name, such as ``'md2'`` (``model.format``).
    extensions : str or sequence of str
        Its file extensions (``'.obj'``; any case, the dot optional).
    read : callable
        ``read(data: bytes, source: str) -> ModelData``: the model a file's bytes hold
        (``source`` names the file, for messages; raise :class:`~pyvista_quake.QuakeFormatError`
        for a bad file).
    magic : bytes, optional
        The bytes every file of the format starts with: how a file is told from the others.
    sniff : callable, optional
        ``sniff(head: bytes) -> bool``, for a format with no magic bytes: whether the first
        4096 bytes of a file are this format's.
    write : callable, optional
        ``write(data: ModelData) -> bytes``: the file of a model (its surfaces' positions and
        normals as plain ``float32``).  Without it, ``save`` to the format is a ``ValueError``.
    title, game : str, optional
        How ``info`` and messages name the format's files and their game.
    field_data : callable, optional
        ``field_data(data: ModelData) -> dict``: the format's own facts every frame carries in its
        ``field_data`` (names to lists of strings or to numpy arrays), beside the standard ones.
    view_from : tuple of float, optional
        The direction from a model of the format to the camera of its pictures (thumbnails,
        animations); by default a three-quarter view of its front (+x).

    Returns
    -------
    FormatSpec
        The registration (replacing any earlier one of that name).

    Notes
    -----
    The built-in formats register through this call too, with the byte-level parts
    (``decode``, ``encode``, ``quantize``, engine ``rules``) that only they have.

    """
    exts = (extensions,) if isinstance(extensions, str) else tuple(extensions)
    exts = tuple(e.lower() if e.startswith('.') else '.' + e.lower() for e in exts)
    if not exts:
        raise ValueError(f'format {name!r}: give at least one file extension')
    if not magic and sniff is None:
        raise ValueError(f'format {name!r}: give its magic bytes or a sniff function, to tell its files from others')
    if 'decode' in internals:
        spec = FormatSpec(
            name,
            magic,
            exts,
            parse=read,
            write=write or _unwritable(name),
            sniff=sniff,
            title=title,
            game=game,
            field_data=field_data,
            view_from=view_from,
            **internals,
        )
    else:
        spec = FormatSpec(
            name,
            magic,
            exts,
            parse=_checked_read(name, read),
            write=_plain_writer(name, write),
            encode=_as_record,
            quantize=not_encoded(name),
            decode=_as_record,
            sniff=sniff,
            title=title or f'{name.upper()} models',
            game=game or name.upper(),
            writable=write is not None,
            third_party=True,
            read_options=_keyword_options(name, read),
            field_data=field_data,
            view_from=view_from,
        )
    FORMATS[name] = spec
    for listener in LISTENERS:
        listener(spec)
    return spec


def _keyword_options(name: str, read: Callable[..., object]) -> dict[str, Any]:
    """A ``read`` function's options: its keyword-only parameters and their defaults."""
    try:
        parameters = inspect.signature(read).parameters.values()
    except (TypeError, ValueError):  # a callable without a signature takes no options
        return {}
    options = {p.name: p.default for p in parameters if p.kind is inspect.Parameter.KEYWORD_ONLY}
    if any(p.default is inspect.Parameter.empty for p in parameters if p.kind is inspect.Parameter.KEYWORD_ONLY):
        raise TypeError(f'format {name!r}: every keyword-only parameter of read is an option and needs a default')
    return options


def check_read_options(spec: FormatSpec, given: Sequence[str], source: str) -> None:
    """Raise ``TypeError`` naming the options that ``spec``'s format does not take, and the options it takes."""
    unknown = sorted(name for name in given if name not in spec.read_options)
    if unknown:
        takes = ', '.join(spec.read_options) or 'none'
        raise TypeError(f'{source}: unknown options {unknown}: neither LoadOptions nor the {spec.name!r} format take them (its own options: {takes})')


def _unwritable(name: str) -> Callable[..., bytes]:
    def refuse(*args: Any) -> bytes:
        raise ValueError(f'the {name!r} format was registered without a writer: its models cannot be saved as it')

    return refuse


def _checked_read(name: str, read: Callable[[bytes, str], object]) -> Callable[..., ModelData]:
    """A third party's ``read``, with what it returns checked to be a :class:`ModelData`."""

    def parse(buffer: bytes | memoryview, source: str, **options: Any) -> ModelData:
        raw = bytes(buffer)
        try:
            data = read(raw, source, **options)
        except QuakeFormatError:
            raise
        except (ValueError, IndexError, KeyError, TypeError, UnicodeError, struct.error) as error:  # the file broke the reader
            raise QuakeFormatError(source, 'read', type(error).__name__, f'the {name!r} format cannot read it: {error}') from error
        if not isinstance(data, ModelData):
            raise QuakeFormatError(source, 'read', type(data).__name__, f"the {name!r} format's read function must return pyvista_quake.ModelData")
        return dataclasses.replace(data, format=name, source=data.source or source, file=Verbatim(raw))

    return parse


@dataclass(frozen=True)
class Verbatim:
    """The bytes of a file a third party's format read: what an unchanged model of it saves as."""

    data: bytes


def _as_record(data: ModelData, base: object = None) -> ModelData:
    """A plain format's records are its :class:`ModelData` (its ``encode``), and the other way round (its ``decode``)."""
    return data


def _plain_writer(name: str, write: Callable[[ModelData], bytes] | None) -> Callable[[ModelData], bytes]:
    if write is None:
        return _unwritable(name)

    def checked(data: ModelData | Verbatim) -> bytes:
        if isinstance(data, Verbatim):
            return data.data  # unchanged: the file's own bytes
        out = write(data)
        if not isinstance(out, (bytes, bytearray, memoryview)):
            raise TypeError(f"the {name!r} format's write function must return bytes, not {type(out).__name__}")
        return bytes(out)

    return checked


def spec_of_record(record: object) -> FormatSpec:
    """The format whose ``parse`` made these records (a third party's are its :class:`ModelData`)."""
    if isinstance(record, ModelData) and record.format in FORMATS and FORMATS[record.format].third_party:
        return FORMATS[record.format]
    module = type(record).__module__
    for spec in FORMATS.values():
        if not spec.third_party and getattr(spec.parse, '__module__', None) == module:
            return spec
    raise ValueError(f'no registered format reads records of type {type(record).__name__}')


def model_extensions() -> tuple[str, ...]:
    """Every registered format's file extensions, and those installed formats are named by, lower case with the dot."""
    return tuple(dict.fromkeys([*(e for spec in dict.values(FORMATS) for e in spec.extensions), *plugin_extensions()]))


def level_of_detail_base(path: str) -> tuple[str, int] | None:
    """For a file of a level of detail (``head_1.md3``), the file of its model (``head.md3``) and the level; else ``None``.

    Only a format that has levels of detail (:attr:`FormatSpec.levels_of_detail`) names them so.
    """
    text = str(path)
    head, dot, suffix = text.rpartition('.')
    stem, underscore, level = head.rpartition('_')
    if not dot or not underscore or not stem or len(level) != 1 or not level.isdigit():
        return None
    try:
        spec = format_for_path(text)
    except ValueError:
        return None
    if not 0 < int(level) < spec.levels_of_detail:
        return None
    return f'{stem}.{suffix}', int(level)


def format_for_path(path: str) -> FormatSpec:
    """The format a file name's extension names (any letter case): the first registered of it, to write such a file.

    Raises
    ------
    ValueError
        If no format has that extension.

    """
    suffix = _suffix(path)
    found = _of_extension(suffix)
    if not found:
        load_plugins()
        found = _of_extension(suffix)
    if found:
        return found[0]
    known = ', '.join(model_extensions())
    raise ValueError(f'{path}: cannot tell the Quake model format from the extension {suffix or "(none)"!r}; use {known}')


#: Magic bytes of other formats that use the ``.mdl`` (or ``.md2``) extension.
FOREIGN_MAGIC = {
    b'IDST': 'a Half-Life (GoldSrc) studio model',
    b'IDSQ': 'a Half-Life (GoldSrc) sequence-group file',
    b'MDL3': 'a 3D GameStudio (A4) model',
    b'MDL4': 'a 3D GameStudio (A5) model',
    b'MDL5': 'a 3D GameStudio (A5) model',
    b'MDL6': 'a 3D GameStudio (A6) model',
    b'MDL7': 'a 3D GameStudio (A6/A7) model',
    b'RAPO': "a Hexen II model (Raven's variation of the MDL layout)",
    b'MD16': 'a QuakeForge 16-bit MDL',
    b'IDSP': 'a Quake sprite',
}


#: How much of a file's start tells its format (a text format's first keywords, after comments).
SNIFF_BYTES = 4096


def _told(spec: FormatSpec, start: bytes, by_magic: bool | None = None) -> bool:
    """Whether a file's first bytes are ``spec``'s: its magic bytes or its grammar (``by_magic``: only the one)."""
    magic = bool(spec.magic) and start.startswith(spec.magic)
    if by_magic is True or (by_magic is None and magic):
        return magic
    return spec.sniff is not None and spec.sniff(start)


def spec_for(buffer: bytes | memoryview, source: str) -> FormatSpec:
    """The format of a file: told by its magic bytes (or grammar), the formats of its extension tried first.

    Two formats may share an extension (Quake's ``.mdl`` and a plugin's): the bytes choose.
    A file whose bytes no format of its extension takes is still read by the format they
    name (a Quake II model saved as ``.mdl``); the installed formats not named by an
    extension are registered only when no other format takes the file.

    Raises
    ------
    QuakeFormatError
        For another format's magic (named) or none known, naming the formats tried.

    """
    start = bytes(buffer[:SNIFF_BYTES])
    mine = _of_extension(_suffix(source))
    for spec in mine:
        if _told(spec, start):
            return spec
    for everything in (False, True):
        if everything:
            load_plugins()
        for by_magic in (True, False):  # every format's magic bytes before any grammar
            for spec in dict.values(FORMATS):
                if spec not in mine and _told(spec, start, by_magic):
                    return spec
    head = start[:4]
    if head in FOREIGN_MAGIC:
        raise QuakeFormatError(source, 'ident', head, f'{FOREIGN_MAGIC[head]}, not a Quake or Quake II alias model')
    known = ', '.join(s.label for s in dict.values(FORMATS))
    if mine:
        tried = ', '.join(s.label for s in mine)
        raise QuakeFormatError(source, 'ident', head, f'not a Quake model: not {tried}, the formats of its extension, nor any other ({known})')
    raise QuakeFormatError(source, 'ident', head, f'not a Quake model; expected one of {known}')


def parse_buffer(buffer: bytes | memoryview, source: str, spec: FormatSpec | None = None, **options: Any):
    """Parse a model's bytes into its format's records.

    The format is ``spec``, or the one the magic bytes name; ``options`` are its ``read``'s own
    (:attr:`FormatSpec.read_options`).
    """
    return _parse(spec if spec is not None else spec_for(buffer, source), buffer, source, **options)


def read_buffer(buffer: bytes | memoryview, source: str) -> ModelData:
    """Parse a model from its bytes into format-neutral data, the format chosen by its magic bytes.

    The engines' limits are not applied here (``strict`` is :func:`pyvista_quake.load`'s).

    Raises
    ------
    QuakeFormatError
        If the file is malformed beyond what any engine draws, or is another format.

    """
    spec = spec_for(buffer, source)
    return spec.decode(_parse(spec, buffer, source))


#: What a binary file saved as UTF-8 text holds where bytes were not valid text (U+FFFD).
REPLACEMENT_CHARACTER = b'\xef\xbf\xbd'


def _parse(spec, buffer: bytes | memoryview, source: str, **options: Any):
    """The format's records, with a likely cause added to a structural error."""
    try:
        return spec.parse(buffer, source, **options)
    except QuakeFormatError as error:
        raise _explained(error, buffer) from None


def _explained(error: QuakeFormatError, buffer: bytes | memoryview) -> QuakeFormatError:
    """The error, with the likely cause when the header shows the file went through a text conversion."""
    if REPLACEMENT_CHARACTER not in bytes(buffer[:256]):
        return error
    reason = (
        f'{error.reason} (the file holds UTF-8 replacement characters, EF BF BD, in its header: it was '
        'saved or downloaded as text, which destroys a binary file; get the original)'
    )
    return type(error)(error.source, error.field, error.value, reason)
