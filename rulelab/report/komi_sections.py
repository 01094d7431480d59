"""The report's sections on komi: margins, Black's win rate and the fair komi, fair komi
by stratum, counterfactual re-komi, and the published figures beside this corpus."""

from __future__ import annotations

import numpy as np
import pandas as pd

from rulelab.analysis import plots
from rulelab.analysis.komi import fair_komi, margin_distribution, record_agreement, rekomi_flips, win_rate_curve
from rulelab.analysis.outcomes import CENSORING_ASSUMPTION, RECORD
from rulelab.analysis.published import compare_published
from rulelab.analysis.strata import STRATA
from rulelab.report.blocks import Section, Text, Workspace
from rulelab.report.shared import ReportTables, missing
from rulelab.report.summary import dame_policies, outlier_rule, strength_sentence

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


def komi_section(tables: ReportTables, out: Workspace) -> Section:
    settings, even = tables.settings, tables.even_outcomes
    if even.empty:
        return missing("komi", "Komi and Black's win rate",
                       f"no even {tables.main_board} game ended by a count, a resignation or on time.")
    curve = win_rate_curve(even, settings.komi_grid, n_boot=settings.n_boot, seed=settings.seed)
    fits = tables.even_fits
    blocks = [Text("Black's win rate at each komi of the grid, from the counted even games on the "
                   f"{tables.main_board} board (a draw counts half): Wilson 95% intervals and a "
                   f"percentile bootstrap (seed {settings.seed}, {settings.n_boot} replicates). The "
                   "curve is a logistic distribution of the margin fitted to every game; its 50% "
                   "crossing is the fair komi."),
              Text("Censored games are those resigned or lost on time: their winner is known, their "
                   "margin only bounded. Assumption for them: " + CENSORING_ASSUMPTION)]
    if not curve.empty:
        blocks.append(out.figure("komi_curves", plots.plot_komi_curves(
            curve, fits, title=f"Black's win rate against komi, even {tables.main_board} games"),
            "Black's win rate against komi per ruleset, with intervals and the fitted curve."))
        blocks.append(out.table("komi_curves", curve, "Win rate per ruleset and komi ('record': the "
                                "records' own results)", preview_rows=10))
    blocks.append(out.table("fair_komi", fits, "Fair komi with and without censored games"))
    blocks += [Text(s) for s in _fit_sentences(fits)]
    blocks.append(Text(_dropped_sentence(even)))
    blocks += _strength_blocks(tables, out)
    blocks.append(Text(outlier_rule(tables)))
    blocks += [Text("How far to trust rulelab's margins: on games counted in the record, rulelab's "
                    "count of the final position against the record's result (same winner at the "
                    "komi in force, same margin, median gap in points). Records that stop with dame "
                    "open or dead stones on the board are where they part."),
               out.table("record_agreement", record_agreement(tables.outcomes),
                         "rulelab's count against the record's")]
    return Section("komi", "Komi and Black's win rate", blocks)


def _dropped_sentence(even: pd.DataFrame) -> str:
    """What the komi selection left out, and why."""
    dropped = even.attrs.get("dropped", {})
    told = "; ".join(f"{reason} {n:,}" for reason, n in dropped.items() if n)
    return ("Games left out of the komi fits: " + (told if told else "none") + ". Handicap games are "
            "played at another komi and the servers' one-stone games at none; an outlier's count "
            "misses its record by more than 10 points (its recorded result stays in the fit of the "
            "records' own results).")


def _strength_blocks(tables: ReportTables, out: Workspace) -> list:
    """Fair komi controlled for strength: between equal ranks, and with the rank gap as a
    covariate (overall and by era), with the sentence that says which is the headline."""
    blocks = [Text(strength_sentence(tables))]
    ranked = tables.even_outcomes[tables.even_outcomes["rank_gap"].notna()]
    if ranked.empty:
        return blocks
    table = pd.concat([tables.even_fits.assign(games_used="all even games"),
                       tables.equal_rank_fits.assign(games_used="equal ranks"),
                       tables.rank_adjusted_fits.assign(games_used="rank gap as covariate")],
                      ignore_index=True)
    blocks.append(out.table("fair_komi_by_strength", table[["games_used", *[c for c in table.columns
                                                                          if c != "games_used"]]],
                            "Fair komi on all even games, between equal ranks, and at a rank gap of 0 "
                            "with the gap as a covariate"))
    if ranked["era"].nunique() > 1:
        blocks.append(out.table("fair_komi_by_era_rank_adjusted",
                                fair_komi(ranked, by="era", adjust_for="rank_gap"),
                                "Fair komi at a rank gap of 0 by era (rank gap as a covariate)", preview_rows=12))
    return blocks


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


def strata_section(tables: ReportTables, out: Workspace) -> Section:
    outcomes = tables.outcomes
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
