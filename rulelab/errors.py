"""One exception family for rulelab, and how its messages are shown.

Each subclass carries a ``status`` string: the batch layer turns a failure into a
row whose ``status`` column is that string and whose ``error`` column is the message.
"""

import re

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def printable(text: str | None) -> str | None:
    """``text`` safe to store and to print on one line: undecodable bytes (surrogate
    escapes) and control characters become ``\\xNN``, so a file named ``\\x1b[2J`` names
    itself rather than clearing the terminal."""
    if text is None:
        return None
    text = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return _CONTROL.sub(lambda match: f"\\x{ord(match.group()):02x}", text)


def printable_lines(text: str) -> str:
    """Several lines, each :func:`printable`."""
    return "\n".join(map(printable, text.split("\n")))


class RulelabError(Exception):
    """Base of every error rulelab raises on purpose."""

    status = "error"


class InputError(RulelabError):
    """An input path, archive or archive member cannot be read safely."""

    status = "input_error"


class SkippedInput(InputError):
    """An input rulelab does not open (an archive inside an archive, a ``.gz`` file):
    one row says so, and the manifest counts it by reason."""

    status = "skipped"


class DecodeError(RulelabError):
    """The bytes of a record cannot be turned into text."""

    status = "decode_error"


class ParseError(RulelabError):
    """The text is not SGF that can be parsed (unbalanced brackets, no game tree, ...)."""

    status = "parse_error"


class GameError(RulelabError):
    """The SGF parses but does not describe a Go game rulelab can replay."""

    status = "game_error"


class IllegalMoveError(RulelabError):
    """A move cannot be played at all (off the board), so replay cannot continue."""

    status = "illegal_move"


class RulesError(RulelabError, ValueError):
    """An unknown ruleset name or an impossible setting (komi, handicap bonus, ...)."""

    status = "rules_error"


def worker_lost(error: BaseException) -> RulelabError:
    """The error a run stops with when a worker dies (killed, out of memory), whatever
    the engine: it says how to carry on, where a traceback would not."""
    said = (str(error).strip().splitlines() or [type(error).__name__])[0].rstrip(":")
    return RulelabError(f"a worker process stopped unexpectedly ({said}); run the same command again to resume")


def raise_if_interrupted(error: BaseException) -> None:
    """Raise ``KeyboardInterrupt`` if ``error`` stands for one.

    Ctrl-C arriving inside a compiled kernel can surface as a ``SystemError`` caused by
    the ``KeyboardInterrupt``. The handlers that keep one bad game from stopping a run
    call this first, so an interruption stops the run instead of being written down
    as that game's error (and reused from its checkpoint on the next run).
    """
    cause: BaseException | None = error
    while cause is not None:
        if isinstance(cause, KeyboardInterrupt):
            raise KeyboardInterrupt from error
        cause = cause.__cause__ or cause.__context__
