"""What a pool worker runs under ``python -m bench.profile --jobs J``: a module of its own,
so that workers import it by name (a function of ``__main__`` does not reach them)."""

from __future__ import annotations

import cProfile
import os
import uuid
from pathlib import Path

from rulelab.pipeline import checkpoint

run_unit = checkpoint.run_unit  # the real one, before the bench puts this module's in its place


def profiled_unit(work, folder: str) -> dict[str, int]:
    """:func:`rulelab.pipeline.checkpoint.run_unit` under cProfile, its stats dumped into ``folder``."""
    profiler = cProfile.Profile()
    made = profiler.runcall(run_unit, work)
    profiler.dump_stats(Path(folder) / f"{os.getpid()}-{uuid.uuid4().hex}.prof")
    return made
