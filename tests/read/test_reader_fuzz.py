"""Hostile bytes into the reader: only rulelab's own errors may come out."""

import io
import tarfile
import tempfile
import zipfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulelab.errors import RulelabError
from rulelab.read.decoding import decode_sgf
from rulelab.read.sgf import content_hash, game_events, parse_game, split_games, territory_marks
from rulelab.read.sources import FileFailure, Limits, RawFile, iter_files

FUZZ = settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])

REAL_LOOKING = [
    # KGS with markup and a pass
    b"(;GM[1]FF[4]CA[UTF-8]SZ[19]KM[6.50]RU[Japanese]PB[a]PW[b]RE[W+12.5]\n;B[pd];W[dd];B[pq]"
    b";W[dp];B[];W[tt]TB[aa:bb][sa]TW[ss]C[done \\] ok])",
    # Fox: damaged UTF-8, handicap in the second node
    "(;GM[1]FF[4]  SZ[19]  PB[柯洁]  KM[375]HA[2]  ;AB[pd][dp];W[dd];B[pp])".encode().replace(b"\xe6\xb4", b"?\xb4"),
    # Tygem: several games in one file
    b"(;GM[1]SZ[19]GC[rules not recorded];B[qd];W[dp])\n(;GM[1]SZ[19];B[pd];W[dd])\n",
    # gnugo: setup-only, variations, a small board
    b"(;GM[1]SZ[9]AB[aa][bb]AW[cc:ee]AE[dd]PL[B](;B[gg];W[hh])(;B[hh]C[var (1)]))",
    # old .mgt: FF[3], no size, a line broken move, a stray ')'
    b"\r\n(;GM[1]FF[3]PB[x]\r\n;B[qd];W[oq\r\n];Black[co];AddWhite[aa]))",
]


def read_everything(data: bytes) -> None:
    """The whole per-game path the pipeline takes, one game at a time."""
    try:
        games, _ = split_games(decode_sgf(data).text)
    except RulelabError:
        return
    for text in games:
        try:
            game = parse_game(text.text)
            game_events(game)
            territory_marks(game)
            content_hash(game)
        except RulelabError:
            pass


@FUZZ
@given(st.binary(max_size=400))
def test_arbitrary_bytes_raise_only_rulelab_errors(data):
    read_everything(data)


@st.composite
def mutated_records(draw):
    data = bytearray(draw(st.sampled_from(REAL_LOOKING)))
    alphabet = st.sampled_from(list(b"[]();\\:tT aZ\n\x81\xe6\xff?") + [0])
    for _ in range(draw(st.integers(1, 8))):
        position = draw(st.integers(0, len(data)))
        action = draw(st.sampled_from(["insert", "delete", "replace", "duplicate"]))
        if action == "insert":
            data[position:position] = bytes([draw(alphabet)])
        elif action == "delete":
            del data[position:position + draw(st.integers(1, 10))]
        elif action == "replace" and position < len(data):
            data[position] = draw(alphabet)
        elif action == "duplicate":
            data[position:position] = data[position:position + draw(st.integers(1, 40))]
    return bytes(data)


@FUZZ
@given(mutated_records())
def test_mutated_real_looking_records_raise_only_rulelab_errors(data):
    read_everything(data)


def tar_bytes(members: list[tuple[str, bytes]], mode: str) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode) as archive:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def zip_bytes(members: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return buffer.getvalue()


ARCHIVES = {
    "a.tar": tar_bytes([("a.sgf", REAL_LOOKING[0]), ("b.sgf", REAL_LOOKING[2])], "w"),
    "a.tar.gz": tar_bytes([("a.sgf", REAL_LOOKING[0]), ("b.sgf", REAL_LOOKING[2])], "w:gz"),
    "a.tar.xz": tar_bytes([("a.sgf", REAL_LOOKING[0]), ("b.sgf", REAL_LOOKING[2])], "w:xz"),
    "a.zip": zip_bytes([("a.sgf", REAL_LOOKING[0]), ("b.sgf", REAL_LOOKING[2])]),
}


@settings(max_examples=100, deadline=None, derandomize=True)
@given(
    st.sampled_from(sorted(ARCHIVES)),
    st.lists(st.tuples(st.integers(0, 3000), st.integers(0, 255)), min_size=1, max_size=6),
    st.integers(0, 3000),
)
def test_damaged_archives_yield_files_or_failures_never_exceptions(name, flips, cut):
    data = bytearray(ARCHIVES[name])
    for position, value in flips:
        data[position % len(data)] = value
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(bytes(data[: max(1, len(data) - cut % len(data))]))
        for item in iter_files([path], Limits(max_file_bytes=10_000, max_archive_bytes=100_000, max_members=50)):
            assert isinstance(item, (RawFile, FileFailure))
