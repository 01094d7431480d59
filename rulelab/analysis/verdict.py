"""One game's life verdict, decided again from the final position its games row stores.

The tables hold no dead-stone or seki masks yet, so whatever draws a game — the
report's worked examples and :func:`rulelab.draw_game` — decides them again, with the
life method the run's scores were made with, through :func:`decide_row`. The life
package and the scorer are imported inside it: reading a run folder, which is all the
other analyses do, loads neither them nor numba.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class Decided:
    """A games row's final position, its life verdict and the scorer's point classes."""

    position: Any
    """The :class:`rulelab.position.Position` rebuilt from the row."""
    verdict: Any
    """The :class:`rulelab.life.Life` verdict: ``dead``, ``seki``, ``method``."""
    classes: np.ndarray
    """Per point, the class :func:`rulelab.scoring.analyse` gives it under the verdict."""


def decide_row(row: Mapping, life: str) -> Decided | None:
    """Decide life on the final position of a games-table ``row`` with the method ``life``.

    ``row`` may hold nulls as pandas does (NaN, ``pd.NA``). Returns None when it lacks
    the columns a position is rebuilt from (a games table made by hand, say).
    """
    from rulelab.life import decide_life
    from rulelab.pipeline.score import POSITION_COLUMNS, position_from_row
    from rulelab.scoring import analyse

    row = plain_row(row)
    if not set(POSITION_COLUMNS) <= set(row):
        return None
    position = position_from_row(row)
    verdict = decide_life(position, life)
    return Decided(position, verdict, analyse(position, verdict).classes)


def plain_row(row: Mapping) -> dict:
    """``row`` with every null (None, NaN, ``pd.NA``) as None.

    Examples
    --------
    >>> plain_row({"komi": float("nan"), "rules": pd.NA, "handicap": 2})
    {'komi': None, 'rules': None, 'handicap': 2}
    """
    return {key: None if _is_null(value) else value for key, value in row.items()}


def run_life(scores_provenance: Mapping) -> str:
    """The life method recorded in the scores table's provenance ('auto' when unknown).

    Examples
    --------
    >>> run_life({"options": {"life": "markup"}}), run_life({})
    ('markup', 'auto')
    """
    return scores_provenance.get("options", {}).get("life", "auto")


def _is_null(value) -> bool:
    return value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value))
