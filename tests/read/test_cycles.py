"""Whole-board repetitions: the replay finds the cycle, the scores give its meaning per ruleset."""

import pytest

from positions import named_positions
from rulelab.pipeline.ingest import read_games
from rulelab.pipeline.run import score
from rulelab.pipeline.score import read_scores
from rulelab.read.replay import replay
from rulelab.read.sgf.events import game_events
from rulelab.read.sgf.parse import parse_game

REPETITION = named_positions("repetition")
TRIPLE_KO = REPETITION["triple_ko"].record()


def replayed(record):
    size = int(record.split("SZ[")[1].split("]")[0])
    return replay(size, size, game_events(parse_game(record)))


@pytest.mark.parametrize("name", list(REPETITION))
def test_each_named_cycle_is_found_with_its_kind(name):
    named = REPETITION[name]
    result = replayed(named.record())
    assert result.cycle_kind == named.settings["cycle"] and result.cycle[0] == 0
    assert result.illegal == [] and result.ended_in_cycle


@pytest.mark.parametrize("after", [";B[ee];W[cb]", ";B[];W[]"])  # White connects at c2; both pass
def test_a_cycle_broken_or_passed_to_a_count_is_not_where_the_record_ends(after):
    result = replayed(TRIPLE_KO[:-1] + after + ")")
    assert result.cycle == (0, 6) and not result.ended_in_cycle


def test_two_kos_taken_in_turn_with_a_move_left_out_are_no_cycle():
    # dev-mixed, a Fox record: Black takes one ko, White the other and then retakes the
    # first, Black retakes the second: four takes, the same board, one White move too many
    record = TRIPLE_KO.split(";B[cb]")[0] + ";B[cb];W[hb];W[bb];B[gb])"
    result = replayed(record)
    assert result.illegal == [] and result.cycle is None


def test_a_suicide_played_anyway_is_no_cycle():
    # dev-mixed had 1-move "cycles": a lone stone played into no liberty and removed
    result = replayed("(;GM[1]FF[4]SZ[9]AB[ba][ab];W[aa];B[ee])")
    assert result.illegal == [(1, "suicide")] and result.cycle is None


def test_a_ko_retaken_after_a_pass_is_no_cycle():
    result = replayed("(;GM[1]FF[4]SZ[9]AB[ba][ab][bc]AW[ca][bb][db][cc];B[cb];W[];B[];W[bb])")
    assert result.cycle is None and result.illegal == []


def test_superko_forbids_the_move_that_closes_the_cycle():
    result = replay(9, 9, game_events(parse_game(TRIPLE_KO)), ko="positional")
    assert (6, "superko") in result.illegal and result.cycle == (0, 6)


@pytest.mark.parametrize("name", list(REPETITION))
def test_each_ruleset_gives_the_cycle_the_texts_meaning(tmp_path, name):
    named = REPETITION[name]
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "cycle.sgf").write_text(named.record())
    score([folder], tmp_path / "run", jobs=1)
    assert read_games(tmp_path / "run").cycle.tolist() == [named.settings["cycle"]]
    scores = read_scores(tmp_path / "run").query("komi_source == 'standard'").set_index("ruleset")
    assert scores.repetition.to_dict() == named.pairs("repetition")
    decided = named.pairs("winner")
    assert {name: scores.winner[name] for name in decided} == decided
    assert set(scores.winner.drop(list(decided))) <= {"B", "W"}  # the others count the board


def test_a_broken_cycle_keeps_the_counted_winner(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "cycle.sgf").write_text(TRIPLE_KO[:-1] + ";B[ee];W[cb];B[];W[])")
    score([folder], tmp_path / "run", jobs=1, rules=["chinese", "japanese"])
    scores = read_scores(tmp_path / "run").query("komi_source == 'standard'").set_index("ruleset")
    assert scores.repetition.to_dict() == {"chinese": "forbidden", "japanese": "no_result"}
    assert set(scores.winner) <= {"B", "W"}
