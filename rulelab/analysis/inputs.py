"""The run folder as the analyses see it: loading, column checks, game selection.

The analyses read only the tables the pipeline writes (``games``, ``scores``, ``life``,
``manifest.json``); this module is their single door to those files.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pyarrow as pa

from rulelab.errors import InputError
from rulelab.rules import finish_basis
from rulelab.store.checks import check_masks, check_scores, read_checked
from rulelab.store.layout import OPTIONAL_TABLES, RUN_TABLES
from rulelab.store.life import LIFE_SCHEMA
from rulelab.store.manifest import file_sha256, read_manifest, refuse_damaged_tables
from rulelab.store.positions import COUNTED_KINDS
from rulelab.store.tables import read_provenance


def require_columns(frame: pd.DataFrame, columns: Iterable[str], table: str) -> None:
    """Raise :class:`InputError` naming the columns ``frame`` lacks.

    Examples
    --------
    >>> require_columns(pd.DataFrame({"game_id": []}), ["game_id", "winner"], "scores")
    Traceback (most recent call last):
    ...
    rulelab.errors.InputError: The scores table must have the column(s) winner; it lacks them.
    """
    if not isinstance(frame, pd.DataFrame):
        raise InputError(f"The {table} table must be a pandas DataFrame; got {type(frame).__name__}.")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise InputError(
            f"The {table} table must have the column(s) {', '.join(missing)}; it lacks them."
        )


def analysable_games(games: pd.DataFrame) -> pd.DataFrame:
    """The games an analysis may count, once each: replayed without error, first copies.

    The same game stored twice (the same ``game_id``, e.g. one record in two formats)
    would be counted twice, so the copies whose ``duplicate_of`` names another record
    are left out, and of rows sharing a ``game_id`` only the first is kept.

    Examples
    --------
    >>> games = pd.DataFrame({"game_id": ["a", "a", "c"], "status": ["ok", "ok", "parse_error"],
    ...                       "duplicate_of": [None, "a.sgf#0", None]})
    >>> analysable_games(games).game_id.tolist()
    ['a']
    """
    require_columns(games, ["game_id", "status"], "games")
    keep = games["status"].eq("ok")
    if "duplicate_of" in games.columns:
        keep &= games["duplicate_of"].isna()
    return games.loc[keep].drop_duplicates("game_id")


def counted_games(games: pd.DataFrame) -> pd.Index:
    """The ids of games whose record ends with a count (a margin or a draw).

    Examples
    --------
    >>> counted_games(pd.DataFrame({"game_id": ["a", "b"], "result_kind": ["counted", "resign"]}))
    Index(['a'], dtype='str', name='game_id')
    """
    require_columns(games, ["game_id", "result_kind"], "games")
    return pd.Index(games.loc[games["result_kind"].isin(COUNTED_KINDS), "game_id"], name="game_id")


@dataclass(frozen=True)
class Run:
    """One run folder, loaded: its tables plus everything that says where they came from."""

    name: str
    """The folder's name (never its absolute path, so reports do not depend on where it lies)."""
    games: pd.DataFrame
    scores: pd.DataFrame
    life: pd.DataFrame
    """The stored verdicts (empty when the run was scored before they were stored)."""
    manifest: dict
    """The parsed ``manifest.json`` ({} when the folder has none)."""
    table_metadata: dict
    """Per table file: its provenance (:func:`rulelab.store.tables.read_provenance`)."""
    table_hashes: dict
    """Per file read (tables and manifest): its SHA-256, so a report names its exact inputs."""

    @property
    def score_options(self) -> dict:
        """The options the scores were made with (``rulelab score``: ``finish``, ``seed``,
        ``playout``, ...), as their table's provenance records them ({} when it does not)."""
        return self.table_metadata.get("scores.parquet", {}).get("options", {}) or {}

    @property
    def collection(self) -> str:
        """The collection the run read, by the names of its inputs (the run folder's name when
        the manifest does not say).

        Examples
        --------
        >>> empty = pd.DataFrame()
        >>> Run("run", empty, empty, empty, {"inputs": [{"path": "../corpora/kgs-dev.tar.xz"}]}, {}, {}).collection
        'kgs-dev.tar.xz'
        >>> inputs = [{"path": f"games/{n}.sgf"} for n in "abcd"]
        >>> Run("run", empty, empty, empty, {"inputs": inputs}, {}, {}).collection
        'a.sgf, b.sgf and 2 more'
        """
        names = list(dict.fromkeys(Path(str(entry.get("path", ""))).name
                                   for entry in self.manifest.get("inputs", []) if isinstance(entry, dict)))
        names = [name for name in names if name]
        if not names:
            return self.name
        return ", ".join(names) if len(names) <= 2 else f"{names[0]}, {names[1]} and {len(names) - 2} more"


def counted_on(run: Run, finish: str | None = None) -> str:
    """The finish basis (:data:`~rulelab.rules.FINISH_BASES`) a run's games were counted on
    (``finish``, the run's own option by default; ``'auto'``: the basis their servers counted
    the records on): ``'play'``, ``'none'``, or ``'mixed'`` when its sources differ.

    Examples
    --------
    >>> games = pd.DataFrame({"source": ["kgs", "kgs"]})
    >>> options = {"scores.parquet": {"options": {"finish": "play"}}}
    >>> run = Run("run", games, pd.DataFrame(), pd.DataFrame(), {}, options, {})
    >>> counted_on(run), counted_on(run, "auto")
    ('play', 'none')
    """
    option = finish or run.score_options.get("finish", "auto")
    sources = run.games["source"].astype(object).where(run.games["source"].notna(), None).unique()
    bases = {finish_basis(source, option) for source in sources}
    return bases.pop() if len(bases) == 1 else "mixed"


def check_run(run_dir: str | Path) -> Path:
    """The run folder, once it is known to hold the tables an analysis needs: checked
    before a long build announces itself.

    Raises
    ------
    InputError
        If the folder or one of its tables is missing.
    """
    folder = Path(run_dir)
    if not folder.is_dir():
        raise InputError(f"The run folder must be an existing directory; got {str(run_dir)!r}.")
    for file in RUN_TABLES.values():
        if not os.path.lexists(folder / file):
            raise InputError(f"The run folder {str(run_dir)!r} lacks {file}.")
    return folder


def read_run(run_dir: str | Path) -> Run:
    """Load a run folder's tables, manifest and provenance.

    Parameters
    ----------
    run_dir : str or Path
        A folder holding ``games.parquet``, ``scores.parquet`` and (optionally)
        ``life.parquet`` and ``manifest.json``.

    Returns
    -------
    Run

    Raises
    ------
    InputError
        If the folder or a table is missing, or the manifest is not JSON.
    """
    folder = check_run(run_dir)
    refuse_damaged_tables(folder)
    frames = {"life": LIFE_SCHEMA.empty_table().to_pandas()}
    metadata, hashes = {}, {}
    present = {name: file for name, file in OPTIONAL_TABLES.items() if os.path.lexists(folder / file)}
    for name, file in {**RUN_TABLES, **present}.items():
        path = folder / file
        table = read_checked(path, pa.schema([]))
        CHECKS.get(name, lambda *_: None)(path, table)
        frames[name] = table.to_pandas()
        try:
            metadata[file] = read_provenance(path)
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise InputError(f"{path} carries provenance that is not JSON: {error}") from error
        hashes[file] = file_sha256(path)
    return Run(folder.resolve().name, frames["games"], frames["scores"], frames["life"],
               stable(read_manifest(folder) or {}), metadata, hashes)


CHECKS = {"scores": check_scores, "life": check_masks}
"""The value checks of each table the analyses read (:mod:`rulelab.store.checks`)."""

RUN_DEPENDENT_KEYS = frozenset({"timings", "seconds", "units"})
"""Manifest entries that say how a run went (time taken, parts reused), not what it made."""


def stable(manifest: dict) -> dict:
    """The manifest less its run-dependent entries, so that reports of one input are identical."""
    return {key: stable(value) if isinstance(value, dict) else value
            for key, value in manifest.items() if key not in RUN_DEPENDENT_KEYS}
