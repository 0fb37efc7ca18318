"""A model that plays in a browser: one self-contained HTML page, and the notebook viewer built on it.

The page embeds the model's glTF (as :func:`pyvista_quake.export` writes it:
morph targets for MD2, MDL and MD3 frames, a player's parts as nodes on
their tags) and three.js, which plays it with ``GLTFLoader`` and
``AnimationMixer``: orbit and zoom, play and pause, a time slider, an
animation picker, a skin picker where the model has several, the frame's
number and name.  Nothing is fetched: three.js (from npm, MIT licence,
``viewer/static/LICENSE-three.txt``) ships in the package, built by
``dev/build_viewer.sh``; a one-file page carries it gzip'd.  glTF
interpolates linearly between keys at the model's own frame times, as the
engines blend frames.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from dataclasses import field
import functools
import gzip
import hashlib
import html
import json
from pathlib import Path
import tempfile
from typing import Any

import numpy as np

from pyvista_quake._base.errors import NothingToDrawError
from pyvista_quake._base.files import atomic_write
from pyvista_quake._base.options import split_options
from pyvista_quake.exporting.export import export
from pyvista_quake.exporting.gltf import QUAKE_TO_GLTF
from pyvista_quake.model.posing import posable_or_mesh
from pyvista_quake.model.quake_model import why_nothing_to_draw

STATIC = Path(__file__).resolve().parent / 'viewer' / 'static'

PAGE_HTML = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
  body {{ margin: 0; font: 14px system-ui, sans-serif; background: #fff; }}
  .pq-viewer {{ display: flex; flex-direction: column; {viewer_size} max-width: 100%; }}
  .pq-view {{ {view_size} max-width: 100%; touch-action: none; }}
  .pq-bar {{ display: flex; gap: 8px; align-items: center; padding: 6px 4px; flex-wrap: wrap; }}
  .pq-time {{ flex: 1; min-width: 120px; }}
  .pq-frame {{ font-variant-numeric: tabular-nums; color: #333; }}
</style>
</head>
<body>
<div class="pq-viewer" id="pq-viewer">
  <div class="pq-view"></div>
  <div class="pq-bar">
    <button class="pq-play" type="button">Pause</button>
    <input class="pq-time" type="range" min="0" max="1" step="0.001" value="0" aria-label="time">
    <select class="pq-animation" aria-label="animation"></select>
    <select class="pq-skin" aria-label="skin"></select>
  </div>
  <div class="pq-bar"><span class="pq-title">{title}</span> <span class="pq-frame"></span></div>
</div>
{library}
<script>
PyvistaQuakeViewer.start(document.getElementById('pq-viewer'), {models}, {info});
</script>
</body>
</html>
"""


#: A one-file page's copy of the viewer's script: gzip'd in base64, a third of the script's size, unpacked by the
#: browser's own ``DecompressionStream`` and run as the page's own script.  Until then a stand-in
#: ``PyvistaQuakeViewer`` holds the page's ``start`` call.
_PACKED_LIBRARY = """<script>
var PyvistaQuakeViewer = (() => {{
  const packed = Uint8Array.from(atob('{packed}'), (c) => c.charCodeAt(0));
  const ready = new Response(new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip'))).text().then((text) => {{
    const script = document.createElement('script');
    script.textContent = text;
    document.head.appendChild(script);  // its PyvistaQuakeViewer takes the stand-in's place
  }});
  return {{ start: (...args) => ready.then(() => PyvistaQuakeViewer.start(...args)) }};
}})();
</script>"""


def gzip_base64(data: bytes, level: int) -> str:
    """``data`` gzip'd (no time stamp: the same page every run) in base64, as the page's script opens it with the
    browser's own ``DecompressionStream``."""
    return base64.b64encode(gzip.compress(data, compresslevel=level, mtime=0)).decode('ascii')


@functools.lru_cache(maxsize=1)
def embedded_library() -> str:
    """The viewer's script (three.js and the controls) as a one-file page carries it: a ``<script>`` element."""
    return _PACKED_LIBRARY.format(packed=gzip_base64((STATIC / 'viewer.bundle.js').read_bytes(), 9))


#: A page's view, width and height in pixels.
PAGE_SIZE = (640, 480)


class SharedImages:
    """The images of a site's pages, each kept once in ``folder`` as a script (``KEY.js``) that sets
    ``PyvistaQuakeAssets[KEY]`` to its data URL; a page's glTF names it ``pq-asset:KEY``.

    Scripts and data URLs load from pages opened as files too, where a page could fetch no file, and a
    texture made from a data URL is the page's own to draw.

    Parameters
    ----------
    folder : pathlib.Path
        Where the scripts go (a site's ``assets/``).
    prefix : str
        How a page addresses that folder (``../assets/``).
    """

    def __init__(self, folder: Path, prefix: str) -> None:
        self.folder = Path(folder)
        self.prefix = prefix

    def address(self, key: str) -> str:
        """Where a page finds the script of image ``key``."""
        return f'{self.prefix}{key}.js'

    def take(self, glb: bytes) -> tuple[bytes, list[str]]:
        """``glb`` without its images, each kept here (once, by its bytes' hash), and their keys in order."""
        import pygltflib  # noqa: PLC0415 - glTF export's own dependency

        gltf = pygltflib.GLTF2.load_from_bytes(glb)
        blob = gltf.binary_blob() or b''
        held = {image.bufferView for image in gltf.images if image.bufferView is not None}
        if not held:
            return glb, []
        keys = []
        for image in gltf.images:
            if image.bufferView is None:
                continue
            view = gltf.bufferViews[image.bufferView]
            data = blob[view.byteOffset or 0 : (view.byteOffset or 0) + view.byteLength]
            key = hashlib.sha256(data).hexdigest()[:24]
            path = self.folder / f'{key}.js'
            if not path.is_file():
                url = f'data:{image.mimeType or "image/png"};base64,{base64.b64encode(data).decode("ascii")}'
                atomic_write(path, f'(globalThis.PyvistaQuakeAssets ??= {{}})[{json.dumps(key)}] = {json.dumps(url)};\n'.encode(), sync=False)
            image.uri, image.bufferView, image.mimeType = f'pq-asset:{key}', None, None
            keys.append(key)
        # The buffer without the images' bytes: the other views packed again, each at a multiple of 4.
        packed = bytearray()
        renumbered: dict[int, int] = {}
        views: list[Any] = []
        for number, view in enumerate(gltf.bufferViews):
            if number in held:
                continue
            packed += bytes(-len(packed) % 4)
            start = view.byteOffset or 0
            chunk = blob[start : start + view.byteLength]
            view.byteOffset = len(packed)
            packed += chunk
            renumbered[number] = len(views)
            views.append(view)
        gltf.bufferViews = views
        for accessor in gltf.accessors:
            if accessor.bufferView is not None:
                accessor.bufferView = renumbered[accessor.bufferView]
            sparse = accessor.sparse
            if sparse is not None:
                sparse.indices.bufferView = renumbered[sparse.indices.bufferView]
                sparse.values.bufferView = renumbered[sparse.values.bufferView]
        gltf.buffers[0].byteLength = len(packed)
        gltf.set_binary_blob(bytes(packed))
        return b''.join(gltf.save_to_bytes()), list(dict.fromkeys(keys))


def model_glb(source: Any, animation: Any, quantize: bool = True) -> bytes:
    """A model's (or player's, or level's) glb as :func:`pyvista_quake.export` writes it, as bytes."""
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / 'model.glb'
        export(source, target, animation=animation, quantize=quantize)
        return target.read_bytes()


def _skin_table(glbs: list[bytes]) -> tuple[list[str], list[dict[str, int]]]:
    """The images of several glbs of one model (a skin each), each stored once (base64 PNG), and for each glb
    the image each primitive wears: ``"mesh/primitive" -> image``.  The images are data URLs (PNG or JPEG)."""
    import pygltflib  # noqa: PLC0415

    images: dict[tuple[bytes, str], int] = {}
    tables = []
    for data in glbs:
        gltf = pygltflib.GLTF2.load_from_bytes(data)
        blob = gltf.binary_blob()
        table = {}
        for m, mesh in enumerate(gltf.meshes):
            for k, primitive in enumerate(mesh.primitives):
                material = gltf.materials[primitive.material] if primitive.material is not None else None
                colour = material.pbrMetallicRoughness.baseColorTexture if material and material.pbrMetallicRoughness else None
                if colour is None:
                    continue
                image = gltf.images[gltf.textures[colour.index].source]
                view = gltf.bufferViews[image.bufferView]
                data = blob[view.byteOffset or 0 : (view.byteOffset or 0) + view.byteLength]
                table[f'{m}/{k}'] = images.setdefault((data, image.mimeType or 'image/png'), len(images))
        tables.append(table)
    return [f'data:{mime};base64,{base64.b64encode(data).decode("ascii")}' for data, mime in images], tables


def _start(start: dict) -> dict:
    """What a page starts from (:meth:`~pyvista_quake.model.posing.Posable.start`), its box in glTF's axes."""
    for key in ('bounds', 'eye'):  # two points each
        if key in start:
            first, second = np.asarray(start[key], np.float64).reshape(2, 3) @ QUAKE_TO_GLTF.T  # axes swapped, none turned
            start = {**start, key: [float(v) for v in (*first, *second)]}
    return start


@dataclass
class Viewer:
    """A model playing in a notebook: shows itself as its page (``_repr_html_``), offline and with no kernel.

    Made by :func:`viewer`; ``html`` is the page, :meth:`save` writes it.
    """

    html: str = field(repr=False)
    height: int = 560
    name: str = ''

    def __repr__(self) -> str:
        """One line naming the model (the page itself is the HTML repr: a notebook keeps no second copy as text)."""
        return f'Viewer({self.name or "model"!r}, page of {len(self.html.encode("utf-8")) / 1e6:.1f} MB)'

    def _repr_html_(self) -> str:
        """The page in an iframe of its own, so that several viewers in a notebook keep to themselves."""
        return (
            f'<iframe srcdoc="{html.escape(self.html, quote=True)}" style="width:100%;height:{self.height}px;border:0" '
            'sandbox="allow-scripts" title="pyvista-quake viewer"></iframe>'
        )

    def save(self, path: str | Path) -> Path:
        """Write the page (one self-contained HTML file) atomically."""
        atomic_write(Path(path), self.html.encode('utf-8'))
        return Path(path)


def page(
    source: Any,
    *,
    animation: Any = None,
    size: tuple[int, int] = PAGE_SIZE,
    title: str | None = None,
    library: str | None = None,
    extra: str = '',
    quantize: bool = True,
    assets: SharedImages | None = None,
    **options: Any,
) -> str:
    """One self-contained HTML page that plays a model: no request leaves it.

    Parameters
    ----------
    source : str, pathlib.Path, QuakeModel or QuakePlayer
        A model, anything :func:`pyvista_quake.load` reads, or a player (or its folder).
    animation : str or tuple, optional
        One animation only (a player's: a name or a ``(legs, torso)`` pair); every animation by default.
    size : tuple of int, default: (640, 480)
        The view's width and height in pixels; a level's view fills the page unless a size is given.
    title : str, optional
        The page's title; the model's file by default.
    library : str, optional
        A relative address of the viewer's script (``viewer.bundle.js``, see
        :data:`STATIC`) to load instead of embedding it: pages of a site share one copy.
    extra : str, optional
        HTML added below the viewer (a catalogue's tables).
    quantize : bool, default: True
        Carry the frames as ``int16`` positions and byte normals (glTF's ``KHR_mesh_quantization``, which
        three.js reads), about half the floats' size; ``False`` keeps floats.
    assets : SharedImages, optional
        Where pages of one site keep their images, each once: the page carries its geometry and
        loads each image it shows from the site's ``assets/`` (a catalogue's pages).
    **options
        Options of :func:`pyvista_quake.load`.

    """
    load_options, others = split_options(options)
    if others:
        raise TypeError(f'page() got unknown options {sorted(others)}')
    poser, _ = posable_or_mesh(source, **load_options)
    if poser is None:
        raise ValueError('the viewer plays a model or a player, not one frame: pass the model, its file or its folder')
    if not any(s.num_triangles for part in poser.models for s in part.surfaces):
        raise NothingToDrawError(f'{poser.source}: nothing to play: {why_nothing_to_draw(poser.subject)}')
    models = []
    skins: list[str] = []
    for skin, each in poser.each_skin():  # a skin picker: a glb per skin, made one model and its skins' images below
        models.append(model_glb(each, animation, quantize))
        skins.append(skin)
    if not models:
        models.append(model_glb(poser.subject, animation, quantize))
    info: dict[str, Any] = {'clips': poser.clips(animation), 'skins': skins}
    if len(models) > 1:
        # One model, and each skin as the images it puts on each primitive: the picker swaps textures.
        info['skinImages'], info['skinTable'] = _skin_table(models)
        models = models[:1]
    info.update(_start(poser.start(animation)))
    asset_keys: list[str] = []
    if assets is not None:
        models[0], asset_keys = assets.take(models[0])
    name = title if title is not None else Path(poser.source).name
    # gzip'd: a frame's int16 displacements are mostly small.
    encoded = [gzip_base64(data, 6) for data in models]
    script = embedded_library() if library is None else f'<script src="{html.escape(library)}"></script>'
    if info.get('level') and size == PAGE_SIZE:  # a level: a view filling the page (its window, or a notebook's frame)
        viewer_size, view_size = 'width: 100%; height: 100vh;', 'width: 100%; flex: 1; min-height: 240px;'
    else:
        viewer_size, view_size = f'width: {int(size[0])}px;', f'width: {int(size[0])}px; height: {int(size[1])}px;'
    scripts = ''.join(f'<script src="{html.escape(assets.address(key))}"></script>\n' for key in asset_keys) if assets else ''
    text = PAGE_HTML.format(
        title=html.escape(name),
        viewer_size=viewer_size,
        view_size=view_size,
        library=scripts + script,
        models=json.dumps(encoded),
        info=json.dumps(info).replace('</', '<\\/'),
    )
    return text.replace('</body>', f'{extra}\n</body>') if extra else text


def write_page(source: Any, path: str | Path, **options: Any) -> Path:
    """Write :func:`page` to ``path`` atomically; return the path."""
    atomic_write(Path(path), page(source, **options).encode('utf-8'))
    return Path(path)


def viewer(source: Any, *, animation: Any = None, size: tuple[int, int] = (640, 480), **options: Any) -> Viewer:
    """A model, file, archive member or player playing in a notebook (JupyterLab, Notebook 7, VS Code).

    The cell's output is the page of :func:`page` in an iframe: it plays
    from a saved notebook and from nbconvert's HTML too, with no kernel and
    no network.  Display the returned object (the last line of a cell).

    Examples
    --------
    >>> import pyvista_quake as pq
    >>> pq.viewer('models/monsters/tank/tris.md2')  # doctest: +SKIP

    """
    name = getattr(source, 'source', None) or (str(source) if isinstance(source, (str, Path)) else type(source).__name__)
    return Viewer(page(source, animation=animation, size=size, **options), height=int(size[1]) + 80, name=str(name))
