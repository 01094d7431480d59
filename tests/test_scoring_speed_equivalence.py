"""The board analysis counts liberties incrementally; these tests pin that it still
classifies every point exactly as the flood-fill analysis did.

Boards come from random legal play (``rulelab.board.play``) with random dead masks,
so they hold long chains, chains in atari and wide dame, as mid-game records do.
"""

import hashlib

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rulelab.board import NO_POINT, SUICIDE_NONE, pad, play, point_index, scratch
from rulelab.position import BLACK, EMPTY, WHITE
from rulelab.scoring import (
    OWED_B,
    OWED_W,
    SEKI_POINT_B,
    SEKI_POINT_W,
    STONE_B,
    STONE_W,
    TERRITORY_B,
    TERRITORY_W,
    _analyse_board,
    _chain_forest,
    _judge,
    _judge_counted,
)

# Digest of the analyses of _BOARDS, taken from the flood-fill analysis; taken again
# when the rules changed (a fill leaving live stones in atari on their eye makes no
# dame; a fill possible only after a protective connection owes that connection).
_REFERENCE_DIGEST = "ffe987e1c0e08094090f6fde0f2f402bf90ba687ef1c3220fb6676e1ffb538ab"


def random_position(rows: int, cols: int, moves: int, dead_rate: float, seed: int):
    """A board after ``moves`` random legal move attempts, and a random dead mask."""
    rng = np.random.default_rng(seed)
    board = pad(np.zeros((rows, cols), np.int8))
    stones = scratch(board)
    colour = BLACK
    for _ in range(moves):
        p = point_index(int(rng.integers(rows)), int(rng.integers(cols)), cols)
        if board[p] == EMPTY:
            play(board, cols + 2, p, colour, NO_POINT, SUICIDE_NONE, stones)
        colour = 3 - colour
    plain = np.array([board[point_index(r, 0, cols):point_index(r, 0, cols) + cols]
                      for r in range(rows)], np.int8)
    dead = (rng.random((rows, cols)) < dead_rate) & (plain != EMPTY)
    return plain, dead


def _boards():
    """Sizes 5..19 at densities from the opening to a filled board, fixed seeds."""
    out = []
    for seed in range(120):
        rows, cols = 5 + seed % 15, 5 + (seed * 7) % 15
        moves = int(rows * cols * (0.3 + 0.1 * (seed % 10)))
        out.append(random_position(rows, cols, moves, (seed % 4) * 0.05, seed))
    return out


_BOARDS = _boards()


def _digest(boards) -> str:
    h = hashlib.sha256()
    for board, dead in boards:
        for remove_dead in (True, False):
            classes, numbers = _analyse_board(board, dead, remove_dead)
            h.update(classes.tobytes())
            h.update(numbers.astype(np.int64).tobytes())
    return h.hexdigest()


def test_analyses_match_the_flood_fill_reference():
    assert _digest(_BOARDS) == _REFERENCE_DIGEST


def test_fills_judge_some_boards_of_the_reference_set():
    # The reference set exercises what the digest pins: owed points and seki on some board.
    seen = set()
    for board, dead in _BOARDS:
        for remove_dead in (True, False):
            seen.update(np.unique(_analyse_board(board, dead, remove_dead)[0]).tolist())
    assert {OWED_B, OWED_W, SEKI_POINT_B, SEKI_POINT_W, TERRITORY_B, TERRITORY_W} <= seen


_SWAP_CLASSES = np.arange(10, dtype=np.int8)
for a, b in ((STONE_B, STONE_W), (TERRITORY_B, TERRITORY_W), (SEKI_POINT_B, SEKI_POINT_W),
             (OWED_B, OWED_W)):
    _SWAP_CLASSES[a], _SWAP_CLASSES[b] = b, a


@settings(max_examples=60, deadline=None)
@given(
    st.integers(5, 19), st.integers(5, 19), st.floats(0.2, 1.3), st.floats(0.0, 0.2),
    st.integers(0, 2**32 - 1), st.booleans(),
)
def test_analysis_is_symmetric_in_the_colours(rows, cols, density, dead_rate, seed, remove):
    # Both colours are favoured once each, so swapping them swaps every class.
    board, dead = random_position(rows, cols, int(rows * cols * density), dead_rate, seed)
    swapped = np.where(board == EMPTY, EMPTY, 3 - board).astype(np.int8)
    classes, numbers = _analyse_board(board, dead, remove)
    classes_swapped, numbers_swapped = _analyse_board(swapped, dead, remove)
    assert np.array_equal(_SWAP_CLASSES[classes], classes_swapped)
    expected = numbers.copy()
    expected[_SWAP_CLASSES] = numbers[:10]  # class counts
    for i in (10, 12, 14):  # dead, dead in seki, tax: black then white
        expected[i], expected[i + 1] = numbers[i + 1], numbers[i]
    assert np.array_equal(expected, numbers_swapped)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(5, 19), st.integers(5, 19), st.floats(0.2, 1.3), st.integers(0, 2**32 - 1),
)
def test_counted_judgement_matches_the_flood(rows, cols, density, seed):
    board, _ = random_position(rows, cols, int(rows * cols * density), 0.0, seed)
    b = pad(board)
    stride = cols + 2
    nb = np.array([-stride, stride, -1, 1], np.int64)
    chains = _chain_forest(b, nb)
    seen, libmark = np.zeros(b.size, np.int64), np.zeros(b.size, np.int64)
    stack, clock = np.empty(b.size, np.int32), np.zeros(1, np.int64)
    for p in np.flatnonzero(b == EMPTY):
        for colour in (BLACK, WHITE):
            own, liberty, captured, ataris, escape = _judge_counted(b, nb, p, colour, chains)
            b[p] = colour
            assert (own, captured, ataris, escape) == _judge(b, nb, p, seen, libmark, stack, clock)
            b[p] = EMPTY
            assert (liberty >= 0) == (own == 1)
