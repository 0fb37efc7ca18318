"""Independent decoders of IQM and MD5, for the tests: plain Python over the bytes and the text.

Written from ``iqm-format.txt`` and ``md5-format.txt`` (the IQM demo's
``animateiqm`` and Doom 3's ``idMD5Mesh``), vertex by vertex with ``struct`` and
``str.split``: slow and obvious, and sharing no code with the package.
"""

from __future__ import annotations

import math
import re
import struct


def quat_matrix(x, y, z, w):
    return [
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ]


def trs(t, q, s):
    """A 3 x 4 matrix T R S (quaternion normalised)."""
    n = math.sqrt(sum(c * c for c in q)) or 1.0
    r = quat_matrix(*(c / n for c in q))
    return [[r[i][0] * s[0], r[i][1] * s[1], r[i][2] * s[2], t[i]] for i in range(3)]


def mul(a, b):
    """3 x 4 times 3 x 4 (both with an implied last row 0 0 0 1)."""
    return [[sum(a[i][k] * b[k][j] for k in range(3)) + (a[i][3] if j == 3 else 0.0) for j in range(4)] for i in range(3)]


def invert(m):
    """Inverse of an affine 3 x 4."""
    a, b, c = m[0][:3], m[1][:3], m[2][:3]
    det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0])
    inv = [
        [(b[1] * c[2] - b[2] * c[1]) / det, (a[2] * c[1] - a[1] * c[2]) / det, (a[1] * b[2] - a[2] * b[1]) / det],
        [(b[2] * c[0] - b[0] * c[2]) / det, (a[0] * c[2] - a[2] * c[0]) / det, (a[2] * b[0] - a[0] * b[2]) / det],
        [(b[0] * c[1] - b[1] * c[0]) / det, (a[1] * c[0] - a[0] * c[1]) / det, (a[0] * b[1] - a[1] * b[0]) / det],
    ]
    t = [m[0][3], m[1][3], m[2][3]]
    return [[inv[i][0], inv[i][1], inv[i][2], -sum(inv[i][k] * t[k] for k in range(3))] for i in range(3)]


def apply(m, p, w=1.0):
    return [m[i][0] * p[0] + m[i][1] * p[1] + m[i][2] * p[2] + m[i][3] * w for i in range(3)]


IDENTITY = [[1.0, 0, 0, 0], [0, 1.0, 0, 0], [0, 0, 1.0, 0]]


# -- IQM ---------------------------------------------------------------------------------------


def iqm_header(data):
    values = struct.unpack_from('<27I', data, 16)
    names = (
        'version filesize flags num_text ofs_text num_meshes ofs_meshes num_vertexarrays num_vertexes ofs_vertexarrays '
        'num_triangles ofs_triangles ofs_adjacency num_joints ofs_joints num_poses ofs_poses num_anims ofs_anims '
        'num_frames num_framechannels ofs_frames ofs_bounds num_comment ofs_comment num_extensions ofs_extensions'
    ).split()
    return dict(zip(names, values))


def iqm_frames(data):
    """Each frame's pose TRS per pose, decoded channel by channel."""
    h = iqm_header(data)
    poses = [struct.unpack_from('<iI10f10f', data, h['ofs_poses'] + 88 * k) for k in range(h['num_poses'])]
    out = []
    at = h['ofs_frames']
    for _ in range(h['num_frames']):
        frame = []
        for pose in poses:
            mask, offset, scale = pose[1], pose[2:12], pose[12:22]
            values = []
            for c in range(10):
                v = offset[c]
                if mask & (1 << c):
                    v += struct.unpack_from('<H', data, at)[0] * scale[c]
                    at += 2
                values.append(v)
            frame.append(values)
        out.append(frame)
    return out


def iqm_positions(mesh_data, frame_list):
    """Every vertex of the mesh file at each frame (``frame_list``: poses per joint, TRS lists), demo style."""
    h = iqm_header(mesh_data)
    joints = [struct.unpack_from('<Ii3f4f3f', mesh_data, h['ofs_joints'] + 48 * k) for k in range(h['num_joints'])]
    parents = [j[1] for j in joints]
    base = []
    for j in joints:
        local = trs(j[2:5], j[5:9], j[9:12])
        base.append(mul(base[j[1]], local) if j[1] >= 0 else local)
    inverse = [invert(b) for b in base]
    arrays = {}
    for k in range(h['num_vertexarrays']):
        kind, _, fmt, size, offset = struct.unpack_from('<5I', mesh_data, h['ofs_vertexarrays'] + 20 * k)
        code = {1: 'B', 7: 'f'}[fmt]
        width = {1: 1, 7: 4}[fmt]
        arrays[kind] = [struct.unpack_from(f'<{size}{code}', mesh_data, offset + v * size * width) for v in range(h['num_vertexes'])]
    out = []
    for frame in frame_list:
        skin = []
        for j, pose in enumerate(frame):
            m = trs(pose[0:3], pose[3:7], pose[7:10])
            f = mul(m, inverse[j]) if parents[j] < 0 else mul(mul(base[parents[j]], m), inverse[j])
            skin.append(mul(skin[parents[j]], f) if parents[j] >= 0 else f)
        verts = []
        for v in range(h['num_vertexes']):
            p = arrays[0][v]
            idx, wts = arrays[4][v], arrays[5][v]
            if not any(wts):
                idx, wts = (0, 0, 0, 0), (255, 0, 0, 0)  # Cube 2: no weight, joint 0
            acc = [0.0, 0.0, 0.0]
            for i, w in zip(idx, wts):
                if w:
                    q = apply(skin[i], p)
                    acc = [a + w / 255 * b for a, b in zip(acc, q)]
            verts.append(acc)
        out.append(verts)
    return out


# -- MD5 ---------------------------------------------------------------------------------------


def md5_tokens(text):
    text = re.sub(r'//[^\n]*', ' ', text)
    return re.findall(r'"[^"]*"|[(){}]|[^\s(){}"]+', text)


def md5_w(x, y, z):
    """Doom 3: w = sqrt(|1 - x²-y²-z²|), applied transposed: the usual formula with -w."""
    return -math.sqrt(abs(1.0 - (x * x + y * y + z * z)))


def md5_mesh(text):
    t = md5_tokens(text)
    i = t.index('joints') + 2
    num_joints = int(t[t.index('numJoints') + 1])
    joints = []
    for _ in range(num_joints):
        name, parent = t[i].strip('"'), int(t[i + 1])
        pos = [float(v) for v in t[i + 3 : i + 6]]
        q = [float(v) for v in t[i + 8 : i + 11]]
        joints.append((name, parent, pos, q))
        i += 12
    meshes = []
    while 'mesh' in t[i:]:
        i = t.index('mesh', i) + 2
        verts, tris, weights = [], [], []
        while t[i] != '}':
            if t[i] == 'vert':
                verts.append((float(t[i + 3]), float(t[i + 4]), int(t[i + 6]), int(t[i + 7])))
                i += 8
            elif t[i] == 'tri':
                tris.append((int(t[i + 2]), int(t[i + 3]), int(t[i + 4])))
                i += 5
            elif t[i] == 'weight':
                weights.append((int(t[i + 2]), float(t[i + 3]), [float(v) for v in t[i + 5 : i + 8]]))
                i += 9
            else:
                i += 1 if t[i] in ('numverts', 'numtris', 'numweights', 'shader', 'name') else 1
        meshes.append((verts, tris, weights))
    return joints, meshes


def md5_anim(text):
    t = md5_tokens(text)
    num_frames, num_joints = int(t[t.index('numFrames') + 1]), int(t[t.index('numJoints') + 1])
    i = t.index('hierarchy') + 2
    hierarchy = []
    for _ in range(num_joints):
        hierarchy.append((t[i].strip('"'), int(t[i + 1]), int(t[i + 2]), int(t[i + 3])))
        i += 4
    i = t.index('baseframe') + 2
    base = []
    for _ in range(num_joints):
        base.append([float(v) for v in t[i + 1 : i + 4]] + [float(v) for v in t[i + 6 : i + 9]])
        i += 10
    frames = []
    for k in range(num_frames):
        i = t.index('frame', i) if k else t.index('frame', t.index('baseframe') + 2 + 10 * num_joints)
        j = i + 3
        numbers = []
        while t[j] != '}':
            numbers.append(float(t[j]))
            j += 1
        frames.append(numbers)
        i = j
    return hierarchy, base, frames


def md5_positions(mesh_text, anim_text=None):
    """Every mesh's vertices: at the bind pose, or at every frame of the anim, Doom 3's way."""
    joints, meshes = md5_mesh(mesh_text)
    if anim_text is None:
        poses = [[(j[2], quat_matrix(*j[3], md5_w(*j[3]))) for j in joints]]
    else:
        hierarchy, base, frames = md5_anim(anim_text)
        poses = []
        for numbers in frames:
            pose = []
            for j, (_name, parent, flags, start) in enumerate(hierarchy):
                values = list(base[j])
                n = 0
                for bit in range(6):
                    if flags & (1 << bit):
                        values[bit] = numbers[start + n]
                        n += 1
                r = quat_matrix(*values[3:6], md5_w(*values[3:6]))
                local = [r[0] + [values[0]], r[1] + [values[1]], r[2] + [values[2]]]
                world = mul(pose_matrix(pose[parent]), local) if parent >= 0 else local
                pose.append((([world[0][3], world[1][3], world[2][3]]), [row[:3] for row in world]))
            poses.append(pose)
    out = []
    for pose in poses:
        frame = []
        for verts, _, weights in meshes:
            for _s, _t, first, count in verts:
                acc = [0.0, 0.0, 0.0]
                for joint, bias, p in weights[first : first + count]:
                    origin, r = pose[joint]
                    q = [sum(r[i][k] * p[k] for k in range(3)) + origin[i] for i in range(3)]
                    acc = [a + bias * b for a, b in zip(acc, q)]
                frame.append(acc)
        out.append(frame)
    return out


def pose_matrix(pose):
    origin, r = pose
    return [r[0] + [origin[0]], r[1] + [origin[1]], r[2] + [origin[2]]]


def vertex_normals(points, triangles):
    """Area-weighted unit vertex normals of clockwise triangles, triangle by triangle."""
    sums = [[0.0, 0.0, 0.0] for _ in points]
    for a, b, c in triangles:
        pa, pb, pc = points[a], points[b], points[c]
        u = [pc[k] - pa[k] for k in range(3)]
        v = [pb[k] - pa[k] for k in range(3)]
        n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
        for corner in (a, b, c):
            sums[corner] = [s + x for s, x in zip(sums[corner], n)]
    return [[x / (math.sqrt(sum(y * y for y in s)) or 1.0) for x in s] for s in sums]
