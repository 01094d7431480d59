"""The estimator against the players' own verdict: KGS end-of-game markup (2017 games)."""

import numpy as np
import pytest
from kgs_marked import counted_positions_with_markup

from rulelab.life import decide_life
from rulelab.life.markup import marked_dead


@pytest.mark.slow
@pytest.mark.corpus
def test_estimate_agrees_with_kgs_markup(corpora):
    stones = agreeing = games = exact = 0
    for _, position in counted_positions_with_markup(corpora / "kgs-dev.tar.xz"):
        truth = marked_dead(position.board, position.territory_marks)
        life = decide_life(position, "estimate")
        on_board = position.board != 0
        agree = (life.dead == truth)[on_board]
        stones += int(on_board.sum())
        agreeing += int(agree.sum())
        games += 1
        exact += bool(agree.all())
    assert games >= 390, f"only {games} counted games with markup found"
    assert agreeing / stones >= 0.995, f"{agreeing}/{stones} stones agree with the markup"
    assert exact / games >= 0.93, f"{exact}/{games} games agree on every stone"


@pytest.mark.slow
@pytest.mark.corpus
def test_auto_uses_the_markup_when_present(corpora):
    for count, (name, position) in enumerate(counted_positions_with_markup(corpora / "kgs-dev.tar.xz")):
        life = decide_life(position)
        assert life.method == "markup", name
        np.testing.assert_array_equal(life.dead, marked_dead(position.board, position.territory_marks))
        if count == 20:
            break
