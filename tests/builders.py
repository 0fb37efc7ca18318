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
            struct.pack('<3f3f', *scale[f], *translate[f])
            + names[f].encode().ljust(16, b'\0')
            + verts[f].tobytes()
            + b'\0' * frame_padding
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
        '<8i', h['numskins'], h['skinwidth'], h['skinheight'], h['numverts'], h['numtris'],
        h['numframes'], h['synctype'], h['flags'],
    )  # fmt: skip
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


def build_md3(surfaces, *, frames=1, tags=(), frame_names=None, name='models/test/model.md3', version=15, trailing=b'',
              gap=b''):  # fmt: skip
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
        head = struct.pack('<4s64si' + 'i' * 9, b'IDP3', s['name'].encode(), s.get('flags', 0), frames, len(s.get('shaders', [])),
                           xyz.shape[1], len(tris), ofs_tris, ofs_shaders, ofs_st, ofs_xyz, ofs_end)  # fmt: skip
        surface_bytes += head + shader_bytes + tris.tobytes() + st.tobytes() + xyzn
    ofs_frames = 108
    ofs_tags = ofs_frames + len(frame_bytes)
    ofs_surfaces = ofs_tags + len(tag_bytes) + len(gap)
    ofs_end = ofs_surfaces + len(surface_bytes)
    header = struct.pack('<4si64s' + 'i' * 9, b'IDP3', version, name.encode(), 0, frames, len(tags), len(surfaces), 0,
                         ofs_frames, ofs_tags, ofs_surfaces, ofs_end)  # fmt: skip
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
    normals = latlong(np.array([[-1, -1, -1], [1, 0, 0], [0, 1, 0], [0, 0, 1]]) / np.array([[3 ** 0.5], [1], [1], [1]]))
    tetra = dict(name='body', shaders=['models/test/body.tga'], triangles=[[0, 1, 2], [0, 3, 1], [1, 3, 2], [2, 3, 0]],
                 st=[[0, 0], [1, 0], [0, 1], [0.5, 0.5]], xyz=xyz, normal=np.tile(normals, (frames, 1)))  # fmt: skip
    flag = dict(name='flag', shaders=['models/test/flag'], triangles=[[0, 1, 2]], st=[[0, 0], [1, 0], [0, 1]],
                xyz=np.tile([[0, 0, 1280], [320, 0, 1280], [0, 0, 1600]], (frames, 1, 1)), normal=np.zeros((frames, 3)))  # fmt: skip
    origins = np.array([[0, 0, 10 + f] for f in range(frames)], float)
    axes = np.stack([np.eye(3)] * frames)
    defaults = dict(surfaces=[tetra, flag], frames=frames, tags=[('tag_head', origins, axes)])
    defaults.update(kwargs)
    return build_md3(**defaults)
