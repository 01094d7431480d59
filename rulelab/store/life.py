"""The life table: each scored game's verdict and the scorer's point classes, stored once.

The score stage decides life once per game and analyses the board once under that
verdict; what comes later (the report's examples, ``rulelab.draw_game``, the explanation
of validation misses, SQL) reads this table instead of deciding again. Masks are bytes,
one per point, row-major like the games table's ``board``: ``dead``, ``seki`` and
``proven`` hold 0 or 1, ``classes`` the codes of :mod:`rulelab.classes`.

The classes are those of the board with the verdict's dead stones removed, which no
ruleset changes: rulesets only add them up differently. Only a ruleset that counts the
board as it stands (Tromp–Taylor and stone scoring under the ``as-is`` play-out model)
classifies it with every stone kept; the scores table holds its count. The seki mask is
the scorer's: stones of chains touching a seki liberty (:attr:`rulelab.scoring.PointClasses.seki`).

This module imports neither the life package nor the scorer, so a reader of a run
folder loads neither (nor numba).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from rulelab.position import Life
from rulelab.store.checks import check_masks, read_checked
from rulelab.store.layout import LIFE_FILE
from rulelab.store.tables import read_frame

LIFE_SCHEMA = pa.schema([
    ("game_id", pa.string()),
    ("board_rows", pa.int8()),
    ("board_cols", pa.int8()),
    ("dead", pa.binary()),
    ("seki", pa.binary()),
    ("proven", pa.binary()),
    ("classes", pa.binary()),
    ("life_method", pa.string()),
    ("life_confidence", pa.float64()),
    ("finished", pa.bool_()),
    ("settled", pa.bool_()),
    ("life_confirmable", pa.bool_()),
    ("unsettled", pa.int32()),
    ("rule_flags", pa.list_(pa.string())),  # not "flags", which pandas' DataFrame.flags shadows
    ("status_cases", pa.list_(pa.struct([
        ("kind", pa.string()), ("stones", pa.binary()), ("inside", pa.binary()),
        ("dead_under", pa.list_(pa.string())), ("inside_dead_under", pa.list_(pa.string()))]))),
    ("status_dead", pa.list_(pa.struct([("ruleset", pa.string()), ("dead", pa.binary())]))),
    ("finish", pa.string()),
    ("duplicate_of", pa.string()),
])
"""One row per scored game (and per copy of a record read twice, as in the scores table).

``status_cases`` are the groups whose life the rules decide differently
(:mod:`rulelab.life.status`): the kind, the group's ``stones`` and the attacker's
stones ``inside`` its eye space as masks, and the scored rulesets under which each is
dead. ``status_dead`` is the dead mask of each scored ruleset whose own verdict on
those cases differs from ``dead`` (the common verdict); any other ruleset scored ``dead``.
``finish`` is the moves the finisher added before the count (:mod:`rulelab.scoring.finish`),
as SGF nodes (``;B[dc];W[];B[ee]``; empty when none was needed), null for a game counted on
the board as it stands (``finish`` of the scores table: ``'none'``); ``classes`` are those of
the board before them."""


@dataclass(frozen=True, eq=False, kw_only=True)
class StoredLife(Life):
    """A life-table row as arrays: the verdict the run scored, and what the scorer found."""

    seki: np.ndarray
    """bool ``(rows, cols)``: stones the scorer finds in seki under the verdict."""
    proven: np.ndarray
    """bool ``(rows, cols)``: stones whose fate Benson's analysis proves."""
    classes: np.ndarray
    """int8 ``(rows, cols)``: the scorer's class of each point under the verdict."""
    unsettled: int = 0
    """Points where a move would still change the count."""
    flags: tuple[str, ...] = ()
    """Rule cases the position raises (e.g. ``'bent_four_in_the_corner'``)."""


def life_row(game_id: str, verdict, analysis, cases=(), rulesets=(), own_dead=None,
             players_counted: bool = False, finish: str | None = None,
             confirmable: bool | None = None) -> dict:
    """The life-table row of a game from its verdict (a :class:`rulelab.life.LifeVerdict`),
    the scorer's analysis under it (a :class:`rulelab.scoring.PointClasses`), its status
    cases (:class:`rulelab.life.status.StatusCase`), the scored ``rulesets``, their
    dead masks ``own_dead`` by name, the moves the finisher added (``finish``), and whether
    the verdict survives confirmation with its dead stones standing (``confirmable``,
    :func:`rulelab.scoring.life_confirmable`; null when not asked).

    ``settled`` says the game reached its end — the life layer calls the position finished,
    or the players counted it (``players_counted``) — so that a verdict on a board that never ended (a game
    resigned mid-fight, whose 'seki' may be a fight) is not read as one that did."""
    rows, cols = analysis.classes.shape

    def packed(mask) -> bytes:
        return np.asarray(mask, dtype=np.int8).tobytes()

    def names(scorings) -> list[str]:
        return [r.name for r in rulesets if r.scoring in scorings]

    status = [{"kind": c.kind, "stones": packed(c.stones), "inside": packed(c.inside),
               "dead_under": names(c.dead_under), "inside_dead_under": names(c.inside_dead_under)}
              for c in cases]
    differ = [{"ruleset": name, "dead": packed(mask)} for name, mask in (own_dead or {}).items()
              if not np.array_equal(mask, verdict.dead)]

    return {"game_id": game_id, "board_rows": rows, "board_cols": cols,
            "dead": packed(verdict.dead), "seki": packed(analysis.seki),
            "proven": packed(verdict.proven), "classes": packed(analysis.classes),
            "life_method": verdict.method, "life_confidence": float(verdict.confidence),
            "finished": bool(verdict.finished), "settled": bool(verdict.finished) or bool(players_counted),
            "life_confirmable": confirmable,
            "unsettled": int(verdict.unsettled), "rule_flags": list(verdict.flags),
            "status_cases": status, "status_dead": differ, "finish": finish, "duplicate_of": None}


def stored_life(row: Mapping) -> StoredLife:
    """A life-table row (a mapping of its columns) as a :class:`StoredLife`.

    Examples
    --------
    >>> row = {"board_rows": 1, "board_cols": 3, "dead": b"\\0\\0\\1", "seki": b"\\0\\0\\0",
    ...        "proven": b"\\1\\0\\0", "classes": b"\\1\\3\\2", "life_method": "estimate",
    ...        "life_confidence": 0.5, "finished": False, "unsettled": 2, "rule_flags": []}
    >>> life = stored_life(row)
    >>> life.dead.tolist(), life.classes.tolist(), life.method
    ([[False, False, True]], [[1, 3, 2]], 'estimate')
    """
    shape = int(row["board_rows"]), int(row["board_cols"])

    def grid(column: str, dtype) -> np.ndarray:
        return np.frombuffer(row[column], dtype=np.int8).reshape(shape).astype(dtype)

    return StoredLife(dead=grid("dead", bool), seki=grid("seki", bool), proven=grid("proven", bool),
                      classes=grid("classes", np.int8), method=row["life_method"],
                      confidence=float(row["life_confidence"]), finished=bool(row["finished"]),
                      unsettled=int(row["unsettled"]),
                      flags=() if row["rule_flags"] is None else tuple(row["rule_flags"]))


def read_verdicts(run: str | Path, game_ids: Iterable[str]) -> dict[str, StoredLife]:
    """The stored verdicts of ``game_ids`` in the run folder ``run``, by game id (the
    first copy's, for a record read twice); a game without one is absent."""
    ids = list(game_ids)
    path = Path(run) / LIFE_FILE
    if not ids or not os.path.lexists(path):
        return {}
    table = read_checked(path, LIFE_SCHEMA, pc.field("game_id").isin(ids))
    check_masks(path, table)
    verdicts: dict[str, StoredLife] = {}
    for row in table.to_pylist():
        verdicts.setdefault(row["game_id"], stored_life(row))
    return verdicts


def read_life(run: str | Path, *, keep_copies: bool = False):
    """The life table of a run folder as pandas (one row per scored game, masks as bytes:
    :func:`stored_life` turns a row into arrays), without the rows of a record read twice
    unless ``keep_copies`` (as the SQL views ``life`` and ``all_life``)."""
    return read_frame(Path(run) / LIFE_FILE, LIFE_SCHEMA, keep_copies=keep_copies, check=check_masks)
