"""Writing models to files: atomically, in the format the extension names.

Below the model (whose :meth:`~pyvista_quake.QuakeModel.save` calls
:func:`save`): it works on the model's data and skins.  PyVista's
``pyvista.writers`` entry point is :mod:`pyvista_quake.plugin.writers`.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np

from pyvista_quake._base.files import atomic_write
from pyvista_quake._base.warnings import warn_external
from pyvista_quake.formats import FORMATS
from pyvista_quake.formats import anm as anm_file
from pyvista_quake.formats import format_for_path
from pyvista_quake.formats.anm import AnmLine
from pyvista_quake.formats.registry import FormatSpec
from pyvista_quake.game.engines import ENGINES
from pyvista_quake.game.engines import REFUSES
from pyvista_quake.game.engines import findings
from pyvista_quake.game.skins import png_bytes
from pyvista_quake.model.edit import convert
from pyvista_quake.model.edit import md3_to_one_surface
from pyvista_quake.model.edit import one_surface_to_md3
from pyvista_quake.model.edit import plain_data
from pyvista_quake.model.edit import surfaces_to_md3


def save(model, path: str | Path, *, sync: bool = True, overwrite_skins: bool = False) -> None:
    """Write a model to ``path``; the format follows the extension (``.md2``, ``.mdl``, ``.md3``, any case).

    An unchanged model is written back byte for byte.  A model saved in
    another format is converted (see :func:`pyvista_quake.model.edit.convert`):
    every frame; to an MD3 positions round to 1/64 unit; an MD3 becomes an MD2
    or MDL only when it has one surface.  An MD2 or MD3 made so names its skin
    after itself (``ogre.png`` for ``ogre.md2``).  Skin
    images given to an MD2 are written as PNG files beside it, never over
    another file unless ``overwrite_skins``.  Missing folders are made.  What the game
    engines would refuse but the format can hold is written, with a
    :class:`~pyvista_quake.QuakeWarning` naming the engine and its limit.

    Parameters
    ----------
    model : QuakeModel
        The model.
    path : str or pathlib.Path
        The file to write.  It is written to a temporary file in the same
        folder and renamed over the target, so a failure leaves no partial
        file and the old file untouched.
    sync : bool, default: True
        Flush the file to disk before the rename, so that it survives a power
        cut.  ``False`` for batch conversions: the write stays atomic and costs
        a third to a half less (see the performance page).
    overwrite_skins : bool, default: False
        Write a skin image over a file of that name that holds something else.

    Raises
    ------
    ValueError
        For an extension that names no Quake model format, or a model the
        format cannot hold.
    FileExistsError
        If a skin image would replace another file (``overwrite_skins`` allows it).
    OSError
        If the folder cannot be written.

    """
    path = Path(path)
    spec = format_for_path(str(path))
    codec = model._codec
    if codec.must_bake(spec):  # an MD3 of a skeletal model's skinned frames: the model bakes them
        model.save(path, sync=sync, overwrite_skins=overwrite_skins)
        return
    # What the target's writer encodes: an MD2's or MDL's own part (the one surface is its bytes), else the record.
    data: Any = codec.written_record(spec)
    if data is None:
        # Its own format as read: an IQM byte for byte, an MD5 as text with the version lines Doom 3 wants, a third
        # party's format its bytes as read.
        write_record(FORMATS[model.data.format], model.data.file, path, sync=sync, refusals=False)
        return
    own = FORMATS.get(data.format)
    if own is not None and not own.writable and (own.name != spec.name or model.edited):
        raise ValueError(
            f'{path}: {own.title or own.name.upper()} files are written only as they were read '
            f'(as {", ".join(own.extensions)}); pyvista-quake writes no {spec.name.upper()} from one'
        )
    skin_name = f'{path.stem}.png'
    own_kind = own.kind if own is not None else 'alias'
    if data.format == spec.name:
        images = codec.skin_images()
    elif spec.kind == 'alias':  # one surface of packed bytes
        data, images = (
            md3_to_one_surface(model, spec.name, skin_name)
            if own_kind == 'surfaces'
            else convert(data, model.alias.skins, spec.name, skin_name=skin_name)
        )
    elif own_kind == 'alias':
        data, images = one_surface_to_md3(model, skin_name)
    elif not spec.third_party and any(s.positions.dtype != np.int16 for s in data.surfaces):
        data, images = surfaces_to_md3(model)  # plain floats to an MD3's 1/64 shorts
    else:
        images = {}
    if spec.third_party and data.format != spec.name:
        data = plain_data(data)  # a third party's writer takes plain floats
    if data.format != spec.name:
        data = dataclasses.replace(data, format=spec.name, file=None)
    record = data.file if data.file is not None else spec.encode(data)
    companions = {path.parent / Path(name).name: png_bytes(image) for name, image in images.items()}
    if spec.kind == 'alias' and data.num_frames == model.data.num_frames:
        anm = _anm_text(model)  # UFO: AI's animations live in the .anm beside the model: it goes with the copy
        if anm is not None:
            companions[path.with_suffix('.anm')] = anm
    for companion, data_bytes in list(companions.items()):
        try:
            old = companion.read_bytes()
        except OSError:
            continue  # nothing there (or nothing readable: the write says why)
        if old == data_bytes:
            del companions[companion]  # already this skin: left as it is
        elif not overwrite_skins and companion.suffix != '.anm':  # the .anm of the model written over is its own
            raise FileExistsError(
                f'{companion}: the skin of {path.name} would replace this file, which holds another '
                'image; save under another name, or pass overwrite_skins=True'
            )
    write_record(spec, record, path, sync=sync, companions=companions)


def write_record(
    spec: FormatSpec, record: Any, path: Path, *, sync: bool = True, companions: dict[Path, bytes] | None = None, refusals: bool = True
) -> None:
    """The one way a model's file is written: ``spec.write`` of the format's records, what the game engines
    would refuse warned, then the files beside it (``companions``: skins, an ``.anm``) and the file, each atomically.

    Everything is encoded before anything is written.  ``refusals=False`` for a writer that writes what the
    engines need whatever the records lack (an MD5's version and command lines): its records' findings are not
    the written file's.
    """
    payload = spec.write(record)
    for finding in findings(record, len(payload), spec) if refusals else []:
        if finding.effect == REFUSES:
            warn_external(f'{path}: {ENGINES[finding.engine]} will not load it: {finding.field} = {finding.value}: {finding.rule} ({finding.where})')
    for companion, data in (companions or {}).items():
        atomic_write(companion, data, sync=sync)
    atomic_write(path, payload, sync=sync)


def _anm_text(model) -> bytes | None:
    """The ``.anm`` text of a model's animations that came from one, or ``None`` if none did."""
    lines = [
        AnmLine(name, int(clip.frames[0]), int(clip.frames[-1]), float(clip.fps or 0))
        for name, clip in getattr(model, 'animations', {}).items()
        if clip.source == 'anm' and len(clip)
    ]
    return anm_file.write(lines).encode('latin-1') if lines else None


__all__ = ['save', 'write_record']
