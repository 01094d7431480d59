"""The replayed final position: everything scoring needs, so scoring never replays.

Boards are ``np.int8`` arrays of shape ``(rows, cols)`` holding ``EMPTY``, ``BLACK``
or ``WHITE``. Row 0 is the top edge (SGF's second coordinate letter ``a``), column 0
the left edge (SGF's first letter ``a``). The opponent of colour ``c`` is ``3 - c``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

EMPTY, BLACK, WHITE = 0, 1, 2
COLOUR_NAME = {BLACK: "B", WHITE: "W"}
SGF_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""SGF's coordinate letters: line 1 is ``a``, line 27 ``A``, line 52 ``Z`` (FF[4])."""


def sgf_point(row: int, col: int) -> str:
    """The SGF value of point ``(row, col)``: column letter, then row letter.

    >>> sgf_point(3, 15), sgf_point(36, 26), sgf_point(51, 0)
    ('pd', 'AK', 'aZ')
    """
    return SGF_LETTERS[col] + SGF_LETTERS[row]


def opponent(colour: int) -> int:
    """The other colour."""
    return 3 - colour


@dataclass(frozen=True, eq=False)
class Position:
    """A final position with the history facts that rulesets disagree about.

    The identity ``placed_c == stones_on_board_c + captured_c`` holds for both colours
    (stones removed by ``AE`` are subtracted from ``placed``).
    """

    board: np.ndarray
    """int8 ``(rows, cols)`` final board, dead stones still on it."""
    captured_black: int
    """Black stones captured during play (prisoners taken by White)."""
    captured_white: int
    """White stones captured during play (prisoners taken by Black)."""
    placed_black: int
    """Black stones ever put on the board, setup and handicap included."""
    placed_white: int
    """White stones ever put on the board, setup included."""
    passes_black: int = 0
    passes_white: int = 0
    to_move: int = BLACK
    """The colour whose turn it is after the last move."""
    last_placer: int = EMPTY
    """The colour that placed the last stone (``EMPTY`` if no stone was played)."""
    ko_point: tuple[int, int] | None = None
    """A point ``to_move`` may not play because of the simple ko rule."""
    handicap: int = 0
    """Handicap stones Black received (0 for an even game)."""
    territory_marks: np.ndarray | None = None
    """int8 board of the record's ``TB``/``TW`` marks (BLACK/WHITE/EMPTY), if any."""
    ended_by_passes: bool | None = None
    """Whether the record ends with both players passing; None when not known (a diagram)."""

    @property
    def shape(self) -> tuple[int, int]:
        return self.board.shape

    @property
    def stopped_early(self) -> bool:
        """The record is known to stop before both players passed (a resignation, a
        timeout): its position may be far from settled."""
        return self.ended_by_passes is False

    def to_bytes(self) -> bytes:
        """The board packed one byte per point, row-major (the ``board`` column)."""
        return self.board.astype(np.int8, copy=False).tobytes()

    @staticmethod
    def board_from_bytes(data: bytes, rows: int, cols: int) -> np.ndarray:
        """Inverse of :meth:`to_bytes`."""
        return np.frombuffer(data, dtype=np.int8).reshape(rows, cols).copy()

    @classmethod
    def from_diagram(cls, diagram: str, **facts) -> "Position":
        """Build a position from an ASCII diagram (``X`` black, ``O`` white, ``.`` empty).

        Whitespace between points is ignored; blank lines are skipped. Missing history
        facts default to a game with no captures in which every stone was placed by play.
        """
        board = board_from_diagram(diagram)
        facts.setdefault("captured_black", 0)
        facts.setdefault("captured_white", 0)
        facts.setdefault("placed_black", int((board == BLACK).sum()) + facts["captured_black"])
        facts.setdefault("placed_white", int((board == WHITE).sum()) + facts["captured_white"])
        return cls(board=board, **facts)


def board_from_diagram(diagram: str) -> np.ndarray:
    """Parse an ASCII diagram (``X``/``#``/``B`` black, ``O``/``W`` white, ``.``/``+`` empty)."""
    symbols = {"X": BLACK, "#": BLACK, "B": BLACK, "O": WHITE, "W": WHITE, ".": EMPTY, "+": EMPTY}
    rows = []
    for line in diagram.strip("\n").splitlines():
        cells = [symbols[ch] for ch in line if not ch.isspace()]
        if cells:
            rows.append(cells)
    if not rows or len({len(r) for r in rows}) != 1:
        raise ValueError("a diagram needs equal, non-empty rows")
    return np.array(rows, dtype=np.int8)


def board_to_diagram(board: np.ndarray) -> str:
    """Inverse of :func:`board_from_diagram`, for messages and doctests."""
    chars = np.array([".", "X", "O"])
    return "\n".join(" ".join(chars[row]) for row in board)


@dataclass(frozen=True, eq=False)
class Life:
    """The verdict on which stones of a final position are dead.

    Scoring takes this as given and finds seki on the board itself
    (:attr:`rulelab.scoring.PointClasses.seki`); how the verdict was reached is
    recorded in ``method`` and ``confidence`` so that tables can say what was estimated.
    """

    dead: np.ndarray
    """bool ``(rows, cols)``: stones to remove before counting."""
    method: str
    """How the verdict was reached: 'markup', 'proof', 'estimate', 'none', 'gnugo', ..."""
    confidence: float = 1.0
    """1.0 when proven or marked by the players; lower for estimates."""
    finished: bool = True
    """False when the position is not settled (open borders, ko, groups in atari)."""

    @classmethod
    def all_alive(cls, board: np.ndarray, method: str = "none") -> "Life":
        """Every stone alive: Tromp–Taylor's view of the board."""
        return cls(dead=np.zeros(board.shape, dtype=bool), method=method)
