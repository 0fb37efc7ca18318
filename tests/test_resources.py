"""Resource bounds: lying headers never allocate what the file does not hold."""

from __future__ import annotations

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
