"""Which counting conventions the recorded results of each source follow (dame policy,
handicap compensation, protective moves): the evidence behind rulelab's defaults.

Usage: python -m analyses.conventions RUN_DIR
"""

import sys

from rulelab.analysis.conventions import convention_agreement
from rulelab.analysis.inputs import read_run
from rulelab.errors import RulelabError

if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    try:
        run = read_run(sys.argv[1])
        print(convention_agreement(run.scores, run.games).to_string(index=False))
    except RulelabError as error:
        print(f"rulelab: {error}", file=sys.stderr)
        sys.exit(2)
