"""What a zip's end records say its central directory holds, read before ``zipfile`` loads it.

``zipfile.ZipFile`` reads the whole central directory and builds an object per entry
(about 9 bytes of memory per byte of directory) before the first member can be looked
at, so a member cap applied while iterating comes too late. The end records sit in the
last 64 KiB of the file: reading them first costs at most that, whatever the directory
claims.
"""

from __future__ import annotations

import io
import struct
from typing import NamedTuple

_END = struct.Struct("<4s4H2LH")  # signature, disks, entries here, entries, size, offset, comment length
_END_SIGNATURE = b"PK\x05\x06"
_MAX_COMMENT = 0xFFFF
_LOCATOR = struct.Struct("<4sLQL")  # signature, disk, offset of the zip64 record, disks
_LOCATOR_SIGNATURE = b"PK\x06\x07"
_END64 = struct.Struct("<4sQ2H2L4Q")  # signature, size, versions, disks, entries here, entries, size, offset
_END64_SIGNATURE = b"PK\x06\x06"


class Directory(NamedTuple):
    """What the end records claim (a damaged or hostile archive may lie; ``zipfile``
    still reads no more than ``size`` bytes of directory)."""

    entries: int
    size: int


def claimed_directory(stream) -> Directory | None:
    """The entry count and byte size of the central directory, or None without an end record.

    The records are found as ``zipfile`` finds them, so the figures are the ones it
    will use: the end record in the last 22 bytes when the archive has no comment,
    else the last one in the final 64 KiB; the zip64 record just before its locator,
    when the locator is there.

    Parameters
    ----------
    stream : binary file object
        Seekable; left at an unspecified position.
    """
    length = stream.seek(0, io.SEEK_END)
    start = max(0, length - _END.size - _MAX_COMMENT)
    stream.seek(start)
    tail = stream.read(length - start)
    at = len(tail) - _END.size
    if not (at >= 0 and tail[at:at + 4] == _END_SIGNATURE and tail[-2:] == b"\0\0"):
        at = tail.rfind(_END_SIGNATURE)
    if at < 0 or len(tail) - at < _END.size:
        return None
    fields = _END.unpack_from(tail, at)
    return _zip64_directory(stream, start + at) or Directory(entries=fields[4], size=fields[5])


def _zip64_directory(stream, end_at: int) -> Directory | None:
    locator_at = end_at - _LOCATOR.size
    record_at = locator_at - _END64.size
    if record_at < 0:
        return None
    stream.seek(record_at)
    data = stream.read(_END64.size + _LOCATOR.size)
    if len(data) != _END64.size + _LOCATOR.size or data[_END64.size:_END64.size + 4] != _LOCATOR_SIGNATURE:
        return None
    fields = _END64.unpack_from(data)
    if fields[0] != _END64_SIGNATURE:
        return None
    return Directory(entries=fields[7], size=fields[8])
