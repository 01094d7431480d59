"""Analyses of scored game collections: divergence between rulesets, its causes,
komi and win rates. Importing the package registers the ``df.go`` accessor.

The functions take and return DataFrames; figures live in :mod:`rulelab.analysis.plots`
and :mod:`rulelab.analysis.diagrams`, imported on demand because they need matplotlib. The
report built from them is :mod:`rulelab.report`.
"""

import rulelab.shadowing  # noqa: F401  (first: names a folder that shadows the package)
from rulelab.analysis import accessor  # noqa: F401  (registers df.go)
from rulelab.analysis.attribution import CAUSES, PARTS, attribute, cause_summary, clearest_examples, ledger
from rulelab.analysis.divergence import any_disagreement, disagreement_matrix, matrix_wide, winners
from rulelab.analysis.komi import (fair_komi, fair_komi_sensitivity, headline_fair_komi, margin_distribution,
                                  margin_fit, record_agreement, rekomi_flips, win_rate_by_komi, win_rate_curve)
from rulelab.analysis.outcomes import komi_outcomes
from rulelab.analysis.published import PUBLISHED, compare_published
from rulelab.analysis.stats import fit_komi_response, fit_logistic, wilson_interval
from rulelab.analysis.strata import STRATA, game_strata
from rulelab.analysis.inputs import Run, read_run
from rulelab.analysis.selection import komi_population, record_gaps

__all__ = ["CAUSES", "PARTS", "PUBLISHED", "STRATA", "Run", "any_disagreement", "attribute",
           "cause_summary", "clearest_examples", "compare_published", "disagreement_matrix", "fair_komi",
           "fair_komi_sensitivity", "fit_komi_response", "fit_logistic", "game_strata", "headline_fair_komi",
           "komi_outcomes", "komi_population", "ledger", "margin_distribution", "margin_fit", "matrix_wide",
           "read_run", "record_agreement", "record_gaps", "rekomi_flips", "wilson_interval",
           "win_rate_by_komi", "win_rate_curve", "winners"]
