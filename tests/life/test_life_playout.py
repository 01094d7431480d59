"""Properties of the random playouts that every correct kernel has.

Groups with two eyes and groups in seki survive every playout, a string in atari that
cannot escape is captured in every playout, stones Benson's proof calls pass-alive are
never captured when the playouts keep off what the proof settles (as the estimator's
do), the counts are a function of the seed, and a string the last move left short of
liberties answers it.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import ndimage

from rulelab.board import NO_POINT, WALL, pad
from rulelab.gamegen import random_legal_game
from rulelab.life.benson import pass_alive
from rulelab.life.estimate import proof
from rulelab.life.playout import SEKI_ROW, _urgent_move, playout_counts
from rulelab.position import BLACK, EMPTY, WHITE, Position
from rulelab.read.replay import replay

from playout_state import playout_state
from positions import named_positions

LIFE = named_positions("life")

PLAYOUTS = 24
CROSS = ndimage.generate_binary_structure(2, 1)


def counts_of(board, to_move=BLACK, seed=1, n=PLAYOUTS, playable=None):
    """Per-point counts of ``n`` playouts over the ``playable`` points (default: the whole
    board), unpadded: ``(counts, n)``."""
    rows, cols = board.shape
    padded = pad(board.astype(np.int8))
    where = padded != WALL if playable is None else pad(playable.astype(np.int8)).astype(bool)
    counts, done = playout_counts(padded, cols + 2, where, to_move, n, seed)
    inside = counts.reshape(4, rows + 2, cols + 2)[:, 1:-1, 1:-1]
    return inside, done


def generated_board(rows, cols, n_moves, seed):
    """The board a random legal game of ``n_moves`` leaves (no closing passes)."""
    events = random_legal_game(rows, cols, n_moves, seed, end_with_passes=False)
    return replay(rows, cols, events).position.board


def variants(board, colour):
    """The board under the eight symmetries of the square, as it is and with the colours
    swapped, each with what ``colour`` became."""
    for k in range(4):
        for turned in (np.rot90(board, k), np.rot90(board, k).T):
            yield turned, colour
            yield np.where(turned == EMPTY, EMPTY, 3 - turned), 3 - colour


def owned_in_every_playout(counts, n, board, stones):
    """Whether every stone of the mask stayed its colour's in each of the n playouts."""
    rows, cols = np.nonzero(stones)
    return bool((counts[board[stones], rows, cols] == n).all())


TWO_EYES = Position.from_diagram("""
    . X . X O . . .
    X X X X O . . .
    O O O O O . . .
    . . . . . . . .
    . . . . . . . .
""").board

NO_ESCAPE = Position.from_diagram("""
    O . X . X . .
    X X X X X . .
    . . . . . . .
    . . . . . . .
""").board  # O in atari at (0, 0): extending to (0, 1) leaves it no liberty


@pytest.mark.parametrize("to_move", [BLACK, WHITE])
@pytest.mark.parametrize("board, colour", list(variants(TWO_EYES, BLACK)))
def test_a_group_with_two_eyes_survives_every_playout(board, colour, to_move):
    # Its only chain of that colour, walled in by the other colour's open group.
    counts, n = counts_of(board, to_move)
    assert owned_in_every_playout(counts, n, board, board == colour)


@pytest.mark.parametrize("diagram", [LIFE[name].diagram for name in ("seki_without_eyes", "seki_with_one_eye_each")])
@pytest.mark.parametrize("to_move", [BLACK, WHITE])
def test_a_seki_survives_every_playout_and_its_shared_liberties_stay_empty(diagram, to_move):
    board = Position.from_diagram(diagram).board
    counts, n = counts_of(board, to_move, n=64)
    stones = board != EMPTY
    assert owned_in_every_playout(counts, n, board, stones), "a stone was captured"
    shared = counts[0] == n
    assert shared.any() and (counts[0][~shared] == 0).all()
    beside_shared = ndimage.binary_dilation(shared, CROSS) & stones
    assert (counts[SEKI_ROW][beside_shared] == n).all()


@pytest.mark.parametrize("to_move", [BLACK, WHITE])
@pytest.mark.parametrize("board, capturer", list(variants(NO_ESCAPE, BLACK)))
def test_a_string_in_atari_without_escape_is_captured_in_every_playout(board, capturer, to_move):
    counts, n = counts_of(board, to_move)
    victim = 3 - capturer
    (at,) = np.argwhere(board == victim)
    assert counts[victim][tuple(at)] == 0
    assert counts[capturer][tuple(at)] == n


@settings(max_examples=25, deadline=None)
@given(st.integers(5, 13), st.integers(5, 13), st.floats(0.5, 1.6), st.integers(0, 2**31 - 1),
       st.sampled_from([BLACK, WHITE]))
def test_pass_alive_stones_are_never_captured_off_the_points_the_proof_settles(rows, cols, density, seed, to_move):
    # Benson's proof holds while the owner never fills a vital region of its own, which
    # random play does not promise (a diagonal stone in atari makes an eye look false):
    # the estimator keeps the playouts off what the proof settles, and so does this test.
    board = generated_board(rows, cols, int(rows * cols * density), seed)
    alive = pass_alive(board, suicide_legal=True).alive & (board != EMPTY)
    _, _, settled = proof(board)
    counts, n = counts_of(board, to_move, seed, playable=~settled)
    assert owned_in_every_playout(counts, n, board, alive)


@settings(max_examples=20, deadline=None)
@given(st.integers(3, 13), st.integers(3, 13), st.floats(0.2, 1.2), st.integers(0, 2**31 - 1))
def test_the_counts_are_a_function_of_the_seed_and_each_point_has_one_owner(rows, cols, density, seed):
    board = generated_board(rows, cols, int(rows * cols * density), seed)
    first, n = counts_of(board, BLACK, seed)
    again, m = counts_of(board, BLACK, seed)
    assert n == m == PLAYOUTS and np.array_equal(first, again)
    assert (first[0] + first[BLACK] + first[WHITE] <= n).all()
    assert (first[SEKI_ROW] <= first[BLACK] + first[WHITE]).all()  # stones beside a shared liberty


def test_other_seeds_draw_other_playouts():
    board = generated_board(9, 9, 40, 3)
    draws = {counts_of(board, BLACK, seed)[0].tobytes() for seed in range(4)}
    assert len(draws) > 1


def test_the_early_stop_comes_at_a_check_and_only_when_every_stone_is_clear():
    board = generated_board(9, 9, 200, 5)
    padded = pad(board)
    counts, n = playout_counts(padded, 11, padded != WALL, BLACK, 64, 3, 8, 0.25)
    assert n % 8 == 0 and n <= 64
    stones = (padded == BLACK) | (padded == WHITE)
    share = counts[padded[stones], np.flatnonzero(stones)] / n
    assert n == 64 or (np.abs(share - 0.5) >= 0.25).all()



TWO_LIBERTIES = Position.from_diagram("""
    . . . . . . .
    . . . O O . .
    . . O X . O .
    . . . . . . .
    . . . . . . .
""").board  # White has just played left of X, whose liberties are a dead end and below


def urgent_reply(board, last, colour):
    """The move the playouts answer the opponent's move at ``last`` with, both as
    ``(row, col)`` of the unpadded board; None when they answer nothing at once."""
    padded, stride, head, nxt, libs, nlibs, slot = playout_state(board)
    move = _urgent_move(padded, stride, head, nxt, libs, nlibs, slot, (last[0] + 1) * stride + last[1] + 1,
                        colour, NO_POINT)
    return None if move == NO_POINT else (move // stride - 1, move % stride - 1)


@pytest.mark.parametrize("swap", [False, True])
@pytest.mark.parametrize("transpose", [False, True])
@pytest.mark.parametrize("quarter_turns", range(4))
def test_a_string_left_with_two_liberties_extends_where_it_gains_liberties(quarter_turns, transpose, swap):
    def turned(a):
        a = np.rot90(a, quarter_turns)
        return a.T if transpose else a
    board, colour = turned(TWO_LIBERTIES), BLACK
    if swap:
        board, colour = np.where(board == EMPTY, EMPTY, 3 - board), WHITE
    marks = np.zeros(TWO_LIBERTIES.shape, dtype=int)
    marks[2, 2], marks[3, 3], marks[2, 5] = 1, 2, 3  # the last move, the escape, a stone apart
    marks = turned(marks)
    last, escape, apart = (tuple(np.argwhere(marks == k)[0]) for k in (1, 2, 3))
    assert urgent_reply(board, last, colour) == escape
    assert urgent_reply(board, apart, colour) is None
