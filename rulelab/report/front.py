"""The report's first screen: one table of the headline figures, each with its interval,
its count, what it means and links to its section and its games; then the glossary the
text links its terms to.

Every figure is taken from the function that computes it for the rest of the report
(:func:`~rulelab.analysis.findings.pair_rates`, :func:`~rulelab.analysis.findings.cause_shares`,
the fair-komi fits of :class:`~rulelab.report.shared.ReportTables`), so the table follows
them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from rulelab.analysis.divergence import COMMON_KOMI
from rulelab.analysis.findings import (MAIN_RULESETS, TRUSTED_CONFIDENCE, TRUSTED_METHODS, cause_shares,
                                       pair_rates)
from rulelab.analysis.inputs import counted_on
from rulelab.analysis.komi import headline_fair_komi
from rulelab.analysis.selection import OUTLIER_POINTS, REPRODUCED_POINTS
from rulelab.analysis.outcomes import RECORD
from rulelab.analysis.stats import wilson_interval
from rulelab.report.blocks import Section, Text, Workspace
from rulelab.report.collection import collection_words
from rulelab.report.explorer import record_winner_agrees, view_link

if TYPE_CHECKING:
    from rulelab.report.shared import ReportTables

GLOSSARY = {
    "settled": "a game whose final position the life layer calls finished, or that its players "
               "counted; only settled games are compared across rulesets.",
    "even game": "a game without handicap stones, with a komi above 0.5, and not a server's one-stone game "
                 "(no handicap stones and komi 0.5, the weaker player taking Black); the findings compare the "
                 "rulesets on even games, and the other kinds (handicap, one-stone, no komi) have a section of "
                 "their own.",
    "trusted": f"a settled game whose dead stones come from {' or '.join(TRUSTED_METHODS)} (the record's "
               f"territory marks, Benson's pass-alive proof), or from an estimate of confidence "
               f"≥ {TRUSTED_CONFIDENCE:g} on a finished position.",
    "komi basis": "what komi the rulesets are compared at: 'standard' — each at the komi it gives "
                  f"the game (what its players see); 'common' — all at {COMMON_KOMI:g}, where only the "
                  "counting differs; 'user' — the komi the run was asked for (--komi).",
    "komi source": "where a scores row's komi comes from: 'standard' (the ruleset's), 'record' "
                   "(the SGF's own KM, scored under the record's rules), or 'user' (--komi).",
    "main board": "the board size komi is fitted on: 19×19 when the collection has games on it, "
                  "else its commonest size.",
    "main cause": "the part of a margin difference whose removal alone makes two rulesets name the "
                  "same winner (the largest such part); 'combined' when no single part does.",
    "reproduces record": "rulelab's count under the record's own rules gives the recorded margin "
                         f"(exactly, or within {REPRODUCED_POINTS:g} point).",
    "outlier": "a counted game whose count under the record's own rules misses the recorded margin "
               f"by more than {OUTLIER_POINTS:g} points: a misread group or a record that does not say "
               "what was counted, not a rule difference; left out of every comparison and komi fit.",
    "fair komi": "the komi at which Black wins half the even games between equal players, read from "
                 "who won each decided game across the komi values in force; 'not identified' where "
                 "the data allow only a range (one komi in force, or a win rate that does not fall "
                 "with it).",
    "status case": "a group whose life the rulesets decide differently (a seki, a bent four, ...).",
}
"""Each term the report uses, defined once."""


def term(name: str) -> str:
    """``name`` linked to its entry in the glossary."""
    return f"[{name}](#glossary)"


def summary_section(tables: "ReportTables", out: Workspace) -> Section:
    rows = [*_divergence_rows(tables), *_komi_rows(tables), *_cause_rows(tables), *_record_rows(tables)]
    blocks = [Text(collection_words(tables))]
    if rows:
        beside = [AS_STANDS_COLUMN] if tables.as_stands else []
        frame = pd.DataFrame(rows).reindex(columns=["figure", "value", "95% interval", *beside, "n", "meaning",
                                                    "section", "games"]).fillna("")
        blocks.append(out.table("summary", frame, "The headline figures", preview_rows=len(frame)))
    else:
        blocks.append(Text("No headline figure: no game is settled and scored under two of "
                           f"{', '.join(MAIN_RULESETS)}, and none can be fitted for komi."))
    blocks.append(Text("Every linked figure opens the game explorer ([explorer.html](explorer.html)) "
                       "filtered to the games it counts: a table that sorts and filters, and each game's board with "
                       "its dead stones, the points each ruleset counts, every ruleset's count and a "
                       "move slider."))
    return Section("summary", "At a glance", blocks)


def glossary_section(tables: "ReportTables", out: Workspace) -> Section:
    return Section("glossary", "Glossary", [Text(f"{name}: {meaning}") for name, meaning in GLOSSARY.items()])


def _percent(share: float) -> str:
    return f"{share:.1%}"


BOARDS = {"play": "finished boards", "none": "board as it stands"}
"""The boards of each finish basis (:data:`~rulelab.rules.FINISH_BASES`), in a label."""

BASIS_WORDS = {basis: f"on the {boards}" for basis, boards in BOARDS.items()}
"""Each finish basis in words."""

AS_STANDS_COLUMN = "as the board stands (sensitivity)"
"""The headline table's column of each pair rate counted on the board as it stands (``--as-stands``)."""


def _divergence_rows(tables: "ReportTables") -> list[dict]:
    """Per pair of the main rulesets, on the even settled games, at the komi each gives the game;
    beside each, the same rate on the board as it stands when the run has that companion."""
    rates = pair_rates(tables.run.scores, tables.run.games, kind="even")
    standing = (None if tables.as_stands is None else
                _whole(pair_rates(tables.as_stands.scores, tables.as_stands.games, kind="even")).set_index("pair"))
    basis, rows = counted_on(tables.run), []
    for row in _whole(rates).itertuples():
        if not row.games:
            continue
        a, b = row.pair.split("–")
        rows.append({
            "figure": f"{a.title()} vs {b.title()}: different winners, {row.komi_basis} komi"
                      + (f", {BOARDS[basis]}" if basis in BOARDS else ""),
            "value": _percent(row.rate), "95% interval": f"{_percent(row.low)}–{_percent(row.high)}",
            "n": f"{row.disagreements:,} of {row.games:,} even games",
            "meaning": f"how often the rules decide who wins a {term('settled')} even game "
                       f"({term('komi basis')})",
            "section": "[Findings](#findings)",
            "games": f"[{row.disagreements:,} games]"
                     f"({view_link(basis=row.komi_basis, pair=row.pair, even=1, n=row.disagreements)})",
        } | ({} if standing is None or row.pair not in standing.index else {AS_STANDS_COLUMN: _as_stands_rate(
            standing.loc[row.pair])}))
    return rows


def _whole(rates: pd.DataFrame) -> pd.DataFrame:
    """The whole-pair rows of :func:`pair_rates` at the komi each ruleset gives the game."""
    return rates[(rates["band"] == "all") & (rates["komi_basis"] != "common") & (rates["pair"] != "any")]


def _as_stands_rate(row: pd.Series) -> str:
    return (f"{_percent(row['rate'])} ({_percent(row['low'])}–{_percent(row['high'])}), "
            f"{int(row['disagreements']):,} of {int(row['games']):,}")


def board_words(tables: "ReportTables") -> str:
    """The boards the report's rates are counted on, in words."""
    basis = counted_on(tables.run)
    return {"play": "the finished boards (the last dame, protective moves and ko played out before the count)",
            "none": "the boards as they stand (open dame counted for nobody)"}.get(
        basis, "the boards as each source counts them (finished for some, as they stand for others)")


def _cause_rows(tables: "ReportTables") -> list[dict]:
    """The two commonest main causes of the main rulesets' disagreements on even games, per komi basis."""
    causes = cause_shares(tables.run.scores, tables.run.games, kind="even")
    rows = []
    for basis, part in causes.groupby("komi_basis", sort=False):
        total = int(part["disagreements"].sum())
        for row in part.head(2).itertuples():
            low, high = wilson_interval(row.disagreements, total)
            at = f"komi {COMMON_KOMI:g}" if basis == "common" else f"{basis} komi"
            rows.append({
                "figure": f"Why, at {at}: {row.main_cause.replace('_', ' ')}",
                "value": _percent(row.share), "95% interval": f"{_percent(low)}–{_percent(high)}",
                "n": f"{row.disagreements:,} of {total:,} game × pair, even games",
                "meaning": f"share of the disagreements this mechanism alone decides ({term('main cause')})",
                "section": "[Why](#attribution)",
                "games": f"[{row.disagreements:,} rows]"
                         f"({view_link(basis=basis, pair='main', cause=row.main_cause, even=1, n=row.disagreements)})",
            })
    return rows


def _komi_rows(tables: "ReportTables") -> list[dict]:
    """The fair komi of each counting: on the main board's even games (the komi section's
    fits), then on each other board with enough even games (the boards section's)."""
    fits = {tables.main_board: tables.even_fits}
    fits.update({board: headline_fair_komi(population) for board, population in tables.other_boards.items()})
    rows = []
    for board, table in fits.items():
        for row in table[table["ci_low"].notna()].itertuples():
            identified = bool(row.identified)
            rows.append({
                "figure": f"Fair komi, {board}, " + ("recorded results" if row.ruleset == RECORD
                                                     else f"{row.ruleset} counting"),
                "value": f"{row.fair_komi:.1f} points" if identified else "not identified",
                "95% interval": f"{row.ci_low:.1f}–{row.ci_high:.1f}",
                "n": f"{int(row.games):,} decided even games at komi {row.komi_played}",
                "meaning": (f"Black wins half the even games at this komi ({term('fair komi')})" if identified
                            else f"the fair komi values the data allow; one komi in force, or a win rate "
                                 f"that does not fall with it ({term('fair komi')})"),
                "section": "[Komi](#komi)" if board == tables.main_board else "[Boards](#boards)",
                "games": "",
            })
    return rows


def _record_rows(tables: "ReportTables") -> list[dict]:
    """How often rulelab's count under the record's own rules names the recorded winner."""
    agree, counted = record_agreement(tables)
    if not counted:
        return []
    low, high = wilson_interval(agree, counted)
    return [{
        "figure": "Same winner as the record", "value": _percent(agree / counted),
        "95% interval": f"{_percent(low)}–{_percent(high)}", "n": f"{agree:,} of {counted:,} counted games",
        "meaning": f"rulelab's count under the record's rules ({term('outlier')} games included), "
                   f"{BASIS_WORDS.get(counted_on(tables.record_run), 'on the boards as each source counts them')}",
        "section": "[Findings](#findings)",
        "games": f"[{agree:,} games]({view_link(view='games', same=1, n=agree)})",
    }]


def record_agreement(tables: "ReportTables") -> tuple[int, int]:
    """(games whose count under the record's rules names the recorded winner, counted games)."""
    same = record_winner_agrees(tables)
    return int(same.sum()), len(same)
