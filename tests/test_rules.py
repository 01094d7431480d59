"""Rulesets as data: presets, lookups, overrides and the komi a ruleset may have."""

import math
from dataclasses import FrozenInstanceError, asdict, fields

import pytest

from rulelab.errors import RulesError
from rulelab.rules import (CHOICES, PRESETS, Ruleset, get_ruleset, replay_rules, server_ruleset,
                           with_source_dame)

# Every setting of every preset, as RULES.md specifies it. The columns are checked against
# the Ruleset dataclass, so a new setting cannot go untabled.
COLUMNS = ("scoring", "seki_tax", "handicap_bonus", "suicide", "ko", "tie_break", "komi",
           "remove_dead", "agreement", "pass_stones", "shared_points", "refuse_owed", "handicap_komi", "era_komi",
           "dame_policy", "seki_points", "dead_stones")
PRESET_TABLE = {
    "chinese": ("area", "none", "N", "none", "positional", "draw", 7.5, True, True, False, "split", False,
                0.0, ((2002, 5.5),), "none", "chains", "standing"),
    "chinese-1988": ("area", "none", "N", "none", "positional", "draw", 5.5, True, True, False, "split",
                     False, 0.0, (), "none", "chains", "standing"),
    "japanese": ("territory", "seki", "0", "none", "simple", "draw", 6.5, True, True, False, "nobody", True,
                 0.0, ((1975, 4.5), (2003, 5.5)), "none", "chains", "standing"),
    "korean": ("territory", "seki", "0", "none", "simple", "draw", 6.5, True, True, False, "nobody", True,
               0.0, ((1998, 5.5),), "none", "chains", "standing"),
    "ing": ("area", "none", "0", "multi", "positional", "black", 8.0, True, True, False, "pairs", False,
            0.0, (), "none", "chains", "standing"),
    "aga": ("area", "none", "N-1", "none", "situational", "draw", 7.5, True, True, True, "nobody", False,
            0.5, (), "none", "chains", "standing"),
    "nz": ("area", "none", "0", "any", "situational", "draw", 7.0, True, True, False, "nobody", False,
           0.0, (), "none", "chains", "standing"),
    "tromp-taylor": ("area", "none", "0", "multi", "positional", "draw", 7.5, False, False, False, "nobody",
                     False, 0.0, (), "none", "chains", "standing"),
    "stone-scoring": ("area", "all", "0", "none", "simple", "draw", 7.5, True, False, False, "nobody",
                      False, 0.0, (), "none", "chains", "standing"),
}


def test_the_table_has_a_column_for_every_setting():
    assert COLUMNS == tuple(f.name for f in fields(Ruleset) if f.name != "name")
    assert all(len(row) == len(COLUMNS) for row in PRESET_TABLE.values())


@pytest.mark.parametrize("name", PRESETS)
def test_preset_settings_follow_the_specification(name):
    r = PRESETS[name]
    assert asdict(r) == {"name": name, **dict(zip(COLUMNS, PRESET_TABLE[name]))}  # every field
    assert r.refuse_owed == (r.scoring == "territory")
    assert r.agreement == (name not in ("tromp-taylor", "stone-scoring"))


@pytest.mark.parametrize("name", PRESETS)
def test_replay_judges_moves_by_the_preset(name):
    _, _, _, suicide, ko, *_ = PRESET_TABLE[name]
    assert replay_rules(name) == (suicide, ko)
    assert replay_rules(name, superko=True) == (suicide, "positional")


def test_replay_of_unknown_rules_forbids_suicide_and_plays_simple_ko():
    assert replay_rules(None) == replay_rules("go with friends") == ("none", "simple")


@pytest.mark.parametrize("rules, source, assumed, expected", [
    ("chinese", "kgs", None, PRESETS["chinese"]),
    (None, "kgs", "japanese", get_ruleset("japanese", seki_points="groups", dead_stones="lifted")),
    (None, "kgs", None, None),
    (None, "tygem", "japanese", get_ruleset("korean", refuse_owed=False)),  # the server's rules first
    ("japanese", "tygem", None, PRESETS["japanese"]),  # a plain count under Korean rules only
    ("chinese", "fox", None, get_ruleset("chinese", dame_policy="alternate")),
    ("japanese", "fox", None, get_ruleset("japanese", dame_policy="alternate")),
    ("japanese", "kgs", None, get_ruleset("japanese", seki_points="groups", dead_stones="lifted")),  # KGS's seki and dead stones
    ("korean", "kgs", None, PRESETS["korean"]),
])
def test_the_ruleset_a_server_counted_a_record_under(rules, source, assumed, expected):
    assert server_ruleset(rules, source, assumed) == expected


@pytest.mark.parametrize("source, policy", [("fox", "alternate"), ("kgs", "none"), (None, "none")])
def test_every_ruleset_counts_open_dame_as_the_source_leaves_them(source, policy):
    assert {with_source_dame(r, source).dame_policy for r in PRESETS.values()} == {policy}
    assert with_source_dame(get_ruleset("nz", dame_policy="alternate"), "kgs").dame_policy == "alternate"


def test_every_preset_is_tabled():
    assert set(PRESETS) == set(PRESET_TABLE)


@pytest.mark.parametrize(
    "name, expected",
    [("chinese", "chinese"), ("Japanese", "japanese"), ("KOREAN", "korean"), ("aga", "aga"),
     ("NZ", "nz"), ("ing", "ing"), ("GOE", "ing"), ("tromp_taylor", "tromp-taylor"),
     ("Tromp Taylor", "tromp-taylor"), ("New Zealand", "nz"), (" chinese ", "chinese")],
)
def test_lookup_accepts_record_names_and_spellings(name, expected):
    assert get_ruleset(name) is PRESETS[expected]


def test_unknown_name_lists_the_valid_ones():
    with pytest.raises(RulesError, match="Unknown ruleset 'chinees'.*aga, chinese, chinese-1988"):
        get_ruleset("chinees")
    with pytest.raises(RulesError, match="must be a string"):
        get_ruleset(None)


def test_overrides_replace_settings_and_keep_the_name():
    ing_n = get_ruleset("ing", handicap_bonus="N", komi=7.5)
    assert (ing_n.name, ing_n.handicap_bonus, ing_n.komi) == ("ing", "N", 7.5)
    assert PRESETS["ing"].handicap_bonus == "0"  # the preset itself is untouched
    assert get_ruleset("korean", refuse_owed=False).refuse_owed is False


def test_unknown_override_names_the_settings():
    with pytest.raises(RulesError, match="Unknown setting 'kommi'.*komi"):
        get_ruleset("chinese", kommi=7)


@pytest.mark.parametrize("setting", sorted(CHOICES))
def test_impossible_choice_is_refused_with_the_options(setting):
    with pytest.raises(RulesError, match=f"The '{setting}' of ruleset 'chinese' must be one of"):
        get_ruleset("chinese", **{setting: "bogus"})


def test_flags_must_be_booleans():
    with pytest.raises(RulesError, match="'remove_dead' of ruleset 'chinese' must be True or"):
        get_ruleset("chinese", remove_dead=1)


@pytest.mark.parametrize("komi", [7.5, 7, -3.5, 0, 0.5, 2704])
def test_possible_komi(komi):
    assert get_ruleset("chinese").with_komi(komi).komi == float(komi)


@pytest.mark.parametrize(
    "komi, message",
    [
        (7.3, r"The 'komi' of ruleset 'chinese' must be a multiple of 0.5; got 7.3"),
        (0.25, r"multiple of 0.5; got 0.25"),
        (math.nan, r"must be finite; got nan"),
        (math.inf, r"must be finite; got inf"),
        (2704.5, r"must not exceed the 2704 points"),
        ("6.5", r"must be a number; got '6.5'"),
        (True, r"must be a number; got True"),
    ],
)
def test_impossible_komi_is_a_rules_error(komi, message):
    with pytest.raises(RulesError, match=message):
        get_ruleset("chinese").with_komi(komi)


def test_with_komi_keeps_every_other_setting():
    base = get_ruleset("aga")
    swept = base.with_komi(0.5)
    assert swept.komi == 0.5
    assert swept.with_komi(base.komi) == base


def test_rulesets_are_frozen_and_hashable():
    r = get_ruleset("nz")
    with pytest.raises(FrozenInstanceError):
        r.komi = 6.5
    assert len({r, get_ruleset("nz"), r.with_komi(6.5)}) == 2


@pytest.mark.parametrize(
    "bonus, handicap, expected",
    [("0", 4, 0), ("N", 4, 4), ("N-1", 4, 3), ("N-1", 1, 0), ("N-1", 0, 0), ("N", 0, 0)],
)
def test_white_handicap_bonus(bonus, handicap, expected):
    assert get_ruleset("chinese", handicap_bonus=bonus).white_handicap_bonus(handicap) == expected


def test_rules_error_is_a_value_error_with_a_status():
    with pytest.raises(ValueError) as caught:
        Ruleset(name="", scoring="area", seki_tax="none", handicap_bonus="0", suicide="none",
                ko="simple", tie_break="draw", komi=7.5)
    assert caught.value.status == "rules_error"
