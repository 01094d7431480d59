"""The report's section on the games where the rules texts decide differently what lives
(the status cases of :mod:`rulelab.life.status`) and what a whole-board repetition means
(the cycles of :mod:`rulelab.read.cycles`): how many games have each, what each ruleset
makes of them, and one drawn example of each kind."""

from __future__ import annotations

import numpy as np
import pandas as pd

from rulelab.analysis import diagrams
from rulelab.analysis.verdict import stored_verdict
from rulelab.life_methods import PLAYERS_MARKS
from rulelab.report.blocks import Section, Text, Workspace
from rulelab.report.shared import ReportTables


def status_cases_table(life: pd.DataFrame) -> pd.DataFrame:
    """One row per status case of a life table: ``game_id``, ``kind``, ``stones`` (the
    group's size), ``dead_under`` (the rulesets whose rules call it dead, comma-separated),
    ``marks_kept`` (the verdict is the players' marks, which every ruleset counts: the case
    only flags the group, :func:`~rulelab.life.status.ruled_cases`) and ``differs`` (some
    ruleset's dead stones differ from the common verdict's)."""
    rows = []
    if "status_cases" in life.columns:
        for game_id, method, cases, differ in zip(life["game_id"], life["life_method"], life["status_cases"],
                                                  life["status_dead"]):
            for case in [] if cases is None else cases:
                rows.append({"game_id": game_id, "kind": case["kind"],
                             "stones": int(np.frombuffer(case["stones"], dtype=np.int8).sum()),
                             "dead_under": ",".join(case["dead_under"]), "marks_kept": method == PLAYERS_MARKS,
                             "differs": differ is not None and len(differ) > 0})
    return pd.DataFrame(rows, columns=["game_id", "kind", "stones", "dead_under", "marks_kept", "differs"]).astype(
        {"marks_kept": bool, "differs": bool})


def status_counts(life: pd.DataFrame, scores: pd.DataFrame) -> pd.DataFrame:
    """Per status kind: the games with one, and per ruleset the games whose margin its own
    verdict moved and those whose winner it changed (against the common verdict)."""
    cases = status_cases_table(life)
    counts = cases.groupby("kind")["game_id"].nunique().rename("games").to_frame()
    counts["marks_kept"] = cases[cases["marks_kept"]].groupby("kind")["game_id"].nunique()
    counts["marks_kept"] = counts["marks_kept"].fillna(0).astype(int)
    if "status" not in scores.columns or cases.empty:
        return counts.reset_index()
    rows = scores[scores["status"].notna() & scores["komi_source"].eq("standard")].copy()
    common = rows["margin"] - rows["status_effect"]
    rows["winner_changed"] = np.sign(rows["margin"]) != np.sign(common)
    rows = rows.assign(kind=rows["status"].str.split(",")).explode("kind")
    moved = rows.pivot_table(index="kind", columns="ruleset", values="game_id", aggfunc="nunique")
    flipped = rows[rows["winner_changed"]].groupby("kind")["game_id"].nunique().rename("winner_changed")
    counts = counts.join(moved.add_prefix("moved_"), how="left").join(flipped)
    return counts.fillna(0).astype(int).reset_index()


def cycle_counts(games: pd.DataFrame, scores: pd.DataFrame) -> pd.DataFrame:
    """Per cycle kind: the games, those whose players stopped in it (where a draw or no
    result decides the game), and the meaning each ruleset gives it."""
    if "cycle" not in games.columns or games["cycle"].isna().all():
        return pd.DataFrame(columns=["cycle", "games", "stopped_in_it"])
    cycled = games.loc[games["cycle"].notna(), ["game_id", "cycle", "ended_in_cycle"]]
    counts = cycled.groupby("cycle").agg(games=("game_id", "nunique"),
                                         stopped_in_it=("ended_in_cycle", "sum")).astype(int)
    rows = scores[scores["komi_source"].eq("standard") & scores["repetition"].notna()]
    meaning = rows.merge(cycled[["game_id", "cycle"]], on="game_id")
    meaning = meaning.groupby(["cycle", "ruleset"])["repetition"].first().unstack()
    return counts.join(meaning).reset_index()


def rules_cases_section(tables: ReportTables, out: Workspace) -> Section:
    life, games, scores = tables.run.life, tables.games, tables.run.scores
    status = status_counts(life, scores)
    cycles = cycle_counts(games, scores)
    blocks = [Text("Where the rules texts decide life differently (a bent four in the corner, a ko kill, "
                   "a ko left unmended: J1989 Art. 7-2 against play under Chinese 1988 Art. 8 and Ing "
                   "Art. 4; a double-ko seki, J1989 Art. 8 Fig. 14, is a seki under every ruleset) and "
                   "what a whole-board repetition means (a draw, no result, a forbidden "
                   "move, or resolved by Ing's ko rules). Each ruleset counts a status case with its "
                   "own verdict, except on the players' own marks, which stand: there the case only flags "
                   "the group (`marks_kept`); `moved_<ruleset>` counts the games whose margin a ruleset's own "
                   "verdict moved, `winner_changed` those where it changed a winner under some ruleset.")]
    blocks.append(Text(_status_words(life, scores)))
    blocks.append(out.table("status_cases", status, "Games with each status case"))
    blocks.append(out.table("cycles", cycles,
                            "Games with each whole-board cycle, and its meaning per ruleset"))
    # each kind drawn once, from a game where some ruleset's verdict differs if any
    examples = status_cases_table(life).sort_values(["differs", "game_id"], ascending=[False, True])
    examples = examples.drop_duplicates("kind").sort_values("kind")
    for row in examples.itertuples(index=False):
        verdict = f"dead under {row.dead_under}" if row.dead_under else "alive under every ruleset"
        if row.marks_kept:
            verdict = f"the players' marks kept, as every ruleset counts it (the rules' reading: {verdict})"
        blocks += _drawn(tables, out, row.game_id, row.kind, f"{row.stones} stones, {verdict}")
    if not cycles.empty:
        # a record whose players stopped in its cycle shows one of its boards
        cycled = games[games["cycle"].notna()].sort_values(["ended_in_cycle", "game_id"],
                                                            ascending=[False, True])
        for row in cycled.drop_duplicates("cycle").itertuples(index=False):
            where = ", one of the cycle's: the players stopped in it" if row.ended_in_cycle else ""
            blocks += _drawn(tables, out, row.game_id, row.cycle,
                             f"move {int(row.cycle_end)} recreates the board after move "
                             f"{int(row.cycle_start)}; the final board{where}")
    return Section("rules_cases", "Where the rules decide life and repetition differently", blocks)


def _status_words(life: pd.DataFrame, scores: pd.DataFrame) -> str:
    """How often status changes a count, and why so seldom: a case moves a count only where
    some ruleset's own verdict on the group differs from the common one."""
    cases = status_cases_table(life)
    standard = scores[scores["komi_source"].eq("standard")]
    effect = pd.to_numeric(standard.get("status_effect", pd.Series(0.0, index=standard.index)),
                           errors="coerce").fillna(0.0)
    moved = standard.loc[effect.ne(0), "game_id"].nunique()
    with_case, differing = cases["game_id"].nunique(), cases.loc[cases["differs"], "game_id"].nunique()
    marked = cases.loc[cases["marks_kept"], "game_id"].nunique()
    text = f"Status changes a count on {moved:,} of the {standard['game_id'].nunique():,} scored games."
    if not with_case:
        return text + " No game holds a status case, so none can."
    return text + (f" {with_case:,} games hold a status case, and on {differing:,} of them some ruleset's own "
                   "verdict differs from the common one; only there can a count move. Most cases are decided "
                   "alike by every ruleset: a bent four in the corner is dead under Japanese confirmation and, "
                   "played out, under the area rules too, and a double-ko seki is a seki everywhere. "
                   f"On {marked:,} of the {with_case:,} the dead stones are the players' own marks, which no "
                   "ruleset's reading overrules: the players confirmed the group's life (J1989 Art. 9-2, "
                   "Chinese 1988 Art. 8) and the record's count is theirs, so there the case is a flag "
                   "(`marks_kept`), never a change of count.")


def _drawn(tables: ReportTables, out: Workspace, game_id: str, kind: str, caption: str) -> list:
    """The final board of ``game_id``, an example of ``kind``, with the stored verdict's
    dead stones and its status cases' stones marked."""
    game = tables.games.set_index("game_id").loc[game_id]
    if isinstance(game, pd.DataFrame):
        game = game.iloc[0]
    shape = int(game["board_rows"]), int(game["board_cols"])
    board = np.frombuffer(bytes(game["board"]), dtype=np.int8).reshape(shape)
    verdict = stored_verdict(tables.run.life, game_id)
    marks = np.zeros(shape, dtype=bool)
    rows = tables.run.life.loc[tables.run.life["game_id"] == game_id]
    if not rows.empty and rows.iloc[0].get("status_cases") is not None:
        for case in rows.iloc[0]["status_cases"]:
            marks |= np.frombuffer(case["stones"], dtype=np.int8).reshape(shape).astype(bool)
    figure = diagrams.draw_board(board, title=f"{kind}: game {game_id[:8]}",
                                 marks=marks if marks.any() else None, mark_label="the status case's group",
                                 dead=None if verdict is None else verdict.dead)
    return [out.figure(f"rules_case_{kind}", figure, f"{kind}, game {game_id}: {caption}.")]
