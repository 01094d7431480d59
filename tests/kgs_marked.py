"""The 2017 KGS games of kgs-dev that ended by counting with the players' dead-stone marks:
the final positions the life and scoring tests compare with the players' own verdict."""

import re
import tarfile

from rulelab.read.decoding import decode_sgf
from rulelab.read.replay import replay
from rulelab.read.sgf import game_events, parse_game, territory_marks

MARKED_FOLDERS = re.compile(r"kgs-19-2017-0[123]-new/[^/]+\.sgf$")
COUNTED = re.compile(rb"RE\[[BW]\+\d")


def counted_positions_with_markup(archive):
    """Final positions of the 2017 KGS games that ended by counting, streamed from the archive."""
    with tarfile.open(archive, "r|xz") as tar:
        for member in tar:
            if not member.isfile() or not MARKED_FOLDERS.search(member.name):
                continue
            data = tar.extractfile(member).read()
            if not COUNTED.search(data):
                continue
            game = parse_game(decode_sgf(data).text)
            marks = territory_marks(game)
            result = replay(*game.size, game_events(game), territory_marks=marks)
            if marks is not None and result.ended_by_passes:
                yield member.name, result.position
