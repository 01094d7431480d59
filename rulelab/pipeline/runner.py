"""Bounded parallel maps over worker processes.

At most a few tasks per worker are in flight, so memory does not grow with the size of
the collection. :func:`ordered_map` yields results in input order (for callers that
stream rows straight into a table); :func:`bounded_map` yields them as they finish
(for callers whose results are already checkpointed and only counted). ``jobs=1`` runs
in this process, which is what tests and debuggers want.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.context
import multiprocessing.forkserver
import multiprocessing.spawn
from multiprocessing import resource_tracker
import os
import signal
import threading
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Executor, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
import contextlib
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator, TypeVar

from rulelab.errors import RulelabError, worker_lost

T = TypeVar("T")
R = TypeVar("R")


def default_jobs() -> int:
    """One worker per core this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@contextmanager
def process_pool(jobs: int) -> Iterator[Executor]:
    """A pool of ``jobs`` fresh worker processes, stopped without waiting on any error.

    A worker that dies (killed, out of memory) becomes a :class:`RulelabError` that says
    how to carry on, instead of a traceback; workers end themselves when this process
    dies, instead of lingering as orphans.
    """
    # forkserver: workers start from a clean process, not a fork of one holding
    # Arrow writer threads and open files; the server loads the pipeline once
    # (rulelab.pipeline.warm) and every worker forked from it starts warm.
    context = _WorkerContext()
    context.set_forkserver_preload(["rulelab.pipeline.warm"])
    _start_fork_server()
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context,
                               initializer=_exit_with, initargs=(os.getpid(),))
    try:
        try:
            pool.submit(os.getpid).result()
        except BrokenProcessPool:
            raise RulelabError("worker processes could not start (the lines above say why); "
                               "--jobs 1 works without them") from None
        yield pool
    except BrokenProcessPool as error:
        pool.shutdown(wait=False, cancel_futures=True)
        raise worker_lost(error) from None
    except BaseException as error:  # Ctrl-C, SIGTERM, an error: the work in flight is not waited for
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        # The pool's manager thread closes its wakeup pipe as it ends; exiting while it does
        # races the interpreter's own exit hook, which writes to that pipe (CPython 3.11:
        # "Exception ignored ... Bad file descriptor" after the run's last line).
        manager = getattr(pool, "_executor_manager_thread", None)
        if manager is not None:
            manager.join(timeout=5)
        if isinstance(error, KeyboardInterrupt):
            _stop_fork_server()
        raise
    else:
        pool.shutdown(wait=True)


def _start_fork_server() -> None:
    """Start the fork server, if it is not running, with safe paths (``PYTHONSAFEPATH``)
    and Ctrl-C blocked.

    It is started as ``python -c``, which puts the working directory first on its path,
    so any folder named ``rulelab`` there (even an empty one) would be imported instead
    of the package, and every worker would fail. Ctrl-C reaches every process of the
    terminal's group: the server inherits the blocked signal from its first instruction
    until it ignores Ctrl-C for good (its workers too), so it leaves it to this process,
    which stops them, instead of printing a traceback while it loads. Here a Ctrl-C
    pressed meanwhile waits and is raised once unblocked, or at once if another thread
    took it, since Python hands every signal to the main thread. This process never
    ignores it: another thread that took an ignored Ctrl-C dropped it, and the run went
    on. multiprocessing's resource tracker is started first because starting it unblocks
    Ctrl-C when it is done.
    """
    saved = os.environ.get("PYTHONSAFEPATH")
    os.environ["PYTHONSAFEPATH"] = "1"
    try:
        resource_tracker.ensure_running()
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            multiprocessing.forkserver.ensure_running()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    finally:
        if saved is None:
            del os.environ["PYTHONSAFEPATH"]
        else:
            os.environ["PYTHONSAFEPATH"] = saved


def _stop_fork_server() -> None:
    """Stop the fork server, so that workers this process asked for while it was still
    loading are never started (each would fail, printing a traceback, once this process
    is gone); the next pool starts a new one."""
    pid = getattr(multiprocessing.forkserver._forkserver, "_forkserver_pid", None)
    if pid is not None:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


WORKER_NAME = "rulelab-worker"
"""Prefix of the names of pool workers, which the fork server starts without ``__main__``."""


class _WorkerProcess(multiprocessing.context.ForkServerProcess):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.name = f"{WORKER_NAME}-{self.name}"


class _WorkerContext(multiprocessing.context.ForkServerContext):
    """The fork-server context whose processes are named as rulelab workers."""

    Process = _WorkerProcess


def start_workers_without_main() -> None:
    """In the fork server: start rulelab's workers without importing the caller's main module.

    multiprocessing runs the caller's script again in each new worker (as
    ``__mp_main__``), so that functions defined there can be unpickled. Workers run only
    rulelab's functions, and a script without an ``if __name__ == "__main__"`` guard, or
    one read from standard input, would otherwise start a run inside every worker. Other
    processes of the same fork server keep the usual behaviour.
    """
    prepare = multiprocessing.spawn.prepare

    def prepare_worker(data: dict) -> None:
        if data.get("name", "").startswith(WORKER_NAME):
            data = {key: value for key, value in data.items() if not key.startswith("init_main_")}
        prepare(data)

    multiprocessing.spawn.prepare = prepare_worker


def _exit_with(parent: int) -> None:
    """End this worker soon after ``parent`` is gone.

    A pool's workers otherwise wait for work forever when the process that owns them
    is killed outright (SIGKILL, out of memory), holding memory and cores. A dead
    ``parent`` can linger as a zombie until its own parent reaps it, so the fork
    server's end (it exits with ``parent``, and this worker is handed to init) counts too.
    """
    server = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(0.2)
            try:
                os.kill(parent, 0)
            except OSError:
                os._exit(1)
            if os.getppid() != server:
                os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def ordered_map(func: Callable[[T], R], items: Iterable[T], jobs: int = 1,
                in_flight_per_job: int = 3) -> Iterator[R]:
    """Apply ``func`` to each item in worker processes, yielding results in input order."""
    if jobs <= 1:
        yield from map(func, items)
        return
    with process_pool(jobs) as pool:
        pending: deque = deque()
        for item in items:
            pending.append(pool.submit(func, item))
            if len(pending) >= jobs * in_flight_per_job:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def bounded_map(submit: Callable[[T], object], items: Iterable[T], in_flight: int,
                wait_any: Callable = lambda futures: wait(futures, return_when=FIRST_COMPLETED),
                weight: Callable[[T], int] = lambda item: 0, max_weight: int = 0) -> Iterator:
    """Submit items while fewer than ``in_flight`` (and, if given, less than ``max_weight``
    of ``weight``) are running; yield results as they finish.

    ``submit`` returns a future and ``wait_any`` splits a set of futures into
    ``(done, not_done)`` once one finishes, so the same loop drives
    :mod:`concurrent.futures` and ``dask.distributed`` futures.
    """
    pending: dict = {}

    def finished() -> list:
        done, _ = wait_any(set(pending))
        for future in done:
            del pending[future]
        return [future.result() for future in done]

    for item in items:
        pending[submit(item)] = weight(item)
        while len(pending) >= in_flight or (max_weight and sum(pending.values()) >= max_weight):
            yield from finished()
    while pending:
        yield from finished()

