"""Report part: The collection: games by status, source and kind of result; scores rows.

Usage: python -m analyses.overview RUN_DIR OUT_DIR
"""

from analyses.part import run_part

if __name__ == "__main__":
    run_part("overview", __doc__)
