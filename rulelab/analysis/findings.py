"""The numbers the report opens with: how often the main rulesets disagree and why,
which games to trust, and which counts are too far from the record to use.

Every function returns a small table; :mod:`rulelab.report.sections` turns them
into sentences.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rulelab.analysis.attribution import attribute
from rulelab.analysis.divergence import KOMI_BASES, basis_label, compared_rows, winners
from rulelab.analysis.inputs import analysable_games, require_columns
from rulelab.analysis.stats import wilson_interval
from rulelab.rules import HANDICAP_READINGS, PRESETS, compensation, winner_at

MAIN_RULESETS = ("chinese", "japanese", "ing")
"""The rulesets the findings compare: the three most played counting traditions."""

TRUSTED_METHODS = ("markup", "proof")
"""Life methods whose dead stones are as the players agreed them, or proven."""

TRUSTED_CONFIDENCE = 0.9
"""Least life confidence of an estimated verdict on a finished position to be trusted."""

MARGIN_BANDS = ((0.0, 2.0, "≤ 2 points"), (2.0, 10.0, "2½–10 points"), (10.0, np.inf, "> 10 points"))
"""Bands of a game's closeness: the smaller of the two rulesets' absolute margins."""


def trusted_games(scores: pd.DataFrame, games: pd.DataFrame) -> pd.Index:
    """Ids of the analysable games whose dead stones can be trusted: decided by markup
    or proof (:data:`TRUSTED_METHODS`), or estimated on a finished position with a
    confidence of at least :data:`TRUSTED_CONFIDENCE`.

    Examples
    --------
    >>> scores = pd.DataFrame({"game_id": ["a", "b", "c"], "komi_source": "standard",
    ...     "life_method": ["markup", "estimate", "estimate"], "finished": [False, True, True],
    ...     "life_confidence": [0.0, 0.95, 0.5]})
    >>> games = pd.DataFrame({"game_id": ["a", "b", "c"], "status": "ok"})
    >>> trusted_games(scores, games).tolist()
    ['a', 'b']
    """
    require_columns(scores, ["game_id", "life_method", "finished", "life_confidence"], "scores")
    rows = scores[scores["game_id"].isin(analysable_games(games)["game_id"])]
    sure = rows["life_method"].isin(TRUSTED_METHODS) | (
        rows["finished"].fillna(False).astype(bool)
        & pd.to_numeric(rows["life_confidence"]).ge(TRUSTED_CONFIDENCE))
    trusted = sure.groupby(rows["game_id"], sort=True).all()
    return pd.Index(trusted.index[trusted.to_numpy()], name="game_id")


def pair_rates(scores: pd.DataFrame, games: pd.DataFrame, rulesets=MAIN_RULESETS, *,
               keep_outliers: bool = False, kind: str | None = None,
               within: float | None = None, bases=KOMI_BASES) -> pd.DataFrame:
    """How often ``rulesets`` name different winners, per komi basis: per pair and for
    any of them (``pair == 'any'``), overall and per margin band (:data:`MARGIN_BANDS`),
    with Wilson 95% intervals; on the games of one ``kind`` and ``within`` points of their
    record when given (see :func:`~rulelab.analysis.divergence.compared_rows`); ``bases`` may
    add :data:`~rulelab.analysis.divergence.TODAY`.

    Returns
    -------
    pandas.DataFrame
        ``komi_basis, pair, band, games, disagreements, rate, low, high``; ``band`` is
        ``'all'`` for the whole pair.
    """
    records = []
    for basis in bases:
        rows = compared_rows(scores, games, komi_basis=basis, keep_outliers=keep_outliers, kind=kind,
                             within=within)
        label = basis_label(rows, basis)
        records += _pair_records(rows[rows["ruleset"].isin(rulesets)], rulesets, label)
    return pd.DataFrame(records, columns=["komi_basis", "pair", "band", "games", "disagreements",
                                          "rate", "low", "high"])


def pair_differences(rows: pd.DataFrame, rulesets=MAIN_RULESETS) -> dict[str, pd.Series]:
    """Per pair of ``rulesets`` (``'chinese–japanese'``, ...) and for ``'any'`` of them, whether
    their winners differ, on each game of the compared ``rows`` scored under all of the pair's.

    Examples
    --------
    >>> rows = pd.DataFrame({"game_id": ["g1", "g1", "g2", "g2"], "ruleset": ["chinese", "ing"] * 2,
    ...     "komi_source": "standard", "scoring": "area", "winner": ["B", "W", "B", "B"]})
    >>> pair_differences(rows, ["chinese", "ing"])["chinese–ing"].to_dict()
    {'g1': True, 'g2': False}
    """
    wide = winners(rows, finished_only=False)
    present = [r for r in rulesets if r in wide.columns]
    pairs = [(f"{a}–{b}", [a, b]) for i, a in enumerate(present) for b in present[i + 1:]]
    return {name: wide[columns].dropna().nunique(axis=1).gt(1)
            for name, columns in pairs + [("any", present)] if len(columns) >= 2}


def _pair_records(rows: pd.DataFrame, rulesets, label: str) -> list[dict]:
    """The rate records of :func:`pair_rates` on one basis's compared ``rows``."""
    margin = rows.pivot_table(index="game_id", columns="ruleset", values="margin", aggfunc="first")
    records = []
    for name, differ in pair_differences(rows, rulesets).items():
        columns = list(rulesets) if name == "any" else name.split("–")
        close = margin.reindex(index=differ.index, columns=columns).abs().min(axis=1)
        records.append(_rate(label, name, "all", differ))
        for low, high, band in MARGIN_BANDS:
            inside = (close <= high) & ((close > low) | (low == 0))
            records.append(_rate(label, name, band, differ[inside]))
    return records


def older_than_rules(scores: pd.DataFrame, games: pd.DataFrame, ruleset: str, year: int,
                     rulesets=MAIN_RULESETS, *, kind: str | None = "even") -> pd.DataFrame:
    """Per pair of ``rulesets`` with ``ruleset``, its disagreements at standard komi on the
    settled games of ``kind``, and how many of them are in games played before ``year`` (the
    first text of ``ruleset``'s rules: :data:`~rulelab.rules.RULES_FIRST_TEXT`).

    Returns
    -------
    pandas.DataFrame
        ``pair, disagreements, older`` (of them, games before ``year``), ``undated`` (no year).

    Examples
    --------
    >>> scores = pd.DataFrame({"game_id": ["a", "a", "b", "b"], "ruleset": ["chinese", "ing"] * 2,
    ...     "komi_source": "standard", "scoring": "area", "winner": ["W", "B", "W", "B"]})
    >>> games = pd.DataFrame({"game_id": ["a", "b"], "status": "ok", "year": [1960, 2000]})
    >>> older_than_rules(scores, games, "ing", 1991, kind=None)
             pair  disagreements  older  undated
    0  chinese–ing              2      1        0
    """
    rows = compared_rows(scores, games, kind=kind)
    years = pd.to_numeric(games.drop_duplicates("game_id").set_index("game_id")["year"], errors="coerce")
    records = []
    for pair, differ in pair_differences(rows[rows["ruleset"].isin(rulesets)], rulesets).items():
        if ruleset not in pair.split("–"):
            continue
        played = years.reindex(differ.index[differ.to_numpy(bool)])
        records.append({"pair": pair, "disagreements": len(played), "older": int(played.lt(year).sum()),
                        "undated": int(played.isna().sum())})
    return pd.DataFrame(records, columns=["pair", "disagreements", "older", "undated"])


def parity_figures(scores: pd.DataFrame, games: pd.DataFrame, among: pd.Index | None = None) -> pd.DataFrame:
    """On the settled even games (``among`` them when given): how often the last dame decides
    the Chinese result (a margin of ½ point either way: the other player filling it would
    reverse it), and the NZ draws (komi 7) and Ing tie wins (komi 8, Black wins a margin of 0)
    that parity makes, with Wilson 95% intervals.

    Returns
    -------
    pandas.DataFrame
        ``figure`` (``last dame decides``, ``nz draws``, ``ing tie wins``), ``games`` (even
        games scored under the ruleset), ``count``, ``share``, ``low``, ``high``.
    """
    rows = compared_rows(scores, games, kind="even")
    if among is not None:
        rows = rows[rows["game_id"].isin(among)]
    margin = rows.pivot_table(index="game_id", columns="ruleset", values="margin", aggfunc="first")
    verdict = winners(rows, finished_only=False)
    tests = (("last dame decides", "chinese", lambda m, w: m.abs().eq(0.5)),
             ("nz draws", "nz", lambda m, w: w.eq("draw")),
             ("ing tie wins", "ing", lambda m, w: m.eq(0) & w.eq("B")))
    records = []
    for figure, ruleset, test in tests:
        if ruleset not in margin.columns:
            continue
        m, w = margin[ruleset].dropna(), verdict[ruleset].dropna()
        count, n = int(test(m, w.reindex(m.index)).sum()), len(m)
        low, high = wilson_interval(count, n)
        records.append({"figure": figure, "games": n, "count": count, "share": count / n if n else np.nan,
                        "low": float(low), "high": float(high)})
    return pd.DataFrame(records, columns=["figure", "games", "count", "share", "low", "high"])


def handicap_readings(scores: pd.DataFrame, games: pd.DataFrame,
                      readings=HANDICAP_READINGS) -> pd.DataFrame:
    """How often rulesets name different winners on the settled handicap games under each
    reading of a disputed compensation (:data:`~rulelab.rules.HANDICAP_READINGS`), side by
    side: the reading's ruleset re-counted with that compensation against the main rulesets.

    Returns
    -------
    pandas.DataFrame
        ``ruleset, compensation, source, default`` (the preset's own reading), then the
        columns of :func:`pair_rates` for the whole of each pair with the reading's ruleset
        (and ``any`` of the main rulesets when it is one of them).
    """
    rows = compared_rows(scores, games, kind="handicap")
    label = basis_label(rows, "standard")
    stones = games.drop_duplicates("game_id").set_index("game_id")["handicap"]
    records = []
    for ruleset, choice, source in readings:
        if ruleset not in set(rows["ruleset"]):
            continue
        mine = rows["ruleset"].eq(ruleset)
        given = compensation(choice, pd.to_numeric(rows["game_id"].map(stones), errors="coerce").fillna(0)
                             .to_numpy(float))
        margin = pd.to_numeric(rows["margin"]).astype(float) + np.where(
            mine, pd.to_numeric(rows["handicap_bonus"]).astype(float) - given, 0.0)
        read = rows.assign(margin=margin, winner=winner_at(margin.to_numpy(), rows["tie_break"].to_numpy(object)))
        others = [r for r in MAIN_RULESETS if r != ruleset]
        chosen = read[read["ruleset"].isin([*others, ruleset])]
        for record in _pair_records(chosen, [*others, ruleset], label):
            if record["band"] == "all" and (ruleset in record["pair"].split("–")
                                           or (record["pair"] == "any" and ruleset in MAIN_RULESETS)):
                records.append({"ruleset": ruleset, "compensation": choice, "source": source,
                                "default": PRESETS[ruleset].handicap_bonus == choice, **record})
    columns = ["ruleset", "compensation", "source", "default", "komi_basis", "pair", "games", "disagreements",
               "rate", "low", "high"]
    return pd.DataFrame(records).reindex(columns=columns)


def _rate(basis: str, pair: str, band: str, differ: pd.Series) -> dict:
    games, disagreements = len(differ), int(differ.sum())
    low, high = wilson_interval(disagreements, games)
    return {"komi_basis": basis, "pair": pair, "band": band, "games": games,
            "disagreements": disagreements, "rate": disagreements / games if games else np.nan,
            "low": float(low), "high": float(high)}


def cause_shares(scores: pd.DataFrame, games: pd.DataFrame, rulesets=MAIN_RULESETS, *,
                 kind: str | None = None) -> pd.DataFrame:
    """Per komi basis, the share of the disagreements among ``rulesets`` (game × pair)
    that each main cause explains, and the pairs it comes from; on the games of one
    ``kind`` when given.

    Returns
    -------
    pandas.DataFrame
        ``komi_basis, main_cause, disagreements, share, pairs`` (``'chinese–ing 3, ...'``,
        most first), largest share first.
    """
    parts = []
    for basis in KOMI_BASES:
        table = attribute(scores[scores["ruleset"].isin(rulesets)], games, komi_basis=basis, kind=kind)
        table = table.assign(main_cause=table["main_cause"].fillna("none"),
                             pair=table["ruleset_a"] + "–" + table["ruleset_b"])
        counts = table["main_cause"].value_counts().rename_axis("main_cause").reset_index(name="disagreements")
        counts = counts.sort_values(["disagreements", "main_cause"], ascending=[False, True])
        by_pair = table.groupby(["main_cause", "pair"]).size().reset_index(name="n").sort_values(
            ["main_cause", "n", "pair"], ascending=[True, False, True])
        pairs = {cause: ", ".join(f"{p} {n:,}" for p, n in zip(rows["pair"], rows["n"]))
                 for cause, rows in by_pair.groupby("main_cause", sort=False)}
        parts.append(counts.assign(komi_basis=basis_label(scores, basis),
                                   share=counts["disagreements"] / counts["disagreements"].sum(),
                                   pairs=counts["main_cause"].map(pairs)))
    frame = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()
    return frame.reindex(columns=["komi_basis", "main_cause", "disagreements", "share", "pairs"])


def black_win_rates(outcomes: pd.DataFrame, min_games: int = 10) -> pd.DataFrame:
    """Black's share of the decided games at each komi in force with ``min_games`` or
    more, from the records' own results (a draw counts half), with Wilson 95% intervals.

    Examples
    --------
    >>> outcomes = pd.DataFrame({"komi": [5.5] * 10 + [6.5], "winner": ["B"] * 6 + ["W"] * 5})
    >>> black_win_rates(outcomes)[["komi", "games", "rate"]]
       komi  games  rate
    0   5.5     10   0.6
    """
    require_columns(outcomes, ["komi", "winner"], "outcomes")
    decided = outcomes[outcomes["winner"].isin(["B", "W", "draw"]) & outcomes["komi"].notna()]
    points = decided["winner"].map({"B": 1.0, "W": 0.0, "draw": 0.5}).astype(float)
    table = points.groupby(decided["komi"].astype(float), sort=True).agg(games="size", black="sum").reset_index()
    table = table[table["games"] >= min_games].reset_index(drop=True)
    low, high = wilson_interval(table["black"].to_numpy(float), table["games"].to_numpy(float))
    return table.assign(rate=table["black"] / table["games"], low=low, high=high)
