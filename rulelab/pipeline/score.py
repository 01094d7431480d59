"""Score a run: the games table → the scores table (one row per game × ruleset) and the
life table (one row per game: its verdict and the scorer's point classes under it).

Positions come from the games table, never from a new replay. Each game's dead stones
are decided once and reused for every ruleset, and stored (:mod:`rulelab.store.life`) so
that nothing later decides them again; so is the region analysis of the board. The
``score`` command (:func:`rulelab.pipeline.run.score`) runs this stage after the games stage.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from functools import lru_cache, partial
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np
import pandas as pd
import pyarrow as pa

from rulelab.errors import RulelabError, RulesError, raise_if_interrupted
from rulelab.life import LifeMethod, LifeVerdict, life_method
from rulelab.life.methods import on_board
from rulelab.life.status import StatusCase, dead_under, ruled_cases, status_cases
from rulelab.pipeline.checkpoint import Stage
from rulelab.pipeline.ingest import environment
from rulelab.position import Position
from rulelab.read.cycles import WINNERS, repetition
from rulelab.rules import (PRESETS, Ruleset, finish_basis, get_ruleset, is_one_stone_game, played_out,
                           server_ruleset, with_source_dame)
from rulelab.scoring import PointClasses, ScoreBreakdown, classify_points, life_confirmable
from rulelab.scoring.finish import finished
from rulelab.scoring.tally import TallyRow, analyses_for, tally
from rulelab.store.layout import SCORES_FILE
from rulelab.store.life import LIFE_SCHEMA, life_row
from rulelab.store.positions import COUNTED_KINDS, POSITION_COLUMNS, position_from_row
from rulelab.store.checks import check_scores
from rulelab.store.tables import read_frame


def _scores_schema() -> pa.Schema:
    """game_id and komi_source, one column per ScoreBreakdown field typed by its annotation,
    how the record ended, ``duplicate_of`` (as in the games table), and ``error`` (null
    unless the game could not be scored under that ruleset).

    Built here, beside the scorer, and not in :mod:`rulelab.store.tables`: the games stage
    imports the tables module, and its parts' keys hash every module it imports, so a
    schema built there would make each edit of the scorer remake every games part.
    """
    types = {"int": pa.int32(), "float": pa.float64(), "str": pa.string(), "bool": pa.bool_(),
             "float | None": pa.float64(), "int | None": pa.int32(), "str | None": pa.string()}
    columns = [("game_id", pa.string()), ("komi_source", pa.string())]
    columns += [(f.name, types[str(f.type)]) for f in fields(ScoreBreakdown)]
    ended = [("board_settled", pa.bool_()), ("ended_by_passes", pa.bool_()), ("finish", pa.string()),
             ("has_illegal_moves", pa.bool_()), ("duplicate_of", pa.string()),
             ("status", pa.string()), ("status_effect", pa.float64()), ("repetition", pa.string())]
    return pa.schema(columns + ended + [("error", pa.string())])


SCORES_SCHEMA = _scores_schema()


def record_ruleset(row: dict, assume_rules: str | None = None,
                   playout: str = "captured") -> Ruleset | None:
    """The rules the record was played under, as its server counts them, at the record's komi.

    A record that names no rules takes its server's, else ``assume_rules`` — what the
    researcher knows of a collection (:func:`rulelab.rules.server_ruleset`). Rules without
    an agreement phase follow the play-out model ``playout``
    (:func:`rulelab.rules.played_out`).
    """
    return _record_ruleset(row["rules"], row["source"], row["komi"], assume_rules, playout)


@lru_cache(maxsize=1024)
def _record_ruleset(rules: str | None, source: str | None, komi: float | None, assume_rules: str | None,
                    playout: str) -> Ruleset | None:
    """:func:`record_ruleset` of a record's rules, source and komi: a collection holds a
    few of these, and each is made once (a ruleset cannot be changed, so records share it)."""
    try:
        ruleset = server_ruleset(rules, source, assume_rules)
        if ruleset is None or komi is None:
            return None
        return played_out(ruleset, playout).with_komi(komi)
    except RulesError:  # a komi the ruleset cannot have (e.g. not a multiple of 0.5)
        return None


def score_game(position: Position, rulesets: Sequence[Ruleset] | None = None, *,
               life: str | LifeMethod = "auto", record: Ruleset | None = None, komi: float | None = None,
               verdict: LifeVerdict | None = None, classes: PointClasses | None = None,
               cases: list[StatusCase] | None = None, finish: str = "none") -> list[dict]:
    """Score one position under several rulesets; one flat record per ruleset.

    Parameters
    ----------
    position : Position
        A final position (see :func:`position_from_row` to get one from a games table).
    rulesets : sequence of Ruleset, optional
        Defaults to every preset at its standard komi, dead stones captured
        (:func:`resolve_rulesets`). Each counts open dame by its ``dame_policy``.
    life : {'auto', 'estimate', 'markup', 'gnugo', 'katago'} or LifeMethod
        How dead stones are decided (:func:`rulelab.life.life_method`); on a board an
        engine cannot read, the estimator (:func:`rulelab.life.methods.on_board`).
    record : Ruleset, optional
        The record's own rules at its own komi, scored as an extra row.
    komi : float, optional
        Also score every ruleset at this komi (``komi_source='user'``).
    verdict : LifeVerdict, optional
        The position's verdict by ``life``, when already decided (in a batch).
    classes : PointClasses, optional
        The point classes under ``verdict``, when already made (for the life table).
    cases : list of StatusCase, optional
        The position's status cases (:func:`game_status`), when already found.
    finish : {'none', 'play'}
        The counting basis (:data:`rulelab.rules.FINISH_BASES`): the board as it stands, or
        played to its end first (:mod:`rulelab.scoring.finish`); ``classes`` and ``cases``
        are then those of the finished position.

    Besides the breakdown, each record says whether the board is settled
    (``board_settled``: no open border, no ko, no capturable string) and whether the
    record ended by passes (``ended_by_passes``); ``finished`` is both. Each ruleset
    is scored with its own verdict on the status cases (:mod:`rulelab.life.status`):
    ``status`` names the cases it decides otherwise than ``verdict`` (comma-separated,
    null when none), and ``status_effect`` is what that moved its margin (the margin
    minus the margin under ``verdict``; 0 when nothing moved).
    """
    verdict = verdict or on_board(life_method(life), position.shape).decide(position)
    done = finished(position, verdict, finish_basis(None, finish))
    plan = _plan(done.position, list(rulesets or resolve_rulesets(None, None)), record, komi, done.life, classes,
                 cases, finish)
    columns = _scored([plan])
    return [dict(zip(columns, values)) for values in zip(*columns.values())]


@dataclass(frozen=True)
class _Plan:
    """One game's counts, to be tallied with other games' (:func:`_scored`): each ruleset
    under the verdict, and under its rules' own verdict on the status cases where that
    differs."""

    rows: list[TallyRow]
    """The counts under the verdict, one per ruleset, then those under the rules' own verdicts."""
    sources: list[str]
    """Each ruleset's ``komi_source``."""
    own: list[int | None]
    """Per ruleset, the row of its count under its rules' own verdict (None: the verdict's)."""
    status: list[str | None]
    """Per ruleset, the status cases its rules decide otherwise than the verdict."""
    state: dict
    """How the game ended (``board_settled``, ``ended_by_passes``) and the basis it is
    counted on (``finish``)."""


def _plan(position: Position, rulesets: list[Ruleset], record: Ruleset | None, komi: float | None,
          verdict: LifeVerdict, classes: PointClasses | None, cases: list[StatusCase] | None,
          finish: str) -> _Plan:
    """The counts :func:`score_game` makes of one game (see there), each board analysed:
    ``position`` is the board counted on the basis ``finish``."""
    labelled = _labelled(rulesets, record, komi)
    cases = game_status(position, verdict) if cases is None else cases
    chosen = [ruleset for ruleset, _ in labelled]
    rows = [(position, verdict, r, r.komi, a) for r, a in zip(chosen, analyses_for(position, verdict, chosen, classes))]
    own: list[int | None] = [None] * len(chosen)
    status: list[str | None] = [None] * len(chosen)
    for scoring in ("area", "territory"):
        kinds, dead = _status_dead(verdict, cases, scoring)
        if kinds is None:
            continue
        theirs = [i for i, r in enumerate(chosen) if r.scoring == scoring]
        verdict_of_rules = replace(verdict, dead=dead)
        analyses = analyses_for(position, verdict_of_rules, [chosen[i] for i in theirs])
        for i, a in zip(theirs, analyses):
            own[i], status[i] = len(rows), kinds
            rows.append((position, verdict_of_rules, chosen[i], chosen[i].komi, a))
    state = {"board_settled": _board_settled(position, verdict), "ended_by_passes": position.ended_by_passes,
             "finish": finish}
    return _Plan(rows, [source for _, source in labelled], own, status, state)


def _scored(plans: list[_Plan]) -> dict[str, list]:
    """The records of :func:`score_game` of every plan, in order, as columns: every count of
    every plan tallied at once, and each record taken from its ruleset's count."""
    counts = tally([row for plan in plans for row in plan.rows])
    common, chosen, extra = [], [], {"komi_source": [], "status": [], **{name: [] for name in _STATE}}
    first = 0
    for plan in plans:
        for i, source in enumerate(plan.sources):
            common.append(first + i)
            chosen.append(first + (i if plan.own[i] is None else plan.own[i]))
            extra["komi_source"].append(source)
            extra["status"].append(plan.status[i])
            for name in _STATE:
                extra[name].append(plan.state[name])
        first += len(plan.rows)
    columns = {name: [values[i] for i in chosen] for name, values in counts.items()}
    margins = counts["margin"]
    effect = [margin - margins[i] for margin, i in zip(columns["margin"], common)]
    return {**columns, **extra, "status_effect": effect}


_STATE = ("board_settled", "ended_by_passes", "finish")
"""How a game ended, the same in each of its records (:attr:`_Plan.state`)."""


def game_status(position: Position, verdict) -> list[StatusCase]:
    """The status cases of a record that ended by passes (none for one that stopped
    early: its board is not one the rules would confirm)."""
    if not position.ended_by_passes:
        return []
    return status_cases(position.board, verdict.dead, getattr(verdict, "ko_kills", ()))


def _status_dead(verdict, cases: list[StatusCase], scoring: str) -> tuple[str | None, np.ndarray | None]:
    """``(kinds, dead)``: the cases that rules counting ``scoring`` decide otherwise than
    ``verdict``, and those rules' dead stones (None, None when they are the verdict's own,
    as on the players' marks: :func:`~rulelab.life.status.ruled_cases`)."""
    cases = ruled_cases(verdict.method, cases)
    changed = [case.kind for case in cases
               if not np.array_equal(dead_under(verdict.dead, [case], scoring), verdict.dead)]
    if not changed:
        return None, None
    return ",".join(sorted(set(changed))), dead_under(verdict.dead, cases, scoring)


def _labelled(rulesets: list[Ruleset], record: Ruleset | None,
              komi: float | None) -> list[tuple[Ruleset, str]]:
    """Each ruleset to score with its ``komi_source``: standard, user and record."""
    labelled = [(r, "standard") for r in rulesets]
    labelled += [(r.with_komi(komi), "user") for r in rulesets] if komi is not None else []
    return labelled + ([(record, "record")] if record is not None else [])


def _board_settled(position: Position, verdict) -> bool:
    """The board alone is settled, however the record ended (a method that does not
    count open points, such as GNU Go's, says so in ``finished``)."""
    unsettled = getattr(verdict, "unsettled", None)
    if unsettled is None:
        return bool(verdict.finished)
    return unsettled == 0 and position.ko_point is None


def _score_batch(rows: list[dict], rulesets: Sequence[Ruleset], life: LifeMethod, komi: float | None,
                 assume_rules: str | None = None, playout: str = "captured",
                 seed: int = 0, finish: str = "auto") -> dict[str, pa.Table | list[dict]]:
    """The scores table and the life rows of a batch of games rows (a game that cannot be
    scored has error rows in the scores table and no life row); ``seed`` seeds the
    estimator; each game is counted on the basis :func:`rulelab.rules.finish_basis` gives its
    source and result under ``finish``, every ruleset on the same board. The scores are made as columns,
    straight from the batch's tally."""
    lives = []
    rows = [row for row in rows if row["status"] == "ok"]
    verdicts = _batch_verdicts(rows, life)
    games = []
    for row, verdict in zip(rows, verdicts):
        record = record_ruleset(row, assume_rules, playout)
        # each ruleset as it was played in this game (its handicap komi, or the komi of the
        # game's era), counting open dame as the record's source leaves them
        one_stone = is_one_stone_game(row["handicap"], row["komi"], row["source"])
        counted = [with_source_dame(r, row["source"]).for_game(row["handicap"] or 0, row["year"], one_stone)
                   for r in rulesets]
        try:
            position = position_from_row(row)
            verdict = verdict or on_board(life, position.shape).decide(position, rng_seed=seed)
            classes = classify_points(position, verdict)
            basis = finish_basis(row["source"], finish, row["result_kind"])
            done = finished(position, verdict, basis, classes)  # the board every ruleset counts
            counted_classes = classify_points(done.position, done.life) if done.moves else classes
            cases = game_status(position, verdict)  # the rules confirm the board the players left
            plan = _plan(done.position, counted, record, komi, done.life, counted_classes, cases, basis)
            lived = life_row(row["game_id"], verdict, classes, cases, counted, _own_dead(verdict, cases, counted),
                             players_counted=row["result_kind"] in COUNTED_KINDS,
                             finish=done.sgf() if basis == "play" else None,
                             confirmable=life_confirmable(position.board, verdict.dead))
        except Exception as error:  # one game that cannot be scored costs only its own rows
            raise_if_interrupted(error)
            plan, lived = failed_scores(counted, record, error, komi), None
        games.append((row, plan, lived))
    scored = _scored([plan for _, plan, _ in games if isinstance(plan, _Plan)])
    columns: dict[str, list] = {name: [] for name in SCORES_SCHEMA.names}
    first = 0
    for row, plan, lived in games:
        if lived is not None:
            lives.append(lived)
        if isinstance(plan, _Plan):
            count = len(plan.sources)
            entries = {name: values[first:first + count] for name, values in scored.items()}
            first += count
        else:
            count = len(plan)
            entries = {name: [entry.get(name) for entry in plan] for name in columns}
        illegal = bool(row["illegal_move_count"])
        # A record with illegal moves did not reach its end by the rules, however it stopped.
        entries["finished"] = [finished and not illegal for finished in entries["finished"]]
        entries.update(game_id=[row["game_id"]] * count, has_illegal_moves=[illegal] * count)
        if row.get("cycle") is not None:
            _add_repetition(row, entries)
        for name, values in columns.items():
            values.extend(entries.get(name) or [None] * count)
    return {"scores": pa.Table.from_pydict(columns, schema=SCORES_SCHEMA), "life": lives}


def _add_repetition(row: dict, entries: dict[str, list]) -> None:
    """Put the :func:`_repetition` of each of a game's records (``entries``, as columns) among them."""
    records = [dict(zip(entries, values)) for values in zip(*entries.values())]
    repeated = [_repetition(row, record) for record in records]
    for name in ("repetition", "winner"):
        entries[name] = [extra.get(name, record.get(name)) for record, extra in zip(records, repeated)]


def _own_dead(verdict, cases: list[StatusCase], rulesets: list[Ruleset]) -> dict[str, np.ndarray]:
    """Each ruleset's dead stones under its rules' own verdict on the status cases, by
    name, for the life table: one mask per way of counting, and none for a game without
    a case the rules decide in the count (every ruleset then takes the verdict's)."""
    cases = ruled_cases(verdict.method, cases)
    if not cases:
        return {}
    by_scoring = {scoring: dead_under(verdict.dead, cases, scoring) for scoring in {r.scoring for r in rulesets}}
    return {r.name: by_scoring[r.scoring] for r in rulesets}


def _repetition(row: dict, entry: dict) -> dict:
    """The ``repetition`` column of a scores row of a game whose main line repeated a
    whole board (its meaning under the row's ruleset, :func:`rulelab.read.cycles.repetition`),
    and, for a record that ends in the cycle, the winner it gives where that meaning
    decides the game (a draw, or ``void`` for no result); nothing for other games, or an
    error row."""
    if row.get("cycle") is None or entry.get("error"):
        return {}
    outcome = repetition(entry["ruleset"], row["cycle_start"], row["cycle_end"])
    decided = row["ended_in_cycle"] and outcome in WINNERS
    return {"repetition": outcome, **({"winner": WINNERS[outcome]} if decided else {})}


def _batch_verdicts(rows: list[dict], life: LifeMethod) -> list[LifeVerdict | None]:
    """The verdicts of a method that decides a batch faster than one by one (KataGo) on the
    rows' positions it can read (None each for other methods and other boards, and for all
    when the batch fails: each game is then decided, and fails, on its own)."""
    verdicts: list[LifeVerdict | None] = [None] * len(rows)
    if not life.batched:
        return verdicts
    taken = [(i, position) for i, position in enumerate(map(position_from_row, rows)) if life.takes(position.shape)]
    if not taken:
        return verdicts
    try:
        decided = life.decide_batch([position for _, position in taken])
    except Exception as error:
        raise_if_interrupted(error)
        return verdicts
    for (i, _), verdict in zip(taken, decided):
        verdicts[i] = verdict
    return verdicts


def failed_scores(rulesets: Sequence[Ruleset], record: Ruleset | None, error: Exception,
                  komi: float | None = None) -> list[dict]:
    """Rows that say why a game has no score, one per ruleset it should have had."""
    status = getattr(error, "status", "internal_error")
    message = f"{status}: {error}" if isinstance(error, RulelabError) else f"{status}: {error!r}"
    return [{"ruleset": r.name, "komi": r.komi, "komi_source": source, "error": message}
            for r, source in _labelled(list(rulesets), record, komi)]


def resolve_rulesets(rules: Iterable[str] | None, komi: float | None,
                     playout: str = "captured") -> list[Ruleset]:
    """Named presets (all by default), each at ``komi`` when one is given, under the
    play-out model ``playout`` (:data:`rulelab.rules.PLAYOUT_MODELS`).

    Raises
    ------
    RulesError
        For an unknown name, a ruleset named twice (it would score every game twice), or
        ``rules`` naming none (an empty list is a mistake, not every preset).
    """
    chosen = [get_ruleset(name.strip()) for name in rules] if rules is not None else list(PRESETS.values())
    if not chosen:
        raise RulesError("The 'rules' parameter names no ruleset; leave it out to score every preset")
    named = [r.name for r in chosen]
    twice = sorted({name for name in named if named.count(name) > 1})
    if twice:
        raise RulesError(f"The 'rules' parameter names {', '.join(twice)} more than once")
    chosen = [played_out(r, playout) for r in chosen]
    return [r.with_komi(komi) for r in chosen] if komi is not None else chosen


def scores_stage(rulesets: Sequence[Ruleset], life: str | LifeMethod, komi: float | None,
                 assume_rules: str | None = None, playout: str = "captured", seed: int = 0,
                 finish: str = "auto") -> Stage:
    """The scores table made unit by unit: a unit's games rows → one row per ok game ×
    ruleset, and beside it the life table (one row per game scored).

    What the method's verdicts depend on is among the options (KataGo's files), so the
    tables say which engine and net decided life, and a run with other files makes its parts
    again (a missing engine stops it here).
    """
    life = life_method(life)
    options = {"rules": [r.name for r in rulesets], "komi": komi, "life": life.name,
               "assume_rules": assume_rules, "playout": playout, "seed": seed, "finish": finish,
               **life.provenance()}
    return Stage("scores", SCORES_SCHEMA,
                 partial(_score_batch, rulesets=rulesets, life=life, komi=komi,
                         assume_rules=assume_rules, playout=playout, seed=seed, finish=finish),
                 options, environment(), reads=(*POSITION_COLUMNS, "result_kind", "year"),
                 beside=(("life", LIFE_SCHEMA),))


def read_scores(path: str | Path, *, keep_copies: bool = False) -> pd.DataFrame:
    """The scores table of a run folder (integer columns as nullable integers), without
    the rows of a record read twice unless ``keep_copies`` (as the SQL views ``scores``
    and ``all_scores``)."""
    return read_frame(Path(path) / SCORES_FILE, SCORES_SCHEMA, keep_copies=keep_copies, check=check_scores)
