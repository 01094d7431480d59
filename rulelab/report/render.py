"""The report's blocks as Markdown (``report.md``) and as one HTML page (``index.html``):
text, code, figures linked beside the page, and tables shown by their first rows with the
whole of each in its CSV file."""

from __future__ import annotations

import html
import re

import numpy as np
import pandas as pd

from rulelab.report.blocks import Code, FigureBlock, Section, TableBlock, Text


def format_value(value) -> str:
    """A cell as shown in the report (the CSV files keep full precision)."""
    if value is None or (isinstance(value, float) and np.isnan(value)) or value is pd.NA:
        return ""
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (float, np.floating)):
        return f"{value:.4g}" if abs(value) < 1e6 else f"{value:.6g}"
    return str(value)


def markdown_table(frame: pd.DataFrame, max_rows: int = 20) -> str:
    """A pipe table of the first ``max_rows`` rows.

    Examples
    --------
    >>> print(markdown_table(pd.DataFrame({"ruleset": ["chinese"], "rate": [0.125]})))
    | ruleset | rate |
    | --- | --- |
    | chinese | 0.125 |
    """
    def cell(value) -> str:
        return format_value(value).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(cell(c) for c in frame.columns) + " |",
             "| " + " | ".join("---" for _ in frame.columns) + " |"]
    for row in frame.head(max_rows).itertuples(index=False):
        lines.append("| " + " | ".join(cell(v) for v in row) + " |")
    return "\n".join(lines)


def _rows_note(block: TableBlock) -> str:
    shown = min(len(block.frame), block.preview_rows)
    return f"{shown} of {len(block.frame):,} rows shown; all in {block.file}."


def render_markdown(sections: list[Section], title: str) -> str:
    """The whole report as Markdown."""
    out = [f"# {title}", ""]
    for section in sections:
        out += [f"## {section.title}", ""]
        for block in section.blocks:
            if isinstance(block, Text):
                out += [block.text, ""]
            elif isinstance(block, Code):
                out += ["```", block.text, "```", ""]
            elif isinstance(block, FigureBlock):
                out += [f"![{block.caption}]({block.file})", "", f"*{block.caption}*", ""]
            elif block.frame.empty:
                out += [f"**{block.caption}**: no rows ({block.file} holds the header).", ""]
            elif block.preview_rows == 0:
                out += [f"**{block.caption}**: {len(block.frame):,} rows in {block.file}.", ""]
            else:
                out += [f"**{block.caption}** ({_rows_note(block)})", "",
                        markdown_table(block.frame, block.preview_rows), ""]
    return "\n".join(out).rstrip() + "\n"


_LINK = re.compile(r"\[([^\[\]]+)\]\(([^()\s]+)\)")
"""A Markdown link, ``[text](address)``: how text and table cells link to a section or an
explorer view."""


def _linked(text: str) -> str:
    """``text`` escaped for HTML, its Markdown links made anchors."""
    return _LINK.sub(lambda m: f'<a href="{m.group(2)}">{m.group(1)}</a>', html.escape(text))


_CSS = ("body{font-family:sans-serif;max-width:76rem;margin:1rem auto;padding:0 1rem;line-height:1.45}"
        "h1{font-size:1.5rem;margin:.3rem 0}h2{margin:.8rem 0 .4rem}"
        "nav ul{display:flex;flex-wrap:wrap;gap:.2rem 1rem;list-style:none;padding:0;margin:.3rem 0;"
        "font-size:.85rem}"
        "table{border-collapse:collapse;font-size:.85rem;margin:.5rem 0 1.5rem}"
        "caption{text-align:left}"
        "td,th{border:1px solid #ccc;padding:.2rem .45rem;text-align:right}"
        "td:first-child,th:first-child{text-align:left}"
        "#summary table{font-size:.8rem;line-height:1.25}#summary td{white-space:nowrap}"
        "#summary td:nth-last-child(3){white-space:normal;text-align:left}"
        "#summary td:nth-last-child(4){white-space:normal}"
        "th{background:#f0f0f0}img{max-width:100%}figure{margin:1rem 0 2rem}"
        "pre{background:#f6f6f6;padding:.75rem;overflow-x:auto;font-size:.8rem}")


def render_html(sections: list[Section], title: str) -> str:
    """The whole report as one HTML page (figures and CSV files linked beside it)."""
    esc = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           f"<title>{esc(title)}</title>", f"<style>{_CSS}</style>", "</head>", "<body>",
           f"<h1>{esc(title)}</h1>", "<nav><ul>"]
    out.append("".join(f'<li><a href="#{s.key}">{esc(s.title)}</a></li>' for s in sections))
    out.append("</ul></nav>")
    for section in sections:
        out.append(f'<section id="{section.key}"><h2>{esc(section.title)}</h2>')
        for block in section.blocks:
            if isinstance(block, Text):
                out.append(f"<p>{_linked(block.text)}</p>")
            elif isinstance(block, Code):
                out.append(f"<pre>{esc(block.text)}</pre>")
            elif isinstance(block, FigureBlock):
                out.append(f'<figure><img src="{esc(block.file)}" alt="{esc(block.caption)}">'
                           f"<figcaption>{esc(block.caption)}</figcaption></figure>")
            elif block.frame.empty or block.preview_rows == 0:
                rows = f"{len(block.frame):,} rows" if not block.frame.empty else "no rows"
                out.append(f'<p><strong>{esc(block.caption)}</strong>: {rows} in '
                           f'<a href="{esc(block.file)}">{esc(block.file)}</a>.</p>')
            else:
                head = "".join(f"<th>{esc(str(c))}</th>" for c in block.frame.columns)
                body = "".join("<tr>" + "".join(f"<td>{_linked(format_value(v))}</td>" for v in row) + "</tr>"
                               for row in block.frame.head(block.preview_rows).itertuples(index=False))
                out.append(f"<table><caption>{esc(block.caption)} ({esc(_rows_note(block))} "
                           f'<a href="{esc(block.file)}">CSV</a>)</caption>'
                           f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        out.append("</section>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"
