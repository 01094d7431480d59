"""Ordered, bounded parallel map over worker processes.

Results come back in input order (so outputs are deterministic whatever the number of
jobs), and at most a few batches per worker are in flight (so memory does not grow with
the size of the collection). ``jobs=1`` runs in this process, which is what tests and
debuggers want.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from typing import Callable, Iterable, Iterator, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def default_jobs() -> int:
    """One worker per core this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def ordered_map(func: Callable[[T], R], items: Iterable[T], jobs: int = 1,
                in_flight_per_job: int = 3) -> Iterator[R]:
    """Apply ``func`` to each item in worker processes, yielding results in input order."""
    if jobs <= 1:
        yield from map(func, items)
        return
    # forkserver: workers start from a clean process, not a fork of one holding
    # Arrow writer threads and open files.
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        pending: deque = deque()
        for item in items:
            pending.append(pool.submit(func, item))
            if len(pending) >= jobs * in_flight_per_job:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def batched(items: Iterable[T], max_items: int, max_weight: int = 0,
            weight: Callable[[T], int] = lambda _: 0) -> Iterator[list[T]]:
    """Group items into lists of at most ``max_items`` and (if given) ``max_weight``."""
    batch: list[T] = []
    total = 0
    for item in items:
        batch.append(item)
        total += weight(item)
        if len(batch) >= max_items or (max_weight and total >= max_weight):
            yield batch
            batch, total = [], 0
    if batch:
        yield batch
