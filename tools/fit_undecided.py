"""Fit the model of :mod:`rulelab.life.undecided` to KataGo's verdicts.

    python -m tools.fit_undecided RUN [RUN ...] [--source TEXT ...] [--out PATH]

Each ``RUN`` is the folder of a ``rulelab score`` or ``rulelab validate`` run made
with ``--life katago``: its games table gives the final boards, its life table
KataGo's dead stones. Every undecided string of every board (as the estimate's first
pass sees it) is one example, labelled dead when KataGo removes it. The fit is an
L2-regularised logistic regression on standardised features, deterministic for the
same runs; the file it writes records the runs, their inputs and the fit's accuracy.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.optimize import minimize

from rulelab.life.estimate import undecided_strings
from rulelab.life.undecided import FEATURES, MODEL_PATH, dead_probability
from rulelab.position import Position
from rulelab.store.positions import POSITION_COLUMNS, position_from_row

L2 = 0.01
"""Weight of the penalty on the standardised coefficients (the intercept is free)."""


def examples(run: Path) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """``(rows, dead, games)``: every undecided string of the run's KataGo-judged games,
    KataGo's verdict on it, and the games."""
    games = pd.read_parquet(run / "games.parquet", columns=POSITION_COLUMNS)
    life = pd.read_parquet(run / "life.parquet", columns=["game_id", "dead", "life_method"])
    games = games[games.status == "ok"].merge(life[life.life_method == "katago"], on="game_id")
    rows, dead = [], []
    for row in games.astype(object).where(games.notna(), None).to_dict("records"):
        position = position_from_row(row)
        board = position.board
        verdict = Position.board_from_bytes(row["dead"], *board.shape).astype(bool)
        features, members = undecided_strings(board, position.to_move)
        for k in range(len(features)):
            string = members == k
            rows.append(features[k])
            dead.append(verdict[string].mean() > 0.5)
    return np.array(rows).reshape(-1, len(FEATURES)), np.array(dead, dtype=float), list(games.game_id)


def fit(rows: np.ndarray, dead: np.ndarray) -> dict:
    """Weights (intercept first), means and scales of the logistic model."""
    mean, scale = rows.mean(0), rows.std(0)
    scale[scale == 0] = 1.0
    z = np.c_[np.ones(len(rows)), (rows - mean) / scale]

    def loss(w):
        logit = z @ w
        penalty = np.r_[0.0, w[1:]]
        return (np.logaddexp(0, logit).sum() - dead @ logit + L2 * penalty @ penalty,
                z.T @ (1 / (1 + np.exp(-logit)) - dead) + 2 * L2 * penalty)

    weights = minimize(loss, np.zeros(z.shape[1]), jac=True, method="L-BFGS-B").x
    return {"features": list(FEATURES), "weights": weights.round(6).tolist(),
            "mean": mean.round(6).tolist(), "scale": scale.round(6).tolist()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path, help="run folders made with --life katago")
    parser.add_argument("--source", action="append", default=[],
                        help="what the records of each run are, for the provenance")
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    args = parser.parse_args(argv)
    parts = [examples(run) for run in args.runs]
    rows, dead = np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    model = fit(rows, dead)
    judged = dead_probability(rows, model) > 0.5
    model["provenance"] = {
        "fitted_by": "python -m tools.fit_undecided",
        "labels": "KataGo's dead stones (rulelab --life katago)",
        "sources": args.source,
        "games": sorted(game for part in parts for game in part[2]),
        "strings": int(len(rows)), "dead_share": round(float(dead.mean()), 4),
        "accuracy": round(float((judged == dead).mean()), 4),
        "accuracy_of_one_half": round(float(((rows[:, 0] < 0.5) == dead).mean()), 4),
    }
    args.out.write_text(json.dumps(model, indent=1) + "\n")
    print(json.dumps(model["provenance"], indent=1))


if __name__ == "__main__":
    main()
