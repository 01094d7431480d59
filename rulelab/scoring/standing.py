"""The captures the dead stones standing on the board call for (J1989 Art. 9 and 10-1).

The count lifts the dead stones before it fills the dame, but J1989 lifts them only
after the game ends (Art. 10-1): while the dame are filled and the protective moves made
(Art. 9-2 commentary, 收单官 and 补棋) they stand, each taking a point. Where a dead chain
stands on a point its captor needs, the captor must take it off first, by a stone on
each of its liberties, each a move inside its own territory and so owed:

- a protective stone of the filling on a point a dead stone held (a chain connects
  through it): the dead chain is captured before the connection is made;
- a living chain left, once the dame are filled, no liberty but the points the dead stones
  beside it hold: the dead chain beside it with the fewest liberties is captured.

Under area rules these stones cost nothing (a move inside one's own area changes no
count), so only the owed points of territory rules see them.
"""

from __future__ import annotations

import numba
import numpy as np

from rulelab.board import WALL, label_components
from rulelab.position import BLACK, EMPTY, WHITE

from .chains import chain_forest, chain_liberties, root


@numba.njit(cache=True)
def _dead_chains(filled, nb, dead_colour, owner):
    """The dead chains as they stood (label per point, -1 elsewhere), and per chain its
    liberties still empty on the filled board inside its captor's territory."""
    black = dead_colour == BLACK
    label, blacks = label_components(nb[1], black, black)
    white = dead_colour == WHITE
    white_label, whites = label_components(nb[1], white, white)
    label = np.where(white, white_label + blacks, label)  # one colour's chains, then the other's
    count = blacks + whites
    liberties = np.zeros(count, np.int64)
    counted = np.full(filled.size, -1, np.int64)  # the last chain each point was counted for
    for p in range(filled.size):
        chain = label[p]
        if chain < 0:
            continue
        for k in range(4):
            q = p + nb[k]
            if (filled[q] == EMPTY and dead_colour[q] == EMPTY and owner[q] == 3 - dead_colour[p]
                    and counted[q] != chain):
                counted[q] = chain
                liberties[chain] += 1
    return label, liberties


@numba.njit(cache=True)
def _owe_capture(filled, nb, dead_colour, owner, label, chain, owed):
    """Mark owed, by the captor, the liberties of the dead chain ``chain``."""
    for p in range(filled.size):
        if label[p] == chain:
            captor = 3 - dead_colour[p]
            for k in range(4):
                q = p + nb[k]
                if filled[q] == EMPTY and dead_colour[q] == EMPTY and owner[q] == captor:
                    owed[q] = captor


@numba.njit(cache=True)
def short_as_it_stands(b, nb, dead_colour):
    """Per stone of b, whether its chain has fewer than two liberties with the dead
    stones standing (their points walled off: neither liberties nor chain stones)."""
    standing = np.where(dead_colour != EMPTY, np.int8(WALL), b)
    chains = chain_forest(standing, nb)
    short = np.zeros(b.size, np.bool_)
    for p in range(b.size):
        if b[p] == BLACK or b[p] == WHITE:
            short[p] = chain_liberties(chains, p)[0] < 2
    return short


@numba.njit(cache=True)
def owe_standing_captures(filled, nb, dead_colour, owner, owed, chains, short):
    """Mark owed the liberties of the dead chains that must be captured before the end
    (module docstring), on the board filled into ``filled``, whose chains are given. A
    chain already short of liberties on the board as it stands (``short``,
    :func:`short_as_it_stands`) is left to the verdict (:mod:`.confirm`): it is the
    filling that must not take its room."""
    n = filled.size
    label, liberties = _dead_chains(filled, nb, dead_colour, owner)
    captured = np.zeros(liberties.size, np.bool_)
    for p in range(n):
        if label[p] >= 0 and filled[p] == 3 - dead_colour[p]:
            captured[label[p]] = True  # a protective stone stands where it stood
    # Per living chain (by root): whether it keeps a liberty with the dead stones standing,
    # and the dead chain beside it with the fewest liberties.
    free = np.zeros(n, np.bool_)
    beside = np.full(n, -1, np.int64)
    was_short = np.zeros(n, np.bool_)
    for p in range(n):
        colour = filled[p]
        if colour != BLACK and colour != WHITE:
            continue
        chain = root(chains.parent, p)
        was_short[chain] |= short[p]
        for k in range(4):
            q = p + nb[k]
            if filled[q] != EMPTY:
                continue
            if dead_colour[q] == 3 - colour:
                if beside[chain] < 0 or liberties[label[q]] < liberties[beside[chain]]:
                    beside[chain] = label[q]
            else:
                free[chain] = True
    for p in range(n):
        if (filled[p] == BLACK or filled[p] == WHITE) and root(chains.parent, p) == p:
            if not free[p] and beside[p] >= 0 and not was_short[p]:
                captured[beside[p]] = True
    for chain in range(liberties.size):
        if captured[chain]:
            _owe_capture(filled, nb, dead_colour, owner, label, chain, owed)
