"""Komi (``KM``) in points, undoing Fox's ×100 and the zi counting of Chinese records.

Survey: 88 distinct ``KM`` values. Fox writes ``KM[0]``, ``KM[750]``, ``KM[650]``,
``KM[550]``, ``KM[450]``, ``KM[375]``, ``KM[325]``; KGS writes two decimals (``6.50``,
``-20.00``); everything else writes whole or half points (``5``, ``5.5``, ``7.500000``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from numbers import Integral

from rulelab.errors import RulesError
from rulelab.read.metadata._text import ZI_UNITS, check_text, normalise, quarter_fraction
from rulelab.rules import MAX_BOARD_POINTS

_KOMI = re.compile(
    r"(?:komi|黑贴|黑貼|贴|貼|덤|コミ)?\s*[:=]?\s*([+-]?)\s*(\d+(?:[.,]\d*)?|[.,]\d+)\s*"
    r"(子|目|집|点|點|zi|stones?|points?)?", re.I)
_HUNDREDFOLD = 100
"""A bare integer from here up is komi ×100 (Fox)."""


@lru_cache(maxsize=1024)
def read_komi(raw: str) -> tuple[float, bool] | None:
    """``(komi in points, written in zi)``, or None when unreadable or beyond any board."""
    match = _KOMI.fullmatch(normalise(raw))
    if not match:
        return None
    sign, digits, unit = match.groups()
    value = float(digits.replace(",", "."))
    if digits.isdigit() and value >= _HUNDREDFOLD:
        value /= _HUNDREDFOLD
    in_zi = unit.casefold() in ZI_UNITS if unit else quarter_fraction(value)
    komi = (2 * value if in_zi else value) * (-1 if sign == "-" else 1)
    return (komi, in_zi) if abs(komi) <= MAX_BOARD_POINTS else None  # else garbage, not komi


def parse_komi(raw: str | None, *, source: str | None = None, handicap: int = 0) -> float | None:
    """Komi in points from a ``KM`` value; None when absent, unreadable or unknown.

    Parameters
    ----------
    raw : str or None
        The decoded ``KM`` text.
    source : str or None
        The record's source (:func:`detect_source`); ``'fox'`` makes ``KM[0]`` unknown
        in games without handicap.
    handicap : int
        Handicap stones (``Handicap.value``).

    Returns
    -------
    float or None

    Raises
    ------
    RulesError
        If ``handicap`` is not a non-negative int.

    Notes
    -----
    - A bare integer of 100 or more is komi ×100: ``KM[650]`` = 6.5. Fox writes 650,
      750, 550, 450, 375, 325 in 6,254 games; nothing else in the corpora writes a bare
      integer above 7 (KGS writes large komi with decimals, ``KM[-100.00]``).
    - A komi ending in .25 or .75 is in zi and is doubled: ``KM[375]`` and ``KM[3.75]``
      = 7.5, ``KM[275]`` and ``KM[2.75]`` = 5.5. Every other komi in the corpora is whole
      or half, so a 2.75-point komi does not occur; the 232 Fox games with 375 or 325 are
      all labelled Chinese and their margins are in quarter zi.
    - Fox's ``KM[0]`` without handicap is unknown (None): those 4,946 games had a
      half-point komi (all 560 margins in points above zero end on a half point), while
      all 224 such margins of Fox handicap games with ``KM[0]`` are whole, so their 0 is
      kept. Fox's ``HA[1]`` games (no stones) had komi 0 too (margins 2, 6, 12, 25) but
      look like even games here, so their komi is unknown as well.
    - ``子`` in the text means zi; ``目``, ``집``, ``点`` mean points (``黑贴3又3/4子``,
      ``6目半``, ``덤 6집반``); a decimal comma is read; negative komi and ``KM[0]``
      from other sources are kept as written.

    Examples
    --------
    >>> parse_komi("650", source="fox"), parse_komi("375"), parse_komi("2.75")
    (6.5, 7.5, 5.5)
    >>> parse_komi("0", source="fox") is None, parse_komi("0", source="fox", handicap=3)
    (True, 0.0)
    """
    check_text("parse_komi", "raw", raw)
    if not isinstance(handicap, Integral) or isinstance(handicap, bool) or handicap < 0:
        raise RulesError(f"The 'handicap' parameter of parse_komi() must be a non-negative "
                         f"int. Got {handicap!r} instead.")
    reading = None if raw is None else read_komi(raw)
    if reading is None or (source == "fox" and reading[0] == 0 and handicap == 0):
        return None
    return reading[0]


def komi_warning(raw: str | None) -> str | None:
    """Why a written ``KM`` is not read (``KM[nan]``, ``KM[1e308]``), or None.

    >>> komi_warning("nan"), komi_warning("6.5"), komi_warning(None)
    ("KM 'nan' is not a komi rulelab reads; stored as null", None, None)
    """
    check_text("komi_warning", "raw", raw)
    if raw is None or not raw.strip() or read_komi(raw) is not None:
        return None
    return f"KM {raw[:40]!r} is not a komi rulelab reads; stored as null"
