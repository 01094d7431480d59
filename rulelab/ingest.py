"""Ingest: input paths → the games table (one row per game found) and a manifest.

Files stream from :mod:`rulelab.sources` in batches into worker processes
(:mod:`rulelab.runner`); rows come back in input order and are written in row groups,
so memory stays flat however large the collection is.
"""

from __future__ import annotations

import platform
import sys
import time
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Iterable, Iterator

import pandas as pd

from . import __version__
from .errors import InputError
from .records import failure_rows, file_rows
from .runner import batched, default_jobs, ordered_map
from .sources import FileFailure, RawFile, describe_inputs, iter_files
from .tables import GAMES_SCHEMA, TableWriter, write_json_atomic

GAMES_FILE = "games.parquet"
MANIFEST_FILE = "manifest.json"
BATCH_FILES = 64
BATCH_BYTES = 4 << 20


def _rows_of_batch(batch: list[RawFile | FileFailure], superko: bool) -> list[dict]:
    rows: list[dict] = []
    for item in batch:
        rows.extend(failure_rows(item) if isinstance(item, FileFailure)
                    else file_rows(item, superko=superko))
    return rows


def _size(item: RawFile | FileFailure) -> int:
    return len(item.data) if isinstance(item, RawFile) else 0


def iter_game_rows(paths: Iterable[str], *, jobs: int = 1, superko: bool = False) -> Iterator[list[dict]]:
    """Batches of games-table rows, in input order, with ``duplicate_of`` filled in."""
    first_seen: dict[str, str] = {}
    batches = batched(iter_files(paths), BATCH_FILES, BATCH_BYTES, _size)
    for rows in ordered_map(partial(_rows_of_batch, superko=superko), batches, jobs):
        for row in rows:
            where = row["source_path"] + (f":{row['archive_member']}" if row["archive_member"] else "")
            if row["game_index"] is not None:
                where += f"#{row['game_index']}"
            original = first_seen.setdefault(row["game_id"], where)
            if original != where:
                row["duplicate_of"] = original
        yield rows


def check_output_folder(paths: Iterable[str], out: Path, files: Iterable[str], force: bool) -> None:
    """Refuse to write inside an input folder, or over existing results without ``force``."""
    target = out.resolve()
    for path in paths:
        source = Path(path).resolve()
        if source.is_dir() and (target == source or source in target.parents):
            raise InputError(f"refusing to write into {out}: it is inside the input folder {path}")
    existing = [name for name in files if (out / name).exists()]
    if existing and not force:
        raise InputError(f"{out / existing[0]} exists; use --force to overwrite")


def provenance(command: str, paths: list[str], options: dict) -> dict:
    """What produced a table: enough to reproduce it and to know if inputs changed."""
    return {
        "rulelab_version": __version__,
        "command": command,
        "options": options,
        "inputs": describe_inputs(paths),
    }


def ingest(paths: Iterable[str], out: str | Path, *, jobs: int | None = None,
           force: bool = False, superko: bool = False, progress: bool = False) -> dict:
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
        Overwrite existing results.
    superko : bool
        Also flag positional-superko repetitions during replay.
    progress : bool
        Show a progress bar on standard error.

    Returns
    -------
    dict
        The manifest written to ``out/manifest.json``.
    """
    paths = [str(p) for p in paths]
    out = Path(out)
    check_output_folder(paths, out, [GAMES_FILE, MANIFEST_FILE], force)
    out.mkdir(parents=True, exist_ok=True)
    jobs = jobs or default_jobs()
    started = time.perf_counter()
    meta = provenance("ingest", paths, {"superko": superko})
    statuses: Counter = Counter()
    duplicates = 0
    bar = _progress_bar(progress, "games")
    with TableWriter(out / GAMES_FILE, GAMES_SCHEMA, meta) as writer:
        for rows in iter_game_rows(paths, jobs=jobs, superko=superko):
            writer.write(rows)
            statuses.update(row["status"] for row in rows)
            duplicates += sum(row["duplicate_of"] is not None for row in rows)
            bar.update(len(rows))
    bar.close()
    seconds = time.perf_counter() - started
    found = sum(statuses.values())
    manifest = {
        **meta,
        "options": {**meta["options"], "jobs": jobs},
        "counts": {
            "games_found": found,
            "games_ok": statuses["ok"],
            "games_failed": found - statuses["ok"],
            "by_status": dict(sorted(statuses.items())),
            "duplicates": duplicates,
        },
        "timings": {"ingest_seconds": round(seconds, 3),
                    "games_per_second": round(found / seconds, 1) if seconds else None},
        "environment": environment(),
        "tables": {"games": GAMES_FILE},
    }
    write_json_atomic(out / MANIFEST_FILE, manifest)
    return manifest


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


def read_games(path: str | Path, *, jobs: int = 1) -> pd.DataFrame:
    """The games table of a run folder, or of SGF inputs read on the fly (nothing written).

    Examples
    --------
    >>> games = read_games("collection/")            # doctest: +SKIP
    >>> games.groupby("result_kind").size()          # doctest: +SKIP
    """
    path = Path(path)
    if (path / GAMES_FILE).is_file():
        return pd.read_parquet(path / GAMES_FILE)
    import pyarrow as pa

    batches = [pa.Table.from_pylist(rows, schema=GAMES_SCHEMA)
               for rows in iter_game_rows([str(path)], jobs=jobs)]
    table = pa.concat_tables(batches) if batches else GAMES_SCHEMA.empty_table()
    return table.to_pandas()


def _progress_bar(enabled: bool, unit: str):
    from tqdm import tqdm

    return tqdm(unit=f" {unit}", disable=not (enabled and sys.stderr.isatty()), file=sys.stderr)
