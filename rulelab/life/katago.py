"""KataGo's ownership as a life-and-death backend, over its analysis engine's JSON protocol.

KataGo's net predicts, for every point, who will own it at the end of the game. A
chain is dead when the net gives its points away: its mean ownership seen from its
own colour is below :data:`DEAD_MEAN`, or its worst point below :data:`DEAD_WORST`
(KataGo's own rule for anticipated statuses). Whole chains only, never half a chain.
The net never reports seki as such; as for the players' marks, the scorer finds seki
on the board without the dead stones.

One raw-net evaluation per position (``maxVisits`` 1) is what dead stones need and
costs 1–5 s on two CPU cores; many positions are sent at once so the engine batches
them. The engine is found from arguments, then ``$RULELAB_KATAGO``,
``$RULELAB_KATAGO_MODEL`` and ``$RULELAB_KATAGO_CONFIG``, then the install of
``make katago`` (``tools/katago_setup.py``, into
:data:`rulelab.katago_install.DEFAULT_HOME`), so a user's own KataGo on a GPU works unchanged. Its config must report values from Black's side
(``reportAnalysisWinratesAs = BLACK``, the analysis engine's default).
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Sequence

import numpy as np
from scipy import ndimage

from rulelab.errors import RulelabError
from rulelab.life.external import ExternalEngine
from rulelab.life.gnugo import gtp_vertex
from rulelab.katago_install import DEFAULT_HOME, ENVIRONMENT, installed_paths
from rulelab.position import BLACK, COLOUR_NAME, EMPTY, WHITE, Position

DEAD_MEAN = 0.2
"""A chain whose mean ownership, from its own colour's side, is below this is dead."""
DEAD_WORST = -0.6
"""A chain with a point whose ownership, from its own colour's side, is below this is dead."""
MIN_KATAGO_SIZE, MAX_KATAGO_SIZE = 2, 19
"""Board sides KataGo's released builds accept: its analysis engine takes 2 up to the
largest side it was compiled for (``COMPILE_MAX_BOARD_LEN``, 19)."""
KOMI = 7.5
"""Komi of every query: ownership of a finished board hardly depends on it."""
_FOUR = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]])


class KataGoUnavailable(RulelabError):
    """KataGo, its net or its config cannot be found (``make katago`` installs them)."""

    status = "katago_unavailable"


class KataGoError(RulelabError):
    """KataGo refused a position, answered nonsense, stopped or took too long."""

    status = "katago_error"


def find_katago(binary: str | None = None, model: str | None = None,
                config: str | None = None) -> tuple[str, str, str]:
    """The engine's ``(binary, model, config)``: arguments, then environment, then ``make katago``'s.

    Raises
    ------
    KataGoUnavailable
        One of the three is not a file; the message says where it was looked for.
    """
    given = {"binary": binary, "model": model, "config": config}
    installed = dict(zip(("binary", "model", "config"), installed_paths(DEFAULT_HOME)))
    found = []
    for name in ("binary", "model", "config"):
        path = given[name] or os.environ.get(ENVIRONMENT[name]) or str(installed[name])
        if name == "binary" and not Path(path).is_file():
            path = shutil.which(path) or path
        if not Path(path).is_file():
            raise KataGoUnavailable(
                f"KataGo's {name} not found at {path}: run 'make katago', or name it with "
                f"--katago{'' if name == 'binary' else '-' + name} or ${ENVIRONMENT[name]}")
        found.append(path)
    return found[0], found[1], found[2]


def dead_chains(board: np.ndarray, ownership: np.ndarray) -> np.ndarray:
    """Stones of the chains that ``ownership`` (Black positive) gives away.

    Examples
    --------
    >>> board = np.array([[1, 1, 2]], dtype=np.int8)
    >>> dead_chains(board, np.array([[0.9, -0.7, -0.9]])).tolist()
    [[True, True, False]]
    """
    dead = np.zeros(board.shape, dtype=bool)
    for colour, sign in ((BLACK, 1.0), (WHITE, -1.0)):
        chains, count = ndimage.label(board == colour, _FOUR)
        if count == 0:
            continue
        own = sign * ownership
        index = np.arange(1, count + 1)
        mean = ndimage.mean(own, chains, index)
        worst = ndimage.minimum(own, chains, index)
        doomed = index[(mean < DEAD_MEAN) | (worst < DEAD_WORST)]
        dead |= np.isin(chains, doomed)
    return dead


def katago_takes(shape: tuple[int, int]) -> bool:
    """Whether KataGo can read a board of ``shape`` (rows, cols)."""
    return all(MIN_KATAGO_SIZE <= side <= MAX_KATAGO_SIZE for side in shape)


def query(position: Position, query_id: str) -> dict:
    """The analysis engine's query for one position: its stones, no history, one visit."""
    board = position.board
    rows, cols = board.shape
    if not katago_takes(board.shape):
        raise KataGoError(f"KataGo takes boards of {MIN_KATAGO_SIZE} to {MAX_KATAGO_SIZE} points a side; "
                          f"got {rows}x{cols}")
    stones = [[COLOUR_NAME[int(board[r, c])], gtp_vertex(r, c, rows)] for r, c in zip(*np.nonzero(board))]
    return {"id": query_id, "initialStones": stones, "moves": [], "rules": "chinese",
            "komi": KOMI, "boardXSize": cols, "boardYSize": rows, "maxVisits": 1,
            "initialPlayer": COLOUR_NAME[position.to_move if position.to_move != EMPTY else BLACK],
            "includeOwnership": True, "includePolicy": False}


class KataGo(ExternalEngine):
    """One KataGo analysis engine; reuse it for many positions (start-up costs seconds).

    Parameters
    ----------
    binary, model, config : str, optional
        The engine's files (see :func:`find_katago`).
    timeout : float
        Seconds to wait for each answer before giving up.

    Raises
    ------
    KataGoUnavailable
        A file cannot be found.

    Examples
    --------
    >>> with KataGo() as engine:                       # doctest: +SKIP
    ...     dead = engine.dead_stones([position])[0]
    """

    def __init__(self, binary: str | None = None, model: str | None = None,
                 config: str | None = None, *, timeout: float = 300.0):
        binary, model, config = find_katago(binary, model, config)
        self.timeout = timeout
        self._log = tempfile.TemporaryFile(mode="w+")
        self._process = subprocess.Popen(
            [binary, "analysis", "-config", config, "-model", model],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log, text=True, bufsize=1)
        self._answers: queue.Queue[str | None] = queue.Queue()
        self._queries = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self._process.stdout:
            self._answers.put(line)
        self._answers.put(None)

    def close(self) -> None:
        """Stop the engine: end its input, then kill it if it lingers."""
        super().close()
        self._log.close()

    def _failure(self, what: str) -> KataGoError:
        self._log.seek(0)
        tail = " | ".join(self._log.read().strip().splitlines()[-3:])
        return KataGoError(f"katago {what}" + (f": {tail}" if tail else ""))

    def ownership(self, positions: Sequence[Position]) -> list[np.ndarray]:
        """The net's ownership of each position, Black positive, all sent in one batch."""
        ids = []
        try:
            for position in positions:
                self._queries += 1
                ids.append(str(self._queries))
                self._process.stdin.write(json.dumps(query(position, ids[-1])) + "\n")
            self._process.stdin.flush()
        except OSError as exc:
            raise self._failure(f"stopped before taking every position ({exc})") from exc
        answers = {}
        while len(answers) < len(ids):
            try:
                line = self._answers.get(timeout=self.timeout)
            except queue.Empty:
                raise self._failure(f"gave no answer within {self.timeout:.0f} s") from None
            if line is None:
                raise self._failure("stopped while answering")
            answer = json.loads(line)
            if "error" in answer:
                raise KataGoError(f"katago refused a position: {answer['error']}")
            if answer.get("id") in ids and not answer.get("isDuringSearch", False):
                answers[answer["id"]] = answer
        return [np.asarray(answers[i]["ownership"], dtype=float).reshape(p.board.shape)
                for i, p in zip(ids, positions)]

    def dead_stones(self, positions: Sequence[Position]) -> list[np.ndarray]:
        """The stones of each position that KataGo's ownership calls dead (whole chains)."""
        return [dead_chains(p.board, o) for p, o in zip(positions, self.ownership(positions))]


_shared: dict[tuple, KataGo] = {}


def shared_katago(binary: str | None = None, model: str | None = None, config: str | None = None) -> KataGo:
    """One engine per process and set of files (:func:`find_katago`), kept open for every
    later call (a scoring run asks for thousands of positions; starting one takes seconds)."""
    key = find_katago(binary, model, config)
    engine = _shared.get(key)
    if engine is None or engine._process.poll() is not None:
        engine = _shared[key] = KataGo(*key)
    return engine


@atexit.register
def _close_shared() -> None:
    for engine in _shared.values():
        engine.close()
