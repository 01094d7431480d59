"""Strings that keep their liberties as bitsets: the board playouts run on.

Random playouts ask after every move which strings are in atari, whether a move is
legal and whether it fills its own last liberties. The flood fills of
:mod:`rulelab.board` answer by walking the strings each time; here each string keeps
a circular list of its stones and a bitset of its liberties over the padded points,
updated as stones are placed, strings merge and strings are captured, so each
question is a few word operations.

The state is a padded int8 board plus four arrays indexed by padded point: ``head``
(the point naming a stone's string, -1 on empty points), ``nxt`` (the next stone of
the same string, circular), and, at heads only, ``size`` (stones) and ``libs`` (one
row of uint64 words per point: the liberty bitset).
"""

from __future__ import annotations

import numba
import numpy as np

from rulelab.board import EMPTY, NO_POINT

ILLEGAL, SELF_ATARI, FINE = 0, 1, 2
"""Classes of a move returned by :func:`classify_move`."""


@numba.njit(cache=True)
def liberties_upto2(libs, row):
    """Number of liberties in the bitset ``libs[row]``, capped at 2."""
    n = 0
    for w in range(libs.shape[1]):
        x = libs[row, w]
        if x != 0:
            n += 1 if x & (x - np.uint64(1)) == 0 else 2
            if n >= 2:
                return 2
    return n


@numba.njit(cache=True)
def first_liberty(libs, row):
    """The lowest liberty in the bitset ``libs[row]`` (``NO_POINT`` if none)."""
    for w in range(libs.shape[1]):
        x = libs[row, w]
        if x != 0:
            b = 0
            while (x >> np.uint64(b)) & np.uint64(1) == 0:
                b += 1
            return w * 64 + b
    return NO_POINT


@numba.njit(cache=True)
def _set_bit(bits, row, p):
    bits[row, p >> 6] |= np.uint64(1) << np.uint64(p & 63)


@numba.njit(cache=True)
def _clear_bit(bits, row, p):
    bits[row, p >> 6] &= ~(np.uint64(1) << np.uint64(p & 63))


@numba.njit(cache=True)
def new_strings(size_of_board):
    """Empty ``(head, nxt, size, libs)`` arrays for a padded board of that many points."""
    words = (size_of_board + 63) // 64
    return (np.full(size_of_board, -1, dtype=np.int32), np.zeros(size_of_board, dtype=np.int32),
            np.zeros(size_of_board, dtype=np.int32), np.zeros((size_of_board, words), dtype=np.uint64))


@numba.njit(cache=True)
def build_strings(board, stride, head, nxt, size, libs):
    """Fill ``head``, ``nxt``, ``size`` and ``libs`` for the stones of a padded board."""
    head[:] = -1
    libs[:, :] = 0
    for p in range(board.size):
        v = board[p]
        if (v != 1 and v != 2) or head[p] >= 0:
            continue
        head[p], nxt[p], size[p] = p, p, 1
        tail, i = p, p
        while True:
            for d in (-stride, -1, 1, stride):
                q = i + d
                if board[q] == v and head[q] < 0:
                    head[q] = p
                    nxt[q] = p
                    nxt[tail] = q
                    tail = q
                    size[p] += 1
                elif board[q] == EMPTY:
                    _set_bit(libs, p, q)
            i = nxt[i]
            if i == p:
                break


@numba.njit(cache=True)
def classify_move(board, stride, head, size, libs, p, colour, ko, scratch):
    """:data:`ILLEGAL`, :data:`SELF_ATARI` (a string of 2+ stones left with one
    liberty) or :data:`FINE` for ``colour`` at empty ``p``.

    ``scratch`` is a one-row bitset buffer for the liberties the new string would have.
    A move that captures is always fine: it gains liberties.
    """
    if p == ko:
        return ILLEGAL
    opp = 3 - colour
    open_sides = 0
    for d in (-stride, -1, 1, stride):
        if board[p + d] == EMPTY:
            open_sides += 1
    if open_sides >= 2:
        return FINE
    for d in (-stride, -1, 1, stride):
        q = p + d
        if board[q] == opp and liberties_upto2(libs, head[q]) == 1:
            return FINE
    scratch[0, :] = 0
    stones = 1
    seen0, seen1, seen2 = -1, -1, -1
    for d in (-stride, -1, 1, stride):
        q = p + d
        v = board[q]
        if v == EMPTY:
            _set_bit(scratch, 0, q)
        elif v == colour:
            h = head[q]
            if h != seen0 and h != seen1 and h != seen2:
                seen2, seen1, seen0 = seen1, seen0, h
                for w in range(scratch.shape[1]):
                    scratch[0, w] |= libs[h, w]
                stones += size[h]
    _clear_bit(scratch, 0, p)
    n = liberties_upto2(scratch, 0)
    if n == 0:
        return ILLEGAL
    if n == 1 and stones >= 2:
        return SELF_ATARI
    return FINE


@numba.njit(cache=True)
def _merge(head, nxt, size, libs, a, b):
    """Join the strings headed by ``a`` and ``b``; returns the surviving head."""
    if size[a] < size[b]:
        a, b = b, a
    i = b
    while True:
        head[i] = a
        i = nxt[i]
        if i == b:
            break
    nxt[a], nxt[b] = nxt[b], nxt[a]
    size[a] += size[b]
    for w in range(libs.shape[1]):
        libs[a, w] |= libs[b, w]
    return a


@numba.njit(cache=True)
def _capture(board, stride, head, nxt, libs, h, removed, n_removed):
    """Remove the string headed by ``h``, appending its points to ``removed``."""
    first = n_removed
    i = h
    while True:
        removed[n_removed] = i
        n_removed += 1
        i = nxt[i]
        if i == h:
            break
    for k in range(first, n_removed):
        board[removed[k]] = EMPTY
        head[removed[k]] = -1
    for k in range(first, n_removed):
        s = removed[k]
        for d in (-stride, -1, 1, stride):
            g = head[s + d]
            if g >= 0:
                _set_bit(libs, g, s)
    return n_removed


@numba.njit(cache=True)
def place_stone(board, stride, head, nxt, size, libs, p, colour, removed, keys, h):
    """Play a move :func:`classify_move` found legal.

    Parameters
    ----------
    removed : np.ndarray
        int32 buffer receiving the captured points.
    keys : np.ndarray
        Zobrist keys (:func:`rulelab.board.zobrist_keys`).
    h : int
        Zobrist hash of the board before the move.

    Returns
    -------
    tuple
        ``(ko, h, captured)``: the point the simple ko rule forbids to the opponent
        (or ``NO_POINT``), the hash after the move, and the number of captured
        stones, at ``removed[:captured]``.
    """
    opp = 3 - colour
    board[p] = colour
    h ^= keys[colour, p]
    head[p], nxt[p], size[p] = p, p, 1
    libs[p, :] = 0
    string = p
    for d in (-stride, -1, 1, stride):
        if board[p + d] == EMPTY:
            _set_bit(libs, p, p + d)
    for d in (-stride, -1, 1, stride):
        q = p + d
        v = board[q]
        if v == colour and head[q] != string:
            string = _merge(head, nxt, size, libs, string, head[q])
        elif v == opp:
            _clear_bit(libs, head[q], p)
    _clear_bit(libs, string, p)
    captured = 0
    for d in (-stride, -1, 1, stride):
        q = p + d
        if board[q] == opp and liberties_upto2(libs, head[q]) == 0:
            captured = _capture(board, stride, head, nxt, libs, head[q], removed, captured)
    for k in range(captured):
        h ^= keys[opp, removed[k]]
    if captured == 1 and size[string] == 1 and liberties_upto2(libs, string) == 1:
        return removed[0], h, captured
    return NO_POINT, h, captured
