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
from pathlib import Path

from rulelab.errors import InputError
from rulelab.store.layout import MANIFEST_FILE

CHECKSUMS = "checksums"
"""The manifest's key for the SHA-256 of each published table, by file name."""


def read_manifest(folder: str | os.PathLike) -> dict | None:
    """The manifest of ``folder``; None when it is missing or damaged (not a JSON object)."""
    try:
        manifest = json.loads((Path(folder) / MANIFEST_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return manifest if isinstance(manifest, dict) else None


def manifest_damaged(folder: str | os.PathLike) -> bool:
    """Whether ``folder`` holds a manifest file that cannot be read as one."""
    return (Path(folder) / MANIFEST_FILE).exists() and read_manifest(folder) is None


def file_sha256(path: str | os.PathLike) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
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
            same = file_sha256(Path(folder) / str(name)) == digest
        except OSError:
            same = False
        if not same:
            damaged.append(name)
    return damaged


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
