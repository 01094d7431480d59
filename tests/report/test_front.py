"""The report's first screen, its links and the explorer's data, on the constructed run."""

import json
import re

import pandas as pd
import pytest
from analysis_tables import collection, preset_rows, score_row, write_run
from test_report import FAST, games_with_resignations

from rulelab.analysis.inputs import analysable_games
from rulelab.errors import InputError
from rulelab.report.blocks import Section, Text, Workspace
from rulelab.report.build import build_report, write_section
from rulelab.report.collection import collection_words
from rulelab.report.render import render_html
from rulelab.report.shared import ReportTables, Settings
from rulelab.report.summary import model_section


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    runs = tmp_path_factory.mktemp("runs")
    games, scores = games_with_resignations()
    run = write_run(runs / "run", games, scores)
    seeded = write_run(runs / "seed1", games, scores, seed=1)
    return build_report(run, tmp_path_factory.mktemp("report") / "report", seed_runs=(seeded,), **FAST).parent


def explorer_data(report) -> dict:
    text = (report / "explorer-data.js").read_text(encoding="utf-8")
    return json.loads(text.removeprefix("window.RULELAB_EXPLORER = ").removesuffix(";\n"))


def test_the_report_opens_with_the_headline_table(report):
    html = (report / "index.html").read_text(encoding="utf-8")
    assert html.index('id="summary"') < html.index('id="findings"')
    summary = pd.read_csv(report / "summary.csv")
    divergence = summary[summary["figure"].str.contains("different winners")]
    rates = pd.read_csv(report / "findings_rates.csv")
    assert len(divergence) == 3
    assert summary["figure"].str.startswith("Fair komi, 19x19").any()  # the main board's ...
    assert not summary["figure"].str.startswith("Fair komi, 9x9").any()  # fewer than 50 even 9x9 games
    assert divergence["games"].str.match(r"\[\d+ games\]\(explorer\.html#basis=\w+&pair=.+&even=1&n=\d+\)").all()
    assert set(summary["section"]) <= {"[Findings](#findings)", "[Komi](#komi)", "[Boards](#boards)",
                                       "[Why](#attribution)"}
    assert not rates.empty


def test_the_explorer_holds_every_disagreement_and_the_games_behind_them(report):
    data = explorer_data(report)
    attribution = pd.read_csv(report / "attribution.csv")
    rows = pd.DataFrame(data["rows"], columns=data["columns"])
    assert len(rows) == len(attribution)
    assert sorted(zip(rows.komi_basis, rows.game_id, rows.ruleset_a, rows.ruleset_b)) == sorted(
        zip(attribution.komi_basis, attribution.game_id, attribution.ruleset_a, attribution.ruleset_b))
    assert set(data["games"]) == set(attribution["game_id"])
    game = data["games"][rows.game_id.iloc[0]]
    assert len(game["board"]) == game["rows"] * game["cols"] and set(game["counts"]) == {"standard", "common"}


def test_links_in_text_and_tables_become_anchors_in_html():
    page = render_html([Section("s", "S", [Text("a [8.4%](explorer.html#pair=a&n=3) rate & more")])], "t")
    assert '<a href="explorer.html#pair=a&amp;n=3">8.4%</a> rate &amp; more' in page


def test_the_collection_is_named_for_what_it_holds(tmp_path):
    games, scores = games_with_resignations()
    tables = ReportTables.load(write_run(tmp_path / "mixed", games, scores), Settings())
    assert "16 online-server records; 1 engine games; on 19×19 (12), 9×9 (5)" in collection_words(tables)
    games["source"] = None
    tables = ReportTables.load(write_run(tmp_path / "titles", games, scores), Settings())
    assert "17 professional records" in collection_words(tables) and "online" not in collection_words(tables)
    model = " ".join(block.text for block in model_section(tables, Workspace(tmp_path / "out")).blocks
                     if isinstance(block, Text))
    assert "KGS" not in model and "Fox" not in model


def test_the_divergence_chart_gives_each_pair_its_interval_and_count():
    from rulelab.analysis.plots import plot_disagreement

    matrix = pd.DataFrame({"ruleset_a": ["chinese", "chinese", "japanese", "japanese"],
                           "ruleset_b": ["chinese", "japanese", "chinese", "japanese"],
                           "games": 40, "disagreements": [0, 4, 4, 0], "rate": [0, 0.1, 0.1, 0]})
    ax = plot_disagreement(matrix, title="t").axes[0]
    assert [label.get_text() for label in ax.get_yticklabels()] == ["chinese vs japanese  (4 of 40)"]
    (bar,) = ax.collections  # the interval: Wilson's for 4 of 40, 4.0%–23.1%
    (start, end), = bar.get_segments()[0][:, 0].reshape(1, 2)
    assert (round(start, 1), round(end, 1)) == (4.0, 23.1)


RATE = r"\d+(?:\.\d)?%"
LINKED = rf"\[{RATE}\]\(explorer\.html#[^)]*&n=\d+\)(?: \({RATE}–{RATE}\))?"
"""A rate linked to the explorer's rows, with its interval."""


def unbacked_rates(findings: str, report) -> list[str]:
    """The rates of the findings that neither link to the explorer nor are values of a table
    their paragraph names (``findings_parity.csv``, ...), each with its paragraph's start."""
    unbacked = []
    for paragraph in findings.split("\n\n"):
        left = re.sub(LINKED, "", paragraph).replace("Intervals are 95%", "")
        rates = re.findall(RATE, left)
        if not rates:
            continue
        tables = [pd.read_csv(report / name) for name in re.findall(r"\b\w+\.csv\b", paragraph)]
        values = {f"{min(max(value, 0.0), 1.0):.1%}" for table in tables
                  for column in table.select_dtypes("float") for value in table[column].dropna()}
        unbacked += [f"{rate} in {paragraph[:40]!r}" for rate in rates if rate not in values]
    return unbacked


def test_every_rate_of_the_findings_links_to_the_explorer_or_to_the_table_holding_it(report):
    markdown = (report / "report.md").read_text(encoding="utf-8")
    findings = markdown[markdown.index("## Findings"):markdown.index("\n## ", markdown.index("## Findings") + 1)]
    linked = re.findall(LINKED, findings)
    assert linked and any("view=games" in link for link in linked) and any("view=games" not in link
                                                                            for link in linked)
    tabled = [p for p in findings.split("\n\n") if re.findall(RATE, re.sub(LINKED, "", p)) and ".csv" in p]
    assert {p.split(" ")[0] for p in tabled} == {"Parity,", "Dead-stone"}
    assert unbacked_rates(findings, report) == []
    # a rate its table does not hold, or in a paragraph naming no table, is caught
    assert unbacked_rates(tabled[0] + " and 12.3%", report) == [f"12.3% in {tabled[0][:40]!r}"]
    assert len(unbacked_rates("A rate of 50.0% (40.0%–60.0%) somewhere.", report)) == 3
    summary = pd.read_csv(report / "summary.csv").fillna("")
    rates = summary[summary["value"].str.endswith("%")]
    assert rates["games"].str.match(r"\[[\d,]+ (games|rows)\]\(explorer\.html#.+&n=\d+\)").all()


def test_the_sensitivity_and_today_s_komi_name_the_table_holding_their_rates(tmp_path):
    games, scores = collection()
    misread = score_row("g_agree", "japanese", "territory", 6.5, komi_source="record", stones=(40, 30),
                        surrounded=(20, 5), prisoners=(10, 0))  # B+28.5 against the record's B+0.5
    era = (scores.game_id == "g_last_dame") & (scores.ruleset == "japanese")  # 1990: komi 5.5
    scores.loc[era, ["komi", "margin"]] = [5.5, float(scores.loc[era, "margin_before_komi"].iloc[0]) - 5.5]
    run = write_run(tmp_path / "run", games, pd.concat([scores, pd.DataFrame([misread])], ignore_index=True))
    findings = write_section("findings", run, tmp_path / "out", n_boot=0).read_text(encoding="utf-8")
    assert "Sensitivity (findings_rates.csv, subset 'outliers kept')" in findings
    assert "Today's komi, a counterfactual kept apart from the standard basis (findings_rates.csv" in findings
    assert unbacked_rates(findings, tmp_path / "out") == []


def test_the_games_view_holds_one_row_per_analysable_game(report):
    data = explorer_data(report)
    rows = pd.DataFrame(data["game_rows"], columns=data["game_columns"])
    games, _ = games_with_resignations()
    assert sorted(rows["game_id"]) == sorted(analysable_games(games)["game_id"])
    assert set(rows["settled"].dropna()) <= {0, 1} and rows["game_id"].is_unique
    sources = rows["source"].map(dict(enumerate(data["game_values"]["source"])))
    assert (sources == rows["game_id"].map(games.drop_duplicates("game_id").set_index("game_id")["source"]
                                           .fillna("unknown"))).all()


def runs_on_both_bases(folder) -> tuple:
    """The constructed collection as KGS records, counted on finished boards and as the boards
    stand: on the board as it stands g_last_dame has one dame open on White's side (Black's area
    one point more: Chinese names Black, as Japanese does), so the two bases' rates differ."""
    games, scores = collection()
    games["source"] = "kgs"
    standing = pd.concat([scores[scores["game_id"] != "g_last_dame"], pd.DataFrame(
        preset_rows("g_last_dame", stones=(40, 35), surrounded=(3, 0), prisoners=(6, 2), dame=1))],
        ignore_index=True)
    return (write_run(folder / "finished", games, scores, finish="play"),
            write_run(folder / "as-stands", games, standing, finish="none"))


def test_the_rates_are_on_the_finished_boards_and_as_they_stand_a_sensitivity_row(tmp_path):
    """Every rate of the findings comes from the run counted on finished boards, the as-stands
    run's beside it (findings_rates.csv, subset 'as it stands'); a plain query of the compared
    view gives each basis's pair rates to the last digit, on its own run."""
    import rulelab

    finished, standing = runs_on_both_bases(tmp_path)
    text = write_section("findings", finished, tmp_path / "out", as_stands=standing, n_boot=0).read_text()
    assert "counted on the finished boards" in text and "The board as it stands, a sensitivity row" in text
    assert unbacked_rates(text, tmp_path / "out") == []
    rates = pd.read_csv(tmp_path / "out" / "findings_rates.csv")
    rates = rates[(rates["band"] == "all") & (rates["pair"] != "any") & rates["komi_basis"].isin(["standard", "common"])]
    parity = pd.read_csv(tmp_path / "out" / "findings_parity.csv")
    assert sorted(set(parity["basis"])) == ["none", "play"]
    by_subset = {}
    for subset, run in (("all", finished), ("as it stands", standing)):
        mine = rates[rates["subset"] == subset]
        for basis, winner in (("standard", "winner"), ("common", "winner_common")):
            expected = mine[mine["komi_basis"] == basis]
            expected = expected.set_index(expected["pair"].str.replace("–", "-"))
            with rulelab.connect(run) as con:
                got = con.sql(f"SELECT a.ruleset || '-' || b.ruleset AS pair, count(*) AS games, "
                              f"sum((a.{winner} <> b.{winner})::INT) AS disagreements FROM compared a JOIN compared b "
                              "USING (game_id) WHERE a.game_kind = 'even' AND (a.ruleset, b.ruleset) IN "
                              "(('chinese', 'japanese'), ('chinese', 'ing'), ('japanese', 'ing')) GROUP BY ALL"
                              ).df().set_index("pair")
            pd.testing.assert_frame_equal(got.reindex(expected.index), expected[["games", "disagreements"]],
                                          check_dtype=False, check_names=False)
        by_subset[subset] = mine.set_index(["komi_basis", "pair"])["disagreements"]
    assert by_subset["all"]["standard", "chinese–japanese"] == by_subset["as it stands"]["standard", "chinese–japanese"] + 1
    summary_section = write_section("summary", finished, tmp_path / "front", as_stands=standing, n_boot=0)
    summary = pd.read_csv(tmp_path / "front" / "summary.csv")
    assert summary_section.exists() and summary["as the board stands (sensitivity)"].notna().sum() == 3
    with pytest.raises(InputError, match="counted on the board as it stands"):
        write_section("findings", finished, tmp_path / "again", as_stands=finished)
