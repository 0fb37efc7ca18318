"""Sprites: Quake's ``IDSP`` 1, Half-Life's ``IDSP`` 2, DarkPlaces' ``IDSP`` 32 and Quake II's ``IDS2`` 2.

A sprite is a picture a frame that the engine turns to face the viewer.  The four
kinds are told by ident and version, never by extension (Nexuiz names 32-bit
``IDSP`` sprites ``.sp2``).  The layouts below are named as ``spritegn.h`` and
``qfiles.h`` name the fields.

Each picture is a frame, frame groups flattened in file order; a group plays by
itself, its pictures timed by its intervals (the end of each, from the group's
start), as an MDL frame group: its times are 0 and its intervals before the last.
A group whose intervals do not increase plays as DarkPlaces plays every group,
each picture lasting the first interval.  Frame k's mesh is one quad of two triangles in the
plane x = 0, seen along +x (Quake's forward): the sprite's right along -y, its up
along +z, the corners at the engine's rectangle (Quake, Half-Life and DarkPlaces:
``left = origin[0]``, ``right = origin[0] + width``, ``up = origin[1]``,
``down = origin[1] - height``; Quake II: ``left = -origin_x``,
``right = width - origin_x``, ``down = -origin_y``, ``up = height - origin_y``).

Pictures: a Quake sprite's palette indices go through the game's palette, index
255 transparent; a Half-Life sprite's through its own palette as its ``texFormat``
says (``alpha-test``: index 255 a hole; ``index-alpha``: colour 255, alpha the
index; ``additive`` drawn added); a DarkPlaces sprite's are RGBA; a Quake II
sprite's frames name images the game finds.  DarkPlaces draws an image named after
the sprite and frame in place of an ``IDSP`` frame's own pixels where the game has
one (``model_sprite.c``, ``Mod_Sprite_SharedSetup``): ``progs/s_explod.spr_0``
for the frame entry 0 of the file, ``progs/s_explod.spr_2_1`` for picture 1 of
the group at entry 2 (a group of more than one picture), any image extension;
frames of no pixels (width or height 0) look for none.
"""

from __future__ import annotations

import numpy as np

from pyvista_quake.formats._common import Bounds
from pyvista_quake.formats.records import FrameGroup
from pyvista_quake.formats.records import ModelData
from pyvista_quake.formats.records import SurfaceData
from pyvista_quake.formats.records import cstrings
from pyvista_quake.formats.registry import register_format

IDENT = b'IDSP'
IDENT2 = b'IDS2'
#: ``IDSP`` versions: Quake's, Half-Life's and DarkPlaces' 32-bit sprites.
SPRITE_VERSION, SPRITEHL_VERSION, SPRITE32_VERSION = 1, 2, 32
#: ``IDS2`` version: Quake II's.
SPRITE2_VERSION = 2

HEADER = np.dtype(
    [
        ('ident', 'S4'),
        ('version', '<i4'),
        ('type', '<i4'),
        ('boundingradius', '<f4'),
        ('width', '<i4'),
        ('height', '<i4'),
        ('numframes', '<i4'),
        ('beamlength', '<f4'),
        ('synctype', '<i4'),
    ]
)
#: Half-Life's: Quake's with its ``texFormat`` after the type.
HEADER_HL = np.dtype(HEADER.descr[:3] + [('texFormat', '<i4')] + HEADER.descr[3:])
HEADER2 = np.dtype([('ident', 'S4'), ('version', '<i4'), ('numframes', '<i4')])
FRAME = np.dtype([('origin', '<i4', 2), ('width', '<i4'), ('height', '<i4')])
FRAME2 = np.dtype([('width', '<i4'), ('height', '<i4'), ('origin_x', '<i4'), ('origin_y', '<i4'), ('name', 'S64')])
FRAME_TYPE = np.dtype('<i4')  # SPR_SINGLE 0, SPR_GROUP 1
SPR_SINGLE, SPR_GROUP = 0, 1

#: Orientation types (``spritegn.h``), by number.
TYPES = ('vp_parallel_upright', 'facing_upright', 'vp_parallel', 'oriented', 'vp_parallel_oriented')
#: Sync types: every sprite in step, or each from a random start.
SYNC_TYPES = ('sync', 'rand')
#: Half-Life's ``texFormat``, by number, and how each draws its alpha.
TEX_FORMATS = ('normal', 'additive', 'index-alpha', 'alpha-test')
_TEX_ALPHA = {'normal': 'opaque', 'additive': 'add', 'index-alpha': 'blend', 'alpha-test': 'cutout'}


def sniff(head: bytes) -> bool:
    """Whether a file's first bytes are a sprite's: ``IDSP`` or ``IDS2`` (its version then says which kind, or refuses it)."""
    return head[:4] in (IDENT, IDENT2)


def read(data: bytes, source: str) -> ModelData:
    """Read a sprite into format-neutral data: a picture a frame, each frame one quad.

    Raises
    ------
    QuakeFormatError
        For what no engine loads: another ident or version, no frames, a Half-Life palette
        of other than 256 colours or an unknown ``texFormat``, counts below zero, pictures
        past the end of the file.

    """
    bounds = Bounds(source, len(data))
    if data[:4] == IDENT2:
        return _read_quake2(data, bounds)
    if len(data) < HEADER.itemsize or data[:4] != IDENT:
        raise bounds.error('ident', bytes(data[:4]), f'expected {IDENT!r} or {IDENT2!r}')
    version = int(np.frombuffer(data, '<i4', 1, 4)[0])
    if version not in (SPRITE_VERSION, SPRITEHL_VERSION, SPRITE32_VERSION):
        raise bounds.error(
            'version', version, f'expected {SPRITE_VERSION} (Quake), {SPRITEHL_VERSION} (Half-Life) or {SPRITE32_VERSION} (DarkPlaces)'
        )
    dtype = HEADER_HL if version == SPRITEHL_VERSION else HEADER
    if len(data) < dtype.itemsize:
        raise bounds.error('header', len(data), f'file shorter than the {dtype.itemsize}-byte header')
    header = np.frombuffer(data, dtype, 1)[0]
    h = {name: header[name].item() for name in dtype.names or ()}
    bounds.count('numframes', h['numframes'], 1)
    offset = dtype.itemsize
    palette = None
    alpha = 'cutout'  # Quake's index 255
    if version == SPRITEHL_VERSION:
        palette, alpha, offset = _hl_palette(data, bounds, h['texFormat'], offset)
    pixel = 4 if version == SPRITE32_VERSION else 1
    pictures: list[np.ndarray] = []
    rectangles: list[tuple[int, int, int, int]] = []
    names: list[str] = []
    images: list[str | None] = []
    groups: list[FrameGroup] = []
    for entry in range(h['numframes']):
        bounds.section(f'frames[{entry}].type', offset, 1, FRAME_TYPE.itemsize)
        kind = int(np.frombuffer(data, FRAME_TYPE, 1, offset)[0])
        offset += FRAME_TYPE.itemsize
        count = 1
        if kind != SPR_SINGLE:  # any other type is a group, as the engines read it
            bounds.section(f'frames[{entry}].numframes', offset, 1, 4)
            count = bounds.count(f'frames[{entry}].numframes', int(np.frombuffer(data, '<i4', 1, offset)[0]))
            offset += 4
            bounds.section(f'frames[{entry}].intervals', offset, count, 4)
            intervals = np.frombuffer(data, '<f4', count, offset).astype(np.float64)
            offset += 4 * count
            if count:
                groups.append(FrameGroup(len(pictures), count, _end_times(intervals)))
        for picture in range(count):
            field = f'frames[{entry}]' + (f'.frames[{picture}]' if kind != SPR_SINGLE else '')
            bounds.section(field, offset, 1, FRAME.itemsize)
            frame = np.frombuffer(data, FRAME, 1, offset)[0]
            width = bounds.count(f'{field}.width', int(frame['width']))
            height = bounds.count(f'{field}.height', int(frame['height']))
            offset += FRAME.itemsize
            bounds.section(f'{field}.pixels', offset, width * height, pixel)
            raw = np.frombuffer(data, np.uint8, width * height * pixel, offset)
            offset += width * height * pixel
            pictures.append(_picture(raw, width, height, pixel, palette))
            left, up = int(frame['origin'][0]), int(frame['origin'][1])
            rectangles.append((left, left + width, up - height, up))
            names.append(f'frame{entry}' + (f'_{picture}' if kind != SPR_SINGLE else ''))
            suffix = f'_{entry}_{picture}' if count > 1 else f'_{entry}'
            images.append('{model}' + suffix if width > 0 and height > 0 else None)
    if not pictures:
        raise bounds.error('numframes', h['numframes'], 'no pictures: every frame group is empty')
    if version == SPRITE32_VERSION:
        alpha = _rgba_alpha(pictures)
    header_fields = {**h, 'ident': IDENT.decode(), 'type_name': _name(TYPES, h['type']), 'synctype_name': _name(SYNC_TYPES, h['synctype'])}
    if version == SPRITEHL_VERSION:
        header_fields['texFormat_name'] = TEX_FORMATS[h['texFormat']]
    surface = _quad(rectangles, pictures, images, holey=version == SPRITE_VERSION, alpha=alpha)
    return ModelData(surfaces=[surface], frame_names=names, header=header_fields, frame_groups=groups)


def _read_quake2(data: bytes, bounds: Bounds) -> ModelData:
    """A Quake II sprite: frames of a rectangle and an image name each, the images the game's files."""
    if len(data) < HEADER2.itemsize:
        raise bounds.error('header', len(data), f'file shorter than the {HEADER2.itemsize}-byte header')
    header = np.frombuffer(data, HEADER2, 1)[0]
    if int(header['version']) != SPRITE2_VERSION:
        raise bounds.error('version', int(header['version']), f'expected {SPRITE2_VERSION}')
    count = bounds.count('numframes', int(header['numframes']), 1)
    bounds.section('frames', HEADER2.itemsize, count, FRAME2.itemsize)
    frames = np.frombuffer(data, FRAME2, count, HEADER2.itemsize)
    for field in ('width', 'height'):
        bad = np.flatnonzero(frames[field] < 0)
        if bad.size:
            raise bounds.error(f'frames[{int(bad[0])}].{field}', int(frames[field][bad[0]]), 'must not be negative')
    width, height = frames['width'].astype(np.int64), frames['height'].astype(np.int64)
    left, down = -frames['origin_x'].astype(np.int64), -frames['origin_y'].astype(np.int64)
    rectangles = list(zip(left.tolist(), (left + width).tolist(), down.tolist(), (down + height).tolist()))
    names = cstrings(frames['name'])
    header_fields = {'ident': IDENT2.decode(), 'version': SPRITE2_VERSION, 'numframes': count, 'type_name': 'vp_parallel', 'synctype_name': 'sync'}
    surface = _quad(rectangles, None, [n or None for n in names], holey=False, alpha='cutout')  # R_DrawSpriteModel's alpha test
    return ModelData(surfaces=[surface], frame_names=[f'frame{k}' for k in range(count)], header=header_fields)


def _end_times(intervals: np.ndarray) -> np.ndarray:
    """When each picture of a group ends: the stored intervals, cumulative as Quake reads them
    (``R_GetSpriteFrame``); where they do not increase (Nexuiz's give each picture's own time),
    each picture lasting the first, as DarkPlaces plays every group (a frame rate of ``1 / intervals[0]``)."""
    if np.all(np.isfinite(intervals)) and intervals[0] > 0 and np.all(np.diff(intervals) > 0):
        return intervals
    return intervals[0] * np.arange(1, len(intervals) + 1)


def _hl_palette(data: bytes, bounds: Bounds, tex_format: int, offset: int) -> tuple[np.ndarray, str, int]:
    """A Half-Life sprite's palette as RGBA, as its ``texFormat`` draws it, and how its alpha draws."""
    if not 0 <= tex_format < len(TEX_FORMATS):
        raise bounds.error('texFormat', tex_format, f'expected 0 to {len(TEX_FORMATS) - 1} ({", ".join(TEX_FORMATS)})')
    bounds.section('palette', offset, 1, 2)
    colours = int(np.frombuffer(data, '<u2', 1, offset)[0])
    if colours != 256:
        raise bounds.error('palette', colours, 'colours: expected 256')
    bounds.section('palette', offset + 2, colours, 3)
    rgb = np.frombuffer(data, np.uint8, 768, offset + 2).reshape(256, 3)
    kind = TEX_FORMATS[tex_format]
    palette = np.empty((256, 4), np.uint8)
    palette[:, :3] = rgb
    palette[:, 3] = 255
    if kind == 'index-alpha':  # one colour, the last; the index is its alpha
        palette[:, :3] = rgb[255]
        palette[:, 3] = np.arange(256)
    elif kind == 'alpha-test':
        palette[255] = 0
    return palette, _TEX_ALPHA[kind], offset + 2 + 768


def _picture(raw: np.ndarray, width: int, height: int, pixel: int, palette: np.ndarray | None) -> np.ndarray:
    """One frame's pixels, rows from the top: palette indices, or RGBA (a 32-bit sprite's, a Half-Life one's)."""
    if pixel == 4:
        return raw.reshape(height, width, 4).copy()
    indices = raw.reshape(height, width)
    return palette[indices] if palette is not None else indices.copy()


def _rgba_alpha(pictures: list[np.ndarray]) -> str:
    """How a 32-bit sprite's alpha draws: opaque, holes only (cut out), or partly transparent (blended)."""
    alpha = np.concatenate([p[..., 3].reshape(-1) for p in pictures])
    if not alpha.size or alpha.min() == 255:
        return 'opaque'
    return 'cutout' if np.isin(alpha, (0, 255)).all() else 'blend'


def _quad(rectangles: list[tuple[int, int, int, int]], pictures, images, *, holey: bool, alpha: str) -> SurfaceData:
    """Each frame's quad from its ``(left, right, down, up)``: in the plane x = 0, right along -y and up along +z."""
    box = np.asarray(rectangles, np.float32).reshape(-1, 4)
    left, right, down, up = box.T
    zero = np.zeros_like(left)
    corners = [(-left, up), (-right, up), (-right, down), (-left, down)]  # top left, clockwise seen from the front
    positions = np.stack([np.stack([zero, y, z], axis=1) for y, z in corners], axis=1)
    normals = np.broadcast_to(np.array([-1, 0, 0], np.float32), positions.shape)  # towards the viewer, who looks along +x
    return SurfaceData(
        name='sprite',
        triangles=np.array([[0, 1, 2], [0, 2, 3]], np.int32),
        texcoords=np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32),  # (s, t), t from the top
        positions=positions,
        normals=np.ascontiguousarray(normals),
        frame_pictures=pictures,
        frame_images=images,
        holey=holey,
        alpha=alpha,
    )


def _name(names: tuple[str, ...], number: int) -> str:
    return names[number] if 0 <= number < len(names) else str(number)


def field_data(data: ModelData) -> dict:
    """What every frame of a sprite carries in its field data: its orientation and sync types."""
    return {'sprite_type': [data.header['type_name']], 'sprite_synctype': [data.header['synctype_name']]}


register_format(
    'sprite',
    ['.spr', '.spr32', '.sp2'],
    read,
    sniff=sniff,
    title='sprites (Quake, Half-Life, DarkPlaces, Quake II)',
    view_from=(-1.0, 0.0, 0.0),  # facing it, as the game turns a sprite to its viewer
    game='Quake family',
    field_data=field_data,
)
