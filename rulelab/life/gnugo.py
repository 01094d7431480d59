"""GNU Go as a cross-check of life and death, over GTP.

GNU Go's ``final_status_list`` reads every group with tactical and owl search: a
strong, independent opinion, but about a second per position, so it is a backend to
compare against, never the default. Debian installs the binary as
``/usr/games/gnugo``, which is often not on ``PATH``; both places are tried.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import numpy as np

from rulelab.errors import RulelabError
from rulelab.life.external import ExternalEngine
from rulelab.position import COLOUR_NAME, Life, Position

GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
DEBIAN_PATH = Path("/usr/games/gnugo")
MAX_GNUGO_SIZE = 19


class GnuGoUnavailable(RulelabError):
    """The ``gnugo`` binary cannot be found (install it with ``apt-get install gnugo``)."""

    status = "gnugo_unavailable"


class GnuGoError(RulelabError):
    """GNU Go refused a command, answered nonsense, or stopped."""

    status = "gnugo_error"


def find_gnugo() -> str | None:
    """Path of the ``gnugo`` binary: ``$PATH`` first, then Debian's games folder."""
    found = shutil.which("gnugo")
    if found:
        return found
    if DEBIAN_PATH.is_file() and os.access(DEBIAN_PATH, os.X_OK):
        return str(DEBIAN_PATH)
    return None


def gnugo_takes(shape: tuple[int, int]) -> bool:
    """Whether GNU Go can read a board of ``shape`` (rows, cols): square, up to 19x19."""
    rows, cols = shape
    return rows == cols and rows <= MAX_GNUGO_SIZE


def gtp_vertex(row: int, col: int, rows: int) -> str:
    """GTP name of ``(row, col)``: column letter without I, row counted from the bottom."""
    return f"{GTP_COLUMNS[col]}{rows - row}"


def parse_vertices(text: str, rows: int) -> list[tuple[int, int]]:
    """``(row, col)`` of every vertex in a GTP answer such as ``'A1 B2\\nC3'``."""
    points = []
    for word in text.split():
        col = GTP_COLUMNS.index(word[0].upper())
        points.append((rows - int(word[1:]), col))
    return points


class GnuGo(ExternalEngine):
    """One GNU Go process answering GTP commands; reuse it for many positions.

    Parameters
    ----------
    binary : str, optional
        Path of the executable; found with :func:`find_gnugo` by default.
    level : int
        GNU Go's strength setting (1..10); higher reads deeper.
    timeout : float
        Seconds to wait for one answer before giving up.

    Raises
    ------
    GnuGoUnavailable
        No binary was given or found.

    Examples
    --------
    >>> with GnuGo() as engine:                        # doctest: +SKIP
    ...     life = engine.decide_life(position)
    """

    stop_timeout = 5.0

    def __init__(self, binary: str | None = None, *, level: int = 10, timeout: float = 60.0):
        binary = binary or find_gnugo()
        if binary is None:
            raise GnuGoUnavailable("gnugo was not found on PATH nor at /usr/games/gnugo; "
                                   "install it with 'apt-get install gnugo'")
        self.timeout = timeout
        self._process = subprocess.Popen(
            [binary, "--mode", "gtp", "--quiet", "--level", str(int(level))],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, bufsize=1)

    def _ask_to_stop(self) -> None:
        self._process.stdin.write("quit\n")
        self._process.stdin.flush()

    def command(self, line: str) -> str:
        """Send one GTP command and return the answer text without the ``=``."""
        process = self._process
        try:
            process.stdin.write(line + "\n")
            process.stdin.flush()
        except OSError as exc:
            raise GnuGoError(f"gnugo stopped before {line!r}: {exc}") from exc
        answer = []
        while True:
            text = process.stdout.readline()
            if text == "":
                raise GnuGoError(f"gnugo stopped while answering {line!r}")
            if text.strip() == "" and answer:
                break
            if text.strip():
                answer.append(text.rstrip("\n"))
        reply = "\n".join(answer)
        if not reply.startswith("="):
            raise GnuGoError(f"gnugo refused {line!r}: {reply}")
        return reply[1:].strip()

    def decide_life(self, position: Position) -> Life:
        """GNU Go's dead stones for ``position`` (square boards up to 19×19)."""
        board = position.board
        rows, cols = board.shape
        if not gnugo_takes(board.shape):
            raise GnuGoError(f"gnugo handles square boards up to 19x19; got {rows}x{cols}")
        self.command(f"boardsize {rows}")
        self.command("clear_board")
        # Stones of a legal final position can be set in any order: each string keeps a
        # liberty among the points that stay empty, so no placement ever captures.
        for row, col in zip(*np.nonzero(board)):
            self.command(f"play {COLOUR_NAME[int(board[row, col])]} {gtp_vertex(row, col, rows)}")
        dead = np.zeros(board.shape, dtype=bool)
        for row, col in parse_vertices(self.command("final_status_list dead"), rows):
            dead[row, col] = True
        return Life(dead=dead & (board > 0), method="gnugo", confidence=1.0, finished=True)


def gnugo_life(position: Position) -> Life:
    """One-shot :meth:`GnuGo.decide_life` (starts and stops a process)."""
    with GnuGo() as engine:
        return engine.decide_life(position)

