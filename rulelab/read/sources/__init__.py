"""Bytes and provenance of game records, from files, folders and archives.

Nothing is ever unpacked to disk: archives are read as streams, member by member, and
every read is capped (:class:`Limits`) so that a hostile or broken collection costs a
:class:`FileFailure`, never the run. :mod:`~rulelab.read.sources.inputs` walks what the
caller names; :mod:`~rulelab.read.sources.tar_reader` and
:mod:`~rulelab.read.sources.zip_reader` read archives; :mod:`~rulelab.read.sources.streams`
opens, caps and hashes; :mod:`~rulelab.read.sources.names` tells files apart by name;
:mod:`~rulelab.read.sources.items` holds what is yielded and counted.

Decisions, so that a run over any collection is deterministic and safe:

- Folders are walked in sorted name order; symlinks found in them are reported, not
  followed. A path named on the command line is read whatever its name (and followed
  if it is a symlink); inside folders and archives only ``.sgf`` and ``.mgt`` files
  (any case) are game files, and archives found in folders are opened.
- Archive members with absolute paths or ``..`` components, links and device
  entries are reported without reading their content.
- Archives inside archives and compressed single files (``.sgf.gz``) are not opened:
  each is one ``"skipped"`` row and is counted in :attr:`ReadStats.skipped`. Opening
  them would let one compressed member expand past every cap, and collections that
  ship one (GNU Go's ``seki_exotics.tgz``) also ship its contents beside it.
- Only regular files are opened, and a file is checked to be one on the open
  descriptor, so a FIFO or a device (named on the command line, or swapped in for a
  file mid-run) is a row, never a read that blocks or never ends.
- Each input is hashed once, from the bytes read (:attr:`ReadStats.inputs`), so the
  manifest describes exactly what was parsed, and a path that vanishes or fails
  costs its own row, never the run (a path named that is missing or unreadable from
  the start is refused before a run begins: :func:`check_inputs`). No exception raised while reading one input
  leaves :func:`iter_files`: it becomes that input's row.
- A zip whose end record claims more entries or directory bytes than the caps is one
  row, refused before ``zipfile`` loads its directory (which it holds whole); one whose
  directory ``zipfile`` cannot load is one row, and its members are read from their
  local headers (:mod:`~rulelab.read.sources.zip_local`).
- Every archive has a row: one holding no game file is one ``"skipped"`` row.
- Tar archives are decompressed by format (gzip, xz, bzip2 or none, told by their
  first bytes, not their name); a stream that stops early is reported with the
  number of members read before the damage, and every member wholly before it is
  kept. A member is skipped by reading up to its end, so a size that claims more than
  the data holds ends with a row; sparse members are refused, their maps never built.
"""

from rulelab.read.sources.inputs import check_inputs, input_size, iter_files
from rulelab.read.sources.items import FileFailure, Limits, RawFile, ReadStats

__all__ = ["FileFailure", "Limits", "RawFile", "ReadStats", "check_inputs", "input_size", "iter_files"]
