"""Scale: units, part files, incremental re-runs and interrupted runs that resume.

Collections are random legal games written as SGF into ``tmp_path`` (plus a multi-game
file, a broken file, a copy and a note), so these tests need no corpus.
"""

import json
import os
import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulelab.errors import RulelabError
from rulelab.gamegen import random_legal_game
from rulelab.pipeline.checkpoint import PartStore, Stage, UnitWork, publish_table, run_unit, run_units
from rulelab.pipeline.duplicates import first_copies
from rulelab.pipeline.engines import LocalEngine, open_engine
from rulelab.pipeline.fingerprint import source_files
from rulelab.pipeline.ingest import _rows_of_batch, games_stage
from rulelab.pipeline.run import ingest
from rulelab.pipeline.units import plan_units
from rulelab.position import BLACK
from rulelab.read.sources import FileFailure, RawFile, iter_files
from rulelab.store.tables import GAMES_SCHEMA

RULELAB = [sys.executable, "-m", "rulelab.cli"]


def random_sgf(seed: int, size: int = 13, moves: int = 120) -> str:
    """One random legal game as SGF text, ending with two passes."""
    events = random_legal_game(size, size, moves, seed)
    nodes = "".join(
        f";{'B' if colour == BLACK else 'W'}[{'' if row < 0 else chr(97 + col) + chr(97 + row)}]"
        for _, colour, row, col in events.tolist())
    return f"(;GM[1]FF[4]SZ[{size}]KM[6.5]RU[Japanese]RE[B+0.5]PB[b{seed}]PW[w{seed}]{nodes})"


def write_collection(folder: Path, games: int) -> Path:
    """``games`` one-game files, plus the awkward cases every run must carry through."""
    (folder / "sub").mkdir(parents=True, exist_ok=True)
    for seed in range(games):
        (folder / f"g{seed:04d}.sgf").write_text(random_sgf(seed))
    (folder / "sub" / "three.sgf").write_text(random_sgf(9001, 9) + random_sgf(9002, 9) + random_sgf(9003, 9))
    (folder / "sub" / "copy.sgf").write_text(random_sgf(0))
    (folder / "sub" / "broken.sgf").write_text("(;GM[1]SZ[9];B[ee];W[cc")
    (folder / "notes.txt").write_text("not a game")
    return folder


@pytest.fixture(scope="module")
def collection(tmp_path_factory) -> Path:
    return write_collection(tmp_path_factory.mktemp("collection"), 240)


def part_files(run: Path) -> dict[str, tuple[int, int]]:
    """Every part file of a run folder: name → (inode, mtime in ns)."""
    return {f"{path.parent.name}/{path.name}": (path.stat().st_ino, path.stat().st_mtime_ns)
            for path in (run / "parts").glob("*/*.parquet")}


# --- units -------------------------------------------------------------------------


names = st.lists(st.text("abcdefgh/", min_size=1, max_size=6), max_size=60, unique=True)


@given(names, st.integers(1, 9), st.integers(1, 400))
def test_units_cover_the_input_once_in_order_within_their_caps(paths, max_files, max_bytes):
    files = [RawFile(path, None, b"x" * (len(path) * 7)) for path in paths]
    units = list(plan_units(files, boundary_every=5, max_files=max_files, max_bytes=max_bytes))
    assert [item for unit in units for item in unit.items] == files
    for unit in units:
        assert 1 <= len(unit.items) <= max_files
        assert unit.size - len(unit.items[-1].data) < max_bytes


@given(names, st.text("xyz", min_size=1, max_size=4), st.data())
def test_adding_or_changing_a_file_changes_only_the_unit_it_falls_in(paths, new_name, data):
    files = [RawFile(path, None, path.encode()) for path in paths]
    at = data.draw(st.integers(0, len(files)))
    before = {unit.digest for unit in plan_units(files, boundary_every=4)}
    grown = files[:at] + [RawFile(new_name, None, b"new")] + files[at:]
    assert len({unit.digest for unit in plan_units(grown, boundary_every=4)} - before) <= 2
    if files:
        changed = list(files)
        changed[at % len(files)] = RawFile(changed[at % len(files)].path, None, b"changed")
        assert len({unit.digest for unit in plan_units(changed, boundary_every=4)} - before) == 1


def test_a_unit_key_names_content_and_failures_not_only_paths():
    same_name = [RawFile("a.sgf", None, b"(;B[aa])")], [RawFile("a.sgf", None, b"(;B[bb])")]
    failures = [FileFailure("a.tar", None, RulelabError("damaged after 3 members"))], \
               [FileFailure("a.tar", None, RulelabError("damaged after 4 members"))]
    for first, second in (same_name, failures):
        assert next(plan_units(first)).digest != next(plan_units(second)).digest


# --- duplicates and code fingerprints ------------------------------------------------


@settings(max_examples=60)
@given(st.lists(st.lists(st.sampled_from("abcdef"), max_size=8), max_size=6))
def test_first_copies_point_every_repeat_at_the_first_row_with_its_id(pieces):
    seen: dict[str, int] = {}
    expected = {}
    for row, game_id in enumerate(game_id for piece in pieces for game_id in piece):
        if game_id in seen:
            expected[row] = seen[game_id]
        else:
            seen[game_id] = row
    assert first_copies(pa.array(piece, pa.string()) for piece in pieces) == expected


def test_a_stage_depends_on_the_code_it_imports_and_nothing_else():
    games, scores = source_files("rulelab.pipeline.ingest"), source_files("rulelab.pipeline.score")
    assert {"rulelab.read.records", "rulelab.read.replay", "rulelab.read.sgf"} <= set(games) <= set(scores)
    assert "rulelab.life.estimate" in scores and "rulelab.life.estimate" not in games
    assert not any(name.startswith("rulelab.analysis") for name in scores)


def test_a_worker_with_other_code_than_the_client_refuses_to_make_parts(collection, tmp_path):
    stage = games_stage(superko=False)
    object.__setattr__(stage, "code", "the client's code")  # as if unpickled on another machine
    work = UnitWork(tuple(iter_files([collection / "g0001.sgf"])), 0,
                    ((stage, str(tmp_path / "part.parquet"), True),))
    with pytest.raises(RulelabError, match="same rulelab on every machine"):
        run_unit(work)
    assert not list(tmp_path.iterdir())


def test_unknown_engines_and_misplaced_schedulers_are_refused():
    with pytest.raises(RulelabError, match="'engine' parameter"):
        with open_engine("spark"):
            pass
    with pytest.raises(RulelabError, match="needs engine='dask'"):
        with open_engine("local", scheduler="tcp://127.0.0.1:8786"):
            pass


# --- incremental re-runs ----------------------------------------------------------------


@pytest.mark.pool
def test_rerun_makes_parts_only_for_new_and_changed_files(tmp_path):
    folder = write_collection(tmp_path / "games", 400)
    run = tmp_path / "run"
    first = ingest([folder], run, jobs=1)
    assert first["units"]["reused"] == 0 and first["units"]["computed"] == first["units"]["units"] > 2
    before = part_files(run)

    (folder / "g0100.sgf").write_text(random_sgf(5000))
    (folder / "g0400.sgf").write_text(random_sgf(5001))
    again = ingest([folder], run, jobs=2, force=True)

    assert 1 <= again["units"]["computed"] <= 3
    assert again["units"]["reused"] == again["units"]["units"] - again["units"]["computed"]
    after = part_files(run)
    kept = set(before) & set(after)
    assert len(kept) == len(after) - again["units"]["computed"]
    assert all(before[name] == after[name] for name in kept), "a reused part was rewritten"
    ingest([folder], tmp_path / "clean", jobs=1)
    assert (run / "games.parquet").read_bytes() == (tmp_path / "clean" / "games.parquet").read_bytes()
    assert again["counts"] == json.loads((tmp_path / "clean" / "manifest.json").read_text())["counts"]


def test_rerun_on_unchanged_inputs_makes_nothing_and_keeps_the_table(collection, tmp_path):
    ingest([collection], tmp_path / "run", jobs=1)
    table = tmp_path / "run" / "games.parquet"
    written = table.stat().st_mtime_ns
    again = ingest([collection], tmp_path / "run", jobs=1, force=True)
    assert again["units"]["computed"] == 0 and table.stat().st_mtime_ns == written
    assert again["counts"]["games_found"] == 240 + 3 + 1 + 1
    assert again["counts"]["duplicates"] == 1 and again["counts"]["by_status"]["parse_error"] == 1


# --- interrupted runs -----------------------------------------------------------------


@pytest.fixture(scope="module")
def clean_score(collection, tmp_path_factory) -> Path:
    """The tables of an uninterrupted run, made by the command line as the runs under test are."""
    out = tmp_path_factory.mktemp("clean")
    subprocess.run(RULELAB + ["score", str(collection), "--out", str(out), "--jobs", "1"],
                   check=True, capture_output=True, timeout=120)
    return out


def interrupt_when_parts_appear(command: list[str], out: Path, stop: signal.Signals, parts: int) -> int:
    """Run ``command``; send ``stop`` to it and its workers once ``parts`` more parts exist.

    Returns the command's exit status once every process of the run has ended.
    """
    before = len(list(out.glob("parts/*/*.parquet")))
    run = subprocess.Popen(command, start_new_session=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while len(list(out.glob("parts/*/*.parquet"))) < before + parts and time.monotonic() < deadline:
            time.sleep(0.01)
        os.killpg(run.pid, stop)
        status = run.wait(timeout=30)
        while time.monotonic() < deadline:
            os.killpg(run.pid, 0)  # raises once no process of the group is left
            time.sleep(0.05)
    except ProcessLookupError:
        return status
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    raise AssertionError("the run's processes outlived it")


@pytest.mark.pool
@pytest.mark.slow
def test_a_run_stopped_by_ctrl_c_then_killed_resumes_to_the_tables_of_a_clean_run(
        collection, clean_score, tmp_path):
    out = tmp_path / "run"
    command = RULELAB + ["score", str(collection), "--out", str(out), "--jobs", "2"]
    assert interrupt_when_parts_appear(command, out, signal.SIGINT, 2) == 130
    assert interrupt_when_parts_appear(command, out, signal.SIGKILL, 1) == -signal.SIGKILL
    assert not (out / "scores.parquet").exists(), "the run ended before it could be interrupted"
    made_before = set(part_files(out))

    resumed = subprocess.run(command, capture_output=True, text=True, timeout=120)

    assert resumed.returncode == 0, resumed.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    parts = {table: {name.split("/")[1] for name in made_before if name.startswith(f"{table}/")}
             for table in ("games", "scores", "life")}
    # A unit's scores are reused when its scores and life parts were both made.
    reused = len(parts["games"]) + len(parts["scores"] & parts["life"])
    assert manifest["units"]["reused"] + manifest["score"]["units"]["reused"] == reused
    assert made_before <= set(part_files(out))
    assert not list(out.glob("**/*.tmp")), "temporaries of the killed run were left behind"
    for table in ("games.parquet", "scores.parquet", "life.parquet"):
        assert (out / table).read_bytes() == (clean_score / table).read_bytes()


def _rows_or_die_once(items, marker: str):
    """The games rows of a unit; but the first worker to meet ``g0200.sgf`` is killed."""
    if any(item.path.endswith("g0200.sgf") for item in items):
        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL))
            os.kill(os.getpid(), signal.SIGKILL)
        except FileExistsError:
            pass
    return _rows_of_batch(items, superko=False)


@pytest.mark.slow
@pytest.mark.pool
def test_a_killed_worker_stops_the_run_and_a_rerun_loses_no_game(collection, clean_score, tmp_path):
    dying = Stage("games", GAMES_SCHEMA, partial(_rows_or_die_once, marker=str(tmp_path / "died")),
                  {"superko": False})
    store = PartStore(tmp_path / "run")
    with pytest.raises(RulelabError, match="run the same command again"):
        run_units(plan_units(iter_files([collection])), [dying], store, LocalEngine(2))
    assert (tmp_path / "died").exists()

    result = run_units(plan_units(iter_files([collection])), [dying], store, LocalEngine(2))

    keys = result.keys["games"]
    assert 0 < result.computed["games"] < len(keys), "nothing was done before the kill, or all of it"
    publish_table(store, "games", keys, tmp_path / "resumed.parquet", GAMES_SCHEMA, {})
    resumed = pq.read_table(tmp_path / "resumed.parquet").drop_columns("duplicate_of")
    clean = pq.read_table(clean_score / "games.parquet").drop_columns("duplicate_of")
    assert resumed.equals(clean)
