"""Undecided strings left in atari: which captures are clean, and how the estimate uses them."""

import numpy as np

import rulelab.life.estimate as estimate_module
from rulelab.life.atari import cleanly_captured, held_by_ko
from rulelab.life.estimate import Estimate, estimate_life
from rulelab.position import EMPTY, WHITE, board_from_diagram

from positions import named_positions

LIFE = named_positions("life")
"""The named positions of ``data/positions/life.txt``."""


def coin_toss(board):
    """Survival shares of a race the playouts could not decide."""
    return np.where(board != EMPTY, 0.5, np.nan)


def test_string_in_atari_in_an_undecided_race_is_taken():
    board = board_from_diagram(LIFE["race_lost_in_atari"].diagram)
    np.testing.assert_array_equal(cleanly_captured(board, coin_toss(board)), board == WHITE)


def test_mutual_atari_is_left_to_whoever_moves_first():
    board = board_from_diagram(LIFE["mutual_atari"].diagram)
    assert not cleanly_captured(board, coin_toss(board)).any()


def test_capture_that_starts_a_ko_is_left_alone():
    board = board_from_diagram(LIFE["ko_capture"].diagram)
    assert not cleanly_captured(board, coin_toss(board)).any()


def test_strings_the_playouts_decided_are_left_to_them():
    board = board_from_diagram(LIFE["race_lost_in_atari"].diagram)
    for share in (0.1, 0.9):
        assert not cleanly_captured(board, np.where(board != EMPTY, share, np.nan)).any()


def test_estimate_takes_the_string_off_and_estimates_the_rest_again(monkeypatch):
    board = board_from_diagram(LIFE["white_in_atari_in_black_area"].diagram)
    in_atari = (board == WHITE)
    in_atari[:, 6:] = False
    boards_seen = []

    def take_white_in_atari(seen, survival):
        boards_seen.append(seen.copy())
        return in_atari & (seen == WHITE)

    monkeypatch.setattr(estimate_module, "cleanly_captured", take_white_in_atari)
    estimate = estimate_life(board)
    without = np.where(in_atari, EMPTY, board).astype(np.int8)
    assert len(boards_seen) == 2
    np.testing.assert_array_equal(boards_seen[1], without)
    np.testing.assert_array_equal(estimate.dead, in_atari)
    assert (estimate.survival[in_atari] == 0).all()
    assert estimate.confidence == estimate_life(without).confidence


def test_a_lone_stone_whose_capture_is_a_ko_is_held():
    board = board_from_diagram(LIFE["ko_capture"].diagram)
    alive = np.zeros(board.shape, bool)
    held = held_by_ko(board, coin_toss(board), alive)
    assert held[1, 1]
    assert not held[board == WHITE].all() and not held[0, 2]  # (0, 2) has two liberties
    assert not held_by_ko(board, np.where(board != EMPTY, 0.1, np.nan), alive).any()
    # With the White stones around the capturing point dead, there is no ko to fight.
    assert not held_by_ko(board, coin_toss(board), board == WHITE)[1, 1]


def test_strings_and_clean_captures_are_never_held_by_ko():
    for diagram in (LIFE["race_lost_in_atari"].diagram, LIFE["white_in_atari_in_black_area"].diagram):
        board = board_from_diagram(diagram)
        assert not held_by_ko(board, coin_toss(board), np.zeros(board.shape, bool)).any()
    # Taking (1, 1) also takes (0, 2) and (2, 2): the taker gets liberties, no ko.
    board = board_from_diagram("""
        . X O X .
        X O . O X
        . X O X .
    """)
    assert not held_by_ko(board, coin_toss(board), np.zeros(board.shape, bool))[1, 1]


def test_estimate_keeps_the_ko_stone_the_playouts_half_captured(monkeypatch):
    board = board_from_diagram(LIFE["ko_capture"].diagram)
    survival = coin_toss(board)
    half_captured = np.zeros(board.shape, bool)
    half_captured[1, 1] = True
    guess = Estimate(dead=half_captured,
                     proven=np.zeros(board.shape, bool), survival=survival,
                     seki_share=np.zeros(board.shape))
    monkeypatch.setattr(estimate_module, "_estimate_in_place", lambda *args: guess)
    estimate = estimate_life(board)
    assert not estimate.dead.any() and estimate.survival[1, 1] == 1.0
