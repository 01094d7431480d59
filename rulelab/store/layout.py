"""The run folder's layout: the file each table and the manifest are kept in.

Every layer names these files — the pipeline that writes them, SQL and the analyses
that read them — so they live here, in a module that imports nothing: a reader of a
run folder need not load the SGF reader or the scorer to find its tables.
"""

GAMES_FILE = "games.parquet"
SCORES_FILE = "scores.parquet"
LIFE_FILE = "life.parquet"
MANIFEST_FILE = "manifest.json"
LOCK_FILE = ".rulelab.lock"
"""The lock every run holds (``flock``): also the mark of a folder rulelab has run in."""

RUN_TABLES = {"games": GAMES_FILE, "scores": SCORES_FILE}
"""The tables every scored run folder has: table name → file name."""
OPTIONAL_TABLES = {"life": LIFE_FILE}
"""Tables a scored run folder has unless it was scored before they existed."""
