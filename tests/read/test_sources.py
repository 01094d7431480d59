"""Reading game files from folders and archives, safely and in a deterministic order."""

import gzip
import hashlib
import io
import os
import random
import stat
import struct
import tarfile
import zipfile

import pytest

from rulelab.errors import InputError, SkippedInput
from rulelab.read.sources import FileFailure, Limits, RawFile, ReadStats, check_inputs, iter_files
from rulelab.read.sources.zip_directory import claimed_directory


def game(n: int) -> bytes:
    return f"(;GM[1]GN[{n}];B[aa])".encode()


def read(paths, limits=Limits()):
    stats = ReadStats()
    items = list(iter_files(paths, limits, stats))
    return items, stats


def summary(items):
    """(member or file name, data or error text) for each item."""
    return [
        (item.member or os.path.basename(item.path), item.data if isinstance(item, RawFile) else str(item.error))
        for item in items
    ]


def make_tar(path, members, mode="w"):
    """``members``: (name, bytes) for files, or a ready TarInfo with None."""
    with tarfile.open(path, mode) as archive:
        for name, data in members:
            if isinstance(name, tarfile.TarInfo):
                archive.addfile(name)
            else:
                info = tarfile.TarInfo(name)
                info.size = len(data)
                archive.addfile(info, io.BytesIO(data))
    return path


def link_info(name, target, kind):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    return info


# --- folders and plain files -------------------------------------------------------


def test_a_folder_is_walked_recursively_in_sorted_order(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "2.sgf").write_bytes(game(2))
    (tmp_path / "b" / "1.MGT").write_bytes(game(1))
    (tmp_path / "a.sgf").write_bytes(game(0))
    (tmp_path / "c.SGF").write_bytes(game(3))
    (tmp_path / "README").write_bytes(b"about")
    items, stats = read([tmp_path])
    assert [os.path.relpath(i.path, tmp_path) for i in items] == ["a.sgf", "b/1.MGT", "b/2.sgf", "c.SGF"]
    assert all(i.member is None for i in items)
    assert (stats.game_files, stats.failures, stats.skipped, stats.bytes_read) == (
        4, 0, {"not a game file": 1}, sum(len(game(k)) for k in range(4)))


def test_provenance_keeps_paths_as_given(tmp_path, monkeypatch):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "x.sgf").write_bytes(game(1))
    monkeypatch.chdir(tmp_path)
    items, _ = read(["games", "./games/x.sgf"])
    assert [i.path for i in items] == [os.path.join("games", "x.sgf"), "./games/x.sgf"]


def test_a_file_named_explicitly_is_read_whatever_its_name(tmp_path):
    (tmp_path / "record.txt").write_bytes(game(1))
    items, _ = read([tmp_path / "record.txt"])
    assert summary(items) == [("record.txt", game(1))]


def test_symlinks_in_folders_are_reported_not_followed(tmp_path):
    outside = tmp_path / "outside.sgf"
    outside.write_bytes(game(9))
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "link.sgf").symlink_to(outside)
    (folder / "loop").symlink_to(folder)
    items, stats = read([folder])
    assert [type(i) for i in items] == [FileFailure, FileFailure]
    assert "link.sgf: symbolic link; not followed" in str(items[0].error)
    assert stats.failures == 2 and stats.game_files == 0


@pytest.mark.parametrize("paths", ["games/a.sgf", [3]])
def test_paths_must_be_a_list_of_paths(paths):
    with pytest.raises(InputError, match="expected a list of"):
        list(iter_files(paths))


def test_a_missing_input_is_a_failure_not_a_crash(tmp_path):
    items, stats = read([tmp_path / "nowhere.sgf", tmp_path / "nowhere"])
    assert [type(i) for i in items] == [FileFailure, FileFailure]
    assert "cannot read input: No such file or directory" in str(items[0].error)
    assert items[0].error.status == "input_error"


def test_inputs_are_checked_before_a_run_reads_them(tmp_path):
    (tmp_path / "a.sgf").write_bytes(b"(;)")
    assert check_inputs([tmp_path / "a.sgf", tmp_path]) == [str(tmp_path / "a.sgf"), str(tmp_path)]
    with pytest.raises(InputError, match="nowhere: no such file or folder"):
        check_inputs([tmp_path, tmp_path / "nowhere"])
    with pytest.raises(InputError, match="no input named"):
        check_inputs([])


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_input_is_refused_before_a_run(tmp_path):
    (tmp_path / "a.sgf").write_bytes(b"(;)")
    (tmp_path / "a.sgf").chmod(0)
    with pytest.raises(InputError, match="a.sgf: permission denied"):
        check_inputs([tmp_path / "a.sgf"])


def test_a_file_over_the_limit_is_not_read(tmp_path):
    (tmp_path / "huge.sgf").write_bytes(b"(" * 2000)
    items, _ = read([tmp_path], Limits(max_file_bytes=1000))
    assert "file of 2,000 bytes is over the 1,000-byte limit" in str(items[0].error)


def test_a_fifo_is_reported_not_opened(tmp_path):
    os.mkfifo(tmp_path / "pipe.sgf")
    items, _ = read([tmp_path / "pipe.sgf"])
    assert "not a regular file" in str(items[0].error)


# --- tar archives ------------------------------------------------------------------


@pytest.mark.parametrize(("suffix", "mode"), [
    (".tar", "w"), (".tar.gz", "w:gz"), (".tgz", "w:gz"), (".tar.xz", "w:xz"), (".tar.bz2", "w:bz2"),
])
def test_tar_archives_are_streamed_member_by_member(tmp_path, suffix, mode):
    archive = make_tar(tmp_path / f"games{suffix}", [("d/b.sgf", game(1)), ("d/a.sgf", game(2)), ("notes.txt", b"x")], mode)
    items, stats = read([archive])
    assert summary(items) == [("d/b.sgf", game(1)), ("d/a.sgf", game(2))]
    assert all(i.path == str(archive) for i in items)
    assert stats.skipped == {"not a game file": 1}


def test_tar_gz_archives_joined_end_to_end_are_read_to_the_end(tmp_path):
    first = make_tar(tmp_path / "a.tar.gz", [("a.sgf", game(1))], "w:gz").read_bytes()
    second = make_tar(tmp_path / "b.tar.gz", [("b.sgf", game(2)), ("c.sgf", game(3))], "w:gz").read_bytes()
    (tmp_path / "both.tar.gz").write_bytes(first + second)
    items, _ = read([tmp_path / "both.tar.gz"])
    assert summary(items) == [("a.sgf", game(1)), ("b.sgf", game(2)), ("c.sgf", game(3))]


def test_a_header_block_of_garbage_is_damage_said_not_a_silent_end(tmp_path):
    whole = make_tar(tmp_path / "a.tar", [("a.sgf", game(1)), ("b.sgf", game(2))]).read_bytes()
    (tmp_path / "bad.tar").write_bytes(whole[:1024] + b"garbage".ljust(512, b"x") + whole[1024:])
    items, _ = read([tmp_path / "bad.tar"])
    assert summary(items)[0] == ("a.sgf", game(1))
    assert "archive damaged after 1 members" in str(items[1].error)


def test_compression_is_told_by_content_not_name(tmp_path):
    archive = make_tar(tmp_path / "games.tar", [("a.sgf", game(1))], "w:xz")
    assert summary(read([archive])[0]) == [("a.sgf", game(1))]


def test_archives_found_in_folders_are_opened(tmp_path):
    make_tar(tmp_path / "month.tar.gz", [("a.sgf", game(1))], "w:gz")
    items, _ = read([tmp_path])
    assert [(os.path.basename(i.path), i.member) for i in items] == [("month.tar.gz", "a.sgf")]


@pytest.mark.parametrize("name", ["../escape.sgf", "/etc/passwd.sgf", "a/../../b.sgf", "C:\\games\\x.sgf"])
def test_tar_members_with_unsafe_paths_are_reported_unread(tmp_path, name):
    secret = b"(;C[secret])"
    archive = make_tar(tmp_path / "evil.tar", [(name, secret), ("ok.sgf", game(1))])
    items, _ = read([archive])
    assert isinstance(items[0], FileFailure) and items[0].member == name
    assert "member path" in str(items[0].error) and "not read" in str(items[0].error)
    assert summary(items[1:]) == [("ok.sgf", game(1))]
    assert not any(isinstance(i, RawFile) and i.data == secret for i in items)


@pytest.mark.parametrize("kind", [tarfile.SYMTYPE, tarfile.LNKTYPE])
def test_links_in_tar_archives_are_reported_not_followed(tmp_path, kind):
    archive = make_tar(tmp_path / "links.tar", [(link_info("x.sgf", "/etc/passwd", kind), None), ("ok.sgf", game(1))])
    items, _ = read([archive])
    assert "link to '/etc/passwd' in archive; not followed" in str(items[0].error)
    assert summary(items[1:]) == [("ok.sgf", game(1))]


def test_device_entries_in_tar_archives_are_reported(tmp_path):
    archive = make_tar(tmp_path / "dev.tar", [(link_info("zero.sgf", "", tarfile.CHRTYPE), None)])
    assert "not a regular file" in str(read([archive])[0][0].error)


def test_a_member_that_decompresses_past_the_cap_is_reported_and_the_rest_read(tmp_path):
    bomb = b"\0" * 100_000  # 100 kB of zeros: a few hundred bytes compressed
    archive = make_tar(tmp_path / "bomb.tar.xz", [("bomb.sgf", bomb), ("ok.sgf", game(1))], "w:xz")
    assert archive.stat().st_size < 1000
    items, _ = read([archive], Limits(max_file_bytes=10_000))
    assert "member of 100,000 bytes is over the 10,000-byte limit" in str(items[0].error)
    assert summary(items[1:]) == [("ok.sgf", game(1))]


def test_an_archive_that_decompresses_past_its_cap_stops_with_a_failure(tmp_path):
    members = [(f"{n}.sgf", game(n) + b" " * 3000) for n in range(10)]
    archive = make_tar(tmp_path / "big.tar.gz", members, "w:gz")
    items, _ = read([archive], Limits(max_archive_bytes=10_000))
    assert [type(i) for i in items] == [RawFile, RawFile, FileFailure]
    assert "decompresses past the 10,000-byte limit after 2 members; the rest is not read" in str(items[-1].error)


def test_a_truncated_tar_xz_keeps_the_members_before_the_damage(tmp_path):
    rng = random.Random(7)
    members = [(f"{n}.sgf", game(n) + rng.randbytes(20_000)) for n in range(6)]
    whole = make_tar(tmp_path / "whole.tar.xz", members, "w:xz").read_bytes()
    cut = tmp_path / "cut.tar.xz"
    cut.write_bytes(whole[: len(whole) * 6 // 10])
    items, stats = read([cut])
    kept = [i for i in items if isinstance(i, RawFile)]
    assert 1 <= len(kept) < 6 and summary(kept) == [(name, data) for name, data in members[: len(kept)]]
    failure = items[-1]
    assert isinstance(failure, FileFailure) and failure.path == str(cut)
    assert f"cut.tar.xz!{failure.member}: archive damaged after {len(kept)} members" in str(failure.error)
    assert stats.failures == 1


def test_a_file_that_is_not_an_archive_at_all_is_one_failure(tmp_path):
    (tmp_path / "fake.tar.gz").write_bytes(b"\x1f\x8b not really gzip")
    items, _ = read([tmp_path / "fake.tar.gz"])
    assert len(items) == 1 and "archive damaged after 0 members" in str(items[0].error)


def test_nested_archives_and_compressed_files_are_a_skipped_row_each_not_opened(tmp_path):
    inner = make_tar(tmp_path / "inner.tgz", [("a.sgf", game(1))], "w:gz").read_bytes()
    archive = make_tar(tmp_path / "outer.tar", [("inner.tgz", inner), ("g.sgf.xz", b"x"), ("b.sgf", game(2))])
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "h.zst").write_bytes(b"x")
    items, stats = read([archive, tmp_path / "folder"])
    assert [(i.member, type(i.error)) for i in items if isinstance(i, FileFailure)] == [
        ("inner.tgz", SkippedInput), ("g.sgf.xz", SkippedInput), (None, SkippedInput)]
    assert [i.data for i in items if isinstance(i, RawFile)] == [game(2)]
    assert stats.skipped == {"nested archive": 1, "compressed file": 2} and stats.failures == 0


def test_gzipped_game_files_are_read_as_the_games_they_hold(tmp_path):
    archive = make_tar(tmp_path / "outer.tar", [("g.sgf.gz", gzip.compress(game(3))), ("b.sgf", game(2))])
    (tmp_path / "folder").mkdir()
    make_zip(tmp_path / "folder" / "z.zip", [("z.SGF.GZ", gzip.compress(game(5)))])
    (tmp_path / "folder" / "h.sgf.gz").write_bytes(gzip.compress(game(4)) + gzip.compress(game(6)))  # two members
    (tmp_path / "folder" / "bad.sgf.gz").write_bytes(gzip.compress(game(7))[:-9])
    items, _ = read([archive, tmp_path / "folder"])
    assert summary(items) == [("g.sgf.gz", game(3)), ("b.sgf", game(2)), ("bad.sgf.gz", items[2].error.args[0]),
                              ("h.sgf.gz", game(4) + game(6)), ("z.SGF.GZ", game(5))]
    assert "cut short" in str(items[2].error)


def test_a_gzipped_game_past_the_file_cap_is_stopped_at_the_cap(tmp_path):
    (tmp_path / "bomb.sgf.gz").write_bytes(gzip.compress(b"(;C[" + bytes(5000) + b"])"))
    items, _ = read([tmp_path / "bomb.sgf.gz"], Limits(max_file_bytes=1000))
    assert "decompresses past the 1,000-byte limit" in str(items[0].error)


def test_members_past_the_member_cap_are_not_read(tmp_path):
    archive = make_tar(tmp_path / "many.tar", [(f"{n}.sgf", game(n)) for n in range(5)])
    items, _ = read([archive], Limits(max_members=3))
    assert [type(i) for i in items] == [RawFile, RawFile, RawFile, FileFailure]
    assert "more than 3 members" in str(items[-1].error)


# --- zip archives ------------------------------------------------------------------


def make_zip(path, members):
    """``members``: (name or ZipInfo, bytes)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return path


def test_zip_members_are_read_in_archive_order(tmp_path):
    archive = make_zip(tmp_path / "games.zip", [("z.sgf", game(1)), ("a/A.SGF", game(2)), ("x.doc", b"")])
    items, stats = read([archive])
    assert summary(items) == [("z.sgf", game(1)), ("a/A.SGF", game(2))]
    assert stats.skipped == {"not a game file": 1}


def test_zip_members_named_with_nul_0xff_or_escape_bytes_are_read(tmp_path):
    data = make_zip(tmp_path / "names.zip", [("aXb.sgf", game(1)), ("cXd.sgf", game(2)), ("eXf.sgf", game(3))]).read_bytes()
    for mark, byte in ((b"aXb", b"a\0b"), (b"cXd", b"c\xffd"), (b"eXf", b"e\x1bf")):
        data = data.replace(mark, byte)
    (tmp_path / "names.zip").write_bytes(data)
    items, _ = read([tmp_path / "names.zip"])
    assert summary(items) == [("a\0b.sgf", game(1)), ("c\xa0d.sgf", game(2)), ("e\x1bf.sgf", game(3))]


def test_zip_members_with_unsafe_paths_are_reported_unread(tmp_path):
    archive = make_zip(tmp_path / "evil.zip", [("../../x.sgf", b"(;C[secret])"), ("/abs.sgf", b"(;)"), ("ok.sgf", game(1))])
    items, _ = read([archive])
    assert [i.member for i in items] == ["../../x.sgf", "/abs.sgf", "ok.sgf"]
    assert [type(i) for i in items] == [FileFailure, FileFailure, RawFile]


def test_zip_symlinks_are_reported_not_followed(tmp_path):
    link = zipfile.ZipInfo("link.sgf")
    link.external_attr = (stat.S_IFLNK | 0o777) << 16
    archive = make_zip(tmp_path / "links.zip", [(link, b"/etc/passwd"), ("ok.sgf", game(1))])
    items, _ = read([archive])
    assert "symbolic link in archive; not followed" in str(items[0].error)
    assert summary(items[1:]) == [("ok.sgf", game(1))]


def test_zip_bombs_are_capped_per_member_and_per_archive(tmp_path):
    archive = make_zip(tmp_path / "bomb.zip", [("bomb.sgf", b"\0" * 100_000)] + [(f"{n}.sgf", game(n) * 300) for n in range(5)])
    items, _ = read([archive], Limits(max_file_bytes=10_000, max_archive_bytes=15_000))
    assert "member of 100,000 bytes is over the 10,000-byte limit" in str(items[0].error)
    assert [type(i) for i in items[1:]] == [RawFile, RawFile, FileFailure]
    assert "decompresses past the 15,000-byte limit after 3 members; the rest is not read" in str(items[-1].error)


def test_a_zip_cut_short_keeps_its_whole_members_read_from_their_local_headers(tmp_path):
    whole = make_zip(tmp_path / "whole.zip", [("a.sgf", game(1)), ("b.sgf", game(2))]).read_bytes()
    (tmp_path / "cut.zip").write_bytes(whole[: whole.find(b"PK\x01\x02") - 5])  # inside b.sgf's data
    items, _ = read([tmp_path / "cut.zip"])
    assert "archive damaged, its central directory unreadable" in str(items[0].error)
    assert isinstance(items[1], RawFile) and items[1].data == game(1)
    assert items[2].member == "b.sgf" and "damaged member" in str(items[2].error) and len(items) == 3


def test_a_zip_member_with_a_bad_checksum_is_reported_and_the_rest_read(tmp_path):
    path = make_zip(tmp_path / "crc.zip", [("a.sgf", game(1) * 50), ("b.sgf", game(2))])
    with zipfile.ZipFile(path) as archive:
        offset = archive.getinfo("a.sgf").header_offset + 30 + len("a.sgf") + 5
    data = bytearray(path.read_bytes())
    data[offset] ^= 0xFF
    path.write_bytes(bytes(data))
    items, _ = read([path])
    assert isinstance(items[0], FileFailure) and "damaged member" in str(items[0].error)
    assert summary(items[1:]) == [("b.sgf", game(2))]


def end_records(entries: int, size: int, zip64: bool) -> bytes:
    """Nothing but the end records of a zip, claiming a directory of ``entries`` and ``size`` bytes."""
    if not zip64:
        return struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, entries, entries, size, 0, 0)
    record = struct.pack("<4sQ2H2L4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, entries, entries, size, 0)
    locator = struct.pack("<4sLQL", b"PK\x06\x07", 0, 0, 1)
    return record + locator + end_records(0xFFFF, 0xFFFFFFFF, zip64=False)


@pytest.mark.parametrize("entries, size, zip64, message", [
    (5_000_000, 1 << 30, True, "central directory lists 5,000,000 entries, more than 2,000,000; no member read"),
    (10, 40 << 20, False, "central directory of 41,943,040 bytes, more than 33,554,432; no member read"),
])
def test_a_zip_claiming_a_huge_directory_is_refused_before_it_is_loaded(entries, size, zip64, message,
                                                                         tmp_path, monkeypatch):
    archive = tmp_path / "huge.zip"
    archive.write_bytes(b"PK\x03\x04" + b"\0" * 100 + end_records(entries, size, zip64))
    monkeypatch.setattr(zipfile, "ZipFile", None)  # loading the directory would fail loudly
    items, stats = read([archive])
    assert len(items) == stats.failures == 1 and str(items[0].error).endswith(f"huge.zip: {message}")


def test_a_zip_with_more_entries_than_the_member_cap_is_refused_whole(tmp_path):
    archive = make_zip(tmp_path / "many.zip", [(f"{n}.sgf", game(n)) for n in range(5)])
    items, _ = read([archive], Limits(max_members=4))
    assert len(items) == 1 and str(items[0].error).endswith("central directory lists 5 entries, more than 4; no member read")
    items, _ = read([archive], Limits(max_members=5))
    assert [type(i) for i in items] == [RawFile] * 5


@pytest.mark.parametrize("shape", ["plain", "comment", "zip64"])
def test_the_directory_claimed_is_the_one_zipfile_reads(shape, tmp_path):
    count = 0x10000 if shape == "zip64" else 3  # past 65,535 entries zipfile writes zip64 end records
    path = tmp_path / "a.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for n in range(count):
            archive.writestr(f"{n}", b"")
        if shape == "comment":
            archive.comment = b"x" * 1000
    first_end_record = path.read_bytes().find(b"PK\x06\x06" if shape == "zip64" else b"PK\x05\x06")
    with open(path, "rb") as stream, zipfile.ZipFile(path) as archive:
        assert claimed_directory(stream) == (count, first_end_record - archive.start_dir)
        assert len(archive.infolist()) == count


# --- limits and descriptions -------------------------------------------------------


@pytest.mark.parametrize("field", ["max_file_bytes", "max_archive_bytes", "max_members"])
@pytest.mark.parametrize("value", [0, -1, 1.5, "10", True])
def test_limits_must_be_positive_integers(field, value):
    with pytest.raises(InputError, match=f"Limits.{field} must be a positive int"):
        Limits(**{field: value})


def test_each_input_is_described_by_the_bytes_read_from_it(tmp_path):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "a.sgf").write_bytes(game(1))
    archive = make_tar(tmp_path / "g.tar.gz", [("a.sgf", game(1))], "w:gz")
    _, stats = read([tmp_path / "games", archive, tmp_path / "games" / "a.sgf", tmp_path / "nowhere"])
    described = stats.inputs
    assert [d["kind"] for d in described] == ["folder", "archive", "file", "unread"]
    assert described[0]["size"] == described[2]["size"] == len(game(1))
    assert described[1]["size"] == archive.stat().st_size
    assert described[1]["sha256"] == hashlib.sha256(archive.read_bytes()).hexdigest()
    assert described[2]["sha256"] == hashlib.sha256(game(1)).hexdigest()
    (tmp_path / "games" / "a.sgf").write_bytes(game(2))
    assert read([tmp_path / "games"])[1].inputs[0]["sha256"] != described[0]["sha256"]


def test_fifos_and_devices_are_a_row_each_never_read(tmp_path):
    os.mkfifo(tmp_path / "pipe.sgf")
    items, stats = read([tmp_path / "pipe.sgf", "/dev/zero", tmp_path])
    assert [str(i.error).rpartition(": ")[2] for i in items] == [
        "not a regular file; not read", "not a regular file; not read", "not a regular file"]
    assert [d["kind"] for d in stats.inputs] == ["unread", "unread", "folder"]
