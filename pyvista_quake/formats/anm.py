"""UFO: Alien Invasion's ``.anm`` files: named frame ranges of the model beside them.

One ``name start end fps`` a line (``start`` and ``end`` inclusive frame
numbers, ``fps`` 0 for a held pose); ``//`` starts a comment.
"""

from __future__ import annotations

from dataclasses import dataclass
import math

from pyvista_quake._base.errors import QuakeFormatError


@dataclass(frozen=True)
class AnmLine:
    """One animation of a ``.anm`` file."""

    name: str
    start: int
    end: int
    fps: float
    line: int = 0


def parse(text: str, source: str = '<anm>') -> list[AnmLine]:
    """Each animation line of a ``.anm`` file, in file order.

    Raises
    ------
    QuakeFormatError
        For a line that is not four fields, numbers that are not numbers, an
        end before its start, or an fps below 0; the message names the line.

    """
    out: list[AnmLine] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split('//', 1)[0].strip()
        if not line:
            continue
        fields = line.split()
        where = f'line {number}'
        if len(fields) != 4:
            raise QuakeFormatError(source, where, raw.strip(), 'expected "name start end fps"')
        name, start_text, end_text, fps_text = fields
        try:
            start, end, fps = int(start_text), int(end_text), float(fps_text)
        except ValueError:
            raise QuakeFormatError(source, where, raw.strip(), 'start and end must be integers, fps a number') from None
        if not 0 <= start <= end:
            raise QuakeFormatError(source, where, raw.strip(), f'frame range {start}..{end} is empty or negative')
        if not math.isfinite(fps) or fps < 0:
            raise QuakeFormatError(source, where, raw.strip(), 'fps must be a number, 0 or more')
        out.append(AnmLine(name, start, end, fps, number))
    return out


def write(lines: list[AnmLine]) -> str:
    """The text of a ``.anm`` file that :func:`parse` reads back as ``lines`` (their line numbers aside)."""
    return ''.join(f'{a.name}\t{a.start}\t{a.end}\t{a.fps:g}\n' for a in lines)
