"""Where each game's margin before komi lies: the outcomes every komi analysis reads.

Everything starts from :func:`komi_outcomes`: one row per game saying where its
margin before komi lies — exactly, for a counted game, or on one side of the komi
in force, for a game lost by resignation or on time. The assumption for the latter is
stated once here and in the report: *a player who resigned (or lost on time) at komi
k would have lost the count at komi k* — so White resigning at komi k means
``margin_before_komi > k``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from rulelab.analysis.inputs import COUNTED_KINDS, analysable_games, require_columns
from rulelab.analysis.strata import game_strata
from rulelab.errors import InputError
from rulelab.rules import winner_at

CENSORED_KINDS = ("resign", "time")
"""Result kinds whose winner is known but whose margin is not."""

RECORD = "record"
"""The ``ruleset`` label of outcomes read from the records' own results."""

CENSORING_ASSUMPTION = (
    "A game lost by resignation or on time at komi k is taken to have a margin before komi "
    "on the loser's side of k (White resigning means margin_before_komi > k), under the "
    "record's rules; for another ruleset the bound moves by the difference between that "
    "ruleset's margin and the record rules' margin on the final position, when the run scored "
    "the record's rules (its komi_source='record' rows). "
    "The bound is taken as all a resignation says (coarsening at random). That removes the "
    "bias of dropping resignations when one colour resigns more readily than the other, but "
    "not the pull toward the komi in force that arises because lopsided games are the ones "
    "resigned: read the estimates beside the strata by komi in force.")

GAME_COLUMNS = ("game_id", "status", "result_kind", "result_winner", "result_margin", "komi")


def komi_outcomes(games: pd.DataFrame, scores: pd.DataFrame | None = None,
                  ruleset: str | None = None, *,
                  censored_kinds: Sequence[str] = CENSORED_KINDS) -> pd.DataFrame:
    """Where each game's margin before komi lies, from rulelab's count or the record's.

    Parameters
    ----------
    games : pandas.DataFrame
        The games table.
    scores : pandas.DataFrame, optional
        The scores table. Without it the margins are the records' own counted results
        (``ruleset`` reads ``'record'``).
    ruleset : str, optional
        The ruleset whose margins to use; required with ``scores``.
    censored_kinds : sequence of str
        Result kinds taken as bounds on the margin (see :data:`CENSORING_ASSUMPTION`);
        ``()`` leaves them out.

    Notes
    -----
    A margin is taken only from a game its players counted (result ``counted`` or
    ``draw``): rulelab's count of that final position under ``ruleset``, or the
    record's own. Such a position is settled by the players' agreement, even where
    the life layer, seeing open dame, does not call it finished.

    Returns
    -------
    pandas.DataFrame
        ``game_id, ruleset, scoring, kind, komi, winner, margin_before_komi`` (NaN when
        censored), ``lower, upper`` (the margin lies in ``(lower, upper]``), ``year`` and
        the strata of :func:`~rulelab.analysis.strata.game_strata`.

    Examples
    --------
    >>> games = pd.DataFrame({"game_id": ["g1", "g2", "g3"], "status": "ok",
    ...     "result_kind": ["counted", "resign", "void"], "result_winner": ["W", "B", None],
    ...     "result_margin": [2.5, None, None], "komi": 5.5, "source": None,
    ...     "board_rows": 19, "board_cols": 19, "handicap": 0, "year": 1980,
    ...     "black_rank": "9p", "white_rank": "9p"})
    >>> komi_outcomes(games)[["game_id", "kind", "winner", "margin_before_komi", "lower", "upper"]]
      game_id     kind winner  margin_before_komi  lower  upper
    0      g1  counted      W                 3.0    2.5    3.5
    1      g2   resign      B                 NaN    5.5    inf
    """
    require_columns(games, GAME_COLUMNS, "games")
    played = analysable_games(games)
    if scores is None:
        margins, scoring = record_margins(played), None
        label, shift = RECORD, pd.Series(0.0, index=played["game_id"])
    else:
        if ruleset is None:
            raise InputError("The 'ruleset' argument is required with a scores table.")
        margins, scoring = _ruleset_margins(scores, ruleset)
        label, shift = ruleset, _shift_from_record_rules(scores, ruleset)
    frame = played[list(GAME_COLUMNS[2:5])].set_axis(played["game_id"])
    frame = frame.assign(komi=pd.to_numeric(played["komi"], errors="coerce").to_numpy(float))
    counted = frame["result_kind"].isin(COUNTED_KINDS) & margins.reindex(frame.index).notna()
    censored = (frame["result_kind"].isin(list(censored_kinds)) & frame["result_winner"].isin(["B", "W"])
                & frame["komi"].notna())
    margin = margins.reindex(frame.index).where(counted)
    bound = frame["komi"] + shift.reindex(frame.index).fillna(0.0)
    black_won = frame["result_winner"].eq("B")
    lower = np.where(counted, margin - 0.5, np.where(black_won, np.floor(bound + 1) - 0.5, -np.inf))
    upper = np.where(counted, margin + 0.5, np.where(black_won, np.inf, np.ceil(bound - 1) + 0.5))
    winner = np.where(counted, winner_at((margin - frame["komi"]).to_numpy(float), "draw"), frame["result_winner"])
    out = pd.DataFrame({
        "game_id": frame.index.to_numpy(), "ruleset": label,
        "scoring": None if scoring is None else scoring.reindex(frame.index).to_numpy(),
        "kind": frame["result_kind"].to_numpy(), "komi": frame["komi"].to_numpy(),
        "winner": winner, "margin_before_komi": margin.to_numpy(float),
        "lower": lower, "upper": upper})
    out = out[(counted | censored).to_numpy()]
    return out.merge(game_strata(played), on="game_id", how="left").reset_index(drop=True)


def record_margins(games: pd.DataFrame) -> pd.Series:
    """Margin before komi of each counted record: komi plus Black's signed margin."""
    komi = pd.to_numeric(games["komi"], errors="coerce")
    size = pd.to_numeric(games["result_margin"], errors="coerce").astype(float)
    sign = games["result_winner"].map({"B": 1.0, "W": -1.0}).astype(float)
    signed = np.where(games["result_kind"].eq("draw"), 0.0, sign * size)
    return pd.Series(komi.to_numpy(float) + signed, index=games["game_id"].to_numpy()).dropna()


def _ruleset_rows(scores: pd.DataFrame, ruleset: str) -> pd.DataFrame:
    """One row per game of ``ruleset``, the run's row before the record-komi row (the
    margin before komi does not depend on komi, so any row of the ruleset gives it)."""
    require_columns(scores, ["game_id", "ruleset", "komi_source", "scoring", "margin_before_komi"], "scores")
    rows = scores[scores["ruleset"] == ruleset]
    rows = rows.assign(_rank=rows["komi_source"].eq("record")).sort_values(["game_id", "_rank"])
    return rows.drop_duplicates("game_id").set_index("game_id")


def _ruleset_margins(scores: pd.DataFrame, ruleset: str):
    rows = _ruleset_rows(scores, ruleset)
    if rows.empty:
        known = ", ".join(sorted(scores["ruleset"].dropna().astype(str).unique()))
        raise InputError(f"The scores table has no rows for ruleset {ruleset!r}; it has {known}.")
    return pd.to_numeric(rows["margin_before_komi"]).astype(float).dropna(), rows["scoring"]


def _shift_from_record_rules(scores: pd.DataFrame, ruleset: str) -> pd.Series:
    """Per game, ``ruleset``'s margin minus the margin of the record's own rules (the
    game's ``komi_source='record'`` row) on the same final position."""
    own = pd.to_numeric(_ruleset_rows(scores, ruleset)["margin_before_komi"]).astype(float)
    record = scores[scores["komi_source"] == "record"].drop_duplicates("game_id").set_index("game_id")
    return (own - pd.to_numeric(record["margin_before_komi"]).astype(float)).dropna()
