"""The code that makes a stage's rows: the source of a module and of every rulelab module
it imports, however deep, and the package data files they name (a fitted model, say),
hashed into one fingerprint that part keys hold."""

from __future__ import annotations

import ast
import functools
import hashlib
import os
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]
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


def source_files(module: str) -> dict[str, Path]:
    """``module`` and the rulelab modules it imports, directly or not, with their files.

    Imports are read from the source, so those made inside functions count too. The
    walk is kept until a file it found, or a folder holding one, changes.
    """
    walked = _walks.get(module)
    if walked is None or walked[1] != _stamps(walked[0]):
        found = _walk_imports(module)
        walked = _walks[module] = (found, _stamps(found))
    return walked[0]


_walks: dict[str, tuple[dict[str, Path], tuple[int, ...]]] = {}


def _stamps(found: dict[str, Path]) -> tuple[int, ...]:
    """Modification times of the files and of their folders (a file added to one
    changes the folder's)."""
    paths = sorted({*found.values(), *(path.parent for path in found.values())})
    try:
        return tuple(os.stat(path).st_mtime_ns for path in paths)
    except OSError:
        return ()


def _walk_imports(module: str) -> dict[str, Path]:
    found: dict[str, Path] = {}
    pending = [module]
    while pending:
        name = pending.pop()
        path = _module_file(name)
        if name in found or path is None:
            continue
        found[name] = path
        pending.extend(_rulelab_imports(name, path, path.stat().st_mtime_ns))
    return found


def _module_file(name: str) -> Path | None:
    """The source file of a rulelab module or package, if ``name`` is one."""
    parts = name.split(".")
    if parts[0] != PACKAGE.name:
        return None
    base = PACKAGE.joinpath(*parts[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


@functools.lru_cache(maxsize=None)
def _rulelab_imports(name: str, path: Path, modified_ns: int) -> tuple[str, ...]:
    """Names of the modules (or candidate modules) the import statements of ``path`` name.

    Cached per modification time: parsing is what costs, and files rarely change.
    """
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    names = []
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            names += [base] + [f"{base}.{alias.name}" for alias in node.names]
    return tuple(names)

