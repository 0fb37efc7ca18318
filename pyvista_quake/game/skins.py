"""Skins: find them where the game would, decode them, and pack them for field data.

MD2 models name image files relative to the game folder; this module looks
for them in the places listed in :func:`SkinSearch.find` (game root, the
model's folder, other extensions, UFO: Alien Invasion's ``.name`` form,
search roots, PAK/PK3 archives) and decodes them with Pillow.  MDL models
embed palette-indexed pictures; they become RGB through Quake's palette.

Nothing here knows byte layouts of models; it works on names, paths and
image bytes.
"""

from __future__ import annotations

from collections import OrderedDict
import functools
import hashlib
import io
from pathlib import Path
from pathlib import PurePosixPath
import warnings

import numpy as np

from pyvista_quake._base import fields as keys
from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake._base.warnings import warn_external
from pyvista_quake.formats import skin as skin_file
from pyvista_quake.formats.tables import FULLBRIGHT_START
from pyvista_quake.formats.tables import QUAKE_PALETTE
from pyvista_quake.game.archives import Archive
from pyvista_quake.game.engines import MF_HOLEY
from pyvista_quake.game.engines import holey_mask
from pyvista_quake.game.filesystem import FoundSkin
from pyvista_quake.game.filesystem import SkinSearch
from pyvista_quake.game.filesystem import Tried
from pyvista_quake.game.filesystem import _archives_in
from pyvista_quake.game.filesystem import _read_place
from pyvista_quake.game.filesystem import warn_missing

# -- decoding ---------------------------------------------------------------------------


#: Decoded images by their file's bytes, the most recently used last: an image is decoded once however
#: many frames, surfaces, pictures and exports show it.  Bounded in entries and in pixel bytes.
_DECODED: OrderedDict[tuple[int, bytes], np.ndarray] = OrderedDict()
DECODED_IMAGES = 64
DECODED_BYTES = 256 << 20


def decode_image(data: bytes, label: str = '<image>') -> np.ndarray | None:
    """Decode an image file's bytes to ``uint8`` ``(height, width, 3 or 4)``, rows from the top.

    PCX and other paletted images go through their own palette.  A file that
    Pillow cannot read (or that is over its decompression-bomb limit) gives a
    warning and ``None``.  The same bytes again give a copy of the image decoded
    the first time (kept while among the last :data:`DECODED_IMAGES` decoded).
    """
    key = (len(data), hashlib.blake2b(data, digest_size=16).digest())
    cached = _DECODED.get(key)
    if cached is not None:
        _DECODED.move_to_end(key)
        return cached.copy()
    image = _decoded(data, label)
    if image is not None:
        _DECODED[key] = image
        while len(_DECODED) > DECODED_IMAGES or (len(_DECODED) > 1 and sum(a.nbytes for a in _DECODED.values()) > DECODED_BYTES):
            _DECODED.popitem(last=False)
        return image.copy()
    return None


def _decoded(data: bytes, label: str) -> np.ndarray | None:
    from PIL import Image  # noqa: PLC0415 - Pillow is only needed once a skin is decoded

    data = _without_tga_attributes(data)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('error', Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                mode = 'RGBA' if 'A' in image.getbands() or 'transparency' in image.info else 'RGB'
                return np.asarray(image.convert(mode))
    except Exception as error:  # noqa: BLE001 - Pillow raises many kinds for a broken file
        warn_external(f'{label}: skin not decoded ({type(error).__name__}: {error})')
        return None


#: The signature that ends a TGA 2.0 file's footer.
TGA_FOOTER = b'TRUEVISION-XFILE.\0'


def _without_tga_attributes(data: bytes) -> bytes:
    """A TGA's bytes with its 2.0 footer's extension area unlinked: Quake III's ``R_LoadTGA`` never reads it,
    so a 32-bit image keeps its alpha whatever the footer's attributes type says (Pillow would drop it)."""
    if len(data) < 44 or not data.endswith(TGA_FOOTER) or data[2] not in (2, 10) or data[16] != 32:
        return data
    return data[:-26] + b'\0\0\0\0' + data[-22:]


def image_has_alpha(data: bytes) -> bool:
    """Whether an image file has an alpha channel (read from its header, no pixels decoded)."""
    from PIL import Image  # noqa: PLC0415 - Pillow is only needed once a skin is looked at

    try:
        with Image.open(io.BytesIO(data)) as image:
            return 'A' in image.getbands() or 'transparency' in image.info
    except Exception:  # noqa: BLE001 - not an image Pillow reads: decode_image says why
        return False


def drawn_alpha(image: np.ndarray, mode: str) -> np.ndarray:
    """An RGBA image as a shader draws it: ``opaque`` drops the alpha; an ``alphaFunc`` test
    (``gt0``, ``lt128``, ``ge128``) makes it 255 where the texel passes, else 0; ``add`` (additive)
    makes alpha the texel's brightness (black adds nothing); ``blend`` keeps it. An RGB image is
    returned as it is."""
    if image.ndim != 3 or image.shape[2] != 4:
        return image
    if mode == 'opaque':
        return np.ascontiguousarray(image[..., :3])
    tests = {'gt0': lambda a: a > 0, 'lt128': lambda a: a < 128, 'ge128': lambda a: a >= 128}
    if mode in tests:
        out = image.copy()
        out[..., 3] = np.where(tests[mode](image[..., 3]), 255, 0)
        return out
    if mode == 'add':
        out = image.copy()
        out[..., 3] = (image[..., :3].max(axis=2).astype(np.uint16) * image[..., 3] // 255).astype(np.uint8)
        return out
    return image


def shifted_lighting(pages: np.ndarray, scale: float = 4.0) -> np.ndarray:
    """Lightmap texels as the engine draws them: each channel times ``scale`` (Quake III's
    ``R_ColorShiftLightingBytes`` shifts left ``r_mapOverBrightBits 2`` bits, 4; Quake 1's style 0 is 264 / 128;
    see :attr:`~pyvista_quake.formats.records.LevelData.light_scale`), and where a channel then passes 255,
    all three scaled down together so the hue stays."""
    light = (pages[..., :3].astype(np.int32) * scale).astype(np.int32)
    peak = light.max(axis=-1, keepdims=True)
    light = np.where(peak > 255, light * 255 // np.maximum(peak, 1), light)
    return light.astype(np.uint8)


def read_palette(palette: str | Path | np.ndarray | None) -> np.ndarray:
    """Return a palette as ``uint8`` ``(256, 3)``: a ``palette.lmp`` or PCX path, an array, or Quake's own.

    Raises
    ------
    QuakeFormatError
        For a file that is neither a 768-byte ``palette.lmp`` nor a PCX ending with its palette.

    """
    if palette is None:
        return QUAKE_PALETTE
    if isinstance(palette, (str, Path)):
        data = Path(palette).read_bytes()
        found = _palette_from_bytes(data)
        if found is None and data[:1] == PCX_MANUFACTURER:
            found = pcx_palette(data)  # Quake II's pics/colormap.pcx, say
        if found is None:
            raise QuakeFormatError(
                str(palette),
                'size',
                len(data),
                f"a palette is a palette.lmp of exactly {PALETTE_BYTES} bytes, or a PCX ending with its 256 colours (Quake II's pics/colormap.pcx)",
            )
        return found
    array = np.asarray(palette)
    if array.shape != (256, 3):
        raise ValueError(f'a palette is 256 x 3 values, not {array.shape}')
    if array.dtype.kind == 'f' and array.max() <= 1.0:
        array = array * 255
    # Rounded, not truncated: 0.5 is 128 and a value a hair under k stays k.
    return np.clip(np.rint(array), 0, 255).astype(np.uint8)


def find_palette(search: SkinSearch) -> np.ndarray | None:
    """The game's own ``gfx/palette.lmp`` in the search roots, if there is one."""
    found, _ = _find_exact(search, 'gfx/palette.lmp')
    return None if found is None else _palette_from_bytes(found.data)


#: A ``palette.lmp``: 256 RGB entries, nothing else (Quake's ``gfx/palette.lmp`` is exactly this size).
PALETTE_BYTES = 768
#: The first byte of every PCX file.
PCX_MANUFACTURER = b'\x0a'


def _palette_from_bytes(data: bytes) -> np.ndarray | None:
    """The 256 RGB entries of a ``palette.lmp``, or ``None`` for a file of any other size."""
    if len(data) != PALETTE_BYTES:
        return None
    return np.frombuffer(data, np.uint8).reshape(256, 3)


def pcx_palette(data: bytes) -> np.ndarray | None:
    """The 256 colours a PCX ends with (after its ``0x0c`` marker), or ``None``."""
    if len(data) < PALETTE_BYTES + 1 or data[-PALETTE_BYTES - 1] != 0x0C:
        return None
    return np.frombuffer(data[-PALETTE_BYTES:], np.uint8).reshape(256, 3)


def _find_exact(search: SkinSearch, name: str) -> tuple[FoundSkin | None, list[Tried]]:
    """Find a file by its path from the game folder: the model's archive, the
    folders just above the model (Quake's ``id1/progs/x.mdl`` sits one level
    below ``id1/gfx/``) and their archives, then the search roots."""
    places: list[Path | Archive | None] = [search.archive]
    folder = search._model_folder()
    if folder is not None:
        near = [folder, *folder.parents][:3]
        places += near
        for candidate in near:
            places += _archives_in(candidate)
    places += search._later_roots(None)
    tried: list[Tried] = []
    for place in (p for p in places if p is not None):
        where, data = _read_place(place, name)
        tried.append(where)
        if data is not None:
            return FoundSkin(name, where[0], data), tried
    return None, tried


def fullbright_mask(indices: np.ndarray) -> np.ndarray:
    """Which pixels Quake draws fullbright (palette indices 224-255)."""
    return indices >= FULLBRIGHT_START


# -- a model's skins ----------------------------------------------------------------------


class ModelSkins:
    """The skins of one model: found (MD2) or embedded (MDL), decoded on demand.

    Parameters
    ----------
    data : AliasData
        The model's content.
    search : SkinSearch
        Where an MD2's skin files are looked for.
    palette : str, pathlib.Path or array, optional
        Palette for MDL skins; the game's ``gfx/palette.lmp`` in the search roots,
        else Quake's own.
    external_skins : bool, default: True
        Prefer an MDL's replacement skin files (see :meth:`replacement`).
    holey : bool, default: True
        Palette index 255 transparent on an ``MF_HOLEY`` MDL.

    The keywords are the :class:`~pyvista_quake.LoadOptions` of the same names.

    """

    def __init__(
        self,
        data,
        search: SkinSearch,
        *,
        palette: str | Path | np.ndarray | None = None,
        external_skins: bool = True,
        holey: bool = True,
    ) -> None:
        self.data = data
        self.search = search
        self._palette = palette
        self.external_skins = external_skins
        self.holey = holey
        self._files: dict[int, FoundSkin | None] = {}
        self._external: dict[tuple[int, str], FoundSkin | None] = {}
        #: Images given for MD2 skins by name, written beside the model when it is saved.
        self.images: dict[str, np.ndarray] = {}

    def __len__(self) -> int:
        """Skins the model has: names an MD2 gives, pictures an MDL embeds."""
        return len(self.data.skins) if self.data.palette_skins else len(self.data.skin_names)

    def valid_index(self, index: object) -> int | None:
        """Normalise a skin index (``None`` for none); an MD2 naming no skin still has skin 0 beside it.

        Raises
        ------
        IndexError
            If the model has no such skin.

        """
        if index is None:
            return None
        if not isinstance(index, (int, np.integer)):
            raise TypeError(f'{self.data.source}: an {self.data.format.upper()} picks its skin by number, not {index!r}')
        count = len(self) if self.data.palette_skins else max(len(self), 1)
        if count == 0:
            return None  # an MDL with no skins
        if not -count <= index < count:
            raise IndexError(f'{self.data.source}: skin {index} out of range; the model has {count}')
        return int(index) % count

    @functools.cached_property
    def palette(self) -> np.ndarray:
        """The palette for MDL skins, ``uint8`` ``(256, 3)``: given, the game's own, or Quake's."""
        if self._palette is not None:
            return read_palette(self._palette)
        found = find_palette(self.search)
        return found if found is not None else read_palette(None)

    def file(self, index: int = 0) -> FoundSkin | None:
        """Find an MD2 skin's image file; a missing one warns, naming the places tried."""
        if index in self._files:
            return self._files[index]
        names = self.data.skin_names
        found: FoundSkin | None
        tried: list[Tried]
        if names and names[index] in self.images:
            found, tried = FoundSkin(names[index], '<image given>', png_bytes(self.images[names[index]])), []
        elif names:
            found, tried = self.search.find(names[index])
            if found is None:
                # Named but missing: an image with the model's own name beside it, as for a model naming none.
                found, more = self.search.find_beside_model()
                tried += more
                if found is not None:
                    warn_external(
                        f'{self.data.source}: skin {index} {names[index]} not found; using {found.location}, '
                        "the image with the model's name beside it"
                    )
        else:
            found, tried = self.search.find_beside_model()
        if found is None:
            wanted = names[index] if names else "(no skin named; an image with the model's name)"
            warn_missing(self.data.source, f'skin {index} {wanted}', tried)
        self._files[index] = found
        return found

    def field_data(self, index: int = 0) -> dict:
        """The skin in the form it travels in field data (still encoded, decoded on demand).

        MD2: ``skin_file`` (the image file's bytes) and ``skin_location``; MDL:
        ``skin_pixels`` (palette indices), ``skin_picture_shape``, ``skin_palette``
        and ``skin_times`` (end times of an animated group).
        """
        out: dict = {keys.SKIN_INDEX: np.array([index], np.int32)}
        replacement = self.replacement(index)
        if replacement is not None:
            return {**out, **replacement.field_data()}
        if self.data.palette_skins:
            if not self.data.skins:
                return {}
            if self.is_holey:
                out[keys.SKIN_HOLEY] = np.array([1], np.int32)
            entry = self.data.skins[index]
            out[keys.SKIN_PIXELS] = np.ascontiguousarray(entry.pictures).ravel()
            out[keys.SKIN_PICTURE_SHAPE] = np.array(entry.pictures.shape, np.int32)
            out[keys.SKIN_PALETTE] = np.ascontiguousarray(self.palette, np.uint8).ravel()
            if entry.times is not None:
                out[keys.SKIN_TIMES] = np.asarray(entry.times, np.float32)
            return out
        found = self.file(index)
        return {**out, **found.field_data()} if found is not None else {}

    def image(self, index: int = 0, picture: int = 0) -> np.ndarray | None:
        """A skin as an RGB(A) ``uint8`` image ``(height, width, channels)``, rows from the top.

        MDL pictures go through the palette; ``picture`` picks one of an animated
        group.  ``None`` (with a warning) when an MD2 skin is missing or undecodable.
        """
        replacement = self.replacement(index, picture)
        if replacement is not None:
            return decode_image(replacement.data, replacement.location)
        if self.data.palette_skins:
            if not self.data.skins:
                return None
            return palette_image(self.data.skins[index].pictures[picture], self.palette, self.is_holey)
        names = self.data.skin_names
        if names and names[index] in self.images:
            return self.images[names[index]]
        found = self.file(index)
        return decode_image(found.data, found.location) if found is not None else None

    @property
    def is_holey(self) -> bool:
        """Whether palette index 255 is drawn transparent: an MDL with ``MF_HOLEY``, as QuakeSpasm draws it."""
        return self.holey and self.data.palette_skins and bool(int(self.data.header.get('flags', 0)) & MF_HOLEY)

    def replacement(self, index: int = 0, picture: int = 0) -> FoundSkin | None:
        """An MDL's external replacement skin, if there is one and ``external`` is on.

        Named as DarkPlaces, FTE and QuakeSpasm-Spiked name them, beside the
        model (or in the game folders and archives): ``progs/player.mdl_0.png``
        for skin 0 (``.tga``, ``.jpg``, ``.pcx`` too), ``player.mdl_0_1.png`` for
        picture 1 of a skin group.
        """
        if not self.external_skins or not self.data.palette_skins:
            return None
        return self.external_map(index, '', picture)

    def external_map(self, index: int = 0, kind: str = 'glow', picture: int = 0) -> FoundSkin | None:
        """An external map of an MDL skin: ``''`` the skin itself, ``'glow'``/``'luma'`` (fullbright),
        ``'pants'``/``'shirt'`` (colour maps), found as :meth:`replacement` finds skins."""
        key = (index, f'{kind}:{picture}')
        if key not in self._external:
            base = self.search.model_file_name()
            found = None
            if base is not None and (self.search.model_path is not None or self.search.archive is not None):
                stem = f'{base}_{index}' + (f'_{picture}' if picture else '')
                name = stem + (f'_{kind}' if kind else '')
                if self.search.member:
                    name = str(PurePosixPath(self.search.member).parent / name)
                found, _ = self.search.find('.' + name if '/' not in name else name)
            self._external[key] = found
        return self._external[key]

    def fullbright(self, index: int = 0, picture: int = 0) -> np.ndarray | None:
        """Mask of the pixels of an MDL skin that Quake draws fullbright (indices 224-255)."""
        if not self.data.palette_skins or not self.data.skins:
            return None
        return fullbright_mask(self.data.skins[index].pictures[picture])


def palette_image(indices: np.ndarray, palette: np.ndarray, holey: bool = False) -> np.ndarray:
    """Palette indices to RGB, or RGBA with index 255 transparent for an ``MF_HOLEY`` model."""
    rgb = np.asarray(palette, np.uint8)[indices]
    if not holey:
        return rgb
    alpha = np.where(holey_mask(indices), 0, 255).astype(np.uint8)
    return np.dstack([rgb, alpha])


def has_cut_out(image: np.ndarray) -> bool:
    """Whether an image has an alpha channel with a texel below opaque: a cut-out skin (drawn alpha-tested)."""
    return image.ndim == 3 and image.shape[2] == 4 and bool((image[..., 3] < 255).any())


#: Alpha values counted as partly transparent (neither a cut-out's 0 nor opaque), and the share of
#: the non-opaque texels that must be so for an image to be blended rather than cut out.
PARTIAL_ALPHA = (16, 239)
BLENDED_SHARE = 0.5


def alpha_mode(image: np.ndarray) -> str:
    """How an image's alpha is drawn: ``'opaque'``, ``'mask'`` (a cut-out: texels on or off, edges
    aside) or ``'blend'`` (mostly partly transparent texels: glass, flames, muzzle flashes)."""
    if not has_cut_out(image):
        return 'opaque'
    alpha = image[..., 3]
    clear = alpha[alpha < 255]
    partial = ((clear >= PARTIAL_ALPHA[0]) & (clear <= PARTIAL_ALPHA[1])).mean()
    return 'blend' if partial > BLENDED_SHARE else 'mask'


def image_array(image) -> np.ndarray:
    """An image file's path, a PIL image or an array as ``uint8`` ``(height, width, 3 or 4)``.

    A 2-D array stays 2-D (palette indices, for an MDL skin).
    """
    if isinstance(image, (str, Path)):
        data = Path(image).read_bytes()
        decoded = decode_image(data, str(image))
        if decoded is None:
            raise ValueError(f'{image}: not an image Pillow can read')
        return decoded
    if hasattr(image, 'convert') and hasattr(image, 'getbands'):  # a PIL image
        mode = 'RGBA' if 'A' in image.getbands() else ('P' if image.mode == 'P' else 'RGB')
        return np.asarray(image if mode == 'P' else image.convert(mode))
    array = np.asarray(image)
    if array.ndim not in (2, 3) or (array.ndim == 3 and array.shape[2] not in (3, 4)):
        raise ValueError(f'a skin image is (height, width[, 3 or 4]), not {array.shape}')
    if array.dtype.kind == 'f':
        array = np.clip(np.rint(array * 255 if array.max() <= 1.0 else array), 0, 255)
    return array.astype(np.uint8)


def resized(image: np.ndarray, width: int, height: int) -> np.ndarray:
    """An image at another size: Lanczos for colours, nearest for palette indices (which do not blend)."""
    from PIL import Image  # noqa: PLC0415 - Pillow is only needed once a skin is decoded

    if image.shape[:2] == (height, width):
        return image
    resample = Image.Resampling.NEAREST if image.ndim == 2 else Image.Resampling.LANCZOS
    return np.asarray(Image.fromarray(np.ascontiguousarray(image, np.uint8)).resize((width, height), resample))


def palette_indices(image: np.ndarray, palette: np.ndarray) -> np.ndarray:
    """Nearest palette entry of each RGB(A) pixel, ``uint8`` ``(height, width)``; 2-D input is kept.

    Nearest in RGB, matched once per distinct colour of the image.
    """
    if image.ndim == 2:
        return image.astype(np.uint8)
    rgb = np.ascontiguousarray(image[..., :3], np.uint8)
    packed = (rgb[..., 0].astype(np.int32) << 16) | (rgb[..., 1].astype(np.int32) << 8) | rgb[..., 2]
    colours, inverse = np.unique(packed.ravel(), return_inverse=True)
    channels = np.stack([(colours >> 16) & 255, (colours >> 8) & 255, colours & 255], axis=1).astype(np.int32)
    table = np.asarray(palette, np.int32)
    nearest = np.empty(len(colours), np.uint8)
    for start in range(0, len(colours), 4096):
        block = channels[start : start + 4096]
        distance = ((block[:, None, :] - table[None, :, :]) ** 2).sum(-1)
        nearest[start : start + len(block)] = distance.argmin(axis=1)
    return nearest[inverse.ravel()].reshape(image.shape[:2])


def png_bytes(image: np.ndarray, compress_level: int = 6) -> bytes:
    """An RGB(A) ``uint8`` image (rows from the top) as the bytes of a PNG file.

    ``compress_level`` 1 is the fastest (thumbnails), 6 Pillow's default.
    """
    from PIL import Image  # noqa: PLC0415 - Pillow is only needed once a skin is decoded

    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(image, np.uint8)).save(buffer, format='PNG', compress_level=compress_level)
    return buffer.getvalue()


# -- models of several surfaces (MD3): .skin files ------------------------------------------


def surface_key(name: str) -> str:
    """A surface's name as the renderer matches it: lower case, a level of detail's ``_1``/``_2`` cut (``R_LoadMD3``)."""
    key = name.lower()
    return key[:-2] if len(key) > 2 and key[-2] == '_' else key


def surface_images(data, search: SkinSearch, skin) -> tuple[list[str | None], str | None]:
    """The image (or shader) name each surface of an MD3 shows, and the ``.skin`` file they came from.

    ``skin``: ``0`` or ``'default'`` uses ``<model>_default.skin`` beside the
    model when there is one; another name ``<model>_<name>.skin``; a path
    (``….skin``) that file; another index the surfaces' shader of that number;
    ``None`` no image.  A surface with no ``.skin`` line shows its first shader.
    """
    surfaces = data.surfaces
    if skin is None:
        return [None] * len(surfaces), None
    if isinstance(skin, (int, np.integer)) and skin != 0:
        return [s.shaders[int(skin)] if -len(s.shaders) <= int(skin) < len(s.shaders) else None for s in surfaces], None
    stem = PurePosixPath(search.model_file_name() or 'model.md3').stem
    stem = stem[:-2] if len(stem) > 2 and stem[-2] == '_' and stem[-1].isdigit() else stem  # lower_1.md3 uses lower's skins
    found = None
    if isinstance(skin, Path) or (isinstance(skin, str) and skin.lower().endswith('.skin')):
        path = Path(skin)
        if not path.is_file():
            raise FileNotFoundError(f'{data.source}: skin file {skin} not found')
        found = (str(path), path.read_bytes())
    else:
        name = 'default' if skin == 0 else str(skin)
        found = search.beside_model(f'{stem}_{name}.skin')
        if found is None and name != 'default':
            warn_external(f'{data.source}: skin {name!r}: no {stem}_{name}.skin beside the model; using the shader names')
    lines = skin_file.parse(found[1].decode('latin-1')) if found is not None else {}
    names = [lines.get(surface_key(s.name), s.shaders[0] if s.shaders else None) for s in surfaces]
    return names, (found[0] if found is not None else None)
