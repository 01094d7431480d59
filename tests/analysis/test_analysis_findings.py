"""The findings' tables and prose, and the conventions check, on constructed tables."""

import pandas as pd
import pytest
from analysis_tables import collection, score_row, write_run

from rulelab.analysis.conventions import convention_agreement
from rulelab.analysis.findings import (black_win_rates, cause_shares, handicap_readings, pair_rates,
                                       parity_figures, trusted_games)
from rulelab.analysis.selection import OUTLIER_POINTS, record_gaps
from rulelab.report.build import write_section


def row(table, basis, pair, band="all"):
    return table[(table.komi_basis == basis) & (table.pair == pair) & (table.band == band)].iloc[0]


def test_rates_per_pair_and_band_on_both_komi_bases():
    games, scores = collection()
    rates = pair_rates(scores, games)
    # g_last_dame (komi) and g_seki (seki eyes) at standard komi; only g_seki at 7.5
    assert (row(rates, "standard", "chinese–japanese").disagreements,
            row(rates, "common", "chinese–japanese").disagreements) == (2, 1)
    anyone = row(rates, "standard", "any")
    assert (anyone.games, anyone.disagreements) == (5, 3)
    assert anyone.low < anyone.rate < anyone.high
    bands = rates[(rates.komi_basis == "standard") & (rates.pair == "any") & (rates.band != "all")]
    assert bands.games.sum() == 5 and bands.disagreements.sum() == 3
    assert row(rates, "standard", "any", "> 10 points").disagreements == 0  # g_agree: 25 points


def test_cause_shares_move_from_parity_to_the_counting():
    """The last dame filled by White is parity at each ruleset's komi (Chinese 7.5 against
    Japanese 6.5), and nothing at one common komi, where the other mechanisms remain."""
    games, scores = collection()
    shares = cause_shares(scores, games).set_index(["komi_basis", "main_cause"])["disagreements"]
    assert shares["standard", "parity"] == 1 and ("common", "parity") not in shares.index
    assert ("standard", "komi") not in shares.index
    assert shares["common", "seki_eyes"] == 2
    assert cause_shares(scores, games).groupby("komi_basis").share.sum().tolist() == [1.0, 1.0]


def test_trusted_games_need_markup_proof_or_a_confident_finished_estimate():
    games, scores = collection()
    scores.loc[scores.game_id == "g_seki", ["life_method", "finished"]] = ["estimate", False]
    scores.loc[scores.game_id == "g_dead", ["life_method", "life_confidence"]] = ["estimate", 0.5]
    scores.loc[scores.game_id == "g_agree", "life_method"] = "proof"
    assert trusted_games(scores, games).tolist() == ["g_agree", "g_handicap", "g_last_dame"]


def test_counts_far_from_the_record_are_outliers():
    games = pd.DataFrame({"game_id": ["near", "edge", "far", "resigned"], "status": "ok",
                          "result_kind": ["counted"] * 3 + ["resign"], "result_winner": "B",
                          "result_margin": [0.5, 0.5, 0.5, None], "komi": 6.5})
    scores = pd.DataFrame({"game_id": ["near", "edge", "far", "resigned"], "komi_source": "record",
                           "margin_before_komi": [7.0, 7.0 + OUTLIER_POINTS, 7.5 + OUTLIER_POINTS, 3.0]})
    gaps = record_gaps(scores, games).set_index("game_id")
    assert gaps.outlier.to_dict() == {"edge": False, "far": True, "near": False}


def test_black_win_rate_at_each_komi_in_use():
    outcomes = pd.DataFrame({"komi": [5.5] * 12 + [6.5] * 10, "winner": ["B"] * 6 + ["draw"] * 2 + ["W"] * 4
                             + ["W"] * 10})
    rates = black_win_rates(outcomes).set_index("komi")
    assert rates.loc[5.5, "rate"] == pytest.approx(7 / 12) and rates.loc[6.5, "rate"] == 0
    assert rates.loc[5.5, "low"] < 7 / 12 < rates.loc[5.5, "high"]


def test_findings_state_numbers_with_intervals(tmp_path):
    run = write_run(tmp_path / "run", *collection())
    text = write_section("findings", run, tmp_path / "out", n_boot=0).read_text()
    # the four even games; the handicap game is in the section of its kind
    assert ("Chinese, Japanese and Ing rules name different winners on 2 games, "
            "[50.0%](explorer.html#basis=standard&pair=main&per=game&even=1&n=2)") in text
    assert ("at one common komi of 7.5, where only the counting differs, on 1, "
            "[25.0%](explorer.html#basis=common&pair=main&per=game&even=1&n=1)") in text
    assert "Every settled even game is trusted here" in text  # every constructed game has markup
    assert "On the trusted even games" not in text  # so their figures are not said twice
    assert "Tromp–Taylor and Chinese counting" in text and "holds by construction" in text
    assert "parity (who placed the last stone" in text
    assert "Parity, who fills the last dame" in text and "Inside the counting error" in text
    # Ing's rules (1991) are younger than g_last_dame (1990), one of Japanese vs Ing's two
    assert "Ing's earliest rules text is of 1991" in text and "japanese vs ing 1 of its 2" in text


def test_conventions_say_which_handicap_and_owed_points_records_follow():
    games = pd.DataFrame({"game_id": ["h", "t"], "status": "ok", "source": "kgs",
                          "result_kind": "counted", "result_winner": "W", "result_margin": [0.5, 6.5],
                          "handicap": [3, 0], "to_move": "B"})
    # 3 − 3 − 0.5 = W+0.5: White received N points for 3 stones
    handicap = score_row("h", "chinese", "area", 0.5, stones=(40, 37), handicap_bonus=3,
                         komi_source="record")
    # Black's 2 owed points refused: 8 − 8 − 6.5 = W+6.5 (counted they would make it W+4.5)
    owed = score_row("t", "japanese", "territory", 6.5, surrounded=(10, 8), owed=(2, 0),
                     komi_source="record")
    scores = pd.DataFrame([handicap, owed]).assign(open_dame=0, black_dame_filled=0, white_dame_filled=0)
    table = convention_agreement(scores, games).set_index(["setting", "choice"])
    assert table.loc[("handicap_bonus", "N"), ["exact", "in_use"]].tolist() == [1.0, True]
    assert table.loc[("handicap_bonus", "N-1"), "exact"] == 0.0
    assert table.loc[("protective_moves", "refused"), ["exact", "in_use"]].tolist() == [1.0, True]
    assert table.loc[("protective_moves", "counted"), "exact"] == 0.0
    assert (table["games"] == 1).all()


def test_each_reading_of_a_disputed_compensation_is_a_row_of_its_own():
    """The constructed handicap game: Ing without compensation (its preset) names another winner
    than Chinese and Japanese; with N points, the reading OGS uses, it agrees with both."""
    games, scores = collection()
    readings = handicap_readings(scores, games).set_index(["compensation", "pair"])
    assert readings.loc[("0", "chinese–ing"), ["games", "disagreements", "default"]].tolist() == [1, 1, True]
    assert readings.loc[("N", "any"), ["games", "disagreements", "default"]].tolist() == [1, 0, False]
    assert readings["source"].str.contains("docs/RULES.md").all()


def test_parity_figures_count_the_last_dame_and_ing_ties_on_even_games():
    """Of the four even games, two are Chinese ±½ (the last dame decides), and one is an Ing tie
    Black wins; the handicap game is not counted."""
    games, scores = collection()
    figures = parity_figures(scores, games).set_index("figure")
    assert figures.loc["last dame decides", ["games", "count"]].tolist() == [4, 2]
    assert figures.loc["ing tie wins", ["games", "count"]].tolist() == [4, 1]


def test_the_headline_is_on_even_games_only():
    games, scores = collection()
    even = pair_rates(scores, games, kind="even")
    every = pair_rates(scores, games)
    total = {kind: table.query("pair == 'any' and band == 'all' and komi_basis == 'standard'")["games"].item()
             for kind, table in (("even", even), ("all", every))}
    assert total == {"even": 4, "all": 5}
