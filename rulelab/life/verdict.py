"""The verdict :func:`rulelab.life.decide_life` returns, and its argument error."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from rulelab.errors import RulelabError
from rulelab.position import Life


class LifeError(RulelabError, ValueError):
    """An argument of :func:`rulelab.life.decide_life` that cannot be used."""

    status = "life_error"


@dataclass(frozen=True, eq=False)
class LifeVerdict(Life):
    """A :class:`~rulelab.position.Life` with what the tables and the explanation of a
    miss need besides the dead stones.

    Scoring can use any ``Life``; these fields are stored in the run's life table.
    """

    proven: np.ndarray | None = field(default=None)
    """bool ``(rows, cols)``: stones whose fate Benson's analysis proves, which no
    explanation of a miss may flip."""
    unsettled: int = 0
    """Points where a move would still change the count (open borders, liberties of
    live strings in atari); 0 for a settled position."""
    ko_kills: tuple = ()
    """The estimator's readings of the groups it killed by a ko
    (:class:`rulelab.life.reading.Reading`), which the status layer judges per ruleset."""
    flags: tuple[str, ...] = ()
    """Rule cases the position raises, e.g. ``'bent_four_in_the_corner'`` (dead by
    the Japanese 1989 rules, which may differ from play under other rules)."""
