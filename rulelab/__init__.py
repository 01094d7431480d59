"""rulelab: score Go game collections under many rulesets and study where they diverge.

The public API is imported lazily, so that ``import rulelab.position`` stays light.
"""

import sys
from importlib import import_module
from importlib.metadata import PackageNotFoundError, version
from types import ModuleType

from .kernel_cache import use_kernel_cache

use_kernel_cache()

try:
    __version__ = version("rulelab")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0+unknown"

_API = {
    "ingest": "rulelab.ingest",
    "read_games": "rulelab.ingest",
    "score": "rulelab.score_run",
    "read_scores": "rulelab.score_run",
    "score_game": "rulelab.score_run",
    "connect": "rulelab.sql",
    "draw_game": "rulelab.analysis.game_diagram",
    "get_ruleset": "rulelab.rules",
    "RulelabError": "rulelab.errors",
}

__all__ = sorted(_API) + ["__version__"]


def __getattr__(name):
    if name in _API:
        return getattr(import_module(_API[name]), name)
    raise AttributeError(f"module 'rulelab' has no attribute {name!r}")


class _Package(ModuleType):
    """The ``rulelab`` package, whose API functions keep their names.

    Importing the submodule ``rulelab.ingest`` binds it on the package as ``ingest``,
    which would hide the function ``rulelab.ingest`` for the rest of the session; the
    submodule stays reachable through ``sys.modules`` and ``from rulelab.ingest import``.
    """

    def __setattr__(self, name, value):
        if name in _API and getattr(value, "__name__", None) == f"{__name__}.{name}":
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
