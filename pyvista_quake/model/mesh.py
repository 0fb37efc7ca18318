"""Building VTK meshes from numpy arrays, without copies and without PyVista's per-array overhead.

Frames are built often (a time series, a GIF, a contact sheet), so this
module talks to VTK directly: each numpy array is handed to VTK as is and
kept alive by the VTK array that uses it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from typing import Mapping

import numpy as np
import pyvista as pv
from vtkmodules.util.numpy_support import numpy_to_vtk
from vtkmodules.vtkCommonCore import vtkDataArray
from vtkmodules.vtkCommonCore import vtkDoubleArray
from vtkmodules.vtkCommonCore import vtkFloatArray
from vtkmodules.vtkCommonCore import vtkIntArray
from vtkmodules.vtkCommonCore import vtkLongLongArray
from vtkmodules.vtkCommonCore import vtkPoints
from vtkmodules.vtkCommonCore import vtkStringArray
from vtkmodules.vtkCommonCore import vtkUnsignedCharArray
from vtkmodules.vtkCommonDataModel import vtkCellArray
from vtkmodules.vtkCommonDataModel import vtkFieldData

from pyvista_quake._base import fields as keys
from pyvista_quake.game.skins import decode_image
from pyvista_quake.game.skins import drawn_alpha
from pyvista_quake.game.skins import palette_image


@dataclass(frozen=True)
class FrameTemplate:
    """What every frame of a model shares, as VTK objects made once: each mesh takes a copy.

    Made by :func:`frame_template`; copying a VTK array or cell array is one
    C++ call, where wrapping a numpy array is several Python ones.
    """

    polys: vtkCellArray | None
    strips: vtkCellArray | None
    texcoords: vtkDataArray
    point_arrays: tuple[vtkDataArray, ...]
    cell_arrays: tuple[vtkDataArray, ...]
    field_data: vtkFieldData | None


def frame_template(
    texcoords: np.ndarray,
    triangles: np.ndarray,
    *,
    strips: np.ndarray | None = None,
    point_arrays: Mapping[str, np.ndarray] = {},  # noqa: B006 - read only
    cell_arrays: Mapping[str, np.ndarray] = {},  # noqa: B006 - read only
    field_data: vtkFieldData | None = None,
) -> FrameTemplate:
    """The shared part of a model's frames (see :class:`FrameTemplate`); the arrays are copied."""
    polys = None
    if len(triangles):
        polys = vtkCellArray()
        polys.Use32BitStorage()
        polys.SetData(3, vtk_array('', np.array(triangles, np.int32).ravel()))
    strip_cells = pv.CellArray(np.array(strips)) if strips is not None and len(strips) else None
    return FrameTemplate(
        polys=polys,
        strips=strip_cells,
        texcoords=vtk_array('TCoords', np.array(texcoords)),
        point_arrays=tuple(vtk_array(name, np.array(values)) for name, values in point_arrays.items()),
        cell_arrays=tuple(vtk_array(name, np.array(values)) for name, values in cell_arrays.items()),
        field_data=field_data,
    )


def _copy(array):
    copy = array.NewInstance()
    copy.DeepCopy(array)
    return copy


def build_polydata(points: np.ndarray, normals: np.ndarray, template: FrameTemplate) -> pv.PolyData:
    """A frame: its points and normals (wrapped, not copied) on copies of the shared cells and arrays.

    The field data's arrays are shared between meshes (references, not copies);
    everything a user might edit in place is the mesh's own.
    """
    mesh = pv.PolyData()
    vtk_points = vtkPoints()
    vtk_points.SetData(vtk_array('Points', points))
    mesh.SetPoints(vtk_points)
    if template.polys is not None:
        mesh.SetPolys(_copy(template.polys))
    if template.strips is not None:
        mesh.SetStrips(_copy(template.strips))
    point_data = mesh.GetPointData()
    point_data.SetNormals(vtk_array('Normals', normals))
    point_data.SetTCoords(_copy(template.texcoords))
    for array in template.point_arrays:
        point_data.AddArray(_copy(array))
    cell_data = mesh.GetCellData()
    for array in template.cell_arrays:
        cell_data.AddArray(_copy(array))
    if template.field_data is not None:
        mesh.GetFieldData().ShallowCopy(template.field_data)  # references to the same arrays, in one call
    return mesh


def image_texture(image: np.ndarray) -> pv.Texture:
    """A :class:`pyvista.Texture` from an image whose rows run from the top.

    The first row goes to the top of the texture (``v = 1``), as
    ``pv.Texture(image)`` puts it and where the frames' ``v = 1 - t / height``
    puts the skin's top row.  Built on one flipped copy of the image, where
    PyVista's own conversion makes three (skins can be 4 MB, and thumbnail
    batches make one texture per model).
    """
    image = np.asarray(image)
    if image.dtype != np.uint8 or image.ndim not in (2, 3):
        return pv.Texture(np.ascontiguousarray(image))  # anything unusual: PyVista's general path
    height, width = image.shape[:2]
    rows = np.ascontiguousarray(image[::-1])  # VTK's images start at the bottom row
    grid = pv.ImageData(dimensions=(width, height, 1))
    grid.GetPointData().SetScalars(vtk_array('Image', rows.reshape(width * height, -1)))
    return pv.Texture(grid)


_VTK_ARRAY_TYPES = {
    np.dtype(np.float32): vtkFloatArray,
    np.dtype(np.float64): vtkDoubleArray,
    np.dtype(np.int32): vtkIntArray,
    np.dtype(np.int64): vtkLongLongArray,
    np.dtype(np.uint8): vtkUnsignedCharArray,
}


def ascii_text(text: str) -> str:
    """``text`` as VTK's strings hold it: ASCII, other characters as backslash escapes."""
    return text.encode('ascii', 'backslashreplace').decode('ascii')


def vtk_array(name: str, value):
    """A named VTK array over ``value`` without a copy, or a string array for a list.

    A lean ``numpy_to_vtk``: frames are built often, and its checks cost more
    than the small arrays themselves.
    """
    if isinstance(value, list):
        array = vtkStringArray()
        array.SetNumberOfValues(len(value))
        for i, text in enumerate(value):  # VTK string arrays hold ASCII only
            array.SetValue(i, ascii_text(text))
        array.SetName(name)
        return array
    data = np.ascontiguousarray(value)
    if data.dtype not in _VTK_ARRAY_TYPES:
        array = numpy_to_vtk(data, deep=True)  # anything else: VTK's general converter
        array.SetName(name)
        return array
    numbers = _VTK_ARRAY_TYPES[data.dtype]()
    numbers.SetNumberOfComponents(data.shape[1] if data.ndim == 2 else 1)
    numbers.SetVoidArray(data, data.size, 1)  # 1: VTK does not free numpy's memory
    numbers._numpy_reference = data  # type: ignore[attr-defined]  # VTK objects take attributes; numpy's memory lives as long as the array
    numbers.SetName(name)
    return numbers


def flattened(blocks: pv.MultiBlock) -> pv.MultiBlock:
    """A MultiBlock of MultiBlocks (a posed player) as one of PolyData, named ``part/surface``."""
    out = pv.MultiBlock()
    for name, block in zip(blocks.keys(), blocks):
        if isinstance(block, pv.MultiBlock):
            inner = flattened(block)
            for inner_name, inner_block in zip(inner.keys(), inner):
                out.append(inner_block, f'{name}/{inner_name}')
        elif block is not None:
            out.append(block, name)
    return out


def joined(blocks: pv.MultiBlock) -> pv.PolyData:
    """The surfaces of a pose joined into one PolyData: points in block order, ``cell_data['surface_index']``
    the number of each cell's surface and ``field_data['surface_names']`` their names.

    Point and cell arrays every surface has are kept, and so is the field data
    every surface carries with the same value: all of it for one surface (its
    image included), the model's metadata for several (an image of one surface
    only stays with its block).
    """
    names = [name or '' for name, block in zip(blocks.keys(), blocks) if block is not None]
    meshes = [b for b in blocks if b is not None]
    if not meshes:
        return pv.PolyData()
    first = meshes[0]
    if len(meshes) == 1:
        out = pv.PolyData()  # not copy(): a block VTK hands back under a new wrapper lacks PyVista's own attributes
        out.shallow_copy(first)
    else:
        points = np.concatenate([np.asarray(m.points, np.float32).reshape(-1, 3) for m in meshes])
        offsets = np.cumsum([0] + [m.n_points for m in meshes])
        faces = np.concatenate([np.asarray(m.regular_faces, np.int64).reshape(-1, 3) + o for m, o in zip(meshes, offsets[:-1])])
        out = pv.PolyData.from_regular_faces(points, faces)
        for name in set.intersection(*(set(m.point_data.keys()) for m in meshes)):
            out.point_data[name] = np.concatenate([np.asarray(m.point_data[name]) for m in meshes])
        if first.point_data.active_normals_name in out.point_data:
            out.point_data.active_normals_name = first.point_data.active_normals_name
        if first.point_data.active_texture_coordinates_name in out.point_data:
            out.point_data.active_texture_coordinates_name = first.point_data.active_texture_coordinates_name
        for name in first.field_data.keys():
            if name not in (keys.SURFACE_NAME, keys.SURFACE_INDEX) and all(_same_field(m, first, name) for m in meshes[1:]):
                out.field_data[name] = first.field_data[name]
    out.cell_data[keys.SURFACE_INDEX] = np.repeat(np.arange(len(meshes), dtype=np.int32), [m.n_cells for m in meshes])
    out.field_data[keys.SURFACE_NAMES] = names
    # No array is the one to colour by: add_mesh(mesh) draws the surfaces, not surface numbers or lightmap pages.
    out.point_data.active_scalars_name = None
    out.cell_data.active_scalars_name = None
    return out


def _same_field(mesh: pv.PolyData, first: pv.PolyData, name: str) -> bool:
    if name not in mesh.field_data:
        return False
    a, b = mesh.field_data[name], first.field_data[name]
    return a.shape == b.shape and bool(np.all(a == b))


def spawn_view(level: Any) -> tuple[np.ndarray, float] | None:
    """Where a player first stands in a level, as a picture shows it: ``(eye, yaw)``, the eye the game's view
    height above the first start in file order (``level.spawn_classes``) and the way it faces in degrees
    (its ``"angle"``, 0 along +x); ``None`` where the level has none or its game has no player's eye."""
    if getattr(level, 'view_height', None) is None:  # no level, or a game with no player's eye
        return None
    for kind in level.spawn_classes:
        for entity in level.entities:
            if entity.get('classname') != kind:
                continue
            try:
                origin = np.array([float(p) for p in entity.get('origin', '').split()], np.float64)
                yaw = float(entity.get('angle', '0') or 0)
            except ValueError:
                continue
            if origin.shape == (3,) and np.isfinite(origin).all() and np.isfinite(yaw):
                return origin + [0.0, 0.0, level.view_height], yaw
    return None


def entity_points(entities: list[dict[str, str]]) -> pv.PolyData:
    """A point per entity with a readable ``"origin"`` (brush-model entities, ``"model" "*N"``, left out).

    Every key of those entities becomes a string point array (``''`` where one lacks it),
    ``point_data['entity_index']`` the entity's place in the file.
    """
    chosen: list[tuple[int, dict[str, str], list[float]]] = []
    for index, entity in enumerate(entities):
        if entity.get('model', '').startswith('*'):
            continue
        parts = entity.get('origin', '').split()
        try:
            origin = [float(p) for p in parts]
        except ValueError:
            continue
        if len(origin) == 3 and all(np.isfinite(origin)):
            chosen.append((index, entity, origin))
    points = np.array([c[2] for c in chosen], np.float32).reshape(-1, 3)
    cloud = pv.PolyData(points) if len(points) else pv.PolyData()
    if not len(points):
        return cloud
    cloud.point_data['entity_index'] = np.array([c[0] for c in chosen], np.int32)
    names = list(dict.fromkeys(key for _, entity, _ in chosen for key in entity))
    for key in names:
        # A vtkStringArray of its own: PyVista refuses non-ASCII text, and maps hold Latin-1 ("café" in a message).
        column = vtkStringArray()
        column.SetName(key)
        column.SetNumberOfValues(len(chosen))
        for row, (_, entity, _) in enumerate(chosen):
            column.SetValue(row, entity.get(key, ''))
        cloud.GetPointData().AddArray(column)
    return cloud


# -- the skin a frame carries in its field data ---------------------------------------------


def field_value(mesh: pv.DataSet, name: str):
    """A field-data array of the mesh, or ``None`` where it has none."""
    return mesh.field_data[name] if name in mesh.field_data else None


def field_text(mesh: pv.DataSet, name: str) -> str | None:
    """The first string of a field-data array, or ``None``."""
    value = field_value(mesh, name)
    return str(value[0]) if value is not None and len(value) else None


def carried_palette_indices(mesh: pv.DataSet) -> np.ndarray | None:
    """An MDL skin's palette indices a frame carries, ``(n, height, width)``; ``None`` for any other."""
    pixels = field_value(mesh, keys.SKIN_PIXELS)
    if pixels is None:
        return None
    shape = tuple(int(v) for v in field_value(mesh, keys.SKIN_PICTURE_SHAPE))
    return np.asarray(pixels, np.uint8).reshape(shape)


def carried_pictures(mesh: pv.DataSet) -> np.ndarray | None:
    """Every RGB(A) picture of the skin a frame carries, ``(n, height, width, channels)``, or ``None``.

    An image file's bytes are decoded (an MD3's alpha as its shader draws it); an MDL's
    palette indices go through the palette it carries.
    """
    encoded = field_value(mesh, keys.SKIN_FILE)
    if encoded is not None:
        image = decode_image(np.asarray(encoded, np.uint8).tobytes(), field_text(mesh, keys.SKIN_LOCATION) or '<skin>')
        alpha = field_text(mesh, keys.SKIN_ALPHA)
        if image is not None and alpha is not None:
            image = drawn_alpha(image, alpha)
        return None if image is None else image[None]
    indices = carried_palette_indices(mesh)
    if indices is None:
        return None
    palette = np.asarray(field_value(mesh, keys.SKIN_PALETTE), np.uint8).reshape(256, 3)
    holey = field_value(mesh, keys.SKIN_HOLEY)
    return np.stack([palette_image(p, palette, holey is not None and bool(holey[0])) for p in indices])
