"""Report part: Worked examples: the clearest games of each cause as board diagrams.

Usage: python -m analyses.examples RUN_DIR OUT_DIR
"""

from analyses.part import run_part

if __name__ == "__main__":
    run_part("examples", __doc__)
