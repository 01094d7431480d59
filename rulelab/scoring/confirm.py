"""Whether a verdict survives confirmation with its dead stones standing (J1989 Art. 7).

J1989 lifts the dead stones only after the game ends (Art. 10-1): until then they stand
on the board, and life is confirmed with them there (Art. 7-1: stones are alive when
the opponent cannot capture them). The count lifts them first, so it never sees a
living chain that the stones it calls dead leave in atari. A verdict is *confirmable*
when no chain it keeps alive, on the board as it stands, is in atari with no
protection: a stone of its own on its last liberty, and a second on the one liberty
that leaves, if one, capture nothing and leave it a single liberty, so the opponent
captures it. A verdict that is not confirmable
is one the rules' confirmation would not uphold (marks taken at their word included).
"""

from __future__ import annotations

import numba
import numpy as np

from rulelab.board import pad
from rulelab.position import BLACK, EMPTY, WHITE

from .chains import chain_forest, chain_liberties, judge, neighbour_offsets, root, with_stone


@numba.njit(cache=True)
def _protected(b, nb, last, colour, chains):
    """Whether a stone of colour on the chain's last liberty ``last``, then one on the
    single liberty that leaves, if one, captures or leaves the chain two liberties."""
    own, then, captured, _, _ = judge(b, nb, last, colour, chains)
    if captured > 0 or own >= 2:
        return True
    if own == 0:
        return False
    board, board_chains = with_stone(b, nb, last, colour, chains)
    own, _, captured, _, _ = judge(board, nb, then, colour, board_chains)
    return captured > 0 or own >= 2


@numba.njit(cache=True)
def _unprotected_in_atari(b, nb, alive):
    """How many chains with a living stone on padded board b are in atari with no
    protection (the module docstring)."""
    chains = chain_forest(b, nb)
    judged = np.zeros(b.size, np.bool_)  # by root
    found = 0
    for p in range(b.size):
        colour = b[p]
        if not alive[p] or (colour != BLACK and colour != WHITE):
            continue
        chain = root(chains.parent, p)
        if judged[chain]:
            continue
        judged[chain] = True
        libs, last = chain_liberties(chains, p)
        if libs == 1 and not _protected(b, nb, last, colour, chains):
            found += 1
    return found


def life_confirmable(board: np.ndarray, dead: np.ndarray) -> bool:
    """Whether the verdict whose dead stones are ``dead`` survives confirmation on
    ``board`` with them standing (the module docstring).

    Examples
    --------
    >>> from rulelab.position import Position
    >>> pos = Position.from_diagram('''
    ...     . X O .
    ...     X O O .
    ... ''')
    >>> alive = np.zeros((2, 4), bool)
    >>> life_confirmable(pos.board, alive), life_confirmable(pos.board, pos.board == 1)
    (False, True)
    """
    board = np.asarray(board, np.int8)
    alive = pad(np.where(dead, EMPTY, board).astype(np.int8)) != EMPTY  # walls: never a stone
    return bool(_unprotected_in_atari(pad(board), neighbour_offsets(board.shape[1]), alive) == 0)
