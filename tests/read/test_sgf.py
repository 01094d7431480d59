"""Splitting files into games, parsing the main line, and reading setup, moves and markup."""

import tarfile

import numpy as np
import pytest

from rulelab.errors import GameError, ParseError
from rulelab.position import BLACK, EMPTY, WHITE, board_from_diagram
from rulelab.read.decoding import decode_sgf
from rulelab.read.sgf import (
    MOVE,
    PASS,
    SETUP_ADD,
    SETUP_EMPTY,
    GameText,
    content_hash,
    game_events,
    parse_game,
    split_games,
    territory_marks,
)


def events(sgf: str) -> list[list[int]]:
    return game_events(parse_game(sgf)).tolist()


# --- split_games -------------------------------------------------------------------


def test_a_tygem_style_file_splits_into_its_games_with_offsets():
    text = "(;GM[1]PB[a];B[aa])\n(;GM[1]PB[b];B[bb])\n(;GM[1]PB[c];B[cc])\n"
    games, warnings = split_games(text)
    assert [g.index for g in games] == [0, 1, 2]
    assert [text[g.offset:g.offset + len(g.text)] for g in games] == [g.text for g in games]
    assert games[1] == GameText(1, "(;GM[1]PB[b];B[bb])", 20)
    assert warnings == []


def test_brackets_and_parentheses_inside_values_do_not_split_games():
    text = r"(;C[a (;fake) game \] [still] comment]B[aa](;W[bb]C[:-)])(;W[cc]))(;B[dd])"
    games, _ = split_games(text)
    assert [g.text for g in games] == [text[:-8], "(;B[dd])"]


def test_text_outside_game_trees_is_skipped_with_a_warning():
    games, warnings = split_games("Game list (2005)\n(;B[aa]))\nthe end\n")
    assert [g.text for g in games] == ["(;B[aa])"]
    assert warnings == [
        "skipped 17 characters outside game trees at offset 0",
        "skipped 10 characters outside game trees at offset 25",
    ]


@pytest.mark.parametrize("text", ["", "   \n", "no games here", "(not a game)", "B[aa];W[bb])"])
def test_text_with_no_game_tree_is_a_parse_error(text):
    with pytest.raises(ParseError, match="no SGF game tree"):
        split_games(text)


def test_a_game_that_never_closes_is_cut_at_the_next_game_and_the_rest_survive():
    text = "(;GM[1];B[aa];W[bb]\n(;GM[1];B[cc])\n(;GM[1];B[dd])"
    games, warnings = split_games(text)
    assert [g.text for g in games] == ["(;GM[1];B[aa];W[bb]\n", "(;GM[1];B[cc])", "(;GM[1];B[dd])"]
    assert "game 0 at offset 0: game tree is not closed (1 ')' missing)" in warnings[0]
    with pytest.raises(ParseError, match="not closed after node 2: the record looks truncated"):
        parse_game(games[0].text)
    assert events(games[2].text) == [[MOVE, BLACK, 3, 3]]


def test_a_game_that_never_closes_on_a_one_line_collection_costs_only_itself():
    games = [f"(;GM[1]SZ[9]PB[p{n}];B[ee];W[cc])" for n in range(50)]
    games[1] = games[1][:-1]
    split, warnings = split_games("".join(games))
    assert [game.text for game in split] == games
    assert "game 1 at offset 31: game tree is not closed (1 ')' missing); cut at offset 61" in warnings


def test_a_value_that_runs_to_the_end_of_the_file_is_a_parse_error():
    games, warnings = split_games("(;GM[1];B[aa];W[b")
    assert "value opened at offset 15 is never closed" in warnings[0]
    with pytest.raises(ParseError, match="value opened at character 15 .node 2. is never closed"):
        parse_game(games[0].text)


def test_a_file_missing_its_opening_parenthesis_is_one_game():
    # Fox: some files start with ';' and end with the tree's ')'.
    games, warnings = split_games(";GM[1]SZ[19];B[pd];W[dd]  (;B[pp])(;B[dp]))")
    assert len(games) == 1 and games[0].text.startswith("(;GM[1]")
    assert warnings == ["game 0 at offset 0: the opening '(' is missing; added"]
    assert events(games[0].text) == [[MOVE, BLACK, 3, 15], [MOVE, WHITE, 3, 3], [MOVE, BLACK, 15, 15]]


def test_a_hundred_thousand_nested_variations_split_and_parse_without_recursion():
    depth = 100_000
    text = "(;SZ[19]" + "(;B[aa];W[]" * depth + ")" * (depth + 1)
    games, _ = split_games(text)
    assert len(games) == 1
    game = parse_game(games[0].text)
    assert len(game.nodes) == 2 * depth + 1 and game.variations == 0
    assert game_events(game).shape == (2 * depth, 4)


# --- parse_game --------------------------------------------------------------------


def test_root_values_are_text_and_node_values_have_escapes_resolved():
    game = parse_game("(;GM[1]PB[Honinbo\\] Shusaku]C[line one\\\nstill one\r\nline two\ttab]"
                      ";B[pd]C[a\\\\b \\: c])")
    assert game.root["PB"] == ["Honinbo] Shusaku"]
    assert game.root["C"] == ["line onestill one\nline two tab"]
    assert game.nodes[1] == {"B": ["pd"], "C": ["a\\b : c"]}


def test_the_main_line_follows_first_variations_and_counts_the_others():
    game = parse_game("(;SZ[9];B[ee](;W[cc](;B[gg])(;B[gc])(;B[cg]))(;W[gg])(;W[dd]))")
    assert [node for node in game.nodes[1:]] == [{"B": ["ee"]}, {"W": ["cc"]}, {"B": ["gg"]}]
    assert game.variations == 4


def test_old_long_lowercase_property_names_read_as_short_ones():
    game = parse_game("(;GaMe[1]SiZe[9]AddBlack[aa][bb];Black[cc];White[dd])")
    assert game.size == (9, 9) and game.root["AB"] == ["aa", "bb"]
    assert events("(;AddBlack[aa];Black[cc];White[])") == [
        [SETUP_ADD, BLACK, 0, 0], [MOVE, BLACK, 2, 2], [MOVE, WHITE, PASS, PASS],
    ]


def test_an_mgt_record_with_no_size_a_line_broken_move_and_a_stray_parenthesis():
    # As in goban-original-games' hon-50-2.mgt (FF[3], no SZ, 'W[oq\r\n]', '))').
    text = "\n\n(;EV[5th Honinbo]PB[Hashimoto Utaro]BR[8 \ndan]RE[B+2.5]FF[3];B[qd];W[oq\r\n];B[co]))\n"
    games, warnings = split_games(text)
    game = parse_game(games[0].text)
    assert game.size == (19, 19) and game.root["BR"] == ["8 \ndan"]
    assert game_events(game).tolist() == [[MOVE, BLACK, 3, 16], [MOVE, WHITE, 16, 14], [MOVE, BLACK, 14, 2]]
    assert warnings == ["skipped 2 characters outside game trees at offset 83"]


@pytest.mark.parametrize(
    ("sz", "size"),
    [(None, (19, 19)), ("19", (19, 19)), ("9", (9, 9)), ("2", (2, 2)), ("25", (25, 25)),
     ("19:13", (13, 19)), ("5:25", (25, 5)), (" 13 ", (13, 13))],
)
def test_board_sizes(sz, size):
    root = "" if sz is None else f"SZ[{sz}]"
    assert parse_game(f"(;{root})").size == size


@pytest.mark.parametrize("sz", ["53", "0", "-9", "19:0", "19:53", "0:7", "abc", "9:9:9", ""])
def test_unusable_board_sizes_are_game_errors(sz):
    with pytest.raises(GameError, match=r"SZ\["):
        parse_game(f"(;SZ[{sz}])")


def test_a_record_of_another_game_is_a_game_error():
    with pytest.raises(GameError, match=r"GM\[2\] is not a game of Go"):
        parse_game("(;GM[2];B[aa])")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("(;GM[1];B[aa]x1;W[bb])", "cannot read '1;W\\[bb\\]\\)' at character 14 .node 1."),
        ("(;C[see [1]] here];B[aa])", "cannot read '\\] here\\];B\\[aa\\]\\)' at character 11 .node 0."),
        ("(;GM[1](B[aa]))", "property value outside a node at node 0"),
        ("(;GM[1];[aa])", "unexpected value at node 1"),
        ("(;GM[1];B;W[aa])", "property with no values at node 1"),
        ("(;GM[1]())", "empty sequence at node 0"),
        ("(;GM[1];B[aa]", "not closed after node 1"),
    ],
)
def test_parse_errors_say_what_and_where(text, message):
    with pytest.raises(ParseError, match=message):
        parse_game(text)


def test_parse_game_needs_text():
    with pytest.raises(ParseError, match="needs str"):
        parse_game(b"(;B[aa])")


# --- game_events -------------------------------------------------------------------


def test_fox_handicap_stones_in_the_second_node_are_setup_events():
    assert events("(;GM[1]HA[2];AB[pd][dp];W[dd])") == [
        [SETUP_ADD, BLACK, 3, 15], [SETUP_ADD, BLACK, 15, 3], [MOVE, WHITE, 3, 3],
    ]


def test_compressed_point_lists_expand_row_by_row():
    assert events("(;SZ[5]AW[ba:cb]AE[ee])") == [
        [SETUP_EMPTY, EMPTY, 4, 4],
        [SETUP_ADD, WHITE, 0, 1], [SETUP_ADD, WHITE, 0, 2], [SETUP_ADD, WHITE, 1, 1], [SETUP_ADD, WHITE, 1, 2],
    ]


def test_setup_comes_before_the_move_in_one_node_and_black_before_white():
    assert events("(;SZ[9];W[ee]AB[aa]AE[bb]B[cc])") == [
        [SETUP_EMPTY, EMPTY, 1, 1], [SETUP_ADD, BLACK, 0, 0], [MOVE, BLACK, 2, 2], [MOVE, WHITE, 4, 4],
    ]


@pytest.mark.parametrize("size", [9, 13, 19])
def test_passes_are_empty_or_tt_up_to_nineteen(size):
    assert events(f"(;SZ[{size}];B[];W[tt];B[ ])") == [[MOVE, BLACK, PASS, PASS], [MOVE, WHITE, PASS, PASS]] + [
        [MOVE, BLACK, PASS, PASS]
    ]


def test_tt_is_a_point_on_boards_larger_than_nineteen():
    assert events("(;SZ[21];B[tt])") == [[MOVE, BLACK, 19, 19]]


def test_lines_past_twenty_six_are_capital_letters_up_to_fifty_two():
    assert events("(;SZ[52];B[zA];W[Az];B[ZZ];W[aZ];B[])") == [
        [MOVE, BLACK, 26, 25], [MOVE, WHITE, 25, 26], [MOVE, BLACK, 51, 51], [MOVE, WHITE, 51, 0],
        [MOVE, BLACK, PASS, PASS]]
    assert events("(;SZ[37]AB[AA:AK])") == [[SETUP_ADD, BLACK, row, 26] for row in range(26, 37)]
    with pytest.raises(GameError, match=r"B\[LK\] is not a point of the 37x37 board"):
        events("(;SZ[37];B[KK];B[LK])")


@pytest.mark.parametrize(("sz", "size"), [("1", (1, 1)), ("52", (52, 52)), ("7:1", (1, 7)), ("1:7", (7, 1)),
                                          ("52:2", (2, 52)), ("1:1", (1, 1))])
def test_every_board_sgf_allows_is_read(sz, size):
    assert parse_game(f"(;SZ[{sz}])").size == size


def test_a_one_point_wide_board_reads_its_points_and_passes():
    assert events("(;SZ[7:1];B[ca];W[aa];B[ga];W[];B[tt])") == [
        [MOVE, BLACK, 0, 2], [MOVE, WHITE, 0, 0], [MOVE, BLACK, 0, 6], [MOVE, WHITE, PASS, PASS],
        [MOVE, BLACK, PASS, PASS]]
    with pytest.raises(GameError, match=r"B\[ab\] is not a point of the 7x1 board"):
        events("(;SZ[7:1];B[ab])")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("(;SZ[9];B[aa];W[jj])", r"move 2 \(main-line node 2\): W\[jj\] is not a point of the 9x9 board"),
        ("(;SZ[19:13];B[an])", r"move 1 \(main-line node 1\): B\[an\] is not a point of the 19x13 board"),
        ("(;SZ[21];B[uu];W[vv])", r"W\[vv\] is not a point of the 21x21 board"),
        ("(;SZ[9];B[A1])", r"B\[A1\] is not a point"),
        ("(;SZ[9]AB[aa:zz])", r"main-line node 0: AB\[aa:zz\] is not a point or rectangle"),
        ("(;SZ[9];AW[a])", r"main-line node 1: AW\[a\] is not a point"),
        ("(;SZ[9];AB[tt])", r"main-line node 1: AB\[tt\] is not a point"),
    ],
)
def test_points_off_the_board_are_game_errors(text, message):
    with pytest.raises(GameError, match=message):
        events(text)


def test_a_game_without_moves_has_no_events():
    result = game_events(parse_game("(;GM[1]AB[])"))
    assert result.dtype == np.int16 and result.shape == (0, 4)


# --- territory_marks and content_hash ----------------------------------------------


def test_territory_marks_come_from_the_last_node_that_has_them():
    game = parse_game("(;SZ[3]TB[aa];B[bb];TB[aa:ac]TW[cc]C[final];W[])")
    expected = board_from_diagram("""
        X . .
        X . .
        X . O
    """)
    marks = territory_marks(game)
    assert marks.dtype == np.int8 and np.array_equal(marks, expected)


def test_no_markup_means_no_territory_marks():
    assert territory_marks(parse_game("(;SZ[9];B[aa])")) is None


def test_markup_off_the_board_is_a_game_error():
    with pytest.raises(GameError, match=r"main-line node 1: TW\[zz\]"):
        territory_marks(parse_game("(;SZ[9];TW[zz])"))


def test_the_same_game_from_two_places_has_one_hash():
    compact = "(;GM[1]FF[4]SZ[19]PB[Lee Sedol];B[pd];W[dd];B[])"
    spread = "(\n ;GM[1]\n SZ[19]\n PB[Lee\n Sedol]\n CA[UTF-8]\n ;B[pd]\n ;W[dd] C[comment]\n ;B[tt]\n)"
    assert content_hash(parse_game(compact)) == content_hash(parse_game(spread))


@pytest.mark.parametrize("other", ["(;SZ[19];B[cc];W[dc])", "(;SZ[13];B[cc];W[dd])", "(;SZ[19]AB[cc];W[dd])"])
def test_another_game_has_another_hash(other):
    assert content_hash(parse_game("(;SZ[19];B[cc];W[dd])")) != content_hash(parse_game(other))


# --- docstring examples ------------------------------------------------------------


# --- the development corpus --------------------------------------------------------


@pytest.mark.slow
@pytest.mark.corpus
def test_every_kgs_dev_game_parses(corpora):
    games = 0
    with tarfile.open(corpora / "kgs-dev.tar.xz", "r|xz") as archive:
        for member in archive:
            if not member.name.lower().endswith(".sgf"):
                continue
            text = decode_sgf(archive.extractfile(member).read()).text
            for game_text in split_games(text)[0]:
                game = parse_game(game_text.text)
                assert game.size == (19, 19)
                game_events(game)
                games += 1
    assert games == 15_501


def test_escaped_brackets_count_against_the_values_budget():
    from rulelab.read.sgf.parse import MAX_VALUES

    with pytest.raises(GameError, match="property values .or escaped brackets in them."):
        parse_game("(;GM[1]C[" + "\\]" * (MAX_VALUES + 1) + "];B[aa])")
    assert parse_game("(;GM[1]C[" + "\\]" * 1000 + "];B[aa])").root["C"] == ["]" * 1000]
