"""A synthetic model: small, animated and textured, made anywhere with no files."""

from __future__ import annotations

import numpy as np
import pyvista as pv

from pyvista_quake.model import QuakeModel


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
