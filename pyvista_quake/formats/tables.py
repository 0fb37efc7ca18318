"""Constant tables shared by the Quake model formats.

The 162 vertex normals of ``anorms.h`` (Quake and Quake II share them) are
the vertices of a frequency-4 geodesic sphere.  Every component is one of
21 magnitudes, so the table is kept here as three letters per normal: the
letter picks the magnitude, upper case makes it negative.  This keeps the
table short enough to read and check by eye.
"""

from __future__ import annotations

import numpy as np

_MAGNITUDES = (
    0.0, 0.147621, 0.162460, 0.238856, 0.262866, 0.295242, 0.309017,
    0.425325, 0.442863, 0.5, 0.525731, 0.587785, 0.681718, 0.688191,
    0.716567, 0.809017, 0.850651, 0.864188, 0.951056, 0.955423, 1.0,
)  # fmt: skip

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
