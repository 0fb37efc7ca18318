"""What each game engine does with a model: which would refuse it, misdraw it, or warn.

The rules come from the engines' own loaders and renderers, each citing the
function that applies it:

- ``quake``: WinQuake, id's software renderer (``WinQuake/model.c``, ``r_alias.c``);
- ``glquake``: id's GLQuake (``WinQuake/gl_model.c``, ``gl_rmain.c``, ``gl_mesh.c``);
- ``quakespasm``: QuakeSpasm (``Quake/gl_model.c``, ``r_alias.c``);
- ``ezquake``: ezQuake (``r_aliasmodel.c``, ``r_aliasmodel_skins.c``);
- ``quake2``: id's Quake II OpenGL renderer (``ref_gl/gl_model.c``, ``gl_mesh.c``);
- ``yquake2``: Yamagi Quake II (``src/client/refresh/files/models.c``);
- ``iqmdemo``: the IQM developer kit's demo (``demo/iqm.cpp``), the reference IQM loader;
- ``cube2``: Cube 2 engines, Sauerbraten and Red Eclipse (``src/engine/iqm.h``, ``md5.h``);
- ``doom3``: Doom 3 as dhewm3 carries it (``neo/renderer/Model_md5.cpp``, ``neo/game/anim/Anim.cpp``).

:func:`check` lists the findings for a file; ``strict=`` of :func:`~pyvista_quake.load`
raises for what one engine (or any, with ``True``) refuses.  The reader itself
refuses only what no engine can draw.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from typing import Callable

import numpy as np

from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake.formats import bsp
from pyvista_quake.formats import iqm
from pyvista_quake.formats import md3
from pyvista_quake.formats import md5
from pyvista_quake.formats import parse_buffer
from pyvista_quake.formats.tables import NUM_VERTEX_NORMALS
from pyvista_quake.game.sources import read_source

#: Engine names and what they stand for.
ENGINES = {
    'quake': 'WinQuake (id, software renderer)',
    'glquake': 'GLQuake (id)',
    'quakespasm': 'QuakeSpasm',
    'ezquake': 'ezQuake',
    'quake2': 'Quake II (id, OpenGL renderer)',
    'yquake2': 'Yamagi Quake II',
    'quake3': 'Quake III Arena 1.32 (id)',
    'ioquake3': 'ioquake3',
    'iqmdemo': "the IQM developer kit's demo",
    'cube2': 'Cube 2 engines (Sauerbraten, Red Eclipse)',
    'doom3': 'Doom 3 (id, as dhewm3 carries it)',
}
QUAKE_ENGINES = ('quake', 'glquake', 'quakespasm', 'ezquake')
QUAKE2_ENGINES = ('quake2', 'yquake2')
QUAKE3_ENGINES = ('quake3', 'ioquake3')
#: The engines that load each format at all.
ENGINES_OF = {'mdl': QUAKE_ENGINES, 'md2': QUAKE2_ENGINES, 'md3': QUAKE3_ENGINES, 'iqm': ('iqmdemo', 'cube2'), 'md5': ('doom3', 'cube2'),
              'bsp': ()}  # a level's refusals are the parser's own
FORMAT_NAMES = {'mdl': 'Quake (MDL) models', 'md2': 'Quake II (MD2) models', 'md3': 'Quake III (MD3) models',
                'iqm': 'Inter-Quake Models (IQM)', 'md5': 'Doom 3 (MD5) models', 'bsp': 'levels (BSP)'}  # fmt: skip
#: ``SHADER_MAX_VERTEXES`` and ``SHADER_MAX_INDEXES`` (``qfiles.h``), the same in id's 1.32 and ioquake3.
SHADER_MAX_VERTEXES = 1000
SHADER_MAX_INDEXES = 6 * SHADER_MAX_VERTEXES

REFUSES, MISDRAWS, WARNS = 'refuses', 'misdraws', 'warns'

#: ``MF_HOLEY``: QuakeSpasm (and MarkV, QSS) draw palette index 255 transparent on such models.
MF_HOLEY = 1 << 14
#: Quake II's OpenGL renderer loads an MD2 into a 2 MB hunk (``Mod_LoadModel``: ``Hunk_Begin (0x200000)``).
QUAKE2_MODEL_HUNK = 0x200000


@dataclass(frozen=True)
class Finding:
    """One engine's verdict on one thing in a file.

    Attributes
    ----------
    engine : str
        A key of :data:`ENGINES`.
    rule : str
        What the engine checks or does, in a few words.
    field : str
        The field of the format, named as in the spec.
    value : Any
        The file's value.
    effect : str
        ``'refuses'`` (the engine will not load it), ``'misdraws'`` (it loads
        and draws it wrongly, or overruns an array) or ``'warns'``.
    where : str
        The engine's file and function that do it.

    """

    engine: str
    rule: str
    field: str
    value: Any
    effect: str
    where: str

    def __str__(self) -> str:
        """One line: engine, effect, field, value, rule and where."""
        return f'{self.engine} {self.effect}: {self.field} = {self.value!r}: {self.rule} ({self.where})'


@dataclass(frozen=True)
class Rule:
    engines: tuple[str, ...]
    field: str
    test: Callable[[dict], Any]  # the offending value, or None
    effect: str
    rule: str
    where: dict[str, str]


def _over(field: str, limit: int) -> Callable[[dict], Any]:
    return lambda f: f[field] if f[field] > limit else None


def _under(field: str, limit: int) -> Callable[[dict], Any]:
    return lambda f: f[field] if f[field] < limit else None


MDL_RULES = (
    Rule(QUAKE_ENGINES, 'numskins', _under('numskins', 1), REFUSES, 'a model needs a skin',
         {'quake': 'model.c Mod_LoadAliasModel', 'glquake': 'gl_model.c Mod_LoadAllSkins',
          'quakespasm': 'gl_model.c Mod_LoadAllSkins', 'ezquake': 'r_aliasmodel_skins.c Mod_LoadAllSkins'}),
    Rule(('glquake', 'quakespasm', 'ezquake'), 'numskins', _over('numskins', 32), REFUSES, 'more than MAX_SKINS (32) skins',
         {'glquake': 'gl_model.c Mod_LoadAllSkins', 'quakespasm': 'gl_model.c Mod_LoadAllSkins',
          'ezquake': 'r_aliasmodel_skins.c Mod_LoadAllSkins'}),
    Rule(('quake',), 'skinwidth', lambda f: f['skinwidth'] if f['skinwidth'] % 4 else None, REFUSES,
         'skin width not a multiple of 4', {'quake': 'model.c Mod_LoadAliasModel'}),
    Rule(('quake', 'glquake', 'ezquake'), 'skinheight', _over('skinheight', 480), REFUSES,
         'skin taller than MAX_LBM_HEIGHT (480)', {'quake': 'model.c Mod_LoadAliasModel',
         'glquake': 'gl_model.c Mod_LoadAliasModel', 'ezquake': 'r_aliasmodel.c Mod_LoadAliasModel'}),
    Rule(('quakespasm',), 'skinheight', _over('skinheight', 480), WARNS, 'skin taller than MAX_LBM_HEIGHT (480)',
         {'quakespasm': 'gl_model.c Mod_LoadAliasModel (Con_DWarning)'}),
    Rule(('quake', 'quakespasm'), 'numverts', _over('numverts', 2000), REFUSES, 'more than MAXALIASVERTS (2000) vertices',
         {'quake': 'model.c Mod_LoadAliasModel (r_local.h)', 'quakespasm': 'gl_model.c Mod_LoadAliasModel'}),
    Rule(('glquake',), 'numverts', _over('numverts', 1024), REFUSES, 'more than MAXALIASVERTS (1024) vertices',
         {'glquake': 'gl_model.c Mod_LoadAliasModel'}),
    Rule(('ezquake',), 'numverts', _over('numverts', 2048), REFUSES, 'more than MAXALIASVERTS (2048) vertices',
         {'ezquake': 'r_aliasmodel.c Mod_LoadAliasModel'}),
    Rule(('quakespasm',), 'numtris', _over('numtris', 4096), REFUSES, 'more than MAXALIASTRIS (4096) triangles',
         {'quakespasm': 'gl_model.c Mod_LoadAliasModel'}),
    Rule(('glquake', 'ezquake'), 'numtris', _over('numtris', 2048), MISDRAWS,
         'more triangles than triangles[MAXALIASTRIS] (2048) holds; not checked',
         {'glquake': 'gl_model.c Mod_LoadAliasModel', 'ezquake': 'r_aliasmodel.c Mod_LoadAliasModel'}),
    Rule(('glquake', 'ezquake'), 'poses', _over('poses', 256), MISDRAWS,
         'more poses than poseverts[MAXALIASFRAMES] (256) holds; not checked',
         {'glquake': 'gl_model.c Mod_LoadAliasFrame', 'ezquake': 'r_aliasmodel.c Mod_LoadAliasFrame'}),
    Rule(('quakespasm',), 'poses', _over('poses', 1024), MISDRAWS,
         'more poses than poseverts[MAXALIASFRAMES] (1024) holds', {'quakespasm': 'gl_model.c Mod_LoadAliasFrame'}),
    Rule(('quake',), 'frame group interval', lambda f: f['min_interval'] if f['min_interval'] <= 0 else None, REFUSES,
         'a frame group interval <= 0', {'quake': 'model.c Mod_LoadAliasGroup'}),
    Rule(('quake',), 'skin group interval', lambda f: f['min_skin_interval'] if f['min_skin_interval'] <= 0 else None,
         REFUSES, 'a skin group interval <= 0', {'quake': 'model.c Mod_LoadAliasSkinGroup'}),
    Rule(('glquake', 'quakespasm', 'ezquake'), 'frame group interval',
         lambda f: f['first_interval'] if f['first_interval'] <= 0 else None, MISDRAWS,
         'a group whose first interval is <= 0 (time / interval picks the pose)',
         {'glquake': 'gl_rmain.c R_SetupAliasFrame', 'quakespasm': 'r_alias.c R_SetupAliasFrame',
          'ezquake': 'r_aliasmodel.c R_AliasSetupFrame'}),
    Rule(QUAKE_ENGINES, 'lightnormalindex', lambda f: f['top_normal'] if f['top_normal'] >= NUM_VERTEX_NORMALS else None,
         MISDRAWS, 'a normal index past the 162-entry table (read past r_avertexnormals)',
         {'quake': 'r_alias.c R_AliasTransformFinalVert', 'glquake': 'gl_rmain.c GL_DrawAliasFrame',
          'quakespasm': 'r_alias.c GL_DrawAliasFrame', 'ezquake': 'r_aliasmodel.c'}),
)

MD2_RULES = (
    Rule(QUAKE2_ENGINES, 'skinheight', _over('skinheight', 480), REFUSES, 'skin taller than MAX_LBM_HEIGHT (480)',
         {'quake2': 'ref_gl/gl_model.c Mod_LoadAliasModel', 'yquake2': 'models.c Mod_LoadMD2'}),
    Rule(QUAKE2_ENGINES, 'num_xyz', _over('num_xyz', 2048), REFUSES, 'more than MAX_VERTS (2048) vertices',
         {'quake2': 'ref_gl/gl_model.c Mod_LoadAliasModel', 'yquake2': 'models.c Mod_LoadMD2'}),
    Rule(('quake2',), 'ofs_end', lambda f: f['ofs_end'] if f['ofs_end'] > QUAKE2_MODEL_HUNK else None, REFUSES,
         'larger than the 2 MB model hunk (Hunk_Begin (0x200000))', {'quake2': 'ref_gl/gl_model.c Mod_LoadModel'}),
    Rule(('yquake2',), 'ofs_end', lambda f: f['ofs_end'] if f['ofs_end'] < 0 or f['ofs_end'] > f['size'] else None,
         REFUSES, 'ofs_end outside the file', {'yquake2': 'models.c Mod_LoadMD2'}),
    Rule(('quake2',), 'num_skins', _over('num_skins', 32), MISDRAWS, 'more than MAX_MD2SKINS (32) skins overrun mod->skins',
         {'quake2': 'ref_gl/gl_model.c Mod_LoadAliasModel'}),
    Rule(('yquake2',), 'num_skins', _over('num_skins', 32), WARNS, 'more than MAX_MD2SKINS (32) skins: the rest ignored',
         {'yquake2': 'models.c Mod_LoadMD2'}),
    Rule(QUAKE2_ENGINES, 'num_glcmds', lambda f: f['num_glcmds'] if f['num_glcmds'] == 0 else None, MISDRAWS,
         'no OpenGL commands: the renderer draws the commands only, so nothing is drawn',
         {'quake2': 'ref_gl/gl_mesh.c GL_DrawAliasFrameLerp', 'yquake2': 'gl1_mesh.c R_DrawAliasFrameLerp'}),
    Rule(('yquake2',), 'glcmds', lambda f: f['last_glcmd'] if f['last_glcmd'] not in (0, None) else None, WARNS,
         'command list not ended by a zero word', {'yquake2': 'models.c Mod_LoadMD2'}),
    Rule(QUAKE2_ENGINES, 'glcmds', lambda f: f['glcmds_past_end'] or None, MISDRAWS,
         'command list runs past the end of the file (read from beyond the loaded data)',
         {'quake2': 'ref_gl/gl_model.c Mod_LoadAliasModel', 'yquake2': 'models.c Mod_LoadMD2'}),
    Rule(QUAKE2_ENGINES, 'lightnormalindex', lambda f: f['top_normal'] if f['top_normal'] >= NUM_VERTEX_NORMALS else None,
         MISDRAWS, 'a normal index past the 162-entry table (read past r_avertexnormals)',
         {'quake2': 'ref_gl/gl_mesh.c GL_LerpVerts', 'yquake2': 'gl1_mesh.c'}),
)  # fmt: skip


_Q3 = {'quake3': 'code/renderer/tr_model.c R_LoadMD3', 'ioquake3': 'code/renderergl1/tr_model.c R_LoadMD3'}
MD3_RULES = (
    # id's 1.32 drops to the console (ERR_DROP) past the limit; ioquake3 refuses the model from the limit on.
    Rule(('quake3',), 'numVerts', lambda f: f['top_verts'] if f['top_verts'] > SHADER_MAX_VERTEXES else None, REFUSES,
         f'a surface of more than SHADER_MAX_VERTEXES ({SHADER_MAX_VERTEXES}) vertices: ERR_DROP', _Q3),
    Rule(('ioquake3',), 'numVerts', lambda f: f['top_verts'] if f['top_verts'] >= SHADER_MAX_VERTEXES else None, REFUSES,
         f'a surface of {SHADER_MAX_VERTEXES} vertices or more (SHADER_MAX_VERTEXES)', _Q3),
    Rule(('quake3',), 'numTriangles', lambda f: f['top_tris'] if 3 * f['top_tris'] > SHADER_MAX_INDEXES else None, REFUSES,
         f'a surface of more than SHADER_MAX_INDEXES / 3 ({SHADER_MAX_INDEXES // 3}) triangles: ERR_DROP', _Q3),
    Rule(('ioquake3',), 'numTriangles', lambda f: f['top_tris'] if 3 * f['top_tris'] >= SHADER_MAX_INDEXES else None, REFUSES,
         f'a surface of {SHADER_MAX_INDEXES // 3} triangles or more (SHADER_MAX_INDEXES / 3)', _Q3),
    Rule(('quake3',), 'numSurfaces', _over('numSurfaces', md3.MD3_MAX_SURFACES), MISDRAWS,
         'more than MD3_MAX_SURFACES (32) surfaces: a .skin of them overruns skin_t.surfaces',
         {'quake3': 'code/renderer/tr_image.c R_RegisterSkin'}),
)  # fmt: skip


def _md3_facts(record, size: int) -> dict:
    h = record.header_fields()
    surfaces = [s.header[0] for s in record.surfaces]
    return {
        **h,
        'top_verts': max((int(s['numVerts']) for s in surfaces), default=0),
        'top_tris': max((int(s['numTriangles']) for s in surfaces), default=0),
        'size': size,
    }


_IQM = {'iqmdemo': 'demo/iqm.cpp loadiqm', 'cube2': 'src/engine/iqm.h iqm::loadiqm'}
_IQM_ARRAYS = {'iqmdemo': 'demo/iqm.cpp loadiqmmeshes', 'cube2': 'src/engine/iqm.h iqm::loadiqmmeshes'}
#: The component format and size the IQM demo and Cube 2 take for each standard vertex array (``loadiqmmeshes``).
IQM_PORTABLE_ARRAYS = {0: (7, 3), 1: (7, 2), 2: (7, 3), 3: (7, 4), 4: (1, 4), 5: (1, 4)}
IQM_RULES = (
    Rule(('iqmdemo', 'cube2'), 'filesize', _over('filesize', iqm.MAX_FILESIZE), REFUSES,
         f'a file over 16 MiB ({iqm.MAX_FILESIZE} bytes)', _IQM),
    Rule(('iqmdemo', 'cube2'), 'vertexarrays.format', lambda f: f['odd_array'], REFUSES,
         'a position, texcoord, normal, tangent, blendindexes or blendweights array not in the portable format '
         '(float x3, x2, x3, x4; ubyte x4, x4)', _IQM_ARRAYS),
)  # fmt: skip

_MD5 = {'doom3': 'neo/renderer/Model_md5.cpp idRenderModelMD5::LoadModel'}
_ANIM = {'doom3': 'neo/game/anim/Anim.cpp idMD5Anim::LoadAnim'}
MD5_RULES = (
    Rule(('doom3',), 'MD5Version', lambda f: ('missing' if f['MD5Version'] is None else f['MD5Version']) if f['MD5Version'] != md5.VERSION else None, REFUSES,
         f'a file with no MD5Version {md5.VERSION} line', {'doom3': 'neo/renderer/Model_md5.cpp / neo/game/anim/Anim.cpp: ExpectTokenString MD5Version'}),
    Rule(('doom3',), 'commandline', lambda f: 'missing' if f['commandline'] is None else None, REFUSES,
         'a file with no commandline line', {'doom3': 'neo/renderer/Model_md5.cpp / neo/game/anim/Anim.cpp: ExpectTokenString commandline'}),
    Rule(('doom3',), 'numMeshes', lambda f: f['numMeshes'] if f.get('numMeshes') is not None and f['numMeshes'] > f['mesh_blocks'] else None, REFUSES,
         'more meshes counted than the file holds (the parser meets the end of the file)', _MD5),
    Rule(('doom3',), 'weightCount', lambda f: f['unweighted'] or None, REFUSES,
         'a vertex with no weights ("Vertex without any joint weights")', {'doom3': 'neo/renderer/Model_md5.cpp idMD5Mesh::ParseMesh'}),
    Rule(('doom3',), 'firstWeight', lambda f: f['weights_past'] or None, WARNS,
         "vertices whose weights run past numweights (it reads past the list)", {'doom3': 'neo/renderer/Model_md5.cpp idMD5Mesh::ParseMesh'}),
    Rule(('doom3',), 'hierarchy', lambda f: f['roots'] if f['roots'] > 1 else None, REFUSES,
         'more than one root joint (only joint 0 may have parent -1)', _ANIM),
    Rule(('cube2',), 'weightCount', lambda f: f['top_weights'] if f['top_weights'] > 4 else None, MISDRAWS,
         'a vertex of more than 4 weights: the 4 largest kept and renormalised', {'cube2': 'src/engine/md5.h md5mesh::buildverts'}),
)  # fmt: skip


def _iqm_facts(record, size: int) -> dict:
    h = record.header_fields()
    odd = [f'{int(a["type"])}: format {int(a["format"])} x {int(a["size"])}' for a in record.vertexarrays
           if int(a['type']) in IQM_PORTABLE_ARRAYS and (int(a['format']), int(a['size'])) != IQM_PORTABLE_ARRAYS[int(a['type'])]]  # fmt: skip
    return {**h, 'odd_array': ', '.join(odd) or None}


def _md5_facts(record, size: int) -> dict:
    h = record.header_fields()
    if isinstance(record, md5.MD5AnimFile):
        roots = sum(1 for j in record.joints if j.parent < 0)
        return {**h, 'numMeshes': None, 'mesh_blocks': 0, 'unweighted': 0, 'top_weights': 0, 'roots': roots, 'weights_past': 0}
    counts = [m.verts[:, 3] for m in record.meshes if len(m.verts)]
    every = np.concatenate(counts) if counts else np.zeros(0)
    past = sum(int((m.verts[:, 2] + m.verts[:, 3] > len(m.weights)).sum()) for m in record.meshes if len(m.verts))
    return {**h, 'mesh_blocks': len(record.meshes), 'unweighted': int((every == 0).sum()), 'top_weights': int(every.max(initial=0)), 'roots': 0,
            'weights_past': past}  # fmt: skip


def format_of(record) -> str:
    """The format of a parsed file's records: ``'md2'``, ``'mdl'``, ``'md3'``, ``'iqm'`` or ``'md5'``."""
    if isinstance(record, bsp.BSPFile):
        return 'bsp'
    if isinstance(record, iqm.IQMFile):
        return 'iqm'
    if isinstance(record, (md5.MD5MeshFile, md5.MD5AnimFile)):
        return 'md5'
    if hasattr(record, 'surfaces'):
        return 'md3'
    return 'mdl' if hasattr(record, 'poses') else 'md2'


def _mdl_facts(record, size: int) -> dict:
    h = record.header_fields()
    intervals = [g.intervals for g in record.groups]
    skin_times = [s.times for s in record.skins if s.times is not None]
    return {
        **h,
        'poses': len(record.poses),
        'min_interval': float(min((i.min() for i in intervals if len(i)), default=1.0)),
        'first_interval': float(min((i[0] for i in intervals if len(i)), default=1.0)),
        'min_skin_interval': float(min((t.min() for t in skin_times if len(t)), default=1.0)),
        'top_normal': int(record.poses['verts'][..., 3].max(initial=0)),
        'size': size,
    }


def _md2_facts(record, size: int) -> dict:
    h = record.header_fields()
    words = record.glcmds
    return {
        **h,
        'top_normal': int(record.frames['verts'][..., 3].max(initial=0)),
        'last_glcmd': int(words[-1]) if len(words) else None,
        'glcmds_past_end': len(words) < h['num_glcmds'],
        'size': size,
    }


def findings(record, size: int) -> list[Finding]:
    """Every engine's findings on a parsed file (``MD2File`` or ``MDLFile``) of ``size`` bytes."""
    format = format_of(record)
    if not ENGINES_OF[format]:
        return []
    facts = {'mdl': _mdl_facts, 'md2': _md2_facts, 'md3': _md3_facts, 'iqm': _iqm_facts, 'md5': _md5_facts}[format](record, size)
    out = []
    for rule in {'mdl': MDL_RULES, 'md2': MD2_RULES, 'md3': MD3_RULES, 'iqm': IQM_RULES, 'md5': MD5_RULES}[format]:
        value = rule.test(facts)
        if value is None or value is False:
            continue
        for engine in rule.engines:
            out.append(Finding(engine, rule.rule, rule.field, value, rule.effect, rule.where[engine]))
    return out


def check(source: Any, **options: Any) -> list[Finding]:
    """What each engine would do with a model: the findings, empty for a model every engine draws.

    Parameters
    ----------
    source : str, pathlib.Path, bytes or binary file
        The model.
    **options
        ``member=`` for a model inside a PAK or PK3.

    Returns
    -------
    list of Finding
        One per engine and rule the file breaks.

    Raises
    ------
    QuakeFormatError
        For a file no engine can draw (structurally broken).

    Examples
    --------
    >>> import pyvista_quake as pq
    >>> for finding in pq.check('models/soldiers/male/body.md2'):  # doctest: +SKIP
    ...     print(finding)

    """
    buffer, name, _ = read_source(source, options.pop('member', None))
    record = parse_buffer(buffer, name)
    return findings(record, len(buffer))


def enforce(record, size: int, strict: bool | str, source: str) -> None:
    """Raise :class:`QuakeFormatError` for what ``strict`` engines refuse (``True``: any engine)."""
    if not strict:
        return
    if strict is not True and strict not in ENGINES:
        raise ValueError(f'strict must be True, False or an engine name ({", ".join(ENGINES)}), not {strict!r}')
    format = format_of(record)
    if strict is not True and strict not in ENGINES_OF[format]:
        raise QuakeFormatError(source, 'ident', format.upper(),
                               f'{ENGINES[strict]} cannot load {FORMAT_NAMES[format]} at all (strict)')  # fmt: skip
    for finding in findings(record, size):
        if finding.effect == REFUSES and (strict is True or finding.engine == strict):
            raise QuakeFormatError(source, finding.field, finding.value,
                                   f'{ENGINES[finding.engine]} refuses: {finding.rule} ({finding.where}) (strict)')  # fmt: skip


def verdicts(found: list[Finding], format: str) -> dict[str, str]:
    """The worst effect per engine of the format (``'md2'``, ``'mdl'``, ``'md3'``, ``'iqm'`` or ``'md5'``): ``'refuses'``, ``'misdraws'``, ``'warns'`` or ``'loads'``."""
    order = (REFUSES, MISDRAWS, WARNS)
    out = {}
    for engine in ENGINES_OF[format]:
        effects = [f.effect for f in found if f.engine == engine]
        out[engine] = next((e for e in order if e in effects), 'loads')
    return out


def holey_mask(indices: np.ndarray) -> np.ndarray:
    """Texels QuakeSpasm draws transparent on an ``MF_HOLEY`` model: palette index 255."""
    return indices == 255
