"""``df.go``: the analyses as methods of the tables they read.

A thin door to the plain functions: it checks which table it was called on and
passes the frame along, so ``scores.go.divergence(games)`` is
``disagreement_matrix(scores, games)``. Every method returns a new DataFrame.

What it adds: the rows of a record read twice (``duplicate_of`` set) are left out, so no
game counts twice (call the plain functions to keep them); the komi analyses run on the
games the report fits komi to (:meth:`GoAccessor.komi_games`), so ``scores.go.fair_komi(games,
"chinese")`` is the report's figure; and a result that comes back empty says why — a missing ``games`` table raises with the call that
fixes it, any other empty result carries its reason in ``attrs["reason"]`` and a warning.
"""

from __future__ import annotations

import warnings

import pandas as pd

from rulelab.analysis import attribution, divergence, komi
from rulelab.analysis.outcomes import komi_outcomes
from rulelab.analysis.selection import collection_board, komi_population, outliers
from rulelab.analysis.verdict import stored_verdict
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
        return _originals(self._frame)

    def _compared(self, result: pd.DataFrame, games: pd.DataFrame | None, method: str,
                  options: dict) -> pd.DataFrame:
        """``result``, or why it is empty: with no finished position to compare and no
        ``games`` table, the fix is to pass it (its counted games count as settled)."""
        if not result.empty or self._frame.empty:
            return result
        if games is None and options.get("finished_only", True):
            raise InputError(
                f"No position in these scores is finished (records that stop without both "
                f"players passing, such as professional games, never are), so {method}() has "
                f"nothing to compare. Pass the games table, scores.go.{method}(games), to count "
                f"the games the players counted as settled, or finished_only=False to compare "
                f"every game.")
        return _empty_because(result, f"no game of these tables has a verdict that {method}() "
                                      "compares (finished, or counted by the players)")

    def _is_scores(self) -> bool:
        return _SCORES <= set(self._frame.columns)

    def winners(self, games: pd.DataFrame | None = None, **options) -> pd.DataFrame:
        """Who wins each game under each ruleset, on a scores table.

        Returns one row per game (``game_id``) and one column per ruleset, values ``'B'``,
        ``'W'`` or ``'draw'``, each ruleset at the komi it gives the game. With ``games``,
        only the games the analyses compare (settled, outliers out:
        :func:`~rulelab.analysis.divergence.compared_rows`); ``komi_basis='common'``
        re-counts every ruleset at komi 7.5. See :func:`~rulelab.analysis.divergence.winners`.
        """
        scores = self._table("scores")
        if games is not None:
            scores = divergence.compared_rows(scores, _originals(games), **options)
            options = {"finished_only": False}
        return self._compared(divergence.winners(scores, **options), games, "winners", options)

    def divergence(self, games: pd.DataFrame | None = None, **options) -> pd.DataFrame:
        """How often each pair of rulesets names different winners, on a scores table.

        Returns one row per ordered pair (``ruleset_a``, ``ruleset_b``) with ``games``,
        ``disagreements`` and ``rate``, and ``komi_basis`` (``'standard'``: the komi each
        ruleset gives the game; ``'common'``: all at 7.5; ``'user'``: a ``--komi`` run).
        ``by='era'`` (or any stratum, or ``'life_method'``) splits it; ``attrs["dropped"]``
        counts the outliers left out (``keep_outliers=True`` keeps them). See
        :func:`~rulelab.analysis.divergence.disagreement_matrix`.
        """
        games = None if games is None else _originals(games)
        matrix = divergence.disagreement_matrix(self._table("scores"), games, **options)
        return self._compared(matrix if matrix["games"].sum() else matrix.iloc[:0], games,
                              "divergence", options)

    def attribution(self, games: pd.DataFrame | None = None, **options) -> pd.DataFrame:
        """Why two rulesets name different winners, on a scores table.

        Returns one row per game and pair that disagree: the margins, their difference split
        into ``part_<cause>`` columns that add up to it exactly, and ``main_cause`` (the part
        whose removal alone gives ruleset b's winner; ``tie_break``; or ``combined``, with
        ``combined_causes``). ``only_disagreeing=False`` keeps every pair. See
        :func:`~rulelab.analysis.attribution.attribute`.
        """
        games = None if games is None else _originals(games)
        return attribution.attribute(self._table("scores"), games, **options)

    def outcomes(self, games: pd.DataFrame | None = None, ruleset: str | None = None,
                 **options) -> pd.DataFrame:
        """Margin intervals per game (:func:`~rulelab.analysis.outcomes.komi_outcomes`).

        On a scores table pass ``games`` and ``ruleset``; on a games table the records'
        own results are used.
        """
        if self._is_scores():
            if games is None:
                raise InputError("On a scores table, outcomes() needs the games table.")
            return komi_outcomes(games, self._frame, ruleset, **options)
        return komi_outcomes(self._table("games"), **options)

    def komi_games(self, games: pd.DataFrame | None = None, ruleset: str | None = None) -> pd.DataFrame:
        """The outcomes komi is fitted to, as the report selects them
        (:func:`~rulelab.analysis.selection.komi_population`): even games on the collection's
        main board with a stated komi, less rulelab's counts that miss their record by more
        than 10 points. ``attrs["dropped"]`` says how many games each rule left out."""
        outcomes = self.outcomes(games, ruleset)
        if self._is_scores():
            return komi_population(outcomes, outliers(self._table("scores"), _originals(games)),
                                   collection_board(games))
        return komi_population(outcomes, None, collection_board(self._frame))

    def komi_curve(self, games: pd.DataFrame | None = None, ruleset: str | None = None,
                   komi_grid=komi.DEFAULT_KOMI_GRID, **options) -> pd.DataFrame:
        """Black's win rate at each komi of ``komi_grid`` (a draw counts half), from the counted
        games of :meth:`komi_games`, with Wilson and bootstrap intervals; ``by`` splits it by
        a stratum. See :func:`~rulelab.analysis.komi.win_rate_curve`."""
        return _selected(komi.win_rate_curve, self.komi_games(games, ruleset), komi_grid, **options)

    def fair_komi(self, games: pd.DataFrame | None = None, ruleset: str | None = None,
                  **options) -> pd.DataFrame:
        """The komi at which Black wins half the games of :meth:`komi_games` — the figure the
        report gives — fitted with and without the resigned games (as bounds on the margin),
        with its interval (``n_boot`` adds a bootstrap). ``adjust_for='rank_gap'`` fits it at
        a rank gap of 0 with the gap as a covariate (``slope``: points per rank step); ``by``
        splits it by a stratum. See :func:`~rulelab.analysis.komi.fair_komi`."""
        return _selected(komi.fair_komi, self.komi_games(games, ruleset), **options)

    def rekomi(self, from_komi: float, to_komi: float, games: pd.DataFrame | None = None,
               ruleset: str | None = None, **options) -> pd.DataFrame:
        """The games of :meth:`komi_games` played at ``from_komi``, re-counted at ``to_komi``:
        how many counted results flip, and Black's win rate before and after (resigned
        games keep their winner). See :func:`~rulelab.analysis.komi.rekomi_flips`."""
        outcomes = self.komi_games(games, ruleset)
        flips = _selected(komi.rekomi_flips, outcomes, from_komi, to_komi, **options)
        if flips.empty:
            played = ", ".join(f"{k:g}" for k in sorted(outcomes["komi"].dropna().unique())) or "none"
            return _empty_because(flips, f"no game was played at komi {from_komi:g} "
                                         f"(komi in these games: {played})")
        return flips

    def draw(self, game_id: str, life: pd.DataFrame, scores: pd.DataFrame,
             rulesets=("chinese", "japanese"), komi_basis: str = "standard"):
        """A game's final board with its stored verdict and scores on ``komi_basis``
        (:func:`~rulelab.analysis.game_diagram.draw_row`); on the games table, which holds
        the board, with the run's life table (:func:`rulelab.read_life`), which holds the
        verdict, and its scores table (:func:`rulelab.read_scores`), which holds the counts."""
        from rulelab.analysis import game_diagram  # needs matplotlib, so only when drawing

        if "board" not in self._frame.columns:
            raise InputError("draw() needs the games table, which holds the board: "
                             "games.go.draw(game_id, life, scores), or rulelab.draw_game(run, game_id).")
        if not isinstance(life, pd.DataFrame):
            raise InputError("draw() needs the run's life table, which holds the verdict: "
                             f"games.go.draw(game_id, rulelab.read_life(run), rulelab.read_scores(run)); "
                             f"got {type(life).__name__}.")
        rows = self._frame[self._frame["game_id"] == game_id]
        if rows.empty:
            raise InputError(f"No game {game_id!r} in this table.")
        return game_diagram.draw_row(rows.iloc[0].to_dict(), stored_verdict(life, game_id), scores, rulesets,
                                     komi_basis)

    def margin_distribution(self, games: pd.DataFrame, ruleset: str) -> pd.DataFrame:
        """How many counted games end at each margin before komi under ``ruleset``, with the
        margin's parity (area margins on an odd board are odd once every point is someone's).
        See :func:`~rulelab.analysis.komi.margin_distribution`."""
        return komi.margin_distribution(komi_outcomes(games, self._table("scores"), ruleset))


def _selected(analysis, outcomes: pd.DataFrame, *args, **options) -> pd.DataFrame:
    """``analysis`` of a selection, carrying what the selection left out in ``attrs``."""
    result = analysis(outcomes, *args, **options)
    result.attrs = dict(outcomes.attrs)
    return result


def _originals(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` without the rows of records read a second time."""
    if "duplicate_of" not in frame.columns:
        return frame
    return frame[frame["duplicate_of"].isna()]


def _empty_because(result: pd.DataFrame, reason: str) -> pd.DataFrame:
    """An empty ``result`` that says why, in ``attrs["reason"]`` and as a warning."""
    result = result.copy()
    result.attrs["reason"] = reason
    warnings.warn(f"empty result: {reason}", stacklevel=3)
    return result
