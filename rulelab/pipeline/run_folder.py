"""Whether a folder can take a run's tables: never one inside an input folder, never one
whose finished results, or files rulelab did not write, a run would replace unless told
to, and a word on each damaged file the run rebuilds."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Iterable

import pyarrow as pa

from rulelab.errors import InputError, printable
from rulelab.store.layout import LOCK_FILE, MANIFEST_FILE
from rulelab.store.manifest import (MAX_MANIFEST_BYTES, damaged_tables, is_run_folder, manifest_damaged,
                                    open_run_file, read_manifest)
from rulelab.store.tables import read_provenance

OVERWRITE = "overwrite it with force=True"
"""How a refusal says the result may be replaced (the command line says ``--force``)."""


def named_folder(out: str | os.PathLike) -> Path:
    """``out`` as a path, refused when empty: ``Path("")`` is the current folder, never what
    an empty argument meant."""
    if not os.fspath(out).strip():
        raise InputError("the run folder must be named; got an empty path")
    return Path(out)


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
    existing = [name for name in files if os.path.lexists(out / name) and _is_finished(out, name)]
    if existing and not force:
        mine = is_run_folder(out) and (existing[0] != MANIFEST_FILE or read_manifest(out) is not None)
        raise InputError(f"{out / existing[0]} exists{'' if mine else ' (rulelab did not write it)'}; {OVERWRITE}")
    _say_what_is_rebuilt(out)


def _resolved(path: str | Path) -> Path | None:
    """``path`` with its links resolved, or None for a loop of symbolic links."""
    try:
        return Path(path).resolve()
    except RuntimeError:
        return None


def _is_finished(out: Path, name: str) -> bool:
    """Whether ``out/name`` is a finished result: the manifest, a table it lists, or a file
    rulelab did not write (a ``manifest.json`` outside a run folder is the user's)."""
    manifest = read_manifest(out)
    if name == MANIFEST_FILE:
        return not manifest_damaged(out)
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
        print(printable(f"rulelab: {out / name} is damaged (empty, torn, or not as the manifest recorded it); "
                        "it is rebuilt from the parts"), file=sys.stderr, flush=True)


def check_own_outputs(out: Path, names: Iterable[str], command: str, force: bool) -> None:
    """Refuse, unless ``force``, to replace a file of ``names`` in ``out`` that ``command``
    did not write (a file of the user's, a link): its outputs say which command wrote them.
    """
    for name in names:
        path = out / name
        if os.path.lexists(path) and not force and _written_by(path) != command:
            raise InputError(f"{path} exists (rulelab {command} did not write it); {OVERWRITE}")


def _written_by(path: Path) -> str | None:
    """The command a Parquet or JSON output names as its maker, or None (not rulelab's)."""
    try:
        with open_run_file(path) as stream:
            if path.suffix == ".parquet":
                return read_provenance(stream).get("command")
            return json.loads(stream.read(MAX_MANIFEST_BYTES + 1)).get("command")
    except (OSError, ValueError, AttributeError, RecursionError, pa.ArrowException):
        return None


@contextlib.contextmanager
def made_for_the_run(out: Path):
    """Create the run folder ``out`` (and its missing parents) for a run; if the run stops
    before writing anything but its lock, remove what it created: a refused start leaves
    no folder behind. A folder that holds anything else (the parts of an interrupted run)
    is kept."""
    created = [folder for folder in (out, *out.parents) if not os.path.lexists(folder)]
    out.mkdir(parents=True, exist_ok=True)
    try:
        yield
    except BaseException:
        if created and os.listdir(out) in ([], [LOCK_FILE]):
            (out / LOCK_FILE).unlink(missing_ok=True)
            for folder in created:
                with contextlib.suppress(OSError):
                    folder.rmdir()
        raise
