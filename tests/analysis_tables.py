"""Small constructed run tables with known answers, for the analysis tests.

``score_row`` computes a scores row from the counts of RULES.md's notation, so every
row obeys the identity ``ΔA − ΔT = (M_B − M_W) + (X_B − X_W)`` by construction.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd


def score_row(game_id: str, ruleset: str, scoring: str, komi: float, *, stones=(0, 0),
              surrounded=(0, 0), prisoners=(0, 0), seki_eyes=(0, 0), owed=(0, 0), tax=(0, 0),
              handicap_bonus: float = 0, dead=(0, 0), dame: int = 0, tie_break: str = "draw",
              dame_policy: str = "none", komi_source: str = "standard", finished: bool = True,
              life_method: str = "markup") -> dict:
    """A scores row. ``surrounded`` is ``E_c`` (seki eyes and owed points included),
    ``prisoners`` the stones each colour *holds*."""
    (sb, sw), (eb, ew), (pb, pw) = stones, surrounded, prisoners
    (xb, xw), (ob, ow), (tb, tw) = seki_eyes, owed, tax
    territory_b, territory_w = eb - xb - ob, ew - xw - ow
    area_margin = (sb + eb) - (sw + ew)
    territory_margin = (territory_b + pb) - (territory_w + pw)
    if scoring == "area":
        black, white = sb + eb - tb, sw + ew - tw
    else:
        black, white = territory_b + pb - tb, territory_w + pw - tw
    before = float(black - white - handicap_bonus)
    margin = before - komi
    winner = "B" if margin > 0 else "W" if margin < 0 else ("B" if tie_break == "black" else "draw")
    return {
        "game_id": game_id, "ruleset": ruleset, "komi_source": komi_source, "komi": float(komi),
        "scoring": scoring, "black_stones": sb, "white_stones": sw, "black_territory": territory_b,
        "white_territory": territory_w, "black_prisoners": pb, "white_prisoners": pw,
        "black_seki_points": xb, "white_seki_points": xw, "black_owed": ob, "white_owed": ow,
        "black_group_tax": tb, "white_group_tax": tw, "pass_stones_black": 0, "pass_stones_white": 0,
        "handicap_bonus": float(handicap_bonus), "dame": dame, "dead_black": dead[0],
        "dead_white": dead[1], "black_points": float(black), "white_points": float(white),
        "margin_before_komi": before, "margin": margin, "winner": winner, "tie_break": tie_break,
        "black_zi": None, "black_zi_after_komi": None,
        "area_margin": float(area_margin), "territory_margin": float(territory_margin),
        "dame_policy": dame_policy, "life_method": life_method, "life_confidence": 1.0,
        "finished": finished,
    }


PRESETS = {  # name: (scoring, komi, tie_break, handicap bonus per stone: 'N', 'N-1' or 0)
    "chinese": ("area", 7.5, "draw", "N"),
    "japanese": ("territory", 6.5, "draw", "0"),
    "ing": ("area", 8.0, "black", "0"),
    "tromp-taylor": ("area", 7.5, "draw", "0"),
}


def preset_rows(game_id: str, handicap: int = 0, *, tt_dead=None, **counts) -> list[dict]:
    """One row per preset of :data:`PRESETS` for one position; Tromp–Taylor keeps the
    dead stones on the board when ``tt_dead`` gives ``dict(stones=..., surrounded=..., ...)``."""
    rows = []
    for name, (scoring, komi, tie_break, bonus) in PRESETS.items():
        handicap_bonus = {"N": handicap, "N-1": max(handicap - 1, 0), "0": 0}[bonus]
        own = dict(counts, **(tt_dead or {})) if name == "tromp-taylor" else counts
        rows.append(score_row(game_id, name, scoring, komi, tie_break=tie_break,
                              handicap_bonus=handicap_bonus, **own))
    return rows


def collection() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Five 9×9 games, one per situation, with their games and scores tables.

    Each position has ``M_B = M_W`` (White placed the last stone) unless said otherwise.

    - ``g_agree``: ΔA = ΔT = 25, everyone says Black.
    - ``g_last_dame``: ΔA = ΔT = 7: Chinese W+0.5, Japanese B+0.5, Ing W+1 (komi).
    - ``g_seki``: Black's group in seki has two eyes: ΔA = 8, ΔT = 6: Chinese B+0.5,
      Japanese W+0.5 (seki eyes), Ing 0 → Black by the tie-break.
    - ``g_handicap``: 2 handicap stones and Black placed the last stone (M_B − M_W = 3):
      ΔA = 9, ΔT = 6: Chinese 9 − 2 − 7.5 = W+0.5, Ing B+1, Tromp–Taylor B+1.5,
      Japanese W+0.5.
    - ``g_dead``: two dead White stones in a 6-point Black region: ΔA = ΔT = 9 once
      removed (everyone B) but Tromp–Taylor keeps them, the region turns neutral:
      ΔA = 1, W+6.5.
    """
    scores = (
        preset_rows("g_agree", stones=(40, 30), surrounded=(20, 5), prisoners=(10, 0))
        + preset_rows("g_last_dame", stones=(40, 36), surrounded=(3, 0), prisoners=(6, 2))
        + preset_rows("g_seki", stones=(38, 38), surrounded=(8, 0), seki_eyes=(2, 0))
        + preset_rows("g_handicap", handicap=2, stones=(42, 38), surrounded=(8, 3), prisoners=(2, 1))
        + preset_rows("g_dead", stones=(40, 38), surrounded=(11, 4), prisoners=(4, 2), dead=(0, 2),
                      tt_dead=dict(stones=(40, 40), surrounded=(5, 4), prisoners=(2, 2), dead=(0, 0)))
    )
    ids = ["g_agree", "g_last_dame", "g_seki", "g_handicap", "g_dead"]
    rng = np.random.default_rng(7)
    boards = [rng.integers(0, 3, size=(9, 9), dtype=np.int8).tobytes() for _ in ids]
    games = pd.DataFrame({
        "game_id": ids, "duplicate_of": None, "source_path": "constructed.sgf",
        "archive_member": None, "game_index": range(len(ids)), "status": "ok", "error": None,
        "source": ["kgs", "kgs", "fox", "kgs", "gnugo"], "board_rows": 9, "board_cols": 9,
        "black_player": "b", "white_player": "w", "black_rank": ["5d", "5d", "9p", "2k", "3d"],
        "white_rank": "6d", "year": [1980, 1990, 2005, 2017, None], "event": None,
        "result_raw": None, "result_kind": "counted", "result_winner": "B",
        "result_margin": 0.5, "komi": 6.5, "komi_raw": "6.5",
        "handicap": [0, 0, 0, 2, 0], "rules": "japanese", "rules_raw": "Japanese",
        "move_count": 60, "ended_by_passes": True, "last_mover": "W", "board": boards,
    })
    return games, pd.DataFrame(scores)


def write_run(folder: Path, games: pd.DataFrame, scores: pd.DataFrame, **options) -> Path:
    """A run folder as the pipeline writes it, with provenance metadata (``options``: the
    command's options it records, e.g. ``seed``) and a manifest."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder.mkdir(parents=True, exist_ok=True)
    for name, frame in (("games", games), ("scores", scores)):
        table = pa.Table.from_pandas(frame, preserve_index=False)
        provenance = json.dumps({"rulelab": "0.1.0", "table": name, "options": {"dame_policy": "none", **options}})
        table = table.replace_schema_metadata({**(table.schema.metadata or {}), b"rulelab": provenance})
        pq.write_table(table, folder / f"{name}.parquet")
    manifest = {"rulelab_version": "0.1.0", "options": {"rulesets": sorted(PRESETS)},
                "inputs": [{"path": "constructed.sgf", "sha256": "0" * 64, "games": len(games)}]}
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    return folder
