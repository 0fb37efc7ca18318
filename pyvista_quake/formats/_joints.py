"""Joint transforms shared by the skeletal formats: quaternions to matrices, parents composed.

All numpy over every joint (and frame) at once; float64, as the files' floats
are composed through several parents.
"""

from __future__ import annotations

import functools
from typing import Sequence

import numpy as np


def rotation_matrices(q: np.ndarray) -> np.ndarray:
    """``(..., 3, 3)`` matrices of quaternions ``(..., 4)`` as ``xyzw`` (the usual formula, not normalised)."""
    q = np.asarray(q, np.float64)
    x, y, z, w = (q[..., k] for k in range(4))
    out = np.empty(q.shape[:-1] + (3, 3))
    out[..., 0, 0] = 1 - 2 * (y * y + z * z)
    out[..., 0, 1] = 2 * (x * y - w * z)
    out[..., 0, 2] = 2 * (x * z + w * y)
    out[..., 1, 0] = 2 * (x * y + w * z)
    out[..., 1, 1] = 1 - 2 * (x * x + z * z)
    out[..., 1, 2] = 2 * (y * z - w * x)
    out[..., 2, 0] = 2 * (x * z - w * y)
    out[..., 2, 1] = 2 * (y * z + w * x)
    out[..., 2, 2] = 1 - 2 * (x * x + y * y)
    return out


def normalised(q: np.ndarray) -> np.ndarray:
    """Unit quaternions (a zero one becomes the identity)."""
    q = np.asarray(q, np.float64)
    length = np.linalg.norm(q, axis=-1, keepdims=True)
    out = np.divide(q, length, out=np.zeros_like(q), where=length > 0)
    out[..., 3] = np.where(length[..., 0] > 0, out[..., 3], 1.0)
    return out


def trs_matrices(trs: np.ndarray, normalise: bool = True) -> np.ndarray:
    """``(..., 4, 4)`` matrices ``T R S`` of ``(..., 10)``: translation, quaternion ``xyzw``, scale.

    ``normalise`` makes each quaternion unit length first, as the IQM demo does
    (quantised channels are not); MD5's are used as Doom 3 rebuilds them.
    """
    trs = np.asarray(trs, np.float64)
    q = normalised(trs[..., 3:7]) if normalise else trs[..., 3:7]
    out = np.zeros(trs.shape[:-1] + (4, 4))
    out[..., :3, :3] = rotation_matrices(q) * trs[..., None, 7:10]
    out[..., :3, 3] = trs[..., 0:3]
    out[..., 3, 3] = 1.0
    return out


def compose(local: np.ndarray, parents: Sequence[int]) -> np.ndarray:
    """Object-space matrices ``(..., joints, 4, 4)`` from parent-relative ones, composed in joint order.

    As the loaders do it, in place in joint order: a joint whose parent comes
    after it takes that parent's matrix as it stands then.
    """
    out = np.array(local, np.float64)
    parents = tuple(int(p) for p in parents)
    levels = _levels(parents)
    if levels is not None:
        # Every parent before its children (as exporters write them): the joints of one depth at once, their
        # parents already whole; the same products as one joint at a time.
        for joints, chosen in levels:
            out[..., joints, :, :] = out[..., chosen, :, :] @ out[..., joints, :, :]
        return out
    for j, parent in enumerate(parents):
        if parent >= 0:
            out[..., j, :, :] = out[..., parent, :, :] @ out[..., j, :, :]
    return out


@functools.lru_cache(maxsize=64)
def _levels(parents: tuple[int, ...]) -> list[tuple[np.ndarray, np.ndarray]] | None:
    """The joints of each depth below the roots and their parents, or ``None`` when a parent comes after its child.

    Kept per skeleton: a model poses one skeleton frame after frame.
    """
    if not all(p < j for j, p in enumerate(parents)):
        return None
    depth = [0] * len(parents)
    for j, parent in enumerate(parents):
        depth[j] = depth[parent] + 1 if parent >= 0 else 0
    levels, chosen = np.asarray(depth), np.asarray(parents)
    out = []
    for level in range(1, max(depth, default=0) + 1):
        joints = np.flatnonzero(levels == level)
        joints.flags.writeable = False
        parent_joints = chosen[joints]
        parent_joints.flags.writeable = False
        out.append((joints, parent_joints))
    return out


def inverse(matrices: np.ndarray) -> np.ndarray:
    """Inverses of ``(..., 4, 4)`` matrices; a singular one (a joint scaled to nothing) gets its pseudo-inverse."""
    matrices = np.asarray(matrices, np.float64)
    try:
        return np.linalg.inv(matrices)
    except np.linalg.LinAlgError:
        return np.linalg.pinv(matrices)
