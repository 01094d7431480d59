"""The report step on awkward collections, made here as SGF records and scored for real:
failed games, one game, only handicap games, nothing counted, nothing readable. Each
gives a whole report with one line for every section that does not apply; a build that
fails leaves the previous report exactly as it was; reruns are byte-identical."""

import json
import re

import numpy as np
import pandas as pd
import pytest

from rulelab.analysis import plots
from rulelab.analysis.stats import wilson_interval
from rulelab.errors import InputError
from rulelab.pipeline.run import score
from rulelab.report import build as report
from rulelab.report.build import build_report
from rulelab.report.sections import SECTIONS

FAST = dict(n_boot=20, examples_per_cause=1)


def walls(split: int, result: str, *, komi: float = 7.5, rules: str = "Chinese", handicap: int = 0,
          ended: bool = True) -> str:
    """A 9×9 record: a Black wall on column ``split``, a White wall beside it, each side
    owning the columns behind its wall (Black's area is ``9 * (split + 1)`` points)."""
    black = "".join(f"[{chr(97 + split)}{chr(97 + r)}]" for r in range(9))
    white = "".join(f"[{chr(98 + split)}{chr(97 + r)}]" for r in range(9))
    extra = f"HA[{handicap}]" if handicap else ""
    black += "".join(f"[{p}]" for p in ("aa", "ac")[:handicap])
    moves = ";B[];W[]" if ended else ""
    return f"(;GM[1]FF[4]SZ[9]RU[{rules}]KM[{komi}]{extra}RE[{result}]AB{black}AW{white}{moves})"


# Area margins before komi: split 4 → 45 − 36 = +9, split 3 → −9, split 5 → +27.
GOOD = {"b.sgf": walls(4, "B+1.5"), "w.sgf": walls(3, "W+16.5"), "j.sgf": walls(5, "B+20.5", komi=6.5,
                                                                                 rules="Japanese")}
COLLECTIONS = {
    "damaged": {**GOOD, "cut.sgf": GOOD["b.sgf"][:40], "handicap.sgf": walls(4, "B+7", komi=0.5, handicap=2)},
    "one game": {"b.sgf": GOOD["b.sgf"]},
    "three games": GOOD,
    "only handicap": {"h2.sgf": walls(4, "B+7", komi=0.5, handicap=2),
                      "h1.sgf": walls(3, "W+11", komi=0.5, handicap=2)},
    "nothing counted": {"r1.sgf": walls(4, "B+R", ended=False), "r2.sgf": walls(3, "W+R", ended=False)},
    "nothing readable": {"cut.sgf": GOOD["b.sgf"][:40], "junk.sgf": "not a game record"},
}


def built(tmp_path, files: dict[str, str]):
    folder = tmp_path / "records"
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text)
    score([folder], tmp_path / "run", jobs=1)
    return build_report(tmp_path / "run", tmp_path / "report", **FAST).parent


@pytest.mark.slow
@pytest.mark.parametrize("name", COLLECTIONS)
def test_every_collection_gives_a_whole_report(tmp_path, name):
    folder = built(tmp_path, COLLECTIONS[name])
    markdown = (folder / "report.md").read_text()
    html = (folder / "index.html").read_text()
    assert "## Findings" in markdown.splitlines()[:30]
    assert any('<h2>Findings</h2>' in line for line in html.splitlines()[:30])
    assert markdown.rstrip().splitlines()[-1] and "## Appendix: inputs and provenance" in markdown
    assert all(f'id="{key}"' in html for key in SECTIONS)
    # no table without rows: a separator line is always followed by a row
    assert not re.search(r"^\| ---.*\|\n(?!\|)", markdown, flags=re.M)
    for block in markdown.split("\n## ")[1:]:  # every section says something
        assert len(block.strip().splitlines()) > 1, block


def test_a_rate_of_zero_in_three_games_draws_its_interval():
    """Wilson's lower bound at 0 of 3 lies 5.6e-17 above the rate: no negative error bar."""
    low, high = wilson_interval([0, 3], [3, 3])
    assert low[0] > 0  # the rounding the plot must absorb
    curve = pd.DataFrame({"ruleset": "chinese", "komi": [6.5, 7.5], "games": 3, "rate": [0.0, 1.0],
                          "wilson_low": low, "wilson_high": high, "boot_low": np.nan, "boot_high": np.nan})
    plots.plot_komi_curves(curve, title="three games")


@pytest.mark.slow
def test_sections_that_do_not_apply_say_why(tmp_path):
    nothing = (built(tmp_path / "a", COLLECTIONS["nothing readable"]) / "report.md").read_text()
    assert "Not shown: no game is both settled and scored under two rulesets." in nothing
    assert "On the settled even games: none in this collection" in nothing
    resigned = (built(tmp_path / "b", COLLECTIONS["nothing counted"]) / "report.md").read_text()
    assert "Not shown: no counted even 9x9 game." in resigned


@pytest.mark.slow
def test_a_failed_build_leaves_the_previous_report_exactly(tmp_path, monkeypatch):
    folder = built(tmp_path, COLLECTIONS["damaged"])
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    again = build_report(tmp_path / "run", tmp_path / "again", **FAST).parent
    assert {p.name: p.read_bytes() for p in again.iterdir()} == before  # reruns are byte-identical

    def interrupted(analysis, out):
        (out.path / "half.csv").write_text("a half-written table")
        raise KeyboardInterrupt

    monkeypatch.setitem(SECTIONS, "published", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build_report(tmp_path / "run", folder, **FAST)
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["again", "records", "report", "run"]


def test_a_swap_cut_between_its_renames_is_undone_by_the_next_build(tmp_path):
    out = tmp_path / "report"
    previous = tmp_path / ".report.previous"
    previous.mkdir()
    (previous / "report.md").write_text("the old report")
    report._mark(previous, ["report.md"])
    assert report._report_folder(tmp_path / "run", out) == out.resolve()
    assert (out / "report.md").read_text() == "the old report" and not previous.exists()


def tree(folder) -> dict[str, bytes | None]:
    return {str(p.relative_to(folder)): p.read_bytes() if p.is_file() else None for p in folder.rglob("*")}


def made(folder, files: dict[str, str]):
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


@pytest.mark.parametrize("run, out, message", [
    ("proj/run", "proj", "holds the run folder"),  # a report.md beside the run, and notes
    ("run", "site", "did not write (index.html, photos, thesis.tex)"),  # a web site with an index.html
    ("run", "notes", "did not write (thesis.tex)"),
    ("run", "old", "did not write (report.md)"),  # a report without the marker rulelab writes
    ("run", "file.md", "did not write (file.md)"),
])
def test_a_folder_holding_what_rulelab_did_not_write_is_refused_and_left_alone(tmp_path, run, out, message):
    made(tmp_path, {"proj/run/manifest.json": "{}", "proj/report.md": "mine", "proj/notes.txt": "mine",
                    "site/index.html": "mine", "site/thesis.tex": "mine", "site/photos/a.jpg": "mine",
                    "notes/thesis.tex": "mine", "old/report.md": "mine", "file.md": "mine"})
    before = tree(tmp_path)
    with pytest.raises(InputError, match=re.escape(message)):
        report._report_folder(tmp_path / run, tmp_path / out)
    assert tree(tmp_path) == before


def test_a_report_is_rebuilt_in_place_until_someone_adds_a_file(tmp_path):
    out = tmp_path / "report"
    with report._staged(out) as staging:
        (staging / "report.md").write_text("first")
    assert report._report_folder(tmp_path / "run", out) == out
    with report._staged(out) as staging:
        (staging / "report.md").write_text("second")
    assert sorted(p.name for p in out.iterdir()) == [".rulelab-report", "report.md"]
    assert (out / "report.md").read_text() == "second" and sorted(tmp_path.iterdir()) == [out]
    (out / "notes.txt").write_text("mine")
    with pytest.raises(InputError, match=re.escape("did not write (notes.txt)")):
        report._report_folder(tmp_path / "run", out)


def test_a_folder_in_the_way_of_the_swap_is_never_removed(tmp_path):
    made(tmp_path, {".report.building/mine.txt": "mine"})
    with pytest.raises(InputError, match="not written by rulelab"):
        report._report_folder(tmp_path / "run", tmp_path / "report")
    assert (tmp_path / ".report.building" / "mine.txt").read_text() == "mine"
    made(tmp_path, {".report.building/.rulelab-report": '{"files": []}'})  # a marker planted beside it
    with pytest.raises(InputError, match="not written by rulelab"):
        report._report_folder(tmp_path / "run", tmp_path / "report")
    assert (tmp_path / ".report.building" / "mine.txt").read_text() == "mine"


def test_a_build_killed_midway_is_cleared_by_the_next(tmp_path):
    killed = tmp_path / ".report.building"  # as a kill -9 leaves it: its marker names the folder
    made(tmp_path, {".report.building/figure.png": "half"})
    (killed / ".rulelab-report").write_text(json.dumps({"building": report._identity(killed)}))
    with report._staged(report._report_folder(tmp_path / "run", tmp_path / "report")) as staging:
        (staging / "report.md").write_text("new")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report"]


def test_one_build_at_a_time_and_files_saved_meanwhile_stop_the_swap(tmp_path):
    out = tmp_path / "report"
    with report._staged(out) as staging:
        (staging / "report.md").write_text("first")
        with pytest.raises(InputError, match="Another rulelab report is being built"):
            with report._staged(out):
                pass
    with pytest.raises(InputError, match=re.escape("Files were saved into") + ".*notes.txt"):
        with report._staged(out) as staging:
            (staging / "report.md").write_text("second")
            (out / "notes.txt").write_text("mine")
    assert (out / "notes.txt").read_text() == "mine" and (out / "report.md").read_text() == "first"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report"]
