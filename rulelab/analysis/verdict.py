"""One game's life verdict, as the run stored it.

The score stage stores every game's verdict and the scorer's point classes under it in
the run's life table (:mod:`rulelab.store.life`); whatever draws a game — the report's
worked examples, :func:`rulelab.draw_game`, ``games.go.draw`` — reads them there through
:func:`stored_verdict`. Nothing here decides life: neither the life package nor the
scorer is imported.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from rulelab.store.life import StoredLife, stored_life


def stored_verdict(life: pd.DataFrame, game_id: str) -> StoredLife | None:
    """The verdict of ``game_id`` in a life table (:func:`rulelab.read_life`), the first
    copy's for a record read twice; None when the table has none (the game failed, or the
    run was scored before verdicts were stored).

    Examples
    --------
    >>> life = pd.DataFrame({"game_id": ["g"], "board_rows": [1], "board_cols": [2],
    ...     "dead": [b"\\0\\1"], "seki": [b"\\0\\0"], "proven": [b"\\0\\0"], "classes": [b"\\1\\0"],
    ...     "life_method": ["markup"], "life_confidence": [1.0], "finished": [True],
    ...     "unsettled": [0], "rule_flags": [[]]})
    >>> stored_verdict(life, "g").dead.tolist(), stored_verdict(life, "h")
    ([[False, True]], None)
    """
    rows = life.loc[life["game_id"] == game_id] if "game_id" in life.columns else life.iloc[:0]
    return None if rows.empty else stored_life(rows.iloc[0])


def plain_row(row: Mapping) -> dict:
    """``row`` with every null (None, NaN, ``pd.NA``) as None.

    Examples
    --------
    >>> plain_row({"komi": float("nan"), "rules": pd.NA, "handicap": 2})
    {'komi': None, 'rules': None, 'handicap': 2}
    """
    return {key: None if _is_null(value) else value for key, value in row.items()}


def _is_null(value) -> bool:
    return value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value))
