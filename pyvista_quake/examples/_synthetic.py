"""A synthetic model: small, animated and textured, made anywhere with no files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyvista as pv

from pyvista_quake.model.quake_model import QuakeModel


def synthetic_model(format: str = 'md2', frames: int = 8):
    """A textured, animated model made on the spot: a creature that breathes and turns its head.

    Parameters
    ----------
    format : str, default: 'md2'
        ``'md2'`` or ``'mdl'``.
    frames : int, default: 8
        Frames of its one animation, ``breathe``.

    Returns
    -------
    QuakeModel
        The model, not saved anywhere (``model.save(path)`` writes it).

    """
    body = pv.Sphere(radius=12, center=(0, 0, 20), theta_resolution=24, phi_resolution=16)
    head = pv.Sphere(radius=6, center=(10, 0, 34), theta_resolution=16, phi_resolution=12)
    base = (body + head).triangulate().clean()
    points = np.asarray(base.points)
    # Texture coordinates by angle around z and height: a band skin.
    angle = np.arctan2(points[:, 1], points[:, 0])
    base.active_texture_coordinates = np.column_stack([(angle + np.pi) / (2 * np.pi), (points[:, 2] - 8) / 34])
    poses = []
    for k in range(frames):
        phase = 2 * np.pi * k / frames
        pose = base.copy()
        moved = points.copy()
        breathing = 1 + 0.08 * np.sin(phase)
        moved[:, :2] *= np.where(points[:, 2:3] < 28, breathing, 1)
        nod = points[:, 2] >= 28
        moved[nod, 1] += 3 * np.sin(phase)
        pose.points = moved
        poses.append(pose)
    return QuakeModel.from_frames(poses, format, skin=_band_skin(), names=[f'breathe{k + 1}' for k in range(frames)])


def _band_skin(size: int = 64) -> np.ndarray:
    """Stripes and a checker: easy to see how a skin wraps."""
    rows = np.arange(size)[:, None]
    cols = np.arange(size)[None, :]
    image = np.zeros((size, size, 3), np.uint8)
    image[...] = (170, 120, 70)
    image[np.broadcast_to((rows // 8) % 2 == 0, (size, size))] = (120, 80, 40)
    image[((rows // 8 + cols // 8) % 2 == 0) & (rows < 16)] = (220, 200, 160)
    return image


#: The synthetic player's ``animation.cfg``: every animation of the fixed order, legs frames after the torso's.
_PLAYER_CFG_LINES = (
    [(0, 1, 0, 10)] * 6 + [(0, 4, 0, 10)] + [(0, 1, 0, 10)] * 4 + [(4, 1, 0, 10)] * 2  # BOTH_*, TORSO_*
    + [(5, 8, 8, 10)] * 3 + [(13, 1, 0, 10)] * 6 + [(5, 8, 8, 10)] + [(13, 1, 1, 10)] * 2 + [(13, 1, 0, 10)]  # LEGS_*
)  # fmt: skip


def synthetic_player(folder: str | Path) -> Path:
    """Write a small Quake III player to ``folder``: ``lower``, ``upper`` and ``head.md3``, ``animation.cfg``.

    Boxes and a ball joined by ``tag_torso``, ``tag_head`` and ``tag_weapon``;
    the legs run (``LEGS_RUN``, frames 5-12 of the shared numbering) and the
    torso waves (``TORSO_GESTURE``).  Untextured.  Returns the folder.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    frames = 14  # of each part's file: torso frames 0-4, legs frames 0-8 after the shift

    def tag(origins, angles):
        axes = np.stack([_about_z(a) for a in angles])
        return np.asarray(origins, np.float32), axes.astype(np.float32)

    legs, swing = [], np.sin(np.linspace(0, 2 * np.pi, 8, endpoint=False))
    for k in range(frames):
        left = pv.Box((-3, 3, 1, 5, -24, 0)).triangulate()
        right = pv.Box((-3, 3, -5, -1, -24, 0)).triangulate()
        s = swing[k] if k < 8 else 0.0  # LEGS_RUN: frames 0-7 of lower.md3
        left.points[:, 0] += 8 * s * (left.points[:, 2] + 24) / 24 - 8 * s
        right.points[:, 0] -= 8 * s * (right.points[:, 2] + 24) / 24 - 8 * s
        legs.append(pv.MultiBlock({'l_legs': (left + right).triangulate()}))
    torso = []
    for k in range(frames):
        chest = pv.Box((-4, 4, -8, 8, 0, 16)).triangulate()
        arm = pv.Box((-2, 2, 8, 11, 2 + 6 * (k % 5), 14 + 6 * (k % 5))).triangulate()
        torso.append(pv.MultiBlock({'u_torso': (chest + arm).triangulate()}))
    head = pv.MultiBlock({'h_head': pv.Sphere(radius=5, center=(0, 0, 5), theta_resolution=16, phi_resolution=12)})
    QuakeModel.from_frames(legs, 'md3', tags={'tag_torso': tag([[0, 0, 0]] * frames, [0] * frames)}).save(folder / 'lower.md3')
    QuakeModel.from_frames(torso, 'md3', tags={'tag_head': tag([[0, 0, 16]] * frames, [0] * frames),
                                          'tag_weapon': tag([[6, 10, 8]] * frames, [0] * frames)}).save(folder / 'upper.md3')  # fmt: skip
    QuakeModel.from_frames(head, 'md3').save(folder / 'head.md3')
    lines = ''.join(f'{a} {b} {c} {d}\n' for a, b, c, d in _PLAYER_CFG_LINES)
    (folder / 'animation.cfg').write_text(f'// a synthetic player\nsex m\n{lines}')
    return folder


def _about_z(degrees: float) -> np.ndarray:
    angle = np.radians(degrees)
    return np.array([[np.cos(angle), np.sin(angle), 0], [-np.sin(angle), np.cos(angle), 0], [0, 0, 1]])
