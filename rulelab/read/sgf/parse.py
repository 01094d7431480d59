"""One game tree's main line, read straight from the str.

Only the main line matters to rulelab (the first child at every branch). A tree is read
straight from the str: the text is cut at every ``]`` that closes a value, and the short
run of delimiters and ident before each ``[`` is read once per distinct spelling and
cached, so a game costs about one ``str.split`` and a light pass over its properties.
That reader takes only trees it is sure sgfmill would read the same way; anything
unusual (junk, a structure sgfmill rejects, a tree that never closes, lone surrogates)
goes to the reference path (:mod:`rulelab.read.sgf.reference`), which gives the
result or the error, so the two never differ (``tests/read/test_sgf_fast.py`` compares them
on hand-made, generated and real records). Neither recurses, and the main line is
walked with a loop, so a 100,000-level nest of variations costs time in proportion to
its length and never meets Python's recursion limit.

Budgets: at most ``MAX_NODES`` nodes (``;``) and ``MAX_VALUES`` values (``[``, and ``]``
escaped or not: the reader cuts the text at each) per game tree, a GameError past either.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulelab.board import MAX_SIZE, MIN_SIZE
from rulelab.errors import GameError, ParseError
from rulelab.read.sgf.reference import sgfmill_main_line, unescape
from rulelab.read.sgf.split import GAME_START, WS

MAX_NODES = 250_000
"""Nodes of one game tree, variations included (a 100,000-move nest of variations fits)."""
MAX_VALUES = 500_000
"""Property values of one game tree: each costs a Python str or two while it is read."""

_PREFIX = re.compile(rf"((?:{WS}*+(?:[;)]|\({WS}*+;))*+){WS}*+(?:([A-Za-z]{{1,64}}){WS}*+)?")
"""What may stand before a value's ``[``: delimiters, then the property's ident if it has one."""
_PREFIX_CACHE_SIZE, _PREFIX_CACHE_KEY_LIMIT = 4096, 64
_PREFIXES: dict[str, tuple[str, str | None]] = {}
"""Prefixes already read; real records use a few dozen (``;B``, ``\\n;W``, ``BL`` ...)."""
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_LOWERCASE = str.maketrans("", "", "abcdefghijklmnopqrstuvwxyz")
_NO_SPACE = str.maketrans("", "", " \t\n\r\f\v")
_SIZE = re.compile(r"\s*([0-9]{1,9})\s*(?::\s*([0-9]{1,9})\s*)?")
_LINE_BREAK = re.compile(r"\r\n|\n\r|\r")
_OTHER_SPACE = str.maketrans("\t\f\v", "   ")


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
        values (counted as ``[``, or as ``]``, escaped ones too), comments included.

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
    if max(text.count("["), text.count("]")) > MAX_VALUES:  # each "]" is a piece while it is read,
        # escaped ones too: a comment of 30 million "\]" would be 30 million strs (1 GB)
        raise GameError(f"the game tree has more than {MAX_VALUES:,} property values (or escaped "
                        "brackets in them); not read")
    main_line = _read_main_line(text)
    if main_line is None:
        return _parse_with_sgfmill(text)
    return _game(*main_line)


def _parse_with_sgfmill(text: str) -> Game:
    """The reference parse: sgfmill's coarse tree, and its error for a text it rejects."""
    return _game(*sgfmill_main_line(text))


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
    start = GAME_START.search(text)
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
            values[:] = [unescape(value) if "\\" in value else value for value in values]


def _text_value(value: str) -> str:
    """An SGF Text value: escapes resolved, soft breaks gone, line breaks as ``\\n``.

    A printable value holds no line break, tab, form feed or vertical tab: most do not.
    """
    if value.isprintable():
        return value
    return _LINE_BREAK.sub("\n", value).translate(_OTHER_SPACE)


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
        raise GameError(f"SZ[{value[:40]}] is not a board size")
    cols = int(match.group(1))
    rows = int(match.group(2) or cols)
    if not (MIN_SIZE <= cols <= MAX_SIZE and MIN_SIZE <= rows <= MAX_SIZE):
        raise GameError(f"SZ[{value}]: SGF boards have {MIN_SIZE} to {MAX_SIZE} points a side")
    return (rows, cols)


