"""The report of a run folder: sections of text, figures and tables, rendered as
``index.html`` and ``report.md``.

:func:`rulelab.report.build.build_report` builds it (``rulelab report``); each section
(:mod:`~rulelab.report.sections`) reads the tables loaded once (:mod:`~rulelab.report.shared`)
through the DataFrame functions of :mod:`rulelab.analysis`, and writes its parts as the
blocks of :mod:`~rulelab.report.blocks`. Nothing in :mod:`rulelab.analysis` imports it.
"""

import rulelab.shadowing  # noqa: F401  (first: names a folder that shadows the package)
