"""Random legal games as event arrays, for property tests and benchmarks.

The games are uniformly random among legal moves (simple ko, no suicide) that do not
fill a point surrounded by the mover's own stones, so they end like real games: with
the board full of living groups, their eyes and captured debris. Generated in compiled
code from a seed: the same arguments give the same game on every machine.
"""

from __future__ import annotations

import numba
import numpy as np

from rulelab.board import (
    LEGAL,
    NO_POINT,
    SUICIDE_NONE,
    check_board_size,
    empty_board,
    is_simple_eye,
    legality,
    play,
    point_index,
    splitmix64,
)
from rulelab.errors import GameError
from rulelab.position import BLACK, EMPTY
from rulelab.read.sgf.events import MOVE, PASS


@numba.njit(cache=True)
def _random_game(rows, cols, n_moves, seed, end_with_passes):
    """Black and White alternate random moves; a side with none passes."""
    stride = cols + 2
    board = empty_board(rows, cols)
    stones = np.empty(board.size, dtype=np.int32)
    candidates = np.empty(rows * cols, dtype=np.int32)
    events = np.empty((n_moves + 2, 4), dtype=np.int16)
    state = np.uint64(seed)
    colour, ko, n, passes_in_row = BLACK, NO_POINT, 0, 0
    while passes_in_row < 2 and (n < n_moves or end_with_passes):
        m = 0
        if n < n_moves:
            for r in range(rows):
                for c in range(cols):
                    p = point_index(r, c, cols)
                    if (board[p] == EMPTY and not is_simple_eye(board, stride, p, colour)
                            and legality(board, stride, p, colour, ko, SUICIDE_NONE, stones) == LEGAL):
                        candidates[m] = p
                        m += 1
        if m == 0:
            events[n, 0], events[n, 1], events[n, 2], events[n, 3] = MOVE, colour, PASS, PASS
            ko = NO_POINT
            passes_in_row += 1
        else:
            state, x = splitmix64(state)
            p = candidates[int(x % np.uint64(m))]
            ko = play(board, stride, p, colour, ko, SUICIDE_NONE, stones)[3]
            events[n, 0], events[n, 1] = MOVE, colour
            events[n, 2], events[n, 3] = p // stride - 1, p % stride - 1
            passes_in_row = 0
        n += 1
        colour = 3 - colour
    return events[:n].copy()


def random_legal_game(rows: int, cols: int, n_moves: int, seed: int, *,
                      end_with_passes: bool = True) -> np.ndarray:
    """A random legal game as an events array, deterministic in ``seed``.

    Parameters
    ----------
    rows, cols : int
        Board size, each 1..52.
    n_moves : int
        Moves to generate at most (passes included); fewer when both sides run out
        of moves, which ends the game with two passes.
    seed : int
        Any non-negative integer below 2**64.
    end_with_passes : bool
        Append passes until the game ends with two consecutive passes.

    Returns
    -------
    np.ndarray
        int16 ``(n, 4)`` events (kind ``MOVE``, colour, row, col), Black first,
        colours alternating, legal under simple ko with suicide forbidden.

    Examples
    --------
    >>> events = random_legal_game(9, 9, 60, seed=1)
    >>> events.shape[1], events[-2:, 2].tolist()
    (4, [-1, -1])
    >>> bool((events == random_legal_game(9, 9, 60, seed=1)).all())
    True
    """
    check_board_size(rows, cols)
    if not (isinstance(n_moves, (int, np.integer)) and n_moves >= 0
            and isinstance(seed, (int, np.integer)) and 0 <= seed < 2**64):
        raise GameError(f"need an integer n_moves >= 0 and 0 <= seed < 2**64; got {n_moves!r}, {seed!r}")
    return _random_game(rows, cols, int(n_moves), np.uint64(seed), bool(end_with_passes))
