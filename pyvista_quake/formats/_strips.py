"""Triangle strips and fans for an MD2's OpenGL command list.

Quake II's ``qdata`` covers a model with strips and fans greedily: from each
triangle not yet used it tries a strip and a fan starting at each of the
triangle's corners and keeps the longest.  This does the same.  A corner is
a (vertex, texture coordinate) pair, so a command never crosses a texture
seam.  It is a walk over triangles (not vertices), run once per model.
"""

from __future__ import annotations

import numpy as np


def strips_and_fans(corners: np.ndarray) -> list[tuple[str, list[int]]]:
    """Cover triangles with strips and fans, each triangle exactly once.

    Parameters
    ----------
    corners : numpy.ndarray
        ``(triangles, 3)`` corner keys (equal keys are the same GL vertex),
        in the file's winding order.

    Returns
    -------
    list of (str, list of int)
        ``('strip' | 'fan', triangle-corner positions)``: each entry of the
        list is a flat corner position ``3 * triangle + k`` naming the corner
        the GL vertex is taken from.  Strips and fans keep the triangles' winding.

    """
    keys = np.asarray(corners).tolist()
    # Directed edge -> triangles holding it, each with its corner positions.
    edges: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for t, (a, b, c) in enumerate(keys):
        for k, (u, v) in enumerate(((a, b), (b, c), (c, a))):
            edges.setdefault((u, v), []).append((t, k))
    used = [False] * len(keys)

    def next_triangle(u: int, v: int, taken: set[int]) -> tuple[int, int] | None:
        """An unused triangle holding the directed edge u -> v, and its third corner."""
        for t, k in edges.get((u, v), ()):
            if not used[t] and t not in taken:
                return t, (k + 2) % 3
        return None

    def grow(t: int, start: int, kind: str) -> tuple[list[int], list[int]]:
        order = [3 * t + (start + i) % 3 for i in range(3)]
        taken = [t]
        seen = {t}
        chain = [keys[t][(start + i) % 3] for i in range(3)]
        while True:
            if kind == 'strip':
                p, q = chain[-2], chain[-1]
                # Odd triangles of a strip run backwards (GL's rule).
                found = next_triangle(q, p, seen) if len(taken) % 2 else next_triangle(p, q, seen)
            else:
                found = next_triangle(chain[0], chain[-1], seen)
            if found is None:
                return order, taken
            t2, k2 = found
            taken.append(t2)
            seen.add(t2)
            order.append(3 * t2 + k2)
            chain.append(keys[t2][k2])

    commands: list[tuple[str, list[int]]] = []
    for t in range(len(keys)):
        if used[t]:
            continue
        best = None
        for kind in ('strip', 'fan'):
            for start in range(3):
                order, taken = grow(t, start, kind)
                if best is None or len(taken) > len(best[2]):
                    best = (kind, order, taken)
        assert best is not None  # three starts of two kinds: always one
        kind, order, taken = best
        for t2 in taken:
            used[t2] = True
        commands.append((kind, order))
    return commands
