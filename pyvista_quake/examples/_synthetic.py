"""A synthetic model: small, animated and textured, made anywhere with no files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image
import pyvista as pv

from pyvista_quake.formats import bsp
from pyvista_quake.model.quake_model import QuakeModel


def synthetic_model(format: str = 'md2', frames: int = 8):
    """A textured, animated model made on the spot: a creature that breathes and turns its head.

    Parameters
    ----------
    format : str, default: 'md2'
        ``'md2'`` or ``'mdl'``.
    frames : int, default: 8
        Frames of its one animation, ``breathe``.

    Returns
    -------
    QuakeModel
        The model, not saved anywhere (``model.save(path)`` writes it).

    """
    body = pv.Sphere(radius=12, center=(0, 0, 20), theta_resolution=24, phi_resolution=16)
    head = pv.Sphere(radius=6, center=(10, 0, 34), theta_resolution=16, phi_resolution=12)
    base = (body + head).triangulate().clean()
    points = np.asarray(base.points)
    # Texture coordinates by angle around z and height: a band skin.
    angle = np.arctan2(points[:, 1], points[:, 0])
    base.active_texture_coordinates = np.column_stack([(angle + np.pi) / (2 * np.pi), (points[:, 2] - 8) / 34])
    poses = []
    for k in range(frames):
        phase = 2 * np.pi * k / frames
        pose = base.copy()
        moved = points.copy()
        breathing = 1 + 0.08 * np.sin(phase)
        moved[:, :2] *= np.where(points[:, 2:3] < 28, breathing, 1)
        nod = points[:, 2] >= 28
        moved[nod, 1] += 3 * np.sin(phase)
        pose.points = moved
        poses.append(pose)
    return QuakeModel.from_frames(poses, format, skin=_band_skin(), names=[f'breathe{k + 1}' for k in range(frames)])


def _band_skin(size: int = 64) -> np.ndarray:
    """Stripes and a checker: easy to see how a skin wraps."""
    rows = np.arange(size)[:, None]
    cols = np.arange(size)[None, :]
    image = np.zeros((size, size, 3), np.uint8)
    image[...] = (170, 120, 70)
    image[np.broadcast_to((rows // 8) % 2 == 0, (size, size))] = (120, 80, 40)
    image[((rows // 8 + cols // 8) % 2 == 0) & (rows < 16)] = (220, 200, 160)
    return image


#: The synthetic player's ``animation.cfg``: every animation of the fixed order, legs frames after the torso's.
_PLAYER_CFG_LINES = (
    [(0, 1, 0, 10)] * 6
    + [(0, 4, 0, 10)]
    + [(0, 1, 0, 10)] * 4
    + [(4, 1, 0, 10)] * 2  # BOTH_*, TORSO_*
    + [(5, 8, 8, 10)] * 3
    + [(13, 1, 0, 10)] * 6
    + [(5, 8, 8, 10)]
    + [(13, 1, 1, 10)] * 2
    + [(13, 1, 0, 10)]  # LEGS_*
)


def synthetic_player(folder: str | Path) -> Path:
    """Write a small Quake III player to ``folder``: ``lower``, ``upper`` and ``head.md3``, ``animation.cfg``.

    Boxes and a ball joined by ``tag_torso``, ``tag_head`` and ``tag_weapon``;
    the legs run (``LEGS_RUN``, frames 5-12 of the shared numbering) and the
    torso waves (``TORSO_GESTURE``).  Untextured.  Returns the folder.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    frames = 14  # of each part's file: torso frames 0-4, legs frames 0-8 after the shift

    def tag(origins, angles):
        axes = np.stack([_about_z(a) for a in angles])
        return np.asarray(origins, np.float32), axes.astype(np.float32)

    legs, swing = [], np.sin(np.linspace(0, 2 * np.pi, 8, endpoint=False))
    for k in range(frames):
        left = pv.Box((-3, 3, 1, 5, -24, 0)).triangulate()
        right = pv.Box((-3, 3, -5, -1, -24, 0)).triangulate()
        s = swing[k] if k < 8 else 0.0  # LEGS_RUN: frames 0-7 of lower.md3
        left.points[:, 0] += 8 * s * (left.points[:, 2] + 24) / 24 - 8 * s
        right.points[:, 0] -= 8 * s * (right.points[:, 2] + 24) / 24 - 8 * s
        legs.append(pv.MultiBlock({'l_legs': (left + right).triangulate()}))
    torso = []
    for k in range(frames):
        chest = pv.Box((-4, 4, -8, 8, 0, 16)).triangulate()
        arm = pv.Box((-2, 2, 8, 11, 2 + 6 * (k % 5), 14 + 6 * (k % 5))).triangulate()
        torso.append(pv.MultiBlock({'u_torso': (chest + arm).triangulate()}))
    head = pv.MultiBlock({'h_head': pv.Sphere(radius=5, center=(0, 0, 5), theta_resolution=16, phi_resolution=12)})
    QuakeModel.from_frames(legs, 'md3', tags={'tag_torso': tag([[0, 0, 0]] * frames, [0] * frames)}).save(folder / 'lower.md3')
    QuakeModel.from_frames(
        torso, 'md3', tags={'tag_head': tag([[0, 0, 16]] * frames, [0] * frames), 'tag_weapon': tag([[6, 10, 8]] * frames, [0] * frames)}
    ).save(folder / 'upper.md3')
    QuakeModel.from_frames(head, 'md3').save(folder / 'head.md3')
    lines = ''.join(f'{a} {b} {c} {d}\n' for a, b, c, d in _PLAYER_CFG_LINES)
    (folder / 'animation.cfg').write_text(f'// a synthetic player\nsex m\n{lines}')
    return folder


def _about_z(degrees: float) -> np.ndarray:
    angle = np.radians(degrees)
    return np.array([[np.cos(angle), np.sin(angle), 0], [-np.sin(angle), np.cos(angle), 0], [0, 0, 1]])


def synthetic_level(folder: str | Path) -> Path:
    """Write a small Quake III level to ``folder``: ``room.bsp`` and its two textures.

    A 512 x 512 room 192 high (a floor and four walls, each its own lightmap
    page lit by a light at the room's middle), four ``info_player_deathmatch``
    spawn points and that light.  Returns the map's path.
    """
    folder = Path(folder)
    (folder / 'textures' / 'synthetic').mkdir(parents=True, exist_ok=True)
    checker = ((np.indices((64, 64)) // 8).sum(axis=0) % 2).astype(np.uint8)
    for name, light, dark in (('floor', (190, 170, 140), (120, 100, 80)), ('wall', (150, 160, 175), (90, 95, 110))):
        image = np.where(checker[..., None] == 1, light, dark).astype(np.uint8)
        Image.fromarray(image).save(folder / 'textures' / 'synthetic' / f'{name}.png')
    size, height = 512.0, 192.0
    lamp = np.array([size / 2, size / 2, 150.0])
    # Each face: its corners counter-clockwise from the front, then stored clockwise as q3map2 writes them.
    faces = [
        ('floor', [(0, 0, 0), (size, 0, 0), (size, size, 0), (0, size, 0)], (0, 0, 1)),
        ('wall', [(0, 0, 0), (0, 0, height), (size, 0, height), (size, 0, 0)], (0, 1, 0)),
        ('wall', [(size, 0, 0), (size, 0, height), (size, size, height), (size, size, 0)], (-1, 0, 0)),
        ('wall', [(size, size, 0), (size, size, height), (0, size, height), (0, size, 0)], (0, -1, 0)),
        ('wall', [(0, size, 0), (0, size, height), (0, 0, height), (0, 0, 0)], (1, 0, 0)),
    ]
    verts = np.zeros(4 * len(faces), bsp.Q3_DRAWVERT)
    surfaces = np.zeros(len(faces), bsp.Q3_SURFACE)
    pages = np.zeros((len(faces), bsp.LIGHTMAP_SIZE, bsp.LIGHTMAP_SIZE, 3), np.uint8)
    corner_uv = np.array([(0, 0), (1, 0), (1, 1), (0, 1)], np.float32)
    texel = (np.arange(bsp.LIGHTMAP_SIZE) + 0.5) / bsp.LIGHTMAP_SIZE
    for k, (name, corners, normal) in enumerate(faces):
        c = np.asarray(corners, np.float64)
        rows = slice(4 * k, 4 * k + 4)
        verts['xyz'][rows] = c
        span = c[[1, 3]] - c[0]
        verts['st'][rows] = corner_uv * np.linalg.norm(span, axis=1) / 128.0  # a texture repeat every 128 units
        verts['lightmap'][rows] = corner_uv
        verts['normal'][rows] = normal
        verts['color'][rows] = 255
        # The light at each luxel: falling off with the square of the distance, and with the angle to the face.
        u, v = np.meshgrid(texel, texel)  # u along corner 0 -> 1, v along corner 0 -> 3
        where = c[0] + u[..., None] * span[0] + v[..., None] * span[1]
        towards = lamp - where
        distance = np.linalg.norm(towards, axis=-1)
        facing = np.clip((towards @ np.asarray(normal, np.float64)) / distance, 0, 1)
        light = np.clip(6 + 56 * facing * (160.0 / distance) ** 2, 0, 63)  # the engine brightens it 4 times
        pages[k] = (light[..., None] * [1.0, 0.9, 0.75]).astype(np.uint8)  # a warm light
        surfaces[k] = (
            ['floor', 'wall'].index(name),
            -1,
            bsp.MST_PLANAR,
            4 * k,
            4,
            6 * k,
            6,
            k,
            0,
            0,
            128,
            128,
            c[0],
            [span[0], span[1], normal],
            0,
            0,
        )
    indexes = np.tile(np.array([0, 3, 2, 0, 2, 1], np.int32), len(faces))  # each surface's own vertices, clockwise
    shaders = np.array([(b'textures/synthetic/floor', 0, 1), (b'textures/synthetic/wall', 0, 1)], bsp.Q3_SHADER)
    models = np.array([((0, 0, 0), (size, size, height), 0, len(faces), 0, 0)], bsp.Q3_MODEL)
    spawns = [(64, 64), (448, 64), (448, 448), (64, 448)]
    entities = '{\n"classname" "worldspawn"\n"message" "a synthetic room"\n}\n'
    entities += ''.join(f'{{\n"classname" "info_player_deathmatch"\n"origin" "{x} {y} 24"\n"angle" "45"\n}}\n' for x, y in spawns)
    entities += '{\n"classname" "light"\n"origin" "256 256 150"\n"light" "300"\n}\n'
    lumps = {
        'entities': entities.encode() + b'\0',
        'shaders': shaders.tobytes(),
        'models': models.tobytes(),
        'drawverts': verts.tobytes(),
        'drawindexes': indexes.tobytes(),
        'surfaces': surfaces.tobytes(),
        'lightmaps': pages.tobytes(),
    }
    header_size = 8 + 8 * len(bsp.Q3_LUMPS)
    body, table = b'', []
    for name in bsp.Q3_LUMPS:
        data = lumps.get(name, b'')
        table.append((header_size + len(body), len(data)))
        body += data + bytes(-len(data) % 4)
    path = folder / 'room.bsp'
    path.write_bytes(bsp.IDENT + np.array([46, *np.ravel(table)], '<i4').tobytes() + body)
    return path
