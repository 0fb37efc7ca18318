"""The code held to answers it did not compute: published tables, a decoder written here
from the specs with ``struct``, asymmetric cases, and every limit and section end from both sides."""

from __future__ import annotations

import hashlib
import struct

from builders import build_md2
from builders import build_mdl
from builders import tetra_md2
from builders import torch_mdl
from conftest import corpus_models
from conftest import requires_corpus
import numpy as np
import pytest

import pyvista_quake as pq
from pyvista_quake.formats.tables import QUAKE_PALETTE
from pyvista_quake.formats.tables import VERTEX_NORMALS

# -- tables ---------------------------------------------------------------------------------

#: SHA-256 of the 162 normals of id's ``anorms.h`` (Quake II ``client/anorms.h``, the same
#: table Quake uses), written as there: six decimals, ``;``-separated, x y z by normal.
ANORMS_SHA256 = '629749bb20f4130e28b342bd8fc27fddc905fdbc94909a5b705c852406ecc598'
#: A few entries typed from ``anorms.h``.
ANORMS_ENTRIES = {
    0: (-0.525731, 0.000000, 0.850651),
    1: (-0.442863, 0.238856, 0.864188),
    5: (0.000000, 0.000000, 1.000000),
    31: (-0.262866, 0.951056, -0.162460),
    80: (-0.525731, 0.000000, -0.850651),
    161: (-0.688191, -0.587785, -0.425325),
}


def test_normal_table_is_ids_entry_by_entry():
    text = ';'.join(f'{v:.6f}' for v in VERTEX_NORMALS.astype(np.float64).ravel())
    assert hashlib.sha256(text.encode()).hexdigest() == ANORMS_SHA256  # any entry moved or changed fails
    for index, expected in ANORMS_ENTRIES.items():
        np.testing.assert_allclose(VERTEX_NORMALS[index], expected, atol=1e-6)


def test_palette_is_quakes_entry_by_entry():
    vgio_quake = pytest.importorskip('vgio.quake', reason='vgio (an independent copy of the palette) does not install here')
    theirs = np.array(vgio_quake.palette, np.uint8).reshape(256, 3)
    mismatched = np.flatnonzero((theirs != QUAKE_PALETTE).any(axis=1))
    assert mismatched.size == 0, f'palette entries {mismatched.tolist()} differ from vgio'


@requires_corpus
def test_palette_equals_librequakes_palette_lmp():
    from conftest import CORPUS  # noqa: PLC0415

    lmp = np.frombuffer((CORPUS / 'mdl/librequake/gfx/palette.lmp').read_bytes(), np.uint8).reshape(256, 3)
    np.testing.assert_array_equal(lmp, QUAKE_PALETTE)


# -- asymmetric rules ------------------------------------------------------------------------


def test_seam_offset_only_on_back_facing_triangles_with_onseam_vertices():
    # Vertex 0 on the seam; vertex 1 not.  Triangle 0 faces front, triangle 1 back.
    stverts = [[0x20, 2, 1], [0, 3, 2], [0, 4, 3], [0x20, 1, 4]]
    triangles = [[1, 0, 1, 2], [0, 0, 1, 3]]
    data = build_mdl(stverts, triangles, [('single', 'a', np.zeros((4, 4), np.uint8))], skinwidth=8, skinheight=8)
    st = pq.load(data).data.alias.triangle_st
    expected = []
    for facesfront, *corners in triangles:
        row = []
        for v in corners:
            onseam, s, t = stverts[v]
            row.append((s + (4 if onseam and not facesfront else 0), t))  # half of skinwidth 8
        expected.append(row)
    np.testing.assert_array_equal(st, expected)
    assert st[0, 0].tolist() == [2, 1] and st[1, 0].tolist() == [6, 1]  # the seam vertex: front keeps s, back shifts
    assert st[1, 1].tolist() == [3, 2]  # back-facing, not on the seam: no shift


def test_winding_is_reversed_for_vtk():
    verts = np.array([[[0, 0, 0, 5], [10, 0, 0, 5], [0, 10, 0, 5]]], np.uint8)
    mesh = pq.load(build_md2(verts, [[0, 1, 2]], [[0, 1, 2]], [[0, 0], [1, 0], [0, 1]])).mesh(0)
    corners = mesh.point_data['vertex_index'][mesh.regular_faces[0]]
    assert corners.tolist() == [2, 1, 0]  # the file's clockwise order, reversed
    # VTK's right-hand normal of (2, 1, 0) on those points is -z; the file's own corner order gives +z.
    a, b, c = (mesh.points[np.flatnonzero(mesh.point_data['vertex_index'] == v)[0]] for v in (2, 1, 0))
    assert np.cross(b - a, c - a)[2] < 0


def test_t_runs_from_the_top_and_v_from_the_bottom():
    verts = np.array([[[0, 0, 0, 5], [10, 0, 0, 5], [0, 10, 0, 5]]], np.uint8)
    st = [[0, 0], [16, 0], [0, 48]]
    mesh = pq.load(build_md2(verts, [[0, 1, 2]], [[0, 1, 2]], st, skinwidth=32, skinheight=64)).mesh(0)
    for vertex, (s, t) in enumerate(st):
        uv = mesh.active_texture_coordinates[np.flatnonzero(mesh.point_data['vertex_index'] == vertex)[0]]
        np.testing.assert_allclose(uv, [s / 32, 1 - t / 64])


# -- every limit from both sides --------------------------------------------------------------


def md2_with(num_xyz=3, skinheight=64, frames=1, skins=0):
    verts = np.zeros((frames, num_xyz, 4), np.uint8)
    return build_md2(verts, [[0, 1, 2]], [[0, 0, 0]], [[0, 0]], skinheight=skinheight, skins=[f's{k}' for k in range(skins)])


def mdl_with(numverts=4, numtris=1, skinheight=8, numskins=1, poses=1):
    verts = np.zeros((numverts, 4), np.uint8)
    return build_mdl(
        [[0, 0, 0]] * numverts,
        [[1, 0, 1, 2]] * numtris,
        [('single', 'a', verts)] * poses,
        skins=[np.zeros((skinheight, 8), np.uint8)] * numskins,
        skinheight=skinheight,
    )


@pytest.mark.parametrize(
    ('make', 'limit', 'field', 'engine'),
    [
        (lambda n: md2_with(skinheight=n), 480, 'skinheight', 'quake2'),
        (lambda n: md2_with(num_xyz=n), 2048, 'num_xyz', 'yquake2'),
        (lambda n: md2_with(skins=n), 32, 'num_skins', 'quake2'),
        (lambda n: mdl_with(skinheight=n), 480, 'skinheight', 'glquake'),
        (lambda n: mdl_with(numverts=n), 1024, 'numverts', 'glquake'),
        (lambda n: mdl_with(numverts=n), 2000, 'numverts', 'quakespasm'),
        (lambda n: mdl_with(numverts=n), 2048, 'numverts', 'ezquake'),
        (lambda n: mdl_with(numtris=n), 4096, 'numtris', 'quakespasm'),
        (lambda n: mdl_with(numtris=n), 2048, 'numtris', 'glquake'),
        (lambda n: mdl_with(numskins=n), 32, 'numskins', 'ezquake'),
        (lambda n: mdl_with(poses=n), 256, 'poses', 'glquake'),
    ],
    ids=lambda v: v if isinstance(v, (str, int)) else '',
)
def test_limit_passes_and_limit_plus_one_is_found(make, limit, field, engine):
    at = [f for f in pq.check(make(limit)) if f.engine == engine and f.field == field]
    past = [f for f in pq.check(make(limit + 1)) if f.engine == engine and f.field == field]
    assert at == [] and len(past) == 1 and past[0].value == limit + 1


def test_quake2_hunk_limit_from_both_sides():
    # ref_gl Mod_LoadModel: Hunk_Begin (0x200000); Hunk_Alloc (ofs_end) must fit.
    base = md2_with()
    for ofs_end, refused in ((0x200000, False), (0x200001, True)):
        data = bytearray(base)
        struct.pack_into('<i', data, 64, ofs_end)
        assert any(f.field == 'ofs_end' and f.engine == 'quake2' for f in pq.check(bytes(data))) == refused


def test_zero_skins_and_one_skin():
    assert not [f for f in pq.check(mdl_with(numskins=1)) if f.field == 'numskins']
    assert {f.engine for f in pq.check(mdl_with(numskins=0)) if f.field == 'numskins'} == {'quake', 'glquake', 'quakespasm', 'ezquake'}


# -- every section end from both sides --------------------------------------------------------


@pytest.mark.parametrize(
    'order',
    [
        ('skins', 'st', 'tris', 'frames', 'glcmds'),
        ('glcmds', 'skins', 'st', 'tris', 'frames'),
        ('frames', 'glcmds', 'skins', 'st', 'tris'),
        ('glcmds', 'frames', 'tris', 'skins', 'st'),
    ],
)
def test_md2_last_section_ending_at_the_file_end(order):
    data = tetra_md2(order=order, glcmds=[('fan', [(0, 0, 0), (0.5, 0, 1), (0, 0.5, 2)])])
    pq.load(data)  # ends exactly at the end of the file: loads
    if order[-1] == 'glcmds':
        pq.load(data[:-1])  # a GL command list cut by the file's end loads (what is there is kept)
        return
    with pytest.raises(pq.QuakeFormatError, match=f'ofs_{order[-1]}'):  # one byte short: refused, naming the section
        pq.load(data[:-1])


def test_mdl_sections_ending_at_the_file_end():
    data = torch_mdl()
    pq.load(data)
    for cut in range(1, 40):
        with pytest.raises(pq.QuakeFormatError):
            pq.load(data[:-cut])


def test_truncation_inside_every_mdl_section_is_rejected():
    data = build_mdl(
        [[0, 0, 0]] * 4,
        [[1, 0, 1, 2]],
        [('single', 'a', np.zeros((4, 4), np.uint8))] * 2,
        skins=[(np.array([0.1, 0.2], np.float32), np.zeros((2, 8, 8), np.uint8))],
    )
    for cut in range(84, len(data)):
        with pytest.raises(pq.QuakeFormatError):
            pq.load(data[:cut])


# -- real models against a decoder written here from the specs --------------------------------


def spec_decode_md2(data: bytes) -> dict:
    """md2-format.txt, with struct: positions and normal indices of every frame, st of every corner."""
    (
        ident,
        version,
        skinwidth,
        skinheight,
        framesize,
        num_skins,
        num_xyz,
        num_st,
        num_tris,
        num_glcmds,
        num_frames,
        ofs_skins,
        ofs_st,
        ofs_tris,
        ofs_frames,
        ofs_glcmds,
        ofs_end,
    ) = struct.unpack_from('<4s16i', data)
    positions, normals = [], []
    for f in range(num_frames):
        at = ofs_frames + f * framesize
        scale = struct.unpack_from('<3f', data, at)
        translate = struct.unpack_from('<3f', data, at + 12)
        raw = data[at + 40 : at + 40 + 4 * num_xyz]
        positions.append([[np.float32(raw[4 * i + k]) * np.float32(scale[k]) + np.float32(translate[k]) for k in range(3)] for i in range(num_xyz)])
        normals.append([raw[4 * i + 3] for i in range(num_xyz)])
    st = [struct.unpack_from('<2h', data, ofs_st + 4 * i) for i in range(num_st)]
    corners = []
    for i in range(num_tris):
        values = struct.unpack_from('<6h', data, ofs_tris + 12 * i)
        corners.append([(values[k], *st[values[3 + k]]) for k in range(3)])
    return {'positions': np.array(positions, np.float32), 'normals': np.array(normals), 'corners': corners, 'size': (skinwidth, skinheight)}


def spec_decode_mdl(data: bytes) -> dict:
    """mdl-format.txt, with struct: walks skins and frames; applies the seam rule to every corner."""
    scale = struct.unpack_from('<3f', data, 8)
    origin = struct.unpack_from('<3f', data, 20)
    numskins, skinwidth, skinheight, numverts, numtris, numframes = struct.unpack_from('<6i', data, 48)
    at = 84
    for _ in range(numskins):
        (kind,) = struct.unpack_from('<i', data, at)
        at += 4
        if kind == 0:
            at += skinwidth * skinheight
        else:
            (count,) = struct.unpack_from('<i', data, at)
            at += 4 + count * (4 + skinwidth * skinheight)
    stverts = [struct.unpack_from('<3i', data, at + 12 * i) for i in range(numverts)]
    at += 12 * numverts
    corners = []
    for i in range(numtris):
        facesfront, *vertices = struct.unpack_from('<4i', data, at + 16 * i)
        corners.append([(v, stverts[v][1] + (skinwidth // 2 if stverts[v][0] and not facesfront else 0), stverts[v][2]) for v in vertices])
    at += 16 * numtris
    positions, normals = [], []
    simple = 24 + 4 * numverts

    def pose(offset: int) -> None:
        raw = data[offset + 24 : offset + simple]
        positions.append([[np.float32(raw[4 * i + k]) * np.float32(scale[k]) + np.float32(origin[k]) for k in range(3)] for i in range(numverts)])
        normals.append([raw[4 * i + 3] for i in range(numverts)])

    for _ in range(numframes):
        (kind,) = struct.unpack_from('<i', data, at)
        at += 4
        if kind == 0:
            pose(at)
            at += simple
        else:
            (count,) = struct.unpack_from('<i', data, at)
            at += 12 + 4 * count
            for _ in range(count):
                pose(at)
                at += simple
    return {'positions': np.array(positions, np.float32), 'normals': np.array(normals), 'corners': corners, 'size': (skinwidth, skinheight)}


REAL = [p for p in corpus_models() if 'malformed' not in p.name]


@requires_corpus
@pytest.mark.corpus
@pytest.mark.parametrize('path', REAL, ids=lambda p: p.name)
def test_real_model_against_the_spec_decoder(path):
    import warnings  # noqa: PLC0415

    data = path.read_bytes()
    expected = spec_decode_md2(data) if data[:4] == b'IDP2' else spec_decode_mdl(data)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', pq.QuakeWarning)
        model = pq.load(path, skin=None)
        frames = range(0, len(model), max(1, len(model) // 7))  # a spread of frames: pure-Python decoding is slow
        np.testing.assert_array_equal(model.vertex_positions(list(frames)), expected['positions'][list(frames)])
        mesh = model.mesh(frames[-1])
    # Normals: the table entry of each point's vertex (the table itself is pinned above).
    light = expected['normals'][frames[-1]][mesh.point_data['vertex_index']]
    np.testing.assert_array_equal(mesh.point_data['Normals'], VERTEX_NORMALS[np.minimum(light, 161)])
    # Texture coordinates and seams: every file corner is a mesh point with that vertex and (s, t).
    width, height = expected['size']
    uv = mesh.active_texture_coordinates
    points = {(int(v), round(float(u) * width), round((1 - float(w)) * height)) for v, (u, w) in zip(mesh.point_data['vertex_index'], uv)}
    assert {tuple(c) for tri in expected['corners'] for c in tri} <= points
    assert mesh.n_cells == len(expected['corners'])


# -- cases a mutation sample (dev/mutants.py) showed untested ----------------------------------


def test_count_messages_say_negative_or_the_minimum():
    with pytest.raises(pq.QuakeFormatError, match='num_skins = -1: must not be negative'):
        pq.load(tetra_md2(header={'num_skins': -1}))
    with pytest.raises(pq.QuakeFormatError, match='num_xyz = 0: must be at least 1'):
        pq.load(tetra_md2(header={'num_xyz': 0}))


def test_a_second_skin_must_have_the_first_ones_size():
    model = pq.load(torch_mdl())
    with pytest.raises(ValueError, match='every skin of a model has one size'):
        model.alias.set_skin(1, np.zeros((16, 16), np.uint8))
    model.alias.set_skin(0, np.zeros((16, 16), np.uint8))  # the only skin may change size
    assert model.alias.skin_size == (16, 16)


@pytest.mark.parametrize('shape', [(8,), (8, 8, 2), (2, 8, 8, 3)])
def test_skin_images_of_other_shapes_are_refused(shape):
    with pytest.raises(ValueError, match='a skin image is'):
        pq.load(torch_mdl()).alias.set_skin(0, np.zeros(shape, np.uint8))


@pytest.mark.parametrize('name', ['/etc/passwd', '\\\\server\\share\\x.pcx', 'c:/models/x.pcx', 'models/../../x.pcx', ''])
def test_archive_member_names_that_leave_the_archive_are_refused(name):
    from pyvista_quake.game.archives import normalise_member  # noqa: PLC0415

    assert normalise_member(name) is None
    assert normalise_member('Models/X/Skin.PCX') == 'models/x/skin.pcx'


def test_facesfront_of_triangles_without_a_seam_vertex_is_kept_when_seams_are_encoded_again():
    # The torch: triangles 1 and 3 face back; vertex 1 is on the seam.
    model = pq.load(torch_mdl())
    before = model.data.file.triangles['facesfront'].copy()
    seam_vertices = np.flatnonzero(model.data.file.stverts['onseam'])
    mesh = model.mesh(0)
    uv = mesh.active_texture_coordinates.copy()
    moved = np.flatnonzero(~np.isin(mesh.point_data['vertex_index'], seam_vertices))[0]
    uv[moved] += (1 / 8, 0)  # one pixel: the texture coordinates are encoded again
    model.alias.set_texcoords(uv)
    after = model.data.file.triangles['facesfront']
    vertindex = model.data.file.triangles['vertindex']
    no_seam = ~np.isin(vertindex, seam_vertices).any(axis=1)
    assert no_seam.any()
    np.testing.assert_array_equal(after[no_seam], before[no_seam])


@pytest.mark.parametrize('size', [(0, 64), (64, 0), (-64, 64)])
def test_an_empty_skin_size_gives_zero_texture_coordinates_with_a_warning(size):
    data = tetra_md2(skinwidth=size[0], skinheight=size[1])
    with pytest.warns(pq.QuakeWarning, match='is empty; texture coordinates are 0'):
        uv = pq.load(data).mesh(0).active_texture_coordinates
    assert np.isfinite(uv).all() and (uv == 0).all()


def test_a_frame_group_after_single_frames_survives_an_edit_and_groups_may_not_overlap():
    verts = np.zeros((4, 4), np.uint8)
    data = build_mdl(
        [[0, 0, 0]] * 4,
        [[1, 0, 1, 2]],
        [('single', 'a', verts), ('single', 'b', verts), ('group', [0.1, 0.3], [('c', verts), ('d', verts)]), ('single', 'e', verts)],
    )
    model = pq.load(data)
    model.set_frame(4, model.vertex_positions(4)[0] + 1)
    again = pq.load(mdl_write(model))
    assert [(g.start, g.count) for g in again.data.alias.frame_groups] == [(2, 2)]
    assert again.data.file.frame_types.tolist() == [0, 0, 1, 0]
    with pytest.raises(ValueError, match='does not fit the frames'):
        model.alias.set_frame_groups([(0, 3, [0.1, 0.2, 0.3]), (2, 2, [0.1, 0.2])])


def mdl_write(model) -> bytes:
    from pyvista_quake.formats import mdl  # noqa: PLC0415

    return mdl.write(model.data.file)
