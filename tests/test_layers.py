"""Layers that only look down: the analyses read the run folder without the reader or
the scorer, and the games stage's parts do not depend on the scorer's code (they do on
the rules', which judge the moves of every replay)."""

import subprocess
import sys

import pandas as pd
import pytest

from rulelab.analysis.verdict import stored_verdict
from rulelab.pipeline.fingerprint import code_fingerprint, source_files
from rulelab.pipeline.ingest import games_stage

HEAVY = ("numba", "rulelab.read", "rulelab.read.sgf")


def test_importing_the_analyses_loads_neither_numba_nor_the_sgf_reader():
    command = ("import rulelab.analysis, sys; "
               f"print(sorted(m for m in sys.modules if m.startswith({HEAVY!r})))")
    shown = subprocess.run([sys.executable, "-c", command], capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "[]"


def test_the_games_stage_key_covers_no_scorer_and_no_life_module():
    stage = games_stage(superko=False)
    code = source_files(stage._module())
    assert "rulelab.pipeline.ingest" in code and "rulelab.store.tables" in code  # the walk does reach its imports
    assert "rulelab.rules" in code  # the presets judge the moves replay plays
    assert not [name for name in code if name == "rulelab.scoring" or name.startswith("rulelab.life")]
    assert "rulelab.scoring" in source_files("rulelab.pipeline.score")  # ... and the scores stage's does


def stage_sources_copy(tmp_path, monkeypatch):
    """A copy of the modules both stages use, which the fingerprints then read."""
    import rulelab.pipeline.fingerprint as fingerprint
    import rulelab.source_walk as source_walk

    package = tmp_path / "rulelab"
    for name, path in {**source_files("rulelab.pipeline.ingest"), **source_files("rulelab.pipeline.score")}.items():
        copy = package.joinpath(*name.split(".")[1:])
        copy = copy / "__init__.py" if path.name == "__init__.py" else copy.with_suffix(".py")
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(path.read_bytes())
    monkeypatch.setattr(fingerprint, "PACKAGE", package)
    monkeypatch.setattr(source_walk, "PACKAGE", package)
    monkeypatch.setattr(source_walk, "_walks", {})
    return package


def test_an_edit_of_the_scorer_keeps_the_games_key_and_changes_the_scores_key(tmp_path, monkeypatch):
    package = stage_sources_copy(tmp_path, monkeypatch)
    before = code_fingerprint("rulelab.pipeline.ingest"), code_fingerprint("rulelab.pipeline.score")
    with (package / "scoring" / "tally.py").open("a") as scorer:
        scorer.write("\n# an edit of the scorer\n")
    after = code_fingerprint("rulelab.pipeline.ingest"), code_fingerprint("rulelab.pipeline.score")
    assert after[0] == before[0] and after[1] != before[1]


def test_a_refit_of_the_life_model_changes_the_scores_key_only(tmp_path, monkeypatch):
    from rulelab.life.undecided import MODEL_PATH

    package = stage_sources_copy(tmp_path, monkeypatch)
    (package / "data").mkdir()
    (package / "data" / MODEL_PATH.name).write_bytes(MODEL_PATH.read_bytes())
    before = code_fingerprint("rulelab.pipeline.ingest"), code_fingerprint("rulelab.pipeline.score")
    (package / "data" / MODEL_PATH.name).write_text("{}")
    after = code_fingerprint("rulelab.pipeline.ingest"), code_fingerprint("rulelab.pipeline.score")
    assert after[0] == before[0] and after[1] != before[1]


def test_a_life_table_without_the_game_has_no_verdict():
    assert stored_verdict(pd.DataFrame({"game_id": ["g"]}), "h") is None
    assert stored_verdict(pd.DataFrame(), "g") is None


def test_the_analyses_and_sql_load_no_life_package():
    command = ("import rulelab.analysis, rulelab.report.sections, rulelab.store.sql, sys; "
               "print(sorted(m for m in sys.modules if m.split('.')[:2] == ['rulelab', 'life']))")
    shown = subprocess.run([sys.executable, "-c", command], capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "[]"


@pytest.mark.slow
def test_every_module_imports_without_the_optional_dependencies():
    """The doctests import every module of the package, installed with or without extras."""
    blocked = ("dask", "distributed", "psutil", "hypothesis", "pytest")
    command = ("import importlib, pkgutil, sys, rulelab\n"
               f"for name in {blocked!r}: sys.modules[name] = None\n"
               "for m in pkgutil.walk_packages(rulelab.__path__, 'rulelab.'):\n"
               "    importlib.import_module(m.name)\n")
    subprocess.run([sys.executable, "-c", command], check=True)


def test_the_analyses_never_import_the_report():
    """The report is built on the analyses, a floor above them, never the other way."""
    from rulelab.source_walk import PACKAGE, module_name

    analyses = [module_name(path) for path in (PACKAGE / "analysis").glob("*.py")]
    assert "rulelab.report.sections" in source_files("rulelab.report.build")  # the walk finds the report's modules
    assert [(name, other) for name in analyses for other in source_files(name)
            if other.startswith("rulelab.report")] == []


def test_the_report_sections_load_no_numba_and_no_scorer():
    command = ("import rulelab.report.sections, sys; "
               "print(sorted(m for m in sys.modules if m.startswith(('numba', 'rulelab.scoring'))))")
    shown = subprocess.run([sys.executable, "-c", command], capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "[]"


def test_the_import_graph_has_no_cycle():
    """Every import of every module, those inside functions and importlib's included: a
    library module never imports the command that assembles it. (``from package import
    module`` is an import of the module; a package's own ``__init__`` is left out.)"""
    import ast

    from rulelab.source_walk import PACKAGE, module_name

    files = {module_name(path): path for path in PACKAGE.rglob("*.py")}

    def imports(name: str) -> set[str]:
        path = files[name]
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found = set()
        for node in ast.walk(ast.parse(path.read_bytes())):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    base = f"{anchor}.{base}" if base else anchor
                found |= {f"{base}.{a.name}" if f"{base}.{a.name}" in files else base for a in node.names}
            elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
                  and node.args and isinstance(node.args[0], ast.Constant)):
                found.add(node.args[0].value)
        return {other for other in found if other in files and files[other].name != "__init__.py"}

    graph = {name: imports(name) for name in files}
    seen, stack, cycles = {}, [], []

    def visit(name):
        seen[name] = "open"
        stack.append(name)
        for other in sorted(graph[name]):
            if seen.get(other) == "open":
                cycles.append(stack[stack.index(other):] + [other])
            elif other not in seen:
                visit(other)
        stack.pop()
        seen[name] = "done"

    for name in sorted(graph):
        if name not in seen:
            visit(name)
    assert cycles == []
