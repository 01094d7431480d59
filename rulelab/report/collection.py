"""What kind of collection a run holds — records from online servers, professional
collections or engine games — and on which boards, so the report's text speaks of the
games it has (no server conventions in the report of title-match records)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

if TYPE_CHECKING:
    from rulelab.report.shared import ReportTables

SERVERS = ("kgs", "fox", "tygem", "ogs", "igs", "nngs")
"""Sources that are online servers, where players are amateurs with server ranks."""

ENGINES = ("gnugo", "fuego", "cgos", "uec")
"""Sources whose games are played by or against programs."""

KINDS = {"server": "online-server records", "professional": "professional records (no server named, or GoGoD)",
         "engine": "engine games"}


def source_kind(source) -> str:
    """``'server'``, ``'engine'`` or ``'professional'`` for a games row's ``source``.

    Examples
    --------
    >>> [source_kind(s) for s in ("kgs", "gnugo", None, "gogod")]
    ['server', 'engine', 'professional', 'professional']
    """
    return "server" if source in SERVERS else "engine" if source in ENGINES else "professional"


def collection_kinds(games: pd.DataFrame) -> pd.Series:
    """Analysable games per kind of source, most first."""
    sources = games["source"].astype(object).where(games["source"].notna(), None)
    kinds = sources.map(source_kind).value_counts()
    return kinds.sort_index().sort_values(ascending=False, kind="stable")


def collection_words(tables: "ReportTables") -> str:
    """One sentence: how many analysable games, of which kinds, on which boards."""
    games = tables.games
    if games.empty:
        return "No game of this collection could be replayed, so there is nothing to analyse."
    kinds = collection_kinds(games)
    boards = (games["board_rows"].astype(int).astype(str) + "×" + games["board_cols"].astype(int).astype(str)
              ).value_counts().sort_index().sort_values(ascending=False, kind="stable")
    years = pd.to_numeric(games.get("year"), errors="coerce").dropna()
    kind_text = "; ".join(f"{count:,} {KINDS[kind]}" for kind, count in kinds.items())
    board_text = ("all on " + boards.index[0] if len(boards) == 1 else
                  "on " + ", ".join(f"{board} ({count:,})" for board, count in boards.items()))
    era = f", played {int(years.min())}–{int(years.max())}" if len(years) else ""
    return f"This collection: {len(games):,} analysable games — {kind_text}; {board_text}{era}."


def has_servers(tables: "ReportTables") -> bool:
    """Whether any analysable game comes from an online server."""
    return bool(tables.games["source"].isin(SERVERS).any())
