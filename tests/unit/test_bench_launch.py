"""benchmarks/launch.py tells a command's own peak memory (b921919:benchmarks/results.md, "The peak
RSS of a child counted its parent's"): a child spawned by a process that once held a lot of
memory reports that process's high-water mark as its own peak on Linux, so bench_group's `pmsw
sync` runs, spawned after the group's simulation, all reported at least the simulation's memory."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

LAUNCHER = Path(__file__).resolve().parents[2] / "benchmarks" / "launch.py"

PARENT = """
import json, os, subprocess, sys
held = bytearray(400 * 2**20)
for i in range(0, len(held), 4096):  # resident, page by page
    held[i] = 1
del held
child = [sys.executable, "-c", "pass"]
spawned = subprocess.Popen(child)
_, _, direct = os.wait4(spawned.pid, 0)
launched = subprocess.run([sys.executable, sys.argv[1], sys.argv[2], "--", *child],
                          capture_output=True, text=True, check=True).stdout.split()
print(json.dumps({"direct_kib": direct.ru_maxrss, "exit": int(launched[1]),
                  "launched_kib": int(launched[2])}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's accounting")
def test_a_launched_command_reports_its_own_peak_not_its_parent_s(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", PARENT, str(LAUNCHER), str(tmp_path / "log")],
                          capture_output=True, text=True, check=True)
    got = json.loads(done.stdout)
    assert got["exit"] == 0
    if got["direct_kib"] <= 400 * 1024:  # spawned by fork, not vfork: nothing passed on
        pytest.skip("this Python and kernel do not pass the parent's peak to a child")
    # spawned straight from the parent, an empty interpreter "peaked" at the parent's 400 MiB
    # through the launcher it tells its own: an interpreter, far below the parent's
    assert got["launched_kib"] < 100 * 1024


def test_the_launcher_refuses_a_command_line_without_its_separator(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(LAUNCHER), str(tmp_path / "log"), "true"],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr == "usage: launch.py LOG -- COMMAND [ARG...]\n"
    assert not (tmp_path / "log").exists()
