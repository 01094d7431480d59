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
from rulelab.analysis.outcomes import CENSORED_KINDS, komi_outcomes
from rulelab.analysis.stats import DEFAULT_LEVEL
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

    def winners(self, games: pd.DataFrame | None = None, *, finished_only: bool = True,
                komi_basis: str = "standard", keep_outliers: bool = False) -> pd.DataFrame:
        """Who wins each game under each ruleset, on a scores table.

        Returns one row per game (``game_id``) and one column per ruleset, values ``'B'``,
        ``'W'`` or ``'draw'``, each ruleset at the komi it gives the game. With ``games``,
        only the games the analyses compare (settled, outliers out:
        :func:`~rulelab.analysis.divergence.compared_rows`); ``komi_basis='common'``
        re-counts every ruleset at komi 7.5. See :func:`~rulelab.analysis.divergence.winners`.
        """
        scores = self._table("scores")
        if games is not None:
            scores = divergence.compared_rows(scores, _originals(games), finished_only=finished_only,
                                              komi_basis=komi_basis, keep_outliers=keep_outliers)
            finished_only = False
        return self._compared(divergence.winners(scores, finished_only=finished_only), games, "winners",
                              {"finished_only": finished_only})

    def divergence(self, games: pd.DataFrame | None = None, *, by: str | None = None,
                   finished_only: bool = True, komi_basis: str = "standard",
                   keep_outliers: bool = False) -> pd.DataFrame:
        """How often each pair of rulesets names different winners, on a scores table.

        Returns one row per ordered pair (``ruleset_a``, ``ruleset_b``) with ``games``,
        ``disagreements`` and ``rate``, and ``komi_basis`` (``'standard'``: the komi each
        ruleset gives the game; ``'common'``: all at 7.5; ``'user'``: a ``--komi`` run).
        ``by='era'`` (or any stratum, or ``'life_method'``) splits it; ``attrs["dropped"]``
        counts the outliers left out (``keep_outliers=True`` keeps them). See
        :func:`~rulelab.analysis.divergence.disagreement_matrix`.
        """
        games = None if games is None else _originals(games)
        options = dict(finished_only=finished_only, komi_basis=komi_basis, keep_outliers=keep_outliers)
        matrix = divergence.disagreement_matrix(self._table("scores"), games, by=by, **options)
        return self._compared(matrix if matrix["games"].sum() else matrix.iloc[:0], games,
                              "divergence", options)

    def attribution(self, games: pd.DataFrame | None = None, *, only_disagreeing: bool = True,
                    finished_only: bool = True, komi_basis: str = "standard",
                    keep_outliers: bool = False) -> pd.DataFrame:
        """Why two rulesets name different winners, on a scores table.

        Returns one row per game and pair that disagree: the margins, their difference split
        into ``part_<cause>`` columns that add up to it exactly, and ``main_cause`` (the part
        whose removal alone gives ruleset b's winner; ``tie_break``; or ``combined``, with
        ``combined_causes``). ``only_disagreeing=False`` keeps every pair. See
        :func:`~rulelab.analysis.attribution.attribute`.
        """
        games = None if games is None else _originals(games)
        return attribution.attribute(self._table("scores"), games, only_disagreeing=only_disagreeing,
                                     finished_only=finished_only, komi_basis=komi_basis,
                                     keep_outliers=keep_outliers)

    def outcomes(self, games: pd.DataFrame | None = None, ruleset: str | None = None, *,
                 censored_kinds=CENSORED_KINDS) -> pd.DataFrame:
        """Margin intervals per game (:func:`~rulelab.analysis.outcomes.komi_outcomes`).

        On a scores table pass ``games`` and ``ruleset``; on a games table the records'
        own results are used.
        """
        if self._is_scores():
            if games is None:
                raise InputError("On a scores table, outcomes() needs the games table.")
            return komi_outcomes(games, self._frame, ruleset, censored_kinds=censored_kinds)
        return komi_outcomes(self._table("games"), censored_kinds=censored_kinds)

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
                   komi_grid=komi.DEFAULT_KOMI_GRID, *, by: str | None = None, include_time: bool = True,
                   n_boot: int = 1000, seed: int = 0, level: float = DEFAULT_LEVEL) -> pd.DataFrame:
        """The re-komi curve: Black's win rate at each komi of ``komi_grid`` over every decided
        game of :meth:`komi_games` (counted games re-counted there, resigned and timed-out ones
        keeping their winner), with Wilson and bootstrap intervals; ``by`` splits it by a
        stratum. See :func:`~rulelab.analysis.komi.win_rate_curve`."""
        return _selected(komi.win_rate_curve, self.komi_games(games, ruleset), komi_grid, by=by,
                         include_time=include_time, n_boot=n_boot, seed=seed, level=level)

    def win_rates(self, games: pd.DataFrame | None = None, ruleset: str | None = None, *,
                  by: str | None = None, include_time: bool = True, level: float = DEFAULT_LEVEL) -> pd.DataFrame:
        """Black's win rate at each komi in force over the decided games of :meth:`komi_games`,
        model-free (Wilson intervals): what the fair komi is fitted to. See
        :func:`~rulelab.analysis.komi.win_rate_by_komi`."""
        return _selected(komi.win_rate_by_komi, self.komi_games(games, ruleset), by=by,
                         include_time=include_time, level=level)

    def fair_komi(self, games: pd.DataFrame | None = None, ruleset: str | None = None, *,
                  by: str | None = None, adjust_for: str | None = "auto", within: str | None = None,
                  include_time: bool = True, max_scale: float | None = None,
                  level: float = DEFAULT_LEVEL) -> pd.DataFrame:
        """The komi at which Black wins half the games between equal players of :meth:`komi_games`
        — the report's figure — from who won each decided game across the komi in force, with
        its interval; prints as one line per ruleset. ``adjust_for='auto'`` takes it at a rank
        gap of 0 where most games record both ranks, as the report does
        (:func:`~rulelab.analysis.komi.headline_fair_komi`); ``None`` or a column name choose.
        ``within='era'`` learns the curve from the komi variation inside each era only.
        Where one komi was in force it is not identified and the interval is the range the
        data allow. See :func:`~rulelab.analysis.komi.fair_komi`."""
        options = dict(by=by, within=within, include_time=include_time, max_scale=max_scale, level=level)
        outcomes = self.komi_games(games, ruleset)
        if adjust_for == "auto":
            return _selected(komi.headline_fair_komi, outcomes, **options)
        return _selected(komi.fair_komi, outcomes, adjust_for=adjust_for, **options)

    def komi_sensitivity(self, games: pd.DataFrame | None = None, ruleset: str | None = None, *,
                         level: float = DEFAULT_LEVEL) -> pd.DataFrame:
        """The fair komi under each choice of games it rests on (time losses, rank gaps, counted
        games only, the previous margin fit), as the report's sensitivity table. See
        :func:`~rulelab.analysis.komi.fair_komi_sensitivity`."""
        return _selected(komi.fair_komi_sensitivity, self.komi_games(games, ruleset), level=level)

    def rekomi(self, from_komi: float, to_komi: float, games: pd.DataFrame | None = None,
               ruleset: str | None = None, *, by: str | None = None) -> pd.DataFrame:
        """The games of :meth:`komi_games` played at ``from_komi``, re-counted at ``to_komi``:
        how many counted results flip, and Black's win rate before and after (resigned
        games keep their winner). See :func:`~rulelab.analysis.komi.rekomi_flips`."""
        outcomes = self.komi_games(games, ruleset)
        flips = _selected(komi.rekomi_flips, outcomes, from_komi, to_komi, by=by)
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
