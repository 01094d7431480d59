"""A ruleset's count: adding up the point classes of a board analysis.

Under area scoring only, open dame are first filled alternately starting with the
player to move (``Ruleset.dame_policy='alternate'``) or left open (``'none'``); the
neutral points then left, seki liberties and open dame, are shared as
``Ruleset.shared_points`` says: 'split' gives each side half of every one (Chinese
1988 Art. 9), 'pairs' shares the seki liberties per seki (per connected group of seki
chains and their shared liberties), 'nobody' none. Dead stones on seki
points or seki liberties are *dead in seki*: territory scoring leaves them on the
board and gives no prisoner for them.
"""

from __future__ import annotations

from typing import Iterable

from rulelab.errors import RulesError
from rulelab.position import BLACK, EMPTY, WHITE, Life, Position
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
    has_dead = bool((life.dead & (board != EMPTY)).any())
    analyses: dict[bool, PointClasses] = {}
    if classes is not None:  # without dead stones, removing them leaves the same board
        analyses[has_dead] = classes
    scores = []
    for r in resolved:
        k = r.komi if komi is None else komi  # a preset's komi holds on any board size
        removes = r.remove_dead and has_dead
        if removes not in analyses:
            analyses[removes] = point_classes_of(life, board, removes)
        scores.append(_tally(position, life, r, k, analyses[removes]))
    return scores


def _tally(
    position: Position, life: Life, r: Ruleset, komi: float, a: PointClasses
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
        if r.dame_policy == "alternate":
            mover = WHITE if position.to_move == WHITE else BLACK
            filled = {mover: (open_dame + 1) // 2, 3 - mover: open_dame // 2}
        neutral = seki_dame + open_dame - filled[BLACK] - filled[WHITE]
        if r.shared_points == "split":
            shared = {BLACK: neutral / 2, WHITE: neutral / 2}
        elif r.shared_points == "pairs":
            shared = {BLACK: float(a.seki_pairs), WHITE: float(a.seki_pairs)}
        dame = int(neutral - shared[BLACK] - shared[WHITE])
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
    winner = winner_at(margin, r.tie_break)
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
        black_zi=black_points if r.scoring == "area" else None,
        black_zi_after_komi=(position.board.size + margin) / 2 if r.scoring == "area" else None,
        area_margin=area_margin,
        territory_margin=territory_margin,
        dame_policy=r.dame_policy,
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

