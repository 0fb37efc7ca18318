"""A level's lightmap pages in one image, and each surface's coordinates in it: what pictures and glTF draw.

The engines bind one lightmap page a face (and light a face without one by its vertex
colours); a picture (one VTK texture unit) and a glTF material (one texture a slot) take
one image for all of a surface's faces instead, so the pages go into a grid, then a white
page for the faces lit by their vertices (Quake III's ``lightmapNum`` below 0); a grid past
4096 texels a side (UFO: AI's largest maps) is shrunk to fit, white rows below its pages.  The pages are brightened as the engine draws them
(:func:`pyvista_quake.game.skins.shifted_lighting`, by the level's ``light_scale``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pyvista as pv

from pyvista_quake._base.fields import SURFACE_INDEX
from pyvista_quake.game.skins import shifted_lighting


def atlas_grid(count: int) -> tuple[int, int]:
    """``(columns, rows)`` of an atlas of ``count`` lightmap pages and one white page after them."""
    columns = int(np.ceil(np.sqrt(count + 1)))
    return columns, -(-(count + 1) // columns)


#: The widest image a picture's or glTF's lightmap atlas has (what every GPU and glTF viewer takes).
MAX_ATLAS_SIDE = 4096


@dataclass(frozen=True)
class AtlasLayout:
    """Where ``count`` lightmap pages of ``height`` x ``width`` texels sit in one image.

    Page ``p`` is at column ``p % columns`` and row ``p // columns`` of a grid.  The faces lit by their
    vertices take white: a white page in the grid's slot after the last page; or, where that grid
    would be wider than :data:`MAX_ATLAS_SIDE`, rows of white below the pages, and the whole image is
    then shrunk ``shrink`` times (each ``shrink`` x ``shrink`` texels averaged) to fit.
    """

    count: int
    height: int
    width: int
    columns: int
    rows: int
    shape: tuple[int, int]
    shrink: int = 1

    @classmethod
    def of(cls, count: int, height: int, width: int) -> AtlasLayout:
        """The layout of ``count`` pages of ``height`` x ``width`` texels."""
        columns, rows = atlas_grid(count)
        if columns * width <= MAX_ATLAS_SIDE and rows * height <= MAX_ATLAS_SIDE:
            return cls(count, height, width, columns, rows, (rows * height, columns * width))
        columns = int(np.ceil(np.sqrt(count)))
        rows = -(-count // columns)
        tall, wide = rows * height, columns * width
        shrink = max(1, -(-max(tall, wide) // MAX_ATLAS_SIDE))
        while -(-(tall + 2 * shrink) // shrink) > MAX_ATLAS_SIDE or -(-wide // shrink) > MAX_ATLAS_SIDE:
            shrink += 1  # the white rows, two texels after shrinking, must fit too
        shape = (-(-(tall + 2 * shrink) // shrink) * shrink, -(-wide // shrink) * shrink)
        return cls(count, height, width, columns, rows, shape, shrink)

    def uv(self, page: np.ndarray, st: np.ndarray) -> np.ndarray:
        """Texture coordinates (``v`` from the bottom) of ``st`` on each ``page`` (``count``: the white)."""
        total, wide = self.shape
        row, column = np.divmod(page, self.columns)
        uv = np.column_stack([(column * self.width + st[:, 0] * self.width) / wide, 1.0 - (row * self.height + st[:, 1] * self.height) / total])
        if self.shrink > 1 or total > self.rows * self.height:  # white rows below the pages
            white = page >= self.count
            uv[white] = (0.5, 1.0 - (self.rows * self.height + (total - self.rows * self.height) / 2) / total)
        return uv


def lightmap_atlas(pages: np.ndarray, scale: float) -> np.ndarray:
    """A level's lightmap pages, brightened as the engine draws them (``scale``: the level's
    ``light_scale``), in one image laid out by :class:`AtlasLayout`, with white for the faces lit
    by their vertices; at most :data:`MAX_ATLAS_SIDE` a side."""
    count, height, width = pages.shape[:3]
    layout = AtlasLayout.of(count, height, width)
    atlas = np.full((*layout.shape, 3), 255, np.uint8)
    for number, page in enumerate(pages):  # a page at a time: a huge map's pages are never all widened at once
        row, column = divmod(number, layout.columns)
        atlas[row * height : (row + 1) * height, column * width : (column + 1) * width] = shifted_lighting(page, scale)
    if layout.shrink > 1:
        n = layout.shrink
        rows, columns = layout.shape[0] // n, layout.shape[1] // n
        summed = np.zeros((rows, columns, 3), np.uint32)
        for i in range(n):  # n x n texels averaged, n strided views at a time (no copy of the whole image as floats)
            for j in range(n):
                summed += atlas[i::n, j::n]
        atlas = ((summed + n * n // 2) // (n * n)).astype(np.uint8)
    return atlas


def place_in_atlas(block: pv.PolyData, count: int, scale: float = 4.0, vertex_colours: bool = True, page_shape: tuple[int, int] = (128, 128)) -> None:
    """``point_data["lightmap_atlas"]``: a surface's lightmap coordinates in :func:`lightmap_atlas`'s image of
    ``count`` pages of ``page_shape`` (``v`` from the bottom, as texture coordinates are); and where the surface
    has vertex colours (Quake III), ``point_data["vertex_light"]``: a vertex-lit face's colour brightened as the
    engine brightens it (``R_ColorShiftLightingBytes`` by ``scale``, as ``ParseFace`` does), white on a lightmapped
    one, and white on every face where the surface's shader does not ask for vertex colours (``vertex_colours`` false)."""
    if 'lightmap' not in block.point_data or 'lightmap_page' not in block.point_data:
        return
    page = np.asarray(block.point_data['lightmap_page'])
    unlit = (page < 0) | (page >= count)  # vertex-lit (or a page the map lacks): the white
    if 'color' in block.point_data and not vertex_colours:
        block.point_data['vertex_light'] = np.full((block.n_points, 3), 255, np.uint8)
    elif 'color' in block.point_data:
        colour = np.asarray(block.point_data['color'], np.uint8)[:, :3]
        block.point_data['vertex_light'] = np.where(unlit[:, None], shifted_lighting(colour, scale), np.uint8(255)).astype(np.uint8)
    st = np.clip(np.asarray(block.point_data['lightmap'], np.float64), 0.0, 1.0)
    page = np.where(unlit, count, page)
    st = np.where(unlit[:, None], 0.5, st)
    # The image's first row is at v = 1, a page's first row at t = 0.
    block.point_data['lightmap_atlas'] = AtlasLayout.of(count, *page_shape).uv(page, st).astype(np.float32)


def lit_blocks(model: Any, blocks: list[pv.PolyData]) -> np.ndarray | None:
    """The atlas of a level's lightmaps, its blocks given their coordinates in it; ``None`` (blocks untouched)
    for a model without lightmaps."""
    pages = getattr(model, 'lightmaps', None) if model is not None else None
    if pages is None or not len(pages):
        return None
    for block in blocks:
        index = block.field_data.get(SURFACE_INDEX)
        coloured = model.surfaces[int(index[0])].vertex_colours if index is not None and len(index) else True
        place_in_atlas(block, len(pages), model.level.light_scale, coloured, pages.shape[1:3])
    return lightmap_atlas(pages, model.level.light_scale)
