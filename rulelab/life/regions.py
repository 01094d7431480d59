"""Connected components on padded boards: strings and the areas between them.

Every life-and-death layer starts from the same two labellings (the strings of a
colour, and the maximal areas a colour does not occupy), so they live here once,
compiled, on the padded boards of :mod:`rulelab.board`.
"""

from __future__ import annotations

import numba
import numpy as np

from rulelab.board import WALL
from rulelab.position import EMPTY


@numba.njit(cache=True)
def label_components(padded, stride, member, seed):
    """Label the 4-connected components of the points where ``member`` is true.

    Parameters
    ----------
    padded : np.ndarray
        Padded int8 board (only its walls are read, to stay on the board).
    stride : int
        ``cols + 2``.
    member : np.ndarray
        bool per padded point: which points belong to some component.
    seed : np.ndarray
        bool per padded point: a component is labelled only if it holds a seed point.

    Returns
    -------
    tuple
        ``(labels, n)``: int32 label per point (``-1`` outside every labelled
        component) and the number of components, numbered in row-major order of
        their first seed point.
    """
    labels = np.full(padded.size, -1, dtype=np.int32)
    queue = np.empty(padded.size, dtype=np.int32)
    n = 0
    for start in range(padded.size):
        if not seed[start] or not member[start] or labels[start] >= 0 or padded[start] == WALL:
            continue
        labels[start] = n
        queue[0] = start
        head, tail = 0, 1
        while head < tail:
            p = queue[head]
            head += 1
            for d in (-stride, -1, 1, stride):
                q = p + d
                if member[q] and labels[q] < 0 and padded[q] != WALL:
                    labels[q] = n
                    queue[tail] = q
                    tail += 1
        n += 1
    return labels, n


@numba.njit(cache=True)
def label_strings(padded, stride, colour):
    """Label the strings of ``colour``: ``(labels, n)`` as in :func:`label_components`."""
    stones = padded == colour
    return label_components(padded, stride, stones, stones)


@numba.njit(cache=True)
def label_areas(padded, stride, colour):
    """Label the maximal areas ``colour`` does not occupy that hold an empty point.

    These are Benson's "regions": empty points and opponent stones, bounded only by
    ``colour`` and the edge. An opponent string with no empty point in its area has
    no liberty and cannot stand on a legal board, so it is left unlabelled.
    """
    member = (padded == EMPTY) | (padded == 3 - colour)
    return label_components(padded, stride, member, padded == EMPTY)
