"""Install a CPU-capable KataGo from the package registries (``make katago``).

Run as ``python -m tools.katago_setup`` from the checkout: it needs nothing but the
standard library and :mod:`rulelab.katago_install` (where the files go), so the install
does not wait for rulelab's compiled kernels.

The PyPI wheel ``katrain==1.20.0`` carries KataGo 1.18.1 built for OpenCL (an
AppImage, unpacked without FUSE) and a b10 net; Debian's PoCL runs OpenCL on the CPU.
KataGo's OpenCL autotuner crashes under PoCL, so the config must load a tuning file.
The one this project measured with lives in ``../shared/katago/`` and carries no licence
of its own, so it is not copied into the repository: the config points at it (or at
``$RULELAB_KATAGO_TUNER``), and without one the install stops with a message that says so.

Every step is skipped when its result is already there, so reruns cost nothing. Each
step that runs says so on standard error, and a long one says every few seconds that
it is still under way.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from rulelab.katago_install import DEFAULT_HOME, WHEEL_MODEL, installed_paths

WHEEL = "katrain==1.20.0"
WHEEL_BINARY = "katrain/KataGo/katago"
APT_PACKAGES = ("ocl-icd-libopencl1", "pocl-opencl-icd")
SHARED_TUNER = Path(__file__).resolve().parents[1] / ".." / "shared" / "katago" / "tune_pocl_manual.txt"
HEARTBEAT = 5.0
"""Seconds between the lines that say a step is still under way."""


class SetupError(RuntimeError):
    """A step of the install could not be done; the message says which and why."""


def analysis_config(tuner: Path, threads: int = 2) -> str:
    """The analysis engine's config for one CPU OpenCL device.

    One visit per position (the raw net's ownership is what dead stones need), the net
    always seen in the same orientation (no random symmetry: a rerun gives the same
    verdicts), ownership reported from Black's side, and the tuning file that keeps the
    autotuner from running.
    """
    return "\n".join([
        "logToStderr = false",
        "logAllRequests = false",
        "logSearchInfo = false",
        "reportAnalysisWinratesAs = BLACK",
        "maxVisits = 1",
        "nnRandomize = false",
        "numAnalysisThreads = 1",
        "numSearchThreads = 1",
        f"nnMaxBatchSize = {max(1, threads) * 4}",
        "numNNServerThreadsPerModel = 1",
        "openclDeviceToUseThread0 = 0",
        "openclUseFP16 = false",
        f"openclTunerFile = {tuner}",
        "",
    ])


def find_tuner() -> Path | None:
    """The PoCL tuning file: ``$RULELAB_KATAGO_TUNER``, else the shared one."""
    named = os.environ.get("RULELAB_KATAGO_TUNER")
    for candidate in (Path(named) if named else None, SHARED_TUNER.resolve()):
        if candidate is not None and candidate.is_file():
            return candidate
    return None


def _say(message: str) -> None:
    print(f"katago: {message}", file=sys.stderr, flush=True)


def _run(command: list[str], step: str, cwd: Path | None = None) -> None:
    """Run one step's command, saying so, and every :data:`HEARTBEAT` seconds that it still runs."""
    _say(f"{step} ...")
    began = time.monotonic()
    with subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as process:
        while True:
            try:
                out, err = process.communicate(timeout=HEARTBEAT)
                break
            except subprocess.TimeoutExpired:  # communicate again loses no output
                _say(f"still {step} ({time.monotonic() - began:.0f} s)")
    if process.returncode != 0:
        tail = (err or out).strip().splitlines()[-3:]
        raise SetupError(f"{step} failed ({' '.join(command[:3])} ...): {' | '.join(tail)}")


def _install_opencl() -> None:
    """Debian's OpenCL loader and PoCL, unless the PoCL driver is already registered."""
    if Path("/etc/OpenCL/vendors/pocl.icd").is_file():
        return
    if shutil.which("apt-get") is None:
        raise SetupError("no apt-get: install an OpenCL runtime for the CPU (PoCL) by hand")
    _run(["apt-get", "update", "-qq"], "apt-get update")
    _run(["apt-get", "install", "-y", "-qq", *APT_PACKAGES], "apt-get install")


def _unpack_wheel(home: Path, binary: Path, model: Path) -> None:
    """Download the wheel, take the AppImage and the net out of it, unpack the AppImage."""
    with tempfile.TemporaryDirectory(dir=home) as scratch:
        scratch = Path(scratch)
        _run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--timeout", "30",
              "--retries", "1", WHEEL, "-d", str(scratch)], "pip download " + WHEEL)
        wheel = next(scratch.glob("katrain-*.whl"))
        _say("taking KataGo and its net out of the wheel ...")
        with zipfile.ZipFile(wheel) as archive:
            if not model.is_file():
                with archive.open(WHEEL_MODEL) as source, open(model.with_suffix(".part"), "wb") as target:
                    shutil.copyfileobj(source, target)
                model.with_suffix(".part").rename(model)
            if not binary.is_file():
                appimage = scratch / "katago"
                with archive.open(WHEEL_BINARY) as source, open(appimage, "wb") as target:
                    shutil.copyfileobj(source, target)
                appimage.chmod(0o755)
                _run([str(appimage), "--appimage-extract"], "unpacking the AppImage", cwd=scratch)
                shutil.rmtree(home / "squashfs-root", ignore_errors=True)
                (scratch / "squashfs-root").rename(home / "squashfs-root")


def install(home: Path = DEFAULT_HOME) -> tuple[Path, Path, Path]:
    """Install KataGo, its net and an analysis config into ``home``; return their paths.

    Raises
    ------
    SetupError
        A step that cannot be done on this machine (no network, no apt-get, no tuning file).
    """
    home.mkdir(parents=True, exist_ok=True)
    binary, model, config = installed_paths(home)
    tuner = find_tuner()
    if tuner is None:
        raise SetupError(
            "no PoCL tuning file: KataGo's OpenCL autotuner crashes under PoCL. Put one at "
            f"{SHARED_TUNER.resolve()} (see ../shared/katago/README.md) or name it in "
            "$RULELAB_KATAGO_TUNER")
    if not (binary.is_file() and model.is_file()):
        _unpack_wheel(home, binary, model)
    _install_opencl()
    text = analysis_config(tuner, os.cpu_count() or 1)
    if not config.is_file() or config.read_text() != text:
        config.write_text(text)
    return binary, model, config


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, default=DEFAULT_HOME, help="install folder")
    parser.add_argument("--optional", action="store_true",
                        help="report a failed install and exit 0 (for make test)")
    args = parser.parse_args(argv)
    try:
        paths = install(args.home)
    except (SetupError, OSError) as exc:
        print(f"katago not installed: {exc}", file=sys.stderr)
        return 0 if args.optional else 1
    print("katago ready: " + " ".join(str(p) for p in paths))
    return 0


if __name__ == "__main__":
    sys.exit(main())
