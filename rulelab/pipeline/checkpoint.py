"""Resumable, incremental runs: every unit's rows checkpointed as a part file.

A run cuts its inputs into units (:mod:`rulelab.pipeline.units`) and passes each through a
chain of stages (games, then scores and life), each making one table's rows for the unit,
or several tables' from the same work (one part each, under the same key). The
rows are written by whichever worker made them to ``DIR/parts/<table>/<key>.parquet``
under a temporary name, synced to disk and renamed into place, beside a sidecar
``<key>.check`` holding the part's row count and SHA-256. A part is reused only when it
matches its sidecar, so a part a power cut left empty or torn is made again. The
key hashes the unit's inputs (paths and content hashes), the stage's options and the
code and libraries that made it: a part is reused exactly when making it again would
give the same rows. A run stopped at any moment (Ctrl-C, a killed worker or process)
loses only the parts in flight; running the same command again makes just the
missing parts. The published tables are then assembled from the parts in input order,
so they are the same bytes whatever the engine, the number of workers, or how often
the run was interrupted. A lock file (``DIR/.rulelab.lock``) keeps a second run out of
a folder while one is writing to it.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import itertools
import json
import os
import re
import stat
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping, Sequence

import pyarrow as pa
import pyarrow.parquet as pq

from rulelab.errors import RulelabError
from rulelab.pipeline.fingerprint import code_fingerprint
from rulelab.pipeline.units import Unit, derive_key
from rulelab.store.layout import LOCK_FILE
from rulelab.store.manifest import file_sha256
from rulelab.store.tables import TableWriter, create_temporary, is_own_temporary, sync_file

PARTS_FOLDER = "parts"
ROWS_PER_GROUP = 4096
"""Rows per row group of an assembled table: parts are small, readers like big groups."""
SLICE_ROWS = 512
"""Rows a stage turns into Arrow, or reads from the previous stage, at a time."""


@dataclass(frozen=True)
class Stage:
    """One table made unit by unit.

    ``build`` turns the unit's input files (first stage) or the previous stage's rows
    (later stages) into this table's rows (dicts, or an Arrow table of the table's
    schema, for a stage that makes its rows as columns); it must be a picklable module-level
    function (or a ``functools.partial`` of one), since workers run it. A stage that
    makes tables ``beside`` its own returns, per batch, a mapping from each table to its rows.
    """

    table: str
    schema: pa.Schema
    build: Callable[[list], Iterable[dict]]
    options: dict
    """What, besides the code and its input, decides the rows (recorded in the key)."""
    libraries: dict = field(default_factory=dict)
    """Versions of the libraries the rows depend on (recorded in the key)."""
    reads: tuple[str, ...] | None = None
    """The columns of the previous stage's table that ``build`` uses (None: all)."""
    beside: tuple[tuple[str, pa.Schema], ...] = ()
    """Further tables ``build`` makes from the same rows, with their schemas; the next
    stage reads this stage's own table."""
    code: str = field(init=False)
    """:func:`code_fingerprint` of ``build``'s module where the stage was made (the client)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", code_fingerprint(self._module()))

    def _module(self) -> str:
        return getattr(self.build, "func", self.build).__module__

    @property
    def outputs(self) -> dict[str, pa.Schema]:
        """Every table the stage makes, its own first, with its schema."""
        return {self.table: self.schema, **dict(self.beside)}

    def by_table(self, rows) -> Mapping[str, list[dict]]:
        """One batch of ``build``'s rows as a mapping from each output table to its rows."""
        return rows if self.beside else {self.table: rows}

    @property
    def salt(self) -> str:
        """Everything a part's key holds besides its input: table, options, libraries, code."""
        return json.dumps({"table": self.table, "options": self.options, "libraries": self.libraries,
                           "code": self.code}, sort_keys=True)

    def check_code(self) -> None:
        """Refuse to make parts with code other than the code their keys name.

        A cluster whose workers run another rulelab than the client would otherwise
        file their rows under the client's keys, to be reused as if they were right.
        """
        if code_fingerprint(self._module()) != self.code:
            raise RulelabError(f"the rulelab code that makes the {self.table} table is not the code "
                               "the run started with: it was edited during the run, or this worker "
                               "has another rulelab installed than the client. Run again, with the "
                               "same rulelab on every machine")


class PartStore:
    """The part files of one run folder, one subfolder per table."""

    def __init__(self, run_folder: str | os.PathLike):
        self.root = Path(run_folder).resolve() / PARTS_FOLDER

    def path(self, table: str, key: str) -> Path:
        return self.root / table / f"{key}.parquet"

    def is_whole(self, table: str, key: str) -> bool:
        """Whether the part of ``key`` is on disk as it was written (see :func:`part_is_whole`)."""
        return part_is_whole(self.path(table, key))

    def has_parts(self, stage: Stage, key: str) -> bool:
        """Whether every table of ``stage`` has its part of ``key`` whole."""
        return all(self.is_whole(table, key) for table in stage.outputs)

    def read(self, table: str, key: str, columns: list[str] | None = None) -> pa.Table:
        """One part's rows; through ``ParquetFile``, which reads a small file in less than
        half the time ``pq.read_table`` and its dataset layer take."""
        with pq.ParquetFile(self.path(table, key)) as part:
            return part.read(columns=columns)

    def prune(self, table: str, keep: Iterable[str]) -> None:
        """Delete the parts of ``table`` not named in ``keep``, and leftover temporaries.

        Parts of inputs since changed or removed, or made with other options or code,
        would otherwise pile up run after run.
        """
        keep = {f"{key}{suffix}" for key in keep for suffix in (".parquet", CHECK_SUFFIX)}
        folder = self.root / table
        for path in folder.iterdir() if folder.is_dir() else ():
            if path.name not in keep and _PART_NAME.fullmatch(path.name):
                path.unlink(missing_ok=True)


CHECK_SUFFIX = ".check"
"""The sidecar of a part: its row count and SHA-256, as JSON."""
_PART_NAME = re.compile(r"[0-9a-f]{64}\.(?:parquet|check)|\.[0-9a-f]{64}\.parquet\.[0-9a-f]{32}(?:\.check)?\.tmp")
"""The names rulelab gives parts, their sidecars and their temporaries: the only files
pruning removes from a parts folder (a file of the user's there is left alone)."""


def _check_path(part: Path) -> Path:
    return part.with_suffix(CHECK_SUFFIX)


def part_is_whole(path: str | os.PathLike) -> bool:
    """Whether a part file holds the rows and bytes its sidecar says it was written with.

    A power cut can leave a renamed file empty or torn when the disk had not written it
    yet; such a part, or one without its sidecar, is made again rather than trusted.
    """
    path = Path(path)
    try:
        check = json.loads(_check_path(path).read_text())
        return (check["sha256"] == file_sha256(path)
                and pq.ParquetFile(path).metadata.num_rows == check["rows"])
    except (OSError, ValueError, KeyError, TypeError, pa.ArrowException):
        return False


def part_paths(stage: Stage, path: str | os.PathLike) -> dict[str, Path]:
    """The part of each table of ``stage`` beside ``path``, the part of its own table
    (``parts/<table>/<key>.parquet``: the same key in each table's folder)."""
    own = Path(path)
    return {table: own.parent.parent / table / own.name for table in stage.outputs}


def write_parts(paths: Mapping[str, Path], schemas: Mapping[str, pa.Schema],
                batches: Iterable[Mapping[str, list[dict] | pa.Table]]) -> dict[str, int]:
    """Write one part per table from batches of rows by table, so that each appears whole
    or not at all; rows written per table.

    Each part is synced to disk before it is renamed into place, after its sidecar: a
    part is never found without the sidecar that vouches for it. Neither the sidecar nor
    the renames are synced on their own: whatever a power cut loses of them, the part
    no longer matches its check and is made again (with the other parts of its stage,
    which are reused only all together). The temporary names are unique to this write:
    two workers making the same part (a task retried after its worker was lost) never
    write into each other's files.
    """
    tmp = {}
    counts = dict.fromkeys(paths, 0)
    with contextlib.ExitStack() as stack:
        stack.callback(lambda: [file.unlink(missing_ok=True) for file in tmp.values()])
        writers, streams = {}, []
        for table, path in paths.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp[table], stream = create_temporary(path)
            streams.append(stack.enter_context(stream))
            writers[table] = stack.enter_context(pq.ParquetWriter(stream, schemas[table], compression="zstd"))
        for batch in batches:
            for table, rows in batch.items():
                part = rows if isinstance(rows, pa.Table) else pa.Table.from_pylist(rows, schema=schemas[table])
                writers[table].write_table(part)
                counts[table] += part.num_rows
        for writer, stream in zip(writers.values(), streams):
            writer.close()
            stream.close()
        for table, path in paths.items():
            _publish_part(tmp[table], path, counts[table])
    return counts


def _publish_part(tmp: Path, final: Path, rows: int) -> None:
    """Rename a written part into place after its sidecar (see :func:`write_parts`)."""
    sync_file(tmp)
    tmp_check = tmp.with_suffix(".check.tmp")
    try:
        tmp_check.write_text(json.dumps({"rows": rows, "sha256": file_sha256(tmp)}))
        os.replace(tmp_check, _check_path(final))
        os.replace(tmp, final)
    finally:
        tmp_check.unlink(missing_ok=True)



@contextlib.contextmanager
def run_lock(folder: str | os.PathLike):
    """Hold the run folder's lock for the duration of a run; refuse if another run holds it.

    The lock is an ``flock`` on ``DIR/.rulelab.lock``: the system drops it when its
    holder ends, however it ends, so a killed run never leaves the folder locked. A
    lock file or parts folder that is a link is refused, never followed: rulelab would
    otherwise overwrite the lock's target, or prune the files of the parts' target.

    Raises
    ------
    RulelabError
        If another process is running in ``folder``, or its lock or parts are links.
    """
    path = Path(folder) / LOCK_FILE
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise _planted(path) from None
        raise
    with open(fd, "r+") as lock:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
            raise _planted(path)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            if error.errno not in (errno.EAGAIN, errno.EACCES):
                raise
            holder = lock.read(200).strip() or "another process"
            raise RulelabError(f"{folder} is in use by another rulelab run ({holder}); "
                               "wait for it to end, or write to another folder") from None
        _refuse_linked_parts(Path(folder) / PARTS_FOLDER)
        lock.truncate(0)
        lock.write(f"pid {os.getpid()}")
        lock.flush()
        yield


def _refuse_linked_parts(parts: Path) -> None:
    """Refuse a parts folder, or a table's folder in it, that is a link."""
    folders = [parts, *(parts.iterdir() if parts.is_dir() and not parts.is_symlink() else ())]
    for folder in folders:
        if folder.is_symlink():
            raise _planted(folder)


def _planted(path: Path) -> RulelabError:
    return RulelabError(f"{path} is a link or is linked elsewhere; rulelab never follows links in a run "
                        "folder: remove it, or write to another folder")


@dataclass(frozen=True)
class UnitWork:
    """What a worker does for one unit: the stages whose parts are missing, in order."""

    items: tuple | None
    """The unit's input files; None when the first stage's part exists already."""
    size: int
    """Bytes of file content in ``items``."""
    steps: tuple[tuple[Stage, str, bool], ...]
    """``(stage, path of the part of its own table, make it)``, up to the last stage to make."""


def run_unit(work: UnitWork) -> dict[str, int]:
    """Make the missing parts of one unit; the number of rows made per table.

    The first stage's rows are written as they come, and later stages read the previous
    stage's part back, in slices of ``SLICE_ROWS`` rows, so a unit holding one file of
    thousands of games needs the memory of a slice.
    """
    made = {}
    for number, (stage, path, make) in enumerate(work.steps):
        if not make:
            continue
        stage.check_code()
        if number == 0:
            rows = iter(stage.build(list(work.items)))
            batches = iter(lambda: list(itertools.islice(rows, SLICE_ROWS)), [])
        else:
            previous = pq.ParquetFile(work.steps[number - 1][1])
            batches = (stage.build(batch.to_pylist())
                       for batch in previous.iter_batches(SLICE_ROWS, columns=stage.reads))
        made.update(write_parts(part_paths(stage, path), stage.outputs, map(stage.by_table, batches)))
    return made


@dataclass
class RunResult:
    """What a run made: the part keys of each table in input order, and what was reused."""

    keys: dict[str, list[str]]
    units: int = 0
    computed: Counter = field(default_factory=Counter)
    """Units whose part was made in this run, per table."""

    def summary(self, table: str) -> dict:
        made = self.computed[table]
        return {"units": self.units, "computed": made, "reused": self.units - made}


def run_units(units: Iterable[Unit], stages: Sequence[Stage], store: PartStore, engine,
              on_done: Callable[[dict], None] = lambda made: None) -> RunResult:
    """Make every missing part of ``units`` through ``stages`` on ``engine``.

    Units are planned as they stream in; a unit whose parts all exist costs nothing
    but its key, and its files' bytes are dropped at once. ``on_done`` gets the rows of
    each table made for a unit, and the rows of a first-stage part found already made,
    so a resumed run counts every game.
    """
    result = RunResult(keys={table: [] for stage in stages for table in stage.outputs})
    scheduled: set[str] = set()

    def works() -> Iterator[UnitWork]:
        for unit in units:
            result.units += 1
            steps = []
            key = unit.digest
            for stage in stages:
                key = derive_key(stage.salt, key)
                for table in stage.outputs:
                    result.keys[table].append(key)
                path = store.path(stage.table, key)
                make = path.name not in scheduled and not store.has_parts(stage, key)
                scheduled.add(path.name)
                steps.append((stage, str(path), make))
            todo = [number for number, (_, _, make) in enumerate(steps) if make]
            first, first_path, make_first = steps[0]
            if not make_first and Path(first_path).is_file():
                on_done({first.table: pq.read_metadata(first_path).num_rows})
            if todo:
                reads = steps[0][2]
                yield UnitWork(unit.items if reads else None, unit.size if reads else 0,
                               tuple(steps[: todo[-1] + 1]))

    for made in engine.map(run_unit, works(), weight=lambda work: work.size):
        result.computed.update(made.keys())
        on_done(made)
    return result


def table_digest(keys: Sequence[str], provenance: dict) -> str:
    """One name for a table assembled from these parts, in this order, with this provenance."""
    return hashlib.sha256(json.dumps([list(keys), provenance], sort_keys=True).encode()).hexdigest()


def iter_row_groups(store: PartStore, table: str, keys: Iterable[str],
                    rows_per_group: int = ROWS_PER_GROUP) -> Iterator[pa.Table]:
    """The parts' rows in order, regrouped into tables of about ``rows_per_group`` rows."""
    held: list[pa.Table] = []
    count = 0
    for key in keys:
        part = store.read(table, key)
        held.append(part)
        count += part.num_rows
        if count >= rows_per_group:
            yield pa.concat_tables(held)
            held, count = [], 0
    if held:
        yield pa.concat_tables(held)


def publish_table(store: PartStore, table: str, keys: Sequence[str], path: Path, schema: pa.Schema,
                  provenance: dict,
                  transform: Callable[[Iterator[pa.Table]], Iterator[pa.Table]] = lambda groups: groups) -> int:
    """Assemble ``path`` from the parts named by ``keys``, in order, atomically; rows written.

    Temporaries of an earlier writer of ``path`` that was killed are removed first (its
    own, by their names: never another file that looks like one).
    """
    for stale in path.parent.glob(f".{path.name}.*.tmp"):
        if is_own_temporary(stale.name, path.name):
            stale.unlink(missing_ok=True)
    with TableWriter(path, schema, provenance) as writer:
        for group in transform(iter_row_groups(store, table, keys)):
            writer.write_table(group)
    return writer.rows
