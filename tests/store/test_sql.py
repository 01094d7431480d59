"""rulelab.store.sql: DuckDB views over a run folder."""

import os

import pandas as pd
import pytest
from analysis_tables import collection, write_run

from rulelab.errors import InputError
from rulelab.store.sql import connect, query


@pytest.fixture
def run(tmp_path):
    games, scores = collection()
    return write_run(tmp_path / "run", games, scores)


def test_views_join_games_and_scores(run):
    answer = query(run, "SELECT g.source, count(*) AS n FROM scores s JOIN games g USING (game_id) "
                        "WHERE s.ruleset = 'japanese' GROUP BY g.source ORDER BY g.source")
    assert answer.to_dict("list") == {"source": ["fox", "gnugo", "kgs"], "n": [1, 1, 3]}


def test_query_answers_what_pandas_answers(run):
    scores = pd.read_parquet(run / "scores.parquet")
    expected = scores[scores.winner == "W"].groupby("ruleset").size().sort_index()
    answer = query(run, "SELECT ruleset, count(*) AS n FROM scores WHERE winner = 'W' "
                        "GROUP BY ruleset ORDER BY ruleset").set_index("ruleset")["n"]
    assert answer.to_dict() == expected.to_dict()


def test_connection_reads_files_in_place_and_closes(run):
    with connect(run) as con:
        assert con.execute("SELECT count(*) FROM games").fetchone() == (5,)
        assert {r[0] for r in con.execute("SHOW TABLES").fetchall()} == {"games", "scores", "all_games", "all_scores",
                                                                         "komi_games", "compared"}


def test_a_life_table_is_a_view_and_opens_no_other_file(run):
    import pyarrow as pa
    import pyarrow.parquet as pq

    from rulelab.store.life import LIFE_SCHEMA

    row = {name: None for name in LIFE_SCHEMA.names} | {"game_id": "g1", "life_method": "markup"}
    pq.write_table(pa.Table.from_pylist([row], schema=LIFE_SCHEMA), run / "life.parquet")
    with connect(run) as con:
        assert {r[0] for r in con.execute("SHOW TABLES").fetchall()} >= {"life", "all_life"}
        assert con.execute("SELECT life_method FROM life").fetchall() == [("markup",)]
    with pytest.raises(InputError, match="DuckDB could not run"):
        query(run, f"SELECT * FROM read_parquet('{run}/../elsewhere.parquet')")


def test_path_with_a_quote_is_safe(tmp_path):
    games, scores = collection()
    folder = write_run(tmp_path / "it's a run", games, scores)
    assert query(folder, "SELECT count(*) AS n FROM scores")["n"].iloc[0] == len(scores)


def test_a_missing_games_table_is_an_input_error(run):
    (run / "games.parquet").unlink()
    with pytest.raises(InputError, match="games.parquet"):
        connect(run)


def test_a_run_folder_holding_only_games_can_be_queried(run):
    (run / "scores.parquet").unlink()
    assert query(run, "SELECT count(*) AS n FROM games")["n"].iloc[0] > 0
    with pytest.raises(InputError, match="scores does not exist"):
        query(run, "SELECT * FROM scores")


@pytest.mark.parametrize("kind", ["link", "fifo"])
def test_a_table_that_is_no_regular_file_is_refused_unread(run, tmp_path, kind):
    (run / "scores.parquet").unlink()
    if kind == "link":
        (run / "scores.parquet").symlink_to("/dev/zero")
    else:
        os.mkfifo(run / "scores.parquet")
    with pytest.raises(InputError, match="scores.parquet is not a regular file"):
        connect(run)


def test_a_query_past_its_time_limit_is_stopped_in_one_error(run):
    with pytest.raises(InputError, match="ran past its time limit of 0.2 s"):
        query(run, "SELECT count(*) FROM range(1000000) a, range(1000000) b", time_limit=0.2)


def test_a_query_needing_more_memory_than_the_limit_ends_in_one_error(run):
    with pytest.raises(InputError, match="Out of Memory"):
        query(run, "SELECT len(list(i)) FROM range(300000000) t(i)")


def test_missing_folder_and_bad_sql_are_input_errors(run, tmp_path):
    with pytest.raises(InputError, match="existing directory"):
        query(tmp_path / "absent", "SELECT 1")
    with pytest.raises(InputError, match="DuckDB could not run"):
        query(run, "SELECT nonsense FROM scores")
    with pytest.raises(InputError, match="non-empty"):
        query(run, "  ")


# --- no file beyond the run's tables ----------------------------------------------------


@pytest.mark.parametrize("sql", [
    "SELECT * FROM read_csv('/etc/passwd')",
    "SELECT * FROM glob('/etc/*')",
    "SELECT * FROM read_text('/etc/hostname')",
    "COPY (SELECT 1 AS x) TO '{run}/games.parquet'",
    "COPY (SELECT 1 AS x) TO '{run}/../stolen.csv'",
    "ATTACH '{run}/../other.db'",
    "INSTALL httpfs",
    "LOAD httpfs",
    "SET enable_external_access = true",
    "SELECT 1; SELECT 2",
    "CREATE TABLE t AS SELECT 1",
])
def test_sql_cannot_touch_a_file_outside_the_run_tables(run, sql):
    before = {path.name: path.read_bytes() for path in run.parent.rglob("*") if path.is_file()}
    with pytest.raises(InputError, match="DuckDB could not run|one SELECT statement per call"):
        query(run, sql.format(run=run))
    after = {path.name: path.read_bytes() for path in run.parent.rglob("*") if path.is_file()}
    assert after == before


def test_a_connection_stays_locked_whatever_it_is_told(run):
    table = (run / "games.parquet").read_bytes()
    with connect(run) as con:
        for sql in ("SET enable_external_access = true", "SET lock_configuration = false",
                    "SELECT * FROM read_csv('/etc/passwd')", "INSTALL httpfs", "LOAD httpfs",
                    f"COPY (SELECT 1 AS x) TO '{run}/games.parquet'", f"ATTACH '{run}/other.db'"):
            with pytest.raises(Exception, match="configuration|disabled"):
                con.execute(sql)
        assert con.execute("SELECT count(*) FROM games").fetchone() == (5,)
    assert (run / "games.parquet").read_bytes() == table and not (run / "other.db").exists()


def test_allow_files_lets_a_query_read_other_files(run, tmp_path):
    pd.DataFrame({"x": [7]}).to_csv(tmp_path / "extra.csv", index=False)
    answer = query(run, f"SELECT x FROM read_csv('{tmp_path}/extra.csv')", allow_files=True)
    assert answer["x"].tolist() == [7]


@pytest.mark.parametrize("allow_files", [False, True])
@pytest.mark.parametrize("name", ["b[c]", "run?", "r*n"])
def test_a_run_folder_named_with_glob_characters_reads_its_own_tables_only(name, allow_files, tmp_path):
    for folder in (name, "bc", "run1", "rain"):
        (tmp_path / folder).mkdir()
        pd.DataFrame({"game_id": [folder], "duplicate_of": [None]}).to_parquet(tmp_path / folder / "games.parquet")
        pd.DataFrame({"game_id": [folder]}).to_parquet(tmp_path / folder / "scores.parquet")
    answer = query(tmp_path / name, "SELECT game_id FROM games UNION ALL SELECT game_id FROM scores",
                   allow_files=allow_files)
    assert answer.game_id.tolist() == [name, name]


def test_a_result_is_read_no_further_than_the_rows_kept(run):
    """30 million rows cost 3.3 GB when the whole result was held."""
    frame = query(run, "SELECT range AS n FROM range(30000000)", max_rows=5)
    assert frame.n.tolist() == [0, 1, 2, 3, 4] and frame.attrs["truncated"]
    assert not query(run, "SELECT range AS n FROM range(5)", max_rows=5).attrs["truncated"]


def test_the_command_prints_at_most_its_cap_and_says_so(run, capsys, monkeypatch):
    from rulelab import cli

    monkeypatch.setattr(cli, "SQL_MAX_ROWS", 3)
    assert cli.main(["sql", str(run), "SELECT range AS n FROM range(10)", "--format", "csv"]) == 0
    out, err = capsys.readouterr()
    assert out == "n\n0\n1\n2\n" and "the first 3 rows" in err
