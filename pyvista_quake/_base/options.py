"""The options of reading a model, in one place: :class:`LoadOptions`.

Every function that takes a model file (``load``, ``pv.read``, export, the
pictures, the batches) takes these as keywords; :func:`split_options` parts
them from that function's own keywords, so no module lists them again.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from dataclasses import fields
import math
from pathlib import Path
from typing import Any
from typing import Mapping

import numpy as np

#: Frames per second of a frame that has no timing of its own: Quake II's
#: server frame is 0.1 s and Quake animates its monsters at 10 Hz.
DEFAULT_FPS = 10.0
#: What a level's ``hide=`` can name: faces the engines do not draw as geometry.
HIDE_KINDS = ('sky', 'nodraw', 'trigger', 'clip')


@dataclass
class LoadOptions:
    """How a model is read; each is a keyword of :func:`load` and of ``pv.read``.

    Attributes
    ----------
    strict : bool or str, default: False
        An engine name (``'quake'``, ``'glquake'``, ``'quakespasm'``,
        ``'ezquake'``, ``'quake2'``, ``'yquake2'``): raise for what that engine
        refuses; ``True``: for what any of them refuses (see
        :func:`pyvista_quake.check`).  By default only what no engine can draw
        is an error: real models exceed the limits on purpose.
    glcmds : bool, default: False
        Build MD2 frames from the OpenGL command list (strips and fans with
        their float texture coordinates) instead of the triangles.
    fps : float, default: 10.0
        Frame rate of frames with no timing of their own.
    animations : dict or list, optional
        Extra animations, ``{"run": range(40, 46)}`` or ``{"run": (frames, times)}``;
        for a skeletal model (IQM, MD5) also a list of animation files to attach
        (``.md5anim`` files, IQM files of poses), each an animation named after it.
        Without it, an MD5 mesh no config animates takes the ``.md5anim`` of its
        own name beside it; ``[]`` attaches none.
    anm : bool, str or pathlib.Path, default: True
        A UFO: Alien Invasion ``.anm`` file naming animations; ``True`` uses the
        one beside the model (same stem) if there is one, ``False`` none.
    skin : int, str, path or None, default: 0
        Which skin travels with the frames (in their field data); ``None`` for
        none.  For an MD3: ``0`` or ``'default'`` uses ``<model>_default.skin``
        beside the model when there is one, else each surface's shader name;
        another name ``<model>_<name>.skin``; a path that ``.skin`` file;
        another index the surfaces' shader of that number.
    search_paths : list of paths
        Extra places for skins: game folders, or PAK/PK3 files.  The
        ``PYVISTA_QUAKE_PATH`` environment variable adds more.
    palette : path or array, optional
        Palette for MDL skins (a ``palette.lmp`` or a 256 x 3 array); by default
        the game's own ``gfx/palette.lmp`` when found, else Quake's.
    texel_centers : bool, default: False
        Texture coordinates at texel centres, ``(s + 0.5) / skinwidth``, as the
        OpenGL engines sample them (GLQuake's ``gl_mesh.c``; an MD2's GL
        commands store them so); by default ``s / skinwidth``, as WinQuake.
    group_timing : {'winquake', 'glquake'}, default: 'winquake'
        MDL frame groups: WinQuake's intervals as each pose's end time
        (``r_alias.c R_AliasSetupFrame``), or GLQuake's, QuakeSpasm's and
        ezQuake's every pose for ``intervals[0]`` (``gl_rmain.c R_SetupAliasFrame``).
    normals : {'stored', 'computed'}, default: 'stored'
        The file's table normals, or normals computed from each frame's
        geometry, smooth per file vertex across texture seams (UFO: AI's renderer).
    external_skins : bool, default: True
        For an MDL, prefer a replacement skin beside it, named as DarkPlaces,
        FTE and QuakeSpasm-Spiked name them (``progs/player.mdl_0.png``), over
        the embedded one.
    holey : bool, default: True
        For an MDL with ``MF_HOLEY`` (flag ``1 << 14``), palette index 255
        transparent, as QuakeSpasm draws it.
    lod : int, default: 0
        For an MD3, a level of detail: ``1`` reads ``name_1.md3``, ``2``
        ``name_2.md3``, as ``R_RegisterMD3`` names them.
    hide : tuple of str, default: ('sky', 'nodraw', 'trigger', 'clip')
        For a level (``.bsp``), the faces left out, by what their shader's or
        texture's flags (or a tool texture's name) make them, as the engines tell
        them: by default what the engine does not draw as geometry; ``()`` keeps every face.
    patch_level : int or 'engine', default: 8
        For a Quake III level, each 3 x 3 block of a Bezier patch's control grid
        becomes ``patch_level`` x ``patch_level`` cells; ``'engine'`` subdivides
        each patch as the game's renderer does (``R_SubdividePatchToGrid``).

    """

    strict: bool | str = False
    glcmds: bool = False
    fps: float = DEFAULT_FPS
    animations: dict | list | str | Path | None = None
    anm: str | Path | bool | None = True
    skin: int | str | Path | None = 0
    search_paths: list[Path] = field(default_factory=list)
    palette: str | Path | np.ndarray | None = None
    texel_centers: bool = False
    group_timing: str = 'winquake'
    normals: str = 'stored'
    external_skins: bool = True
    holey: bool = True
    lod: int = 0
    hide: tuple[str, ...] = HIDE_KINDS
    patch_level: int | str = 8

    def __post_init__(self) -> None:
        if isinstance(self.hide, str):
            self.hide = (self.hide,)
        self.hide = tuple(self.hide)
        unknown = [h for h in self.hide if h not in HIDE_KINDS]
        if unknown:
            raise ValueError(f'hide names what a level leaves out, any of {HIDE_KINDS}; not {unknown[0]!r}')
        if isinstance(self.search_paths, (str, Path)):
            self.search_paths = [self.search_paths]
        self.search_paths = [Path(p) for p in self.search_paths or []]
        if not (math.isfinite(self.fps) and self.fps > 0):
            raise ValueError(f'fps must be a positive number, not {self.fps!r}')
        self.fps = float(self.fps)
        choices = {'group_timing': ('winquake', 'glquake'), 'normals': ('stored', 'computed')}
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f'{name} must be one of {allowed}, not {getattr(self, name)!r}')

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The option names."""
        return _OPTION_NAMES

    def as_dict(self) -> dict[str, Any]:
        """The options by name, as keywords of :func:`load`."""
        return {name: getattr(self, name) for name in self.names()}

    def replace(self, **changes: Any) -> LoadOptions:
        """A copy with some options changed."""
        return LoadOptions(**{**self.as_dict(), **changes})


_OPTION_NAMES = tuple(f.name for f in fields(LoadOptions))


def split_options(keywords: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Part keywords into the options of :class:`LoadOptions` and the rest.

    Returns
    -------
    tuple of dict
        ``(load_options, others)``, each keyword in one of them.

    """
    ours = {k: v for k, v in keywords.items() if k in _OPTION_NAMES}
    return ours, {k: v for k, v in keywords.items() if k not in _OPTION_NAMES}
