"""The parts a report is made of — paragraphs, code, tables, figures, sections — and the
workspace folder the sections write their files into. Sections build these;
:mod:`rulelab.report.build` renders them and builds the whole report.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd


@dataclass(frozen=True)
class Text:
    """A paragraph of plain text."""

    text: str


@dataclass(frozen=True)
class Code:
    """Preformatted text (JSON, settings)."""

    text: str


@dataclass(frozen=True)
class TableBlock:
    """A table written in full to ``file`` (CSV) and shown in part."""

    file: str
    frame: pd.DataFrame
    caption: str
    preview_rows: int = 20


@dataclass(frozen=True)
class FigureBlock:
    """A PNG figure, with the caption doubling as its alternative text."""

    file: str
    caption: str


Block = Text | Code | TableBlock | FigureBlock


@dataclass
class Section:
    """One part of the report."""

    key: str
    """File-name stem of the part (``divergence`` → ``divergence.md``)."""
    title: str
    blocks: list[Block] = field(default_factory=list)


class Workspace:
    """The output folder of a report: sections put their tables and figures here."""

    def __init__(self, out_dir: str | Path):
        self.path = Path(out_dir)
        self.path.mkdir(parents=True, exist_ok=True)

    def table(self, name: str, frame: pd.DataFrame, caption: str, preview_rows: int = 20) -> TableBlock:
        """Write ``frame`` to ``name.csv`` and return the block that shows it."""
        file = f"{name}.csv"
        frame.to_csv(self.path / file, index=False, lineterminator="\n")
        return TableBlock(file, frame, caption, preview_rows)

    def figure(self, name: str, figure, caption: str) -> FigureBlock:
        """Save ``figure`` to ``name.png`` and return the block that shows it."""
        from rulelab.analysis.plots import save_figure

        file = f"{name}.png"
        save_figure(figure, self.path / file)
        return FigureBlock(file, caption)


def json_text(value) -> str:
    """Stable JSON for the report (sorted keys, no trailing spaces)."""
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, default=str)
