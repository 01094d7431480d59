"""Which reading of seki KGS's Japanese counts follow: the evidence behind its
``seki_points='groups'`` (:data:`rulelab.rules.COUNTING_BY_SOURCE`).

A validate or score run counts each KGS Japanese record under KGS's ruleset (the whole-group
reading) and under the ``japanese`` preset (the text's reading, chains). Their margins before
komi differ only by that reading, so the game's margin by the text is its record row's plus
that difference. Prints, on the counted games whose count the reading changes, how many
recorded margins each reading reproduces exactly and within a point.

Usage: python -m analyses.seki_reading RUN_DIR
"""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    import numpy as np

    from rulelab.analysis.inputs import analysable_games, check_run, read_run

    if len(argv) != 1:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    run = read_run(check_run(argv[0]))
    games = analysable_games(run.games)
    games = games[(games["result_kind"] == "counted") & games["source"].eq("kgs") & games["rules"].eq("japanese")]
    games = games.drop_duplicates("game_id").set_index("game_id")
    rows = run.scores[run.scores["ruleset"] == "japanese"]
    record = rows[rows["komi_source"] == "record"].drop_duplicates("game_id").set_index("game_id")
    preset = rows[rows["komi_source"] == "standard"].drop_duplicates("game_id").set_index("game_id")
    ids = games.index.intersection(record.index).intersection(preset.index)
    groups = record.loc[ids, "margin"]
    chains = groups + preset.loc[ids, "margin_before_komi"] - record.loc[ids, "margin_before_komi"]
    recorded = np.where(games.loc[ids, "result_winner"] == "B", 1.0, -1.0) * games.loc[ids, "result_margin"].astype(float)
    changed = (chains != groups).to_numpy()
    print(f"{len(ids):,} counted KGS Japanese games; the reading of seki changes the count of {changed.sum():,}")
    for name, margin in (("groups (KGS)", groups), ("chains (the text)", chains)):
        miss = np.abs(margin.to_numpy() - recorded)[changed]
        print(f"{name}: exact {(miss == 0).sum():,}, within 1 {(miss <= 1).sum():,}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
