"""The final position a games-table row stores, rebuilt without replaying the game.

The score stage and every later reader (validation, drawing a game) rebuild positions
here; it imports neither the life package nor the scorer.
"""

from __future__ import annotations

import pandas as pd

from rulelab.position import BLACK, EMPTY, WHITE, Position

COLOUR = {"B": BLACK, "W": WHITE, None: EMPTY}
COUNTED_KINDS = ("counted", "draw")
"""Result kinds of games the players counted to the end."""

POSITION_COLUMNS = [
    "game_id", "status", "board", "board_rows", "board_cols", "territory_marks",
    "captured_black", "captured_white", "placed_black", "placed_white", "passes_black",
    "passes_white", "to_move", "last_placer", "ko_point", "handicap", "komi", "rules", "source",
    "ended_by_passes", "illegal_move_count", "cycle",
    "cycle_start", "cycle_end", "ended_in_cycle",
]


def position_from_row(row: dict) -> Position:
    """Rebuild the final position stored in a games-table row."""
    rows, cols = int(row["board_rows"]), int(row["board_cols"])  # floats beside a failed game
    marks = row["territory_marks"]
    ko = row["ko_point"]
    return Position(
        board=Position.board_from_bytes(row["board"], rows, cols),
        captured_black=row["captured_black"],
        captured_white=row["captured_white"],
        placed_black=row["placed_black"],
        placed_white=row["placed_white"],
        passes_black=row["passes_black"],
        passes_white=row["passes_white"],
        to_move=COLOUR[row["to_move"]],
        last_placer=COLOUR[row["last_placer"]],
        ko_point=None if pd.isna(ko) else divmod(int(ko), cols),  # NaN from a pandas row
        handicap=0 if pd.isna(row["handicap"]) else int(row["handicap"]),
        territory_marks=None if marks is None else Position.board_from_bytes(marks, rows, cols),
        ended_by_passes=None if pd.isna(row["ended_by_passes"]) else bool(row["ended_by_passes"]),
    )
