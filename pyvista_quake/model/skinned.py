"""A skeletal model's own part (IQM, Doom 3's MD5): its joints, and the frames they give its surfaces.

A model read from an ``.iqm`` or an ``.md5mesh`` has surfaces with their own
images, as an MD3's, whose frames come from skinning its joints
(:mod:`pyvista_quake.data.skinning`) instead of stored vertices:
:class:`SkeletalPart` is that codec, and ``model.skeletal``.  Its extras:
:attr:`~SkeletalPart.joints`, :meth:`~SkeletalPart.bind_pose` and
:meth:`~SkeletalPart.skeleton`.

Frames are the file's own animations' frames (an IQM's), then those of each
attached animation file in turn; a model with none has one frame, its bind pose.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Any
from typing import NoReturn

import numpy as np
import pyvista as pv

from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake.data import animation as anim
from pyvista_quake.data.animation import Animation
from pyvista_quake.data.decode import FrameSelection
from pyvista_quake.data.decode import frame_indices
from pyvista_quake.data.poses import FramePoses
from pyvista_quake.data.poses import PoseRun
from pyvista_quake.data.skinning import Skinning
from pyvista_quake.data.skinning import rest_locals
from pyvista_quake.data.skinning import skeleton_of
from pyvista_quake.formats._joints import rotation_matrices
from pyvista_quake.formats.model_cfg import frames_played
from pyvista_quake.formats.records import Joint
from pyvista_quake.formats.records import ModelData
from pyvista_quake.formats.records import Skeleton
from pyvista_quake.formats.records import Tag
from pyvista_quake.formats.registry import FormatSpec
from pyvista_quake.game.filesystem import FoundSkin
from pyvista_quake.game.filesystem import warn_missing
from pyvista_quake.game.inputs import note
from pyvista_quake.game.model_configs import ResolvedConfig
from pyvista_quake.model.mesh import ascii_text
from pyvista_quake.model.stored import StoredSurfaces

#: The name of a model's one frame when it has no animation: its bind pose.
BIND_POSE = 'bind'


class SkeletalPart(StoredSurfaces):
    """A model skinned by joints (IQM, Doom 3's MD5): its joints, and the frames they give its surfaces.

    Get it as ``model.skeletal`` (``None`` for the other formats).  It is the
    codec of the model's surfaces: their positions and normals at a frame come
    from skinning its joints (:mod:`pyvista_quake.data.skinning`), not from
    stored vertices; the model asks it for its frames, their names, its
    animations and its tags, and draws them as every model's.

    Parameters
    ----------
    model : QuakeModel
        The model it belongs to: its record (surfaces of skinned joints and a skeleton,
        with the file's own frames), options and pictures.
    animations : list of PoseRun
        Attached animations, each read (and checked against the skeleton) when a frame of it is first wanted, with
        the names, rates and frames it plays under.
    config : ResolvedConfig, optional
        The Cube 2 config the model was assembled from: its skins, animations and tags.

    """

    #: The Cube 2 config the model was assembled from (its skins, animations and tags), or ``None``.
    config: ResolvedConfig | None

    def __init__(self, model: Any, animations: list[PoseRun] | None = None, config: ResolvedConfig | None = None) -> None:
        self._model = model
        self.config = config
        self._attached = list(animations or [])

    @property
    def data(self) -> ModelData:
        """The model's records: its skeleton (joints, bind pose), and each mesh's bind pose and joint weights."""
        return self._model.data

    @property
    def _skeleton(self) -> Skeleton:
        """The model's :class:`~pyvista_quake.formats.records.Skeleton`: joints, bind pose, the file's own animation."""
        return skeleton_of(self.data)

    def __repr__(self) -> str:
        """Return a one-line summary."""
        return (
            f'QuakeModel({self._model.format.upper()} {self._model.source!r}, {len(self)} frames, '
            f'{len(self.data.surfaces)} surfaces, {len(self.joints)} joints, {len(self.animations)} animations)'
        )

    # -- the skeleton ----------------------------------------------------------------
    @property
    def joints(self) -> list[Joint]:
        """Each joint's ``name`` and ``parent`` (``-1`` for a root), in file order."""
        return list(self._skeleton.joints)

    @cached_property
    def _poses(self) -> FramePoses:
        """Every frame's joint poses: the file's own frames, then each attached file's, each file read when first wanted."""
        own = self._skeleton.animation
        runs = (
            [PoseRun([p for r in self._attached if r.animation is own for p in r.played], animation=own)]
            if own is not None and own.num_frames
            else []
        )
        runs += [r for r in self._attached if own is None or r.animation is not own]
        return FramePoses(runs, [j.parent for j in self._skeleton.joints])

    @cached_property
    def _skinning(self) -> Skinning:
        poses = self._poses
        return Skinning(self.data, poses, poses.pose_parents)

    def _matrices(self, frames: FrameSelection) -> np.ndarray:
        rows = self.frame_rows(frames)
        if not self._poses.any:
            return np.repeat(self._skinning.rest(), len(rows), axis=0)
        return self._skinning.matrices(rows)

    def frame_rows(self, frames: FrameSelection) -> np.ndarray:
        """Frame numbers; frames from 0 that exist need no more than the files up to them read."""
        if isinstance(frames, (list, tuple)) and all(type(f) is int and f >= 0 for f in frames) and self._poses.has(max(frames, default=0)):
            return np.asarray(frames, np.int64)
        return frame_indices(frames, len(self))

    def __len__(self) -> int:
        """Return the number of frames (1, the bind pose, for a model with no animation)."""
        return max(len(self._poses), 1)

    @cached_property
    def frame_names(self) -> list[str]:
        """Each frame's name: its animation's and its number in it (``idle 3``); ``bind`` for a model with no animation."""
        names = [f'frame {k}' for k in range(len(self._poses))] or [BIND_POSE]
        for clip, first, _ in self._poses.clips():
            for k in range(clip.count):
                names[first + clip.first + k] = f'{clip.name} {k}'
        return names

    def frame_name(self, index: int) -> str:
        """Name of one frame (reading no animation file past it)."""
        if 'frame_names' in self.__dict__ or not (type(index) is int and index >= 0 and self._poses.has(index)):
            return self.frame_names[index]
        found = self._poses.clip_of(index)
        return f'{found[0].name} {found[1]}' if found is not None else f'frame {index}'

    # -- animations --------------------------------------------------------------------
    @cached_property
    def animations(self) -> dict[str, Animation]:
        """Animations by name: the file's own, each attached file (named after it, or as the config names it), the caller's."""
        out: dict[str, Animation] = {}
        for clip, first, played in self._poses.clips():
            start = first + clip.first
            if not clip.count:
                continue
            # Each animation is named as it is keyed: a repeated name (Cube 2's variants) becomes idle_2, idle_3...
            key = anim.unique_key(clip.name, out)
            out[key] = self._clip(key, range(start, start + clip.count), clip.fps or None)
            for p in played:
                skip, count = frames_played(clip.count, p.start, p.end)
                key = anim.unique_key(p.name, out)
                out[key] = self._clip(key, range(start + skip, start + skip + count), p.fps or clip.fps or None)
        user = self._model.options.animations
        if isinstance(user, dict):
            out.update(anim.user_animations(user, len(self), self._model.fps))
        return out

    def _clip(self, name: str, frames: range, fps: float | None) -> Animation:
        rate = fps if fps else self._model.fps
        played = Animation.at_fps(name, frames, rate, 'file' if fps else 'fps')
        if self._skeleton.blend == 'slerp' and len(frames) > 1:
            # Doom 3 shows frame f at f / rate and loops from the last frame straight to the first.
            return Animation(name, played.frames, played.times, float(played.times[-1]), rate, played.source)
        return played

    # -- geometry ----------------------------------------------------------------------
    def positions(self, frames: FrameSelection = None) -> list[np.ndarray]:
        """Each surface's skinned positions, ``float32`` ``(frames, vertices, 3)``."""
        return self._skinned(frames)[0]

    def normals(self, frames: FrameSelection = None) -> list[np.ndarray]:
        """Each surface's unit normals, ``float32`` ``(frames, vertices, 3)``: an IQM's own turned by its joints, an MD5's from its triangles."""
        points, matrices = self._skinned(frames)[:2]
        return [self._skinning.normals(k, matrices, p) for k, p in enumerate(points)]

    def _skinned(self, frames: FrameSelection) -> tuple[list[np.ndarray], np.ndarray]:
        """Positions of the frames and their joint matrices; the last answer is kept (``normals()`` after ``positions()`` skins once)."""
        rows = self.frame_rows(frames)
        key = rows.tobytes()
        last = self.__dict__.get('_last_skinned')
        if last is not None and last[0] == key:
            return last[1]
        matrices = self._matrices(rows)
        if not self._poses.any:  # no animation: every frame is the bind pose, as stored
            points = [np.broadcast_to(s.positions, (len(rows),) + s.positions.shape[1:]).copy() for s in self.data.surfaces]
        else:
            points = [self._skinning.positions(k, matrices) for k in range(len(self.data.surfaces))]
            self._check_finite(points, rows)
        self.__dict__['_last_skinned'] = (key, (points, matrices))
        return points, matrices

    def _posed(self, matrices: np.ndarray | None) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """One pose's positions and normals: skinned by ``matrices``, or the bind pose as stored (``None``)."""
        if matrices is None:
            return [s.positions[0] for s in self.data.surfaces], [self._rest_normals(k)[0] for k in range(len(self.data.surfaces))]
        points = [self._skinning.positions(k, matrices) for k in range(len(self.data.surfaces))]
        self._check_finite(points, None)
        normals = [self._skinning.normals(k, matrices, p) for k, p in enumerate(points)]
        return [p[0] for p in points], [n[0] for n in normals]

    def _check_finite(self, points: list[np.ndarray], rows: np.ndarray | None) -> None:
        """Refuse a pose whose joints overflow float32 (finite numbers composed past it): nothing can draw it."""
        for surface in points:
            bad = ~np.isfinite(surface).all(axis=(1, 2)) if surface.size else np.zeros(len(surface), bool)
            if bad.any():
                where = f'frame {int(rows[np.flatnonzero(bad)[0]])}' if rows is not None else 'blended'
                raise QuakeFormatError(self._model.source, 'poses', where, "the joints' transforms overflow: the skinned positions are not finite")

    def _rest_normals(self, index: int) -> np.ndarray:
        cache = self.__dict__.setdefault('_rest_normal_cache', {})
        if index not in cache:
            surface = self.data.surfaces[index]
            if surface.normals is not None:  # the bind pose's normals are the file's
                length = np.linalg.norm(surface.normals, axis=2, keepdims=True)
                cache[index] = np.divide(surface.normals, length, out=np.zeros_like(surface.normals), where=length > 0)
            else:
                cache[index] = self._skinning.normals(index, self._skinning.rest(), surface.positions)
        return cache[index]

    def frame_points(self, frame: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """Each surface's positions and normals at one frame."""
        return self._posed(self._matrices([frame]) if self._poses.any else None)

    def between_points(self, first: int, second: int, alpha: float) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """The joints blended as the engine blends them (IQM: matrices; MD5: slerp), then skinned."""
        return self._posed(self._skinning.between(first, second, alpha) if self._poses.any else None)

    def bind_pose(self) -> pv.MultiBlock:
        """The rest pose, as :meth:`~pyvista_quake.QuakeModel.frame` gives a frame (a MultiBlock of the meshes)."""
        return self.pose(-1, *self._posed(None))

    def joint_matrices(self, frame: int | None = None) -> np.ndarray:
        """``(joints, 4, 4)``: each joint in object space at ``frame`` (``None``: the bind pose)."""
        if frame is None:
            return np.array(self._skeleton.bind)
        return self._skinning.objects(self._matrices([frame]))[0]

    def joint_poses(self, frames: FrameSelection = None) -> np.ndarray:
        """``(frames, joints, 10)``: each joint's parent-relative translation, rotation quaternion ``xyzw`` and scale.

        A model with no animation gives its rest pose (:meth:`rest_locals`).
        """
        rows = self.frame_rows(frames)
        if not self._poses.any:
            return np.repeat(self.rest_locals()[None], len(rows), axis=0)
        return np.array(self._poses[rows])

    def inverse_bind(self) -> np.ndarray:
        """``(joints, 4, 4)``: the inverse of each joint's bind pose (a joint scaled to nothing: its pseudo-inverse)."""
        return np.array(self._skinning.inverse_bind)

    def rest_locals(self) -> np.ndarray:
        """``(joints, 10)``: the bind pose as parent-relative translation, quaternion ``xyzw`` and scale."""
        return rest_locals(self._skeleton)

    def skeleton(self, frame: int | None = None) -> pv.PolyData:
        """The joints as a ``PolyData``: a point per joint at its place, a line from each to its parent.

        ``point_data['joint_name']`` names each point and ``point_data['parent']``
        gives its parent; ``frame=None`` gives the bind pose.
        """
        matrices = self.joint_matrices(frame)
        points = matrices[:, :3, 3].astype(np.float32) if len(matrices) else np.zeros((0, 3), np.float32)
        parents = np.array([j.parent for j in self.joints], np.int64)
        child = np.flatnonzero(parents >= 0)
        lines = np.column_stack([np.full(len(child), 2), parents[child], child]).ravel()
        mesh = pv.PolyData(points, lines=lines if len(child) else None)
        mesh.point_data['joint_name'] = np.array([ascii_text(j.name) for j in self.joints], dtype=str) if len(points) else np.zeros(0, str)
        mesh.point_data['parent'] = parents.astype(np.int32)
        return mesh

    @cached_property
    def tags(self) -> dict[str, Tag]:
        """Tags the model's config names (``iqmtag``/``md5tag``): a joint's place and axes at every frame."""
        out: dict[str, Tag] = {}
        if self.config is None or not self.config.tags:
            return out
        names = [j.name for j in self.joints]
        objects = self._skinning.objects(self._matrices(None))
        for joint, tag, offset in self.config.tags:
            if joint in names:
                m = objects[:, names.index(joint)] @ tag_offset(offset)
                out[tag] = Tag(tag, m[:, :3, 3].astype(np.float32), np.swapaxes(m[:, :3, :3], 1, 2).astype(np.float32))
        return out

    # -- images -------------------------------------------------------------------------
    def image_names(self, skin: Any) -> tuple[list[str | None], Path | str | None]:
        """Each mesh's image name (its config skin, else its material or shader) and the config they come from."""
        if skin is None:
            return [None] * len(self.data.surfaces), None
        names: list[str | None] = []
        for surface in self.data.surfaces:
            names.append(self._config_skin(surface.name)[0] or (surface.shaders[0] if surface.shaders and surface.shaders[0] else None))
        return names, (str(self.config.path) if self.config is not None else None)

    def _config_skin(self, mesh: str) -> tuple[str | None, Path | None]:
        if self.config is None:
            return None, None
        key = mesh if mesh in self.config.skins else '*' if '*' in self.config.skins else None
        if key is None:
            return None, None
        return self.config.skin_names[key], self.config.skins[key]

    def config_image(self, index: int, name: str) -> tuple[bool, FoundSkin | None]:
        """Mesh ``index``'s image if its config names it: ``(True, the file or None)``; ``(False, None)`` for a
        material or shader name, found in the game's files as an MD3's shader is."""
        written, path = self._config_skin(self.data.surfaces[index].name)
        if written != name:
            return False, None
        if path is not None:
            note(path)  # an input of the model's page: a changed skin redoes it
        found = FoundSkin(name, str(path), path.read_bytes()) if path is not None else None
        if found is None:
            where = self.config.path if self.config is not None else self._model.source
            warn_missing(self._model.source, f'image {name} of mesh {self._model.surface_names[index] or index} (from {where})', [(name, str(where))])
        return True, found

    # -- what the model asks of its codec (see StoredSurfaces) ---------------------------------
    def frame_number(self, index: int) -> int:
        """A frame number in range, reading no animation file past it."""
        return int(self.frame_rows([index])[0])

    def clips(self) -> dict[str, Animation]:
        """Animations by name (see :attr:`animations`)."""
        return self.animations

    def positions_each(self, frames: FrameSelection = None) -> list[np.ndarray]:
        """Each surface's skinned positions."""
        return self.positions(frames)

    def normals_each(self, frames: FrameSelection = None) -> list[np.ndarray]:
        """Each surface's skinned normals."""
        return self.normals(frames)

    def surface_positions(self, index: int, frames: FrameSelection = None) -> np.ndarray:
        """Surface ``index``'s skinned positions (the joints skin every surface at once)."""
        return self.positions(frames)[index]

    def surface_normals(self, index: int, frames: FrameSelection = None) -> np.ndarray:
        """Surface ``index``'s skinned normals."""
        return self.normals(frames)[index]

    def nothing_drawn(self) -> str | None:
        """An animation file has poses and no mesh."""
        if self.data.surfaces:
            return None
        return (
            'an animation file, no mesh: its poses animate a mesh of the same skeleton '
            '(load the mesh with animations= naming this file, or its Cube 2 config)'
        )

    def surface_images(self, skin: Any) -> tuple[list[str | None], Path | str | None]:
        """Each mesh's image name: its config skin first (see :meth:`image_names`)."""
        return self.image_names(skin)

    def image_file(self, index: int, frame: int | None) -> tuple[bool, FoundSkin | None]:
        """Mesh ``index``'s image where its config names it (read once); else found by name as an MD3's shader is."""
        name = self._model._image_names[index]
        if name is None:
            return True, None
        cache = self.__dict__.setdefault('_config_images', {})
        if name not in cache:
            cache[name] = self.config_image(index, name)
        return cache[name]

    def alpha(self, index: int) -> str | None:
        """As the file says, else opaque: the Cube 2 configs' masks are glow and spec maps, not alpha."""
        said = self.data.surfaces[index].alpha
        return said if said is not None else 'opaque'

    def must_bake(self, target: FormatSpec) -> bool:
        """Saved as another format than its own (an MD3, or any format of surfaces), its skinned frames are written."""
        return target.name != self._model.format and target.kind != 'skeletal'

    def written_record(self, target: FormatSpec) -> Any:
        """Its own format only, written as read (``None``); another is a ``ValueError`` (see :meth:`must_bake`)."""
        own = self._model.spec
        if target.name != own.name:
            raise ValueError(
                f'{self._model.source}: a {own.name.upper()} saves as {", ".join(own.extensions)}; '
                'for another format export its frames (pyvista_quake.export) or make an MD3 with QuakeModel.from_frames'
            )
        return None

    def edited_frame(self, index: int, points: Any, normals: Any = None) -> ModelData:
        """Refused: the frames come from the joints."""
        self.refuse_edit()

    def added_frames(self, frames: list, names: Any = None, at: int | None = None) -> ModelData:
        """Refused: the frames come from the joints."""
        self.refuse_edit()

    def removed_frames(self, frames: FrameSelection) -> ModelData:
        """Refused: the frames come from the joints."""
        self.refuse_edit()

    def renamed_frame(self, index: int, name: str) -> ModelData:
        """Refused: the frames come from the joints."""
        self.refuse_edit()

    def refuse_edit(self) -> NoReturn:
        """Refuse an edit of vertices: a skeletal model's frames come from its joints."""
        raise TypeError(
            f"{self._model.source}: a skeletal model's frames come from its joints; to edit vertices, make an MD3 of its "
            "frames: QuakeModel.from_frames([model.blocks(k) for k in range(len(model))], 'md3')"
        )


def tag_offset(offset: tuple[float, ...]) -> np.ndarray:
    """The 4 x 4 matrix of a Cube 2 tag's offset from its joint: ``tx ty tz`` and turns ``rx ry rz`` in degrees (``settag``)."""
    tx, ty, tz, rx, ry, rz = offset
    cx, sx = np.cos(np.radians(rx) / 2), np.sin(np.radians(rx) / 2)
    cy, sy = np.cos(np.radians(ry) / 2), np.sin(np.radians(ry) / 2)
    cz, sz = np.cos(np.radians(rz) / 2), np.sin(np.radians(rz) / 2)
    q = np.array([sx * cy * cz - cx * sy * sz, cx * sy * cz + sx * cy * sz, cx * cy * sz - sx * sy * cz, cx * cy * cz + sx * sy * sz])
    out = np.eye(4)
    out[:3, :3] = rotation_matrices(q)
    out[:3, 3] = (tx, ty, tz)
    return out
