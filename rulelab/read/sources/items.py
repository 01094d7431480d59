"""What reading inputs yields and counts: a game file's bytes, or the row that says why
one was not read; the caps on what one input may cost; the counts for the manifest."""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property

from rulelab.errors import InputError, RulelabError, SkippedInput

MiB = 1 << 20
GiB = 1 << 30


@dataclass(frozen=True)
class Limits:
    """Caps on what one input may cost, against archive bombs and runaway files."""

    max_file_bytes: int = 64 * MiB
    """One SGF file or one archive member, decompressed."""
    max_archive_bytes: int = 4 * GiB
    """All of one archive, decompressed (tar: the whole stream, skipped members included)."""
    max_members: int = 2_000_000
    """Entries of one archive, folders and ignored files included."""
    max_header_bytes: int = MiB
    """One tar header record (pax, GNU long name): tarfile holds it whole in memory."""
    max_directory_bytes: int = 32 * MiB
    """One zip central directory: zipfile holds it whole, at about 9 bytes per byte."""

    def __post_init__(self) -> None:
        for name in ("max_file_bytes", "max_archive_bytes", "max_members", "max_header_bytes",
                     "max_directory_bytes"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise InputError(f"Limits.{name} must be a positive int, got {value!r}")


@dataclass(frozen=True)
class RawFile:
    """The bytes of one game file and where they came from."""

    path: str
    """The input path as given (joined with the relative path for files in folders)."""
    member: str | None
    """The archive member name, or None for a plain file."""
    data: bytes

    @cached_property
    def sha256(self) -> str:
        """SHA-256 of ``data``: computed once, then shared by the unit key, the row and the manifest."""
        return hashlib.sha256(self.data).hexdigest()


@dataclass(frozen=True)
class FileFailure:
    """A file, member or archive that could not be read safely."""

    path: str
    member: str | None
    error: RulelabError


@dataclass
class ReadStats:
    """What :func:`iter_files` met, for the run manifest."""

    game_files: int = 0
    """Files and members returned as :class:`RawFile`."""
    failures: int = 0
    """:class:`FileFailure` items returned (skipped inputs excluded)."""
    skipped: Counter = field(default_factory=Counter)
    """Files and members ignored, by reason: "not a game file", "nested archive",
    "compressed file", "archive without game files" (the last three also have a row each)."""
    bytes_read: int = 0
    """Bytes of input files read so far, as stored (an archive counts as far as its
    reader has come), to set against :func:`input_size`."""
    inputs: list = field(default_factory=list)
    """Per path given, what was read: ``path``, ``kind`` (file, archive, folder, or
    unread), ``size`` and ``sha256`` of the bytes read (for a folder, of the relative
    paths and digests of the files read in it)."""


def failure(path: str, member: str | None, message: str, error=InputError) -> FileFailure:
    where = f"{path}!{member}" if member is not None else path
    return FileFailure(path, member, error(f"{where}: {message}"))


def skipped(path: str, member: str | None, reason: str, stats: ReadStats) -> FileFailure:
    stats.skipped[reason] += 1
    return failure(path, member, f"{reason}; not opened (unpack it to read its games)", SkippedInput)


def too_big(path: str, member: str | None, size: int, limit: int) -> FileFailure:
    what = "member" if member is not None else "file"
    return failure(path, member, f"{what} of {size:,} bytes is over the {limit:,}-byte limit")


def too_many_members(path: str, limits: Limits) -> FileFailure:
    return failure(path, None, f"more than {limits.max_members:,} members; the rest is not read")


def over_archive_limit(path: str, member: str | None, limits: Limits, done: int) -> FileFailure:
    return failure(
        path, member,
        f"archive decompresses past the {limits.max_archive_bytes:,}-byte limit after {done:,} members;"
        " the rest is not read",
    )


def skip(path: str, member: str, reason: str, stats: ReadStats) -> FileFailure | None:
    """The row of a member skipped for ``reason`` (only archives and compressed files get one)."""
    if reason == "not a game file":
        stats.skipped[reason] += 1
        return None
    return skipped(path, member, reason, stats)
