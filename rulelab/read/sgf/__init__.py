"""Games out of SGF text: split a file into game trees, read each tree's main line, and
turn it into the events replay plays.

Only the main line matters to rulelab (the first child at every branch).
:mod:`~rulelab.read.sgf.split` cuts a file into game trees; :mod:`~rulelab.read.sgf.parse`
reads one tree's main line, leaving what it is unsure of to sgfmill
(:mod:`~rulelab.read.sgf.reference`); :mod:`~rulelab.read.sgf.events` gives its setup
and moves, its territory marks and its content hash.

What is tolerated and what is an error:

- text outside game trees (headers, trailing ``)``, mail footers): skipped with a warning;
- a file that starts with ``;`` (some Fox files lost their opening ``(``): read as one
  game tree with the ``(`` added, with a warning;
- a game tree that never closes (a lost ``)`` or ``]``, a truncated file): that game is
  a ParseError, since moves may be missing; the splitter resumes at the next line that
  starts a game with a root property, so the games after it survive;
- ``]`` inside a value, a property value outside a node, a missing ``;`` at the start of
  a variation, junk that cannot be tokenised: ParseError naming the node;
- whitespace inside a point value (``B[oq\\n]``, seen in old ``.mgt`` files): ignored;
- lowercase letters in property names (FF[1]/FF[3] ``AddBlack``, ``Black``): dropped,
  as FF[3] prescribes, so ``AddBlack`` reads as ``AB``;
- moves off the board, bad ``SZ``, ``GM`` other than 1: GameError.

Every record costs at most a constant times its size: each module states its budgets.
"""

from rulelab.read.sgf.events import MOVE, PASS, SETUP_ADD, SETUP_EMPTY, content_hash, game_events, territory_marks
from rulelab.read.sgf.parse import Game, parse_game
from rulelab.read.sgf.split import GameText, split_games

__all__ = ["MOVE", "PASS", "SETUP_ADD", "SETUP_EMPTY", "Game", "GameText", "content_hash", "game_events",
           "parse_game", "split_games", "territory_marks"]
