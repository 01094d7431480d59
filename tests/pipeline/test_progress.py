"""What a run shows while it works: the kernel cache, the first-run note, the bar's total
and its count of games on resume."""

import io
import tarfile

import pytest

from rulelab import kernel_cache
from rulelab.pipeline import progress
from rulelab.pipeline.run import ingest
from rulelab.read.sources import ReadStats, input_size, iter_files
from test_score_run import WALLS

GAME = b"(;GM[1]FF[4]SZ[5]KM[6.5]RE[B+R];B[cc];W[bb])"


def as_package(monkeypatch, folder):
    """Make ``folder`` (named ``rulelab``) the package whose kernels the cache digests."""
    import rulelab.source_walk as source_walk

    for module in (kernel_cache, source_walk):
        monkeypatch.setattr(module, "PACKAGE", folder)
    monkeypatch.setattr(source_walk, "_walks", {})


def test_the_kernel_cache_folder_changes_with_kernels_and_what_they_import(tmp_path, monkeypatch):
    package = tmp_path / "rulelab"
    (package / "deep").mkdir(parents=True)
    (package / "kernels.py").write_text("import numba\nfrom rulelab.shared import X\nimport rulelab.deep.more\n\n"
                                        "@numba.njit\ndef f(): pass\n")
    (package / "shared.py").write_text("X = 1\n")
    (package / "deep" / "more.py").write_text("Z = 1\n")
    (package / "other.py").write_text("Y = 1\n")
    as_package(monkeypatch, package)
    first = kernel_cache.kernel_digest()
    (package / "other.py").write_text("Y = 2\n")
    assert kernel_cache.kernel_digest() == first
    (package / "shared.py").write_text("X = 2\n")
    second = kernel_cache.kernel_digest()
    assert second != first
    (package / "deep" / "more.py").write_text("Z = 2\n")  # named by 'import rulelab.x', which a regex missed
    assert kernel_cache.kernel_digest() != second


def test_numba_caches_rulelab_kernels_in_the_folder_named_by_their_code():
    import numba

    assert numba.config.CACHE_DIR == str(kernel_cache.cache_folder())


def test_a_first_run_says_it_compiles_kernels_then_never_again(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    compiled = []
    monkeypatch.setattr(progress.importlib, "import_module",
                        lambda name: (compiled.append(name), kernel_cache.mark_ready()))
    progress.compile_kernels()
    progress.compile_kernels()
    assert capsys.readouterr().err == progress.COMPILING + "\n"
    assert compiled == ["rulelab.pipeline.warm"]


def test_compiling_names_the_kernel_under_way_every_few_seconds(tmp_path, monkeypatch, capsys):
    import importlib
    import time

    import numba

    class SlowCompiler(numba.core.event.Listener):
        def on_start(self, event):
            time.sleep(0.3)

        def on_end(self, event):
            pass

    @numba.njit
    def slow_kernel(x):
        return x + 1

    def compile_slowly(name, *package, load=importlib.import_module):
        if name != "rulelab.pipeline.warm":  # numba's own imports while it compiles
            return load(name, *package)
        with numba.core.event.install_listener("numba:compile", SlowCompiler()):
            slow_kernel(1)
        kernel_cache.mark_ready()

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(progress, "HEARTBEAT", 0.1)
    monkeypatch.setattr(progress.importlib, "import_module", compile_slowly)
    progress.compile_kernels()
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == progress.COMPILING
    assert "rulelab: compiling kernels: 0 done, now slow_kernel (0 s)" in lines[1:]


def test_the_bytes_read_reach_the_listed_total(tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.sgf").write_bytes(GAME)
    (tmp_path / "in" / "notes.txt").write_bytes(b"not a game")
    with tarfile.open(tmp_path / "in" / "b.tar.gz", "w:gz") as tar:
        for k in range(20):
            info = tarfile.TarInfo(f"g{k}.sgf")
            info.size = len(GAME)
            tar.addfile(info, io.BytesIO(GAME))
    stats = ReadStats()
    seen = []
    for _ in iter_files([tmp_path / "in"], stats=stats):
        seen.append(stats.bytes_read)
    total = input_size([tmp_path / "in"])
    assert total == len(GAME) + (tmp_path / "in" / "b.tar.gz").stat().st_size
    assert seen == sorted(seen) and 0 < seen[0] and seen[-1] <= total


def test_the_bytes_read_of_a_compressed_archive_grow_in_small_steps(tmp_path):
    import random

    from rulelab.read.sources.tar_reader import STEP

    noise = random.Random(0)
    with tarfile.open(tmp_path / "games.tar.xz", "w:xz") as tar:
        for k in range(100):
            game = GAME.replace(b";B[cc]", f"C[{noise.randbytes(8000).hex()}];B[cc]".encode())
            info = tarfile.TarInfo(f"g{k}.sgf")
            info.size = len(game)
            tar.addfile(info, io.BytesIO(game))
    stats = ReadStats()
    seen = [stats.bytes_read for _ in iter_files([tmp_path / "games.tar.xz"], stats=stats)]
    steps = [after - before for before, after in zip([0, *seen], seen)]
    assert len(set(seen)) > 8 and max(steps) <= 2 * STEP  # 834 kB of xz: not one jump


def test_a_resumed_run_counts_the_games_of_the_parts_it_reuses(tmp_path, monkeypatch):
    folder = tmp_path / "games"
    folder.mkdir()
    for k in range(3):
        (folder / f"g{k}.sgf").write_bytes(GAME.replace(b"KM[6.5]", f"KM[{k}.5]".encode()))
    counted = []
    monkeypatch.setattr(progress.RunProgress, "done", lambda self, rows: counted.append(rows.get("games", 0)))
    ingest([folder], tmp_path / "run", jobs=1)
    ingest([folder], tmp_path / "run", jobs=1, force=True)
    assert sum(counted) == 6


@pytest.mark.parametrize("shown", [True, False])
def test_the_bar_has_a_total_only_on_a_terminal(tmp_path, monkeypatch, shown):
    (tmp_path / "a.sgf").write_bytes(GAME)
    monkeypatch.setattr("sys.stderr.isatty", lambda: shown, raising=False)
    bar = progress.RunProgress([str(tmp_path)], enabled=True, stats=ReadStats())
    assert bar.bar.total == (len(GAME) if shown else None)
    bar.close()


def test_the_bar_is_redrawn_while_no_unit_finishes_and_needs_no_heartbeat(tmp_path, monkeypatch, capsys):
    import time

    from rulelab import ticker

    (tmp_path / "a.sgf").write_bytes(GAME)
    monkeypatch.setattr("sys.stderr.isatty", lambda: True, raising=False)
    monkeypatch.setattr(progress, "REFRESH", 0.05)
    monkeypatch.setattr(ticker, "LINE_EVERY", 0.05)
    bar = progress.RunProgress([str(tmp_path)], enabled=True, stats=ReadStats())
    time.sleep(0.5)
    bar.close()
    shown = capsys.readouterr().err
    assert shown.count("reading:") >= 6 and "games done" not in shown  # 3 redraws without the ticker


def test_two_checkouts_of_the_same_code_have_their_own_cache(tmp_path, monkeypatch):
    for name in ("one", "two"):
        (tmp_path / name / "rulelab").mkdir(parents=True)
        (tmp_path / name / "rulelab" / "kernels.py").write_text("import numba\n\n@numba.njit\ndef f(): pass\n")
    as_package(monkeypatch, tmp_path / "one" / "rulelab")
    first = kernel_cache.kernel_digest()
    as_package(monkeypatch, tmp_path / "two" / "rulelab")
    assert kernel_cache.kernel_digest() != first


def test_reading_games_on_the_fly_says_it_compiles_kernels_too(tmp_path, monkeypatch, capsys):
    from rulelab.pipeline.ingest import read_games

    (tmp_path / "a.sgf").write_bytes(GAME)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(progress.importlib, "import_module", lambda name: kernel_cache.mark_ready())
    with pytest.warns(UserWarning, match="not a run folder"):
        assert len(read_games(tmp_path)) == 1
    assert capsys.readouterr().err == progress.COMPILING + "\n"


def test_validation_shows_a_bar_over_the_misses_it_explains(tmp_path, monkeypatch, capsys):
    from rulelab.pipeline.run import validate

    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "wrong.sgf").write_text(WALLS.replace("RE[W+12.5]", "RE[B+3.5]"))
    monkeypatch.setattr("sys.stderr.isatty", lambda: True, raising=False)
    validate([tmp_path / "games"], tmp_path / "run", jobs=1, progress=True)
    shown = capsys.readouterr().err
    assert "explaining misses" in shown and "1/1" in shown


def test_piped_output_gets_a_line_of_games_rate_and_eta_every_few_seconds(tmp_path, monkeypatch, capsys):
    import time

    from rulelab import ticker

    (tmp_path / "a.sgf").write_bytes(GAME)
    monkeypatch.setattr("sys.stderr.isatty", lambda: False, raising=False)
    monkeypatch.setattr(ticker, "LINE_EVERY", 0.05)
    stats = ReadStats()
    shown = progress.RunProgress([str(tmp_path)], enabled=True, stats=stats)
    stats.bytes_read = len(GAME) // 2
    shown.done({"games": 3})
    time.sleep(0.3)
    shown.close()
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) >= 3
    assert lines[-1].startswith("rulelab: 3 games done, ") and "50% of the input read, ETA " in lines[-1]

