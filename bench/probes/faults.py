"""Probes of what one broken game, one odd archive, one hostile run folder, two reports at
once, an unbounded query or a rerun may do: each made from its smallest form."""

from __future__ import annotations

import dataclasses
import gzip
import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from bench.probes import inputs
from bench.probes.catalogue import SCORE, TABLES, games_folder, plant, rulelab, same_tables_as_clean, scored
from bench.probes.harness import RULELAB, Outcome, Probe, Setup, group_ended, run
from bench.probes.inputs import GOOD


def _games(count: int, broken: int | None = None) -> bytes:
    games = [GOOD.replace(b"good", f"p{n}".encode()) for n in range(count)]
    if broken is not None:
        games[broken] = games[broken][:-1]
    return b"".join(games)


def _statuses(source: str, want: list[str]):
    def check(scratch: Path, outcome: Outcome) -> str | None:
        rows = pq.read_table(scratch / "run" / "games.parquet", columns=["source_path", "status"]).to_pylist()
        have = [row["status"] for row in rows if row["source_path"] == source]
        return None if have == want else f"{source}: statuses {have[:5]}..., expected {want[:5]}..."
    return check


def _reading(files: dict[str, bytes], rows: dict[str, int], check=None):
    def build(scratch: Path) -> Setup:
        plant(scratch, {f"in/{name}": data for name, data in files.items()})
        return Setup(["ingest", "in", "--out", "run", "--jobs", "1"],
                     rows={f"in/{name}": want for name, want in rows.items()}, check=check)
    return build


def _named_zip() -> bytes:
    data = bytes(inputs.zip_bytes({"aXb.sgf": GOOD, "cXd.sgf": GOOD, "eXf.sgf": GOOD}))
    for mark, name in ((b"aXb", b"a\0b"), (b"cXd", b"c\xffd"), (b"eXf", b"e\x1bf")):
        data = data.replace(mark, name)
    return data


def _two_tars() -> bytes:
    return b"".join(gzip.compress(inputs.tar_bytes({f"{n}.sgf": GOOD.replace(b"good", bytes([97 + n]))}), mtime=0)
                    for n in range(2))


CONCATENATED_GZIP = {
    "cat a.tar.gz b.tar.gz": _reading({"cat.tar.gz": _two_tars()}, {"cat.tar.gz": 2}),
    "a lone .sgf.gz": _reading({"g.sgf.gz": gzip.compress(GOOD)}, {"g.sgf.gz": 1}),
    "a .sgf.gz of two gzip members": _reading({"g.sgf.gz": gzip.compress(GOOD) + gzip.compress(_games(1))},
                                              {"g.sgf.gz": 2}),
    "a tar of .sgf.gz members": _reading({"t.tar": inputs.tar_bytes({"a.sgf.gz": gzip.compress(GOOD)})},
                                         {"t.tar": 1}),
}
COLLECTIONS = {
    "50 games on one line, game 2 unclosed": _reading(
        {"fifty.sgf": _games(50, broken=1)}, {"fifty.sgf": 50},
        _statuses("in/fifty.sgf", ["ok", "parse_error"] + ["ok"] * 48)),
    "zip member names of NUL, 0xFF, ESC": _reading({"names.zip": _named_zip()}, {"names.zip": 3}),
    "UTF-16 without BOM": _reading({"w.sgf": GOOD.decode().encode("utf-16-le")}, {"w.sgf": 1},
                                   _statuses("in/w.sgf", ["ok"])),
}


# --- hostile run folders ------------------------------------------------------------------


def _scored_then(spoil, argv: list[str], exits=(0, 2), check=None):
    def build(scratch: Path) -> Setup:
        scored(scratch)
        spoil(scratch / "run")
        return Setup(argv, exits=exits, owned=("run", "report"), check=check)
    return build


def _replace(path: Path, make) -> None:
    path.unlink()
    make(path)


def _rewrite(table: str, column: str, value):
    def spoil(folder: Path) -> None:
        data = pq.read_table(folder / table)
        index = data.schema.get_field_index(column)
        field = data.schema.field(index)
        pq.write_table(data.set_column(index, field, pa.array([value] * data.num_rows, field.type)), folder / table)
        manifest = json.loads((folder / "manifest.json").read_text())
        manifest["checksums"].pop(table)  # a hostile edit that kept the manifest in step
        (folder / "manifest.json").write_text(json.dumps(manifest))
    return spoil


def _user_manifest(content: bytes):
    def build(scratch: Path) -> Setup:
        games_folder(scratch, 1)
        plant(scratch, {"run/manifest.json": content})
        return Setup(["ingest", "in", "--out", "run", "--jobs", "1"], exits=(2,),
                     check=lambda scratch, outcome: None if (scratch / "run" / "manifest.json").read_bytes() == content
                     else "the user's manifest.json was replaced")
    return build


def _user_files_in_parts(scratch: Path) -> Setup:
    rows = games_folder(scratch, 2)
    rulelab(scratch, *SCORE, "run")
    mine = {"run/parts/games/notes.txt": b"mine", "run/parts/scores/x.parquet": b"mine",
            "run/.games.parquet.1.tmp": b"mine"}
    plant(scratch, mine | {"in/new.sgf": GOOD.replace(b"good", b"new")})

    def kept(scratch: Path, outcome: Outcome) -> str | None:
        lost = [name for name, data in mine.items() if (scratch / name).read_bytes() != data]
        return f"user files removed or changed: {lost}" if lost else None
    return Setup([*SCORE, "run", "--force"], rows=rows | {"in/new.sgf": 1}, check=kept)


SQL_GAMES = ["sql", "run", "SELECT count(*) FROM games"]
HOSTILE_FOLDERS = {
    "manifest a FIFO, sql": _scored_then(lambda run: _replace(run / "manifest.json", os.mkfifo), SQL_GAMES),
    "manifest a FIFO, ingest": _scored_then(lambda run: _replace(run / "manifest.json", os.mkfifo),
                                            ["ingest", "in", "--out", "run", "--jobs", "1"]),
    "manifest a link to /dev/zero, report": _scored_then(
        lambda run: _replace(run / "manifest.json", lambda path: path.symlink_to("/dev/zero")),
        ["report", "run", "report"]),
    "checksums naming /dev/zero and a FIFO, sql": _scored_then(
        lambda run: (os.mkfifo(run / "fifo"), (run / "manifest.json").write_text(json.dumps(
            {**json.loads((run / "manifest.json").read_text()), "checksums": {"/dev/zero": "0", "fifo": "0"}}))),
        SQL_GAMES),
    "manifest of wrong types, rerun": _scored_then(
        lambda run: (run / "manifest.json").write_text(json.dumps({"rulelab_version": "0", "inputs": 5,
                                                                   "options": [], "tables": []})),
        SCORE + ["run"]),
    "games of another schema, sql": _scored_then(
        lambda run: pq.write_table(pa.table({"game_id": ["x"]}), run / "games.parquet"), SQL_GAMES),
    "scores with ruleset klingon, report": _scored_then(_rewrite("scores.parquet", "ruleset", "klingon"),
                                                        ["report", "run", "report"]),
    "scores with winner Z, report": _scored_then(_rewrite("scores.parquet", "winner", "Z"),
                                                 ["report", "run", "report"]),
    "scores with NaN margins, report": _scored_then(_rewrite("scores.parquet", "margin", float("nan")),
                                                    ["report", "run", "report"]),
    "life masks of the wrong length, report": _scored_then(_rewrite("life.parquet", "dead", b"\0"),
                                                           ["report", "run", "report"]),
    "scores a link to /dev/zero, sql": _scored_then(
        lambda run: _replace(run / "scores.parquet", lambda path: path.symlink_to("/dev/zero")), SQL_GAMES),
    "a user's manifest.json, a JSON list": _user_manifest(b"[1, 2]"),
    "a user's manifest.json with a comment": _user_manifest(b'{"a": 1 /* mine */}'),
    "user files in parts/ and a .tmp name": _user_files_in_parts,
    "validate: validation.parquet a link to the thesis": _scored_then(
        lambda run: (run / "validation.parquet").symlink_to("../mine/thesis.tex"),
        ["validate", "in", "--out", "run", "--jobs", "1"], exits=(2,)),
}


# --- report concurrency -------------------------------------------------------------------


def _reported(scratch: Path) -> Setup:
    scored(scratch)
    rulelab(scratch, "report", "run", "clean-report")
    return Setup(["report", "run", "report"], exits=(0, 2), owned=("report", "clean-report"))


def _report_files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in folder.iterdir()} if folder.is_dir() else {}


def _two_at_once(scratch: Path, setup: Setup) -> Outcome:
    other = subprocess.Popen([RULELAB, *setup.argv], cwd=scratch, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, start_new_session=True)
    outcome = run(scratch, setup.argv)
    _, err = other.communicate(timeout=120)
    if other.returncode not in (0, 2) or b"Traceback" in err:
        outcome.stderr += f"\nthe other build: status {other.returncode}: {err.decode()[-300:]}"
        outcome.status = None
    outcome.left_behind |= not group_ended(other.pid)
    return outcome


def _same_as_a_clean_report(scratch: Path, outcome: Outcome) -> str | None:
    have, want = _report_files(scratch / "report"), _report_files(scratch / "clean-report")
    differ = sorted(name for name in have.keys() | want.keys() if have.get(name) != want.get(name))
    return f"the report differs from a clean build in {differ[:3]}" if differ else None


def _saved_meanwhile(scratch: Path, setup: Setup) -> Outcome:
    rulelab(scratch, *setup.argv)  # a report to rebuild
    note = scratch / "report" / "notes.txt"
    building = scratch / ".report.building"

    def save_when_building() -> bool:
        if building.exists():
            note.write_bytes(b"mine")
            return True
        return False
    return run(scratch, setup.argv, signals=((0, 0),), signal_when=save_when_building)  # signal 0: none sent


def _note_kept(scratch: Path, outcome: Outcome) -> str | None:
    note = scratch / "report" / "notes.txt"
    if note.exists() and note.read_bytes() == b"mine":
        return None
    return "the file saved into the report folder during the build was lost"


REPORTS = {
    "two builds into one folder at once": (_reported, _two_at_once, _same_as_a_clean_report),
    "a file saved during a rebuild": (_reported, _saved_meanwhile, _note_kept),
}


# --- sql limits and signals ---------------------------------------------------------------

FOREVER = "WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) SELECT count(*) FROM t"
SIGNAL_AFTER = 4.0
"""Seconds before the signal: the query is running by then (rulelab starts in about 1 s)."""
STOP_WITHIN = 2.0


def _sql_run(query: str, exits=(2,), only_games: bool = False):
    def build(scratch: Path) -> Setup:
        games_folder(scratch, 2)
        rulelab(scratch, "ingest" if only_games else "score", "in", "--out", "run", "--jobs", "1",
                *(() if only_games else ("--rules", "chinese")))
        return Setup(["sql", "run", query], exits=exits, owned=(), check=_one_line)
    return build


def _one_line(scratch: Path, outcome: Outcome) -> str | None:
    lines = outcome.stderr.strip().splitlines()
    if outcome.status and (len(lines) != 1 or not lines[0].startswith("rulelab: ")):
        return f"standard error is not one rulelab: line: {lines[:3]}"
    return None


def _signalled(number: int, group: bool):
    def act(scratch: Path, setup: Setup) -> Outcome:
        started = time.monotonic()
        child = subprocess.Popen([RULELAB, *setup.argv], cwd=scratch, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        time.sleep(SIGNAL_AFTER)
        sent = time.monotonic()
        (os.killpg if group else os.kill)(child.pid, number)
        try:
            _, err = child.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            child.kill()
            _, err = child.communicate()
        took = time.monotonic() - sent
        outcome = Outcome(child.returncode, "", err.decode(errors="replace"), time.monotonic() - started, 0,
                          left_behind=not group_ended(child.pid))
        if took > STOP_WITHIN:
            outcome.stderr += f"\nstopped {took:.1f} s after the signal, not within {STOP_WITHIN:g} s"
            outcome.status = None
        return outcome
    return act


SQL = {
    "recursive CTE, SIGINT to the group": (_sql_run(FOREVER, exits=(130,)), _signalled(signal.SIGINT, True)),
    "recursive CTE, SIGINT to the process": (_sql_run(FOREVER, exits=(130,)), _signalled(signal.SIGINT, False)),
    "recursive CTE, SIGTERM": (_sql_run(FOREVER, exits=(143,)), _signalled(signal.SIGTERM, True)),
    "cross join of 10**12 rows, default time limit": (
        _sql_run("SELECT count(*) FROM range(1000000) a, range(1000000) b"), None),
    "list of 3e8 values": (_sql_run("SELECT len(list(i)) FROM range(300000000) t(i)"), None),
    "a 1 GB string_agg": (_sql_run("SELECT length(string_agg(repeat('x', 1000), '')) FROM range(1000000)"), None),
    "an ingest-only run": (_sql_run("SELECT count(*) FROM games", exits=(0,), only_games=True), None),
}


# --- reruns -------------------------------------------------------------------------------


def _rerun(command: list[str]):
    def build(scratch: Path) -> Setup:
        rows = games_folder(scratch, 3)
        plant(scratch, {name: (scratch / name).read_bytes().replace(b"KM[", b"RU[Chinese]KM[") for name in rows})
        for folder in ("clean", "run"):
            rulelab(scratch, *command, "--out", folder)
        return Setup([*command, "--out", "run"], rows=rows, owned=("run", "clean"), check=_same_as_clean)
    return build


def _same_as_clean(scratch: Path, outcome: Outcome) -> str | None:
    present = [table for table in TABLES if (scratch / "clean" / table).exists()]
    for table in present:
        if (scratch / "run" / table).read_bytes() != (scratch / "clean" / table).read_bytes():
            return f"{table} differs from the first run's"
    return None


def _refused_start(argv: list[str]):
    def build(scratch: Path) -> Setup:
        plant(scratch, {"notes/notes.txt": b"no game here"})
        games_folder(scratch, 1)
        return Setup(argv, exits=(2,), owned=(),
                     check=lambda scratch, outcome: "left a folder" if (scratch / "new").exists() else None)
    return build


RERUNS = {
    "ingest twice": _rerun(["ingest", "in", "--jobs", "1"]),
    "score twice": _rerun(["score", "in", "--jobs", "1", "--rules", "chinese"]),
    "validate twice": _rerun(["validate", "in", "--jobs", "1"]),
    "--jobs 0 into a new folder": _refused_start(["ingest", "in", "--out", "new/run", "--jobs", "0"]),
    "no game into a new folder": _refused_start(["ingest", "notes", "--out", "new/run", "--jobs", "1"]),
}


def _checked_by(build, check):
    return lambda scratch: dataclasses.replace(build(scratch), check=check)


def fault_probes() -> list[Probe]:
    return [*(Probe(name, "concatenated gzip", build) for name, build in CONCATENATED_GZIP.items()),
            *(Probe(name, "collections", build) for name, build in COLLECTIONS.items()),
            *(Probe(name, "hostile run folders", build) for name, build in HOSTILE_FOLDERS.items()),
            *(Probe(name, "report concurrency", _checked_by(build, check), act)
              for name, (build, act, check) in REPORTS.items()),
            *(Probe(name, "sql limits and signals", build, act) for name, (build, act) in SQL.items()),
            *(Probe(name, "reruns", build) for name, build in RERUNS.items())]
