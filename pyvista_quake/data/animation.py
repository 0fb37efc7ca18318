"""Animations of a Quake model: which frames play, and when.

A model file has no list of animations.  They come from, each source
overriding the one before:

1. frame names: contiguous frames sharing the part before the trailing
   digits (``stand01..stand40`` is ``stand``);
2. MDL frame groups, with their own intervals;
3. a sidecar ``.anm`` file beside the model (UFO: Alien Invasion);
4. a mapping the caller passes.

This module works on frame names, frame groups and text; it knows nothing
of byte layouts or PyVista.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
import re
from typing import Iterable
from typing import Mapping

import numpy as np

from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake._base.options import DEFAULT_FPS
from pyvista_quake._base.warnings import warn_external
from pyvista_quake.formats import anm as anm_file
from pyvista_quake.formats.records import FrameGroup

_TRAILING_DIGITS = re.compile(r'^(.*?)(\d*)$', re.DOTALL)


@dataclass(frozen=True)
class Animation:
    """One animation: frames in play order with their start times.

    Attributes
    ----------
    name : str
        The animation's key in :attr:`QuakeModel.animations`.
    frames : numpy.ndarray
        Frame indices into the model, in play order.
    times : numpy.ndarray
        Start time of each frame in seconds from the animation's start;
        strictly increasing, ``times[0] == 0``.
    duration : float
        Seconds until the animation ends (and, looping, starts again).
    fps : float or None
        Frames per second, for an animation played at a fixed rate.
    source : str
        Where it came from: ``'names'``, ``'group'``, ``'anm'``, ``'animation.cfg'`` (a player's part) or ``'user'``.

    """

    name: str
    frames: np.ndarray
    times: np.ndarray
    duration: float
    fps: float | None = None
    source: str = 'names'

    def __len__(self) -> int:
        """Return the number of frames."""
        return len(self.frames)

    @classmethod
    def at_fps(cls, name: str, frames: Iterable[int], fps: float, source: str) -> Animation:
        """Make an animation that plays ``frames`` at ``fps`` frames per second."""
        if not (np.isfinite(fps) and fps > 0):
            raise ValueError(f'animation {name!r}: fps must be a positive number, not {fps!r}')
        frames = np.asarray(list(frames), dtype=np.int64)
        times = np.arange(len(frames)) / float(fps)
        return cls(name, frames, times, len(frames) / float(fps), float(fps), source)

    @classmethod
    def from_end_times(cls, name: str, frames: Iterable[int], end_times: np.ndarray, source: str) -> Animation:
        """Make an animation whose k-th frame ends at ``end_times[k]`` (MDL group intervals)."""
        frames = np.asarray(list(frames), dtype=np.int64)
        end_times = np.asarray(end_times, dtype=np.float64)
        times = np.concatenate([[0.0], end_times[:-1]])
        return cls(name, frames, times, float(end_times[-1]), None, source)


def name_prefix(frame_name: str) -> str:
    """Return the part of a frame name before its trailing digits (``'stand'`` for ``'stand01'``)."""
    return _TRAILING_DIGITS.match(frame_name).group(1)  # type: ignore[union-attr]


def unique_key(name: str, taken: Mapping[str, object]) -> str:
    """``name``, or ``name_2``, ``name_3``... whichever is not taken yet."""
    if name not in taken:
        return name
    k = 2
    while f'{name}_{k}' in taken:
        k += 1
    return f'{name}_{k}'


def group_by_name(frame_names: list[str], fps: float = DEFAULT_FPS) -> dict[str, Animation]:
    """Group contiguous frames that share a name prefix.

    A prefix that comes back after another run gets a key of its own
    (``stand``, then ``stand_2``).  Frames whose names are only digits (or
    empty) are grouped under ``'frame'``.
    """
    animations: dict[str, Animation] = {}
    start = 0
    for end in range(1, len(frame_names) + 1):
        if end < len(frame_names) and name_prefix(frame_names[end]) == name_prefix(frame_names[start]):
            continue
        prefix = name_prefix(frame_names[start]) or 'frame'
        key = unique_key(prefix, animations)
        animations[key] = Animation.at_fps(key, range(start, end), fps, 'names')
        start = end
    return animations


#: Frame-group timing conventions: WinQuake's end times, or the GL engines' first interval for every pose.
GROUP_TIMINGS = ('winquake', 'glquake')


def group_end_times(intervals: np.ndarray, timing: str = 'winquake') -> np.ndarray:
    """When each pose of a frame group ends, in seconds from the group's start.

    ``'winquake'``: the intervals themselves (``r_alias.c R_AliasSetupFrame``
    picks the first pose whose interval is past the time).  ``'glquake'``:
    every pose lasts ``intervals[0]``, as GLQuake (``gl_rmain.c
    R_SetupAliasFrame``), QuakeSpasm and ezQuake play groups.
    """
    intervals = np.asarray(intervals, np.float64)
    if timing == 'glquake':
        return intervals[0] * np.arange(1, len(intervals) + 1)
    return intervals


def group_animations(groups: list[FrameGroup], frame_names: list[str], source: str, timing: str = 'winquake') -> dict[str, Animation]:
    """One animation per MDL frame group, timed by the group's intervals (see :func:`group_end_times`).

    A group whose end times are not positive and increasing (WinQuake refuses
    it) plays at :data:`DEFAULT_FPS` instead, with a warning.
    """
    animations: dict[str, Animation] = {}
    for group in groups:
        frames = range(group.start, group.start + group.count)
        key = unique_key(name_prefix(frame_names[group.start]) or 'group', animations)
        ends = group_end_times(group.intervals, timing)
        if np.all(np.isfinite(ends)) and ends[0] > 0 and np.all(np.diff(ends) > 0):
            animations[key] = Animation.from_end_times(key, frames, ends, 'group')
        else:
            warn_external(
                f'{source}: frame group at frame {group.start} has intervals {ends.tolist()} that do not '
                f'increase from above 0; playing it at {DEFAULT_FPS:g} fps'
            )
            animations[key] = Animation.at_fps(key, frames, DEFAULT_FPS, 'group')
    return animations


def parse_anm(text: str, num_frames: int, source: str = '<anm>') -> dict[str, Animation]:
    """Parse a UFO: Alien Invasion ``.anm`` file: ``name start end fps`` lines.

    ``start`` and ``end`` are inclusive frame numbers; ``//`` starts a comment.

    Raises
    ------
    QuakeFormatError
        For a line that is not four fields, or a range outside the model's frames.

    """
    animations: dict[str, Animation] = {}
    for entry in anm_file.parse(text, source):
        if entry.end >= num_frames:
            raise QuakeFormatError(
                source,
                f'line {entry.line}',
                f'{entry.name} {entry.start} {entry.end} {entry.fps:g}',
                f"frame range {entry.start}..{entry.end} outside the model's 0..{num_frames - 1}",
            )
        frames = range(entry.start, entry.end + 1)
        if entry.fps == 0:
            # UFO: AI writes fps 0 for a held pose (``dead1 83 83 0``): no rate of its own.
            held = Animation.at_fps(entry.name, frames, DEFAULT_FPS, 'anm')
            animations[entry.name] = Animation(entry.name, held.frames, held.times, held.duration, None, 'anm')
        else:
            animations[entry.name] = Animation.at_fps(entry.name, frames, entry.fps, 'anm')
    return animations


def sidecar_anm(model_path: str | Path) -> Path | None:
    """Return the ``.anm`` file beside a model (same stem), if there is one."""
    path = Path(model_path)
    for candidate in (path.with_suffix('.anm'), path.with_suffix('.ANM')):
        if candidate.is_file():
            return candidate
    return None


def user_animations(mapping: Mapping, num_frames: int, fps: float = DEFAULT_FPS) -> dict[str, Animation]:
    """Animations a caller passes: ``{name: frames}`` or ``{name: (frames, times)}``.

    ``frames`` is any iterable of frame numbers; ``times`` are start times in
    seconds (strictly increasing), the last frame lasting as long as the one
    before it.  An :class:`Animation` is taken as it is.
    """
    animations: dict[str, Animation] = {}
    for name, spec in mapping.items():
        if isinstance(spec, Animation):
            frames, anim = spec.frames, spec
        elif isinstance(spec, tuple) and len(spec) == 2:
            frames = np.asarray(list(spec[0]), np.int64)
            times = np.asarray(spec[1], np.float64)
            if times.shape != frames.shape or len(times) == 0 or times[0] != 0 or np.any(np.diff(times) <= 0):
                raise ValueError(f'animation {name!r}: times must start at 0, increase, one per frame')
            step = times[-1] - times[-2] if len(times) > 1 else 1 / fps
            anim = Animation(name, frames, times, float(times[-1] + step), None, 'user')
        else:
            anim = Animation.at_fps(name, spec, fps, 'user')
            frames = anim.frames
        frames = np.asarray(frames)
        if len(frames) == 0:
            raise ValueError(f'animation {name!r} has no frames')
        if frames.min() < 0 or frames.max() >= num_frames:
            raise ValueError(f"animation {name!r}: frames outside the model's 0..{num_frames - 1}")
        animations[name] = anim
    return animations


def timeline(num_frames: int, groups: list[FrameGroup], fps: float = DEFAULT_FPS, timing: str = 'winquake') -> tuple[np.ndarray, float]:
    """Start time of every frame of the whole file, and the file's total duration.

    Single frames last ``1 / fps``; the pictures of a frame group last as
    their end times say (see :func:`group_end_times`; ``1 / fps`` where those
    are unusable).  Each time is computed from its frame's index (``k / fps``
    plus whole groups), not summed frame by frame, so no rounding accumulates.
    """
    group_time = np.zeros(num_frames)  # seconds of group frames before each frame
    in_group = np.zeros(num_frames, bool)
    offsets = np.zeros(num_frames)  # a group frame's start within its group
    for group in groups:
        members = slice(group.start, group.start + group.count)
        ends = group_end_times(group.intervals, timing)
        steps = np.diff(np.concatenate([[0.0], ends]))
        if not (np.all(np.isfinite(steps)) and np.all(steps > 0)):
            continue
        in_group[members] = True
        offsets[members] = np.concatenate([[0.0], ends[:-1]])
        group_time[group.start + group.count :] += ends[-1]
    singles_before = np.cumsum(~in_group) - ~in_group  # whole numbers: exact
    starts = singles_before / fps + group_time + offsets
    duration = float(np.count_nonzero(~in_group) / fps + (group_time[-1] if num_frames else 0.0))
    if num_frames and in_group[-1]:
        last = next(g for g in groups if g.start + g.count == num_frames)
        duration = float(starts[last.start] + group_end_times(last.intervals, timing)[-1])
    return starts, duration


def entries(num_frames: int, groups: list[FrameGroup]) -> list[range]:
    """The frames as the game numbers them: a frame group is one entry, its frames a range; each other frame one."""
    starts = {g.start: g.count for g in groups}
    out, frame = [], 0
    while frame < num_frames:
        count = max(starts.get(frame, 1), 1)
        out.append(range(frame, frame + count))
        frame += count
    return out


def sample(times: np.ndarray, duration: float, t: float, *, loop: bool = True) -> tuple[int, int, float]:
    """Find the two frames around time ``t`` and the blend between them.

    Returns ``(k, k_next, alpha)`` as positions in ``times``: the pose is
    ``(1 - alpha) * pose[k] + alpha * pose[k_next]``.  Looping, the last frame
    blends into the first; otherwise time is clamped to the ends.
    """
    n = len(times)
    if loop:
        t = float(np.mod(t, duration)) if duration > 0 else 0.0
    else:
        t = float(np.clip(t, 0.0, times[-1]))
    k = int(np.searchsorted(times, t, side='right') - 1)
    k = min(max(k, 0), n - 1)
    end = times[k + 1] if k + 1 < n else duration
    span = end - times[k]
    alpha = (t - times[k]) / span if span > 0 else 0.0
    k_next = k + 1 if k + 1 < n else (0 if loop else k)
    return k, k_next, float(min(max(alpha, 0.0), 1.0))


#: Animation names that start a model's rest pose (any letter case).
REST_PREFIXES = ('stand', 'idle')


def rest_animation(animations: Mapping[str, Animation]) -> str | None:
    """The name of a model's rest animation: its first named ``stand...`` or ``idle...`` (any letter case), if any."""
    for name, clip in animations.items():
        if name.lower().startswith(REST_PREFIXES) and len(clip.frames):
            return name
    return None


def rest_frame(animations: Mapping[str, Animation]) -> int:
    """The frame of a model's rest pose: the first frame of its :func:`rest_animation`, else frame 0."""
    name = rest_animation(animations)
    return 0 if name is None else int(animations[name].frames[0])


def model_animations(
    frame_names: list[str],
    groups: list[FrameGroup],
    fps: float,
    anm: tuple[str, str] | None,
    user: Mapping,
    source: str,
    timing: str = 'winquake',
) -> dict[str, Animation]:
    """Animations by name: from frame names, MDL frame groups, a ``.anm`` file and the caller.

    Each source overrides the one before: a frame group replaces the
    name-based animation of its frames, a ``.anm`` or caller entry replaces
    one of the same name.
    """
    n = len(frame_names)
    # Every frame named alike (UFO: AI's 'FRAME 000......') names no animation.
    found = group_by_name(frame_names, fps) if n < 2 or len(set(frame_names)) > 1 else {}
    if groups:
        in_group = np.zeros(n, bool)
        for group in groups:
            in_group[group.start : group.start + group.count] = True
        found = {k: a for k, a in found.items() if not in_group[a.frames].any()}
        for key, value in group_animations(groups, frame_names, source, timing).items():
            found[unique_key(key, found)] = value
    if anm is not None:
        name, text = anm
        found.update(parse_anm(text, n, name))
    found.update(user_animations(user, n, fps))
    return found


def blend(positions: np.ndarray, normals: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """The pose between two frames as the renderers draw it: positions linearly, normals linearly then renormalised.

    ``positions`` and ``normals`` hold the two frames first: ``(2, points, 3)``.
    """
    points = (positions[0] + np.float32(alpha) * (positions[1] - positions[0])).astype(np.float32)
    mixed = (1 - alpha) * normals[0] + alpha * normals[1]
    length = np.linalg.norm(mixed, axis=1, keepdims=True)
    return points, np.divide(mixed, length, out=np.array(normals[0], copy=True), where=length > 1e-6).astype(np.float32)


def tag_matrix(origin: np.ndarray, axes: np.ndarray) -> np.ndarray:
    """A 4 x 4 matrix of a tag: rows of ``axes`` are its x, y, z axes; ``matrix @ [p, 1] = p @ axes + origin``."""
    out = np.eye(4)
    out[:3, :3] = np.asarray(axes, np.float64).T
    out[:3, 3] = origin
    return out


def lerp_tag(origin_a, axes_a, origin_b, axes_b, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Blend two frames of a tag as ``R_LerpTag``: origin and axes linearly, then each axis normalised."""
    origin = (1 - alpha) * np.asarray(origin_a, np.float64) + alpha * np.asarray(origin_b, np.float64)
    axes = (1 - alpha) * np.asarray(axes_a, np.float64) + alpha * np.asarray(axes_b, np.float64)
    length = np.linalg.norm(axes, axis=1, keepdims=True)
    return origin, np.divide(axes, length, out=axes.copy(), where=length > 0)
