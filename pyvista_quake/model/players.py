"""Quake III players: legs, torso and head joined by their tags, posed by ``animation.cfg`` as cgame poses them.

:func:`load_player` reads a player folder (``models/players/sarge``, on disk
or ``ARCHIVE:models/players/sarge`` in a PK3): ``lower.md3``, ``upper.md3``,
``head.md3``, their ``.skin`` files and ``animation.cfg``.
:meth:`QuakePlayer.pose` places the parts as ``CG_Player`` does: the upper
body on the legs' ``tag_torso`` at the legs' frame, the head on the torso's
``tag_head`` at the torso's frame, a weapon on ``tag_weapon``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from typing import TypeGuard

import numpy as np
import pyvista as pv

from pyvista_quake._base.warnings import warn_external
from pyvista_quake.data.animation import lerp_tag
from pyvista_quake.formats.animation_cfg import CONFIG_NAME
from pyvista_quake.formats.animation_cfg import AnimationConfig
from pyvista_quake.formats.animation_cfg import PlayerAnimation
from pyvista_quake.formats.animation_cfg import parse as parse_animation_cfg
from pyvista_quake.game.filesystem import GameFiles
from pyvista_quake.game.sources import Place
from pyvista_quake.model.loading import load
from pyvista_quake.model.loading import model_or_mesh
from pyvista_quake.model.quake_model import QuakeModel

PARTS = ('lower', 'upper', 'head')


class QuakePlayer:
    """A Quake III player: three models and the animations that pose them.

    Use :func:`load_player` to read one.

    Attributes
    ----------
    parts : dict of str to QuakeModel
        ``'lower'``, ``'upper'`` and ``'head'``.
    config : AnimationConfig
        What ``animation.cfg`` says.
    skin : str
        The skin set drawn: each part's ``<part>_<skin>.skin``.
    skins : list of str
        The skin sets every part has (``default`` first), as the game offers them.
    place : Place
        Its folder, on disk or in an archive; ``source`` names it as users write it.

    """

    def __init__(
        self,
        parts: dict[str, QuakeModel],
        config: AnimationConfig,
        source: str | Place,
        skin: str = 'default',
        skins: list[str] | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        self.parts = parts
        self.config = config
        self.place = source if isinstance(source, Place) else Place.of(source)  # another skin loads from there
        self.source = str(self.place)
        self.skin = skin
        self.skins = list(skins) if skins is not None else [skin]
        self._options = dict(options or {})  # how it was loaded: the same for another skin

    def with_skin(self, skin: str) -> QuakePlayer:
        """The same player in another of its skin sets (``player.with_skin('red')``).

        Raises
        ------
        ValueError
            If the player has no such skin set; the message lists those it has.

        """
        if skin not in self.skins:
            raise ValueError(f'{self.source}: no skin {skin!r}; it has {", ".join(self.skins)}')
        return self if skin == self.skin else load_player(self.place, skin=skin, **self._options)

    def __repr__(self) -> str:
        """Return a one-line summary."""
        return f'QuakePlayer({self.source!r}, {len(self.config.animations)} animations)'

    @property
    def animations(self) -> dict[str, tuple[int, int, int, float]]:
        """``{name: (first, count, looping, fps)}``, first frames in the part's own file."""
        return {name: (a.first, a.count, a.looping, a.fps) for name, a in self.config.animations.items()}

    def animation(self, name: str) -> PlayerAnimation:
        """An animation of ``animation.cfg`` by name (``LEGS_RUN``...).

        Raises
        ------
        KeyError
            If the player has no such animation; the message lists those it has.

        """
        try:
            return self.config.animations[name]
        except KeyError:
            raise KeyError(f'{self.source}: no animation {name!r}; it has {sorted(self.config.animations)}') from None

    def frames(self, part: str, which: str | int, time: float) -> tuple[int, int, float]:
        """``(frame, next frame, blend)`` of a part at ``time`` seconds of an animation (or a fixed frame number).

        Raises
        ------
        IndexError
            For a frame number the part does not have (as :meth:`QuakeModel.mesh` raises).
        KeyError
            For an animation the player does not have.

        """
        model = self.parts[part]
        if isinstance(which, (int, np.integer)):
            if not -len(model) <= int(which) < len(model):
                raise IndexError(f'{model.source}: frame {int(which)} out of range; {part}.md3 has {len(model)} frames')
            frame = int(which) % len(model)
            return frame, frame, 0.0
        a, b, alpha = self.animation(which).frame_at(time)
        return min(a, len(model) - 1), min(b, len(model) - 1), alpha

    def pose(
        self, legs: str | int = 'LEGS_IDLE', torso: str | int = 'TORSO_STAND', time: float = 0.0, weapon: QuakeModel | str | Path | None = None
    ) -> pv.MultiBlock:
        """The player posed as ``CG_Player`` places the parts, every part's own rotation the identity.

        Parameters
        ----------
        legs, torso : str or int
            An animation's name (of :attr:`animations`) or a frame number of ``lower.md3`` / ``upper.md3``.
        time : float, default: 0.0
            Seconds into each animation, each at its own fps, looping as the game loops.
        weapon : QuakeModel or path, optional
            A weapon model placed on the torso's ``tag_weapon``.

        Returns
        -------
        pyvista.MultiBlock
            ``{'lower', 'upper', 'head'[, 'weapon']}``, each a MultiBlock of its surfaces.

        """
        legs_frames = self.frames('lower', legs, time)
        torso_frames = self.frames('upper', torso, time)
        origin, axes = np.zeros(3), np.eye(3)
        out = pv.MultiBlock()
        out.append(_placed(self.parts['lower'], legs_frames, origin, axes), 'lower')
        upper_origin, upper_axes = _on_tag(self.parts['lower'], 'tag_torso', legs_frames, origin, axes)
        out.append(_placed(self.parts['upper'], torso_frames, upper_origin, upper_axes), 'upper')
        head_origin, head_axes = _on_tag(self.parts['upper'], 'tag_head', torso_frames, upper_origin, upper_axes)
        out.append(_placed(self.parts['head'], (0, 0, 0.0), head_origin, head_axes), 'head')
        if weapon is not None:
            model = weapon if isinstance(weapon, QuakeModel) else load(weapon)
            weapon_origin, weapon_axes = _on_tag(self.parts['upper'], 'tag_weapon', torso_frames, upper_origin, upper_axes)
            out.append(_placed(model, (0, 0, 0.0), weapon_origin, weapon_axes), 'weapon')
        return out

    def tag_on(self, part: str, tag: str, frames: tuple[int, int, float]) -> tuple[np.ndarray, np.ndarray]:
        """``(origin, axes)`` of a part's tag between two frames, blended as ``R_LerpTag``: where a child part sits on it."""
        return _on_tag(self.parts[part], tag, frames, np.zeros(3), np.eye(3))

    def series(self, legs: str | int = 'LEGS_RUN', torso: str | int = 'TORSO_STAND', fps: float | None = None, weapon=None) -> PlayerSeries:
        """The (legs, torso) pair as a time series, stepped as ``pv.get_reader``'s readers are (see :class:`PlayerSeries`)."""
        return PlayerSeries(self, legs, torso, fps, weapon)


class PlayerSeries(pv.TimeReader):
    """A player's (legs, torso) animation pair as a PyVista time series: :meth:`read` poses the player.

    Time points step at the faster animation's rate over the longer one's
    length (a looping animation runs once through); made by :meth:`QuakePlayer.series`.
    """

    def __init__(self, player: QuakePlayer, legs: str | int, torso: str | int, fps: float | None = None, weapon=None) -> None:
        self.player, self.legs, self.torso, self.weapon = player, legs, torso, weapon
        used = [player.animation(name) for name in (legs, torso) if isinstance(name, str)]
        rate = float(fps) if fps else max((a.fps for a in used), default=10.0)
        length = max((a.count / a.fps for a in used), default=0.0)
        self._times = np.arange(max(1, int(round(length * rate)))) / rate
        self._point = 0

    @property
    def number_time_points(self) -> int:
        """Number of time points."""
        return len(self._times)

    def time_point_value(self, time_point: int) -> float:
        """Seconds of a time point."""
        return float(self._times[time_point])

    @property
    def time_values(self) -> list[float]:
        """Every time point's seconds."""
        return self._times.tolist()

    @property
    def active_time_value(self) -> float:
        """Seconds of the active time point."""
        return float(self._times[self._point])

    def set_active_time_value(self, time_value: float) -> None:
        """Activate the time point shown at ``time_value`` seconds."""
        self._point = int(np.clip(np.searchsorted(self._times, time_value + 1e-9, side='right') - 1, 0, len(self._times) - 1))

    def set_active_time_point(self, time_point: int) -> None:
        """Activate a time point by index."""
        if not 0 <= time_point < len(self._times):
            raise ValueError(f'time point {time_point} outside 0..{len(self._times) - 1}')
        self._point = int(time_point)

    def read(self) -> pv.MultiBlock:
        """The player posed at the active time."""
        return self.player.pose(self.legs, self.torso, self.active_time_value, self.weapon)


def player_animations(animation: Any) -> tuple[Any, Any]:
    """``(legs, torso)`` of a player from ``animation``: a pair, one name (``LEGS_*`` or ``TORSO_*``; ``BOTH_*``
    for both), or ``None`` for the rest pose (``LEGS_IDLE`` and ``TORSO_STAND``)."""
    if animation is None:
        return 'LEGS_IDLE', 'TORSO_STAND'
    if isinstance(animation, (tuple, list)):
        return animation[0], animation[1]
    name = str(animation)
    if name.startswith('LEGS_'):
        return name, 'TORSO_STAND'
    if name.startswith('TORSO_'):
        return 'LEGS_IDLE', name
    return animation, animation


#: What each kind of animation of ``animation.cfg`` moves.
BOTH_PARTS = frozenset({'lower', 'upper'})


def player_clips(player: QuakePlayer, animation: Any) -> list[tuple[str, Any, Any, frozenset]]:
    """``(name, legs, torso, moves)`` of each animation a player's glTF holds: the pair asked for (named
    ``legs+torso``, moving both parts), or else every animation of its ``animation.cfg``, each moving its
    own part (``LEGS_*`` the legs, ``TORSO_*`` the torso, ``BOTH_*`` both), to be played in pairs."""
    if animation is not None:
        legs, torso = player_animations(animation)
        return [(f'{legs}+{torso}', legs, torso, BOTH_PARTS)]
    kinds = {'LEGS_': frozenset({'lower'}), 'TORSO_': frozenset({'upper'})}
    return [
        (name, *player_animations(name), next((m for p, m in kinds.items() if name.startswith(p)), BOTH_PARTS)) for name in player.config.animations
    ]


def _on_tag(parent: QuakeModel, name: str, frames: tuple[int, int, float], origin: np.ndarray, axes: np.ndarray):
    """Where a child sits on a parent's tag: ``origin + tag.origin @ axes``, ``tag.axis @ axes`` (``CG_PositionEntityOnTag``)."""
    if name not in parent.tags:
        raise KeyError(f'{parent.source}: no {name}; the parts cannot be joined')
    tag = parent.tags[name]
    a, b, alpha = frames
    tag_origin, tag_axes = lerp_tag(tag.origins[a], tag.axes[a], tag.origins[b], tag.axes[b], alpha)
    return origin + tag_origin @ axes, tag_axes @ axes


def _placed(model: QuakeModel, frames: tuple[int, int, float], origin: np.ndarray, axes: np.ndarray) -> pv.MultiBlock:
    """A part's surfaces blended between two frames, then placed: ``p @ axes + origin``."""
    a, b, alpha = frames
    blocks = model.blocks(a) if alpha == 0 or a == b else model.between(a, b, alpha)
    for block in blocks:
        if not block.n_points:
            continue  # a surface with no vertices (OpenArena's tony has two): nothing to place
        block.points = (np.asarray(block.points, np.float64) @ axes + origin).astype(np.float32)
        if 'Normals' in block.point_data:
            block.point_data['Normals'] = (np.asarray(block.point_data['Normals'], np.float64) @ axes).astype(np.float32)
    return blocks


#: The file that times a player's parts: lookups beside it are the player's folder's.
CONFIG = CONFIG_NAME
#: The files of a player's folder.
PLAYER_FILES = tuple(f'{part}.md3' for part in PARTS) + (CONFIG,)


def _folder(path: str | Path | Place) -> Place:
    """A player's folder, on disk or ``ARCHIVE:folder`` (its member without a trailing ``/``)."""
    place = path if isinstance(path, Place) else Place.of(path)
    return Place(place.path, place.member.rstrip('/')) if place.member is not None else place


def _skin_sets(files: GameFiles) -> tuple[list[str], bool]:
    """The skin sets every part has, ``default`` first then by name, and whether the legs have ``lower_default.skin``."""
    names = files.names_beside()

    def skins_of(part: str) -> set[str]:
        return {n[len(part) + 1 : -len('.skin')] for n in names if n.startswith(f'{part}_') and n.endswith('.skin')}

    complete = sorted(set.intersection(*(skins_of(part) for part in PARTS)), key=lambda n: (n != 'default', n))
    return complete, 'default' in skins_of('lower')


def _default_skin(path: Place, complete: list[str], has_default: bool) -> str:
    """``'default'`` when the player has a ``lower_default.skin`` (or no skin of all three parts); else the first
    by name of the skins all three parts have, with a warning (sorceress ships only ``red`` and ``blue``: the
    game would draw its default model instead, no picture of her)."""
    if not complete or has_default:
        return 'default'
    warn_external(f'{path}: no lower_default.skin; using its skin {complete[0]!r} (it has {", ".join(complete)})')
    return complete[0]


def is_player_folder(path: str | Path | Place) -> bool:
    """Whether ``path`` is a player: a folder (or ``ARCHIVE:folder``) holding ``lower.md3``, ``upper.md3``, ``head.md3`` and ``animation.cfg``."""
    folder = _folder(path)
    if folder.member is None and not folder.path.is_dir():
        return False
    files = GameFiles.of_folder(folder, CONFIG)  # the game's archives merged: a part may come from a later one
    return all(files.place_beside(name) is not None for name in PLAYER_FILES)


def model_or_player(source: Any, **options: Any):
    """As :func:`~pyvista_quake.model.loading.model_or_mesh`, and a :class:`QuakePlayer` or a player's folder as the player."""
    if isinstance(source, QuakePlayer):
        return source, None
    if isinstance(source, (str, Path, Place)) and is_player_folder(source):
        return load_player(source, **options), None
    return model_or_mesh(source, **options)


def load_player(path: str | Path | Place, skin: str | int = 'default', search_paths: list | None = None, **options: Any) -> QuakePlayer:
    """Load a Quake III player folder: ``lower.md3``, ``upper.md3``, ``head.md3`` and ``animation.cfg``.

    Parameters
    ----------
    path : str, pathlib.Path or Place
        The folder (``models/players/sarge``) or ``ARCHIVE:models/players/sarge`` inside a PK3.
    skin : str, default: 'default'
        The skin: each part's ``<part>_<skin>.skin``.
    search_paths : list of path, optional
        Game folders or PK3 files to find images in.
    **options
        Other options of :func:`pyvista_quake.load`.

    Raises
    ------
    FileNotFoundError
        If a part or ``animation.cfg`` is missing.
    QuakeFormatError
        If one of them is malformed.

    """
    folder = _folder(path)
    skin = 'default' if skin == 0 else skin

    files = GameFiles.of_folder(folder, CONFIG)

    def where(name: str) -> Place:
        # Each part from the archive the game reads it from; one that is missing fails where it is loaded, named.
        found = files.place_beside(name)
        if found is not None:
            return found
        return Place(folder.path / name) if folder.member is None else Place(folder.path, f'{folder.member}/{name}')

    skins, has_default = _skin_sets(files)
    if skin == 'default':
        skin = _default_skin(folder, skins, has_default)
    parts = {}
    for part in PARTS:
        parts[part] = load(where(f'{part}.md3'), skin=skin, search_paths=search_paths or [], **options)
    config = files.beside_model(CONFIG)
    if config is None:
        raise FileNotFoundError(f'{where(CONFIG)}: a player folder holds an {CONFIG}')
    return QuakePlayer(
        parts,
        parse_animation_cfg(config[1].decode('latin-1'), config[0]),
        folder,
        skin=str(skin),
        skins=skins if skin in skins else [str(skin), *skins],
        options={'search_paths': search_paths, **options},
    )


def is_player(source: object) -> TypeGuard[QuakePlayer]:
    """Whether ``source`` is a player assembled from parts (legs, torso, head), not one model.

    Drawing and export ask this, not the class: a player poses by a pair of animations.
    """
    return isinstance(source, QuakePlayer)
