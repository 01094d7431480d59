"""The bench's summary: ratios against the baseline of the same run and games per second per core."""

from bench.run import summary

THROUGHPUT = {"games": 3101, "baseline_games_per_s": 400.0,
              **{f"{stage}_jobs{jobs}_{figure}": value
                 for stage in ("ingest", "pipeline") for jobs in (1, 2)
                 for figure, value in (("vs_baseline", 1.5 * jobs), ("games_per_s_per_core", 300.0 + jobs))}}


def test_a_throughput_alone_is_summed_up_with_games_per_second_per_core():
    lines = summary({"throughput_kgs_dev": THROUGHPUT}).splitlines()
    assert lines[0].startswith("baseline  400.0 games/s on one core")
    assert "pipeline  1.5x the sgfmill baseline with 1 job, 3.0x with 2; games/s per core 301.0 and 302.0" in lines
    assert not any(line.startswith(("memory", "GNU Go")) for line in lines)


def test_a_whole_bench_adds_memory_and_gnu_go():
    memory = {"full": {"peak_tree_rss_mib": 500, "games": 113316}, "sample": {"peak_tree_rss_mib": 450, "games": 14589},
              "peak_ratio": 1.11, "games_ratio": 7.77}
    text = summary({"throughput_kgs_dev": THROUGHPUT, "memory_dev_mixed": memory,
                    "gnugo_50_counted_kgs_games": {"skipped": "gnugo not installed"}})
    assert "1.11x the memory for 7.77x the games" in text
    assert text.endswith("GNU Go    skipped: gnugo not installed")


def test_the_gnu_go_comparison_times_the_scorer_on_real_records():
    from bench.gnugo import time_rulelab

    record = b"(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]RE[B+2];B[ee];W[ec];B[ce];W[];B[])"
    timed = time_rulelab([("a.sgf", record), ("b.sgf", record)], min_cpu_s=0.0)
    assert timed["score_rows_per_round"] == 2 * 10  # nine presets and the record's own rules, per game
    assert timed["positions"] == 2  # one round: no CPU time asked for
