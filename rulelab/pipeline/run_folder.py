"""Whether a folder can take a run's tables: never one inside an input folder, never one
whose finished results a run would replace unless told to, and a word on each damaged
file the run rebuilds."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Iterable

import pyarrow as pa

from rulelab.errors import InputError
from rulelab.store.layout import MANIFEST_FILE
from rulelab.store.manifest import damaged_tables, manifest_damaged, read_manifest
from rulelab.store.tables import read_provenance


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
