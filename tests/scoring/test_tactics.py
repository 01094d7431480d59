"""The capture reading behind a protective move (:mod:`rulelab.scoring.tactics`)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scoring_reference import chain, liberties, neighbours
from test_scoring_kernels import random_position

from rulelab.board import pad, point_index
from rulelab.position import EMPTY, Position
from rulelab.scoring.tactics import DEPTH, MAX_LIBERTIES, capturable, defence_moves


def _captures(board, p, colour, ko):
    """``board`` after colour plays p (None if illegal) and the point banned next (simple ko)."""
    if board[p] != EMPTY or p == ko:
        return None
    after = board.copy()
    after[p] = colour
    taken = []
    for q in neighbours(after, p):
        if after[q] == 3 - colour and not liberties(after, chain(after, q)):
            stones = chain(after, q)
            taken += list(map(tuple, np.argwhere(stones)))
            after[stones] = EMPTY
    own = chain(after, p)
    if not liberties(after, own):
        return None
    lone = own.sum() == 1 and len(liberties(after, own)) == 1
    return after, (taken[0] if len(taken) == 1 and lone else None)


def _defences(board, t):
    """The chain's liberties and the last liberty of each opposing chain in atari beside it."""
    stones = chain(board, t)
    moves = set(liberties(board, stones))
    for s in map(tuple, np.argwhere(stones)):
        for q in neighbours(board, s):
            if board[q] == 3 - board[t] and len(lib := liberties(board, chain(board, q))) == 1:
                moves |= lib
    return sorted(moves)


def attack_reference(board, t, depth=DEPTH, ko=None):
    """The attacker to move: can it capture the chain at t? Plain recursion."""
    if board[t] == EMPTY:
        return True
    libs = liberties(board, chain(board, t))
    if len(libs) > MAX_LIBERTIES or depth == 0:
        return False
    for m in sorted(libs):
        after = _captures(board, m, 3 - board[t], ko)
        if after and not defend_reference(*after[:1], t, depth - 1, after[1]):
            return True
    return False


def defend_reference(board, t, depth, ko):
    """The defender to move: can the chain at t be kept?"""
    if board[t] == EMPTY:
        return False
    if len(liberties(board, chain(board, t))) > MAX_LIBERTIES or depth == 0:
        return True
    for m in _defences(board, t):
        after = _captures(board, m, board[t], ko)
        if after and not attack_reference(after[0], t, depth - 1, after[1]):
            return True
    return not attack_reference(board, t, depth - 1, None)


def _capturable(diagram, row, col):
    board = np.asarray(Position.from_diagram(diagram).board, np.int8)
    cols = board.shape[1]
    return bool(capturable(pad(board), cols + 2, point_index(row, col, cols), DEPTH))


def test_a_cut_inside_territory_captures_two_stones_with_two_liberties():
    # Black's cut at (1,4) leaves White (0,4) then Black (0,5), or White (1,5) then Black (0,4).
    assert _capturable('''
        . . X O . .
        . . X O . .
        . X . X O .
        . . X X O .
        . . X O O .
    ''', 0, 3)


def test_a_chain_of_two_eyes_is_safe():
    # Its two liberties are one-point eyes: Black may play neither.
    assert not _capturable('''
        . X O . O
        . X O O O
        . X O . O
    ''', 1, 2)


def test_dead_stones_beside_the_chain_take_part_in_its_capture():
    # lone_stone_among_dead_stones_is_no_ko once White protected at (3,5): Black's (3,4)
    # joins the dead stones and White's (4,5) is met by (4,4).
    assert _capturable('''
        . . X O . .
        . . X O X X
        . . X O X O
        . . X O . O
        . . X O . .
    ''', 2, 5)


def test_a_chain_of_three_liberties_is_safe():
    assert not _capturable('''
        . X O . .
        . X O . .
        . X O O O
    ''', 0, 2)


def test_the_defences_are_the_liberties_and_the_captures_in_board_order():
    board = pad(np.asarray(Position.from_diagram('''
        . X O .
        X O . O
        . X O .
    ''').board, np.int8))
    stride = 6
    out = np.empty(16, np.int64)
    n = defence_moves(board, stride, point_index(1, 1, 4), np.zeros(board.size, np.bool_), np.empty(board.size, np.int64),
                      np.empty(board.size, np.int64), out)
    assert sorted(out[:n].tolist()) == out[:n].tolist()
    assert set(out[:n].tolist()) == {point_index(1, 2, 4), point_index(0, 0, 4), point_index(2, 0, 4)}


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), size=st.integers(4, 8))
def test_the_kernel_reads_as_the_plain_recursion(seed, size):
    board, _ = random_position(size, size, int(size * size * 0.8), 0.0, seed)
    padded = pad(board)
    for r, c in zip(*np.nonzero(board)):
        if len(liberties(board, chain(board, (r, c)))) <= MAX_LIBERTIES:
            assert capturable(padded, size + 2, point_index(r, c, size), DEPTH) == attack_reference(board, (r, c)), \
                (seed, size, r, c)
    assert np.array_equal(padded, pad(board))


@pytest.mark.parametrize("depth", [1, 2])
def test_a_shallow_reading_sees_only_what_fits_in_it(depth):
    # One move captures a chain in atari; a net of two ataris needs three.
    board = np.asarray(Position.from_diagram('''
        . . X O . .
        . . X O . .
        . X . X O .
        . . X X O .
        . . X O O .
    ''').board, np.int8)
    assert not capturable(pad(board), 8, point_index(0, 3, 6), depth)
