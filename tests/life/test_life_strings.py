"""The incremental strings of the playouts agree with the flood fills of rulelab.board."""

import numpy as np
import pytest

from rulelab.board import (
    LEGAL,
    SUICIDE_NONE,
    liberty_map,
    pad,
    play,
    unpad,
    zobrist_hash,
    zobrist_keys,
)
from rulelab.life.playout import is_true_eye, playout_counts
from rulelab.life.strings import (
    FINE,
    ILLEGAL,
    SELF_ATARI,
    build_strings,
    classify_move,
    first_liberty,
    new_strings,
    place_stone,
)
from rulelab.position import EMPTY, board_from_diagram


def liberties_by_point(board, head, libs, rows, cols):
    """Liberty count of every stone's string as the bitsets say, as a (rows, cols) map."""
    stride = cols + 2
    result = np.full((rows, cols), -1)
    for r in range(rows):
        for c in range(cols):
            p = (r + 1) * stride + c + 1
            if board[p] in (1, 2):
                result[r, c] = sum(bin(int(word)).count("1") for word in libs[head[p]])
    return result


def class_by_replay(board, stride, rows, cols, p, colour, ko):
    """What :func:`classify_move` should say, found by playing the move with the flood fills."""
    trial = board.copy()
    status, captured, _, _ = play(trial, stride, p, colour, ko, SUICIDE_NONE, np.empty(board.size, np.int32))
    if status != LEGAL:
        return ILLEGAL
    r, c = divmod(p, stride)
    own_neighbours = any(board[p + d] == colour for d in (-stride, -1, 1, stride))
    if captured == 0 and own_neighbours and liberty_map(unpad(trial, rows, cols))[r - 1, c - 1] == 1:
        return SELF_ATARI
    return FINE


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_play_keeps_liberties_counts_classes_and_hash_exact(seed):
    rows = cols = 7
    stride = cols + 2
    board = pad(np.zeros((rows, cols), np.int8))
    head, nxt, size, libs, nlibs = new_strings(board.size)
    build_strings(board, stride, head, nxt, size, libs, nlibs)
    keys = zobrist_keys(rows, cols)
    removed = np.empty(board.size, np.int32)
    rng = np.random.default_rng(seed)
    colour, ko, h, captures, self_ataris = 1, -1, zobrist_hash(board, keys), 0, 0
    for _ in range(150):
        empty = np.flatnonzero(board == EMPTY)
        classes = [classify_move(board, stride, head, libs, nlibs, p, colour, ko) for p in empty]
        assert classes == [class_by_replay(board, stride, rows, cols, p, colour, ko) for p in empty]
        self_ataris += classes.count(SELF_ATARI)
        moves = [p for p, kind in zip(empty, classes)
                 if kind == FINE and not is_true_eye(board, stride, p, colour)]
        if not moves:
            break
        ko, h, captured = place_stone(board, stride, head, nxt, size, libs, nlibs, int(rng.choice(moves)),
                                      colour, removed, keys, np.uint64(int(h) & (2**64 - 1)))
        captures += captured
        truth = liberty_map(unpad(board, rows, cols))
        counted = liberties_by_point(board, head, libs, rows, cols)
        np.testing.assert_array_equal(counted, truth)
        stones = np.flatnonzero((board == 1) | (board == 2))
        np.testing.assert_array_equal(nlibs[head[stones]], counted[counted >= 0])
        assert int(h) & (2**64 - 1) == int(zobrist_hash(board, keys))
        colour = 3 - colour
    assert captures > 0 and self_ataris > 0


def test_classify_move_spots_self_atari_and_suicide():
    board = pad(board_from_diagram("""
        . X O .
        X X O .
        O O O .
        . . . .
    """))
    stride = 6
    head, nxt, size, libs, nlibs = new_strings(board.size)
    build_strings(board, stride, head, nxt, size, libs, nlibs)
    corner = stride + 1
    assert classify_move(board, stride, head, libs, nlibs, corner, 2, -1) == FINE  # captures
    assert classify_move(board, stride, head, libs, nlibs, corner, 1, -1) == ILLEGAL  # suicide


def test_first_liberty_can_skip_one_point_in_any_word():
    libs = np.zeros((1, 3), np.uint64)
    libs[0, 1] = np.uint64(1) << np.uint64(5)  # point 69
    libs[0, 2] = np.uint64(1) << np.uint64(63)  # point 191
    assert first_liberty(libs, 0) == 69
    assert first_liberty(libs, 0, 69) == 191
    assert first_liberty(libs, 0, 191) == 69
    assert first_liberty(np.zeros((1, 3), np.uint64), 0) == -1


def test_playouts_are_deterministic_and_count_every_point():
    board = pad(board_from_diagram("""
        . X . X O . .
        X X X X O . .
        O O O O O . X
        . . . . . . .
    """))
    playable = board != 3
    first, n = playout_counts(board, 9, playable, 1, 8, 5)
    second, _ = playout_counts(board, 9, playable, 1, 8, 5)
    np.testing.assert_array_equal(first, second)
    assert n == 8
    on_board = board != 3
    owned = first[1] + first[2] + first[0]
    assert (owned[on_board] <= n).all() and first[1, 9 * 1 + 2] == n  # Black's stone at (0, 1) lives
