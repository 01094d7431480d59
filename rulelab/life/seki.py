"""Seki: live stones that share liberties neither side can fill.

Playouts find seki without a catalogue of shapes: random play fills every dame,
but never a liberty whose filling would put its own string of two or more stones in
atari, so the shared liberties of a seki are the only points that end a playout
empty and next to both colours (:mod:`rulelab.life.playout` counts, per stone, the
playouts in which its string ends touching one). A live string that does so in most
playouts is in seki (Japanese 1989, Art. 8), and territory scoring counts neither
its eyes nor its shared liberties.
"""

from __future__ import annotations

import numpy as np
from scipy import ndimage

from rulelab.position import BLACK, EMPTY, WHITE

SEKI_MAJORITY = 0.5
"""A live string is in seki when more than this share of playouts end with it so."""
SHARED_SHARE = 0.25
"""An empty point is a shared liberty when at least this share of playouts leave it
neutral (a seki with three shared liberties leaves each one a third of the time)."""

_FOUR = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]])


def seki_stones(board: np.ndarray, dead: np.ndarray, seki_share: np.ndarray) -> np.ndarray:
    """Live strings that most playouts leave touching a shared liberty of the board.

    A shared liberty is an empty point next to live stones of both colours that the
    playouts often leave neutral; requiring it on the board itself keeps out points
    that playouts leave empty next to dead stones they could not yet capture.

    Parameters
    ----------
    board : np.ndarray
        int8 ``(rows, cols)`` final board.
    dead : np.ndarray
        bool ``(rows, cols)``: stones judged dead (never in seki).
    seki_share : np.ndarray
        float ``(rows, cols)``: on empty points, share of playouts leaving them
        neutral; on stones, share ending with their string touching a neutral point.

    Returns
    -------
    np.ndarray
        bool ``(rows, cols)``.
    """
    alive = (board != EMPTY) & ~dead
    shared = ((board == EMPTY) & (seki_share >= SHARED_SHARE)
              & _near(alive & (board == BLACK)) & _near(alive & (board == WHITE)))
    seki = np.zeros(board.shape, dtype=bool)
    if not shared.any():  # most boards: no seki, and no strings to label
        return seki
    for colour in (BLACK, WHITE):
        strings, _ = ndimage.label(alive & (board == colour), _FOUR)
        touching = np.unique(strings[_near(shared) & (strings > 0)])
        seki |= np.isin(strings, touching[touching > 0]) & (seki_share > SEKI_MAJORITY)
    return seki


def shared_liberties(board: np.ndarray, dead: np.ndarray, seki: np.ndarray) -> np.ndarray:
    """Empty points (dead stones removed) next to seki stones of both colours.

    Territory rules count these for nobody; the eyes of seki groups are the other
    points such rules refuse, and they touch one colour only.

    Parameters
    ----------
    board : np.ndarray
        int8 ``(rows, cols)`` final board.
    dead, seki : np.ndarray
        bool ``(rows, cols)``: the verdict (see :class:`rulelab.position.Life`).

    Returns
    -------
    np.ndarray
        bool ``(rows, cols)``.

    Examples
    --------
    >>> from rulelab.position import board_from_diagram
    >>> board = board_from_diagram("X . O")
    >>> none = np.zeros(board.shape, dtype=bool)
    >>> shared_liberties(board, none, board > 0).tolist()
    [[False, True, False]]
    """
    empty = (board == EMPTY) | dead
    return empty & _near(seki & (board == BLACK) & ~dead) & _near(seki & (board == WHITE) & ~dead)


def _near(mask: np.ndarray) -> np.ndarray:
    """Points with a 4-neighbour in ``mask``."""
    near = np.zeros_like(mask)
    near[1:, :] |= mask[:-1, :]
    near[:-1, :] |= mask[1:, :]
    near[:, 1:] |= mask[:, :-1]
    near[:, :-1] |= mask[:, 1:]
    return near
