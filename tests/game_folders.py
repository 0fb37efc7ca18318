"""Game folders the tests share: Red Eclipse players and weapons (Cube 2 configs), an MD5 pair, a page's info."""

from __future__ import annotations

import io
import json
from pathlib import Path
import zipfile

from builders import build_md3
from builders import latlong
from builders import tetra_md2
from builders import tetra_md3
from builders import torch_mdl
from builders import two_joint_iqm
from builders import two_joint_md5
from level_builders import build_q3
from level_builders import q3_surface
from level_builders import square
import numpy as np
from PIL import Image
import pygltflib

from pyvista_quake.examples import synthetic_player
from pyvista_quake.formats import iqm

PLAYER_CFG = """iqmdir "actors/player"
iqmanim "idle" "idle.iqm" 10
if (|| [strcmp (mdlname) "actors/player/female/headless"] [strcmp (mdlname) "actors/player/male/headless"]) [
    iqmskin * "<dds>headless.png" "<dds>mask.png" 0.25 0.0 1 0
] [
    iqmskin * "<dds>diffuse.png" "<dds>mask.png" 0.25 0.0 1 0
]
"""


def red_eclipse_players(tmp_path) -> Path:
    """Red Eclipse's layout: a shared player.cfg, exec'd by each player's iqm.cfg, picks the skin by mdlname."""
    data = tmp_path / 'data'
    shared = data / 'actors' / 'player'
    for folder in (shared / 'male', shared / 'male' / 'headless'):
        folder.mkdir(parents=True)
        (folder / 'mesh.iqm').write_bytes(two_joint_iqm())
        (folder / 'iqm.cfg').write_text('iqmload "mesh.iqm" player\nexec "actors/player/player.cfg"\n')
    (shared / 'idle.iqm').write_bytes(two_joint_iqm())
    (shared / 'player.cfg').write_text(PLAYER_CFG)
    Image.new('RGB', (4, 4), (200, 30, 30)).save(shared / 'diffuse.png')
    Image.new('RGB', (4, 4), (30, 200, 30)).save(shared / 'headless.png')
    return shared


def red_eclipse_weapon(tmp_path) -> Path:
    """Red Eclipse's weapon layout: one mesh, and configs in vwep/, hwep/ and item/ that load ../grenade.md5mesh."""
    data = tmp_path / 'data'
    weapon = data / 'weapons' / 'grenade'
    weapon.mkdir(parents=True)
    mesh, anim = two_joint_md5()
    (weapon / 'grenade.md5mesh').write_text(mesh)
    (weapon / 'grenade-idle.md5anim').write_text(anim)
    Image.new('RGB', (4, 4), (200, 30, 30)).save(weapon / 'diffuse.png')
    for kind in ('vwep', 'hwep', 'item'):
        (weapon / kind).mkdir()
        (weapon / kind / 'md5.cfg').write_text(
            'md5load ../grenade.md5mesh\nmd5skin * "<dds>../diffuse.png"\nmd5anim "grenade" ../grenade-idle.md5anim 1\n'
        )
    return data


def md5_pair(folder: Path, mesh_name: str = 'Bob', anim_name: str = 'Bob') -> Path:
    """An MD5 mesh and (unless ``anim_name`` is empty) an animation of its skeleton in ``folder``."""
    mesh, anim = two_joint_md5()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f'{mesh_name}.md5mesh').write_text(mesh)
    if anim_name:
        (folder / f'{anim_name}.md5anim').write_text(anim)
    return folder / f'{mesh_name}.md5mesh'


def page_info(page: str) -> dict:
    """The info a viewer page starts with."""
    call = page[page.index('PyvistaQuakeViewer.start(') :]
    return json.loads(call[call.index('], ') + 3 : call.rindex(');')])


def write_pk3(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, 'w') as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def part(name: str, frames: int, tags=(), offset=0, rise: int = 1) -> bytes:
    """One triangle (vertex 1 at (1, 0, 0)), ``rise`` units up a frame, upright (facing +x) unless it rises."""
    corners = [[0, 0, 0], [64, 0, 0], [0, 64, 0]] if rise else [[0, 0, 0], [0, -640, 0], [0, 0, 640]]
    xyz = np.tile(corners, (frames, 1, 1)) + np.arange(frames)[:, None, None] * [0, 0, 64 * rise]
    surface = dict(
        name=name,
        shaders=[f'models/players/test/{name}.tga'],
        triangles=[[0, 1, 2]],
        st=np.zeros((3, 2)),
        xyz=xyz + offset,
        normal=np.tile(latlong(np.array([[1.0, 0, 0]] * 3)), (frames, 1)),
    )
    return build_md3([surface], frames=frames, tags=list(tags))


def write_player(folder: Path, frames: int = 260, rise: int = 1) -> Path:
    folder.mkdir(parents=True)
    torso_origins = np.array([[0, 0, 10 + k * rise] for k in range(frames)], float)
    torso_axes = np.stack([axes_about_z(k) for k in range(frames)])
    (folder / 'lower.md3').write_bytes(part('l_legs', frames, [('tag_torso', torso_origins, torso_axes)], rise=rise))
    head_origins = np.array([[1, 0, 5]] * frames, float)
    weapon_origins = np.array([[0, -3, 2]] * frames, float)
    (folder / 'upper.md3').write_bytes(
        part(
            'u_torso',
            frames,
            [('tag_head', head_origins, np.stack([axes_about_z(90)] * frames)), ('tag_weapon', weapon_origins, np.stack([np.eye(3)] * frames))],
            rise=rise,
        )
    )
    (folder / 'head.md3').write_bytes(part('h_head', 1, rise=rise))
    (folder / 'animation.cfg').write_text(cfg())
    return folder


def static_bar() -> dict:
    """The two-joint bar's mesh without animation."""
    record = iqm.parse(two_joint_iqm())
    a = record.arrays
    return dict(
        positions=a[0],
        texcoords=a[1],
        normals=a[2],
        blend_indexes=a[4],
        blend_weights=a[5],
        triangles=[tuple(t) for t in record.triangles['vertex'].tolist()],
        meshes=[('bar', 'bar.png', 0, 8, 0, 6)],
        joints=[('root', -1, (0, 0, 0), (0, 0, 0, 1), (1, 1, 1)), ('child', 0, (4, 0, 0), (0, 0, 0, 1), (1, 1, 1))],
    )


def tiny_png() -> bytes:

    from PIL import Image

    buffer = io.BytesIO()
    Image.new('RGB', (4, 4), (200, 30, 30)).save(buffer, 'PNG')
    return buffer.getvalue()


def accessor_data(gltf: pygltflib.GLTF2, index: int) -> np.ndarray:
    accessor = gltf.accessors[index]
    view = gltf.bufferViews[accessor.bufferView]
    blob = gltf.binary_blob()
    dtype = np.dtype(
        {
            pygltflib.FLOAT: np.float32,
            pygltflib.UNSIGNED_SHORT: np.uint16,
            pygltflib.UNSIGNED_INT: np.uint32,
            pygltflib.SHORT: np.int16,
            pygltflib.BYTE: np.int8,
        }[accessor.componentType]
    )
    width = {'SCALAR': 1, 'VEC2': 2, 'VEC3': 3, 'VEC4': 4}[accessor.type]
    row = (view.byteStride or dtype.itemsize * width) // dtype.itemsize  # a padded VEC3 of shorts or bytes
    start = view.byteOffset + (accessor.byteOffset or 0)
    return np.frombuffer(blob, dtype, accessor.count * row, start).reshape(accessor.count, row)[:, :width]


def game(tmp_path) -> Path:
    root = tmp_path / 'baseq3'
    root.mkdir()
    player = synthetic_player(tmp_path / 'src')
    with zipfile.ZipFile(root / 'pak0.pk3', 'w') as archive:
        archive.writestr('models/a/tris.md2', tetra_md2())
        archive.writestr('progs/torch.mdl', torch_mdl())
        archive.writestr('models/b/model.md3', tetra_md3())
        archive.writestr('models/weapons2/v_hand.md3', build_md3([], frames=1, tags=[('tag_weapon', np.zeros((1, 3)), np.eye(3)[None])]))
        for path in player.iterdir():
            archive.write(path, f'models/players/x/{path.name}')
    (root / 'loose.md2').write_bytes(tetra_md2())
    return root


def axes_about_z(degrees: float) -> np.ndarray:
    a = np.radians(degrees)
    return np.array([[np.cos(a), np.sin(a), 0], [-np.sin(a), np.cos(a), 0], [0, 0, 1]])


def lit_square_level(game: Path, colours) -> Path:
    """A map of squares side by side, square k on lightmap page k filled with ``colours[k]``, shader k textured grey."""
    verts, indexes, surfaces, shaders = [], [], [], []
    for k in range(len(colours)):
        v, i = square(0.0, x0=80.0 * k, lightmap=(0.5, 0.5))
        indexes.extend(i)
        surfaces.append(q3_surface(k, 1, len(verts), 4, len(indexes) - 6, 6, lightmap=k))
        verts.extend(v)
        shaders.append((f'textures/test/grey{k}', 0, 1))
        (game / 'textures' / 'test').mkdir(parents=True, exist_ok=True)
        Image.new('RGB', (8, 8), (128, 128, 128)).save(game / 'textures' / 'test' / f'grey{k}.tga')
    pages = b''.join(np.full((128, 128, 3), colour, np.uint8).tobytes() for colour in colours)
    (game / 'maps').mkdir(parents=True, exist_ok=True)
    path = game / 'maps' / 'lit.bsp'
    path.write_bytes(build_q3([[('classname', 'worldspawn')]], shaders, [(0, len(surfaces))], verts, indexes, surfaces, lightmap_pages=pages))
    return path


LINES = [
    (0, 30, 0, 25),
    (29, 1, 0, 25),
    (30, 30, 0, 25),
    (59, 1, 0, 25),
    (60, 30, 0, 25),
    (89, 1, 0, 25),
    (90, 40, 0, 20),
    (130, 6, 0, 15),
    (136, 6, 0, 15),
    (142, 5, 0, 20),
    (147, 4, 0, 20),
    (151, 1, 0, 15),
    (152, 1, 0, 15),
    (153, 8, 8, 20),
    (161, 12, 12, 20),
    (173, 9, 9, 15),
    (182, 10, 10, 18),
    (185, 10, 10, 15),
    (202, 8, 0, 15),
    (211, 8, 0, 20),
    (219, 9, 0, 15),
    (228, -6, 0, 20),
    (234, 10, 10, 10),
    (244, 10, 10, 10),
    (254, 7, 7, 0),
]


def cfg(lines=LINES, head='sex f\nfootsteps boot\nheadoffset 1 2 3\nfixedtorso\n') -> str:
    return head + '/* a block\ncomment */\n' + ''.join(f'{a}\t{b}\t{c}\t{d}\t\t// line {k}\n' for k, (a, b, c, d) in enumerate(lines))
