"""Dead-stone uncertainty: the pair rates seed by seed, and the games whose verdict changes."""

import pandas as pd
import pytest
from analysis_tables import collection, preset_rows, write_run

from rulelab.analysis.inputs import Run
from rulelab.analysis.seeds import seed_flips, seed_rates, seed_runs, seed_verdicts
from rulelab.errors import InputError
from rulelab.report.build import write_section


def seeded() -> dict[int, tuple[pd.DataFrame, pd.DataFrame]]:
    """The constructed collection under three seeds: seed 1 reads g_seki's group with no seki
    eyes (the rulesets then agree on it), seed 2 leaves g_dead out of the comparison, as an
    outlier would be."""
    games, scores = collection()
    no_eyes = pd.DataFrame(preset_rows("g_seki", stones=(38, 38), surrounded=(8, 0)))
    return {0: (games, scores),
            1: (games, pd.concat([scores[scores.game_id != "g_seki"], no_eyes], ignore_index=True)),
            2: (games, scores[scores.game_id != "g_dead"])}


def run(seed: int, games: pd.DataFrame, scores: pd.DataFrame, **options) -> Run:
    metadata = {"scores.parquet": {"options": {"life": "auto", "seed": seed, **options}}}
    return Run(f"s{seed}", games, scores, pd.DataFrame(), {}, metadata, {})


def test_each_seed_gives_its_rates_and_the_changed_games_are_named():
    runs = {seed: run(seed, *tables) for seed, tables in seeded().items()}
    verdicts = seed_verdicts(runs)
    rates = seed_rates(verdicts).set_index(["komi_basis", "pair", "seed"]).sort_index()
    # at komi 7.5 only g_seki's seki eyes part Chinese and Japanese counting (one of the 4 even games)
    assert rates.loc[("common", "chinese–japanese"), ["games", "disagreements"]].values.tolist() == [
        [4, 1], [4, 0], [3, 1]]
    assert rates.loc[("common", "chinese–japanese", 0), ["rate_min", "rate_max"]].tolist() == [0.0, 1 / 3]
    flips = seed_flips(verdicts)
    mine = flips[(flips.komi_basis == "common") & (flips.pair == "chinese–japanese")].set_index("game_id")
    assert mine[["seed_0", "seed_1", "seed_2", "change"]].to_dict("index") == {
        "g_dead": {"seed_0": "agree", "seed_1": "agree", "seed_2": "out", "change": "selection"},
        "g_seki": {"seed_0": "differ", "seed_1": "agree", "seed_2": "differ", "change": "verdict"}}
    assert "g_agree" not in set(flips.game_id)  # the same verdict under every seed


def test_seed_runs_must_be_the_collection_with_other_seeds_only():
    games, scores = collection()
    main = run(0, games, scores)
    assert list(seed_runs(main, [run(2, games, scores), run(1, games, scores)])) == [0, 2, 1]
    with pytest.raises(InputError, match="repeats seed 0"):
        seed_runs(main, [run(0, games, scores)])
    with pytest.raises(InputError, match="other games or options"):
        seed_runs(main, [run(1, games, scores, finish="play")])
    with pytest.raises(InputError, match="other games or options"):
        seed_runs(main, [run(1, games.iloc[1:], scores)])


def test_the_findings_give_the_spread_and_say_what_is_within_dead_stone_uncertainty(tmp_path):
    folders = [write_run(tmp_path / f"s{seed}", *tables, seed=seed) for seed, tables in seeded().items()]
    text = write_section("findings", folders[0], tmp_path / "out", n_boot=0, seed_runs=folders[1:]).read_text()
    assert "seeds 0, 1, 2" in text and "chinese vs japanese 1/4, 0/4, 1/3 (0.0%–33.3%" in text
    assert "1 game changes verdict on a pair (`g_seki`), and 1 is compared under some seeds only" in text
    assert "chinese vs japanese at common komi" in text and "no difference beyond dead-stone uncertainty" in text
    flips = pd.read_csv(tmp_path / "out" / "findings_seed_flips.csv")
    assert set(flips.game_id) == {"g_seki", "g_dead"}
    alone = write_section("findings", folders[0], tmp_path / "alone", n_boot=0).read_text()
    assert "Dead-stone uncertainty: no settled even game has its dead stones estimated" in alone
    games, scores = collection()
    estimated = write_run(tmp_path / "estimated", games, scores.assign(life_method="estimate"))
    alone = write_section("findings", estimated, tmp_path / "estimated-out", n_boot=0).read_text()
    assert "Dead-stone uncertainty: not measured for this run. The dead stones of 4 settled even games" in alone
