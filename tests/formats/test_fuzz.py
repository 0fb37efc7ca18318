"""Property-based fuzzing: broken models load or raise QuakeFormatError, nothing else."""

from __future__ import annotations

import os
import warnings

from conftest import corpus_models
from fuzzing import INT_EXTREMES
from fuzzing import exercise
from fuzzing import header_int_offsets
from fuzzing import set_float
from fuzzing import set_int
from fuzzing import synthetic_seeds
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
import numpy as np
import pytest

import pyvista_quake as pq

SEEDS = synthetic_seeds()


def _real_seeds() -> list[bytes]:
    """Every corpus MDL, and a spread of corpus MD2s (every fifth by size, up to 40 kB)."""
    models = [p for p in corpus_models() if 'malformed' not in p.name]
    mdls = [p for p in models if p.suffix.lower() == '.mdl' and p.stat().st_size < 400_000]
    md2s = sorted((p for p in models if p.suffix.lower() == '.md2' and p.stat().st_size < 40_000), key=lambda p: p.stat().st_size)
    return [p.read_bytes() for p in mdls + md2s[::5]]


SMALL_REAL = _real_seeds()
FUZZ = settings(max_examples=int(os.environ.get('FUZZ_EXAMPLES', '300')), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize('seed', range(len(SEEDS)))
def test_seeds_load(seed):
    assert exercise(SEEDS[seed]) == 'loaded'


def required_length(data: bytes) -> int:
    """Where the last section a reader needs ends (an MD2's GL command list may be cut)."""
    model = pq.load(data)
    if model.level is not None:
        return max(offset + length for offset, length in model.data.file.lumps.values())
    if model.format == 'md3':
        record = model.data.file
        parts = [(0, record.header), (int(record.header[0]['ofsFrames']), record.frames)]
        parts += [(int(record.header[0]['ofsTags']), record.tags)] if record.tags.size else []
        ends = [start + records.nbytes for s in record.surfaces for start, records in s.parts()]
        ends += [s.offset + int(s.header[0]['ofsEnd']) for s in record.surfaces]
        return max(ends + [start + records.nbytes for start, records in parts])
    if model.format == 'mdl':
        return len(data) - len(model.alias.trailing)
    if model.format == 'iqm':
        return model.header['filesize']
    if model.format == 'sprite':  # every byte is a picture's, or says how many follow
        return len(data)
    h = model.header
    ends = [
        h['ofs_skins'] + 64 * h['num_skins'],
        h['ofs_st'] + 4 * h['num_st'],
        h['ofs_tris'] + 12 * h['num_tris'],
        h['ofs_frames'] + h['framesize'] * h['num_frames'],
        68,
    ]
    return max(ends)


@pytest.mark.parametrize('seed', range(len(SEEDS)))
def test_truncation_at_every_byte(seed):
    data = SEEDS[seed]
    if pq.load(data).format == 'md5':
        # Text: a file cut after a whole block still reads (real files count more meshes than they hold), so
        # only the one rule holds at every cut, and a cut inside the last block is refused.
        outcomes = [exercise(data[:cut]) for cut in range(len(data))]
        assert set(outcomes) <= {'loaded', 'rejected'} and outcomes[data.rindex(b'}') - 1] == 'rejected'
        return
    needed = required_length(data)
    for cut in cuts(data):
        outcome = exercise(data[:cut])
        assert outcome == ('rejected' if cut < needed else 'loaded'), cut


def cuts(data: bytes) -> list[int]:
    """Every byte of a model; of a level (a few ms each), the header's bytes, each side of every lump's two ends, and 64 between."""
    model = pq.load(data)
    if model.level is None:
        return list(range(len(data)))
    ends = {e + d for offset, length in model.data.file.lumps.values() if length for e in (offset, offset + length) for d in (-1, 0, 1)}
    header = 8 + 8 * len(model.data.file.lumps)
    return sorted({*range(header + 1), *range(0, len(data), max(1, len(data) // 64)), *ends} & set(range(len(data))))


@pytest.mark.skipif(not SMALL_REAL, reason='the real-model corpus is absent')
def test_truncated_real_models_are_rejected():
    for data in SMALL_REAL:
        needed = required_length(data)
        for cut in sorted({0, 3, 4, 67, 68, 83, 84, needed // 2, needed - 1}):
            if cut < needed:
                assert exercise(data[:cut]) == 'rejected', cut


@FUZZ
@given(seed=st.sampled_from(SEEDS), in_header=st.booleans(), data=st.data())
def test_ints_in_the_header_and_anywhere(seed, in_header, data):
    where = st.sampled_from(header_int_offsets(seed)) if in_header else st.integers(0, len(seed) - 4)
    offset = data.draw(where)
    value = data.draw(st.one_of(st.sampled_from(INT_EXTREMES), st.integers(-(2**31), 2**31 - 1)))
    exercise(set_int(seed, offset, value))


@FUZZ
@given(seed=st.sampled_from(SEEDS), data=st.data())
def test_non_finite_floats(seed, data):
    offset = data.draw(st.integers(0, len(seed) - 4))
    value = data.draw(st.sampled_from([float('nan'), float('inf'), -float('inf'), 1e38, -1e38, 0.0]))
    exercise(set_float(seed, offset, value))


@FUZZ
@given(seed=st.sampled_from(SEEDS), flips=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=8), junk=st.binary(max_size=64))
def test_byte_mutations_and_trailing_junk(seed, flips, junk):
    out = bytearray(seed)
    for position, value in flips:
        out[position % len(out)] = value
    exercise(bytes(out) + junk)


@pytest.mark.skipif(not SMALL_REAL, reason='the real-model corpus is absent')
@FUZZ
@given(data=st.data())
def test_mutated_real_models(data):
    seed = data.draw(st.sampled_from(SMALL_REAL))
    exercise(_mutated(data, seed, header_int_offsets(seed)))


def _mutated(data, seed: bytes, header: list[int]) -> bytes:
    """A real file cut short, an extreme value in one of its ``header`` ints, or any int anywhere changed."""
    choice = data.draw(st.integers(0, 2))
    if choice == 0:
        return seed[: data.draw(st.integers(0, len(seed)))]
    if choice == 1:
        return set_int(seed, data.draw(st.sampled_from(header)), data.draw(st.sampled_from(INT_EXTREMES)))
    return set_int(seed, data.draw(st.integers(0, len(seed) - 4)), data.draw(st.integers(-(2**31), 2**31 - 1)))


def _real_levels() -> list[bytes]:
    """The two smallest corpus maps: a UFO: AI one and an OpenArena one (patches, lightmaps)."""
    import zipfile  # noqa: PLC0415

    from conftest import CORPUS  # noqa: PLC0415

    found = []
    for name, member in (('ufoai-f_road_v.pk3', 'maps/farm/f_road_v.bsp'), ('openarena-q3dm6ish.pk3', 'maps/q3dm6ish.bsp')):
        if (CORPUS / 'bsp' / name).is_file():
            with zipfile.ZipFile(CORPUS / 'bsp' / name) as pk3:
                found.append(pk3.read(member))
    return found


REAL_LEVELS = _real_levels()


@pytest.mark.skipif(not REAL_LEVELS, reason='the map corpus is absent')
@settings(max_examples=max(1, FUZZ.max_examples // 10), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_real_levels(data):
    seed = data.draw(st.sampled_from(REAL_LEVELS))
    exercise(_mutated(data, seed, list(range(8, 8 + 8 * 17, 4))))  # each lump's offset and length


# -- skins and archives: warnings or clear errors, never a crash, never outside the roots ----


def _pak(members: dict[str, bytes]) -> bytes:
    import struct  # noqa: PLC0415

    body, directory = b'', b''
    for name, data in members.items():
        directory += name.encode().ljust(56, b'\0') + struct.pack('<ii', 12 + len(body), len(data))
        body += data
    return b'PACK' + struct.pack('<ii', 12 + len(body), len(directory)) + body + directory


def _pcx() -> bytes:
    import io  # noqa: PLC0415

    import numpy as np  # noqa: PLC0415
    from PIL import Image  # noqa: PLC0415

    image = Image.fromarray(np.arange(64, dtype=np.uint8).reshape(8, 8), mode='P')
    image.putpalette(list(range(256)) * 3)
    out = io.BytesIO()
    image.save(out, format='PCX')
    return out.getvalue()


PCX = _pcx()


def _exercise_archive(tmp_path, data: bytes) -> None:
    import warnings  # noqa: PLC0415

    import pyvista_quake as pq  # noqa: PLC0415

    path = tmp_path / 'pak0.pak'
    path.write_bytes(data)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            model = pq.load(path, member='models/m/tris.md2')
        except pq.QuakeFormatError:  # a missing member too (MissingMemberError)
            return
        image = model.alias.skin_image()
        assert image is None or image.ndim == 3
        mesh = model.mesh(0)
        texture = mesh.quake.texture
        assert texture is None or texture.dimensions[0] > 0


@FUZZ
@given(flips=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), min_size=1, max_size=6), cut=st.integers(0, 10**6))
def test_mutated_pak_with_model_and_pcx_skin(tmp_path_factory, flips, cut):
    from builders import tetra_md2  # noqa: PLC0415

    data = bytearray(_pak({'models/m/tris.md2': tetra_md2(skins=['models/m/skin.pcx']), 'models/m/skin.pcx': PCX}))
    for position, value in flips:
        data[position % len(data)] = value
    if cut % 3 == 0:
        data = data[: cut % (len(data) + 1)]
    _exercise_archive(tmp_path_factory.mktemp('pak'), bytes(data))


@FUZZ
@given(
    flips=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), min_size=1, max_size=6),
    width=st.sampled_from([0, 1, 0xFFFF]),
    height=st.sampled_from([0, 1, 0xFFFF]),
)
def test_broken_pcx_skins(tmp_path_factory, flips, width, height):
    import struct  # noqa: PLC0415

    from builders import tetra_md2  # noqa: PLC0415

    pcx = bytearray(PCX)
    struct.pack_into('<HH', pcx, 8, width, height)  # xmax, ymax: the size the header claims
    for position, value in flips:
        pcx[position % len(pcx)] = value
    data = _pak({'models/m/tris.md2': tetra_md2(skins=['models/m/skin.pcx']), 'models/m/skin.pcx': bytes(pcx)})
    _exercise_archive(tmp_path_factory.mktemp('pcx'), data)


def _text_seeds() -> list[tuple[str, bytes]]:
    """One small, valid file of each text format that sits beside models (and a ``.tag``), written here."""
    from builders import two_joint_md5

    from pyvista_quake.formats import animation_cfg
    from pyvista_quake.formats import tag as tag_file
    from pyvista_quake.formats.records import Tag

    rows = '\n'.join(f'{4 * k} 4 0 15 // {name}' for k, name in enumerate(animation_cfg.ANIMATION_NAMES))
    axes = np.tile(np.eye(3, dtype=np.float32), (2, 1, 1))
    tags = tag_file.write({'tag_head': Tag('tag_head', np.ones((2, 3), np.float32), axes)})
    return [
        ('skin', b'tag_head,\nh_head,models/players/x/head.tga\n'),
        (
            'shader',
            b'textures/a/b\n{\n\tsurfaceparm nolightmap\n\t{\n\t\tmap textures/a/b.tga\n\t\tblendFunc GL_ONE GL_ONE\n\t\talphaFunc GE128\n\t}\n}\n',
        ),
        ('animation_cfg', b'sex m\nheadoffset 0 0 0\nfootsteps boot\n' + rows.encode()),
        ('anm', b'stand 0 3 10\nrun 4 9 15\n'),
        (
            'model_cfg',
            b'iqmload mesh.iqm\niqmskin * "<dds>skin.png"\niqmanim idle idle.iqm 0 10 30\niqmtag tag_x bone 0 0 1 0 90 0\n'
            b't = 2 ; p = "x"\nif (|| (<= $t 2) [strcmp (mdlname) "a/b"]) [ iqmskin m (format "i/%1/d" $p) ]\n'
            b'loop i 3 [ iqmanim (concatword a $i) b.iqm ]\n',
        ),
        ('tag', tags),
        ('md5anim', two_joint_md5()[1].encode()),
    ]


TEXT_SEEDS = _text_seeds()


def _parse_text(kind: str, data: bytes) -> object:
    from pyvista_quake.formats import animation_cfg
    from pyvista_quake.formats import anm
    from pyvista_quake.formats import md5
    from pyvista_quake.formats import shader
    from pyvista_quake.formats import skin
    from pyvista_quake.formats import tag as tag_file

    text = data.decode('latin-1')
    parsers = {
        'skin': skin.parse,
        'shader': shader.parse,
        'animation_cfg': animation_cfg.parse,
        'anm': anm.parse,
        'model_cfg': _interpreted,
        'tag': lambda _: tag_file.parse(data),
        'md5anim': lambda _: md5.parse(data),
    }
    return parsers[kind](text)


def _interpreted(text: str) -> object:
    """A Cube 2 config parsed and run (its conditions, aliases and expressions), its warnings kept out of the way."""
    from pyvista_quake.formats import model_cfg

    with warnings.catch_warnings():
        warnings.simplefilter('ignore', pq.QuakeWarning)
        return model_cfg.interpret(model_cfg.parse(text, 'x.cfg'), 'x.cfg', '.', lambda n: None, variables={'mdlname': lambda: 'a/b'})


@pytest.mark.parametrize('kind', [k for k, _ in TEXT_SEEDS])
def test_text_seeds_parse(kind):
    assert _parse_text(kind, dict(TEXT_SEEDS)[kind])


@FUZZ
@given(
    seed=st.sampled_from(TEXT_SEEDS),
    edits=st.lists(
        st.tuples(
            st.integers(0, 10**4),
            st.sampled_from(
                [
                    b'',
                    b' ',
                    b'\n',
                    b'{',
                    b'}',
                    b'"',
                    b'(',
                    b')',
                    b'//',
                    b'/*',
                    b'-',
                    b'0',
                    b'9',
                    b'.',
                    b'e',
                    b'nan',
                    b'inf',
                    b'-inf',
                    b'1e999',
                    b'\\',
                    b'\x00',
                    b'\xff',
                    b'99999999999999999999',
                    b'-1',
                ]
            ),
        ),
        max_size=6,
    ),
    cut=st.integers(0, 10**4),
)
def test_mutated_text_sidecars_parse_or_raise_a_format_error(seed, edits, cut):
    """``.skin``, ``.shader``, ``animation.cfg``, ``.anm``, Cube 2 configs, ``.tag`` and ``.md5anim``: a broken file parses or is a
    ``QuakeFormatError``, never another exception (``inf`` frame numbers in an ``animation.cfg`` were an OverflowError)."""
    kind, data = seed
    out = bytearray(data)
    for position, token in edits:
        at = position % (len(out) + 1)
        out[at : at + (1 if token else 3)] = token or b''  # replace a byte with a token, or cut three
    out = out[: max(cut, len(out) // 2)]
    try:
        _parse_text(kind, bytes(out))
    except pq.QuakeFormatError as error:
        assert str(error)


_CONFIG_NAMES = st.one_of(
    st.sampled_from(
        [
            '',
            '/',
            '.',
            '..',
            '../',
            '../..',
            'm.iqm',
            's.png',
            'x',
            'x/head',
            '\x00',
            'a\x00b',
            'a' * 300,
            '*',
            '~',
            'C:\\x',
            '<dds>/',
            '$t',
            '(concatword / $t)',
        ]
    ),
    st.text(max_size=12),
)


@FUZZ
@given(names=st.lists(_CONFIG_NAMES, min_size=6, max_size=6))
def test_configs_naming_any_file_resolve_or_raise_a_format_error(tmp_path_factory, names):
    """A Cube 2 config's files found on disk, whatever its commands name: an image named ``/`` and a NUL byte in a
    folder's name raised ValueErrors."""
    from pyvista_quake.game import model_configs

    folder = tmp_path_factory.mktemp('cfg') / 'data' / 'x' / 'head'
    folder.mkdir(parents=True)
    (folder / 'm.iqm').write_bytes(b'')
    (folder / 'other.cfg').write_text('iqmskin * s.png\n')
    quoted = [f'"{n}"' if '"' not in n and '\n' not in n else n for n in names]
    text = 't = {}\niqmload {}\niqmdir {}\niqmskin * {}\nexec {}\niqmanim idle {}\n'.format(*quoted)
    (folder / 'iqm.cfg').write_bytes(text.encode('utf-8'))
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', pq.QuakeWarning)
        try:
            model_configs.resolve(folder / 'iqm.cfg')
        except (pq.QuakeFormatError, OSError) as error:
            assert str(error)


def test_an_animation_cfg_with_infinite_or_nan_numbers_is_a_format_error():
    from pyvista_quake.formats import animation_cfg

    text = dict(TEXT_SEEDS)['animation_cfg'].decode()
    for bad in ('inf', 'nan', '-inf', '1e999'):
        with pytest.raises(pq.QuakeFormatError, match=rf"BOTH_DEAD1 = '{bad}': not a finite number"):
            animation_cfg.parse(text.replace('4 4 0 15', f'4 {bad} 0 15', 1))
        with pytest.raises(pq.QuakeFormatError, match='headoffset.*not a finite number'):
            animation_cfg.parse(text.replace('headoffset 0 0 0', f'headoffset 0 {bad} 0'))
