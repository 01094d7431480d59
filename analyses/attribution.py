"""Report part: Why rulesets disagree: each disagreement's margin difference split into causes.

Usage: python -m analyses.attribution RUN_DIR OUT_DIR
"""

from analyses.part import run_part

if __name__ == "__main__":
    run_part("attribution", __doc__)
