"""Run the probe set: ``python -m bench.probes [--jobs N] [--category NAME] [--match TEXT] [--scratch DIR]``.

Prints, per category, how many probes ran and passed, then each failure with its
reasons; exits 1 when any probe failed.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench.probes.catalogue import all_probes
from bench.probes.harness import Probe, fresh_scratch, judge


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.probes", description=__doc__)
    parser.add_argument("--jobs", type=int, default=1, help="probes run at once")
    parser.add_argument("--category", action="append", help="only this category (repeatable)")
    parser.add_argument("--match", help="only probes whose name contains this")
    parser.add_argument("--scratch", type=Path, help="folder for the probes' inputs (default: a temporary one)")
    options = parser.parse_args(argv)
    probes = [probe for probe in all_probes()
              if (not options.category or probe.category in options.category)
              and (not options.match or options.match in probe.name)]
    root = options.scratch or Path(tempfile.mkdtemp(prefix="rulelab-probes-"))
    started = time.monotonic()
    results = run_probes(probes, root, options.jobs)
    print(table(results))
    print(f"{len(results)} probes in {time.monotonic() - started:.0f} s; inputs in {root}")
    if not options.scratch and all(not reasons for _, reasons in results):
        shutil.rmtree(root, ignore_errors=True)
    return 1 if any(reasons for _, reasons in results) else 0


def run_probes(probes: list[Probe], root: Path, jobs: int) -> list[tuple[Probe, list[str]]]:
    def one(probe: Probe) -> tuple[Probe, list[str]]:
        try:
            reasons = judge(probe, fresh_scratch(root, probe))
        except Exception as error:  # a probe that cannot be set up is a failure, not the end of the set
            reasons = [f"set-up failed: {type(error).__name__}: {error}"]
        mark = "F" if reasons else "."
        print(mark, end="", flush=True, file=sys.stderr)
        return probe, reasons

    with ThreadPoolExecutor(jobs) as pool:
        results = list(pool.map(one, probes))
    print(file=sys.stderr)
    return results


def table(results: list[tuple[Probe, list[str]]]) -> str:
    categories: dict[str, list[int]] = {}
    for probe, reasons in results:
        counts = categories.setdefault(probe.category, [0, 0])
        counts[0] += 1
        counts[1] += not reasons
    width = max(len(name) for name in [*categories, "category"])
    lines = [f"{'category':<{width}}  probes  passed"]
    lines += [f"{name:<{width}}  {count:>6}  {passed:>6}" for name, (count, passed) in categories.items()]
    total, passed = len(results), sum(not reasons for _, reasons in results)
    lines.append(f"{'all':<{width}}  {total:>6}  {passed:>6}")
    for probe, reasons in results:
        for reason in reasons:
            lines.append(f"FAIL {probe.category} / {probe.name}: {reason}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
