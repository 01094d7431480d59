"""The code that makes a stage's rows: the source of a module and of every rulelab module
it imports, however deep, and the package data files they name (a fitted model, say),
hashed into one fingerprint that part keys hold."""

from __future__ import annotations

import ast
import functools
import hashlib
import re
from pathlib import Path

from rulelab.source_walk import PACKAGE, source_files
DATA_NAME = re.compile(r"[\w.-]+\.json")
"""A string constant that may name a file of the package's ``data`` folder."""


def code_fingerprint(module: str) -> str:
    """SHA-256 of the source of ``module`` and of every rulelab module it imports, however deep.

    Parts made by other code are never reused, while edits to modules a stage does
    not use (the analyses, say) leave its parts valid. Each file's digest is kept per
    modification time and size, so a worker checks every unit for the cost of a few
    ``stat`` calls and a long-lived session still sees edits made since it started.
    """
    sources = source_files(module)
    stats = {name: path.stat() for name, path in sources.items()}
    data = {name: PACKAGE / "data" / name for module_name, path in sources.items()
            for name in _data_names(path, stats[module_name].st_mtime_ns)}
    digest = hashlib.sha256()
    for name, path in [*sorted(sources.items()), *sorted(data.items())]:
        stat = stats[name] if name in stats else path.stat()
        digest.update(f"{name}\0".encode() + _file_digest(path, stat.st_mtime_ns, stat.st_size))
    return digest.hexdigest()


@functools.lru_cache(maxsize=None)
def _data_names(path: Path, modified_ns: int) -> tuple[str, ...]:
    """The files of the package's ``data`` folder that string constants of ``path`` name."""
    return tuple(sorted({node.value for node in ast.walk(ast.parse(path.read_bytes()))
                         if isinstance(node, ast.Constant) and isinstance(node.value, str)
                         and DATA_NAME.fullmatch(node.value) and (PACKAGE / "data" / node.value).is_file()}))


@functools.lru_cache(maxsize=None)
def _file_digest(path: Path, modified_ns: int, size: int) -> bytes:
    return hashlib.sha256(path.read_bytes()).digest()
