"""Cut a file's text into its game trees, so that one broken game cannot sink the others.

Budgets, so that no file costs more than a constant times its size:

- splitting a file scans at most ``SPLIT_WORK_PER_CHAR`` times its length: each game
  tree that never closes is scanned to the end of the file, so a file of thousands of
  unclosed openings (``'(;GM[\n' * 100000``) would cost their square; past the budget the
  rest of the file is one row that says so;
- at most ``MAX_GAMES_PER_FILE`` games per file, and one row for the rest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulelab.errors import ParseError

SPLIT_WORK_PER_CHAR = 8
"""Characters :func:`split_games` may scan per character of the file."""
MAX_GAMES_PER_FILE = 20_000

WS = "[ \\t\\n\\r\\f\\v]"
GAME_START = re.compile(rf"\({WS}*;")
_HEADLESS_TREE = re.compile(rf"{WS}*;")
_REROOT = re.compile(rf"\({WS}*;{WS}*(?:GM|FF|CA|SZ|AP|PB|PW|EV|GN){WS}*\[")
_TREE_BODY = re.compile(r"(?:[^\[()]++|\[[^\\\]]*+(?:\\.[^\\\]]*+)*+\])*+", re.DOTALL)


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
        start_match = GAME_START.search(text, position)
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
    close is cut at the next ``(;`` whose node holds a root property (``GM``, ``SZ``, ...),
    on its line or a later one, so the games after it survive; finding that it does not
    close took a scan to the end of the text.
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

