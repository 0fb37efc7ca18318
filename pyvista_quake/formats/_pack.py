"""Packing float geometry into the formats' 8-bit vertices, shared by both writers.

Positions become ``v * scale + translate`` with ``v`` in 0..255 and normals
the nearest of the 162 table entries.  Nothing here knows a byte layout: the
format modules decide over which frames a scale is shared.
"""

from __future__ import annotations

import functools

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
    """Index of the table normal nearest each of ``normals`` (``(..., 3)``), ``uint8``.

    Exact (the largest dot product), but each direction is compared with the
    few table normals that can be nearest anywhere in its cell of a cube map
    (:func:`_candidates`), not with all 162.
    """
    flat = np.asarray(normals, np.float32).reshape(-1, 3)
    out = np.empty(len(flat), np.uint8)
    table, cells = _candidates()
    for start in range(0, len(flat), NORMAL_CHUNK):
        rows = flat[start : start + NORMAL_CHUNK]
        candidates = table[_cube_cell(rows)]  # (n, K)
        dots = np.einsum('nkj,nj->nk', VERTEX_NORMALS[candidates], rows)
        out[start : start + len(rows)] = np.take_along_axis(candidates, dots.argmax(axis=1)[:, None], axis=1)[:, 0]
    return out.reshape(np.shape(normals)[:-1])


#: Cells along each edge of a cube-map face in :func:`nearest_normals`.
CUBE_CELLS = 32


def _cube_cell(directions: np.ndarray) -> np.ndarray:
    """Cube-map cell of each direction: face (axis and sign) and the cell on it."""
    magnitude = np.abs(directions)
    axis = magnitude.argmax(axis=1)
    rows = np.arange(len(directions))
    major = magnitude[rows, axis]
    major[major == 0] = 1  # a zero vector: any cell does
    face = 2 * axis + (directions[rows, axis] < 0)
    u = directions[rows, (axis + 1) % 3] / major
    v = directions[rows, (axis + 2) % 3] / major
    n = CUBE_CELLS
    iu = np.clip(((u + 1) * (n / 2)).astype(np.int64), 0, n - 1)
    iv = np.clip(((v + 1) * (n / 2)).astype(np.int64), 0, n - 1)
    return (face * n + iu) * n + iv


@functools.lru_cache(maxsize=1)
def _candidates() -> tuple[np.ndarray, int]:
    """For each cube-map cell, every table normal that can be nearest to a direction in it.

    A direction ``d`` within angle ``r`` of the cell's centre ``c`` has its
    nearest normal within ``angle(c, nearest to c) + 2 r`` of ``c``: those
    normals are the cell's candidates (padded to one width by repeating).
    """
    n = CUBE_CELLS
    edges = np.linspace(-1, 1, n + 1)
    centres = (edges[:-1] + edges[1:]) / 2
    table = VERTEX_NORMALS.astype(np.float64)
    rows = []
    for face in range(6):
        axis, odd = divmod(face, 2)
        sign = -1.0 if odd else 1.0

        def direction(u, v, axis=axis, sign=sign):  # bound now: called only in this pass of the loop
            d = np.zeros(np.broadcast(u, v).shape + (3,))
            d[..., axis] = sign
            d[..., (axis + 1) % 3] = u
            d[..., (axis + 2) % 3] = v
            return d / np.linalg.norm(d, axis=-1, keepdims=True)

        cu, cv = np.meshgrid(centres, centres, indexing='ij')
        centre = direction(cu, cv)  # (n, n, 3)
        radius = np.zeros((n, n))
        for du in (0, 1):
            for dv in (0, 1):
                corner = direction(edges[du : n + du][:, None], edges[dv : n + dv][None, :])
                radius = np.maximum(radius, np.arccos(np.clip((corner * centre).sum(-1), -1, 1)))
        angles = np.arccos(np.clip(centre.reshape(-1, 3) @ table.T, -1, 1))  # (n*n, 162)
        limit = angles.min(axis=1, keepdims=True) + 2 * radius.reshape(-1, 1) + 1e-6
        rows += [np.flatnonzero(row) for row in angles <= limit]
    width = max(len(r) for r in rows)
    padded = np.array([np.pad(r, (0, width - len(r)), mode='edge') for r in rows], np.uint8)
    return padded, width
