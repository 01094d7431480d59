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
    """A :class:`~rulelab.position.Life` with what territory scoring and reports need.

    Scoring can use any ``Life``; these extra fields save it from recomputing them.
    """

    shared_liberties: np.ndarray | None = field(default=None)
    """bool ``(rows, cols)``: empty points (dead stones removed) next to seki stones
    of both colours, counted for nobody under territory rules."""
    unsettled: int = 0
    """Points where a move would still change the count (open borders, liberties of
    live strings in atari); 0 for a settled position."""
    flags: tuple[str, ...] = ()
    """Rule cases the position raises, e.g. ``'bent_four_in_the_corner'`` (dead by
    the Japanese 1989 rules, which may differ from play under other rules)."""
