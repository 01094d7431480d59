"""Decoding record bytes into text without ever changing a move."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulelab.errors import DecodeError
from rulelab.read import decoding
from rulelab.read.decoding import STRUCTURE, Decoded, declared_codec, decode_sgf
from rulelab.read.sgf import game_events, parse_game, split_games


def keeps_structure(data: bytes, decoded: Decoded) -> bool:
    return all(data.count(ord(ch)) == decoded.text.count(ch) for ch in STRUCTURE)


def record(name: bytes, head: bytes = b"") -> bytes:
    return b"(;GM[1]" + head + b"PB[" + name + b"]KM[6.5];B[pd];W[dd])"


def test_clean_utf8_is_read_as_utf8():
    data = record("李世石".encode())
    assert decode_sgf(data) == Decoded(data.decode(), "utf-8", False)


def test_utf8_byte_order_mark_is_dropped():
    assert decode_sgf(b"\xef\xbb\xbf(;B[aa])").text == "(;B[aa])"


def test_fox_question_mark_damage_is_lossy_utf8_and_keeps_every_move():
    # Fox: UTF-8 with bytes replaced by '?'. Here 洁 (e6 b4 81) lost its middle byte,
    # and GBK reads the stray 0x81 with the ']' after it as one character.
    name = "第4届Mlily梦百合杯".encode().replace(b"\x99\xbe", b"?\xbe") + b"\xe6\x9f\xaf\xe6?\x81"
    data = record(name)
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    assert data.decode("gbk", "replace").count("]") < data.count(b"]")
    decoded = decode_sgf(data)
    assert (decoded.encoding, decoded.lossy) == ("utf-8", True)
    assert keeps_structure(data, decoded)
    assert "\ufffd" in decoded.text and "Mlily" in decoded.text
    game = parse_game(split_games(decoded.text)[0][0].text)
    assert game_events(game).tolist() == [[0, 1, 3, 15], [0, 2, 3, 3]]


def test_declared_utf8_with_a_truncated_character_is_lossy_utf8():
    data = record(b"\xe4\xbd\xa0\xe8\x8b\xa5\xe6\x9c\x89\xe5\x9b", b"CA[UTF-8]")
    decoded = decode_sgf(data)
    assert (decoded.encoding, decoded.lossy) == ("utf-8", True)
    assert decoded.text.count("]") == data.count(b"]")


@pytest.mark.parametrize(
    ("ca", "codec", "name"),
    [
        ("GB2312", "gb2312", "聂卫平"),
        ("GBK", "gbk", "聂卫平"),
        ("Big5", "big5", "聶衛平"),
        ("Shift_JIS", "shift_jis", "本因坊秀策"),
        ("EUC-KR", "euc_kr", "이창호"),
        ("ISO-8859-1", "latin-1", "Müller"),
    ],
)
def test_a_declared_codec_is_honoured(ca, codec, name):
    data = record(name.encode(codec), f"CA[{ca}]".encode())
    decoded = decode_sgf(data)
    assert decoded.encoding == codec and not decoded.lossy
    assert f"PB[{name}]" in decoded.text


def test_a_declared_codec_that_fails_widens_to_its_superset():
    data = record("镕".encode("gbk"), b"CA[GB2312]")  # in GBK, not in GB2312
    decoded = decode_sgf(data)
    assert decoded.encoding == "gb18030" and "PB[镕]" in decoded.text


def test_valid_utf8_beats_a_contradicting_ca():
    data = record("Müller 李".encode(), b"CA[ISO-8859-1]")
    assert decode_sgf(data).encoding == "utf-8"


@pytest.mark.parametrize(
    ("name", "codec"),
    [
        ("白", "gb18030"),
        ("聂卫平 古力", "gb18030"),
        ("許功蓋 李昌鎬", "big5"),
        ("本因坊秀策", "shift_jis"),
        ("ひらがな", "shift_jis"),
        ("Fichier créé par", "cp1252"),
        ("Jan Hrabánek", "cp1252"),
    ],
)
def test_undeclared_legacy_text_finds_its_codec(name, codec):
    encoded = name.encode("gbk" if codec == "gb18030" else codec)
    decoded = decode_sgf(record(encoded))
    assert (decoded.encoding, decoded.lossy) == (codec, False)
    assert f"PB[{name}]" in decoded.text


def test_undeclared_korean_keeps_its_moves_even_if_read_as_chinese():
    data = record("이창호".encode("euc_kr"))
    decoded = decode_sgf(data)
    assert keeps_structure(data, decoded)
    assert decoded.text.endswith(";B[pd];W[dd])")


@pytest.mark.parametrize(("codec", "name"), [("big5", "許功蓋"), ("shift_jis", "表ソ")])
def test_backslash_trail_bytes_parse_right_once_decoded(codec, name):
    # 許, 功, 蓋 (Big5) and 表, ソ (Shift-JIS) end in byte 0x5C, SGF's escape character.
    encoded = name.encode(codec)
    assert encoded.endswith(b"\\")
    data = record(encoded, f"CA[{codec}]".encode())
    game = parse_game(split_games(decode_sgf(data).text)[0][0].text)
    assert game.root["PB"] == [name] and game.root["KM"] == ["6.5"]
    assert game_events(game).tolist() == [[0, 1, 3, 15], [0, 2, 3, 3]]


def test_latin1_is_the_last_resort():
    data = b"(;PB[\x81]C[\x81];B[aa])"  # 0x81 ']' is one character in GBK and Shift-JIS
    decoded = decode_sgf(data)
    assert (decoded.encoding, decoded.lossy) == ("latin-1", False)
    assert keeps_structure(data, decoded)


@pytest.mark.parametrize(
    ("data", "codec"),
    [
        (b"(;CA[UTF-8])", "utf-8"),
        (b"(;CA[utf8])", "utf-8"),
        (b"(;CA[iso8859_1])", "latin-1"),
        (b"(;CA [ gb2312 ])", "gb2312"),
        (b"(;CA[UTF-16])", None),
        (b"(;CA[base64])", None),
        (b"(;CA[no-such-codec])", None),
        (b"(;C[the CA property]PB[x])", None),
        (b"(;KCA[x]CA[big5])", "big5"),
    ],
)
def test_declared_codec(data, codec):
    assert declared_codec(data) == codec


def test_non_bytes_input_is_a_decode_error():
    with pytest.raises(DecodeError, match="needs bytes"):
        decode_sgf("(;B[aa])")


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.binary(max_size=300))
def test_decoding_never_changes_the_structure_of_any_bytes(data):
    assert keeps_structure(data.removeprefix(b"\xef\xbb\xbf"), decode_sgf(data))


def test_a_codec_is_guessed_from_the_first_64_kib_even_when_it_cuts_a_character(monkeypatch):
    """Weighing every character of a 60 MiB member took two minutes; the 9 bytes before
    the comment put the 64 KiB mark in the middle of a two-byte character."""
    weighed = []
    plausibility, damaged = decoding._plausibility, decoding._looks_like_damaged_utf8
    monkeypatch.setattr(decoding, "_plausibility", lambda text, codec: weighed.append(len(text)) or plausibility(text, codec))
    monkeypatch.setattr(decoding, "_looks_like_damaged_utf8", lambda text: weighed.append(len(text)) or damaged(text))
    data = b"(;GM[1]C[" + "啊".encode("gb2312") * (1 << 20) + b"])"
    decoded = decode_sgf(data)
    assert decoded == Decoded("(;GM[1]C[" + "啊" * (1 << 20) + "])", "gb18030", False)
    assert weighed and max(weighed) <= decoding.SAMPLE_BYTES


def test_a_codec_that_fits_the_start_but_not_the_rest_gives_latin_1():
    data = b"(;C[" + "啊".encode("gb2312") * (1 << 16) + b"\xff\xff])"
    assert decode_sgf(data).encoding == "latin-1"


def test_a_large_member_without_a_declaration_has_none():
    """The ``CA`` pattern leads with its literal and looks behind only where it matched (its
    speed is measured by the bench, not here): a member of CJK values and brackets, 16 MB,
    declares nothing."""
    data = "(;PB[이창호]C[한국어의 바둑 대국])".encode("euc_kr") * 400_000
    assert declared_codec(data) is None
    assert declared_codec(data + b"(;CA[UTF-8])") == "utf-8"


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"])
def test_utf16_and_utf32_are_told_with_or_without_a_byte_order_mark(codec):
    text = "(;GM[1]SZ[9]PB[本因坊秀策]C[[x\\]];B[ee])"
    assert decode_sgf(text.encode(codec)) == Decoded(text, codec, False)


def test_a_utf16_byte_order_mark_before_utf8_bytes_is_not_taken_for_utf16():
    decoded = decode_sgf(b"\xff\xfe" + "(;PB[李])".encode("utf-8"))
    assert "(;PB[" in decoded.text and not decoded.encoding.startswith("utf-16")
