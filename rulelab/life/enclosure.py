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

import numpy as np
from scipy import ndimage

from rulelab.position import BLACK, EMPTY, WHITE

UNDECIDED = (0.2, 0.8)
"""Survival shares the playouts could not decide."""
SAFE = 0.9
"""Survival share from which a stone counts as a safe wall."""
SEKI_SHARE = 0.25
"""Neutral share from which an empty point is taken for a seki liberty."""
LARGEST_SMALL_EYE = 4
"""Eyes of more points may still hold two eyes: the rule stands back."""

_FOUR = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]])


def _components_touching_only(labels: np.ndarray, n: int, allowed: np.ndarray) -> np.ndarray:
    """bool per component (index 1..n): all its 4-neighbours outside it are ``allowed``."""
    ok = np.ones(n + 1, dtype=bool)
    padded = np.pad(labels, 1)
    free = np.pad(allowed, 1, constant_values=True)
    inner = (slice(1, -1), slice(1, -1))
    for shift in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        neighbour = np.roll(padded, shift, axis=(0, 1))[inner]
        neighbour_free = np.roll(free, shift, axis=(0, 1))[inner]
        crossing = (labels > 0) & (neighbour != labels) & ~neighbour_free
        ok[np.unique(labels[crossing])] = False
    return ok


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
    verdicts = np.zeros(board.shape, dtype=np.int8)
    share = np.nan_to_num(survival, nan=0.0)
    stones = board != EMPTY
    undecided = stones & (share > UNDECIDED[0]) & (share < UNDECIDED[1])
    if not undecided.any():
        return verdicts
    safe = stones & (share >= SAFE)
    seki_points = (board == EMPTY) & (neutral >= SEKI_SHARE)
    for colour in (BLACK, WHITE):
        shut_in = board == 3 - colour
        areas, _ = ndimage.label(~(safe & (board == colour)), _FOUR)
        for area in np.unique(areas[undecided]):
            inside = areas == area
            if area == 0 or not (inside & shut_in).any() or (inside & shut_in & safe).any():
                continue
            if (inside & seki_points).any():
                continue
            eyes, n_eyes = ndimage.label(inside & ~shut_in, _FOUR)
            real = _components_touching_only(eyes, n_eyes, shut_in)[1:]
            sizes = np.bincount(eyes.ravel(), minlength=n_eyes + 1)[1:]
            if real.sum() >= 2 or (sizes[real] > LARGEST_SMALL_EYE).any():
                continue
            verdicts[inside & undecided & shut_in] = 1
            verdicts[inside & undecided & ~shut_in] = -1
    return verdicts
