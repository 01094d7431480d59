"""Scripts that build the report of a run folder, whole (``build``) or one part each.

Run from the project root: ``python -m analyses.build RUN_DIR OUT_DIR`` or, for one
part, ``python -m analyses.divergence RUN_DIR OUT_DIR``.
"""
