"""The report's front: the findings in prose, and how the games were counted.

Both read the tables of :mod:`rulelab.analysis.findings` and the shared intermediate
tables of :class:`~rulelab.report.shared.ReportTables`, and say every number with the
count it rests on and its 95% interval.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from rulelab.analysis.divergence import COMMON_KOMI, compared_rows
from rulelab.analysis.findings import MAIN_RULESETS, black_win_rates, cause_shares, pair_rates
from rulelab.analysis.komi import headline_fair_komi
from rulelab.analysis.outcomes import RECORD
from rulelab.analysis.selection import OUTLIER_POINTS
from rulelab.analysis.stats import wilson_interval
from rulelab.report.blocks import Section, Text, Workspace
from rulelab.report.collection import has_servers
from rulelab.report.explorer import life_methods, view_link
from rulelab.report.front import record_agreement, term
from rulelab.rules import HANDICAP_CONVENTIONS, PRESETS

if TYPE_CHECKING:
    from rulelab.report.shared import ReportTables

CAUSE_WORDS = {
    "komi": "komi (the komi the rulesets give the game differ)",
    "handicap": "handicap (White's compensation against the handicap stones area counting sees, net)",
    "moves": "stones placed in play (who placed the last stone, and passes: the parity of area counting)",
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
    settled = _settled_ids(tables)
    trusted = tables.trusted.intersection(settled)
    blocks = [Text(
        f"Terms ({term('settled')}, {term('trusted')}, {term('komi basis')}, {term('outlier')}, ...) are "
        f"defined once in the glossary. Here {len(trusted):,} of the {len(settled):,} settled games are trusted, "
        f"{_share(len(trusted), len(settled), SETTLED | {'trusted': 1})}, and "
        f"[{len(tables.outliers):,}]({view_link(view='games', outlier=1, n=len(tables.outliers))}) counted "
        "games are outliers, left out of every comparison and every komi fit. 'The record' is what the SGF "
        "file itself says (result, komi). Intervals are 95% (Wilson for shares, Fieller for an identified fair "
        "komi). Each linked rate opens the game explorer on the rows it counts: the disagreements, or the "
        "games.")]
    present = [r for r in MAIN_RULESETS if r in set(scores["ruleset"])]
    figures = {"rates": [], "causes": []}
    for subset, label, keep in (("all", "all settled games", settled),
                                ("trusted", "the trusted games", trusted)):
        if keep.empty:
            blocks.append(Text(f"On {label}: none in this collection, so nothing to compare."))
            continue
        if len(present) < 2:
            blocks.append(Text(f"On {label}: not shown, since fewer than two of "
                               f"{', '.join(MAIN_RULESETS)} were scored."))
            continue
        if subset == "trusted" and keep.equals(settled):
            blocks.append(Text("Every settled game is trusted here: the figures above are the trusted "
                               "games' too."))
            continue
        chosen = scores[scores["game_id"].isin(keep)]
        rates, causes = pair_rates(chosen, games), cause_shares(chosen, games)
        figures["rates"].append(rates.assign(subset=subset))
        figures["causes"].append(causes.assign(subset=subset))
        blocks += [Text(t) for t in _divergence_sentences(rates, causes, present, label, subset == "trusted")]
        if subset == "all" and len(tables.outliers):
            blocks.append(Text(_sensitivity_sentence(scores, games, rates, present)))
    blocks.append(Text(_playout_sentence(scores, games)))
    blocks += [Text(t) for t in _komi_sentences(tables)]
    blocks.append(Text(_trust_sentence(tables, settled)))
    for name, parts in figures.items():
        if parts:
            frame = pd.concat(parts, ignore_index=True)
            blocks.append(out.table(f"findings_{name}", frame[["subset", *frame.columns[:-1]]],
                                    "Disagreement rates per pair and margin band, as stated above"
                                    if name == "rates" else "Main causes, as stated above",
                                    preview_rows=0))
    return Section("findings", "Findings", blocks)


SETTLED = {"view": "games", "settled": 1, "outlier": 0}
"""The explorer's games view of the settled games the findings compare."""


def _settled_ids(tables: "ReportTables") -> pd.Index:
    rows = compared_rows(tables.run.scores, tables.run.games)
    return pd.Index(sorted(rows["game_id"].unique()), name="game_id")


def _points(value: float) -> str:
    return f"{value:g} point" + ("" if value == 1 else "s")


def _share(k: float, n: int, view: dict | None = None, rows: int | None = None) -> str:
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
    only = {"trusted": 1} if trusted else {}

    def games_of(basis: str, pair: str, **more) -> dict:
        return ({"basis": basis, "pair": "main", "per": "game"} if pair == "any" else
                {"basis": basis, "pair": pair}) | only | more

    if rates.empty or rates["games"].max() == 0:
        return [f"On {label}: no game is settled and scored under two of {', '.join(present)}."]
    whole = rates[rates["band"] == "all"].set_index(["komi_basis", "pair"])

    def rate(basis: str, pair: str) -> str:
        row = whole.loc[(basis, pair)]
        return _share(row["disagreements"], int(row["games"]), games_of(basis, pair))

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
                             f"{_share(row.disagreements, row.games, games_of('common', 'any', band=row.band))} "
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


def _sensitivity_sentence(scores: pd.DataFrame, games: pd.DataFrame, rates: pd.DataFrame,
                          present: list[str]) -> str:
    """The disagreement rate of ``present`` with the outliers kept, beside the rate without them."""
    kept = pair_rates(scores, games, present, keep_outliers=True)
    def overall(table: pd.DataFrame) -> pd.Series:
        return table[(table["komi_basis"] != "common") & (table["pair"] == "any") & (table["band"] == "all")].iloc[0]

    without, with_them = overall(rates), overall(kept)
    diverging = {"view": "games", "diverges": with_them["komi_basis"]}
    return (f"Sensitivity: keeping the {int(with_them['games'] - without['games']):,} settled games whose "
            f"count misses the record by more than {OUTLIER_POINTS:g} points, the rulesets would name "
            f"different winners on {_share(with_them['disagreements'], int(with_them['games']), diverging)} of "
            f"{int(with_them['games']):,} games, against "
            f"{_share(without['disagreements'], int(without['games']), diverging | {'outlier': 0})} without them.")


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


def _playout_sentence(scores: pd.DataFrame, games: pd.DataFrame) -> str:
    """Tromp–Taylor against Chinese counting on even games at the common komi: what
    the play-out model leaves of the difference between them."""
    pair = ("chinese", "tromp-taylor")
    if not set(pair) <= set(scores["ruleset"]):
        return "Tromp–Taylor against Chinese counting: not shown, since the run did not score both."
    even = games.loc[pd.to_numeric(games["handicap"], errors="coerce").fillna(0).eq(0), "game_id"]
    rates = pair_rates(scores[scores["game_id"].isin(even)], games, pair)
    row = rates[(rates["komi_basis"] == "common") & (rates["pair"] == "any") & (rates["band"] == "all")]
    if row.empty or int(row["games"].iloc[0]) == 0:
        return "Tromp–Taylor against Chinese counting: no settled game without handicap stones to compare."
    row = row.iloc[0]
    return (f"Tromp–Taylor and Chinese counting, at komi {COMMON_KOMI:g} on the {int(row['games']):,} "
            f"settled games without handicap stones, name different winners on {int(row['disagreements']):,}, "
            f"{_share(row['disagreements'], row['games'], {'basis': 'common', 'pair': '–'.join(pair), 'even': 1})}: "
            "once the dead stones are captured in play "
            "(see How the games are counted), the two count an even game alike — Chinese rules split "
            "the liberties shared in a seki evenly, which leaves the margin where it was.")


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
    text = f"{_share(black, int(games), view | {'winner': 'B'}, rows=wins)} of {f'{int(games):,} {noun}'.strip()}"
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


def _trust_sentence(tables: "ReportTables", settled: pd.Index) -> str:
    scores = tables.run.scores
    methods = life_methods(scores).reindex(settled).dropna().value_counts()
    n = int(methods.sum())
    sources = (", ".join(f"{method} on {_share(count, n, SETTLED | {'life': method})}"
                         for method, count in methods.items())
               + " of the settled games") if n else "none, as no game is settled"
    text = f"How far to trust this: dead stones come from markup, proof or playouts (estimate): {sources}."
    gaps = tables.gaps
    if not gaps.empty:
        agree, counted = record_agreement(tables)
        text += (f" On the {counted:,} games the players counted, rulelab's count under the record's own "
                 f"rules names the recorded winner on {_share(agree, counted, {'view': 'games', 'same': 1})} and "
                 "reproduces the recorded margin exactly on "
                 f"{_share(int((gaps['gap'] == 0).sum()), len(gaps), {'view': 'games', 'reproduced': 'exactly'})}; "
                 f"the median gap is {_points(gaps['gap'].abs().median())}. Records that stop before the "
                 "dame are filled or the dead stones removed are where the two part.")
    else:
        text += " No counted game was scored under its record's own rules, so no count is checked against a record."
    return text


def model_section(tables: "ReportTables", out: Workspace) -> Section:
    """The modelling choices the counts rest on, each stated once."""
    options = tables.run.table_metadata.get("scores.parquet", {}).get("options", {})
    playout = options.get("playout")
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
        Text("Open dame (empty points between the two sides that nobody filled) are counted under "
             "area scoring as each source counts them, measured against recorded results"
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
