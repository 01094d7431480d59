"""The games stage: a unit's input files → one games-table row per game found; and the
games table read back, or read on the fly from SGF inputs.

The ``ingest`` command (:func:`rulelab.pipeline.run.ingest`) runs this stage over a
collection and publishes the table with a manifest.
"""

from __future__ import annotations

import os
import platform
import sys
import warnings
from functools import partial
from pathlib import Path
from typing import Iterator

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from rulelab.errors import InputError
from rulelab.pipeline.checkpoint import Stage
from rulelab.pipeline.duplicates import copy_keys, first_copies, mark_duplicates
from rulelab.pipeline.progress import compile_kernels
from rulelab.pipeline.runner import ordered_map
from rulelab.pipeline.units import plan_units
from rulelab.read.records import failure_rows, file_rows
from rulelab.read.sources import FileFailure, RawFile, check_inputs, iter_files
from rulelab.store.layout import GAMES_FILE
from rulelab.store.manifest import is_run_folder
from rulelab.store.tables import GAMES_SCHEMA, read_frame, to_frame


def _rows_of_batch(batch: list[RawFile | FileFailure], superko: bool) -> Iterator[dict]:
    for item in batch:
        yield from (failure_rows(item) if isinstance(item, FileFailure) else file_rows(item, superko=superko))


def _table_of_batch(batch: list[RawFile | FileFailure], superko: bool) -> pa.Table:
    return pa.Table.from_pylist(list(_rows_of_batch(batch, superko)), schema=GAMES_SCHEMA)


def games_stage(superko: bool) -> Stage:
    """The games table made unit by unit: a unit's files → one row per game."""
    return Stage("games", GAMES_SCHEMA, partial(_rows_of_batch, superko=superko),
                 {"superko": superko}, environment())


def no_games(paths: list[str]) -> InputError:
    """The error of inputs that hold no game record at all."""
    return InputError(f"no game record in {', '.join(paths)}: no .sgf or .mgt file, "
                      "and no archive holding one")


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
    if os.path.lexists(path / GAMES_FILE):
        return read_frame(path / GAMES_FILE, GAMES_SCHEMA, keep_copies=keep_copies)
    if is_run_folder(path):
        raise InputError(f"{path} is a run folder without {GAMES_FILE}: run rulelab.ingest (or score) into it "
                         "first")
    check_inputs([path])
    warnings.warn(f"{path} is not a run folder (it holds no {GAMES_FILE}): its SGF files are read now, "
                  "nothing is written", stacklevel=2)
    compile_kernels()
    units = (unit.items for unit in plan_units(iter_files([str(path)])))
    tables = list(ordered_map(partial(_table_of_batch, superko=False), units, jobs))
    if not tables:
        raise no_games([str(path)])
    first = first_copies(copy_keys(table) for table in tables)
    games = pa.concat_tables([GAMES_SCHEMA.empty_table(), *mark_duplicates(tables, first)])
    return to_frame(games if keep_copies else games.filter(pc.field("duplicate_of").is_null()))
