"""Scripts over a run folder, run from the project root: ``python -m analyses.part KEY RUN_DIR
OUT_DIR`` rebuilds one part of the report (``rulelab report`` builds all of it), and
``python -m analyses.conventions RUN_DIR`` prints which counting conventions each source's
recorded results follow. ``fetch_default_corpus.sh`` fetches the corpus of ``make analysis``.
"""
