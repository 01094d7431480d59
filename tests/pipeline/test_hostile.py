"""The fuzz tier: hostile inputs and faults, each generated here, none committed as a blob.

Every input must cost one row (or one skip count) and leave every other game of the
run intact; every fault must resume to the tables of a clean run or stop with one
``rulelab: ...`` line and exit status 2. Run this tier alone with ``pytest -m fuzz``.
"""

import errno
import gzip
import json
import os
import random
import signal
import sys
import time
import tracemalloc
import zlib
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.probes.inputs import (GOOD, claimed_size, nested, old_sparse_blocks, pax_header_over_the_limit,
                                 pax_sparse_map, record, tar_bytes, utf8_flag_on_shift_jis_name, zip_bytes,
                                 zip_version_7)
from rulelab import cli
from rulelab.errors import InputError
from rulelab.pipeline.checkpoint import run_lock
from rulelab.pipeline.run import ingest, score
from rulelab.read import records
from rulelab.read.records import file_rows
from rulelab.read.sgf import split
from rulelab.read.sources import FileFailure, RawFile, iter_files
from rulelab.store import tables

pytestmark = pytest.mark.fuzz


def test_a_zip_whose_directory_zipfile_refuses_gives_its_good_games(tmp_path):
    path = tmp_path / "sjis.zip"
    path.write_bytes(utf8_flag_on_shift_jis_name({"a.sgf": GOOD}, {"z.sgf": GOOD}))
    items = list(iter_files([path]))
    assert "central directory unreadable" in str(items[0].error)
    assert [item.member for item in items[1:]] == ["a.sgf", "z.sgf"]
    assert all(isinstance(item, RawFile) and item.data == GOOD for item in items[1:])


# name → (file name, bytes, what the bad input's rows must show)
HOSTILE = {
    "handicap past int8": ("bad.sgf", record("HA[128]"), {"warnings": "handicap 128 does not fit"}),
    "era year overflow": ("bad.sgf", record("DT[昭和99999年]"),
                          {"status": "ok", "year": None, "warnings": "DT year '昭和99999年' is outside"}),
    "year past the column": ("bad.sgf", record("DT[99999-01-01]"),
                             {"status": "ok", "year": None, "warnings": "DT year '99999' is outside"}),
    "5,000-digit handicap": ("bad.sgf", record("HA[" + "9" * 5000 + "]"),
                             {"status": "ok", "handicap": None, "warnings": "not a number of handicap stones"}),
    "handicap of 999999999999": ("bad.sgf", record("HA[999999999999]"),
                                 {"handicap": None, "warnings": "HA '999999999999' is not a number"}),
    "handicap of -1": ("bad.sgf", record("HA[-1]"), {"handicap": None, "warnings": "HA '-1' is not a number"}),
    "komi nan": ("bad.sgf", record("KM[nan]"), {"komi": None, "warnings": "KM 'nan' is not a komi"}),
    "komi 1e308": ("bad.sgf", record("KM[1e308]"), {"komi": None, "warnings": "KM '1e308' is not a komi"}),
    "margin with a huge fraction": ("bad.sgf", record("RE[B+1 99999999999999999999/3]"),
                                    {"result_winner": "B", "result_margin": None, "warnings": "'1 9999"}),
    "5,000-digit board size": ("bad.sgf", b"(;GM[1]SZ[" + b"9" * 5000 + b"];B[ee])",
                               {"status": "game_error", "error": "is not a board size"}),
    "UTF-8 flag on Shift-JIS names": ("bad.zip", utf8_flag_on_shift_jis_name(), {"error": "archive damaged"}),
    "zip of no game file": ("bad.zip", bytes(zip_bytes({"README.txt": b"hi"})),
                            {"status": "skipped", "error": "no game file in this archive"}),
    "tar of no game file": ("bad.tar", tar_bytes({"README.txt": b"hi"}),
                            {"status": "skipped", "error": "no game file in this archive"}),
    "zip version 7.0": ("bad.zip", zip_version_7(), {"error": "zip file version 7.0"}),
    "unclosed openings": ("bad.sgf", b"(;GM[\n" * 100_000, {"error": "splitting stopped"}),
    "setup bomb": ("bad.zip", bytes(zip_bytes({"b.sgf": b"(;SZ[19]" + b"AB[aa:ss]AE[aa:ss]" * 40_000 + b")"})),
                   {"error": "more than 250,000 setup points"}),
    "pax header bomb": ("bad.tar.gz", pax_header_over_the_limit(), {"error": "header record of 2,097,152 bytes"}),
    "size of 2**80 in a 10 KB tar": ("bad.tar", claimed_size(2**80), {"error": "the data ends inside 'big.sgf'"}),
    "pax size=10**30": ("bad.tar", claimed_size(10**30, pax=True), {"error": "the data ends inside 'big.sgf'"}),
    "pax sparse map": ("bad.tar.gz", pax_sparse_map(1000), {"error": "sparse member; not read"}),
    "old sparse headers": ("bad.tar.gz", old_sparse_blocks(3), {"error": "sparse member; not read"}),
    "old sparse headers past the cap": ("bad.tar.gz", old_sparse_blocks(3000),
                                        {"error": "sparse extension headers of more than 1,048,576 bytes"}),
    "nested archive and .gz": ("bad.tar", nested(), {"status": "skipped"}),
    "margin 1e400": ("bad.sgf", record("RE[B+1e400]"), {"result_margin": None, "warnings": "'1e400'"}),
    "margin 1e5": ("bad.sgf", record("RE[B+1e5]"), {"result_margin": None, "warnings": "'1e5'"}),
    "margin 1_000": ("bad.sgf", record("RE[B+1_000]"), {"result_margin": None, "warnings": "'1_000'"}),
    "margin 7 1/2": ("bad.sgf", record("RE[B+7 1/2]"), {"result_margin": 7.5}),
    "setup without liberties": ("bad.sgf", b"(;GM[1]SZ[3]AB[aa:cc]RE[B+9];B[];W[])",
                                {"status": "game_error", "error": "no liberty"}),
}


def matches(row: pd.Series, expected: dict) -> bool:
    for column, want in expected.items():
        have = row[column]
        if want is None:
            if not pd.isna(have):
                return False
        elif isinstance(want, str) and column in ("warnings", "error"):
            if not isinstance(have, str) or want not in have:
                return False
        elif have != want:
            return False
    return True


@pytest.mark.parametrize("case", HOSTILE)
def test_a_hostile_input_costs_its_own_row_and_spares_every_other_game(case, tmp_path):
    name, data, expected = HOSTILE[case]
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "good.sgf").write_bytes(GOOD)
    (tmp_path / "in" / name).write_bytes(data)

    manifest = ingest([tmp_path / "in"], tmp_path / "run", jobs=1)

    games = pd.read_parquet(tmp_path / "run" / "games.parquet")
    good = games[games.source_path.str.endswith("good.sgf")]
    assert good.status.tolist() == ["ok"] and good.result_margin.tolist() == [0.5]
    bad = games[~games.source_path.str.endswith("good.sgf")]
    assert len(bad) and any(matches(row, expected) for _, row in bad.iterrows()), bad.T
    assert manifest["counts"]["games_found"] == len(games)


def test_skipped_inputs_are_counted_by_reason_in_the_manifest(tmp_path):
    (tmp_path / "bad.tar").write_bytes(nested())
    manifest = ingest([tmp_path / "bad.tar"], tmp_path / "run", jobs=1)
    assert manifest["counts"]["inputs_skipped"] == {"nested archive": 1}  # its g.sgf.gz is read
    assert manifest["counts"]["by_status"] == {"ok": 1, "skipped": 1}


def test_fifos_and_devices_are_rows_and_the_run_ends_but_a_missing_path_stops_it_first(tmp_path):
    os.mkfifo(tmp_path / "pipe.sgf")
    (tmp_path / "good.sgf").write_bytes(GOOD)
    paths = [tmp_path / "pipe.sgf", "/dev/zero", tmp_path / "good.sgf"]

    with pytest.raises(InputError, match="nowhere.sgf: no such file or folder"):
        ingest([*paths, tmp_path / "nowhere.sgf"], tmp_path / "run", jobs=1)
    assert not (tmp_path / "run").exists()
    manifest = ingest(paths, tmp_path / "run", jobs=1)

    assert manifest["counts"]["by_status"] == {"input_error": 2, "ok": 1}
    assert [entry["kind"] for entry in manifest["inputs"]] == ["unread", "unread", "file"]


def test_the_manifest_hashes_the_bytes_that_were_parsed(tmp_path, monkeypatch):
    """A file edited after it was read: the manifest names what the table was made from."""
    (tmp_path / "g.sgf").write_bytes(GOOD)
    real_file_rows = file_rows

    def edit_after_reading(raw, **options):
        (tmp_path / "g.sgf").write_bytes(GOOD.replace(b"good", b"edited"))
        return real_file_rows(raw, **options)

    monkeypatch.setattr(sys.modules["rulelab.pipeline.ingest"], "file_rows", edit_after_reading)
    manifest = ingest([tmp_path / "g.sgf"], tmp_path / "run", jobs=1)
    [row] = pd.read_parquet(tmp_path / "run" / "games.parquet").itertuples()
    assert manifest["inputs"][0]["sha256"] == row.file_sha256 and row.black_player == "good"


def test_games_past_the_per_file_budget_are_one_row(tmp_path, monkeypatch):
    monkeypatch.setattr(split, "MAX_GAMES_PER_FILE", 100)
    rows = list(file_rows(RawFile("many.sgf", None, b"(;)" * 150)))
    assert len(rows) == 101 and {row["status"] for row in rows[:100]} == {"ok"}
    assert rows[-1]["status"] == "parse_error" and "more than 100 games" in rows[-1]["error"]


def test_games_past_the_per_file_work_budget_are_one_row(monkeypatch):
    """Each game of 9,000 bytes had 250,000 setup points: a 64 MiB file took 23 minutes."""
    monkeypatch.setattr(records, "MAX_FILE_WORK", 1000)
    game = b"(;SZ[19]AB[aa:ss];AE[aa:ss];B[aa])"  # 3 nodes and 722 setup points
    rows = list(file_rows(RawFile("many.sgf", None, game * 4)))
    assert [row["status"] for row in rows] == ["ok", "ok", "parse_error"]
    assert rows[-1]["error"] == ("many.sgf#2: the file's games before this one hold more than 1,000 nodes and setup "
                                 "points (the work budget of one file); the rest (2 games, "
                                 f"{2 * len(game)} characters) is not read")


def test_splitting_scans_a_bounded_multiple_of_the_file(monkeypatch):
    """Every unclosed tree is scanned to the end of the file; the budget stops that."""
    text = "(;GM[\n" * 20_000
    scanned = []
    real_tree_end = split._tree_end

    def counting(text, start, depth):
        scanned.append(len(text) - start)
        return real_tree_end(text, start, depth)

    monkeypatch.setattr(split, "_tree_end", counting)
    games, _ = split.split_games(text)
    assert sum(scanned) <= (split.SPLIT_WORK_PER_CHAR + 1) * len(text)
    assert games[-1].unread and "splitting stopped" in games[-1].unread


BOUNDED_ARCHIVES = {
    "size of 2**80": (lambda: claimed_size(2**80), ["a.sgf"]),
    "size of 2**34": (lambda: claimed_size(2**34), ["a.sgf"]),
    "pax size=10**30": (lambda: claimed_size(10**30, pax=True), ["a.sgf"]),
    "pax sparse map of 4 million pieces": (lambda: pax_sparse_map(4_000_000), ["a.sgf", "z.sgf"]),
    "20,000 old sparse headers": (lambda: old_sparse_blocks(20_000), ["a.sgf"]),
    "3 old sparse headers": (lambda: old_sparse_blocks(3), ["a.sgf", "z.sgf"]),
}


@pytest.mark.parametrize("case", BOUNDED_ARCHIVES)
def test_a_small_archive_that_claims_much_costs_little(case, tmp_path):
    """Each cost minutes or gigabytes: tarfile's skip never met the end of the data, and
    sparse maps were built at ~45 bytes of memory per byte."""
    make, games = BOUNDED_ARCHIVES[case]
    path = tmp_path / "bad.tar.gz"
    path.write_bytes(make())
    assert path.stat().st_size < 256 << 10
    started = time.perf_counter()
    tracemalloc.start()
    try:
        items = list(iter_files([path]))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert time.perf_counter() - started < 10 and peak < 32 << 20
    assert [item.member for item in items if isinstance(item, RawFile)] == games
    assert any(isinstance(item, FileFailure) for item in items)


def test_a_truncated_tar_gz_keeps_every_intact_member(tmp_path):
    data = tar_bytes({f"g{n:03d}.sgf": GOOD + os.urandom(300).hex().encode() for n in range(100)})
    packed = gzip.compress(data)
    path = tmp_path / "cut.tar.gz"
    path.write_bytes(packed[:-3000])
    readable = len(zlib.decompressobj(31).decompress(packed[:-3000]))
    intact = readable // 1536  # a header and two blocks of data each
    items = list(iter_files([path]))
    assert [item.member for item in items if isinstance(item, RawFile)] == [f"g{n:03d}.sgf" for n in range(intact)]
    assert "Compressed file ended" in str(items[-1].error)


# --- memory: a constant times the input -------------------------------------------------

SHAPES = {
    "unclosed openings": (b"", b"(;GM[\n"),
    "empty games": (b"", b"(;)"),
    "setup rectangles": (b"(;SZ[19]", b"AB[aa:ss]AE[aa:ss]"),
    "short values": (b"(;SZ[19]", b"[aa]"),
    "closing brackets": (b"", b"]"),
    "nodes": (b"(;SZ[19]", b";B[aa];W[bb]"),
    "nested variations": (b"", b"(;B[aa]"),
    "one long comment": (b"(;C[", b"x"),
}
PARSED_BYTES_COST = 200
"""Peak Python memory of reading a file that is parsed, per byte (a node is ~1 KB)."""
REFUSED_BYTES_COST = 6
"""Peak per byte of a file past the node, value and game caps: counted, never parsed."""


def traced_peak(data: bytes) -> int:
    tracemalloc.start()
    try:
        for _ in file_rows(RawFile("x.sgf", None, data)):
            pass
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.slow
@pytest.mark.parametrize("shape", SHAPES)
def test_reading_a_file_costs_memory_in_proportion_to_its_size(shape, monkeypatch):
    """The bounds the README states: linear while parsed, and the caps end the parsing."""
    monkeypatch.setattr(split, "MAX_GAMES_PER_FILE", 2_000)  # keeps the traced run short
    head, unit = SHAPES[shape]
    parsed = head + unit * ((256 << 10) // len(unit))
    assert traced_peak(parsed) <= PARSED_BYTES_COST * len(parsed)
    past_caps = head + unit * ((8 << 20) // len(unit))
    assert traced_peak(past_caps) <= REFUSED_BYTES_COST * len(past_caps)


# --- damaged zips ---------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), flips=st.integers(1, 8))
def test_zips_with_mutated_directories_yield_rows_never_exceptions(tmp_path_factory, seed, flips):
    data = zip_bytes({f"{n}.sgf": GOOD for n in range(3)})
    directory = data.find(b"PK\x01\x02")
    chance = random.Random(seed)
    for _ in range(flips):
        data[chance.randrange(directory, len(data))] = chance.randrange(256)
    path = tmp_path_factory.mktemp("zip") / "mutated.zip"
    path.write_bytes(bytes(data))
    assert all(isinstance(item, (RawFile, FileFailure)) for item in iter_files([path]))


# --- faults ---------------------------------------------------------------------------


def write_games(folder: Path, count: int = 60) -> Path:
    folder.mkdir()
    for n in range(count):
        (folder / f"g{n:03d}.sgf").write_bytes(GOOD.replace(b"good", f"p{n}".encode()))
    return folder


def test_a_part_left_empty_or_torn_by_a_power_cut_is_made_again(tmp_path):
    games = write_games(tmp_path / "in")
    clean = ingest([games], tmp_path / "clean", jobs=1)
    ingest([games], tmp_path / "run", jobs=1)
    parts = sorted((tmp_path / "run" / "parts" / "games").glob("*.parquet"))
    assert len(parts) >= 2
    parts[0].write_bytes(b"")
    torn = bytearray(parts[1].read_bytes())
    torn[len(torn) // 2] ^= 0xFF
    parts[1].write_bytes(bytes(torn))
    (tmp_path / "run" / "games.parquet").unlink()

    resumed = ingest([games], tmp_path / "run", jobs=1, force=True)

    assert resumed["units"]["computed"] == 2
    assert resumed["counts"] == clean["counts"]
    assert (tmp_path / "run" / "games.parquet").read_bytes() == (tmp_path / "clean" / "games.parquet").read_bytes()


def test_a_run_stopped_between_publishing_scores_and_the_manifest_resumes(tmp_path):
    games = write_games(tmp_path / "in", 10)
    score([games], tmp_path / "clean", jobs=1, rules=["chinese", "japanese"])
    score([games], tmp_path / "run", jobs=1, rules=["chinese", "japanese"])
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    for section, key in (("tables", "scores"), ("counts", "scores_rows"), ("parts", "scores"),
                         ("tables", "life"), ("counts", "life_rows"), ("parts", "life")):
        del manifest[section][key]
    del manifest["score"]
    (tmp_path / "run" / "manifest.json").write_text(json.dumps(manifest))  # as the kill left it

    status = cli.main(["score", str(games), "--out", str(tmp_path / "run"), "--jobs", "1",
                       "--rules", "chinese,japanese"])

    assert status == 0
    for table in ("games.parquet", "scores.parquet", "life.parquet"):
        assert (tmp_path / "run" / table).read_bytes() == (tmp_path / "clean" / table).read_bytes()


def test_an_ingest_stopped_before_its_manifest_resumes(tmp_path):
    games = write_games(tmp_path / "in", 10)
    ingest([games], tmp_path / "run", jobs=1)
    table = (tmp_path / "run" / "games.parquet").read_bytes()
    (tmp_path / "run" / "manifest.json").unlink()
    assert cli.main(["ingest", str(games), "--out", str(tmp_path / "run"), "--jobs", "1"]) == 0
    assert (tmp_path / "run" / "games.parquet").read_bytes() == table


def test_a_foreign_file_named_like_a_table_is_not_overwritten(tmp_path, capsys):
    games = write_games(tmp_path / "in", 2)
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "games.parquet").write_bytes(b"someone else's")
    assert cli.main(["ingest", str(games), "--out", str(tmp_path / "run"), "--jobs", "1"]) == 2
    assert "(rulelab did not write it); overwrite it with --force" in capsys.readouterr().err


def test_a_second_run_into_a_busy_folder_stops_with_one_line(tmp_path, capsys):
    games = write_games(tmp_path / "in", 2)
    (tmp_path / "run").mkdir()
    with run_lock(tmp_path / "run"):
        status = cli.main(["ingest", str(games), "--out", str(tmp_path / "run"), "--jobs", "1"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "in use by another rulelab run (pid" in err
    assert cli.main(["ingest", str(games), "--out", str(tmp_path / "run"), "--jobs", "1"]) == 0


def one_error_line(capsys, argv: list[str]) -> str:
    status = cli.main(argv)
    err = capsys.readouterr().err
    assert status == 2 and err.startswith("rulelab: ") and err.count("\n") == 1, err
    return err


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS, errno.EFBIG])
def test_a_disk_that_refuses_to_write_stops_the_run_with_one_line(code, tmp_path, capsys, monkeypatch):
    games = write_games(tmp_path / "in", 2)

    def refuse(path):
        raise OSError(code, os.strerror(code), str(path))

    monkeypatch.setattr(tables, "sync_file", refuse)
    err = one_error_line(capsys, ["ingest", str(games), "--out", str(tmp_path / "run"), "--jobs", "1"])
    assert os.strerror(code) in err


@pytest.mark.parametrize("argv, message", [
    (["--out", "{tmp}/file"], "exists and is not a folder"),
    (["--out", "{tmp}/bad\udcff"], "not valid UTF-8"),
    (["--jobs", "0"], "positive number of workers"),
    (["--jobs", "-3"], "positive number of workers"),
    (["--jobs", "1000"], "per core of this machine"),
])
def test_unusable_run_options_stop_with_one_line(argv, message, tmp_path, capsys):
    games = write_games(tmp_path / "in", 1)
    (tmp_path / "file").write_text("")
    argv = [arg.format(tmp=tmp_path) for arg in argv]
    if "--out" not in argv:
        argv += ["--out", str(tmp_path / "run")]
    assert message in one_error_line(capsys, ["ingest", str(games), *argv])


@pytest.mark.parametrize("options, message", [
    (["--komi", "1e308"], "must not exceed"),
    (["--rules", "japanese,japanese"], "names japanese more than once"),
])
def test_impossible_score_options_stop_with_one_line(options, message, tmp_path, capsys):
    games = write_games(tmp_path / "in", 1)
    assert message in one_error_line(capsys, ["score", str(games), "--out", str(tmp_path / "run"), *options])


@pytest.mark.slow
@pytest.mark.parametrize("allowed_failures", [0, 3])  # KilledWorker, or its scattered data lost
def test_a_killed_dask_worker_stops_the_run_as_the_local_engine_does(allowed_failures, tmp_path):
    distributed = pytest.importorskip("distributed")
    import dask

    from functools import partial

    from rulelab.errors import RulelabError
    from rulelab.pipeline.checkpoint import PartStore, Stage, run_units
    from rulelab.pipeline.engines import DaskEngine
    from rulelab.pipeline.units import plan_units
    from rulelab.store.tables import GAMES_SCHEMA
    from test_scale import _rows_or_die_once

    games = write_games(tmp_path / "in", 5)
    dying = Stage("games", GAMES_SCHEMA, partial(_rows_or_die_once, marker=str(tmp_path / "died")),
                  {"superko": False})
    with dask.config.set({"distributed.scheduler.allowed-failures": allowed_failures}), \
            distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                     host="127.0.0.1", dashboard_address="127.0.0.1:0") as cluster, \
            distributed.Client(cluster) as client:
        (games / "g0200.sgf").write_bytes(GOOD)
        with pytest.raises(RulelabError, match="worker process stopped unexpectedly.*same command again") as stopped:
            run_units(plan_units(iter_files([games])), [dying], PartStore(tmp_path / "run"),
                      DaskEngine(client, None))
    assert "\n" not in str(stopped.value)


# --- workers --------------------------------------------------------------------------


@pytest.mark.pool
def test_workers_import_the_package_not_a_rulelab_folder_in_the_working_directory(tmp_path):
    """The fork server starts as ``python -c``, which put the working directory first."""
    import subprocess

    games = write_games(tmp_path / "in", 4)
    (tmp_path / "rulelab").mkdir()
    command = [str(Path(sys.executable).with_name("rulelab")), "ingest", str(games), "--out", "run", "--jobs", "2"]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert len(pd.read_parquet(tmp_path / "run" / "games.parquet")) == 4


def _ctrl_c_while_the_fork_server_starts(monkeypatch, thread_id: int) -> None:
    """Start the fork server, the start sending a Ctrl-C to the thread ``thread_id``; it
    must stop the start, at the latest a second after."""
    import multiprocessing.forkserver

    from rulelab.pipeline import runner

    monkeypatch.setattr(multiprocessing.forkserver, "ensure_running",
                        lambda: signal.pthread_kill(thread_id, signal.SIGINT))
    with pytest.raises(KeyboardInterrupt):
        runner._start_fork_server()
        time.sleep(1)  # where the interrupt, if it is pending, is raised at the latest


def test_a_ctrl_c_while_the_fork_server_starts_stops_the_run(monkeypatch):
    """Blocked while the server starts (so that the server inherits the block), a Ctrl-C
    waits and stops the run once unblocked."""
    import threading

    _ctrl_c_while_the_fork_server_starts(monkeypatch, threading.main_thread().ident)


def test_a_ctrl_c_another_thread_takes_while_the_fork_server_starts_stops_the_run(monkeypatch):
    """A Ctrl-C sent to the process may go to any thread that does not block it: one of
    Arrow's, say. Ignored while the server started, it was lost there (1 run in 50), and
    the run went on to the end."""
    import threading

    done = threading.Event()
    other = threading.Thread(target=done.wait)
    other.start()
    try:
        _ctrl_c_while_the_fork_server_starts(monkeypatch, other.ident)
    finally:
        done.set()
        other.join()


def test_starting_the_fork_server_leaves_the_environment_and_ctrl_c_as_they_were(monkeypatch):
    """Safe paths are for the server only: left set, every later child of this process
    (a library user's subprocesses, the test suite's) would lose its working directory.
    Ctrl-C is blocked while the server starts, its handler never changed."""
    import multiprocessing.forkserver

    from rulelab.pipeline import runner

    handler = signal.getsignal(signal.SIGINT)

    def interrupted():
        assert os.environ["PYTHONSAFEPATH"] == "1" and signal.getsignal(signal.SIGINT) is handler
        assert signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])
        raise KeyboardInterrupt

    monkeypatch.delenv("PYTHONSAFEPATH", raising=False)
    monkeypatch.setattr(multiprocessing.forkserver, "ensure_running", interrupted)
    with pytest.raises(KeyboardInterrupt):
        runner._start_fork_server()
    assert "PYTHONSAFEPATH" not in os.environ and signal.getsignal(signal.SIGINT) is handler
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])


@pytest.mark.pool
def test_workers_that_cannot_start_say_so_rather_than_to_run_again(monkeypatch):
    from rulelab.errors import RulelabError
    from rulelab.pipeline import runner

    monkeypatch.setattr(runner, "_exit_with", os.kill)  # one argument: every worker's start fails
    with pytest.raises(RulelabError, match="worker processes could not start.*--jobs 1"):
        with runner.process_pool(2):
            pass


# --- links ----------------------------------------------------------------------------


@pytest.mark.parametrize("planted", [".rulelab.lock", "hard .rulelab.lock", "parts", "parts/games"])
def test_a_lock_or_parts_planted_as_a_link_stops_the_run_and_its_target_is_untouched(planted, tmp_path, capsys):
    games = write_games(tmp_path / "in", 2)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("months of work")
    run = tmp_path / "run"
    run.mkdir()
    target = mine / "thesis.tex" if planted.endswith("lock") else mine
    if planted.startswith("hard"):
        os.link(target, run / ".rulelab.lock")
    else:
        (run / planted).parent.mkdir(exist_ok=True)
        (run / planted).symlink_to(target)
    err = one_error_line(capsys, ["ingest", str(games), "--out", str(run), "--jobs", "1"])
    assert "never follows links" in err
    assert [p.name for p in mine.iterdir()] == ["thesis.tex"] and (mine / "thesis.tex").read_text() == "months of work"


def test_a_link_planted_as_a_temporary_file_is_never_written_through(tmp_path):
    games = write_games(tmp_path / "in", 2)
    mine = tmp_path / "mine.txt"
    mine.write_text("months of work")
    (tmp_path / "run").mkdir()
    for name in ("manifest.json", "games.parquet"):
        (tmp_path / "run" / f".{name}.{os.getpid()}.tmp").symlink_to(mine)
    ingest([games], tmp_path / "run", jobs=1)
    assert mine.read_text() == "months of work"
    assert len(pd.read_parquet(tmp_path / "run" / "games.parquet")) == 2


# --- damaged run folders --------------------------------------------------------------


def flip_a_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 3] ^= 1
    path.write_bytes(bytes(data))


def flip_a_footer_byte(path: Path) -> None:
    """Damage the Parquet footer, where the table's provenance is: the scores table then
    made the intact life table beside it look like someone else's (rerun refused)."""
    data = bytearray(path.read_bytes())
    data[len(data) - 8 - int.from_bytes(data[-8:-4], "little")] ^= 0xFF
    path.write_bytes(bytes(data))


DAMAGE = {
    "empty manifest": ("manifest.json", lambda path: path.write_text("")),
    "torn manifest": ("manifest.json", lambda path: path.write_bytes(path.read_bytes()[:100])),
    "manifest of one brace": ("manifest.json", lambda path: path.write_text("{")),
    "manifest of null": ("manifest.json", lambda path: path.write_text("null")),
    "manifest of a list": ("manifest.json", lambda path: path.write_text("[]")),
    "zero-byte games table": ("games.parquet", lambda path: path.write_bytes(b"")),
    "one flipped byte in the games table": ("games.parquet", flip_a_byte),
    "one flipped byte in the scores table": ("scores.parquet", flip_a_byte),
    "one flipped byte in the scores table's footer": ("scores.parquet", flip_a_footer_byte),
}


@pytest.mark.parametrize("force", [[], ["--force"]])
@pytest.mark.parametrize("case", DAMAGE)
def test_a_damaged_run_folder_is_rebuilt_from_its_parts_saying_so(case, force, tmp_path, capsys):
    games = write_games(tmp_path / "in", 3)
    argv = ["score", str(games), "--jobs", "1", "--rules", "chinese", "--out"]
    assert cli.main([*argv, str(tmp_path / "clean")]) == 0
    assert cli.main([*argv, str(tmp_path / "run")]) == 0
    name, damage = DAMAGE[case]
    damage(tmp_path / "run" / name)
    capsys.readouterr()

    assert cli.main([*argv, str(tmp_path / "run"), *force]) == 0

    assert capsys.readouterr().err.count(f"{name} is damaged") == 1
    for table in ("games.parquet", "scores.parquet", "life.parquet"):
        assert (tmp_path / "run" / table).read_bytes() == (tmp_path / "clean" / table).read_bytes()


def test_sql_and_the_report_refuse_a_table_that_no_longer_matches_its_checksum(tmp_path, capsys):
    from rulelab.report.build import build_report

    games = write_games(tmp_path / "in", 3)
    assert cli.main(["score", str(games), "--jobs", "1", "--rules", "chinese", "--out", str(tmp_path / "run")]) == 0
    capsys.readouterr()
    flip_a_byte(tmp_path / "run" / "games.parquet")
    (tmp_path / "run" / "scores.parquet").write_bytes(b"")
    err = one_error_line(capsys, ["sql", str(tmp_path / "run"), "SELECT count(*) FROM games"])
    assert "games.parquet does not match the checksum" in err
    with pytest.raises(InputError, match="games.parquet does not match the checksum"):
        build_report(tmp_path / "run", tmp_path / "report")


def symlink_loop(folder: Path) -> Path:
    (folder / "loop-a").symlink_to(folder / "loop-b")
    (folder / "loop-b").symlink_to(folder / "loop-a")
    return folder / "loop-a"


def test_a_symlink_loop_given_as_an_input_is_one_row_and_the_good_games_are_read(tmp_path):
    games = write_games(tmp_path / "in", 2)
    manifest = ingest([symlink_loop(tmp_path), games], tmp_path / "run", jobs=1)
    assert manifest["counts"]["by_status"] == {"input_error": 1, "ok": 2}


def test_a_symlink_loop_as_the_run_or_report_folder_stops_with_one_line(tmp_path, capsys):
    from rulelab.report import build as report

    games = write_games(tmp_path / "in", 1)
    loop = symlink_loop(tmp_path)
    assert "loop of symbolic links" in one_error_line(capsys, ["ingest", str(games), "--out", str(loop)])
    with pytest.raises(InputError, match="loop of symbolic links"):
        report._report_folder(tmp_path / "run", loop)


# --- signals and the command line -----------------------------------------------------


@pytest.mark.pool
@pytest.mark.parametrize("working", [False, True])  # while the workers' server loads, or once they work
@pytest.mark.parametrize("signals, said, statuses", [
    ([signal.SIGINT], "rulelab: interrupted", {130}),
    ([signal.SIGINT, signal.SIGINT], "rulelab: ", {130, -signal.SIGINT}),  # the second ends it at once
    ([signal.SIGTERM], "rulelab: terminated", {143}),
])
def test_a_run_stopped_by_signals_ends_at_once_in_one_line(signals, said, statuses, working, tmp_path):
    """Signalled as a terminal does, to the whole group: workers and their server leave
    it to the run, which stops them (twice in quick succession hung, or printed tracebacks)."""
    import subprocess

    games = write_games(tmp_path / "in", 4000)
    command = [str(Path(sys.executable).with_name("rulelab")), "score", str(games), "--out", str(tmp_path / "run"),
               "--jobs", "2"]
    run = subprocess.Popen(command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                           start_new_session=True)
    started = time.monotonic()
    while not (tmp_path / "run" / ".rulelab.lock").exists() and time.monotonic() - started < 60:
        time.sleep(0.05)
    while working and not (tmp_path / "run" / "parts" / "scores").is_dir() and time.monotonic() - started < 120:
        time.sleep(0.05)
    for number in signals:
        os.killpg(run.pid, number)
        time.sleep(0.1)
    try:
        err = run.communicate(timeout=15)[1]
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode in statuses and "Traceback" not in err, err
    assert err.splitlines()[-1].startswith(said) and err.count("\n") <= 2, err


@pytest.mark.parametrize("argv, message", [
    (["ingest"], "the following arguments are required: PATH, --out (see rulelab ingest --help)"),
    (["score", "x", "--out", "y", "--jobs", "many"], "argument --jobs: invalid int value: 'many'"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
])
def test_an_argument_error_is_one_line(argv, message, capsys):
    assert message in one_error_line(capsys, argv)
