"""Zip archives, read member by member from their central directory (or, when it is
damaged, from their local headers)."""

from __future__ import annotations

import stat
import zipfile
from functools import partial
from typing import Iterator

from rulelab.errors import raise_if_interrupted
from rulelab.read.sources.items import (FileFailure, Limits, RawFile, ReadStats, failure, over_archive_limit, skip,
                                        too_big, too_many_members)
from rulelab.read.sources.names import member_problem, skip_reason
from rulelab.read.sources.streams import Hashing, read_capped, ungzipped
from rulelab.read.sources.zip_directory import Directory, claimed_directory
from rulelab.read.sources.zip_local import local_entries


def read_zip(path: str, stream, limits: Limits, stats: ReadStats):
    """Zip members in archive order; the archive cap counts their declared sizes.

    A zip is read from its end, so it is hashed in one pass first, from the same open
    file; an archive whose end record claims a directory past the caps is refused before
    zipfile loads that directory, and one whose directory zipfile cannot load is one row,
    its members then read from their local headers. Returns the archive's size and hash.
    """
    seen = Hashing(stream).seen()
    problem = _directory_problem(claimed_directory(stream), limits)
    if problem:
        yield failure(path, None, problem)
        return seen
    stream.seek(0)
    try:
        archive = zipfile.ZipFile(stream)
    except Exception as error:  # damaged directories raise far more than BadZipFile
        raise_if_interrupted(error)
        yield failure(path, None, f"archive damaged, its central directory unreadable ({error}); "
                                  "members are read from their local headers")
        yield from _members(path, local_entries(path, stream, stats), limits, stats)
        return seen
    with archive:
        yield from _members(path, _directory_entries(path, archive, stats), limits, stats)
    return seen


def _members(path: str, entries: Iterator[tuple], limits: Limits, stats: ReadStats):
    """The items of zip entries given as ``(name, size, problem, read)``, in order: rows
    for unsafe, skipped and oversized members, ``read()`` for the game files."""
    spent = 0
    for done, (name, size, problem, read) in enumerate(entries):
        if done == limits.max_members:
            yield too_many_members(path, limits)
            return
        if name.endswith("/"):
            continue
        problem = member_problem(name) or problem
        if problem:
            yield failure(path, name, problem)
            continue
        reason = skip_reason(name)
        if reason:
            item = skip(path, name, reason, stats)
            if item is not None:
                yield item
            continue
        if size > limits.max_file_bytes:
            yield too_big(path, name, size, limits.max_file_bytes)
            continue
        spent += size
        if spent > limits.max_archive_bytes:
            yield over_archive_limit(path, name, limits, done)
            return
        yield ungzipped(read(), limits)


def _directory_entries(path: str, archive: zipfile.ZipFile, stats: ReadStats) -> Iterator[tuple]:
    """Entries by their names as stored: ``filename`` is cut at a NUL (``a\0b.sgf`` would be
    ``a``, no game file, so never read), ``orig_filename`` is whole."""
    for info in archive.infolist():
        stats.bytes_read += info.compress_size
        yield info.orig_filename, info.file_size, _zip_link_or_lock(info), partial(_read_zip_member, path, archive, info)


def _directory_problem(directory: Directory | None, limits: Limits) -> str | None:
    if directory is None:  # zipfile says what is wrong
        return None
    if directory.entries > limits.max_members:
        return (f"central directory lists {directory.entries:,} entries, more than "
                f"{limits.max_members:,}; no member read")
    if directory.size > limits.max_directory_bytes:
        return (f"central directory of {directory.size:,} bytes, more than "
                f"{limits.max_directory_bytes:,}; no member read")
    return None


def _zip_link_or_lock(info: zipfile.ZipInfo) -> str | None:
    if stat.S_ISLNK(info.external_attr >> 16):
        return "symbolic link in archive; not followed"
    if info.flag_bits & 0x1:
        return "encrypted member; not read"
    return None


def _read_zip_member(path: str, archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> RawFile | FileFailure:
    """One member, read no further than its declared size (zipfile stops there and checks the CRC)."""
    try:
        with archive.open(info) as stream:
            data = read_capped(stream, info.file_size)
    except Exception as error:  # a mutated header can raise almost anything
        raise_if_interrupted(error)
        return failure(path, info.orig_filename, f"damaged member: {error}")
    if data is None or len(data) != info.file_size:
        return failure(path, info.orig_filename, f"damaged member: not the declared {info.file_size:,} bytes")
    return RawFile(path, info.orig_filename, data)
