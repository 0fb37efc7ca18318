"""Cube 2 model configs (``iqm.cfg``, ``md5.cfg``): the CubeScript commands that assemble a skeletal model.

Red Eclipse, Sauerbraten and Tesseract describe a model in a config beside
it.  :func:`parse` reads the script as CubeScript reads it (commands end at a
line break or ``;``, ``"strings"``, ``[blocks]``, ``//`` comments), keeping
the bodies of literal ``if 1 [ … ]`` blocks and dropping those of
``if 0 [ … ]``; :func:`interpret` turns the commands into a :class:`ModelConfig`,
running an ``if`` whose condition asks for the model's name as the engine does
(``if (|| [strcmp (mdlname) "actors/player/male/headless"] …) [ … ] [ … ]``, with
``strcmp``/``stringcmp``/``=s``/``!=s``, ``||``, ``&&``, ``!`` and numbers), and
skipping, with a warning naming the line and why, one it cannot tell.

Commands that only change how the engine renders or simulates the model are
ignored: ``mdlscale``, ``mdltrans``, ``mdlyaw``/``mdlpitch``/``mdlroll``,
``mdlspec``, ``mdlambient``, ``mdlglow``, ``mdlfullbright``, ``mdlcollide``,
``mdlellipsecollide``, ``mdlbb``, ``mdlextendbb``, ``mdlshadow``,
``mdlalphatest``, ``mdlalphablend``, ``mdlmaterial``, ``mdlshader``, the
``*bumpmap``, ``*envmap``, ``*spec``, ``*glow``, ``*alphatest``, ``*pitch``,
``*adjust``, ``*noclip``, ``*link`` and ``ragdoll*`` commands.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
import functools
import math
import operator
import re
from typing import Callable
from typing import NamedTuple
from typing import Sequence

from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake._base.warnings import warn_external

_TOKEN = re.compile(r'"([^"\n]*)"?|//[^\n]*|(\[)|(\])|(;|\n)|([^\s;"\[\]]+)')
#: How deep ``exec`` may go (a config that runs itself stops here, it cannot hang).
MAX_EXEC_DEPTH = 8
#: How deep ``( … )`` and ``[ … ]`` may nest in an expression (deeper: skipped, as one it cannot tell).
MAX_NESTING = 64
#: Texture commands' prefixes (``<dds>``, ``<mad:…>``): how the engine loads the image, not its name.
_PREFIX = re.compile(r'^(?:<[^>]*>)+')


class Played(NamedTuple):
    """How a config plays an animation file: under ``name`` at ``fps`` (``None``: the file's), from ``start``
    for ``end`` frames (Cube 2's ``startoffset``/``endoffset``: 0 all, negative counted from the end), of the
    file's animation ``clip`` (``file.iqm:clip``; ``None``: its first)."""

    name: str
    fps: float | None = None
    start: int = 0
    end: int = 0
    clip: str | None = None


def frames_played(count: int, start: int, end: int) -> tuple[int, int]:
    """The first frame and the number of frames Cube 2 plays of an animation of ``count`` frames (``setanim``)."""
    first = min(start, count - 1) if start > 0 else (max(count + start, 0) if start < 0 else 0)
    count -= first
    if end > 0:
        count = min(count, end)
    elif end < 0:
        count = max(count + end, 1)
    return first, count


@dataclass(frozen=True)
class Command:
    """One command: its name, its arguments (block bodies as text), and its line."""

    name: str
    args: tuple[str, ...]
    line: int
    #: Whether a word is a ``( … )`` to run or an ``$alias`` to look up (found when parsed: parsed configs are kept).
    dynamic: bool
    #: Whether a block of its words holds model commands or an exec (found when parsed too).
    hides: bool

    def moved(self, lines: int) -> Command:
        """The command ``lines`` lines further down (a block's command, placed in its file)."""
        return Command(self.name, self.args, self.line + lines, self.dynamic, self.hides)


def parse(text: str, source: str = '<cfg>') -> list[Command]:
    """The commands of a config, with literal ``if 0``/``if 1`` blocks resolved.

    The text ends at its first NUL byte, as the engine's C string of the file does.

    Raises
    ------
    QuakeFormatError
        For a ``[`` never closed.

    """
    return list(_parsed(text, source))


@functools.lru_cache(maxsize=64)
def _parsed(text: str, source: str) -> tuple[Command, ...]:
    """:func:`parse`, kept: every player of a game executes the same shared configs (Red Eclipse's 7 kB ``player.cfg``)."""
    return tuple(_parse(text, source))


def _parse(text: str, source: str) -> list[Command]:
    text = text.partition('\0')[0]  # the engine runs the file as a C string: nothing after a NUL
    commands: list[Command] = []
    words: list[str] = []
    lines: list[int] = []  # the line each word starts on (a block's: the line of its "[")
    depth, block, start_line, line = 0, '', 1, 1
    position = 0
    for match in _TOKEN.finditer(text):
        chunk = text[position : match.end()]
        position = match.end()
        string, opening, closing, end, word = match.groups()
        if depth:  # inside a block: keep its text for the command that takes it
            if opening:
                depth += 1
            elif closing:
                depth -= 1
            if depth:
                block += chunk
            else:
                block += chunk[: chunk.rfind(']')]
                words.append(block)
                lines.append(start_line)
                block = ''
            line += chunk.count('\n')
            continue
        line += chunk.count('\n')
        if opening:
            depth, block, start_line = 1, '', line
        elif closing:
            raise QuakeFormatError(source, f'line {line}', ']', 'a ] with no [ before it')
        elif end is not None:
            _flush(words, lines, commands, source)
            words, lines = [], []
        elif string is not None or word is not None:
            words.append(string if string is not None else word)
            lines.append(line)
    if depth:
        raise QuakeFormatError(source, f'line {start_line}', '[', 'a [ never closed')
    _flush(words, lines, commands, source)
    return commands


def _flush(words: list[str], lines: list[int], commands: list[Command], source: str) -> None:
    """End a command: its words, each with the line it starts on (a literal ``if`` runs its block's commands)."""
    if not words:
        return
    name, args = words[0], tuple(words[1:])
    if name == 'if' and args and re.fullmatch(r'-?\d+', args[0]):
        taken = 2 if int(args[0]) else 3  # the word of the block that runs: then, or else
        if len(words) > taken:
            # The block's line 1 is the line of its "[".
            commands.extend(c.moved(lines[taken] - 1) for c in parse(words[taken], source))
        return
    hides = any(_is_block(a) and _MODEL_COMMAND.search(a) is not None for a in args)
    commands.append(Command(name, args, lines[0], any(a.startswith(('(', '$')) for a in args), hides))


_INTEGER = re.compile(r'\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)')
#: C's ``ULONG_MAX`` on the engines' 64-bit builds, where ``strtoul`` stops.
_ULONG_MAX = 2**64 - 1
#: The start of a word that glibc's ``strtod`` reads: a hexadecimal float (``0x1f``, ``0x1.8p3``), ``inf``/``infinity``,
#: ``nan`` (the rest of ``infinity`` and ``nan(chars)`` changes nothing), else a decimal one; the engines' Linux builds read config numbers with it.
_FLOAT = re.compile(
    r'\s*(?P<sign>[+-]?)(?:(?P<hex>0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?)'
    r'|(?P<inf>(?i:inf))|(?P<nan>(?i:nan))|(?P<decimal>(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?))'
)


def _integer(value: object) -> int:
    """A word as CubeScript's ``parseint`` reads it: C's ``strtoul``, base 0 (``0x1f``, ``010`` octal; no number: 0;
    past ``ULONG_MAX``: ``ULONG_MAX``), then an ``int`` of 32 bits, as the engine keeps it (``-1`` for ``ULONG_MAX``)."""
    match = _INTEGER.match(_text(value))
    if match is None:
        return 0
    sign, digits = match.groups()
    base = 16 if digits[1:2] in ('x', 'X') else (8 if digits[0] == '0' else 10)
    number = int(digits, base)  # int takes C's 0x prefix too
    if number > _ULONG_MAX:
        number = _ULONG_MAX  # out of range, either sign: strtoul's ULONG_MAX
    elif sign == '-':
        number = -number
    return (number + 2**31) % 2**32 - 2**31


def _float(value: object) -> float:
    """A word as CubeScript's ``parsefloat`` reads it (C's ``strtod`` of its start; no number: 0)."""
    match = _FLOAT.match(_text(value))
    if match is None:
        return 0.0
    if match['hex'] is not None:
        try:
            number = float.fromhex(match['hex'])  # its exponent optional, as strtod's
        except OverflowError:  # past the largest double: strtod's HUGE_VAL
            number = math.inf
    else:
        number = math.inf if match['inf'] is not None else (math.nan if match['nan'] is not None else float(match['decimal']))
    return -number if match['sign'] == '-' else number


def _word(args: Sequence[str], at: int) -> str:
    """A command's word ``at``, empty past its last word: the engine runs a command short of words with the rest empty."""
    return args[at] if len(args) > at else ''


def _text(value: object) -> str:
    """A value as CubeScript passes it on: a comparison's truth as ``1`` or ``0``."""
    return str(int(value)) if isinstance(value, bool) else str(value)


def _format(args: list) -> str:
    """CubeScript's ``format``: ``%1`` to ``%9`` the arguments after the pattern (missing ones empty), ``%x`` ``x``."""
    if not args:
        return ''
    return re.sub(
        r'%(.?)',
        lambda m: (_text(args[int(m[1])]) if int(m[1]) < len(args) else '') if m[1] in '123456789' and m[1] else m[1],
        _text(args[0]),
        flags=re.DOTALL,
    )


def _compare(test: Callable[[float, float], bool], number: Callable[[object], float]) -> Callable[[list], object]:
    return lambda a: test(number(a[0]) if a else 0, number(a[1]) if len(a) > 1 else 0)


#: The CubeScript commands an expression may use, each a function of its evaluated arguments: the string and
#: number comparisons (``=``, ``<=``... on integers, ``=f``... on floats), ``!``, ``format``, ``concat``, ``concatword``.
_CONDITIONS: dict[str, Callable[[list], object]] = {
    'strcmp': lambda a: len(a) >= 2 and str(a[0]) == str(a[1]),
    'stringcmp': lambda a: len(a) >= 2 and str(a[0]) == str(a[1]),
    '=s': lambda a: len(a) >= 2 and str(a[0]) == str(a[1]),
    '!=s': lambda a: len(a) >= 2 and str(a[0]) != str(a[1]),
    '!': lambda a: not _true(a[0]) if a else True,
    'format': _format,
    'concat': lambda a: ' '.join(map(_text, a)),
    'concatword': lambda a: ''.join(map(_text, a)),
}
for _suffix, _number_of in (('', _integer), ('f', _float)):
    for _name, _test in (('=', operator.eq), ('!=', operator.ne), ('<', operator.lt), ('>', operator.gt), ('<=', operator.le), ('>=', operator.ge)):
        _CONDITIONS[_name + _suffix] = _compare(_test, _number_of)


class UnknownConditionError(Exception):
    """A condition that names what pyvista-quake does not know (another variable, a command of the engine's)."""


def _true(value: object) -> bool:
    """CubeScript's truth: a number not 0, a string not empty (and not ``0``)."""
    if isinstance(value, bool):
        return value
    text = str(value).strip()
    try:
        return float(text) != 0
    except ValueError:
        return bool(text)


def evaluate(words: list[str], variables: dict[str, Callable[[], str | None]], depth: int = 0) -> object:
    """The value of a CubeScript command given as words (blocks as their text): ``strcmp (mdlname) "x"``.

    Raises
    ------
    UnknownConditionError
        For a variable or command it does not know, a variable whose value cannot be told, or commands
        nested deeper than :data:`MAX_NESTING` (``depth`` counts them).

    """
    if depth > MAX_NESTING:
        raise UnknownConditionError(f'its commands nest deeper than {MAX_NESTING}')
    if not words:
        return ''
    if len(words) == 1 and words[0].startswith('(') and words[0].endswith(')'):
        return evaluate(_split(words[0][1:-1]), variables, depth + 1)  # ( … ): the command inside, run
    name, args = words[0], words[1:]

    def value(word: str) -> object:
        if word.startswith('(') and word.endswith(')'):
            return evaluate(_split(word[1:-1]), variables, depth + 1)
        return _lookup(word[1:], variables) if word.startswith('$') else word

    if name in ('||', '&&'):
        results = (_true(evaluate(_split(a), variables, depth + 1)) for a in args)  # each operand a block or (...) run lazily
        return any(results) if name == '||' else all(results)
    if name in variables:
        found = variables[name]()
        if found is None:
            raise UnknownConditionError(f'{name} is not known here')
        return found
    if name in _CONDITIONS:
        return _CONDITIONS[name]([value(a) for a in args])
    if re.fullmatch(r'-?\d+(\.\d*)?', name) and not args:
        return name
    raise UnknownConditionError(f'{name!r} is a command pyvista-quake does not run')


def _lookup(name: str, variables: dict[str, Callable[[], str | None]]) -> str:
    """``$name``: the value of an alias the config set (or of a variable ``variables`` knows)."""
    found = variables[name]() if name in variables else None
    if found is None:
        raise UnknownConditionError(f'${name} is not known here')
    return found


def _words(args: tuple[str, ...], variables: dict[str, Callable[[], str | None]]) -> tuple[str, ...]:
    """A command's words as the engine passes them: each ``( … )`` run (it may span several words), each ``$alias`` looked up.

    Raises
    ------
    UnknownConditionError
        For what :func:`evaluate` cannot tell.

    """
    out: list[str] = []
    at = 0
    while at < len(args):
        word = args[at]
        if word.startswith('('):
            end = _group_end(args, at)
            end = len(args) - 1 if end is None else end  # never closed: the evaluation says so
            out.append(_text(evaluate(_split(_joined(args[at : end + 1])), variables)))
            at = end + 1
        else:
            out.append(_lookup(word[1:], variables) if word.startswith('$') else word)
            at += 1
    return tuple(out)


def _split(text: str) -> list[str]:
    """A command's words from its text: strings unquoted, ``[blocks]`` and ``(…)`` groups kept whole."""
    words: list[str] = []
    depth, start = 0, 0
    token = re.compile(r'"([^"\n]*)"?|([\[(])|([\])])|(\S+?)(?=[\s\[\]()"]|$)|\s+')
    for match in token.finditer(text.strip()):
        string, opening, closing, word = match.groups()
        if depth:
            if opening:
                depth += 1
            elif closing:
                depth -= 1
                if not depth:
                    inner = text.strip()[start : match.start()]
                    words.append(f'({inner})' if match.group(3) == ')' else inner)
            continue
        if opening:
            depth, start = 1, match.end()
        elif string is not None:
            words.append(string)
        elif word is not None:
            words.append(word)
    if depth:
        raise UnknownConditionError('a [ or ( is never closed')
    return words


def image_name(name: str) -> str:
    """A texture command's image name without its loading prefixes (``<dds>skin.png`` is ``skin.png``)."""
    return _PREFIX.sub('', name.strip())


@dataclass
class ModelConfig:
    """What a model config gives, its file names as written (each with the folder it is relative to).

    Attributes
    ----------
    source : str
        The config.
    meshes : list of (str, str)
        ``(folder, file)`` of each ``iqmload``/``md5load``.
    skins : dict of str to (str, str)
        Each mesh's (``*``: every mesh's) image, ``(folder, name)``.
    animations : list of (list of Played, str, str)
        ``(played, folder, file)`` of each ``iqmanim``/``md5anim`` (``a|b`` plays under several names).
    tags : list of (str, str, tuple of float)
        ``(joint, tag, offset)`` of each ``iqmtag``/``md5tag``: the offset ``tx ty tz rx ry rz`` (degrees) from the joint.

    """

    source: str
    meshes: list[tuple[str, str]] = field(default_factory=list)
    skins: dict[str, tuple[str, str]] = field(default_factory=dict)
    animations: list[tuple[list[Played], str, str]] = field(default_factory=list)
    tags: list[tuple[str, str, tuple[float, ...]]] = field(default_factory=list)


def _condition(args: tuple[str, ...]) -> tuple[str, list[str]]:
    """An ``if``'s condition as text, and its then and else blocks: the condition may be a ``( … )`` over several words."""
    end = _group_end(args, 0)
    if end is None:
        return ' '.join(args), []  # never closed: the evaluation says so
    return _joined(args[: end + 1]), list(args[end + 1 :])


def _group_end(args: tuple[str, ...], at: int) -> int | None:
    """The last word of the ``( … )`` that word ``at`` starts (a word with no parenthesis is one); ``None``: never closed."""
    depth = 0
    for end in range(at, len(args)):
        if end > at and _is_block(args[end]):
            continue  # a string or [block] inside: its parentheses are its own
        depth += args[end].count('(') - args[end].count(')')
        if depth <= 0:
            return end
    return None


def _joined(words: tuple[str, ...]) -> str:
    """Words as one text again, the blocks after the first in their brackets."""
    return ' '.join([words[0], *(f'[{a}]' if _is_block(a) else a for a in words[1:])])


def _is_block(word: str) -> bool:
    return ' ' in word or '\n' in word


def _short(command: Command, source: str, takes: str, outcome: str) -> None:
    """Warn of a command the engine runs with empty words for those it lacks, and does nothing with."""
    count = len(command.args)
    warn_external(f'{source}: line {command.line}: {command.name} takes {takes}, has {count} word{"" if count == 1 else "s"}; {outcome}')


def _need(command: Command, source: str, count: int) -> None:
    if len(command.args) < count:
        raise QuakeFormatError(source, f'line {command.line}', command.name, f'takes at least {count} arguments, has {len(command.args)}')


#: The prefixes of the model commands a config runs (``iqmanim``, ``md5load``, ``smdskin``...).
_MODEL_PREFIXES = ('iqm', 'md5', 'smd')
#: A model command or an exec at the start of a line of a block.
_MODEL_COMMAND = re.compile(r'(?m)^[ \t;]*(?:(?:iqm|md5|smd)(?:anim|load|skin|tag|dir)|exec)\b')
#: The kinds of model command :func:`interpret` runs (the others change how the engine draws the model).
_RUN = frozenset({'anim', 'dir', 'load', 'skin', 'tag'})


def interpret(
    commands: list[Command],
    source: str,
    folder: str,
    run: Callable[[str], tuple[str, str] | None],
    depth: int = 0,
    into: ModelConfig | None = None,
    variables: dict[str, Callable[[], str | None]] | None = None,
) -> ModelConfig:
    """Run a config's commands: ``folder`` is the model's directory, ``run(name)`` gives ``(source, text)`` of an ``exec``'s file.

    ``variables`` gives what conditions may ask (``{'mdlname': ...}``: the model's name as the engine
    loads it, ``actors/player/male``); each returns ``None`` when it cannot tell.  The aliases the config
    sets (``bandit_type = 2``, ``alias name value``) are added to it, for the ``$name`` of what runs after.
    A command's ``( … )`` words are run and its ``$name`` words looked up before it runs; one that cannot
    be told is skipped with a warning, as an ``if`` is.

    Raises
    ------
    QuakeFormatError
        For an ``*load`` or ``*dir`` missing its file or folder.  Other commands
        short of words are run as the engine runs them (its missing words empty): a bare ``exec`` and a tag with no
        name do nothing; an ``anim`` or ``skin`` without its file is left out with a warning.  Numbers are read
        as the engine reads them: a word that is no number is 0.

    """
    config = into if into is not None else ModelConfig(source)
    variables = {} if variables is None else variables  # the aliases a config sets go here, seen by what it runs next
    directory = folder
    for command in commands:
        name, args = command.name, command.args
        # iqmanim, md5anim, smdanim: one command of each kind (the bare kind, "anim", is another command).
        kind = name[3:] if name[:3] in _MODEL_PREFIXES else ''
        assigns = bool(args) and (args[0] == '=' or name == 'alias')  # "name = value", "alias name value"
        if command.dynamic and (kind in _RUN or name == 'exec' or assigns):
            try:
                args = _words(args, variables)
            except UnknownConditionError as why:
                warn_external(f'{source}: line {command.line}: skipped "{name} {" ".join(args)}": {why}')
                continue
        if assigns:  # CubeScript's aliases
            target = name if args[0] == '=' else args[0]  # either way the value is the word after
            variables[target] = functools.partial(str, _word(args, 1))
            continue
        if kind == 'anim':
            if len(args) < 2:  # the engine finds no animation of no name, and no file of none: it loads the model without
                _short(command, source, 'an animation name and its file', 'left out, as the game leaves it out')
                continue
            # As the engine reads them ("ssfiii"): the rate by parsefloat, the offsets by parseint (no number: 0).
            fps, start, end = _float(_word(args, 2)), _integer(_word(args, 4)), _integer(_word(args, 5))
            if not math.isfinite(fps):  # 1e999 frames a second: no rate anything can play at
                warn_external(f"{source}: line {command.line}: {name}'s frame rate {args[2]} is no finite number; the file's own rate is used")
                fps = 0.0
            file, _, clip = args[1].partition(':')
            played = [Played(n, fps if fps > 0 else None, start, end, clip or None) for n in args[0].split('|') if n]
            config.animations.append((played, directory, file))
        elif name == 'exec' and depth < MAX_EXEC_DEPTH:
            found = run(args[0]) if args else None  # a bare exec runs nothing, as the engine's finds no file
            if found is not None:
                interpret(parse(found[1], found[0]), found[0], directory, run, depth + 1, config, variables)
        elif name == 'if' and depth < MAX_EXEC_DEPTH:
            condition, bodies = _condition(args)
            try:
                verdict = _true(evaluate(_split(condition), variables))
            except UnknownConditionError as why:
                warn_external(f'{source}: line {command.line}: skipped "if {condition}": {why}; neither of its blocks was run')
                continue
            branch = 0 if verdict else 1  # then, else: either may be missing (an if with no blocks runs nothing)
            body = bodies[branch] if branch < len(bodies) else ''
            lines = [c.moved(command.line - 1) for c in parse(body, source)]
            interpret(lines, source, directory, run, depth + 1, config, variables)
        elif kind == 'dir':
            _need(command, source, 1)
            directory = '\0' + args[0]  # from the game's root
        elif kind == 'load':
            _need(command, source, 1)
            config.meshes.append((directory, args[0]))
        elif kind == 'skin':
            if len(args) < 2:
                _short(command, source, 'a mesh and its image', 'skipped (the game draws that mesh with no image)')
                continue
            config.skins[args[0]] = (directory, image_name(args[1]))
        elif kind == 'tag':
            if len(args) < 2:  # a joint and no tag name (Red Eclipse's weapons have some): the engine adds a tag nothing can name
                continue
            offset = tuple(_float(_word(args, at)) for at in range(2, 8))  # parsefloat's: no number (or no word) is 0
            config.tags.append((args[0], args[1], offset))
        elif command.hides and not kind and name not in ('if', 'exec'):
            # A loop or an engine command of its own over a block: the model commands inside are lost, and said so.
            shown = ' '.join('[…]' if _is_block(a) else a for a in args)
            warn_external(
                f'{source}: line {command.line}: skipped "{name} {shown}": {name!r} is a command pyvista-quake does '
                'not run; the model commands in its block were not run'
            )
    return config
