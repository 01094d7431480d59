"""Run the examples in the docstrings of the analysis package and rulelab.sql."""

import doctest
import importlib
import pkgutil

import pytest

import rulelab.analysis

MODULES = ["rulelab.sql"] + sorted(
    f"rulelab.analysis.{m.name}" for m in pkgutil.iter_modules(rulelab.analysis.__path__))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
