"""Test-side byte builders of levels (BSP), written from ``../shared/specs/bsp-formats.txt`` with ``struct``.

Independent of :mod:`pyvista_quake.formats.bsp`: each lump is packed field by
field as the spec's tables give them, so the tests check the parser against
the layout and not against itself.
"""

from __future__ import annotations

import math
import struct


def entity_text(entities: list[list[tuple[str, str]]]) -> bytes:
    """Entities as the compilers write them: ``{ "key" "value" ... }`` blocks, NUL-ended."""
    out = ''
    for entity in entities:
        out += '{\n' + ''.join(f'"{k}" "{v}"\n' for k, v in entity) + '}\n'
    return out.encode('latin-1') + b'\0'


def _lay_out(header_size: int, lumps: list[bytes]) -> tuple[list[tuple[int, int]], bytes]:
    """Lumps one after another past the header, each at a 4-byte boundary."""
    table = []
    body = b''
    offset = header_size
    for lump in lumps:
        pad = (-len(body)) % 4
        body += b'\0' * pad
        offset = header_size + len(body)
        table.append((offset if lump else 0, len(lump)))
        body += lump
    return table, body


# -- Quake III -------------------------------------------------------------------------------


def q3_drawvert(xyz, st=(0, 0), lightmap=(0, 0), normal=(0, 0, 1), color=(255, 255, 255, 255)) -> bytes:
    return struct.pack('<3f2f2f3f4B', *xyz, *st, *lightmap, *normal, *color)


def q3_surface(
    shader, surface_type, first_vert, num_verts, first_index=0, num_indexes=0, lightmap=-1, patch=(0, 0), fog=-1, plane=(0, 0, 1)
) -> bytes:
    vecs = (0, 0, 0, 0, 0, 0) + tuple(plane)
    return struct.pack(
        '<12i3f9f2i', shader, fog, surface_type, first_vert, num_verts, first_index, num_indexes, lightmap, 0, 0, 0, 0, 0, 0, 0, *vecs, *patch
    )


def build_q3(
    entities,
    shaders,
    models,
    drawverts,
    indexes,
    surfaces,
    lightmaps: int = 0,
    version: int = 46,
    lightmap_pages: bytes | None = None,
    lumps_given: dict[int, bytes] | None = None,
) -> bytes:
    """An IBSP 46 file: ``shaders`` ``[(name, surfaceFlags, contentFlags)]``, ``models`` ``[(firstSurface, numSurfaces)]``,
    ``drawverts`` packed by :func:`q3_drawvert`, ``surfaces`` by :func:`q3_surface`; ``lightmaps`` pages of a
    byte ramp, or ``lightmap_pages`` as given (128 x 128 x 3 bytes a page); ``lumps_given`` lumps by number as they are."""
    lumps = [b''] * 17
    lumps[0] = entity_text(entities)
    lumps[1] = b''.join(struct.pack('<64sii', n.encode(), f, c) for n, f, c in shaders)
    lumps[7] = b''.join(struct.pack('<6f4i', -1, -1, -1, 1, 1, 1, first, count, 0, 0) for first, count in models)
    lumps[10] = b''.join(drawverts)
    lumps[11] = struct.pack(f'<{len(indexes)}i', *indexes)
    lumps[13] = b''.join(surfaces)
    lumps[14] = bytes(range(256)) * (192 * lightmaps) if lightmap_pages is None else lightmap_pages  # 49,152 bytes a page
    for number, lump in (lumps_given or {}).items():
        lumps[number] = lump
    table, body = _lay_out(8 + 17 * 8, lumps)
    return b'IBSP' + struct.pack('<i', version) + b''.join(struct.pack('<ii', o, n) for o, n in table) + body


# The collision lumps' numbers (spec: the Quake III lump table).
Q3_PLANES, Q3_NODES, Q3_LEAFS, Q3_LEAFBRUSHES, Q3_MODELS, Q3_BRUSHES, Q3_BRUSHSIDES, Q3_LIGHTGRID, Q3_VISIBILITY = 2, 3, 4, 6, 7, 8, 9, 15, 16
#: CONTENTS_* of the shaders below (surfaceflags.h).
SOLID, WATER, PLAYERCLIP = 1, 32, 0x10000


def collision_args(
    gridsize: str | None = '32 32 32',
    grid: bytes | None = None,
    visibility: bytes | None = None,
    nodes=None,
    leafbrushes=None,
    sides=None,
    brush_model: bool = False,
) -> dict:
    """``build_q3`` keywords of a small world to stand in and see across, packed field by field.

    Planes: 0 z = 0, 1 the slanted 0.6 x + 0.8 y = 0, 2 y = -64, then the brushes' sides.  Node 0 splits on
    z = 0: below is leaf 0 (solid, cluster and area -1); above, node 1 splits on the slant: its front is leaf 1
    (cluster 0, area 0), its back node 2, which splits on y = -64 into leaf 2 (cluster 1, area 0) and leaf 3
    (cluster 1, area 1).  Brushes: 0 the floor (-128..128 in x and y, -16..0 in z, solid), 1 a pool (0..64 in x
    and y, 0..32 in z, water) with a seventh, slanted side 0.6 x + 0.8 z = 40, 2 a player clip (-96..-64 in x,
    -32..0 in y, 0..56 in z); ``brush_model``: a brush model *1 of brushes 1 and 2.  Visibility: cluster 0 sees itself; cluster 1 both.  The world's bounds are
    -128 -128 -16 .. 128 128 64, its light grid 9 x 9 x 3 samples of 32 units from -128 -128 0 (worldspawn's
    ``gridsize``)."""
    axial = [((1, 0, 0), 128), ((-1, 0, 0), 128), ((0, 1, 0), 128), ((0, -1, 0), 128), ((0, 0, 1), 0), ((0, 0, -1), 16)]
    pool = [((1, 0, 0), 64), ((-1, 0, 0), 0), ((0, 1, 0), 64), ((0, -1, 0), 0), ((0, 0, 1), 32), ((0, 0, -1), 0), ((0.6, 0, 0.8), 40)]
    clip = [((1, 0, 0), -64), ((-1, 0, 0), 96), ((0, 1, 0), 0), ((0, -1, 0), 32), ((0, 0, 1), 56), ((0, 0, -1), 0)]
    # CM_BoundBrush reads the first six sides as -x, +x, -y, +y, -z, +z: q3map2 writes them in that order.
    order = [1, 0, 3, 2, 5, 4]
    brush_planes = [[b[k] for k in order] + b[6:] for b in (axial, pool, clip)]
    planes = [((0, 0, 1), 0), ((0.6, 0.8, 0), 0), ((0, 1, 0), -64)] + [p for b in brush_planes for p in b]
    plane_bytes = b''.join(struct.pack('<4f', *n, d) for n, d in planes)
    side_list = sides if sides is not None else []
    if sides is None:
        number = 3
        for k, b in enumerate(brush_planes):
            for _ in b:
                side_list.append((number, k))
                number += 1
    side_bytes = b''.join(struct.pack('<2i', plane, shader) for plane, shader in side_list)
    counts = [len(b) for b in brush_planes]
    firsts = [sum(counts[:k]) for k in range(3)]
    brush_bytes = b''.join(struct.pack('<3i', firsts[k], counts[k], k) for k in range(3))
    node_list = nodes if nodes is not None else [(0, (1, -1)), (1, (-2, 2)), (2, (-3, -4))]  # (plane, (front, back))
    node_bytes = b''.join(struct.pack('<9i', plane, *children, 0, 0, 0, 0, 0, 0) for plane, children in node_list)
    brush_runs = [[0], [0, 1], [0, 2], [0, 2]]  # each leaf's brushes
    leaf_values = [(-1, -1), (0, 0), (1, 0), (1, 1)]
    flat = leafbrushes if leafbrushes is not None else [b for run in brush_runs for b in run]
    leaf_bytes = b''
    at = 0
    for (cluster, area), run in zip(leaf_values, brush_runs):
        leaf_bytes += struct.pack('<12i', cluster, area, 0, 0, 0, 0, 0, 0, 0, 0, at, len(run))
        at += len(run)
    model_bytes = struct.pack('<6f4i', -128, -128, -16, 128, 128, 64, 0, 0, 0, 3)
    if brush_model:  # *1: the pool and the clip again, brushes 1 and 2
        model_bytes += struct.pack('<6f4i', -96, -32, 0, 64, 64, 56, 0, 0, 1, 2)
    vis = struct.pack('<2i', 2, 1) + bytes([0b01, 0b11]) if visibility is None else visibility
    entities = [[('classname', 'worldspawn')] + ([('gridsize', gridsize)] if gridsize is not None else [])]
    if grid is None:
        grid = b''.join(struct.pack('<8B', *light_sample(x, y, z)) for z in range(3) for y in range(9) for x in range(9))
    lumps = {
        Q3_PLANES: plane_bytes,
        Q3_NODES: node_bytes,
        Q3_LEAFS: leaf_bytes,
        Q3_LEAFBRUSHES: struct.pack(f'<{len(flat)}i', *flat),
        Q3_MODELS: model_bytes,
        Q3_BRUSHES: brush_bytes,
        Q3_BRUSHSIDES: side_bytes,
        Q3_LIGHTGRID: grid,
        Q3_VISIBILITY: vis,
    }
    shaders = [('textures/floor', 0, SOLID), ('textures/water', 0, WATER), ('textures/common/playerclip', 0, PLAYERCLIP)]
    return dict(entities=entities, shaders=shaders, models=[(0, 0)], drawverts=[], indexes=[], surfaces=[], lumps_given=lumps)


def light_sample(x: int, y: int, z: int) -> tuple[int, ...]:
    """The test grid's sample ``(x, y, z)``: ambient 10 x + 1, 5 y + 2, 40 z + 3 (dark below: the samples of
    z = 0 with x < 2 are in a wall, all 0); directed 100, 0, 200 (shifted once: 200, 0, 400, scaled
    down as a whole: 127, 0, 255); longitude 0, latitude 0 (straight up)."""
    if z == 0 and x < 2:
        return (0, 0, 0, 0, 0, 0, 0, 0)
    return (10 * x + 1, 5 * y + 2, 40 * z + 3, 100, 0, 200, 0, 0)


# -- Quake 1, Quake II, UFO: AI: faces over edges ------------------------------------------------


def _planes(planes) -> bytes:
    return b''.join(struct.pack('<4fi', *normal, dist, 0) for normal, dist in planes)


def _edges_of(faces_vertices, wide=False):
    """Edges and surfedges for polygons given as vertex loops: each polygon's edges new, the first edge 0 unused."""
    edges = [(0, 0)]
    surfedges = []
    firsts = []
    for loop in faces_vertices:
        firsts.append(len(surfedges))
        for k, v in enumerate(loop):
            w = loop[(k + 1) % len(loop)]
            # Every other edge stored backwards, used through a negative surfedge.
            if k % 2:
                edges.append((w, v))
                surfedges.append(-(len(edges) - 1))
            else:
                edges.append((v, w))
                surfedges.append(len(edges) - 1)
    fmt = '<2I' if wide else '<2H'
    return b''.join(struct.pack(fmt, *e) for e in edges), struct.pack(f'<{len(surfedges)}i', *surfedges), firsts


def miptex(name: str, width: int, height: int, fill: int = 7) -> bytes:
    sizes = [width * height >> (2 * k) for k in range(4)]
    offsets = [40]
    for size in sizes[:-1]:
        offsets.append(offsets[-1] + size)
    return struct.pack('<16s2I4I', name.encode(), width, height, *offsets) + b''.join(bytes([fill]) * s for s in sizes)


def build_q1(entities, vertexes, planes, texinfo, faces, models, textures, *, ident: bytes | None = None, lighting: bytes = b'') -> bytes:
    """A Quake 1 level.  ``faces`` ``[(plane, side, loop of vertex numbers, texinfo, lightofs[, styles])]`` (styles ``(0, 255, 255, 255)`` unless given), ``texinfo``
    ``[(vecs 2 x 4, miptex, flags)]``, ``models`` ``[(firstface, numfaces, origin)]``, ``textures`` miptex bytes each;
    ``ident`` ``b'BSP2'`` or ``b'2PSB'`` for the wide records, else BSP29."""
    wide = ident is not None
    edges, surfedges, firsts = _edges_of([f[2] for f in faces], wide)
    lumps = [b''] * 15
    lumps[0] = entity_text(entities)
    lumps[1] = _planes(planes)
    count = len(textures)
    head = struct.pack('<i', count)
    offsets, blob = [], b''
    for tex in textures:
        offsets.append(4 + 4 * count + len(blob))
        blob += tex
    lumps[2] = head + struct.pack(f'<{count}i', *offsets) + blob
    lumps[3] = b''.join(struct.pack('<3f', *v) for v in vertexes)
    lumps[6] = b''.join(struct.pack('<8f2i', *[x for row in vecs for x in row], mip, flags) for vecs, mip, flags in texinfo)
    face_fmt = '<iiiii4Bi' if wide else '<hhihh4Bi'
    lumps[7] = b''.join(
        struct.pack(face_fmt, plane, side, first, len(loop), tex, *(styles[0] if styles else (0, 255, 255, 255)), light)
        for (plane, side, loop, tex, light, *styles), first in zip(faces, firsts)
    )
    lumps[8] = lighting
    lumps[12] = edges
    lumps[13] = surfedges
    lumps[14] = b''.join(struct.pack('<9f4i3i', *(-8,) * 3, *(8,) * 3, *origin, 0, 0, 0, 0, 0, first, num) for first, num, origin in models)
    table, body = _lay_out(4 + 15 * 8, lumps)
    start = ident if wide else struct.pack('<i', 29)
    return start + b''.join(struct.pack('<ii', o, n) for o, n in table) + body


def build_q2(entities, vertexes, planes, texinfo, faces, models, lighting: bytes = b'', lumps_given: dict[int, bytes] | None = None) -> bytes:
    """A Quake II level (IBSP 38).  ``texinfo`` ``[(vecs, flags, name)]``; ``faces`` as :func:`build_q1`'s; ``lighting`` RGB luxels;
    ``lumps_given`` lumps by number as they are."""
    edges, surfedges, firsts = _edges_of([f[2] for f in faces])
    lumps = [b''] * 19
    lumps[0] = entity_text(entities)
    lumps[1] = _planes(planes)
    lumps[2] = b''.join(struct.pack('<3f', *v) for v in vertexes)
    lumps[5] = b''.join(struct.pack('<8fii32si', *[x for row in vecs for x in row], flags, 0, name.encode(), -1) for vecs, flags, name in texinfo)
    lumps[6] = b''.join(
        struct.pack('<Hhihh4Bi', plane, side, first, len(loop), tex, *(styles[0] if styles else (0, 255, 255, 255)), light)
        for (plane, side, loop, tex, light, *styles), first in zip(faces, firsts)
    )
    lumps[7] = lighting
    lumps[11] = edges
    lumps[12] = surfedges
    lumps[13] = b''.join(struct.pack('<9f3i', *(-8,) * 3, *(8,) * 3, *origin, 0, first, num) for first, num, origin in models)
    for number, lump in (lumps_given or {}).items():
        lumps[number] = lump
    table, body = _lay_out(8 + 19 * 8, lumps)
    return b'IBSP' + struct.pack('<i', 38) + b''.join(struct.pack('<ii', o, n) for o, n in table) + body


def build_ufo(entities, vertexes, planes, texinfo, faces, models, normals) -> bytes:
    """A UFO: AI level (IBSP 78).  ``models`` must list the 259 level models first; ``normals`` one a vertex."""
    edges, surfedges, firsts = _edges_of([f[2] for f in faces])
    lumps = [b''] * 17
    lumps[0] = entity_text(entities)
    lumps[1] = _planes(planes)
    lumps[2] = b''.join(struct.pack('<3f', *v) for v in vertexes)
    lumps[5] = b''.join(struct.pack('<8fii32s', *[x for row in vecs for x in row], flags, 0, name.encode()) for vecs, flags, name in texinfo)
    lumps[6] = b''.join(
        struct.pack('<Hhihh2i', plane, side, first, len(loop), tex, -1, -1) for (plane, side, loop, tex, _), first in zip(faces, firsts)
    )
    lumps[7] = lumps[8] = b'\x04'
    lumps[11] = edges
    lumps[12] = surfedges
    lumps[13] = b''.join(struct.pack('<9f3i', *(-8,) * 3, *(8,) * 3, *origin, 0, first, num) for first, num, origin in models)
    lumps[16] = b''.join(struct.pack('<3f', *n) for n in normals)
    table, body = _lay_out(8 + 17 * 8, lumps)
    return b'IBSP' + struct.pack('<i', 78) + b''.join(struct.pack('<ii', o, n) for o, n in table) + body


# -- small levels of each format, for the level tests and the fuzzing seeds ---------------------

SKY, NODRAW, TRIGGER = 0x4, 0x80, 0x40000000


def square(z=0.0, x0=0.0, size=64.0, lightmap=(0.25, 0.5), normal=(0, 0, 1)):
    """Four drawverts of a square facing +z, and its two triangles clockwise seen from above (as the files store them)."""
    corners = [(x0, 0, z), (x0, size, z), (x0 + size, size, z), (x0 + size, 0, z)]
    verts = [q3_drawvert(c, st=(c[0] / size, c[1] / size), lightmap=lightmap, normal=normal) for c in corners]
    return verts, [0, 1, 2, 0, 2, 3]


def q3_level(**overrides):
    """A world of a lit square (shader 0), an unlit square with NaN lightmap coordinates (shader 0), a sky square,
    a 3 x 3 patch (shader 1), a flare, and brush model *1 (a square around its entity's origin)."""
    verts, indexes, surfaces = [], [], []

    def add_mesh(shader, z, lightmap=0, st=(0.25, 0.5), normal=(0, 0, 1)):
        v, i = square(z, lightmap=st, normal=normal)
        surfaces.append(q3_surface(shader, 1, len(verts), 4, len(indexes), 6, lightmap=lightmap))
        verts.extend(v)
        indexes.extend(i)

    add_mesh(0, 0.0, lightmap=0)
    add_mesh(0, 10.0, lightmap=-3, st=(math.nan, 1e37))
    add_mesh(2, 20.0, lightmap=-1)
    grid = [(x * 32.0, y * 32.0, 64.0 if (x, y) == (1, 1) else 0.0) for y in range(3) for x in range(3)]
    first = len(verts)
    verts.extend(q3_drawvert(p, st=(p[0] / 64, p[1] / 64), lightmap=(0.5, 0.5)) for p in grid)
    surfaces.append(q3_surface(1, 2, first, 9, lightmap=0, patch=(3, 3)))
    surfaces.append(q3_surface(1, 4, 0, 0))  # a flare: no triangles
    world = len(surfaces)
    add_mesh(3, 0.0, lightmap=1)  # page 1 named: a map of two light pages, not a deluxe one
    shaders = [
        ('textures/base/floor', 0, 1),
        ('textures/base/curve', 0, 1),
        ('textures/skies/night', SKY, 1),
        ('textures/base/door', 0, 1),
        ('textures/common/trigger', NODRAW, TRIGGER),
    ]
    entities = [
        [('classname', 'worldspawn'), ('message', 'built')],
        [('classname', 'func_door'), ('model', '*1'), ('origin', '100 200 300')],
        [('classname', 'info_player_deathmatch'), ('origin', '1 2 3'), ('angle', '90'), ('angle', '180')],
        [('classname', 'item_armor_body'), ('origin', '-5 6 7')],
    ]
    args = dict(entities=entities, shaders=shaders, models=[(0, world), (world, 1)], drawverts=verts, indexes=indexes, surfaces=surfaces, lightmaps=2)
    args.update(overrides)
    return build_q3(**args)


def q1_args():
    vertexes = [(0, 0, 0), (0, 64, 0), (32, 64, 0), (32, 0, 0), (0, 0, 8), (0, 16, 8), (16, 16, 8), (16, 0, 8)]
    planes = [((0, 0, 1), 0.0), ((0, 0, 1), 8.0)]
    s_axis = ((1, 0, 0, 0), (0, 1, 0, 0))
    texinfo = [(s_axis, 0, 0), (s_axis, 1, 0)]
    # Clockwise seen from above: (0,0) -> (0,64) -> (32,64) -> (32,0).
    faces = [(0, 0, [0, 1, 2, 3], 0, -1), (1, 0, [4, 5, 6, 7], 1, -1)]
    entities = [
        [('classname', 'worldspawn'), ('wad', 'a.wad'), ('wad', 'b.wad')],
        [('classname', 'func_door'), ('model', '*1'), ('origin', '10 0 0')],
    ]
    models = [(0, 1, (0, 0, 0)), (1, 1, (0, 0, 0))]
    return dict(
        entities=entities,
        vertexes=vertexes,
        planes=planes,
        texinfo=texinfo,
        faces=faces,
        models=models,
        textures=[miptex('stone1', 32, 64, fill=7), miptex('sky4', 16, 16, fill=9)],
    )


def q2_level(flags=0):
    args = q1_args()
    texinfo = [(((1, 0, 0, 0), (0, 1, 0, 0)), flags, 'e1u1/floor'), (((1, 0, 0, 0), (0, 1, 0, 0)), NODRAW, 'e1u1/trigger')]
    return build_q2(args['entities'], args['vertexes'], args['planes'], texinfo, args['faces'], [(0, 1, (0, 0, 0)), (1, 1, (0, 0, 0))])


def ufo_level():
    """A UFO: AI level: its 259 level models (the world's faces in model 3) and brush model *1."""
    args = q1_args()
    texinfo = [(((1, 0, 0, 0), (0, 1, 0, 0)), 0x400, 'tex_farm/wall'), (((1, 0, 0, 0), (0, 1, 0, 0)), 0, 'tex_common/actorclip')]
    models = [(0, 0, (0, 0, 0))] * 259 + [(1, 1, (0, 0, 0))]
    models[3] = (0, 1, (0, 0, 0))
    normals = [(0, 0, 1), (0, 0, 0), (0, 0.6, 0.8), (0, 0, 1)] + [(0, 0, 0)] * 4
    entities = [[('classname', 'worldspawn')], [('classname', 'func_rotating'), ('model', '*1'), ('origin', '0 0 100')]]
    return build_ufo(entities, args['vertexes'], args['planes'], texinfo, args['faces'], models, normals)


def level_seeds() -> list[bytes]:
    """One small level of each format, with what each format has: patches, flares, brush models, lightmaps, entities."""
    lit = q1_args()
    lit['faces'] = [(0, 0, [0, 1, 2, 3], 0, 0), (1, 0, [4, 5, 6, 7], 1, 0)]
    wide = dict(lit, ident=b'BSP2')
    q2 = q1_args()
    q2_faces = [(0, 0, [0, 1, 2, 3], 0, 0), (1, 0, [4, 5, 6, 7], 1, 0)]
    q2_texinfo = [(((1, 0, 0, 0), (0, 1, 0, 0)), 0, 'e1u1/floor'), (((1, 0, 0, 0), (0, 1, 0, 0)), 0x8, 'e1u1/water')]
    return [
        q3_level(lightmaps=1),
        build_q1(**lit, lighting=bytes(range(10, 25))),
        build_q1(**wide, lighting=bytes(range(10, 25))),
        build_q2(q2['entities'], q2['vertexes'], q2['planes'], q2_texinfo, q2_faces, [(0, 2, (0, 0, 0))], lighting=bytes([100, 50, 25]) * 15),
        ufo_level(),
    ]


# -- Quake III bots' navigation (.aas), from the spec's aasfile.h notes ---------------------------

AAS_REACH = '<3i3f3fiH2x'  # aas_reachability_t: its unsigned short padded to 44 bytes, as the compiler lays it out


def build_aas(*, faces: bool = False, reach=None, version: int = 5, checksum: int = 0x12345678, areas_count: int | None = None) -> bytes:
    """A navigation file of two areas: node 1 splits on x = 0, area 1 in front (x > 0); behind, node 2 splits on
    z = 100, solid above, area 2 below.  Area 1 is grounded ground (presence normal), area 2 water (liquid, presence
    normal and crouch).  Reachabilities (the dummy 0 first): 1 area 1 -> 2 walking (100), 2 area 1 -> 2 jumping (50),
    3 area 2 -> 1 by rocket jump (300, not for team 1).  ``faces``: area 1 keeps one face (a square in z = 0);
    else the file keeps no vertexes, edges or faces (bspc's -optimize).  The header is scrambled for version 5."""
    lumps = [b''] * 14
    lumps[0] = struct.pack('<2i3f3f', 2, 0, -15, -15, -24, 15, 15, 32) + struct.pack('<2i3f3f', 4, 0, -15, -15, -24, 15, 15, 8)
    lumps[2] = struct.pack('<4fi', 1, 0, 0, 0, 0) + struct.pack('<4fi', 0, 0, 1, 100, 2)
    if faces:  # area 1: a square in z = 0; area 2: a triangle in x = -5, after it in every lump
        lumps[1] = b''.join(struct.pack('<3f', *v) for v in [(0, 0, 0), (10, 0, 0), (10, 10, 0), (0, 10, 0), (-5, 0, 0), (-5, 5, 0), (-5, 0, 5)])
        lumps[3] = struct.pack('<2i', 0, 0) + b''.join(struct.pack('<2i', a, b) for a, b in [(0, 1), (1, 2), (3, 2), (3, 0), (4, 5), (6, 5), (6, 4)])
        lumps[4] = struct.pack('<7i', 1, 2, -3, 4, 5, -6, 7)  # the third and sixth edges reversed: 2 -> 3, 5 -> 6
        lumps[5] = (
            struct.pack('<6i', 0, 0, 0, 0, 0, 0)
            + struct.pack('<6i', 1, 4, 4, 0, 1, 0)
            + struct.pack('<6i', 0, 2, 3, 4, 2, 0)
            + struct.pack('<6i', 0, 8, 3, 4, 2, 0)
        )  # face 3: the triangle's edges again, a gap (flag 8)
        lumps[6] = struct.pack('<3i', -1, 2, 3)  # area 1: the square; area 2: the triangle, then face 3
    else:
        lumps[3] = struct.pack('<2i', 0, 0)
        lumps[5] = struct.pack('<6i', 0, 0, 0, 0, 0, 0)
    area_rows = [
        (0, 0, 0, (0, 0, 0), (0, 0, 0), (0, 0, 0)),
        (1, 1 if faces else 0, 0, (0, -64, -16), (128, 64, 96), (64, 0, 40)),
        (2, 2 if faces else 0, 1, (-128, -64, -16), (0, 64, 96), (-64, 0, 40)),
    ]
    lumps[7] = b''.join(struct.pack('<3i9f', n, count, first, *lo, *hi, *c) for n, count, first, lo, hi, c in area_rows[: areas_count or 3])
    lumps[8] = b''.join(struct.pack('<7i', *s) for s in [(0, 0, 0, 0, 0, 0, 0), (0, 1, 2, 1, 1, 2, 1), (1, 4, 6, 1, 2, 1, 3)][: areas_count or 3])
    reach = (
        reach
        if reach is not None
        else [
            (0, (0, 0, 0), (0, 0, 0), 0, 0),
            (2, (10, 0, 0), (-10, 0, 0), 2, 100),
            (2, (10, 5, 0), (-10, 5, 0), 5, 50),
            (1, (-10, 0, 0), (10, 0, 0), 12 | (1 << 24), 300),
        ]
    )
    lumps[9] = b''.join(struct.pack(AAS_REACH, area, 0, 0, *start, *end, kind, time) for area, start, end, kind, time in reach)
    lumps[10] = struct.pack('<3i', 0, 0, 0) + struct.pack('<3i', 0, -1, 2) + struct.pack('<3i', 1, 0, -2)
    lumps[11] = struct.pack('<5i', 0, 0, 0, 0, 0)
    lumps[13] = struct.pack('<4i', 0, 0, 0, 0) + struct.pack('<4i', 2, 2, 0, 0)
    header_size = 8 + 4 + 14 * 8
    table, body = _lay_out(header_size, lumps)
    tail = struct.pack('<I', checksum) + b''.join(struct.pack('<ii', o, n) for o, n in table)
    if version == 5:  # AAS_DData: byte i of what follows the version XOR (i * 119) & 0xff
        tail = bytes(b ^ ((i * 119) & 0xFF) for i, b in enumerate(tail))
    return b'EAAS' + struct.pack('<i', version) + tail + body


def build_routing_aas(areas, links, *, portals=(), portal_index=(), clusters=((0, 0, 0, 0),), splits=()) -> bytes:
    """A navigation file for routing, written from aasfile.h's records: ``areas`` a settings row each from area 1
    ``(contents, areaflags, presencetype, cluster, clusterareanum)`` (their reachabilities counted from ``links``);
    ``links`` ``(from area, to area, start, end, traveltype, traveltime)`` in order, grouped by the area they leave;
    ``portals`` ``(areanum, frontcluster, backcluster, (clusterareanum front, back))`` from portal 1; ``clusters``
    ``(numareas, numreachabilityareas, numportals, firstportal)`` from the dummy 0.  ``splits``: planes x = d in
    order, each a node of a chain whose back child is area k + 1, the last's front the last area."""
    n = len(areas)
    lumps = [b''] * 14
    lumps[0] = struct.pack('<2i3f3f', 2, 0, -15, -15, -24, 15, 15, 32)
    lumps[2] = b''.join(struct.pack('<4fi', 1, 0, 0, d, 0) for d in splits) or struct.pack('<4fi', 1, 0, 0, 0, 0)
    lumps[3] = struct.pack('<2i', 0, 0)
    lumps[5] = struct.pack('<6i', 0, 0, 0, 0, 0, 0)
    lumps[7] = b''.join(struct.pack('<3i9f', k, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) for k in range(n + 1))
    counts = [sum(1 for link in links if link[0] == k) for k in range(n + 1)]
    firsts = [1 + sum(counts[:k]) for k in range(n + 1)]
    rows = [(0, 0, 0, 0, 0, 0, 0)] + [(*areas[k - 1], counts[k], firsts[k]) for k in range(1, n + 1)]
    lumps[8] = b''.join(struct.pack('<7i', *row) for row in rows)
    ordered = sorted(links, key=lambda link: link[0])  # stable: each area's in the order given
    lumps[9] = struct.pack(AAS_REACH, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) + b''.join(
        struct.pack(AAS_REACH, to, 0, 0, *start, *end, kind, time) for _, to, start, end, kind, time in ordered
    )
    nodes = [struct.pack('<3i', 0, 0, 0)]
    for k in range(len(splits)):  # node k + 1: x > splits[k] on to the next node (or the last area), else area k + 1
        front = k + 2 if k + 1 < len(splits) else -(len(splits) + 1)
        nodes.append(struct.pack('<3i', k, front, -(k + 1)))
    lumps[10] = b''.join(nodes) if splits else struct.pack('<3i', 0, 0, 0) + struct.pack('<3i', 0, -1, 0)
    lumps[11] = struct.pack('<5i', 0, 0, 0, 0, 0) + b''.join(struct.pack('<5i', a, f, b, *c) for a, f, b, c in portals)
    lumps[12] = b''.join(struct.pack('<i', p) for p in portal_index)
    lumps[13] = b''.join(struct.pack('<4i', *c) for c in clusters)
    header_size = 8 + 4 + 14 * 8
    table, body = _lay_out(header_size, lumps)
    tail = struct.pack('<I', 0) + b''.join(struct.pack('<ii', o, k) for o, k in table)
    tail = bytes(b ^ ((i * 119) & 0xFF) for i, b in enumerate(tail))
    return b'EAAS' + struct.pack('<i', 5) + tail + body
