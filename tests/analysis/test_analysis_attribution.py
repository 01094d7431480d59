"""Attribution of margin differences to causes: exact sums, and the right cause per situation."""

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from analysis_tables import collection, score_row
from hypothesis import given, settings
from hypothesis import strategies as st

from rulelab.analysis import CAUSES, PARTS, attribute, cause_summary, clearest_examples, ledger
from rulelab.analysis.attribution import main_cause, opposing_causes


def parts_of(table, game, a, b):
    row = table[(table.game_id == game) & (table.ruleset_a == a) & (table.ruleset_b == b)]
    assert len(row) == 1, f"no single row for {game} {a} {b}"
    return row.iloc[0]


def nonzero(row) -> dict:
    return {c: row[f"part_{c}"] for c in CAUSES if row[f"part_{c}"] != 0}


@pytest.fixture(scope="module")
def table():
    games, scores = collection()
    return attribute(scores, games)


def test_parts_add_up_exactly_and_nothing_is_unexplained(table):
    assert len(table) == 13
    assert (table[list(PARTS)].sum(axis=1) == table["difference"]).all()
    assert (table["part_unexplained"] == 0).all()


@pytest.mark.parametrize("game, a, b, expected, cause", [
    # board margin 7, White filled the last dame: the point of komi area rules add for the
    # last stone is not balanced by one, one mechanism (parity); Ing's half point more is komi
    ("g_last_dame", "chinese", "japanese", {"parity": -1.0}, "parity"),
    ("g_last_dame", "ing", "japanese", {"komi": -0.5, "parity": -1.0}, "combined"),
    # two seki eyes count under area scoring only; parity goes the other way
    ("g_seki", "chinese", "japanese", {"parity": -1.0, "seki_eyes": 2.0}, "seki_eyes"),
    # Chinese gives White 2 points for 2 handicap stones, Ing (as preset here) none
    ("g_handicap", "chinese", "ing", {"komi": 0.5, "handicap": -2.0}, "handicap"),
    # area counts the 2 handicap stones and Black's last stone; territory does not (a handicap
    # game: its komi is no parity point)
    ("g_handicap", "ing", "japanese", {"komi": -1.5, "handicap": 2.0, "parity": 1.0}, "handicap"),
    # Tromp–Taylor leaves two dead stones on the board: their region turns neutral
    ("g_dead", "chinese", "tromp-taylor", {"dead_stones": 8.0}, "dead_stones"),
])
def test_each_situation_has_its_cause(table, game, a, b, expected, cause):
    row = parts_of(table, game, a, b)
    assert nonzero(row) == expected
    assert row.main_cause == cause


def test_tie_break_is_flagged_when_a_zero_margin_went_to_black(table):
    row = parts_of(table, "g_seki", "ing", "japanese")
    assert (row.margin_a, row.winner_a, row.decided_by_tie_break) == (0.0, "B", True)
    assert not parts_of(table, "g_seki", "chinese", "japanese").decided_by_tie_break
    assert "tie_break" not in table.columns  # the scores table's name for the ruleset's rule


def test_equal_margins_with_different_verdicts_are_a_tie_break():
    rows = [score_row("g", "ing", "area", 8.0, tie_break="black", stones=(45, 37)),
            score_row("g", "nz", "area", 8.0, tie_break="draw", stones=(45, 37))]
    row = attribute(pd.DataFrame(rows)).iloc[0]
    assert (row.winner_a, row.winner_b, row.difference, row.main_cause) == ("B", "draw", 0.0, "tie_break")


def test_dame_filled_by_policy_is_its_own_cause():
    # one open dame; the area count fills it with a Black stone, the territory count leaves it
    filled = score_row("g", "chinese", "area", 7.5, stones=(41, 36), surrounded=(3, 0), prisoners=(6, 2),
                       dame_policy="alternate")
    open_ = score_row("g", "japanese", "territory", 6.5, stones=(40, 36), surrounded=(3, 0),
                      prisoners=(6, 2), dame=1)
    row = attribute(pd.DataFrame([filled, open_]), only_disagreeing=False).iloc[0]
    assert nonzero(row) == {"parity": -1.0, "dame_filling": 1.0}


def test_protective_moves_and_group_tax():
    counts = dict(stones=(40, 36), surrounded=(4, 0), prisoners=(6, 2))
    rows = [score_row("g", "chinese", "area", 7.5, **counts),
            score_row("g", "stone-scoring", "area", 7.5, tax=(4, 6), **counts),
            score_row("g", "japanese", "territory", 6.5, owed=(1, 0), **counts)]
    table = attribute(pd.DataFrame(rows), only_disagreeing=False)
    assert nonzero(parts_of(table, "g", "chinese", "japanese")) == {"parity": -1.0, "protective_moves": 1.0}
    assert nonzero(parts_of(table, "g", "chinese", "stone-scoring")) == {"group_tax": -2.0}


def test_without_games_handicap_stones_are_counted_with_parity():
    _, scores = collection()
    row = parts_of(attribute(scores), "g_handicap", "ing", "japanese")
    assert nonzero(row) == {"komi": -0.5, "parity": 2.0}


def test_a_margin_the_breakdown_cannot_explain_is_kept_apart():
    rows = [score_row("g", "chinese", "area", 7.5, stones=(40, 36), surrounded=(3, 0), prisoners=(6, 2)),
            score_row("g", "japanese", "territory", 6.5, stones=(40, 36), surrounded=(3, 0), prisoners=(6, 2))]
    rows[0].update(margin=rows[0]["margin"] + 2, winner="B")  # a scorer adding 2 points nobody lists
    entries = ledger(pd.DataFrame(rows))
    assert entries.unexplained.tolist() == [2.0, 0.0]
    row = attribute(pd.DataFrame(rows), only_disagreeing=False).iloc[0]
    assert row.part_unexplained == 2.0 and row[list(PARTS)].sum() == row.difference


def test_summary_and_clearest_examples(table):
    summary = cause_summary(table)
    seki = summary[(summary.ruleset_a == "chinese") & (summary.main_cause == "seki_eyes")].iloc[0]
    assert (seki.games, seki.mean_part) == (1, 2.0)
    examples = clearest_examples(table, per_cause=1)
    assert examples.cause.tolist() == sorted(set(table.main_cause) - {"combined"})
    handicap = examples[examples.cause == "handicap"].iloc[0]
    # Chinese against Ing: the compensation alone (against Japanese, moves moved a point alongside)
    assert (handicap.ruleset_b, handicap.clarity) == ("ing", 1.0)


def test_empty_or_single_ruleset_tables_give_an_empty_attribution():
    rows = [score_row("g", "chinese", "area", 7.5, stones=(45, 30))]
    assert attribute(pd.DataFrame(rows)).empty
    assert list(attribute(pd.DataFrame(rows)).columns)[-3:] == ["main_cause", "combined_causes", "opposing_causes"]


counts = st.tuples(st.integers(0, 180), st.integers(0, 180))
small = st.tuples(st.integers(0, 6), st.integers(0, 6))
position = st.fixed_dictionaries({"stones": counts, "surrounded": counts, "prisoners": counts,
                                  "seki_eyes": small, "owed": small, "dead": small})
rules = st.fixed_dictionaries({
    "scoring": st.sampled_from(["area", "territory"]),
    "komi": st.sampled_from([0.0, 0.5, 5.5, 6.5, 7.0, 7.5, 8.0, -3.5]),
    "tax": small, "handicap_bonus": st.integers(0, 9), "tie_break": st.sampled_from(["draw", "black"])})


@settings(max_examples=60, deadline=None)
@given(position, rules, rules, st.integers(0, 9))
def test_parts_always_add_up_exactly(counts, first, second, handicap):
    """Any two rulesets scoring one position: the parts sum to the margin difference."""
    rows = pd.DataFrame([score_row("g", name, **rule, **counts)
                         for name, rule in (("one", first), ("two", second))])
    games = pd.DataFrame({"game_id": ["g"], "status": ["ok"], "handicap": [handicap]})
    row = attribute(rows, games, only_disagreeing=False).iloc[0]
    margins = rows.set_index("ruleset")["margin"]
    assert row[list(PARTS)].sum() == row.difference == margins[row.ruleset_a] - margins[row.ruleset_b]
    assert row.part_unexplained == 0


@pytest.mark.slow
def test_the_ledger_explains_every_breakdown_of_the_scorer():
    """Contract check against rulelab.scoring: on random boards with dead stones and seki
    marks, under every preset and both dame policies, no row leaves anything unexplained.
    (Slow only on a fresh checkout, where the scorer's kernels are compiled first.)"""
    scoring = pytest.importorskip("rulelab.scoring")
    from rulelab.position import Life, Position
    from rulelab.rules import PRESETS

    rng = np.random.default_rng(0)
    rows = []
    for k in range(24):
        size = (9, 13, 19)[k % 3]
        board = rng.choice([0, 1, 2], size=(size, size), p=[0.3, 0.35, 0.35]).astype(np.int8)
        dead = (rng.random(board.shape) < 0.05) & (board > 0)
        rng.random(board.shape)  # the draw of a former seki mask, so the boards stay as they were
        captured = rng.integers(0, 10, size=2)
        position = Position(board=board, captured_black=int(captured[0]), captured_white=int(captured[1]),
                            placed_black=int((board == 1).sum() + captured[0] + k % 2),
                            placed_white=int((board == 2).sum() + captured[1]),
                            passes_black=k % 3 == 0, passes_white=k % 4 == 0, to_move=1 + k % 2,
                            handicap=(0, 2, 0, 4)[k % 4])
        for policy in ("none", "alternate"):
            rulesets = [replace(r, dame_policy=policy) for r in PRESETS.values()]
            for b in scoring.score_all(position, Life(dead=dead, method="estimate"), rulesets):
                rows.append({**b.to_record(), "game_id": f"g{k}-{policy}", "komi_source": "standard"})
    scores = pd.DataFrame(rows)
    games = scores.groupby("game_id", sort=True)["handicap"].first().reset_index().assign(status="ok")
    assert (ledger(scores, games)["unexplained"] == 0).all()
    table = attribute(scores, games, only_disagreeing=False)
    assert (table[list(PARTS)].sum(axis=1) == table["difference"]).all()
    assert (table["part_unexplained"] == 0).all()
    assert {"handicap", "dead_stones", "group_tax"} <= set(table.main_cause.dropna())


def test_at_one_common_komi_only_the_counting_rules_remain():
    games, scores = collection()
    common = attribute(scores, games, komi_basis="common")
    assert set(common.komi_basis) == {"common"} and (common["part_komi"] == 0).all()
    assert (common[list(PARTS)].sum(axis=1) == common["difference"]).all()
    pairs = set(zip(common.game_id, common.ruleset_a, common.ruleset_b))
    assert ("g_last_dame", "chinese", "japanese") not in pairs  # komi alone separated them
    row = parts_of(common, "g_seki", "chinese", "japanese")
    assert (nonzero(row), row.main_cause) == ({"seki_eyes": 2.0}, "seki_eyes")


def test_the_main_cause_is_the_part_whose_removal_gives_the_other_verdict(table):
    disagreeing = table[table.main_cause.isin(CAUSES)]
    for row in disagreeing.itertuples():
        rest = row.margin_a - getattr(row, f"part_{row.main_cause}")
        assert (rest > 0 and row.winner_b == "B") or (rest < 0 and row.winner_b == "W") or rest == 0


def test_parts_that_cancel_by_design_are_one_mechanism():
    """A two-stone game counted by area with compensation N against territory, at one komi:
    the 2 stones and the 2 points cancel, and the flip comes from Black's last stone."""
    counts = dict(stones=(42, 36), surrounded=(3, 0), prisoners=(5, 2))
    rows = [score_row("g", "chinese", "area", 6.5, handicap_bonus=2, **counts),
            score_row("g", "japanese", "territory", 6.5, **counts)]
    games = pd.DataFrame({"game_id": ["g"], "status": ["ok"], "handicap": [2]})
    assert ledger(pd.DataFrame(rows), games)[["handicap_bonus", "handicap_stones"]].iloc[0].tolist() == [-2, 2]
    row = attribute(pd.DataFrame(rows), games).iloc[0]
    assert (row.winner_a, row.winner_b, nonzero(row), row.main_cause) == ("B", "W", {"parity": 1.0}, "parity")


def test_no_single_part_flips_the_verdict_then_the_cause_is_combined():
    # Chinese W+0.5 against Japanese B+1.5: komi −1 and one seki eye each way of 1 point
    frame = pd.DataFrame({"difference": [-2.0], "margin_a": [-0.5], "winner_a": ["W"], "winner_b": ["B"],
                          "part_komi": [-1.0], "part_seki_eyes": [-1.0]}).reindex(
        columns=["difference", "margin_a", "winner_a", "winner_b", *PARTS], fill_value=0.0)
    from rulelab.analysis.attribution import main_cause
    cause, combined = main_cause(frame.assign(margin_a=-1.5))
    assert (cause.item(), combined.item()) == ("combined", "komi+seki_eyes")


def test_a_group_the_rules_decide_differently_is_the_status_part():
    """Japanese confirmation kills a bent four in the corner that the Chinese count plays out
    and lets live: the territory row's own verdict takes 24 points (status_effect), and the
    flip is put down to status, not to the dead stones the two rows remove."""
    counts = dict(stones=(41, 36), surrounded=(3, 0), prisoners=(6, 2))  # Black placed the last stone
    chinese = score_row("g", "chinese", "area", 7.5, **counts)
    japanese = score_row("g", "japanese", "territory", 6.5, **counts)
    japanese.update(margin=japanese["margin"] - 24, margin_before_komi=japanese["margin_before_komi"] - 24,
                    territory_margin=japanese["territory_margin"] - 24, winner="W", dead_white=0,
                    dead_black=11, status_effect=-24.0)
    chinese["status_effect"] = 0.0
    row = attribute(pd.DataFrame([chinese, japanese])).iloc[0]
    assert nonzero(row) == {"status": 24.0}
    assert row.main_cause == "status" and row[list(PARTS)].sum() == row.difference


def test_the_tie_rule_is_named_only_where_the_margins_are_equal():
    """AGA B+0.5 against a Chinese draw in a handicap game: komi −0.5 and handicap +1 apart,
    a difference of parts, not of tie rules; a part pulling the other way is listed."""
    frame = pd.DataFrame({"difference": [0.5, 0.0], "margin_a": [0.5, 0.0], "winner_a": ["B", "B"],
                          "winner_b": ["draw", "draw"], "part_komi": [-0.5, 0.0],
                          "part_handicap": [1.0, 0.0]}).reindex(
        columns=["difference", "margin_a", "winner_a", "winner_b", *PARTS], fill_value=0.0)
    cause, combined = main_cause(frame)
    assert cause.tolist() == ["combined", "tie_break"] and combined.tolist() == ["handicap+komi", None]
    assert opposing_causes(frame).tolist() == ["komi", None]
    games, scores = collection()
    table = attribute(scores, games)
    assert (table.loc[table["main_cause"] == "tie_break", "difference"] == 0).all()
