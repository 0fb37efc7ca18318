"""Level (BSP) speed and memory: ``load`` + ``blocks(0)`` against a plain numpy decoder of the same work, and bsp_tool.

    python benchmarks/levels.py [--rounds 7]

1. Each corpus Quake III map (PK3 members, read from the archive's bytes both ways): ``pyvista_quake.load`` and
   ``blocks(0)`` at patch level 8, against :func:`reference`, a numpy decoder written here from
   ``../shared/specs/bsp-formats.txt`` (not from the package): the polygons' and soups' triangles, every patch
   tessellated at level 8, grouped by (brush model, shader) into PolyData with the same point arrays (normals,
   texture and lightmap coordinates).  Target: at most 1.0 (the geometric mean and the worst).
2. The same maps with patches left out (``patch_level=1`` both ways, the cheapest tessellation).
3. bsp_tool (a benchmark-only dependency, GPL-3): reading the same records (vertices, indices, faces) as its
   Python objects, the least a user of it does before building a mesh, against our whole ``load`` + ``blocks(0)``.
4. Peak memory (``tracemalloc``) of ``load`` + ``blocks(0)`` of the largest map, against the bytes of the arrays
   it returns.  Target: at most 2.0.

assimp's Quake III importer reads a map only from a PK3, and assimp-py raises on the corpus's ("Failed to get
texture path"), so it is not measured here.
"""

from __future__ import annotations

import argparse
import io
from pathlib import Path
import sys
import tracemalloc
import warnings
import zipfile

import numpy as np
import pyvista as pv

import pyvista_quake as pq

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import median_time  # noqa: E402 - the benchmarks' one timing helper

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / 'shared' / 'corpus' / 'bsp'

# -- the reference decoder, from the spec -----------------------------------------------------------

LUMPS = 17
VERT = np.dtype([('xyz', '<f4', 3), ('st', '<f4', 2), ('lm', '<f4', 2), ('normal', '<f4', 3), ('color', 'u1', 4)])
FACE = np.dtype(
    [
        ('shader', '<i4'),
        ('fog', '<i4'),
        ('type', '<i4'),
        ('first_vert', '<i4'),
        ('num_verts', '<i4'),
        ('first_index', '<i4'),
        ('num_indexes', '<i4'),
        ('lm_num', '<i4'),
        ('lm_rest', '<i4', 4),
        ('lm_origin', '<f4', 3),
        ('lm_vecs', '<f4', (3, 3)),
        ('patch_w', '<i4'),
        ('patch_h', '<i4'),
    ]
)
MODEL = np.dtype([('mins', '<f4', 3), ('maxs', '<f4', 3), ('first_face', '<i4'), ('num_faces', '<i4'), ('brushes', '<i4', 2)])


def _weights(size: int, level: int) -> np.ndarray:
    blocks = (size - 1) // 2
    out = np.zeros((blocks * level + 1, size))
    for row in range(blocks * level + 1):
        block = min(row // level, blocks - 1)
        t = (row - block * level) / level
        out[row, 2 * block : 2 * block + 3] = ((1 - t) ** 2, 2 * t * (1 - t), t * t)
    return out


def reference(data: bytes, level: int = 8) -> pv.MultiBlock:
    """Quake III's world and brush models as PolyData, one per (model, shader), from the spec's layout."""
    table = np.frombuffer(data, '<i4', 2 * LUMPS, 8).reshape(LUMPS, 2)

    def lump(k, dtype):
        offset, length = table[k]
        return np.frombuffer(data, dtype, length // np.dtype(dtype).itemsize, offset)

    verts, indexes, faces, models = lump(10, VERT), lump(11, '<i4'), lump(13, FACE), lump(7, MODEL)
    owner = np.full(len(faces), -1)
    for number, model in enumerate(models):
        owner[model['first_face'] : model['first_face'] + model['num_faces']] = number
    out = pv.MultiBlock()
    keys = owner * (faces['shader'].max() + 1) + faces['shader']
    for key in np.unique(keys[owner >= 0]):
        chosen = np.flatnonzero(keys == key)
        parts, tris, offset = [], [], 0
        for face in faces[chosen]:
            if face['type'] in (1, 3):
                v = verts[face['first_vert'] : face['first_vert'] + face['num_verts']]
                local = indexes[face['first_index'] : face['first_index'] + face['num_indexes']].reshape(-1, 3)
                parts.append((v['xyz'], v['normal'], v['st'], v['lm']))
                tris.append(local[:, ::-1] + offset)  # stored clockwise
                offset += len(v)
            elif face['type'] == 2 and level:
                w, h = face['patch_w'], face['patch_h']
                grid = verts[face['first_vert'] : face['first_vert'] + w * h].reshape(h, w)
                cols, rows = _weights(w, level), _weights(h, level)
                fields = [
                    np.einsum('rj,jik,ci->rck', rows, grid[name].astype(np.float64), cols).reshape(-1, grid[name].shape[-1])
                    for name in ('xyz', 'normal', 'st', 'lm')
                ]
                W, H = len(cols), len(rows)
                corner = (np.arange(H - 1)[:, None] * W + np.arange(W - 1)).ravel()
                quads = np.stack([corner, corner + W, corner + 1, corner + 1, corner + W, corner + W + 1], 1).reshape(-1, 3)
                parts.append(tuple(fields))
                tris.append(quads[:, ::-1] + offset)
                offset += W * H
        if not parts:
            continue
        xyz, normal, st, lm = (np.concatenate([np.asarray(p[k], np.float32) for p in parts]) for k in range(4))
        mesh = pv.PolyData.from_regular_faces(xyz, np.concatenate(tris))
        mesh.point_data['Normals'] = normal
        mesh.active_texture_coordinates = np.column_stack([st[:, 0], 1 - st[:, 1]])
        mesh.point_data['lightmap'] = np.nan_to_num(lm, nan=0, posinf=0, neginf=0)
        out.append(mesh)
    return out


# -- the measurements --------------------------------------------------------------------------


def quake3_maps() -> list[tuple[str, bytes]]:
    found = []
    for archive in sorted(CORPUS.glob('*.pk3')):
        with zipfile.ZipFile(archive) as pk3:
            for name in pk3.namelist():
                if name.endswith('.bsp'):
                    data = pk3.read(name)
                    if data[:4] == b'IBSP' and int.from_bytes(data[4:8], 'little') == 46:
                        found.append((f'{archive.name}:{name}', data))
    return found


def ours(data: bytes, level: int = 8) -> pv.MultiBlock:
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # the corpus's maps lack most of their textures
        return pq.load(io.BytesIO(data), patch_level=level, skin=None, hide=()).blocks(0)  # every face, as the reference


def with_bsp_tool(data: bytes, path: Path) -> int:
    import bsp_tool  # noqa: PLC0415 - benchmark-only dependency

    bsp = bsp_tool.load_bsp(str(path))
    return len(list(bsp.VERTICES)) + len(list(bsp.INDICES)) + len(list(bsp.FACES))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rounds', type=int, default=7)
    args = parser.parse_args()
    maps = quake3_maps()
    if not maps:
        print(f'no Quake III maps under {CORPUS}', file=sys.stderr)
        return 1
    for level, title in ((8, 'patch level 8'), (1, 'patches at level 1')):
        ratios = []
        for name, data in maps:
            assert sum(b.n_cells for b in ours(data, level)) == sum(b.n_cells for b in reference(data, level)), name
            mine = median_time(lambda data=data, level=level: ours(data, level), args.rounds)
            theirs = median_time(lambda data=data, level=level: reference(data, level), args.rounds)
            ratios.append(mine / theirs)
            print(f'{title}: {name}: {mine * 1e3:.1f} ms against {theirs * 1e3:.1f} ms: {mine / theirs:.2f} x')
        print(f'{title}: geometric mean {np.exp(np.mean(np.log(ratios))):.2f} x, worst {max(ratios):.2f} x')
    try:
        import bsp_tool  # noqa: F401, PLC0415
    except ImportError:
        print('bsp_tool: not installed')
    else:
        import tempfile  # noqa: PLC0415

        for name, data in maps:
            with tempfile.TemporaryDirectory() as folder:
                path = Path(folder) / 'x.bsp'
                path.write_bytes(data)
                theirs = median_time(lambda data=data, path=path: with_bsp_tool(data, path), max(1, args.rounds // 3))
            mine = median_time(lambda data=data: ours(data), args.rounds)
            print(f'bsp_tool records only: {name}: {theirs * 1e3:.1f} ms; ours whole: {mine * 1e3:.1f} ms: bsp_tool {theirs / mine:.1f} x ours')
    name, data = max(maps, key=lambda m: len(m[1]))
    ours(data)
    tracemalloc.start()
    blocks = ours(data)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    returned = sum(array.nbytes for b in blocks for array in (b.points, b.faces, *b.point_data.values()))
    print(f'peak memory of {name}: {peak / 1e6:.1f} MB for {returned / 1e6:.1f} MB returned: {peak / returned:.2f} x')
    return 0


if __name__ == '__main__':
    sys.exit(main())
