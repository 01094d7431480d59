"""The plain baseline every rulelab figure is compared with: sgfmill parse + sgfmill replay.

It reads the same archive stream rulelab reads, parses each game with
``sgfmill.sgf.Sgf_game.from_bytes`` and replays its main line on ``sgfmill.boards.Board``.
"""

from __future__ import annotations

import tarfile

from sgfmill import sgf, sgf_moves


def replay_with_sgfmill(data: bytes) -> bool:
    """Parse and replay one game; False when sgfmill cannot."""
    try:
        game = sgf.Sgf_game.from_bytes(data)
        board, moves = sgf_moves.get_setup_and_moves(game)
    except ValueError:
        return False
    for colour, move in moves:
        if move is None:
            continue
        try:
            board.play(move[0], move[1], colour)
        except ValueError:
            pass
    return True


def sgf_members(archive: str, limit: int | None = None):
    """The bytes of each ``.sgf`` member of a tar archive, streamed."""
    with tarfile.open(archive, "r|*") as tar:
        count = 0
        for member in tar:
            if member.isfile() and member.name.lower().endswith(".sgf"):
                yield tar.extractfile(member).read()
                count += 1
                if limit and count >= limit:
                    return


def run_baseline(archive: str, limit: int | None = None) -> tuple[int, int]:
    """Games read and games sgfmill could parse and replay."""
    games = parsed = 0
    for data in sgf_members(archive, limit):
        games += 1
        parsed += replay_with_sgfmill(data)
    return games, parsed
