"""Which server or collection a record comes from, and so how it counts.

Servers count differently under the same rules' name (``docs/RULES.md``), so later
stages pick a counting convention by source. The tells were read off the corpora:
KGS writes ``PC[The KGS Go Server ...]`` (or Kiseido), Tygem data sits in ``PC``/``GC``,
Fox's export template writes ``TC`` and ``TT`` (and ``AP[foxwq]`` beside a borrowed
``AP[GNU Go:3.8]``), CGOS, NNGS and UEC name themselves in ``PC``/``EV``/``US``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from rulelab.read.metadata._text import NUMBER_WITH_UNIT, normalise, quarter_fraction
from rulelab.read.metadata.komi import read_komi
from rulelab.read.metadata.rule_names import parse_rules

# (properties, pattern, source); the first match wins. Servers come before programs
# because a server's record names the client (Fox's AP[GNU Go:3.8]) or the players
# (GNU Go on KGS). A None pattern asks for all the properties to be present: no source
# but Fox writes TC and TT (16,683 games: Fox and Fox re-exports, besides 29 Tygem games
# that PC[Tygem] catches first).
_TELLS = (
    (("PC", "GC", "EV", "GN"), re.compile(r"tygem|wbaduk|타이젬", re.I), "tygem"),
    (("AP", "PC", "GC", "EV", "GN"), re.compile(r"foxwq|\bfox\b|野狐", re.I), "fox"),
    (("TC", "TT"), None, "fox"),
    (("PC", "EV", "GC"), re.compile(r"\bkgs\b|gokgs|kiseido", re.I), "kgs"),
    (("PC", "AP", "GN", "SO"), re.compile(r"\bogs\b|online-go\.com", re.I), "ogs"),
    (("PC", "AP"), re.compile(r"\bigs\b|pandanet", re.I), "igs"),
    (("PC",), re.compile(r"cgos|computer go server", re.I), "cgos"),
    (("EV", "PC"), re.compile(r"\buec\b|electro-communications", re.I), "uec"),
    (("PC", "US"), re.compile(r"nngs|no name go server", re.I), "nngs"),
    (("SO", "US", "CP", "GC"), re.compile(r"gogod", re.I), "gogod"),
    (("AP", "GN", "PB", "PW"), re.compile(r"gnu\s*go|gnugo", re.I), "gnugo"),
    (("AP", "PB", "PW"), re.compile(r"fuego", re.I), "fuego"),
)


def _text(props: Mapping[str, object], key: str) -> str:
    value = props.get(key)
    if value is None or isinstance(value, str):
        return value or ""
    if isinstance(value, Sequence) and all(isinstance(item, str) for item in value):
        return "\n".join(value)
    raise TypeError(f"The 'props' parameter must map property names to str or a sequence "
                    f"of str. Got {type(value).__name__} for {key!r} instead.")


def detect_source(props: Mapping[str, str]) -> str | None:
    """The server or collection whose conventions a record follows, or None.

    Parameters
    ----------
    props : Mapping[str, str]
        The root properties (identifier to decoded text; a repeated property such as
        Fox's two ``AP`` may be a sequence of str). Pass the whole root: ``AP``, ``PC``,
        ``GC``, ``EV``, ``GN``, ``US``, ``SO``, ``CP``, ``PB``, ``PW``, ``TC``, ``TT``
        are read.

    Returns
    -------
    str or None
        'tygem', 'fox', 'kgs', 'ogs', 'igs', 'cgos', 'uec', 'nngs', 'gogod', 'gnugo',
        'fuego', or None.

    Examples
    --------
    >>> detect_source({"PC": "The KGS Go Server at http://www.gokgs.com/"})
    'kgs'
    >>> detect_source({"AP": "GNU Go:3.8", "KM": "375", "TC": "3", "TT": "30"})
    'fox'
    """
    if not isinstance(props, Mapping):
        raise TypeError(f"The 'props' parameter of detect_source() must be a Mapping. "
                        f"Got {type(props).__name__} instead.")
    for keys, pattern, source in _TELLS:
        if pattern is None:
            if all(key in props for key in keys):
                return source
        elif any(pattern.search(_text(props, key)) for key in keys):
            return source
    return None


def margin_in_zi(props: Mapping[str, str], source: str | None = None) -> bool:
    """True when the record's numeric ``RE`` margin counts stones (zi), not points.

    Parameters
    ----------
    props : Mapping[str, str]
        The root properties, as for :func:`detect_source`.
    source : str or None
        The record's source if already known; detected from ``props`` otherwise.

    Returns
    -------
    bool
        To pass as ``parse_result(..., zi=...)``.

    Notes
    -----
    True when the komi is written in zi (x.25 or x.75 after undoing Fox's ×100, or
    with ``子``), when the margin itself ends in .25 or .75 (a points margin never
    does), or for a Fox record in Fox's own encoding (a bare integer ``KM``) labelled
    Chinese. Evidence: Fox games with ``KM[375]`` or ``KM[325]`` record margins 0.75,
    1.25, 1.75, 2.75; Fox Chinese games with ``KM[0]`` record 1.25 and 2.25; Fox games
    labelled Japanese record only whole and half margins, and so do Fox re-exports
    that write ``KM[7.5]``.

    Examples
    --------
    >>> margin_in_zi({"KM": "375", "RU": "Chinese", "TC": "3", "TT": "30"})
    True
    >>> margin_in_zi({"KM": "650", "RU": "Japanese", "TC": "3", "TT": "30"})
    False
    """
    komi_text = _text(props, "KM")
    komi = read_komi(komi_text)
    if komi is not None and komi[1]:
        return True
    if komi_text.strip().isdigit() and parse_rules(_text(props, "RU")) == "chinese":
        if (source or detect_source(props)) == "fox":
            return True
    margin = NUMBER_WITH_UNIT.search(normalise(_text(props, "RE")))
    return bool(margin) and quarter_fraction(float(margin.group(1).replace(",", ".")))
