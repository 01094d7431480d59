"""Rulesets as data: a handful of independent settings, and named presets over them.

A new ruleset is one new row in :data:`PRESETS`, never a new code path: the scorer
reads only the settings of :class:`Ruleset`. The settings and the presets follow
``docs/RULES.md``; komi is always stated in points (Chinese komi of 3¾ zi is 7.5).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, fields, replace
from numbers import Real
from types import MappingProxyType
from typing import Mapping

import numpy as np

from .errors import RulesError

MAX_BOARD_POINTS = 52 * 52
"""The largest board SGF can describe; no komi may exceed it."""

CHOICES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "scoring": ("area", "territory"),
        "seki_tax": ("none", "seki", "all"),
        "handicap_bonus": ("0", "N", "N-1"),
        "suicide": ("none", "multi", "any"),
        "ko": ("simple", "positional", "situational"),
        "tie_break": ("draw", "black"),
        "shared_points": ("nobody", "split", "pairs"),
        "dame_policy": ("none", "alternate"),
        "seki_points": ("chains", "groups"),
        "dead_stones": ("standing", "lifted"),
    }
)
"""The allowed values of each categorical setting."""

_FLAGS = ("remove_dead", "agreement", "pass_stones", "refuse_owed")


@dataclass(frozen=True)
class Ruleset:
    """One ruleset: every setting on which the count of a final position depends.

    ``suicide`` and ``ko`` do not change a count: replay judges a record's moves by
    them (:func:`replay_rules`).
    """

    name: str
    """Name shown in the ``ruleset`` column."""
    scoring: str
    """'area' (stones + surrounded points) or 'territory' (surrounded points + prisoners)."""
    seki_tax: str
    """'none'; 'seki': eye points of groups in seki are not points (J1989 Art. 8);
    'all': stone scoring, a group that lives on its own pays two eye points (up to the
    points it has), a group in seki every eye point (docs/RULES.md, "The group tax")."""
    handicap_bonus: str
    """Points White receives in a handicap game of N stones: '0', 'N' or 'N-1'."""
    suicide: str
    """Which suicide is legal: 'none', 'multi' (of two or more stones), 'any'."""
    ko: str
    """'simple', 'positional' (superko) or 'situational' (superko)."""
    tie_break: str
    """Who wins at margin 0: 'draw', or 'black' (Ing)."""
    komi: float
    """Points given to White, a multiple of 0.5."""
    remove_dead: bool = True
    """Whether the count removes the stones the life verdict calls dead. The presets
    keep the rules as written (False only for Tromp–Taylor, which counts every stone
    left on the board); a run decides it with :func:`played_out`."""
    agreement: bool = True
    """Whether the players settle the dead stones before the count (by agreement or a
    dispute procedure). False for Tromp–Taylor and stone scoring, whose rules count the
    board as it stands, so the dead stones must be captured in play (:func:`played_out`)."""
    pass_stones: bool = False
    """A pass hands one stone to the opponent (AGA); it counts as a prisoner under
    territory scoring and changes nothing under area scoring. The recorded passes
    are used as they are: the extra pass AGA asks of White when Black passed last is
    not added, since a position does not say who passed last."""
    shared_points: str = "nobody"
    """How area scoring divides the neutral points: 'nobody'; 'split' half of every
    neutral point to each side, seki liberties and open dame alike (Chinese 1988 Art. 9:
    双方活棋之间的空点各得一半); 'pairs' the shared liberties of each seki equally in
    whole points, an odd one to nobody, and open dame to nobody (Ing Art. 6: 公空多于一空
    各填其半，少至一空不得填子)."""
    refuse_owed: bool = False
    """Territory scoring refuses points owed to protective moves (J1989 Art. 9)."""
    handicap_komi: float = 0.0
    """Komi of a handicap game (two stones or more), in points: what players of this
    ruleset give in such a game instead of :attr:`komi` (:data:`HANDICAP_CONVENTIONS`
    says where each preset's value comes from)."""
    era_komi: tuple[tuple[int, float], ...] = ()
    """The komi players of this ruleset were given before today's :attr:`komi`: ``(year,
    komi)`` pairs, oldest first, each the komi of the games played before that year (and
    after the previous pair's). Empty for a ruleset whose komi never changed, or once a
    komi is set by hand (:meth:`with_komi`); sources in :data:`ERA_KOMI_SOURCES`."""
    dame_policy: str = "none"
    """How area scoring counts open dame: 'none', for nobody; 'alternate', filled
    alternately starting with the player to move. No rules text says; it is how a
    source's records leave their dame (:data:`DAME_POLICY_BY_SOURCE`)."""
    seki_points: str = "chains"
    """Which eye points are seki points: 'chains', the text's reading (J1989 Art. 8
    commentary), the eye regions the chains in seki border and those of stones living
    only through them, a group living on its own keeping its territory; 'groups', every
    eye of the stones joined through their own eyes to a chain in seki, as KGS counts
    (:data:`COUNTING_BY_SOURCE`)."""
    dead_stones: str = "standing"
    """When territory scoring lifts the dead stones: 'standing', at the end, after the dame
    are filled (J1989 Art. 10-1), so a dead chain standing on a point its captor needs
    must be captured first, a protective move owed inside the captor's territory
    (:mod:`rulelab.scoring.standing`); 'lifted', before the count, as a server's scoring
    phase removes them, so nothing is owed for them (:data:`COUNTING_BY_SOURCE`)."""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise RulesError(f"A ruleset name must be a non-empty string; got {self.name!r}")
        for setting, allowed in CHOICES.items():
            value = getattr(self, setting)
            if value not in allowed:
                options = ", ".join(repr(a) for a in allowed)
                raise RulesError(
                    f"The {setting!r} of ruleset {self.name!r} must be one of {options}; "
                    f"got {value!r}"
                )
        for flag in _FLAGS:
            if not isinstance(getattr(self, flag), bool):
                raise RulesError(
                    f"The {flag!r} of ruleset {self.name!r} must be True or False; "
                    f"got {getattr(self, flag)!r}"
                )
        object.__setattr__(self, "komi", check_komi(self.komi, f"of ruleset {self.name!r}"))
        object.__setattr__(self, "handicap_komi",
                           check_komi(self.handicap_komi, f"of handicap games of ruleset {self.name!r}"))
        object.__setattr__(self, "era_komi", tuple(
            (int(year), check_komi(komi, f"before {year} of ruleset {self.name!r}")) for year, komi in self.era_komi))

    def with_komi(self, komi: float) -> "Ruleset":
        """The same ruleset with another komi, for komi sweeps.

        Raises
        ------
        RulesError
            If ``komi`` is not a finite multiple of 0.5 within the largest board.

        Examples
        --------
        >>> get_ruleset("chinese").with_komi(5.5).komi
        5.5
        """
        return replace(self, komi=komi, era_komi=())

    def for_game(self, handicap: int, year: int | None = None, one_stone: bool = False) -> "Ruleset":
        """The ruleset as it was played in a game of ``handicap`` stones in ``year``: at its
        handicap komi from two stones on and in a one-stone game (:func:`is_one_stone_game`:
        the handicap komi, no compensation, as the weaker player takes Black without
        stones), else at the komi of the game's era (:attr:`era_komi`), today's when the
        year is unknown.

        Examples
        --------
        >>> get_ruleset("chinese").for_game(3).komi, get_ruleset("aga").for_game(3).komi
        (0.0, 0.5)
        >>> get_ruleset("chinese").for_game(0).komi, get_ruleset("chinese").for_game(0, 1990).komi
        (7.5, 5.5)
        >>> [get_ruleset("japanese").for_game(0, year).komi for year in (1960, 1980, 2010)]
        [4.5, 5.5, 6.5]
        >>> get_ruleset("chinese").for_game(0, one_stone=True).komi
        0.0
        """
        if handicap >= 2 or one_stone:
            return _at_handicap_komi(self)
        if year is not None and year == year:
            for before, komi in self.era_komi:
                if year < before:
                    return _at_era_komi(self, komi)
        return self

    def white_handicap_bonus(self, handicap: int) -> int:
        """Points White receives for ``handicap`` stones under this ruleset."""
        return compensation(self.handicap_bonus, handicap)


@functools.cache
def _at_handicap_komi(ruleset: Ruleset) -> Ruleset:
    """``ruleset`` at its handicap komi, made once per ruleset (asked for every handicap game)."""
    return ruleset.with_komi(ruleset.handicap_komi)


@functools.cache
def _at_era_komi(ruleset: Ruleset, komi: float) -> Ruleset:
    """``ruleset`` at the komi of an earlier era, made once per ruleset and komi."""
    return ruleset.with_komi(komi)


PROFESSIONAL_COLLECTIONS = (None, "gogod")
"""Sources whose games were played off the servers: records from no online server
(title-match collections) and GoGoD. Their dan ranks are professional, and a game of
theirs without komi is an even game of its era."""


def is_one_stone_game(handicap, komi, source) -> bool:
    """Whether a game is a server's one-stone handicap: no handicap stones, and a komi of
    0.5 or less, where the weaker player takes Black (on KGS, komi 0.5). A professional
    collection's game without komi is an even game of its era instead.

    Examples
    --------
    >>> is_one_stone_game(0, 0.5, "kgs"), is_one_stone_game(0, 0.0, None), is_one_stone_game(0, 6.5, "kgs")
    (True, False, False)
    """
    komi = float("nan") if komi is None else float(komi)
    return not handicap and komi <= 0.5 and source not in PROFESSIONAL_COLLECTIONS


def compensation(choice: str, handicap):
    """Points White receives for ``handicap`` stones (a number or an array) under a
    ``handicap_bonus`` choice: 'N', 'N-1' or '0'.

    Examples
    --------
    >>> compensation("N", 3), compensation("N-1", 3), compensation("0", 3)
    (3, 2, 0)
    >>> compensation("N-1", np.array([0, 2])).tolist()
    [0, 1]
    """
    if choice not in CHOICES["handicap_bonus"]:
        raise RulesError(f"A handicap compensation must be one of {', '.join(CHOICES['handicap_bonus'])}; "
                         f"got {choice!r}")
    if choice == "N":
        return handicap
    if choice == "N-1":
        return np.maximum(handicap - 1, 0) if isinstance(handicap, np.ndarray) else max(handicap - 1, 0)
    return handicap * 0


def winner_at(margin, tie_break):
    """The verdict of a margin (Black − White, komi included) under a rule for a margin of 0:
    'B' above 0, 'W' below, and at 0 Black under ``tie_break='black'`` (Ing), else 'draw'.
    Scalars give a str; arrays (margins and rules of the same length, or one rule) an object
    array, NaN margins giving None.

    Examples
    --------
    >>> winner_at(0.0, "black"), winner_at(-0.5, "draw"), winner_at(0.0, "draw")
    ('B', 'W', 'draw')
    >>> winner_at(np.array([0.5, 0.0, np.nan]), np.array(["draw", "black", "draw"])).tolist()
    ['B', 'B', None]
    """
    if np.ndim(margin) == 0 and np.ndim(tie_break) == 0:  # the scorer's, once per row: no arrays
        margin = float(margin)
        if margin != margin:
            return None
        return "B" if margin > 0 or (margin == 0 and tie_break == "black") else "W" if margin < 0 else "draw"
    margins = np.asarray(margin, dtype=float)
    black_ties = np.asarray(tie_break, dtype=object) == "black"
    verdicts = np.select([margins > 0, margins < 0, black_ties], ["B", "W", "B"], "draw").astype(object)
    return np.where(np.isnan(margins), None, verdicts)


def check_komi(komi: object, where: str, board_points: int = MAX_BOARD_POINTS) -> float:
    """``komi`` as a float, or a :class:`RulesError` saying why it is impossible.

    ``where`` completes the sentence "The 'komi' ... must be", e.g. "of ruleset 'nz'".
    """
    if isinstance(komi, bool) or not isinstance(komi, Real):
        raise RulesError(f"The 'komi' {where} must be a number; got {komi!r}")
    value = float(komi)
    if not math.isfinite(value):
        raise RulesError(f"The 'komi' {where} must be finite; got {value}")
    if abs(value) > board_points:  # first: doubling 1e308 overflows
        raise RulesError(
            f"The 'komi' {where} must not exceed the {board_points} points of the board; "
            f"got {value:g}"
        )
    if value * 2 != round(value * 2):
        raise RulesError(f"The 'komi' {where} must be a multiple of 0.5; got {value:g}")
    return value


def _preset(name: str, scoring: str, komi: float, **settings) -> Ruleset:
    base = dict(
        seki_tax="none",
        handicap_bonus="0",
        suicide="none",
        ko="simple",
        tie_break="draw",
    )
    base.update(settings)
    return Ruleset(name=name, scoring=scoring, komi=komi, **base)


PRESETS: Mapping[str, Ruleset] = MappingProxyType(
    {
        # Chinese 2002: area, counted in zi, komi 3¾ zi; in a handicap game no komi and
        # White gets N for N handicap stones.
        "chinese": _preset(
            "chinese", "area", 7.5, handicap_bonus="N", ko="positional", shared_points="split",
            era_komi=((2002, 5.5),),
        ),
        # Chinese practice before the 2001/2002 revision: komi 2¾ zi.
        "chinese-1988": _preset(
            "chinese-1988", "area", 5.5, handicap_bonus="N", ko="positional", shared_points="split"
        ),
        # Japanese 1989 with the 2002 komi: no points in seki, protective moves owed.
        "japanese": _preset("japanese", "territory", 6.5, seki_tax="seki", refuse_owed=True,
                            era_komi=((1975, 4.5), (2003, 5.5))),
        # Korean rules as written; Tygem's server count is a plain count of the board,
        # get_ruleset("korean", refuse_owed=False).
        "korean": _preset("korean", "territory", 6.5, seki_tax="seki", refuse_owed=True,
                          era_komi=((1998, 5.5),)),
        # Ing: komi 8 with Black winning ties. The handicap compensation is disputed;
        # the default 0 follows KataGo's preset, override with handicap_bonus="N" (OGS).
        "ing": _preset(
            "ing",
            "area",
            8.0,
            suicide="multi",
            ko="positional",
            tie_break="black",
            shared_points="pairs",
        ),
        "aga": _preset(
            "aga", "area", 7.5, handicap_bonus="N-1", ko="situational", pass_stones=True,
            handicap_komi=0.5,
        ),
        "nz": _preset("nz", "area", 7.0, suicide="any", ko="situational"),
        "tromp-taylor": _preset(
            "tromp-taylor", "area", 7.5, suicide="multi", ko="positional", remove_dead=False,
            agreement=False,
        ),
        "stone-scoring": _preset("stone-scoring", "area", 7.5, seki_tax="all", agreement=False),
    }
)
"""The named rulesets, by the names the metadata layer records."""

ERA_KOMI_SOURCES: Mapping[str, str] = MappingProxyType(
    {
        "chinese": "2¾ zi (5.5 points) in the 1988 rules (Art. 11), 3¾ zi (7.5) from the 2001/2002 "
                   "revision (docs/RULES.md, Chinese)",
        "japanese": "set by tournament regulations, not J1989: 4.5 until about 1975, 5.5 from then, "
                    "6.5 from September 2002 (docs/RULES.md, Japanese); a game of 2002 is taken at 5.5",
        "korean": "6.5, 5.5 before about 1998 (docs/RULES.md, presets)",
    }
)
"""Where each preset's :attr:`Ruleset.era_komi` comes from; presets not named here have had
one komi."""

RULES_FIRST_TEXT: Mapping[str, tuple[int, str]] = MappingProxyType(
    {
        "ing": (1991, "docs/RULES.md, Ing: 'SST laws 1991, Ing Goe rules 1996/2006', the earliest Ing "
                      "text it names; the komi of 8 with Black winning ties is that text's"),
    }
)
"""Per preset without an era komi whose rules are younger than many records: the year of its
earliest text, and the source. A game older than that was not played under those rules, so a
divergence it shows is a counterfactual the findings count apart."""

HANDICAP_CONVENTIONS: Mapping[str, str] = MappingProxyType(
    {
        "chinese": "Black gives back half the number of handicap stones in zi and no komi "
                   "(essay on Chinese counting: 让子棋…计算时黑棋只贴还让子数目的一半; with three "
                   "stones 182 zi is a draw)",
        "chinese-1988": "as chinese: half the handicap in zi, no komi (essay on Chinese counting)",
        "japanese": "no komi and no compensation: J1989 sets no komi (komi comes from tournament "
                    "regulations), and handicap games are played without it",
        "korean": "as japanese: no komi, no compensation",
        "ing": "no komi: the SST players' notes give 8 points to White in even games drawn by lot "
               "(猜先对局, note 8) only; compensation disputed, none by default",
        "aga": "komi 0.5 and N − 1 points to White (AGA rules, handicap games)",
        "nz": "no komi and no compensation: White passes the first N − 1 moves instead (NZ rules: "
              "'In a handicap game … There is no komi')",
        "tromp-taylor": "the rules say nothing of handicap; as the NZ rules they derive from: no "
                        "komi, no compensation",
        "stone-scoring": "no komi, no compensation: the ancient game had neither",
    }
)
"""Where each preset's handicap-game komi (:attr:`Ruleset.handicap_komi`) and compensation
(:attr:`Ruleset.handicap_bonus`) come from."""

HANDICAP_READINGS: tuple[tuple[str, str, str], ...] = (
    ("ing", "0", "none: KataGo's ing preset and the BGA comparison (docs/RULES.md, Ing)"),
    ("ing", "N", "N points: the reading OGS uses (docs/RULES.md, Ing)"),
    ("aga", "N-1", "N − 1 points and komi ½: the AGA rules' handicap games (docs/RULES.md, further rulesets)"),
    ("aga", "N", "N points and komi ½: the compensation of Chinese counting, half the stones in zi "
                 "(docs/RULES.md, handicap compensation)"),
)
"""The readings of a handicap compensation that a source disputes or sets apart: (preset,
``handicap_bonus`` choice, who reads it so). The presets' own choice is one of them; the
report gives the others beside it, so no disputed convention hides in a default."""

PLAYOUT_MODELS = ("captured", "as-is")
"""How rules without an agreement phase (``Ruleset.agreement`` False) are scored on a
record that stops with dead stones on the board: ``'captured'`` (the default), on the
position after the dead stones are captured, as the game would have gone on under those
rules; ``'as-is'``, on the board as it stands, every stone left counted as alive."""


def played_out(ruleset: Ruleset, playout: str = "captured") -> Ruleset:
    """``ruleset`` as a run scores it under the play-out model ``playout``.

    Under ``'captured'`` rules that count the board as it stands are scored after the
    dead stones are captured. The capturer fills the liberties of the dead stones, which
    lie in its own area: under area counting each capturing stone replaces a point of
    territory, and under stone scoring the capturer would have filled those points at the
    end anyway, so the count does not move; what the captures cost is moves (one stone per
    liberty filled), answered move for move by the opponent or by passes, which area and
    stone counts do not price. Under ``'as-is'`` those rules keep every stone on the board.
    Rules with an agreement phase are returned unchanged.

    Examples
    --------
    >>> played_out(get_ruleset("tromp-taylor")).remove_dead
    True
    >>> played_out(get_ruleset("stone-scoring"), "as-is").remove_dead
    False
    >>> played_out(get_ruleset("chinese"), "as-is").remove_dead
    True
    """
    if playout not in PLAYOUT_MODELS:
        raise RulesError(f"The play-out model must be one of {', '.join(PLAYOUT_MODELS)}; got {playout!r}")
    if ruleset.agreement:
        return ruleset
    return replace(ruleset, remove_dead=playout == "captured")


_ALIASES = {"goe": "ing", "new-zealand": "nz", "tromptaylor": "tromp-taylor"}


def get_ruleset(name: str, **overrides) -> Ruleset:
    """The preset called ``name``, with any settings replaced by ``overrides``.

    Names are matched without regard to case, and ``_`` or spaces stand for ``-``;
    ``GOE`` (SGF's name for Ing) and ``New Zealand`` are accepted.

    Parameters
    ----------
    name : str
        A key of :data:`PRESETS`, e.g. ``'chinese'``, ``'japanese'``, ``'tromp-taylor'``.
    **overrides
        Settings of :class:`Ruleset` to change, e.g. ``komi=5.5`` or
        ``handicap_bonus='N'``.

    Returns
    -------
    Ruleset

    Raises
    ------
    RulesError
        For an unknown name or setting, or an impossible value.

    Examples
    --------
    >>> get_ruleset("Japanese").komi
    6.5
    >>> get_ruleset("ing", handicap_bonus="N").handicap_bonus
    'N'
    """
    if not isinstance(name, str):
        raise RulesError(f"A ruleset name must be a string; got {name!r}")
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = _ALIASES.get(key, key)
    if key not in PRESETS:
        raise RulesError(f"Unknown ruleset {name!r}; valid names are {', '.join(sorted(PRESETS))}")
    settings = {f.name for f in fields(Ruleset)}
    unknown = sorted(set(overrides) - settings)
    if unknown:
        raise RulesError(
            f"Unknown setting {', '.join(map(repr, unknown))} for ruleset {key!r}; "
            f"settings are {', '.join(sorted(settings))}"
        )
    ruleset = PRESETS[key]
    return replace(ruleset, **overrides) if overrides else ruleset


def replay_rules(rules: str | None, *, superko: bool = False) -> tuple[str, str]:
    """The ``(suicide, ko)`` rules by which replay judges the moves of a record of ``rules``.

    They are the preset's; a record whose rules are unknown (None) is judged by what most
    rules share: suicide illegal, simple ko. ``superko`` checks positional superko on
    every record whatever its rules, so that every whole-board repetition is flagged.

    Examples
    --------
    >>> replay_rules("tromp-taylor"), replay_rules("aga"), replay_rules(None)
    (('multi', 'positional'), ('none', 'situational'), ('none', 'simple'))
    >>> replay_rules("japanese", superko=True)
    ('none', 'positional')
    """
    preset = PRESETS.get(rules)
    suicide, ko = (preset.suicide, preset.ko) if preset else ("none", "simple")
    return suicide, "positional" if superko else ko


RULES_BY_SOURCE: Mapping[str, str] = MappingProxyType({"tygem": "korean"})
"""The rules of servers whose records name none."""

COUNTING_BY_SOURCE: Mapping[tuple[str, str], Mapping[str, object]] = MappingProxyType(
    {("tygem", "korean"): MappingProxyType({"refuse_owed": False}),
     ("kgs", "japanese"): MappingProxyType({"seki_points": "groups", "dead_stones": "lifted"})}
)
"""How a server counts under a rules name, where that differs from the preset: Tygem's
count is a plain count of the board, with no points refused for protective moves; KGS's
Japanese count gives no territory to any eye of the stones joined through their own eyes
to a chain in seki (``seki_points='groups'``; its recorded results of kgs-dev's
2001-07-01-2 and 2003-11-20-1, docs/RULES.md), and lifts the dead stones before it
counts, owing nothing for the captures they would call for (``dead_stones='lifted'``;
kgs-dev's 2001-10-06-1 and 2003-12-26-53)."""

DAME_POLICY_BY_SOURCE: Mapping[str, str] = MappingProxyType({"fox": "alternate"})
"""How the records of a source leave their open dame to every ruleset that counts them,
as measured against recorded results (README, "Modelling choices"): KGS's area counts
give them to nobody, the default; on Fox the professionals' counts match dame filled
alternately."""


def with_source_dame(ruleset: Ruleset, source: str | None) -> Ruleset:
    """``ruleset`` counting open dame as the records of ``source`` leave them.

    Examples
    --------
    >>> with_source_dame(get_ruleset("chinese"), "fox").dame_policy
    'alternate'
    >>> with_source_dame(get_ruleset("chinese"), "kgs") is get_ruleset("chinese")
    True
    """
    policy = DAME_POLICY_BY_SOURCE.get(source, ruleset.dame_policy)
    return ruleset if policy == ruleset.dame_policy else replace(ruleset, dame_policy=policy)


FINISH_BASES = ("none", "play")
"""How a record is counted: ``'none'``, the board as it stands (the open dame for nobody,
no protective move made); ``'play'``, the board played to its end first
(:mod:`rulelab.scoring.finish`)."""

FINISH_BY_SOURCE: Mapping[str, str] = MappingProxyType(
    {source: "none" for source in ("kgs", "ogs", "igs", "nngs", "tygem", "fox")})
"""Servers that count a game's board as it stands when the players stop: their recorded
results count no move after the record's last (on KGS's records the board as it stands
reproduces the results; Fox's counts fill the dame alternately, :data:`DAME_POLICY_BY_SOURCE`).
Every other record, a professional game among them, is counted after the finish."""


STOPPED_KINDS = ("resign", "time", "forfeit")
"""Result kinds of games that stopped before any count: most stop mid-game, where a finish
would play out every open area of the board (141.7 moves a kgs-dev record against 45.7 a
counted one) for no count to reproduce, so they are counted as they stand."""


def finish_basis(source: str | None, finish: str = "auto", result_kind: str | None = None) -> str:
    """The basis (:data:`FINISH_BASES`) a record of ``source`` whose result is of
    ``result_kind`` is counted on: ``finish`` itself, or under ``'auto'`` its server's
    (:data:`FINISH_BY_SOURCE`, else ``'play'``); ``'none'`` for a game that stopped before
    any count (:data:`STOPPED_KINDS`), whatever ``finish``.

    Examples
    --------
    >>> finish_basis("kgs"), finish_basis(None), finish_basis("kgs", "play")
    ('none', 'play', 'play')
    >>> finish_basis(None, "play", "resign"), finish_basis(None, "play", "counted")
    ('none', 'play')
    """
    if finish != "auto" and finish not in FINISH_BASES:
        raise RulesError(f"The finish basis must be 'auto' or one of {', '.join(FINISH_BASES)}; got {finish!r}")
    if result_kind in STOPPED_KINDS:
        return "none"
    return FINISH_BY_SOURCE.get(source, "play") if finish == "auto" else finish


def server_ruleset(rules: str | None, source: str | None,
                   assumed: str | None = None) -> Ruleset | None:
    """The ruleset a record was counted under by its server, at the preset's komi.

    ``rules`` is the record's own (a key of :data:`PRESETS`, or None); a record that names
    none takes its server's (:data:`RULES_BY_SOURCE`), else ``assumed``, what the
    researcher knows of a collection (e.g. Japanese title games); None when no rules are
    known. The preset then gets the server's conventions: how it counts under that name
    (:data:`COUNTING_BY_SOURCE`) and how its records leave open dame
    (:func:`with_source_dame`).

    Raises
    ------
    RulesError
        For an ``assumed`` name that is no preset.

    Examples
    --------
    >>> server_ruleset(None, "tygem").refuse_owed
    False
    >>> server_ruleset("chinese", "fox").dame_policy
    'alternate'
    >>> server_ruleset(None, "kgs", assumed="japanese").name
    'japanese'
    >>> server_ruleset("japanese", "kgs").seki_points, server_ruleset("japanese", None).seki_points
    ('groups', 'chains')
    >>> server_ruleset("japanese", "kgs").dead_stones, server_ruleset("japanese", None).dead_stones
    ('lifted', 'standing')
    >>> server_ruleset(None, "kgs") is None
    True
    """
    name = rules or RULES_BY_SOURCE.get(source) or assumed
    if name is None:
        return None
    return with_source_dame(get_ruleset(name, **COUNTING_BY_SOURCE.get((source, name), {})), source)
