"""A run folder's manifest read safely, and its published tables checked against the
SHA-256 the manifest keeps for each.

A manifest left empty or torn (a full disk, a copy cut short) reads as none, and a
table whose bytes no longer match the manifest (a flipped bit, a file truncated to
zero) reads as damaged: the next run rebuilds both from the parts instead of stopping
on them, and SQL refuses to serve a damaged table.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

from rulelab.errors import InputError
from rulelab.store.layout import LOCK_FILE, MANIFEST_FILE

CHECKSUMS = "checksums"
"""The manifest's key for the SHA-256 of each published table, by file name."""
MAX_MANIFEST_BYTES = 64 << 20
"""A manifest larger than this is not one rulelab wrote (a link to ``/dev/zero``, a huge file)."""


def open_run_file(path: str | os.PathLike):
    """A file of a run folder opened for binary reading: a regular file, its name not a
    link (a FIFO would block, ``/dev/zero`` never end, a link lead anywhere).

    Raises
    ------
    OSError
        If it is missing or unreadable, a link (``ELOOP``), or not a regular file.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a regular file")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_manifest(folder: str | os.PathLike) -> dict | None:
    """The manifest of ``folder``; None when it is missing, damaged or not rulelab's (not a
    JSON object naming the rulelab version that wrote it, not a regular file, or too large)."""
    try:
        with open_run_file(Path(folder) / MANIFEST_FILE) as stream:
            manifest = json.loads(stream.read(MAX_MANIFEST_BYTES + 1).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    return manifest if _well_formed(manifest) else None


_SHAPE = {"rulelab_version": str, "command": str, "options": dict, "inputs": list, "counts": dict,
          "tables": dict, "parts": dict, CHECKSUMS: dict, "score": dict}
"""The type of each entry a manifest may hold, as rulelab writes it."""


def _well_formed(manifest) -> bool:
    """Whether ``manifest`` has the shape rulelab writes: a JSON object naming the rulelab
    version, each entry of its type, each input an object (a manifest edited into other
    shapes is damaged, and rebuilt, rather than tripping its readers)."""
    return (isinstance(manifest, dict) and "rulelab_version" in manifest
            and all(isinstance(manifest[key], kind) for key, kind in _SHAPE.items() if key in manifest)
            and all(isinstance(entry, dict) for entry in manifest.get("inputs", [])))


def is_run_folder(folder: str | os.PathLike) -> bool:
    """Whether rulelab has run in ``folder``: it holds rulelab's lock file, or a manifest
    rulelab wrote. A file that is merely named ``manifest.json`` does not make one."""
    return os.path.lexists(Path(folder) / LOCK_FILE) or read_manifest(folder) is not None


def manifest_damaged(folder: str | os.PathLike) -> bool:
    """Whether ``folder``, a run folder, holds a manifest file that cannot be read as one."""
    return (os.path.lexists(Path(folder) / MANIFEST_FILE) and read_manifest(folder) is None
            and is_run_folder(folder))


def file_sha256(path: str | os.PathLike) -> str:
    """The SHA-256 of a run folder's file (see :func:`open_run_file`)."""
    digest = hashlib.sha256()
    with open_run_file(path) as stream:
        while chunk := stream.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def checksums(folder: str | os.PathLike, files) -> dict[str, str]:
    """The SHA-256 of each of ``files`` in ``folder``, for the manifest."""
    return {name: file_sha256(Path(folder) / name) for name in files}


def damaged_tables(folder: str | os.PathLike, manifest: dict | None) -> list[str]:
    """The tables ``manifest`` lists with a checksum whose file is missing or no longer
    matches it."""
    recorded = (manifest or {}).get(CHECKSUMS)
    if not isinstance(recorded, dict):
        return []
    damaged = []
    for name, digest in sorted(recorded.items()):
        try:
            same = _plain_name(name) and file_sha256(Path(folder) / name) == digest
        except OSError:
            same = False
        if not same:
            damaged.append(name)
    return damaged


def _plain_name(name) -> bool:
    """Whether a name the manifest gives is a file's name in the run folder (not a path)."""
    return isinstance(name, str) and name not in ("", ".", "..") and "/" not in name and "\0" not in name


def refuse_damaged_tables(folder: str | os.PathLike) -> None:
    """Refuse to read a run folder whose tables no longer match their checksums.

    Raises
    ------
    InputError
        Naming the first damaged table and how to rebuild it.
    """
    damaged = damaged_tables(folder, read_manifest(folder))
    if damaged:
        raise InputError(f"{Path(folder) / damaged[0]} does not match the checksum its manifest.json records "
                         "(it was damaged after it was written); run the command that made it again "
                         "to rebuild it from the parts.")
