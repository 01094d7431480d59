"""The status layer: the groups of a finished board whose life the rules decide differently.

The life layer gives one verdict per game. The rules texts, though, differ on groups
that live or die by a ko (``../shared/docs/rules-texts/``):

- The Japanese 1989 rules confirm life after the game stops, and in that confirmation a
  ko cannot be retaken until its loser passes for it (Art. 7-2). A group the attacker
  kills by taking a ko first is dead, even with endless ko threats on the board (the
  commentary, 1: a double-ko seki's threats cannot be used): a bent four in the corner
  (the 1989 rules' example), and a ko left unmended (Fig. 9, 紧气劫), where both the
  group and the attacker's stones in its eye space are dead. Korean rules, which count
  territory too, are read the same way here; their text is not among the project's.
- Rules that count area play a dispute out: the Chinese 1988 rules call dead what cannot
  avoid capture (Art. 8), Ing's rules prove every ko's life by capture (Art. 4,
  提证死活), and mending costs nothing under an area count (the translator's note on
  Art. 7-2). So an unmended ko is mended and lives, and a kill that needs a ko the
  defender cannot mend succeeds unless the defender has ko threats the attacker cannot
  remove: two or more kos left open on the board (a double-ko seki), read here as
  such a source.

The players' own marks (``TB``/``TW``, :mod:`rulelab.life.markup`) are their agreement on
every group's life, the agreement both texts end the game with (J1989 Art. 9-2: after play
stops the players confirm life and territory and agree the game's end; Chinese 1988 Art. 8:
dead and alive "经双方确认", as both players confirm), and the record's count is theirs: a status case on a marked board only flags the
group (:func:`ruled_cases`), each ruleset counting the marks.

A ko the attacker cannot take first (an approach ko, Fig. 10 and 11) decides nothing
differently: the confirmation gives the loser of the ko the pass it needs.

A double-ko seki (J1989 Art. 8 commentary, Fig. 14, 连环劫双活) lives in seki under every
ruleset: neither side can capture, by confirmation or by play, and the superko rules'
ban on the cycle only forbids the move that would repeat it. It is a case of its own,
the groups alive everywhere, so that the tables say where one stands; its two kos are
also the endless threats above. The scorer finds the same chains
(:func:`rulelab.scoring.seki.double_ko_seki`) and counts their points as seki points.

The cases are the estimator's ko kills and those :func:`rulelab.life.reading.read_enclosed`
finds on the final board, kept only where the common verdict leaves the group's walls
alive: a case inside a dead group's area changes nothing. The Japanese verdict of an
unmended ko is scored as its dead stones say (both removed, the corner the attacker's);
the commentary does not say how such a corner is counted.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rulelab.board import LEGAL, NO_POINT, SUICIDE_NONE, pad, play
from rulelab.life.estimate import BENT_FOUR, KO_TO_KILL
from rulelab.life.reading import read_enclosed
from rulelab.life_methods import PLAYERS_MARKS
from rulelab.position import BLACK, EMPTY, WHITE
from rulelab.scoring.chains import neighbour_offsets
from rulelab.scoring.seki import double_ko_seki

UNMENDED_KO = "unmended_ko"
DOUBLE_KO_SEKI = "double_ko_seki"
KINDS = (BENT_FOUR, KO_TO_KILL, UNMENDED_KO, DOUBLE_KO_SEKI)
"""The status cases, by the name the tables give them."""

ENDLESS_THREATS = 2
"""Open kos on the board (outside the case) that give the defender threats the
attacker cannot remove."""

ARTICLES = {
    "territory": "J1989 Art. 7-2 (confirmation: a ko is retaken only after a pass for it)",
    "area": "played out: Chinese 1988 Art. 8, Ing Art. 4 (提证死活)",
}
"""What decides a case under each way of counting."""


@dataclass(frozen=True)
class StatusCase:
    """One group whose life depends on the rules, with each way of counting's verdict."""

    kind: str
    """One of :data:`KINDS`."""
    stones: np.ndarray
    """bool ``(rows, cols)``: the defender's group (of a double-ko seki, its stones of
    both colours)."""
    inside: np.ndarray
    """bool ``(rows, cols)``: the attacker's stones in its eye space."""
    dead_under: tuple[str, ...]
    """The ways of counting (``'territory'``, ``'area'``) under which the group is dead."""
    inside_dead_under: tuple[str, ...]
    """Those under which the attacker's stones inside are dead: where the group lives,
    and, for an unmended ko, under the Japanese confirmation too (both dead, Fig. 9)."""


def status_cases(board: np.ndarray, dead: np.ndarray, known: tuple = ()) -> list[StatusCase]:
    """The status cases of a finished ``board`` given the common verdict ``dead`` and the
    readings of ko kills it ``known`` (the estimator's, :attr:`rulelab.life.LifeVerdict.ko_kills`,
    some of which only its playouts could find: a false seki, a board after clean captures)."""
    cases = []
    kos = None
    found = [r for r in read_enclosed(board)
             if r.needs_ko and not any((r.stones & k.stones).any() for k in known)]
    for reading in (*known, *found):
        if dead[reading.walls].any():
            continue
        inside = reading.space & (board != EMPTY)
        if reading.mendable:
            cases.append(StatusCase(UNMENDED_KO, reading.stones, inside, ("territory",),
                                    ("territory", "area")))
            continue
        if kos is None:
            kos = open_kos(board)
        endless = int((kos & ~reading.space).sum()) >= ENDLESS_THREATS
        dead_under = ("territory",) if endless else ("territory", "area")
        kind = BENT_FOUR if reading.in_corner else KO_TO_KILL
        cases.append(StatusCase(kind, reading.stones, inside, dead_under,
                                () if not endless else ("area",)))
    seki = double_ko_stones(board)
    if seki.any():
        cases.append(StatusCase(DOUBLE_KO_SEKI, seki, np.zeros_like(seki), (), ()))
    return cases


def ruled_cases(method: str, cases: list[StatusCase]) -> list[StatusCase]:
    """The cases whose rules' verdicts replace a verdict by ``method`` in the count: all of
    them, or none when the verdict is the players' marks (:data:`~rulelab.life_methods.PLAYERS_MARKS`), which stand.

    Examples
    --------
    >>> case = StatusCase("bent_four_in_the_corner", np.ones((1, 1), bool), np.zeros((1, 1), bool),
    ...                   ("territory", "area"), ())
    >>> len(ruled_cases("estimate", [case])), len(ruled_cases("markup", [case]))
    (1, 0)
    """
    return [] if method == PLAYERS_MARKS else list(cases)


def double_ko_stones(board: np.ndarray) -> np.ndarray:
    """bool ``(rows, cols)``: the stones of the board's double-ko sekis."""
    rows, cols = board.shape
    found = double_ko_seki(pad(board), neighbour_offsets(cols))
    return found.reshape(rows + 2, cols + 2)[1:-1, 1:-1]


def open_kos(board: np.ndarray) -> np.ndarray:
    """bool ``(rows, cols)``: the points where a move by either side takes a ko now."""
    rows, cols = board.shape
    padded = pad(board)
    scratch = np.empty(padded.size, dtype=np.int32)
    found = np.zeros(padded.size, dtype=bool)
    for p in np.flatnonzero(padded == EMPTY):
        for colour in (BLACK, WHITE):
            status, _, _, ko = play(padded.copy(), cols + 2, p, colour, NO_POINT, SUICIDE_NONE, scratch)
            found[p] |= status == LEGAL and ko != NO_POINT
    return found.reshape(rows + 2, cols + 2)[1:-1, 1:-1]


def dead_under(dead: np.ndarray, cases: list[StatusCase], scoring: str) -> np.ndarray:
    """The dead stones under rules that count ``scoring`` (``'area'`` or ``'territory'``):
    the common verdict ``dead`` with each case's verdict in place of it."""
    own = dead.copy()
    for case in cases:
        own[case.stones] = scoring in case.dead_under
        own[case.inside] = scoring in case.inside_dead_under
    return own
