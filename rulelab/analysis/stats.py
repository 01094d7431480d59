"""Small, exact statistics the komi analyses need: Wilson intervals, a bootstrap of
win rates over a komi grid, and a logistic model of the margin fitted to intervals.

Margins before komi are integers, so a game counted at margin ``m`` says the latent
margin lies in ``(m − ½, m + ½]``, and a game resigned at komi ``k`` says it lies on
one side of ``k``. Both are intervals; one likelihood serves counted and censored
games alike (Turnbull's interval-censored model with a logistic distribution).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.optimize import minimize
from scipy.special import expit
from scipy.stats import norm

DEFAULT_LEVEL = 0.95

MIN_SCALE = 0.5
"""Smallest credible scale of the margin's distribution (points). A fit that runs below
it has met data that cannot spread the curve out — one game, or outcomes split
perfectly by komi — and is reported as not converged."""


def _z(level: float) -> float:
    if not 0 < level < 1:
        raise ValueError(f"The confidence 'level' must lie strictly between 0 and 1; got {level!r}.")
    return float(norm.ppf(0.5 + level / 2))


def wilson_interval(successes, trials, level: float = DEFAULT_LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a binomial proportion (NaN where there are no trials).

    ``successes`` may be fractional (a draw counts half a win).

    Examples
    --------
    >>> low, high = wilson_interval(5, 10)
    >>> round(float(low), 4), round(float(high), 4)
    (0.2366, 0.7634)
    """
    x = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    z = _z(level)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = x / n
        denominator = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denominator
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    empty = n <= 0
    return np.where(empty, np.nan, centre - half), np.where(empty, np.nan, centre + half)


def black_points(margins: np.ndarray, komi: np.ndarray) -> np.ndarray:
    """Black's points per game (row) at each komi (column): 1 win, ½ draw, 0 loss."""
    margins = np.asarray(margins, dtype=float)[:, None]
    komi = np.asarray(komi, dtype=float)[None, :]
    return (margins > komi) + 0.5 * (margins == komi)


def black_score_at(margins: np.ndarray, counts: np.ndarray, komi: np.ndarray) -> np.ndarray:
    """Black's points at each komi, summed over margins weighted by ``counts``.

    ``counts`` may be a matrix (one bootstrap replicate per row).
    """
    return np.asarray(counts, dtype=float) @ black_points(margins, komi)


def bootstrap_rates(margins: np.ndarray, counts: np.ndarray, komi: np.ndarray, *, n_boot: int,
                    seed: int, level: float = DEFAULT_LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """Percentile bootstrap interval of Black's win rate at each komi.

    Resampling games with replacement is drawing multinomial counts over the distinct
    margins, so the cost depends on how many margins are distinct, not on games.

    Examples
    --------
    >>> low, high = bootstrap_rates(np.array([-3.0, 9.0]), np.array([40, 60]), np.array([6.5]),
    ...                             n_boot=2000, seed=0)
    >>> bool(low[0] < 0.6 < high[0])
    True
    """
    counts = np.asarray(counts, dtype=np.int64)
    total = int(counts.sum())
    if total == 0 or n_boot <= 0:
        nan = np.full(len(komi), np.nan)
        return nan, nan.copy()
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(total, counts / total, size=n_boot)
    rates = black_score_at(margins, draws, komi) / total
    tail = (1 - level) / 2 * 100
    return np.percentile(rates, tail, axis=0), np.percentile(rates, 100 - tail, axis=0)


@dataclass(frozen=True)
class LogisticFit:
    """A logistic distribution of the margin before komi, fitted to intervals.

    Black's win rate at komi ``k`` is ``1 / (1 + exp((k − location) / scale))``, so
    ``location`` is the fair komi: the komi at which Black wins half the games.
    """

    location: float
    scale: float
    se_location: float
    """Standard error of ``location`` from the observed information."""
    ci_low: float
    ci_high: float
    """Wald interval of ``location`` at the requested level."""
    games: int
    log_likelihood: float
    converged: bool
    """False when the data cannot pin the curve down (all games on one side, a single
    game, or outcomes split perfectly by komi); the numbers are then NaN."""
    slope: float = float("nan")
    """With a covariate: how far the margin moves per unit of it (``location`` is then the
    fair komi at a covariate of 0); NaN without one."""
    se_slope: float = float("nan")

    def win_rate(self, komi) -> np.ndarray:
        """Black's modelled win rate at each komi."""
        return expit((self.location - np.asarray(komi, dtype=float)) / self.scale)


def compress_intervals(lower, upper, weights=None, covariate=None
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Distinct ``(lower, upper, covariate)`` triples with their total weight, sorted (the
    covariate 0 when none is given)."""
    frame = pd.DataFrame({"lower": np.asarray(lower, float), "upper": np.asarray(upper, float),
                          "x": 0.0 if covariate is None else np.asarray(covariate, float),
                          "weight": 1.0 if weights is None else np.asarray(weights, float)})
    grouped = frame.groupby(["lower", "upper", "x"], sort=True)["weight"].sum()
    grouped = grouped[grouped > 0]
    return (grouped.index.get_level_values(0).to_numpy(float),
            grouped.index.get_level_values(1).to_numpy(float),
            grouped.index.get_level_values(2).to_numpy(float), grouped.to_numpy(float))


def fit_logistic(lower, upper, weights=None, *, covariate=None, level: float = DEFAULT_LEVEL,
                 start: tuple[float, ...] | None = None) -> LogisticFit:
    """Maximum-likelihood logistic distribution for interval-censored margins.

    Parameters
    ----------
    lower, upper : array_like
        Each observation's latent margin lies in ``(lower, upper]``; ``±inf`` for a
        side left open (a resignation bounds the margin on one side only).
    weights : array_like, optional
        Count of each observation (defaults to 1).
    covariate : array_like, optional
        A number per observation that shifts its location linearly (e.g. the players'
        rank gap): ``location + slope · covariate``; ``location`` is then the fair komi
        at a covariate of 0.
    level : float
        Level of the Wald interval of the location.
    start : tuple of float, optional
        Starting ``(location, scale[, slope])`` (a bootstrap reuses the full fit).

    Returns
    -------
    LogisticFit

    Examples
    --------
    Margins drawn from a logistic distribution centred on 7 with scale 12, rounded:

    >>> rng = np.random.default_rng(1)
    >>> m = np.round(rng.logistic(7.0, 12.0, size=20000))
    >>> fit = fit_logistic(m - 0.5, m + 0.5)
    >>> round(fit.scale, 1), bool(abs(fit.location - 7) < 0.3), bool(fit.ci_low < 7 < fit.ci_high)
    (12.0, True, True)

    The same with a covariate that moves the centre by −4 points per unit:

    >>> x = rng.integers(-2, 3, size=20000).astype(float)
    >>> m = np.round(rng.logistic(7.0 - 4.0 * x, 12.0))
    >>> fit = fit_logistic(m - 0.5, m + 0.5, covariate=x)
    >>> bool(abs(fit.location - 7) < 0.4), bool(abs(fit.slope + 4) < 0.3)
    (True, True)
    """
    lo, hi, x, w = compress_intervals(lower, upper, weights, covariate)
    games = int(round(w.sum()))
    with_slope = covariate is not None
    if not (np.isfinite(hi).any() and np.isfinite(lo).any()) or (with_slope and (x.size == 0 or x.min() == x.max())):
        return _unfitted(games)
    guess = start if start is not None else (*_start(lo, hi, w), 0.0)
    theta0 = np.array(guess[:3 if with_slope else 2], dtype=float)
    theta0[1] = np.log(theta0[1])
    result = minimize(_negative_log_likelihood, theta0, args=(lo, hi, x, w), jac=True, method="BFGS",
                      options={"gtol": 1e-8, "maxiter": 500})
    location, log_scale = result.x[:2]
    scale = float(np.exp(log_scale))
    gradient_small = np.max(np.abs(result.jac)) < 1e-3 * max(1.0, w.sum())
    if not (gradient_small and MIN_SCALE < scale < 1e3 and abs(location) < 1e3):
        return _unfitted(games)
    try:
        covariance = np.linalg.inv(_hessian(result.x, lo, hi, x, w))
    except np.linalg.LinAlgError:
        covariance = np.full((len(theta0), len(theta0)), np.nan)
    variance = float(covariance[0, 0])
    if not variance > 0:  # a flat likelihood: many curves fit equally well
        return _unfitted(games)
    se = float(np.sqrt(variance))
    z = _z(level)
    slope, se_slope = ((float(result.x[2]), float(np.sqrt(max(covariance[2, 2], 0.0))))
                       if with_slope else (np.nan, np.nan))
    return LogisticFit(float(location), scale, se, float(location - z * se), float(location + z * se),
                       games, float(-result.fun), True, slope, se_slope)


def bootstrap_location(lower, upper, weights=None, *, n_boot: int, seed: int,
                       level: float = DEFAULT_LEVEL, fit: LogisticFit | None = None,
                       covariate=None) -> tuple[float, float]:
    """Percentile bootstrap interval of the fitted location (fair komi).

    Games are resampled with replacement (multinomial counts over the distinct
    intervals) and the model refitted from the full fit; replicates that cannot be
    fitted are dropped. NaNs when the full data cannot be fitted.

    Examples
    --------
    >>> m = np.round(np.random.default_rng(2).logistic(5.0, 10.0, size=3000))
    >>> low, high = bootstrap_location(m - 0.5, m + 0.5, n_boot=50, seed=0)
    >>> bool(low < 5.0 < high)
    True
    """
    lo, hi, x, w = compress_intervals(lower, upper, weights, covariate)
    x = None if covariate is None else x
    fit = fit if fit is not None else fit_logistic(lo, hi, w, covariate=x)
    if not fit.converged or n_boot <= 0:
        return np.nan, np.nan
    total = int(round(w.sum()))
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(total, w / w.sum(), size=n_boot)
    start = (fit.location, fit.scale) + (() if x is None else (fit.slope,))
    locations = np.array([fit_logistic(lo, hi, d, covariate=x, start=start).location for d in draws])
    if np.isnan(locations).all():
        return np.nan, np.nan
    tail = (1 - level) / 2 * 100
    return float(np.nanpercentile(locations, tail)), float(np.nanpercentile(locations, 100 - tail))


def _unfitted(games: int) -> LogisticFit:
    nan = float("nan")
    return LogisticFit(nan, nan, nan, nan, nan, games, nan, False)


def _start(lo: np.ndarray, hi: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    """A start from the counted games when there are any, else from the bounds."""
    both = np.isfinite(lo) & np.isfinite(hi)
    points = (lo[both] + hi[both]) / 2 if both.any() else np.where(np.isfinite(lo), lo, hi)
    weight = w[both] if both.any() else w
    centre = float(np.average(points, weights=weight))
    spread = float(np.sqrt(np.average((points - centre) ** 2, weights=weight)))
    return centre, max(spread * np.sqrt(3) / np.pi, 1.0)


def _negative_log_likelihood(theta, lo, hi, x, w):
    location = theta[0] + (theta[2] * x if len(theta) > 2 else 0.0)
    scale = np.exp(theta[1])
    z_lo, z_hi = (lo - location) / scale, (hi - location) / scale
    in_upper_tail = z_lo > 0
    p = np.where(in_upper_tail, expit(-z_lo) - expit(-z_hi), expit(z_hi) - expit(z_lo))
    p = np.maximum(p, 1e-300)
    f_lo, f_hi = expit(z_lo) * expit(-z_lo), expit(z_hi) * expit(-z_hi)
    zf_lo = np.where(np.isfinite(z_lo), z_lo, 0.0) * f_lo  # z·f(z) → 0 at an open end
    zf_hi = np.where(np.isfinite(z_hi), z_hi, 0.0) * f_hi
    value = -np.sum(w * np.log(p))
    per_location = w * (f_hi - f_lo) / p / scale
    gradient = [np.sum(per_location), np.sum(w * (zf_hi - zf_lo) / p)]
    if len(theta) > 2:
        gradient.append(np.sum(per_location * x))
    return value, np.array(gradient)


def _hessian(theta, lo, hi, x, w, step: float = 1e-5) -> np.ndarray:
    """Central differences of the analytic gradient, symmetrised."""
    size = len(theta)
    hessian = np.empty((size, size))
    for i in range(size):
        shift = np.zeros(size)
        shift[i] = step
        hessian[:, i] = (_negative_log_likelihood(theta + shift, lo, hi, x, w)[1]
                         - _negative_log_likelihood(theta - shift, lo, hi, x, w)[1]) / (2 * step)
    return (hessian + hessian.T) / 2


@dataclass(frozen=True)
class KomiResponse:
    """Black's win rate as a logistic function of the komi in force (and a covariate),
    fitted to who won each decided game.

    ``P(Black wins | komi k, covariate x) = 1 / (1 + exp((k − fair_komi − slope·x) / scale))``.
    Only the winner of a game enters, never its margin: resigning a lost game or playing
    safe when ahead changes a margin, not the winner, so the fit does not follow the komi
    in force the way a fit to margins does. The price: the curve's steepness is learnt
    from how the win rate moves between komi values, so a collection played at one komi
    cannot pin the fair komi to a point.
    """

    fair_komi: float
    """The komi at which Black wins half the games (at a covariate of 0); NaN unless identified."""
    ci_low: float
    ci_high: float
    """With ``identified``, Fieller's interval (the komi values a Wald test of
    ``P = ½`` there does not reject); without, the union of the intervals the data allow
    at every scale up to ``max_scale``."""
    scale: float
    """Points of komi over which Black's odds change by a factor e; NaN unless identified."""
    slope: float
    """Points of Black's advantage per unit of the covariate; NaN without one."""
    slope_se: float
    games: float
    komi_values: int
    """Distinct komi values in force among the games."""
    identified: bool
    """True when the win rate falls with komi by more than sampling error, so that the
    50% crossing has a bounded interval."""
    max_scale: float
    """The widest scale allowed when the data cannot tell it (points)."""
    reference: str = ""
    """With ``groups``: the level whose fair komi this is (the one with the most games)."""


def fit_komi_response(komi, black_points, weights=None, *, covariate=None, groups=None,
                      max_scale: float = 25.0, level: float = DEFAULT_LEVEL) -> KomiResponse:
    """Fit :class:`KomiResponse` (a binomial GLM of Black's points on the komi in force).

    Parameters
    ----------
    komi : array_like
        The komi in force of each game (points).
    black_points : array_like
        Black's result in each game: 1 a win, ½ a draw, 0 a loss.
    weights : array_like, optional
        Games per row (defaults to 1).
    covariate : array_like, optional
        A number per game that moves Black's advantage linearly (e.g. the rank gap).
    groups : array_like, optional
        A label per game (e.g. the era) whose levels may each shift Black's advantage: the
        steepness is then learnt from the komi values within each level, and the fair komi
        is that of the level with the most games.
    max_scale : float
        The widest scale (points) credible for this population: it bounds the interval
        when the data cannot tell the scale (one komi in force, or too little spread).
    level : float
        Confidence level.

    Examples
    --------
    Games at komi 5.5 and 7.5 whose margins are logistic around 7 with scale 8:

    >>> rng = np.random.default_rng(0)
    >>> k = rng.choice([5.5, 7.5], size=40000)
    >>> won = (rng.logistic(7.0, 8.0, size=k.size) > k).astype(float)
    >>> fit = fit_komi_response(k, won)
    >>> fit.identified, bool(abs(fit.fair_komi - 7.0) < 0.5), bool(fit.ci_low < 7.0 < fit.ci_high)
    (True, True, True)

    At one komi only, the fair komi is an interval the data allow, never a point:

    >>> fit = fit_komi_response(np.full(4000, 6.5), (rng.logistic(7.0, 8.0, size=4000) > 6.5).astype(float))
    >>> fit.identified, bool(fit.ci_low < 7.0 < fit.ci_high), bool(np.isnan(fit.fair_komi))
    (False, True, True)
    """
    import statsmodels.api as sm  # the GLM, loaded only when a komi is fitted

    frame = pd.DataFrame({"k": np.asarray(komi, float), "y": np.asarray(black_points, float),
                          "x": 0.0 if covariate is None else np.asarray(covariate, float),
                          "g": "" if groups is None else np.asarray(groups, dtype=object).astype(str),
                          "w": 1.0 if weights is None else np.asarray(weights, float)})
    frame = frame[np.isfinite(frame[["k", "y", "x", "w"]]).all(axis=1) & (frame["w"] > 0)]
    cells = (frame.assign(yw=frame["y"] * frame["w"]).groupby(["k", "x", "g"], sort=True)[["yw", "w"]].sum()
             .reset_index())
    cells["y"] = cells["yw"] / cells["w"]
    games, values = float(cells["w"].sum()), int(cells["k"].nunique())
    with_slope = covariate is not None and cells["x"].nunique() > 1
    levels = cells.groupby("g")["w"].sum().sort_values(ascending=False, kind="stable").index
    shifts = (cells["g"].to_numpy()[:, None] == levels[1:].to_numpy()[None, :]).astype(float)
    z = _z(level)
    nan = float("nan")

    def glm(exog, offset=None):
        model = sm.GLM(cells["y"].to_numpy(float), exog, family=sm.families.Binomial(),
                       freq_weights=cells["w"].to_numpy(float),
                       offset=offset)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # perfect separation and the like: judged below
            return model.fit()

    covariates = np.column_stack([cells[["x"]].to_numpy(float) if with_slope else np.empty((len(cells), 0)),
                                  shifts])
    if games > 0 and values > 1 and 0 < cells["y"].mul(cells["w"]).sum() < games:
        fit = glm(np.column_stack([np.ones(len(cells)), cells["k"], covariates]))
        (a, b), cov = fit.params[:2], fit.cov_params()[:2, :2]
        quadratic = b * b - z * z * cov[1, 1]
        if np.isfinite(quadratic) and quadratic > 0 and b < 0:
            linear, constant = a * b - z * z * cov[0, 1], a * a - z * z * cov[0, 0]
            root = np.sqrt(max(linear * linear - quadratic * constant, 0.0))
            low, high = sorted(((-linear - root) / quadratic, (-linear + root) / quadratic))
            slope, slope_se = _covariate_effect(fit, with_slope)
            return KomiResponse(float(-a / b), float(low), float(high), float(-1 / b), slope, slope_se,
                                games, values, True, max_scale, str(levels[0]) if len(levels) else "")
    low, high = _bounded_interval(cells, covariates, glm, z, max_scale)
    return KomiResponse(nan, low, high, nan, nan, nan, games, values, False, max_scale,
                        str(levels[0]) if len(levels) else "")


def _covariate_effect(fit, with_slope: bool) -> tuple[float, float]:
    """Points per covariate unit (−c/b) and its delta-method standard error."""
    if not with_slope:
        return float("nan"), float("nan")
    b, c = fit.params[1], fit.params[2]
    cov = fit.cov_params()[1:3, 1:3]
    gradient = np.array([c / b ** 2, -1 / b])
    return float(-c / b), float(np.sqrt(max(gradient @ cov @ gradient, 0.0)))


def _bounded_interval(cells: pd.DataFrame, covariates: np.ndarray, glm, z: float,
                      max_scale: float) -> tuple[float, float]:
    """The fair komi values the data allow at some scale up to ``max_scale``: at each
    scale of a grid the Wald interval of the crossing with the slope on komi held there,
    joined. NaNs when no game is decided either way."""
    decided = cells["y"].mul(cells["w"]).sum()
    if cells.empty or decided <= 0 or decided >= cells["w"].sum():
        return float("nan"), float("nan")
    lows, highs = [], []
    for scale in np.geomspace(MIN_SCALE, max_scale, 24):
        fit = glm(np.column_stack([np.ones(len(cells)), covariates]), offset=-cells["k"].to_numpy(float) / scale)
        if not fit.converged:  # separated cells: this scale tells nothing
            continue
        a, se = fit.params[0], np.sqrt(fit.cov_params()[0, 0])
        lows.append(scale * (a - z * se))
        highs.append(scale * (a + z * se))
    return (float(min(lows)), float(max(highs))) if lows else (float("nan"), float("nan"))
