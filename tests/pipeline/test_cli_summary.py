"""What the command line tells a person at the end of a run, and what it offers in --help."""

import json

import pytest

from rulelab.cli import main
from rulelab.rules import PRESETS
from test_score_run import WALLS


@pytest.fixture
def collection(tmp_path):
    """Two copies of one good record, and four broken ones."""
    files = {"good.sgf": WALLS, "copy.sgf": WALLS,
             **{f"broken{k}.sgf": f"(;GM[1]SZ[5]C[{k}];B[zz" for k in range(4)}}
    for name, text in files.items():
        (tmp_path / "games").mkdir(exist_ok=True)
        (tmp_path / "games" / name).write_text(text)
    return tmp_path / "games"


def test_score_ends_with_a_summary_naming_failures_and_tables(collection, tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["score", str(collection), "--out", str(out), "--jobs", "1"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("6 games found: 2 ok, 4 failed, 1 copy of another record (")
    failures = [line for line in printed.splitlines() if "parse_error" in line]
    assert len(failures) == 1 and "4" in failures[0]
    assert failures[0].count("broken") == 3 and failures[0].endswith(", ...")
    assert f"{out / 'games.parquet'}  (6 rows)" in printed
    assert f"{out / 'scores.parquet'}  ({2 * (len(PRESETS) + 1)} rows)" in printed


def test_json_keeps_the_machine_readable_counts(collection, tmp_path, capsys):
    assert main(["ingest", str(collection), "--out", str(tmp_path / "run"), "--jobs", "1", "--json"]) == 0
    counts = json.loads(capsys.readouterr().out)
    assert counts["games_found"] == 6 and counts["by_status"] == {"ok": 2, "parse_error": 4}


@pytest.mark.parametrize("command", [[], ["score"], ["validate"]])
def test_help_lists_rulesets_life_methods_and_engines(command, capsys):
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    shown = capsys.readouterr().out
    assert all(name in shown for name in PRESETS)
    assert "life methods (--life): auto, estimate, markup, gnugo" in shown
    assert "engines (--engine): local, dask" in shown


def test_report_builds_the_report_of_a_run(collection, tmp_path, capsys, monkeypatch):
    built, standing_runs, seeded = [], [], []
    monkeypatch.setattr("rulelab.report.build.build_report",
                        lambda run, out, as_stands=None, seed_runs=(): built.append((run, out))
                        or standing_runs.append(as_stands) or seeded.append(seed_runs) or out / "index.html")
    run = tmp_path / "run"
    run.mkdir()
    for table in ("games.parquet", "scores.parquet"):
        (run / table).touch()
    assert main(["report", str(run)]) == 0
    assert built == [(run, tmp_path / "run-report")]
    assert main(["report", str(run), str(tmp_path / "elsewhere")]) == 0
    assert built[-1] == (run, tmp_path / "elsewhere")
    standing = tmp_path / "as-stands"
    standing.mkdir()
    for table in ("games.parquet", "scores.parquet"):
        (standing / table).touch()
    assert main(["report", str(run), str(tmp_path / "elsewhere"), "--as-stands", str(standing)]) == 0
    assert standing_runs == [None, None, standing]
    assert main(["report", str(run), str(tmp_path / "elsewhere"), "--seed-runs", str(standing), str(standing)]) == 0
    assert seeded == [(), (), (), (standing, standing)]
    assert capsys.readouterr().out.startswith(f"report: {tmp_path / 'run-report' / 'index.html'}")


def test_make_prints_its_stages_and_builds_the_report_with_the_cli():
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    plan = subprocess.run(["make", "-n", "-B", "install", "analysis"], cwd=root, capture_output=True,
                          text=True, check=True).stdout
    for stage in ("==> installing rulelab", "==> scoring", "==> building the report"):
        assert stage in plan
    assert "rulelab report cache/run reports" in plan and "--seed-runs" in plan and "--seed $seed" in plan
    assert "analyses.counted_on cache/run" in plan and "--finish none" in plan and "--as-stands" in plan
    assert plan.count("--finish play") == 2  # the run and its seed runs: the rates are on finished boards
    assert "pip install -e" in plan and "--quiet -e" not in plan  # pip's own progress shows
    assert "compile_kernels()" in plan  # so that a first run starts at once


def test_validate_ends_with_the_run_summary_or_its_json(collection, tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["validate", str(collection), "--out", str(out), "--jobs", "1"]) == 0
    printed = capsys.readouterr().out
    assert "6 games found: 2 ok, 4 failed" in printed and f"{out}/validation.parquet" in printed
    assert main(["validate", str(collection), "--out", str(out), "--jobs", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["agreement"]


@pytest.mark.parametrize("command, message", [
    (["score", "nosuch/", "--out", "RUN"], "nosuch/: no such file or folder"),
    (["ingest", "nosuch/", "--out", "RUN"], "nosuch/: no such file or folder"),
    (["validate", "nosuch/"], "nosuch/: no such file or folder"),
    (["report", "nosuch/"], "The run folder must be an existing directory; got 'nosuch/'."),
])
def test_a_missing_path_is_one_line_and_status_2_before_anything_is_written(
        command, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(command) == 2
    shown = capsys.readouterr()
    assert shown.err == f"rulelab: {message}\n" and shown.out == ""
    assert list(tmp_path.iterdir()) == []


def test_inputs_with_no_game_record_are_refused_and_the_tables_kept(collection, tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["score", str(collection), "--out", str(out), "--jobs", "1"]) == 0
    tables = {path: path.read_bytes() for path in out.glob("*.*")}
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "readme.txt").write_text("no games here")
    capsys.readouterr()
    assert main(["score", str(tmp_path / "notes"), "--out", str(out), "--jobs", "1", "--force"]) == 2
    assert capsys.readouterr().err == (f"rulelab: no game record in {tmp_path / 'notes'}: no .sgf or .mgt "
                                       "file, and no archive holding one\n")
    assert {path: path.read_bytes() for path in out.glob("*.*")} == tables


@pytest.mark.parametrize("corpus", ["nosuch", "empty"])
def test_make_analysis_of_a_missing_or_empty_corpus_leaves_the_run_and_report(corpus, tmp_path):
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    kept = {tmp_path / "run" / "games.parquet": b"a run", tmp_path / "report" / "index.html": b"a report"}
    for path, content in kept.items():
        path.parent.mkdir()
        path.write_bytes(content)
    (tmp_path / "empty").mkdir()
    done = subprocess.run(["make", "-s", "-o", ".venv/.installed", "analysis", f"CORPUS={tmp_path / corpus}",
                           f"RUN={tmp_path / 'run'}", f"REPORT={tmp_path / 'report'}"],
                          cwd=root, capture_output=True, text=True)
    assert done.returncode != 0
    assert len([line for line in done.stderr.splitlines() if line.startswith("rulelab: ")]) == 1
    assert {path: path.read_bytes() for path in kept} == kept
    assert sorted(path.name for path in (tmp_path / "report").iterdir()) == ["index.html"]


@pytest.mark.parametrize("command", [[], ["ingest"], ["score"], ["validate"], ["sql"], ["report"]])
def test_help_describes_each_command_in_plain_text(command, capsys):
    from rulelab.cli import build_parser

    with pytest.raises(SystemExit):
        main([*command, "--help"])
    shown = capsys.readouterr().out
    assert "``" not in shown
    parser = build_parser()
    described = parser if not command else parser._subparsers._group_actions[0].choices[command[0]]
    assert described.description and described.description in " ".join(shown.split())


@pytest.mark.parametrize("options, message", [
    (["--komi", "1000"], "The 'komi' to score every game at must lie within ±361"),
    (["--komi", "-400"], "The 'komi' to score every game at must lie within ±361"),
    (["--rules", ""], "Unknown ruleset ''"),
])
def test_a_komi_beyond_a_board_or_no_ruleset_is_one_line(options, message, collection, tmp_path, capsys):
    assert main(["score", str(collection), "--out", str(tmp_path / "run"), *options]) == 2
    shown = capsys.readouterr().err
    assert shown.startswith(f"rulelab: {message}") and shown.count("\n") == 1
    assert not (tmp_path / "run").exists()


def test_an_empty_list_of_rules_is_refused_not_taken_for_every_preset():
    from rulelab.errors import RulesError
    from rulelab.pipeline.score import resolve_rulesets

    with pytest.raises(RulesError, match="names no ruleset; leave it out to score every preset"):
        resolve_rulesets([], None)
    assert len(resolve_rulesets(None, None)) == len(PRESETS)


def test_sql_into_a_reader_that_stops_early_ends_quietly(collection, tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    assert main(["score", str(collection), "--out", str(tmp_path / "run"), "--jobs", "1"]) == 0
    rulelab = Path(sys.executable).with_name("rulelab")
    with subprocess.Popen([rulelab, "sql", tmp_path / "run", "SELECT range FROM range(300000)"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout.readline().strip() == b"range"
        process.stdout.close()  # as head does after its lines
        assert process.stderr.read() == b""
    assert process.returncode == 141


def test_control_characters_in_names_are_printed_escaped(tmp_path, capsys):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "\x1b[2J.sgf").write_text("(;GM[1]SZ[5];B[zz")
    assert main(["ingest", str(tmp_path / "games"), "--out", str(tmp_path / "run\x1b[31m"), "--jobs", "1"]) == 0
    printed = capsys.readouterr()
    assert "\x1b" not in printed.out + printed.err
    assert "\\x1b[2J.sgf" in printed.out and "run\\x1b[31m" in printed.out
    assert main(["ingest", str(tmp_path / "nowhere\x1b[2J"), "--out", str(tmp_path / "other"), "--jobs", "1"]) == 2
    assert "nowhere\\x1b[2J" in capsys.readouterr().err
