"""The commands: ``ingest``, ``score`` and ``validate`` of a collection into a run folder.

Each checks its inputs and the run folder (:mod:`rulelab.pipeline.run_folder`) before any
work, then streams the files from :mod:`rulelab.read.sources`, cut into units
(:mod:`rulelab.pipeline.units`), through the stages (:mod:`rulelab.pipeline.ingest` makes the
games table, :mod:`rulelab.pipeline.score` the scores and life tables) on workers of an
engine (:mod:`rulelab.pipeline.engines`: local processes or a Dask cluster); each unit's rows
are checkpointed as a part file (:mod:`rulelab.pipeline.checkpoint`), and the tables are
assembled from the parts in input order with their provenance and the manifest. Memory
stays flat however large the collection is, and a run interrupted or repeated makes only
the parts it lacks.
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path
from typing import Iterable, Sequence

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from rulelab import __version__
from rulelab.errors import InputError, RulesError
from rulelab.life import LifeMethod, check_seed, life_method
from rulelab.life_methods import ENGINE_METHODS
from rulelab.pipeline.checkpoint import PartStore, RunResult, Stage, publish_table, run_lock, run_units, table_digest
from rulelab.pipeline.duplicates import copies_of_games, copy_keys, first_copies, mark_copies, mark_duplicates
from rulelab.pipeline.engines import open_engine
from rulelab.pipeline.ingest import environment, games_stage, no_games
from rulelab.pipeline.progress import RunProgress, compile_kernels
from rulelab.pipeline.run_folder import (OVERWRITE, check_output_folder, check_own_outputs, made_for_the_run,
                                         named_folder)
from rulelab.pipeline.score import SCORES_SCHEMA, resolve_rulesets, scores_stage
from rulelab.pipeline.units import plan_units
from rulelab.pipeline.validate import (GAME_COLUMNS, SCORE_COLUMNS, VALIDATION_FILE, agreement, compare,
                                       both_bases, explain_misses, miss_class_counts, second_opinion)
from rulelab.read.sources import ReadStats, check_inputs, iter_files
from rulelab.rules import PLAYOUT_MODELS, check_komi, finish_basis, get_ruleset
from rulelab.store.layout import GAMES_FILE, LIFE_FILE, MANIFEST_FILE, SCORES_FILE
from rulelab.store.life import LIFE_SCHEMA
from rulelab.store.manifest import CHECKSUMS, checksums, damaged_tables, read_manifest
from rulelab.store.tables import GAMES_SCHEMA, TableWriter, read_provenance, write_json_atomic


def ingest(paths: Iterable[str], out: str | Path, *, jobs: int | None = None,
           force: bool = False, superko: bool = False, progress: bool = False,
           engine: str = "local", scheduler: str | None = None) -> dict:
    """Read every game under ``paths`` and write ``out/games.parquet`` and ``out/manifest.json``.

    Parameters
    ----------
    paths : iterable of str
        Files, folders (read recursively) and archives (.zip, .tar, .tar.gz/.tgz,
        .tar.xz, .tar.bz2), read as streams.
    out : path
        The run folder; created if missing. Never inside an input folder.
    jobs : int, optional
        Worker processes (default: one per core).
    force : bool
        Overwrite existing results. Parts of inputs that did not change are reused,
        so re-running on a grown collection reads only its new and changed files.
    superko : bool
        Check positional superko on every record, whatever its rules. Without it each
        record's moves are judged by the suicide and ko rules it names
        (:func:`rulelab.rules.replay_rules`): a positional or situational superko rule
        is checked, simple ko alone otherwise.
    progress : bool
        Show a progress bar on standard error.
    engine : {'local', 'dask'}
        Where the work runs (see :func:`rulelab.pipeline.engines.open_engine`).
    scheduler : str, optional
        Address of a Dask scheduler; without one, ``engine='dask'`` starts a local cluster.

    Returns
    -------
    dict
        The manifest written to ``out/manifest.json``.

    Notes
    -----
    Each unit's rows are kept under ``out/parts/``; a run that was interrupted resumes
    from them when the same command is run again, and the same command run again once
    it ended reuses them and ends as it did (no ``force`` needed while the inputs' contents
    are the same).
    """
    paths = check_inputs(paths)
    out = named_folder(out)
    recorded = _recorded_ingest(out, paths)
    if recorded is not None and ("score" in recorded or recorded.get("options", {}).get("superko") != superko):
        recorded = None  # another command's, or other options: a finished result
    check_output_folder(paths, out, [] if recorded else [GAMES_FILE, MANIFEST_FILE], force)
    with made_for_the_run(out), run_lock(out):
        started = time.perf_counter()
        stats = ReadStats()
        with open_engine(engine, jobs=jobs, scheduler=scheduler) as runner:
            run = run_pipeline(paths, out, [games_stage(superko)], runner, progress, stats)
            where = runner.describe()
        _check_inputs_unchanged(out, recorded, stats.inputs, force)
        return publish_games(out, run, stats, {"superko": superko}, where, time.perf_counter() - started,
                             "ingest")


def run_pipeline(paths: list[str], out: Path, stages: Sequence[Stage], engine, progress: bool,
                 stats: ReadStats) -> RunResult:
    """Every unit of ``paths`` through ``stages`` on ``engine``, checkpointed under ``out``;
    ``stats`` is filled with what was read (the manifest's inputs and skip counts)."""
    compile_kernels()
    shown = RunProgress(paths, progress, stats)
    try:
        run = run_units(plan_units(iter_files(paths, stats=stats)), stages, PartStore(out),
                        engine, on_done=shown.done)
    finally:
        shown.close()
    if not run.units:  # before any table is published, so a run folder's tables stay as they were
        raise no_games(paths)
    return run


def publish_games(out: Path, run: RunResult, stats: ReadStats, options: dict, engine: dict,
                  seconds: float, command: str) -> dict:
    """Assemble ``out/games.parquet`` from the run's parts and write the manifest of the
    run of ``command``.

    A table already assembled from the same parts is left as it is.
    """
    store = PartStore(out)
    keys = run.keys["games"]
    meta = provenance("ingest", stats.inputs, options)
    digest = table_digest(keys, meta)
    before = read_manifest(out) or {}
    if (not (out / GAMES_FILE).is_file() or before.get("parts", {}).get("games") != digest
            or GAMES_FILE in damaged_tables(out, before)):
        first = first_copies(copy_keys(store.read("games", key, ["game_id", "moves_hash", "move_count"]))
                             for key in keys)
        publish_table(store, "games", keys, out / GAMES_FILE, GAMES_SCHEMA, meta,
                      lambda groups: mark_duplicates(groups, first))
    store.prune("games", keys)
    games = pq.read_table(out / GAMES_FILE, columns=["status", "duplicate_of"])
    statuses = {row["values"]: row["counts"] for row in pc.value_counts(games["status"]).to_pylist()}
    found = games.num_rows
    manifest = {
        **meta,
        "command": command,
        "options": {**meta["options"], "jobs": engine["workers"]},
        "counts": {
            "games_found": found,
            "games_ok": statuses.get("ok", 0),
            "games_failed": found - statuses.get("ok", 0),
            "by_status": dict(sorted(statuses.items())),
            "duplicates": games.num_rows - games["duplicate_of"].null_count,
            "inputs_skipped": dict(sorted(stats.skipped.items())),
        },
        "timings": {"ingest_seconds": round(seconds, 3),
                    "games_per_second": round(found / seconds, 1) if seconds else None},
        "environment": environment(),
        "engine": engine,
        "units": run.summary("games"),
        "tables": {"games": GAMES_FILE},
        "parts": {"games": digest},
        CHECKSUMS: checksums(out, [GAMES_FILE]),
    }
    write_json_atomic(out / MANIFEST_FILE, manifest)
    return manifest


def provenance(command: str, inputs: list[dict], options: dict) -> dict:
    """What produced a table: enough to reproduce it and to know if inputs changed.

    ``inputs`` describes each input by the bytes that were read from it
    (:attr:`rulelab.read.sources.ReadStats.inputs`).
    """
    return {
        "rulelab_version": __version__,
        "command": command,
        "options": options,
        "inputs": inputs,
    }


def score(paths: Iterable[str], out: str | Path, *, rules: Iterable[str] | None = None,
          komi: float | None = None, life: str | LifeMethod = "auto", jobs: int | None = None,
          force: bool = False, progress: bool = False, engine: str = "local",
          scheduler: str | None = None, assume_rules: str | None = None,
          playout: str = "captured", seed: int = 0, finish: str = "auto") -> dict:
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
    the estimate's chance. ``finish`` is the counting basis: ``'play'`` plays each record
    to its end before the count (:mod:`rulelab.scoring.finish`), ``'none'`` counts the
    board as it stands, ``'auto'`` (the default) each record as its server counts
    (:func:`rulelab.rules.finish_basis`).

    Games and scores are made unit by unit and checkpointed under ``out/parts/``, as
    :func:`ingest` describes: an interrupted run resumes, and a re-run
    (with ``force``) makes only the parts of new or changed inputs. ``engine`` and
    ``scheduler`` choose where the work runs (see :func:`rulelab.pipeline.engines.open_engine`).

    Returns
    -------
    dict
        The updated manifest.
    """
    stage = _scores_stage(rules, komi, life, assume_rules, playout, seed, finish)
    return _score(paths, out, stage, "score", force, jobs, progress, engine, scheduler)


def _scores_stage(rules: Iterable[str] | None, komi: float | None, life: str | LifeMethod,
                  assume_rules: str | None, playout: str, seed: int, finish: str) -> Stage:
    """The scoring stage of these options, each checked (see :func:`score`)."""
    life = life_method(life)
    check_seed(seed)
    if playout not in PLAYOUT_MODELS:
        raise RulesError(f"The 'playout' parameter must be one of {PLAYOUT_MODELS}; got {playout!r}")
    rulesets = resolve_rulesets(rules, None, playout)
    finish_basis(None, finish)  # an unknown basis stops the run here
    if komi is not None:  # here, not in every game
        _check_user_komi(komi)
    if assume_rules is not None:
        assume_rules = get_ruleset(assume_rules).name
    return scores_stage(rulesets, life, komi, assume_rules, playout, seed, finish)


def _score(paths: Iterable[str], out: str | Path, stage: Stage, command: str, force: bool, jobs: int | None,
           progress: bool, engine: str, scheduler: str | None) -> dict:
    """Score ``paths`` into ``out`` with ``stage``, for ``command`` (``score`` or ``validate``)."""
    paths = check_inputs(paths)
    out = named_folder(out)
    recorded = _recorded_ingest(out, paths)
    finished = [SCORES_FILE, LIFE_FILE] if recorded else [GAMES_FILE, MANIFEST_FILE, SCORES_FILE, LIFE_FILE]
    if recorded and _scored_with(out, stage.options):
        finished = [name for name in finished if name not in (SCORES_FILE, LIFE_FILE)]
    elif command != "score" and SCORES_FILE in finished and _made_by(out / SCORES_FILE) == "score":
        raise InputError(f"{out / SCORES_FILE} was made by rulelab score with other options; {command} would "
                         f"replace it, and the rows those options made with it: {command} into another folder")
    check_output_folder(paths, out, finished, force)
    with made_for_the_run(out), run_lock(out):
        return _score_into(out, paths, stage, recorded, force, jobs, progress, engine, scheduler, command)


KOMI_LIMIT = 19 * 19
"""The largest komi (either sign) to score every game at: beyond the points of a 19×19
board, komi alone decides nearly every game."""


KOMI_FAR = 20
"""A komi (either sign) past which a user's komi is far from any standard: every server and
ruleset gives 19×19 games between 0 and 8 points, and 20 is past any historical figure."""


def _check_user_komi(komi: float) -> None:
    """Refuse a komi no board can hold; warn of one far from any standard (a typo of 6.5?)."""
    if abs(check_komi(komi, "to score every game at")) > KOMI_LIMIT:
        raise RulesError(f"The 'komi' to score every game at must lie within ±{KOMI_LIMIT}, the points of a "
                         f"19×19 board (beyond them komi alone decides the games); got {komi:g}")
    if abs(komi) > KOMI_FAR:
        warnings.warn(f"a komi of {komi:g} is far from any standard (19×19 komi lies between 0 and 8; past "
                      f"±{KOMI_FAR} komi decides most games): every game is scored at it as asked",
                      UserWarning, stacklevel=4)


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


def _made_by(table: Path) -> str | None:
    """The command that made a table, as its provenance says (None if unreadable)."""
    try:
        return read_provenance(table).get("command")
    except (OSError, ValueError, AttributeError, pa.ArrowException):
        return None


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
        raise InputError(f"{out / GAMES_FILE} was made from other contents of these inputs; {OVERWRITE}")


def _score_into(out: Path, paths: list[str], stage: Stage, recorded: dict | None, force: bool,
                jobs: int | None, progress: bool, engine: str, scheduler: str | None, command: str) -> dict:
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
    manifest = publish_games(out, run, stats, ingest_options, where, seconds, command)
    store = PartStore(out)
    keys = run.keys["scores"]
    meta = provenance(command, stats.inputs, stage.options)
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


SECOND_OPINIONS = (None, *ENGINE_METHODS)
"""Backends whose verdicts :func:`validate` can count beside rulelab's."""


def validate(paths: Iterable[str], out: str | Path, *, life: str | LifeMethod = "auto",
             jobs: int | None = None, force: bool = False, progress: bool = False, engine: str = "local",
             scheduler: str | None = None, assume_rules: str | None = None,
             second: str | LifeMethod | None = None, seed: int = 0, finish: str = "auto") -> pd.DataFrame:
    """Score ``paths`` into ``out`` and compare with recorded results.

    Scoring reads each input once and makes only the parts it lacks, so scores made
    before with the same options are reused (:func:`score`).

    Writes ``out/validation.parquet`` (every disagreement, with ``likely_cause`` and the
    columns of :func:`~rulelab.pipeline.validate.explain_misses`) and
    ``out/validation.json`` (the agreement table, the misses per class, and the time spent
    explaining them); returns the agreement table. ``second`` is a backend (``'katago'`` or
    ``'gnugo'``, or such a method) whose verdict is counted too, game by game
    (:func:`~rulelab.pipeline.validate.second_opinion`): its columns join the misses and
    the table.
    ``seed`` seeds the estimator, in the scores and in the explanations. ``finish`` is the
    counting basis of the scores (:func:`score`); the table also counts each game on both
    bases (:func:`~rulelab.pipeline.validate.both_bases`), and the agreement says which
    reproduces the records of each group.
    """
    if getattr(second, "name", second) not in SECOND_OPINIONS:
        raise RulesError(f"second opinion must be one of {', '.join(map(str, SECOND_OPINIONS))}; "
                         f"got {second!r}")
    life = life_method(life)
    second = None if second is None else life_method(second)
    out = named_folder(out)
    check_own_outputs(out, VALIDATION_OUTPUTS, "validate", force)
    stage = _scores_stage(None, None, life, assume_rules, "captured", seed, finish)
    assume_rules = stage.options["assume_rules"]  # as the scores' provenance names it
    _score(paths, out, stage, "validate", force, jobs, progress, engine, scheduler)
    games = pd.read_parquet(out / GAMES_FILE, columns=GAME_COLUMNS + ["status", "result_kind",
                                                                      "duplicate_of"])
    scores = pd.read_parquet(out / SCORES_FILE, columns=SCORE_COLUMNS + ["komi_source", "duplicate_of"])
    # Whether each verdict survives confirmation with its dead stones standing: the
    # agreement sets apart the games whose marks cannot be upheld.
    confirmable = pd.read_parquet(out / LIFE_FILE, columns=["game_id", "life_confirmable"])
    table = compare(games, scores).merge(confirmable.drop_duplicates("game_id"), on="game_id", how="left")
    table = both_bases(table, out, assume_rules)
    if table.empty:
        warnings.warn(nothing_validated(games, out), UserWarning, stacklevel=2)
    if second is not None:
        table = second_opinion(table, out / GAMES_FILE, second, assume_rules, finish=finish)
    started = time.perf_counter()
    misses = table.loc[~table.exact]
    explained = explain_misses(misses, out, assume_rules, progress, seed, finish)
    misses = pd.concat([misses, explained], axis=1)
    seconds = time.perf_counter() - started
    made = provenance("validate", read_provenance(out / SCORES_FILE).get("inputs", []),
                      {"life": life.name, "second_opinion": None if second is None else second.name,
                       "assume_rules": assume_rules, "seed": seed})
    frame = pa.Table.from_pandas(misses.reset_index(drop=True), preserve_index=False)
    with TableWriter(out / VALIDATION_FILE, frame.schema, made) as writer:
        writer.write_table(frame)
    table["miss_class"] = misses.miss_class
    summary = agreement(table)
    classes = miss_class_counts(misses)
    groups = summary.reset_index().rename(columns={"index": "group"})
    write_json_atomic(out / VALIDATION_JSON, {
        "command": "validate",
        "life": life.name,
        "second_opinion": None if second is None else second.name,
        "agreement": groups.to_dict(orient="records"),
        "miss_classes": {column: classes[column].to_dict() for column in classes},
        "explained": {"misses": len(misses), "seconds": round(seconds, 3)},
    })
    return summary


VALIDATION_JSON = "validation.json"
VALIDATION_OUTPUTS = (VALIDATION_FILE, VALIDATION_JSON)
"""What :func:`validate` writes beside the tables: replaced only when validate wrote them."""


def nothing_validated(games: pd.DataFrame, out: Path) -> str:
    """Why no game could be compared with its recorded result: said, where an agreement
    table of zeros would say nothing."""
    usable = games.loc[(games.status == "ok") & games.duplicate_of.isna()]
    counted = usable.loc[usable.result_kind == "counted"]
    if usable.empty:
        reason = "no game was read without error"
    elif counted.empty:
        reason = f"none of the {len(usable):,} games read ends with a counted result (B+7.5, W+0.5, ...)"
    else:
        reason = (f"none of the {len(counted):,} games with a counted result names its rules (RU) or comes "
                  "from a server known to imply them; name them with assume_rules (e.g. 'japanese')")
    return f"nothing validated in {out}: {reason}"
