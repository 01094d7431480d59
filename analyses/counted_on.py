"""Print the finish basis a run folder's records were counted on by their servers: ``play``,
``none`` or ``mixed`` (:func:`rulelab.analysis.inputs.counted_on` under ``auto``). ``make
analysis`` scores every collection on finished boards, and reads this to score one whose
servers count the board as it stands (KGS) once more that way: the basis that reproduces its
records, and the sensitivity row of the report's rates (``rulelab report RUN OUT --as-stands RUN2``).

Usage: python -m analyses.counted_on RUN_DIR
"""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    from rulelab.analysis.inputs import check_run, counted_on, read_run

    if len(argv) != 1:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    print(counted_on(read_run(check_run(argv[0])), "auto"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
