"""The command line every report script shares: ``RUN_DIR OUT_DIR`` plus the settings."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from rulelab.errors import RulelabError


def parse(description: str, argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("run_dir", help="run folder with games.parquet, scores.parquet, manifest.json")
    parser.add_argument("out_dir", help="folder for the report's files (created)")
    parser.add_argument("--seed", type=int, default=0, help="seed of every bootstrap (default 0)")
    parser.add_argument("--n-boot", type=int, default=1000, help="bootstrap replicates per win-rate curve")
    parser.add_argument("--n-boot-fit", type=int, default=200,
                        help="bootstrap refits per headline fair-komi estimate")
    parser.add_argument("--examples-per-cause", type=int, default=2, help="board diagrams per cause")
    return parser.parse_args(argv)


def run(make: Callable[..., object], description: str, argv: Sequence[str] | None = None) -> int:
    """Parse the command line, call ``make(run_dir, out_dir, **settings)``, print the result."""
    args = parse(description, argv)
    settings = {"seed": args.seed, "n_boot": args.n_boot, "n_boot_fit": args.n_boot_fit,
                "examples_per_cause": args.examples_per_cause}
    try:
        print(make(args.run_dir, args.out_dir, **settings))
    except RulelabError as error:
        print(f"rulelab: {error}", file=sys.stderr)
        return 2
    return 0


def run_part(key: str, description: str) -> None:
    """Entry point of a one-part script."""
    from functools import partial

    from rulelab.analysis.report import write_section

    sys.exit(run(partial(write_section, key), description))
