"""The report's front: the findings in prose, and how the games were counted.

Both read the tables of :mod:`rulelab.analysis.findings` and the shared intermediate
tables of :class:`~rulelab.report.shared.ReportTables`, and say every number with the
count it rests on and its 95% interval.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from rulelab.analysis.divergence import COMMON_KOMI, TODAY, compared_rows, todays_komi
from rulelab.analysis.findings import (MAIN_RULESETS, black_win_rates, cause_shares, older_than_rules, pair_rates,
                                       parity_figures)
from rulelab.analysis.inputs import counted_on
from rulelab.analysis.komi import headline_fair_komi
from rulelab.analysis.outcomes import RECORD
from rulelab.analysis.seeds import life_seed, seed_flips, seed_rates, seed_verdicts
from rulelab.analysis.selection import OUTLIER_POINTS, REPRODUCED_POINTS
from rulelab.analysis.strata import GAME_KINDS
from rulelab.analysis.stats import wilson_interval
from rulelab.report.blocks import Section, Text, Workspace
from rulelab.report.collection import has_servers
from rulelab.report.explorer import life_methods, view_link
from rulelab.report.front import BASIS_WORDS, board_words, record_agreement, term
from rulelab.rules import HANDICAP_CONVENTIONS, PRESETS, RULES_FIRST_TEXT

if TYPE_CHECKING:
    from rulelab.report.shared import ReportTables

CAUSE_WORDS = {
    "komi": "komi (the komi the rulesets give the game differ)",
    "handicap": "handicap (White's compensation against the handicap stones area counting sees, net)",
    "parity": "parity (who placed the last stone, which area counting sees, with the point of komi area "
              "rules add to balance it)",
    "dame_filling": "dame filled before an area count",
    "seki_eyes": "seki eyes (counted by area rules, refused by Japanese rules)",
    "protective_moves": "protective moves owed (points territory rules refuse)",
    "status": "status (the rules decide a group's life differently)",
    "dead_stones": "dead stones removed differently",
    "group_tax": "group tax (stone scoring's two points per living group, every eye point of a group in seki)",
    "unexplained": "unexplained",
    "tie_break": "the tie-break rule (Ing: Black wins at margin 0)",
    "combined": "several parts together, none alone",
}
"""Each main cause in words, for the findings' prose."""


def findings_section(tables: "ReportTables", out: Workspace) -> Section:
    scores, games = tables.run.scores, tables.run.games
    settled, even = _settled_ids(tables), _settled_ids(tables, EVEN)
    trusted = tables.trusted.intersection(even)
    blocks = [Text(
        f"Terms ({term('settled')}, {term('even game')}, {term('trusted')}, {term('komi basis')}, "
        f"{term('outlier')}, ...) are defined once in the glossary. The rulesets are compared on the "
        f"{len(even):,} settled even games of the {len(settled):,} settled games, counted on {board_words(tables)}"
        + (", so parity is decided as it would be on the board" if counted_on(tables.run) == "play" else "")
        + ": what the rulesets give a "
        "handicap, one-stone or no-komi game is a convention of komi and compensation, not a count, and those "
        f"games have a section of their own ([Game kinds](#kinds)). Here {len(trusted):,} of the even games are "
        f"trusted, {share(len(trusted), len(even), SETTLED | {'even': 1, 'trusted': 1})}, and "
        f"[{len(tables.outliers):,}]({view_link(view='games', outlier=1, n=len(tables.outliers))}) counted "
        "games are outliers, left out of every comparison and every komi fit. 'The record' is what the SGF "
        "file itself says (result, komi). Intervals are 95% (Wilson for shares, Fieller for an identified fair "
        "komi). Each linked rate opens the game explorer on the rows it counts: the disagreements, or the "
        "games.")]
    present = [r for r in MAIN_RULESETS if r in set(scores["ruleset"])]
    figures = {"rates": [], "causes": [], "reproduced": []}
    for subset, label, keep in (("all", "the settled even games", even),
                                ("trusted", "the trusted even games", trusted)):
        if keep.empty:
            blocks.append(Text(f"On {label}: none in this collection, so nothing to compare."))
            continue
        if len(present) < 2:
            blocks.append(Text(f"On {label}: not shown, since fewer than two of "
                               f"{', '.join(MAIN_RULESETS)} were scored."))
            continue
        if subset == "trusted" and keep.equals(even):
            blocks.append(Text("Every settled even game is trusted here: the figures above are the trusted "
                               "games' too."))
            continue
        chosen = scores[scores["game_id"].isin(keep)]
        rates, causes = pair_rates(chosen, games, kind=EVEN), cause_shares(chosen, games, kind=EVEN)
        figures["rates"].append(rates.assign(subset=subset))
        figures["causes"].append(causes.assign(subset=subset))
        blocks += [Text(t) for t in _divergence_sentences(rates, causes, present, label, subset == "trusted")]
        if subset == "all":
            text, reproduced = _counting_error_sentence(scores, games, rates, present)
            figures["reproduced"].append(reproduced.assign(subset=subset))
            blocks.append(Text(text))
            text, seeds = _seed_sentence(tables, even, present)
            blocks.append(Text(text))
            for name, frame in seeds.items():
                figures[name] = [frame.assign(subset=subset)]
            today = _today_sentence(scores, games, rates, present)
            if today:
                blocks.append(Text(today[0]))
                figures["rates"].append(today[1].assign(subset=subset))
            blocks += [Text(text) for text in _older_than_rules_sentences(scores, games, present)]
            if len(tables.outliers):
                text, kept = _sensitivity_sentence(scores, games, rates, present)
                blocks.append(Text(text))
                figures["rates"].append(kept.assign(subset=OUTLIERS_KEPT))
            if tables.as_stands is not None:
                text, standing = _as_stands_sentence(tables, rates, present)
                blocks.append(Text(text))
                figures["rates"].append(standing.assign(subset=AS_STANDS))
    parity_text, parity = _parity_sentence(tables, even)
    blocks.append(Text(parity_text))
    if not parity.empty:
        figures["parity"] = [parity.assign(subset="all")]
    blocks.append(Text(_playout_sentence(tables)))
    blocks += [Text(t) for t in _komi_sentences(tables)]
    text, records = _trust_sentence(tables, settled)
    blocks.append(Text(text))
    if not records.empty:
        figures["records"] = [records.assign(subset="all")]
    captions = {"rates": "Disagreement rates on even games per pair and margin band, as stated above",
                "causes": "Main causes on even games, as stated above",
                "reproduced": "Disagreement rates on the even games whose count reproduces the record "
                              "(exactly, and within a point), as stated above",
                "parity": "Parity on the settled even games, on the finished boards and as they stand",
                "records": "How often the count under the record's own rules reproduces the record, on each basis",
                "seeds": "Disagreement rates on even games under each seed of the life estimator, as stated above",
                "seed_flips": "The games whose verdict on a pair changes between seeds of the life estimator"}
    for name, parts in figures.items():
        if parts:
            frame = pd.concat(parts, ignore_index=True)
            blocks.append(out.table(f"findings_{name}", frame[["subset", *frame.columns[:-1]]],
                                    captions[name], preview_rows=0))
    return Section("findings", "Findings", blocks)


EVEN = GAME_KINDS[0]
"""The kind of game the findings compare the rulesets on."""


SETTLED = {"view": "games", "settled": 1, "outlier": 0}
"""The explorer's games view of the settled games the findings compare."""

OUTLIERS_KEPT = "outliers kept"
"""The ``subset`` of ``findings_rates.csv`` whose rates keep the outliers (the sensitivity row)."""

AS_STANDS = "as it stands"
"""The ``subset`` of ``findings_rates.csv`` whose rates count the board as it stands (the run given
with ``--as-stands``; a sensitivity row)."""


def _settled_ids(tables: "ReportTables", kind: str | None = None) -> pd.Index:
    rows = compared_rows(tables.run.scores, tables.run.games, kind=kind)
    return pd.Index(sorted(rows["game_id"].unique()), name="game_id")


def _points(value: float) -> str:
    return f"{value:g} point" + ("" if value == 1 else "s")


def share(k: float, n: int, view: dict | None = None, rows: int | None = None) -> str:
    """``k`` of ``n`` as a share with its interval; linked to the explorer's rows behind it
    when ``view`` (:func:`~rulelab.report.explorer.view_link`'s filters) is given, ``rows``
    of them (``k`` unless a row counts other than one)."""
    low, high = wilson_interval(k, n)
    if not n:
        return "no games"
    share = f"{k / n:.1%}"
    linked = f"[{share}]({view_link(**view, n=int(k) if rows is None else rows)})" if view else share
    return f"{linked} ({max(low, 0.0):.1%}–{min(high, 1.0):.1%})"


def _divergence_sentences(rates: pd.DataFrame, causes: pd.DataFrame, present: list[str],
                          label: str, trusted: bool = False) -> list[str]:
    """How often ``present`` disagree, per pair and margin band, and why, in sentences;
    each rate linked to its disagreements in the explorer (the trusted games' when ``trusted``)."""
    only = {"even": 1} | ({"trusted": 1} if trusted else {})

    def games_of(basis: str, pair: str, **more) -> dict:
        return ({"basis": basis, "pair": "main", "per": "game"} if pair == "any" else
                {"basis": basis, "pair": pair}) | only | more

    if rates.empty or rates["games"].max() == 0:
        return [f"On {label}: no game is settled and scored under two of {', '.join(present)}."]
    whole = rates[rates["band"] == "all"].set_index(["komi_basis", "pair"])

    def rate(basis: str, pair: str) -> str:
        row = whole.loc[(basis, pair)]
        return share(row["disagreements"], int(row["games"]), games_of(basis, pair))

    own = next(b for b in dict.fromkeys(whole.index.get_level_values("komi_basis")) if b != "common")
    standard, common = whole.loc[(own, "any")], whole.loc[("common", "any")]
    names = " and ".join([", ".join(r.title() for r in present[:-1]), present[-1].title()])
    text = (f"On {label} ({int(standard['games']):,}), {names} rules name different winners on "
            f"{int(standard['disagreements']):,} games, {rate(own, 'any')}, {basis_words(own, present)}; "
            f"at one common komi of {COMMON_KOMI:g}, where only the counting differs, "
            f"on {int(common['disagreements']):,}, {rate('common', 'any')}.")
    pairs = [p for p in dict.fromkeys(whole.index.get_level_values("pair")) if p != "any"]
    if len(pairs) > 1:
        text += f" By pair ({own} → common komi): " + "; ".join(
            f"{p.replace('–', ' vs ')} {rate(own, p)} → {rate('common', p)}" for p in pairs) + "."
    bands = rates[(rates["komi_basis"] == "common") & (rates["pair"] == "any") & (rates["band"] != "all")]
    bands = bands[bands["games"] > 0]
    if not bands.empty:
        text += (" By how close the game was (the smaller absolute margin at common komi): "
                 + "; ".join(f"{row.band}: "
                             f"{share(row.disagreements, row.games, games_of('common', 'any', band=row.band))} "
                             f"of {row.games:,}"
                             for row in bands.itertuples()) + ".")
    sentences = [text]
    if not causes.empty and causes["disagreements"].sum() > 0:
        parts = []
        for basis, rows in causes.groupby("komi_basis", sort=False):
            label_basis = f"at komi {COMMON_KOMI:g}" if basis == "common" else f"at {basis} komi"
            top = "; ".join(f"{CAUSE_WORDS.get(row.main_cause, row.main_cause)} "
                            f"[{row.share:.0%}]"
                            f"({view_link(basis=basis, pair='main', cause=row.main_cause, **only, n=row.disagreements)}) "
                            f"({row.pairs})" for row in rows.head(3).itertuples())
            parts.append(f"{label_basis} ({int(rows['disagreements'].sum()):,} game × pair "
                         f"disagreements): {top}")
        sentences.append("Why, by main cause (the part whose removal alone gives the other ruleset's winner): " + "; and ".join(parts) + ".")
    return sentences


def _counting_error_sentence(scores: pd.DataFrame, games: pd.DataFrame, rates: pd.DataFrame,
                             present: list[str]) -> tuple[str, pd.DataFrame]:
    """The even-game rates of ``present`` again on the games whose count reproduces the
    record exactly and within :data:`REPRODUCED_POINTS`, each pair whose disagreements vanish
    there named: its difference is not shown beyond counting error. Returns the sentence and
    the rates (``within``: points)."""
    tables = {within: pair_rates(scores, games, present, kind=EVEN, within=within)
              for within in (0.0, REPRODUCED_POINTS)}

    def whole(table: pd.DataFrame) -> pd.DataFrame:
        return table[(table["komi_basis"] != "common") & (table["band"] == "all")].set_index("pair")

    exact, near, every = whole(tables[0.0]), whole(tables[REPRODUCED_POINTS]), whole(rates)
    if exact.empty or every.empty or not int(every.loc["any", "games"]):
        return "Inside the counting error: no even game to compare.", pd.DataFrame()
    basis = every.loc["any", "komi_basis"]
    view = {"basis": basis, "pair": "main", "per": "game", "even": 1}
    text = ("Inside the counting error: a count that misses the record by a point can turn a close game, "
            "so the comparison is repeated on the even games whose count under the record's own rules "
            f"reproduces the recorded margin. The rulesets name different winners on "
            f"{_counted(exact.loc['any'], view | {'reproduced': 'exactly'})} of the "
            f"{int(exact.loc['any', 'games']):,} reproduced exactly and on "
            f"{_counted(near.loc['any'], view | {'reproduced': 'within'})} of the "
            f"{int(near.loc['any', 'games']):,} within {_points(REPRODUCED_POINTS)}, against "
            f"{_counted(every.loc['any'], view)} of all {int(every.loc['any', 'games']):,} settled even games "
            f"({basis} komi).")
    vanish = [p.replace("–", " vs ") for p in exact.index
              if p != "any" and exact.loc[p, "games"] and not exact.loc[p, "disagreements"]
              and every.loc[p, "disagreements"]]
    if vanish:
        text += (f" {', '.join(vanish)}: 0 disagreements on the games reproduced exactly, an interval that "
                 "includes no difference at all: no difference beyond counting error is shown.")
    frame = pd.concat([table.assign(within=within) for within, table in tables.items()], ignore_index=True)
    return text, frame


def _seed_sentence(tables: "ReportTables", even: pd.Index, present: list[str]) -> tuple[str, dict]:
    """The even-game pair rates under each seed of the life estimator (the runs given with
    ``--seed-runs``): their range, the games whose verdict changes between seeds, and each pair
    that disagrees under one seed and not under another, said to show no difference beyond
    dead-stone uncertainty. Returns the sentence and its tables (``seeds``, ``seed_flips``)."""
    scores = tables.run.scores
    estimated = scores.loc[scores["game_id"].isin(even) & scores["life_method"].eq("estimate"), "game_id"].nunique()
    if len(tables.seeds) < 2:
        if not estimated:
            return ("Dead-stone uncertainty: no settled even game has its dead stones estimated from playouts, "
                    "so no seed moves a count."), {}
        return (f"Dead-stone uncertainty: not measured for this run. The dead stones of {estimated:,} settled even "
                f"games are estimated from seeded playouts (seed {life_seed(tables.run)}); to see how far the "
                "rates rest on that chance, score the collection again with other seeds (`rulelab score INPUTS "
                "--out RUN1 --seed 1`, ...) and give the runs to the report with `rulelab report RUN OUT "
                "--seed-runs RUN1 RUN2`."), {}
    verdicts = seed_verdicts(tables.seeds, present)
    rates, flips = seed_rates(verdicts), seed_flips(verdicts)
    seeds = ", ".join(str(seed) for seed in tables.seeds)

    def pair_words(pair: str) -> str:
        return "any of them" if pair == "any" else pair.replace("–", " vs ")

    def spread(rows: pd.DataFrame) -> str:
        counts = ", ".join(f"{row.disagreements:,}/{row.games:,}" for row in rows.itertuples())
        low, high = rows["rate_min"].iloc[0], rows["rate_max"].iloc[0]
        span = f"{low:.1%} under each" if f"{low:.1%}" == f"{high:.1%}" else f"{low:.1%}–{high:.1%}"
        return f"{counts} ({span}; intervals within {rows['low'].min():.1%}–{rows['high'].max():.1%})"

    by_basis = [f"at {basis} komi: " + "; ".join(f"{pair_words(pair)} {spread(rows)}"
                                                for pair, rows in block.groupby("pair", sort=False))
                for basis, block in rates.groupby("komi_basis", sort=False)]
    changed = flips.loc[flips["change"] == "verdict", "game_id"].unique()
    moved = flips.loc[flips["change"] == "selection", "game_id"].unique()
    text = (f"Dead-stone uncertainty: the estimated dead stones ({estimated:,} of the settled even games) come "
            f"from seeded playouts, so the collection was also scored with other seeds (`rulelab score --seed`) "
            f"and each pair compared seed by seed (seeds {seeds}, disagreements/games per seed; "
            "findings_seeds.csv): "
            + "; ".join(by_basis) + f". Between seeds, {len(changed):,} game{'s' if len(changed) != 1 else ''} "
            f"change{'s' if len(changed) == 1 else ''} verdict on a pair"
            + (f" ({', '.join(f'`{g}`' for g in changed)})" if 0 < len(changed) <= 5 else "")
            + f", and {len(moved):,} {'is' if len(moved) == 1 else 'are'} compared under some seeds only (unsettled "
            "or an outlier of the record under the others' dead stones)"
            + ("; each is in findings_seed_flips.csv." if len(flips) else "."))
    fragile = rates.groupby(["komi_basis", "pair"], sort=False)["disagreements"].agg(["min", "max"])
    fragile = fragile[(fragile["min"] == 0) & (fragile["max"] > 0)]
    if not fragile.empty:
        text += (" " + ", ".join(f"{pair_words(pair)} at {basis} komi" for basis, pair in fragile.index)
                 + ": disagreements under some seeds and none under others, so no difference beyond dead-stone "
                   "uncertainty is shown.")
    else:
        text += (" Every pair that disagrees under one seed disagrees under each: no difference vanishes "
                 "within dead-stone uncertainty.")
    return text, {"seeds": rates, "seed_flips": flips} if len(flips) else {"seeds": rates}


def _parity_sentence(tables: "ReportTables", even: pd.Index) -> tuple[str, pd.DataFrame]:
    """Who fills the last dame, as a reported quantity: on the finished boards (this run, where
    it was counted on them), and on the board as it stands (the run given with ``--as-stands``)
    as a sensitivity row. Returns the sentence and the figures (``basis``)."""
    runs = {counted_on(tables.run): tables.run}
    if tables.as_stands is not None:
        runs.setdefault(counted_on(tables.as_stands), tables.as_stands)
    figures = {basis: parity_figures(run.scores, run.games, even) for basis, run in runs.items()}
    frame = pd.concat([table.assign(basis=basis) for basis, table in figures.items()], ignore_index=True)
    if frame.empty or not frame["games"].max():
        return "Parity: not shown, since no settled even game was scored under Chinese, NZ or Ing rules.", frame

    def words(table: pd.DataFrame) -> str:
        rows = table.set_index("figure")
        said = {"last dame decides": "the last dame decides the Chinese result (a margin of ½ point either way) on",
                "nz draws": "NZ rules (komi 7) draw", "ing tie wins": "Ing rules (komi 8) give Black a tie on"}
        return "; ".join(f"{said[f]} {int(rows.loc[f, 'count']):,} of {int(rows.loc[f, 'games']):,}, "
                         f"{share(rows.loc[f, 'count'], int(rows.loc[f, 'games']))}" for f in said if f in rows.index)

    finished, standing = figures.get("play"), figures.get("none")
    if finished is not None:
        text = ("Parity, who fills the last dame (findings_parity.csv): on the finished boards (the last dame, "
                f"protective moves and ko played out before the count), {words(finished)} — the draws and tie "
                "wins that survive the finish.")
        if standing is not None:
            text += (f" On the board as it stands (open dame counted for nobody, as KGS counts; the run "
                     f"'{tables.as_stands.name}', a sensitivity row): {words(standing)}.")
        return text, frame
    where = ("on the board as it stands (open dame counted for nobody)" if standing is not None else
             "on the boards as this run counted them (finished for some sources, as they stand for others)")
    text = (f"Parity, who fills the last dame (findings_parity.csv), {where}: "
            f"{words(next(iter(figures.values())))}. Under the rules the dame would be filled before the "
            "count: the finished basis needs the collection scored with `--finish play`, and this run given "
            "to its report with `--as-stands`.")
    return text, frame


def _today_sentence(scores: pd.DataFrame, games: pd.DataFrame, rates: pd.DataFrame,
                    present: list[str]) -> tuple[str, pd.DataFrame] | None:
    """The even-game rates at today's komi (:data:`~rulelab.analysis.divergence.TODAY`), a
    counterfactual labelled as one, beside the era's; None where no game has an era komi."""
    rows = compared_rows(scores, games, kind=EVEN)
    if rows.empty or (todays_komi(rows, games) == pd.to_numeric(rows["komi"]).to_numpy(float)).all():
        return None
    today = pair_rates(scores, games, present, kind=EVEN, bases=(TODAY,))
    whole = today[today["band"] == "all"].set_index("pair")
    era = rates[(rates["komi_basis"] == "standard") & (rates["band"] == "all")].set_index("pair")
    komi = ", ".join(f"{r} {PRESETS[r].komi:g}" for r in present if r in PRESETS)
    text = (f"Today's komi, a counterfactual kept apart from the standard basis (findings_rates.csv, komi basis "
            f"'{TODAY}'): with every even game at the "
            f"komi of today's presets ({komi}) whatever its year, the rulesets name different winners on "
            f"{_counted(whole.loc['any'])} of {int(whole.loc['any', 'games']):,} games, against "
            f"{_counted(era.loc['any'])} at the komi of each game's era. By pair (era → today): "
            + "; ".join(f"{p.replace('–', ' vs ')} {share(era.loc[p, 'disagreements'], int(era.loc[p, 'games']))} → "
                        f"{share(whole.loc[p, 'disagreements'], int(whole.loc[p, 'games']))}"
                        for p in whole.index if p != "any" and p in era.index) + ".")
    return text, today


def _older_than_rules_sentences(scores: pd.DataFrame, games: pd.DataFrame, present: list[str]) -> list[str]:
    """For each ruleset of ``present`` younger than some of the games (:data:`RULES_FIRST_TEXT`),
    how many of its pairs' disagreements on even games are in games older than its rules."""
    sentences = []
    for ruleset in present:
        if ruleset not in RULES_FIRST_TEXT:
            continue
        year, source = RULES_FIRST_TEXT[ruleset]
        older = older_than_rules(scores, games, ruleset, year, present, kind=EVEN)
        if not older["older"].sum():
            continue
        counts = "; ".join(f"{row.pair.replace('–', ' vs ')} {row.older:,} of its {row.disagreements:,}"
                           for row in older.itertuples())
        sentences.append(
            f"Rules younger than the games: {ruleset.title()}'s earliest rules text is of {year} ({source}), "
            f"and its preset has no komi of an era, so a game played before {year} is scored at {ruleset.title()}'s "
            f"komi of {PRESETS[ruleset].komi:g} by rules its players did not play. Of the disagreements on even "
            f"games at standard komi, in such games: {counts}.")
    return sentences


def _counted(row: pd.Series, view: dict | None = None) -> str:
    """``k`` games, their share and interval, of a pair-rates row (linked to ``view``)."""
    return f"{int(row['disagreements']):,}, {share(row['disagreements'], int(row['games']), view)}"


def _sensitivity_sentence(scores: pd.DataFrame, games: pd.DataFrame, rates: pd.DataFrame,
                          present: list[str]) -> tuple[str, pd.DataFrame]:
    """The disagreement rate of ``present`` with the outliers kept, beside the rate without them;
    returns the sentence and the rates with them kept."""
    kept = pair_rates(scores, games, present, keep_outliers=True, kind=EVEN)
    def overall(table: pd.DataFrame) -> pd.Series:
        return table[(table["komi_basis"] != "common") & (table["pair"] == "any") & (table["band"] == "all")].iloc[0]

    without, with_them = overall(rates), overall(kept)
    text = (f"Sensitivity (findings_rates.csv, subset '{OUTLIERS_KEPT}'): keeping the "
            f"{int(with_them['games'] - without['games']):,} settled even games whose count misses the record "
            f"by more than {OUTLIER_POINTS:g} points, the rulesets would name different winners on "
            f"{share(with_them['disagreements'], int(with_them['games']))} of {int(with_them['games']):,} games, "
            f"against {share(without['disagreements'], int(without['games']))} without them.")
    return text, kept


def _as_stands_sentence(tables: "ReportTables", rates: pd.DataFrame,
                        present: list[str]) -> tuple[str, pd.DataFrame]:
    """The even-game rates of ``present`` on the board as it stands (the ``--as-stands`` run), a
    sensitivity row beside those on the finished boards; returns the sentence and its rates."""
    standing = pair_rates(tables.as_stands.scores, tables.as_stands.games, present, kind=EVEN)

    def whole(table: pd.DataFrame) -> pd.DataFrame:
        return table[table["band"] == "all"].set_index(["komi_basis", "pair"])

    finished, stands = whole(rates), whole(standing)

    def both(basis: str, pair: str) -> str:
        row, other = finished.loc[(basis, pair)], stands.loc[(basis, pair)]
        return (f"{pair.replace('–', ' vs ') if pair != 'any' else 'any of them'} "
                f"{share(row['disagreements'], int(row['games']))} → "
                f"{share(other['disagreements'], int(other['games']))} of {int(other['games']):,}")

    pairs = dict.fromkeys(stands.index.get_level_values("pair"))
    parts = [f"at {basis} komi: " + "; ".join(both(basis, pair) for pair in pairs)
             for basis in dict.fromkeys(stands.index.get_level_values("komi_basis"))]
    text = (f"The board as it stands, a sensitivity row (findings_rates.csv, subset '{AS_STANDS}'): the rates above "
            f"are on {board_words(tables)}; counted instead on the board as it stands (the run "
            f"'{tables.as_stands.name}': open dame for nobody, no protective move made, as KGS counts), the "
            "rulesets name different winners on the settled even games (finished → as it stands): "
            + "; and ".join(parts) + ".")
    return text, standing


def basis_words(basis: str, rulesets) -> str:
    """How the compared rows of a komi basis were counted, in words."""
    if basis == "user":
        return "each at the komi the run was asked for (--komi)"
    even = ", ".join(f"{PRESETS[r].komi:g}" for r in rulesets if r in PRESETS)
    eras = "; ".join(f"{r} " + ", ".join(f"{komi:g} before {year}" for year, komi in PRESETS[r].era_komi)
                     for r in rulesets if r in PRESETS and PRESETS[r].era_komi)
    handicap = ", ".join(f"{PRESETS[r].handicap_komi:g}" for r in rulesets if r in PRESETS)
    return (f"each at the komi it gives the game (even games {even} today"
            + (f", and in earlier years the komi of the game's era: {eras}" if eras else "")
            + f"; handicap games and the servers' one-stone games {handicap}, with each ruleset's "
              "compensation)")


def _playout_sentence(tables: "ReportTables") -> str:
    """Tromp–Taylor against Chinese counting on even games at the common komi, said for what
    it is: under the play-out model 'captured' their agreement holds by construction."""
    scores, games = tables.run.scores, tables.run.games
    pair = ("chinese", "tromp-taylor")
    if not set(pair) <= set(scores["ruleset"]):
        return "Tromp–Taylor against Chinese counting: not shown, since the run did not score both."
    rates = pair_rates(scores, games, pair, kind=EVEN)
    row = rates[(rates["komi_basis"] == "common") & (rates["pair"] == "any") & (rates["band"] == "all")]
    if row.empty or int(row["games"].iloc[0]) == 0:
        return "Tromp–Taylor against Chinese counting: no settled even game to compare."
    row = row.iloc[0]
    text = (f"Tromp–Taylor and Chinese counting, at komi {COMMON_KOMI:g} on the {int(row['games']):,} "
            f"settled even games, name different winners on {int(row['disagreements']):,}, "
            f"{share(row['disagreements'], row['games'], {'basis': 'common', 'pair': '–'.join(pair), 'even': 1})}")
    if playout_model(tables) == "as-is":
        return text + (": on the board as it stands (play-out model 'as-is'), so each disagreement is a "
                       "record that stops with dead stones on the board, which Tromp–Taylor counts as alive.")
    return text + (". This holds by construction, not as evidence: under the play-out model 'captured' the "
                   "dead stones are captured before Tromp–Taylor counts, which leaves the area count of "
                   "Chinese rules (see How the games are counted); a disagreement left is a seki's shared "
                   "liberties or a dead-stone verdict the two read differently. "
                   "`rulelab score --playout as-is` counts the board as it stands instead.")


def playout_model(tables: "ReportTables") -> str | None:
    """The play-out model the run's scores were made with (None when it recorded none)."""
    return tables.run.score_options.get("playout")


def _komi_sentences(tables: "ReportTables") -> list[str]:
    even, board = tables.even_outcomes, tables.main_board
    records = even[even["ruleset"] == RECORD]
    rates = black_win_rates(records)
    equal = black_win_rates(records[records["rank_gap"] == 0]).set_index("komi")
    sentences = []
    if rates.empty:
        sentences.append(f"Black's win rate: not shown, since no komi value has 10 or more decided "
                         f"even {board} games.")
    else:
        top = rates.nlargest(4, "games").sort_values("komi")

        def at(row) -> str:
            text = f"at komi {row.komi:g}, {_black_share(records, row.komi, row.black, row.games, 'decided games')}"
            if row.komi in equal.index:
                same = equal.loc[row.komi]
                text += (" (between equal ranks "
                         f"{_black_share(records[records['rank_gap'] == 0], row.komi, same['black'], same['games'], '', equal=1)})")
            return text

        sentences.append(f"Black's win rate in the records' own results, even {board} games (a "
                         "draw counts half): " + "; ".join(at(row) for row in top.itertuples()) + ".")
    fits = _fit_text(tables.even_fits, tables.komi_sensitivity)
    trusted = even[even["game_id"].isin(tables.trusted)]
    trusted_fits = _fit_text(headline_fair_komi(trusted)) if not trusted.empty else ""
    if fits:
        text = (f"Fair komi — the komi at which Black wins half the even {board} games between equal "
                "players, from who won each decided game across the komi in force (a method the "
                "simulation study of docs/ACCURACY.md validates): " + fits + ".")
        text += f" On the trusted games: {trusted_fits}." if trusted_fits else ""
        sentences += [text, outlier_rule(tables)]
    else:
        sentences.append(f"Fair komi: not shown, since no even {board} game was decided.")
    return sentences


def _black_share(records: pd.DataFrame, komi: float, black: float, games: int, noun: str, **only) -> str:
    """Black's share of the ``games`` decided ``records`` at ``komi``, linked to the games Black
    won, and the draws (counted half) to theirs."""
    winners = records.loc[records["komi"] == komi, "winner"]
    view = {"view": "games", "fit": 1, "komi": f"{komi:g}", **only}
    wins, draws = int(winners.eq("B").sum()), int(winners.eq("draw").sum())
    text = f"{share(black, int(games), view | {'winner': 'B'}, rows=wins)} of {f'{int(games):,} {noun}'.strip()}"
    if draws:
        text += (f" ([{draws} draw{'s' if draws > 1 else ''}]({view_link(**view, winner='draw', n=draws)}) "
                 "counted half)")
    return text


def outlier_rule(tables: "ReportTables") -> str:
    """The outlier rule and how far it moves each identified fair komi."""
    n = len(tables.outliers)
    text = (f"Outlier rule: a counted game whose count under the record's own rules lies more than "
            f"{OUTLIER_POINTS:g} points from the recorded margin is left out of rulelab's komi fits "
            f"({n:,} of {len(tables.gaps):,} such games here).")
    if n == 0:
        return text
    kept = _identified(headline_fair_komi(tables.with_outliers))
    moved = [f"{name} {kept[name]['fair_komi'] - fit['fair_komi']:+.2f}"
             for name, fit in _identified(tables.even_fits).items() if name in kept and name != RECORD]
    return text + (" Keeping them moves the fair komi by " + ", ".join(moved) + " points." if moved else "")


def _identified(fits: pd.DataFrame) -> dict[str, dict]:
    """Per ruleset, the fit with a point estimate."""
    return {row["ruleset"]: row for row in fits.to_dict("records") if row["identified"]}


def _fit_text(fits: pd.DataFrame, sensitivity: pd.DataFrame | None = None) -> str:
    """Each ruleset's fair komi with its interval (and the range its choices of games span),
    or the interval the data allow where it is not identified."""
    ranges = ({} if sensitivity is None else
              sensitivity[sensitivity["choice"] == "headline"].set_index("ruleset")[["range_low", "range_high"]]
              .to_dict("index"))
    parts = []
    for row in fits.to_dict("records"):
        if row["ci_low"] != row["ci_low"]:
            continue
        name = "recorded results" if row["ruleset"] == RECORD else f"{row['ruleset']} counting"
        games = f"{int(row['games']):,} games at komi {row['komi_played']}"
        if not row["identified"]:
            parts.append(f"{name} not identified, {row['ci_low']:.1f}–{row['ci_high']:.1f} allowed ({games})")
            continue
        text = f"{name} {row['fair_komi']:.1f} points ({row['ci_low']:.1f}–{row['ci_high']:.1f}, {games}"
        span = ranges.get(row["ruleset"])
        if span and (span["range_low"] < row["ci_low"] or span["range_high"] > row["ci_high"]):
            text += f"; {span['range_low']:.1f}–{span['range_high']:.1f} across the choices of games"
        parts.append(text + ")")
    return "; ".join(parts)


def _trust_sentence(tables: "ReportTables", settled: pd.Index) -> tuple[str, pd.DataFrame]:
    """How far to trust the counts: how the dead stones were decided, and how often the count under
    the record's own rules gives the recorded result — on the basis the records were counted on,
    each basis's reproduction side by side when the run has an as-stands companion. Returns the
    sentence and that table (empty without the companion)."""
    scores = tables.run.scores
    methods = life_methods(scores).reindex(settled).dropna().value_counts()
    n = int(methods.sum())
    sources = (", ".join(f"{method} on {share(count, n, SETTLED | {'life': method})}"
                         for method, count in methods.items())
               + " of the settled games") if n else "none, as no game is settled"
    text = f"How far to trust this: dead stones come from markup, proof or playouts (estimate): {sources}."
    gaps, bases = tables.record_gaps, _reproduction_by_basis(tables)
    if gaps.empty:
        return text + (" No counted game was scored under its record's own rules, so no count is checked "
                       "against a record."), bases
    agree, counted = record_agreement(tables)
    exact = int((gaps["gap"] == 0).sum())
    if bases.empty:
        text += (f" On the {counted:,} games the players counted, rulelab's count under the record's own "
                 f"rules names the recorded winner on {share(agree, counted, {'view': 'games', 'same': 1})} and "
                 f"reproduces the recorded margin exactly on "
                 f"{share(exact, len(gaps), {'view': 'games', 'reproduced': 'exactly'})}")
    else:
        row = bases.set_index("basis").loc[counted_on(tables.record_run)]
        words = "; ".join(f"{BASIS_WORDS[r.basis]} {share(r.exact, r.games)} exactly, {share(r.within_1, r.games)} "
                          f"within {_points(REPRODUCED_POINTS)}" for r in bases.itertuples())
        text += (f" Which count reproduces the records (findings_records.csv, as `rulelab validate` compares the "
                 f"bases), on the {int(row['games']):,} games the players counted: {words}. The records are "
                 f"counted {BASIS_WORDS[row.name]}, so the agreement with them is measured there: rulelab's count "
                 f"under the record's own rules names the recorded winner on "
                 f"{share(agree, counted, {'view': 'games', 'same': 1})}, and reproduces the margin exactly on "
                 f"{share(exact, len(gaps))}")
    return text + (f"; the median gap is {_points(gaps['gap'].abs().median())}. Records that stop before the "
                   "dame are filled or the dead stones removed are where the two part."), bases


def _reproduction_by_basis(tables: "ReportTables") -> pd.DataFrame:
    """Per finish basis of the run and its as-stands companion: the counted games, and how many the
    count under the record's own rules reproduces exactly and within a point (empty without one)."""
    if tables.as_stands is None:
        return pd.DataFrame()
    records = []
    for run, gaps in ((tables.run, tables.gaps), (tables.as_stands, tables.as_stands_gaps)):
        misses = gaps["gap"].abs()
        records.append({"basis": counted_on(run), "run": run.name, "games": len(gaps),
                        "exact": int(misses.eq(0).sum()), "within_1": int(misses.le(REPRODUCED_POINTS).sum())})
    frame = pd.DataFrame(records)
    return frame.assign(exact_share=frame["exact"] / frame["games"], within_1_share=frame["within_1"] / frame["games"])


def model_section(tables: "ReportTables", out: Workspace) -> Section:
    """The modelling choices the counts rest on, each stated once."""
    playout = playout_model(tables)
    played = ("after the dead stones are captured (play-out model 'captured': under those rules the "
              "game would have gone on until they were, which moves no point of an area or stone "
              "count; each capture costs only moves, answered by the opponent's or by passes)"
              if playout == "captured" else
              "on the board as it stands (play-out model 'as-is': every stone left counts as alive)"
              if playout == "as-is" else
              "as the run that made the tables did (it recorded no play-out model; runs before it "
              "counted the board as it stands)")
    rulesets = [r for r in tables.standard_komi if r in PRESETS]
    table = pd.DataFrame([{
        "ruleset": r, "scoring": PRESETS[r].scoring, "standard komi": PRESETS[r].komi,
        "handicap komi": PRESETS[r].handicap_komi,
        "handicap compensation": {"N": "N points", "N-1": "N−1 points", "0": "none"}[PRESETS[r].handicap_bonus],
        "handicap convention": HANDICAP_CONVENTIONS[r],
        "tie at margin 0": "Black wins" if PRESETS[r].tie_break == "black" else "draw",
        "seki eyes": "refused" if PRESETS[r].seki_tax == "seki" else
                     "taxed in full" if PRESETS[r].seki_tax == "all" else "counted",
        "protective moves owed": "refused" if PRESETS[r].refuse_owed else "counted",
        "dead stones": "agreed, removed" if PRESETS[r].agreement else f"captured in play ({playout or 'unrecorded'})",
    } for r in rulesets])
    blocks = [
        Text("Tromp–Taylor and stone scoring have no agreement on dead stones: their rules count the "
             f"stones on the board. Records stop with dead stones on it, so these rulesets are scored {played}. "
             "`rulelab score --playout as-is` scores the board as it stands instead."),
        Text(f"Every board is counted on {board_words(tables)}. Open dame (empty points between the two "
             "sides that nobody filled) left on a board are counted under area scoring as each source counts "
             "them, measured against recorded results"
             + (": for nobody on KGS and wherever the source is unknown, filled alternately on Fox"
                if has_servers(tables) else "") + f" (dame policy {dame_policies(tables)}). "
             "Territory rules refuse the points that protective moves still owed would fill (J1989 "
             "Art. 9) and the eyes of groups in seki (Art. 8); area rules count both. A game of two "
             "handicap stones or more is counted at the komi and with the compensation its ruleset "
             "gives handicap games; tie rules and komi per ruleset are in the table below, each "
             "handicap convention with its source. Margins are Black "
             "− White in points; the margin before komi is the count before komi is taken off."),
    ]
    if not table.empty:
        blocks.append(out.table("rulesets", table, "The rulesets of this run as they are counted",
                                preview_rows=len(table)))
    return Section("model", "How the games are counted", blocks)


def dame_policies(tables: "ReportTables") -> str:
    """The dame policies of the run's scores rows, each with the sources it was used on."""
    scores = tables.run.scores
    if "dame_policy" not in scores or scores["dame_policy"].isna().all():
        return "not recorded"
    source = tables.games.set_index("game_id")["source"].fillna("unknown")
    rows = scores.assign(source=scores["game_id"].map(source).fillna("unknown"))
    used = rows.dropna(subset=["dame_policy"]).groupby("dame_policy", sort=True)["source"].unique()
    if len(used) == 1:
        return f"'{used.index[0]}'"
    return ", ".join(f"'{policy}' on {', '.join(sorted(sources))}" for policy, sources in used.items())
