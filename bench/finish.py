"""What the finisher adds to a game (:mod:`rulelab.scoring.finish`), timed on its own.

A pipeline run with ``--finish play`` against one with ``--finish none`` would bury a
fraction of a millisecond in the noise of two whole runs, so the finisher is timed
alone, on the final positions of a sample and the verdicts a run stored for them: what
the score stage does more on the ``play`` basis, playing the board to its end and
classifying the finished board, in the games that basis plays out (a resigned game is
counted as it stands: :func:`rulelab.rules.finish_basis`), the cost spread over every game.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import pyarrow.parquet as pq

from rulelab.pipeline.run import score
from rulelab.rules import finish_basis
from rulelab.scoring import classify_points
from rulelab.scoring.finish import finish_position
from rulelab.store.layout import GAMES_FILE
from rulelab.store.life import read_verdicts
from rulelab.store.positions import POSITION_COLUMNS, position_from_row


def finish_cost(sample: Path) -> dict:
    """Milliseconds the finisher adds to a game of ``sample`` with 1 job, and how many
    moves it plays a game, under the verdicts of a run with the records' marks."""
    with tempfile.TemporaryDirectory(prefix="rulelab-bench-") as out:
        score([str(sample)], out, jobs=1, life="markup", finish="none")
        rows = pq.read_table(Path(out) / GAMES_FILE, columns=[*POSITION_COLUMNS, "result_kind"],
                             filters=[("status", "=", "ok")]).to_pylist()
        verdicts = read_verdicts(out, [row["game_id"] for row in rows])
    scored = [row for row in rows if row["game_id"] in verdicts]
    games = [(position, verdict, classify_points(position, verdict))
             for position, verdict in ((position_from_row(row), verdicts[row["game_id"]]) for row in scored
                                       if finish_basis(row["source"], "play", row["result_kind"]) == "play")]
    finish_position(*games[0])  # compiled or loaded outside the timing
    moves = 0
    started = time.perf_counter()
    for position, verdict, classes in games:
        done = finish_position(position, verdict, classes)
        if done.moves:
            classify_points(done.position, verdict)
        moves += len(done.moves)
    seconds = time.perf_counter() - started
    return {"finish_games": len(scored), "finish_played_games": len(games),
            "finish_ms_per_game_jobs1": round(1000 * seconds / len(scored), 3),
            "finish_moves_per_played_game": round(moves / len(games), 1)}
