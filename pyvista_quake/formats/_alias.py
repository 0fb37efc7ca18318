"""An MD2's or MDL's one surface: the file's triangles and packed frames as a :class:`ModelData`.

Both formats store a vertex's position once and a texture coordinate per triangle
corner, so a mesh point is a distinct (vertex, texture coordinate) pair of the
triangles: a vertex on a skin seam is two points.  :func:`corner_order` finds the
pairs, :func:`alias_model` makes the record every format's reader returns, its
surface's frames a :class:`~pyvista_quake.formats.records.Packing` of the file's bytes.
"""

from __future__ import annotations

import numpy as np

from pyvista_quake.formats.records import AliasData
from pyvista_quake.formats.records import ModelData
from pyvista_quake.formats.records import Packing
from pyvista_quake.formats.records import SurfaceData


def corner_order(triangle_vertices: np.ndarray, triangle_st_key: np.ndarray, num_vertices: int) -> tuple[np.ndarray, np.ndarray]:
    """The triangles' corners sorted by (vertex, texture coordinate) pair, and where each pair starts.

    Returns ``(order, starts)``: corner numbers (``3 t + c``) in pair order, and a ``bool`` mark on the
    first corner of each pair.  Pairs are numbered in that order: points are ``order[starts]``'s corners.
    """
    corner_vertex = np.asarray(triangle_vertices, np.int64).ravel()
    corner_key = np.asarray(triangle_st_key, np.int64).ravel()
    if not len(corner_vertex):
        return np.zeros(0, np.int64), np.zeros(0, bool)
    keys = int(corner_key.max()) + 1
    pair = corner_vertex * keys + corner_key
    # np.unique, cheaper: sorting the pairs with each corner's number in the low bits
    # costs a third of an argsort.  Corners with one key share their st, so the first
    # corner of a pair stands for it.
    shift = max(1, (len(pair) - 1).bit_length())
    if num_vertices * keys < 1 << (62 - shift):
        keyed = pair << shift
        keyed |= np.arange(len(pair))
        keyed.sort()
        order = keyed & ((1 << shift) - 1)
        ordered = keyed >> shift
    else:
        order = np.argsort(pair)
        ordered = pair[order]
    starts = np.empty(len(ordered), bool)
    starts[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=starts[1:])
    return order, starts


def corner_points(order: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """``int64`` ``(triangles, 3)``: the point of each triangle corner, in the file's corner order."""
    inverse = np.empty(len(order), np.int64)
    inverse[order] = np.cumsum(starts) - 1
    return inverse.reshape(-1, 3)


def alias_model(alias: AliasData) -> ModelData:
    """The record of an MD2 or MDL: its one surface of packed bytes (unnamed: the files name none), and ``alias``.

    The surface's points are the triangles' (vertex, texture coordinate) pairs; its texture
    coordinates ``(s, t)`` are the skin's pixels over its size; its frames are views of the
    file's bytes.
    """
    order, starts = corner_order(alias.triangle_vertices, alias.triangle_st_key, alias.num_vertices)
    first = order[starts]
    st = np.take(np.asarray(alias.triangle_st, np.float64).reshape(-1, 2), first, axis=0)
    size = np.array([alias.skin_width, alias.skin_height], np.float64)
    texcoords = np.divide(st, size, out=np.zeros_like(st), where=size > 0)
    surface = SurfaceData(
        '',
        corner_points(order, starts).astype(np.int32),
        texcoords.astype(np.float32),
        alias.frame_verts[..., :3],
        packing=Packing(alias.frame_verts, alias.frame_scale, alias.frame_translate),
        point_vertex=np.asarray(alias.triangle_vertices).ravel()[first],
    )
    return ModelData([surface], alias.frame_names, format=alias.format, source=alias.source, header=alias.header, file=alias.file, alias=alias)
