"""Who wins under each ruleset, and how often rulesets disagree on the same game.

Every count here is of games, on one of two komi bases: each ruleset at the komi it gives
the game (``'standard'``: its even komi, or its handicap komi in a handicap game — what
players of each ruleset would see; ``'user'`` when the run was asked for one komi), or
every ruleset at one :data:`COMMON_KOMI` (``'common'``: the counting rules alone).
The reasons behind a disagreement are in :mod:`rulelab.analysis.attribution`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rulelab.analysis.inputs import analysable_games, counted_games, require_columns
from rulelab.analysis.selection import outliers, record_gaps
from rulelab.analysis.strata import STRATA, game_kind, game_strata
from rulelab.errors import InputError
from rulelab.rules import PRESETS, winner_at

WINNER_COLUMNS = ("game_id", "ruleset", "komi_source", "scoring", "winner")

KOMI_BASES = ("standard", "common")
"""Each ruleset at its standard komi, or all at :data:`COMMON_KOMI`."""

TODAY = "today"
"""A third basis, a counterfactual kept apart from ``standard``: each ruleset at today's komi
(its preset's, no era komi) in the games without handicap stones, as though every game of the
collection were played now."""

COMMON_KOMI = 7.5
"""The komi every ruleset is compared at on the ``'common'`` basis: the area-scoring
standard. A half point keeps draws out, so Ing's tie-break never decides."""


def at_komi(rows: pd.DataFrame, komi: float) -> pd.DataFrame:
    """Scores rows re-counted at ``komi``: ``komi``, ``margin`` and ``winner`` from
    ``margin_before_komi`` and each row's tie-break (``'draw'`` when the column is absent).

    Examples
    --------
    >>> rows = pd.DataFrame({"margin_before_komi": [7.0, 8.0], "tie_break": ["draw", "black"],
    ...                      "komi": [6.5, 8.0], "margin": [0.5, 0.0], "winner": ["B", "B"]})
    >>> at_komi(rows, 8.0)[["komi", "margin", "winner"]]
       komi  margin winner
    0   8.0    -1.0      W
    1   8.0     0.0      B
    """
    require_columns(rows, ["margin_before_komi"], "scores")
    komi = np.asarray(komi, dtype=float) if np.ndim(komi) else float(komi)
    margin = pd.to_numeric(rows["margin_before_komi"]).astype(float) - komi
    rules = rows["tie_break"].to_numpy(object) if "tie_break" in rows else "draw"
    return rows.assign(komi=komi, margin=margin, winner=winner_at(margin.to_numpy(), rules))


def todays_komi(rows: pd.DataFrame, games: pd.DataFrame) -> np.ndarray:
    """Per compared row, the komi of the :data:`TODAY` basis: its preset's komi in a game without
    handicap stones (even, or of no komi; not a one-stone game), else the row's own komi.

    Examples
    --------
    >>> rows = pd.DataFrame({"game_id": ["old", "h"], "ruleset": "japanese", "komi": [4.5, 0.0]})
    >>> games = pd.DataFrame({"game_id": ["old", "h"], "handicap": [0, 3], "komi": [4.5, 0.5], "source": None})
    >>> todays_komi(rows, games).tolist()
    [6.5, 0.0]
    """
    frame = games.drop_duplicates("game_id").set_index("game_id")
    plain = rows["game_id"].map(game_kind(frame).isin(["even", "no komi"])).fillna(False).to_numpy(bool)
    preset = rows["ruleset"].map(lambda name: PRESETS[name].komi if name in PRESETS else np.nan).to_numpy(float)
    own = pd.to_numeric(rows["komi"]).to_numpy(float)
    return np.where(plain & ~np.isnan(preset), preset, own)


def ruleset_order(scores: pd.DataFrame) -> list[str]:
    """Rulesets of a scores table, area-scored ones first, each group by name.

    Examples
    --------
    >>> ruleset_order(pd.DataFrame({"ruleset": ["japanese", "nz", "chinese"],
    ...                             "scoring": ["territory", "area", "area"]}))
    ['chinese', 'nz', 'japanese']
    """
    pairs = scores[["scoring", "ruleset"]].drop_duplicates().astype(str)
    return pairs.sort_values(["scoring", "ruleset"])["ruleset"].drop_duplicates().tolist()


def standard_rows(scores: pd.DataFrame, *, finished_only: bool = True,
                  counted: pd.Index | None = None) -> pd.DataFrame:
    """The rows of the run's rulesets that carry a verdict: each at its standard komi
    or, when the run was asked for a komi, at that komi (``komi_source='user'``); not
    the extra rows of a record's own rules at the record's komi.

    With ``finished_only`` only settled positions are kept: those the life layer calls
    finished, and those of the games in ``counted`` (games the players counted, so
    settled by their agreement even with dame left open). A game resigned mid-fight is
    neither, and its winner under a ruleset says nothing about the rules. A game stored
    twice is scored twice under one ``game_id``; its first row per ruleset stands for it.
    """
    require_columns(scores, WINNER_COLUMNS, "scores")
    wanted = "user" if scores["komi_source"].eq("user").any() else "standard"
    keep = scores["komi_source"].eq(wanted) & scores["winner"].notna()
    if finished_only and "finished" in scores.columns:
        settled = scores["finished"].fillna(False).astype(bool)
        if counted is not None:
            settled |= scores["game_id"].isin(counted)
        keep &= settled
    return scores.loc[keep].drop_duplicates(["game_id", "ruleset"])


def winners(scores: pd.DataFrame, *, finished_only: bool = True) -> pd.DataFrame:
    """The winner of every scored game under every ruleset at its standard komi.

    Parameters
    ----------
    scores : pandas.DataFrame
        The scores table.
    finished_only : bool
        Keep only settled positions (see :func:`standard_rows`).

    Returns
    -------
    pandas.DataFrame
        Indexed by ``game_id`` (sorted), one column per ruleset in
        :func:`ruleset_order`, values ``'B'``, ``'W'``, ``'draw'`` or missing.

    Examples
    --------
    >>> scores = pd.DataFrame({"game_id": ["g1", "g1", "g2", "g2"],
    ...     "ruleset": ["chinese", "japanese"] * 2, "komi_source": ["standard"] * 4,
    ...     "scoring": ["area", "territory"] * 2, "winner": ["W", "B", "B", "B"]})
    >>> winners(scores)
    ruleset chinese japanese
    game_id
    g1            W        B
    g2            B        B
    """
    rows = standard_rows(scores, finished_only=finished_only)
    wide = rows.pivot(index="game_id", columns="ruleset", values="winner")
    wide = wide.reindex(columns=ruleset_order(rows)).sort_index()
    wide.columns.name = "ruleset"
    return wide


def game_life_method(scores: pd.DataFrame) -> pd.Series:
    """Per game, the life method most of its rows were scored with (ties: first by name).

    Rows of one game normally share the verdict of the life layer; Tromp–Taylor's
    rows, which remove nothing, may say ``'none'``.
    """
    require_columns(scores, ["game_id", "life_method"], "scores")
    counts = (scores.assign(life_method=scores["life_method"].astype("string").fillna("unknown"))
              .groupby(["game_id", "life_method"], sort=True).size().rename("rows").reset_index())
    counts = counts.sort_values(["game_id", "rows", "life_method"], ascending=[True, False, True])
    return counts.drop_duplicates("game_id").set_index("game_id")["life_method"]


def disagreement_matrix(scores: pd.DataFrame, games: pd.DataFrame | None = None, *,
                        by: str | None = None, finished_only: bool = True,
                        komi_basis: str = "standard", keep_outliers: bool = False,
                        kind: str | None = None) -> pd.DataFrame:
    """Ruleset × ruleset disagreement counts and rates, optionally split by a stratum.

    Parameters
    ----------
    scores : pandas.DataFrame
        The scores table.
    games : pandas.DataFrame, optional
        The games table; when given, only analysable games count (see
        :func:`~rulelab.analysis.inputs.analysable_games`). Required for ``by`` in
        :data:`~rulelab.analysis.strata.STRATA`.
    by : str, optional
        ``'life_method'`` or one of :data:`~rulelab.analysis.strata.STRATA`.
    finished_only : bool
        Keep only settled positions (see :func:`standard_rows`).
    komi_basis : {'standard', 'common'}
        Each ruleset at the komi it gives the game, or all at :data:`COMMON_KOMI` (needs
        ``margin_before_komi``).
    keep_outliers : bool
        Keep the games whose count misses the record by more than 10 points (see
        :func:`compared_rows`), for a sensitivity check.
    kind : str, optional
        Only the games of this kind (:data:`~rulelab.analysis.strata.GAME_KINDS`; needs ``games``).

    Returns
    -------
    pandas.DataFrame
        One row per (stratum,) ordered pair of rulesets, the diagonal included:
        ``komi_basis``, ``ruleset_a``, ``ruleset_b``, ``games`` (scored under both),
        ``disagreements`` (different winners) and ``rate``.

    Examples
    --------
    Four games by hand: Chinese and Japanese differ on g1 only, Ing and Japanese on
    g1 and g3, Chinese and Ing on g3 only.

    >>> scores = pd.DataFrame({"game_id": [g for g in ["g1", "g2", "g3", "g4"] for _ in range(3)],
    ...     "ruleset": ["chinese", "ing", "japanese"] * 4, "komi_source": "standard",
    ...     "scoring": ["area", "area", "territory"] * 4,
    ...     "winner": ["W", "W", "B",  "B", "B", "B",  "W", "B", "W",  "W", "W", "W"]})
    >>> m = disagreement_matrix(scores)
    >>> m[m.ruleset_a < m.ruleset_b]
      komi_basis ruleset_a ruleset_b  games  disagreements  rate
    1   standard   chinese       ing      4              1  0.25
    2   standard   chinese  japanese      4              1  0.25
    5   standard       ing  japanese      4              2  0.50
    """
    rows = compared_rows(scores, games, finished_only=finished_only, komi_basis=komi_basis,
                         keep_outliers=keep_outliers, kind=kind)
    basis = basis_label(rows, komi_basis)
    wide = winners(rows, finished_only=False)
    blocks = [((), np.arange(len(wide)))] if by is None else _group_positions(
        _strata_of(wide.index, rows, games, by))
    codes = wide.apply(lambda col: col.map({"B": 1, "W": 2, "draw": 3})).fillna(0).to_numpy(int)
    names = list(wide.columns)
    records = []
    for label, positions in blocks:
        block = codes[positions]
        for i, a in enumerate(names):
            for j, b in enumerate(names):
                both = (block[:, i] > 0) & (block[:, j] > 0)
                n = int(both.sum())
                differ = int((both & (block[:, i] != block[:, j])).sum())
                records.append(label + (basis, a, b, n, differ, differ / n if n else np.nan))
    columns = ([by] if by else []) + ["komi_basis", "ruleset_a", "ruleset_b", "games",
                                      "disagreements", "rate"]
    matrix = pd.DataFrame.from_records(records, columns=columns)
    matrix.attrs = dict(rows.attrs)
    return matrix


def any_disagreement(scores: pd.DataFrame, games: pd.DataFrame | None = None, *,
                     by: str | None = None, finished_only: bool = True,
                     komi_basis: str = "standard", keep_outliers: bool = False,
                     kind: str | None = None) -> pd.DataFrame:
    """Games on which the rulesets do not all name the same winner, per stratum.

    Parameters are those of :func:`disagreement_matrix`.

    Returns
    -------
    pandas.DataFrame
        (``by``,) ``games`` (scored under two rulesets or more), ``disagreeing`` and ``rate``.

    Examples
    --------
    >>> scores = pd.DataFrame({"game_id": ["g1", "g1", "g2", "g2", "g3"],
    ...     "ruleset": ["chinese", "japanese", "chinese", "japanese", "chinese"],
    ...     "komi_source": "standard", "scoring": ["area", "territory"] * 2 + ["area"],
    ...     "winner": ["W", "B", "B", "B", "W"], "life_method": ["markup"] * 4 + ["estimate"]})
    >>> any_disagreement(scores, by="life_method")
      life_method  games  disagreeing  rate
    0      markup      2            1   0.5
    """
    rows = compared_rows(scores, games, finished_only=finished_only, komi_basis=komi_basis,
                         keep_outliers=keep_outliers, kind=kind)
    wide = winners(rows, finished_only=False)
    wide = wide[wide.notna().sum(axis=1) >= 2]
    disagreeing = wide.nunique(axis=1).gt(1)
    if by is None:
        table = pd.DataFrame({"games": [len(wide)], "disagreeing": [int(disagreeing.sum())]})
    else:
        frame = pd.DataFrame({by: _strata_of(wide.index, rows, games, by).array,
                              "disagreeing": disagreeing.to_numpy()})
        table = frame.groupby(by, sort=True, observed=True)["disagreeing"].agg(
            games="size", disagreeing="sum").reset_index()
        table["disagreeing"] = table["disagreeing"].astype(int)
    table["rate"] = table["disagreeing"] / table["games"]
    return table


def matrix_wide(matrix: pd.DataFrame, value: str = "rate") -> pd.DataFrame:
    """Pivot a (single-stratum) :func:`disagreement_matrix` into a square table.

    Examples
    --------
    >>> long = pd.DataFrame({"ruleset_a": ["a", "a", "b", "b"], "ruleset_b": ["a", "b", "a", "b"],
    ...                      "games": 4, "disagreements": [0, 1, 1, 0], "rate": [0, .25, .25, 0]})
    >>> matrix_wide(long, "disagreements")
    ruleset_b  a  b
    ruleset_a
    a          0  1
    b          1  0
    """
    order = list(dict.fromkeys(matrix["ruleset_a"]))
    square = matrix.pivot(index="ruleset_a", columns="ruleset_b", values=value)
    return square.reindex(index=order, columns=order)


def compared_rows(scores: pd.DataFrame, games: pd.DataFrame | None = None, *,
                  finished_only: bool = True, komi_basis: str = "standard",
                  keep_outliers: bool = False, kind: str | None = None,
                  within: float | None = None) -> pd.DataFrame:
    """The rows that divergence and attribution compare: :func:`standard_rows`,
    restricted to analysable games when the games table is given (whose counted games
    then count as settled), less the outliers (:func:`~rulelab.analysis.selection.outliers`:
    counts that miss the record by more than 10 points are misreads, not rule differences)
    unless ``keep_outliers``, re-counted at :data:`COMMON_KOMI` on the ``'common'`` basis and at
    :func:`todays_komi` on the ``'today'`` basis (:data:`TODAY`).

    With the games table, ``kind`` keeps the games of one kind of
    :data:`~rulelab.analysis.strata.GAME_KINDS` (``'even'`` for the headline), and ``within``
    only the counted games whose count under the record's own rules lies within that many
    points of the record (0: the record reproduced exactly). ``attrs["dropped"]`` gives the
    games the outlier rule left out."""
    if komi_basis not in (*KOMI_BASES, TODAY):
        raise InputError(f"The komi basis must be one of {', '.join((*KOMI_BASES, TODAY))}; got {komi_basis!r}.")
    if games is None and (kind is not None or within is not None or komi_basis == TODAY):
        raise InputError("Choosing games by kind or by their record, or today's komi, needs the games table.")
    dropped = pd.Index([])
    if games is None:
        rows = standard_rows(scores, finished_only=finished_only)
    else:
        played = analysable_games(games)
        counted = counted_games(played) if "result_kind" in played.columns else None
        rows = standard_rows(scores, finished_only=finished_only, counted=counted)
        if kind is not None:
            played = played[game_kind(played).eq(kind).to_numpy()]
        if within is not None:
            gaps = record_gaps(scores, games)
            played = played[played["game_id"].isin(gaps.loc[gaps["gap"].abs() <= within, "game_id"])]
        rows = rows[rows["game_id"].isin(played["game_id"])]
        if not keep_outliers:
            dropped = outliers(scores, games).intersection(rows["game_id"])
            rows = rows[~rows["game_id"].isin(dropped)]
    if komi_basis == "common":
        rows = at_komi(rows, COMMON_KOMI)
    elif komi_basis == TODAY:
        rows = at_komi(rows, todays_komi(rows, games))
    else:
        rows = rows.copy(deep=False)
    rows.attrs = {"dropped": {"outliers": len(dropped)}}
    return rows


def basis_label(rows: pd.DataFrame, komi_basis: str) -> str:
    """What the komi of compared rows is: ``'common'``; ``'user'`` when the run was asked for
    a komi (its ``--komi`` rows are compared); else ``'standard'``.

    Examples
    --------
    >>> basis_label(pd.DataFrame({"komi_source": ["user"]}), "standard")
    'user'
    """
    if komi_basis in ("common", TODAY):
        return komi_basis
    return "user" if rows["komi_source"].eq("user").any() else "standard"


def _strata_of(game_ids: pd.Index, rows: pd.DataFrame, games: pd.DataFrame | None,
               by: str) -> pd.Series:
    """The stratum label of each game in ``game_ids``."""
    if by == "life_method":
        return game_life_method(rows).reindex(game_ids)
    if by not in STRATA:
        raise InputError(f"The 'by' argument must be 'life_method' or one of {', '.join(STRATA)}; got {by!r}.")
    if games is None:
        raise InputError(f"Splitting by {by!r} needs the games table.")
    return game_strata(analysable_games(games)).set_index("game_id")[by].reindex(game_ids)


def _group_positions(groups: pd.Series):
    """(label tuple, row positions) per stratum, in sorted order."""
    codes, uniques = pd.factorize(groups, sort=True)
    for k, label in enumerate(uniques):
        yield (label,), np.flatnonzero(codes == k)
