"""Building VTK meshes from numpy arrays, without copies and without PyVista's per-array overhead.

Frames are built often (a time series, a GIF, a contact sheet), so this
module talks to VTK directly: each numpy array is handed to VTK as is and
kept alive by the VTK array that uses it.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np
import pyvista as pv
from vtkmodules.vtkCommonCore import vtkDoubleArray
from vtkmodules.vtkCommonCore import vtkFloatArray
from vtkmodules.vtkCommonCore import vtkIntArray
from vtkmodules.vtkCommonCore import vtkLongLongArray
from vtkmodules.vtkCommonCore import vtkPoints
from vtkmodules.vtkCommonCore import vtkStringArray
from vtkmodules.vtkCommonCore import vtkUnsignedCharArray
from vtkmodules.vtkCommonDataModel import vtkCellArray
from vtkmodules.vtkCommonDataModel import vtkFieldData
from vtkmodules.util.numpy_support import numpy_to_vtk


def build_polydata(
    points: np.ndarray,
    normals: np.ndarray,
    texcoords: np.ndarray,
    triangles: np.ndarray,
    *,
    strips: np.ndarray | None = None,
    point_arrays: Mapping[str, np.ndarray] = {},  # noqa: B006 - read only
    cell_arrays: Mapping[str, np.ndarray] = {},  # noqa: B006 - read only
    shared_fields: vtkFieldData | None = None,
    fields: Mapping[str, np.ndarray | list[str]] = {},  # noqa: B006 - read only
) -> pv.PolyData:
    """A triangle (and strip) mesh with active normals and texture coordinates.

    ``shared_fields``' arrays are added as they are (shared between meshes);
    everything else is wrapped per mesh, texture coordinates and cells copied so
    that no two meshes share what a user might edit.
    """
    mesh = pv.PolyData()
    vtk_points = vtkPoints()
    vtk_points.SetData(vtk_array('Points', points))
    mesh.SetPoints(vtk_points)
    if len(triangles):
        cells = vtkCellArray()
        cells.Use32BitStorage()
        cells.SetData(3, vtk_array('', triangles.astype(np.int32).ravel()))
        mesh.SetPolys(cells)
    if strips is not None and len(strips):
        mesh.strips = strips.copy()
    point_data = mesh.GetPointData()
    point_data.SetNormals(vtk_array('Normals', normals))
    point_data.SetTCoords(vtk_array('TCoords', texcoords.copy()))
    for name, values in point_arrays.items():
        point_data.AddArray(vtk_array(name, values.copy()))
    for name, values in cell_arrays.items():
        mesh.GetCellData().AddArray(vtk_array(name, values.copy()))
    field_data = mesh.GetFieldData()
    if shared_fields is not None:
        field_data.ShallowCopy(shared_fields)  # references to the same arrays, in one call
    for name, value in fields.items():
        field_data.AddArray(vtk_array(name, value))
    return mesh


def image_texture(image: np.ndarray) -> pv.Texture:
    """A :class:`pyvista.Texture` from an image whose rows run from the top.

    PyVista puts an array's first row at the top of the texture (``v = 1``),
    which is where the frames' ``v = 1 - t / height`` puts the skin's top row.
    """
    return pv.Texture(np.ascontiguousarray(image))


_VTK_ARRAY_TYPES = {
    np.dtype(np.float32): vtkFloatArray,
    np.dtype(np.float64): vtkDoubleArray,
    np.dtype(np.int32): vtkIntArray,
    np.dtype(np.int64): vtkLongLongArray,
    np.dtype(np.uint8): vtkUnsignedCharArray,
}


def vtk_array(name: str, value):
    """A named VTK array over ``value`` without a copy, or a string array for a list.

    A lean ``numpy_to_vtk``: frames are built often, and its checks cost more
    than the small arrays themselves.
    """
    if isinstance(value, list):
        array = vtkStringArray()
        array.SetNumberOfValues(len(value))
        for i, text in enumerate(value):  # VTK string arrays hold ASCII only
            array.SetValue(i, text.encode('ascii', 'backslashreplace').decode('ascii'))
        array.SetName(name)
        return array
    data = np.ascontiguousarray(value)
    if data.dtype not in _VTK_ARRAY_TYPES:
        array = numpy_to_vtk(data, deep=True)  # anything else: VTK's general converter
        array.SetName(name)
        return array
    array = _VTK_ARRAY_TYPES[data.dtype]()
    array.SetNumberOfComponents(data.shape[1] if data.ndim == 2 else 1)
    array.SetVoidArray(data, data.size, 1)  # 1: VTK does not free numpy's memory
    array._numpy_reference = data  # and numpy's memory lives as long as the VTK array
    array.SetName(name)
    return array
