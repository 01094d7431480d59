"""Records that stopped mid-game get a rough estimate; finished boards always the full one."""

from dataclasses import replace

import numpy as np
import pytest

import rulelab.life.estimate as estimate_module
from rulelab.life import decide_life, estimate_life
from rulelab.position import Position, board_from_diagram

from positions import named_positions

LIFE = named_positions("life")
"""The named positions of ``data/positions/life.txt``."""


@pytest.fixture
def playouts_asked(monkeypatch):
    """The number of playouts each call to the kernel asked for."""
    asked = []
    kernel = estimate_module.playout_counts

    def counting(padded, stride, playable, to_move, n_playouts, *rest):
        asked.append(n_playouts)
        return kernel(padded, stride, playable, to_move, n_playouts, *rest)

    monkeypatch.setattr(estimate_module, "playout_counts", counting)
    return asked


def test_open_board_of_a_stopped_record_gets_the_probe_only(playouts_asked):
    estimate_life(board_from_diagram(LIFE["opening_far_from_settled"].diagram), stopped_early=True)
    assert playouts_asked == [estimate_module.PROBE_PLAYOUTS]


def test_open_board_of_a_finished_record_gets_the_full_count(playouts_asked):
    estimate_life(board_from_diagram(LIFE["opening_far_from_settled"].diagram), stopped_early=False)
    assert playouts_asked == [estimate_module.N_PLAYOUTS]


def test_settled_board_of_a_stopped_record_gets_the_full_estimate(playouts_asked):
    board = board_from_diagram(LIFE["finished_near_settled"].diagram)
    rough_then_full = estimate_life(board, stopped_early=True)
    assert playouts_asked == [estimate_module.PROBE_PLAYOUTS, estimate_module.N_PLAYOUTS]
    full = estimate_life(board)
    assert np.array_equal(rough_then_full.dead, full.dead)
    assert rough_then_full.dead[3, 1]


@pytest.mark.parametrize("ended_by_passes, playouts", [(False, "PROBE_PLAYOUTS"), (True, "N_PLAYOUTS"),
                                                        (None, "N_PLAYOUTS")])
def test_decide_life_asks_for_the_rough_estimate_only_when_the_record_stopped(
        playouts_asked, ended_by_passes, playouts):
    opening = Position.from_diagram(LIFE["opening_far_from_settled"].diagram)
    position = replace(opening, ended_by_passes=ended_by_passes)
    verdict = decide_life(position, "estimate")
    assert playouts_asked == [getattr(estimate_module, playouts)]
    assert not verdict.finished
