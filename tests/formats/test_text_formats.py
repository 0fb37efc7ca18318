"""The text files beside models are formats too: .anm and animation.cfg read (and .anm written) in formats/."""

from __future__ import annotations

import pytest

from pyvista_quake import QuakeFormatError
from pyvista_quake.formats import animation_cfg
from pyvista_quake.formats import anm


def test_anm_lines_read_back_what_they_write():
    lines = anm.parse('// UFO: AI\nstand 0 9 10\n\ndead1 83 83 0 // held\n', 'x.anm')
    assert [(a.name, a.start, a.end, a.fps, a.line) for a in lines] == [('stand', 0, 9, 10.0, 2), ('dead1', 83, 83, 0.0, 4)]
    again = anm.parse(anm.write(lines))
    assert [(a.name, a.start, a.end, a.fps) for a in again] == [(a.name, a.start, a.end, a.fps) for a in lines]
    assert anm.parse('') == []


@pytest.mark.parametrize(
    ('text', 'says'),
    [
        ('run 0 9', 'expected "name start end fps"'),
        ('run 0 x 10', 'must be integers'),
        ('run 5 4 10', 'empty or negative'),
        ('run -1 4 10', 'empty or negative'),
        ('run 0 4 -1', '0 or more'),
        ('run 0 4 nan', '0 or more'),
    ],
)
def test_anm_faults_name_the_file_and_line(text, says):
    with pytest.raises(QuakeFormatError, match=says) as caught:
        anm.parse(f'ok 0 1 10\n{text}\n', 'x.anm')
    assert 'x.anm' in str(caught.value) and 'line 2' in str(caught.value)


def test_anm_start_equal_to_end_is_one_frame():
    (line,) = anm.parse('pose 3 3 10')
    assert (line.start, line.end) == (3, 3)


def test_animation_cfg_lives_with_the_formats():
    numbers = '\n'.join(['0 1 0 10'] * 25)
    config = animation_cfg.parse(f'sex f\nheadoffset 1 2 3\nfixedtorso\n{numbers}\n', 'a.cfg')
    assert config.sex == 'f' and config.head_offset == (1.0, 2.0, 3.0) and config.fixed_torso and not config.fixed_legs
    assert config.animations['TORSO_GETFLAG'] == config.animations['TORSO_GESTURE']  # Team Arena's, missing
