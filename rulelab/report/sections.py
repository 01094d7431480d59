"""The parts of the report, in order (:data:`SECTIONS`): each reads the run through
:class:`~rulelab.report.shared.ReportTables`, writes its tables and figures into a
:class:`~rulelab.report.blocks.Workspace`, and returns a
:class:`~rulelab.report.blocks.Section`. The sections on komi are in
:mod:`rulelab.report.komi_sections`, the findings and the model in
:mod:`rulelab.report.summary`.
"""

from __future__ import annotations

from dataclasses import asdict

import numpy as np
import pandas as pd

import rulelab
from rulelab.analysis import diagrams, plots
from rulelab.analysis.attribution import (CAUSE_NOTES, CAUSES, MAIN_CAUSES, PARTS, cause_summary,
                                          clearest_examples, part_of)
from rulelab.analysis.diagrams import verdict_text
from rulelab.analysis.divergence import (COMMON_KOMI, KOMI_BASES, any_disagreement, disagreement_matrix,
                                         matrix_wide, standard_rows)
from rulelab.analysis.inputs import counted_games
from rulelab.analysis.selection import OUTLIER_POINTS, REPRODUCED_POINTS, reproduced
from rulelab.analysis.strata import GAME_KINDS, PROFESSIONAL_COLLECTIONS, STRATA, game_strata, rank_band
from rulelab.analysis.verdict import stored_verdict
from rulelab.position import Position
from rulelab.report.blocks import Code, Section, Text, Workspace, json_text
from rulelab.report.front import board_words, glossary_section, summary_section
from rulelab.report.kinds import kinds_section
from rulelab.report.komi_sections import (boards_section, komi_section, margins_section, published_section,
                                          rekomi_section, strata_section)
from rulelab.report.rules_cases import rules_cases_section
from rulelab.report.shared import ReportTables, missing
from rulelab.report.summary import EVEN, basis_words, findings_section, model_section
from rulelab.rules import winner_at


def provenance_section(tables: ReportTables, out: Workspace) -> Section:
    run, settings = tables.run, tables.settings
    hashes = pd.DataFrame(sorted(run.table_hashes.items()), columns=["file", "sha256"])
    blocks = [
        Text(f"Built by rulelab {rulelab.__version__} from the run folder '{run.name}'. The same "
             "inputs and settings rebuild every table and figure byte for byte."),
        out.table("inputs", hashes, "Files read, with their SHA-256"),
    ]
    blocks += _manifest_blocks(run.manifest, out)
    blocks += [Text("Provenance stored in the Parquet files (metadata key 'rulelab'):"),
               Code(json_text(run.table_metadata)),
               Text("Analysis settings:"),
               Code(json_text({**asdict(settings), "komi_grid": list(settings.komi_grid)}))]
    return Section("provenance", "Appendix: inputs and provenance", blocks)


def _manifest_blocks(manifest: dict, out: Workspace) -> list:
    if not manifest:
        return [Text("The run folder has no manifest.json: the inputs' provenance is unknown.")]
    blocks = [Text("The run's manifest.json (what produced the tables, with which options, from "
                   "which inputs):")]
    for key in sorted(manifest):
        value = manifest[key]
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            blocks.append(out.table(f"manifest_{key}", pd.json_normalize(value), f"manifest: {key}"))
    blocks.append(Code(json_text(manifest)))
    return blocks


def overview_section(tables: ReportTables, out: Workspace) -> Section:
    games, scores = tables.run.games, tables.run.scores
    status = games["status"].value_counts().rename_axis("status").reset_index(name="games")
    kinds = (tables.games.assign(source=tables.games["source"].fillna("unknown"),
                                   result_kind=tables.games["result_kind"].fillna("unknown"))
             .groupby(["source", "result_kind"], sort=True).size().rename("games").reset_index())
    settled = scores["game_id"].isin(standard_rows(scores, counted=counted_games(tables.games))["game_id"])
    rows = (scores.assign(settled=settled.map({True: "settled", False: "not settled"}))
            .groupby(["ruleset", "komi_source", "settled"], sort=True, dropna=False).size()
            .rename("rows").reset_index())
    duplicates = int(games["duplicate_of"].notna().sum()) if "duplicate_of" in games else 0
    return Section("overview", "The collection", [
        Text(f"{len(games):,} game records; {len(tables.games):,} replayed without error and not "
             f"duplicates ({duplicates:,} {'copy' if duplicates == 1 else 'copies'} of a record read "
             "twice left out). Analyses count only those. A game is settled when the life layer calls "
             "its final position finished or its players counted it."),
        out.table("games_by_status", status.sort_values("status"), "Games by status"),
        out.table("games_by_result", kinds, "Analysable games by source and kind of result"),
        out.table("score_rows", rows, "Scores rows by ruleset, komi source and settledness"),
    ])


def divergence_section(tables: ReportTables, out: Workspace) -> Section:
    scores, games = tables.run.scores, tables.run.games
    matrices = {kind: {basis: disagreement_matrix(scores, games, komi_basis=basis, kind=kind) for basis in KOMI_BASES}
                for kind in GAME_KINDS}
    standard = matrices[EVEN]["standard"]
    if standard.empty or standard["games"].max() == 0:
        others = any(by_basis["standard"]["games"].max() > 0 for by_basis in matrices.values())
        return missing("divergence", "Where rulesets disagree",
                       "no even game is both settled and scored under two rulesets; the other kinds are in "
                       "Game kinds." if others else "no game is both settled and scored under two rulesets.")
    total = int(standard["games"].max())
    own = standard["komi_basis"].iloc[0]
    blocks = [Text("Each settled even game (one the life layer calls finished, or one its players "
                   f"counted) is scored under every ruleset, on {board_words(tables)}. A pair of "
                   "rulesets disagrees on a game when they name different winners (a draw is a verdict of its "
                   f"own). Two komi bases: {own} — {basis_words(own, tables.standard_komi)}, which is what "
                   f"players of each ruleset see; and every ruleset at one common komi of {COMMON_KOMI:g}, "
                   "where only the counting differs. The handicap, one-stone and no-komi games have their own "
                   "section ([Game kinds](#kinds)) and rows of their own in the tables below (game_kind). Left "
                   f"out: the {standard.attrs.get('dropped', {}).get('outliers', 0):,} even games whose count "
                   f"under the record's own rules misses the recorded margin by more than {OUTLIER_POINTS:g} "
                   "points (misread groups, not rule differences; the findings give the rates with them).")]
    for basis, matrix in matrices[EVEN].items():
        label = f"{own} komi" if basis == "standard" else f"common komi {COMMON_KOMI:g}"
        blocks += [
            out.figure(f"divergence_matrix_{basis}", plots.plot_disagreement(
                matrix, title=f"Rulesets naming different winners on even games at {label} (n = {total:,} games)"),
                f"Share of even games (with its 95% interval and count) on which each pair of rulesets names "
                f"different winners, at {label}."),
            out.table(f"divergence_counts_{basis}", matrix_wide(matrix, "disagreements").reset_index(),
                      f"Even games (of {total:,}) on which two rulesets name different winners, at {label}",
                      preview_rows=len(matrix)),
        ]
    attribution = tables.attribution
    causes = cause_summary(attribution[attribution["game_kind"] == EVEN]) if not attribution.empty else pd.DataFrame()
    if not causes.empty:
        keys = ["komi_basis", "ruleset_a", "ruleset_b"]
        pair_total = causes.groupby(keys, sort=False)["games"].transform("sum")
        top = causes.assign(disagreements=pair_total, share=causes["games"] / pair_total).drop_duplicates(keys)
        blocks.append(out.table("divergence_causes", top[[*keys, "disagreements", "main_cause", "share"]]
                                .reset_index(drop=True), "The commonest main cause of each pair's "
                                "disagreements on even games (share of them), per komi basis", preview_rows=20))
    blocks.append(out.table("divergence_matrix", pd.concat(
        [matrix.assign(game_kind=kind) for kind, by_basis in matrices.items() for matrix in by_basis.values()],
        ignore_index=True).pipe(lambda m: m[["game_kind", *m.columns[:-1]]]),
        "Disagreements per kind of game, ordered pair of rulesets and komi basis (long form, with rates; even "
        "games first)", preview_rows=0))
    split = [by for by in (*STRATA, "life_method") if _levels(tables, by) > 1]
    if split:
        blocks.append(out.table("divergence_by_stratum", pd.concat(
            [any_disagreement(scores, games, by=by, kind=_kind_of(by)).rename(columns={by: "value"})
             .assign(stratum=by) for by in split], ignore_index=True)[["stratum", "value", "games", "disagreeing",
                                                                        "rate"]],
            f"Games on which the rulesets do not all name the same winner ({own} komi), per stratum: even "
            "games, and every kind by game kind", preview_rows=40))
    for by in split:
        table = pd.concat([disagreement_matrix(scores, games, by=by, komi_basis=basis, kind=_kind_of(by))
                           for basis in KOMI_BASES], ignore_index=True)
        table = table[table["ruleset_a"].map(_rank(table)) < table["ruleset_b"].map(_rank(table))]
        blocks.append(out.table(f"divergence_by_{by}", table.reset_index(drop=True),
                                f"Disagreements by {by.replace('_', ' ')}"
                                + ("" if by == "game_kind" else " (even games)"), preview_rows=12))
    single = [by for by in (*STRATA, "life_method") if by not in split]
    if single:
        blocks.append(Text("Not split by " + ", ".join(by.replace("_", " ") for by in single)
                           + ": every compared game has the same value there."))
    return Section("divergence", "Where rulesets disagree", blocks)


def _kind_of(by: str) -> str | None:
    """The kind of game a stratum's table covers: even games, but every kind split by ``game_kind``."""
    return None if by == "game_kind" else EVEN


def _levels(tables: ReportTables, by: str) -> int:
    """How many values stratum ``by`` takes among the games its table compares (:func:`_kind_of`)."""
    rows = standard_rows(tables.run.scores, finished_only=False)
    strata = game_strata(tables.games)
    if _kind_of(by) is not None:
        rows = rows[rows["game_id"].isin(strata.loc[strata["game_kind"] == _kind_of(by), "game_id"])]
    if by == "life_method":
        return rows["life_method"].nunique(dropna=False) if "life_method" in rows else 0
    return strata.loc[strata["game_id"].isin(rows["game_id"]), by].nunique(dropna=False)


def _rank(matrix: pd.DataFrame) -> dict[str, int]:
    return {name: k for k, name in enumerate(dict.fromkeys(matrix["ruleset_a"]))}


def attribution_section(tables: ReportTables, out: Workspace) -> Section:
    table = tables.attribution
    causes = pd.DataFrame({"cause": list(MAIN_CAUSES), "meaning": [CAUSE_NOTES[c] for c in MAIN_CAUSES]})
    blocks = [
        Text("For every game and pair of rulesets that disagree, the margin difference (Black − "
             "White, komi included) is split into parts read from the score breakdowns, one per "
             "mechanism (column part_<cause>, points of margin_a − margin_b); parts that offset by "
             "design are one mechanism, reported net. The parts add up to the difference exactly. "
             "The main cause is the part whose removal alone makes the two rulesets name the same "
             "winner (the largest such part); equal margins with different verdicts, and only they, "
             "are a tie rule, and where no single part flips the verdict the cause is 'combined', "
             "with the fewest parts that do together in combined_causes. A part that pulls against "
             "the difference is named in opposing_causes. At the common komi the komi part is zero, "
             "so the causes left are those of the counting rules."),
        out.table("causes", causes, "Causes", preview_rows=len(causes)),
    ]
    if table.empty:
        return Section("attribution", "Why they disagree",
                       blocks + [Text("Not shown: no two rulesets name different winners on a settled game.")])
    every, table = table, table[table["game_kind"] == EVEN]
    residual = (every[list(PARTS)].sum(axis=1) - every["difference"]).abs().max()
    unexplained = int((table["part_unexplained"] != 0).sum())
    single = table["main_cause"].isin(CAUSES)
    rest = (table["margin_a"] - part_of(table, table["main_cause"])).where(single)
    flips = winner_at(rest.fillna(0.0).to_numpy(), table["ruleset_b"].map(_tie_rules(tables)).to_numpy())
    follows = int((single & (flips == table["winner_b"].to_numpy())).sum())
    blocks += [
        Text(f"{len(table):,} disagreeing (komi basis, game, pair) rows on even games, and "
             f"{len(every) - len(table):,} on the other kinds of game (game_kind; their section: "
             f"[Game kinds](#kinds)). Largest gap between the sum of the parts and the difference, on every "
             f"kind: {residual:g} points. On even games, rows with an unexplained part: "
             f"{unexplained:,}" + (" — the scores' columns do not add up as RULES.md says there; "
                                   "see attribution.csv." if unexplained else ".")
             + f" Taking the main cause's part away from margin_a gives ruleset b's winner on "
             f"{follows:,} rows{f' ({follows / len(table):.1%})' if len(table) else ''}; "
             f"{int(table['main_cause'].eq('tie_break').sum()):,} are decided by a tie rule, "
             f"{int(table['main_cause'].eq('combined').sum()):,} need several parts together, and "
             f"{int(table['opposing_causes'].notna().sum()):,} hold a part pulling the other way."),
        out.table("cause_summary", cause_summary(every),
                  "Disagreements by kind of game, komi basis, pair and main cause (even games first)",
                  preview_rows=30),
        out.table("attribution", every, "Every disagreement with its parts (points, a − b), even games first",
                  preview_rows=0),
    ]
    return Section("attribution", "Why they disagree", blocks)


def _tie_rules(tables: ReportTables) -> dict[str, str]:
    """Each ruleset's rule for a margin of 0, as its rows carry it ('draw' when absent)."""
    scores = tables.run.scores
    if "tie_break" not in scores:
        return {}
    return scores.dropna(subset=["tie_break"]).drop_duplicates("ruleset").set_index("ruleset")["tie_break"].to_dict()


def examples_section(tables: ReportTables, out: Workspace) -> Section:
    examples = _examples(tables)
    blocks = [Text("For each cause, the even games where it alone best explains the flip at the komi "
                   "each ruleset gives the game, Chinese against Japanese first, then any other pair "
                   "for the causes they do not show, and an Ing game whenever there are some. Only "
                   "games whose count under the record's own rules reproduces the recorded margin "
                   f"are drawn (exactly where one does, else within {REPRODUCED_POINTS:g} point), so "
                   "no misread group stands for a rule. Each is drawn with the points behind the "
                   "cause marked: the dame, seki eyes and owed points the scorer counted, and the dead "
                   "stones of the life verdict the run stored.")]
    if examples.empty:
        return Section("examples", "Worked examples",
                       blocks + [Text("Not shown: no two rulesets name different winners on a settled "
                                      "game whose count reproduces its record.")])
    games = tables.games.set_index("game_id")
    for k, row in enumerate(examples.itertuples(index=False)):
        game = games.loc[row.game_id]
        board = _grid(game, "board")
        if board is None:
            continue
        verdict = stored_verdict(tables.run.life, row.game_id)
        dead, seki, classes = (verdict.dead, verdict.seki, verdict.classes) if verdict else (None,) * 3
        marks = diagrams.points_that_differ(board, row.cause, dead=dead, classes=classes)
        parts = ", ".join(f"{c} {getattr(row, p):+g}" for c, p in zip(CAUSES, PARTS) if getattr(row, p) != 0)
        verdicts = (f"{row.ruleset_a} {verdict_text(row.winner_a, row.margin_a)} vs "
                    f"{row.ruleset_b} {verdict_text(row.winner_b, row.margin_b)}")
        title = f"{game_title(game)}\n{verdicts} (each at its {row.komi_basis} komi); main cause: {row.cause}"
        figure = diagrams.draw_board(board, title=title, marks=marks, dead=dead, seki=seki,
                                     mark_label=diagrams.mark_label(row.cause))
        blocks.append(out.figure(f"example_{k:02d}_{row.cause}", figure,
                                 f"{game_title(game)} (game {row.game_id}): {verdicts}; margin "
                                 f"difference {row.difference:+g} = {parts}."))
    blocks.append(out.table("examples", examples, "The games drawn above"))
    return Section("examples", "Worked examples", blocks)


def _examples(tables: ReportTables) -> pd.DataFrame:
    """The clearest games per cause at the komi each ruleset gives the game, from games whose
    count reproduces their record (exactly first): Chinese against Japanese first, then other
    pairs for the causes those do not show, then the clearest game with Ing on one side."""
    table = tables.attribution
    table = table[(table["komi_basis"] != "common") & (table["game_kind"] == EVEN)] if not table.empty else table
    if table.empty:
        return pd.DataFrame()
    gap = reproduced(tables.gaps)
    per_cause = tables.settings.examples_per_cause
    chinese_japanese = table["ruleset_a"].eq("chinese") & table["ruleset_b"].eq("japanese")
    with_ing = table["ruleset_a"].eq("ing") | table["ruleset_b"].eq("ing")
    picks, shown, ing_shown = [], set(), False
    for closeness in (gap[gap == 0].index, gap.index):
        close = table["game_id"].isin(closeness)
        for wanted in (chinese_japanese, True):
            rows = table[close & wanted & ~table["main_cause"].isin(shown)]
            if not rows.empty:
                picks.append(clearest_examples(rows, per_cause))
                shown |= set(picks[-1]["cause"])
                ing_shown |= bool((picks[-1]["ruleset_a"].eq("ing") | picks[-1]["ruleset_b"].eq("ing")).any())
        if not ing_shown and (close & with_ing).any():
            picks.append(clearest_examples(table[close & with_ing], 1).head(1))
            ing_shown = True
    if not picks:
        return pd.DataFrame()
    return pd.concat(picks, ignore_index=True).drop_duplicates(["game_id", "ruleset_a", "ruleset_b"])


def game_title(game: pd.Series) -> str:
    """Players (with ranks, pros marked), date and event of a games row, as far as known."""
    def player(colour: str) -> str:
        name = game.get(f"{colour}_player")
        name = name if isinstance(name, str) and name else f"{colour.title()} (unnamed)"
        rank = game.get(f"{colour}_rank")
        if isinstance(rank, str) and rank:
            band = rank_band(pd.Series([rank]), pd.Series([rank]), pd.Series([_professional(game)]))
            name += f" {rank}" + (" pro" if band.iloc[0] == "pro" and "p" not in rank.lower() else "")
        return name

    when = game.get("date_raw")
    event = game.get("event")
    extra = [str(v) for v in (when, event) if isinstance(v, str) and v]
    return f"{player('black')} (B) vs {player('white')} (W)" + (", " + ", ".join(extra) if extra else "")


def _professional(game: pd.Series) -> bool:
    source = game.get("source")
    return not isinstance(source, str) or source in PROFESSIONAL_COLLECTIONS


def _grid(game: pd.Series, column: str) -> np.ndarray | None:
    """A board-shaped int8 array stored as bytes in ``column`` of a games row, if any."""
    data = game.get(column)
    if data is None or (isinstance(data, float) and np.isnan(data)):
        return None
    return Position.board_from_bytes(bytes(data), int(game["board_rows"]), int(game["board_cols"]))


SECTIONS = {
    "summary": summary_section,
    "findings": findings_section,
    "kinds": kinds_section,
    "model": model_section,
    "overview": overview_section,
    "divergence": divergence_section,
    "attribution": attribution_section,
    "examples": examples_section,
    "rules_cases": rules_cases_section,
    "margins": margins_section,
    "komi": komi_section,
    "strata": strata_section,
    "boards": boards_section,
    "rekomi": rekomi_section,
    "published": published_section,
    "glossary": glossary_section,
    "provenance": provenance_section,
}
"""Report parts in their order, the headline table and the findings first, the glossary
and the provenance last;
each maps (ReportTables, Workspace) → Section."""
