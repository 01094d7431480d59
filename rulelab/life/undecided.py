"""A second look at the strings the playouts leave undecided, by a model fitted to KataGo.

A string that survives between :data:`UNDECIDED` of the playouts is a poor guess
either way: random play neither attacks nor defends, so a weak invasion inside the
opponent's framework lives in half of them, and so does a one-eyed group whose
outside liberties nobody takes in time. What decides such strings for a strong
player can be read off what surrounds them: who owns the points near them, whether
their liberties are their own, how safe the opponent strings beside them are, and
whether safe opponent stones shut them in (:mod:`rulelab.life.enclosure`).

:func:`second_look` weighs these with a logistic model whose coefficients live in
``data/undecided_strings.json``, fitted by ``python -m rulelab.life.fit_undecided``
to KataGo's dead stones (the file records on which games), and overrules the
playouts only where it is :data:`CONFIDENT`. The features come from the playouts'
ownership on the padded board, one pass per undecided string.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numba
import numpy as np

from rulelab.life.enclosure import SAFE, SEKI_SHARE, UNDECIDED
from rulelab.board import label_components
from rulelab.life.regions import label_strings
from rulelab.position import BLACK, EMPTY, WHITE

FEATURES = ("survival", "log_size", "liberties", "near_own", "around_own", "weakest_neighbour",
            "safe_neighbours", "eyes", "liberty_seki", "open_board", "liberty_own", "best_friend",
            "own_areas", "own_area_points", "enclosed")
"""What the model sees of a string, in the order of :func:`string_features`'s columns."""
CONFIDENT = 0.6
"""Probability from which the model overrules the playouts' verdict on a string (chosen
on kgs-dev's KGS folders: 0.65 keeps 7 fewer games within 1 point; 0.55 as many, with
5 of them lost)."""
SETTLED = 0.6
"""Ownership margin (black share minus white share) from which an empty point is settled."""
MODEL_PATH = Path(__file__).resolve().parent.parent / "data" / "undecided_strings.json"


@numba.njit(cache=True)
def _near(padded, stride, stones, dist, stamp, reach, queue):
    """Mark with ``stamp`` in ``dist`` the points within ``reach`` steps of ``stones``
    (walls excluded); returns how many were marked, first in ``queue``."""
    n = 0
    for p in stones:
        dist[p] = stamp * 8
        queue[n] = p
        n += 1
    head = 0
    while head < n:
        p = queue[head]
        head += 1
        steps = dist[p] - stamp * 8
        if steps == reach:
            continue
        for d in (-stride, -1, 1, stride):
            q = p + d
            if padded[q] <= WHITE and dist[q] < stamp * 8:
                dist[q] = stamp * 8 + steps + 1
                queue[n] = q
                n += 1
    return n


@numba.njit(cache=True)
def _features(padded, stride, own, neutral, enclosed, lo, hi, open_board):
    """Feature rows and string labels of the undecided strings (see :func:`string_features`)."""
    total = padded.size
    rows = np.zeros((total, len(FEATURES)))
    members = np.full(total, -1, dtype=np.int32)
    dist = np.zeros(total, dtype=np.int64)
    queue = np.empty(total, dtype=np.int32)
    found = 0
    empty = padded == EMPTY
    areas, n_areas = label_components(stride, empty, empty)
    area_size = np.zeros(n_areas, dtype=np.int64)
    area_border = np.zeros(n_areas, dtype=np.int64)
    for p in range(total):
        a = areas[p]
        if a >= 0:
            area_size[a] += 1
            for d in (-stride, -1, 1, stride):
                v = padded[p + d]
                if v == BLACK or v == WHITE:
                    area_border[a] |= v
    for colour in (BLACK, WHITE):
        labels, n = label_strings(padded, stride, colour)
        opp_labels, n_opp = label_strings(padded, stride, 3 - colour)
        size = np.zeros(n, dtype=np.int64)
        kept = np.zeros(n)
        opp_kept = np.zeros(n_opp)
        opp_size = np.zeros(n_opp, dtype=np.int64)
        for p in range(total):
            if labels[p] >= 0:
                size[labels[p]] += 1
                kept[labels[p]] += own[colour - 1, p]
            if opp_labels[p] >= 0:
                opp_size[opp_labels[p]] += 1
                opp_kept[opp_labels[p]] += own[2 - colour, p]
        survival = kept / np.maximum(size, 1)
        opp_survival = opp_kept / np.maximum(opp_size, 1)
        for s in range(n):
            if not lo < survival[s] < hi:
                continue
            stones = np.flatnonzero(labels == s).astype(np.int32)
            stamp = 2 * found + 1
            reached = _near(padded, stride, stones, dist, stamp, 3, queue)
            near_sum, near_n, around_sum, around_n = 0.0, 0, 0.0, 0
            libs, lib_own, lib_seki, eyes = 0, 0.0, 0.0, 0
            weakest, safe, neighbours = 1.0, 0, 0
            best_friend, own_areas, own_points = 0.0, 0, 0
            seen_opp = np.zeros(n_opp, dtype=np.bool_)
            seen_area = np.zeros(n_areas, dtype=np.bool_)
            for i in range(len(stones), reached):
                q = queue[i]
                steps = dist[q] - stamp * 8
                around_sum += own[colour - 1, q]
                around_n += 1
                if steps <= 2:
                    near_sum += own[colour - 1, q]
                    near_n += 1
                    if padded[q] == colour and labels[q] != s:
                        best_friend = max(best_friend, survival[labels[q]])
                if steps != 1:
                    continue
                if padded[q] == EMPTY:
                    libs += 1
                    lib_own += own[colour - 1, q]
                    lib_seki = max(lib_seki, neutral[q])
                    eye = True
                    for d in (-stride, -1, 1, stride):
                        v = padded[q + d]
                        if v != colour and v <= WHITE:
                            eye = False
                    eyes += eye
                    a = areas[q]
                    if not seen_area[a] and area_border[a] == colour:
                        seen_area[a] = True
                        own_areas += 1
                        own_points += area_size[a]
                elif padded[q] == 3 - colour:
                    t = opp_labels[q]
                    if not seen_opp[t]:
                        seen_opp[t] = True
                        neighbours += 1
                        weakest = min(weakest, opp_survival[t])
                        safe += opp_survival[t] >= SAFE
            row = rows[found]
            row[0] = survival[s]
            row[1] = np.log(size[s])
            row[2] = min(libs, 8) / 8
            row[3] = near_sum / max(near_n, 1)
            row[4] = around_sum / max(around_n, 1)
            row[5] = weakest
            row[6] = safe / neighbours if neighbours else 1.0
            row[7] = min(eyes, 3) / 3
            row[8] = lib_seki
            row[9] = open_board
            row[10] = lib_own / libs if libs else 0.0
            row[11] = best_friend
            row[12] = min(own_areas, 2) / 2
            row[13] = min(own_points, 12) / 12
            row[14] = enclosed[stones].mean()
            members[stones] = found
            found += 1
    return rows[:found], members


def string_features(padded: np.ndarray, stride: int, shares: np.ndarray,
                    enclosed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(rows, members)``: one row of :data:`FEATURES` per undecided string, and per
    padded point the row of the string it belongs to (-1 elsewhere).

    ``shares`` is float ``(4, padded.size)``, the counts of
    :func:`rulelab.life.playout.playout_counts` divided by the playouts run: rows
    ``BLACK`` and ``WHITE`` the share in which that colour owns each point, row 0 the
    share leaving it a shared liberty. ``enclosed`` is, per padded point,
    :func:`rulelab.life.enclosure.enclosure_verdicts`.
    """
    empty = padded == EMPTY
    owned = np.abs(shares[BLACK] - shares[WHITE]) >= SETTLED
    open_board = 1.0 - owned[empty].sum() / max(1, int(empty.sum()))
    return _features(padded, stride, shares[BLACK:WHITE + 1], shares[0], enclosed, UNDECIDED[0],
                     UNDECIDED[1], open_board)


@lru_cache(maxsize=1)
def load_model(path: Path = MODEL_PATH) -> dict:
    """The fitted model: ``weights`` (intercept first), ``mean`` and ``scale`` of the
    features, and its provenance."""
    model = json.loads(path.read_text())
    if tuple(model["features"]) != FEATURES:
        raise ValueError(f"{path} was fitted on features {model['features']}, not {FEATURES}")
    return model


def dead_probability(rows: np.ndarray, model: dict) -> np.ndarray:
    """The model's probability that each string of ``rows`` is dead."""
    z = (rows - np.asarray(model["mean"])) / np.asarray(model["scale"])
    weights = np.asarray(model["weights"])
    return 1.0 / (1.0 + np.exp(-(weights[0] + z @ weights[1:])))


def second_look(padded: np.ndarray, stride: int, shares: np.ndarray,
                enclosed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(looked, dead)``, bool per padded point: the stones of the undecided strings,
    and those of them judged dead — by the playouts (kept in under half of them),
    unless the model is :data:`CONFIDENT` of the other verdict; it kills no string
    beside a liberty the playouts leave a seki liberty in :data:`SEKI_SHARE` of them
    (``shares`` and ``enclosed`` as for :func:`string_features`)."""
    rows, members = string_features(padded, stride, shares, enclosed)
    looked = members >= 0
    if not len(rows):
        return looked, looked.copy()
    dead = dead_probability(rows, load_model())
    seki = rows[:, FEATURES.index("liberty_seki")] >= SEKI_SHARE
    judged = np.where(rows[:, 0] < 0.5, dead > 1 - CONFIDENT, (dead > CONFIDENT) & ~seki)
    return looked, looked & judged[np.maximum(members, 0)]
