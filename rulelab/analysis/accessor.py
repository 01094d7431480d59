"""``df.go``: the analyses as methods of the tables they read.

A thin door to the plain functions: it checks which table it was called on and
passes the frame along, so ``scores.go.divergence(games)`` is
``disagreement_matrix(scores, games)``. Every method returns a new DataFrame.
"""

from __future__ import annotations

import pandas as pd

from rulelab.analysis import attribution, divergence, komi
from rulelab.errors import InputError

_SCORES = {"game_id", "ruleset", "komi_source", "margin_before_komi", "winner"}
_GAMES = {"game_id", "status", "result_kind", "komi"}


@pd.api.extensions.register_dataframe_accessor("go")
class GoAccessor:
    """Analyses of a rulelab ``scores`` or ``games`` table.

    Examples
    --------
    >>> import rulelab.analysis  # registers the accessor
    >>> scores = pd.DataFrame({"game_id": ["g1", "g1"], "ruleset": ["chinese", "japanese"],
    ...     "komi_source": "standard", "scoring": ["area", "territory"],
    ...     "margin_before_komi": [7.0, 7.0], "winner": ["W", "B"]})
    >>> scores.go.winners()
    ruleset chinese japanese
    game_id
    g1            W        B
    >>> scores.go.divergence().query("ruleset_a == 'chinese' and ruleset_b == 'japanese'")
      komi_basis ruleset_a ruleset_b  games  disagreements  rate
    1   standard   chinese  japanese      1              1   1.0
    """

    def __init__(self, frame: pd.DataFrame):
        self._frame = frame

    def _table(self, kind: str) -> pd.DataFrame:
        needed = _SCORES if kind == "scores" else _GAMES
        missing = sorted(needed - set(self._frame.columns))
        if missing:
            raise InputError(f"df.go needs a {kind} table here; this frame lacks {', '.join(missing)}.")
        return self._frame

    def _is_scores(self) -> bool:
        return _SCORES <= set(self._frame.columns)

    def winners(self, **options) -> pd.DataFrame:
        """Winner per game and ruleset: :func:`~rulelab.analysis.divergence.winners`."""
        return divergence.winners(self._table("scores"), **options)

    def divergence(self, games: pd.DataFrame | None = None, **options) -> pd.DataFrame:
        """Disagreement matrix: :func:`~rulelab.analysis.divergence.disagreement_matrix`."""
        return divergence.disagreement_matrix(self._table("scores"), games, **options)

    def attribution(self, games: pd.DataFrame | None = None, **options) -> pd.DataFrame:
        """Causes of each disagreement: :func:`~rulelab.analysis.attribution.attribute`."""
        return attribution.attribute(self._table("scores"), games, **options)

    def outcomes(self, games: pd.DataFrame | None = None, ruleset: str | None = None,
                 **options) -> pd.DataFrame:
        """Margin intervals per game (:func:`~rulelab.analysis.komi.komi_outcomes`).

        On a scores table pass ``games`` and ``ruleset``; on a games table the records'
        own results are used.
        """
        if self._is_scores():
            if games is None:
                raise InputError("On a scores table, outcomes() needs the games table.")
            return komi.komi_outcomes(games, self._frame, ruleset, **options)
        return komi.komi_outcomes(self._table("games"), **options)

    def komi_curve(self, games: pd.DataFrame | None = None, ruleset: str | None = None,
                   komi_grid=komi.DEFAULT_KOMI_GRID, **options) -> pd.DataFrame:
        """Black's win rate over a komi grid (:func:`~rulelab.analysis.komi.win_rate_curve`)."""
        return komi.win_rate_curve(self.outcomes(games, ruleset), komi_grid, **options)

    def fair_komi(self, games: pd.DataFrame | None = None, ruleset: str | None = None,
                  **options) -> pd.DataFrame:
        """Fair komi with and without censored games (:func:`~rulelab.analysis.komi.fair_komi`)."""
        return komi.fair_komi(self.outcomes(games, ruleset), **options)

    def rekomi(self, from_komi: float, to_komi: float, games: pd.DataFrame | None = None,
               ruleset: str | None = None, **options) -> pd.DataFrame:
        """Results that flip between two komi (:func:`~rulelab.analysis.komi.rekomi_flips`)."""
        return komi.rekomi_flips(self.outcomes(games, ruleset), from_komi, to_komi, **options)

    def margin_distribution(self, games: pd.DataFrame, ruleset: str) -> pd.DataFrame:
        """Counted games per margin (:func:`~rulelab.analysis.komi.margin_distribution`)."""
        return komi.margin_distribution(komi.komi_outcomes(games, self._table("scores"), ruleset))
