"""Shared fixtures: the development corpora live in ../shared beside the project."""

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CORPORA = SHARED / "corpora"


@pytest.fixture(scope="session")
def corpora() -> Path:
    """The folder holding kgs-dev.tar.xz and dev-mixed.tar.xz, or skip."""
    if not (CORPORA / "kgs-dev.tar.xz").is_file():
        pytest.skip(f"development corpora not found at {CORPORA} (../shared is absent)")
    return CORPORA


@pytest.fixture(scope="session")
def kgs_run(corpora, tmp_path_factory) -> Path:
    """A run folder of the first 60 games of kgs-dev (counted and resigned), scored."""
    import tarfile

    from rulelab.pipeline.run import score

    root = tmp_path_factory.mktemp("kgs")
    (root / "records").mkdir()
    with tarfile.open(corpora / "kgs-dev.tar.xz", "r|xz") as archive:
        for count, member in enumerate(m for m in archive if m.name.endswith(".sgf")):
            (root / "records" / f"{count:02d}.sgf").write_bytes(archive.extractfile(member).read())
            if count == 59:
                break
    score([root / "records"], root / "run", jobs=1)
    return root / "run"


_running: list[pytest.Item] = []


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    _running.append(item)
    try:
        return (yield)
    finally:
        _running.pop()


@pytest.fixture(scope="session", autouse=True)
def worker_pools_only_in_tests_marked_pool():
    """Fail a test that starts a process pool without the ``pool`` mark, which keeps it out
    of ``make check``: the fast tier must not pay for starting workers."""
    from concurrent.futures import ProcessPoolExecutor

    original = ProcessPoolExecutor.__init__

    def checked(self, *args, **kwargs):
        if _running and _running[-1].get_closest_marker("pool") is None:
            pytest.fail(f"{_running[-1].nodeid} starts a worker pool: mark it @pytest.mark.pool",
                        pytrace=False)
        original(self, *args, **kwargs)

    ProcessPoolExecutor.__init__ = checked
    yield
    ProcessPoolExecutor.__init__ = original
