"""The finisher: records played to their end, then counted by every preset (data/positions/finish.txt)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_scoring_kernels import random_position

from rulelab.board import pad
from rulelab.classes import OPEN_DAME
from rulelab.position import BLACK, EMPTY, WHITE, Life, Position, board_to_diagram
from rulelab.rules import PRESETS
from rulelab.scoring import score_all
from rulelab.scoring.chains import (chain_forest, chain_liberties, judge, neighbour_offsets, root, take_back, try_stone,
                                    with_stone)
from rulelab.scoring.finish import (_chain_stones, _fill_kind, _kind_after_fill, _leaves_two_liberties, _played, _zones,
                                    finish_position)

from positions import named_positions

NAMED = named_positions("finish")


@pytest.mark.parametrize("name", list(NAMED))
def test_the_finisher_plays_the_moves_counted_by_hand(name):
    named = NAMED[name]
    position, life = named.position(), named.life()
    done = finish_position(position, life)
    assert done.sgf() == named.settings["finish"]
    as_is = {r.name: b.margin_before_komi for r, b in zip(PRESETS.values(), score_all(position, life, PRESETS.values()))}
    finished = {r.name: b.margin_before_komi
                for r, b in zip(PRESETS.values(), score_all(done.position, done.life, PRESETS.values()))}
    assert as_is == {name: float(v) for name, v in named.pairs("as_is").items()}
    assert finished == named.margins()


def test_a_finished_board_is_left_as_it_is():
    position = NAMED["seki_liberty_kept"].position()
    life = Life.all_alive(position.board)
    done = finish_position(position, life)
    again = finish_position(done.position, life)
    assert again.moves == () and again.position is done.position


def test_the_finisher_keeps_the_dead_stones_and_never_plays_on_them():
    position = Position.from_diagram("""
        . X O . .
        . X O O .
        X X O X O
        . X O O O
    """)
    dead = position.board < 0
    dead[2, 3] = True  # the black stone inside White's area
    life = Life(dead=dead, method="markup")
    done = finish_position(position, life)
    assert done.position.board[2, 3] == position.board[2, 3]
    assert all((r, c) != (2, 3) for _, r, c in done.moves)


def test_a_shortage_of_liberties_is_mended_before_the_dame_are_filled():
    # White filling (6,2) would put the black corner stones in atari for good (saved at
    # (5,0), they would keep one liberty): Black to move mends at (5,0) before filling the
    # dame (0,2), though nothing is in atari yet (Hon-47-4, J1989 Art. 9 commentary).
    position = Position.from_diagram("""
        X X . O . .
        . X O . . .
        X X O . . .
        . X O . . .
        X O . . . .
        . O O O . .
        X X . . O .
    """, to_move=1)
    assert finish_position(position, Life.all_alive(position.board)).sgf() == ";B[af];W[ca];B[cg]"


def test_a_protective_stone_where_a_captured_dead_stone_stood_is_no_dead_stone():
    named = NAMED["dead_stone_on_the_connection_played_out"]
    position, life = named.position(), named.life()
    done = finish_position(position, life)
    assert done.position.board[1, 0] == 1 and life.dead[1, 0]  # Black's connection, where o stood
    assert not done.life.dead.any()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_saving_move_judged_from_its_sides_is_judged_as_when_played(seed):
    """``_leaves_two_liberties`` tells a move that captures nothing from the chains beside it:
    on random boards, every stone and empty point, it must agree with the move played on a copy."""
    rng = np.random.default_rng(seed)
    rows, cols = int(rng.integers(3, 10)), int(rng.integers(3, 10))
    board, dead = random_position(rows, cols, int(rows * cols * rng.uniform(0.3, 1.2)), 0.1, seed)
    w, dead_at = pad(board), pad(dead.astype(np.int8)) == 1
    nb = neighbour_offsets(cols)
    zone = _zones(np.full((rows, cols), OPEN_DAME, np.int8), dead_at)
    chains = chain_forest(w, nb)
    for s in np.flatnonzero((w == BLACK) | (w == WHITE)):
        for q in np.flatnonzero(w == EMPTY):
            _, played, _ = _played(w, nb, q, w[s], zone, chains)
            expected = chain_liberties(played, s)[0] >= 2 and chain_liberties(played, q)[0] >= 2
            assert _leaves_two_liberties(w, nb, q, s, zone, chains) == expected, (board_to_diagram(board), s, q)


def _random_chains(seed):
    """A random board (:func:`random_position`) padded, with its dead mask, zones all open and chains."""
    rng = np.random.default_rng(seed)
    rows, cols = int(rng.integers(3, 10)), int(rng.integers(3, 10))
    board, dead = random_position(rows, cols, int(rows * cols * rng.uniform(0.3, 1.2)), 0.1, seed)
    w, dead_at = pad(board), pad(dead.astype(np.int8)) == 1
    return board, w, dead_at, neighbour_offsets(cols), _zones(np.full((rows, cols), OPEN_DAME, np.int8), dead_at)


def _chain_view(w, chains):
    """Per stone, its chain's liberties (up to two) and the one, and which stones share its chain."""
    stones = np.flatnonzero((w == BLACK) | (w == WHITE))
    roots = {s: root(chains.parent, s) for s in stones}
    return {s: (chain_liberties(chains, s), tuple(t for t in stones if roots[t] == roots[s])) for s in stones}


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_stone_tried_in_place_is_the_stone_played_on_a_copy_and_goes_back(seed):
    """``try_stone`` must leave the chains that ``with_stone`` makes on a copy, and ``take_back``
    the chains as they were; a stone joining two chains is refused, nothing changed."""
    board, w, _, nb, _ = _random_chains(seed)
    chains = chain_forest(w, nb)
    before = _chain_view(w, chains)
    for q in np.flatnonzero(w == EMPTY):
        for colour in (BLACK, WHITE):
            copy, copy_chains = with_stone(w, nb, q, colour, chains)
            saved = try_stone(w, nb, q, colour, chains)
            if saved.size:
                assert np.array_equal(w, copy) and _chain_view(w, chains) == _chain_view(copy, copy_chains)
                take_back(w, q, chains, saved)
            assert _chain_view(w, chains) == before, (board_to_diagram(board), q, colour)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_fill_judged_in_place_is_judged_as_when_played_on_a_copy(seed):
    """``_fill_kind`` judges a fill that ataris in place when it can: on random boards, every
    empty point and colour, it must agree with the fill played on a copy, and leave the board."""
    board, w, dead_at, nb, zone = _random_chains(seed)
    chains = chain_forest(w, nb)
    before = (w.copy(), _chain_view(w, chains))
    for q in np.flatnonzero(w == EMPTY):
        for colour in (BLACK, WHITE):
            own, _, captured, ataris, _ = judge(w, nb, q, colour, chains)
            beside_own_dead = any(w[q + d] == colour and dead_at[q + d] for d in nb)
            if own < 2 or captured or not ataris or beside_own_dead:
                continue
            played, played_chains, played_zone = _played(w, nb, q, colour, zone, chains)
            expected = _kind_after_fill(played, nb, q, colour, dead_at, played_zone, played_chains)
            assert _fill_kind(w, nb, q, colour, dead_at, zone, chains) == expected, (board_to_diagram(board), q, colour)
            assert np.array_equal(w, before[0]) and _chain_view(w, chains) == before[1]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_chain_found_by_a_flood_is_its_tree_of_the_forest(seed):
    """``_chain_stones`` floods from a stone where the rules read a chain from the forest:
    on random boards, every stone, the same stones in board order."""
    board, w, _, nb, _ = _random_chains(seed)
    chains = chain_forest(w, nb)
    for s, (_, members) in _chain_view(w, chains).items():
        assert _chain_stones(w, nb, s).tolist() == list(members), (board_to_diagram(board), s)
