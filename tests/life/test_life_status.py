"""The status layer: groups whose life the rules decide differently, scored per ruleset."""

import numpy as np
import pytest

from positions import named_positions
from rulelab.life import decide_life
from rulelab.life.status import DOUBLE_KO_SEKI, UNMENDED_KO, dead_under, double_ko_stones, open_kos, status_cases
from rulelab.scoring.point_classes import classify_points
from rulelab.pipeline.score import game_status, score_game
from rulelab.position import Position, board_from_diagram
from rulelab.rules import PRESETS

STATUS = named_positions("status")


@pytest.mark.parametrize("name", list(STATUS))
def test_each_case_has_its_kind_and_the_presets_that_call_it_dead(name):
    named = STATUS[name]
    position, life = named.position(), named.life()
    cases = status_cases(position.board, life.dead)
    assert [case.kind for case in cases] == named.settings["status"].split()
    called_dead = {r.name for r in PRESETS.values() for case in cases if r.scoring in case.dead_under}
    assert called_dead == set(named.settings["dead_under"].split())


@pytest.mark.parametrize("name", list(STATUS))
def test_each_preset_counts_the_position_with_its_own_verdict(name):
    named = STATUS[name]
    rows = score_game(named.position(), list(PRESETS.values()), verdict=named.life())
    assert {row["ruleset"]: row["margin_before_komi"] for row in rows} == named.margins()


def test_the_status_effect_is_what_the_ruleset_s_own_verdict_moved():
    named = STATUS["bent_four_with_two_open_kos"]
    position, life = named.position(), named.life()
    own = {row["ruleset"]: row for row in score_game(position, list(PRESETS.values()), verdict=life)}
    common = {row["ruleset"]: row for row in score_game(position, list(PRESETS.values()), verdict=life,
                                                        cases=[])}
    for name, row in own.items():
        assert row["margin"] - row["status_effect"] == common[name]["margin"]
        assert common[name]["status"] is None and common[name]["status_effect"] == 0
    assert own["japanese"]["status"] is None and own["chinese"]["status"] == "bent_four_in_the_corner"
    assert own["chinese"]["status_effect"] == -32


def test_an_unmended_ko_kills_both_sides_under_the_confirmation_only():
    named = STATUS["unmended_ko_in_the_corner"]
    position, life = named.position(), named.life()
    (case,) = status_cases(position.board, life.dead)
    assert case.kind == UNMENDED_KO and case.inside[0, 2] and case.inside.sum() == 1
    territory, area = (dead_under(life.dead, [case], scoring) for scoring in ("territory", "area"))
    assert territory[case.stones].all() and territory[0, 2]
    assert not area[case.stones].any() and area[0, 2]


def test_a_record_that_stopped_early_has_no_status_case():
    named = STATUS["bent_four_with_two_open_kos"]
    position = named.position(ended_by_passes=0)
    rows = score_game(position, list(PRESETS.values()), verdict=named.life())
    assert all(row["status"] is None and row["status_effect"] == 0 for row in rows)


def test_open_kos_are_the_points_where_a_take_is_a_ko():
    # Black takes White's stone at (1,1) from (1,2); White takes a corner stone from
    # (0,0) or (2,0): each capturing stone is left alone with the taken point its liberty.
    board = Position.from_diagram("""
        . X O .
        X O . O
        . X O .
    """).board
    np.testing.assert_array_equal(np.argwhere(open_kos(board)), [[0, 0], [1, 2], [2, 0]])


def test_the_estimator_s_ko_kills_are_cases_though_only_its_playouts_find_them():
    # kgs-dev 2002-03-14-10: the kill needs White to fill Black's outside liberties
    # first, which only a reading given the playouts' seki shares looks at.
    named = named_positions("life")["false_seki_in_the_corner"]
    position = Position.from_diagram(named.diagram.upper(), ended_by_passes=True)
    assert not status_cases(position.board, np.zeros(position.board.shape, bool))
    verdict = decide_life(position)
    (case,) = game_status(position, verdict)
    assert case.kind == "bent_four_in_the_corner" and verdict.dead[case.stones].all()
    assert case.dead_under == ("territory", "area")


# J1989 Art. 8: the counts the hand gives in the files' comments, seki points refused
J1989_POINTS = {"double_ko_seki": (36, 0), "approach_ko_beside_a_double_ko_seki": (46, 36)}


@pytest.mark.parametrize("name", list(J1989_POINTS))
def test_a_double_ko_seki_gives_its_eyes_and_ko_points_to_neither_side_under_j1989(name):
    named = STATUS[name]
    position, life = named.position(), named.life()
    (case,) = [c for c in status_cases(position.board, life.dead) if c.kind == DOUBLE_KO_SEKI]
    assert (classify_points(position, life).seki == case.stones).all()  # the scorer's seki is the case
    japanese = next(row for row in score_game(position, [PRESETS["japanese"]], verdict=life))
    assert (japanese["black_points"], japanese["white_points"]) == J1989_POINTS[name]


@pytest.mark.parametrize("name", list(STATUS))
def test_the_life_table_keeps_the_dead_stones_of_each_preset_whose_verdict_differs(name):
    from rulelab.life.methods import given
    from rulelab.pipeline.score import _own_dead
    from rulelab.scoring import classify_points
    from rulelab.store.life import life_row

    named = STATUS[name]
    position = named.position()
    life = given(position, named.life().dead, "estimate")
    cases, presets = game_status(position, life), list(PRESETS.values())
    row = life_row("g", life, classify_points(position, life), cases, presets, _own_dead(life, cases, presets))
    differing = {r.name for r in presets if not np.array_equal(dead_under(life.dead, cases, r.scoring), life.dead)}
    assert {entry["ruleset"] for entry in row["status_dead"]} == differing
    for entry in row["status_dead"]:
        scoring = PRESETS[entry["ruleset"]].scoring
        assert entry["dead"] == dead_under(life.dead, cases, scoring).astype(np.int8).tobytes()
    assert _own_dead(life, [], presets) == {}  # without a case every preset takes the verdict's


def test_two_kos_in_the_open_are_no_double_ko_seki():
    # kgs-dev 2003-01-13-8, resigned: a ko each side can take, each take leaving a lone
    # stone one liberty, but that liberty is shared with other chains of its colour (a way
    # out), not an eye of its own; read as a seki, it moved the Japanese count by 13
    board = board_from_diagram("""
        . . . . . . .
        . O . O X . .
        . X O . O X .
        . O . O X . X
        . O O X . X .
        . O . O X X .
        . . . . . . .
    """)
    assert open_kos(board).sum() == 2 and not double_ko_stones(board).any()
