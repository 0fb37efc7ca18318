"""Pictures of models: plots, thumbnails, contact sheets, GIF and MP4, right on the first try.

Every picture goes through :func:`scene`: the frame textured with its skin,
lit by normals that suit it (``lighting="auto"`` computes them from the
geometry when the stored ones are constant or disagree with it, as UFO: AI's
renderer does), a cut-out skin drawn as a mask (texels under half opacity
are not drawn, the rest opaque), and a camera on a three-quarter front view
(Quake models face +x with z up) that frames the model.  Batches live in
:mod:`pyvista_quake.render.batch`.
"""

from __future__ import annotations

import inspect
import os
from pathlib import Path
import sys
from typing import Any
from typing import NamedTuple

import numpy as np
import pyvista as pv
from vtkmodules.vtkCommonDataModel import vtkDataObject
from vtkmodules.vtkRenderingCore import vtkPolyDataMapper
from vtkmodules.vtkRenderingCore import vtkTexture

from pyvista_quake._base import fields as keys
from pyvista_quake._base.errors import NothingToDrawError
from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake._base.files import atomic_write
from pyvista_quake._base.files import staged
from pyvista_quake._base.options import split_options
from pyvista_quake._base.warnings import warn_external
from pyvista_quake.data.decode import vertex_face_normals
from pyvista_quake.game.skins import has_cut_out
from pyvista_quake.game.skins import png_bytes
from pyvista_quake.model.demos import Demo
from pyvista_quake.model.demos import is_demo
from pyvista_quake.model.lightmaps import lit_blocks
from pyvista_quake.model.loading import skin_of
from pyvista_quake.model.mesh import field_text
from pyvista_quake.model.mesh import flattened
from pyvista_quake.model.mesh import image_texture
from pyvista_quake.model.mesh import spawn_view
from pyvista_quake.model.players import model_or_player
from pyvista_quake.model.posing import posable
from pyvista_quake.model.posing import posable_or_mesh
from pyvista_quake.model.quake_model import QuakeModel
from pyvista_quake.model.quake_model import why_nothing_to_draw


class Prepared(NamedTuple):
    """What :func:`prepare` gives a picture."""

    mesh: pv.PolyData | pv.MultiBlock
    skins: np.ndarray | list[np.ndarray | None] | None
    atlas: np.ndarray | None
    #: A level's: ``(eye, yaw in degrees)`` of a player start, or ``'above'``; a model's: the direction
    #: to its camera its format asks for (a sprite's, facing it), or ``None`` for the three-quarter front view.
    view: tuple[np.ndarray, float] | str | np.ndarray | None = None


#: A player's horizontal field of view in the games (``cg_fov`` / ``fov`` 90).
PLAYER_FOV = 90.0
#: Direction from the model to the camera: in front (+x), to its right (-y), a little above.
VIEW_DIRECTION = np.array([1.0, -0.8, 0.45])
#: Share of the picture's height the model's bounding sphere fills.
FILL = 0.92
#: Stored normals agreeing with the geometry less than this on average are replaced under "auto".
AGREEMENT = 0.5
#: Texels with less alpha than this are cut out of a cut-out skin (the games' alpha test).
ALPHA_CUTOFF = 128
#: What ``lighting=`` takes.
LIGHTING = ('auto', 'stored', 'computed')


def take_lighting(options: dict[str, Any], default: str = 'auto') -> str:
    """Pop ``lighting`` from ``options`` (or the old ``normals`` keyword, with a ``DeprecationWarning``).

    ``normals`` was renamed because it shadowed the load option of that name.
    """
    lighting = options.pop('lighting', default)
    if 'normals' in options:
        warn_external(
            "the pictures' normals= keyword is now lighting=; normals= will be the load option (stored or computed normals of the frames)",
            DeprecationWarning,
        )
        lighting = options.pop('normals')
    if lighting not in LIGHTING:
        raise ValueError(f"lighting must be 'auto', 'stored' or 'computed', not {lighting!r}")
    return lighting


def prepare(
    source: Any,
    frame: int | None = None,
    animation: str | None = None,
    time: float | None = None,
    lighting: str = 'auto',
    weapon: Any = None,
    **load_options: Any,
) -> Prepared:
    """The mesh to draw, its skin image (RGB or RGBA, or ``None``), a level's lightmap atlas and where to look from.

    A model of several surfaces gives a MultiBlock and an image a block.  A level with
    lightmaps gives the lightmap atlas (:func:`pyvista_quake.model.lightmaps.lightmap_atlas`) and its blocks
    ``point_data["lightmap_atlas"]``; a level's view is its first player start's eye, or ``'above'``.

    Parameters
    ----------
    source : str, pathlib.Path, bytes, QuakeModel or pyvista.PolyData
        The model, or a frame read by this package.
    frame, animation, time
        Which pose, as :func:`pyvista_quake.export` chooses it.
    lighting : {'auto', 'stored', 'computed'}, default: 'auto'
        Light by the file's normals, by normals computed from the geometry
        (smooth across texture seams), or by computed ones only where the
        stored ones are constant or disagree with the geometry.  (It was
        ``normals=``, which still works, with a ``DeprecationWarning``.)
    weapon : QuakeModel or path, optional
        A player's weapon, placed on its torso's ``tag_weapon``.
    **load_options
        Options of :func:`pyvista_quake.load` (``skin=None`` draws no skin).

    """
    lighting = take_lighting({'lighting': lighting, **load_options})
    load_options.pop('normals', None)
    poser, given = posable_or_mesh(source, **load_options)
    if poser is None and weapon is not None:
        raise ValueError("weapon= places a weapon on a player's tag_weapon; this is no player")
    # The model's own form of a pose: one PolyData (MD2, MDL), or its surfaces' MultiBlock (a player's parts').
    mesh = (given if poser is None else poser.posed(frame, animation, time, weapon)).copy(deep=False)
    model = poser.drawn if poser is not None else None  # a player's blocks carry their images
    several = isinstance(mesh, pv.MultiBlock)
    if several:
        mesh = flattened(mesh)  # a model of several surfaces: each block carries its own image
    for block in mesh if several else [mesh]:
        if lighting != 'stored' and keys.VERTEX_INDEX in block.point_data and block.n_cells:
            _light(block, lighting == 'computed')
    atlas = lit_blocks(model, list(mesh)) if several else None
    skins = [block.quake.image() for block in mesh] if several else skin_of(model, given)
    level = model.level if model is not None else None
    if level is not None:
        return Prepared(mesh, skins, atlas, spawn_view(level) or 'above')
    return Prepared(mesh, skins, atlas, view_of(model))


def view_of(model: Any) -> np.ndarray | None:
    """The direction to the camera a model's format asks its pictures to look from (``None``: the three-quarter front)."""
    spec = getattr(model, 'spec', None)  # a player's parts keep the three-quarter view
    return np.asarray(spec.view_from, np.float64) if spec is not None and spec.view_from is not None else None


def _light(mesh: pv.PolyData, always: bool) -> None:
    """Replace the point normals by the geometry's where asked or where the stored ones are no good."""
    vertex = np.asarray(mesh.point_data[keys.VERTEX_INDEX])
    points = np.asarray(mesh.points)
    # Normals per file vertex (shared by the points a texture seam splits), so shading is smooth across seams.
    positions = np.zeros((1, int(vertex.max()) + 1, 3), np.float32)
    positions[0, vertex] = points
    triangles = vertex[np.asarray(mesh.regular_faces if mesh.is_all_triangles else mesh.triangulate().regular_faces)]
    computed = vertex_face_normals(positions, triangles[:, ::-1])[0][vertex]
    stored = mesh.point_data.get('Normals')
    if not always and stored is not None:
        values = np.asarray(stored)
        distinct = len(np.unique(np.round(values, 4), axis=0))
        agreement = float(np.einsum('ij,ij->i', values, computed).mean())
        if distinct > 2 and agreement >= AGREEMENT:
            return
    mesh.point_data['Normals'] = computed
    mesh.point_data.active_normals_name = 'Normals'


def paints_nothing(mesh: pv.PolyData, image: np.ndarray | None) -> bool:
    """Whether a surface adds nothing a picture can show: an additive or blended shader stage whose image is
    missing (a rocket's flame) is left out rather than painted as an opaque card over the model."""
    return image is None and field_text(mesh, keys.SKIN_ALPHA) in ('add', 'blend')


def drawn_mesh(actor: pv.Actor) -> pv.PolyData:
    """The mesh an actor draws (changing its points changes the picture)."""
    mapper = actor.GetMapper()
    return mapper.dataset if hasattr(mapper, 'dataset') else pv.wrap(mapper.GetInput())


def _multiply_lightmap(actor: pv.Actor, lightmap: pv.Texture) -> None:
    """Draw an actor's texture multiplied by a lightmap, as the engine draws a lightmapped surface.

    VTK multiplies a second texture in (``VTK_TEXTURE_BLENDING_MODE_MODULATE``) when each is mapped to
    its own coordinates, which a plain ``vtkPolyDataMapper`` does (PyVista's ``DataSetMapper`` does not).
    """
    mesh = actor.mapper.dataset
    mapper = vtkPolyDataMapper()
    mapper.SetInputData(mesh)
    if 'vertex_light' in mesh.point_data:
        # Quake III's vertex-lit faces: their brightened vertex colours (white elsewhere) times the textures.
        mapper.ScalarVisibilityOn()
        mapper.SetScalarModeToUsePointFieldData()
        mapper.SelectColorArray('vertex_light')
        mapper.SetColorModeToDirectScalars()
    else:
        mapper.ScalarVisibilityOff()
    points = vtkDataObject.FIELD_ASSOCIATION_POINTS
    texture = actor.GetTexture()
    actor.SetTexture(None)
    prop = actor.GetProperty()
    if texture is not None:
        prop.SetTexture('diffuse', texture)  # before 'lightmap' by name: VTK combines them in name order
        mapper.MapDataArrayToMultiTextureAttribute('diffuse', mesh.GetPointData().GetTCoords().GetName(), points)
    lightmap.SetBlendingMode(vtkTexture.VTK_TEXTURE_BLENDING_MODE_MODULATE)
    prop.SetTexture('lightmap', lightmap)
    mapper.MapDataArrayToMultiTextureAttribute('lightmap', 'lightmap_atlas', points)
    prop.SetColor(1.0, 1.0, 1.0)
    prop.LightingOff()  # the lightmap is the light
    actor.SetMapper(mapper)


def add_model(plotter: pv.Plotter, mesh: pv.PolyData, skin: np.ndarray | None, lightmap: pv.Texture | None = None, **kwargs: Any) -> pv.Actor:
    """Add a prepared mesh to ``plotter``: textured, smooth-shaded, a cut-out skin as a mask; lit by
    ``lightmap`` (:func:`pyvista_quake.model.lightmaps.lightmap_atlas`) where the mesh has ``point_data["lightmap_atlas"]``."""
    options: dict[str, Any] = {'smooth_shading': True, 'render': False}  # the caller renders once, framed
    if 'scalars' in kwargs or 'color' in kwargs:
        skin = None  # coloured by data or by one colour: no texture over it
    if skin is not None and mesh.active_texture_coordinates is not None:
        if has_cut_out(skin):
            # Alpha test, as the games draw such skins: either a texel is drawn, opaque, or not at all.
            skin = skin.copy()
            skin[..., 3] = np.where(skin[..., 3] >= ALPHA_CUTOFF, 255, 0)
        elif skin.ndim == 3 and skin.shape[2] == 4:
            skin = skin[..., :3]
        options['texture'] = image_texture(np.ascontiguousarray(skin))
    elif 'scalars' not in kwargs:
        options['color'] = 'tan'
    lit = lightmap is not None and 'lightmap_atlas' in mesh.point_data
    if lit and 'texture' not in options:
        options['color'] = 'white'  # no image: the lightmap alone, as the engine draws an image it lacks
    options.update(kwargs)
    actor = plotter.add_mesh(mesh, **options)
    if lit:
        assert lightmap is not None
        _multiply_lightmap(actor, lightmap)
    if 'texture' in options and skin is not None and skin.ndim == 3 and skin.shape[2] == 4:
        # Drawn in the opaque pass: texels with alpha 0 are discarded, the rest are solid.
        actor.GetProperty().SetOpacity(1.0)
        actor.SetForceOpaque(True)
    return actor


def add_tags(plotter: pv.Plotter, model: QuakeModel, mesh, frame=None, animation=None, time=None) -> list:
    """Draw each tag of a model (an MD3's, or an MD2's UFO: AI ``.tag``) as three short lines along its axes (x red, y green, z blue); return the actors."""
    size = 0.1 * max(float(np.ptp(np.asarray(mesh.bounds).reshape(3, 2), axis=1).max()), 1e-6)
    clip = model.animation(animation)
    number = int(clip.frames[frame or 0])
    actors = []
    for name in model.tags:
        matrix = model.tag(name, time=time, animation=clip) if time is not None else model.tag(name, frame=number)
        origin = matrix[:3, 3]
        for axis, colour in zip(matrix[:3, :3].T, ('red', 'green', 'blue')):
            actors.append(plotter.add_mesh(pv.Line(origin, origin + size * axis), color=colour, line_width=3, render=False))
        actors.append(plotter.add_point_labels([origin], [name], font_size=10, point_size=1, render=False, always_visible=True))
    return actors


def stand_at(plotter: pv.Plotter, eye: np.ndarray, yaw: float) -> None:
    """Look as a player standing at ``eye`` facing ``yaw`` degrees does: level, with the games' 90 degrees across."""
    width, height = plotter.window_size
    plotter.camera.view_angle = float(np.degrees(2 * np.arctan(np.tan(np.radians(PLAYER_FOV / 2)) * height / width)))
    facing = np.radians(yaw)
    plotter.camera_position = [tuple(eye), tuple(eye + [np.cos(facing), np.sin(facing), 0.0]), (0.0, 0.0, 1.0)]
    plotter.reset_camera_clipping_range()


def frame_camera(
    plotter: pv.Plotter, mesh: pv.PolyData, bounds: np.ndarray | None = None, *, above: bool = False, direction: np.ndarray | None = None
) -> None:
    """Look at the model from the three-quarter front view (or straight down, +x up the picture; or from
    ``direction``), filling the picture.

    ``bounds`` (``xmin, xmax, ...``) frames more than the mesh: a whole animation.
    """
    box = np.asarray(mesh.bounds if bounds is None else bounds, np.float64).reshape(3, 2)
    centre = box.mean(axis=1)
    points = _points(mesh)
    if bounds is None and len(points):
        # The points' own sphere about the box centre: a round model fills the picture too.
        radius = float(np.linalg.norm(np.asarray(points, np.float64) - centre, axis=1).max())
    else:
        radius = float(np.linalg.norm(box[:, 1] - box[:, 0])) / 2
    radius = max(radius, 1e-6)
    view_angle = np.radians(plotter.camera.view_angle)
    distance = radius / np.sin(view_angle / 2) / FILL
    if above:  # the ground plan fills the picture: x up it, y across it, from over the highest point
        width, height = plotter.window_size
        across = np.tan(view_angle / 2)
        half = (box[:, 1] - box[:, 0]) / 2
        distance = max(half[0] / across, half[1] / (across * width / height)) / FILL + half[2]
    toward = np.array([0.0, 0.0, 1.0]) if above else VIEW_DIRECTION if direction is None else np.asarray(direction, np.float64)
    direction = toward / np.linalg.norm(toward)
    # Through camera_position, so PyVista knows the camera is set and keeps it at the next render.
    plotter.camera_position = [tuple(centre + distance * direction), tuple(centre), (1.0, 0.0, 0.0) if above else (0.0, 0.0, 1.0)]
    plotter.reset_camera_clipping_range()


def _points(mesh: pv.DataSet | pv.MultiBlock) -> np.ndarray:
    """Every point of a mesh, or of a MultiBlock's blocks."""
    if isinstance(mesh, pv.MultiBlock):
        parts = [np.asarray(block.points) for block in mesh if block is not None and block.n_points]
        return np.concatenate(parts) if parts else np.empty((0, 3))
    return np.asarray(mesh.points)


def scene(plotter: pv.Plotter, source: Any, **options: Any) -> pv.PolyData | pv.MultiBlock:
    """Clear ``plotter`` and show ``source`` in it, framed.

    ``options`` are :func:`prepare`'s, and ``add_mesh`` keywords for the rest.
    Returns the mesh the plotter draws (``add_mesh`` may have copied the one
    given): changing its points changes the picture.
    """
    load_options, rest = split_options(options)
    ours = set(inspect.signature(prepare).parameters) | {'normals'}
    mesh_options = {k: v for k, v in rest.items() if k not in ours}
    prepare_options = {k: v for k, v in rest.items() if k in ours}
    mesh, skin, atlas, view = prepare(source, **prepare_options, **load_options)
    plotter.clear_actors()
    if isinstance(mesh, pv.MultiBlock):
        assert isinstance(skin, list)  # an image a block
        lightmap = None
        if atlas is not None and 'scalars' not in mesh_options and 'color' not in mesh_options:
            lightmap = image_texture(atlas)
            lightmap.interpolate = True  # the engines filter lightmaps linearly
        drawn = pv.MultiBlock()
        for name, block, image in zip(mesh.keys(), mesh, skin):
            if block.n_points and not paints_nothing(block, image):
                drawn.append(drawn_mesh(add_model(plotter, block, image, lightmap=lightmap, **mesh_options)), name)
        mesh = drawn
    else:
        assert not isinstance(skin, list)  # one mesh, one image
        mesh = drawn_mesh(add_model(plotter, mesh, skin, **mesh_options))
    if isinstance(view, tuple):
        stand_at(plotter, *view)
    else:
        frame_camera(plotter, mesh, above=isinstance(view, str), direction=view if isinstance(view, np.ndarray) else None)
    # A reused plotter's screenshot shows its last render: render with this camera now.
    plotter.render()
    return mesh


#: The clients' colours over a level, one a client in turn.
CLIENT_COLOURS = ('#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#42d4f4', '#f032e6', '#bfef45', '#fabed4', '#469990')


#: The colour of the markers where frags were scored.
FRAG_COLOUR = '#ffe119'


def drawer(source: Any) -> Any:
    """What draws ``source`` in a plotter: :func:`demo_scene` for a demo, else :func:`scene`."""
    return demo_scene if is_demo(source) else scene


def demo_scene(plotter: pv.Plotter, demo: Demo, **options: Any) -> pv.MultiBlock:
    """Clear ``plotter`` and show a demo's trajectories, each client a colour, over its level (lightmapped, where the
    game's files hold it), frags marked (where the victim fell, or a Quake frag where its scorer was), framed from above
    on where the players went (a level's sky boxes and far corners left out).  ``options`` are :func:`scene`'s, for
    the level."""
    lines = demo.trajectories()
    colours = [CLIENT_COLOURS[int(c) % len(CLIENT_COLOURS)] for c in lines.cell_data['client']] if lines.n_cells else []
    events = demo.events
    scored = (((events['kind'] == 'frags') & (events['change'] > 0)) | (events['kind'] == 'frag')) & np.isfinite(events['x'])
    bounds = None
    if lines.n_cells:
        box = np.asarray(lines.bounds, np.float64)
        margin = np.repeat(0.1 * (box[1::2] - box[0::2]) + 128.0, 2) * np.tile([-1.0, 1.0], 3)
        bounds = box + margin
    markers = np.column_stack([events['x'], events['y'], events['z']])[scored]
    return paths_scene(plotter, demo.level, lines, colours, markers, bounds=bounds, **options)


def paths_scene(
    plotter: pv.Plotter,
    level: Any,
    lines: pv.PolyData,
    colours: list[Any],
    markers: np.ndarray | None = None,
    bounds: Any = None,
    **options: Any,
) -> pv.MultiBlock:
    """Clear ``plotter`` and show ``lines`` (a colour a cell) and ``markers`` (points) over ``level`` (none: the lines
    alone), framed from above on ``bounds`` (by default all of it: a level's sky box too).  ``options`` are
    :func:`scene`'s, for the level."""
    plotter.clear_actors()
    drawn = pv.MultiBlock()
    if level is not None:  # seen from above, its faces' backs culled: the ceilings and sky over the floors let them show
        drawn.append(scene(plotter, level, **{'culling': 'back', **options}), 'level')
    if lines.n_cells:
        shown = lines.copy(deep=False)
        shown.cell_data['colour'] = np.array([pv.Color(c).int_rgb for c in colours], np.uint8)
        plotter.add_mesh(shown, scalars='colour', rgb=True, line_width=3, render_lines_as_tubes=True, lighting=False)
        drawn.append(lines, 'paths')
    if markers is not None and len(markers):
        plotter.add_points(np.asarray(markers, np.float64), color=FRAG_COLOUR, point_size=12, render_points_as_spheres=True, lighting=False)
    boxes = [np.asarray(b.bounds, np.float64) for b in drawn if b is not None] if bounds is None else [np.asarray(bounds, np.float64)]
    boxes = [b for b in boxes if np.isfinite(b).all() and (b[1::2] >= b[0::2]).all()]  # an empty mesh has none
    if boxes:
        box = np.array(boxes).reshape(len(boxes), 6)
        frame_camera(plotter, lines, np.column_stack([box[:, 0::2].min(axis=0), box[:, 1::2].max(axis=0)]).ravel(), above=True)
    plotter.render()
    return drawn


def paths_picture(
    level: Any, lines: pv.PolyData, path: str | Path, size: tuple[int, int] = (512, 512), colours: list[Any] | None = None, bounds: Any = None
) -> Path:
    """One offscreen PNG of ``lines`` over ``level`` from above (a route, trajectories), as :func:`paths_scene` draws them
    (framed on ``bounds``, by default everything drawn)."""
    path = Path(path)
    drawing = internal_plotter(size)
    try:
        drawing.set_background('white')  # type: ignore[arg-type]  # PyVista's decorator hides the method's signature
        paths_scene(drawing, level, lines, colours or [CLIENT_COLOURS[0]] * lines.n_cells, bounds=bounds)
        atomic_write(path, png_bytes(screenshot(drawing), compress_level=1), sync=False)
    finally:
        drawing.close()
    return path


def plot(
    source: Any,
    frame: int | None = None,
    animation: str | None = None,
    time: float | None = None,
    skin: int | None = 0,
    lighting: str = 'auto',
    **kwargs: Any,
):
    """Plot a model textured, well lit and framed, as :meth:`pyvista.DataSet.plot` would.

    Parameters
    ----------
    source : str, pathlib.Path, QuakeModel, Demo or pyvista.PolyData
        The model, a demo (its trajectories over its level, from above), or a frame read by this package.
    frame, animation, time
        Which pose (see :func:`pyvista_quake.export`); frame 0 by default.
    skin : int or None, default: 0
        Which skin; ``None`` for none.
    lighting : {'auto', 'stored', 'computed'}, default: 'auto'
        See :func:`prepare`.
    show_tags : bool, default: False
        An MD3's tags as small axes (x red, y green, z blue), at the pose shown.
    **kwargs
        ``add_mesh`` keywords (``show_edges``, ``color``...) and ``show``
        keywords (``screenshot``, ``window_size``, ``off_screen``, ``show_axes``...).

    Returns
    -------
    Any
        What :meth:`pyvista.Plotter.show` returns.

    """
    lighting = take_lighting({'lighting': lighting, **kwargs})
    kwargs.pop('normals', None)
    plotter_keys = ('off_screen', 'window_size', 'notebook')
    plotter_options = {k: kwargs.pop(k) for k in plotter_keys if k in kwargs}
    # In a notebook, unless a backend is asked for: one PNG picture, shown by us (PyVista's static backend shows a
    # PIL image, which a notebook stores twice, as PNG and JPEG, after warning that trame is missing).
    as_picture = 'jupyter_backend' not in kwargs and plotter_options.get('notebook', True) and in_notebook()
    if as_picture:
        plotter_options.update(off_screen=True, notebook=False)
    if not has_display():
        plotter_options.setdefault('off_screen', True)  # no window to open: render offscreen, quietly
    with pv.vtk_verbosity('off'):
        plotter = pv.Plotter(**plotter_options)
    show_tags = kwargs.pop('show_tags', False)
    show_keys = set(inspect.signature(pv.Plotter.show).parameters) | {'show_axes'}
    mesh_options = {k: kwargs.pop(k) for k in list(kwargs) if k not in show_keys}
    load_options = {'skin': skin} if not isinstance(source, pv.DataSet) else {}
    if isinstance(source, pv.DataSet) and skin is None and 'scalars' not in mesh_options:
        mesh_options.setdefault('color', 'tan')  # a frame's own skin, turned off
    tagged = None
    if show_tags and not isinstance(source, (pv.DataSet, pv.MultiBlock)):
        load_options, others = split_options(mesh_options | load_options)
        poser, _ = posable_or_mesh(source, **load_options)
        assert poser is not None  # not a mesh: checked above
        source, tagged = poser.subject, poser.drawn  # a player's parts' tags join them: none shown
        mesh_options, load_options = others, {}
    if drawer(source) is demo_scene:
        mesh = demo_scene(plotter, source, lighting=lighting, **mesh_options)
    else:
        mesh = scene(plotter, source, frame=frame, animation=animation, time=time, lighting=lighting, **load_options, **mesh_options)
    if tagged is not None:
        add_tags(plotter, tagged, mesh, frame=frame, animation=animation, time=time)
    if kwargs.pop('show_axes', False):
        plotter.add_axes()  # type: ignore[call-arg]  # PyVista's decorator hides the method's signature
    if as_picture:
        return _show_picture(plotter, kwargs.get('screenshot'))
    return plotter.show(**kwargs)


def in_notebook() -> bool:
    """Whether this runs in a Jupyter kernel (a notebook, JupyterLab, VS Code's notebooks)."""
    shell = sys.modules.get('IPython')
    if shell is None:
        return False
    ip = shell.get_ipython()
    return ip is not None and 'IPKernelApp' in getattr(ip, 'config', {})


def _show_picture(plotter: pv.Plotter, path: Any = None) -> None:
    """Show the plotter's picture in the notebook as one PNG (written to ``path`` too, when given), and close it."""
    from IPython.display import Image  # noqa: PLC0415 - in a notebook, IPython is there
    from IPython.display import display  # noqa: PLC0415

    try:
        picture = screenshot(plotter)
    finally:
        plotter.close()
    data = png_bytes(picture)
    if path is not None and path is not True and path is not False:
        Path(path).write_bytes(data)
    display(Image(data=data, format='png'))


def screenshot(plotter: pv.Plotter, transparent_background: bool = False) -> np.ndarray:
    """The plotter's picture as an array (rendered offscreen)."""
    image = plotter.screenshot(None, transparent_background=transparent_background, return_img=True)
    assert image is not None  # asked to return it
    return np.asarray(image)


def thumbnail(
    source: Any,
    path: str | Path,
    size: tuple[int, int] = (256, 256),
    transparent: bool = False,
    background: Any = 'white',
    plotter: pv.Plotter | None = None,
    **options: Any,
) -> Path:
    """Render one offscreen PNG of a model, framed as :func:`plot` frames it.

    Parameters
    ----------
    source : str, pathlib.Path, QuakeModel, Demo or pyvista.PolyData
        The model, or a demo (its trajectories over its level, from above).
    path : str or pathlib.Path
        The PNG to write.
    size : tuple of int, default: (256, 256)
        Width and height in pixels.
    transparent : bool, default: False
        A transparent background (RGBA PNG).
    background : color, default: 'white'
        The background otherwise.
    plotter : pyvista.Plotter, optional
        An offscreen plotter to reuse (batches pass theirs).
    **options
        ``frame``, ``animation``, ``time``, ``lighting``, ``skin`` and other
        options of :func:`pyvista_quake.load`, ``add_mesh`` keywords.  With
        none of ``frame``, ``animation`` and ``time``, the model's rest pose:
        the first frame of its first animation named ``stand...`` or
        ``idle...`` (any case), else frame 0.

    Returns
    -------
    pathlib.Path
        The PNG written.

    """
    path = Path(path)
    if not isinstance(source, (pv.DataSet, pv.MultiBlock)) and drawer(source) is scene and not {'frame', 'animation', 'time'} & options.keys():
        # By default the rest pose: a thumbnail of a falling body (UFO: AI's frame 0) says little.
        options = {**options, 'lighting': take_lighting(options)}  # not the load option normals=
        load_options, others = split_options(options)
        poser, _ = posable_or_mesh(source, **load_options)
        assert poser is not None  # not a mesh: checked above
        source, options = poser.subject, {**others, **poser.rest()}
    own = plotter is None
    drawing = internal_plotter(size) if plotter is None else plotter
    try:
        if list(drawing.window_size) != list(size):
            drawing.window_size = list(size)  # renders: only when it changes
        drawing.set_background(background)
        draw = drawer(source)
        drawn = draw(drawing, source, **options)
        if draw is demo_scene and not drawn.n_blocks:
            raise NothingToDrawError(f"{source.source}: nothing to draw: no client moves and its level is not among the game's files")
        if draw is scene and not sum(b.n_cells for b in (drawn if isinstance(drawn, pv.MultiBlock) else [drawn]) if b is not None):
            raise NothingToDrawError(f'{getattr(source, "source", source)}: nothing to draw: {why_nothing_to_draw(_loaded(source))}')
        image = screenshot(drawing, transparent_background=transparent)
        atomic_write(path, png_bytes(image, compress_level=1), sync=False)  # fast: batches write many
    finally:
        if own:
            drawing.close()
    return path


def contact_sheet(
    source: Any,
    path: str | Path,
    animation: str | None = None,
    cell_size: tuple[int, int] = (192, 192),
    columns: int | None = None,
    **options: Any,
) -> Path:
    """A grid image: one labelled cell per animation (its first frame), or per frame of one animation.

    Parameters
    ----------
    source : str, pathlib.Path or QuakeModel
        The model.
    path : str or pathlib.Path
        The PNG to write.
    animation : str, optional
        One animation: a cell per frame.  By default a cell per animation.
    cell_size : tuple of int, default: (192, 192)
        Pixels of each cell.
    columns : int, optional
        Cells per row; about square by default.
    **options
        Options of :func:`pyvista_quake.load`, ``lighting``.

    """
    from PIL import Image  # noqa: PLC0415 - Pillow is only needed here and for skins
    from PIL import ImageDraw  # noqa: PLC0415

    lighting = take_lighting(options)
    poser, _ = posable_or_mesh(source, **options)
    if poser is None:
        raise ValueError('a contact sheet needs a model, not one frame')
    cells = poser.cells(animation)
    columns = columns or int(np.ceil(np.sqrt(len(cells))))
    rows = int(np.ceil(len(cells) / columns))
    width, height = cell_size
    label = 16
    sheet = Image.new('RGB', (columns * width, rows * (height + label)), 'white')
    draw = ImageDraw.Draw(sheet)
    plotter = internal_plotter((width, height))
    try:
        plotter.set_background('white')  # type: ignore[arg-type]  # PyVista's decorator hides the method's signature
        for k, (name, _, pose) in enumerate(cells):
            scene(plotter, poser.subject, **pose, lighting=lighting)
            image = screenshot(plotter)
            x, y = (k % columns) * width, (k // columns) * (height + label)
            sheet.paste(Image.fromarray(image), (x, y + label))
            draw.text((x + 4, y + 2), name, fill='black')
    finally:
        plotter.close()
    atomic_write(Path(path), png_bytes(np.asarray(sheet), compress_level=1), sync=False)
    return Path(path)


def sheet_cells(model, animation: str | None = None) -> list[tuple[str, int]]:
    """``(label, frame)`` of each cell of a contact sheet: a frame of one animation each, or each animation's first.

    Frames are labelled by name, or by number where the names do not tell
    them apart (UFO: AI names every frame ``FRAME 000......``); a player's
    cells are its animations, or the frames of one, the other part standing.
    """
    return [(label, frame) for label, frame, _ in posable(model).cells(animation)]


def animate(
    source: Any,
    path: str | Path,
    animation: str | None = None,
    fps: float | None = None,
    interpolate: bool = False,
    size: tuple[int, int] = (320, 320),
    **options: Any,
) -> int:
    """Write a GIF or MP4 of an animation, timed by its own frame times.

    Parameters
    ----------
    source : str, pathlib.Path or QuakeModel
        The model.
    path : str or pathlib.Path
        ``.gif`` (Pillow, each picture's duration in the hundredths of a
        second GIF counts in, spread so that the whole lasts as long as the
        animation) or ``.mp4`` (PyVista's ``open_movie``, with the ``movie``
        extra: ``imageio-ffmpeg``).
    animation : str, optional
        The animation; the model's first by default (every frame when it has none).
    fps : float, optional
        Pictures per second; by default one per frame at the animation's
        shortest frame time.
    interpolate : bool, default: False
        Blend between frames as the engines do, rather than hold each frame.
    size : tuple of int, default: (320, 320)
        Width and height in pixels.
    **options
        Options of :func:`pyvista_quake.load`, ``lighting``.

    Returns
    -------
    int
        The number of pictures written.

    Raises
    ------
    ValueError
        For a model or animation of one frame: there is nothing to animate.

    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in ('.gif', '.mp4'):
        raise ValueError(f'{path}: animations are written as .gif or .mp4')
    lighting = take_lighting(options)
    poser, _ = posable_or_mesh(source, **options)
    if poser is None:
        raise ValueError('an animation needs a model, not one frame')
    playback = poser.playback(animation, fps, interpolate)
    duration, rate = playback.duration, playback.rate
    if suffix == '.gif':
        rate = min(rate, 50.0)  # GIF's shortest honoured delay is 2 hundredths of a second
    count = max(1, int(round(duration * rate)))
    times = np.arange(count) / rate
    pictures: list[np.ndarray] = []
    with staged(path.parent) as stage:
        plotter = internal_plotter(size)
        try:
            plotter.set_background('white')  # type: ignore[arg-type]  # PyVista's decorator hides the method's signature
            if suffix != '.gif':
                _check_movie_support()
                plotter.open_movie(str(stage / path.name), framerate=rate)  # type: ignore[arg-type]  # imageio takes any rate; PyVista hints an int
            mesh = scene(plotter, poser.subject, **playback.start, lighting=lighting)
            every = playback.bounds(times)
            box = np.column_stack([every[:, 0::2].min(axis=0), every[:, 1::2].max(axis=0)]).ravel()
            frame_camera(plotter, mesh, box, direction=view_of(poser.drawn))
            for t in times:
                posed, *_ = prepare(playback.pose_at(float(t)), lighting=lighting)
                # The scene drew the surfaces that have points (a part may have an empty one): the same here.
                shown = [b for b in posed if b.n_points] if isinstance(posed, pv.MultiBlock) else [posed]
                for drawn, block in zip(mesh if isinstance(mesh, pv.MultiBlock) else [mesh], shown):
                    drawn.points = block.points
                    drawn.point_data['Normals'] = block.point_data['Normals']
                plotter.render()
                if suffix == '.gif':
                    pictures.append(screenshot(plotter))
                else:
                    plotter.write_frame()
        finally:
            plotter.close()
        if suffix == '.gif':
            _write_gif(stage / path.name, pictures, gif_delays(duration, count))
    return count


def gif_delays(duration: float, count: int) -> list[int]:
    """Milliseconds of each of ``count`` pictures, in GIF's whole hundredths, adding up to ``duration``.

    Each picture ends at its share of the duration rounded to the hundredth, so
    the rounding never accumulates: 30 fps alternates 30 and 40 ms.
    """
    ends = np.rint(np.arange(1, count + 1) * (max(duration, 0.02 * count) * 100 / count)).astype(np.int64)
    return (np.diff(ends, prepend=0) * 10).tolist()


def _write_gif(path: Path, pictures: list[np.ndarray], delays: list[int]) -> None:
    from PIL import Image  # noqa: PLC0415 - Pillow is only needed here and for skins

    images = [Image.fromarray(picture[..., :3]) for picture in pictures]
    images[0].save(path, save_all=True, append_images=images[1:], duration=delays, loop=0, optimize=False)


def has_display() -> bool:
    """Whether a window can be opened: on Linux and other X11/Wayland systems, a ``DISPLAY`` or ``WAYLAND_DISPLAY``."""
    if sys.platform.startswith(('win', 'darwin')):
        return True
    return bool(os.environ.get('DISPLAY') or os.environ.get('WAYLAND_DISPLAY'))


def internal_plotter(size: tuple[int, int]) -> pv.Plotter:
    """An offscreen plotter for the package's own pictures, not listed among the user's plotters
    (so a sphinx-gallery scrape or ``pyvista.close_all`` does not pick it up)."""
    from pyvista.plotting.plotter import _ALL_PLOTTERS  # noqa: PLC0415 - a private name, looked up when used

    # Its window is made at once, with VTK quiet: without a display, VTK warns that it
    # found none before it falls back to offscreen rendering by itself.
    with pv.vtk_verbosity('off'):
        plotter = pv.Plotter(off_screen=True, window_size=list(size))
        plotter.render()
    _ALL_PLOTTERS.pop(plotter._id_name, None)
    return plotter


def _check_movie_support() -> None:
    try:
        import imageio_ffmpeg  # noqa: F401, PLC0415
    except ImportError:
        raise ImportError('MP4 needs imageio-ffmpeg: pip install "pyvista-quake[movie]"') from None


def _loaded(source: Any) -> Any:
    """What a source loads as, to say why it draws nothing (a file read again only on that path); else the source."""
    try:
        loaded, _ = model_or_player(source)  # a model or player as it is; a file loaded
    except (QuakeFormatError, OSError, ValueError):
        return source
    return source if loaded is None else loaded
