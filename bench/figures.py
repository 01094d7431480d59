"""The figures table of docs/PERFORMANCE.md, made from a whole bench's results, so that
the page states what the latest ``make bench`` measured and nothing copied by hand."""

from __future__ import annotations

from pathlib import Path

from tools.doc_markers import replace_between

DOC = Path(__file__).resolve().parents[1] / "docs" / "PERFORMANCE.md"
BEGIN = "<!-- make bench writes the figures from here -->"
END = "<!-- to here -->"


def _count(value: float) -> str:
    return f"{round(value):,}"


def figures_table(results: dict) -> str:
    """The markdown table of a whole bench's ``results`` (those of ``bench/results.json``)."""
    speed, memory = results["throughput_kgs_dev"], results["memory_dev_mixed"]
    gnugo = results["gnugo_50_counted_kgs_games"]

    def stage(name: str, what: str) -> str:
        return (f"| {what} | {speed[f'{name}_jobs1_vs_baseline']}× with 1 job, {speed[f'{name}_jobs2_vs_baseline']}× "
                f"with 2 | {_count(speed[f'{name}_jobs1_games_per_s_per_core'])} and "
                f"{_count(speed[f'{name}_jobs2_games_per_s_per_core'])} |")

    full, sample = memory["full"], memory["sample"]
    rows = [
        f"The latest, measured on {results['date']} (Python {results['python']}, {results['cpus']} CPUs):",
        "",
        "| figure | ratio | games/s per core |",
        "|---|---|---|",
        f"| sgfmill parse + sgfmill `Board` replay of kgs-dev ({speed['games']:,} games): the baseline | 1 | "
        f"{_count(speed['baseline_games_per_s'])} |",
        stage("ingest", "ingest of the same games"),
        stage("pipeline", "full pipeline (ingest, life and death, 9 rulesets + the record's own)"),
        f"| the pipeline with the records' marks alone for life and death (every stone alive without them) | "
        f"{speed['marks_only_jobs1_vs_baseline']}× with 1 job | {_count(speed['marks_only_jobs1_games_per_s_per_core'])} |",
        f"| life and death, a game with 1 job: the two rows above apart | {speed['life_ms_per_game_jobs1']} ms; "
        f"{speed['life_budget_ms_per_game_at_target']} ms would make the pipeline "
        f"{speed['pipeline_target_vs_baseline']}× the baseline | |",
        f"| the finisher, a game with 1 job: playing the board to its end and classifying it again "
        f"({_count(speed['finish_played_games'])} of the games played out, resigned ones counted as they stand, "
        f"{speed['finish_moves_per_played_game']} moves each) | {speed['finish_ms_per_game_jobs1']} ms | |",
        f"| scoring final positions vs GNU Go `final_score` | {gnugo['ratio_cpu']}× per CPU second | |"
        if "skipped" not in gnugo else f"| scoring final positions vs GNU Go | skipped: {gnugo['skipped']} | |",
        f"| peak memory of `rulelab score`, {full['games']:,} vs {sample['games']:,} games of dev-mixed | "
        f"{memory['peak_ratio']}× ({_count(full['peak_tree_rss_mib'])} vs {_count(sample['peak_tree_rss_mib'])} MiB, "
        f"the whole process tree) | |",
    ]
    return "\n".join(rows)


def update_doc(results: dict, doc: Path = DOC) -> None:
    """Put :func:`figures_table` between the page's two markers, leaving the rest as it is."""
    replace_between(doc, BEGIN, END, figures_table(results))
