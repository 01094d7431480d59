"""Board diagrams of real games, with the points where two rulesets count differently.

The diagram code reads boards as int8 arrays (0 empty, 1 black, 2 white; row 0 at
the top) and takes dead-stone and seki masks as arguments, so it draws whatever the
tables provide.
"""

from __future__ import annotations

import numpy as np
from matplotlib.collections import LineCollection, PatchCollection
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, Rectangle
from scipy import ndimage

from rulelab.classes import OPEN_DAME, OWED_B, OWED_W, SEKI_POINT_B, SEKI_POINT_W
from rulelab.analysis.fonts import font_family, legible
from rulelab.analysis.plots import new_figure
from rulelab.errors import InputError
from rulelab.position import BLACK, EMPTY, WHITE

COLUMN_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
"""Board column names (no I, as on printed boards); past the 25th, two letters (``AA``)."""
BOARD_INCHES = 6.2
"""Width of a board's figure up to 25 lines; a larger board gets :data:`LINE_INCHES` a line."""
LINE_INCHES = 0.2
"""Room for one line of a board past 25 lines, so that two-letter labels stay apart."""

_CROSS = ndimage.generate_binary_structure(2, 1)


def _check_board(board: np.ndarray) -> np.ndarray:
    board = np.asarray(board)
    if board.ndim != 2 or not np.isin(board, (EMPTY, BLACK, WHITE)).all():
        raise InputError(f"A board must be a 2-D array of 0, 1 and 2; got shape {board.shape}.")
    return board


def _regions(board: np.ndarray) -> tuple[np.ndarray, int]:
    """Label the empty regions (4-connected); 0 marks stones."""
    return ndimage.label(board == EMPTY, structure=_CROSS)


def _touching(labels: np.ndarray, count: int, stones: np.ndarray) -> np.ndarray:
    """Per region label, whether any stone in the ``stones`` mask is next to it."""
    flags = np.zeros(count + 1, dtype=bool)
    rows, cols = labels.shape
    for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        neighbour = np.zeros_like(labels)  # neighbour[p] = labels[p - (dr, dc)]
        neighbour[max(dr, 0):rows + min(dr, 0), max(dc, 0):cols + min(dc, 0)] = \
            labels[max(-dr, 0):rows + min(-dr, 0), max(-dc, 0):cols + min(-dc, 0)]
        flags[neighbour[stones]] = True
    flags[0] = False
    return flags


def neutral_points(board: np.ndarray, dead: np.ndarray | None = None) -> np.ndarray:
    """Empty points (after removing ``dead`` stones) whose region touches both colours:
    the dame that area scoring counts once filled and territory scoring never counts.

    Examples
    --------
    >>> from rulelab.position import board_from_diagram
    >>> board = board_from_diagram('''
    ... X . O
    ... X . O
    ... X X O''')
    >>> neutral_points(board).astype(int)
    array([[0, 1, 0],
           [0, 1, 0],
           [0, 0, 0]])
    """
    board = _check_board(board).copy()
    if dead is not None:
        board[_mask(dead, board.shape, "dead")] = EMPTY
    labels, count = _regions(board)
    both = _touching(labels, count, board == BLACK) & _touching(labels, count, board == WHITE)
    return both[labels]


CLASSES_BEHIND = {
    "dame_filling": (OPEN_DAME,),
    "seki_eyes": (SEKI_POINT_B, SEKI_POINT_W),
    "protective_moves": (OWED_B, OWED_W),
}
"""Point classes of :func:`rulelab.scoring.classify_points` behind each cause that is about points."""


def verdict_text(winner: str, margin: float) -> str:
    """A verdict as a title shows it: ``B+3.5``, ``draw``, or a tie the tie rule gave.

    Examples
    --------
    >>> verdict_text("W", -0.5), verdict_text("draw", 0.0), verdict_text("B", 0.0)
    ('W+0.5', 'draw', 'B on a margin of 0 (tie rule)')
    """
    if winner == "draw":
        return "draw"
    return f"{winner} on a margin of 0 (tie rule)" if margin == 0 else f"{winner}+{abs(margin):g}"


MARK_LABELS = {"dame_filling": "open dame", "seki_eyes": "seki eyes", "protective_moves": "points owed",
               "dead_stones": "dead stones"}
"""The legend of the points :func:`points_that_differ` marks, for the causes that are about points."""


def mark_label(cause: str) -> str:
    """The legend of the points behind ``cause``; a cause not about points of the board marks none."""
    return MARK_LABELS.get(cause, "points counted differently")


def points_that_differ(board: np.ndarray, cause: str, *, dead: np.ndarray | None = None,
                       classes: np.ndarray | None = None) -> np.ndarray:
    """The points behind ``cause`` (see :data:`~rulelab.analysis.attribution.CAUSES`).

    With ``classes`` (the scorer's point classes the run stored, :mod:`rulelab.store.life`)
    dame, seki eyes and owed points are exactly those the scorer counted. Without them,
    only the dame for ``dame_filling``. Dead stones for ``dead_stones`` need ``dead``;
    causes that are not about points of the board (komi, handicap, stones placed, tax)
    mark nothing.
    """
    board = _check_board(board)
    if classes is not None and cause in CLASSES_BEHIND:
        return np.isin(classes, CLASSES_BEHIND[cause]) & (board == EMPTY)
    if cause == "dame_filling":
        return neutral_points(board, dead)
    if cause == "dead_stones" and dead is not None:
        return _mask(dead, board.shape, "dead").copy()
    return np.zeros(board.shape, dtype=bool)


def draw_board(board: np.ndarray, *, title: str, marks: np.ndarray | None = None,
               mark_label: str = "points counted differently", dead: np.ndarray | None = None,
               seki: np.ndarray | None = None):
    """Draw a final position; squares on ``marks``, crosses on ``dead``, dots on ``seki``.

    Parameters
    ----------
    board : numpy.ndarray
        int8 ``(rows, cols)``, 0 empty, 1 black, 2 white; row 0 is the top edge.
    title : str
        Figure title (game, rulesets, verdicts).
    marks, dead, seki : numpy.ndarray, optional
        Boolean masks of the board's shape.
    mark_label : str
        Legend text for ``marks`` (no entry when nothing is marked).

    Returns
    -------
    matplotlib.figure.Figure
    """
    board = _check_board(board)
    rows, cols = board.shape
    masks = {name: _mask(mask, board.shape, name) for name, mask in
             (("marks", marks), ("dead", dead), ("seki", seki))}
    side = max(BOARD_INCHES, LINE_INCHES * max(rows, cols))
    figure = new_figure(side, max(side * min(1.0, rows / cols), 2.0) + 0.4)  # a wide board, a low figure
    ax = figure.add_subplot()
    ax.set_facecolor("#dcb35c")
    grid = [[(0, r), (cols - 1, r)] for r in range(rows)] + [[(c, 0), (c, rows - 1)] for c in range(cols)]
    ax.add_collection(LineCollection(grid, colors="black", linewidths=0.6))
    ax.add_collection(PatchCollection([Circle((c, r), 0.1) for r, c in _star_points(rows, cols)],
                                      facecolors="black", edgecolors="none"))
    stone_rows, stone_cols = np.nonzero(board != EMPTY)
    black = board[stone_rows, stone_cols] == BLACK
    faded = masks["dead"][stone_rows, stone_cols]
    faces = np.where(black[:, None], (0.07, 0.07, 0.07, 1.0), (0.96, 0.96, 0.96, 1.0))
    faces[faded, 3] = 0.45
    ax.add_collection(PatchCollection([Circle((c, r), 0.46) for r, c in zip(stone_rows, stone_cols)],
                                      facecolors=faces, edgecolors="black", linewidths=0.6))
    dead_rows, dead_cols = np.nonzero(masks["dead"] & (board != EMPTY))
    crosses = [[(c - 0.25, r - 0.25), (c + 0.25, r + 0.25)] for r, c in zip(dead_rows, dead_cols)]
    crosses += [[(c - 0.25, r + 0.25), (c + 0.25, r - 0.25)] for r, c in zip(dead_rows, dead_cols)]
    ax.add_collection(LineCollection(crosses, colors="red", linewidths=1.2))
    seki_rows, seki_cols = np.nonzero(masks["seki"] & (board != EMPTY))
    dots = np.where((board[seki_rows, seki_cols] == BLACK)[:, None], (1.0, 1.0, 1.0, 1.0), (0.0, 0.0, 0.0, 1.0))
    ax.add_collection(PatchCollection([Circle((c, r), 0.12) for r, c in zip(seki_rows, seki_cols)],
                                      facecolors=dots, edgecolors="none"))
    mark_rows, mark_cols = np.nonzero(masks["marks"])
    ax.add_collection(PatchCollection([Rectangle((c - 0.3, r - 0.3), 0.6, 0.6) for r, c in zip(mark_rows, mark_cols)],
                                      facecolors="none", edgecolors="#d62728", linewidths=1.6))
    ax.set_xlim(-0.8, cols - 0.2)
    ax.set_ylim(rows - 0.2, -0.8)
    ax.set_aspect("equal")
    ax.set_xticks(range(cols), [column_label(c) for c in range(cols)])
    ax.set_yticks(range(rows), [str(rows - r) for r in range(rows)])
    ax.tick_params(length=0, labelsize=7, top=True, labeltop=True, right=True, labelright=True)
    for side in ax.spines.values():
        side.set_visible(False)
    legend = [Line2D([], [], marker="s", markerfacecolor="none", markeredgecolor="#d62728", linestyle="none",
                     label=f"{mark_label} ({int(masks['marks'].sum())})")] if masks["marks"].any() else []
    if masks["dead"].any():
        legend.append(Line2D([], [], marker="x", color="red", linestyle="none",
                             label=f"dead stones ({int(masks['dead'].sum())})"))
    if masks["seki"].any():
        legend.append(Line2D([], [], marker="o", color="grey", markersize=4, linestyle="none",
                             label=f"stones in seki ({int(masks['seki'].sum())})"))
    if legend:
        ax.legend(handles=legend, loc="upper center", bbox_to_anchor=(0.5, -0.04), ncol=3, fontsize=7,
                  frameon=False)
    ax.set_title(legible(title), fontsize=9, fontfamily=font_family())
    return figure


def column_label(col: int) -> str:
    """The printed name of column ``col``: ``A`` to ``Z`` without ``I``, then ``AA``, ``AB`` ...

    >>> column_label(0), column_label(8), column_label(24), column_label(25), column_label(51)
    ('A', 'J', 'Z', 'AA', 'BB')
    """
    letters = len(COLUMN_LETTERS)
    return (COLUMN_LETTERS[col // letters - 1] if col >= letters else "") + COLUMN_LETTERS[col % letters]


def _mask(mask: np.ndarray | None, shape: tuple[int, int], name: str) -> np.ndarray:
    if mask is None:
        return np.zeros(shape, dtype=bool)
    mask = np.asarray(mask, dtype=bool)
    if mask.shape != shape:
        raise InputError(f"The {name!r} mask must have the board's shape {shape}; got {mask.shape}.")
    return mask


def _star_points(rows: int, cols: int) -> list[tuple[int, int]]:
    """Hoshi of square boards of the usual sizes (none elsewhere)."""
    lines = {19: (3, 9, 15), 13: (3, 6, 9), 9: (2, 4, 6)}.get(rows) if rows == cols else None
    if lines is None:
        return []
    if rows == 9:
        return [(2, 2), (2, 6), (4, 4), (6, 2), (6, 6)]
    return [(r, c) for r in lines for c in lines]
