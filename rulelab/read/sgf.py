"""Games out of SGF text: split a file into game trees, parse each tree's main line.

Only the main line matters to rulelab (the first child at every branch). A tree is read
straight from the str: the text is cut at every ``]`` that closes a value, and the short
run of delimiters and ident before each ``[`` is read once per distinct spelling and
cached, so a game costs about one ``str.split`` and a light pass over its properties.
That reader takes only trees it is sure sgfmill would read the same way; anything
unusual (junk, a structure sgfmill rejects, a tree that never closes, lone surrogates)
goes to the reference path, sgfmill's coarse tree (``sgf_grammar``), which gives the
result or the error, so the two never differ (``tests/test_sgf_fast.py`` compares them
on hand-made, generated and real records). Neither recurses, and the main line is
walked with a loop, so a 100,000-level nest of variations costs time in proportion to
its length and never meets Python's recursion limit.

What is tolerated and what is an error:

- text outside game trees (headers, trailing ``)``, mail footers): skipped with a warning;
- a file that starts with ``;`` (some Fox files lost their opening ``(``): read as one
  game tree with the ``(`` added, with a warning;
- a game tree that never closes (a lost ``)`` or ``]``, a truncated file): that game is
  a ParseError, since moves may be missing; the splitter resumes at the next line that
  starts a game with a root property, so the games after it survive;
- ``]`` inside a value, a property value outside a node, a missing ``;`` at the start of
  a variation, junk that cannot be tokenised: ParseError naming the node;
- whitespace inside a point value (``B[oq\\n]``, seen in old ``.mgt`` files): ignored;
- lowercase letters in property names (FF[1]/FF[3] ``AddBlack``, ``Black``): dropped,
  as FF[3] prescribes, so ``AddBlack`` reads as ``AB``;
- moves off the board, bad ``SZ``, ``GM`` other than 1: GameError.

Budgets, so that no record costs more than a constant times its size:

- splitting a file scans at most ``SPLIT_WORK_PER_CHAR`` times its length: each game
  tree that never closes is scanned to the end of the file, so a file of thousands of
  unclosed openings (``'(;GM[\n' * 100000``) would cost their square; past the budget the
  rest of the file is one row that says so;
- at most ``MAX_GAMES_PER_FILE`` games per file, and one row for the rest;
- at most ``MAX_NODES`` nodes (``;``) and ``MAX_VALUES`` values (``[``) per game tree,
  and ``MAX_EVENTS`` setup points and moves per main line (one ``AB[aa:ss]`` is 361
  points): a GameError past any of them.

Within a node, setup comes before the move: ``AE`` first, then ``AB``, then ``AW``, then
``B``, then ``W``. A node holding both ``B`` and ``W`` (not valid SGF, but written by
some converters) plays both, Black first.
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass

import numpy as np
from sgfmill import sgf_grammar

from rulelab.errors import GameError, ParseError
from rulelab.position import BLACK, EMPTY, WHITE

MOVE, SETUP_ADD, SETUP_EMPTY = 0, 1, 2
"""Event kinds in :func:`game_events`."""

MIN_SIZE, MAX_SIZE = 2, 25
PASS_SIZE_LIMIT = 19
"""On boards up to this size ``tt`` means pass (FF[3] convention)."""

SPLIT_WORK_PER_CHAR = 8
"""Characters :func:`split_games` may scan per character of the file."""
MAX_GAMES_PER_FILE = 20_000
MAX_NODES = 250_000
"""Nodes of one game tree, variations included (a 100,000-move nest of variations fits)."""
MAX_VALUES = 500_000
"""Property values of one game tree: each costs a Python str or two while it is read."""
MAX_EVENTS = 250_000
"""Setup points and moves of one main line."""

_WS = "[ \\t\\n\\r\\f\\v]"
_GAME_START = re.compile(rf"\({_WS}*;")
_HEADLESS_TREE = re.compile(rf"{_WS}*;")
_REROOT = re.compile(rf"^{_WS}*\({_WS}*;{_WS}*(?:GM|FF|CA|SZ|AP|PB|PW|EV|GN){_WS}*\[", re.MULTILINE)
_TREE_BODY = re.compile(r"(?:[^\[()]++|\[[^\\\]]*+(?:\\.[^\\\]]*+)*+\])*+", re.DOTALL)
_STRUCTURE_FAULT = re.compile(r"\((?=[^;])|[;()]V|I(?!V)|\)(?=;)")
"""Token sequences sgfmill rejects, over a string of token kinds: ``(;)`` and I(dent), V(alue)."""
_PREFIX = re.compile(rf"((?:{_WS}*+(?:[;)]|\({_WS}*+;))*+){_WS}*+(?:([A-Za-z]{{1,64}}){_WS}*+)?")
"""What may stand before a value's ``[``: delimiters, then the property's ident if it has one."""
_PREFIX_CACHE_SIZE, _PREFIX_CACHE_KEY_LIMIT = 4096, 64
_PREFIXES: dict[str, tuple[str, str | None]] = {}
"""Prefixes already read; real records use a few dozen (``;B``, ``\\n;W``, ``BL`` ...)."""
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_LOWERCASE = str.maketrans("", "", "abcdefghijklmnopqrstuvwxyz")
_NO_SPACE = str.maketrans("", "", " \t\n\r\f\v")
_SIZE = re.compile(r"\s*([0-9]+)\s*(?::\s*([0-9]+)\s*)?")
_ESCAPE = re.compile(r"\\(\r\n|\n\r|\n|\r|.)", re.DOTALL)
_SOFT_BREAKS = frozenset(("\r\n", "\n\r", "\n", "\r"))
_LINE_BREAK = re.compile(r"\r\n|\n\r|\r")
_OTHER_SPACE = str.maketrans("\t\f\v", "   ")


@dataclass(frozen=True)
class GameText:
    """One game tree's text within a file."""

    index: int
    """Position of the game in its file, from 0."""
    text: str
    offset: int
    """Character offset of the game's ``(`` in the decoded file text."""
    unread: str | None = None
    """Why the text from ``offset`` on was not split into games (a budget ran out);
    ``text`` is then empty and the game is a ParseError."""


@dataclass(frozen=True)
class Game:
    """The main line of one game, as rulelab needs it."""

    root: dict[str, list[str]]
    """Root properties as text: SGF escapes resolved, soft line breaks removed."""
    nodes: list[dict[str, list[str]]]
    """Main line, root first; values with escapes resolved."""
    size: tuple[int, int]
    """(rows, cols): ``SZ[19]`` is (19, 19), ``SZ[19:13]`` (cols:rows) is (13, 19)."""
    variations: int
    """Sibling variations skipped while following the main line."""


def split_games(text: str) -> tuple[list[GameText], list[str]]:
    """Cut a file's text into its game trees, so one broken game cannot sink the others.

    Parameters
    ----------
    text : str
        Decoded file text (see :func:`rulelab.read.decoding.decode_sgf`).

    Returns
    -------
    games : list of GameText
        Every top-level ``(;`` ... ``)`` span, brackets inside ``[...]`` values and
        ``\\`` escapes respected. An unclosed tree is still returned (it will fail in
        :func:`parse_game`), cut where the next game visibly starts. A text that starts
        with ``;`` is one tree whose opening ``(`` was lost; it is given back.
    warnings : list of str
        What was skipped or cut, with character offsets.

    Past a budget (``MAX_GAMES_PER_FILE`` games, or ``SPLIT_WORK_PER_CHAR`` characters
    scanned per character of ``text``) the last GameText stands for the rest of the
    text, unread, with the reason in :attr:`GameText.unread`.

    Raises
    ------
    ParseError
        If the text holds no game tree at all, or is not a str.

    Examples
    --------
    >>> games, warnings = split_games("header (;B[aa];W[bb](;B[cc])(;B[dd]))(;B[ee])")
    >>> [(g.index, g.offset, g.text) for g in games]
    [(0, 7, '(;B[aa];W[bb](;B[cc])(;B[dd]))'), (1, 37, '(;B[ee])')]
    >>> warnings
    ['skipped 7 characters outside game trees at offset 0']
    """
    if not isinstance(text, str):
        raise ParseError(f"split_games() needs str, got {type(text).__name__}")
    games: list[GameText] = []
    warnings: list[str] = []
    position = 0
    work = SPLIT_WORK_PER_CHAR * len(text)
    headless = _HEADLESS_TREE.match(text)
    if headless:
        start = headless.end() - 1
        position, work = _add_game(text, start, 1, games, warnings, work)
        warnings.append(f"game 0 at offset {start}: the opening '(' is missing; added")
        games[0] = GameText(0, "(" + games[0].text, start)
    while True:
        start_match = _GAME_START.search(text, position)
        start = start_match.start() if start_match else len(text)
        junk = text[position:start]
        if junk.strip():
            warnings.append(f"skipped {len(junk)} characters outside game trees at offset {position}")
        if start_match is None:
            break
        unread = _budget_spent(len(games), work, len(text) - start)
        if unread:
            games.append(GameText(len(games), "", start, unread))
            warnings.append(f"game {len(games) - 1} at offset {start}: {unread}")
            break
        position, work = _add_game(text, start, 0, games, warnings, work)
    if not games:
        raise ParseError("no SGF game tree found (no '(;' outside property values)")
    return games, warnings


def _budget_spent(games: int, work: int, rest: int) -> str | None:
    """Why the rest of a file (``rest`` characters) is not split, if a budget ran out."""
    if games >= MAX_GAMES_PER_FILE:
        return f"the file holds more than {MAX_GAMES_PER_FILE:,} games; the rest ({rest:,} characters) is not read"
    if work < 0:
        return (f"splitting stopped: too many game trees that never close; "
                f"the rest ({rest:,} characters) is not read")
    return None


def _add_game(text: str, start: int, depth: int, games: list[GameText], warnings: list[str],
              work: int) -> tuple[int, int]:
    """Append the game tree starting at ``start`` (``depth`` parentheses already open).

    Returns where scanning resumes and the scanning budget left. A tree that does not
    close is cut at the next line that starts a game with a root property, so the games
    after it survive; finding that it does not close took a scan to the end of the text.
    """
    end, problem = _tree_end(text, start, depth)
    if problem:
        work -= len(text) - start
        restart = _REROOT.search(text, start + 1)
        end = restart.start() if restart else len(text)
        warnings.append(f"game {len(games)} at offset {start}: {problem}; cut at offset {end}")
    else:
        work -= end - start
    games.append(GameText(len(games), text[start:end], start))
    return end, work


def _tree_end(text: str, start: int, depth: int) -> tuple[int, str | None]:
    """End of the game tree at ``start``, or where scanning stopped and why."""
    position = start
    while True:
        position = _TREE_BODY.match(text, position).end()
        if position == len(text):
            return position, f"game tree is not closed ({depth} ')' missing)"
        char = text[position]
        if char == "[":
            return position, f"value opened at offset {position} is never closed"
        position += 1
        depth += 1 if char == "(" else -1
        if depth == 0:
            return position, None


def parse_game(text: str) -> Game:
    """Parse one game tree and keep its main line.

    Parameters
    ----------
    text : str
        One game tree, as in :attr:`GameText.text`. Text after the first tree is ignored.

    Returns
    -------
    Game

    Raises
    ------
    ParseError
        If the text is not a well-formed SGF game tree; the message says where.
    GameError
        If the root says it is not a Go game (``GM``), has an unusable ``SZ``, or the
        tree holds more than ``MAX_NODES`` nodes (counted as ``;``) or ``MAX_VALUES``
        values (counted as ``[``), comments included.

    Examples
    --------
    >>> game = parse_game("(;GM[1]SZ[9]PB[Honinbo\\\\] Shusaku]C[soft\\\\\\nbreak];B[ee](;W[cc])(;W[gg]))")
    >>> game.size, game.variations, game.root["PB"], game.root["C"]
    ((9, 9), 1, ['Honinbo] Shusaku'], ['softbreak'])
    >>> [node for node in game.nodes[1:]]
    [{'B': ['ee']}, {'W': ['cc']}]
    """
    if not isinstance(text, str):
        raise ParseError(f"parse_game() needs str, got {type(text).__name__}")
    if text.count(";") > MAX_NODES:
        raise GameError(f"the game tree has more than {MAX_NODES:,} nodes; not read")
    if text.count("[") > MAX_VALUES:
        raise GameError(f"the game tree has more than {MAX_VALUES:,} property values; not read")
    main_line = _read_main_line(text)
    if main_line is None:
        return _parse_with_sgfmill(text)
    return _game(*main_line)


def _parse_with_sgfmill(text: str) -> Game:
    """The reference parse: sgfmill's coarse tree, and its error for a text it rejects."""
    data = text.encode("utf-8", "replace")
    try:
        tree = sgf_grammar.parse_sgf_game(data)
    except ValueError as error:
        raise ParseError(_describe_parse_failure(data, error)) from None
    return _game(*_main_line(tree))


def _game(nodes: list[dict[str, list[str]]], variations: int) -> Game:
    root = {ident: [_text_value(value) for value in values] for ident, values in nodes[0].items()}
    _check_game_type(root)
    return Game(root=root, nodes=nodes, size=_board_size(root), variations=variations)


def _read_main_line(text: str) -> tuple[list[dict[str, list[str]]], int] | None:
    """Main-line nodes and variations skipped, read straight from the str; None if unsure.

    The text is cut at every ``]`` that ends a value, so each piece is a prefix (the
    delimiters and ident before a ``[``) and a value, and the few distinct prefixes are
    read once each (:func:`_read_prefix`). A tree is read here only when sgfmill would
    accept it and read it the same way; anything else (junk, a structure sgfmill rejects,
    a tree that never closes, lone surrogates that sgfmill would see as ``?``) gives None,
    and the caller leaves the text to sgfmill, which gives the same result or error as
    ever. The main line is every node before the first ``)``; after it, the rest of the
    tree is only checked, its nodes dropped, and its variations counted: a ``(`` opened
    in the shallowest tree still open since then is a sibling of the main line.
    """
    start = _GAME_START.search(text)
    if start is None or not text.isascii() and _SURROGATE.search(text):
        return None
    pieces = text[start.end():].split("]")
    if "\\" in text:
        pieces = _rejoin_escaped(pieces)
    node: dict[str, list[str]] = {}
    nodes = [node]
    values = None
    depth, lowest, variations = 1, 0, 0  # lowest: shallowest depth since the main line ended
    on_main_line, after_close = True, False  # after_close: the last delimiter was a ``)``
    for piece in pieces:
        prefix, bracket, value = piece.partition("[")
        ops, ident = _PREFIXES.get(prefix) or _read_prefix(prefix)
        if ops == ";" and ident and bracket and on_main_line:
            values = [value]  # the common piece, ``;B[pd``: a node and its first property
            node = {ident: values}
            nodes.append(node)
            continue
        if ops:
            for op in ops:
                if op == ";":
                    if after_close:
                        return None
                    node = {}
                    if on_main_line:
                        nodes.append(node)
                elif op == "(":
                    variations += depth == lowest
                    depth += 1
                    after_close = False
                elif op == ")":
                    depth -= 1
                    if not depth:
                        if "\\" in text:
                            _unescape_values(nodes)
                        return nodes, variations
                    lowest = depth if on_main_line else min(lowest, depth)
                    on_main_line, after_close = False, True
                else:
                    return None
            values = None
        if not bracket:
            return None
        if ident:
            if after_close:
                return None
            values = node.get(ident)
            if values is None:
                node[ident] = values = [value]
            else:
                values.append(value)
        elif ident is None:
            if values is None:
                return None
            values.append(value)
        elif after_close:
            return None
        else:
            values = []
    return None


def _read_prefix(prefix: str) -> tuple[str, str | None]:
    """What a prefix does, cached: its delimiters, and the ident the value after it belongs to.

    The delimiters come as one character each: ``;`` a node, ``(`` a variation (always
    followed by its ``;``), ``)`` the end of one, ``?`` junk sgfmill would reject. The ident
    has its lowercase letters dropped, as sgfmill does ("" when none is left); None if the
    value has no ident of its own (a further value of the previous property).
    """
    match = _PREFIX.match(prefix)
    delimiters, ident = match.groups()
    ops = delimiters.translate(_NO_SPACE)
    if match.end() < len(prefix):
        ops, ident = ops + "?", None
    elif ident is not None:
        ident = ident.translate(_LOWERCASE)
    if len(prefix) <= _PREFIX_CACHE_KEY_LIMIT:
        if len(_PREFIXES) >= _PREFIX_CACHE_SIZE:
            _PREFIXES.clear()
        _PREFIXES[prefix] = ops, ident
    return ops, ident


def _rejoin_escaped(pieces: list[str]) -> list[str]:
    """Pieces of a text cut at every ``]``, joined again where the ``]`` was escaped.

    A ``]`` is escaped when an odd run of backslashes ends the piece before it. Outside a
    value a backslash is junk, and the piece's prefix says so. Each run of pieces is
    joined once, so a value full of ``\\]`` costs time in proportion to its length.
    """
    joined: list[str] = []
    run: list[str] = []
    for piece in pieces:
        run.append(piece)
        if not (len(piece) - len(piece.rstrip("\\"))) % 2:
            joined.append("]".join(run))
            run = []
    if run:
        joined.append("]".join(run))
    return joined


def _unescape_values(nodes: list[dict[str, list[str]]]) -> None:
    for node in nodes:
        for values in node.values():
            values[:] = [_unescape(value) if "\\" in value else value for value in values]


def _main_line(tree: sgf_grammar.Coarse_game_tree) -> tuple[list[dict[str, list[str]]], int]:
    """Main-line nodes with values decoded and unescaped, and the variations skipped."""
    nodes = []
    variations = 0
    while True:
        nodes.extend(_node_values(properties) for properties in tree.sequence)
        if not tree.children:
            return nodes, variations
        variations += len(tree.children) - 1
        tree = tree.children[0]


def _node_values(properties: dict[str, list[bytes]]) -> dict[str, list[str]]:
    node = {}
    for ident, values in properties.items():
        if len(values) == 1:
            value = values[0].decode()
            node[ident] = [_unescape(value) if "\\" in value else value]
        else:
            node[ident] = [_unescape(value.decode()) for value in values]
    node.pop("", None)
    return node


def _unescape(value: str) -> str:
    """Resolve SGF escapes: ``\\x`` is ``x``; a backslash before a line break removes both."""
    return _ESCAPE.sub(lambda m: "" if m.group(1) in _SOFT_BREAKS else m.group(1), value)


def _text_value(value: str) -> str:
    """An SGF Text value: escapes resolved, soft breaks gone, line breaks as ``\\n``.

    A printable value holds no line break, tab, form feed or vertical tab: most do not.
    """
    if value.isprintable():
        return value
    return _LINE_BREAK.sub("\n", value).translate(_OTHER_SPACE)


def _describe_parse_failure(data: bytes, error: ValueError) -> str:
    """Say what sgfmill objected to, and where: character offset and node in text order."""
    tokens, stop = sgf_grammar.tokenise(data)
    kinds = "".join(token.decode() if kind == "D" else kind for kind, token in tokens)
    closed = kinds.count("(") == kinds.count(")")
    rest = data[stop:].lstrip()
    where = len(data[: len(data) - len(rest)].decode("utf-8", "replace"))
    if not closed and rest.startswith(b"["):
        return f"a value opened at character {where} (node {kinds.count(';') - 1}) is never closed"
    if not closed and rest:
        snippet = rest[:20].decode("utf-8", "replace")
        return f"cannot read {snippet!r} at character {where} (node {kinds.count(';') - 1})"
    fault = _STRUCTURE_FAULT.search(kinds)
    if fault:
        return f"{error} at node {kinds[: fault.start() + 1].count(';') - 1}"
    return f"the game tree is not closed after node {kinds.count(';') - 1}: the record looks truncated"


def _check_game_type(root: dict[str, list[str]]) -> None:
    game_type = root.get("GM", ["1"])[0].strip()
    if game_type not in ("", "1"):
        raise GameError(f"GM[{game_type}] is not a game of Go")


def _board_size(root: dict[str, list[str]]) -> tuple[int, int]:
    if "SZ" not in root:
        return (19, 19)
    value = root["SZ"][0]
    match = _SIZE.fullmatch(value)
    if match is None:
        raise GameError(f"SZ[{value}] is not a board size")
    cols = int(match.group(1))
    rows = int(match.group(2) or cols)
    if not (MIN_SIZE <= cols <= MAX_SIZE and MIN_SIZE <= rows <= MAX_SIZE):
        raise GameError(f"SZ[{value}]: rulelab reads boards from {MIN_SIZE} to {MAX_SIZE} points a side")
    return (rows, cols)


def game_events(game: Game) -> np.ndarray:
    """Setup and moves of the main line, in play order.

    Parameters
    ----------
    game : Game

    Returns
    -------
    numpy.ndarray
        int16 array of shape (n, 4): ``kind, colour, row, col``. ``kind`` is
        ``MOVE`` (0), ``SETUP_ADD`` (1, ``AB``/``AW`` wherever they stand on the main
        line) or ``SETUP_EMPTY`` (2, ``AE``, colour ``EMPTY``). A pass has row = col = -1.

    Raises
    ------
    GameError
        If a move or setup point is off the board (the message names the move number,
        the node and the value), or the main line has more than ``MAX_EVENTS`` of them.

    Examples
    --------
    >>> game = parse_game("(;SZ[9]AB[aa:ab];B[cc];W[];B[tt])")
    >>> game_events(game).tolist()
    [[1, 1, 0, 0], [1, 1, 1, 0], [0, 1, 2, 2], [0, 2, -1, -1], [0, 1, -1, -1]]
    """
    points = _board_points(*game.size)
    flat: list[int] = []
    for number, node in enumerate(game.nodes):
        if not _SETUP_IDENTS.isdisjoint(node):
            _add_setup_events(flat, node, number, game.size)
        for ident, colour in _MOVES:
            for value in node.get(ident, ()):
                point = points.get(value) or _odd_move_point(value, game.size, flat, number, ident)
                flat += (MOVE, colour, *point)
        _check_events(flat, number)
    return np.array(flat, dtype=np.int16).reshape(-1, 4)


def _check_events(flat: list[int], node: int) -> None:
    if len(flat) > 4 * MAX_EVENTS:
        raise GameError(f"the main line has more than {MAX_EVENTS:,} setup points and moves "
                        f"by node {node}; not read")


_SETUP = (("AE", SETUP_EMPTY, EMPTY), ("AB", SETUP_ADD, BLACK), ("AW", SETUP_ADD, WHITE))
_SETUP_IDENTS = frozenset(ident for ident, _, _ in _SETUP)
_MOVES = (("B", BLACK), ("W", WHITE))
_PASS = (-1, -1)


def _add_setup_events(flat: list[int], node: dict[str, list[str]], number: int,
                      size: tuple[int, int]) -> None:
    for ident, kind, colour in _SETUP:
        for value in node.get(ident, ()):
            for point in _point_list(value, size, f"main-line node {number}: {ident}[{value}]"):
                flat += (kind, colour, *point)
            _check_events(flat, number)


@functools.lru_cache(maxsize=None)
def _board_points(rows: int, cols: int) -> dict[str, tuple[int, int]]:
    """Every move value of a board in its plain spelling, passes included."""
    points = {chr(97 + col) + chr(97 + row): (row, col) for row in range(rows) for col in range(cols)}
    points[""] = _PASS
    if max(rows, cols) <= PASS_SIZE_LIMIT:
        points["tt"] = _PASS
    return points


def _point(value: str, size: tuple[int, int]) -> tuple[int, int] | None:
    """(row, col) of a point value, whitespace ignored; None for passes and off-board values."""
    point = _board_points(*size).get("".join(value.split()))
    return None if point == _PASS else point


def _odd_move_point(value: str, size: tuple[int, int], flat: list[int], node: int, ident: str):
    """A move value with stray whitespace (``B[oq\\n]``), or a GameError naming it."""
    point = _board_points(*size).get("".join(value.split()))
    if point is None:
        rows, cols = size
        move = flat[::4].count(MOVE) + 1
        raise GameError(
            f"move {move} (main-line node {node}): {ident}[{value}] is not a point of the {cols}x{rows} board"
        )
    return point


def _point_list(value: str, size: tuple[int, int], where: str) -> list[tuple[int, int]]:
    """Points of one list value: ``aa`` or a compressed rectangle ``aa:cc``; ``[]`` is none."""
    if not value.strip():
        return []
    corners = [_point(part, size) for part in value.split(":")]
    if len(corners) > 2 or None in corners:
        rows, cols = size
        raise GameError(f"{where} is not a point or rectangle of the {cols}x{rows} board")
    if len(corners) == 1:
        return corners
    (row_a, col_a), (row_b, col_b) = corners
    return [
        (row, col)
        for row in range(min(row_a, row_b), max(row_a, row_b) + 1)
        for col in range(min(col_a, col_b), max(col_a, col_b) + 1)
    ]


def territory_marks(game: Game) -> np.ndarray | None:
    """The ``TB``/``TW`` markup of the last main-line node that has any.

    Returns
    -------
    numpy.ndarray or None
        int8 board: ``BLACK`` where ``TB`` marks, ``WHITE`` where ``TW`` marks (``TW``
        wins a point marked twice), ``EMPTY`` elsewhere; None if no node has markup.

    Raises
    ------
    GameError
        If a marked point is off the board.

    Examples
    --------
    >>> territory_marks(parse_game("(;SZ[3];B[bb]TB[aa]TW[cc];TB[aa:ab])")).tolist()
    [[1, 0, 0], [1, 0, 0], [0, 0, 0]]
    """
    for number in range(len(game.nodes) - 1, -1, -1):
        node = game.nodes[number]
        if "TB" in node or "TW" in node:
            board = np.zeros(game.size, dtype=np.int8)
            for ident, colour in (("TB", BLACK), ("TW", WHITE)):
                for value in node.get(ident, ()):
                    for row, col in _point_list(value, game.size, f"main-line node {number}: {ident}[{value}]"):
                        board[row, col] = colour
            return board
    return None


def content_hash(game: Game, events: np.ndarray | None = None) -> str:
    """A stable id for the game itself: board size, setup and moves.

    Metadata is left out on purpose: two sources spell players, dates and results
    differently for the same game, while its moves are the same. Whitespace, file and
    encoding do not change the hash. A caller that already holds ``game_events(game)``
    passes them as ``events`` so they are not built twice.

    Raises
    ------
    GameError
        As :func:`game_events`.

    Examples
    --------
    >>> a = parse_game("(;GM[1]SZ[19]PB[Lee];B[pd];W[dd])")
    >>> b = parse_game("(;SZ[19]\\n PB[Lee Sedol]\\n;B[pd]\\n;W[dd])")
    >>> content_hash(a) == content_hash(b), len(content_hash(a))
    (True, 32)
    """
    rows, cols = game.size
    digest = hashlib.blake2b(f"{rows}x{cols};".encode(), digest_size=16)
    events = game_events(game) if events is None else events
    digest.update(events.astype("<i2").tobytes())
    return digest.hexdigest()
