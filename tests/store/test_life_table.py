"""The life table: each game's verdict and the scorer's classes, stored once by the score
stage, equal to a fresh decision, and the same bytes however the run went."""

import io
import json
import re
import tarfile

import numpy as np
import pyarrow.parquet as pq
import pytest

import rulelab
from rulelab.life import decide_life
from rulelab.pipeline.checkpoint import PartStore
from rulelab.pipeline.run import score
from rulelab.position import BLACK, WHITE, board_from_diagram
from rulelab.scoring import classify_points
from rulelab.store.life import LIFE_SCHEMA, stored_life
from rulelab.store.positions import position_from_row
from rulelab.store.sql import query

from positions import named_positions

LIFE = named_positions("life")
"""The named positions of ``data/positions/life.txt``."""


def sgf_of(diagram: str, extra: str = "") -> str:
    """A finished record (both players pass) of the diagram's board, set up with AB/AW."""
    board = board_from_diagram(diagram)
    point = lambda r, c: f"[{chr(97 + c)}{chr(97 + r)}]"  # noqa: E731
    black = "".join(point(r, c) for r, c in np.argwhere(board == BLACK))
    white = "".join(point(r, c) for r, c in np.argwhere(board == WHITE))
    return f"(;GM[1]FF[4]SZ[9]RU[Chinese]KM[7.5]RE[W+1.5]AB{black}AW{white};B[];W[]{extra})"


@pytest.fixture(scope="module")
def collection(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    (folder / "seki.sgf").write_text(sgf_of(LIFE["seki_with_one_eye_each"].diagram))
    # A board whose dead stones KataGo and the estimate agree on (in "dead_stone_inside"
    # the Black stone has room to live in a 36-point area, and KataGo keeps it).
    (folder / "estimated.sgf").write_text(sgf_of(LIFE["two_dead_stones"].diagram))
    (folder / "marked.sgf").write_text(sgf_of(LIFE["dead_stone_inside"].diagram, "TB[bb]TW[hd]").replace("W+1.5", "W+9.5"))
    (folder / "copy").mkdir()
    (folder / "copy" / "seki.sgf").write_text(sgf_of(LIFE["seki_with_one_eye_each"].diagram))
    return folder


@pytest.fixture(scope="module")
def run(collection, tmp_path_factory):
    out = tmp_path_factory.mktemp("run")
    score([collection], out, jobs=1, rules=["chinese", "japanese"])
    return out


def assert_stored_as_decided(run, life_method="auto"):
    """Every life row equals a fresh decision on the stored position, with the scorer's
    seki and classes under it; every ok game has its row."""
    games = {row["game_id"]: row for row in pq.read_table(run / "games.parquet").to_pylist()
             if row["status"] == "ok"}
    table = pq.read_table(run / "life.parquet")
    assert table.schema.remove_metadata() == LIFE_SCHEMA
    assert sorted(table["game_id"].to_pylist()) == sorted(
        row["game_id"] for row in pq.read_table(run / "games.parquet").to_pylist() if row["status"] == "ok")
    for row in table.to_pylist():
        position = position_from_row(games[row["game_id"]])
        fresh = decide_life(position, life_method)
        analysis = classify_points(position, fresh)
        stored = stored_life(row)
        for name, expected in (("dead", fresh.dead), ("proven", fresh.proven), ("seki", analysis.seki),
                               ("classes", analysis.classes)):
            np.testing.assert_array_equal(getattr(stored, name), expected, err_msg=f"{name} of {row['game_id']}")
        assert (stored.method, stored.confidence, stored.finished, stored.unsettled, stored.flags) == (
            fresh.method, fresh.confidence, fresh.finished, fresh.unsettled, fresh.flags)
    return table


def test_the_life_table_holds_the_verdict_and_the_scorers_seki(run):
    table = assert_stored_as_decided(run)
    assert sorted(table["life_method"].to_pylist()) == ["estimate", "estimate", "estimate", "markup"]
    seki = [stored_life(row) for row in table.to_pylist() if row["seki"].count(1)]
    assert len(seki) == 2 and seki[0].seki[0, 1] and seki[0].seki[0, 4]  # both copies
    assert [row["duplicate_of"] is not None for row in table.to_pylist()].count(True) == 1


def test_the_scores_agree_with_the_stored_verdict(run):
    scores = rulelab.read_scores(run)
    life = rulelab.read_life(run)
    merged = scores.merge(life, on=["game_id", "duplicate_of"], suffixes=("", "_stored"))
    assert len(merged) == len(scores)
    assert (merged.life_method == merged.life_method_stored).all()
    dead = merged.apply(lambda row: int(np.frombuffer(row.dead, np.int8).sum()), axis=1)
    assert (merged.dead_black + merged.dead_white + merged.dead_in_seki_black
            + merged.dead_in_seki_white == dead)[merged.scoring == "territory"].all()


def test_the_readers_leave_out_the_copies_as_the_sql_views_do(run):
    for read, view in ((rulelab.read_games, "games"), (rulelab.read_scores, "scores"),
                       (rulelab.read_life, "life")):
        assert len(read(run)) == query(run, f"SELECT count(*) AS n FROM {view}")["n"].item()
        assert len(read(run, keep_copies=True)) == query(run, f"SELECT count(*) AS n FROM all_{view}")["n"].item()
        assert read(run).duplicate_of.isna().all() and read(run, keep_copies=True).duplicate_of.notna().any()
    games = rulelab.read_games(run)
    assert games.set_index("game_id").reindex(games.game_id).index.is_unique  # no "duplicate labels"


@pytest.mark.filterwarnings("ignore:.*is not a run folder")
def test_reading_games_on_the_fly_leaves_out_the_copies_too(collection):
    assert rulelab.read_games(collection, keep_copies=True).duplicate_of.notna().sum() == 1
    assert rulelab.read_games(collection).game_id.is_unique


def test_the_rule_flags_column_is_not_shadowed_by_pandas(run):
    life = rulelab.read_life(run)
    assert "rule_flags" in life.columns and "flags" not in life.columns
    assert life.rule_flags.map(list).tolist() == [[], [], []]


def test_sql_has_a_life_view_without_the_copies(run):
    assert query(run, "SELECT count(*) AS n FROM life")["n"].item() == 3
    assert query(run, "SELECT count(*) AS n FROM all_life")["n"].item() == 4
    answer = query(run, "SELECT l.life_method, s.winner FROM life l JOIN scores s USING (game_id) "
                        "WHERE s.ruleset = 'japanese' AND s.komi_source = 'standard' ORDER BY 1, 2")
    assert answer.life_method.tolist() == ["estimate", "estimate", "markup"]


def test_a_rerun_and_a_resumed_run_give_the_same_bytes(collection, run, tmp_path):
    again = tmp_path / "again"
    score([collection], again, jobs=1, rules=["chinese", "japanese"])
    store = PartStore(again)
    keys = json.loads((again / "manifest.json").read_text())  # the run is complete
    assert keys["tables"]["life"] == "life.parquet" and keys["counts"]["life_rows"] == 4
    # A run that lost one unit's life part (a power cut, say) makes that unit's scores and
    # life again, and only those.
    (part,) = list((store.root / "life").glob("*.parquet"))[:1]
    part.unlink()
    resumed = score([collection], again, jobs=1, rules=["chinese", "japanese"], force=True)
    assert resumed["score"]["units"]["computed"] == 1
    for table in ("games.parquet", "scores.parquet", "life.parquet"):
        assert (again / table).read_bytes() == (run / table).read_bytes(), table
    unchanged = score([collection], again, jobs=1, rules=["chinese", "japanese"])
    assert unchanged["score"]["units"]["computed"] == 0
    assert (again / "life.parquet").read_bytes() == (run / "life.parquet").read_bytes()


def test_another_life_method_makes_another_life_table(collection, run, tmp_path):
    out = tmp_path / "markup"
    score([collection], out, jobs=1, rules=["chinese"], life="markup")
    methods = sorted(rulelab.read_life(out, keep_copies=True).life_method)
    assert methods == ["markup", "none", "none", "none"]
    assert_stored_as_decided(out, "markup")


MARKED_2017 = re.compile(r"kgs-19-2017-01-new/[^/]+\.sgf$")


@pytest.mark.corpus
@pytest.mark.slow
def test_the_life_table_of_real_games_equals_a_fresh_decision(corpora, tmp_path):
    """Forty KGS 2017 records (marked and unmarked, counted and resigned) scored as a run."""
    archive = tmp_path / "kgs.tar"
    with tarfile.open(corpora / "kgs-dev.tar.xz", "r|xz") as source, tarfile.open(archive, "w") as sample:
        for member in source:
            if member.isfile() and MARKED_2017.search(member.name):
                data = source.extractfile(member).read()
                sample.addfile(member, io.BytesIO(data))
                if len(sample.getmembers()) == 40:
                    break
    out = tmp_path / "run"
    score([archive], out, jobs=1)
    table = assert_stored_as_decided(out)
    assert {"markup", "estimate"} <= set(table["life_method"].to_pylist())
