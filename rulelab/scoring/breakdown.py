"""The count of one position under one ruleset, every component kept apart."""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class ScoreBreakdown:
    """The count of one position under one ruleset, every component kept apart.

    Point totals are floats (Chinese splits neutral points in halves); counts of
    points and stones are ints. Fields that describe the position rather than the
    ruleset (seki points, owed points, ``area_margin``, ``territory_margin``) are
    filled under every ruleset, so that any row can be checked and compared.
    """

    ruleset: str
    """Name of the ruleset."""
    komi: float
    """Komi applied, in points."""
    scoring: str
    """'area' or 'territory'."""
    black_stones: int
    """Black stones on the board at the count: dead stones removed, except those in
    seki under territory scoring."""
    white_stones: int
    """White stones on the board at the count, as for ``black_stones``."""
    black_territory: int
    """Empty points surrounded by Black, less its seki points and owed points."""
    white_territory: int
    """Empty points surrounded by White, less its seki points and owed points."""
    black_prisoners: int
    """White stones Black holds: captured in play, plus dead stones removed."""
    white_prisoners: int
    """Black stones White holds: captured in play, plus dead stones removed."""
    black_seki_points: int
    """Eye points of Black's groups in seki: counted by area, refused by ``seki_tax='seki'``."""
    white_seki_points: int
    """Eye points of White's groups in seki."""
    black_owed: int
    """Black territory that protective moves would fill (J1989 Art. 9): refused by
    territory scoring with ``refuse_owed``, counted by area scoring."""
    white_owed: int
    """White territory that protective moves would fill."""
    black_group_tax: int
    """Points Black pays under stone scoring: two eye points per group living on its own
    (fewer where it has fewer), every eye point of a group in seki."""
    white_group_tax: int
    """Points White pays under stone scoring."""
    pass_stones_black: int
    """Stones Black handed to White for passing (``pass_stones`` rulesets only); they
    count for White under territory scoring and change nothing under area scoring."""
    pass_stones_white: int
    """Stones White handed to Black for passing."""
    handicap_bonus: int
    """Points White receives for the handicap (included in ``white_points``)."""
    dame: int
    """Empty points counted for nobody."""
    dead_black: int
    """Black stones removed as dead."""
    dead_white: int
    """White stones removed as dead."""
    black_points: float
    """Black's total before komi."""
    white_points: float
    """White's total before komi, handicap bonus included."""
    margin_before_komi: float
    """``black_points - white_points``: the margin at komi k is this minus k."""
    margin: float
    """``margin_before_komi - komi``: positive when Black is ahead."""
    winner: str
    """'B', 'W' or 'draw', the tie-break applied."""
    tie_break: str
    """Who wins at margin 0 under this ruleset: 'draw', or 'black' (Ing)."""
    black_zi: float | None
    """``B_zi``: Black's count in zi before komi, ``black_points`` (under Chinese rules
    its live stones, the points they enclose and half of every neutral point, Art. 9),
    set against the texts' thresholds: with 3¾ zi komi Black needs 184¼ on 19x19, with
    2¾ zi 183¼. None under territory scoring."""
    black_zi_after_komi: float | None
    """Black's count in zi once komi and White's handicap compensation are given back,
    ``(rows*cols + margin) / 2``, set against half the board (180½ on 19x19): Black
    wins above it. Under Chinese rules ``black_zi - (komi + handicap_bonus) / 2``.
    None under territory scoring."""
    area_margin: int
    """Black's stones and surrounded points minus White's, dead stones removed as
    this ruleset removes them, seki liberties and open dame for nobody: ``ΔA``."""
    territory_margin: int
    """Black's territory and prisoners minus White's, seki points, owed points and
    dead stones in seki refused as J1989 refuses them: ``ΔT``."""
    dame_policy: str
    """How open dame were counted under area scoring: 'none' or 'alternate'."""
    life_method: str
    """How the life verdict was reached (``Life.method``)."""
    life_confidence: float
    """Confidence of the life verdict (``Life.confidence``)."""
    finished: bool
    """Whether the life layer judged the position settled (``Life.finished``)."""
    dead_in_seki_black: int
    """Dead black stones in a seki: territory scoring leaves them and gives no prisoner."""
    dead_in_seki_white: int
    """Dead white stones in a seki."""
    black_shared: float
    """Neutral points credited to Black by ``shared_points`` (area scoring): seki
    liberties, and under 'split' the open dame left unfilled too."""
    white_shared: float
    """Neutral points credited to White by ``shared_points`` (area scoring)."""
    black_dame_filled: int
    """Open dame credited to Black by ``dame_policy='alternate'`` (area scoring)."""
    white_dame_filled: int
    """Open dame credited to White by ``dame_policy='alternate'`` (area scoring)."""
    seki_dame: int
    """Shared liberties of seki: neutral points neither side can fill."""
    open_dame: int
    """Neutral points that are not seki liberties: unfilled dame."""
    handicap: int
    """Handicap stones of the game (``Position.handicap``)."""
    board_points: int
    """rows * cols."""

    def to_record(self) -> dict:
        """The breakdown as flat columns of plain Python values, for the scores table."""
        return {name: getattr(self, name) for name in _FIELD_NAMES}


_FIELD_NAMES = tuple(f.name for f in fields(ScoreBreakdown))
