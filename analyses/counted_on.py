"""Print the finish basis a run folder's games were counted on: ``play``, ``none`` or
``mixed`` (:func:`rulelab.report.summary.counted_on`). ``make analysis`` reads it to score a
collection counted as its boards stand (KGS) once more on finished boards, which the
report's parity figures need (``rulelab report RUN OUT --finished RUN2``).

Usage: python -m analyses.counted_on RUN_DIR
"""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    from rulelab.analysis.inputs import check_run, read_run
    from rulelab.report.summary import counted_on

    if len(argv) != 1:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    print(counted_on(read_run(check_run(argv[0]))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
