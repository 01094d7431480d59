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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numba
import numpy as np

from rulelab.board import LEGAL, NO_POINT, SUICIDE_NONE, legality, pad, play
from rulelab.life.regions import label_areas, label_strings
from rulelab.position import BLACK, EMPTY, WHITE

MAX_EYE_SPACE = 6
"""Largest eye space read exactly (its points, empty or occupied by the attacker)."""


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


@numba.njit(cache=True)
def _shut_in_areas(padded, stride, colour):
    """Labels of ``colour``'s strings and areas, and which areas shut a group in.

    An area qualifies when it is small and every ``colour`` string touching it has
    all its liberties inside it.
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
    for p in range(padded.size):
        a = areas[p]
        if a >= 0:
            size[a] += 1
            for d in (-stride, -1, 1, stride):
                s = strings[p + d]
                if s >= 0 and liberty_area[s] != a:
                    shut[a] = False
    return strings, areas, shut & (size <= MAX_EYE_SPACE)


def enclosed_groups(padded: np.ndarray, stride: int) -> list[EnclosedGroup]:
    """Every group shut in around one eye space of at most :data:`MAX_EYE_SPACE` points."""
    groups = []
    offsets = np.array([-stride, -1, 1, stride])
    for colour in (BLACK, WHITE):
        strings, areas, shut = _shut_in_areas(padded, stride, colour)
        for area in np.flatnonzero(shut):
            space = np.flatnonzero(areas == area)
            around = np.unique(strings[(space[:, None] + offsets).ravel()])
            stones = np.flatnonzero(np.isin(strings, around[around >= 0]))
            neighbours = (stones[:, None] + offsets).ravel()
            walls = np.unique(neighbours[(padded[neighbours] == 3 - colour) & ~np.isin(neighbours, space)])
            body = np.flatnonzero(strings == np.bincount(strings[stones]).argmax())
            groups.append(EnclosedGroup(colour, tuple(space.tolist()), tuple(stones.tolist()),
                                        tuple(walls.tolist()), tuple(body.tolist())))
    return groups


class _Search:
    """Can the attacker, moving first, capture the defender's largest string? (memoised
    search over the eye space and the points of defender stones captured on the way)."""

    def __init__(self, padded: np.ndarray, stride: int, group: EnclosedGroup, defender_retakes_ko: bool):
        self.stride = stride
        self.defender = group.colour
        self.space = group.space
        self.others = tuple(sorted(set(group.stones) - set(group.body)))
        self.targets = group.body
        self.defender_retakes_ko = defender_retakes_ko
        self.scratch = np.empty(padded.size, dtype=np.int32)
        self.depth_limit = 2 * len(group.space) + 8
        self.memo: dict = {}

    def attacker_wins(self, board: np.ndarray, colour: int, passes: int, ko: int, ko_holder: int,
                      depth: int) -> bool:
        """Outcome with ``colour`` to move.

        ``ko`` is banned to the side that is not ``ko_holder`` until the holder plays
        elsewhere: taking a ko first wins it (the 1989 rule, under which retaking
        needs a pass for that ko, which gives the holder time to settle it).
        """
        if passes >= 2 or depth > self.depth_limit:
            return False
        key = (board.tobytes(), colour, passes, ko, ko_holder)
        if key in self.memo:
            return self.memo[key]
        attacker = colour != self.defender
        self.memo[key] = False  # a cycle back to this state never captures anything
        outcome = not attacker
        taken = tuple(q for q in self.others if board[q] == EMPTY)
        for p in self.space + taken + (NO_POINT,):
            result = self._after(board, colour, p, passes, ko, ko_holder, depth)
            if result is None:
                continue
            if result == attacker:
                outcome = attacker
                break
        self.memo[key] = outcome
        return outcome

    def _after(self, board, colour, p, passes, ko, ko_holder, depth):
        """Outcome after ``colour`` plays ``p`` (or passes); ``None`` when illegal."""
        opp = 3 - colour
        if p == NO_POINT:
            return self.attacker_wins(board, opp, passes + 1, ko, ko_holder, depth + 1)
        free = colour == self.defender and self.defender_retakes_ko
        banned = ko if ko_holder == opp and not free else NO_POINT
        if board[p] != EMPTY or legality(board, self.stride, p, colour, banned, SUICIDE_NONE,
                                         self.scratch) != LEGAL:
            return None
        after = board.copy()
        _, captured, _, new_ko = play(after, self.stride, p, colour, banned, SUICIDE_NONE, self.scratch)
        if colour != self.defender and captured and any(after[t] == EMPTY for t in self.targets):
            return True
        if new_ko != NO_POINT:
            ko, ko_holder = new_ko, colour
        elif colour == ko_holder:  # the ko's owner played elsewhere: the ko is over
            ko, ko_holder = NO_POINT, EMPTY
        return self.attacker_wins(after, opp, 0, ko, ko_holder, depth + 1)


def attacker_kills(padded: np.ndarray, stride: int, group: EnclosedGroup, *,
                   defender_retakes_ko: bool = False) -> bool:
    """Whether the attacker, moving first, captures the largest string of ``group``.

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
    """
    search = _Search(padded, stride, group, defender_retakes_ko)
    return search.attacker_wins(padded.copy(), 3 - group.colour, 0, NO_POINT, EMPTY, 0)


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

    @property
    def in_corner(self) -> bool:
        """The eye space holds a corner point of the board."""
        return bool(self.space[0, 0] or self.space[0, -1] or self.space[-1, 0] or self.space[-1, -1])


def read_enclosed(board: np.ndarray, worth_reading=None) -> Iterator[Reading]:
    """Read the enclosed groups of a ``(rows, cols)`` board exactly, one at a time: every
    one, or those for which ``worth_reading(stones, walls)`` (two masks) is true when
    their turn comes, since a search costs milliseconds and a caller may have no use for
    its verdict."""
    rows, cols = board.shape
    stride = cols + 2
    padded = pad(board)

    def mask(points) -> np.ndarray:
        marked = np.zeros(padded.size, dtype=bool)
        marked[list(points)] = True
        return marked.reshape(rows + 2, cols + 2)[1:-1, 1:-1]

    for group in enclosed_groups(padded, stride):
        stones, space, walls = mask(group.stones), mask(group.space), mask(group.walls)
        if worth_reading is not None and not worth_reading(stones, walls):
            continue
        dead = attacker_kills(padded, stride, group)
        needs_ko = dead and not attacker_kills(padded, stride, group, defender_retakes_ko=True)
        yield Reading(stones, space, walls, dead=dead, needs_ko=needs_ko)
