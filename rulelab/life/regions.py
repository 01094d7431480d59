"""Strings and the areas between them, labelled on padded boards.

Every life-and-death layer starts from the same two labellings (the strings of a
colour, and the maximal areas a colour does not occupy), so they live here once, on
:func:`rulelab.board.label_components`.
"""

from __future__ import annotations

import numba

from rulelab.board import label_components
from rulelab.position import EMPTY


@numba.njit(cache=True)
def label_strings(padded, stride, colour):
    """Label the strings of ``colour``: ``(labels, n)`` as in
    :func:`rulelab.board.label_components`."""
    stones = padded == colour
    return label_components(stride, stones, stones)


@numba.njit(cache=True)
def label_areas(padded, stride, colour):
    """Label the maximal areas ``colour`` does not occupy that hold an empty point.

    These are Benson's "regions": empty points and opponent stones, bounded only by
    ``colour`` and the edge. An opponent string with no empty point in its area has
    no liberty and cannot stand on a legal board, so it is left unlabelled.
    """
    member = (padded == EMPTY) | (padded == 3 - colour)
    return label_components(stride, member, padded == EMPTY)
