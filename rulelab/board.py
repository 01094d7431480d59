"""Compiled Go board mechanics: play, strings, liberties, legality, Zobrist hashing.

Every kernel works on a *padded* board: a flat ``np.int8`` array holding the
``rows x cols`` points inside a one-point border of ``WALL``. Point ``(r, c)`` lives at
index ``(r + 1) * stride + c + 1`` with ``stride = cols + 2``, so the four neighbours
of index ``p`` are ``p - stride``, ``p - 1``, ``p + 1`` and ``p + stride`` and no
neighbour lookup ever needs a bounds check. :func:`pad` and :func:`unpad` convert
from and to the plain ``(rows, cols)`` boards of :class:`rulelab.position.Position`.

Flood fills mark the stones they visit by setting bit ``4`` on the stone's colour
(and bit ``8`` on liberties already counted) and clear the marks before returning,
so they need no visited array. Kernels that collect points write them into a
caller-owned ``int32`` scratch buffer of at least ``board.size`` entries (see
:func:`scratch`), which lets a playout reuse one buffer for millions of calls.

Examples
--------
>>> board = empty_board(3, 3)
>>> stride, buf = 3 + 2, scratch(board)
>>> for row, col in [(0, 1), (1, 0)]:
...     _ = play(board, stride, point_index(row, col, 3), BLACK, NO_POINT, SUICIDE_NONE, buf)
>>> int(legality(board, stride, point_index(0, 0, 3), WHITE, NO_POINT, SUICIDE_NONE, buf)) == SUICIDE
True
>>> from rulelab.position import board_to_diagram
>>> print(board_to_diagram(unpad(board, 3, 3)))
. X .
X . .
. . .
"""

from __future__ import annotations

import numba
import numpy as np

from rulelab.errors import GameError
from rulelab.position import BLACK, EMPTY, WHITE

WALL = 3
"""Border sentinel of a padded board: neither a colour nor empty."""
NO_POINT = -1
"""Index meaning "no point" (no ko, a pass)."""
MIN_SIZE, MAX_SIZE = 1, 52
"""Board sides rulelab supports, rows and columns alike: every board SGF can write
(``SZ[1]`` to ``SZ[52]``, and rectangles ``SZ[cols:rows]`` one point wide or more)."""

SUICIDE_NONE, SUICIDE_MULTI, SUICIDE_ANY = 0, 1, 2
"""Suicide rules: forbidden; legal for two or more stones (Ing); always legal (NZ, TT)."""
SUICIDE_RULES = {"none": SUICIDE_NONE, "multi": SUICIDE_MULTI, "any": SUICIDE_ANY}

LEGAL, OCCUPIED, SUICIDE, KO = 0, 1, 2, 3
"""Status codes returned by :func:`play` and :func:`legality`."""
STATUS_NAMES = ("legal", "occupied", "suicide", "ko")

_STONE_MARK = 4
_LIBERTY_MARK = 8


def check_board_size(rows: int, cols: int) -> None:
    """Raise :class:`~rulelab.errors.GameError` unless both sides are integers in 1..52."""
    if not all(isinstance(n, (int, np.integer)) and MIN_SIZE <= n <= MAX_SIZE for n in (rows, cols)):
        raise GameError(f"board size must be {MIN_SIZE}..{MAX_SIZE} on each side; got {rows}x{cols}")


@numba.njit(cache=True)
def point_index(row, col, cols):
    """Index of ``(row, col)`` in a padded board of ``cols`` columns."""
    return (row + 1) * (cols + 2) + col + 1


@numba.njit(cache=True)
def point_coords(p, cols):
    """``(row, col)`` of padded index ``p`` (inverse of :func:`point_index`)."""
    stride = cols + 2
    return p // stride - 1, p % stride - 1


@numba.njit(cache=True)
def empty_board(rows, cols):
    """A padded empty board: ``EMPTY`` inside, ``WALL`` around."""
    board = np.full((rows + 2) * (cols + 2), WALL, dtype=np.int8)
    for r in range(rows):
        start = point_index(r, 0, cols)
        board[start:start + cols] = EMPTY
    return board


@numba.njit(cache=True)
def pad(board):
    """The padded flat copy of a ``(rows, cols)`` int8 board.

    Parameters
    ----------
    board : np.ndarray
        int8 ``(rows, cols)`` board of ``EMPTY``/``BLACK``/``WHITE``.

    Returns
    -------
    np.ndarray
        int8 of length ``(rows + 2) * (cols + 2)``, walls around the points.
    """
    rows, cols = board.shape
    padded = empty_board(rows, cols)
    for r in range(rows):
        start = point_index(r, 0, cols)
        padded[start:start + cols] = board[r]
    return padded


@numba.njit(cache=True)
def unpad(padded, rows, cols):
    """The ``(rows, cols)`` int8 board inside a padded board (a copy)."""
    board = np.empty((rows, cols), dtype=np.int8)
    for r in range(rows):
        start = point_index(r, 0, cols)
        board[r] = padded[start:start + cols]
    return board


def scratch(board: np.ndarray) -> np.ndarray:
    """An ``int32`` buffer large enough for any point list of ``board`` (padded)."""
    return np.empty(board.size, dtype=np.int32)


@numba.njit(cache=True)
def _clear_marks(board, stride, stones, n):
    """Undo the marks a flood fill left on ``stones[:n]`` and their liberties."""
    for i in range(n):
        q = stones[i]
        board[q] &= 3
        for d in (-stride, -1, 1, stride):
            if board[q + d] == _LIBERTY_MARK:
                board[q + d] = EMPTY


@numba.njit(cache=True)
def string_and_liberties(board, stride, p, stones):
    """The string through ``p`` and its number of distinct liberties.

    Parameters
    ----------
    board : np.ndarray
        Padded int8 board; ``board[p]`` must hold a stone.
    stride : int
        ``cols + 2``.
    p : int
        Padded index of a stone.
    stones : np.ndarray
        int32 scratch of at least ``board.size``; receives the string's points.

    Returns
    -------
    tuple of int
        ``(n_stones, n_liberties)``; the points are ``stones[:n_stones]``.
    """
    colour = board[p]
    board[p] = colour | _STONE_MARK
    stones[0] = p
    n, i, liberties = 1, 0, 0
    while i < n:
        q = stones[i]
        i += 1
        for d in (-stride, -1, 1, stride):
            v = board[q + d]
            if v == colour:
                board[q + d] = colour | _STONE_MARK
                stones[n] = q + d
                n += 1
            elif v == EMPTY:
                board[q + d] = _LIBERTY_MARK
                liberties += 1
    _clear_marks(board, stride, stones, n)
    return n, liberties


@numba.njit(cache=True)
def _string_if_dead(board, stride, p, stones):
    """Size of the string through ``p`` if it has no liberty, else 0.

    Stops at the first liberty, which is what makes capture checks cheap; when it
    returns ``n > 0`` the string's points are ``stones[:n]``.
    """
    colour = board[p]
    board[p] = colour | _STONE_MARK
    stones[0] = p
    n, i = 1, 0
    while i < n:
        q = stones[i]
        i += 1
        for d in (-stride, -1, 1, stride):
            v = board[q + d]
            if v == EMPTY:
                for j in range(n):
                    board[stones[j]] = colour
                return 0
            if v == colour:
                board[q + d] = colour | _STONE_MARK
                stones[n] = q + d
                n += 1
    for j in range(n):
        board[stones[j]] = colour
    return n


@numba.njit(cache=True)
def legality(board, stride, p, colour, ko, suicide, stones):
    """Whether ``colour`` may play at ``p``; the board is left as it was.

    Parameters
    ----------
    board : np.ndarray
        Padded int8 board.
    stride : int
        ``cols + 2``.
    p : int
        Padded index of an on-board point.
    colour : int
        ``BLACK`` or ``WHITE``.
    ko : int
        The point the simple ko rule forbids to ``colour`` now, or ``NO_POINT``.
    suicide : int
        ``SUICIDE_NONE``, ``SUICIDE_MULTI`` or ``SUICIDE_ANY``.
    stones : np.ndarray
        int32 scratch of at least ``board.size`` (contents are overwritten).

    Returns
    -------
    int
        ``LEGAL``, ``OCCUPIED``, ``KO`` or ``SUICIDE``.
    """
    if board[p] != EMPTY:
        return OCCUPIED
    if p == ko:
        return KO
    for d in (-stride, -1, 1, stride):
        if board[p + d] == EMPTY:
            return LEGAL
    status = SUICIDE
    board[p] = colour
    for d in (-stride, -1, 1, stride):
        v = board[p + d]
        if v == WALL:
            continue
        dead = _string_if_dead(board, stride, p + d, stones) > 0
        if dead == (v != colour):  # captures an opponent string, or joins a living one
            status = LEGAL
            break
    if status == SUICIDE and suicide != SUICIDE_NONE:
        if suicide_allowed(suicide, string_and_liberties(board, stride, p, stones)[0]):
            status = LEGAL
    board[p] = EMPTY
    return status


@numba.njit(cache=True)
def suicide_allowed(suicide, lost):
    """Whether a move that takes its own string of ``lost`` stones is legal: the one
    statement of the suicide rules (``SUICIDE_MULTI``: of two stones or more)."""
    return suicide == SUICIDE_ANY or (suicide == SUICIDE_MULTI and lost >= 2)


@numba.njit(cache=True)
def play(board, stride, p, colour, ko, suicide, stones):
    """Play ``colour`` at ``p`` with captures, or refuse an illegal move.

    The stone is placed, opponent strings left without liberties are removed, and
    then, only where ``suicide`` allows it, the mover's own string if it has none.

    Parameters
    ----------
    board : np.ndarray
        Padded int8 board, changed in place (unchanged when the move is refused).
    stride : int
        ``cols + 2``.
    p : int
        Padded index of an on-board point.
    colour : int
        ``BLACK`` or ``WHITE``.
    ko : int
        The point the simple ko rule forbids to ``colour`` now, or ``NO_POINT``.
    suicide : int
        ``SUICIDE_NONE``, ``SUICIDE_MULTI`` or ``SUICIDE_ANY``.
    stones : np.ndarray
        int32 scratch of at least ``board.size``; receives the removed points.

    Returns
    -------
    tuple of int
        ``(status, captured, self_captured, ko_point)``: ``status`` is ``LEGAL``,
        ``OCCUPIED``, ``KO`` or ``SUICIDE``; ``captured`` opponent stones and then
        ``self_captured`` own stones were removed, at ``stones[:captured +
        self_captured]``; ``ko_point`` is the point the simple ko rule forbids to
        the opponent on the next move, or ``NO_POINT``.
    """
    if board[p] != EMPTY:
        return OCCUPIED, 0, 0, NO_POINT
    if p == ko:
        return KO, 0, 0, NO_POINT
    opp = 3 - colour
    enclosed = True  # no empty or friendly neighbour: a lone capturing stone makes a ko
    for d in (-stride, -1, 1, stride):
        v = board[p + d]
        if v == EMPTY or v == colour:
            enclosed = False
    board[p] = colour
    captured = 0
    for d in (-stride, -1, 1, stride):
        if board[p + d] == opp:
            n = _string_if_dead(board, stride, p + d, stones[captured:])
            for j in range(captured, captured + n):
                board[stones[j]] = EMPTY
            captured += n
    if captured == 0:
        n = _string_if_dead(board, stride, p, stones)
        if n > 0:
            if not suicide_allowed(suicide, n):
                board[p] = EMPTY
                return SUICIDE, 0, 0, NO_POINT
            for j in range(n):
                board[stones[j]] = EMPTY
            return LEGAL, 0, n, NO_POINT
    if captured == 1 and enclosed:
        return LEGAL, 1, 0, stones[0]
    return LEGAL, captured, 0, NO_POINT


@numba.njit(cache=True)
def label_components(stride, member, seed):
    """Label the 4-connected components of the points of a padded board where ``member``
    is true (never on a wall).

    Every layer that reasons about groups and areas (scoring, life and death, the
    settledness of a position) starts from such a labelling, so it lives here once.

    Parameters
    ----------
    stride : int
        ``cols + 2``.
    member : np.ndarray
        bool per padded point: which points belong to some component.
    seed : np.ndarray
        bool per padded point: a component is labelled only if it holds a seed point.

    Returns
    -------
    tuple
        ``(labels, n)``: int32 label per point (``-1`` outside every labelled
        component) and the number of components, numbered in row-major order of
        their first seed point.
    """
    labels = np.full(member.size, -1, dtype=np.int32)
    queue = np.empty(member.size, dtype=np.int32)
    n = 0
    for start in range(member.size):
        if not seed[start] or not member[start] or labels[start] >= 0:
            continue
        labels[start] = n
        queue[0] = start
        head, tail = 0, 1
        while head < tail:
            p = queue[head]
            head += 1
            for d in (-stride, -1, 1, stride):
                q = p + d
                if member[q] and labels[q] < 0:
                    labels[q] = n
                    queue[tail] = q
                    tail += 1
        n += 1
    return labels, n


@numba.njit(cache=True)
def is_simple_eye(board, stride, p, colour):
    """Whether empty ``p`` has only ``colour`` stones and walls around it.

    Random play that never fills such points ends with the living groups still alive.
    """
    for d in (-stride, -1, 1, stride):
        v = board[p + d]
        if v != colour and v != WALL:
            return False
    return True


@numba.njit(cache=True)
def liberty_map(board):
    """For each stone of a ``(rows, cols)`` board, its string's number of liberties.

    Empty points get ``-1``. Useful for atari and dead-string checks on a whole board.
    """
    rows, cols = board.shape
    stride = cols + 2
    padded = pad(board)
    stones = np.empty(padded.size, dtype=np.int32)
    result = np.full((rows, cols), -1, dtype=np.int32)
    for r in range(rows):
        for c in range(cols):
            if board[r, c] != EMPTY and result[r, c] < 0:
                n, liberties = string_and_liberties(padded, stride, point_index(r, c, cols), stones)
                for j in range(n):
                    rr, cc = point_coords(stones[j], cols)
                    result[rr, cc] = liberties
    return result


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
ZOBRIST_SEED = np.uint64(0x52554C454C4142)  # fixed, so hashes are the same in every run


@numba.njit(cache=True)
def splitmix64(state):
    """One step of the SplitMix64 generator: ``(next_state, random_uint64)``.

    A tiny deterministic generator with no global state, so compiled code that needs
    random numbers (Zobrist keys, random games, playouts) is reproducible from a seed.
    """
    state = np.uint64(state) + _GOLDEN
    z = state
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return state, z ^ (z >> np.uint64(31))


@numba.njit(cache=True)
def zobrist_keys(rows, cols):
    """Zobrist keys ``keys[colour, p]`` (uint64) for a padded ``rows x cols`` board.

    The key of a stone depends only on its colour, row and column (not on the board
    size), so hashes are comparable wherever the same stones stand.
    """
    keys = np.zeros((3, (rows + 2) * (cols + 2)), dtype=np.uint64)
    for colour in (BLACK, WHITE):
        for r in range(rows):
            for c in range(cols):
                slot = (colour * MAX_SIZE + r) * MAX_SIZE + c
                keys[colour, point_index(r, c, cols)] = splitmix64(ZOBRIST_SEED ^ np.uint64(slot))[1]
    return keys


@numba.njit(cache=True)
def zobrist_hash(board, keys):
    """The Zobrist hash of a padded board: XOR of the keys of its stones."""
    h = np.uint64(0)
    for p in range(board.size):
        v = board[p]
        if v == BLACK or v == WHITE:
            h ^= keys[v, p]
    return h
