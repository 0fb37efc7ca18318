"""Export: frames and whole animations to the formats other tools open, with their images.

Every model is written the same way: a pose is its surfaces (``blocks()``),
joined into one mesh for the formats of one mesh (``cell_data['surface']``
numbering each cell's surface).  One frame goes through the writer that
keeps the most: VTK's own (``.vtp``, ``.vtk``, ``.vtu``, ``.ply`` with the
image named in its header, ``.stl``), our ``.obj`` (an object, a material
and a PNG per surface) or meshio (every other mesh format it writes).  A
whole animation goes to a ParaView ``.pvd`` series, an XDMF time series
(meshio's ``TimeSeriesWriter``, its arrays in an HDF5 file beside it) or
glTF 2.0 (pygltflib: morph targets, or joints for a skeletal model).  A
model format's own extension goes through :mod:`pyvista_quake.model.saving`.
Every file is written under a temporary name and renamed into place; a bad
request writes nothing.

Importing this module registers the model formats with meshio.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
import hashlib
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import h5py
import meshio
import numpy as np
from pygltflib import BufferFormat
import pyvista as pv
from vtkmodules.vtkIOPLY import vtkPLYWriter

from pyvista_quake._base import fields as keys
from pyvista_quake._base.files import staged
from pyvista_quake._base.options import split_options
from pyvista_quake.data.skinning import weights_of
from pyvista_quake.exporting.gltf import Keys
from pyvista_quake.exporting.gltf import Node
from pyvista_quake.exporting.gltf import Part
from pyvista_quake.exporting.gltf import SkinnedPart
from pyvista_quake.exporting.gltf import build_gltf_nodes
from pyvista_quake.exporting.gltf import build_gltf_parts
from pyvista_quake.exporting.gltf import build_gltf_skinned
from pyvista_quake.formats import FORMATS
from pyvista_quake.formats import model_extensions
from pyvista_quake.formats.registry import LISTENERS
from pyvista_quake.formats.registry import FormatSpec
from pyvista_quake.game.skins import has_cut_out
from pyvista_quake.game.skins import png_bytes
from pyvista_quake.model.lightmaps import lit_blocks
from pyvista_quake.model.loading import load
from pyvista_quake.model.mesh import joined as joined_mesh
from pyvista_quake.model.parts import SkeletalPart
from pyvista_quake.model.players import QuakePlayer
from pyvista_quake.model.players import player_clips
from pyvista_quake.model.posing import posable_or_mesh
from pyvista_quake.model.quake_model import QuakeModel
from pyvista_quake.model.quake_model import is_model
from pyvista_quake.model.saving import save

#: Formats whose writer is VTK's, through PyVista or directly (``.obj`` is ours: a material per surface).
VTK_FORMATS = ('.vtp', '.vtk', '.vtu', '.ply', '.stl')
#: Formats that hold a whole animation.
SERIES_FORMATS = ('.pvd', '.xdmf', '.glb', '.gltf')


def export(
    source: Any,
    path: str | Path,
    frame: int | None = None,
    animation: str | None = None,
    time: float | None = None,
    **options: Any,
) -> None:
    """Export a frame or a whole animation; the format follows the extension.

    Parameters
    ----------
    source : str, pathlib.Path, bytes, QuakeModel or pyvista.PolyData
        A model file, a loaded model, or a frame read by this package.
    path : str or pathlib.Path
        The file to write.  ``.vtp``, ``.vtk``, ``.vtu``, ``.ply``, ``.obj``,
        ``.stl`` and meshio's mesh formats take one frame; ``.pvd``,
        ``.xdmf``, ``.glb`` and ``.gltf`` a whole animation; ``.md2`` and
        ``.mdl`` the model.
    frame : int, optional
        Which frame (of ``animation`` when given); frame 0 by default.
    animation : str, optional
        An animation of the model: its frames for the series formats, the
        frame to count from for the others.  Every frame by default.
    time : float, optional
        For one frame: the pose at this time of ``animation`` (interpolated).
    **options
        Options of :func:`pyvista_quake.load` (``skin``, ``search_paths``,
        ...) when ``source`` is a file; ``binary=False`` for ASCII ``.stl``,
        ``.ply`` and ``.vtk``; ``overwrite_skins=True`` lets an ``.md2``'s
        skin image replace another file (see :func:`pyvista_quake.save`);
        ``quantize=True`` for ``.glb`` and ``.gltf``: positions and their morph
        displacements as ``int16`` on one grid, normals as normalised bytes
        (``KHR_mesh_quantization``), about half the size.

    Raises
    ------
    ValueError
        For an extension no writer knows, or ``frame``/``time`` with a series format.
    IndexError, KeyError
        For a frame out of range or an unknown animation.

    Examples
    --------
    >>> import pyvista_quake as pq
    >>> pq.export('tris.md2', 'tank.obj', frame=10)  # doctest: +SKIP
    >>> pq.export('tris.md2', 'tank.glb')  # every animation, skin embedded  # doctest: +SKIP
    >>> pq.export('tris.md2', 'run.pvd', animation='run')  # doctest: +SKIP

    """
    path = Path(path)
    suffix = path.suffix.lower()
    meshio_format = _meshio_format(suffix)
    if suffix not in (*VTK_FORMATS, '.obj', *SERIES_FORMATS, *model_extensions()) and meshio_format is None:
        raise ValueError(f'{path}: no writer for {suffix or "a file with no extension"!r}; see pyvista_quake.export')
    load_options, options = split_options(options)
    binary = bool(options.pop('binary', True))
    overwrite_skins = bool(options.pop('overwrite_skins', False))
    progress = bool(options.pop('progress', False))
    quantize = bool(options.pop('quantize', False))
    if options:
        raise TypeError(f'export() got unknown options {sorted(options)}')
    if quantize and suffix not in ('.glb', '.gltf'):
        raise ValueError(f'{path}: quantize=True writes glTF (.glb, .gltf) with KHR_mesh_quantization; {suffix} has no such option')
    poser, given = posable_or_mesh(source, **load_options)
    model = poser.drawn if poser is not None else None
    if poser is not None and model is None:  # a player: its parts on their tags
        if suffix in ('.glb', '.gltf') and time is None:
            with staged(path.parent) as stage:
                _write_player_gltf(poser.subject, player_clips(poser.subject, animation), stage / path.name, quantize)
            return
        # One pose: an animation pair (or name) at a time, the parts' surfaces merged.
        given, animation, time = poser.posed(animation=animation, time=time), None, None
    if model is None and (frame is not None or animation is not None or time is not None):
        raise ValueError('frame=, animation= and time= choose from a model; this source is one frame')
    if suffix in model_extensions():
        if model is None or frame is not None or time is not None:
            if model is not None and len(model.surfaces) > 1:
                raise ValueError(f'{path}: a model of surfaces is saved whole, as a model; give the model, not frame= or time=')
            chosen = (given if isinstance(given, pv.PolyData) else joined_mesh(given)) if model is None else model.mesh(frame, animation, time)
            model = QuakeModel.from_frames(chosen, suffix[1:], names=[chosen.quake.frame_name or 'frame000'], skin_name=f'{path.stem}.png')
        save(model, path, overwrite_skins=overwrite_skins)
        return
    if suffix in SERIES_FORMATS:
        if frame is not None or time is not None:
            raise ValueError(f'{path}: {suffix} holds a whole animation; give animation=, not frame= or time=')
        with staged(path.parent) as stage:
            target = stage / path.name
            if suffix in ('.glb', '.gltf') and model is not None and model.skeletal is not None:
                _write_skeletal_gltf(model, model.skeletal, animation, target, quantize)
            elif suffix in ('.glb', '.gltf'):
                _write_gltf_surfaces(model, None if model is not None else _blocks_of(given), animation, target, quantize)
            else:
                _write_series(model, given, animation, target, progress)
        return
    blocks = _blocks_of(given) if model is None else model.blocks(frame, animation, time)
    with staged(path.parent) as stage:
        target = stage / path.name
        if suffix == '.obj':
            _write_obj(blocks, target)
        elif suffix in VTK_FORMATS:
            _write_vtk(joined(blocks), target, suffix, _one_image(blocks), binary)
        else:
            assert meshio_format is not None  # checked on the way in
            _write_meshio(joined(blocks), target, meshio_format)


# -- choosing what to write ---------------------------------------------------------------


def _blocks_of(given: pv.PolyData | pv.MultiBlock) -> pv.MultiBlock:
    """A frame given as a mesh (or a pose's MultiBlock) as the surfaces a model's ``blocks()`` gives."""
    if isinstance(given, pv.MultiBlock):
        return given
    out = pv.MultiBlock()
    name = given.field_data[keys.SURFACE_NAME][0] if keys.SURFACE_NAME in given.field_data else ''
    out.append(given, str(name))
    return out


def joined(blocks: pv.MultiBlock) -> pv.PolyData:
    """A pose as one mesh for a file: its surfaces joined (:func:`~pyvista_quake.model.mesh.joined`), each
    cell's surface number in ``cell_data['surface']``."""
    out = joined_mesh(blocks)
    out.cell_data['surface'] = out.cell_data.pop(keys.SURFACE_INDEX)
    return out


def _one_image(blocks: pv.MultiBlock) -> np.ndarray | None:
    """The image of a pose of one surface (a file of one mesh names one texture); ``None`` for several."""
    images = [block.quake.image() for block in blocks if block is not None]
    return images[0] if len(images) == 1 else None


def _write_images(blocks: pv.MultiBlock, target: Path) -> list[str]:
    """Each surface's image as a PNG beside ``target``, an image several share once: their file names
    (``''`` for a surface without one).  One surface's is ``<name>.png``, several ``<name>_<k>.png``."""
    images = [block.quake.image() for block in blocks if block is not None]
    names: list[str] = []
    written: dict[bytes, str] = {}
    for k, image in enumerate(images):
        if image is None:
            names.append('')
            continue
        encoded = png_bytes(image)
        if encoded not in written:
            written[encoded] = f'{target.stem}.png' if len(images) == 1 else f'{target.stem}_{k}.png'
            (target.parent / written[encoded]).write_bytes(encoded)
        names.append(written[encoded])
    return names


def _plain(mesh: pv.PolyData) -> pv.PolyData:
    """The mesh without the encoded skin arrays (formats that keep field data keep the rest)."""
    # A new mesh sharing the arrays: copy() reads PyVista's own attributes of the block, which a block that
    # VTK hands back under a new wrapper may not have.
    out = pv.PolyData()
    out.shallow_copy(mesh)
    for name in keys.SKIN_KEYS:
        if name in out.field_data:
            del out.field_data[name]
    return out


#: Extensions meshio gives to several formats, and the one users mean.
PREFERRED_MESHIO = {'.msh': 'gmsh'}


def _meshio_format(suffix: str) -> str | None:
    formats = meshio.extension_to_filetypes.get(suffix, [])
    if not formats or suffix in model_extensions():
        return None
    return PREFERRED_MESHIO.get(suffix, formats[0])


def _write_meshio(mesh: pv.PolyData, target: Path, file_format: str) -> None:
    converted = pv.to_meshio(_plain(mesh))
    try:
        meshio.write(target, converted, file_format=file_format)
    except meshio.WriteError:
        # Some formats (Gmsh) take 1, 3 or 9 components only: texture coordinates go.
        converted.point_data = {k: v for k, v in converted.point_data.items() if v.ndim == 1 or v.shape[1] in (1, 3, 9)}
        meshio.write(target, converted, file_format=file_format)


# -- one frame ------------------------------------------------------------------------------


def _write_vtk(mesh: pv.PolyData, target: Path, suffix: str, skin: np.ndarray | None, binary: bool) -> None:
    texture_name = f'{target.stem}.png'
    if suffix in ('.vtp', '.vtk'):
        mesh.save(target, binary=binary)
    elif suffix == '.vtu':
        mesh.cast_to_unstructured_grid().save(target, binary=binary)
    elif suffix == '.stl':
        mesh.save(target, binary=binary)
    elif suffix == '.ply':
        writer = vtkPLYWriter()
        writer.SetFileName(str(target))
        writer.SetInputData(_plain(mesh))
        writer.SetFileTypeToBinary() if binary else writer.SetFileTypeToASCII()
        writer.SetTextureCoordinatesNameToUV()
        if skin is not None:
            writer.AddComment(f'TextureFile {texture_name}')  # read by VTK and MeshLab
        writer.Write()
    if skin is not None and suffix == '.ply':
        (target.parent / texture_name).write_bytes(png_bytes(skin))


# -- OBJ ------------------------------------------------------------------------------------


def _write_obj(blocks: pv.MultiBlock, target: Path) -> None:
    """OBJ with one object and material per surface, each with its image (VTK's writer knows one texture only)."""
    lines = [f'mtllib {target.stem}.mtl']
    materials = []
    offset = 1
    surfaces = [(name, block) for name, block in zip(blocks.keys(), blocks) if block is not None]
    for k, ((name, block), texture) in enumerate(zip(surfaces, _write_images(blocks, target))):
        material = f'surface{k}'
        materials.append(f'newmtl {material}\nKa 1 1 1\nKd 1 1 1')
        if texture:
            materials[-1] += f'\nmap_Kd {texture}'
            if has_cut_out(block.quake.image()):
                materials[-1] += f'\nmap_d {texture}'  # the cut-out mask, from the image's alpha
        points = np.asarray(block.points, np.float64).reshape(-1, 3)
        uv = block.active_texture_coordinates
        normals = block.point_data.get('Normals')
        faces = np.asarray(block.regular_faces, np.int64).reshape(-1, 3) + offset if block.n_cells else np.empty((0, 3), np.int64)
        lines.append(f'o {name or material}')
        lines.append(_rows('v %.6g %.6g %.6g', points))
        lines.append(_rows('vt %.6g %.6g', np.zeros((len(points), 2)) if uv is None else np.asarray(uv, np.float64)))
        lines.append(_rows('vn %.6g %.6g %.6g', np.zeros((len(points), 3)) if normals is None else np.asarray(normals, np.float64)))
        lines.append(f'usemtl {material}')
        lines.append(_rows('f %d/%d/%d %d/%d/%d %d/%d/%d', np.repeat(faces, 3, axis=1)))
        offset += len(points)
    target.write_text('\n'.join(line for line in lines if line) + '\n')
    (target.parent / f'{target.stem}.mtl').write_text('\n\n'.join(materials) + '\n')


def _rows(row: str, values: np.ndarray) -> str:
    """``row % values[i]`` for every row, newline-joined, in one formatting call (no loop over the rows)."""
    if not len(values):
        return ''
    return '\n'.join([row] * len(values)) % tuple(values.ravel().tolist())


def _write_player_gltf(player: QuakePlayer, pairs: list[tuple[str, Any, Any, frozenset]], target: Path, quantize: bool = False) -> None:
    """A player as glTF: the parts as nodes, each on its parent's tag, and an animation per ``(name, legs, torso,
    moves)`` keyed over that pair's series (the morph targets of a part: every frame any of them plays).

    An animation keys only what the parts in ``moves`` move: the legs (``'lower'``) key their frames and where
    the torso sits on them, the torso (``'upper'``) its frames and where the head sits, so that a legs and a
    torso animation play together, as the game plays them.
    """
    names = ('lower', 'upper', 'head')
    clips = []
    moving = []
    for clip, legs, torso, moves in pairs:
        moving.append(moves)
        times = np.asarray(player.series(legs, torso).time_values, np.float64)
        keyed = {
            'lower': [player.frames('lower', legs, t) for t in times],
            'upper': [player.frames('upper', torso, t) for t in times],
            'head': [(0, 0, 0.0)] * len(times),
        }
        clips.append((clip, times, keyed))
    nodes = []
    for index, name in enumerate(names):
        model = player.parts[name]
        used = np.unique([f for _, _, keyed in clips for a, b, _ in keyed[name] for f in (a, b)])
        keys = []
        for (_, times, keyed), moves in zip(clips, moving):
            weights = np.zeros((len(times), len(used)), np.float32)
            for k, (a, b, alpha) in enumerate(keyed[name]):
                weights[k, np.searchsorted(used, a)] += 1 - alpha
                weights[k, np.searchsorted(used, b)] += alpha
            translations = rotations = None
            if index and ('lower' if name == 'upper' else 'upper') in moves:
                parent, tag = ('lower', 'tag_torso') if name == 'upper' else ('upper', 'tag_head')
                placed = [player.tag_on(parent, tag, frames) for frames in keyed[parent]]
                translations, rotations = np.array([p[0] for p in placed]), np.array([p[1] for p in placed])
            keys.append(Keys(weights if name in moves else None, translations, rotations))
        first = model.blocks(int(used[0]))
        positions, normals = _per_surface(model, used)
        parts = [Part(positions[s], normals[s], block, block.quake.image()) for s, block in enumerate(first) if block.n_cells]
        nodes.append(Node(name, parts, index - 1 if index else None, keys))
    _save_gltf(build_gltf_nodes(nodes, [(clip, times) for clip, times, _ in clips], quantize), target)


def _per_surface(model: QuakeModel, frames) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Positions and normals of each surface over ``frames``."""
    return [s.positions(frames) for s in model.surfaces], [s.normals(frames) for s in model.surfaces]


def _save_gltf(gltf, target: Path) -> None:
    """Binary ``.glb``, or ``.gltf`` JSON with its buffers embedded."""
    if target.suffix.lower() == '.glb':
        gltf.save_binary(str(target))
    else:
        gltf.convert_buffers(BufferFormat.DATAURI)
        gltf.save_json(str(target))


def _write_gltf_surfaces(model, given, animation, target: Path, quantize: bool = False) -> None:
    if model is None:
        parts = [Part(np.asarray(b.points)[None], np.asarray(b.point_data['Normals'])[None], b, b.quake.image()) for b in given if b is not None]
        gltf = build_gltf_parts(parts, [], quantize=quantize)
    else:
        clip_list = [model.animation(animation)] if animation is not None or not model.animations else list(model.animations.values())
        frames = np.unique(np.concatenate([c.frames for c in clip_list]))
        first = model.blocks(int(frames[0]))
        atlas = lit_blocks(model, list(first))  # a level's lightmaps: TEXCOORD_1 and the atlas
        positions, normals = _per_surface(model, frames)
        parts = [Part(positions[k], normals[k], block, block.quake.image(), atlas) for k, block in enumerate(first) if block.n_cells]
        gltf = build_gltf_parts(parts, [(c, frames) for c in clip_list], Path(model.source).stem or 'model', quantize)
    _save_gltf(gltf, target)


def _write_skeletal_gltf(model: QuakeModel, skeletal: SkeletalPart, animation, target: Path, quantize: bool = False) -> None:
    """A skeletal model's glTF: its bind pose skinned by its joints, each animation keyed on them."""
    first = skeletal.bind_pose()
    parts = []
    for _k, (block, surface) in enumerate(zip(first, skeletal.data.surfaces)):
        if block.n_cells:
            skin = weights_of(surface)
            joints, weights = four_weights(skin.joints, skin.weights)
            parts.append(SkinnedPart(block, joints, weights, block.quake.image()))
    clips = [model.animation(animation)] if animation is not None else list(model.animations.values())
    animations = []
    for clip in clips:
        poses = skeletal.joint_poses(clip.frames)
        times = np.asarray(clip.times, np.float64)
        if clip.duration > times[-1]:  # the loop blends back into its first frame, as the engines loop
            times = np.append(times, clip.duration)
            poses = np.concatenate([poses, poses[:1]])
        animations.append((clip.name, times, poses))
    names = [j.name for j in skeletal.joints]
    gltf = build_gltf_skinned(
        parts,
        names,
        [j.parent for j in skeletal.joints],
        skeletal.rest_locals(),
        skeletal.inverse_bind(),
        animations,
        Path(model.source).stem or 'model',
        quantize,
    )
    _save_gltf(gltf, target)


def four_weights(joints: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each vertex's four largest weights, summing to 1, and their joints (0 where unused), as glTF takes them."""
    n = len(joints)
    order = np.argsort(-weights, axis=1, kind='stable')[:, :4]
    top_joints = np.take_along_axis(joints, order, axis=1)
    top = np.take_along_axis(weights, order, axis=1).astype(np.float64)
    pad = 4 - top.shape[1]
    if pad > 0:
        top_joints = np.concatenate([top_joints, np.zeros((n, pad), top_joints.dtype)], axis=1)
        top = np.concatenate([top, np.zeros((n, pad))], axis=1)
    total = top.sum(axis=1, keepdims=True)
    top = np.divide(top, total, out=np.tile([1.0, 0, 0, 0], (n, 1)), where=total > 0)
    top_joints = np.where((top > 0) & (total > 0), top_joints, 0)  # no weight at all: joint 0, fully
    return top_joints.astype(np.uint16), top.astype(np.float32)


# -- whole animations ---------------------------------------------------------------------


def _write_series(model, given, animation, target: Path, progress: bool) -> None:
    """A ParaView ``.pvd`` collection or an XDMF time series of an animation (or of the one frame given),
    every pose joined as :func:`joined` joins it, each surface's image written once beside it."""
    if model is None:
        first, frames, times = _blocks_of(given), [0], np.zeros(1)
    else:
        clip = model.animation(animation)
        first, frames, times = model.blocks(int(clip.frames[0])), clip.frames, np.asarray(clip.times, np.float64)
    textures = _write_images(first, target)

    def pose(k: int) -> pv.PolyData:  # one at a time: a long animation is never held whole
        return _plain(joined(first if k == 0 else model.blocks(int(frames[k]))))

    steps = _steps(list(enumerate(times)), progress, f'{target.name}: frames')
    if target.suffix.lower() == '.pvd':
        _write_collection(pose, steps, textures, target)
        return
    base = pose(0)
    uv = base.active_texture_coordinates
    with _xdmf_writer(target) as writer:
        writer.write_points_cells(np.asarray(base.points), [('triangle', np.asarray(base.regular_faces))])
        for k, t in steps:
            mesh = base if k == 0 else pose(k)
            point_data = {
                'positions': np.asarray(mesh.points),
                'displacement': np.asarray(mesh.points) - np.asarray(base.points),
                'Normals': np.asarray(mesh.point_data['Normals']),
            }
            if uv is not None:
                point_data['TextureCoordinates'] = np.asarray(uv)
            writer.write_data(float(t), point_data=point_data, cell_data={'surface': [np.asarray(mesh.cell_data['surface'])]})


def _steps(items: list, progress: bool, what: str):
    """The items, with a progress bar (rich) when asked for."""
    if not progress:
        yield from items
        return
    from rich.progress import Progress  # noqa: PLC0415 - rich comes with PyVista; only a bar needs it

    with Progress(transient=True) as bar:
        task = bar.add_task(what, total=len(items))
        for item in items:
            yield item
            bar.advance(task)


def _write_collection(pose, steps, textures: list[str], target: Path) -> None:
    """A ParaView collection: ``pose(k)`` as a ``.vtp`` per step (made one at a time, naming its images
    instead of holding them) in a folder named after ``target``, and the ``.pvd`` timing them."""
    folder = target.parent / target.stem
    folder.mkdir()
    collection = ElementTree.Element('VTKFile', type='Collection', version='0.1', byte_order='LittleEndian')
    datasets = ElementTree.SubElement(collection, 'Collection')
    for k, t in steps:
        name = f'{target.stem}_{k:04d}.vtp'
        mesh = pose(k)
        if any(textures):
            mesh.field_data[keys.TEXTURE_FILE] = textures
        mesh.save(folder / name)
        ElementTree.SubElement(datasets, 'DataSet', timestep=repr(float(t)), group='', part='0', file=f'{target.stem}/{name}')
    ElementTree.ElementTree(collection).write(target, xml_declaration=True, encoding='utf-8')


class _SharedArrays:
    """The HDF5 file meshio writes a series into: each array compressed, and stored once.

    A step's texture coordinates (and a still frame's positions) repeat the
    step before; a repeat becomes a hard link to the first copy.
    """

    def __init__(self, path: Path) -> None:
        self.file = h5py.File(path, 'w')
        self.seen: dict[tuple[str, tuple[int, ...], bytes], str] = {}

    def create_dataset(self, name: str, data: np.ndarray) -> None:
        data = np.ascontiguousarray(data)
        key = (data.dtype.str, data.shape, hashlib.blake2b(data.tobytes(), digest_size=16).digest())
        if key in self.seen:
            self.file[name] = self.file[self.seen[key]]
            return
        self.seen[key] = name
        self.file.create_dataset(name, data=data, compression='gzip', compression_opts=4, shuffle=True)

    def close(self) -> None:
        self.file.close()


@contextmanager
def _xdmf_writer(target: Path) -> Iterator[meshio.xdmf.TimeSeriesWriter]:
    """meshio's XDMF writer with its HDF5 file beside ``target``.

    meshio opens ``NAME.h5`` in the current folder and names it by its base
    name, which the reader resolves beside the ``.xdmf``; the file is opened
    here at that place instead, so the pair lands together wherever it is written.
    """
    writer = meshio.xdmf.TimeSeriesWriter(target, data_format='HDF')
    writer.h5_filename = str(target.with_suffix('.h5'))
    writer.h5_file = _SharedArrays(target.with_suffix('.h5'))
    try:
        yield writer
    finally:
        writer.__exit__()


# -- meshio -------------------------------------------------------------------------------


def to_meshio(source: Any, frame: int = 0, **options: Any) -> meshio.Mesh:
    """One frame as a :class:`meshio.Mesh`: triangles, ``Normals`` and ``TextureCoordinates`` point data.

    ``meshio.read("tris.md2")`` gives frame 0 this way; this function picks any frame.
    """
    model = source if is_model(source) else load(source, **options)
    mesh = model.mesh(frame)
    return meshio.Mesh(
        np.asarray(mesh.points),
        [('triangle', np.asarray(mesh.regular_faces))],
        point_data={
            'Normals': np.asarray(mesh.point_data['Normals']),
            'TextureCoordinates': np.asarray(mesh.active_texture_coordinates),
            keys.VERTEX_INDEX: np.asarray(mesh.point_data[keys.VERTEX_INDEX]),
        },
    )


def _meshio_read(filename) -> meshio.Mesh:
    return to_meshio(filename, skin=None)


def _meshio_write(filename, mesh: meshio.Mesh) -> None:
    suffix = Path(filename).suffix.lower()
    QuakeModel.from_frames(pv.from_meshio(mesh), suffix[1:]).save(filename)


def register_meshio(spec: FormatSpec) -> None:
    """Make ``meshio.read``/``meshio.write`` know a registered model format."""
    meshio.register_format(spec.name, list(spec.extensions), _meshio_read, {spec.name: _meshio_write})


for _spec in dict.values(FORMATS):  # the built-in formats; the rest as they register
    register_meshio(_spec)
LISTENERS.append(register_meshio)
