"""The names ``import rulelab`` offers: each resolves, and the commands are those the
command line runs."""

import rulelab
from rulelab.pipeline import run


def test_every_public_name_resolves():
    assert all(getattr(rulelab, name) is not None for name in rulelab.__all__)


def test_the_commands_are_the_pipelines_entry_points():
    assert (rulelab.ingest, rulelab.score, rulelab.validate) == (run.ingest, run.score, run.validate)
