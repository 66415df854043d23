"""Crash and rerun (issue 5, Rules; ARCHITECTURE, "Exactly-once landing"): a sync killed
with SIGKILL at many points (after N calls, or at a random moment, perhaps inside a DuckDB
transaction), then run again, leaves exactly the warehouse of one uninterrupted run of the same
sandbox state."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import MakeSandbox
from tests.stored_rows import stored_rows

from .helpers import ALL_SCOPES_KEY, REPO, advance, clock, snapshot

pytestmark = pytest.mark.slow


def _start(db: Path, base_url: str, run_id: str, kill_after: int | None = None,
           ) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PMS_", "PMSW_"))}
    env["PMS_API_KEY"] = ALL_SCOPES_KEY
    # tests/kill_after.py: SIGKILL just before the meters' call kill_after + 1
    hook = [] if kill_after is None else ["-m", "tests.kill_after", str(kill_after)]
    return subprocess.Popen([sys.executable, *(hook or ["-m"]), "tests.pipeline.sync_runner",
                             str(db), base_url, run_id], cwd=REPO, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _finish(process: subprocess.Popen[bytes], timeout: float) -> tuple[int, str]:
    """Wait for the runner; its exit code and stderr (communicate closes the pipe)."""
    _, err = process.communicate(timeout=timeout)
    return process.returncode, err.decode(errors="replace")


def _calls(db: Path) -> int:
    [row] = stored_rows(db, "SELECT sum(calls) FROM meta.sync_runs")
    return int(row[0] or 0)


def test_sigkill_at_many_points_then_rerun_equals_an_uninterrupted_run(
        make_sandbox: MakeSandbox, tmp_path: Path) -> None:
    sandbox = make_sandbox(clock(), admin=True)
    advance(sandbox.root_url, days=2)  # the sandbox's time stands still from here on

    reference = tmp_path / "reference.duckdb"
    began = time.monotonic()
    code, err = _finish(_start(reference, sandbox.base_url, "reference"), 120)
    assert code == 0, err
    whole = time.monotonic() - began
    total_calls = _calls(reference)
    assert total_calls > 100

    expected = snapshot(reference)
    rng = random.Random(11)
    # Killed after N calls (N spread over the whole run: every stream), then run again.
    for n, point in enumerate(sorted(rng.sample(range(1, total_calls), 4))):
        crashed = tmp_path / f"crashed-{n}.duckdb"
        code, err = _finish(_start(crashed, sandbox.base_url, f"kill-{n}", kill_after=point),
                            120)
        assert code == -signal.SIGKILL, err
        code, err = _finish(_start(crashed, sandbox.base_url, f"rerun-{n}"), 120)
        assert code == 0, err
        got = snapshot(crashed)
        for table in expected:
            assert got[table] == expected[table], (point, table)

    # Killed at random moments, again and again on one warehouse, then run to the end.
    crashed = tmp_path / "crashed-timer.duckdb"
    for n in range(2):
        process = _start(crashed, sandbox.base_url, f"timer-{n}")
        time.sleep(rng.uniform(0.3, 0.9) * whole)
        process.send_signal(signal.SIGKILL)
        _finish(process, 30)
    code, err = _finish(_start(crashed, sandbox.base_url, "final"), 120)
    assert code == 0, err
    got = snapshot(crashed)
    for table in expected:
        assert got[table] == expected[table], table
    assert len(expected["core.reservations"]) > 20
    assert expected["core.folio_lines"]
    assert expected["core.events"]
