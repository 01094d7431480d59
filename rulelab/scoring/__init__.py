"""Exact count of a final position under any :class:`~rulelab.rules.Ruleset`.

The scorer takes a replayed :class:`~rulelab.position.Position` and a
:class:`~rulelab.position.Life` verdict as given, and returns a
:class:`ScoreBreakdown` that keeps every component of the count apart.

Counting happens in two steps. :func:`classify_points` classifies every point of the
board once for a life verdict (stone, territory, eye of a group in seki, point
owed to a protective move, seki liberty, open dame); a ruleset then only adds up
classes, so :func:`score_all` scores one position under many rulesets for the
price of one analysis. A verdict names dead stones only; seki is what the analysis
finds on the board (:attr:`PointClasses.seki`), the one definition the tables keep:
an open dame between live groups is no seki, since either side can fill it safely.

The modules, each one job, from the bottom up:

- :mod:`.chains`: the chains of a filling board and their liberties (union-find);
- :mod:`.dame`: filling the dame before a territory count, and the owed points;
- :mod:`.vital`: the vital point a three-point eye owes once the dame are filled;
- :mod:`.standing`: the captures the dead stones standing call for while the dame are filled;
- :mod:`.seki`: the seki liberties and the chains in seki;
- :mod:`.classify`: the kernel giving every point its class (:mod:`rulelab.classes`);
- :mod:`.point_classes`: :class:`PointClasses` and :func:`classify_points`;
- :mod:`.breakdown`, :mod:`.tally`: :class:`ScoreBreakdown`, :func:`score_position`, :func:`score_all`;
- :mod:`.identities`: :func:`check_identities`;
- :mod:`.confirm`: :func:`life_confirmable`, whether a verdict survives confirmation
  with its dead stones standing.
"""

import rulelab.shadowing  # noqa: F401  (first: names a folder that shadows the package)
from .point_classes import PointClasses, classify_points
from .breakdown import ScoreBreakdown
from rulelab.classes import (
    CLASS_NAMES,
    OPEN_DAME,
    OWED_B,
    OWED_W,
    SEKI_DAME,
    SEKI_POINT_B,
    SEKI_POINT_W,
    STONE_B,
    STONE_W,
    TERRITORY_B,
    TERRITORY_W,
)
from .identities import check_identities
from .confirm import life_confirmable
from .tally import score_all, score_position

__all__ = [
    "PointClasses", "classify_points", "ScoreBreakdown", "CLASS_NAMES", "OPEN_DAME", "OWED_B", "OWED_W",
    "SEKI_DAME", "SEKI_POINT_B", "SEKI_POINT_W", "STONE_B", "STONE_W", "TERRITORY_B",
    "TERRITORY_W", "check_identities", "life_confirmable", "score_position", "score_all",
]  # fmt: skip
