"""Ingest of the real development corpora: every game accounted for, metadata as MANIFEST.md says.

The corpora are ingested once per session (module fixtures); each test reads the tables.
"""

import pandas as pd
import pytest

from bench.baseline import run_baseline
from rulelab.pipeline.run import ingest

pytestmark = [pytest.mark.corpus, pytest.mark.slow, pytest.mark.pool]


@pytest.fixture(scope="module")
def kgs(corpora, tmp_path_factory):
    out = tmp_path_factory.mktemp("kgs")
    manifest = ingest([corpora / "kgs-dev.tar.xz"], out, jobs=2)
    return manifest, pd.read_parquet(out / "games.parquet")


@pytest.fixture(scope="module")
def mixed(corpora, tmp_path_factory):
    out = tmp_path_factory.mktemp("mixed")
    manifest = ingest([corpora / "dev-mixed.tar.xz"], out, jobs=2)
    games = pd.read_parquet(out / "games.parquet")
    games["folder"] = games.archive_member.str.split("/").str[0]
    return manifest, games


def test_kgs_dev_every_game_accounted_for(kgs):
    manifest, games = kgs
    assert len(games) == manifest["counts"]["games_found"] == 15_501
    assert (games.status == "ok").all(), games.loc[games.status != "ok", "error"].head().tolist()


def test_kgs_dev_ok_share_at_least_sgfmills(kgs, corpora):
    _, games = kgs
    read, parsed = run_baseline(str(corpora / "kgs-dev.tar.xz"), limit=2000)
    ours = (games.head(2000).status == "ok").mean()
    assert ours >= parsed / read


def test_kgs_dev_counted_games_by_rules_match_manifest(kgs):
    _, games = kgs
    counted = games[games.result_kind == "counted"]
    era = counted.archive_member.str.contains("/kgs-19-2017-").map({True: "2017", False: "2000-03"})
    by_rules = counted.groupby([era, counted.rules]).size().to_dict()
    assert by_rules == {
        ("2000-03", "japanese"): 3869, ("2000-03", "chinese"): 82, ("2000-03", "aga"): 61,
        ("2000-03", "nz"): 5, ("2017", "japanese"): 278, ("2017", "chinese"): 120, ("2017", "aga"): 2,
    }
    assert counted[era == "2017"].territory_marks.notna().all()
    assert counted.ended_by_passes.mean() > 0.99
    assert games.source.eq("kgs").all()
    assert set(games.komi.dropna()) >= {0.5, 5.5, 6.5, 7.5} and (games.komi < 0).any()
    assert games.result_kind.isin(["resign", "counted", "time", "forfeit", "void", "unknown"]).all()


# MANIFEST.md says 10,343 Fox games; the archive holds 10,348 one-game Fox files, and
# all of them are rows (4 are truncated records with status parse_error).
MIXED_FOLDERS = {
    "tygem_9d_yenw": 85_582, "fox_pro_featurecat": 10_348, "yenw_ai": 7_259,
    "yenw_ai_tygemfmt": 7_720, "gnugo_regression_games": 1_763, "fuego_regression_sgf": 575,
    "kgs_clamshell": 63, "gogameguru_commented": 12,
}


def test_dev_mixed_every_game_accounted_for(mixed):
    manifest, games = mixed
    counts = manifest["counts"]
    assert len(games) == counts["games_found"] == counts["games_ok"] + counts["games_failed"]
    assert games.groupby("folder").size().to_dict() == MIXED_FOLDERS
    skipped = games[games.status == "skipped"]  # GNU Go's seki_exotics.tgz, its games shipped beside it
    assert skipped.archive_member.str.endswith("seki_exotics.tgz").tolist() == [True]
    assert counts["inputs_skipped"]["nested archive"] == 1
    failed = games[games.status != "ok"]
    assert failed.error.notna().all() and (failed.error.str.len() > 0).all()


def test_dev_mixed_quirks_are_normalised(mixed):
    _, games = mixed
    fox = games[games.folder == "fox_pro_featurecat"]
    assert fox.source.eq("fox").sum() >= 10_340
    assert fox.komi.dropna().abs().max() <= 10, "Fox ×100 komi left undone"
    assert fox.encoding_lossy.any() and fox.status.eq("ok").mean() > 0.99
    tygem = games[games.folder == "tygem_9d_yenw"]
    assert tygem.source.eq("tygem").all() and tygem.rules.isna().all()
    assert (tygem.result_kind == "counted").sum() == 25_918
    assert not tygem.ended_by_passes.any()
