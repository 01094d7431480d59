"""Komi and Black's win rate: win-rate curves, fair komi, counterfactual re-komi, the
records' agreement with rulelab's counts, and the margins' distribution.

Every function reads the outcomes of :func:`rulelab.analysis.outcomes.komi_outcomes`:
one row per game saying where its margin before komi lies.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rulelab.analysis.outcomes import RECORD
from rulelab.analysis.stats import (DEFAULT_LEVEL, black_points, black_score_at, bootstrap_location,
                                    bootstrap_rates, fit_logistic, wilson_interval)
from rulelab.analysis.strata import STRATA
from rulelab.analysis.inputs import require_columns
from rulelab.errors import InputError

DEFAULT_KOMI_GRID = np.arange(0.0, 12.5, 0.5)
"""Komi values (points) at which win-rate curves are evaluated."""


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
              level: float = DEFAULT_LEVEL, adjust_for: str | None = None) -> pd.DataFrame:
    """The fair komi (50% crossing of a logistic win-rate curve), with and without
    the resigned and timed-out games.

    The curve is a logistic distribution of the margin before komi fitted by maximum
    likelihood to intervals (:func:`~rulelab.analysis.stats.fit_logistic`): counted
    games pin the margin to one point, censored games bound it on one side (see
    :data:`~rulelab.analysis.outcomes.CENSORING_ASSUMPTION`). Each group is fitted twice, so the table shows how
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
    adjust_for : str, optional
        A numeric column (e.g. ``'rank_gap'``, Black's rank minus White's) taken as a
        covariate of the margin: the fair komi is then the komi at which Black wins half
        the games when that column is 0, ``slope`` the points per unit of it, and games
        where it is missing are left out.

    Returns
    -------
    pandas.DataFrame
        Per ruleset (and stratum) and ``variant`` (``'counted+censored'``,
        ``'counted only'``): ``games, counted, censored, fair_komi, scale, ci_low,
        ci_high, boot_low, boot_high, converged`` and, with ``adjust_for``, ``slope``
        and ``slope_se``.

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
    require_columns(outcomes, ["ruleset", "lower", "upper", "margin_before_komi"]
                    + ([adjust_for] if adjust_for else []), "outcomes")
    if adjust_for:
        outcomes = outcomes[pd.to_numeric(outcomes[adjust_for], errors="coerce").notna()]
    records = []
    for key, rows in _groups(outcomes, by):
        counted = rows["margin_before_komi"].notna()
        for variant, chosen in (("counted+censored", rows), ("counted only", rows[counted])):
            covariate = chosen[adjust_for].to_numpy(float) if adjust_for else None
            fit = fit_logistic(chosen["lower"], chosen["upper"], covariate=covariate, level=level)
            boot = bootstrap_location(chosen["lower"], chosen["upper"], n_boot=n_boot, seed=seed,
                                      level=level, fit=fit, covariate=covariate)
            n_counted = int(chosen["margin_before_komi"].notna().sum())
            records.append({**key, "variant": variant, "games": len(chosen), "counted": n_counted,
                            "censored": len(chosen) - n_counted, "fair_komi": fit.location,
                            "scale": fit.scale, "ci_low": fit.ci_low, "ci_high": fit.ci_high,
                            "boot_low": boot[0], "boot_high": boot[1], "converged": fit.converged,
                            "slope": fit.slope, "slope_se": fit.se_slope})
    columns = ["ruleset"] + ([by] if by else []) + [
        "variant", "games", "counted", "censored", "fair_komi", "scale", "ci_low", "ci_high",
        "boot_low", "boot_high", "converged"] + (["slope", "slope_se"] if adjust_for else [])
    return _concat([pd.DataFrame(records)], columns)


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
