"""The reproducible report: sections of text, figures (PNG) and tables (CSV), written
as ``index.html`` and ``report.md`` (:mod:`rulelab.report.render`) into a folder that is
swapped in whole once the build is complete.

Same inputs, same bytes: every table is sorted, every random draw seeded, every
figure saved without a date or software tag, and nothing depends on where the
folders lie (only the run folder's *name* is printed).
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import shutil
import stat
import uuid
from contextlib import contextmanager
from pathlib import Path

from rulelab.errors import InputError
from rulelab.ticker import Heartbeat
from rulelab.report.blocks import Workspace, json_text
from rulelab.report.explorer import write_explorer
from rulelab.report.render import render_html, render_markdown


def build_report(run_dir: str | Path, out_dir: str | Path, *, as_stands: str | Path | None = None,
                 seed_runs: tuple[str | Path, ...] = (), **settings) -> Path:
    """Build the full report of a run folder — the one entry point of every caller.

    The report is built in a folder beside ``out_dir`` and swapped in whole once
    complete, so ``out_dir`` always holds one whole report: the previous one if the
    build fails or is interrupted, the new one after.

    Parameters
    ----------
    run_dir : str or Path
        The run folder (``games.parquet``, ``scores.parquet``, ``manifest.json``): every rate,
        cause and example comes from it (a collection's finished boards: ``--finish play``).
    out_dir : str or Path
        The report folder: ``index.html``, ``report.md``, the PNG/CSV files and the
        marker ``.rulelab-report`` listing them. Replaced whole; an existing folder must
        be empty or hold only a previous report's files. Must lie outside the run folder
        and must not hold it.
    as_stands : str or Path, optional
        A run folder of the same collection scored with ``--finish none``: the rates and the
        parity figures then come on the board as it stands too, as sensitivity rows, and the
        agreement with records counted that way (KGS's) is measured on it.
    seed_runs : tuple of str or Path, optional
        Run folders of the same collection scored with the same options and other seeds
        (``rulelab score --seed S``): the findings then give each even-game pair rate per
        seed, and the games whose verdict changes between seeds.
    **settings
        Fields of :class:`~rulelab.report.shared.Settings` (``seed``, ``n_boot``,
        ``examples_per_cause``, ``komi_grid``).

    Returns
    -------
    Path
        The path of ``index.html``.

    Raises
    ------
    InputError
        If the run folder is incomplete, or ``out_dir`` lies inside it, holds it, or
        holds anything a report build did not write.
    """
    from rulelab.report.sections import SECTIONS
    from rulelab.report.shared import ReportTables, Settings

    under_way = ["reading the run"]
    with Heartbeat(lambda: f"building the report: {under_way[0]}"):
        tables = ReportTables.load(run_dir, Settings(**settings), as_stands, tuple(seed_runs))
        out = _report_folder(run_dir, out_dir)
        with _staged(out) as staging:
            workspace = Workspace(staging)
            sections = []
            for number, (key, build) in enumerate(SECTIONS.items(), 1):
                under_way[0] = f"part {number} of {len(SECTIONS)} ({key})"
                sections.append(build(tables, workspace))
            under_way[0] = "writing the pages and the explorer"
            write_explorer(tables, staging)
            title = f"rulelab report: {tables.run.collection} ({len(tables.run.games):,} game records)"
            (staging / "report.md").write_text(render_markdown(sections, title), encoding="utf-8")
            (staging / "index.html").write_text(render_html(sections, title), encoding="utf-8")
    return out / "index.html"


MARKER = ".rulelab-report"
"""The file that makes a folder a report :func:`build_report` may replace: it lists the
files the build wrote, so a folder holding anything else is never replaced."""


def _report_folder(run_dir: str | Path, out_dir: str | Path) -> Path:
    out = _workspace_path(run_dir, out_dir)
    if out in Path(run_dir).resolve().parents:
        raise InputError(f"The report folder {str(out_dir)!r} holds the run folder {str(run_dir)!r}; "
                         "choose an empty or new folder for the report.")
    _restore(out)
    foreign = _foreign_entries(out)
    if foreign:
        raise InputError(f"The report folder {str(out_dir)!r} holds files rulelab did not write "
                         f"({', '.join(foreign[:3])}{', ...' if len(foreign) > 3 else ''}); "
                         "choose an empty or new folder for the report.")
    for leftover in (_aside(out, "building"), _aside(out, "previous")):
        if os.path.lexists(leftover) and not _all_ours(leftover):
            raise InputError(f"{str(leftover)!r} is in the way of the report and was not written by "
                             "rulelab; move it or choose another report folder.")
    return out


def _listed_files(folder: Path) -> set[str] | None:
    """The files a report build wrote into ``folder``, by its marker; None without one.

    A staging folder's marker names the folder itself (device and inode) rather than its
    files, which are still being written: all of that folder is the build's, and a marker
    copied into another folder names some other folder.
    """
    marker = folder / MARKER
    try:
        if folder.is_symlink() or not stat.S_ISREG(marker.lstat().st_mode):
            return None
        listed = json.loads(marker.read_text(encoding="utf-8"))
        if "building" in listed:
            same = listed["building"] == _identity(folder)
            return {entry.name for entry in os.scandir(folder)} if same else None
        return set(listed["files"]) | {MARKER}
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _all_ours(folder: Path) -> bool:
    """Whether ``folder`` holds only what a report build wrote (its marker says so)."""
    return _listed_files(folder) is not None and not _foreign_entries(folder)


def _identity(folder: Path) -> str:
    info = os.lstat(folder)
    return f"{info.st_dev}:{info.st_ino}"


def _foreign_entries(out: Path) -> list[str]:
    """What in ``out`` no report build wrote: all of it if ``out`` is no folder, nothing if
    it is missing, empty, or holds only the regular files its marker lists."""
    if not os.path.lexists(out):
        return []
    if out.is_symlink() or not out.is_dir():
        return [out.name]
    listed = _listed_files(out) or {MARKER}
    return sorted(entry.name for entry in os.scandir(out)
                  if entry.name not in listed or not entry.is_file(follow_symlinks=False))


def _mark(folder: Path, files: list[str]) -> None:
    (folder / MARKER).write_text(json_text({"files": sorted(files), "written_by": "rulelab report"}) + "\n",
                                 encoding="utf-8")


def _aside(out: Path, role: str) -> Path:
    """The folder beside ``out`` that a build stages into or moves the old report to."""
    return out.with_name(f".{out.name}.{role}")


def _restore(out: Path) -> None:
    """Put back a previous report that a swap interrupted between its two renames."""
    previous = _aside(out, "previous")
    if not os.path.lexists(out) and _listed_files(previous) is not None:
        previous.rename(out)


@contextmanager
def _staged(out: Path):
    """Yield an empty staging folder; on success swap it in for ``out``, else remove it.

    Every folder removed or replaced holds the marker (checked by :func:`_report_folder`),
    so the swap only ever removes files a build wrote. One build at a time per report
    folder: the staging folder is claimed by a rename (which fails onto another build's)
    and its marker held locked (``flock``) while the build runs; one left by a build that
    was killed is unlocked, and removed. Files saved into ``out`` during the build stop
    the swap, which then leaves ``out`` as it is.
    """
    staging, previous = _aside(out, "building"), _aside(out, "previous")
    for leftover in (staging, previous):
        if _all_ours(leftover) and not _locked(leftover / MARKER):
            shutil.rmtree(leftover)
    claim = _aside(out, f"claim-{uuid.uuid4().hex}")
    claim.mkdir(parents=True)
    try:
        (claim / MARKER).write_text(json_text({"building": _identity(claim), "written_by": "rulelab report"})
                                    + "\n", encoding="utf-8")
        lock = open(claim / MARKER, "rb")
    except BaseException:
        shutil.rmtree(claim, ignore_errors=True)
        raise
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            claim.rename(staging)
        except OSError as error:
            shutil.rmtree(claim, ignore_errors=True)
            if error.errno in (errno.ENOTEMPTY, errno.EEXIST):
                raise InputError(f"Another rulelab report is being built into {str(out)!r}; wait for it "
                                 "to end, or choose another report folder.") from None
            raise
        try:
            yield staging
            saved = _foreign_entries(out)
            if saved:
                raise InputError(f"Files were saved into {str(out)!r} while its report was built "
                                 f"({', '.join(saved[:3])}); it is left as it was: move them, and build again.")
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        _mark(staging, [entry.name for entry in os.scandir(staging) if entry.name != MARKER])
        if os.path.lexists(out):
            out.rename(previous)
        staging.rename(out)
        shutil.rmtree(previous, ignore_errors=True)


def _locked(marker: Path) -> bool:
    """Whether a build holds ``marker`` locked (it is still running)."""
    try:
        with open(marker, "rb") as stream:
            fcntl.flock(stream, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    return False


def write_section(key: str, run_dir: str | Path, out_dir: str | Path, *,
                  as_stands: str | Path | None = None, seed_runs: tuple[str | Path, ...] = (),
                  **settings) -> Path:
    """Build one part of the report (its files plus ``<key>.md``) — what each script
    under ``analyses/`` calls; ``as_stands`` and ``seed_runs`` as in :func:`build_report`.

    Raises
    ------
    InputError
        If ``key`` names no section, or as :func:`build_report`.
    """
    from rulelab.report.sections import SECTIONS
    from rulelab.report.shared import ReportTables, Settings

    if key not in SECTIONS:
        raise InputError(f"The report part must be one of {', '.join(SECTIONS)}; got {key!r}.")
    tables = ReportTables.load(run_dir, Settings(**settings), as_stands, tuple(seed_runs))
    workspace = _workspace(run_dir, out_dir)
    section = SECTIONS[key](tables, workspace)
    path = workspace.path / f"{key}.md"
    path.write_text(render_markdown([section], section.title), encoding="utf-8")
    return path


def _workspace(run_dir: str | Path, out_dir: str | Path) -> Workspace:
    return Workspace(_workspace_path(run_dir, out_dir))


def named_report_folder(out_dir: str | Path) -> Path:
    """``out_dir`` as a path, refused when empty (``Path("")`` is the current folder)."""
    if not os.fspath(out_dir).strip():
        raise InputError("The report folder must be named; got an empty path.")
    return Path(out_dir)


def _workspace_path(run_dir: str | Path, out_dir: str | Path) -> Path:
    try:
        run, out = Path(run_dir).resolve(), named_report_folder(out_dir).resolve()
    except RuntimeError:
        raise InputError(f"{str(run_dir)!r} or {str(out_dir)!r} is a loop of symbolic links.") from None
    if out == run or run in out.parents:
        raise InputError(f"The report folder must lie outside the run folder {str(run_dir)!r}: "
                         "outputs never go inside an input folder.")
    return out
