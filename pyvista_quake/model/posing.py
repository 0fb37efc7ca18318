"""What pictures, sheets, animations, pages and catalogues ask of what they draw: a model or a player, alike.

:func:`posable` gives a :class:`Posable` for a :class:`~pyvista_quake.QuakeModel`
or a :class:`~pyvista_quake.model.players.QuakePlayer`.  Drawing and export call
its methods and never ask which of the two they hold: a model poses by a frame
or a time of an animation, a player by a pair of animations (legs and torso)
at a time, and each answers in its own terms through the same calls.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from typing import Protocol

import numpy as np
import pyvista as pv

from pyvista_quake.data import animation as anim
from pyvista_quake.model.mesh import flattened
from pyvista_quake.model.mesh import spawn_view
from pyvista_quake.model.players import QuakePlayer
from pyvista_quake.model.players import model_or_player
from pyvista_quake.model.players import player_animations
from pyvista_quake.model.players import player_clips
from pyvista_quake.model.quake_model import QuakeModel

#: A contact sheet's cell: its label, the frame it shows, and the pose options that draw it.
Cell = tuple[str, int, dict[str, Any]]


@dataclass
class Playback:
    """An animation as pictures: how long it plays, at what rate, and the pose at each time.

    Attributes
    ----------
    duration : float
        Seconds it plays.
    rate : float
        Pictures a second (by default one a frame).
    start : dict
        The pose options (of :meth:`Posable.posed`) of its first picture, which sets up the scene.
    pose_at : callable
        ``pose_at(t)``: the pose at ``t`` seconds.
    bounds : callable
        ``bounds(times)``: ``(n, 6)`` boxes that together hold every pose shown at ``times``, to frame the
        camera on all (a player's: one a time; a model's: one a frame of its animation, whatever the times).

    """

    duration: float
    rate: float
    start: dict[str, Any]
    pose_at: Callable[[float], pv.MultiBlock | pv.PolyData]
    bounds: Callable[[np.ndarray], np.ndarray]


class Posable(Protocol):
    """A model or a player as drawing and export see it (see :func:`posable`)."""

    @property
    def subject(self) -> Any:
        """The model or player itself, as :func:`pyvista_quake.plot` and the other pictures take it."""

    @property
    def source(self) -> str:
        """Where it came from, as messages name it."""

    @property
    def models(self) -> list[QuakeModel]:
        """Every model it draws (a player's legs, torso and head)."""

    @property
    def parts(self) -> dict[str, QuakeModel]:
        """:attr:`models` by the name a message gives each (a player's ``lower``, ``upper``, ``head``; a model's ``''``)."""

    @property
    def label(self) -> str:
        """What it is, as a catalogue's card says: the model's format, or ``'player'``."""

    @property
    def drawn(self) -> QuakeModel | None:
        """The one model whose skin and lightmaps a pose draws; ``None`` where each block carries its own (a player)."""

    @property
    def skin_sets(self) -> list[str]:
        """The skins a viewer offers to pick from (none, or one: nothing to pick)."""

    @property
    def animation_names(self) -> list[str]:
        """The animations a picker or a sheet offers."""

    def posed(self, frame: int | None = None, animation: Any = None, time: float | None = None, weapon: Any = None) -> pv.MultiBlock | pv.PolyData:
        """One pose in the model's own form (MD2, MDL: a PolyData; else a MultiBlock of surfaces)."""

    def rest(self) -> dict[str, Any]:
        """The pose options of the rest pose thumbnails show."""

    def cells(self, animation: Any = None) -> list[Cell]:
        """A contact sheet's cells: a frame of one animation each, or each animation's first."""

    def playback(self, animation: Any = None, fps: float | None = None, interpolate: bool = False) -> Playback:
        """An animation (the first by default) as pictures; ``ValueError`` when it has one frame."""

    def each_skin(self) -> Iterator[tuple[str, Any]]:
        """``(name, model or player)`` in each of :attr:`skin_sets`, as it draws in it."""

    def clips(self, animation: Any = None) -> dict[str, dict[str, list]]:
        """A viewer's clips: each glTF animation's key times, and the frame number and name shown at each."""

    def start(self, animation: Any = None) -> dict[str, Any]:
        """What a viewer starts from: the animation it plays first and the box its frames fill (``'start'``,
        ``'bounds'`` as mins then maxs); a player's pickers of legs and torso animations (``'player'``)."""


def posable(source: QuakeModel | QuakePlayer) -> Posable:
    """A model or a player as :class:`Posable`."""
    if isinstance(source, QuakePlayer):
        return PlayerPosing(source)
    return ModelPosing(source)


def posable_or_mesh(source: Any, **options: Any) -> tuple[Posable | None, Any]:
    """As :func:`~pyvista_quake.model.players.model_or_player`, the model or player as :class:`Posable`:
    ``(posable, None)`` for a model, a player or a file (loaded with ``options``), ``(None, mesh)`` for a mesh."""
    loaded, mesh = model_or_player(source, **options)
    return (None if loaded is None else posable(loaded)), mesh


#: How far ahead of a level's eye a viewer's camera turns about (Quake units): near, so that dragging looks around.
EYE_AHEAD = 16.0


class ModelPosing:
    """A model as :class:`Posable`: posed by a frame, or a time of one of its animations."""

    def __init__(self, model: QuakeModel) -> None:
        self.model = self.subject = self.drawn = model
        self.source = model.source
        self.models = [model]
        self.parts = {'': model}
        self.label = model.format

    @property
    def skin_sets(self) -> list[str]:
        return self.model._codec.skin_choices()  # an MD2's or MDL's skins, where it has more than one

    @property
    def animation_names(self) -> list[str]:
        return list(self.model.animations)

    def posed(self, frame: int | None = None, animation: Any = None, time: float | None = None, weapon: Any = None) -> pv.MultiBlock | pv.PolyData:
        if weapon is not None:
            raise ValueError("weapon= places a weapon on a player's tag_weapon; this is no player")
        return self.model.native_pose(frame, animation, time)

    def rest(self) -> dict[str, Any]:
        # A thumbnail of a falling body (UFO: AI's frame 0) says little.
        return {'frame': anim.rest_frame(self.model.animations)}

    def cells(self, animation: Any = None) -> list[Cell]:
        model = self.model
        if animation is not None:
            frames = [int(f) for f in model.animation(animation).frames]
            names = [model.frame_names[f] for f in frames]
            labels = [f'frame {f}' for f in frames] if len(set(names)) < len(names) else names  # UFO: AI names all alike
            return [(label, f, {'frame': f}) for label, f in zip(labels, frames)]
        clips = model.animations or {'all': model.animation(None)}
        return [(name, int(clip.frames[0]), {'frame': int(clip.frames[0])}) for name, clip in clips.items()]

    def playback(self, animation: Any = None, fps: float | None = None, interpolate: bool = False) -> Playback:
        model = self.model
        if animation is None and model.animations:
            animation = next(iter(model.animations))
        clip = model.animation(animation)
        if len(clip.frames) < 2:
            raise ValueError(
                f'{model.source}: nothing to animate: {"animation " + repr(animation) if animation else "the model"} has one frame'
                + ('' if model.animations else "; attach animation files with animations= (the command line's --animations)")
            )
        steps = np.diff(np.append(clip.times, clip.duration))
        rate = float(fps) if fps else 1.0 / max(float(steps[steps > 0].min(initial=0.1)), 1e-3)

        def pose_at(t: float) -> pv.MultiBlock | pv.PolyData:
            if interpolate:
                return model.native_pose(time=float(t), animation=clip)
            # A hair past t: frame times from float32 intervals land a hair after the picture's time.
            k, _, _ = anim.sample(clip.times, clip.duration, float(t) + 1e-6)
            return model.native_pose(int(k), clip)

        return Playback(clip.duration, rate, {'frame': 0, 'animation': clip}, pose_at, lambda times: model.bounds(clip.frames))

    def each_skin(self) -> Iterator[tuple[str, Any]]:
        model = self.model
        chosen = model.skin
        try:
            for k, name in enumerate(self.skin_sets):
                model.skin = k
                yield name, model
        finally:
            model.skin = chosen

    def clips(self, animation: Any = None) -> dict[str, dict[str, list]]:
        model = self.model
        clips = [model.animation(animation)] if animation is not None or not model.animations else list(model.animations.values())
        return {
            clip.name: {
                'times': np.asarray(clip.times, np.float64).tolist(),
                'frames': [int(f) for f in clip.frames],
                'names': [model.frame_names[int(f)] for f in clip.frames],
            }
            for clip in clips
        }

    def start(self, animation: Any = None) -> dict[str, Any]:
        # The rest pose the thumbnails show, else the first animation that moves.
        model = self.model
        clips = [model.animation(animation)] if animation is not None else list(model.animations.values())
        rest = anim.rest_animation(model.animations) if animation is None else None
        clip = model.animations[rest] if rest is not None else next((c for c in clips if len(c.frames) > 1), clips[0] if clips else None)
        frames = [0] if clip is None or not len(clip.frames) else [int(f) for f in clip.frames]
        points = np.asarray(model.positions(frames), np.float64).reshape(-1, 3)
        points = points[np.isfinite(points).all(axis=1)]
        out: dict[str, Any] = {'start': clip.name if clip is not None else None}
        if len(points):
            out['bounds'] = [float(v) for v in (*points.min(axis=0), *points.max(axis=0))]
        if len(model) == 1:
            out['still'] = True  # one frame: nothing to play
        level = model.level
        if level is not None:
            out['level'] = True
            view = spawn_view(level)
            if view is not None:  # the eye where a player first stands, and a point ahead of it: a viewer starts there
                eye, yaw = view
                ahead = eye + EYE_AHEAD * np.array([np.cos(np.radians(yaw)), np.sin(np.radians(yaw)), 0.0])
                out['eye'] = [float(v) for v in (*eye, *ahead)]
        return out


class PlayerPosing:
    """A player as :class:`Posable`: posed by a pair of animations (legs, torso) at a time, as cgame poses it."""

    def __init__(self, player: QuakePlayer) -> None:
        self.player = self.subject = player
        self.source = player.source
        self.models = list(player.parts.values())
        self.parts = dict(player.parts)
        self.label = 'player'
        self.drawn = None  # each part's blocks carry their images

    @property
    def skin_sets(self) -> list[str]:
        return list(self.player.skins) if len(self.player.skins) > 1 else []

    @property
    def animation_names(self) -> list[str]:
        return list(self.player.config.animations)

    def posed(self, frame: int | None = None, animation: Any = None, time: float | None = None, weapon: Any = None) -> pv.MultiBlock | pv.PolyData:
        legs, torso = player_animations(animation if animation is not None else frame)
        return flattened(self.player.pose(legs, torso, time or 0.0, weapon=weapon))

    def rest(self) -> dict[str, Any]:
        return {}  # LEGS_IDLE and TORSO_STAND

    def cells(self, animation: Any = None) -> list[Cell]:
        if animation is None:  # a cell per animation, the other part standing
            return [(name, 0, {'animation': name}) for name in self.player.config.animations]
        clip = self.player.animation(animation)  # a cell per frame of it, the other part standing, at its own rate
        return [(f'{animation} {k}', k, {'animation': animation, 'time': k / clip.fps}) for k in range(max(clip.count, 1))]

    def playback(self, animation: Any = None, fps: float | None = None, interpolate: bool = False) -> Playback:
        player = self.player
        legs, torso = player_animations(animation)
        parts = [player.animation(name) for name in (legs, torso) if isinstance(name, str)]
        duration = max((a.count / a.fps for a in parts), default=1.0)
        rate = float(fps) if fps else max((a.fps for a in parts), default=10.0)
        poses: dict[float, pv.MultiBlock] = {}

        def pose_at(t: float) -> pv.MultiBlock:
            if t not in poses:  # the framing posed it already
                poses[t] = flattened(player.pose(legs, torso, t))
            return poses[t]

        def bounds(times: np.ndarray) -> np.ndarray:
            return np.array([pose_at(float(t)).bounds for t in times])

        return Playback(duration, rate, {'animation': (legs, torso), 'time': 0.0}, pose_at, bounds)

    def each_skin(self) -> Iterator[tuple[str, Any]]:
        for name in self.skin_sets:
            yield name, self.player.with_skin(name)

    def clips(self, animation: Any = None) -> dict[str, dict[str, list]]:
        player = self.player
        out = {}
        for name, legs, torso, moves in player_clips(player, animation):
            times = np.asarray(player.series(legs, torso).time_values, np.float64)
            part, which = ('upper', torso) if moves == {'upper'} else ('lower', legs)  # the frames of the part it moves
            frames = [player.frames(part, which, float(t))[0] for t in times]
            out[name] = {'times': times.tolist(), 'frames': frames, 'names': [player.parts[part].frame_names[f] for f in frames]}
        return out

    def start(self, animation: Any = None) -> dict[str, Any]:
        if animation is not None:
            return {}
        names = list(self.player.config.animations)  # a legs and a torso picker, played together
        return {'player': {'legs': [n for n in names if not n.startswith('TORSO_')], 'torso': [n for n in names if not n.startswith('LEGS_')]}}
