"""Stop, in one line, when ``import rulelab`` found a folder that is not this package.

Python looks for ``rulelab`` in the script's folder (or the current one, for ``python -c``
and ``python -m``) before the installed package. A folder there holding an ``__init__.py``
replaces the package; one without (an empty folder, or a checkout beside the script)
becomes a namespace package, which wins over an editable install (``make install``): the
package's own ``__init__`` then never runs, while its subpackages still load through the
editable install and fail far from the cause. Each subpackage, and the command line,
imports this module first, so the first of them to load names the folder in the way.
Standard library only: it runs before anything else of rulelab.
"""

from __future__ import annotations

import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def shadowing_folder() -> str | None:
    """The folder imported as ``rulelab`` in place of this package (the folders of a
    namespace package), or None when ``rulelab`` is this package."""
    top = sys.modules.get(PACKAGE.name)
    if top is None:
        return None
    origin = getattr(top, "__file__", None)
    if origin is None:
        return ", ".join(top.__path__)
    folder = Path(origin).resolve().parent
    return None if folder == PACKAGE else str(folder)


def check_package() -> None:
    """Raise ImportError naming the folder that shadows this package, if one does."""
    folder = shadowing_folder()
    if folder is not None:
        raise ImportError(f"the folder {folder} is imported as rulelab instead of the package in {PACKAGE}: "
                          "Python finds it first, beside the script or in the current folder; rename or "
                          "move it, or run the script from another folder")


check_package()
