"""Each miss of validation explained by the one group whose verdict would fix it, and classed."""

import json
import re
import tarfile

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from rulelab.cli import main
from rulelab.errors import InputError, RulesError
from rulelab.life import KataGoUnavailable, decide_life
from rulelab.life.methods import GnuGoMethod
from rulelab.pipeline.explain import (CONVENTION, DEAD_LEFT, MISJUDGED, MISS_CLASSES, RACE, RECORD_PROBLEM,
                             SECOND_OPINION, SEKI_MISREAD, SEVERAL_GROUPS, UNFINISHED, Flip,
                             classify_miss, explain_miss)
from rulelab.pipeline.run import score as score_run, validate
from rulelab.pipeline.validate import EXPLANATION_TYPES
from rulelab.position import BLACK, WHITE, Life, Position, board_from_diagram
from rulelab.rules import get_ruleset
from rulelab.scoring import score_position

from positions import named_positions

CHINESE = get_ruleset("chinese").with_komi(0)
JAPANESE = get_ruleset("japanese").with_komi(0)

LIFE = named_positions("life")
"""The named positions of ``data/positions/life.txt``."""

# In the seki "eye_between_two_strings_is_seki", players who called the three inner White
# stones dead recorded a margin 9 points (Japanese) higher.
INNER_WHITE = ([0, 1, 1], [1, 1, 2])


def estimated(position: Position):
    """The verdict a run with ``--life estimate`` stores."""
    return decide_life(position, "estimate")


def margin_with_dead(position: Position, rows_cols, ruleset) -> float:
    """The margin the players would count with exactly these stones dead."""
    dead = np.zeros(position.shape, dtype=bool)
    dead[rows_cols] = True
    return score_position(position, Life(dead=dead, method="markup"), ruleset).margin


def test_a_dead_stone_the_players_left_on_the_board_explains_the_miss():
    position = Position.from_diagram(LIFE["dead_stone_left_on_the_board"].diagram)
    explained = explain_miss(position, estimated(position), CHINESE, recorded_margin=15)
    assert explained.difference == -8.0
    fix = explained.fix
    assert (fix.kind, fix.colour, fix.stones, fix.point, fix.sgf_point) == ("alive", BLACK, 1, (3, 5), "fd")
    assert fix.remaining == 0.0 and fix.survival < 0.2
    assert explained.miss_class == DEAD_LEFT


@pytest.mark.parametrize("ruleset", [JAPANESE, CHINESE], ids=lambda r: r.name)
def test_a_seki_the_players_called_dead_is_a_seki_misread(ruleset):
    position = Position.from_diagram(LIFE["eye_between_two_strings_is_seki"].diagram)
    recorded = margin_with_dead(position, INNER_WHITE, ruleset)
    explained = explain_miss(position, estimated(position), ruleset, recorded)
    fix = explained.fix
    assert (fix.kind, fix.colour, fix.stones, fix.point, fix.remaining) == ("dead", WHITE, 3, (0, 1), 0.0)
    assert fix.seki_share > 0.3
    assert explained.miss_class == SEKI_MISREAD


def test_proven_stones_are_never_flipped():
    position = Position.from_diagram(LIFE["two_eyes"].diagram)
    white = np.nonzero(position.board == WHITE)
    recorded = margin_with_dead(position, white, CHINESE)
    explained = explain_miss(position, estimated(position), CHINESE, recorded)
    assert explained.difference < 0 and explained.fix is None
    assert explained.miss_class == SEVERAL_GROUPS


def test_a_record_problem_names_the_class_whatever_the_flips_find():
    position = Position.from_diagram(LIFE["dead_stone_left_on_the_board"].diagram)
    explained = explain_miss(position, estimated(position), CHINESE, 15, record_problem=True)
    assert explained.fix.remaining == 0.0 and explained.miss_class == RECORD_PROBLEM


@pytest.mark.parametrize("ruleset, margin", [("chinese", 15), (CHINESE, float("nan")), (CHINESE, "15")])
def test_bad_arguments_are_refused_at_the_door(ruleset, margin):
    with pytest.raises(RulesError):
        position = Position.from_diagram(LIFE["dead_stone_left_on_the_board"].diagram)
        explain_miss(position, estimated(position), ruleset, margin)


def flip(kind="dead", survival=0.5, seki_share=0.0, remaining=0.0) -> Flip:
    return Flip(kind=kind, colour=BLACK, stones=2, point=(0, 0), survival=survival,
                seki_share=seki_share, remaining=remaining)


@pytest.mark.parametrize("difference, fix, unsettled, expected", [
    (5.0, flip("alive", survival=0.19), 0, DEAD_LEFT),
    (5.0, flip("alive", survival=0.19), 30, DEAD_LEFT),
    (5.0, flip("alive", survival=0.2), 0, RACE),
    (5.0, flip("dead", survival=0.8), 0, RACE),
    (5.0, flip("dead", survival=0.81), 0, MISJUDGED),
    (5.0, flip("dead", survival=0.1), 0, MISJUDGED),
    (5.0, flip("dead", survival=1.0, seki_share=0.31), 30, SEKI_MISREAD),
    (5.0, flip("dead", survival=1.0, seki_share=0.3), 0, MISJUDGED),
    (5.0, flip("dead", survival=0.5), 30, RACE),
    (5.0, flip("dead", survival=1.0), 10, UNFINISHED),
    (5.0, flip("dead", survival=1.0), 9, MISJUDGED),
    (50.0, flip("dead", survival=0.5, remaining=3.0), 10, UNFINISHED),
    (50.0, flip("dead", survival=0.5, remaining=3.0), 9, SEVERAL_GROUPS),
    (4.0, None, 0, CONVENTION),
    (-4.0, None, 9, CONVENTION),
    (4.5, None, 0, SEVERAL_GROUPS),
    (3.0, flip("alive", survival=0.0, remaining=1.0), 0, SEVERAL_GROUPS),
])
def test_class_thresholds(difference, fix, unsettled, expected):
    assert classify_miss(difference, fix, unsettled) == expected


def sgf_of(diagram: str, properties: str) -> str:
    """A record that sets the diagram up and ends with two passes."""
    board = board_from_diagram(diagram)
    rows, cols = board.shape
    points = {c: "".join(f"[{chr(97 + col)}{chr(97 + row)}]" for row, col in np.argwhere(board == c))
              for c in (BLACK, WHITE)}
    size = f"{cols}" if rows == cols else f"{cols}:{rows}"
    return f"(;GM[1]FF[4]SZ[{size}]{properties}AB{points[BLACK]}AW{points[WHITE]};B[];W[])"


@pytest.fixture
def slip(tmp_path):
    """A record whose players left the dead stone on the board, and one counted right."""
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "slip.sgf").write_text(sgf_of(LIFE["dead_stone_left_on_the_board"].diagram, "RU[Chinese]KM[0]RE[B+15]"))
    (folder / "right.sgf").write_text(sgf_of(LIFE["dead_stone_left_on_the_board"].diagram, "RU[Chinese]KM[0]RE[B+7]"))
    return folder


def test_validation_rows_carry_the_fix_and_the_class(slip, tmp_path):
    summary = validate([slip], tmp_path / "run", jobs=1, life="estimate")
    # One game in two misses for a reason no life verdict fixes: the ceiling is 1 - 1/2.
    assert summary.loc["all", "exact"] == 0.5 and summary.loc["all", "ceiling"] == 0.5
    miss = pd.read_parquet(tmp_path / "run" / "validation.parquet").iloc[0]
    assert (miss.miss_class, miss.fix_kind, miss.fix_colour, miss.fix_stones, miss.fix_point,
            miss.fix_remaining) == (DEAD_LEFT, "alive", "B", 1, "fd", 0.0)
    assert miss.fix_survival < 0.2
    report = json.loads((tmp_path / "run" / "validation.json").read_text())
    assert report["miss_classes"]["all"][DEAD_LEFT] == 1
    assert report["miss_classes"]["rules=chinese"] == {c: int(c == DEAD_LEFT) for c in MISS_CLASSES}
    assert report["explained"]["misses"] == 1


def test_a_second_opinion_that_reproduces_the_record_takes_the_blame_off_it(slip, tmp_path, monkeypatch):
    def keeps_every_stone(self, positions, *, rng_seed=0):
        return [decide_life(position, "markup") for position in positions]  # no marks: all alive

    monkeypatch.setattr(GnuGoMethod, "decide_batch", keeps_every_stone)
    summary = validate([slip], tmp_path / "run", jobs=1, life="estimate", second="gnugo")
    assert summary.loc["all", ["exact", "second_exact", "either_within_1"]].tolist() == [0.5, 0.5, 1.0]
    assert summary.loc["all", "ceiling"] == 1.0  # the slip is no longer beyond every verdict
    miss = pd.read_parquet(tmp_path / "run" / "validation.parquet").iloc[0]
    assert (miss.miss_class, miss.second_margin, miss.second_difference) == (SECOND_OPINION, 15.0, 0.0)
    report = json.loads((tmp_path / "run" / "validation.json").read_text())
    assert report["second_opinion"] == "gnugo"


def test_a_second_validation_makes_nothing_again(slip, tmp_path):
    validate([slip], tmp_path / "run", jobs=1, life="estimate")
    scores = (tmp_path / "run" / "scores.parquet").read_bytes()
    for force in (False, True):
        validate([slip], tmp_path / "run", jobs=1, life="estimate", force=force)
        made = json.loads((tmp_path / "run" / "manifest.json").read_text())["score"]["units"]
        assert made["computed"] == 0 and made["reused"] == made["units"] > 0
        assert (tmp_path / "run" / "scores.parquet").read_bytes() == scores


def test_scores_of_other_options_or_inputs_are_replaced_only_with_force(slip, tmp_path):
    score_run([slip], tmp_path / "scored", jobs=1, life="estimate", rules=["chinese"])
    with pytest.raises(InputError, match="made by rulelab score with other options"):  # its rows kept
        validate([slip], tmp_path / "scored", jobs=1, life="estimate", force=True)
    validate([slip], tmp_path / "run", jobs=1, life="auto")
    with pytest.raises(InputError, match="scores.parquet exists; overwrite it with force=True"):
        validate([slip], tmp_path / "run", jobs=1, life="estimate")
    validate([slip], tmp_path / "run", jobs=1, life="estimate", force=True)
    (slip / "right.sgf").write_text(sgf_of(LIFE["dead_stone_left_on_the_board"].diagram, "RU[Chinese]KM[0]RE[B+8]"))
    with pytest.raises(InputError, match="other contents of these inputs; overwrite it with force=True"):
        validate([slip], tmp_path / "run", jobs=1, life="estimate")
    assert validate([slip], tmp_path / "run", jobs=1, life="estimate", force=True).loc["all", "exact"] == 0


def test_a_missing_second_opinion_stops_the_run(slip, tmp_path, monkeypatch):
    monkeypatch.setenv("RULELAB_KATAGO", str(tmp_path / "nowhere"))
    with pytest.raises(KataGoUnavailable):
        validate([slip], tmp_path / "run", jobs=1, life="estimate", second="katago")


def test_an_unknown_second_opinion_is_refused(slip, tmp_path):
    with pytest.raises(RulesError, match="second opinion must be one of"):
        validate([slip], tmp_path / "run", jobs=1, second="leela")


@pytest.mark.parametrize("miss_class", [RECORD_PROBLEM, DEAD_LEFT, CONVENTION])
def test_only_classes_outside_life_give_way_to_the_second_opinion(miss_class):
    cases = {RECORD_PROBLEM: (7.0, None, 0, True), DEAD_LEFT: (-8.0, flip("alive", survival=0.0), 0, False),
             CONVENTION: (1.0, None, 0, False)}
    difference, fix, unsettled, record = cases[miss_class]
    assert classify_miss(difference, fix, unsettled, record) == miss_class
    assert classify_miss(difference, fix, unsettled, record, second_opinion_exact=True) == SECOND_OPINION
    assert classify_miss(5.0, flip("dead", survival=0.5), 30, second_opinion_exact=True) == RACE


ARROW_TYPES = {"str": pa.types.is_string, "Int64": pa.types.is_int64, "float64": pa.types.is_float64}


@pytest.mark.parametrize("result, misses", [("B+15", 1), ("B+7", 0)])
def test_explanation_columns_are_typed_with_or_without_misses(tmp_path, result, misses):
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "game.sgf").write_text(sgf_of(LIFE["dead_stone_left_on_the_board"].diagram, f"RU[Chinese]KM[0]RE[{result}]"))
    validate([folder], tmp_path / "run", jobs=1, life="estimate")
    table = pq.read_table(tmp_path / "run" / "validation.parquet")
    assert table.num_rows == misses
    for column, kind in EXPLANATION_TYPES.items():
        field_type = table.schema.field(column).type
        assert ARROW_TYPES[kind](field_type) or pa.types.is_large_string(field_type), column


def test_cli_prints_the_misses_by_class(slip, tmp_path, capsys):
    assert main(["validate", str(slip), "--out", str(tmp_path / "run"), "--jobs", "1",
                 "--life", "estimate"]) == 0
    printed = capsys.readouterr().out
    assert "ceiling" in printed and "misses by class:" in printed
    line = next(line for line in printed.splitlines() if line.startswith(DEAD_LEFT))
    assert line.split()[-2:] == ["1", "1"]  # all, rules=chinese


# The 2017 KGS records that `rulelab validate --life estimate` missed when this test was
# written (record slips among them, which stay misses whatever the estimator does), and
# the first counted games of the months besides.
MISSED_2017 = [
    "01-new/2017-01-04-35", "01-new/2017-01-15-17", "01-new/2017-01-21-19", "01-new/2017-01-22-34",
    "01-new/2017-01-26-3", "01-new/2017-01-31-2", "02-new/2017-02-13-1", "02-new/2017-02-15-11",
    "02-new/2017-02-18-10", "02-new/2017-02-18-44", "02-new/2017-02-20-1", "02-new/2017-02-25-13",
    "03-new/2017-03-02-34", "03-new/2017-03-06-10", "03-new/2017-03-09-1", "03-new/2017-03-13-22",
    "03-new/2017-03-13-3", "03-new/2017-03-21-10",
]
OTHER_COUNTED_2017 = 12


def kgs_2017_records(archive, folder):
    """The missed records and some other counted ones, copied out of the archive."""
    wanted = {f"kgs_dev/kgs-19-2017-{name}.sgf" for name in MISSED_2017}
    others = 0
    with tarfile.open(archive, "r|xz") as tar:
        for member in tar:
            if "kgs-19-2017-" not in member.name or not member.isfile():
                continue
            data = tar.extractfile(member).read()
            counted = re.search(rb"RE\[[BW]\+[0-9]", data) is not None
            if member.name in wanted or (counted and others < OTHER_COUNTED_2017):
                others += member.name not in wanted
                (folder / member.name.replace("/", "_")).write_bytes(data)


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.pool
def test_every_kgs_2017_miss_gets_a_class_and_a_consistent_fix(corpora, tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    kgs_2017_records(corpora / "kgs-dev.tar.xz", folder)
    assert len(list(folder.iterdir())) == len(MISSED_2017) + OTHER_COUNTED_2017
    summary = validate([folder], tmp_path / "run", jobs=2, life="estimate")
    misses = pd.read_parquet(tmp_path / "run" / "validation.parquet")
    assert len(misses) > 0
    assert misses.miss_class.isin(MISS_CLASSES).all()
    fixed = misses[misses.fix_kind.notna()]
    assert (fixed.fix_remaining.abs() < fixed.difference.abs()).all()
    assert fixed.fix_kind.isin(["alive", "dead"]).all() and fixed.fix_colour.isin(["B", "W"]).all()
    assert (fixed.fix_stones >= 1).all() and fixed.fix_point.str.fullmatch("[a-s]{2}").all()
    assert misses[misses.fix_kind.isna()][["fix_stones", "fix_survival"]].isna().all().all()
    assert summary.loc["all", "ceiling"] >= summary.loc["all", "exact"]
    # The same inputs give the same table: a second validation reuses the scores.
    validate([folder], tmp_path / "run", jobs=1, life="estimate")
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "run" / "validation.parquet"), misses)


def test_a_drawn_record_is_validated_at_margin_zero():
    """A draw ('0', 'Jigo') is a counted result: it takes part in validation at margin 0."""
    from rulelab.pipeline.validate import GAME_COLUMNS, SCORE_COLUMNS, compare
    games = pd.DataFrame([{**dict.fromkeys(GAME_COLUMNS), "game_id": game_id, "status": "ok",
                           "duplicate_of": None, "result_kind": kind, "result_winner": winner,
                           "result_margin": margin, "board_rows": 9, "board_cols": 9, "komi": 6.5,
                           "handicap": 0, "rules": "japanese"}
                          for game_id, kind, winner, margin in [("drawn", "draw", None, None),
                                                                ("won", "counted", "W", 0.5),
                                                                ("resigned", "resign", "B", None)]])
    scores = pd.DataFrame([{**dict.fromkeys(SCORE_COLUMNS, 0), "game_id": game_id, "komi_source": "record",
                            "margin": margin, "winner": winner, "scoring": "area", "finished": True}
                           for game_id, margin, winner in [("drawn", 0.0, "draw"), ("won", -0.5, "W"),
                                                           ("resigned", 3.0, "B")]])
    table = compare(games, scores).set_index("game_id")
    assert sorted(table.index) == ["drawn", "won"]
    assert table.loc["drawn", "recorded_margin"] == 0.0
    assert table.loc["drawn", "exact"] and table.loc["drawn", "winner_agrees"]


def test_a_record_whose_source_stops_early_is_kept_out_of_the_rates(tmp_path):
    """GC[Moves after 2 not in source] (M-66-2.mgt's note): the final board is not the one
    the result counted, so the miss is the record's, not the count's."""
    from rulelab.pipeline.validate import TRUNCATED, VALIDATION_FILE
    folder = tmp_path / "games"
    folder.mkdir()
    board = "SZ[5]KM[0.5]RU[Japanese]AB[ba][bb][bc][bd][be]AW[da][db][dc][dd][de];B[];W[])"
    (folder / "truncated.mgt").write_text("(;GM[1]FF[4]GC[Moves after 2 not in source]RE[W+3.5]" + board)
    (folder / "whole.sgf").write_text("(;GM[1]FF[4]RE[W+3.5]" + board)
    validate([folder], tmp_path / "run", jobs=1)
    games = pd.read_parquet(tmp_path / "run" / "games.parquet").set_index("source_path")
    assert sorted(games.moves_missing_after.fillna(-1).tolist()) == [-1, 2]
    misses = pd.read_parquet(tmp_path / "run" / VALIDATION_FILE)
    truncated = misses.loc[misses.source_path.str.endswith("truncated.mgt")].iloc[0]
    assert not truncated.countable and truncated.likely_cause == TRUNCATED


def test_a_result_no_territory_count_can_give_is_kept_out_of_the_rates():
    """A draw at komi 5.5 under territory counting: a record problem, not a miss of the count."""
    from rulelab.pipeline.validate import (GAME_COLUMNS, IMPOSSIBLE_RESULT, SCORE_COLUMNS, agreement,
                                           compare)
    games = pd.DataFrame([{**dict.fromkeys(GAME_COLUMNS), "game_id": game_id, "status": "ok",
                           "duplicate_of": None, "result_kind": kind, "result_winner": winner,
                           "result_margin": margin, "board_rows": 19, "board_cols": 19, "komi": 5.5,
                           "handicap": 0, "rules": "japanese"}
                          for game_id, kind, winner, margin in [("drawn", "draw", None, None),
                                                                ("won", "counted", "B", 0.5)]])
    scores = pd.DataFrame([{**dict.fromkeys(SCORE_COLUMNS, 0), "game_id": game_id, "komi_source": "record",
                            "margin": 0.5, "winner": "B", "scoring": "territory", "finished": True,
                            "life_method": "estimate"} for game_id in ("drawn", "won")])
    table = compare(games, scores).set_index("game_id")
    assert table.countable.to_dict() == {"drawn": False, "won": True}
    assert table.loc["drawn", "likely_cause"] == IMPOSSIBLE_RESULT
    summary = agreement(table.reset_index().assign(miss_class=None), by=("rules",))
    assert summary.loc["all", ["games", "exact", "uncounted"]].tolist() == [1, 1.0, 1]
