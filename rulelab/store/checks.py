"""A run folder's tables read defensively: each a regular file (no link followed, no
FIFO or device opened), of the columns and types rulelab writes, with values in their
domains. A table edited, swapped or planted is refused in one line naming the file and
what is wrong, before an analysis trips over it (a mask of the wrong length, a ruleset
nobody knows, a NaN margin)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from rulelab.errors import InputError
from rulelab.rules import PRESETS
from rulelab.store.manifest import open_run_file

WINNERS = ("B", "W", "draw", "void")
"""What the scores table's ``winner`` may hold (or null)."""


def read_checked(path: str | os.PathLike, schema: pa.Schema, filters=None) -> pa.Table:
    """The table at ``path``, once it is known to be a regular Parquet file holding every
    column of ``schema`` with its type (more columns are kept).

    Raises
    ------
    InputError
        Naming the file and what is wrong with it.
    """
    path = Path(path)
    try:
        with open_run_file(path) as stream:
            data = stream.read()  # the bytes to Arrow: its threads never call back into a Python file
        file = pq.ParquetFile(pa.BufferReader(data))
        refuse_other_schema(path, file.schema_arrow, schema)
        table = file.read()
    except OSError as error:
        raise InputError(f"{path} cannot be read as a table: {error.strerror or error}") from None
    except pa.ArrowException as error:
        raise InputError(f"{path} is not a Parquet table: {error}") from None
    return table if filters is None else table.filter(filters)


def refuse_other_schema(path: Path, actual: pa.Schema, expected: pa.Schema) -> None:
    """Refuse a table that lacks a column of ``expected`` or holds it with another type."""
    for field in expected:
        index = actual.get_field_index(field.name)
        if index < 0:
            raise InputError(f"{path} is not a table rulelab wrote: it lacks the column {field.name}")
        if not actual.field(index).type.equals(field.type):
            raise InputError(f"{path} is not a table rulelab wrote: its column {field.name} is "
                             f"{actual.field(index).type}, not {field.type}")


def check_scores(path: Path, table: pa.Table) -> None:
    """Refuse scores whose ruleset, winner or margin lie outside their domains (each
    checked when the table has it)."""
    columns = set(table.column_names)
    unknown = [name for name in _values(table, "ruleset") if name not in PRESETS]
    if unknown:
        raise InputError(f"{path} names a ruleset rulelab does not know: {unknown[0]!r}")
    winners = [name for name in _values(table, "winner") if name is not None and name not in WINNERS]
    if winners:
        raise InputError(f"{path} holds a winner that is none of {', '.join(WINNERS)}: {winners[0]!r}")
    for column in columns & {"margin", "margin_before_komi"}:
        values = table[column]
        if pa.types.is_floating(values.type) and pc.any(pc.or_(pc.is_nan(values), pc.is_inf(values))).as_py():
            raise InputError(f"{path} holds a {column} that is not a finite number (NaN or infinite)")


def _values(table: pa.Table, column: str) -> list:
    return pc.unique(table[column]).to_pylist() if column in table.column_names else []


def check_masks(path: Path, table: pa.Table) -> None:
    """Refuse life rows whose masks do not hold one byte per point of their board."""
    if not {"game_id", "board_rows", "board_cols"} <= set(table.column_names):
        raise InputError(f"{path} is not a life table rulelab wrote: it lacks game_id, board_rows or board_cols")
    points = (table["board_rows"].to_numpy(zero_copy_only=False).astype(np.int64)
              * table["board_cols"].to_numpy(zero_copy_only=False).astype(np.int64))
    for column in sorted({"dead", "seki", "proven", "classes"} & set(table.column_names)):
        lengths = pc.binary_length(table[column]).to_numpy(zero_copy_only=False)
        wrong = np.flatnonzero(lengths != points)
        if wrong.size:
            game = table["game_id"][int(wrong[0])].as_py()
            raise InputError(f"{path}: the {column} mask of game {game} holds {int(lengths[wrong[0]])} bytes "
                             f"for a board of {int(points[wrong[0]])} points")
