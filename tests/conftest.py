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
