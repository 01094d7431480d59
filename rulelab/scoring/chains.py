"""The chains of a board that only ever gains stones, with their liberties counted.

The dame fill and the seki test judge every remaining neutral point on every sweep,
and a flood per judgement would walk again and again the long chains a filling board
grows. So each chain is a tree of a union-find forest whose root keeps the chain's
*pseudo-liberties* (the empty neighbours of its stones, with repetition) as a count,
a sum and a sum of squares: the chain has no liberty when the count is 0, and exactly
one, the mean, when ``count * squares == sum ** 2`` (the equality case of
Cauchy–Schwarz: all values equal). No fill captures, so stones are only ever added
and chains only ever merge.

Boards are flat int8 arrays padded with a ``WALL`` ring, so a neighbour of ``p`` is
``p + nb[k]`` with ``nb = (-stride, stride, -1, 1)`` and no bounds check is needed.
A judgement that needs a stone played first plays it on a copy (:func:`with_stone`), or,
when the stone joins at most one chain of its colour, puts it on the board itself and
takes it back after (:func:`try_stone`, :func:`take_back`): the forest's roots then stay
roots, so the paths halved meanwhile stay true, and no copy is paid for.
"""

from __future__ import annotations

from collections import namedtuple

import numba
import numpy as np

from rulelab.position import BLACK, EMPTY, WHITE

Chains = namedtuple("Chains", ("parent", "libs", "sides"))
"""The forest (parent per point, roots their own), the sums per root (count, sum,
sum of squares), and scratch for the roots of a point's four sides."""


@numba.njit(cache=True)
def neighbour_offsets(cols):
    """``nb`` of a padded board of ``cols`` columns: the offsets of a point's four sides."""
    stride = cols + 2
    return np.array([-stride, stride, -1, 1], np.int64)


@numba.njit(cache=True, inline="always")
def root(parent, p):
    """The root of p's chain (halving the path on the way)."""
    while parent[p] != p:
        parent[p] = parent[parent[p]]
        p = parent[p]
    return p


@numba.njit(cache=True, inline="always")
def _count_liberty(libs, chain, q, times):
    """Count empty q times more (fewer, if negative) among the chain's pseudo-liberties."""
    libs[chain, 0] += times
    libs[chain, 1] += times * q
    libs[chain, 2] += times * q * q


@numba.njit(cache=True)
def chain_forest(b, nb):
    """The chains of b with their pseudo-liberties."""
    parent = np.arange(b.size)
    libs = np.zeros((b.size, 3), np.int64)
    for p in range(b.size):
        v = b[p]
        if v == BLACK or v == WHITE:
            for k in (1, 3):  # below and to the right: every adjacent pair once
                if b[p + nb[k]] == v:
                    parent[root(parent, p + nb[k])] = root(parent, p)
    for p in range(b.size):
        v = b[p]
        if v == BLACK or v == WHITE:
            chain = root(parent, p)
            for k in range(4):
                if b[p + nb[k]] == EMPTY:
                    _count_liberty(libs, chain, p + nb[k], 1)
    return Chains(parent, libs, np.empty(4, np.int64))


@numba.njit(cache=True)
def copy_chains(chains):
    """Chains to place stones on, leaving the given ones as they are."""
    return Chains(chains.parent.copy(), chains.libs.copy(), chains.sides)


@numba.njit(cache=True, inline="always")
def place(b, nb, q, colour, chains):
    """Put colour on empty q: the chains of that colour beside q join it under root
    q, and every chain beside q loses q from its pseudo-liberties."""
    parent, libs = chains.parent, chains.libs
    b[q] = colour
    parent[q] = q
    libs[q, 0], libs[q, 1], libs[q, 2] = 0, 0, 0
    for k in range(4):
        r = q + nb[k]
        if b[r] == colour:
            chain = root(parent, r)
            if chain != q:
                parent[chain] = q
                for i in range(3):
                    libs[q, i] += libs[chain, i]
    _count_sides(b, nb, q, chains)


@numba.njit(cache=True, inline="always")
def _count_sides(b, nb, q, chains):
    """Count the empty sides of the stone on q among its chain's pseudo-liberties, and take
    q from those of every chain beside it."""
    parent, libs = chains.parent, chains.libs
    own = root(parent, q)
    for k in range(4):
        r = q + nb[k]
        v = b[r]
        if v == EMPTY:
            _count_liberty(libs, own, r, 1)
        elif v == BLACK or v == WHITE:
            _count_liberty(libs, root(parent, r), q, -1)


@numba.njit(cache=True)
def with_stone(b, nb, q, colour, chains):
    """Copies of b and its chains with colour put on empty q."""
    board, board_chains = b.copy(), copy_chains(chains)
    place(board, nb, q, colour, board_chains)
    return board, board_chains


@numba.njit(cache=True)
def try_stone(b, nb, q, colour, chains):
    """Put colour on empty q to be taken back (:func:`take_back`), when it touches at most
    one chain of its colour: it joins that chain under the chain's root (or is a root of
    its own), and every chain beside q loses q from its pseudo-liberties. Returns the roots
    and sums it changed, as they were (rows of ``(root, count, sum, squares)``, -1 after
    the last), or an empty array, with nothing put, when q would join two chains."""
    parent, libs = chains.parent, chains.libs
    saved = np.full((5, 4), -1, np.int64)
    own = q
    changed = 0
    for k in range(4):
        r = q + nb[k]
        if b[r] == BLACK or b[r] == WHITE:
            chain = root(parent, r)
            if b[r] == colour:
                if own != q and own != chain:
                    return saved[:0]
                own = chain
            if chain not in saved[:changed, 0]:
                saved[changed, 0] = chain
                saved[changed, 1:] = libs[chain]
                changed += 1
    saved[changed, 0] = q
    saved[changed, 1:] = libs[q]
    b[q] = colour
    parent[q] = own
    if own == q:
        libs[q, 0], libs[q, 1], libs[q, 2] = 0, 0, 0
    _count_sides(b, nb, q, chains)
    return saved


@numba.njit(cache=True)
def take_back(b, q, chains, saved):
    """Take back the stone :func:`try_stone` put on q, its sums as they were (``saved``)."""
    for i in range(saved.shape[0]):
        if saved[i, 0] >= 0:
            chains.libs[saved[i, 0]] = saved[i, 1:]
    b[q] = EMPTY
    chains.parent[q] = q


@numba.njit(cache=True, inline="always")
def liberty_count(count, total, squares):
    """Liberties (up to two) of pseudo-liberties with these sums, and the one if one."""
    if count == 0:
        return 0, -1
    if count * squares == total * total:
        return 1, total // count
    return 2, -1


@numba.njit(cache=True, inline="always")
def chain_liberties(chains, p):
    """Liberties (up to two) of the chain at stone p, and the one if one."""
    chain = root(chains.parent, p)
    return liberty_count(chains.libs[chain, 0], chains.libs[chain, 1], chains.libs[chain, 2])


@numba.njit(cache=True, inline="always")
def judge(b, nb, p, colour, chains):
    """What colour put on empty p would do, read from the pseudo-liberties of the
    chains beside p without playing: ``(own, liberty, captured, ataris, escape)``, the
    liberties of its chain (up to two) and the one if one, the opposing chains left
    with no liberty and with one, and the one liberty those share (-1 if they differ)."""
    libs, sides = chains.libs, chains.sides
    count, total, squares = 0, 0, 0  # the pseudo-liberties of colour's chain through p
    for k in range(4):
        r = p + nb[k]
        v = b[r]
        sides[k] = root(chains.parent, r) if v == BLACK or v == WHITE else -1
        if v == EMPTY:
            count, total, squares = count + 1, total + r, squares + r * r
    captured = 0
    ataris = 0
    escape = -1
    for k in range(4):
        chain = sides[k]
        times = 0  # the chain's stones beside p, each counting p once
        for j in range(4):
            if sides[j] == chain:
                if j < k:
                    break  # the chain was counted at an earlier side
                times += 1
        if chain < 0 or times == 0:
            continue
        n = libs[chain, 0] - times
        s = libs[chain, 1] - times * p
        sq = libs[chain, 2] - times * p * p
        if b[p + nb[k]] == colour:
            count, total, squares = count + n, total + s, squares + sq
        else:
            libs_left, last = liberty_count(n, s, sq)
            if libs_left == 0:
                captured += 1
            elif libs_left == 1:
                escape = last if ataris == 0 or last == escape else -1
                ataris += 1
    own, liberty = liberty_count(count, total, squares)
    return own, liberty, captured, ataris, escape


@numba.njit(cache=True, inline="always")
def _quiet_by_sight(b, nb, p, colour):
    """Whether colour on empty p has two liberties of its own and touches no opposing
    chain: quiet whatever the chains beside it."""
    open_sides = 0
    for k in range(4):
        v = b[p + nb[k]]
        if v == 3 - colour:
            return False
        open_sides += v == EMPTY
    return open_sides >= 2


@numba.njit(cache=True, inline="always")
def is_quiet(b, nb, p, colour, chains):
    """Whether colour on empty p keeps two liberties and neither captures nor ataris."""
    if _quiet_by_sight(b, nb, p, colour):
        return True
    own, _, captured, ataris, _ = judge(b, nb, p, colour, chains)
    return own >= 2 and captured == 0 and ataris == 0


@numba.njit(cache=True, inline="always")
def place_if_quiet(b, nb, p, colour, chains):
    """Put colour on p if it keeps two liberties and neither captures nor ataris."""
    if is_quiet(b, nb, p, colour, chains):
        place(b, nb, p, colour, chains)
        return True
    return False
