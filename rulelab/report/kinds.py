"""The games the headline leaves out: handicap, one-stone and no-komi games, each kind on its
own, and the readings of a disputed handicap compensation side by side.

What a ruleset gives such a game (its handicap komi, White's compensation for the stones) is a
convention, and where a convention is disputed the report gives each reading with its source
instead of one default.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from rulelab.analysis.findings import MAIN_RULESETS, handicap_readings, pair_rates
from rulelab.analysis.strata import GAME_KINDS
from rulelab.report.blocks import Section, Text, Workspace
from rulelab.report.summary import share
from rulelab.rules import HANDICAP_CONVENTIONS, PRESETS

if TYPE_CHECKING:
    from rulelab.report.shared import ReportTables

KIND_WORDS = {
    "even": "even games (the findings' headline)",
    "handicap": "handicap games: each ruleset at its handicap komi and with its compensation for the stones",
    "one-stone": "one-stone games (no handicap stones, komi 0.5: the weaker player takes Black), at each "
                 "ruleset's handicap komi, as the servers play them",
    "no komi": "games without handicap stones whose record states no komi (or 0): old professional games, "
               "or records that do not say; each ruleset at the komi of the game's era",
}
"""Each kind of game, in words."""


def kinds_section(tables: "ReportTables", out: Workspace) -> Section:
    scores, games = tables.run.scores, tables.run.games
    present = [r for r in MAIN_RULESETS if r in set(scores["ruleset"])]
    if len(present) < 2:
        return Section("kinds", "Game kinds", [Text(
            f"Not shown, since fewer than two of {', '.join(MAIN_RULESETS)} were scored.")])
    rates = pd.concat([pair_rates(scores, games, present, kind=kind).assign(kind=kind) for kind in GAME_KINDS],
                      ignore_index=True)
    whole = rates[(rates["band"] == "all") & (rates["pair"] == "any")]
    blocks = [Text("The rulesets name different winners, by kind of game (each ruleset at the komi it gives "
                   "the game, then at one common komi): " + "; ".join(
                       _kind_words(kind, whole[whole["kind"] == kind]) for kind in GAME_KINDS) + ".")]
    readings = handicap_readings(scores, games)
    if not readings.empty and readings["games"].max() > 0:
        blocks.append(Text(_readings_words(readings)))
        blocks.append(out.table("handicap_readings", readings, "Handicap games: each reading of a disputed "
                                "compensation, side by side, with its source", preview_rows=len(readings)))
    blocks.append(out.table("kinds_rates", rates[rates["band"] == "all"].drop(columns="band")
                            [["kind", *[c for c in rates.columns if c not in ("kind", "band")]]].reset_index(drop=True),
                            "Disagreement rates per kind of game, pair and komi basis", preview_rows=0))
    return Section("kinds", "Game kinds", blocks)


def _kind_words(kind: str, rows: pd.DataFrame) -> str:
    """How often the main rulesets disagree on one kind of game, on both komi bases."""
    if rows.empty or not int(rows["games"].max()):
        return f"{KIND_WORDS[kind]}: none settled"
    own, common = rows[rows["komi_basis"] != "common"].iloc[0], rows[rows["komi_basis"] == "common"].iloc[0]
    return (f"{KIND_WORDS[kind]}, {int(own['disagreements']):,} of {int(own['games']):,}, "
            f"{share(own['disagreements'], int(own['games']))} ({own['komi_basis']} komi), "
            f"{share(common['disagreements'], int(common['games']))} at the common komi")


def _readings_words(readings: pd.DataFrame) -> str:
    """Each reading of a disputed compensation and the rates it gives, side by side."""
    parts = []
    for (ruleset, choice), rows in readings.groupby(["ruleset", "compensation"], sort=False):
        first = rows.iloc[0]
        rates = ", ".join(f"{row.pair.replace('–', ' vs ')} {share(row.disagreements, int(row.games))} "
                          f"of {int(row.games):,}" for row in rows.itertuples())
        parts.append(f"{ruleset.title()} with {first['source']}{' — its preset' if first['default'] else ''}: "
                     f"{rates}")
    conventions = "; ".join(f"{r}: {HANDICAP_CONVENTIONS[r]}" for r in dict.fromkeys(readings["ruleset"])
                            if r in PRESETS)
    return ("Handicap compensation is a convention, and for some rulesets a disputed one, so each reading is "
            "a row of its own, on the settled handicap games at each ruleset's handicap komi: "
            + "; ".join(parts) + f". The conventions as the presets read them — {conventions}.")
