"""The simulation study of the fair-komi estimators: synthetic collections with a known fair
komi, made the way real ones are (komi in force by era, rank gaps, resignation, safe play,
time losses), and how often each estimator's 95% interval holds the truth.

Usage: python -m analyses.komi_study [--collections N] [--write-docs]

Prints the table; ``--write-docs`` also puts it in docs/ACCURACY.md between its markers.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rulelab.analysis.komi_simulation import SCENARIOS, study
from tools.doc_markers import replace_between

DOC = Path(__file__).resolve().parents[1] / "docs" / "ACCURACY.md"
BEGIN = "<!-- python -m analyses.komi_study --write-docs writes the table from here -->"
END = "<!-- to here (komi study) -->"


def markdown(table, collections: int) -> str:
    """The study's table as the page shows it."""
    lines = [f"{collections} collections per scenario of {SCENARIOS[0].games:,} even games each, "
             f"true fair komi {SCENARIOS[0].fair_komi:g} "
             "(`python -m analyses.komi_study --collections "
             f"{collections} --write-docs`):", "",
             "| scenario | estimator | identified | coverage of the 95% interval | mean error | RMSE | median width |",
             "|---|---|---|---|---|---|---|"]
    for row in table.itertuples(index=False):
        error = (("—", "—") if row.mean_error != row.mean_error
                 else (f"{row.mean_error:+.2f}", f"{row.rmse:.2f}"))
        width = f"{row.median_width:.2f}"
        lines.append(f"| {row.scenario} | {row.estimator} | {row.identified:.0%} | {row.coverage:.0%} | "
                     f"{error[0]} | {error[1]} | {width} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collections", type=int, default=200)
    parser.add_argument("--write-docs", action="store_true")
    args = parser.parse_args()
    table = study(SCENARIOS, args.collections)
    text = markdown(table, args.collections)
    print(text)
    if args.write_docs:
        replace_between(DOC, BEGIN, END, text)


if __name__ == "__main__":
    main()
