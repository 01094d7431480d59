"""Life and death at the end of the game: named positions, markup, the API and GNU Go."""

import numpy as np
import pytest

from rulelab.errors import RulelabError
from rulelab.life import (
    GnuGo,
    GnuGoUnavailable,
    LifeError,
    LifeVerdict,
    decide_life,
    estimate_life,
    find_gnugo,
    unsettled_points,
)
import rulelab.life
from rulelab.life import gnugo as gnugo_module
from rulelab.life.benson import pass_alive
from rulelab.life.estimate import BENT_FOUR
from rulelab.life.markup import marked_dead
from rulelab.life.reading import read_enclosed
from rulelab.position import BLACK, EMPTY, WHITE, Position, board_from_diagram
from rulelab.scoring import SEKI_DAME, classify_points

from positions import named_positions


LIFE = named_positions("life")
"""The named positions of ``data/positions/life.txt``."""


def finished(diagram: str, **facts) -> Position:
    """A position both players passed in."""
    facts.setdefault("passes_black", 1)
    facts.setdefault("passes_white", 1)
    return Position.from_diagram(diagram, **facts)


def points(diagram: str, symbol: str) -> np.ndarray:
    """bool mask of the points showing ``symbol`` in a same-sized marker diagram."""
    rows = [line.split() for line in diagram.strip("\n").splitlines() if line.strip()]
    return np.array([[cell == symbol for cell in row] for row in rows])


def white_inside_black_area(board: np.ndarray) -> np.ndarray:
    """White stones left of column 6 (inside Black's area in the diagrams above)."""
    mask = board == WHITE
    mask[:, 6:] = False
    return mask


def test_two_eyed_group_inside_territory_is_proven_alive():
    position = finished(LIFE["two_eyed_group_inside"].diagram)
    life = decide_life(position)
    assert not life.dead.any()
    assert life.method == "proof" and life.confidence == 1.0
    assert life.finished and life.unsettled == 0


@pytest.mark.parametrize("name, diagram", [
    ("one-eyed group in territory", LIFE["one_eyed_group_in_territory"].diagram),
    ("false eye", LIFE["false_eye"].diagram),
    ("big dead group", LIFE["big_dead_group"].diagram),
])
def test_white_group_inside_black_area_is_dead(name, diagram):
    position = finished(diagram)
    life = decide_life(position)
    inside = white_inside_black_area(position.board)
    assert inside.sum() >= 8
    np.testing.assert_array_equal(life.dead, inside)
    assert life.method == "estimate"
    assert life.finished and not classify_points(position, life).seki.any()


def test_big_dead_group_has_many_stones():
    position = finished(LIFE["big_dead_group"].diagram)
    assert decide_life(position).dead.sum() == 14


def test_dead_stones_in_a_corner():
    position = finished(LIFE["dead_stones_in_corner"].diagram)
    life = decide_life(position)
    np.testing.assert_array_equal(np.argwhere(life.dead), [[0, 1], [1, 0]])
    assert life.finished


def test_seki_without_eyes():
    position = finished(LIFE["seki_without_eyes"].diagram)
    life = decide_life(position)
    assert not life.dead.any()
    inner_white = {(3, 3), (3, 4), (3, 5), (4, 3), (5, 3)}
    inner_black = {(4, 5), (5, 5), (6, 5), (6, 4), (6, 3)}
    analysis = classify_points(position, life)  # seki is the scorer's to find
    assert {tuple(p) for p in np.argwhere(analysis.seki)} == inner_white | inner_black
    assert {tuple(p) for p in np.argwhere(analysis.classes == SEKI_DAME)} == {(4, 4), (5, 4)}
    assert life.finished


def test_seki_with_one_eye_each():
    position = finished(LIFE["seki_with_one_eye_each"].diagram)
    life = decide_life(position)
    assert not life.dead.any()
    white = {(0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (1, 3)}
    black = {(0, 4), (0, 6), (1, 4), (1, 5), (1, 6)}
    analysis = classify_points(position, life)
    assert {tuple(p) for p in np.argwhere(analysis.seki)} == white | black
    # The eyes (0, 0) and (0, 5) touch one colour: only the shared point is dame.
    assert {tuple(p) for p in np.argwhere(analysis.classes == SEKI_DAME)} == {(0, 3)}


def test_bent_four_in_the_corner_is_dead_and_flagged():
    position = finished(LIFE["bent_four_in_the_corner"].diagram)
    life = decide_life(position)
    corner_white = (position.board == WHITE)
    corner_white[:, 4:] = False
    np.testing.assert_array_equal(life.dead, corner_white)
    assert life.flags == (BENT_FOUR,)
    assert not classify_points(position, life).seki.any()


def test_a_false_seki_in_the_corner_dies_once_its_outside_liberties_are_filled():
    position = finished(LIFE["false_seki_in_the_corner"].diagram)
    life = decide_life(position)
    corner_black = position.board == BLACK
    corner_black[3:] = False
    np.testing.assert_array_equal(life.dead, corner_black)
    assert life.flags == (BENT_FOUR,)


def test_bent_four_needs_the_ko_but_straight_three_does_not():
    bent_four = board_from_diagram(LIFE["bent_four_in_the_corner"].diagram)
    (reading,) = [r for r in read_enclosed(bent_four) if r.stones[1, 1]]
    assert reading.dead and reading.needs_ko and reading.in_corner
    straight_three = board_from_diagram("""
        . . . O X . .
        O O O O X . .
        X X X X X . .
        . . . . . . .
    """)
    (reading,) = read_enclosed(straight_three)
    assert reading.dead and not reading.needs_ko


def test_a_search_that_meets_too_many_positions_gives_up(monkeypatch):
    board = board_from_diagram(LIFE["bent_four_in_the_corner"].diagram)
    monkeypatch.setattr(rulelab.life.reading, "MAX_STATES", 3)
    assert not [r for r in read_enclosed(board) if r.stones[1, 1]]


def test_a_corner_group_lives_though_a_stone_beside_its_eye_space_can_be_taken():
    # kgs-dev 2003-11-05-9: White lives with its eyes around Black's stone; Black can
    # take the lone White stone on the edge, and that kills nothing.
    board = board_from_diagram("""
        . . . . . . .
        X X X X X X .
        X X X X O X .
        X O O O O X .
        O . O . O X .
        . X . . O X .
    """)
    (reading,) = [r for r in read_enclosed(board) if r.stones[3, 1]]
    assert reading.stones[4, 0] and not reading.dead


def test_ko_unresolved_is_not_finished():
    life = decide_life(finished(LIFE["ko_unresolved"].diagram))
    assert not life.finished
    assert life.unsettled >= 1


def test_group_in_atari_is_not_finished():
    life = decide_life(finished(LIFE["group_in_atari"].diagram))
    assert not life.finished
    assert life.unsettled >= 1


def test_open_ko_point_or_missing_passes_is_not_finished():
    settled = finished(LIFE["one_eyed_group_in_territory"].diagram)
    assert decide_life(settled).finished
    assert not decide_life(Position.from_diagram(LIFE["one_eyed_group_in_territory"].diagram)).finished
    assert not decide_life(finished(LIFE["one_eyed_group_in_territory"].diagram, ko_point=(4, 3))).finished


def test_unsettled_points_counts_open_borders():
    gap = board_from_diagram("""
        X . . . O
        X . . . O
    """)
    assert unsettled_points(gap, np.zeros(gap.shape, bool)).sum() == 6
    narrow = board_from_diagram("""
        X X X X
        X . . O
        O O O O
    """)
    assert unsettled_points(narrow, np.zeros(narrow.shape, bool)).sum() == 0
    dame = board_from_diagram("""
        X . O
        X . O
    """)
    assert unsettled_points(dame, np.zeros(dame.shape, bool)).sum() == 0
    in_atari = board_from_diagram("X . O")  # each string's last liberty can be taken
    assert unsettled_points(in_atari, np.zeros(in_atari.shape, bool)).sum() == 1


# Benson: pass-alive with suicide illegal and with multi-stone suicide legal.


def test_benson_two_eyes_pass_alive_under_both_variants():
    board = board_from_diagram("""
        . X . X O .
        X X X X O .
        O O O O O .
        . . . . . .
    """)
    for suicide_legal in (False, True):
        proof = pass_alive(board, suicide_legal=suicide_legal)
        np.testing.assert_array_equal(proof.alive, board == BLACK)
        assert proof.territory[0, 0] == BLACK and proof.territory[0, 2] == BLACK
        assert (proof.territory[1:] == EMPTY).all()


def test_benson_suicide_variant_is_stricter():
    board = board_from_diagram(LIFE["plus_shaped_eye"].diagram)
    strict = pass_alive(board, suicide_legal=False)
    assert strict.alive[0, 1] and strict.territory[2, 2] == BLACK  # the white stone is dead
    loose = pass_alive(board, suicide_legal=True)
    assert not loose.alive.any() and not loose.territory.any()


def test_benson_proves_dead_stones_in_small_territory():
    diagram = """
        . X . . X O .
        X X O . X O .
        X X X X X O .
        O O O O O O .
        . . . . . . .
    """
    proof = pass_alive(board_from_diagram(diagram))
    assert proof.alive[0, 1] and proof.territory[1, 2] == BLACK and proof.territory[0, 3] == BLACK
    life = decide_life(Position.from_diagram(diagram))
    assert life.dead[1, 2] and life.dead.sum() == 1


# Markup and method layering.

def test_marked_dead_reads_stones_on_the_other_colours_territory():
    board = board_from_diagram("X O . O")
    marks = board_from_diagram("X X X .")
    assert marked_dead(board, marks).tolist() == [[False, True, False, False]]


def test_markup_outranks_the_estimate():
    position = finished(LIFE["one_eyed_group_in_territory"].diagram)
    marks = np.zeros(position.board.shape, np.int8)  # players agreed: nothing dead
    marks[2, 1] = BLACK
    marked = Position(**{**position.__dict__, "territory_marks": marks})
    life = decide_life(marked)
    assert life.method == "markup" and life.confidence == 1.0 and not life.dead.any()
    estimated = decide_life(marked, "estimate")
    assert estimated.method == "estimate" and estimated.dead.any()


def test_markup_method_without_marks_keeps_every_stone():
    life = decide_life(finished(LIFE["one_eyed_group_in_territory"].diagram), "markup")
    assert life.method == "none" and life.confidence == 0.0 and not life.dead.any()


def test_a_marked_seki_runs_no_playout_and_the_scorer_finds_it(monkeypatch):
    position = finished(LIFE["seki_with_one_eye_each"].diagram)
    marks = np.where(position.board == EMPTY, 0, 0).astype(np.int8)
    marks[3, 0] = BLACK
    marked = Position(**{**position.__dict__, "territory_marks": marks})
    monkeypatch.setattr(rulelab.life, "estimate_life", lambda *a, **k: pytest.fail("playouts ran"))
    life = decide_life(marked)
    seki = classify_points(marked, life).seki
    assert life.method == "markup" and seki[0, 1] and seki[0, 4]
    assert life.proven is not None and not life.proven[0, 1]


def test_verdict_is_a_life_and_deterministic():
    position = finished(LIFE["false_eye"].diagram)
    first, second = decide_life(position, rng_seed=7), decide_life(position, rng_seed=7)
    assert isinstance(first, LifeVerdict)
    np.testing.assert_array_equal(first.dead, second.dead)
    assert first.confidence == second.confidence


def test_estimate_exposes_survival_and_confidence():
    estimate = estimate_life(board_from_diagram(LIFE["one_eyed_group_in_territory"].diagram))
    assert np.isnan(estimate.survival[0, 0])
    assert estimate.survival[3, 2] == 0.0 and estimate.survival[0, 1] == 1.0
    assert 0.0 <= estimate.confidence <= 1.0


@pytest.mark.parametrize("args, message", [
    (("not a position",), "needs a Position"),
    ((finished(LIFE["false_eye"].diagram), "guess"), "method must be one of"),
    ((finished(LIFE["false_eye"].diagram), "auto", -1), "rng_seed"),
])
def test_bad_arguments_raise_life_error(args, message):
    position, *rest = args
    kwargs = {"rng_seed": rest.pop()} if len(rest) == 2 else {}
    with pytest.raises(LifeError, match=message) as info:
        decide_life(position, *rest, **kwargs)
    assert isinstance(info.value, RulelabError) and info.value.status == "life_error"


def test_bad_board_raises_life_error():
    position = Position(board=np.zeros((3, 3), np.int64), captured_black=0, captured_white=0,
                        placed_black=0, placed_white=0)
    with pytest.raises(LifeError, match="np.int8"):
        decide_life(position)


# GNU Go cross-check.

needs_gnugo = pytest.mark.skipif(find_gnugo() is None,
                                 reason="gnugo is not installed (apt-get install gnugo)")


def test_missing_gnugo_raises_a_clear_error(monkeypatch):
    monkeypatch.setattr(gnugo_module, "find_gnugo", lambda: None)
    with pytest.raises(GnuGoUnavailable, match="apt-get install gnugo") as info:
        decide_life(finished(LIFE["false_eye"].diagram), "gnugo")
    assert info.value.status == "gnugo_unavailable"


def test_gtp_vertices_round_trip():
    assert gnugo_module.gtp_vertex(0, 8, 19) == "J19"
    assert gnugo_module.parse_vertices("J19 A1", 19) == [(0, 8), (18, 0)]


@needs_gnugo
def test_gnugo_agrees_on_a_one_eyed_group():
    position = finished(LIFE["one_eyed_group_in_territory"].diagram)
    life = decide_life(position, "gnugo")
    assert life.method == "gnugo"
    np.testing.assert_array_equal(life.dead, white_inside_black_area(position.board))


@needs_gnugo
def test_gnugo_engine_is_reusable_and_keeps_a_seki_alive():
    with GnuGo() as engine:
        seki = engine.decide_life(finished(LIFE["seki_without_eyes"].diagram))
        dead = engine.decide_life(finished(LIFE["big_dead_group"].diagram))
    assert not seki.dead.any()
    assert dead.dead.sum() == 14
