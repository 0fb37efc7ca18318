"""Test-side byte builders: synthetic MD2 and MDL files from numpy arrays.

Written from the specs, independently of the package's parsers, so that the
tests check the parsers against the layout and not against themselves.
"""

from __future__ import annotations

import struct

import numpy as np

MD2_FIELDS = (
    'ident version skinwidth skinheight framesize num_skins num_xyz num_st num_tris '
    'num_glcmds num_frames ofs_skins ofs_st ofs_tris ofs_frames ofs_glcmds ofs_end'
).split()


def glcmd_words(commands) -> bytes:
    """``commands``: list of ``(kind, [(s, t, index), ...])``; returns the words with the zero end."""
    out = b''
    for kind, verts in commands:
        n = len(verts)
        out += struct.pack('<i', n if kind == 'strip' else -n)
        for s, t, index in verts:
            out += struct.pack('<ffi', s, t, index)
    return out + struct.pack('<i', 0)


def build_md2(
    verts,
    tris_xyz,
    tris_st,
    st,
    *,
    scale=None,
    translate=None,
    names=None,
    skins=(),
    skinwidth=64,
    skinheight=64,
    glcmds=None,
    order=('skins', 'st', 'tris', 'frames', 'glcmds'),
    header=None,
    frame_padding=0,
    trailing=b'',
) -> bytes:
    """Build an MD2.

    ``verts`` is ``uint8`` ``(frames, vertices, 4)``; ``st`` is ``(n, 2)`` pixels;
    ``tris_xyz``/``tris_st`` are ``(triangles, 3)``.  ``order`` lays the sections
    out in any order; ``header`` overrides header fields after layout.
    """
    verts = np.asarray(verts, np.uint8)
    num_frames, num_xyz = verts.shape[:2]
    scale = np.ones((num_frames, 3)) if scale is None else np.broadcast_to(scale, (num_frames, 3))
    translate = np.zeros((num_frames, 3)) if translate is None else np.broadcast_to(translate, (num_frames, 3))
    names = names or [f'frame{i:02d}' for i in range(num_frames)]
    framesize = 40 + 4 * num_xyz + frame_padding

    blobs = {
        'skins': b''.join(name.encode().ljust(64, b'\0') for name in skins),
        'st': np.asarray(st, '<i2').tobytes(),
        'tris': np.concatenate([np.asarray(tris_xyz, '<i2'), np.asarray(tris_st, '<i2')], axis=1).tobytes(),
        'frames': b''.join(
            struct.pack('<3f3f', *scale[f], *translate[f]) + names[f].encode().ljust(16, b'\0') + verts[f].tobytes() + b'\0' * frame_padding
            for f in range(num_frames)
        ),
        'glcmds': glcmd_words(glcmds) if glcmds is not None else b'',
    }
    offsets, position, body = {}, 68, b''
    for section in order:
        offsets[section] = position
        body += blobs[section]
        position += len(blobs[section])
    h = {
        'ident': b'IDP2',
        'version': 8,
        'skinwidth': skinwidth,
        'skinheight': skinheight,
        'framesize': framesize,
        'num_skins': len(skins),
        'num_xyz': num_xyz,
        'num_st': len(st),
        'num_tris': len(tris_xyz),
        'num_glcmds': len(blobs['glcmds']) // 4,
        'num_frames': num_frames,
        'ofs_skins': offsets['skins'],
        'ofs_st': offsets['st'],
        'ofs_tris': offsets['tris'],
        'ofs_frames': offsets['frames'],
        'ofs_glcmds': offsets['glcmds'] if glcmds is not None else 0,
        'ofs_end': position,
    }
    h.update(header or {})
    head = h['ident'] + struct.pack('<16i', *(h[f] for f in MD2_FIELDS[1:]))
    return head + body + trailing


def tetra_md2(**kwargs) -> bytes:
    """A tetrahedron with one seam (vertex 0 takes two texture coordinates), 3 frames."""
    base = np.array([[0, 0, 0, 0], [255, 0, 0, 1], [0, 255, 0, 2], [0, 0, 255, 5]], np.uint8)
    frames = np.stack([base, base, base])
    frames[1, :, :3] //= 2
    frames[2, 3, 2] = 128
    defaults = dict(
        verts=frames,
        tris_xyz=[[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]],
        tris_st=[[0, 1, 2], [0, 3, 1], [4, 2, 3], [1, 3, 2]],
        st=[[0, 0], [32, 0], [0, 32], [32, 32], [63, 63]],
        scale=[0.5, 0.25, 1.0],
        translate=[-8.0, 4.0, 2.0],
        names=['stand01', 'stand02', 'run1'],
        skins=['models/test/skin.pcx'],
    )
    defaults.update(kwargs)
    return build_md2(**defaults)


def build_mdl(
    stverts,
    triangles,
    frames,
    *,
    skins=None,
    skinwidth=8,
    skinheight=8,
    scale=(1.0, 1.0, 1.0),
    scale_origin=(0.0, 0.0, 0.0),
    boundingradius=10.0,
    eyeposition=(0.0, 0.0, 24.0),
    synctype=0,
    flags=0,
    size=5.0,
    header=None,
    trailing=b'',
) -> bytes:
    """Build an MDL.

    ``stverts``: ``(numverts, 3)`` of ``onseam, s, t``; ``triangles``: ``(numtris, 4)`` of
    ``facesfront, v0, v1, v2``; ``frames``: list of ``('single', name, verts)`` or
    ``('group', intervals, [(name, verts), ...])`` with ``verts`` ``uint8`` ``(numverts, 4)``;
    ``skins``: list of ``uint8`` pictures (single) or ``(times, pictures)`` (group).
    """
    stverts = np.asarray(stverts, '<i4')
    triangles = np.asarray(triangles, '<i4')
    if skins is None:
        skins = [np.zeros((skinheight, skinwidth), np.uint8)]
    h = dict(
        numskins=len(skins),
        skinwidth=skinwidth,
        skinheight=skinheight,
        numverts=len(stverts),
        numtris=len(triangles),
        numframes=len(frames),
        synctype=synctype,
        flags=flags,
        ident=b'IDPO',
        version=6,
    )
    h.update(header or {})
    out = h['ident'] + struct.pack('<i', h['version'])
    out += struct.pack('<3f3ff3f', *scale, *scale_origin, boundingradius, *eyeposition)
    out += struct.pack(
        '<8i',
        h['numskins'],
        h['skinwidth'],
        h['skinheight'],
        h['numverts'],
        h['numtris'],
        h['numframes'],
        h['synctype'],
        h['flags'],
    )
    out += struct.pack('<f', size)
    for skin in skins:
        if isinstance(skin, tuple):
            times, pictures = skin
            out += struct.pack('<ii', 1, len(times)) + np.asarray(times, '<f4').tobytes()
            out += np.asarray(pictures, np.uint8).tobytes()
        else:
            out += struct.pack('<i', 0) + np.asarray(skin, np.uint8).tobytes()
    out += stverts.tobytes() + triangles.tobytes()

    def simple(name, verts):
        verts = np.asarray(verts, np.uint8)
        return bytes([0, 0, 0, 0, 255, 255, 255, 0]) + name.encode().ljust(16, b'\0') + verts.tobytes()

    for entry in frames:
        if entry[0] == 'single':
            out += struct.pack('<i', 0) + simple(entry[1], entry[2])
        else:
            _, intervals, members = entry
            out += struct.pack('<ii', 1, len(members)) + bytes(8) + np.asarray(intervals, '<f4').tobytes()
            out += b''.join(simple(name, verts) for name, verts in members)
    return out + trailing


def torch_mdl(**kwargs) -> bytes:
    """The MDL spec's worked example: an 8 x 8 skin, 4 vertices, one looping group of 2 frames."""
    verts = np.array([[0, 0, 0, 5], [10, 0, 0, 5], [0, 10, 0, 5], [0, 0, 10, 5]], np.uint8)
    verts2 = verts.copy()
    verts2[3, 2] = 20
    defaults = dict(
        stverts=[[0, 0, 0], [0x20, 4, 0], [0, 0, 4], [0, 2, 2]],
        triangles=[[1, 0, 1, 2], [0, 0, 3, 1], [1, 0, 2, 3], [0, 1, 3, 2]],
        frames=[('group', [0.1, 0.2], [('torch1', verts), ('torch2', verts2)])],
        synctype=1,
    )
    defaults.update(kwargs)
    return build_mdl(**defaults)


def build_md3(surfaces, *, frames=1, tags=(), frame_names=None, name='models/test/model.md3', version=15, trailing=b'', gap=b''):
    """Build an MD3 from the spec (``md3-format.txt``), independently of the package's parser.

    ``surfaces``: list of dicts with ``name``, ``shaders`` (names), ``triangles`` ``(T, 3)``,
    ``st`` ``(V, 2)`` floats, ``xyz`` ``(frames, V, 3)`` shorts and ``normal`` ``(frames, V)``
    ushorts (``lat << 8 | lng``).  ``tags``: list of ``(name, origins (frames, 3), axes (frames, 3, 3))``.
    ``gap``: bytes laid between the tags and the first surface (kept by a byte-for-byte writer).
    """
    names = frame_names or [f'frame{k}' for k in range(frames)]
    frame_bytes = b''.join(struct.pack('<3f3f3ff16s', *([0.0] * 10), n.encode()) for n in names)
    tag_bytes = b''
    for k in range(frames):
        for tag_name, origins, axes in tags:
            tag_bytes += struct.pack('<64s3f9f', tag_name.encode(), *np.asarray(origins[k], float), *np.asarray(axes[k], float).ravel())
    surface_bytes = b''
    for s in surfaces:
        tris = np.asarray(s['triangles'], '<i4').reshape(-1, 3)
        st = np.asarray(s['st'], '<f4').reshape(-1, 2)
        xyz = np.asarray(s['xyz'], '<i2').reshape(frames, -1, 3)
        normal = np.asarray(s['normal'], '<u2').reshape(frames, -1)
        shader_bytes = b''.join(struct.pack('<64si', n.encode(), 0) for n in s.get('shaders', []))
        xyzn = b''.join(struct.pack('<3hH', *xyz[f, v], normal[f, v]) for f in range(frames) for v in range(xyz.shape[1]))
        ofs_shaders = 108
        ofs_tris = ofs_shaders + len(shader_bytes)
        ofs_st = ofs_tris + tris.nbytes
        ofs_xyz = ofs_st + st.nbytes
        ofs_end = ofs_xyz + len(xyzn)
        head = struct.pack(
            '<4s64si' + 'i' * 9,
            b'IDP3',
            s['name'].encode(),
            s.get('flags', 0),
            frames,
            len(s.get('shaders', [])),
            xyz.shape[1],
            len(tris),
            ofs_tris,
            ofs_shaders,
            ofs_st,
            ofs_xyz,
            ofs_end,
        )
        surface_bytes += head + shader_bytes + tris.tobytes() + st.tobytes() + xyzn
    ofs_frames = 108
    ofs_tags = ofs_frames + len(frame_bytes)
    ofs_surfaces = ofs_tags + len(tag_bytes) + len(gap)
    ofs_end = ofs_surfaces + len(surface_bytes)
    header = struct.pack(
        '<4si64s' + 'i' * 9, b'IDP3', version, name.encode(), 0, frames, len(tags), len(surfaces), 0, ofs_frames, ofs_tags, ofs_surfaces, ofs_end
    )
    return header + frame_bytes + tag_bytes + gap + surface_bytes + trailing


def latlong(normals) -> np.ndarray:
    """The spec's normal encoding: ``lat = atan2(y, x)``, ``lng = acos(z)``, each in 256 steps of a turn."""
    n = np.asarray(normals, float)
    lat = np.round(np.arctan2(n[..., 1], n[..., 0]) * 256 / (2 * np.pi)).astype(int) & 255
    lng = np.round(np.arccos(np.clip(n[..., 2], -1, 1)) * 256 / (2 * np.pi)).astype(int) & 255
    return (lat << 8 | lng).astype(np.uint16)


def tetra_md3(frames=2, **kwargs) -> bytes:
    """A two-surface MD3: a tetrahedron (moving a unit up each frame) and a one-triangle flag, with a tag."""
    base = np.array([[0, 0, 0], [640, 0, 0], [0, 640, 0], [0, 0, 640]])
    xyz = np.stack([base + [0, 0, 64 * f] for f in range(frames)])
    normals = latlong(np.array([[-1, -1, -1], [1, 0, 0], [0, 1, 0], [0, 0, 1]]) / np.array([[3**0.5], [1], [1], [1]]))
    tetra = dict(
        name='body',
        shaders=['models/test/body.tga'],
        triangles=[[0, 1, 2], [0, 3, 1], [1, 3, 2], [2, 3, 0]],
        st=[[0, 0], [1, 0], [0, 1], [0.5, 0.5]],
        xyz=xyz,
        normal=np.tile(normals, (frames, 1)),
    )
    flag = dict(
        name='flag',
        shaders=['models/test/flag'],
        triangles=[[0, 1, 2]],
        st=[[0, 0], [1, 0], [0, 1]],
        xyz=np.tile([[0, 0, 1280], [320, 0, 1280], [0, 0, 1600]], (frames, 1, 1)),
        normal=np.zeros((frames, 3)),
    )
    origins = np.array([[0, 0, 10 + f] for f in range(frames)], float)
    axes = np.stack([np.eye(3)] * frames)
    defaults = dict(surfaces=[tetra, flag], frames=frames, tags=[('tag_head', origins, axes)])
    defaults.update(kwargs)
    return build_md3(**defaults)


# -- IQM (iqm-format.txt), packed with struct, not the package's dtypes -----------------------


def build_iqm(
    *,
    positions=(),
    texcoords=None,
    normals=None,
    blend_indexes=None,
    blend_weights=None,
    triangles=(),
    meshes=(),
    joints=(),
    poses=(),
    frames=None,
    anims=(),
    bounds=None,
    comment=b'',
    align=True,
    version=2,
    extra_arrays=(),
) -> bytes:
    """An IQM v2 file.

    ``meshes``: ``(name, material, first_vertex, num_vertexes, first_triangle, num_triangles)``;
    ``joints``: ``(name, parent, translate3, rotate4, scale3)``; ``poses``: ``(parent, mask, offset10, scale10)``;
    ``frames``: ``(num_frames, num_channels)`` ushorts; ``anims``: ``(name, first, count, rate, flags)``;
    ``align=False`` puts every section at an odd offset (real files break the 4-byte rule).
    ``extra_arrays``: ``(type, format, size, bytes)`` vertex arrays added as they are.
    """
    names = {}
    text = bytearray(b'\0')

    def name(s):
        if s not in names:
            names[s] = len(text)
            text.extend(s.encode() + b'\0')
        return names[s]

    for m in meshes:
        name(m[0]), name(m[1])
    for j in joints:
        name(j[0])
    for a in anims:
        name(a[0])
    num_vertexes = len(positions)
    arrays = []  # (type, format, size, data)
    if num_vertexes:
        arrays.append((0, 7, 3, np.asarray(positions, '<f4').tobytes()))
        if texcoords is not None:
            arrays.append((1, 7, 2, np.asarray(texcoords, '<f4').tobytes()))
        if normals is not None:
            arrays.append((2, 7, 3, np.asarray(normals, '<f4').tobytes()))
        if blend_indexes is not None:
            arrays.append((4, 1, 4, np.asarray(blend_indexes, np.uint8).tobytes()))
        if blend_weights is not None:
            arrays.append((5, 1, 4, np.asarray(blend_weights, np.uint8).tobytes()))
    arrays += list(extra_arrays)
    frame_data = np.asarray(frames if frames is not None else np.zeros((0, 0)), '<u2')
    num_frames = frame_data.shape[0] if frame_data.ndim == 2 else 0
    num_channels = frame_data.shape[1] if frame_data.ndim == 2 else 0
    out = bytearray(124)
    fields = {}

    def section(key, data):
        if not data:
            fields[key] = 0
            return
        pad = (-len(out)) % 4 if align else (1 if len(out) % 2 == 0 else 0)
        out.extend(bytes(pad))
        fields[key] = len(out)
        out.extend(data)

    section('ofs_text', bytes(text))
    section('ofs_meshes', b''.join(struct.pack('<6I', name(m[0]), name(m[1]), *m[2:]) for m in meshes))
    array_offsets = []
    for _kind, _fmt, _size, data in arrays:
        pad = (-len(out)) % 4
        out.extend(bytes(pad))
        array_offsets.append(len(out))
        out.extend(data)
    section(
        'ofs_vertexarrays', b''.join(struct.pack('<5I', kind, 0, fmt, size, offset) for (kind, fmt, size, _), offset in zip(arrays, array_offsets))
    )
    section('ofs_triangles', b''.join(struct.pack('<3I', *t) for t in triangles))
    section('ofs_joints', b''.join(struct.pack('<Ii3f4f3f', name(j[0]), j[1], *j[2], *j[3], *j[4]) for j in joints))
    section('ofs_poses', b''.join(struct.pack('<iI10f10f', p[0], p[1], *p[2], *p[3]) for p in poses))
    section('ofs_anims', b''.join(struct.pack('<3IfI', name(a[0]), a[1], a[2], a[3], a[4]) for a in anims))
    section('ofs_frames', frame_data.tobytes())
    section('ofs_bounds', b''.join(struct.pack('<8f', *b) for b in bounds) if bounds is not None else b'')
    section('ofs_comment', comment)
    header = struct.pack(
        '<16s27I',
        b'INTERQUAKEMODEL\0',
        version,
        len(out),
        0,
        len(text),
        fields['ofs_text'],
        len(meshes),
        fields['ofs_meshes'],
        len(arrays),
        num_vertexes,
        fields['ofs_vertexarrays'],
        len(triangles),
        fields['ofs_triangles'],
        0,
        len(joints),
        fields['ofs_joints'],
        len(poses),
        fields['ofs_poses'],
        len(anims),
        fields['ofs_anims'],
        num_frames,
        num_channels,
        fields['ofs_frames'],
        fields['ofs_bounds'],
        len(comment),
        fields['ofs_comment'],
        0,
        0,
    )
    out[:124] = header
    return bytes(out)


def quat_about_z(angle: float) -> list[float]:
    return [0.0, 0.0, float(np.sin(angle / 2)), float(np.cos(angle / 2))]


def two_joint_iqm(frames: int = 3, align: bool = True, zero_weight_vertex: bool = False, anims=None) -> bytes:
    """A bar of 8 vertices on two joints (the second a child of the first, 4 units up x), with an animation
    turning the child about z by 30 degrees a frame; channels quantised as iqm.cpp does (offset + value * scale)."""
    positions = np.array([[x, y, 0] for x in (0, 2, 4, 6) for y in (-1, 1)], np.float32)
    normals = np.tile([0, 0, 1], (8, 1)).astype(np.float32)
    texcoords = np.array([[x / 6, (y + 1) / 2] for x in (0, 2, 4, 6) for y in (-1, 1)], np.float32)
    blend_indexes = np.array([[0, 0, 0, 0]] * 4 + [[0, 1, 0, 0]] * 2 + [[1, 0, 0, 0]] * 2, np.uint8)
    blend_weights = np.array([[255, 0, 0, 0]] * 4 + [[128, 127, 0, 0]] * 2 + [[255, 0, 0, 0]] * 2, np.uint8)
    if zero_weight_vertex:
        blend_weights[7] = 0
        blend_indexes[7] = [1, 1, 1, 1]
    triangles = [(0, 1, 2), (1, 3, 2), (2, 3, 4), (3, 5, 4), (4, 5, 6), (5, 7, 6)]  # clockwise seen from +z, as real files wind
    joints = [('root', -1, (0, 0, 0), (0, 0, 0, 1), (1, 1, 1)), ('child', 0, (4, 0, 0), (0, 0, 0, 1), (1, 1, 1))]
    # Pose 0 animates nothing; pose 1 animates rotate z and w (channels 5, 6) and translate x (channel 0).
    angles = np.radians(30) * np.arange(frames)
    qz, qw = np.sin(angles / 2), np.cos(angles / 2)
    tx = 4 + 0.5 * np.arange(frames)
    channels = [(tx, 0), (qz, 5), (qw, 6)]
    offsets1 = [4, 0, 0, 0, 0, 0, 1, 1, 1, 1]
    scales1 = [0.0] * 10
    values = np.zeros((frames, 3), np.uint16)
    for k, (v, c) in enumerate(channels):
        lo, hi = float(v.min()), float(v.max())
        offsets1[c] = lo
        scales1[c] = (hi - lo) / 65535 if hi > lo else 0.0
        values[:, k] = np.round((v - lo) / scales1[c]) if scales1[c] else 0
    poses = [(-1, 0, [0, 0, 0, 0, 0, 0, 1, 1, 1, 1], [0.0] * 10), (0, 1 | 32 | 64, offsets1, scales1)]
    return build_iqm(
        positions=positions,
        texcoords=texcoords,
        normals=normals,
        blend_indexes=blend_indexes,
        blend_weights=blend_weights,
        triangles=triangles,
        meshes=[('bar', 'bar.png', 0, 8, 0, 6)],
        joints=joints,
        poses=poses,
        frames=values,
        anims=anims or [('bend', 0, frames, 10.0, 1)],
        align=align,
    )


# -- MD5 (md5-format.txt): text -----------------------------------------------------------


def md5_mesh_text(joints, meshes, *, version=True, commandline=True) -> str:
    """``joints``: ``(name, parent, pos3, quat_xyz3)``; ``meshes``: dicts of ``shader``, ``verts``
    ``(s, t, first, count)``, ``tris`` and ``weights`` ``(joint, bias, pos3)``."""
    lines = (['MD5Version 10'] if version else []) + (['commandline "built"'] if commandline else [])
    lines += [f'numJoints {len(joints)}', f'numMeshes {len(meshes)}', 'joints {']
    lines += [f'  "{n}" {p} ( {x[0]} {x[1]} {x[2]} ) ( {q[0]} {q[1]} {q[2]} ) // c' for n, p, x, q in joints]
    lines.append('}')
    for m in meshes:
        lines += ['mesh {', f'  // meshes: {m.get("name", "m")}', f'  shader "{m["shader"]}"', f'  numverts {len(m["verts"])}']
        lines += [f'  vert {k} ( {s} {t} ) {f} {c}' for k, (s, t, f, c) in enumerate(m['verts'])]
        lines += [f'  numtris {len(m["tris"])}'] + [f'  tri {k} {a} {b} {c}' for k, (a, b, c) in enumerate(m['tris'])]
        lines += [f'  numweights {len(m["weights"])}']
        lines += [f'  weight {k} {j} {b} ( {p[0]} {p[1]} {p[2]} )' for k, (j, b, p) in enumerate(m['weights'])]
        lines.append('}')
    return '\n'.join(lines) + '\n'


def md5_anim_text(hierarchy, baseframe, frames, *, rate=24, bounds=None) -> str:
    """``hierarchy``: ``(name, parent, flags, start)``; ``baseframe``: ``(pos3, quat_xyz3)``; ``frames``: lists of numbers."""
    components = len(frames[0]) if frames else 0
    lines = [
        'MD5Version 10',
        'commandline ""',
        f'numFrames {len(frames)}',
        f'numJoints {len(hierarchy)}',
        f'frameRate {rate}',
        f'numAnimatedComponents {components}',
        'hierarchy {',
    ]
    lines += [f'  "{n}" {p} {f} {s}' for n, p, f, s in hierarchy] + ['}', 'bounds {']
    lines += ['  ( -1 -1 -1 ) ( 1 1 1 )' for _ in (bounds if bounds is not None else frames)] + ['}', 'baseframe {']
    lines += [f'  ( {t[0]} {t[1]} {t[2]} ) ( {q[0]} {q[1]} {q[2]} )' for t, q in baseframe] + ['}']
    for k, values in enumerate(frames):
        lines += [f'frame {k} {{', '  ' + ' '.join(str(v) for v in values), '}']
    return '\n'.join(lines) + '\n'


def two_joint_md5() -> tuple[str, str]:
    """A bar on two joints, as an md5mesh and an md5anim of 3 frames turning the child about z."""

    def q(angle):  # Doom 3 stores x y z of the quaternion whose w it rebuilds as -sqrt(...) in the usual formula
        return (0.0, 0.0, float(-np.sin(angle / 2)))

    joints = [('root', -1, (0, 0, 0), (0, 0, 0)), ('child', 0, (4, 0, 0), (0, 0, 0))]
    verts, weights = [], []
    for x in (0, 2, 4, 6):
        for y in (-1, 1):
            k = len(verts)
            if x < 4:
                weights.append((0, 1.0, (x, y, 0)))
                verts.append((x / 6, (y + 1) / 2, len(weights) - 1, 1))
            elif x == 4:
                weights.append((0, 0.5, (x, y, 0)))
                weights.append((1, 0.5, (0, y, 0)))
                verts.append((x / 6, (y + 1) / 2, len(weights) - 2, 2))
            else:
                weights.append((1, 1.0, (x - 4, y, 0)))
                verts.append((x / 6, (y + 1) / 2, len(weights) - 1, 1))
            del k
    tris = [(0, 1, 2), (1, 3, 2), (2, 3, 4), (3, 5, 4), (4, 5, 6), (5, 7, 6)]  # clockwise seen from +z, as real files wind
    mesh = md5_mesh_text(joints, [{'shader': 'bar.png', 'name': 'bar', 'verts': verts, 'tris': tris, 'weights': weights}])
    hierarchy = [('root', -1, 0, 0), ('child', 0, 63, 0)]
    frames = [[4 + 0.5 * k, 0, 0, *q(np.radians(30) * k)] for k in range(3)]
    anim = md5_anim_text(hierarchy, [((0, 0, 0), (0, 0, 0)), ((4, 0, 0), (0, 0, 0))], frames)
    return mesh, anim
