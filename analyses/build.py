"""Build the whole report: ``python -m analyses.build RUN_DIR OUT_DIR``."""

import sys

from analyses.part import run
from rulelab.analysis.report import build_report

if __name__ == "__main__":
    sys.exit(run(build_report, __doc__))
