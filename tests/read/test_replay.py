"""Replaying events into a final position: captures, ko, suicide, setup, counters."""

import tarfile

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sgfmill import sgf, sgf_moves

from rulelab.board import liberty_map
from rulelab.errors import GameError, IllegalMoveError, RulesError
from rulelab.gamegen import random_legal_game
from rulelab.position import BLACK, EMPTY, WHITE, board_from_diagram, board_to_diagram
from rulelab.read.replay import Replay, replay

KIND = {"B": (0, BLACK), "W": (0, WHITE), "AB": (1, BLACK), "AW": (1, WHITE), "AE": (2, EMPTY)}


def game(record: str) -> np.ndarray:
    """Events from ``"AB aa B ba W -"``: SGF property and SGF point (column letter, then
    row letter from the top), ``-`` for a pass."""
    tokens = record.split()
    events = []
    for prop, point in zip(tokens[::2], tokens[1::2]):
        kind, colour = KIND[prop]
        row, col = (-1, -1) if point == "-" else (ord(point[1]) - 97, ord(point[0]) - 97)
        events.append((kind, colour, row, col))
    return np.array(events, dtype=np.int16).reshape(-1, 4)


def setup(diagram: str) -> str:
    """The ``AB``/``AW`` record that sets up a diagram's stones."""
    board = board_from_diagram(diagram)
    return " ".join(f"{'AB' if board[r, c] == BLACK else 'AW'} {chr(97 + c)}{chr(97 + r)}"
                    for r, c in zip(*np.nonzero(board)))


def tidy(diagram):
    return board_to_diagram(board_from_diagram(diagram))


def assert_identity(result: Replay):
    p = result.position
    assert p.placed_black == int((p.board == BLACK).sum()) + p.captured_black
    assert p.placed_white == int((p.board == WHITE).sum()) + p.captured_white


# --- captures, ko, suicide, occupied ------------------------------------------------

def test_capture_counts_and_turn():
    result = replay(3, 3, game("B ba W aa B ab"))
    p = result.position
    assert board_to_diagram(p.board) == tidy("""
        . X .
        X . .
        . . .
    """)
    assert (p.captured_black, p.captured_white, p.placed_black, p.placed_white) == (0, 1, 2, 1)
    assert (p.to_move, p.last_placer, result.last_mover, result.moves) == (WHITE, BLACK, BLACK, 3)
    assert result.illegal == [] and p.ko_point is None and not result.ended_by_passes
    assert_identity(result)


KO_SETUP = setup("""
    . X O .
    X O . O
    . X O .
""")


def test_ko_point_is_reported_for_the_side_to_move():
    result = replay(3, 4, game(KO_SETUP + " B cb"))
    assert result.position.ko_point == (1, 1)
    assert result.position.to_move == WHITE
    # a pass releases the ko
    assert replay(3, 4, game(KO_SETUP + " B cb W -")).position.ko_point is None


def test_immediate_ko_recapture_is_played_and_recorded():
    result = replay(3, 4, game(KO_SETUP + " B cb W bb"))
    p = result.position
    assert result.illegal == [(2, "ko")]
    assert board_to_diagram(p.board) == tidy("""
        . X O .
        X O . O
        . X O .
    """)
    assert (p.captured_black, p.captured_white) == (1, 1)
    assert p.ko_point == (1, 2)  # the illegal retake makes a ko of its own
    assert_identity(result)


def test_ko_retake_after_a_move_elsewhere_is_legal():
    result = replay(3, 4, game(KO_SETUP + " B cb W da B ac W bb"))
    assert result.illegal == []
    assert result.position.captured_black == 1


def test_ko_binds_only_the_opponent():
    # Black captures and, with White's turn missing from the record, fills the ko himself
    result = replay(3, 4, game(KO_SETUP + " B cb B bb"))
    assert result.illegal == []
    assert result.position.board[1, 1] == BLACK


def test_occupied_move_is_skipped_and_recorded():
    result = replay(3, 3, game("B aa W aa B bb"))
    p = result.position
    assert result.illegal == [(2, "occupied")]
    assert result.moves == 3
    assert (p.placed_black, p.placed_white, p.to_move, p.last_placer) == (2, 0, WHITE, BLACK)
    assert_identity(result)


EYE_SETUP = setup("""
    . X .
    X X .
    . . .
""")


@pytest.mark.parametrize("suicide, flagged", [("none", True), ("multi", True), ("any", False)])
def test_single_stone_suicide(suicide, flagged):
    result = replay(3, 3, game(EYE_SETUP + " W aa"), suicide=suicide)
    p = result.position
    assert result.illegal == ([(1, "suicide")] if flagged else [])
    # played either way, so the board follows the record: the stone is gone and counted
    assert p.board[0, 0] == EMPTY
    assert (p.placed_white, p.captured_white, p.last_placer, p.to_move) == (1, 1, WHITE, BLACK)
    assert_identity(result)


@pytest.mark.parametrize("suicide, flagged", [("none", True), ("multi", False), ("any", False)])
def test_multi_stone_suicide(suicide, flagged):
    position = setup("""
        . . X .
        O O X .
        X X X .
    """)
    result = replay(3, 4, game(position + " W aa W ba"), suicide=suicide)
    assert result.illegal == ([(2, "suicide")] if flagged else [])
    p = result.position
    assert board_to_diagram(p.board) == tidy("""
        . . X .
        . . X .
        X X X .
    """)
    assert (p.placed_white, p.captured_white) == (4, 4)
    assert_identity(result)


# --- superko ------------------------------------------------------------------------

TWO_BY_TWO_CYCLE = "B bb W aa B ab W ba B bb W ab B bb"


@pytest.mark.parametrize("ko", ["positional", "situational"])
def test_superko_is_detected_not_refused(ko):
    plain = replay(2, 2, game(TWO_BY_TWO_CYCLE))
    checked = replay(2, 2, game(TWO_BY_TWO_CYCLE), ko=ko)
    assert plain.illegal == []
    assert checked.illegal == [(7, "superko")]  # the position after move 1 again, White to move
    for result in (plain, checked):
        assert board_to_diagram(result.position.board) == tidy("""
            . .
            . X
        """)
        assert (result.position.captured_black, result.position.captured_white) == (3, 3)


def test_a_ko_recapture_is_recorded_once():
    result = replay(3, 4, game(KO_SETUP + " B cb W bb"), ko="positional")
    assert result.illegal == [(2, "ko")]


@pytest.mark.parametrize("ko, flagged", [("positional", True), ("situational", False)])
def test_single_stone_suicide_repeats_the_stones_with_the_other_side_to_move(ko, flagged):
    """Under NZ's situational superko a lone stone's suicide is as good as a pass."""
    result = replay(3, 3, game(EYE_SETUP + " W aa"), suicide="any", ko=ko)
    assert result.illegal == ([(1, "superko")] if flagged else [])


@pytest.mark.parametrize("ko", ["positional", "situational"])
def test_a_ko_retaken_after_two_passes_repeats_the_situation(ko):
    # the passes free the ko for simple ko; Black is to move again where he moved first
    result = replay(3, 4, game(KO_SETUP + " B cb W - B - W bb"), ko=ko)
    assert result.illegal == [(4, "superko")]


def test_the_white_to_move_key_is_the_next_zobrist_slot():
    from rulelab.board import MAX_SIZE, ZOBRIST_SEED, splitmix64
    from rulelab.read.replay import WHITE_TO_MOVE

    assert WHITE_TO_MOVE == splitmix64(ZOBRIST_SEED ^ np.uint64(3 * MAX_SIZE * MAX_SIZE))[1]


def test_an_unknown_ko_rule_is_refused():
    with pytest.raises(RulesError, match="ko must be one of"):
        replay(3, 3, game("B aa"), ko="triple")


# --- setup, passes, turn ------------------------------------------------------------

def test_setup_anywhere_keeps_the_counters_consistent():
    result = replay(3, 3, game(
        "AB aa AB bb B cc W ca"
        " AE aa"        # removes a black setup stone
        " AW bb"        # replaces a black stone by a white one
        " AB ac AB cb"
        " AW ca"        # the same stone again: nothing changes
        " AE ba"        # clears an empty point: nothing to count
        " B ba"))       # captures White's (0, 2)
    p = result.position
    assert board_to_diagram(p.board) == tidy("""
        . X .
        . O X
        X . X
    """)
    # Black: 2 setup + 1 move - 1 cleared - 1 replaced + 2 setup + 1 move
    assert (p.placed_black, p.placed_white) == (4, 2)
    assert (p.captured_black, p.captured_white) == (0, 1)
    assert result.moves == 3
    assert_identity(result)


def test_setup_between_moves_clears_the_ko():
    result = replay(3, 4, game(KO_SETUP + " B cb AB dc W bb"))
    assert result.illegal == []
    assert replay(3, 4, game(KO_SETUP + " B cb AB dc")).position.ko_point is None


def test_setup_does_not_capture():
    result = replay(2, 2, game("AB aa AW ba AW ab"))
    assert result.position.board.tolist() == [[BLACK, WHITE], [WHITE, EMPTY]]


@pytest.mark.parametrize("record, passes, ended", [
    ("B aa W - B -", (1, 1), True),
    ("B - W -", (1, 1), True),
    ("B aa W - AB cc B -", (1, 1), True),
    ("B - B -", (2, 0), False),
    ("B - W - B aa", (1, 1), False),
    ("B aa W -", (0, 1), False),
])
def test_passes(record, passes, ended):
    result = replay(3, 3, game(record))
    assert (result.position.passes_black, result.position.passes_white) == passes
    assert result.ended_by_passes is ended


def test_last_placer_ignores_passes():
    result = replay(3, 3, game("B aa W bb B -"))
    assert (result.position.last_placer, result.last_mover, result.position.to_move) == (
        WHITE, BLACK, WHITE)


@pytest.mark.parametrize("record, handicap, to_move, last_mover", [
    ("", 0, BLACK, EMPTY),
    ("AB cc AB gg", 2, WHITE, EMPTY),
    ("AB cc AB gg", 0, BLACK, EMPTY),
    ("AB cc AW gg", 2, BLACK, EMPTY),
    ("AB cc AB gg B dd", 2, WHITE, BLACK),
    ("AB cc AB gg W dd", 2, BLACK, WHITE),
])
def test_side_to_move(record, handicap, to_move, last_mover):
    result = replay(9, 9, game(record), handicap=handicap)
    assert (result.position.to_move, result.last_mover) == (to_move, last_mover)
    assert result.position.handicap == handicap


def test_territory_marks_are_passed_on():
    marks = np.zeros((3, 3), np.int8)
    marks[0] = BLACK
    result = replay(3, 3, game("B aa"), territory_marks=marks)
    assert result.position.territory_marks is marks


# --- board shapes -------------------------------------------------------------------

def test_rectangular_board_keeps_rows_and_columns_apart():
    # 2 rows, 5 columns; SGF "ea" is column 4, row 0 (top right)
    result = replay(2, 5, game("B ea W da B db W ab B ca"))
    assert board_to_diagram(result.position.board) == tidy("""
        . . X . X
        O . . X .
    """)
    assert result.position.captured_white == 1
    assert replay(5, 2, game("B ae")).position.board[4, 0] == BLACK


@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 25), (25, 2), (25, 25), (19, 19)])
def test_random_games_replay_legally(rows, cols):
    result = replay(rows, cols, random_legal_game(rows, cols, 4 * rows * cols, seed=3))
    assert result.illegal == []
    assert result.ended_by_passes
    assert_identity(result)


# --- validation ---------------------------------------------------------------------

@pytest.mark.parametrize("rows, cols", [(0, 9), (9, 53), (0, 0), (9.0, 9)])
def test_unsupported_board_sizes(rows, cols):
    with pytest.raises(GameError, match="board size"):
        replay(rows, cols, game("B aa"))


def test_off_board_move_names_the_move():
    with pytest.raises(IllegalMoveError, match="move 2 is off the 3x3 board"):
        replay(3, 3, game("AB aa B bb W dd"))
    with pytest.raises(IllegalMoveError, match="setup event 0"):
        replay(3, 3, game("AB da"))
    with pytest.raises(IllegalMoveError):
        replay(3, 3, np.array([[0, 1, -1, 0]]))  # half a pass


@pytest.mark.parametrize("events", [
    np.zeros((2, 3), np.int16),
    np.zeros((2, 4), np.float64),
    np.array([[3, 1, 0, 0]]),
    np.array([[0, 0, 0, 0]]),
    np.array([[1, 3, 0, 0]]),
    np.array([[0, 1, 40000, 0]]),
])
def test_malformed_events(events):
    with pytest.raises(GameError):
        replay(3, 3, events)


def test_other_arguments_are_checked():
    with pytest.raises(RulesError, match="suicide"):
        replay(3, 3, game("B aa"), suicide="ing")
    with pytest.raises(GameError, match="handicap"):
        replay(3, 3, game("B aa"), handicap=-1)
    with pytest.raises(GameError, match="territory"):
        replay(3, 3, game("B aa"), territory_marks=np.zeros((2, 3), np.int8))


def test_accepts_any_integer_events_and_no_events():
    assert replay(3, 3, game("B aa").astype(np.int64)).position.placed_black == 1
    empty = replay(3, 3, np.empty((0, 4), np.int16))
    assert (empty.moves, empty.last_mover, empty.illegal) == (0, EMPTY, [])


# --- against sgfmill on real games -----------------------------------------------------

def sgfmill_events(data: bytes):
    """Our events for an SGF game, and sgfmill's own final board and capture counts."""
    sgf_game = sgf.Sgf_game.from_bytes(data)
    size = sgf_game.get_size()
    board, plays = sgf_moves.get_setup_and_moves(sgf_game)
    colour_of = {"b": BLACK, "w": WHITE}
    events = [(1, colour_of[c], size - 1 - r, col) for c, (r, col) in board.list_occupied_points()]
    placed = {colour: sum(e[1] == colour for e in events) for colour in (BLACK, WHITE)}
    for c, move in plays:
        if move is None:
            events.append((0, colour_of[c], -1, -1))
            continue
        events.append((0, colour_of[c], size - 1 - move[0], move[1]))
        board.play(move[0], move[1], c)
        placed[colour_of[c]] += 1
    final = np.zeros((size, size), np.int8)
    for c, (r, col) in board.list_occupied_points():
        final[size - 1 - r, col] = colour_of[c]
    captured = {c: placed[c] - int((final == c).sum()) for c in (BLACK, WHITE)}
    return size, np.array(events, np.int16).reshape(-1, 4), final, captured


@pytest.mark.corpus
def test_matches_sgfmill_on_kgs_games(corpora):
    games = 0
    with tarfile.open(corpora / "kgs-dev.tar.xz", "r|xz") as archive:
        for member in archive:
            if not member.name.endswith(".sgf"):
                continue
            size, events, final, captured = sgfmill_events(archive.extractfile(member).read())
            result = replay(size, size, events)
            p = result.position
            assert (p.board == final).all(), member.name
            assert (p.captured_black, p.captured_white) == (captured[BLACK], captured[WHITE]), member.name
            assert_identity(result)
            games += 1
            if games == 300:
                break
    assert games == 300


# --- property test against a pure-Python reference ---------------------------------------

class ReferenceGame:
    """A deliberately plain replay (lists, sets, whole-board copies) following the same policy."""

    def __init__(self, rows, cols, suicide, ko_rule):
        self.rows, self.cols, self.suicide, self.ko_rule = rows, cols, suicide, ko_rule
        self.grid = [[EMPTY] * cols for _ in range(rows)]
        self.placed = {BLACK: 0, WHITE: 0}
        self.captured = {BLACK: 0, WHITE: 0}
        self.illegal = []
        self.moves = 0
        self.ko = None  # (point, colour it binds)
        self.history = set()  # the situations moved from
        self.suicides = 0
        self.move_log = []  # (colour, passed) per move event
        self.last_placer = EMPTY

    def snapshot(self):
        return tuple(map(tuple, self.grid))

    def situation(self, grid, to_move):
        """What superko compares: the stones, and the side to move if situational."""
        return (grid, to_move) if self.ko_rule == "situational" else grid

    def neighbours(self, r, c):
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < self.rows and 0 <= cc < self.cols:
                yield rr, cc

    def string(self, r, c):
        colour, stones, liberties, todo = self.grid[r][c], set(), set(), [(r, c)]
        while todo:
            point = todo.pop()
            if point in stones:
                continue
            stones.add(point)
            for n in self.neighbours(*point):
                value = self.grid[n[0]][n[1]]
                if value == EMPTY:
                    liberties.add(n)
                elif value == colour:
                    todo.append(n)
        return stones, liberties

    def remove_dead(self, colour, near):
        removed = set()
        for n in near:
            if self.grid[n[0]][n[1]] == colour:
                stones, liberties = self.string(*n)
                if not liberties:
                    removed |= stones
        for r, c in removed:
            self.grid[r][c] = EMPTY
        self.captured[colour] += len(removed)
        return removed

    def outcome(self, colour, r, c):
        """What playing would do, on a copy: (reason or None, position after, ko point)."""
        saved = ([row[:] for row in self.grid], dict(self.captured))
        self.grid[r][c] = colour
        taken = self.remove_dead(3 - colour, self.neighbours(r, c))
        lost = self.remove_dead(colour, [(r, c)])
        after = self.snapshot()
        reason = None
        if self.ko == ((r, c), colour):
            reason = "ko"
        elif lost and (self.suicide == "none" or (self.suicide == "multi" and len(lost) == 1)):
            reason = "suicide"
        ko = None
        if len(taken) == 1 and self.string(r, c) == ({(r, c)}, taken):
            ko = (next(iter(taken)), 3 - colour)
        self.grid, self.captured = saved
        return reason, after, ko

    def is_legal(self, colour, r, c):
        return self.grid[r][c] == EMPTY and self.outcome(colour, r, c)[0] is None

    def move(self, colour, r, c):
        self.moves += 1
        self.move_log.append((colour, r < 0))
        self.history.add(self.situation(self.snapshot(), colour))
        if r < 0:
            self.ko = None
            return
        if self.grid[r][c] != EMPTY:
            self.illegal.append((self.moves, "occupied"))
            self.ko = None
            return
        reason, after, ko = self.outcome(colour, r, c)
        self.grid[r][c] = colour
        self.placed[colour] += 1
        self.last_placer = colour
        self.remove_dead(3 - colour, self.neighbours(r, c))
        self.suicides += bool(self.remove_dead(colour, [(r, c)]))
        if reason:
            self.illegal.append((self.moves, reason))
        elif self.ko_rule != "simple" and self.situation(after, 3 - colour) in self.history:
            self.illegal.append((self.moves, "superko"))
        self.ko = ko

    def setup(self, colour, r, c):
        old = self.grid[r][c]
        if old != colour:
            if old != EMPTY:
                self.placed[old] -= 1
            if colour != EMPTY:
                self.placed[colour] += 1
            self.grid[r][c] = colour
        self.ko = None


def check_against_reference(rows, cols, events, reference):
    result = replay(rows, cols, events, suicide=reference.suicide, ko=reference.ko_rule)
    p = result.position
    assert p.board.tolist() == [list(row) for row in reference.grid]
    assert (p.captured_black, p.captured_white) == (reference.captured[BLACK], reference.captured[WHITE])
    assert (p.placed_black, p.placed_white) == (reference.placed[BLACK], reference.placed[WHITE])
    assert result.illegal == reference.illegal
    assert result.moves == reference.moves
    expected_ko = reference.ko[0] if reference.ko and reference.ko[1] == p.to_move else None
    assert p.ko_point == expected_ko
    log = reference.move_log
    assert (p.passes_black, p.passes_white) == tuple(
        sum(passed for colour, passed in log if colour == c) for c in (BLACK, WHITE))
    assert result.last_mover == (log[-1][0] if log else EMPTY)
    assert p.last_placer == reference.last_placer
    if log:
        assert p.to_move == 3 - log[-1][0]
    assert result.ended_by_passes == (len(log) >= 2 and log[-1][1] and log[-2][1]
                                      and log[-1][0] != log[-2][0])
    assert_identity(result)
    return result


SIZES = st.integers(min_value=5, max_value=9)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=SIZES, cols=SIZES, suicide=st.sampled_from(["none", "multi", "any"]),
       ko_rule=st.sampled_from(["positional", "situational"]),
       picks=st.lists(st.integers(min_value=0, max_value=10**6), min_size=20, max_size=250))
def test_random_legal_sequences_match_the_reference(rows, cols, suicide, ko_rule, picks):
    """Each pick chooses a legal point (scanning from a random start) or, now and then, passes."""
    reference = ReferenceGame(rows, cols, suicide, ko_rule)
    events, colour = [], BLACK
    for pick in picks:
        point = None
        if pick % 17:
            start = pick % (rows * cols)
            for k in range(rows * cols):
                r, c = divmod((start + k) % (rows * cols), cols)
                if reference.is_legal(colour, r, c):
                    point = (r, c)
                    break
        r, c = point or (-1, -1)
        reference.move(colour, r, c)
        events.append((0, colour, r, c))
        colour = 3 - colour
    events = np.array(events, np.int16).reshape(-1, 4)
    result = check_against_reference(rows, cols, events, reference)
    assert all(reason == "superko" for _, reason in result.illegal)
    event(f"captures: {'yes' if result.position.captured_black + result.position.captured_white else 'no'}")
    event(f"suicides: {'yes' if suicide != 'none' and reference.suicides else 'no'}")
    board = result.position.board
    assert (liberty_map(board)[board != EMPTY] > 0).all(), "a string without liberties"


EVENT = st.tuples(st.sampled_from(["B", "W", "B", "W", "B", "W", "AB", "AW", "AE"]),
                  st.integers(min_value=-1, max_value=8), st.integers(min_value=0, max_value=8))


@settings(max_examples=150, deadline=None)
@given(size=st.integers(min_value=2, max_value=9), suicide=st.sampled_from(["none", "multi", "any"]),
       ko_rule=st.sampled_from(["simple", "positional", "situational"]), raw=st.lists(EVENT, max_size=120))
def test_arbitrary_records_match_the_reference(size, suicide, ko_rule, raw):
    """Any mix of moves, passes, illegal moves and setup, replayed both ways."""
    reference = ReferenceGame(size, size, suicide, ko_rule)
    events = []
    for prop, r, c in raw:
        kind, colour = KIND[prop]
        r, c = (-1, -1) if r < 0 and kind == 0 else (max(r, 0) % size, c % size)
        if kind == 0:
            reference.move(colour, r, c)
        else:
            reference.setup(colour, r, c)
        events.append((kind, colour, r, c))
    result = check_against_reference(size, size, np.array(events, np.int16).reshape(-1, 4), reference)
    event(f"illegal moves: {'yes' if result.illegal else 'no'}")


def test_replay_knows_every_suicide_and_ko_rule_a_ruleset_can_have():
    from rulelab.board import SUICIDE_RULES
    from rulelab.read.replay import KO_RULES
    from rulelab.rules import CHOICES

    assert (set(SUICIDE_RULES), set(KO_RULES)) == (set(CHOICES["suicide"]), set(CHOICES["ko"]))


def test_the_games_row_keeps_the_main_line_it_replayed():
    from rulelab.read.records import replayed
    from rulelab.read.sgf import game_events, parse_game

    game = parse_game("(;SZ[9]AB[aa];B[cc];W[];B[dd])")
    events = game_events(game)
    row = {"handicap_raw": None, "komi_raw": None, "source": None, "rules": None}
    stored = np.frombuffer(replayed(game, events, row, False)["moves"], dtype=np.int8).reshape(-1, 4)
    assert stored.tolist() == events.tolist()
