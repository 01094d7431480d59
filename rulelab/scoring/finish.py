"""Playing a record to its end before the count: the last dame, protective moves, the last ko.

Most records stop before the players filled the last neutral points and made the
protective moves the filling calls for; the recorded result counts those moves. The
finisher plays them, from the player to move, alternately and deterministically, each
side making on its turn the first move of this list it can (points in board order):

1. *protect*: a living chain of its own in atari gets two liberties again, by a stone on
   its last liberty (a neutral point or in its own territory: J1989 Art. 9 commentary, a
   filled dame that puts a chain in atari must be answered, inside one's territory if need
   be) or by capturing a dead opposing chain in atari beside it; not a lone stone among
   dead opposing stones whose capture would be a ko (the capturing stone in atari among
   its living stones), which brings the dead stones nothing, nor a chain whose capture
   would be a snapback (the capturing chain of more stones than one left in atari);
   *mend a shortage*: where the opponent's fill of a neutral point would put a living
   chain of its own in atari for good, the fill of that point or a liberty of the chains
   beside it (neutral or in its own territory) that stops it, though nothing is in atari
   yet (GNU Go's play-outs make them too: Hon-47-4 of the default corpus), or a stone on
   a liberty of a dead chain beside them, whose capture must start in time (J1989 Art.
   10-1: dead stones stand until the end);
2. *forcing fill*: a neutral point whose filling puts living opposing chains in atari
   that one move saves, the opponent's answer;
3. *answer a cut*: a neutral point it may fill that is the only liberty two of its living
   chains share, one of them without two points of its own territory, when the opponent
   could fill it (a fill that threatens to cut must be answered: J1989 Art. 9 commentary);
4. *guard against a capture*: a protective move for a living chain of its own of two
   liberties that the opponent, moving first, could capture by a few moves' reading
   (:mod:`.tactics`: a throw-in inside its territory, a net beside a dead stone), by the
   first of the chain's defences after which it cannot, before the fills that could leave
   it no defence;
5. *quiet fill*: a neutral point its stone fills keeping two liberties, capturing and
   threatening nothing, or taking dead stones only (which closes the boundary around the
   points they held: the count makes them territory only once no living opposing stone
   touches them), never leaning on the opponent's living stones apart from its own and
   from dead opposing ones (it would enter what the opponent's next stone closes). First
   the fill worth most, which may: the neutral points of two or more it closes as its own
   territory, with those the opponent's fill there would close (the last points of the
   game: Hon-93-4's T15 keeps T14 and T13 from White); then one beside the opponent's
   living stones (the boundary the two sides share; a dame among one's own stones and
   other dame is the last to fill);
6. *connect first*: a protective move in its own territory without which a neutral
   point cannot be filled (its chain would keep one liberty there);
7. *capture a chain short of liberties*: an opposing chain the verdict keeps alive that is
   lost on the record's board whoever moves (the opponent captures it moving first and no
   defence saves it: a seki the classes read against a chain with liberties to spare), by
   the first move on its liberties after which it still is, until it is taken.

Otherwise it passes; two passes in a row end the game. After each move, a neutral region
of two to twelve points that only one side's living stones border is that side's territory
(a single point closed so is left neutral: the records fill it as a dame; a wider one is
an unfinished board, not a territory with a gap).

The last ko is its holder's: a living lone stone in atari that the opponent could take as
a ko is connected on its holder's turn (*protect*), and the opponent never takes it. A ko
a record leaves open is one its players fought and its holder kept: Hon-90-3 of the
default corpus took and retook its ko at moves 187 and 190 and went on 20 moves without
taking it again; T-14-1 took it four times and ends "W connects at q7". Of the 15 games of
the default corpus whose count the side to move taking such a ko would change, the records
count 10 as the holder connecting and 2 as the side to move taking it, and GNU Go's
play-outs leave 9 of the 13 of them it finished to the holder.

The dead stones stay on the board as the players leave them until the count, taking
liberties, and are captured only by a protective move or a fill of a dame beside them
(they are prisoners either way). The finisher captures no chain the verdict keeps alive
but one lost from the start (7), never fills a neutral point that would put a living chain in atari for good or
join its own dead stones, a seki liberty, a point of a seki group's regions, a point of
a living group's territory other than a protective move of that group, nor a point a
dead stone holds; once captured, the dead chain's points are its captor's territory.
Every ruleset then counts the finished board as it counts any board: a protective stone
inside one's territory replaces a point of territory (territory scoring pays for it), a
filled dame is a stone of its filler (area scoring counts it).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numba
import numpy as np

from rulelab.board import LEGAL, NO_POINT, SUICIDE_NONE, WALL, pad, play, point_coords, point_index, unpad
from rulelab.classes import OPEN_DAME, OWED_B, OWED_W, TERRITORY_B, TERRITORY_W
from rulelab.position import BLACK, EMPTY, WHITE, Life, Position, sgf_point

from .chains import (chain_forest, chain_liberties, copy_chains, is_quiet, judge, place, root, take_back, try_stone,
                     with_stone)
from .point_classes import PointClasses, classify_points
from .tactics import DEPTH, MAX_LIBERTIES, capturable, defence_moves, flood
from .tally import score_all

MAX_CLOSED = 12
"""The most neutral points a closed boundary leaves as territory (:func:`_close_regions`):
a wider neutral area is no territory with a gap but an unfinished board, which two walls
built line by line would hand whole to the side that closed it last."""

NONE, QUIET, FORCING, KILLING = 0, 1, 2, 3
"""What a fill of a neutral point does (:func:`_fill_kind`): nothing a side may play (it
puts the filler in atari or captures), a quiet fill, a forcing one (ataris living chains
that can be saved), or a killing one (ataris a living chain that cannot be saved: never
played, but its owner must protect against it)."""


@numba.njit(cache=True)
def _zones(classes, dead):
    """Per padded point, who may play there: 3 both (open dame), BLACK or WHITE only that
    colour's protective moves (its territory), 0 nobody (stones, seki, dead stones, wall)."""
    padded = pad(classes)
    zone = np.zeros(padded.size, np.int8)
    for p in range(padded.size):
        k = padded[p]
        if dead[p]:
            continue
        if k == OPEN_DAME:
            zone[p] = 3
        elif k == TERRITORY_B or k == OWED_B:
            zone[p] = BLACK
        elif k == TERRITORY_W or k == OWED_W:
            zone[p] = WHITE
    return zone


@numba.njit(cache=True)
def _remove_chain(w, nb, p, zone):
    """Take the chain at p off w; how many stones it had. Its points become the captor's
    territory, where it may make protective moves: a dead chain stood in it (J1989 Art.
    10-1), and the point of a ko, the one living stone taken, is opened by the caller."""
    colour = w[p]
    stack = [p]
    w[p] = EMPTY
    removed = 0
    while stack:
        q = stack.pop()
        zone[q] = 3 - colour
        removed += 1
        for k in range(4):
            r = q + nb[k]
            if w[r] == colour:
                w[r] = EMPTY
                stack.append(r)
    return removed


@numba.njit(cache=True)
def _close_regions(w, nb, p, zone, dead, close):
    """How many neutral points lie in regions of two to :data:`MAX_CLOSED` points beside p
    that only one colour's living stones border: a stone that closes a boundary leaves the points behind
    it its side's territory, which no side fills (Hon-86-2 of the default corpus: after
    White's M17 and Black's M18, L19 to O19 and N18 are Black's). A single point so closed
    stays neutral: the records fill it as a dame (Hon-93-1's K8). With ``close``, zone
    makes them so."""
    stack = np.empty(w.size, np.int64)
    region = np.empty(w.size, np.int64)
    flooded = np.zeros(w.size, np.int8)  # which of the floods below reached the point
    closed = 0
    for k in range(4):
        start = p + nb[k]
        if w[start] != EMPTY or zone[start] != 3 or flooded[start]:
            continue
        flooded[start] = k + 1
        stack[0], top, size, borders = start, 1, 0, 0
        while top and (borders == 0 or borders == BLACK or borders == WHITE):  # else open: stop
            top -= 1
            q = stack[top]
            region[size] = q
            size += 1
            for j in range(4):
                r = q + nb[j]
                if w[r] == EMPTY and zone[r] == 3:
                    if not flooded[r]:
                        flooded[r] = k + 1
                        stack[top] = r
                        top += 1
                    elif flooded[r] != k + 1:
                        borders |= 4  # the region an earlier flood left open
                elif (w[r] == BLACK or w[r] == WHITE) and not dead[r]:
                    borders |= w[r]
                elif w[r] == EMPTY:
                    borders |= 4  # beside a territory or seki: left as the classes say
        if (borders == BLACK or borders == WHITE) and 2 <= size <= MAX_CLOSED:
            closed += size
            if close:
                zone[region[:size]] = borders
    return closed


@numba.njit(cache=True)
def _closing_value(w, nb, p, colour, dead, zone, chains):
    """The neutral points colour's quiet fill of p closes as its territory, and those the
    opponent's fill of p would close as its own (:func:`_close_regions`): what the fill is
    worth, the last points of the game's end (Hon-93-4: Black's T15 keeps T14 and T13 from
    White)."""
    value = 0
    for mover in (colour, 3 - colour):
        w[p] = mover
        gained = _close_regions(w, nb, p, zone, dead, False)
        w[p] = EMPTY
        if gained and (mover == colour or _playable(_fill_kind(w, nb, p, mover, dead, zone, chains))):
            value += gained
    return value


@numba.njit(cache=True)
def _play(w, nb, p, colour, zone, chains):
    """Put colour on empty p and take off the opposing chains left without a liberty.
    Returns the chains (made again after a capture) and the stones taken."""
    place(w, nb, p, colour, chains)
    taken = 0
    for k in range(4):
        r = p + nb[k]
        if w[r] == 3 - colour and chain_liberties(chains, r)[0] == 0:
            taken += _remove_chain(w, nb, r, zone)
    if taken:
        chains = chain_forest(w, nb)
    return chains, taken


@numba.njit(cache=True)
def _played(w, nb, p, colour, zone, chains):
    """Copies of w, its chains and zone with colour played on p (:func:`_play`)."""
    board, board_zone = w.copy(), zone.copy()
    board_chains, _ = _play(board, nb, p, colour, board_zone, copy_chains(chains))
    return board, board_chains, board_zone


@numba.njit(cache=True)
def _chain_stones(w, nb, s):
    """The stones of the chain at s in board order, found by a flood from s
    (:func:`.tactics.flood`: a chain is far smaller than the board the forest would have to
    be searched over)."""
    points = np.empty(w.size, np.int64)
    stones, _ = flood(w, nb[1], s, np.zeros(w.size, np.bool_), points)
    return np.sort(points[:stones])


@numba.njit(cache=True)
def _leaves_two_liberties(w, nb, q, s, zone, chains):
    """Whether the colour of the stone s put on empty q leaves both the chain at s and its
    stone's own chain two liberties. Told from the chains beside q when it captures nothing
    (the stone joins the chain at s if it touches it, else that chain keeps its liberties);
    played on a copy (:func:`_played`) when it captures."""
    own, _, captured, _, _ = judge(w, nb, q, w[s], chains)
    if captured == 0:
        touches = False
        for k in range(4):
            touches = touches or (w[q + nb[k]] == w[s] and root(chains.parent, q + nb[k]) == root(chains.parent, s))
        return own >= 2 and (touches or chain_liberties(chains, s)[0] >= 2)
    _, board_chains, _ = _played(w, nb, q, w[s], zone, chains)
    return chain_liberties(board_chains, s)[0] >= 2 and chain_liberties(board_chains, q)[0] >= 2


@numba.njit(cache=True)
def _saving_move(w, nb, s, dead, zone, chains):
    """The move that gives the living chain at s, in atari, two liberties again (and is
    not itself left in atari): its last liberty (a neutral point or in its own
    territory), else the capture of a dead opposing chain in atari beside it (a living
    one the verdict keeps on the board), looked for from the chain's stones in board
    order, and only when its last liberty does not save it; -1 if none does."""
    colour = w[s]
    _, last = chain_liberties(chains, s)
    if (zone[last] == 3 or zone[last] == colour) and _leaves_two_liberties(w, nb, last, s, zone, chains):
        return last
    for p in _chain_stones(w, nb, s):
        for k in range(4):
            r = p + nb[k]
            if w[r] == 3 - colour and dead[r]:
                libs, q = chain_liberties(chains, r)
                if libs == 1 and zone[q] != 0 and _leaves_two_liberties(w, nb, q, s, zone, chains):
                    return q
    return -1


@numba.njit(cache=True)
def _takes_only_dead(w, nb, p, colour, dead, chains):
    """Whether every opposing chain colour's stone on p would capture is dead: taking dead
    stones on a dame closes the boundary around the points they held, which the count
    makes territory only once no living stone of theirs touches them (Hon-45-3 of the
    default corpus: Black's T15 takes S15 and T16 and makes them its two points)."""
    for k in range(4):
        r = p + nb[k]
        if w[r] == 3 - colour and not dead[r] and chain_liberties(chains, r)[0] == 1:
            return False
    return True


@numba.njit(cache=True, inline="always")
def _beside_own_dead(w, stride, p, colour, dead):
    """Whether a dead stone of colour is beside p (colour's stone there would join it to its
    chains and bring it back to life)."""
    for d in (-stride, -1, 1, stride):
        if w[p + d] == colour and dead[p + d]:
            return True
    return False


@numba.njit(cache=True)
def _fill_kind(w, nb, p, colour, dead, zone, chains):
    """What colour filling the neutral point p does (:data:`NONE`, :data:`QUIET`, :data:`FORCING`,
    :data:`KILLING`). A fill that takes only dead stones is quiet; one beside colour's own
    dead stones is none (it would join them to its chains)."""
    if _beside_own_dead(w, nb[1], p, colour, dead):
        return NONE  # it would join colour's dead stones to the chains beside p
    if is_quiet(w, nb, p, colour, chains):  # most fills, told by their sides alone
        return QUIET
    own, _, captured, ataris, _ = judge(w, nb, p, colour, chains)
    if captured > 0:
        return QUIET if _takes_only_dead(w, nb, p, colour, dead, chains) else NONE
    if own < 2 or ataris == 0:
        return NONE
    saved = try_stone(w, nb, p, colour, chains)  # a fill that captures nothing: zone unchanged
    if saved.size:
        kind = _kind_after_fill(w, nb, p, colour, dead, zone, chains)
        take_back(w, p, chains, saved)
        return kind
    board, board_chains, board_zone = _played(w, nb, p, colour, zone, chains)
    return _kind_after_fill(board, nb, p, colour, dead, board_zone, board_chains)


@numba.njit(cache=True)
def _kind_after_fill(board, nb, p, colour, dead, zone, chains):
    """What colour's fill of p, on ``board`` and capturing nothing, did (:func:`_fill_kind`)."""
    kind = QUIET
    for k in range(4):
        r = p + nb[k]
        if board[r] == 3 - colour and not dead[r] and chain_liberties(chains, r)[0] == 1:
            if _saving_move(board, nb, r, dead, zone, chains) < 0:
                return KILLING
            kind = FORCING
    return kind


@numba.njit(cache=True, inline="always")
def _playable(kind):
    """Whether a fill of this kind (:func:`_fill_kind`) may be played."""
    return kind == QUIET or kind == FORCING


@numba.njit(cache=True, inline="always")
def _beside_living(w, nb, p, colour, dead):
    """Whether a living stone of colour is beside p (else no fill of p can threaten it)."""
    for k in range(4):
        r = p + nb[k]
        if w[r] == colour and not dead[r]:
            return True
    return False


@numba.njit(cache=True, inline="always")
def _extends(w, nb, p, colour, dead):
    """Whether colour's stone on p would touch a living stone of its own or a dead opposing
    one, or no living opposing stone: a fill extends a side's wall, takes dead stones or
    stands in the open, and never leans on the other side's wall apart from its own, where
    it would enter what the other side's next stone closes (Hon-86-2's M18)."""
    against = False
    for k in range(4):
        r = p + nb[k]
        if (w[r] == colour and not dead[r]) or (w[r] == 3 - colour and dead[r]):
            return True
        against = against or w[r] == 3 - colour
    return not against


@numba.njit(cache=True)
def _add_liberties_in_zone(w, nb, d, colour, zone, chains, candidates):
    """Add to candidates the liberties of the chain at d inside colour's territory: the
    moves that start capturing a dead chain standing where colour's chains need room."""
    for s in _chain_stones(w, nb, d):
        for k in range(4):
            q = s + nb[k]
            if w[q] == EMPTY and zone[q] == colour and q not in candidates:
                candidates.append(q)


@numba.njit(cache=True)
def _shortage_guard(w, nb, p, colour, dead, zone, chains):
    """colour's move that stops the opponent's fill of the neutral point p from leaving
    colour's living chains beside it in atari for good (a shortage of liberties, not yet
    an atari, that must be mended before the fill: J1989 Art. 9 commentary, Hon-47-4):
    p itself, a liberty of those chains, neutral or in colour's territory, or a liberty of
    a dead chain beside them, which must be captured first (:mod:`.standing`); -1 if none."""
    n = w.size
    beside = np.zeros(n, np.bool_)
    for k in range(4):
        r = p + nb[k]
        if w[r] == colour and not dead[r]:
            beside[root(chains.parent, r)] = True
    candidates = [p]
    for s in range(n):
        if w[s] == colour and beside[root(chains.parent, s)]:
            for k in range(4):
                q = s + nb[k]
                if w[q] == EMPTY and q != p and (zone[q] == colour or zone[q] == 3) and q not in candidates:
                    candidates.append(q)
                elif w[q] == 3 - colour and dead[q]:
                    _add_liberties_in_zone(w, nb, q, colour, zone, chains, candidates)
    for q in candidates:
        if zone[q] == 3:
            if not _playable(_fill_kind(w, nb, q, colour, dead, zone, chains)):
                continue
        else:
            own, _, captured, _, _ = judge(w, nb, q, colour, chains)
            if own < 2 or captured > 0:
                continue
        if q == p:
            return q
        board, board_chains, board_zone = _played(w, nb, q, colour, zone, chains)
        if _fill_kind(board, nb, p, 3 - colour, dead, board_zone, board_chains) != KILLING:
            return q
    return -1


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
def _share_liberty_besides(w, nb, a, b, q, chains):
    """Whether the chains rooted at a and b share an empty point other than q."""
    of_a = np.zeros(w.size, np.bool_)
    for p in _chain_stones(w, nb, a):
        for k in range(4):
            of_a[p + nb[k]] = w[p + nb[k]] == EMPTY
    for p in _chain_stones(w, nb, b):
        for k in range(4):
            r = p + nb[k]
            if r != q and of_a[r]:
                return True
    return False


@numba.njit(cache=True)
def _safe_alone(w, nb, a, colour, zone, chains):
    """Whether the chain rooted at a touches two points of its own territory (which the
    opponent never fills), so it lives whatever is cut from it."""
    first = -1
    for p in _chain_stones(w, nb, a):
        for k in range(4):
            r = p + nb[k]
            if w[r] == EMPTY and zone[r] == colour and r != first:
                if first >= 0:
                    return True
                first = r
    return False


@numba.njit(cache=True)
def _cut_threat(w, nb, q, colour, dead, zone, chains):
    """Whether the opponent filling the neutral point q, a fill it may play (the caller
    knows its :func:`_fill_kind`), would cut two living chains of colour that have no
    other liberty in common, one of them short of two points of its own territory (a fill
    that threatens to cut must be answered, J1989 Art. 9 commentary: T-05-1 of the
    default corpus lost a group's 53 points to a cut the finisher left open)."""
    roots = np.full(4, -1, np.int64)
    for k in range(4):
        r = q + nb[k]
        if w[r] == colour and not dead[r]:
            roots[k] = root(chains.parent, r)
    for i in range(4):
        for j in range(i + 1, 4):
            a, b = roots[i], roots[j]
            if (a >= 0 and b >= 0 and a != b and not _share_liberty_besides(w, nb, a, b, q, chains)
                    and not (_safe_alone(w, nb, a, colour, zone, chains) and _safe_alone(w, nb, b, colour, zone, chains))):
                return True
    return False


@numba.njit(cache=True)
def _lone_among_dead(w, nb, s, dead):
    """Whether the stone at s stands alone among dead opposing stones (and the edge) but
    for one liberty, where a capturing stone would stand among s's colour's living stones:
    its capture is a ko that brings the dead stones nothing, so it needs no protection
    (Hon-60-2 of the default corpus: the players leave Black's B16 so)."""
    colour = w[s]
    last, beside_dead = -1, False
    for k in range(4):
        r = s + nb[k]
        if w[r] == EMPTY:
            if last >= 0:
                return False
            last = r
        elif w[r] == 3 - colour and dead[r]:
            beside_dead = True
        elif w[r] != WALL:
            return False
    if last < 0 or not beside_dead:
        return False
    for k in range(4):
        r = last + nb[k]
        if r != s and w[r] != WALL and (w[r] != colour or dead[r]):
            return False
    return True


@numba.njit(cache=True)
def _snapback(w, nb, s, chains):
    """Whether the capture of the chain at s, in atari, would leave the capturing chain of
    more than one stone in atari: its owner takes back more than it lost, so it needs no
    protection (Hon-94-1 of the default corpus: White leaves G17 in atari, where Black's
    H17 would join the dead G16 and H16 and be taken with them)."""
    stride = nb[1]
    q = chain_liberties(chains, s)[1]
    board = w.copy()
    if play(board, stride, q, 3 - w[s], NO_POINT, SUICIDE_NONE, np.empty(w.size, np.int32))[0] != LEGAL:
        return False
    stones, libs = flood(board, stride, q, np.zeros(w.size, np.bool_), np.empty(w.size, np.int64))
    return stones > 1 and libs == 1


@numba.njit(cache=True)
def _saving_defence(w, stride, s, ban, dead):
    """The first of the defences of the chain at s (:func:`.tactics.defence_moves`) after
    which the opponent, moving first, can no longer capture it; -1 if none does. None
    joins the owner's dead stones to it (they would live again: a kgs-dev game,
    2003-08-09-8, lost its seki so)."""
    points = np.empty(w.size, np.int64)
    defences = np.empty(16, np.int64)
    scratch = np.empty(w.size, np.int32)
    n = defence_moves(w, stride, s, np.zeros(w.size, np.bool_), points, np.empty(w.size, np.int64), defences)
    for i in range(n):
        q = defences[i]
        board = w.copy()
        if (q != ban and not _beside_own_dead(w, stride, q, w[s], dead)
                and play(board, stride, q, w[s], NO_POINT, SUICIDE_NONE, scratch)[0] == LEGAL):
            if not capturable(board, stride, s, DEPTH):
                return q
    return -1


@numba.njit(cache=True)
def _lost(board, stride, s, ko, dead):
    """Whether the chain at s, its owner to move (not at ``ko``), is taken off or will be
    whatever it does: the opponent captures it moving first and no defence saves it."""
    return board[s] == EMPTY or (capturable(board, stride, s, DEPTH) and _saving_defence(board, stride, s, ko, dead) < 0)


@numba.njit(cache=True)
def _doomed_chains(w, nb, dead, chains):
    """The stones of the living chains :func:`_lost` on w whoever moves: chains the verdict
    keeps alive though they are short of liberties (a seki the classes read where the
    opponent's chain has liberties to spare: Hon-59-2 of the default corpus), of two
    liberties. The finisher captures these and no others: a chain its own fills left short
    is its owner's to guard, and one in atari already is left as the verdict has it (a
    stone the players left on the board and counted as living, which `validate` blames on
    the record)."""
    stride = nb[1]
    doomed = np.zeros(w.size, np.bool_)
    judged = np.zeros(w.size, np.bool_)
    seen = np.zeros(w.size, np.bool_)
    points = np.empty(w.size, np.int64)
    for s in range(w.size):
        if (w[s] != BLACK and w[s] != WHITE) or dead[s] or judged[root(chains.parent, s)]:
            continue
        judged[root(chains.parent, s)] = True
        stones, liberties = flood(w, stride, s, seen, points)
        if liberties == 2 and _lost(w, stride, s, NO_POINT, dead):
            doomed[points[:stones]] = True
    return doomed


@numba.njit(cache=True)
def _killing_attack(w, stride, s, colour, ban, zone, dead):
    """colour's first move on a liberty of the opposing chain at s outside the opponent's
    territory (a neutral point, one of its own or of a seki the classes misread) after
    which the chain is lost (:func:`_lost`); -1 if none."""
    points = np.empty(w.size, np.int64)
    _, libs = flood(w, stride, s, np.zeros(w.size, np.bool_), points)
    scratch = np.empty(w.size, np.int32)
    for q in np.sort(points[points.size - libs:]):
        if q == ban or zone[q] == 3 - colour:
            continue
        board = w.copy()
        status, _, _, ko = play(board, stride, q, colour, NO_POINT, SUICIDE_NONE, scratch)
        if status == LEGAL and _lost(board, stride, s, ko, dead):
            return q
    return -1


@numba.njit(cache=True)
def _capture_stage(w, nb, dead, colour, owner, ban, zone, chains, doomed):
    """colour's move for the first living chain of ``owner`` of at most two liberties that
    can be captured by reading (:func:`.tactics.capturable`): for its own (*guard against a
    capture*), the first of the chain's defences after which it no longer can; for the
    opponent's, one ``doomed`` already on the record's board (:func:`_doomed_chains`), the
    first attack after which it still is (*capture a chain short of liberties*); -1 if none."""
    stride = nb[1]
    seen = np.zeros(w.size, np.bool_)
    points = np.empty(w.size, np.int64)
    judged = np.zeros(w.size, np.bool_)
    for s in range(w.size):
        if w[s] != owner or dead[s]:
            continue
        chain = root(chains.parent, s)
        if judged[chain] or chains.libs[chain, 0] > 4 * MAX_LIBERTIES:  # 4 stones at most beside a liberty
            judged[chain] = True
            continue
        judged[chain] = True
        if owner != colour and not doomed[s]:
            continue
        liberties = flood(w, stride, s, seen, points)[1]
        if (liberties > MAX_LIBERTIES or _lone_among_dead(w, nb, s, dead)
                or (liberties == 1 and _snapback(w, nb, s, chains)) or not capturable(w, stride, s, DEPTH)):
            continue
        if owner == colour:
            q = _saving_defence(w, stride, s, ban, dead)
            if q >= 0:
                return q
        else:
            q = _killing_attack(w, stride, s, colour, ban, zone, dead)
            if q >= 0:
                return q
    return -1


@numba.njit(cache=True)
def _choose(w, nb, zone, dead, colour, ban, chains, doomed):
    """colour's move, by the module docstring's list; -1 to pass."""
    n = w.size
    judged = np.zeros(n, np.bool_)
    for s in range(n):
        if w[s] == colour and not dead[s]:
            chain = root(chains.parent, s)
            if judged[chain]:
                continue
            judged[chain] = True
            if (chain_liberties(chains, s)[0] == 1 and not _lone_among_dead(w, nb, s, dead)
                    and not _snapback(w, nb, s, chains)):
                q = _saving_move(w, nb, s, dead, zone, chains)
                if q >= 0 and q != ban:
                    return q
    theirs = np.zeros(n, np.int8)  # the opponent's fills beside colour's living stones
    for p in range(n):
        if w[p] == EMPTY and zone[p] == 3 and _beside_living(w, nb, p, colour, dead):
            theirs[p] = _fill_kind(w, nb, p, 3 - colour, dead, zone, chains)
            if theirs[p] == KILLING:
                q = _shortage_guard(w, nb, p, colour, dead, zone, chains)
                if q >= 0 and q != ban:
                    return q
    kinds = np.zeros(n, np.int8)
    for p in range(n):
        if w[p] == EMPTY and zone[p] == 3 and p != ban:
            kinds[p] = _fill_kind(w, nb, p, colour, dead, zone, chains)
            if kinds[p] == FORCING:
                return p
    for p in range(n):
        if _playable(kinds[p]) and _playable(theirs[p]) and _cut_threat(w, nb, p, colour, dead, zone, chains):
            return p
    q = _capture_stage(w, nb, dead, colour, colour, ban, zone, chains, doomed)
    if q >= 0:
        return q
    best, worth = -1, 0
    for p in range(n):
        if kinds[p] == QUIET:
            value = _closing_value(w, nb, p, colour, dead, zone, chains)
            if value > worth:
                best, worth = p, value
    if best >= 0:
        return best
    for p in range(n):
        if kinds[p] == QUIET and _extends(w, nb, p, colour, dead) and _beside_living(w, nb, p, 3 - colour, dead):
            return p
    for p in range(n):
        if kinds[p] == QUIET and _extends(w, nb, p, colour, dead):
            return p
    for p in range(n):
        if w[p] == EMPTY and zone[p] == 3 and p != ban:
            q = _connection_first(w, nb, p, colour, zone, chains)
            if q >= 0 and q != ban:
                return q
    return _capture_stage(w, nb, dead, colour, 3 - colour, ban, zone, chains, doomed)


@numba.njit(cache=True)
def finish_board(board, dead, classes, to_move, ko):
    """Play ``(rows, cols)`` board to its end (module docstring). ``dead``: the verdict's
    dead stones; ``classes``: the board's point classes under it; ``ko``: the flat point
    ``to_move`` may not take back (-1: none). Returns the finished board, the moves as flat
    points (-1: a pass, the last two ending the game) and colours, and the stones each
    colour lost (index 1, 2) to a capture."""
    rows, cols = board.shape
    w = pad(board)
    dead_at = pad(dead.astype(np.int8)) == 1
    nb = np.array([-(cols + 2), cols + 2, -1, 1], np.int64)
    zone = _zones(classes, dead_at)
    chains = chain_forest(w, nb)
    doomed = _doomed_chains(w, nb, dead_at, chains)
    ban = -1 if ko < 0 else point_index(ko // cols, ko % cols, cols)
    limit = 3 * rows * cols
    moves = np.empty(limit, np.int64)
    colours = np.empty(limit, np.int8)
    lost = np.zeros(3, np.int64)
    colour = to_move
    made = 0
    passes = 0
    while passes < 2 and made < limit:
        p = _choose(w, nb, zone, dead_at, colour, ban, chains, doomed)
        colours[made] = colour
        row, col = point_coords(p, cols)
        moves[made] = -1 if p < 0 else row * cols + col
        made += 1
        passes = passes + 1 if p < 0 else 0
        ban = -1
        if p >= 0:
            chains, taken = _play(w, nb, p, colour, zone, chains)
            _close_regions(w, nb, p, zone, dead_at, True)
            lost[3 - colour] += taken
            if taken == 1 and chain_liberties(chains, p)[0] == 1:
                alone = True
                for k in range(4):
                    alone = alone and w[p + nb[k]] != colour
                if alone:
                    ban = chain_liberties(chains, p)[1]  # the opponent may not take back at once
                    zone[ban] = 3
        colour = 3 - colour
    return unpad(w, rows, cols), moves[:made], colours[:made], lost


@dataclass(frozen=True)
class Finish:
    """A record played to its end: the finished position and the moves that made it."""

    position: Position
    """The position after the moves (dead stones still on the board, as in any final position)."""
    moves: tuple[tuple[int, int, int], ...]
    """The moves added, ``(colour, row, col)`` in order, ``row == col == -1`` a pass (the
    two passes that end the game left out)."""
    life: Life
    """The verdict on the finished position: its dead stones still standing (a protective
    stone played where a captured dead stone stood is no dead stone)."""

    def sgf(self) -> str:
        """The moves as SGF nodes (``;B[dc];W[];B[ee]``), to append to the record."""
        return "".join(f";{'B' if colour == BLACK else 'W'}[{'' if r < 0 else sgf_point(r, c)}]"
                       for colour, r, c in self.moves)


def finished(position: Position, life: Life, basis: str, classes: PointClasses | None = None) -> Finish:
    """``position`` on the counting ``basis`` (:data:`rulelab.rules.FINISH_BASES`): played to
    its end (``'play'``), or as it stands (``'none'``, no move added)."""
    return finish_position(position, life, classes) if basis == "play" else Finish(position, (), life)


def margin_on(position: Position, life: Life, ruleset, basis: str) -> float:
    """The margin of ``position`` under ``life`` and ``ruleset`` (a :class:`~rulelab.rules.Ruleset`)
    counted on ``basis`` (:func:`finished`)."""
    done = finished(position, life, basis)
    return score_all(done.position, done.life, [ruleset])[0].margin


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
    kept, by = points[:end], colours[:end]
    stone = kept >= 0
    played = by[stone]
    if not played.size:
        return Finish(position, (), life)
    moves = tuple(zip(by.tolist(), np.where(stone, kept // cols, -1).tolist(), np.where(stone, kept % cols, -1).tolist()))
    done = replace(position, board=finished,
                   captured_black=position.captured_black + int(lost[BLACK]),
                   captured_white=position.captured_white + int(lost[WHITE]),
                   placed_black=position.placed_black + int(np.count_nonzero(played == BLACK)),
                   placed_white=position.placed_white + int(np.count_nonzero(played == WHITE)),
                   to_move=3 - int(colours[-1]), last_placer=int(played[-1]), ko_point=None)
    return Finish(done, moves, replace(life, dead=life.dead & (finished == board)))
