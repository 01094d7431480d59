"""Whole-board repetitions: what kind a cycle is, and what it means under each ruleset.

The replay keeps the first stretch of a record's main line that recreates an earlier
board with no pass in between (:mod:`rulelab.read.replay`). The rules texts
(``../shared/docs/rules-texts/``) give such a cycle four meanings:

- ``forbidden``: the Chinese 1988 rules forbid repeating a whole-board position (Art. 6:
  禁止全局同形再现), as AGA's, New Zealand's and Tromp–Taylor's superko do: the repeating
  move is illegal (the ingest's ``superko`` option records it so). Both Chinese presets
  follow Art. 6 — they differ only in komi, and both play positional superko; the essay on
  Chinese counting says a triple ko *may* be judged a draw (三劫连环 ... 可判为和棋), which
  the rules themselves replaced;
- ``no_result``: the Japanese 1989 rules make a triple ko, a round robin (循环劫) or
  eternal life (长生劫) no result by the players' agreement (Art. 12, 无胜负), as the
  traditional rules did (Ing's players' notes, 6: 传统棋规除单劫外，皆判无胜负), which
  Korean rules and stone scoring follow here;
- ``resolved``: Ing's rules end every cycle by their ko rules (Art. 5, 劫分争搅: a
  fighting ko's hot stone needs a move between takes, a disturbing ko is banned once
  round), so the game goes on to a count; so does situational superko a cycle of an
  odd number of moves (:func:`repetition`).

No result decides a game only where the players stopped in the cycle (the
record ends on one of its boards, and not by two passes): the 1989 rules ask for both
players' agreement, and players who broke the cycle, or passed to a count, reached a
result of their own.
"""

from __future__ import annotations

import numpy as np

from rulelab.rules import PRESETS

TRIPLE_KO, ETERNAL_LIFE, ROUND_ROBIN = "triple_ko", "eternal_life", "round_robin"

OUTCOMES = {
    "chinese": "forbidden", "chinese-1988": "forbidden", "japanese": "no_result", "korean": "no_result",
    "ing": "resolved", "aga": "forbidden", "nz": "forbidden", "tromp-taylor": "forbidden",
    "stone-scoring": "no_result",
}
"""The meaning of a whole-board cycle under each preset."""

WINNERS = {"no_result": "void"}
"""The winner a cycle gives, where its meaning decides the game."""


def cycle_kind(taken: np.ndarray, ko_takes: np.ndarray) -> str:
    """The kind of a cycle from its stone moves' captures (``taken``, stones removed by
    each) and whether each took a ko (``ko_takes``): every move a ko take is a triple ko
    (three kos or more, as a cycle of ko takes needs); no ko take and every capture of
    two stones or more is eternal life (长生劫); anything else is a round robin (循环劫),
    such as sending two and returning one (two stones given, one taken back).

    Examples
    --------
    >>> cycle_kind(np.array([1, 1, 1, 1, 1, 1]), np.array([True] * 6))
    'triple_ko'
    >>> cycle_kind(np.array([2, 0, 0, 2]), np.array([False] * 4))
    'eternal_life'
    >>> cycle_kind(np.array([0, 2, 1]), np.array([False] * 3))
    'round_robin'
    """
    if ko_takes.all():
        return TRIPLE_KO
    if not ko_takes.any() and (taken[taken > 0] >= 2).all():
        return ETERNAL_LIFE
    return ROUND_ROBIN


def repetition(ruleset: str, start: int, end: int) -> str | None:
    """What the cycle between moves ``start`` and ``end`` means under the preset named
    ``ruleset`` (None for a ruleset that is not a preset). An odd cycle recreates the
    stones with the other side to move, which situational superko (AGA, NZ) allows:
    there the cycle is broken only on its second round, and counts as ``resolved``.

    Examples
    --------
    >>> repetition("aga", 10, 16), repetition("aga", 10, 13), repetition("tromp-taylor", 10, 13)
    ('forbidden', 'resolved', 'forbidden')
    """
    outcome = OUTCOMES.get(ruleset)
    if outcome == "forbidden" and PRESETS[ruleset].ko == "situational" and (end - start) % 2:
        return "resolved"
    return outcome
