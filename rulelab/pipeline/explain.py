"""Why a counted game misses its recorded result: the one group whose verdict would fix it.

Most misses are not spread over the board. Flipping the verdict of a single block of
stones usually gives the recorded margin exactly, and what that block looks like says
what kind of miss it is: stones the players left on the board although they were dead
(a slip in the record, not an error of the estimator), a race the playouts could not
decide, a seki misread, a board the players stopped before it was settled.
:func:`explain_miss` takes the verdict the scoring run stored, tries every such flip under
the record's rules and komi, and names the miss's class (:data:`MISS_CLASSES`) from what
the playouts say of the flipped block (its survival and seki shares: evidence the life
table does not keep, so they are played again, the verdict is not decided again).

A *block* is an 8-connected set of stones of one colour with one verdict: a stone in
atari inside enemy territory and its diagonal neighbour are one decision for the
players, so they are flipped together. Stones whose fate Benson's analysis proved are
never flipped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator

import numpy as np
from scipy import ndimage

from rulelab.errors import RulesError
from rulelab.life import estimate_life
from rulelab.position import BLACK, COLOUR_NAME, WHITE, Life, Position, sgf_point
from rulelab.rules import Ruleset
from rulelab.scoring.finish import margin_on

SURE_DEAD = 0.2
"""Survival share below which the playouts call a block certainly dead. On the KGS 2017
records the players marked dead 3,228 of the 3,259 strings the estimator calls dead, so
when only keeping such a block alive reproduces the result, the players forgot to remove
it: the record is at fault, not the estimator."""
SURE_ALIVE = 0.8
"""Survival share above which the playouts call a block certainly alive. Between
:data:`SURE_DEAD` and this, the block's fate was a coin toss: an undecided race."""
SEKI_SHARE = 0.3
"""Share of playouts ending with the block in seki above which an exact fix on it is a
seki misread. On the KGS 2001 and 2017 misses, the blocks read by hand as seki had
shares of 0.44 to 0.89, and no other exactly fixing block more than 0.30."""
UNFINISHED_POINTS = 10
"""Open points (``unsettled`` of the stored verdict) from which a board counts as
stopped before the end: a finished game may keep a few points where a move still
matters, but ten or more are open borders or races, where no verdict is the players'
agreement even when one flip happens to match the result."""
CONVENTION_POINTS = 4
"""Largest difference a counting convention explains when no flip helps at all: a dame,
a false eye to fill, owed points for protective moves, handicap compensation, each worth
one to a few points (every such KGS 2001 and 2017 miss was within four)."""
EXACT = 1e-9
"""Margins are multiples of one half; a remaining difference below this is none."""

RECORD_PROBLEM = "record: inverted or impossible result"
DEAD_LEFT = "record: dead stones left on the board"
SEKI_MISREAD = "seki misread"
RACE = "race: undecided group"
UNFINISHED = "unfinished board"
MISJUDGED = "life: misjudged group"
CONVENTION = "counting convention"
SEVERAL_GROUPS = "life: several groups"
SECOND_OPINION = "life: the second opinion reproduces the record"
MISS_CLASSES = (RECORD_PROBLEM, DEAD_LEFT, SEKI_MISREAD, RACE, UNFINISHED, MISJUDGED,
                CONVENTION, SEVERAL_GROUPS, SECOND_OPINION)
"""Every class a miss can get, in the order they are tried; :data:`SECOND_OPINION`
replaces a class of :data:`OUTSIDE_LIFE` when another backend's verdict reproduces the
record exactly (the miss is then rulelab's verdict, not the record or the count)."""
OUTSIDE_LIFE = frozenset({RECORD_PROBLEM, DEAD_LEFT, CONVENTION})
"""Classes no life-and-death method can fix (the record itself, or how a server counts):
exact games plus these misses bound the agreement any life verdict can reach."""

_EIGHT = np.ones((3, 3), dtype=bool)


@dataclass(frozen=True)
class Flip:
    """One block whose verdict is changed, and what the count then misses by."""

    kind: str
    """``'alive'`` (a dead block kept on the board) or ``'dead'`` (a live block removed)."""
    colour: int
    """``BLACK`` or ``WHITE``."""
    stones: int
    """Stones in the block."""
    point: tuple[int, int]
    """``(row, col)`` of the block's first stone in row-major order."""
    survival: float
    """Mean survival share of the block's stones in the playouts (0 or 1 where read exactly)."""
    seki_share: float
    """Mean share of playouts ending with the block's stones in seki."""
    remaining: float
    """Computed minus recorded margin after the flip."""

    @property
    def sgf_point(self) -> str:
        """:attr:`point` as an SGF move value (column letter, then row letter)."""
        return sgf_point(*self.point)


@dataclass(frozen=True)
class Explanation:
    """What explains one miss: the best flip, if any helps, and the miss's class."""

    difference: float
    """Computed minus recorded margin under the run's verdict, before any flip."""
    unsettled: int
    """Open points of the position under that verdict."""
    fix: Flip | None
    """The flip leaving the smallest difference (ties: fewest stones, then first point),
    among those that shrink it; None when no flip does."""
    miss_class: str
    """One of :data:`MISS_CLASSES`."""

    def to_record(self) -> dict:
        """The ``miss_class`` and ``fix_*`` columns of the validation table."""
        fix = self.fix
        return {
            "miss_class": self.miss_class,
            "fix_kind": fix and fix.kind,
            "fix_colour": fix and COLOUR_NAME[fix.colour],
            "fix_stones": fix and fix.stones,
            "fix_point": fix and fix.sgf_point,
            "fix_survival": fix.survival if fix else math.nan,
            "fix_remaining": fix.remaining if fix else math.nan,
        }


def explain_miss(position: Position, verdict, ruleset: Ruleset, recorded_margin: float, *,
                 record_problem: bool = False, second_opinion_exact: bool = False,
                 rng_seed: int = 0, finish: str = "none") -> Explanation:
    """Find the one block whose verdict, flipped, comes closest to the recorded margin.

    Parameters
    ----------
    position : Position
        The game's final position.
    verdict : rulelab.store.life.StoredLife or rulelab.life.LifeVerdict
        The verdict the run scored: its ``dead`` stones, the ``proven`` ones (never
        flipped) and its ``unsettled`` points.
    ruleset : Ruleset
        The record's rules at the record's komi, as its server counts them, open dame
        included (:func:`rulelab.pipeline.score.record_ruleset`).
    recorded_margin : float
        The recorded result, positive when Black won.
    record_problem : bool
        The recorded result itself looks at fault (an inverted winner, a margin of
        impossible parity by this verdict's count): the class says so whatever the
        flips find, unless ``second_opinion_exact``.
    second_opinion_exact : bool
        Another backend's verdict reproduces the record exactly, so no class blames
        the record or the count (:data:`SECOND_OPINION`).
    rng_seed : int
        Seed of the playouts that weigh each block, as in the scoring run.
    finish : {'none', 'play'}
        The basis the run counted the game on (:data:`rulelab.rules.FINISH_BASES`): each
        flipped verdict's count plays the board to its end first under ``'play'``.

    Returns
    -------
    Explanation

    Raises
    ------
    RulesError
        ``ruleset`` is not a :class:`~rulelab.rules.Ruleset` or ``recorded_margin`` is
        not a finite number.

    Examples
    --------
    A black stone in atari inside White's area, which the players counted as alive
    (Black +13 instead of +5):

    >>> from rulelab.life import decide_life
    >>> from rulelab.rules import get_ruleset
    >>> position = Position.from_diagram('''
    ... . . . X O . .
    ... . . . X O . .
    ... . . . X O . .
    ... . . . X O X O
    ... . . . X O O .
    ... ''', to_move=WHITE)
    >>> chinese = get_ruleset("chinese").with_komi(0)
    >>> explained = explain_miss(position, decide_life(position), chinese, recorded_margin=13)
    >>> explained.difference, explained.fix.kind, explained.fix.sgf_point
    (-8.0, 'alive', 'fd')
    >>> explained.miss_class
    'record: dead stones left on the board'
    """
    if not isinstance(ruleset, Ruleset):
        raise RulesError(f"The 'ruleset' parameter of explain_miss() must be a Ruleset; "
                         f"got {ruleset!r}")
    number = isinstance(recorded_margin, (int, float, np.number)) and not isinstance(recorded_margin, bool)
    if not number or not math.isfinite(recorded_margin):
        raise RulesError(f"The 'recorded_margin' parameter of explain_miss() must be a finite "
                         f"number; got {recorded_margin!r}")
    # What the playouts say of each block (for an estimated verdict, the estimate it grew
    # from; for markup and the engines, the playouts' view).
    estimate = estimate_life(position.board, position.to_move, seed=rng_seed,
                             stopped_early=position.stopped_early)
    difference = margin_on(position, verdict, ruleset, finish) - recorded_margin
    fixes = []
    for kind, colour, block in _flips(position.board, verdict, verdict.proven):
        remaining = margin_on(position, _flipped(verdict, kind, block), ruleset, finish) - recorded_margin
        if abs(remaining) < abs(difference):
            fixes.append(Flip(kind=kind, colour=colour, stones=int(block.sum()),
                              point=tuple(int(i) for i in np.argwhere(block)[0]),
                              survival=float(estimate.survival[block].mean()),
                              seki_share=float(estimate.seki_share[block].mean()),
                              remaining=remaining))
    fix = min(fixes, key=lambda f: (abs(f.remaining), f.stones, f.point), default=None)
    return Explanation(difference=difference, unsettled=verdict.unsettled, fix=fix,
                       miss_class=classify_miss(difference, fix, verdict.unsettled, record_problem,
                                                second_opinion_exact))


def classify_miss(difference: float, fix: Flip | None, unsettled: int,
                  record_problem: bool = False, second_opinion_exact: bool = False) -> str:
    """The class of a miss, from its best flip; the first of :data:`MISS_CLASSES` that fits.

    Parameters
    ----------
    difference : float
        Computed minus recorded margin before any flip.
    fix : Flip or None
        The best flip that shrinks the difference, if any.
    unsettled : int
        Open points of the position.
    record_problem : bool
        The recorded result itself looks at fault (inverted, impossible parity).
    second_opinion_exact : bool
        Another backend's verdict reproduces the record exactly.

    Returns
    -------
    str
        One of :data:`MISS_CLASSES`.

    Examples
    --------
    >>> classify_miss(-1.0, None, unsettled=0)
    'counting convention'
    >>> classify_miss(12.0, None, unsettled=0)
    'life: several groups'
    >>> classify_miss(-1.0, None, unsettled=0, second_opinion_exact=True)
    'life: the second opinion reproduces the record'
    """
    miss_class = _class_by_flip(difference, fix, unsettled, record_problem)
    if second_opinion_exact and miss_class in OUTSIDE_LIFE:
        return SECOND_OPINION
    return miss_class


def _class_by_flip(difference: float, fix: Flip | None, unsettled: int,
                   record_problem: bool) -> str:
    exact = fix is not None and abs(fix.remaining) < EXACT
    if record_problem:
        return RECORD_PROBLEM
    if exact and fix.kind == "alive" and fix.survival < SURE_DEAD:
        return DEAD_LEFT
    if exact and fix.seki_share > SEKI_SHARE:
        return SEKI_MISREAD
    if exact and SURE_DEAD <= fix.survival <= SURE_ALIVE:
        return RACE
    if unsettled >= UNFINISHED_POINTS:
        return UNFINISHED
    if exact:
        return MISJUDGED
    if fix is None and abs(difference) <= CONVENTION_POINTS:
        return CONVENTION
    return SEVERAL_GROUPS


def _flips(board: np.ndarray, verdict: Life,
           proven: np.ndarray) -> Iterator[tuple[str, int, np.ndarray]]:
    """Each block of unproven stones of one colour and one verdict, with what a flip makes of it."""
    for colour in (BLACK, WHITE):
        for dead, kind in ((True, "alive"), (False, "dead")):
            blocks, count = ndimage.label((board == colour) & (verdict.dead == dead) & ~proven,
                                          structure=_EIGHT)
            for label in range(1, count + 1):
                yield kind, colour, blocks == label


def _flipped(verdict: Life, kind: str, block: np.ndarray) -> Life:
    """The verdict with ``block`` made ``kind``."""
    dead = verdict.dead.copy()
    dead[block] = kind == "dead"
    return Life(dead=dead, method=verdict.method, confidence=verdict.confidence,
                finished=verdict.finished)

