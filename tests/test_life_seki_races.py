"""Eye against no eye next to a seki: when the eye wins the race, and when it does not."""

import pytest

from rulelab.life import estimate_life
from rulelab.position import BLACK, WHITE, Life, Position, board_from_diagram
from rulelab.scoring import analyse

# Black surrounds three white stones in the corner; both sides' only liberties are
# inside. White's two liberties are shared; Black also has the eye on the left edge.

EYE_OF_ONE_STRING_WINS = """
. O . X X X O . .
X O O X X O O . .
X X X X X O . . .
. X X O O O O . .
X X X X X O . . .
O O O O O O . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""
"""Black is one string: filling a shared liberty leaves it the eye and the other
shared point, so White is captured and is dead now."""

EYE_BETWEEN_TWO_STRINGS_IS_SEKI = """
. O . X X X O . .
X O O X X O O . .
. X X X X O . . .
X X X O O O O . .
X X X X X O . . .
O O O O O O . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""
"""The eye at the left edge sits between two black strings: filling either shared
liberty puts a black string in atari, and White captures it from the eye. Nobody can
move, so it is seki (the shape of a 2017 KGS record whose players called White dead
on a board they had not finished)."""

INNER_WHITE = [(0, 1), (1, 1), (1, 2)]


def scorer_seki(diagram, estimate):
    """The stones in seki as the scorer finds them under the estimate's dead stones."""
    return analyse(Position.from_diagram(diagram), Life(dead=estimate.dead, method="estimate")).seki


@pytest.mark.parametrize("to_move", [BLACK, WHITE])
def test_eye_of_one_string_beats_no_eye(to_move):
    board = board_from_diagram(EYE_OF_ONE_STRING_WINS)
    estimate = estimate_life(board, to_move)
    assert all(estimate.dead[p] for p in INNER_WHITE)
    assert not scorer_seki(EYE_OF_ONE_STRING_WINS, estimate).any()


@pytest.mark.parametrize("to_move", [BLACK, WHITE])
def test_eye_shared_by_two_strings_leaves_seki(to_move):
    board = board_from_diagram(EYE_BETWEEN_TWO_STRINGS_IS_SEKI)
    estimate = estimate_life(board, to_move)
    assert not estimate.dead.any()
    seki = scorer_seki(EYE_BETWEEN_TWO_STRINGS_IS_SEKI, estimate)
    assert all(seki[p] for p in INNER_WHITE)
    assert seki[1, 0] and seki[2, 1]
    outer_white = board == WHITE
    for p in INNER_WHITE:
        outer_white[p] = False
    assert not (seki & outer_white).any()
