"""Winners per ruleset and the ruleset × ruleset disagreement matrix, on games worked by hand."""

import numpy as np
import pandas as pd
import pytest
from analysis_tables import collection

from rulelab.analysis import disagreement_matrix, matrix_wide, winners
from rulelab.analysis.divergence import any_disagreement, game_life_method
from rulelab.errors import InputError


def four_games() -> pd.DataFrame:
    """Chinese/Japanese/Ing winners of four games, chosen so that every pair's count
    is easy to check by eye:

    ====  =======  ====  ========
    game  chinese  ing   japanese
    ====  =======  ====  ========
    g1    W        W     B
    g2    B        B     B
    g3    W        draw  W
    g4    W        W     W
    ====  =======  ====  ========
    """
    verdicts = {"g1": "WWB", "g2": "BBB", "g3": "WDW", "g4": "WWW"}
    rows = []
    for game, letters in verdicts.items():
        for ruleset, scoring, letter in zip(["chinese", "ing", "japanese"], ["area", "area", "territory"],
                                            letters):
            rows.append({"game_id": game, "ruleset": ruleset, "komi_source": "standard",
                         "scoring": scoring, "winner": {"D": "draw"}.get(letter, letter),
                         "life_method": "markup" if game != "g4" else "estimate", "finished": True})
    return pd.DataFrame(rows)


def pair(matrix, a, b):
    return matrix[(matrix.ruleset_a == a) & (matrix.ruleset_b == b)].iloc[0]


def test_matrix_on_four_games_by_hand():
    matrix = disagreement_matrix(four_games())
    expected = {("chinese", "ing"): 1, ("chinese", "japanese"): 1, ("ing", "japanese"): 2}
    for (a, b), disagreements in expected.items():
        for x, y in ((a, b), (b, a)):
            row = pair(matrix, x, y)
            assert (row.games, row.disagreements, row.rate) == (4, disagreements, disagreements / 4)
    assert (matrix[matrix.ruleset_a == matrix.ruleset_b].disagreements == 0).all()
    assert len(matrix) == 9


def test_wide_matrix_is_symmetric_and_ordered_area_first():
    square = matrix_wide(disagreement_matrix(four_games()), "disagreements")
    assert list(square.index) == ["chinese", "ing", "japanese"]
    np.testing.assert_array_equal(square.to_numpy(), square.to_numpy().T)


def test_winners_table_and_unsettled_rows():
    scores = four_games()
    scores.loc[(scores.game_id == "g1") & (scores.ruleset == "ing"), "finished"] = False
    wide = winners(scores)
    assert wide.loc["g3"].tolist() == ["W", "draw", "W"]
    assert pd.isna(wide.loc["g1", "ing"])
    assert winners(scores, finished_only=False).loc["g1", "ing"] == "W"
    # a game scored under one ruleset only counts for no pair involving the others
    assert pair(disagreement_matrix(scores), "chinese", "ing").games == 3


def test_record_komi_rows_are_not_compared():
    scores = four_games()
    extra = scores[scores.ruleset == "japanese"].assign(komi_source="record", winner="W")
    matrix = disagreement_matrix(pd.concat([scores, extra]))
    assert pair(matrix, "chinese", "japanese").disagreements == 1


def test_split_by_life_method():
    split = disagreement_matrix(four_games(), by="life_method")
    assert set(split.life_method) == {"estimate", "markup"}
    row = split[(split.life_method == "markup") & (split.ruleset_a == "ing") & (split.ruleset_b == "japanese")]
    assert (row.games.iloc[0], row.disagreements.iloc[0]) == (3, 2)


def test_split_by_strata_of_the_games_table():
    games, scores = collection()
    by_source = disagreement_matrix(scores, games, by="source")
    kgs = by_source[(by_source.source == "kgs") & (by_source.ruleset_a == "chinese")
                    & (by_source.ruleset_b == "japanese")].iloc[0]
    # KGS games: g_agree, g_last_dame (Chinese W, Japanese B), g_handicap (both W)
    assert (kgs.games, kgs.disagreements) == (3, 1)
    by_handicap = disagreement_matrix(scores, games, by="handicap")
    assert sorted(by_handicap.handicap.unique()) == [0, 2]


def test_games_table_excludes_failed_and_duplicate_games():
    games, scores = collection()
    games.loc[games.game_id == "g_seki", "duplicate_of"] = "elsewhere.sgf#0"
    games.loc[games.game_id == "g_dead", "status"] = "parse_error"
    matrix = disagreement_matrix(scores, games)
    assert matrix.games.max() == 3


def test_a_game_stored_twice_counts_once():
    """The pipeline gives both copies of a game one game_id and scores both."""
    games, scores = collection()
    copy = games[games.game_id == "g_seki"].assign(source_path="copy.mgt", duplicate_of="constructed.sgf#2")
    twice = pd.concat([games, copy], ignore_index=True)
    doubled = pd.concat([scores, scores[scores.game_id == "g_seki"]], ignore_index=True)
    expected = disagreement_matrix(scores, games)
    pd.testing.assert_frame_equal(disagreement_matrix(doubled, twice), expected)
    pd.testing.assert_frame_equal(disagreement_matrix(doubled, twice, by="era"),
                                  disagreement_matrix(scores, games, by="era"))
    assert winners(doubled).shape == (5, 4)


def test_life_method_of_a_game_is_its_most_common():
    scores = four_games()
    scores.loc[(scores.game_id == "g1") & (scores.ruleset == "ing"), "life_method"] = "none"
    assert game_life_method(scores).to_dict() == {"g1": "markup", "g2": "markup", "g3": "markup",
                                                  "g4": "estimate"}


def test_input_errors_name_the_problem():
    with pytest.raises(InputError, match="winner"):
        disagreement_matrix(four_games().drop(columns="winner"))
    with pytest.raises(InputError, match="needs the games table"):
        disagreement_matrix(four_games(), by="era")
    with pytest.raises(InputError, match="'by' argument"):
        disagreement_matrix(four_games(), by="colour")



def test_share_of_games_where_rulesets_do_not_all_agree():
    games, scores = collection()
    overall = any_disagreement(scores, games)
    assert overall[["games", "disagreeing"]].values.tolist() == [[5, 4]]  # all but g_agree
    by_era = any_disagreement(scores, games, by="era")
    assert by_era["era"].tolist() == ["1975–2001", "2002–2015", "≥2016", "unknown"]  # era order
    assert by_era["disagreeing"].tolist() == [1, 1, 1, 1]


def test_counted_games_are_settled_even_when_the_life_layer_sees_open_dame():
    games, scores = collection()
    scores["finished"] = False  # e.g. a record that stops with dame open
    assert disagreement_matrix(scores).empty or disagreement_matrix(scores).games.max() == 0
    assert disagreement_matrix(scores, games).games.max() == 5  # all five were counted
    games.loc[games.game_id == "g_seki", "result_kind"] = "resign"
    assert disagreement_matrix(scores, games).games.max() == 4


def test_common_komi_separates_komi_from_counting():
    games, scores = collection()
    standard = disagreement_matrix(scores, games)
    common = disagreement_matrix(scores, games, komi_basis="common")
    assert set(standard.komi_basis) == {"standard"} and set(common.komi_basis) == {"common"}
    # g_last_dame: board margin 7 is W+0.5 at 7.5 and B+0.5 at 6.5; g_seki: seki eyes
    assert pair(standard, "chinese", "japanese").disagreements == 2
    assert pair(common, "chinese", "japanese").disagreements == 1
    # g_handicap: the 2 points Chinese rules give White for 2 stones, at either komi
    assert pair(common, "chinese", "ing").disagreements == 1
    with pytest.raises(InputError, match="komi basis"):
        disagreement_matrix(scores, games, komi_basis="record")
