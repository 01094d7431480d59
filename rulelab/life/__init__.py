"""Life and death at the end of the game: which stones are dead.

:func:`decide_life` is the entry point. Its default method layers the sources of
truth from the surest to the cheapest guess:

1. ``markup`` — the record's ``TB``/``TW`` territory, the players' own agreement
   (:mod:`rulelab.life.markup`);
2. ``proof`` — Benson's pass-alive analysis (:mod:`rulelab.life.benson`);
3. ``estimate`` — playouts from the finished position for what proof leaves open
   (:mod:`rulelab.life.estimate`).

GNU Go and KataGo are available as backends and cross-checks (:mod:`rulelab.life.gnugo`,
:mod:`rulelab.life.katago`), never by default. Which live stones are in seki is the
scorer's to find (:attr:`rulelab.scoring.PointClasses.seki`), whatever decided the dead.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

import rulelab.shadowing  # noqa: F401  (first: names a folder that shadows the package)
from rulelab.life.estimate import Estimate, estimate_life
from rulelab.life.gnugo import GnuGo, GnuGoError, GnuGoUnavailable, find_gnugo
from rulelab.life.katago import KataGo, KataGoError, KataGoUnavailable
from rulelab.life.methods import LifeMethod, life_method
from rulelab.life.settle import unsettled_points
from rulelab.life.verdict import LifeError, LifeVerdict
from rulelab.life_methods import METHODS
from rulelab.position import EMPTY, WHITE, Position

__all__ = [
    "METHODS", "Estimate", "GnuGo", "GnuGoError", "GnuGoUnavailable", "KataGo", "KataGoError",
    "KataGoUnavailable", "LifeError", "LifeMethod", "LifeVerdict", "check_method", "check_seed",
    "decide_life", "decide_lives", "estimate_life", "find_gnugo", "life_method", "unsettled_points",
]


def decide_life(position: Position, method: str = "auto", *, rng_seed: int = 0) -> LifeVerdict:
    """Decide the dead stones of a final position.

    Parameters
    ----------
    position : Position
        The final position; ``territory_marks`` holds the record's marks, if any.
    method : {'auto', 'estimate', 'markup', 'gnugo', 'katago'}
        ``auto`` uses the record's marks when present, else proof and playouts;
        ``estimate`` ignores the marks (to measure the estimator against them);
        ``markup`` uses only the marks (none: every stone alive, method ``'none'``,
        confidence 0); ``gnugo`` asks GNU Go; ``katago`` asks KataGo's net
        (:mod:`rulelab.life.katago`; for many positions :func:`decide_lives` batches them).
    rng_seed : int
        Seed of the playouts (non-negative); the verdict is a function of the
        position, the method and the seed.

    Returns
    -------
    LifeVerdict
        ``method`` names the layer that decided the least certain stone
        (``'markup'``, ``'proof'``, ``'estimate'``, ``'gnugo'``, ``'katago'`` or ``'none'``);
        ``confidence`` is 1.0 for marks and proofs, and for estimates the certainty of
        the least certain stone; ``proven`` the stones Benson's analysis settles.

    Raises
    ------
    LifeError
        A position that is not a :class:`Position` of a valid board, an unknown
        method, or a bad seed.
    GnuGoUnavailable
        ``method='gnugo'`` and the binary cannot be found.
    GnuGoError
        ``method='gnugo'`` on a board GNU Go cannot take (not square, or above
        19×19), or GNU Go failing; for many positions keep one :class:`GnuGo`
        process open instead of starting one per call.
    KataGoUnavailable, KataGoError
        ``method='katago'`` and the engine cannot be found, refuses the board (a side
        above 19 or of one point) or fails. A run (``rulelab score``) has the estimator
        decide the boards an engine cannot take (:func:`rulelab.life.methods.on_board`).

    Examples
    --------
    >>> position = Position.from_diagram('''
    ... . X O . O
    ... X X O O O
    ... . X O . .
    ... X X O O O
    ... ''')
    >>> life = decide_life(position)
    >>> life.method, bool(life.dead.any())
    ('proof', False)
    """
    _check(position, method, rng_seed)
    return life_method(method).decide(position, rng_seed=rng_seed)


def decide_lives(positions: Sequence[Position], method: str = "auto", *,
                 rng_seed: int = 0) -> list[LifeVerdict]:
    """:func:`decide_life` of each position; KataGo's are sent to the engine in one batch,
    which it evaluates faster than one by one."""
    for position in positions:
        _check(position, method, rng_seed)
    return life_method(method).decide_batch(positions, rng_seed=rng_seed)


def check_method(method: str) -> None:
    """Refuse a life method that is not one of :data:`METHODS`, with a :class:`LifeError`:
    the check of :func:`decide_life` and of the runs that will call it, at their door."""
    life_method(method)


def _check(position: Position, method: str, rng_seed: int) -> None:
    """Validate :func:`decide_life`'s arguments once, at the door."""
    if not isinstance(position, Position):
        raise LifeError(f"decide_life needs a Position; got {type(position).__name__}")
    board = position.board
    if not isinstance(board, np.ndarray) or board.ndim != 2 or board.dtype != np.int8 or min(board.shape) < 1:
        raise LifeError("the position's board must be a non-empty 2-D np.int8 array; "
                        f"got {getattr(board, 'dtype', type(board))} {np.shape(board)}")
    if board.min() < EMPTY or board.max() > WHITE:
        raise LifeError("the position's board may hold only 0 (empty), 1 (black) and 2 (white)")
    marks = position.territory_marks
    if marks is not None and np.shape(marks) != board.shape:
        raise LifeError(f"territory marks of shape {np.shape(marks)} do not fit a {board.shape} board")
    check_method(method)
    check_seed(rng_seed)


def check_seed(seed) -> None:
    """Refuse a seed the playouts cannot take (they need a non-negative 64-bit integer)."""
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise LifeError(f"rng_seed must be a non-negative integer; got {seed!r}")
