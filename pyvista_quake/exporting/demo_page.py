"""A demo that plays over its level: one glTF of the level and a marker a player, and the page of the viewer.

Each client that appears in the demo is a marker (an octahedron of its own colour, standing on its origin)
whose node is moved by a glTF animation, ``demo``: its translation at every snapshot's time (in seconds
from the first), and its scale 1 where the client is in the snapshot and 0 where it is not (stepped, so that
a player dead or out of sight is gone until it is back).  The level is its own glTF as
:func:`pyvista_quake.export` writes it (textured and lightmapped).  The viewer plays the animation with its
time slider and play button, as it plays a model's.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import numpy as np

from pyvista_quake._base.files import atomic_write
from pyvista_quake.exporting.gltf import QUAKE_TO_GLTF
from pyvista_quake.exporting.html import PAGE_HTML
from pyvista_quake.exporting.html import PAGE_SIZE
from pyvista_quake.exporting.html import embedded_library
from pyvista_quake.exporting.html import gzip_base64
from pyvista_quake.exporting.html import model_glb
from pyvista_quake.model.demos import Demo

#: A marker's height at least (a player's box is 56 or so units tall), and its share of the diagonal of the box
#: the players went through: large enough to be seen over a whole level.
MARKER_SIZE = 24.0
MARKER_SHARE = 0.02
#: The markers' colours, a client each in turn (matplotlib's tab10).
COLOURS = [
    (0.12, 0.47, 0.71),
    (1.0, 0.5, 0.05),
    (0.17, 0.63, 0.17),
    (0.84, 0.15, 0.16),
    (0.58, 0.4, 0.74),
    (0.55, 0.34, 0.29),
    (0.89, 0.47, 0.76),
    (0.5, 0.5, 0.5),
    (0.74, 0.74, 0.13),
    (0.09, 0.75, 0.81),
]


def demo_glb(demo: Demo, quantize: bool = True) -> bytes:
    """The demo as one glb: its level (where it was found) and a marker a client, moved by the ``demo`` animation."""
    import pygltflib as gl  # noqa: PLC0415 - glTF is written only when asked for

    level = demo.level
    gltf = gl.GLTF2.load_from_bytes(model_glb(level, None, quantize)) if level is not None else _empty()
    blob = bytearray(gltf.binary_blob() or b'')

    def add(array: np.ndarray, kind: str, target: int | None = None, bounds: bool = False) -> int:
        """Append ``array`` to the buffer (4-byte aligned) and return its accessor."""
        while len(blob) % 4:
            blob.append(0)
        data = np.ascontiguousarray(array).tobytes()
        gltf.bufferViews.append(gl.BufferView(buffer=0, byteOffset=len(blob), byteLength=len(data), target=target))
        blob.extend(data)
        component = gl.UNSIGNED_SHORT if array.dtype == np.uint16 else gl.FLOAT
        flat = array.reshape(len(array), -1)
        accessor = gl.Accessor(bufferView=len(gltf.bufferViews) - 1, componentType=component, count=len(array), type=kind)
        if bounds:
            accessor.min, accessor.max = flat.min(axis=0).tolist(), flat.max(axis=0).tolist()
        gltf.accessors.append(accessor)
        return len(gltf.accessors) - 1

    paths = demo.trajectories()
    reach = float(np.linalg.norm(np.ptp(paths.points, axis=0))) if paths.n_points else 0.0
    corners, triangles = _octahedron(max(MARKER_SIZE, MARKER_SHARE * reach))
    position = add(corners, gl.VEC3, gl.ARRAY_BUFFER, bounds=True)
    outward = corners - corners.mean(axis=0)  # from its centre, half its height up
    normal = add((outward / np.linalg.norm(outward, axis=1, keepdims=True)).astype(np.float32), gl.VEC3, gl.ARRAY_BUFFER)
    index = add(triangles.ravel().astype(np.uint16), gl.SCALAR, gl.ELEMENT_ARRAY_BUFFER)
    times = np.asarray(demo.times, np.float64)
    start = times[0] if len(times) else 0.0
    moment = add((times - start).astype(np.float32), gl.SCALAR, bounds=True)
    channels, samplers = [], []
    scene = gltf.scenes[0]  # the one scene export writes
    for k, client in enumerate(demo.clients):
        colour = COLOURS[k % len(COLOURS)]
        gltf.materials.append(
            gl.Material(name=f'client {client}', pbrMetallicRoughness=gl.PbrMetallicRoughness(baseColorFactor=[*colour, 1.0], metallicFactor=0.0))
        )
        primitive = gl.Primitive(attributes=gl.Attributes(POSITION=position, NORMAL=normal), indices=index, material=len(gltf.materials) - 1)
        gltf.meshes.append(gl.Mesh(name=f'client {client}', primitives=[primitive]))
        there, places = _held(demo.trajectory(client).positions)
        gltf.nodes.append(
            gl.Node(name=f'{demo.players.get(client, "")} (client {client})'.strip(), mesh=len(gltf.meshes) - 1, translation=places[0].tolist())
        )
        node = len(gltf.nodes) - 1
        scene.nodes.append(node)
        samplers.append(gl.AnimationSampler(input=moment, output=add(places, gl.VEC3), interpolation=gl.ANIM_LINEAR))
        channels.append(gl.AnimationChannel(sampler=len(samplers) - 1, target=gl.AnimationChannelTarget(node=node, path='translation')))
        scale = np.repeat(there.astype(np.float32)[:, None], 3, axis=1)
        samplers.append(gl.AnimationSampler(input=moment, output=add(scale, gl.VEC3), interpolation=gl.ANIM_STEP))
        channels.append(gl.AnimationChannel(sampler=len(samplers) - 1, target=gl.AnimationChannelTarget(node=node, path='scale')))
    if channels:
        gltf.animations.append(gl.Animation(name='demo', channels=channels, samplers=samplers))
    gltf.buffers = [gl.Buffer(byteLength=len(blob))]
    gltf.set_binary_blob(bytes(blob))
    return b''.join(gltf.save_to_bytes())


def _empty() -> Any:
    import pygltflib as gl  # noqa: PLC0415

    gltf = gl.GLTF2(asset=gl.Asset(version='2.0', generator='pyvista-quake'), scene=0, scenes=[gl.Scene(nodes=[])])
    gltf.set_binary_blob(b'')
    return gltf


def _octahedron(height: float) -> tuple[np.ndarray, np.ndarray]:
    """A marker ``height`` tall: its corners (glTF's axes, y up, standing on its origin's height) and triangles,
    wound outward."""
    r = height / 2
    corners = np.array([[r, r, 0], [-r, r, 0], [0, r, r], [0, r, -r], [0, 2 * r, 0], [0, 0, 0]], np.float32)
    triangles = np.array([[0, 4, 2], [2, 4, 1], [1, 4, 3], [3, 4, 0], [2, 5, 0], [1, 5, 2], [3, 5, 1], [0, 5, 3]], np.uint16)
    return corners, triangles


def _held(positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Whether the client is in each snapshot, and its place in glTF's axes at each: where it is missing, the last
    place it had (its first before it appears), since glTF holds no gap."""
    there = np.isfinite(positions).all(axis=1)
    rows = np.arange(len(positions))
    last = np.maximum.accumulate(np.where(there, rows, -1))
    first = int(np.argmax(there)) if there.any() else 0
    held = np.asarray(positions, np.float32)[np.maximum(last, first)]  # before it first appears, its first place
    held = np.nan_to_num(held, nan=0.0)
    return there, np.ascontiguousarray((held @ QUAKE_TO_GLTF.T).astype(np.float32))


def demo_page(demo: Demo, *, size: tuple[int, int] = PAGE_SIZE, title: str | None = None, quantize: bool = True) -> str:
    """One self-contained HTML page that plays ``demo`` over its level: a marker a client, a time slider and a
    play button; no request leaves it."""
    glb = demo_glb(demo, quantize)
    times = np.asarray(demo.times, np.float64)
    relative = (times - times[0]).tolist() if len(times) else [0.0]
    clip = {'times': relative, 'frames': list(range(len(relative))), 'names': ['snapshot'] * len(relative)}
    info: dict[str, Any] = {'clips': {'demo': clip}, 'skins': [], 'start': 'demo'}
    paths = demo.trajectories()
    if paths.n_points:  # framed on where the players went (a level's sky would make them a dot)
        low, high = paths.points.min(axis=0), paths.points.max(axis=0)
        pad = (high - low) * 0.1 + 128
        corners = np.array([low - pad, high + pad], np.float64) @ QUAKE_TO_GLTF.T
        info['bounds'] = [float(v) for v in (*corners.min(axis=0), *corners.max(axis=0))]
    name = title if title is not None else Path(demo.source).name
    return PAGE_HTML.format(
        title=html.escape(name),
        viewer_size=f'width: {int(size[0])}px;',
        view_size=f'width: {int(size[0])}px; height: {int(size[1])}px;',
        library=embedded_library(),
        models=json.dumps([gzip_base64(glb, 6)]),
        info=json.dumps(info),  # numbers and the names 'demo' and 'snapshot' only
    )


def write_demo_page(demo: Demo, path: str | Path, **options: Any) -> Path:
    """Write :func:`demo_page` to ``path`` atomically; return the path."""
    atomic_write(Path(path), demo_page(demo, **options).encode('utf-8'))
    return Path(path)


def write_demo_glb(demo: Demo, path: str | Path, quantize: bool = False) -> Path:
    """Write :func:`demo_glb` to ``path`` atomically; return the path."""
    atomic_write(Path(path), demo_glb(demo, quantize))
    return Path(path)
