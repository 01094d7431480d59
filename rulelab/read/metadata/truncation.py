"""Records that say their source stopped before the game did.

Debian's ``goban-original-games`` marks two of its 596 records in the game comment:
``GC[Moves after 200 not in source]`` (M-66-2.mgt, M-66-5.mgt). Their final boards
are not the boards the recorded results counted, so no count of them can reproduce the
result.
"""

from __future__ import annotations

import re

_MOVES_NOT_IN_SOURCE = re.compile(r"moves\s+after\s+(\d{1,4})\s+not\s+in\s+(?:the\s+)?source", re.I)


def moves_missing_after(comment: str | None) -> int | None:
    """The move after which a record says its moves are missing, from its comment; None
    when it says nothing of the kind.

    Examples
    --------
    >>> moves_missing_after("Moves after 204 not in source"), moves_missing_after("Game 2")
    (204, None)
    """
    match = _MOVES_NOT_IN_SOURCE.search(comment or "")
    return int(match.group(1)) if match else None
