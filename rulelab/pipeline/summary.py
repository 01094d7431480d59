"""The few lines a command prints when a run ends: what was found, what failed and why,
where each table is, and how long it took. The manifest holds the same, in full."""

from __future__ import annotations

from pathlib import Path

import pyarrow.compute as pc
import pyarrow.parquet as pq

from rulelab.read.records import location
from rulelab.errors import InputError
from rulelab.store.layout import GAMES_FILE, MANIFEST_FILE
from rulelab.store.manifest import read_manifest

TOP_FILES = 3
"""File names shown per failure reason."""


def run_summary(out: str | Path, seconds: float, top: int = TOP_FILES) -> str:
    """A short human account of the run folder ``out``, as the last command left it."""
    out = Path(out)
    manifest = read_manifest(out)
    if manifest is None:
        raise InputError(f"{out / MANIFEST_FILE} is missing or cannot be read as a manifest.")
    counts = manifest["counts"]
    copies = counts["duplicates"]
    lines = [f"{counts['games_found']:,} games found: {counts['games_ok']:,} ok, "
             f"{counts['games_failed']:,} failed, {copies:,} {'copy' if copies == 1 else 'copies'} "
             f"of another record ({_elapsed(seconds)})"]
    lines += _failures(out / GAMES_FILE, top)
    lines.append("tables:")
    for table, name in sorted(manifest["tables"].items()):
        rows = pq.read_metadata(out / name).num_rows
        lines.append(f"  {table:<8} {out / name}  ({rows:,} rows)")
    lines.append(f"  {'manifest':<8} {out / MANIFEST_FILE}")
    return "\n".join(lines)


def _failures(games: Path, top: int) -> list[str]:
    """One line per failure status, most frequent first, naming its first few files."""
    table = pq.read_table(games, columns=["status", "source_path", "archive_member", "game_index"])
    failed = table.filter(pc.not_equal(table["status"], "ok"))
    if failed.num_rows == 0:
        return []
    lines = ["failed by reason:"]
    statuses = sorted(pc.value_counts(failed["status"]).to_pylist(), key=lambda c: (-c["counts"], c["values"]))
    for entry in statuses:
        these = failed.filter(pc.equal(failed["status"], entry["values"])).slice(0, top).to_pylist()
        names = ", ".join(location(r["source_path"], r["archive_member"], r["game_index"]) for r in these)
        more = ", ..." if entry["counts"] > len(these) else ""
        lines.append(f"  {entry['values']:<15} {entry['counts']:>7,}  {names}{more}")
    return lines


def _elapsed(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{seconds:.1f} s"
