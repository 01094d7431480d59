"""The exact search's board hashes, kept move by move (rulelab.life.reading.attacker_wins)."""

import numpy as np
import pytest

from rulelab.board import NO_POINT, SUICIDE_NONE, empty_board, play, point_index, zobrist_hash, zobrist_keys
from rulelab.gamegen import random_legal_game


@pytest.mark.parametrize("seed", range(4))
def test_a_hash_kept_move_by_move_is_the_hash_of_the_board(seed):
    """The search updates a board's Zobrist hash by the stone a move puts and the stones
    ``play`` says it took: through random games with captures, that is the board's hash."""
    board, buffer, ko = empty_board(9, 9), np.empty(121, np.int32), NO_POINT
    keys = zobrist_keys(9, 9)
    kept = zobrist_hash(board, keys)
    captures = 0
    for _, colour, r, c in random_legal_game(9, 9, 300, seed=seed, end_with_passes=False):
        if r < 0:
            ko = NO_POINT
            continue
        p = point_index(r, c, 9)
        _, captured, _, ko = play(board, 11, p, colour, ko, SUICIDE_NONE, buffer)
        kept ^= keys[colour, p]
        for q in buffer[:captured]:
            kept ^= keys[3 - colour, q]
        captures += captured
        assert kept == zobrist_hash(board, keys)
    assert captures > 0
