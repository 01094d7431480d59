"""Why two rulesets disagree on a game: an exact split of the margin difference.

Each scores row is read as a ledger whose entries add up to its margin (Black − White,
komi included). The entries follow the identity of RULES.md,
``ΔA − ΔT = (M_B − M_W) + (X_B − X_W)``, where ``X_c`` is what a territory count
refuses colour ``c``: its seki eyes ``S``, its points owed for protective moves ``O``
and the opponent's dead stones left inside seki ``D`` (B − W differences below;
``ΔA``, ``ΔT`` are the rows' ``area_margin`` and ``territory_margin``):

========================  ===================================================
``komi``                  ``−komi``
``handicap_bonus``        ``−handicap_bonus`` (points to White)
``handicap_stones``       area rows: the ``N`` handicap stones Black placed
``moves``                 area rows: ``M_B − M_W − N`` of the game as played — who
                          placed the last stone, and passes; territory rows: the
                          pass stones handed over (``pass_stones_*``)
``dame_filling``          area rows: open dame credited by the dame policy
                          (``*_dame_filled``), or stones it added to ``M``
``seki_eyes``             territory rows: ``−S`` (refused, J1989 Art. 8)
``protective_moves``      territory rows: ``−O`` (refused, Art. 9)
``dead_in_seki``          territory rows: ``−D`` (no prisoners for dead stones in seki)
``status``                ``status_effect``: what the ruleset's own verdict on the
                          groups whose life the rules decide differently moved its
                          margin (:mod:`rulelab.life.status`)
``board``                 ``ΔT + S + O + D − status = ΔA − (M_B − M_W) − status``: the
                          board counted with nothing refused, under the common verdict;
                          it differs between two rows of a game only when they remove
                          different dead stones
``group_tax``             ``−(group tax B − W)`` (stone scoring)
``unexplained``           the margin minus all of the above: zero when the row's
                          columns add up as RULES.md says
========================  ===================================================

Area rows thus add up to ``ΔA + dame filled − group tax − bonus − komi`` and
territory rows to ``ΔT + pass stones − group tax − bonus − komi``. The difference of
two rows' ledgers is the attribution; ``handicap_bonus`` and ``handicap_stones`` are
reported net as ``handicap`` (one exists to offset the other); ``moves`` is reported as
``parity``, with the point of komi by which an area ruleset's even komi exceeds a territory
ruleset's (:data:`PARITY_KOMI`: that point is there to balance the last stone); ``dead_in_seki`` and a ``board`` difference
between rows that removed different dead stones are reported together as
``dead_stones`` (a ``board`` difference with the same dead stones would be a scorer
inconsistency and goes to ``unexplained``). The parts add up to the margin difference
exactly: margins are multiples of ½, exact in binary floating point.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from rulelab.analysis.divergence import basis_label, compared_rows, ruleset_order
from rulelab.analysis.inputs import require_columns
from rulelab.analysis.strata import game_kind
from rulelab.rules import PRESETS, winner_at

CAUSES = ("komi", "handicap", "parity", "dame_filling", "seki_eyes", "protective_moves",
          "status", "dead_stones", "group_tax", "unexplained")
"""The mechanisms a margin difference splits into, in the order ties are broken when naming
the main one. Parts that offset by design are one mechanism, reported net: White's handicap
compensation exists to give back the handicap stones area counting sees, so the two are
``handicap``; and who placed the last stone (and passes) with the point of komi area rulesets
give over territory rulesets to balance it is ``parity`` (:data:`PARITY_KOMI`)."""

PARITY_KOMI = PRESETS["chinese"].komi - PRESETS["japanese"].komi
"""The komi an area ruleset gives an even game over a territory ruleset (7.5 against 6.5):
the expected point of the last stone, which area counting sees and territory counting does
not. In an even game up to this much of the komi part between an area and a territory
ruleset is ``parity``, so the same mechanism has one name on every komi basis."""

PARTS = tuple(f"part_{cause}" for cause in CAUSES)
"""The attribution's columns, one per cause: points of ``margin_a − margin_b``."""

MAIN_CAUSES = (*CAUSES, "tie_break", "combined")
"""The values of ``main_cause``: a single part, the tie rule, or several parts together."""

CAUSE_NOTES = {
    "komi": "the komi the two rulesets give this game differ (even games: 6.5 territory, 7.5 area, "
            "8 with Black winning ties, 7 with draws; handicap games: each ruleset's handicap komi)",
    "handicap": "handicap compensation and the handicap stones, net: White receives N, N−1 or 0 "
                "points for N stones, and area counting sees the N stones on the board",
    "parity": "who placed the last stone (and passes), which area counting sees and territory counting "
              "does not, with the point of komi area rulesets give over territory rulesets in an even "
              "game to balance it (7.5 against 6.5)",
    "dame_filling": "dame filled by the dame policy before an area count",
    "seki_eyes": "eyes of groups in seki count under area scoring, not under territory scoring",
    "protective_moves": "points refused under territory scoring for protective moves owed",
    "status": "the rules decide a group's life differently (J1989 Art. 7-2 confirms life with "
              "its ko rule where area rules play the position out: bent four in the corner, a ko "
              "left unmended); each ruleset is scored with its own verdict (status_effect)",
    "dead_stones": "the rulesets remove different dead stones (Tromp–Taylor removes none; "
                   "Japanese rules cannot remove dead stones inside seki)",
    "group_tax": "stone scoring takes two points per living group",
    "unexplained": "the breakdown columns do not account for it",
    "tie_break": "equal margins, verdicts differ by the rulesets' rules for a margin of 0",
    "combined": "no single part flips the verdict; the fewest parts that do together are in "
                "combined_causes",
}

_COUNTS = ("area_margin", "territory_margin", "black_seki_points", "white_seki_points", "black_owed",
           "white_owed", "black_group_tax", "white_group_tax", "handicap_bonus", "dead_black",
           "dead_white")

LEDGER_COLUMNS = ("game_id", "ruleset", "scoring", "komi", "margin", "winner", "dame_policy", *_COUNTS)

OPTIONAL_COLUMNS = ("pass_stones_black", "pass_stones_white", "black_dame_filled",
                    "white_dame_filled", "dead_in_seki_black", "dead_in_seki_white", "status_effect")
"""Breakdown columns read when present (0 when absent)."""

ATTRIBUTION_COLUMNS = ("komi_basis", "game_id", "ruleset_a", "ruleset_b", "winner_a", "winner_b", "margin_a",
                       "margin_b", "difference", *PARTS, "decided_by_tie_break", "main_cause",
                       "combined_causes", "opposing_causes")

_LEDGER = ("komi", "handicap_bonus", "handicap_stones", "moves", "dame_filling", "seki_eyes",
           "protective_moves", "dead_in_seki", "status", "board", "group_tax", "unexplained")


def ledger(scores: pd.DataFrame, games: pd.DataFrame | None = None) -> pd.DataFrame:
    """Split each scores row's margin into the entries described in the module docstring.

    Parameters
    ----------
    scores : pandas.DataFrame
        Rows of the scores table (see :data:`LEDGER_COLUMNS` and :data:`OPTIONAL_COLUMNS`).
    games : pandas.DataFrame, optional
        The games table, for the number of handicap stones; without it they are
        counted with ``moves``.

    Returns
    -------
    pandas.DataFrame
        Same index as ``scores``: ``game_id``, ``ruleset`` and one column per entry;
        the entries of a row add up to its ``margin``.

    Examples
    --------
    A 2-stone handicap game, Black placed the last stone, one seki eye each side:
    area margin 14 → after the bonus of 2 and komi, 14 − 2 − 7.5 = 4.5.

    >>> row = dict(game_id="g", komi_source="standard", finished=True, dame_policy="none",
    ...     black_seki_points=1, white_seki_points=1, black_owed=0, white_owed=0,
    ...     black_group_tax=0, white_group_tax=0, dead_black=0, dead_white=0,
    ...     area_margin=14.0, territory_margin=11.0)
    >>> scores = pd.DataFrame([dict(row, ruleset="chinese", scoring="area", komi=7.5,
    ...     handicap_bonus=2, margin=4.5, winner="B")])
    >>> games = pd.DataFrame({"game_id": ["g"], "handicap": [2]})
    >>> ledger(scores, games).iloc[0].to_dict()  # doctest: +NORMALIZE_WHITESPACE
    {'game_id': 'g', 'ruleset': 'chinese', 'komi': -7.5, 'handicap_bonus': -2.0,
     'handicap_stones': 2.0, 'moves': 1.0, 'dame_filling': 0.0, 'seki_eyes': -0.0,
     'protective_moves': -0.0, 'dead_in_seki': -0.0, 'status': 0.0, 'board': 11.0,
     'group_tax': -0.0, 'unexplained': 0.0}
    """
    require_columns(scores, LEDGER_COLUMNS, "scores")
    number = scores[list(_COUNTS)].apply(pd.to_numeric, errors="coerce").astype(float)
    extra = scores.reindex(columns=list(OPTIONAL_COLUMNS)).apply(pd.to_numeric, errors="coerce")
    extra = extra.fillna(0.0).astype(float)

    def diff(black: pd.Series, white: pd.Series) -> np.ndarray:
        return (black - white).to_numpy(float)

    area = scores["scoring"].eq("area").to_numpy(float)
    territory = 1.0 - area
    seki = diff(number["black_seki_points"], number["white_seki_points"])
    owed = diff(number["black_owed"], number["white_owed"])
    # X_B holds White's dead stones left in seki (prisoners Black is refused), and vice versa
    dead_in_seki = diff(extra["dead_in_seki_white"], extra["dead_in_seki_black"])
    refused = seki + owed + dead_in_seki
    stones_placed = diff(number["area_margin"], number["territory_margin"]) - refused
    played = _stones_placed_as_played(scores, stones_placed)
    handicap = _handicap_stones(scores, games)
    out = pd.DataFrame({
        "game_id": scores["game_id"].to_numpy(),
        "ruleset": scores["ruleset"].to_numpy(),
        "komi": -pd.to_numeric(scores["komi"]).to_numpy(float),
        "handicap_bonus": -number["handicap_bonus"].to_numpy(),
        "handicap_stones": area * handicap,
        "moves": area * (played - handicap)
                 + territory * diff(extra["pass_stones_white"], extra["pass_stones_black"]),
        "dame_filling": area * (stones_placed - played
                                + diff(extra["black_dame_filled"], extra["white_dame_filled"])),
        "seki_eyes": -territory * seki,
        "protective_moves": -territory * owed,
        "dead_in_seki": -territory * dead_in_seki,
        "status": extra["status_effect"].to_numpy(),
        "board": number["territory_margin"].to_numpy() + refused - extra["status_effect"].to_numpy(),
        "group_tax": -diff(number["black_group_tax"], number["white_group_tax"]),
    }, index=scores.index)
    explained = out[list(_LEDGER[:-1])].sum(axis=1)
    out["unexplained"] = pd.to_numeric(scores["margin"]).astype(float) - explained
    return out


def _stones_placed_as_played(scores: pd.DataFrame, stones_placed: np.ndarray) -> np.ndarray:
    """Per row, ``M_B − M_W`` of the game before any dame filling.

    Taken from the game's rows scored with dame policy 'none'; a game without such a
    row keeps each row's own value (so its dame filling reads 0).
    """
    frame = pd.DataFrame({"game_id": scores["game_id"].to_numpy(), "placed": stones_placed,
                          "unfilled": scores["dame_policy"].eq("none").to_numpy()})
    as_played = frame[frame["unfilled"]].groupby("game_id", sort=True)["placed"].first()
    return frame["game_id"].map(as_played).fillna(frame["placed"]).to_numpy(float)


def _handicap_stones(scores: pd.DataFrame, games: pd.DataFrame | None) -> np.ndarray:
    if games is None:
        return np.zeros(len(scores))
    require_columns(games, ["game_id", "handicap"], "games")
    handicap = games.drop_duplicates("game_id").set_index("game_id")["handicap"]
    return pd.to_numeric(scores["game_id"].map(handicap), errors="coerce").fillna(0).to_numpy(float)


def attribute(scores: pd.DataFrame, games: pd.DataFrame | None = None, *,
              only_disagreeing: bool = True, finished_only: bool = True,
              komi_basis: str = "standard", keep_outliers: bool = False,
              kind: str | None = None) -> pd.DataFrame:
    """For each game and pair of rulesets, split the margin difference into its causes.

    Parameters
    ----------
    scores : pandas.DataFrame
        The scores table; rows at the komi each ruleset gives the game are compared (its
        even komi, or its handicap komi in a handicap game; the run's ``--komi`` when it
        was given, basis ``'user'``), or all at
        :data:`~rulelab.analysis.divergence.COMMON_KOMI` (``komi_basis='common'``), where
        the komi part is 0 and the counting rules alone remain.
    games : pandas.DataFrame, optional
        The games table: restricts to analysable games and separates handicap stones
        from the other stones placed.
    only_disagreeing : bool
        Keep only the pairs whose winners differ.
    finished_only : bool
        Keep only settled positions (see :func:`~rulelab.analysis.divergence.standard_rows`).
    komi_basis : {'standard', 'common'}
        See :func:`~rulelab.analysis.divergence.disagreement_matrix`.
    keep_outliers : bool
        Keep the games whose count misses the record by more than 10 points.
    kind : str, optional
        Only the games of this kind (:data:`~rulelab.analysis.strata.GAME_KINDS`; needs ``games``).

    Returns
    -------
    pandas.DataFrame
        ``komi_basis`` (``'user'`` for a run's ``--komi`` rows), ``game_id``,
        ``ruleset_a``, ``ruleset_b`` (``a`` before ``b`` in
        :func:`~rulelab.analysis.divergence.ruleset_order`), their winners and margins,
        ``difference`` (``margin_a − margin_b``), one column per cause in :data:`PARTS`
        adding up to ``difference`` exactly, ``decided_by_tie_break`` (a verdict on margin 0
        went to Black by the tie-break rule; ``tie_break`` in the scores table is the
        ruleset's rule itself), ``main_cause`` (:func:`main_cause`) and ``combined_causes``.

    Examples
    --------
    The last dame was filled by White, board margin 7: Japanese B+0.5, Chinese W+0.5. Chinese
    komi is a point larger to balance the last stone, which White placed: one mechanism, parity.

    >>> row = dict(game_id="g", komi_source="standard", finished=True, dame_policy="none",
    ...     black_seki_points=0, white_seki_points=0, black_owed=0, white_owed=0,
    ...     black_group_tax=0, white_group_tax=0, dead_black=0, dead_white=0,
    ...     handicap_bonus=0, area_margin=7.0, territory_margin=7.0)
    >>> scores = pd.DataFrame([
    ...     dict(row, ruleset="chinese", scoring="area", komi=7.5, margin=-0.5, winner="W"),
    ...     dict(row, ruleset="japanese", scoring="territory", komi=6.5, margin=0.5, winner="B")])
    >>> attribute(scores)[["winner_a", "winner_b", "difference", "part_komi", "part_parity", "main_cause"]]
      winner_a winner_b  difference  part_komi  part_parity main_cause
    0        W        B        -1.0        0.0         -1.0     parity
    """
    rows = compared_rows(scores, games, finished_only=finished_only, komi_basis=komi_basis,
                         keep_outliers=keep_outliers, kind=kind)
    entries = ledger(rows, games)
    entries[["winner", "margin", "dead", "tie_break"]] = pd.DataFrame({
        "winner": rows["winner"], "margin": pd.to_numeric(rows["margin"]).astype(float),
        "dead": rows["dead_black"].astype(str) + "/" + rows["dead_white"].astype(str),
        "tie_break": rows["tie_break"] if "tie_break" in rows else "draw"})
    entries["area"] = rows["scoring"].eq("area")
    entries["even"] = _even_games(rows, games)
    order = ruleset_order(rows)
    pairs = [_pair_parts(entries[entries["ruleset"] == a].merge(
                 entries[entries["ruleset"] == b], on="game_id", suffixes=("_a", "_b")), a, b)
             for i, a in enumerate(order) for b in order[i + 1:]]
    if not pairs:
        return pd.DataFrame(columns=ATTRIBUTION_COLUMNS)
    result = pd.concat(pairs, ignore_index=True)
    result.insert(0, "komi_basis", basis_label(rows, komi_basis))
    if only_disagreeing:
        result = result[result["winner_a"] != result["winner_b"]]
    rank = {name: k for k, name in enumerate(order)}
    position = result.assign(rank_a=result["ruleset_a"].map(rank), rank_b=result["ruleset_b"].map(rank))
    position = position.sort_values(["game_id", "rank_a", "rank_b"], kind="stable")
    result = result.loc[position.index].reset_index(drop=True)
    result.attrs = dict(rows.attrs)
    return result


def _even_games(rows: pd.DataFrame, games: pd.DataFrame | None) -> np.ndarray:
    """Per row, whether its game is even (:func:`~rulelab.analysis.strata.game_kind`; every
    game is without the games table, and every game without handicap stones when the table
    gives no komi)."""
    if games is None:
        return np.ones(len(rows), bool)
    frame = games.drop_duplicates("game_id").set_index("game_id")
    if {"komi", "source"} <= set(frame.columns):
        even = game_kind(frame).eq("even")
    else:
        even = pd.to_numeric(frame["handicap"], errors="coerce").fillna(0).eq(0)
    return rows["game_id"].map(even).fillna(False).astype(bool).to_numpy()


def _parity_komi(both: pd.DataFrame, komi: pd.Series) -> pd.Series:
    """The share of a pair's komi part that is the area rulesets' parity point
    (:data:`PARITY_KOMI`): in an even game between an area and a territory ruleset, the komi
    part up to that point, where it goes the way the area ruleset's larger komi pulls."""
    area_a, area_b, even = both["area_a"].to_numpy(bool), both["area_b"].to_numpy(bool), both["even_a"].to_numpy(bool)
    offset = np.where(area_a & ~area_b, komi.clip(-PARITY_KOMI, 0.0),
                      np.where(~area_a & area_b, komi.clip(0.0, PARITY_KOMI), 0.0))
    return pd.Series(np.where(even, offset, 0.0), index=both.index)


def _pair_parts(both: pd.DataFrame, a: str, b: str) -> pd.DataFrame:
    """The attribution rows of one pair of rulesets, from their merged ledgers."""
    parts = {c: both[f"{c}_a"] - both[f"{c}_b"] for c in _LEDGER}
    board = parts.pop("board")
    parity = _parity_komi(both, parts["komi"])
    parts["komi"] = parts["komi"] - parity
    parts["parity"] = parts.pop("moves") + parity
    same_dead = (both["dead_a"] == both["dead_b"]).to_numpy()
    parts["handicap"] = parts.pop("handicap_bonus") + parts.pop("handicap_stones")
    parts["dead_stones"] = parts.pop("dead_in_seki") + board.where(~same_dead, 0.0)
    parts["unexplained"] = parts["unexplained"] + board.where(same_dead, 0.0)
    out = pd.DataFrame({
        "game_id": both["game_id"], "ruleset_a": a, "ruleset_b": b,
        "winner_a": both["winner_a"], "winner_b": both["winner_b"],
        "margin_a": both["margin_a"], "margin_b": both["margin_b"],
        "difference": both["margin_a"] - both["margin_b"],
        **{f"part_{c}": parts[c] for c in CAUSES},
        "decided_by_tie_break": ((both["margin_a"] == 0) & both["winner_a"].eq("B"))
                     | ((both["margin_b"] == 0) & both["winner_b"].eq("B")),
    })
    out["main_cause"], out["combined_causes"] = main_cause(out, both["tie_break_b"])
    out["opposing_causes"] = opposing_causes(out)
    return out


def main_cause(attribution: pd.DataFrame, tie_break_b=None) -> tuple[pd.Series, pd.Series]:
    """The part whose removal makes the two rulesets name the same winner.

    Taking a part away from ``margin_a`` leaves what ruleset a would give if that mechanism
    alone were as in ruleset b; the main cause is the largest part after whose removal ruleset
    b's verdict (under b's rule for a margin of 0, ``tie_break_b``, 'draw' when not given)
    follows. Equal margins with different verdicts, and only they, are ``'tie_break'``. Where
    no single part flips the verdict the cause is ``'combined'``, with the fewest parts whose
    removal together does in ``combined_causes`` (``+``-joined, largest first; removing every
    part always gives b's margin, so such a set exists). Pairs that agree have no cause (None).

    Returns
    -------
    (pandas.Series, pandas.Series)
        ``main_cause`` and ``combined_causes`` (None unless ``'combined'``).

    Examples
    --------
    Chinese W+0.5 against Japanese B+0.5: taking away the komi part or the seki eyes'
    alone makes Chinese say B, and the larger (on a tie, the first in :data:`CAUSES`) is
    named. The second game is a tie rule; the third needs two parts together; in the fourth
    the other ruleset draws at a margin of 0, which only komi and parity together reach.

    >>> frame = pd.DataFrame({"difference": [-1.0, 0.0, -2.0, 0.5], "margin_a": [-0.5, 0.0, -1.0, 0.5],
    ...     "part_komi": [-1.0, 0.0, -1.0, -0.5], "part_parity": [1.0, 0.0, -1.0, 1.0],
    ...     "part_seki_eyes": [-1.0, 0.0, 0.0, 0.0], "winner_a": ["W", "B", "W", "B"],
    ...     "winner_b": ["B", "draw", "B", "draw"]}).reindex(columns=["difference", "margin_a",
    ...     "winner_a", "winner_b", *PARTS], fill_value=0.0)
    >>> cause, combined = main_cause(frame)
    >>> cause.tolist(), combined.tolist()
    (['komi', 'tie_break', 'combined', 'combined'], [None, None, 'komi+parity', 'parity+komi'])
    """
    parts = attribution[list(PARTS)].to_numpy(float)
    margin_a = attribution["margin_a"].to_numpy(float)
    winner_b = attribution["winner_b"].to_numpy(object)
    tie_b = np.full(len(attribution), "draw", dtype=object) if tie_break_b is None \
        else np.asarray(tie_break_b, dtype=object)
    flips = np.column_stack([winner_at(margin_a - parts[:, k], tie_b) == winner_b
                             for k in range(len(CAUSES))]) if len(CAUSES) else np.zeros((len(parts), 0), bool)
    flips &= parts != 0
    size = np.where(flips, np.abs(parts), -1.0)
    single = np.array(CAUSES, dtype=object)[size.argmax(axis=1)] if len(parts) else np.array([], object)
    differ = (attribution["winner_a"] != attribution["winner_b"]).to_numpy()
    difference = attribution["difference"].to_numpy(float)
    cause = np.where(~differ, None, np.where(difference == 0, "tie_break",
                                             np.where(flips.any(axis=1), single, "combined")))
    combined = np.full(len(parts), None, dtype=object)
    for i in np.flatnonzero(cause == "combined"):
        combined[i] = "+".join(_fewest_parts_that_flip(parts[i], margin_a[i], winner_b[i], tie_b[i]))
    return (pd.Series(cause, index=attribution.index, dtype=object),
            pd.Series(combined, index=attribution.index, dtype=object))


def _fewest_parts_that_flip(parts: np.ndarray, margin_a: float, winner_b: str, tie_b: str) -> list[str]:
    """The fewest non-zero parts whose removal from ``margin_a`` gives ruleset b's verdict
    (among as few, the largest in total; ties in :data:`CAUSES` order), largest first."""
    present = [k for k in np.argsort(-np.abs(parts), kind="stable") if parts[k] != 0]
    for count in range(2, len(present) + 1):
        for chosen in combinations(present, count):
            if winner_at(margin_a - parts[list(chosen)].sum(), tie_b) == winner_b:
                return [CAUSES[k] for k in chosen]
    return [CAUSES[k] for k in present]


def opposing_causes(attribution: pd.DataFrame) -> pd.Series:
    """Per disagreeing row, the parts that pull against the difference (``+``-joined,
    largest first; None when none does): a mechanism the row's cause outweighs.

    Examples
    --------
    >>> frame = pd.DataFrame({"difference": [1.0, 2.0], "winner_a": ["B", "B"], "winner_b": ["W", "W"],
    ...     "part_komi": [-1.0, 2.0], "part_parity": [2.0, 0.0]}).reindex(
    ...     columns=["difference", "winner_a", "winner_b", *PARTS], fill_value=0.0)
    >>> opposing_causes(frame).tolist()
    ['komi', None]
    """
    parts = attribution[list(PARTS)].to_numpy(float)
    difference = attribution["difference"].to_numpy(float)
    differ = (attribution["winner_a"] != attribution["winner_b"]).to_numpy()
    against = (np.sign(parts) == -np.sign(difference)[:, None]) & (parts != 0) & differ[:, None]
    order = np.argsort(-np.abs(parts), axis=1, kind="stable")
    names = ["+".join(CAUSES[k] for k in row_order if row_against[k]) or None
             for row_order, row_against in zip(order, against)]
    return pd.Series(names, index=attribution.index, dtype=object)


def part_of(attribution: pd.DataFrame, cause: pd.Series) -> pd.Series:
    """Per row, the part of its ``cause`` (NaN for a tie rule or combined parts)."""
    return pd.Series([attribution.at[i, f"part_{c}"] if f"part_{c}" in attribution.columns else np.nan
                      for i, c in zip(attribution.index, cause)], index=attribution.index, dtype=float)


def cause_summary(attribution: pd.DataFrame) -> pd.DataFrame:
    """Games per (kind of game, komi basis and) pair of rulesets and main cause, with the mean
    part of that cause; kinds, bases and pairs in the order of ``attribution``, then the
    commonest cause first.

    Examples
    --------
    >>> frame = pd.DataFrame({"game_id": ["g1", "g2"], "ruleset_a": "chinese",
    ...     "ruleset_b": "japanese", "main_cause": ["komi", "seki_eyes"],
    ...     "part_komi": [-1.0, -1.0], "part_seki_eyes": [0.0, 2.0]})
    >>> cause_summary(frame)
      ruleset_a ruleset_b main_cause  games  mean_part
    0   chinese  japanese       komi      1       -1.0
    1   chinese  japanese  seki_eyes      1        2.0
    """
    require_columns(attribution, ["game_id", "ruleset_a", "ruleset_b", "main_cause"], "attribution")
    rows = attribution.dropna(subset=["main_cause"])
    keys = [c for c in ("game_kind", "komi_basis") if c in rows.columns] + ["ruleset_a", "ruleset_b", "main_cause"]
    grouped = rows.assign(part=part_of(rows, rows["main_cause"])).groupby(keys, sort=False)
    table = grouped.agg(games=("game_id", "size"), mean_part=("part", "mean")).reset_index()
    return table.sort_values(keys[:-1] + ["games", "main_cause"], ascending=[True] * (len(keys) - 1)
                             + [False, True], key=_in_order(rows), kind="stable").reset_index(drop=True)


def _in_order(rows: pd.DataFrame):
    """Sort key: kinds of game, komi bases and rulesets in the order they first appear in ``rows``."""
    def key(column: pd.Series) -> pd.Series:
        if column.name in ("game_kind", "komi_basis", "ruleset_a", "ruleset_b"):
            order = {value: k for k, value in enumerate(dict.fromkeys(rows[column.name]))}
            return column.map(order)
        return column
    return key


def clearest_examples(attribution: pd.DataFrame, per_cause: int = 2) -> pd.DataFrame:
    """For each single main cause, the games where that cause alone best explains the flip.

    Clarity is the cause's share of all movement other than komi (1.0 when nothing
    else moved); ties go to the smaller difference, then to the game id. A game is
    shown once per cause, with its first pair of rulesets. Disagreements of several
    parts together (``'combined'``) have no single cause to show and are left out.

    Examples
    --------
    >>> frame = pd.DataFrame({"game_id": ["g1", "g2", "g2"], "ruleset_a": ["chinese"] * 3,
    ...     "ruleset_b": ["japanese", "japanese", "korean"], "difference": [1.0, 1.0, 1.0],
    ...     "main_cause": ["parity"] * 3}).reindex(columns=["game_id", "ruleset_a", "ruleset_b",
    ...     "difference", "main_cause", *PARTS], fill_value=0.0)
    >>> frame.loc[0, ["part_parity", "part_seki_eyes"]] = [2.0, -1.0]
    >>> frame.loc[1:, "part_parity"] = 1.0
    >>> clearest_examples(frame)[["cause", "game_id", "ruleset_b", "clarity"]]
        cause game_id ruleset_b   clarity
    0  parity      g2  japanese  1.000000
    1  parity      g1  japanese  0.666667
    """
    if not isinstance(per_cause, (int, np.integer)) or per_cause < 1:
        raise ValueError(f"The 'per_cause' argument must be a positive integer; got {per_cause!r}.")
    require_columns(attribution, ["game_id", "difference", "main_cause", *PARTS], "attribution")
    rows = attribution[attribution["main_cause"].notna() & attribution["main_cause"].ne("combined")].copy()
    moving = rows[[p for p in PARTS if p != "part_komi"]].abs().sum(axis=1)
    own = part_of(rows, rows["main_cause"]).abs().fillna(0.0)
    rows["clarity"] = np.where(moving > 0, own / moving.where(moving > 0, 1.0), 1.0)
    rows["size"] = rows["difference"].abs()
    rows = rows.sort_values(["main_cause", "clarity", "size", "game_id"],
                            ascending=[True, False, True, True], kind="stable")
    rows = rows.drop_duplicates(["main_cause", "game_id"])
    picked = rows.groupby("main_cause", sort=True).head(per_cause)
    return picked.rename(columns={"main_cause": "cause"}).drop(columns="size").reset_index(drop=True)[
        ["cause", *[c for c in picked.columns if c not in ("main_cause", "size")]]]
