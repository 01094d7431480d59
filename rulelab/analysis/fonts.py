"""The figures' fonts: names written in Chinese, Japanese or Korean characters are drawn,
never shown as boxes.

A font with CJK glyphs is chosen at run time when one is installed (Debian's
``fonts-noto-cjk`` or ``fonts-wqy-zenhei``; ``make install`` tries the latter), and
matplotlib falls back to it glyph by glyph after its own font. Without one, the text a
figure shows is transliterated to ASCII instead (:func:`legible`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from pathlib import Path

BASE_FONT = "DejaVu Sans"
"""Matplotlib's own font, first in the family: Latin text looks as it always did."""

CJK_FONT_FILES = ("NotoSansCJK-Regular.ttc", "NotoSansCJKjp-Regular.otf", "wqy-zenhei.ttc",
                  "wqy-microhei.ttc")
"""Font files with CJK glyphs, most preferred first."""

_WIDE = re.compile("[\u2e80-\U0010ffff]+")


@cache
def cjk_font() -> str | None:
    """The family name of an installed font with CJK glyphs, registered with matplotlib
    (whose font list may predate the font's installation); None when there is none.

    It is registered at the normal weight, which the figures ask for: WenQuanYi Zen Hei
    declares itself medium, and matplotlib warns of every weight it cannot match."""
    from matplotlib import font_manager

    found = {Path(path).name: path for path in font_manager.findSystemFonts()}
    for name in CJK_FONT_FILES:
        if name in found:
            manager = font_manager.fontManager
            manager.addfont(found[name])
            manager.ttflist = [replace(entry, weight="normal") if entry.fname == found[name] else entry
                               for entry in manager.ttflist]
            return font_manager.FontProperties(fname=found[name]).get_name()
    return None


def font_family() -> list[str]:
    """The figures' font family: matplotlib's own, then a CJK font when one is installed."""
    return [BASE_FONT, *filter(None, [cjk_font()])]


def legible(text: str) -> str:
    """``text`` as a figure can draw it: unchanged with a CJK font or in ASCII, else each
    run of characters past U+2E7F (CJK, kana, Hangul, full-width forms), which the base
    font lacks, transliterated a syllable a character.

    Examples
    --------
    >>> legible("Kato Shin")
    'Kato Shin'
    """
    if text.isascii() or cjk_font():
        return text
    from anyascii import anyascii

    return _WIDE.sub(lambda run: " ".join(anyascii(c) for c in run.group()), text)
