"""A level's lightmap pages in one image, and each surface's coordinates in it: what pictures and glTF draw.

The engines bind one lightmap page a face (and light a face without one by its vertex
colours); a picture (one VTK texture unit) and a glTF material (one texture a slot) take
one image for all of a surface's faces instead, so the pages go into a grid, then a white
page for the faces lit by their vertices (Quake III's ``lightmapNum`` below 0).  The pages are brightened as the engine draws them
(:func:`pyvista_quake.game.skins.shifted_lighting`, by the level's ``light_scale``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyvista as pv

from pyvista_quake._base.fields import SURFACE_INDEX
from pyvista_quake.game.skins import shifted_lighting


def atlas_grid(count: int) -> tuple[int, int]:
    """``(columns, rows)`` of an atlas of ``count`` lightmap pages and one white page after them."""
    columns = int(np.ceil(np.sqrt(count + 1)))
    return columns, -(-(count + 1) // columns)


def lightmap_atlas(pages: np.ndarray, scale: float) -> np.ndarray:
    """A level's lightmap pages, brightened as the engine draws them (``scale``: the level's
    ``light_scale``), in one image: page ``p`` at column ``p % columns`` and row ``p // columns``, then a
    white page for the faces lit by their vertices."""
    count, height, width = pages.shape[:3]
    columns, rows = atlas_grid(count)
    atlas = np.full((rows * height, columns * width, 3), 255, np.uint8)
    for number, page in enumerate(shifted_lighting(pages, scale)):
        row, column = divmod(number, columns)
        atlas[row * height : (row + 1) * height, column * width : (column + 1) * width] = page
    return atlas


def place_in_atlas(block: pv.PolyData, count: int, scale: float = 4.0, vertex_colours: bool = True) -> None:
    """``point_data["lightmap_atlas"]``: a surface's lightmap coordinates in :func:`lightmap_atlas`'s image
    (``v`` from the bottom, as texture coordinates are); and where the surface has vertex colours (Quake III),
    ``point_data["vertex_light"]``: a vertex-lit face's colour brightened as the engine brightens it
    (``R_ColorShiftLightingBytes`` by ``scale``, as ``ParseFace`` does), white on a lightmapped one, and white
    on every face where the surface's shader does not ask for vertex colours (``vertex_colours`` false)."""
    if 'lightmap' not in block.point_data or 'lightmap_page' not in block.point_data:
        return
    page = np.asarray(block.point_data['lightmap_page'])
    unlit = (page < 0) | (page >= count)  # vertex-lit (or a page the map lacks): the white page
    if 'color' in block.point_data and not vertex_colours:
        block.point_data['vertex_light'] = np.full((block.n_points, 3), 255, np.uint8)
    elif 'color' in block.point_data:
        colour = np.asarray(block.point_data['color'], np.uint8)[:, :3]
        block.point_data['vertex_light'] = np.where(unlit[:, None], shifted_lighting(colour, scale), np.uint8(255)).astype(np.uint8)
    st = np.clip(np.asarray(block.point_data['lightmap'], np.float64), 0.0, 1.0)
    page = np.where(unlit, count, page)
    st = np.where(unlit[:, None], 0.5, st)
    columns, rows = atlas_grid(count)
    row, column = np.divmod(page, columns)
    # The image's first row is at v = 1, a page's first row at t = 0.
    uv = np.column_stack([(column + st[:, 0]) / columns, 1.0 - (row + st[:, 1]) / rows])
    block.point_data['lightmap_atlas'] = uv.astype(np.float32)


def lit_blocks(model: Any, blocks: list[pv.PolyData]) -> np.ndarray | None:
    """The atlas of a level's lightmaps, its blocks given their coordinates in it; ``None`` (blocks untouched)
    for a model without lightmaps."""
    pages = getattr(model, 'lightmaps', None) if model is not None else None
    if pages is None or not len(pages):
        return None
    for block in blocks:
        index = block.field_data.get(SURFACE_INDEX)
        coloured = model.surfaces[int(index[0])].vertex_colours if index is not None and len(index) else True
        place_in_atlas(block, len(pages), model.level.light_scale, coloured)
    return lightmap_atlas(pages, model.level.light_scale)
