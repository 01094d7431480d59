"""Exact reading of groups shut in around one small eye space.

Playouts judge most groups well, but a few small eye shapes are decided by one
precise move or by a ko: straight and bent three, bulky five, a throw-in, and above
all the bent four in the corner, which the Japanese 1989 rules declare dead because
the confirmation of life and death lets a ko be retaken only after a pass for it.

A group qualifies when every liberty of its strings lies in one small area its
colour does not occupy (its eye space, which may hold opponent stones): then its
fate is decided inside that area alone, and a tiny exhaustive search settles it:
the group dies when its largest string is captured (a lone stone beside the eye space
may be given up, and its point is then played on like the rest). The search lets the
attacker move first and applies the 1989 ko rule (the first
side to take a ko keeps it), then asks again with the defender free to retake every
ko, to tell a kill that needs a ko from an unconditional one.

A false seki is read too: a group sharing its eye space with attacker stones, which the
playouts leave in seki, but which also has a few liberties outside, in the attacker's
own area. Random play rarely fills those before the shared ones, yet once they are
filled the attacker kills, as in three stones in the corner with two shared liberties
(a bent four in the corner). Both sides play on those liberties too, neither beyond
them, so the search only ever takes such a group's death: its life would need the
defender's moves elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numba
import numpy as np
from scipy import ndimage

from rulelab.board import LEGAL, NO_POINT, SUICIDE_NONE, pad, play, splitmix64, zobrist_hash, zobrist_keys
from rulelab.life.regions import label_areas, label_strings
from rulelab.position import BLACK, EMPTY, WHITE

MAX_EYE_SPACE = 6
"""Largest eye space read exactly (its points, empty or occupied by the attacker)."""
MAX_OUTSIDE = 3
"""Most liberties a possible false seki's group may have outside its eye space."""
MAX_READ_POINTS = 8
"""Most points of the eye space and outside liberties together in one search."""
MAX_OUTSIDE_AREA = 20
"""Largest empty area the outside liberties may lie in: a wider one may give the
defender room to live."""
CONTESTED = 0.25
"""Share of playouts in seki that makes a point worth reading as a possible false seki."""
DOOMED = 0.1
"""Survival below which a stone is no obstacle to the attacker's filling."""
MAX_STATES = 20_000
"""Positions one search may remember before it gives up and leaves the group to the
playouts: a few groups whose captures reopen points would take minutes."""


@dataclass(frozen=True)
class EnclosedGroup:
    """A group whose only liberties lie in one small eye space (padded indices)."""

    colour: int
    """The defender's colour."""
    space: tuple[int, ...]
    """Points of the eye space: empty or holding attacker stones."""
    stones: tuple[int, ...]
    """The defender's stones around the eye space."""
    walls: tuple[int, ...]
    """Attacker stones touching the defender from outside."""
    body: tuple[int, ...]
    """The defender's largest string: the group dies when it is captured (a smaller
    string around the eye space may be given up to make the eyes)."""
    outside: tuple[int, ...] = ()
    """The defender's liberties outside the eye space, in the attacker's own area: both
    sides may play on them, neither beyond them."""


@numba.njit(cache=True)
def _shut_in_areas(padded, stride, colour, contested):
    """Labels of ``colour``'s strings and areas, which areas shut a group in, and which
    others may hold a false seki.

    An area shuts a group in when it is small and every ``colour`` string touching it
    has all its liberties inside it; a small area that does not, holds opponent stones
    and a ``contested`` point (one the playouts leave in seki) may be a false seki: one
    the attacker breaks by filling the outside liberties.
    """
    strings, n_strings = label_strings(padded, stride, colour)
    areas, n_areas = label_areas(padded, stride, colour)
    liberty_area = np.full(n_strings, -1, dtype=np.int32)
    for p in range(padded.size):
        if padded[p] == EMPTY:
            for d in (-stride, -1, 1, stride):
                s = strings[p + d]
                if s >= 0 and liberty_area[s] != areas[p]:
                    liberty_area[s] = areas[p] if liberty_area[s] == -1 else -2
    size = np.zeros(n_areas, dtype=np.int32)
    shut = np.ones(n_areas, dtype=np.bool_)
    seki_like = np.zeros(n_areas, dtype=np.bool_)
    for p in range(padded.size):
        a = areas[p]
        if a >= 0:
            size[a] += 1
            seki_like[a] |= padded[p] == 3 - colour and contested[p]
            for d in (-stride, -1, 1, stride):
                s = strings[p + d]
                if s >= 0 and liberty_area[s] != a:
                    shut[a] = False
    small = size <= MAX_EYE_SPACE
    return strings, areas, shut & small, ~shut & small & seki_like


def enclosed_groups(padded: np.ndarray, stride: int, contested=None, fillable=None) -> list[EnclosedGroup]:
    """Every group shut in around one eye space of at most :data:`MAX_EYE_SPACE` points,
    and, given ``contested`` (padded bool: points the playouts leave in seki) and
    ``fillable(outside, stones)`` (padded indices: can the attacker fill these?), the
    possible false seki with up to :data:`MAX_OUTSIDE` liberties outside it."""
    groups = []
    offsets = np.array([-stride, -1, 1, stride])
    if contested is None:
        contested = np.zeros(padded.size, dtype=bool)
    for colour in (BLACK, WHITE):
        strings, areas, shut, seki_like = _shut_in_areas(padded, stride, colour, contested)
        for area in np.flatnonzero(shut | seki_like):
            space = np.flatnonzero(areas == area)
            around = np.unique(strings[(space[:, None] + offsets).ravel()])
            stones = np.flatnonzero(np.isin(strings, around[around >= 0]))
            if stones.size == 0:  # a small board holding none of the colour's stones
                continue
            neighbours = (stones[:, None] + offsets).ravel()
            outside = ()
            if not shut[area]:
                liberties = np.unique(neighbours[padded[neighbours] == EMPTY])
                outside = tuple(liberties[~np.isin(liberties, space)].tolist())
                if (len(outside) > MAX_OUTSIDE or len(space) + len(outside) > MAX_READ_POINTS
                        or not fillable(outside, stones)):
                    continue
            walls = np.unique(neighbours[(padded[neighbours] == 3 - colour) & ~np.isin(neighbours, space)])
            if outside and not _walls_hold(padded, stride, colour, walls, space.tolist() + list(outside), outside):
                continue
            body = np.flatnonzero(strings == np.bincount(strings[stones]).argmax())
            groups.append(EnclosedGroup(colour, tuple(space.tolist()), tuple(stones.tolist()),
                                        tuple(walls.tolist()), tuple(body.tolist()), outside))
    return groups


def _walls_hold(padded, stride, colour, walls, read, outside) -> bool:
    """Every attacker string of ``walls`` keeps more liberties off the ``read`` points
    than the defender has ``outside``: the attacker fills those before the defender, who
    moves only on the read points, could have taken the wall in a race."""
    strings, _ = label_strings(padded, stride, 3 - colour)
    offsets = np.array([-stride, -1, 1, stride])
    for label in np.unique(strings[list(walls)]):
        members = np.flatnonzero(strings == label)
        liberties = np.unique((members[:, None] + offsets).ravel())
        liberties = liberties[(padded[liberties] == EMPTY) & ~np.isin(liberties, read)]
        if len(liberties) <= len(outside):
            return False
    return True


@numba.njit(cache=True)
def _memo_slots(max_states):
    """Slots of the search's hash table: a power of two, at least twice ``max_states``
    (sized to the search's own cap: a table filled for a larger one would cost a small
    read more than its moves)."""
    slots = 1
    while slots < 2 * max_states:
        slots *= 2
    return slots


@numba.njit(cache=True, inline="always")
def _state_hash(board_key, colour, passes, ko, holder):
    """The hash of a search state: its board's Zobrist hash mixed with its other parts."""
    h = board_key
    for v in (colour, passes, ko + 1, holder):
        h = splitmix64(h ^ np.uint64(v))[1]
    return h


@numba.njit(cache=True, inline="always")
def _back_to_parent(level, result, attacker, outcome, tried, n_moves):
    """Leave the position at ``level`` with its ``result``: a win for the parent's mover
    decides the parent, whose other moves are then skipped. The parent's level, -1 from
    the root."""
    level -= 1
    if level >= 0 and result == attacker[level]:
        outcome[level] = result
        tried[level] = n_moves[level]
    return level


@numba.njit(cache=True)
def read_depth(space_points, outside_points):
    """How many moves the exact search reads over a fight on these many points: each
    point may be played twice (taken, then filled again), and a few moves more."""
    return 2 * (space_points + outside_points) + 8


@numba.njit(cache=True)
def attacker_wins(padded, stride, defender, space, others, outside, targets, defender_retakes_ko,
                   depth_limit, max_states, mover):
    """Can the attacker capture a point of ``targets`` (the defender's largest string)?
    1 if so, 0 if not, -1 when the search meets ``max_states`` positions first.

    A depth-first search over the moves on ``space``, the points of the defender's
    ``others`` stones once captured, and ``outside``, then a pass, from ``mover`` to move:
    a position is won for the side to move when one of its moves wins, and lost (for
    the attacker) after two passes or beyond ``depth_limit`` moves. Each position met
    is remembered, by its whole board, side to move, passes and ko, and counts as lost
    for the attacker while it is being searched (a cycle back to it captures nothing).
    ``ko`` is banned to the side that is not its holder until the holder plays
    elsewhere: taking a ko first wins it (the 1989 rule, under which retaking needs a
    pass for that ko, which gives the holder time to settle it), unless
    ``defender_retakes_ko``. The stack of positions is kept in arrays, one row per depth.
    """
    n = padded.size
    levels = depth_limit + 2
    boards = np.empty((levels, n), np.int8)
    stone_keys = zobrist_keys(n // stride - 2, stride - 2)
    keys = np.empty(levels, np.uint64)  # the boards' Zobrist hashes, kept move by move
    colour = np.empty(levels, np.int64)
    passes = np.empty(levels, np.int64)
    ko = np.empty(levels, np.int64)
    holder = np.empty(levels, np.int64)
    entry = np.empty(levels, np.int64)
    outcome = np.empty(levels, np.bool_)
    attacker = np.empty(levels, np.bool_)
    moves = np.empty((levels, len(space) + len(others) + len(outside) + 1), np.int64)
    n_moves = np.empty(levels, np.int64)
    tried = np.empty(levels, np.int64)
    scratch = np.empty(n, np.int32)
    mask = _memo_slots(max_states) - 1
    slots = np.full(mask + 1, -1, np.int64)
    hashes = np.empty(max_states, np.uint64)
    facts = np.empty((max_states, 4), np.int64)
    values = np.empty(max_states, np.bool_)
    stored = np.empty((min(max_states, 256), n), np.int8)
    count = 0
    boards[0, :] = padded
    keys[0] = zobrist_hash(padded, stone_keys)
    colour[0], passes[0], ko[0], holder[0] = mover, 0, NO_POINT, EMPTY
    level, new = 0, True
    while True:
        if new:  # the position at ``level`` is known, lost, or searched from here
            new = False
            result = False
            searched = False
            if passes[level] < 2 and level <= depth_limit:
                board = boards[level]
                h = _state_hash(keys[level], colour[level], passes[level], ko[level], holder[level])
                slot = np.int64(h & np.uint64(mask))
                known = -1
                while slots[slot] >= 0:
                    e = slots[slot]
                    if (hashes[e] == h and facts[e, 0] == colour[level] and facts[e, 1] == passes[level]
                            and facts[e, 2] == ko[level] and facts[e, 3] == holder[level]
                            and np.array_equal(stored[e], board)):
                        known = e
                        break
                    slot = (slot + 1) & mask
                if known >= 0:
                    result = values[known]
                else:
                    if count >= max_states:
                        return -1
                    if count == stored.shape[0]:
                        grown = np.empty((min(2 * count, max_states), n), np.int8)
                        grown[:count] = stored
                        stored = grown
                    slots[slot] = count
                    hashes[count] = h
                    facts[count, 0], facts[count, 1] = colour[level], passes[level]
                    facts[count, 2], facts[count, 3] = ko[level], holder[level]
                    stored[count, :] = board
                    values[count] = False
                    entry[level] = count
                    count += 1
                    attacker[level] = colour[level] != defender
                    outcome[level] = not attacker[level]
                    k = 0
                    for p in space:
                        moves[level, k] = p
                        k += 1
                    for p in others:
                        if board[p] == EMPTY:
                            moves[level, k] = p
                            k += 1
                    for p in outside:
                        moves[level, k] = p
                        k += 1
                    moves[level, k] = NO_POINT
                    n_moves[level], tried[level] = k + 1, 0
                    searched = True
            if not searched:  # back to the position it came from, with its outcome
                level = _back_to_parent(level, result, attacker, outcome, tried, n_moves)
                if level < 0:
                    return 1 if result else 0
        # the next move of the position at ``level``
        c = colour[level]
        opp = 3 - c
        while tried[level] < n_moves[level]:
            p = moves[level, tried[level]]
            tried[level] += 1
            child = level + 1
            if p == NO_POINT:
                boards[child, :] = boards[level]
                keys[child] = keys[level]
                colour[child], passes[child] = opp, passes[level] + 1
                ko[child], holder[child] = ko[level], holder[level]
                new = True
                break
            free = c == defender and defender_retakes_ko
            banned = ko[level] if holder[level] == opp and not free else NO_POINT
            board = boards[level]
            if board[p] != EMPTY:
                continue
            boards[child, :] = board
            after = boards[child]
            status, captured, _, new_ko = play(after, stride, p, c, banned, SUICIDE_NONE, scratch)
            if status != LEGAL:  # refused, the child's board left as its parent's
                continue
            keys[child] = keys[level] ^ stone_keys[c, p]
            for j in range(captured):
                keys[child] ^= stone_keys[opp, scratch[j]]
            if c != defender and captured:
                taken = False
                for t in targets:
                    taken |= after[t] == EMPTY
                if taken:
                    outcome[level] = True
                    tried[level] = n_moves[level]
                    break
            k, kept_by = ko[level], holder[level]
            if new_ko != NO_POINT:
                k, kept_by = new_ko, c
            elif c == kept_by:  # the ko's owner played elsewhere: the ko is over
                k, kept_by = NO_POINT, EMPTY
            colour[child], passes[child], ko[child], holder[child] = opp, 0, k, kept_by
            new = True
            break
        if new:
            level += 1
            continue
        # every move tried, or one won: the position's outcome, back to its parent
        result = outcome[level]
        values[entry[level]] = result
        level = _back_to_parent(level, result, attacker, outcome, tried, n_moves)
        if level < 0:
            return 1 if result else 0


def attacker_kills(padded: np.ndarray, stride: int, group: EnclosedGroup, *,
                   defender_retakes_ko: bool = False, defender_first: bool = False) -> bool | None:
    """Whether the attacker, moving first, captures the largest string of ``group``;
    None when the search gives up (:data:`MAX_STATES`).

    Parameters
    ----------
    padded : np.ndarray
        Padded int8 board.
    stride : int
        ``cols + 2``.
    group : EnclosedGroup
        The group to read.
    defender_retakes_ko : bool
        Give the defender endless ko threats. By default a ko belongs to whoever
        takes it first, as in the Japanese 1989 confirmation of life and death.
    defender_first : bool
        Let the defender move first: a group that lives so can mend what the attacker,
        moving first, would take (:mod:`rulelab.life.status`).
    """
    others = np.array(sorted(set(group.stones) - set(group.body)), dtype=np.int64)
    mover = group.colour if defender_first else 3 - group.colour
    won = attacker_wins(padded, stride, group.colour, np.array(group.space, dtype=np.int64), others,
                         np.array(group.outside, dtype=np.int64), np.array(group.body, dtype=np.int64),
                         defender_retakes_ko, read_depth(len(group.space), len(group.outside)), MAX_STATES,
                         mover)
    return None if won < 0 else bool(won)


@dataclass(frozen=True)
class Reading:
    """The verdict of the exact search on one enclosed group, as ``(rows, cols)`` masks."""

    stones: np.ndarray
    """bool: the defender's stones."""
    space: np.ndarray
    """bool: the eye space (attacker stones in it included)."""
    walls: np.ndarray
    """bool: attacker stones shutting the group in from outside."""
    dead: bool
    """The attacker, moving first, captures it under the 1989 ko rule."""
    needs_ko: bool
    """Dead only by winning a ko: it lives if the defender can always retake."""
    mendable: bool = False
    """Dead only by a ko that the defender, moving first, mends: a ko left unmended at
    the end (the Japanese 1989 commentary on Art. 7-2, Fig. 9). Never a false seki."""

    @property
    def in_corner(self) -> bool:
        """The eye space holds a corner point of the board."""
        return bool(self.space[0, 0] or self.space[0, -1] or self.space[-1, 0] or self.space[-1, -1])


def read_enclosed(board: np.ndarray, worth_reading=None, survival=None,
                  seki_share=None) -> Iterator[Reading]:
    """Read the enclosed groups of a ``(rows, cols)`` board exactly, one at a time: every
    one, or those for which ``worth_reading(stones, walls)`` (two masks) is true when
    their turn comes, since a search costs milliseconds and a caller may have no use for
    its verdict.

    Given the playouts' ``survival`` and ``seki_share``, a seki they see is read too
    when its group has a few liberties outside the eye space in empty areas that only
    the attacker, the group and doomed stones (:data:`DOOMED`) border: the attacker may
    fill those, and a kill found so is taken (a life found so is not: the defender's
    moves off the read points are not searched)."""
    rows, cols = board.shape
    stride = cols + 2
    padded = pad(board)

    def mask(points) -> np.ndarray:
        marked = np.zeros(padded.size, dtype=bool)
        marked[list(points)] = True
        return marked.reshape(rows + 2, cols + 2)[1:-1, 1:-1]

    contested = fillable = None
    if seki_share is not None and (seki_share >= CONTESTED).any():
        contested = pad((seki_share >= CONTESTED).astype(np.int8)).astype(bool)
        doomed = survival < DOOMED
        empties, _ = ndimage.label(board == EMPTY)

        def fillable(outside, stones) -> bool:
            group = mask(stones)
            colour = board[group][0]
            region = np.isin(empties, empties[mask(outside)])
            border = ndimage.binary_dilation(region) & ~region & ~doomed
            return (region.sum() <= MAX_OUTSIDE_AREA and (border & (board == 3 - colour)).any()
                    and not (border & (board == colour) & ~group).any())

    for group in enclosed_groups(padded, stride, contested, fillable):
        stones, space, walls = mask(group.stones), mask(group.space), mask(group.walls)
        if worth_reading is not None and not worth_reading(stones, walls):
            continue
        dead = attacker_kills(padded, stride, group)
        if dead is None or (group.outside and not dead):
            continue
        needs_ko = dead and attacker_kills(padded, stride, group, defender_retakes_ko=True) is False
        # a false seki's life is never read (the defender's moves elsewhere are not searched)
        mendable = (needs_ko and not group.outside
                    and attacker_kills(padded, stride, group, defender_first=True) is False)
        yield Reading(stones, space, walls, dead=dead, needs_ko=needs_ko, mendable=mendable)
