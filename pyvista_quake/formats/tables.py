"""Constant tables shared by the Quake model formats: normals and the palette.

The 162 vertex normals of ``anorms.h`` (Quake and Quake II share them) are
the vertices of a frequency-4 geodesic sphere.  Every component is one of
21 magnitudes, so the table is kept here as three letters per normal: the
letter picks the magnitude, upper case makes it negative.  This keeps the
table short enough to read and check by eye.
"""

from __future__ import annotations

import functools

import numpy as np

_MAGNITUDES = (
    0.0,
    0.147621,
    0.162460,
    0.238856,
    0.262866,
    0.295242,
    0.309017,
    0.425325,
    0.442863,
    0.5,
    0.525731,
    0.587785,
    0.681718,
    0.688191,
    0.716567,
    0.809017,
    0.850651,
    0.864188,
    0.951056,
    0.955423,
    1.0,
)

_NORMAL_CODES = """
Kaq Idr Fat Gjp Ces aau aqk Bom bom akq gjp kaq fat idr ces Mbo Pgj Lhn Qka
Rid Omb Nlh Jpg Dri Hnl OmB JpG Kqa aqK DrI atF EsC aua atf Esc dri esc jpg
drI esC jpG qka omb omB kqa hnl rid nlh pgj mbo lhn tfa uaa sce qKa tFa rId
sCe pGj mBo qak riD pgJ scE kaQ mbO mBO qaK pGJ rID sCE boM gjP hnL idR lhN
nlH BoM GjP akQ KaQ IdR FaT CeS aaU faT ceS IDR GJP CES aQK BOM bOM aKQ gJP
iDR cES dRI jPG hNL oMB nLH lHN aTF aUa eSC aQk aTf dRi eSc jPg oMb kQa DRI
JPG ESC QKa OMB OMb KQa JPg DRi ESc RId PGj NLh MBo IDr LHn GJp BOm HNl CEs
iDr cEs gJp bOm aKq hNl lHn nLh Tfa Sce Uaa Qak TFa SCe RiD ScE PgJ RID SCE
PGJ MbO MBO QaK NlH LhN HnL HNL LHN NLH
"""


def _decode_normals() -> np.ndarray:
    codes = np.frombuffer(''.join(_NORMAL_CODES.split()).encode('ascii'), np.uint8)
    magnitude_index = (codes | 0x20) - ord('a')  # fold to lower case
    sign = np.where(codes < ord('a'), -1.0, 1.0)
    table = (sign * np.asarray(_MAGNITUDES)[magnitude_index]).reshape(-1, 3)
    table /= np.linalg.norm(table, axis=1, keepdims=True)  # the C table has 6 digits
    table = table.astype(np.float32)
    table.flags.writeable = False
    return table


#: The 162 unit normals that ``lightnormalindex`` indexes, shape ``(162, 3)``.
VERTEX_NORMALS: np.ndarray = _decode_normals()

#: Number of entries of :data:`VERTEX_NORMALS` (``NUMVERTEXNORMALS``).
NUM_VERTEX_NORMALS = len(VERTEX_NORMALS)


# Quake's 256-colour palette (``gfx/palette.lmp``), 16 ramps of 16 colours, as hex RGB.
_PALETTE_HEX = (
    '0000000f0f0f1f1f1f2f2f2f3f3f3f4b4b4b5b5b5b6b6b6b7b7b7b8b8b8b9b9b9babababbbbbbbcbcbcbdbdbdbebebeb'
    '0f0b07170f0b1f170b271b0f2f2313372b173f2f174b371b533b1b5b431f634b1f6b531f73571f7b5f238367238f6f23'
    '0b0b0f13131b1b1b272727332f2f3f37374b3f3f574747674f4f735b5b7f63638b6b6b977373a37b7baf8383bb8b8bcb'
    '0000000707000b0b001313001b1b002323002b2b072f2f073737073f3f074747074b4b0b53530b5b5b0b63630b6b6b0f'
    '0700000f00001700001f00002700002f00003700003f00004700004f00005700005f00006700006f00007700007f0000'
    '1313001b1b002323002f2b00372f004337004b3b075743075f47076b4b0b77530f8357138b5b13975f1ba3631faf6723'
    '2313072f170b3b1f0f4b2313572b17632f1f7337237f3b2b8f43339f4f33af632fbf772fcf8f2bdfab27efcb1ffff31b'
    '0b07001b13002b230f372b1347331b533723633f2b6f47337f533f8b5f479b6b53a77b5fb7876bc3937bd3a38be3b397'
    'ab8ba39f7f979373878b677b7f5b6f7753636b4b575f3f4b5737434b2f3743272f371f232b171b231313170b0b0f0707'
    'bb739faf6b8fa35f839757778b4f6b7f4b5f7343536b3b4b5f333f532b3747232b3b1f232f171b231313170b0b0f0707'
    'dbc3bbcbb3a7bfa39baf978ba3877b977b6f876f5f7b63536b57475f4b3b533f33433327372b1f271f171b130f0f0b07'
    '6f837b677b6f5f7367576b5f4f6357475b4f3f5347374b3f2f43372b3b2f2333271f2b1f1723170f1b130b130b070b07'
    'fff31befdf17dbcb13cbb70fbba70fab970b9b83078b73077b63076b53005b47004b37003b2b002b1f001b0f000b0700'
    '0000ff0b0bef1313df1b1bcf2323bf2b2baf2f2f9f2f2f8f2f2f7f2f2f6f2f2f5f2b2b4f23233f1b1b2f13131f0b0b0f'
    '2b00003b00004b07005f07006f0f007f1707931f07a3270bb7330fc34b1bcf632bdb7f3be3974fe7ab5fefbf77f7d38b'
    'a77b3bb79b37c7c337e7e3577fbfffabe7ffd7ffff6700008b0000b30000d70000ff0000fff393fff7c7ffffff9f5b53'
)

#: Quake's standard palette, ``uint8`` of shape ``(256, 3)``.
QUAKE_PALETTE: np.ndarray = np.frombuffer(bytes.fromhex(''.join(_PALETTE_HEX)), np.uint8).reshape(256, 3)

#: Palette indices from here up are drawn fullbright (unlit) by Quake.
FULLBRIGHT_START = 224


@functools.cache
def latlong_normals() -> np.ndarray:
    """MD3 normals by their stored short (``lat << 8 | lng``), ``float32`` ``(65536, 3)``: index with the ``uint16`` as stored.

    Each angle is a byte of 2π/256 steps; ``x = cos(lat) sin(lng)``,
    ``y = sin(lat) sin(lng)``, ``z = cos(lng)`` (``tr_surface.c LerpMeshVertexes``).
    Made when an MD3's normals are first decoded (a first read of another format need not wait for it).
    """
    angle = np.arange(256) * (2 * np.pi / 256)
    lat, lng = np.meshgrid(angle, angle, indexing='ij')  # row: lat (high byte), column: lng (low byte)
    table = np.stack([np.cos(lat) * np.sin(lng), np.sin(lat) * np.sin(lng), np.cos(lng)], axis=-1)
    out = table.reshape(65536, 3).astype(np.float32)
    out.flags.writeable = False  # shared by every model
    return out
