"""The README's code, run as a newcomer runs it: every shell and Python block in order, on
a small collection, in a fresh process whose workers are real worker processes; and the
README kept a guide one reads in minutes."""

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

BLOCK = re.compile(r"```(\w+)\n(.*?)```", re.S)


def readme_blocks(language: str | None = None) -> list[tuple[str, str]]:
    """The README's fenced blocks as ``(language, code)``, in order."""
    return [(lang, code) for lang, code in BLOCK.findall(README.read_text())
            if language is None or lang == language]


def make_collection(folder: Path) -> Path:
    for name, text in GAMES.items():
        (folder / "collection" / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / "collection" / name).write_text(text)
    (folder / ".venv").symlink_to(sys.prefix)  # the shell snippets call .venv/bin/rulelab
    return folder


def test_the_readme_is_a_guide_read_in_minutes():
    assert len(README.read_text().splitlines()) <= 300
    assert {lang for lang, _ in readme_blocks()} == {"text", "sh", "python"}  # text: not run here


@pytest.mark.pool
@pytest.mark.slow
def test_every_shell_and_python_block_runs_as_written(tmp_path):
    make_collection(tmp_path)
    env = {**os.environ, "MPLBACKEND": "Agg"}
    printed = []
    for language, code in readme_blocks():
        if language == "sh":
            for line in code.strip().splitlines():
                done = subprocess.run(line, shell=True, cwd=tmp_path, capture_output=True, text=True,
                                      timeout=600, env=env)
                assert done.returncode == 0, f"{line}\n{done.stderr[-3000:]}"
                printed.append(done.stdout)
        elif language == "python":
            done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                                  text=True, timeout=600, env=env)
            assert done.returncode == 0, f"{code}\n{done.stderr[-3000:]}"
            printed.append(done.stdout)
    assert printed[0].startswith("3 games found: 3 ok") and "run/scores.parquet" in printed[0]
    assert printed[1].split()[:3] == ["ruleset", "winner", "n"]
    assert "chinese  japanese" in printed[2]
    for made in ("divergence.png", "game.png", "run-report/index.html", "run/validation.parquet",
                 "run-api/life.parquet"):
        assert (tmp_path / made).is_file(), made


@pytest.mark.pool
@pytest.mark.parametrize("how", ["file", "stdin"])
def test_the_readme_api_example_runs_with_worker_processes(tmp_path, how):
    [code] = [code for _, code in readme_blocks("python") if "rulelab.score(" in code]
    make_collection(tmp_path)
    if how == "file":
        (tmp_path / "example.py").write_text(code)
        command, stdin = [sys.executable, "example.py"], None
    else:
        command, stdin = [sys.executable, "-"], code
    done = subprocess.run(command, cwd=tmp_path, input=stdin, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "run-api" / "scores.parquet").is_file()


def test_ingest_stays_the_function_after_its_module_is_imported():
    import rulelab
    from rulelab.pipeline.ingest import games_stage

    assert callable(rulelab.ingest) and rulelab.ingest.__name__ == "ingest"
    assert games_stage.__module__ == "rulelab.pipeline.ingest"
