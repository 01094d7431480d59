"""The bench's summary and the figures table it writes: ratios against the baseline of the
same run, games per second per core, and what life and death costs a game."""

import pytest

from bench.figures import BEGIN, END, figures_table, update_doc
from bench.run import life_budget, summary

SPEED = {"games": 3101, "baseline_games_per_s": 400.0,
         **{f"{stage}_jobs{jobs}_{figure}": value
            for stage in ("ingest", "pipeline") for jobs in (1, 2)
            for figure, value in (("vs_baseline", 1.5 * jobs), ("games_per_s_per_core", 300.0 + jobs))},
         "pipeline_jobs1_games_per_s": 250.0, "marks_only_jobs1_games_per_s": 1000.0,
         "marks_only_jobs1_vs_baseline": 2.5, "marks_only_jobs1_games_per_s_per_core": 1000.0,
         "finish_games": 3101, "finish_played_games": 400, "finish_ms_per_game_jobs1": 0.15,
         "finish_moves_per_played_game": 12.5}
THROUGHPUT = {**SPEED, **life_budget(SPEED)}
MEMORY = {"full": {"peak_tree_rss_mib": 500, "games": 113316}, "sample": {"peak_tree_rss_mib": 450, "games": 14589},
          "peak_ratio": 1.11, "games_ratio": 7.77}
WHOLE = {"throughput_kgs_dev": THROUGHPUT, "memory_dev_mixed": MEMORY, "date": "2026-12-04", "python": "3.11.7",
         "cpus": 2, "gnugo_50_counted_kgs_games": {"skipped": "gnugo not installed"}}


def test_life_costs_the_pipeline_less_the_pipeline_with_the_marks():
    # 4 ms a game in all, 1 ms with the marks; 1.2 x 400 games/s is 2.083 ms a game
    assert THROUGHPUT["life_ms_per_game_jobs1"] == 3.0
    assert THROUGHPUT["life_budget_ms_per_game_at_target"] == 1.083


def test_a_throughput_alone_is_summed_up_with_games_per_second_per_core():
    lines = summary({"throughput_kgs_dev": THROUGHPUT}).splitlines()
    assert lines[0].startswith("baseline  400.0 games/s on one core")
    assert "pipeline  1.5x the sgfmill baseline with 1 job, 3.0x with 2; games/s per core 301.0 and 302.0" in lines
    assert "life      3.0 ms a game with 1 job; 1.2x the baseline would leave it 1.083 ms" in lines
    assert "finish    0.15 ms a game with 1 job to play it to its end (400 of 3,101 games played out, 12.5 moves each)" in lines
    assert not any(line.startswith(("memory", "GNU Go")) for line in lines)


def test_a_whole_bench_adds_memory_and_gnu_go():
    text = summary(WHOLE)
    assert "1.11x the memory for 7.77x the games" in text
    assert text.endswith("GNU Go    skipped: gnugo not installed")


def test_the_figures_table_replaces_the_last_one_and_nothing_else(tmp_path):
    doc = tmp_path / "PERFORMANCE.md"
    doc.write_text(f"# Performance\n\nbefore\n\n{BEGIN}\nold figures\n{END}\n\nafter\n")
    update_doc(WHOLE, doc)
    update_doc(WHOLE, doc)
    text = doc.read_text()
    assert "old figures" not in text and text.count(BEGIN) == 1
    assert text.startswith("# Performance\n\nbefore\n\n") and text.endswith(f"{END}\n\nafter\n")
    assert figures_table(WHOLE) in text
    assert "| ingest of the same games | 1.5× with 1 job, 3.0× with 2 | 301 and 302 |" in text
    assert "| life and death, a game with 1 job: the two rows above apart | 3.0 ms; 1.083 ms" in text
    assert "| scoring final positions vs GNU Go | skipped: gnugo not installed | |" in text
    assert ("classifying it again (400 of the games played out, resigned ones counted as they stand, "
            "12.5 moves each) | 0.15 ms | |") in text


def test_a_page_without_the_markers_is_left_alone(tmp_path):
    doc = tmp_path / "PERFORMANCE.md"
    doc.write_text("# Performance\n")
    with pytest.raises(ValueError, match="lacks the markers"):
        update_doc(WHOLE, doc)
    assert doc.read_text() == "# Performance\n"


def test_the_gnu_go_comparison_times_the_scorer_on_real_records():
    from bench.gnugo import time_rulelab

    record = b"(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]RE[B+2];B[ee];W[ec];B[ce];W[];B[])"
    timed = time_rulelab([("a.sgf", record), ("b.sgf", record)], min_cpu_s=0.0)
    assert timed["score_rows_per_round"] == 2 * 10  # nine presets and the record's own rules, per game
    assert timed["positions"] == 2  # one round: no CPU time asked for
