"""The classes a board analysis gives each point: what a ruleset adds up.

Stones keep their colour's value; an empty board (no region touches a stone) is all
open dame. The class values index :attr:`PointClasses.counts
<rulelab.scoring.PointClasses.counts>`.
"""

OPEN_DAME, STONE_B, STONE_W, TERRITORY_B, TERRITORY_W = 0, 1, 2, 3, 4
SEKI_POINT_B, SEKI_POINT_W, OWED_B, OWED_W, SEKI_DAME = 5, 6, 7, 8, 9
CLASS_NAMES = (
    "open_dame", "stone_b", "stone_w", "territory_b", "territory_w", "seki_point_b",
    "seki_point_w", "owed_b", "owed_w", "seki_dame",
)  # fmt: skip
WALL_CLASS = len(CLASS_NAMES)
"""Class of the padding ring inside the kernels, cut off before counting."""
