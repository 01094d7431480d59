"""The probe harness (bench/probes) judges truly: one probe of each category passes, and
a probe whose expectation is wrong, or whose command touches what is not its own, fails."""

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.probes.catalogue import all_probes
from bench.probes.harness import changes, fresh_scratch, group_ended, judge, snapshot

pytestmark = [pytest.mark.slow, pytest.mark.pool]
PROJECT = Path(__file__).resolve().parents[1]


def first_of_each_category():
    seen = {}
    for probe in all_probes():
        seen.setdefault(probe.category, probe)
    return seen


@pytest.mark.parametrize("category", list(first_of_each_category()))
def test_one_probe_of_each_category_passes(category, tmp_path):
    # judged from a fresh process, as `make probes` judges it: Linux counts in a child's
    # peak resident set its parent's at the fork, and this test process has grown large
    probe = first_of_each_category()[category]
    ran = subprocess.run([sys.executable, "-m", "bench.probes", "--category", category, "--match", probe.name,
                          "--scratch", str(tmp_path)], cwd=PROJECT, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stdout + ran.stderr


def expecting(probe, **changed):
    def build(scratch):
        return dataclasses.replace(probe.build(scratch), **changed)
    return dataclasses.replace(probe, build=build)


@pytest.mark.parametrize("changed, reason", [
    ({"rows": {"in/bad.sgf": 2, "in/good.sgf": 1}}, "in/bad.sgf: 1 rows, expected 2"),
    ({"rows": {"in/good.sgf": 1}}, "rows from unplanted sources: ['in/bad.sgf']"),
    ({"exits": (2,)}, "exit status 0, expected (2,)"),
    ({"owned": ()}, "changed outside its folders: run"),
])
def test_a_wrong_expectation_fails_the_probe(changed, reason, tmp_path):
    probe = expecting(first_of_each_category()["record values"], **changed)
    assert any(reason in said for said in judge(probe, fresh_scratch(tmp_path, probe)))


def test_a_changed_file_or_retargeted_link_is_seen(tmp_path):
    (tmp_path / "mine.txt").write_text("mine")
    (tmp_path / "link").symlink_to("mine.txt")
    before = snapshot([tmp_path], set())
    (tmp_path / "mine.txt").write_text("gone")
    os.remove(tmp_path / "link")
    (tmp_path / "link").symlink_to("elsewhere")
    assert changes(before, snapshot([tmp_path], set())) == [str(tmp_path / "link"), str(tmp_path / "mine.txt")]


def test_a_process_left_running_by_the_command_is_seen_and_ended():
    import subprocess

    leader = subprocess.Popen(["sh", "-c", "sleep 60 & exit 0"], start_new_session=True)
    leader.wait()
    assert not group_ended(leader.pid, grace=0.5)
    assert group_ended(leader.pid, grace=2)  # killed by the first call
