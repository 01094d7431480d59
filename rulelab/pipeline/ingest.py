"""Ingest: input paths → the games table (one row per game found) and a manifest.

Files stream from :mod:`rulelab.read.sources`, cut into units (:mod:`rulelab.pipeline.units`), to
workers of an engine (:mod:`rulelab.pipeline.engines`: local processes or a Dask cluster); each
unit's rows are checkpointed as a part file (:mod:`rulelab.pipeline.checkpoint`), and the table
is assembled from the parts in input order. Memory stays flat however large the
collection is, and a run interrupted or repeated makes only the parts it lacks.
"""

from __future__ import annotations

import os
import platform
import sys
import time
from functools import partial
from pathlib import Path
from typing import Iterable, Iterator, Sequence

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from rulelab import __version__
from rulelab.errors import InputError
from rulelab.pipeline.checkpoint import PartStore, RunResult, Stage, publish_table, run_lock, run_units, table_digest
from rulelab.pipeline.duplicates import first_copies, mark_duplicates
from rulelab.pipeline.engines import open_engine
from rulelab.pipeline.progress import RunProgress, compile_kernels
from rulelab.pipeline.runner import ordered_map
from rulelab.pipeline.units import plan_units
from rulelab.read.records import failure_rows, file_rows
from rulelab.read.sources import FileFailure, RawFile, ReadStats, check_inputs, iter_files
from rulelab.store.layout import GAMES_FILE, MANIFEST_FILE
from rulelab.store.manifest import CHECKSUMS, checksums, damaged_tables, manifest_damaged, read_manifest
from rulelab.store.tables import GAMES_SCHEMA, read_frame, read_provenance, to_frame, write_json_atomic


def _rows_of_batch(batch: list[RawFile | FileFailure], superko: bool) -> Iterator[dict]:
    for item in batch:
        yield from (failure_rows(item) if isinstance(item, FileFailure) else file_rows(item, superko=superko))


def _table_of_batch(batch: list[RawFile | FileFailure], superko: bool) -> pa.Table:
    return pa.Table.from_pylist(list(_rows_of_batch(batch, superko)), schema=GAMES_SCHEMA)


def games_stage(superko: bool) -> Stage:
    """The games table made unit by unit: a unit's files → one row per game."""
    return Stage("games", GAMES_SCHEMA, partial(_rows_of_batch, superko=superko),
                 {"superko": superko}, environment())


def run_pipeline(paths: list[str], out: Path, stages: Sequence[Stage], engine, progress: bool,
                 stats: ReadStats) -> RunResult:
    """Every unit of ``paths`` through ``stages`` on ``engine``, checkpointed under ``out``;
    ``stats`` is filled with what was read (the manifest's inputs and skip counts)."""
    compile_kernels()
    shown = RunProgress(paths, progress, stats)
    try:
        run = run_units(plan_units(iter_files(paths, stats=stats)), stages, PartStore(out),
                        engine, on_done=shown.done)
    finally:
        shown.close()
    if not run.units:  # before any table is published, so a run folder's tables stay as they were
        raise no_games(paths)
    return run


def no_games(paths: list[str]) -> InputError:
    """The error of inputs that hold no game record at all."""
    return InputError(f"no game record in {', '.join(paths)}: no .sgf or .mgt file, "
                      "and no archive holding one")


def publish_games(out: Path, run: RunResult, stats: ReadStats, options: dict, engine: dict,
                  seconds: float) -> dict:
    """Assemble ``out/games.parquet`` from the run's parts and write the manifest.

    A table already assembled from the same parts is left as it is.
    """
    store = PartStore(out)
    keys = run.keys["games"]
    meta = provenance("ingest", stats.inputs, options)
    digest = table_digest(keys, meta)
    before = read_manifest(out) or {}
    if (not (out / GAMES_FILE).is_file() or before.get("parts", {}).get("games") != digest
            or GAMES_FILE in damaged_tables(out, before)):
        first = first_copies(store.read("games", key, ["game_id"])["game_id"] for key in keys)
        publish_table(store, "games", keys, out / GAMES_FILE, GAMES_SCHEMA, meta,
                      lambda groups: mark_duplicates(groups, first))
    store.prune("games", keys)
    games = pq.read_table(out / GAMES_FILE, columns=["status", "duplicate_of"])
    statuses = {row["values"]: row["counts"] for row in pc.value_counts(games["status"]).to_pylist()}
    found = games.num_rows
    manifest = {
        **meta,
        "options": {**meta["options"], "jobs": engine["workers"]},
        "counts": {
            "games_found": found,
            "games_ok": statuses.get("ok", 0),
            "games_failed": found - statuses.get("ok", 0),
            "by_status": dict(sorted(statuses.items())),
            "duplicates": games.num_rows - games["duplicate_of"].null_count,
            "inputs_skipped": dict(sorted(stats.skipped.items())),
        },
        "timings": {"ingest_seconds": round(seconds, 3),
                    "games_per_second": round(found / seconds, 1) if seconds else None},
        "environment": environment(),
        "engine": engine,
        "units": run.summary("games"),
        "tables": {"games": GAMES_FILE},
        "parts": {"games": digest},
        CHECKSUMS: checksums(out, [GAMES_FILE]),
    }
    write_json_atomic(out / MANIFEST_FILE, manifest)
    return manifest


def check_output_folder(paths: Iterable[str], out: Path, files: Iterable[str], force: bool) -> None:
    """Refuse a run folder that cannot be one, inside an input folder, or holding
    finished results (unless ``force``).

    A table that the manifest does not list is what a run stopped between publishing
    it and writing the manifest leaves behind: it is not a finished result, and the
    run that resumes replaces it. Nor is a damaged manifest, or a table that no longer
    matches the manifest's checksum: the run rebuilds each from the parts, saying so.
    """
    try:
        os.fsencode(out).decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"the run folder's name {str(out)!r} is not valid UTF-8; choose another") from None
    if out.exists() and not out.is_dir():
        raise InputError(f"the run folder {out} exists and is not a folder")
    target = _resolved(out)
    if target is None:
        raise InputError(f"the run folder {out} cannot be reached: it is a loop of symbolic links")
    for path in paths:
        source = _resolved(path)  # a loop among the inputs is its own row when read
        if source is not None and source.is_dir() and (target == source or source in target.parents):
            raise InputError(f"refusing to write into {out}: it is inside the input folder {path}")
    existing = [name for name in files if (out / name).exists() and _is_finished(out, name)]
    if existing and not force:
        raise InputError(f"{out / existing[0]} exists; use --force to overwrite")
    _say_what_is_rebuilt(out)


def _resolved(path: str | Path) -> Path | None:
    """``path`` with its links resolved, or None for a loop of symbolic links."""
    try:
        return Path(path).resolve()
    except RuntimeError:
        return None


def _is_finished(out: Path, name: str) -> bool:
    """Whether ``out/name`` is a finished result: the manifest, a table it lists, or a file
    rulelab did not write."""
    manifest = read_manifest(out)
    if name == MANIFEST_FILE:
        return manifest is not None
    listed = (manifest or {}).get("tables", {})
    if name in (listed.values() if isinstance(listed, dict) else ()):
        return name not in damaged_tables(out, manifest)
    try:
        return "command" not in read_provenance(out / name)
    except (OSError, ValueError, pa.ArrowException):
        return True


def _say_what_is_rebuilt(out: Path) -> None:
    """One line on standard error per damaged file the run will rebuild from the parts."""
    damaged = [MANIFEST_FILE] if manifest_damaged(out) else damaged_tables(out, read_manifest(out))
    for name in damaged:
        print(f"rulelab: {out / name} is damaged (empty, torn, or not as the manifest recorded it); "
              "it is rebuilt from the parts", file=sys.stderr, flush=True)


def provenance(command: str, inputs: list[dict], options: dict) -> dict:
    """What produced a table: enough to reproduce it and to know if inputs changed.

    ``inputs`` describes each input by the bytes that were read from it
    (:attr:`rulelab.read.sources.ReadStats.inputs`).
    """
    return {
        "rulelab_version": __version__,
        "command": command,
        "options": options,
        "inputs": inputs,
    }


def ingest(paths: Iterable[str], out: str | Path, *, jobs: int | None = None,
           force: bool = False, superko: bool = False, progress: bool = False,
           engine: str = "local", scheduler: str | None = None) -> dict:
    """Read every game under ``paths`` and write ``out/games.parquet`` and ``out/manifest.json``.

    Parameters
    ----------
    paths : iterable of str
        Files, folders (read recursively) and archives (.zip, .tar, .tar.gz/.tgz,
        .tar.xz, .tar.bz2), read as streams.
    out : path
        The run folder; created if missing. Never inside an input folder.
    jobs : int, optional
        Worker processes (default: one per core).
    force : bool
        Overwrite existing results. Parts of inputs that did not change are reused,
        so re-running on a grown collection reads only its new and changed files.
    superko : bool
        Check positional superko on every record, whatever its rules. Without it each
        record's moves are judged by the suicide and ko rules it names
        (:func:`rulelab.rules.replay_rules`): a positional or situational superko rule
        is checked, simple ko alone otherwise.
    progress : bool
        Show a progress bar on standard error.
    engine : {'local', 'dask'}
        Where the work runs (see :func:`rulelab.pipeline.engines.open_engine`).
    scheduler : str, optional
        Address of a Dask scheduler; without one, ``engine='dask'`` starts a local cluster.

    Returns
    -------
    dict
        The manifest written to ``out/manifest.json``.

    Notes
    -----
    Each unit's rows are kept under ``out/parts/``; a run that was interrupted resumes
    from them when the same command is run again.
    """
    paths = check_inputs(paths)
    out = Path(out)
    check_output_folder(paths, out, [GAMES_FILE, MANIFEST_FILE], force)
    out.mkdir(parents=True, exist_ok=True)
    with run_lock(out):
        started = time.perf_counter()
        stats = ReadStats()
        with open_engine(engine, jobs=jobs, scheduler=scheduler) as runner:
            run = run_pipeline(paths, out, [games_stage(superko)], runner, progress, stats)
            where = runner.describe()
        return publish_games(out, run, stats, {"superko": superko}, where, time.perf_counter() - started)


def environment() -> dict:
    """Versions of the interpreter and the libraries that shape the results."""
    import numba
    import numpy
    import pyarrow
    import sgfmill

    return {
        "python": platform.python_version(),
        "platform": sys.platform,
        "numpy": numpy.__version__,
        "pandas": pd.__version__,
        "pyarrow": pyarrow.__version__,
        "numba": numba.__version__,
        "sgfmill": getattr(sgfmill, "__version__", "1.1.1"),
    }


def read_games(path: str | Path, *, jobs: int = 1, keep_copies: bool = False) -> pd.DataFrame:
    """The games table of a run folder, or of SGF inputs read on the fly (nothing written).

    Integer columns are nullable integers (``year``, ``ko_point``, ``first_illegal_move``
    ... keep their nulls without turning into floats). The rows of a record read twice
    (``duplicate_of`` set) are left out unless ``keep_copies``, as the SQL views ``games``
    and ``all_games`` do, so ``game_id`` is unique by default.

    Examples
    --------
    >>> games = read_games("collection/")            # doctest: +SKIP
    >>> games.groupby("result_kind").size()          # doctest: +SKIP
    """
    path = Path(path)
    if (path / GAMES_FILE).is_file():
        return read_frame(path / GAMES_FILE, keep_copies=keep_copies)
    check_inputs([path])
    compile_kernels()
    units = (unit.items for unit in plan_units(iter_files([str(path)])))
    tables = list(ordered_map(partial(_table_of_batch, superko=False), units, jobs))
    if not tables:
        raise no_games([str(path)])
    first = first_copies(table["game_id"] for table in tables)
    games = pa.concat_tables([GAMES_SCHEMA.empty_table(), *mark_duplicates(tables, first)])
    return to_frame(games if keep_copies else games.filter(pc.field("duplicate_of").is_null()))

