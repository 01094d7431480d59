"""Published komi figures, and the same quantities measured on a corpus beside them.

The published numbers are kept with their sources in ``data/published_komi.json``
(shipped in the package as ``rulelab/data``), so a report can set rulelab's
measurements next to them and say in one sentence how they compare.
"""

from __future__ import annotations

import json
from importlib.resources import files

import numpy as np
import pandas as pd

from rulelab.analysis.komi import rekomi_flips
from rulelab.analysis.stats import DEFAULT_LEVEL, wilson_interval
from rulelab.analysis.inputs import require_columns

PUBLISHED = pd.DataFrame(json.loads(
    files("rulelab").joinpath("data", "published_komi.json").read_text(encoding="utf-8"))["figures"])
"""One row per published figure: ``key``, ``kind`` ('rate' or 'komi'), ``value``,
``sample`` (as stated, '' when not), ``figure`` and ``source``."""

COMPARISON_COLUMNS = ("key", "figure", "published", "published_sample", "rulelab", "low", "high",
                      "games", "sentence", "source")


def compare_published(record_outcomes: pd.DataFrame, fair_komi_table: pd.DataFrame | None = None,
                      *, area_ruleset: str = "chinese", level: float = DEFAULT_LEVEL) -> pd.DataFrame:
    """Measure each published figure's quantity on a corpus and compare.

    Parameters
    ----------
    record_outcomes : pandas.DataFrame
        :func:`~rulelab.analysis.outcomes.komi_outcomes` on the records' own results
        (the published rates are of recorded results).
    fair_komi_table : pandas.DataFrame, optional
        :func:`~rulelab.analysis.komi.fair_komi` of even games, one row per ruleset;
        its ``area_ruleset`` row is compared (its interval alone where not identified).
    area_ruleset : str
        The area-scoring ruleset standing for "area komi".
    level : float
        Confidence level of the intervals.

    Returns
    -------
    pandas.DataFrame
        One row per :data:`PUBLISHED` figure: ``published``, rulelab's value with
        ``low``/``high``, ``games`` and a ``sentence`` saying how they compare.

    Examples
    --------
    >>> outcomes = pd.DataFrame({"ruleset": "record", "komi": 5.5, "year": 1980,
    ...     "winner": ["B"] * 53 + ["W"] * 47, "margin_before_komi": [6.0] * 3 + [np.nan] * 97})
    >>> table = compare_published(outcomes)
    >>> table[["key", "rulelab", "games"]]
                                 key  rulelab  games
    0        japan_pro_5.5_from_1975     0.53    100
    1                 gogod_2002_5.5     0.53    100
    2  gogod_2002_6.5_counterfactual     0.50    100
    3                 fair_area_komi      NaN      0
    >>> print(table.sentence[0])  # doctest: +NORMALIZE_WHITESPACE
    Published 53.0% of 51,711 games; here 53.0% of 100 games (95% CI 43.3%–62.5%):
    the published figure lies inside this interval.
    """
    require_columns(record_outcomes, ["ruleset", "komi", "year", "winner", "margin_before_komi"],
                    "outcomes")
    decided = record_outcomes[record_outcomes["winner"].isin(["B", "W", "draw"])]
    at_55 = decided[decided["komi"] == 5.5]
    from_1975 = at_55[at_55["year"] >= 1975]
    flips = rekomi_flips(at_55, 5.5, 6.5)
    measured = {
        "japan_pro_5.5_from_1975": _rate(from_1975, level),
        "gogod_2002_5.5": _flip_rate(flips, "rate_from", level),
        "gogod_2002_6.5_counterfactual": _flip_rate(flips, "rate_to", level),
        "fair_area_komi": _fair(fair_komi_table, area_ruleset),
    }
    rows = []
    for published in PUBLISHED.itertuples(index=False):
        value, low, high, games = measured[published.key]
        rows.append({"key": published.key, "figure": published.figure, "published": published.value,
                     "published_sample": published.sample, "rulelab": value, "low": low, "high": high,
                     "games": games, "sentence": _sentence(published, value, low, high, games, level),
                     "source": published.source})
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


def _rate(decided: pd.DataFrame, level: float) -> tuple[float, float, float, int]:
    games = len(decided)
    points = float(decided["winner"].eq("B").sum() + 0.5 * decided["winner"].eq("draw").sum())
    low, high = wilson_interval(points, games, level)
    return (points / games if games else np.nan), float(low), float(high), games


def _flip_rate(flips: pd.DataFrame, column: str, level: float) -> tuple[float, float, float, int]:
    if flips.empty:
        return np.nan, np.nan, np.nan, 0
    games = int(flips["games"].sum())
    rate = float(flips[column].iloc[0])
    low, high = wilson_interval(rate * games, games, level)
    return rate, float(low), float(high), games


def _fair(table: pd.DataFrame | None, ruleset: str) -> tuple[float, float, float, int]:
    if table is None or table.empty:
        return np.nan, np.nan, np.nan, 0
    row = table[table["ruleset"] == ruleset]
    if row.empty:
        return np.nan, np.nan, np.nan, 0
    row = row.iloc[0]  # not identified: no point, the interval the data allow
    return float(row["fair_komi"]), float(row["ci_low"]), float(row["ci_high"]), int(row["games"])


def _sentence(published, value, low, high, games, level) -> str:
    rate = published.kind == "rate"
    show = (lambda x: f"{x:.1%}") if rate else (lambda x: f"{x:.1f} points")
    head = f"Published {show(published.value)}" + (f" of {published.sample}" if published.sample else "")
    if games == 0 or np.isnan(low):
        return f"{head}; this corpus has no games to measure it on."
    if np.isnan(value):
        where = "inside" if low <= published.value <= high else "outside"
        return (f"{head}; here not identified from {games:,} games, the data allow "
                f"{show(low).replace(' points', '')}–{show(high)}: the published figure lies {where} that range.")
    if np.isnan(low) or np.isnan(high):
        return f"{head}; here {show(value)} of {games:,} games (no interval)."
    where = "inside" if low <= published.value <= high else (
        "above" if published.value > high else "below")
    return (f"{head}; here {show(value)} of {games:,} games ({level:.0%} CI "
            f"{show(low).replace(' points', '')}–{show(high)}): the published figure lies "
            f"{where} this interval.")
