"""Quake III ``.skin`` files: which image each surface of a model shows (``R_RegisterSkin``).

One ``surface,image`` a line; ``tag_…,`` lines name the model's tags and no image.
"""

from __future__ import annotations


def parse(text: str) -> dict[str, str]:
    """A ``.skin`` file's surface → image lines, as ``R_RegisterSkin`` reads them.

    Surface names lower case; tag lines (``tag_head,``) and lines naming no
    image are left out; the first line of a surface counts.
    """
    out: dict[str, str] = {}
    for line in text.replace('\r', '\n').split('\n'):
        surface, comma, image = line.strip().partition(',')
        surface, image = surface.strip().lower(), image.strip()
        if not comma or not surface or not image or 'tag_' in surface:
            continue
        out.setdefault(surface, image)
    return out


def write(images: dict[str, str]) -> str:
    """The text of a ``.skin`` file giving each surface its image (what :func:`parse` reads back)."""
    return ''.join(f'{surface},{image}\n' for surface, image in images.items())
