"""Behaving like the engines: crafted files against what each engine's loader does.

Each case cites the engine function whose behaviour it reproduces.
"""

from __future__ import annotations

import io
import struct
import subprocess
import sys
import zipfile

from builders import build_md2
from builders import build_mdl
from builders import glcmd_words
from builders import tetra_md2
from builders import torch_mdl
import numpy as np
from PIL import Image
import pytest
import pyvista as pv

import pyvista_quake as pq
from pyvista_quake.formats.tables import QUAKE_PALETTE
from pyvista_quake.game.engines import ENGINES
from pyvista_quake.game.engines import QUAKE2_ENGINES
from pyvista_quake.game.engines import QUAKE_ENGINES
from pyvista_quake.game.engines import verdicts

VERTS = np.array([[0, 0, 0, 5], [10, 0, 0, 5], [0, 10, 0, 5], [0, 0, 10, 5]], np.uint8)


def findings(data, field=None):
    return {(f.engine, f.effect) for f in pq.check(data) if field is None or f.field == field}


# -- loading what some engine draws -------------------------------------------------------


def test_md2_with_broken_triangles_and_intact_gl_commands_loads():
    # ref_gl/gl_mesh.c GL_DrawAliasFrameLerp draws the GL commands only.
    commands = [('strip', [(0.1, 0.1, 0), (0.5, 0.1, 1), (0.1, 0.5, 2), (0.5, 0.5, 3)])]
    data = tetra_md2(tris_xyz=[[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 99]], glcmds=commands)
    with pytest.warns(pq.QuakeWarning, match='1 of 4 triangles'):
        model = pq.load(data)
    assert len(model.data.alias.triangle_vertices) == 3
    assert pq.load(data, glcmds=True).mesh(0).n_cells > 0
    # Without GL commands no renderer has anything to draw: refused.
    with pytest.raises(pq.QuakeFormatError, match='index_xyz = 99'):
        pq.load(tetra_md2(tris_xyz=[[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 99]]))


def test_md2_gl_commands_past_the_end_of_the_file_load():
    # The engines memcpy num_glcmds words (models.c Mod_LoadMD2): the list is cut where the file ends.
    commands = [('fan', [(0.1, 0.1, 0), (0.5, 0.1, 1), (0.1, 0.5, 2)])]
    full = tetra_md2(glcmds=commands, order=('skins', 'st', 'tris', 'frames', 'glcmds'))
    data = full[:-8]  # the zero word and the last vertex's index are gone
    model = pq.load(data)
    assert len(model) == 3 and model.mesh(0).n_cells == 4
    assert ('quake2', 'misdraws') in findings(data, 'glcmds')
    from pyvista_quake.formats import md2  # noqa: PLC0415

    assert md2.write(model.data.file) == data  # kept as it is


def test_md2_negative_skin_width_loads():
    # ref_gl never uses skinwidth; the software renderer would.
    model = pq.load(tetra_md2(skinwidth=-64))
    assert model.alias.skin_size[0] == -64 and len(model) == 3


def test_mdl_with_no_skins_loads_but_quake_engines_refuse_it():
    data = torch_mdl(skins=[], header={'numskins': 0})
    assert len(pq.load(data)) == 2
    assert {e for e, effect in findings(data, 'numskins') if effect == 'refuses'} == {'quake', 'glquake', 'quakespasm', 'ezquake'}
    with pytest.raises(pq.QuakeFormatError, match='numskins.*model.c Mod_LoadAliasModel'):
        pq.load(data, strict='quake')


# -- check() --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ('make', 'field', 'expected'),
    [
        # WinQuake model.c Mod_LoadAliasModel: skinwidth & 3
        (lambda: torch_mdl(skinwidth=6, skins=[np.zeros((8, 6), np.uint8)]), 'skinwidth', {('quake', 'refuses')}),
        # MAX_LBM_HEIGHT: refused by WinQuake, GLQuake, ezQuake; QuakeSpasm's Con_DWarning
        (
            lambda: torch_mdl(skinheight=481, skins=[np.zeros((481, 8), np.uint8)]),
            'skinheight',
            {('quake', 'refuses'), ('glquake', 'refuses'), ('ezquake', 'refuses'), ('quakespasm', 'warns')},
        ),
        # MAXALIASVERTS: 1024 (GLQuake gl_model.h), 2000 (r_local.h, QuakeSpasm), 2048 (ezQuake)
        (
            lambda: build_mdl([[0, 0, 0]] * 2001, [[1, 0, 1, 2]], [('single', 'a', np.zeros((2001, 4), np.uint8))]),
            'numverts',
            {('quake', 'refuses'), ('glquake', 'refuses'), ('quakespasm', 'refuses')},
        ),
        # QuakeSpasm's MAXALIASTRIS 4096 is checked; GLQuake's 2048 is not (it overruns triangles[])
        (
            lambda: build_mdl([[0, 0, 0]] * 4, [[1, 0, 1, 2]] * 4097, [('single', 'a', VERTS)]),
            'numtris',
            {('quakespasm', 'refuses'), ('glquake', 'misdraws'), ('ezquake', 'misdraws')},
        ),
        # WinQuake model.c Mod_LoadAliasGroup: interval<=0; the GL engines use only intervals[0]
        (lambda: torch_mdl(frames=[('group', [0.1, -1.0], [('a', VERTS), ('b', VERTS)])]), 'frame group interval', {('quake', 'refuses')}),
        (
            lambda: torch_mdl(frames=[('group', [0.0, 0.2], [('a', VERTS), ('b', VERTS)])]),
            'frame group interval',
            {('quake', 'refuses'), ('glquake', 'misdraws'), ('quakespasm', 'misdraws'), ('ezquake', 'misdraws')},
        ),
        # MAX_SKINS 32: GLQuake, QuakeSpasm, ezQuake Mod_LoadAllSkins
        (
            lambda: torch_mdl(skins=[np.zeros((8, 8), np.uint8)] * 33),
            'numskins',
            {('glquake', 'refuses'), ('quakespasm', 'refuses'), ('ezquake', 'refuses')},
        ),
    ],
    ids=['skinwidth', 'skinheight', 'numverts', 'numtris', 'interval', 'first-interval', 'numskins'],
)
def test_mdl_rules(make, field, expected):
    data = make()
    pq.load(data)  # loads here: some engine draws each of these
    assert findings(data, field) == expected


@pytest.mark.parametrize(
    ('make', 'field', 'expected'),
    [
        # ref_gl/gl_model.c and models.c Mod_LoadMD2: MAX_LBM_HEIGHT, MAX_VERTS
        (lambda: tetra_md2(skinheight=481), 'skinheight', {('quake2', 'refuses'), ('yquake2', 'refuses')}),
        (
            lambda: build_md2(np.zeros((1, 2049, 4), np.uint8), [[0, 1, 2]], [[0, 0, 0]], [[0, 0]]),
            'num_xyz',
            {('quake2', 'refuses'), ('yquake2', 'refuses')},
        ),
        # Mod_LoadModel: Hunk_Begin (0x200000) for alias models
        (lambda: build_md2(np.zeros((300, 2000, 4), np.uint8), [[0, 1, 2]], [[0, 0, 0]], [[0, 0]]), 'ofs_end', {('quake2', 'refuses')}),
        # models.c Mod_LoadMD2: ofs_end outside the file
        (lambda: tetra_md2(header={'ofs_end': 10**6}), 'ofs_end', {('yquake2', 'refuses')}),
        # gl_mesh.c GL_DrawAliasFrameLerp draws GL commands only
        (lambda: tetra_md2(), 'num_glcmds', {('quake2', 'misdraws'), ('yquake2', 'misdraws')}),
        # ref_gl overruns mod->skins[MAX_MD2SKINS]; yquake2 clamps with a message
        (lambda: tetra_md2(skins=[f's{k}.pcx' for k in range(33)]), 'num_skins', {('quake2', 'misdraws'), ('yquake2', 'warns')}),
    ],
    ids=['skinheight', 'num_xyz', 'hunk', 'ofs_end', 'no-glcmds', 'num_skins'],
)
def test_md2_rules(make, field, expected):
    data = make()
    pq.load(data)
    assert findings(data, field) == expected


def test_a_model_every_engine_draws_has_no_findings():
    data = tetra_md2(glcmds=[('fan', [(0.1, 0.1, 0), (0.5, 0.1, 1), (0.1, 0.5, 2)])])
    assert pq.check(data) == []
    assert set(verdicts([], 'md2').values()) == {'loads'}
    assert pq.check(torch_mdl()) == []


def test_strict_takes_an_engine_name():
    data = torch_mdl(skinwidth=6, skins=[np.zeros((8, 6), np.uint8)])
    for engine in ENGINES:
        if engine == 'quake':
            with pytest.raises(pq.QuakeFormatError, match='WinQuake'):
                pq.load(data, strict=engine)
        elif engine in QUAKE_ENGINES:
            pq.load(data, strict=engine)
    with pytest.raises(ValueError, match='engine name'):
        pq.load(data, strict='doom')


@pytest.mark.parametrize(
    ('builder', 'engines', 'format'), [(torch_mdl, QUAKE2_ENGINES, 'Quake \\(MDL\\)'), (tetra_md2, QUAKE_ENGINES, 'Quake II \\(MD2\\)')]
)
def test_strict_with_an_engine_that_cannot_load_the_format_raises(builder, engines, format):
    data = builder()
    for engine in engines:
        with pytest.raises(pq.QuakeFormatError, match=f'{ENGINES[engine].split(" (")[0]}.*cannot load {format}') as caught:
            pq.load(data, strict=engine)
        assert caught.value.field == 'ident'
    pq.load(data, strict=True)  # any engine: the ones that load the format


def test_findings_name_engine_rule_and_function():
    finding = next(f for f in pq.check(tetra_md2(skinheight=481)) if f.engine == 'quake2')
    assert finding.field == 'skinheight' and finding.value == 481 and finding.effect == 'refuses'
    assert 'MAX_LBM_HEIGHT' in finding.rule and finding.where == 'ref_gl/gl_model.c Mod_LoadAliasModel'
    assert str(finding).startswith('quake2 refuses: skinheight = 481')


def test_cli_check(tmp_path):
    (tmp_path / 'tall.md2').write_bytes(tetra_md2(skinheight=481))
    (tmp_path / 'fine.mdl').write_bytes(torch_mdl())
    refused = subprocess.run([sys.executable, '-m', 'pyvista_quake', 'check', 'tall.md2'], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert refused.returncode == 1 and 'refuses' in refused.stdout and 'MAX_LBM_HEIGHT' in refused.stdout
    fine = subprocess.run([sys.executable, '-m', 'pyvista_quake', 'check', 'fine.mdl'], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert fine.returncode == 0 and 'refuses' not in fine.stdout


# -- other .mdl files ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ('magic', 'words'),
    [
        (b'IDST', 'Half-Life'),
        (b'IDSQ', 'Half-Life'),
        (b'MDL5', '3D GameStudio'),
        (b'MDL7', '3D GameStudio'),
        (b'RAPO', 'Hexen II'),
        (b'MD16', 'QuakeForge'),
    ],
)
def test_other_mdl_formats_are_named(magic, words, tmp_path):
    path = tmp_path / 'model.mdl'
    path.write_bytes(magic + bytes(200))
    with pytest.raises(pq.QuakeFormatError, match=f'{words}.*not a Quake'):
        pq.load(path)
    with pytest.raises(pq.QuakeFormatError, match=words):
        pv.read(path)


# -- conventions ----------------------------------------------------------------------------


def test_texel_centers_match_the_gl_commands():
    commands = [('fan', [(0.5 / 64, 0.5 / 64, 0), (32.5 / 64, 0.5 / 64, 1), (0.5 / 64, 32.5 / 64, 2)])]
    data = tetra_md2(glcmds=commands)
    centred = pq.load(data, texel_centers=True).mesh(0)
    gl = pq.load(data, glcmds=True).mesh(0)
    for vertex in (0, 1, 2):
        uv = centred.active_texture_coordinates[centred.point_data['vertex_index'] == vertex]
        gl_uv = gl.active_texture_coordinates[gl.point_data['vertex_index'] == vertex][0]
        assert np.isclose(uv, gl_uv).all(axis=1).any()
    plain = pq.load(data).mesh(0)
    np.testing.assert_allclose(
        centred.active_texture_coordinates - plain.active_texture_coordinates, np.tile([0.5 / 64, -0.5 / 64], (plain.n_points, 1)), atol=1e-6
    )


def test_group_timing_conventions():
    data = torch_mdl(frames=[('group', [0.1, 0.5, 0.6], [('a', VERTS), ('b', VERTS), ('c', VERTS)])])
    # WinQuake r_alias.c R_AliasSetupFrame: intervals are end times
    np.testing.assert_allclose(pq.load(data).times, [0.0, 0.1, 0.5])
    # GLQuake gl_rmain.c R_SetupAliasFrame: every pose lasts intervals[0]
    gl = pq.load(data, group_timing='glquake')
    np.testing.assert_allclose(gl.times, [0.0, 0.1, 0.2])
    assert gl.duration == pytest.approx(0.3)


def test_quakec_frame_numbers_count_a_group_once():
    data = torch_mdl(frames=[('single', 'a', VERTS), ('group', [0.1, 0.2], [('b', VERTS), ('c', VERTS)]), ('single', 'd', VERTS)])
    model = pq.load(data)
    assert [list(r) for r in model.entries] == [[0], [1, 2], [3]]
    path_reader = model.entries[2][0]
    assert model.frame_names[path_reader] == 'd'


def test_reader_entry(tmp_path):
    path = tmp_path / 'm.mdl'
    path.write_bytes(torch_mdl(frames=[('single', 'a', VERTS), ('group', [0.1, 0.2], [('b', VERTS), ('c', VERTS)]), ('single', 'd', VERTS)]))
    reader = pv.get_reader(path)
    reader.entry = 2
    assert reader.frame == 3 and reader.read().quake.frame_name == 'd'


def test_computed_normals_are_smooth_across_seams():
    model = pq.load(torch_mdl(), normals='computed')
    mesh = model.mesh(0)
    normals = mesh.point_data['Normals']
    vertex = mesh.point_data['vertex_index']
    for v in np.unique(vertex):  # points a seam splits share their normal
        rows = normals[vertex == v]
        np.testing.assert_allclose(rows, rows[:1].repeat(len(rows), axis=0), atol=1e-6)
    assert not np.allclose(normals, model.normals(0)[0][0])  # not the stored constant normal


def test_mf_holey_makes_index_255_transparent():
    picture = np.full((8, 8), 7, np.uint8)
    picture[:, :4] = 255
    data = torch_mdl(skins=[picture], flags=1 << 14)
    image = pq.load(data).alias.skin_image()
    assert image.shape == (8, 8, 4)
    assert (image[:, :4, 3] == 0).all() and (image[:, 4:, 3] == 255).all()
    assert pq.load(data).mesh(0).quake.image().shape == (8, 8, 4)  # the accessor too
    assert pq.load(data, holey=False).alias.skin_image().shape == (8, 8, 3)
    assert pq.load(torch_mdl(skins=[picture])).alias.skin_image().shape == (8, 8, 3)  # no flag: opaque


def test_external_replacement_skin_wins_over_the_embedded_one(tmp_path):
    progs = tmp_path / 'id1' / 'progs'
    progs.mkdir(parents=True)
    (progs / 'torch.mdl').write_bytes(torch_mdl())
    replacement = np.zeros((16, 16, 3), np.uint8)
    replacement[..., 0] = 200
    Image.fromarray(replacement).save(progs / 'torch.mdl_0.png')
    model = pq.load(progs / 'torch.mdl')
    np.testing.assert_array_equal(model.alias.skin_image(), replacement)
    assert model.mesh(0).quake.skin_location.endswith('torch.mdl_0.png')
    embedded = pq.load(progs / 'torch.mdl', external_skins=False).alias.skin_image()
    np.testing.assert_array_equal(embedded, QUAKE_PALETTE[np.zeros((8, 8), np.uint8)])
    Image.fromarray(replacement // 2).save(progs / 'torch.mdl_0_glow.png')
    assert model.alias.skins.external_map(0, 'glow') is not None and model.alias.skins.external_map(0, 'pants') is None


def test_anm_beside_the_model_inside_a_pk3(tmp_path):
    pk3 = tmp_path / 'models.pk3'
    with zipfile.ZipFile(pk3, 'w') as archive:
        archive.writestr('models/a/tris.md2', tetra_md2())
        archive.writestr('models/a/tris.anm', 'wave 0 2 10\n')
    model = pq.load(pk3, member='models/a/tris.md2')
    assert 'wave' in model.animations and len(model.animations['wave']) == 3
    assert 'wave' not in pq.load(pk3, member='models/a/tris.md2', anm=False).animations  # anm=False reads none


def test_open_file_finds_skins_beside_it(tmp_path):
    (tmp_path / 'tris.md2').write_bytes(tetra_md2(skins=['models/x/missing.pcx']))
    Image.fromarray(np.zeros((4, 4, 3), np.uint8)).save(tmp_path / 'tris.png')
    with open(tmp_path / 'tris.md2', 'rb') as handle, pytest.warns(pq.QuakeWarning, match='using'):
        model = pq.load(handle)
        assert model.alias.skin_file(0) is not None


def test_reader_takes_every_load_option(tmp_path):
    path = tmp_path / 'torch.mdl'
    path.write_bytes(torch_mdl())
    palette = np.zeros((256, 3), np.uint8)
    palette[0] = (1, 2, 3)
    mesh = pv.read(path, palette=palette, anm=False, animations={'x': [1, 0]}, texel_centers=True)
    assert tuple(mesh.quake.image()[0, 0]) == (1, 2, 3)
    reader = pv.get_reader(path)
    reader.animations = {'y': [0, 1]}  # the option, given a mapping
    assert 'y' in reader.animations
    reader.group_timing = 'glquake'
    assert reader.model.options.group_timing == 'glquake'


def test_time_values_do_not_accumulate_rounding():
    model = pq.load(build_md2(np.zeros((1007, 3, 4), np.uint8), [[0, 1, 2]], [[0, 0, 0]], [[0, 0]]))
    assert model.times[3] == 0.3 and model.times[-1] == 100.6
    assert model.duration == pytest.approx(100.7, abs=1e-12)


def test_read_source_from_bytes_io():
    assert len(pq.load(io.BytesIO(tetra_md2()))) == 3


def test_glcmd_builder_round_trip():
    # builders.glcmd_words is the spec-side encoding the tests use; a fan of 3 is 1 + 9 words + the zero.
    assert len(glcmd_words([('fan', [(0, 0, 0)] * 3)])) == 4 * 11
    assert struct.unpack('<i', glcmd_words([('fan', [(0, 0, 0)] * 3)])[:4])[0] == -3
