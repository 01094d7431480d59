"""The ``rulelab`` command line: a thin door to the Python API.

Errors go to standard error as ``rulelab: message`` with exit status 2; the commands
themselves never decide anything the API does not.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import threading
import time
import warnings

import rulelab.shadowing  # noqa: F401  (first: names a folder that shadows the package)
from rulelab import __version__
from rulelab.errors import RulelabError, printable, printable_lines
from rulelab.katago_install import ENVIRONMENT
from rulelab.life_methods import ENGINE_METHODS, METHODS as LIFE_METHODS
from rulelab.pipeline.engines import ENGINES
from rulelab.rules import FINISH_BASES, PLAYOUT_MODELS

DESCRIPTION = "Score Go game collections under many rulesets and study where they diverge."



def _add_inputs(parser: argparse.ArgumentParser, out_required: bool = True) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="SGF/MGT files (.sgf.gz too), folders, or .zip/.tar[.gz|.xz|.bz2] archives")
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
    parser.add_argument("--json", action="store_true",
                        help="print the run's counts as JSON instead of the summary")


def _choices() -> str:
    """What --help says the names are: rulesets, life methods and engines."""
    from rulelab.rules import PRESETS

    return (f"rulesets (--rules, --assume-rules): {', '.join(PRESETS)}\n"
            f"life methods (--life): {', '.join(LIFE_METHODS)}\n"
            f"engines (--engine): {', '.join(ENGINES)}")


def _add_life(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--life", choices=LIFE_METHODS, default="auto", help="how dead stones are decided")
    parser.add_argument("--katago", metavar="PATH", help="KataGo binary for --life katago "
                        f"(default: ${ENVIRONMENT['binary']}, else the one 'make katago' installs)")
    parser.add_argument("--katago-model", metavar="PATH", help=f"KataGo net (default: ${ENVIRONMENT['model']})")
    parser.add_argument("--katago-config", metavar="PATH",
                        help=f"KataGo analysis config (default: ${ENVIRONMENT['config']})")
    parser.add_argument("--seed", type=int, default=0, metavar="N",
                        help="seed of the estimator's playouts (default 0): the same seed gives the "
                             "same verdicts; others show how far a count depends on chance")


def _add_finish(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--finish", choices=("auto", *FINISH_BASES), default="auto",
                        help="count each record after playing it to its end (play: the last dame, "
                             "protective moves and ko) or as it stands (none); auto (default): as "
                             "its server counts, none for KGS, OGS, IGS, NNGS, Tygem and Fox")


def _life(args, name: str | None):
    """The life method called ``name``, with the KataGo files the command line names (made
    absolute, so worker processes find them wherever they run)."""
    from rulelab.life import life_method

    if name is None:
        return None
    files = tuple(os.path.abspath(value) if value and os.path.exists(value) else value
                  for value in (args.katago, args.katago_model, args.katago_config))
    return life_method(name, katago=files)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rulelab", description=DESCRIPTION,
                                     epilog=_choices(), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"rulelab {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    def command(name: str, help: str, names: bool = True) -> argparse.ArgumentParser:
        return commands.add_parser(name, help=help, description=help, epilog=_choices() if names else None,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)

    ingest = command("ingest", "read and replay games into DIR/games.parquet")
    _add_inputs(ingest)
    ingest.add_argument("--superko", action="store_true", help="check positional superko on every record, whatever its rules "
                             "(default: the ko rule each record names)")

    score = command("score", "score every game under every ruleset into DIR/scores.parquet "
                             "(and its verdict into DIR/life.parquet)")
    _add_inputs(score)
    score.add_argument("--rules", metavar="LIST", help="comma-separated rulesets (default: every preset)")
    score.add_argument("--komi", type=float, metavar="K", help="score every ruleset at this komi")
    _add_life(score)
    score.add_argument("--assume-rules", metavar="NAME",
                       help="rules of records that name none (e.g. japanese for Japanese title games)")
    score.add_argument("--playout", choices=PLAYOUT_MODELS, default="captured",
                       help="Tromp-Taylor and stone scoring: score after the dead stones are "
                            "captured (default), or the board as it stands (as-is)")
    _add_finish(score)

    validate = command("validate", "compare counts under each record's rules with its recorded result")
    _add_inputs(validate, out_required=False)
    _add_life(validate)
    validate.add_argument("--second-opinion", choices=ENGINE_METHODS,
                          help="count each game with this backend's dead stones too, and "
                               "blame no miss on the record when its verdict reproduces it")
    validate.add_argument("--assume-rules", metavar="NAME", help="rules of records that name none")
    _add_finish(validate)

    sql = command("sql", "run SQL over a run folder's tables (views: games, scores, life; "
                         "all_games, all_scores, all_life keep the copies)", names=False)
    sql.add_argument("dir", metavar="DIR")
    sql.add_argument("query", metavar="SQL")
    sql.add_argument("--format", choices=("table", "csv", "json"), default="table")
    sql.add_argument("--allow-files", action="store_true",
                     help="let SQL read and write files beyond the run's tables, and run any statement")
    sql.add_argument("--time-limit", type=float, default=SQL_TIME_LIMIT, metavar="SECONDS",
                     help=f"stop the query after this long (default {SQL_TIME_LIMIT:g}; 0: no limit)")

    report = command("report", "build the report of a run folder (index.html, report.md)", names=False)
    report.add_argument("dir", metavar="RUN_DIR")
    report.add_argument("out", metavar="OUT_DIR", nargs="?",
                        help="folder for the report (default: RUN_DIR-report beside the run folder)")
    report.add_argument("--as-stands", metavar="RUN_DIR",
                        help="a run of the same collection scored with --finish none: the rates and parity "
                             "on the board as it stands beside RUN_DIR's (finished boards), and the "
                             "agreement with records counted that way (KGS)")
    report.add_argument("--seed-runs", metavar="RUN_DIR", nargs="+", default=[],
                        help="runs of the same collection scored with other --seed values (after "
                             "RUN_DIR OUT_DIR): each even-game pair rate per seed, and the games "
                             "whose verdict changes between seeds")
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
    except _ArgumentError as error:
        _say(f"{error} (see {error.prog} --help)")
        return 2
    with _stop_signals() as received, warnings.catch_warnings():
        warnings.showwarning = lambda message, *_: _say(f"warning: {_in_cli_words(str(message))}")
        try:
            status = COMMANDS[args.command](args)
            sys.stdout.flush()  # here, where a closed pipe is caught, rather than at exit
            return status
        except BrokenPipeError:
            return _reader_gone()
        except RulelabError as error:
            _say(_in_cli_words(str(error)))
            return 2
        except OSError as error:  # disk full, read-only folder, file-size limit, ...
            _say(_os_error(error))
            return 2
        except KeyboardInterrupt:
            said, status = _STOPPED_BY[received[0] if received else signal.SIGINT]
            _say(said)
            return status


_CLI_WORDS = {"force=True": "--force", "assume_rules": "--assume-rules", "allow_files=True": "--allow-files",
              "time_limit=None": "--time-limit 0"}
"""The API's words in its errors, as the command line spells them."""


def _in_cli_words(message: str) -> str:
    for api, flag in _CLI_WORDS.items():
        message = message.replace(api, flag)
    return message


def _say(message: str) -> None:
    """One ``rulelab:`` line on standard error, control characters escaped."""
    print(f"rulelab: {printable(message)}", file=sys.stderr, flush=True)


class _ArgumentError(Exception):
    """A command line argparse refuses, told in one line rather than a usage block."""

    def __init__(self, message: str, prog: str):
        super().__init__(message)
        self.prog = prog


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        raise _ArgumentError(message, self.prog)


_STOPPED_BY = {signal.SIGINT: ("interrupted", 130), signal.SIGTERM: ("terminated", 143)}
"""What the run says, and its exit status, when Ctrl-C or SIGTERM stops it."""


@contextlib.contextmanager
def _stop_signals():
    """Ctrl-C and SIGTERM stop a run as ``KeyboardInterrupt``, so it cleans up on its way
    out; a second one ends the process at once. Yields the signals received.

    The handlers stay once a signal came, so that one arriving while the interpreter
    exits ends it too, instead of raising in its exit handlers.
    """
    received: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield received
        return

    def stop(signum, frame):
        if received:
            os.write(2, b"rulelab: stopped at once\n")
            os._exit(128 + signum)
        received.append(signum)
        raise KeyboardInterrupt

    previous = {signum: signal.signal(signum, stop) for signum in _STOPPED_BY}
    try:
        yield received
    finally:
        if not received:
            for signum, handler in previous.items():
                signal.signal(signum, handler)


def _reader_gone() -> int:
    """Stop quietly once the reader of the output has gone (``rulelab sql ... | head``), as
    Unix tools do, with the status of a process that SIGPIPE ended."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing left to flush at exit
    return 128 + 13


def _os_error(error: OSError) -> str:
    """What the system refused, and where: ``cannot write DIR/x: No space left on device``."""
    reason = error.strerror or str(error)
    return f"cannot write {error.filename}: {reason}" if error.filename else f"the system refused: {reason}"


def _ingest(args) -> int:
    from rulelab.pipeline.run import ingest

    started = time.perf_counter()
    manifest = ingest(args.paths, args.out, jobs=args.jobs, force=args.force,
                      superko=args.superko, progress=True, engine=args.engine, scheduler=args.scheduler)
    _summary(args, manifest, started)
    return 0


def _score(args) -> int:
    from rulelab.pipeline.run import score

    rules = args.rules.split(",") if args.rules is not None else None
    started = time.perf_counter()
    manifest = score(args.paths, args.out, rules=rules, komi=args.komi, life=_life(args, args.life),
                     jobs=args.jobs, force=args.force, progress=True, engine=args.engine,
                     scheduler=args.scheduler, assume_rules=args.assume_rules, playout=args.playout,
                     seed=args.seed, finish=args.finish)
    _summary(args, manifest, started)
    return 0


def _validate(args) -> int:
    import tempfile

    from pathlib import Path

    import pandas as pd

    from rulelab.pipeline.run import validate
    from rulelab.pipeline.validate import VALIDATION_FILE, miss_class_counts
    from rulelab.store.manifest import read_manifest

    with tempfile.TemporaryDirectory(prefix="rulelab-validate-") as scratch:
        out = args.out or scratch
        started = time.perf_counter()
        summary = validate(args.paths, out, life=_life(args, args.life), jobs=args.jobs, force=args.force,
                           progress=True, engine=args.engine, scheduler=args.scheduler,
                           assume_rules=args.assume_rules, second=_life(args, args.second_opinion),
                           seed=args.seed, finish=args.finish)
        if args.json:
            print((Path(out) / "validation.json").read_text(), end="")
            return 0
        print(summary.to_string())
        print("\nmisses by class:")
        print(miss_class_counts(pd.read_parquet(Path(out) / VALIDATION_FILE)).to_string())
        if args.out:
            print()
            _summary(args, read_manifest(out) or {}, started)
            print(printable(f"  {'disagreements':<8} {out}/validation.parquet"))
    return 0


def _sql(args) -> int:
    from rulelab.store.sql import stream

    shown = _SqlOutput(args.format)
    truncated = stream(args.dir, args.query, shown.batch, allow_files=args.allow_files, max_rows=SQL_MAX_ROWS,
                       time_limit=args.time_limit or None)
    shown.close()
    if truncated:
        _say(f"the first {SQL_MAX_ROWS:,} rows of the result; narrow the query, or use "
             "rulelab.connect() in Python for all of it")
    return 0


SQL_MAX_ROWS = 1_000_000
"""Rows ``rulelab sql`` prints at most."""
SQL_TIME_LIMIT = 30.0
"""Seconds a query of ``rulelab sql`` may run unless told otherwise."""


class _SqlOutput:
    """A query's result written as it comes, batch by batch, in the format asked: a table
    (aligned within each batch), CSV, or one JSON array."""

    def __init__(self, format: str):
        self.format = format
        self.columns: list[str] | None = None

    def batch(self, columns: list[str], batch) -> None:
        frame = _printable(batch.to_pandas(), escape=self.format == "table")
        first = self.columns is None
        self.columns = columns
        if self.format == "csv":
            frame.to_csv(sys.stdout, index=False, header=first)
        elif self.format == "json":
            records = frame.to_json(orient="records", force_ascii=False)[1:-1]
            if records:
                sys.stdout.write(("[" if first else ",") + records)
            elif first:
                self.columns = None
        else:
            print(frame.to_string(index=False, header=first))

    def close(self) -> None:
        """End the output (a JSON array's closing bracket)."""
        if self.format == "json":
            print("[]" if self.columns is None else "]")
        sys.stdout.flush()


def _printable(frame, escape: bool):
    """Binary cells (the ``board`` and ``territory_marks`` columns) as one digit per point,
    row-major, 0 empty / 1 black / 2 white, instead of bytes no format can show; with
    ``escape``, control characters in text escaped (see :func:`rulelab.errors.printable`)."""
    for column in frame.columns[frame.dtypes == object]:
        frame[column] = frame[column].map(
            lambda cell: "".join(map(str, cell)) if isinstance(cell, (bytes, bytearray))
            else printable(cell) if escape and isinstance(cell, str) else cell)
    return frame


def _report(args) -> int:
    from rulelab.analysis.inputs import check_run
    from rulelab.report.build import build_report, named_report_folder

    run = check_run(args.dir)
    out = (named_report_folder(args.out) if args.out is not None
           else run.resolve().with_name(f"{run.resolve().name}-report"))
    started = time.perf_counter()
    _say(f"building the report of {run} in {out} (a minute or so) ...")
    as_stands = check_run(args.as_stands) if args.as_stands is not None else None
    seeds = tuple(check_run(folder) for folder in args.seed_runs)
    index = build_report(run, out, as_stands=as_stands, seed_runs=seeds)
    print(printable(f"report: {index} ({time.perf_counter() - started:.0f} s)"))
    return 0


def _summary(args, manifest: dict, started: float) -> None:
    """The run's counts as JSON with ``--json``, else a few lines for a person."""
    if args.json:
        print(json.dumps(manifest["counts"], indent=2, sort_keys=True))
    else:
        from rulelab.pipeline.summary import run_summary

        print(printable_lines(run_summary(args.out, time.perf_counter() - started)))


COMMANDS = {"ingest": _ingest, "score": _score, "validate": _validate, "sql": _sql, "report": _report}

if __name__ == "__main__":
    sys.exit(main())
