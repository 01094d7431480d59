"""Handicap from ``HA``, setup stones and opening moves, and whether they agree.

Survey: ``HA`` is absent in 103,624 games, ``HA[0]`` in 11,167, ``HA[2..9]`` in 14,553,
``HA[1]`` in 66 and non-numeric (``HA[7.5]``) in 1. Fox puts handicap stones in the
second node, not the root, and 132 Fox games declare ``HA[2..9]`` with no stones at all,
White moving first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from numbers import Integral

from rulelab.errors import RulesError
from rulelab.read.metadata._text import check_text, parse_int

_MAX_HANDICAP = 9
"""More black-only stones than this are a set-up position, not a handicap: Fuego's
safety and playout tests set up 10-64 black stones with White to play."""


@dataclass(frozen=True)
class Handicap:
    """The handicap of a game and where it was read from."""

    value: int
    """Handicap stones Black received: 0 for an even game and for ``HA[1]``."""
    mismatch: bool
    """True when ``HA`` and the stones on the board (setup or opening moves) disagree."""
    how: str
    """Where ``value`` came from: 'HA', 'setup', 'moves' or 'none'."""


def _count(name: str, value: object) -> int:
    if not isinstance(value, Integral) or isinstance(value, bool) or value < 0:
        raise RulesError(f"The {name!r} parameter of infer_handicap() must be a non-negative "
                         f"int. Got {value!r} instead.")
    return int(value)


def _shown(setup_black: int, setup_white: int, opening_black_moves: int) -> tuple[int | None, str]:
    """The stones the record shows and how, or None when it shows a position instead."""
    if setup_white or setup_black > _MAX_HANDICAP:
        return None, "none"
    stones, how = (setup_black, "setup") if setup_black else (opening_black_moves, "moves")
    if stones > _MAX_HANDICAP:
        return None, "none"
    return (stones, how) if stones >= 2 else (0, "none")


def infer_handicap(ha_raw: str | None, setup_black: int, setup_white: int,
                   opening_black_moves: int) -> Handicap:
    """Decide the handicap from ``HA`` and the stones the record places.

    Parameters
    ----------
    ha_raw : str or None
        The decoded ``HA`` text.
    setup_black, setup_white : int
        ``AB`` and ``AW`` stones placed before the first move (root and, for Fox, the
        second node).
    opening_black_moves : int
        Black stones played before White's first stone (White passes in between do not
        end the count).

    Returns
    -------
    Handicap

    Raises
    ------
    RulesError
        If a count is not a non-negative int.

    Notes
    -----
    - The board shows a handicap of N when it has 2-9 black setup stones and no white
      ones, or else 2-9 Black moves before White's first. One stone (a lone ``AB``,
      Black's first move) is no handicap. Setups with white stones, or with more than 9
      black ones, are positions: they show nothing and ``HA`` alone decides.
    - ``HA[0]`` and ``HA[1]`` mean no stones (``HA[1]``: Black plays first without
      komi), so both give 0 and agree with a board showing none. Non-numeric or negative
      ``HA`` is treated as absent.
    - When ``HA`` and the board disagree, a board showing stones wins (``HA[4]`` with 5
      ``AB``; ``HA[0]`` with two Black moves first) and ``HA`` wins when the record shows
      none (Fox's ``HA[3]`` without ``AB``); both set ``mismatch``.

    Examples
    --------
    >>> infer_handicap("3", 3, 0, 0)
    Handicap(value=3, mismatch=False, how='HA')
    >>> infer_handicap("3", 0, 0, 0)
    Handicap(value=3, mismatch=True, how='HA')
    >>> infer_handicap(None, 0, 0, 4)
    Handicap(value=4, mismatch=False, how='moves')
    """
    check_text("infer_handicap", "ha_raw", ha_raw)
    shown, how = _shown(_count("setup_black", setup_black), _count("setup_white", setup_white),
                        _count("opening_black_moves", opening_black_moves))
    declared = parse_int(ha_raw)
    if declared is None or declared < 0:
        return Handicap(shown or 0, False, how)
    declared = declared if declared >= 2 else 0
    if shown is None or shown == declared:
        return Handicap(declared, False, "HA")
    return Handicap(shown, True, how) if shown else Handicap(declared, True, "HA")


_WHOLE_NUMBER = re.compile(r"\s*[+-]?\d+\s*")


def handicap_warning(ha_raw: str | None) -> str | None:
    """Why an ``HA`` written as a whole number is not read (negative, or more digits than
    any handicap: ``HA[-1]``, ``HA[999999999999]``), or None.

    >>> handicap_warning("-1"), handicap_warning("3"), handicap_warning("7.5")
    ("HA '-1' is not a number of handicap stones; stored as null", None, None)
    """
    check_text("handicap_warning", "ha_raw", ha_raw)
    if ha_raw is None or not _WHOLE_NUMBER.fullmatch(ha_raw):
        return None
    value = parse_int(ha_raw)
    if value is not None and value >= 0:
        return None
    return f"HA {ha_raw.strip()[:40]!r} is not a number of handicap stones; stored as null"
