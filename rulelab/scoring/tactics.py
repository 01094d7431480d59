"""Whether a chain short of liberties can be captured: the reading behind a protective move.

A living chain of two liberties inside its own territory may still be lost once the
dame are filled: the opponent plays a liberty (a stone that dies there later, and is
its owner's prisoner), the chain answers, and a second move captures it, or a dead
stone beside it takes part. J1989 Art. 9 commentary: a move that would capture must be
answered, so its owner makes the protective move before the game ends, at the cost of
a point of territory. Hon-55-1 of the default corpus is one: White's R13.

The reading is the one of a ladder or a net of a few moves: the attacker plays a
liberty of the chain; the defender plays a liberty, captures an attacking chain in
atari beside it, or passes. A chain of more than :data:`MAX_LIBERTIES` liberties, or
still standing after :data:`DEPTH` moves, is safe. The simple ko rule holds (a single
stone just taken may not be retaken at once). The search keeps its positions in
arrays, one row per move read.
"""

from __future__ import annotations

import numba
import numpy as np

from rulelab.board import LEGAL, NO_POINT, SUICIDE_NONE, play
from rulelab.position import EMPTY

MAX_LIBERTIES = 2
"""A chain of more liberties is safe: more would make every chain along a boundary
of open dame a candidate, most of them safe for reasons a short reading cannot see."""
DEPTH = 7
"""Moves read: an atari, its answer and the attacks that follow, enough for the
throw-ins and shortages of an unfinished record (9 gave the default corpus the same
rates, 5 two exact games fewer)."""
_MOVES = 16
"""Room for one position's moves: two liberties, the last liberty of each attacking
chain in atari beside the chain (a handful), and a pass."""


@numba.njit(cache=True)
def flood(board, stride, s, seen, points):
    """The chain at s: its stones go to the front of ``points`` (scratch of ``board.size``),
    its liberties to the back, last found last; ``(stones, liberties)``. ``seen``: scratch
    of ``board.size``, left clear."""
    colour = board[s]
    last = points.size - 1
    points[0] = s
    seen[s] = True
    stones, libs, i = 1, 0, 0
    while i < stones:
        p = points[i]
        i += 1
        for d in (-stride, -1, 1, stride):
            q = p + d
            if seen[q]:
                continue
            if board[q] == colour:
                seen[q] = True
                points[stones] = q
                stones += 1
            elif board[q] == EMPTY:
                seen[q] = True
                points[last - libs] = q
                libs += 1
    seen[points[:stones]] = False
    seen[points[last - libs + 1:]] = False
    return stones, libs


@numba.njit(cache=True)
def defence_moves(board, stride, s, seen, points, other, out):
    """The defender's moves for the chain at s into ``out`` in board order: its liberties
    and the last liberty of each opposing chain in atari beside it; how many. ``points``
    and ``other``: scratch of ``board.size``. Each opposing chain is flooded once, however
    many of the chain's stones it touches."""
    colour = board[s]
    stones, libs = flood(board, stride, s, seen, points)
    n = min(libs, MAX_LIBERTIES + 1)
    out[:n] = points[points.size - n:]
    read = np.zeros(board.size, np.bool_)  # the opposing chains' stones flooded
    for i in range(stones):
        for d in (-stride, -1, 1, stride):
            q = points[i] + d
            if board[q] != 3 - colour or read[q]:
                continue
            theirs, their_libs = flood(board, stride, q, seen, other)
            read[other[:theirs]] = True
            if their_libs == 1:
                known = False
                for j in range(n):
                    known = known or out[j] == other[-1]
                if not known and n < out.size - 1:
                    out[n] = other[-1]
                    n += 1
    out[:n] = np.sort(out[:n])
    return n


@numba.njit(cache=True)
def capturable(board, stride, s, depth):
    """Whether the opponent of the chain at s, moving first, captures it within ``depth``
    moves (module docstring). ``board`` is padded and left as it was."""
    n = board.size
    boards = np.empty((depth + 1, n), np.int8)
    kos = np.empty(depth + 1, np.int64)
    moves = np.empty((depth + 1, _MOVES), np.int64)
    n_moves = np.zeros(depth + 1, np.int64)
    tried = np.zeros(depth + 1, np.int64)
    value = np.zeros(depth + 1, np.bool_)
    seen = np.zeros(n, np.bool_)
    scratch = np.empty(n, np.int32)
    points = np.empty(n, np.int64)
    other = np.empty(n, np.int64)
    defender = board[s]
    boards[0, :] = board
    kos[0] = NO_POINT
    level, new = 0, True
    while True:
        if new:  # the position at ``level``: decided at once, or its moves listed
            new = False
            here = boards[level]
            attacking = level % 2 == 0
            libs = 0 if here[s] == EMPTY else flood(here, stride, s, seen, points)[1]
            if here[s] == EMPTY or libs > MAX_LIBERTIES or level == depth:
                level = _back(level, here[s] == EMPTY, value, tried, n_moves)
                if level < 0:
                    return here[s] == EMPTY
            else:
                if attacking:
                    moves[level, :libs] = np.sort(points[n - libs:])
                    k = libs
                else:
                    k = defence_moves(here, stride, s, seen, points, other, moves[level])
                    moves[level, k] = NO_POINT
                    k += 1
                n_moves[level], tried[level], value[level] = k, 0, not attacking
        mover = 3 - defender if level % 2 == 0 else defender
        while tried[level] < n_moves[level]:
            p = moves[level, tried[level]]
            tried[level] += 1
            child = boards[level + 1]
            child[:] = boards[level]
            if p == NO_POINT:
                kos[level + 1] = NO_POINT
            else:
                status, _, _, ko = play(child, stride, p, mover, kos[level], SUICIDE_NONE, scratch)
                if status != LEGAL:
                    continue
                kos[level + 1] = ko
            level += 1
            new = True
            break
        if not new:  # every move tried, or one won: the position's value, back to its parent
            result = value[level]
            level = _back(level, result, value, tried, n_moves)
            if level < 0:
                return result


@numba.njit(cache=True, inline="always")
def _back(level, result, value, tried, n_moves):
    """Leave the position at ``level`` with ``result`` (whether the attacker wins): a win
    for the parent's mover (the attacker at even levels) decides the parent, whose other
    moves are then skipped. The parent's level, -1 from the root."""
    level -= 1
    if level >= 0 and result == (level % 2 == 0):
        value[level] = result
        tried[level] = n_moves[level]
    return level
