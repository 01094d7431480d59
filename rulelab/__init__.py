"""rulelab: score Go game collections under many rulesets and study where they diverge.

The public API is imported lazily, so that ``import rulelab.position`` stays light.
"""

from importlib import import_module
from importlib.metadata import PackageNotFoundError, version

from rulelab.kernel_cache import use_kernel_cache

use_kernel_cache()

try:
    __version__ = version("rulelab")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0+unknown"

_API = {
    "ingest": "rulelab.pipeline.run",
    "read_games": "rulelab.pipeline.ingest",
    "score": "rulelab.pipeline.run",
    "validate": "rulelab.pipeline.run",
    "read_scores": "rulelab.pipeline.score",
    "score_game": "rulelab.pipeline.score",
    "read_life": "rulelab.store.life",
    "connect": "rulelab.store.sql",
    "draw_game": "rulelab.analysis.game_diagram",
    "get_ruleset": "rulelab.rules",
    "RulelabError": "rulelab.errors",
}

__all__ = sorted(_API) + ["__version__"]


def __getattr__(name):
    if name in _API:
        return getattr(import_module(_API[name]), name)
    raise AttributeError(f"module 'rulelab' has no attribute {name!r}")

