"""The Cube 2 config language (``formats/model_cfg.py``): conditions, expressions, aliases and commands."""

from __future__ import annotations

import warnings

import pytest

import pyvista_quake as pq

BANDIT_CFG = """if (<= $bandit_type 2) [
    iqmload ../mesh.iqm
    iqmskin two (format "../icons/%1/diff" $bandit_priv) (format "../icons/%1/mask" $bandit_priv)
]
if  (>= $bandit_type 3) [ iqmload ../../mesh.iqm ; iqmskin two (concatword "../../icons/" $bandit_priv "/diff") ]
iqmskin one $bandit_skin
bandit_type = [] ; bandit_priv = []
"""


@pytest.mark.parametrize(
    ('condition', 'truth'),
    [
        ('strcmp (mdlname) "actors/player/male"', True),
        ('strcmp (mdlname) "actors/player"', False),
        ('stringcmp (mdlname) "actors/player/male"', True),
        ('stringcmp (mdlname)', False),  # a missing argument compares nothing
        ('=s (mdlname) "actors/player/male"', True),
        ('=s (mdlname) "x"', False),
        ('!=s (mdlname) "x"', True),
        ('!=s "x" (mdlname)', True),
        ('!=s (mdlname) "actors/player/male"', False),
        ('! (strcmp (mdlname) "x")', True),
        ('! [strcmp (mdlname) "x"]', False),  # a block given to ! is a string, as in CubeScript: not empty
        ('! 0 1', True),
        ('! 1 0', False),
        ('!', True),
        ('|| 0 [strcmp (mdlname) "actors/player/male"]', True),
        ('&& 1 [strcmp (mdlname) "x"]', False),
        ('&& 1 2.5', True),
        ('(strcmp (mdlname) "actors/player/male")', True),
        ('0', False),
        ('7', True),
    ],
)
def test_conditions_evaluate_as_cubescript_does(condition, truth):
    from pyvista_quake.formats import model_cfg

    verdict = model_cfg._true(model_cfg.evaluate(model_cfg._split(condition), {'mdlname': lambda: 'actors/player/male'}))
    assert verdict is truth


@pytest.mark.parametrize('condition', ['maxfps', '7 8', '(strcmp a', 'getvar x', '(strcmp a a) 1'])
def test_conditions_it_does_not_run_are_unknown(condition):
    from pyvista_quake.formats import model_cfg

    with pytest.raises(model_cfg.UnknownConditionError):
        model_cfg.evaluate(model_cfg._split(condition), {})


@pytest.mark.parametrize(
    ('expression', 'value'),
    [
        ('= 2 2', True),
        ('= 2 3', False),
        ('= 2.9 2', True),  # integers, as parseint reads them
        ('!= 2 3', True),
        ('!= 2 2', False),
        ('< 1 2', True),
        ('< 2 2', False),
        ('< 3 2', False),
        ('> 3 2', True),
        ('> 2 2', False),
        ('> 1 2', False),
        ('<= 2 2', True),
        ('<= 1 2', True),
        ('<= 3 2', False),
        ('>= 2 2', True),
        ('>= 3 2', True),
        ('>= 1 2', False),
        ('= 0x1f 31', True),
        ('= 0X1F 31', True),
        ('= 010 8', True),
        ('= 31 31', True),
        ('= 0 0', True),
        ('= 08 0', True),
        ('= -2 -2', True),
        ('= +7 7', True),
        ('= x 0', True),
        ('= 5', False),
        ('=', True),  # a missing word is 0
        # parseint's ends: strtoul's ULONG_MAX past it (either sign), then a 32-bit int
        ('= 4294967296 0', True),
        ('= 4294967295 -1', True),
        ('= 2147483648 -2147483648', True),
        ('= -2147483649 2147483647', True),
        ('= 18446744073709551615 -1', True),
        ('= 18446744073709551616 -1', True),
        ('= -18446744073709551615 1', True),
        ('= -18446744073709551616 -1', True),
        ('< 4294967296 1', True),
        ('> 10 9', True),
        ('> 29 3', True),
        ('= 20 2', False),
        ('<f 2.05 2.06', True),
        ('format "a%0b"', 'a0b'),
        ('=f 1e2 100', True),
        ('=f .05 0.05', True),
        ('=f 2.5 2.5', True),
        ('=f 2.5 2', False),
        ('<f 2.25 2.5', True),
        ('>f 2.5 2.25', True),
        ('!=f 1 1.0', False),
        ('<=f 2.5 2.5', True),
        ('>=f 2.4 2.5', False),
        ('=f 1.5e1x 15', True),
        ('=f .5 0.5', True),
        ('=f x 0', True),
        ('=f -2.5 -2.5', True),
        ('=f 2.5', False),
        # parsefloat is glibc's strtod: hexadecimal floats, inf and nan too
        ('=f 0x1f 31', True),
        ('=f 0X1.8p3 12', True),
        ('=f -0x.8 -0.5', True),
        ('=f 0x1p99999 1e999', True),
        ('=f 0x 0', True),
        ('=f 0xg 0', True),
        ('=f inf 1e999', True),
        ('=f -Infinity -1e999', True),
        ('=f infinit 1e999', True),
        ('<f -inf -1e308', True),
        ('=f 0x0f 15', True),
        ('=f 0x1.08p4 16.5', True),
        ('=f 0x.08 0.03125', True),
        ('=f 0x1p10 1024', True),
        ('=f 1e10 10000000000', True),
        ('=f nan nan', False),
        ('!=f NaN(1) 0', True),
        ('=f nanx 0', False),
        ('=f 1.e2 100', True),
        ('=f 1e 1', True),
        ('= $t 2', True),
        ('< $t 2', False),
        ('|| (= $t 1) (= $t 2)', True),
        ('&& (>= $t 1) (<= $t 1)', False),
        ('format "icons/%1/diff" $p', 'icons/founder/diff'),
        ('format "%2-%1-%3" a b', 'b-a-'),
        ('format "100%% %x"', '100% x'),
        ('format "end%"', 'end'),
        ('format', ''),
        ('format "%1" (= 1 1)', '1'),
        ('concat a (= 1 2) $p', 'a 0 founder'),
        ('concatword a b $t', 'ab2'),
    ],
)
def test_expressions_evaluate_as_cubescript_does(expression, value):
    from pyvista_quake.formats import model_cfg

    got = model_cfg.evaluate(model_cfg._split(expression), {'t': lambda: '2', 'p': lambda: 'founder'})
    assert model_cfg._text(got) == model_cfg._text(value)


def test_a_commands_words_group_by_their_parentheses():
    from pyvista_quake.formats import model_cfg

    # A word with spaces (a string or a block) that opens a group is the group by itself.
    assert model_cfg._words(('(concatword a b)', 'tail', '$v'), {'v': lambda: 'V'}) == ('ab', 'tail', 'V')


def test_a_config_sets_aliases_that_the_configs_it_runs_read():
    """Red Eclipse's vanities/bandit/priv: each badge's iqm.cfg sets two aliases and runs one shared config, whose
    ``if``s and ``format``s pick the mesh and the images (its 72 configs under head/ loaded no mesh before)."""
    from pyvista_quake.formats import model_cfg

    def run(text):
        return model_cfg.interpret(model_cfg.parse(text, 'a.cfg'), 'a.cfg', '.', lambda n: ('shared.cfg', BANDIT_CFG))

    config = run('bandit_type = 2 ; bandit_priv = "founder"\nalias bandit_skin diff.png\nexec shared.cfg\n')
    assert config.meshes == [('.', '../mesh.iqm')]
    assert config.skins == {'two': ('.', '../icons/founder/diff'), 'one': ('.', 'diff.png')}
    config = run('bandit_type = 3 ; bandit_priv = (concatword "loc" "al")\nbandit_skin = $bandit_priv\nexec shared.cfg\n')
    assert config.meshes == [('.', '../../mesh.iqm')] and config.skins == {'two': ('.', '../../icons/local/diff'), 'one': ('.', 'local')}
    # An alias set to nothing is empty; one never set cannot be told: the command that asks is skipped, with its line.
    config = run('bandit_type = 1\nbandit_priv =\nbandit_skin = []\nexec shared.cfg\n')
    assert config.skins == {'two': ('.', '../icons//diff'), 'one': ('.', '')}
    with pytest.warns(pq.QuakeWarning, match=r'shared.cfg: line 6: skipped "iqmskin one \$bandit_skin": \$bandit_skin is not known'):
        config = run('bandit_type = 1 ; bandit_priv = x\nexec shared.cfg\n')
    assert config.skins == {'two': ('.', '../icons/x/diff')}
    # What it does not run is not asked: an unknown alias in a command that only changes the drawing warns of nothing.
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        config = model_cfg.interpret(model_cfg.parse('mdlscale $size\niqmload m.iqm\n'), 'b.cfg', '.', lambda n: None)
    assert config.meshes == [('.', 'm.iqm')]
    with pytest.warns(pq.QuakeWarning, match=r'b.cfg: line 1: skipped "iqmload \(format": a \[ or \( is never closed'):
        model_cfg.interpret(model_cfg.parse('iqmload (format\n', 'b.cfg'), 'b.cfg', '.', lambda n: None)


def test_a_command_it_does_not_run_over_a_block_of_model_commands_warns_that_they_were_not_run():
    """Red Eclipse's janitor runs ``loop i $W_ALL [ iqmanim ... ]`` over the game's weapons, which only the game knows."""
    from pyvista_quake.formats import model_cfg

    text = (
        'iqmload m.iqm\nloop i $W_ALL [\n    iqmanim (at $W_NAMES $i) "arm-idle.iqm" 15\n]\n'
        'mkvanity x [ mdlscale 2 ]\nwhile 1 [ exec other.cfg ]\nmdlscale 3\n'
    )
    with pytest.warns(pq.QuakeWarning) as caught:
        config = model_cfg.interpret(model_cfg.parse(text, 'a.cfg'), 'a.cfg', '.', lambda n: None)
    assert [str(w.message) for w in caught] == [
        'a.cfg: line 2: skipped "loop i $W_ALL […]": \'loop\' is a command pyvista-quake does not run; the model commands in its block were not run',
        'a.cfg: line 6: skipped "while 1 […]": \'while\' is a command pyvista-quake does not run; the model commands in its block were not run',
    ]
    assert config.meshes == [('.', 'm.iqm')] and config.animations == []
    # A command's words that only mention one (not at a line's start) hide nothing; an if at the exec limit is not "unknown".
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        model_cfg.interpret(
            model_cfg.parse('echo [say iqmanim x]\nif (= 1 1) [ if (= 1 1) [ iqmload m.iqm ] ]\n', 'b.cfg'),
            'b.cfg',
            '.',
            lambda n: None,
            depth=model_cfg.MAX_EXEC_DEPTH - 1,
        )


def test_an_if_without_its_blocks_runs_nothing():
    """Found by fuzzing the run of configs: a true condition with no block was an IndexError."""
    from pyvista_quake.formats import model_cfg

    for condition in ('(= 1 1)', '(= 1 2)', '(strcmp (mdlname) "m")'):
        config = model_cfg.interpret(
            model_cfg.parse(f'if {condition}\niqmload a.iqm\n'), 'a.cfg', '.', lambda n: None, variables={'mdlname': lambda: 'm'}
        )
        assert config.meshes == [('.', 'a.iqm')]
    config = model_cfg.interpret(model_cfg.parse('if (= 1 1) [ iqmload t.iqm ]\nif (= 1 2) [ iqmload t.iqm ]\n'), 'a.cfg', '.', lambda n: None)
    assert config.meshes == [('.', 't.iqm')]  # the then block runs once, for the true one; no else block


def test_expressions_nested_past_the_limit_are_skipped_not_a_crash():
    from pyvista_quake.formats import model_cfg

    def meshes(text):
        return model_cfg.interpret(model_cfg.parse(text, 'a.cfg'), 'a.cfg', '.', lambda n: None).meshes

    limit = model_cfg.MAX_NESTING
    assert limit == 64
    assert meshes('iqmload ' + '(' * limit + 'concat a' + ')' * limit) == [('.', 'a')]
    with pytest.warns(pq.QuakeWarning, match='skipped "iqmload .*": its commands nest deeper than 64'):
        assert meshes('iqmload ' + '(' * (limit + 1) + 'concat a' + ')' * (limit + 1)) == []
    # Each ( … ) of a command's words is a level, and each of ||'s operands with its ( … ).
    assert meshes('iqmload ' + '(concat ' * limit + 'a' + ')' * limit) == [('.', 'a')]
    assert meshes('if ' + '(|| ' * (limit // 2) + '1' + ')' * (limit // 2) + ' [ iqmload a ]') == [('.', 'a')]
    with pytest.warns(pq.QuakeWarning, match='nest deeper than 64'):
        assert meshes('iqmload ' + '(concat ' * (limit + 1) + 'a' + ')' * (limit + 1)) == []
    with pytest.warns(pq.QuakeWarning, match='nest deeper than 64'):
        assert meshes('if ' + '(|| ' * (limit // 2 + 1) + '1' + ')' * (limit // 2 + 1) + ' [ iqmload a ]') == []
    for text, found in (
        ('if ' + '(' * 3000 + '1' + ')' * 3000 + ' [ iqmload a ]', []),
        ('if (|| ' + '[|| ' * 3000 + '1' + ']' * 3000 + ') [ iqmload a ]', []),
        ('x = ' + '(concat ' * 3000 + 'a' + ')' * 3000 + '\niqmload b', [('.', 'b')]),
    ):
        with pytest.warns(pq.QuakeWarning, match='nest deeper than 64'):
            assert meshes(text) == found


def test_a_config_that_runs_itself_stops_at_the_exec_depth_its_ifs_included():
    from pyvista_quake.formats import model_cfg

    # Each run of self.cfg is two levels deep: its "if" body one, the exec in it another.
    text = 'iqmanim a a.iqm\nif (strcmp (mdlname) "m") [\n  iqmanim b b.iqm\n  exec self.cfg\n]\n'
    config = model_cfg.interpret(model_cfg.parse(text, 'self.cfg'), 'self.cfg', '.', lambda n: ('self.cfg', text), variables={'mdlname': lambda: 'm'})
    names = [played[0].name for played, _, _ in config.animations]
    # Depths 0, 2, 4, 6 and 8 run the file; 1, 3, 5 and 7 an if's body; at depth 8 (MAX_EXEC_DEPTH) no if or exec runs.
    assert model_cfg.MAX_EXEC_DEPTH == 8
    assert names == ['a', 'b'] * 4 + ['a']
    flat = 'iqmanim a a.iqm\nexec self.cfg\n'
    config = model_cfg.interpret(model_cfg.parse(flat, 'self.cfg'), 'self.cfg', '.', lambda n: ('self.cfg', flat))
    assert len(config.animations) == model_cfg.MAX_EXEC_DEPTH + 1


def test_a_config_command_short_of_arguments_says_how_many_it_takes():
    from pyvista_quake.formats import model_cfg

    text = 'iqmanim slow s.iqm 0.5\niqmanim own o.iqm 0\niqmanim fast f.iqm 1 0 2 -3\n'
    config = model_cfg.interpret(model_cfg.parse(text, 'a.cfg'), 'a.cfg', '.', lambda n: None)
    # A rate above 0 is the config's own, however slow; 0 leaves the file's. (The fourth word is a priority.)
    assert [played[0] for played, _, _ in config.animations] == [
        model_cfg.Played('slow', 0.5),
        model_cfg.Played('own', None),
        model_cfg.Played('fast', 1.0, 2, -3),
    ]

    # The engine cannot load a model without its mesh: a bare load (or dir) is an error.
    for text in ('iqmload\n', 'iqmdir\n'):
        with pytest.raises(pq.QuakeFormatError, match='a.cfg: line 1 .* takes at least 1 arguments, has 0'):
            model_cfg.interpret(model_cfg.parse(text, 'a.cfg'), 'a.cfg', '.', lambda n: None)


def test_a_config_command_short_of_words_is_run_as_the_engine_runs_it():
    """Cube 2 gives a command's missing words as empty: Red Eclipse's weapons/sword/item/iqm.cfg has
    ``iqmtag tag_eject`` (a joint, no tag name), and the game loads the model."""
    from pyvista_quake.formats import model_cfg

    def run(text):
        return model_cfg.interpret(model_cfg.parse(text, 'a.cfg'), 'a.cfg', '.', lambda n: ('b.cfg', 'iqmanim b b.iqm\n'))

    config = run('iqmload m.iqm\niqmtag tag_muzzle tag_muzzle\niqmtag tag_eject\niqmtag\nexec\niqmanim idle i.iqm\n')
    assert config.tags == [('tag_muzzle', 'tag_muzzle', (0.0,) * 6)]  # the nameless tags add nothing
    assert config.meshes == [('.', 'm.iqm')] and [p[0].name for p, _, _ in config.animations] == ['idle']  # and stop nothing
    assert run('exec b.cfg\n').animations  # (an exec with its word runs)
    for text, takes, has, outcome in (
        ('iqmanim idle\n', 'an animation name and its file', '1 word', 'left out'),
        ('iqmanim\n', 'an animation name and its file', '0 words', 'left out'),
        ('iqmskin *\n', 'a mesh and its image', '1 word', 'skipped'),
    ):
        with pytest.warns(pq.QuakeWarning, match=f'a.cfg: line 2: {text.split()[0]} takes {takes}, has {has}; {outcome}'):
            config = run('iqmload m.iqm\n' + text + 'iqmskin m s.png\niqmanim run r.iqm\n')
        assert config.skins == {'m': ('.', 's.png')} and [p[0].name for p, _, _ in config.animations] == ['run']
