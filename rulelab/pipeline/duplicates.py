"""The same game found twice: ``duplicate_of`` points every later copy at the first.

Two records are one game when their ids agree (the same moves and metadata), or when they
share :data:`SAME_GAME_MOVES` or more moves exactly (``moves_hash``): an ``.mgt`` and an
``.sgf`` of one title game spell the players differently, but no two games play the same
hundred moves from the same setup.

Which copy comes first depends on the whole collection, so pointers are filled in when
the games table is assembled, not when a unit is read: units stay independent of each
other (and reusable), and the pointers are the same however the work was split.
Finding repeats needs only the ``game_id`` column (held as Arrow, a few tens of bytes a
game); the copies' locations are kept only for the games that do repeat.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Iterable, Iterator

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from rulelab.read.records import location


SAME_GAME_MOVES = 100
"""Moves two records must share exactly, from the same setup, to be one game."""


def copy_keys(games: pa.Table) -> pa.Array:
    """What makes two rows of the games table one game: the moves of a game of
    :data:`SAME_GAME_MOVES` or more moves, else its id.

    Examples
    --------
    >>> table = pa.table({"game_id": ["a", "b", "c"], "moves_hash": ["m", "m", "m"], "move_count": [200, 200, 30]})
    >>> copy_keys(table).to_pylist()
    ['moves:m', 'moves:m', 'id:c']
    """
    long = pc.greater_equal(pc.fill_null(games["move_count"], 0), SAME_GAME_MOVES)
    by_moves = pc.binary_join_element_wise("moves:", pc.fill_null(games["moves_hash"].cast(pa.string()), ""), "")
    by_id = pc.binary_join_element_wise("id:", games["game_id"].cast(pa.string()), "")
    return pc.if_else(long, by_moves, by_id)


def first_copies(game_ids: Iterable[pa.Array | pa.ChunkedArray]) -> dict[int, int]:
    """Row number of each repeated game → row number of its first copy.

    Parameters
    ----------
    game_ids : iterable of Arrow string arrays
        What identifies a game (:func:`copy_keys`, or the ``game_id`` column), in
        consecutive pieces of the games table.

    Examples
    --------
    >>> first_copies([pa.array(["a", "b"]), pa.array(["a", "c", "b", "a"])])
    {2: 0, 4: 1, 5: 0}
    """
    chunks = [chunk for ids in game_ids
              for chunk in (ids.chunks if isinstance(ids, pa.ChunkedArray) else [ids])]
    ids = pa.chunked_array(chunks, type=pa.string())
    rows = pa.table({"game_id": ids, "row": pa.array(np.arange(len(ids), dtype=np.int64))})
    groups = rows.group_by("game_id").aggregate([("row", "min"), ("row", "count")])
    repeated = groups.filter(pc.greater(groups["row_count"], 1)).drop_columns("row_count")
    if repeated.num_rows == 0:
        return {}
    copies = rows.join(repeated, "game_id", use_threads=False)
    copies = copies.filter(pc.not_equal(copies["row"], copies["row_min"]))
    return dict(sorted(zip(copies["row"].to_pylist(), copies["row_min"].to_pylist())))


def mark_duplicates(tables: Iterable[pa.Table], first: dict[int, int]) -> Iterator[pa.Table]:
    """``tables`` (consecutive pieces of the games table) with ``duplicate_of`` filled in.

    ``first`` is :func:`first_copies` of the same rows. A pointer names the first
    copy's file, archive member and index in the file, as ``path:member#index``.
    """
    originals = sorted(set(first.values()))
    repeats = sorted(first)
    where: dict[int, str] = {}
    offset = 0
    for table in tables:
        end = offset + table.num_rows
        for row in originals[bisect_left(originals, offset): bisect_left(originals, end)]:
            found = table.slice(row - offset, 1).to_pylist()[0]
            where[row] = location(found["source_path"], found["archive_member"], found["game_index"])
        here = repeats[bisect_left(repeats, offset): bisect_left(repeats, end)]
        if here:
            pointers = [None] * table.num_rows
            for row in here:
                pointers[row - offset] = where[first[row]]
            column = table.schema.get_field_index("duplicate_of")
            table = table.set_column(column, table.schema.field(column), pa.array(pointers, pa.string()))
        yield table
        offset = end


def copies_of_games(games: pa.Table) -> dict[str, list[str | None]]:
    """For each game read more than once, ``duplicate_of`` of each copy in table order.

    ``games`` holds the columns ``game_id`` and ``duplicate_of`` of a games table.
    """
    repeated = games.filter(pc.invert(pc.is_null(games["duplicate_of"])))["game_id"].unique()
    copies: dict[str, list[str | None]] = {}
    rows = games.filter(pc.is_in(games["game_id"], repeated))
    for game_id, pointer in zip(rows["game_id"].to_pylist(), rows["duplicate_of"].to_pylist()):
        copies.setdefault(game_id, []).append(pointer)
    return copies


def mark_copies(tables: Iterable[pa.Table], copies: dict[str, list[str | None]],
                by: tuple[str, ...] = ("game_id", "ruleset", "komi_source")) -> Iterator[pa.Table]:
    """Consecutive pieces of a table made from the games table (scores, life) with
    ``duplicate_of`` filled in.

    A game's rows of one kind (the columns ``by``: in the scores table one ruleset and
    komi source) come in the order of its copies in the games table, so the k-th such
    row belongs to the k-th copy and takes its pointer. ``copies`` is
    :func:`copies_of_games` of that games table.
    """
    seen: dict[tuple, int] = {}
    wanted = pa.array(list(copies), pa.string())
    for table in tables:
        rows = pc.indices_nonzero(pc.is_in(table["game_id"], wanted)).to_pylist()
        if rows:
            pointers = [None] * table.num_rows
            picked = table.select(list(by)).take(rows).to_pylist()
            for row, key in zip(rows, picked):
                k = seen.get(tuple(key.values()), 0)
                seen[tuple(key.values())] = k + 1
                pointers[row] = copies[key["game_id"]][k]
            column = table.schema.get_field_index("duplicate_of")
            table = table.set_column(column, table.schema.field(column), pa.array(pointers, pa.string()))
        yield table
