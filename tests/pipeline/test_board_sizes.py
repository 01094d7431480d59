"""Every board SGF allows, through every layer: read, replayed, scored under every preset,
stored and drawn — boards one point wide, the smallest, a 37x37 record and the largest."""

from __future__ import annotations

from dataclasses import dataclass, field

import pyarrow.parquet as pq
import pytest

import rulelab
from positions import named_positions
from rulelab.analysis.game_diagram import draw_game
from rulelab.analysis.plots import save_figure
from rulelab.gamegen import random_legal_game
from rulelab.life.methods import EstimateMethod, GnuGoMethod, KataGoMethod, LifeMethod, on_board
from rulelab.pipeline import score as score_stage
from rulelab.pipeline.run import score
from rulelab.position import BLACK, sgf_point
from rulelab.rules import PRESETS


def moves_of(events) -> str:
    return "".join(f";{'B' if colour == BLACK else 'W'}[{'' if row < 0 else sgf_point(row, col)}]"
                   for _, colour, row, col in events.tolist())


RECORDS = {
    "one_wide": "(;GM[1]FF[4]SZ[7:1];B[ba];W[ca];B[da];W[ga];B[fa];W[];B[])",
    "one_wide_standing": "(;GM[1]FF[4]SZ[1:7];B[ab];W[ac];B[ad];W[ag];B[af];W[];B[])",
    "one_point": "(;GM[1]FF[4]SZ[1];B[];W[])",
    "one_point_suicide": "(;GM[1]FF[4]SZ[1];B[aa];W[];B[])",
    "two_by_two": "(;GM[1]FF[4]SZ[2];B[aa];W[ba];B[bb];W[];B[])",  # B[bb] captures W[ba]
    "largest": "(;GM[1]FF[4]SZ[52];B[YZ];W[ZZ];B[ZY];W[];B[])",  # Black takes the far corner stone
    "thirty_seven": f"(;GM[1]FF[4]SZ[37]{moves_of(random_legal_game(37, 37, 900, seed=3))})",
}
SIZES = {"one_wide": (1, 7), "one_wide_standing": (7, 1), "one_point": (1, 1), "one_point_suicide": (1, 1),
         "two_by_two": (2, 2), "largest": (52, 52), "thirty_seven": (37, 37)}
HAND_COUNTED = {"one_wide": "one_wide_with_captures", "one_wide_standing": "one_wide_standing",
                "one_point": "one_point_board", "two_by_two": "two_by_two_two_eyes"}
"""The records whose final board is a named position of ``data/positions/scoring.txt``."""


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("boards")
    for name, text in RECORDS.items():
        (folder / f"{name}.sgf").write_text(text)
    out = tmp_path_factory.mktemp("run") / "run"
    score([str(folder)], out, jobs=1)
    games = rulelab.read_games(out)
    games["name"] = games.source_path.map(lambda path: path.rsplit("/", 1)[-1].removesuffix(".sgf"))
    return out, games.set_index("name"), rulelab.read_scores(out), rulelab.read_life(out)


def test_every_record_is_read_and_replayed_on_its_own_board(run):
    _, games, _, _ = run
    assert sorted(games.index) == sorted(RECORDS)
    assert (games.status == "ok").all()
    assert {name: (row.board_rows, row.board_cols) for name, row in games.iterrows()} == SIZES
    assert games.loc["one_wide", "captured_white"] == 2 and games.loc["largest", "captured_white"] == 1
    assert games.loc["one_point_suicide", "illegal_moves"] == "1:suicide"  # no move but a pass is legal


def test_every_record_is_scored_under_every_preset_with_its_verdict_stored(run):
    _, games, scores, life = run
    assert scores.error.isna().all()
    standard = scores[scores.komi_source == "standard"]
    assert standard.groupby("game_id").ruleset.apply(sorted).map(tuple).unique().tolist() == [tuple(sorted(PRESETS))]
    assert sorted(life.game_id) == sorted(games.game_id)


@pytest.mark.parametrize("name", HAND_COUNTED)
def test_the_count_of_every_preset_is_the_hand_count(run, name):
    _, games, scores, _ = run
    expected = named_positions("scoring")[HAND_COUNTED[name]].margins()
    rows = scores[(scores.game_id == games.loc[name, "game_id"]) & (scores.komi_source == "standard")]
    assert dict(zip(rows.ruleset, rows.margin)) == {r: expected[r] - PRESETS[r].komi for r in PRESETS}


def test_a_suicide_on_the_one_point_board_is_played_and_its_stone_a_prisoner(run):
    _, games, scores, _ = run
    rows = scores[(scores.game_id == games.loc["one_point_suicide", "game_id"]) & (scores.komi_source == "standard")]
    territory = {r for r in PRESETS if PRESETS[r].scoring == "territory"}
    assert dict(zip(rows.ruleset, rows.margin)) == {r: -(r in territory) - PRESETS[r].komi for r in PRESETS}
    assert rows.has_illegal_moves.all() and not rows.finished.any()


def test_the_largest_board_counts_every_point(run):
    _, games, scores, _ = run
    rows = scores[(scores.game_id == games.loc["largest", "game_id"]) & (scores.komi_source == "standard")]
    tromp_taylor = rows[rows.ruleset == "tromp-taylor"].iloc[0]
    assert tromp_taylor.black_stones + tromp_taylor.black_territory == 52 * 52  # no stone removed


@pytest.mark.parametrize(("name", "last_column"), [("one_wide", "G"), ("one_wide_standing", "A"),
                                                   ("thirty_seven", "AM"), ("largest", "BB")])
def test_every_board_is_drawn_with_its_lines_named(run, tmp_path, name, last_column):
    out, games, _, _ = run
    figure = draw_game(out, games.loc[name, "game_id"])
    axes = figure.axes[0]
    rows, cols = SIZES[name]
    assert [label.get_text() for label in axes.get_xticklabels()][-1] == last_column
    assert (len(axes.get_yticks()), len(axes.get_xticks())) == (rows, cols)
    assert save_figure(figure, tmp_path / f"{name}.png").stat().st_size > 0


@dataclass(frozen=True)
class _Batched(LifeMethod):
    """A stand-in engine that reads boards up to 19x19 and keeps the shapes it is sent."""

    name: str = "engine"
    sent: list = field(default_factory=list)

    batched = True

    def takes(self, shape):
        return max(shape) <= 19

    def decide(self, position, *, rng_seed=0):
        raise AssertionError("a batched engine is asked in batches")

    def decide_batch(self, positions, *, rng_seed=0):
        self.sent.extend(position.shape for position in positions)
        return [EstimateMethod().decide(position) for position in positions]


def test_an_engine_is_sent_only_the_boards_it_reads_and_the_estimator_decides_the_rest(run):
    out, _, _, _ = run
    rows = pq.read_table(out / "games.parquet").to_pylist()
    engine = _Batched()
    verdicts = score_stage._batch_verdicts(rows, engine)
    assert sorted(engine.sent) == sorted(shape for shape in SIZES.values() if max(shape) <= 19)
    assert [verdict is None for verdict in verdicts] == [max(row["board_rows"], row["board_cols"]) > 19
                                                         for row in rows]
    assert [on_board(method, (1, 7)).name for method in (KataGoMethod(), GnuGoMethod())] == ["estimate"] * 2
    assert on_board(engine, (37, 37)).name == "estimate" and on_board(engine, (19, 19)) is engine
