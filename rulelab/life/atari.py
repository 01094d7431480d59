"""Undecided strings left in atari: captured before the playouts are trusted.

Playouts alternate who moves first, so a capturing race in which one side is already
in atari comes out near a coin toss: the side in atari escapes in the playouts it
starts. Players who pass with a string in atari treat it as lost — its owner did not
save it, and the opponent takes it whenever it matters. So an undecided string in
atari is taken off the board when the capture is clean: no neighbour of it is in
atari too (then whoever moves first wins), and the capturing stone keeps two
liberties (neither a ko nor a snapback). The rest is estimated again.
"""

from __future__ import annotations

import numpy as np
from scipy import ndimage

from rulelab.board import liberty_map
from rulelab.life.enclosure import UNDECIDED
from rulelab.position import BLACK, EMPTY, WHITE

_FOUR = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]])


def cleanly_captured(board: np.ndarray, survival: np.ndarray) -> np.ndarray:
    """Undecided strings in atari that the opponent can take without a ko or snapback.

    Undecided means a survival share between the bounds of
    :data:`rulelab.life.enclosure.UNDECIDED`.

    Parameters
    ----------
    board : np.ndarray
        int8 ``(rows, cols)`` final board.
    survival : np.ndarray
        float ``(rows, cols)``: share of playouts each stone kept its point (NaN on
        empty points).

    Returns
    -------
    np.ndarray
        bool ``(rows, cols)``: stones of the strings to take off.

    Examples
    --------
    >>> from rulelab.position import board_from_diagram
    >>> board = board_from_diagram('''
    ... . X X .
    ... . O O X
    ... . X X .
    ... ''')
    >>> coin_toss = np.where(board != EMPTY, 0.5, np.nan)
    >>> cleanly_captured(board, coin_toss).astype(int)
    array([[0, 0, 0, 0],
           [0, 1, 1, 0],
           [0, 0, 0, 0]])
    """
    in_atari = liberty_map(board) == 1
    undecided = (survival > UNDECIDED[0]) & (survival < UNDECIDED[1])
    captured = np.zeros(board.shape, dtype=bool)
    if not (in_atari & undecided).any():
        return captured
    for colour in (BLACK, WHITE):
        strings, _ = ndimage.label(in_atari & (board == colour), _FOUR)
        for label in np.unique(strings[undecided & (strings > 0)]):
            stones = strings == label
            if (in_atari & (board == 3 - colour) & _liberties(stones)).any():
                continue
            point = tuple(np.argwhere((board == EMPTY) & _liberties(stones))[0])
            after = np.where(stones, EMPTY, board).astype(np.int8)
            after[point] = 3 - colour
            takers, _ = ndimage.label(after == 3 - colour, _FOUR)
            if ((after == EMPTY) & _liberties(takers == takers[point])).sum() >= 2:
                captured |= stones
    return captured


def held_by_ko(board: np.ndarray, survival: np.ndarray, dead: np.ndarray) -> np.ndarray:
    """Undecided single stones in atari whose capture is a ko: left alive.

    The capturing stone would take one stone and keep a single liberty, the captured
    point, so the owner may retake; the stones around that point must be alive (``dead``
    the estimate's verdict), or there is no ko to fight, only dead stones. Players who pass with such a ko open count the
    stone as it stands (kgs-dev 2017-02-18-10), while playouts, which forbid the
    immediate retake, capture it in about half their runs.

    Examples
    --------
    >>> from rulelab.position import board_from_diagram
    >>> board = board_from_diagram('''
    ... . X X O O .
    ... X X O . O O
    ... . X X O O .
    ... ''')
    >>> coin_toss = np.where(board != EMPTY, 0.5, np.nan)
    >>> np.argwhere(held_by_ko(board, coin_toss, board == EMPTY)).tolist()
    [[1, 2]]
    """
    undecided = (survival > UNDECIDED[0]) & (survival < UNDECIDED[1])
    held = np.zeros(board.shape, dtype=bool)
    for row, col in np.argwhere((liberty_map(board) == 1) & undecided):
        stone = np.zeros(board.shape, dtype=bool)
        stone[row, col] = True
        colour = board[row, col]
        if (board[_liberties(stone)] == colour).any():
            continue  # part of a larger string
        taker = (board == EMPTY) & _liberties(stone)
        around = _liberties(taker)
        after = np.where(stone, EMPTY, board).astype(np.int8)
        after[taker] = 3 - colour
        # A single stone, joined to no string of its colour, whose only liberty is the
        # point it took (no other string captured, which would give it more).
        if (after[around] == 3 - colour).any() or (after[around] == EMPTY).sum() != 1:
            continue
        walls = around & (after == colour)
        if (liberty_map(after)[walls] > 0).all() and not dead[walls].any():
            held[row, col] = True
    return held


def _liberties(stones: np.ndarray) -> np.ndarray:
    """Points next to ``stones`` (the caller keeps the empty ones)."""
    return ndimage.binary_dilation(stones, _FOUR) & ~stones

