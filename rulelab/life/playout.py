"""Random playouts from a finished position: who ends up owning each point.

A finished position is almost settled, so a playout is short: both sides fill what
is left, one-eyed and eyeless groups inside the opponent's area run out of
liberties and are captured, and groups with two eyes survive because nobody fills
their own true eye. Further rules keep random play honest at the end of a game:

- a string of two or more stones never plays itself into atari, so shared
  liberties of a seki stay empty (neither side fills them) and the seki survives;
- a string left in atari by the opponent's last move is captured at once, our own
  strings it put in atari escape when extending gives them two liberties, and those
  it left with two liberties extend when that gives them three, so a capturing race
  or a chase is not decided by chance;
- a capture that opens a space with a vital point (a bent three, a pyramid four, a
  bulky five) is answered there by the side that was taken, so a group does not live
  by capturing a nakade;
- otherwise, on most moves, a player answers the last move where it completes a
  hane, a cut or an edge block (:mod:`rulelab.life.shapes`), so a group with room to
  live is attacked and defended as players would, not at random.

The playouts run on :mod:`rulelab.life.strings`, whose strings keep their liberties
and their counts up to date, so that atari and self-atari cost a few loads per move.
The steps of a move are compiled ``inline="always"``: as calls, each passing every
array as seven machine words, they cost more than their work. Hot indices are cast
to ``np.uint64`` for the reason given in :mod:`rulelab.life.strings`.
"""

from __future__ import annotations

import numba
import numpy as np

from rulelab.board import EMPTY, NO_POINT, WALL, splitmix64, zobrist_hash, zobrist_keys
from rulelab.life.shapes import SHAPE_TABLE
from rulelab.life.strings import (
    FINE,
    ILLEGAL,
    build_strings,
    classify_move,
    first_liberty,
    new_strings,
    place_stone,
    popcount,
)

SEKI_ROW = 3
"""Row of :func:`playout_counts` counting stones left touching a shared liberty."""
SHAPE_ODDS = 4
"""A move that answers nothing urgent completes a shape next to the last move
(:mod:`rulelab.life.shapes`) unless one in this many: on kgs-dev, shapes on every move
let a long capturing race be decided by local answers (a marked 2017 group of 63 stones
died); on one move in two or three in four they did not, and three in four kept the
most games within 1 point."""
NAKADE_SPACE = (3, 6)
"""Fewest and most points of a space a capture opens that can have a vital point
(:func:`_vital_point`): bent and straight three, the pyramid four, the bulky and crossed
five, the rabbity six."""
REPETITION_WINDOW = 32
"""Positions after captures remembered per playout: one coming back ends the playout
(a capture cycle longer than a simple ko, which the ko rule alone would not stop)."""


@numba.njit(cache=True, inline="always")
def is_true_eye(board, stride, p, colour):
    """Whether empty ``p`` is an eye of ``colour`` that filling would only harm.

    All four neighbours are ``colour`` or wall, and the opponent holds at most one
    diagonal (none when ``p`` is on the edge), the usual playout test. The sides are
    tested as one mask and the diagonals counted without branches: which way each test
    goes is random, and mispredicted branches cost the scan more than the loads.
    """
    sides = 0
    for d in (-stride, -1, 1, stride):
        sides |= 1 << board[np.uint64(p + d)]
    if sides & ~((1 << colour) | (1 << WALL)):
        return False
    opp = 3 - colour
    hostile, walls = 0, 0
    for d in (-stride - 1, -stride + 1, stride - 1, stride + 1):
        v = board[np.uint64(p + d)]
        hostile += v == opp
        walls += v == WALL
    return hostile == 0 or (walls == 0 and hostile == 1)


@numba.njit(cache=True, inline="always")
def _update_empties(empties, slot, n_empty, played, removed, captured, playable):
    """Keep the list of empty playable points (``slot`` indexes it) after a move."""
    played = np.uint64(played)
    at = slot[played]
    if at >= 0:
        n_empty -= 1
        moved = np.uint64(empties[np.uint64(n_empty)])
        empties[np.uint64(at)] = moved
        slot[moved] = at
        slot[played] = -1
    for k in range(captured):
        p = np.uint64(removed[k])
        if playable[p]:
            empties[np.uint64(n_empty)] = p
            slot[p] = n_empty
            n_empty += 1
    return n_empty


@numba.njit(cache=True, inline="always")
def _seen_before(history, n, h):
    """Whether hash ``h`` is among the last positions recorded in the ring ``history``."""
    for i in range(min(n, history.size)):
        if history[i] == h:
            return True
    return False


@numba.njit(cache=True, inline="always")
def _first_fine_move(board, stride, head, libs, nlibs, empties, n_empty, random, colour, ko):
    """The first of the ``n_empty`` candidate moves, from a start chosen by the uint64
    ``random`` and wrapping round, that fills no true eye and is :data:`FINE`;
    ``NO_POINT`` if none is."""
    i = np.int64(random % np.uint64(n_empty))
    for _ in range(n_empty):
        p = empties[np.uint64(i)]
        if (not is_true_eye(board, stride, p, colour)
                and classify_move(board, stride, head, libs, nlibs, p, colour, ko) == FINE):
            return p
        i += 1
        if i == n_empty:
            i = 0
    return NO_POINT


@numba.njit(cache=True, inline="always")
def _urgent_move(board, stride, head, nxt, libs, nlibs, slot, last, colour, ko):
    """Capture the opponent's string at ``last`` if it is in atari, else save our own
    strings that ``last`` put in atari by extending or by capturing a neighbour of
    theirs, else extend one it left with two liberties where that gives it three or
    more; ``NO_POINT`` when none applies.

    Only playable points (those with a ``slot`` in the empty list) are considered.
    """
    if board[last] == 3 - colour:
        h = head[last]
        if nlibs[h] == 1:
            lib = first_liberty(libs, h)
            if slot[lib] >= 0 and classify_move(board, stride, head, libs, nlibs, lib, colour, ko) != ILLEGAL:
                return lib
    for d in (-stride, -1, 1, stride):
        q = np.uint64(last + d)
        if board[q] == colour and nlibs[np.uint64(head[q])] == 1:
            lib = first_liberty(libs, head[q])
            if (slot[lib] >= 0 and not is_true_eye(board, stride, lib, colour)
                    and classify_move(board, stride, head, libs, nlibs, lib, colour, ko) == FINE):
                return lib
            capture = _capture_around(board, stride, head, nxt, libs, nlibs, slot, head[q], colour, ko)
            if capture != NO_POINT:
                return capture
    for d in (-stride, -1, 1, stride):
        q = np.uint64(last + d)
        if board[q] == colour and nlibs[np.uint64(head[q])] == 2:
            first = first_liberty(libs, head[q])
            for lib in (first, first_liberty(libs, head[q], first)):
                if (slot[lib] >= 0 and not is_true_eye(board, stride, lib, colour)
                        and _gains_liberties(board, stride, head, libs, lib, colour)):
                    return lib
    return NO_POINT


@numba.njit(cache=True, inline="always")
def _vital_point(board, stride, removed, captured, victim):
    """Where the side whose ``captured`` stones at ``removed`` were just taken plays to
    keep the capturer to one eye: the point of the space they open (with the empty
    points it joins) that touches more of it than any other, the middle of a bent three
    or the centre of a pyramid four or of a bulky five; ``NO_POINT`` when the space is
    not of :data:`NAKADE_SPACE` points shut by the capturer's stones and the edge, or
    has no such single point. Random play finds the vital point too late, and a group
    that has captured a nakade lives. The space is gathered in ``removed`` after the
    captured points."""
    if captured == 0:
        return NO_POINT
    n = captured
    i = 0
    while i < n:
        for d in (-stride, -1, 1, stride):
            q = removed[i] + d
            v = board[np.uint64(q)]
            if v == victim:
                return NO_POINT
            if v == EMPTY:
                inside = False
                for j in range(n):
                    inside |= removed[j] == q
                if not inside:
                    if n == NAKADE_SPACE[1]:
                        return NO_POINT
                    removed[n] = q
                    n += 1
        i += 1
    if n < NAKADE_SPACE[0]:
        return NO_POINT
    best, most, tie = NO_POINT, -1, False
    for i in range(n):
        degree = 0
        for d in (-stride, -1, 1, stride):
            for j in range(n):
                degree += removed[j] == removed[i] + d
        if degree > most:
            best, most, tie = removed[i], degree, False
        elif degree == most:
            tie = True
    return NO_POINT if tie else best


@numba.njit(cache=True, inline="always")
def _around(stride, i):
    """Offset of the ``i``-th of the eight points around a point, in the order of
    :data:`rulelab.life.shapes.NEIGHBOURS`."""
    if i < 3:
        return i - 1 - stride
    if i < 5:
        return 2 * i - 7
    return stride + i - 6


@numba.njit(cache=True, inline="always")
def _shape_move(board, stride, head, libs, nlibs, slot, last, colour, ko, random, shapes):
    """An empty point next to ``last`` whose neighbourhood the table ``shapes`` holds
    (:data:`rulelab.life.shapes.SHAPE_TABLE`), tried from a start chosen by ``random``;
    ``NO_POINT`` if none is a :data:`FINE` move that fills no true eye."""
    start = np.int64(random % np.uint64(8))
    for k in range(8):
        p = np.int64(last + _around(stride, (start + k) % 8))
        if board[np.uint64(p)] != EMPTY or slot[np.uint64(p)] < 0:
            continue
        code = 0
        for i in range(8):
            code |= np.int64(board[np.uint64(p + _around(stride, i))]) << (2 * i)
        if (shapes[code] and not is_true_eye(board, stride, p, colour)
                and classify_move(board, stride, head, libs, nlibs, p, colour, ko) == FINE):
            return p
    return NO_POINT


@numba.njit(cache=True, inline="always")
def _gains_liberties(board, stride, head, libs, p, colour):
    """Whether ``colour`` at empty ``p`` leaves the string it makes with three or more
    liberties (captures aside): a real escape, not a move to another atari."""
    total = 0
    for w in range(libs.shape[1]):
        acc = np.uint64(0)
        for d in (-stride, -1, 1, stride):
            q = p + d
            if board[np.uint64(q)] == colour:
                acc |= libs[np.uint64(head[np.uint64(q)]), w]
            elif board[np.uint64(q)] == EMPTY and q >> 6 == w:
                acc |= np.uint64(1) << np.uint64(q & 63)
        if p >> 6 == w:
            acc &= ~(np.uint64(1) << np.uint64(p & 63))
        total += popcount(acc)
    return total >= 3


@numba.njit(cache=True, inline="always")
def _capture_around(board, stride, head, nxt, libs, nlibs, slot, h, colour, ko):
    """A move capturing an opponent string in atari next to our string ``h``, if any."""
    i = h
    while True:
        for d in (-stride, -1, 1, stride):
            q = np.uint64(i + d)
            if board[q] == 3 - colour and nlibs[np.uint64(head[q])] == 1:
                lib = first_liberty(libs, head[q])
                if (slot[lib] >= 0
                        and classify_move(board, stride, head, libs, nlibs, lib, colour, ko) != ILLEGAL):
                    return lib
        i = nxt[i]
        if i == h:
            return NO_POINT


@numba.njit(cache=True)
def _tally(board, stride, head, touching, stamp, counts):
    """Add a finished playout to ``counts`` (see :func:`playout_counts`).

    ``touching`` marks, with this playout's ``stamp``, the strings next to a neutral
    point. Most playouts leave none, and then the strings are not walked a second time.
    Whether a point is a stone or empty is random, so the owner is chosen without a
    branch: the colour of a stone, else the colours around the empty point.
    """
    neutral = False
    for p in range(stride + 1, board.size - stride - 1):  # rows of wall skipped
        v = board[p]
        if v == WALL:
            continue
        near = 0
        for d in (-stride, -1, 1, stride):
            w = board[np.uint64(p + d)]
            near |= w if w != WALL else 0
        owner = v if v != EMPTY else near
        if owner == 3:
            neutral = True
            counts[0, p] += 1
            for d in (-stride, -1, 1, stride):
                g = head[np.uint64(p + d)]
                if g >= 0:
                    touching[g] = stamp
        else:
            counts[np.uint64(owner), p] += owner != 0
    if neutral:
        for p in range(board.size):
            if head[p] >= 0 and touching[head[p]] == stamp:
                counts[SEKI_ROW, p] += 1


@numba.njit(cache=True, _nrt=False)
def _play_out(board, stride, head, nxt, size, libs, nlibs, empties, slot, n_empty, on_board, removed, keys, h,
              history, colour, state, max_moves, shapes):
    """Play one playout on the prepared strings and empty list until both sides pass,
    a position after a capture comes back, or ``max_moves`` are played; returns the
    state of the random generator after it.

    ``h`` is the Zobrist hash of the starting position and ``colour`` moves first.

    The steps it calls are inlined, and it is compiled without numba's reference
    counting (``_nrt=False``; it allocates nothing and its caller owns every array):
    otherwise each inlined step takes and drops a reference to each array it uses, an
    atomic operation numba's pruning leaves in place when the last uses fall in
    different branches, and those took as long as the moves themselves.
    """
    ko, last, passes, n_history, vital = NO_POINT, NO_POINT, 0, 0, NO_POINT
    for _ in range(max_moves):
        move = NO_POINT
        if last != NO_POINT:
            move = _urgent_move(board, stride, head, nxt, libs, nlibs, slot, last, colour, ko)
            if (move == NO_POINT and vital != NO_POINT and slot[np.uint64(vital)] >= 0
                    and classify_move(board, stride, head, libs, nlibs, vital, colour, ko) != ILLEGAL):
                move = vital
            if move == NO_POINT:
                state, x = splitmix64(state)
                if x % np.uint64(SHAPE_ODDS) != 0:
                    move = _shape_move(board, stride, head, libs, nlibs, slot, last, colour, ko,
                                       x // np.uint64(SHAPE_ODDS), shapes)
        if move == NO_POINT and n_empty > 0:
            state, x = splitmix64(state)
            move = _first_fine_move(board, stride, head, libs, nlibs, empties, n_empty, x, colour, ko)
        if move == NO_POINT:
            passes += 1
            if passes == 2:
                break
            ko, last, vital = NO_POINT, NO_POINT, NO_POINT
        else:
            passes = 0
            ko, h, captured = place_stone(board, stride, head, nxt, size, libs, nlibs, move, colour, removed,
                                          keys, h)
            n_empty = _update_empties(empties, slot, n_empty, move, removed, captured, on_board)
            last = move
            vital = _vital_point(board, stride, removed, captured, 3 - colour)
            if captured:  # only a capture can bring back an earlier position
                if _seen_before(history, n_history, h):
                    break
                history[n_history % history.size] = h
                n_history += 1
        colour = 3 - colour
    return state


def playout_counts(padded: np.ndarray, stride: int, playable: np.ndarray, to_move: int, n_playouts: int,
                   seed: int, check_every: int = 0, margin: float = 0.0) -> tuple[np.ndarray, int]:
    """Run random playouts; per-point ownership counts.

    Parameters
    ----------
    padded : np.ndarray
        Padded int8 board (not modified).
    stride : int
        ``cols + 2``.
    playable : np.ndarray
        bool per padded point: where playouts may put stones (settled points are not).
    to_move : int
        Colour that moves first in even-numbered playouts; odd ones start with the other.
    n_playouts : int
        Most playouts to run.
    seed : int
        Seed of the SplitMix64 stream, so results are reproducible.
    check_every : int
        With ``margin > 0``: after every this many playouts, stop if every stone's
        survival share is far enough from one half that more playouts would not
        change which side of it the share falls.
    margin : float
        Margin of the early stop at the first check (0 disables it); after ``n``
        playouts it is ``margin * sqrt(check_every / n)``, shrinking as the shares'
        standard error does.

    Returns
    -------
    tuple
        ``(counts, n)``: ``counts`` is int32 ``(4, padded.size)``: row ``BLACK`` and
        row ``WHITE`` count the playouts that end with that colour owning the point
        (a stone, or an empty point whose neighbours are all that colour); row 0
        those that end with the point empty next to both colours (a shared liberty,
        the only neutral point a finished playout leaves); row :data:`SEKI_ROW`
        those that end with a stone there whose string touches such a point. ``n``
        is the number of playouts run.
    """
    return _playout_counts(padded, stride, playable, to_move, n_playouts, seed, check_every, margin, SHAPE_TABLE)


@numba.njit(cache=True)
def _playout_counts(padded, stride, playable, to_move, n_playouts, seed, check_every, margin, shapes):
    """:func:`playout_counts`, compiled; ``shapes`` is the table of
    :data:`rulelab.life.shapes.SHAPE_TABLE`, an argument so that a changed table is
    never a stale constant in numba's cache."""
    total = padded.size
    counts = np.zeros((4, total), dtype=np.int32)
    head0, nxt0, size0, libs0, nlibs0 = new_strings(total)
    build_strings(padded, stride, head0, nxt0, size0, libs0, nlibs0)
    heads0 = np.flatnonzero(head0 == np.arange(total))
    board = np.empty_like(padded)
    head, nxt, size, libs, nlibs = new_strings(total)
    removed = np.empty(total, dtype=np.int32)
    touching = np.zeros(total, dtype=np.int32)
    on_board = playable & (padded != WALL)
    empties0 = np.flatnonzero(on_board & (padded == EMPTY)).astype(np.int32)
    slot0 = np.full(total, -1, dtype=np.int32)
    slot0[empties0] = np.arange(empties0.size, dtype=np.int32)
    empties, slot = np.empty(total, dtype=np.int32), np.empty(total, dtype=np.int32)
    stones = (padded == 1) | (padded == 2)
    keys = zobrist_keys(total // stride - 2, stride - 2)
    h0 = zobrist_hash(padded, keys)
    history = np.zeros(REPETITION_WINDOW, dtype=np.uint64)
    state = np.uint64(seed)
    max_moves = 3 * int(on_board.sum()) + 20
    done = 0
    for k in range(n_playouts):
        board[:] = padded
        head[:] = head0
        nxt[:] = nxt0
        size[:] = size0
        for g in heads0:  # other rows are cleared when a stone placed there makes a head
            libs[g, :] = libs0[g, :]
        nlibs[:] = nlibs0
        empties[:empties0.size] = empties0
        slot[:] = slot0
        colour = to_move if k % 2 == 0 else 3 - to_move
        state = _play_out(board, stride, head, nxt, size, libs, nlibs, empties, slot, empties0.size, on_board,
                          removed, keys, h0, history, colour, state, max_moves, shapes)
        _tally(board, stride, head, touching, k + 1, counts)
        done = k + 1
        if margin > 0 and done % check_every == 0 and done < n_playouts:
            clear = True
            needed = margin * np.sqrt(check_every / done)
            for p in range(total):
                if stones[p] and on_board[p] and abs(counts[padded[p], p] / done - 0.5) < needed:
                    clear = False
                    break
            if clear:
                break
    return counts, done
