"""The commands' machinery: units of work, engines, checkpoints, and the stages.

``ingest`` makes the games table, ``score`` the scores table; ``validate`` and
``explain`` compare verdicts with the records. Each stage reads the layers below it.
"""
