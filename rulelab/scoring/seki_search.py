"""Seki found by reading (J1989 Art. 8): groups that cannot live without the opponent's
shortage of liberties, though no liberty of theirs is one the dame fillings leave.

:mod:`.seki` sees a seki through a liberty neither side can fill in one move. Two groups
with eyes of the same size and a shared liberty are in seki as well, yet either side can
fill that liberty without atari: it only loses the race, one move later. So a group of
the verdict's living stones with one eye region of its own, of at most
:data:`~rulelab.life.reading.MAX_EYE_SPACE` points, and liberties outside it that touch
only its own chains and opposing ones (a liberty it shares, not an open dame), is read
with the exact search of :mod:`rulelab.life.reading` on its eye, those liberties and the
other liberties of the opposing chains. It is in seki when

- the opponent moving first cannot capture it,
- it, moving first, cannot capture the opposing chains (if it can, it lives by their
  death, as the verdict should have said), and
- it does not live independently: with its outside liberties taken by opposing stones it
  can be captured, moving on its eye alone.

Its chains and the opposing chains are then in seki, their shared liberties seki
liberties, and so their eyes are no territory (Art. 8 commentary, Figs. 13-14).
"""

from __future__ import annotations

import numba
import numpy as np

from rulelab.board import label_components
from rulelab.life.reading import MAX_EYE_SPACE, MAX_OUTSIDE, MAX_READ_POINTS, attacker_wins, read_depth
from rulelab.position import BLACK, EMPTY, WHITE

SEKI_MAX_STATES = 4_000
"""Positions one read of the seki search may remember before it gives up (the group is
then not in seki by reading), a fifth of the life reader's
:data:`~rulelab.life.reading.MAX_STATES`: scoring kgs-dev, dev-mixed and the default
corpus with ``--finish play``, no seki found needs a read of more than 1,933 positions,
while a board the finisher fills from an open position (a record stopped early) may
hold groups whose reads meet 20,000 positions, 6 microseconds each, and still give up."""


@numba.njit(cache=True)
def _captures(board, stride, defender, space, others, outside, targets, mover):
    """1 if the side against ``defender`` captures a point of ``targets``, ``mover``
    moving first, 0 if not, -1 when the search gives up."""
    return attacker_wins(board, stride, defender, space, others, outside, targets, False,
                         read_depth(len(space), len(outside)), SEKI_MAX_STATES, mover)


@numba.njit(cache=True)
def _largest_chain(chain, stones):
    """The points of the chain (labels ``chain``) holding most of ``stones``, and the rest."""
    labels = chain[stones]
    best, best_count = -1, 0
    for label in np.unique(labels):
        count = (labels == label).sum()
        if count > best_count:
            best, best_count = label, count
    return stones[labels == best], stones[labels != best]


@numba.njit(cache=True)
def _reads_as_seki(b, nb, colour, space, stones, chain):
    """Whether the group of ``stones`` (its one eye region ``space``) is in seki (the
    module docstring), and the opposing stones and shared liberties of that seki."""
    n = b.size
    other = 3 - colour
    none = np.empty(0, np.int64)
    in_group = np.zeros(n, np.bool_)
    in_group[stones] = True
    in_space = np.zeros(n, np.bool_)
    in_space[space] = True
    shared = np.zeros(n, np.bool_)
    for p in stones:
        for k in range(4):
            q = p + nb[k]
            if b[q] == EMPTY and not in_space[q]:
                shared[q] = True
    liberties = np.flatnonzero(shared)
    if liberties.size == 0:  # shut in: the life reader's case, independent when alive
        return False, none, none
    opposing = np.zeros(n, np.bool_)
    for q in liberties:
        for k in range(4):
            r = q + nb[k]
            if b[r] == EMPTY or (b[r] == colour and not in_group[r]):
                return False, none, none  # an open dame, or a way to friends
            if b[r] == other:
                opposing[chain == chain[r]] = True
    theirs = np.zeros(n, np.bool_)
    for p in np.flatnonzero(opposing):
        for k in range(4):
            q = p + nb[k]
            if b[q] == EMPTY and not shared[q]:
                theirs[q] = True
    outside = np.concatenate((liberties, np.flatnonzero(theirs)))
    if theirs.sum() > MAX_OUTSIDE or space.size + outside.size > MAX_READ_POINTS:
        return False, none, none
    stride = nb[1]
    body, rest = _largest_chain(chain, stones)
    # The three reads, the cheapest first: on its eye alone a read has only a few points
    # to play, while one with the outside liberties may meet SEKI_MAX_STATES positions.
    taken = b.copy()
    taken[liberties] = other
    if _captures(taken, stride, colour, space, rest, none, body, colour) != 1:
        return False, none, none  # lives on its eye alone, moving first
    them = np.flatnonzero(opposing)
    their_body, their_rest = _largest_chain(chain, them)
    if _captures(b, stride, other, space, their_rest, outside, their_body, colour) != 0:
        return False, none, none  # lives by capturing them, or not read to the end
    if _captures(b, stride, colour, space, rest, outside, body, other) != 0:
        return False, none, none  # killed, or not read to the end
    return True, them, liberties


@numba.njit(cache=True)
def seki_by_reading(b, nb, owner, in_seki):
    """The stones in seki and their shared liberties found by reading (the module
    docstring) on padded board b without its dead stones, ``owner`` the colour bits of
    each empty point's region, beside the stones ``in_seki`` already."""
    n = b.size
    stride = nb[1]
    stones_in_seki = np.zeros(n, np.bool_)
    seki_liberty = np.zeros(n, np.bool_)
    chain = np.full(n, -1, np.int64)
    for colour in (BLACK, WHITE):
        labels, _ = label_components(stride, b == colour, b == colour)
        for p in range(n):
            if b[p] == colour:
                chain[p] = labels[p] + (colour - 1) * n
    for colour in (BLACK, WHITE):
        eyes = owner == colour
        region, _ = label_components(stride, eyes, eyes)
        joined = (b == colour) | eyes
        group, groups = label_components(stride, joined, joined)
        regions = np.zeros(groups, np.int64)
        eye = np.full(groups, -1, np.int64)
        seen = np.zeros(n, np.bool_)  # by region
        busy = np.zeros(groups, np.bool_)
        for p in range(n):
            g = group[p]
            if g < 0:
                continue
            if eyes[p] and not seen[region[p]]:
                seen[region[p]] = True
                regions[g] += 1
                eye[g] = region[p]
            busy[g] |= in_seki[p] & (b[p] == colour)
        for g in range(groups):
            if regions[g] != 1 or busy[g]:
                continue
            space = np.flatnonzero(eyes & (region == eye[g]))
            if space.size > MAX_EYE_SPACE:
                continue
            stones = np.flatnonzero((group == g) & (b == colour))
            seki, them, liberties = _reads_as_seki(b, nb, colour, space, stones, chain)
            if seki:
                stones_in_seki[stones] = True
                stones_in_seki[them] = True
                seki_liberty[liberties] = True
    return stones_in_seki, seki_liberty
