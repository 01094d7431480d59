"""Normalisation of SGF root values: one case per rule, each a form met in real records."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulelab.errors import RulesError
from rulelab.read.metadata import (
    Handicap,
    Result,
    detect_source,
    infer_handicap,
    margin_in_zi,
    parse_int,
    parse_komi,
    parse_rank,
    parse_result,
    parse_rules,
    parse_year,
    year_warning,
)
from rulelab.rules import PRESETS

KINDS = {"counted", "resign", "time", "forfeit", "draw", "void", "unknown"}

# --- results -------------------------------------------------------------------------

RESULTS = [
    # SGF standard forms
    ("B+3.5", Result("counted", "B", 3.5)),
    ("W+12.50", Result("counted", "W", 12.5)),
    ("W+R", Result("resign", "W")),
    ("B+Resign", Result("resign", "B")),
    ("W+T", Result("time", "W")),
    ("W+Time", Result("time", "W")),
    ("B+F", Result("forfeit", "B")),
    ("B+Forfeit", Result("forfeit", "B")),
    ("0", Result("draw", None)),
    ("Draw", Result("draw", None)),
    ("draw", Result("draw", None)),
    ("Jigo", Result("draw", None)),
    ("JIGO", Result("draw", None)),
    ("DRAW", Result("draw", None)),
    ("Void", Result("void", None)),
    ("?", Result("unknown", None)),
    ("", Result("unknown", None)),
    # winner without a kind
    ("B", Result("unknown", "B")),
    ("W", Result("unknown", "W")),
    ("B+", Result("unknown", "B")),
    ("B+, human judge for communication error ", Result("unknown", "B")),
    # Fox: wins with no margin, and margin noise
    ("B+0.0", Result("unknown", "B")),
    ("W+0.02", Result("unknown", "W")),
    ("B+0.03", Result("unknown", "B")),
    # tie won by rule (1960s Meijin, komi 5)
    ("W+Jigo", Result("counted", "W", 0.0)),
    ("W+0", Result("counted", "W", 0.0)),
    ("B+0", Result("counted", "B", 0.0)),
    ("W+J", Result("counted", "W", 0.0)),
    ("w+j", Result("counted", "W", 0.0)),
    ("W+jigo", Result("counted", "W", 0.0)),
    # computer tournaments
    ("B+Illegal", Result("forfeit", "B")),
    ("W+Repetition", Result("forfeit", "W")),
    ("B+V", Result("forfeit", "B")),
    ("B+J", Result("counted", "B", 0.0)),
    ("W+AW", Result("unknown", "W")),
    ("D+J", Result("draw", None)),
    ("W+Time Over", Result("time", "W")),
    ("B+1.5 ? W+timeout", Result("unknown", None)),
    ("has adjourned.", Result("unknown", None)),
    # free text and trailing words
    ("White resigns. W 6.5 B 157.0", Result("resign", "B")),
    ("Black resigns. W 25.5 B 17.0", Result("resign", "W")),
    ("White wins by resignation", Result("resign", "W")),
    ("Black wins by time.", Result("time", "B")),
    ("White wins by 6.5 points", Result("counted", "W", 6.5)),
    ("W+R (152 moves)", Result("resign", "W")),
    ("B+R.", Result("resign", "B")),
    ("B+7.5?", Result("counted", "B", 7.5)),
    ("b+r", Result("resign", "B")),
    # Chinese
    ("黑胜3/4子", Result("counted", "B", 1.5)),
    ("黑胜2又1/4子", Result("counted", "B", 4.5)),
    ("黑胜1又¾子", Result("counted", "B", 3.5)),
    ("黑胜四分之三子", Result("counted", "B", 1.5)),
    ("白胜半子", Result("counted", "W", 1.0)),
    ("黑胜7.5点", Result("counted", "B", 7.5)),
    ("白中盘胜", Result("resign", "W")),
    ("黑认输", Result("resign", "W")),
    ("黑超时负", Result("time", "W")),
    ("不计胜负", Result("void", None)),
    ("和棋", Result("draw", None)),
    # Japanese
    ("黒1目半勝", Result("counted", "B", 1.5)),
    ("黒半目勝", Result("counted", "B", 0.5)),
    ("白十一目半勝", Result("counted", "W", 11.5)),
    ("白中押し勝", Result("resign", "W")),
    ("黒中押勝", Result("resign", "B")),
    ("黒時間切れ負け", Result("time", "W")),
    ("白反則勝ち", Result("forfeit", "W")),
    ("持碁", Result("draw", None)),
    ("無勝負", Result("void", None)),
    # Korean
    ("백 3집반승", Result("counted", "W", 3.5)),
    ("흑 반집승", Result("counted", "B", 0.5)),
    ("백불계승", Result("resign", "W")),
    ("흑 시간승", Result("time", "B")),
    ("무승부", Result("draw", None)),
    # UTF-8 黑胜3/4子 read as cp1252 (bytes cp1252 lacks kept as Latin-1)
    ("é»‘èƒœ3/4å\xad\x90", Result("counted", "B", 1.5)),
]


@pytest.mark.parametrize("raw, expected", RESULTS, ids=[repr(raw) for raw, _ in RESULTS])
def test_result_forms(raw, expected):
    assert parse_result(raw) == expected


ZI_RESULTS = [
    ("W+1.25", Result("counted", "W", 2.5)),   # Fox Chinese: 1¼ zi
    ("B+0.75", Result("counted", "B", 1.5)),
    ("W+3.2", Result("counted", "W", 6.5)),    # Fox's one-decimal 3.25 zi
    ("B+0.0", Result("unknown", "B")),
    ("W+R", Result("resign", "W")),
    ("黒1目半勝", Result("counted", "B", 1.5)),  # an explicit points unit wins over zi
]


@pytest.mark.parametrize("raw, expected", ZI_RESULTS, ids=[r for r, _ in ZI_RESULTS])
def test_zi_margins_are_doubled(raw, expected):
    assert parse_result(raw, zi=True) == expected


def test_absent_result_is_unknown():
    assert parse_result(None) == Result("unknown", None, None)


# --- komi ----------------------------------------------------------------------------

KOMI = [
    ("6.5", None, 0, 6.5),
    ("0.50", None, 0, 0.5),                # KGS handicap games
    ("7.500000", None, 0, 7.5),
    ("5.", None, 0, 5.0),
    ("6,5", None, 0, 6.5),
    ("-20.00", None, 0, -20.0),            # KGS negative komi
    ("0", None, 0, 0.0),                   # old Japanese games really had no komi
    ("650", "fox", 0, 6.5),                # Fox ×100
    ("750", None, 0, 7.5),
    ("375", "fox", 0, 7.5),                # Fox stones ×100: 3.75 zi
    ("275", None, 0, 5.5),
    ("325", "fox", 2, 6.5),
    ("3.75", None, 0, 7.5),                # Chinese zi komi
    ("2.75", None, 0, 5.5),
    ("3¾", None, 0, 7.5),
    ("黑贴3又3/4子", None, 0, 7.5),
    ("6目半", None, 0, 6.5),
    ("덤 6집반", None, 0, 6.5),
    ("0", "fox", 0, None),                 # Fox writes 0 on even games that had komi
    ("0", "fox", 3, 0.0),                  # ... and means it in handicap games
    (None, None, 0, None),                 # missing komi is unknown, not 0
    ("", None, 0, None),
    ("x", None, 0, None),
    ("99999999", None, 0, None),
]


@pytest.mark.parametrize("raw, source, handicap, expected", KOMI,
                         ids=[f"{raw!r}-{source}-{handicap}" for raw, source, handicap, _ in KOMI])
def test_komi_forms(raw, source, handicap, expected):
    assert parse_komi(raw, source=source, handicap=handicap) == expected


def test_komi_rejects_negative_handicap():
    with pytest.raises(RulesError, match="'handicap' parameter of parse_komi"):
        parse_komi("6.5", handicap=-1)


# --- rules ---------------------------------------------------------------------------

RULES = [
    ("Japanese", "japanese"), ("japanese", "japanese"), ("jp", "japanese"),
    ("日本规则", "japanese"), ("日本ルール", "japanese"),
    ("Chinese", "chinese"), ("chinese", "chinese"), ("CN", "chinese"), ("中国规则", "chinese"),
    ("Chinese (komi 7.5)", "chinese"),
    ("Korean", "korean"), ("韩国规则", "korean"), ("한국룰", "korean"),
    ("AGA", "aga"), ("aga", "aga"),
    ("NZ", "nz"), ("New Zealand", "nz"),
    ("Tromp-Taylor", "tromp-taylor"), ("TrompTaylor", "tromp-taylor"),
    ("tromp_taylor", "tromp-taylor"), ("Tromp/Taylor", "tromp-taylor"), ("TT--", "tromp-taylor"),
    ("GOE", "ing"), ("Ing", "ing"), ("Ing Goe", "ing"), ("SST", "ing"), ("应氏规则", "ing"),
    ("koPOSITIONALscoreAREAtaxNONEsui1", "tromp-taylor"),
    ("koPOSITIONALscoreAREAtaxNONEsui1fpok1", "ing"),
    ("koSIMPLEscoreAREAtaxNONEsui0whbNfpok1", "chinese"),
    ("koPOSITIONALscoreAREAtaxNONEsui0whbNfpok1", "chinese"),
    ("koSIMPLEscoreTERRITORYtaxSEKIsui0", "japanese"),
    ("koSITUATIONALscoreAREAtaxNONEsui0button1whbN-1fpok1komi7", "aga"),
    ("koSITUATIONALscoreAREAtaxNONEsui1fpok1", "nz"),
    ("koSIMPLEscoreAREAtaxALLsui0fpok1", "stone-scoring"),
    ("koSIMPLEscoreTERRITORYtaxALLsui0", None),     # ancient territory: no preset
    ("Chinese/Japanese", None),
    ("", None), (None, None), ("foo", None),
]


@pytest.mark.parametrize("raw, expected", RULES, ids=[repr(raw) for raw, _ in RULES])
def test_rules_spellings(raw, expected):
    assert parse_rules(raw) == expected


def test_every_rules_name_is_a_preset():
    names = {parse_rules(raw) for raw, _ in RULES} - {None}
    assert names <= set(PRESETS)


# --- handicap ------------------------------------------------------------------------

HANDICAPS = [
    # HA, AB, AW, opening Black moves
    (("3", 3, 0, 0), Handicap(3, False, "HA")),        # KGS
    (("0", 0, 0, 1), Handicap(0, False, "HA")),
    ((None, 0, 0, 1), Handicap(0, False, "none")),      # Tygem even game
    ((None, 4, 0, 0), Handicap(4, False, "setup")),
    ((None, 0, 0, 4), Handicap(4, False, "moves")),     # handicap placed as moves
    (("5", 0, 0, 5), Handicap(5, False, "HA")),
    (("1", 0, 0, 1), Handicap(0, False, "HA")),         # HA[1]: no komi, no stones
    (("3", 0, 0, 0), Handicap(3, True, "HA")),          # Fox: HA without AB
    (("4", 5, 0, 0), Handicap(5, True, "setup")),       # the board wins when it shows stones
    (("0", 0, 0, 2), Handicap(2, True, "moves")),
    (("7.5", 0, 0, 1), Handicap(0, False, "none")),     # non-numeric HA is absent
    (("0", 24, 20, 0), Handicap(0, False, "HA")),       # set-up position
    ((None, 64, 0, 0), Handicap(0, False, "none")),     # Fuego safety test position
    ((None, 1, 0, 0), Handicap(0, False, "none")),
]


@pytest.mark.parametrize("args, expected", HANDICAPS, ids=[repr(a) for a, _ in HANDICAPS])
def test_handicap_evidence(args, expected):
    assert infer_handicap(*args) == expected


@pytest.mark.parametrize("args", [("2", -1, 0, 0), ("2", 0, 1.5, 0), ("2", 0, 0, True)])
def test_handicap_rejects_impossible_counts(args):
    with pytest.raises(RulesError, match="parameter of infer_handicap"):
        infer_handicap(*args)


# --- source and zi margins -----------------------------------------------------------

FOX_ROOT = {"GN": "", "DT": "2019-10-10", "BR": "P9段", "WR": "P7段", "KM": "375", "HA": "0",
            "RU": "Chinese", "AP": "GNU Go:3.8", "RE": "B+R", "TM": "7200", "TC": "3",
            "TT": "15"}
SOURCES = [
    ({"PC": "The KGS Go Server at http://www.gokgs.com/"}, "kgs"),
    ({"PC": "The Kiseido Go Server (KGS) at http://kgs.kiseido.com/"}, "kgs"),
    ({"PC": "Tygem", "AP": "rulelab-convert",
      "GC": "rules not recorded; Tygem convention: Korean (territory) rules, komi 6.5."}, "tygem"),
    ({"PC": "Tygem", "TC": "3", "TT": "20"}, "tygem"),           # Master on Tygem
    (FOX_ROOT, "fox"),                                            # AP borrowed from GNU Go
    ({"AP": ["GNU Go:3.8", "foxwq"]}, "fox"),                     # both AP values
    ({"PC": "Fox"}, "fox"),
    ({"PC": "OGS: https://online-go.com/game/38321258"}, "ogs"),
    ({"PC": "(CGOS) 9x9 Computer Go Server", "PB": "Fuego"}, "cgos"),
    ({"EV": "11th UEC Cup (UEC Cup 2019)", "AP": "NNGS:1.1.22"}, "uec"),
    ({"PC": "NNGS"}, "nngs"),
    ({"US": "Brought to you by No Name Go Server"}, "nngs"),
    ({"PC": "IGS"}, "igs"),
    ({"SO": "GoGoD"}, "gogod"),
    ({"AP": "gnugoclient:2.0"}, "gnugo"),
    ({"GN": "GNU Go 3.3.15 load and print"}, "gnugo"),
    ({"AP": "GoGui:1.4.0", "PB": "Fuego", "PW": "MoGo"}, "fuego"),
    ({"PC": "Tokyo", "EV": "7th Meijin Title Match"}, None),
    ({}, None),
]


@pytest.mark.parametrize("props, expected", SOURCES,
                         ids=[f"{expected}-{i}" for i, (_, expected) in enumerate(SOURCES)])
def test_source_tells(props, expected):
    assert detect_source(props) == expected


ZI_PROPS = [
    (FOX_ROOT, True),                                              # KM[375]: komi in zi
    ({"KM": "3.75", "RE": "B+2"}, True),
    ({"KM": "0", "RU": "Chinese", "TC": "3", "TT": "30"}, True),   # Fox native, Chinese
    ({"KM": "7.5", "RU": "Chinese", "TC": "3", "TT": "30"}, False),  # Fox re-export
    ({"KM": "650", "RU": "Japanese", "TC": "3", "TT": "30"}, False),
    ({"KM": "0", "RU": "Chinese", "PC": "KGS"}, False),
    ({"RE": "W+1.25"}, True),                                      # quarter margin
    ({"KM": "6.50", "RE": "W+12.50"}, False),
]


@pytest.mark.parametrize("props, expected", ZI_PROPS, ids=[str(i) for i in range(len(ZI_PROPS))])
def test_margin_in_zi(props, expected):
    assert margin_in_zi(props) is expected


def test_margin_in_zi_takes_a_known_source():
    assert margin_in_zi({"KM": "0", "RU": "Chinese"}, "fox") is True


# --- dates, ranks, integers ----------------------------------------------------------

YEARS = [
    ("2017-01-13", 2017), ("2003-05-01,02", 2003), ("1941", 1941), ("1941-", 1941),
    ("[2005-11-02]", 2005), ("2000-10-24,2000-10-30", 2000), ("Sept 18/19, 1965", 1965),
    ("01.08.2001", 2001), ("2016.12.31 10:18:13", 2016), ("1966, August 5,6", 1966),
    ("Sun Mar 16 15:12:20 GMT+09:00 2014", 2014), ("2016年3月9日", 2016),
    ("二〇一六年三月九日", 2016), ("昭和50年", 1975), ("平成元年", 1989), ("96-05-12", None),
    ("", None), (None, None),
]


@pytest.mark.parametrize("raw, expected", YEARS, ids=[repr(raw) for raw, _ in YEARS])
def test_year_forms(raw, expected):
    assert parse_year(raw) == expected


@pytest.mark.parametrize("raw", ["昭和99999年", "平成" + "9" * 5000 + "年", "12345年", "99999-01-01",
                                 "0999-05-01"])
def test_a_stated_year_the_column_cannot_hold_is_null_with_a_warning(raw):
    assert parse_year(raw) is None
    assert "is outside 1000-2999; stored as null" in year_warning(raw)


@pytest.mark.parametrize("raw", ["2016-03-09", "昭和50年", "96-05-12", "Honinbo", "", None])
def test_a_year_read_or_never_stated_has_no_warning(raw):
    assert year_warning(raw) is None


RANKS = [
    ("9d", "9d"), ("7d", "7d"), ("13k*", "13k"), ("15k* IGS", "15k"), ("1p", "1p"),
    ("9段", "9d"), ("P9段", "9p"), ("P9", "9p"), ("9P", "9p"), ("18级", "18k"),
    ("9 Dan", "9d"), ("7 \r\ndan", "7d"), ("4 Dan Professional", "4p"), ("9d, Tengen", "9d"),
    ("初段", "1d"), ("九段", "9d"), ("프로9단", "9p"), ("아마5단", "5d"), ("5급", "5k"),
    ("9æ®µ", "9d"),                                    # UTF-8 9段 read as cp1252
    ("9娈礭\nWR\\[9娈礭", "9d"),                         # the same bytes read as GBK
    ("11.6k", "11k"),
    ("2126", None), ("NR", None), ("Honinbo", None), ("P", None), ("", None), (None, None),
]


@pytest.mark.parametrize("raw, expected", RANKS, ids=[repr(raw) for raw, _ in RANKS])
def test_rank_forms(raw, expected):
    assert parse_rank(raw) == expected


@pytest.mark.parametrize("raw, expected", [("3", 3), (" 9 ", 9), ("2.0", 2), ("７", 7),
                                           ("7.5", None), ("x", None), ("", None), (None, None)])
def test_int_forms(raw, expected):
    assert parse_int(raw) == expected


@pytest.mark.parametrize("call", [lambda: parse_result(b"B+R"), lambda: parse_komi(6.5),
                                  lambda: parse_rules(1), lambda: parse_year(2017),
                                  lambda: infer_handicap(2, 2, 0, 0),
                                  lambda: detect_source({"PC": 1})])
def test_values_must_be_decoded_text(call):
    with pytest.raises(TypeError, match="must"):
        call()


# --- never raise on text -------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(st.text(), st.booleans())
def test_result_never_raises(raw, zi):
    result = parse_result(raw, zi=zi)
    assert result.kind in KINDS and result.winner in {"B", "W", None}
    assert (result.margin is not None) == (result.kind == "counted")
    assert result.margin is None or (math.isfinite(result.margin) and result.margin >= 0)


@settings(max_examples=300, deadline=None)
@given(st.text(), st.sampled_from([None, "fox", "kgs"]), st.integers(0, 9))
def test_komi_never_raises(raw, source, handicap):
    komi = parse_komi(raw, source=source, handicap=handicap)
    assert komi is None or math.isfinite(komi)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_rules_year_rank_never_raise(raw):
    assert parse_rules(raw) in set(PRESETS) | {None}
    year = parse_year(raw)
    assert year is None or 1000 <= year <= 2999
    parse_rank(raw)


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.none(), st.text()), st.integers(0, 400), st.integers(0, 400),
       st.integers(0, 400))
def test_handicap_never_raises_on_counts(ha, black, white, opening):
    handicap = infer_handicap(ha, black, white, opening)
    assert handicap.value >= 0 and handicap.how in {"HA", "setup", "moves", "none"}


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["AP", "PC", "GC", "EV", "GN", "KM", "RU", "RE", "TC"]),
                       st.text()))
def test_source_and_zi_never_raise(props):
    detect_source(props)
    margin_in_zi(props)
