"""Komi and Black's win rate: margins, win-rate curves, fair komi, counterfactual re-komi.

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

from rulelab.analysis.stats import (DEFAULT_LEVEL, black_points, black_score_at, bootstrap_location,
                                    bootstrap_rates, fit_logistic, wilson_interval)
from rulelab.analysis.strata import STRATA, game_strata
from rulelab.analysis.inputs import COUNTED_KINDS, analysable_games, require_columns
from rulelab.errors import InputError

CENSORED_KINDS = ("resign", "time")
"""Result kinds whose winner is known but whose margin is not."""

DEFAULT_KOMI_GRID = np.arange(0.0, 12.5, 0.5)
"""Komi values (points) at which win-rate curves are evaluated."""

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
    winner = np.where(counted, _winner_at(margin, frame["komi"]), frame["result_winner"])
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


def _winner_at(margin: pd.Series, komi: pd.Series) -> np.ndarray:
    return np.select([margin > komi, margin < komi, margin == komi], ["B", "W", "draw"], None)


def _groups(frame: pd.DataFrame, by: str | None):
    """(group key dict, rows) per ruleset (and stratum), sorted."""
    keys = ["ruleset"] + ([by] if by else [])
    if by is not None and by not in STRATA and by not in frame.columns:
        raise InputError(f"The 'by' argument must be one of {', '.join(STRATA)}; got {by!r}.")
    for key, rows in frame.groupby(keys, sort=True, observed=True, dropna=False):
        yield dict(zip(keys, key)), rows


def _validate_grid(komi) -> np.ndarray:
    grid = np.asarray(komi, dtype=float).ravel()
    if grid.size == 0 or not np.isfinite(grid).all():
        raise InputError(f"The komi grid must be a non-empty list of finite numbers; got {komi!r}.")
    return grid


def win_rate_curve(outcomes: pd.DataFrame, komi=DEFAULT_KOMI_GRID, *, by: str | None = None,
                   n_boot: int = 1000, seed: int = 0, level: float = DEFAULT_LEVEL) -> pd.DataFrame:
    """Black's win rate over a komi grid from counted games, with two intervals.

    A draw counts half a win. ``wilson_*`` is the Wilson score interval;
    ``boot_*`` the percentile bootstrap over games with a fixed ``seed``.

    Parameters
    ----------
    outcomes : pandas.DataFrame
        From :func:`komi_outcomes` (several rulesets may be concatenated).
    komi : array_like
        Komi values in points.
    by : str, optional
        A stratum column to split by.
    n_boot : int
        Bootstrap replicates (0 skips the bootstrap).
    seed : int
        Seed of the bootstrap.
    level : float
        Confidence level of both intervals.

    Returns
    -------
    pandas.DataFrame
        Per ruleset (and stratum) and komi: ``games, black_points, rate, wilson_low,
        wilson_high, boot_low, boot_high``.

    Examples
    --------
    >>> outcomes = pd.DataFrame({"ruleset": "japanese", "kind": "counted",
    ...                          "margin_before_komi": [-3.0, 6.0, 6.0, 12.0]})
    >>> win_rate_curve(outcomes, [5.5, 6.0, 6.5], n_boot=0)[["komi", "games", "black_points", "rate"]]
       komi  games  black_points  rate
    0   5.5      4           3.0  0.75
    1   6.0      4           2.0  0.50
    2   6.5      4           1.0  0.25
    """
    require_columns(outcomes, ["ruleset", "kind", "margin_before_komi"], "outcomes")
    grid = _validate_grid(komi)
    counted = outcomes[outcomes["margin_before_komi"].notna()]
    parts = []
    for key, rows in _groups(counted, by):
        margins, counts = np.unique(rows["margin_before_komi"].to_numpy(float), return_counts=True)
        games = int(counts.sum())
        points = black_score_at(margins, counts, grid)
        wilson_low, wilson_high = wilson_interval(points, games, level)
        boot_low, boot_high = bootstrap_rates(margins, counts, grid, n_boot=n_boot, seed=seed, level=level)
        parts.append(pd.DataFrame({**key, "komi": grid, "games": games, "black_points": points,
                                   "rate": points / games, "wilson_low": wilson_low,
                                   "wilson_high": wilson_high, "boot_low": boot_low,
                                   "boot_high": boot_high}))
    return _concat(parts, ["ruleset"] + ([by] if by else []) + ["komi", "games", "black_points", "rate",
                                                                  "wilson_low", "wilson_high",
                                                                  "boot_low", "boot_high"])


def fair_komi(outcomes: pd.DataFrame, *, by: str | None = None, n_boot: int = 0, seed: int = 0,
              level: float = DEFAULT_LEVEL) -> pd.DataFrame:
    """The fair komi (50% crossing of a logistic win-rate curve), with and without
    the resigned and timed-out games.

    The curve is a logistic distribution of the margin before komi fitted by maximum
    likelihood to intervals (:func:`~rulelab.analysis.stats.fit_logistic`): counted
    games pin the margin to one point, censored games bound it on one side (see
    :data:`CENSORING_ASSUMPTION`). Each group is fitted twice, so the table shows how
    far the estimate moves when the censored games are left out.

    Parameters
    ----------
    outcomes : pandas.DataFrame
        From :func:`komi_outcomes`.
    by : str, optional
        A stratum column to split by.
    n_boot : int
        Bootstrap replicates for ``boot_low``/``boot_high`` (0: Wald interval only).
    seed : int
        Seed of the bootstrap.
    level : float
        Confidence level.

    Returns
    -------
    pandas.DataFrame
        Per ruleset (and stratum) and ``variant`` (``'counted+censored'``,
        ``'counted only'``): ``games, counted, censored, fair_komi, scale, ci_low,
        ci_high, boot_low, boot_high, converged``.

    Examples
    --------
    >>> m = np.round(np.random.default_rng(0).logistic(6.0, 10.0, size=4000))
    >>> outcomes = pd.DataFrame({"ruleset": "japanese", "lower": m - 0.5, "upper": m + 0.5,
    ...                          "margin_before_komi": m})
    >>> table = fair_komi(outcomes)
    >>> table[["variant", "games", "converged"]]
                variant  games  converged
    0  counted+censored   4000       True
    1      counted only   4000       True
    >>> bool(abs(table.fair_komi[0] - 6.0) < 0.6)
    True
    """
    require_columns(outcomes, ["ruleset", "lower", "upper", "margin_before_komi"], "outcomes")
    records = []
    for key, rows in _groups(outcomes, by):
        counted = rows["margin_before_komi"].notna()
        for variant, chosen in (("counted+censored", rows), ("counted only", rows[counted])):
            fit = fit_logistic(chosen["lower"], chosen["upper"], level=level)
            boot = bootstrap_location(chosen["lower"], chosen["upper"], n_boot=n_boot, seed=seed,
                                      level=level, fit=fit)
            n_counted = int(chosen["margin_before_komi"].notna().sum())
            records.append({**key, "variant": variant, "games": len(chosen), "counted": n_counted,
                            "censored": len(chosen) - n_counted, "fair_komi": fit.location,
                            "scale": fit.scale, "ci_low": fit.ci_low, "ci_high": fit.ci_high,
                            "boot_low": boot[0], "boot_high": boot[1], "converged": fit.converged})
    return _concat([pd.DataFrame(records)], ["ruleset"] + ([by] if by else []) + [
        "variant", "games", "counted", "censored", "fair_komi", "scale", "ci_low", "ci_high",
        "boot_low", "boot_high", "converged"])


def rekomi_flips(outcomes: pd.DataFrame, from_komi: float, to_komi: float, *,
                 by: str | None = None) -> pd.DataFrame:
    """How many results of games played at ``from_komi`` change at ``to_komi``.

    Counted games are re-scored at the new komi; a draw counts half. Like van
    Rongen's GoGoD study, the rates over all decided games assume that resigned and
    timed-out games keep their winner.

    Parameters
    ----------
    outcomes : pandas.DataFrame
        From :func:`komi_outcomes`.
    from_komi, to_komi : float
        Komi in force, and the counterfactual komi (points).
    by : str, optional
        A stratum column to split by.

    Returns
    -------
    pandas.DataFrame
        Per ruleset (and stratum): ``from_komi, to_komi, games`` (decided),
        ``counted, flipped`` (counted games whose result changes), ``flipped_share``,
        ``rate_from, rate_to`` (Black's rate over decided games) and
        ``counted_rate_from, counted_rate_to``.

    Examples
    --------
    Four games at 5.5: B+0.5 (flips at 6.5), B+3.5, W+1.5, and a resignation by White.

    >>> outcomes = pd.DataFrame({"ruleset": "record", "komi": 5.5, "winner": ["B", "B", "W", "B"],
    ...                          "margin_before_komi": [6.0, 9.0, 4.0, np.nan]})
    >>> rekomi_flips(outcomes, 5.5, 6.5)[["games", "counted", "flipped", "rate_from", "rate_to"]]
       games  counted  flipped  rate_from  rate_to
    0      4        3        1       0.75      0.5
    """
    require_columns(outcomes, ["ruleset", "komi", "winner", "margin_before_komi"], "outcomes")
    grid = _validate_grid([from_komi, to_komi])
    played = outcomes[outcomes["komi"] == grid[0]]
    records = []
    for key, rows in _groups(played, by):
        margins = rows["margin_before_komi"].to_numpy(float)
        counted = ~np.isnan(margins)
        per_game = black_points(margins[counted], grid)
        before, after = per_game.sum(axis=0)
        flipped = int((per_game[:, 0] != per_game[:, 1]).sum())
        censored_black = float(rows.loc[~counted, "winner"].eq("B").sum())
        games = len(rows)
        records.append({**key, "from_komi": grid[0], "to_komi": grid[1], "games": games,
                        "counted": int(counted.sum()), "flipped": flipped,
                        "flipped_share": flipped / counted.sum() if counted.any() else np.nan,
                        "rate_from": (before + censored_black) / games,
                        "rate_to": (after + censored_black) / games,
                        "counted_rate_from": before / counted.sum() if counted.any() else np.nan,
                        "counted_rate_to": after / counted.sum() if counted.any() else np.nan})
    return _concat([pd.DataFrame(records)], ["ruleset"] + ([by] if by else []) + [
        "from_komi", "to_komi", "games", "counted", "flipped", "flipped_share", "rate_from",
        "rate_to", "counted_rate_from", "counted_rate_to"])


def record_agreement(outcomes: pd.DataFrame) -> pd.DataFrame:
    """How often rulelab's count of a counted game matches the record's own result.

    A check on everything upstream (replay, dead stones, scoring) and on the record:
    the winner at the komi in force, and the margin itself, compared game by game.

    Parameters
    ----------
    outcomes : pandas.DataFrame
        :func:`komi_outcomes` of one or more rulesets concatenated with the records'
        (``ruleset == 'record'``).

    Returns
    -------
    pandas.DataFrame
        Per ruleset: ``games`` counted in both, ``same_winner``, ``same_margin`` (shares)
        and ``median_gap`` (median absolute margin difference, points).

    Examples
    --------
    >>> outcomes = pd.DataFrame({"game_id": ["a", "b", "a", "b"], "komi": 6.5,
    ...     "ruleset": ["record", "record", "japanese", "japanese"],
    ...     "margin_before_komi": [10.0, 4.0, 10.0, 8.0]})
    >>> record_agreement(outcomes)
        ruleset  games  same_winner  same_margin  median_gap
    0  japanese      2          0.5          0.5         2.0
    """
    require_columns(outcomes, ["game_id", "ruleset", "komi", "margin_before_komi"], "outcomes")
    counted = outcomes[outcomes["margin_before_komi"].notna()]
    record = counted.loc[counted["ruleset"] == RECORD, ["game_id", "margin_before_komi"]]
    rows = []
    for name, own in counted[counted["ruleset"] != RECORD].groupby("ruleset", sort=True):
        both = own.merge(record, on="game_id", suffixes=("", "_record"))
        ours, theirs = both["margin_before_komi"], both["margin_before_komi_record"]
        same_winner = np.sign(ours - both["komi"]) == np.sign(theirs - both["komi"])
        rows.append({"ruleset": name, "games": len(both), "same_winner": same_winner.mean(),
                     "same_margin": (ours == theirs).mean(), "median_gap": (ours - theirs).abs().median()})
    return pd.DataFrame(rows, columns=["ruleset", "games", "same_winner", "same_margin", "median_gap"])


def margin_distribution(outcomes: pd.DataFrame) -> pd.DataFrame:
    """Counted games per ruleset and margin before komi, with the margin's parity.

    On a board with an odd number of points and no seki dame the area margin is odd
    (RULES.md, "Parity"); territory margins have no such constraint. The ``parity``
    column makes that structure visible.

    Examples
    --------
    >>> outcomes = pd.DataFrame({"ruleset": "chinese", "scoring": "area",
    ...                          "margin_before_komi": [7.0, 7.0, 9.0, np.nan]})
    >>> margin_distribution(outcomes)
       ruleset scoring  margin_before_komi  games parity
    0  chinese    area                 7.0      2    odd
    1  chinese    area                 9.0      1    odd
    """
    require_columns(outcomes, ["ruleset", "scoring", "margin_before_komi"], "outcomes")
    counted = outcomes[outcomes["margin_before_komi"].notna()]
    table = (counted.assign(scoring=counted["scoring"].fillna("unknown"))
             .groupby(["ruleset", "scoring", "margin_before_komi"], sort=True)
             .size().rename("games").reset_index())
    remainder = np.mod(table["margin_before_komi"].to_numpy(float), 2)
    table["parity"] = np.select([remainder == 0, remainder == 1], ["even", "odd"], "fractional")
    return table


def _concat(parts: list[pd.DataFrame], columns: list[str]) -> pd.DataFrame:
    parts = [p for p in parts if not p.empty]
    return pd.concat(parts, ignore_index=True)[columns] if parts else pd.DataFrame(columns=columns)
