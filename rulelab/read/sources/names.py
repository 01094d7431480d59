"""What a file or member is, told by its name: a game file, an archive, a compressed
single file, or a member path that cannot be trusted."""

from __future__ import annotations

import re

GAME_SUFFIXES = (".sgf", ".mgt")
TAR_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.xz", ".tar.bz2")
ZIP_SUFFIXES = (".zip",)
COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz", ".z", ".zst", ".7z", ".rar")
"""Compressed single files: skipped with a row, never decompressed, unless a gzipped game
file (:func:`is_gzipped_game`)."""
_UNSAFE_START = re.compile(r"^(?:[/\\]|[A-Za-z]:)")


def is_game_name(name: str) -> bool:
    return name.lower().endswith(GAME_SUFFIXES)


def archive_kind(name: str) -> str | None:
    lowered = name.lower()
    if lowered.endswith(ZIP_SUFFIXES):
        return "zip"
    if lowered.endswith(TAR_SUFFIXES):
        return "tar"
    return None


def is_compressed(name: str) -> bool:
    return name.lower().endswith(COMPRESSED_SUFFIXES) and not is_gzipped_game(name)


def is_gzipped_game(name: str) -> bool:
    """A game file compressed with gzip (``game.sgf.gz``), read as the game file it holds."""
    return name.lower().endswith(".gz") and is_game_name(name[:-3])


def member_problem(name: str) -> str | None:
    """Why a member name is unsafe to trust, if it is."""
    if _UNSAFE_START.match(name):
        return "absolute member path; not read"
    if ".." in re.split(r"[/\\]", name):
        return "member path with '..'; not read"
    return None


def skip_reason(name: str) -> str | None:
    """Why a safe member is ignored, or None for a game file."""
    if archive_kind(name):
        return "nested archive"
    if is_compressed(name):
        return "compressed file"
    if not (is_game_name(name) or is_gzipped_game(name)):
        return "not a game file"
    return None
