"""The run folder: its layout, the table schemas and writer, provenance, and SQL over it.

Every later reader (the report, SQL, the analyses) goes through this layer, which
imports neither the SGF reader nor the scorer.
"""

import rulelab.shadowing  # noqa: F401  (first: names a folder that shadows the package)
