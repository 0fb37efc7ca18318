"""A demo played over its level: its glTF (a marker a client, moved by the ``demo`` animation) and its page."""

from __future__ import annotations

import base64
import gzip
import json
import re

from demo_builders import build_demo
import numpy as np
import pygltflib
import pytest

import pyvista_quake as pq
from pyvista_quake.exporting.demo_page import _held
from pyvista_quake.exporting.gltf import QUAKE_TO_GLTF


def accessor(gltf: pygltflib.GLTF2, index: int) -> np.ndarray:
    a = gltf.accessors[index]
    view = gltf.bufferViews[a.bufferView]
    width = {'SCALAR': 1, 'VEC3': 3}[a.type]
    dtype = np.uint16 if a.componentType == pygltflib.UNSIGNED_SHORT else np.float32
    data = gltf.binary_blob()[view.byteOffset : view.byteOffset + view.byteLength]
    return np.frombuffer(data, dtype).reshape(a.count, width) if width > 1 else np.frombuffer(data, dtype)


def test_a_demos_gltf_moves_a_marker_a_client_through_its_snapshots(tmp_path):
    demo = pq.load_demo(build_demo(steps=5))
    pq.export(demo, tmp_path / 'd.glb')
    gltf = pygltflib.GLTF2().load(str(tmp_path / 'd.glb'))
    (animation,) = gltf.animations
    assert animation.name == 'demo' and len(animation.channels) == 2 * len(demo.clients) == 4
    for k, client in enumerate(demo.clients):
        move, scale = animation.channels[2 * k], animation.channels[2 * k + 1]
        assert (move.target.path, scale.target.path) == ('translation', 'scale') and move.target.node == scale.target.node
        assert f'client {client}' in gltf.nodes[move.target.node].name
        node_place = gltf.nodes[move.target.node].translation
        times = accessor(gltf, animation.samplers[move.sampler].input)
        np.testing.assert_array_equal(times, (demo.times - demo.times[0]).astype(np.float32))
        places = accessor(gltf, animation.samplers[move.sampler].output)
        path = demo.trajectory(client).positions
        there = np.isfinite(path).all(axis=1)
        np.testing.assert_allclose(places[there], path[there] @ QUAKE_TO_GLTF.T, rtol=1e-6)
        np.testing.assert_allclose(node_place, places[0], rtol=1e-6)  # at rest where the animation starts
        shown = accessor(gltf, animation.samplers[scale.sampler].output)
        assert shown[:, 0].tolist() == there.astype(float).tolist() and animation.samplers[scale.sampler].interpolation == 'STEP'


def test_a_missing_client_holds_its_last_place_and_its_first_before_it_appears():
    nan = np.nan
    positions = np.array([[nan, nan, nan], [1, 2, 3], [nan, nan, nan], [4, 5, 6], [nan, nan, nan]], np.float32)
    there, places = _held(positions)
    assert there.tolist() == [False, True, False, True, False]
    quake = places @ QUAKE_TO_GLTF  # back to Quake's axes (the matrix is a rotation of the axes)
    np.testing.assert_array_equal(quake, [[1, 2, 3], [1, 2, 3], [1, 2, 3], [4, 5, 6], [4, 5, 6]])
    never, nowhere = _held(np.full((2, 3), nan, np.float32))
    assert not never.any() and (nowhere == 0).all()


def test_a_demos_page_carries_the_demo_as_one_model_and_its_clip(tmp_path):
    demo = pq.load_demo(build_demo(steps=5))
    path = tmp_path / 'd.html'
    pq.export(demo, path)
    text = path.read_text()
    models = json.loads(re.search(r'start\(document\.getElementById\(\'pq-viewer\'\), (\[.*?\]), ', text).group(1))
    info = json.loads(re.search(r', (\{"clips".*\})\);', text).group(1))
    glb = gzip.decompress(base64.b64decode(models[0]))
    assert len(models) == 1 and glb[:4] == b'glTF'
    assert info['start'] == 'demo' and len(info['clips']['demo']['times']) == len(demo.times)
    assert 'http://' not in text.replace('http://www.w3.org', '')
    shown = pq.viewer(demo)
    assert 'pq-viewer' in shown.html and 'd.html' not in repr(shown)
    for bad, said in ((dict(frame=1), 'plays whole'), (dict(animation='run'), 'plays whole')):
        with pytest.raises(ValueError, match=said):
            pq.export(demo, tmp_path / 'x.html', **bad)
    with pytest.raises(ValueError, match=r'a page \(\.html\) or glTF'):
        pq.export(demo, tmp_path / 'x.obj')


def test_a_marker_is_a_closed_octahedron_wound_outward_standing_on_its_origin():
    from pyvista_quake.exporting.demo_page import _octahedron

    corners, triangles = _octahedron(24.0)
    centre = np.array([0, 12, 0], np.float32)
    np.testing.assert_allclose(np.linalg.norm(corners - centre, axis=1), 12)  # six corners about its middle
    assert corners[:, 1].min() == 0 and corners[:, 1].max() == 24  # standing on its origin, 24 tall
    a, b, c = (corners[triangles[:, k]] for k in range(3))
    outward = np.einsum('ij,ij->i', np.cross(b - a, c - a), (a + b + c) / 3 - centre)
    assert (outward > 0).all() and len(triangles) == 8
    edges = np.sort(np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]], triangles[:, [2, 0]]]), axis=1)
    _, count = np.unique(edges, axis=0, return_counts=True)
    assert (count == 2).all() and len(count) == 12  # closed: each of its 12 edges between two faces


def test_a_demo_over_its_level_keeps_the_levels_gltf_and_frames_the_players(tmp_path):
    from level_builders import q3_level

    from pyvista_quake.exporting.html import model_glb

    demo = pq.load_demo(build_demo(steps=5))
    level = pq.load(q3_level())
    demo.__dict__['level'] = level  # as if the game's files held it
    alone = pygltflib.GLTF2.load_from_bytes(model_glb(level, None, quantize=False))  # as export writes a demo's glb
    pq.export(demo, tmp_path / 'd.glb')
    both = pygltflib.GLTF2().load(str(tmp_path / 'd.glb'))
    assert len(both.meshes) == len(alone.meshes) + len(demo.clients)
    for k, view in enumerate(alone.bufferViews):  # the level's data where it was, unchanged
        mine = both.bufferViews[k]
        assert (mine.byteOffset, mine.byteLength) == (view.byteOffset, view.byteLength)
        start, stop = view.byteOffset or 0, (view.byteOffset or 0) + view.byteLength
        assert both.binary_blob()[start:stop] == alone.binary_blob()[start:stop]
    marker = both.meshes[len(alone.meshes)].primitives[0].attributes.POSITION
    size = np.ptp(accessor(both, marker), axis=0)
    reach = float(np.linalg.norm(np.ptp(demo.trajectories().points, axis=0)))
    assert size[1] == pytest.approx(max(24.0, 0.02 * reach), rel=1e-5)  # as tall as 2% of where they went, 24 at least
    path = tmp_path / 'd.html'
    pq.export(demo, path)
    info = json.loads(re.search(r', (\{"clips".*\})\);', path.read_text()).group(1))
    low, high = np.array(info['bounds'][:3]), np.array(info['bounds'][3:])
    points = demo.trajectories().points @ QUAKE_TO_GLTF.T
    assert (points >= low).all() and (points <= high).all()  # framed on where the players went
    extent = np.ptp(points, axis=0)
    np.testing.assert_allclose(high - low, extent * 1.2 + 256, rtol=1e-5)  # a tenth and 128 units more each side
    assert 'width: 640px; height: 480px;' in path.read_text()
