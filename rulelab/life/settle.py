"""How far a position is from settled: the points a further move would still change.

A finished game leaves nothing to play for: every border between the colours is
closed, no live string can be captured, no ko is open, and both players passed.
Records that stop earlier are still scored (with a best guess), so the verdict says
how many points are still open rather than only yes or no.
"""

from __future__ import annotations

import numba
import numpy as np

from rulelab.board import label_components, pad, point_index
from rulelab.life.regions import label_strings
from rulelab.position import BLACK, EMPTY, WHITE, Position

MIN_OPEN_REGION = 3
"""Smallest region between both colours that can hold an open border."""


@numba.njit(cache=True)
def _open_points(board):
    """Open-border points and liberties of strings in atari (``board`` has no dead stones)."""
    rows, cols = board.shape
    stride = cols + 2
    padded = pad(board)
    empty = padded == EMPTY
    regions, n_regions = label_components(stride, empty, empty)
    touches = np.zeros(n_regions, dtype=np.int8)
    size = np.zeros(n_regions, dtype=np.int32)
    for p in range(padded.size):
        if regions[p] >= 0:
            size[regions[p]] += 1
            for d in (-stride, -1, 1, stride):
                v = padded[p + d]
                if v == BLACK or v == WHITE:
                    touches[regions[p]] |= v
    liberties = np.zeros(padded.size, dtype=np.int32)
    last_liberty = np.full(padded.size, -1, dtype=np.int32)
    for colour in (BLACK, WHITE):
        labels, n = label_strings(padded, stride, colour)
        seen = np.full(n, -1, dtype=np.int32)
        count = np.zeros(n, dtype=np.int32)
        where = np.full(n, -1, dtype=np.int32)
        for p in range(padded.size):
            if empty[p]:
                for d in (-stride, -1, 1, stride):
                    s = labels[p + d]
                    if s >= 0 and seen[s] != p:
                        seen[s] = p
                        count[s] += 1
                        where[s] = p
        for p in range(padded.size):
            s = labels[p]
            if s >= 0:
                liberties[p] = count[s]
                last_liberty[p] = where[s]
    result = np.zeros((rows, cols), dtype=np.bool_)
    for r in range(rows):
        for c in range(cols):
            p = point_index(r, c, cols)
            if empty[p] and touches[regions[p]] == 3 and size[regions[p]] >= MIN_OPEN_REGION:
                near = 0
                for d in (-stride, -1, 1, stride):
                    v = padded[p + d]
                    if v == BLACK or v == WHITE:
                        near |= v
                result[r, c] = near != 3
            elif (padded[p] == BLACK or padded[p] == WHITE) and liberties[p] == 1:
                q = last_liberty[p]
                result[q // stride - 1, q % stride - 1] = True
    return result


def unsettled_points(board: np.ndarray, dead: np.ndarray) -> np.ndarray:
    """Points where a move would still change the count, once the dead are removed.

    Two kinds: *open borders*, empty points of a region of at least
    :data:`MIN_OPEN_REGION` points that touches both colours, where the point does
    not itself touch both (a dame touches both; a gap in a wall does not), and the
    last liberty of every live string in atari (it can be captured, and a lone stone
    in atari is an open ko). A two-point gap between two walls is worth nothing to
    either side (whoever fills the far point is captured), so it counts as dame.

    Parameters
    ----------
    board : np.ndarray
        int8 ``(rows, cols)`` final board.
    dead : np.ndarray
        bool ``(rows, cols)``: the dead stones.

    Returns
    -------
    np.ndarray
        bool ``(rows, cols)``.

    Examples
    --------
    >>> from rulelab.position import board_from_diagram
    >>> board = board_from_diagram('''
    ... X . O
    ... X . O
    ... ''')
    >>> int(unsettled_points(board, np.zeros(board.shape, bool)).sum())
    0
    >>> board = board_from_diagram('''
    ... X . . . O
    ... X . . . O
    ... ''')
    >>> int(unsettled_points(board, np.zeros(board.shape, bool)).sum())
    6
    """
    return _open_points(np.where(dead, EMPTY, board).astype(np.int8))


def is_finished(position: Position, unsettled: np.ndarray) -> bool:
    """Settled: no open point, no ko pending, and the record ended by passes.

    A record that does not end with both players passing stopped before the end
    (resignation, time, or a server that does not record passes), so its position is
    not settled. When that is not known (a position from a diagram), any pass counts.
    """
    ended = position.ended_by_passes
    if ended is None:
        ended = position.passes_black + position.passes_white > 0
    return ended and position.ko_point is None and not unsettled.any()
