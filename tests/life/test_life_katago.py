"""KataGo as a life-and-death backend: its install, the ownership rule, and the real engine."""

import json
import os

import numpy as np
import pandas as pd
import pytest

from rulelab.cli import main
from rulelab.life import KataGoUnavailable, decide_life, decide_lives
from rulelab.life import katago as katago_module
from tools import katago_setup
from rulelab.life.katago import KOMI, dead_chains, find_katago, query
from rulelab.pipeline.run import score
from rulelab.pipeline.score import score_game
from rulelab.position import BLACK, WHITE, Position
from rulelab.rules import get_ruleset
from rulelab.store.tables import read_provenance

from positions import named_positions


def _katago_missing() -> str | None:
    try:
        find_katago()
    except KataGoUnavailable as exc:
        return f"KataGo is not installed ('make katago' could not install it here): {exc}"
    return None


needs_katago = pytest.mark.skipif(_katago_missing() is not None, reason=str(_katago_missing()))

LIFE = named_positions("life")
"""The named positions of ``data/positions/life.txt``."""


def test_a_chain_is_dead_by_its_mean_or_its_worst_point_and_always_whole():
    board = np.array([[1, 1, 0, 2, 2, 2]], dtype=np.int8)
    ownership = np.array([[0.3, 0.1, 0.0, -0.9, -0.9, 0.7]])  # Black mean 0.2; White worst -0.7
    assert dead_chains(board, ownership).tolist() == [[False, False, False, True, True, True]]
    assert dead_chains(board, np.array([[0.3, 0.05, 0.0, -0.5, -0.5, -0.1]])).tolist() == [
        [True, True, False, False, False, False]]  # Black mean 0.175 < 0.2; White mean 0.37


def test_the_query_names_every_stone_once_from_the_bottom_left():
    position = Position.from_diagram("X .\n. O", to_move=WHITE)
    asked = query(position, "7")
    assert asked["initialStones"] == [["B", "A2"], ["W", "B1"]]
    assert (asked["boardXSize"], asked["boardYSize"], asked["initialPlayer"]) == (2, 2, "W")
    assert asked["includeOwnership"] and asked["maxVisits"] == 1 and asked["komi"] == KOMI


@pytest.mark.parametrize("rows, cols", [(21, 21), (37, 37), (1, 7), (7, 1)])
def test_boards_katago_cannot_read_are_refused(rows, cols):
    with pytest.raises(katago_module.KataGoError, match=f"2 to 19 points a side; got {rows}x{cols}"):
        query(Position.from_diagram("\n".join([". " * cols] * rows)), "1")


def test_missing_files_raise_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("RULELAB_KATAGO", str(tmp_path / "nowhere"))
    with pytest.raises(KataGoUnavailable, match="make katago.*--katago or \\$RULELAB_KATAGO") as info:
        decide_life(Position.from_diagram("X ."), "katago")
    assert info.value.status == "katago_unavailable"


def test_a_scoring_run_without_katago_stops_before_any_game(tmp_path, monkeypatch):
    monkeypatch.setenv("RULELAB_KATAGO", str(tmp_path / "nowhere"))
    (tmp_path / "game.sgf").write_text("(;GM[1]SZ[9]RE[B+1.5];B[];W[])")
    with pytest.raises(KataGoUnavailable):
        score([tmp_path / "game.sgf"], tmp_path / "run", life="katago", jobs=1)
    assert not (tmp_path / "run" / "scores.parquet").exists()


def test_the_config_loads_the_tuning_file_and_reports_for_black(tmp_path):
    config = katago_setup.analysis_config(tmp_path / "tune.txt", threads=2)
    assert f"openclTunerFile = {tmp_path / 'tune.txt'}" in config.splitlines()
    for line in ("openclUseFP16 = false", "reportAnalysisWinratesAs = BLACK", "maxVisits = 1",
                 "nnRandomize = false"):
        assert line in config.splitlines()


def test_install_without_a_tuning_file_says_where_to_put_one(tmp_path, monkeypatch):
    monkeypatch.setattr(katago_setup, "find_tuner", lambda: None)
    with pytest.raises(katago_setup.SetupError, match="tuning file.*RULELAB_KATAGO_TUNER"):
        katago_setup.install(tmp_path)
    assert katago_setup.main(["--home", str(tmp_path), "--optional"]) == 0
    assert katago_setup.main(["--home", str(tmp_path)]) == 1


def test_a_long_install_step_says_it_is_still_under_way(monkeypatch, capsys):
    import sys

    monkeypatch.setattr(katago_setup, "HEARTBEAT", 0.1)
    katago_setup._run([sys.executable, "-c", "import time; time.sleep(0.35)"], "waiting")
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "katago: waiting ..." and "katago: still waiting (0 s)" in lines[1:]
    with pytest.raises(katago_setup.SetupError, match="failing failed .*: boom"):
        katago_setup._run([sys.executable, "-c", "import sys; sys.exit('boom')"], "failing")


@needs_katago
def test_install_is_idempotent():
    paths = katago_setup.installed_paths(katago_setup.DEFAULT_HOME)
    before = [os.stat(p).st_mtime_ns for p in paths]
    assert katago_setup.install() == paths
    assert [os.stat(p).st_mtime_ns for p in paths] == before


@needs_katago
def test_katago_finds_the_dead_stones_and_batches_positions():
    position = Position.from_diagram(LIFE["two_dead_stones"].diagram, passes_black=1, passes_white=1)
    single = decide_life(position, "katago")
    assert single.method == "katago"
    assert np.argwhere(single.dead).tolist() == [[4, 2], [4, 6]]
    mirrored = Position.from_diagram(LIFE["two_dead_stones"].diagram[::-1], to_move=WHITE)
    batch = decide_lives([position, mirrored], "katago")
    assert [v.dead.sum() for v in batch] == [2, 2]
    np.testing.assert_array_equal(batch[1].dead, single.dead[::-1, ::-1])
    rows = score_game(position, [get_ruleset("japanese").with_komi(0)], life="katago")
    assert rows[0]["margin"] == -9  # Black 27 points + 1 prisoner, White 36 + 1


@needs_katago
def test_cli_validate_with_katago_files_named_on_the_command_line(tmp_path, capsys, monkeypatch):
    for variable in katago_module.ENVIRONMENT.values():
        monkeypatch.setenv(variable, "")  # unset for the search, restored after the test
    binary, model, config = find_katago()
    stones = Position.from_diagram(LIFE["two_dead_stones"].diagram).board
    setup = "".join(f"A{'BW'[v - 1]}" + "".join(f"[{chr(97 + c)}{chr(97 + r)}]"
                                               for r, c in np.argwhere(stones == v))
                    for v in (BLACK, WHITE))
    folder = tmp_path / "games"
    folder.mkdir()
    # Japanese: Black 27 points + 1 prisoner, White 36 + 1, komi 0.5.
    (folder / "game.sgf").write_text(f"(;GM[1]FF[4]SZ[9]RU[Japanese]KM[0.5]RE[W+9.5]{setup};B[];W[])")
    assert main(["validate", str(folder), "--out", str(tmp_path / "run"), "--jobs", "1",
                 "--life", "katago", "--katago", binary, "--katago-model", model,
                 "--katago-config", config, "--second-opinion", "katago"]) == 0
    assert os.environ["RULELAB_KATAGO"] == ""  # the files travel with the method, not through the environment
    scores = pd.read_parquet(tmp_path / "run" / "scores.parquet")
    record = scores.loc[scores.komi_source == "record"].iloc[0]
    assert set(scores.life_method) == {"katago"}
    assert (record.dead_black, record.dead_white, record.margin) == (1, 1, -9.5)
    assert read_provenance(tmp_path / "run" / "scores.parquet")["options"]["katago"] == [
        os.path.abspath(binary), os.path.abspath(model), os.path.abspath(config)]
    summary = json.loads((tmp_path / "run" / "validation.json").read_text())["agreement"][0]
    assert (summary["exact"], summary["second_exact"], summary["either_within_1"]) == (1.0, 1.0, 1.0)
    assert "second_within_1" in capsys.readouterr().out
