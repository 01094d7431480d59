"""Generated tables inside hand-written pages: a page keeps two markers and a script puts
its table between them, so a figure in the docs is always the one last computed."""

from __future__ import annotations

from pathlib import Path


def replace_between(doc: Path, begin: str, end: str, body: str) -> None:
    """Put ``body`` between the markers ``begin`` and ``end`` of ``doc``, the rest as it was."""
    text = doc.read_text()
    head, found_begin, rest = text.partition(begin)
    _, found_end, tail = rest.partition(end)
    if not (found_begin and found_end):
        raise ValueError(f"{doc} lacks the markers {begin!r} and {end!r}")
    doc.write_text(f"{head}{begin}\n{body}\n{end}{tail}")
