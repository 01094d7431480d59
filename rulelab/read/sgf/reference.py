"""The reference parse: sgfmill's coarse tree (``sgf_grammar``), and what it objects to.

The fast reader (:mod:`rulelab.read.sgf.parse`) leaves every tree it is unsure of to
this path, so the result or the error is always the one sgfmill gives.
"""

from __future__ import annotations

import re

from sgfmill import sgf_grammar

from rulelab.errors import ParseError

_STRUCTURE_FAULT = re.compile(r"\((?=[^;])|[;()]V|I(?!V)|\)(?=;)")
"""Token sequences sgfmill rejects, over a string of token kinds: ``(;)`` and I(dent), V(alue)."""
_ESCAPE = re.compile(r"\\(\r\n|\n\r|\n|\r|.)", re.DOTALL)
_SOFT_BREAKS = frozenset(("\r\n", "\n\r", "\n", "\r"))


def sgfmill_main_line(text: str) -> tuple[list[dict[str, list[str]]], int]:
    """Main-line nodes and the variations skipped, as sgfmill reads ``text``; a
    ParseError that says where, for a text it rejects."""
    data = text.encode("utf-8", "replace")
    try:
        tree = sgf_grammar.parse_sgf_game(data)
    except ValueError as error:
        raise ParseError(_describe_parse_failure(data, error)) from None
    return _main_line(tree)


def _main_line(tree: sgf_grammar.Coarse_game_tree) -> tuple[list[dict[str, list[str]]], int]:
    """Main-line nodes with values decoded and unescaped, and the variations skipped."""
    nodes = []
    variations = 0
    while True:
        nodes.extend(_node_values(properties) for properties in tree.sequence)
        if not tree.children:
            return nodes, variations
        variations += len(tree.children) - 1
        tree = tree.children[0]


def _node_values(properties: dict[str, list[bytes]]) -> dict[str, list[str]]:
    node = {}
    for ident, values in properties.items():
        if len(values) == 1:
            value = values[0].decode()
            node[ident] = [unescape(value) if "\\" in value else value]
        else:
            node[ident] = [unescape(value.decode()) for value in values]
    node.pop("", None)
    return node


def unescape(value: str) -> str:
    """Resolve SGF escapes: ``\\x`` is ``x``; a backslash before a line break removes both."""
    return _ESCAPE.sub(lambda m: "" if m.group(1) in _SOFT_BREAKS else m.group(1), value)


def _describe_parse_failure(data: bytes, error: ValueError) -> str:
    """Say what sgfmill objected to, and where: character offset and node in text order."""
    tokens, stop = sgf_grammar.tokenise(data)
    kinds = "".join(token.decode() if kind == "D" else kind for kind, token in tokens)
    closed = kinds.count("(") == kinds.count(")")
    rest = data[stop:].lstrip()
    where = len(data[: len(data) - len(rest)].decode("utf-8", "replace"))
    if not closed and rest.startswith(b"["):
        return f"a value opened at character {where} (node {kinds.count(';') - 1}) is never closed"
    if not closed and rest:
        snippet = rest[:20].decode("utf-8", "replace")
        return f"cannot read {snippet!r} at character {where} (node {kinds.count(';') - 1})"
    fault = _STRUCTURE_FAULT.search(kinds)
    if fault:
        return f"{error} at node {kinds[: fault.start() + 1].count(';') - 1}"
    return f"the game tree is not closed after node {kinds.count(';') - 1}: the record looks truncated"


