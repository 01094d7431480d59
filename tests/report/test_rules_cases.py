"""The report's section on status cases and whole-board cycles, from records scored end to end."""

import pandas as pd

from positions import named_positions
from rulelab.pipeline.run import score
from rulelab.pipeline.score import read_scores
from rulelab.report.build import write_section
from rulelab.store.life import read_life

from read.test_cycles import TRIPLE_KO


def setup_record(diagram: str) -> str:
    """A 9x9 record that sets up ``diagram`` and ends by two passes."""
    rows = [line.split() for line in diagram.upper().splitlines() if line.strip()]
    stones = {"X": [], "O": []}
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if cell in stones:
                stones[cell].append(f"[{chr(97 + c)}{chr(97 + r)}]")
    return (f"(;GM[1]FF[4]SZ[9]RU[Japanese]KM[6.5]AB{''.join(stones['X'])}AW{''.join(stones['O'])}"
            ";B[];W[])")


def test_the_section_counts_and_draws_each_case(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    diagram = named_positions("status")["bent_four_with_two_open_kos"].diagram
    (folder / "bent_four.sgf").write_text(setup_record(diagram))
    (folder / "triple_ko.sgf").write_text(TRIPLE_KO)
    score([folder], tmp_path / "run", jobs=1)
    life = read_life(tmp_path / "run")
    (cases,) = [c for c in life.status_cases if len(c)]
    assert [case["kind"] for case in cases] == ["bent_four_in_the_corner"]
    assert list(cases[0]["dead_under"]) == ["japanese", "korean"]
    scores = read_scores(tmp_path / "run")
    moved = scores[scores.status.notna()]
    assert set(moved.ruleset) == {"chinese", "chinese-1988", "ing", "aga", "nz", "tromp-taylor",
                                  "stone-scoring"}
    write_section("rules_cases", tmp_path / "run", tmp_path / "report")
    status = pd.read_csv(tmp_path / "report" / "status_cases.csv")
    assert status.set_index("kind").games.to_dict() == {"bent_four_in_the_corner": 1}
    cycles = pd.read_csv(tmp_path / "report" / "cycles.csv").set_index("cycle")
    assert cycles.games.to_dict() == {"triple_ko": 1} and cycles.loc["triple_ko", "japanese"] == "no_result"
    assert cycles.stopped_in_it.to_dict() == {"triple_ko": 1}
    assert (tmp_path / "report" / "rules_case_bent_four_in_the_corner.png").is_file()
    assert (tmp_path / "report" / "rules_case_triple_ko.png").is_file()


def test_the_players_marks_stand_and_the_case_only_flags_the_group(tmp_path):
    # the corner bent four, which every preset's rules call dead, but marked by the players
    # as they agreed it: no stone dead (their TB marks one point of Black's, none in the corner)
    folder = tmp_path / "games"
    folder.mkdir()
    diagram = named_positions("status")["bent_four_in_the_corner"].diagram
    (folder / "marked.sgf").write_text(setup_record(diagram).replace(";W[])", ";W[]TB[fa])"))
    score([folder], tmp_path / "run", jobs=1)
    (marked,) = pd.read_parquet(tmp_path / "run" / "games.parquet").game_id
    life = read_life(tmp_path / "run").set_index("game_id")
    assert life.loc[marked, "life_method"] == "markup" and len(life.loc[marked, "status_dead"]) == 0
    (case,) = life.loc[marked, "status_cases"]  # the case is kept, as the rules read it
    assert case["kind"] == "bent_four_in_the_corner" and "japanese" in list(case["dead_under"])
    scores = read_scores(tmp_path / "run")
    assert scores.status.isna().all() and (scores.status_effect == 0).all()  # the rules' reading moved 30+
    write_section("rules_cases", tmp_path / "run", tmp_path / "report")
    status = pd.read_csv(tmp_path / "report" / "status_cases.csv").set_index("kind")
    assert status.loc["bent_four_in_the_corner", ["games", "marks_kept"]].tolist() == [1, 1]
    text = (tmp_path / "report" / "rules_cases.md").read_text()
    assert "On 1 of the 1 the dead stones are the players' own marks" in text
    assert "the players' marks kept, as every ruleset counts it" in text
