"""The child process of an external life-and-death backend (GNU Go, KataGo)."""

from __future__ import annotations

import subprocess


class ExternalEngine:
    """A context manager around ``self._process`` that stops it politely, then by force."""

    _process: subprocess.Popen
    stop_timeout = 10.0
    """Seconds the process gets to stop after being asked."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Stop the process (politely, then by force)."""
        if self._process.poll() is None:
            try:
                self._ask_to_stop()
                self._process.wait(timeout=self.stop_timeout)
            except (OSError, subprocess.TimeoutExpired):
                self._process.kill()
                self._process.wait()

    def _ask_to_stop(self) -> None:
        """End the process's input (engines that read to the end then exit)."""
        self._process.stdin.close()
