"""Report part: Margins before komi per ruleset, with their parity structure.

Usage: python -m analyses.margins RUN_DIR OUT_DIR
"""

from analyses.part import run_part

if __name__ == "__main__":
    run_part("margins", __doc__)
