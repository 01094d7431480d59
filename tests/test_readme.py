"""The README's code, run as a newcomer runs it: saved as a file, piped to Python, with
``python -c``, in a fresh process whose workers are real worker processes."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"

GAMES = {
    "walls.sgf": "(;GM[1]FF[4]SZ[5]RU[Chinese]KM[7.5]RE[W+12.5]"
                 "AB[ba][bb][bc][bd][be]AW[ca][cb][cc][cd][ce];B[];W[])",
    "resigned.sgf": "(;GM[1]FF[4]SZ[5]KM[6.5]RE[B+R];B[cc];W[bb])",
    "nested/game.sgf": "(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese]RE[B+R];B[ee];W[ec];B[ce];W[cc])",
}


def readme_block(heading: str, language: str) -> str:
    """The first ``language`` code block under the README's ``heading``, verbatim."""
    section = README.read_text().split(f"\n{heading}\n", 1)[1]
    return re.search(rf"```{language}\n(.*?)```", section, re.S).group(1)


def make_collection(folder: Path) -> Path:
    for name, text in GAMES.items():
        (folder / "collection" / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / "collection" / name).write_text(text)
    return folder


@pytest.mark.pool
@pytest.mark.parametrize("how", ["file", "stdin", "-c"])
def test_the_readme_api_example_runs_with_worker_processes(tmp_path, how):
    code = readme_block("## Python API", "python")
    assert "rulelab.ingest(" in code and "rulelab.score(" in code
    make_collection(tmp_path)
    if how == "file":
        (tmp_path / "example.py").write_text(code)
        command, stdin = [sys.executable, "example.py"], None
    elif how == "stdin":
        command, stdin = [sys.executable, "-"], code
    else:
        command, stdin = [sys.executable, "-c", code], None
    done = subprocess.run(command, cwd=tmp_path, input=stdin, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "run" / "scores.parquet").is_file()


def test_ingest_stays_the_function_after_its_module_is_imported():
    import rulelab
    from rulelab.pipeline.ingest import games_stage

    assert callable(rulelab.ingest) and rulelab.ingest.__name__ == "ingest"
    assert games_stage.__module__ == "rulelab.pipeline.ingest"


@pytest.mark.pool
def test_the_five_minute_tour_runs_as_written(tmp_path):
    make_collection(tmp_path)
    (tmp_path / ".venv").symlink_to(sys.prefix)  # the tour calls .venv/bin/rulelab
    printed = []
    for line in readme_block("## Five-minute tour", "sh").strip().splitlines():
        done = subprocess.run(line, shell=True, cwd=tmp_path, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        printed.append(done.stdout)
    assert printed[0].startswith("3 games found: 3 ok") and "run/scores.parquet" in printed[0]
    assert printed[1].split()[:3] == ["ruleset", "winner", "n"]
    code = readme_block("Then in Python (a script or a notebook):", "python")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                          timeout=600, env={**os.environ, "MPLBACKEND": "Agg"})
    assert done.returncode == 0, done.stderr[-3000:]
    assert "chinese  japanese" in done.stdout
    for figure in ("divergence.png", "game.png"):
        assert (tmp_path / figure).read_bytes().startswith(b"\x89PNG")
