"""Local shapes the playouts answer: hane, cuts and edge blocks around the last move.

Uniform random play neither blocks a hane nor cuts where a cut is obvious, so a group
with room to live, or a wall with a cutting point, survives or dies at random. The
3×3 shapes of MoGo's playouts (Gelly, Wang, Munos and Teytaud, *Modification of UCT
with Patterns in Monte-Carlo Go*, 2006), as written out in Petr Baudiš's Michi, name
the empty points next to the last move where a strong player would answer; the
playouts play one of them before falling back to a random move.

In the diagrams the centre is the move; ``X`` and ``O`` are stones of either colour
(the table holds both colourings), ``.`` is empty, ``x`` anything but an ``O`` stone,
``o`` anything but an ``X`` stone, ``#`` off the board and ``?`` anything. Every
shape holds under the eight symmetries of the square.
"""

from __future__ import annotations

from itertools import product

import numpy as np

from rulelab.board import WALL
from rulelab.position import BLACK, EMPTY, WHITE

SHAPES = (
    ("XOX", "...", "???"),  # hane enclosing a stone
    ("XO.", "...", "?.?"),  # hane that cuts nothing
    ("XO?", "X..", "o.?"),  # magari
    (".O.", "X..", "..."),  # attachment diagonal to one's own stone
    ("XO?", "O.x", "?x?"),  # cut that nothing protects
    ("XO?", "O.X", "???"),  # cut after a peep
    ("?X?", "O.O", "xxx"),  # cut through a one-point jump
    ("OX?", "x.O", "???"),  # cut through a knight's move
    ("X.?", "O.?", "###"),  # chase along the edge
    ("OX?", "X.O", "###"),  # block a cut along the edge
    ("?X?", "o.O", "###"),  # block a connection along the edge
    ("?XO", "o.o", "###"),  # sagari
    ("?OX", "X.O", "###"),  # cut along the edge
)
NEIGHBOURS = ((0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2))
"""Cells of a 3×3 diagram around its centre, in the order of the code's bits."""
ALLOWED = {"X": (BLACK,), "O": (WHITE,), ".": (EMPTY,), "#": (WALL,), "x": (EMPTY, BLACK, WALL),
           "o": (EMPTY, WHITE, WALL), "?": (EMPTY, BLACK, WHITE, WALL)}
"""What each symbol of a diagram stands for, with ``X`` as Black."""


def _variants(shape: tuple[str, ...]) -> list[np.ndarray]:
    """The shape under the eight symmetries, in both colourings."""
    grid = np.array([list(row) for row in shape])
    turned = [np.rot90(grid, k) for k in range(4)]
    mirrored = turned + [g.T for g in turned]
    swap = str.maketrans("XOxo", "OXox")
    return mirrored + [np.vectorize(lambda c: c.translate(swap))(g) for g in mirrored]


def shape_table() -> np.ndarray:
    """bool per 16-bit neighbourhood code (cell ``i`` of :data:`NEIGHBOURS` in bits
    ``2i`` and ``2i + 1``): whether an empty centre so surrounded completes one of
    :data:`SHAPES`."""
    table = np.zeros(1 << 16, dtype=np.bool_)
    for shape in SHAPES:
        for grid in _variants(shape):
            for cells in product(*(ALLOWED[grid[r, c]] for r, c in NEIGHBOURS)):
                table[sum(v << (2 * i) for i, v in enumerate(cells))] = True
    return table


SHAPE_TABLE = shape_table()
"""The table of :func:`shape_table`, built once (65,536 entries, milliseconds)."""
