"""What the playouts keep of a board, set up as the kernel sets it: for tests of one step."""

import numpy as np

from rulelab.board import pad
from rulelab.life.strings import build_strings, new_strings
from rulelab.position import EMPTY


def playout_state(board: np.ndarray) -> tuple:
    """``(padded, stride, head, nxt, libs, nlibs, slot)`` of a ``(rows, cols)`` board: its
    strings built and every empty point in the list of playable points."""
    stride = board.shape[1] + 2
    padded = pad(board.astype(np.int8))
    head, nxt, size, libs, nlibs = new_strings(padded.size)
    build_strings(padded, stride, head, nxt, size, libs, nlibs)
    slot = np.full(padded.size, -1, dtype=np.int32)
    empties = np.flatnonzero(padded == EMPTY)
    slot[empties] = np.arange(empties.size, dtype=np.int32)
    return padded, stride, head, nxt, libs, nlibs, slot
