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
