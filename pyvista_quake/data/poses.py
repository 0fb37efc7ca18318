"""A skeletal model's frames as runs of animation files, each read the first time a frame of it is wanted.

A Cube 2 player's config names about 140 animation files: a picture of frame 0
needs the first of them only.  :class:`FramePoses` holds the runs in order and
reads a run's file when a frame of it is asked for; the number of frames after
it, and the clips' names, come from the files' headers (a run's outline).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable
from typing import Protocol

import numpy as np

from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake._base.warnings import warn_external
from pyvista_quake.formats.model_cfg import Played
from pyvista_quake.formats.records import Clip
from pyvista_quake.formats.records import SkeletalAnimationData


class Indexed(Protocol):
    """Values by frame: indexed by a frame number, a slice or an array of them, as a numpy array is."""

    def __getitem__(self, frames: int | slice | np.ndarray) -> np.ndarray: ...


@dataclass
class PoseRun:
    """One run of frames: an animation (read, or to be read by ``read``) and how a config plays its clips.

    Parameters
    ----------
    played : list of Played
        The names, rates and frames the config plays it under.
    read : callable, optional
        Reads the animation (checked against the skeleton) the first time it is wanted.
    animation : SkeletalAnimationData, optional
        The animation, when it is already read (the mesh's own frames).
    key : str
        What tells two runs of one file apart from runs of others.
    outline : callable, optional
        Gives the animation's frame count and clips without reading its poses (a file's header):
        a timeline counts the frames of every run, a picture reads only the runs it shows.
    rest : callable, optional
        Gives the skeleton's bind pose as one frame's poses ``(joints, 10)``: what the frames its
        outline promised show when the file then fails to give them.

    """

    played: list[Played]
    read: Callable[[], SkeletalAnimationData] | None = None
    animation: SkeletalAnimationData | None = None
    key: str = ''
    outline: Callable[[], tuple[int, list[Clip]]] | None = None
    rest: Callable[[], np.ndarray] | None = None

    def loaded(self) -> SkeletalAnimationData:
        """The run's animation, read now if it is not yet.

        A file whose header is sound and whose frames are not (left out, as Cube 2 leaves it
        out) keeps the frames its outline promised, which the model's timeline counted on:
        they show the bind pose (``rest``), with a warning.

        Raises
        ------
        QuakeFormatError
            When the animation read holds other frames than its outline promised and the run has
            no ``rest`` to show instead.

        """
        if self.animation is None:
            assert self.read is not None  # a run is made with its animation or a way to read it
            animation = self.read()
            promised = self.__dict__.get('_promised')
            if promised is not None and animation.num_frames != promised[0]:
                if self.rest is None:
                    raise QuakeFormatError(
                        animation.source, 'frames', animation.num_frames, f'its header gives {promised[0]} frames, which the model counted on'
                    )
                warn_external(f'{animation.source}: the {promised[0]} frames its header gives, which the model counted on, show the bind pose')
                poses = np.repeat(self.rest()[None], promised[0], axis=0)
                animation = SkeletalAnimationData(animation.source, animation.joints, poses, promised[1], animation.blend)
            self.animation = animation
        return self.animation

    def _outlined(self) -> tuple[int, list[Clip]]:
        if self.animation is not None or self.outline is None:
            animation = self.loaded()
            return animation.num_frames, animation.clips
        if '_promised' not in self.__dict__:
            self.__dict__['_promised'] = self.outline()
        return self.__dict__['_promised']

    def frame_count(self) -> int:
        """The run's frames, from its outline when it is not read yet."""
        return self._outlined()[0]

    def clips(self) -> list[Clip]:
        """The run's clips, from its outline when it is not read yet."""
        return self._outlined()[1]


class FramePoses:
    """Every frame's joint poses, run after run, read a run at a time.

    Indexing gives ``(frames, joints, 10)`` poses (a frame number: ``(joints, 10)``),
    as the concatenated poses of the runs would; ``len()`` reads every run.

    Parameters
    ----------
    runs : list of PoseRun
        The runs, in frame order.
    joints : list of int
        The mesh's parents, what a pose of a run with no pose parents of its own names.

    """

    def __init__(self, runs: list[PoseRun], parents: list[int]) -> None:
        self.runs = runs
        self.mesh_parents = np.asarray(parents, np.int64)
        self._starts: list[int] = [0]  # the first frame of each run read so far, and the end of the last

    def _extend(self, frame: int | None) -> None:
        """Read runs until ``frame`` lies in one (``None``: every run)."""
        while len(self._starts) <= len(self.runs) and (frame is None or self._starts[-1] <= frame):
            run = self.runs[len(self._starts) - 1]
            self._starts.append(self._starts[-1] + run.frame_count())

    def __len__(self) -> int:
        """Return the number of frames of every run (counted from their outlines where they have one, else read)."""
        self._extend(None)
        return self._starts[-1]

    def has(self, frame: int) -> bool:
        """Whether frame ``frame`` (from 0) exists, reading only the runs up to it."""
        self._extend(frame)
        return 0 <= frame < self._starts[-1]

    @property
    def any(self) -> bool:
        """Whether there is a frame at all (reading only up to the first run with one)."""
        return self.has(0)

    @property
    def shape(self) -> tuple[int, int, int]:
        """``(frames, joints, 10)``."""
        return len(self), len(self.mesh_parents), 10

    def _where(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each frame's run and its frame in that run (the runs up to the last frame read)."""
        self._extend(int(rows.max()) if len(rows) else 0)
        starts = np.asarray(self._starts, np.int64)
        if len(rows) and (rows.min() < 0 or rows.max() >= starts[-1]):
            raise IndexError(f'frame {int(rows[(rows < 0) | (rows >= starts[-1])][0])} is out of range 0..{starts[-1] - 1}')
        run = np.searchsorted(starts, rows, side='right') - 1
        return run, rows - starts[run]

    def _rows(self, frames: int | slice | np.ndarray) -> np.ndarray:
        if isinstance(frames, slice):
            return np.arange(*frames.indices(len(self)))
        return np.atleast_1d(np.asarray(frames, np.int64))

    def _gather(self, frames: int | slice | np.ndarray, part: Callable[[SkeletalAnimationData, np.ndarray], np.ndarray]) -> np.ndarray:
        rows = self._rows(frames)
        run, local = self._where(rows)
        pieces = []
        for r in sorted(set(run.tolist())):  # the runs read (np.unique would import numpy.ma on a first read)
            chosen = run == r
            pieces.append((np.flatnonzero(chosen), part(self.runs[int(r)].loaded(), local[chosen])))
        out = np.empty(
            (len(rows),) + (pieces[0][1].shape[1:] if pieces else (len(self.mesh_parents), 10)), pieces[0][1].dtype if pieces else np.float64
        )
        for where, values in pieces:
            out[where] = values
        return out[0] if isinstance(frames, (int, np.integer)) else out

    def __getitem__(self, frames: int | slice | np.ndarray) -> np.ndarray:
        """The poses of the given frames."""
        return self._gather(frames, lambda animation, local: animation.poses[local])

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        """Every frame's poses as one array (reading every run)."""
        return self[np.arange(len(self))]  # numpy casts it to a dtype asked for

    @property
    def pose_parents(self) -> _PoseParents:
        """The parent each frame's pose names, by frame (the mesh's parents where a file names none)."""
        return _PoseParents(self)

    def clips(self) -> list[tuple[Clip, int, list[Played]]]:
        """Each clip of every run with the run's first frame and how the config plays it (reading every run)."""
        self._extend(None)
        out = []
        for run, first in zip(self.runs, self._starts):
            for k, clip in enumerate(run.clips()):
                # A config plays a file's first animation, or the one it names (file.iqm:name).
                out.append((clip, first, [p for p in run.played if (p.clip == clip.name if p.clip else k == 0)]))
        return out

    def clip_of(self, frame: int) -> tuple[Clip, int] | None:
        """The clip frame ``frame`` lies in and the frame's number in it (reading the runs up to it); ``None`` for none."""
        run, local = (int(v[0]) for v in self._where(np.array([frame], np.int64)))
        for clip in reversed(self.runs[run].clips()):  # where clips overlap, the later one names the frame
            if clip.first <= local < clip.first + clip.count:
                return clip, local - clip.first
        return None


class _PoseParents:
    """The parent each frame's pose names, indexed by frames as :class:`FramePoses` is."""

    def __init__(self, poses: FramePoses) -> None:
        self.poses = poses

    def __getitem__(self, frames: int | slice | np.ndarray) -> np.ndarray:
        mesh = self.poses.mesh_parents

        def part(animation: SkeletalAnimationData, local: np.ndarray) -> np.ndarray:
            own = animation.pose_parents if animation.pose_parents is not None else mesh
            return np.broadcast_to(np.asarray(own, np.int64), (len(local), len(mesh)))

        return self.poses._gather(frames, part)
