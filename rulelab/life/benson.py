"""Benson's unconditional life: stones and regions no sequence of moves can change.

A string is *pass-alive* when it stays on the board even if its owner passes for the
rest of the game and the opponent plays anything legal; a region is *pass-alive
territory* when the opponent cannot make a living string in it. Both are proofs,
not estimates, so scoring can trust them under every ruleset.

The algorithm follows Benson (1976) as KataGo's ``board.cpp`` implements it. A
region (a maximal area not occupied by the player, see
:func:`rulelab.life.regions.label_areas`) is *vital* to a player string when every
point of the region that the opponent could fill is a liberty of that string; a
string needs two healthy vital regions, and a region stays healthy only while every
player string around it is still alive. Where multi-stone suicide is legal the
opponent can empty a region by suicide, so its stones must be liberties-adjacent too
(the stricter test); where suicide is illegal only its empty points count.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

from rulelab.board import pad, point_index
from rulelab.life.regions import label_areas, label_strings
from rulelab.position import BLACK, EMPTY, WHITE


class PassAlive(NamedTuple):
    """What Benson's algorithm proves about a board."""

    alive: np.ndarray
    """bool ``(rows, cols)``: stones of either colour that are pass-alive."""
    territory: np.ndarray
    """int8 ``(rows, cols)``: owner (``BLACK``/``WHITE``) of each point of pass-alive
    territory, opponent stones in it included (they are dead); ``EMPTY`` elsewhere."""


@numba.njit(cache=True)
def _benson_for(padded, stride, player, suicide_legal):
    """Pass-alive strings and territory of ``player``: two bool arrays per padded point."""
    opp = 3 - player
    chain, n_chains = label_strings(padded, stride, player)
    region, n_regions = label_areas(padded, stride, player)
    vital = np.full((n_regions, 4), -1, dtype=np.int32)
    n_vital = np.zeros(n_regions, dtype=np.int32)
    started = np.zeros(n_regions, dtype=np.bool_)
    internal = np.zeros(n_regions, dtype=np.int32)
    adjacent = np.empty(4, dtype=np.int32)
    for p in range(padded.size):
        r = region[p]
        if r < 0:
            continue
        n_adj = 0
        for d in (-stride, -1, 1, stride):
            c = chain[p + d]
            if c >= 0:
                seen = False
                for k in range(n_adj):
                    seen = seen or adjacent[k] == c
                if not seen:
                    adjacent[n_adj] = c
                    n_adj += 1
        if n_adj == 0 and internal[r] < 2:
            internal[r] += 1
        if not (suicide_legal or padded[p] == EMPTY):
            continue
        if not started[r]:
            started[r] = True
            for k in range(n_adj):
                vital[r, k] = adjacent[k]
            n_vital[r] = n_adj
            continue
        kept = 0
        for j in range(n_vital[r]):
            keep = False
            for k in range(n_adj):
                keep = keep or vital[r, j] == adjacent[k]
            if keep:
                vital[r, kept] = vital[r, j]
                kept += 1
        n_vital[r] = kept

    alive = np.ones(n_chains, dtype=np.bool_)
    unhealthy = np.zeros(n_regions, dtype=np.bool_)
    count = np.zeros(n_chains, dtype=np.int32)
    while True:
        count[:] = 0
        for r in range(n_regions):
            if not unhealthy[r]:
                for j in range(n_vital[r]):
                    count[vital[r, j]] += 1
        killed = False
        for c in range(n_chains):
            if alive[c] and count[c] < 2:
                alive[c] = False
                killed = True
        if not killed:
            break
        for p in range(padded.size):
            if chain[p] >= 0 and not alive[chain[p]]:
                for d in (-stride, -1, 1, stride):
                    if region[p + d] >= 0:
                        unhealthy[region[p + d]] = True

    stones = np.zeros(padded.size, dtype=np.bool_)
    territory = np.zeros(padded.size, dtype=np.bool_)
    for p in range(padded.size):
        if chain[p] >= 0:
            stones[p] = alive[chain[p]]
        elif region[p] >= 0 and n_chains > 0:
            territory[p] = internal[region[p]] <= 1 and not unhealthy[region[p]]
    return stones, territory


@numba.njit(cache=True)
def _pass_alive_kernel(board, suicide_legal):
    rows, cols = board.shape
    stride = cols + 2
    padded = pad(board)
    alive = np.zeros((rows, cols), dtype=np.bool_)
    territory = np.zeros((rows, cols), dtype=np.int8)
    for player in (BLACK, WHITE):
        stones, owned = _benson_for(padded, stride, player, suicide_legal)
        for r in range(rows):
            for c in range(cols):
                p = point_index(r, c, cols)
                if stones[p]:
                    alive[r, c] = True
                if owned[p]:
                    territory[r, c] = player
    return alive, territory


def pass_alive(board: np.ndarray, *, suicide_legal: bool = False) -> PassAlive:
    """Prove which stones are pass-alive and which regions are pass-alive territory.

    Parameters
    ----------
    board : np.ndarray
        int8 ``(rows, cols)`` board of ``EMPTY``/``BLACK``/``WHITE``.
    suicide_legal : bool
        Prove under rules where multi-stone suicide is legal (NZ, Tromp–Taylor,
        Ing). That proof is stricter, and it holds under every ruleset.

    Returns
    -------
    PassAlive

    Examples
    --------
    >>> from rulelab.position import board_from_diagram
    >>> board = board_from_diagram('''
    ... . X . X O .
    ... X X X X O .
    ... O O O O O .
    ... . . . . . .
    ... ''')
    >>> proof = pass_alive(board)
    >>> bool(proof.alive[0, 1]), bool(proof.alive[2, 0])
    (True, False)
    >>> int(proof.territory[0, 0]) == BLACK
    True
    """
    return PassAlive(*_pass_alive_kernel(np.ascontiguousarray(board, dtype=np.int8), bool(suicide_legal)))
