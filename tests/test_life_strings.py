"""The incremental strings of the playouts agree with the flood fills of rulelab.board."""

import numpy as np
import pytest

from rulelab.board import liberty_map, pad, unpad, zobrist_hash, zobrist_keys
from rulelab.life.playout import is_true_eye, playout_counts
from rulelab.life.strings import FINE, build_strings, classify_move, new_strings, place_stone
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


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_play_keeps_liberties_and_hash_exact(seed):
    rows = cols = 7
    stride = cols + 2
    board = pad(np.zeros((rows, cols), np.int8))
    head, nxt, size, libs = new_strings(board.size)
    build_strings(board, stride, head, nxt, size, libs)
    keys = zobrist_keys(rows, cols)
    removed = np.empty(board.size, np.int32)
    scratch = np.zeros((1, libs.shape[1]), np.uint64)
    rng = np.random.default_rng(seed)
    colour, ko, h, captures = 1, -1, zobrist_hash(board, keys), 0
    for _ in range(150):
        moves = [p for p in np.flatnonzero(board == EMPTY)
                 if not is_true_eye(board, stride, p, colour)
                 and classify_move(board, stride, head, size, libs, p, colour, ko, scratch) == FINE]
        if not moves:
            break
        ko, h, captured = place_stone(board, stride, head, nxt, size, libs, int(rng.choice(moves)),
                                      colour, removed, keys, np.uint64(int(h) & (2**64 - 1)))
        captures += captured
        plain = unpad(board, rows, cols)
        truth = liberty_map(plain)
        np.testing.assert_array_equal(liberties_by_point(board, head, libs, rows, cols), truth)
        assert int(h) & (2**64 - 1) == int(zobrist_hash(board, keys))
        colour = 3 - colour
    assert captures > 0


def test_classify_move_spots_self_atari_and_suicide():
    board = pad(board_from_diagram("""
        . X O .
        X X O .
        O O O .
        . . . .
    """))
    stride = 6
    head, nxt, size, libs = new_strings(board.size)
    build_strings(board, stride, head, nxt, size, libs)
    scratch = np.zeros((1, libs.shape[1]), np.uint64)
    corner = stride + 1
    assert classify_move(board, stride, head, size, libs, corner, 2, -1, scratch) == FINE  # captures
    assert classify_move(board, stride, head, size, libs, corner, 1, -1, scratch) == 0  # suicide


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
