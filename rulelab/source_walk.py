"""The rulelab modules a module imports, however deep, read from their source: the one
walk behind both digests of code, the parts' keys (:mod:`rulelab.pipeline.fingerprint`)
and the kernel cache's folder (:mod:`rulelab.kernel_cache`).

Standard library only: the kernel cache walks before numba is imported.
"""

from __future__ import annotations

import ast
import functools
import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


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



def module_name(path: Path) -> str:
    """The dotted name of the rulelab module whose source is ``path``."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
