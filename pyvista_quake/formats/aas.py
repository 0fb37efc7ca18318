"""Quake III's bot navigation files (``maps/NAME.aas``): ``EAAS`` version 5 (and 4), as botlib loads them.

The layout is ``aasfile.h``'s: a header (ident, version, the map's ``bspchecksum``, then
14 lumps as offset and length; from version 5 the header past the version is scrambled,
each byte ``i`` of it XOR ``i * 119``, ``AAS_DData``), then the lumps: bounding boxes,
vertexes, planes, edges, edge index, faces, face index, areas, area settings,
reachabilities, nodes, portals, portal index and clusters.  Index 0 of the areas,
reachabilities, clusters and portals (and of the edges, faces and nodes) is a dummy.

:func:`parse` reads them as structured views of the file, each index checked against
what it points to before anything is built on it, and refuses another ident or version.
The map's checksum (``Com_BlockChecksum``: the four words of the map file's MD4 XOR'd)
is :func:`block_checksum`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from pyvista_quake._base.errors import QuakeFormatError
from pyvista_quake.formats._common import Bounds

IDENT = b'EAAS'
VERSIONS = (4, 5)
LUMPS = (
    'bboxes',
    'vertexes',
    'planes',
    'edges',
    'edgeindex',
    'faces',
    'faceindex',
    'areas',
    'areasettings',
    'reachability',
    'nodes',
    'portals',
    'portalindex',
    'clusters',
)
HEADER = np.dtype([('ident', 'S4'), ('version', '<i4'), ('bspchecksum', '<i4'), ('lumps', '<i4', (len(LUMPS), 2))])

RECORDS = {
    'bboxes': np.dtype([('presencetype', '<i4'), ('flags', '<i4'), ('mins', '<f4', (3,)), ('maxs', '<f4', (3,))]),
    'vertexes': np.dtype(('<f4', (3,))),
    'planes': np.dtype([('normal', '<f4', (3,)), ('dist', '<f4'), ('type', '<i4')]),
    'edges': np.dtype([('v', '<i4', (2,))]),
    'edgeindex': np.dtype('<i4'),
    'faces': np.dtype(
        [('planenum', '<i4'), ('faceflags', '<i4'), ('numedges', '<i4'), ('firstedge', '<i4'), ('frontarea', '<i4'), ('backarea', '<i4')]
    ),
    'faceindex': np.dtype('<i4'),
    'areas': np.dtype(
        [('areanum', '<i4'), ('numfaces', '<i4'), ('firstface', '<i4'), ('mins', '<f4', (3,)), ('maxs', '<f4', (3,)), ('center', '<f4', (3,))]
    ),
    'areasettings': np.dtype(
        [
            ('contents', '<i4'),
            ('areaflags', '<i4'),
            ('presencetype', '<i4'),
            ('cluster', '<i4'),
            ('clusterareanum', '<i4'),
            ('numreachableareas', '<i4'),
            ('firstreachablearea', '<i4'),
        ]
    ),
    # aas_reachability_t as the compiler lays it out: its unsigned short traveltime padded to 44 bytes.
    'reachability': np.dtype(
        {
            'names': ['areanum', 'facenum', 'edgenum', 'start', 'end', 'traveltype', 'traveltime'],
            'formats': ['<i4', '<i4', '<i4', ('<f4', (3,)), ('<f4', (3,)), '<i4', '<u2'],
            'offsets': [0, 4, 8, 12, 24, 36, 40],
            'itemsize': 44,
        }
    ),
    'nodes': np.dtype([('planenum', '<i4'), ('children', '<i4', (2,))]),
    'portals': np.dtype([('areanum', '<i4'), ('frontcluster', '<i4'), ('backcluster', '<i4'), ('clusterareanum', '<i4', (2,))]),
    'portalindex': np.dtype('<i4'),
    'clusters': np.dtype([('numareas', '<i4'), ('numreachabilityareas', '<i4'), ('numportals', '<i4'), ('firstportal', '<i4')]),
}

#: Travel types (``aasfile.h`` ``TRAVEL_*``) by number; ``traveltype & TRAVELTYPE_MASK`` is one of them.
TRAVEL_TYPES = {
    1: 'invalid',
    2: 'walk',
    3: 'crouch',
    4: 'barrierjump',
    5: 'jump',
    6: 'ladder',
    7: 'walkoffledge',
    8: 'swim',
    9: 'waterjump',
    10: 'teleport',
    11: 'elevator',
    12: 'rocketjump',
    13: 'bfgjump',
    14: 'grapplehook',
    15: 'doublejump',
    16: 'rampjump',
    17: 'strafejump',
    18: 'jumppad',
    19: 'funcbob',
}
TRAVELTYPE_MASK = 0xFFFFFF
#: Travel flags (``be_aas.h`` ``TFL_*``) by name, and the bots' own set (``TFL_DEFAULT``).
TRAVEL_FLAGS = {
    'invalid': 0x1,
    'walk': 0x2,
    'crouch': 0x4,
    'barrierjump': 0x8,
    'jump': 0x10,
    'ladder': 0x20,
    'walkoffledge': 0x80,
    'swim': 0x100,
    'waterjump': 0x200,
    'teleport': 0x400,
    'elevator': 0x800,
    'rocketjump': 0x1000,
    'bfgjump': 0x2000,
    'grapplehook': 0x4000,
    'doublejump': 0x8000,
    'rampjump': 0x10000,
    'strafejump': 0x20000,
    'jumppad': 0x40000,
    'air': 0x80000,
    'water': 0x100000,
    'slime': 0x200000,
    'lava': 0x400000,
    'donotenter': 0x800000,
    'funcbob': 0x1000000,
    'flight': 0x2000000,
    'bridge': 0x4000000,
    'notteam1': 0x8000000,
    'notteam2': 0x10000000,
}
TFL_DEFAULT = 0x011C0FBE
#: Area contents (``AREACONTENTS_*``), area flags (``AREA_*``) and presence types (``PRESENCE_*``) by name.
AREA_CONTENTS = {
    'water': 1,
    'lava': 2,
    'slime': 4,
    'clusterportal': 8,
    'teleportal': 16,
    'routeportal': 32,
    'teleporter': 64,
    'jumppad': 128,
    'donotenter': 256,
    'viewportal': 512,
    'mover': 1024,
    'notteam1': 2048,
    'notteam2': 4096,
}
AREA_FLAGS = {'grounded': 1, 'ladder': 2, 'liquid': 4, 'disabled': 8, 'bridge': 16}
PRESENCE = {'none': 1, 'normal': 2, 'crouch': 4}


@dataclass
class AASFile:
    """A navigation file's header fields and lumps, each a structured view of the file (see :data:`RECORDS`).

    Attributes
    ----------
    source : str
        Where the bytes came from, for messages.
    version : int
        4 or 5.
    bspchecksum : int
        The map's checksum the file was made for (unsigned).
    lumps : dict of str to numpy.ndarray
        Each lump's records.
    """

    source: str
    version: int
    bspchecksum: int
    lumps: dict[str, np.ndarray]

    def header_fields(self) -> dict[str, Any]:
        """The header's fields: ``ident``, ``version``, ``bspchecksum`` and each lump's record count ``num_NAME``."""
        return {'ident': IDENT, 'version': self.version, 'bspchecksum': self.bspchecksum, **{f'num_{k}': len(v) for k, v in self.lumps.items()}}


def descramble(header: bytes) -> bytes:
    """The header of a version 5 file as written before ``AAS_DData`` scrambled it (and back: the XOR is its own inverse)."""
    key = (np.arange(len(header) - 8, dtype=np.int64) * 119) & 0xFF
    return header[:8] + (np.frombuffer(header, np.uint8, len(header) - 8, 8) ^ key.astype(np.uint8)).tobytes()


def parse(buffer: bytes | memoryview, source: str) -> AASFile:
    """Read a navigation file, checking every lump against the file and every index against what it names.

    Raises
    ------
    QuakeFormatError
        For another ident or version, a lump outside the file or not a whole number of records, or an index out
        of range (a reachability to an area that does not exist, a face, edge, plane or node beyond its lump).
    """
    raw = bytes(buffer)
    if len(raw) < HEADER.itemsize:
        raise QuakeFormatError(source, 'header', len(raw), f'the file ends inside the {HEADER.itemsize}-byte header')
    if raw[:4] != IDENT:
        raise QuakeFormatError(source, 'ident', raw[:4], 'not a bot navigation file (EAAS)')
    version = int(np.frombuffer(raw, '<i4', 1, 4)[0])
    if version not in VERSIONS:
        raise QuakeFormatError(source, 'version', version, 'botlib reads versions 4 and 5 (AASVERSION)')
    head = descramble(raw[: HEADER.itemsize]) if version == 5 else raw[: HEADER.itemsize]
    header = np.frombuffer(head, HEADER)[0]
    lumps: dict[str, np.ndarray] = {}
    for name, (offset, length) in zip(LUMPS, header['lumps'].tolist()):
        dtype = RECORDS[name]
        if length < 0 or offset < 0 or (length and offset + length > len(raw)):
            raise QuakeFormatError(source, f'{name} lump', (offset, length), f'outside the {len(raw)}-byte file')
        if length % dtype.itemsize:
            raise QuakeFormatError(source, f'{name} lump length', length, f'not a whole number of {dtype.itemsize}-byte records')
        lumps[name] = np.frombuffer(raw, dtype, length // dtype.itemsize, offset) if length else np.zeros(0, dtype)
    record = AASFile(source, version, int(header['bspchecksum']) & 0xFFFFFFFF, lumps)
    _check(record)
    return record


def _check(record: AASFile) -> None:
    """Every index of the file within what it names, so that nothing built on them reads past a lump."""
    s, lumps = Bounds(record.source, 0), record.lumps
    areas, faces, edges = len(lumps['areas']), len(lumps['faces']), len(lumps['edges'])
    settings, reach = lumps['areasettings'], lumps['reachability']
    if len(settings) != areas:
        raise s.error('areasettings lump length', len(settings), f'one settings record an area ({areas} areas)')
    s.record_indices('nodes', 'planenum', lumps['nodes']['planenum'], len(lumps['planes']))
    s.record_indices('nodes', 'children', lumps['nodes']['children'], len(lumps['nodes']), low=-areas + 1)
    s.record_indices('edges', 'v', lumps['edges']['v'][1:], len(lumps['vertexes']))  # edge 0 is a dummy (an optimised file keeps no vertexes)
    s.record_indices('edgeindex', 'edge', np.abs(lumps['edgeindex'].astype(np.int64)), edges)
    s.record_indices('faces', 'planenum', lumps['faces']['planenum'], len(lumps['planes']))
    s.runs('faces', 'firstedge', lumps['faces']['firstedge'], lumps['faces']['numedges'], len(lumps['edgeindex']))
    s.record_indices('faceindex', 'face', np.abs(lumps['faceindex'].astype(np.int64)), faces)
    s.runs('areas', 'firstface', lumps['areas']['firstface'], lumps['areas']['numfaces'], len(lumps['faceindex']))
    s.runs('areasettings', 'firstreachablearea', settings['firstreachablearea'], settings['numreachableareas'], len(reach))
    s.record_indices('reachability', 'areanum', reach['areanum'], areas)
    s.record_indices('portals', 'areanum', lumps['portals']['areanum'], areas)
    s.record_indices('portalindex', 'portal', lumps['portalindex'], len(lumps['portals']))
    # What routing reads: each area's cluster (a portal's, below 0), the clusters' runs of portals, each portal's clusters.
    portals, clusters = lumps['portals'], lumps['clusters']
    s.record_indices('areasettings', 'cluster', settings['cluster'], max(len(clusters), 1), low=-max(len(portals) - 1, 0))
    s.record_indices('areasettings', 'clusterareanum', settings['clusterareanum'], 2**31 - 1)
    s.record_indices('portals', 'frontcluster', portals['frontcluster'], max(len(clusters), 1))
    s.record_indices('portals', 'backcluster', portals['backcluster'], max(len(clusters), 1))
    s.record_indices('portals', 'clusterareanum', portals['clusterareanum'], 2**31 - 1)
    s.runs('clusters', 'firstportal', clusters['firstportal'], clusters['numportals'], len(lumps['portalindex']))
    s.record_indices('clusters', 'numreachabilityareas', clusters['numreachabilityareas'], 2**31 - 1)
    # A tree below node 1: each child node further down than its node, so descending ends.
    s.descending('nodes', lumps['nodes']['children'], lumps['nodes']['children'] > 0)


def block_checksum(data: bytes) -> int:
    """``Com_BlockChecksum``: the four 32-bit words of the data's MD4 digest XOR'd (unsigned), as the game
    checks a navigation file against its map."""
    from Crypto.Hash import MD4  # noqa: PLC0415 - pycryptodome, needed for this check only

    words = np.frombuffer(MD4.new(data).digest(), '<u4')
    return int(words[0] ^ words[1] ^ words[2] ^ words[3])
