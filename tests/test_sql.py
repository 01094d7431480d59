"""rulelab.sql: DuckDB views over a run folder."""

import pandas as pd
import pytest
from analysis_tables import collection, write_run

from rulelab.errors import InputError
from rulelab.sql import connect, query


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
        assert {r[0] for r in con.execute("SHOW TABLES").fetchall()} == {"games", "scores", "all_games", "all_scores"}


def test_path_with_a_quote_is_safe(tmp_path):
    games, scores = collection()
    folder = write_run(tmp_path / "it's a run", games, scores)
    assert query(folder, "SELECT count(*) AS n FROM scores")["n"].iloc[0] == len(scores)


@pytest.mark.parametrize("remove", ["games.parquet", "scores.parquet"])
def test_missing_table_is_an_input_error(run, remove):
    (run / remove).unlink()
    with pytest.raises(InputError, match=remove):
        connect(run)


def test_missing_folder_and_bad_sql_are_input_errors(run, tmp_path):
    with pytest.raises(InputError, match="existing directory"):
        query(tmp_path / "absent", "SELECT 1")
    with pytest.raises(InputError, match="DuckDB could not run"):
        query(run, "SELECT nonsense FROM scores")
    with pytest.raises(InputError, match="non-empty"):
        query(run, "  ")
