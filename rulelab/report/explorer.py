"""The report's game explorer: every disagreement in a table that sorts and filters, and
each game on a board drawn in the browser, from the run's own tables.

Three files beside ``index.html``: ``explorer.html`` (the page), ``explorer.js`` (a small
hand-written script, :data:`SCRIPT`) and ``explorer-data.js`` (the data, one compact JSON
object assigned to a global: a page opened from ``file://`` may load a script but not
fetch a file). No server, no network, no framework. The data hold one row per
disagreement — the attribution table (``attribution.csv``) with what a reader filters
on — and, per game in it, the final board, the stored dead stones and seki, the point
classes, the main line and every ruleset's count on both komi bases.

A view is a filter in the URL's hash (:func:`view_link`), so a rate in the report links
to the rows it counts: ``explorer.html#basis=standard&pair=chinese–japanese`` holds the
disagreements of that pair at standard komi, as many as the rate's numerator.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from urllib.parse import quote

import numpy as np
import pandas as pd

from rulelab.analysis.attribution import PARTS
from rulelab.analysis.divergence import (COMMON_KOMI, KOMI_BASES, at_komi, basis_label, compared_rows,
                                         standard_rows, winners)
from rulelab.analysis.findings import MAIN_RULESETS, MARGIN_BANDS
from rulelab.analysis.outcomes import RECORD
from rulelab.analysis.selection import reproduced
from rulelab.analysis.strata import game_kind
from rulelab.rules import PRESETS

PAGE, SCRIPT, DATA = "explorer.html", "explorer.js", "explorer-data.js"

COUNT_FIELDS = (
    "komi", "black_stones", "white_stones", "black_territory", "white_territory", "black_prisoners",
    "white_prisoners", "black_seki_points", "white_seki_points", "black_owed", "white_owed",
    "black_group_tax", "white_group_tax", "handicap_bonus", "dame", "dead_black", "dead_white",
    "black_points", "white_points", "margin_before_komi", "margin", "winner",
)
"""The parts of a count the board panel shows for every ruleset, as ``scores.parquet`` holds them."""


CODED = ("source", "winner", "life", "reproduced", "diverges")
"""The games view's columns of few values, each written as an index into its values."""


def pair_key(a: str, b: str) -> str:
    """One name per unordered pair of rulesets, whichever order a table gives them in."""
    return "–".join(sorted((a, b)))


def view_link(**filters) -> str:
    """The explorer's address showing the rows that match ``filters`` (hash keys: ``basis``,
    ``pair`` (a :func:`pair_key`, or ``main`` for any pair of :data:`MAIN_RULESETS`),
    ``per=game`` (one row per game), ``cause``, ``band``, ``trusted=1``, ``even=1``).
    ``n``, the count the report states, is shown beside the rows the explorer finds.

    Examples
    --------
    >>> view_link(basis="standard", pair="japanese–chinese", n=3)
    'explorer.html#basis=standard&pair=chinese%E2%80%93japanese&n=3'
    """
    if "pair" in filters and "–" in filters["pair"]:
        filters["pair"] = pair_key(*filters["pair"].split("–"))
    return PAGE + "#" + "&".join(f"{key}={quote(str(value), safe='')}" for key, value in filters.items())


def write_explorer(tables, folder: Path) -> None:
    """Write the explorer of ``tables`` (:class:`~rulelab.report.shared.ReportTables`) into ``folder``."""
    rows = explorer_rows(tables)
    every, values = _coded(game_rows(tables))
    data = {"columns": list(rows.columns), "rows": _lists(rows),  # lists, their keys once: a third of the bytes
            "game_columns": list(every.columns), "game_rows": _lists(every), "game_values": values,
            "games": _games(tables, sorted(set(rows["game_id"]))),
            "rulesets": _rulesets(tables), "bands": [band for *_, band in MARGIN_BANDS],
            "bands_limits": [[low, None if np.isinf(high) else high] for low, high, _ in MARGIN_BANDS],
            "main": list(MAIN_RULESETS), "common_komi": COMMON_KOMI, "count_fields": list(COUNT_FIELDS)}
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    (folder / DATA).write_text(f"window.RULELAB_EXPLORER = {text};\n", encoding="utf-8")
    (folder / SCRIPT).write_bytes((Path(__file__).with_name("static") / SCRIPT).read_bytes())
    (folder / PAGE).write_text(_page(tables.run.collection), encoding="utf-8")


def explorer_rows(tables) -> pd.DataFrame:
    """One row per disagreement of :attr:`~rulelab.report.shared.ReportTables.attribution`,
    with what a reader filters on: the pair's and the game's closeness (the smaller
    absolute margin of the pair, and of the main rulesets, on the row's basis), whether
    the game is trusted, even, reproduces its record, its status cases and its source."""
    table = tables.attribution
    if table.empty:
        return pd.DataFrame(columns=["row", "komi_basis", "game_id", "pair"])
    games = tables.games.set_index("game_id")
    life = tables.run.life.drop_duplicates("game_id").set_index("game_id") if not tables.run.life.empty else None
    closeness = {basis: _closeness(tables, basis) for basis in sorted(set(table["komi_basis"]))}
    rows = table.assign(
        pair=[pair_key(a, b) for a, b in zip(table["ruleset_a"], table["ruleset_b"])],
        close_pair=np.minimum(table["margin_a"].abs(), table["margin_b"].abs()),
        close_main=[closeness[basis].get(game, np.nan)
                    for basis, game in zip(table["komi_basis"], table["game_id"])],
        trusted=table["game_id"].isin(tables.trusted),
        even=table["game_id"].map(game_kind(games).eq("even")),
        source=table["game_id"].map(games["source"]).fillna("unknown"),
        settled=table["game_id"].map(life["finished"]).map({True: "finished", False: "counted"})
        if life is not None else "unknown",
        reproduced=reproductions(tables, table["game_id"]),
        status_case=table["game_id"].map(life["status_cases"].map(
            lambda cases: ", ".join(sorted({case["kind"] for case in cases})) or "none"))
        if life is not None else "unknown",
    )
    rows = rows.sort_values(["komi_basis", "pair", "game_id"], kind="stable").reset_index(drop=True)
    rows.insert(0, "row", np.arange(len(rows)))
    keep = ["row", "komi_basis", "game_id", "pair", "ruleset_a", "ruleset_b", "winner_a", "winner_b",
            "margin_a", "margin_b", "difference", "main_cause", "combined_causes", *PARTS, "close_pair",
            "close_main", "trusted", "even", "source", "settled", "reproduced", "status_case"]
    return rows[keep]


def game_rows(tables) -> pd.DataFrame:
    """One light row per analysable game, with what the report's other rates count: the
    record's komi and winner, whether the game is among the fair-komi games (``fit``: even,
    on the main board, komi stated) and between equal ranks, settled, an outlier, trusted, even,
    how its dead stones were decided, whether its count reproduces the record and names its
    winner, and the komi bases on which the main rulesets name different winners (outliers
    kept; None where they were not all compared). Yes/no as 1/0, a fifth fewer bytes than
    ``true``/``false``. No board: the divergent games' are in ``games``, the others would make
    the data many times larger."""
    games = tables.games.drop_duplicates("game_id").set_index("game_id").sort_index()
    ids = games.index.to_series()
    records = tables.outcomes[tables.outcomes["ruleset"] == RECORD].set_index("game_id")
    fit = tables.even_outcomes
    settled = set(compared_rows(tables.run.scores, tables.run.games, keep_outliers=True)["game_id"])
    gap, counted = reproduced(tables.gaps), set(tables.gaps["game_id"])
    rows = pd.DataFrame({
        "game_id": ids, "source": games["source"].fillna("unknown"), "year": games["year"],
        "black": games["black_player"], "white": games["white_player"], "komi": games["komi"],
        "result": games["result_raw"], "winner": ids.map(records["winner"]),
        "fit": ids.isin(fit.loc[fit["ruleset"] == RECORD, "game_id"]),
        "equal": ids.map(records["rank_gap"]).eq(0),
        "settled": ids.isin(settled), "outlier": ids.isin(tables.outliers), "trusted": ids.isin(tables.trusted),
        "even": game_kind(games).eq("even"),
        "life": ids.map(life_methods(tables.run.scores)),
        "reproduced": reproductions(tables, ids),
        "same": ids.map(record_winner_agrees(tables)),
        "diverges": ids.map(_diverging_bases(tables)),
    })
    flags = ["fit", "equal", "settled", "outlier", "trusted", "even", "same"]
    rows[flags] = rows[flags].astype("Int8")
    return rows.reset_index(drop=True)


def _coded(rows: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, list[str]]]:
    """``rows`` with each column of :data:`CODED` as indices into its sorted values, and those values:
    a fifth of the games view's bytes."""
    values = {name: sorted(set(rows[name].dropna())) for name in CODED}
    coded = rows.assign(**{name: rows[name].map({value: k for k, value in enumerate(values[name])}).astype("Int64")
                           for name in CODED})
    return coded, values


def reproductions(tables, ids: pd.Series) -> np.ndarray:
    """Per game of ``ids``, how closely its count under the record's own rules gives the recorded
    margin: 'exactly', 'within 1 point', 'no', or 'not counted' (its players did not count it)."""
    gap = reproduced(tables.gaps)
    return np.where(~ids.isin(tables.gaps["game_id"]), "not counted",
                    np.where(ids.map(gap).eq(0), "exactly", np.where(ids.isin(gap.index), "within 1 point", "no")))


def life_methods(scores: pd.DataFrame) -> pd.Series:
    """Per game, how its dead stones were decided (its first row not under the record's rules)."""
    rows = scores[scores["komi_source"].ne("record")].drop_duplicates("game_id").set_index("game_id")
    return rows["life_method"].fillna("unknown")


def record_winner_agrees(tables) -> pd.Series:
    """Per counted game, whether rulelab's count under the record's own rules names the recorded winner,
    on the basis the records were counted on (:attr:`~rulelab.report.shared.ReportTables.record_run`)."""
    gaps = tables.record_gaps
    komi = tables.games.drop_duplicates("game_id").set_index("game_id")["komi"].reindex(gaps["game_id"])
    komi = komi.to_numpy(float)
    same = np.sign(gaps["rulelab"].to_numpy(float) - komi) == np.sign(gaps["record"].to_numpy(float) - komi)
    return pd.Series(same, index=gaps["game_id"].to_numpy(), dtype=bool)


def _diverging_bases(tables) -> dict[str, str]:
    """Per game compared under every main ruleset (outliers kept), the komi bases on which
    they name different winners, space-separated ('' where they agree on both)."""
    verdicts = {}
    for basis in KOMI_BASES:
        rows = compared_rows(tables.run.scores, tables.run.games, komi_basis=basis, keep_outliers=True)
        wide = winners(rows[rows["ruleset"].isin(MAIN_RULESETS)], finished_only=False)
        present = [name for name in MAIN_RULESETS if name in wide.columns]
        if len(present) > 1:
            verdicts[basis_label(rows, basis)] = wide[present].dropna().nunique(axis=1).gt(1)
    if not verdicts:
        return {}
    both = pd.concat(verdicts, axis=1, join="inner")
    return both.apply(lambda differ: " ".join(both.columns[differ.to_numpy()]), axis=1).to_dict()


def _closeness(tables, basis: str) -> dict[str, float]:
    """Per game, the smallest absolute margin among the main rulesets on ``basis`` (what
    :func:`~rulelab.analysis.findings.pair_rates` bands a game by)."""
    rows = compared_rows(tables.run.scores, tables.run.games,
                         komi_basis="common" if basis == "common" else "standard")
    rows = rows[rows["ruleset"].isin(MAIN_RULESETS)]
    return rows["margin"].abs().groupby(rows["game_id"]).min().astype(float).to_dict()


def _games(tables, ids: list[str]) -> dict[str, dict]:
    """Per game: its board, verdict masks, main line, record and every ruleset's count."""
    games = tables.games.set_index("game_id")
    life = tables.run.life.drop_duplicates("game_id").set_index("game_id") if not tables.run.life.empty else None
    scores = standard_rows(tables.run.scores, finished_only=False)
    scores = scores[scores["game_id"].isin(ids)].sort_values(["game_id", "ruleset"])
    by_game = {basis: {game: _counts(rows) for game, rows in frame.groupby("game_id", sort=True)}
               for basis, frame in (("standard", scores), ("common", at_komi(scores, COMMON_KOMI)))}
    out = {}
    for game_id in ids:
        game = games.loc[game_id]
        entry = {
            "rows": int(game["board_rows"]), "cols": int(game["board_cols"]),
            "board": _digits(game.get("board")), "moves": _moves(game.get("moves")),
            "black": _text(game.get("black_player")), "white": _text(game.get("white_player")),
            "result": _text(game.get("result_raw")), "komi": _number(game.get("komi")),
            "date": _text(game.get("date_raw")), "event": _text(game.get("event")),
            "counts": {basis: by_game[basis].get(game_id, {}) for basis in by_game},
        }
        if life is not None and game_id in life.index:
            verdict = life.loc[game_id]
            entry.update(dead=_digits(verdict["dead"]), seki=_digits(verdict["seki"]),
                         classes=_digits(verdict["classes"]), life_method=_text(verdict["life_method"]),
                         dead_under={case["ruleset"]: _digits(case["dead"]) for case in verdict["status_dead"]})
        out[game_id] = entry
    return out


def _lists(rows: pd.DataFrame) -> list[list]:
    """A table's rows as lists of plain cells (:func:`_plain`)."""
    return [[_plain(value) for value in row] for row in rows.itertuples(index=False)]


def _counts(rows: pd.DataFrame) -> dict[str, list]:
    """Per ruleset, its count's :data:`COUNT_FIELDS` in order (None where the run has no such column)."""
    return {row["ruleset"]: [_plain(row.get(field)) for field in COUNT_FIELDS] for row in rows.to_dict("records")}


def _rulesets(tables) -> dict[str, dict]:
    """What the board panel needs of each scored ruleset to shade the points it counts."""
    names = sorted(set(tables.run.scores["ruleset"].astype(str)))
    return {name: {"scoring": PRESETS[name].scoring, "seki_eyes": PRESETS[name].seki_tax == "none",
                   "owed": not PRESETS[name].refuse_owed} for name in names if name in PRESETS}


def _digits(data) -> str | None:
    """A stored int8 mask or board as a string of digits, one per point, row-major."""
    if data is None or (isinstance(data, float) and np.isnan(data)):
        return None
    return "".join(map(str, np.frombuffer(bytes(data), dtype=np.int8)))


def _moves(data) -> list[int]:
    """The stored main line flat (``kind, colour, row, col`` per event), or nothing."""
    if data is None or (isinstance(data, float) and np.isnan(data)):
        return []
    return np.frombuffer(bytes(data), dtype=np.int8).astype(int).tolist()


def _text(value) -> str | None:
    return value if isinstance(value, str) else None


def _number(value) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return None if np.isnan(number) else (int(number) if number.is_integer() else number)


def _plain(value):
    """A table cell as JSON holds it: a bool, an int or float, a string or None."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, float, np.number)):
        return _number(value)
    return value if isinstance(value, str) else None


def _page(collection: str) -> str:
    title = html.escape(f"rulelab explorer: {collection}")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body{{font-family:sans-serif;margin:0;display:flex;height:100vh;font-size:14px}}
#list{{flex:1 1 50%;overflow:auto;padding:.5rem 1rem;border-right:1px solid #ccc}}
#game{{flex:1 1 50%;overflow:auto;padding:.5rem 1rem}}
body.games #list{{flex:4 1 0}} body.games #game{{flex:1 1 0}}
body.games th{{white-space:normal}} body.games #rows td{{max-width:10rem;overflow:hidden;text-overflow:ellipsis}}
body.games #rows td:nth-child(6){{max-width:5rem}}
#game p{{margin:.3rem 0}}
table{{border-collapse:collapse;font-size:11px}}
td,th{{border:1px solid #ddd;padding:2px 4px;text-align:right;white-space:nowrap}}
body.games #rows td:nth-child(4){{text-align:left}}
th{{background:#f0f0f0;cursor:pointer;position:sticky;top:0}}
#rows tr{{cursor:pointer}} #rows tr:hover{{background:#eef}} #rows tr.open{{background:#dde}}
#filters label{{margin-right:.6rem;display:inline-block}} #filters select{{max-width:12rem}}
#counts td:first-child,#counts th:first-child,#facts th,#facts td{{text-align:left}}
#facts td{{white-space:normal;word-break:break-all}} #views a{{margin-right:1rem}} #views a.chosen{{font-weight:bold;color:#000;text-decoration:none}}
svg{{max-width:100%;height:auto}}
</style>
</head>
<body>
<div id="list">
<h1 style="font-size:1.2rem">{title}</h1>
<p><a href="index.html">Back to the report</a>. <span id="about"></span> The address holds the view
and its filters, so a view can be linked.</p>
<p id="views"></p>
<div id="filters"></div>
<p id="shown"></p>
<table><thead id="head"></thead><tbody id="rows"></tbody></table>
</div>
<div id="game"><p>Click a row to open its game.</p></div>
<script src="{DATA}"></script>
<script src="{SCRIPT}"></script>
</body>
</html>
"""
