"""Every output of every command is its own: no link followed, no file of the user's
replaced unasked, no rows of another command dropped, no folder left by a refused start,
and the same command run again ends as it did."""

import json
from pathlib import Path

import pandas as pd
import pytest

from bench.probes.inputs import GOOD
from rulelab import cli
from rulelab.errors import InputError, RulelabError
from rulelab.pipeline.run import ingest, score, validate

pytestmark = pytest.mark.fuzz

COUNTED = b"(;GM[1]SZ[9]KM[6.5]RU[Chinese]RE[W+3.5]PB[x];B[ee];W[cc];B[];W[])"


def games(folder: Path, *records: bytes) -> Path:
    folder.mkdir()
    for n, data in enumerate(records or (GOOD, COUNTED)):
        (folder / f"g{n}.sgf").write_bytes(data)
    return folder


def user_file(path: Path, data: bytes = b"months of work") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def test_validate_never_writes_through_a_link_and_replaces_it_only_when_forced(tmp_path):
    thesis = user_file(tmp_path / "mine" / "thesis.tex")
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "validation.parquet").symlink_to(thesis)
    with pytest.raises(InputError, match="validation.parquet exists .rulelab validate did not write it."):
        validate([games(tmp_path / "in")], tmp_path / "run", jobs=1)
    validate([tmp_path / "in"], tmp_path / "run", jobs=1, force=True)
    assert thesis.read_bytes() == b"months of work"
    assert not (tmp_path / "run" / "validation.parquet").is_symlink()
    validate([tmp_path / "in"], tmp_path / "run", jobs=1)  # its own outputs: run again without force


def test_validate_refuses_to_replace_a_validation_json_of_the_users(tmp_path):
    mine = user_file(tmp_path / "run" / "validation.json", b'{"mine": 1}')
    with pytest.raises(InputError, match="validation.json exists"):
        validate([games(tmp_path / "in")], tmp_path / "run", jobs=1)
    assert mine.read_bytes() == b'{"mine": 1}'


def test_validate_even_forced_keeps_the_scores_rulelab_score_made_with_other_options(tmp_path):
    folder = games(tmp_path / "in", GOOD, COUNTED.replace(b"RU[Chinese]", b""))
    score([folder], tmp_path / "run", jobs=1, rules=["chinese"], assume_rules="japanese")
    before = (tmp_path / "run" / "scores.parquet").read_bytes()
    with pytest.raises(InputError, match="made by rulelab score with other options"):
        validate([folder], tmp_path / "run", jobs=1, force=True)
    assert (tmp_path / "run" / "scores.parquet").read_bytes() == before


def test_validate_of_records_naming_no_rules_says_why_nothing_was_validated(tmp_path, capsys):
    folder = games(tmp_path / "in", COUNTED.replace(b"RU[Chinese]", b""))
    with pytest.warns(UserWarning, match="nothing validated .* names its rules .RU. .* assume_rules"):
        validate([folder], tmp_path / "run", jobs=1)
    assert cli.main(["validate", str(folder), "--out", str(tmp_path / "run"), "--jobs", "1"]) == 0
    said = [line for line in capsys.readouterr().err.splitlines() if "nothing validated" in line]
    assert len(said) == 1 and said[0].startswith("rulelab: warning:") and "--assume-rules" in said[0]


@pytest.mark.parametrize("mine", [b"[1, 2]", b'{"a": 1 /* my notes */}', b'{"a": 1}'])
def test_a_manifest_json_rulelab_did_not_write_is_the_users_and_kept(tmp_path, mine):
    manifest = user_file(tmp_path / "run" / "manifest.json", mine)
    with pytest.raises(InputError, match="manifest.json exists .rulelab did not write it.; overwrite it with force=True"):
        ingest([games(tmp_path / "in")], tmp_path / "run", jobs=1)
    assert manifest.read_bytes() == mine


def test_files_of_the_users_in_parts_and_named_like_temporaries_are_kept(tmp_path):
    folder = games(tmp_path / "in")
    score([folder], tmp_path / "run", jobs=1, rules=["chinese"])
    mine = [user_file(tmp_path / "run" / name) for name in
            ("parts/games/notes.txt", "parts/scores/a.parquet", ".games.parquet.1.tmp", ".manifest.json.1.tmp")]
    (folder / "g2.sgf").write_bytes(GOOD.replace(b"good", b"new"))  # its parts change: the old are pruned
    score([folder], tmp_path / "run", jobs=1, rules=["chinese"], force=True)
    assert all(path.read_bytes() == b"months of work" for path in mine)


def test_ingest_run_again_with_the_same_inputs_reuses_its_parts_and_ends_as_before(tmp_path):
    folder = games(tmp_path / "in")
    first = ingest([folder], tmp_path / "run", jobs=1)
    table = (tmp_path / "run" / "games.parquet").read_bytes()
    again = ingest([folder], tmp_path / "run", jobs=1)
    assert (tmp_path / "run" / "games.parquet").read_bytes() == table
    assert again["counts"] == first["counts"] and again["units"]["computed"] == 0
    (folder / "g0.sgf").write_bytes(GOOD.replace(b"good", b"edited"))
    with pytest.raises(InputError, match="other contents of these inputs"):
        ingest([folder], tmp_path / "run", jobs=1)


def test_the_manifest_names_the_command_that_wrote_it(tmp_path):
    folder = games(tmp_path / "in")
    assert ingest([folder], tmp_path / "a", jobs=1)["command"] == "ingest"
    assert score([folder], tmp_path / "b", jobs=1, rules=["chinese"])["command"] == "score"
    validate([folder], tmp_path / "c", jobs=1)
    assert json.loads((tmp_path / "c" / "manifest.json").read_text())["command"] == "validate"


@pytest.mark.parametrize("refused", ["no jobs", "no game"])
def test_a_refused_start_leaves_no_folder_behind(tmp_path, refused):
    folder = games(tmp_path / "in")
    if refused == "no game":
        folder = tmp_path / "notes"
        user_file(folder / "notes.txt")
    with pytest.raises(RulelabError):
        ingest([folder], tmp_path / "new" / "run", jobs=0 if refused == "no jobs" else 1)
    assert not (tmp_path / "new").exists()


def test_an_api_error_speaks_of_force_true_and_the_command_line_of_force(tmp_path, capsys):
    folder = games(tmp_path / "in")
    user_file(tmp_path / "run" / "games.parquet")
    with pytest.raises(InputError) as refused:
        ingest([folder], tmp_path / "run", jobs=1)
    assert "force=True" in str(refused.value) and "--force" not in str(refused.value)
    assert cli.main(["ingest", str(folder), "--out", str(tmp_path / "run"), "--jobs", "1"]) == 2
    assert "overwrite it with --force" in capsys.readouterr().err


def test_an_empty_output_path_is_refused(tmp_path, capsys, monkeypatch):
    folder = games(tmp_path / "in")
    score([folder], tmp_path / "run", jobs=1, rules=["chinese"])
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match="must be named"):
        ingest([folder], "", jobs=1)
    assert cli.main(["report", "run", ""]) == 2
    assert "The report folder must be named" in capsys.readouterr().err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["in", "run"]


def test_a_komi_far_from_any_standard_is_warned_in_one_line(tmp_path, capsys):
    folder = games(tmp_path / "in")
    argv = ["score", str(folder), "--jobs", "1", "--rules", "chinese", "--out"]
    assert cli.main([*argv, str(tmp_path / "far"), "--komi", "65"]) == 0
    assert "rulelab: warning: a komi of 65 is far from any standard" in capsys.readouterr().err
    assert cli.main([*argv, str(tmp_path / "near"), "--komi", "7.5"]) == 0
    assert "warning" not in capsys.readouterr().err
