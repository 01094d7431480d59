"""Report part: Black's win rate against komi, and the fair komi with and without censored games.

Usage: python -m analyses.komi RUN_DIR OUT_DIR
"""

from analyses.part import run_part

if __name__ == "__main__":
    run_part("komi", __doc__)
