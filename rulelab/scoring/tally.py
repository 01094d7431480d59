"""A ruleset's count: adding up the point classes of a board analysis.

Under area scoring only, open dame are first filled alternately starting with the
player to move (``Ruleset.dame_policy='alternate'``) or left open (``'none'``); the
neutral points then left, seki liberties and open dame, are shared as
``Ruleset.shared_points`` says: 'split' gives each side half of every one (Chinese
1988 Art. 9), 'pairs' shares the seki liberties per seki (per connected group of seki
chains and their shared liberties), 'nobody' none. Dead stones on seki
points or seki liberties are *dead in seki*: territory scoring leaves them on the
board and gives no prisoner for them. A ruleset that reads seki by whole groups
(``Ruleset.seki_points='groups'``, KGS's count) counts the eye points only that reading
makes seki points as seki points, and the dead stones on them as dead in seki. One that
lifts the dead stones before the count (``Ruleset.dead_stones='lifted'``, KGS's) counts
the points owed only for the captures standing dead stones call for as territory.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Iterable

import numpy as np

from rulelab.errors import RulesError
from rulelab.position import EMPTY, WHITE, Life, Position
from rulelab.rules import Ruleset, check_komi, get_ruleset, winner_at

from .point_classes import PointClasses, checked_board, point_classes_of
from .breakdown import ScoreBreakdown
from rulelab.classes import (
    OPEN_DAME,
    OWED_B,
    OWED_W,
    SEKI_DAME,
    SEKI_POINT_B,
    SEKI_POINT_W,
    STONE_B,
    STONE_W,
    TERRITORY_B,
    TERRITORY_W,
)

def score_position(
    position: Position,
    life: Life,
    ruleset: Ruleset | str,
    komi: float | None = None,
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

    Returns
    -------
    ScoreBreakdown

    Raises
    ------
    RulesError
        For an unknown ruleset or an impossible komi.
    GameError
        If the board or the life masks are malformed.

    Examples
    --------
    >>> pos = Position.from_diagram('''
    ...     . X O .
    ...     . X O .
    ... ''')
    >>> life = Life.all_alive(pos.board)
    >>> score_position(pos, life, "chinese").margin
    -7.5
    >>> score_position(pos, life, "japanese", komi=0).winner
    'draw'
    """
    return score_all(position, life, [ruleset], komi)[0]


def score_all(
    position: Position,
    life: Life,
    rulesets: Iterable[Ruleset | str],
    komi: float | None = None,
    *,
    classes: PointClasses | None = None,
) -> list[ScoreBreakdown]:
    """Count ``position`` under each ruleset, analysing the board once per way of
    treating dead stones (removed, or kept as Tromp–Taylor keeps them).

    Parameters are those of :func:`score_position`, with ``rulesets`` an iterable of rulesets
    or preset names; returns one breakdown per ruleset, in order. ``classes``, when the
    caller has them (:func:`classify_points` under ``life``, which the life table stores),
    stand for the analysis with the dead stones removed instead of being made again.
    """
    board = checked_board(position, life)
    resolved = [get_ruleset(r) if isinstance(r, str) else r for r in rulesets]
    for r in resolved:
        if not isinstance(r, Ruleset):
            raise RulesError(f"A ruleset must be a Ruleset or a preset name; got {r!r}")
    if komi is not None:
        komi = check_komi(komi, "argument", board.size)
    rows = [(position, life, r, r.komi if komi is None else komi, a)  # a preset's komi holds on any board size
            for r, a in zip(resolved, analyses_for(position, life, resolved, classes, board))]
    columns = tally(rows)
    return [ScoreBreakdown(**dict(zip(columns, values))) for values in zip(*columns.values())]


def analyses_for(position: Position, life: Life, rulesets: list[Ruleset], classes: PointClasses | None = None,
                 board: np.ndarray | None = None) -> list[PointClasses]:
    """The analysis each ruleset adds up: the board classified once per way of treating
    dead stones (removed, or kept as Tromp–Taylor keeps them). ``classes``, when the
    caller has them (:func:`classify_points` under ``life``), stand for the analysis
    with the dead stones removed; ``board`` is :func:`checked_board`'s, when made."""
    board = checked_board(position, life) if board is None else board
    has_dead = bool((life.dead & (board != EMPTY)).any())
    analyses: dict[bool, PointClasses] = {}
    if classes is not None:  # without dead stones, removing them leaves the same board
        analyses[has_dead] = classes
    chosen = []
    for r in rulesets:
        removes = r.remove_dead and has_dead
        if removes not in analyses:
            analyses[removes] = point_classes_of(life, board, removes)
        chosen.append(analyses[removes])
    return chosen


TallyRow = tuple[Position, Life, Ruleset, float, PointClasses]
"""What one count adds up: the position, the life verdict, the ruleset, the komi, and
the analysis of :func:`analyses_for` the ruleset takes."""


def tally(rows: list[TallyRow]) -> dict[str, list]:
    """The :class:`ScoreBreakdown` of each row, as columns named by its fields, every row at
    once (the rows of many positions and rulesets: the scores stage tallies a batch of
    games in one go). Each count is an array of (colour, row), Black's row first, and each
    setting of the rules a boolean per row choosing between the counts."""
    if not rows:
        return {f.name: [] for f in fields(ScoreBreakdown)}
    positions = [row[0] for row in rows]
    lives = [row[1] for row in rows]
    rulesets = [row[2] for row in rows]
    chosen = [row[4] for row in rows]
    n = np.array([a.counts for a in chosen], dtype=np.int64).reshape(len(rows), -1).T
    rest = np.array([(a.dead_black, a.dead_white, a.dead_in_seki_black, a.dead_in_seki_white,
                      a.tax_black, a.tax_white, a.seki_pairs) for a in chosen], dtype=np.int64).reshape(-1, 7).T
    facts = np.array([(p.captured_black, p.captured_white, p.passes_black, p.passes_white,
                       p.to_move == WHITE, p.handicap, p.board.size) for p in positions],
                     dtype=np.int64).reshape(-1, 7).T
    def setting(name: str, value) -> np.ndarray:
        return np.array([getattr(r, name) == value for r in rulesets], dtype=bool)

    # The whole-group reading of seki moves its eye points (and the dead stones on them)
    # from territory or owed points to seki points.
    by_groups = np.where(setting("seki_points", "groups"),
                         np.array([a.group_seki for a in chosen], dtype=np.int64).reshape(-1, 6).T, 0)
    # Dead stones lifted before the count owe nothing for the captures they would call for.
    lifted = np.where(setting("dead_stones", "lifted"),
                      np.array([a.standing_owed for a in chosen], dtype=np.int64).reshape(-1, 2).T, 0)
    stones = n[[STONE_B, STONE_W]]
    territory = n[[TERRITORY_B, TERRITORY_W]] - by_groups[0:2] + lifted
    owed = n[[OWED_B, OWED_W]] - by_groups[2:4] - lifted
    seki_points = n[[SEKI_POINT_B, SEKI_POINT_W]] + by_groups[0:2] + by_groups[2:4]
    dead, all_tax, seki_pairs = rest[0:2], rest[4:6], rest[6]
    dead_in_seki = rest[2:4] + by_groups[4:6]
    captured, white_moves, handicap, board_points = facts[0:2], facts[4] == 1, facts[5], facts[6]
    seki_dame, open_dame = n[SEKI_DAME], n[OPEN_DAME]

    area, alternate = setting("scoring", "area"), setting("dame_policy", "alternate")
    split, pairs = setting("shared_points", "split"), setting("shared_points", "pairs")

    # The two ruleset-free margins of the module docstring's identity.
    area_points = stones + territory + seki_points + owed
    held_t = captured[::-1] + dead[::-1] - dead_in_seki[::-1]
    area_margin = area_points[0] - area_points[1]
    territory_margin = territory[0] + held_t[0] - territory[1] - held_t[1]

    passes = np.where(setting("pass_stones", True), facts[2:4], 0)
    tax = np.where(setting("seki_tax", "all"), all_tax, 0)
    seki_counted = np.where(setting("seki_tax", "seki"), 0, seki_points)
    # Area scoring: the open dame filled alternately from the player to move, the
    # neutral points left shared; territory scoring: dead stones in seki stay on the board.
    first, second = (open_dame + 1) // 2, open_dame // 2
    filled = np.where(area & alternate, np.where(white_moves, [second, first], [first, second]), 0)
    neutral = seki_dame + open_dame - filled[0] - filled[1]
    shared = np.where(area & split, neutral / 2, np.where(area & pairs, seki_pairs, 0)).astype(float)
    dame = np.where(area, (neutral - 2 * shared).astype(np.int64), seki_dame + open_dame)
    kept = np.where(area, 0, dead_in_seki)
    held = np.where(area, captured[::-1] + dead[::-1], held_t)
    owed_counted = np.where(setting("refuse_owed", True), 0, owed)
    total = np.where(area, stones + territory + seki_counted + owed + filled - tax + shared,
                     territory + seki_counted + owed_counted + held + passes[::-1] - tax)
    bonus = np.array([r.white_handicap_bonus(h) for r, h in zip(rulesets, handicap.tolist())], dtype=np.int64)
    black_points = total[0].astype(float)
    white_points = (total[1] + bonus).astype(float)
    before = black_points - white_points
    komis = [row[3] for row in rows]
    margin = before - np.array(komis, dtype=float)
    columns = {
        "ruleset": [r.name for r in rulesets], "komi": komis, "scoring": [r.scoring for r in rulesets],
        "black_stones": stones[0] + kept[0], "white_stones": stones[1] + kept[1],
        "black_territory": territory[0], "white_territory": territory[1],
        "black_prisoners": held[0], "white_prisoners": held[1],
        "black_seki_points": seki_points[0], "white_seki_points": seki_points[1],
        "black_owed": owed[0], "white_owed": owed[1],
        "black_group_tax": tax[0], "white_group_tax": tax[1],
        "pass_stones_black": passes[0], "pass_stones_white": passes[1],
        "handicap_bonus": bonus, "dame": dame,
        "dead_black": dead[0] - kept[0], "dead_white": dead[1] - kept[1],
        "black_points": black_points, "white_points": white_points,
        "margin_before_komi": before, "margin": margin,
        "winner": winner_at(margin, np.array([r.tie_break for r in rulesets], dtype=object)),
        "tie_break": [r.tie_break for r in rulesets],
        "black_zi": np.where(area, black_points, None),
        "black_zi_after_komi": np.where(area, (board_points + margin) / 2, None),
        "area_margin": area_margin, "territory_margin": territory_margin,
        "dame_policy": [r.dame_policy for r in rulesets],
        "life_method": [life.method for life in lives],
        "life_confidence": [float(life.confidence) for life in lives],
        "finished": [bool(life.finished) for life in lives],
        "dead_in_seki_black": dead_in_seki[0], "dead_in_seki_white": dead_in_seki[1],
        "black_shared": shared, "white_shared": shared,
        "black_dame_filled": filled[0], "white_dame_filled": filled[1],
        "seki_dame": seki_dame, "open_dame": open_dame,
        "handicap": handicap, "board_points": board_points,
    }
    return {name: column.tolist() if isinstance(column, np.ndarray) else column
            for name, column in columns.items()}
