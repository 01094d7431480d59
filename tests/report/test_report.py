"""The report end to end on constructed run folders, and the board diagrams it draws."""

import json
import re
import shutil

import numpy as np
import pandas as pd
import pytest
from analysis_tables import collection, write_run

from rulelab.analysis import compare_published, komi_outcomes
from rulelab.analysis.diagrams import draw_board, neutral_points, points_that_differ
from rulelab.analysis.strata import GAME_KINDS
from rulelab.errors import InputError
from rulelab.position import board_from_diagram
from rulelab.report.build import build_report, write_section
from rulelab.report.sections import SECTIONS

FAST = dict(n_boot=40, examples_per_cause=1)


def games_with_resignations() -> tuple[pd.DataFrame, pd.DataFrame]:
    """The constructed collection plus 12 records (komi 5.5, 1976–1987) that ended by
    resignation or a count and have no scores rows: the record-based komi analyses
    then see both counted and censored games."""
    games, scores = collection()
    extra = games.iloc[[0] * 12].copy()
    extra["game_id"] = [f"r{k:02d}" for k in range(12)]
    extra["komi"] = 5.5
    extra["year"] = 1976 + np.arange(12)
    extra["result_kind"] = ["resign"] * 6 + ["counted"] * 6
    extra["result_winner"] = ["B", "W", "B", "B", "W", "B", "B", "W", "B", "W", "B", "W"]
    extra["result_margin"] = [None] * 6 + [0.5, 2.5, 4.5, 0.5, 10.5, 6.5]
    extra["board_rows"] = extra["board_cols"] = 19
    extra["board"] = [np.zeros(361, dtype=np.int8).tobytes()] * 12
    return pd.concat([games, extra], ignore_index=True), scores


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return write_run(tmp_path_factory.mktemp("run") / "run", *games_with_resignations())


def files(folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.slow
def test_report_builds_and_is_byte_identical_twice(run, tmp_path):
    first = build_report(run, tmp_path / "one", **FAST).parent
    second = build_report(run, tmp_path / "two", **FAST).parent
    built = files(first)
    assert built == files(second)
    assert {"index.html", "report.md", "divergence_matrix_standard.png", "divergence_matrix_common.png",
            "komi_curves.png", "attribution.csv", "published.csv", "fair_komi.csv"} <= set(built)
    markdown = built["report.md"].decode()
    for referenced in set(re.findall(r"\(([\w.-]+\.png)\)", markdown)) | set(
            re.findall(r"(?:all|rows) in ([\w.-]+\.csv)", markdown)):
        assert referenced in built, referenced
    html = built["index.html"].decode()
    assert all(f'id="{key}"' in html for key in SECTIONS)
    assert str(tmp_path) not in markdown + html  # nothing depends on where folders lie


def test_report_names_every_input_and_its_provenance(run, tmp_path):
    write_section("provenance", run, tmp_path)
    text = (tmp_path / "provenance.md").read_text()
    inputs = pd.read_csv(tmp_path / "inputs.csv")
    assert inputs.file.tolist() == ["games.parquet", "scores.parquet"]
    assert all(digest in text for digest in inputs.sha256)


def test_report_leaves_out_how_long_the_run_took(run, tmp_path):
    copy = shutil.copytree(run, tmp_path / "run")
    write_section("provenance", copy, tmp_path / "first")
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["timings"] = {"ingest_seconds": 12.3, "games_per_second": 456.7}
    (copy / "manifest.json").write_text(json.dumps(manifest))
    write_section("provenance", copy, tmp_path / "second")
    first, second = (tmp_path / d / "provenance.md" for d in ("first", "second"))
    assert first.read_bytes() == second.read_bytes()


def test_one_part_writes_its_files_and_markdown(run, tmp_path):
    path = write_section("attribution", run, tmp_path)
    assert path.name == "attribution.md"
    table = pd.read_csv(tmp_path / "attribution.csv")
    assert len(table[table.komi_basis == "standard"]) == 13 and (table.part_unexplained == 0).all()
    assert "Largest gap between the sum of the parts and the difference, on every kind: 0 points" in path.read_text()
    kinds = table["game_kind"].tolist()  # even games first, then each other kind in its own rows
    assert kinds[0] == "even" and "handicap" in kinds and kinds == sorted(kinds, key=GAME_KINDS.index)
    summary = pd.read_csv(tmp_path / "cause_summary.csv")
    assert summary["game_kind"].tolist() == sorted(summary["game_kind"], key=GAME_KINDS.index)
    with pytest.raises(InputError, match="report part must be one of"):
        write_section("everything", run, tmp_path)


def test_report_refuses_to_write_inside_the_run_folder(run):
    with pytest.raises(InputError, match="outside the run folder"):
        build_report(run, run / "report")


def test_report_builds_from_games_alone_saying_which_part_it_is_on(tmp_path, monkeypatch, capsys):
    from rulelab import ticker

    games, scores = games_with_resignations()
    folder = write_run(tmp_path / "run", games, scores.iloc[:0])
    monkeypatch.setattr(ticker, "LINE_EVERY", 0.01)
    index = build_report(folder, tmp_path / "out", **FAST)
    assert re.search(r"^rulelab: building the report: part \d+ of \d+ \(\w+\) \(\d+ s\)$",
                     capsys.readouterr().err, re.MULTILINE)
    text = (index.parent / "report.md").read_text()
    assert "Not shown: no game is both settled and scored" in text
    assert pd.read_csv(index.parent / "published.csv").games.iloc[0] == 12


def test_settings_are_checked():
    with pytest.raises(InputError, match="'n_boot'"):
        build_report("unused", "unused", n_boot=-1)


def test_published_comparison_says_where_the_figure_lies():
    games, _ = games_with_resignations()
    outcomes = komi_outcomes(games)
    table = compare_published(outcomes).set_index("key")
    row = table.loc["japan_pro_5.5_from_1975"]
    assert (row.games, row.rulelab) == (12, 7 / 12)
    assert row.low <= 0.53 <= row.high and "inside" in row.sentence
    flips = table.loc["gogod_2002_6.5_counterfactual"]
    assert flips.rulelab == pytest.approx(6 / 12)  # the one B+0.5 result flips


# --- board diagrams -----------------------------------------------------------------

SEKI = board_from_diagram("""
    . X O . O
    X X O O O
    X . X O .
    X X X O O
    . X O O .
""")


def test_neutral_points_are_empty_regions_touching_both_colours():
    assert neutral_points(SEKI).astype(int).tolist()[0] == [0, 0, 0, 0, 0]
    dame = board_from_diagram("X . O\nX . O\nX . O")
    assert neutral_points(dame)[:, 1].all()
    dead = np.zeros(dame.shape, dtype=bool)
    dead[:, 2] = True  # with White's stones removed the middle column is Black's
    assert not neutral_points(dame, dead).any()


def test_the_seki_eyes_marked_are_the_points_the_scorer_classed_so():
    from rulelab.position import Life, Position
    from rulelab.scoring import SEKI_POINT_B, SEKI_POINT_W, classify_points

    position = Position.from_diagram("""
        . X . O . O X
        X X X O O O X
        O O O X X X X
        . . O X . . .
    """)  # one eye each, (0, 0) and (0, 4), and the shared liberty (0, 2)
    classes = classify_points(position, Life.all_alive(position.board)).classes
    eyes = points_that_differ(position.board, "seki_eyes", classes=classes)
    assert np.argwhere(eyes).tolist() == [[0, 0], [0, 4]]
    assert np.isin(classes[eyes], (SEKI_POINT_B, SEKI_POINT_W)).all()
    assert not points_that_differ(position.board, "seki_eyes").any()  # no classes, nothing to mark
    assert not points_that_differ(position.board, "komi", classes=classes).any()


def test_draw_board_checks_masks_and_board():
    figure = draw_board(SEKI, title="seki", marks=neutral_points(SEKI), seki=SEKI > 0)
    assert figure.axes[0].get_title() == "seki"
    with pytest.raises(InputError, match="'dead' mask"):
        draw_board(SEKI, title="x", dead=np.zeros((2, 2), dtype=bool))
    with pytest.raises(InputError, match="0, 1 and 2"):
        neutral_points(np.full((3, 3), 5))


def test_marks_are_the_points_the_scorer_counted():
    from rulelab.position import Life, Position
    from rulelab.scoring import classify_points

    # Straight fours: no protective move once the dame are filled (a straight three
    # would owe its vital point).
    position = Position.from_diagram("""
        . X . O .
        . X . O .
        . X . O .
        . X . O .
    """)
    classes = classify_points(position, Life.all_alive(position.board)).classes
    dame = points_that_differ(position.board, "dame_filling", classes=classes)
    assert dame.tolist() == [[False, False, True, False, False]] * 4
    assert not points_that_differ(position.board, "protective_moves", classes=classes).any()


@pytest.mark.slow
def test_report_builds_end_to_end_from_records(kgs_run, tmp_path):
    """Records → ingest → life → scores → report, on 60 real KGS games (counted and resigned)."""
    index = build_report(kgs_run, tmp_path / "report", **FAST)
    assert len(pd.read_parquet(kgs_run / "games.parquet")) == 60
    built = files(index.parent)
    assert {"report.md", "divergence_matrix_common.png", "komi_curves.png", "rulesets.csv"} <= set(built)
    assert b"kgs" in built["report.md"]


def test_the_komi_figures_are_those_of_the_accessor_and_the_sql_view(run, tmp_path):
    """The obvious query gives the report's number: df.go and the komi_games view."""
    import rulelab
    import rulelab.analysis  # noqa: F401  (registers df.go)

    write_section("komi", run, tmp_path, **FAST)
    report = pd.read_csv(tmp_path / "fair_komi.csv")
    tables = rulelab.analysis.read_run(run)
    games, scores = tables.games, tables.scores
    for row in report.to_dict("records"):
        source = games.go.fair_komi() if row["ruleset"] == "record" else scores.go.fair_komi(games, row["ruleset"])
        mine = pd.DataFrame(source).iloc[0]
        assert (mine["games"], mine["identified"]) == (row["games"], row["identified"])
        assert np.allclose([mine["ci_low"], mine["ci_high"]], [row["ci_low"], row["ci_high"]], equal_nan=True)
    by_komi = pd.read_csv(tmp_path / "komi_in_force.csv")
    by_komi = by_komi[by_komi["ruleset"] == "record"][["komi", "games", "black_points"]].reset_index(drop=True)
    with rulelab.connect(run) as con:
        got = con.sql("SELECT komi, count(*) AS games, sum(black_points) AS black_points FROM komi_games "
                      "GROUP BY komi ORDER BY komi").df()
    assert len(by_komi) > 0
    pd.testing.assert_frame_equal(got, by_komi, check_dtype=False)


@pytest.mark.parametrize("basis, winner", [("standard", "winner"), ("common", "winner_common")])
def test_the_compared_view_gives_the_reports_disagreements(run, basis, winner):
    import rulelab
    from rulelab.analysis.divergence import disagreement_matrix

    tables = rulelab.analysis.read_run(run)
    matrix = pd.concat([disagreement_matrix(tables.scores, tables.games, komi_basis=basis, kind=kind)
                        .assign(game_kind=kind) for kind in GAME_KINDS], ignore_index=True)
    matrix = matrix[(matrix["ruleset_a"] < matrix["ruleset_b"]) & (matrix["games"] > 0)]
    keys = ["game_kind", "ruleset_a", "ruleset_b"]
    expected = matrix[[*keys, "games", "disagreements"]].sort_values(keys)
    with rulelab.connect(run) as con:
        got = con.sql(f"SELECT a.game_kind, a.ruleset AS ruleset_a, b.ruleset AS ruleset_b, count(*) AS games, "
                      f"sum((a.{winner} <> b.{winner})::INT) AS disagreements FROM compared a JOIN compared b "
                      "USING (game_id) WHERE a.ruleset < b.ruleset GROUP BY ALL ORDER BY ALL").df()
    assert expected["disagreements"].sum() > 0
    pd.testing.assert_frame_equal(got, expected.reset_index(drop=True), check_dtype=False)


@pytest.mark.parametrize("basis, winner", [("standard", "winner"), ("common", "winner_common")])
def test_a_plain_query_of_the_compared_view_gives_the_headline_pair_rates(run, basis, winner):
    """The findings compare even games: ``WHERE game_kind = 'even'`` gives their pair rates
    to the last digit, and ``record_gap = 0`` those on the games reproduced exactly."""
    import rulelab
    from rulelab.analysis.findings import pair_rates

    tables = rulelab.analysis.read_run(run)
    for where, within in (("", None), ("AND a.record_gap = 0", 0.0)):
        rates = pair_rates(tables.scores, tables.games, kind="even", within=within)
        rates = rates[(rates["band"] == "all") & (rates["pair"] != "any")
                      & ((rates["komi_basis"] == "common") == (basis == "common"))]
        expected = rates.assign(pair=rates["pair"].str.replace("–", "-"))[["pair", "games", "disagreements"]]
        with rulelab.connect(run) as con:
            got = con.sql(f"SELECT a.ruleset || '-' || b.ruleset AS pair, count(*) AS games, "
                          f"sum((a.{winner} <> b.{winner})::INT) AS disagreements FROM compared a JOIN compared b "
                          f"USING (game_id) WHERE a.game_kind = 'even' {where} AND (a.ruleset, b.ruleset) IN "
                          "(('chinese', 'japanese'), ('chinese', 'ing'), ('japanese', 'ing')) GROUP BY ALL").df()
        got = got.set_index("pair").reindex(expected["pair"]).reset_index()
        assert within is not None or expected["games"].sum() > 0
        pd.testing.assert_frame_equal(got, expected.reset_index(drop=True), check_dtype=False)


def test_no_komi_records_face_the_outlier_rule():
    """A counted record without komi is tested on its margin itself (the margin before komi)."""
    from rulelab.analysis.selection import record_gaps

    games = pd.DataFrame({"game_id": ["a", "b"], "status": "ok", "result_kind": "counted",
                          "result_winner": ["B", "B"], "result_margin": [4.0, 4.5], "komi": [np.nan, np.nan]})
    scores = pd.DataFrame({"game_id": ["a", "b"], "komi_source": "record", "margin_before_komi": [4.0, -35.5]})
    gaps = record_gaps(scores, games)
    assert gaps["gap"].tolist() == [0.0, -40.0] and gaps["outlier"].tolist() == [False, True]
