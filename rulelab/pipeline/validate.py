"""Validation: does the count under the record's own rules reproduce the recorded result?

Only games that end by counting take part. The computed margin is the ``komi_source ==
'record'`` row of the scores table (the record's rules as its server counts them, at
the record's komi); the recorded margin is ``RE``, signed so that Black ahead is
positive. Every disagreement is kept with its likely cause and with the one group whose
verdict would fix it (:mod:`rulelab.pipeline.explain`), which classes the miss. The
``validate`` command (:func:`rulelab.pipeline.run.validate`) writes these tables.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

from rulelab.life import GnuGoError, KataGoError, LifeError, LifeMethod, life_method
from rulelab.pipeline.explain import MISS_CLASSES, OUTSIDE_LIFE, explain_miss
from rulelab.pipeline.progress import counted
from rulelab.pipeline.score import record_ruleset
from rulelab.rules import CHOICES, FINISH_BASES, compensation, finish_basis
from rulelab.scoring.finish import margin_on
from rulelab.store.layout import GAMES_FILE
from rulelab.store.life import read_verdicts
from rulelab.store.positions import COUNTED_KINDS, POSITION_COLUMNS, position_from_row


VALIDATION_FILE = "validation.parquet"
INVERTED = "recorded winner inverted: the count matches with the sign flipped"
IMPOSSIBLE_PARITY = "recorded margin has a parity no area count of this board can have"
IMPOSSIBLE_RESULT = "recorded margin no territory count can give at the record's komi"
TRUNCATED = "record truncated: its source stops before the game did"
REFUSALS = (GnuGoError, KataGoError, LifeError)
"""A backend refusing or failing on one board (a missing backend stops the run)."""
RECORD_CAUSES = (TRUNCATED, IMPOSSIBLE_RESULT, INVERTED, IMPOSSIBLE_PARITY)
"""Causes that blame the recorded result itself, whatever the board holds."""
EXPLANATION_TYPES = {"miss_class": "str", "fix_kind": "str", "fix_colour": "str",
                     "fix_stones": "Int64", "fix_point": "str", "fix_survival": "float64",
                     "fix_remaining": "float64"}
"""The columns :func:`explain_misses` adds, with types that hold when no miss has a fix."""
GAME_COLUMNS = ["game_id", "source", "rules", "komi", "handicap", "result_winner",
                "result_margin", "result_raw", "board_rows", "board_cols", "ended_by_passes",
                "source_path", "archive_member", "game_index", "moves_missing_after"]
SCORE_COLUMNS = ["game_id", "ruleset", "margin", "winner", "life_method", "life_confidence",
                 "finished", "black_seki_points", "white_seki_points", "seki_dame",
                 "black_owed", "white_owed", "handicap_bonus", "dead_black", "dead_white",
                 "dead_in_seki_black", "dead_in_seki_white", "scoring", "open_dame",
                 "black_dame_filled", "white_dame_filled", "finish"]


def compare(games: pd.DataFrame, scores: pd.DataFrame) -> pd.DataFrame:
    """One row per counted game (a draw among them, at margin 0) with a record score:
    recorded vs computed margin.

    ``rules`` is the record's, or, for a record naming none, the rules it was counted
    under (its server's, or ``--assume-rules``).
    """
    counted = games.loc[(games.status == "ok") & games.result_kind.isin(COUNTED_KINDS)
                        & (games.duplicate_of.isna()), GAME_COLUMNS]
    first = scores.duplicate_of.isna() if "duplicate_of" in scores else True  # a copy's rows count once
    record = scores.loc[(scores.komi_source == "record") & first, SCORE_COLUMNS]
    table = counted.merge(record, on="game_id", how="inner")
    table["rules"] = table.rules.where(table.rules.notna(), table.ruleset)
    sign = np.where(table.result_winner == "B", 1.0, -1.0)
    table["recorded_margin"] = (sign * table.result_margin).fillna(0.0)  # a draw: margin 0
    table["difference"] = table.margin - table.recorded_margin
    # A territory count before komi is whole: a draw at komi 5.5 is no count of any board;
    # nor is the final board of a record whose source stops before the game did.
    before_komi = table.recorded_margin + table.komi + table.handicap_bonus
    whole = (table.scoring != "territory") | (before_komi == before_komi.round())
    table["countable"] = whole & table.moves_missing_after.isna()
    table["exact"] = table.difference.abs() < 1e-9
    table["within_1"] = table.difference.abs() <= 1.0
    table["winner_agrees"] = table.winner == table.result_winner.fillna("draw")
    table["handicap_game"] = table.handicap.fillna(0) >= 2
    # As SZ writes it, in whole numbers even when a failed game's null made the sizes floats.
    sizes = table[["board_cols", "board_rows"]].astype("Int64").astype(str)
    table["board"] = sizes.board_cols + "x" + sizes.board_rows
    table["likely_cause"] = [likely_cause(row) for row in table.itertuples(index=False)]
    return table


def likely_cause(row) -> str | None:
    """A short reason for a disagreement, from the breakdown columns (None when exact).

    The specific causes come first; an unsettled position (records that stop before the
    end, as Tygem's always do) and dead stones explain what is left.
    """
    diff = row.difference
    if abs(diff) < 1e-9:
        return None
    if not pd.isna(row.moves_missing_after):
        return TRUNCATED
    if not row.countable:
        return IMPOSSIBLE_RESULT
    if abs(row.margin + row.recorded_margin) < 1e-9:
        return INVERTED
    if row.scoring == "area" and not parity_possible(row):
        return IMPOSSIBLE_PARITY
    seki = row.black_seki_points + row.white_seki_points + row.seki_dame
    if seki and abs(diff) <= seki:
        return "seki: points in or around a seki counted differently"
    owed = row.black_owed + row.white_owed
    if owed and abs(diff) <= owed:
        return "protective moves: owed points counted differently"
    if row.handicap_game and abs(diff) in {*(compensation(c, row.handicap) for c in CHOICES["handicap_bonus"]),
                                           row.handicap_bonus}:
        return "handicap compensation differs from the server's"
    if abs(diff) <= 1:
        return "one point: a dame or false eye counted differently"
    if not row.finished:
        return "unsettled position: dead stones judged on a board the players had not finished"
    return "dead stones: the life verdict differs from the players' agreement"


def parity_possible(row) -> bool:
    """Area parity: the area margin ΔA = margin + komi + bonus must be ≡ points − neutral
    (mod 2), the neutral points being the seki liberties and the open dame left unfilled,
    however a ruleset shares them (shares equal for both sides leave the margin alone)."""
    area_margin = row.recorded_margin + row.komi + row.handicap_bonus
    if area_margin != round(area_margin):
        return False
    neutral = row.seki_dame + row.open_dame - row.black_dame_filled - row.white_dame_filled
    return (round(area_margin) - (row.board_rows * row.board_cols - neutral)) % 2 == 0


def agreement(table: pd.DataFrame, by: Iterable[str] = ("source", "rules", "board", "handicap_game",
                                                          "life_method", "life_confirmable")) -> pd.DataFrame:
    """Agreement rates (exact, within one point, winner) by each grouping and overall
    (``board`` is the board size, columns by rows as ``SZ`` writes it: ``board=9x9``;
    ``life_confirmable`` sets apart the games whose verdict the rules' confirmation
    cannot uphold, :func:`rulelab.scoring.life_confirmable`).

    ``ceiling`` is 1 minus the share of games whose miss no life verdict can fix
    (:data:`rulelab.pipeline.explain.OUTSIDE_LIFE`): the most agreement better life and death
    could reach. It needs the ``miss_class`` column (:func:`explain_misses`). A table
    with a second opinion (:func:`second_opinion`) also gets its rates (``second_exact``,
    ``second_within_1``, ``second_winner``) and ``either_within_1``, the games that
    rulelab's verdict or the second opinion's count within one point. A table counted on
    both bases (:func:`both_bases`) gets each basis's rates (``exact_none``, ``within_1_play``
    ...) and ``reproduces``, the basis that counts more of the group's records exactly
    (then within one point; ``'both'`` when they tie). The rates leave out the records no
    count can reproduce (``countable`` false: a result the record's komi cannot give under
    territory counting, such as a draw at komi 5.5, or a record that says its source stops
    before the game did), which ``uncounted`` numbers.
    """
    full = table
    if "countable" in table:
        table = table.loc[table.countable]
    table = table.assign(ceiling=~table.miss_class.isin(OUTSIDE_LIFE))
    rates = dict(games=("exact", "size"), exact=("exact", "mean"), within_1=("within_1", "mean"),
                 winner=("winner_agrees", "mean"), ceiling=("ceiling", "mean"))
    if "second_margin" in table:
        table = table.assign(either_within_1=table.within_1 | table.second_within_1)
        rates.update(second_exact=("second_exact", "mean"),
                     second_within_1=("second_within_1", "mean"),
                     second_winner=("second_winner", "mean"),
                     either_within_1=("either_within_1", "mean"))
    bases = [basis for basis in FINISH_BASES if f"exact_{basis}" in table]
    for basis in bases:
        rates.update({f"exact_{basis}": (f"exact_{basis}", "mean"), f"within_1_{basis}": (f"within_1_{basis}", "mean")})
    parts = [pd.DataFrame({name: [table[column].agg(how)] for name, (column, how) in rates.items()},
                          index=["all"])]
    for column in by:
        part = table.groupby(column, dropna=False).agg(**rates)
        part.index = [f"{column}={value}" for value in part.index]
        parts.append(part)
    summary = pd.concat(parts).round(4)
    if "countable" in full:
        uncounted = {"all": int((~full.countable).sum())}
        for column in by:
            for value, group in full.groupby(column, dropna=False):
                uncounted[f"{column}={value}"] = int((~group.countable).sum())
        summary["uncounted"] = [uncounted.get(group, 0) for group in summary.index]
    return summary.assign(reproduces=_reproducing(summary)) if bases else summary


def _reproducing(summary: pd.DataFrame) -> list[str]:
    """Per agreement row, the basis whose counts reproduce more records (:func:`agreement`)."""
    best = []
    for row in summary.itertuples():
        none, play = (row.exact_none, row.within_1_none), (row.exact_play, row.within_1_play)
        best.append("none" if none > play else "play" if play > none else "both")
    return best


def _position_rows(games_file: Path, ids: list[str]) -> dict[str, dict]:
    """The games-table rows of ``ids``, by game id."""
    if not ids:
        return {}
    positions = pq.read_table(games_file, columns=POSITION_COLUMNS, filters=[("game_id", "in", ids)])
    return {row["game_id"]: row for row in positions.to_pylist()}


def both_bases(table: pd.DataFrame, run: Path, assume_rules: str | None = None) -> pd.DataFrame:
    """The :func:`compare` table with each game counted on both bases
    (:data:`rulelab.rules.FINISH_BASES`) under the verdict the run stored: for each basis B,
    ``margin_B``, ``exact_B`` and ``within_1_B`` (the status cases' own verdicts aside)."""
    rows = _position_rows(run / GAMES_FILE, table.game_id.tolist())
    verdicts = read_verdicts(run, table.game_id.tolist())
    margins: dict[str, list[float]] = {basis: [] for basis in FINISH_BASES}
    for game_id in table.game_id:
        row, verdict = rows[game_id], verdicts.get(game_id)
        position, ruleset = position_from_row(row), record_ruleset(row, assume_rules)
        for basis in FINISH_BASES:
            missing = verdict is None or ruleset is None
            margins[basis].append(np.nan if missing else margin_on(position, verdict, ruleset, basis))
    columns = {}
    for basis, values in margins.items():
        difference = pd.Series(values, index=table.index, dtype="float64") - table.recorded_margin
        columns.update({f"margin_{basis}": difference + table.recorded_margin,
                        f"exact_{basis}": difference.abs() < 1e-9, f"within_1_{basis}": difference.abs() <= 1.0})
    return table.assign(**columns)


def second_opinion(table: pd.DataFrame, games_file: Path, method: str | LifeMethod,
                   assume_rules: str | None = None, batch: int = 64, finish: str = "auto") -> pd.DataFrame:
    """The :func:`compare` table with what another backend's verdict gives, game by game.

    Adds ``second_margin`` (the count under the record's rules with ``method``'s dead
    stones, on the basis ``finish`` gives the record's source; NaN where the backend
    fails on a board), ``second_difference``,
    ``second_exact``, ``second_within_1`` and ``second_winner``. KataGo's positions go
    to the engine ``batch`` at a time.
    """
    method = life_method(method)
    rows = _position_rows(games_file, table.game_id.tolist())
    margins = []
    for start in range(0, len(table), batch):
        part = [rows[game_id] for game_id in table.game_id.iloc[start:start + batch]]
        positions = [position_from_row(row) for row in part]
        try:
            verdicts = method.decide_batch(positions)
        except REFUSALS:  # a board the backend refuses: decide the part one by one
            verdicts = [_verdict_or_none(position, method) for position in positions]
        for row, position, verdict in zip(part, positions, verdicts):
            ruleset = record_ruleset(row, assume_rules)
            basis = finish_basis(row["source"], finish)
            margins.append(np.nan if verdict is None else margin_on(position, verdict, ruleset, basis))
    second = pd.Series(margins, index=table.index, dtype="float64")
    difference = second - table.recorded_margin
    winner = np.where(second > 0, "B", np.where(second < 0, "W", "draw"))
    return table.assign(second_margin=second, second_difference=difference,
                        second_exact=difference.abs() < 1e-9, second_within_1=difference.abs() <= 1.0,
                        second_winner=second.notna() & (winner == table.result_winner))


def _verdict_or_none(position, method: LifeMethod):
    try:
        return method.decide(position)
    except REFUSALS:
        return None


def explain_misses(misses: pd.DataFrame, run: Path, assume_rules: str | None = None,
                   progress: bool = False, seed: int = 0, finish: str = "auto") -> pd.DataFrame:
    """The columns of :data:`EXPLANATION_TYPES` for each miss (a :func:`compare` row), in order.

    Each position is read back from the run's games table and its verdict from its life
    table, so the explanation is that of the verdict the run scored. Misses with a
    second opinion (:func:`second_opinion`) that reproduces the record exactly are never
    put in a class that blames the record or the count: a life verdict fixes them.
    ``progress`` shows a bar on a terminal; ``finish`` is the run's counting basis option.
    """
    rows = _position_rows(run / GAMES_FILE, misses.game_id.tolist())
    verdicts = read_verdicts(run, misses.game_id.tolist())
    second_exact = misses.second_exact if "second_exact" in misses else pd.Series(False, misses.index)
    records = []
    explaining = counted(misses.itertuples(index=False), len(misses), "explaining misses", progress)
    for miss, reproduced in zip(explaining, second_exact):
        row = rows[miss.game_id]
        explained = explain_miss(position_from_row(row), verdicts[miss.game_id],
                                 record_ruleset(row, assume_rules), miss.recorded_margin,
                                 record_problem=miss.likely_cause in RECORD_CAUSES,
                                 second_opinion_exact=bool(reproduced), rng_seed=seed,
                                 finish=finish_basis(row["source"], finish))
        records.append(explained.to_record())
    frame = pd.DataFrame(records, columns=list(EXPLANATION_TYPES), index=misses.index)
    return frame.astype(EXPLANATION_TYPES)


def miss_class_counts(misses: pd.DataFrame) -> pd.DataFrame:
    """Misses per class (rows, in :data:`~rulelab.pipeline.explain.MISS_CLASSES` order), overall and
    by the record's rules (columns ``all``, ``rules=...``)."""
    counts = {"all": misses.miss_class.value_counts()}
    for rules, group in misses.groupby("rules", dropna=False):
        counts[f"rules={rules}"] = group.miss_class.value_counts()
    return pd.DataFrame(counts).reindex(list(MISS_CLASSES)).fillna(0).astype(int).rename_axis(None)
