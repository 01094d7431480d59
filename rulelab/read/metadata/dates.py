"""The year a game was played, from ``DT`` in any of the forms records use.

Survey: 76 shapes of ``DT``. ISO dates cover 98.3% of games; the rest are ranges and lists
(``2003-05-01,02``, ``2000-10-24,2000-10-30``, ``1945-07-23..25``), bare or open years
(``1978``, ``1941-``), month names (``Sept 18/19, 1965``, ``1966, August 5,6``), day-first
dates (``01.08.2001``), times and time zones.
"""

from __future__ import annotations

import re
import unicodedata

from rulelab.read.metadata._text import check_text, cjk_numerals_to_digits

_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_FIRST_YEAR, _LAST_YEAR = 1000, 2999
_ERA = re.compile(r"(明治|大正|昭和|平成|令和)\s*(\d+|元)\s*年")
_STATED_YEAR = re.compile(r"(?<!\d)(\d+)\s*(?:年|-\d)")  # 12345年, 99999-01-01
_YEAR_DIGITS = 5  # a longer number is no year any column holds: never int() it
_ERA_START = {"明治": 1868, "大正": 1912, "昭和": 1926, "平成": 1989, "令和": 2019}


def parse_year(dt_raw: str | None) -> int | None:
    """The year a ``DT`` value starts in, or None.

    Parameters
    ----------
    dt_raw : str or None
        The decoded ``DT`` text.

    Returns
    -------
    int or None
        The first four-digit number from 1000 to 2999 (``2016年3月9日``, ``二〇一六年``
        included), else a Japanese era year (``昭和50年`` is 1975). Two-digit years are
        not guessed, nor is a year past 2999 (``昭和99999年``).

    Examples
    --------
    >>> parse_year("2000-10-24,2000-10-30"), parse_year("Aug 29/30, 1965")
    (2000, 1965)
    >>> parse_year("昭和五十年"), parse_year("96-05-12")
    (1975, None)
    """
    check_text("parse_year", "dt_raw", dt_raw)
    if not dt_raw:
        return None
    text = _normalised(dt_raw)
    for match in _YEAR.finditer(text):
        year = int(match.group(1))
        if _FIRST_YEAR <= year <= _LAST_YEAR:
            return year
    year = _era_year(text)
    return year if year is not None and year <= _LAST_YEAR else None


def year_warning(dt_raw: str | None) -> str | None:
    """Why a ``DT`` that states a year gives none, or None: a year the column cannot
    hold (``昭和99999年``, ``12345年``, ``99999-01-01``) is a null with a warning, never
    a silent one.

    >>> year_warning("昭和99999年")
    "DT year '昭和99999年' is outside 1000-2999; stored as null"
    >>> year_warning("2016-03-09"), year_warning("96-05-12"), year_warning(None)
    (None, None, None)
    """
    if not dt_raw or parse_year(dt_raw) is not None:
        return None
    text = _normalised(dt_raw)
    era, stated = _ERA.search(text), _STATED_YEAR.search(text)
    if era:
        shown = era.group(0)
    elif stated and len(stated.group(1)) >= 4:  # two-digit years are not guessed, not wrong
        shown = stated.group(1)
    else:
        return None
    shown = shown if len(shown) <= 24 else f"{shown[:20]}..."
    return f"DT year {shown!r} is outside {_FIRST_YEAR}-{_LAST_YEAR}; stored as null"


def _normalised(dt_raw: str) -> str:
    return cjk_numerals_to_digits(unicodedata.normalize("NFKC", dt_raw))


def _era_year(text: str) -> int | None:
    """The Western year of the first Japanese era year in ``text``, None when there is
    none or its number is too long to be one (Python refuses int() of 4,300 digits)."""
    era = _ERA.search(text)
    if not era or len(era.group(2)) > _YEAR_DIGITS:
        return None
    return _ERA_START[era.group(1)] + (1 if era.group(2) == "元" else int(era.group(2))) - 1
