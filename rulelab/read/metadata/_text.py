"""Shared text handling: one spelling for numbers, repair of mis-decoded UTF-8."""

from __future__ import annotations

import re
import unicodedata

_VULGAR_FRACTIONS = str.maketrans({"¼": "又1/4", "½": "又1/2", "¾": "又3/4"})
_CJK_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4,
               "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
CJK_NUMERAL = re.compile(r"[零〇一二两兩三四五六七八九十百]+")
_WORD_FRACTION = re.compile(r"(\d+)分之(\d+)")                        # 四分之三 = 3/4
_HALF_BEFORE_UNIT = re.compile(r"[半반]\s*(?=[子目집])")                # 半子, 半目, 반집
_HALF_AFTER_UNIT = re.compile(r"(\d+(?:\.\d+)?)\s*([子目집])\s*[半반]")  # 1目半, 3집반
_MIXED_FRACTION = re.compile(r"(?:(\d+)?\s*(?:又\s*)+|(\d+)[ \t]+)?(?<![\d.])(\d+)\s*/\s*(\d+)")  # 2又1/4, 7 1/2
_LONGEST_NUMBER = 9
"""Digits of the longest number read; longer runs are left as text (Python refuses to
convert an int of more than 4,300 digits, and no Go record needs one)."""

ZI_UNITS = frozenset({"子", "zi", "stone", "stones"})
"""Units that count stones (1 zi = 2 points of margin); 目, 집, 点 and points count points."""
NUMBER_WITH_UNIT = re.compile(r"(\d+(?:[.,]\d+)?)\s*(子|目|집|点|點|zi|stones?|points?|pts?)?",
                              re.I)
"""A number and its optional unit, after :func:`normalise`."""


def cjk_numerals_to_digits(text: str) -> str:
    """``三`` -> ``3``, ``十一`` -> ``11``, ``二十五`` -> ``25``, ``二〇一六`` -> ``2016``."""
    return CJK_NUMERAL.sub(lambda match: str(_cjk_number(match.group(0))), text)


def _cjk_number(numeral: str) -> int | str:
    if len(numeral) > _LONGEST_NUMBER:
        return numeral
    total, digits = 0, 0
    for char in numeral:
        if char in "十百":
            total += (digits or 1) * (10 if char == "十" else 100)
            digits = 0
        else:
            digits = digits * 10 + _CJK_DIGITS[char]
    return total + digits


def _mixed_to_decimal(match: re.Match) -> str:
    with_又, with_space, numerator, denominator = match.groups()
    whole = with_又 or with_space
    if max(len(whole or ""), len(numerator), len(denominator)) > _LONGEST_NUMBER or int(denominator) == 0:
        return match.group(0)
    return repr((int(whole) if whole else 0) + int(numerator) / int(denominator))


def _half_after_unit(match: re.Match) -> str:
    return f"{float(match.group(1)) + 0.5!r}{match.group(2)}"


def normalise(raw: str) -> str:
    """``raw`` with ASCII digits and decimals for fractions, halves and CJK numerals.

    ``7 1/2`` and ``7又1/2`` are 7.5, ``3/4`` is 0.75.

    Vulgar fractions are expanded before NFKC, which would turn ``3¾`` into ``33⁄4``.
    """
    if raw.isascii() and "/" not in raw:
        return raw.strip()  # the common case (``W+R``, ``6.50``) has nothing to rewrite
    text = unicodedata.normalize("NFKC", raw.translate(_VULGAR_FRACTIONS)).replace("⁄", "/")
    text = _WORD_FRACTION.sub(r"\2/\1", cjk_numerals_to_digits(text))
    text = _HALF_AFTER_UNIT.sub(_half_after_unit, _HALF_BEFORE_UNIT.sub("0.5", text))
    return _MIXED_FRACTION.sub(_mixed_to_decimal, text).strip()


def quarter_fraction(value: float) -> bool:
    """True for x.25 and x.75: points are whole or half, only zi counts in quarters."""
    return (abs(value) * 4) % 2 == 1


def _western_bytes(text: str) -> bytes:
    """The bytes a cp1252 reading came from (Latin-1 for the five bytes cp1252 lacks)."""
    out = bytearray()
    for char in text:
        try:
            out += char.encode("cp1252")
        except UnicodeEncodeError:
            out += char.encode("latin-1")
    return bytes(out)


def repaired(text: str) -> str | None:
    """``text`` re-decoded when it is UTF-8 mis-read as cp1252/Latin-1 or GBK, else None.

    Fox ranks arrive as ``9æ®µ`` (UTF-8 ``9段`` read as cp1252) and, where a GBK fallback
    ran, as ``9娈礭`` (the same bytes read as GBK, swallowing the closing bracket). Give
    it the raw text: NFKC turns the ``µ`` of ``9æ®µ`` into a Greek mu.
    """
    for to_bytes in (_western_bytes, lambda t: t.encode("gbk")):
        try:
            fixed = to_bytes(text).decode("utf-8")
        except UnicodeError:
            continue
        if fixed != text:
            return fixed
    return None


def check_text(function: str, name: str, raw: object) -> None:
    """Property values arrive decoded; anything but str or None is a caller's bug."""
    if raw is not None and not isinstance(raw, str):
        raise TypeError(f"The {name!r} parameter of {function}() must be a str or None. "
                        f"Got {type(raw).__name__} {raw!r:.40} instead.")


_INT = re.compile(r"[+-]?\d{1,%d}(?:\.0*)?" % _LONGEST_NUMBER)


def parse_int(raw: str | None) -> int | None:
    """An integer property value (``HA``, ``SZ``), or None when absent or not an integer.

    Parameters
    ----------
    raw : str or None
        The decoded property text; ``" 3 "`` and ``"3.0"`` read as 3. More than
        nine digits is not an integer rulelab reads.

    Returns
    -------
    int or None

    Examples
    --------
    >>> parse_int("4"), parse_int("7.5"), parse_int(None), parse_int("9" * 5000)
    (4, None, None, None)
    """
    check_text("parse_int", "raw", raw)
    if raw is None:
        return None
    text = unicodedata.normalize("NFKC", raw).strip()
    return int(text.partition(".")[0]) if _INT.fullmatch(text) else None
