"""The board analysis of :mod:`rulelab.scoring`, written for reading, not for speed.

Plain Python on a ``(rows, cols)`` array: a chain and its liberties are labelled
afresh (scipy.ndimage) each time they are asked for, a move is judged by playing it on a copy, and
each rule of the module docstrings of :mod:`rulelab.scoring.dame`,
:mod:`rulelab.scoring.vital` and :mod:`rulelab.scoring.seki` is one short function. The kernels must give every point
the same class; a test that fails names the point and both classes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import ndimage

from rulelab.board import pad
from rulelab.life.reading import MAX_EYE_SPACE, MAX_OUTSIDE, MAX_READ_POINTS, attacker_wins
from rulelab.position import BLACK, EMPTY, WHITE
from rulelab.scoring import (
    OPEN_DAME,
    OWED_B,
    OWED_W,
    SEKI_DAME,
    SEKI_POINT_B,
    SEKI_POINT_W,
    TERRITORY_B,
    TERRITORY_W,
)
from rulelab.scoring.seki_search import SEKI_MAX_STATES

NEUTRAL = BLACK | WHITE
"""Owner of an empty point whose region touches both colours."""
CROSS = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]])
"""4-connectivity for scipy.ndimage.label."""


def points(board):
    """Every point, in board (row-major) order."""
    rows, cols = board.shape
    return [(r, c) for r in range(rows) for c in range(cols)]


def neighbours(board, p):
    rows, cols = board.shape
    r, c = p
    return [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < rows and 0 <= c + dc < cols]


def chain(board, p):
    """The stones of the chain at p, as a mask."""
    labels, _ = ndimage.label(board == board[p], CROSS)
    return labels == labels[p]


def liberties(board, stones):
    """The liberties of the stones of a mask, as a set of points."""
    return set(map(tuple, np.argwhere(ndimage.binary_dilation(stones, CROSS) & (board == EMPTY))))


def owners(board):
    """Per empty point, the colour bits of the stones bordering its empty region."""
    regions, count = ndimage.label(board == EMPTY, CROSS)
    owner = np.zeros(board.shape, np.int8)
    for k in range(1, count + 1):
        region = regions == k
        border = ndimage.binary_dilation(region, CROSS) & ~region
        owner[region] = int(BLACK * (board[border] == BLACK).any() | WHITE * (board[border] == WHITE).any())
    return owner


def played(board, p, colour):
    after = board.copy()
    after[p] = colour
    return after


@dataclass
class Judgement:
    """What colour on empty p does, nothing captured yet."""

    own: set  # the liberties of its chain
    captured: int  # opposing chains beside p left with no liberty
    in_atari: list  # the one liberty of each opposing chain beside p left with one


def judge(board, p, colour):
    after = played(board, p, colour)
    labels, _ = ndimage.label(after == 3 - colour, CROSS)
    opposing = {labels[q] for q in neighbours(after, p) if after[q] == 3 - colour}
    left = [liberties(after, labels == k) for k in opposing]
    return Judgement(liberties(after, chain(after, p)), sum(not libs for libs in left),
                     [next(iter(libs)) for libs in left if len(libs) == 1])


def escape_of(j):
    """The liberty every chain put in atari shares, or None."""
    return j.in_atari[0] if j.in_atari and len(set(j.in_atari)) == 1 else None


def quiet(board, p, colour):
    """colour on empty p keeps two liberties, and neither captures nor ataris."""
    j = judge(board, p, colour)
    return len(j.own) >= 2 and j.captured == 0 and not j.in_atari


def protection(board, owner, q, colour):
    """The stones colour needs from q on to be safe: [q] when quiet, [q, r] when q leaves
    its chain one liberty r in colour's territory where a stone is quiet, else None."""
    if quiet(board, q, colour):
        return [q]
    j = judge(board, q, colour)
    if len(j.own) == 1 and not j.captured and not j.in_atari:
        r = next(iter(j.own))
        if owner[r] == colour and quiet(played(board, q, colour), r, colour):
            return [q, r]
    return None


def victims_escape(board, owner, p, colour, escape):
    """After colour on p, the stones by which the chains it put in atari escape at escape."""
    return protection(played(board, p, colour), owner, escape, 3 - colour)


class Filling:
    """One board being filled, and the points it owes."""

    def __init__(self, board, owner):
        self.board, self.owner = board.copy(), owner
        self.owed = np.zeros(board.shape, np.int8)

    def put(self, p, colour, owed=False):
        self.board[p] = colour
        if owed:
            self.owed[p] = colour

    def connect_chains_in_atari(self):
        """Sweeps in board order, each chain judged once per sweep at its first stone."""
        changed = True
        while changed:
            changed = False
            judged = np.zeros(self.board.shape, bool)
            for p in points(self.board):
                colour = self.board[p]
                if colour == EMPTY or judged[p]:
                    continue
                stones = chain(self.board, p)
                judged |= stones
                libs = liberties(self.board, stones)
                if len(libs) == 1:
                    q = next(iter(libs))
                    if self.owner[q] == colour and quiet(self.board, q, colour):
                        self.put(q, colour, owed=True)
                        changed = True

    def fill_with_atari(self, p, colour):
        victim = 3 - colour
        j = judge(self.board, p, colour)
        escape = escape_of(j)
        if len(j.own) < 2 or j.captured or escape is None or self.owner[escape] not in (NEUTRAL, victim):
            return False
        escape_moves = victims_escape(self.board, self.owner, p, colour, escape)
        if escape_moves is None:
            return False
        self.put(p, colour)
        for q in escape_moves:
            self.put(q, victim, owed=self.owner[q] == victim)
        return True

    def fill_after_connecting(self, p, colour):
        j = judge(self.board, p, colour)
        if len(j.own) != 1 or j.captured:
            return False
        last = next(iter(j.own))
        if self.owner[last] != colour or not quiet(self.board, last, colour):
            return False
        connected = played(self.board, last, colour)
        j = judge(connected, p, colour)
        escape = escape_of(j)
        if len(j.own) < 2 or j.captured:
            return False
        escape_moves = []
        if j.in_atari:
            if escape is None or self.owner[escape] not in (NEUTRAL, 3 - colour):
                return False
            escape_moves = victims_escape(connected, self.owner, p, colour, escape)
            if escape_moves is None:
                return False
        self.put(last, colour, owed=True)
        self.put(p, colour)
        for q in escape_moves:
            self.put(q, 3 - colour, owed=self.owner[q] == 3 - colour)
        return True

    def first(self, dame, fill, colour):
        """The first fill of this kind colour can make, in board order; whether made."""
        return any(self.board[p] == EMPTY and fill(p, colour) for p in dame)

    def quiet_fills(self, dame, colour):
        """Every quiet fill colour can make, in board order; whether any was made."""
        made = False
        for p in dame:
            if self.board[p] == EMPTY and quiet(self.board, p, colour):
                self.put(p, colour)
                made = True
        return made

    def fill_dame(self, dame, favoured):
        other = 3 - favoured
        while (self.quiet_fills(dame, favoured)
               or self.first(dame, self.fill_with_atari, other)
               or self.quiet_fills(dame, other)
               or self.first(dame, self.fill_with_atari, favoured)
               or self.first(dame, self.fill_after_connecting, other)
               or self.first(dame, self.fill_after_connecting, favoured)):
            pass


def fillable(board, owner, p, colour):
    """Whether colour can ever fill empty p (the negation of the seki test)."""
    j = judge(board, p, colour)
    can = j.captured > 0 or len(j.own) >= 2
    if len(j.own) == 1 and not j.captured and owner[next(iter(j.own))] == colour:
        can = quiet(played(board, p, colour), next(iter(j.own)), colour)
    escape = escape_of(j)
    if can and not j.captured and escape is not None and owner[escape] == 3 - colour:
        can = victims_escape(board, owner, p, colour, escape) is not None
    return can


def owe_vital_points(filled, owner, dead_colour, owed, colour):
    """Owe the vital point of each three-point eye of colour holding every liberty of the
    chains around it and no lifted dead stone (rulelab.scoring.vital)."""
    eyes, count = ndimage.label(filled == EMPTY, CROSS)
    labels, _ = ndimage.label(filled == colour, CROSS)
    for k in range(1, count + 1):
        eye = eyes == k
        if eye.sum() != 3 or (owner[eye] != colour).any() or (dead_colour[eye] != EMPTY).any():
            continue
        around = np.isin(labels, labels[ndimage.binary_dilation(eye, CROSS) & (labels > 0)])
        if not liberties(filled, around) <= set(map(tuple, np.argwhere(eye))):
            continue
        for p in map(tuple, np.argwhere(eye)):
            if sum(eye[q] for q in neighbours(filled, p)) == 2:
                owed[p] = colour


def seki_of(filled, owner, dame, dead_colour):
    """The seki liberties among the dame a filling left empty, and the stones in seki."""
    with_dead = np.where((dead_colour != EMPTY) & (filled == EMPTY), dead_colour, filled)
    liberty = np.zeros(filled.shape, bool)
    in_seki = np.zeros(filled.shape, bool)
    for p in dame:
        if filled[p] != EMPTY:
            continue
        seki = not fillable(filled, owner, p, BLACK) and not fillable(filled, owner, p, WHITE)
        if not seki and dead_colour[p] == EMPTY and (with_dead != filled).any():
            seki = not fillable(with_dead, owner, p, BLACK) and not fillable(with_dead, owner, p, WHITE)
        if seki:
            liberty[p] = True
            for q in neighbours(filled, p):
                if filled[q] != EMPTY:
                    in_seki |= chain(filled, q)
    return liberty, in_seki


def eye_in_atari_seki(board):
    """The stones of the chains around a one-point eye with no other liberty."""
    in_seki = np.zeros(board.shape, bool)
    for p in points(board):
        around = neighbours(board, p)
        if board[p] != EMPTY or {board[q] for q in around} not in ({BLACK}, {WHITE}):
            continue
        chains = [chain(board, q) for q in around]
        if all(liberties(board, stones) == {p} for stones in chains):
            for stones in chains:
                in_seki |= stones
    return in_seki


def captures(board, defender, space, others, outside, targets, mover):
    """The exact reader's answer (:mod:`rulelab.life.reading`, the 1989 ko rule) on masks:
    1 if the side against ``defender``, ``mover`` first, captures a stone of ``targets``."""
    stride = board.shape[1] + 2

    def padded(mask):
        return np.array([(r + 1) * stride + c + 1 for r, c in np.argwhere(mask)], np.int64).reshape(-1)

    reach = np.concatenate([padded(m) for m in outside] + [np.empty(0, np.int64)])
    return attacker_wins(pad(board), stride, defender, padded(space), padded(others), reach, padded(targets),
                         False, 2 * (int(space.sum()) + len(reach)) + 8, SEKI_MAX_STATES, mover)


def largest_chain(board, stones):
    """The chain of most stones among a mask's (the first in board order on a tie), and the rest."""
    labels, count = ndimage.label(stones, CROSS)
    sizes = [(labels == k).sum() for k in range(1, count + 1)]
    body = labels == 1 + int(np.argmax(sizes))
    return body, stones & ~body


def seki_by_reading(board, owner, in_seki):
    """The stones and shared liberties of the seki the exact reader finds for groups of one
    eye region whose other liberties touch only their own and opposing chains."""
    stones_in_seki, seki_liberty = np.zeros(board.shape, bool), np.zeros(board.shape, bool)
    for colour in (BLACK, WHITE):
        other, eyes = 3 - colour, owner == colour
        regions, _ = ndimage.label(eyes, CROSS)
        groups, count = ndimage.label((board == colour) | eyes, CROSS)
        for g in range(1, count + 1):
            group = groups == g
            own = np.unique(regions[group & eyes])
            stones = group & (board == colour)
            space = regions == own[0] if len(own) == 1 else None
            if space is None or (stones & in_seki).any() or space.sum() > MAX_EYE_SPACE:
                continue
            shared = ndimage.binary_dilation(stones, CROSS) & (board == EMPTY) & ~space
            around = [q for p in map(tuple, np.argwhere(shared)) for q in neighbours(board, p)]
            if not shared.any() or any(board[q] == EMPTY or (board[q] == colour and not stones[q]) for q in around):
                continue  # shut in, or an open dame or a way to friends beside it
            opposing = np.zeros(board.shape, bool)
            for q in around:
                if board[q] == other:
                    opposing |= chain(board, q)
            theirs = ndimage.binary_dilation(opposing, CROSS) & (board == EMPTY) & ~shared
            if theirs.sum() > MAX_OUTSIDE or space.sum() + shared.sum() + theirs.sum() > MAX_READ_POINTS:
                continue
            body, rest = largest_chain(board, stones)
            their_body, their_rest = largest_chain(board, opposing)
            taken = np.where(shared, other, board).astype(np.int8)
            if (captures(board, colour, space, rest, [shared, theirs], body, other) == 0
                    and captures(board, other, space, their_rest, [shared, theirs], their_body, colour) == 0
                    and captures(taken, colour, space, rest, [], body, colour) == 1):
                stones_in_seki |= stones | opposing
                seki_liberty |= shared
    return stones_in_seki, seki_liberty


def classify(board, dead, remove_dead):
    """What :func:`rulelab.scoring.classify.classify_board` returns, computed plainly."""
    board = np.asarray(board, np.int8)
    removed = dead & (board != EMPTY) if remove_dead else np.zeros(board.shape, bool)
    dead_colour = np.where(removed, board, EMPTY)
    b = np.where(removed, EMPTY, board)
    owner = owners(b)
    dame = [p for p in points(b) if b[p] == EMPTY and owner[p] == NEUTRAL]

    connected = Filling(b, owner)
    connected.connect_chains_in_atari()
    owed = np.zeros(b.shape, np.int8)
    seki_liberty = np.ones(b.shape, bool)
    in_seki = np.ones(b.shape, bool)
    for favoured in (BLACK, WHITE):
        filling = Filling(connected.board, owner)
        filling.owed = connected.owed.copy()
        filling.fill_dame(dame, favoured)
        owe_vital_points(filling.board, owner, dead_colour, filling.owed, favoured)
        owed[filling.owed == favoured] = favoured
        liberty, stones = seki_of(filling.board, owner, dame, dead_colour)
        seki_liberty &= liberty
        in_seki &= stones
    in_seki |= eye_in_atari_seki(b)
    read_stones, read_liberties = seki_by_reading(b, owner, in_seki)
    in_seki |= read_stones
    seki_liberty |= read_liberties

    tax, seki_region, whole_group = {}, np.zeros(b.shape, bool), np.zeros(b.shape, bool)
    for colour in (BLACK, WHITE):
        eyes = owner == colour
        regions, count = ndimage.label(eyes, CROSS)
        beside_seki = ndimage.binary_dilation((b == colour) & in_seki, CROSS)
        seki_eyes = np.isin(regions, np.unique(regions[eyes & beside_seki])) & eyes
        tax[colour] = 0
        groups, count = ndimage.label(((b == colour) & ~in_seki) | (eyes & ~seki_eyes), CROSS)
        lives_through_seki = np.zeros(b.shape, bool)
        for g in range(1, count + 1):
            group = groups == g
            room = sum(1 if (regions == k).sum() <= 6 else 2 for k in np.unique(regions[group & eyes]))
            if room < 2 and (ndimage.binary_dilation(group & ~eyes, CROSS) & seki_eyes).any():
                lives_through_seki |= group & eyes
            else:
                tax[colour] += min(int((group & eyes).sum()), 2)
        seki_region |= seki_eyes | lives_through_seki
        tax[colour] += int((seki_eyes | lives_through_seki).sum())  # a seki group fills none
        wholes, count = ndimage.label((b == colour) | eyes, CROSS)  # the whole-group reading
        whole_group |= eyes & np.isin(wholes, np.unique(wholes[(b == colour) & in_seki]))

    classes = np.full(b.shape, OPEN_DAME, np.int8)
    for p in points(b):
        if b[p] != EMPTY:
            classes[p] = b[p]
        elif owner[p] in (BLACK, WHITE):
            base = SEKI_POINT_B if seki_region[p] else OWED_B if owed[p] else TERRITORY_B
            classes[p] = base + owner[p] - 1
        elif seki_liberty[p]:
            classes[p] = SEKI_DAME

    sekis, count = ndimage.label(in_seki | seki_liberty, CROSS)
    per_seki = [int((seki_liberty & (sekis == k)).sum()) for k in range(1, count + 1)]
    in_a_seki = classes[removed]
    numbers = [*np.bincount(classes.ravel(), minlength=SEKI_DAME + 1)]
    numbers += [int((dead_colour == c).sum()) for c in (BLACK, WHITE)]
    numbers += [int(np.isin(in_a_seki[dead_colour[removed] == c], (SEKI_POINT_B, SEKI_POINT_W, SEKI_DAME)).sum())
                for c in (BLACK, WHITE)]
    numbers += [tax[BLACK], tax[WHITE], sum(n // 2 for n in per_seki), sum(n % 2 for n in per_seki)]
    group_only = whole_group & ~seki_region
    numbers += [int((group_only & (classes == k)).sum()) for k in (TERRITORY_B, TERRITORY_W, OWED_B, OWED_W)]
    numbers += [int((group_only & (dead_colour == c)).sum()) for c in (BLACK, WHITE)]
    numbers += [0, 0]  # no capture of standing dead stones is owed here (they are lifted first)
    return classes, np.array(numbers, np.int64)
