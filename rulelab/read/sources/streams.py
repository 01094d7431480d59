"""Streams that read safely: regular files only, capped reads, and hashing as bytes pass."""

from __future__ import annotations

import hashlib
import io
import os
import stat
import zlib

from rulelab.read.sources.items import FileFailure, Limits, MiB, RawFile, failure
from rulelab.read.sources.names import is_gzipped_game

CHUNK = MiB


class NotRegular(Exception):
    """The path opened is a FIFO, a device or a socket."""


def open_regular(path: str):
    """``path`` opened for binary reading, refused unless it is a regular file.

    Opened without blocking (a FIFO with no writer would wait forever) and checked on the
    descriptor, so a file swapped for a FIFO after an earlier ``stat`` is still refused.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegular(path)
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


class Hashing(io.RawIOBase):
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
        while self.read(CHUNK):
            pass
        return self.size, self.digest.hexdigest()


def read_capped(stream, cap: int) -> bytes | None:
    """All of ``stream``, read in chunks, or None as soon as it exceeds ``cap`` bytes."""
    chunks = []
    size = 0
    while chunk := stream.read(min(CHUNK, cap + 1 - size)):
        chunks.append(chunk)
        size += len(chunk)
        if size > cap:
            return None
    return b"".join(chunks)


class CappedReader(io.RawIOBase):
    """A read-only stream that counts what passes through and ends at a cap or at damage.

    Ending (rather than raising) lets tarfile finish every member that lies wholly
    below the cap or before the damage: a decompressor that raises mid-read would take
    the bytes tarfile had already gathered for its record with it. ``exceeded`` and
    ``error`` (one of ``ends_on``) tell the caller why the stream ended. ``stream`` is
    read with ``read1``, so a read returns what was decompressed before the damage.
    """

    def __init__(self, stream, cap: int, ends_on: tuple[type[BaseException], ...] = ()):
        self._stream = stream
        self._cap = cap
        self._ends_on = ends_on
        self.count = 0
        self.exceeded = False
        self.error = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        room = self._cap - self.count
        if self.error is not None:
            return 0
        try:
            data = self._stream.read1(min(len(buffer), room + 1))
        except self._ends_on as error:
            self.error = error
            return 0
        if len(data) > room:
            self.exceeded = True
            data = data[:room]
        self.count += len(data)
        buffer[: len(data)] = data
        return len(data)


class Ungzippable(Exception):
    """Gzip data that is damaged, or decompresses past its cap."""


def gunzip_capped(data: bytes, cap: int) -> bytes:
    """The decompressed bytes of gzip ``data``, all its members in turn (``cat a.gz b.gz``).

    Raises
    ------
    Ungzippable
        If the data is damaged or cut short, or decompresses past ``cap`` bytes (a gzip
        bomb is stopped at the cap, never decompressed whole).
    """
    out, size = [], 0
    while data:
        stream = zlib.decompressobj(wbits=31)
        try:
            chunk = stream.decompress(data, cap + 1 - size)
            while chunk:
                out.append(chunk)
                size += len(chunk)
                if size > cap:
                    raise Ungzippable(f"decompresses past the {cap:,}-byte limit")
                chunk = stream.decompress(stream.unconsumed_tail, cap + 1 - size)
        except zlib.error as error:
            raise Ungzippable(f"damaged gzip data: {error}") from None
        if not stream.eof:
            raise Ungzippable("the gzip data is cut short")
        data = stream.unused_data.lstrip(b"\0")  # padding after the last member
    return b"".join(out)


def ungzipped(item: RawFile | FileFailure, limits: Limits) -> RawFile | FileFailure:
    """A gzipped game file (``game.sgf.gz``, a file or a member) as the game file it holds,
    decompressed up to ``limits.max_file_bytes``; any other item as it is."""
    if not isinstance(item, RawFile) or not is_gzipped_game(item.member if item.member is not None else item.path):
        return item
    try:
        return RawFile(item.path, item.member, gunzip_capped(item.data, limits.max_file_bytes))
    except Ungzippable as error:
        return failure(item.path, item.member, str(error))
