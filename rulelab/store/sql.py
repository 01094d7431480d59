"""SQL over a run folder: DuckDB views on the Parquet tables the pipeline writes.

The views read the files in place, so a query over millions of rows never loads
them into pandas first; only the answer comes back as a DataFrame.

A query sees the run's tables and nothing else: DuckDB's access to files is turned off
(only the run's tables may be read), no extension can be installed or loaded, and the
configuration is locked so a query cannot turn any of it back on. :func:`query` runs
one read statement per call. ``allow_files=True`` lifts all of this, for a user who
means to read or write other files.

A query is bounded: DuckDB holds at most ``MEMORY_LIMIT`` with ``THREADS`` threads (a
query that needs more ends with DuckDB's out-of-memory error), results are read in
batches of ``BATCH_ROWS`` rows, and :func:`stream` runs the query on a thread of its
own, so that a time limit, Ctrl-C or SIGTERM (a ``KeyboardInterrupt`` in the main
thread) interrupts DuckDB (``interrupt()``) instead of waiting for it.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import threading
import time
from pathlib import Path
from typing import Callable, TypeVar

import duckdb
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from rulelab.errors import InputError
from rulelab.store.layout import GAMES_FILE, LIFE_FILE, SCORES_FILE
from rulelab.store.manifest import refuse_damaged_tables

MEMORY_LIMIT = "512MiB"
"""What DuckDB may hold for one connection (its ``memory_limit``)."""
THREADS = 2
BATCH_ROWS = 1024
"""Rows read from DuckDB at a time: a row of the games table can be tens of KB."""
SQL_TABLES = {"games": GAMES_FILE, "scores": SCORES_FILE, "life": LIFE_FILE}
"""The views of a run folder and their files: ``games`` is needed, the others are there
once the run is scored."""


def connect(run_dir: str | Path, *, allow_files: bool = False) -> duckdb.DuckDBPyConnection:
    """Open an in-memory DuckDB connection with views ``games``, ``scores`` and ``life``,
    and, on tables of rulelab's schema, ``komi_games`` (:data:`KOMI_GAMES_VIEW`) and
    ``compared`` (:data:`COMPARED_VIEW`).

    A record read twice (``duplicate_of`` set) would count twice: ``games``, ``scores``
    and ``life`` leave such copies out, and ``all_games``, ``all_scores`` and
    ``all_life`` keep them. ``life`` exists when the run has a life table (one scored
    before verdicts were stored has none).

    Parameters
    ----------
    run_dir : str or Path
        A run folder holding ``games.parquet`` (and, once scored, ``scores.parquet`` and
        ``life.parquet``), each a regular file.
    allow_files : bool
        Let SQL read and write any file and load extensions, as plain DuckDB does.
        By default the connection can read the run's tables and no other file.

    Returns
    -------
    duckdb.DuckDBPyConnection
        Close it when done (it is also a context manager).

    Raises
    ------
    InputError
        If the folder or its games table is missing, a table is not a regular Parquet
        file, or no longer matches the checksum its manifest records.

    Examples
    --------
    >>> import pandas as pd, tempfile
    >>> run = tempfile.mkdtemp()
    >>> pd.DataFrame({"game_id": ["g1"], "status": ["ok"]}).to_parquet(f"{run}/games.parquet")
    >>> pd.DataFrame({"game_id": ["g1"], "ruleset": ["chinese"]}).to_parquet(f"{run}/scores.parquet")
    >>> with connect(run) as con:
    ...     con.execute("SELECT count(*) FROM games JOIN scores USING (game_id)").fetchone()
    (1,)
    """
    folder = Path(run_dir)
    if not folder.is_dir():
        raise InputError(f"The run folder must be an existing directory; got {str(run_dir)!r}.")
    paths = {name: folder / file for name, file in SQL_TABLES.items() if os.path.lexists(folder / file)}
    if "games" not in paths:
        raise InputError(f"The run folder {str(run_dir)!r} lacks {GAMES_FILE}.")
    for path in paths.values():
        if not stat.S_ISREG(os.lstat(path).st_mode):
            raise InputError(f"{path} is not a regular file (a link, a FIFO or a device); SQL reads only "
                             "the tables rulelab wrote")
    refuse_damaged_tables(folder)
    config = {"memory_limit": MEMORY_LIMIT, "threads": THREADS}
    con = duckdb.connect(database=":memory:", config=config if allow_files else {**config, **_NO_EXTENSIONS})
    tables = [_literal_glob(str(path.resolve())) for path in paths.values()]
    if not allow_files:
        con.execute("SET allowed_paths = ?", [[str(path.resolve()) for path in paths.values()] + tables])
        con.execute("SET enable_external_access = false")
        con.execute("SET lock_configuration = true")
    for (name, path), pattern in zip(paths.items(), tables):
        literal = pattern.replace("'", "''")
        con.execute(f"CREATE VIEW all_{name} AS SELECT * FROM read_parquet('{literal}')")
        originals = " WHERE duplicate_of IS NULL" if "duplicate_of" in _columns(path) else ""
        con.execute(f"CREATE VIEW {name} AS SELECT * FROM all_{name}{originals}")
    if KOMI_GAMES_COLUMNS <= set(_columns(paths["games"])):
        con.execute(KOMI_GAMES_VIEW)
        if "scores" in paths and COMPARED_COLUMNS <= set(_columns(paths["scores"])):
            con.execute(COMPARED_VIEW)
    return con


COMPARED_COLUMNS = frozenset({"game_id", "ruleset", "komi_source", "winner", "finished", "margin_before_komi",
                              "tie_break"})

COMPARED_VIEW = """
CREATE VIEW compared AS
WITH played AS (SELECT * FROM games WHERE status = 'ok'),
counted AS (
    SELECT game_id,
           coalesce(komi, 0) + CASE WHEN result_kind = 'draw' THEN 0 WHEN result_winner = 'B' THEN result_margin
                                    WHEN result_winner = 'W' THEN -result_margin END AS record_margin
    FROM played WHERE result_kind IN ('counted', 'draw')),
own AS (SELECT game_id, first(margin_before_komi) AS rulelab_margin FROM scores
        WHERE komi_source = 'record' GROUP BY game_id),
gaps AS (SELECT game_id, abs(rulelab_margin - record_margin) AS record_gap FROM counted JOIN own USING (game_id)),
kinds AS (
    SELECT game_id,
           CASE WHEN coalesce(handicap, 0) > 0 THEN 'handicap'
                WHEN komi <= 0.5 AND source IS NOT NULL AND source <> 'gogod' THEN 'one-stone'
                WHEN komi IS NULL OR komi <= 0.5 THEN 'no komi'
                ELSE 'even' END AS game_kind
    FROM played),
basis AS (SELECT CASE WHEN EXISTS (SELECT 1 FROM scores WHERE komi_source = 'user') THEN 'user'
                      ELSE 'standard' END AS komi_source)
SELECT scores.*, game_kind, record_gap,
       CASE WHEN margin_before_komi - 7.5 > 0 THEN 'B' WHEN margin_before_komi - 7.5 < 0 THEN 'W'
            WHEN tie_break = 'black' THEN 'B' ELSE 'draw' END AS winner_common
FROM scores JOIN basis USING (komi_source) JOIN kinds USING (game_id) LEFT JOIN gaps USING (game_id)
WHERE winner IS NOT NULL
  AND (coalesce(finished, false) OR game_id IN (SELECT game_id FROM counted))
  AND coalesce(record_gap, 0) <= 10
"""
"""The view ``compared``: the scores rows the report compares across rulesets — each ruleset
at the komi it gives the game (or the run's ``--komi``), on settled games (finished, or
counted by the players) that replayed without error, less the games whose count under the
record's own rules misses the recorded margin by more than 10 points (a record without komi:
its margin itself) — with ``game_kind`` (``even``, ``handicap``, ``one-stone`` or ``no komi``:
the report's headline is on ``even`` games, each other kind has its section), ``record_gap``
(points between the count under the record's own rules and the record, on counted games:
``record_gap = 0`` is the report's games reproduced exactly) and ``winner_common``, the winner
at the common komi of 7.5. ``SELECT a.ruleset, b.ruleset, count(*), sum((a.winner <> b.winner)::INT)
FROM compared a JOIN compared b USING (game_id) WHERE a.game_kind = 'even' GROUP BY ALL`` gives
the report's headline pair rates, on the run folder the report was built from (its finished
boards; its ``--as-stands`` run folder gives their sensitivity row); grouped by ``a.game_kind``
instead, its disagreement table of each kind."""


KOMI_GAMES_COLUMNS = frozenset({"game_id", "status", "board_rows", "board_cols", "handicap", "komi", "source",
                                "result_kind", "result_winner", "result_margin", "year", "black_rank",
                                "white_rank"})


KOMI_GAMES_VIEW = """
CREATE VIEW komi_games AS
WITH played AS (SELECT * FROM games WHERE status = 'ok'),
boards AS (SELECT board_rows || 'x' || board_cols AS board, count(*) AS n FROM played
           WHERE board_rows IS NOT NULL AND board_cols IS NOT NULL GROUP BY ALL),
main AS (SELECT coalesce((SELECT board FROM boards WHERE board = '19x19'),
                         (SELECT board FROM boards ORDER BY n DESC LIMIT 1)) AS board),
decided AS (
    SELECT played.*,
           CASE WHEN result_kind = 'draw' OR (result_kind = 'counted' AND result_margin = 0) THEN 'draw'
                ELSE result_winner END AS winner
    FROM played, main
    WHERE board_rows || 'x' || board_cols = main.board
      AND coalesce(handicap, 0) = 0 AND komi IS NOT NULL AND abs(komi) <= 20
      AND NOT (komi <= 0.5 AND source IS NOT NULL AND source <> 'gogod')
      AND ((result_kind = 'draw')
           OR (result_kind = 'counted' AND result_winner IN ('B', 'W') AND result_margin IS NOT NULL)
           OR (result_kind IN ('resign', 'time') AND result_winner IN ('B', 'W'))))
SELECT game_id, board_rows || 'x' || board_cols AS board, komi, result_kind AS kind, winner,
       CASE winner WHEN 'B' THEN 1.0 WHEN 'draw' THEN 0.5 ELSE 0.0 END AS black_points,
       year, black_rank, white_rank, source
FROM decided
"""
"""The view ``komi_games``: the records' own results of the games the komi figures are
fitted to (even games — no handicap stones, not a server's one-stone game — on the main
board, with a stated komi, decided by a count, a resignation or on time), with Black's
points (1, ½, 0) at the komi in force. ``SELECT komi, count(*), avg(black_points) FROM
komi_games GROUP BY komi`` is the report's table of Black's win rate at each komi in force
(its ``record`` rows)."""


def _columns(path: Path) -> list[str]:
    try:
        return pq.read_schema(path).names
    except (OSError, pa.ArrowException) as error:
        raise InputError(f"{path} is not a Parquet table: {error}") from None


def _literal_glob(path: str) -> str:
    """``path`` as a DuckDB glob that matches only itself (``run?/`` would also read
    ``run1/``): each wildcard character in brackets."""
    return re.sub(r"([\[?*])", r"[\1]", path)


_NO_EXTENSIONS = {"autoinstall_known_extensions": False, "autoload_known_extensions": False}
_READING = frozenset({duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN})


def query(run_dir: str | Path, sql: str, *, allow_files: bool = False, max_rows: int | None = None,
          time_limit: float | None = None) -> pd.DataFrame:
    """Run one SQL statement over a run folder's views (``games``, ``scores``, ``life``).

    Parameters
    ----------
    run_dir : str or Path
        A run folder (see :func:`connect`).
    sql : str
        One DuckDB ``SELECT`` (or ``EXPLAIN``) statement.
    allow_files : bool
        Allow any statement, and files beyond the run's tables (see :func:`connect`).
    max_rows : int, optional
        Keep at most this many rows of the result, read batch by batch so the rest is
        never held; ``attrs["truncated"]`` then says whether rows were left out.
    time_limit : float, optional
        Seconds the query may run; past them it is interrupted (no limit by default).

    Returns
    -------
    pandas.DataFrame
        The statement's result.

    Raises
    ------
    InputError
        If the run folder is incomplete, ``sql`` is not one read statement (unless
        ``allow_files``), the time limit passed, or DuckDB rejects the statement (the
        message carries DuckDB's own, e.g. its refusal to open a file).

    Examples
    --------
    >>> import pandas as pd, tempfile
    >>> run = tempfile.mkdtemp()
    >>> pd.DataFrame({"game_id": ["g1", "g2"]}).to_parquet(f"{run}/games.parquet")
    >>> pd.DataFrame({"game_id": ["g1", "g1"], "ruleset": ["chinese", "japanese"],
    ...               "winner": ["B", "W"]}).to_parquet(f"{run}/scores.parquet")
    >>> query(run, "SELECT ruleset, winner FROM scores ORDER BY ruleset")
        ruleset winner
    0   chinese      B
    1  japanese      W
    """
    batches: list[pa.RecordBatch] = []
    names: list[str] = []

    def keep(columns: list[str], batch: pa.RecordBatch) -> None:
        names[:] = columns
        batches.append(batch)

    truncated = stream(run_dir, sql, keep, allow_files=allow_files, max_rows=max_rows, time_limit=time_limit)
    frame = (pa.Table.from_batches(batches).to_pandas() if batches else pd.DataFrame(columns=names))
    if max_rows is not None:
        frame.attrs["truncated"] = truncated
    return frame


Result = TypeVar("Result")


def stream(run_dir: str | Path, sql: str, on_batch: Callable[[list[str], pa.RecordBatch], None], *,
           allow_files: bool = False, max_rows: int | None = None, time_limit: float | None = None) -> bool:
    """Run one statement over a run folder, handing each batch of its result to
    ``on_batch(column names, batch)`` as it comes (an empty result: one empty batch; a
    statement without a result: no call); whether rows past ``max_rows`` were left unread.

    The statement runs on a thread of its own; this one waits for it, so that a time
    limit, or a ``KeyboardInterrupt`` (Ctrl-C, or SIGTERM as the command line turns it),
    interrupts DuckDB at once. Raises as :func:`query` does.
    """
    if not isinstance(sql, str) or not sql.strip():
        raise InputError(f"The 'sql' argument must be a non-empty SQL statement; got {sql!r}.")
    con = connect(run_dir, allow_files=allow_files)
    try:
        try:
            statements = con.extract_statements(sql)
        except duckdb.Error as error:
            raise _refused(error) from None
        if not allow_files and (len(statements) != 1 or statements[0].type not in _READING):
            raise InputError("SQL over a run folder is one SELECT statement per call "
                             f"(got {len(statements)} statement(s): "
                             f"{', '.join(s.type.name for s in statements)}); "
                             "allow_files=True lifts this")
        return _interruptible(con, lambda: _read(con, sql, on_batch, max_rows), time_limit)
    finally:
        with contextlib.suppress(duckdb.Error):  # still busy with a query that would not stop
            con.close()


def _read(con: duckdb.DuckDBPyConnection, sql: str, on_batch, max_rows: int | None) -> bool:
    """The statement's result, batch by batch, up to ``max_rows``; whether rows were left."""
    try:
        relation = con.sql(sql)
        if relation is None:  # a statement without rows (with allow_files)
            return False
        columns = relation.columns
        reader = relation.to_arrow_reader(BATCH_ROWS)
        count, handed = 0, False
        for batch in reader:
            if max_rows is not None and count + batch.num_rows > max_rows:
                on_batch(columns, batch.slice(0, max_rows - count))
                return True
            count += batch.num_rows
            on_batch(columns, batch)
            handed = True
        if not handed:  # its columns, without rows
            on_batch(columns, pa.RecordBatch.from_pylist([], schema=reader.schema))
        return False
    except duckdb.Error as error:
        raise _refused(error) from None


def _interruptible(con: duckdb.DuckDBPyConnection, work: Callable[[], Result], time_limit: float | None) -> Result:
    """``work()`` on a thread of its own, interrupted past ``time_limit`` seconds or when
    this thread is interrupted (``KeyboardInterrupt``)."""
    outcome: dict = {}
    done = threading.Event()  # waited on, never the thread itself: a join that Ctrl-C
    # interrupts takes the thread for ended (CPython's bpo-45274 handling) and exits under it

    def run() -> None:
        try:
            outcome["value"] = work()
        except BaseException as error:  # handed to the waiting thread
            outcome["error"] = error
        finally:
            done.set()

    deadline = None if time_limit is None else time.monotonic() + time_limit
    threading.Thread(target=run, name="rulelab-sql", daemon=True).start()
    try:
        while not done.wait(0.05):
            if deadline is not None and time.monotonic() > deadline:
                con.interrupt()
                done.wait()
                raise InputError(f"the query ran past its time limit of {time_limit:g} s and was stopped; "
                                 "narrow it, or lift the limit (time_limit=None)")
    except KeyboardInterrupt:
        con.interrupt()
        done.wait(1.5)
        raise
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def _refused(error: duckdb.Error) -> InputError:
    first_line = str(error).strip().splitlines()[0]  # the rest points at the query
    return InputError(f"DuckDB could not run the query: {first_line}")
