"""The score stage and validation end to end, on small records whose counts are worked by hand."""

import builtins
import io
import os
import tarfile
import zipfile
from collections import Counter

import pandas as pd
import pytest

from rulelab.cli import main
from rulelab.errors import GameError, InputError, RulesError
from rulelab.life.methods import AutoMethod
from rulelab.pipeline import score as score_run
from rulelab.pipeline.run import ingest, score, validate
from rulelab.pipeline.score import read_scores
from rulelab.pipeline.validate import IMPOSSIBLE_PARITY
from rulelab.position import Position
from rulelab.rules import PRESETS, played_out
from rulelab.store.tables import read_provenance

# 5×5: Black wall on column b, White wall on column c; Black owns column a (5 points),
# White owns columns d–e (10 points). Area 10 – 15, territory 5 – 10, no prisoners.
WALLS = ("(;GM[1]FF[4]SZ[5]RU[Chinese]KM[7.5]RE[W+12.5]"
         "AB[ba][bb][bc][bd][be]AW[ca][cb][cc][cd][ce];B[];W[])")
# The same position counted by a server under Japanese rules with komi 6.5.
WALLS_JAPANESE = WALLS.replace("RU[Chinese]KM[7.5]RE[W+12.5]", "RU[Japanese]KM[6.5]RE[W+11.5]")
# A resigned game takes no part in validation.
RESIGNED = "(;GM[1]FF[4]SZ[5]KM[6.5]RE[B+R];B[cc];W[bb])"


@pytest.fixture
def collection(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "walls.sgf").write_text(WALLS)
    (folder / "walls-j.sgf").write_text(WALLS_JAPANESE)
    (folder / "resigned.sgf").write_text(RESIGNED)
    return folder


def test_every_game_is_scored_under_every_preset_and_its_own_rules(collection, tmp_path):
    score([collection], tmp_path / "run", jobs=1)
    scores = read_scores(tmp_path / "run")
    assert len(scores) == 3 * len(PRESETS) + 2  # two records name their rules and komi
    games = pd.read_parquet(tmp_path / "run" / "games.parquet")
    walls_id = games.game_id[games.source_path.str.endswith("/walls.sgf")].item()
    walls = scores[scores.game_id == walls_id].set_index(["ruleset", "komi_source"])
    assert walls.loc[("chinese", "standard"), "margin"] == -12.5
    assert walls.loc[("chinese", "standard"), ["black_zi", "black_zi_after_komi"]].tolist() == [10, 6.25]
    assert walls.loc[("japanese", "standard"), "margin"] == -11.5
    assert walls.loc[("ing", "standard"), "margin"] == -13.0
    assert walls.loc[("chinese", "record"), "komi"] == 7.5
    assert (scores.margin == scores.margin_before_komi - scores.komi).all()
    assert scores.error.isna().all()


def test_user_komi_adds_rows_and_keeps_the_standard_and_the_records_own(collection, tmp_path):
    score([collection], tmp_path / "run", jobs=1, komi=0.5, rules=["chinese", "japanese"])
    scores = read_scores(tmp_path / "run")
    assert set(scores.komi[scores.komi_source == "user"]) == {0.5}
    assert scores.komi_source.value_counts().to_dict() == {"standard": 3 * 2, "user": 3 * 2, "record": 2}
    user = scores[scores.komi_source == "user"].set_index(["game_id", "ruleset"])
    standard = scores[scores.komi_source == "standard"].set_index(["game_id", "ruleset"])
    assert (user.margin_before_komi == standard.margin_before_komi).all()


def test_a_game_that_cannot_be_scored_keeps_its_rows_with_the_reason(collection, tmp_path, monkeypatch):
    def refuse(self, position, *, rng_seed=0):
        raise GameError("no verdict for this board")

    monkeypatch.setattr(AutoMethod, "decide", refuse)
    score([collection], tmp_path / "run", jobs=1, rules=["chinese"])
    scores = read_scores(tmp_path / "run")
    assert len(scores) == 3 + 2
    assert scores.error.str.contains("game_error: no verdict").all()
    assert scores.margin.isna().all()


@pytest.fixture
def inputs(collection, tmp_path):
    """A folder, a plain file, a tar.gz and a zip: every kind of input, each opened once."""
    archives = tmp_path / "archives"
    archives.mkdir()
    with tarfile.open(archives / "games.tar.gz", "w:gz") as tar:
        member = tarfile.TarInfo("walls.sgf")
        member.size = len(WALLS.encode())
        tar.addfile(member, io.BytesIO(WALLS.encode()))
    with zipfile.ZipFile(archives / "games.zip", "w") as archive:
        archive.writestr("resigned.sgf", RESIGNED)
    (archives / "named.sgf").write_text(WALLS_JAPANESE)
    return [collection, archives / "games.tar.gz", archives / "games.zip", archives / "named.sgf"]


def counted_opens(monkeypatch, roots) -> Counter:
    """Every open of a file under ``roots``, through os.open or io.open, by path."""
    opened = Counter()
    roots = [str(root) for root in roots]

    def counting(real):
        def opener(path, *args, **kwargs):
            if isinstance(path, (str, os.PathLike)) and str(path).startswith(tuple(roots)):
                opened[str(path)] += 1
            return real(path, *args, **kwargs)
        return opener

    monkeypatch.setattr(os, "open", counting(os.open))
    monkeypatch.setattr(io, "open", counting(io.open))
    monkeypatch.setattr(builtins, "open", counting(builtins.open))
    return opened


COMMANDS = {
    "ingest": lambda paths, out: ingest(paths, out, jobs=1),
    "score": lambda paths, out: score(paths, out, rules=["chinese"], jobs=1),
    "validate": lambda paths, out: validate(paths, out, jobs=1),
}


@pytest.mark.parametrize("before, command", [(None, "ingest"), (None, "score"), ("ingest", "score"),
                                             ("score", "score"), (None, "validate"), ("ingest", "validate"),
                                             ("validate", "validate")])
def test_every_command_reads_each_input_once(inputs, tmp_path, monkeypatch, before, command):
    """Each input is opened, read and hashed once per command, whatever the run folder
    holds (nothing, an ingest, the scores of the same options), and what is there stays."""
    run = tmp_path / "run"
    if before is not None:
        COMMANDS[before](inputs, run)
    kept = {name: (run / name).read_bytes() for name in ("games.parquet", "scores.parquet")
            if (run / name).is_file()}
    opened = counted_opens(monkeypatch, [inputs[0], inputs[1].parent])
    COMMANDS[command](inputs, run)
    files = [inputs[0] / name for name in ("resigned.sgf", "walls-j.sgf", "walls.sgf")] + inputs[1:]
    assert opened == Counter({str(path): 1 for path in files})
    assert {name: (run / name).read_bytes() for name in kept} == kept


def test_scores_older_than_the_ingest_are_made_again_from_one_read(inputs, tmp_path, monkeypatch):
    """Not one read to find the scores stale and another to score."""
    run = tmp_path / "run"
    validate(inputs, run, jobs=1)
    inputs[3].write_text(WALLS)
    ingest(inputs, run, jobs=1, force=True)
    opened = counted_opens(monkeypatch, [inputs[0], inputs[1].parent])
    validate(inputs, run, jobs=1)
    assert sorted(opened.values()) == [1] * 6
    assert read_provenance(run / "scores.parquet")["inputs"] == read_provenance(run / "games.parquet")["inputs"]


def test_an_ingest_of_other_contents_is_replaced_only_with_force(collection, tmp_path):
    ingest([collection], tmp_path / "run", jobs=1)
    games = (tmp_path / "run" / "games.parquet").read_bytes()
    (collection / "resigned.sgf").write_text(RESIGNED.replace("B+R", "W+R"))
    with pytest.raises(InputError, match="other contents of these inputs; overwrite it with force=True"):
        score([collection], tmp_path / "run", rules=["chinese"], jobs=1)
    assert (tmp_path / "run" / "games.parquet").read_bytes() == games
    assert not (tmp_path / "run" / "scores.parquet").exists()
    score([collection], tmp_path / "run", rules=["chinese"], jobs=1, force=True)
    assert "W" in pd.read_parquet(tmp_path / "run" / "games.parquet").result_winner.tolist()


def test_validation_reproduces_recorded_counts(collection, tmp_path):
    (collection / "no-game.sgf").write_text("not a game record")  # a row with no board size
    summary = validate([collection], tmp_path / "run", jobs=1)
    assert summary.loc["all", "games"] == summary.loc["board=5x5", "games"] == 2
    assert summary.loc["all", "exact"] == 1.0
    assert len(pd.read_parquet(tmp_path / "run" / "validation.parquet")) == 0


def test_validation_reports_a_wrong_record_with_a_cause(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "wrong.sgf").write_text(WALLS.replace("W+12.5", "W+10.5"))
    summary = validate([folder], tmp_path / "run", jobs=1)
    assert summary.loc["all", "exact"] == 0.0
    wrong = pd.read_parquet(tmp_path / "run" / "validation.parquet").iloc[0]
    assert (wrong.recorded_margin, wrong.margin, wrong.difference) == (-10.5, -12.5, -2.0)
    assert wrong.likely_cause


@pytest.mark.parametrize("recorded, impossible", [("W+5.5", False), ("W+6.5", True)])
def test_area_parity_counts_the_open_dame_chinese_rules_halve(tmp_path, recorded, impossible):
    """Five open dame (column c) counted as they stand: Art. 9 gives each side half of each,
    yet 20 points are owned, so only an even area margin (W+5.5 at komi 7.5, not W+6.5) is
    possible."""
    board = "SZ[5]RU[Chinese]KM[7.5]AB[ba][bb][bc][bd][be]AW[da][db][dc][dd][de];B[];W[])"
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "dame.sgf").write_text(f"(;GM[1]FF[4]RE[{recorded}]" + board)
    validate([folder], tmp_path / "run", jobs=1, finish="none")
    miss = pd.read_parquet(tmp_path / "run" / "validation.parquet").iloc[0]
    assert (miss.likely_cause == IMPOSSIBLE_PARITY) == impossible


def test_cli_score_then_sql(collection, tmp_path, capsys):
    assert main(["score", str(collection), "--out", str(tmp_path / "run"), "--jobs", "1",
                 "--rules", "chinese,japanese"]) == 0
    capsys.readouterr()
    assert main(["sql", str(tmp_path / "run"),
                 "SELECT ruleset, count(*) AS n FROM scores GROUP BY ruleset ORDER BY ruleset",
                 "--format", "csv"]) == 0
    assert capsys.readouterr().out.splitlines() == ["ruleset,n", "chinese,4", "japanese,4"]


def test_cli_errors_are_one_line_on_stderr(collection, tmp_path, capsys):
    assert main(["score", str(collection), "--out", str(tmp_path / "run"), "--rules", "chess"]) == 2
    assert capsys.readouterr().err.startswith("rulelab: Unknown ruleset 'chess'")


def test_assumed_rules_give_records_without_rules_their_own_row(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "title.sgf").write_text(WALLS.replace("RU[Chinese]KM[7.5]RE[W+12.5]", "KM[4.5]RE[W+9.5]"))
    summary = validate([folder], tmp_path / "run", jobs=1, assume_rules="japanese")
    assert summary.loc["all", "games"] == 1 and summary.loc["all", "exact"] == 1.0
    assert summary.loc["rules=japanese", "games"] == 1  # grouped by the rules it was counted under
    record = read_scores(tmp_path / "run").query("komi_source == 'record'").iloc[0]
    assert (record.ruleset, record.komi, record.margin) == ("japanese", 4.5, -9.5)


# WALLS with a dead White stone on a1's side (aa), inside Black's marked area.
DEAD_IN_AREA = ("(;GM[1]FF[4]SZ[5]RU[Tromp-Taylor]KM[7.5]RE[W+12.5]"
                "AB[ba][bb][bc][bd][be]AW[ca][cb][cc][cd][ce][aa];B[];W[]"
                "TB[aa][ab][ac][ad][ae]TW[da][db][dc][dd][de][ea][eb][ec][ed][ee])")


@pytest.mark.parametrize("playout, tromp_taylor_margin", [
    ("captured", -12.5),  # the dead stone captured: 10 − 15 points, as under Chinese rules
    ("as-is", -18.5)])    # kept: it makes a1's column dame and counts for White, 5 − 16
def test_rules_without_agreement_follow_the_playout_model(tmp_path, playout, tromp_taylor_margin):
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "dead.sgf").write_text(DEAD_IN_AREA)
    assert main(["score", str(folder), "--out", str(tmp_path / "run"), "--jobs", "1",
                 "--life", "markup", "--playout", playout]) == 0
    rows = read_scores(tmp_path / "run").set_index(["ruleset", "komi_source"])
    assert rows.loc[("chinese", "standard"), "margin"] == -12.5
    assert rows.loc[("tromp-taylor", "standard"), "margin"] == tromp_taylor_margin
    assert rows.loc[("tromp-taylor", "record"), "margin"] == tromp_taylor_margin
    kept = playout == "as-is"
    assert rows.loc[("stone-scoring", "standard"), "dead_white"] == (0 if kept else 1)
    with pytest.raises(RulesError, match="play-out model"):
        played_out(PRESETS["nz"], "sometimes")


def test_open_dame_are_counted_as_the_source_counts_them(tmp_path):
    """Column c is five open dame between two walls: a record of an unknown source is played
    to its end, Black (to move) filling three; Fox's records are counted as they stand, their
    area counts filling the dame alternately; counted as it stands, the dame are nobody's."""
    board = "SZ[5]RU[Chinese]KM[7.5]AB[ba][bb][bc][bd][be]AW[da][db][dc][dd][de];B[];W[])"
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "plain.sgf").write_text("(;GM[1]FF[4]RE[W+7.5]" + board)
    (folder / "fox.sgf").write_text("(;GM[1]FF[4]TC[3]TT[30]RE[W+6.5]" + board)
    score([folder], tmp_path / "run", jobs=1, rules=["chinese", "japanese"])
    games = pd.read_parquet(tmp_path / "run" / "games.parquet").set_index("game_id")
    rows = read_scores(tmp_path / "run").query("ruleset == 'chinese' and komi_source == 'standard'")
    rows = rows.assign(source=rows.game_id.map(games.source).fillna("none")).set_index("source")
    assert rows.loc["fox", ["finish", "dame_policy", "margin_before_komi"]].tolist() == ["none", "alternate", 1.0]
    assert rows.loc["none", ["finish", "open_dame", "margin_before_komi"]].tolist() == ["play", 0, 1.0]
    score([folder], tmp_path / "as-is", jobs=1, rules=["chinese"], finish="none")
    rows = read_scores(tmp_path / "as-is").query("komi_source == 'standard'")
    assert sorted(rows.margin_before_komi) == [0.0, 1.0]
    life = pd.read_parquet(tmp_path / "run" / "life.parquet").set_index("game_id").finish
    assert sorted(life.fillna("as it stands")) == [";B[ca];W[cb];B[cc];W[cd];B[ce]", "as it stands"]


def test_a_resigned_game_is_counted_as_it_stands_even_on_the_play_basis(tmp_path):
    """The same five open dame: a resigned record has no count to reproduce, so it is not
    played out (its dame stay nobody's), while a counted one is."""
    board = "SZ[5]RU[Chinese]KM[7.5]AB[ba][bb][bc][bd][be]AW[da][db][dc][dd][de])"
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "counted.sgf").write_text("(;GM[1]FF[4]RE[W+7.5]" + board)
    (folder / "resigned.sgf").write_text("(;GM[1]FF[4]RE[W+R]" + board)
    score([folder], tmp_path / "run", jobs=1, rules=["chinese"], finish="play")
    games = pd.read_parquet(tmp_path / "run" / "games.parquet").set_index("game_id")
    rows = read_scores(tmp_path / "run").query("komi_source == 'standard'")
    rows = rows.assign(kind=rows.game_id.map(games.result_kind)).set_index("kind")
    assert rows.loc["counted", ["finish", "margin_before_komi"]].tolist() == ["play", 1.0]
    assert rows.loc["resign", ["finish", "margin_before_komi"]].tolist() == ["none", 0.0]


def test_ctrl_c_inside_a_kernel_stops_the_batch_instead_of_failing_the_game(monkeypatch):
    """Ctrl-C in compiled code can surface as a SystemError caused by KeyboardInterrupt:
    written down as the game's error, it would be reused from the checkpoint on resume."""
    import rulelab.pipeline.score as score_run

    def interrupted(*args, **kwargs):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as cause:
            raise SystemError("kernel returned a result with an exception set") from cause

    row = {"status": "ok", "game_id": "g", "rules": None, "source": None, "komi": None, "handicap": 0, "year": None,
           "illegal_move_count": 0}
    monkeypatch.setattr(score_run, "position_from_row", lambda row: Position.from_diagram("."))
    monkeypatch.setattr(AutoMethod, "decide", interrupted)
    with pytest.raises(KeyboardInterrupt):
        score_run._score_batch([row], [], AutoMethod(), None)
    monkeypatch.setattr(AutoMethod, "decide", lambda *a, **k: 1 / 0)
    batch = score_run._score_batch([row], [score_run.get_ruleset("chinese")], AutoMethod(), None)
    [failed] = batch["scores"].to_pylist()
    assert failed["error"].startswith("internal_error: ZeroDivisionError")  # a plain bug costs one game
    assert batch["life"] == []  # and has no verdict


def test_ctrl_c_inside_a_kernel_stops_ingest_instead_of_failing_the_game(monkeypatch):
    import rulelab.read.records as records
    from rulelab.read.sources import RawFile

    def interrupted(text):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as cause:
            raise SystemError("kernel returned a result with an exception set") from cause

    monkeypatch.setattr(records, "parse_game", interrupted)
    with pytest.raises(KeyboardInterrupt):
        list(records.file_rows(RawFile("g.sgf", None, b"(;GM[1];B[aa])")))


def test_an_unknown_life_method_is_refused_at_the_door_by_the_one_check(tmp_path):
    """The command line offers the life package's methods, and score() refuses any other
    with the life package's error before it reads a file."""
    from rulelab.cli import build_parser
    from rulelab.life import METHODS, LifeError

    life = next(a for a in build_parser()._subparsers._group_actions[0].choices["score"]._actions
                if a.dest == "life")
    assert tuple(life.choices) == METHODS
    with pytest.raises(LifeError, match="The life method must be one of auto, estimate"):
        score([tmp_path / "missing"], tmp_path / "run", life="guess")
    assert not (tmp_path / "run").exists()


def test_the_seed_reaches_every_estimate_and_the_scores_provenance(collection, tmp_path, monkeypatch):
    seeds = []
    decide = AutoMethod.decide

    def spy(self, position, *, rng_seed=0):
        seeds.append(rng_seed)
        return decide(self, position, rng_seed=rng_seed)

    monkeypatch.setattr(AutoMethod, "decide", spy)
    assert main(["score", str(collection), "--out", str(tmp_path / "run"), "--jobs", "1", "--seed", "7"]) == 0
    assert seeds and set(seeds) == {7}
    assert read_provenance(tmp_path / "run" / "scores.parquet")["options"]["seed"] == 7


def test_a_seed_the_playouts_cannot_take_is_refused_at_the_door(tmp_path):
    from rulelab.life import LifeError

    with pytest.raises(LifeError, match="non-negative integer"):
        score([tmp_path / "missing"], tmp_path / "run", seed=-1)
    assert not (tmp_path / "run").exists()


def test_handicap_games_are_scored_at_each_rulesets_handicap_komi(tmp_path):
    """WALLS as a two-stone game: the standard rows use each preset's handicap komi
    (Chinese none, AGA 0.5); the user komi and the record's own komi are kept as given."""
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "h2.sgf").write_text("(;GM[1]FF[4]SZ[5]HA[2]RU[Chinese]KM[0.5]RE[W+7.5]AB[ba][bb]"
                                   ";W[ca];B[bc];W[cb];B[bd];W[cc];B[be];W[cd];B[];W[ce];B[];W[])")
    score([folder], tmp_path / "run", jobs=1, komi=5.5, rules=["chinese", "aga", "japanese"])
    assert pd.read_parquet(tmp_path / "run" / "games.parquet").handicap.tolist() == [2]
    rows = read_scores(tmp_path / "run").set_index(["ruleset", "komi_source"])
    assert rows.loc[("chinese", "standard"), "komi"] == 0.0
    assert rows.loc[("aga", "standard"), "komi"] == 0.5
    assert rows.loc[("japanese", "standard"), "komi"] == 0.0
    assert set(rows.xs("user", level="komi_source").komi) == {5.5}
    assert rows.loc[("chinese", "record"), "komi"] == 0.5
    assert rows.loc[("chinese", "standard"), "margin"] == -7.0  # area 10 − 15, White +2


def test_the_life_table_says_which_boards_reached_their_end(collection, tmp_path):
    """Counted games are settled by the players' agreement; a game resigned after two moves is
    not, so a query for seki on settled boards never counts a fight as one."""
    score([collection], tmp_path / "run", jobs=1, rules=["chinese"])
    life = pd.read_parquet(tmp_path / "run" / "life.parquet")
    games = pd.read_parquet(tmp_path / "run" / "games.parquet").set_index("game_id")
    settled = life.set_index("game_id")["settled"].rename(index=games["result_kind"])
    assert settled.to_dict() == {"counted": True, "resign": False}


def test_validation_counts_a_record_read_twice_once(collection, tmp_path):
    (collection / "walls-copy.sgf").write_text(WALLS)
    summary = validate([collection], tmp_path / "run", jobs=1)
    assert summary.loc["all", "games"] == 2  # walls (twice) and walls-j


def test_records_of_the_same_rules_source_and_komi_share_one_ruleset():
    # made once per collection, not once per game (a ruleset's checks cost 15 us)
    row = {"rules": "japanese", "source": "kgs", "komi": 6.5}
    first, again = score_run.record_ruleset(dict(row)), score_run.record_ruleset(dict(row))
    assert first is again and first.komi == 6.5
    assert score_run.record_ruleset({**row, "komi": 0.25}) is None  # no multiple of 0.5
    assert score_run.record_ruleset({**row, "komi": 0.5}).komi == 0.5


def test_standard_komi_is_the_one_the_players_saw(tmp_path):
    """A 1980 title game at the komi of its era; a server's one-stone game (komi ½, no
    handicap stones) at each ruleset's handicap komi; a game of today at today's komi."""
    folder = tmp_path / "games"
    folder.mkdir()
    moves = ";B[pd];W[dp];B[pp];W[dd]"
    (folder / "title.sgf").write_text(f"(;GM[1]SZ[19]DT[1980-05-02]RE[B+R]{moves})")
    (folder / "one-stone.sgf").write_text(f"(;GM[1]SZ[19]KM[0.5]PC[The KGS Go Server]DT[2010-01-01]RE[W+R]{moves})")
    (folder / "today.sgf").write_text(f"(;GM[1]SZ[19]KM[6.5]DT[2010-01-01]RE[B+R]{moves})")
    score([folder], tmp_path / "run", rules=["japanese", "chinese", "aga"], jobs=1)
    scores = pd.read_parquet(tmp_path / "run" / "scores.parquet")
    games = pd.read_parquet(tmp_path / "run" / "games.parquet")[["game_id", "source_path"]]
    standard = scores[scores.komi_source == "standard"].merge(games, on="game_id")
    komi = standard.assign(file=standard.source_path.str.rsplit("/", n=1).str[-1]).pivot(
        index="file", columns="ruleset", values="komi")
    assert komi.loc["title.sgf"].to_dict() == {"aga": 7.5, "chinese": 5.5, "japanese": 5.5}
    assert komi.loc["one-stone.sgf"].to_dict() == {"aga": 0.5, "chinese": 0.0, "japanese": 0.0}
    assert komi.loc["today.sgf"].to_dict() == {"aga": 7.5, "chinese": 7.5, "japanese": 6.5}
