"""Eye against no eye next to a seki: when the eye wins the race, and when it does not."""

import pytest

from rulelab.life import estimate_life
from rulelab.position import BLACK, WHITE, Life, Position, board_from_diagram
from rulelab.scoring import classify_points

from positions import named_positions

# Black surrounds three white stones in the corner; both sides' only liberties are
# inside. White's two liberties are shared; Black also has the eye on the left edge.

LIFE = named_positions("life")
"""The named positions of ``data/positions/life.txt``."""

INNER_WHITE = [(0, 1), (1, 1), (1, 2)]


def scorer_seki(diagram, estimate):
    """The stones in seki as the scorer finds them under the estimate's dead stones."""
    return classify_points(Position.from_diagram(diagram), Life(dead=estimate.dead, method="estimate")).seki


@pytest.mark.parametrize("to_move", [BLACK, WHITE])
def test_eye_of_one_string_beats_no_eye(to_move):
    board = board_from_diagram(LIFE["eye_of_one_string_wins"].diagram)
    estimate = estimate_life(board, to_move)
    assert all(estimate.dead[p] for p in INNER_WHITE)
    assert not scorer_seki(LIFE["eye_of_one_string_wins"].diagram, estimate).any()


@pytest.mark.parametrize("to_move", [BLACK, WHITE])
def test_eye_shared_by_two_strings_leaves_seki(to_move):
    board = board_from_diagram(LIFE["eye_between_two_strings_is_seki"].diagram)
    estimate = estimate_life(board, to_move)
    assert not estimate.dead.any()
    seki = scorer_seki(LIFE["eye_between_two_strings_is_seki"].diagram, estimate)
    assert all(seki[p] for p in INNER_WHITE)
    assert seki[1, 0] and seki[2, 1]
    outer_white = board == WHITE
    for p in INNER_WHITE:
        outer_white[p] = False
    assert not (seki & outer_white).any()
