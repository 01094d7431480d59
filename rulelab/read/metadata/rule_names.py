"""Ruleset names (``RU``) to the preset names of :mod:`rulelab.rules`.

Survey: the corpora hold 9 distinct ``RU`` values, all mapped here: Japanese (31,384
games), Chinese (1,819), AGA (276), NZ (24), New Zealand (13), Tromp/Taylor (12), CGOS's
TT-- (2), GOE (1) and the empty string (3, None); 95,877 games have no ``RU``.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from rulelab.read.metadata._text import check_text, repaired

_ALIASES = {
    "chinese": ("chinese", "cn", "chn", "china", "中国", "中国规则", "中國規則", "中国ルール",
                "중국룰", "중국규칙", "chinesekgs", "chineseogs"),
    "japanese": ("japanese", "jp", "jpn", "japan", "j1989", "日本", "日本规则", "日本規則",
                 "日本ルール", "일본룰", "일본규칙"),
    "korean": ("korean", "kr", "kor", "korea", "韩国", "韩国规则", "韓國規則", "韓国ルール",
               "한국룰", "한국규칙"),
    "aga": ("aga", "american", "bga", "french"),
    "nz": ("nz", "newzealand"),
    "ing": ("ing", "goe", "inggoe", "sst", "ingsst", "应氏", "应氏规则", "應氏規則"),
    "tromp-taylor": ("tromptaylor", "tt", "tromp"),
    "stone-scoring": ("stonescoring", "ancientarea"),
}
_BY_KEY = {alias: name for name, aliases in _ALIASES.items() for alias in aliases}
_KEY_JUNK = re.compile(r"[\s\-_/.,()]+")
_NAMED = re.compile(
    r"(?P<tromp>tromp|taylor)|(?P<nz>new\s*zealand|\bnz\b)|(?P<aga>\baga\b|american)"
    r"|(?P<ing>\bing\b|\bgoe\b|\bsst\b|应氏|應氏)|(?P<chinese>chin|中国|中國|중국)"
    r"|(?P<japanese>japan|日本|일본)|(?P<korean>korea|韩国|韓國|韓国|한국)", re.I)

# KataGo's rule strings (koPOSITIONALscoreAREAtaxNONEsui1whbN, as its rules.cpp writes
# them) against its presets, in the order ko, score, tax, sui, button, whb, fpok. Absent
# fields take KataGo's Tromp-Taylor-like defaults. Japanese and Korean are one row in
# KataGo, so such strings read as 'japanese'.
_KATAGO_FIELD = re.compile(
    r"(ko)(SIMPLE|POSITIONAL|SITUATIONAL|SPIGHT)|(score|scoring)(AREA|TERRITORY)"
    r"|(tax)(NONE|SEKI|ALL)|(sui)([01])|(button)([01])|(whb)(N-1|N|0)|(fpok)([01])"
    r"|(komi)(-?\d+(?:\.\d+)?)")
_KATAGO_ORDER = ("ko", "score", "tax", "sui", "button", "whb", "fpok")
_KATAGO_DEFAULTS = ("POSITIONAL", "AREA", "NONE", "1", "0", "0", "0")
_KATAGO_PRESETS = {
    "chinese": ("SIMPLE", "AREA", "NONE", "0", "0", "N", "1"),
    "japanese": ("SIMPLE", "TERRITORY", "SEKI", "0", "0", "0", "0"),
    "aga": ("SITUATIONAL", "AREA", "NONE", "0", "0", "N-1", "1"),
    "nz": ("SITUATIONAL", "AREA", "NONE", "1", "0", "0", "1"),
    "tromp-taylor": ("POSITIONAL", "AREA", "NONE", "1", "0", "0", "0"),
    "ing": ("POSITIONAL", "AREA", "NONE", "1", "0", "0", "1"),
    "stone-scoring": ("SIMPLE", "AREA", "ALL", "0", "0", "0", "1"),
}


def _katago(text: str) -> str | None:
    """The preset with the same scoring and tax that differs in the fewest settings.

    Ties go to the earlier row of ``_KATAGO_PRESETS``.
    """
    fields = dict(zip(_KATAGO_ORDER, _KATAGO_DEFAULTS))
    end = 0
    for match in _KATAGO_FIELD.finditer(text):
        if match.start() != end:
            return None
        key, value = (group for group in match.groups() if group is not None)
        fields["score" if key == "scoring" else key] = value
        end = match.end()
    if end == 0 or end != len(text):
        return None
    wanted = tuple(fields[key] for key in _KATAGO_ORDER)
    candidates = [(sum(a != b for a, b in zip(wanted, preset)), name)
                  for name, preset in _KATAGO_PRESETS.items() if preset[1:3] == wanted[1:3]]
    return min(candidates, key=lambda candidate: candidate[0])[1] if candidates else None


@lru_cache(maxsize=256)
def _read(raw: str) -> str | None:
    text = unicodedata.normalize("NFKC", raw).strip()
    key = _KEY_JUNK.sub("", text.casefold())
    if key in _BY_KEY:
        return _BY_KEY[key]
    katago = _katago(text.replace(" ", ""))
    if katago:
        return katago
    named = {"tromp-taylor" if m.lastgroup == "tromp" else m.lastgroup
             for m in _NAMED.finditer(text)}
    return named.pop() if len(named) == 1 else None


def parse_rules(raw: str | None) -> str | None:
    """The ruleset an ``RU`` value names, or None when absent, unknown or ambiguous.

    Parameters
    ----------
    raw : str or None
        The decoded ``RU`` text.

    Returns
    -------
    str or None
        A key of :data:`rulelab.rules.PRESETS`: 'chinese', 'japanese', 'korean', 'aga',
        'nz', 'ing', 'tromp-taylor' or 'stone-scoring'.

    Notes
    -----
    Spellings are compared casefolded without spaces and punctuation (``Tromp/Taylor``,
    ``TT--``, ``Ing Goe``, ``New Zealand``). GOE and SST are Ing; BGA and French rules
    read as 'aga' (KataGo gives them the same settings). A KataGo rule string maps to
    the nearest preset with the same scoring and tax: ``koPOSITIONALscoreAREAtaxNONEsui1``
    is 'tromp-taylor', adding ``fpok1`` makes it 'ing'. Other text naming exactly one
    ruleset (``Chinese (komi 7.5)``, ``中国规则``) maps to it; text naming two is None.
    ``RU`` on Fox records is a template value: this reads the text, the caller decides
    whether to trust it.

    Examples
    --------
    >>> parse_rules("GOE"), parse_rules("Tromp/Taylor"), parse_rules("한국룰")
    ('ing', 'tromp-taylor', 'korean')
    >>> parse_rules("koPOSITIONALscoreAREAtaxNONEsui1")
    'tromp-taylor'
    """
    check_text("parse_rules", "raw", raw)
    if raw is None:
        return None
    rules = _read(raw)
    if rules is None and (fixed := repaired(raw)):
        rules = _read(fixed)
    return rules
