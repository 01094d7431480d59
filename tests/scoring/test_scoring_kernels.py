"""The scoring kernels against the plain reference of ``tests/scoring_reference.py``.

Boards come from random legal play (``rulelab.board.play``) with random dead masks,
so they hold long chains, chains in atari and wide dame, as mid-game records do; the
corpus test takes the final positions of KGS games with the verdicts the pipeline
gives them. A mismatch names the board, the points and both classes.
"""

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scoring_reference import classify as reference_classify

from rulelab.board import NO_POINT, SUICIDE_NONE, pad, play, point_index, scratch, unpad
from rulelab.life import decide_life
from rulelab.position import BLACK, EMPTY, board_to_diagram
from rulelab.scoring import (
    CLASS_NAMES,
    OWED_B,
    OWED_W,
    SEKI_DAME,
    SEKI_POINT_B,
    SEKI_POINT_W,
    STONE_B,
    STONE_W,
    TERRITORY_B,
    TERRITORY_W,
)
from rulelab.scoring.classify import classify_board

NUMBERS = (*CLASS_NAMES, "dead_black", "dead_white", "dead_in_seki_black", "dead_in_seki_white",
           "tax_black", "tax_white", "seki_pairs", "seki_odd", "group_seki_territory_b", "group_seki_territory_w",
           "group_seki_owed_b", "group_seki_owed_w", "group_seki_dead_black", "group_seki_dead_white",
           "standing_owed_b", "standing_owed_w")


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
    plain = unpad(board, rows, cols)
    dead = (rng.random((rows, cols)) < dead_rate) & (plain != EMPTY)
    return plain, dead


def seeded_boards(count: int, smallest: int, largest: int):
    """Sizes from smallest to largest, square and not, at densities from the opening to a
    filled board, some with dead stones."""
    span = largest - smallest + 1
    for seed in range(count):
        rows, cols = smallest + seed % span, smallest + (seed * 7) % span
        moves = int(rows * cols * (0.3 + 0.1 * (seed % 10)))
        yield random_position(rows, cols, moves, (seed % 4) * 0.05, seed)


def assert_kernel_matches_reference(board, dead, remove_dead):
    classes, numbers, _ = classify_board(board, dead, remove_dead)
    expected_classes, expected_numbers = reference_classify(board, dead, remove_dead)
    where = f"remove_dead={remove_dead}, dead at {np.argwhere(dead).tolist()}\n{board_to_diagram(board)}"
    wrong = [f"{tuple(p.tolist())}: {CLASS_NAMES[classes[tuple(p)]]}, reference "
             f"{CLASS_NAMES[expected_classes[tuple(p)]]}" for p in np.argwhere(classes != expected_classes)]
    assert not wrong, f"{wrong} on\n{where}"
    differ = [f"{name}: {got} != {want}" for name, got, want in zip(NUMBERS, numbers, expected_numbers)
              if got != want]
    assert not differ, f"{differ} on\n{where}"


@pytest.mark.parametrize("board, dead", list(seeded_boards(48, 2, 11)))
def test_small_boards_match_the_reference(board, dead):
    for remove_dead in (True, False):
        assert_kernel_matches_reference(board, dead, remove_dead)


@pytest.mark.slow
@pytest.mark.parametrize("board, dead", list(seeded_boards(40, 5, 19)))
def test_boards_up_to_19_match_the_reference(board, dead):
    for remove_dead in (True, False):
        assert_kernel_matches_reference(board, dead, remove_dead)


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 9), st.integers(2, 9), st.floats(0.2, 1.5), st.floats(0.0, 0.3),
       st.integers(0, 2**32 - 1), st.booleans())
def test_generated_boards_match_the_reference(rows, cols, density, dead_rate, seed, remove_dead):
    board, dead = random_position(rows, cols, int(rows * cols * density), dead_rate, seed)
    assert_kernel_matches_reference(board, dead, remove_dead)


def test_the_seeded_boards_reach_every_rule_the_reference_states():
    # The comparison says something about owed points and seki only if boards have them.
    seen = set()
    for board, dead in seeded_boards(48, 2, 11):
        for remove_dead in (True, False):
            seen.update(np.unique(classify_board(board, dead, remove_dead)[0]).tolist())
    assert {OWED_B, OWED_W, SEKI_POINT_B, SEKI_POINT_W, SEKI_DAME, TERRITORY_B, TERRITORY_W} <= seen


@pytest.mark.slow
@pytest.mark.corpus
def test_kgs_final_positions_match_the_reference(corpora):
    from kgs_marked import counted_positions_with_markup

    positions = counted_positions_with_markup(corpora / "kgs-dev.tar.xz")
    for _, (_, position) in zip(range(12), positions):
        dead = decide_life(position).dead
        for remove_dead in (True, False):
            assert_kernel_matches_reference(position.board, dead, remove_dead)


_SWAP_CLASSES = np.arange(len(CLASS_NAMES), dtype=np.int8)
for a, b in ((STONE_B, STONE_W), (TERRITORY_B, TERRITORY_W), (SEKI_POINT_B, SEKI_POINT_W),
             (OWED_B, OWED_W)):
    _SWAP_CLASSES[a], _SWAP_CLASSES[b] = b, a


@settings(max_examples=60, deadline=None)
@given(st.integers(5, 19), st.integers(5, 19), st.floats(0.2, 1.3), st.floats(0.0, 0.2),
       st.integers(0, 2**32 - 1), st.booleans())
@example(16, 9, 1.21875, 0.0, 442613616, False)  # a whole-group seki eye of Black's: its count swaps too
@example(13, 19, 1.03125, 0.0625, 1989, True)  # and with a dead stone on it
def test_analysis_is_symmetric_in_the_colours(rows, cols, density, dead_rate, seed, remove):
    # Both colours are favoured once each, so swapping them swaps every class.
    board, dead = random_position(rows, cols, int(rows * cols * density), dead_rate, seed)
    swapped = np.where(board == EMPTY, EMPTY, 3 - board).astype(np.int8)
    classes, numbers, seki = classify_board(board, dead, remove)
    classes_swapped, numbers_swapped, seki_swapped = classify_board(swapped, dead, remove)
    assert np.array_equal(seki, seki_swapped)
    assert np.array_equal(_SWAP_CLASSES[classes], classes_swapped)
    n = len(CLASS_NAMES)
    expected = numbers.copy()
    expected[_SWAP_CLASSES] = numbers[:n]  # class counts
    # dead, dead in seki, tax, the whole-group seki's territory, owed and dead, and the points
    # owed for standing dead stones: black then white
    for i in (n, n + 2, n + 4, n + 8, n + 10, n + 12, n + 14):
        expected[i], expected[i + 1] = numbers[i + 1], numbers[i]
    assert np.array_equal(expected, numbers_swapped)
