"""Report part: Fair komi by era, komi in force, board size, handicap, rank band and source.

Usage: python -m analyses.strata RUN_DIR OUT_DIR
"""

from analyses.part import run_part

if __name__ == "__main__":
    run_part("strata", __doc__)
