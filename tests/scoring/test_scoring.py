"""Counting final positions: named diagrams, each hand-counted under every preset.

The named diagrams live in ``data/positions/scoring.txt``; ``X``/``O`` are living stones
and ``x``/``o`` stones the life verdict calls dead. Each one's comment gives the count by
hand from docs/RULES.md:
``ΔA`` the area margin (dead removed), ``ΔT`` the territory margin with seki points
and owed points refused, ``tax`` the stone-scoring group tax, ``M`` stones placed.
"""

import ast
import inspect
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import ndimage

import rulelab.scoring
import rulelab.scoring.tally as tally
from rulelab.errors import GameError, RulesError
from rulelab.gamegen import random_legal_game
from rulelab.position import BLACK, EMPTY, WHITE, Life, Position, board_to_diagram
from rulelab.read.replay import replay
from rulelab.rules import HANDICAP_CONVENTIONS, PRESETS, get_ruleset
from positions import Named, named_positions
from rulelab.scoring import (
    OPEN_DAME,
    OWED_B,
    OWED_W,
    SEKI_DAME,
    SEKI_POINT_B,
    SEKI_POINT_W,
    TERRITORY_B,
    TERRITORY_W,
    classify_points,
    check_identities,
    life_confirmable,
    score_position,
    score_all,
    ScoreBreakdown,
)

PRESET_ORDER = tuple(PRESETS)


def chain_mask(board, points):
    """The stones of the chains through ``points``."""
    mask = np.zeros(board.shape, bool)
    for colour in (BLACK, WHITE):
        labels, _ = ndimage.label(board == colour)
        for r, c in points:
            if board[r, c] == colour:
                mask |= labels == labels[r, c]
    return mask


def diagram(text, **facts):
    """A position and the verdict its diagram states (lower-case stones dead)."""
    named = Named("diagram", text)
    return named.position(**facts), named.life()


NAMED = named_positions("scoring")
DIAGRAMS = {name: (named.position(), named.life()) for name, named in NAMED.items()}
"""The named diagrams of ``data/positions/scoring.txt``: ``(position, verdict)`` by name."""
EXPECTED_MARGIN_BEFORE_KOMI = {name: named.margins() for name, named in NAMED.items()}
"""``margin_before_komi`` under each preset, counted by hand (the file's comments)."""


def test_every_named_diagram_has_a_margin_under_every_preset():
    assert len(DIAGRAMS) >= 19
    assert all(sorted(margins) == sorted(PRESETS) for margins in EXPECTED_MARGIN_BEFORE_KOMI.values())


def expected_winner(margin, ruleset):
    if margin > 0 or (margin == 0 and PRESETS[ruleset].tie_break == "black"):
        return "B"
    return "W" if margin < 0 else "draw"


@pytest.mark.parametrize("ruleset", PRESET_ORDER)
@pytest.mark.parametrize("name", DIAGRAMS)
def test_margin_under_every_preset(name, ruleset):
    position, life = DIAGRAMS[name]
    b = score_position(position, life, ruleset)
    expected = EXPECTED_MARGIN_BEFORE_KOMI[name][ruleset]
    assert b.margin_before_komi == expected
    assert b.margin == expected - PRESETS[ruleset].komi
    assert b.winner == expected_winner(b.margin, ruleset)


RESULTS = [(name, ruleset, result) for name, named in NAMED.items()
           for ruleset, result in named.results().items()]


@pytest.mark.parametrize("name, ruleset, result", RESULTS)
def test_result_at_the_komi_each_preset_gives_the_game(name, ruleset, result):
    position, life = DIAGRAMS[name]
    b = score_position(position, life, get_ruleset(ruleset).for_game(position.handicap))
    assert (b.winner if b.winner == "draw" else f"{b.winner}+{abs(b.margin):g}") == result


def test_every_preset_states_its_handicap_convention():
    assert sorted(HANDICAP_CONVENTIONS) == sorted(PRESETS)
    assert {name for name, _, _ in RESULTS} and sorted({r for _, r, _ in RESULTS}) == sorted(PRESETS)


@pytest.mark.parametrize("name", DIAGRAMS)
def test_identities_hold_on_every_diagram(name):
    position, life = DIAGRAMS[name]
    scores = {b.ruleset: b for b in score_all(position, life, PRESET_ORDER)}
    for area in ("chinese", "ing", "aga", "nz", "tromp-taylor", "stone-scoring"):
        assert check_identities(position, life, scores[area], scores["japanese"]) == []


def test_score_all_shares_each_analysis_whatever_the_order_of_the_rulesets():
    # Tromp-Taylor keeps the dead stones, the rest remove them: both analyses are kept
    # apart in any order.
    position, life = DIAGRAMS["dead_stone_inside_seki"]
    forward = score_all(position, life, PRESET_ORDER)
    backward = score_all(position, life, PRESET_ORDER[::-1])
    assert forward == backward[::-1]
    assert len({(b.dead_black, b.dead_white) for b in forward}) == 2


def test_one_tally_of_many_positions_counts_each_as_alone():
    # The scores stage tallies a batch of games at once: every row must take its own
    # position's captures, passes, player to move and handicap, and its own ruleset's.
    rulesets = [PRESETS[name].for_game(2) if k % 2 else PRESETS[name]
                for k, name in enumerate(PRESET_ORDER)]
    games = [(replace(position, handicap=k % 3, passes_black=k % 2, to_move=WHITE if k % 2 else BLACK), life)
             for k, (position, life) in enumerate(DIAGRAMS.values())]
    rows = [(position, life, r, r.komi, a) for position, life in games
            for r, a in zip(rulesets, tally.analyses_for(position, life, rulesets))]
    columns = tally.tally(rows)
    together = [ScoreBreakdown(**dict(zip(columns, values))) for values in zip(*columns.values())]
    alone = [b for position, life in games for b in score_all(position, life, rulesets)]
    assert together == alone
    assert len({b.margin for b in together}) > 10


@pytest.mark.parametrize("name, removals", [("dead_stones_in_territory", [False, True]),
                                             ("seki_with_eyes", [False])])
def test_score_all_analyses_once_per_set_of_stones_removed(monkeypatch, name, removals):
    calls = []
    real = tally.point_classes_of
    monkeypatch.setattr(tally, "point_classes_of", lambda *a: calls.append(a[-1]) or real(*a))
    position, life = DIAGRAMS[name]
    score_all(position, life, PRESET_ORDER)
    assert sorted(calls) == removals


# --------------------------------------------------------------------------- seki


def test_seki_eyes_count_under_area_and_not_under_territory():
    position, life = DIAGRAMS["seki_with_eyes"]
    chinese, japanese = score_position(position, life, "chinese"), score_position(position, life, "japanese")
    for b in (chinese, japanese):
        assert (b.black_seki_points, b.white_seki_points, b.seki_dame) == (1, 1, 1)
        assert (b.black_territory, b.white_territory) == (9, 6)
    assert (chinese.black_points, chinese.white_points, chinese.dame) == (23.5, 18.5, 0)
    assert (japanese.black_points, japanese.white_points, japanese.dame) == (9, 6, 1)


def test_seki_is_found_without_the_verdict_marking_it():
    position, life = DIAGRAMS["seki_without_eyes"]
    classes = classify_points(position, life).classes
    assert classes[0, 0] == classes[0, 3] == SEKI_DAME
    assert (classes == SEKI_DAME).sum() == 2


def test_seki_liberties_are_split_by_each_rulesets_convention():
    position, life = DIAGRAMS["seki_without_eyes"]
    scores = {b.ruleset: b for b in score_all(position, life, ["chinese", "ing", "nz"])}
    # Two shared liberties: half each (Chinese), one each (Ing), nobody's (NZ).
    assert (scores["chinese"].black_points, scores["chinese"].white_points) == (26, 9)
    for name, expected in (("ing", (26, 9, 0)), ("nz", (25, 8, 2))):
        b = scores[name]
        assert (b.black_points, b.white_points, b.dame) == expected
    assert (scores["chinese"].black_zi, scores["chinese"].black_zi_after_komi) == (26, 22.25)


def test_ing_tie_with_one_seki_dame_goes_to_black():
    position, life = DIAGRAMS["odd_seki_dame_ing_tie"]
    ing = score_position(position, life, "ing")
    assert (ing.margin, ing.winner) == (0, "B")
    # With one shared point nobody gets it.
    assert (ing.black_points, ing.white_points, ing.dame) == (28, 20, 1)
    assert (ing.black_zi, ing.black_zi_after_komi) == (28, 24.5)
    chinese = score_position(position, life, "chinese")
    assert (chinese.black_points, chinese.white_points, chinese.dame) == (28.5, 20.5, 0)
    assert (chinese.margin, chinese.black_zi, chinese.black_zi_after_komi) == (0.5, 28.5, 24.75)
    # With the same count, komi 8 and a draw on ties would give no winner.
    assert score_position(position, life, get_ruleset("ing", tie_break="draw")).winner == "draw"


def test_dead_stone_inside_seki_is_removed_only_by_area_scoring():
    position, life = DIAGRAMS["dead_stone_inside_seki"]
    chinese, japanese = score_position(position, life, "chinese"), score_position(position, life, "japanese")
    assert (chinese.dead_white, chinese.black_prisoners, chinese.white_stones) == (1, 1, 11)
    assert (japanese.dead_white, japanese.black_prisoners, japanese.white_stones) == (0, 0, 12)
    assert chinese.dead_in_seki_white == japanese.dead_in_seki_white == 1
    assert chinese.black_seki_points == 2


def test_seki_held_by_a_dead_stone_is_found_on_the_board():
    position, life = DIAGRAMS["dead_stone_inside_seki"]
    seki = classify_points(position, life).seki
    assert np.array_equal(seki, chain_mask(position.board, [(0, 2), (0, 4)]))
    assert score_position(position, life, "japanese").dead_in_seki_white == 1


def test_an_eye_whose_chains_are_all_in_atari_is_a_seki_eye():
    position, life = DIAGRAMS["eye_in_atari"]
    points = classify_points(position, life)
    assert points.classes[4, 1] == SEKI_POINT_W
    assert np.array_equal(points.seki, chain_mask(position.board, [(4, 0), (3, 1), (4, 2)]))
    chinese, japanese = score_position(position, life, "chinese"), score_position(position, life, "japanese")
    assert (chinese.white_seki_points, japanese.white_seki_points, japanese.white_territory) == (1, 1, 2)


def test_equal_eyes_sharing_a_fillable_liberty_are_found_in_seki_by_reading():
    position, life = DIAGRAMS["two_point_eyes_sharing_a_liberty"]
    points = classify_points(position, life)
    assert (points.classes[0, :2] == SEKI_POINT_B).all() and (points.classes[0, 7:] == SEKI_POINT_W).all()
    assert points.classes[0, 4] == SEKI_DAME
    assert np.array_equal(points.seki, chain_mask(position.board, [(0, 2), (0, 5)]))
    japanese = score_position(position, life, "japanese")
    assert (japanese.black_territory, japanese.black_seki_points, japanese.white_territory) == (2, 2, 2)


def test_a_group_that_makes_two_eyes_moving_first_is_not_in_seki():
    # Three-point eyes: each side's stone on its own vital point makes two eyes, so
    # neither group needs the other's shortage of liberties; the vital points are owed.
    position, life = diagram("""
        . . . X . O . . .
        X X X X O O O O O
        O O O O X X X X X
        . O . O X . X . X
        O O O O X X X X X
    """)
    points = classify_points(position, life)
    assert not points.seki.any()
    assert (points.classes[0, 1], points.classes[0, 7]) == (OWED_B, OWED_W)
    # Four-point eyes in a row: two eyes whoever moves first, so no seki either.
    position, life = diagram("""
        . . . . X . O . . . .
        X X X X X O O O O O O
        O O O O O X X X X X X
        . O . O O X X . X . X
        O O O O O X X X X X X
    """)
    assert not classify_points(position, life).seki.any()


def test_a_verdict_is_confirmable_unless_a_living_chain_cannot_be_protected():
    assert not life_confirmable(*_board_and_dead("eye_in_atari"))  # (4,1): suicide for White
    for name in ("seki_with_eyes", "dead_stones_in_territory", "false_eye_owed",
                 "escape_needs_a_second_protective_move"):
        assert life_confirmable(*_board_and_dead(name)), name
    # Both Black stones are in atari, and joining them at (0,0) leaves them no liberty:
    # a verdict keeping them alive cannot be upheld, whatever it says of White's.
    position, life = diagram("""
        . X O .
        X O O .
    """)
    assert not life_confirmable(position.board, life.dead)
    assert not life_confirmable(position.board, position.board == WHITE)
    assert life_confirmable(position.board, position.board == BLACK)


def _board_and_dead(name):
    position, life = DIAGRAMS[name]
    return position.board, life.dead


# --------------------------------------------------------------------------- protective moves


def test_false_eye_is_owed_under_territory_scoring():
    position, life = DIAGRAMS["false_eye_owed"]
    classes = classify_points(position, life).classes
    assert classes[2, 2] == OWED_B
    assert (classes == OWED_B).sum() == 1 and (classes == OWED_W).sum() == 0
    japanese = score_position(position, life, "japanese")
    assert (japanese.black_owed, japanese.black_territory, japanese.black_points) == (1, 9, 9)
    # A plain count of the board (Tygem's convention) keeps the point.
    plain = score_position(position, life, get_ruleset("korean", refuse_owed=False))
    assert (plain.black_owed, plain.margin_before_komi) == (1, 1)


def test_a_three_point_eye_with_no_other_liberty_owes_its_vital_point():
    position, life = DIAGRAMS["fillable_dame_beside_a_lone_stone"]
    classes = classify_points(position, life).classes
    assert classes[0, 0] == OPEN_DAME and classes[3, 0] == OWED_B
    assert classes[2, 0] == classes[4, 0] == classes[2, 4] == TERRITORY_B
    # With a second eye the three-point eye needs no protective move.
    open_eye, life = diagram("""
        . X O .
        . X O .
        . X O .
        X X O .
        X . X O
        X X X O
    """)
    assert (classify_points(open_eye, life).classes == OWED_B).sum() == 0


@pytest.mark.parametrize("to_move", [BLACK, WHITE])
def test_filling_an_open_dame_that_ataris_makes_a_point_owed(to_move):
    base, life = DIAGRAMS["atari_after_filling_dame"]
    position = Position.from_diagram(board_to_diagram(base.board), to_move=to_move)
    classes = classify_points(position, life).classes
    assert classes[0, 7] == OWED_W  # "Q19"
    assert classes[0, 5] == OPEN_DAME  # "O19"
    assert (classes == OWED_W).sum() == 1 and (classes == OWED_B).sum() == 0
    japanese = score_position(position, life, "japanese")
    assert (japanese.white_owed, japanese.white_territory, japanese.open_dame) == (1, 5, 1)


def test_protective_move_forced_after_two_dame_is_owed():
    position, life = DIAGRAMS["owed_after_two_dame"]
    classes = classify_points(position, life).classes
    assert classes[4, 2] == OWED_W
    assert classes[3, 4] == classes[2, 5] == OPEN_DAME
    assert (classes == OWED_W).sum() == 1 and (classes == OWED_B).sum() == 0


def test_dame_the_owner_can_fill_itself_owes_nothing():
    position, life = DIAGRAMS["owner_fills_its_own_dame"]
    classes = classify_points(position, life).classes
    assert classes[0, 5] == OPEN_DAME and classes[1, 6] == TERRITORY_W
    assert not np.isin(classes, [OWED_B, OWED_W]).any()


def test_one_connection_that_saves_two_chains_is_owed_once():
    position, life = DIAGRAMS["double_atari_one_escape"]
    classes = classify_points(position, life).classes
    assert classes[0, 3] == OWED_B
    assert (classes == OWED_B).sum() == 1 and (classes == OWED_W).sum() == 0


def test_seki_spreads_to_every_eye_of_the_group():
    position, life = DIAGRAMS["seki_group_shares_an_eye"]
    classes = classify_points(position, life).classes
    assert classes[0, 2] == SEKI_DAME
    assert classes[0, 0] == classes[3, 0] == SEKI_POINT_W
    assert classes[0, 4] == SEKI_POINT_B
    assert (classes == TERRITORY_B).sum() == 4  # the outer Black wall is not in seki


def test_a_group_living_on_its_own_keeps_its_territory_beside_a_seki_eye():
    position, life = DIAGRAMS["living_group_beside_a_seki_eye"]
    classes = classify_points(position, life).classes
    assert classes[0, 0] == SEKI_POINT_W
    assert classes[3, 0] == classes[5, 0] == TERRITORY_W
    assert score_position(position, life, "japanese").white_territory == 2


def test_the_whole_group_reading_of_seki_takes_the_living_groups_territory_too():
    # KGS's count (Ruleset.seki_points='groups'): every eye of the wall joined to the seki
    # stone (0,1) through the shared eye (0,0) is a seki point.
    position, life = DIAGRAMS["living_group_beside_a_seki_eye"]
    by_chains, by_groups = score_all(position, life, ["japanese", get_ruleset("japanese", seki_points="groups")])
    assert (by_chains.white_territory, by_chains.white_seki_points) == (2, 1)
    assert (by_groups.white_territory, by_groups.white_seki_points) == (0, 3)
    assert (by_chains.margin_before_komi, by_groups.margin_before_komi) == (6, 8)
    assert by_groups.black_territory == by_chains.black_territory == 8
    chinese = score_all(position, life, ["chinese", get_ruleset("chinese", seki_points="groups")])
    assert chinese[0].margin_before_komi == chinese[1].margin_before_komi == 5  # area counts seki eyes alike


@pytest.mark.parametrize("name, standing, lifted", [
    ("dead_stone_on_the_connection", -1, 0),  # (0,0) owed only for the standing stone
    ("dead_chain_with_two_liberties_on_the_connection", -3, -1),  # both captures, no connection
])
def test_dead_stones_lifted_before_the_count_owe_nothing_for_their_capture(name, standing, lifted):
    # KGS's count (Ruleset.dead_stones='lifted') removes the dead stones before counting:
    # the captures J1989 owes for them while they stand (Art. 10-1) are territory again.
    position, life = DIAGRAMS[name]
    by_text, by_server = score_all(position, life, ["japanese", get_ruleset("japanese", dead_stones="lifted")])
    assert (by_text.margin_before_komi, by_server.margin_before_komi) == (standing, lifted)
    assert by_server.black_owed == by_text.black_owed - (lifted - standing)
    chinese = score_all(position, life, ["chinese", get_ruleset("chinese", dead_stones="lifted")])
    assert chinese[0].margin_before_komi == chinese[1].margin_before_komi  # area owes nothing anyway


def test_one_region_too_big_to_kill_lets_a_group_live_on_its_own_beside_a_seki_eye():
    position, life = diagram("""
        . O . X . X O
        O X X X X X O
        O O O O O O O
        . . . . . . .
        O O O O O O O
        X X X X X X X
        . . . . . . .
    """)
    classes = classify_points(position, life).classes
    assert classes[0, 0] == SEKI_POINT_W
    assert (classes[3] == TERRITORY_W).all()  # seven points: more than any nakade


def test_open_dame_between_two_live_groups_is_not_seki():
    # Either side can fill each dame safely, although playouts on a record that stops
    # with the dame open may leave both walls touching them.
    position, life = DIAGRAMS["open_dame"]
    a = classify_points(position, life)
    assert not a.seki.any()
    assert (a.classes == OPEN_DAME).sum() == 5
    assert (a.classes == TERRITORY_B).sum() == (a.classes == TERRITORY_W).sum() == 5
    assert not np.isin(a.classes, [SEKI_POINT_B, SEKI_POINT_W, SEKI_DAME]).any()


def test_chain_that_can_connect_through_its_territory_is_not_in_seki_and_owes_the_connection():
    position, life = DIAGRAMS["connect_through_own_territory"]
    classes = classify_points(position, life).classes
    assert classes[0, 5] == classes[0, 6] == OPEN_DAME
    assert not np.isin(classes, [SEKI_DAME, SEKI_POINT_B, SEKI_POINT_W]).any()
    assert np.argwhere(classes == OWED_B).tolist() == [[0, 2]]
    assert np.argwhere(classes == OWED_W).tolist() == [[2, 6]]
    japanese = score_position(position, life, "japanese")
    assert (japanese.black_territory, japanese.white_territory) == (2, 7)


def test_a_dead_stone_standing_on_a_connection_is_captured_first_and_both_moves_are_owed():
    # Lifting the dead stone first owed only the connection (1,0): J1989 -1 would be 0.
    position, life = DIAGRAMS["dead_stone_on_the_connection"]
    classes = classify_points(position, life).classes
    assert np.argwhere(classes == OWED_B).tolist() == [[0, 0], [1, 0]]
    assert (classes == OWED_W).sum() == 0
    japanese = score_position(position, life, "japanese")
    assert (japanese.black_owed, japanese.black_territory, japanese.margin_before_komi) == (2, 6, -1)


def test_a_dead_chain_that_shortens_a_chain_once_the_dame_are_filled_owes_its_capture():
    # With the dead chain lifted the filled chain keeps two liberties and owes nothing.
    position, life = DIAGRAMS["dead_chain_with_two_liberties_on_the_connection"]
    classes = classify_points(position, life).classes
    assert np.argwhere(classes == OWED_B).tolist() == [[0, 0], [0, 1]]
    assert score_position(position, life, "japanese").margin_before_komi == -3


def test_a_chain_in_atari_among_dead_stones_as_the_board_stands_is_left_to_the_verdict():
    # (2,5) is short of liberties before any dame is filled: confirmation's business
    # (life_confirmable), as the count of the board as it stands always left it.
    named = named_positions("finish")["lone_stone_among_dead_stones_is_no_ko"]
    classes = classify_points(named.position(), named.life()).classes
    assert not np.isin(classes, [OWED_B, OWED_W]).any()


def test_a_dame_whose_fill_leaves_live_stones_in_atari_with_no_escape_is_a_seki_liberty():
    position, life = DIAGRAMS["seki_by_unescapable_atari"]
    classes = classify_points(position, life).classes
    assert classes[4, 5] == SEKI_DAME
    assert classes[5, 6] == SEKI_POINT_B and classes[4, 3] == classes[5, 3] == SEKI_POINT_W
    assert classes[0, 0] == classes[0, 2] == TERRITORY_B
    assert score_position(position, life, get_ruleset("japanese").with_komi(0)).margin == 2


def test_an_escape_that_needs_a_second_protective_move_owes_both_and_makes_no_seki():
    position, life = DIAGRAMS["escape_needs_a_second_protective_move"]
    classes = classify_points(position, life).classes
    assert classes[1, 3] == OPEN_DAME
    assert np.argwhere(classes == OWED_W).tolist() == [[2, 5], [4, 5]]
    assert not np.isin(classes, [SEKI_DAME, SEKI_POINT_B, SEKI_POINT_W, OWED_B]).any()
    japanese = score_position(position, life, "japanese")
    assert (japanese.black_territory, japanese.white_territory, japanese.white_owed) == (3, 2, 2)


def test_stones_whose_last_liberty_after_a_fill_is_a_dame_make_no_seki():
    # Black filling (3,5) leaves White's two stones in atari on the dame (4,5), not on
    # an eye: the players left them on the board (kgs-dev 2017-03-13-3), and the dame
    # stay open; Black's group keeps its territory.
    position = Position.from_diagram("""
        . X . X X X
        X X X X X X
        X X X X X X
        X X X X O .
        X X X X O .
        X X X X X X
    """)
    life = Life.all_alive(position.board)
    classes = classify_points(position, life).classes
    assert classes[3, 5] == classes[4, 5] == OPEN_DAME
    assert classes[0, 0] == classes[0, 2] == TERRITORY_B
    assert score_position(position, life, get_ruleset("japanese").with_komi(0)).margin == 2


def test_open_dame_between_solid_walls_owe_nothing():
    position, life = DIAGRAMS["open_dame"]
    a = classify_points(position, life)
    assert (a.classes == OPEN_DAME).sum() == 5
    assert (a.classes == TERRITORY_B).sum() == 5
    assert not np.isin(a.classes, [OWED_B, OWED_W, SEKI_POINT_B, SEKI_POINT_W, SEKI_DAME]).any()


# --------------------------------------------------------------------------- dame, last mover, komi


def test_chinese_gives_each_side_half_of_an_open_dame_as_art_9_says():
    position, life = DIAGRAMS["one_open_dame_19x19"]
    scores = {b.ruleset: b for b in score_all(position, life, ["chinese", "chinese-1988", "nz"])}
    chinese, old, nz = scores["chinese"], scores["chinese-1988"], scores["nz"]
    assert (chinese.black_points, chinese.white_points, chinese.dame) == (184.5, 176.5, 0)
    assert (chinese.black_shared, chinese.white_shared, chinese.open_dame) == (0.5, 0.5, 1)
    # Raw zi against the texts' thresholds: 184¼ with 3¾ zi komi, 183¼ with 2¾.
    assert chinese.black_zi == old.black_zi == 184.5
    assert (chinese.margin, chinese.black_zi_after_komi) == (0.5, 184.5 - 3.75)
    assert (old.margin, old.black_zi_after_komi) == (2.5, 184.5 - 2.75)
    # The margin is the one a count leaving the dame to nobody gives.
    assert (nz.black_points, nz.white_points, nz.dame) == (184, 176, 1)
    assert chinese.margin_before_komi == nz.margin_before_komi == 8


@pytest.mark.parametrize("to_move", [BLACK, WHITE])
def test_chinese_halves_only_the_dame_left_after_alternate_filling(to_move):
    base, life = DIAGRAMS["open_dame"]
    position = Position.from_diagram(board_to_diagram(base.board), to_move=to_move)
    art_9 = score_position(position, life, "chinese")
    assert (art_9.black_shared, art_9.white_shared, art_9.dame) == (2.5, 2.5, 0)
    alternate = score_position(position, life, get_ruleset("chinese", dame_policy="alternate"))
    assert (alternate.black_shared, alternate.white_shared, alternate.dame) == (0, 0, 0)


def test_chinese_zi_after_komi_gives_back_the_handicap_compensation():
    position, life = DIAGRAMS["handicap_two_stones"]
    chinese = score_position(position, life, "chinese")
    assert chinese.handicap_bonus == 2
    assert chinese.black_zi_after_komi == chinese.black_zi - (7.5 + 2) / 2


@pytest.mark.parametrize("to_move, expected", [(BLACK, 1), (WHITE, -1)])
def test_alternate_dame_policy_starts_with_the_player_to_move(to_move, expected):
    base, life = DIAGRAMS["open_dame"]
    position = Position.from_diagram(board_to_diagram(base.board), to_move=to_move)
    alternate = score_position(position, life, get_ruleset("chinese", dame_policy="alternate"))
    assert alternate.margin_before_komi == expected
    assert (alternate.black_dame_filled + alternate.white_dame_filled, alternate.dame) == (5, 0)
    assert alternate.dame_policy == "alternate"
    none = score_position(position, life, "nz")
    assert (none.margin_before_komi, none.dame, none.open_dame) == (0, 5, 5)
    # Territory scoring never counts dame, whatever the policy.
    assert score_position(position, life, get_ruleset("japanese", dame_policy="alternate")).margin_before_komi == 0


def test_japanese_and_chinese_disagree_only_when_white_placed_last_at_margin_7():
    for name, japanese_winner in (("margin_7_black_placed_last", "W"),
                                  ("margin_7_white_placed_last", "B")):
        position, life = DIAGRAMS[name]
        assert score_position(position, life, "japanese").winner == japanese_winner
        assert score_position(position, life, "chinese").winner == "W"
        assert score_position(position, life, "nz").winner == "draw"  # komi 7 at margin 7


def test_handicap_compensation_per_ruleset():
    position, life = DIAGRAMS["handicap_two_stones"]
    bonus = {b.ruleset: b.handicap_bonus for b in score_all(position, life, PRESET_ORDER)}
    assert bonus == {"chinese": 2, "chinese-1988": 2, "japanese": 0, "korean": 0, "ing": 0,
                     "aga": 1, "nz": 0, "tromp-taylor": 0, "stone-scoring": 0}
    ing_n = score_position(position, life, get_ruleset("ing", handicap_bonus="N"), komi=0.5)
    assert (ing_n.handicap_bonus, ing_n.margin, ing_n.white_points) == (2, 4.5, 16)


def test_komi_argument_overrides_the_rulesets():
    position, life = DIAGRAMS["margin_7_white_placed_last"]
    b = score_position(position, life, "chinese", komi=-2)
    assert (b.komi, b.margin, b.winner) == (-2, 9, "B")


def test_pass_stones_count_only_under_territory_scoring():
    position, life = diagram(
        """
        . . . X O . .
        . . . X O . .
        . . . X O . .
        . . . X O . .
        . . . X X O .
        """,
        passes_black=1,
    )
    aga = score_position(position, life, "aga")
    assert (aga.pass_stones_black, aga.pass_stones_white, aga.margin_before_komi) == (1, 0, 7)
    aga_territory = score_position(position, life, get_ruleset("aga", scoring="territory"))
    assert aga_territory.margin_before_komi == 6 - 1  # ΔT, less White's pass stone
    assert score_position(position, life, "japanese").pass_stones_black == 0


def test_tromp_taylor_removes_nothing():
    position, life = DIAGRAMS["dead_stones_in_territory"]
    tt, chinese = score_position(position, life, "tromp-taylor"), score_position(position, life, "chinese")
    assert (tt.dead_black, tt.dead_white, tt.black_stones, tt.white_stones) == (0, 0, 6, 6)
    assert (chinese.dead_black, chinese.dead_white, chinese.black_prisoners) == (1, 1, 1)


def test_stone_scoring_taxes_each_living_group():
    position, life = DIAGRAMS["stone_scoring_group_tax"]
    b = score_position(position, life, "stone-scoring")
    assert (b.black_group_tax, b.white_group_tax) == (4, 2)
    assert (b.black_points, b.white_points) == (16, 13)
    assert score_position(position, life, "chinese").black_group_tax == 0


def test_empty_board_is_all_dame():
    position = Position(board=np.zeros((9, 9), np.int8), captured_black=0, captured_white=0,
                        placed_black=0, placed_white=0)
    b = score_position(position, Life.all_alive(position.board), "tromp-taylor")
    assert (b.margin_before_komi, b.dame, b.open_dame) == (0, 81, 81)


# --------------------------------------------------------------------------- the record


REQUIRED_COLUMNS = {
    "ruleset", "komi", "scoring", "black_stones", "white_stones", "black_territory",
    "white_territory", "black_prisoners", "white_prisoners", "black_seki_points",
    "white_seki_points", "black_owed", "white_owed", "black_group_tax", "white_group_tax",
    "pass_stones_black", "pass_stones_white", "handicap_bonus", "dame", "dead_black",
    "dead_white", "black_points", "white_points", "margin_before_komi", "margin", "winner",
    "black_zi", "black_zi_after_komi", "area_margin", "territory_margin", "dame_policy", "life_method",
    "life_confidence", "finished",
}


def test_record_has_the_table_columns_as_plain_values():
    position, life = DIAGRAMS["dead_stone_inside_seki"]
    for b in score_all(position, life, PRESET_ORDER):
        record = b.to_record()
        assert REQUIRED_COLUMNS <= set(record)
        assert all(type(v) in (int, float, str, bool, type(None)) for v in record.values())
        assert (record["black_zi"] is None) == (b.scoring == "territory")
        assert record["life_method"] == "markup"


def test_every_breakdown_field_is_documented():
    tree = ast.parse(inspect.getsource(rulelab.scoring.ScoreBreakdown))
    body = tree.body[0].body
    for statement, following in zip(body, body[1:] + [None]):
        if isinstance(statement, ast.AnnAssign):
            name = statement.target.id
            assert isinstance(following, ast.Expr), f"field {name} has no docstring"
            assert isinstance(following.value.value, str), f"field {name} has no docstring"


# --------------------------------------------------------------------------- validation


def test_impossible_komi_is_refused():
    position, life = DIAGRAMS["open_dame"]
    with pytest.raises(RulesError, match="multiple of 0.5; got 7.3"):
        score_position(position, life, "chinese", komi=7.3)
    with pytest.raises(RulesError, match="must not exceed the 25 points"):
        score_position(position, life, "chinese", komi=26)


def test_presets_score_boards_smaller_than_their_komi():
    position = Position.from_diagram("""
        X .
        . O
    """)
    result = score_position(position, Life.all_alive(position.board), "chinese")
    assert (result.komi, result.margin, result.winner) == (7.5, -7.5, "W")


def test_bad_arguments_are_refused():
    position, life = DIAGRAMS["open_dame"]
    with pytest.raises(RulesError, match="Unknown ruleset"):
        score_position(position, life, "chinese-2020")
    with pytest.raises(RulesError, match="must be a Ruleset"):
        score_position(position, life, 7.5)
    wrong = Life.all_alive(np.zeros((4, 4), np.int8))
    with pytest.raises(GameError, match="Life.dead has shape"):
        score_position(position, wrong, "chinese")
    bad = Position(board=np.full((3, 3), 5, np.int8), captured_black=0, captured_white=0,
                   placed_black=0, placed_white=0)
    with pytest.raises(GameError, match="only 0"):
        score_position(bad, Life.all_alive(bad.board), "chinese")


def test_identity_check_reports_an_inconsistent_history():
    position, life = DIAGRAMS["margin_7_black_placed_last"]
    lying = Position(board=position.board, captured_black=0, captured_white=0,
                     placed_black=9, placed_white=5)
    chinese, japanese = score_position(lying, life, "chinese"), score_position(lying, life, "japanese")
    problems = check_identities(lying, life, chinese, japanese)
    assert any("area_margin - territory_margin" in p for p in problems)


# --------------------------------------------------------------------------- random games


def random_verdict(board, seed):
    """A verdict calling a random subset of chains dead: the identities must hold
    whatever the verdict says."""
    rng = np.random.default_rng(seed)
    dead = np.zeros(board.shape, bool)
    for colour in (BLACK, WHITE):
        labels, n = ndimage.label(board == colour)
        fate = rng.integers(0, 4, size=n + 1)  # 0: dead, else alive
        dead |= (labels > 0) & (fate[labels] == 0)
    return Life(dead=dead, method="estimate", confidence=0.5)


@settings(max_examples=200, deadline=None)
@given(
    size=st.sampled_from([(5, 5), (7, 7), (9, 9), (9, 13), (13, 13), (19, 19)]),
    n_moves=st.integers(0, 400),
    seed=st.integers(0, 2**32),
    handicap=st.sampled_from([0, 0, 2, 5]),
    to_move=st.sampled_from([BLACK, WHITE]),
    policy=st.sampled_from(["none", "alternate"]),
)
def test_identity_and_parity_on_random_legal_games(size, n_moves, seed, handicap, to_move, policy):
    rows, cols = size
    events = random_legal_game(rows, cols, n_moves, seed)
    position = replay(rows, cols, events, handicap=handicap).position
    position = replace(position, to_move=to_move)
    for life in (Life.all_alive(position.board), random_verdict(position.board, seed)):
        rulesets = [get_ruleset(name, dame_policy=policy) for name in PRESET_ORDER]
        scores = {b.ruleset: b for b in score_all(position, life, rulesets)}
        for area in ("chinese", "ing", "aga", "nz", "tromp-taylor", "stone-scoring"):
            for territory in ("japanese", "korean"):
                assert check_identities(position, life, scores[area], scores[territory]) == []
        chinese = scores["chinese"]
        unshared = chinese.seki_dame + chinese.open_dame
        assert (rows * cols - unshared - chinese.area_margin) % 2 == 0  # ΔA ≡ N - D (mod 2)


SWAPPED_CLASS = np.array([OPEN_DAME, 2, 1, TERRITORY_W, TERRITORY_B, SEKI_POINT_W, SEKI_POINT_B,
                          OWED_W, OWED_B, SEKI_DAME])


@settings(max_examples=100, deadline=None)
@given(
    size=st.sampled_from([(7, 7), (9, 9), (13, 13), (19, 19)]),
    n_moves=st.integers(20, 400),
    seed=st.integers(0, 2**32),
)
def test_analysis_does_not_favour_a_colour(size, n_moves, seed):
    rows, cols = size
    board = replay(rows, cols, random_legal_game(rows, cols, n_moves, seed)).position.board
    swapped = np.where(board == EMPTY, EMPTY, 3 - board).astype(np.int8)
    life = random_verdict(board, seed)
    a = classify_points(Position.from_diagram(board_to_diagram(board)), life)
    b = classify_points(Position.from_diagram(board_to_diagram(swapped)), life)
    assert (SWAPPED_CLASS[a.classes] == b.classes).all()
    assert (a.tax_black, a.dead_in_seki_black) == (b.tax_white, b.dead_in_seki_white)


# --------------------------------------------------------------------------- real games

RULES_OF_RECORD = {"japanese": "japanese", "chinese": "chinese", "aga": "aga", "nz": "nz"}


def kgs_counted_games_with_markup(corpora):
    """(position, verdict, ruleset, komi, recorded margin) of each 2017 KGS game counted
    with a numeric result; the dead stones are those the players' TB/TW marks cover."""
    import re
    import tarfile

    from rulelab.read.sgf import game_events, parse_game, territory_marks

    result = re.compile(r"^([BW])\+(\d+(?:\.\d+)?)$")
    with tarfile.open(corpora / "kgs-dev.tar.xz", "r|xz") as tar:
        for member in tar:
            if not (member.isfile() and "2017" in member.name and member.name.endswith(".sgf")):
                continue
            game = parse_game(tar.extractfile(member).read().decode("utf-8"))
            found = result.match(game.root.get("RE", [""])[0])
            rules = RULES_OF_RECORD.get(game.root.get("RU", [""])[0].lower())
            marks = territory_marks(game)
            if not found or rules is None or marks is None:
                continue
            rows, cols = game.size
            handicap = int(game.root.get("HA", ["0"])[0] or 0)
            position = replay(rows, cols, game_events(game), handicap=handicap).position
            board = position.board
            dead = ((marks == BLACK) & (board == WHITE)) | ((marks == WHITE) & (board == BLACK))
            life = Life(dead=dead, method="markup")
            margin = float(found.group(2)) * (1 if found.group(1) == "B" else -1)
            yield member.name, position, life, rules, float(game.root["KM"][0]), margin


@pytest.mark.corpus
@pytest.mark.slow
def test_counts_agree_with_kgs_on_games_the_players_marked(corpora):
    agree, disagree = 0, []
    for name, position, life, rules, komi, recorded in kgs_counted_games_with_markup(corpora):
        scores = score_all(position, life, ["chinese", rules, "japanese"], komi=komi)
        assert check_identities(position, life, scores[0], scores[2]) == [], name
        if scores[1].margin == recorded:
            agree += 1
        else:
            disagree.append((name, recorded, scores[1].margin))
    assert agree + len(disagree) == 400  # 278 Japanese, 120 Chinese, 2 AGA (MANIFEST)
    # Left over: 2017-01-31-2, counted with most of the board unsettled; 2017-02-13-1,
    # whose marks leave out an eye of stones White could capture with a double atari
    # the players ignored; 2017-02-20-1, whose result differs by 3 from the count of
    # its own marks.
    assert len(disagree) <= 3, disagree
