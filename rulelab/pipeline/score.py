"""Score a run: the games table → the scores table (one row per game × ruleset) and the
life table (one row per game: its verdict and the scorer's point classes under it).

Positions come from the games table, never from a new replay. Each game's dead stones
are decided once and reused for every ruleset, and stored (:mod:`rulelab.store.life`) so
that nothing later decides them again; so is the region analysis of the board.
"""

from __future__ import annotations

import time
from dataclasses import fields, replace
from functools import partial
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from rulelab.errors import InputError, RulelabError, RulesError, raise_if_interrupted
from rulelab.life import LifeMethod, LifeVerdict, check_seed, life_method
from rulelab.life.status import StatusCase, dead_under, status_cases
from rulelab.pipeline.checkpoint import PartStore, Stage, publish_table, run_lock, table_digest
from rulelab.pipeline.duplicates import copies_of_games, mark_copies
from rulelab.pipeline.engines import open_engine
from rulelab.pipeline.ingest import check_output_folder, environment, games_stage, provenance, publish_games, run_pipeline
from rulelab.position import Position
from rulelab.read.cycles import WINNERS, repetition
from rulelab.read.sources import ReadStats, check_inputs
from rulelab.rules import (PLAYOUT_MODELS, PRESETS, Ruleset, check_komi, get_ruleset, played_out,
                           server_ruleset, with_source_dame)
from rulelab.scoring import PointClasses, ScoreBreakdown, classify_points, score_all
from rulelab.store.layout import GAMES_FILE, LIFE_FILE, MANIFEST_FILE, SCORES_FILE
from rulelab.store.life import LIFE_SCHEMA, life_row
from rulelab.store.manifest import CHECKSUMS, checksums, read_manifest
from rulelab.store.positions import COUNTED_KINDS, POSITION_COLUMNS, position_from_row
from rulelab.store.tables import read_frame, read_provenance, write_json_atomic

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
    ended = [("board_settled", pa.bool_()), ("ended_by_passes", pa.bool_()),
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
    try:
        ruleset = server_ruleset(row["rules"], row["source"], assume_rules)
        if ruleset is None or row["komi"] is None:
            return None
        return played_out(ruleset, playout).with_komi(row["komi"])
    except RulesError:  # a komi the ruleset cannot have (e.g. not a multiple of 0.5)
        return None


def score_game(position: Position, rulesets: Sequence[Ruleset] | None = None, *,
               life: str | LifeMethod = "auto", record: Ruleset | None = None, komi: float | None = None,
               verdict: LifeVerdict | None = None, classes: PointClasses | None = None,
               cases: list[StatusCase] | None = None) -> list[dict]:
    """Score one position under several rulesets; one flat record per ruleset.

    Parameters
    ----------
    position : Position
        A final position (see :func:`position_from_row` to get one from a games table).
    rulesets : sequence of Ruleset, optional
        Defaults to every preset at its standard komi, dead stones captured
        (:func:`resolve_rulesets`). Each counts open dame by its ``dame_policy``.
    life : {'auto', 'estimate', 'markup', 'gnugo', 'katago'} or LifeMethod
        How dead stones are decided (:func:`rulelab.life.life_method`).
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

    Besides the breakdown, each record says whether the board is settled
    (``board_settled``: no open border, no ko, no capturable string) and whether the
    record ended by passes (``ended_by_passes``); ``finished`` is both. Each ruleset
    is scored with its own verdict on the status cases (:mod:`rulelab.life.status`):
    ``status`` names the cases it decides otherwise than ``verdict`` (comma-separated,
    null when none), and ``status_effect`` is what that moved its margin (the margin
    minus the margin under ``verdict``; 0 when nothing moved).
    """
    labelled = _labelled(list(rulesets or resolve_rulesets(None, None)), record, komi)
    verdict = verdict or life_method(life).decide(position)
    cases = game_status(position, verdict) if cases is None else cases
    chosen = [ruleset for ruleset, _ in labelled]
    common = score_all(position, verdict, chosen, classes=classes)
    own = {scoring: _status_scores(position, verdict, chosen, cases, scoring)
           for scoring in ("area", "territory")}
    state = {"board_settled": _board_settled(position, verdict), "ended_by_passes": position.ended_by_passes}
    records = []
    for i, (ruleset, source) in enumerate(labelled):
        kinds, scored = own[ruleset.scoring]
        b = scored[i] if scored else common[i]
        records.append({**b.to_record(), **state, "komi_source": source, "status": kinds,
                        "status_effect": b.margin - common[i].margin})
    return records


def game_status(position: Position, verdict) -> list[StatusCase]:
    """The status cases of a record that ended by passes (none for one that stopped
    early: its board is not one the rules would confirm)."""
    if not position.ended_by_passes:
        return []
    return status_cases(position.board, verdict.dead, getattr(verdict, "ko_kills", ()))


def _status_scores(position: Position, verdict, rulesets: list[Ruleset], cases: list[StatusCase],
                   scoring: str) -> tuple[str | None, list[ScoreBreakdown] | None]:
    """``(kinds, breakdowns)``: the cases that rules counting ``scoring`` decide
    otherwise than ``verdict``, and every ruleset scored with those rules' dead stones
    (None when they are the verdict's own)."""
    changed = [case.kind for case in cases
               if not np.array_equal(dead_under(verdict.dead, [case], scoring), verdict.dead)]
    if not changed:
        return None, None
    own = replace(verdict, dead=dead_under(verdict.dead, cases, scoring))
    return ",".join(sorted(set(changed))), score_all(position, own, rulesets)


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
                 seed: int = 0) -> dict[str, list[dict]]:
    """The scores and life rows of a batch of games rows (a game that cannot be scored
    has error rows in the scores table and no life row); ``seed`` seeds the estimator."""
    out, lives = [], []
    rows = [row for row in rows if row["status"] == "ok"]
    verdicts = _batch_verdicts(rows, life)
    for row, verdict in zip(rows, verdicts):
        record = record_ruleset(row, assume_rules, playout)
        illegal = bool(row["illegal_move_count"])
        # each ruleset as it is played in this game (its handicap komi), counting open dame
        # as the record's source leaves them
        counted = [with_source_dame(r, row["source"]).for_game(row["handicap"] or 0) for r in rulesets]
        try:
            position = position_from_row(row)
            verdict = verdict or life.decide(position, rng_seed=seed)
            classes = classify_points(position, verdict)
            cases = game_status(position, verdict)
            scored = score_game(position, counted, life=life, record=record, komi=komi,
                                verdict=verdict, classes=classes, cases=cases)
            lives.append(life_row(row["game_id"], verdict, classes, cases, counted,
                                  {r.name: dead_under(verdict.dead, cases, r.scoring) for r in counted},
                                  players_counted=row["result_kind"] in COUNTED_KINDS))
        except Exception as error:  # one game that cannot be scored costs only its own rows
            raise_if_interrupted(error)
            scored = failed_scores(counted, record, error, komi)
        for entry in scored:
            # A record with illegal moves did not reach its end by the rules, however it stopped.
            entry["finished"] = entry.get("finished") and not illegal
            out.append({"game_id": row["game_id"], **entry, "has_illegal_moves": illegal,
                        **_repetition(row, entry)})
    return {"scores": out, "life": lives}


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
    rows' positions (None each for other methods, and for all when the batch fails: each
    game is then decided, and fails, on its own)."""
    if not life.batched or not rows:
        return [None] * len(rows)
    try:
        return life.decide_batch([position_from_row(row) for row in rows])
    except Exception as error:
        raise_if_interrupted(error)
        return [None] * len(rows)


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


KOMI_LIMIT = 19 * 19
"""The largest komi (either sign) to score every game at: beyond the points of a 19×19
board, komi alone decides nearly every game."""


def _check_user_komi(komi: float) -> None:
    if abs(check_komi(komi, "to score every game at")) > KOMI_LIMIT:
        raise RulesError(f"The 'komi' to score every game at must lie within ±{KOMI_LIMIT}, the points of a "
                         f"19×19 board (beyond them komi alone decides the games); got {komi:g}")


def _recorded_ingest(out: Path, paths: list[str]) -> dict | None:
    """The manifest of the ingest in ``out``, if it read the same ``paths``.

    Their content is not read here: the run hashes each input once, as it reads it, and
    :func:`_check_inputs_unchanged` compares those hashes with the manifest's.
    """
    recorded = read_manifest(out)
    if not (out / GAMES_FILE).is_file() or recorded is None:
        return None
    if [entry.get("path") for entry in recorded.get("inputs", [])] != paths:
        return None
    return recorded


def _check_inputs_unchanged(out: Path, recorded: dict | None, read: list[dict], force: bool) -> None:
    """Refuse to replace an ingest made from other contents of the same paths, unless ``force``.

    Checked once the inputs are read, before any table is published: the parts made on
    the way are kept, so the run with ``--force`` reuses them.
    """
    if recorded is not None and not force and recorded.get("inputs") != read:
        raise InputError(f"{out / GAMES_FILE} was made from other contents of these inputs; "
                         "use --force to overwrite")


def scores_stage(rulesets: Sequence[Ruleset], life: str | LifeMethod, komi: float | None,
                 assume_rules: str | None = None, playout: str = "captured", seed: int = 0) -> Stage:
    """The scores table made unit by unit: a unit's games rows → one row per ok game ×
    ruleset, and beside it the life table (one row per game scored).

    What the method's verdicts depend on is among the options (KataGo's files), so the
    tables say which engine and net decided life, and a run with other files makes its parts
    again (a missing engine stops it here).
    """
    life = life_method(life)
    options = {"rules": [r.name for r in rulesets], "komi": komi, "life": life.name,
               "assume_rules": assume_rules, "playout": playout, "seed": seed, **life.provenance()}
    return Stage("scores", SCORES_SCHEMA,
                 partial(_score_batch, rulesets=rulesets, life=life, komi=komi,
                         assume_rules=assume_rules, playout=playout, seed=seed),
                 options, environment(), reads=(*POSITION_COLUMNS, "result_kind"),
                 beside=(("life", LIFE_SCHEMA),))


def score(paths: Iterable[str], out: str | Path, *, rules: Iterable[str] | None = None,
          komi: float | None = None, life: str | LifeMethod = "auto", jobs: int | None = None,
          force: bool = False, progress: bool = False, engine: str = "local",
          scheduler: str | None = None, assume_rules: str | None = None,
          playout: str = "captured", seed: int = 0) -> dict:
    """Ingest (or reuse the ingest in ``out``) and write ``out/scores.parquet`` and
    ``out/life.parquet``.

    Every ok game is scored under each ruleset (every preset by default) at its
    standard komi — the komi of an even game, or the ruleset's handicap komi in a game of two
    handicap stones or more (:meth:`rulelab.rules.Ruleset.for_game`) — with ``komi`` also at that komi (``komi_source='user'``), and under
    the record's own rules at the record's own komi (``komi_source='record'``);
    ``assume_rules`` names the rules of records that name none and whose server is not
    known to imply any. The rows of a record read twice are marked as in the games
    table (``duplicate_of``). ``playout`` is the play-out model of rules that count the
    board as it stands (Tromp–Taylor, stone scoring): ``'captured'`` scores them after
    the dead stones are captured, ``'as-is'`` on the board as it stands
    (:func:`rulelab.rules.played_out`). ``seed`` seeds the estimator's playouts: the
    same seed gives the same verdicts, and other seeds show how far a count depends on
    the estimate's chance.

    Games and scores are made unit by unit and checkpointed under ``out/parts/``, as
    :func:`rulelab.pipeline.ingest.ingest` describes: an interrupted run resumes, and a re-run
    (with ``force``) makes only the parts of new or changed inputs. ``engine`` and
    ``scheduler`` choose where the work runs (see :func:`rulelab.pipeline.engines.open_engine`).

    Returns
    -------
    dict
        The updated manifest.
    """
    life = life_method(life)
    check_seed(seed)
    paths = check_inputs(paths)
    out = Path(out)
    if playout not in PLAYOUT_MODELS:
        raise RulesError(f"The 'playout' parameter must be one of {PLAYOUT_MODELS}; got {playout!r}")
    rulesets = resolve_rulesets(rules, None, playout)
    if komi is not None:  # here, not in every game
        _check_user_komi(komi)
    if assume_rules is not None:
        assume_rules = get_ruleset(assume_rules).name
    stage = scores_stage(rulesets, life, komi, assume_rules, playout, seed)
    recorded = _recorded_ingest(out, paths)
    finished = [SCORES_FILE, LIFE_FILE] if recorded else [GAMES_FILE, MANIFEST_FILE, SCORES_FILE, LIFE_FILE]
    if recorded and _scored_with(out, stage.options):
        finished = [name for name in finished if name not in (SCORES_FILE, LIFE_FILE)]
    check_output_folder(paths, out, finished, force)
    out.mkdir(parents=True, exist_ok=True)
    with run_lock(out):
        return _score_into(out, paths, stage, recorded, force, jobs, progress, engine, scheduler)


def _scored_with(out: Path, options: dict) -> bool:
    """Whether the scores and life tables in ``out`` were made with ``options``: scoring
    again over the same ingest remakes them from the same parts, and other contents of the
    inputs are refused once read (:func:`_check_inputs_unchanged`), so it needs no ``force``.

    The two are published together with the same provenance, so either one says it: a
    byte flipped in the footer of one (its provenance unreadable) is then rebuilt like any
    other damage, rather than making the other look like someone else's finished table.
    """
    return any(_made_with(out / name, options) for name in (SCORES_FILE, LIFE_FILE))


def _made_with(table: Path, options: dict) -> bool:
    try:
        return read_provenance(table).get("options") == options
    except (OSError, ValueError, pa.ArrowException):  # missing or damaged: made again
        return False


def _score_into(out: Path, paths: list[str], stage: Stage, recorded: dict | None, force: bool,
                jobs: int | None, progress: bool, engine: str, scheduler: str | None) -> dict:
    """The work of :func:`score` once its run folder is checked and locked; ``recorded``
    is the manifest of the ingest there that read the same paths (its options are reused)."""
    started = time.perf_counter()
    stats = ReadStats()
    ingest_options = {"superko": (recorded or {}).get("options", {}).get("superko", False)}
    with open_engine(engine, jobs=jobs, scheduler=scheduler) as runner:
        run = run_pipeline(paths, out, [games_stage(**ingest_options), stage], runner, progress, stats)
        where = runner.describe()
    _check_inputs_unchanged(out, recorded, stats.inputs, force)
    seconds = time.perf_counter() - started
    manifest = publish_games(out, run, stats, ingest_options, where, seconds)
    store = PartStore(out)
    keys = run.keys["scores"]
    meta = provenance("score", stats.inputs, stage.options)
    copies = copies_of_games(pq.read_table(out / GAMES_FILE, columns=["game_id", "duplicate_of"]))
    count = publish_table(store, "scores", keys, out / SCORES_FILE, SCORES_SCHEMA, meta,
                          lambda groups: mark_copies(groups, copies))
    lives = publish_table(store, "life", keys, out / LIFE_FILE, LIFE_SCHEMA, meta,
                          lambda groups: mark_copies(groups, copies, by=("game_id",)))
    for table in ("scores", "life"):
        store.prune(table, keys)
    manifest["score"] = {
        "options": stage.options,
        "rows": count,
        "seconds": round(time.perf_counter() - started, 3),
        "environment": environment(),
        "units": run.summary("scores"),
    }
    manifest["tables"].update(scores=SCORES_FILE, life=LIFE_FILE)
    manifest["counts"].update(scores_rows=count, life_rows=lives)
    digest = table_digest(keys, meta)  # both tables are assembled from parts of the same keys
    manifest["parts"].update(scores=digest, life=digest)
    manifest[CHECKSUMS].update(checksums(out, [SCORES_FILE, LIFE_FILE]))
    write_json_atomic(out / MANIFEST_FILE, manifest)
    return manifest


def read_scores(path: str | Path, *, keep_copies: bool = False) -> pd.DataFrame:
    """The scores table of a run folder (integer columns as nullable integers), without
    the rows of a record read twice unless ``keep_copies`` (as the SQL views ``scores``
    and ``all_scores``)."""
    return read_frame(Path(path) / SCORES_FILE, keep_copies=keep_copies)
