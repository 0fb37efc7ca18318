"""Loading a model: from a path, bytes, a binary file or an archive member.

:func:`load` reads the bytes (:mod:`.sources`), parses them (:mod:`.formats`),
applies ``strict`` (:mod:`.engines`) and wraps the data in a
:class:`~pyvista_quake.QuakeModel`; its options are :class:`~pyvista_quake.LoadOptions`.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from pathlib import Path
from pathlib import PurePosixPath
from typing import Any
from typing import Callable

import numpy as np
import pyvista as pv

from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake._base.options import LoadOptions
from pyvista_quake._base.options import split_options
from pyvista_quake._base.warnings import warn_external
from pyvista_quake.data.animation import Animation
from pyvista_quake.data.poses import PoseRun
from pyvista_quake.data.skinning import attach
from pyvista_quake.data.skinning import check_fit
from pyvista_quake.data.skinning import rest_locals
from pyvista_quake.data.skinning import skeleton_of
from pyvista_quake.formats import FORMATS
from pyvista_quake.formats import animation_cfg
from pyvista_quake.formats import iqm
from pyvista_quake.formats import md3
from pyvista_quake.formats import md5
from pyvista_quake.formats import parse_buffer
from pyvista_quake.formats import spec_for
from pyvista_quake.formats.model_cfg import Played
from pyvista_quake.formats.records import Clip
from pyvista_quake.formats.records import ModelData
from pyvista_quake.formats.records import SkeletalAnimationData
from pyvista_quake.formats.registry import FormatSpec
from pyvista_quake.formats.registry import check_read_options
from pyvista_quake.game import model_configs
from pyvista_quake.game.engines import enforce
from pyvista_quake.game.filesystem import GameFiles
from pyvista_quake.game.filesystem import real_path
from pyvista_quake.game.skins import read_palette
from pyvista_quake.game.sources import Location
from pyvista_quake.game.sources import Place
from pyvista_quake.game.sources import Source
from pyvista_quake.game.sources import read_source
from pyvista_quake.model.mesh import carried_pictures
from pyvista_quake.model.quake_model import QuakeModel


def load(source: Source | Place, *, member: str | None = None, **options: Any) -> QuakeModel:
    """Load a model: ``.mdl``, ``.md2``, ``.md3``, ``.iqm`` or ``.md5mesh``, the format from its magic bytes or grammar.

    Parameters
    ----------
    source : str, pathlib.Path, Place, bytes or binary file object
        The model (``ARCHIVE:MEMBER``, or a :class:`~pyvista_quake.game.sources.Place`, for one inside a PAK or PK3).
        For a skeletal model, also a Cube 2 ``iqm.cfg``/``md5.cfg``, or the folder
        holding one: the model as the game assembles it (a mesh with a config
        beside it gets the config's skins, animations and tags too).
    member : str, optional
        With ``source`` a PAK or PK3 archive: the model inside it, such as
        ``'progs/player.mdl'``; its skins are then looked for in the same archive.
    **options
        Any of :class:`~pyvista_quake.LoadOptions` (``strict``, ``skin``,
        ``search_paths``, ``palette``, ...), whose page lists them all.  For an
        IQM or MD5 mesh, ``animations=[files]`` attaches ``.md5anim`` or IQM
        animation files, their frames after the model's own.  An MD5 mesh that no
        config or ``animations=`` animates takes the ``.md5anim`` of its own name
        beside it (``bob.md5anim`` for ``bob.md5mesh``), as assimp does;
        ``animations=[]`` attaches nothing.

    Returns
    -------
    QuakeModel
        The model; frames are decoded only when asked for.

    Raises
    ------
    QuakeFormatError
        If the file is malformed; the message names the file, field and value.

    Examples
    --------
    >>> import pyvista_quake
    >>> model = pyvista_quake.load('models/monsters/tank/tris.md2')  # doctest: +SKIP
    >>> len(model), model.frame_names[:2]  # doctest: +SKIP
    (293, ['stand01', 'stand02'])
    >>> mesh = model.mesh(0)  # a PolyData; model.blocks(0) a MultiBlock of its surfaces  # doctest: +SKIP

    """
    options, own = split_options(options)  # the rest are the format's own options, checked once it is known
    if isinstance(source, Place):  # split where it entered: the archive and the member as they are
        member = source.member if member is None else member
        source = source.path
    opts = LoadOptions(**options)
    if opts.palette is not None:
        read_palette(opts.palette)  # a file that is no palette is an error now, not when an MDL skin is drawn
    if opts.lod:
        if not 0 < opts.lod < md3.MD3_MAX_LODS:
            raise ValueError(f'lod must be 0 to {md3.MD3_MAX_LODS - 1} (MD3_MAX_LODS), not {opts.lod!r}')
        if not str(member if member is not None else source).lower().endswith('.md3'):
            raise ValueError(f"lod= picks an MD3's level of detail; {member or _name(source)} is not an .md3")
        source, member = lod_source(source, member, opts.lod)
    config = None
    if model_configs.is_config_source(source, member):
        config, source = model_configs.model_config(Path(source))
    buffer, location = read_source(source, member)
    name, path, archive, member = location.name, location.path, location.archive, location.member
    spec = spec_for(buffer, name)
    check_read_options(spec, list(own), name)
    record = parse_buffer(buffer, name, spec, **own)
    enforce(record, len(buffer), opts.strict, name, spec)
    data = spec.decode(record, **{name: getattr(opts, name) for name in spec.options})
    if getattr(data, 'fps', None) is not None and 'fps' not in options:
        opts = dataclasses.replace(opts, fps=data.fps)  # the file's own rate, unless the user gave one
    if isinstance(data, ModelData) and any(s.kinds for s in data.surfaces):
        hidden = set(opts.hide)
        data = dataclasses.replace(data, surfaces=[s for s in data.surfaces if not s.kinds & hidden])
    roots = list(opts.search_paths)
    folder = location.archive_path.parent if location.archive_path is not None else None  # as named: links are not followed
    if folder is not None and folder not in roots:
        roots.append(folder)  # the game folder: its other archives and loose files, as the game finds them
    search = GameFiles(model_path=path, search_paths=roots, archive=archive, member=member, archive_folder=folder)
    if isinstance(data, ModelData) and FORMATS[data.format].config:  # a format assembled by Cube 2 configs
        if config is None and path is not None:
            beside = model_configs.find_config(Path(path), data.format)
            config = model_configs.resolve(beside) if beside is not None else None
            if config is not None and config.mesh is not None and config.mesh != Path(real_path(path)):
                config = None  # the config beside it assembles another mesh
        if config is None and opts.animations is None:
            opts = dataclasses.replace(opts, animations=_own_name_animations(search, spec))
        return QuakeModel(data, opts, search=search, animations=_attachments(data, config, opts, path), config=config)
    if opts.animations is not None and not isinstance(opts.animations, dict):
        raise TypeError(
            f'{name}: animations= of an {data.format.upper()} maps names to frames ({{"run": range(40, 46)}}); '
            'files of animations attach to skeletal models (IQM, MD5)'
        )
    if opts.animations is None and isinstance(data, ModelData) and location.file_name is not None:
        own = player_part_animations(search, location.file_name, data.num_frames)
        if own:
            opts = dataclasses.replace(opts, animations=own)
    return QuakeModel(data, opts, search=search)


#: A Quake III player's part files (and their levels of detail), and the animations of ``animation.cfg`` each plays.
_PLAYER_PARTS = {'lower': ('LEGS_', 'BOTH_'), 'upper': ('TORSO_', 'BOTH_')}


def player_part_animations(search: GameFiles, file_name: str, num_frames: int) -> dict[str, Animation]:
    """A player part's animations from the ``animation.cfg`` beside it, as the game plays them on that part:
    ``LEGS_*`` and ``BOTH_*`` on ``lower.md3``, ``TORSO_*`` and ``BOTH_*`` on ``upper.md3`` (none on the head,
    or for a file of another name).  An animation past the part's frames is left out."""
    stem = file_name.lower().rsplit('.', 1)[0]
    prefixes = _PLAYER_PARTS.get(stem.rsplit('_', 1)[0] if stem[-2:-1] == '_' and stem[-1:].isdigit() else stem)
    if prefixes is None or not file_name.lower().endswith('.md3'):
        return {}
    found = search.beside_model(animation_cfg.CONFIG_NAME)
    if found is None:
        return {}
    config = animation_cfg.parse(found[1].decode('latin-1'), found[0])
    out: dict[str, Animation] = {}
    for key, played in config.animations.items():
        frames = np.arange(played.first, played.first + max(played.count, 1))[:: -1 if played.reversed else 1]
        if key.startswith(prefixes) and frames.min() >= 0 and frames.max() < num_frames:
            out[key] = Animation.at_fps(key, frames, played.fps, 'animation.cfg')
    return out


def _own_name_animations(search: GameFiles, spec: FormatSpec) -> list[str] | None:
    """The animation file of the mesh's own name beside it (``bob.md5anim``), if the format takes one and it is there."""
    name = search.model_file_name()
    if name is None:
        return None
    for suffix in spec.animation_files:
        found = search.beside_model(str(PurePosixPath(name).with_suffix(suffix)))
        if found is not None:
            return [found[0]]
    return None


def _attachments(data: ModelData, config: model_configs.ResolvedConfig | None, opts: LoadOptions, path: Any) -> list[PoseRun]:
    """Each animation file the config and ``animations=`` name, with the names it plays under.

    A config's file is read (and checked against the skeleton) when a frame of it is first
    wanted, once however many runs name it: a picture of frame 0 reads the first file only.
    The files ``animations=`` gives are read now, so that a wrong one fails where it is given.
    """
    wanted: list[tuple[Any, list[Played], bool]] = []
    if config is not None:
        for played, file in config.animation_files:
            wanted.append((file, list(played), False))
    if opts.animations is not None and not isinstance(opts.animations, dict):
        given = [opts.animations] if isinstance(opts.animations, (str, Path)) else list(opts.animations)
        wanted += [(f, [], True) for f in given]
    out: list[PoseRun] = []
    runs: dict[str, PoseRun] = {}
    own = real_path(path) if path is not None else None
    skeleton = skeleton_of(data)
    own_animation = skeleton.animation
    rest = functools.partial(rest_locals, skeleton)
    last = _LastRead()  # a frame's run is outlined, then read: its file opened once for both
    for file, names, now in wanted:
        # A config's files are already resolved (their real paths, as the config found them).
        key = (real_path(file) if now else os.fspath(file)) if isinstance(file, (str, Path)) else str(id(file))
        if key == own and own_animation is not None:
            run = runs.setdefault(key, PoseRun([], animation=own_animation, key=key))  # the mesh's own frames, named by the config
        elif key in runs:
            first = runs[key]  # the same file again, later in the frames: read once
            run = PoseRun([], read=first.loaded, key=key, outline=None if now else _outline_of_run(first))
        else:
            named_in = None if now or config is None else config.path
            outline = None if now else _outliner(data, file, opts.strict, named_in, last)
            run = runs[key] = PoseRun([], read=_reader(data, file, opts.strict, named_in, last), key=key, outline=outline, rest=rest)
        if out and out[-1].key == key:
            out[-1].played.extend(names)
        else:
            run.played.extend(names)
            out.append(run)
        if now:
            run.loaded()
    return out


class _LastRead:
    """The animation file outlined last, its bytes kept for the read that follows.

    A picture of a frame outlines the runs up to it (their frame counts, from their
    headers), then reads the run the frame is in: the last file outlined, opened once
    for both.  One file is kept, however many a timeline outlines.
    """

    def __init__(self) -> None:
        self._kept: tuple[Any, Any, Location] | None = None

    def keep(self, file: Any, buffer: Any, location: Location) -> None:
        self._kept = (file, buffer, location)

    def take(self, file: Any) -> tuple[Any, Location] | None:
        """``file``'s bytes and location if they were the last kept (then no longer kept)."""
        kept, self._kept = self._kept, None
        return kept[1:] if kept is not None and kept[0] is file else None


def _reader(
    data: ModelData, file: Any, strict: bool | str, config: Path | None = None, last: _LastRead | None = None
) -> Callable[[], SkeletalAnimationData]:
    """Reads one animation file for a skeleton, checked against it (through ``last``: opened once with its outline).

    A file a ``config`` names that cannot be read, or does not fit the skeleton, is left out
    with a warning, as Cube 2 leaves it out ("could not load anim file"): its runs have no frames.
    """

    def animation() -> SkeletalAnimationData:
        kept = last.take(file) if last is not None else None
        if kept is None:
            return read_animation(file, strict)
        buffer, location = kept
        return _animation_of(_animation_record(buffer, location.name, strict), location)

    if config is None:
        return lambda: attach(data, animation(), _name(file))

    def read() -> SkeletalAnimationData:
        try:
            return attach(data, animation(), _name(file))
        except (OSError, QuakeFormatError) as why:
            _left_out(config, file, why)
            skeleton = skeleton_of(data)
            return SkeletalAnimationData(_name(file), list(skeleton.joints), np.zeros((0, len(skeleton.joints), 10)), [], skeleton.blend)

    return read


def _outline_of_run(run: PoseRun) -> Callable[[], tuple[int, list[Clip]]]:
    """Another run's outline (a file played again gives the same frames)."""
    return lambda: (run.frame_count(), run.clips())


def _outliner(
    data: ModelData, file: Any, strict: bool | str, config: Path | None, last: _LastRead | None = None
) -> Callable[[], tuple[int, list[Clip]]]:
    """Gives one animation file's frame count and clips from its header, checked against the skeleton's joint count
    (a config's file that fails is left out, as :func:`_reader` leaves it out; through ``last``, opened once with its read)."""

    def outline() -> tuple[int, list[Clip]]:
        try:
            return read_outline(data, file, strict, last.keep if last is not None else None)
        except (OSError, QuakeFormatError) as why:
            if config is None:
                raise
            _left_out(config, file, why)
            return 0, []

    return outline


def _left_out(config: Path, file: Any, why: Exception) -> None:
    reason = f'{why.strerror}' if isinstance(why, OSError) and why.strerror else str(why)
    warn_external(f'{config}: animation file {_name(file)} could not be loaded ({reason}); its animations are left out, as the game leaves them out')


def read_outline(
    mesh: ModelData, source: Source, strict: bool | str = False, keep: Callable[[Any, Any, Location], None] | None = None
) -> tuple[int, list[Clip]]:
    """An animation file's frame count and clips, as :func:`read_animation` would give them, from its header.

    The rest of the file is checked when it is read.  ``keep(source, buffer, location)`` is
    given the file's bytes, for a read that may follow.

    Raises
    ------
    QuakeFormatError
        As :func:`read_animation` raises for a file it refuses, and for one whose header does not fit ``mesh``.

    """
    if strict:  # what the engines refuse is in the whole file: read it all
        animation = attach(mesh, read_animation(source, strict), _name(source))
        return animation.num_frames, animation.clips
    buffer, location = read_source(source)
    name = location.name
    if keep is not None:
        keep(source, buffer, location)
    if not iqm.is_iqm(buffer):
        if md5.is_anim_file(buffer):
            header = md5.anim_header(buffer, name)
            check_fit(mesh, 'slerp', int(header['numJoints']), name)
            return int(header['numFrames']), [md5.anim_clip(header, location.stem or 'anim')]
        _animation_record(buffer, name, strict)  # no animation: refused as a read refuses it (an .md5anim is told apart above)
    fields, clips = iqm.outline(buffer, name)
    if not fields['num_poses']:
        raise QuakeFormatError(name, 'num_poses', 0, _NO_POSES)
    check_fit(mesh, 'matrix', int(fields['num_poses']), name)
    return int(fields['num_frames']), clips


def read_animation(source: Source | Place, strict: bool | str = False) -> SkeletalAnimationData:
    """The frames of an animation file: an ``.md5anim``, or an IQM's poses (a file of poses only, or a whole model's).

    ``strict`` applies to it as to the mesh (see :func:`load`).

    Raises
    ------
    QuakeFormatError
        For a file with no animation in it, or one the ``strict`` engines refuse.

    """
    buffer, location = read_source(source.path, source.member) if isinstance(source, Place) else read_source(source)
    return _animation_of(_animation_record(buffer, location.name, strict), location)


def _animation_of(record: md5.MD5AnimFile | iqm.IQMFile, location: Location) -> SkeletalAnimationData:
    """A parsed animation file's frames."""
    if isinstance(record, md5.MD5AnimFile):
        return md5.decode_anim(record, location.stem or 'anim')
    animation = iqm.animation_of(record)
    assert animation is not None  # _animation_record refuses an IQM without poses
    return animation


_NO_POSES = 'an IQM with no poses animates nothing'


def _animation_record(buffer: Any, name: str, strict: bool | str) -> md5.MD5AnimFile | iqm.IQMFile:
    """The parsed records of an animation file (an ``.md5anim``, or an IQM with poses), ``strict`` applied."""
    spec = spec_for(buffer, name)
    record = parse_buffer(buffer, name, spec)
    enforce(record, len(buffer), strict, name, spec)
    if isinstance(record, iqm.IQMFile) and not len(record.poses):
        raise QuakeFormatError(name, 'num_poses', 0, _NO_POSES)
    if not isinstance(record, (md5.MD5AnimFile, iqm.IQMFile)):
        raise QuakeFormatError(name, 'format', spec.name, 'not an animation: give an .md5anim or an .iqm of poses')
    return record


def _name(source: Source) -> str:
    """A source as messages name it: its path, never a file's bytes."""
    return str(source) if isinstance(source, (str, Path)) else f'<{type(source).__name__}>'


def lod_source(source: Source, member: str | None, lod: int) -> tuple[Source, str | None]:
    """The file of an MD3's level of detail ``lod``: ``name_1.md3`` for 1, as ``R_RegisterMD3`` names them."""
    if member is not None:
        stem, dot, suffix = member.rpartition('.')
        return source, f'{stem}_{lod}.{suffix}' if dot else f'{member}_{lod}'
    if not isinstance(source, (str, Path)):
        raise ValueError("lod= needs the model's file name, not its bytes")
    text = str(source)
    head, dot, suffix = text.rpartition('.')
    return (f'{head}_{lod}.{suffix}' if dot and '/' not in suffix else f'{text}_{lod}'), None


def model_or_mesh(source: Any, **options: Any):
    """``(model, None)`` for a model or a file (loaded with ``options``), ``(None, mesh)`` for a mesh.

    What export and the pictures take: a :class:`~pyvista_quake.QuakeModel`,
    anything :func:`load` reads, or a frame as a PyVista dataset.
    """
    if isinstance(source, QuakeModel):
        return source, None
    if isinstance(source, pv.MultiBlock):  # a frame of a model of several surfaces
        return None, source
    if isinstance(source, pv.DataSet):
        return None, source if isinstance(source, pv.PolyData) else source.extract_surface(algorithm='dataset_surface')
    return load(source, **options), None


def skin_of(model, mesh=None):
    """The skin image of what :func:`model_or_mesh` gave: the model's chosen skin, or the one a frame carries.

    ``None`` when there is no skin (or ``skin=None`` was asked for).
    """
    if model is not None:
        return model.surfaces[0].image() if model.surfaces else None  # a pose of one PolyData: one surface's
    pictures = carried_pictures(mesh)
    return None if pictures is None else pictures[0]
