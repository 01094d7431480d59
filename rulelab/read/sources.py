"""Bytes and provenance of game records, from files, folders and archives.

Nothing is ever unpacked to disk: archives are read as streams, member by member, and
every read is capped (:class:`Limits`) so that a hostile or broken collection costs a
:class:`FileFailure`, never the run.

Decisions, so that a run over any collection is deterministic and safe:

- Folders are walked in sorted name order; symlinks found in them are reported, not
  followed. A path named on the command line is read whatever its name (and followed
  if it is a symlink); inside folders and archives only ``.sgf`` and ``.mgt`` files
  (any case) are game files, and archives found in folders are opened.
- Archive members with absolute paths or ``..`` components, links and device
  entries are reported without reading their content.
- Archives inside archives and compressed single files (``.sgf.gz``) are not opened:
  each is one ``"skipped"`` row and is counted in :attr:`ReadStats.skipped`. Opening
  them would let one compressed member expand past every cap, and collections that
  ship one (GNU Go's ``seki_exotics.tgz``) also ship its contents beside it.
- Only regular files are opened, and a file is checked to be one on the open
  descriptor, so a FIFO or a device (named on the command line, or swapped in for a
  file mid-run) is a row, never a read that blocks or never ends.
- Each input is hashed once, from the bytes read (:attr:`ReadStats.inputs`), so the
  manifest describes exactly what was parsed, and a path that vanishes or fails
  costs its own row, never the run. No exception raised while reading one input
  leaves :func:`iter_files`: it becomes that input's row.
- A zip whose end record claims more entries or directory bytes than the caps is one
  row, refused before ``zipfile`` loads its directory (which it holds whole).
- Tar archives are decompressed by format (gzip, xz, bzip2 or none, told by their
  first bytes, not their name); a stream that stops early is reported with the
  number of members read before the damage, and those members are kept.
"""

from __future__ import annotations

import bz2
import gzip
import hashlib
import io
import lzma
import os
import re
import stat
import tarfile
import zipfile
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property

from rulelab.errors import InputError, RulelabError, SkippedInput, raise_if_interrupted
from rulelab.read.zip_directory import Directory, claimed_directory

MiB = 1 << 20
GiB = 1 << 30

GAME_SUFFIXES = (".sgf", ".mgt")
TAR_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.xz", ".tar.bz2")
ZIP_SUFFIXES = (".zip",)
COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz", ".z", ".zst", ".7z", ".rar")
"""Compressed single files (``game.sgf.gz``): skipped with a row, never decompressed."""
_CHUNK = MiB
_UNSAFE_START = re.compile(r"^(?:[/\\]|[A-Za-z]:)")
_DECOMPRESSORS = ((b"\x1f\x8b", gzip.open), (b"\xfd7zXZ\x00", lzma.open), (b"BZh", bz2.open))
_STREAM_ERRORS = (tarfile.TarError, OSError, EOFError, lzma.LZMAError, zlib.error)


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
    "compressed file" (the last two also have a row each)."""
    bytes_read: int = 0
    """Bytes of input files read so far, as stored (an archive counts as far as its
    reader has come), to set against :func:`input_size`."""
    inputs: list = field(default_factory=list)
    """Per path given, what was read: ``path``, ``kind`` (file, archive, folder, or
    unread), ``size`` and ``sha256`` of the bytes read (for a folder, of the relative
    paths and digests of the files read in it)."""


def iter_files(
    paths: Iterable[str | os.PathLike],
    limits: Limits = Limits(),
    stats: ReadStats | None = None,
) -> Iterator[RawFile | FileFailure]:
    """Every game file under ``paths``, in a deterministic order, with its provenance.

    Parameters
    ----------
    paths : iterable of str or os.PathLike
        Files, folders (walked recursively) and ``.zip`` / ``.tar[.gz|.xz|.bz2]`` /
        ``.tgz`` archives.
    limits : Limits
        Caps on decompressed sizes and member counts.
    stats : ReadStats, optional
        Updated in place with counts of what was read, failed and skipped.

    Yields
    ------
    RawFile or FileFailure
        One item per game file or member; a failure for anything unsafe or unreadable
        (missing paths, links, oversized or damaged files and archives).

    Examples
    --------
    >>> import pathlib, shutil, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "b.sgf").write_bytes(b"(;B[aa])")
    >>> _ = (folder / "a.SGF").write_bytes(b"(;W[bb])")
    >>> _ = (folder / "notes.txt").write_bytes(b"not a game")
    >>> stats = ReadStats()
    >>> [(pathlib.Path(item.path).name, item.data) for item in iter_files([folder], stats=stats)]
    [('a.SGF', b'(;W[bb])'), ('b.sgf', b'(;B[aa])')]
    >>> stats.skipped
    Counter({'not a game file': 1})
    >>> shutil.rmtree(folder)
    """
    stats = stats if stats is not None else ReadStats()
    for given in _checked_paths(paths):
        described = {"path": given, "kind": "unread", "size": None, "sha256": None}
        try:
            for item in _read_input(given, limits, stats, described):
                _count(item, stats)
                yield item
        except Exception as error:  # a library's surprise costs this input, not the run
            raise_if_interrupted(error)
            item = _failure(given, None, f"reading stopped by an unexpected error: {error!r}")
            _count(item, stats)
            yield item
        stats.inputs.append(described)


def describe_inputs(paths: Iterable[str | os.PathLike], limits: Limits = Limits()) -> list[dict]:
    """What :attr:`ReadStats.inputs` would say of ``paths`` now, without parsing anything.

    For the cheap "is the run in this folder still current?" checks: archives are hashed,
    not opened; inputs that cannot be read are described as unread, never raised.

    Examples
    --------
    >>> import pathlib, shutil, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "game.sgf").write_bytes(b"(;)")
    >>> stats = ReadStats()
    >>> _ = list(iter_files([folder, folder / "game.sgf"], stats=stats))
    >>> describe_inputs([folder, folder / "game.sgf"]) == stats.inputs
    True
    >>> shutil.rmtree(folder)
    """
    described = []
    for path in _checked_paths(paths):
        entry = {"path": path, "kind": "unread", "size": None, "sha256": None}
        if os.path.isdir(path):
            size, digest = 0, hashlib.sha256()
            for file, kind in _walk_folder(path):
                seen = _hash_input(file, limits, explicit=False) if kind == "file" else None
                if seen is not None:
                    size += seen[0]
                    _hash_folder_entry(digest, path, file, seen[1])
            entry.update(kind="folder", size=size, sha256=digest.hexdigest())
        elif (seen := _hash_input(path, limits, explicit=True)) is not None:
            entry.update(kind="archive" if _archive_kind(path) else "file", size=seen[0], sha256=seen[1])
        described.append(entry)
    return described


def input_size(paths: Iterable[str | os.PathLike]) -> int:
    """Bytes of the files :func:`iter_files` will read, as stored: the total of a run's
    progress, known from a listing before any file is opened."""
    total = 0
    for path in _checked_paths(paths):
        if os.path.isdir(path):
            files = [found for found, kind in _walk_folder(path)
                     if kind == "file" and (_archive_kind(found) or _is_game_name(found))]
        else:
            files = [path]
        for found in files:
            try:
                total += os.stat(found).st_size
            except OSError:
                pass  # reported as a failure when read
    return total


def _hash_folder_entry(digest, folder: str, path: str, file_digest: str) -> None:
    """A folder's hash covers the relative path and the digest of each file read in it."""
    digest.update(f"{os.path.relpath(path, folder)}\0{file_digest}\n".encode("utf-8", "surrogateescape"))


def _hash_input(path: str, limits: Limits, explicit: bool) -> tuple[int, str] | None:
    """Size and hash of a file :func:`iter_files` would read whole, or None if it would not."""
    kind = _archive_kind(path)
    if _is_compressed(path) and not kind or not (kind or explicit or _is_game_name(path)):
        return None
    try:
        with _open_regular(path) as stream:
            if not kind and os.fstat(stream.fileno()).st_size > limits.max_file_bytes:
                return None
            return _Hashing(stream).seen()
    except (OSError, _NotRegular):
        return None


def _count(item: RawFile | FileFailure, stats: ReadStats) -> None:
    if isinstance(item, RawFile):
        stats.game_files += 1
    elif not isinstance(item.error, SkippedInput):
        stats.failures += 1


def _checked_paths(paths: Iterable[str | os.PathLike]) -> list[str]:
    if isinstance(paths, (str, bytes, os.PathLike)):
        raise InputError(f"expected a list of paths, got the single path {paths!r}")
    try:
        return [os.fsdecode(path) for path in paths]
    except TypeError as error:
        raise InputError(f"expected a list of str or os.PathLike paths: {error}") from None


def _failure(path: str, member: str | None, message: str, error=InputError) -> FileFailure:
    where = f"{path}!{member}" if member is not None else path
    return FileFailure(path, member, error(f"{where}: {message}"))


def _skipped(path: str, member: str | None, reason: str, stats: ReadStats) -> FileFailure:
    stats.skipped[reason] += 1
    return _failure(path, member, f"{reason}; not opened (unpack it to read its games)", SkippedInput)


def _too_big(path: str, member: str | None, size: int, limit: int) -> FileFailure:
    what = "member" if member is not None else "file"
    return _failure(path, member, f"{what} of {size:,} bytes is over the {limit:,}-byte limit")


def _too_many_members(path: str, limits: Limits) -> FileFailure:
    return _failure(path, None, f"more than {limits.max_members:,} members; the rest is not read")


def _over_archive_limit(path: str, member: str | None, limits: Limits, done: int) -> FileFailure:
    return _failure(
        path, member,
        f"archive decompresses past the {limits.max_archive_bytes:,}-byte limit after {done:,} members;"
        " the rest is not read",
    )


def _is_game_name(name: str) -> bool:
    return name.lower().endswith(GAME_SUFFIXES)


def _archive_kind(name: str) -> str | None:
    lowered = name.lower()
    if lowered.endswith(ZIP_SUFFIXES):
        return "zip"
    if lowered.endswith(TAR_SUFFIXES):
        return "tar"
    return None


def _is_compressed(name: str) -> bool:
    return name.lower().endswith(COMPRESSED_SUFFIXES)


class _NotRegular(Exception):
    """The path opened is a FIFO, a device or a socket."""


def _open_regular(path: str):
    """``path`` opened for binary reading, refused unless it is a regular file.

    Opened without blocking (a FIFO with no writer would wait forever) and checked on the
    descriptor, so a file swapped for a FIFO after an earlier ``stat`` is still refused.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _NotRegular(path)
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


class _Hashing(io.RawIOBase):
    """A read-only stream that hashes every byte read through it, in order."""

    def __init__(self, stream):
        self._stream = stream
        self.digest = hashlib.sha256()
        self.size = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self._stream.read(len(buffer))
        self.digest.update(data)
        self.size += len(data)
        buffer[: len(data)] = data
        return len(data)

    def seen(self) -> tuple[int, str]:
        """Size and SHA-256 of the whole stream: what was not read yet is read now."""
        while self.read(_CHUNK):
            pass
        return self.size, self.digest.hexdigest()


def _read_input(path: str, limits: Limits, stats: ReadStats,
                described: dict) -> Iterator[RawFile | FileFailure]:
    """One input named by the caller: a folder, an archive, or a file of any name.

    ``described`` is filled in with the kind, size and hash of what was read.
    """
    try:
        mode = os.stat(path).st_mode
    except OSError as error:
        yield _failure(path, None, f"cannot read input: {error.strerror or error}")
        return
    if stat.S_ISDIR(mode):
        size, digest = yield from _read_folder(path, limits, stats)
        described.update(kind="folder", size=size, sha256=digest)
        return
    seen = yield from _read_file(path, limits, stats, explicit=True)
    if seen is not None:
        described.update(kind="archive" if _archive_kind(path) else "file", size=seen[0], sha256=seen[1])


def _read_folder(folder: str, limits: Limits, stats: ReadStats):
    """The folder's items; returns the total size and one hash of the files read in it."""
    size = 0
    digest = hashlib.sha256()
    for path, kind in _walk_folder(folder):
        if kind != "file":
            yield _failure(path, None, kind)
            continue
        seen = yield from _read_file(path, limits, stats, explicit=False)
        if seen is not None:
            size += seen[0]
            _hash_folder_entry(digest, folder, path, seen[1])
    return size, digest.hexdigest()


def _walk_folder(folder: str) -> Iterator[tuple[str, str]]:
    """``(path, "file")`` for regular files under ``folder`` in sorted order, or
    ``(path, problem)`` for symlinks, special files and unreadable folders.

    Uses an explicit stack, so folder depth is not limited by recursion.
    """
    pending = [(folder, True)]
    while pending:
        path, is_folder = pending.pop()
        if not is_folder:
            yield path, "file"
            continue
        try:
            with os.scandir(path) as scan:
                entries = sorted(scan, key=lambda entry: entry.name)
        except OSError as error:
            yield path, f"cannot read folder: {error.strerror or error}"
            continue
        children = []
        for entry in entries:
            if entry.is_symlink():
                yield entry.path, "symbolic link; not followed"
            elif entry.is_dir(follow_symlinks=False):
                children.append((entry.path, True))
            elif entry.is_file(follow_symlinks=False):
                children.append((entry.path, False))
            else:
                yield entry.path, "not a regular file"
        pending.extend(reversed(children))


def _read_file(path: str, limits: Limits, stats: ReadStats, explicit: bool):
    """The items of one file; returns its size and SHA-256 as read, or None if it was not read."""
    kind = _archive_kind(path)
    if not kind and _is_compressed(path):
        yield _skipped(path, None, "compressed file", stats)
        return None
    if not (kind or explicit or _is_game_name(path)):
        stats.skipped["not a game file"] += 1
        return None
    try:
        stream = _open_regular(path)
    except _NotRegular:
        yield _failure(path, None, "not a regular file; not read")
        return None
    except OSError as error:
        yield _failure(path, None, f"cannot read file: {error.strerror or error}")
        return None
    with stream:
        if kind == "zip":
            return (yield from _read_zip(path, stream, limits, stats))
        if kind == "tar":
            return (yield from _read_tar(path, stream, limits, stats))
        item = _read_plain_file(path, stream, limits)
    stats.bytes_read += len(item.data) if isinstance(item, RawFile) else 0
    yield item
    return (len(item.data), item.sha256) if isinstance(item, RawFile) else None


def _read_plain_file(path: str, stream, limits: Limits) -> RawFile | FileFailure:
    try:
        size = os.fstat(stream.fileno()).st_size
        if size > limits.max_file_bytes:
            return _too_big(path, None, size, limits.max_file_bytes)
        data = _read_capped(stream, limits.max_file_bytes)
    except OSError as error:
        return _failure(path, None, f"cannot read file: {error.strerror or error}")
    if data is None:
        return _failure(path, None, f"file grew past the {limits.max_file_bytes:,}-byte limit as it was read")
    return RawFile(path, None, data)


def _read_capped(stream, cap: int) -> bytes | None:
    """All of ``stream``, read in chunks, or None as soon as it exceeds ``cap`` bytes."""
    chunks = []
    size = 0
    while chunk := stream.read(min(_CHUNK, cap + 1 - size)):
        chunks.append(chunk)
        size += len(chunk)
        if size > cap:
            return None
    return b"".join(chunks)


def _member_problem(name: str) -> str | None:
    """Why a member name is unsafe to trust, if it is."""
    if _UNSAFE_START.match(name):
        return "absolute member path; not read"
    if ".." in re.split(r"[/\\]", name):
        return "member path with '..'; not read"
    return None


def _skip_reason(name: str) -> str | None:
    """Why a safe member is ignored, or None for a game file."""
    if _archive_kind(name):
        return "nested archive"
    if _is_compressed(name):
        return "compressed file"
    if not _is_game_name(name):
        return "not a game file"
    return None


def _skip(path: str, member: str, reason: str, stats: ReadStats) -> FileFailure | None:
    """The row of a member skipped for ``reason`` (only archives and compressed files get one)."""
    if reason == "not a game file":
        stats.skipped[reason] += 1
        return None
    return _skipped(path, member, reason, stats)


class _CappedReader(io.RawIOBase):
    """A read-only stream that counts what passes through and ends at a cap.

    Ending (rather than raising) lets tarfile finish every member that lies wholly
    below the cap; ``exceeded`` tells the caller why the stream ended.
    """

    def __init__(self, stream, cap: int):
        self._stream = stream
        self._cap = cap
        self.count = 0
        self.exceeded = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        room = self._cap - self.count
        data = self._stream.read(min(len(buffer), room + 1))
        if len(data) > room:
            self.exceeded = True
            data = data[:room]
        self.count += len(data)
        buffer[: len(data)] = data
        return len(data)


def _decompressed(raw: io.BufferedReader):
    """``raw`` wrapped in the decompressor its first bytes call for (peeked, not consumed)."""
    magic = raw.peek(6)[:6]
    for signature, opener in _DECOMPRESSORS:
        if magic.startswith(signature):
            return opener(raw, "rb")
    return raw


class _HeaderTooLarge(Exception):
    """A tar header record (pax, GNU long name) longer than ``Limits.max_header_bytes``."""


_HEADER_TYPES = frozenset((tarfile.XHDTYPE, tarfile.XGLTYPE, tarfile.SOLARIS_XHDTYPE,
                           tarfile.GNUTYPE_LONGNAME, tarfile.GNUTYPE_LONGLINK))


def _capped_tarinfo(limit: int) -> type[tarfile.TarInfo]:
    """A TarInfo that refuses a header record over ``limit`` bytes before tarfile reads it."""

    class CappedTarInfo(tarfile.TarInfo):
        @classmethod
        def frombuf(cls, buf, encoding, errors):
            info = super().frombuf(buf, encoding, errors)
            if info.type in _HEADER_TYPES and info.size > limit:
                raise _HeaderTooLarge(f"a header record of {info.size:,} bytes is over the "
                                      f"{limit:,}-byte limit")
            return info

    return CappedTarInfo


def _read_tar(path: str, stream, limits: Limits, stats: ReadStats):
    """Tar members in stream order; returns the archive's size and hash."""
    done = 0
    before = stats.bytes_read
    current = None
    reader = None
    error = None
    raw = _Hashing(stream)
    try:
        reader = _CappedReader(_decompressed(io.BufferedReader(raw, _CHUNK)), limits.max_archive_bytes)
        with tarfile.open(fileobj=reader, mode="r|", tarinfo=_capped_tarinfo(limits.max_header_bytes)) as tar:
            while (info := tar.next()) is not None:
                tar.members.clear()  # stream mode would keep every header in memory
                if done == limits.max_members:
                    yield _too_many_members(path, limits)
                    return raw.seen()
                current = info.name
                item = _tar_member(path, tar, info, limits, stats)
                stats.bytes_read = before + raw.size
                if item is not None:
                    yield item
                current = None
                done += 1
    except _HeaderTooLarge as caught:
        yield _failure(path, current, f"{caught} after {done:,} members; the rest is not read")
        return raw.seen()
    except _STREAM_ERRORS as caught:
        error = caught
    if reader is None:
        yield _failure(path, None, f"cannot read archive: {getattr(error, 'strerror', None) or error}")
    elif reader.exceeded:
        yield _over_archive_limit(path, current, limits, done)
    elif error is not None:
        reason = str(error) or type(error).__name__
        yield _failure(
            path, current, f"archive damaged after {done:,} members ({reader.count:,} bytes decompressed): {reason}"
        )
    return raw.seen()


def _tar_member(path: str, tar: tarfile.TarFile, info: tarfile.TarInfo, limits: Limits, stats: ReadStats):
    """The RawFile or FileFailure for one tar entry, or None if it is ignored."""
    if info.isdir():
        return None
    problem = _member_problem(info.name)
    if problem:
        return _failure(path, info.name, problem)
    if info.issym() or info.islnk():
        return _failure(path, info.name, f"link to {info.linkname!r} in archive; not followed")
    if not info.isreg():
        return _failure(path, info.name, "not a regular file; not read")
    reason = _skip_reason(info.name)
    if reason:
        return _skip(path, info.name, reason, stats)
    if info.size > limits.max_file_bytes:
        return _too_big(path, info.name, info.size, limits.max_file_bytes)
    data = tar.extractfile(info).read()
    if len(data) != info.size:
        return _failure(path, info.name, f"member truncated: {len(data):,} of {info.size:,} bytes")
    return RawFile(path, info.name, data)


def _read_zip(path: str, stream, limits: Limits, stats: ReadStats):
    """Zip members in archive order; the archive cap counts their declared sizes.

    A zip is read from its end, so it is hashed in one pass first, from the same open
    file; an archive whose end record claims a directory past the caps is refused before
    zipfile loads that directory. Returns the archive's size and hash.
    """
    seen = _Hashing(stream).seen()
    problem = _directory_problem(claimed_directory(stream), limits)
    if problem:
        yield _failure(path, None, problem)
        return seen
    stream.seek(0)
    try:
        archive = zipfile.ZipFile(stream)
    except Exception as error:  # damaged directories raise far more than BadZipFile
        raise_if_interrupted(error)
        yield _failure(path, None, f"archive damaged, no member read: {error}")
        return seen
    spent = 0
    with archive:
        for done, info in enumerate(archive.infolist()):
            stats.bytes_read += info.compress_size
            if done == limits.max_members:
                yield _too_many_members(path, limits)
                return seen
            name = info.filename
            if name.endswith("/"):
                continue
            problem = _member_problem(name) or _zip_link_or_lock(info)
            if problem:
                yield _failure(path, name, problem)
                continue
            reason = _skip_reason(name)
            if reason:
                item = _skip(path, name, reason, stats)
                if item is not None:
                    yield item
                continue
            if info.file_size > limits.max_file_bytes:
                yield _too_big(path, name, info.file_size, limits.max_file_bytes)
                continue
            spent += info.file_size
            if spent > limits.max_archive_bytes:
                yield _over_archive_limit(path, name, limits, done)
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
            data = _read_capped(stream, info.file_size)
    except Exception as error:  # a mutated header can raise almost anything
        raise_if_interrupted(error)
        return _failure(path, info.filename, f"damaged member: {error}")
    if data is None or len(data) != info.file_size:
        return _failure(path, info.filename, f"damaged member: not the declared {info.file_size:,} bytes")
    return RawFile(path, info.filename, data)
