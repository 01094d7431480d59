"""The report's sections on komi: margins, Black's win rate and the fair komi, fair komi
by stratum, counterfactual re-komi, and the published figures beside this corpus."""

from __future__ import annotations

import numpy as np
import pandas as pd

from rulelab.analysis import plots
from rulelab.analysis.komi import (fair_komi_sensitivity, headline_fair_komi, margin_distribution, record_agreement,
                                  rekomi_flips, win_rate_by_komi, win_rate_curve)
from rulelab.analysis.outcomes import RECORD
from rulelab.analysis.selection import MIN_BOARD_GAMES, sample_quality
from rulelab.analysis.published import compare_published
from rulelab.analysis.strata import STRATA, is_one_stone
from rulelab.report.blocks import Section, Text, Workspace
from rulelab.report.shared import ReportTables, missing
from rulelab.report.summary import dame_policies, outlier_rule

REKOMI = {"territory": (5.5, 6.5), "area": (5.5, 7.5)}
"""Counterfactual komi changes per family: Japan's 5.5 → 6.5 (2002) and China's
2¾ → 3¾ zi (5.5 → 7.5 points, 2002)."""


def margins_section(tables: ReportTables, out: Workspace) -> Section:
    even = tables.even_outcomes
    distribution = margin_distribution(even[even["ruleset"] != RECORD])
    title = f"Margins before komi of counted even {tables.main_board} games"
    if distribution.empty:
        return missing("margins", "Margins before komi", f"no counted even {tables.main_board} game.")
    area = distribution[distribution["scoring"] == "area"]
    even_area = int(area.loc[area["parity"] == "even", "games"].sum())
    return Section("margins", "Margins before komi", [
        Text("On a board with an odd number of points an area margin is odd once every point is "
             "someone's (RULES.md, parity). Open dame — empty points between the two sides that "
             "nobody filled — break that where they are counted for nobody (dame policy "
             f"{dame_policies(tables)}): {even_area:,} of the "
             f"{int(area['games'].sum()):,} area margins below are even. Territory margins have no "
             "parity constraint. The bars are coloured by parity; dashed lines mark each ruleset's "
             "komi."),
        out.figure("margins", plots.plot_margin_distribution(
            distribution, title=title, komi=tables.standard_komi), title + ", by ruleset."),
        out.table("margins", distribution, "Counted games per margin before komi"),
    ])


ESTIMAND = ("Fair komi means here the komi at which Black wins half the even {board} games between "
            "equal players of this collection, under each counting.")

ESTIMATOR = ("It is estimated from who won each decided game (counted, resigned or on time) at the "
             "komi in force: Black's win rate is a logistic function of the komi, whose steepness the "
             "change of the win rate between the komi values in force teaches; where most games record "
             "both ranks, at a rank gap of 0 with the gap as a covariate. Margins do not enter: a "
             "resignation or a safe lead changes a margin, not the winner, and a fit to margins follows "
             "the komi in force (the simulation study in docs/ACCURACY.md measures both). Played at "
             "one komi only, a collection cannot pin the fair komi to a point: the report then gives "
             "the interval the data allow at any credible scale, and says so.")


def komi_section(tables: ReportTables, out: Workspace) -> Section:
    settings, even, board = tables.settings, tables.even_outcomes, tables.main_board
    if even.empty:
        return missing("komi", "Komi and Black's win rate",
                       f"no even {board} game ended by a count, a resignation or on time.")
    fits, sensitivity = tables.even_fits, tables.komi_sensitivity
    by_komi = win_rate_by_komi(even)
    curve = win_rate_curve(even, settings.komi_grid, n_boot=settings.n_boot, seed=settings.seed)
    blocks = [Text(ESTIMAND.format(board=board) + " " + ESTIMATOR),
              out.table("komi_in_force", by_komi, "Black's win rate at each komi in force, every decided "
                        "even game (Wilson 95%; a draw counts half): what the fair komi is fitted to"),
              out.table("fair_komi", pd.DataFrame(fits), "Fair komi per counting (95% Fieller interval "
                        "where identified, else the interval the data allow)")]
    blocks += [Text(s) for s in _fit_sentences(fits, sensitivity)]
    blocks.append(out.table("fair_komi_sensitivity", sensitivity,
                            "The fair komi under each choice it rests on"))
    blocks.append(Text(SENSITIVITY_TEXT))
    if not curve.empty:
        blocks.append(Text(f"The re-komi curve: each decided game re-counted at every komi of the grid "
                           f"(counted games by their margin; resigned and timed-out games keep their "
                           f"winner, van Rongen's assumption on GoGoD); Wilson 95% intervals and a "
                           f"percentile bootstrap (seed {settings.seed}, {settings.n_boot} replicates). "
                           + REKOMI_VERSUS_FIT))
        blocks.append(out.figure("komi_curves", plots.plot_komi_curves(
            curve, fits, by_komi, title=f"Black's win rate against komi, even {board} games"),
            "Black's win rate against komi per ruleset (re-komi of every decided game), with the "
            "fitted fair komi where identified."))
        blocks.append(out.table("komi_curves", curve, "Re-komi curve per ruleset and komi ('record': "
                                "the records' own results)", preview_rows=10))
    blocks.append(Text(_dropped_sentence(even)))
    blocks += _one_stone_blocks(tables, out)
    blocks.append(Text(outlier_rule(tables)))
    blocks += [Text("How far to trust rulelab's margins: on games counted in the record, rulelab's "
                    "count of the final position against the record's result (same winner at the "
                    "komi in force, same margin, median gap in points). Records that stop with dame "
                    "open or dead stones on the board are where they part."),
               out.table("record_agreement", record_agreement(tables.outcomes),
                         "rulelab's count against the record's")]
    return Section("komi", "Komi and Black's win rate", blocks)


SENSITIVITY_TEXT = ("The headline's range joins its interval with the estimates on the other defensible "
                    "choices of games (time losses out, rank gaps not adjusted, equal ranks only), so a "
                    "choice that moves the figure further than sampling error widens it. The counted-"
                    "only row and the two margin fits are shown to price what they cost: counted games "
                    "are the close ones, and the margin fits follow the komi in force.")

REKOMI_VERSUS_FIT = ("It reads the margins of the close games, which the leader's safe play pulls "
                     "toward the komi in force, so it may cross 50% nearer that komi than the fair "
                     "komi, which reads only winners.")


def _dropped_sentence(even: pd.DataFrame) -> str:
    """What the komi selection left out, and why."""
    dropped = even.attrs.get("dropped", {})
    told = "; ".join(f"{reason} {n:,}" for reason, n in dropped.items() if n)
    return ("Games left out of the komi fits: " + (told if told else "none") + ". Handicap games are "
            "played at another komi and the servers' one-stone games at none; an outlier's count "
            "misses its record by more than 10 points (its recorded result stays in the fit of the "
            "records' own results).")


def _one_stone_blocks(tables: ReportTables, out: Workspace) -> list:
    """The servers' one-stone games (no handicap stones, komi ½ or none): a population of
    their own, shown apart from the even games."""
    records = tables.outcomes[tables.outcomes["ruleset"] == RECORD]
    chosen = records[is_one_stone(records.assign(komi=records["komi"].fillna(np.inf)))
                     & (records["board"].astype(str) == tables.main_board)]
    if chosen.empty:
        return []
    rates = win_rate_by_komi(chosen)
    return [Text(f"One-stone games ({len(chosen):,} decided on {tables.main_board}): no handicap stones "
                 "and a komi of ½ or none on a server, where the weaker player takes Black; a population "
                 "of their own, in no fit above. Black's win rate in the records:"),
            out.table("one_stone_games", rates, "Black's win rate in one-stone games, by komi in force")]


def _fit_sentences(fits: pd.DataFrame, sensitivity: pd.DataFrame) -> list[str]:
    sentences = []
    ranges = sensitivity[sensitivity["choice"] == "headline"].set_index("ruleset")
    for row in fits.to_dict("records"):
        name = "recorded results" if row["ruleset"] == RECORD else f"{row['ruleset']} counting"
        games = f"{int(row['games']):,} decided games at komi {row['komi_played']}"
        if row["identified"]:
            text = (f"{name}: fair komi {row['fair_komi']:.1f} points (95% {row['ci_low']:.1f}–"
                    f"{row['ci_high']:.1f}) from {games}")
            if "slope" in row and row["slope"] == row["slope"]:
                text += f", at a rank gap of 0 ({row['slope']:+.1f} points per rank step)"
            low, high = ranges.loc[row["ruleset"], ["range_low", "range_high"]]
            if low < row["ci_low"] or high > row["ci_high"]:
                text += f"; with the choices of games priced in, {low:.1f}–{high:.1f}"
            sentences.append(text + ".")
        elif row["ci_low"] == row["ci_low"]:
            why = ("one komi in force" if "/" not in str(row["komi_played"]) else
                   "the win rate does not fall with the komi in force by more than sampling error, as "
                   "where the komi values went with different eras or players")
            sentences.append(f"{name}: not identified from {games} ({why}): the data allow any fair "
                             f"komi from {row['ci_low']:.1f} to {row['ci_high']:.1f} points (at a scale "
                             f"up to {row['max_scale']:.1f} points).")
        else:
            sentences.append(f"{name}: no decided game either way among {games}.")
    return sentences


def strata_section(tables: ReportTables, out: Workspace) -> Section:
    outcomes = tables.even_outcomes
    board = tables.main_board
    title = f"Fair komi by era, komi in force, rank and source (even {board} games)"
    if outcomes.empty:
        return missing("strata", title, f"no decided even {board} game to fit a komi to.")
    blocks = [Text(f"The headline estimator per stratum of the even {board} games (the population of the "
                   "headline: no handicap or one-stone game). A stratum played at one komi cannot "
                   "identify a fair komi; its interval is then the range the data allow. Strata whose "
                   "intervals overlap do not differ beyond what the data can tell.")]
    shown = RECORD if (outcomes["ruleset"] == RECORD).any() else next(iter(outcomes["ruleset"]), None)
    single = []
    for by in KOMI_STRATA:
        if outcomes[by].nunique(dropna=False) < 2:
            single.append(f"{by.replace('_', ' ')} (all {outcomes[by].iloc[0]})")
            continue
        table = pd.DataFrame(headline_fair_komi(outcomes, by=by))
        blocks.append(out.table(f"fair_komi_by_{by}", table, f"Fair komi by {by.replace('_', ' ')}",
                                preview_rows=12))
        picked = table[(table["ruleset"] == shown)]
        if picked["ci_low"].notna().any():
            blocks.append(out.figure(f"fair_komi_by_{by}", plots.plot_fair_komi(
                picked, by, title=f"Fair komi by {by.replace('_', ' ')} ({_label(shown)})"),
                f"Fair komi by {by.replace('_', ' ')} from the {_label(shown)}."))
    if single:
        blocks.append(Text("Not split by " + ", ".join(single) + ": one value only in this collection."))
    return Section("strata", title, blocks)


KOMI_STRATA = tuple(by for by in STRATA if by not in ("board", "handicap", "game_kind"))
"""The strata of the komi fits: every one but board and handicap, which the population fixes."""


def boards_section(tables: ReportTables, out: Workspace) -> Section:
    title = "Fair komi on other boards"
    boards = tables.other_boards
    if not boards:
        return missing("boards", title, f"no board besides {tables.main_board} has {MIN_BOARD_GAMES} "
                                        "decided even games.")
    blocks = []
    for board, outcomes in boards.items():
        fits = headline_fair_komi(outcomes)
        blocks += [Text(f"{board}: " + sample_quality(outcomes, tables.run.games)),
                   out.table(f"fair_komi_{board}", pd.DataFrame(fits), f"Fair komi on {board}"),
                   out.table(f"komi_in_force_{board}", win_rate_by_komi(outcomes),
                             f"Black's win rate at each komi in force on {board}")]
        blocks += [Text(s) for s in _fit_sentences(fits, fair_komi_sensitivity(outcomes))]
    return Section("boards", title, blocks)


def _label(ruleset: str) -> str:
    return "recorded results" if ruleset == RECORD else f"{ruleset} margins"


def rekomi_section(tables: ReportTables, out: Workspace) -> Section:
    outcomes = tables.even_outcomes
    plans = [(name, *REKOMI[family]) for family, name in tables.representatives.items() if family in REKOMI]
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
    blocks = [Text("The games of the komi fits played at the first komi, re-scored at the second: "
                   "counted results flip "
                   "when their margin falls between the two. Rates over all decided games assume, "
                   "as van Rongen did on GoGoD, that resigned and timed-out games keep their winner. "
                   "For area scoring 5.5 → 7.5 points is 2¾ → 3¾ zi.")]
    blocks.append(out.table("rekomi", pd.concat(overall, ignore_index=True), "Counterfactual re-komi"))
    blocks.append(out.table("rekomi_by_era", pd.concat(by_era, ignore_index=True),
                            "Counterfactual re-komi by era"))
    return Section("rekomi", "Counterfactual komi", blocks)


def published_section(tables: ReportTables, out: Workspace) -> Section:
    records = tables.outcomes[tables.outcomes["ruleset"] == RECORD]
    comparison = compare_published(records, tables.even_fits,
                                   area_ruleset=tables.representatives.get("area", "chinese"))
    blocks = [out.table("published", comparison, "Published figures beside this corpus")]
    blocks += [Text(f"{row.figure}. {row.sentence} (Source: {row.source}.)")
               for row in comparison.itertuples(index=False)]
    return Section("published", "Published figures", blocks)
