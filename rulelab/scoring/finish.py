"""Playing a record to its end before the count: the last dame, protective moves, the last ko.

Most records stop before the players filled the last neutral points and made the
protective moves the filling calls for; the recorded result counts those moves. The
finisher plays them, from the player to move, alternately and deterministically, on the
board with the verdict's dead stones taken off, each side making on its turn the first
move of this list it can (points in board order):

1. *protect*: a chain of its own in atari connects at its last liberty, on a neutral
   point or in its own territory (J1989 Art. 9 commentary: a filled dame that puts a
   chain in atari must be answered, inside one's territory if need be);
2. *ko*: a capture of one lone stone, wherever it stands (a half-point ko is taken,
   then connected by 1);
3. *forcing fill*: a neutral point whose filling puts opposing chains in atari that
   escape by one stone, on a neutral point or in their own territory (as :mod:`.dame`
   judges it), the escape being the opponent's answer;
4. *block*: a quiet fill of a neutral point where the opponent's fill would be forcing
   (the last one-point move: sente moves first, then this gote one);
5. *quiet fill*: a neutral point its stone fills keeping two liberties, capturing and
   threatening nothing;
6. *connect first*: a protective move in its own territory without which a neutral
   point cannot be filled (its chain would keep one liberty there).

Otherwise it passes; two passes in a row end the game. It never plays a seki liberty,
a point of a seki group's regions, a point of a living group's territory other than a
protective move of that group, nor a point a dead stone holds; a ko just taken is not
taken back at once. Every ruleset then counts the finished board as it counts any board:
a protective stone inside one's territory replaces a point of territory (territory
scoring pays for it), a filled dame is a stone of its filler (area scoring counts it).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numba
import numpy as np

from rulelab.board import WALL
from rulelab.classes import OPEN_DAME, OWED_B, OWED_W, TERRITORY_B, TERRITORY_W
from rulelab.position import BLACK, EMPTY, WHITE, Life, Position

from .chains import chain_forest, chain_liberties, is_quiet, judge, place, with_stone
from .dame import UNSAFE, escapes
from .point_classes import PointClasses, classify_points
from .tally import score_all

PROTECT, KO, FORCING, BLOCK, QUIET, CONNECT_FIRST = 1, 2, 3, 4, 5, 6
"""The kinds of finishing move, in the order a side looks for them."""


@numba.njit(cache=True)
def _zones(classes, dead, rows, cols):
    """Per padded point, who may play there: 3 both (open dame), BLACK or WHITE only that
    colour's protective moves (its territory), 0 nobody (stones, seki, dead stones, wall)."""
    stride = cols + 2
    zone = np.zeros((rows + 2) * stride, np.int8)
    for r in range(rows):
        for c in range(cols):
            k = classes[r, c]
            p = (r + 1) * stride + c + 1
            if dead[r, c]:
                continue
            if k == OPEN_DAME:
                zone[p] = 3
            elif k == TERRITORY_B or k == OWED_B:
                zone[p] = BLACK
            elif k == TERRITORY_W or k == OWED_W:
                zone[p] = WHITE
    return zone


@numba.njit(cache=True)
def _open(w, zone, p, colour, ban):
    """Whether colour may play p: empty, not the ko point, neutral or its own territory."""
    return w[p] == EMPTY and p != ban and (zone[p] == 3 or zone[p] == colour)


@numba.njit(cache=True)
def _protects(w, nb, p, colour, chains):
    """Whether colour on p saves a chain of its own in atari on p (two liberties after)."""
    in_atari = False
    for k in range(4):
        r = p + nb[k]
        if w[r] == colour and chain_liberties(chains, r)[0] == 1:
            in_atari = True
    if not in_atari:
        return False
    own, _, captured, _, _ = judge(w, nb, p, colour, chains)
    return own >= 2 or captured > 0


@numba.njit(cache=True)
def _takes_lone_stone(w, nb, p, colour, chains):
    """The lone opposing stone colour on p captures, when it captures just that; or -1."""
    taken = -1
    for k in range(4):
        r = p + nb[k]
        if w[r] == 3 - colour and chain_liberties(chains, r)[0] == 1:
            if taken >= 0 and r != taken:
                return -1
            for j in range(4):
                if w[r + nb[j]] == 3 - colour:
                    return -1  # a chain of more than one stone
            taken = r
    return taken


@numba.njit(cache=True)
def _forces(w, nb, p, colour, zone, chains):
    """Whether colour filling p ataris chains that escape on a neutral point or in their
    own territory (:func:`rulelab.scoring.dame.escapes`)."""
    own, _, captured, ataris, escape = judge(w, nb, p, colour, chains)
    if not (own >= 2 and captured == 0 and ataris > 0 and escape >= 0):
        return False
    if zone[escape] != 3 and zone[escape] != 3 - colour:
        return False
    return escapes(w, nb, p, colour, escape, zone, chains) != UNSAFE


@numba.njit(cache=True)
def _connection_first(w, nb, p, colour, zone, chains):
    """The point of colour's own territory it must connect at before it can fill p, or -1."""
    own, last, captured, _, _ = judge(w, nb, p, colour, chains)
    if not (own == 1 and captured == 0 and last >= 0 and zone[last] == colour):
        return -1
    if not is_quiet(w, nb, last, colour, chains):
        return -1
    connected, connected_chains = with_stone(w, nb, last, colour, chains)
    own, _, captured, _, _ = judge(connected, nb, p, colour, connected_chains)
    return last if own >= 2 and captured == 0 else -1


@numba.njit(cache=True)
def _choose(w, nb, zone, colour, ban, chains):
    """colour's move (point, kind), by the module docstring's list; (-1, 0) to pass."""
    n = w.size
    for p in range(n):
        if _open(w, zone, p, colour, ban) and _protects(w, nb, p, colour, chains):
            return p, PROTECT
    for p in range(n):
        if w[p] == EMPTY and zone[p] != 0 and p != ban and _takes_lone_stone(w, nb, p, colour, chains) >= 0:
            return p, KO
    for p in range(n):
        if w[p] == EMPTY and zone[p] == 3 and p != ban and _forces(w, nb, p, colour, zone, chains):
            return p, FORCING
    for p in range(n):
        if (w[p] == EMPTY and zone[p] == 3 and p != ban and is_quiet(w, nb, p, colour, chains)
                and _forces(w, nb, p, 3 - colour, zone, chains)):
            return p, BLOCK
    for p in range(n):
        if w[p] == EMPTY and zone[p] == 3 and p != ban and is_quiet(w, nb, p, colour, chains):
            return p, QUIET
    for p in range(n):
        if w[p] == EMPTY and zone[p] == 3 and p != ban:
            q = _connection_first(w, nb, p, colour, zone, chains)
            if q >= 0 and q != ban:
                return q, CONNECT_FIRST
    return -1, 0


@numba.njit(cache=True)
def finish_board(board, dead, classes, to_move, ko):
    """Play ``(rows, cols)`` board to its end (module docstring). ``dead``: the verdict's
    dead stones; ``classes``: the board's point classes under it; ``ko``: the flat point
    ``to_move`` may not take back (-1: none). Returns the finished board (dead stones still
    on it), the moves as flat points (-1: a pass, the last two ending the game) and
    colours, and the stones each colour lost (index 1, 2) to a ko taken."""
    rows, cols = board.shape
    stride = cols + 2
    w = np.full((rows + 2) * stride, WALL, np.int8)
    for r in range(rows):
        for c in range(cols):
            w[(r + 1) * stride + c + 1] = EMPTY if dead[r, c] else board[r, c]
    nb = np.array([-stride, stride, -1, 1], np.int64)
    zone = _zones(classes, dead, rows, cols)
    chains = chain_forest(w, nb)
    ban = -1 if ko < 0 else (ko // cols + 1) * stride + ko % cols + 1
    limit = 3 * rows * cols
    moves = np.empty(limit, np.int64)
    colours = np.empty(limit, np.int8)
    lost = np.zeros(3, np.int64)
    finished = board.copy()
    colour = to_move
    made = 0
    passes = 0
    while passes < 2 and made < limit:
        p, kind = _choose(w, nb, zone, colour, ban, chains)
        if p < 0:
            passes += 1
            ban = -1
            moves[made] = -1
            colours[made] = colour
            made += 1
            colour = 3 - colour
            continue
        passes = 0
        taken = _takes_lone_stone(w, nb, p, colour, chains) if kind == KO else -1
        place(w, nb, p, colour, chains)
        ban = -1
        if taken >= 0:
            w[taken] = EMPTY
            zone[taken] = 3
            lost[3 - colour] += 1
            chains = chain_forest(w, nb)
            libs, _ = chain_liberties(chains, p)
            alone = True
            for k in range(4):
                alone = alone and w[p + nb[k]] != colour
            if alone and libs == 1:
                ban = taken  # the opponent may not take back at once
            finished[taken // stride - 1, taken % stride - 1] = EMPTY
        r, c = p // stride - 1, p % stride - 1
        finished[r, c] = colour
        moves[made] = r * cols + c
        colours[made] = colour
        made += 1
        colour = 3 - colour
    return finished, moves[:made], colours[:made], lost


@dataclass(frozen=True)
class Finish:
    """A record played to its end: the finished position and the moves that made it."""

    position: Position
    """The position after the moves (dead stones still on the board, as in any final position)."""
    moves: tuple[tuple[int, int, int], ...]
    """The moves added, ``(colour, row, col)`` in order, ``row == col == -1`` a pass (the
    two passes that end the game left out)."""

    def sgf(self) -> str:
        """The moves as SGF nodes (``;B[dc];W[];B[ee]``), to append to the record."""
        return "".join(f";{'B' if colour == BLACK else 'W'}[{'' if r < 0 else chr(97 + c) + chr(97 + r)}]"
                       for colour, r, c in self.moves)


def finished(position: Position, life: Life, basis: str, classes: PointClasses | None = None) -> Finish:
    """``position`` on the counting ``basis`` (:data:`rulelab.rules.FINISH_BASES`): played to
    its end (``'play'``), or as it stands (``'none'``, no move added)."""
    return finish_position(position, life, classes) if basis == "play" else Finish(position, ())


def margin_on(position: Position, life: Life, ruleset, basis: str) -> float:
    """The margin of ``position`` under ``life`` and ``ruleset`` (a :class:`~rulelab.rules.Ruleset`)
    counted on ``basis`` (:func:`finished`)."""
    return score_all(finished(position, life, basis).position, life, [ruleset])[0].margin


def finish_position(position: Position, life: Life, classes: PointClasses | None = None) -> Finish:
    """``position`` played to its end under the life verdict ``life`` (module docstring).

    ``classes`` are :func:`classify_points` of the position under ``life``, when made.

    Examples
    --------
    >>> pos = Position.from_diagram('''
    ...     . X . O .
    ...     . X . O .
    ... ''')
    >>> done = finish_position(pos, Life.all_alive(pos.board))
    >>> done.sgf()
    ';B[ca];W[cb]'
    """
    classes = classify_points(position, life) if classes is None else classes
    board = np.asarray(position.board, dtype=np.int8)
    rows, cols = board.shape
    ko = -1 if position.ko_point is None else position.ko_point[0] * cols + position.ko_point[1]
    dead = np.asarray(life.dead, dtype=np.bool_) & (board != EMPTY)
    finished, points, colours, lost = finish_board(board, dead, classes.classes, int(position.to_move), ko)
    end = len(points) - 2 if len(points) >= 2 and points[-1] < 0 and points[-2] < 0 else len(points)
    moves = tuple((int(colour), *(divmod(int(p), cols) if p >= 0 else (-1, -1)))
                  for p, colour in zip(points[:end], colours[:end]))
    played = [colour for colour, r, _ in moves if r >= 0]
    if not played:
        return Finish(position, ())
    done = replace(position, board=finished,
                   captured_black=position.captured_black + int(lost[BLACK]),
                   captured_white=position.captured_white + int(lost[WHITE]),
                   placed_black=position.placed_black + played.count(BLACK),
                   placed_white=position.placed_white + played.count(WHITE),
                   to_move=3 - int(colours[-1]), last_placer=played[-1], ko_point=None)
    return Finish(done, moves)
