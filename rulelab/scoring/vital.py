"""The protective move a three-point eye owes once the dame are filled (J1989 Art. 9).

A group whose only liberties, the dame filled, are one eye of three points (a straight
or bent three) lives only if its owner plays the eye's vital point, the point touching
the other two: the opponent's stone there would leave it one eye. That stone is a
protective move inside the owner's territory, so the point is owed, as a chain's
connection is (:mod:`.dame`). An eye that held a lifted dead stone is left to the
verdict: its stones stand until the end and the shape is then no simple three.
"""

from __future__ import annotations

import numba
import numpy as np

from rulelab.board import label_components
from rulelab.position import EMPTY

from .chains import root


@numba.njit(cache=True)
def owe_vital_points(filled, nb, owner, dead_colour, owed, colour, chains):
    """Mark owed (by colour) the vital point of each three-point eye of colour on the
    filled board (whose chains are given) that holds every liberty of the chains
    around it and held no dead stone."""
    n = filled.size
    empty = filled == EMPTY
    eye, count = label_components(nb[1], empty, empty)
    size = np.zeros(count, np.int64)
    eligible = np.ones(count, np.bool_)
    for p in range(n):
        if empty[p]:
            size[eye[p]] += 1
            if owner[p] != colour or dead_colour[p] != EMPTY:
                eligible[eye[p]] = False
    # The one eye each chain of colour has liberties in (-2: more than one).
    chain_eye = np.full(n, -1, np.int64)
    for p in range(n):
        if filled[p] == colour:
            chain = root(chains.parent, p)
            for k in range(4):
                q = p + nb[k]
                if empty[q] and chain_eye[chain] != eye[q]:
                    chain_eye[chain] = eye[q] if chain_eye[chain] == -1 else -2
    for p in range(n):
        if filled[p] == colour and chain_eye[root(chains.parent, p)] == -2:
            for k in range(4):
                q = p + nb[k]
                if empty[q]:
                    eligible[eye[q]] = False  # a chain around it has another liberty
    for p in range(n):
        if empty[p] and size[eye[p]] == 3 and eligible[eye[p]]:
            inside = 0
            for k in range(4):
                q = p + nb[k]
                if empty[q] and eye[q] == eye[p]:
                    inside += 1
            if inside == 2:
                owed[p] = colour
