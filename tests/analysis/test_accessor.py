"""``df.go`` as a newcomer meets it: copies left out, and no silent empty result."""

import pandas as pd
import pytest

import rulelab.analysis  # noqa: F401 (registers the accessor)
from rulelab.errors import InputError


def scores_of(finished: bool, copies: bool = False) -> pd.DataFrame:
    rows = pd.DataFrame({"game_id": ["g1", "g1", "g2", "g2"], "ruleset": ["chinese", "japanese"] * 2,
                         "komi_source": "standard", "scoring": ["area", "territory"] * 2,
                         "margin_before_komi": [7.0, 7.0, -3.0, -3.0], "winner": ["W", "B", "W", "W"],
                         "finished": finished, "duplicate_of": None})
    if copies:  # g1 read a second time: its rows again, marked
        rows = pd.concat([rows, rows.iloc[:2].assign(duplicate_of="a.sgf")], ignore_index=True)
    return rows


GAMES = pd.DataFrame({"game_id": ["g1", "g2"], "status": "ok", "result_kind": "counted",
                      "komi": 6.5, "result_winner": ["B", "W"], "result_margin": [0.5, 9.5],
                      "duplicate_of": None, "source": "kgs", "board_rows": 19, "board_cols": 19,
                      "handicap": 0, "year": 2020, "black_rank": "5d", "white_rank": "5d"})


def test_copies_are_left_out_so_pivots_and_counts_see_each_game_once():
    scores = scores_of(finished=True, copies=True)
    assert scores.go.winners().shape == (2, 2)
    pair = scores.go.divergence().query("ruleset_a == 'chinese' and ruleset_b == 'japanese'")
    assert (pair.games.item(), pair.disagreements.item()) == (2, 1)


def test_without_finished_positions_a_missing_games_table_raises_with_the_fix():
    scores = scores_of(finished=False)
    for method in ("winners", "divergence"):
        with pytest.raises(InputError, match=rf"scores.go.{method}\(games\)"):
            getattr(scores.go, method)()
    assert scores.go.winners(GAMES).shape == (2, 2)
    assert scores.go.divergence(GAMES).games.max() == 2


def test_an_empty_rekomi_says_which_komi_the_games_were_played_at():
    with pytest.warns(UserWarning, match="no game was played at komi 7.5"):
        flips = GAMES.go.rekomi(7.5, 8.5)
    assert flips.empty and flips.attrs["reason"].endswith("(komi in these games: 6.5)")
    assert not GAMES.go.rekomi(6.5, 7.5).empty


def test_a_run_asked_for_a_komi_is_compared_at_that_komi():
    standard = scores_of(finished=True)
    user = standard.assign(komi_source="user", winner=["B", "B", "B", "W"])
    record = standard.iloc[:1].assign(komi_source="record", winner="draw")
    both = pd.concat([standard, user, record], ignore_index=True)
    assert both.go.winners().loc["g1"].tolist() == ["B", "B"]
    assert standard.go.winners().loc["g1"].tolist() == ["W", "B"]
