"""One game drawn with its verdict and scores, from a run folder or from the games table."""

import matplotlib
import pytest

import rulelab
from rulelab.errors import InputError

matplotlib.use("Agg")

# A Black wall on column b, a White wall on column d, the dame of column c between them,
# and a White stone on a1 inside Black's area that the players marked dead (TB).
GAME = ("(;GM[1]FF[4]SZ[5]RU[Chinese]KM[7.5]RE[W+3.5]AB[ba][bb][bc][bd][be]"
        "AW[da][db][dc][dd][de][ae];B[];W[]TB[aa][ab][ac][ad][ae]TW[ea][eb][ec][ed][ee])")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    (folder / "g.sgf").write_text(GAME)
    out = tmp_path_factory.mktemp("run")
    rulelab.score([folder], out, jobs=1, life="markup", rules=["chinese", "japanese"])
    return out


def legend(figure) -> list[str]:
    return [text.get_text() for text in figure.axes[0].get_legend().get_texts()]


def test_draw_game_shows_the_verdict_and_both_scores(run):
    games = rulelab.read_games(run)
    scores = rulelab.read_scores(run).query("komi_source == 'standard'").set_index("ruleset")
    figure = rulelab.draw_game(run, games.game_id.item())
    title = figure.axes[0].get_title()
    for ruleset in ("chinese", "japanese"):
        row = scores.loc[ruleset]
        assert f"{ruleset} {row.winner}+{abs(row.margin):g}" in title
    assert "[life: markup]" in title
    assert "dead stones (1)" in legend(figure)
    assert "dame and owed points (5)" in legend(figure)  # column c, between the walls


def test_the_games_table_draws_its_own_game_and_a_scores_table_says_what_to_call(run):
    import rulelab.analysis  # noqa: F401 (registers df.go)

    games = rulelab.read_games(run)
    figure = games.go.draw(games.game_id.item(), rulesets=("ing",), life="markup")
    assert "ing " in figure.axes[0].get_title() and "dead stones (1)" in legend(figure)
    with pytest.raises(InputError, match=r"games.go.draw\(game_id\)"):
        rulelab.read_scores(run).go.draw(games.game_id.item())
    with pytest.raises(InputError, match="No game 'nope'"):
        rulelab.draw_game(run, "nope")
