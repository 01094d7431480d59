"""Normalised game metadata from raw SGF root values (``RE``, ``KM``, ``RU``, ``HA``, ...).

Records from servers, books and programs write the same facts in many ways: results in
English, Chinese, Japanese or Korean, margins in points or in stones (zi), komi
multiplied by 100, rules under a dozen spellings. Every parser here takes the decoded
property text (None when absent), never raises on odd text, and says "unknown" (None,
or ``Result('unknown', ...)``) rather than guess. Each rule cites the evidence it rests
on, from a survey of 129,411 game roots: the development corpora and the 596 records of
Debian's ``goban-original-games``.
"""

from rulelab.read.metadata._text import parse_int
from rulelab.read.metadata.dates import parse_year, year_warning
from rulelab.read.metadata.handicap import Handicap, handicap_warning, infer_handicap
from rulelab.read.metadata.komi import komi_warning, parse_komi
from rulelab.read.metadata.ranks import parse_rank
from rulelab.read.metadata.result import Result, parse_result
from rulelab.read.metadata.rule_names import parse_rules
from rulelab.read.metadata.source import detect_source, margin_in_zi
from rulelab.read.metadata.truncation import moves_missing_after

__all__ = [
    "Handicap",
    "Result",
    "detect_source",
    "handicap_warning",
    "infer_handicap",
    "komi_warning",
    "margin_in_zi",
    "moves_missing_after",
    "parse_int",
    "parse_komi",
    "parse_rank",
    "parse_result",
    "parse_rules",
    "parse_year",
    "year_warning",
]
