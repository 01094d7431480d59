"""Tables that mean one thing: copies marked everywhere and counted once, nullable
integers, how a record ended, and a board that prints."""

import json

import pandas as pd
import pytest

from rulelab.cli import main
from rulelab.pipeline.ingest import read_games
from rulelab.pipeline.run import score
from rulelab.pipeline.score import read_scores
from rulelab.rules import PRESETS
from rulelab.store.sql import connect
from test_score_run import WALLS

# The same walls, the record stopping without passes.
NO_PASSES = WALLS.replace(";B[];W[])", ")").replace("RE[W+12.5]", "RE[W+R]")
# An illegal move (B plays on an occupied point), then both pass.
ILLEGAL = WALLS.replace(";B[];W[])", ";B[ca];W[];B[])").replace("RE[W+12.5]", "RE[W+13.5]")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    (folder / "a.sgf").write_text(WALLS)
    (folder / "b-copy.sgf").write_text(WALLS)
    (folder / "c.sgf").write_text(NO_PASSES)
    (folder / "d.sgf").write_text(ILLEGAL)
    out = tmp_path_factory.mktemp("run")
    score([folder], out, jobs=1)
    return out


def test_copies_are_marked_in_scores_and_left_out_of_the_sql_views(run):
    scores = read_scores(run, keep_copies=True)
    copies = scores[scores.duplicate_of.notna()]
    assert len(copies) == len(PRESETS) + 1 and set(copies.duplicate_of.str.rsplit("/", n=1).str[-1]) == {"a.sgf#0"}
    with connect(run) as con:
        counted = con.execute("SELECT count(DISTINCT game_id), count(*) FROM scores").fetchone()
        every = con.execute("SELECT count(*) FROM all_scores").fetchone()[0]
        games = con.execute("SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM all_games)").fetchone()
    assert counted == (3, len(scores) - len(copies)) and every == len(scores)
    assert games == (3, 4)
    standard = scores[(scores.komi_source == "standard") & scores.duplicate_of.isna()]
    assert standard.pivot(index="game_id", columns="ruleset", values="winner").shape == (3, len(PRESETS))


def test_a_game_in_an_mgt_and_an_sgf_counts_once_in_every_view_and_rate(tmp_path):
    """The default corpus's pairs: one title game in two files that spell the players
    differently, so their ids differ; the later copy is in no view and no rate."""
    from pipeline.test_ingest import long_game
    from rulelab.analysis.findings import pair_rates
    from rulelab.analysis.inputs import read_run

    def counted(black: str, white: str) -> bytes:
        return long_game(black, white).replace(b"RE[B+R]", b"RE[W+6.5]RU[Japanese]")[:-1] + b";B[];W[])"

    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "a.sgf").write_bytes(counted("Sakata Eio", "Rin Kaiho"))
    (folder / "b.mgt").write_bytes(counted("Sakata", "Rin"))
    score([folder], tmp_path / "run", jobs=1)
    with connect(tmp_path / "run") as con:
        every = con.execute("SELECT game_id, duplicate_of FROM all_games ORDER BY source_path").fetchall()
        ((first, _), (copy, pointer)) = every
        assert first != copy and pointer.endswith("a.sgf#0")
        for view in ("games", "scores", "life", "compared", "komi_games"):
            ids = {row[0] for row in con.execute(f"SELECT DISTINCT game_id FROM {view}").fetchall()}
            assert ids == {first}, view  # the original is compared, its copy nowhere
    run = read_run(tmp_path / "run")
    rates = pair_rates(run.scores, run.games)
    assert set(rates.loc[(rates.komi_basis == "standard") & (rates.band == "all"), "games"]) == {1}


def test_integer_columns_keep_their_nulls_as_nullable_integers(run):
    games = read_games(run)
    for column in ("year", "ko_point", "first_illegal_move", "handicap", "move_count"):
        assert pd.api.types.is_integer_dtype(games[column]), column
    assert games.ko_point.isna().all() and games.first_illegal_move.notna().sum() == 1
    assert pd.api.types.is_integer_dtype(read_scores(run).black_stones)


def test_finished_tells_ended_by_passes_from_a_settled_board_and_refuses_illegal_moves(run):
    games = read_games(run).query("duplicate_of.isna()").set_index("source_path")
    scores = read_scores(run)
    chinese = scores[(scores.ruleset == "chinese") & (scores.komi_source == "standard")
                     & scores.duplicate_of.isna()]
    state = chinese.set_index(chinese.game_id.map(dict(zip(games.game_id, games.index.str[-5:]))))
    columns = ["board_settled", "ended_by_passes", "has_illegal_moves", "finished"]
    assert state.loc["a.sgf", columns].tolist() == [True, True, False, True]
    assert state.loc["c.sgf", columns].tolist() == [True, False, False, False]
    assert state.loc["d.sgf", columns].tolist() == [True, True, True, False]


def test_sql_json_shows_the_board_one_digit_per_point(run, capsys):
    assert main(["sql", str(run), "SELECT board, board_rows FROM games LIMIT 1", "--format", "json"]) == 0
    [row] = json.loads(capsys.readouterr().out)
    assert row["board"] == "0120001200012000120001200" and row["board_rows"] == 5
