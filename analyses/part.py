"""One part of the report of a run folder, rebuilt alone (its files and ``KEY.md``): for a
researcher iterating on one section without building the whole report (``rulelab report``).

Usage: python -m analyses.part KEY RUN_DIR OUT_DIR [--seed N] [--n-boot N] [--as-stands RUN_DIR]
       [--seed-runs RUN_DIR ...] ...
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rulelab.errors import RulelabError


def main(argv: Sequence[str] | None = None) -> int:
    from rulelab.report.build import write_section
    from rulelab.report.sections import SECTIONS

    parser = argparse.ArgumentParser(prog="python -m analyses.part", description=__doc__.splitlines()[0])
    parser.add_argument("key", choices=list(SECTIONS), help="the part to build")
    parser.add_argument("run_dir", help="run folder with games.parquet, scores.parquet, manifest.json")
    parser.add_argument("out_dir", help="folder for the part's files (created)")
    parser.add_argument("--seed", type=int, default=0, help="seed of every bootstrap (default 0)")
    parser.add_argument("--n-boot", type=int, default=1000, help="bootstrap replicates per win-rate curve")
    parser.add_argument("--examples-per-cause", type=int, default=2, help="board diagrams per cause")
    parser.add_argument("--as-stands", help="the same collection scored with --finish none (sensitivity rows)")
    parser.add_argument("--seed-runs", nargs="+", default=[],
                        help="the same collection scored with other --seed values (dead-stone uncertainty)")
    args = parser.parse_args(argv)
    try:
        print(write_section(args.key, args.run_dir, args.out_dir, seed=args.seed, n_boot=args.n_boot,
                            examples_per_cause=args.examples_per_cause, as_stands=args.as_stands,
                            seed_runs=tuple(args.seed_runs)))
    except RulelabError as error:
        print(f"rulelab: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
