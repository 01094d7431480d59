"""Where KataGo's files are found: the folder ``make katago`` installs them in, their names
there, and the environment variables that name others. Standard library only, so that the
installer (``tools/katago_setup.py``) and the command line read it without loading the
life package, which finds the files by it (:func:`rulelab.life.katago.find_katago`)."""

from __future__ import annotations

from pathlib import Path

DEFAULT_HOME = Path(__file__).resolve().parents[1] / "cache" / "katago"
"""The install folder of ``make katago``, in the checkout."""

WHEEL_MODEL = "katrain/models/b10c384h6nbttflrs.bin.gz"
"""The net inside the PyPI wheel the install takes it from."""

ENVIRONMENT = {"binary": "RULELAB_KATAGO", "model": "RULELAB_KATAGO_MODEL",
               "config": "RULELAB_KATAGO_CONFIG"}
"""The environment variables naming the engine's files, which worker processes inherit."""


def installed_paths(home: Path = DEFAULT_HOME) -> tuple[Path, Path, Path]:
    """``(binary, model, config)`` of an install in ``home``.

    Examples
    --------
    >>> [path.name for path in installed_paths(Path("k"))]
    ['AppRun', 'b10c384h6nbttflrs.bin.gz', 'analysis.cfg']
    """
    return home / "squashfs-root" / "AppRun", home / Path(WHEEL_MODEL).name, home / "analysis.cfg"
