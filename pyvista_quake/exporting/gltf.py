"""glTF 2.0 of a model: one mesh, its skin embedded, animations as morph-target weights (skeletal models: joints).

Built with pygltflib.  Each frame that an animation plays is a morph target
(position and normal displacements from the first frame); each animation is
a glTF animation of the mesh's weights, keyframed at the model's own frame
times with linear blending -- the engines' interpolation -- and a last key at
the animation's end that blends back into its first frame, as the games loop.
A skeletal model (IQM, MD5) keeps its skeleton instead: a ``skin`` with a node per
joint, ``JOINTS_0``/``WEIGHTS_0`` and each animation as the joints' channels
(:func:`build_gltf_skinned`).  Positions go from Quake's axes (x forward, y left, z up) to glTF's (y up,
+z forward); units are kept.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pygltflib as gl
import pyvista as pv

from pyvista_quake.data.animation import Animation
from pyvista_quake.data.skinning import quaternion_of
from pyvista_quake.game.skins import alpha_mode
from pyvista_quake.game.skins import png_bytes

#: Quake (x forward, y left, z up) to glTF (x left, y up, z forward): a rotation, windings kept.
QUAKE_TO_GLTF = np.array([[0, 1, 0], [0, 0, 1], [1, 0, 0]], np.float32)


class _Blob:
    """The binary buffer, built view by view (4-byte aligned)."""

    def __init__(self, gltf: gl.GLTF2) -> None:
        self.gltf = gltf
        self.parts: list[bytes] = []
        self.size = 0
        #: The material of each image embedded so far, by its PNG bytes: an image shared by parts is stored once.
        #: What is stored once, by what it is made of: a material by (image bytes, lightmap texture),
        #: a texture by its image bytes, a sampler by its use; and a level's lightmap atlas texture.
        self.materials: dict[tuple[bytes, int | None], int] = {}
        self.textures: dict[bytes, int] = {}
        self.samplers: dict[str, int] = {}
        self.atlas: int | None = None

    def view(self, data: bytes, target: int | None = None) -> int:
        padding = (-self.size) % 4
        if padding:
            self.parts.append(bytes(padding))
            self.size += padding
        self.gltf.bufferViews.append(gl.BufferView(buffer=0, byteOffset=self.size, byteLength=len(data), target=target))
        self.parts.append(data)
        self.size += len(data)
        return len(self.gltf.bufferViews) - 1

    def accessor(self, array: np.ndarray, kind: str, target: int | None = None, bounds: bool = False, normalized: bool = False) -> int:
        array = np.ascontiguousarray(array)
        component = {
            np.dtype(np.float32): gl.FLOAT,
            np.dtype(np.uint32): gl.UNSIGNED_INT,
            np.dtype(np.uint16): gl.UNSIGNED_SHORT,
            np.dtype(np.int16): gl.SHORT,
            np.dtype(np.int8): gl.BYTE,
        }[array.dtype]
        width = {'SCALAR': 1, 'VEC2': 2, 'VEC3': 3, 'VEC4': 4, 'MAT4': 16}[kind]
        flat = array.reshape(-1, width)
        stride = None
        if target == gl.ARRAY_BUFFER and (flat.itemsize * width) % 4:
            # A vertex attribute's elements start at 4-byte boundaries: a VEC3 of shorts or bytes is padded.
            padded = np.zeros((len(flat), width + 1), flat.dtype)
            padded[:, :width] = flat
            stride = padded.itemsize * (width + 1)
            view = self.view(padded.tobytes(), target)
            self.gltf.bufferViews[view].byteStride = stride
        else:
            view = self.view(array.tobytes(), target)
        accessor = gl.Accessor(bufferView=view, componentType=component, count=len(flat), type=kind, normalized=normalized or None)
        if bounds:
            accessor.min = flat.min(axis=0).astype(float).tolist()
            accessor.max = flat.max(axis=0).astype(float).tolist()
        self.gltf.accessors.append(accessor)
        return len(self.gltf.accessors) - 1


#: glTF's extension for 16- and 8-bit vertex attributes, which ``quantize=True`` uses.
QUANTIZATION = 'KHR_mesh_quantization'
#: The largest quantised coordinate: every position within +-16383 steps of the centre, so that a morph
#: target's displacement (a frame's position less the first's) fits a signed short too.
QUANTIZED_RANGE = 16383


@dataclass
class Grid:
    """Where quantised positions sit: ``p = centre + step * q`` for the ``int16`` ``q`` stored (glTF's axes).

    The node holding the mesh carries it as its ``translation`` and uniform ``scale``, as
    ``KHR_mesh_quantization`` asks; a skinned mesh's inverse bind matrices carry it instead.
    """

    centre: np.ndarray
    step: float

    @classmethod
    def around(cls, positions: list[np.ndarray]) -> Grid:
        """The grid of every given position (any shapes ending in 3, glTF's axes): one step the same on every axis."""
        flat = [np.asarray(p, np.float64).reshape(-1, 3) for p in positions if np.size(p)]
        if not flat:
            return cls(np.zeros(3), 1.0)
        low = np.min([f.min(axis=0) for f in flat], axis=0)
        high = np.max([f.max(axis=0) for f in flat], axis=0)
        half = float((high - low).max()) / 2
        return cls((low + high) / 2, half / QUANTIZED_RANGE if half > 0 else 1.0)

    def quantized(self, positions: np.ndarray) -> np.ndarray:
        return np.rint((np.asarray(positions, np.float64) - self.centre) / self.step).astype(np.int16)

    def place(self, node: gl.Node) -> None:
        node.translation = self.centre.tolist()
        node.scale = [self.step] * 3

    def matrix(self) -> np.ndarray:
        """``(4, 4)``: from the stored integers to positions."""
        out = np.diag([self.step, self.step, self.step, 1.0])
        out[:3, 3] = self.centre
        return out


def _quantized_normals(normals: np.ndarray) -> np.ndarray:
    return np.rint(np.clip(np.asarray(normals, np.float64), -1, 1) * 127).astype(np.int8)


def _use_quantization(gltf: gl.GLTF2) -> None:
    for names in (gltf.extensionsUsed, gltf.extensionsRequired):
        if QUANTIZATION not in names:
            names.append(QUANTIZATION)


@dataclass
class Part:
    """One primitive of the glTF mesh: a surface's frames, triangles, texture coordinates and image.

    Attributes
    ----------
    positions, normals : numpy.ndarray
        ``(frames, points, 3)`` of the frames that animations play (one frame: no targets).
    first : pyvista.PolyData
        The first of those frames: its triangles and texture coordinates.
    skin : numpy.ndarray or None
        RGB(A) image, embedded as PNG.
    lightmap : numpy.ndarray or None
        A level's lightmap atlas (:func:`pyvista_quake.model.lightmaps.lightmap_atlas`), used where
        ``first`` has ``point_data["lightmap_atlas"]``: ``TEXCOORD_1`` and the material's
        ``occlusionTexture`` (``texCoord`` 1), with ``extras["lightmap"]`` saying it multiplies the colour.

    """

    positions: np.ndarray
    normals: np.ndarray
    first: pv.PolyData
    skin: np.ndarray | None
    lightmap: np.ndarray | None = None


def build_gltf(
    positions: np.ndarray,
    normals: np.ndarray,
    first: pv.PolyData,
    animations: list[tuple[Animation, np.ndarray]],
    skin: np.ndarray | None,
    quantize: bool = False,
) -> gl.GLTF2:
    """A glTF document of frames sharing ``first``'s points and triangles (one surface; see :func:`build_gltf_parts`)."""
    return build_gltf_parts([Part(positions, normals, first, skin)], animations, str(first.quake.frame_name or 'model'), quantize)


def build_gltf_parts(parts: list[Part], animations: list[tuple[Animation, np.ndarray]], name: str = 'model', quantize: bool = False) -> gl.GLTF2:
    """A glTF document of one mesh with a primitive per part (surface), each with its own material.

    Every part holds the same frames, so the mesh's morph-target weights move them together.

    Parameters
    ----------
    parts : list of Part
        The surfaces.
    animations : list of (Animation, numpy.ndarray)
        Each animation with the model frame number of each entry of the parts' ``positions``.
    name : str
        The mesh's name.
    quantize : bool
        Positions and their morph displacements as ``int16`` on one grid (the node's scale and
        translation), normals as normalised bytes: ``KHR_mesh_quantization``.

    """
    gltf = gl.GLTF2(asset=gl.Asset(generator='pyvista-quake', version='2.0'))
    blob = _Blob(gltf)
    mesh = gl.Mesh(primitives=[], name=name)
    frames = len(parts[0].positions) if parts else 0
    grid = Grid.around([np.asarray(p.positions) @ QUAKE_TO_GLTF.T for p in parts]) if quantize else None
    for part in parts:
        mesh.primitives.append(_primitive(gltf, blob, part, grid))
    if frames > 1:
        mesh.weights = [0.0] * frames
        mesh.extras = {'targetNames': [f'frame {k}' for k in range(frames)]}
    gltf.meshes.append(mesh)
    gltf.nodes.append(gl.Node(mesh=0, name=mesh.name))
    if grid is not None:
        grid.place(gltf.nodes[0])  # its animations key weights only: the node's own transform is free
        _use_quantization(gltf)
    gltf.scenes.append(gl.Scene(nodes=[0]))
    gltf.scene = 0
    if frames > 1:  # a single frame has no targets to weigh
        for clip, numbers in animations:
            _animation(gltf, blob, clip, numbers)
    data = b''.join(blob.parts)
    gltf.buffers.append(gl.Buffer(byteLength=len(data)))
    gltf.set_binary_blob(data)
    return gltf


def _primitive(gltf: gl.GLTF2, blob: _Blob, part: Part, grid: Grid | None = None) -> gl.Primitive:
    """A part's primitive: float attributes, or with ``grid`` positions as ``int16`` on it and normals as
    normalised bytes (their morph displacements too where they fit, else float)."""
    positions, normals, first = part.positions, part.normals, part.first
    base = np.asarray(positions[0], np.float32) @ QUAKE_TO_GLTF.T
    base_normals = np.asarray(normals[0], np.float32) @ QUAKE_TO_GLTF.T
    triangles = np.asarray(first.regular_faces)
    index_type = np.uint16 if len(base) < 65535 else np.uint32
    if grid is None:
        attributes = gl.Attributes(
            POSITION=blob.accessor(base, 'VEC3', gl.ARRAY_BUFFER, bounds=True),
            NORMAL=blob.accessor(base_normals, 'VEC3', gl.ARRAY_BUFFER),
        )
    else:
        stored, stored_normals = grid.quantized(base), _quantized_normals(base_normals)
        attributes = gl.Attributes(
            POSITION=blob.accessor(stored, 'VEC3', gl.ARRAY_BUFFER, bounds=True),
            NORMAL=blob.accessor(stored_normals, 'VEC3', gl.ARRAY_BUFFER, normalized=True),
        )
    uv = first.active_texture_coordinates
    if uv is not None:
        flipped = np.column_stack([uv[:, 0], 1 - uv[:, 1]]).astype(np.float32)  # glTF's v runs down
        attributes.TEXCOORD_0 = blob.accessor(flipped, 'VEC2', gl.ARRAY_BUFFER)
    lit = part.lightmap is not None and 'lightmap_atlas' in first.point_data
    if lit:
        light_uv = np.asarray(first.point_data['lightmap_atlas'], np.float32)
        attributes.TEXCOORD_1 = blob.accessor(np.column_stack([light_uv[:, 0], 1 - light_uv[:, 1]]).astype(np.float32), 'VEC2', gl.ARRAY_BUFFER)
    primitive = gl.Primitive(attributes=attributes, indices=blob.accessor(triangles.astype(index_type).ravel(), 'SCALAR', gl.ELEMENT_ARRAY_BUFFER))
    light = _atlas_texture(gltf, blob, part.lightmap) if lit and part.lightmap is not None else None
    found = first.quake.skin_file if part.skin is not None else None
    primitive.material = _material(gltf, blob, part.skin, light, found) if part.skin is not None else _plain_material(gltf, blob, light)
    if len(positions) > 1:
        for k in range(len(positions)):
            if grid is None:
                moved = np.asarray(positions[k], np.float32) @ QUAKE_TO_GLTF.T - base
                turned = np.asarray(normals[k], np.float32) @ QUAKE_TO_GLTF.T - base_normals
                primitive.targets.append(
                    {
                        'POSITION': blob.accessor(moved, 'VEC3', gl.ARRAY_BUFFER, bounds=True),
                        'NORMAL': blob.accessor(turned, 'VEC3', gl.ARRAY_BUFFER),
                    }
                )
                continue
            # Displacements from the stored first frame, on the same grid: exact in steps.
            moved_q = grid.quantized(np.asarray(positions[k], np.float32) @ QUAKE_TO_GLTF.T).astype(np.int32) - stored
            turned = np.asarray(normals[k], np.float32) @ QUAKE_TO_GLTF.T - stored_normals / 127.0
            small = bool(np.abs(turned).max(initial=0) <= 1)  # a normal turned past 90 degrees needs floats
            primitive.targets.append(
                {
                    'POSITION': blob.accessor(moved_q.astype(np.int16), 'VEC3', gl.ARRAY_BUFFER, bounds=True),
                    'NORMAL': (
                        blob.accessor(_quantized_normals(turned), 'VEC3', gl.ARRAY_BUFFER, normalized=True)
                        if small
                        else blob.accessor(turned.astype(np.float32), 'VEC3', gl.ARRAY_BUFFER)
                    ),
                }
            )
    return primitive


def _animation(gltf: gl.GLTF2, blob: _Blob, clip: Animation, frames: np.ndarray) -> None:
    """Weights keyed at the clip's times: one target fully on at each key, back to the first at the end."""
    target = np.searchsorted(frames, clip.frames)
    times = np.asarray(clip.times, np.float64)
    keys = list(target)
    if clip.duration > times[-1]:
        times = np.append(times, clip.duration)
        keys.append(target[0])
    weights = np.zeros((len(keys), len(frames)), np.float32)
    weights[np.arange(len(keys)), keys] = 1
    sampler = gl.AnimationSampler(
        input=blob.accessor(times.astype(np.float32), 'SCALAR', bounds=True),
        output=blob.accessor(weights.ravel(), 'SCALAR'),
        interpolation=gl.ANIM_LINEAR,
    )
    channel = gl.AnimationChannel(sampler=0, target=gl.AnimationChannelTarget(node=0, path='weights'))
    gltf.animations.append(gl.Animation(name=clip.name, samplers=[sampler], channels=[channel]))


def _plain_material(gltf: gl.GLTF2, blob: _Blob, light: int | None = None) -> int:
    """One material for every untextured surface: tan and matte, as the pictures draw them (glTF's
    default material is fully metallic, which looks black without an environment to reflect)."""
    if (b'', light) not in blob.materials:
        gltf.materials.append(
            _lit(
                gl.Material(
                    pbrMetallicRoughness=gl.PbrMetallicRoughness(baseColorFactor=[0.82, 0.71, 0.55, 1.0], metallicFactor=0.0, roughnessFactor=1.0),
                    name='untextured',
                ),
                light,
            )
        )
        blob.materials[b'', light] = len(gltf.materials) - 1
    return blob.materials[b'', light]


def _material(gltf: gl.GLTF2, blob: _Blob, skin: np.ndarray, light: int | None = None, found: tuple[bytes, str] | None = None) -> int:
    """The material of a skin: ``found``, the image file as the game found it (a PNG or JPEG a browser draws as
    ``skin`` is), is embedded as it is; any other skin as a PNG made from its pixels."""
    encoded, mime = found if found is not None else (png_bytes(skin), 'image/png')
    if (encoded, light) in blob.materials:
        return blob.materials[encoded, light]
    if encoded not in blob.textures:  # an image lit and unlit is stored once
        gltf.images.append(gl.Image(bufferView=blob.view(encoded), mimeType=mime))
        if 'skin' not in blob.samplers:
            # Nearest texels, repeated: the look of the games' skins.
            gltf.samplers.append(gl.Sampler(magFilter=gl.NEAREST, minFilter=gl.NEAREST, wrapS=gl.REPEAT, wrapT=gl.REPEAT))
            blob.samplers['skin'] = len(gltf.samplers) - 1
        gltf.textures.append(gl.Texture(sampler=blob.samplers['skin'], source=len(gltf.images) - 1))
        blob.textures[encoded] = len(gltf.textures) - 1
    mode = alpha_mode(skin)
    cut_out = mode == 'mask'
    gltf.materials.append(
        _lit(
            gl.Material(
                pbrMetallicRoughness=gl.PbrMetallicRoughness(
                    baseColorTexture=gl.TextureInfo(index=blob.textures[encoded]), metallicFactor=0.0, roughnessFactor=1.0
                ),
                alphaMode={'mask': gl.MASK, 'blend': gl.BLEND}.get(mode, gl.OPAQUE),
                alphaCutoff=0.5 if cut_out else None,
                # The games draw cut-out and blended models (foliage, fences, flashes) from both sides.
                doubleSided=mode != 'opaque',
                name='skin' if len(gltf.materials) == 0 else f'skin{len(gltf.materials)}',
            ),
            light,
        )
    )
    blob.materials[encoded, light] = len(gltf.materials) - 1
    return len(gltf.materials) - 1


def _atlas_texture(gltf: gl.GLTF2, blob: _Blob, atlas: np.ndarray) -> int:
    """The level's lightmap atlas as a texture (added once), filtered linearly and clamped as the engines do."""
    if blob.atlas is None:
        gltf.images.append(gl.Image(bufferView=blob.view(png_bytes(atlas)), mimeType='image/png', name='lightmaps'))
        gltf.samplers.append(gl.Sampler(magFilter=gl.LINEAR, minFilter=gl.LINEAR, wrapS=gl.CLAMP_TO_EDGE, wrapT=gl.CLAMP_TO_EDGE))
        gltf.textures.append(gl.Texture(sampler=len(gltf.samplers) - 1, source=len(gltf.images) - 1, name='lightmaps'))
        blob.atlas = len(gltf.textures) - 1
    return blob.atlas


def _lit(material: gl.Material, light: int | None) -> gl.Material:
    """A material lit by a level's lightmap atlas (texture ``light``) on ``TEXCOORD_1``, if there is one.

    glTF has no lightmap slot: the occlusion texture is the one that multiplies the lit colour by an image
    on a second coordinate set, so a PBR viewer darkens the level where the engine does (by its red
    channel); ``extras["lightmap"]`` tells a viewer that knows lightmaps (three.js's ``material.lightMap``)
    to multiply the base colour by all three channels, as the engines do.
    """
    if light is not None:
        material.occlusionTexture = gl.OcclusionTextureInfo(index=light, texCoord=1, strength=1.0)
        material.extras = {'lightmap': {'index': light, 'texCoord': 1}}
        material.name = f'{material.name} lit'
    return material


@dataclass
class Keys:
    """How one node moves in one animation, key by key.

    Attributes
    ----------
    weights : numpy.ndarray or None
        ``(keys, frames)``: each key's blend of the node's frames (its morph targets); ``None``: this
        animation leaves the node's frames alone.
    translations, rotations : numpy.ndarray or None
        ``(keys, 3)`` and ``(keys, 3, 3)`` (rows are axes, Quake's convention): where
        the node sits on its parent's tag at each key; ``None`` for a root, or a node this animation leaves in place.

    """

    weights: np.ndarray | None
    translations: np.ndarray | None = None
    rotations: np.ndarray | None = None


@dataclass
class Node:
    """One part of a hierarchy (a player's legs, torso, head): its surfaces and how it moves in each animation.

    Attributes
    ----------
    name : str
        The node's name.
    parts : list of Part
        Its surfaces, each with the frames it plays (morph targets).
    parent : int or None
        Index of the parent node (``None``: a root).
    keys : list of Keys
        How it moves in each animation, in the order :func:`build_gltf_nodes` is given them.

    """

    name: str
    parts: list[Part]
    parent: int | None
    keys: list[Keys]


def build_gltf_nodes(nodes: list[Node], animations: list[tuple[str, np.ndarray]], quantize: bool = False) -> gl.GLTF2:
    """A glTF document of a hierarchy of meshes: each node on its parent, an animation per ``(name, times)``.

    Each node's mesh has a primitive per surface and a morph target per frame it
    plays in any animation; each animation keys every node's weights and, below
    the root, its translation and rotation (the parent's tag, as
    ``CG_PositionEntityOnTag`` places a part).  The nodes rest as the first
    animation's first key places them.  ``quantize`` (see :func:`build_gltf_parts`)
    puts each part's mesh on a leaf node of its own that carries its grid, so the
    tags' animations keep the part's own transform.
    """
    gltf = gl.GLTF2(asset=gl.Asset(generator='pyvista-quake', version='2.0'))
    blob = _Blob(gltf)
    holder = list(range(len(nodes)))  # the glTF node holding each part's mesh (its weights' target)
    grids = [Grid.around([np.asarray(p.positions) @ QUAKE_TO_GLTF.T for p in node.parts]) if quantize else None for node in nodes]
    for node, grid in zip(nodes, grids):
        mesh = gl.Mesh(primitives=[_primitive(gltf, blob, part, grid) for part in node.parts], name=node.name)
        targets = next((k.weights.shape[1] for k in node.keys if k.weights is not None), 1)
        if targets > 1:
            mesh.weights = [0.0] * targets
        gltf.meshes.append(mesh)
        gltf.nodes.append(gl.Node(mesh=len(gltf.meshes) - 1 if grid is None else None, name=node.name))
    if quantize:
        for index, (node, grid) in enumerate(zip(nodes, grids)):
            assert grid is not None
            leaf = gl.Node(mesh=index, name=f'{node.name} mesh')
            grid.place(leaf)
            gltf.nodes.append(leaf)
            holder[index] = len(gltf.nodes) - 1
            gltf.nodes[index].children.append(holder[index])
        _use_quantization(gltf)
    for index, node in enumerate(nodes):
        if node.parent is not None:
            # A child rests where the first animation that places it puts it, on its parent's tag.
            first = next(k for k in node.keys if k.translations is not None and k.rotations is not None)
            assert first.translations is not None and first.rotations is not None
            gltf.nodes[node.parent].children.append(index)
            translation, rotation = _node_transform(first.translations[0], first.rotations[0])
            gltf.nodes[index].translation, gltf.nodes[index].rotation = translation.tolist(), rotation.tolist()
    for number, (name, times) in enumerate(animations):
        samplers: list[gl.AnimationSampler] = []
        channels: list[gl.AnimationChannel] = []
        key_times = blob.accessor(np.asarray(times, np.float32), 'SCALAR', bounds=True)  # one key: a held pose
        for index, node in enumerate(nodes):
            keys = node.keys[number]
            tracks = []
            if keys.weights is not None and keys.weights.shape[1] > 1:
                tracks.append(('weights', keys.weights.ravel()))
            if keys.translations is not None and keys.rotations is not None:
                moves = [_node_transform(t, r) for t, r in zip(keys.translations, keys.rotations)]
                tracks.append(('translation', np.array([m[0] for m in moves], np.float32)))
                tracks.append(('rotation', _continuous(np.array([m[1] for m in moves], np.float32))))
            for path, values in tracks:
                kind = {'weights': 'SCALAR', 'translation': 'VEC3', 'rotation': 'VEC4'}[path]
                output = blob.accessor(np.asarray(values, np.float32), kind)
                samplers.append(gl.AnimationSampler(input=key_times, output=output, interpolation=gl.ANIM_LINEAR))
                where = holder[index] if path == 'weights' else index
                channels.append(gl.AnimationChannel(sampler=len(samplers) - 1, target=gl.AnimationChannelTarget(node=where, path=path)))
        if channels:
            gltf.animations.append(gl.Animation(name=name, samplers=samplers, channels=channels))
    gltf.scenes.append(gl.Scene(nodes=[k for k, node in enumerate(nodes) if node.parent is None]))
    gltf.scene = 0
    data = b''.join(blob.parts)
    gltf.buffers.append(gl.Buffer(byteLength=len(data)))
    gltf.set_binary_blob(data)
    return gltf


def _node_transform(origin: np.ndarray, axes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A tag (origin, axes as rows: ``p @ axes + origin``) as glTF's translation and rotation quaternion."""
    rotation = QUAKE_TO_GLTF.astype(np.float64) @ np.asarray(axes, np.float64).T @ QUAKE_TO_GLTF.T.astype(np.float64)
    u, _, vt = np.linalg.svd(rotation)  # the nearest rotation: stored axes are unit to float precision only
    rotation = u @ vt
    return (QUAKE_TO_GLTF @ np.asarray(origin, np.float32)).astype(np.float32), quaternion_of(rotation).astype(np.float32)


def _continuous(quaternions: np.ndarray) -> np.ndarray:
    """Flip signs so consecutive quaternions lie on one hemisphere: the blend takes the short way."""
    out = np.array(quaternions, np.float32)
    for k in range(1, len(out)):
        if np.dot(out[k], out[k - 1]) < 0:
            out[k] = -out[k]
    return out


# -- skeletal models: a glTF skin ------------------------------------------------------------


@dataclass
class SkinnedPart:
    """One surface of a skeletal model, in its bind pose, with the joints that move it.

    Attributes
    ----------
    first : pyvista.PolyData
        The bind pose's mesh: points, normals, triangles, texture coordinates.
    joints : numpy.ndarray
        ``(points, 4)`` joint numbers (``JOINTS_0``).
    weights : numpy.ndarray
        ``(points, 4)`` their weights, summing to 1 (``WEIGHTS_0``).
    skin : numpy.ndarray or None
        RGB(A) image, embedded as PNG.

    """

    first: pv.PolyData
    joints: np.ndarray
    weights: np.ndarray
    skin: np.ndarray | None


def _gltf_trs(poses: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Translation, rotation ``xyzw`` and scale ``(..., 3/4/3)`` of ``(..., 10)`` poses, in glTF's axes.

    The axis change is a cyclic permutation of the axes, so it permutes each
    vector part (a translation, a quaternion's ``xyz``, a scale) and keeps ``w``.
    """
    turn = QUAKE_TO_GLTF.astype(np.float64)
    translation = poses[..., 0:3] @ turn.T
    q = poses[..., 3:7]
    length = np.linalg.norm(q, axis=-1, keepdims=True)
    q = np.divide(q, length, out=np.tile([0.0, 0.0, 0.0, 1.0], q.shape[:-1] + (1,)), where=length > 0)
    rotation = np.concatenate([q[..., :3] @ turn.T, q[..., 3:4]], axis=-1)
    scale = poses[..., 7:10] @ turn.T
    return translation.astype(np.float32), rotation.astype(np.float32), scale.astype(np.float32)


def build_gltf_skinned(
    parts: list[SkinnedPart],
    names: list[str],
    parents: list[int],
    rest: np.ndarray,
    inverse_bind: np.ndarray,
    animations: list[tuple[str, np.ndarray, np.ndarray]],
    name: str = 'model',
    quantize: bool = False,
) -> gl.GLTF2:
    """A glTF document of a skinned mesh: a node per joint, a ``skin``, and each animation as joint channels.

    Parameters
    ----------
    parts : list of SkinnedPart
        The surfaces, a primitive each.
    names, parents : list
        Each joint's name and parent (``-1``: a root).
    rest : numpy.ndarray
        ``(joints, 10)``: each joint's parent-relative translation, quaternion ``xyzw`` and scale at rest.
    inverse_bind : numpy.ndarray
        ``(joints, 4, 4)``: the inverse of each joint's bind pose in object space (Quake's axes).
    animations : list of (str, numpy.ndarray, numpy.ndarray)
        Each animation's name, key times ``(keys,)`` and joint poses ``(keys, joints, 10)``.
    name : str
        The mesh's name.
    quantize : bool
        The bind pose's positions as ``int16`` on one grid, carried by the inverse bind matrices (the
        mesh's node does not place a skinned mesh), normals as normalised bytes.

    """
    gltf = gl.GLTF2(asset=gl.Asset(generator='pyvista-quake', version='2.0'))
    blob = _Blob(gltf)
    mesh = gl.Mesh(primitives=[], name=name)
    grid = Grid.around([np.asarray(p.first.points) @ QUAKE_TO_GLTF.T for p in parts]) if quantize else None
    for part in parts:
        primitive = _primitive(
            gltf, blob, Part(np.asarray(part.first.points)[None], np.asarray(part.first.point_data['Normals'])[None], part.first, part.skin), grid
        )
        primitive.attributes.JOINTS_0 = blob.accessor(part.joints.astype(np.uint16), 'VEC4', gl.ARRAY_BUFFER)
        primitive.attributes.WEIGHTS_0 = blob.accessor(part.weights.astype(np.float32), 'VEC4', gl.ARRAY_BUFFER)
        mesh.primitives.append(primitive)
    gltf.meshes.append(mesh)
    translation, rotation, scale = _gltf_trs(rest)
    # Node 0 the mesh, node 1 the skeleton: the one root of every joint (glTF wants a common root; MD5s have several).
    first_joint = 2
    gltf.nodes.append(gl.Node(mesh=0, skin=0, name=name))
    gltf.nodes.append(gl.Node(name='skeleton'))
    for k, joint in enumerate(names):
        gltf.nodes.append(
            gl.Node(name=joint or f'joint{k}', translation=translation[k].tolist(), rotation=rotation[k].tolist(), scale=scale[k].tolist())
        )
    for k, parent in enumerate(parents):
        if parent >= 0:
            gltf.nodes[first_joint + parent].children.append(first_joint + k)
    turn = np.eye(4)
    turn[:3, :3] = QUAKE_TO_GLTF
    matrices = turn @ np.asarray(inverse_bind, np.float64) @ turn.T
    if grid is not None:
        matrices = matrices @ grid.matrix()  # the stored integers to the bind pose, then as before
        _use_quantization(gltf)
    # glTF stores matrices column by column.
    ibm = blob.accessor(np.ascontiguousarray(np.swapaxes(matrices, 1, 2)).astype(np.float32).reshape(-1, 16), 'MAT4')
    gltf.nodes[1].children = [first_joint + k for k, parent in enumerate(parents) if parent < 0]
    gltf.skins.append(gl.Skin(joints=list(range(first_joint, first_joint + len(names))), inverseBindMatrices=ibm, skeleton=1, name=name))
    gltf.scenes.append(gl.Scene(nodes=[0, 1]))
    gltf.scene = 0
    for clip, times, poses in animations:
        samplers: list[gl.AnimationSampler] = []
        channels: list[gl.AnimationChannel] = []
        key_times = blob.accessor(np.asarray(times, np.float32), 'SCALAR', bounds=True)
        moves = _gltf_trs(poses)
        for k in range(len(names)):
            for path, values in zip(('translation', 'rotation', 'scale'), moves):
                track = values[:, k]
                if path == 'rotation':
                    track = _continuous(track)
                if path == 'scale' and np.allclose(track, scale[k]):
                    continue  # IQM and MD5 joints rarely scale: no channel for a scale that stays
                output = blob.accessor(np.ascontiguousarray(track, np.float32), 'VEC4' if path == 'rotation' else 'VEC3')
                samplers.append(gl.AnimationSampler(input=key_times, output=output, interpolation=gl.ANIM_LINEAR))
                channels.append(gl.AnimationChannel(sampler=len(samplers) - 1, target=gl.AnimationChannelTarget(node=first_joint + k, path=path)))
        if channels:
            gltf.animations.append(gl.Animation(name=clip, samplers=samplers, channels=channels))
    gltf.buffers.append(gl.Buffer(byteLength=blob.size))
    gltf.set_binary_blob(b''.join(blob.parts))
    return gltf
