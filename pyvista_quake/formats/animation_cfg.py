"""Quake III's ``animation.cfg``: a player's animations, read as ``CG_ParseAnimationFile`` reads them.

Keyword lines (``sex``, ``footsteps``, ``headoffset``, ``fixedlegs``,
``fixedtorso``), then four numbers per animation in the fixed order of
``bg_public.h``.  :func:`parse` gives an :class:`AnimationConfig`;
:func:`write` gives the text back.
"""

from __future__ import annotations

from dataclasses import dataclass
import math
import re
from typing import Any

import numpy as np

from pyvista_quake._base.errors import QuakeFormatError

#: The animations of ``animation.cfg``, in the file's fixed order (``bg_public.h animNumber_t``).
ANIMATION_NAMES = (
    'BOTH_DEATH1',
    'BOTH_DEAD1',
    'BOTH_DEATH2',
    'BOTH_DEAD2',
    'BOTH_DEATH3',
    'BOTH_DEAD3',
    'TORSO_GESTURE',
    'TORSO_ATTACK',
    'TORSO_ATTACK2',
    'TORSO_DROP',
    'TORSO_RAISE',
    'TORSO_STAND',
    'TORSO_STAND2',
    'LEGS_WALKCR',
    'LEGS_WALK',
    'LEGS_RUN',
    'LEGS_BACK',
    'LEGS_SWIM',
    'LEGS_JUMP',
    'LEGS_LAND',
    'LEGS_JUMPB',
    'LEGS_LANDB',
    'LEGS_IDLE',
    'LEGS_IDLECR',
    'LEGS_TURN',
    # Team Arena's (missionpack): a file without them gets TORSO_GESTURE's numbers.
    'TORSO_GETFLAG',
    'TORSO_GUARDBASE',
    'TORSO_PATROL',
    'TORSO_FOLLOWME',
    'TORSO_AFFIRMATIVE',
    'TORSO_NEGATIVE',
)
MISSIONPACK = ANIMATION_NAMES[ANIMATION_NAMES.index('TORSO_GETFLAG') :]
#: The file's name, beside a player's parts.
CONFIG_NAME = 'animation.cfg'


@dataclass(frozen=True)
class PlayerAnimation:
    """One line of ``animation.cfg``, as ``CG_ParseAnimationFile`` keeps it.

    Attributes
    ----------
    first : int
        First frame, in the part's own file (``LEGS_*`` already shifted down, see :func:`parse`).
    count : int
        Number of frames.
    looping : int
        How many of the last frames loop (0: the animation holds its last frame).
    fps : float
        Frames a second (0 in the file is 1).
    reversed : bool
        Played backwards (a negative count in the file).

    """

    first: int
    count: int
    looping: int
    fps: float
    reversed: bool = False

    def frame_at(self, time: float) -> tuple[int, int, float]:
        """``(frame, next frame, blend)`` at ``time`` seconds, looping as ``CG_RunLerpFrame`` loops."""
        steps = max(float(time), 0.0) * self.fps
        k = int(np.floor(steps))
        return self._frame(k), self._frame(k + 1), steps - k

    def _frame(self, k: int) -> int:
        count = max(self.count, 1)
        if k >= count:
            k -= count
            k = k % self.looping + count - self.looping if self.looping else count - 1
            k = min(k, count - 1)
        return self.first + (count - 1 - k if self.reversed else k)


@dataclass(frozen=True)
class AnimationConfig:
    """What ``animation.cfg`` says: the animations and the keyword lines."""

    animations: dict[str, PlayerAnimation]
    sex: str = 'm'
    footsteps: str = 'default'
    head_offset: tuple[float, float, float] = (0.0, 0.0, 0.0)
    fixed_legs: bool = False
    fixed_torso: bool = False


_TOKENS = re.compile(r'//[^\n]*|/\*.*?\*/|(\S+)', re.DOTALL)


def parse(text: str, source: str = 'animation.cfg') -> AnimationConfig:
    """Parse ``animation.cfg`` as ``CG_ParseAnimationFile`` does.

    Keyword lines first (``sex``, ``footsteps``, ``headoffset``,
    ``fixedlegs``, ``fixedtorso``; ``//`` and ``/* */`` comments), then four
    numbers per animation in :data:`ANIMATION_NAMES` order.  The numbers count
    the frames of ``upper.md3`` and ``lower.md3`` together: ``LEGS_*`` first
    frames are shifted down by ``LEGS_WALKCR.first - TORSO_GESTURE.first`` to
    index ``lower.md3``.  Team Arena's extra lines, when missing, take
    ``TORSO_GESTURE``'s numbers.

    Raises
    ------
    QuakeFormatError
        If an animation before the missionpack ones is missing or not a number.

    """
    tokens = [m.group(1) for m in _TOKENS.finditer(text) if m.group(1)]
    position = 0
    keywords: dict[str, Any] = {}
    while position < len(tokens) and not tokens[position][0].isdigit() and tokens[position][0] != '-':
        word = tokens[position].lower()
        position += 1
        if word in ('sex', 'footsteps') and position < len(tokens):
            keywords[word] = tokens[position].lower()
            position += 1
        elif word == 'headoffset':
            values = tokens[position : position + 3]
            keywords['head_offset'] = tuple(_number(v, source, 'headoffset') for v in values) + (0.0,) * (3 - len(values))
            position += len(values)
        elif word in ('fixedlegs', 'fixedtorso'):
            keywords['fixed_legs' if word == 'fixedlegs' else 'fixed_torso'] = True
    animations: dict[str, PlayerAnimation] = {}
    skip = 0
    for name in ANIMATION_NAMES:
        numbers = tokens[position : position + 4]
        if len(numbers) < 4:
            if name in MISSIONPACK and 'TORSO_GESTURE' in animations:
                animations[name] = animations['TORSO_GESTURE']
                continue
            raise QuakeFormatError(source, name, ' '.join(numbers) or '(missing)', 'four numbers expected (first, count, looping, fps)')
        position += 4
        first, count, looping = (int(_number(v, source, name)) for v in numbers[:3])
        fps = _number(numbers[3], source, name) or 1.0
        if name == 'LEGS_WALKCR':
            skip = first - animations['TORSO_GESTURE'].first
        if name.startswith('LEGS_'):
            first -= skip
        animations[name] = PlayerAnimation(first, abs(count), looping, fps, count < 0)
    # As cgame adds them: walking and crouching backwards are the forward ones reversed.
    animations['LEGS_BACKCR'] = PlayerAnimation(**{**animations['LEGS_WALKCR'].__dict__, 'reversed': True})
    animations['LEGS_BACKWALK'] = PlayerAnimation(**{**animations['LEGS_WALK'].__dict__, 'reversed': True})
    sex = str(keywords.get('sex', 'm'))[:1]
    return AnimationConfig(
        animations,
        'f' if sex == 'f' else 'n' if sex == 'n' else 'm',
        keywords.get('footsteps', 'default'),
        keywords.get('head_offset', (0.0, 0.0, 0.0)),
        keywords.get('fixed_legs', False),
        keywords.get('fixed_torso', False),
    )


def _number(token: str, source: str, field: str) -> float:
    try:
        value = float(token)
    except ValueError:
        raise QuakeFormatError(source, field, token, 'not a number') from None
    if not math.isfinite(value):
        raise QuakeFormatError(source, field, token, 'not a finite number')
    return value
