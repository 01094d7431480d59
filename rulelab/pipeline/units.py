"""The stream of input files cut into units: the grain of work, of checkpoints and of reuse.

A unit is a run of consecutive input files (or archive members). Where one unit ends
is decided by the names of the files, not by counting: a file whose name hashes to a
multiple of ``boundary_every`` closes its unit. So adding, removing or changing one
file changes only the unit it falls in (and, rarely, the next one); every other unit
keeps exactly the files it had, hence its digest, hence its results. Only the file's
own name (and archive member) is hashed, not the folder it sits in, so a collection
is cut the same way wherever it is. Caps on files and bytes per unit keep the memory
one unit needs bounded whatever the collection holds.

A unit's digest hashes, for each file, its path, its archive member and the SHA-256 of
its bytes (or, for a file that could not be read, the error); :func:`derive_key` adds
the options and code that will process it.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from typing import Iterable, Iterator

from rulelab.read.sources import FileFailure, RawFile

BOUNDARY_EVERY = 128
"""Files per unit on average. Every unit costs its parts' writes, checks and reads
whatever it holds: 128 rather than 64 took kgs-dev's whole pipeline with 2 jobs from
1.00x to 1.08x the sgfmill baseline (``bench.run.bench_throughput``, consecutive runs)."""
MAX_FILES = 512
"""Four times the mean, so the cap, which shifts the cuts after it when a file is
added, ends fewer than 2% of units."""
MAX_BYTES = 8 << 20


@dataclass(frozen=True)
class Unit:
    """Consecutive input files processed, checkpointed and reused together."""

    items: tuple[RawFile | FileFailure, ...]
    digest: str
    """SHA-256 over the files' names and contents (see :func:`item_digest`)."""
    size: int
    """Bytes of file content held."""


def derive_key(salt: str, digest: str) -> str:
    """The name of what is made with ``salt`` (options and code) from what ``digest`` names.

    Applied to a unit's digest it names the unit's first table; applied again to that
    key it names the table made from those rows, and so on down the pipeline.
    """
    return hashlib.sha256(f"{salt}\n{digest}".encode()).hexdigest()


def item_digest(item: RawFile | FileFailure) -> bytes:
    """What identifies one input: where it is and what it holds (or why it could not be read)."""
    content = (item.sha256 if isinstance(item, RawFile)
               else f"{type(item.error).__name__}: {item.error}")
    return "\0".join((item.path, item.member or "", content)).encode("utf-8", "surrogateescape") + b"\n"


def _ends_unit(item: RawFile | FileFailure, boundary_every: int) -> bool:
    name = f"{os.path.basename(item.path)}\0{item.member or ''}".encode("utf-8", "surrogateescape")
    return int.from_bytes(hashlib.blake2b(name, digest_size=8).digest(), "big") % boundary_every == 0


def plan_units(items: Iterable[RawFile | FileFailure], *, boundary_every: int = BOUNDARY_EVERY,
               max_files: int = MAX_FILES, max_bytes: int = MAX_BYTES) -> Iterator[Unit]:
    """Cut ``items`` (as :func:`rulelab.read.sources.iter_files` yields them) into units, streaming.

    Parameters
    ----------
    items : iterable of RawFile or FileFailure
        The input files in their canonical order.
    boundary_every : int
        A unit ends after a file whose name hashes to a multiple of this, so units
        hold this many files on average.
    max_files, max_bytes : int
        A unit also ends once it holds this many files or bytes of content.

    Yields
    ------
    Unit
        Consecutive, non-empty, covering ``items`` exactly once, in order.

    Examples
    --------
    Adding a file in the middle of a collection leaves every other unit as it was:

    >>> files = [RawFile(f"game{i}.sgf", None, b"(;)") for i in range(300)]
    >>> before = {unit.digest for unit in plan_units(files)}
    >>> grown = files[:150] + [RawFile("new.sgf", None, b"(;)")] + files[150:]
    >>> after = [unit.digest for unit in plan_units(grown)]
    >>> len(after), len(set(after) - before)
    (6, 1)
    """
    held: list = []
    digest = hashlib.sha256()
    size = 0
    for item in items:
        held.append(item)
        digest.update(item_digest(item))
        size += len(item.data) if isinstance(item, RawFile) else 0
        if len(held) >= max_files or size >= max_bytes or _ends_unit(item, boundary_every):
            yield Unit(tuple(held), digest.hexdigest(), size)
            held, digest, size = [], hashlib.sha256(), 0
    if held:
        yield Unit(tuple(held), digest.hexdigest(), size)
