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
    assert "[life: markup]" in title and "(each at its standard komi, 7.5, 6.5)" in title
    assert "dead stones (1)" in legend(figure)
    assert "dame and owed points (5)" in legend(figure)  # column c, between the walls


def test_draw_game_at_the_common_komi_says_so_and_counts_there(run):
    games = rulelab.read_games(run)
    scores = rulelab.read_scores(run).query("komi_source == 'standard'").set_index("ruleset")
    title = rulelab.draw_game(run, games.game_id.item(), komi_basis="common").axes[0].get_title()
    margin = scores.loc["japanese", "margin_before_komi"] - 7.5
    assert f"japanese {'B' if margin > 0 else 'W'}+{abs(margin):g}" in title and "(all at komi 7.5)" in title
    with pytest.raises(InputError, match="komi basis must be one of"):
        rulelab.draw_game(run, games.game_id.item(), komi_basis="mine")


@pytest.mark.parametrize("installed", [True, False])
def test_names_in_cjk_characters_are_drawn_never_as_boxes(monkeypatch, tmp_path, installed):
    import warnings

    import numpy as np

    from rulelab.analysis import fonts
    from rulelab.analysis.diagrams import draw_board
    from rulelab.analysis.plots import save_figure

    cjk_font = fonts.cjk_font() if installed else None
    if installed and cjk_font is None:
        pytest.skip("no font with CJK glyphs installed (apt-get install fonts-wqy-zenhei)")
    monkeypatch.setattr(fonts, "cjk_font", lambda: cjk_font)
    figure = draw_board(np.zeros((5, 5), dtype=np.int8), title="李昌鎬 (B) vs 趙治勲 (W)")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib warns of each glyph it draws as a box
        save_figure(figure, tmp_path / "board.png")
    title = figure.axes[0].get_title()
    assert title == ("李昌鎬 (B) vs 趙治勲 (W)" if cjk_font else "Li Chang Hao (B) vs Zhao Zhi Xun (W)")


def test_the_games_table_draws_its_own_game_and_a_scores_table_says_what_to_call(run):
    import rulelab.analysis  # noqa: F401 (registers df.go)

    games = rulelab.read_games(run)
    life, scores = rulelab.read_life(run), rulelab.read_scores(run)
    figure = games.go.draw(games.game_id.item(), life, scores, rulesets=("japanese",))
    assert "japanese W+" in figure.axes[0].get_title() and "dead stones (1)" in legend(figure)
    with pytest.raises(InputError, match=r"no score under ing \(scored: chinese, japanese\)"):
        games.go.draw(games.game_id.item(), life, scores, rulesets=("ing",))
    with pytest.raises(InputError, match=r"games.go.draw\(game_id, life, scores\)"):
        scores.go.draw(games.game_id.item(), life, scores)
    with pytest.raises(InputError, match=r"rulelab.read_life\(run\)"):
        games.go.draw(games.game_id.item(), "markup", scores)
    with pytest.raises(InputError, match="No game 'nope'"):
        rulelab.draw_game(run, "nope")


def test_a_run_scored_before_verdicts_were_stored_says_to_score_again(run, tmp_path):
    import shutil

    old = tmp_path / "old"
    shutil.copytree(run, old)
    (old / "life.parquet").unlink()
    game_id = rulelab.read_games(old).game_id.item()
    with pytest.raises(InputError, match="no stored verdict"):
        rulelab.draw_game(old, game_id)


def test_drawing_a_game_decides_no_life_and_counts_nothing():
    """The drawing reads the stored verdict and scores: neither the life package nor the
    scorer is imported."""
    import subprocess
    import sys

    command = ("import sys, rulelab.analysis.game_diagram; "
               "print(sorted(m for m in sys.modules if m.startswith(('rulelab.life', 'rulelab.scoring'))))")
    shown = subprocess.run([sys.executable, "-c", command], capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "[]"
