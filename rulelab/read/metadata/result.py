"""Game results (``RE``) in every spelling the corpora hold, as one small dataclass.

Survey of 129,411 game roots (596 of them ``goban-original-games`` records): 629 distinct
``RE`` values. ``B+R``/``W+R``/``B+Resign``/``W+Resign`` are 65.3% of games, counted
margins 26.5%, ``T``/``Time`` 5.7%; the rest are the oddities handled below.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from rulelab.read.metadata._text import NUMBER_WITH_UNIT, ZI_UNITS, check_text, normalise, repaired
from rulelab.rules import MAX_BOARD_POINTS


@dataclass(frozen=True)
class Result:
    """A game result as recorded, normalised."""

    kind: str
    """'counted', 'resign', 'time', 'forfeit', 'draw', 'void' or 'unknown'."""
    winner: str | None
    """'B' or 'W'; None for draws, void games and unreadable results."""
    margin: float | None = None
    """Winning margin in points (zi already doubled); None unless ``kind == 'counted'``.
    0.0 only for a counted tie won under a tie-break rule (``W+Jigo`` under komi 5)."""
    warning: str | None = field(default=None, repr=False, compare=False)
    """Why a margin that was written was not read (``B+1e5``, ``B+1_000``, ``B+99999``)."""


UNKNOWN = Result("unknown", None)
_DRAW = Result("draw", None)
_VOID = Result("void", None)

_NO_MARGIN = 0.1
"""A margin below this is no margin. Fox writes B+0.0 for wins that were not counted
(511 games, median 146 moves against 265 for Fox games with a real margin) and W+0.02,
W+0.03 (19 games of 60-225 moves). Both keep the winner and lose the kind. A whole
zero (``W+0``, no decimals) is the 1960s Meijin records' tie that White won by rule
(komi 5): a counted tie, as ``W+Jigo``."""

_WHOLE = {
    "0": _DRAW, "draw": _DRAW, "jigo": _DRAW, "tie": _DRAW, "d": _DRAW, "d+j": _DRAW,
    "void": _VOID, "noresult": _VOID, "nr": _VOID,
    "": UNKNOWN, "?": UNKNOWN, "unknown": UNKNOWN,
    "b": Result("unknown", "B"), "w": Result("unknown", "W"),
}
"""Whole values, keyed casefolded without spaces or trailing dots. ``D+J`` is UEC's
"draw by referee's judgment"; bare ``B``/``W`` (44 DeepZenGo games) name only a winner."""

_REASONS = {
    "r": "resign", "res": "resign", "resign": "resign", "resigns": "resign",
    "resigned": "resign", "resignation": "resign",
    "t": "time", "time": "time", "timeout": "time",
    "f": "forfeit", "forfeit": "forfeit", "illegal": "forfeit", "v": "forfeit",
    "violation": "forfeit", "repetition": "forfeit",
}
"""The first word after ``B+``. An illegal move, a violation (UEC ``B+V``) or a
forbidden repetition loses the game, so they are forfeits. UEC's ``AW`` (the programs
agreed who won) names a winner but no kind."""

_JIGO = ("jigo", "j")
"""Words after ``B+`` for a tie won by rule: ``W+Jigo``, and ``W+J`` as the Meijin records
of ``goban-original-games`` write it (komi 5). UEC's computer tournaments write ``B+J``
for a referee's judgment instead (12 dev-mixed records): those read as counted ties too."""
_MARGIN = re.compile(r"(\d{1,4}(?:[.,]\d{1,3})?)(?:\s*(子|目|집|点|點|zi|stones?|points?|pts?))?(?![\w.,/])",
                     re.I)
"""A margin after ``B+``, strictly: digits with an optional fraction (``½`` and ``1/2`` are
decimals by then) and an optional unit, not followed by more of a number (``1e5``, ``1_000``)."""
_MORE_NUMBER = re.compile(r"\s*[\d/]")
"""More of a number after the margin read: a fraction too long to be one (``1 99999999999999999999/3``)."""
_KEY_JUNK = re.compile(r"\s+|[.!]+$")
_BOTH_WINNERS = re.compile(r"b\s*\+.*w\s*\+|w\s*\+.*b\s*\+", re.S)
_PLUS_FORM = re.compile(r"([bw])\s*\+\s*(.*)", re.I | re.S)
_FIRST_WORD = re.compile(r"[a-z]*")
_ENGLISH_WIN = re.compile(r"(black|white)\s+(?:wins|won)\b(.*)", re.I | re.S)
_ENGLISH_LOSS = re.compile(r"(black|white)\s+(resign|forfeit|lo(?:st|ses) on time|timed out)",
                           re.I)
_ENGLISH_KINDS = ("resign", "time", "forfeit")  # each word names its kind

# Chinese, Japanese and Korean words, tried in this order: 無勝負 and 무승부 contain the
# word for "win", so void and draw come first.
_CJK_VOID = re.compile(r"不计胜负|不計勝負|无胜负|無勝負|无效|無効|무효")
_CJK_DRAW = re.compile(r"和棋|和局|平局|持碁|ジゴ|무승부")
_CJK_ADJOURNED = re.compile(r"打ち掛け|打挂|封盘|封盤")
_CJK_OUTCOME = re.compile(r"胜|勝|승|负|負|패|认输|認輸|投了")
_CJK_COLOUR = re.compile(r"[黑黒흑白백]")
_CJK_KINDS = (
    (re.compile(r"中盘|中盤|中押|불계|认输|認輸|投了"), "resign"),
    (re.compile(r"超时|超時|时间|時間|시간|切れ"), "time"),
    (re.compile(r"犯规|犯規|反则|反則|반칙|弃权|棄權|棄権|기권|不战|不戦|부전"), "forfeit"),
)
_CJK_WIN = frozenset("胜勝승")


def _other(colour: str) -> str:
    return "W" if colour == "B" else "B"


def _counted(winner: str, number: str, unit: str | None, zi: bool) -> Result:
    """A numeric margin in points; zi margins are first rounded to a quarter zi.

    Fox prints some zi margins with one decimal (``W+3.2``, ``B+0.2`` in counted games
    of 265 and 275 moves): 3.25 and 0.25 zi, the nearest quarters.
    """
    value = float(number.replace(",", "."))
    in_zi = unit.casefold() in ZI_UNITS if unit else zi
    if not value <= MAX_BOARD_POINTS:
        return _unread_margin(winner, number)
    if in_zi:
        value = round(value * 4) / 2
    if value == 0 and number == "0":
        return Result("counted", winner, 0.0)  # W+0: a tie won by rule
    if value < _NO_MARGIN:
        return Result("unknown", winner)
    return Result("counted", winner, value)


def _kind_or_count(winner: str, kind: str | None, text: str, zi: bool) -> Result:
    """A result in words: of ``kind`` when the words name one, else the margin they give
    (``unknown`` when they give none)."""
    number = NUMBER_WITH_UNIT.search(text)
    if kind or not number:
        return Result(kind or "unknown", winner)
    return _counted(winner, number.group(1), number.group(2), zi)


def _unread_margin(winner: str, written: str) -> Result:
    return Result("unknown", winner, None,
                  f"result margin {written[:40]!r} is not a number of points a board can give; stored as null")


def _after_plus(winner: str, rest: str, zi: bool) -> Result:
    """``B+`` followed by a margin, a reason word, or nothing readable."""
    rest = rest.strip()
    number = _MARGIN.match(rest)
    if number and _MORE_NUMBER.match(rest, number.end()):
        return _unread_margin(winner, rest)
    if number:
        return _counted(winner, number.group(1), number.group(2), zi)
    if rest[:1].isdigit():
        return _unread_margin(winner, rest)
    word = _FIRST_WORD.match(rest.casefold()).group(0)
    if word in _JIGO:
        return Result("counted", winner, 0.0)
    return Result(_REASONS.get(word, "unknown"), winner)


def _english(text: str, zi: bool) -> Result | None:
    """``White wins by resignation``, ``Black resigns. W 25.5 B 17.0``."""
    lost = _ENGLISH_LOSS.match(text)
    if lost:
        verb = lost.group(2).casefold()
        kind = next((word for word in _ENGLISH_KINDS if word in verb), "time")
        return Result(kind, _other(lost.group(1)[0].upper()))
    won = _ENGLISH_WIN.match(text)
    if not won:
        return None
    winner, rest = won.group(1)[0].upper(), won.group(2).casefold()
    kind = next((word for word in _ENGLISH_KINDS if word in rest), None)
    return _kind_or_count(winner, kind, rest, zi)


def _cjk(text: str, zi: bool) -> Result | None:
    """Results in words: ``黑胜3/4子``, ``白中盘胜``, ``黒1目半勝``, ``백 3집반승``, ``黑超时负``.

    The winner is the colour named last before the first word for winning or losing
    (负, 負け, 패, 认输 "concedes" make it the other colour).
    """
    if _CJK_VOID.search(text):
        return _VOID
    if _CJK_DRAW.search(text):
        return _DRAW
    if _CJK_ADJOURNED.search(text):
        return UNKNOWN
    outcome = _CJK_OUTCOME.search(text)
    colours = _CJK_COLOUR.findall(text, 0, outcome.start()) if outcome else []
    if not colours:
        return None
    named = "B" if colours[-1] in "黑黒흑" else "W"
    winner = named if outcome.group(0) in _CJK_WIN else _other(named)
    kind = next((kind for pattern, kind in _CJK_KINDS if pattern.search(text)), None)
    return _kind_or_count(winner, kind, text, zi)


def _read(raw: str, zi: bool) -> Result | None:
    text = normalise(raw)
    key = _KEY_JUNK.sub("", text.casefold())
    if key in _WHOLE:
        return _WHOLE[key]
    if _BOTH_WINNERS.search(key):
        return UNKNOWN  # "B+1.5 ? W+timeout": the record contradicts itself
    plus = _PLUS_FORM.match(text)
    if plus:
        return _after_plus(plus.group(1).upper(), plus.group(2), zi)
    return _english(text, zi) or _cjk(text, zi)


@lru_cache(maxsize=4096)
def _parse(raw: str, zi: bool) -> Result:
    """Cached: a few dozen values (``W+R``, ``B+R``, ``B+0.5`` ...) cover most games."""
    result = _read(raw, zi)
    if result is None and (fixed := repaired(raw)):
        result = _read(fixed, zi)
    return result or UNKNOWN


def parse_result(raw: str | None, *, zi: bool = False) -> Result:
    """Normalise an ``RE`` value; anything unreadable is ``Result('unknown', None, None)``.

    Parameters
    ----------
    raw : str or None
        The decoded ``RE`` text.
    zi : bool
        True when a bare numeric margin counts stones (:func:`margin_in_zi` decides):
        the margin is rounded to a quarter zi and doubled. A margin written with a unit
        (``子`` zi; ``目``, ``집``, ``点`` points) ignores this flag.

    Returns
    -------
    Result

    Notes
    -----
    ``B+0``, ``B+0.0`` and ``W+0.02`` keep the winner with kind 'unknown' (see
    ``_NO_MARGIN``); ``W+Jigo``, ``W+J`` and ``W+0`` are a counted tie won by rule
    (margin 0.0); ``B+AW`` (UEC) keeps the winner with kind 'unknown'; ``B+Illegal``, ``B+V`` and
    ``W+Repetition`` are forfeits; ``0``, ``Draw``, ``Jigo``, ``D+J`` are draws; a value
    naming both winners (``B+1.5 ? W+timeout``) is unknown. A margin after ``B+`` is
    digits with an optional fraction (``7.5``, ``7½``, ``7 1/2``); anything else that
    starts with a digit (``B+1e5``, ``B+1_000``), or a margin larger than any board,
    keeps the winner with kind 'unknown', no margin and a ``warning``. Words after the reason
    (``W+R (152 moves)``, ``B+7.5?``) are ignored. Text that is UTF-8 read as cp1252 or
    GBK is repaired before giving up.

    Examples
    --------
    >>> parse_result("W+12.5")
    Result(kind='counted', winner='W', margin=12.5)
    >>> parse_result("黑胜3/4子")
    Result(kind='counted', winner='B', margin=1.5)
    >>> parse_result("W+1.25", zi=True).margin
    2.5
    >>> parse_result("백불계승")
    Result(kind='resign', winner='W', margin=None)
    """
    check_text("parse_result", "raw", raw)
    return UNKNOWN if raw is None else _parse(raw, bool(zi))
