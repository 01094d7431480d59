"""Dead stones of a finished position, proven where possible and estimated elsewhere.

Layers, surest first:

1. **Proof.** Benson's pass-alive analysis (with suicide legal, the stricter variant,
   so the proof holds under every ruleset) settles strings that can never be
   captured and regions where the opponent can never live; opponent stones in such
   a region are dead. Settled points are closed to the playouts.
2. **Playouts.** For the remaining stones, :mod:`rulelab.life.playout` plays the
   position out many times; a stone whose colour keeps its point in fewer than half
   of the playouts is dead. Seki stones survive them (neither side fills a shared
   liberty); which stones are in seki is the scorer's to say, not the playouts'.
3. **Corrections** where playouts are known to be weak: strings the playouts leave
   undecided get a second look (:mod:`rulelab.life.undecided`), which weighs what
   surrounds them, among it whether safe opponent stones wall them in
   (:mod:`rulelab.life.enclosure`); groups shut in around one small eye space are
   read exactly (:mod:`rulelab.life.reading`) and may raise a rule flag (bent four in
   the corner).
4. **Strings left in atari.** An undecided string in atari that the opponent can
   take cleanly is captured and the rest of the board estimated again
   (:mod:`rulelab.life.atari`): random play otherwise lets it escape in half of the
   playouts and turns a lost race into a coin toss.
   A single stone in atari whose capture is a ko stays alive: players who pass with
   the ko open count it as it stands.

The share of playouts in which a stone survives is kept as its *survival*; how far
it is from one half is the estimate's confidence.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from rulelab.board import pad
from rulelab.life.atari import cleanly_captured, held_by_ko
from rulelab.life.benson import pass_alive
from rulelab.life.enclosure import enclosure_verdicts
from rulelab.life.playout import SEKI_ROW, playout_counts
from rulelab.life.reading import Reading, read_enclosed
from rulelab.life.settle import unsettled_points
from rulelab.life.undecided import second_look, string_features
from rulelab.position import BLACK, EMPTY, WHITE

N_PLAYOUTS = 128
"""Most playouts per position; 32 are noticeably noisier (measured on KGS markup). 128
rather than 64 (refitted, mean over seeds 0-3 of kgs-dev): 4,202 games within 1 point
against 4,197, and 53 where only KataGo is against 57; the median position is clear
after 32 and costs the same, the mean costs 16% more."""
CHECK_EVERY = 16
CLEAR_MARGIN = 0.25 * 2 ** 0.5
"""After every :data:`CHECK_EVERY` playouts the rest are skipped if every stone's
survival share is at least ``CLEAR_MARGIN * sqrt(CHECK_EVERY / n)`` away from one half
after ``n``: a margin shrinking with the standard error, so the same number of standard
errors at every check (0.25 after 32 playouts). Against a fixed 0.25 checked every 32 it
kept the same games within 1 point of kgs-dev on seeds 0-3 (4,200 / 4,202 / 4,205 /
4,201, ``rulelab validate --seed N``), the same marks to the stone on seeds 0-2 and the
same Tygem games, and in one run against the same margin checked every 32 it cut the
estimate of a finished marked 2017 position from 1.81 to 1.49 ms in the mean and from
1.19 to 0.85 ms in the median. A fixed 0.25 after 16 playouts lost 3 of the 1,017
held-out KGS2002 games: a large group looks clearly dead or alive after 16 playouts
more often than it is, hence the wider first margin."""
PROBE_PLAYOUTS = 12
"""Playouts of the probe of a board that stopped early, and of its rough estimate. On
the 2,982 19x19 boards of kgs-dev's first 3,000 resigned KGS games (seeds 0-2), the
Chinese winner it estimates agrees with the resignation on 86.2% of games in the mean,
against 86.6% with 16 and 85.8% with 8, at 84% of the time of 16 (8: 70%): resigned
boards are most of a collection, and their estimate is a rough one whatever it costs."""
FAR_FROM_SETTLED = 0.15
"""A record that stopped before both players passed (a resignation) and whose board
still has open points (:func:`rulelab.life.settle.unsettled_points`, once the stones
:data:`PROBE_PLAYOUTS` playouts call dead are removed) on more than this share of its
points gets a rough estimate: proof and those playouts only. Its score is an estimate
whatever more work says; on kgs-dev, resigned games leave 174 open points of 361 in
the median. Records that ended by passes always get the full estimate: a probe that
misjudges a large dead group leaves many points open on a finished board too."""
SAFE_WALL = 0.9
"""Survival share above which the stones around an enclosed group count as safe,
so the group's exact reading can overrule the playouts (see :func:`_walls_hold`)."""
BENT_FOUR = "bent_four_in_the_corner"
KO_TO_KILL = "ko_to_kill"


@dataclass(frozen=True)
class Estimate:
    """Everything the estimator learned about one board."""

    dead: np.ndarray
    """bool ``(rows, cols)``: stones judged dead."""
    proven: np.ndarray
    """bool ``(rows, cols)``: stones whose fate Benson's analysis proved."""
    survival: np.ndarray
    """float ``(rows, cols)``: share of playouts in which the stone kept its point
    (1 or 0 for proven or exactly read stones, 0 for strings taken in atari, NaN on
    empty points)."""
    seki_share: np.ndarray
    """float ``(rows, cols)``: share of playouts ending in seki at the point (a shared
    liberty, or a stone whose string touches one): evidence that keeps the corrections
    off seki, never a seki verdict."""
    flags: tuple[str, ...] = ()
    """Kills that need a ko: :data:`BENT_FOUR` in a corner (dead by the Japanese 1989
    rules, to be played out under others), :data:`KO_TO_KILL` elsewhere."""
    ko_kills: tuple[Reading, ...] = ()
    """The readings behind those flags: where the rules may decide the group's life
    differently (:mod:`rulelab.life.status`)."""

    @property
    def confidence(self) -> float:
        """Certainty of the least certain estimated stone, ``|2 survival - 1|``; 1.0
        when proof settled every stone."""
        guessed = ~np.isnan(self.survival) & ~self.proven
        if not guessed.any():
            return 1.0
        return float(np.abs(2 * self.survival[guessed] - 1).min())


def playout_shares(board: np.ndarray, playable: np.ndarray, to_move: int, n_playouts: int,
                   seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(survival, seki_share, dead)`` from playouts that only play on ``playable``
    points.

    ``seki_share`` is, on empty points, the share of playouts leaving them a shared
    liberty and, on stones, the share leaving their string touching one. ``dead`` is
    their verdict: stones kept in under half of them, except that the strings they
    leave undecided are judged by :mod:`rulelab.life.undecided`.
    """
    rows, cols = board.shape
    padded, shares, survival, neutral, enclosed = _second_look_inputs(board, playable, to_move, n_playouts, seed)
    looked, judged = (mask.reshape(rows + 2, cols + 2)[1:-1, 1:-1]
                      for mask in second_look(padded, cols + 2, shares, enclosed))
    dead = (board != EMPTY) & np.where(looked, judged, survival < 0.5)
    seki_row = shares[SEKI_ROW].reshape(rows + 2, cols + 2)[1:-1, 1:-1]
    return survival, np.where(board == EMPTY, neutral, seki_row), dead


def _survival_and_neutral(board: np.ndarray, shares: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per point of ``board``, the share of playouts its stone kept its point (NaN on
    empty points) and the share leaving it a shared liberty."""
    rows, cols = board.shape
    inner = shares.reshape(len(shares), rows + 2, cols + 2)[:, 1:-1, 1:-1]
    survival = np.where(board == BLACK, inner[BLACK], np.where(board == WHITE, inner[WHITE], np.nan))
    return survival, inner[0]


def _second_look_inputs(board: np.ndarray, playable: np.ndarray, to_move: int, n_playouts: int,
                        seed: int) -> tuple[np.ndarray, ...]:
    """``(padded, shares, survival, neutral, enclosed)``: the padded board, the playouts'
    counts of :func:`playout_counts` as shares, those of :func:`_survival_and_neutral`,
    and the padded verdicts of :func:`rulelab.life.enclosure.enclosure_verdicts`."""
    padded = pad(board)
    counts, done = playout_counts(padded, board.shape[1] + 2, pad(playable.astype(np.int8)).astype(bool),
                                  to_move, n_playouts, seed, CHECK_EVERY, CLEAR_MARGIN)
    shares = counts / done
    survival, neutral = _survival_and_neutral(board, shares)
    return padded, shares, survival, neutral, pad(enclosure_verdicts(board, survival, neutral))


def undecided_strings(board: np.ndarray, to_move: int = BLACK,
                      seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """What :mod:`rulelab.life.undecided` sees of a board as the estimate's first pass
    does: ``(rows, members)`` of :func:`rulelab.life.undecided.string_features`, with
    ``members`` on the unpadded board; the data its model is fitted on."""
    _, _, playable, _ = _proof(board)
    padded, shares, _, _, enclosed = _second_look_inputs(board, playable, to_move, N_PLAYOUTS, seed)
    rows, members = string_features(padded, board.shape[1] + 2, shares, enclosed)
    return rows, members.reshape(board.shape[0] + 2, board.shape[1] + 2)[1:-1, 1:-1]


def estimate_life(board: np.ndarray, to_move: int = BLACK, *, n_playouts: int = N_PLAYOUTS,
                  seed: int = 0, stopped_early: bool = False) -> Estimate:
    """Decide which stones of a finished board are dead.

    Parameters
    ----------
    board : np.ndarray
        int8 ``(rows, cols)`` final board.
    to_move : int
        The colour to move; playouts alternate who starts, beginning with it.
    n_playouts : int
        Most playouts for the stones proof leaves open.
    seed : int
        Seed of the playouts: the same seed gives the same verdict.
    stopped_early : bool
        The record stopped before both players passed (a resignation, a timeout): a
        board still far from settled gets the rough estimate (:data:`FAR_FROM_SETTLED`).

    Returns
    -------
    Estimate

    Examples
    --------
    >>> from rulelab.position import board_from_diagram
    >>> board = board_from_diagram('''
    ... . X . X O . .
    ... X X X X O . .
    ... O O O O O . X
    ... . . . . . . .
    ... ''')
    >>> estimate = estimate_life(board)
    >>> bool(estimate.dead[2, 6]), bool(estimate.dead[0, 1])
    (True, False)
    """
    if stopped_early:
        rough = _rough_estimate(board, to_move, seed)
        if rough is not None:
            return rough
    estimate = _estimate_in_place(board, to_move, n_playouts, seed)
    held = held_by_ko(board, estimate.survival, estimate.dead)
    if held.any():
        estimate = replace(estimate, dead=estimate.dead & ~held,
                           survival=np.where(held, 1.0, estimate.survival))
    captured = cleanly_captured(board, estimate.survival)
    if not captured.any():
        return estimate
    rest = estimate_life(np.where(captured, EMPTY, board).astype(np.int8), to_move,
                         n_playouts=n_playouts, seed=seed)
    return Estimate(dead=rest.dead | captured, proven=rest.proven,
                    survival=np.where(captured, 0.0, rest.survival), seki_share=rest.seki_share,
                    flags=rest.flags, ko_kills=rest.ko_kills)


def proof(board: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Benson's analysis with suicide legal, so it holds under every ruleset: ``(dead,
    proven, settled)``, the stones it proves dead, those whose fate it proves, and every
    point it settles (proven stones and pass-alive territory)."""
    analysis = pass_alive(board, suicide_legal=True)
    dead = (board != EMPTY) & (analysis.territory == 3 - board)
    proven = analysis.alive | dead
    return dead, proven, proven | (analysis.territory != EMPTY)


def _proof(board: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Where every estimate starts: ``(dead, proven, playable, survival)`` from
    :func:`proof`; the playouts keep off the points it settled."""
    dead, proven, settled = proof(board)
    survival = np.where(board != EMPTY, (proven & ~dead).astype(float), np.nan)
    return dead, proven, ~settled, survival


def _rough_estimate(board: np.ndarray, to_move: int, seed: int) -> Estimate | None:
    """Proof and :data:`PROBE_PLAYOUTS` playouts, for a board far from settled; None
    when the board is near enough to settled to deserve the full estimate."""
    dead, proven, playable, survival = _proof(board)
    shares, seki_share, guessed_dead = playout_shares(board, playable, to_move, PROBE_PLAYOUTS, seed)
    guessed = (board != EMPTY) & ~proven
    dead = dead | (guessed & guessed_dead)
    if unsettled_points(board, dead).sum() <= FAR_FROM_SETTLED * board.size:
        return None
    return Estimate(dead=dead, proven=proven, survival=np.where(guessed, shares, survival),
                    seki_share=seki_share)


def _estimate_in_place(board: np.ndarray, to_move: int, n_playouts: int, seed: int) -> Estimate:
    """One pass of proof, playouts and corrections over ``board`` as it stands."""
    stones = board != EMPTY
    dead, proven, playable, survival = _proof(board)
    seki_share = np.zeros(board.shape)
    flags: list[str] = []
    ko_kills: list[Reading] = []
    if (stones & ~proven).any():
        shares, seki_share, guessed_dead = playout_shares(board, playable, to_move, n_playouts, seed)
        survival = np.where(proven, survival, shares)
        dead = dead | (~proven & guessed_dead)

        def overrulable(group: np.ndarray, walls: np.ndarray) -> bool:
            return not ((survival[walls] < 0.5).any() or (proven & group).any())

        for reading in read_enclosed(board, overrulable, survival, seki_share):
            if not _walls_hold(board, reading, survival, to_move, n_playouts, seed):
                continue
            dead[reading.stones] = reading.dead
            survival[reading.stones] = 0.0 if reading.dead else 1.0
            if reading.dead:
                inside = reading.space & stones
                dead[inside], survival[inside] = False, 1.0
                seki_share[reading.stones | reading.space] = 0.0
                if reading.needs_ko:
                    flags.append(BENT_FOUR if reading.in_corner else KO_TO_KILL)
                    ko_kills.append(reading)
    return Estimate(dead=dead, proven=proven, survival=survival, seki_share=seki_share,
                    flags=tuple(sorted(set(flags))), ko_kills=tuple(ko_kills))


def _walls_hold(board: np.ndarray, reading: Reading, survival: np.ndarray, to_move: int,
                n_playouts: int, seed: int) -> bool:
    """Whether the walls of a read group are safe enough for its reading to overrule the
    playouts: safe in them (:data:`SAFE_WALL`) or, for a group read dead, safe in the
    playouts of the board with its stones taken.

    The playouts cannot kill such a group (that is why it is read: a kill that needs a
    precise move or a ko), so they let it win every race against walls that live by one
    small area of their own, as walls often do on small boards: a 9x7 wall living by a
    2x4 area kept its point in 90-93% of 512 playouts (seeds 0-3), so a bent four in the
    corner beside it stayed alive or died with the seed. Walls the playouts kill in most games are no
    walls at all (the reading is not asked, ``overrulable``).
    """
    if (survival[reading.walls] >= SAFE_WALL).all():
        return True
    if not reading.dead:
        return False
    taken = np.where(reading.stones, EMPTY, board).astype(np.int8)
    _, proven, playable, kept = _proof(taken)
    shares, _, _ = playout_shares(taken, playable, to_move, n_playouts, seed)
    kept = np.where(proven, kept, shares)
    return bool((kept[reading.walls] >= SAFE_WALL).all())
