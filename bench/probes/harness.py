"""Run one probe as a user would and judge what it left behind.

Each probe runs ``rulelab`` as a fresh child process in its own session, so its peak
resident set comes from ``wait4`` (the largest process of its tree that was waited for),
a hang can be killed whole, and a traceback shows on its standard error. What a probe may
change is its own run and report folders; everything else it can reach (its inputs, the
user's files beside them, the targets of links it plants) is snapshotted before and after.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pyarrow.parquet as pq

HANG_SECONDS = 60
SMALL_INPUT = 1 << 20
PEAK_LIMIT = 1 << 30
"""An input under SMALL_INPUT bytes must run under PEAK_LIMIT bytes of resident memory."""

RULELAB = str(Path(sys.executable).with_name("rulelab"))


@dataclass
class Setup:
    """What a probe's build function planted in its scratch folder.

    ``argv`` follows ``rulelab``; ``rows`` maps each planted input (a path relative to the
    scratch folder) to the rows it must have in ``games.parquet`` (``None``: at least one);
    ``exits`` are the accepted exit statuses; ``owned`` are the folders the command may
    write (relative); ``watched`` are paths outside the scratch folder that must not change.
    """

    argv: list[str]
    rows: dict[str, int | None] = field(default_factory=dict)
    exits: tuple[int, ...] = (0,)
    owned: tuple[str, ...] = ("run",)
    watched: tuple[Path, ...] = ()
    check: Callable[[Path, "Outcome"], str | None] | None = None
    """A last check of the probe's own (scratch folder, outcome): a failure reason or None."""


@dataclass(frozen=True)
class Probe:
    name: str
    category: str
    build: Callable[[Path], Setup]
    act: Callable[[Path, Setup], "Outcome"] | None = None
    """How to run it, when not to completion (signals); default `run_to_end`."""


@dataclass
class Outcome:
    status: int | None
    stdout: str
    stderr: str
    seconds: float
    peak_bytes: int
    hung: bool = False
    left_behind: bool = False
    """Processes of the command still running 5 s after it ended."""


def run_to_end(scratch: Path, setup: Setup) -> Outcome:
    return run(scratch, setup.argv)


def run(scratch: Path, argv: list[str], signals: tuple[tuple[float, int], ...] = (),
        signal_when: Callable[[], bool] | None = None) -> Outcome:
    """Run ``rulelab argv`` in ``scratch``; after ``signal_when()`` holds (or at once), send
    each (delay, signal) of ``signals`` to its whole process group, as a terminal does."""
    started = time.monotonic()
    with open(scratch / ".stdout", "wb") as out, open(scratch / ".stderr", "wb") as err:
        child = subprocess.Popen([RULELAB, *argv], cwd=scratch, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                 start_new_session=True)
    pending = list(signals)
    while True:
        pid, wait_status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() - started > HANG_SECONDS:
            _kill_group(child.pid)
            _, _, usage = os.wait4(child.pid, 0)
            child.returncode = -signal.SIGKILL
            return Outcome(None, *_output(scratch), time.monotonic() - started, usage.ru_maxrss * 1024, hung=True)
        if pending and (signal_when is None or signal_when()):
            for delay, number in pending:
                time.sleep(delay)
                _signal_group(child.pid, number)
            pending = []
        time.sleep(0.02)
    child.returncode = status = os.waitstatus_to_exitcode(wait_status)
    seconds = time.monotonic() - started
    left_behind = not group_ended(child.pid)
    return Outcome(status, *_output(scratch), seconds, usage.ru_maxrss * 1024, left_behind=left_behind)


def group_ended(pid: int, grace: float = 5.0) -> bool:
    """Whether every process of the group led by ``pid`` ends within ``grace`` seconds of
    its leader (workers still stopping); those that do not are killed."""
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        if not _group_running(pid):
            return True
        time.sleep(0.05)
    _kill_group(pid)
    return False


def _group_running(pid: int) -> bool:
    """Whether a process of the group led by ``pid`` still runs. A zombie runs nothing: an
    orphan killed here waits for a PID 1 that may reap it late (a container's init)."""
    try:
        os.killpg(pid, 0)
    except ProcessLookupError:
        return False
    if not Path("/proc").is_dir():
        return True
    for stat_file in Path("/proc").glob("[0-9]*/stat"):
        try:
            state, _, group = stat_file.read_text().rsplit(")", 1)[1].split()[:3]
        except (OSError, IndexError, ValueError):
            continue  # ended while read
        if int(group) == pid and state != "Z":
            return True
    return False


def _signal_group(pid: int, number: int) -> None:
    try:
        os.killpg(pid, number)
    except ProcessLookupError:
        pass


def _kill_group(pid: int) -> None:
    _signal_group(pid, signal.SIGKILL)


def _output(scratch: Path) -> tuple[str, str]:
    """The command's standard output and error (the first MiB of each)."""
    return tuple((scratch / name).read_bytes()[:1 << 20].decode(errors="replace") for name in (".stdout", ".stderr"))


# --- what a probe may not change -------------------------------------------------------


def snapshot(roots: list[Path], skip: set[Path]) -> dict[str, tuple]:
    """Every path under ``roots`` (links not followed): kind, size, mtime, and content hash
    or link target. FIFOs and devices are listed, never opened."""
    seen: dict[str, tuple] = {}
    for root in roots:
        _walk(root, skip, seen)
    return seen


def _walk(path: Path, skip: set[Path], seen: dict[str, tuple]) -> None:
    if path in skip:
        return
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        seen[str(path)] = ("missing",)
        return
    mode = info.st_mode
    if stat.S_ISLNK(mode):
        seen[str(path)] = ("link", os.readlink(path))
    elif stat.S_ISREG(mode):
        seen[str(path)] = ("file", info.st_size, info.st_mtime_ns, _hash(path, mode))
    elif stat.S_ISDIR(mode):
        seen[str(path)] = ("dir", stat.S_IMODE(mode))
        try:
            children = sorted(os.listdir(path))
        except PermissionError:
            return
        for name in children:
            _walk(path / name, skip, seen)
    else:
        seen[str(path)] = ("special", stat.S_IFMT(mode))


def _hash(path: Path, mode: int) -> str:
    if not mode & stat.S_IRUSR:
        return "unreadable"
    with open(path, "rb") as file:
        return hashlib.sha256(file.read()).hexdigest()


def changes(before: dict[str, tuple], after: dict[str, tuple]) -> list[str]:
    return sorted(path for path in before.keys() | after.keys() if before.get(path) != after.get(path))


# --- judging ----------------------------------------------------------------------------


USER_FILES = {"mine/thesis.tex": b"months of work", "mine/photos/a.jpg": b"\xff\xd8"}
"""The sentinel: files of the user's own beside every probe's inputs, which none may change."""


def judge(probe: Probe, scratch: Path) -> list[str]:
    """Build and run ``probe`` in the empty folder ``scratch`` (beside the user's files);
    the reasons it failed."""
    for name, data in USER_FILES.items():
        (scratch / name).parent.mkdir(parents=True, exist_ok=True)
        (scratch / name).write_bytes(data)
    setup = probe.build(scratch)
    owned = {scratch / name for name in setup.owned} | {scratch / ".stdout", scratch / ".stderr"}
    roots = [scratch, *setup.watched]
    before = snapshot(roots, owned)
    input_bytes = sum(os.lstat(scratch / name).st_size for name in setup.rows if (scratch / name).is_file())
    outcome = (probe.act or run_to_end)(scratch, setup)
    reasons = []
    if outcome.hung:
        reasons.append(f"hung: killed after {HANG_SECONDS} s")
    elif outcome.status not in setup.exits:
        reasons.append(f"exit status {outcome.status}, expected {setup.exits}: {_last_line(outcome.stderr)}")
    if outcome.left_behind:
        reasons.append("left processes running after it ended")
    if "Traceback (most recent call last)" in outcome.stderr:
        reasons.append("traceback: " + _last_line(outcome.stderr))
    if input_bytes < SMALL_INPUT and outcome.peak_bytes > PEAK_LIMIT:
        reasons.append(f"peak RSS {outcome.peak_bytes >> 20} MiB for {input_bytes:,} bytes of input")
    changed = changes(before, snapshot(roots, owned))
    if changed:
        reasons.append("changed outside its folders: " + ", ".join(_short(path, scratch) for path in changed[:3]))
    if setup.rows and not outcome.hung:
        reasons += row_reasons(scratch / "run" / "games.parquet", scratch, setup.rows)
    if setup.check and not outcome.hung:
        reason = setup.check(scratch, outcome)
        if reason:
            reasons.append(reason)
    return reasons


def row_reasons(table: Path, scratch: Path, rows: dict[str, int | None]) -> list[str]:
    """Each planted input has its rows in the games table, and no row comes from nowhere."""
    try:
        sources = pq.read_table(table, columns=["source_path"]).column("source_path").to_pylist()
    except (OSError, ValueError) as error:
        return [f"games table unreadable: {error}"]
    counts: dict[str, int] = {}
    for source in sources:
        counts[source] = counts.get(source, 0) + 1
    reasons = []
    for name, want in rows.items():
        have = counts.pop(name, 0) + counts.pop(str(scratch / name), 0)
        if (want is None and have == 0) or (want is not None and have != want):
            reasons.append(f"{name}: {have} rows, expected {'at least 1' if want is None else want}")
    if counts:
        reasons.append(f"rows from unplanted sources: {sorted(counts)[:3]}")
    return reasons


def _last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1][:200] if lines else "(no message)"


def _short(path: str, scratch: Path) -> str:
    return path.replace(str(scratch) + "/", "")


def fresh_scratch(root: Path, probe: Probe) -> Path:
    scratch = root / f"{probe.category}--{probe.name}".replace("/", "_").replace(" ", "_")
    if scratch.exists():
        _make_removable(scratch)
        shutil.rmtree(scratch)
    scratch.mkdir(parents=True)
    return scratch


def _make_removable(folder: Path) -> None:
    for path in [folder, *folder.rglob("*")]:
        if path.is_dir() and not path.is_symlink():
            path.chmod(0o755)
