"""Doom 3 models (``.md5mesh`` and ``.md5anim``, ``MD5Version 10``): text ⇄ records ⇄ format-neutral skeletons.

The files are read as Doom 3's lexer reads them: tokens (words, numbers,
quoted strings, ``( ) { }``), line breaks meaning nothing, ``//`` and ``/* */``
comments skipped.  The token list is cut into fixed-width rows (``vert``
lines are eight tokens) and each column converted at once, so no line is
parsed on its own.  One description of each block's row (:data:`JOINT_ROW`...)
serves :func:`parse` and :func:`write`.

The parser refuses what no engine can read (a token where a number belongs,
an index past its list); the version line, a second root joint and the other
rules only Doom 3 enforces are :mod:`pyvista_quake.game.engines`'s.  Errors name
the file, the line and the value.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
import re
from typing import Any
from typing import Callable

from fastnumbers import try_array
import numpy as np

from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake._base.warnings import warn_external
from pyvista_quake.formats._common import not_encoded
from pyvista_quake.formats._joints import trs_matrices
from pyvista_quake.formats._rules import MISDRAWS
from pyvista_quake.formats._rules import REFUSES
from pyvista_quake.formats._rules import WARNS
from pyvista_quake.formats._rules import Rule
from pyvista_quake.formats.records import Clip
from pyvista_quake.formats.records import Joint
from pyvista_quake.formats.records import JointWeights
from pyvista_quake.formats.records import ModelData
from pyvista_quake.formats.records import SkeletalAnimationData
from pyvista_quake.formats.records import Skeleton
from pyvista_quake.formats.records import SurfaceData
from pyvista_quake.formats.registry import register_format

VERSION = 10
#: The largest whole number a float64 holds exactly: the bound of a count or index no list limits.
WHOLE_LIMIT = 1 << 53
#: Flag bits of a hierarchy line, in the order the frame's numbers fill them: Tx Ty Tz Qx Qy Qz.
COMPONENT_BITS = 6

# What the lexer takes out before splitting on white space: quoted strings, comments.
_LEXED = re.compile(rb'"([^"\n]*)"|//([^\n]*)|/\*(.*?)(?:\*/|\Z)', re.DOTALL)
#: Bytes standing in for a string (then its number) and for a ``// meshes:`` comment.
STRING, COMMENT = b'\x02', b'\x03'  # not NUL: numpy's bytes arrays take NUL for padding
# Row layouts: ('n') a number, ('s') a string, ('(' ')') that bracket, ('w', word) that keyword.
JOINT_ROW = ('s', 'n', '(', 'n', 'n', 'n', ')', '(', 'n', 'n', 'n', ')')
VERT_ROW = (('w', 'vert'), 'n', '(', 'n', 'n', ')', 'n', 'n')
TRI_ROW = (('w', 'tri'), 'n', 'n', 'n', 'n')
WEIGHT_ROW = (('w', 'weight'), 'n', 'n', 'n', '(', 'n', 'n', 'n', ')')
HIERARCHY_ROW = ('s', 'n', 'n', 'n')
BOUNDS_ROW = ('(', 'n', 'n', 'n', ')', '(', 'n', 'n', 'n', ')')
BASEFRAME_ROW = ('(', 'n', 'n', 'n', ')', '(', 'n', 'n', 'n', ')')


def _lexed(text: bytes, cut: Callable[[re.Match], bytes]) -> bytes:
    """``_LEXED.sub(cut, text)``, the regular expression tried only where a quote or a slash is.

    Files are mostly numbers: finding the few strings and comments with ``bytes.find``
    (C's ``memchr``) instead of trying the pattern at every byte is many times faster.
    """
    pieces: list[bytes] = []
    done = at = 0
    while True:
        quote, slash = text.find(b'"', at), text.find(b'/', at)
        where = min(quote, slash) if quote >= 0 and slash >= 0 else max(quote, slash)
        if where < 0:
            break
        match = _LEXED.match(text, where)
        if match is None:  # a quote with no end on its line, a lone slash: kept as written
            at = where + 1
            continue
        pieces += (text[done:where], cut(match))
        done = at = match.end()
    pieces.append(text[done:])
    return b''.join(pieces)


class Tokens:
    """A file's tokens with their kinds, read by position; lines are counted only for a message.

    Strings and comments are cut out first (a string becomes a stand-in token,
    an exporter's ``// meshes: name`` comment one too), brackets are spaced,
    and the rest splits on white space at C speed.

    Parameters
    ----------
    text : bytes
        The file.
    source : str
        The file, for messages.

    """

    def __init__(self, text: bytes, source: str) -> None:
        self.source = source
        self.strings: list[str] = []
        text = text.replace(STRING, b' ').replace(COMMENT, b' ')

        def cut(match: re.Match) -> bytes:
            string, comment, block = match.groups()
            if string is not None:
                self.strings.append(string.decode('latin-1'))
                return b' ' + STRING + str(len(self.strings) - 1).encode() + b' '
            if comment is not None and comment.strip().lower().startswith(b'meshes:'):
                self.strings.append(comment.split(b':', 1)[1].strip().decode('latin-1'))
                return b' ' + COMMENT + str(len(self.strings) - 1).encode() + b' '
            return b'\n' * (block or b'').count(b'\n') or b' '  # a comment: its lines kept, for the line numbers

        clean = _lexed(text, cut)
        for bracket in (b'(', b')', b'{', b'}'):
            clean = clean.replace(bracket, b' ' + bracket + b' ')
        self._clean = clean
        self.values: list[bytes] = clean.split()
        self._starts: np.ndarray | None = None
        self.position = 0

    def kind(self, index: int) -> str:
        """``'s'`` a string, ``'c'`` a ``// meshes:`` comment, a bracket itself, ``'w'`` anything else."""
        value = self.values[index]
        head = value[:1]
        if head == STRING:
            return 's'
        if head == COMMENT:
            return 'c'
        return value.decode('latin-1') if value in (b'(', b')', b'{', b'}') else 'w'

    def text(self, index: int) -> str:
        """Token ``index`` as written (a string's contents)."""
        value = self.values[index]
        if value[:1] in (STRING, COMMENT):
            return self.strings[int(value[1:])]
        return value.decode('latin-1')

    def line(self, index: int) -> int:
        """The line (from 1) of token ``index`` (the last token's past the end)."""
        if self._starts is None:  # counted for a message only: the file's tokens found again with their places
            self._starts = np.array([m.start() for m in re.finditer(rb'\S+', self._clean)], np.int64)
            self._newlines = np.flatnonzero(np.frombuffer(self._clean, np.uint8) == 10)
        if not len(self._starts):
            return 1
        start = self._starts[min(index, len(self._starts) - 1)]
        return int(np.searchsorted(self._newlines, start)) + 1

    def error(self, index: int, value: Any, reason: str) -> QuakeFormatError:
        """A :class:`QuakeFormatError` about token ``index``, naming its line."""
        return QuakeFormatError(self.source, f'line {self.line(index)}', value, reason)

    def done(self) -> bool:
        """Whether every token is read."""
        return self.position >= len(self.values)

    def peek(self) -> str | None:
        """The next token's text (``None`` at the end)."""
        return self.text(self.position) if not self.done() else None

    def next(self, kind: str = 'w', what: str = 'a word') -> str:
        """Take the next token, which must be of ``kind`` (``'w'`` a word, ``'s'`` a string, a bracket)."""
        if self.done():
            raise self.error(self.position, 'end of file', f'expected {what}')
        value, got = self.text(self.position), self.kind(self.position)
        if got != kind:
            raise self.error(self.position, value, f'expected {what}')
        self.position += 1
        return value

    def expect(self, word: str) -> None:
        """Take the next token, which must be ``word``."""
        at = self.position
        if self.next('w' if word not in '(){}' else word, repr(word)) != word:
            raise self.error(at, self.values[at], f'expected {word!r}')

    def number(self, what: str, integer: bool = False) -> float:
        """Take the next token as a number."""
        at = self.position
        text = self.next('w', what)
        try:
            value = float(text)
        except ValueError:
            raise self.error(at, text, f'{what} must be a number') from None
        if not np.isfinite(value):
            raise self.error(at, text, f'{what} must be a finite number')
        if integer and value != int(value):
            raise self.error(at, text, f'{what} must be a whole number')
        return int(value) if integer else value

    def count(self, what: str, limit: int) -> int:
        """Take the next token as a count: a whole number from 0, at most ``limit``."""
        at = self.position
        value = int(self.number(what, integer=True))
        if not 0 <= value <= limit:
            raise self.error(at, value, f'{what} must be 0 to {limit} (the file holds {limit} tokens in all)')
        return value

    def rows(self, layout: tuple, count: int, what: str) -> list[np.ndarray]:
        """Take ``count`` rows of ``layout``: the columns, numbers as ``float64`` and strings as objects.

        A column at a time: its tokens are a strided slice of the token list, a keyword column is
        counted and a number column converted in one pass.  Where any of that fails, the rows are read
        again token by token to name the first bad one.
        """
        width = len(layout)
        end = self.position + width * count
        if end > len(self.values):
            raise self.error(len(self.values), 'end of file', f'{count} {what} lines expected, the file ends first')
        columns: list[np.ndarray | None] = []
        numeric: list[bytes] = []  # every number column's tokens, converted in one pass
        for c, part in enumerate(layout):
            column = self.values[self.position + c : end : width]
            if isinstance(part, tuple) or part in '(){}':
                if column.count((part[1] if isinstance(part, tuple) else part).encode()) != count:
                    return self._rows_named(layout, count, what)
            elif part == 's':
                if not all(v[:1] == STRING for v in column):
                    return self._rows_named(layout, count, what)
                columns.append(np.array([self.strings[int(v[1:])] for v in column], dtype=object))
            else:
                numeric += column
                columns.append(None)
        numbers = numbers_of(numeric)
        if numbers is None:
            return self._rows_named(layout, count, what)
        number_columns = iter(numbers.reshape(-1, count) if count else [np.zeros(0)] * sum(c is None for c in columns))
        self.position = end
        return [next(number_columns) if column is None else column for column in columns]

    def numbers(self, count: int, what: str) -> np.ndarray:
        """Take ``count`` numbers written as one row (a frame of an ``.md5anim``), as ``float64``."""
        numbers = numbers_of(self.values[self.position : self.position + count]) if self.position + count <= len(self.values) else None
        if numbers is None:
            return np.concatenate(self.rows(('n',) * count, 1, what))  # names the first bad token
        self.position += count
        return numbers

    def _rows_named(self, layout: tuple, count: int, what: str) -> list[np.ndarray]:
        """:meth:`rows` token by token: the error names the first token out of place."""
        width = len(layout)
        end = self.position + width * count
        values = np.array(self.values[self.position : end] or [b''], dtype=bytes)[: end - self.position].reshape(count, width)
        columns = []
        for c, part in enumerate(layout):
            column = values[:, c]
            if isinstance(part, tuple) or part in '(){}':
                literal = (part[1] if isinstance(part, tuple) else part).encode()
                bad = np.flatnonzero(column != literal)
            elif part == 's':
                bad = np.flatnonzero(np.char.find(column, STRING) != 0)
            else:
                bad = np.zeros(0, np.int64)
            if len(bad):
                index = self.position + int(bad[0]) * width + c
                shown = part[1] if isinstance(part, tuple) else {'n': 'a number', 's': 'a quoted string'}.get(part, repr(part))
                raise self.error(index, self.text(index), f'{what} line {int(bad[0])}: expected {shown}')
            if part == 'n':
                columns.append(self._numbers(column, self.position + c, width, what))
            elif part == 's':
                columns.append(np.array([self.strings[int(v[1:])] for v in column.tolist()], dtype=object))
        self.position = end
        return columns

    def _numbers(self, column: np.ndarray, first: int, width: int, what: str) -> np.ndarray:
        try:
            out = column.astype(np.float64)
        except ValueError:
            out = None
        if out is not None and np.isfinite(out).all():
            return out
        for k, raw in enumerate(column.tolist()):  # find the first bad one, to name it
            try:
                ok = raw[:1] not in (STRING, COMMENT) and bool(np.isfinite(float(raw)))
            except ValueError:
                ok = False
            if not ok:
                raise self.error(first + k * width, self.text(first + k * width), f'{what} line {k}: expected a finite number')
        raise AssertionError('unreachable')  # pragma: no cover

    def block(self, name: str) -> None:
        """Take ``name {``."""
        self.expect(name)
        self.expect('{')


def numbers_of(tokens: list[bytes]) -> np.ndarray | None:
    """``float64`` of number tokens, bit for bit as ``float`` reads them; ``None`` if any is not a finite number.

    One C-level call: fastnumbers' ``try_array``, whose parser (``fast_float``) rounds
    correctly, as CPython's does, and which takes what ``float`` takes (PEP 515 underscores
    too), about three times as fast as ``float`` called on each token.  (A vectorised
    decimal parse over the joined bytes, and numpy's ``loadtxt`` and ``fromstring``, were
    measured: each is slower than ``float`` on real files.)
    """
    try:
        numbers = try_array(tokens, dtype=np.float64, allow_underscores=True)
    except ValueError:
        return None
    return numbers if np.isfinite(numbers).all() else None


def _indices(tokens: Tokens, values: np.ndarray, limit: int, what: str, first: int, width: int, column: int) -> np.ndarray:
    """Whole numbers in ``[0, limit)``, else an error naming the line."""
    bad = np.flatnonzero((values != np.floor(values)) | (values < 0) | (values >= limit))
    if len(bad):
        index = first + int(bad[0]) * width + column
        raise tokens.error(index, tokens.text(index), f'{what} must be 0 to {limit - 1}')
    return values.astype(np.int64)


# -- .md5mesh ------------------------------------------------------------------------------


@dataclass
class MD5MeshBlock:
    """One ``mesh { }`` block, as stored.

    Attributes
    ----------
    name : str
        Its name: Doom 3's ``name "..."``, else the ``// meshes:`` comment exporters write.
    shader : str
        The ``shader`` string.
    verts : numpy.ndarray
        ``float64`` ``(numverts, 4)``: ``s t firstWeight weightCount``.
    tris : numpy.ndarray
        ``int64`` ``(numtris, 3)``.
    weights : numpy.ndarray
        ``float64`` ``(numweights, 5)``: ``joint bias x y z``.

    """

    name: str
    shader: str
    verts: np.ndarray
    tris: np.ndarray
    weights: np.ndarray


@dataclass
class MD5MeshFile:
    """An ``.md5mesh``'s records.

    Attributes
    ----------
    source : str
        The file.
    header : dict
        ``MD5Version`` (``None`` when the line is missing), ``commandline``, ``numJoints``, ``numMeshes``.
    joints : list of Joint
        Names and parents.
    joint_poses : numpy.ndarray
        ``float64`` ``(numJoints, 6)``: object-space ``px py pz qx qy qz``.
    meshes : list of MD5MeshBlock
        The mesh blocks.

    """

    source: str
    header: dict[str, Any]
    joints: list[Joint]
    joint_poses: np.ndarray
    meshes: list[MD5MeshBlock] = field(default_factory=list)

    def header_fields(self) -> dict:
        """The header's fields by name."""
        return dict(self.header)


def _header(tokens: Tokens, words: dict[str, str]) -> dict[str, Any]:
    """The ``name value`` lines before the first block, in any order."""
    out: dict[str, Any] = {'MD5Version': None, 'commandline': None}
    while not tokens.done() and tokens.peek() in words:
        word = tokens.next()
        out[word] = tokens.next('s', 'a quoted string') if words[word] == 's' else tokens.number(word, integer=True)
    return out


def parse_mesh(buffer: bytes | memoryview, source: str = '<bytes>') -> MD5MeshFile:
    """Parse an ``.md5mesh``.

    Raises
    ------
    QuakeFormatError
        For a token where another belongs, a count past the file, or an index past its list.

    """
    tokens = Tokens(bytes(buffer), source)
    limit = len(tokens.values)
    header = _header(tokens, {'MD5Version': 'n', 'commandline': 's', 'numJoints': 'n', 'numMeshes': 'n'})
    if 'numJoints' not in header:
        raise tokens.error(tokens.position, tokens.peek() or 'end of file', 'expected numJoints (an md5mesh starts with numJoints and numMeshes)')
    num_joints = int(header['numJoints'])
    if not 0 <= num_joints <= limit:
        raise tokens.error(0, num_joints, f'numJoints must be 0 to {limit}')
    tokens.block('joints')
    first = tokens.position
    names, parents, px, py, pz, qx, qy, qz = tokens.rows(JOINT_ROW, num_joints, 'joints')
    parent = parents.astype(np.int64) if num_joints else np.zeros(0, np.int64)
    bad = np.flatnonzero((parents != np.floor(parents)) | (parents < -1) | (parents >= num_joints))
    if len(bad):
        raise tokens.error(first + int(bad[0]) * len(JOINT_ROW) + 1, parents[bad[0]], f'joint parent must be -1 to {num_joints - 1}')
    tokens.expect('}')
    joints = [Joint(str(n), int(p)) for n, p in zip(names.tolist(), parent.tolist())]
    record = MD5MeshFile(source, header, joints, np.column_stack([px, py, pz, qx, qy, qz]) if num_joints else np.zeros((0, 6)))
    while not tokens.done():
        if tokens.kind(tokens.position) == 'c':  # a "// meshes:" comment outside a mesh
            tokens.position += 1
            continue
        record.meshes.append(_mesh_block(tokens, num_joints))
    return record


def _mesh_block(tokens: Tokens, num_joints: int) -> MD5MeshBlock:
    limit = len(tokens.values)
    tokens.block('mesh')
    name, shader = '', ''
    verts = np.zeros((0, 4))
    tris = np.zeros((0, 3), np.int64)
    weights = np.zeros((0, 5))
    while tokens.done() or tokens.kind(tokens.position) != '}':
        at = tokens.position
        if tokens.done():
            raise tokens.error(at, 'end of file', "expected '}' closing the mesh")
        if tokens.kind(at) == 'c':  # an exporter's "// meshes: name": Cube 2 names the mesh by it
            name = name or tokens.text(at)
            tokens.position += 1
            continue
        word = tokens.next('w', "a mesh's shader, numverts, numtris, numweights or '}'")
        if word == 'shader':
            shader = tokens.next('s', "the shader's quoted name")
        elif word == 'name':
            name = tokens.next('s', "the mesh's quoted name")
        elif word == 'numverts':
            n = tokens.count('numverts', limit)
            first = tokens.position
            _, s, t, first_weight, weight_count = tokens.rows(VERT_ROW, n, 'vert')
            for k, column in ((6, first_weight), (7, weight_count)):
                # Whole numbers from 0; past the weight list Doom 3 only warns (see _skinned): no bound here.
                _indices(tokens, column, WHOLE_LIMIT, 'firstWeight and weightCount', first, len(VERT_ROW), k)
            verts = np.column_stack([s, t, first_weight, weight_count]) if n else verts
        elif word == 'numtris':
            n = tokens.count('numtris', limit)
            first = tokens.position
            _, a, b, c = tokens.rows(TRI_ROW, n, 'tri')
            num_verts = len(verts)
            tris = (
                np.column_stack([_indices(tokens, v, num_verts, 'a triangle corner', first, len(TRI_ROW), 2 + k) for k, v in enumerate((a, b, c))])
                if n
                else tris
            )
        elif word == 'numweights':
            n = tokens.count('numweights', limit)
            first = tokens.position
            _, joint, bias, x, y, z = tokens.rows(WEIGHT_ROW, n, 'weight')
            _indices(tokens, joint, max(num_joints, 0), "a weight's joint", first, len(WEIGHT_ROW), 2)
            weights = np.column_stack([joint, bias, x, y, z]) if n else weights
        else:
            raise tokens.error(at, word, "expected shader, numverts, numtris, numweights or '}' in a mesh")
    tokens.expect('}')
    return MD5MeshBlock(name, shader, verts, tris, weights)


def _quote(text: str) -> str:
    return '"' + text.replace('"', "'") + '"'


def _num(values: np.ndarray) -> np.ndarray:
    """Numbers as exporters print them, six decimals, where that reads back exactly; else all 17 digits."""
    values = np.asarray(values, np.float64)
    out = np.char.mod('%.6f', values)
    return np.where(out.astype(np.float64) == values, out, np.char.mod('%.17g', values))


def write_mesh(record: MD5MeshFile) -> bytes:
    """The text of an ``.md5mesh`` (the numbers as read: parsing it again gives the same records)."""
    lines = [
        f'MD5Version {record.header.get("MD5Version") or VERSION}',
        f'commandline {_quote(record.header.get("commandline") or "")}',
        '',
        f'numJoints {len(record.joints)}',
        f'numMeshes {len(record.meshes)}',
        '',
        'joints {',
    ]
    p = _num(record.joint_poses) if len(record.joints) else np.zeros((0, 6), str)
    for joint, row in zip(record.joints, p):
        lines.append(f'\t{_quote(joint.name)}\t{joint.parent} ( {row[0]} {row[1]} {row[2]} ) ( {row[3]} {row[4]} {row[5]} )')
    lines.append('}')
    for mesh in record.meshes:
        lines += [
            '',
            'mesh {',
            f'\t// meshes: {mesh.name}' if mesh.name else '',
            f'\tshader {_quote(mesh.shader)}',
            '',
            f'\tnumverts {len(mesh.verts)}',
        ]
        v: Any = _num(mesh.verts[:, :2]) if len(mesh.verts) else []
        lines += [f'\tvert {k} ( {st[0]} {st[1]} ) {int(w[2])} {int(w[3])}' for k, (st, w) in enumerate(zip(v, mesh.verts))]
        lines += ['', f'\tnumtris {len(mesh.tris)}']
        lines += [f'\ttri {k} {a} {b} {c}' for k, (a, b, c) in enumerate(mesh.tris.tolist())]
        lines += ['', f'\tnumweights {len(mesh.weights)}']
        w: Any = _num(mesh.weights[:, 1:]) if len(mesh.weights) else []
        lines += [f'\tweight {k} {int(j)} {r[0]} ( {r[1]} {r[2]} {r[3]} )' for k, (j, r) in enumerate(zip(mesh.weights[:, 0], w))]
        lines.append('}')
    return ('\n'.join(lines) + '\n').encode('latin-1', errors='replace')


# -- .md5anim ------------------------------------------------------------------------------


@dataclass
class MD5AnimFile:
    """An ``.md5anim``'s records.

    Attributes
    ----------
    source : str
        The file.
    header : dict
        ``MD5Version``, ``commandline``, ``numFrames``, ``numJoints``, ``frameRate``, ``numAnimatedComponents``.
    joints : list of Joint
        The hierarchy's names and parents.
    flags, start : numpy.ndarray
        ``int64`` per joint: which components its frames animate, and where its numbers start.
    bounds : numpy.ndarray
        ``float64`` ``(boxes, 6)``: min, max.
    baseframe : numpy.ndarray
        ``float64`` ``(numJoints, 6)``: parent-relative ``tx ty tz qx qy qz``.
    frames : numpy.ndarray
        ``float64`` ``(numFrames, numAnimatedComponents)``.

    """

    source: str
    header: dict[str, Any]
    joints: list[Joint]
    flags: np.ndarray
    start: np.ndarray
    bounds: np.ndarray
    baseframe: np.ndarray
    frames: np.ndarray

    def header_fields(self) -> dict:
        """The header's fields by name."""
        return dict(self.header)


#: The header words of an ``.md5anim``, as :func:`parse_anim` reads them ('n' a number, 's' a string).
ANIM_HEADER = {'MD5Version': 'n', 'commandline': 's', 'numFrames': 'n', 'numJoints': 'n', 'frameRate': 'n', 'numAnimatedComponents': 'n'}


def anim_header(buffer: bytes | memoryview, source: str = '<bytes>') -> dict[str, Any]:
    """An ``.md5anim``'s header words (``numFrames``, ``frameRate``, ``numJoints``...), the text before ``hierarchy`` only.

    What a timeline needs without the frames; :func:`parse_anim` checks the rest.

    Raises
    ------
    QuakeFormatError
        For a header word missing or out of its range, as :func:`parse_anim` names it.

    """
    data = bytes(buffer)
    cut = data.find(b'hierarchy')
    if cut >= 0:
        try:
            # The file's tokens are not counted: its bytes bound them (a token is a byte at least).
            return _anim_header(Tokens(data[: cut + len(b'hierarchy')], source), len(data))
        except QuakeFormatError:
            pass  # the word stood in a string or a comment: the whole file read, as parse_anim reads it
    return parse_anim(data, source).header


def _anim_header(tokens: Tokens, limit: int) -> dict[str, Any]:
    """The header read from ``tokens``, each count at most ``limit`` (the file's tokens, or a bound of them)."""
    header = _header(tokens, ANIM_HEADER)
    for word in ('numFrames', 'numJoints', 'frameRate', 'numAnimatedComponents'):
        if word not in header:
            raise tokens.error(tokens.position, tokens.peek() or 'end of file', f'expected {word} before the hierarchy')
        bound = (1 << 30) if word == 'frameRate' else limit
        if not 0 <= header[word] <= bound:
            raise tokens.error(0, header[word], f'{word} must be 0 to {bound}')
    return header


def parse_anim(buffer: bytes | memoryview, source: str = '<bytes>') -> MD5AnimFile:
    """Parse an ``.md5anim``.

    Raises
    ------
    QuakeFormatError
        For a token where another belongs, a count past the file, a start index past the components,
        or frames missing or numbered out of order.

    """
    tokens = Tokens(bytes(buffer), source)
    limit = len(tokens.values)
    header = _anim_header(tokens, limit)
    num_frames, num_joints, num_components = header['numFrames'], header['numJoints'], header['numAnimatedComponents']
    tokens.block('hierarchy')
    first = tokens.position
    names, parents, flags, start = tokens.rows(HIERARCHY_ROW, num_joints, 'hierarchy')
    _indices(tokens, parents + 1, num_joints + 1, "a joint's parent (plus one)", first, len(HIERARCHY_ROW), 1)
    flags = _indices(tokens, flags, 1 << COMPONENT_BITS, 'flags', first, len(HIERARCHY_ROW), 2)
    start = _indices(tokens, start, limit + 1, 'startIndex', first, len(HIERARCHY_ROW), 3)
    used = np.array([bin(int(f)).count('1') for f in flags], np.int64)
    past = np.flatnonzero((used > 0) & (start + used > num_components))
    if len(past):
        index = first + int(past[0]) * len(HIERARCHY_ROW) + 3
        raise tokens.error(
            index, int(start[past[0]]), f'{int(used[past[0]])} components from startIndex run past numAnimatedComponents ({num_components})'
        )
    tokens.expect('}')
    joints = [Joint(str(n), int(p)) for n, p in zip(names.tolist(), parents.astype(np.int64).tolist())]
    tokens.block('bounds')
    boxes = []
    while tokens.peek() == '(':
        boxes.append(np.concatenate(tokens.rows(BOUNDS_ROW, 1, 'bounds')))
    tokens.expect('}')
    tokens.block('baseframe')
    base = tokens.rows(BASEFRAME_ROW, num_joints, 'baseframe')
    tokens.expect('}')
    first_frame = tokens.position
    try:
        frames, seen = _frames(tokens, num_frames, num_components, at_once=True)
    except QuakeFormatError:
        frames = None
    if frames is None:  # something is wrong: read again frame by frame, number by number, to name it
        tokens.position = first_frame
        frames, seen = _frames(tokens, num_frames, num_components, at_once=False)
        assert frames is not None  # one at a time, a bad number raises
    if not seen.all():
        raise tokens.error(
            len(tokens.values), int(np.flatnonzero(~seen)[0]), f'frame missing: the file has {int(seen.sum())} of numFrames {num_frames}'
        )
    return MD5AnimFile(
        source, header, joints, flags, start, np.array(boxes).reshape(-1, 6), np.column_stack(base) if num_joints else np.zeros((0, 6)), frames
    )


def _frames(tokens: Tokens, num_frames: int, num_components: int, at_once: bool) -> tuple[np.ndarray | None, np.ndarray]:
    """Every ``frame k { ... }`` block: the frames' numbers and which frames were seen.

    ``at_once``: the blocks' places checked here and every number converted in one pass after;
    ``None`` for the frames if any number is not one (read again one at a time to name it).
    """
    frames = np.zeros((num_frames, num_components))
    seen = np.zeros(num_frames, bool)
    rows: list[tuple[int, int]] = []
    while not tokens.done():
        tokens.expect('frame')
        index = tokens.position
        k = int(tokens.number('frame number', integer=True))
        if not 0 <= k < num_frames or seen[k]:
            raise tokens.error(index, k, f'frames must be numbered 0 to {num_frames - 1}, each once')
        tokens.expect('{')
        if num_components and at_once:
            rows.append((k, tokens.position))
            tokens.position += num_components
        elif num_components:
            frames[k] = tokens.numbers(num_components, f'frame {k}')
        seen[k] = True
        tokens.expect('}')
    if rows:
        numeric: list[bytes] = []
        for _, at in rows:
            numeric += tokens.values[at : at + num_components]
        numbers = numbers_of(numeric)
        if numbers is None:
            return None, seen
        frames[[k for k, _ in rows]] = numbers.reshape(len(rows), num_components)
    return frames, seen


def write_anim(record: MD5AnimFile) -> bytes:
    """The text of an ``.md5anim`` (parsing it again gives the same records)."""
    h = record.header
    lines = [
        f'MD5Version {h.get("MD5Version") or VERSION}',
        f'commandline {_quote(h.get("commandline") or "")}',
        '',
        f'numFrames {len(record.frames)}',
        f'numJoints {len(record.joints)}',
        f'frameRate {h["frameRate"]}',
        f'numAnimatedComponents {record.frames.shape[1]}',
        '',
        'hierarchy {',
    ]
    lines += [f'\t{_quote(j.name)}\t{j.parent} {int(f)} {int(s)}' for j, f, s in zip(record.joints, record.flags, record.start)]
    lines += ['}', '', 'bounds {']
    lines += [f'\t( {b[0]} {b[1]} {b[2]} ) ( {b[3]} {b[4]} {b[5]} )' for b in (_num(record.bounds) if len(record.bounds) else [])]
    lines += ['}', '', 'baseframe {']
    lines += [f'\t( {b[0]} {b[1]} {b[2]} ) ( {b[3]} {b[4]} {b[5]} )' for b in (_num(record.baseframe) if len(record.baseframe) else [])]
    lines.append('}')
    for k, row in enumerate(_num(record.frames) if record.frames.size else [[]] * len(record.frames)):
        lines += ['', f'frame {k} {{', '\t' + ' '.join(row), '}']
    return ('\n'.join(lines) + '\n').encode('latin-1', errors='replace')


# -- the format-neutral view ----------------------------------------------------------------


def doom3_quaternions(xyz: np.ndarray) -> np.ndarray:
    """Quaternions ``xyzw`` for the usual rotation formula from MD5's stored ``x y z``.

    ``idQuat::CalcW`` takes ``w = sqrt(|1 - (x² + y² + z²)|)`` in single precision and
    Doom 3 applies the transpose of the usual matrix, which is the usual matrix of
    ``(x, y, z, -w)``.
    """
    xyz32 = np.asarray(xyz, np.float32)
    w = np.sqrt(np.abs(np.float32(1.0) - (xyz32 * xyz32).sum(axis=-1, dtype=np.float32)))
    return np.concatenate([np.asarray(xyz, np.float64), -w[..., None].astype(np.float64)], axis=-1)


def decode_mesh(record: MD5MeshFile) -> ModelData:
    """The format-neutral view of an ``.md5mesh``: joints, bind pose and meshes (no frames of its own)."""
    poses = record.joint_poses
    trs = np.concatenate([poses[:, :3], doom3_quaternions(poses[:, 3:]), np.ones((len(poses), 3))], axis=1)
    bind = trs_matrices(trs, normalise=False) if len(poses) else np.zeros((0, 4, 4))
    meshes = []
    for k, block in enumerate(record.meshes):
        meshes.append(_skinned(block, bind, record.source, k))
    header = record.header_fields()
    return ModelData(meshes, format='md5', source=record.source, header=header, file=record, skeleton=Skeleton(list(record.joints), bind, 'slerp'))


def _skinned(block: MD5MeshBlock, bind: np.ndarray, source: str, index: int) -> SurfaceData:
    n = len(block.verts)
    first = block.verts[:, 2].astype(np.int64) if n else np.zeros(0, np.int64)
    count = block.verts[:, 3].astype(np.int64) if n else np.zeros(0, np.int64)
    num_weights = len(block.weights)
    past = first + count > num_weights
    if past.any():  # Doom 3 warns and reads past its list; read what the list holds
        k = int(np.flatnonzero(past)[0])
        warn_external(
            f'{source}: mesh {index} vert {k}: weights {int(first[k])}..{int(first[k] + count[k] - 1)} run past numweights '
            f'{num_weights}; {int(past.sum())} vertices keep the weights the list holds'
        )
        count = np.clip(num_weights - first, 0, None) * past + count * ~past
        first = np.minimum(first, num_weights)
    width = int(count.max(initial=0))
    slot = np.arange(width)
    used = slot[None, :] < count[:, None]
    take = np.where(used, first[:, None] + slot[None, :], 0)
    weights = block.weights if num_weights else np.zeros((1, 5))
    joints = np.where(used, weights[take, 0], 0).astype(np.int32)
    biases = np.where(used, weights[take, 1], 0).astype(np.float32)
    offsets = np.where(used[..., None], weights[take, 2:5], 0).astype(np.float32)
    if len(bind):
        matrices = bind[joints]  # (vertices, weights, 4, 4)
        placed = np.einsum('vkij,vkj->vki', matrices[..., :3, :3], offsets.astype(np.float64)) + matrices[..., :3, 3]
        positions = (placed * biases[..., None]).sum(axis=1).astype(np.float32)
    else:
        positions = np.zeros((n, 3), np.float32)
    texcoords = block.verts[:, :2].astype(np.float32) if n else np.zeros((0, 2), np.float32)
    return SurfaceData(
        block.name or f'mesh{index}',
        block.tris.astype(np.int32).reshape(-1, 3),
        texcoords,
        positions,
        shaders=[block.shader],
        joint_weights=JointWeights(joints, biases, offsets),
    )


def decode_anim(record: MD5AnimFile, name: str = 'anim') -> SkeletalAnimationData:
    """Each joint's parent-relative transform at each frame: the baseframe with the frame's numbers in the flagged places.

    ``name`` names its one clip (the loader gives the file's stem: ``walk`` for ``walk.md5anim``).
    """
    num_frames, num_joints = len(record.frames), len(record.joints)
    values = np.broadcast_to(record.baseframe, (num_frames, num_joints, 6)).copy()
    bits = (record.flags[:, None] >> np.arange(COMPONENT_BITS)) & 1
    joint_of, component_of = np.nonzero(bits)
    if len(joint_of):
        column = record.start[joint_of] + (np.cumsum(bits, axis=1) - 1)[joint_of, component_of]
        values[:, joint_of, component_of] = record.frames[:, column]
    poses = np.zeros((num_frames, num_joints, 10))
    poses[..., :3] = values[..., :3]
    poses[..., 3:7] = doom3_quaternions(values[..., 3:6]) if values.size else 0
    poses[..., 7:] = 1
    bounds = record.bounds.reshape(-1, 2, 3).astype(np.float32)
    return SkeletalAnimationData(record.source, list(record.joints), poses, [anim_clip(record.header, name)], 'slerp', bounds)


def anim_clip(header: dict[str, Any], name: str) -> Clip:
    """An ``.md5anim``'s one clip, from its header: every frame at ``frameRate``, looping (Doom 3 loops its animations)."""
    return Clip(name, 0, int(header['numFrames']), float(header['frameRate']), True)


def is_md5(head: bytes) -> bool:
    """Whether a file's start is MD5 grammar: after comments, ``MD5Version``, ``commandline`` or a header count."""
    text = re.sub(rb'//[^\n]*|/\*.*?\*/', b'', head, flags=re.DOTALL).lstrip()
    return text.startswith((b'MD5Version', b'commandline', b'numJoints', b'numFrames', b'numMeshes'))


def is_anim(head: bytes) -> bool:
    """Whether an MD5 file is an ``.md5anim`` (it has ``numFrames`` before ``joints``)."""
    return bool(re.search(rb'\bnumFrames\b|\bhierarchy\b', head))


def is_anim_file(buffer: bytes | memoryview) -> bool:
    """Whether a file's bytes are an ``.md5anim`` (MD5 grammar, and its keywords in the first 4 kB)."""
    head = bytes(buffer[:4096])
    return is_md5(head) and is_anim(head)


def parse(buffer: bytes | memoryview, source: str = '<bytes>') -> MD5MeshFile | MD5AnimFile:
    """Parse an ``.md5mesh`` or an ``.md5anim``, told apart by their keywords."""
    return parse_anim(buffer, source) if is_anim(bytes(buffer[:4096])) else parse_mesh(buffer, source)


def write(record: MD5MeshFile | MD5AnimFile) -> bytes:
    """The text of an ``.md5mesh`` or ``.md5anim``."""
    return write_anim(record) if isinstance(record, MD5AnimFile) else write_mesh(record)


def decode(record: MD5MeshFile | MD5AnimFile) -> ModelData:
    """The format-neutral view of an ``.md5mesh`` (an ``.md5anim`` alone has no mesh to show)."""
    if isinstance(record, MD5AnimFile):
        raise QuakeFormatError(
            record.source, 'numFrames', record.header['numFrames'], 'an .md5anim animates a mesh: load its .md5mesh with animations=[this file]'
        )
    return decode_mesh(record)


# -- what the engines check ---------------------------------------------------------------

_MD5 = {'doom3': 'neo/renderer/Model_md5.cpp idRenderModelMD5::LoadModel'}
_ANIM = {'doom3': 'neo/game/anim/Anim.cpp idMD5Anim::LoadAnim'}
MD5_RULES = (
    Rule(
        ('doom3',),
        'MD5Version',
        lambda f: ('missing' if f['MD5Version'] is None else f['MD5Version']) if f['MD5Version'] != VERSION else None,
        REFUSES,
        f'a file with no MD5Version {VERSION} line',
        {'doom3': 'neo/renderer/Model_md5.cpp / neo/game/anim/Anim.cpp: ExpectTokenString MD5Version'},
    ),
    Rule(
        ('doom3',),
        'commandline',
        lambda f: 'missing' if f['commandline'] is None else None,
        REFUSES,
        'a file with no commandline line',
        {'doom3': 'neo/renderer/Model_md5.cpp / neo/game/anim/Anim.cpp: ExpectTokenString commandline'},
    ),
    Rule(
        ('doom3',),
        'numMeshes',
        lambda f: f['numMeshes'] if f.get('numMeshes') is not None and f['numMeshes'] > f['mesh_blocks'] else None,
        REFUSES,
        'more meshes counted than the file holds (the parser meets the end of the file)',
        _MD5,
    ),
    Rule(
        ('doom3',),
        'weightCount',
        lambda f: f['unweighted'] or None,
        REFUSES,
        'a vertex with no weights ("Vertex without any joint weights")',
        {'doom3': 'neo/renderer/Model_md5.cpp idMD5Mesh::ParseMesh'},
    ),
    Rule(
        ('doom3',),
        'firstWeight',
        lambda f: f['weights_past'] or None,
        WARNS,
        'vertices whose weights run past numweights (it reads past the list)',
        {'doom3': 'neo/renderer/Model_md5.cpp idMD5Mesh::ParseMesh'},
    ),
    Rule(
        ('doom3',),
        'hierarchy',
        lambda f: f['roots'] if f['roots'] > 1 else None,
        REFUSES,
        'more than one root joint (only joint 0 may have parent -1)',
        _ANIM,
    ),
    Rule(
        ('cube2',),
        'weightCount',
        lambda f: f['top_weights'] if f['top_weights'] > 4 else None,
        MISDRAWS,
        'a vertex of more than 4 weights: the 4 largest kept and renormalised',
        {'cube2': 'src/engine/md5.h md5mesh::buildverts'},
    ),
)


def md5_facts(record, size: int) -> dict:
    h = record.header_fields()
    if isinstance(record, MD5AnimFile):
        roots = sum(1 for j in record.joints if j.parent < 0)
        return {**h, 'numMeshes': None, 'mesh_blocks': 0, 'unweighted': 0, 'top_weights': 0, 'roots': roots, 'weights_past': 0}
    counts = [m.verts[:, 3] for m in record.meshes if len(m.verts)]
    every = np.concatenate(counts) if counts else np.zeros(0)
    past = sum(int((m.verts[:, 2] + m.verts[:, 3] > len(m.weights)).sum()) for m in record.meshes if len(m.verts))
    return {
        **h,
        'mesh_blocks': len(record.meshes),
        'unweighted': int((every == 0).sum()),
        'top_weights': int(every.max(initial=0)),
        'roots': 0,
        'weights_past': past,
    }


register_format(
    'md5',
    ('.md5mesh',),
    parse,
    kind='skeletal',
    title='Doom 3 (MD5) models',
    game='Doom 3',
    config='md5.cfg',
    animation_files=('.md5anim',),
    write=write,
    encode=not_encoded('md5'),
    quantize=not_encoded('md5'),
    decode=decode,
    sniff=is_md5,
    engines=('doom3', 'cube2'),
    rules=MD5_RULES,
    facts=md5_facts,
)
