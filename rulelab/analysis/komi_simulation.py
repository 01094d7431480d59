"""Synthetic collections with a known fair komi, to test the komi estimators against the truth.

A komi statistic is trusted only once it recovers a known truth from data made the way
real collections are made. :func:`simulate_games` writes a games table (the columns the
komi analyses read) from a stated process:

- each game has a latent margin before komi, logistic around the **fair komi** plus
  ``points_per_rank`` for every rank step Black is above White, with ``scale``;
- the **komi in force** is that of the game's era (``eras``);
- players are paired with a rank gap, and where ``stronger_takes_white`` the stronger one
  takes White, as on servers;
- the player behind by more than a threshold (exponential around ``resign_points``)
  **resigns**; the others are **counted**, their margins pulled toward the komi by the
  leader's safe play (``compression``: the lead kept is that share of the lead, at least
  half a point); a share of games is **lost on time** (mostly by the player behind), and at
  a whole-number komi an exact margin is a **draw**.

Black wins half the games between equal players at the fair komi whatever the rest of the
process does, so ``fair_komi`` is the truth an estimator must find.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from rulelab.analysis.komi import headline_fair_komi, margin_fit
from rulelab.analysis.outcomes import komi_outcomes
from rulelab.analysis.selection import komi_population

BOARD = 19
FIRST_RANK = 1
"""Players' ranks are amateur dan ranks from ``FIRST_RANK`` to ``FIRST_RANK + 6``."""


@dataclass(frozen=True)
class Scenario:
    """How a synthetic collection is made (points unless said otherwise)."""

    name: str
    eras: tuple[tuple[int, float], ...]
    """(first year, komi in force from then on), oldest first; games spread evenly over
    ``years_per_era`` years from each first year."""
    fair_komi: float = 7.0
    scale: float = 9.0
    games: int = 20000
    years_per_era: int = 5
    equal_share: float = 1.0
    """Share of games between equal ranks; the others differ by 1 to 3 rank steps."""
    stronger_takes_white: bool = False
    points_per_rank: float = 10.0
    resign_points: float = 15.0
    compression: float = 1.0
    time_share: float = 0.03
    time_loser_behind: float = 0.75
    """Share of time losses that fall on the player behind on the board."""

    def with_games(self, games: int) -> "Scenario":
        """The same process with another number of games."""
        return replace(self, games=games)


SCENARIOS = (
    Scenario("one komi in force", eras=((2010, 5.5),)),
    Scenario("two komi in force by era", eras=((2000, 5.5), (2005, 6.5))),
    Scenario("rank gaps, the stronger player takes White", eras=((2000, 5.5), (2005, 6.5)),
             equal_share=0.4, stronger_takes_white=True),
    Scenario("strategic resignation, margins compressed toward the komi",
             eras=((2000, 5.5), (2005, 6.5)), resign_points=6.0, compression=0.35),
)
"""The scenarios of the simulation study (docs/ACCURACY.md)."""


def simulate_games(scenario: Scenario, seed: int) -> pd.DataFrame:
    """A games table drawn from ``scenario`` (the same seed gives the same table).

    Examples
    --------
    >>> games = simulate_games(SCENARIOS[1].with_games(1000), seed=0)
    >>> sorted(games.komi.unique().tolist()), bool(games.result_kind.isin(["counted", "resign", "time"]).all())
    ([5.5, 6.5], True)
    """
    rng = np.random.default_rng(seed)
    n = scenario.games
    era = rng.integers(0, len(scenario.eras), size=n)
    first_year = np.array([year for year, _ in scenario.eras])[era]
    komi = np.array([value for _, value in scenario.eras])[era]
    year = first_year + rng.integers(0, scenario.years_per_era, size=n)

    gap = np.where(rng.random(n) < scenario.equal_share, 0, rng.integers(1, 4, size=n))
    sign = -1 if scenario.stronger_takes_white else rng.choice([-1, 1], size=n)
    gap = gap * sign
    white_rank = rng.integers(FIRST_RANK + 3, FIRST_RANK + 4, size=n) - np.minimum(gap, 0)
    black_rank = white_rank + gap

    latent = rng.logistic(scenario.fair_komi + scenario.points_per_rank * gap, scenario.scale)
    margin = np.round(latent)  # the margin before komi, in whole points
    lead = margin - komi  # Black's lead at the komi in force
    resigned = np.abs(lead) > rng.exponential(scenario.resign_points, size=n)
    fraction = komi % 1  # leads are whole at a whole komi, halves at a half komi
    smallest = np.where(fraction > 0, fraction, 1.0)
    kept = np.maximum(np.floor(np.abs(lead) * scenario.compression - fraction) + fraction, smallest)
    counted_margin = komi + np.sign(lead) * kept
    on_time = ~resigned & (rng.random(n) < scenario.time_share)
    behind_loses = rng.random(n) < scenario.time_loser_behind
    board_winner = np.where(lead > 0, "B", np.where(lead < 0, "W", None))
    other = np.where(lead > 0, "W", np.where(lead < 0, "B", rng.choice(["B", "W"], size=n)))
    time_winner = np.where(behind_loses & (lead != 0), board_winner, other)

    kind = np.where(resigned, "resign", np.where(on_time, "time", np.where(lead == 0, "draw", "counted")))
    winner = np.where(on_time, time_winner, board_winner)
    result_margin = np.where(kind == "counted", np.abs(counted_margin - komi), np.nan)
    return pd.DataFrame({
        "game_id": [f"{scenario.name[:12]}-{seed}-{i}" for i in range(n)],
        "status": "ok", "duplicate_of": None, "source": "simulated",
        "result_kind": kind, "result_winner": np.where(kind == "draw", None, winner).astype(object),
        "result_margin": result_margin, "komi": komi, "handicap": 0,
        "board_rows": BOARD, "board_cols": BOARD, "year": year,
        "black_rank": [f"{r}d" for r in black_rank], "white_rank": [f"{r}d" for r in white_rank],
    })


def study(scenarios=SCENARIOS, collections: int = 200, *, games: int | None = None,
          seed: int = 0) -> pd.DataFrame:
    """How the fair-komi estimators fare on ``collections`` synthetic collections per scenario.

    Each collection goes the report's way: the records' outcomes, the even games, then
    :func:`~rulelab.analysis.komi.headline_fair_komi` (``estimator='winners at the komi in
    force'``) and, for comparison, the fit to margins it replaced
    (:func:`~rulelab.analysis.komi.margin_fit`, ``'margins as a sample (previous)'``).

    Returns
    -------
    pandas.DataFrame
        Per scenario and estimator: ``collections``, ``truth``, ``identified`` (share with a
        point estimate), ``coverage`` (share of 95% intervals holding the truth),
        ``mean_error`` and ``rmse`` of the point estimates, ``median_width`` of the intervals.
    """
    rows = []
    for number, scenario in enumerate(scenarios):
        scenario = scenario if games is None else scenario.with_games(games)
        for collection in range(collections):
            outcomes = komi_population(komi_outcomes(simulate_games(scenario, seed + 7919 * number + collection)))
            new = headline_fair_komi(outcomes).iloc[0]
            ranked = "rank_gap" if pd.notna(new.get("slope")) else None  # the headline adjusted for it
            old = margin_fit(outcomes, adjust_for=ranked)
            old = old[old["variant"] == "counted+censored"].iloc[0]
            for name, fit, identified in (("winners at the komi in force", new, bool(new["identified"])),
                                          ("margins as a sample (previous)", old, bool(old["converged"]))):
                rows.append({"scenario": scenario.name, "estimator": name, "truth": scenario.fair_komi,
                             "identified": identified, "estimate": fit["fair_komi"],
                             "covered": fit["ci_low"] <= scenario.fair_komi <= fit["ci_high"],
                             "width": fit["ci_high"] - fit["ci_low"]})
    runs = pd.DataFrame(rows)
    runs["error"] = runs["estimate"] - runs["truth"]
    order = {s.name: i for i, s in enumerate(scenarios)}
    table = (runs.groupby(["scenario", "estimator"], sort=False)
             .agg(collections=("truth", "size"), truth=("truth", "first"), identified=("identified", "mean"),
                  coverage=("covered", "mean"), mean_error=("error", "mean"),
                  rmse=("error", lambda e: float(np.sqrt(np.nanmean(e ** 2))) if e.notna().any() else np.nan),
                  median_width=("width", "median"))
             .reset_index())
    return table.sort_values(["scenario", "estimator"], key=lambda c: c.map(order) if c.name == "scenario" else c.str.startswith("margins"),
                             kind="stable").reset_index(drop=True)
