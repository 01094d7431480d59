"""The project's data/: the registry of fetched corpora and the published komi figures."""

import json
import re
import subprocess
from pathlib import Path

from positions import POSITIONS, named_positions
from rulelab.analysis.published import PUBLISHED

PROJECT = Path(__file__).resolve().parents[1]
DATA = PROJECT / "data"


def test_the_default_corpus_is_registered_with_how_to_fetch_it_and_the_deb_measured():
    registry = json.loads((DATA / "corpora.json").read_text(encoding="utf-8"))
    corpus = registry["corpora"][registry["default"]]
    assert {"holds", "source", "fetch", "debian_package", "version", "records"} <= set(corpus)
    assert re.fullmatch(r"[0-9a-f]{64}", corpus["deb_sha256"])


def test_the_fetch_script_finds_the_records_where_the_registry_says(tmp_path):
    registry = json.loads((DATA / "corpora.json").read_text(encoding="utf-8"))
    corpus = registry["corpora"][registry["default"]]
    records = tmp_path / corpus["debian_package"] / corpus["records"]
    records.mkdir(parents=True)  # already fetched: the script only says where
    shown = subprocess.run(["bash", str(PROJECT / "analyses" / "fetch_default_corpus.sh"), str(tmp_path)],
                           capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == str(records)


def test_the_published_figures_are_read_from_the_data_file_with_their_sources():
    figures = json.loads((DATA / "published_komi.json").read_text(encoding="utf-8"))["figures"]
    assert PUBLISHED.to_dict(orient="records") == figures
    assert PUBLISHED["key"].is_unique and set(PUBLISHED["kind"]) <= {"rate", "komi"}
    assert PUBLISHED["source"].str.len().gt(0).all() and PUBLISHED["figure"].str.len().gt(0).all()


def test_the_package_ships_the_data_folder():
    """rulelab/data links to data/, and pyproject.toml puts its JSON files (and the report
    explorer's script) in the package."""
    assert (PROJECT / "rulelab" / "data").resolve() == DATA
    assert 'rulelab = ["data/*.json", "report/static/*"]' in (PROJECT / "pyproject.toml").read_text()


def test_every_named_position_is_a_rectangular_diagram_of_stones_and_points():
    files = sorted(path.stem for path in POSITIONS.glob("*.txt"))
    assert files == ["finish", "life", "repetition", "scoring", "status"]
    for file in files:
        positions = named_positions(file)
        assert positions, file
        for named in positions.values():
            rows = [line.split() for line in named.diagram.splitlines()]
            assert len({len(row) for row in rows}) == 1, named.name
            assert {cell for row in rows for cell in row} <= set("XOxo."), named.name
            assert named.position().board.shape == (len(rows), len(rows[0]))


def test_the_licence_is_an_spdx_expression_as_setuptools_asks():
    import tomllib

    project = tomllib.loads((PROJECT / "pyproject.toml").read_text())
    assert project["project"]["license"] == "MIT"  # a table is deprecated: setuptools warns on every build
    assert "setuptools>=77" in project["build-system"]["requires"][0]
