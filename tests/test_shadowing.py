"""A folder named ``rulelab`` beside a script, which Python imports in place of the
package, is named in one line, whatever the script imports of rulelab."""

import os
import subprocess
import sys

import pytest

from rulelab.shadowing import PACKAGE


@pytest.mark.parametrize("holds_init", [False, True], ids=["namespace folder", "package folder"])
@pytest.mark.parametrize("command", [["study.py"], ["-m", "rulelab.cli", "--help"]], ids=["script", "cli"])
def test_a_folder_named_rulelab_beside_the_script_is_named(tmp_path, holds_init, command):
    folder = tmp_path / "rulelab"
    folder.mkdir()
    if holds_init:
        (folder / "__init__.py").write_text("")
    (tmp_path / "study.py").write_text("import rulelab.analysis\n")
    # the environment of a user's shell: no safe-path or path setting of the test run's
    env = {name: value for name, value in os.environ.items() if name not in ("PYTHONSAFEPATH", "PYTHONPATH")}
    ran = subprocess.run([sys.executable, *command], cwd=tmp_path, capture_output=True, text=True, env=env)
    if ran.returncode == 0:  # an install found before a namespace folder: no shadow (not an editable one)
        assert not holds_init, (ran.stdout, ran.stderr, sys.flags.safe_path)
        return
    assert ran.stderr.splitlines()[-1] == (
        f"ImportError: the folder {folder} is imported as rulelab instead of the package in {PACKAGE}: "
        "Python finds it first, beside the script or in the current folder; rename or move it, or run "
        "the script from another folder")


def test_the_package_itself_is_no_shadow():
    from rulelab.shadowing import shadowing_folder

    assert shadowing_folder() is None
