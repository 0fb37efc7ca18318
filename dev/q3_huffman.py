"""Write ``pyvista_quake/formats/_q3huffman.py``: the code of each byte in Quake III's fixed Huffman tree.

Quake III codes every network message (and so every demo message) with one Huffman tree that the
engine builds at start-up: an adaptive (FGK) tree fed, symbol by symbol, the byte counts of
``msg_hData`` in ``code/qcommon/msg.c``.  Building it takes a million updates, too slow for a read,
so the codes it ends with are written once into the package by this script.  The tree-building
rules (``huffman.c``: the not-yet-transmitted node, blocks of equal weight led by their highest
ranked node, the swap with the block's leader before each increment) are followed here as the
engine follows them, written over arrays of node numbers.

Run: ``python dev/q3_huffman.py dev/q3_huffman_counts.txt`` (the 256 counts of ``msg_hData``, one a line).
"""

from __future__ import annotations

from pathlib import Path
import sys

NYT = 256
NONE = -1


class Tree:
    """The adaptive tree: nodes are numbers, each field a list indexed by them."""

    def __init__(self) -> None:
        # Node 0 is the not-yet-transmitted node: the tree's root and the list's lowest rank to begin with.
        self.left, self.right, self.parent = [NONE], [NONE], [NONE]
        self.next, self.prev = [NONE], [NONE]
        self.weight, self.symbol, self.head = [0], [NYT], [NONE]
        self.cells: list[int] = []  # a block's leader, shared by the block's nodes through their head
        self.root = 0
        self.lowest = 0  # the list's head: the not-yet-transmitted node
        self.leaf: dict[int, int] = {NYT: 0}

    def node(self, symbol: int, weight: int) -> int:
        for field in (self.left, self.right, self.parent, self.next, self.prev, self.head):
            field.append(NONE)
        self.weight.append(weight)
        self.symbol.append(symbol)
        return len(self.weight) - 1

    def cell(self, leader: int) -> int:
        self.cells.append(leader)
        return len(self.cells) - 1

    def swap(self, a: int, b: int) -> None:
        """Swap two nodes' places in the tree."""
        pa, pb = self.parent[a], self.parent[b]
        if pa != NONE:
            if self.left[pa] == a:
                self.left[pa] = b
            else:
                self.right[pa] = b
        else:
            self.root = b
        if pb != NONE:
            if self.left[pb] == b:
                self.left[pb] = a
            else:
                self.right[pb] = a
        else:
            self.root = a
        self.parent[a], self.parent[b] = pb, pa

    def swap_ranks(self, a: int, b: int) -> None:
        """Swap two nodes' places in the list of ranks."""
        nxt, prv = self.next, self.prev
        nxt[a], nxt[b] = nxt[b], nxt[a]
        prv[a], prv[b] = prv[b], prv[a]
        if nxt[a] == a:
            nxt[a] = b
        if nxt[b] == b:
            nxt[b] = a
        for n in (a, b):
            if nxt[n] != NONE:
                prv[nxt[n]] = n
            if prv[n] != NONE:
                nxt[prv[n]] = n

    def increment(self, start: int) -> None:
        """Add one to a node's weight and its ancestors', keeping the sibling property."""
        path = []
        node = start
        while node != NONE:
            nxt, prv, weight = self.next, self.prev, self.weight
            if nxt[node] != NONE and weight[nxt[node]] == weight[node]:
                leader = self.cells[self.head[node]]
                if leader != self.parent[node]:
                    self.swap(leader, node)
                self.swap_ranks(leader, node)
            if prv[node] != NONE and weight[prv[node]] == weight[node]:
                self.cells[self.head[node]] = prv[node]
            else:
                self.cells[self.head[node]] = NONE
            weight[node] += 1
            if nxt[node] != NONE and weight[nxt[node]] == weight[node]:
                self.head[node] = self.head[nxt[node]]
            else:
                self.head[node] = self.cell(node)
            path.append(node)
            node = self.parent[node]
        # What follows each node's increment of its parent, from the top down.
        for node in reversed(path[:-1]):
            up = self.parent[node]
            if self.prev[node] == up:
                self.swap_ranks(node, up)
                if self.cells[self.head[node]] == node:
                    self.cells[self.head[node]] = up

    def add(self, symbol: int) -> None:
        """One more of ``symbol``: a new leaf beside the not-yet-transmitted node the first time."""
        if symbol in self.leaf:
            self.increment(self.leaf[symbol])
            return
        low = self.lowest
        inner = self.node(NYT + 1, 1)  # an internal node
        self._rank_after_lowest(inner)
        leaf = self.node(symbol, 1)
        self._rank_after_lowest(leaf)
        up = self.parent[low]
        if up != NONE:
            if self.left[up] == low:
                self.left[up] = inner
            else:
                self.right[up] = inner
        else:
            self.root = inner
        self.right[inner], self.left[inner] = leaf, low
        self.parent[inner] = up
        self.parent[low] = self.parent[leaf] = inner
        self.leaf[symbol] = leaf
        if up != NONE:
            self.increment(up)

    def _rank_after_lowest(self, node: int) -> None:
        low = self.lowest
        after = self.next[low]
        self.next[node] = after
        if after != NONE:
            self.prev[after] = node
            if self.weight[after] == 1:
                self.head[node] = self.head[after]
            else:
                self.head[node] = self.cell(node)
        else:
            self.head[node] = self.cell(node)
        self.next[low] = node
        self.prev[node] = low

    def codes(self) -> dict[int, str]:
        """Each leaf's code, the bits from the root ('1' the right child)."""
        out: dict[int, str] = {}
        stack = [(self.root, '')]
        while stack:
            node, code = stack.pop()
            if self.symbol[node] <= NYT:
                out[self.symbol[node]] = code
            else:
                stack.append((self.left[node], code + '0'))
                stack.append((self.right[node], code + '1'))
        return out


def main(counts_file: str) -> None:
    counts = [int(line) for line in Path(counts_file).read_text().split()]
    assert len(counts) == 256, len(counts)
    tree = Tree()
    for symbol, count in enumerate(counts):
        for _ in range(count):
            tree.add(symbol)
    codes = tree.codes()
    lines = [
        '"""Quake III\'s fixed Huffman code: each byte\'s bits from the root, as ``msg.c`` builds the tree from ``msg_hData``.',
        '',
        "Written by ``dev/q3_huffman.py``; ``CODES[256]`` is the tree's not-yet-transmitted leaf (never sent).",
        '"""',
        '',
        'CODES = (',
        *[f"    '{codes[s]}',  # {s}" for s in range(NYT + 1)],
        ')',
        '',
    ]
    target = Path(__file__).resolve().parent.parent / 'pyvista_quake' / 'formats' / '_q3huffman.py'
    target.write_text('\n'.join(lines))
    print(f'wrote {target}: {len(codes)} codes, longest {max(len(c) for c in codes.values())} bits')


if __name__ == '__main__':
    main(sys.argv[1])
