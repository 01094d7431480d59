"""Zip archives, read member by member from their central directory."""

from __future__ import annotations

import stat
import zipfile

from rulelab.errors import raise_if_interrupted
from rulelab.read.sources.items import (FileFailure, Limits, RawFile, ReadStats, failure, over_archive_limit, skip,
                                        too_big, too_many_members)
from rulelab.read.sources.names import member_problem, skip_reason
from rulelab.read.sources.streams import Hashing, read_capped
from rulelab.read.sources.zip_directory import Directory, claimed_directory


def read_zip(path: str, stream, limits: Limits, stats: ReadStats):
    """Zip members in archive order; the archive cap counts their declared sizes.

    A zip is read from its end, so it is hashed in one pass first, from the same open
    file; an archive whose end record claims a directory past the caps is refused before
    zipfile loads that directory. Returns the archive's size and hash.
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
        yield failure(path, None, f"archive damaged, no member read: {error}")
        return seen
    spent = 0
    with archive:
        for done, info in enumerate(archive.infolist()):
            stats.bytes_read += info.compress_size
            if done == limits.max_members:
                yield too_many_members(path, limits)
                return seen
            name = info.filename
            if name.endswith("/"):
                continue
            problem = member_problem(name) or _zip_link_or_lock(info)
            if problem:
                yield failure(path, name, problem)
                continue
            reason = skip_reason(name)
            if reason:
                item = skip(path, name, reason, stats)
                if item is not None:
                    yield item
                continue
            if info.file_size > limits.max_file_bytes:
                yield too_big(path, name, info.file_size, limits.max_file_bytes)
                continue
            spent += info.file_size
            if spent > limits.max_archive_bytes:
                yield over_archive_limit(path, name, limits, done)
                return seen
            yield _read_zip_member(path, archive, info)
    return seen


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
        return failure(path, info.filename, f"damaged member: {error}")
    if data is None or len(data) != info.file_size:
        return failure(path, info.filename, f"damaged member: not the declared {info.file_size:,} bytes")
    return RawFile(path, info.filename, data)
