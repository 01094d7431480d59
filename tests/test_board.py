"""The compiled board kernels, on positions written as diagrams."""

import numpy as np
import pytest

from rulelab.board import (
    KO,
    LEGAL,
    NO_POINT,
    OCCUPIED,
    SUICIDE,
    SUICIDE_ANY,
    SUICIDE_MULTI,
    SUICIDE_NONE,
    WALL,
    empty_board,
    is_simple_eye,
    legality,
    liberty_map,
    pad,
    play,
    point_coords,
    point_index,
    scratch,
    splitmix64,
    string_and_liberties,
    unpad,
    zobrist_hash,
    zobrist_keys,
)
from rulelab.errors import GameError
from rulelab.gamegen import random_legal_game
from rulelab.position import BLACK, WHITE, board_from_diagram, board_to_diagram


class Goban:
    """A padded board built from a diagram, played on with (row, col) coordinates."""

    def __init__(self, diagram, suicide=SUICIDE_NONE):
        start = board_from_diagram(diagram)
        self.rows, self.cols = start.shape
        self.stride = self.cols + 2
        self.padded = pad(start)
        self.buffer = scratch(self.padded)
        self.suicide = suicide

    def p(self, row, col):
        return point_index(row, col, self.cols)

    def play(self, colour, row, col, ko=NO_POINT):
        """Play; check that :func:`legality` predicted the status without touching the board.

        Returns ``(status, captured, self_captured, ko point or None, removed points)``.
        """
        before = self.padded.copy()
        expected = legality(self.padded, self.stride, self.p(row, col), colour, ko,
                            self.suicide, self.buffer)
        assert (self.padded == before).all(), "legality changed the board"
        status, captured, self_captured, ko_point = play(
            self.padded, self.stride, self.p(row, col), colour, ko, self.suicide, self.buffer)
        assert status == expected
        if status != LEGAL:
            assert (self.padded == before).all(), "a refused move changed the board"
        removed = {point_coords(q, self.cols) for q in self.buffer[:captured + self_captured]}
        ko_coords = None if ko_point == NO_POINT else point_coords(ko_point, self.cols)
        return status, captured, self_captured, ko_coords, removed

    def diagram(self):
        return board_to_diagram(unpad(self.padded, self.rows, self.cols))


def tidy(diagram):
    """A diagram in the canonical spacing of :func:`board_to_diagram`."""
    return board_to_diagram(board_from_diagram(diagram))


def test_padding_round_trip_and_walls():
    board = board_from_diagram("""
        X . O
        . X .
    """)
    padded = pad(board)
    assert padded.dtype == np.int8 and padded.shape == (4 * 5,)
    assert (unpad(padded, 2, 3) == board).all()
    inside = np.zeros(padded.size, bool)
    for r in range(2):
        for c in range(3):
            inside[point_index(r, c, 3)] = True
            assert point_coords(point_index(r, c, 3), 3) == (r, c)
    assert (padded[~inside] == WALL).all()
    assert (empty_board(2, 3) == pad(np.zeros((2, 3), np.int8))).all()


def test_single_stone_capture_in_the_middle():
    g = Goban("""
        . X .
        X O X
        . . .
    """)
    assert g.play(BLACK, 2, 1) == (LEGAL, 1, 0, None, {(1, 1)})
    assert g.diagram() == tidy("""
        . X .
        X . X
        . X .
    """)


def test_corner_and_edge_captures():
    g = Goban("""
        O X . .
        . . . .
        . . . .
        . X O X
    """)
    assert g.play(BLACK, 1, 0) == (LEGAL, 1, 0, None, {(0, 0)})
    assert g.play(BLACK, 2, 2) == (LEGAL, 1, 0, None, {(3, 2)})
    assert g.diagram() == tidy("""
        . X . .
        X . . .
        . . X .
        . X . X
    """)


def test_one_stone_captures_two_strings_sharing_their_last_liberty():
    g = Goban("""
        O O . O O
        X X . X X
        . . . . .
    """)
    assert g.play(BLACK, 0, 2) == (LEGAL, 4, 0, None, {(0, 0), (0, 1), (0, 3), (0, 4)})
    assert g.diagram() == tidy("""
        . . X . .
        X X . X X
        . . . . .
    """)


def test_captures_come_first_and_save_a_stone_without_liberties():
    # White's corner stone has no liberty once White plays (1, 1), but the two black
    # stones that surround it are taken first, so it lives.
    g = Goban("""
        O X O
        X . .
        O . .
    """)
    assert g.play(WHITE, 1, 1) == (LEGAL, 2, 0, None, {(0, 1), (1, 0)})
    assert g.diagram() == tidy("""
        O . O
        . O .
        O . .
    """)


def test_snapback():
    g = Goban("""
        . . O X .
        O O O X .
        X X X X .
    """)
    assert g.play(BLACK, 0, 1) == (LEGAL, 0, 0, None, set())  # throw-in, self-atari
    # White takes it, which is no ko: the capturing stone joins White's string ...
    assert g.play(WHITE, 0, 0) == (LEGAL, 1, 0, None, {(0, 1)})
    # ... whose last liberty is the point just emptied.
    status, captured, _, ko, removed = g.play(BLACK, 0, 1)
    assert (status, captured, ko) == (LEGAL, 5, None)
    assert removed == {(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)}
    assert g.diagram() == tidy("""
        . X . X .
        . . . X .
        X X X X .
    """)


def test_simple_ko_point_and_recapture():
    g = Goban("""
        . X O .
        X O . O
        . X O .
    """)
    assert g.play(BLACK, 1, 2) == (LEGAL, 1, 0, (1, 1), {(1, 1)})
    assert g.play(WHITE, 1, 1, ko=g.p(1, 1))[0] == KO
    # once the ko no longer binds (White played elsewhere first), the retake is legal
    assert g.play(WHITE, 1, 1) == (LEGAL, 1, 0, (1, 2), {(1, 2)})


def test_capturing_two_stones_makes_no_ko():
    g = Goban("""
        . X X O .
        X O O . O
        . X X O .
    """)
    assert g.play(BLACK, 1, 3) == (LEGAL, 2, 0, None, {(1, 1), (1, 2)})


def test_occupied_point_is_refused():
    g = Goban("X .")
    assert g.play(WHITE, 0, 0)[0] == OCCUPIED
    assert g.play(BLACK, 0, 0)[0] == OCCUPIED
    assert g.diagram() == tidy("X .")


EYE = """
    . X . .
    X X . .
    . . . .
"""


@pytest.mark.parametrize("suicide", [SUICIDE_NONE, SUICIDE_MULTI])
def test_single_stone_suicide_is_illegal_unless_any(suicide):
    g = Goban(EYE, suicide)
    assert g.play(WHITE, 0, 0)[0] == SUICIDE
    assert g.diagram() == tidy(EYE)


def test_single_stone_suicide_under_any_removes_the_stone():
    g = Goban(EYE, SUICIDE_ANY)
    assert g.play(WHITE, 0, 0) == (LEGAL, 0, 1, None, {(0, 0)})
    assert g.diagram() == tidy(EYE)


TWO_STONES_IN_A_CORNER = """
    . . X .
    O O X .
    X X X .
"""


@pytest.mark.parametrize("suicide, status", [
    (SUICIDE_NONE, SUICIDE), (SUICIDE_MULTI, LEGAL), (SUICIDE_ANY, LEGAL)])
def test_multi_stone_suicide(suicide, status):
    g = Goban(TWO_STONES_IN_A_CORNER, suicide)
    assert g.play(WHITE, 0, 0)[0] == LEGAL  # still a liberty at (0, 1)
    result = g.play(WHITE, 0, 1)
    assert result[0] == status
    if status == LEGAL:
        assert result == (LEGAL, 0, 4, None, {(0, 0), (0, 1), (1, 0), (1, 1)})
        assert g.diagram() == tidy("""
            . . X .
            . . X .
            X X X .
        """)


def test_strings_and_liberties():
    board = board_from_diagram("""
        X X . O
        . X O O
        O . . O
    """)
    padded = pad(board)
    buffer = scratch(padded)
    n, liberties = string_and_liberties(padded, 6, point_index(0, 0, 4), buffer)
    assert (n, liberties) == (3, 3)
    assert {point_coords(q, 4) for q in buffer[:n]} == {(0, 0), (0, 1), (1, 1)}
    assert (padded == pad(board)).all(), "the flood fill left marks behind"
    assert liberty_map(board).tolist() == [
        [3, 3, -1, 2],
        [-1, 3, 2, 2],
        [2, -1, -1, 2],
    ]


def test_simple_eye():
    g = Goban(EYE)
    assert is_simple_eye(g.padded, g.stride, g.p(0, 0), BLACK)
    assert not is_simple_eye(g.padded, g.stride, g.p(0, 0), WHITE)
    assert not is_simple_eye(g.padded, g.stride, g.p(0, 2), BLACK)


def test_two_by_two_board():
    g = Goban("""
        . .
        . .
    """)
    g.play(BLACK, 0, 0)
    g.play(WHITE, 1, 1)
    g.play(BLACK, 0, 1)
    assert g.play(WHITE, 1, 0) == (LEGAL, 2, 0, None, {(0, 0), (0, 1)})
    assert g.play(BLACK, 0, 0) == (LEGAL, 0, 0, None, set())
    assert g.play(BLACK, 0, 1) == (LEGAL, 2, 0, None, {(1, 0), (1, 1)})
    assert g.play(WHITE, 1, 0) == (LEGAL, 0, 0, None, set())
    assert g.play(BLACK, 1, 1) == (LEGAL, 1, 0, None, {(1, 0)})


def test_twenty_five_by_twenty_five_corner():
    g = Goban("\n".join(". " * 25 for _ in range(25)))
    g.play(BLACK, 24, 23)
    g.play(BLACK, 23, 24)
    assert g.play(WHITE, 24, 24)[0] == SUICIDE
    g.play(WHITE, 24, 22)
    g.play(WHITE, 23, 23)
    g.play(WHITE, 22, 24)
    assert g.play(WHITE, 24, 24) == (LEGAL, 2, 0, None, {(24, 23), (23, 24)})


def test_splitmix_and_zobrist_keys_are_fixed():
    assert splitmix64(0)[1] == np.uint64(0xE220A8397B1DCDAF)  # SplitMix64's published first value
    keys = zobrist_keys(9, 9)
    assert keys.dtype == np.uint64
    assert len(np.unique(keys[1:])) == 2 * 81 + 1  # distinct per stone, zero off the board
    assert (keys[0] == 0).all()
    assert zobrist_keys(19, 19)[BLACK, point_index(3, 4, 19)] == keys[BLACK, point_index(3, 4, 9)]
    board = empty_board(9, 9)
    board[point_index(0, 0, 9)], board[point_index(4, 4, 9)] = BLACK, WHITE
    assert zobrist_hash(board, keys) == np.uint64(1040482982702380072)


def test_zobrist_hash_follows_play_incrementally():
    keys = zobrist_keys(9, 9)
    board, buffer, h, ko = empty_board(9, 9), np.empty(121, np.int32), np.uint64(0), NO_POINT
    for _, colour, r, c in random_legal_game(9, 9, 150, seed=7):
        if r < 0:
            ko = NO_POINT
            continue
        p = point_index(r, c, 9)
        status, captured, _, ko = play(board, 11, p, colour, ko, SUICIDE_NONE, buffer)
        assert status == LEGAL
        h ^= keys[colour, p]
        for q in buffer[:captured]:
            h ^= keys[3 - colour, q]
        assert h == zobrist_hash(board, keys)


@pytest.mark.parametrize("rows, cols", [(2, 2), (5, 7), (9, 9), (19, 19), (25, 25)])
def test_random_legal_game_is_deterministic_and_ends_with_two_passes(rows, cols):
    events = random_legal_game(rows, cols, 3 * rows * cols, seed=11)
    assert events.dtype == np.int16 and events.shape[1] == 4
    assert (events == random_legal_game(rows, cols, 3 * rows * cols, seed=11)).all()
    assert (events[:, 0] == 0).all()
    assert (events[::2, 1] == BLACK).all() and (events[1::2, 1] == WHITE).all()
    assert (events[-2:, 2:] == -1).all()
    on_board = events[:, 2] >= 0
    assert (events[on_board, 2] < rows).all() and (events[on_board, 3] < cols).all()


def test_random_legal_game_options():
    assert not (random_legal_game(9, 9, 80, seed=1) == random_legal_game(9, 9, 80, seed=2)).all()
    open_game = random_legal_game(9, 9, 20, seed=1, end_with_passes=False)
    assert len(open_game) == 20 and (open_game[:, 2] >= 0).all()
    assert (open_game == random_legal_game(9, 9, 20, seed=1)[:20]).all()


@pytest.mark.parametrize("suicide", [SUICIDE_NONE, SUICIDE_MULTI, SUICIDE_ANY])
def test_legality_agrees_with_play_everywhere(suicide):
    """On positions from random games, for both colours, every point, with the ko in force."""
    for seed in range(4):
        events = random_legal_game(7, 7, 200, seed=seed, end_with_passes=False)
        board, buffer, ko = empty_board(7, 7), np.empty(81, np.int32), NO_POINT
        for step, (_, colour, r, c) in enumerate(events):
            if step % 10 == 0:
                for mover in (BLACK, WHITE):
                    binding = ko if mover == colour else NO_POINT
                    for p in range(board.size):
                        if board[p] == WALL:
                            continue
                        trial = board.copy()
                        expected = play(trial, 9, p, mover, binding, suicide, buffer)[0]
                        assert legality(board, 9, p, mover, binding, suicide, buffer) == expected
            if r >= 0:
                ko = play(board, 9, point_index(r, c, 7), colour, ko, SUICIDE_NONE, buffer)[3]
            else:
                ko = NO_POINT


@pytest.mark.parametrize("args", [(0, 9, 10, 0), (9, 53, 10, 0), (9, 9, -1, 0), (9, 9, 10, -1),
                                  (9, 9, 10, 2**64), (9, 9, 10.0, 0)])
def test_random_legal_game_checks_its_arguments(args):
    with pytest.raises(GameError):
        random_legal_game(*args)
