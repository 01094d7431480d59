"""One file's bytes → one games-table row per game found in it.

This is the per-game work of ingest: decode, split, parse with sgfmill, normalise
metadata, replay the main line. Any failure becomes the row's ``status`` and ``error``;
a failure never escapes, so one bad game costs only its own row. A value its column
cannot hold (``HA[128]`` in an int8) is stored as null with a warning, so no record can
stop the table from being written. Rows are made one at a time, so a file of many
games costs the memory of its text, not of its rows.

Budget: the games of one file (or archive member) may together hold ``MAX_FILE_WORK``
nodes and setup points; once a game has crossed it, the games after it are one row that
says so. The byte cap alone does not bound the work, since one ``AB[aa:ss]`` of
nine bytes is 361 setup points: a 64 MiB member of such games took 23 minutes. The budget
is counted, never timed, so the tables do not depend on the machine.
"""

from __future__ import annotations

import hashlib
from typing import Iterator

import numpy as np
import pyarrow as pa

from rulelab.read import metadata
from rulelab.board import liberty_map
from rulelab.errors import GameError, ParseError, RulelabError, printable, raise_if_interrupted
from rulelab.position import BLACK, COLOUR_NAME, WHITE
from rulelab.read.decoding import Decoded, decode_sgf
from rulelab.read.replay import replay
from rulelab.read.sgf import (MOVE, SETUP_ADD, Game, GameText, content_hash, game_events, parse_game, split_games,
                  territory_marks)
from rulelab.read.sgf.events import MAX_EVENTS
from rulelab.read.sgf.parse import MAX_NODES
from rulelab.read.sources import FileFailure, RawFile
from rulelab.rules import replay_rules
from rulelab.store.tables import GAMES_SCHEMA, games_row


def location(path: str, member: str | None, index: int | None = None) -> str:
    """Where a game was read, as ``path:member#index`` (the form of errors and ``duplicate_of``)."""
    where = f"{path}:{member}" if member else path
    return where if index is None else f"{where}#{index}"


def failure_rows(failure: FileFailure) -> list[dict]:
    """The single row standing for a file (or archive member) that could not be read."""
    error = failure.error
    where = printable(location(failure.path, failure.member))
    return [
        games_row(
            game_id=hashlib.sha256(where.encode()).hexdigest()[:20],
            source_path=printable(failure.path),
            archive_member=printable(failure.member),
            status=error.status,
            error=printable(f"{where}: {error}"),
        )
    ]


def file_rows(raw: RawFile, *, superko: bool = False) -> Iterator[dict]:
    """Every game of one file as rows, one at a time; a file that yields no game still
    yields one row. Moves are judged by the rules each record names, with ``superko`` by
    positional superko whatever they are (:func:`rulelab.rules.replay_rules`)."""
    sha = raw.sha256
    base = dict(source_path=printable(raw.path), archive_member=printable(raw.member),
                file_sha256=sha)
    where = location(base["source_path"], base["archive_member"])
    try:
        decoded = decode_sgf(raw.data)
        games, warnings = split_games(decoded.text)
    except RulelabError as error:
        yield games_row(game_id=sha[:20], status=error.status, error=printable(f"{where}: {error}"), **base)
        return
    except Exception as error:  # a bug must cost one row, not the run
        raise_if_interrupted(error)
        yield games_row(game_id=sha[:20], status="internal_error", error=f"{where}: {error!r}", **base)
        return
    file_warnings = "; ".join(warnings) or None
    work = [0]
    for text in games:
        if work[0] > MAX_FILE_WORK:
            text = GameText(text.index, "", text.offset, _over_budget(games, text))
        yield game_row(text, decoded, base, file_warnings if text.index == 0 else None, superko, work)
        if text.unread is not None:
            return


MAX_FILE_WORK = 8_000_000
"""Nodes (``;``) and setup points of one file's games together: five times the largest
file of the development corpora (7,472 games, 1,610,000 of them), and room for one game
at every per-game cap (``MAX_NODES`` plus ``MAX_EVENTS``)."""
assert MAX_FILE_WORK >= MAX_NODES + MAX_EVENTS


def _over_budget(games: list[GameText], text: GameText) -> str:
    rest = games[text.index:]
    return (f"the file's games before this one hold more than {MAX_FILE_WORK:,} nodes and setup points "
            f"(the work budget of one file); the rest ({len(rest):,} games, "
            f"{sum(len(game.text) for game in rest):,} characters) is not read")


def game_row(text: GameText, decoded: Decoded, base: dict, warnings: str | None,
             superko: bool, work: list[int]) -> dict:
    """Parse, normalise and replay one game; errors are recorded, never raised. Its nodes
    and setup points are added to ``work[0]``, the file's budget spent so far."""
    identity = text.text if text.unread is None else f"{base['file_sha256']}@{text.offset}"
    row = games_row(
        game_id=hashlib.sha256(identity.encode("utf-8", "surrogatepass")).hexdigest()[:20],
        game_index=text.index,
        encoding_used=decoded.encoding,
        encoding_lossy=decoded.lossy,
        warnings=warnings,
        status="ok",
        **base,
    )
    try:
        if text.unread is not None:
            raise ParseError(text.unread)
        work[0] += text.text.count(";")
        game = parse_game(text.text)
        described = describe(game)
        add_warning(row, described.pop("warnings"))
        row.update(described)
        events = game_events(game)
        work[0] += int(np.count_nonzero(events[:, 0] != MOVE))
        row["moves_hash"] = content_hash(game, events)
        row["game_id"] = record_id(row)
        row.update(replayed(game, events, row, superko))
        for problem in (*unread_values(row), *unfit_values(row)):
            add_warning(row, problem)
        if (events[:, 0] == SETUP_ADD).any():  # moves alone never leave a stone without liberties
            check_liberties(row)
    except RulelabError as error:
        row["status"] = error.status
        row["error"] = f"{location(base['source_path'], base['archive_member'], text.index)}: {error}"
    except Exception as error:  # a bug must cost one row, not the run
        raise_if_interrupted(error)
        row["status"] = "internal_error"
        row["error"] = f"{location(base['source_path'], base['archive_member'], text.index)}: {error!r}"
    return row


def add_warning(row: dict, warning: str | None) -> None:
    """Append ``warning`` to the row's ``warnings`` (``; ``-separated)."""
    if warning:
        row["warnings"] = f"{row['warnings']}; {warning}" if row["warnings"] else warning


_INT_RANGES = {f.name: np.iinfo(f.type.to_pandas_dtype()) for f in GAMES_SCHEMA if pa.types.is_integer(f.type)}


def unread_values(row: dict) -> Iterator[str]:
    """Say which written ``HA`` or ``KM`` was not read: the handicap is then null (the
    board's stones still place it for the replay), as the komi already is."""
    problem = metadata.handicap_warning(row["handicap_raw"])
    if problem:
        row["handicap"] = None
        yield problem
    problem = metadata.komi_warning(row["komi_raw"])
    if problem:
        yield problem


def unfit_values(row: dict) -> Iterator[str]:
    """Null every integer its column cannot hold, saying so: the table is written whatever a record holds."""
    for name, bounds in _INT_RANGES.items():
        value = row[name]
        if value is not None and not bounds.min <= value <= bounds.max:
            row[name] = None
            yield f"{name} {value} does not fit the column ({bounds.dtype}); stored as null"


def check_liberties(row: dict) -> None:
    """Refuse a final position with stones that have no liberty: only a setup can leave
    one (a move captures or is refused), and no ruleset can score it as a finished game.

    Raises
    ------
    GameError
        Naming how many such stones there are; the row keeps its other columns.
    """
    board = np.frombuffer(row["board"], dtype=np.int8).reshape(row["board_rows"], row["board_cols"])
    airless = int((liberty_map(board) == 0).sum())
    if airless:
        raise GameError(f"the setup leaves {airless} stone(s) with no liberty; the position is not scored")
IDENTITY_COLUMNS = ("moves_hash", "result_raw", "komi_raw", "rules_raw", "handicap_raw",
                    "black_player", "white_player", "date_raw")


def record_id(row: dict) -> str:
    """The game's id: its moves and the metadata that say who played, when, and how it ended.

    Whitespace, property order, file and encoding do not change it, so the same record
    read from two places has the same id; ``moves_hash`` alone matches re-exports of a
    game whose metadata was spelled differently.
    """
    identity = "\x1f".join(str(row[column] or "") for column in IDENTITY_COLUMNS)
    return hashlib.blake2b(identity.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def describe(game: Game) -> dict:
    """The normalised metadata columns of a parsed game (``warnings``: what was not read)."""
    root = {key: values[0] if values else "" for key, values in game.root.items()}
    source = metadata.detect_source(root)
    rows, cols = game.size
    result = metadata.parse_result(root.get("RE"), zi=metadata.margin_in_zi(root, source))
    return dict(
        source=source,
        board_rows=rows,
        board_cols=cols,
        black_player=root.get("PB"),
        white_player=root.get("PW"),
        black_rank=metadata.parse_rank(root.get("BR")),
        white_rank=metadata.parse_rank(root.get("WR")),
        date_raw=root.get("DT"),
        year=metadata.parse_year(root.get("DT")),
        event=root.get("EV") or root.get("GN"),
        result_raw=root.get("RE"),
        result_kind=result.kind,
        result_winner=result.winner,
        result_margin=result.margin,
        komi_raw=root.get("KM"),
        handicap_raw=root.get("HA"),
        rules_raw=root.get("RU"),
        rules=metadata.parse_rules(root.get("RU")),
        variations_skipped=game.variations,
        moves_missing_after=metadata.moves_missing_after(root.get("GC")),
        warnings="; ".join(filter(None, (result.warning, metadata.year_warning(root.get("DT"))))) or None,
    )


def _opening_counts(events: np.ndarray) -> tuple[int, int, int]:
    """Setup stones before the first move, and Black stones played before White's first stone."""
    kinds, colours, rows = events[:, 0], events[:, 1], events[:, 2]
    moves = np.flatnonzero(kinds == 0)
    first_move = moves[0] if moves.size else len(events)
    setup = events[:first_move]
    setup_black = int(((setup[:, 0] == 1) & (setup[:, 1] == BLACK)).sum())
    setup_white = int(((setup[:, 0] == 1) & (setup[:, 1] == WHITE)).sum())
    white_stones = np.flatnonzero((kinds == 0) & (colours == WHITE) & (rows >= 0))
    until = white_stones[0] if white_stones.size else len(events)
    opening_black = int(((kinds[:until] == 0) & (colours[:until] == BLACK) & (rows[:until] >= 0)).sum())
    return setup_black, setup_white, opening_black


def replayed(game: Game, events: np.ndarray, row: dict, superko: bool) -> dict:
    """Replay columns, plus the metadata that needs the moves (handicap, komi); the moves
    are judged by the record's rules."""
    setup_black, setup_white, opening_black = _opening_counts(events)
    handicap = metadata.infer_handicap(row["handicap_raw"], setup_black, setup_white, opening_black)
    rows, cols = game.size
    marks = territory_marks(game)
    suicide, ko = replay_rules(row["rules"], superko=superko)
    result = replay(rows, cols, events, suicide=suicide, ko=ko, handicap=handicap.value,
                    territory_marks=marks)
    position = result.position
    ko = None if position.ko_point is None else position.ko_point[0] * cols + position.ko_point[1]
    return dict(
        handicap=handicap.value,
        handicap_source=handicap.how,
        handicap_mismatch=handicap.mismatch,
        komi=metadata.parse_komi(row["komi_raw"], source=row["source"], handicap=handicap.value),
        move_count=result.moves,
        passes_black=position.passes_black,
        passes_white=position.passes_white,
        last_mover=COLOUR_NAME.get(result.last_mover),
        last_placer=COLOUR_NAME.get(position.last_placer),
        to_move=COLOUR_NAME.get(position.to_move),
        ended_by_passes=result.ended_by_passes,
        captured_black=position.captured_black,
        captured_white=position.captured_white,
        placed_black=position.placed_black,
        placed_white=position.placed_white,
        illegal_move_count=len(result.illegal),
        first_illegal_move=result.illegal[0][0] if result.illegal else None,
        illegal_moves="; ".join(f"{number}:{reason}" for number, reason in result.illegal) or None,
        ko_point=ko,
        cycle=result.cycle_kind,
        cycle_start=None if result.cycle is None else result.cycle[0],
        cycle_end=None if result.cycle is None else result.cycle[1],
        ended_in_cycle=None if result.cycle is None else result.ended_in_cycle,
        board=position.to_bytes(),
        territory_marks=None if marks is None else marks.astype(np.int8).tobytes(),
        moves=events.astype(np.int8).tobytes(),
    )
