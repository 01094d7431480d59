"""parse_game's own reader gives what the sgfmill path gives: the same Game, or the same error."""

import itertools
import tarfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulelab.read.decoding import decode_sgf
from rulelab.read.sgf import parse_game, split_games
from rulelab.read.sgf.parse import _parse_with_sgfmill, _read_main_line


def outcome(parse, text: str):
    """Everything a caller can see of a parse, property order included."""
    try:
        game = parse(text)
    except Exception as error:  # the error is the result being compared
        return type(error), str(error)
    return game.root, list(map(list, (node.items() for node in game.nodes))), game.size, game.variations


def assert_same_as_sgfmill(text: str) -> None:
    assert outcome(parse_game, text) == outcome(_parse_with_sgfmill, text)


DEEP = 100_000
WIDE = 10_000

READ_BY_THE_FAST_PATH = {
    "plain game": "(;GM[1]FF[4]SZ[19]KM[6.5];B[pd];W[dd];B[pp];W[])",
    "whitespace between every token": "( \n; GM [1]\r\n\tSZ\v[9]\f; B [ee] ; W[cc]\n)\n",
    "escaped ] in a value": r"(;PB[Honinbo\] Shusaku]C[a [bracketed\] word];B[aa])",
    "escaped backslash before ]": r"(;C[ends in a backslash\\];B[aa])",
    "escaped backslash twice": r"(;C[\\\]\\];B[aa])",
    "runs of backslashes": r"(;C[\\\\]GN[\\\\\]]PC[\\\\\\\]\\\]\]];B[aa])",
    "[ inside a value": "(;C[a [ b [];B[aa])",
    "soft line breaks": "(;C[soft\\\nbreak\\\r\nand\\\n\rmore\\\r.]GN[a\\\nb];B[aa]C[x\\\ny])",
    "hard line breaks in root text": "(;C[line\r\nline\rline\n\rline\tend\f\v];B[aa])",
    "newline inside a point value": "(;B[oq\n];W[\r\nab])",
    "lowercase letters in idents": "(;GaMe[1]SiZe[9];AddBlack[aa][bb]AddWhite[cc];Black[dd])",
    "lowercase ident joins an uppercase one": "(;AB[aa]AddBlack[bb]AB[cc];B[dd])",
    "all-lowercase ident is dropped": "(;c[comment]sz[5]SZ[9];b[aa]B[bb][cc];w[x])",
    "repeated ident in one node": "(;SZ[9]AB[aa]AW[bb]AB[cc];B[dd]B[ee])",
    "empty values": "(;C[]GN[][];B[];W[]AB[])",
    "empty nodes": "(;;;B[aa];;W[bb];)",
    "64-letter ident": "(;" + "A" * 64 + "[x];B[aa])",
    "64 letters, half of them lowercase": "(;" + "Ab" * 32 + "[x];B[aa])",
    "a second ( before the tree": "((;B[aa]))",
    "non-ASCII text": "(;PB[李昌镐]PW[Cho Chikun 趙治勲]C[é\\]…];B[aa])",
    "control characters in a value": "(;C[\x00\x1c\x7f\x85\u2028];B[aa])",
    "variations": "(;B[aa](;W[bb](;B[cc])(;B[dd]))(;W[ee](;B[ff])(;B[gg]))(;W[hh]))",
    "variations below a skipped branch": "(;a[1](;B[bb])(;W[cc](;B[dd])(;B[ee])))",
    "brackets and parentheses inside values": "(;C[(;B[zz])];B[aa](;C[)];W[bb])(;C[(];W[cc]))",
    "not a game of Go": "(;GM[2];B[aa])",
    "bad board size": "(;SZ[1];B[aa])",
    "board size that is not a number": "(;SZ[nineteen])",
    "text after the tree": "(;B[aa])(;W[bb]) junk ( [ ] \\",
    "whitespace after the tree": "(;B[aa])" + " " * 20_000,
    "junk before the tree": "header ( not a tree ) (\n;B[aa])",
    f"{DEEP} levels of variations": "(;GM[1]" + "(;B[aa]" * DEEP + ")" * (DEEP + 1),
    f"{WIDE} levels with a sibling at each": "(;SZ[9]" + "(;B[aa]" * WIDE + ")(;W[bb])" * WIDE + ")",
}

LEFT_TO_SGFMILL = {
    "unclosed tree": "(;GM[1];B[aa];W[bb]",
    "unclosed variation": "(;B[aa](;W[bb])(;W[cc]",
    "unclosed value": "(;B[aa];C[never closed)",
    "backslash at the end": "(;C[abc\\",
    "no game tree": "B[aa];W[bb]",
    "empty text": "",
    "junk in a node": "(;B[aa]#;W[bb])",
    "backslash outside a value": "(;B[aa]\\;W[bb])",
    "escaped ] outside a value": "(;B[aa]\\];W[bb])",
    "stray ] outside a value": "(;B[aa]];W[bb])",
    "ident split by a space": "(;B[aa]A B[bb])",
    "ident with no value": "(;B[aa]W;B[cc])",
    "65-letter ident": "(;" + "A" * 65 + "[x];B[aa])",
    "65 letters, lowercase among them": "(;" + "Ab" * 32 + "c[x];B[aa])",
    "value with no ident": "(;[aa];B[bb])",
    "value after a node's ;": "(;B[aa];[bb])",
    "value after a variation": "(;B[aa](;W[bb])[cc])",
    "node after a variation": "(;B[aa](;W[bb]);B[cc])",
    "property after a variation": "(;B[aa](;W[bb])W[cc])",
    "empty variation": "(;B[aa]())",
    "variation without ;": "(;B[aa](B[bb]))",
    "( without ; at the start": "(B[aa];W[bb])",
    "junk in a skipped variation": "(;B[aa](;W[bb])(;W[cc]%))",
    "lone surrogate in a value": "(;C[\ud800];B[aa])",
    "lone surrogate between tokens": "(;B[aa]\udfff;W[bb])",
    "non-ASCII whitespace between tokens": "(;B[aa]\u3000;W[bb]\xa0)",
    "ASCII separator between tokens": "(;B[aa]\x1c;W[bb])",
    f"{WIDE} unclosed levels": "(;GM[1]" + "(;B[aa]" * WIDE + ")" * WIDE,
}


@pytest.mark.parametrize("text", READ_BY_THE_FAST_PATH.values(), ids=READ_BY_THE_FAST_PATH)
def test_the_fast_path_reads_what_sgfmill_reads(text):
    assert _read_main_line(text) is not None
    assert_same_as_sgfmill(text)


@pytest.mark.parametrize("text", LEFT_TO_SGFMILL.values(), ids=LEFT_TO_SGFMILL)
def test_anything_unusual_is_left_to_sgfmill(text):
    assert _read_main_line(text) is None
    assert_same_as_sgfmill(text)


def test_variations_are_counted_on_the_main_line_only():
    game = parse_game("(;B[aa](;W[bb])(;W[cc](;B[dd])(;B[ee])(;B[ff]))(;W[gg]))")
    assert game.variations == 2
    assert game.nodes == [{"B": ["aa"]}, {"W": ["bb"]}]


FRAGMENTS = ["(", ")", ";", "(;", "[", "]", "\\", "\\]", "\\\n", "B", "AB", "Add", "c", "[aa]",
             "[]", " ", "\n", "\r\n", "\t", "\v", "é", "\ud800", "\u3000", "#", "x"]


PIECES = ["(;", "(;", ")", ";", "B[aa]", "W[]", "AB[aa][bb]", "C[a\\]b]", "C[x\\\ny]", "C[(;)]",
          "C[\\\\]", "C[\\\\\\]]", "GaMe[1]", "c[x]", "SZ[9]", " ", "\r\n"]


@st.composite
def game_trees(draw):
    """SGF text shaped like a game tree, with fragments spliced in to break it now and then."""
    pieces = draw(st.lists(st.sampled_from(PIECES), max_size=40))
    depth = 1 + pieces.count("(;") - pieces.count(")")
    text = "(;" + "".join(pieces) + ")" * max(depth, 0)
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(FRAGMENTS)) + text[at:]
    return text


@settings(max_examples=400, deadline=None, derandomize=True)
@given(game_trees())
def test_tree_shaped_text_reads_as_sgfmill_reads_it(text):
    assert_same_as_sgfmill(text)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=30).map("".join))
def test_fragment_soup_reads_as_sgfmill_reads_it(text):
    assert_same_as_sgfmill(text)


@pytest.mark.corpus
def test_kgs_dev_games_read_as_sgfmill_reads_them(corpora):
    compared = 0
    with tarfile.open(corpora / "kgs-dev.tar.xz", "r|xz") as archive:
        for member in itertools.islice((m for m in archive if m.isfile()), 2000):
            games, _ = split_games(decode_sgf(archive.extractfile(member).read()).text)
            for game in games:
                assert_same_as_sgfmill(game.text)
                compared += 1
    assert compared >= 2000
