"""Tar archives, read as one stream member by member, decompressed by their first bytes.

Archives joined end to end (``cat a.tar.gz b.tar.gz``: one gzip stream of several
members, holding several tars) are read to the end, as ``tar --ignore-zeros`` reads them:
the zero blocks that end one tar are stepped over, up to ``MAX_ZERO_RUN`` bytes of them.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import tarfile
import zlib
from tarfile import BLOCKSIZE

from rulelab.read.sources.items import (Limits, RawFile, ReadStats, failure, over_archive_limit, skip, too_big,
                                        too_many_members)
from rulelab.read.sources.names import member_problem, skip_reason
from rulelab.read.sources.streams import CHUNK, CappedReader, Hashing, ungzipped

_DECOMPRESSORS = ((b"\x1f\x8b", gzip.open), (b"\xfd7zXZ\x00", lzma.open), (b"BZh", bz2.open))
_STREAM_ERRORS = (tarfile.TarError, OSError, EOFError, lzma.LZMAError, zlib.error)
STEP = 64 * 1024
"""Bytes of the stored archive read at a time: what the progress bar moves by. A
compressed archive holds thousands of games per MiB, so reading it by the MiB would
move the bar in a few long jumps."""


def _decompressed(raw: io.BufferedReader):
    """``raw`` wrapped in the decompressor its first bytes call for (peeked, not consumed)."""
    magic = raw.peek(6)[:6]
    for signature, opener in _DECOMPRESSORS:
        if magic.startswith(signature):
            return opener(raw, "rb")
    return raw


class _HeaderTooLarge(Exception):
    """A tar header record (pax, GNU long name) longer than ``Limits.max_header_bytes``."""


class _DamagedHeader(tarfile.TarError):
    """A header block that is neither a header nor zeros: the archive is damaged there."""


class _ArchiveEnd(Exception):
    """More than ``MAX_ZERO_RUN`` bytes of zero blocks: the archive ends (padding, not a gap)."""


MAX_ZERO_RUN = 1 << 20
"""Zero bytes stepped over between joined tars: a tar ends in at least two zero blocks,
padded to its record size (10 KiB by default, 1 MiB at GNU tar's largest blocking)."""
_ZERO_BLOCK = bytes(BLOCKSIZE)


_HEADER_TYPES = frozenset((tarfile.XHDTYPE, tarfile.XGLTYPE, tarfile.SOLARIS_XHDTYPE,
                           tarfile.GNUTYPE_LONGNAME, tarfile.GNUTYPE_LONGLINK))


def _capped_tarinfo(limit: int) -> type[tarfile.TarInfo]:
    """A TarInfo that bounds what tarfile holds of a header by ``limit`` bytes.

    A header record (pax, GNU long name) over the limit is refused before tarfile reads
    it. A block that is no header is damage (tarfile, told to step over zero blocks,
    would step over it too), and a long run of zero blocks is the end. Sparse members are never read, so their maps are not built: the old GNU
    format's extension blocks are counted against the limit and skipped, and the pax
    formats' maps (read whole by tarfile, at ~45 bytes of memory per byte) are left
    unread, the member marked sparse (``sparse == []``).
    """

    class CappedTarInfo(tarfile.TarInfo):
        zero_run = 0

        @classmethod
        def frombuf(cls, buf, encoding, errors):
            cls.zero_run = cls.zero_run + len(buf) if buf == _ZERO_BLOCK else 0
            if cls.zero_run > MAX_ZERO_RUN:
                raise _ArchiveEnd
            try:
                info = super().frombuf(buf, encoding, errors)
            except tarfile.InvalidHeaderError as error:
                raise _DamagedHeader(str(error)) from None
            if info.type in _HEADER_TYPES and info.size > limit:
                raise _HeaderTooLarge(f"a header record of {info.size:,} bytes is over the "
                                      f"{limit:,}-byte limit")
            return info

        def _proc_sparse(self, tarfile):
            _, extended, _ = self._sparse_structs
            del self._sparse_structs
            spent = 0
            while extended:
                block = tarfile.fileobj.read(BLOCKSIZE)
                spent += len(block)
                if len(block) < BLOCKSIZE:
                    raise EOFError("the archive ends inside a sparse member's header")
                if spent > limit:
                    raise _HeaderTooLarge(f"sparse extension headers of more than {limit:,} bytes")
                extended = block[504]
            self.sparse = []
            self.offset_data = tarfile.fileobj.tell()
            tarfile.offset = self.offset_data + self._block(self.size)
            return self

        def _proc_unread_sparse(self, next, *_):
            next.sparse = []

        _proc_gnusparse_00 = _proc_gnusparse_01 = _proc_gnusparse_10 = _proc_unread_sparse

    return CappedTarInfo


def _skip_to_next_header(tar: tarfile.TarFile) -> bool:
    """Read up to the next header, False if the data ends first.

    tarfile's stream mode skips a member with a loop that never checks for the end of
    the data, so a 10 KB archive whose header claims 2**80 bytes would spin for ever.
    """
    stream = tar.fileobj
    while (left := tar.offset - 1 - stream.tell()) > 0:
        if not stream.read(min(CHUNK, left)):
            return False
    return True


def read_tar(path: str, stream, limits: Limits, stats: ReadStats):
    """Tar members in stream order; returns the archive's size and hash."""
    done = 0
    before = stats.bytes_read
    current = None
    reader = None
    error = None
    raw = Hashing(stream)
    try:
        reader = CappedReader(_decompressed(io.BufferedReader(raw, STEP)), limits.max_archive_bytes,
                              ends_on=_STREAM_ERRORS)
        with tarfile.open(fileobj=reader, mode="r|", tarinfo=_capped_tarinfo(limits.max_header_bytes),
                          ignore_zeros=True) as tar:
            while (info := tar.next()) is not None:
                tar.members.clear()  # stream mode would keep every header in memory
                if done == limits.max_members:
                    yield too_many_members(path, limits)
                    return raw.seen()
                current = info.name
                item = ungzipped(_tar_member(path, tar, info, limits, stats), limits)
                stats.bytes_read = before + raw.size
                if item is not None:
                    yield item
                done += 1
                if not _skip_to_next_header(tar):
                    error = EOFError(f"the data ends inside {current!r}, whose header claims {info.size:,} bytes")
                    current = None
                    break
                current = None
    except _HeaderTooLarge as caught:
        yield failure(path, current, f"{caught} after {done:,} members; the rest is not read")
        return raw.seen()
    except _ArchiveEnd:
        pass
    except _STREAM_ERRORS as caught:
        error = caught
    if reader is not None and reader.error is not None:
        error = reader.error  # the damage, rather than the end of data tarfile met after it
    if reader is None:
        yield failure(path, None, f"cannot read archive: {getattr(error, 'strerror', None) or error}")
    elif reader.exceeded:
        yield over_archive_limit(path, current, limits, done)
    elif error is not None:
        reason = str(error) or type(error).__name__
        yield failure(
            path, current, f"archive damaged after {done:,} members ({reader.count:,} bytes decompressed): {reason}"
        )
    return raw.seen()


def _tar_member(path: str, tar: tarfile.TarFile, info: tarfile.TarInfo, limits: Limits, stats: ReadStats):
    """The RawFile or FileFailure for one tar entry, or None if it is ignored."""
    if info.isdir():
        return None
    problem = member_problem(info.name)
    if problem:
        return failure(path, info.name, problem)
    if info.issym() or info.islnk():
        return failure(path, info.name, f"link to {info.linkname!r} in archive; not followed")
    if info.issparse():
        return failure(path, info.name, "sparse member; not read")
    if not info.isreg():
        return failure(path, info.name, "not a regular file; not read")
    reason = skip_reason(info.name)
    if reason:
        return skip(path, info.name, reason, stats)
    if info.size > limits.max_file_bytes:
        return too_big(path, info.name, info.size, limits.max_file_bytes)
    data = tar.extractfile(info).read()
    if len(data) != info.size:
        return failure(path, info.name, f"member truncated: {len(data):,} of {info.size:,} bytes")
    return RawFile(path, info.name, data)
