"""The exact search's board keys, kept move by move (rulelab.life.reading)."""

import numpy as np
import pytest

from rulelab.board import NO_POINT, SUICIDE_NONE, empty_board, play, point_index
from rulelab.gamegen import random_legal_game
from rulelab.life.reading import _board_key, _stone_key


@pytest.mark.parametrize("seed", range(4))
def test_a_key_kept_move_by_move_is_the_key_of_the_board(seed):
    """The search updates a board's key by the stone a move puts and the stones it takes:
    through random games with captures, that key is the key read from the whole board."""
    board, buffer, ko = empty_board(9, 9), np.empty(121, np.int32), NO_POINT
    key = _board_key(board)
    captures = 0
    for _, colour, r, c in random_legal_game(9, 9, 300, seed=seed, end_with_passes=False):
        if r < 0:
            ko = NO_POINT
            continue
        p = point_index(r, c, 9)
        _, captured, _, ko = play(board, 11, p, colour, ko, SUICIDE_NONE, buffer)
        key ^= _stone_key(p, colour)
        for q in buffer[:captured]:
            key ^= _stone_key(q, 3 - colour)
        captures += captured
        assert key == _board_key(board)
    assert captures > 0
