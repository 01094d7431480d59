"""Text from the bytes of an SGF record, chosen so that decoding never changes a move.

SGF's structure is ASCII (``[ ] ; ( )``), but many legacy codecs (GBK, Shift-JIS, Big5)
use bytes such as ``]`` as the second byte of a character. A wrong codec guess therefore
does not just garble a player's name: it swallows a bracket and shifts every move after
it. So a codec is only accepted when the decoded text keeps exactly as many structural
characters as the bytes have; Latin-1 always does, and is the last resort.

Order of trust, first match wins:

1. strictly valid UTF-8 (with non-ASCII text this is strong evidence: a ``CA`` that
   contradicts it is taken to be wrong);
2. the codec named by ``CA[...]`` (or its usual superset, e.g. GB18030 for GB2312);
3. damaged UTF-8 (the Fox server replaced a few bytes by ``?``): decoded with
   replacement characters, ``lossy=True``;
4. the most plausible of GB18030, Shift-JIS, Big5, EUC-KR and cp1252;
5. Latin-1.

Steps 3 and 4 weigh the first 64 KiB (:data:`SAMPLE_BYTES`); the codec they choose must
then decode the whole record, or it is read as Latin-1.

Text without a ``CA`` in EUC-KR and in GB2312 use the same byte ranges and cannot be told
apart from the bytes alone; such text is read as GB18030 (more common in Go records).
UTF-16 and UTF-32 text, not ASCII-compatible, is told first, by its byte order mark or
by the two characters ``(;`` spelled in its code units, and taken when it decodes
strictly to text holding ``(;``.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from rulelab.errors import DecodeError

STRUCTURE = "[];()"
"""Characters whose count decoding must preserve."""

LEGACY_CODECS = ("gb18030", "shift_jis", "big5", "euc_kr", "cp1252")
"""Codecs tried, in this order of preference on ties, when the bytes are not UTF-8."""

_SUPERSET = {"gb2312": "gb18030", "gbk": "gb18030", "euc_kr": "cp949", "shift_jis": "cp932", "big5": "cp950"}
_CA = re.compile(rb"CA(?<![A-Za-z]CA)\s*\[\s*([^\]\\]{1,40}?)\s*\]")
"""``CA[...]`` not preceded by a letter. The pattern starts with its literal, which ``re``
finds by a fast scan: led by the look-behind, it tried every byte, 1.9 s per 60 MiB
member without a ``CA``, two thirds of the time to decode one."""
_BOM = codecs.BOM_UTF8
_NON_ASCII = re.compile(r"[^\x00-\x7f]")


@dataclass(frozen=True)
class Decoded:
    """The text of a record and how it was obtained."""

    text: str
    encoding: str
    """Python codec name used: 'utf-8', 'gb18030', 'shift_jis', ..., 'latin-1'."""
    lossy: bool
    """True when undecodable bytes were replaced by U+FFFD."""


def decode_sgf(data: bytes) -> Decoded:
    """Decode the bytes of an SGF file without changing its structure.

    Parameters
    ----------
    data : bytes
        The raw file (or archive member); a UTF-8 byte order mark is dropped.

    Returns
    -------
    Decoded
        The text, the codec used and whether bytes were replaced. The text always has
        as many ``[``, ``]``, ``;``, ``(`` and ``)`` as ``data`` has those bytes (in UTF-16
        and UTF-32, those code units).

    Raises
    ------
    DecodeError
        If ``data`` is not bytes-like.

    Examples
    --------
    >>> decode_sgf("(;PB[李世石])".encode("utf-8"))
    Decoded(text='(;PB[李世石])', encoding='utf-8', lossy=False)
    >>> decode_sgf("(;CA[GB2312]PB[李世石])".encode("gb2312")).encoding
    'gb2312'
    >>> decode_sgf(b"(;PB[\\xe6\\x9f?]C[\\xe6\\x9f\\xaf])").lossy
    True
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise DecodeError(f"decode_sgf() needs bytes, got {type(data).__name__}")
    data = bytes(data)
    wide = _wide_text(data)
    if wide is not None:
        return wide
    if data.startswith(_BOM):
        data = data[len(_BOM):]
    text = _strict(data, "utf-8")
    if text is not None:
        return Decoded(text, "utf-8", False)
    declared = declared_codec(data)
    if declared is not None and declared != "utf-8":
        for codec in (declared, _SUPERSET.get(declared)):
            text = _strict(data, codec) if codec else None
            if text is not None:
                return Decoded(text, _display_name(codec), False)
    sample, whole = data[:SAMPLE_BYTES], len(data) <= SAMPLE_BYTES
    if declared == "utf-8" or _looks_like_damaged_utf8(_decoded(sample, "utf-8", whole, "replace")[0]):
        return Decoded(data.decode("utf-8", "replace"), "utf-8", True)
    best = _most_plausible_legacy(sample, whole)
    text = _strict(data, best) if best is not None else None
    if text is not None:
        return Decoded(text, best, False)
    return Decoded(data.decode("latin-1"), "latin-1", False)


_WIDE_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
              (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
"""Byte order marks and their codecs (UTF-32's first: its little-endian mark starts like UTF-16's)."""
_WIDE_STARTS = ((b"(\0\0\0;\0\0\0", "utf-32-le"), (b"\0\0\0(\0\0\0;", "utf-32-be"),
                (b"(\0;\0", "utf-16-le"), (b"\0(\0;", "utf-16-be"))
"""``(;`` in the code units of a codec without a byte order mark."""


def _wide_text(data: bytes) -> Decoded | None:
    """UTF-16 or UTF-32 text, told by its byte order mark, else by ``(;`` in its code units
    in the first bytes; None when no such codec decodes it strictly to text holding ``(;``."""
    head = data[:SAMPLE_BYTES]
    codecs_told = [codec for mark, codec in _WIDE_BOMS if head.startswith(mark)][:1]
    codecs_told += [codec for mark, codec in _WIDE_STARTS if mark in head]
    for codec in codecs_told:
        text = _strict(data, codec)
        if text is not None and "(;" in text:
            return Decoded(text, codec, False)
    return None


SAMPLE_BYTES = 1 << 16
"""Bytes a guess weighs (the first ones): a record's names and first comments are in
them, and weighing every character of a 60 MiB member took two minutes."""


def declared_codec(data: bytes) -> str | None:
    """The Python codec named by the first ``CA[...]`` in ``data``, if Python knows it.

    Only ASCII-compatible text codecs count: a ``CA[UTF-16]`` or ``CA[base64]`` is
    ignored, as is an unknown name.

    >>> declared_codec(b"(;CA[ISO-8859-1])"), declared_codec(b"(;CA[klingon])")
    ('latin-1', None)
    """
    match = _CA.search(data)
    if match is None:
        return None
    try:
        info = codecs.lookup(match.group(1).decode("ascii").strip())
    except (LookupError, UnicodeDecodeError):
        return None
    try:
        if b"(;[]\\)AZaz09".decode(info.name) != "(;[]\\)AZaz09":
            return None
    except (UnicodeDecodeError, LookupError):
        return None
    return _display_name(info.name)


def _display_name(codec: str) -> str:
    name = codecs.lookup(codec).name
    return "latin-1" if name == "iso8859-1" else name


def _keeps_structure(data: bytes, text: str) -> bool:
    return all(data.count(ord(ch)) == text.count(ch) for ch in STRUCTURE)


def _decoded(data: bytes, codec: str, whole: bool = True, errors: str = "strict") -> tuple[str, bytes]:
    """``data`` decoded, and the bytes decoded; a character cut at the end of a part
    (``whole`` False) is left out of both."""
    decoder = codecs.getincrementaldecoder(codec)(errors)
    text = decoder.decode(data, whole)
    return text, data[:len(data) - len(decoder.getstate()[0])]


def _strict(data: bytes, codec: str, whole: bool = True) -> str | None:
    """``data`` decoded strictly with ``codec``, or None if that fails or eats structure."""
    try:
        text, decoded = _decoded(data, codec, whole)
    except (UnicodeDecodeError, LookupError):
        return None
    return text if _keeps_structure(decoded, text) else None


def _looks_like_damaged_utf8(replaced: str) -> bool:
    """Whether UTF-8 with replacements is the right reading of non-UTF-8 bytes.

    Real UTF-8 CJK text is made of three-byte sequences; legacy double-byte text only
    forms one by accident. Fox damage (a byte replaced by ``?``) costs at most two
    replacement characters per damaged character, so genuine damaged UTF-8 keeps at
    least one valid wide character per two replacements.
    """
    bad = replaced.count("\ufffd")
    wide = sum(1 for ch in replaced if ch >= "\u0800") - bad
    return wide > 0 and bad <= 2 * wide


def _most_plausible_legacy(data: bytes, whole: bool) -> str | None:
    """The legacy codec that decodes ``data`` (the start of a record unless ``whole``)
    keeping its structure and reads most like real text."""
    best, best_score = None, None
    for codec in LEGACY_CODECS:
        text = _strict(data, codec, whole)
        if text is None:
            continue
        score = _plausibility(text, codec)
        if best_score is None or score > best_score:
            best, best_score = codec, score
    return best


def _plausibility(text: str, codec: str) -> int:
    """Common characters of the codec's language, minus characters no text would hold.

    A wrong legacy codec still decodes, but into rare characters (GB18030 reading
    Shift-JIS kana gives rare hanzi outside GB2312), symbol soup (cp1252 reading GBK)
    or ideographs glued to Latin letters (GB18030 reading ``créé``).
    """
    common = _COMMON[codec]
    latin_codec = codec == "cp1252"
    score = 0
    for match in _NON_ASCII.finditer(text):
        ch, i = match.group(), match.start()
        if ch == "\ufffd" or "\x80" <= ch < "\xa0" or "\ue000" <= ch <= "\uf8ff":
            score -= 1
        elif common(ch):
            beside_latin = _is_ascii_letter(text, i - 1) or _is_ascii_letter(text, i + 1)
            score += beside_latin == latin_codec
    return score


def _is_ascii_letter(text: str, i: int) -> bool:
    return 0 <= i < len(text) and text[i].isascii() and text[i].isalpha()


def _encodes_in(ch: str, codec: str) -> bytes | None:
    try:
        return ch.encode(codec)
    except UnicodeEncodeError:
        return None


_COMMON = {
    "gb18030": lambda ch: _encodes_in(ch, "gb2312") is not None,
    "shift_jis": lambda ch: (_encodes_in(ch, "shift_jis") or b"\xff")[0] < 0x99,
    "big5": lambda ch: 0xA4 <= (_encodes_in(ch, "big5") or b"\x00")[0] <= 0xC6,
    "euc_kr": lambda ch: "\uac00" <= ch <= "\ud7a3",
    "cp1252": lambda ch: ch.isalpha() and "\xc0" <= ch <= "\xff",
}
