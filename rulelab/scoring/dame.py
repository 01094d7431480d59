"""Filling the dame as players do before a territory count (J1989 Art. 9).

The neutral points are filled on a copy of the board, once favouring each colour; a
point is *owed* by a colour when it must be filled even though that colour filled
first every dame it could. Each filling, in board order:

1. a chain already in atari whose last liberty lies in its own territory connects
   there (a false eye that must be filled): owed;
2. then, until nothing changes, the first applicable of: a *quiet* fill by the
   favoured colour (its chain keeps two liberties, nothing is captured or put in
   atari); an *atari* fill by the other colour, safe for it and putting chains in
   atari that all escape by one stone on the same neutral point or point of their
   own territory, the escape being played and, inside that territory, owed (the
   KGS count: filling O19 puts P19 in atari, so Q19 is not territory); an escape
   that leaves the chain one liberty, in its own territory, where a stone is quiet
   takes that second protective move too, also owed (kgs-dev 2003-08-31-13: T12,
   then T10); a quiet
   fill by the other colour; an atari fill by the favoured colour; a fill that only
   a protective move makes possible, by the other colour, then by the favoured one:
   the chain the fill joins would keep a single liberty, in its own territory, so
   the filler connects there first (owed) and then fills, quietly or with an atari
   as above (kgs-dev 2017-02-09-5: both sides owe one such point).

``owner`` holds, per empty point, the colour bits bordering its region (3: neutral).
"""

from __future__ import annotations

import numba
import numpy as np

from rulelab.position import BLACK, EMPTY, WHITE

from .chains import (
    chain_liberties,
    is_quiet,
    judge,
    place,
    place_if_quiet,
    root,
    with_stone,
)

ALONE = -1
""":func:`second_protection`: the protective stone is safe by itself."""
UNSAFE = -2
""":func:`second_protection`: no second protective move makes it safe."""


@numba.njit(cache=True)
def connect_chains_in_atari(b, nb, owner, owed, chains):
    """Connect every chain in atari whose last liberty lies in its own territory.

    Each sweep judges each chain once, at its first stone in board order; sweeps
    repeat until one connects nothing.
    """
    judged = np.full(b.size, -1, np.int64)  # the sweep that judged the chain of this root
    sweep = 0
    changed = True
    while changed:
        changed = False
        for p in range(b.size):
            colour = b[p]
            if colour != BLACK and colour != WHITE:
                continue
            chain = root(chains.parent, p)
            if judged[chain] == sweep:
                continue
            judged[chain] = sweep
            libs, q = chain_liberties(chains, p)
            if libs == 1 and owner[q] == colour and place_if_quiet(b, nb, q, colour, chains):
                owed[q] = colour
                changed = True
        sweep += 1


@numba.njit(cache=True)
def second_protection(b, nb, q, colour, owner, chains):
    """After colour's protective stone on empty q, where its chain must connect again:
    ALONE when that stone is quiet; its one liberty left, when that lies in colour's own
    territory and a stone there is quiet; UNSAFE when neither makes it safe (kgs-dev
    2003-08-02-13: escaping at A14 leaves only A18, so both are owed)."""
    if is_quiet(b, nb, q, colour, chains):
        return ALONE
    own, last, captured, ataris, _ = judge(b, nb, q, colour, chains)
    if own == 1 and captured == 0 and ataris == 0 and owner[last] == colour:
        board, board_chains = with_stone(b, nb, q, colour, chains)
        if is_quiet(board, nb, last, colour, board_chains):
            return last
    return UNSAFE


@numba.njit(cache=True)
def escapes(b, nb, p, colour, escape, owner, chains):
    """How the chains colour on empty p puts in atari, whose common last liberty is
    escape (-1: they differ), escape by a stone there: as :func:`second_protection`
    says, UNSAFE when they cannot."""
    if escape < 0:
        return UNSAFE
    board, board_chains = with_stone(b, nb, p, colour, chains)
    return second_protection(board, nb, escape, 3 - colour, owner, board_chains)


@numba.njit(cache=True)
def _escape(b, nb, escape, second, victim, owner, owed, chains):
    """Play the victims' escape, and the second protective move it needs (if any); the
    moves inside the victim's territory are owed."""
    place(b, nb, escape, victim, chains)
    if owner[escape] == victim:
        owed[escape] = victim
    if second != ALONE:
        place(b, nb, second, victim, chains)
        owed[second] = victim


@numba.njit(cache=True)
def _fill_with_atari(b, nb, p, colour, owner, owed, chains):
    """Fill dame p with colour if that ataris chains which all escape by one stone on
    the same neutral point or point of their own territory (and, if that stone leaves
    them one liberty in their territory, a second there); those in territory are owed."""
    victim = 3 - colour
    if not (b[p + nb[0]] == victim or b[p + nb[1]] == victim or b[p + nb[2]] == victim
            or b[p + nb[3]] == victim):
        return False  # no opposing chain beside p to put in atari
    own, _, captured, ataris, escape = judge(b, nb, p, colour, chains)
    if not (own >= 2 and captured == 0 and ataris > 0 and escape >= 0):
        return False
    if owner[escape] != 3 and owner[escape] != victim:
        return False
    second = escapes(b, nb, p, colour, escape, owner, chains)
    if second == UNSAFE:
        return False
    place(b, nb, p, colour, chains)
    _escape(b, nb, escape, second, victim, owner, owed, chains)
    return True


@numba.njit(cache=True)
def _fill_after_connecting(b, nb, p, colour, owner, owed, chains):
    """Fill dame p with colour when only a protective move makes that possible: the
    chain p joins would keep one liberty, in colour's own territory. Colour connects
    there first (owed), then fills p quietly or with an atari that the victims escape
    as in _fill_with_atari."""
    own, last, captured, _, _ = judge(b, nb, p, colour, chains)
    if not (own == 1 and captured == 0 and owner[last] == colour):
        return False
    if not is_quiet(b, nb, last, colour, chains):
        return False
    connected, connected_chains = with_stone(b, nb, last, colour, chains)
    own, _, captured, ataris, escape = judge(connected, nb, p, colour, connected_chains)
    if not (own >= 2 and captured == 0):
        return False
    second = ALONE
    if ataris > 0:
        if not (escape >= 0 and (owner[escape] == 3 or owner[escape] == 3 - colour)):
            return False
        second = escapes(connected, nb, p, colour, escape, owner, connected_chains)
        if second == UNSAFE:
            return False
    place(b, nb, last, colour, chains)
    place(b, nb, p, colour, chains)
    owed[last] = colour
    if ataris > 0:
        _escape(b, nb, escape, second, 3 - colour, owner, owed, chains)
    return True


@numba.njit(cache=True)
def _quiet_sweep(b, nb, dame, size, colour, chains):
    """Every quiet fill colour can make on dame[:size], in board order. Returns whether
    any was made, and how many of those dame are left empty, kept in order in front."""
    made = False
    kept = 0
    for i in range(size):
        p = dame[i]
        if b[p] == EMPTY:
            if place_if_quiet(b, nb, p, colour, chains):
                made = True
            else:
                dame[kept] = p
                kept += 1
    return made, kept


@numba.njit(cache=True)
def _forcing_sweep(b, nb, dame, colour, owner, owed, chains, connecting):
    """The first atari fill (or, if connecting, fill after a protective connection)
    colour can make on the dame, in board order; whether made."""
    for p in dame:
        if b[p] != EMPTY:
            continue
        if connecting:
            made = _fill_after_connecting(b, nb, p, colour, owner, owed, chains)
        else:
            made = _fill_with_atari(b, nb, p, colour, owner, owed, chains)
        if made:
            return True
    return False


@numba.njit(cache=True)
def fill_dame(b, nb, dame, owner, owed, favoured, chains):
    """Fill the neutral points of b, whose chains in atari are connected, with the
    favoured colour filling every dame it can before its opponent moves (chains: those
    of b, kept up to date)."""
    other = 3 - favoured
    left = dame.copy()  # the dame maybe still empty, in board order
    size = left.size
    while True:
        made, size = _quiet_sweep(b, nb, left, size, favoured, chains)
        if made or _forcing_sweep(b, nb, left[:size], other, owner, owed, chains, False):
            continue
        made, size = _quiet_sweep(b, nb, left, size, other, chains)
        if made or _forcing_sweep(b, nb, left[:size], favoured, owner, owed, chains, False):
            continue
        if not (_forcing_sweep(b, nb, left[:size], other, owner, owed, chains, True)
                or _forcing_sweep(b, nb, left[:size], favoured, owner, owed, chains, True)):
            break
