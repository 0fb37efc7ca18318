"""Packing float geometry into the formats' 8-bit vertices, shared by both writers.

Positions become ``v * scale + translate`` with ``v`` in 0..255 and normals
the nearest of the 162 table entries.  Nothing here knows a byte layout: the
format modules decide over which frames a scale is shared.
"""

from __future__ import annotations

import numpy as np

from pyvista_quake.formats.tables import VERTEX_NORMALS

#: Rows of the normal matching done at a time: bounds the (rows, 162) scratch to ~40 MB.
NORMAL_CHUNK = 1 << 16


def quantize(positions: np.ndarray, low: np.ndarray, high: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Quantise positions to 8 bits over the box ``[low, high]``.

    Parameters
    ----------
    positions : numpy.ndarray
        ``(frames, vertices, 3)`` positions.
    low, high : numpy.ndarray
        ``(frames, 3)`` corners of the box each frame is quantised over
        (one row repeated for a scale shared by every frame).

    Returns
    -------
    tuple of numpy.ndarray
        ``uint8`` ``(frames, vertices, 3)`` packed coordinates, and the
        ``float32`` ``(frames, 3)`` ``scale`` and ``translate`` that decode them.

    """
    translate = np.asarray(low, np.float32)
    scale = ((np.asarray(high, np.float32) - translate) / np.float32(255)).astype(np.float32)
    return pack_on(positions, scale, translate), scale, translate


def pack_on(positions: np.ndarray, scale: np.ndarray, translate: np.ndarray) -> np.ndarray:
    """Nearest 8-bit ``v`` of ``v * scale + translate`` for each position (``scale``/``translate`` ``(frames, 3)``)."""
    scale = np.asarray(scale, np.float32)
    # A flat axis (all points equal) keeps scale 0: every v decodes to translate exactly.
    safe = np.where(scale > 0, scale, np.float32(1))
    packed = np.rint((np.asarray(positions, np.float32) - translate[:, None, :]) / safe[:, None, :])
    np.clip(packed, 0, 255, out=packed)
    return packed.astype(np.uint8)


def nearest_normals(normals: np.ndarray) -> np.ndarray:
    """Index of the table normal nearest each of ``normals`` (``(..., 3)``), ``uint8``."""
    flat = np.asarray(normals, np.float32).reshape(-1, 3)
    out = np.empty(len(flat), np.uint8)
    for start in range(0, len(flat), NORMAL_CHUNK):
        rows = flat[start : start + NORMAL_CHUNK]
        out[start : start + len(rows)] = np.argmax(rows @ VERTEX_NORMALS.T, axis=1)
    return out.reshape(np.shape(normals)[:-1])


def vertex_face_normals(positions: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    """Area-weighted mean normal of each vertex's faces, for every frame at once.

    Parameters
    ----------
    positions : numpy.ndarray
        ``(frames, vertices, 3)`` vertex positions.
    triangles : numpy.ndarray
        ``(n, 3)`` vertex numbers in the files' corner order (clockwise seen
        from outside).

    Returns
    -------
    numpy.ndarray
        ``float32`` ``(frames, vertices, 3)`` unit normals (zero for a vertex
        with no faces of non-zero area).

    """
    positions = np.asarray(positions, np.float32)
    frames, vertices = positions.shape[:2]
    corners = positions[:, triangles]  # (F, T, 3, 3)
    # Clockwise corner order, hence (2, 1) for an outward normal.
    face = np.cross(corners[:, :, 2] - corners[:, :, 0], corners[:, :, 1] - corners[:, :, 0])
    sums = np.zeros((frames, vertices, 3), np.float64)
    for axis in range(3):
        # bincount per axis over (frame, vertex) pairs: np.add.at without its slowness.
        flat_index = (np.arange(frames)[:, None] * vertices + triangles.reshape(1, -1)).ravel()
        weights = np.repeat(face[..., axis], 3, axis=1).ravel()
        sums[..., axis] = np.bincount(flat_index, weights, frames * vertices).reshape(frames, vertices)
    length = np.linalg.norm(sums, axis=-1, keepdims=True)
    return np.divide(sums, length, out=np.zeros_like(sums), where=length > 0).astype(np.float32)
