"""The identities every count satisfies, checked on a pair of breakdowns.

With ``M_c`` the stones colour ``c`` placed and ``X_c`` what a territory count
refuses colour ``c`` (its seki points, its owed points, and the opposing dead stones
left in seki), every breakdown satisfies
``area_margin - territory_margin == (M_B - M_W) + (X_B - X_W)``, and area counts
satisfy ``A_B + A_W + dame == rows * cols``.
"""

from __future__ import annotations

import numpy as np

from rulelab.position import BLACK, WHITE, Life, Position

from .point_classes import checked_board
from .breakdown import ScoreBreakdown


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
    board = checked_board(position, life)
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
