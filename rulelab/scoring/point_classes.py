"""Every point of a final position classified once per life verdict.

Independent of the ruleset: :func:`rulelab.scoring.score_all` analyses a board once
per way of treating dead stones and lets each ruleset add the classes up.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rulelab.errors import GameError
from rulelab.position import EMPTY, WHITE, Life, Position

from rulelab.classes import CLASS_NAMES
from .classify import classify_board


@dataclass(frozen=True, eq=False)
class PointClasses:
    """Every point of a final position classified for one life verdict."""

    classes: np.ndarray
    """int8 ``(rows, cols)``: one of the class constants (``TERRITORY_B``, ``OWED_W``, ...)."""
    seki: np.ndarray
    """bool ``(rows, cols)``: stones in seki, those of chains touching a seki liberty (the
    one definition of seki: the verdict's seki is this, under the verdict)."""
    counts: tuple[int, ...]
    """How many points fall in each class, indexed by class."""
    dead_black: int
    """Black stones removed as dead (0 when dead stones stay, as in Tromp–Taylor)."""
    dead_white: int
    """White stones removed as dead."""
    dead_in_seki_black: int
    """Removed black stones on a seki point or a seki liberty."""
    dead_in_seki_white: int
    """Removed white stones on a seki point or a seki liberty."""
    tax_black: int
    """Stone-scoring tax of Black: two eye points per group living on its own (fewer where
    it has fewer), every eye point of a group in seki."""
    tax_white: int
    """Stone-scoring tax of White."""
    seki_pairs: int
    """Seki liberties each side receives when each seki's liberties are split in whole points."""
    seki_odd: int
    """Seki liberties left over by that split (one per seki with an odd number)."""
    group_seki: tuple[int, ...]
    """What the whole-group reading of seki (``Ruleset.seki_points='groups'``) makes seki
    points beyond the classes: ``(territory_b, territory_w, owed_b, owed_w, dead_black,
    dead_white)``, its eye points of each class and the dead stones removed from them."""
    standing_owed: tuple[int, ...]
    """Owed points of Black and White owed only because the dead stones stand until the
    end (:mod:`.standing`), which a count lifting them first (``Ruleset.dead_stones=
    'lifted'``) gives back as territory."""


def classify_points(position: Position, life: Life, remove_dead: bool = True) -> PointClasses:
    """Classify every point of ``position`` under the life verdict ``life``.

    Parameters
    ----------
    position : Position
        The final position, dead stones still on the board.
    life : Life
        Which stones are dead (seki is read from the board).
    remove_dead : bool
        False counts every stone as it stands (Tromp–Taylor).

    Returns
    -------
    PointClasses

    Raises
    ------
    GameError
        If the board or the life masks are malformed.

    Examples
    --------
    >>> from rulelab.scoring import TERRITORY_B, TERRITORY_W
    >>> pos = Position.from_diagram('''
    ...     . X O .
    ...     . X O .
    ... ''')
    >>> a = classify_points(pos, Life.all_alive(pos.board))
    >>> int(a.counts[TERRITORY_B]), int(a.counts[TERRITORY_W])
    (2, 2)
    """
    return point_classes_of(life, checked_board(position, life), remove_dead)


def point_classes_of(life: Life, board: np.ndarray, remove_dead: bool) -> PointClasses:
    """:func:`classify_points` of a board :func:`checked_board` returned."""
    dead = life.dead.astype(bool, copy=False)
    classes, numbers, seki = classify_board(board, dead, remove_dead, bool(life.finished))
    counts, rest = numbers[: len(CLASS_NAMES)].tolist(), numbers[len(CLASS_NAMES) :].tolist()
    return PointClasses(classes, seki, tuple(counts), *rest[:8], tuple(rest[8:14]), tuple(rest[14:16]))


def checked_board(position: Position, life: Life) -> np.ndarray:
    """The int8 board of ``position``, once it and the dead mask of ``life`` are well formed."""
    board = np.asarray(position.board)
    if board.ndim != 2 or 0 in board.shape:
        raise GameError(f"A board must be a non-empty 2-D array; got shape {board.shape}")
    if board.min() < EMPTY or board.max() > WHITE:
        raise GameError("A board may hold only 0 (empty), 1 (black) and 2 (white)")
    shape = np.shape(life.dead)
    if shape != board.shape:
        raise GameError(f"Life.dead has shape {shape}, the board {board.shape}")
    return board.astype(np.int8, copy=False)
