"""Quake III shader scripts (``scripts/*.shader``): each shader's first image stage and how it is blended.

A script is a list of shaders, ``name { … { stage } … }``.  What this module
keeps of a shader is what a picture of a model needs: the image of the stage
that carries the surface's colour, and that stage's ``alphaFunc``, ``blendFunc``
and whether it is coloured by the vertices.  The renderer draws a texture's
alpha only when these say so (``R_ParseShader``): without them the image is
opaque whatever its alpha.

The stage that carries the colour is the first that draws an image (``map``,
``clampmap``, or ``animMap``'s first frame; never ``$lightmap`` or
``$whiteimage``) with the texture's own coordinates: a stage whose ``tcGen``
is ``environment``, ``vector`` or ``lightmap`` paints a reflection or a
projection over the surface, not its texture, and is passed over (OpenArena's
shiny team trims: an environment map first, the red or blue metal after it).
A shader whose every image stage is such is drawn with its first.

A stage is coloured by the vertices where its ``rgbGen`` is ``vertex`` or
``exactVertex`` (``oneMinusVertex`` too); a stage without ``rgbGen`` is not
(``ParseStage`` makes it ``identity``), so a vertex-lit face of such a shader
draws its texture as it is.

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
    vertex_colours : bool
        Whether the stage multiplies its image by the vertices' colours (``rgbGen vertex``,
        ``exactVertex`` or ``oneMinusVertex``).

    """

    name: str
    image: str
    alpha_func: str | None = None
    blend: tuple[str, str] | None = None
    vertex_colours: bool = False

    @property
    def alpha(self) -> str:
        """How the image's alpha is drawn: a cut-out by its ``alphaFunc`` (``'gt0'``, ``'lt128'``, ``'ge128'``),
        ``'blend'``, ``'add'``, or ``'opaque'`` (alpha ignored).

        ``filter`` stages (a multiply) count as opaque: the nearest a picture of one surface shows.
        """
        if self.alpha_func in ALPHA_TESTS:
            return str(self.alpha_func)
        if (
            self.blend is None
            or self.blend == ('gl_one', 'gl_zero')
            or self.blend == _SHORTHANDS['filter']
            or self.blend == ('gl_zero', 'gl_src_color')
        ):
            return 'opaque'
        return 'add' if self.blend[1] == 'gl_one' else 'blend'


def parse(text: str) -> dict[str, Shader]:
    """Every shader of a script that draws an image, by lower-case name (the first of a name counts)."""
    tokens = [t for t in _TOKENS.findall(text) if t]  # a comment is an empty token
    out: dict[str, Shader] = {}
    depth, name = 0, None
    stage = _Stage()
    diffuse: str | None = None  # Daemon's shader-level diffuseMap
    projected: _Stage | None = None  # the first image stage of the shader, where it has coordinates of its own
    for position, token in enumerate(tokens):
        if token == '{':
            depth += 1
            if depth == 2:
                stage = _Stage()
        elif token == '}':
            if depth == 2 and name is not None and name not in out and stage.image is not None:
                if stage.tc_gen in _PROJECTED:
                    projected = projected or stage
                else:
                    out[name] = stage.shader(name)
            elif depth == 1 and name is not None and name not in out:
                if projected is not None:
                    out[name] = projected.shader(name)
                elif diffuse is not None:
                    out[name] = Shader(name, diffuse, None, None)
            depth = max(depth - 1, 0)
        elif depth == 0:
            name, diffuse, projected = token.lower(), None, None
        elif depth == 1 and token.lower() == 'diffusemap' and position + 1 < len(tokens) and tokens[position + 1] not in '{}':
            diffuse = diffuse or tokens[position + 1]
        elif depth == 2:
            keyword = token.lower()
            if keyword in _STAGE_KEYWORDS:  # most of a stage's words (tcMod, rgbGen, numbers) say nothing kept here
                _stage_token(stage, keyword, tokens[position + 1 : position + 3])
    return out


#: The words of a stage :func:`_stage_token` keeps something of.
_STAGE_KEYWORDS = frozenset(('map', 'clampmap', 'diffusemap', 'animmap', 'alphafunc', 'blendfunc', 'tcgen', 'rgbgen'))

#: ``tcGen`` modes whose coordinates are not the texture's own: the stage does not carry the surface's colour.
_PROJECTED = frozenset(('environment', 'vector', 'lightmap'))

#: ``rgbGen`` modes that take the vertices' colours.
_VERTEX_RGB = frozenset(('vertex', 'exactvertex', 'oneminusvertex'))


@dataclass
class _Stage:
    image: str | None = None
    alpha_func: str | None = None
    blend: tuple[str, str] | None = None
    tc_gen: str | None = None
    rgb_gen: str | None = None

    def shader(self, name: str) -> Shader:
        return Shader(name, str(self.image), self.alpha_func, self.blend, self.rgb_gen in _VERTEX_RGB)


def _stage_token(stage: _Stage, keyword: str, following: list[str]) -> None:
    """Keep what one keyword of a stage says: its image, alpha function or blend."""
    if keyword in ('map', 'clampmap', 'diffusemap') and following and not following[0].startswith('$') and stage.image is None:
        stage.image = following[0]
    elif keyword == 'animmap' and len(following) == 2 and stage.image is None:
        stage.image = following[1]
    elif keyword == 'alphafunc' and following:
        stage.alpha_func = following[0].lower()
    elif keyword == 'tcgen' and following:
        stage.tc_gen = following[0].lower()
    elif keyword == 'rgbgen' and following:
        stage.rgb_gen = following[0].lower()
    elif keyword == 'blendfunc' and following:
        first = following[0].lower()
        if first in _SHORTHANDS:
            stage.blend = _SHORTHANDS[first]
        elif len(following) == 2:
            stage.blend = (first, following[1].lower())


def first_images(text: str) -> dict[str, str]:
    """Each shader's first image stage: ``{name (lower case): image}``."""
    return {name: shader.image for name, shader in parse(text).items()}
