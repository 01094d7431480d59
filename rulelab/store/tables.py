"""The Parquet tables rulelab writes, the games schema, and how they are written.

The scores schema is built from the scorer's breakdown in :mod:`rulelab.pipeline.score`: this
module imports no scorer, so the games stage, which imports it, does not depend on one.

Explicit Arrow schemas keep column types stable whatever a batch holds (a batch of
failed games is all nulls). Writers stream row groups to a temporary file, sync it to
disk and rename it into place when complete, so a reader never sees a half-written
table, even after a power cut. Every table
carries its provenance as JSON under the Parquet key-value metadata key ``rulelab``.
"""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path
from typing import Callable, Iterable, Mapping

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

PROVENANCE_KEY = b"rulelab"

GAMES_SCHEMA = pa.schema(
    [
        ("game_id", pa.string()),
        ("duplicate_of", pa.string()),
        ("moves_hash", pa.string()),
        ("source_path", pa.string()),
        ("archive_member", pa.string()),
        ("game_index", pa.int32()),
        ("file_sha256", pa.string()),
        ("status", pa.string()),
        ("error", pa.string()),
        ("warnings", pa.string()),
        ("encoding_used", pa.string()),
        ("encoding_lossy", pa.bool_()),
        ("source", pa.string()),
        ("board_rows", pa.int8()),
        ("board_cols", pa.int8()),
        ("black_player", pa.string()),
        ("white_player", pa.string()),
        ("black_rank", pa.string()),
        ("white_rank", pa.string()),
        ("date_raw", pa.string()),
        ("year", pa.int16()),
        ("event", pa.string()),
        ("result_raw", pa.string()),
        ("result_kind", pa.string()),
        ("result_winner", pa.string()),
        ("result_margin", pa.float64()),
        ("komi_raw", pa.string()),
        ("komi", pa.float64()),
        ("handicap_raw", pa.string()),
        ("handicap", pa.int8()),
        ("handicap_source", pa.string()),
        ("handicap_mismatch", pa.bool_()),
        ("rules_raw", pa.string()),
        ("rules", pa.string()),
        ("variations_skipped", pa.int32()),
        ("moves_missing_after", pa.int32()),
        ("move_count", pa.int32()),
        ("passes_black", pa.int32()),
        ("passes_white", pa.int32()),
        ("last_mover", pa.string()),
        ("last_placer", pa.string()),
        ("to_move", pa.string()),
        ("ended_by_passes", pa.bool_()),
        ("captured_black", pa.int32()),
        ("captured_white", pa.int32()),
        ("placed_black", pa.int32()),
        ("placed_white", pa.int32()),
        ("illegal_move_count", pa.int32()),
        ("first_illegal_move", pa.int32()),
        ("illegal_moves", pa.string()),
        ("ko_point", pa.int16()),
        ("cycle", pa.string()),
        ("cycle_start", pa.int32()),
        ("cycle_end", pa.int32()),
        ("ended_in_cycle", pa.bool_()),
        ("board", pa.binary()),
        ("territory_marks", pa.binary()),
        ("moves", pa.binary()),
    ]
)


def _empty_row(schema: pa.Schema) -> dict:
    return {name: None for name in schema.names}


def games_row(**values) -> dict:
    """A games-table row with every column present (absent ones null)."""
    row = _empty_row(GAMES_SCHEMA)
    unknown = set(values) - set(row)
    if unknown:
        raise KeyError(f"not columns of the games table: {sorted(unknown)}")
    row.update(values)
    return row


class TableWriter:
    """Stream rows into a Parquet file in row groups; publish it atomically on close.

    Use as a context manager: on an exception the temporary file is removed and the
    previous table (if any) stays untouched.
    """

    def __init__(self, path: str | os.PathLike, schema: pa.Schema, provenance: Mapping):
        self.path = Path(path)
        metadata = {**(schema.metadata or {}), PROVENANCE_KEY: json.dumps(provenance, sort_keys=True).encode()}
        self.schema = schema.with_metadata(metadata)
        self.rows = 0
        self.tmp, stream = create_temporary(self.path)
        try:
            self._writer = pq.ParquetWriter(stream, self.schema, compression="zstd")
        except BaseException:
            stream.close()
            self.tmp.unlink(missing_ok=True)
            raise
        self._stream = stream

    def write(self, rows: Iterable[Mapping]) -> None:
        """Write rows given as mappings from column names to values."""
        rows = list(rows)
        if rows:
            self.write_table(pa.Table.from_pylist(rows, schema=self.schema))

    def write_table(self, table: pa.Table) -> None:
        """Write an Arrow table of the same columns as one row group, without a round trip
        through Python objects."""
        if table.num_rows:
            self._writer.write_table(table.cast(self.schema))
            self.rows += table.num_rows

    def __enter__(self) -> "TableWriter":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        try:
            self._writer.close()
            self._stream.close()
            if exc_type is None:
                sync_file(self.tmp)
                os.replace(self.tmp, self.path)
                sync_folder(self.path.parent)
        finally:
            self.tmp.unlink(missing_ok=True)


def read_provenance(path: str | os.PathLike) -> dict:
    """The provenance JSON stored in a rulelab Parquet table."""
    metadata = pq.read_schema(path).metadata or {}
    return json.loads(metadata.get(PROVENANCE_KEY, b"{}"))


def to_frame(table: pa.Table):
    """An Arrow table as pandas, integer columns as pandas' nullable integers: a null
    stays a null instead of turning the whole column into floats."""
    import pandas as pd

    nullable = {pa.int8(): pd.Int8Dtype(), pa.int16(): pd.Int16Dtype(), pa.int32(): pd.Int32Dtype(),
                pa.int64(): pd.Int64Dtype()}
    return table.to_pandas(types_mapper=nullable.get)


def read_frame(path: str | os.PathLike, schema: pa.Schema, *, keep_copies: bool = False,
               check: Callable[[Path, pa.Table], None] | None = None):
    """A run folder's table as pandas (see :func:`to_frame`), without the rows of a record
    read twice (``duplicate_of`` set) unless ``keep_copies``: as the SQL views ``games``
    and ``all_games`` see it, so that ``game_id`` is unique by default.

    Read defensively (:func:`rulelab.store.checks.read_checked`): a regular file of
    ``schema``'s columns, whose values ``check(path, table)`` may refuse too."""
    from rulelab.store.checks import read_checked

    table = read_checked(path, schema, None if keep_copies else pc.field("duplicate_of").is_null())
    if check is not None:
        check(Path(path), table)
    return to_frame(table)


TEMPORARY_SUFFIX = ".tmp"


def create_temporary(path: Path):
    """A new file beside ``path``, named ``.NAME.<random>.tmp``, and its binary stream.

    Created exclusively, links not followed: never a file someone else made under that
    name, nor the target of a link planted there. Only rulelab's own temporaries are
    ever removed, by their name (:func:`is_own_temporary`).
    """
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}{TEMPORARY_SUFFIX}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    return tmp, os.fdopen(fd, "wb")


def is_own_temporary(name: str, of: str) -> bool:
    """Whether ``name`` is a temporary :func:`create_temporary` made for the file ``of``."""
    prefix, suffix = f".{of}.", TEMPORARY_SUFFIX
    middle = name[len(prefix):-len(suffix)] if name.startswith(prefix) and name.endswith(suffix) else ""
    return len(middle) == 32 and all(char in "0123456789abcdef" for char in middle)


def write_json_atomic(path: str | os.PathLike, data: Mapping) -> None:
    """Write JSON so that a reader sees either the old file or the whole new one."""
    path = Path(path)
    tmp, stream = create_temporary(path)
    try:
        with stream:
            stream.write((json.dumps(data, indent=2, sort_keys=True) + "\n").encode())
        sync_file(tmp)
        os.replace(tmp, path)
        sync_folder(path.parent)
    finally:
        tmp.unlink(missing_ok=True)


def sync_file(path: str | os.PathLike) -> None:
    """Flush ``path`` to the disk, so that a rename of it survives a power cut."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sync_folder(folder: str | os.PathLike) -> None:
    """Flush the entries of ``folder`` (the renames into it) to the disk."""
    sync_file(folder)

