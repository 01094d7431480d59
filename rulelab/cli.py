"""The ``rulelab`` command line: a thin door to the Python API.

Errors go to standard error as ``rulelab: message`` with exit status 2; the commands
themselves never decide anything the API does not.
"""

from __future__ import annotations

import argparse
import json
import sys

from . import __version__
from .engines import ENGINES
from .errors import RulelabError

LIFE_METHODS = ("auto", "estimate", "markup", "gnugo", "katago")
KATAGO_OPTIONS = {"katago": "RULELAB_KATAGO", "katago_model": "RULELAB_KATAGO_MODEL",
                  "katago_config": "RULELAB_KATAGO_CONFIG"}
"""The KataGo options and the environment variables they set, which worker processes inherit."""


def _add_inputs(parser: argparse.ArgumentParser, out_required: bool = True) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="SGF/MGT files, folders, or .zip/.tar[.gz|.xz|.bz2] archives")
    parser.add_argument("--out", required=out_required, metavar="DIR", help="run folder for the tables")
    parser.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="worker processes (default: one per core)")
    parser.add_argument("--force", action="store_true",
                        help="overwrite existing results (parts of unchanged inputs are reused)")
    parser.add_argument("--engine", choices=ENGINES, default="local",
                        help="where the work runs: local worker processes (default) or a Dask cluster")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="Dask scheduler address, e.g. tcp://10.0.0.5:8786 "
                             "(with --engine dask; default: start a local cluster)")


def _add_life(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--life", choices=LIFE_METHODS, default="auto", help="how dead stones are decided")
    parser.add_argument("--katago", metavar="PATH", help="KataGo binary for --life katago "
                        "(default: $RULELAB_KATAGO, else the one 'make katago' installs)")
    parser.add_argument("--katago-model", metavar="PATH", help="KataGo net (default: $RULELAB_KATAGO_MODEL)")
    parser.add_argument("--katago-config", metavar="PATH",
                        help="KataGo analysis config (default: $RULELAB_KATAGO_CONFIG)")


def _export_katago(args) -> None:
    """Name the KataGo files given on the command line in the environment, where the
    backend and every worker process find them."""
    import os

    for option, variable in KATAGO_OPTIONS.items():
        value = getattr(args, option, None)
        if value:
            os.environ[variable] = os.path.abspath(value) if os.path.exists(value) else value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rulelab", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"rulelab {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    ingest = commands.add_parser("ingest", help="read and replay games into DIR/games.parquet")
    _add_inputs(ingest)
    ingest.add_argument("--superko", action="store_true", help="flag positional-superko repetitions")

    score = commands.add_parser("score", help="score every game under every ruleset into DIR/scores.parquet")
    _add_inputs(score)
    score.add_argument("--rules", metavar="LIST", help="comma-separated rulesets (default: every preset)")
    score.add_argument("--komi", type=float, metavar="K", help="score every ruleset at this komi")
    _add_life(score)
    score.add_argument("--assume-rules", metavar="NAME",
                       help="rules of records that name none (e.g. japanese for Japanese title games)")

    validate = commands.add_parser(
        "validate", help="compare counts under each record's rules with its recorded result")
    _add_inputs(validate, out_required=False)
    _add_life(validate)
    validate.add_argument("--second-opinion", choices=("katago", "gnugo"),
                          help="count each game with this backend's dead stones too, and "
                               "blame no miss on the record when its verdict reproduces it")
    validate.add_argument("--assume-rules", metavar="NAME", help="rules of records that name none")

    sql = commands.add_parser("sql", help="run SQL over a run folder's tables (views: games, scores)")
    sql.add_argument("dir", metavar="DIR")
    sql.add_argument("query", metavar="SQL")
    sql.add_argument("--format", choices=("table", "csv", "json"), default="table")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    _export_katago(args)
    try:
        return COMMANDS[args.command](args)
    except RulelabError as error:
        print(f"rulelab: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("rulelab: interrupted", file=sys.stderr)
        return 130


def _ingest(args) -> int:
    from .ingest import ingest

    manifest = ingest(args.paths, args.out, jobs=args.jobs, force=args.force,
                      superko=args.superko, progress=True, engine=args.engine, scheduler=args.scheduler)
    _summary(manifest)
    return 0


def _score(args) -> int:
    from .score_run import score

    rules = args.rules.split(",") if args.rules else None
    manifest = score(args.paths, args.out, rules=rules, komi=args.komi, life=args.life,
                     jobs=args.jobs, force=args.force, progress=True, engine=args.engine,
                     scheduler=args.scheduler, assume_rules=args.assume_rules)
    _summary(manifest)
    return 0


def _validate(args) -> int:
    import tempfile

    from pathlib import Path

    import pandas as pd

    from .validate import VALIDATION_FILE, miss_class_counts, validate

    with tempfile.TemporaryDirectory(prefix="rulelab-validate-") as scratch:
        out = args.out or scratch
        summary = validate(args.paths, out, life=args.life, jobs=args.jobs, force=args.force,
                           progress=True, engine=args.engine, scheduler=args.scheduler,
                           assume_rules=args.assume_rules, second=args.second_opinion)
        print(summary.to_string())
        print("\nmisses by class:")
        print(miss_class_counts(pd.read_parquet(Path(out) / VALIDATION_FILE)).to_string())
        if args.out:
            print(f"disagreements: {out}/validation.parquet")
    return 0


def _sql(args) -> int:
    from .sql import query

    frame = query(args.dir, args.query)
    if args.format == "csv":
        frame.to_csv(sys.stdout, index=False)
    elif args.format == "json":
        print(frame.to_json(orient="records", force_ascii=False))
    else:
        print(frame.to_string(index=False))
    return 0


def _summary(manifest: dict) -> None:
    print(json.dumps(manifest["counts"], indent=2, sort_keys=True))


COMMANDS = {"ingest": _ingest, "score": _score, "validate": _validate, "sql": _sql}

if __name__ == "__main__":
    sys.exit(main())
