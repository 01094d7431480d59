"""The parts of the report: each reads the run through :class:`Analysis`, writes its
tables and figures into a :class:`~rulelab.analysis.report.Workspace`, and returns a
:class:`~rulelab.analysis.report.Section`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
import pandas as pd

import rulelab
from rulelab.analysis import diagrams, plots
from rulelab.analysis.attribution import CAUSE_NOTES, CAUSES, attribute, cause_summary, clearest_examples
from rulelab.analysis.divergence import (COMMON_KOMI, KOMI_BASES, any_disagreement, disagreement_matrix,
                                         matrix_wide, standard_rows)
from rulelab.analysis.findings import record_gaps, trusted_games
from rulelab.analysis.inputs import Run, analysable_games, read_run
from rulelab.analysis.komi import (CENSORING_ASSUMPTION, DEFAULT_KOMI_GRID, RECORD, fair_komi,
                                   komi_outcomes, margin_distribution, record_agreement, rekomi_flips,
                                   win_rate_curve)
from rulelab.analysis.published import compare_published
from rulelab.analysis.report import Code, Section, Text, Workspace, json_text
from rulelab.analysis.strata import PROFESSIONAL_COLLECTIONS, STRATA, game_strata, is_even, rank_band
from rulelab.analysis.summary import dame_policies, findings_section, model_section, outlier_rule
from rulelab.analysis.verdict import decide_row, run_life
from rulelab.errors import InputError
from rulelab.position import Position
from rulelab.store.layout import SCORES_FILE

FAMILY_REPRESENTATIVES = {"area": "chinese", "territory": "japanese"}
"""The ruleset that stands for its scoring family in the komi sections, when present."""

REKOMI = {"territory": (5.5, 6.5), "area": (5.5, 7.5)}
"""Counterfactual komi changes per family: Japan's 5.5 → 6.5 (2002) and China's
2¾ → 3¾ zi (5.5 → 7.5 points, 2002)."""


@dataclass(frozen=True)
class Settings:
    """Everything besides the inputs that the report's numbers depend on."""

    seed: int = 0
    """Seed of every bootstrap."""
    n_boot: int = 1000
    """Bootstrap replicates of each win-rate curve."""
    n_boot_fit: int = 200
    """Bootstrap replicates (refits) of each headline fair-komi estimate."""
    examples_per_cause: int = 2
    komi_grid: tuple[float, ...] = tuple(DEFAULT_KOMI_GRID)

    def __post_init__(self):
        for name, minimum in (("seed", 0), ("n_boot", 0), ("n_boot_fit", 0), ("examples_per_cause", 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
                raise InputError(f"The report setting {name!r} must be an integer ≥ {minimum}; got {value!r}.")
        object.__setattr__(self, "komi_grid", tuple(float(k) for k in self.komi_grid))


class Analysis:
    """A loaded run plus the intermediate tables several sections share (computed once)."""

    def __init__(self, run: Run, settings: Settings):
        self.run = run
        self.settings = settings

    @classmethod
    def load(cls, run_dir: str | Path, settings: Settings) -> "Analysis":
        return cls(read_run(run_dir), settings)

    @cached_property
    def games(self) -> pd.DataFrame:
        return analysable_games(self.run.games)

    @cached_property
    def attribution(self) -> pd.DataFrame:
        """Disagreements with their causes, on both komi bases."""
        parts = [attribute(self.run.scores, self.run.games, komi_basis=basis) for basis in KOMI_BASES]
        return pd.concat(parts, ignore_index=True)

    @cached_property
    def trusted(self) -> pd.Index:
        """Games whose dead stones can be trusted (:func:`~rulelab.analysis.findings.trusted_games`)."""
        return trusted_games(self.run.scores, self.run.games)

    @cached_property
    def gaps(self) -> pd.DataFrame:
        """Counted games: rulelab's count under the record's rules against the record's."""
        return record_gaps(self.run.scores, self.run.games)

    @cached_property
    def outliers(self) -> pd.Index:
        return pd.Index(self.gaps.loc[self.gaps["outlier"], "game_id"])

    @cached_property
    def standard_komi(self) -> dict[str, float]:
        rows = standard_rows(self.run.scores, finished_only=False)
        komi = rows.groupby("ruleset", sort=True)["komi"].agg(lambda k: k.mode().iloc[0])
        return {name: float(k) for name, k in komi.items()}

    @cached_property
    def representatives(self) -> dict[str, str]:
        """Per scoring family present, the ruleset standing for it."""
        rows = standard_rows(self.run.scores, finished_only=False)
        chosen = {}
        for family, names in rows.groupby("scoring", sort=True)["ruleset"]:
            present = sorted(set(names.astype(str)))
            preferred = FAMILY_REPRESENTATIVES.get(family)
            chosen[family] = preferred if preferred in present else present[0]
        return chosen

    @cached_property
    def outcomes(self) -> pd.DataFrame:
        """Margin intervals of every game under each representative ruleset and the record."""
        parts = [komi_outcomes(self.run.games, self.run.scores, name)
                 for name in self.representatives.values()]
        parts.append(komi_outcomes(self.run.games))
        return pd.concat([p for p in parts if not p.empty] or parts[-1:], ignore_index=True)

    @cached_property
    def main_board(self) -> str:
        """19x19 when the collection has such games, else its most common board."""
        boards = self.outcomes["board"].astype(str).value_counts()
        return "19x19" if boards.empty or "19x19" in boards.index else str(boards.index[0])

    @cached_property
    def even_outcomes(self) -> pd.DataFrame:
        """Even games on the main board, the population komi is meant for, less rulelab's
        counts of the outliers (:data:`~rulelab.analysis.findings.OUTLIER_POINTS`)."""
        o = self.with_outliers
        return o[(o["ruleset"] == RECORD) | ~o["game_id"].isin(self.outliers)]

    @cached_property
    def with_outliers(self) -> pd.DataFrame:
        """Even games (:func:`~rulelab.analysis.strata.is_even`) on the main board, every
        count kept (the sensitivity check)."""
        o = self.outcomes
        return o[is_even(o) & (o["board"] == self.main_board)]

    @cached_property
    def even_fits(self) -> pd.DataFrame:
        return fair_komi(self.even_outcomes, n_boot=self.settings.n_boot_fit, seed=self.settings.seed)


def provenance_section(analysis: Analysis, out: Workspace) -> Section:
    run, settings = analysis.run, analysis.settings
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


def overview_section(analysis: Analysis, out: Workspace) -> Section:
    games, scores = analysis.run.games, analysis.run.scores
    status = games["status"].value_counts().rename_axis("status").reset_index(name="games")
    kinds = (analysis.games.assign(source=analysis.games["source"].fillna("unknown"),
                                   result_kind=analysis.games["result_kind"].fillna("unknown"))
             .groupby(["source", "result_kind"], sort=True).size().rename("games").reset_index())
    keys = ["ruleset", "komi_source"] + (["finished"] if "finished" in scores.columns else [])
    rows = scores.groupby(keys, sort=True, dropna=False).size().rename("rows").reset_index()
    duplicates = int(games["duplicate_of"].notna().sum()) if "duplicate_of" in games else 0
    return Section("overview", "The collection", [
        Text(f"{len(games):,} game records; {len(analysis.games):,} replayed without error and not "
             f"duplicates ({duplicates:,} duplicates left out). Analyses count only those."),
        out.table("games_by_status", status.sort_values("status"), "Games by status"),
        out.table("games_by_result", kinds, "Analysable games by source and kind of result"),
        out.table("score_rows", rows, "Scores rows by ruleset, komi source and settledness"),
    ])


def divergence_section(analysis: Analysis, out: Workspace) -> Section:
    scores, games = analysis.run.scores, analysis.run.games
    matrices = {basis: disagreement_matrix(scores, games, komi_basis=basis) for basis in KOMI_BASES}
    standard = matrices["standard"]
    if standard.empty or standard["games"].max() == 0:
        return missing("divergence", "Where rulesets disagree",
                       "no game is both settled and scored under two rulesets.")
    total = int(standard["games"].max())
    komi = ", ".join(f"{name} {k:g}" for name, k in analysis.standard_komi.items())
    blocks = [Text("Each settled game (one the life layer calls finished, or one its players "
                   "counted) is scored under every ruleset. A pair of rulesets disagrees on a game "
                   "when they name different winners (a draw is a verdict of its own). Two komi "
                   f"bases: each ruleset at its standard komi ({komi}), which is what players of "
                   f"each ruleset see; and every ruleset at one common komi of {COMMON_KOMI:g}, "
                   "where only the counting differs.")]
    for basis, matrix in matrices.items():
        label = "standard komi" if basis == "standard" else f"common komi {COMMON_KOMI:g}"
        blocks += [
            out.figure(f"divergence_matrix_{basis}", plots.plot_disagreement(
                matrix, title=f"Rulesets naming different winners at {label} (n = {total:,} games)"),
                f"Share and number of games on which each pair of rulesets names different winners, "
                f"at {label}."),
            out.table(f"divergence_counts_{basis}", matrix_wide(matrix, "disagreements").reset_index(),
                      f"Games (of {total:,}) on which two rulesets name different winners, at {label}",
                      preview_rows=len(matrix)),
        ]
    causes = cause_summary(analysis.attribution) if not analysis.attribution.empty else pd.DataFrame()
    if not causes.empty:
        keys = ["komi_basis", "ruleset_a", "ruleset_b"]
        pair_total = causes.groupby(keys, sort=False)["games"].transform("sum")
        top = causes.assign(disagreements=pair_total, share=causes["games"] / pair_total).drop_duplicates(keys)
        blocks.append(out.table("divergence_causes", top[[*keys, "disagreements", "main_cause", "share"]]
                                .reset_index(drop=True), "The commonest main cause of each pair's "
                                "disagreements (share of them), per komi basis", preview_rows=20))
    blocks.append(out.table("divergence_matrix", pd.concat(matrices.values(), ignore_index=True),
                            "Disagreements per ordered pair of rulesets and komi basis (long form, "
                            "with rates)", preview_rows=0))
    split = [by for by in (*STRATA, "life_method") if _levels(analysis, by) > 1]
    if split:
        blocks.append(out.table("divergence_by_stratum", pd.concat(
            [any_disagreement(scores, games, by=by).rename(columns={by: "value"}).assign(stratum=by)
             for by in split], ignore_index=True)[["stratum", "value", "games", "disagreeing", "rate"]],
            "Games on which the rulesets do not all name the same winner (standard komi), per stratum",
            preview_rows=40))
    for by in split:
        table = pd.concat([disagreement_matrix(scores, games, by=by, komi_basis=basis)
                           for basis in KOMI_BASES], ignore_index=True)
        table = table[table["ruleset_a"].map(_rank(table)) < table["ruleset_b"].map(_rank(table))]
        blocks.append(out.table(f"divergence_by_{by}", table.reset_index(drop=True),
                                f"Disagreements by {by.replace('_', ' ')}", preview_rows=12))
    single = [by for by in (*STRATA, "life_method") if by not in split]
    if single:
        blocks.append(Text("Not split by " + ", ".join(by.replace("_", " ") for by in single)
                           + ": every compared game has the same value there."))
    return Section("divergence", "Where rulesets disagree", blocks)


def _levels(analysis: Analysis, by: str) -> int:
    """How many values stratum ``by`` takes among the games that are compared."""
    rows = standard_rows(analysis.run.scores, finished_only=False)
    if by == "life_method":
        return rows["life_method"].nunique(dropna=False) if "life_method" in rows else 0
    strata = game_strata(analysis.games)
    return strata.loc[strata["game_id"].isin(rows["game_id"]), by].nunique(dropna=False)


def missing(key: str, title: str, reason: str) -> Section:
    """A section that does not apply to this collection: one line saying why."""
    return Section(key, title, [Text(f"Not shown: {reason}")])


def _rank(matrix: pd.DataFrame) -> dict[str, int]:
    return {name: k for k, name in enumerate(dict.fromkeys(matrix["ruleset_a"]))}


def attribution_section(analysis: Analysis, out: Workspace) -> Section:
    table = analysis.attribution
    causes = pd.DataFrame({"cause": list(CAUSES), "meaning": [CAUSE_NOTES[c] for c in CAUSES]})
    blocks = [
        Text("For every game and pair of rulesets that disagree, the margin difference (Black − "
             "White, komi included) is split into causes read from the score breakdowns; the parts "
             "add up to the difference exactly. The main cause is the part that moved the margin "
             "most in the direction of the difference. At the common komi the komi part is zero, so "
             "the causes left are those of the counting rules."),
        out.table("causes", causes, "Causes", preview_rows=len(causes)),
    ]
    if table.empty:
        return Section("attribution", "Why they disagree",
                       blocks + [Text("Not shown: no two rulesets name different winners on a settled game.")])
    residual = (table[list(CAUSES)].sum(axis=1) - table["difference"]).abs().max()
    unexplained = int((table["unexplained"] != 0).sum())
    blocks += [
        Text(f"{len(table):,} disagreeing (komi basis, game, pair) rows. Largest gap between the sum "
             f"of the parts and the difference: {residual:g} points. Rows with an unexplained part: "
             f"{unexplained:,}" + (" — the scores' columns do not add up as RULES.md says there; "
                                   "see attribution.csv." if unexplained else ".")),
        out.table("cause_summary", cause_summary(table),
                  "Disagreements by komi basis, pair and main cause", preview_rows=30),
        out.table("attribution", table, "Every disagreement with its parts (points, a − b)",
                  preview_rows=0),
    ]
    return Section("attribution", "Why they disagree", blocks)


def examples_section(analysis: Analysis, out: Workspace) -> Section:
    examples = _examples(analysis)
    blocks = [Text("For each cause, the games where it alone best explains the flip at standard komi, "
                   "with a Chinese-against-Japanese and an Ing game whenever there are some, drawn with "
                   "the points behind the cause marked: the dame, seki eyes and owed points the scorer "
                   "counted, and the dead stones of the life verdict, decided again from the stored "
                   "final position with the run's life method.")]
    if examples.empty:
        return Section("examples", "Worked examples",
                       blocks + [Text("Not shown: no two rulesets name different winners on a settled game.")])
    games = analysis.games.set_index("game_id")
    for k, row in enumerate(examples.itertuples(index=False)):
        game = games.loc[row.game_id]
        board = _grid(game, "board")
        if board is None:
            continue
        dead, seki, classes = _verdict(game, analysis.run)
        marks = diagrams.points_that_differ(board, row.cause, dead=dead, seki=seki, classes=classes)
        parts = ", ".join(f"{c} {getattr(row, c):+g}" for c in CAUSES if getattr(row, c) != 0)
        verdicts = (f"{row.ruleset_a} {_verdict_text(row.winner_a, row.margin_a)} vs "
                    f"{row.ruleset_b} {_verdict_text(row.winner_b, row.margin_b)}")
        title = f"{game_title(game)}\n{verdicts}; main cause: {row.cause}"
        figure = diagrams.draw_board(board, title=title, marks=marks, dead=dead, seki=seki,
                                     mark_label=f"points behind {row.cause}")
        blocks.append(out.figure(f"example_{k:02d}_{row.cause}", figure,
                                 f"{game_title(game)} (game {row.game_id}): {verdicts}; margin "
                                 f"difference {row.difference:+g} = {parts}."))
    blocks.append(out.table("examples", examples, "The games drawn above"))
    return Section("examples", "Worked examples", blocks)


def _examples(analysis: Analysis) -> pd.DataFrame:
    """The clearest games per cause at standard komi, plus the clearest Chinese-vs-Japanese
    game and the clearest game with Ing on one side, when the run has them."""
    table = analysis.attribution
    table = table[table["komi_basis"] == "standard"] if not table.empty else table
    if table.empty:
        return pd.DataFrame()
    picks = [clearest_examples(table, analysis.settings.examples_per_cause)]
    for wanted in (table["ruleset_a"].eq("chinese") & table["ruleset_b"].eq("japanese"),
                   table["ruleset_a"].eq("ing") | table["ruleset_b"].eq("ing")):
        if wanted.any():
            picks.append(clearest_examples(table[wanted], 1).head(1))
    return pd.concat(picks, ignore_index=True).drop_duplicates(["game_id", "ruleset_a", "ruleset_b"])


def _verdict_text(winner: str, margin: float) -> str:
    return "draw" if winner == "draw" else f"{winner}+{abs(margin):g}"


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


def _verdict(game: pd.Series, run: Run) -> tuple[np.ndarray | None, ...]:
    """Dead stones, seki and the scorer's point classes of a game, decided again from its
    stored final position with the life method the run used (the tables hold no masks).
    Nothing when the games table lacks the position columns."""
    life = run_life(run.table_metadata.get(SCORES_FILE, {}))
    decided = decide_row({**game.to_dict(), "game_id": game.name}, life)
    if decided is None:
        return None, None, None
    return decided.verdict.dead, decided.verdict.seki, decided.classes


def margins_section(analysis: Analysis, out: Workspace) -> Section:
    even = analysis.even_outcomes
    distribution = margin_distribution(even[even["ruleset"] != RECORD])
    title = f"Margins before komi of counted even {analysis.main_board} games"
    if distribution.empty:
        return missing("margins", "Margins before komi", f"no counted even {analysis.main_board} game.")
    area = distribution[distribution["scoring"] == "area"]
    even_area = int(area.loc[area["parity"] == "even", "games"].sum())
    return Section("margins", "Margins before komi", [
        Text("On a board with an odd number of points an area margin is odd once every point is "
             "someone's (RULES.md, parity). Open dame — empty points between the two sides that "
             "nobody filled — break that where they are counted for nobody (dame policy "
             f"{dame_policies(analysis)}): {even_area:,} of the "
             f"{int(area['games'].sum()):,} area margins below are even. Territory margins have no "
             "parity constraint. The bars are coloured by parity; dashed lines mark each ruleset's "
             "komi."),
        out.figure("margins", plots.plot_margin_distribution(
            distribution, title=title, komi=analysis.standard_komi), title + ", by ruleset."),
        out.table("margins", distribution, "Counted games per margin before komi"),
    ])


def komi_section(analysis: Analysis, out: Workspace) -> Section:
    settings, even = analysis.settings, analysis.even_outcomes
    if even.empty:
        return missing("komi", "Komi and Black's win rate",
                       f"no even {analysis.main_board} game ended by a count, a resignation or on time.")
    curve = win_rate_curve(even, settings.komi_grid, n_boot=settings.n_boot, seed=settings.seed)
    fits = analysis.even_fits
    blocks = [Text("Black's win rate at each komi of the grid, from the counted even games on the "
                   f"{analysis.main_board} board (a draw counts half): Wilson 95% intervals and a "
                   f"percentile bootstrap (seed {settings.seed}, {settings.n_boot} replicates). The "
                   "curve is a logistic distribution of the margin fitted to every game; its 50% "
                   "crossing is the fair komi."),
              Text("Censored games are those resigned or lost on time: their winner is known, their "
                   "margin only bounded. Assumption for them: " + CENSORING_ASSUMPTION)]
    if not curve.empty:
        blocks.append(out.figure("komi_curves", plots.plot_komi_curves(
            curve, fits, title=f"Black's win rate against komi, even {analysis.main_board} games"),
            "Black's win rate against komi per ruleset, with intervals and the fitted curve."))
        blocks.append(out.table("komi_curves", curve, "Win rate per ruleset and komi ('record': the "
                                "records' own results)", preview_rows=10))
    blocks.append(out.table("fair_komi", fits, "Fair komi with and without censored games"))
    blocks += [Text(s) for s in _fit_sentences(fits)]
    blocks.append(Text(outlier_rule(analysis)))
    blocks += [Text("How far to trust rulelab's margins: on games counted in the record, rulelab's "
                    "count of the final position against the record's result (same winner at the "
                    "komi in force, same margin, median gap in points). Records that stop with dame "
                    "open or dead stones on the board are where they part."),
               out.table("record_agreement", record_agreement(analysis.outcomes),
                         "rulelab's count against the record's")]
    return Section("komi", "Komi and Black's win rate", blocks)


def _fit_sentences(fits: pd.DataFrame) -> list[str]:
    sentences = []
    for name, rows in fits.groupby("ruleset", sort=True):
        both = rows.set_index("variant")
        full, counted = both.loc["counted+censored"], both.loc["counted only"]
        if not full["converged"]:
            sentences.append(f"{name}: the data cannot pin down a fair komi ({int(full['games'])} games).")
            continue
        text = (f"{name}: fair komi {full['fair_komi']:.2f} points (95% Wald {full['ci_low']:.2f}–"
                f"{full['ci_high']:.2f}")
        if not np.isnan(full["boot_low"]):
            text += f"; bootstrap {full['boot_low']:.2f}–{full['boot_high']:.2f}"
        text += f") from {int(full['counted'])} counted and {int(full['censored'])} censored games"
        if counted["converged"] and full["censored"] > 0:
            text += (f"; without the censored games it is {counted['fair_komi']:.2f} "
                     f"({counted['fair_komi'] - full['fair_komi']:+.2f} points).")
        else:
            text += "."
        sentences.append(text)
    return sentences


def strata_section(analysis: Analysis, out: Workspace) -> Section:
    outcomes = analysis.outcomes
    title = "Fair komi by era, komi in force, board, handicap, rank and source"
    if outcomes.empty:
        return missing("strata", title, "no counted or resigned game to fit a komi to.")
    blocks = [Text("Fair komi per stratum (Wald 95% intervals), with and without censored games, "
                   "for every ruleset studied; all board sizes and handicaps are included here, so "
                   "strata of handicap and board size show how far they move the estimate.")]
    shown = RECORD if (outcomes["ruleset"] == RECORD).any() else next(iter(outcomes["ruleset"]), None)
    single = []
    for by in STRATA:
        if outcomes[by].nunique(dropna=False) < 2:
            single.append(f"{by.replace('_', ' ')} (all {outcomes[by].iloc[0]})")
            continue
        table = fair_komi(outcomes, by=by)
        blocks.append(out.table(f"fair_komi_by_{by}", table, f"Fair komi by {by.replace('_', ' ')}",
                                preview_rows=12))
        picked = table[(table["ruleset"] == shown)]
        if picked["converged"].any():
            blocks.append(out.figure(f"fair_komi_by_{by}", plots.plot_fair_komi(
                picked, by, title=f"Fair komi by {by.replace('_', ' ')} ({_label(shown)})"),
                f"Fair komi by {by.replace('_', ' ')} from the {_label(shown)}."))
    if single:
        blocks.append(Text("Not split by " + ", ".join(single) + ": one value only in this collection."))
    return Section("strata", title, blocks)


def _label(ruleset: str) -> str:
    return "recorded results" if ruleset == RECORD else f"{ruleset} margins"


def rekomi_section(analysis: Analysis, out: Workspace) -> Section:
    outcomes = analysis.outcomes
    plans = [(name, *REKOMI[family]) for family, name in analysis.representatives.items() if family in REKOMI]
    plans.append((RECORD, *REKOMI["territory"]))
    overall, by_era = [], []
    for name, start, end in plans:
        chosen = outcomes[outcomes["ruleset"] == name]
        overall.append(rekomi_flips(chosen, start, end))
        by_era.append(rekomi_flips(chosen, start, end, by="era"))
    overall = [t for t in overall if not t.empty]
    if not overall:
        return missing("rekomi", "Counterfactual komi", "no decided game was played at komi "
                       + " or ".join(sorted({f"{start:g}" for _, start, _ in plans})) + ".")
    blocks = [Text("Games played at the first komi, re-scored at the second: counted results flip "
                   "when their margin falls between the two. Rates over all decided games assume, "
                   "as van Rongen did on GoGoD, that resigned and timed-out games keep their winner. "
                   "For area scoring 5.5 → 7.5 points is 2¾ → 3¾ zi.")]
    blocks.append(out.table("rekomi", pd.concat(overall, ignore_index=True), "Counterfactual re-komi"))
    blocks.append(out.table("rekomi_by_era", pd.concat(by_era, ignore_index=True),
                            "Counterfactual re-komi by era"))
    return Section("rekomi", "Counterfactual komi", blocks)


def published_section(analysis: Analysis, out: Workspace) -> Section:
    records = analysis.outcomes[analysis.outcomes["ruleset"] == RECORD]
    comparison = compare_published(records, analysis.even_fits,
                                   area_ruleset=analysis.representatives.get("area", "chinese"))
    blocks = [out.table("published", comparison, "Published figures beside this corpus")]
    blocks += [Text(f"{row.figure}. {row.sentence} (Source: {row.source}.)")
               for row in comparison.itertuples(index=False)]
    return Section("published", "Published figures", blocks)


SECTIONS = {
    "findings": findings_section,
    "model": model_section,
    "overview": overview_section,
    "divergence": divergence_section,
    "attribution": attribution_section,
    "examples": examples_section,
    "margins": margins_section,
    "komi": komi_section,
    "strata": strata_section,
    "rekomi": rekomi_section,
    "published": published_section,
    "provenance": provenance_section,
}
"""Report parts in their order, the findings first and the provenance as an appendix;
each maps (Analysis, Workspace) → Section."""
