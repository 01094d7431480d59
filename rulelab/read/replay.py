"""Replay a game's main-line events into the final :class:`~rulelab.position.Position`.

The record is the authority, so replay never stops at an illegal move: it notes the
move and keeps the board in step with what the players did.

- A move onto an occupied point cannot be played: it is skipped (it still counts as a
  move, gives the turn to the opponent and clears any ko, like a pass).
- A suicide the rules forbid is played as if suicide were legal (the stone and its
  string are removed and count as captured), and recorded as ``'suicide'``.
- A simple-ko recapture is played with its captures and recorded as ``'ko'``.
- Under a superko rule (``ko='positional'`` or ``'situational'``), a stone move that
  recreates a position an earlier move event (pass and skipped move included) was made
  from is recorded as ``'superko'``: a detection, not a refusal. Positional superko
  compares the stones alone; situational superko also the side to move (the mover from
  the earlier position, the mover's opponent after this move), which is AGA's and NZ's
  rule read in the record's order of play. A move already recorded as ``'ko'`` or
  ``'suicide'`` is not recorded twice. Positions are compared by 64-bit Zobrist hash,
  the side to move as one more key.
- The simple ko binds only the opponent's next move event: a pass, a skipped move or
  a second move by the capturer releases it.
- The first whole-board repetition of the main line is kept as a cycle: a legal stone
  move that recreates, with no pass and no illegal move between (nor two moves of one
  colour in a row, a pass left out), the stones left by an earlier event (a suicide
  played anyway, or a simple-ko recapture, repeats a board too); :mod:`rulelab.read.cycles` names its kind (triple ko, eternal life, round robin)
  from the captures and ko takes in between.

Setup events (``AB``/``AW``/``AE``) may stand anywhere. They never capture, and they
clear the ko. ``AE`` on a stone subtracts it from ``placed``; ``AB``/``AW`` on a stone
of the other colour replaces it (the old stone is subtracted from its colour's
``placed``, the new one added); on a stone of the same colour it changes nothing. So
``placed_c == stones_on_board_c + captured_c`` holds for both colours at the end.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from rulelab.board import (
    KO,
    LEGAL,
    NO_POINT,
    OCCUPIED,
    STATUS_NAMES,
    SUICIDE_ANY,
    SUICIDE_RULES,
    check_board_size,
    empty_board,
    play,
    point_coords,
    point_index,
    unpad,
    zobrist_keys,
)
from rulelab.errors import GameError, IllegalMoveError, RulesError
from rulelab.position import BLACK, EMPTY, WHITE, Position
from rulelab.read.cycles import cycle_kind
from rulelab.read.sgf.events import MOVE, PASS, SETUP_ADD, SETUP_EMPTY
SUPERKO = len(STATUS_NAMES)
"""Reason code of a superko repetition, after the :mod:`rulelab.board` codes."""
REASONS = STATUS_NAMES + ("superko",)
KO_SIMPLE, KO_POSITIONAL, KO_SITUATIONAL = 0, 1, 2
KO_RULES = {"simple": KO_SIMPLE, "positional": KO_POSITIONAL, "situational": KO_SITUATIONAL}
"""The ko rules of :class:`rulelab.rules.Ruleset`, as the replay kernel's codes."""
WHITE_TO_MOVE = np.uint64(0xD0E7B573438D9630)
"""Key of White to move in a situational hash: ``splitmix64`` of the Zobrist seed and
the slot after every stone's (:func:`rulelab.board.zobrist_keys`)."""


@dataclass(frozen=True)
class Replay:
    """The outcome of replaying one game: its final position and what happened on the way."""

    position: Position
    """The final position, every field filled."""
    moves: int
    """Move events, passes and skipped moves included."""
    illegal: list[tuple[int, str]]
    """``(move number from 1, reason)``, reason one of 'occupied', 'suicide', 'ko', 'superko'."""
    last_mover: int
    """Colour of the last move event, pass included (``EMPTY`` if there were none)."""
    ended_by_passes: bool
    """The last two move events are passes by both colours."""
    cycle: tuple[int, int] | None = None
    """``(start, end)``: move ``end`` (from 1) recreated the stones left after move
    ``start`` (0: before the first move); None when nothing repeated."""
    cycle_kind: str | None = None
    """The cycle's kind (:func:`rulelab.read.cycles.cycle_kind`)."""
    ended_in_cycle: bool = False
    """The record ends on a board of the cycle, and not by two passes: the players
    stopped in it, rather than one of them breaking it or both passing to a count."""


@numba.njit(cache=True)
def _slot(keys, values, h):
    """Where ``h`` is, or would go, in an open-addressing table of a power-of-two size
    (``values`` -1 on a free slot). On 2,000 19x19 kgs-dev games replay takes 26 us a
    game with it, 38 with a numba typed dict, and 23 without finding cycles."""
    mask = len(keys) - 1
    i = np.int64(h & np.uint64(mask))
    while values[i] >= 0 and keys[i] != h:
        i = (i + 1) & mask
    return i


@numba.njit(cache=True)
def _remember(keys, values, h, move):
    """Put ``h`` → ``move`` in the table of :func:`_slot`."""
    i = _slot(keys, values, h)
    keys[i], values[i] = h, move


@numba.njit(cache=True)
def _replay_events(rows, cols, events, suicide, ko_rule):
    """Replay ``events`` on an empty board; every count a :class:`Replay` needs.

    Counters are indexed by colour (index 0 unused). Returns the padded board, the
    counters, the illegal moves as two arrays (move numbers, reason codes), and the
    scalars of the end state.
    """
    stride = cols + 2
    board = empty_board(rows, cols)
    keys = zobrist_keys(rows, cols)
    stones = np.empty(board.size, dtype=np.int32)
    placed = np.zeros(3, dtype=np.int64)
    captured = np.zeros(3, dtype=np.int64)
    passes = np.zeros(3, dtype=np.int64)
    setup_placed = np.zeros(3, dtype=np.int64)
    illegal_move = np.empty(len(events), dtype=np.int64)
    illegal_reason = np.empty(len(events), dtype=np.int64)
    n_illegal = 0
    h = np.uint64(0)
    superko = ko_rule != KO_SIMPLE
    white_to_move = WHITE_TO_MOVE if ko_rule == KO_SITUATIONAL else np.uint64(0)
    seen = set()  # the hashes of the positions moved from
    size = 1 << int(np.ceil(np.log2(2 * len(events) + 4)))
    left_keys = np.zeros(size, dtype=np.uint64)  # stones -> the move after which they last stood
    left_at = np.full(size, -1, dtype=np.int64)
    _remember(left_keys, left_at, h, 0)
    hash_by_move = np.zeros(len(events) + 1, dtype=np.uint64)  # the stones after each move
    taken_by_move = np.zeros(len(events) + 1, dtype=np.int64)
    ko_by_move = np.zeros(len(events) + 1, dtype=np.bool_)
    cycle_start, cycle_end, last_break = -1, -1, 0  # a cycle holds no pass and no illegal move
    ko, ko_colour = NO_POINT, EMPTY
    moves, last_mover, last_placer = 0, EMPTY, EMPTY
    last_pass, previous_pass = EMPTY, EMPTY  # colour of the last two move events if passes

    for e in range(len(events)):
        kind, colour = events[e, 0], events[e, 1]
        if kind != MOVE:
            p = point_index(events[e, 2], events[e, 3], cols)
            old = board[p]
            new = colour if kind == SETUP_ADD else EMPTY
            if old != new:
                if old != EMPTY:
                    placed[old] -= 1
                    h ^= keys[old, p]
                if new != EMPTY:
                    placed[new] += 1
                    setup_placed[new] += 1
                    h ^= keys[new, p]
                board[p] = new
            ko = NO_POINT
            _remember(left_keys, left_at, h, moves)
            hash_by_move[moves] = h
            continue

        if colour == last_mover:  # a move left out between two of one colour: a pass
            last_break = moves
        moves += 1
        last_mover = colour
        previous_pass = last_pass
        last_pass = EMPTY
        if superko:
            seen.add((h ^ white_to_move) if colour == WHITE else h)
        forbidden = ko if colour == ko_colour else NO_POINT
        ko = NO_POINT
        if events[e, 2] == PASS:
            passes[colour] += 1
            last_pass = colour
            last_break = moves
            _remember(left_keys, left_at, h, moves)
            hash_by_move[moves] = h
            continue
        p = point_index(events[e, 2], events[e, 3], cols)
        status, taken, lost, new_ko = play(board, stride, p, colour, forbidden, suicide, stones)
        flagged = status != LEGAL
        if flagged:
            illegal_move[n_illegal], illegal_reason[n_illegal] = moves, status
            n_illegal += 1
            last_break = moves
            if status == OCCUPIED:
                continue
            # the record says the stone was played: play it as the rules would without the ban
            if status == KO:
                _, taken, lost, new_ko = play(board, stride, p, colour, NO_POINT, suicide, stones)
            else:
                _, taken, lost, new_ko = play(board, stride, p, colour, forbidden, SUICIDE_ANY, stones)
        opp = 3 - colour
        placed[colour] += 1
        captured[opp] += taken
        captured[colour] += lost
        h ^= keys[colour, p]
        for j in range(taken):
            h ^= keys[opp, stones[j]]
        for j in range(taken, taken + lost):
            h ^= keys[colour, stones[j]]
        if superko and not flagged and ((h ^ white_to_move) if colour == BLACK else h) in seen:
            illegal_move[n_illegal], illegal_reason[n_illegal] = moves, SUPERKO
            n_illegal += 1
        taken_by_move[moves] = taken + lost
        ko_by_move[moves] = new_ko != NO_POINT
        if cycle_end < 0 and left_at[_slot(left_keys, left_at, h)] >= last_break:
            cycle_start, cycle_end = left_at[_slot(left_keys, left_at, h)], moves
        _remember(left_keys, left_at, h, moves)
        hash_by_move[moves] = h
        ko, ko_colour = new_ko, opp
        last_placer = colour

    ended_by_passes = last_pass != EMPTY and previous_pass != EMPTY and last_pass != previous_pass
    ended_in_cycle = (cycle_end >= 0 and not ended_by_passes
                      and (hash_by_move[cycle_start:cycle_end + 1] == h).any())
    return (board, placed, captured, passes, setup_placed, illegal_move[:n_illegal],
            illegal_reason[:n_illegal], ko, moves, last_mover, last_placer, ended_by_passes,
            cycle_start, cycle_end, taken_by_move, ko_by_move, ended_in_cycle)


def replay(rows: int, cols: int, events: np.ndarray, *, suicide: str = "none",
           ko: str = "simple", handicap: int = 0,
           territory_marks: np.ndarray | None = None) -> Replay:
    """Replay a game's main-line events into its final position.

    Parameters
    ----------
    rows, cols : int
        Board size, each 1..52.
    events : np.ndarray
        Integer array of shape ``(n, 4)``: ``kind, colour, row, col`` per event, kind
        ``MOVE`` (colour 1 or 2; row = col = -1 is a pass), ``SETUP_ADD`` (setup stone of
        ``colour``) or ``SETUP_EMPTY`` (setup empty point, colour ignored); row 0 is the top.
    suicide : {'none', 'multi', 'any'}
        Which suicides are legal: none; of two or more stones (Ing, Tromp–Taylor); any (NZ).
    ko : {'simple', 'positional', 'situational'}
        The ko rule (``Ruleset.ko``): a superko rule also records moves that repeat an
        earlier position.
    handicap : int
        Handicap stones Black received, copied into the position; with no moves, a
        handicap of 2 or more set up as Black stones only gives White the first move.
    territory_marks : np.ndarray or None
        The record's ``TB``/``TW`` marks, copied into the position.

    Returns
    -------
    Replay

    Raises
    ------
    GameError
        Unsupported board size, malformed events, a bad handicap or territory board.
    IllegalMoveError
        A move or setup point off the board.
    RulesError
        An unknown ``suicide`` or ``ko`` rule.

    Examples
    --------
    >>> events = np.array([[0, 1, 0, 1], [0, 2, 0, 0], [0, 1, 1, 0]], dtype=np.int16)
    >>> result = replay(3, 3, events)
    >>> result.position.captured_white, result.position.to_move
    (1, 2)
    """
    suicide_rule, ko_rule, events = _checked(rows, cols, events, suicide, ko, handicap, territory_marks)
    (board, placed, captured, passes, setup_placed, illegal_move, illegal_reason, ko_point, moves,
     last_mover, last_placer, ended_by_passes, cycle_start, cycle_end, taken_by_move,
     ko_by_move, ended_in_cycle) = _replay_events(rows, cols, events, suicide_rule, ko_rule)
    if moves:
        to_move = 3 - int(last_mover)
    else:
        handicap_setup = handicap >= 2 and setup_placed[BLACK] > 0 and setup_placed[WHITE] == 0
        to_move = WHITE if handicap_setup else BLACK
    position = Position(
        board=unpad(board, rows, cols),
        captured_black=int(captured[BLACK]),
        captured_white=int(captured[WHITE]),
        placed_black=int(placed[BLACK]),
        placed_white=int(placed[WHITE]),
        passes_black=int(passes[BLACK]),
        passes_white=int(passes[WHITE]),
        to_move=to_move,
        last_placer=int(last_placer),
        ko_point=None if ko_point == NO_POINT else tuple(int(x) for x in point_coords(ko_point, cols)),
        handicap=int(handicap),
        territory_marks=territory_marks,
        ended_by_passes=bool(ended_by_passes),
    )
    illegal = [(int(m), REASONS[r]) for m, r in zip(illegal_move, illegal_reason)]
    cycle = None if cycle_end < 0 else (int(cycle_start), int(cycle_end))
    kind = None if cycle is None else cycle_kind(taken_by_move[cycle[0] + 1:cycle[1] + 1],
                                                 ko_by_move[cycle[0] + 1:cycle[1] + 1])
    return Replay(position=position, moves=int(moves), illegal=illegal,
                  last_mover=int(last_mover), ended_by_passes=bool(ended_by_passes),
                  cycle=cycle, cycle_kind=kind, ended_in_cycle=bool(ended_in_cycle))


_FINE, _BAD_KIND, _OFF_BOARD = 0, 1, 2


@numba.njit(cache=True)
def _first_bad_event(rows, cols, events):
    """``(index, problem)`` of the first malformed event, or ``(-1, _FINE)``."""
    for e in range(len(events)):
        kind, colour, row, col = events[e, 0], events[e, 1], events[e, 2], events[e, 3]
        if kind < MOVE or kind > SETUP_EMPTY or (kind != SETUP_EMPTY and colour != BLACK and colour != WHITE):
            return e, _BAD_KIND
        if kind == MOVE and row == PASS and col == PASS:
            continue
        if row < 0 or row >= rows or col < 0 or col >= cols:
            return e, _OFF_BOARD
    return -1, _FINE


def _checked(rows, cols, events, suicide, ko, handicap, territory_marks):
    """Validate the arguments of :func:`replay`; the suicide and ko codes and int16 events."""
    check_board_size(rows, cols)
    if suicide not in SUICIDE_RULES:
        raise RulesError(f"suicide must be one of {sorted(SUICIDE_RULES)}; got {suicide!r}")
    if ko not in KO_RULES:
        raise RulesError(f"ko must be one of {sorted(KO_RULES)}; got {ko!r}")
    if not isinstance(handicap, (int, np.integer)) or handicap < 0:
        raise GameError(f"handicap must be a non-negative integer; got {handicap!r}")
    if territory_marks is not None and (
            np.shape(territory_marks) != (rows, cols)
            or np.min(territory_marks) < EMPTY or np.max(territory_marks) > WHITE):
        raise GameError(f"territory marks must be a {rows}x{cols} board of 0/1/2")
    events = np.asarray(events)
    if events.ndim != 2 or events.shape[1] != 4 or not np.issubdtype(events.dtype, np.integer):
        raise GameError(f"events must be an integer (n, 4) array; got {events.dtype} {events.shape}")
    if events.dtype != np.int16:
        if events.size and (events.min() < np.iinfo(np.int16).min or events.max() > np.iinfo(np.int16).max):
            raise GameError("events hold values outside int16")
        events = events.astype(np.int16)
    e, problem = _first_bad_event(rows, cols, events)
    if problem == _BAD_KIND:
        raise GameError(f"event {e} is not a move or setup of a colour: {events[e].tolist()}")
    if problem == _OFF_BOARD:
        kind, _, row, col = events[e].tolist()
        move = int((events[:e + 1, 0] == MOVE).sum())
        what = f"move {move}" if kind == MOVE else f"setup event {e}"
        raise IllegalMoveError(f"{what} is off the {rows}x{cols} board: row {row}, col {col}")
    return SUICIDE_RULES[suicide], KO_RULES[ko], events

