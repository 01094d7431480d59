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
                                    bootstrap_rates, fit_komi_response, fit_logistic, wilson_interval)
from rulelab.analysis.strata import STRATA
from rulelab.analysis.inputs import COUNTED_KINDS, require_columns
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
                   include_time: bool = True, n_boot: int = 1000, seed: int = 0,
                   level: float = DEFAULT_LEVEL) -> pd.DataFrame:
    """Black's win rate over a komi grid from every decided game, with two intervals: the
    re-komi curve.

    A counted game is re-counted at each komi (a draw counts half); a game resigned or
    lost on time keeps its winner, as in van Rongen's GoGoD study — a resignation is taken
    as a deficit larger than the komi's move, which holds near the komi in force and less
    far from it (``assumed`` counts the games whose result at a komi is taken so).
    ``wilson_*`` is the Wilson score interval; ``boot_*`` the percentile bootstrap over
    games with a fixed ``seed``.

    Parameters
    ----------
    outcomes : pandas.DataFrame
        From :func:`komi_outcomes` (several rulesets may be concatenated).
    komi : array_like
        Komi values in points.
    by : str, optional
        A stratum column to split by.
    include_time : bool
        Whether games lost on time count.
    n_boot : int
        Bootstrap replicates (0 skips the bootstrap).
    seed : int
        Seed of the bootstrap.
    level : float
        Confidence level of both intervals.

    Returns
    -------
    pandas.DataFrame
        Per ruleset (and stratum) and komi: ``games, counted, assumed, black_points, rate,
        wilson_low, wilson_high, boot_low, boot_high``.

    Examples
    --------
    Four counted games at komi 6.5 and one White resigned:

    >>> outcomes = pd.DataFrame({"ruleset": "japanese", "komi": 6.5,
    ...     "kind": ["counted"] * 4 + ["resign"], "winner": ["W", "B", "B", "B", "B"],
    ...     "margin_before_komi": [-3.0, 7.0, 7.0, 12.0, np.nan]})
    >>> win_rate_curve(outcomes, [5.5, 7.0, 7.5], n_boot=0)[["komi", "games", "assumed", "black_points", "rate"]]
       komi  games  assumed  black_points  rate
    0   5.5      5        1           4.0   0.8
    1   7.0      5        1           3.0   0.6
    2   7.5      5        1           2.0   0.4
    """
    require_columns(outcomes, ["ruleset", "kind", "komi", "winner", "margin_before_komi"], "outcomes")
    grid = _validate_grid(komi)
    chosen = decided(outcomes, include_time)
    # a kept winner is a margin beyond every komi
    kept = chosen["winner"].map({"B": np.inf, "W": -np.inf}).astype(float)
    chosen = chosen.assign(_margin=chosen["margin_before_komi"].astype(float).fillna(kept))
    chosen = chosen[chosen["_margin"].notna()]
    parts = []
    for key, rows in _groups(chosen, by):
        margins, counts = np.unique(rows["_margin"].to_numpy(float), return_counts=True)
        games = int(counts.sum())
        censored = rows["margin_before_komi"].isna().to_numpy()
        assumed = (censored[:, None] & (rows["komi"].to_numpy(float)[:, None] != grid[None, :])).sum(axis=0)
        points = black_score_at(margins, counts, grid)
        wilson_low, wilson_high = wilson_interval(points, games, level)
        boot_low, boot_high = bootstrap_rates(margins, counts, grid, n_boot=n_boot, seed=seed, level=level)
        parts.append(pd.DataFrame({**key, "komi": grid, "games": games, "counted": int((~censored).sum()),
                                   "assumed": assumed, "black_points": points, "rate": points / games,
                                   "wilson_low": wilson_low, "wilson_high": wilson_high,
                                   "boot_low": boot_low, "boot_high": boot_high}))
    return _concat(parts, ["ruleset"] + ([by] if by else []) + [
        "komi", "games", "counted", "assumed", "black_points", "rate", "wilson_low", "wilson_high",
        "boot_low", "boot_high"])


MAX_SCALE_19 = 25.0
"""The widest scale of the margin's logistic distribution taken as credible on 19×19
(points): a standard deviation of 45 points. It bounds the fair komi only where the data
cannot tell the scale; docs/ACCURACY.md gives the scales the collections show."""

TIME_KIND = "time"


def credible_scale(board: str | None) -> float:
    """:data:`MAX_SCALE_19` in proportion to the board's points (at least 2 points).

    Examples
    --------
    >>> credible_scale("19x19"), round(credible_scale("9x9"), 2), credible_scale(None)
    (25.0, 5.61, 25.0)
    """
    try:
        rows, cols = (int(side) for side in str(board).split("x"))
    except ValueError:
        return MAX_SCALE_19
    return max(MAX_SCALE_19 * rows * cols / 361, 2.0)


def black_result(outcomes: pd.DataFrame) -> np.ndarray:
    """Black's points per game at the komi in force: 1 a win, ½ a draw, 0 a loss."""
    return outcomes["winner"].map({"B": 1.0, "W": 0.0, "draw": 0.5}).to_numpy(float)


def decided(outcomes: pd.DataFrame, include_time: bool = True) -> pd.DataFrame:
    """The games with a winner (or a draw) at a known komi in force; time losses only
    with ``include_time``."""
    require_columns(outcomes, ["kind", "komi", "winner"], "outcomes")
    keep = outcomes["winner"].isin(["B", "W", "draw"]) & outcomes["komi"].notna()
    if not include_time:
        keep &= outcomes["kind"] != TIME_KIND
    return outcomes[keep.to_numpy()]


class FairKomiTable(pd.DataFrame):
    """The table :func:`fair_komi` returns: a DataFrame that prints as one line a row (the
    figure, its interval, n); ``pd.DataFrame(table)`` or any selection prints in full."""

    @property
    def _constructor(self):
        return pd.DataFrame

    def __repr__(self) -> str:
        needed = {"ruleset", "fair_komi", "ci_low", "ci_high", "games", "identified", "komi_played"}
        if not needed <= set(self.columns) or self.empty:
            return pd.DataFrame(self).__repr__()
        return "\n".join(_fair_komi_line(row) for row in self.to_dict("records"))


def _fair_komi_line(row: dict) -> str:
    strata = ", ".join(f"{k}={v}" for k, v in row.items() if k in STRATA)
    head = row["ruleset"] + (f" ({strata})" if strata else "")
    games = f"{int(row['games']):,} decided games at komi {row['komi_played']}"
    if row["identified"]:
        return (f"{head}: fair komi {row['fair_komi']:.1f} ({row['ci_low']:.1f} to {row['ci_high']:.1f}, "
                f"95%), {games}")
    if np.isnan(row["ci_low"]):
        return f"{head}: no fair komi, {games}"
    return (f"{head}: fair komi not identified: {row['ci_low']:.1f} to {row['ci_high']:.1f} "
            f"(any scale up to {row['max_scale']:.1f} points), {games}")


def fair_komi(outcomes: pd.DataFrame, *, by: str | None = None, adjust_for: str | None = None,
              within: str | None = None, include_time: bool = True, max_scale: float | None = None,
              level: float = DEFAULT_LEVEL) -> FairKomiTable:
    """The fair komi: the komi at which Black wins half the games between equal players of
    this population, under this counting.

    Estimated from who won each decided game (counted, resigned, on time) at the komi in
    force: Black's win rate is a logistic function of the komi
    (:func:`~rulelab.analysis.stats.fit_komi_response`), whose steepness the variation
    of the win rate across the komi values in force teaches. Margins do not enter: a
    resignation or a safe lead changes the margin, not the winner. With one komi in force
    (or too little spread) the data allow an interval, not a point: the crossings that
    every scale up to ``max_scale`` allows, and ``identified`` is False.

    Parameters
    ----------
    outcomes : pandas.DataFrame
        From :func:`komi_outcomes` (several rulesets may be concatenated).
    by : str, optional
        A stratum column to split by.
    adjust_for : str, optional
        A numeric column (e.g. ``'rank_gap'``, Black's rank minus White's) taken as a
        covariate: the fair komi is then that at a value of 0, ``slope`` the points per unit
        of it, and games where it is missing are left out.
    within : str, optional
        A stratum column (e.g. ``'era'``) each of whose levels may shift Black's advantage:
        only the komi variation inside a level then teaches the curve's steepness, and the
        fair komi is that of the level with the most games (``within_level``).
    include_time : bool
        Whether games lost on time count (they are decided games, but not on the board).
    max_scale : float, optional
        The widest credible scale (points); :func:`credible_scale` of the games' board by default.
    level : float
        Confidence level.

    Returns
    -------
    FairKomiTable
        Per ruleset (and stratum): ``games`` (decided), ``komi_played`` (the komi values in force),
        ``identified``, ``fair_komi`` (NaN unless identified), ``ci_low, ci_high``,
        ``scale``, ``max_scale`` and, with ``adjust_for``, ``slope`` and ``slope_se``.

    Examples
    --------
    >>> from rulelab.analysis.komi_simulation import SCENARIOS, simulate_games
    >>> from rulelab.analysis.outcomes import komi_outcomes
    >>> games = simulate_games(SCENARIOS[1], seed=0)  # fair komi 7, played at 5.5 and 6.5
    >>> table = fair_komi(komi_outcomes(games))
    >>> bool(table.identified[0]), bool(table.ci_low[0] < 7.0 < table.ci_high[0])
    (True, True)
    """
    require_columns(outcomes, ["ruleset", "kind", "komi", "winner"] + ([adjust_for] if adjust_for else []),
                    "outcomes")
    chosen = decided(outcomes, include_time)
    if adjust_for:
        chosen = chosen[pd.to_numeric(chosen[adjust_for], errors="coerce").notna()]
    records = []
    for key, rows in _groups(chosen, by):
        scale = max_scale if max_scale is not None else credible_scale(
            rows["board"].mode().iloc[0] if "board" in rows.columns and rows["board"].notna().any() else None)
        fit = fit_komi_response(rows["komi"], black_result(rows), level=level, max_scale=scale,
                                covariate=rows[adjust_for].to_numpy(float) if adjust_for else None,
                                groups=rows[within].astype(str).to_numpy() if within else None)
        records.append({**key, "games": int(round(fit.games)),
                        "komi_played": "/".join(f"{k:g}" for k in sorted(rows["komi"].unique())),
                        "identified": fit.identified, "fair_komi": fit.fair_komi, "ci_low": fit.ci_low,
                        "ci_high": fit.ci_high, "scale": fit.scale, "max_scale": fit.max_scale,
                        "slope": fit.slope, "slope_se": fit.slope_se, "within_level": fit.reference})
    columns = ["ruleset"] + ([by] if by else []) + [
        "games", "komi_played", "identified", "fair_komi", "ci_low", "ci_high", "scale",
        "max_scale"] + (["slope", "slope_se"] if adjust_for else []) + (["within_level"] if within else [])
    return FairKomiTable(_concat([pd.DataFrame(records)], columns))


MIN_RANKED_SHARE = 0.5
"""Share of decided games with both ranks known above which the headline fair komi is taken
at a rank gap of 0 (the gap as a covariate, on the ranked games)."""


def headline_fair_komi(outcomes: pd.DataFrame, **options) -> FairKomiTable:
    """The report's fair komi: :func:`fair_komi` at a rank gap of 0 where most decided games
    record both ranks (on servers the stronger player usually takes White, which would
    otherwise pass for Black's disadvantage), else on every decided game.

    The options are :func:`fair_komi`'s (not ``adjust_for``, which this chooses).
    """
    ranked = decided(outcomes, options.get("include_time", True))
    if "rank_gap" in ranked.columns and ranked["rank_gap"].notna().mean() > MIN_RANKED_SHARE:
        return fair_komi(outcomes, adjust_for="rank_gap", **options)
    return fair_komi(outcomes, **options)


ROBUST_CHOICES = ("time losses left out", "every even game, rank gaps not adjusted", "equal ranks only")
"""Sensitivity rows whose estimator is the headline's, on another defensible choice of games:
their spread is model uncertainty that the headline's range carries."""


def fair_komi_sensitivity(outcomes: pd.DataFrame, *, level: float = DEFAULT_LEVEL) -> pd.DataFrame:
    """The headline fair komi beside each choice it rests on, per ruleset.

    Rows (``choice``): the headline (:func:`headline_fair_komi`); the same estimator with time
    losses left out, without the rank-gap adjustment and between equal ranks only
    (:data:`ROBUST_CHOICES`); within eras (only the komi variation inside an era counts, the
    figure that of the era with the most games); on the counted games only (which are the
    close ones, so their winners flatten the curve); and the margin fit it replaced, with and
    without resignations as bounds (:func:`margin_fit`: read as a sample, the margins crowd
    around the komi in force). ``range_low``/``range_high`` on the headline row join its
    interval with the point estimates of the robust choices, so a choice that moves the
    figure further than sampling error widens the range the report gives.
    """
    require_columns(outcomes, ["ruleset", "kind", "komi", "winner", "rank_gap", "lower", "upper",
                               "margin_before_komi"], "outcomes")
    counted = outcomes["kind"].isin(COUNTED_KINDS)
    choices = {
        "headline": lambda: headline_fair_komi(outcomes, level=level),
        "time losses left out": lambda: headline_fair_komi(outcomes, include_time=False, level=level),
        "every even game, rank gaps not adjusted": lambda: fair_komi(outcomes, level=level),
        "equal ranks only": lambda: fair_komi(outcomes[outcomes["rank_gap"] == 0], level=level),
        "within eras (era as a covariate; the era with the most games)":
            lambda: headline_fair_komi(outcomes, within="era", level=level),
        "counted games only": lambda: headline_fair_komi(outcomes[counted], level=level),
    }
    parts = [pd.DataFrame(table()).assign(choice=choice) for choice, table in choices.items()]
    previous = margin_fit(outcomes, level=level)
    for variant, choice in (("counted+censored", "margins, resignations as bounds (previous estimator)"),
                            ("counted only", "counted margins only (previous estimator)")):
        rows = previous[previous["variant"] == variant]
        parts.append(rows.assign(choice=choice, identified=rows["converged"].astype(bool)))
    table = _concat(parts, ["ruleset", "choice", "games", "identified", "fair_komi", "ci_low", "ci_high"])
    robust = table[table["choice"].isin(ROBUST_CHOICES)].groupby("ruleset")["fair_komi"]
    head = table["choice"] == "headline"
    low = pd.concat([table.loc[head].set_index("ruleset")["ci_low"], robust.min()], axis=1).min(axis=1)
    high = pd.concat([table.loc[head].set_index("ruleset")["ci_high"], robust.max()], axis=1).max(axis=1)
    table["range_low"] = np.where(head, table["ruleset"].map(low), np.nan)
    table["range_high"] = np.where(head, table["ruleset"].map(high), np.nan)
    return table


def win_rate_by_komi(outcomes: pd.DataFrame, *, by: str | None = None, include_time: bool = True,
                     level: float = DEFAULT_LEVEL) -> pd.DataFrame:
    """Black's win rate at each komi in force over every decided game (a draw counts half),
    model-free, with Wilson intervals: the data :func:`fair_komi` reads.

    Examples
    --------
    >>> outcomes = pd.DataFrame({"ruleset": "record", "kind": ["counted", "resign", "time", "counted"],
    ...                          "komi": [5.5, 5.5, 5.5, 6.5], "winner": ["B", "W", "B", "W"]})
    >>> win_rate_by_komi(outcomes)[["komi", "games", "counted", "resigned", "on_time", "rate"]]
       komi  games  counted  resigned  on_time      rate
    0   5.5      3        1         1        1  0.666667
    1   6.5      1        1         0        0  0.000000
    """
    chosen = decided(outcomes, include_time)
    chosen = chosen.assign(_points=black_result(chosen))
    parts = []
    for key, rows in _groups(chosen, by):
        for komi_value, at in rows.groupby("komi", sort=True):
            games, points = len(at), float(at["_points"].sum())
            low, high = wilson_interval(points, games, level)
            parts.append({**key, "komi": komi_value, "games": games,
                          "counted": int(at["kind"].isin(COUNTED_KINDS).sum()),
                          "resigned": int((at["kind"] == "resign").sum()),
                          "on_time": int((at["kind"] == TIME_KIND).sum()),
                          "black_points": points, "rate": points / games,
                          "wilson_low": float(low), "wilson_high": float(high)})
    return _concat([pd.DataFrame(parts)], ["ruleset"] + ([by] if by else []) + [
        "komi", "games", "counted", "resigned", "on_time", "black_points", "rate", "wilson_low", "wilson_high"])


def margin_fit(outcomes: pd.DataFrame, *, by: str | None = None, n_boot: int = 0, seed: int = 0,
               level: float = DEFAULT_LEVEL, adjust_for: str | None = None) -> pd.DataFrame:
    """The 50% crossing of a logistic distribution of the margins, with and without the
    resigned and timed-out games as bounds: the estimator :func:`fair_komi` replaced, kept
    as a sensitivity row.

    It reads counted games as a sample of margins. They are not one: lopsided games are
    resigned and the leader plays safe, so the counted margins crowd around the komi in
    force and the crossing follows it (the simulation study in docs/ACCURACY.md measures
    how far).

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
    >>> table = margin_fit(outcomes)
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
