"""GNU Go counting the same finished games rulelab counts: the yardstick for the scoring figure.

GNU Go reads each record (``loadsgf``) and counts it (``final_score``), deciding dead
stones with its own reading. rulelab does the whole pipeline on the same records:
parse, replay, decide life and death, and score under every ruleset. Both run in one
process on one core; CPU seconds are compared as well as wall time, so that other
work on the machine does not tilt the ratio.
"""

from __future__ import annotations

import re
import resource
import subprocess
import tarfile
import time
from pathlib import Path

from rulelab.life import life_method
from rulelab.life.gnugo import find_gnugo
from rulelab.pipeline.run import score
from rulelab.pipeline.score import _score_batch, resolve_rulesets
from rulelab.read.records import file_rows
from rulelab.read.sources import RawFile

COUNTED = re.compile(rb"RE\[[BW]\+\d")


def counted_records(archive: Path, count: int) -> list[tuple[str, bytes]]:
    """The first ``count`` records of ``archive`` that end with a counted result."""
    found = []
    with tarfile.open(archive, "r|*") as tar:
        for member in tar:
            if member.isfile() and member.name.lower().endswith(".sgf"):
                data = tar.extractfile(member).read()
                if COUNTED.search(data):
                    found.append((member.name, data))
                    if len(found) == count:
                        break
    return found


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_gnugo(files: list[Path], binary: str) -> dict:
    """One GNU Go process over GTP: ``loadsgf`` and ``final_score`` for each file."""
    cpu_before = _children_cpu()
    started = time.perf_counter()
    gtp = subprocess.Popen([binary, "--mode", "gtp", "--quiet"], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
    answers = []
    for file in files:
        for command in (f"loadsgf {file}", "final_score"):
            gtp.stdin.write(command + "\n")
            reply = _read_reply(gtp)
        answers.append(reply)
    gtp.stdin.write("quit\n")
    gtp.stdin.close()
    gtp.wait()
    seconds = time.perf_counter() - started
    cpu = _children_cpu() - cpu_before
    failed = sum(not answer.startswith("=") for answer in answers)
    return {"positions": len(files), "failed": failed, "wall_s": round(seconds, 2), "cpu_s": round(cpu, 2)}


def _read_reply(gtp: subprocess.Popen) -> str:
    """One GTP answer: its lines up to the blank line that ends it."""
    lines = []
    while True:
        line = gtp.stdout.readline()
        if line == "":
            raise RuntimeError("gnugo stopped answering")
        if line.strip():
            lines.append(line.strip())
        elif lines:
            return "\n".join(lines)


def time_rulelab(records: list[tuple[str, bytes]], min_cpu_s: float = 3.0) -> dict:
    """The whole pipeline on ``records`` in this process, repeated until ``min_cpu_s`` is spent."""
    rulesets, life = resolve_rulesets(None, None), life_method("auto")

    def once() -> int:
        rows = [row for name, data in records for row in file_rows(RawFile(name, None, data))]
        return _score_batch(rows, rulesets, life, None)["scores"].num_rows

    once()  # load numba's cached kernels outside the timing
    rounds, cpu_started, started = 0, time.process_time(), time.perf_counter()
    while rounds == 0 or time.process_time() - cpu_started < min_cpu_s:
        scores = once()
        rounds += 1
    return {"positions": len(records) * rounds, "score_rows_per_round": scores,
            "wall_s": round(time.perf_counter() - started, 2),
            "cpu_s": round(time.process_time() - cpu_started, 2)}


def time_rulelab_run(files: list[Path], folder: Path, copies: int = 40, jobs: int = 2) -> dict:
    """``rulelab score`` as a user runs it (``jobs`` workers) on ``copies`` copies of ``files``."""
    inputs = folder / "inputs"
    inputs.mkdir()
    for copy in range(copies):
        for file in files:
            (inputs / f"{copy:02d}-{file.name}").write_bytes(file.read_bytes())
    started = time.perf_counter()
    manifest = score([str(inputs)], folder / "run", jobs=jobs)
    return {"positions": manifest["counts"]["games_ok"], "jobs": jobs,
            "wall_s": round(time.perf_counter() - started, 2)}


def bench_gnugo(archive: Path, folder: Path, count: int = 50) -> dict:
    """Positions per second of rulelab and GNU Go on the same ``count`` counted games.

    Per CPU second, one process each; and in wall time, GNU Go's one process against
    a whole ``rulelab score`` run with a worker per core.
    """
    binary = find_gnugo()
    if binary is None:
        return {"skipped": "gnugo not found on PATH nor at /usr/games/gnugo "
                           "(apt-get install gnugo); no GNU Go figure"}
    records = counted_records(archive, count)
    files = []
    for number, (_, data) in enumerate(records):
        files.append(folder / f"{number:03d}.sgf")
        files[-1].write_bytes(data)
    gnugo = time_gnugo(files, binary)
    ours = time_rulelab(records)
    run = time_rulelab_run(files, folder)
    per_s = {name: {clock: figures["positions"] / figures[f"{clock}_s"] for clock in ("cpu", "wall")}
             for name, figures in (("gnugo", gnugo), ("rulelab", ours))}
    return {
        "gnugo": gnugo,
        "rulelab": ours,
        "gnugo_positions_per_cpu_s": round(per_s["gnugo"]["cpu"], 2),
        "rulelab_positions_per_cpu_s": round(per_s["rulelab"]["cpu"], 1),
        "ratio_cpu": round(per_s["rulelab"]["cpu"] / per_s["gnugo"]["cpu"], 1),
        "ratio_wall": round(per_s["rulelab"]["wall"] / per_s["gnugo"]["wall"], 1),
        "rulelab_score_run": run,
        "ratio_score_run_wall": round(run["positions"] / run["wall_s"] / per_s["gnugo"]["wall"], 1),
    }
