"""The group tax of stone scoring (docs/RULES.md, "The group tax"): two eye points of a
group that lives on its own, every eye point of a group in seki — which can fill none."""

import pytest

from positions import named_positions
from rulelab.scoring import SEKI_POINT_B, SEKI_POINT_W, classify_points, score_position

NAMED = named_positions("scoring")


@pytest.mark.parametrize(("name", "seki_eyes", "tax"), [
    ("seki_with_a_three_point_eye", (3, 1), (3 + 2, 1 + 2)),  # a seki group pays all three, not two
    ("seki_with_eyes", (1, 1), (1 + 2, 1 + 2)),  # a one-point eye in seki: one point
    ("seki_without_eyes", (0, 0), (2, 0)),  # White's seki group has no eye: nothing to pay
])
def test_a_seki_group_pays_every_eye_point_and_a_group_alive_on_its_own_two(name, seki_eyes, tax):
    named = NAMED[name]
    position, life = named.position(), named.life()
    stone = score_position(position, life, "stone-scoring")
    area = score_position(position, life, "nz")
    assert (stone.black_seki_points, stone.white_seki_points) == seki_eyes
    assert (stone.black_group_tax, stone.white_group_tax) == tax
    assert area.margin_before_komi - stone.margin_before_komi == tax[0] - tax[1]


def test_the_three_point_eye_is_a_seki_eye():
    named = NAMED["seki_with_a_three_point_eye"]
    classes = classify_points(named.position(), named.life()).classes
    assert (classes[0, 0:3] == SEKI_POINT_B).all() and classes[0, 6] == SEKI_POINT_W
