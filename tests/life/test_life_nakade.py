"""The playouts' answer to a capture that opens a space with a vital point (nakade): the
side whose stones were taken plays the point that touches more of the space than any
other, and nothing when the space has no such point or is not shut."""

import numpy as np
import pytest

from rulelab.board import NO_POINT, pad
from rulelab.life.playout import _vital_point
from rulelab.position import BLACK, WHITE, board_from_diagram


def vital_point(diagram, quarter_turns=0):
    """The vital point Black's capture of the ``c`` points of ``diagram`` leaves for White,
    as ``(row, col)`` of the board turned ``quarter_turns`` times; None for none."""
    marks = np.array([row.split() for row in diagram.strip().splitlines()])
    board = board_from_diagram(diagram.replace("c", "."))
    marks, board = np.rot90(marks, quarter_turns), np.rot90(board, quarter_turns)
    stride = board.shape[1] + 2
    padded = pad(np.ascontiguousarray(board))
    removed = np.zeros(padded.size, dtype=np.int32)
    captured = [(r + 1) * stride + c + 1 for r, c in np.argwhere(marks == "c")]
    removed[:len(captured)] = captured
    point = _vital_point(padded, stride, removed, len(captured), WHITE)
    return None if point == NO_POINT else (point // stride - 1, point % stride - 1)


def turned_point(point, shape, quarter_turns):
    """Where ``point`` of a board of ``shape`` goes when the board turns a quarter
    ``quarter_turns`` times (as :func:`numpy.rot90`)."""
    r, c = point
    rows, cols = shape
    for _ in range(quarter_turns):
        r, c, rows, cols = cols - 1 - c, r, cols, rows
    return r, c


BENT_THREE = """
    c c X .
    c X X .
    X X . .
    . . . .
"""


@pytest.mark.parametrize("quarter_turns", range(4))
def test_the_middle_of_a_bent_three_is_the_vital_point(quarter_turns):
    assert vital_point(BENT_THREE, quarter_turns) == turned_point((0, 0), (4, 4), quarter_turns)


def test_the_space_takes_in_the_empty_points_the_capture_joins():
    assert vital_point(BENT_THREE.replace("c X X", ". X X", 1)) == (0, 0)


@pytest.mark.parametrize("diagram, point", [
    ("""
    X c c c X
    . X c X .
    . . X . .
    """, (0, 2)),  # pyramid four
    ("""
    X c c X .
    c c c X .
    X X X . .
    """, (1, 1)),  # bulky five
])
def test_pyramid_four_and_bulky_five_have_their_centre(diagram, point):
    assert vital_point(diagram) == point


@pytest.mark.parametrize("diagram", [
    """
    X c c c c X
    . X X X X .
    """,  # straight four: two points share the most neighbours, and it lives
    """
    c c X .
    c c X .
    X X . .
    """,  # square four: no point stands out
    """
    c c X .
    c O X .
    X X . .
    """,  # a stone of the side that was taken is still next to the space
    """
    c c c c X
    c . . X .
    X X X . .
    """,  # seven points
    """
    c X .
    X . .
    """,  # one point
])
def test_no_vital_point(diagram):
    assert vital_point(diagram) is None
