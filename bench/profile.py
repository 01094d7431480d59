"""Where the pipeline spends its time, on real games: a profile in one process, a profile
of the workers, and the split of wall time between the stages of a unit.

``python -m bench.profile [--archive A] [--games N] [--top K]`` reads the first N game
files of an archive (kgs-dev by default), runs each stage's per-unit function as a
worker would (units → games rows → scores rows), and prints the functions with the
most time of their own and the most time below them.

``--jobs J`` (J > 1) runs the same units through a pool of J workers as a run does, each
worker under cProfile for the whole of its units (part writing and reading included),
and prints the workers' profiles merged.

``--split`` times, without a profiler, what a unit costs in each step: reading and
replaying the records, writing and reading back the games part, deciding life,
scoring (nine rulesets and the record's own, the status cases, the life row), and
writing the scores and life parts.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import itertools
import pstats
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from unittest import mock

import pyarrow.parquet as pq

from bench.worker import profiled_unit
from rulelab.life import LifeMethod, life_method
from rulelab.pipeline import checkpoint
from rulelab.pipeline.checkpoint import SLICE_ROWS, PartStore, run_units, write_parts
from rulelab.pipeline.engines import LocalEngine
from rulelab.pipeline.ingest import games_stage
from rulelab.pipeline.score import resolve_rulesets, scores_stage
from rulelab.pipeline.units import plan_units
from rulelab.position import Position
from rulelab.read.sources import iter_files

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"


def first_units(archive: Path, games: int) -> list:
    """The units of the first ``games`` files of ``archive``, as a run cuts them."""
    return list(plan_units(itertools.islice(iter_files([str(archive)]), games)))


def stages(life: str | LifeMethod = "auto") -> tuple:
    """The games and scores stages of ``rulelab score`` with its default options."""
    return games_stage(superko=False), scores_stage(resolve_rulesets(None, None), life, None)


def printed(stats: pstats.Stats, top: int, report: io.StringIO) -> str:
    stats.stream = report
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return report.getvalue()


def profile_pipeline(archive: Path, games: int, top: int) -> str:
    """A cProfile report of the games and scores stages on the first ``games`` files of ``archive``."""
    units = [list(unit.items) for unit in first_units(archive, games)]
    games_of, scores_of = (stage.build for stage in stages())
    scores_of(list(games_of(units[0][:5])))  # load numba's cached kernels outside the profile
    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.enable()
    rows = [row for unit in units for row in games_of(unit)]
    ingested = time.perf_counter()
    scored = scores_of(rows)
    profiler.disable()
    finished = time.perf_counter()
    report = io.StringIO()
    print(f"{archive.name}: {len(rows)} games from {sum(map(len, units))} files; "
          f"games stage {ingested - started:.2f} s, scores stage {finished - ingested:.2f} s "
          f"({len(scored['scores'])} score rows), under the profiler", file=report)
    return printed(pstats.Stats(profiler), top, report)


def profile_workers(archive: Path, games: int, top: int, jobs: int) -> str:
    """The merged cProfile report of ``jobs`` workers making the parts of the first
    ``games`` files of ``archive`` (whole units: parts written and read included)."""
    units = first_units(archive, games)
    with tempfile.TemporaryDirectory(prefix="rulelab-profile-") as scratch:
        run_units(first_units(archive, 5), stages(), PartStore(Path(scratch) / "warm"), LocalEngine(1))
        folder = Path(scratch) / "stats"
        folder.mkdir()
        started = time.perf_counter()
        with mock.patch.object(checkpoint, "run_unit", partial(profiled_unit, folder=str(folder))):
            run_units(units, stages(), PartStore(Path(scratch) / "run"), LocalEngine(jobs))
        seconds = time.perf_counter() - started
        report = io.StringIO()
        print(f"{archive.name}: {sum(len(unit.items) for unit in units)} files in {len(units)} units, "
              f"{jobs} workers under cProfile, {seconds:.2f} s wall (pool start included)", file=report)
        return printed(pstats.Stats(*map(str, sorted(folder.iterdir()))), top, report)


@dataclass(frozen=True)
class TimedLife(LifeMethod):
    """``inner``'s verdicts, with the time they took added to ``seconds``. Batched, so
    that the scores stage asks for every verdict of a batch before it scores any."""

    inner: LifeMethod = field(default_factory=lambda: life_method("auto"))
    seconds: list = field(default_factory=lambda: [0.0])

    batched = True

    def decide(self, position: Position, *, rng_seed: int = 0):
        started = time.perf_counter()
        try:
            return self.inner.decide(position, rng_seed=rng_seed)
        finally:
            self.seconds[0] += time.perf_counter() - started

    def decide_batch(self, positions: Sequence[Position], *, rng_seed: int = 0):
        return [self.decide(position, rng_seed=rng_seed) for position in positions]


def stage_split(archive: Path, games: int, repeats: int = 1) -> str:
    """Seconds per step of the first ``games`` files of ``archive``, unit by unit as
    :func:`rulelab.pipeline.checkpoint.run_unit` makes them, without a profiler; the
    best of ``repeats`` rounds for each step."""
    units = first_units(archive, games)
    life = TimedLife(name="auto")
    ingest, score = stages(life)
    score.build(list(ingest.build(list(units[0].items)[:5])))  # numba's kernels loaded
    best: Counter = Counter()
    found = 0
    for _ in range(repeats):
        spent: Counter = Counter()
        with tempfile.TemporaryDirectory(prefix="rulelab-split-") as scratch:
            for number, unit in enumerate(units):
                clock = time.perf_counter()

                def step(name: str) -> None:
                    nonlocal clock
                    now = time.perf_counter()
                    spent[name] += now - clock
                    clock = now

                rows = list(ingest.build(list(unit.items)))
                step("read + replay")
                games_part = Path(scratch) / "games" / f"{number}.parquet"
                write_parts({"games": games_part}, ingest.outputs,
                            ({"games": rows[at:at + SLICE_ROWS]} for at in range(0, len(rows), SLICE_ROWS)))
                step("games part written")
                batches = [batch.to_pylist() for batch in
                           pq.ParquetFile(games_part).iter_batches(SLICE_ROWS, columns=score.reads)]
                step("games part read")
                made, life.seconds[0] = [], 0.0
                for batch in batches:
                    made.append(score.build(batch))
                spent["life"] += life.seconds[0]
                spent["scoring"] -= life.seconds[0]
                step("scoring")
                write_parts({table: Path(scratch) / table / f"{number}.parquet" for table in score.outputs},
                            score.outputs, made)
                step("scores and life parts written")
                found += len(rows)
        best = spent if not best else Counter({name: min(best[name], spent[name]) for name in spent})
    total = sum(best.values())
    lines = [f"{archive.name}: {found // repeats} games from {sum(len(u.items) for u in units)} files "
             f"in {len(units)} units, best of {repeats}: {total:.2f} s, "
             f"{found // repeats / total:.0f} games/s on one core"]
    lines += [f"  {name:<30} {seconds:7.3f} s  {seconds / total:6.1%}" for name, seconds in best.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", type=Path, default=CORPORA / "kgs-dev.tar.xz")
    parser.add_argument("--games", type=int, default=600, help="game files to read (default 600)")
    parser.add_argument("--top", type=int, default=25, help="functions listed per ordering")
    parser.add_argument("--jobs", type=int, default=1, help="profile this many pool workers instead")
    parser.add_argument("--split", action="store_true", help="time each step without a profiler")
    parser.add_argument("--repeats", type=int, default=1, help="rounds of --split (the best is kept)")
    args = parser.parse_args(argv)
    if args.split:
        print(stage_split(args.archive, args.games, args.repeats))
    elif args.jobs > 1:
        print(profile_workers(args.archive, args.games, args.top, args.jobs))
    else:
        print(profile_pipeline(args.archive, args.games, args.top))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
