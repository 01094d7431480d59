"""The named positions of the tests, read from the diagram files in ``data/positions/``.

A file holds positions one after another. Each starts with a line ``== name``, then
comment lines (``#``, the position's story and hand count), setting lines
``key: value`` and the diagram (``X`` Black, ``O`` White, ``.`` empty; a lower-case
``x`` or ``o`` is a stone the verdict calls dead). The settings a test may read:

- ``position``: facts of :meth:`rulelab.position.Position.from_diagram`, as
  ``name=value`` words (``handicap=2 captured_white=1 to_move=W``);
- ``life``: the method of the verdict built from the diagram (``markup`` when absent);
- ``margin_before_komi``: ``preset value`` pairs, comma-separated, one per preset;
- ``result``: ``preset result`` pairs (``B+0.5``, ``draw``), the verdict of each preset at
  the komi it gives this game (:meth:`rulelab.rules.Ruleset.for_game`);
- ``flags``: the rule flags the estimator raises (``bent_four_in_the_corner``), space-separated;
- ``record`` and ``moves``: root properties and moves of :meth:`Named.record`;
- ``finish`` and ``as_is`` (``finish.txt``): the moves the finisher adds, as SGF nodes, and
  the margins of the board as it stands, as ``margin_before_komi`` gives the finished board's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np
from rulelab.position import BLACK, WHITE, Life, Position

POSITIONS = Path(__file__).resolve().parents[1] / "data" / "positions"
_COLOURS = {"B": BLACK, "W": WHITE}


@dataclass(frozen=True)
class Named:
    """One named position as its file states it."""

    name: str
    diagram: str
    """The diagram as written, dead stones in lower case."""
    settings: dict[str, str] = field(default_factory=dict)

    def position(self, **facts) -> Position:
        """The position, with the file's ``position`` facts and then ``facts``."""
        return Position.from_diagram(self.diagram.upper(), **{**self.facts(), **facts})

    def facts(self) -> dict:
        """The ``position`` setting as keyword arguments."""
        facts = {}
        for word in self.settings.get("position", "").split():
            key, value = word.split("=")
            facts[key] = _COLOURS[value] if key == "to_move" else int(value)
        return facts

    def life(self) -> Life:
        """The verdict the diagram states: its lower-case stones dead, by the ``life``
        method (the scorer finds seki on the board itself)."""
        dead = np.array([[ch in "xo" for ch in line.split()] for line in self._lines()])
        return Life(dead=dead, method=self.settings.get("life", "markup"))

    def record(self) -> str:
        """An SGF record: the diagram's stones set up (``AB``/``AW``), the ``record``
        setting's root properties, then the ``moves`` setting."""
        rows = [line.split() for line in self._lines()]
        points = {colour: "".join(f"[{chr(97 + c)}{chr(97 + r)}]" for r, line in enumerate(rows)
                                  for c, point in enumerate(line) if point.upper() == colour)
                  for colour in "XO"}
        size = f"{len(rows[0])}:{len(rows)}" if len(rows[0]) != len(rows) else str(len(rows))
        return (f"(;GM[1]FF[4]SZ[{size}]{self.settings.get('record', '')}"
                f"AB{points['X']}AW{points['O']}{self.settings.get('moves', '')})")

    def pairs(self, key: str) -> dict[str, str]:
        """A setting of ``name value`` pairs, comma-separated, as a dict."""
        pairs = (item.split() for item in self.settings.get(key, "").split(",") if item.strip())
        return {name: value for name, value in pairs}

    def margins(self) -> dict[str, float]:
        """``margin_before_komi`` per preset name."""
        return {name: float(value) for name, value in self.pairs("margin_before_komi").items()}

    def results(self) -> dict[str, str]:
        """``result`` per preset name (empty when the file states none)."""
        return self.pairs("result")

    def _lines(self) -> list[str]:
        return [line for line in self.diagram.splitlines() if line.strip()]


@cache
def named_positions(file: str) -> dict[str, Named]:
    """The positions of ``data/positions/<file>.txt`` by name, in the file's order."""
    found: dict[str, Named] = {}
    name, settings, rows = None, {}, []

    def close():
        if name is None:
            return
        if name in found:
            raise ValueError(f"{file}.txt names the position {name!r} twice")
        found[name] = Named(name, "\n".join(rows), settings)

    for line in (POSITIONS / f"{file}.txt").read_text(encoding="utf-8").splitlines():
        text = line.strip()
        if text.startswith("== "):
            close()
            name, settings, rows = text[3:].strip(), {}, []
        elif not text or text.startswith("#") or name is None:
            continue
        elif ":" in text:
            key, value = text.split(":", 1)
            settings[key.strip()] = value.strip()
        else:
            rows.append(text)
    close()
    return found
