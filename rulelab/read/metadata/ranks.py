"""Player ranks (``BR``, ``WR``) as ``9d``, ``3k`` or ``9p``.

Survey: 285 distinct ranks. KGS and Tygem write ``7d``, ``13k``; NNGS adds ``*`` or
``?``; Fox writes ``9段``, ``P9段`` (professional), ``18级``; old records ``9 Dan``,
``4 Dan Professional``; titles (``Honinbo``, ``Meijin``), numeric ratings (CGOS
``2126``) and ``NR`` are not ranks.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from rulelab.read.metadata._text import check_text, cjk_numerals_to_digits, repaired

_PRO_FIRST = re.compile(r"(?:p|pro|职业|職業|프로|プロ)\s*(\d{1,3})(?!\d)\s*(?:dan|d|段|단|p)?(?![a-z])",
                        re.I)
_RANK = re.compile(r"(?<!\d)(\d{1,3})(?:\.\d+)?\s*(dan|d|段|단|kyu|k|级|級|급|p)(?![a-z])\s*"
                   r"(pro(?:fessional)?)?", re.I)
_AMATEUR = re.compile(r"业余|業餘|アマ|아마")
_KYU_UNITS = frozenset({"kyu", "k", "级", "級", "급"})
_MAX_DAN, _MAX_KYU = 9, 30


@lru_cache(maxsize=1024)
def _read(raw: str) -> str | None:
    """Cached: a handful of ranks (``9d``, ``9段``, ``7d``) cover most games."""
    text = unicodedata.normalize("NFKC", raw).strip().replace("初", "一")
    text = cjk_numerals_to_digits(_AMATEUR.sub("", text))
    pro = _PRO_FIRST.match(text)
    if pro:
        number = int(pro.group(1))
        return f"{number}p" if 1 <= number <= _MAX_DAN else None
    match = _RANK.match(text)
    if not match:
        return None
    number, unit = int(match.group(1)), match.group(2).casefold()
    if unit in _KYU_UNITS:
        return f"{number}k" if 1 <= number <= _MAX_KYU else None
    suffix = "p" if unit == "p" or match.group(3) else "d"
    return f"{number}{suffix}" if 1 <= number <= _MAX_DAN else None


def parse_rank(raw: str | None) -> str | None:
    """A rank as ``'9d'``, ``'3k'`` or ``'9p'``, or None.

    Parameters
    ----------
    raw : str or None
        The decoded ``BR``/``WR`` text.

    Returns
    -------
    str or None
        None for ratings, titles, ``NR`` and ranks out of range (over 9 dan, 30 kyu).

    Notes
    -----
    Trailing marks and words are ignored (``13k*``, ``9d, Tengen``); a fractional rank
    keeps its whole part (``11.6k`` is ``11k``); ``初段`` is 1 dan; CJK numerals are
    read (``九段``); UTF-8 read as cp1252 or GBK is repaired (``9æ®µ`` is ``9d``).

    Examples
    --------
    >>> parse_rank("P9段"), parse_rank("9æ®µ"), parse_rank("13k*"), parse_rank("Honinbo")
    ('9p', '9d', '13k', None)
    """
    check_text("parse_rank", "raw", raw)
    if not raw:
        return None
    rank = _read(raw)
    if rank is None and (fixed := repaired(raw)):
        rank = _read(fixed)
    return rank
