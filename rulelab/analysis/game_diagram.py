"""One game's final board with its verdict and its scores: ``rulelab.draw_game(run, game_id)``
or ``games.go.draw(game_id, life)``.

The position comes from the games table, the verdict from the life table and the
verdicts from the scores table, as the run stored them (nothing is decided or counted
again), so the picture and the numbers are the run's. The drawing is the report's own
(:func:`rulelab.analysis.diagrams.draw_board`): crosses on dead stones, dots on stones
in seki, squares on the dame and the points owed for protective moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.compute as pc
import pyarrow.parquet as pq

from rulelab.analysis.diagrams import draw_board, verdict_text
from rulelab.analysis.divergence import COMMON_KOMI, KOMI_BASES, at_komi
from rulelab.analysis.verdict import plain_row
from rulelab.classes import OPEN_DAME, OWED_B, OWED_W
from rulelab.errors import InputError
from rulelab.store.layout import GAMES_FILE, SCORES_FILE
from rulelab.store.life import StoredLife, read_verdicts
from rulelab.store.positions import POSITION_COLUMNS, position_from_row

RULESETS = ("chinese", "japanese")
MARKED = (OPEN_DAME, OWED_B, OWED_W)
"""Point classes drawn as squares: dame, and points owed for protective moves."""


def draw_game(run: str | Path, game_id: str, rulesets: Sequence[str] = RULESETS,
              komi_basis: str = "standard"):
    """Draw game ``game_id`` of the run folder ``run`` (see :func:`draw_row`).

    Returns
    -------
    matplotlib.figure.Figure
    """
    path = Path(run) / GAMES_FILE
    if not path.is_file():
        raise InputError(f"{run} holds no {GAMES_FILE}; score or ingest a collection into it first.")
    games = pq.read_table(path, filters=pc.field("game_id") == game_id)
    if games.num_rows == 0:
        raise InputError(f"No game {game_id!r} in {path}.")
    scores = Path(run) / SCORES_FILE
    scores = (pq.read_table(scores, filters=pc.field("game_id") == game_id).to_pandas()
              if scores.is_file() else pd.DataFrame())
    return draw_row(games.slice(0, 1).to_pylist()[0], read_verdicts(run, [game_id]).get(game_id), scores,
                    rulesets, komi_basis)


def draw_row(row: dict, verdict: StoredLife | None, scores: pd.DataFrame,
             rulesets: Sequence[str] = RULESETS, komi_basis: str = "standard"):
    """Draw the final position of a games-table ``row`` with its stored ``verdict``
    (:func:`rulelab.analysis.verdict.stored_verdict`) and the verdicts of ``rulesets`` in
    the run's ``scores`` table, on ``komi_basis``: ``'standard'``, each at the komi it
    gives the game, or ``'common'``, all at :data:`~rulelab.analysis.divergence.COMMON_KOMI`
    (where only the counting differs); the title says which."""
    row = plain_row(row)
    if row.get("status") != "ok" or row.get("board") is None:
        raise InputError(f"Game {row.get('game_id')!r} has no final position to draw "
                         f"(status {row.get('status')!r}: {row.get('error')}).")
    if not set(POSITION_COLUMNS) <= set(row):
        raise InputError(f"Game {row['game_id']!r}: the row lacks the columns its position is rebuilt from.")
    if verdict is None:
        raise InputError(f"Game {row['game_id']!r} has no stored verdict: its run was scored before "
                         "verdicts were stored, or the game could not be scored. Score the run again.")
    position = position_from_row(row)
    stored = _stored_verdicts(scores, row["game_id"], rulesets, komi_basis)
    verdicts = " · ".join(f"{name} {verdict_text(winner, margin)}" for name, winner, margin, _ in stored)
    komi = (f"all at komi {COMMON_KOMI:g}" if komi_basis == "common" else
            "each at its standard komi, " + ", ".join(f"{komi:g}" for *_, komi in stored))
    players = " vs ".join(f"{name if isinstance(name, str) and name else '?'} ({colour})" for name, colour
                          in ((row.get("black_player"), "B"), (row.get("white_player"), "W")))
    title = f"{row['game_id']}: {players}\n{verdicts} ({komi})   [life: {verdict.method}]"
    marks = np.isin(verdict.classes, MARKED) & (position.board == 0)
    return draw_board(position.board, title=title, marks=marks, dead=verdict.dead, seki=verdict.seki,
                      mark_label="dame and owed points")


def _stored_verdicts(scores: pd.DataFrame, game_id: str, rulesets: Sequence[str],
                     komi_basis: str) -> list[tuple]:
    """(ruleset, winner, margin, komi) of ``game_id`` under each of ``rulesets``, on ``komi_basis``."""
    if komi_basis not in KOMI_BASES:
        raise InputError(f"The komi basis must be one of {', '.join(KOMI_BASES)}; got {komi_basis!r}.")
    needed = {"game_id", "ruleset", "komi_source", "komi", "winner", "margin", "margin_before_komi"}
    if not isinstance(scores, pd.DataFrame) or not needed <= set(scores.columns):
        raise InputError("Drawing a game needs the run's scores table (rulelab.read_scores(run)), "
                         "which holds its verdicts.")
    rows = scores[(scores["game_id"] == game_id) & (scores["komi_source"] == "standard")]
    rows = rows.drop_duplicates("ruleset").set_index("ruleset")
    if komi_basis == "common":
        rows = at_komi(rows, COMMON_KOMI)
    missing = [name for name in rulesets if name not in rows.index]
    if missing:
        scored = ", ".join(rows.index.astype(str)) or "none"
        raise InputError(f"Game {game_id!r} has no score under {', '.join(missing)} (scored: {scored}).")
    return [(name, rows.at[name, "winner"], float(rows.at[name, "margin"]), float(rows.at[name, "komi"]))
            for name in rulesets]
