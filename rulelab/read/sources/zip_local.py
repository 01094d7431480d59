"""Zip members found by their local headers, in file order, for a zip whose central
directory ``zipfile`` cannot load (a flipped byte, a UTF-8 flag on a Shift-JIS name):
its intact members still give their games.

Each member's local header gives its name, method and sizes; its data follows. A
member whose sizes come only after its data (a data descriptor) cannot be stepped over,
so the reading stops there, saying so; it stops too at the first bytes that are not a
local header (the central directory, or damage).
"""

from __future__ import annotations

import struct
import zlib
from functools import partial
from typing import Iterator

from rulelab.read.sources.items import FileFailure, RawFile, ReadStats, failure

_LOCAL = struct.Struct("<4s5H3L2H")  # signature, version, flags, method, time, date, crc, sizes, name/extra lengths
_SIGNATURE = b"PK\x03\x04"
_ENCRYPTED, _DESCRIPTOR, _UTF8 = 0x1, 0x8, 0x800
_STORED, _DEFLATED = 0, 8
_MOST_PACKED = 2
"""Compressed bytes per byte a member may claim (deflate never comes near it)."""


def local_entries(path: str, stream, stats: ReadStats) -> Iterator[tuple]:
    """``(name, size, problem, read)`` per member, as :func:`~rulelab.read.sources.zip_reader.read_zip`
    takes them; ``read()`` gives the member's item."""
    stream.seek(0)
    while len(header := stream.read(_LOCAL.size)) == _LOCAL.size and header[:4] == _SIGNATURE:
        _, _, flags, method, _, _, crc, packed, size, name_length, extra_length = _LOCAL.unpack(header)
        name = _name(stream.read(name_length), flags)
        start = stream.seek(extra_length, 1)
        stats.bytes_read += _LOCAL.size + name_length + extra_length + packed
        if flags & _DESCRIPTOR:
            yield name, 0, ("its sizes follow its data, and the central directory that holds them is "
                            "damaged: it and the members after it are not read"), None
            return
        problem = "encrypted member; not read" if flags & _ENCRYPTED else None
        if packed > _MOST_PACKED * size + 1024:
            problem = f"damaged member: {packed:,} compressed bytes claimed for {size:,}"
        yield name, size, problem, partial(_read_member, path, name, stream, start, packed, method, size, crc)
        stream.seek(start + packed)


def _name(raw: bytes, flags: int) -> str:
    """The member's name as zipfile reads it, but never failing: a name flagged UTF-8 that
    is not (old Windows tools wrote Shift-JIS) is read as cp437."""
    if flags & _UTF8:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            pass
    return raw.decode("cp437")


def _read_member(path: str, name: str, stream, start: int, packed: int, method: int, size: int,
                 crc: int) -> RawFile | FileFailure:
    stream.seek(start)
    packed = stream.read(packed)
    if method == _STORED:
        data = packed
    elif method == _DEFLATED:
        try:
            data = zlib.decompressobj(-zlib.MAX_WBITS).decompress(packed, size + 1)
        except zlib.error as error:
            return failure(path, name, f"damaged member: {error}")
    else:
        return failure(path, name, f"compression method {method} is not read")
    if len(data) != size or zlib.crc32(data) != crc:
        return failure(path, name, f"damaged member: not the declared {size:,} bytes and CRC")
    return RawFile(path, name, data)
