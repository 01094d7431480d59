"""Stones the playouts cannot decide, judged by the area they stand in.

A capturing race inside the opponent's area is a coin toss for random play, yet the
players' verdict is plain: stones shut in by safe opponent stones, with at most one
small eye between them, are dead, and the owner's weak stones in that area are
alive, whoever would win the local race. The rule only speaks of stones the playouts
could not decide (survival between :data:`UNDECIDED` bounds), and is silent where
the playouts saw a seki or where the shut-in side has two eyes or a large one.

The rule is right about most such stones, not all: a shut-in group that wins its
race against weak walls lives. So it is not a verdict but one of the things the
second look (:mod:`rulelab.life.undecided`) weighs.
"""

from __future__ import annotations

import numba
import numpy as np

from rulelab.board import WALL, label_components, pad, unpad
from rulelab.position import BLACK, EMPTY, WHITE

UNDECIDED = (0.2, 0.8)
"""Survival shares the playouts could not decide."""
SAFE = 0.9
"""Survival share from which a stone counts as a safe wall."""
SEKI_SHARE = 0.25
"""Neutral share from which an empty point is taken for a seki liberty."""
LARGEST_SMALL_EYE = 4
"""Eyes of more points may still hold two eyes: the rule stands back."""


def enclosure_verdicts(board: np.ndarray, survival: np.ndarray, neutral: np.ndarray) -> np.ndarray:
    """What the area rule says of the undecided stones: int8 ``(rows, cols)``, 1 on
    stones shut in by safe opponent stones with at most one small eye (dead), -1 on the
    owner's undecided stones in that area (alive), 0 elsewhere.

    Parameters
    ----------
    board : np.ndarray
        int8 ``(rows, cols)`` final board.
    survival : np.ndarray
        float ``(rows, cols)``: share of playouts each stone kept its point (NaN on
        empty points).
    neutral : np.ndarray
        float ``(rows, cols)``: share of playouts ending with the point a seki liberty
        (read on empty points only).
    """
    rows, cols = board.shape
    return unpad(_verdicts(pad(board), cols + 2, _padded(survival), _padded(neutral)), rows, cols)


def _padded(values: np.ndarray) -> np.ndarray:
    """Flat ``values`` with a border of zeros, as the padded board lays out its points."""
    out = np.zeros((values.shape[0] + 2, values.shape[1] + 2))
    out[1:-1, 1:-1] = values
    return out.ravel()


@numba.njit(cache=True)
def _verdicts(padded, stride, share, neutral):
    """:func:`enclosure_verdicts` on the padded board, compiled: it labels every area
    and every eye once, where a labelling per area cost more than the playouts of an
    open board. A NaN share (an empty point) fails every comparison, as it should."""
    verdicts = np.zeros(padded.size, dtype=np.int8)
    stones = (padded == BLACK) | (padded == WHITE)
    undecided = stones & (share > UNDECIDED[0]) & (share < UNDECIDED[1])
    if not undecided.any():
        return verdicts
    safe = stones & (share >= SAFE)
    seki_point = (padded == EMPTY) & (neutral >= SEKI_SHARE)
    for colour in (BLACK, WHITE):
        shut_in = padded == 3 - colour
        areas, n_areas = label_components(stride, (padded != WALL) & ~(safe & (padded == colour)), undecided)
        holds_shut_in = np.zeros(n_areas, dtype=np.bool_)
        stands_back = np.zeros(n_areas, dtype=np.bool_)  # a safe shut-in stone or a seki liberty
        for p in range(padded.size):
            a = areas[p]
            if a >= 0:
                holds_shut_in[a] |= shut_in[p]
                stands_back[a] |= (shut_in[p] and safe[p]) or seki_point[p]
        in_eye = (areas >= 0) & ~shut_in
        eyes, n_eyes = label_components(stride, in_eye, in_eye)
        real = np.ones(n_eyes, dtype=np.bool_)  # touching only shut-in stones and the edge
        size = np.zeros(n_eyes, dtype=np.int32)
        area_of = np.zeros(n_eyes, dtype=np.int32)
        for p in range(padded.size):
            e = eyes[p]
            if e >= 0:
                size[e] += 1
                area_of[e] = areas[p]
                for d in (-stride, -1, 1, stride):
                    q = p + d
                    if eyes[q] != e and padded[q] != WALL and not shut_in[q]:
                        real[e] = False
        real_eyes = np.zeros(n_areas, dtype=np.int32)
        for e in range(n_eyes):
            if real[e]:
                real_eyes[area_of[e]] += 1
                if size[e] > LARGEST_SMALL_EYE:
                    stands_back[area_of[e]] = True
        for p in range(padded.size):
            a = areas[p]
            if a >= 0 and undecided[p] and holds_shut_in[a] and not stands_back[a] and real_eyes[a] < 2:
                verdicts[p] = 1 if shut_in[p] else -1
    return verdicts
