"""Whole-board repetitions: the replay finds the cycle, the scores give its meaning per ruleset."""

import pytest

from rulelab.pipeline.ingest import read_games
from rulelab.pipeline.run import score
from rulelab.pipeline.score import read_scores
from rulelab.read.cycles import OUTCOMES
from rulelab.read.replay import replay
from rulelab.read.sgf.events import game_events
from rulelab.read.sgf.parse import parse_game
from rulelab.rules import PRESETS

# Three kos on a 9x9 board: Black takes at c2 (under White's b2), White at h2 (under
# Black's g2), Black at c6 (under White's b6); then each is retaken in turn, and move 6
# leaves the stones set up: a triple ko. The players go round twice and stop, as the
# records KGS voids do.
ROUND = ";B[cb];W[hb];B[cf];W[bb];B[gb];W[bf]"
TRIPLE_KO = ("(;GM[1]FF[4]SZ[9]RU[Japanese]KM[6.5]"
             "AB[ba][ab][bc][ha][gb][ib][hc][be][af][bg]"
             f"AW[ca][bb][db][cc][ga][fb][gc][ce][bf][df][cg]{ROUND}{ROUND})")

# On the top edge of a 7x7 board White's two stones b1-c1 have one liberty, d1. Black
# takes them there (2 stones, no ko), White plays back at b1, Black at e1 leaves his two
# stones one liberty, c1, where White takes them: four moves, no ko, the same board, as
# in eternal life (长生劫).
ETERNAL_LIFE = ("(;GM[1]FF[4]SZ[7]RU[Chinese]KM[7.5]"
                "AB[aa][ab][bb][cb]AW[ba][ca][db][eb][fb][fa]"
                ";B[da];W[ba];B[ea];W[ca];B[da];W[ba])")

# kgs-dev 2002-02-16-8's lower right corner on a 5x5 board: Black gives two stones at c1,
# White takes them at e1, Black takes White's stone back at d1 (not a ko: two
# liberties): three moves, the same stones, the other side to move (sending two,
# returning one).
SEND_TWO_RETURN_ONE = ("(;GM[1]FF[4]SZ[5]RU[Japanese]KM[6.5]"
                       "AB[ac][bc][ec][ad][ed][ae][de]AW[cc][bd][cd][dd][be]"
                       ";B[ce];W[ee];B[de])")


def replayed(record):
    size = int(record.split("SZ[")[1].split("]")[0])
    return replay(size, size, game_events(parse_game(record)))


def test_a_triple_ko_is_found_with_its_moves():
    result = replayed(TRIPLE_KO)
    assert (result.cycle, result.cycle_kind) == ((0, 6), "triple_ko")
    assert result.illegal == [] and result.ended_in_cycle


@pytest.mark.parametrize("after", [";B[ee];W[cb]", ";B[];W[]"])  # White connects at c2; both pass
def test_a_cycle_broken_or_passed_to_a_count_is_not_where_the_record_ends(after):
    result = replayed(TRIPLE_KO[:-1] + after + ")")
    assert result.cycle == (0, 6) and not result.ended_in_cycle


def test_a_cycle_without_a_ko_is_eternal_life():
    result = replayed(ETERNAL_LIFE)
    assert (result.cycle, result.cycle_kind) == ((0, 4), "eternal_life")


def test_giving_two_and_taking_one_back_is_a_round_robin():
    result = replayed(SEND_TWO_RETURN_ONE)
    assert (result.cycle, result.cycle_kind) == ((0, 3), "round_robin")


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


@pytest.mark.parametrize("record, kind", [(TRIPLE_KO, "triple_ko"), (ETERNAL_LIFE, "eternal_life")])
def test_each_ruleset_gives_the_cycle_its_meaning(tmp_path, record, kind):
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "cycle.sgf").write_text(record)
    score([folder], tmp_path / "run", jobs=1)
    games = read_games(tmp_path / "run")
    assert games.cycle.tolist() == [kind]
    scores = read_scores(tmp_path / "run").query("komi_source == 'standard'").set_index("ruleset")
    assert scores.repetition.to_dict() == {name: OUTCOMES[name] for name in PRESETS}
    assert scores.winner["chinese"] == "draw" and scores.winner["japanese"] == "void"
    assert scores.winner["korean"] == "void" and scores.winner["ing"] in ("B", "W")


def test_a_broken_cycle_keeps_the_counted_winner(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "cycle.sgf").write_text(TRIPLE_KO[:-1] + ";B[ee];W[cb];B[];W[])")
    score([folder], tmp_path / "run", jobs=1, rules=["chinese", "japanese"])
    scores = read_scores(tmp_path / "run").query("komi_source == 'standard'").set_index("ruleset")
    assert scores.repetition.to_dict() == {"chinese": "draw", "japanese": "no_result"}
    assert set(scores.winner) <= {"B", "W"}
