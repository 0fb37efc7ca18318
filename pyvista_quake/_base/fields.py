"""Field-data keys of a Quake frame, written and read in this one place.

Every PolyData a model builds carries its metadata and its skin in
``field_data`` under these names; :mod:`pyvista_quake.model.quake_model` writes them and
:mod:`pyvista_quake.plugin.accessor` (``mesh.quake``) and the writers read them.
"""

from __future__ import annotations

import numpy as np

FORMAT = 'format'
SOURCE = 'source'
FRAME_NAME = 'frame_name'
FRAME_INDEX = 'frame_index'
TIME = 'time'
SCALE = 'scale'
TRANSLATE = 'translate'
SCALE_ORIGIN = 'scale_origin'
NUM_SKINS = 'num_skins'
SKIN_NAMES = 'skin_names'
SKIN_WIDTH = 'skin_width'
SKIN_HEIGHT = 'skin_height'

# The skin itself (see ``ModelSkins.field_data``).
SKIN_INDEX = 'skin_index'
SKIN_NAME = 'skin_name'
SKIN_LOCATION = 'skin_location'
SKIN_FILE = 'skin_file'
SKIN_PIXELS = 'skin_pixels'
SKIN_PICTURE_SHAPE = 'skin_picture_shape'
SKIN_PALETTE = 'skin_palette'
SKIN_TIMES = 'skin_times'
#: 1 when palette index 255 is transparent (an MDL with MF_HOLEY, drawn as QuakeSpasm does).
SKIN_HOLEY = 'skin_holey'
#: How a skin's alpha is drawn (MD3, from its shader): ``opaque``, ``cutout``, ``blend`` or ``add``.
SKIN_ALPHA = 'skin_alpha'
#: The keys that describe which skin a mesh carries; replaced together by ``set_skin``.
SKIN_KEYS = (SKIN_INDEX, SKIN_NAME, SKIN_LOCATION, SKIN_FILE, SKIN_PIXELS, SKIN_PICTURE_SHAPE, SKIN_PALETTE, SKIN_TIMES, SKIN_HOLEY, SKIN_ALPHA)

#: Which surface of an MD3 a block is: its name and number.
SURFACE_NAME = 'surface_name'
SURFACE_INDEX = 'surface_index'
SURFACE_NAMES = 'surface_names'
#: A level surface's brush model: 0 the world, N the entity model ``*N``.
BRUSH_MODEL = 'brush_model'

#: A series' frames name the skin written once beside the series (``<series>.png``), relative to it.
TEXTURE_FILE = 'texture_file'

# Point and cell arrays.
VERTEX_INDEX = 'vertex_index'
GLCMD = 'glcmd'

#: MDL header fields copied into field data, with their dtypes.
MDL_HEADER_FIELDS = {
    'flags': np.int32,
    'synctype': np.int32,
    'eyeposition': np.float32,
    'boundingradius': np.float32,
    'size': np.float32,
    SCALE: np.float32,
    SCALE_ORIGIN: np.float32,
}
MDL_NAMES = ('flag_names', 'synctype_name')
#: Header counts copied into field data (MD2 and MDL spellings).
HEADER_COUNTS = ('num_xyz', 'num_st', 'num_tris', 'num_glcmds', 'num_frames', 'numverts', 'numtris', 'numframes')


def model_metadata(data, num_skins: int) -> dict:
    """Field data every frame of a model shares: format, skins, header fields.

    Parameters
    ----------
    data : AliasData
        The model's content.
    num_skins : int
        Skins the model has (MD2 names, MDL pictures).

    """
    meta = {
        FORMAT: [data.format],
        SKIN_WIDTH: np.array([data.skin_width], np.int32),
        SKIN_HEIGHT: np.array([data.skin_height], np.int32),
        NUM_SKINS: np.array([num_skins], np.int32),
    }
    if data.source and not data.source.startswith('<'):
        meta[SOURCE] = [data.source]
    if data.skin_names:
        meta[SKIN_NAMES] = list(data.skin_names)
    h = data.header
    if data.palette_skins:  # an MDL's header
        for key, dtype in MDL_HEADER_FIELDS.items():
            meta[key] = np.array(h[key], dtype).reshape(-1)
        for key in MDL_NAMES:
            value = h[key]
            meta[key] = (value or ['']) if isinstance(value, list) else [value]
    for key in HEADER_COUNTS:
        if key in h:
            meta[key] = np.array([h[key]], np.int32)
    return meta


def frame_fields(data, frame: int, name: str) -> dict:
    """Field data of one frame: its name, number and (MD2) its own scale and translate."""
    fields = {FRAME_NAME: [name], FRAME_INDEX: np.array([frame], np.int32)}
    if data.own_frame_scales:
        fields[SCALE] = np.array(data.frame_scale[frame], np.float32)
        fields[TRANSLATE] = np.array(data.frame_translate[frame], np.float32)
    return fields
