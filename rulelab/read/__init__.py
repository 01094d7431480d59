"""Reading: sources and archives, text decoding, SGF, metadata, and one row per game.

The bottom layer of the pipeline: it turns bytes into game records and replays their
moves, and knows nothing of life and death, scoring or the run folder.
"""

import rulelab.shadowing  # noqa: F401  (first: names a folder that shadows the package)
