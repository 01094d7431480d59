"""Ingest end to end on small collections built in tmp_path: one row per game, always."""

import io
import os
import json
import zipfile

import pandas as pd
import pyarrow.parquet as pq
import pytest

from rulelab.errors import InputError
from rulelab.pipeline.ingest import read_games
from rulelab.pipeline.run import ingest
from rulelab.read.records import file_rows
from rulelab.read.sources import RawFile
from rulelab.rules import PRESETS
from rulelab.store.tables import read_provenance

GAME_A = b"(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]RE[B+2]PB[Kuro]PW[Shiro];B[ee];W[cc];B[gc];W[];B[])"
GAME_B = b"(;GM[1]FF[4]SZ[9]KM[6.5]RE[W+R];B[ee];W[ge];B[cc])"
BROKEN = b"(;GM[1]SZ[9];B[ee];W[cc"
OFF_BOARD = b"(;GM[1]SZ[9];B[ee];W[zz])"


@pytest.fixture
def collection(tmp_path):
    folder = tmp_path / "games"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.sgf").write_bytes(GAME_A)
    (folder / "two.sgf").write_bytes(GAME_B + b"\n" + OFF_BOARD)
    (folder / "sub" / "broken.sgf").write_bytes(BROKEN)
    (folder / "notes.txt").write_text("not a game")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("copy/a.sgf", GAME_A)
    (folder / "more.zip").write_bytes(buffer.getvalue())
    return folder


def test_every_game_is_one_row_and_counts_add_up(collection, tmp_path):
    manifest = ingest([collection], tmp_path / "run", jobs=1)
    games = pd.read_parquet(tmp_path / "run" / "games.parquet")
    counts = manifest["counts"]
    assert len(games) == counts["games_found"] == 5
    assert counts["games_ok"] + counts["games_failed"] == counts["games_found"]
    assert sum(counts["by_status"].values()) == counts["games_found"]
    assert set(games.loc[games.status != "ok", "status"]) == {"parse_error", "game_error"}
    assert games.error[games.status != "ok"].str.len().min() > 10
    broken = games[games.source_path.str.endswith("broken.sgf")].iloc[0]
    assert "broken.sgf" in broken.error


def test_same_game_in_two_places_has_one_id_and_a_duplicate_pointer(collection, tmp_path):
    ingest([collection], tmp_path / "run", jobs=1)
    games = pd.read_parquet(tmp_path / "run" / "games.parquet")
    copies = games[games.black_player == "Kuro"]
    assert len(copies) == 2 and copies.game_id.nunique() == 1
    assert copies.duplicate_of.notna().sum() == 1
    assert copies.archive_member.dropna().tolist() == ["copy/a.sgf"]


@pytest.mark.filterwarnings("ignore:.*is not a run folder")
def test_replayed_facts_and_metadata_are_in_the_row(collection, tmp_path):
    games = read_games(collection)
    a = games[games.black_player == "Kuro"].iloc[0]
    assert (a.result_kind, a.result_winner, a.result_margin) == ("counted", "B", 2.0)
    assert (a.komi, a.rules, a.board_rows, a.board_cols) == (7.0, "chinese", 9, 9)
    assert (a.move_count, a.passes_white, a.passes_black, a.ended_by_passes) == (5, 1, 1, True)
    assert (a.placed_black, a.placed_white, a.last_placer) == (2, 1, "B")
    assert len(a.board) == 81


@pytest.mark.pool
def test_parallel_and_serial_runs_write_identical_tables(collection, tmp_path):
    ingest([collection], tmp_path / "one", jobs=1)
    ingest([collection], tmp_path / "two", jobs=2)
    one = (tmp_path / "one" / "games.parquet").read_bytes()
    two = (tmp_path / "two" / "games.parquet").read_bytes()
    assert one == two


def test_tables_carry_provenance(collection, tmp_path):
    ingest([collection], tmp_path / "run", jobs=1)
    meta = read_provenance(tmp_path / "run" / "games.parquet")
    assert meta["command"] == "ingest"
    assert meta["inputs"][0]["path"] == str(collection)
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["inputs"] == meta["inputs"]
    assert pq.ParquetFile(tmp_path / "run" / "games.parquet").metadata.num_rows == 5


def test_refuses_to_write_inside_an_input_folder(collection):
    with pytest.raises(InputError, match="inside the input folder"):
        ingest([collection], collection / "out", jobs=1)


def test_refuses_to_overwrite_other_contents_without_force(collection, tmp_path):
    ingest([collection], tmp_path / "run", jobs=1)
    ingest([collection], tmp_path / "run", jobs=1)  # the same inputs again: the same end
    (collection / "a.sgf").write_text("(;GM[1]SZ[9];B[ee])")
    with pytest.raises(InputError, match="force=True"):
        ingest([collection], tmp_path / "run", jobs=1)
    ingest([collection], tmp_path / "run", jobs=1, force=True)


def test_a_missing_input_is_refused_before_it_is_read(tmp_path):
    with pytest.raises(InputError, match="nowhere.sgf: no such file or folder"):
        read_games(tmp_path / "nowhere.sgf")


def test_a_broken_game_in_a_one_line_collection_costs_only_its_own_row():
    games = [f"(;GM[1]SZ[9]PB[p{n}];B[ee];W[cc])" for n in range(50)]
    games[1] = games[1][:-1]
    rows = list(file_rows(RawFile("fifty.sgf", None, "".join(games).encode())))
    assert [row["status"] for row in rows] == ["ok"] + ["parse_error"] + ["ok"] * 48
    assert [row["black_player"] for row in rows if row["status"] == "ok"] == [f"p{n}" for n in range(50) if n != 1]


def test_undecodable_file_names_are_kept_as_escapes(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    name = b"\xff\xfe-kifu.sgf"
    with open(bytes(folder) + b"/" + name, "wb") as handle:
        handle.write(GAME_A)
    os.symlink(bytes(folder) + b"/" + name, bytes(folder) + b"/\xfflink.sgf")
    ingest([folder], tmp_path / "run", jobs=1)
    games = pd.read_parquet(tmp_path / "run" / "games.parquet").sort_values("status")
    assert games.status.tolist() == ["input_error", "ok"]
    assert games.source_path.iloc[1].endswith("\\xff\\xfe-kifu.sgf")
    assert "\\xfflink.sgf" in games.error.iloc[0]


# --- the record's rules judge its moves ----------------------------------------------

LONE_SUICIDE = "SZ[3]AB[ba][ab][bb];W[aa]"  # White's stone has no liberty and takes none
TWO_BY_TWO_CYCLE = "SZ[2];B[bb];W[aa];B[ab];W[ba];B[bb];W[ab];B[bb]"  # move 7 repeats move 1's position


def illegal_moves(record: str, rules: str | None = None, superko: bool = False) -> tuple[str | None, str | None]:
    """The rules a record's row names, and the illegal moves its replay flagged."""
    named = f"RU[{rules}]" if rules else ""
    (row,) = file_rows(RawFile("game.sgf", None, f"(;GM[1]FF[4]{named}{record})".encode()), superko=superko)
    return row["rules"], row["illegal_moves"]


@pytest.mark.parametrize("name", PRESETS)
def test_replay_judges_suicide_and_ko_by_the_preset_the_record_names(name):
    rules, suicide = illegal_moves(LONE_SUICIDE, name)
    _, cycle = illegal_moves(TWO_BY_TWO_CYCLE, name)
    preset = PRESETS[rules]
    assert suicide == (None if preset.suicide == "any" else "1:suicide")
    assert cycle == (None if preset.ko == "simple" else "7:superko")


def test_a_record_of_unknown_rules_forbids_suicide_and_plays_simple_ko():
    assert illegal_moves(LONE_SUICIDE) == (None, "1:suicide")
    assert illegal_moves(TWO_BY_TWO_CYCLE) == (None, None)


def test_superko_checks_positional_superko_whatever_the_rules():
    for rules in (None, "japanese", "nz"):
        assert illegal_moves(TWO_BY_TWO_CYCLE, rules, superko=True)[1] == "7:superko"
    # NZ's situational rule lets a lone stone's suicide be; positional superko flags the repetition
    assert illegal_moves(LONE_SUICIDE, "nz") == ("nz", None)
    assert illegal_moves(LONE_SUICIDE, "nz", superko=True) == ("nz", "1:superko")


def long_game(black: str, white: str) -> bytes:
    """114 moves on 19×19 (six full lines of stones, no capture) under the players' names."""
    letters = "abcdefghijklmnopqrs"
    moves = "".join(f";B[{c}{letters[b]}];W[{c}{letters[w]}]"
                    for b, w in ((2, 16), (4, 14), (6, 12)) for c in letters)
    return f"(;GM[1]FF[4]SZ[19]KM[6.5]RE[B+R]PB[{black}]PW[{white}]{moves})".encode()


def test_one_game_spelled_two_ways_counts_once(tmp_path):
    """An .mgt and an .sgf of one title game name the players differently: a hundred moves
    or more in common make them one game; a short line in common does not."""
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "a.sgf").write_bytes(long_game("Sakata Eio", "Rin Kaiho"))
    (folder / "b.sgf").write_bytes(long_game("Sakata", "Rin"))
    (folder / "c.sgf").write_bytes(GAME_B)
    (folder / "d.sgf").write_bytes(GAME_B.replace(b"KM[6.5]", b"KM[6.5]PB[Kuro]"))
    with pytest.warns(UserWarning, match="not a run folder"):
        games = read_games(folder, keep_copies=True).set_index("source_path")
    assert games.game_id.nunique() == 4
    assert games.duplicate_of.notna().tolist() == [False, True, False, False]
    assert games.duplicate_of.dropna().iloc[0].endswith("a.sgf#0")
