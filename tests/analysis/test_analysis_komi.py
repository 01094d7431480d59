"""Komi analyses: intervals, the logistic fair-komi fit, censoring, re-komi, margins."""

import numpy as np
import pandas as pd
import pytest
from analysis_tables import collection, score_row

from rulelab.analysis import (fit_logistic, komi_outcomes, margin_distribution, margin_fit, record_agreement,
                              rekomi_flips, wilson_interval, win_rate_curve)
from rulelab.analysis.stats import bootstrap_location, bootstrap_rates
from rulelab.errors import InputError


@pytest.mark.parametrize("wins, games, low, high", [
    (5, 10, 0.2366, 0.7634),   # the textbook example
    (0, 10, 0.0, 0.2775),      # Wilson stays sensible at the edge where Wald collapses
    (50, 100, 0.4038, 0.5962),
])
def test_wilson_interval_known_values(wins, games, low, high):
    got = wilson_interval(wins, games)
    assert (round(float(got[0]), 4), round(float(got[1]), 4)) == (low, high)


def test_wilson_interval_is_nan_without_trials_and_checks_level():
    assert np.isnan(wilson_interval(0, 0)).all()
    with pytest.raises(ValueError, match="level"):
        wilson_interval(1, 2, level=1.5)


def test_bootstrap_is_fixed_by_its_seed():
    margins, counts, grid = np.array([-4.0, 3.0, 9.0]), np.array([30, 20, 50]), np.array([2.5, 6.5])
    first = bootstrap_rates(margins, counts, grid, n_boot=500, seed=3)
    assert np.array_equal(first, bootstrap_rates(margins, counts, grid, n_boot=500, seed=3))
    assert not np.array_equal(first, bootstrap_rates(margins, counts, grid, n_boot=500, seed=4))
    assert (first[0] <= [0.7, 0.5]).all() and ([0.7, 0.5] <= first[1]).all()


def logistic_margins(location, scale, size, seed):
    return np.round(np.random.default_rng(seed).logistic(location, scale, size=size))


def test_logistic_fit_recovers_a_known_fifty_percent_crossing():
    margins = logistic_margins(6.5, 11.0, 8000, seed=5)
    fit = fit_logistic(margins - 0.5, margins + 0.5)
    assert fit.converged
    assert abs(fit.location - 6.5) < 0.6 and fit.ci_low < 6.5 < fit.ci_high
    assert abs(fit.scale - 11.0) < 0.5
    assert fit.win_rate([fit.location])[0] == pytest.approx(0.5)
    low, high = bootstrap_location(margins - 0.5, margins + 0.5, n_boot=30, seed=0, fit=fit)
    assert low < fit.location < high


def censored_sample(truth, komi, size, seed):
    """Latent margins; a game ends by resignation with probability 0.7 when Black is
    ahead and 0.3 when White is (so the counted games over-represent White wins)."""
    rng = np.random.default_rng(seed)
    latent = rng.logistic(truth, 8.0, size=size)
    black_ahead = latent > komi
    resigned = rng.random(size) < np.where(black_ahead, 0.7, 0.3)
    margins = np.round(latent)
    return pd.DataFrame({
        "ruleset": "japanese",
        "margin_before_komi": np.where(resigned, np.nan, margins),
        "lower": np.where(resigned, np.where(black_ahead, komi, -np.inf), margins - 0.5),
        "upper": np.where(resigned, np.where(black_ahead, np.inf, komi), margins + 0.5)})


def test_censoring_aware_fit_corrects_the_bias_of_leaving_resignations_out():
    sample = censored_sample(truth=9.0, komi=5.5, size=6000, seed=11)
    counted = sample.dropna()
    with_censored = fit_logistic(sample["lower"], sample["upper"])
    counted_only = fit_logistic(counted["lower"], counted["upper"])
    assert abs(with_censored.location - 9.0) < 0.7
    assert with_censored.ci_low < 9.0 < with_censored.ci_high
    assert counted_only.location < 9.0 - 3


@pytest.mark.parametrize("lower, upper", [
    ([5.5, 5.5, 6.5], [np.inf, np.inf, np.inf]),           # every game a Black win by resignation
    ([6.5], [7.5]),                                          # a single counted game
    ([5.5, 5.5, -np.inf, -np.inf], [np.inf, np.inf, 5.5, 5.5]),  # outcomes split exactly at 5.5
])
def test_fit_says_when_the_data_cannot_pin_the_curve(lower, upper):
    fit = fit_logistic(lower, upper)
    assert not fit.converged and np.isnan(fit.location)


def games_table(**columns) -> pd.DataFrame:
    n = len(columns["game_id"])
    base = {"status": "ok", "duplicate_of": None, "result_margin": None, "komi": 5.5, "rules": None,
            "source": "gogod", "board_rows": 19, "board_cols": 19, "handicap": 0, "year": 1990,
            "black_rank": "9p", "white_rank": "9p"}
    return pd.DataFrame({**{k: [v] * n for k, v in base.items()}, **columns})


def test_outcomes_from_records_bound_each_game():
    games = games_table(game_id=["c", "rb", "rw", "ib", "iw", "d", "f", "nokomi"],
                        result_kind=["counted", "resign", "resign", "time", "resign", "draw", "forfeit",
                                     "resign"],
                        result_winner=["W", "B", "W", "B", "W", None, "B", "B"],
                        result_margin=[2.5, None, None, None, None, None, None, None],
                        komi=[5.5, 5.5, 5.5, 5.0, 5.0, 6.0, 5.5, None])
    out = komi_outcomes(games).set_index("game_id")
    assert list(out.index) == ["c", "rb", "rw", "ib", "iw", "d"]  # forfeit and unknown komi left out
    assert out.loc["c", ["margin_before_komi", "lower", "upper", "winner"]].tolist() == [3.0, 2.5, 3.5, "W"]
    assert out.loc["rb", ["lower", "upper"]].tolist() == [5.5, np.inf]    # margin ≥ 6
    assert out.loc["rw", ["lower", "upper"]].tolist() == [-np.inf, 5.5]   # margin ≤ 5
    assert out.loc["ib", ["lower", "upper"]].tolist() == [5.5, np.inf]    # beat komi 5: margin ≥ 6
    assert out.loc["iw", ["lower", "upper"]].tolist() == [-np.inf, 4.5]   # lost at komi 5: margin ≤ 4
    assert out.loc["d", ["margin_before_komi", "winner"]].tolist() == [6.0, "draw"]
    assert (out["ruleset"] == "record").all()
    assert komi_outcomes(games, censored_kinds=()).game_id.tolist() == ["c", "d"]


def test_outcomes_from_scores_use_rulelab_margins_and_shift_bounds_by_ruleset():
    games = games_table(game_id=["c", "r"], result_kind=["counted", "resign"], result_winner=["B", "W"],
                        result_margin=[0.5, None])
    counts = dict(stones=(40, 36), surrounded=(4, 0), prisoners=(6, 2))  # ΔA = ΔT = 8
    handicap_like = dict(counts, stones=(41, 36))                          # Black placed one more: ΔA = 9
    scores = pd.DataFrame([
        score_row("c", "chinese", "area", 7.5, **counts), score_row("c", "japanese", "territory", 6.5, **counts),
        score_row("r", "chinese", "area", 7.5, **handicap_like, finished=False),
        score_row("r", "japanese", "territory", 6.5, **handicap_like, finished=False),
        score_row("r", "japanese", "territory", 5.5, **handicap_like, finished=False, komi_source="record")])
    out = komi_outcomes(games, scores, "chinese").set_index("game_id")
    assert out.loc["c", "margin_before_komi"] == 8.0   # rulelab's count, not the record's 6
    # White resigned at 5.5 under Japanese rules; Chinese counts this position 1 point better
    assert out.loc["r", ["lower", "upper"]].tolist() == [-np.inf, 6.5]
    with pytest.raises(InputError, match="no rows for ruleset 'korean'"):
        komi_outcomes(games, scores, "korean")
    with pytest.raises(InputError, match="'ruleset' argument"):
        komi_outcomes(games, scores)


def test_win_rate_curve_counts_draws_half_and_matches_wilson():
    outcomes = pd.DataFrame({"ruleset": "nz", "kind": "counted", "komi": 7.0, "winner": ["draw", "draw", "B", "W"],
                             "margin_before_komi": [7.0, 7.0, 9.0, 3.0]})
    curve = win_rate_curve(outcomes, [6.5, 7.0, 7.5], n_boot=200, seed=1)
    assert curve["black_points"].tolist() == [3.0, 2.0, 1.0]
    low, high = wilson_interval(curve["black_points"], 4)
    assert np.allclose(curve["wilson_low"], low) and np.allclose(curve["wilson_high"], high)
    assert (curve["boot_low"] <= curve["rate"]).all() and (curve["rate"] <= curve["boot_high"]).all()
    with pytest.raises(InputError, match="komi grid"):
        win_rate_curve(outcomes, [])


def test_win_rate_curve_by_stratum():
    outcomes = pd.DataFrame({"ruleset": "record", "kind": "counted", "era": ["a", "a", "b"], "komi": 5.5,
                             "winner": ["B", "W", "B"], "margin_before_komi": [7.0, 3.0, 9.0]})
    curve = win_rate_curve(outcomes, [5.5], by="era", n_boot=0)
    assert curve[["era", "games", "rate"]].values.tolist() == [["a", 2, 0.5], ["b", 1, 1.0]]


def test_win_rate_curve_keeps_the_winner_of_resigned_games_and_counts_them_assumed_off_their_komi():
    outcomes = pd.DataFrame({"ruleset": "record", "kind": ["counted", "resign", "time"], "komi": [6.5, 6.5, 7.5],
                             "winner": ["W", "B", "W"], "margin_before_komi": [5.0, np.nan, np.nan]})
    curve = win_rate_curve(outcomes, [4.5, 6.5, 7.5], n_boot=0)
    assert curve["black_points"].tolist() == [2.0, 1.0, 1.0]
    assert curve["assumed"].tolist() == [2, 1, 1]
    assert win_rate_curve(outcomes, [6.5], n_boot=0, include_time=False)["games"].tolist() == [2]


def test_margin_fit_reports_both_variants_and_the_shift():
    table = margin_fit(censored_sample(truth=7.0, komi=5.5, size=3000, seed=2), n_boot=20, seed=0)
    table = table.set_index("variant")
    full, counted = table.loc["counted+censored"], table.loc["counted only"]
    assert (full.games, counted.censored) == (3000, 0)
    assert full.counted == counted.games == full.games - full.censored
    assert abs(full.fair_komi - 7.0) < 1.0 and counted.fair_komi < full.fair_komi - 2
    assert full.boot_low < full.fair_komi < full.boot_high
    assert full.converged and counted.converged


def test_rekomi_flips_by_hand():
    # played at 5.5: B+0.5 (margin 6, flips at 6.5), B+3.5 (9), W+1.5 (4), a resignation by
    # Black (White wins, keeps its result); one game played at 4.5 is not counted
    outcomes = pd.DataFrame({"ruleset": "record", "komi": [5.5, 5.5, 5.5, 5.5, 4.5],
                             "winner": ["B", "B", "W", "W", "B"], "era": ["x", "x", "y", "y", "x"],
                             "margin_before_komi": [6.0, 9.0, 4.0, np.nan, 5.0]})
    row = rekomi_flips(outcomes, 5.5, 6.5).iloc[0]
    assert (row.games, row.counted, row.flipped) == (4, 3, 1)
    assert (row.rate_from, row.rate_to) == (0.5, 0.25)
    assert (row.counted_rate_from, row.counted_rate_to) == (2 / 3, 1 / 3)
    # at 6.0 the B+0.5 game becomes a draw: half a point, one flip
    assert rekomi_flips(outcomes, 5.5, 6.0).iloc[0].rate_to == pytest.approx(1.5 / 4)
    by_era = rekomi_flips(outcomes, 5.5, 6.5, by="era")
    assert by_era[["era", "games", "flipped"]].values.tolist() == [["x", 2, 1], ["y", 2, 0]]


def test_margin_distribution_shows_parity():
    games, scores = collection()
    out = komi_outcomes(games, scores, "chinese")
    table = margin_distribution(out)
    # Chinese margins: 25, 7, 8 (two seki eyes), 9 − 2 handicap bonus = 7, 9
    assert dict(zip(table.margin_before_komi, table.games)) == {7.0: 2, 8.0: 1, 9.0: 1, 25.0: 1}
    assert dict(zip(table.margin_before_komi, table.parity)) == {7.0: "odd", 8.0: "even", 9.0: "odd",
                                                                  25.0: "odd"}


def test_rulelab_count_against_the_record():
    games, scores = collection()  # every record says B+0.5 at komi 6.5: margin 7
    outcomes = pd.concat([komi_outcomes(games, scores, "chinese"), komi_outcomes(games, scores, "japanese"),
                          komi_outcomes(games)])
    table = record_agreement(outcomes).set_index("ruleset")
    # Japanese margins: 25, 7, 6, 6, 9 → one equal (g_last_dame), three Black wins at 6.5
    assert table.loc["japanese"].tolist() == [5, 0.6, 0.2, 1.0]  # gaps 18, 0, 1, 1, 2
    assert table.loc["chinese", "games"] == 5
