"""``mesh.quake``: the skin that travels in a Quake frame's field data.

Registered through PyVista's ``pyvista.accessors`` entry-point group, so it
works on any dataset read from a Quake model -- also after ``copy()``,
slicing, or a round trip through a ``.vtp`` file -- without importing this
package.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np
import pyvista as pv

from pyvista_quake._base import fields as keys
from pyvista_quake.game.skins import fullbright_mask
from pyvista_quake.model.loading import load
from pyvista_quake.model.mesh import carried_palette_indices
from pyvista_quake.model.mesh import carried_pictures
from pyvista_quake.model.mesh import field_text
from pyvista_quake.model.mesh import field_value
from pyvista_quake.model.mesh import image_texture


@pv.register_dataset_accessor('quake', pv.DataSet)
class QuakeAccessor:
    """Quake metadata and skin of a dataset read from an ``.mdl``, ``.md2`` or ``.md3`` (a surface of its frame).

    Parameters
    ----------
    mesh : pyvista.DataSet
        A frame of a Quake model (or anything carrying its field data).

    Examples
    --------
    >>> import pyvista as pv
    >>> mesh = pv.read('tris.md2')  # doctest: +SKIP
    >>> mesh.plot(texture=mesh.quake.texture)  # doctest: +SKIP

    """

    def __init__(self, mesh: pv.DataSet) -> None:
        self._mesh = mesh

    def _field(self, name: str):
        return field_value(self._mesh, name)

    def _text(self, name: str) -> str | None:
        return field_text(self._mesh, name)

    @property
    def format(self) -> str | None:
        """``'md2'``, ``'mdl'``, ``'md3'``, or ``None`` for a dataset that is not a Quake frame."""
        return self._text(keys.FORMAT)

    @property
    def frame_name(self) -> str | None:
        """Name of the frame."""
        return self._text(keys.FRAME_NAME)

    @property
    def skins(self) -> list[str]:
        """Names of the model's skins (MD2 image paths; ``skin N`` for MDL pictures)."""
        names = self._field(keys.SKIN_NAMES)
        if names is not None:
            return [str(n) for n in names]
        count = self._field(keys.NUM_SKINS)
        return [f'skin {i}' for i in range(int(count[0]))] if count is not None else []

    @property
    def skin(self) -> int | None:
        """Index of the skin the mesh carries, or ``None``."""
        index = self._field(keys.SKIN_INDEX)
        return int(index[0]) if index is not None else None

    @property
    def skin_location(self) -> str | None:
        """Where an MD2 skin was found (a path, or ``archive:member``)."""
        return self._text(keys.SKIN_LOCATION)

    @property
    def skin_file(self) -> tuple[bytes, str] | None:
        """The skin's file as it was found and its MIME type, where a browser draws it as :meth:`image` is: a PNG
        or JPEG whose alpha no shader changes (``None`` otherwise: a PCX, TGA, palette skin or shader-drawn alpha)."""
        encoded = self._field(keys.SKIN_FILE)
        if encoded is None or self._text(keys.SKIN_ALPHA) is not None:
            return None
        data = np.asarray(encoded, np.uint8).tobytes()
        if data.startswith(b'\x89PNG\r\n\x1a\n'):
            return data, 'image/png'
        if data.startswith(b'\xff\xd8\xff'):
            return data, 'image/jpeg'
        return None

    @cached_property
    def _pictures(self) -> np.ndarray | None:
        """All RGB(A) pictures of the skin, ``(n, height, width, channels)``."""
        return carried_pictures(self._mesh)

    @property
    def palette_indices(self) -> np.ndarray | None:
        """An MDL skin's palette indices, ``(n, height, width)``; ``None`` for MD2."""
        return carried_palette_indices(self._mesh)

    @property
    def skin_times(self) -> np.ndarray | None:
        """End time of each picture of an animated MDL skin group; ``None`` otherwise."""
        times = self._field(keys.SKIN_TIMES)
        return None if times is None else np.asarray(times, np.float64)

    def image(self, picture: int = 0) -> np.ndarray | None:
        """The skin as an RGB(A) ``uint8`` image, rows from the top; ``None`` with no skin."""
        pictures = self._pictures
        return None if pictures is None else pictures[picture]

    @property
    def fullbright(self) -> np.ndarray | None:
        """Pixels of an MDL skin that Quake draws unlit (palette indices 224-255)."""
        indices = self.palette_indices
        return None if indices is None else fullbright_mask(indices[0])

    @property
    def texture(self) -> pv.Texture | None:
        """The skin as a :class:`pyvista.Texture` for the mesh's texture coordinates, or ``None``."""
        image = self.image()
        return None if image is None else image_texture(image)

    def set_skin(self, index: int) -> pv.DataSet:
        """Carry another of the model's skins, reloaded from the model's file.

        Parameters
        ----------
        index : int
            Index into :attr:`skins`.

        Returns
        -------
        pyvista.DataSet
            The same mesh, for chaining.

        """
        source = self._text(keys.SOURCE)
        if source is None:
            raise ValueError('this mesh does not name the model file it came from; load it with skin=...')
        model = load(source, skin=index)
        for name in keys.SKIN_KEYS:
            if name in self._mesh.field_data:
                del self._mesh.field_data[name]
        carried = model.mesh(0).field_data  # the skin as the model's frames carry it
        for name in keys.SKIN_KEYS:
            if name in carried:
                self._mesh.field_data[name] = carried[name]
        self.__dict__.pop('_pictures', None)
        return self._mesh
