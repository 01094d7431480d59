"""Dead-stone uncertainty: the headline's pair rates on one collection scored with several
seeds of the life estimator (``rulelab score --seed S``), seed by seed.

An estimated verdict comes from seeded playouts, so another seed may read a group otherwise,
move a count and with it a winner, or turn a count into an outlier. Comparing the same
games under each seed says how far a rate rests on that chance.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from rulelab.analysis.divergence import KOMI_BASES, basis_label, compared_rows
from rulelab.analysis.findings import MAIN_RULESETS, pair_differences
from rulelab.analysis.inputs import Run
from rulelab.analysis.stats import wilson_interval
from rulelab.errors import InputError

OUT = "out"
"""A game's verdict under a seed whose dead stones leave it out of the comparison (unsettled,
or an outlier of the record)."""


def life_seed(run: Run) -> int:
    """The seed of the life estimator a run was scored with (0, the default, when it recorded none)."""
    return int(run.score_options.get("seed", 0) or 0)


def seed_runs(run: Run, others) -> dict[int, Run]:
    """``run`` and ``others`` by their life seeds, ``run`` first: the same collection, scored with
    the same options but the seed.

    Raises
    ------
    InputError
        If a run holds other games, was scored with other options, or repeats a seed.
    """
    runs = {life_seed(run): run}
    wanted = {key: value for key, value in run.score_options.items() if key != "seed"}
    for other in others:
        seed = life_seed(other)
        options = {key: value for key, value in other.score_options.items() if key != "seed"}
        if set(other.games["game_id"]) != set(run.games["game_id"]) or options != wanted:
            raise InputError(f"The seed run {other.name!r} must be the collection of {run.name!r} scored with "
                             "the same options and another --seed; it holds other games or options.")
        if seed in runs:
            raise InputError(f"The seed run {other.name!r} repeats seed {seed}; each run must have its own --seed.")
        runs[seed] = other
    return runs


def seed_verdicts(runs: Mapping[int, Run], rulesets=MAIN_RULESETS, *, kind: str | None = "even",
                  bases=KOMI_BASES) -> pd.DataFrame:
    """Per seed, komi basis, pair of ``rulesets`` (and ``any``) and compared game of ``kind``
    (:func:`~rulelab.analysis.divergence.compared_rows`): whether the winners differ.

    Returns
    -------
    pandas.DataFrame
        ``seed, komi_basis, pair, game_id, differ``.
    """
    parts = []
    for seed, run in runs.items():
        for basis in bases:
            rows = compared_rows(run.scores, run.games, komi_basis=basis, kind=kind)
            label = basis_label(rows, basis)
            for pair, differ in pair_differences(rows[rows["ruleset"].isin(rulesets)], rulesets).items():
                parts.append(pd.DataFrame({"seed": seed, "komi_basis": label, "pair": pair,
                                           "game_id": differ.index.astype(str), "differ": differ.to_numpy(bool)}))
    columns = ["seed", "komi_basis", "pair", "game_id", "differ"]
    return pd.concat(parts, ignore_index=True)[columns] if parts else pd.DataFrame(columns=columns)


def seed_rates(verdicts: pd.DataFrame) -> pd.DataFrame:
    """Per komi basis, pair and seed of :func:`seed_verdicts`, the disagreement rate with its
    Wilson 95% interval, and per basis and pair the range of the rates across seeds.

    Returns
    -------
    pandas.DataFrame
        ``komi_basis, pair, seed, games, disagreements, rate, low, high, rate_min, rate_max``.

    Examples
    --------
    >>> verdicts = pd.DataFrame({"seed": [0, 0, 1, 1], "komi_basis": "standard", "pair": "any",
    ...                          "game_id": ["a", "b", "a", "b"], "differ": [True, False, False, False]})
    >>> seed_rates(verdicts)[["seed", "games", "disagreements", "rate", "rate_min", "rate_max"]]
       seed  games  disagreements  rate  rate_min  rate_max
    0     0      2              1   0.5       0.0       0.5
    1     1      2              0   0.0       0.0       0.5
    """
    keys = ["komi_basis", "pair", "seed"]
    table = verdicts.groupby(keys, sort=False)["differ"].agg(games="size", disagreements="sum").reset_index()
    table["disagreements"] = table["disagreements"].astype(int)
    table["rate"] = table["disagreements"] / table["games"]
    low, high = wilson_interval(table["disagreements"].to_numpy(float), table["games"].to_numpy(float))
    spread = table.groupby(["komi_basis", "pair"], sort=False)["rate"]
    return table.assign(low=low, high=high, rate_min=spread.transform("min"), rate_max=spread.transform("max"))


def seed_flips(verdicts: pd.DataFrame) -> pd.DataFrame:
    """The games whose verdict on a pair is not the same under every seed of :func:`seed_verdicts`:
    per komi basis, pair and game, one column per seed ``seed_S`` (``'differ'``, ``'agree'`` or :data:`OUT`)
    and ``change``: ``'verdict'`` when every seed compares the game, ``'selection'`` when some
    seed's dead stones leave it out; sorted by basis, pair and game.

    Examples
    --------
    >>> verdicts = pd.DataFrame({"seed": [0, 0, 1], "komi_basis": "standard", "pair": "any",
    ...                          "game_id": ["a", "b", "a"], "differ": [True, False, False]})
    >>> seed_flips(verdicts)
      komi_basis pair game_id  seed_0 seed_1     change
    0   standard  any       a  differ  agree    verdict
    1   standard  any       b   agree    out  selection
    """
    seeds = list(dict.fromkeys(verdicts["seed"]))
    words = verdicts.assign(verdict=verdicts["differ"].map({True: "differ", False: "agree"}))
    wide = words.pivot(index=["komi_basis", "pair", "game_id"], columns="seed", values="verdict")
    wide = wide.reindex(columns=seeds).fillna(OUT)
    wide = wide[wide.nunique(axis=1).gt(1)]
    change = wide.eq(OUT).any(axis=1).map({True: "selection", False: "verdict"})
    flips = wide.assign(change=change).reset_index()
    flips.columns = [f"seed_{c}" if c in seeds else c for c in flips.columns]
    return flips
