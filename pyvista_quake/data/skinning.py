"""Skinning a skeletal model's meshes, as the engines do: numpy over every frame and vertex at once.

A frame's joints give one ``3 x 4`` matrix each (:meth:`Skinning.matrices`):

- IQM, as the IQM demo's ``animateiqm`` and Cube 2: each pose's
  ``T R(normalise(q)) S``, pre-composed ``B_parent M inv(B)`` and composed
  parent first, so a vertex moves by ``sum(w O[j]) p`` from its bind position;
- MD5, as ``idMD5Mesh``: each joint's parent-relative ``t, q`` composed parent
  first, so a vertex is ``sum(bias (R w + t))`` of its weights' own positions.

Both are linear in the matrices' entries, so each surface's positions over
all frames are one product of the frames' matrices with a sparse matrix made
once per surface (the weights, joints and bind positions).  Normals: an IQM's
stored ones turned by the blended matrices and renormalised; MD5 stores none,
so they are computed from each frame's triangles, area-weighted and shared by
vertices at one bind position (a texture seam is not a crease), as Doom 3
derives them.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake.data.poses import FramePoses
from pyvista_quake.data.poses import Indexed
from pyvista_quake.formats._joints import compose
from pyvista_quake.formats._joints import inverse
from pyvista_quake.formats._joints import normalised
from pyvista_quake.formats._joints import trs_matrices
from pyvista_quake.formats.records import JointWeights
from pyvista_quake.formats.records import ModelData
from pyvista_quake.formats.records import SkeletalAnimationData
from pyvista_quake.formats.records import Skeleton
from pyvista_quake.formats.records import SurfaceData

if TYPE_CHECKING:  # scipy is imported when a sparse product is first made: a picture's frame needs none
    from scipy import sparse

#: Frames skinned per product, so a long animation of a large mesh stays in memory.
FRAMES_PER_CHUNK = 256
#: Up to this many frames are skinned directly (a pose for a picture), without making the sparse matrix.
DIRECT_FRAMES = 2
#: Triangle-frames whose face normals are made together: a chunk's corners stay in the cache (a few MB).
TRIANGLE_FRAMES_PER_CHUNK = 1 << 15


def slerp(a: np.ndarray, b: np.ndarray, alpha: float) -> np.ndarray:
    """Quaternions ``(..., 4)`` between ``a`` and ``b``, as ``idQuat::Slerp``: the shorter way, linear when nearly equal."""
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    cos = (a * b).sum(axis=-1, keepdims=True)
    b = np.where(cos < 0, -b, b)
    cos = np.abs(cos)
    angle = np.arccos(np.clip(cos, -1.0, 1.0))
    sin = np.sin(angle)
    far = (1.0 - cos) > 1e-6
    wa = np.where(far, np.sin((1 - alpha) * angle) / np.where(far, sin, 1), 1 - alpha)
    wb = np.where(far, np.sin(alpha * angle) / np.where(far, sin, 1), alpha)
    return wa * a + wb * b


class Skinning:
    """The joints and weights of a skeletal model, ready to pose and skin any of its frames.

    Parameters
    ----------
    data : ModelData
        The model: its :attr:`~pyvista_quake.formats.records.ModelData.skeleton`, and its surfaces'
        bind pose and :class:`~pyvista_quake.formats.records.JointWeights`.
    poses : numpy.ndarray or FramePoses
        ``(frames, joints, 10)`` parent-relative transforms of every frame (see
        :class:`~pyvista_quake.formats.records.SkeletalAnimationData`); indexed by frames, so
        :class:`~pyvista_quake.data.poses.FramePoses` reads only the files of the frames skinned.
    pose_parents : numpy.ndarray or indexable, optional
        ``(frames, joints)``: the parent each frame's pose names (IQM files of poses may name
        others than the mesh's); the frame's matrix is pre-composed with that parent's bind
        pose, then chained down the mesh's own hierarchy.  The joints' parents by default.

    """

    def __init__(self, data: ModelData, poses: np.ndarray | FramePoses, pose_parents: np.ndarray | Indexed | None = None) -> None:
        self.data = data
        self.skeleton = skeleton_of(data)
        self.poses = poses
        self.blend = self.skeleton.blend  # 'matrix' (IQM) or 'slerp' (MD5): how frames are blended and composed
        self.parents = [j.parent for j in self.skeleton.joints]
        self.pose_parents = pose_parents

    @cached_property
    def inverse_bind(self) -> np.ndarray:
        """``(joints, 4, 4)``: the inverse of each joint's bind pose (a joint scaled to nothing: its pseudo-inverse)."""
        return inverse(self.skeleton.bind) if len(self.skeleton.bind) else np.zeros((0, 4, 4))

    @cached_property
    def _parent_bind(self) -> np.ndarray:
        """Each joint's parent's bind pose (the identity for a root): the IQM demo's pre-composition."""
        out = np.broadcast_to(np.eye(4), self.skeleton.bind.shape).copy()
        parents = np.asarray(self.parents, np.int64)
        out[parents >= 0] = self.skeleton.bind[parents[parents >= 0]]
        return out

    # -- joint matrices ------------------------------------------------------------
    def _locals(self, poses: np.ndarray, frames: np.ndarray | slice | None = None) -> np.ndarray:
        """``(frames, joints, 4, 4)``: the IQM demo's ``B_parent M inv(B)`` (the parent the pose names), or MD5's parent-relative matrices."""
        if self.blend == 'matrix':
            return self._pose_parent_bind(frames) @ trs_matrices(poses) @ self.inverse_bind
        return trs_matrices(poses, normalise=False)

    def _pose_parent_bind(self, frames: np.ndarray | slice | None) -> np.ndarray:
        """The bind pose of each frame's pose parent: the joints' own (shared) unless a pose names another."""
        if self.pose_parents is None or frames is None:
            return self._parent_bind
        parents = np.asarray(self.pose_parents[frames], np.int64)
        own = np.asarray(self.parents, np.int64)
        if (parents == own).all():
            return self._parent_bind
        out = np.broadcast_to(np.eye(4), parents.shape + (4, 4)).copy()
        out[parents >= 0] = self.skeleton.bind[parents[parents >= 0]]
        return out

    def matrices(self, frames: np.ndarray | slice) -> np.ndarray:
        """``float32`` ``(frames, joints, 3, 4)``: each joint's skinning matrix at the given frames."""
        with np.errstate(over='ignore', invalid='ignore'):  # past float32's range is infinite, as in the engines' float32
            return compose(self._locals(self.poses[frames], frames), self.parents)[..., :3, :].astype(np.float32)

    def rest(self) -> np.ndarray:
        """``float32`` ``(1, joints, 3, 4)``: the matrices of the bind pose."""
        if self.skeleton.blend == 'matrix' or not len(self.skeleton.bind):
            return np.broadcast_to(np.eye(4)[:3], (1, len(self.parents), 3, 4)).astype(np.float32)
        return self.skeleton.bind[None, :, :3, :].astype(np.float32)

    def between(self, first: int, second: int, alpha: float) -> np.ndarray:
        """``float32`` ``(1, joints, 3, 4)``: the pose ``alpha`` of the way from frame ``first`` to ``second``.

        IQM: the pre-composed matrices blended element-wise before composing (the
        demo's ``animateiqm``); MD5: translations linearly, rotations by slerp,
        then composed (``idAnimBlend``).
        """
        a, b = self.poses[first], self.poses[second]
        if self.blend == 'matrix':
            pair = self._locals(np.stack([a, b]), np.array([first, second]))
            mixed = (1 - alpha) * pair[0] + alpha * pair[1]
            with np.errstate(over='ignore', invalid='ignore'):  # past float32's range is infinite, as in the engines' float32
                return compose(mixed[None], self.parents)[..., :3, :].astype(np.float32)
        pose = a.copy()
        pose[:, :3] = (1 - alpha) * a[:, :3] + alpha * b[:, :3]
        pose[:, 3:7] = slerp(a[:, 3:7], b[:, 3:7], alpha)
        return compose(trs_matrices(pose[None], normalise=False), self.parents)[..., :3, :].astype(np.float32)

    def objects(self, matrices: np.ndarray) -> np.ndarray:
        """``(frames, joints, 4, 4)`` joints in object space from skinning :meth:`matrices` (for skeletons and tags)."""
        full = np.zeros(matrices.shape[:-2] + (4, 4))
        full[..., :3, :] = matrices
        full[..., 3, 3] = 1
        return full @ self.skeleton.bind if self.blend == 'matrix' else full

    # -- skinning ------------------------------------------------------------------
    def _product(self, index: int, normals: bool) -> sparse.csr_matrix | None:
        """Surface ``index``'s sparse matrix (of positions, or of normals), made the first time it is asked for."""
        cache = self.__dict__.setdefault('_products', {})
        if (index, normals) not in cache:
            cache[index, normals] = _linear(self.data.surfaces[index], normals, len(self.parents))
        return cache[index, normals]

    def _direct(self, index: int, matrices: np.ndarray, normals: bool) -> np.ndarray:
        """:func:`_direct` of surface ``index``, its blended matrices kept for the other of positions and normals."""
        surface = self.data.surfaces[index]
        if weights_of(surface).offsets is not None and not normals:
            return _direct(surface, matrices, normals)
        kept: tuple[np.ndarray, dict[int, np.ndarray]] | None = self.__dict__.get('_blends')
        if kept is None or kept[0] is not matrices:
            kept = self.__dict__['_blends'] = (matrices, {})  # the matrices held: their identity stays theirs
        if index not in kept[1]:
            kept[1][index] = _blend(surface, matrices)
        return _direct(surface, matrices, normals, kept[1][index])

    def _moves(self, surface: SurfaceData) -> bool:
        return bool(weights_of(surface).joints.shape[1] and len(self.parents) and surface.num_vertices)

    def positions(self, index: int, matrices: np.ndarray) -> np.ndarray:
        """``float32`` ``(frames, vertices, 3)``: surface ``index`` posed by ``matrices``.

        A frame or two are skinned directly; more through the surface's sparse matrix, made once.
        """
        surface = self.data.surfaces[index]
        if not self._moves(surface):
            return np.broadcast_to(surface.positions, (len(matrices),) + surface.positions.shape[1:]).copy()
        if len(matrices) <= DIRECT_FRAMES and (index, False) not in self.__dict__.get('_products', {}):
            return self._direct(index, matrices, normals=False)
        product = self._product(index, False)
        assert product is not None  # the surface moves
        return _apply(product, matrices, surface.num_vertices)

    def normals(self, index: int, matrices: np.ndarray, positions: np.ndarray) -> np.ndarray:
        """``float32`` ``(frames, vertices, 3)`` unit normals of surface ``index`` at ``positions``."""
        surface = self.data.surfaces[index]
        if surface.normals is None:
            if len(positions) <= DIRECT_FRAMES and '_seams' not in self.__dict__:  # a picture: no sparse matrix made
                return grouped_normals(positions, surface.triangles, self._groups[index])
            return triangle_normals(positions, surface.triangles, self._groups[index], self._seams[index])
        if not self._moves(surface):
            out = np.broadcast_to(surface.normals, positions.shape).copy()  # the bind pose's, one frame
        elif len(matrices) <= DIRECT_FRAMES and (index, True) not in self.__dict__.get('_products', {}):
            out = self._direct(index, matrices, normals=True)
        else:
            product = self._product(index, True)
            assert product is not None  # the surface moves
            out = _apply(product, matrices, surface.num_vertices)
        return _unit(out)

    @cached_property
    def _groups(self) -> list[np.ndarray | None]:
        """For each surface, the number of each vertex's bind position: vertices at one place share their normal."""
        out: list[np.ndarray | None] = []
        for surface in self.data.surfaces:
            if not surface.num_vertices or not len(surface.triangles):
                out.append(None)
                continue
            out.append(places(surface.positions))
        return out

    @cached_property
    def _seams(self) -> list[sparse.csr_matrix | None]:
        """For each surface, the triangles of each place (the vertices at one bind position), whose faces its vertices' normals sum."""
        return [
            None if group is None else incidence(surface.triangles, surface.num_vertices, group)
            for surface, group in zip(self.data.surfaces, self._groups)
        ]


def skeleton_of(data: ModelData) -> Skeleton:
    """A skeletal model's :class:`~pyvista_quake.formats.records.Skeleton` (a model of stored frames has none: a ``ValueError``)."""
    if data.skeleton is None:
        raise ValueError(f'{data.source}: a model of stored frames has no skeleton to skin')
    return data.skeleton


def weights_of(surface: SurfaceData) -> JointWeights:
    """A skinned surface's :class:`~pyvista_quake.formats.records.JointWeights` (a stored surface has none: a ``ValueError``)."""
    if surface.joint_weights is None:
        raise ValueError(f'surface {surface.name!r} has stored frames, no joints to skin it')
    return surface.joint_weights


def _linear(surface: SurfaceData, normals: bool, num_joints: int) -> sparse.csr_matrix | None:
    """The sparse ``(vertices, 4 joints)`` matrix taking a frame's joint matrices, a row ``i`` at a time, to the surface's points.

    Row ``v`` holds, at column ``4 j + m``, ``w * p[m]`` for each of the vertex's weights on joint ``j``, where
    ``p`` is the bind position (IQM) or the weight's own position (MD5) with a 1 appended (a 0 for a normal,
    which only turns); times the joints' rows ``i`` (:func:`_apply`), coordinate ``i`` of the vertex.  The
    weights of 0 have no entries.
    """
    skin = weights_of(surface)
    joints, weights = skin.joints, skin.weights
    n, k = joints.shape
    if not k or not num_joints or not n:
        return None
    width = 3 if normals else 4  # a normal has no translation to pick up
    kept = weights != 0
    vertex = np.nonzero(kept)[0]  # each weight that adds something, vertex by vertex, in slot order
    w = np.asarray(weights[kept], np.float32)
    if skin.offsets is not None and not normals:
        points = np.asarray(skin.offsets[kept], np.float32)
    else:
        bind = surface.normals if normals else surface.positions
        assert bind is not None  # normals are skinned only where the file stores them
        points = np.take(np.asarray(bind[0], np.float32), vertex, axis=0)
    values = np.empty((len(w), width), np.float32)
    values[:, :3] = points * w[:, None]
    values[:, 3:] = w[:, None]  # w times the 1 of a position
    columns = (joints[kept].astype(np.int32) * 4)[:, None] + np.arange(width, dtype=np.int32)
    starts = np.zeros(n + 1, np.int64)
    np.cumsum(np.bincount(vertex, minlength=n) * width, out=starts[1:])
    from scipy import sparse  # noqa: PLC0415 - a tenth of a second to import, for whole animations only

    return sparse.csr_matrix((values.reshape(-1), columns.reshape(-1), starts), shape=(n, 4 * num_joints))


def _direct(surface: SurfaceData, matrices: np.ndarray, normals: bool, blended: np.ndarray | None = None) -> np.ndarray:
    """``float32`` ``(frames, vertices, 3)``: the surface skinned by each vertex's weighted joint matrices, gathered.

    ``blended``: the surface's :func:`_blend` of ``matrices``, when made already (an IQM's positions and normals share it).
    """
    skin = weights_of(surface)
    if skin.offsets is not None and not normals:  # MD5: each weight's own position in its joint
        gathered = matrices[:, skin.joints]  # (frames, vertices, weights, 3, 4)
        placed = np.einsum('fvkij,vkj->fvki', gathered[..., :3], skin.offsets) + gathered[..., 3]
        return (placed * skin.weights[None, :, :, None]).sum(axis=2, dtype=np.float32)
    if blended is None:
        blended = _blend(surface, matrices)
    points = surface.normals if normals else surface.positions
    assert points is not None  # normals are skinned only where the file stores them
    out = np.einsum('fvij,vj->fvi', blended[..., :3], np.asarray(points[0], np.float32))
    return out if normals else out + blended[..., 3]


def _blend(surface: SurfaceData, matrices: np.ndarray) -> np.ndarray:
    """``float32`` ``(frames, vertices, 3, 4)``: each vertex's joint matrices weighted and summed, a weight slot at a time.

    The sum runs over the slots in order, as a reduction over them does, without the
    ``(frames, vertices, weights, 3, 4)`` array of every product (a fifth of the time).
    """
    frames = len(matrices)
    flat = np.asarray(matrices, np.float32).reshape(frames, -1, 12)
    skin = weights_of(surface)
    joints, weights = skin.joints, np.asarray(skin.weights, np.float32)
    out = np.zeros((frames, surface.num_vertices, 12), np.float32)
    for k in range(joints.shape[1]):
        out += np.take(flat, joints[:, k], axis=1) * weights[None, :, k, None]
    return out.reshape(frames, -1, 3, 4)


def _apply(product: sparse.csr_matrix, matrices: np.ndarray, num_vertices: int) -> np.ndarray:
    """``float32`` ``(frames, vertices, 3)``: :func:`_linear`'s ``product`` times each frame's rows of ``(frames, joints, 3, 4)`` matrices."""
    frames = len(matrices)
    out = np.empty((frames, num_vertices, 3), np.float32)
    for start in range(0, frames, FRAMES_PER_CHUNK):
        chunk = matrices[start : start + FRAMES_PER_CHUNK]
        # Columns (row i, frame): one product gives every coordinate of every frame.
        rows = np.ascontiguousarray(chunk.transpose(1, 3, 2, 0)).reshape(product.shape[1], -1)
        out[start : start + len(chunk)] = (product @ rows).reshape(num_vertices, 3, len(chunk)).transpose(2, 0, 1)
    return out


def _unit(vectors: np.ndarray) -> np.ndarray:
    """Each vector at unit length, in place (callers pass arrays of their own); a zero vector stays zero."""
    out = vectors if vectors.dtype == np.float32 and vectors.flags.writeable and vectors.flags.c_contiguous else np.array(vectors, np.float32)
    flat = out.reshape(-1, 3)
    # The squares summed in order, as a dot product does; a zero length divides by 1 (the zeros stay, signs and all).
    length = np.sqrt(flat[:, 0] * flat[:, 0] + flat[:, 1] * flat[:, 1] + flat[:, 2] * flat[:, 2])
    length[length == 0] = 1
    flat /= length[:, None]
    return out


def places(positions: np.ndarray) -> np.ndarray:
    """``int64`` ``(vertices,)``: a number for each place, the same for vertices at the same position.

    Places are numbered in the order of their three floats' bits (x, then y, then z): two sorts of one
    ``uint64`` key each (a ``lexsort`` of two keys took twice as long), x and y's rank, then that rank
    with z.
    """
    bits = (np.ascontiguousarray(positions, np.float32).reshape(-1, 3) + np.float32(0)).view(np.uint32)  # -0.0 is 0.0
    if not len(bits):
        return np.zeros(0, np.int64)
    wide = bits.astype(np.uint64)
    xy = wide[:, 0] << np.uint64(32) | wide[:, 1]
    order = np.argsort(xy)
    ordered = xy[order]
    rank = np.empty(len(xy), np.uint64)
    rank[order] = np.cumsum(np.concatenate(([False], ordered[1:] != ordered[:-1])), dtype=np.uint64)
    return np.unique(rank << np.uint64(32) | wide[:, 2], return_inverse=True)[1].astype(np.int64, copy=False)


def _corners_once(triangles: np.ndarray, group: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each triangle's places (the groups of its corners), a place once per triangle: ``(places, triangle of each)``."""
    corners = group[triangles]
    once = np.ones(corners.shape, bool)
    once[:, 1] = corners[:, 1] != corners[:, 0]
    once[:, 2] = (corners[:, 2] != corners[:, 0]) & (corners[:, 2] != corners[:, 1])
    return corners[once], np.nonzero(once)[0]


def _frame_faces(positions: np.ndarray, corner_rows: np.ndarray) -> np.ndarray:
    """``float32`` ``(triangles, frames * 3)``: each triangle's ``u x v`` (twice its area along its normal) in each of
    ``(frames, vertices, 3)`` positions, from ``(3, triangles)`` corners; clockwise seen from outside, it points out."""
    xyz = np.ascontiguousarray(np.asarray(positions, np.float32).transpose(2, 0, 1))  # (xyz, frame, vertex)
    coordinates = np.take(xyz, corner_rows, axis=2)  # (xyz, frame, corner, triangle)
    ux, uy, uz = coordinates[:, :, 2] - coordinates[:, :, 0]
    vx, vy, vz = coordinates[:, :, 1] - coordinates[:, :, 0]
    faces = np.empty((corner_rows.shape[1], len(positions), 3), np.float32)
    faces[:, :, 0] = (uy * vz - uz * vy).T
    faces[:, :, 1] = (uz * vx - ux * vz).T
    faces[:, :, 2] = (ux * vy - uy * vx).T
    return faces.reshape(len(faces), -1)


def incidence(triangles: np.ndarray, num_vertices: int, groups: np.ndarray | None = None) -> sparse.csr_matrix:
    """``(places, triangles)``: 1 where a triangle touches a place (the vertices of a group: one bind position), once.

    Without ``groups`` each vertex is its own place.
    """
    tri = np.asarray(triangles, np.int64).reshape(-1, 3)
    group = np.arange(num_vertices) if groups is None else np.asarray(groups, np.int64)
    places, of = _corners_once(tri, group)
    from scipy import sparse  # noqa: PLC0415 - see _linear

    return sparse.csr_matrix((np.ones(len(places), np.float32), (places, of)), shape=(int(group.max(initial=-1)) + 1, len(tri)))


def grouped_normals(positions: np.ndarray, triangles: np.ndarray, group: np.ndarray | None) -> np.ndarray:
    """:func:`triangle_normals` of a frame or two, summed by ``bincount`` instead of a sparse product made first.

    ``group`` numbers each vertex's place (``None``: a surface with no triangles or vertices); a
    triangle counts once for a place however many of its corners are there.
    """
    frames, n = positions.shape[:2]
    if group is None or not len(triangles) or not n:
        return np.zeros((frames, n, 3), np.float32)
    tri = np.asarray(triangles, np.int64).reshape(-1, 3)
    places, of = _corners_once(tri, group)
    count = int(group.max()) + 1
    out = np.empty((frames, n, 3), np.float32)
    corner_rows = np.ascontiguousarray(tri.T)
    for f in range(frames):
        faces = _frame_faces(positions[f : f + 1], corner_rows)
        summed = np.stack([np.bincount(places, faces[of, k], count) for k in range(3)], axis=1)
        out[f] = summed[group]
    return _unit(out)


def triangle_normals(
    positions: np.ndarray, triangles: np.ndarray, groups: np.ndarray | None = None, touches: sparse.csr_matrix | None = None
) -> np.ndarray:
    """``float32`` ``(frames, vertices, 3)`` unit vertex normals from clockwise triangles, area-weighted.

    A vertex takes the triangles of its place (``groups`` numbers each vertex's; by default each
    vertex is its own), each once; ``touches`` is :func:`incidence`'s matrix of those places (made once
    per surface, made here when not given).  A vertex on no triangle gets ``(0, 0, 0)``.
    """
    frames, n = positions.shape[:2]
    if not len(triangles) or not n:
        return np.zeros((frames, n, 3), np.float32)
    tri = np.asarray(triangles, np.int64)
    if touches is None:
        touches = incidence(tri, n, groups)
    out = np.empty((frames, n, 3), np.float32)
    corner_rows = np.ascontiguousarray(tri.T)
    # Many frames at once (a few numpy calls a chunk, not a dozen a frame); each face's arithmetic and
    # each place's sum in the same order as for one frame, so every frame's normals are the same bits.
    step = max(1, TRIANGLE_FRAMES_PER_CHUNK // len(tri))
    for start in range(0, frames, step):
        chunk = positions[start : start + step]
        summed = touches @ _frame_faces(chunk, corner_rows)  # (places, frames * 3)
        if groups is not None:
            summed = np.take(summed, groups, axis=0)
        out[start : start + len(chunk)] = summed.reshape(n, len(chunk), 3).transpose(1, 0, 2)
    return _unit(out)


def check_fit(mesh: ModelData, blend: str, num_joints: int, source: str) -> None:
    """Check that an animation of ``blend`` (``'slerp'`` an ``.md5anim``, ``'matrix'`` IQM poses) and ``num_joints``
    joints can animate ``mesh`` (what its header tells; :func:`attach` checks an ``.md5anim``'s hierarchy too).

    Raises
    ------
    QuakeFormatError
        Naming the format or the count that differs.

    """
    skeleton = mesh.skeleton
    if skeleton is None or skeleton.blend != blend:  # no skeleton, or another engine's
        if blend == 'slerp':
            raise QuakeFormatError(source, 'format', 'md5anim', f'an .md5anim animates an .md5mesh, not an {mesh.format.upper()}')
        raise QuakeFormatError(source, 'magic', 'INTERQUAKEMODEL', f'IQM poses animate an IQM, not an {mesh.format.upper()}')
    if num_joints != len(skeleton.joints):
        field, what = ('numJoints', '') if blend == 'slerp' else ('num_poses', ' (num_joints)')
        raise QuakeFormatError(source, field, num_joints, f'the mesh {mesh.source} has {len(skeleton.joints)} joints{what}')


def attach(mesh: ModelData, animation: SkeletalAnimationData, source: str) -> SkeletalAnimationData:
    """Check that ``animation`` fits ``mesh``'s skeleton, as the engines check it, and give it the mesh's joints.

    An ``.md5anim`` must name the mesh's joints with the same parents, in order
    (Doom 3's ``CheckModelHierarchy``); an IQM file of poses must have one pose
    per joint (the demo's ``loadiqmanims``), and the mesh's hierarchy wins where
    the poses give other parents (Cube 2).

    Raises
    ------
    QuakeFormatError
        Naming the joint that differs, or the counts.

    """
    check_fit(mesh, animation.blend, len(animation.joints), source)
    joints = skeleton_of(mesh).joints
    if animation.blend == 'slerp':
        for k, (a, m) in enumerate(zip(animation.joints, joints)):
            if a.name != m.name or a.parent != m.parent:
                raise QuakeFormatError(
                    source,
                    f'hierarchy joint {k}',
                    f'{a.name} (parent {a.parent})',
                    f"the mesh has {m.name} (parent {m.parent}) there (Doom 3's CheckModelHierarchy)",
                )
    return SkeletalAnimationData(
        animation.source, list(joints), animation.poses, animation.clips, animation.blend, animation.bounds, animation.pose_parents
    )


def rest_locals(skeleton: Skeleton) -> np.ndarray:
    """``(joints, 10)``: a skeleton's bind pose as parent-relative translation, quaternion ``xyzw`` and scale.

    The poses of a frame that shows the bind pose, for either blend (a joint scaled to nothing
    takes its parent's pseudo-inverse).
    """
    bind = np.asarray(skeleton.bind, np.float64)
    local = bind.copy()
    parents = np.array([j.parent for j in skeleton.joints], np.int64)
    child = parents >= 0
    if child.any():
        local[child] = inverse(bind)[parents[child]] @ bind[child]  # the inverses skinning takes (Skinning.inverse_bind)
    out = np.zeros((len(bind), 10))
    out[:, :3] = local[:, :3, 3]
    out[:, 7:] = np.linalg.norm(local[:, :3, :3], axis=1)
    out[:, 3:7] = quaternion_of(local[:, :3, :3])
    return out


def quaternion_of(matrices: np.ndarray) -> np.ndarray:
    """Unit quaternions ``xyzw`` of rotation matrices ``(..., 3, 3)`` (their scale divided out first)."""
    m = np.asarray(matrices, np.float64)
    scale = np.linalg.norm(m, axis=-2, keepdims=True)
    r = np.divide(m, scale, out=np.zeros_like(m), where=scale > 0)
    trace = r[..., 0, 0] + r[..., 1, 1] + r[..., 2, 2]
    candidates = np.stack(
        [
            np.stack([r[..., 2, 1] - r[..., 1, 2], r[..., 0, 2] - r[..., 2, 0], r[..., 1, 0] - r[..., 0, 1], 1 + trace], -1),
            np.stack(
                [
                    1 + r[..., 0, 0] - r[..., 1, 1] - r[..., 2, 2],
                    r[..., 0, 1] + r[..., 1, 0],
                    r[..., 0, 2] + r[..., 2, 0],
                    r[..., 2, 1] - r[..., 1, 2],
                ],
                -1,
            ),
            np.stack(
                [
                    r[..., 0, 1] + r[..., 1, 0],
                    1 + r[..., 1, 1] - r[..., 0, 0] - r[..., 2, 2],
                    r[..., 1, 2] + r[..., 2, 1],
                    r[..., 0, 2] - r[..., 2, 0],
                ],
                -1,
            ),
            np.stack(
                [
                    r[..., 0, 2] + r[..., 2, 0],
                    r[..., 1, 2] + r[..., 2, 1],
                    1 + r[..., 2, 2] - r[..., 0, 0] - r[..., 1, 1],
                    r[..., 1, 0] - r[..., 0, 1],
                ],
                -1,
            ),
        ],
        -2,
    )
    pick = np.argmax(np.stack([trace, r[..., 0, 0], r[..., 1, 1], r[..., 2, 2]], -1), axis=-1)
    q = np.take_along_axis(candidates, pick[..., None, None], axis=-2)[..., 0, :]
    q = normalised(q)
    return np.where(q[..., 3:4] < 0, -q, q)
