"""The second look at undecided strings: what the model sees, and when it may overrule."""

import json

import numpy as np
import pytest

import rulelab.life.undecided as undecided
from rulelab.board import pad
from rulelab.life.undecided import (FEATURES, MODEL_PATH, dead_probability, load_model, second_look,
                                    string_features)
from rulelab.position import BLACK, WHITE, board_from_diagram

BOARD = board_from_diagram("""
. X . O .
X X O O .
O O O . .
. . . . .
""")
"""Black's three stones have an eye in the corner and one liberty shared with White."""


def shares_of(board, black_stone_share):
    """Shares as the playouts would give them: White owns everything but Black's stones
    and the corner eye, which Black keeps in ``black_stone_share`` of them."""
    padded = pad(board)
    shares = np.zeros((4, padded.size))
    black = (padded == BLACK) | (np.arange(padded.size) == 6)  # the corner (0, 0)
    shares[BLACK] = np.where(black, black_stone_share, 0.0)
    shares[WHITE] = np.where((padded <= WHITE) & ~black, 1.0, 1 - shares[BLACK])
    return padded, shares


def nothing_enclosed(padded):
    """The enclosure verdicts of a board where the area rule says nothing."""
    return np.zeros(padded.size, dtype=np.int8)


def test_features_of_an_undecided_string():
    padded, shares = shares_of(BOARD, 0.5)
    enclosed = np.where(padded == BLACK, 1, 0).astype(np.int8)
    rows, members = string_features(padded, BOARD.shape[1] + 2, shares, enclosed)
    assert rows.shape == (1, len(FEATURES))
    seen = dict(zip(FEATURES, rows[0]))
    assert seen["survival"] == 0.5
    assert seen["log_size"] == pytest.approx(np.log(3))
    assert seen["liberties"] == 2 / 8
    assert seen["eyes"] == 1 / 3
    assert seen["weakest_neighbour"] == 1.0 and seen["safe_neighbours"] == 1.0
    assert seen["own_areas"] == 1 / 2 and seen["own_area_points"] == 1 / 12
    assert seen["enclosed"] == 1.0
    assert (members >= 0).sum() == 3 and (padded[members >= 0] == BLACK).all()


def test_decided_strings_are_not_looked_at():
    padded, shares = shares_of(BOARD, 0.9)
    rows, members = string_features(padded, BOARD.shape[1] + 2, shares, nothing_enclosed(padded))
    assert len(rows) == 0 and (members == -1).all()


def test_the_model_overrules_only_when_confident(monkeypatch):
    padded, shares = shares_of(BOARD, 0.6)
    n = len(FEATURES)
    at_the_bar = np.log(undecided.CONFIDENT / (1 - undecided.CONFIDENT))
    for logit, dead in ((-10.0, False), (at_the_bar - 0.05, False), (at_the_bar + 0.05, True), (10.0, True)):
        model = {"features": list(FEATURES), "weights": [logit] + [0.0] * n, "mean": [0.0] * n,
                 "scale": [1.0] * n}
        monkeypatch.setattr(undecided, "load_model", lambda: model)
        looked, judged = second_look(padded, BOARD.shape[1] + 2, shares, nothing_enclosed(padded))
        assert (looked == (padded == BLACK)).all()
        assert judged[padded == BLACK].all() == dead and not judged[padded != BLACK].any()


def test_the_shipped_model_fits_the_features_and_says_where_it_came_from():
    model = load_model()
    assert model["features"] == list(FEATURES)
    assert len(model["weights"]) == len(FEATURES) + 1
    provenance = model["provenance"]
    assert provenance["strings"] > 0 and provenance["sources"] and provenance["games"]
    probability = dead_probability(np.zeros((1, len(FEATURES))), model)
    assert 0.0 < probability[0] < 1.0


def test_a_model_fitted_on_other_features_is_refused(tmp_path):
    stale = json.loads(MODEL_PATH.read_text())
    stale["features"] = stale["features"][:-1]
    path = tmp_path / "model.json"
    path.write_text(json.dumps(stale))
    with pytest.raises(ValueError, match="fitted on features"):
        load_model.__wrapped__(path)
