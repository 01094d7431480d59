"""Seki as the count sees it (J1989 Art. 8): liberties neither side can ever fill.

A neutral point left empty on both filled boards is a *seki liberty* when neither
colour can ever fill it: playing there captures nothing and leaves the player's
chain with one liberty, even after it connects at that liberty when it lies in its
own territory, or leaves opposing chains in atari on an eye of theirs that gives no
escape, not even by a second protective move as the dame fill makes them
(:mod:`.dame`; the verdict keeps them alive, and a dame fill cannot kill them: kgs-dev
2017-02-13-1; chains whose last liberty is a dame are stones the players left on the
board, 2017-03-13-3). It is tested with the dead stones put back as well, so a seki
held by a dead stone in an eye is seen. Chains touching a seki liberty are in seki.
"""

from __future__ import annotations

import numba
import numpy as np

from rulelab.board import label_components
from rulelab.position import BLACK, EMPTY, WHITE

from .chains import copy_chains, is_quiet, judge, place, root, with_stone
from .dame import UNSAFE, escapes


@numba.njit(cache=True)
def _is_seki_liberty(b, nb, p, owner, chains):
    """Whether neither colour can ever fill empty p (see the module docstring)."""
    for colour in (BLACK, WHITE):
        own, last, captured, ataris, escape = judge(b, nb, p, colour, chains)
        fillable = captured > 0 or own >= 2
        if own == 1 and captured == 0 and owner[last] == colour:
            board, board_chains = with_stone(b, nb, p, colour, chains)
            fillable = is_quiet(board, nb, last, colour, board_chains)
        if fillable and captured == 0 and ataris > 0 and escape >= 0 and owner[escape] == 3 - colour:
            fillable = escapes(b, nb, p, colour, escape, owner, chains) != UNSAFE
        if fillable:
            return False
    return True


@numba.njit(cache=True)
def _put_back(filled, nb, dead_colour, chains):
    """The filled board with the dead stones put back where it is empty, its chains,
    and whether any stone was put back (if none, the given board and chains)."""
    restored = (dead_colour != EMPTY) & (filled == EMPTY)
    if not restored.any():
        return filled, chains, False
    board = filled.copy()
    board_chains = copy_chains(chains)
    for p in np.flatnonzero(restored):
        place(board, nb, p, dead_colour[p], board_chains)
    return board, board_chains, True


@numba.njit(cache=True)
def seki_of(filled, nb, dame, owner, dead_colour, chains):
    """The seki liberties among the dame left empty on a filled board (whose chains
    are given), and the stones of the chains touching one (in seki)."""
    n = filled.size
    # A seki may be visible only with its dead stones on the board (a dead stone in
    # an eye of a seki group): test each liberty both ways, when any is put back.
    with_dead, dead_chains, restored = filled, chains, False  # put back when first needed
    put_back = False
    seki_liberty = np.zeros(n, np.bool_)
    seki_chain = np.zeros(n, np.bool_)  # by root
    for p in dame:
        if filled[p] != EMPTY:
            continue
        seki = _is_seki_liberty(filled, nb, p, owner, chains)
        if not seki and dead_colour[p] == EMPTY:
            if not put_back:
                with_dead, dead_chains, restored = _put_back(filled, nb, dead_colour, chains)
                put_back = True
            seki = restored and _is_seki_liberty(with_dead, nb, p, owner, dead_chains)
        if seki:
            seki_liberty[p] = True
            for k in range(4):
                r = p + nb[k]
                if filled[r] == BLACK or filled[r] == WHITE:
                    seki_chain[root(chains.parent, r)] = True
    in_seki = np.zeros(n, np.bool_)
    if seki_liberty.any():
        for p in range(n):
            if (filled[p] == BLACK or filled[p] == WHITE) and seki_chain[root(chains.parent, p)]:
                in_seki[p] = True
    return seki_liberty, in_seki


@numba.njit(cache=True)
def seki_shares(in_seki, seki_liberty, nb):
    """Seki liberties split equally in whole points within each seki (its chains and
    their shared liberties): what each side gets, and what is left over."""
    shares = np.zeros(2, np.int64)
    if not seki_liberty.any():
        return shares
    seki, count = label_components(nb[1], in_seki | seki_liberty, in_seki | seki_liberty)
    liberties = np.zeros(count, np.int64)
    for p in range(in_seki.size):
        if seki_liberty[p]:
            liberties[seki[p]] += 1
    shares[0] = (liberties // 2).sum()
    shares[1] = (liberties % 2).sum()
    return shares
