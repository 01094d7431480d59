"""``make bench``: rulelab's throughput and memory as ratios against figures measured in the same run.

Figures are written to ``bench/results.json`` and to the table of docs/PERFORMANCE.md
(:mod:`bench.figures`), and printed. Each ratio compares two
measurements taken one after the other on this machine, so machine speed cancels out:

- ingest and the whole pipeline (ingest + life and death + every ruleset) against the
  plain baseline, sgfmill parse + sgfmill ``Board`` replay of the same games, and the
  games per second per core of each (a run's games per second over its workers; the
  baseline runs in one process);
- the pipeline with the records' marks alone for life and death, with 1 job: what the
  rest of it costs, and so what life and death costs a game and what a pipeline of
  :data:`TARGET` times the baseline would leave it (:func:`life_budget`);
- peak memory of the whole process tree, scoring a tenth of dev-mixed and all of it;
- rulelab against GNU Go counting the same finished games (skipped without ``gnugo``);
- what the finisher adds to a game, timed alone (:mod:`bench.finish`).

Every run starts from an empty run folder: parts left by an earlier run would be reused
and make the figures meaningless. ``--only throughput --every N`` measures the
throughput alone on one in N of kgs-dev's files: a short check of a change, its ratios
still against the baseline of the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from bench.baseline import run_baseline
from bench.figures import update_doc
from bench.finish import finish_cost
from bench.gnugo import bench_gnugo
from bench.memory import peak_tree_rss, sample_archive
from rulelab import __version__
from rulelab.pipeline.run import ingest, score

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
RESULTS = Path(__file__).resolve().parent / "results.json"
RULELAB = [sys.executable, "-m", "rulelab.cli"]
TARGET = 1.2
"""The pipeline's aim with 1 job, as a multiple of the baseline: :func:`life_budget` says
what it leaves life and death."""


def timed(func, *args, **kwargs):
    started = time.perf_counter()
    value = func(*args, **kwargs)
    return value, time.perf_counter() - started


def fresh_run(func, inputs: list[str], **options) -> tuple[dict, float]:
    """``func`` (ingest or score) into a new, empty run folder; its manifest and wall time."""
    with tempfile.TemporaryDirectory(prefix="rulelab-bench-") as out:
        return timed(func, inputs, out, **options)


def bench_throughput(sample: Path) -> dict:
    """Games per second of ingest and of the whole pipeline against the sgfmill baseline.

    The baseline runs before and after rulelab, and the ratios use the mean of the two,
    so a machine that slows down or speeds up during the bench does not favour either.
    """
    (games, parsed), before_s = timed(run_baseline, str(sample))
    figures = {"games": games, "baseline_sgfmill_parsed": parsed}
    runs = [("ingest_jobs1", ingest, {"jobs": 1}), ("ingest_jobs2", ingest, {"jobs": 2}),
            ("pipeline_jobs1", score, {"jobs": 1}), ("pipeline_jobs2", score, {"jobs": 2}),
            ("marks_only_jobs1", score, {"jobs": 1, "life": "markup"})]
    runs_jobs = [(name, options["jobs"]) for name, _, options in runs]
    measured = {}
    for name, func, options in runs:
        measured[name] = fresh_run(func, [str(sample)], **options)
    _, after_s = timed(run_baseline, str(sample))
    baseline = games / ((before_s + after_s) / 2)
    figures["baseline_games_per_s"] = round(baseline, 1)
    figures["baseline_games_per_s_before_after"] = [round(games / before_s, 1), round(games / after_s, 1)]
    for name, (manifest, seconds) in measured.items():
        found = manifest["counts"]["games_found"]
        figures[f"{name}_games_per_s"] = round(found / seconds, 1)
        figures[f"{name}_games_per_s_per_core"] = round(found / seconds / dict(runs_jobs)[name], 1)
        figures[f"{name}_vs_baseline"] = round(found / seconds / baseline, 2)
        figures[f"{name}_games_ok"] = manifest["counts"]["games_ok"]
    figures.update(life_budget(figures))
    figures.update(finish_cost(sample))
    return figures


def life_budget(figures: dict) -> dict:
    """What life and death costs a game with 1 job: the whole pipeline's time a game less
    that of the pipeline with the records' marks alone (every stone alive without them),
    and what is left for it at :data:`TARGET` times the baseline."""
    def ms(games_per_s: float) -> float:
        return 1000 / games_per_s

    rest = ms(figures["marks_only_jobs1_games_per_s"])
    return {"life_ms_per_game_jobs1": round(ms(figures["pipeline_jobs1_games_per_s"]) - rest, 3),
            "life_budget_ms_per_game_at_target": round(ms(TARGET * figures["baseline_games_per_s"]) - rest, 3),
            "pipeline_target_vs_baseline": TARGET}


def bench_memory(collection: Path, every: int, folder: Path) -> dict:
    """Peak tree RSS of the whole pipeline (``rulelab score``) on one ``every``-th of
    ``collection`` and on all of it."""
    sample = folder / f"one-in-{every}.tar"
    sample_archive(collection, sample, every)
    figures = {}
    for name, source in (("sample", sample), ("full", collection)):
        with tempfile.TemporaryDirectory(prefix="rulelab-bench-") as out:
            measured = peak_tree_rss(RULELAB + ["score", str(source), "--out", out, "--jobs", "2"])
            manifest = json.loads((Path(out) / "manifest.json").read_text())
        figures[name] = {"games": manifest["counts"]["games_found"], **measured}
    figures["games_ratio"] = round(figures["full"]["games"] / figures["sample"]["games"], 2)
    figures["peak_ratio"] = round(figures["full"]["peak_tree_rss_mib"] / figures["sample"]["peak_tree_rss_mib"], 3)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=CORPORA)
    parser.add_argument("--only", choices=["throughput"], help="measure the throughput alone")
    parser.add_argument("--every", type=int, default=1, help="take one in this many of kgs-dev's files")
    args = parser.parse_args(argv)
    kgs, mixed = args.corpora / "kgs-dev.tar.xz", args.corpora / "dev-mixed.tar.xz"
    missing = [path for path in (kgs, mixed) if not path.is_file()]
    if missing:
        print(f"bench: {missing[0]} not found; the benchmarks need ../shared/corpora")
        return 1
    results = {"rulelab_version": __version__, "python": platform.python_version(),
               "machine": platform.machine(), "cpus": os.cpu_count(), "date": date.today().isoformat()}
    with tempfile.TemporaryDirectory(prefix="rulelab-bench-") as scratch:
        folder = Path(scratch)
        kgs_sample, warm_up = folder / "kgs-dev.tar", folder / "kgs-one-in-500.tar"
        sample_archive(kgs, kgs_sample, args.every)  # uncompressed: neither side pays for xz
        sample_archive(kgs, warm_up, 500)
        fresh_run(score, [str(warm_up)], jobs=1)  # fill numba's on-disk cache outside any timing
        sections = [("throughput_kgs_dev", lambda: bench_throughput(kgs_sample)),
                    ("memory_dev_mixed", lambda: bench_memory(mixed, 10, folder)),
                    ("gnugo_50_counted_kgs_games", lambda: bench_gnugo(kgs, folder / "gnugo"))]
        (folder / "gnugo").mkdir()
        for name, section in sections:
            if args.only and not name.startswith(args.only):
                continue
            results[name], seconds = timed(section)
            # each section's figures as soon as it ends: a later section's failure keeps them
            print(f"bench: {name} done in {seconds:.0f} s: {json.dumps(results[name], sort_keys=True)}",
                  file=sys.stderr, flush=True)
    if not args.only and args.every == 1:  # the record of a whole bench only
        RESULTS.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
        update_doc(results)
    print(json.dumps(results, indent=2, sort_keys=True))
    print(summary(results))
    return 0


def summary(results: dict) -> str:
    """The headline ratios of the sections measured, one line each."""
    speed = results["throughput_kgs_dev"]
    lines = [
        f"baseline  {speed['baseline_games_per_s']} games/s on one core (sgfmill parse + replay, "
        f"{speed['games']:,} KGS games)",
        *(f"{stage:<9} {speed[f'{stage}_jobs1_vs_baseline']}x the sgfmill baseline with 1 job, "
          f"{speed[f'{stage}_jobs2_vs_baseline']}x with 2; games/s per core "
          f"{speed[f'{stage}_jobs1_games_per_s_per_core']} and {speed[f'{stage}_jobs2_games_per_s_per_core']}"
          for stage in ("ingest", "pipeline")),
        "          (the pipeline: ingest + life and death + every ruleset)",
        f"marks     {speed['marks_only_jobs1_vs_baseline']}x with 1 job: the pipeline with the records' "
        f"marks alone for life and death (every stone alive without them)",
        f"life      {speed['life_ms_per_game_jobs1']} ms a game with 1 job; {speed['pipeline_target_vs_baseline']}x the baseline "
        f"would leave it {speed['life_budget_ms_per_game_at_target']} ms",
        f"finish    {speed['finish_ms_per_game_jobs1']} ms a game with 1 job to play it to its end "
        f"({speed['finish_played_games']:,} of {speed['finish_games']:,} games played out, "
        f"{speed['finish_moves_per_played_game']} moves each)",
    ]
    if "memory_dev_mixed" not in results:
        return "\n".join(lines)
    memory, gnugo = results["memory_dev_mixed"], results["gnugo_50_counted_kgs_games"]
    lines += [
        f"memory    peak {memory['full']['peak_tree_rss_mib']} MiB for {memory['full']['games']:,} games, "
        f"{memory['sample']['peak_tree_rss_mib']} MiB for {memory['sample']['games']:,}: "
        f"{memory['peak_ratio']}x the memory for {memory['games_ratio']}x the games",
        f"GNU Go    {gnugo['ratio_cpu']}x GNU Go's positions per CPU second, one process each; "
        f"{gnugo['ratio_score_run_wall']}x in wall time for 'rulelab score --jobs 2'"
        if "skipped" not in gnugo else f"GNU Go    skipped: {gnugo['skipped']}",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
