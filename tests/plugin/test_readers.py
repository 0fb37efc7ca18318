"""The PyVista readers: registration through entry points, options, time points."""

from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path
import subprocess
import sys
import zipfile

from builders import tetra_md2
from builders import tetra_md3
from builders import torch_mdl
import numpy as np
import pytest
import pyvista as pv

import pyvista_quake as pq
from pyvista_quake.formats.tables import VERTEX_NORMALS
from pyvista_quake.plugin.readers import MD2Reader
from pyvista_quake.plugin.readers import MDLReader


@pytest.fixture
def md2_path(tmp_path):
    path = tmp_path / 'tetra.md2'
    path.write_bytes(tetra_md2())
    return path


@pytest.fixture
def mdl_path(tmp_path):
    path = tmp_path / 'torch.mdl'
    path.write_bytes(torch_mdl())
    return path


def test_entry_points_name_base_reader_subclasses():
    found = {ep.name: ep.load() for ep in entry_points(group='pyvista.readers')}
    assert found['.md2'] is MD2Reader and found['.mdl'] is MDLReader
    assert issubclass(MD2Reader, pv.BaseReader) and issubclass(MD2Reader, pv.TimeReader)


@pytest.mark.parametrize('name', ['a.md2', 'b.MD2', 'c.Md2'])
def test_read_any_letter_case(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(tetra_md2())
    mesh = pv.read(path)
    assert isinstance(mesh, pv.PolyData) and mesh.n_points == 5
    assert isinstance(pv.get_reader(path), MD2Reader)


def test_read_and_get_reader_without_importing_the_package(md2_path, mdl_path):
    code = (
        'import sys, pyvista as pv\n'
        f'a = pv.read({str(md2_path)!r}); b = pv.get_reader({str(mdl_path)!r}).read()\n'
        'print(a.n_points, b.n_points, type(pv.get_reader(%r)).__name__)\n' % str(md2_path)
    )
    # pyvista_quake gets imported by PyVista's entry-point machinery, not by the script.
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ['5', '5', 'MD2Reader']


#: What the pictures, export, the catalogue and batches import, and the sparse products of whole animations:
#: most of a second that a first pv.read of a model should not wait for.
NOT_FOR_READING = ('scipy', 'meshio', 'pygltflib', 'h5py', 'PIL', 'multiprocessing', 'vtkmodules.vtkRenderingCore', 'numpy.ma')


@pytest.mark.parametrize('sample', ['eye/mesh.iqm', 'dolphin/dolphin.md2', 'wizard/wizard.mdl', 'md3'])
def test_a_first_read_in_a_new_process_imports_only_what_reading_needs(sample, tmp_path):
    if sample == 'md3':  # an MD3 of two frames: its normals decode through the latitude-longitude table
        model = pq.QuakeModel.from_frames([pv.MultiBlock([pv.Sphere(phi_resolution=6, theta_resolution=6).scale(s)]) for s in (1, 2)], 'md3')
        path = tmp_path / 'ball.md3'
        model.save(path)
    else:
        path = Path(pq.__file__).parent / 'examples' / 'data' / sample
    code = (
        'import sys, warnings\nwarnings.simplefilter("ignore")\nimport pyvista as pv\n'
        f'mesh = pv.read({str(path)!r})\n'
        f'print(sum(b.n_cells for b in mesh) if isinstance(mesh, pv.MultiBlock) else mesh.n_cells, *[m for m in sys.modules if m.split(".")[0] in {NOT_FOR_READING!r} or m in {NOT_FOR_READING!r}])\n'
    )
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True).stdout.split()
    assert int(out[0]) > 0  # the model was read
    assert out[1:] == []


def test_the_packages_names_are_imported_when_first_asked_for():
    code = (
        'import sys, pyvista_quake as pq\n'
        'print("meshio" in sys.modules, pq.to_meshio.__module__, "meshio" in sys.modules, "to_meshio" in vars(pq), '
        '"catalogue" in dir(pq), "catalogue" in vars(pq))\n'
        'from pyvista_quake import *\nprint(sorted(pq.__all__) == sorted(n for n in pq.__all__ if n in globals()))\n'
    )
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ['False', 'pyvista_quake.exporting.export', 'True', 'True', 'True', 'False', 'True']
    with pytest.raises(AttributeError, match="module 'pyvista_quake' has no attribute 'nothing_here'"):
        pq.nothing_here  # noqa: B018 - the lookup is the test


def test_read_matches_load(md2_path, mdl_path):
    for path in (md2_path, mdl_path):
        mesh = pv.read(path)
        np.testing.assert_array_equal(mesh.points, pq.load(path).mesh(0).points)
        assert mesh.active_texture_coordinates is not None
        # The file's own normals, not ones VTK would compute: looked up in the table by lightnormalindex.
        model = pq.load(path)
        light = model.data.alias.frame_verts[0, mesh.point_data['vertex_index'], 3]
        np.testing.assert_array_equal(mesh.point_data['Normals'], VERTEX_NORMALS[light])


def test_read_keyword_options(md2_path, tmp_path):
    assert pv.read(md2_path, frame=2).field_data['frame_name'][0] == 'run1'
    path = tmp_path / 'gl.md2'
    path.write_bytes(tetra_md2(glcmds=[('fan', [(0, 0, 0), (0.5, 0, 1), (0, 0.5, 2)])]))
    mesh = pv.read(path, glcmds=True)
    assert mesh.n_points == 3 and mesh.n_cells == 1
    big = tmp_path / 'tall.md2'
    big.write_bytes(tetra_md2(skinheight=512))
    pv.read(big)
    with pytest.raises(pq.QuakeFormatError, match='skinheight'):
        pv.read(big, strict=True)


def test_time_points_are_the_frames(md2_path):
    reader = pv.get_reader(md2_path)
    assert reader.number_time_points == 3
    assert reader.time_values == pytest.approx([0.0, 0.1, 0.2])
    assert reader.time_point_value(2) == pytest.approx(0.2)
    reader.set_active_time_point(2)
    assert reader.active_time_value == pytest.approx(0.2)
    assert reader.read().field_data['frame_name'][0] == 'run1'
    reader.set_active_time_value(0.1)
    assert reader.read().field_data['frame_name'][0] == 'stand02'
    with pytest.raises(ValueError):
        reader.set_active_time_point(3)


def test_mdl_group_times_on_reader(mdl_path):
    reader = pv.get_reader(mdl_path)
    assert reader.time_values == pytest.approx([0.0, 0.1])
    reader.set_active_time_value(0.15)
    assert reader.read().field_data['frame_name'][0] == 'torch2'


def test_animation_selection(md2_path):
    reader = pv.get_reader(md2_path)
    assert set(reader.animations) == {'stand', 'run'}
    reader.set_active_animation('stand')
    assert reader.active_animation == 'stand'
    assert reader.number_time_points == 2
    reader.set_active_time_point(1)
    assert reader.read().field_data['frame_name'][0] == 'stand02'
    reader.set_active_animation('run')
    assert reader.number_time_points == 1
    assert reader.read().field_data['frame_name'][0] == 'run1'
    reader.set_active_animation(None)
    assert reader.number_time_points == 3
    with pytest.raises(KeyError):
        reader.set_active_animation('walk')


def test_malformed_file_raises_quake_format_error(tmp_path):
    path = tmp_path / 'bad.md2'
    path.write_bytes(tetra_md2(header={'num_xyz': 0}))
    with pytest.raises(pq.QuakeFormatError, match='bad.md2.*num_xyz = 0'):
        pv.read(path)


def test_reader_frame_and_time_edges(md2_path):
    reader = pv.get_reader(md2_path)
    reader.frame = -1
    assert reader.frame == 2 and reader.read().field_data['frame_name'][0] == 'run1'
    reader.set_active_time_value(0.0)
    assert reader.frame == 0
    reader.set_active_time_value(0.3)  # the end of the last frame's interval
    assert reader.frame == 2
    with pytest.raises(ValueError):
        reader.set_active_time_value(0.31)
    with pytest.raises(ValueError):
        reader.set_active_time_value(-0.01)
    with pytest.raises(ValueError):
        reader.time_point_value(3)
    assert reader.read().field_data['time'][0] == pytest.approx(0.2)


def test_reader_options_reload_the_model(md2_path):
    reader = pv.get_reader(md2_path)
    first = reader.model
    reader.fps = 20
    assert reader.model is not first
    assert reader.time_values == pytest.approx([0.0, 0.05, 0.1])
    assert reader.strict is False and reader.glcmds is False and reader.skin == 0


def test_reading_again_reuses_the_model_until_the_file_or_the_model_changes(md2_path):
    first = pv.get_reader(md2_path)
    first.read()
    second = pv.get_reader(md2_path)
    second.read()
    assert second.model is first.model  # the readers reuse the loaded model
    points = second.model.vertex_positions(0)[0]
    second.model.set_frame(0, points + 10)  # an edit: the model is no longer the file's
    np.testing.assert_allclose(pv.read(md2_path).points, pq.load(md2_path).mesh(0).points)
    md2_path.write_bytes(md2_path.read_bytes())  # rewritten: read afresh
    third = pv.get_reader(md2_path)
    third.read()
    assert third.model is not first.model


def test_read_with_keywords_loads_the_file_once_with_them(tmp_path, monkeypatch):
    from pyvista_quake.plugin import readers

    path = tmp_path / 'tetra.md2'
    path.write_bytes(tetra_md2(skins=['models/x/gone.pcx']))
    loads = []

    def counted(*args, **kwargs):
        loads.append(kwargs)
        return real(*args, **kwargs)

    real = readers.load
    monkeypatch.setattr(readers, 'load', counted)
    readers._MODELS.clear()
    mesh = pv.read(path, skin=None, texel_centers=True, frame=1)  # no skin: nothing looked for, nothing warned
    assert len(loads) == 1 and loads[0]['skin'] is None and loads[0]['texel_centers'] is True
    assert int(mesh.field_data['frame_index'][0]) == 1 and 'skin_name' not in mesh.field_data
    reader = pv.get_reader(path)  # the default options: loaded when first wanted, then kept
    assert len(loads) == 1
    assert reader.number_time_points == 3 and len(loads) == 2
    reader.skin, reader.texel_centers = None, True  # each set reloads nothing yet; the model of both is known already
    assert len(loads) == 2 and int(reader.read().field_data['frame_index'][0]) == 0
    assert len(loads) == 2


def test_pv_read_takes_an_archive_member_and_get_reader_a_member_attribute(tmp_path):
    pk3 = tmp_path / 'pak0.pk3'
    with zipfile.ZipFile(pk3, 'w') as archive:
        archive.writestr('models/a/tris.md2', tetra_md2())
        archive.writestr('models/b/model.md3', tetra_md3())
    mesh = pv.read(pk3, member='models/a/tris.md2')
    assert isinstance(mesh, pv.PolyData) and mesh.n_points == pq.load(tetra_md2()).mesh(0).n_points
    blocks = pv.read(pk3, member='models/b/model.md3')
    assert isinstance(blocks, pv.MultiBlock) and blocks.keys() == ['body', 'flag']
    reader = pv.get_reader(pk3)
    reader.member = 'models/a/tris.md2'
    assert reader.number_time_points == 3
    reader.set_active_time_point(2)
    assert reader.read().field_data['frame_index'][0] == 2
    reader.member = 'models/b/model.md3'
    assert reader.number_time_points == 2 and isinstance(reader.read(), pv.MultiBlock)
    with pytest.raises(pq.QuakeFormatError, match='member = None: name the model'):
        pv.read(pk3)
    with pytest.raises(pq.QuakeFormatError, match="'nothing.md2': no such member"):
        pv.read(pk3, member='nothing.md2')
