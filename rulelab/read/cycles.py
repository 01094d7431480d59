"""Whole-board repetitions: what kind a cycle is, and what it means under each ruleset.

The replay keeps the first stretch of a record's main line that recreates an earlier
board with no pass in between (:mod:`rulelab.read.replay`). The rules texts
(``../shared/docs/rules-texts/``) give such a cycle four meanings:

- ``draw``: the essay on Chinese counting calls a triple ko (三劫连环) a draw (和棋);
  ``chinese`` reads every cycle so, the essay naming no other;
- ``forbidden``: the Chinese 1988 rules forbid repeating a whole-board position (Art. 6),
  as AGA's, New Zealand's and Tromp–Taylor's superko do: the repeating move is illegal
  (the ingest's ``superko`` option records it so);
- ``no_result``: the Japanese 1989 rules make a triple ko, a round robin (循环劫) or
  eternal life (长生劫) no result by the players' agreement (Art. 12, 无胜负), as the
  traditional rules did (Ing's players' notes, 6: 传统棋规除单劫外，皆判无胜负), which
  Korean rules and stone scoring follow here;
- ``resolved``: Ing's rules end every cycle by their ko rules (Art. 5, 劫分争搅: a
  fighting ko's hot stone needs a move between takes, a disturbing ko is banned once
  round), so the game goes on to a count.
"""

from __future__ import annotations

import numpy as np

TRIPLE_KO, ETERNAL_LIFE, ROUND_ROBIN = "triple_ko", "eternal_life", "round_robin"

OUTCOMES = {
    "chinese": "draw", "chinese-1988": "forbidden", "japanese": "no_result", "korean": "no_result",
    "ing": "resolved", "aga": "forbidden", "nz": "forbidden", "tromp-taylor": "forbidden",
    "stone-scoring": "no_result",
}
"""The meaning of a whole-board cycle under each preset."""

WINNERS = {"draw": "draw", "no_result": "void"}
"""The winner a cycle gives, where its meaning decides the game."""


def cycle_kind(taken: np.ndarray, ko_takes: np.ndarray) -> str:
    """The kind of a cycle from its stone moves' captures (``taken``, stones removed by
    each) and whether each took a ko (``ko_takes``): every move a ko take is a triple ko
    (three kos or more, as a cycle of ko takes needs), no ko take at all is eternal life
    (its captures are of two stones or more), and a mixture is a round robin, such as
    sending two and returning one.

    Examples
    --------
    >>> cycle_kind(np.array([1, 1, 1, 1, 1, 1]), np.array([True] * 6))
    'triple_ko'
    >>> cycle_kind(np.array([2, 0, 0, 2]), np.array([False] * 4))
    'eternal_life'
    >>> cycle_kind(np.array([0, 2, 1]), np.array([False, False, True]))
    'round_robin'
    """
    if ko_takes.all():
        return TRIPLE_KO
    return ETERNAL_LIFE if not ko_takes.any() else ROUND_ROBIN
