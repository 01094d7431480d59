"""Which counting conventions a source's recorded results follow: the evidence behind
rulelab's modelling choices (dame policy, handicap compensation, protective moves).

Each counted game was scored under its record's own rules (``komi_source='record'``);
its margin under every alternative convention follows from the row's breakdown columns
without scoring again, and the share of games whose recorded margin it reproduces
exactly says which convention the source uses.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rulelab.analysis.inputs import analysable_games, require_columns
from rulelab.rules import CHOICES, PRESETS, compensation

CONVENTION_COLUMNS = ("source", "rules", "setting", "choice", "games", "exact", "in_use")


def convention_agreement(scores: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Per source, rules and setting, the share of counted games each choice reproduces.

    Settings: ``dame_policy`` (area rules, even games: open dame for nobody, or filled
    alternately from the player to move), ``handicap_bonus`` (games of two stones or more:
    White receives N, N−1 or no points) and ``protective_moves`` (territory rules: owed
    points refused or counted).

    Returns
    -------
    pandas.DataFrame
        ``source, rules, setting, choice, games, exact`` (share reproduced exactly) and
        ``in_use`` (the choice the rows were scored with).

    Examples
    --------
    Five open dame, Black to move; the record says White won by 7.5 at komi 7.5 (a margin
    of 0 before komi: the dame counted for nobody).

    >>> games = pd.DataFrame({"game_id": ["g"], "status": "ok", "source": "kgs", "rules": "chinese",
    ...     "result_kind": "counted", "result_winner": "W", "result_margin": 7.5, "handicap": 0,
    ...     "to_move": "B"})
    >>> scores = pd.DataFrame({"game_id": ["g"], "ruleset": "chinese", "komi_source": "record",
    ...     "scoring": "area", "komi": 7.5, "margin": -7.5, "dame_policy": "none", "open_dame": 5,
    ...     "black_dame_filled": 0, "white_dame_filled": 0, "handicap_bonus": 0, "black_owed": 0,
    ...     "white_owed": 0})
    >>> convention_agreement(scores, games)[["setting", "choice", "games", "exact", "in_use"]]
           setting     choice  games  exact  in_use
    0  dame_policy  alternate      1    0.0   False
    1  dame_policy       none      1    1.0    True
    """
    require_columns(scores, ["game_id", "ruleset", "komi_source", "scoring", "margin", "dame_policy",
                             "open_dame", "black_dame_filled", "white_dame_filled", "handicap_bonus",
                             "black_owed", "white_owed"], "scores")
    played = analysable_games(games)
    played = played[played["result_kind"] == "counted"]
    rows = scores[scores["komi_source"] == "record"].drop_duplicates("game_id")
    rows = rows.drop(columns=["handicap"], errors="ignore").merge(
        played[["game_id", "source", "result_winner", "result_margin", "handicap", "to_move"]], on="game_id")
    rows = rows.assign(source=rows["source"].fillna("unknown"), rules=rows["ruleset"],
                       recorded=np.where(rows["result_winner"] == "B", 1.0, -1.0)
                       * pd.to_numeric(rows["result_margin"]).astype(float))
    handicap = pd.to_numeric(rows["handicap"], errors="coerce").fillna(0).to_numpy(float)
    margin = rows["margin"].to_numpy(float)
    parts = []
    area = rows["scoring"].eq("area").to_numpy() & (handicap < 2)
    filled = (rows["black_dame_filled"] - rows["white_dame_filled"]).to_numpy(float)
    mover = np.where(rows["to_move"].eq("W"), -1.0, 1.0)
    unfilled = margin - filled
    parts.append(_choices(rows[area], "dame_policy", rows.loc[area, "dame_policy"], {
        "none": unfilled[area], "alternate": (unfilled + mover * (rows["open_dame"] % 2))[area]}))
    stones = handicap >= 2
    base = margin + rows["handicap_bonus"].to_numpy(float)
    in_use = rows["handicap_bonus"].to_numpy(float)
    choices = CHOICES["handicap_bonus"]
    named = np.select([in_use == compensation(c, handicap) for c in choices], choices, "0")
    parts.append(_choices(rows[stones], "handicap_bonus", pd.Series(named[stones]),
                          {c: (base - compensation(c, handicap))[stones] for c in choices}))
    territory = rows["scoring"].eq("territory").to_numpy()
    owed = (rows["black_owed"] - rows["white_owed"]).to_numpy(float)
    refused = np.array([PRESETS[r].refuse_owed if r in PRESETS else False for r in rows["ruleset"]])
    refused &= ~rows["source"].eq("tygem").to_numpy()  # Tygem's plain count (score_run)
    as_refused = np.where(refused, margin, margin - owed)
    parts.append(_choices(rows[territory], "protective_moves",
                          pd.Series(np.where(refused, "refused", "counted")[territory]),
                          {"refused": as_refused[territory], "counted": (as_refused + owed)[territory]}))
    table = pd.concat([p for p in parts if not p.empty] or [pd.DataFrame(columns=CONVENTION_COLUMNS)],
                      ignore_index=True)
    return table.sort_values(["setting", "source", "rules", "choice"], kind="stable").reset_index(drop=True)


def _choices(rows: pd.DataFrame, setting: str, used: pd.Series, margins: dict) -> pd.DataFrame:
    """One row per (source, rules, choice): the share of ``rows`` whose recorded margin the
    choice's margins reproduce, and whether most rows were scored with it."""
    if rows.empty:
        return pd.DataFrame(columns=CONVENTION_COLUMNS)
    frame = rows[["source", "rules", "recorded"]].reset_index(drop=True).assign(used=used.to_numpy())
    records = []
    for choice, values in margins.items():
        hit = frame.assign(hit=np.asarray(values, float) == frame["recorded"].to_numpy(),
                           mine=frame["used"].eq(choice))
        for (source, rules), group in hit.groupby(["source", "rules"], sort=True):
            records.append({"source": source, "rules": rules, "setting": setting, "choice": choice,
                            "games": len(group), "exact": float(group["hit"].mean()),
                            "in_use": bool(group["mine"].mean() > 0.5)})
    return pd.DataFrame(records, columns=list(CONVENTION_COLUMNS))
