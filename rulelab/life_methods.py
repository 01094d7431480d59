"""The ways a run can decide dead stones (:func:`rulelab.life.decide_life`).

A module of its own that imports nothing, so that the command line can list them
without loading the life package and its compiled kernels.
"""

METHODS = ("auto", "estimate", "markup", "gnugo", "katago")

PLAYERS_MARKS = "markup"
"""The method of a verdict that is the players' own marks (``TB``/``TW``): their agreement,
which no status reading overrules (:func:`rulelab.life.status.ruled_cases`)."""

ENGINE_METHODS = ("gnugo", "katago")
"""The methods that ask another program, which can also give a second opinion
(``rulelab validate --second-opinion``)."""
