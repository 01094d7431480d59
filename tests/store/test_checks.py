"""Run folders read defensively: each table a regular file of rulelab's schema with its
values in their domains, the manifest never a FIFO, a device or a link; each failure
one InputError naming the file and what is wrong, never a hang or a traceback."""

import json
import os
import time

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from bench.probes.inputs import GOOD
from rulelab.analysis.game_diagram import draw_game
from rulelab.analysis.inputs import read_run
from rulelab.errors import InputError
from rulelab.pipeline.ingest import read_games
from rulelab.pipeline.run import ingest, score
from rulelab.pipeline.score import read_scores
from rulelab.store.life import read_life
from rulelab.store.manifest import read_manifest
from rulelab.store.sql import query

pytestmark = pytest.mark.fuzz


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    folder = tmp_path_factory.mktemp("in")
    for n in range(2):
        (folder / f"g{n}.sgf").write_bytes(GOOD.replace(b"good", f"p{n}".encode()))
    run = tmp_path_factory.mktemp("scored") / "run"
    score([folder], run, jobs=1, rules=["chinese"])
    return run


@pytest.fixture
def run(scored, tmp_path):
    copy = tmp_path / "run"
    copy.mkdir()
    for name in ("games.parquet", "scores.parquet", "life.parquet"):
        (copy / name).write_bytes((scored / name).read_bytes())
    return copy


def rewrite(path, change):
    """Replace a table with ``change(table)``; the folder has no manifest, so no checksum."""
    pq.write_table(change(pq.read_table(path)), path)


def replaced(table, column, values):
    index = table.schema.get_field_index(column)
    return table.set_column(index, table.schema.field(index), pa.array(values, table.schema.field(index).type))


def test_a_games_table_of_another_schema_is_refused_naming_its_column(run):
    rewrite(run / "games.parquet", lambda table: table.drop_columns(["board"]))
    with pytest.raises(InputError, match="games.parquet is not a table rulelab wrote: it lacks the column board"):
        read_games(run)


@pytest.mark.parametrize(("column", "value", "message"), [
    ("margin", float("nan"), "margin that is not a finite number"),
    ("winner", "Z", "winner that is none of B, W, draw, void: 'Z'"),
    ("ruleset", "klingon", "ruleset rulelab does not know: 'klingon'"),
])
def test_scores_out_of_their_domains_are_refused_by_the_reader_and_the_report(run, column, value, message):
    rewrite(run / "scores.parquet", lambda table: replaced(table, column, [value] * table.num_rows))
    with pytest.raises(InputError, match=message):
        read_scores(run)
    with pytest.raises(InputError, match=message):
        read_run(run)


def test_life_masks_of_the_wrong_length_are_refused_by_the_reader_and_draw_game(run):
    rewrite(run / "life.parquet", lambda table: replaced(table, "dead", [b"\0"] * table.num_rows))
    with pytest.raises(InputError, match="the dead mask of game .* holds 1 bytes for a board of 81 points"):
        read_life(run)
    game = read_games(run).game_id.iloc[0]
    with pytest.raises(InputError, match="life.parquet: the dead mask"):
        draw_game(run, game)


@pytest.mark.parametrize("kind", ["fifo", "link to /dev/zero", "link to a table"])
def test_a_table_that_is_no_regular_file_is_refused_unread(run, kind):
    (run / "scores.parquet").unlink()
    if kind == "fifo":
        os.mkfifo(run / "scores.parquet")
    else:
        (run / "scores.parquet").symlink_to("/dev/zero" if kind == "link to /dev/zero" else run / "games.parquet")
    with pytest.raises(InputError, match="scores.parquet cannot be read as a table"):
        read_scores(run)


@pytest.mark.parametrize("kind", ["fifo", "link to /dev/zero", "wrong types", "checksums naming /dev/zero"])
def test_a_hostile_manifest_is_no_manifest_and_hangs_nothing(run, kind):
    manifest = run / "manifest.json"
    if kind == "fifo":
        os.mkfifo(manifest)
    elif kind == "link to /dev/zero":
        manifest.symlink_to("/dev/zero")
    elif kind == "wrong types":
        manifest.write_text(json.dumps({"rulelab_version": "0", "inputs": 5, "options": []}))
    else:
        manifest.write_text(json.dumps({"rulelab_version": "0", "checksums": {"/dev/zero": "0", "../x": "0"}}))
    started = time.monotonic()
    if kind == "checksums naming /dev/zero":
        with pytest.raises(InputError, match="does not match the checksum"):
            query(run, "SELECT count(*) FROM games")
    else:
        assert read_manifest(run) is None
        assert query(run, "SELECT count(*) AS n FROM games")["n"].iloc[0] == 2
    assert time.monotonic() - started < 30  # a FIFO or /dev/zero read would never end


def test_a_manifest_of_wrong_types_is_rebuilt_by_the_next_run(tmp_path, capsys):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "g.sgf").write_bytes(GOOD)
    ingest([folder], tmp_path / "run", jobs=1)
    (tmp_path / "run" / "manifest.json").write_text(json.dumps({"rulelab_version": "0", "inputs": [1],
                                                                  "options": []}))
    assert ingest([folder], tmp_path / "run", jobs=1)["counts"]["games_ok"] == 1
    assert "manifest.json is damaged" in capsys.readouterr().err


def test_read_games_of_a_folder_of_sgf_files_says_it_is_no_run_folder(tmp_path):
    (tmp_path / "g.sgf").write_bytes(GOOD)
    with pytest.warns(UserWarning, match="is not a run folder"):
        assert len(read_games(tmp_path)) == 1
    (tmp_path / ".rulelab.lock").write_text("")
    with pytest.raises(InputError, match="is a run folder without games.parquet"):
        read_games(tmp_path)
