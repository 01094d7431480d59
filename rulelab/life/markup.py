"""Dead stones as the players marked them: the record's ``TB``/``TW`` territory.

Servers such as KGS write the agreed territory into the last node when a game is
counted, dead stones included: a stone standing on a point marked for the other
colour was agreed dead. That is the players' own verdict, so it outranks any proof
or estimate, and it is the ground truth the estimator is measured against.
"""

from __future__ import annotations

import numpy as np

from rulelab.position import EMPTY, Position


def has_markup(position: Position) -> bool:
    """Whether the record carries territory marks that say anything."""
    marks = position.territory_marks
    return marks is not None and bool((marks != EMPTY).any())


def marked_dead(board: np.ndarray, marks: np.ndarray) -> np.ndarray:
    """Stones standing on a point marked as the other colour's territory.

    Parameters
    ----------
    board : np.ndarray
        int8 ``(rows, cols)`` final board.
    marks : np.ndarray
        int8 ``(rows, cols)`` territory marks (``BLACK``/``WHITE``/``EMPTY``).

    Returns
    -------
    np.ndarray
        bool ``(rows, cols)``: the dead stones.

    Examples
    --------
    >>> from rulelab.position import board_from_diagram
    >>> board = board_from_diagram("X O .")
    >>> marks = board_from_diagram(". X X")
    >>> marked_dead(board, marks).tolist()
    [[False, True, False]]
    """
    return (board != EMPTY) & (marks == 3 - board)
