"""The estimator on every board size: the named positions of ``data/positions/life.txt``
that mark their dead stones, on 19x19, 13x13, 9x9 and non-square boards.

Each gives its verdict, its flags and its count under every preset on several seeds:
a wall that lives by one small area of its own keeps its point in only about 90% of
the playouts, so a verdict that hangs on the seed fails here.
"""

import numpy as np
import pytest

from rulelab.life import decide_life
from rulelab.rules import PRESETS
from rulelab.scoring import score_all

from positions import named_positions

BOARDS = {name: named for name, named in named_positions("life").items()
          if "margin_before_komi" in named.settings}
SEEDS = (0, 1, 2)


def test_every_board_size_and_shape_is_named():
    shapes = {named.position().board.shape for named in BOARDS.values()}
    assert {(19, 19), (13, 13), (9, 9), (7, 9), (8, 12)} <= shapes


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", BOARDS)
def test_verdict_flags_and_count_under_every_preset(name, seed):
    named = BOARDS[name]
    position = named.position()
    life = decide_life(position, rng_seed=seed)
    np.testing.assert_array_equal(life.dead, named.life().dead)
    assert life.flags == tuple(named.settings.get("flags", "").split())
    margins = {b.ruleset: b.margin_before_komi for b in score_all(position, life, list(PRESETS))}
    assert margins == named.margins()
