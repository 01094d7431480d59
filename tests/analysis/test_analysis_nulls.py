"""Every analysis works with missing values in every column it reads: years, ranks, komi,
rules and results may each be null (as pandas' nullable types or NaN), in any game."""

import warnings

import numpy as np
import pandas as pd
from analysis_tables import collection, score_row
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulelab.analysis  # noqa: F401  (registers df.go)
from rulelab.analysis import attribute, disagreement_matrix, fair_komi, game_strata, komi_outcomes
from rulelab.analysis.divergence import any_disagreement
from rulelab.analysis.findings import cause_shares, pair_rates
from rulelab.analysis.strata import STRATA

NULLABLE = {"year": "Int64", "komi": "Float64", "black_rank": "string", "white_rank": "string",
            "rules": "string", "result_margin": "Float64", "handicap": "Int64", "source": "string"}


def with_nulls(games: pd.DataFrame, holes: dict[str, list[bool]], nullable: bool) -> pd.DataFrame:
    out = games.copy()
    for column, where in holes.items():
        values = out[column].astype(NULLABLE[column]) if nullable else out[column].astype(object)
        values[np.array(where)] = pd.NA if nullable else None
        out[column] = values
    return out


holes = st.fixed_dictionaries({column: st.lists(st.booleans(), min_size=5, max_size=5) for column in NULLABLE})


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(holes, st.booleans())
def test_every_analysis_runs_with_missing_values(holes, nullable):
    games, scores = collection()
    record = scores[scores["ruleset"] == "japanese"].assign(komi_source="record")
    scores = pd.concat([scores, record], ignore_index=True)
    games = with_nulls(games, holes, nullable)
    assert len(game_strata(games)) == len(games)
    for basis in ("standard", "common"):
        disagreement_matrix(scores, games, komi_basis=basis)
        attribute(scores, games, komi_basis=basis)
    for by in STRATA:
        disagreement_matrix(scores, games, by=by)
        any_disagreement(scores, games, by=by)
    pair_rates(scores, games), cause_shares(scores, games)
    for outcomes in (komi_outcomes(games), komi_outcomes(games, scores, "chinese")):
        fair_komi(outcomes, adjust_for="rank_gap")
        for by in ("era", "rank_band", "komi_in_force"):
            fair_komi(outcomes, by=by)
    with warnings.catch_warnings():  # an empty result warns why; here only crashes count
        warnings.simplefilter("ignore", UserWarning)
        for ruleset in ("chinese", None):
            source = scores if ruleset else games
            source.go.komi_curve(games if ruleset else None, ruleset)
            source.go.fair_komi(games if ruleset else None, ruleset)
            source.go.rekomi(6.5, 7.5, games if ruleset else None, ruleset)
        scores.go.divergence(games, by="era")


def test_a_user_komi_run_says_so_everywhere():
    rows = [score_row("g", name, scoring, 0.5, komi_source=source, stones=(45, 36))
            for name, scoring in (("chinese", "area"), ("japanese", "territory"))
            for source in ("standard", "user")]
    table = attribute(pd.DataFrame(rows), only_disagreeing=False)
    assert set(table["komi_basis"]) == {"user"}
    assert set(disagreement_matrix(pd.DataFrame(rows))["komi_basis"]) == {"user"}
