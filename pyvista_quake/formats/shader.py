"""Quake III shader scripts (``scripts/*.shader``): each shader's first image stage and how it is blended.

A script is a list of shaders, ``name { … { stage } … }``.  What this module
keeps of a shader is what a picture of a model needs: the image of its first
stage that draws one (``map``, ``clampmap``, or ``animMap``'s first frame;
never ``$lightmap`` or ``$whiteimage``), and that stage's ``alphaFunc`` and
``blendFunc``.  The renderer draws a texture's alpha only when these say so
(``R_ParseShader``): without them the image is opaque whatever its alpha.

The Daemon engine's (Unvanquished's) shaders name their image outside any
stage, ``diffuseMap models/x/x_d``; such a shader draws that image when no
stage names one.
"""

from __future__ import annotations

from dataclasses import dataclass
import re

_TOKENS = re.compile(r'//[^\n]*|/\*.*?\*/|(\{|\}|[^\s{}]+)', re.DOTALL)

#: ``alphaFunc`` tests: which texels a cut-out keeps.
ALPHA_TESTS = ('gt0', 'lt128', 'ge128')

#: ``blendFunc`` shorthands and the GL factor pairs they stand for.
_SHORTHANDS = {'add': ('gl_one', 'gl_one'), 'filter': ('gl_dst_color', 'gl_zero'), 'blend': ('gl_src_alpha', 'gl_one_minus_src_alpha')}


@dataclass(frozen=True)
class Shader:
    """What a shader draws: its first image and how that stage blends.

    Attributes
    ----------
    name : str
        The shader's name, lower case.
    image : str
        The first stage's image.
    alpha_func : str or None
        The stage's ``alphaFunc`` (``'gt0'``, ``'lt128'``, ``'ge128'``), or ``None``.
    blend : tuple of str or None
        The stage's ``blendFunc`` as its two GL factors, lower case (shorthands expanded), or ``None``.

    """

    name: str
    image: str
    alpha_func: str | None = None
    blend: tuple[str, str] | None = None

    @property
    def alpha(self) -> str:
        """How the image's alpha is drawn: a cut-out by its ``alphaFunc`` (``'gt0'``, ``'lt128'``, ``'ge128'``),
        ``'blend'``, ``'add'``, or ``'opaque'`` (alpha ignored).

        ``filter`` stages (a multiply) count as opaque: the nearest a picture of one surface shows.
        """
        if self.alpha_func in ALPHA_TESTS:
            return str(self.alpha_func)
        if self.blend is None or self.blend == ('gl_one', 'gl_zero') or self.blend == _SHORTHANDS['filter'] or self.blend == ('gl_zero', 'gl_src_color'):
            return 'opaque'
        return 'add' if self.blend[1] == 'gl_one' else 'blend'


def parse(text: str) -> dict[str, Shader]:
    """Every shader of a script that draws an image, by lower-case name (the first of a name counts)."""
    tokens = [t for t in _TOKENS.findall(text) if t]  # a comment is an empty token
    out: dict[str, Shader] = {}
    depth, name = 0, None
    stage = _Stage()
    diffuse: str | None = None  # Daemon's shader-level diffuseMap
    for position, token in enumerate(tokens):
        if token == '{':
            depth += 1
            if depth == 2:
                stage = _Stage()
        elif token == '}':
            if depth == 2 and name is not None and name not in out and stage.image is not None:
                out[name] = Shader(name, stage.image, stage.alpha_func, stage.blend)
            elif depth == 1 and name is not None and name not in out and diffuse is not None:
                out[name] = Shader(name, diffuse, None, None)
            depth = max(depth - 1, 0)
        elif depth == 0:
            name, diffuse = token.lower(), None
        elif depth == 1 and token.lower() == 'diffusemap' and position + 1 < len(tokens) and tokens[position + 1] not in '{}':
            diffuse = diffuse or tokens[position + 1]
        elif depth == 2:
            keyword = token.lower()
            if keyword in _STAGE_KEYWORDS:  # most of a stage's words (tcMod, rgbGen, numbers) say nothing kept here
                _stage_token(stage, keyword, tokens[position + 1 : position + 3])
    return out


#: The words of a stage :func:`_stage_token` keeps something of.
_STAGE_KEYWORDS = frozenset(('map', 'clampmap', 'diffusemap', 'animmap', 'alphafunc', 'blendfunc'))


@dataclass
class _Stage:
    image: str | None = None
    alpha_func: str | None = None
    blend: tuple[str, str] | None = None


def _stage_token(stage: _Stage, keyword: str, following: list[str]) -> None:
    """Keep what one keyword of a stage says: its image, alpha function or blend."""
    if keyword in ('map', 'clampmap', 'diffusemap') and following and not following[0].startswith('$') and stage.image is None:
        stage.image = following[0]
    elif keyword == 'animmap' and len(following) == 2 and stage.image is None:
        stage.image = following[1]
    elif keyword == 'alphafunc' and following:
        stage.alpha_func = following[0].lower()
    elif keyword == 'blendfunc' and following:
        first = following[0].lower()
        if first in _SHORTHANDS:
            stage.blend = _SHORTHANDS[first]
        elif len(following) == 2:
            stage.blend = (first, following[1].lower())


def first_images(text: str) -> dict[str, str]:
    """Each shader's first image stage: ``{name (lower case): image}``."""
    return {name: shader.image for name, shader in parse(text).items()}
