"""The kernel that gives every point of a final position its class.

The board is read after the dead stones are removed (Tromp–Taylor: none are).
Empty regions touching one colour are that colour's; regions touching both colours
are *neutral* (dame). A colour's *group* is its chains joined through its own
regions. The dame are filled twice (:mod:`.dame`), each time favouring one colour,
then the vital points of three-point eyes left with no other liberty are owed
(:mod:`.vital`), and the seki liberties are those both fillings leave (:mod:`.seki`).
The chains touching them are in seki, as are those of a double-ko seki, of an eye in
atari, and those the exact reader finds in seki (:mod:`.seki_search`). The *seki
points* are the eye regions those chains border, and every region of stones that live
only through them; a group living on its own keeps its territory even where it also
touches a seki eye. Every other neutral point is *open dame*. The
eye points that only the whole-group reading of seki makes seki points (every eye of a
group with a chain in seki, a server's count: ``Ruleset.seki_points='groups'``) keep
their class and are counted apart, for the tally to move.
"""

from __future__ import annotations

import numba
import numpy as np

from rulelab.board import WALL, label_components
from rulelab.position import BLACK, EMPTY, WHITE

from .chains import chain_forest, copy_chains, neighbour_offsets
from rulelab.classes import (
    CLASS_NAMES,
    OPEN_DAME,
    OWED_B,
    SEKI_DAME,
    SEKI_POINT_B,
    SEKI_POINT_W,
    TERRITORY_B,
    WALL_CLASS,
)
from .dame import connect_chains_in_atari, fill_dame
from .seki import double_ko_seki, eye_in_atari_seki, seki_of, seki_shares
from .seki_search import seki_by_reading
from .standing import owe_standing_captures, short_as_it_stands
from .vital import owe_vital_points


NAKADE_MAX = 6
"""Points of the largest eye space a single move inside can kill (the rabbity six): an
empty region of more points makes two eyes on its own."""


@numba.njit(cache=True)
def region_owners(b, nb):
    """Per empty point, the colour bits of the stones bordering its empty region."""
    empty = b == EMPTY
    region, count = label_components(nb[1], empty, empty)
    touch = np.zeros(count, np.int8)
    for p in range(b.size):
        v = b[p]
        if v == BLACK or v == WHITE:
            for k in range(4):
                if empty[p + nb[k]]:
                    touch[region[p + nb[k]]] |= v
    owner = np.zeros(b.size, np.int8)
    for p in range(b.size):
        if empty[p]:
            owner[p] = touch[region[p]]
    return owner


@numba.njit(cache=True)
def classify(b, nb, dead_colour, settled):
    """Classify every point of padded board b, from which the dead stones (their
    colours in dead_colour) are removed; on a settled board (its verdict finished), with
    the captures the dead stones standing call for owed (:mod:`.standing`: on a board
    still open they would read a fight as a filling).

    Returns the class of each point, the stone-scoring tax of each colour
    (index 1, 2), the per-seki division of shared liberties (pairs, odd points), the
    stones in seki (of chains touching a seki liberty on both filled boards), the
    eye points that are seki points under the whole-group reading only (:func:`_groups`),
    and the points owed only for the dead stones standing (``Ruleset.dead_stones``).
    """
    n = b.size
    owner = region_owners(b, nb)
    dame = np.nonzero(owner == 3)[0]

    # Chains in atari connect in their own territory whichever colour is favoured.
    connected = b.copy()
    connected_owed = np.zeros(n, np.int8)
    connected_chains = chain_forest(connected, nb)
    connect_chains_in_atari(connected, nb, owner, connected_owed, connected_chains)
    # Fill the dame twice, each time favouring one colour: a point is owed by a colour
    # when it needs protecting even though that colour filled every dame it could.
    in_seki = np.ones(n, np.bool_)
    seki_liberty = np.ones(n, np.bool_)
    owed = np.zeros(n, np.int8)
    owed_lifted = np.zeros(n, np.bool_)  # owed even with the dead stones lifted first
    short = short_as_it_stands(b, nb, dead_colour) if settled else np.zeros(n, np.bool_)
    for favoured in (BLACK, WHITE):
        filled = connected.copy()
        owed_here = connected_owed.copy()
        chains = copy_chains(connected_chains)
        fill_dame(filled, nb, dame, owner, owed_here, favoured, chains)
        owe_vital_points(filled, nb, owner, dead_colour, owed_here, favoured, chains)
        owed_lifted |= owed_here == favoured
        if settled:
            owe_standing_captures(filled, nb, dead_colour, owner, owed_here, chains, short)
        owed[owed_here == favoured] = favoured
        liberty, stones = seki_of(filled, nb, dame, owner, dead_colour, chains)
        seki_liberty &= liberty
        in_seki &= stones
    in_seki |= double_ko_seki(b, nb) | eye_in_atari_seki(b, nb)
    read_stones, read_liberties = seki_by_reading(b, nb, owner, in_seki)
    in_seki |= read_stones
    seki_liberty |= read_liberties

    tax, seki_region, group_seki = _groups(b, nb, owner, in_seki)
    classes = np.empty(n, np.int8)
    for p in range(n):
        v = b[p]
        if v == WALL:
            classes[p] = WALL_CLASS
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

    return (classes, tax, seki_shares(in_seki, seki_liberty, nb), in_seki & ((b == BLACK) | (b == WHITE)),
            group_seki, (owed != 0) & ~owed_lifted)


@numba.njit(cache=True)
def _groups(b, nb, owner, in_seki):
    """The seki eyes and the stone-scoring tax of each colour.

    Only the eyes of stones that live on their own are territory (J1989 Art. 8
    commentary): an eye region is a seki eye when a chain in seki borders it, or when
    the stones it joins outside the seki live only through the seki eyes: they enclose
    neither two regions no seki chain borders nor one of more than :data:`NAKADE_MAX`
    points. A group that lives on its own keeps its territory even where it touches a
    seki eye. Returns the tax of each colour (index 1 and 2: every seki eye point,
    which a seki group can never fill, and two eye points of each group living on its
    own), the seki eye points, and the eye points that are seki points only under the
    whole-group reading, a server's convention (``Ruleset.seki_points='groups'``): every
    eye of the stones joined through their own eyes to a chain in seki."""
    n = b.size
    tax = np.zeros(3, np.int64)
    seki_region = np.zeros(n, np.bool_)
    group_seki = np.zeros(n, np.bool_)
    for colour in (BLACK, WHITE):
        eyes = owner == colour
        region, regions = label_components(nb[1], eyes, eyes)
        size = np.zeros(regions, np.int64)
        for p in range(n):
            if eyes[p]:
                size[region[p]] += 1
        seki_eye = np.zeros(regions, np.bool_)
        for p in range(n):
            if b[p] == colour and in_seki[p]:
                for k in range(4):
                    if eyes[p + nb[k]]:
                        seki_eye[region[p + nb[k]]] = True
        # the colour's stones outside the seki, joined through the regions it leaves
        free = (b == colour) & ~in_seki
        for p in range(n):
            if eyes[p] and not seki_eye[region[p]]:
                free[p] = True
        group, groups = label_components(nb[1], free, free)
        eye_points = np.zeros(groups, np.int64)
        eyes_made = np.zeros(groups, np.int64)  # a region past NAKADE_MAX makes two
        touches_seki = np.zeros(groups, np.bool_)
        seen = np.zeros(regions, np.bool_)
        for p in range(n):
            g = group[p]
            if g < 0:
                continue
            if eyes[p]:
                eye_points[g] += 1
                if not seen[region[p]]:
                    seen[region[p]] = True
                    eyes_made[g] += 1 if size[region[p]] <= NAKADE_MAX else 2
            else:
                for k in range(4):
                    q = p + nb[k]
                    if eyes[q] and seki_eye[region[q]]:
                        touches_seki[g] = True
        in_seki_only = touches_seki & (eyes_made < 2)
        for p in range(n):
            if eyes[p] and (seki_eye[region[p]] or in_seki_only[group[p]]):
                seki_region[p] = True
                tax[colour] += 1
        for g in range(groups):
            if not in_seki_only[g]:
                tax[colour] += min(eye_points[g], 2)
        joined = (b == colour) | eyes
        whole, wholes = label_components(nb[1], joined, joined)
        whole_in_seki = np.zeros(wholes, np.bool_)
        for p in range(n):
            if b[p] == colour and in_seki[p]:
                whole_in_seki[whole[p]] = True
        for p in range(n):
            if eyes[p] and whole_in_seki[whole[p]] and not seki_region[p]:
                group_seki[p] = True
    return tax, seki_region, group_seki


@numba.njit(cache=True)
def classify_board(board, dead, remove_dead, settled=True):
    """Pad a ``(rows, cols)`` board, classify it (``settled``: as :func:`classify` says), and
    count: the classes of the board;
    in one array, the count of each class followed by dead_black, dead_white,
    dead_in_seki_black, dead_in_seki_white, tax_black, tax_white, seki_pairs and
    seki_odd, then the territory_b, territory_w, owed_b, owed_w, dead_black and
    dead_white points the whole-group reading makes seki points, then the owed_b and
    owed_w points owed only for the dead stones standing (the fields of PointClasses);
    and the stones in seki."""
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
    flat, tax, shares, flat_seki, group_seki, standing = classify(padded, neighbour_offsets(cols), dead_colour,
                                                                  settled)

    n_classes = len(CLASS_NAMES)
    numbers = np.zeros(n_classes + 16, np.int64)
    classes = np.empty((rows, cols), np.int8)
    seki = np.zeros((rows, cols), np.bool_)
    for r in range(rows):
        for c in range(cols):
            p = (r + 1) * stride + c + 1
            k = flat[p]
            classes[r, c] = k
            seki[r, c] = flat_seki[p]
            numbers[k] += 1
            colour = dead_colour[p]
            if colour != EMPTY:
                numbers[n_classes + colour - 1] += 1  # dead_black, dead_white
                if k == SEKI_POINT_B or k == SEKI_POINT_W or k == SEKI_DAME:
                    numbers[n_classes + colour + 1] += 1  # dead_in_seki_black, _white
            if group_seki[p]:  # territory or owed, never a seki point already
                numbers[n_classes + (8 + k - TERRITORY_B if k < OWED_B else 10 + k - OWED_B)] += 1
                if colour != EMPTY:
                    numbers[n_classes + 11 + colour] += 1  # dead_black, dead_white
            elif standing[p]:  # an owed point, never one the whole-group reading moves
                numbers[n_classes + 14 + k - OWED_B] += 1
    numbers[n_classes + 4] = tax[BLACK]
    numbers[n_classes + 5] = tax[WHITE]
    numbers[n_classes + 6] = shares[0]
    numbers[n_classes + 7] = shares[1]
    return classes, numbers, seki
