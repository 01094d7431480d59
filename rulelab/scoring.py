"""Exact count of a final position under any :class:`~rulelab.rules.Ruleset`.

The scorer takes a replayed :class:`~rulelab.position.Position` and a
:class:`~rulelab.position.Life` verdict as given, and returns a
:class:`ScoreBreakdown` that keeps every component of the count apart.

Counting happens in two steps. :func:`analyse` classifies every point of the
board once for a life verdict (stone, territory, eye of a group in seki, point
owed to a protective move, seki liberty, open dame); a ruleset then only adds up
classes, so :func:`score_all` scores one position under many rulesets for the
price of one analysis.

What the analysis decides, beyond the life verdict it is given
---------------------------------------------------------------
The board is read after the dead stones are removed (Tromp–Taylor: none are).
Empty regions touching one colour are that colour's; regions touching both
colours are *neutral* (dame). A colour's *group* is its chains joined through its
own regions.

Protective moves (J1989 Art. 9). The neutral points are filled on a copy of the
board the way players fill dame before a territory count, once favouring each
colour; a point is *owed* by a colour when it must be filled even though that
colour filled first every dame it could. Each filling, in board order:

1. a chain already in atari whose last liberty lies in its own territory connects
   there (a false eye that must be filled): owed;
2. then, until nothing changes, the first applicable of: a *quiet* fill by the
   favoured colour (its chain keeps two liberties, nothing is captured or put in
   atari); an *atari* fill by the other colour, safe for it and putting chains in
   atari that all escape by one stone on the same neutral point or point of their
   own territory, the escape being played and, inside that territory, owed (the
   KGS count: filling O19 puts P19 in atari, so Q19 is not territory); a quiet
   fill by the other colour; an atari fill by the favoured colour; a fill that only
   a protective move makes possible, by the other colour, then by the favoured one:
   the chain the fill joins would keep a single liberty, in its own territory, so
   the filler connects there first (owed) and then fills, quietly or with an atari
   as above (kgs-dev 2017-02-09-5: both sides owe one such point).

Seki (J1989 Art. 8). A neutral point left empty on both copies is a *seki
liberty* when neither colour can ever fill it: playing there captures nothing
and leaves the player's chain with one liberty, even after it connects at that
liberty when it lies in its own territory, or leaves opposing chains in atari on an
eye of theirs that gives no escape (the verdict keeps them alive, and a dame fill
cannot kill them: kgs-dev 2017-02-13-1; chains whose last liberty is a dame are
stones the players left on the board, 2017-03-13-3). It is tested with the dead stones put
back as well, so a seki held by a dead stone in an eye is seen. Chains touching a
seki liberty are in seki; a group with a chain in seki is in seki, and the points
of all its regions are *seki points*. The verdict's ``Life.seki`` is not read: an
open dame between live groups is no seki, since either side can fill it safely,
yet playouts on a record that stops with the dame open may call such groups seki.
Dead stones on seki points or seki liberties are *dead in seki*: territory
scoring leaves them on the board and gives no prisoner for them. Every other
neutral point is *open dame*.

Seki liberties are shared as ``Ruleset.shared_points`` says ('pairs' counts per
seki: per connected group of seki chains and their shared liberties). Open dame
count for nobody (``dame_policy='none'``) or are shared alternately starting
with the player to move (``'alternate'``), under area scoring only.

Identities
----------
With ``M_c`` the stones colour ``c`` placed and ``X_c`` what a territory count
refuses colour ``c`` (its seki points, its owed points, and the opposing dead
stones left in seki), every breakdown satisfies
``area_margin - territory_margin == (M_B - M_W) + (X_B - X_W)``, and area counts
satisfy ``A_B + A_W + dame == rows * cols``; :func:`check_identities` checks both.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass, fields
from typing import Iterable

import numba
import numpy as np

from .board import WALL, label_components
from .errors import GameError, RulesError
from .position import BLACK, EMPTY, WHITE, Life, Position
from .rules import Ruleset, check_komi, get_ruleset

# Point classes of the analysed board (values of BoardAnalysis.classes). Stones keep
# their colour's value; an empty board (no region touches a stone) is all open dame.
OPEN_DAME, STONE_B, STONE_W, TERRITORY_B, TERRITORY_W = 0, 1, 2, 3, 4
SEKI_POINT_B, SEKI_POINT_W, OWED_B, OWED_W, SEKI_DAME = 5, 6, 7, 8, 9
CLASS_NAMES = (
    "open_dame", "stone_b", "stone_w", "territory_b", "territory_w", "seki_point_b",
    "seki_point_w", "owed_b", "owed_w", "seki_dame",
)  # fmt: skip
_WALL_CLASS = len(CLASS_NAMES)  # the padding ring, cut off before counting
DAME_POLICIES = ("none", "alternate")


# --------------------------------------------------------------------------- kernels
# Boards inside the kernels are flat int8 arrays padded with a WALL ring, so a
# neighbour is p + nb[k] and no bounds check is needed. ``seen``/``libmark`` hold
# the stamp of the last flood that visited a point, so no array is ever cleared.


@numba.njit(cache=True)
def _tick(clock):
    clock[0] += 1
    return clock[0]


@numba.njit(cache=True)
def _label_empty(b, nb, region, touch):
    """Label the 4-connected empty regions; touch[k] gets the colour bits bordering region k."""
    region[:] = -1
    stack = np.empty(b.size, np.int32)
    count = 0
    for start in range(b.size):
        if b[start] != EMPTY or region[start] >= 0:
            continue
        touch[count] = 0
        region[start] = count
        stack[0] = start
        top = 1
        while top > 0:
            top -= 1
            q = stack[top]
            for k in range(4):
                r = q + nb[k]
                v = b[r]
                if v == EMPTY:
                    if region[r] < 0:
                        region[r] = count
                        stack[top] = r
                        top += 1
                elif v != WALL:
                    touch[count] |= v
        count += 1
    return count


@numba.njit(cache=True)
def _liberties(b, nb, p, seen, libmark, stack, clock):
    """Liberties of the chain at p, counted up to two (all any decision here needs),
    and one of them. A chain with fewer than two is marked in seen whole."""
    s = _tick(clock)
    colour = b[p]
    seen[p] = s
    stack[0] = p
    top = 1
    count = 0
    last = -1
    while top > 0:
        top -= 1
        q = stack[top]
        for k in range(4):
            r = q + nb[k]
            v = b[r]
            if v == colour:
                if seen[r] != s:
                    seen[r] = s
                    stack[top] = r
                    top += 1
            elif v == EMPTY and libmark[r] != s:
                libmark[r] = s
                count += 1
                last = r
                if count == 2:
                    return count, last
    return count, last


@numba.njit(cache=True)
def _judge(b, nb, p, seen, libmark, stack, clock):
    """For the stone just put on p: its chain's liberties, the opposing chains it leaves
    with no liberty and with one, and the one liberty those share (-1 if they differ)."""
    opp = 3 - b[p]
    start = clock[0]
    own, _ = _liberties(b, nb, p, seen, libmark, stack, clock)
    captured = 0
    ataris = 0
    escape = -1
    for k in range(4):
        r = p + nb[k]
        if b[r] == opp and seen[r] <= start:  # not a chain with < 2 liberties seen here
            libs, last = _liberties(b, nb, r, seen, libmark, stack, clock)
            if libs == 0:
                captured += 1
            elif libs == 1:
                escape = last if ataris == 0 or last == escape else -1
                ataris += 1
    return own, captured, ataris, escape


@numba.njit(cache=True, inline="always")
def _quiet_by_sight(b, nb, p, colour):
    """Whether colour on empty p has two liberties of its own and touches no opposing
    chain: quiet whatever the chains beside it."""
    open_sides = 0
    for k in range(4):
        v = b[p + nb[k]]
        if v == 3 - colour:
            return False
        open_sides += v == EMPTY
    return open_sides >= 2


@numba.njit(cache=True)
def _is_quiet(b, nb, p, colour, seen, libmark, stack, clock):
    """Whether colour on empty p keeps two liberties and neither captures nor ataris
    (b is left as it was)."""
    if _quiet_by_sight(b, nb, p, colour):
        return True
    b[p] = colour
    own, captured, ataris, _ = _judge(b, nb, p, seen, libmark, stack, clock)
    b[p] = EMPTY
    return own >= 2 and captured == 0 and ataris == 0


@numba.njit(cache=True)
def _play_if_quiet(b, nb, p, colour, seen, libmark, stack, clock):
    """Put colour on p if it keeps two liberties and neither captures nor ataris."""
    if _is_quiet(b, nb, p, colour, seen, libmark, stack, clock):
        b[p] = colour
        return True
    return False


@numba.njit(cache=True)
def _connect_chains_in_atari(b, nb, owner, owed, seen, libmark, stack, clock):
    """Connect every chain in atari whose last liberty lies in its own territory."""
    changed = True
    while changed:
        changed = False
        scan = clock[0]
        for p in range(b.size):
            colour = b[p]
            if (colour != BLACK and colour != WHITE) or seen[p] > scan:
                continue
            libs, q = _liberties(b, nb, p, seen, libmark, stack, clock)
            if libs == 1 and owner[q] == colour:
                if _play_if_quiet(b, nb, q, colour, seen, libmark, stack, clock):
                    owed[q] = colour
                    changed = True


# The dame fill judges every remaining neutral point on every sweep, and a flood per
# judgement would walk again and again the long chains a filling board grows. So the
# fill and the seki test keep, at the root of each chain in a union-find forest, the
# chain's pseudo-liberties (the empty neighbours of its stones, with repetition) as a
# count, a sum and a sum of squares: the chain has no liberty when the count is 0, and
# exactly one, the mean, when count * squares == sum ** 2 (the equality case of
# Cauchy–Schwarz: all values equal). Stones are only ever added (no fill captures), so
# chains only ever merge.
_Chains = namedtuple("_Chains", ("parent", "libs", "sides"))
"""The forest (parent per point, roots their own), the sums per root (count, sum,
sum of squares), and scratch for the roots of a point's four sides."""


@numba.njit(cache=True, inline="always")
def _root(parent, p):
    """The root of p's chain (halving the path on the way)."""
    while parent[p] != p:
        parent[p] = parent[parent[p]]
        p = parent[p]
    return p


@numba.njit(cache=True, inline="always")
def _add_liberty(libs, root, q, times):
    """Count empty q times more (fewer, if negative) among root's pseudo-liberties."""
    libs[root, 0] += times
    libs[root, 1] += times * q
    libs[root, 2] += times * q * q


@numba.njit(cache=True)
def _chain_forest(b, nb):
    """The chains of b with their pseudo-liberties."""
    parent = np.arange(b.size)
    libs = np.zeros((b.size, 3), np.int64)
    for p in range(b.size):
        v = b[p]
        if v == BLACK or v == WHITE:
            for k in (1, 3):  # below and to the right: every adjacent pair once
                if b[p + nb[k]] == v:
                    parent[_root(parent, p + nb[k])] = _root(parent, p)
    for p in range(b.size):
        v = b[p]
        if v == BLACK or v == WHITE:
            root = _root(parent, p)
            for k in range(4):
                if b[p + nb[k]] == EMPTY:
                    _add_liberty(libs, root, p + nb[k], 1)
    return _Chains(parent, libs, np.empty(4, np.int64))


@numba.njit(cache=True, inline="always")
def _place(b, nb, q, colour, chains):
    """Put colour on empty q: the chains of that colour beside q join it under root
    q, and every chain beside q loses q from its pseudo-liberties."""
    parent, libs = chains.parent, chains.libs
    b[q] = colour
    parent[q] = q
    libs[q, 0], libs[q, 1], libs[q, 2] = 0, 0, 0
    for k in range(4):
        r = q + nb[k]
        v = b[r]
        if v == EMPTY:
            _add_liberty(libs, q, r, 1)
        elif v == BLACK or v == WHITE:
            root = _root(parent, r)
            _add_liberty(libs, root, q, -1)
            if v == colour and root != q:
                parent[root] = q
                for i in range(3):
                    libs[q, i] += libs[root, i]


@numba.njit(cache=True, inline="always")
def _liberty_count(count, total, squares):
    """Liberties (up to two) of pseudo-liberties with these sums, and the one if one."""
    if count == 0:
        return 0, -1
    if count * squares == total * total:
        return 1, total // count
    return 2, -1


@numba.njit(cache=True, inline="always")
def _judge_counted(b, nb, p, colour, chains):
    """What _judge finds for colour put on empty p, and the liberty of its chain if it
    has one, read from the pseudo-liberties of the chains beside p without playing."""
    libs, sides = chains.libs, chains.sides
    count, total, squares = 0, 0, 0  # the pseudo-liberties of colour's chain through p
    for k in range(4):
        r = p + nb[k]
        v = b[r]
        sides[k] = _root(chains.parent, r) if v == BLACK or v == WHITE else -1
        if v == EMPTY:
            count, total, squares = count + 1, total + r, squares + r * r
    captured = 0
    ataris = 0
    escape = -1
    for k in range(4):
        root = sides[k]
        times = 0  # the chain's stones beside p, each counting p once
        for j in range(4):
            if sides[j] == root:
                if j < k:
                    break  # the chain was counted at an earlier side
                times += 1
        if root < 0 or times == 0:
            continue
        n = libs[root, 0] - times
        s = libs[root, 1] - times * p
        sq = libs[root, 2] - times * p * p
        if b[p + nb[k]] == colour:
            count, total, squares = count + n, total + s, squares + sq
        else:
            libs_left, last = _liberty_count(n, s, sq)
            if libs_left == 0:
                captured += 1
            elif libs_left == 1:
                escape = last if ataris == 0 or last == escape else -1
                ataris += 1
    own, liberty = _liberty_count(count, total, squares)
    return own, liberty, captured, ataris, escape


@numba.njit(cache=True, inline="always")
def _fill_if_quiet(b, nb, p, colour, chains):
    """Fill p with colour if it keeps two liberties and neither captures nor ataris."""
    if _quiet_by_sight(b, nb, p, colour):
        _place(b, nb, p, colour, chains)
        return True
    own, _, captured, ataris, _ = _judge_counted(b, nb, p, colour, chains)
    if own >= 2 and captured == 0 and ataris == 0:
        _place(b, nb, p, colour, chains)
        return True
    return False


@numba.njit(cache=True)
def _escapes(b, nb, p, colour, escape, seen, libmark, stack, clock):
    """Whether the chains colour on empty p puts in atari, whose common last liberty is
    escape (-1: they differ), all escape by one quiet stone there (b is left as it was;
    the escape is judged by flood, as the counts do not hold p)."""
    if escape < 0:
        return False
    b[p] = colour
    escapes = _is_quiet(b, nb, escape, 3 - colour, seen, libmark, stack, clock)
    b[p] = EMPTY
    return escapes


@numba.njit(cache=True)
def _fill_with_atari(b, nb, p, colour, owner, owed, chains, seen, libmark, stack, clock):
    """Fill dame p with colour if that ataris chains which all escape by one stone on
    the same neutral point or point of their own territory; the latter is owed."""
    victim = 3 - colour
    if not (b[p + nb[0]] == victim or b[p + nb[1]] == victim or b[p + nb[2]] == victim
            or b[p + nb[3]] == victim):
        return False  # no opposing chain beside p to put in atari
    own, _, captured, ataris, escape = _judge_counted(b, nb, p, colour, chains)
    if not (own >= 2 and captured == 0 and ataris > 0 and escape >= 0):
        return False
    if owner[escape] != 3 and owner[escape] != victim:
        return False
    escapes = _escapes(b, nb, p, colour, escape, seen, libmark, stack, clock)
    if escapes:
        _place(b, nb, p, colour, chains)
        _place(b, nb, escape, victim, chains)
        if owner[escape] == victim:
            owed[escape] = victim
    return escapes


@numba.njit(cache=True)
def _fill_after_connecting(b, nb, p, colour, owner, owed, chains, seen, libmark, stack, clock):
    """Fill dame p with colour when only a protective move makes that possible: the
    chain p joins would keep one liberty, in colour's own territory. Colour connects
    there first (owed), then fills p quietly or with an atari that the victims escape
    as in _fill_with_atari."""
    own, last, captured, _, _ = _judge_counted(b, nb, p, colour, chains)
    if not (own == 1 and captured == 0 and owner[last] == colour):
        return False
    if not _is_quiet(b, nb, last, colour, seen, libmark, stack, clock):
        return False
    b[last] = colour  # judged by flood: the counts hold neither stone yet
    b[p] = colour
    own, captured, ataris, escape = _judge(b, nb, p, seen, libmark, stack, clock)
    fills = own >= 2 and captured == 0
    if fills and ataris > 0:
        fills = escape >= 0 and (owner[escape] == 3 or owner[escape] == 3 - colour)
        if fills:
            b[p] = EMPTY
            fills = _escapes(b, nb, p, colour, escape, seen, libmark, stack, clock)
    b[p] = EMPTY
    b[last] = EMPTY
    if not fills:
        return False
    _place(b, nb, last, colour, chains)
    _place(b, nb, p, colour, chains)
    owed[last] = colour
    if ataris > 0:
        _place(b, nb, escape, 3 - colour, chains)
        if owner[escape] == 3 - colour:
            owed[escape] = 3 - colour
    return True


@numba.njit(cache=True)
def _any_atari_in_own_territory(b, owner, chains):
    """Whether some chain of b has one liberty, in its own territory: else connecting
    chains in atari has nothing to do."""
    libs = chains.libs
    for p in range(b.size):
        if chains.parent[p] == p and (b[p] == BLACK or b[p] == WHITE):
            count, last = _liberty_count(libs[p, 0], libs[p, 1], libs[p, 2])
            if count == 1 and owner[last] == b[p]:
                return True
    return False


@numba.njit(cache=True)
def _quiet_sweep(b, nb, dame, size, colour, chains):
    """Every quiet fill colour can make on dame[:size], in board order. Returns whether
    any was made, and how many of those dame are left empty, kept in order in front."""
    made = False
    kept = 0
    for i in range(size):
        p = dame[i]
        if b[p] == EMPTY:
            if _fill_if_quiet(b, nb, p, colour, chains):
                made = True
            else:
                dame[kept] = p
                kept += 1
    return made, kept


@numba.njit(cache=True)
def _forcing_sweep(b, nb, dame, colour, owner, owed, chains, seen, libmark, stack, clock,
                   connecting):
    """The first atari fill (or, if connecting, fill after a protective connection)
    colour can make on the dame, in board order; whether made."""
    for p in dame:
        if b[p] != EMPTY:
            continue
        if connecting:
            made = _fill_after_connecting(b, nb, p, colour, owner, owed, chains, seen, libmark,
                                          stack, clock)
        else:
            made = _fill_with_atari(b, nb, p, colour, owner, owed, chains, seen, libmark, stack,
                                    clock)
        if made:
            return True
    return False


@numba.njit(cache=True)
def _fill_dame(b, nb, dame, owner, owed, favoured, chains, seen, libmark, stack, clock):
    """Fill the neutral points of b, whose chains in atari are connected, as players do
    before a territory count, with the favoured colour filling every dame it can
    before its opponent moves (chains: those of b, kept up to date)."""
    other = 3 - favoured
    left = dame.copy()  # the dame maybe still empty, in board order
    size = left.size
    while True:
        made, size = _quiet_sweep(b, nb, left, size, favoured, chains)
        if made or _forcing_sweep(b, nb, left[:size], other, owner, owed, chains, seen, libmark,
                                  stack, clock, False):
            continue
        made, size = _quiet_sweep(b, nb, left, size, other, chains)
        if made or _forcing_sweep(b, nb, left[:size], favoured, owner, owed, chains, seen,
                                  libmark, stack, clock, False):
            continue
        if not (_forcing_sweep(b, nb, left[:size], other, owner, owed, chains, seen, libmark,
                               stack, clock, True)
                or _forcing_sweep(b, nb, left[:size], favoured, owner, owed, chains, seen,
                                  libmark, stack, clock, True)):
            break


@numba.njit(cache=True)
def _is_seki_liberty(b, nb, p, owner, chains, seen, libmark, stack, clock):
    """Whether neither colour can ever fill empty p: playing there captures nothing and
    leaves the player's chain capturable, even after connecting at its last liberty
    when that lies in the player's own territory, or leaves opposing chains in atari
    on an eye of theirs that gives no escape (stones the verdict keeps alive, which a
    dame fill cannot kill)."""
    for colour in (BLACK, WHITE):
        own, last, captured, ataris, escape = _judge_counted(b, nb, p, colour, chains)
        fillable = captured > 0 or own >= 2
        if own == 1 and captured == 0 and owner[last] == colour:
            b[p] = colour  # the connection is judged by flood: the counts do not hold p
            fillable = _is_quiet(b, nb, last, colour, seen, libmark, stack, clock)
            b[p] = EMPTY
        if fillable and captured == 0 and ataris > 0 and escape >= 0 and owner[escape] == 3 - colour:
            fillable = _escapes(b, nb, p, colour, escape, seen, libmark, stack, clock)
        if fillable:
            return False
    return True


@numba.njit(cache=True)
def _mark_chain(b, nb, p, mark, stack):
    """Set mark on every stone of the chain at p."""
    colour = b[p]
    mark[p] = True
    stack[0] = p
    top = 1
    while top > 0:
        top -= 1
        q = stack[top]
        for k in range(4):
            r = q + nb[k]
            if b[r] == colour and not mark[r]:
                mark[r] = True
                stack[top] = r
                top += 1


@numba.njit(cache=True)
def _copy_chains(chains):
    """Chains to place stones on, leaving the given ones as they are."""
    return _Chains(chains.parent.copy(), chains.libs.copy(), chains.sides)


@numba.njit(cache=True)
def _put_back(filled, nb, dead_colour, chains):
    """The filled board with the dead stones put back where it is empty, its chains,
    and whether any stone was put back (if none, the given board and chains)."""
    restored = (dead_colour != EMPTY) & (filled == EMPTY)
    if not restored.any():
        return filled, chains, False
    board = filled.copy()
    board_chains = _copy_chains(chains)
    for p in np.flatnonzero(restored):
        _place(board, nb, p, dead_colour[p], board_chains)
    return board, board_chains, True


@numba.njit(cache=True)
def _seki_of(filled, nb, dame, owner, dead_colour, chains, seen, libmark, stack, clock):
    """The seki liberties among the dame left empty on a filled board (whose chains
    are given), and the stones of the chains touching one (in seki)."""
    n = filled.size
    # A seki may be visible only with its dead stones on the board (a dead stone in
    # an eye of a seki group): test each liberty both ways, when any is put back.
    with_dead, dead_chains, restored = filled, chains, False  # put back when first needed
    put_back = False
    seki_liberty = np.zeros(n, np.bool_)
    in_seki = np.zeros(n, np.bool_)
    for p in dame:
        if filled[p] != EMPTY:
            continue
        seki = _is_seki_liberty(filled, nb, p, owner, chains, seen, libmark, stack, clock)
        if not seki and dead_colour[p] == EMPTY:
            if not put_back:
                with_dead, dead_chains, restored = _put_back(filled, nb, dead_colour, chains)
                put_back = True
            seki = restored and _is_seki_liberty(with_dead, nb, p, owner, dead_chains, seen,
                                                 libmark, stack, clock)
        if seki:
            seki_liberty[p] = True
            for k in range(4):
                r = p + nb[k]
                if (filled[r] == BLACK or filled[r] == WHITE) and not in_seki[r]:
                    _mark_chain(filled, nb, r, in_seki, stack)
    return seki_liberty, in_seki


@numba.njit(cache=True)
def _classify(b, nb, dead_colour):
    """Classify every point of padded board b, from which the dead stones (their
    colours in dead_colour) are removed.

    Returns the class of each point, the stone-scoring tax of each colour
    (index 1, 2), and the per-seki division of shared liberties (pairs, odd points).
    """
    n = b.size
    seen = np.zeros(n, np.int64)
    libmark = np.zeros(n, np.int64)
    stack = np.empty(n, np.int32)
    clock = np.zeros(1, np.int64)

    region = np.empty(n, np.int32)
    touch = np.empty(n, np.int8)
    _label_empty(b, nb, region, touch)
    owner = np.zeros(n, np.int8)  # colour bits bordering an empty point's region
    for p in range(n):
        if b[p] == EMPTY:
            owner[p] = touch[region[p]]
    dame = np.nonzero(owner == 3)[0]

    # Chains in atari connect in their own territory whichever colour is favoured.
    connected = b.copy()
    connected_owed = np.zeros(n, np.int8)
    connected_chains = _chain_forest(connected, nb)
    if _any_atari_in_own_territory(connected, owner, connected_chains):
        _connect_chains_in_atari(connected, nb, owner, connected_owed, seen, libmark, stack,
                                 clock)
        connected_chains = _chain_forest(connected, nb)
    # Fill the dame twice, each time favouring one colour: a point is owed by a colour
    # when it needs protecting even though that colour filled every dame it could.
    in_seki = np.ones(n, np.bool_)
    seki_liberty = np.ones(n, np.bool_)
    owed = np.zeros(n, np.int8)
    for favoured in (BLACK, WHITE):
        filled = connected.copy()
        owed_here = connected_owed.copy()
        chains = _copy_chains(connected_chains)
        _fill_dame(filled, nb, dame, owner, owed_here, favoured, chains, seen, libmark, stack,
                   clock)
        for p in range(n):
            if owed_here[p] == favoured:
                owed[p] = favoured
        liberty, stones = _seki_of(
            filled, nb, dame, owner, dead_colour, chains, seen, libmark, stack, clock
        )
        seki_liberty &= liberty
        in_seki &= stones

    tax, seki_region = _groups(b, nb, owner, in_seki)
    classes = np.empty(n, np.int8)
    for p in range(n):
        v = b[p]
        if v == WALL:
            classes[p] = _WALL_CLASS
        elif v != EMPTY:
            classes[p] = v  # STONE_B == BLACK, STONE_W == WHITE
        elif owner[p] == BLACK or owner[p] == WHITE:
            if seki_region[p]:
                classes[p] = SEKI_POINT_B + owner[p] - 1
            elif owed[p] != 0:
                classes[p] = OWED_B + owner[p] - 1
            else:
                classes[p] = TERRITORY_B + owner[p] - 1
        elif seki_liberty[p]:
            classes[p] = SEKI_DAME
        else:
            classes[p] = OPEN_DAME

    return classes, tax, _seki_shares(in_seki, seki_liberty, nb)


@numba.njit(cache=True)
def _groups(b, nb, owner, in_seki):
    """Per colour, groups are chains joined through the colour's own regions. Returns
    the stone-scoring tax of each colour (up to two eye points per group, index 1
    and 2) and the points of the regions of groups with a chain in seki."""
    n = b.size
    tax = np.zeros(3, np.int64)
    seki_region = np.zeros(n, np.bool_)
    for colour in (BLACK, WHITE):
        eyes = owner == colour
        group, count = label_components(nb[1], (b == colour) | eyes, (b == colour) | eyes)
        eye_points = np.zeros(count, np.int64)
        group_in_seki = np.zeros(count, np.bool_)
        for p in range(n):
            if eyes[p]:
                eye_points[group[p]] += 1
            elif group[p] >= 0 and in_seki[p]:
                group_in_seki[group[p]] = True
        for g in range(count):
            tax[colour] += min(eye_points[g], 2)
        for p in range(n):
            if eyes[p] and group_in_seki[group[p]]:
                seki_region[p] = True
    return tax, seki_region


@numba.njit(cache=True)
def _seki_shares(in_seki, seki_liberty, nb):
    """Seki liberties split equally in whole points within each seki (its chains and
    their shared liberties): what each side gets, and what is left over."""
    shares = np.zeros(2, np.int64)
    if not seki_liberty.any():
        return shares
    seki, count = label_components(nb[1], in_seki | seki_liberty, in_seki | seki_liberty)
    liberties = np.zeros(count, np.int64)
    for p in range(in_seki.size):
        if seki_liberty[p]:
            liberties[seki[p]] += 1
    shares[0] = (liberties // 2).sum()
    shares[1] = (liberties % 2).sum()
    return shares


# --------------------------------------------------------------------------- analysis


@dataclass(frozen=True, eq=False)
class BoardAnalysis:
    """Every point of a final position classified for one life verdict.

    Independent of the ruleset: a ruleset only adds the classes up.
    """

    classes: np.ndarray
    """int8 ``(rows, cols)``: one of the class constants (``TERRITORY_B``, ``OWED_W``, ...)."""
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
    """Stone-scoring tax: up to two eye points per living black group."""
    tax_white: int
    """Stone-scoring tax of White."""
    seki_pairs: int
    """Seki liberties each side receives when each seki's liberties are split in whole points."""
    seki_odd: int
    """Seki liberties left over by that split (one per seki with an odd number)."""


def analyse(position: Position, life: Life, remove_dead: bool = True) -> BoardAnalysis:
    """Classify every point of ``position`` under the life verdict ``life``.

    Parameters
    ----------
    position : Position
        The final position, dead stones still on the board.
    life : Life
        Which stones are dead (seki is read from the board, not from ``life.seki``).
    remove_dead : bool
        False counts every stone as it stands (Tromp–Taylor).

    Returns
    -------
    BoardAnalysis

    Raises
    ------
    GameError
        If the board or the life masks are malformed.

    Examples
    --------
    >>> pos = Position.from_diagram('''
    ...     . X O .
    ...     . X O .
    ... ''')
    >>> a = analyse(pos, Life.all_alive(pos.board))
    >>> int(a.counts[TERRITORY_B]), int(a.counts[TERRITORY_W])
    (2, 2)
    """
    return _analyse(life, _checked_board(position, life), remove_dead)


def _analyse(life: Life, board: np.ndarray, remove_dead: bool) -> BoardAnalysis:
    dead = life.dead.astype(bool, copy=False)
    classes, numbers = _analyse_board(board, dead, remove_dead)
    counts, rest = numbers[: len(CLASS_NAMES)].tolist(), numbers[len(CLASS_NAMES) :].tolist()
    return BoardAnalysis(classes, tuple(counts), *rest)


@numba.njit(cache=True)
def _analyse_board(board, dead, remove_dead):
    """Pad the board, classify it, and count: the classes of the board and, in one
    array, the count of each class followed by the numbers of BoardAnalysis."""
    rows, cols = board.shape
    stride = cols + 2
    padded = np.full((rows + 2) * stride, WALL, np.int8)
    dead_colour = np.zeros(padded.size, np.int8)
    for r in range(rows):
        for c in range(cols):
            p = (r + 1) * stride + c + 1
            v = board[r, c]
            if remove_dead and dead[r, c] and v != EMPTY:
                dead_colour[p] = v
                padded[p] = EMPTY
            else:
                padded[p] = v
    neighbours = np.array([-stride, stride, -1, 1], np.int64)
    flat, tax, shares = _classify(padded, neighbours, dead_colour)

    n_classes = len(CLASS_NAMES)
    numbers = np.zeros(n_classes + 8, np.int64)
    classes = np.empty((rows, cols), np.int8)
    for r in range(rows):
        for c in range(cols):
            p = (r + 1) * stride + c + 1
            k = flat[p]
            classes[r, c] = k
            numbers[k] += 1
            colour = dead_colour[p]
            if colour != EMPTY:
                numbers[n_classes + colour - 1] += 1  # dead_black, dead_white
                if k == SEKI_POINT_B or k == SEKI_POINT_W or k == SEKI_DAME:
                    numbers[n_classes + colour + 1] += 1  # dead_in_seki_black, _white
    numbers[n_classes + 4] = tax[BLACK]
    numbers[n_classes + 5] = tax[WHITE]
    numbers[n_classes + 6] = shares[0]
    numbers[n_classes + 7] = shares[1]
    return classes, numbers


def _checked_board(position: Position, life: Life) -> np.ndarray:
    board = np.asarray(position.board)
    if board.ndim != 2 or 0 in board.shape:
        raise GameError(f"A board must be a non-empty 2-D array; got shape {board.shape}")
    if board.min() < EMPTY or board.max() > WHITE:
        raise GameError("A board may hold only 0 (empty), 1 (black) and 2 (white)")
    for mask in ("dead", "seki"):
        shape = np.shape(getattr(life, mask))
        if shape != board.shape:
            raise GameError(f"Life.{mask} has shape {shape}, the board {board.shape}")
    return board.astype(np.int8, copy=False)


# --------------------------------------------------------------------------- scores


@dataclass(frozen=True)
class ScoreBreakdown:
    """The count of one position under one ruleset, every component kept apart.

    Point totals are floats (Chinese splits seki liberties in halves); counts of
    points and stones are ints. Fields that describe the position rather than the
    ruleset (seki points, owed points, ``area_margin``, ``territory_margin``) are
    filled under every ruleset, so that any row can be checked and compared.
    """

    ruleset: str
    """Name of the ruleset."""
    komi: float
    """Komi applied, in points."""
    scoring: str
    """'area' or 'territory'."""
    black_stones: int
    """Black stones on the board at the count: dead stones removed, except those in
    seki under territory scoring."""
    white_stones: int
    """White stones on the board at the count, as for ``black_stones``."""
    black_territory: int
    """Empty points surrounded by Black, less its seki points and owed points."""
    white_territory: int
    """Empty points surrounded by White, less its seki points and owed points."""
    black_prisoners: int
    """White stones Black holds: captured in play, plus dead stones removed."""
    white_prisoners: int
    """Black stones White holds: captured in play, plus dead stones removed."""
    black_seki_points: int
    """Eye points of Black's groups in seki: counted by area, refused by ``seki_tax='seki'``."""
    white_seki_points: int
    """Eye points of White's groups in seki."""
    black_owed: int
    """Black territory that protective moves would fill (J1989 Art. 9): refused by
    territory scoring with ``refuse_owed``, counted by area scoring."""
    white_owed: int
    """White territory that protective moves would fill."""
    black_group_tax: int
    """Points Black pays under stone scoring (up to two eye points per living group)."""
    white_group_tax: int
    """Points White pays under stone scoring."""
    pass_stones_black: int
    """Stones Black handed to White for passing (``pass_stones`` rulesets only); they
    count for White under territory scoring and change nothing under area scoring."""
    pass_stones_white: int
    """Stones White handed to Black for passing."""
    handicap_bonus: int
    """Points White receives for the handicap (included in ``white_points``)."""
    dame: int
    """Empty points counted for nobody."""
    dead_black: int
    """Black stones removed as dead."""
    dead_white: int
    """White stones removed as dead."""
    black_points: float
    """Black's total before komi."""
    white_points: float
    """White's total before komi, handicap bonus included."""
    margin_before_komi: float
    """``black_points - white_points``: the margin at komi k is this minus k."""
    margin: float
    """``margin_before_komi - komi``: positive when Black is ahead."""
    winner: str
    """'B', 'W' or 'draw', the tie-break applied."""
    tie_break: str
    """Who wins at margin 0 under this ruleset: 'draw', or 'black' (Ing)."""
    black_zi: float | None
    """Black's count in zi after komi and compensation, ``(rows*cols + margin) / 2``
    (184.25 is B+7.5 on 19x19): Black wins above half the board. None under
    territory scoring."""
    area_margin: int
    """Black's stones and surrounded points minus White's, dead stones removed as
    this ruleset removes them, seki liberties and open dame for nobody: ``ΔA``."""
    territory_margin: int
    """Black's territory and prisoners minus White's, seki points, owed points and
    dead stones in seki refused as J1989 refuses them: ``ΔT``."""
    dame_policy: str
    """How open dame were counted under area scoring: 'none' or 'alternate'."""
    life_method: str
    """How the life verdict was reached (``Life.method``)."""
    life_confidence: float
    """Confidence of the life verdict (``Life.confidence``)."""
    finished: bool
    """Whether the life layer judged the position settled (``Life.finished``)."""
    dead_in_seki_black: int
    """Dead black stones in a seki: territory scoring leaves them and gives no prisoner."""
    dead_in_seki_white: int
    """Dead white stones in a seki."""
    black_shared: float
    """Seki liberties credited to Black by ``shared_points`` (area scoring)."""
    white_shared: float
    """Seki liberties credited to White by ``shared_points`` (area scoring)."""
    black_dame_filled: int
    """Open dame credited to Black by ``dame_policy='alternate'`` (area scoring)."""
    white_dame_filled: int
    """Open dame credited to White by ``dame_policy='alternate'`` (area scoring)."""
    seki_dame: int
    """Shared liberties of seki: neutral points neither side can fill."""
    open_dame: int
    """Neutral points that are not seki liberties: unfilled dame."""
    handicap: int
    """Handicap stones of the game (``Position.handicap``)."""
    board_points: int
    """rows * cols."""

    def to_record(self) -> dict:
        """The breakdown as flat columns of plain Python values, for the scores table."""
        return {name: getattr(self, name) for name in _FIELD_NAMES}


_FIELD_NAMES = tuple(f.name for f in fields(ScoreBreakdown))


def score(
    position: Position,
    life: Life,
    ruleset: Ruleset | str,
    komi: float | None = None,
    *,
    dame_policy: str = "none",
) -> ScoreBreakdown:
    """Count ``position`` under ``ruleset``.

    Parameters
    ----------
    position : Position
        The final position, dead stones still on the board.
    life : Life
        The life verdict: the dead stones (seki is read from the board).
    ruleset : Ruleset or str
        A ruleset or the name of a preset.
    komi : float, optional
        Komi in points instead of the ruleset's.
    dame_policy : {'none', 'alternate'}
        Open dame under area scoring: counted for nobody, or filled alternately
        starting with the player to move.

    Returns
    -------
    ScoreBreakdown

    Raises
    ------
    RulesError
        For an unknown ruleset or dame policy, or an impossible komi.
    GameError
        If the board or the life masks are malformed.

    Examples
    --------
    >>> pos = Position.from_diagram('''
    ...     . X O .
    ...     . X O .
    ... ''')
    >>> life = Life.all_alive(pos.board)
    >>> score(pos, life, "chinese").margin
    -7.5
    >>> score(pos, life, "japanese", komi=0).winner
    'draw'
    """
    return score_all(position, life, [ruleset], komi, dame_policy=dame_policy)[0]


def score_all(
    position: Position,
    life: Life,
    rulesets: Iterable[Ruleset | str],
    komi: float | None = None,
    *,
    dame_policy: str = "none",
) -> list[ScoreBreakdown]:
    """Count ``position`` under each ruleset, analysing the board once per way of
    treating dead stones (removed, or kept as Tromp–Taylor keeps them).

    Parameters are those of :func:`score`, with ``rulesets`` an iterable of rulesets
    or preset names; returns one breakdown per ruleset, in order.
    """
    board = _checked_board(position, life)
    if dame_policy not in DAME_POLICIES:
        raise RulesError(f"The dame_policy must be one of {DAME_POLICIES}; got {dame_policy!r}")
    resolved = [get_ruleset(r) if isinstance(r, str) else r for r in rulesets]
    for r in resolved:
        if not isinstance(r, Ruleset):
            raise RulesError(f"A ruleset must be a Ruleset or a preset name; got {r!r}")
    if komi is not None:
        komi = check_komi(komi, "argument", board.size)
    has_dead = bool((life.dead & (board != EMPTY)).any())
    analyses: dict[bool, BoardAnalysis] = {}
    scores = []
    for r in resolved:
        k = r.komi if komi is None else komi  # a preset's komi holds on any board size
        removes = r.remove_dead and has_dead
        if removes not in analyses:
            analyses[removes] = _analyse(life, board, removes)
        scores.append(_tally(position, life, r, k, dame_policy, analyses[removes]))
    return scores


def _tally(
    position: Position, life: Life, r: Ruleset, komi: float, dame_policy: str, a: BoardAnalysis
) -> ScoreBreakdown:
    """Add up the classes of ``a`` as ruleset ``r`` counts them."""
    n = a.counts
    both = (BLACK, WHITE)
    stones = {BLACK: n[STONE_B], WHITE: n[STONE_W]}
    territory = {BLACK: n[TERRITORY_B], WHITE: n[TERRITORY_W]}
    seki_points = {BLACK: n[SEKI_POINT_B], WHITE: n[SEKI_POINT_W]}
    owed = {BLACK: n[OWED_B], WHITE: n[OWED_W]}
    dead = {BLACK: a.dead_black, WHITE: a.dead_white}
    dead_in_seki = {BLACK: a.dead_in_seki_black, WHITE: a.dead_in_seki_white}
    captured = {BLACK: position.captured_black, WHITE: position.captured_white}
    seki_dame, open_dame = n[SEKI_DAME], n[OPEN_DAME]

    # The two ruleset-free margins of the module docstring's identity.
    area = {c: stones[c] + territory[c] + seki_points[c] + owed[c] for c in both}
    held_t = {c: captured[3 - c] + dead[3 - c] - dead_in_seki[3 - c] for c in both}
    area_margin = area[BLACK] - area[WHITE]
    territory_margin = territory[BLACK] + held_t[BLACK] - territory[WHITE] - held_t[WHITE]

    zero = {BLACK: 0, WHITE: 0}
    passes = {BLACK: position.passes_black, WHITE: position.passes_white} if r.pass_stones else zero
    tax = {BLACK: a.tax_black, WHITE: a.tax_white} if r.seki_tax == "all" else zero
    seki_counted = zero if r.seki_tax == "seki" else seki_points
    shared = {BLACK: 0.0, WHITE: 0.0}
    filled = zero
    if r.scoring == "area":
        kept = zero
        if r.shared_points == "split":
            shared = {BLACK: seki_dame / 2, WHITE: seki_dame / 2}
        elif r.shared_points == "pairs":
            shared = {BLACK: float(a.seki_pairs), WHITE: float(a.seki_pairs)}
        if dame_policy == "alternate":
            mover = WHITE if position.to_move == WHITE else BLACK
            filled = {mover: (open_dame + 1) // 2, 3 - mover: open_dame // 2}
        unshared = int(seki_dame - shared[BLACK] - shared[WHITE])
        dame = unshared + open_dame - filled[BLACK] - filled[WHITE]
        held = {c: captured[3 - c] + dead[3 - c] for c in both}
        total = {
            c: stones[c] + territory[c] + seki_counted[c] + owed[c] + filled[c] - tax[c] + shared[c]
            for c in both
        }
    else:
        kept = dead_in_seki
        dame = seki_dame + open_dame
        held = held_t
        owed_counted = zero if r.refuse_owed else owed
        total = {
            c: territory[c] + seki_counted[c] + owed_counted[c] + held[c] + passes[3 - c] - tax[c]
            for c in both
        }
    bonus = r.white_handicap_bonus(position.handicap)
    black_points = float(total[BLACK])
    white_points = float(total[WHITE] + bonus)
    before = black_points - white_points
    margin = before - komi
    if margin > 0 or (margin == 0 and r.tie_break == "black"):
        winner = "B"
    else:
        winner = "W" if margin < 0 else "draw"
    return ScoreBreakdown(
        ruleset=r.name,
        komi=komi,
        scoring=r.scoring,
        black_stones=stones[BLACK] + kept[BLACK],
        white_stones=stones[WHITE] + kept[WHITE],
        black_territory=territory[BLACK],
        white_territory=territory[WHITE],
        black_prisoners=held[BLACK],
        white_prisoners=held[WHITE],
        black_seki_points=seki_points[BLACK],
        white_seki_points=seki_points[WHITE],
        black_owed=owed[BLACK],
        white_owed=owed[WHITE],
        black_group_tax=tax[BLACK],
        white_group_tax=tax[WHITE],
        pass_stones_black=passes[BLACK],
        pass_stones_white=passes[WHITE],
        handicap_bonus=bonus,
        dame=dame,
        dead_black=dead[BLACK] - kept[BLACK],
        dead_white=dead[WHITE] - kept[WHITE],
        black_points=black_points,
        white_points=white_points,
        margin_before_komi=before,
        margin=margin,
        winner=winner,
        tie_break=r.tie_break,
        black_zi=(position.board.size + margin) / 2 if r.scoring == "area" else None,
        area_margin=area_margin,
        territory_margin=territory_margin,
        dame_policy=dame_policy,
        life_method=life.method,
        life_confidence=float(life.confidence),
        finished=bool(life.finished),
        dead_in_seki_black=dead_in_seki[BLACK],
        dead_in_seki_white=dead_in_seki[WHITE],
        black_shared=shared[BLACK],
        white_shared=shared[WHITE],
        black_dame_filled=filled[BLACK],
        white_dame_filled=filled[WHITE],
        seki_dame=seki_dame,
        open_dame=open_dame,
        handicap=position.handicap,
        board_points=position.board.size,
    )


def check_identities(
    position: Position,
    life: Life,
    breakdown_area: ScoreBreakdown,
    breakdown_territory: ScoreBreakdown,
) -> list[str]:
    """The identities a count must satisfy, as messages naming each one violated.

    Checked on both breakdowns: ``ΔA − ΔT = (M_B − M_W) + (X_B − X_W)``; stones are
    conserved (on the board = counted + removed, prisoners = captured + removed); only
    stones the verdict calls dead were removed; the margin, the komi and the winner
    agree. On the area breakdown: ``A_B + A_W + dame = rows·cols``. Across the two,
    when both remove the same stones: equal ``area_margin`` and ``territory_margin``.

    Returns
    -------
    list of str
        Empty when every identity holds.
    """
    board = _checked_board(position, life)
    placed = position.placed_black - position.placed_white
    problems = []
    for b in (breakdown_area, breakdown_territory):
        problems += _row_problems(b, board, life, position, placed)
    a, t = breakdown_area, breakdown_territory
    if a.scoring != "area":
        problems.append(f"{a.ruleset}: the area breakdown has {a.scoring} scoring")
    else:
        parts = ("stones", "territory", "seki_points", "owed", "shared", "dame_filled")
        counted = sum(getattr(a, f"{c}_{part}") for c in ("black", "white") for part in parts)
        if counted + a.dame != a.board_points:
            problems.append(
                f"{a.ruleset}: A_B + A_W + dame = {counted + a.dame} != {a.board_points} points"
            )
    same_removed = (a.dead_black, a.dead_white) == (
        t.dead_black + t.dead_in_seki_black,
        t.dead_white + t.dead_in_seki_white,
    )
    if same_removed and (a.area_margin, a.territory_margin) != (t.area_margin, t.territory_margin):
        problems.append(f"{a.ruleset} and {t.ruleset} disagree on area_margin or territory_margin")
    return problems


def _row_problems(
    b: ScoreBreakdown, board: np.ndarray, life: Life, position: Position, placed: int
) -> list[str]:
    """The identities of one breakdown that fail (see :func:`check_identities`)."""
    problems = []
    refused = (b.black_seki_points + b.black_owed + b.dead_in_seki_white) - (
        b.white_seki_points + b.white_owed + b.dead_in_seki_black
    )
    if b.area_margin - b.territory_margin != placed + refused:
        problems.append(
            f"{b.ruleset}: area_margin - territory_margin = {b.area_margin - b.territory_margin}"
            f", but (M_B - M_W) + (X_B - X_W) = {placed} + {refused}"
        )
    for colour, name, holder, captured in (
        (BLACK, "black", "white", position.captured_black),
        (WHITE, "white", "black", position.captured_white),
    ):
        on_board = int((board == colour).sum())
        stones, removed = getattr(b, f"{name}_stones"), getattr(b, f"dead_{name}")
        if stones + removed != on_board:
            problems.append(
                f"{b.ruleset}: {name}: {stones} counted + {removed} removed != {on_board}"
            )
        if getattr(b, f"{holder}_prisoners") != captured + removed:
            problems.append(f"{b.ruleset}: {holder} prisoners != {name} captured + removed")
        if removed > int((life.dead & (board == colour)).sum()):
            problems.append(f"{b.ruleset}: more {name} stones removed than the verdict's dead")
    if b.margin_before_komi != b.black_points - b.white_points:
        problems.append(f"{b.ruleset}: margin_before_komi != black_points - white_points")
    if b.margin != b.margin_before_komi - b.komi:
        problems.append(f"{b.ruleset}: margin != margin_before_komi - komi")
    tie = "B" if b.winner == "B" else "draw"
    expected = "B" if b.margin > 0 else "W" if b.margin < 0 else tie
    if b.winner != expected:
        problems.append(f"{b.ruleset}: winner {b.winner!r} at margin {b.margin}")
    return problems
