"""Where the pipeline spends its time: cProfile over ingest and scoring of real games, in one process.

``python -m bench.profile [--archive A] [--games N] [--top K]`` reads the first N game
files of an archive (kgs-dev by default), runs each stage's per-unit function as a
worker would (units → games rows → scores rows), and prints the functions with the
most time of their own and the most time below them.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import itertools
import pstats
import time
from pathlib import Path

from rulelab.pipeline.ingest import games_stage
from rulelab.pipeline.score import resolve_rulesets, scores_stage
from rulelab.pipeline.units import plan_units
from rulelab.read.sources import iter_files

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"


def profile_pipeline(archive: Path, games: int, top: int) -> str:
    """A cProfile report of the games and scores stages on the first ``games`` files of ``archive``."""
    files = list(itertools.islice(iter_files([str(archive)]), games))
    units = [list(unit.items) for unit in plan_units(files)]
    make_games = games_stage(superko=False).build
    make_scores = scores_stage(resolve_rulesets(None, None), "auto", None).build
    make_scores(make_games(units[0][:5]))  # load numba's cached kernels outside the profile
    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.enable()
    rows = [row for unit in units for row in make_games(unit)]
    ingested = time.perf_counter()
    scored = make_scores(rows)
    profiler.disable()
    finished = time.perf_counter()
    report = io.StringIO()
    print(f"{archive.name}: {len(rows)} games from {len(files)} files; "
          f"games stage {ingested - started:.2f} s, scores stage {finished - ingested:.2f} s "
          f"({len(scored)} score rows), under the profiler", file=report)
    stats = pstats.Stats(profiler, stream=report)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return report.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", type=Path, default=CORPORA / "kgs-dev.tar.xz")
    parser.add_argument("--games", type=int, default=600, help="game files to read (default 600)")
    parser.add_argument("--top", type=int, default=25, help="functions listed per ordering")
    args = parser.parse_args(argv)
    print(profile_pipeline(args.archive, args.games, args.top))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
