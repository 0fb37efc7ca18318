"""Byte-level helpers shared by the format modules: bounds checks and views.

Every count and offset a header gives is checked here against the buffer's
size *before* anything is allocated or viewed, so a file that lies about
itself raises :class:`~pyvista_quake.QuakeFormatError` instead of an
IndexError, a MemoryError or a huge allocation.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from importlib.metadata import entry_points
import struct
from typing import Any
from typing import Callable
from typing import Sequence
import warnings

import numpy as np

from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake.formats.records import ModelData
from pyvista_quake.formats.records import cstrings  # noqa: F401 - re-exported for the format modules


class Bounds:
    """Checks of one file's fields against its size, with messages naming the file.

    Parameters
    ----------
    source : str
        Name of the file, for messages.
    size : int
        Size of the file in bytes.

    """

    def __init__(self, source: str, size: int) -> None:
        self.source = source
        self.size = size

    def error(self, field: str, value, reason: str) -> QuakeFormatError:
        """Return (not raise) a :class:`QuakeFormatError` about this file."""
        return QuakeFormatError(self.source, field, value, reason)

    def header(
        self, buffer: bytes | memoryview, dtype: np.dtype, ident: Any, version: int, fields: Callable[[np.ndarray], dict], note: str = ''
    ) -> tuple[np.ndarray, dict]:
        """Read a file's header record (a writable copy) and its fields, checking its size, ident and version.

        ``fields`` gives the record's fields by name; ``note`` says who refuses another version.
        """
        if len(buffer) < dtype.itemsize:
            raise self.error('header', len(buffer), f'file shorter than the {dtype.itemsize}-byte header')
        header = np.frombuffer(bytearray(buffer[: dtype.itemsize]), dtype)
        h = fields(header)
        if h['ident'] != ident:
            raise self.error('ident', h['ident'], f'expected {ident!r}')
        if h['version'] != version:
            raise self.error('version', h['version'], f'expected {version}{note}')
        return header, h

    def count(self, field: str, value: int, minimum: int = 0) -> int:
        """Check that a header count is at least ``minimum``."""
        if value < minimum:
            reason = 'must not be negative' if minimum == 0 else f'must be at least {minimum}'
            raise self.error(field, value, reason)
        return value

    def section(self, field: str, offset: int, count: int, itemsize: int) -> None:
        """Check that ``count`` items of ``itemsize`` bytes at ``offset`` lie in the file."""
        if count == 0:
            return
        if offset < 0 or offset > self.size:
            raise self.error(field, offset, f'offset outside the file ({self.size} bytes)')
        end = offset + count * itemsize
        if end > self.size:
            raise self.error(
                field,
                offset,
                f'section of {count} x {itemsize} bytes ends at {end}, past the end of the file ({self.size} bytes)',
            )

    def indices(self, field: str, values: np.ndarray, limit: int) -> None:
        """Check that every index lies in ``[0, limit)``."""
        if values.size == 0:
            return
        # Seen as unsigned, a negative index is huge: one reduction checks both ends
        # (against a limit no larger than the largest positive value of the type).
        if int(values.view(f'u{values.itemsize}').max()) < min(limit, np.iinfo(values.dtype).max + 1):
            return
        bad = values[(values < 0) | (values >= limit)]
        raise self.error(field, int(bad[0]), f'index out of range 0..{limit - 1}')

    def record_indices(self, lump: str, field: str, values: np.ndarray, high: int, low: int = 0) -> None:
        """Check that every record's ``field`` (one value or several) lies in ``[low, high)``; the error names the
        first record that does not, ``lump[k].field``."""
        flat = values.reshape(len(values), -1) if len(values) else values.reshape(0, 1)
        bad = ((flat < low) | (flat >= high)).any(axis=1)
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            raise self.error(f'{lump}[{k}].{field}', values[k].tolist(), f'out of range ({low} to {high - 1})')

    def runs(self, lump: str, field: str, first: np.ndarray, count: np.ndarray, total: int) -> None:
        """Check that each record's run ``first .. first + count`` lies in the ``total`` records it indexes (an empty
        run reads nothing, wherever it starts)."""
        bad = (count < 0) | ((count > 0) & ((first < 0) | (first.astype(np.int64) + count > total)))
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            raise self.error(f'{lump}[{k}].{field}', int(first[k]), f'with {int(count[k])} after it: past the {total} records it indexes')

    def descending(self, lump: str, children: np.ndarray, nodes: np.ndarray) -> None:
        """Check that a tree goes down: each child that is a node (``nodes``) lies below its node, so that a descent ends."""
        looping = nodes & (children <= np.arange(len(children))[:, None])
        if looping.any():
            k = int(np.flatnonzero(looping.any(axis=1))[0])
            raise self.error(f'{lump}[{k}].children', children[k].tolist(), 'a child at or above its node: the tree would loop')

    def finite(self, field: str, values: np.ndarray) -> None:
        """Check that no value is NaN or infinite."""
        bad = ~np.isfinite(values)
        if bad.any():
            raise self.error(field, float(values[bad].flat[0]), 'must be a finite number')


def unclaimed(buffer: bytes | memoryview, claimed: list[tuple[int, int]]) -> list[tuple[int, bytes]]:
    """The runs of ``buffer`` outside every ``[start, end)`` range of ``claimed``, as ``(offset, bytes)``.

    Works on the handful of section ranges, never byte by byte.
    """
    gaps = []
    position = 0
    for start, end in sorted(claimed):
        if start > position:
            gaps.append((position, bytes(buffer[position:start])))
        position = max(position, end)
    if position < len(buffer):
        gaps.append((position, bytes(buffer[position:])))
    return gaps


def field_names(dtype: np.dtype) -> tuple[str, ...]:
    """A structured dtype's field names."""
    return dtype.names or ()


def place(parts: Sequence[tuple[int, np.ndarray | bytes]], gaps: Sequence[tuple[int, bytes]] = ()) -> bytes:
    """Lay records out at their byte offsets, over the given gap bytes (zeros elsewhere)."""
    # Each section is copied once, straight from its records into the file's bytes.
    raws = [(offset, np.frombuffer(data, np.uint8) if isinstance(data, bytes) else _raw(data)) for offset, data in parts]
    raws += [(offset, np.frombuffer(data, np.uint8)) for offset, data in gaps]
    size = max((offset + raw.size for offset, raw in raws), default=0)
    out = bytearray(size)
    view = np.frombuffer(out, np.uint8)
    for offset, raw in raws[len(parts) :] + raws[: len(parts)]:  # the gaps first: records win an overlap
        view[offset : offset + raw.size] = raw
    return bytes(out)


def _raw(records: np.ndarray) -> np.ndarray:
    """The bytes of an array of records, as ``uint8`` (a view when it is contiguous)."""
    return np.ascontiguousarray(records).reshape(-1).view(np.uint8)


def record_view(buffer: bytes | memoryview, dtype: np.dtype, offsets: np.ndarray) -> np.ndarray:
    """View records of ``dtype`` at byte ``offsets`` of ``buffer``.

    Equally spaced records become a strided view of the buffer (no copy);
    otherwise the records' bytes are gathered into one packed array.
    The offsets must already be checked against the buffer's size.
    """
    offsets = np.asarray(offsets, dtype=np.int64)
    if len(offsets) == 0:
        return np.empty(0, dtype)
    strides = np.diff(offsets)
    if len(offsets) == 1 or (strides == strides[0]).all() and strides[0] >= dtype.itemsize:
        stride = int(strides[0]) if len(offsets) > 1 else dtype.itemsize
        return np.ndarray((len(offsets),), dtype=dtype, buffer=buffer, offset=int(offsets[0]), strides=(stride,))
    raw = np.frombuffer(buffer, np.uint8)
    gathered = raw[offsets[:, None] + np.arange(dtype.itemsize)]
    return gathered.view(dtype).reshape(len(offsets))


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
    """The registered formats by name; the first look finds the formats installed packages declare."""

    def _ready(self) -> None:
        load_plugins()

    def __getitem__(self, key: str) -> FormatSpec:
        self._ready()
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self._ready()
        return super().__contains__(key)

    def __iter__(self):
        self._ready()
        return super().__iter__()

    def __len__(self) -> int:
        self._ready()
        return super().__len__()

    def get(self, key, default=None):
        self._ready()
        return super().get(key, default)

    def values(self):
        self._ready()
        return super().values()

    def items(self):
        self._ready()
        return super().items()

    def keys(self):
        self._ready()
        return super().keys()


FORMATS: dict[str, FormatSpec] = _Registry()

#: The entry-point group an installed package declares a function in that registers its format.
ENTRY_POINT_GROUP = 'pyvista_quake.formats'
_plugins: dict[str, bool] = {'loading': False, 'loaded': False}
#: Called with each format's spec as it is registered (PyVista's reader registry listens here).
LISTENERS: list[Callable[[FormatSpec], None]] = []


def load_plugins() -> None:
    """Register the formats of installed packages (entry points of :data:`ENTRY_POINT_GROUP`), once a process.

    A package whose function fails is skipped with a warning naming it: one broken
    plugin does not stop the built-in formats.
    """
    if _plugins['loaded'] or _plugins['loading']:
        return
    _plugins['loading'] = True
    try:
        for point in entry_points(group=ENTRY_POINT_GROUP):
            try:
                point.load()()
            except Exception as error:  # noqa: BLE001 - a third party's failure is reported, never fatal
                warnings.warn(
                    f'pyvista_quake: the format plugin {point.name} ({point.value}) failed to register: {type(error).__name__}: {error}',
                    RuntimeWarning,
                    stacklevel=2,
                )
    finally:
        _plugins['loading'] = False
        _plugins['loaded'] = True


_ALIAS_READ_DOC = """Parse {title} model into format-neutral data.

    Parameters
    ----------
    buffer : bytes or memoryview
        The whole file.
    source : str, default: '<bytes>'
        Name of the file, for error messages.

    Returns
    -------
    ModelData
        The model's record: one surface whose frames are still packed (a :class:`Packing`),
        and its ``alias`` part; ``file`` holds every byte.

    Raises
    ------
    QuakeFormatError
        If no {game} engine could draw the file (see :func:`parse`); the
        engines' own limits are :mod:`pyvista_quake.game.engines`'.

    """


def alias_reader(
    parse: Callable[[bytes | memoryview, str], Any], decode: Callable[[Any], ModelData], title: str, game: str
) -> Callable[..., ModelData]:
    """An MD2's or MDL's ``read(buffer, source='<bytes>')``: ``decode(parse(buffer, source))``, documented for its game."""

    def read(buffer: bytes | memoryview, source: str = '<bytes>') -> ModelData:
        return decode(parse(buffer, source))

    read.__doc__ = _ALIAS_READ_DOC.format(title=title, game=game)
    return read


def not_encoded(format: str) -> Callable[..., object]:
    """The ``encode``/``quantize`` of a format whose records are written only as they were read (IQM, MD5)."""

    def refuse(*args: Any, **kwargs: Any) -> object:
        raise ValueError(f'{format.upper()} files are written as they were read; edited frames are saved as an MD3')

    return refuse


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
        spec = FormatSpec(name, magic, exts, parse=read, write=write or _unwritable(name), sniff=sniff, title=title, game=game, **internals)
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
        )
    FORMATS[name] = spec
    for listener in LISTENERS:
        listener(spec)
    return spec


def _unwritable(name: str) -> Callable[..., bytes]:
    def refuse(*args: Any) -> bytes:
        raise ValueError(f'the {name!r} format was registered without a writer: its models cannot be saved as it')

    return refuse


def _checked_read(name: str, read: Callable[[bytes, str], object]) -> Callable[..., ModelData]:
    """A third party's ``read``, with what it returns checked to be a :class:`ModelData`."""

    def parse(buffer: bytes | memoryview, source: str) -> ModelData:
        raw = bytes(buffer)
        try:
            data = read(raw, source)
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
    """Every registered format's file extensions, lower case with the dot."""
    return tuple(e for spec in FORMATS.values() for e in spec.extensions)


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
    """The format a file name's extension names (any letter case).

    Raises
    ------
    ValueError
        If no format has that extension.

    """
    suffix = '.' + str(path).rsplit('.', 1)[-1].lower() if '.' in str(path) else ''
    for spec in FORMATS.values():
        if suffix in spec.extensions:
            return spec
    known = ', '.join(e for s in FORMATS.values() for e in s.extensions)
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


def spec_for(buffer: bytes | memoryview, source: str) -> FormatSpec:
    """The format a file's magic bytes name.

    Raises
    ------
    QuakeFormatError
        For another format's magic (named) or none known.

    """
    start = bytes(buffer[:SNIFF_BYTES])
    for spec in FORMATS.values():
        if spec.magic and start.startswith(spec.magic):
            return spec
    for spec in FORMATS.values():
        if spec.sniff is not None and spec.sniff(start):
            return spec
    head = start[:4]
    if head in FOREIGN_MAGIC:
        raise QuakeFormatError(source, 'ident', head, f'{FOREIGN_MAGIC[head]}, not a Quake or Quake II alias model')
    known = ', '.join(s.label for s in FORMATS.values())
    raise QuakeFormatError(source, 'ident', head, f'not a Quake model; expected one of {known}')


def parse_buffer(buffer: bytes | memoryview, source: str, spec: FormatSpec | None = None):
    """Parse a model's bytes into its format's records.

    The format is ``spec``, or the one the magic bytes name.
    """
    return _parse(spec if spec is not None else spec_for(buffer, source), buffer, source)


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


def _parse(spec, buffer: bytes | memoryview, source: str):
    """The format's records, with a likely cause added to a structural error."""
    try:
        return spec.parse(buffer, source)
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
