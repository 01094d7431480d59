"""The variables that analyses split games by: era, board size, handicap, rank band, ...

Every stratum is a readable label with ``"unknown"`` for missing values, so groupby
never silently drops games and tables read without a legend.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from rulelab.analysis.inputs import require_columns
from rulelab.rules import PROFESSIONAL_COLLECTIONS, is_one_stone_game

UNKNOWN = "unknown"

ERAS = ((None, 1954, "≤1954"), (1955, 1974, "1955–1974"), (1975, 2001, "1975–2001"),
        (2002, 2015, "2002–2015"), (2016, None, "≥2016"))
"""Year ranges that follow the history of komi: little or 4.5 komi before 1955, 4.5/5.5
until 1974, 5.5 in Japan from 1975, 6.5 (Japan, Korea) and 7.5 (China) from 2002, and
play shaped by strong programs from 2016."""

RANK_BANDS = ("kyu", "dan 1–4", "dan 5–9", "pro")
"""Rank bands from weakest to strongest; a game falls in the band of its weaker player."""


STRATA = ("source", "board", "handicap", "game_kind", "era", "komi_in_force", "rank_band")
"""The per-game strata that :func:`game_strata` derives from the games table."""

_RANK = re.compile(r"(\d+)\s*(d|dan|k|kyu|p|pro)\b", re.IGNORECASE)


def era_of(years: pd.Series) -> pd.Series:
    """Label each year with its era in :data:`ERAS` (ordered categorical).

    Examples
    --------
    >>> era_of(pd.Series([1941, 1975, 2002, None])).tolist()
    ['≤1954', '1975–2001', '2002–2015', 'unknown']
    >>> era_of(pd.Series([1980, None], dtype="Int64")).tolist()
    ['1975–2001', 'unknown']
    """
    labels = [label for _, _, label in ERAS] + [UNKNOWN]
    years = pd.to_numeric(years, errors="coerce")
    out = np.full(len(years), UNKNOWN, dtype=object)
    values = years.astype(float).to_numpy()  # nullable years: missing ones become NaN, in no era
    for first, last, label in ERAS:
        inside = (values >= (first if first is not None else -np.inf)) & (values <= (last if last is not None else np.inf))
        out[inside] = label
    return pd.Series(pd.Categorical(out, categories=labels, ordered=True), index=years.index)


def rank_band(black_rank: pd.Series, white_rank: pd.Series,
              professional: pd.Series | None = None) -> pd.Series:
    """The band of the weaker player of each game (ordered categorical).

    Ranks are read leniently (``9d``, ``7 dan``, ``3k``, ``9p``); a game with an
    unreadable rank on either side is ``unknown``. Where ``professional`` is True the
    dan ranks are professional ranks (see :data:`PROFESSIONAL_COLLECTIONS`).

    Examples
    --------
    >>> rank_band(pd.Series(["9p", "7 dan", "2k", None]), pd.Series(["9p", "3d", "5d", "9d"])).tolist()
    ['pro', 'dan 1–4', 'kyu', 'unknown']
    >>> rank_band(pd.Series(["9d"]), pd.Series(["7d"]), pd.Series([True])).tolist()
    ['pro']
    """
    pro = np.zeros(len(black_rank), bool) if professional is None else professional.to_numpy(bool)
    black, white = _band_index(black_rank, pro), _band_index(white_rank, pro)
    weaker = np.minimum(black, white)
    labels = np.array(RANK_BANDS + (UNKNOWN,), dtype=object)
    out = labels[np.where((black < 0) | (white < 0), len(RANK_BANDS), weaker)]
    categories = list(RANK_BANDS) + [UNKNOWN]
    return pd.Series(pd.Categorical(out, categories=categories, ordered=True), index=black_rank.index)


def rank_gap(black_rank: pd.Series, white_rank: pd.Series) -> pd.Series:
    """Black's rank minus White's, in rank steps (one kyu, dan or professional dan each;
    1k and 1d are one step apart); NaN where either rank is unreadable or the two are of
    different kinds (an amateur against a professional has no common scale).

    Examples
    --------
    >>> rank_gap(pd.Series(["6d", "2k", "9p", "5d", None]), pd.Series(["7d", "1d", "3p", "4p", "3d"])).tolist()
    [-1.0, -2.0, 6.0, nan, nan]
    """
    black, black_pro = _rank_steps(black_rank)
    white, white_pro = _rank_steps(white_rank)
    return pd.Series(np.where(black_pro == white_pro, black - white, np.nan), index=black_rank.index)


def _rank_steps(ranks: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """Per rank, its place on the amateur scale (1k = 0, 1d = 1) or among professional dan,
    and whether it is professional; NaN when unreadable."""
    found = ranks.astype("string").str.extract(_RANK)
    number = pd.to_numeric(found[0], errors="coerce").to_numpy(dtype=float)
    kind = found[1].str.lower().str[0].fillna("").to_numpy(dtype=object)
    steps = np.select([kind == "k", kind == "d", kind == "p"], [1 - number, number, number], np.nan)
    return steps, kind == "p"


def _band_index(ranks: pd.Series, professional: np.ndarray) -> np.ndarray:
    """Index into RANK_BANDS per rank, -1 when unreadable."""
    found = ranks.astype("string").str.extract(_RANK)
    number = pd.to_numeric(found[0], errors="coerce").to_numpy(dtype=float)
    kind = found[1].str.lower().str[0].fillna("").to_numpy(dtype=object)
    index = np.full(len(ranks), -1)
    index[kind == "k"] = 0
    index[(kind == "d") & (number <= 4)] = 1
    index[(kind == "d") & (number >= 5)] = 2
    index[(kind == "p") | ((kind == "d") & professional)] = 3
    return index


def is_one_stone(frame: pd.DataFrame) -> pd.Series:
    """Whether each game is a server's one-stone handicap (:func:`~rulelab.rules.is_one_stone_game`).

    ``frame`` holds ``handicap``, ``komi`` and ``source`` (labels of :func:`game_strata`).

    Examples
    --------
    >>> frame = pd.DataFrame({"handicap": [0, 0, 0, 2], "komi": [6.5, 0.5, 0.0, 0.5],
    ...                       "source": ["kgs", "kgs", UNKNOWN, "kgs"]})
    >>> is_one_stone(frame).tolist()
    [False, True, False, False]
    """
    require_columns(frame, ["handicap", "komi", "source"], "games")
    sources = frame["source"].astype(object).where(frame["source"].notna() & frame["source"].ne(UNKNOWN), None)
    komi = pd.to_numeric(frame["komi"], errors="coerce").astype(float)
    handicap = pd.to_numeric(frame["handicap"], errors="coerce").fillna(0)
    return pd.Series([is_one_stone_game(h, k, s) for h, k, s in zip(handicap, komi, sources)],
                     index=frame.index, dtype=bool)


def is_even(frame: pd.DataFrame) -> pd.Series:
    """Whether each game is even: no handicap stones, and not a one-stone game (:func:`is_one_stone`).

    Examples
    --------
    >>> is_even(pd.DataFrame({"handicap": [0, 0, 3], "komi": [6.5, 0.5, 0.5], "source": "ogs"})).tolist()
    [True, False, False]
    """
    return frame["handicap"].eq(0) & ~is_one_stone(frame)


GAME_KINDS = ("even", "handicap", "one-stone", "no komi")
"""What a game is, for comparing rulesets: the headline is on ``even`` games; each other kind
is a section of its own, since what the rulesets give it is a convention, not a count."""

NO_KOMI = 0.5
"""The komi at or below which a game without handicap stones has no komi to speak of (the
servers' one-stone game plays at 0.5)."""


def game_kind(frame: pd.DataFrame) -> pd.Series:
    """Per game, its kind in :data:`GAME_KINDS`: ``handicap`` (handicap stones), ``one-stone``
    (:func:`is_one_stone`), ``no komi`` (no handicap stones and a komi of :data:`NO_KOMI` or
    less, or none stated: an old professional game, or a record that does not say), else ``even``.

    ``frame`` holds ``handicap``, ``komi`` and ``source``.

    Examples
    --------
    >>> frame = pd.DataFrame({"handicap": [0, 3, 0, 0, 0], "komi": [6.5, 0.5, 0.5, 0.0, np.nan],
    ...                       "source": ["kgs", "kgs", "kgs", UNKNOWN, UNKNOWN]})
    >>> game_kind(frame).tolist()
    ['even', 'handicap', 'one-stone', 'no komi', 'no komi']
    """
    komi = pd.to_numeric(frame["komi"], errors="coerce").astype(float)
    handicap = pd.to_numeric(frame["handicap"], errors="coerce").fillna(0).gt(0)
    one_stone = is_one_stone(frame.assign(komi=komi.fillna(np.inf)))
    kind = np.select([handicap.to_numpy(), one_stone.to_numpy(), ~(komi > NO_KOMI).to_numpy()],
                     list(GAME_KINDS[1:]), GAME_KINDS[0])
    return pd.Series(kind, index=frame.index, dtype=object)


def game_strata(games: pd.DataFrame) -> pd.DataFrame:
    """One row per game with the labels of every stratum in :data:`STRATA`.

    Parameters
    ----------
    games : pandas.DataFrame
        The games table (``game_id``, ``source``, ``board_rows``, ``board_cols``,
        ``handicap``, ``year``, ``komi``, ``black_rank``, ``white_rank``).

    Returns
    -------
    pandas.DataFrame
        ``game_id``, ``year``, the stratum columns and ``rank_gap`` (:func:`rank_gap`).

    Examples
    --------
    >>> games = pd.DataFrame({"game_id": ["g1"], "source": [None], "board_rows": [19],
    ...     "board_cols": [19], "handicap": [0], "year": [1985], "komi": [5.5],
    ...     "black_rank": ["9p"], "white_rank": ["9p"]})
    >>> game_strata(games).iloc[0].to_dict()  # doctest: +NORMALIZE_WHITESPACE
    {'game_id': 'g1', 'year': 1985.0, 'source': 'unknown', 'board': '19x19', 'handicap': 0,
     'game_kind': 'even', 'era': '1975–2001', 'komi_in_force': '5.5', 'rank_band': 'pro', 'rank_gap': 0.0}
    """
    require_columns(games, ["game_id", "source", "board_rows", "board_cols", "handicap",
                            "year", "komi", "black_rank", "white_rank"], "games")
    rows = pd.to_numeric(games["board_rows"], errors="coerce")
    cols = pd.to_numeric(games["board_cols"], errors="coerce")
    komi = pd.to_numeric(games["komi"], errors="coerce")
    return pd.DataFrame({
        "game_id": games["game_id"].to_numpy(),
        "year": pd.to_numeric(games["year"], errors="coerce").astype(float).to_numpy(),
        "source": games["source"].astype("string").fillna(UNKNOWN).to_numpy(dtype=object),
        "board": _numeric_labels(pd.DataFrame({"rows": rows, "cols": cols}), "{rows:g}x{cols:g}"),
        "handicap": pd.to_numeric(games["handicap"], errors="coerce").fillna(0).astype(int).to_numpy(),
        "game_kind": game_kind(games.assign(source=games["source"].astype(object))).to_numpy(),
        "era": era_of(games["year"]).array,
        "komi_in_force": _numeric_labels(pd.DataFrame({"komi": komi}), "{komi:g}"),
        "rank_band": rank_band(games["black_rank"], games["white_rank"],
                               games["source"].isna() | games["source"].isin(PROFESSIONAL_COLLECTIONS)).array,
        "rank_gap": rank_gap(games["black_rank"], games["white_rank"]).to_numpy(float),
    })


def _numeric_labels(values: pd.DataFrame, pattern: str) -> pd.Categorical:
    """Labels from numeric columns, ordered by the numbers (9x9 before 19x19), then unknown."""
    known = values.notna().all(axis=1)
    labels = np.full(len(values), UNKNOWN, dtype=object)
    labels[known.to_numpy()] = [pattern.format(**row) for row in values[known].to_dict("records")]
    order = values[known].drop_duplicates().sort_values(list(values.columns))
    categories = [pattern.format(**row) for row in order.to_dict("records")] + [UNKNOWN]
    return pd.Categorical(labels, categories=categories, ordered=True)
