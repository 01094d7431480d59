"""The scripts of analyses/, run as a researcher runs them: from the project root, on a run."""

import subprocess
import sys
from pathlib import Path

import pandas as pd
from analysis_tables import collection, write_run

PROJECT = Path(__file__).resolve().parents[2]


def script(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=PROJECT, capture_output=True, text=True,
                          timeout=300, env={"MPLBACKEND": "Agg", "PATH": "/usr/bin:/bin"})


def test_one_part_of_the_report_is_rebuilt_alone(tmp_path):
    run = write_run(tmp_path / "run", *collection())
    done = script("analyses.part", "attribution", str(run), str(tmp_path / "out"), "--n-boot", "0")
    assert done.returncode == 0, done.stderr[-2000:]
    assert (tmp_path / "out" / "attribution.md").is_file() and (tmp_path / "out" / "attribution.csv").is_file()
    refused = script("analyses.part", "nosuch", str(run), str(tmp_path / "out"))
    assert refused.returncode == 2 and "invalid choice: 'nosuch'" in refused.stderr


def test_the_conventions_check_prints_one_row_per_choice(tmp_path):
    games, scores = collection()
    refused = script("analyses.conventions", str(write_run(tmp_path / "bare", games, scores)))
    assert refused.returncode == 2 and refused.stderr.startswith("rulelab: The scores table must have")
    scores = scores.assign(open_dame=0, black_dame_filled=0, white_dame_filled=0)
    record = scores[scores["ruleset"] == "japanese"].assign(komi_source="record")
    run = write_run(tmp_path / "run", games.assign(to_move="B"), pd.concat([scores, record], ignore_index=True))
    done = script("analyses.conventions", str(run))
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split()[:7] == ["source", "rules", "setting", "choice", "games", "exact", "in_use"]
    assert "protective_moves" in done.stdout
