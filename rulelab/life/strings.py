"""Strings that keep their liberties as bitsets: the board playouts run on.

Random playouts ask after every move which strings are in atari, whether a move is
legal and whether it fills its own last liberties. The flood fills of
:mod:`rulelab.board` answer by walking the strings each time; here each string keeps
a circular list of its stones, a bitset of its liberties over the padded points and
the number of bits set, updated as stones are placed, strings merge and strings are
captured, so "how many liberties" is one load and "which one" a few word operations.

The state is a padded int8 board plus five arrays indexed by padded point: ``head``
(the point naming a stone's string, -1 on empty points), ``nxt`` (the next stone of
the same string, circular), and, at heads only, ``size`` (stones), ``libs`` (one row
of uint64 words per point: the liberty bitset) and ``nlibs`` (its number of bits).

Points that index arrays in the move loops are cast to ``np.uint64``: numba adds the
length to a negative signed index (three more instructions on every access), and
padded points are never negative.
"""

from __future__ import annotations

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from rulelab.board import EMPTY, NO_POINT

ILLEGAL, SELF_ATARI, FINE = 0, 1, 2
"""Classes of a move returned by :func:`classify_move`."""


@intrinsic
def popcount(typingctx, word):
    """Set bits of a uint64 as one machine instruction (numba has no popcount)."""
    if word != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


@intrinsic
def _trailing_zeros(typingctx, word):
    """Index of the lowest set bit of a non-zero uint64, as one machine instruction."""
    if word != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.uint64(types.uint64), codegen


@numba.njit(cache=True, inline="always")
def first_liberty(libs, row, other_than=NO_POINT):
    """The lowest liberty in the bitset ``libs[row]`` except ``other_than``
    (``NO_POINT`` if there is none)."""
    skip_word = other_than >> 6
    row = np.uint64(row)
    for w in range(libs.shape[1]):
        x = libs[row, w]
        if w == skip_word:
            x &= ~(np.uint64(1) << np.uint64(other_than & 63))
        if x != 0:
            return w * 64 + int(_trailing_zeros(x))
    return NO_POINT


@numba.njit(cache=True, inline="always")
def _add_liberty(libs, nlibs, row, p):
    """Set bit ``p`` of ``libs[row]``, counting it only if it was clear."""
    row, w, bit = np.uint64(row), np.uint64(p >> 6), np.uint64(1) << np.uint64(p & 63)
    word = libs[row, w]
    if word & bit == 0:
        libs[row, w] = word | bit
        nlibs[row] += 1


@numba.njit(cache=True, inline="always")
def _remove_liberty(libs, nlibs, row, p):
    """Clear bit ``p`` of ``libs[row]``, counting it only if it was set."""
    row, w, bit = np.uint64(row), np.uint64(p >> 6), np.uint64(1) << np.uint64(p & 63)
    word = libs[row, w]
    if word & bit != 0:
        libs[row, w] = word & ~bit
        nlibs[row] -= 1


@numba.njit(cache=True)
def new_strings(size_of_board):
    """Empty ``(head, nxt, size, libs, nlibs)`` arrays for a padded board of that many points."""
    words = (size_of_board + 63) // 64
    return (np.full(size_of_board, -1, dtype=np.int32), np.zeros(size_of_board, dtype=np.int32),
            np.zeros(size_of_board, dtype=np.int32), np.zeros((size_of_board, words), dtype=np.uint64),
            np.zeros(size_of_board, dtype=np.int32))


@numba.njit(cache=True)
def build_strings(board, stride, head, nxt, size, libs, nlibs):
    """Fill ``head``, ``nxt``, ``size``, ``libs`` and ``nlibs`` for the stones of a padded board."""
    head[:] = -1
    libs[:, :] = 0
    nlibs[:] = 0
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
                    _add_liberty(libs, nlibs, p, q)
            i = nxt[i]
            if i == p:
                break


@numba.njit(cache=True, inline="always")
def classify_move(board, stride, head, libs, nlibs, p, colour, ko):
    """:data:`ILLEGAL`, :data:`SELF_ATARI` (a string of 2+ stones left with one
    liberty) or :data:`FINE` for ``colour`` at empty ``p``.

    A move that captures is always fine: it gains liberties. Otherwise the new
    string's liberties are the empty neighbours of ``p`` and those of the friendly
    strings it joins other than ``p`` itself, a liberty of each of them; only the
    first two distinct ones matter, and a friendly string with three or more
    liberties alone brings two.
    """
    if p == ko:
        return ILLEGAL
    opp = 3 - colour
    open_sides = 0
    found = NO_POINT
    for d in (-stride, -1, 1, stride):
        if board[np.uint64(p + d)] == EMPTY:
            open_sides += 1
            found = p + d
    if open_sides >= 2:
        return FINE
    for d in (-stride, -1, 1, stride):
        q = np.uint64(p + d)
        if board[q] == opp and nlibs[np.uint64(head[q])] == 1:
            return FINE
    joins = False
    for d in (-stride, -1, 1, stride):
        q = np.uint64(p + d)
        if board[q] == colour:
            joins = True
            h = np.uint64(head[q])
            if nlibs[h] >= 3:
                return FINE
            if nlibs[h] == 2:
                other = first_liberty(libs, h, p)
                if found == NO_POINT:
                    found = other
                elif other != found:
                    return FINE
    if found == NO_POINT:
        return ILLEGAL
    return SELF_ATARI if joins else FINE


@numba.njit(cache=True, inline="always")
def _merge(head, nxt, size, libs, nlibs, a, b):
    """Join the strings headed by ``a`` and ``b``; returns the surviving head."""
    a, b = np.uint64(a), np.uint64(b)
    if size[a] < size[b]:
        a, b = b, a
    i = b
    while True:
        head[i] = a
        i = np.uint64(nxt[i])
        if i == b:
            break
    nxt[a], nxt[b] = nxt[b], nxt[a]
    size[a] += size[b]
    n = 0
    for w in range(libs.shape[1]):
        x = libs[a, w] | libs[b, w]
        libs[a, w] = x
        n += int(popcount(x))
    nlibs[a] = n
    return np.int64(a)


@numba.njit(cache=True, inline="always")
def _capture(board, stride, head, nxt, libs, nlibs, h, removed, n_removed):
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
            g = head[np.uint64(s + d)]
            if g >= 0:
                _add_liberty(libs, nlibs, g, s)
    return n_removed


@numba.njit(cache=True, inline="always")
def place_stone(board, stride, head, nxt, size, libs, nlibs, p, colour, removed, keys, h):
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
    at = np.uint64(p)
    board[at] = colour
    h ^= keys[np.uint64(colour), at]
    head[at], nxt[at], size[at], nlibs[at] = p, p, 1, 0
    libs[at, :] = 0
    string = p
    for d in (-stride, -1, 1, stride):
        if board[np.uint64(p + d)] == EMPTY:
            _add_liberty(libs, nlibs, p, p + d)
    for d in (-stride, -1, 1, stride):
        q = np.uint64(p + d)
        v = board[q]
        if v == colour and head[q] != string:
            string = _merge(head, nxt, size, libs, nlibs, string, head[q])
        elif v == opp:
            _remove_liberty(libs, nlibs, head[q], p)
    _remove_liberty(libs, nlibs, string, p)
    captured = 0
    for d in (-stride, -1, 1, stride):
        q = np.uint64(p + d)
        if board[q] == opp and nlibs[np.uint64(head[q])] == 0:
            captured = _capture(board, stride, head, nxt, libs, nlibs, head[q], removed, captured)
    for k in range(captured):
        h ^= keys[opp, removed[k]]
    if captured == 1 and size[string] == 1 and nlibs[string] == 1:
        return removed[0], h, captured
    return NO_POINT, h, captured
