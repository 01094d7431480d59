"""The last dame as a game: which fill to play when no move is forced.

Once nothing is in atari, no shortage needs mending and no ko is open, the fills left
(:func:`rulelab.scoring.finish._fills`: forcing fills, answers to cuts, quiet fills,
connections first) are a game of their own. Dame are worth nothing, but a fill that
puts a chain in atari makes its owner protect, and a protective stone inside one's own
territory costs its maker a point of territory (J1989 Art. 9 commentary): each side
would have the other make those moves. So the finisher reads the fills out, alpha-beta
over the moves the finisher's list allows (the forced ones stay forced), each line
valued by its Japanese count: a point of its own territory lost per stone played there,
a prisoner and a point per living stone taken (a ko). The candidates are tried in the
list's order and a later one is chosen only if strictly better, so a game of equal
lines plays as the list does; a search that spends its node budget falls back on the
list's first move.

A fill *cold* for both sides changes nothing: a dame between living chains of both
colours that each keep two liberties inside their own territory (no fill can put
them in atari), beside no other dame. Any cold fill is as good as another, a move
that only passes the turn, so one stands for them all; a position whose dame are all
cold and whose chains all have two liberties is valued as it stands.
"""

from __future__ import annotations

import numba
import numpy as np

from rulelab.board import WALL
from rulelab.position import BLACK, EMPTY, WHITE

from .chains import Chains, chain_liberties, root
from .finish import _advance, _fills, _forced

BUDGET = 1000
"""Positions one choice may read before it falls back on the list's first move."""
OPTIONS = 6
"""The most options a choice reads; more, and the board is too open for a reading to end."""
NEUTRAL = 40
"""The most neutral points left where a choice reads."""
DEPTH = 48
"""Moves a line may run to before the reading gives up, as when it spends the budget."""
INFINITY = 1 << 30
"""Beyond any count."""


@numba.njit(cache=True)
def _secure(w, nb, zone, dead, chains):
    """Per chain root: a living chain with two liberties inside its own territory, which
    no fill of a neutral point can put in atari."""
    n = w.size
    first = np.full(n, -1, np.int64)
    secure = np.zeros(n, np.bool_)
    for s in range(n):
        colour = w[s]
        if (colour == BLACK or colour == WHITE) and not dead[s]:
            chain = root(chains.parent, s)
            for k in range(4):
                q = s + nb[k]
                if w[q] == EMPTY and zone[q] == colour:
                    if first[chain] < 0:
                        first[chain] = q
                    elif first[chain] != q:
                        secure[chain] = True
    return secure


@numba.njit(cache=True)
def _cold(w, nb, p, zone, dead, secure, chains):
    """Whether filling the neutral point p changes nothing for either side: its sides are
    the edge, points of either territory, and secure living chains of both colours."""
    joins = 0
    for k in range(4):
        r = p + nb[k]
        v = w[r]
        if v == WALL:
            continue
        if v == EMPTY:
            if zone[r] != BLACK and zone[r] != WHITE:
                return False
        elif dead[r] or not secure[root(chains.parent, r)]:
            return False
        else:
            joins |= v  # BLACK 1, WHITE 2: both seen makes 3
    return joins == 3


@numba.njit(cache=True)
def _settled(w, nb, zone, dead, ban, secure, chains):
    """Whether nothing is left to read: every neutral point cold, no ko banned, every
    living chain with two liberties."""
    if ban >= 0:
        return False
    for p in range(w.size):
        v = w[p]
        if v == EMPTY:
            if zone[p] == 3 and not _cold(w, nb, p, zone, dead, secure, chains):
                return False
        elif (v == BLACK or v == WHITE) and not dead[p] and chain_liberties(chains, p)[0] < 2:
            return False
    return True


@numba.njit(cache=True)
def _options(w, nb, zone, dead, colour, ban, chains, kos, secure):
    """colour's moves to read: the forced one alone, or the fills with the first cold
    one standing for every cold one (none: colour passes)."""
    q = _forced(w, nb, zone, dead, colour, ban, chains, kos)
    if q >= 0:
        return [q]
    options = [np.int64(x) for x in range(0)]
    cold_seen = False
    for p in _fills(w, nb, zone, dead, colour, ban, chains):
        if w[p] == EMPTY and zone[p] == 3 and _cold(w, nb, p, zone, dead, secure, chains):
            if cold_seen:
                continue
            cold_seen = True
        options.append(p)
    return options


@numba.njit(cache=True)
def _gain(before, after, dead, zone, p, colour, zone_before):
    """What colour's move on p gained in the Japanese count: -1 for a stone inside its own
    territory, and per living stone it took a prisoner and a point of territory (the
    point of a ko is opened as a neutral point instead)."""
    gain = -1 if zone_before == colour else 0
    for q in range(before.size):
        if before[q] == 3 - colour and after[q] == EMPTY and not dead[q]:
            gain += 2 if zone[q] == colour else 1
    return gain


@numba.njit(cache=True)
def _read(w, nb, zone, dead, colour, ban, chains, kos, options):
    """colour's choice among ``options``: alpha-beta, each line to its end (two passes, or a
    position :func:`_settled`), a position's value the count its player to move gains over
    the other from there. The first option that reads best; -1 once the reading passes
    :data:`BUDGET` positions or a line :data:`DEPTH` moves; and the positions read. Kept on explicit stacks, a
    level per move of the line (numba's cache does not keep recursive kernels)."""
    n, levels = w.size, DEPTH + 1
    boards, zones = np.empty((levels, n), np.int8), np.empty((levels, n), np.int8)
    parents, libs = np.empty((levels, n), np.int64), np.empty((levels, n, 3), np.int64)
    moves, count, tried = np.empty((levels, n), np.int64), np.zeros(levels, np.int64), np.zeros(levels, np.int64)
    to_move, bans, passes = np.empty(levels, np.int8), np.empty(levels, np.int64), np.zeros(levels, np.int64)
    gains, best = np.zeros(levels, np.int64), np.empty(levels, np.int64)
    alpha, beta = np.empty(levels, np.int64), np.empty(levels, np.int64)
    boards[0], zones[0], parents[0], libs[0] = w, zone, chains.parent, chains.libs
    to_move[0], bans[0], best[0], alpha[0], beta[0] = colour, ban, -INFINITY, -INFINITY, INFINITY
    for i in range(len(options)):
        moves[0, i] = options[i]
    count[0] = len(options)
    choice, spent, d = -1, 0, 0
    while True:
        if tried[d] < count[d] and alpha[d] < beta[d]:
            p, c = moves[d, tried[d]], to_move[d]
            tried[d] += 1
            spent += 1
            if spent > BUDGET or d + 1 == levels:
                return -1, spent
            e = d + 1
            boards[e], zones[e], parents[e], libs[e] = boards[d], zones[d], parents[d], libs[d]
            to_move[e], bans[e], passes[e], gains[e] = 3 - c, -1, passes[d] + 1, 0
            if p >= 0:
                played, _, bans[e] = _advance(boards[e], nb, p, c, zones[e], Chains(parents[e], libs[e], chains.sides))
                parents[e], libs[e] = played.parent, played.libs
                passes[e], gains[e] = 0, _gain(boards[d], boards[e], dead, zones[e], p, c, zones[d, p])
            best[e], alpha[e], beta[e], tried[e], count[e] = 0, gains[e] - beta[d], gains[e] - alpha[d], 0, 0
            d = e
            here = Chains(parents[d], libs[d], chains.sides)
            secure = _secure(boards[d], nb, zones[d], dead, here)
            if passes[d] < 2 and not _settled(boards[d], nb, zones[d], dead, bans[d], secure, here):
                found = _options(boards[d], nb, zones[d], dead, to_move[d], bans[d], here, kos, secure)
                for i in range(len(found)):
                    moves[d, i] = found[i]
                count[d] = max(len(found), 1)
                if len(found) == 0:
                    moves[d, 0] = -1  # a pass
                best[d] = -INFINITY
        else:
            if d == 0:
                return choice, spent
            v = gains[d] - best[d]
            d -= 1
            if v > best[d]:
                best[d] = v
                if d == 0:
                    choice = moves[0, tried[0] - 1]
            alpha[d] = max(alpha[d], v)


@numba.njit(cache=True)
def best_fill(w, nb, zone, dead, colour, ban, chains, kos, fills):
    """colour's choice among ``fills`` (in the list's order; -1 if none): the first whose
    line reads best (:func:`_read`), or the first of the list when the reading gives up."""
    if len(fills) < 2:
        return fills[0] if len(fills) else -1
    if np.sum((w == EMPTY) & (zone == 3)) > NEUTRAL:
        return fills[0]
    secure = _secure(w, nb, zone, dead, chains)
    if _settled(w, nb, zone, dead, ban, secure, chains):
        return fills[0]
    options = _options(w, nb, zone, dead, colour, ban, chains, kos, secure)
    if len(options) < 2 or len(options) > OPTIONS:
        return fills[0]
    choice, _ = _read(w, nb, zone, dead, colour, ban, chains, kos, options)
    return fills[0] if choice < 0 else choice
