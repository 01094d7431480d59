"""Peak memory of a run: the resident set of the whole process tree, sampled while it works.

Workers are separate processes, so the peak of the command's own process says little;
this sums the RSS of the command and all its descendants (worker pools, fork servers,
Dask nannies and workers) every ``interval`` seconds and keeps the largest sum.
"""

from __future__ import annotations

import subprocess
import tarfile
import time
from pathlib import Path

import psutil

MiB = 1 << 20


def peak_tree_rss(command: list[str], interval: float = 0.1) -> dict:
    """Run ``command`` to completion; its peak tree RSS and peak single-process RSS, in MiB.

    Raises
    ------
    RuntimeError
        If the command fails (its standard error is in the message).
    """
    started = time.perf_counter()
    process = psutil.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak_tree = peak_process = samples = 0
    while process.poll() is None:
        sizes = []
        for member in [process, *_descendants(process)]:
            try:
                sizes.append(member.memory_info().rss)
            except psutil.Error:  # ended between listing and reading
                pass
        peak_tree = max(peak_tree, sum(sizes))
        peak_process = max(peak_process, *sizes, 0)
        samples += 1
        time.sleep(interval)
    error = process.stderr.read().decode(errors="replace")
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({process.returncode}): {error[-2000:]}")
    return {"peak_tree_rss_mib": round(peak_tree / MiB, 1),
            "peak_process_rss_mib": round(peak_process / MiB, 1),
            "seconds": round(time.perf_counter() - started, 1), "samples": samples}


def _descendants(process: psutil.Process) -> list[psutil.Process]:
    try:
        return process.children(recursive=True)
    except psutil.Error:
        return []


def sample_archive(source: Path, target: Path, every: int) -> int:
    """Write every ``every``-th game file of the tar ``source`` into the plain tar ``target``.

    Taking members at a fixed stride keeps the mix of the whole collection (a few of
    its large multi-game files among many small ones) in a collection ``every`` times
    smaller. Returns the number of files written.
    """
    written = 0
    with tarfile.open(source, "r|*") as reader, tarfile.open(target, "w") as writer:
        number = 0
        for member in reader:
            if not (member.isfile() and member.name.lower().endswith((".sgf", ".mgt"))):
                continue
            if number % every == 0:
                writer.addfile(member, reader.extractfile(member))
                written += 1
            number += 1
    return written
