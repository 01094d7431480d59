"""Report part: Published komi figures beside the same quantities measured here.

Usage: python -m analyses.published RUN_DIR OUT_DIR
"""

from analyses.part import run_part

if __name__ == "__main__":
    run_part("published", __doc__)
