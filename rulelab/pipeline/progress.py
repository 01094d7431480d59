"""What a run shows while it works, so that no stage sits silent.

``make install`` compiles the numba kernels, so a first run starts at once; a run of
code whose kernels are not compiled yet compiles them (a minute or two) before any game
is read, says so, and then names the kernel under way every few seconds (one alone
takes up to 40 s). The bar then counts the input's bytes, as stored, against the
total known from a listing of the inputs before any file is opened, so it has an end
and an ETA from the start; beside it, the games read so far, those of parts reused
from an interrupted or earlier run included. It is redrawn every second, so its clock
moves while a unit is under way. Where standard error is no terminal (piped, logged) the
bar is off and a line says the same every few seconds instead, so a log
never goes 10 s without one; the report's build says which part it is on the same way
(:class:`rulelab.ticker.Heartbeat`).
"""

from __future__ import annotations

import importlib
import sys
import time
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator, TypeVar

from rulelab.kernel_cache import kernels_ready
from rulelab.read.sources import ReadStats, input_size
from rulelab.ticker import Heartbeat, Ticker

T = TypeVar("T")
COMPILING = "rulelab: compiling kernels, first run only (a minute or two) ..."
HEARTBEAT = 5.0
"""Seconds between the lines that say which kernel is being compiled."""
REFRESH = 1.0
"""Seconds between redraws of the bar (its clock and ETA) while no unit finishes."""


def compile_kernels() -> None:
    """Compile the kernels into the on-disk cache now, saying so, if this code has not yet.

    Done in this process before any worker starts, so the workers load them from the
    cache instead of each compiling its own.
    """
    if not kernels_ready():
        print(COMPILING, file=sys.stderr, flush=True)
        with _compiling_shown():
            importlib.import_module("rulelab.pipeline.warm")


@contextmanager
def _compiling_shown() -> Iterator[None]:
    """Every :data:`HEARTBEAT` seconds, a line naming the kernel numba is compiling
    (the outermost: its callees compile inside it) and how many are done."""
    import numba.core.event as event

    compiling: list[str] = []
    done = 0

    class Watch(event.Listener):
        def on_start(self, started):
            compiling.append(started.data["dispatcher"].py_func.__name__)

        def on_end(self, ended):
            nonlocal done
            compiling.pop()
            done += not compiling

    began = time.monotonic()

    def say() -> None:
        now = f", now {compiling[0]}" if compiling else ""
        print(f"rulelab: compiling kernels: {done} done{now} ({time.monotonic() - began:.0f} s)",
              file=sys.stderr, flush=True)

    beating = Ticker(HEARTBEAT, say)
    try:
        with event.install_listener("numba:compile", Watch()):
            yield
    finally:
        beating.stop()


def counted(items: Iterable[T], total: int, what: str, enabled: bool) -> Iterator[T]:
    """``items``, with a bar of ``total`` on a terminal when ``enabled`` (a stage after
    the run, such as validation's explanations)."""
    from tqdm import tqdm

    shown = enabled and sys.stderr.isatty()
    yield from tqdm(items, total=total, desc=what, unit=" games", disable=not shown, file=sys.stderr)


class RunProgress:
    """A progress bar over the bytes of ``paths``, shown on a terminal when ``enabled``;
    where standard error is no terminal, a line every few seconds instead
    (:meth:`state`).

    ``stats`` is what :func:`rulelab.read.sources.iter_files` fills in as it reads; call
    :meth:`done` with the rows of each unit made or reused.
    """

    def __init__(self, paths: list[str], enabled: bool, stats: ReadStats):
        from tqdm import tqdm

        self.stats = stats
        self.games = 0
        self.read = 0
        """Bytes read when the last unit was done: what the games so far were read from."""
        shown = enabled and sys.stderr.isatty()
        self.total = input_size(paths) if enabled else None
        self.began = time.monotonic()
        self.bar = tqdm(total=self.total if shown else None, unit="B", unit_scale=True,
                        unit_divisor=1024, desc="reading", disable=not shown, file=sys.stderr)
        # A unit takes seconds and a small collection is one unit: the clock ticks meanwhile.
        self._ticking = Ticker(REFRESH, self.bar.refresh) if shown else None
        self._lines = Heartbeat(self.state) if enabled and not shown else None

    def state(self) -> str:
        """Games done, their rate, the share of the input they were read from and the ETA."""
        seconds = time.monotonic() - self.began
        text = f"{self.games:,} games done, {self.games / seconds:.1f} games/s"
        if self.total:
            share = min(self.read / self.total, 1.0)
            eta = f"ETA {seconds * (1 - share) / share:.0f} s" if share else "ETA unknown yet"
            text += f", {share:.0%} of the input read, {eta}"
        return text

    def done(self, rows: dict[str, int]) -> None:
        self.games += rows.get("games", 0)
        self.read = self.stats.bytes_read
        self.bar.set_postfix_str(f"{self.games:,} games", refresh=False)
        self.bar.update(max(self.stats.bytes_read - self.bar.n, 0))

    def close(self) -> None:
        if self._ticking is not None:
            self._ticking.stop()
        if self._lines is not None:
            self._lines.stop()
        self.bar.update(max(self.stats.bytes_read - self.bar.n, 0))
        self.bar.close()
