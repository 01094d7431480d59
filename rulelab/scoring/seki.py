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

A *double-ko seki* has no such liberty (J1989 Art. 8 commentary, Fig. 14, 连环劫双活;
Art. 7-2's 摇橹劫双活): each of two chains, one of each colour, has a one-point eye of
its own and a ko, and no other liberty.
Taking one ko leaves the other side's chain one liberty, and that side answers by taking
the other ko, whose captured stone touches its chain and so gives it back a liberty: the
board comes back with the colours' roles swapped, and neither can ever capture. Its
ko points touch one colour only, so the count would call them territory, and the
chains' eyes territory too: :func:`double_ko_seki` finds the chains and the two lone
stones the kos take, which are in seki as well.

An *eye in atari* shares no liberty either: a one-point eye whose every chain around has
no other liberty. Its owner cannot protect them (a stone there is suicide), so the
verdict's living stones can at best live in seki, and their eye is no territory (J1989
Art. 8 commentary, Figs. 13-14: only the eyes of independently living stones are):
:func:`eye_in_atari_seki` finds those chains.
"""

from __future__ import annotations

import numba
import numpy as np

from rulelab.board import label_components
from rulelab.position import BLACK, EMPTY, WHITE

from .chains import chain_forest, chain_liberties, copy_chains, is_quiet, judge, place, root, with_stone
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


@numba.njit(cache=True)
def _ko_take(b, nb, p, colour, chains):
    """The lone stone that colour, put on empty p, takes as a ko, or -1: every side of p
    is the opponent's or the edge, and just one of those chains is in atari, a lone stone
    (so the stone on p is then in atari at the stone's point)."""
    other = 3 - colour
    taken = -1
    for k in range(4):
        r = p + nb[k]
        v = b[r]
        if v == EMPTY or v == colour:
            return -1
        if v == other and chain_liberties(chains, r)[0] == 1:
            if taken >= 0:
                return -1
            taken = r
    if taken < 0:
        return -1
    for k in range(4):
        if b[taken + nb[k]] == other:
            return -1
    return taken


@numba.njit(cache=True)
def _ataried_beside(b, nb, p, colour, chains, chain, beside):
    """Whether the opposing chain with root ``chain`` touches the stone ``beside`` and
    colour on p leaves it one liberty, an eye of its own: a point whose every side is that
    chain or the edge (a liberty it shares with other chains of its colour is a way out,
    as in a ko fight in the open: kgs-dev 2003-01-13-8)."""
    other = 3 - colour
    touches = False
    for k in range(4):
        r = beside + nb[k]
        if b[r] == other and root(chains.parent, r) == chain:
            touches = True
    if not touches:
        return False
    board, board_chains = with_stone(b, nb, p, colour, chains)
    libs, eye = chain_liberties(board_chains, chain)
    if libs != 1:
        return False
    for k in range(4):
        r = eye + nb[k]
        if board[r] == EMPTY or board[r] == colour or (
                board[r] == other and root(board_chains.parent, r) != chain):
            return False
    return True


@numba.njit(cache=True)
def _ataried_touching(b, nb, p, colour, chains, beside):
    """The root of an opposing chain beside p that colour on p leaves one liberty and
    that touches the stone ``beside``, or -1."""
    for k in range(4):
        r = p + nb[k]
        if b[r] == 3 - colour:
            chain = root(chains.parent, r)
            if _ataried_beside(b, nb, p, colour, chains, chain, beside):
                return chain
    return -1


@numba.njit(cache=True)
def double_ko_seki(b, nb):
    """bool per point: the stones of double-ko sekis on padded board b (the module
    docstring): a ko Black takes at p (its lone white stone a) and one White takes at
    q (its lone black stone c), where Black on p leaves a white chain only its eye,
    the chain touching c, and White on q leaves a black chain only its eye, the chain
    touching a."""
    n = b.size
    in_seki = np.zeros(n, np.bool_)
    chains = chain_forest(b, nb)
    points = np.empty(n, np.int64)
    stones = np.empty(n, np.int64)
    movers = np.empty(n, np.int8)
    found = 0
    for p in range(n):
        if b[p] == EMPTY:
            for colour in (BLACK, WHITE):
                taken = _ko_take(b, nb, p, colour, chains)
                if taken >= 0:
                    points[found], stones[found], movers[found] = p, taken, colour
                    found += 1
    for i in range(found):
        for j in range(found):
            if movers[i] != BLACK or movers[j] != WHITE:
                continue
            white = _ataried_touching(b, nb, points[i], BLACK, chains, stones[j])
            black = _ataried_touching(b, nb, points[j], WHITE, chains, stones[i])
            if white < 0 or black < 0:
                continue
            in_seki[stones[i]] = in_seki[stones[j]] = True
            for s in range(n):
                if (b[s] == BLACK or b[s] == WHITE) and (root(chains.parent, s) == white
                                                         or root(chains.parent, s) == black):
                    in_seki[s] = True
    return in_seki


@numba.njit(cache=True)
def eye_in_atari_seki(b, nb):
    """bool per point: the stones of the chains around an eye in atari on padded board b
    (the module docstring), those of a one-point eye whose chains have no other liberty."""
    n = b.size
    chains = chain_forest(b, nb)
    seki_chain = np.zeros(n, np.bool_)  # by root
    for p in range(n):
        if b[p] != EMPTY:
            continue
        colour = EMPTY
        in_atari = True
        for k in range(4):
            v = b[p + nb[k]]
            if v == EMPTY or (v == 3 - colour and colour != EMPTY):
                in_atari = False
            elif v == BLACK or v == WHITE:
                colour = v
                in_atari &= chain_liberties(chains, p + nb[k])[0] == 1
        if in_atari and colour != EMPTY:
            for k in range(4):
                if b[p + nb[k]] == colour:
                    seki_chain[root(chains.parent, p + nb[k])] = True
    in_seki = np.zeros(n, np.bool_)
    for p in range(n):
        if (b[p] == BLACK or b[p] == WHITE) and seki_chain[root(chains.parent, p)]:
            in_seki[p] = True
    return in_seki
