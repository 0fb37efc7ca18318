"""Byte-level helpers shared by the format modules: bounds checks and views.

Every count and offset a header gives is checked here against the buffer's
size *before* anything is allocated or viewed, so a file that lies about
itself raises :class:`~pyvista_quake.QuakeFormatError` instead of an
IndexError, a MemoryError or a huge allocation.
"""

from __future__ import annotations

from typing import Any
from typing import Callable
from typing import Sequence

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
