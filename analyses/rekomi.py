"""Report part: Counterfactual komi: counted results that flip between two komi.

Usage: python -m analyses.rekomi RUN_DIR OUT_DIR
"""

from analyses.part import run_part

if __name__ == "__main__":
    run_part("rekomi", __doc__)
