"""Loaded by the fork server before it starts workers: the pipeline's modules and
compiled kernels, once; and workers started without the caller's main module
(:func:`rulelab.pipeline.runner.start_workers_without_main`). A checkout's first run loads it
in its own process first, to compile the kernels into the cache once
(:func:`rulelab.pipeline.progress.compile_kernels`).

Each worker is a fork of the fork server, so whatever the server holds, every worker
starts with: importing the pipeline and loading its numba kernels from the on-disk
cache (about a second) is paid once per run instead of once per worker.
"""

from __future__ import annotations

from rulelab.kernel_cache import mark_ready
from rulelab.life import decide_life
from rulelab.pipeline.runner import start_workers_without_main
from rulelab.read.records import file_rows
from rulelab.read.sources import RawFile
from rulelab.rules import PRESETS
from rulelab.scoring import classify_points, score_all
from rulelab.store.positions import position_from_row

# A short game with a capture, a ko-free end and passes: enough to call every kernel
# of replay, life and death and scoring once.
_GAME = b"(;GM[1]SZ[9]KM[6.5]RU[Japanese]RE[B+R];B[ee];W[ec];B[ce];W[cc];B[gc];W[gg];B[cg];W[];B[])"


def load_kernels() -> None:
    """Replay, decide and score one game, as the stages do, so every kernel is compiled or
    loaded (from the library's modules, not the stages', which import this one's caller)."""
    [row] = file_rows(RawFile("warm.sgf", None, _GAME), superko=False)
    position = position_from_row(row)
    verdict = decide_life(position)
    classify_points(position, verdict)
    score_all(position, verdict, list(PRESETS.values()))
    mark_ready()


start_workers_without_main()
load_kernels()
