"""What every section of the report reads: the settings, the loaded run with the tables
several sections share (computed once), and the line of a section that does not apply."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
import pandas as pd

from rulelab.analysis.attribution import attribute
from rulelab.analysis.divergence import KOMI_BASES, standard_rows
from rulelab.analysis.findings import trusted_games
from rulelab.analysis.inputs import Run, analysable_games, counted_on, read_run
from rulelab.analysis.komi import DEFAULT_KOMI_GRID, fair_komi_sensitivity, headline_fair_komi
from rulelab.analysis.outcomes import komi_outcomes
from rulelab.analysis.seeds import life_seed, seed_runs
from rulelab.analysis.strata import GAME_KINDS, game_kind
from rulelab.analysis.selection import collection_board, komi_population, other_boards, record_gaps
from rulelab.errors import InputError
from rulelab.report.blocks import Section, Text

FAMILY_REPRESENTATIVES = {"area": "chinese", "territory": "japanese"}
"""The ruleset that stands for its scoring family in the komi sections, when present."""


@dataclass(frozen=True)
class Settings:
    """Everything besides the inputs that the report's numbers depend on."""

    seed: int = 0
    """Seed of every bootstrap."""
    n_boot: int = 1000
    """Bootstrap replicates of each win-rate curve."""
    examples_per_cause: int = 2
    komi_grid: tuple[float, ...] = tuple(DEFAULT_KOMI_GRID)

    def __post_init__(self):
        for name, minimum in (("seed", 0), ("n_boot", 0), ("examples_per_cause", 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
                raise InputError(f"The report setting {name!r} must be an integer ≥ {minimum}; got {value!r}.")
        object.__setattr__(self, "komi_grid", tuple(float(k) for k in self.komi_grid))


class ReportTables:
    """A loaded run plus the intermediate tables several sections share (computed once)."""

    def __init__(self, run: Run, settings: Settings, as_stands: Run | None = None,
                 seeds: dict[int, Run] | None = None):
        self.run = run
        """The run every rate, matrix, cause and example comes from: on finished boards
        (``--finish play``) where it was counted on them."""
        self.settings = settings
        self.as_stands = as_stands
        """The same collection counted on the board as it stands (``--finish none``), for the
        sensitivity rows of the rates and parity; or None."""
        self.seeds = seeds or {life_seed(run): run}
        """This run and the same collection scored with other life seeds, by seed
        (:func:`~rulelab.analysis.seeds.seed_runs`): the dead-stone uncertainty of the rates."""

    @classmethod
    def load(cls, run_dir: str | Path, settings: Settings, as_stands_dir: str | Path | None = None,
             seed_dirs: tuple[str | Path, ...] = ()) -> "ReportTables":
        run = read_run(run_dir)
        as_stands = None if as_stands_dir is None else read_run(as_stands_dir)
        if as_stands is not None and (counted_on(as_stands) != "none"
                                      or not set(as_stands.games["game_id"]) & set(run.games["game_id"])):
            raise InputError(f"The run {str(as_stands_dir)!r} must be the collection of {str(run_dir)!r} "
                             "counted on the board as it stands (rulelab score --finish none).")
        return cls(run, settings, as_stands, seed_runs(run, [read_run(folder) for folder in seed_dirs]))

    @cached_property
    def record_run(self) -> Run:
        """The run counted on the basis the records' servers counted them on (``validate``
        finds it is the one that reproduces their results): the as-stands run of a KGS
        collection, else this run. The agreement with the records is measured on it."""
        standing = self.as_stands is not None and counted_on(self.run, "auto") == "none"
        return self.as_stands if standing else self.run

    @cached_property
    def games(self) -> pd.DataFrame:
        return analysable_games(self.run.games)

    @cached_property
    def attribution(self) -> pd.DataFrame:
        """Disagreements with their causes, on both komi bases, per kind of game (``game_kind``),
        the even games first."""
        table = pd.concat([attribute(self.run.scores, self.run.games, komi_basis=basis) for basis in KOMI_BASES],
                          ignore_index=True)
        table.insert(1, "game_kind", table["game_id"].map(game_kind(self.games.set_index("game_id"))))
        rank = table["game_kind"].map({kind: k for k, kind in enumerate(GAME_KINDS)}).to_numpy()
        return table.iloc[np.argsort(rank, kind="stable")].reset_index(drop=True)

    @cached_property
    def trusted(self) -> pd.Index:
        """Games whose dead stones can be trusted (:func:`~rulelab.analysis.findings.trusted_games`)."""
        return trusted_games(self.run.scores, self.run.games)

    @cached_property
    def gaps(self) -> pd.DataFrame:
        """Counted games: rulelab's count under the record's rules against the record's."""
        return record_gaps(self.run.scores, self.run.games)

    @cached_property
    def as_stands_gaps(self) -> pd.DataFrame | None:
        """:attr:`gaps` of the :attr:`as_stands` run (None without one)."""
        return None if self.as_stands is None else record_gaps(self.as_stands.scores, self.as_stands.games)

    @cached_property
    def record_gaps(self) -> pd.DataFrame:
        """:attr:`gaps` on the :attr:`record_run`: what the agreement with the records is read from."""
        return self.gaps if self.record_run is self.run else self.as_stands_gaps

    @cached_property
    def outliers(self) -> pd.Index:
        return pd.Index(self.gaps.loc[self.gaps["outlier"], "game_id"])

    @cached_property
    def standard_komi(self) -> dict[str, float]:
        """Per ruleset, the komi its rows give even games (the run's ``--komi`` if it had one)."""
        rows = standard_rows(self.run.scores, finished_only=False)
        even = self.games.loc[pd.to_numeric(self.games["handicap"], errors="coerce").fillna(0).eq(0), "game_id"]
        rows = rows[rows["game_id"].isin(even)] if rows["game_id"].isin(even).any() else rows
        komi = rows.groupby("ruleset", sort=True)["komi"].agg(lambda k: k.mode().iloc[0])
        return {name: float(k) for name, k in komi.items()}

    @cached_property
    def representatives(self) -> dict[str, str]:
        """Per scoring family present, the ruleset standing for it."""
        rows = standard_rows(self.run.scores, finished_only=False)
        chosen = {}
        for family, names in rows.groupby("scoring", sort=True)["ruleset"]:
            present = sorted(set(names.astype(str)))
            preferred = FAMILY_REPRESENTATIVES.get(family)
            chosen[family] = preferred if preferred in present else present[0]
        return chosen

    @cached_property
    def outcomes(self) -> pd.DataFrame:
        """Margin intervals of every game under each representative ruleset and the record."""
        parts = [komi_outcomes(self.run.games, self.run.scores, name)
                 for name in self.representatives.values()]
        parts.append(komi_outcomes(self.run.games))
        return pd.concat([p for p in parts if not p.empty] or parts[-1:], ignore_index=True)

    @cached_property
    def main_board(self) -> str:
        """The board komi is fitted on (:func:`~rulelab.analysis.selection.collection_board`)."""
        return collection_board(self.run.games)

    @cached_property
    def even_outcomes(self) -> pd.DataFrame:
        """The games komi is fitted to (:func:`~rulelab.analysis.selection.komi_population`):
        even games on the main board with a stated komi, less rulelab's counts of the outliers."""
        return komi_population(self.outcomes, self.outliers, self.main_board)

    @cached_property
    def other_boards(self) -> dict[str, pd.DataFrame]:
        """The even games of each other board with enough of them
        (:func:`~rulelab.analysis.selection.other_boards`)."""
        return other_boards(self.outcomes, self.outliers, self.main_board)

    @cached_property
    def with_outliers(self) -> pd.DataFrame:
        """The same with every count kept (the sensitivity check)."""
        return komi_population(self.outcomes, None, self.main_board)

    @cached_property
    def even_fits(self) -> pd.DataFrame:
        """The headline fair komi per ruleset (:func:`~rulelab.analysis.komi.headline_fair_komi`)."""
        return headline_fair_komi(self.even_outcomes)

    @cached_property
    def komi_sensitivity(self) -> pd.DataFrame:
        """The headline beside the choices it rests on
        (:func:`~rulelab.analysis.komi.fair_komi_sensitivity`)."""
        return fair_komi_sensitivity(self.even_outcomes)


def missing(key: str, title: str, reason: str) -> Section:
    """A section that does not apply to this collection: one line saying why."""
    return Section(key, title, [Text(f"Not shown: {reason}")])
