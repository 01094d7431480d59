"""The ways a run decides dead stones, as objects.

Each method decides one position (:meth:`LifeMethod.decide`) or many at once
(:meth:`LifeMethod.decide_batch`, which an engine evaluates faster than one by one), and
says what else its verdicts depend on (:meth:`LifeMethod.provenance`: KataGo's files), so
that a run asks its method rather than branching on the method's name, and an engine's
files travel with the method — to worker processes too — rather than through the
environment. :func:`life_method` makes one from a name of :data:`rulelab.life_methods.METHODS`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from rulelab.life.estimate import estimate_life, proof
from rulelab.life.gnugo import GnuGo, gnugo_takes
from rulelab.life.katago import find_katago, katago_takes, shared_katago
from rulelab.life.markup import has_markup, marked_dead
from rulelab.life.settle import is_finished, unsettled_points
from rulelab.life.verdict import LifeError, LifeVerdict
from rulelab.life_methods import METHODS
from rulelab.position import EMPTY, Position


@dataclass(frozen=True)
class LifeMethod(ABC):
    """A way of deciding dead stones; ``name`` is what the tables call it."""

    name: str

    batched = False
    """Whether :meth:`decide_batch` is faster than deciding the positions one by one."""

    @abstractmethod
    def decide(self, position: Position, *, rng_seed: int = 0) -> LifeVerdict:
        """The verdict on one position (``rng_seed`` seeds the playouts of the methods that run them)."""

    def decide_batch(self, positions: Sequence[Position], *, rng_seed: int = 0) -> list[LifeVerdict]:
        return [self.decide(position, rng_seed=rng_seed) for position in positions]

    def provenance(self) -> dict:
        """What besides the name and the seed the verdicts depend on, for the scores'
        provenance (a run with other engine files makes its parts again)."""
        return {}

    def takes(self, shape: tuple[int, int]) -> bool:
        """Whether the method can decide a board of ``shape``: an engine reads only the
        boards it was built for, rulelab's own methods every board SGF allows."""
        return True


@dataclass(frozen=True)
class EstimateMethod(LifeMethod):
    """Benson's proof, then playouts for what it leaves open; the record's marks ignored."""

    name: str = "estimate"

    def decide(self, position: Position, *, rng_seed: int = 0) -> LifeVerdict:
        board = position.board
        estimate = estimate_life(board, position.to_move, seed=rng_seed, stopped_early=position.stopped_early)
        proof_only = bool((estimate.proven | (board == EMPTY)).all())
        return verdict_of(position, estimate.dead, estimate.proven, "proof" if proof_only else "estimate",
                          estimate.confidence, estimate.flags, estimate.ko_kills)


@dataclass(frozen=True)
class MarkupMethod(LifeMethod):
    """The record's ``TB``/``TW`` marks only; without them every stone lives (method 'none')."""

    name: str = "markup"

    def decide(self, position: Position, *, rng_seed: int = 0) -> LifeVerdict:
        if has_markup(position):
            return given(position, marked_dead(position.board, position.territory_marks), "markup")
        return given(position, np.zeros(position.board.shape, bool), "none", 0.0)


@dataclass(frozen=True)
class AutoMethod(LifeMethod):
    """The record's marks when it has them, else :class:`EstimateMethod`."""

    name: str = "auto"

    def decide(self, position: Position, *, rng_seed: int = 0) -> LifeVerdict:
        if has_markup(position):
            return MarkupMethod().decide(position)
        return EstimateMethod().decide(position, rng_seed=rng_seed)


@dataclass(frozen=True)
class GnuGoMethod(LifeMethod):
    """GNU Go's dead stones (a process per call: keep a :class:`GnuGo` open for many)."""

    name: str = "gnugo"

    def takes(self, shape: tuple[int, int]) -> bool:
        return gnugo_takes(shape)

    def decide(self, position: Position, *, rng_seed: int = 0) -> LifeVerdict:
        with GnuGo() as engine:
            return given(position, engine.decide_life(position).dead, "gnugo")


@dataclass(frozen=True)
class KataGoMethod(LifeMethod):
    """KataGo's net, one engine per process and set of files, positions sent in batches.

    ``files`` are ``(binary, model, config)``, each None to be found as
    :func:`rulelab.life.katago.find_katago` finds it."""

    name: str = "katago"
    files: tuple[str | None, str | None, str | None] = (None, None, None)

    batched = True

    def takes(self, shape: tuple[int, int]) -> bool:
        return katago_takes(shape)

    def decide(self, position: Position, *, rng_seed: int = 0) -> LifeVerdict:
        return self.decide_batch([position])[0]

    def decide_batch(self, positions: Sequence[Position], *, rng_seed: int = 0) -> list[LifeVerdict]:
        dead = shared_katago(*self.files).dead_stones(positions)
        return [given(position, stones, "katago") for position, stones in zip(positions, dead)]

    def provenance(self) -> dict:
        return {"katago": list(find_katago(*self.files))}


_BY_NAME = {"auto": AutoMethod, "estimate": EstimateMethod, "markup": MarkupMethod, "gnugo": GnuGoMethod,
            "katago": KataGoMethod}


def life_method(name: str | LifeMethod, *,
                katago: tuple[str | None, str | None, str | None] = (None, None, None)) -> LifeMethod:
    """The method called ``name`` (one of :data:`~rulelab.life_methods.METHODS`; a method is
    returned as it is); ``katago`` names KataGo's ``(binary, model, config)`` for ``'katago'``.

    Examples
    --------
    >>> life_method("auto").name, life_method("katago", katago=("k", "m", "c")).files
    ('auto', ('k', 'm', 'c'))
    """
    if isinstance(name, LifeMethod):
        return name
    if name not in METHODS:
        raise LifeError(f"The life method must be one of {', '.join(METHODS)}; got {name!r}")
    return KataGoMethod(files=tuple(katago)) if name == "katago" else _BY_NAME[name]()


def on_board(method: LifeMethod, shape: tuple[int, int]) -> LifeMethod:
    """The method that decides a board of ``shape`` in a run with ``method``: the estimator
    where an engine cannot read the board (GNU Go past 19x19, KataGo past 19 a side or one
    point wide), so such a game is scored, and its life row names the method that decided it.

    >>> on_board(GnuGoMethod(), (37, 37)).name, on_board(GnuGoMethod(), (19, 19)).name
    ('estimate', 'gnugo')
    """
    return method if method.takes(shape) else EstimateMethod()


def given(position: Position, dead: np.ndarray, method: str, confidence: float = 1.0) -> LifeVerdict:
    """The verdict of a source that names dead stones only (the players' marks, an
    engine), with the stones Benson's analysis proves; no playout runs for it."""
    return verdict_of(position, dead, proof(position.board)[1], method, confidence)


def verdict_of(position: Position, dead: np.ndarray, proven: np.ndarray, method: str,
               confidence: float, flags: tuple[str, ...] = (), ko_kills: tuple = ()) -> LifeVerdict:
    """A verdict with what follows from its dead stones: which points are still open, and
    whether the position is finished."""
    open_points = unsettled_points(position.board, dead)
    return LifeVerdict(
        dead=dead, method=method, confidence=confidence,
        finished=is_finished(position, open_points), proven=proven,
        unsettled=int(open_points.sum()), flags=flags, ko_kills=ko_kills,
    )
