"""Where numba keeps rulelab's compiled kernels, and whether they are there yet.

numba's own cache sits beside each source file and is checked against that file
alone, so a kernel whose callee in another file changed would load stale machine
code. Here every kernel is cached in one folder named by a digest of the source of
the modules that define kernels and of every rulelab module they import, and of where
that source lies (numba files a kernel's cache under its source file's path): a change
to any of them starts a new folder, compiled once, and the same code finds its kernels
however often it is run. An explicit ``NUMBA_CACHE_DIR`` is left as the user set it.

Standard library only (and :mod:`rulelab.source_walk`, which is too): :mod:`rulelab` calls
:func:`use_kernel_cache` when imported, before any kernel module is.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from pathlib import Path

from rulelab.source_walk import PACKAGE, module_name, source_files

READY = "ready"
"""File written in the cache folder once every kernel is compiled into it."""
_KERNEL = re.compile(r"^@numba\.njit", re.M)


def kernel_digest() -> str:
    """A digest of where the package lies, and of the source of every kernel module and
    the rulelab modules they import (:func:`rulelab.source_walk.source_files`)."""
    files: dict[str, Path] = {}
    for path in PACKAGE.rglob("*.py"):
        if _KERNEL.search(path.read_text()):
            files.update(source_files(module_name(path)))
    digest = hashlib.sha256(f"{PACKAGE}\0".encode())
    for path in sorted(files.values()):
        digest.update(f"{path.relative_to(PACKAGE)}\0".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_folder() -> Path:
    """The folder numba caches rulelab's kernels in."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "rulelab" / "numba" / kernel_digest()


def use_kernel_cache() -> None:
    """Point numba's cache at :func:`cache_folder` (workers inherit it through the environment)."""
    folder = str(cache_folder())
    os.environ["NUMBA_CACHE_DIR"] = folder
    if "numba" in sys.modules:  # numba read its settings when it was imported
        sys.modules["numba"].config.CACHE_DIR = folder


def kernels_ready() -> bool:
    """Whether the kernels of this code were compiled into the cache already."""
    return (cache_folder() / READY).is_file()


def mark_ready() -> None:
    """Record that every kernel is in the cache (called once they all ran)."""
    folder = cache_folder()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / READY).touch()
