"""PyVista reader classes for ``.md2``, ``.mdl``, ``.md3``, ``.iqm`` and ``.md5mesh``, registered as ``pyvista.readers`` entry points.

The readers are thin: they hold a :class:`~pyvista_quake.QuakeModel` and a
choice of frame.  Time points are the model's frames (or one animation's),
through PyVista's :class:`~pyvista.TimeReader` interface, so
``pv.get_reader("tris.md2")`` plays like any time series.
"""

from __future__ import annotations

from collections import OrderedDict
import functools
import os
import pickle
import types
from typing import Any
from typing import TypeVar

import numpy as np
import pyvista as pv

from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake._base.options import LoadOptions
from pyvista_quake._base.warnings import warn_external
from pyvista_quake.data.animation import Animation
from pyvista_quake.formats import FORMATS
from pyvista_quake.formats import spec_for
from pyvista_quake.formats.registry import LISTENERS
from pyvista_quake.formats.registry import SNIFF_BYTES
from pyvista_quake.formats.registry import FormatSpec
from pyvista_quake.formats.registry import plugin_extensions
from pyvista_quake.model.demos import Demo
from pyvista_quake.model.demos import load_demo
from pyvista_quake.model.loading import load
from pyvista_quake.model.mesh import vtk_array
from pyvista_quake.model.navigation import load_navigation
from pyvista_quake.model.quake_model import QuakeModel


class UnknownOptionError(TypeError, AttributeError):
    """An option neither :class:`~pyvista_quake.LoadOptions` nor the file's format takes (an ``AttributeError`` too,
    so that ``hasattr`` answers ``False``)."""


_Output = TypeVar('_Output', bound=pv.DataObject, covariant=True)


class _QuakeSource(pv.BaseVTKReader):
    """The VTK-algorithm half of the readers: loads the model, builds the active frame."""

    #: Frames as MultiBlocks of surfaces (else one PolyData): what the reader's class promises.
    blocks = False
    #: A model inside the archive this reads (the archive readers'), else ``None``.
    member: str | None = None

    def __init__(self) -> None:
        super().__init__()
        self.options = LoadOptions()
        #: The options the file's own format takes (the keyword-only parameters of its ``read``).
        self.format_options: dict[str, Any] = {}
        #: The options as bytes, part of the model cache's key: made once per options object.
        self.settings = _default_settings()
        self.model: QuakeModel | None = None
        self.error: QuakeFormatError | None = None
        self._animation: Animation | None = None
        self.time_point = 0
        self._stale = True

    def UpdateInformation(self) -> None:  # noqa: N802 - VTK's name
        """Forget the model: it is loaded when first wanted, with the options set by then.

        ``pv.read(path, skin=None)`` makes the reader (a new file name), then sets
        each keyword: loading here would load the file once more for every keyword.
        """
        self.model, self._animation, self.error = None, None, None
        self.time_point = 0
        self._stale = True

    def _load(self) -> None:
        """Load the model (its header and sections, no frame yet), or keep the error that loading gave."""
        self._stale = False
        try:
            key = _cache_key(self._filename, self.settings, self.member)
            self.model = _MODELS.get(key) if key is not None else None
            if key is not None and self.model is not None and self.model.edited:
                # An edited model is no longer the file's.
                del _MODELS[key]
                self.model = None
            if self.model is None:
                self.model = load(self._filename, **self._member(), **self.options.as_dict(), **self.format_options)
                if key is not None:
                    _remember(key, self.model)
        except QuakeFormatError as error:
            # pv.read turns a ValueError raised while making the reader into a bare
            # OSError; keep ours for read(), where it reaches the user intact.
            self.error = error

    def _member(self) -> dict:
        return {'member': self.member} if self.member is not None else {}

    def loaded(self) -> QuakeModel:
        """Return the model, or raise the error that loading it gave."""
        if self._stale:
            self._load()
        if self.error is not None:
            raise self.error
        assert self.model is not None
        return self.model

    @property
    def animation(self) -> Animation:
        """The active animation (the whole file until one is chosen)."""
        if self._animation is None:
            self._animation = self.loaded().animation(None)
        return self._animation

    @animation.setter
    def animation(self, value: Animation) -> None:
        self._animation = value

    def _blocks(self, model: QuakeModel) -> bool:
        return self.blocks

    def Update(self) -> None:  # noqa: N802 - VTK's name
        """Build the active frame: its PolyData, or a MultiBlock of its surfaces (``blocks``)."""
        model = self.loaded()
        if self._animation is None and self.time_point == 0:
            frame, time = 0, 0.0  # the common pv.read: no timeline needed
        else:
            frame, time = int(self.animation.frames[self.time_point]), float(self.animation.times[self.time_point])
        mesh = model.blocks(frame) if self._blocks(model) else model.mesh(frame)
        mesh.GetFieldData().AddArray(_time_array(time))
        self._data_object = mesh


#: Models the readers loaded, by file identity and options: reading a file again (a
#: time series, a loop of pv.read) costs its frame only.  A changed model file, or a
#: file added to or removed from its folder (a skin), makes a new entry.
_MODELS: OrderedDict[tuple, QuakeModel] = OrderedDict()
MODEL_CACHE_SIZE = 32


def _cache_key(filename: str, settings: bytes | None, member: str | None = None) -> tuple | None:
    if settings is None:
        return None
    try:
        path = os.path.abspath(filename)
        state = os.stat(path)
        folder = os.stat(os.path.dirname(path))
    except OSError:
        return None
    return (path, state.st_size, state.st_mtime_ns, state.st_ino, folder.st_mtime_ns, settings, member)


def settings_of(options: LoadOptions, format_options: dict[str, Any] | None = None) -> bytes | None:
    """The options (and a format's own) as bytes for the model cache's key; ``None`` for options that do not pickle."""
    try:
        return pickle.dumps(sorted({**options.as_dict(), **(format_options or {})}.items(), key=lambda item: item[0]))
    except (pickle.PicklingError, TypeError, AttributeError):
        return None


@functools.lru_cache(maxsize=1)
def _default_settings() -> bytes | None:
    return settings_of(LoadOptions())


def _remember(key: tuple, model: QuakeModel) -> None:
    _MODELS[key] = model
    _MODELS.move_to_end(key)
    while len(_MODELS) > MODEL_CACHE_SIZE:
        _MODELS.popitem(last=False)


@functools.lru_cache(maxsize=4096)
def _time_array(time: float):
    """The ``time`` field array of a frame, one per time value, shared by the meshes read at it."""
    return vtk_array('time', np.array([time], np.float64))


def _option(name: str) -> property:
    """A reader attribute for one option of :class:`~pyvista_quake.model.loading.LoadOptions`; setting it reloads."""

    def get(self):
        value = getattr(self._source.options, name)
        return list(value) if isinstance(value, list) else value

    def set(self, value) -> None:
        self._reload(**{name: value})

    return property(get, set, doc=f'The ``{name}`` option of :func:`pyvista_quake.load` (see LoadOptions); setting it reloads.')


class _BlocksSource(_QuakeSource):
    blocks = True


class _MemberSource(_QuakeSource):
    """A model inside a PAK or PK3: its frames as its format gives them (an MD3's as MultiBlocks)."""

    def _load(self) -> None:
        """Load the member (none named yet: the error says how to name one)."""
        if self.member is None:
            self._stale = False
            self.error = QuakeFormatError(
                self._filename, 'member', None, 'name the model inside the archive: pv.read(path, member="models/x.md3"), or reader.member = ...'
            )
            return
        super()._load()

    def _blocks(self, model: QuakeModel) -> bool:
        return model.spec.output == 'MultiBlock'  # several surfaces: MD3, IQM, MD5, levels


class QuakeReader(pv.BaseReader[_Output], pv.TimeReader):
    """Reader for Quake models; each frame is a time point.

    Keyword arguments of :func:`pyvista.read` set the attributes below, e.g.
    ``pv.read("tris.md2", glcmds=True)`` or ``pv.read("tris.md2", frame=10)``.

    Parameters
    ----------
    path : str, pathlib.Path
        The model file.

    Examples
    --------
    >>> import pyvista as pv
    >>> reader = pv.get_reader('tris.md2')  # doctest: +SKIP
    >>> reader.set_active_animation('run')  # doctest: +SKIP
    >>> for t in reader.time_values:  # doctest: +SKIP
    ...     reader.set_active_time_value(t)
    ...     mesh = reader.read()

    """

    _class_reader = _QuakeSource

    @property
    def _source(self) -> _QuakeSource:
        return self.reader

    def _reload(self, **options: Any) -> None:
        self._source.options = self._source.options.replace(**options)
        self._source.settings = settings_of(self._source.options, self._source.format_options)
        self._update_information()

    # -- the options of the file's own format (its read's keyword-only parameters) --------
    def _file_format(self) -> FormatSpec:
        """The format of the file (told by its bytes), without loading the model."""
        if self._source.member is not None or not self._source._filename:
            return self.model.spec
        with open(self._source._filename, 'rb') as file:
            head = file.read(SNIFF_BYTES)
        return spec_for(head, self._source._filename)

    def __getattr__(self, name: str) -> Any:
        """An option of the file's own format (``pv.read("x.qtoy", scale=2)``); else a ``TypeError`` naming its options."""
        if name.startswith('_') or '_reader' not in self.__dict__:
            raise AttributeError(name)
        spec = self._file_format()
        if name not in spec.read_options:
            takes = ', '.join(spec.read_options) or 'none'
            raise UnknownOptionError(
                f'{self._source._filename}: {type(self).__name__} has no option {name!r}, nor has its {spec.name!r} format (its own: {takes})'
            )
        return self._source.format_options.get(name, spec.read_options[name])

    def __setattr__(self, name: str, value: Any) -> None:
        """Set an attribute; one that is an option of the file's own format reloads the model with it."""
        if name.startswith('_') or hasattr(type(self), name) or name in self.__dict__:
            object.__setattr__(self, name, value)
            return
        getattr(self, name)  # an option of the file's format, or a TypeError naming its options
        self._source.format_options = {**self._source.format_options, name: value}
        self._reload()

    # -- options: every option of load(), as an attribute (pv.read keywords set them) ----
    locals().update({name: _option(name) for name in LoadOptions.names()})

    @property
    def entry(self) -> int:
        """QuakeC's frame number of the frame :meth:`read` returns (an MDL frame group is one entry)."""
        frame = self.frame
        return next(k for k, poses in enumerate(self.model.entries) if frame in poses)

    @entry.setter
    def entry(self, index: int) -> None:
        self.frame = self.model.entries[int(index)][0]

    @property
    def model(self) -> QuakeModel:
        """The loaded :class:`~pyvista_quake.QuakeModel`.

        Raises
        ------
        QuakeFormatError
            If the file is malformed.

        """
        return self._source.loaded()

    # -- animations -----------------------------------------------------------------
    @property
    def animations(self) -> dict[str, Animation]:
        """The model's animations by name; set a mapping (the ``animations`` option of ``load``) to add some."""
        return self.model.animations

    @animations.setter
    def animations(self, value: dict | None) -> None:
        self._reload(animations=value)

    @property
    def active_animation(self) -> str | None:
        """Name of the animation the time points are restricted to (``None``: every frame)."""
        active = self._source._animation
        return None if active is None or active.source == 'file' else active.name

    @active_animation.setter
    def active_animation(self, name: str | None) -> None:
        self.set_active_animation(name)

    def set_active_animation(self, name: str | None) -> None:
        """Restrict the time points to one animation; ``None`` for the whole file.

        Parameters
        ----------
        name : str or None
            A key of :attr:`animations`.

        """
        self._source.animation = self.model.animation(name)
        self._source.time_point = 0

    # -- frames ----------------------------------------------------------------------
    @property
    def frame(self) -> int:
        """Index in the model of the frame :meth:`read` returns."""
        return int(self._clip.frames[self._source.time_point])

    @frame.setter
    def frame(self, index: int) -> None:
        self.set_active_animation(None)
        index = int(index)
        self.set_active_time_point(index + len(self.model) if index < 0 else index)

    # -- TimeReader ----------------------------------------------------------------
    @property
    def _clip(self) -> Animation:
        return self._source.animation  # raises the loading error, if any

    @property
    def number_time_points(self) -> int:
        """Number of time points: every frame, or the active animation's frames."""
        return len(self._clip.frames)

    def time_point_value(self, time_point: int) -> float:
        """Time in seconds of a time point.

        Parameters
        ----------
        time_point : int
            Index of the time point.

        Returns
        -------
        float
            Seconds from the start of the file (or of the active animation).

        """
        self._check_time_point(time_point)
        return float(self._clip.times[time_point])

    @property
    def time_values(self) -> list[float]:
        """Every time point's time in seconds, strictly increasing."""
        return self._clip.times.tolist()

    @property
    def active_time_value(self) -> float:
        """Time in seconds of the active time point."""
        return float(self._clip.times[self._source.time_point])

    def set_active_time_value(self, time_value: float) -> None:
        """Activate the frame shown at ``time_value`` seconds.

        Parameters
        ----------
        time_value : float
            Seconds from the start; the frame whose display interval holds it
            becomes active.

        """
        clip = self._clip
        if not 0 <= time_value <= clip.duration:
            raise ValueError(f'time {time_value} outside 0..{clip.duration}')
        point = int(np.searchsorted(clip.times, time_value + 1e-9, side='right') - 1)
        self._source.time_point = min(max(point, 0), len(clip.times) - 1)

    def set_active_time_point(self, time_point: int) -> None:
        """Activate a time point by index.

        Parameters
        ----------
        time_point : int
            Index of the time point.

        """
        self._check_time_point(time_point)
        self._source.time_point = int(time_point)

    def _check_time_point(self, time_point: int) -> None:
        if not 0 <= time_point < self.number_time_points:
            raise ValueError(f'time point {time_point} outside 0..{self.number_time_points - 1}')


def reader_class(spec: FormatSpec, notes: str = '') -> type[QuakeReader]:
    """The PyVista reader class of a registered format, made from its registration: each frame the type its
    ``output`` says (a ``PolyData`` for a model of one surface of packed bytes, else a ``MultiBlock``)."""
    several = spec.output == 'MultiBlock'
    base = QuakeReader[pv.MultiBlock] if several else QuakeReader[pv.PolyData]
    kind = 'a :class:`pyvista.MultiBlock` of its surfaces' if several else 'a :class:`pyvista.PolyData`'
    extensions = ', '.join(f'``{e}``' for e in spec.extensions)
    doc = f'Reader for {spec.title} ({extensions}): each frame {kind} (see :class:`QuakeReader`).' + (f'\n\n    {notes}\n    ' if notes else '')
    namespace = {'__doc__': doc, '__module__': __name__, '_class_reader': _BlocksSource if several else _QuakeSource}
    return types.new_class(f'{spec.name.upper()}Reader', (base,), {}, lambda ns: ns.update(namespace))


#: The built-in formats' readers, named in this package's ``pyvista.readers`` entry points.
MD2Reader = reader_class(FORMATS['md2'])
MDLReader = reader_class(FORMATS['mdl'])
MD3Reader = reader_class(FORMATS['md3'])
IQMReader = reader_class(FORMATS['iqm'], 'An ``iqm.cfg`` beside the file gives its skins and named animations, as Cube 2 engines read it.')
MD5Reader = reader_class(
    FORMATS['md5'], 'Animations come from ``.md5anim`` files: ``pv.read("x.md5mesh", animations=["x_run.md5anim"])``, or the ``md5.cfg`` beside it.'
)
BSPReader = reader_class(
    FORMATS['bsp'],
    '``pv.read("q3dm6.bsp", hide=())`` keeps the faces the engine does not draw; ``patch_level=`` sets the tessellation '
    "of Quake III's curved patches.",
)


class FormatReader(QuakeReader[pv.MultiBlock]):
    """Reader for a format registered with :func:`pyvista_quake.register_format`: each frame a
    :class:`pyvista.MultiBlock` of its surfaces (see :class:`QuakeReader`)."""

    _class_reader = _BlocksSource


#: The extensions this module gave PyVista's reader registry.
_REGISTERED: set[str] = set()


def register_reader(spec: FormatSpec) -> None:
    """Make PyVista read a third party's format: its :func:`reader_class` for each of its extensions.

    An extension a built-in format has stays with its reader (which tells the file's format by its
    bytes); one PyVista's own readers take is left to them, with a warning.
    """
    if spec.third_party:
        _register_extensions(spec.extensions, spec.name, reader_class(spec))


def _register_extensions(extensions: tuple[str, ...], name: str, reader: type[QuakeReader] | None = None) -> None:
    builtin = {e for other in dict.values(FORMATS) if not other.third_party for e in other.extensions}
    for extension in extensions:
        if extension in _REGISTERED or extension in builtin:
            continue  # FormatReader, or a built-in format's reader, already reads the extension
        try:
            pv.register_reader(extension, reader if reader is not None else FormatReader)
            _REGISTERED.add(extension)
        except ValueError as error:  # a built-in VTK reader's extension: PyVista keeps its own
            warn_external(f"pyvista_quake: the {name!r} format's {extension} stays with PyVista's reader ({error})")


class ArchiveReader(QuakeReader[pv.DataObject]):
    """Reader for a model inside a Quake PAK or a PK3: ``pv.read("pak0.pk3", member="models/x.md3")``.

    ``pv.read`` sets ``member`` from its keyword; with ``pv.get_reader``, set
    it on the reader (``reader.member = "progs/player.mdl"``), which takes no
    keywords.  A frame is a PolyData for an MD2 or MDL member, a MultiBlock
    of its surfaces for an MD3.  The member's skins are found in the archive
    and the ones beside it, as the game finds them.
    """

    _class_reader = _MemberSource

    @property
    def member(self) -> str | None:
        """The model inside the archive (``'models/monsters/tank/tris.md2'``); setting it loads that model."""
        return self._source.member

    @member.setter
    def member(self, name: str | None) -> None:
        self._source.member = name
        self._update_information()


class _NavigationSource(pv.BaseVTKReader):
    """A bot navigation file read whole: its areas."""

    def UpdateInformation(self) -> None:  # noqa: N802 - VTK's name
        """Nothing to read ahead: the file is read by :meth:`Update`."""
        self._data_object = None

    def Update(self) -> None:  # noqa: N802 - VTK's name
        """Read the file; its areas are the output."""
        self._data_object = load_navigation(self._filename).areas


class AASReader(pv.BaseReader[pv.PolyData]):
    """Reader for Quake III bots' navigation files (``maps/NAME.aas``): a :class:`pyvista.PolyData` of every
    area's faces with its number, presence type, contents, flags and cluster (see
    :attr:`pyvista_quake.model.navigation.Navigation.areas`; ``pyvista_quake.load_navigation`` gives the rest)."""

    _class_reader = _NavigationSource


class _DemoSource(pv.BaseVTKReader):
    """A demo read whole; its output the players at the active time point."""

    def __init__(self) -> None:
        super().__init__()
        self.demo: Demo | None = None
        self.time_point = 0

    def UpdateInformation(self) -> None:  # noqa: N802 - VTK's name
        """Read the demo (its messages, once)."""
        self.demo = load_demo(self._filename)
        self.time_point = 0

    def Update(self) -> None:  # noqa: N802 - VTK's name
        """The players at the active time point."""
        assert self.demo is not None  # read by UpdateInformation
        self._data_object = self.demo.players_at(self.time_point)


class DemoReader(pv.BaseReader[pv.PolyData], pv.TimeReader):
    """Reader for demos (Quake's ``.dem``, Quake III's ``.dm_68``, ``.dm_70``, ``.dm_71``): a time point each snapshot
    (a Quake demo's timed message), the players there as points with their ``client``, ``name`` and ``angles`` (see
    :func:`pyvista_quake.load_demo` for the rest).

    ``pv.get_reader("x.dm_68")`` gives it; PyVista's own ``pv.read`` takes ``.dem`` files as elevation models
    (``DEMReader``), which this does not override: make the reader directly, ``DemoReader("demo1.dem")``.
    """

    _class_reader = _DemoSource

    @property
    def demo(self) -> Demo:
        """The demo read."""
        demo = self.reader.demo
        assert demo is not None
        return demo

    @property
    def number_time_points(self) -> int:
        """Timed messages."""
        return len(self.demo.times)

    def time_point_value(self, time_point: int) -> float:
        """Server time in seconds of a time point."""
        return float(self.demo.times[time_point])

    @property
    def time_values(self) -> list[float]:
        """Every time point's server time (repeated where messages share one)."""
        return self.demo.times.tolist()

    @property
    def active_time_value(self) -> float:
        """Server time of the active time point."""
        return float(self.demo.times[self.reader.time_point])

    def set_active_time_value(self, time_value: float) -> None:
        """Activate the last time point at or before ``time_value`` (the first where it is earlier than all)."""
        times = self.demo.times
        self.set_active_time_point(max(int(np.searchsorted(times, time_value, side='right')) - 1, 0))

    def set_active_time_point(self, time_point: int) -> None:
        """Activate a time point by index."""
        if not 0 <= time_point < self.number_time_points:
            raise IndexError(f'time point {time_point} is not 0 to {self.number_time_points - 1}')
        self.reader.time_point = time_point


LISTENERS.append(register_reader)
# The extensions installed formats are named by: PyVista reads them, and the format is imported when such a file is.
_register_extensions(plugin_extensions(), 'installed')
for _spec in list(dict.values(FORMATS)):  # any registered before this module (without loading the plugins here)
    register_reader(_spec)
