"""The playouts give exactly the counts they gave before their kernel was made faster.

The digests were taken from the previous kernel (a linear-time liberty count per
question, no inlining): any change to the moves a playout picks, to the order in
which it draws random numbers or to the tally shows up here.
"""

import hashlib

import numpy as np
import pytest

from rulelab.board import pad
from rulelab.gamegen import random_legal_game
from rulelab.life.benson import pass_alive
from rulelab.life.playout import playout_counts
from rulelab.read.replay import replay


def generated_board(rows, cols, n_moves, seed):
    """The board a random legal game of ``n_moves`` leaves (no closing passes)."""
    events = random_legal_game(rows, cols, n_moves, seed, end_with_passes=False)
    return replay(rows, cols, events).position.board


def open_to_playouts(board):
    """Points Benson's proof leaves open, as :mod:`rulelab.life.estimate` builds them."""
    proof = pass_alive(board, suicide_legal=True)
    dead = (board != 0) & (proof.territory == 3 - board)
    return ~(proof.alive | dead | (proof.territory != 0))


@pytest.mark.parametrize("rows, cols, n_moves, seed, digests", [
    (9, 9, 70, 1, ("badcb34ed2153a4f", "96213fd6cd815b48")),
    (13, 7, 60, 2, ("951860682d54fa6f", "3feec7c40c618c0d")),
    (19, 19, 250, 3, ("37ba8677f3fdb5cf", "8cb3bce987d7225c")),
])
def test_playout_counts_are_unchanged(rows, cols, n_moves, seed, digests):
    board = generated_board(rows, cols, n_moves, seed)
    padded = pad(board)
    whole, whole_n = playout_counts(padded, cols + 2, padded != 3, 1, 16, 7)
    open_points = pad(open_to_playouts(board).astype(np.int8)).astype(bool)
    early, early_n = playout_counts(padded, cols + 2, open_points, 2, 64, 11, 32, 0.25)
    assert (whole_n, early_n) == (16, 64)
    assert (hashlib.sha256(whole.tobytes()).hexdigest()[:16],
            hashlib.sha256(early.tobytes()).hexdigest()[:16]) == digests


def test_playout_counts_stop_early_as_before_when_every_stone_is_clear():
    board = generated_board(9, 9, 200, 5)
    padded = pad(board)
    counts, n = playout_counts(padded, 11, padded != 3, 1, 64, 3, 32, 0.25)
    assert n == 32
    assert hashlib.sha256(counts.tobytes()).hexdigest()[:16] == "63ab0e0495547f28"
