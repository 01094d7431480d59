"""The commands and their machinery: units of work, engines, checkpoints, and the stages.

The commands ``ingest``, ``score`` and ``validate`` are in :mod:`rulelab.pipeline.run`; they
drive the stages (:mod:`~rulelab.pipeline.ingest` makes the games table,
:mod:`~rulelab.pipeline.score` the scores and life tables) and the comparisons of verdicts
with the records (:mod:`~rulelab.pipeline.validate`, :mod:`~rulelab.pipeline.explain`). Each
stage reads the layers below it.
"""

import rulelab.shadowing  # noqa: F401  (first: names a folder that shadows the package)
