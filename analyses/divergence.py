"""Report part: Where rulesets disagree: disagreement matrix overall and per stratum.

Usage: python -m analyses.divergence RUN_DIR OUT_DIR
"""

from analyses.part import run_part

if __name__ == "__main__":
    run_part("divergence", __doc__)
