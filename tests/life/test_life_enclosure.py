"""The area rule the second look weighs: undecided stones walled in by safe opponent stones."""

import numpy as np

from rulelab.life.enclosure import enclosure_verdicts
from rulelab.position import EMPTY, board_from_diagram

WALLED = board_from_diagram("""
. . . . . . .
. O O O O O .
. O X X . O .
. O X O X O .
. O O O O O .
. . . . . . .
""")
"""Black's four stones are shut in by White's wall with no eye of their own; White's
stone among them is White's."""


def survival_of(board, undecided):
    """Survival shares: ``undecided`` stones kept in half the playouts, the rest in all."""
    return np.where(board == EMPTY, np.nan, np.where(undecided, 0.5, 1.0))


def test_shut_in_stones_are_dead_and_the_owners_stones_among_them_alive():
    inside = np.zeros(WALLED.shape, dtype=bool)
    inside[2:4, 2:5] = True
    verdicts = enclosure_verdicts(WALLED, survival_of(WALLED, inside & (WALLED != EMPTY)), np.zeros(WALLED.shape))
    assert (verdicts[inside & (WALLED == 1)] == 1).all()
    assert verdicts[3, 3] == -1
    assert (verdicts[~inside] == 0).all()


def test_a_seki_liberty_or_a_decided_board_leaves_it_silent():
    inside = np.zeros(WALLED.shape, dtype=bool)
    inside[2:4, 2:5] = True
    survival = survival_of(WALLED, inside & (WALLED != EMPTY))
    seki = np.zeros(WALLED.shape)
    seki[2, 4] = 0.5
    assert not enclosure_verdicts(WALLED, survival, seki).any()
    assert not enclosure_verdicts(WALLED, survival_of(WALLED, False), np.zeros(WALLED.shape)).any()
