"""Hostile inputs, each made from its smallest form: the bytes of records and archives
that the fuzz tier (tests/pipeline/test_hostile.py) and the probe set (bench/probes) plant."""

import gzip
import io
import lzma
import random
import tarfile
import warnings
import zipfile

GOOD = b"(;GM[1]SZ[9]KM[6.5]RE[B+0.5]PB[good];B[ee];W[cc];B[];W[])"


def zip_bytes(members: dict[str, bytes]) -> bytearray:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return bytearray(buffer.getvalue())


def tar_bytes(members: dict[str, bytes], mode: str = "w") -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode) as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def utf8_flag_on_shift_jis_name(before: dict[str, bytes] = {}, after: dict[str, bytes] = {}) -> bytes:
    """A zip whose UTF-8 name flag is set on a Shift-JIS name (old Windows tools), between
    the members ``before`` and ``after``."""
    data = zip_bytes({**before, "g.sgf": GOOD, **after})
    for signature, flag_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        name = data.find(b"g.sgf", data.find(signature))
        start = data.rfind(signature, 0, name)
        flags = int.from_bytes(data[start + flag_at: start + flag_at + 2], "little") | 0x800
        data[start + flag_at: start + flag_at + 2] = flags.to_bytes(2, "little")
        data[name: name + 5] = "棋譜.sgf".encode("shift_jis")[:5]
    return bytes(data)


def zip_version_7() -> bytes:
    data = zip_bytes({"g.sgf": GOOD})
    data[data.find(b"PK\x01\x02") + 6] = 70
    data[data.find(b"PK\x03\x04") + 4] = 70
    return bytes(data)


def pax_header_over_the_limit() -> bytes:
    """A tar.gz whose first record is a 2 MiB pax header (the limit is 1 MiB)."""
    header = tarfile.TarInfo("././@PaxHeader")
    header.type, header.size = tarfile.XHDTYPE, 2 << 20
    return gzip.compress(header.tobuf(format=tarfile.USTAR_FORMAT) + b"\0" * header.size)


def tar_info(name: str, **fields) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    for field, value in fields.items():
        setattr(info, field, value)
    return info


def tar_with(header: tarfile.TarInfo, data: bytes = b"", fmt=tarfile.GNU_FORMAT, after: bool = True) -> bytes:
    """A tar of a good game, then ``header`` and ``data``, then (when ``data`` is whole) another good game."""
    def good(name):
        return tar_info(name, size=len(GOOD)).tobuf() + GOOD + b"\0" * (-len(GOOD) % 512)
    return good("a.sgf") + header.tobuf(format=fmt) + data + (good("z.sgf") if after else b"") + b"\0" * 1024


def claimed_size(size: int, pax: bool = False) -> bytes:
    """A member whose header claims ``size`` bytes (base-256 in the GNU header, or a pax record)."""
    header = tarfile.TarInfo("big.sgf")
    if pax:
        header.size, header.pax_headers = 10, {"size": str(size)}
    else:
        header.size = size
    return tar_with(header, b"x" * 8192, tarfile.PAX_FORMAT if pax else tarfile.GNU_FORMAT, after=False)


def pax_sparse_map(entries: int) -> bytes:
    """A GNU sparse 1.0 member whose map (in its data, read whole by tarfile) lists ``entries`` pieces."""
    header = tarfile.TarInfo("s.sgf")
    header.pax_headers = {"GNU.sparse.major": "1", "GNU.sparse.minor": "0", "GNU.sparse.realsize": "100"}
    data = f"{entries}\n".encode() + b"1\n" * (2 * entries)
    header.size = len(data)
    return gzip.compress(tar_with(header, data + b"\0" * (-len(data) % 512), tarfile.PAX_FORMAT))


def old_sparse_blocks(blocks: int) -> bytes:
    """An old GNU sparse member followed by ``blocks`` extension headers of 21 pieces each."""
    header = bytearray(tar_info("s.sgf", type=tarfile.GNUTYPE_SPARSE).tobuf(format=tarfile.GNU_FORMAT))
    header[482] = 1  # isextended
    header[148:156] = b" " * 8
    header[148:156] = b"%06o\0 " % sum(header)
    extension = bytearray(b"".join(b"%011o\0%011o\0" % (n + 1, 1) for n in range(21)).ljust(512, b"\0"))
    extension[504] = 1
    last = bytes(extension[:504]) + b"\0" * 8
    members = tar_with(tarfile.TarInfo("-"), after=True)
    cut = members.index(b"-\0")
    return gzip.compress(members[:cut] + bytes(header) + bytes(extension) * (blocks - 1) + last
                         + members[cut + 512:])


def nested() -> bytes:
    inner = tar_bytes({"x.sgf": GOOD}, "w:gz")
    return tar_bytes({"inner.tar.gz": inner, "g.sgf.gz": gzip.compress(GOOD)})


def record(root: str) -> bytes:
    return f"(;GM[1]SZ[9]{root};B[ee])".encode()


SEEDS = (
    GOOD,
    b"(;GM[1]FF[4]CA[UTF-8]SZ[19]KM[6.5]HA[2]AB[dd][pp]RE[W+R]PW[w]PB[b];W[qd];B[dq](;W[oc];B[])(;W[cc]C[a \\] b]))",
    b"(;GM[1]SZ[13]RU[Japanese]KM[0.5]PL[W]AW[aa:cc]AE[bb];W[gg];B[hh];W[ii]TR[gg]LB[gg:x])",
    b"(;GM[1]SZ[19:9]RE[B+2.5]DT[2020-01-01];B[aa];W[ai];B[];W[])(;GM[1]SZ[9];B[ee])",
)
"""Small valid records that the record fuzzer mutates: moves, setup, variations, escapes,
a rectangular board and a two-game collection."""

DAMAGE = b"()[];\\\\\x00\xff:"


def mutate(data: bytes, chance: random.Random, edits: int) -> bytes:
    """``data`` after ``edits`` seeded edits: byte flips, cuts, inserted or doubled brackets
    and escapes, deleted and repeated spans."""
    data = bytearray(data)
    for _ in range(edits):
        at = chance.randrange(len(data) + 1)
        kind = chance.randrange(6)
        if kind == 0 and data:
            data[min(at, len(data) - 1)] ^= 1 << chance.randrange(8)
        elif kind == 1:
            del data[at:]
        elif kind == 2:
            data[at:at] = bytes([chance.choice(DAMAGE)]) * chance.choice((1, 2, 50))
        elif kind == 3:
            del data[at:at + chance.randrange(1, 8)]
        elif kind == 4:
            data[at:at] = data[at:at + chance.randrange(1, 16)] * chance.randrange(2, 200)
        else:
            data[at:at] = bytes([chance.randrange(256)])
        if not data:
            data = bytearray(b"(")
    return bytes(data)


def archive_of(kind: str, members: dict[str, bytes]) -> bytes:
    """``members`` as a zip, tar, tar.gz or tar.xz."""
    if kind == "zip":
        return bytes(zip_bytes(members))
    data = tar_bytes(members)
    return {"tar": data, "tar.gz": gzip.compress(data, mtime=0), "tar.xz": lzma.compress(data)}[kind]


def damage_archive(data: bytes, chance: random.Random) -> bytes:
    """One archive damaged in one of its places: a flipped header byte, a cut, a span of
    zeros or garbage, or a size field rewritten."""
    data = bytearray(data)
    kind = chance.randrange(5)
    at = chance.randrange(len(data))
    if kind == 0:
        for _ in range(chance.randrange(1, 6)):
            data[chance.randrange(len(data))] = chance.randrange(256)
    elif kind == 1:
        del data[at:]
    elif kind == 2:
        data[at:at + chance.randrange(1, 600)] = bytes(chance.randrange(1, 600))
    elif kind == 3:
        data[at:at + 12] = chance.choice((b"77777777777\0", b"\xff" * 12, b"\x80" + b"\xff" * 11))
    else:
        data[at:at] = chance.randbytes(chance.randrange(1, 700))
    return bytes(data) or b"\0"


def zip_bomb(size: int) -> bytes:
    """One member of ``size`` zero bytes, deflated to about a thousandth of it."""
    return bytes(zip_bytes({"bomb.sgf": b"(;C[" + bytes(size) + b"])"}))


def gnu_sparse_00() -> bytes:
    """A pax member with GNU sparse 0.0 records (offset and size pairs in the pax header)."""
    header = tarfile.TarInfo("s.sgf")
    header.pax_headers = {"GNU.sparse.size": "1000", "GNU.sparse.numblocks": "2",
                          "GNU.sparse.offset": "0", "GNU.sparse.numbytes": "10"}
    header.size = 10
    return tar_with(header, GOOD[:10] + b"\0" * 502, tarfile.PAX_FORMAT)


def tar_link_member(kind: bytes, target: str) -> bytes:
    """A tar holding a link, device or FIFO member called ``x.sgf`` (then a good game)."""
    header = tarfile.TarInfo("x.sgf")
    header.type, header.linkname = kind, target
    return tar_with(header)


def zip_of_twins() -> bytes:
    """A zip naming two different members ``a.sgf``."""
    buffer = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(buffer, "w") as archive:
        warnings.simplefilter("ignore")
        archive.writestr("a.sgf", GOOD)
        archive.writestr("a.sgf", GOOD.replace(b"good", b"twin"))
    return buffer.getvalue()
