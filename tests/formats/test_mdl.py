"""MDL parsing: the sequential walk, seams, skins, frame groups and structural checks."""

from __future__ import annotations

import struct

from builders import build_mdl
from builders import torch_mdl
import numpy as np
import pytest

import pyvista_quake as pq

VERTS = np.array([[0, 0, 0, 5], [10, 0, 0, 5], [0, 10, 0, 5], [0, 0, 10, 5]], np.uint8)


def test_worked_example_torch():
    data = torch_mdl()
    # The layout of mdl-format.txt's table.
    assert data[:8] == bytes.fromhex('4944504F06000000')
    assert data[48:60] == bytes.fromhex('010000000800000008000000')
    assert data[72:76] == bytes.fromhex('01000000')
    assert data[84:88] == bytes(4)
    assert len(data) == 84 + 4 + 64 + 4 * 12 + 4 * 16 + 8 + 8 + 8 + 2 * (24 + 16)
    model = pq.load(data)
    assert len(model) == 2  # a group of 2 is 2 frames
    assert model.frame_names == ['torch1', 'torch2']
    group = model.data.alias.frame_groups[0]
    assert (group.start, group.count) == (0, 2)
    np.testing.assert_allclose(group.intervals, [0.1, 0.2])
    assert data[-(2 * 40) - 8 : -(2 * 40)] == bytes.fromhex('CDCCCC3DCDCC4C3E')
    assert model.header['synctype'] == 1
    mesh = model.mesh(1)
    assert mesh.field_data['synctype_name'][0] == 'ST_RAND'
    assert mesh.field_data['frame_name'][0] == 'torch2'


def test_every_header_field():
    data = build_mdl(
        [[0, 0, 0]] * 4,
        [[1, 0, 1, 2]],
        [('single', 'a1', VERTS)],
        scale=(0.5, 0.25, 2.0),
        scale_origin=(-1.0, 2.0, 3.0),
        boundingradius=42.5,
        eyeposition=(1.0, 2.0, 22.0),
        flags=8 | 1,
        size=7.5,
        skinwidth=12,
        skinheight=4,
        skins=[np.zeros((4, 12), np.uint8)],
    )
    model = pq.load(data)
    h = model.header
    assert h['ident'] == 'IDPO' and h['version'] == 6
    assert h['scale'] == [0.5, 0.25, 2.0] and h['scale_origin'] == [-1.0, 2.0, 3.0]
    assert h['boundingradius'] == 42.5 and h['eyeposition'] == [1.0, 2.0, 22.0]
    assert (h['numskins'], h['skinwidth'], h['skinheight']) == (1, 12, 4)
    assert (h['numverts'], h['numtris'], h['numframes']) == (4, 1, 1)
    assert (h['synctype'], h['flags'], h['size']) == (0, 9, 7.5)
    mesh = model.mesh(0)
    assert list(mesh.field_data['flag_names']) == ['EF_ROCKET', 'EF_ROTATE']
    np.testing.assert_allclose(mesh.field_data['eyeposition'], [1, 2, 22])
    np.testing.assert_allclose(mesh.field_data['boundingradius'], [42.5])
    np.testing.assert_allclose(mesh.field_data['size'], [7.5])
    # Positions: v * scale + scale_origin, exactly, in float32.
    expected = VERTS[:, :3].astype(np.float32) * np.float32([0.5, 0.25, 2.0]) + np.float32([-1, 2, 3])
    np.testing.assert_array_equal(mesh.points, expected[mesh.point_data['vertex_index']])


def test_seam_rule_splits_back_facing_onseam_vertices():
    # Vertex 1 is on the seam. Triangle 0 faces front, triangle 1 faces back: vertex 1
    # appears at s = 4 in the first and s = 4 + 8/2 = 8 in the second.
    model = pq.load(torch_mdl())
    mesh = model.mesh(0)
    uv = mesh.active_texture_coordinates
    on_vertex_1 = np.flatnonzero(mesh.point_data['vertex_index'] == 1)
    assert len(on_vertex_1) == 2
    np.testing.assert_allclose(sorted(uv[on_vertex_1, 0]), [4 / 8, 8 / 8])
    # Vertex 2 is used by a back-facing triangle but not on the seam: one point.
    assert np.count_nonzero(mesh.point_data['vertex_index'] == 2) == 1
    assert mesh.n_points == 5


def test_single_and_group_frames_mixed():
    frames = [
        ('single', 'stand1', VERTS),
        ('group', [0.05, 0.15, 0.3], [('flame1', VERTS), ('flame2', VERTS), ('flame3', VERTS)]),
        ('single', 'stand2', VERTS),
    ]
    model = pq.load(build_mdl([[0, 0, 0]] * 4, [[1, 0, 1, 2]], frames))
    assert len(model) == 5
    assert model.frame_names == ['stand1', 'flame1', 'flame2', 'flame3', 'stand2']
    assert model.data.alias.frame_groups[0].start == 1 and model.data.alias.frame_groups[0].count == 3


def test_skin_single_and_group():
    single = np.arange(64, dtype=np.uint8).reshape(8, 8)
    group = (np.array([0.1, 0.3], np.float32), np.stack([single, single[::-1]]))
    model = pq.load(torch_mdl(skins=[single, group]))
    skins = model.data.alias.skins
    assert len(skins) == 2
    np.testing.assert_array_equal(skins[0].pictures[0], single)
    assert skins[0].times is None
    np.testing.assert_array_equal(skins[1].pictures[1], single[::-1])
    np.testing.assert_allclose(skins[1].times, [0.1, 0.3])
    assert model.mesh(0).field_data['num_skins'][0] == 2


def test_trailing_qmex_block_is_kept():
    model = pq.load(torch_mdl(trailing=b'QMEX' + bytes(20)))
    assert model.alias.trailing.startswith(b'QMEX') and len(model.alias.trailing) == 24
    assert len(model) == 2


def test_frames_stay_packed():
    model = pq.load(build_mdl([[0, 0, 0]] * 4, [[1, 0, 1, 2]], [('single', f'f{i}', VERTS) for i in range(5)]))
    assert model.data.alias.frame_verts.shape == (5, 4, 4) and model.data.alias.frame_verts.dtype == np.uint8
    assert model.data.alias.frame_verts.base is not None


# -- structural checks ---------------------------------------------------------------


def _torch(**header):
    return torch_mdl(header=header)


@pytest.mark.parametrize(
    ('data', 'field'),
    [
        (b'IDPO', 'header'),
        (_torch(ident=b'IDPX'), 'ident'),
        (_torch(version=5), 'version'),
        (_torch(numskins=-1), 'numskins'),
        (_torch(skinwidth=-8), 'skinwidth'),
        (_torch(numverts=0), 'numverts'),
        (_torch(numtris=0), 'numtris'),
        (_torch(numframes=0), 'numframes'),
        (_torch(numskins=5), 'skin 4 group'),  # the walk reads on into the texture coordinates
        (_torch(skinheight=10**6), 'skin 0 picture'),
        (_torch(numverts=10**6), 'stverts'),
        (_torch(numtris=10**6), 'triangles'),
        (_torch(numframes=2), 'frame 1 type'),
    ],
    ids=lambda v: v if isinstance(v, str) else '',
)
def test_structural_faults(data, field):
    with pytest.raises(pq.QuakeFormatError) as info:
        pq.load(data)
    assert info.value.field == field, str(info.value)
    assert '<bytes>' in str(info.value)


def test_vertindex_out_of_range():
    with pytest.raises(pq.QuakeFormatError, match='vertindex = 4'):
        pq.load(torch_mdl(triangles=[[1, 0, 1, 4]]))


def test_any_nonzero_skin_or_frame_type_is_a_group():
    # Every engine tests type == ALIAS_SKIN_SINGLE / ALIAS_SINGLE and reads anything else
    # as a group (WinQuake model.c and GLQuake gl_model.c Mod_LoadAliasModel).
    group = (np.array([0.1, 0.2], np.float32), np.stack([np.full((8, 8), 3, np.uint8), np.full((8, 8), 4, np.uint8)]))
    data = bytearray(torch_mdl(skins=[group]))
    struct.pack_into('<i', data, 84, 7)
    frames_at = 84 + 4 + 4 + 8 + 128 + 48 + 64
    assert struct.unpack_from('<i', data, frames_at)[0] == 1
    struct.pack_into('<i', data, frames_at, 3)
    model = pq.load(bytes(data))
    assert len(model.data.alias.skins[0].pictures) == 2 and model.data.alias.frame_groups[0].count == 2
    assert pq.save.__name__ and model.data.file.skin_types == [7] and model.data.file.frame_types.tolist() == [3]
    from pyvista_quake.formats import mdl  # noqa: PLC0415

    assert mdl.write(model.data.file) == bytes(data)  # the type is written back as it was


def test_group_counts_that_lie():
    frames_at = 84 + 4 + 64 + 48 + 64
    for count in (0, -3, 1000):
        patched = bytearray(torch_mdl())
        struct.pack_into('<i', patched, frames_at + 4, count)
        with pytest.raises(pq.QuakeFormatError, match='frame 0 group'):
            pq.load(bytes(patched))
    skins = [(np.array([0.1], np.float32), np.zeros((1, 8, 8), np.uint8))]
    patched = bytearray(torch_mdl(skins=skins))
    struct.pack_into('<i', patched, 88, 10**6)
    with pytest.raises(pq.QuakeFormatError, match='skin 0 group'):
        pq.load(bytes(patched))


def test_truncated_walk():
    data = torch_mdl()
    for cut in (100, 84 + 4 + 64 + 10, len(data) - 30):
        with pytest.raises(pq.QuakeFormatError):
            pq.load(data[:cut])


def test_non_finite_scale():
    with pytest.raises(pq.QuakeFormatError, match='scale'):
        pq.load(torch_mdl(scale=(np.nan, 1, 1)))


# -- strict: an engine's checks (see test_engines.py for every rule) ----------------------


@pytest.mark.parametrize(
    ('kwargs', 'field', 'refusing', 'not_refusing'),
    [
        ({'skins': [], 'header': {'numskins': 0}}, 'numskins', 'glquake', None),  # every Quake engine refuses it
        ({'skinwidth': 6, 'skins': [np.zeros((8, 6), np.uint8)], 'stverts': [[0, 0, 0]] * 4}, 'skinwidth', 'quake', 'glquake'),
        ({'skinheight': 481, 'skins': [np.zeros((481, 8), np.uint8)]}, 'skinheight', 'ezquake', 'quakespasm'),
        ({'frames': [('group', [0.1, 0.0], [('a', VERTS), ('b', VERTS)])]}, 'interval', 'quake', 'glquake'),
        ({'skins': [(np.array([-1.0], np.float32), np.zeros((1, 8, 8), np.uint8))]}, 'interval', 'quake', 'quakespasm'),
    ],
)
def test_strict_checks(kwargs, field, refusing, not_refusing):
    data = torch_mdl(**kwargs)
    pq.load(data)  # loads by default
    with pytest.raises(pq.QuakeFormatError, match=f'{field}.*strict'):
        pq.load(data, strict=True)
    with pytest.raises(pq.QuakeFormatError, match=field):
        pq.load(data, strict=refusing)
    if not_refusing is not None:
        pq.load(data, strict=not_refusing)


def test_count_limits_per_engine():
    many_verts = np.zeros((1025, 4), np.uint8)
    data = build_mdl([[0, 0, 0]] * 1025, [[1, 0, 1, 2]], [('single', 'a', many_verts)])
    with pytest.raises(pq.QuakeFormatError, match='numverts.*GLQuake'):
        pq.load(data, strict='glquake')
    pq.load(data, strict='quakespasm')  # MAXALIASVERTS 2000 there
    # Overruns no loader checks: misdrawn by GLQuake, never refused.
    data = build_mdl([[0, 0, 0]] * 4, [[1, 0, 1, 2]] * 2049, [('single', 'a', VERTS)])
    pq.load(data, strict=True)
    assert {(f.engine, f.effect) for f in pq.check(data) if f.field == 'numtris'} == {('glquake', 'misdraws'), ('ezquake', 'misdraws')}
    data = build_mdl([[0, 0, 0]] * 4, [[1, 0, 1, 2]], [('single', 'a', VERTS)] * 257)
    assert any(f.field == 'poses' and f.engine == 'glquake' for f in pq.check(data))
    skins = [np.zeros((8, 8), np.uint8)] * 33
    with pytest.raises(pq.QuakeFormatError, match='numskins.*strict'):
        pq.load(torch_mdl(skins=skins), strict=True)


def test_normal_index_past_the_table_is_misdrawn_not_refused():
    verts = VERTS.copy()
    verts[2, 3] = 170
    data = build_mdl([[0, 0, 0]] * 4, [[1, 0, 1, 2]], [('single', 'a1', verts)])
    with pytest.warns(pq.QuakeWarning, match='normal table'):
        pq.load(data, strict=True).mesh(0)
    assert {f.engine for f in pq.check(data) if f.field == 'lightnormalindex'} == {'quake', 'glquake', 'quakespasm', 'ezquake'}


# The spec's table of effect flags (mdl-format.txt, "EF_ values in model.h"), typed from it.
SPEC_FLAGS = [
    (1, 'EF_ROCKET'),
    (2, 'EF_GRENADE'),
    (4, 'EF_GIB'),
    (8, 'EF_ROTATE'),
    (16, 'EF_TRACER'),
    (32, 'EF_ZOMGIB'),
    (64, 'EF_TRACER2'),
    (128, 'EF_TRACER3'),
]


@pytest.mark.parametrize(('value', 'name'), SPEC_FLAGS)
def test_each_effect_flag_alone_is_named_as_the_spec_names_it(value, name):
    assert pq.load(torch_mdl(flags=value)).alias.metadata['flag_names'] == [name]


def test_a_frame_number_of_any_integer_type():
    model = pq.load(torch_mdl())
    np.testing.assert_array_equal(model.mesh(np.int64(-1)).points, model.mesh(len(model) - 1).points)
    np.testing.assert_array_equal(model.mesh(np.int32(0)).points, model.mesh(0).points)


def test_a_frame_group_may_end_at_the_last_frame_and_not_past_it(tmp_path):
    model = pq.load(torch_mdl())  # two frames, one group of both
    model.alias.set_frame_groups([(1, 1, [0.1])])  # ends exactly at the last frame
    model.save(tmp_path / 'ok.mdl')
    assert [(g.start, g.count) for g in pq.load(tmp_path / 'ok.mdl').data.alias.frame_groups] == [(1, 1)]
    with pytest.raises(ValueError, match=r'frame group 0 \(1, 2\) does not fit'):
        model.alias.set_frame_groups([(1, 2, [0.1, 0.2])])  # one past it
        model.save(tmp_path / 'bad.mdl')
