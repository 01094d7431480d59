"""What a main line puts on the board: its setup and moves as an events array, the
territory marked at its end, and the game's identity.

The events array is the one form in which moves reach replay (:mod:`rulelab.read.replay`):
int16 rows of ``kind, colour, row, col``. Within a node, setup comes before the move:
``AE`` first, then ``AB``, then ``AW``, then ``B``, then ``W``. A node holding both ``B``
and ``W`` (not valid SGF, but written by some converters) plays both, Black first.
Budget: a main line of more than ``MAX_EVENTS`` setup points and moves (one ``AB[aa:ss]``
is 361 points) is a GameError.
"""

from __future__ import annotations

import functools
import hashlib

import numpy as np

from rulelab.errors import GameError
from rulelab.position import BLACK, EMPTY, WHITE, sgf_point
from rulelab.read.sgf.parse import Game

MOVE, SETUP_ADD, SETUP_EMPTY = 0, 1, 2
"""Event kinds (column 0 of an events array): a move or pass, ``AB``/``AW``, ``AE``."""
PASS = -1
"""Row and column of a pass."""

PASS_SIZE_LIMIT = 19
"""On boards up to this size ``tt`` means pass (FF[3] convention); on larger ones it is
a point, and only ``[]`` passes."""

MAX_EVENTS = 250_000
"""Setup points and moves of one main line."""


def game_events(game: Game) -> np.ndarray:
    """Setup and moves of the main line, in play order.

    Parameters
    ----------
    game : Game

    Returns
    -------
    numpy.ndarray
        int16 array of shape (n, 4): ``kind, colour, row, col``. ``kind`` is
        ``MOVE`` (0), ``SETUP_ADD`` (1, ``AB``/``AW`` wherever they stand on the main
        line) or ``SETUP_EMPTY`` (2, ``AE``, colour ``EMPTY``). A pass has row = col = -1.

    Raises
    ------
    GameError
        If a move or setup point is off the board (the message names the move number,
        the node and the value), or the main line has more than ``MAX_EVENTS`` of them.

    Examples
    --------
    >>> from rulelab.read.sgf import parse_game
    >>> game = parse_game("(;SZ[9]AB[aa:ab];B[cc];W[];B[tt])")
    >>> game_events(game).tolist()
    [[1, 1, 0, 0], [1, 1, 1, 0], [0, 1, 2, 2], [0, 2, -1, -1], [0, 1, -1, -1]]
    """
    points, moves = _board_points(*game.size), _move_events(*game.size)
    flat: list[int] = []
    for number, node in enumerate(game.nodes):
        if len(node) == 1:  # most nodes are one move, ``B[pd]``: a single lookup
            [(ident, values)] = node.items()
            event = len(values) == 1 and moves.get(ident, _NO_MOVES).get(values[0])
            if event:
                flat += event
                if len(flat) > _MAX_FLAT:
                    raise _too_many_events(number)
                continue
        if not _SETUP_IDENTS.isdisjoint(node):
            _add_setup_events(flat, node, number, game.size)
        for ident, colour in _MOVES:
            for value in node.get(ident, ()):
                point = points.get(value) or _odd_move_point(value, game.size, flat, number, ident)
                flat += (MOVE, colour, *point)
        if len(flat) > _MAX_FLAT:  # checked here, not in a call: a node costs little more
            raise _too_many_events(number)
    return np.array(flat, dtype=np.int16).reshape(-1, 4)


_MAX_FLAT = 4 * MAX_EVENTS
"""Entries of the flat events list (four per event) of the longest main line read."""


def _too_many_events(node: int) -> GameError:
    return GameError(f"the main line has more than {MAX_EVENTS:,} setup points and moves "
                     f"by node {node}; not read")


_SETUP = (("AE", SETUP_EMPTY, EMPTY), ("AB", SETUP_ADD, BLACK), ("AW", SETUP_ADD, WHITE))
_SETUP_IDENTS = frozenset(ident for ident, _, _ in _SETUP)
_MOVES = (("B", BLACK), ("W", WHITE))
_PASS_POINT = (PASS, PASS)


def _add_setup_events(flat: list[int], node: dict[str, list[str]], number: int,
                      size: tuple[int, int]) -> None:
    for ident, kind, colour in _SETUP:
        for value in node.get(ident, ()):
            for point in _point_list(value, size, f"main-line node {number}: {ident}[{value}]"):
                flat += (kind, colour, *point)
            if len(flat) > _MAX_FLAT:
                raise _too_many_events(number)


@functools.lru_cache(maxsize=None)
def _board_points(rows: int, cols: int) -> dict[str, tuple[int, int]]:
    """Every move value of a board in its plain spelling (``a``-``z`` then ``A``-``Z``),
    passes included."""
    points = {sgf_point(row, col): (row, col) for row in range(rows) for col in range(cols)}
    points[""] = _PASS_POINT
    if max(rows, cols) <= PASS_SIZE_LIMIT:
        points["tt"] = _PASS_POINT
    return points


@functools.lru_cache(maxsize=None)
def _move_events(rows: int, cols: int) -> dict[str, dict[str, tuple[int, int, int, int]]]:
    """Per move ident, the event of every plain move value of a board (passes included)."""
    points = _board_points(rows, cols)
    return {ident: {value: (MOVE, colour, *point) for value, point in points.items()} for ident, colour in _MOVES}


_NO_MOVES: dict[str, tuple[int, int, int, int]] = {}


def _point(value: str, size: tuple[int, int]) -> tuple[int, int] | None:
    """(row, col) of a point value, whitespace ignored; None for passes and off-board values."""
    point = _board_points(*size).get("".join(value.split()))
    return None if point == _PASS_POINT else point


def _odd_move_point(value: str, size: tuple[int, int], flat: list[int], node: int, ident: str):
    """A move value with stray whitespace (``B[oq\\n]``), or a GameError naming it."""
    point = _board_points(*size).get("".join(value.split()))
    if point is None:
        rows, cols = size
        move = flat[::4].count(MOVE) + 1
        raise GameError(
            f"move {move} (main-line node {node}): {ident}[{value}] is not a point of the {cols}x{rows} board"
        )
    return point


def _point_list(value: str, size: tuple[int, int], where: str) -> list[tuple[int, int]]:
    """Points of one list value: ``aa`` or a compressed rectangle ``aa:cc``; ``[]`` is none."""
    if not value.strip():
        return []
    corners = [_point(part, size) for part in value.split(":")]
    if len(corners) > 2 or None in corners:
        rows, cols = size
        raise GameError(f"{where} is not a point or rectangle of the {cols}x{rows} board")
    if len(corners) == 1:
        return corners
    (row_a, col_a), (row_b, col_b) = corners
    return [
        (row, col)
        for row in range(min(row_a, row_b), max(row_a, row_b) + 1)
        for col in range(min(col_a, col_b), max(col_a, col_b) + 1)
    ]


def territory_marks(game: Game) -> np.ndarray | None:
    """The ``TB``/``TW`` markup of the last main-line node that has any.

    Returns
    -------
    numpy.ndarray or None
        int8 board: ``BLACK`` where ``TB`` marks, ``WHITE`` where ``TW`` marks (``TW``
        wins a point marked twice), ``EMPTY`` elsewhere; None if no node has markup.

    Raises
    ------
    GameError
        If a marked point is off the board.

    Examples
    --------
    >>> from rulelab.read.sgf import parse_game
    >>> territory_marks(parse_game("(;SZ[3];B[bb]TB[aa]TW[cc];TB[aa:ab])")).tolist()
    [[1, 0, 0], [1, 0, 0], [0, 0, 0]]
    """
    for number in range(len(game.nodes) - 1, -1, -1):
        node = game.nodes[number]
        if "TB" in node or "TW" in node:
            board = np.zeros(game.size, dtype=np.int8)
            for ident, colour in (("TB", BLACK), ("TW", WHITE)):
                for value in node.get(ident, ()):
                    for row, col in _point_list(value, game.size, f"main-line node {number}: {ident}[{value}]"):
                        board[row, col] = colour
            return board
    return None


def content_hash(game: Game, events: np.ndarray | None = None) -> str:
    """A stable id for the game itself: board size, setup and moves.

    Metadata is left out on purpose: two sources spell players, dates and results
    differently for the same game, while its moves are the same. Whitespace, file and
    encoding do not change the hash. A caller that already holds ``game_events(game)``
    passes them as ``events`` so they are not built twice.

    Raises
    ------
    GameError
        As :func:`game_events`.

    Examples
    --------
    >>> from rulelab.read.sgf import parse_game
    >>> a = parse_game("(;GM[1]SZ[19]PB[Lee];B[pd];W[dd])")
    >>> b = parse_game("(;SZ[19]\\n PB[Lee Sedol]\\n;B[pd]\\n;W[dd])")
    >>> content_hash(a) == content_hash(b), len(content_hash(a))
    (True, 32)
    """
    rows, cols = game.size
    digest = hashlib.blake2b(f"{rows}x{cols};".encode(), digest_size=16)
    events = game_events(game) if events is None else events
    digest.update(events.astype("<i2").tobytes())
    return digest.hexdigest()
