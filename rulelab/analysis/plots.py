"""Figures of the analyses, readable without the surrounding text.

Figures are built on :class:`matplotlib.figure.Figure` directly (no pyplot, no
global backend switch) and saved by :func:`save_figure` with fixed metadata, so the
same data always give the same PNG bytes.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from rulelab.analysis.inputs import require_columns
from rulelab.analysis.stats import wilson_interval

STYLE = {"svg.hashsalt": "rulelab", "font.size": 9, "axes.titlesize": 10,
         "figure.dpi": 100, "savefig.dpi": 100, "path.simplify": False}
"""Matplotlib settings every figure is drawn and saved with."""

PARITY_COLOURS = {"odd": "#1f77b4", "even": "#ff7f0e", "fractional": "#7f7f7f"}

def new_figure(width: float, height: float) -> Figure:
    """A figure with the project's style and a constrained layout."""
    with matplotlib.rc_context(STYLE):
        return Figure(figsize=(width, height), layout="constrained")


def save_figure(figure: Figure, path: str | Path) -> Path:
    """Save a PNG whose bytes depend only on the figure (no software tag, no date)."""
    path = Path(path)
    with matplotlib.rc_context(STYLE):
        figure.savefig(path, format="png", metadata={"Software": None})
    return path


def plot_disagreement(matrix: pd.DataFrame, *, title: str) -> Figure:
    """Dot-and-interval chart of a single-stratum
    :func:`~rulelab.analysis.divergence.disagreement_matrix`: for each pair of rulesets, the
    share of games on which they name different winners with its Wilson 95% interval and
    its count, the pairs that disagree most at the top."""
    require_columns(matrix, ["ruleset_a", "ruleset_b", "games", "disagreements", "rate"], "matrix")
    order = {name: k for k, name in enumerate(dict.fromkeys(matrix["ruleset_a"]))}
    pairs = matrix[matrix["ruleset_a"].map(order) < matrix["ruleset_b"].map(order)]
    pairs = pairs[pairs["games"] > 0].sort_values(["rate", "ruleset_a", "ruleset_b"],
                                                  ascending=[False, True, True], kind="stable")
    low, high = wilson_interval(pairs["disagreements"].to_numpy(float), pairs["games"].to_numpy(float))
    rate = pairs["rate"].to_numpy(float) * 100
    figure = new_figure(8.0, 1.2 + 0.27 * max(1, len(pairs)))
    ax = figure.add_subplot()
    y = np.arange(len(pairs))
    error = np.clip(np.vstack([rate - low * 100, high * 100 - rate]), 0, None)
    ax.errorbar(rate, y, xerr=error, fmt="o", color="#b2182b", markersize=4, capsize=2, linewidth=1)
    ax.set_yticks(y, [f"{a} vs {b}  ({int(k):,} of {int(n):,})" for a, b, k, n in
                      zip(pairs["ruleset_a"], pairs["ruleset_b"], pairs["disagreements"], pairs["games"])],
                  fontsize=9)
    ax.invert_yaxis()
    ax.set_xlim(0, max(5.0, float(np.max(high * 100, initial=0)) * 1.08))
    ax.grid(axis="x", color="#dddddd", linewidth=0.6)
    ax.set_xlabel("% of the games scored under both with different winners (bars: Wilson 95%)", fontsize=9)
    ax.set_title(title, fontsize=10)
    return figure


def plot_margin_distribution(distribution: pd.DataFrame, *, title: str,
                             komi: dict[str, float] | None = None) -> Figure:
    """Bars of counted games per margin before komi, one panel per ruleset, coloured
    by parity; a dashed line at each ruleset's komi when ``komi`` is given."""
    require_columns(distribution, ["ruleset", "scoring", "margin_before_komi", "games", "parity"],
                    "distribution")
    panels = list(dict.fromkeys(distribution.sort_values(["scoring", "ruleset"])["ruleset"]))
    figure = new_figure(8.0, 1.9 * max(1, len(panels)) + 0.6)
    axes = figure.subplots(max(1, len(panels)), 1, sharex=True, squeeze=False)[:, 0]
    for ax, name in zip(axes, panels):
        rows = distribution[distribution["ruleset"] == name]
        for parity, colour in PARITY_COLOURS.items():
            part = rows[rows["parity"] == parity]
            if not part.empty:
                ax.bar(part["margin_before_komi"], part["games"], width=0.9, color=colour,
                       label=f"{parity} margins (n={int(part['games'].sum()):,} games)")
        if komi and name in komi:
            ax.axvline(komi[name], color="black", linestyle="--", linewidth=1,
                       label=f"standard komi {komi[name]:g}")
        ax.set_ylabel("games")
        ax.set_title(f"{name} ({rows['scoring'].iloc[0]} scoring)", loc="left")
        ax.legend(loc="upper right", fontsize=7)
    axes[-1].set_xlabel("margin before komi (points, Black − White)")
    figure.suptitle(title)
    return figure


def plot_komi_curves(curve: pd.DataFrame, fits: pd.DataFrame | None = None,
                     in_force: pd.DataFrame | None = None, *, title: str) -> Figure:
    """Black's win rate against komi per ruleset: the re-komi curve (dots, Wilson bars, a
    bootstrap band), the win rate at each komi in force (squares, from
    :func:`~rulelab.analysis.komi.win_rate_by_komi`), and the fair komi: the fitted curve
    with its 50% crossing where identified, else the range the data allow drawn at 50%."""
    require_columns(curve, ["ruleset", "komi", "games", "rate", "wilson_low", "wilson_high",
                            "boot_low", "boot_high"], "curve")
    figure = new_figure(8.0, 6.0)
    ax = figure.add_subplot()
    colours = matplotlib.colormaps["tab10"]
    for k, (name, rows) in enumerate(curve.groupby("ruleset", sort=True)):
        colour = colours(k % 10)
        x = rows["komi"].to_numpy(float)
        label = f"{name} (n={int(rows['games'].iloc[0]):,} decided games)"
        fit = _fit_row(fits, name)
        if fit is not None and fit["identified"]:
            label += f"; fair komi {fit['fair_komi']:.1f} [{fit['ci_low']:.1f}, {fit['ci_high']:.1f}]"
            grid = np.linspace(x.min(), x.max(), 200)
            ax.plot(grid, 100 / (1 + np.exp((grid - fit["fair_komi"]) / fit["scale"])),
                    color=colour, linewidth=1)
            ax.plot([fit["fair_komi"]], [50], marker="D", color=colour, markersize=5)
        elif fit is not None:
            label += f"; fair komi not identified, {fit['ci_low']:.1f} to {fit['ci_high']:.1f} allowed"
            ax.plot([fit["ci_low"], fit["ci_high"]], [50 + 1.5 * (k - 1)] * 2, color=colour, linewidth=4,
                    alpha=0.5, solid_capstyle="butt")
        _rates_with_bars(ax, rows, "o", colour, label)
        if rows["boot_low"].notna().any():
            ax.fill_between(x, rows["boot_low"] * 100, rows["boot_high"] * 100, color=colour,
                            alpha=0.15, linewidth=0)
        if in_force is not None:
            played = in_force[(in_force["ruleset"] == name) & (in_force["games"] >= 10)]
            _rates_with_bars(ax, played, "s", colour, None)
    ax.axhline(50, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xlabel("komi (points)")
    ax.set_ylabel("Black's win rate (%)")
    low, high = ax.get_ylim()
    ax.set_ylim(max(0, min(low, 40) - 5), min(100, max(high, 60) + 5))
    ax.set_title(title)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=1, frameon=False,
              title="dots: every decided game re-counted at that komi (bars: Wilson 95%, band: bootstrap 95%)\n"
                    "squares: the games played at that komi (10 or more)\n"
                    "line and ◆: the fit to winners at the komi in force; a bar at 50%: the fair komi "
                    "values the data allow", title_fontsize=7)
    return figure


def _rates_with_bars(ax, rows: pd.DataFrame, marker: str, colour, label: str | None) -> None:
    """Black's win rates of ``rows`` (``komi``, ``rate``, ``wilson_*``) with Wilson bars."""
    rate = rows["rate"].to_numpy(float) * 100
    # clipped: at a rate of 0 or 1 the Wilson bound lands a rounding error past it
    error = np.clip(np.vstack([rate - rows["wilson_low"].to_numpy(float) * 100,
                               rows["wilson_high"].to_numpy(float) * 100 - rate]), 0, None)
    ax.errorbar(rows["komi"].to_numpy(float), rate, yerr=error, fmt=marker, markersize=3 if marker == "o" else 6,
                capsize=2, color=colour, linestyle="none", label=label,
                markerfacecolor="none" if marker == "s" else colour)


def plot_fair_komi(table: pd.DataFrame, by: str, *, title: str) -> Figure:
    """Fair komi per stratum: a point and its interval where identified, the interval the
    data allow (hollow) where not."""
    require_columns(table, [by, "games", "identified", "fair_komi", "ci_low", "ci_high"], "fair komi")
    labels = list(dict.fromkeys(table[by].astype(str)))
    figure = new_figure(7.0, 1.2 + 0.45 * max(1, len(labels)))
    ax = figure.add_subplot()
    y = np.array([labels.index(str(v)) for v in table[by]], dtype=float)
    identified = table["identified"].astype(bool).to_numpy()
    low, high = table["ci_low"].to_numpy(float), table["ci_high"].to_numpy(float)
    ax.hlines(y[~identified], low[~identified], high[~identified], color="grey", linewidth=3, alpha=0.5,
              label="not identified: the interval the data allow")
    centre = table["fair_komi"].to_numpy(float)[identified]
    ax.errorbar(centre, y[identified], xerr=np.vstack([centre - low[identified], high[identified] - centre]),
                fmt="o", color="tab:blue", capsize=2, markersize=4, label="fair komi, 95% interval")
    counts = table.set_index(table[by].astype(str))["games"]
    ax.set_yticks(range(len(labels)), [f"{v} (n={int(counts.get(v, 0)):,})" for v in labels])
    ax.invert_yaxis()
    ax.set_xlabel("fair komi (points)")
    ax.set_ylabel(by.replace("_", " "))
    ax.set_title(title)
    ax.legend(fontsize=7)
    return figure


def _fit_row(fits: pd.DataFrame | None, ruleset: str) -> pd.Series | None:
    if fits is None or fits.empty:
        return None
    rows = fits[(fits["ruleset"] == ruleset) & fits["ci_low"].notna()]
    return None if rows.empty else rows.iloc[0]
