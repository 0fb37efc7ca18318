"""Resource bounds: lying headers never allocate what the file does not hold."""

from __future__ import annotations

import base64
import subprocess
import sys
import textwrap

from builders import tetra_md2
from builders import torch_mdl
import pytest

LIMIT_SCRIPT = textwrap.dedent(
    """
    import resource, struct, sys, warnings
    import numpy as np
    import pyvista_quake as pq
    sys.path.insert(0, {tests!r})
    from builders import tetra_md2, torch_mdl

    def vm_size():
        for line in open('/proc/self/status'):
            if line.startswith('VmSize:'):
                return int(line.split()[1]) * 1024

    # Everything imported; from here on, 64 MiB more address space than now.
    budget = 64 * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (vm_size() + budget, resource.RLIM_INFINITY))
    warnings.simplefilter('ignore')

    liars = [
        tetra_md2(header={{'num_frames': 2**31 - 1}}),
        tetra_md2(header={{'num_frames': 2**20, 'framesize': 2**11}}),
        tetra_md2(header={{'num_tris': 2**31 - 1}}),
        tetra_md2(header={{'num_glcmds': 2**31 - 1}}),
        tetra_md2(header={{'num_skins': 2**30}}),
        torch_mdl(header={{'skinwidth': 2**16, 'skinheight': 2**16}}),
        torch_mdl(header={{'numverts': 2**30}}),
        torch_mdl(header={{'numframes': 2**31 - 1}}),
        torch_mdl(header={{'numskins': 2**31 - 1}}),
    ]
    group = bytearray(torch_mdl())
    struct.pack_into('<i', group, 84 + 4 + 64 + 48 + 64 + 4, 2**31 - 1)  # frame group count
    liars.append(bytes(group))
    for data in liars:
        try:
            model = pq.load(data)
            model.positions(); model.normals(); model.animations
        except pq.QuakeFormatError:
            pass
    # A real decode within the budget still works: 2000 frames x 600 points.
    verts = np.zeros((2000, 600, 4), np.uint8)
    from builders import build_md2
    model = pq.load(build_md2(verts, [[0, 1, 2]] * 200, [[0, 0, 0]] * 200, [[0, 0]]))
    assert model.positions().shape == (2000, 3, 3)
    print('ok')
    """
)


@pytest.mark.skipif(not sys.platform.startswith('linux'), reason='needs RLIMIT_AS and /proc')
def test_lying_headers_under_an_address_space_limit(tmp_path):
    from pathlib import Path

    tests = str(Path(__file__).parent)
    script = tmp_path / 'limit.py'
    script.write_text(LIMIT_SCRIPT.format(tests=tests))
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip().endswith('ok')


def test_huge_counts_fail_fast_without_allocating():
    import pyvista_quake as pq

    # Each must be refused by its bounds check, not by trying to allocate.
    for data in (
        tetra_md2(header={'num_frames': 2**31 - 1, 'framesize': 2**31 - 1}),
        torch_mdl(header={'skinwidth': 2**31 - 1, 'skinheight': 2**31 - 1}),
    ):
        with pytest.raises(pq.QuakeFormatError):
            pq.load(data)


def test_an_iqm_s_vertex_count_that_no_array_holds_allocates_nothing():
    """A 154-byte IQM naming 822 million vertices and no array of them (a fuzz finding: 16 GB, 36 s) loads at once;
    meshes or triangles that use such vertices are refused, naming the missing arrays."""
    import struct

    from builders import build_iqm

    import pyvista_quake as pq

    def with_vertices(data: bytes, count: int) -> bytes:
        out = bytearray(data)
        struct.pack_into('<I', out, 48, count)  # num_vertexes, after the magic and eight header words
        return bytes(out)

    found = base64.b64decode(FUZZ_NO_ARRAYS)
    model = pq.load(found)
    assert model.header['num_vertexes'] == 822083584 and model.positions().shape == (1, 0, 3)
    assert model.mesh(0).n_points == 0
    meshes = with_vertices(build_iqm(meshes=[('m', 'm', 0, 2**31 - 1, 0, 0)]), 2**31 - 1)
    with pytest.raises(pq.QuakeFormatError, match=r'num_vertexarrays = 0: the meshes use 2147483647 vertices'):
        pq.load(meshes)
    triangles = with_vertices(build_iqm(triangles=[(0, 1, 2**31 - 2)]), 2**31 - 1)
    with pytest.raises(pq.QuakeFormatError, match=r'use 2147483647 vertices and no vertex array'):
        pq.load(triangles)
    one = with_vertices(build_iqm(meshes=[('m', 'm', 0, 1, 0, 0)]), 1)  # the limit: one vertex used, none held
    with pytest.raises(pq.QuakeFormatError, match='use 1 vertices'):
        pq.load(one)
    unused = pq.load(with_vertices(build_iqm(meshes=[('m', 'm', 0, 0, 0, 0)]), 5))  # five named, none used
    assert unused.surfaces[0].num_points == 0 and unused.data.surfaces[0].triangles.shape == (0, 3)


#: The fuzz finding: an IQM header with num_vertexes 822083584, no vertex arrays, meshes or triangles.
FUZZ_NO_ARRAYS = (
    'SU5URVJRVUFLRU1PREVMAAIAAAAKAAAAAgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAMQAAAAAAAAAAAAAAAAAAAAAAAAAAABMAAAAAAAAAAAAAAAA'
    'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABMAAAAAAAAAAAACAAAAAAAAAAAAAAAAAAAAAAAAAgAAAAAAAAAAAA=='
)
