"""Every game file under the paths a caller names: files, folders and archives, in a
deterministic order, each input hashed as it is read."""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable, Iterator

from rulelab.errors import InputError, SkippedInput, raise_if_interrupted
from rulelab.read.sources.items import FileFailure, Limits, RawFile, ReadStats, failure, skipped, too_big
from rulelab.read.sources.names import archive_kind, is_compressed, is_game_name, is_gzipped_game
from rulelab.read.sources.streams import NotRegular, open_regular, read_capped, ungzipped
from rulelab.read.sources.tar_reader import read_tar
from rulelab.read.sources.zip_reader import read_zip


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
            item = failure(given, None, f"reading stopped by an unexpected error: {error!r}")
            _count(item, stats)
            yield item
        stats.inputs.append(described)


def check_inputs(paths: Iterable[str | os.PathLike]) -> list[str]:
    """``paths`` as strings, once each is known to exist and be readable.

    Checked before a run writes anything: a mistyped path would otherwise be a run of
    one failed row that replaces good results. A path that vanishes later is still a
    row (:func:`iter_files`).

    >>> check_inputs(["no/such/folder"])
    Traceback (most recent call last):
    ...
    rulelab.errors.InputError: no/such/folder: no such file or folder
    """
    checked = _checked_paths(paths)
    if not checked:
        raise InputError("no input named: give SGF/MGT files, folders or archives")
    for path in checked:
        if not os.path.lexists(path):
            raise InputError(f"{path}: no such file or folder")
        if os.path.islink(path) and not os.path.exists(path):
            continue  # a link that leads nowhere (a loop, a target gone) is its own failure row
        if not os.access(path, os.R_OK | (os.X_OK if os.path.isdir(path) else 0)):
            raise InputError(f"{path}: permission denied; cannot read it")
    return checked


def input_size(paths: Iterable[str | os.PathLike]) -> int:
    """Bytes of the files :func:`iter_files` will read, as stored: the total of a run's
    progress, known from a listing before any file is opened."""
    total = 0
    for path in _checked_paths(paths):
        if os.path.isdir(path):
            files = [found for found, kind in _walk_folder(path)
                     if kind == "file" and (archive_kind(found) or is_game_name(found) or is_gzipped_game(found))]
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


def _read_input(path: str, limits: Limits, stats: ReadStats,
                described: dict) -> Iterator[RawFile | FileFailure]:
    """One input named by the caller: a folder, an archive, or a file of any name.

    ``described`` is filled in with the kind, size and hash of what was read.
    """
    try:
        mode = os.stat(path).st_mode
    except OSError as error:
        yield failure(path, None, f"cannot read input: {error.strerror or error}")
        return
    if stat.S_ISDIR(mode):
        size, digest = yield from _read_folder(path, limits, stats)
        described.update(kind="folder", size=size, sha256=digest)
        return
    seen = yield from _read_file(path, limits, stats, explicit=True)
    if seen is not None:
        described.update(kind="archive" if archive_kind(path) else "file", size=seen[0], sha256=seen[1])


def _read_folder(folder: str, limits: Limits, stats: ReadStats):
    """The folder's items; returns the total size and one hash of the files read in it."""
    size = 0
    digest = hashlib.sha256()
    for path, kind in _walk_folder(folder):
        if kind != "file":
            yield failure(path, None, kind)
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
    kind = archive_kind(path)
    if not kind and is_compressed(path):
        yield skipped(path, None, "compressed file", stats)
        return None
    if not (kind or explicit or is_game_name(path) or is_gzipped_game(path)):
        stats.skipped["not a game file"] += 1
        return None
    try:
        stream = open_regular(path)
    except NotRegular:
        yield failure(path, None, "not a regular file; not read")
        return None
    except OSError as error:
        yield failure(path, None, f"cannot read file: {error.strerror or error}")
        return None
    with stream:
        if kind:
            return (yield from _read_archive(path, stream, kind, limits, stats))
        item = ungzipped(_read_plain_file(path, stream, limits), limits)
    stats.bytes_read += len(item.data) if isinstance(item, RawFile) else 0
    yield item
    return (len(item.data), item.sha256) if isinstance(item, RawFile) else None


NO_GAMES = "archive without game files"


def _read_archive(path: str, stream, kind: str, limits: Limits, stats: ReadStats):
    """The items of an archive, or one row saying it holds no game file: every archive
    is accounted for in the table. Returns its size and SHA-256."""
    reader = (read_zip if kind == "zip" else read_tar)(path, stream, limits, stats)
    yielded = False
    while True:
        try:
            item = next(reader)
        except StopIteration as end:
            seen = end.value
            break
        yielded = True
        yield item
    if not yielded:
        stats.skipped[NO_GAMES] += 1
        yield failure(path, None, "no game file in this archive (what it holds is counted by reason in "
                                  "the manifest's inputs_skipped)", SkippedInput)
    return seen


def _read_plain_file(path: str, stream, limits: Limits) -> RawFile | FileFailure:
    try:
        size = os.fstat(stream.fileno()).st_size
        if size > limits.max_file_bytes:
            return too_big(path, None, size, limits.max_file_bytes)
        data = read_capped(stream, limits.max_file_bytes)
    except OSError as error:
        return failure(path, None, f"cannot read file: {error.strerror or error}")
    if data is None:
        return failure(path, None, f"file grew past the {limits.max_file_bytes:,}-byte limit as it was read")
    return RawFile(path, None, data)
