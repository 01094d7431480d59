"""The fair-komi estimator against known truths: synthetic collections made the way real
ones are (komi in force by era, rank gaps, resignation, safe play), and the one selection
of games shared by the accessor and SQL."""

import numpy as np
import pandas as pd
import pytest

import rulelab.analysis  # noqa: F401  (registers df.go)
from rulelab.analysis.komi import fair_komi, headline_fair_komi, win_rate_by_komi
from rulelab.analysis.komi_simulation import SCENARIOS, simulate_games, study
from rulelab.analysis.outcomes import komi_outcomes
from rulelab.analysis.selection import komi_population
from rulelab.analysis.stats import fit_komi_response
from rulelab.store.sql import connect

NEW, OLD = "winners at the komi in force", "margins as a sample (previous)"


def scenario(name: str):
    return next(s for s in SCENARIOS if s.name.startswith(name))


def test_the_estimator_covers_the_truth_where_the_margin_fit_follows_the_komi_in_force():
    table = study([scenario("one komi"), scenario("strategic")], collections=6).set_index(["scenario", "estimator"])
    one, strategic = scenario("one komi").name, scenario("strategic").name
    assert table.loc[(one, NEW), "identified"] == 0 and table.loc[(one, NEW), "coverage"] >= 5 / 6
    assert table.loc[(strategic, NEW), "identified"] == 1 and table.loc[(strategic, NEW), "coverage"] >= 5 / 6
    assert abs(table.loc[(strategic, NEW), "mean_error"]) < 0.5
    # the fit it replaced: tight intervals around the komi in force, far from the truth
    assert table.loc[(strategic, OLD), "coverage"] <= 1 / 6 and table.loc[(strategic, OLD), "mean_error"] < -0.5


@pytest.mark.slow
def test_the_simulation_study_in_every_scenario():
    table = study(SCENARIOS, collections=25, seed=1)
    new = table[table["estimator"] == NEW]
    assert (new["coverage"] >= 0.88).all()
    identified = new[new["identified"] > 0.9]
    assert (identified["mean_error"].abs() < 0.5).all()
    assert (new.set_index("scenario")["identified"].drop(SCENARIOS[0].name) >= 0.75).all()


def test_the_simulator_keeps_its_truth_whatever_the_process():
    """Between equal players at the fair komi itself Black wins half the decided games."""
    games = simulate_games(scenario("strategic").with_games(60000), seed=4).assign(komi=7.0)
    latent = simulate_games(scenario("strategic").with_games(60000), seed=4)
    assert len(games) == len(latent)
    points = latent["result_winner"].map({"B": 1.0, "W": 0.0}).fillna(0.5)
    assert points.mean() == pytest.approx(0.52, abs=0.01)  # at komi 5.5/6.5 below the fair 7: Black ahead


def test_one_komi_in_force_gives_an_interval_not_a_point():
    rng = np.random.default_rng(3)
    komi = np.full(6000, 6.5)
    won = (rng.logistic(7.0, 9.0, size=komi.size) > komi).astype(float)
    fit = fit_komi_response(komi, won, max_scale=20.0)
    assert not fit.identified and np.isnan(fit.fair_komi)
    assert fit.ci_low < 7.0 < fit.ci_high and fit.ci_high - fit.ci_low > 2


def test_a_win_rate_that_rises_with_komi_identifies_nothing():
    """Komi in force confounded with who plays (a later era, stronger Black players)."""
    komi = np.repeat([5.5, 6.5], 4000)
    won = np.concatenate([np.arange(4000) < 1800, np.arange(4000) < 2100]).astype(float)
    fit = fit_komi_response(komi, won)
    assert not fit.identified and fit.ci_low < fit.ci_high


def test_rank_gaps_are_adjusted_at_a_gap_of_zero():
    outcomes = komi_population(komi_outcomes(simulate_games(scenario("rank gaps"), seed=5)))
    plain, adjusted = fair_komi(outcomes).iloc[0], headline_fair_komi(outcomes).iloc[0]
    assert adjusted["ci_low"] < 7.0 < adjusted["ci_high"] and adjusted["slope"] == pytest.approx(10, abs=1.5)
    assert not plain["ci_low"] < 7.0 < plain["ci_high"]  # Black is the weaker player: the plain fit errs


def test_the_fair_komi_prints_as_one_line_per_ruleset():
    outcomes = komi_population(komi_outcomes(simulate_games(scenario("two komi").with_games(8000), seed=6)))
    text = repr(fair_komi(outcomes))
    assert text.startswith("record: fair komi") and "8,000 decided games at komi 5.5/6.5" in text
    assert len(text.splitlines()) == 1
    assert "komi_played" in repr(pd.DataFrame(fair_komi(outcomes)))


def test_the_komi_games_view_gives_the_accessors_figures(tmp_path):
    games = simulate_games(scenario("two komi").with_games(3000), seed=7)
    odd = games.head(400).assign(game_id=lambda g: g["game_id"] + "-odd").reset_index(drop=True)
    odd.loc[:99, "handicap"] = 2
    odd.loc[100:199, "komi"] = 0.5  # the servers' one-stone game
    odd.loc[200:299, "komi"] = 75.5
    odd.loc[300:, ["board_rows", "board_cols"]] = 9
    games = pd.concat([games, odd], ignore_index=True)
    games.to_parquet(tmp_path / "games.parquet")
    pd.DataFrame({"game_id": ["x"], "ruleset": ["chinese"]}).to_parquet(tmp_path / "scores.parquet")
    expected = games.go.win_rates()[["komi", "games", "black_points"]]
    assert expected["games"].sum() == 3000 and set(games.go.komi_games().attrs["dropped"].values()) >= {100, 200}
    with connect(tmp_path) as con:
        got = con.sql("SELECT komi, count(*) AS games, sum(black_points) AS black_points FROM komi_games "
                      "GROUP BY komi ORDER BY komi").df()
    pd.testing.assert_frame_equal(got, expected, check_dtype=False)
    assert win_rate_by_komi(komi_population(komi_outcomes(games)))["games"].sum() == 3000


def test_within_eras_only_the_komi_variation_inside_an_era_teaches_the_curve():
    """Two eras whose players differ (Black's edge 5 points, then 8), each played at two komi:
    pooled, the era difference hides the komi's effect; within eras it shows."""
    rng = np.random.default_rng(8)
    era = np.repeat(["early", "late"], [15000, 25000])
    komi = np.where(era == "early", rng.choice([4.5, 5.5], size=era.size), rng.choice([6.5, 7.5], size=era.size))
    won = (rng.logistic(np.where(era == "early", 5.0, 8.0), 8.0) > komi).astype(float)
    within = fit_komi_response(komi, won, groups=era)
    assert within.reference == "late" and within.ci_low < 8.0 < within.ci_high
    assert not fit_komi_response(komi, won).identified
