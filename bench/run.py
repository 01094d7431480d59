"""``make bench``: rulelab's throughput as ratios against baselines measured in the same run.

Figures are written to ``bench/results.json`` and printed. Each ratio compares two
measurements taken one after the other on this machine, so machine speed cancels out.
"""

from __future__ import annotations

import argparse
import json
import platform
import tempfile
import time
from pathlib import Path

from bench.baseline import run_baseline
from rulelab import __version__
from rulelab.ingest import ingest

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
RESULTS = Path(__file__).resolve().parent / "results.json"


def timed(func, *args, **kwargs):
    started = time.perf_counter()
    value = func(*args, **kwargs)
    return value, time.perf_counter() - started


def bench_ingest(archive: Path) -> dict:
    """Ingest throughput on kgs-dev vs sgfmill parse + sgfmill Board replay (issue: foundation)."""
    (games, parsed), baseline_s = timed(run_baseline, str(archive))
    figures = {"games": games, "baseline_sgfmill_parsed": parsed,
               "baseline_games_per_s": round(games / baseline_s, 1)}
    for jobs in (1, 2):
        with tempfile.TemporaryDirectory() as out:
            ingest([str(archive)], out, jobs=jobs)  # warm numba's on-disk cache outside the timing
            manifest, seconds = timed(ingest, [str(archive)], out, jobs=jobs, force=True)
        found = manifest["counts"]["games_found"]
        figures[f"rulelab_jobs{jobs}_games_per_s"] = round(found / seconds, 1)
        figures[f"ratio_jobs{jobs}_vs_baseline"] = round((found / seconds) / (games / baseline_s), 2)
        figures[f"rulelab_jobs{jobs}_ok"] = manifest["counts"]["games_ok"]
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=CORPORA)
    args = parser.parse_args(argv)
    archive = args.corpora / "kgs-dev.tar.xz"
    if not archive.is_file():
        print(f"bench: {archive} not found; the benchmarks need ../shared/corpora")
        return 1
    results = {
        "rulelab_version": __version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "ingest_kgs_dev": bench_ingest(archive),
    }
    RESULTS.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
    print(json.dumps(results, indent=2, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
