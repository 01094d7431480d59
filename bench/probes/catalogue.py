"""The probe set: each probe is a name, a category and a function that plants its input.

Inputs are made here from their smallest form at every run (never committed); the
harness runs each command as a user would and checks what it left (see harness.py).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import tarfile
import time
from pathlib import Path

import pyarrow.parquet as pq

from bench.probes import inputs
from bench.probes.harness import RULELAB, USER_FILES, Outcome, Probe, Setup, group_ended, run
from bench.probes.inputs import GOOD, record

INGEST_LIKE = (["ingest"], ["score", "--rules", "chinese,japanese"], ["validate"])
TABLES = ("games.parquet", "scores.parquet", "life.parquet")


def plant(scratch: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        (scratch / name).parent.mkdir(parents=True, exist_ok=True)
        (scratch / name).write_bytes(data)


def good_game_scored(scratch: Path, outcome: Outcome) -> str | None:
    """The good game beside a hostile input keeps its ordinary row."""
    rows = pq.read_table(scratch / "run" / "games.parquet", columns=["source_path", "status"]).to_pylist()
    statuses = [row["status"] for row in rows if row["source_path"].endswith("/good.sgf")]
    return None if statuses == ["ok"] else f"good.sgf rows {statuses}, expected ['ok']"


def beside_good(files: dict[str, bytes], rows: dict[str, int | None], command: list[str],
                watched: tuple[Path, ...] = ()):
    """A build function: ``files`` planted in in/ beside a good game, read with ``command``."""
    def build(scratch: Path) -> Setup:
        plant(scratch, {f"in/{name}": data for name, data in files.items()} | {"in/good.sgf": GOOD})
        return Setup([command[0], "in", "--out", "run", "--jobs", "1", *command[1:]],
                     rows={f"in/{name}": want for name, want in rows.items()} | {"in/good.sgf": 1},
                     check=good_game_scored, watched=watched)
    return build


def one_bad_record(data: bytes, command: list[str]):
    return beside_good({"bad.sgf": data}, {"bad.sgf": 1}, command)


# --- record values ----------------------------------------------------------------------

ODD_VALUES = {
    "HA": ["128", "999999999999", "-1", "1.5", "", "abc", "9" * 5000, "0", "1", "10", "nan", "0x10"],
    "KM": ["nan", "inf", "-inf", "1e308", "-1e308", "1e400", "-0", "", "6.5.5", "７．５", "9" * 5000, "-999"],
    "RE": ["B+1 99999999999999999999/3", "B+1e400", "B+nan", "W+inf", "W+-5", "?", "Void", "B+" + "9" * 5000,
           "0", "Draw", "B+R+T", "W+1/0"],
    "SZ": ["0", "1", "2", "26", "27", "52", "53", "-1", "19:9", "9:19", "a", "9" * 5000, "19:0", "5:5:5"],
    "PL": ["X", "", "BW", "9" * 5000],
    "AB": ["aa:zz", "zz", "tt", "aa][aa][aa", "ss:aa", "", "a", "aa:ss][aa:ss"],
    "AW": ["aa:ii", "ee][ee", "`a", "ÿÿ"],
    "B": ["zz", "tt", "", "a", "aaa", "ii:jj"],
}


def value_probes() -> list[Probe]:
    probes = []
    for n, (key, values) in enumerate(ODD_VALUES.items()):
        for m, value in enumerate(values):
            command = INGEST_LIKE[(n + m) % len(INGEST_LIKE)]
            data = f"(;GM[1]SZ[9];{key}[{value}])".encode() if key == "B" else record(f"{key}[{value}]")
            probes.append(Probe(f"{key}[{value[:24]}]#{m}", "record values", one_bad_record(data, command)))
    return probes


# --- encodings --------------------------------------------------------------------------

NAMES = "本因坊秀策 李昌鎬 聂卫平"


def encoded(declared: str | None, codec: str, bom: bytes = b"") -> bytes:
    ca = f"CA[{declared}]" if declared else ""
    text = f"(;GM[1]{ca}SZ[9]PB[{NAMES}]C[{NAMES}];B[ee])"
    return bom + text.encode(codec, errors="replace")


ENCODINGS = {
    "shift-jis undeclared": encoded(None, "shift_jis"),
    "shift-jis declared": encoded("Shift_JIS", "shift_jis"),
    "shift-jis declared UTF-8": encoded("UTF-8", "shift_jis"),
    "gbk undeclared": encoded(None, "gbk"),
    "gbk declared GB2312": encoded("GB2312", "gbk"),
    "gbk declared Big5": encoded("Big5", "gbk"),
    "euc-kr undeclared": encoded(None, "euc_kr"),
    "euc-kr declared": encoded("EUC-KR", "euc_kr"),
    "euc-kr declared latin-1": encoded("ISO-8859-1", "euc_kr"),
    "euc-jp undeclared": encoded(None, "euc_jp"),
    "big5 undeclared": encoded(None, "big5"),
    "gb18030 declared": encoded("GB18030", "gb18030"),
    "utf-16 with BOM": encoded(None, "utf-16"),
    "utf-16-le without BOM": encoded(None, "utf-16-le"),
    "utf-16-be without BOM": encoded(None, "utf-16-be"),
    "utf-16 declared, utf-8 bytes": encoded("UTF-16", "utf-8"),
    "utf-32 with BOM": encoded(None, "utf-32"),
    "utf-8 with BOM": encoded(None, "utf-8", b"\xef\xbb\xbf"),
    "utf-8 BOM, shift-jis bytes": encoded(None, "shift_jis", b"\xef\xbb\xbf"),
    "utf-16 BOM, utf-8 bytes": encoded(None, "utf-8", b"\xff\xfe"),
    "unknown declared charset": encoded("X-NONSENSE-9", "utf-8"),
    "charset of 5,000 characters": encoded("U" * 5000, "utf-8"),
    "invalid utf-8 bytes": b"(;GM[1]CA[UTF-8]SZ[9]PB[\xff\xfe\xc0\xaf\xed\xa0\x80];B[ee])",
    "lone surrogate escapes": b"(;GM[1]SZ[9]PB[\\\xed\xb2\x80];B[ee])",
    "iso-2022-jp": encoded(None, "iso2022_jp"),
    "two games in two encodings": encoded(None, "shift_jis") + encoded(None, "gbk"),
}


def encoding_probes() -> list[Probe]:
    probes = []
    for n, (name, data) in enumerate(ENCODINGS.items()):
        games = 2 if name.startswith("two games") else 1
        command = INGEST_LIKE[n % len(INGEST_LIKE)]
        probes.append(Probe(name, "encodings", beside_good({"bad.sgf": data}, {"bad.sgf": games}, command)))
    return probes


# --- fuzzed records and archives --------------------------------------------------------

RECORDS_PER_PROBE = 10


def fuzzed_records(seed: int):
    chance = random.Random(seed)
    files = {f"f{n}.sgf": inputs.mutate(chance.choice(inputs.SEEDS), chance, chance.randrange(1, 6))
             for n in range(RECORDS_PER_PROBE)}
    return beside_good(files, dict.fromkeys(files), INGEST_LIKE[seed % 2])


ARCHIVE_KINDS = ("zip", "tar", "tar.gz", "tar.xz")


def fuzzed_archive(kind: str, seed: int):
    chance = random.Random(seed)
    members = {f"m{n}.sgf": chance.choice(inputs.SEEDS) for n in range(3)}
    data = inputs.damage_archive(inputs.archive_of(kind, members), chance)
    return beside_good({f"bad.{kind}": data}, {f"bad.{kind}": None}, INGEST_LIKE[seed % 2])


def shift_jis_names() -> bytes:
    return inputs.utf8_flag_on_shift_jis_name({"a.sgf": GOOD}, {"z.sgf": GOOD})


NAMED_ARCHIVES = {
    "tar size 2**80": ("tar", lambda: inputs.claimed_size(2**80)),
    "tar size 2**34": ("tar", lambda: inputs.claimed_size(2**34)),
    "pax size=10**30": ("tar", lambda: inputs.claimed_size(10**30, pax=True)),
    "pax size=-5": ("tar", lambda: inputs.claimed_size(-5, pax=True)),
    "pax header bomb": ("tar.gz", inputs.pax_header_over_the_limit),
    "GNU sparse 1.0 map": ("tar.gz", lambda: inputs.pax_sparse_map(4_000_000)),
    "GNU sparse 0.0": ("tar", inputs.gnu_sparse_00),
    "old sparse, 3 blocks": ("tar.gz", lambda: inputs.old_sparse_blocks(3)),
    "old sparse, 20,000 blocks": ("tar.gz", lambda: inputs.old_sparse_blocks(20_000)),
    "nested archives": ("tar", inputs.nested),
    "zip bomb of 256 MiB": ("zip", lambda: inputs.zip_bomb(256 << 20)),
    "zip of 5,000 empty members": ("zip", lambda: bytes(inputs.zip_bytes({f"{n}.sgf": b"" for n in range(5000)}))),
    "traversal names": ("zip", lambda: bytes(inputs.zip_bytes({"../x.sgf": GOOD, "../../y.sgf": GOOD}))),
    "traversal names in a tar": ("tar", lambda: inputs.tar_bytes({"../x.sgf": GOOD, "a/../../y.sgf": GOOD})),
    "absolute names": ("tar", lambda: inputs.tar_bytes({str(ABSOLUTE): GOOD})),
    "duplicate names": ("zip", inputs.zip_of_twins),
    "duplicate names in a tar": ("tar", lambda: inputs.tar_bytes({"a.sgf": GOOD}) + inputs.tar_bytes({"a.sgf": GOOD})),
    "Shift-JIS names flagged UTF-8": ("zip", shift_jis_names),
    "zip version 7.0": ("zip", inputs.zip_version_7),
    "symlink member": ("tar", lambda: inputs.tar_link_member(tarfile.SYMTYPE, "/etc/passwd")),
    "hard link member": ("tar", lambda: inputs.tar_link_member(tarfile.LNKTYPE, "a.sgf")),
    "device member": ("tar", lambda: inputs.tar_link_member(tarfile.CHRTYPE, "")),
    "FIFO member": ("tar", lambda: inputs.tar_link_member(tarfile.FIFOTYPE, "")),
    "truncated tar.gz": ("tar.gz", lambda: inputs.archive_of("tar.gz", _many())[:-3000]),
    "truncated tar.xz": ("tar.xz", lambda: inputs.archive_of("tar.xz", _many())[:-3000]),
    "truncated zip": ("zip", lambda: inputs.archive_of("zip", _many())[:-3000]),
    "empty zip": ("zip", lambda: bytes(inputs.zip_bytes({}))),
    "zero-byte tar.gz": ("tar.gz", lambda: b""),
    "gzip of garbage": ("tar.gz", lambda: b"\x1f\x8b" + bytes(range(256))),
    "zip holding one README": ("zip", lambda: bytes(inputs.zip_bytes({"README.txt": b"hi"}))),
}


def _many() -> dict[str, bytes]:
    return {f"g{n:03d}.sgf": GOOD + random.Random(n).randbytes(300).hex().encode() for n in range(60)}


ABSOLUTE = Path("/tmp/rulelab-probe-absolute.sgf")
"""The name of an archive member that no reading of the archive may create."""


def archive_probes() -> list[Probe]:
    probes = [Probe(f"{kind} #{seed}", "fuzzed archives", fuzzed_archive(kind, seed))
              for kind in ARCHIVE_KINDS for seed in range(12)]
    for n, (name, (kind, make)) in enumerate(NAMED_ARCHIVES.items()):
        build = beside_good({f"bad.{kind}": make()}, {f"bad.{kind}": None}, INGEST_LIKE[n % len(INGEST_LIKE)],
                            watched=(ABSOLUTE,))
        probes.append(Probe(name, "archives", build))
    return probes


# --- the filesystem ---------------------------------------------------------------------


def games_folder(scratch: Path, count: int) -> dict[str, int]:
    plant(scratch, {f"in/g{n:04d}.sgf": GOOD.replace(b"good", f"p{n}".encode()) for n in range(count)})
    return {f"in/g{n:04d}.sgf": 1 for n in range(count)}


def planted(where: str, link_to: str, hard: bool = False):
    """A run folder whose ``where`` is a link (``link_to`` is ``file`` or ``folder`` of the user's)."""
    def build(scratch: Path) -> Setup:
        mine = scratch / "mine"
        games_folder(scratch, 2)
        target = mine / "thesis.tex" if link_to == "file" else mine
        (scratch / "run" / where).parent.mkdir(parents=True, exist_ok=True)
        if hard:
            os.link(target, scratch / "run" / where)
        else:
            (scratch / "run" / where).symlink_to(target)
        return Setup(["ingest", "in", "--out", "run", "--jobs", "1"], exits=(0, 2))
    return build


def loop(scratch: Path) -> str:
    (scratch / "loop-a").symlink_to("loop-b")
    (scratch / "loop-b").symlink_to("loop-a")
    return "loop-a"


def loop_as_input(scratch: Path) -> Setup:
    rows = games_folder(scratch, 2)
    return Setup(["ingest", loop(scratch), "in", "--out", "run", "--jobs", "1"], rows=rows | {"loop-a": 1})


def loop_as_out(scratch: Path) -> Setup:
    games_folder(scratch, 1)
    return Setup(["ingest", "in", "--out", loop(scratch), "--jobs", "1"], exits=(2,))


def loop_as_report_run(scratch: Path) -> Setup:
    return Setup(["report", loop(scratch), "report"], exits=(2,), owned=("report",))


def fifo_input(scratch: Path) -> Setup:
    rows = games_folder(scratch, 1)
    os.mkfifo(scratch / "in" / "pipe.sgf")
    return Setup(["ingest", "in", "--out", "run", "--jobs", "1"], rows=rows | {"in/pipe.sgf": 1})


def device_input(scratch: Path) -> Setup:
    rows = games_folder(scratch, 1)
    return Setup(["score", "/dev/zero", "/dev/null", "in", "--out", "run", "--jobs", "1", "--rules", "chinese"],
                 rows=rows | {"/dev/zero": 1, "/dev/null": 1})


def unreadable(what: str):
    def build(scratch: Path) -> Setup:
        rows = games_folder(scratch, 2)
        path = scratch / "in" / ("g0000.sgf" if what == "file" else "")
        if what == "folder":
            plant(scratch, {"in/sub/x.sgf": GOOD})
            path = scratch / "in" / "sub"
        path.chmod(0)
        rows = rows if what == "file" else rows | {"in/sub/x.sgf": None}
        return Setup(["ingest", "in", "--out", "run", "--jobs", "1"], rows=rows if os.geteuid() else {})
    return build


def rulelab_folder_in_cwd(scratch: Path) -> Setup:
    rows = games_folder(scratch, 4)
    (scratch / "rulelab").mkdir()
    return Setup(["ingest", "in", "--out", "run", "--jobs", "2"], rows=rows)


def out_is_a_link_to_user_files(scratch: Path) -> Setup:
    """The link is the user's own choice of run folder: rulelab writes beside their files."""
    rows = games_folder(scratch, 1)
    (scratch / "run").symlink_to("mine")
    return Setup(["ingest", "in", "--out", "run", "--jobs", "1"], rows=rows, owned=("mine",), check=_user_files_kept)


def _user_files_kept(scratch: Path, outcome: Outcome) -> str | None:
    kept = all((scratch / name).read_bytes() == data for name, data in USER_FILES.items())
    return None if kept else "the user's files in the run folder changed"


def out_holds_user_files(scratch: Path) -> Setup:
    rows = games_folder(scratch, 2)
    plant(scratch, {"run/notes.txt": b"mine"})
    return Setup(["ingest", "in", "--out", "run", "--jobs", "1"], rows=rows, check=_notes_kept)


def _notes_kept(scratch: Path, outcome: Outcome) -> str | None:
    return None if (scratch / "run" / "notes.txt").read_bytes() == b"mine" else "run/notes.txt changed"


def input_is_the_run_folder(scratch: Path) -> Setup:
    games_folder(scratch, 2)
    return Setup(["ingest", "in", "--out", "in", "--jobs", "1"], exits=(0, 2), owned=("in",))


FILESYSTEM = {
    "symlink loop as input": loop_as_input,
    "symlink loop as --out": loop_as_out,
    "symlink loop as the report's run": loop_as_report_run,
    "lock a symlink to a user file": planted(".rulelab.lock", "file"),
    "lock a hard link to a user file": planted(".rulelab.lock", "file", hard=True),
    "parts a symlink to a user folder": planted("parts", "folder"),
    "parts/games a symlink to a user folder": planted("parts/games", "folder"),
    "manifest temp file a symlink": planted(f".manifest.json.{os.getpid()}.tmp", "file"),
    "FIFO as input": fifo_input,
    "devices as inputs": device_input,
    "unreadable file": unreadable("file"),
    "unreadable folder": unreadable("folder"),
    "a rulelab folder in the cwd, --jobs 2": rulelab_folder_in_cwd,
    "--out a link to user files": out_is_a_link_to_user_files,
    "--out holding user files": out_holds_user_files,
    "--out the input folder": input_is_the_run_folder,
}


def filesystem_probes() -> list[Probe]:
    return [Probe(name, "filesystem", build) for name, build in FILESYSTEM.items()]


# --- damaged run folders ----------------------------------------------------------------


def rulelab(scratch: Path, *argv: str) -> None:
    """A step of a probe's set-up, run to the end (it must succeed)."""
    subprocess.run([RULELAB, *argv], cwd=scratch, check=True, capture_output=True, timeout=300)


SCORE = ["score", "in", "--jobs", "1", "--rules", "chinese", "--out"]


def flip_a_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 3] ^= 1
    path.write_bytes(bytes(data))


def zero_first_part(run_folder: Path) -> None:
    next(iter(sorted((run_folder / "parts" / "games").glob("*.parquet")))).write_bytes(b"")


DAMAGES = {
    "empty manifest": ("manifest.json", lambda path: path.write_text("")),
    "torn manifest": ("manifest.json", lambda path: path.write_bytes(path.read_bytes()[:100])),
    "garbage manifest": ("manifest.json", lambda path: path.write_bytes(os.urandom(300))),
    "manifest of null": ("manifest.json", lambda path: path.write_text("null")),
    "missing manifest": ("manifest.json", Path.unlink),
    "zero-byte games table": ("games.parquet", lambda path: path.write_bytes(b"")),
    "flipped byte in games": ("games.parquet", flip_a_byte),
    "flipped byte in scores": ("scores.parquet", flip_a_byte),
    "zero-byte life table": ("life.parquet", lambda path: path.write_bytes(b"")),
    "zero-byte part": (".", zero_first_part),
}


def damaged(damage: str, force: bool):
    def build(scratch: Path) -> Setup:
        rows = games_folder(scratch, 3)
        rulelab(scratch, *SCORE, "clean")
        rulelab(scratch, *SCORE, "run")
        name, spoil = DAMAGES[damage]
        spoil(scratch / "run" / name)
        return Setup([*SCORE, "run", *(["--force"] if force else [])], rows=rows, owned=("run", "clean"),
                     check=same_tables_as_clean)
    return build


def same_tables_as_clean(scratch: Path, outcome: Outcome) -> str | None:
    for table in TABLES:
        if (scratch / "run" / table).read_bytes() != (scratch / "clean" / table).read_bytes():
            return f"{table} differs from an uninterrupted run's"
    return None


def damaged_probes() -> list[Probe]:
    return [Probe(f"{damage}{' --force' if force else ''}", "damaged run folders", damaged(damage, force))
            for damage in DAMAGES for force in (False, True)]


# --- the report -------------------------------------------------------------------------


def scored(scratch: Path, run_folder: str = "run", count: int = 3) -> None:
    games_folder(scratch, count)
    (scratch / run_folder).parent.mkdir(parents=True, exist_ok=True)
    rulelab(scratch, *SCORE, run_folder)


def report_into(out: str, run_folder: str = "run", user: dict[str, bytes] | None = None, exits=(2,), owned=()):
    def build(scratch: Path) -> Setup:
        scored(scratch, run_folder)
        plant(scratch, user or {})
        return Setup(["report", run_folder, *([out] if out else [])], exits=exits, owned=owned)
    return build


def report_twice(scratch: Path) -> Setup:
    scored(scratch)
    rulelab(scratch, "report", "run", "report")
    return Setup(["report", "run", "report"], owned=("report",))


REPORTS = {
    "run inside out": report_into("proj", "proj/run", {"proj/report.md": b"mine", "proj/notes.txt": b"mine"}),
    "out holding user files": report_into("out", user={"out/notes.txt": b"mine"}),
    "out holding index.html": report_into("site", user={"site/index.html": b"<p>mine", "site/thesis.tex": b"x",
                                                          "site/photos/a.jpg": b"x"}),
    "out the run folder": report_into("run"),
    "out inside the run folder": report_into("run/report"),
    "a new out folder": report_into("report", exits=(0,), owned=("report",)),
    "default out folder": report_into("", exits=(0,), owned=("run-report",)),
    "twice into its own folder": report_twice,
}


def report_probes() -> list[Probe]:
    return [Probe(name, "report", build) for name, build in REPORTS.items()]


# --- SQL --------------------------------------------------------------------------------

ESCAPES = {
    "COPY to a file": "COPY games TO 'leak.csv'",
    "COPY to a user file": "COPY (SELECT 1) TO 'mine/thesis.tex'",
    "read_csv of /etc/passwd": "SELECT * FROM read_csv('/etc/passwd')",
    "read_text": "SELECT * FROM read_text('mine/thesis.tex')",
    "read_parquet of another run": "SELECT * FROM read_parquet('other/games.parquet')",
    "glob": "SELECT * FROM glob('*')",
    "ATTACH": "ATTACH 'new.db' AS x",
    "INSTALL": "INSTALL httpfs",
    "LOAD": "LOAD httpfs",
    "SET external access": "SET enable_external_access = true",
    "PRAGMA": "PRAGMA database_list",
    "EXPORT DATABASE": "EXPORT DATABASE 'dump'",
    "CREATE TABLE": "CREATE TABLE t AS SELECT 1",
    "two statements": "SELECT 1; COPY games TO 'leak.csv'",
    "a billion rows": "SELECT * FROM range(1000000000)",
}


def sql_probe(query: str, run_folder: str = "run", allow: bool = False):
    def build(scratch: Path) -> Setup:
        scored(scratch, run_folder)
        rulelab(scratch, *SCORE, "other")
        return Setup(["sql", run_folder, query, *(["--allow-files"] if allow else [])], exits=(0, 2), owned=(),
                     check=_no_passwd)
    return build


def _no_passwd(scratch: Path, outcome: Outcome) -> str | None:
    return "printed /etc/passwd" if "root:" in outcome.stdout else None


def sql_probes() -> list[Probe]:
    probes = [Probe(name, "sql", sql_probe(query)) for name, query in ESCAPES.items()]
    for folder in ("b[c]", "run?", "a*b", "x{y}"):
        for allow in (False, True):
            probes.append(Probe(f"folder {folder}{' --allow-files' if allow else ''}", "sql",
                                sql_probe("SELECT count(*) FROM games", folder, allow)))
    return probes


# --- signals ----------------------------------------------------------------------------

SIGNAL_GAMES = 1500


def signalled(signals: tuple[tuple[float, int], ...], when: str):
    """A scoring run with workers, signalled as a terminal does once ``when`` shows."""
    def build(scratch: Path) -> Setup:
        games_folder(scratch, SIGNAL_GAMES)
        return Setup(["score", "in", "--out", "run", "--jobs", "2"], exits=(130, 143, -2))

    def act(scratch: Path, setup: Setup) -> Outcome:
        marker = scratch / "run" / when
        return run(scratch, setup.argv, signals=signals, signal_when=marker.exists)
    return build, act


def killed_then_rerun(when: str):
    """kill -9 of the main process, then the same command again: the tables of a clean run."""
    def build(scratch: Path) -> Setup:
        rows = games_folder(scratch, 400)
        rulelab(scratch, "score", "in", "--out", "clean", "--jobs", "1", "--rules", "chinese")
        return Setup(["score", "in", "--out", "run", "--jobs", "2", "--rules", "chinese"], rows=rows,
                     owned=("run", "clean"), check=same_tables_as_clean)

    def act(scratch: Path, setup: Setup) -> Outcome:
        marker = scratch / "run" / when
        child = subprocess.Popen([RULELAB, *setup.argv], cwd=scratch, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, start_new_session=True)
        started = time.monotonic()
        while not marker.exists() and child.poll() is None and time.monotonic() - started < 60:
            time.sleep(0.02)
        child.kill()
        child.wait()
        orphans_ended = group_ended(child.pid)  # the workers notice their parent is gone
        outcome = run(scratch, setup.argv)
        outcome.left_behind |= not orphans_ended
        return outcome
    return build, act


SIGNALS = {
    "SIGINT while loading": signalled(((0, signal.SIGINT),), ".rulelab.lock"),
    "SIGINT while working": signalled(((0, signal.SIGINT),), "parts/scores"),
    "SIGINT twice while loading": signalled(((0, signal.SIGINT), (0.1, signal.SIGINT)), ".rulelab.lock"),
    "SIGINT twice while working": signalled(((0, signal.SIGINT), (0.1, signal.SIGINT)), "parts/scores"),
    "SIGINT twice, at once": signalled(((0, signal.SIGINT), (0.01, signal.SIGINT)), "parts/scores"),
    "SIGTERM while loading": signalled(((0, signal.SIGTERM),), ".rulelab.lock"),
    "SIGTERM while working": signalled(((0, signal.SIGTERM),), "parts/scores"),
    "kill -9 while loading, rerun": killed_then_rerun(".rulelab.lock"),
    "kill -9 while working, rerun": killed_then_rerun("parts/games"),
    "kill -9 while scoring, rerun": killed_then_rerun("parts/scores"),
}


def signal_probes() -> list[Probe]:
    return [Probe(name, "signals", build, act) for name, (build, act) in SIGNALS.items()]


def all_probes() -> list[Probe]:
    from bench.probes.faults import fault_probes

    probes = [*value_probes(), *encoding_probes(),
              *(Probe(f"seed {seed}", "fuzzed records", fuzzed_records(seed)) for seed in range(80)),
              *archive_probes(), *filesystem_probes(), *damaged_probes(), *report_probes(), *sql_probes(),
              *signal_probes(), *fault_probes()]
    names = [(probe.category, probe.name) for probe in probes]
    assert len(names) == len(set(names)), "two probes share a name"
    return probes
