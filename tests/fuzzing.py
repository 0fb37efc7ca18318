"""Shared by the fuzz tests and the long fuzz run: seeds, mutations and the one rule.

The rule: every input either loads (and every frame, array and GL-command
mesh builds) or raises :class:`~pyvista_quake.QuakeFormatError` with a
message.  Anything else is a failure.
"""

from __future__ import annotations

import struct
import warnings

from builders import build_mdl
from builders import tetra_md2
from builders import tetra_md3
from builders import torch_mdl
from builders import two_joint_iqm
from builders import two_joint_md5
from demo_builders import build_demo
from level_builders import build_aas
from level_builders import build_q3
from level_builders import collision_args
from level_builders import level_seeds
import numpy as np
from sprite_builders import build_ids2
from sprite_builders import build_idsp

import pyvista_quake as pq
from pyvista_quake.formats import FORMATS
from pyvista_quake.formats import iqm

VERTS = np.array([[0, 0, 0, 5], [10, 0, 0, 5], [0, 10, 0, 5], [0, 0, 10, 5]], np.uint8)


def synthetic_seeds() -> list[bytes]:
    """Valid models that exercise every section and both kinds of group."""
    gl = [('strip', [(0, 0, 0), (0.5, 0, 1), (0, 0.5, 2), (0.5, 0.5, 3)]), ('fan', [(0, 0, 0), (1, 0, 3), (1, 1, 1)])]
    skin_group = (np.array([0.1, 0.2], np.float32), np.zeros((2, 8, 8), np.uint8))
    frames = [
        ('single', 'stand1', VERTS),
        ('group', [0.1, 0.2], [('flame1', VERTS), ('flame2', VERTS)]),
        ('single', 'stand2', VERTS),
    ]
    return [
        tetra_md2(glcmds=gl),
        tetra_md2(order=('glcmds', 'frames', 'tris', 'st', 'skins'), glcmds=gl),
        torch_mdl(),
        build_mdl(
            [[0, 0, 0], [0x20, 4, 0], [0, 0, 4], [0, 2, 2]],
            [[1, 0, 1, 2], [0, 0, 3, 1]],
            frames,
            skins=[np.zeros((8, 8), np.uint8), skin_group],
            trailing=b'QMEX' + bytes(12),
        ),
        tetra_md3(frames=2),
        tetra_md3(frames=1, gap=b'between', trailing=b'after'),
        two_joint_iqm(),
        two_joint_iqm(align=False, zero_weight_vertex=True),
        two_joint_md5()[0].encode(),
        *level_seeds(),
        build_q3(**collision_args()),
        *sprite_seeds(),
    ]


def sprite_seeds() -> list[bytes]:
    """A sprite of each kind: Quake's with a group, Half-Life's alpha-tested, DarkPlaces' RGBA, Quake II's."""
    picture = np.arange(12, dtype=np.uint8).reshape(3, 4)
    return [
        build_idsp([((-2, 1), picture), ((0.1, 0.3), [((0, 0), picture[:2]), ((1, 1), picture[:1])])]),
        build_idsp([((0, 0), picture)], version=2, tex_format=3),
        build_idsp([((0, 4), np.arange(24, dtype=np.uint8).reshape(2, 3, 4))], version=32),
        build_ids2([(8, 4, 2, 1, 'sprites/a.pcx')]),
    ]


def navigation_and_demo_seeds() -> list[bytes]:
    """Valid bot navigation files and demos: what :func:`exercise` tells apart from models by their first bytes."""
    return [build_aas(), build_aas(faces=True), build_demo(), build_demo(666), build_demo(999, 1 << 7), Q3_DEMO_TAG + q3_demo_seed()]


#: Quake III demos have no magic: the long fuzz run's seeds of them start with this tag, taken off before reading.
Q3_DEMO_TAG = b'\0Q3DEMO\0'


def q3_demo_seed() -> bytes:
    """A Quake III demo of two players, a delta snapshot and server commands (see ``q3demo_builders``)."""
    from q3demo_builders import command  # noqa: PLC0415 - the builders import the package's code table
    from q3demo_builders import demo
    from q3demo_builders import gamestate
    from q3demo_builders import message
    from q3demo_builders import snapshot

    mover = {'eType': 1, 'clientNum': 2, 'pos.trType': 5, 'pos.trTime': 90, 'pos.trBase[0]': 1.5, 'pos.trDelta[2]': 270, 'event': 19 | 0x100}
    obituary = {'eType': 13 + 60, 'otherEntityNum': 2, 'otherEntityNum2': 1, 'eventParm': 10}
    return demo(
        message(1, lambda w: gamestate(w, {0: '\\mapname\\q3dm1\\protocol\\68', 545: 'n\\A', 546: 'n\\B'}, {70: {'eType': 2}})),
        message(
            2,
            lambda w: snapshot(w, 100, 0, {'origin[0]': 5, 'clientNum': 1, 'eventSequence': 1, 'events[0]': 19}, [(2, mover), (70, None)], {0: 100}),
        ),
        message(
            3,
            lambda w: (
                command(w, 1, 'cs 546 "n\\C"'),
                snapshot(
                    w, 150, 1, {'origin[1]': -3.25, 'clientNum': 1}, [(2, {'pos.trType': 4, 'pos.trDuration': 0}), (70, 'remove'), (300, obituary)]
                ),
            ),
        ),
    )


INT_EXTREMES = (0, -1, 1, 2**31 - 1, -(2**31), 2**16, 255, 256)


def header_int_offsets(data: bytes) -> list[int]:
    """Byte offsets of the header's 32-bit fields (after the magic)."""
    if data[:4] == b'IDP3':  # version, then the counts and offsets after the 64-byte name
        return [4, *range(72, 108, 4)]
    size = 68 if data[:4] == b'IDP2' else 84
    return list(range(4, size, 4))


def set_int(data: bytes, offset: int, value: int) -> bytes:
    out = bytearray(data)
    if offset + 4 <= len(out):
        struct.pack_into('<i', out, offset, value)
    return bytes(out)


def set_float(data: bytes, offset: int, value: float) -> bytes:
    out = bytearray(data)
    if offset + 4 <= len(out):
        struct.pack_into('<f', out, offset, value)
    return bytes(out)


def check_written_back(model: pq.QuakeModel, data: bytes) -> None:
    """A file that loads is written back byte for byte, and an edited copy loads again."""
    spec = FORMATS[model.format]
    if model.format == 'md5':  # text: written again, it reads back to the same numbers
        again = spec.parse(spec.write(model.data.file), '<written>')
        if [m.verts.tolist() + m.weights.tolist() for m in again.meshes] != [m.verts.tolist() + m.weights.tolist() for m in model.data.file.meshes]:
            raise AssertionError('a written MD5 did not read back to the same numbers')
        return
    if spec.third_party and not spec.writable:  # registered with no writer (sprites): saved as nothing
        return
    if spec.write(model.data.file) != data:
        raise AssertionError('a loaded file was not written back byte for byte')
    if not spec.writable:  # written only as read (levels): an edited copy is refused with a message, not saved
        return
    if model.format == 'iqm':  # written as read: there is no editing its vertices
        return
    if model.format == 'md3':  # laid out afresh, it reads back the same
        again = spec.decode(spec.parse(spec.write(spec.encode(model.data)), '<encoded>'))
        if [s.positions.tolist() for s in again.surfaces] != [s.positions.tolist() for s in model.data.surfaces]:
            raise AssertionError('an encoded MD3 did not read back as it was')
        return
    frame = len(model) - 1
    try:
        model.set_frame(frame, model.vertex_positions(frame)[0] + 1)
    except ValueError as error:  # a clear refusal is right (positions past float32, no usable triangle)
        if not str(error):
            raise AssertionError('ValueError without a message') from error
        return
    again = pq.load(spec.write(model.data.file))
    if len(again) != len(model) or not np.array_equal(again.data.alias.frame_verts, model.data.alias.frame_verts):
        raise AssertionError('an edited model did not read back as written')


def exercise(data: bytes) -> str:
    """Apply the rule to one input; return ``'loaded'`` or ``'rejected'``.

    Raises whatever else the readers raise: that is a finding.
    """
    if data[:4] == b'EAAS':
        return _exercise_navigation(data)
    if data.startswith(Q3_DEMO_TAG):
        return _exercise_demo(data[len(Q3_DEMO_TAG) :], quake3=True)
    if data[:16].split(b'\n', 1)[0].strip().lstrip(b'-').isdigit() and b'\n' in data[:16]:
        return _exercise_demo(data)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            model = pq.load(data)
            for index in range(min(len(model), 8)):
                model.frame(index)
            model.positions()
            model.normals()
            model.animations  # noqa: B018
            model.at(0.05)
            model.blocks(0)
            for surface in model.surfaces[:1]:  # a picture a frame: the last frame's too
                surface.image(frame=len(model) - 1)
            if model.level is not None:
                model.point_entities()
                model.lightmaps  # noqa: B018
                pq.check(data)
                _exercise_queries(model)
            if model.format in ('iqm', 'md5'):
                model.skeletal.bind_pose()
                model.skeletal.skeleton(len(model) - 1)
            if model.format == 'iqm':  # what a parse reads, an outline reads alike
                fields, clips = iqm.outline(data)
                if fields != model.data.file.header_fields() or clips != iqm.clips_of(model.data.file):
                    raise AssertionError("an IQM's outline differs from its parse")
            if model.format == 'md2':
                commands = model.alias.gl_commands
                if commands:
                    pq.load(data, glcmds=True).frame(0)
            check_written_back(model, data)
        except pq.QuakeFormatError as error:
            if not str(error):
                raise AssertionError('QuakeFormatError without a message') from error
            if data[: len(iqm.MAGIC)] == iqm.MAGIC:
                try:  # a timeline reads only the header and anims: refused with a message, or read
                    iqm.outline(data)
                except pq.QuakeFormatError as outlined:
                    if not str(outlined):
                        raise AssertionError('QuakeFormatError without a message') from outlined
            return 'rejected'
        try:  # an engine may refuse what loads: that is a clear error too, never anything else
            pq.load(data, strict=True)
        except pq.QuakeFormatError as error:
            if 'strict' not in str(error):
                raise AssertionError(f'strict loading failed on what loads: {error}') from error
    return 'loaded'


#: Points the level queries are asked at: ordinary, far, past float32's range, not a number.
QUERY_POINTS = np.array([[0, 0, 0], [64, -32, 8], [1e6, 1e6, 1e6], [3e38, -3e38, 0], [np.nan, 0, 0]])


def _exercise_queries(model) -> None:
    """A Quake III level's collision, visibility, light and brushes at a few points (a level of another game, or
    whose collision lumps do not hold, is refused by ``collision`` with a message)."""
    try:
        model.collision  # noqa: B018
    except pq.QuakeFormatError as error:
        _said(error)
        return
    model.contents(QUERY_POINTS), model.cluster(QUERY_POINTS), model.visible(QUERY_POINTS, QUERY_POINTS[::-1])
    model.light(QUERY_POINTS), model.brushes(), model.trace(QUERY_POINTS, QUERY_POINTS[::-1], mins=(-15, -15, -24), maxs=(15, 15, 32))


def _exercise_navigation(data: bytes) -> str:
    try:
        navigation = pq.load_navigation(data)
    except pq.QuakeFormatError as error:
        return _said(error)
    navigation.areas, navigation.reachabilities, navigation.graph(), navigation.area(QUERY_POINTS)
    every = np.arange(navigation.num_areas + 2)  # one past each end too
    navigation.travel_time(every[:, None], every[None, :])
    navigation.route(QUERY_POINTS[1], QUERY_POINTS[0])
    return 'loaded'


def _exercise_demo(data: bytes, quake3: bool = False) -> str:
    from pyvista_quake.formats import q3demo  # noqa: PLC0415
    from pyvista_quake.model.demos import Demo  # noqa: PLC0415

    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # a demo cut short warns
        try:
            demo = Demo(q3demo.parse(data, 'x.dm_68')) if quake3 else pq.load_demo(data)
        except pq.QuakeFormatError as error:
            return _said(error)
    demo.trajectories(), demo.columns(), demo.events, demo.heatmap()
    return 'loaded'


def _said(error: pq.QuakeFormatError) -> str:
    """``'rejected'`` for a refusal that says why; a refusal without a message is a finding."""
    if not str(error):
        raise AssertionError('QuakeFormatError without a message') from error
    return 'rejected'
