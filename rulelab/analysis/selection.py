"""Which games an analysis counts: the one selection the report and the ``df.go`` accessor share.

Two rules keep a finding about the rules from being a finding about rulelab's mistakes or
about who played whom:

- **Outliers out.** A counted game whose count under the record's own rules lies more than
  :data:`OUTLIER_POINTS` from the recorded margin is a misjudged group or a record that does
  not say what was counted; its counts are no evidence of how rulesets differ, nor of what
  komi is fair. Such games leave the divergence rates, the attribution and the komi fits
  (the records' own results stay in the fits: they are what the players counted).
- **Komi is fitted to even games on one board** (:func:`komi_population`): no handicap
  stones, not the servers' one-stone handicap, a stated komi within ±:data:`MAX_EVEN_KOMI`,
  the collection's main board.

Each selection says what it left out in ``attrs["dropped"]`` (reason → games).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from rulelab.analysis.inputs import COUNTED_KINDS, analysable_games, require_columns
from rulelab.analysis.outcomes import RECORD, record_margins
from rulelab.analysis.strata import is_even

OUTLIER_POINTS = 10.0
"""A counted game whose count under the record's own rules is further than this from the
record's margin (points) is an outlier."""

REPRODUCED_POINTS = 1.0
"""A count within this many points of the recorded margin reproduces the record (a point
is what counting conventions such as who fills the last dame can move)."""

RESULT_COLUMNS = ("game_id", "status", "result_kind", "result_winner", "result_margin", "komi")
"""The games columns the record's margin is read from."""

MAIN_BOARD = "19x19"
"""The board komi is fitted on when a collection has games on it."""

MAX_EVEN_KOMI = 20.0
"""The largest komi (points, either sign) of an even game on any board; past it a record's komi
is a private arrangement or a typo (``KM[75.5]``), and one such game would lean on the fit."""

MIN_BOARD_GAMES = 50
"""Decided even games a board other than the main one needs for a komi figure of its own."""

FEW_GAMES = 1000
"""Below this many decided games a fair komi is a rough figure (its interval says how rough)."""

ENGINE_NAMES = re.compile(r"gnu ?go|katago|leela|fuego|pachi|mogo|alphago|crazy ?stone|\bzen\b|\baya\b"
                          r"|oakfoam|golois|\bsai\b|elf ?open ?go|gomill|\bmanyfaces\b|\bengine\b", re.IGNORECASE)
"""Player names of Go programs: their games are engine, regression or test records."""


def record_gaps(scores: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Per counted game scored under its record's own rules: rulelab's margin before
    komi, the record's (its margin itself when it states no komi), their ``gap`` and
    whether it makes the game an ``outlier``.

    Examples
    --------
    >>> games = pd.DataFrame({"game_id": ["a", "b"], "status": "ok", "result_kind": "counted",
    ...     "result_winner": ["B", "W"], "result_margin": [2.5, 30.5], "komi": 6.5})
    >>> scores = pd.DataFrame({"game_id": ["a", "b"], "komi_source": "record",
    ...     "margin_before_komi": [9.0, 12.0]})
    >>> record_gaps(scores, games)
      game_id  rulelab  record   gap  outlier
    0       a      9.0     9.0   0.0    False
    1       b     12.0   -24.0  36.0     True
    """
    require_columns(scores, ["game_id", "komi_source", "margin_before_komi"], "scores")
    own = scores[scores["komi_source"] == "record"].drop_duplicates("game_id")
    own = own.set_index("game_id")["margin_before_komi"].astype(float).rename("rulelab")
    require_columns(games, RESULT_COLUMNS, "games")
    played = analysable_games(games)
    counted = played[played["result_kind"].isin(COUNTED_KINDS)]
    # a record without komi states its margin before komi: the misread rule tests it too
    counted = counted.assign(komi=pd.to_numeric(counted["komi"], errors="coerce").fillna(0.0))
    record = record_margins(counted).rename("record")
    both = pd.concat([own, record], axis=1, join="inner").sort_index().rename_axis("game_id")
    both["gap"] = both["rulelab"] - both["record"]
    both["outlier"] = both["gap"].abs() > OUTLIER_POINTS
    return both.reset_index()


def outliers(scores: pd.DataFrame, games: pd.DataFrame | None) -> pd.Index:
    """Ids of the counted games whose count misses the record by more than :data:`OUTLIER_POINTS`
    (none without the games table and its results, or without rows under the records' own rules)."""
    if games is None or "komi_source" not in scores.columns or not set(RESULT_COLUMNS) <= set(games.columns):
        return pd.Index([], name="game_id", dtype=object)
    gaps = record_gaps(scores, games)
    return pd.Index(gaps.loc[gaps["outlier"], "game_id"], name="game_id")


def reproduced(gaps: pd.DataFrame) -> pd.Series:
    """Per counted game whose count under the record's own rules reproduces the record
    (within :data:`REPRODUCED_POINTS`), from :func:`record_gaps`: the absolute gap, by game id."""
    gaps = gaps[gaps["gap"].abs() <= REPRODUCED_POINTS]
    return gaps.set_index("game_id")["gap"].abs()


def main_board(boards: pd.Series) -> str:
    """:data:`MAIN_BOARD` when the collection has games on it, else its commonest board.

    Examples
    --------
    >>> main_board(pd.Series(["9x9", "9x9", "13x13"])), main_board(pd.Series(["9x9", "19x19"]))
    ('9x9', '19x19')
    """
    counts = boards.astype(str).value_counts()
    return MAIN_BOARD if counts.empty or MAIN_BOARD in counts.index else str(counts.index[0])


def collection_board(games: pd.DataFrame) -> str:
    """The board komi is fitted on for a games table (:func:`main_board` of its analysable games)."""
    require_columns(games, ["board_rows", "board_cols"], "games")
    played = analysable_games(games)
    rows = pd.to_numeric(played["board_rows"], errors="coerce")
    cols = pd.to_numeric(played["board_cols"], errors="coerce")
    return main_board((rows.astype("Int64").astype(str) + "x" + cols.astype("Int64").astype(str))[
        rows.notna() & cols.notna()])


def komi_population(outcomes: pd.DataFrame, dropped_games: pd.Index | None = None,
                    board: str | None = None) -> pd.DataFrame:
    """The outcomes komi is fitted to: even games on ``board`` (the main board by default)
    with a stated komi, less rulelab's counts of ``dropped_games`` (the outliers).

    ``attrs["dropped"]`` gives the games left out for each reason, counted once, in order.

    Examples
    --------
    >>> outcomes = pd.DataFrame({"game_id": list("abcde"), "ruleset": "chinese",
    ...     "handicap": [0, 0, 2, 0, 0], "komi": [7.5, 7.5, 0.5, np.nan, 7.5],
    ...     "source": "kgs", "board": ["19x19"] * 4 + ["9x9"]})
    >>> chosen = komi_population(outcomes, pd.Index(["b"]))
    >>> chosen.game_id.tolist(), chosen.attrs["dropped"]
    (['a'], {'handicap or one-stone games': 1, 'komi unknown': 1, 'komi beyond ±20': 0, 'other boards than 19x19': 1, 'outliers': 1})
    """
    require_columns(outcomes, ["game_id", "ruleset", "handicap", "komi", "source", "board"], "outcomes")
    board = board or main_board(outcomes["board"])
    games = outcomes.drop_duplicates("game_id").set_index("game_id")
    reasons = {
        "handicap or one-stone games": ~is_even(games.assign(komi=games["komi"].fillna(np.inf))),
        "komi unknown": games["komi"].isna(),
        f"komi beyond ±{MAX_EVEN_KOMI:g}": games["komi"].abs() > MAX_EVEN_KOMI,
        f"other boards than {board}": games["board"].astype(str) != board,
    }
    dropped, gone = {}, pd.Series(False, index=games.index)
    for reason, hit in reasons.items():
        dropped[reason] = int((hit & ~gone).sum())
        gone |= hit
    kept = outcomes[~outcomes["game_id"].map(gone).astype(bool).to_numpy()]
    counted_by_rulelab = kept["ruleset"] != RECORD
    outlying = kept["game_id"].isin(dropped_games if dropped_games is not None else [])
    dropped["outliers"] = int(kept.loc[outlying & counted_by_rulelab, "game_id"].nunique())
    chosen = kept[~(outlying & counted_by_rulelab)].reset_index(drop=True)
    chosen.attrs["dropped"] = dropped
    chosen.attrs["board"] = board
    return chosen


def other_boards(outcomes: pd.DataFrame, dropped_games: pd.Index | None, main: str) -> dict[str, pd.DataFrame]:
    """Per board besides ``main`` with :data:`MIN_BOARD_GAMES` or more decided even games
    in the records, its :func:`komi_population`, smallest board first."""
    require_columns(outcomes, ["board", "ruleset"], "outcomes")
    chosen = {}
    for board in outcomes["board"].astype(str).unique():
        if board in (main, "unknown"):
            continue
        population = komi_population(outcomes, dropped_games, board)
        if population.loc[population["ruleset"] == RECORD, "game_id"].nunique() >= MIN_BOARD_GAMES:
            chosen[board] = population
    return dict(sorted(chosen.items(), key=lambda item: int(item[0].split("x")[0])))


def sample_quality(outcomes: pd.DataFrame, games: pd.DataFrame) -> str:
    """One sentence on what a komi figure from ``outcomes`` can mean: how many games, at
    which komi, and how many of them programs played (engine, regression or test records).

    Examples
    --------
    >>> games = pd.DataFrame({"game_id": ["a", "b", "c"], "black_player": ["GNU Go 3.8", "Ann", None],
    ...                       "white_player": ["KataGo", "Bo", "Cy"]})
    >>> outcomes = pd.DataFrame({"game_id": ["a", "b", "c"], "ruleset": RECORD, "komi": 7.0})
    >>> sample_quality(outcomes, games)
    '3 decided even games at komi 7; 1 played by a program (engine, regression or test records, not human play); fewer than 1,000 games: a rough figure.'
    """
    require_columns(outcomes, ["game_id", "komi"], "outcomes")
    ids = outcomes["game_id"].drop_duplicates()
    players = games[games["game_id"].isin(ids)]
    names = players["black_player"].fillna("") + " " + players["white_player"].fillna("")
    engines = int(names.str.contains(ENGINE_NAMES).sum())
    komi = "/".join(f"{k:g}" for k in sorted(outcomes["komi"].dropna().unique()))
    text = f"{len(ids):,} decided even games at komi {komi}"
    if engines:
        text += (f"; {engines:,} played by a program (engine, regression or test records, not "
                 "human play)")
    if len(ids) < FEW_GAMES:
        text += f"; fewer than {FEW_GAMES:,} games: a rough figure"
    return text + "."
