"""The shapes the playouts answer: a table that knows each shape in every orientation and
colouring, and a move picker that plays only what the table holds, next to the last move."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulelab.board import NO_POINT, WALL, pad
from rulelab.gamegen import random_legal_game
from rulelab.life.playout import FINE, _around, _shape_move, is_true_eye
from rulelab.life.shapes import NEIGHBOURS, SHAPE_TABLE, shape_table
from rulelab.life.strings import classify_move
from rulelab.position import BLACK, EMPTY, WHITE, Position
from rulelab.read.replay import replay

from playout_state import playout_state

CODES = np.arange(1 << 16)
CELLS = np.stack([(CODES >> (2 * i)) & 3 for i in range(8)], axis=1)


def grids_of(cells):
    """3×3 neighbourhoods (centre empty) of rows of eight cell values."""
    grids = np.zeros((len(cells), 3, 3), dtype=np.int64)
    for i, (r, c) in enumerate(NEIGHBOURS):
        grids[:, r, c] = cells[:, i]
    return grids


def codes_of(grids):
    return sum(grids[:, r, c] << (2 * i) for i, (r, c) in enumerate(NEIGHBOURS))


def code_of(diagram):
    """The code of a 3×3 diagram (``X`` Black, ``O`` White, ``#`` off the board)."""
    values = {".": EMPTY, "X": BLACK, "O": WHITE, "#": WALL}
    grid = np.array([[values[c] for c in row.split()] for row in diagram.strip().splitlines()])
    return int(codes_of(grid[None])[0])


def test_the_table_is_the_same_in_every_orientation_and_colouring():
    grids = grids_of(CELLS)
    for k in range(4):
        for turned in (np.rot90(grids, k, axes=(1, 2)), np.rot90(grids, k, axes=(1, 2)).transpose(0, 2, 1)):
            np.testing.assert_array_equal(SHAPE_TABLE[codes_of(turned)], SHAPE_TABLE)
            swapped = np.where((turned == BLACK) | (turned == WHITE), 3 - turned, turned)
            np.testing.assert_array_equal(SHAPE_TABLE[codes_of(swapped)], SHAPE_TABLE)


@pytest.mark.parametrize("diagram, expected", [
    ("X O .\nO . .\n. . .", True),     # a cut nothing protects
    ("X O X\n. . .\n. . .", True),     # a hane enclosing a stone
    ("X . .\nO . .\n# # #", True),     # a chase along the edge
    ("X O .\nO . O\n. O .", False),    # the cut is protected
    (". . .\n. . .\n. . .", False),    # nothing to answer
    ("X X X\nX . X\nX X X", False),    # one's own eye
])
def test_the_table_knows_the_shapes(diagram, expected):
    assert bool(SHAPE_TABLE[code_of(diagram)]) is expected
    assert shape_table()[code_of(diagram)] == SHAPE_TABLE[code_of(diagram)]


def shape_reply(board, last, colour, random=0):
    """What :func:`_shape_move` answers to the move at ``last`` (a padded index)."""
    padded, stride, head, _, libs, nlibs, slot = playout_state(board)
    move = _shape_move(padded, stride, head, libs, nlibs, slot, last, colour, NO_POINT, np.uint64(random),
                       SHAPE_TABLE)
    return move, padded, (head, libs, nlibs)


def test_a_cut_is_among_the_answers():
    board = Position.from_diagram("""
        . . . . . . .
        . . . . . . .
        . . X O . . .
        . . O . . . .
        . . . . . . .
        . . . . . . .
    """).board
    stride = board.shape[1] + 2
    last, cut = 3 * stride + 4, 4 * stride + 4  # the O right of X, and the point below it
    answers = {shape_reply(board, last, BLACK, random)[0] for random in range(8)}
    assert cut in answers
    assert answers <= {last + _around(stride, i) for i in range(8)}


@settings(max_examples=40, deadline=None)
@given(st.integers(5, 11), st.integers(5, 11), st.integers(0, 2**31 - 1), st.integers(0, 2**63 - 1))
def test_the_answer_is_a_fine_shape_point_next_to_the_last_move_or_none_is(rows, cols, seed, random):
    events = random_legal_game(rows, cols, rows * cols // 2, seed, end_with_passes=False)
    board = replay(rows, cols, events).position.board
    stones = np.flatnonzero(pad(board.astype(np.int8)) == BLACK)
    if not stones.size:
        return
    last = int(stones[seed % stones.size])
    move, padded, (head, libs, nlibs) = shape_reply(board, last, WHITE, random)
    stride = cols + 2

    def answers(p):
        if padded[p] != EMPTY:
            return False
        code = sum(int(padded[p + _around(stride, i)]) << (2 * i) for i in range(8))
        return (SHAPE_TABLE[code] and not is_true_eye(padded, stride, p, WHITE)
                and classify_move(padded, stride, head, libs, nlibs, p, WHITE, NO_POINT) == FINE)

    candidates = [last + _around(stride, i) for i in range(8)]
    if move == NO_POINT:
        assert not any(answers(p) for p in candidates)
    else:
        assert move in candidates and answers(move)
