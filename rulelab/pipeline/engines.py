"""Where units of work run: a local process pool (the default) or a Dask cluster.

Both engines offer the same two things: :meth:`map`, which runs a function over a
stream of work items with a bounded number in flight and yields results as they
finish, and :meth:`describe`, which says for the manifest where the work ran. Results
never depend on the engine: the functions they run write their own checkpoints, and
the tables are assembled from those in input order afterwards.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterable, Iterator

from rulelab.errors import RulelabError, worker_lost
from rulelab.pipeline.runner import bounded_map, default_jobs, process_pool

ENGINES = ("local", "dask")
IN_FLIGHT_PER_WORKER = 2
IN_FLIGHT_BYTES_PER_WORKER = 8 << 20
"""With ``weight`` in bytes: so big units are never queued beside the ones running."""


class LocalEngine:
    """Worker processes on this machine; ``jobs=1`` runs in this process."""

    name = "local"

    def __init__(self, jobs: int):
        self.jobs = jobs

    def map(self, func: Callable, items: Iterable, weight: Callable = lambda item: 0) -> Iterator:
        """``func`` over ``items``, results in completion order; ``weight`` of an item in bytes."""
        if self.jobs <= 1:
            yield from map(func, items)
            return
        with process_pool(self.jobs) as pool:
            yield from bounded_map(lambda item: pool.submit(func, item), items,
                                   self.jobs * IN_FLIGHT_PER_WORKER, weight=weight,
                                   max_weight=self.jobs * IN_FLIGHT_BYTES_PER_WORKER)

    def describe(self) -> dict:
        return {"engine": self.name, "workers": self.jobs}


class DaskEngine:
    """Workers of a ``dask.distributed`` cluster, reached through ``client``.

    Each work item is scattered to a worker before its task is submitted, so a large
    unit travels once, straight to where it runs, and never sits in the task graph.
    """

    name = "dask"

    def __init__(self, client, scheduler: str | None):
        self.client = client
        self.scheduler = scheduler

    def map(self, func: Callable, items: Iterable, weight: Callable = lambda item: 0) -> Iterator:
        """``func`` over ``items`` on the cluster, results in completion order; ``weight`` in bytes.

        A worker lost with its task (killed, out of memory) stops the run as it does on
        the local engine: one :class:`RulelabError` saying to run again to resume.
        """
        from distributed import wait
        from distributed.client import FutureCancelledError, FuturesCancelledError
        from distributed.scheduler import KilledWorker

        client = self.client
        workers = max(self.workers(), 1)

        def submit(item):
            [data] = client.scatter([item], hash=False)
            return client.submit(func, data, pure=False)

        try:
            yield from bounded_map(submit, items, workers * IN_FLIGHT_PER_WORKER,
                                   wait_any=lambda futures: wait(futures, return_when="FIRST_COMPLETED"),
                                   weight=weight, max_weight=workers * IN_FLIGHT_BYTES_PER_WORKER)
        except (FutureCancelledError, FuturesCancelledError, KilledWorker) as error:
            raise worker_lost(error) from None

    def workers(self) -> int:
        """Worker threads the cluster has now."""
        return sum(self.client.nthreads().values())

    def describe(self) -> dict:
        return {"engine": self.name, "scheduler": self.scheduler or "local cluster",
                "workers": self.workers()}


JOBS_PER_CORE = 4
"""Local workers allowed per core: more only share the cores, each holding ~250 MB."""


@contextmanager
def open_engine(engine: str = "local", *, jobs: int | None = None,
                scheduler: str | None = None) -> Iterator[LocalEngine | DaskEngine]:
    """The engine named ``engine``, ready for work, shut down on exit.

    Parameters
    ----------
    engine : {'local', 'dask'}
        ``'local'`` runs a pool of worker processes on this machine. ``'dask'`` runs
        on the ``dask.distributed`` cluster whose scheduler is at ``scheduler``, or
        without one on a ``LocalCluster`` of ``jobs`` single-threaded worker processes
        listening on loopback only.
    jobs : int, optional
        Local worker processes (default: one per core). Ignored with ``scheduler``:
        the cluster has the workers it has.
    scheduler : str, optional
        Address of a running Dask scheduler, e.g. ``'tcp://10.0.0.5:8786'``.

    Raises
    ------
    RulelabError
        For an unknown engine, ``jobs`` below 1 or above 4 per core, a scheduler given to the local engine,
        a missing ``distributed`` package, or a scheduler that cannot be reached.
    """
    if engine not in ENGINES:
        raise RulelabError(f"The 'engine' parameter must be one of {ENGINES}; got {engine!r}")
    if jobs is not None and (not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1):
        raise RulelabError(f"The 'jobs' parameter must be a positive number of workers; got {jobs!r}")
    most = JOBS_PER_CORE * default_jobs()
    if jobs is not None and scheduler is None and jobs > most:
        raise RulelabError(f"The 'jobs' parameter must be at most {most} ({JOBS_PER_CORE} per core of this "
                           f"machine; each worker holds its own copy of the pipeline); got {jobs}")
    if engine == "local":
        if scheduler is not None:
            raise RulelabError("a scheduler address needs engine='dask'")
        yield LocalEngine(jobs or default_jobs())
        return
    with _dask_client(jobs, scheduler) as client:
        yield DaskEngine(client, scheduler)


@contextmanager
def _dask_client(jobs: int | None, scheduler: str | None):
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise RulelabError("engine='dask' needs dask.distributed: "
                           "pip install 'rulelab[dask]'") from None
    if scheduler is not None:
        try:
            client = Client(scheduler, timeout="30s")
        except OSError as error:
            raise RulelabError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
        with client:
            yield client
        return
    # Every listener on loopback; the scheduler's HTTP endpoints on a free port, so that
    # two clusters on one machine do not compete for the default one.
    with LocalCluster(n_workers=jobs or default_jobs(), threads_per_worker=1, processes=True,
                      host="127.0.0.1", dashboard_address="127.0.0.1:0") as cluster, \
            Client(cluster) as client:
        yield client
