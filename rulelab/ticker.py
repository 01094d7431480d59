"""Work done on a clock beside the main thread: redraws, and the lines that keep a long
step from looking stalled where no progress bar can be drawn (output piped or logged)."""

from __future__ import annotations

import sys
import threading
import time
from typing import Callable

LINE_EVERY = 5.0
"""Seconds between heartbeat lines: a log never goes 10 s without one."""


class Ticker:
    """Calls ``action`` every ``seconds`` from a thread of its own until :meth:`stop`."""

    def __init__(self, seconds: float, action: Callable[[], object]):
        self._stopped = threading.Event()

        def tick() -> None:
            while not self._stopped.wait(seconds):
                action()

        self._thread = threading.Thread(target=tick, name="rulelab-ticker", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopped.set()
        self._thread.join()

    def __enter__(self) -> "Ticker":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


class Heartbeat(Ticker):
    """Every :data:`LINE_EVERY` seconds until stopped, a line on standard error:
    ``rulelab: <state()> (<elapsed> s)``."""

    def __init__(self, state: Callable[[], str]):
        began = time.monotonic()
        super().__init__(LINE_EVERY, lambda: print(f"rulelab: {state()} ({time.monotonic() - began:.0f} s)",
                                                   file=sys.stderr, flush=True))
